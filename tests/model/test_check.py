"""check: any file by its kind, and a game folder as a whole (cross-references)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pipeline.model import check_file, check_game_dir, load_file

from .conftest import (
    COUNTERS,
    DEMO,
    DEMO_MAP,
    DEMO_MARKERS,
    DEMO_POSITION,
    DEMO_RULES,
    DEMO_SCENARIO,
    DEMO_UNITS,
    error_of,
    sample,
)


@pytest.mark.parametrize(("path", "kind"), [
    (DEMO_MAP, "map"), (DEMO_RULES, "rules"), (DEMO_SCENARIO, "scenario"),
    (DEMO_POSITION, "position"), (DEMO_UNITS, "units"), (DEMO_MARKERS, "markers"),
])
def test_check_file_tells_the_kind(path, kind):
    checked = check_file(path)
    assert (checked.path, checked.kind) == (str(path), kind)


def test_summaries_say_what_is_in_the_file():
    assert check_file(DEMO_MAP).summary == (
        "1 board(s), 550 hexes (185 listed), 120 hexsides, 9 locations, illustrative")
    assert check_file(DEMO_MAP).counts["hexes"] == 550
    assert check_file(DEMO_RULES).summary == (
        "fm_omaha: 9 terrain, 4 hexside features, 2 roads, 1 costs not given")
    assert check_file(DEMO_UNITS).summary == "13 units (allied 6, german 7)"
    assert check_file(DEMO_MARKERS).counts == {"kinds": 21, "markers": 47}
    assert check_file(DEMO_POSITION).summary == (
        "turn 2, movement, allied to act: 10 units (7 on the map), 3 markers")


def test_hexsides_that_only_say_a_line_is_absent_are_not_counted(tmp_path):
    doc = sample(DEMO_MAP)
    doc["hexsides"].append({"hexes": ["0505", "0506"], "features": [], "absent": {"road": 0.4}})
    path = tmp_path / "map.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert check_file(path).counts["hexsides"] == 120


def test_csv_kind_comes_from_the_header(tmp_path):
    path = tmp_path / "anything.csv"
    path.write_text("id,kind,value,count\nm,other,+1,2\n", encoding="utf-8")
    assert load_file(path)[0] == "markers"
    path.write_text("id,side,type\nu,allied,infantry\n", encoding="utf-8")
    assert load_file(path)[0] == "units"
    path.write_text("colour,shape\nred,round\n", encoding="utf-8")
    assert error_of(lambda: load_file(path)) == (
        f"{path}:1: not a units or markers manifest: the header names none of their columns"
        " (units: id,side,type,...; markers: id,kind,...)")


def test_other_files_are_refused(tmp_path):
    path = tmp_path / "map.txt"
    path.write_text("{}", encoding="utf-8")
    assert error_of(lambda: check_file(path)) == (
        f"{path}: not a bocage data file: expected .json (map, rules, scenario, position) or"
        " .csv (units, markers)")


# -- game folders -------------------------------------------------------------------------


def test_the_demo_folder_checks_and_pairs_with_its_counters():
    results = check_game_dir(DEMO)
    assert [(Path(r.path).name, r.kind) for r in results] == [
        ("facts.json", "facts"), ("map.json", "map"), ("position.json", "position"),
        ("rules.json", "rules"), ("scenario.json", "scenario"), ("demo", "game")]
    game = results[-1]
    assert game.warnings == ()
    assert game.counts == {"units_checked": 23, "hexes_checked": 22}
    assert game.summary == "cross-references ok: 23 unit references, 22 hex references, 0 warnings"


def test_the_counters_folder_checks_alone():
    kinds = [r.kind for r in check_game_dir(COUNTERS)]
    assert kinds == ["markers", "units", "game"]


def test_missing_folder(tmp_path):
    missing = tmp_path / "nope"
    assert error_of(lambda: check_game_dir(missing)) == (
        f"{missing}: not a game folder (no such folder)")


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A copy of the demo game in the repository layout: maps/demo + counters/demo."""
    maps = tmp_path / "maps" / "demo"
    shutil.copytree(DEMO, maps, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    shutil.copytree(COUNTERS, tmp_path / "counters" / "demo")
    return maps


def rewrite(path: Path, edit) -> None:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    edit(doc)
    path.write_text(json.dumps(doc), encoding="utf-8")


def test_scenario_unit_missing_from_the_manifest(game):
    rewrite(game / "scenario.json", lambda d: d["setup"][0].update(unit="916/353"))
    units = game.parent.parent / "counters" / "demo" / "units.csv"
    assert error_of(lambda: check_game_dir(game)) == (
        f"{game / 'scenario.json'}: setup[0].unit: unknown unit '916/353' (did you mean"
        f" '916/352'?): not in {game.parent.parent / 'counters' / 'demo' / 'units.csv'}")
    assert units.exists()


def test_scenario_hex_off_the_map(game):
    rewrite(game / "scenario.json", lambda d: d["reinforcements"][0].update(hex="2699"))
    assert error_of(lambda: check_game_dir(game)) == (
        f"{game / 'scenario.json'}: reinforcements[0].hex: hex '2699' is not on the grid"
        " (25 columns x 22 rows, 0101 to 2522)")


def test_scenario_marker_missing_from_the_manifest(game):
    rewrite(game / "scenario.json", lambda d: d["markers"][0].update(marker="beachead"))
    assert error_of(lambda: check_game_dir(game)).startswith(
        f"{game / 'scenario.json'}: markers[0].marker: unknown marker 'beachead' (did you mean"
        " 'beachhead'?)")


def test_position_with_enemies_in_one_hex_is_refused(game):
    rewrite(game / "position.json", lambda d: d["units"][1].update(hex="2417"))
    assert error_of(lambda: check_game_dir(game)) == (
        f"{game / 'position.json'}: units[1].hex: unit '916/352' (german) is in hex 2417 with"
        " enemy unit '2 Rgr' (allied): enemy units never share a hex (000 §5.2d, 003 §5.2.2)")


def test_position_friends_may_share_a_hex_at_this_level(game):
    # Stacking limits are the rules validator's business, not the loader's.
    rewrite(game / "position.json", lambda d: d["units"][2].update(hex="2218"))
    assert check_game_dir(game)[-1].kind == "game"


def test_position_unit_and_hex_and_steps(game):
    rewrite(game / "position.json", lambda d: d["units"][0].update(id="2Rgr"))
    assert "units[0].id: unknown unit '2Rgr' (did you mean '2 Rgr'?)" in error_of(
        lambda: check_game_dir(game))
    rewrite(game / "position.json", lambda d: d["units"][0].update(id="2 Rgr", steps=3))
    assert error_of(lambda: check_game_dir(game)).endswith(
        "units[0].steps: unit '2 Rgr' has 2 steps in"
        f" {game.parent.parent / 'counters' / 'demo' / 'units.csv'}, not 3")
    rewrite(game / "position.json", lambda d: (d["units"][0].update(steps=1),
                                               d["control"].update({"3001": "allied"})))
    assert error_of(lambda: check_game_dir(game)).endswith(
        "control.3001: hex '3001' is not on the grid (25 columns x 22 rows, 0101 to 2522)")


def test_position_sides_must_be_the_rules_sides(game):
    rewrite(game / "position.json", lambda d: d.update(active_side="axis"))
    assert error_of(lambda: check_game_dir(game)) == (
        f"{game / 'position.json'}: active_side: side 'axis' is not one of the rules profile's"
        " sides (allied, german)")


def test_map_terrain_the_rules_do_not_price_is_an_error(game):
    rewrite(game / "rules.json", lambda d: d["terrain"].pop("village"))
    assert error_of(lambda: check_game_dir(game)) == (
        f"{game / 'rules.json'}: terrain: no entry for terrain 'village', which"
        f" {game / 'map.json'} uses")


def test_map_hexside_features_may_be_priced_as_roads_or_hexsides(game):
    def drop(d):
        d["hexsides"].pop("minefield")
        d["zoc"].pop("ezoc_to_ezoc_barred")  # it names the minefield hexside
    rewrite(game / "rules.json", drop)
    assert error_of(lambda: check_game_dir(game)).endswith(
        "hexsides: no entry (in hexsides or roads) for hexside feature 'minefield', which"
        f" {game / 'map.json'} uses")


def test_a_rule_naming_an_undeclared_feature_is_located(game):
    rewrite(game / "rules.json", lambda d: d["hexsides"].pop("minefield"))
    assert error_of(lambda: check_game_dir(game)) == (
        f"{game / 'rules.json'}: zoc.ezoc_to_ezoc_barred.hexsides[0]: unknown hexside feature"
        " 'minefield' (hexsides or roads: bridge, ditch, river, road, trail)")


def test_vocabulary_nobody_uses_is_only_a_warning(game):
    def drop(d):
        d["hexsides"].pop("bridge")
        d["hexsides"]["river"].pop("bridged_between")  # it is crossed as a bridge
    rewrite(game / "rules.json", drop)
    game_result = check_game_dir(game)[-1]
    assert game_result.warnings == (
        (f"{game / 'rules.json'}: hexside feature 'bridge' of {game / 'map.json'}'s vocabulary has"
        " no entry (no hexside uses it)"),)
    assert game_result.summary.endswith("1 warnings")


def test_manifest_units_must_fit_the_map_and_rules(game):
    units = game.parent.parent / "counters" / "demo" / "units.csv"
    text = units.read_text(encoding="utf-8")
    units.write_text(text.replace(",2417,", ",2699,"), encoding="utf-8")
    assert error_of(lambda: check_game_dir(game)) == (
        f"{game.parent.parent / 'counters' / 'demo' / 'units.csv'}:9: setup_hex: hex '2699' is"
        " not on the grid (25 columns x 22 rows, 0101 to 2522)")
    units.write_text(text.replace(",leg,", ",foot,", 1), encoding="utf-8")
    assert error_of(lambda: check_game_dir(game)).endswith(
        "units.csv:3: unknown unit class 'foot' (the rules profile's unit_classes: leg, mobile)")


def test_documents_of_different_games_are_a_warning(game):
    rewrite(game / "scenario.json", lambda d: d.update(game="cobra"))
    assert check_game_dir(game)[-1].warnings == ("documents name different games: cobra, omaha",)


def test_two_maps_in_one_folder_are_refused(game):
    (game / "map2.json").write_text(json.dumps(sample(DEMO_MAP)), encoding="utf-8")
    assert error_of(lambda: check_game_dir(game)) == (
        f"{game}: a game folder holds one map; found 2 (map.json, map2.json)")


def test_scenario_first_player_and_edges_fit_the_rules_and_map(game):
    rewrite(game / "scenario.json", lambda d: d.update(first_player="axis"))
    assert error_of(lambda: check_game_dir(game)) == (
        f"{game / 'scenario.json'}: first_player: side 'axis' is not one of the rules profile's"
        " sides (allied, german)")
    rewrite(game / "scenario.json", lambda d: (d.update(first_player="allied"),
                                               d["reinforcements"][1].update(edge="east")))
    assert check_game_dir(game)[-1].warnings == (
        (f"{game / 'scenario.json'}: reinforcements[1].edge: the map does not describe its east"
        f" edge (add edges.east to {game / 'map.json'})"),)


def test_explicit_counters_folder_and_a_folder_without_manifests(game, tmp_path):
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    shutil.copy(DEMO_SCENARIO, lonely / "scenario.json")
    assert check_game_dir(lonely)[-1].warnings == (
        "no units manifest found: unit ids in scenarios and positions not checked",)
    result = check_game_dir(lonely, counters=COUNTERS)[-1]
    assert result.warnings == () and result.counts["units_checked"] == 13


def test_a_bad_file_in_the_folder_stops_the_check_with_its_line(game):
    (game / "broken.json").write_text('{"kind": "map"', encoding="utf-8")
    assert error_of(lambda: check_game_dir(game)).startswith(
        f"{game / 'broken.json'}: line 1 column 15: invalid JSON")
