"""``bocage vassal import``: modules as game folders, their grids named as VASSAL names them.

Every imported hex is checked against the module's own grid through VASSAL's
arithmetic (the name of bocage's centre of the hex is its id, VASSAL's point
for the id is within 1 px of that centre), every hex VASSAL names on the board
is in the imported grid, and ``bocage check`` accepts each folder. The round
trips compare with what the bocage modules carry of their own game data.
"""

from __future__ import annotations

import csv
import json
import math
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import Image

from pipeline.cli import cli
from pipeline.errors import DataError
from pipeline.model import check_game_dir, load_map
from pipeline.vassal.importer import import_module
from pipeline.vassal.location import VassalHexGrid, VassalZonedGrid
from pipeline.vassal.read import read_module
from pipeline.vassal.save import position_from_save, read_save
from tests.vassal.conftest import reference

MODULES = [("vassal-saves", "demo.vmod"), ("vassal-saves", "omaha.vmod"),
           ("vassal-samples", "tld-mod.buildFile"),
           ("vassal-samples", "vivelemperor.buildFile.xml"),
           ("vassal-samples", "almoravid.buildFile.xml")]


def vassal_hexes(grid: VassalHexGrid, board: Any) -> set[str]:
    """Names VASSAL gives, from this grid, to the hexes whose centre is on the board
    (numbers below zero left out: bocage prints no negative ids)."""
    out = set()
    along, across = (board.height, board.width) if grid.sideways else (board.width, board.height)
    for col in range(-3, math.ceil(along / grid.dx) + 3):
        for row in range(-3, math.ceil(across / grid.dy) + 3):
            u = grid.x0 + col * grid.dx
            v = grid.y0 + row * grid.dy + (grid.dy / 2 if col % 2 else 0.0)
            x, y = (v, u) if grid.sideways else (u, v)
            if 0 <= x < board.width and 0 <= y < board.height:
                point = grid.snap(round(x), round(y))  # where VASSAL puts a piece dropped there
                name = board.name_at(*point)
                if name == grid.location_name(*point) and "-" not in name:
                    out.add(name)
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("folder", "name"), MODULES)
def test_imported_grids_name_every_hex_as_vassal_does(tmp_path, folder, name):
    path = reference(folder, name)
    report = import_module(path, tmp_path / "game")
    results = check_game_dir(tmp_path / "game")  # bocage check accepts the folder
    assert results[-1].kind == "game"
    with read_module(path) as module:
        boards = [b for m in module.maps if m.kind != "WidgetMap" for b in m.boards
                  if isinstance(b.grid, VassalHexGrid) or (
                      isinstance(b.grid, VassalZonedGrid)
                      and isinstance(b.grid.background, VassalHexGrid))]
        if not boards:
            assert not (tmp_path / "game" / "map.json").exists()
            assert any("no map.json" in w for w in report.warnings)
            return
        grids = load_map(tmp_path / "game" / "map.json").grids()
        assert len(grids) == len(boards) == report.counts["boards"]
        for board in boards:
            vassal = board.grid if isinstance(board.grid, VassalHexGrid) else board.grid.background
            imported = grids[board.name]
            assert imported.layout is not None
            ids = {imported.id(h) for h in imported.hexes()}
            assert ids == vassal_hexes(vassal, board), board.name
            for h in imported.hexes():
                cx, cy = imported.layout.center(h, imported.orientation)
                hex_id = imported.id(h)
                assert board.name_at(*vassal.snap(round(cx), round(cy))) == hex_id
                px, py = vassal.location_point(hex_id)
                assert max(abs(px - cx), abs(py - cy)) <= 1.0, hex_id
            print(f"{name}: board '{board.name}': {len(ids)} hexes named as VASSAL names them")


