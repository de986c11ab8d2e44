"""Rules profiles: the demo F&M profile gives only the rulebook's numbers; all four systems fit."""

from __future__ import annotations

import re

import json
from typing import Any

import pytest

from pipeline.model import RulesProfile, cost_is_unknown, load_rules, rules_from_data

from .conftest import DEMO_RULES, ROOT, RULEBOOK, edited, error_of

# A machine path (an absolute path of two or more parts) must never appear in data.
ABSOLUTE_PATH = re.compile(r"(?<![\w.])/(?:[A-Za-z0-9_.-]+/)+")

FILE = "maps/demo/rules.json"


def fails(edit) -> str:
    return error_of(lambda: rules_from_data(edited(DEMO_RULES, edit), FILE))


@pytest.fixture(scope="module")
def demo() -> RulesProfile:
    return load_rules(DEMO_RULES)


# -- the F&M profile (000) ---------------------------------------------------------------


def test_road_and_trail_rates_000_s5_4_1_and_s5_4_2(demo):
    assert demo.roads["road"].rate == 0.5 and "§5.4.1" in demo.roads["road"].cite
    assert demo.roads["trail"].rate == 1 and "§5.4.2" in demo.roads["trail"].cite


def test_clear_costs_one_mp_000_s5_4(demo):
    assert demo.terrain["clear"].move == 1 and demo.terrain["clear"].cite.endswith("§5.4")


def test_all_sea_is_prohibited_000_s8_3(demo):
    assert demo.terrain["all_sea"].move == "P"


def test_costs_the_text_does_not_give_are_labelled_illustrative_or_null(demo):
    """000 §5.4: only clear (1 MP) and all-sea (prohibited) costs are in the text; the
    demo's other costs are illustrative and say so, or null with a note."""
    chosen = sorted(n for n, r in demo.terrain.items()
                    if not cost_is_unknown(r.move) and n not in ("clear", "all_sea"))
    assert chosen == ["beach", "city", "fortification", "marsh", "rough", "village", "woods"]
    for rules in (demo.terrain, demo.hexsides):
        for name, rule in rules.items():
            if name in ("clear", "all_sea"):
                continue
            assert ("illustrative" in rule.note if not cost_is_unknown(rule.move)
                    else "Terrain Effects Chart, not in the rulebook text" in rule.note), name


def test_combat_lines_are_the_crt_rows(demo):
    assert demo.terrain["woods"].combat is not None
    assert demo.terrain["woods"].combat.row == "Woods, Bridge, Canal, Ditch"
    assert demo.hexsides["river"].combat is not None
    assert demo.hexsides["river"].combat.row == "City, Rough, River"
    fort = demo.terrain["fortification"].combat
    assert fort is not None and fort.multiplier == 2 and fort.cite.endswith("§8.2.3")


def test_stacking_one_unit_three_on_beach_landing_hexes_000_s5_3_s11_2_1(demo):
    assert demo.stacking.limit == 1
    assert demo.stacking.marker_limits == {"beachhead": 3}


def test_zoc_leg_stop_mobile_surcharge_rangers_ignore_000_s6(demo):
    zoc = demo.zoc
    assert zoc.exempt_flags == ["no_zoc"] and zoc.negated_by_friendly == []
    assert zoc.stop_on_entry == ["leg"]
    assert zoc.entry_surcharge == {"mobile": "half_printed_ma_round_down"}
    assert zoc.ignored_by_flags == ["ranger"]
    assert zoc.ezoc_to_ezoc_blocked_hexsides == ["minefield"]


def test_supply_to_beachhead_markers_any_length_000_s12(demo):
    supply = demo.supply
    assert supply.sides == ["allied"] and supply.max_length is None
    assert [s.marker for s in supply.sources] == ["beachhead"]
    assert supply.ezoc == "enter_or_exit_not_both" and supply.exempt_flags == ["ranger"]


def test_inclement_weather_halves_ma_rounding_up_000_s14_1(demo):
    inclement = demo.movement.weather["inclement"]
    assert (inclement.ma_factor, inclement.rounding) == (0.5, "up")


def test_every_cite_names_the_rulebook_file_not_a_path(demo):
    text = demo.model_dump_json()
    assert RULEBOOK in text and not ABSOLUTE_PATH.search(text) and "seeds/" not in text


# -- errors ------------------------------------------------------------------------------


def test_null_cost_without_a_note_is_refused():
    def edit(doc: dict[str, Any]) -> None:
        doc["terrain"]["woods"]["move"] = None
        doc["terrain"]["woods"]["note"] = ""
    assert fails(edit) == (
        "maps/demo/rules.json: terrain.woods.move: cost is null (not given) but the entry has"
        " no note: say where the number is, e.g. \"printed on the map's Terrain Effects Chart,"
        " not in the rulebook text\"")


