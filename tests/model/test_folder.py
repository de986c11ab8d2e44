"""A game folder: where each file is, each document loaded once, and the game's names."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.errors import DataError
from pipeline.model import GameFolder, game_folders
from pipeline.model.folder import MARKERS_FILE, UNITS_FILE, Game
from pipeline.rules.registry import registry

ROOT = Path(__file__).resolve().parents[2]
SEEDS = {spec.id: spec for spec in registry().values() if spec.reference is not None}


@pytest.mark.parametrize("system", sorted(SEEDS))
def test_each_seed_folder_names_its_game_as_its_rule_system_declares(system):
    # The registry's declaration (the system's rulebook and code) and the folder's data
    # (its profile's system, cite_as and source) are two copies: they must agree.
    spec = SEEDS[system]
    game = GameFolder(spec.reference.parent).game
    assert game.id == spec.reference.parent.name
    assert game.aliases == ((system, spec.code) if system != game.id else (spec.code,))
    assert game.rulebook == spec.rulebook and game.code == spec.code
    assert game.is_called(system) and game.is_called(spec.code) and game.is_called(game.id)
    assert game.title and not game.is_called("generic")


def test_the_three_names_of_the_omaha_game():
    game = GameFolder(ROOT / "maps" / "omaha").game
    assert game == Game("omaha", "D-Day Omaha Beach", "000_3d79f68a6e3e33eb.txt", "fm_omaha",
                        "000")
    assert [game.is_called(n) for n in ("omaha", "FM_OMAHA", "000", "001")] == [
        True, True, True, False]
    # The demo is an illustrative map of the same game: the same id and names.
    assert GameFolder(ROOT / "maps" / "demo").game.id == "omaha"


def test_a_folder_without_a_profile_is_named_by_its_map_then_by_itself(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    assert GameFolder(folder).game == Game("mine", "mine", "", "generic", "")
    shutil.copy(ROOT / "maps" / "june44" / "map.json", folder)
    game = GameFolder(folder).game
    assert (game.id, game.title, game.rulebook) == (
        "june44", "June '44: The Struggle for Normandy, 1944", "001_2c092b02feae28f3.txt")
    assert game.aliases == ()


def test_manifests_are_found_in_the_folder_then_the_one_given_then_the_companion(tmp_path):
    maps, counters, given = (tmp_path / "maps" / "g", tmp_path / "counters" / "g",
                             tmp_path / "given")
    for place in (maps, counters, given):
        place.mkdir(parents=True)
    (counters / UNITS_FILE).write_text("id,side,type\n1,a,infantry\n")
    assert GameFolder(maps).units_file == counters / UNITS_FILE
    (given / UNITS_FILE).write_text("id,side,type\n2,a,infantry\n")
    assert GameFolder(maps, given).units_file == given / UNITS_FILE
    (maps / UNITS_FILE).write_text("id,side,type\n3,a,infantry\n")
    assert GameFolder(maps, given).units().ids() == ["3"]
    assert not GameFolder(maps).has(MARKERS_FILE) and GameFolder(maps).markers_if_any() is None


def test_a_document_is_read_once(tmp_path):
    shutil.copytree(ROOT / "maps" / "demo", tmp_path / "demo")
    folder = GameFolder(tmp_path / "demo")
    first = folder.map_data()
    (tmp_path / "demo" / "map.json").write_text("not json")  # read again, it would fail
    assert folder.map_data() is first and GameFolder.of(folder) is folder
    with pytest.raises(DataError, match=r"map\.json"):
        GameFolder(tmp_path / "demo").map_data()


def test_scenarios_are_the_folders_scenario_documents(tmp_path):
    shutil.copytree(ROOT / "maps" / "cobra", tmp_path / "cobra")
    folder = GameFolder(tmp_path / "cobra")
    stems = [p.stem for p, _ in folder.scenarios()]
    assert stems == ["scenario", "scenario_buildup", "scenario_cobra", "scenario_cobra_original"]
    assert folder.scenario("scenario_buildup")[0].stem == "scenario_buildup"
    with pytest.raises(DataError, match=r"several scenarios .* choose one with --scenario"):
        folder.scenario(None)
    with pytest.raises(DataError, match=r"no scenario 'nope' \(this folder has: 'scenario'"):
        folder.scenario("nope")


def test_every_game_folder_under_maps_is_found():
    names = [f.name for f in game_folders(ROOT / "maps")]
    assert names == ["cobra", "demo", "ironroads", "ridge", "june44", "omaha", "tactical"]
