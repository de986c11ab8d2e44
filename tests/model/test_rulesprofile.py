"""Rules profiles: the demo F&M profile gives only the rulebook's numbers; all four systems fit."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from pipeline.model import RulesProfile, cost_is_unknown, game_folders, load_rules, rules_from_data
from pipeline.model.systems import system_ids

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
    [beach] = demo.stacking.hex_limits
    assert (beach.marker, beach.terrain, beach.limit) == ("beachhead", "beach", 3)
    assert beach.cite.endswith("§11.2.4")


def test_zoc_leg_stop_mobile_surcharge_rangers_ignore_000_s6(demo):
    zoc = demo.zoc
    assert [s.flags for s in zoc.not_exerted_by] == [["no_zoc"]]
    assert zoc.negated_by_friendly.purposes == []
    assert zoc.enter.stop and zoc.ezoc_to_ezoc.mode == "whole_ma"
    mobile = zoc.by_class["mobile"]
    assert mobile.enter is not None and not mobile.enter.stop
    assert (mobile.enter.extra_ma_fraction, mobile.enter.rounding) == (0.5, "down")
    assert [s.flags for s in zoc.ignored_by] == [["ranger"]]
    assert zoc.ezoc_to_ezoc_barred is not None
    assert zoc.ezoc_to_ezoc_barred.hexsides == ["minefield"]
    assert zoc.ezoc_to_ezoc_barred.cite.endswith("§6.1 Exception")


def test_supply_to_beachhead_markers_any_length_000_s12(demo):
    supply = demo.supply
    assert supply.length.max is None
    assert [(s.marker.type if s.marker else None, s.terrain) for s in supply.sources] == [
        ("beachhead", "beach")]
    assert supply.ezoc.mode == "enter_or_exit"
    assert [(n.sides, n.flags) for n in supply.not_traced] == [(["german"], []), ([], ["ranger"])]


def test_inclement_weather_halves_ma_rounding_up_000_s14_1(demo):
    [inclement] = demo.movement.ma_modifiers
    assert (inclement.weather, inclement.factor, inclement.rounding) == (
        ["inclement"], 0.5, "up")


def test_answers_quote_cites_with_the_short_rulebook_name(demo):
    assert demo.cite_as == "000"
    assert demo.cite_text(demo.zoc.ezoc_to_ezoc_barred.cite) == "000 §6.1 Exception"


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
        doc["zoc"]["by_class"]["legs"] = {"enter": {"stop": True}}
    assert fails(zoc).startswith(
        "maps/demo/rules.json: zoc.by_class.legs: unknown unit class 'legs'")


@pytest.mark.parametrize(("place", "edit", "message"), [
    ("movement.phases.mobile_movement.movers[0].classes[0]",
     lambda d: d["movement"]["phases"]["mobile_movement"]["movers"][0].update(classes=["mob"]),
     "unknown unit class 'mob'"),
    ("supply.not_traced[0].sides[0]",
     lambda d: d["supply"]["not_traced"][0].update(sides=["axis"]), "unknown side 'axis'"),
    ("stacking.hex_limits[0].terrain",
     lambda d: d["stacking"]["hex_limits"][0].update(terrain="beech"),
     "unknown terrain 'beech' (did you mean 'beach'?)"),
    ("zoc.not_exerted_by[0].roles[0]",
     lambda d: d["zoc"]["not_exerted_by"][0].update(roles=["hq"]), "unknown role 'hq'"),
])
def test_every_name_a_rule_gives_is_declared(place, edit, message):
    assert fails(edit).startswith(f"maps/demo/rules.json: {place}: {message}")


def test_a_movement_modifier_says_one_change():
    def edit(doc: dict[str, Any]) -> None:
        doc["movement"]["ma_modifiers"][0]["subtract"] = 1
    assert fails(edit) == ("maps/demo/rules.json: movement.ma_modifiers[0]: a movement modifier"
                           " needs exactly one of factor, subtract, subtract_from_state or"
                           " max_hexes (given: factor, subtract)")


def test_a_marker_source_names_its_marker():
    def edit(doc: dict[str, Any]) -> None:
        del doc["supply"]["sources"][0]["marker"]
    assert fails(edit) == ("maps/demo/rules.json: supply.sources[0].marker: a 'marker' source"
                           " needs 'marker'")


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
    assert fails(edit) == (
        "maps/demo/rules.json: system: unknown rule system 'june_44' (did you mean 'june44'?):"
        " registered systems are generic, cobra, fm_omaha, june44, tactical (a plugin registers"
        " its own in the 'bocage.rules' entry-point group)")


def test_no_system_is_the_kernel_alone():
    doc = rules_from_data(profile_doc(), "game.json")
    assert doc.system == "generic" and doc.file == "game.json"


def profile_doc(**sections: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "kind": "rules", "game": "g", "source": "RULES.md", "unit_classes": ["infantry"],
        "dice": "1d6", "terrain": {"clear": {"move": 1, "note": "chosen for the test"}},
        "stacking": {"limit": 1},
    }
    base.update(sections)
    return base


def test_every_seed_profile_loads_and_names_a_registered_system():
    # Which system a folder's game is answered by is the folder's data (its game's alias).
    seeds = [f for f in game_folders(ROOT / "maps") if f.name not in ("ironroads", "ridge")]
    assert [f.name for f in seeds] == ["cobra", "demo", "june44", "omaha", "tactical"]
    for folder in seeds:
        doc = folder.rules()
        assert doc.system in system_ids() and doc.system != "generic" and doc.cite_as
        assert folder.game.is_called(doc.system), folder.name


def test_selectors_roles_and_phases_of_the_cobra_profile_003():
    doc = load_rules(ROOT / "maps" / "cobra" / "rules.json")
    assert [s.flags or s.sizes or s.types for s in doc.roles["hq"]] == [
        ["hq"], ["corps"], ["headquarters"]]
    movers = doc.movement.phases["mechanized_movement"].movers
    british = next(m for m in movers if m.ma_factor is not None)
    assert british.ma_factor == pytest.approx(2 / 3) and british.cite.endswith("§5.3.3")
    assert doc.supply.length.max == 12
    assert [c.counts for c in doc.supply.length.hex_counts] == [1, 1, 2]
    assert doc.supply.length.crossings[0].counts == 6
    assert doc.zoc.leave.extra_mp == 2 and doc.zoc.leave.no_reentry


SUITE = ROOT / "tests" / "rules" / "scenarios"


@pytest.mark.slow
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


# -- start-up (issue 18) -------------------------------------------------------------------

_BUILT = """
import json, sys
import pydantic
import pipeline.model.rulesprofile as profile

classes = [value for value in vars(profile).values() if isinstance(value, type)
           and issubclass(value, pydantic.BaseModel) and value.__module__ == profile.__name__]
def built():
    return sorted(c.__name__ for c in classes if c.__pydantic_complete__)
before = built()
profile.load_rules(sys.argv[1])
print(json.dumps({"classes": len(classes), "before": before, "after": built()}))
"""


def test_the_profile_builds_its_validator_when_a_profile_is_first_read():
    # defer_build (pipeline.model.base): importing the profile's classes builds the
    # validators of those whose instances are defaults of other fields only; reading a
    # profile builds one validator for the whole document, not one for each class.
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _BUILT, str(DEMO_RULES)], check=True,
                         capture_output=True, text=True)
    built = json.loads(out.stdout)
    assert "RulesProfile" not in built["before"] and "RulesProfile" in built["after"]
    assert len(built["before"]) < built["classes"] / 4
    assert len(built["after"]) == len(built["before"]) + 1