def test_null_cost_for_one_unit_class_needs_a_note_too():
    def edit(doc: dict[str, Any]) -> None:
        doc["terrain"]["clear"]["move"] = {"leg": 1, "mobile": None}
    assert fails(edit).startswith("maps/demo/rules.json: terrain.clear.move: cost is null")


def test_null_combat_and_null_stacking_limit_need_notes():
    def combat(doc: dict[str, Any]) -> None:
        doc["terrain"]["clear"]["combat"] = None
    assert fails(combat).startswith(
        "maps/demo/rules.json: terrain.clear.combat: combat effect is null (not given)")

    def limit(doc: dict[str, Any]) -> None:
        doc["stacking"]["limit"] = None
        doc["stacking"]["note"] = ""
    assert fails(limit).startswith("maps/demo/rules.json: stacking.limit: stacking limit is null")


def test_unit_class_keys_must_be_declared():
    def edit(doc: dict[str, Any]) -> None:
        doc["terrain"]["clear"]["move"] = {"leg": 1, "mobil": 2}
    assert fails(edit) == ("maps/demo/rules.json: terrain.clear.move.mobil: unknown unit class"
                           " 'mobil' (did you mean 'mobile'?) (unit_classes: leg, mobile)")

    def zoc(doc: dict[str, Any]) -> None:
        doc["zoc"]["stop_on_entry"] = ["legs"]
    assert fails(zoc).startswith(
        "maps/demo/rules.json: zoc.stop_on_entry[0]: unknown unit class 'legs'")


@pytest.mark.parametrize(("cost", "ok"), [
    (0, True), (2.5, True), ("+1", True), ("+2.5", True), ("P", True), (None, True),
    ({"leg": 2, "mobile": "P"}, True), (-1, False), ("2", False), ("p", False), ("+", False),
    (True, False), ([1], False), ({}, False), ({"leg": "x"}, False),
])
def test_cost_forms(cost, ok):
    def edit(doc: dict[str, Any]) -> None:
        doc["terrain"]["woods"]["move"] = cost
    if ok:
        profile = rules_from_data(edited(DEMO_RULES, edit), FILE)
        assert profile.terrain["woods"].move == cost
    else:
        message = fails(edit)
        assert message.startswith("maps/demo/rules.json: terrain.woods.move")
        assert "expected a cost" in message or "at least one class" in message


def test_bad_cost_message_lists_the_forms():
    def edit(doc: dict[str, Any]) -> None:
        doc["terrain"]["woods"]["move"] = {"leg": "two"}
    assert fails(edit) == ("maps/demo/rules.json: terrain.woods.move.leg: expected a cost: a"
                           " number >= 0, '+N' (added terrain), 'P' (prohibited) or null (not"
                           " given), got 'two'")


def test_road_rates_are_numbers_not_costs():
    def edit(doc: dict[str, Any]) -> None:
        doc["roads"]["road"]["rate"] = "P"
    assert fails(edit) == ("maps/demo/rules.json: roads.road.rate: expected a rate: a number >= 0"
                           " or null (not given), got 'P'")


def test_empty_combat_effect_is_refused():
    def edit(doc: dict[str, Any]) -> None:
        doc["terrain"]["clear"]["combat"] = {"cite": "x"}
    assert fails(edit).startswith("maps/demo/rules.json: terrain.clear.combat: a combat effect"
                                  ' needs "row", "shift", "modifier" or "multiplier"')


def test_unknown_system_gets_a_suggestion():
    def edit(doc: dict[str, Any]) -> None:
        doc["system"] = "june_44"
    assert fails(edit) == ("maps/demo/rules.json: system: expected one of 'fm_omaha', 'june44',"
                           " 'cobra', 'tactical', got 'june_44' (did you mean 'june44'?)")


# -- the other three systems fit the same sections ---------------------------------------


def profile(system: str, **sections: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "kind": "rules", "system": system, "game": system, "source": "x",
        "unit_classes": ["infantry"], "dice": "1d6",
        "terrain": {"clear": {"move": 1, "combat": None, "note": "chosen for the test"}},
        "zoc": {}, "stacking": {"limit": 1}, "supply": {}, "movement": {},
    }
    base.update(sections)
    return base


