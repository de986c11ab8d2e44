"""``bocage digitize SCAN... --out-dir DIR``: a batch on every core, or on a Dask cluster.

Each scan of a batch must be read exactly as it is alone (its map.json byte for byte),
a scan that cannot be read is named on its own line while the others are written, and
what a batch cannot do is refused before any work, writing nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from click.testing import CliRunner

from pipeline.cli.digitize import digitize
from pipeline.digitize.batch import BatchScan, batch_workers, output_names
from pipeline.errors import DataError
from pipeline.render import Rendered, Scan
from tests.needs import module

from .conftest import DEMO_MAP


def run(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(digitize, [str(a) for a in args], prog_name="bocage digitize")
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def scans(tmp_path_factory: pytest.TempPathFactory, demo_scan: tuple[Rendered, Scan]
          ) -> Path:
    """A folder of two scans of the demo map (PNG and JPEG) and a truncated one."""
    folder = tmp_path_factory.mktemp("scans")
    bgr = cv2.cvtColor(demo_scan[1].image, cv2.COLOR_RGB2BGR)
    cv2.imwrite(str(folder / "east.png"), bgr)
    cv2.imwrite(str(folder / "west.jpg"), bgr, [cv2.IMWRITE_JPEG_QUALITY, 90])
    data = (folder / "west.jpg").read_bytes()
    (folder / "cut.jpg").write_bytes(data[: len(data) // 3])
    return folder


@pytest.fixture(scope="module")
def alone(tmp_path_factory: pytest.TempPathFactory, scans: Path) -> dict[str, bytes]:
    """Each readable scan's map.json, read on its own."""
    out = tmp_path_factory.mktemp("alone")
    maps = {}
    for name in ("east.png", "west.jpg"):
        code, _, stderr = run(scans / name, "-l", DEMO_MAP, "-o", out / f"{name}.json", "-q")
        assert code == 0, stderr
        maps[Path(name).stem] = (out / f"{name}.json").read_bytes()
    return maps


@pytest.mark.slow
def test_a_batch_on_two_cores_reads_each_scan_as_alone_and_names_the_one_it_cannot(
        tmp_path, scans, alone):
    out = tmp_path / "maps"
    code, stdout, stderr = run(scans / "west.jpg", scans / "cut.jpg", scans / "east.png",
                               "-l", DEMO_MAP, "--out-dir", out, "--jobs", "2")
    assert code == 1
    assert sorted(p.name for p in out.iterdir()) == ["east.json", "west.json"]
    for stem, data in alone.items():
        assert (out / f"{stem}.json").read_bytes() == data  # the same reading, byte for byte
    assert f"bocage: {scans / 'cut.jpg'}: image file is truncated" in stderr
    assert f"{scans / 'east.png'}: 550 hexes, 25 x 22" in stdout
    assert stdout.strip().splitlines()[-1] == (
        f"read 2 of 3 scans into {out}; 1 could not be read (above)")


@pytest.mark.slow
def test_a_batch_json_lists_every_scan_in_the_order_given(tmp_path, scans):
    out = tmp_path / "maps"
    code, stdout, _ = run(scans / "cut.jpg", scans / "east.png", "-l", DEMO_MAP,
                          "--out-dir", out, "--jobs", "2", "--json")
    assert code == 1
    doc = json.loads(stdout)
    assert (doc["ok"], doc["scans"], doc["failed"]) == (False, 2, 1)
    first, second = doc["results"]
    assert first["ok"] is False and "image file is truncated" in first["error"]
    assert second["ok"] and second["hexes"] == 550 and second["written"] == [
        str(out / "east.json")]
    assert second["hexside_features"]["bridge"] == 1


@pytest.mark.slow
def test_a_batch_on_a_dask_local_cluster_reads_as_alone(tmp_path, scans, alone):
    distributed = module("distributed", "pip install 'bocage[dask]'")
    out = tmp_path / "maps"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, worker_dashboard_address=None
                                  ) as cluster:
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        code, stdout, stderr = run(scans / "east.png", scans / "west.jpg", "-l", DEMO_MAP,
                                   "--out-dir", out, "--scheduler", address, "--json")
        assert code == 0, stderr
        workers = set(cluster.scheduler_info["workers"])
    assert len(workers) == 2
    assert json.loads(stdout)["failed"] == 0
    for stem, data in alone.items():
        assert (out / f"{stem}.json").read_bytes() == data