def test_a_bare_build_file_imports_without_images_and_says_so(tmp_path):
    report = import_module(reference("vassal-samples", "vivelemperor.buildFile.xml"),
                           tmp_path / "v")
    assert any("bare build file has no images" in w for w in report.warnings)
    assert any("estimate" in w for w in report.warnings)
    with (tmp_path / "v" / "units.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert {r["side"] for r in rows} == {"france", "anglo_allies", "prussia"}
    assert all("'infantry' stands in" in r["notes"] for r in rows)  # the module gives no type


def game_json(module: Path) -> dict[str, Any]:
    with zipfile.ZipFile(module) as archive:
        data: dict[str, Any] = json.loads(archive.read("bocage/game.json"))
    return data


@pytest.mark.parametrize("name", ["demo.vmod", "omaha.vmod"])
def test_a_bocage_module_imports_back_to_its_grid_and_units(tmp_path, name):
    path = reference("vassal-saves", name)
    import_module(path, tmp_path / "back")
    original = game_json(path)
    board = original["map"]["boards"][0]
    grid = load_map(tmp_path / "back" / "map.json").grids()[board["name"]]
    numbering = board["grid"]["numbering"]
    assert grid.numbering.stagger == numbering["stagger"]
    assert grid.orientation.value == board["grid"]["orientation"]
    # The board image may show hexes beyond the printed map (the demo's scan shows
    # column 00): VASSAL numbers them, so does the import.
    assert (grid.numbering.col_digits, grid.numbering.row_digits) == (2, 2)
    # Every hex of the original map, at the centre its module puts it.
    with read_module(path) as module:
        vassal = module.maps[0].boards[0].grid
        assert isinstance(vassal, VassalHexGrid)
        for col in range(1, board["grid"]["cols"] + 1):
            for row in range(1, board["grid"]["rows"] + 1):
                hex_id = f"{col:02d}{row:02d}"
                assert grid.has_id(hex_id)
                cx, cy = grid.layout.center(grid.hex(hex_id), grid.orientation)
                px, py = vassal.location_point(hex_id)
                assert max(abs(px - cx), abs(py - cy)) <= 1.0
    with (tmp_path / "back" / "units.csv").open(encoding="utf-8") as f:
        units = {r["id"]: r for r in csv.DictReader(f)}
    assert set(units) == {u["id"] for u in original["units"]}
    for unit in original["units"]:
        row = units[unit["id"]]
        assert (row["name"], row["side"], row["type"]) == (unit.get("name") or unit["id"],
                                                          unit["side"], unit["type"])
        for column in ("nationality", "formation", "movement", "steps", "arrival_turn"):
            if unit.get(column) is not None:
                assert row[column] == str(unit[column]), (unit["id"], column)
    slugs = [p.name for p in (tmp_path / "back").glob("*-front.png")]
    assert len(slugs) == len(original["units"]) + len(original["markers"])
    with Image.open(tmp_path / "back" / "2-rgr-back.png") as back:
        assert back.size[0] > 8  # the Ranger's flip side, from its Layer


def test_a_bocage_module_played_and_saved_reads_back_to_its_start_plus_the_moves():
    """demo-opening.vsav: the module's set-up (its own scenario), then the README's four
    moves; the flips leave 915/352 on its back (one step: no loss) and 2 Rgr on its front."""
    module = reference("vassal-saves", "demo.vmod")
    scenario = game_json(module)["scenario"]
    start = {s["unit"]: s["hex"] for s in scenario["setup"]}
    for unit in game_json(module)["units"]:
        if unit.get("setup_hex") and unit["id"] not in start:
            start[unit["id"]] = unit["setup_hex"]
    moves = {"1": "1212", "915/352": "1717", "352/352": "1916", "2 Rgr": "2416"}
    position, left_out = position_from_save(read_save(reference("vassal-saves",
                                                                "demo-opening.vsav"), module))
    assert left_out == []
    assert {u.id: u.hex for u in position.units} == {**start, **moves}
    markers = sorted((m["marker"], m["hex"]) for m in scenario.get("markers", []))
    assert sorted(("beachhead", m.hex) for m in position.markers) == markers


def test_import_refuses_an_existing_folder_and_leaves_nothing(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    result = CliRunner().invoke(cli, ["vassal", "import",
                                      str(reference("vassal-saves", "omaha.vmod")),
                                      "--out-dir", str(tmp_path / "full")])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert [p.name for p in (tmp_path / "full").iterdir()] == ["keep.txt"]
    broken = tmp_path / "broken.vmod"
    broken.write_bytes(reference("vassal-saves", "omaha.vmod").read_bytes()[:5000])
    result = CliRunner().invoke(cli, ["vassal", "import", str(broken), "--out-dir",
                                      str(tmp_path / "new")])
    assert result.exit_code == 2 and not (tmp_path / "new").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.vmod", "full"]
    with pytest.raises(DataError, match="not an empty folder"):
        import_module(reference("vassal-saves", "omaha.vmod"), tmp_path / "full")


def test_import_command_summary(tmp_path):
    result = CliRunner().invoke(cli, ["vassal", "import",
                                      str(reference("vassal-saves", "omaha.vmod")),
                                      "--out-dir", str(tmp_path / "o"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["counts"]["boards"] == 1 and data["grids"][0]["board"] == "omaha"
    assert data["counts"]["units"] == len(game_json(reference("vassal-saves",
                                                              "omaha.vmod"))["units"])
