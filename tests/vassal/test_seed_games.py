"""Modules for the four seed games' data (issue 6): built, checked, read by pywargame,
and every hex of every board named by VASSAL as printed.

The seed games have no scans yet, so each board image is the map rendered from its own
data (pipeline.render), whose layout is exactly known; counters come from the manifests.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import pytest

from pipeline.counters import RenderOptions, render_manifests, write_counters
from pipeline.model import load_map, load_markers, load_units
from pipeline.render import RenderStyle, render_map
from pipeline.vassal import build_module
from pipeline.vassal.check import check_module
from tests.needs import module
from tests.vassal.test_grid import GRID, NUMBERING, IndependentVassal, built

ROOT = Path(__file__).resolve().parents[2]
FIRST_SCENARIO = {"omaha": "scenario", "june44": "scenario", "cobra": "scenario",
                  "tactical": None}


def _game(tmp_path: Path, game: str) -> tuple[Path, dict[str, Path], Path]:
    folder = tmp_path / "maps" / game
    shutil.copytree(ROOT / "maps" / game, folder)
    doc = json.loads((folder / "map.json").read_text())
    the_map = load_map(folder / "map.json")
    images: dict[str, Path] = {}
    for board in doc["boards"]:
        drawn = render_map(the_map, RenderStyle(hex_size=32), board=board["name"])
        layout = drawn.grid.layout
        assert layout is not None
        board["grid"]["layout"] = {"dx": layout.dx, "dy": layout.dy, "x0": layout.x0,
                                   "y0": layout.y0}
        images[board["name"]] = tmp_path / f"board-{board['name']}.png"
        cv2.imwrite(str(images[board["name"]]), drawn.image[:, :, ::-1])
    (folder / "map.json").write_text(json.dumps(doc))
    art = tmp_path / "counters"
    units = load_units(ROOT / "counters" / game / "units.csv")
    markers_path = ROOT / "counters" / game / "markers.csv"
    markers = load_markers(markers_path) if markers_path.is_file() else None
    write_counters(render_manifests(units, markers, RenderOptions(dpi=100)), art, dpi=100)
    shutil.copy(ROOT / "counters" / game / "units.csv", art / "units.csv")
    if markers is not None:
        shutil.copy(markers_path, art / "markers.csv")
    return folder, images, art


@pytest.mark.slow
@pytest.mark.parametrize("game", ["omaha", "june44", "cobra", "tactical"])
def test_seed_game_module_checks_and_names_every_hex_as_printed(game, tmp_path):
    folder, images, art = _game(tmp_path, game)
    out = build_module(folder, tmp_path / f"{game}.vmod", boards=images, counters=art,
                       scenario=FIRST_SCENARIO[game], date_saved=0).path
    report = check_module(out)
    assert report.ok, [f.message for f in report.findings]
    root, _ = built(out)
    spec = load_map(folder / "map.json")
    grids = spec.grids()
    boards = root.findall(".//VASSAL.build.module.map.boardPicker.Board")
    assert sorted(b.get("name") for b in boards) == sorted(grids)
    for board in boards:
        grid = grids[board.get("name")]
        grid_el = board.find(f".//{GRID}")
        height, width = cv2.imread(str(images[board.get("name")])).shape[:2]
        model = IndependentVassal(dict(grid_el.attrib), dict(grid_el.find(NUMBERING).attrib),
                                  width, height)
        for h in grid.hexes():
            cx, cy = grid.center(h)
            assert model.name(round(cx), round(cy)) == grid.id(h)
    for stack in root.findall(".//VASSAL.build.module.map.SetupStack"):
        grid = grids[stack.get("owningBoard")]
        cx, cy = grid.center(grid.hex(stack.get("location")))
        assert abs(int(stack.get("x")) - cx) <= 1 and abs(int(stack.get("y")) - cy) <= 1


@pytest.mark.slow
@pytest.mark.parametrize("game", ["omaha", "june44", "cobra", "tactical"])
def test_pywargame_reads_the_seed_game_modules(game, tmp_path):
    """An independent reader sees the boards, the pieces and the set-up stacks."""
    vmod_mod = module("pywargame.vassal.vmod", "make setup installs pywargame")
    from pywargame.vassal.buildfile import BuildFile

    folder, images, art = _game(tmp_path, game)
    out = build_module(folder, tmp_path / f"{game}.vmod", boards=images, counters=art,
                       scenario=FIRST_SCENARIO[game], date_saved=0).path
    root, _ = built(out)
    with vmod_mod.VMod(str(out), "r") as vmod:
        game_el = BuildFile(vmod.getBuildFile()).getGame()
    maps = game_el.getMaps(asdict=True)
    boards = maps["Main Map"].getBoards(asdict=True)
    assert sorted(boards) == sorted(load_map(folder / "map.json").grids())
    stacks = maps["Main Map"].getAtStarts(single=False)
    assert len(stacks) == len(root.findall(".//VASSAL.build.module.map.SetupStack"))
    slots = root.findall(".//VASSAL.build.widget.PieceSlot")
    assert len(game_el.getPieces(asdict=False)) == len(slots)
