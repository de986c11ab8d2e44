"""Scenarios and positions: the demo follows 000 §10-§11; bad files get one located line."""

from __future__ import annotations

from typing import Any

from pipeline.model import load_position, load_scenario, position_from_data, scenario_from_data

from .conftest import DEMO_POSITION, DEMO_SCENARIO, edited, error_of


def scenario_fails(edit) -> str:
    return error_of(lambda: scenario_from_data(edited(DEMO_SCENARIO, edit), "scenario.json"))


def position_fails(edit) -> str:
    return error_of(lambda: position_from_data(edited(DEMO_POSITION, edit), "position.json"))


# -- scenario ----------------------------------------------------------------------------


def test_demo_scenario_runs_gt1_to_gt17_allied_first_000_s10_2():
    demo = load_scenario(DEMO_SCENARIO)
    assert (demo.first_turn, demo.last_turn, demo.first_player) == (1, 17, "allied")
    assert [t.turn for t in demo.turns] == list(range(1, 18))
    assert demo.illustrative is True


def test_demo_setup_follows_000_s11():
    demo = load_scenario(DEMO_SCENARIO)
    placed = {s.unit: s.hex for s in demo.setup}
    assert placed["2 Rgr"] == "2417"  # §11.2.3
    german = [h for u, h in placed.items() if "/352" in u or u == "1"]
    assert len(german) == 5 and "2417" not in german  # §11.0, §11.1.1
    beach = {"2318", "2319", "2219", "2120", "2121", "2122"}
    assert not beach & set(german)
    sch30 = [r for r in demo.reinforcements if r.unit == "Sch/30"]
    assert [(r.turn, r.hex) for r in sch30] == [(1, "1005")]  # §11.1.2
    assert {m.hex for m in demo.markers} <= beach  # §11.2.1


def test_reinforcement_needs_a_hex_an_edge_or_a_note():
    def edit(doc: dict[str, Any]) -> None:
        doc["reinforcements"][2].pop("note")
    assert scenario_fails(edit) == (
        'scenario.json: reinforcements[2]: a reinforcement needs "hex", "edge", or a note saying'
        ' where it arrives (e.g. "any beach landing hex with a beachhead marker")')


def test_unknown_edge_name():
    def edit(doc: dict[str, Any]) -> None:
        doc["reinforcements"][1]["edge"] = "sout"
    assert scenario_fails(edit) == (
        "scenario.json: reinforcements[1].edge: expected one of 'north', 'south', 'east', 'west',"
        " got 'sout' (did you mean 'south'?)")


def test_scenario_consistency():
    def backwards(doc: dict[str, Any]) -> None:
        doc["last_turn"] = 0
    assert scenario_fails(backwards) == (
        "scenario.json: last_turn: last_turn 0 is before first_turn 1")

    def twice(doc: dict[str, Any]) -> None:
        doc["setup"].append({"unit": "2 Rgr", "hex": "2318"})
    assert scenario_fails(twice) == (
        "scenario.json: setup[6].unit: unit '2 Rgr' is already set up at setup[5]")

    def turn_twice(doc: dict[str, Any]) -> None:
        doc["turns"][3]["turn"] = 3
    assert scenario_fails(turn_twice) == (
        "scenario.json: turns[3].turn: turn 3 is already listed at turns[2]")


def test_string_where_a_turn_number_belongs():
    def edit(doc: dict[str, Any]) -> None:
        doc["reinforcements"][0]["turn"] = "1"
    assert scenario_fails(edit) == (
        "scenario.json: reinforcements[0].turn: expected a whole number, got '1'")


# -- position ----------------------------------------------------------------------------


def test_demo_position():
    demo = load_position(DEMO_POSITION)
    assert (demo.turn, demo.phase, demo.active_side) == (2, "movement", "allied")
    assert [u.id for u in demo.units_in("2417")] == ["2 Rgr"]
    off = [u.id for u in demo.units if u.off_map]
    assert off == ["9/2", "23/2", "CCA/2"]
    assert [m.type for m in demo.markers] == ["beachhead"] * 3


def test_off_map_units_need_the_flag_and_no_hex():
    def no_flag(doc: dict[str, Any]) -> None:
        doc["units"][7].pop("off_map")
    assert position_fails(no_flag) == (
        'position.json: units[7].hex: hex is null: set "off_map": true for a unit not on the map')

    def both(doc: dict[str, Any]) -> None:
        doc["units"][0]["off_map"] = True
    assert position_fails(both) == (
        "position.json: units[0].off_map: the unit is in hex '2417' and also off_map")


def test_a_unit_listed_twice():
    def edit(doc: dict[str, Any]) -> None:
        doc["units"].append({"id": "1", "hex": "0101"})
    assert position_fails(edit) == (
        "position.json: units[10].id: unit '1' is already listed at units[5]")


def test_markers_keep_their_extra_keys():
    doc = position_from_data(edited(DEMO_POSITION, lambda d: d["markers"].append(
        {"type": "beach", "hex": "2318", "controlled_by": "allied", "wrecked": False})), "p.json")
    assert doc.markers[-1].model_extra == {"controlled_by": "allied", "wrecked": False}


def test_markers_need_type_and_hex():
    def edit(doc: dict[str, Any]) -> None:
        doc["markers"][0].pop("hex")
    assert position_fails(edit) == "position.json: markers[0]: missing required key 'hex'"


def test_transported_units_name_a_unit_of_the_position():
    def edit(doc: dict[str, Any]) -> None:
        doc["units"][0]["transported_by"] = "truck"
    assert position_fails(edit) == (
        "position.json: units[0].transported_by: unit 'truck' is not in this position")