def test_june44_zoc_stacking_and_supply_001():
    doc = rules_from_data(profile(
        "june44", dice="1d10",
        zoc={"exempt_flags": ["artillery_parens"], "blocked_by_hexsides": ["canal"],
             "negated_by_friendly": ["supply"], "stop_on_entry": ["infantry"],
             "ezoc_to_ezoc": "one_hex_into_friendly", "cite": "001 §6.0-§6.2"},
        stacking={"limit": 2, "exceptions": [
            {"size": "brigade", "max_count": 1, "value": 0, "note": "a third unit (001 §6.3)"},
            {"flag": "fortification", "value": 0, "cite": "001 §11.1.1"}],
            "no_mixing": [["US"], ["CW"]], "cite": "001 §6.3"},
        supply={"sources": [
            {"side": "allied", "kind": "controlled", "terrain": "beach", "cite": "001 §7.2"},
            {"side": "german", "kind": "edge", "edge": "south", "cite": "001 §7.2"},
            {"side": "german", "kind": "location", "location": "Cherbourg",
             "condition": "German-controlled", "cite": "001 §7.2"}],
            "out_of_supply_ma_factor": 0.5},
        movement={"always_one_hex": True, "weather": {"modifier": {"sides": ["german"],
                                                                   "note": "001 §7.5"}}},
    ), "june44.json")
    assert doc.stacking.exceptions[0].max_count == 1
    assert [s.kind for s in doc.supply.sources] == ["controlled", "edge", "location"]


def test_cobra_zoc_stacking_supply_length_003():
    doc = rules_from_data(profile(
        "cobra", unit_classes=["infantry", "mechanized"],
        terrain={"clear": {"move": 1, "combat": None, "note": "TEC"},
                 "bocage": {"move": {"infantry": 2, "mechanized": 3}, "combat": {"shift": -1},
                            "cite": "003 §5.7.1"}},
        hexsides={"major_river": {"move": None, "combat": None, "note": "TEC"}},
        roads={"primary_road": {"rate": None, "note": "TEC"},
               "secondary_road": {"rate": {"infantry": None, "mechanized": None}, "note": "TEC"}},
        zoc={"exempt_flags": ["hq", "flak"], "exempt_sizes": ["battalion"],
             "blocked_by_hexsides": ["major_river", "all_sea"],
             "not_into_terrain": ["caen_city", "cherbourg_city", "fortress"],
             "negated_by_friendly": ["supply", "command", "retreat"],
             "negation_exempt_flags": ["hq"], "stop_on_entry": ["infantry", "mechanized"],
             "ezoc_to_ezoc": "disengage", "leave_cost": 2},
        stacking={"limit": 1, "counts": "division_equivalents",
                  "size_values": {"division": 1, "regiment": 1 / 3, "brigade": 1 / 3},
                  "exceptions": [{"flag": "hq", "value": 0, "max_count": 1},
                                 {"size": "battalion", "value": 0, "max_count": 2},
                                 {"size": "brigade", "nationality": "British", "value": 0.5},
                                 {"flag": "delay", "max_count": 1}]},
        supply={"max_length": 12, "length_costs": {"bocage": 2, "secondary_road": 1,
                                                   "major_river": 6},
                "max_terrain": {"marsh": 1}, "out_of_supply_ma_factor": 0.5},
        movement={"always_one_hex": True, "enemy_hexes": "prohibited_except_hq_only",
                  "weather": {"overcast": {"sides": ["german"], "ma_factor": 2 / 3},
                              "clear": {"sides": ["german"], "ma_factor": 1 / 3}}},
    ), "cobra.json")
    assert doc.terrain["bocage"].move == {"infantry": 2, "mechanized": 3}
    assert doc.supply.max_length == 12 and doc.zoc.leave_cost == 2


def test_tactical_has_no_zoc_and_stacks_four_002():
    doc = rules_from_data(profile(
        "tactical", unit_classes=["infantry", "vehicle"],
        zoc={"exerted": False, "note": "the player aid has no ZOC rule"},
        stacking={"limit": 4, "exceptions": [{"flag": "transport", "value": 0}]},
        supply={"traced": False}, movement={"always_one_hex": True}), "tactical.json")
    assert doc.zoc.exerted is False and doc.stacking.limit == 4


SUITE = ROOT / "tests" / "rules" / "scenarios"


@pytest.mark.skipif(not SUITE.is_dir(), reason="rules scenario suite not present")
@pytest.mark.parametrize("system", ["fm_omaha", "june44", "cobra", "tactical"])
def test_every_cost_in_the_rules_scenario_suite_is_a_cost(system):
    # The hand-derived cases (SCENARIOS.md §2.2) use the same cost forms as profiles.
    cases = json.loads((SUITE / f"{system}.json").read_text(encoding="utf-8"))
    costs = [cost for case in cases for section in ("hex", "hexside")
             for cost in case["terrain_chart"].get(section, {}).values()]
    assert costs
    for cost in costs:
        def edit(doc: dict[str, Any], cost: Any = cost) -> None:
            doc["terrain"]["woods"]["move"] = cost
            if isinstance(cost, dict):  # classes such as infantry/mechanized (003)
                doc["unit_classes"] += [c for c in cost if c not in doc["unit_classes"]]
        assert rules_from_data(edited(DEMO_RULES, edit), FILE).terrain["woods"].move == cost
