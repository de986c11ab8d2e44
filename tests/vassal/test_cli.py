"""The ``vassal`` command group, invoked as the lead will register it."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli.vassal import vassal
from tests.vassal.test_read_check import MINIMAL, make_vmod


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(vassal, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_build_inspect_check(demo_game: Path, tmp_path: Path) -> None:
    out = tmp_path / "build" / "demo.vmod"
    code, stdout, _ = run("build", str(demo_game), "--board", str(demo_game / "board.png"),
                          "-o", str(out), "--date-saved", "0")
    assert code == 0 and "13 units, 21 markers, 9 set-up stacks" in stdout
    assert zipfile.is_zipfile(out)
    code, stdout, _ = run("inspect", str(out))
    assert code == 0 and "set-up 2417 on omaha: 2 Ranger Battalion" in stdout
    assert "HexGrid dx=48.0 dy=55.0 x0=40 y0=40" in stdout
    code, stdout, _ = run("inspect", str(out), "--json")
    assert json.loads(stdout)["module"]["VassalVersion"] == "3.6.19"
    # --quiet: nothing listed, the exit code says whether the module reads.
    assert run("inspect", str(out), "-q")[:2] == (0, "")
    cut = tmp_path / "cut.vmod"
    cut.write_bytes(out.read_bytes()[: out.stat().st_size // 2])
    code, stdout, stderr = run("inspect", str(cut), "--quiet")
    assert (code, stdout) == (2, "") and stderr.count("\n") == 1 and "cut.vmod" in stderr
    code, stdout, _ = run("check", str(out))
    assert code == 0 and stdout.startswith("ok:")
    code, stdout, _ = run("check", str(out), "--json")
    assert json.loads(stdout)["ok"] is True


def test_build_json_and_board_by_name(demo_game: Path, tmp_path: Path) -> None:
    code, stdout, _ = run("build", str(demo_game), "--board",
                          f"omaha={demo_game / 'board.png'}", "-o", str(tmp_path / "d.vmod"),
                          "--date-saved", "0", "--json")
    assert code == 0 and json.loads(stdout)["counts"]["units"] == 13


def test_check_exits_1_on_errors(tmp_path: Path) -> None:
    path = make_vmod(tmp_path / "m.vmod", MINIMAL.replace('x0="40"', 'x0="4.5"'))
    code, stdout, _ = run("check", str(path))
    assert code == 1 and 'error: line' in stdout and 'x0="4.5"' in stdout


def test_bad_input_is_one_line_and_exit_2(game_factory, tmp_path: Path) -> None:
    game = game_factory(counters=False)
    code, _stdout, stderr = run("build", str(game), "--board", str(game / "board.png"),
                               "-o", str(tmp_path / "x.vmod"))
    assert code == 2 and stderr.count("\n") == 1 and stderr.startswith("bocage: ")
    assert "no counter image" in stderr and not (tmp_path / "x.vmod").exists()
    hostile = make_vmod(tmp_path / "h.vmod", extra={"../x": b""})
    code, _, stderr = run("check", str(hostile))
    assert code == 2 and "refused" in stderr


def test_build_takes_the_layout_from_another_map(demo_game: Path, tmp_path: Path) -> None:
    """--grid: the digitizer's map.json says where the grid sits on the scan."""
    doc = json.loads((demo_game / "map.json").read_text())
    fitted = json.loads(json.dumps(doc))
    layout = fitted["boards"][0]["grid"]["layout"]
    layout["x0"], layout["y0"] = layout["x0"] + 10, layout["y0"] + 6
    del doc["boards"][0]["grid"]["layout"]
    (demo_game / "map.json").write_text(json.dumps(doc))
    grid_file = tmp_path / "digitized.json"
    grid_file.write_text(json.dumps(fitted))
    out = tmp_path / "g.vmod"
    code, _, err = run("build", str(demo_game), "--board", str(demo_game / "board.png"),
                       "-o", str(out))
    assert code == 2 and "no pixel layout" in err and not out.exists()
    code, _, _ = run("build", str(demo_game), "--board", str(demo_game / "board.png"),
                     "--grid", str(grid_file), "-o", str(out), "--date-saved", "0")
    assert code == 0
    code, stdout, _ = run("inspect", str(out))
    assert f"x0={round(layout['x0'])} y0={round(layout['y0'])}" in stdout


@pytest.mark.slow
def test_play_aid_pngs_become_the_chart_window(demo_game: Path, tmp_path: Path) -> None:
    """Issue 9: the CRT/TEC PNGs of `bocage aids` are what the module's chart window shows."""
    from lxml import etree

    from pipeline.aids import make_aids

    aids = tmp_path / "aids"
    make_aids(Path(__file__).resolve().parents[2] / "maps" / "omaha", aids, "letter")
    out = tmp_path / "c.vmod"
    code, _, err = run("build", str(demo_game), "--board", str(demo_game / "board.png"),
                       "--charts", str(aids), "-o", str(out), "--date-saved", "0")
    assert code == 0, err
    with zipfile.ZipFile(out) as archive:
        root = etree.fromstring(archive.read("buildFile.xml"))
        charts = {c.get("chartName"): c.get("fileName")
                  for c in root.iter("VASSAL.build.widget.Chart")}
        assert charts["Combat Results Table"] == "chart-crt.png"
        assert charts["Terrain Effects Chart"] == "chart-tec.png"
        for name in ("crt", "tec"):
            assert archive.read(f"images/chart-{name}.png") == (aids / f"{name}.png").read_bytes()
    window = root.find("VASSAL.build.module.ChartWindow")
    assert window is not None and window.get("name") == "Charts"
    assert run("check", str(out))[0] == 0