def _refused(tmp_path: Path, *args: str | Path) -> str:
    before = sorted(p.name for p in tmp_path.iterdir())
    code, stdout, stderr = run(*args)
    assert code == 2, (stdout, stderr)
    assert stderr.count("\n") == 1 and stderr.startswith("bocage: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written
    return stderr


@pytest.mark.parametrize(("extra", "message"), [
    (["-o", "m.json"], ("-o writes one scan's map.json; 2 scans write theirs into a folder:"
                        " give --out-dir DIR")),
    (["--out-dir", "maps", "--overlay", "o.png"], "--overlay is for one scan"),
    (["--out-dir", "maps", "--write-legend", "l.json"], "--write-legend is for one scan"),
    (["--out-dir", "maps", "--jobs", "2", "--scheduler", "dask://127.0.0.1:9"],
     "--jobs: is for this machine's cores"),
])
def test_what_a_batch_cannot_do_is_refused_before_any_work(tmp_path, scans, extra, message):
    err = _refused(tmp_path, scans / "east.png", scans / "west.jpg", "-l", DEMO_MAP,
                   *[tmp_path / a if a.endswith((".json", ".png")) or a == "maps" else a
                     for a in extra])
    assert message in err


def test_one_scan_needs_an_output_and_takes_no_jobs(tmp_path, scans):
    err = _refused(tmp_path, scans / "east.png", "-l", DEMO_MAP)
    assert "--output: give the file to write (-o map.json), or --out-dir DIR" in err
    err = _refused(tmp_path, scans / "east.png", "-l", DEMO_MAP, "-o", tmp_path / "m.json",
                   "--jobs", "2")
    assert "--jobs: shares out several scans" in err


def test_two_scans_of_one_name_and_an_output_over_a_scan_are_refused(tmp_path, scans):
    other = tmp_path / "other"
    other.mkdir()
    (other / "east.jpg").write_bytes((scans / "west.jpg").read_bytes())
    err = _refused(tmp_path, scans / "east.png", other / "east.jpg", "-l", DEMO_MAP,
                   "--out-dir", tmp_path / "maps")
    assert f"{other / 'east.jpg'}: writes {tmp_path / 'maps' / 'east.json'}, as" in err
    # A scan whose map.json would be written over it (an image named .json, in DIR).
    trap = tmp_path / "trap.json"
    trap.write_bytes((scans / "west.jpg").read_bytes())
    err = _refused(tmp_path, trap, scans / "east.png", "-l", DEMO_MAP, "--out-dir", tmp_path)
    assert "--out-dir would replace the input" in err
    err = _refused(tmp_path, scans / "east.png", scans / "west.jpg", "-l", DEMO_MAP,
                   "--out-dir", trap)
    assert f"--out-dir: Directory '{trap}' is a file" in err


@pytest.mark.slow  # the client waits out its 10 s timeout
def test_a_scheduler_that_does_not_answer_is_one_line(tmp_path, scans):
    module("distributed", "pip install 'bocage[dask]'")
    err = _refused(tmp_path, scans / "east.png", scans / "west.jpg", "-l", DEMO_MAP,
                   "--out-dir", tmp_path / "maps", "--scheduler", "dask://127.0.0.1:9")
    assert "--scheduler: no Dask scheduler answers at dask://127.0.0.1:9" in err


def test_output_names_and_workers():
    assert output_names([Path("a/x.png"), Path("y.tif")], Path("o")) == [
        BatchScan(Path("a/x.png"), Path("o/x.json")), BatchScan(Path("y.tif"), Path("o/y.json"))]
    with pytest.raises(DataError, match=r"as a/x\.png does"):
        output_names([Path("a/x.png"), Path("b/x.jpg")], Path("o"))
    assert batch_workers(None, 1) == 1 and batch_workers(3, 10) == 3
    assert batch_workers(16, 2) == 2  # never more processes than scans
