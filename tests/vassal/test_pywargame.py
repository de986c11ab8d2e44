"""An outside reader: pywargame (PyPI) loads the built module and sees what we meant.

pywargame parses with ``xml.dom.minidom`` and decodes traits its own way
(reference §8.1), so agreement here is independent of bocage's reader.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.vassal import build_module
from tests.needs import module

PYWARGAME = "make setup installs pywargame"


def test_pywargame_sees_maps_grid_pieces_and_stacks(demo_game: Path, tmp_path: Path) -> None:
    path = build_module(demo_game, tmp_path / "demo.vmod",
                        boards={"omaha": demo_game / "board.png"}, date_saved=0).path
    vmod_module = module("pywargame.vassal.vmod", PYWARGAME)
    BuildFile = module("pywargame.vassal.buildfile", PYWARGAME).BuildFile
    ModuleData = module("pywargame.vassal.moduledata", PYWARGAME).ModuleData
    with vmod_module.VMod(str(path), "r") as vmod:
        build_file = BuildFile(vmod.getBuildFile())
        moduledata = ModuleData(vmod.getModuleData())
    game = build_file.getGame()
    assert moduledata.getData().getVASSALVersion()[0].getText() == "3.6.19"
    maps = game.getMaps(asdict=True)
    assert list(maps) == ["Main Map"]
    boards = maps["Main Map"].getBoards(asdict=True)
    assert list(boards) == ["omaha"] and boards["omaha"]["image"] == "board-omaha.png"
    grids = boards["omaha"].getHexGrids(single=False)
    assert len(grids) == 1
    grid = grids[0]
    assert (grid["dx"], grid["dy"], grid["x0"], grid["y0"]) == ("48.0", "55.0", "40", "40")
    numbering = grid.getNumbering()[0]
    assert (numbering["stagger"], numbering["hOff"], numbering["vOff"]) == ("false", "1", "1")
    stacks = {s["location"]: (s["owningBoard"], s["x"], s["y"])
              for s in maps["Main Map"].getAtStarts(single=False)}
    assert stacks["2417"] == ("omaha", "1144", "947")
    assert set(stacks) == {"1211", "1718", "1915", "2021", "2121", "2218", "2219", "2318", "2417"}
    pieces = game.getPieces(asdict=False)
    assert len(pieces) == 13 + 21 + 9  # palette units, palette markers, set-up copies
    ranger = next(p for p in pieces if p["entryName"] == "2 Ranger Battalion")
    # Eleven properties: id, nationality, type, size, attack, defence, movement, the back's
    # attack, defence and movement (illustrative in the demo manifest) and steps; values the
    # manifest leaves empty (range, strength) get none.
    assert [t.ID for t in ranger.getTraits()] == ["emb2", *["mark"] * 11, "prototype", "piece"]
    prototypes = game.getPrototypes()[0].getPrototypes(asdict=True)
    assert set(prototypes) == {"Unit", "Marker", "Allied unit", "German unit"}
