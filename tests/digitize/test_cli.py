"""``bocage digitize``: files checked by content; bad input refused in one line, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from pipeline.cli.digitize import digitize
from pipeline.model import load_map
from pipeline.render import Rendered, Scan

from .conftest import DEMO_MAP, RoundTrip


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(digitize, list(args), prog_name="bocage digitize")
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def scan_file(tmp_path_factory: pytest.TempPathFactory, demo_scan: tuple[Rendered, Scan]
              ) -> Path:
    path = tmp_path_factory.mktemp("scan") / "scan.png"
    cv2.imwrite(str(path), cv2.cvtColor(demo_scan[1].image, cv2.COLOR_RGB2BGR))
    return path


@pytest.mark.slow
def test_digitize_writes_map_geojson_and_overlay(tmp_path, scan_file):
    out, geo, over = tmp_path / "map.json", tmp_path / "map.geojson", tmp_path / "check.png"
    code, stdout, stderr = run(str(scan_file), "--legend", str(DEMO_MAP), "-o", str(out),
                               "--geojson", str(geo), "--overlay", str(over), "--game", "omaha")
    assert code == 0, stderr
    assert "550 hexes, 25 x 22 flat-top (even-down)" in stdout
    assert "river 27" in stdout and f"wrote {out}" in stdout
    doc = load_map(out)
    assert doc.game == "omaha" and doc.terrain_of("2318") == ["beach"]
    assert doc.boards[0].image == "scan.png"
    hexes = json.loads(geo.read_text())["features"]
    assert len(hexes) == 550 and {f["geometry"]["type"] for f in hexes} == {"Polygon"}
    sides = json.loads((tmp_path / "map.hexsides.geojson").read_text())["features"]
    assert sum(f["properties"]["feature"] == "river" for f in sides) == 27
    picture = cv2.imread(str(over))
    assert picture.shape[:2] == cv2.imread(str(scan_file)).shape[:2]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["check.png", "map.geojson",
                                                          "map.hexsides.geojson", "map.json"]


@pytest.mark.slow
def test_absence_is_written_when_asked(tmp_path, scan_file):
    plain, asked = tmp_path / "plain.json", tmp_path / "asked.json"
    assert run(str(scan_file), "-l", str(DEMO_MAP), "-o", str(plain), "-q")[0] == 0
    code, _, stderr = run(str(scan_file), "-l", str(DEMO_MAP), "-o", str(asked), "-q",
                          "--absence")
    assert code == 0, stderr
    without, with_ = load_map(plain), load_map(asked)
    assert all(f.absent is None for f in without.hexside_features.values())
    # A river left no trace on most hexsides: the reading is sure it is not there.
    assert with_.hexside_features["river"].absent is not None
    assert with_.hexside_features["river"].absent >= 0.9
    assert with_.terrain_of("2318") == without.terrain_of("2318")


@pytest.mark.slow
def test_json_summary_and_quiet(tmp_path, scan_file):
    code, stdout, _ = run(str(scan_file), "-l", str(DEMO_MAP), "-o", str(tmp_path / "m.json"),
                          "--json")
    assert code == 0
    summary = json.loads(stdout)
    assert summary["ok"] and summary["hexes"] == 550
    assert summary["grid"]["orientation"] == "flat" and summary["grid"]["cols"] == 25
    assert summary["hexside_features"]["bridge"] == 1
    code, stdout, stderr = run(str(scan_file), "-l", str(DEMO_MAP), "-o", str(tmp_path / "q.json"),
                               "--quiet")
    assert code == 0 and stdout == "" and stderr == ""


@pytest.mark.slow
def test_anchors_and_grid_file(tmp_path, scan_file, demo_scan: tuple[Rendered, Scan]):
    grid = demo_scan[0].grid
    anchors = []
    for i in ("0101", "2501", "0122"):
        x, y = grid.center(grid.hex(i))
        sx, sy = demo_scan[1].to_scan(np.array([x]), np.array([y]))
        anchors += ["--anchor", f"{i}={sx[0] + 1.5:.1f},{sy[0] - 1.0:.1f}"]
    out = tmp_path / "map.json"
    code, stdout, stderr = run(str(scan_file), "-l", str(DEMO_MAP), "-o", str(out),
                               "--grid", str(DEMO_MAP), *anchors)
    assert code == 0, stderr
    assert "grid anchors + refined" in stdout
    assert load_map(out).terrain_of("1718") == ["city"]


def _bad(tmp_path: Path, *args: str) -> str:
    before = sorted(p.name for p in tmp_path.iterdir())
    code, stdout, stderr = run(*args)
    assert code == 2
    assert stdout == ""
    assert stderr.startswith("bocage: ") and stderr.count("\n") == 1, stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written
    return stderr


def test_truncated_scan(tmp_path, scan_file):
    cut = tmp_path / "cut.png"
    data = scan_file.read_bytes()
    cut.write_bytes(data[: len(data) // 3])
    err = _bad(tmp_path, str(cut), "-l", str(DEMO_MAP), "-o", str(tmp_path / "m.json"),
               "--overlay", str(tmp_path / "o.png"))
    assert "cut.png: image file is truncated" in err


def test_image_too_small_for_a_grid(tmp_path):
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.full((40, 50, 3), 255, np.uint8))
    err = _bad(tmp_path, str(tiny), "-l", str(DEMO_MAP), "-o", str(tmp_path / "m.json"))
    assert "tiny.png: image is 50 x 40 px, too small to hold a hex grid" in err


def test_legend_with_an_unknown_colour_format(tmp_path, scan_file):
    legend = tmp_path / "legend.json"
    legend.write_text(json.dumps({"terrain": {"clear": "#e9e4c3", "woods": "green"}}))
    err = _bad(tmp_path, str(scan_file), "-l", str(legend), "-o", str(tmp_path / "m.json"))
    assert "legend.json: terrain.woods: unknown colour format 'green'" in err


def test_contradicting_anchors(tmp_path, scan_file):
    err = _bad(tmp_path, str(scan_file), "-l", str(DEMO_MAP), "-o", str(tmp_path / "m.json"),
               "--grid", str(DEMO_MAP), "--anchor", "0101=60,60", "--anchor", "2501=60,1050",
               "--anchor", "0122=1000,60")
    assert "anchors contradict each other" in err


@pytest.mark.parametrize(("args", "message"), [
    (["--anchor", "0101=60"], "--anchor: '0101=60' is not HEX=X,Y"),
    (["--sample", "woods"], "--sample: 'woods' is not TERRAIN=HEX"),
    (["--sample", "wods=1403"], "--sample names terrain 'wods'"),
    (["--sample", "woods=1403,"], "--sample: 'woods=1403,' is not TERRAIN=HEX[,HEX...]"),
    (["--key", "woods=1,2,3"], "--key: 'woods=1,2,3' is not TERRAIN=X,Y,W,H"),
    (["--key", "woods=5000,5,40,40"], "--key: the box 5000,5,40,40 is not inside the image"),
    (["--symbol", "town"], "--symbol: 'town' is not FEATURE=HEX"),
    (["--symbol", "town=0101"], "--symbol town=0101: hex 0101 shows nothing but its ground"),
    (["--symbol", "town=9999"], "--symbol town=9999: hex '9999' is not on the map"),
])
@pytest.mark.slow
def test_bad_options(tmp_path, scan_file, args, message):
    err = _bad(tmp_path, str(scan_file), "-l", str(DEMO_MAP), "-o", str(tmp_path / "m.json"),
               *args)
    assert message in err


def test_refuses_to_overwrite_the_scan(tmp_path, scan_file):
    copy = tmp_path / "scan.png"
    copy.write_bytes(scan_file.read_bytes())
    err = _bad(tmp_path, str(copy), "-l", str(DEMO_MAP), "-o", str(tmp_path / "m.json"),
               "--overlay", str(copy))
    assert err == (f"bocage: {copy}: --overlay would replace the input {copy} (SCAN); choose"
                   " another file name\n")


def test_progress_shows_on_a_terminal_only(monkeypatch, capsys):
    import sys

    from pipeline.cli.digitize import stages_bar
    from pipeline.digitize import STAGES

    def walk(show: bool) -> str:
        with stages_bar(show) as tell:
            for stage in STAGES:
                tell(stage)
        return capsys.readouterr().err

    assert "digitizing" not in walk(True)  # pytest's stderr is no terminal
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    shown = walk(True)
    assert "digitizing" in shown and "100%" in shown and "hexsides" in shown
    assert "digitizing" not in walk(False)  # --quiet or --json


def test_help_names_every_option():
    code, stdout, _ = run("-h")
    assert code == 0
    for option in ("--legend", "--output", "--grid", "--anchor", "--sample", "--key", "--train",
                   "--suggest", "--write-legend", "--overlay", "--geojson", "--gis", "--game",
                   "--title", "--absence", "--json", "--quiet"):
        assert option in stdout


@pytest.mark.slow
def test_cols_and_rows_choose_the_map_and_the_grid_options_override_the_file(tmp_path,
                                                                           scan_file):
    out = tmp_path / "map.json"
    code, stdout, stderr = run(str(scan_file), "-l", str(DEMO_MAP), "-o", str(out),
                               "--cols", "25", "--rows", "22", "--json")
    assert code == 0, stderr
    summary = json.loads(stdout)
    assert (summary["grid"]["cols"], summary["grid"]["rows"]) == (25, 22)
    assert summary["grid"]["stagger"] == "even-down" and summary["hexes"] == 550
    # The printed grid has 25 columns: a size that is not the map's is refused in one
    # line naming what the scan shows, and nothing is written.
    code, _, stderr = run(str(scan_file), "-l", str(DEMO_MAP), "-o", str(tmp_path / "x.json"),
                          "--grid", str(DEMO_MAP), "--cols", "24", "--rows", "22")
    assert code == 2 and stderr.count("\n") == 1
    assert "found 550 hexes in 25 columns x 22 rows on the scan" in stderr
    code, _, stderr = run(str(scan_file), "-l", str(DEMO_MAP), "-o", str(tmp_path / "y.json"),
                          "--cols", "25", "--rows", "22", "--stagger", "odd-down")
    assert code == 2 and "try stagger 'even-down'" in stderr
    assert not (tmp_path / "x.json").exists() and not (tmp_path / "y.json").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--cols", "25"], "--rows: give the map's columns and rows together"),
    (["--orientation", "flat"], "--orientation: needs the map's size too"),
    (["--cols", "25", "--rows", "22", "--stagger", "sideways"], "unknown stagger 'sideways'"),
    (["--cols", "25", "--rows", "22", "--orientation", "pointy", "--stagger", "even-down"],
     "does not suit a pointy-top grid"),
])
def test_grid_options_that_do_not_make_a_grid_are_refused(tmp_path, scan_file, args, message):
    code, _, stderr = run(str(scan_file), "-l", str(DEMO_MAP), "-o", str(tmp_path / "m.json"),
                          *args)
    assert code == 2 and message in stderr and stderr.count("\n") == 1
    assert not (tmp_path / "m.json").exists()


@pytest.mark.slow
def test_samples_suggestions_and_a_starter_legend(tmp_path, scan_file, demo_scanned: RoundTrip):
    """Samples teach a terrain the legend has no colour for; --suggest names hexes not shown;
    --write-legend writes a legend bocage reads back, with the colour the scan showed."""
    legend = json.loads(DEMO_MAP.read_text())
    doc = {"kind": "legend", "terrain": {n: t.get("color") for n, t in
                                          legend["terrain_types"].items()},
           "features": {n: {"kind": f["kind"], "color": f["color"]}
                        for n, f in legend["hexside_features"].items() if f.get("color")}}
    doc["terrain"]["woods"] = None
    legend_path = tmp_path / "legend.json"
    legend_path.write_text(json.dumps(doc))
    starter = tmp_path / "starter.json"
    code, stdout, stderr = run(str(scan_file), "-l", str(legend_path), "-o",
                               str(tmp_path / "m.json"), "--sample", "woods=1403,1504",
                               "--suggest", "5", "--write-legend", str(starter), "--json")
    assert code == 0, stderr
    summary = json.loads(stdout)
    asked = [s["hex"] for s in summary["suggest"]]
    assert len(asked) == len(set(asked)) == 5 and not {"1403", "1504"} & set(asked)
    assert all(0 <= s["confidence"] <= 1 and s["read"] for s in summary["suggest"])
    from pipeline.digitize import load_legend

    written = load_legend(starter)
    woods = np.array(written.terrain["woods"][0])
    assert np.abs(woods - [0x5B, 0x8A, 0x3C]).max() < 16  # the demo's printed woods
    assert set(written.features) == set(doc["features"])
    assert str(starter) in summary["written"]


@pytest.mark.slow
def test_train_on_the_checked_hexes_of_a_corrected_map(tmp_path, scan_file):
    corrected = json.loads(DEMO_MAP.read_text())
    out = tmp_path / "m.json"
    err = _bad(tmp_path, str(scan_file), "-l", str(DEMO_MAP), "-o", str(out), "--train",
               str(DEMO_MAP))
    assert "no hex is marked \"provenance\": \"labelled\" or \"corrected\"" in err
    demo = load_map(DEMO_MAP)
    for hex_id in ("1403", "1504", "0421"):
        entry = corrected["hexes"].setdefault(hex_id, {"terrain": demo.terrain_of(hex_id)})
        entry["provenance"] = "corrected"
    trained = tmp_path / "corrected.json"
    trained.write_text(json.dumps(corrected))
    code, _, stderr = run(str(scan_file), "-l", str(DEMO_MAP), "-o", str(out), "--train",
                          str(trained), "--quiet")
    assert code == 0, stderr
    doc = load_map(out)
    for hex_id in ("1403", "1504", "0421"):
        assert doc.terrain_of(hex_id)[0] == corrected["hexes"][hex_id]["terrain"][0]
