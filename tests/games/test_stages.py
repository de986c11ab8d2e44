"""Every game folder of the repository that ``bocage check`` accepts is accepted by every
stage (the rules, the play aids, a VASSAL module, validation), and a folder lacking a file
a stage needs is refused in the one wording of :mod:`pipeline.model.folder`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import pytest
from click.testing import CliRunner

from pipeline.aids import make_aids
from pipeline.cli import cli
from pipeline.errors import DataError
from pipeline.model import GameFolder, check_game_dir, game_folders
from pipeline.model.folder import MAP_FILE, RULES_FILE, UNITS_FILE
from pipeline.render import RenderStyle, render_map
from pipeline.rules.explain import TOPICS, explain
from pipeline.rules.game import load_game
from pipeline.studio import Workspace
from pipeline.validate import validate_folder
from pipeline.vassal import build_module
from pipeline.vassal.check import check_module
from pipeline.vassal.game import load_game_inputs
from tests.vassal.conftest import write_counter_images

from .conftest import ROOT

FOLDERS = {f.name: f for f in game_folders(ROOT / "maps")}
POSITION = "position.json"


@pytest.fixture(params=sorted(FOLDERS))
def folder(request: pytest.FixtureRequest) -> GameFolder:
    """Each game folder under maps/, which check must accept."""
    game = FOLDERS[request.param]
    checked = check_game_dir(game.path)
    assert checked[-1].kind == "game" and len(checked) >= 3, [c.path for c in checked]
    return game


def test_the_game_folders_are_the_seeds_the_demo_and_the_examples():
    assert sorted(FOLDERS) == ["cobra", "demo", "ironroads", "june44", "omaha", "ridge",
                               "tactical"]


def test_the_rules_answer_on_it(folder):
    position = folder.path / POSITION
    situation = load_game(folder, position if position.is_file() else None)
    placed = [u for u in situation.units if u.hex is not None]
    assert placed and all(situation.map.grid.contains(u.hex) for u in placed)
    lines = explain(folder.rules())
    assert lines and all(line.text for line in lines)
    assert "Movement" in {line.topic for line in lines} <= set(TOPICS)


@pytest.mark.slow
def test_the_aids_are_printed_from_it(folder, tmp_path):
    written = {p.name for p in make_aids(folder, tmp_path / "aids", map_dpi=12, png_dpi=30)}
    assert {"tec.pdf", "tec.png", "map.pdf"} <= written
    assert all((tmp_path / "aids" / name).stat().st_size > 100 for name in written)
    assert ("crt.pdf" in written) == folder.has("crt.json")
    assert ("track.pdf" in written or "track-campaign.pdf" in written) == bool(folder.scenarios())


@pytest.mark.slow
def test_a_module_is_built_from_it(folder, tmp_path):
    # The folders hold no board scans yet: each board is drawn from the map data, and the
    # counters are plain faces, as a builder's first module would be.
    copy = tmp_path / "maps" / folder.name
    shutil.copytree(folder.path, copy)
    if folder.units_file.parent != folder.path:  # the companion counters/<game>
        shutil.copytree(folder.units_file.parent, tmp_path / "counters" / folder.name)
    doc = json.loads((copy / MAP_FILE).read_text(encoding="utf-8"))
    boards: dict[str, Path] = {}
    for board in doc["boards"]:
        drawn = render_map(folder.map_data(), RenderStyle(hex_size=14), board=board["name"])
        layout = drawn.grid.layout
        assert layout is not None
        board["grid"]["layout"] = {"dx": layout.dx, "dy": layout.dy, "x0": layout.x0,
                                   "y0": layout.y0}
        boards[board["name"]] = tmp_path / f"board-{board['name']}.png"
        cv2.imwrite(str(boards[board["name"]]), drawn.image[:, :, ::-1])
    (copy / MAP_FILE).write_text(json.dumps(doc), encoding="utf-8")
    art = tmp_path / "art"
    units = folder.units()
    markers = folder.markers_if_any()
    write_counter_images(art, [*units.ids(), *(m.id for m in markers or [])], size=20)
    first = folder.scenarios()[0][0].stem if folder.scenarios() else None
    inputs = load_game_inputs(copy, art, first)
    assert inputs.units.ids() == units.ids() and inputs.map_file == copy / MAP_FILE
    report = build_module(copy, tmp_path / "game.vmod", boards=boards, counters=art,
                          scenario=first, date_saved=0, piece_size=16, jobs=1)
    assert report.counts["units"] == len(units.ids())
    assert check_module(report.path).ok


#: The errors validation finds on the folders' own maps: June '44's numbering is the
#: project's reading (its map.json says so), under which Caumont's hex is not on the south
#: edge the rulebook puts it on (001 §2.2), and validation says so.
KNOWN_ERRORS = {"june44": ["2911: should lie on the south map edge (fact 'caumont-south')"]}


def test_its_map_validates_against_its_facts(folder):
    result = validate_folder(folder)
    assert result.loads and ("facts" in result.inputs) == folder.has("facts.json")
    errors = [f.message for f in result.findings if f.severity == "error"]
    assert errors == KNOWN_ERRORS.get(folder.name, [])


# -- a folder lacking a file ------------------------------------------------------------


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """maps/demo with its companion counters/demo, copied."""
    shutil.copytree(ROOT / "maps" / "demo", tmp_path / "maps" / "demo")
    shutil.copytree(ROOT / "counters" / "demo", tmp_path / "counters" / "demo")
    return tmp_path / "maps" / "demo"


def _refusal(call) -> str:
    with pytest.raises(DataError) as raised:
        call()
    return str(raised.value)


@pytest.mark.parametrize(("removed", "stage", "call"), [
    ([MAP_FILE], "the rules", load_game),
    ([RULES_FILE], "the rules", load_game),
    ([MAP_FILE, RULES_FILE], "the rules", load_game),
    ([MAP_FILE], "a module", load_game_inputs),
    ([MAP_FILE], "validation", validate_folder),
    ([MAP_FILE], "the studio", Workspace),
    ([MAP_FILE, RULES_FILE], "play aids", lambda game: make_aids(game, game.parent / "out")),
])
def test_a_folder_lacking_a_file_a_stage_needs_is_refused_in_one_wording(demo, removed,
                                                                        stage, call):
    for name in removed:
        (demo / name).unlink()
    lacking = ("crt.json, rules.json or map.json" if stage == "play aids"
               else ", ".join(removed))
    assert _refusal(lambda: call(demo)) == f"{demo}: not a game folder for {stage} (no {lacking})"


def test_a_folder_lacking_its_units_is_refused_for_a_module_where_they_are_looked_for(demo):
    shutil.rmtree(demo.parent.parent / "counters")
    assert _refusal(lambda: load_game_inputs(demo)) == (
        f"{demo}: not a game folder for a module (no {UNITS_FILE} here or in counters/<game>)")
    assert _refusal(lambda: load_game_inputs(demo, demo.parent)) == (
        f"{demo}: not a game folder for a module (no {UNITS_FILE} here, in the counters folder"
        " given, or in counters/<game>)")


def test_an_empty_folder_and_no_folder_at_all(tmp_path):
    assert _refusal(lambda: check_game_dir(tmp_path)) == (
        f"{tmp_path}: not a game folder (no map.json, units.csv or other data file)")
    assert _refusal(lambda: GameFolder(tmp_path / "nope")) == (
        f"{tmp_path / 'nope'}: not a game folder (no such folder)")
    (tmp_path / "file").write_text("x")
    assert _refusal(lambda: load_game(tmp_path / "file")) == (
        f"{tmp_path / 'file'}: not a game folder (not a folder)")


def test_the_command_line_says_it_in_one_line_and_exits_2(demo):
    (demo / RULES_FILE).unlink()
    result = CliRunner().invoke(cli, ["rules", "los", str(demo), "--from", "0101",
                                      "--to", "0102"])
    assert result.exit_code == 2
    assert result.output == f"bocage: {demo}: not a game folder for the rules (no rules.json)\n"
