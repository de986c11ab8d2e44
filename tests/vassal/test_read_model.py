"""One reader model: check and preview agree on every set-up stack's location.

``check`` gives a set-up stack a location error exactly when ``preview`` lists
it as unresolved, on crafted grids of every kind (a zoned grid whose zone
names its hexes ``$name$-$gridLocation$``, square, region, none) and on every
real module at hand (the three samples, the two modules the saved games were
played on, and a module bocage builds).
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli.vassal import vassal
from pipeline.vassal import build_module, preview_module
from pipeline.vassal.check import check_module
from pipeline.vassal.location import (
    BadCoords,
    VassalHexGrid,
    VassalNumbering,
    VassalRegion,
    VassalRegionGrid,
    VassalSquareGrid,
    VassalZone,
    VassalZonedGrid,
)
from pipeline.vassal.read import read_module
from tests.vassal.conftest import SAMPLE_FILES, reference
from tests.vassal.test_preview import png
from tests.vassal.test_read_check import MODULEDATA

M = "VASSAL.build.module."
GRIDS = M + "map.boardPicker.board."
ZONED = f"""<?xml version="1.0" encoding="UTF-8"?>
<VASSAL.build.GameModule name="z" nextPieceSlotId="20" version="1" VassalVersion="3.6.19">
<VASSAL.build.module.BasicCommandEncoder/>
<VASSAL.build.module.Map mapName="Main">
 <VASSAL.build.module.map.BoardPicker>
  <VASSAL.build.module.map.boardPicker.Board image="b.png" name="B">
   <{GRIDS}ZonedGrid>
    <{GRIDS}mapgrid.Zone locationFormat="$name$-$gridLocation$" name="Z"
       path="0,0;300,0;300,300;0,300" useParentGrid="false">
     <{GRIDS}HexGrid dx="48.0" dy="55.0" x0="40" y0="40">
      <{GRIDS}mapgrid.HexGridNumbering stagger="false"/>
     </{GRIDS}HexGrid>
    </{GRIDS}mapgrid.Zone>
    <{GRIDS}mapgrid.Zone name="Beach" path="320,0;480,0;480,100;320,100"/>
    <{GRIDS}HexGrid dx="48.0" dy="55.0" x0="40" y0="40">
     <{GRIDS}mapgrid.HexGridNumbering stagger="false"/>
    </{GRIDS}HexGrid>
   </{GRIDS}ZonedGrid>
  </VASSAL.build.module.map.boardPicker.Board>
  <VASSAL.build.module.map.boardPicker.Board image="s.png" name="S">
   <{GRIDS}SquareGrid dx="50.0" dy="40.0" x0="25" y0="20">
    <{GRIDS}mapgrid.SquareGridNumbering sep="-" hLeading="0" vLeading="0"/>
   </{GRIDS}SquareGrid>
  </VASSAL.build.module.map.boardPicker.Board>
  <VASSAL.build.module.map.boardPicker.Board image="r.png" name="R">
   <{GRIDS}RegionGrid>
    <{GRIDS}Region name="Paris" originx="100" originy="120"/>
    <{GRIDS}Region name="Lyon" originx="200" originy="300"/>
   </{GRIDS}RegionGrid>
  </VASSAL.build.module.map.boardPicker.Board>
  <VASSAL.build.module.map.boardPicker.Board image="n.png" name="N"/>
 </VASSAL.build.module.map.BoardPicker>
 <VASSAL.build.module.map.PieceMover/><VASSAL.build.module.map.KeyBufferer/>
 <VASSAL.build.module.map.MenuDisplayer/><VASSAL.build.module.map.StackExpander/>
{{stacks}}
</VASSAL.build.module.Map>
</VASSAL.build.GameModule>
"""
# (stack name, board, location): the ones marked True resolve.
STACKS = [
    ("zone-hex", "B", "Z-0403", True),      # the zone's own grid, through its locationFormat
    ("zone-bad", "B", "Y-0403", False),     # no zone Y, and not a background hex name
    ("zone-out", "B", "Z-0909", False),     # the zone's grid names it, but it lies outside
    ("background", "B", "0708", True),      # outside every zone: the board's hex grid
    ("zone-name", "B", "Beach", True),      # a zone without a grid: its middle
    ("square", "S", "3-2", True),
    ("square-bad", "S", "3x2", False),
    ("region", "R", "Lyon", True),
    ("region-bad", "R", "Lille", False),
    ("no-grid", "N", "0101", False),
    ("empty", "B", "", False),
]


def zoned_module(path: Path) -> Path:
    stacks = "\n".join(
        f' <VASSAL.build.module.map.SetupStack location="{loc}" name="{name}" owningBoard="{b}"'
        f' useGridLocation="true" x="7" y="9">\n'
        f'  <VASSAL.build.widget.PieceSlot entryName="{name}" gpid="{i + 1}">'
        f"+/null/piece;;;p.png;{name}/null;0;0;{i + 1};0</VASSAL.build.widget.PieceSlot>\n"
        " </VASSAL.build.module.map.SetupStack>"
        for i, (name, b, loc, _) in enumerate(STACKS))
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("moduledata", MODULEDATA)
        z.writestr("buildFile.xml", ZONED.replace("{stacks}", stacks).encode())
        for name in ("b", "s", "r", "n"):
            z.writestr(f"images/{name}.png", png((500, 400), (230, 230, 200)))
        z.writestr("images/p.png", png((30, 30), (200, 30, 30)))
    return path


def location_errors(path: Path) -> set[int]:
    """Lines of the set-up stacks that check gives a location error."""
    out = set()
    for finding in check_module(path).findings:
        if finding.severity == "error" and "is not a name the grid" in finding.message:
            match = re.match(r"line (\d+):", finding.where)
            assert match is not None
            out.add(int(match.group(1)))
    return out


def unresolved(path: Path, board: str | None = None) -> set[int]:
    return {item["line"] for item in preview_module(path, board=board).unresolved}


def test_zoned_grid_stack_is_placed_by_its_zone_and_check_agrees(tmp_path):
    path = zoned_module(tmp_path / "z.vmod")
    with read_module(path) as module:
        the_map = module.maps[0]
        lines = {s.name: s.line for s in the_map.stacks}
        zone_grid = VassalHexGrid(dx=48.0, dy=55.0, x0=40, y0=40,
                                  numbering=VassalNumbering(stagger=False))
        assert the_map.board("B").grid.locate("Z-0403") == zone_grid.location_point("0403")
    bad = {lines[name] for name, _, _, ok in STACKS if not ok}
    assert location_errors(path) == bad
    # One board at a time (the preview of the whole map draws the boards in one row).
    for board in ("B", "S", "R", "N"):
        on_board = {lines[name] for name, b, _, ok in STACKS if b == board and not ok}
        assert unresolved(path, board) == on_board, board
    whole = preview_module(path)
    assert {u["stack"] for u in whole.unresolved} == {n for n, _, _, ok in STACKS if not ok}
    # The zone's stack is drawn at the zone grid's point of 0403, on board B (first, at 0,0).
    x, y = zone_grid.location_point("0403")
    assert whole.image.getpixel((x, y)) == (200, 30, 30)


def test_the_issue_case_no_longer_fails_check(tmp_path):
    """`vassal check` used to exit 1 on Z-0403 while `vassal preview` placed it."""
    path = zoned_module(tmp_path / "z.vmod")
    result = CliRunner().invoke(vassal, ["check", str(path), "--json"])
    assert "Z-0403" not in result.stdout
    assert "Y-0403" in result.stdout and result.exit_code == 1


def real_modules(tmp_path: Path, demo_game: Path) -> list[Path]:
    built = build_module(demo_game, tmp_path / "built.vmod",
                         boards={"omaha": demo_game / "board.png"}, date_saved=0).path
    return [*(reference("vassal-samples", n) for n in SAMPLE_FILES),
            reference("vassal-saves", "demo.vmod"), reference("vassal-saves", "omaha.vmod"),
            built]


@pytest.mark.slow
def test_check_errors_exactly_where_preview_is_unresolved_on_real_modules(tmp_path, demo_game):
    """Every stack of every map, previewed board by board (a stack without an owning
    board goes on its map's first board, in VASSAL, check and preview alike)."""
    compared = 0
    for path in real_modules(tmp_path, demo_game):
        errors = location_errors(path)
        with read_module(path) as module:
            first_map = {}
            for the_map in module.maps:
                for board in the_map.boards:
                    first_map.setdefault(board.name, the_map)
            plans = [(board.name, {s.line for s in the_map.stacks
                                   if s.owning_board == board.name
                                   or (s.owning_board is None and i == 0)})
                     for the_map in module.maps for i, board in enumerate(the_map.boards)
                     if first_map[board.name] is the_map]
            # Maps whose boards share a name with an earlier map's (almoravid's hands)
            # cannot be previewed alone; their stacks use x/y, so there is nothing to find.
            hidden = [s for the_map in module.maps if the_map.boards
                      and first_map[the_map.boards[0].name] is not the_map for s in the_map.stacks]
        assert not any(s.use_grid_location for s in hidden), path.name
        for board, lines in plans:
            if lines:
                assert unresolved(path, board) & lines == errors & lines, (path.name, board)
                compared += len(lines)
    # almoravid's 214 less the 31 of its hands, the demo's 9 twice, omaha's 1.
    assert compared == 183 + 9 + 9 + 1


def test_every_grid_kind_answers_both_questions():
    hexes = VassalHexGrid(dx=48.0, dy=55.0, x0=40, y0=40, numbering=VassalNumbering(stagger=False))
    square = VassalSquareGrid(dx=50.0, dy=40.0, x0=25, y0=20,
                              numbering=VassalNumbering(sep="-", h_leading=0, v_leading=0,
                                                        stagger=False))
    regions = VassalRegionGrid((VassalRegion("Paris", 100, 120), VassalRegion("Lyon", 200, 300)))
    zone = VassalZone("Z", ((0, 0), (300, 0), (300, 300), (0, 300)), "$name$-$gridLocation$",
                      hexes)
    zoned = VassalZonedGrid((zone,), square)
    # SquareGrid: column 3 -> x = 2 * 50 + 25, row 2 -> y = 1 * 40 + 20 (numbers start at 1).
    assert square.locate("3-2") == (125, 60) and square.name_at(125, 60) == "3-2"
    assert square.name_at(149, 79) == "3-2" and square.name_at(151, 81) == "4-3"
    assert regions.name_at(190, 280) == "Lyon" and regions.locate("Paris") == (100, 120)
    assert zoned.name_at(*hexes.location_point("0403")) == "Z-0403"
    assert zoned.name_at(400, 100) == square.name_at(400, 100)
    assert zoned.locate(square.name_at(400, 100)) == square.locate(square.name_at(400, 100))
    for grid, name in ((hexes, "9Z"), (square, "3x2"), (regions, "Lille"), (zoned, "Y-1")):
        with pytest.raises(BadCoords):
            grid.locate(name)
