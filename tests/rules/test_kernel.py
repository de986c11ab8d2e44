"""The rules kernel on a game described only by its rules profile (``"system": "generic"``).

Each test builds a small position in the scenario format with its own profile, whose
``cite`` entries are ``TEST §...``: every refusal must quote the profile entry that
decided it, never one of the seed rulebooks.
"""

from __future__ import annotations

import copy
import dataclasses
import gc
import weakref
from typing import Any

import pytest

from pipeline.errors import DataError
from pipeline.rules import Engine, case_from_data, run_case
from pipeline.rules.errors import RulesError

BOOK = "TEST.md"


def profile(**edits: Any) -> dict[str, Any]:
    """A two-class game: foot and wheels, ZOC stops, one unit a hex, supply to markers."""
    doc: dict[str, Any] = {
        "game": "test", "source": f"{BOOK} (the test game)", "cite_as": "TEST",
        "unit_classes": ["foot", "wheels"], "dice": "1d6",
        "terrain": {
            "clear": {"move": 1, "note": "n"},
            "woods": {"move": {"foot": 2, "wheels": 4}, "note": "n"},
            "lake": {"move": "P", "cite": f"{BOOK} §3.3", "note": "n"},
            "swamp": {"move": 2, "road_only": {"classes": ["wheels"], "cite": f"{BOOK} §3.4"},
                      "note": "n"},
            "village": {"move": "+1", "note": "n"},
        },
        "hexsides": {"river": {"move": 2, "note": "n"},
                     "cliff": {"move": "P", "cite": f"{BOOK} §3.5", "note": "n"}},
        "roads": {"road": {"rate": 0.5, "bridges": ["river"], "cite": f"{BOOK} §3.2"}},
        "movement": {"allowance": {"cite": f"{BOOK} §3.1"},
                     "enemy_hexes": {"cite": f"{BOOK} §3.6"}},
        "zoc": {"enter": {"stop": True, "cite": f"{BOOK} §4.1"},
                "ezoc_to_ezoc": {"mode": "prohibited", "cite": f"{BOOK} §4.2"}},
        "stacking": {"limit": 1, "cite": f"{BOOK} §5.1"},
        "supply": {"sources": [{"side": "blue", "kind": "marker", "marker": {"type": "depot"},
                                "name": "a depot", "cite": f"{BOOK} §6.1"}],
                   "cite": f"{BOOK} §6.0"},
        "sides": ["blue", "red"],
    }
    for path, value in edits.items():
        node = doc
        *parents, last = path.split("__")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    return doc


def case(units: list[dict[str, Any]], query: dict[str, Any], expect: dict[str, Any] | None = None,
         terrain: dict[str, list[str]] | None = None, hexsides: list[dict[str, Any]] | None = None,
         markers: list[dict[str, Any]] | None = None, state: dict[str, Any] | None = None,
         size: tuple[int, int] = (6, 6), **edits: Any) -> dict[str, Any]:
    return {"id": "k", "system": "generic", "profile": profile(**edits),
            "map": {"cols": size[0], "rows": size[1], "terrain": terrain or {},
                    "hexsides": hexsides or []},
            "units": units, "markers": markers or [],
            "state": {"active_side": "blue", "turn": 3, "phase": "movement", **(state or {})},
            "query": query, "expect": expect or {}}


def foot(uid: str, hex_id: str, ma: float = 4, side: str = "blue", **flags: Any) -> dict[str, Any]:
    return {"id": uid, "side": side, "hex": hex_id, "class": "foot", "ma": ma, **flags}


def reach(data: dict[str, Any], unit: str = "A") -> tuple[dict[str, Any], dict[str, Any]]:
    c = case_from_data(data)
    engine = Engine(c.situation)
    r = engine.reachable(unit)
    return ({engine.name(h): v for h, v in r.costs.items()},
            {engine.name(h): v for h, v in r.refused.items()})


def passes(data: dict[str, Any]) -> None:
    result = run_case(case_from_data(data))
    assert result.passed, result.problems


# -- movement ------------------------------------------------------------------------------


def test_costs_per_class_highest_terrain_and_added_terrain():
    costs, _ = reach(case([foot("A", "0303", ma=3)], {"kind": "reachable", "unit": "A"},
                          terrain={"0302": ["woods"], "0304": ["woods", "village"],
                                   "0203": ["clear", "village"]}))
    assert costs["0302"] == 2 and costs["0203"] == 2 and costs["0304"] == 3
    wheels = {"id": "W", "side": "blue", "hex": "0303", "class": "wheels", "ma": 3}
    costs, refused = reach(case([wheels], {"kind": "reachable", "unit": "W"},
                                terrain={"0302": ["woods"]}), "W")
    assert "0302" not in costs and refused["0302"].rule == "TEST §3.1"


def test_prohibited_terrain_and_hexside_cite_their_entries():
    _, refused = reach(case([foot("A", "0303", ma=1)], {"kind": "reachable", "unit": "A"},
                            terrain={"0302": ["lake"]},
                            hexsides=[{"hexes": ["0303", "0304"], "features": ["cliff"]}]))
    assert refused["0302"].rule == "TEST §3.3" and refused["0302"].at == "0302"
    assert refused["0304"].rule == "TEST §3.5"


def test_road_along_the_hexside_replaces_hex_and_hexside_and_bridges_the_river():
    costs, _ = reach(case([foot("A", "0303", ma=1)], {"kind": "reachable", "unit": "A"},
                          terrain={"0304": ["woods"], "0305": ["woods"]},
                          hexsides=[{"hexes": ["0303", "0304"], "features": ["road", "river"]},
                                    {"hexes": ["0304", "0305"], "features": ["road"]}]))
    assert costs["0304"] == 0.5 and costs["0305"] == 1


def test_road_from_road_hex_to_road_hex_adds_the_hexside():
    data = case([foot("A", "0303", ma=3)], {"kind": "reachable", "unit": "A"},
                terrain={"0304": ["woods"]},
                hexsides=[{"hexes": ["0303", "0203"], "features": ["road"]},
                          {"hexes": ["0304", "0204"], "features": ["road"]},
                          {"hexes": ["0303", "0304"], "features": ["river"]}],
                roads__road__along="hexes")
    data["query"] = {"kind": "check_path", "unit": "A", "path": ["0303", "0304"]}
    data["expect"] = {"legal": True, "cost": 2.5}  # road 1/2 for the hex, the river's 2 added
    passes(data)


def test_road_only_terrain_for_a_class():
    wheels = {"id": "W", "side": "blue", "hex": "0303", "class": "wheels", "ma": 6}
    data = case([wheels], {"kind": "reachable", "unit": "W"},
                terrain={"0302": ["swamp"], "0304": ["swamp"]},
                hexsides=[{"hexes": ["0303", "0304"], "features": ["road"]}])
    costs, refused = reach(data, "W")
    assert refused["0302"].rule == "TEST §3.4" and costs["0304"] == 0.5


def test_null_cost_is_named_with_the_case_never_guessed():
    data = case([foot("A", "0303")], {"kind": "reachable", "unit": "A"},
                terrain={"0302": ["woods"]}, terrain__woods__move=None)
    data["terrain_chart"] = {"hex": {"woods": None}}
    with pytest.raises(RulesError, match=r"terrain_chart\.hex\.woods: the cost of woods"):
        reach(data)


def test_one_hex_allowance_first_step_only_and_not_from_an_ezoc():
    data = case([foot("A", "0303", ma=1)], {"kind": "reachable", "unit": "A"},
                terrain={h: ["woods"] for h in ("0302", "0304", "0202", "0203", "0402", "0403")},
                movement__one_hex={"from_ezoc": False, "cite": f"{BOOK} §3.7"})
    costs, _ = reach(data)
    assert set(costs.values()) == {"one_hex"} and len(costs) == 6
    data["units"].append(foot("R", "0402", side="red"))  # A's hex is in its ZOC now
    costs, refused = reach(data)
    assert costs == {} and refused["0202"].rule == "TEST §3.1"


def test_phase_with_its_own_movers_and_ma():
    wheels = {"id": "W", "side": "blue", "hex": "0601", "class": "wheels", "ma": 6}
    data = case([foot("A", "0101"), wheels], {"kind": "reachable", "unit": "A"},
                state={"phase": "exploitation"}, size=(10, 1),
                movement__phases={"exploitation": {
                    "movers": [{"classes": ["wheels"], "ma_factor": 0.5,
                                "cite": f"{BOOK} §7.2"}], "cite": f"{BOOK} §7.1"}})
    costs, refused = reach(data)
    assert costs == {} and {v.rule for v in refused.values()} == {"TEST §7.1"}
    costs, refused = reach(data, "W")
    assert max(costs.values()) == 3 and refused["1001"].rule == "TEST §7.2"


def test_modifiers_in_order_and_the_rule_that_took_the_mp():
    mods = [{"weather": ["rain"], "subtract": 1, "cite": f"{BOOK} §8.1"},
            {"out_of_supply": True, "factor": 0.5, "cite": f"{BOOK} §8.2"}]
    data = case([foot("A", "0101", ma=5, in_supply=False)], {"kind": "reachable", "unit": "A"},
                state={"weather": "rain"}, size=(8, 1), movement__ma_modifiers=mods)
    costs, refused = reach(data)
    assert max(costs.values()) == 2  # (5 - 1) / 2
    assert refused["0401"].rule == "TEST §8.2"   # 3 MP: the halving took them
    data["units"][0]["in_supply"] = True
    costs, refused = reach(data)
    assert max(costs.values()) == 4 and refused["0601"].rule == "TEST §8.1"


def test_a_unit_that_may_not_move_this_turn_and_one_that_moves_one_hex():
    mods = [{"flags": ["green"], "turns": [1], "max_hexes": 0, "cite": f"{BOOK} §9.1"},
            {"flags": ["green"], "turns": [2], "max_hexes": 1, "cite": f"{BOOK} §9.1"}]
    data = case([foot("A", "0303", green=True)], {"kind": "reachable", "unit": "A"},
                state={"turn": 1}, movement__ma_modifiers=mods)
    costs, refused = reach(data)
    assert costs == {} and {v.rule for v in refused.values()} == {"TEST §9.1"}
    data["state"]["turn"] = 2
    costs, _ = reach(data)
    assert len(costs) == 6 and set(costs.values()) == {1}


def test_stops_by_terrain_and_marker_for_a_side():
    stops = [{"sides": ["red"], "markers": [{"type": "mine", "where": {"live": True}}],
              "cite": f"{BOOK} §3.8"}]
    red = foot("R", "0101", side="red")
    data = case([red], {"kind": "check_path", "unit": "R", "path": ["0101", "0102", "0103"]},
                markers=[{"type": "mine", "hex": "0102", "live": True}],
                movement__stops=stops, expect={"legal": False, "rule": "3.8", "fails_at": "0103"})
    passes(data)
    data["markers"][0]["live"] = False
    data["expect"] = {"legal": True, "cost": 2}
    passes(data)


# -- zones of control ------------------------------------------------------------------------


def test_zoc_stop_and_no_ezoc_to_ezoc():
    data = case([foot("A", "0101"), foot("R", "0303", side="red")],
                {"kind": "check_path", "unit": "A", "path": ["0101", "0201", "0202", "0302"]},
                expect={"legal": False, "rule": "4.1", "fails_at": "0302"})
    passes(data)
    data["units"][0]["hex"] = "0202"
    data["query"]["path"] = ["0202", "0302"]
    data["expect"] = {"legal": False, "rule": "4.2", "fails_at": "0302"}
    passes(data)


def test_zoc_costs_extra_to_enter_and_leave_per_class_and_no_reentry():
    zoc = {"enter": {"stop": False, "extra_mp": 2, "cite": f"{BOOK} §4.1"},
           "leave": {"extra_mp": 1, "no_reentry": True, "cite": f"{BOOK} §4.3"},
           "by_class": {"wheels": {"enter": {"stop": True, "cite": f"{BOOK} §4.4"}}}}
    data = case([foot("A", "0101", ma=9), foot("R", "0303", side="red")],
                {"kind": "check_path", "unit": "A", "path": ["0101", "0201", "0202", "0102"]},
                zoc=zoc, expect={"legal": True, "cost": 1 + 3 + 2})
    passes(data)  # 0201 clear 1; 0202 in the EZOC: 1 + 2; back out to 0102: 1 + 1
    data["query"]["path"] = ["0101", "0201", "0202", "0102", "0103", "0203"]
    data["expect"] = {"legal": False, "rule": "4.3", "fails_at": "0203"}
    passes(data)
    wheels = {"id": "W", "side": "blue", "hex": "0101", "class": "wheels", "ma": 9}
    data["units"][0] = wheels
    data["query"] = {"kind": "check_path", "unit": "W", "path": ["0101", "0201", "0202", "0102"]}
    data["expect"] = {"legal": False, "rule": "4.4", "fails_at": "0102"}
    passes(data)


def test_zoc_half_the_printed_ma_and_whole_ma_ezoc_to_ezoc():
    zoc = {"enter": {"stop": False, "extra_ma_fraction": 0.5, "cite": f"{BOOK} §4.1"},
           "ezoc_to_ezoc": {"mode": "whole_ma", "cite": f"{BOOK} §4.2"}}
    data = case([foot("A", "0101", ma=7), foot("R", "0303", side="red")],
                {"kind": "check_path", "unit": "A", "path": ["0101", "0201", "0202"]},
                zoc=zoc, expect={"legal": True, "cost": 1 + 1 + 3})
    passes(data)
    data["units"][0]["hex"] = "0202"
    data["query"]["path"] = ["0202", "0302"]
    data["expect"] = {"legal": True, "cost": 7}
    passes(data)


def test_zoc_one_hex_into_a_friendly_hex_then_stop():
    zoc = {"ezoc_to_ezoc": {"mode": "one_hex_into_friendly", "cite": f"{BOOK} §4.2"}}
    data = case([foot("A", "0202"), foot("F", "0302"), foot("R", "0303", side="red")],
                {"kind": "reachable", "unit": "A"}, zoc=zoc,
                stacking__limit=2)
    costs, _ = reach(data)
    assert costs.get("0302") == 1
    data["query"] = {"kind": "check_path", "unit": "A", "path": ["0202", "0203"]}
    data["expect"] = {"legal": False, "rule": "4.2", "fails_at": "0203"}
    passes(data)  # 0203 is in the EZOC too, and holds no friendly unit
    data["query"]["path"] = ["0202", "0302", "0301"]
    data["expect"] = {"legal": False, "rule": "4.2", "fails_at": "0301"}
    passes(data)  # the one hex into the friendly hex ends the move



OVERRUN = {"by": [{"classes": ["wheels"], "cite": f"{BOOK} §7.1"}],
           "cost": {"extra_mp": 2, "cite": f"{BOOK} §7.2"},
           "not_across": {"hexsides": ["river"], "cite": f"{BOOK} §7.3"},
           "zoc": {"cite": f"{BOOK} §7.4"}, "cite": f"{BOOK} §7.0"}


def test_overrun_a_hex_its_cost_who_and_across_what():
    """A path checked as an overrun enters the enemy hex at its terrain + overrun.cost, is
    refused to units overrun.by does not name and across overrun.not_across, and is
    barred as any enemy hex when not checked as an overrun."""
    wheels = {"id": "W", "side": "blue", "hex": "0101", "class": "wheels", "ma": 6}
    query = {"kind": "check_path", "unit": "W", "path": ["0101", "0201", "0301", "0401"],
             "overrun": True}
    data = case([wheels, foot("R", "0301", side="red")], query, overrun=OVERRUN,
                expect={"legal": True, "cost": 1 + (2 + 1) + 1})
    passes(data)  # 0201 is in R's ZOC only: ignored by the move that overruns R
    passes({**data, "query": {**query, "overrun": False},
            "expect": {"legal": False, "rule": "4.1", "fails_at": "0301"}})
    data["units"][0] = foot("W", "0101", ma=6)
    data["expect"] = {"legal": False, "rule": "7.1", "fails_at": "0301"}
    passes(data)
    data["units"][0] = wheels
    data["map"]["hexsides"] = [{"hexes": ["0201", "0301"], "features": ["river", "road"]}]
    data["expect"] = {"legal": False, "rule": "7.3", "fails_at": "0301"}
    passes(data)
    data["map"]["hexsides"] = []
    data["units"][0]["ma"] = 3
    data["expect"] = {"legal": False, "rule": "7.2", "fails_at": "0301"}
    passes(data)


def test_overrun_zoc_other_units_and_a_second_target():
    """overrun.zoc: no overrun from a hex another enemy unit's ZOC covers, unless that unit
    is the next one overrun; the hexes only the targets put in an EZOC are free."""
    wheels = {"id": "W", "side": "blue", "hex": "0101", "class": "wheels", "ma": 12}
    query = {"kind": "check_path", "unit": "W", "path": ["0101", "0201", "0301", "0401"],
             "overrun": True}
    two = case([wheels, foot("R", "0301", side="red"), foot("S", "0401", side="red")], query,
               overrun=OVERRUN, expect={"legal": True, "cost": 1 + 3 + 3}, size=(6, 1))
    passes(two)  # 0301 is in S's ZOC, but S is the next hex overrun
    other = case([wheels, foot("R", "0301", side="red"), foot("S", "0202", side="red")],
                 {**query, "path": ["0101", "0201", "0301"]}, overrun=OVERRUN, size=(6, 2),
                 expect={"legal": False, "rule": "4.1", "fails_at": "0301"})
    passes(other)  # 0201 is in S's ZOC too: the unit stops there, as without an overrun
    other["units"][0]["hex"] = "0201"
    other["query"]["path"] = ["0201", "0301"]
    other["expect"] = {"legal": False, "rule": "7.4", "fails_at": "0301"}
    passes(other)

def test_zoc_who_exerts_where_it_reaches_who_ignores():
    zoc = {"not_exerted_by": [{"flags": ["screen"], "cite": f"{BOOK} §4.5"}],
           "reach": {"blocked_by_hexsides": ["river"], "not_into_terrain": ["woods"]},
           "ignored_by": [{"flags": ["scout"], "cite": f"{BOOK} §4.6"}],
           "enter": {"stop": True, "cite": f"{BOOK} §4.1"}}
    units = [foot("R", "0303", side="red")]
    data = case(units, {"kind": "reachable", "unit": "R"}, zoc=zoc,
                terrain={"0302": ["woods"]},
                hexsides=[{"hexes": ["0303", "0304"], "features": ["river"]}])
    situation = case_from_data(data).situation
    engine = Engine(situation)
    ezoc = {engine.name(h) for h in engine.enemy_zoc("blue")}
    assert ezoc == {"0202", "0203", "0402", "0403"}  # not into 0302 (woods), not over the river
    data["units"][0]["screen"] = True
    assert Engine(case_from_data(data).situation).enemy_zoc("blue") == {}
    data["units"][0]["screen"] = False
    data["units"].append(foot("S", "0101", scout=True))
    data["query"] = {"kind": "check_path", "unit": "S", "path": ["0101", "0102", "0202", "0203"]}
    data["expect"] = {"legal": True, "cost": 3}
    passes(data)


def test_friendly_units_do_not_negate_for_movement_and_the_answer_says_so():
    zoc = {"enter": {"stop": True, "cite": f"{BOOK} §4.1"},
           "negated_by_friendly": {"purposes": ["supply"], "cite": f"{BOOK} §4.7"}}
    data = case([foot("A", "0101"), foot("F", "0202"), foot("R", "0303", side="red")],
                {"kind": "check_path", "unit": "A", "path": ["0101", "0201", "0202", "0102"]},
                zoc=zoc, stacking__limit=2,
                expect={"legal": False, "rule": "4.7", "fails_at": "0102"})
    passes(data)


# -- stacking --------------------------------------------------------------------------------


def stack(units: list[dict[str, Any]], expect: dict[str, Any], **edits: Any) -> None:
    passes(case(units, {"kind": "stacking_ok", "hex": "0303"}, expect=expect, **edits))


def test_stacking_by_count_with_free_units_and_a_third_unit():
    two = [foot("A", "0303"), foot("B", "0303")]
    stack(two, {"ok": False, "rule": "5.1"})
    stack([*two, foot("H", "0303", hq=True)], {"ok": True}, stacking__limit=2,
          stacking__units=[{"flags": ["hq"], "value": 0, "cite": f"{BOOK} §5.2"}])
    stack([*two, foot("C", "0303", size="company")], {"ok": True}, stacking__limit=2,
          stacking__units=[{"sizes": ["company"], "raises_limit": 1, "cite": f"{BOOK} §5.3"}])


def test_stacking_by_points_free_allowance_and_beyond():
    units = [{**foot("D", "0303"), "size": "division"}, foot("H1", "0303", hq=True),
             foot("H2", "0303", hq=True)]
    rules = {"limit": 1, "counts": "points", "points": {"division": 1, "brigade": 0.5},
             "units": [{"flags": ["hq"], "free": 1, "value": 0.5, "cite": f"{BOOK} §5.4"}],
             "cite": f"{BOOK} §5.1"}
    stack(units[:2], {"ok": True}, stacking=rules)
    stack(units, {"ok": False, "rule": "5.4"}, stacking=rules)  # the second HQ is beyond
    two = [{**foot("B1", "0303"), "size": "brigade"}, {**foot("B2", "0303"), "size": "brigade"},
           {**foot("B3", "0303"), "size": "brigade"}]
    stack(two[:2], {"ok": True}, stacking=rules)
    stack(two, {"ok": False, "rule": "5.1"}, stacking=rules)


def test_stacking_points_refuse_an_unknown_size_by_name():
    data = case([{**foot("X", "0303"), "size": "army"}, foot("Y", "0303")],
                {"kind": "stacking_ok", "hex": "0303"},
                stacking={"limit": 2, "counts": "points", "points": {"division": 1}})
    engine = Engine(case_from_data(data).situation)
    with pytest.raises(RulesError, match=r"stacking\.points: unit X is of size 'army'"):
        engine.stacking(engine.grid.hex("0303"))


def test_stacking_markers_count_and_hex_limits_and_mixing():
    rules = {"limit": 2, "markers": {"wreck": {"value": 1, "max_count": 2,
                                              "cite": f"{BOOK} §5.5"}},
             "hex_limits": [{"terrain": "village", "limit": 3, "cite": f"{BOOK} §5.6"}],
             "no_mixing": {"groups": [["Ruritania"], ["Freedonia"]], "cite": f"{BOOK} §5.7"},
             "cite": f"{BOOK} §5.1"}
    wrecks = [{"type": "wreck", "hex": "0303"}] * 2
    stack([foot("A", "0303")], {"ok": True}, stacking=rules, markers=wrecks[:1])
    stack([foot("A", "0303")], {"ok": False, "rule": "5.1"}, stacking=rules, markers=wrecks)
    stack([foot("A", "0303")], {"ok": False, "rule": "5.5"}, stacking=rules, markers=wrecks * 2)
    three = [foot("A", "0303"), foot("B", "0303"), foot("C", "0303")]
    stack(three, {"ok": True}, stacking=rules, terrain={"0303": ["village"]})
    mixed = [{**foot("A", "0303"), "nationality": "Ruritania"},
             {**foot("B", "0303"), "nationality": "Freedonia"}]
    stack(mixed, {"ok": False, "rule": "5.7"}, stacking=rules)


def test_stacking_applies_on_the_way_when_passing_is_not_allowed():
    data = case([foot("A", "0101"), foot("B", "0102")],
                {"kind": "check_path", "unit": "A", "path": ["0101", "0102", "0103"]},
                expect={"legal": True, "cost": 2})
    passes(data)
    data["profile"]["stacking"]["pass_through"] = False
    data["expect"] = {"legal": False, "rule": "5.1", "fails_at": "0102"}
    passes(data)


# -- supply ----------------------------------------------------------------------------------


def supply(data: dict[str, Any]) -> dict[str, tuple[bool, str | None, str]]:
    c = case_from_data(data)
    engine = Engine(c.situation)
    asked = c.query.get("units") or [u.id for u in c.situation.units]
    return {k: (a.in_supply, a.rule, a.reason) for k, a in engine.supply(asked).items()}


def test_supply_to_markers_and_edges_any_length():
    data = case([foot("A", "0101"), foot("B", "0606")], {"kind": "supply", "units": ["A", "B"]},
                markers=[{"type": "depot", "hex": "0303"}])
    answers = supply(data)
    assert answers["A"][0] and answers["B"][0] and "depot" in answers["A"][2]
    data["profile"]["supply"]["sources"] = [{"side": "blue", "kind": "edge", "edges": ["west"],
                                             "name": "the west edge", "cite": f"{BOOK} §6.1"}]
    answers = supply(data)
    assert answers["A"][2].startswith("on the west edge")


def test_supply_blocked_by_enemy_and_ezoc_unless_negated():
    markers = [{"type": "depot", "hex": "0501"}]
    data = case([foot("A", "0101"), foot("R", "0301", side="red")],
                {"kind": "supply", "units": ["A"]}, markers=markers, size=(5, 1))
    answers = supply(data)
    assert answers["A"][:2] == (False, "TEST §6.0")
    # R in 0302 puts 0201, 0301 and 0401 of the top row in its ZOC.
    friends = [foot(f"F{c}", f"0{c}01") for c in (2, 3, 4)]
    data = case([foot("A", "0101"), foot("R", "0302", side="red"), *friends],
                {"kind": "supply", "units": ["A"]}, markers=markers, size=(5, 2))
    assert not supply(data)["A"][0]  # nothing negates the EZOC
    data["profile"]["zoc"]["negated_by_friendly"] = {"purposes": ["supply"]}
    assert supply(data)["A"][0]


def test_supply_ezoc_enter_or_exit_not_both():
    data = case([foot("A", "0101"), foot("R", "0302", side="red")],
                {"kind": "supply", "units": ["A"]}, size=(5, 2),
                markers=[{"type": "depot", "hex": "0201"}],
                supply__ezoc={"mode": "enter_or_exit", "cite": f"{BOOK} §6.2"})
    assert supply(data)["A"][0]  # the depot 0201, in an EZOC, may be entered
    data["markers"][0]["hex"] = "0501"
    assert not supply(data)["A"][0]  # now 0201, 0301 and 0401 would be passed through


def test_supply_length_in_hexes_with_counts_and_the_binding_limit():
    length = {"max": 5, "hex_counts": [{"terrain": "woods", "counts": 2, "cite": f"{BOOK} §6.4"}],
              "crossings": [{"feature": "river", "counts": 3, "cite": f"{BOOK} §6.5"}],
              "cite": f"{BOOK} §6.3"}
    data = case([foot("A", "0501"), foot("B", "0601")], {"kind": "supply", "units": ["A", "B"]},
                markers=[{"type": "depot", "hex": "0101"}], size=(6, 1),
                terrain={"0201": ["woods"]}, supply__length=length)
    answers = supply(data)
    # 0401 0301 0201(2) 0101
    assert answers["A"][0] and answers["A"][2].startswith("5 hexes counted")
    assert answers["B"][:2] == (False, "TEST §6.4")                  # woods: 6 > 5
    data["map"]["terrain"] = {}
    data["map"]["hexsides"] = [{"hexes": ["0401", "0501"], "features": ["river"]}]
    answers = supply(data)
    assert answers["A"][:2] == (False, "TEST §6.5")  # 0401 entered over the river: 3+1+1+1
    data["map"]["hexsides"] = []
    data["profile"]["supply"]["length"]["max"] = 3
    answers = supply(data)
    assert answers["A"][:2] == (False, "TEST §6.3")


def test_supply_in_mp_along_roads():
    length = {"max": 2, "unit": "mp", "roads": [{"road": "road", "counts": 0.5}],
              "cite": f"{BOOK} §6.3"}
    road = [{"hexes": [f"0{c}01", f"0{c + 1}01"], "features": ["road"]} for c in range(1, 5)]
    data = case([foot("A", "0501")], {"kind": "supply", "units": ["A"]}, size=(5, 1),
                markers=[{"type": "depot", "hex": "0101"}], hexsides=road, supply__length=length)
    answer = supply(data)["A"]
    assert answer[0] and answer[2].startswith("2 MP counted to a depot")
    data["map"]["hexsides"] = road[1:]
    assert supply(data)["A"][:2] == (False, "TEST §6.3")  # 0.5 * 3 + 1 = 2.5


def test_supply_terrain_limit_and_a_blocking_hexside_named_after_the_limits():
    length = {"max": 6, "terrain_limits": [{"terrain": "swamp", "max": 1, "cite": f"{BOOK} §6.6"}]}
    data = case([foot("A", "0501")], {"kind": "supply", "units": ["A"]}, size=(5, 1),
                markers=[{"type": "depot", "hex": "0101"}], terrain={"0201": ["swamp"],
                                                                     "0401": ["swamp"]},
                supply__length=length)
    assert supply(data)["A"][:2] == (False, "TEST §6.6")
    data["map"]["terrain"] = {}
    data["map"]["hexsides"] = [{"hexes": ["0201", "0301"], "features": ["cliff"]}]
    data["profile"]["supply"]["blocking_hexsides"] = [{"feature": "cliff",
                                                       "cite": f"{BOOK} §6.7"}]
    assert supply(data)["A"][:2] == (False, "TEST §6.7")


def test_binding_limit_is_the_length_not_a_blocked_shortcut():
    """A line around a cliff exists but is too long: the answer names the length (§6.3),
    though crossing the cliff would be short enough."""
    cliff = [{"hexes": ["0202", "0302"], "features": ["cliff"]},
             {"hexes": ["0202", "0303"], "features": ["cliff"]},
             {"hexes": ["0201", "0302"], "features": ["cliff"]},
             {"hexes": ["0201", "0301"], "features": ["cliff"]}]
    data = case([foot("A", "0302")], {"kind": "supply", "units": ["A"]}, size=(4, 4),
                markers=[{"type": "depot", "hex": "0202"}], hexsides=cliff,
                supply__length={"max": 2, "cite": f"{BOOK} §6.3"},
                supply__blocking_hexsides=[{"feature": "cliff", "cite": f"{BOOK} §6.7"}])
    assert supply(data)["A"][:2] == (False, "TEST §6.3")


def test_not_traced_by_side_and_turn():
    data = case([foot("A", "0101"), foot("R", "0606", side="red")],
                {"kind": "supply", "units": ["A", "R"]},
                supply__not_traced=[{"sides": ["red"], "reason": "red never traces",
                                     "cite": f"{BOOK} §6.8"},
                                    {"turns": [1], "reason": "turn 1", "cite": f"{BOOK} §6.9"}])
    answers = supply(data)
    assert answers["R"] == (True, "TEST §6.8", "red never traces") and not answers["A"][0]
    data["state"]["turn"] = 1
    assert supply(data)["A"] == (True, "TEST §6.9", "turn 1")


def test_a_side_with_no_source_is_a_profile_error():
    data = case([foot("R", "0606", side="red")], {"kind": "supply", "units": ["R"]})
    with pytest.raises(RulesError, match=r"supply\.sources: no supply source is given for side"
                       " 'red'"):
        supply(data)


def mixed_supply(data: dict[str, Any], moved: dict[str, str]
                 ) -> dict[str, tuple[bool, str | None, str, list[str]]]:
    """Supply with units moved into a hex the enemy holds, as only a saved game keeps one
    (a case with such a hex is refused as a typing error)."""
    sit = case_from_data(data).situation
    units = tuple(dataclasses.replace(u, hex=sit.map.grid.hex(moved[u.id])) if u.id in moved
                  else u for u in sit.units)
    engine = Engine(dataclasses.replace(sit, units=units))
    assert engine.situation.mixed_hexes
    return {k: (a.in_supply, a.rule, a.reason, [engine.name(h) for h in a.path])
            for k, a in engine.supply().items()}


def test_supply_from_a_hex_both_sides_hold():
    """A line runs from the unit itself (000_3d79f68a6e3e33eb.txt §12.0): the enemy in
    its own hex does not stop its start, while for every other unit that hex holds an
    enemy unit and no line enters it, a friendly unit there or not; its units exert
    their ZOC into the hexes around as anywhere (§6.0)."""
    sources = [{"side": "blue", "kind": "marker", "marker": {"type": "depot"},
                "name": "a depot", "cite": f"{BOOK} §6.1"},
               {"side": "red", "kind": "marker", "marker": {"type": "dump"},
                "name": "a dump", "cite": f"{BOOK} §6.1"}]
    data = case([foot("B", "0101"), foot("A", "0301"), foot("R", "0201", side="red")],
                {"kind": "supply"}, size=(5, 1), supply__sources=sources,
                markers=[{"type": "depot", "hex": "0501"}, {"type": "dump", "hex": "0201"}],
                supply__enemy_units={"cite": f"{BOOK} §6.6"},
                supply__ezoc={"mode": "ignored", "cite": f"{BOOK} §6.2"})
    answers = mixed_supply(data, {"R": "0301"})  # R joins A in 0301
    assert answers == {
        "B": (False, "TEST §6.6", "every line to a depot enters a hex holding an enemy unit",
              []),
        "A": (True, "TEST §6.0", "traced to a depot (0501) through 1 hex",
              ["0301", "0401", "0501"]),
        "R": (True, "TEST §6.0", "next to a dump (0201)", ["0301", "0201"]),
    }
    # EZOC block (the default): R's ZOC reaches 0401, A's and B's reach 0201.
    data["profile"]["supply"]["ezoc"] = {"mode": "blocked", "cite": f"{BOOK} §6.2"}
    answers = mixed_supply(data, {"R": "0301"})
    assert answers["A"] == (False, "TEST §6.2", ("every line to a depot enters an EZOC hex no"
                            " friendly unit negates"), [])
    assert answers["R"][:2] == (False, "TEST §6.1") and "in an EZOC" in answers["R"][2]
    # 003 §10.3.3 (own_hex blocked): the enemy sharing A's hex does not put it in an EZOC
    # (a ZOC reaches the six hexes around), and F negates the EZOC of 0401.
    data["profile"]["supply"]["ezoc"]["own_hex"] = "blocked"
    data["profile"]["zoc"]["negated_by_friendly"] = {"purposes": ["supply"]}
    data["units"].append(foot("F", "0401"))
    answers = mixed_supply(data, {"R": "0301"})
    assert answers["A"] == (True, "TEST §6.0", "traced to a depot (0501) through 1 hex",
                            ["0301", "0401", "0501"])


# -- the case format -------------------------------------------------------------------------


def test_a_generic_case_needs_a_profile_and_a_bad_one_is_located():
    data = case([foot("A", "0101")], {"kind": "reachable", "unit": "A"})
    bad = copy.deepcopy(data)
    bad["profile"]["terrain"]["woods"]["move"] = "x"
    with pytest.raises(DataError, match=r"\[0\]\.profile\.terrain\.woods\.move: expected a cost"):
        case_from_data(bad, "[0]", "cases.json")
    none = copy.deepcopy(data)
    del none["profile"]
    with pytest.raises(DataError, match=r"\[0\]\.profile: a 'generic' case needs a 'profile'"):
        case_from_data(none, "[0]", "cases.json")


def test_answers_never_cite_a_seed_rulebook():
    data = case([foot("A", "0101"), foot("R", "0303", side="red")],
                {"kind": "reachable", "unit": "A"}, terrain={"0102": ["lake"]})
    _, refused = reach(data)
    assert refused and all(v.rule is None or v.rule.startswith("TEST §")
                           for v in refused.values())


# -- memory ----------------------------------------------------------------------------------


def test_an_engine_is_freed_without_the_garbage_collector():
    # The kernel keeps a question's tables on the engine, never the engine on the system,
    # so an engine that answered moves, stacking and supply holds no reference cycle.
    data = case([foot("A", "0303"), foot("B", "0304"), foot("R", "0606", side="red")],
                {"kind": "reachable", "unit": "A"}, markers=[{"type": "depot", "hex": "0101"}])
    engine = Engine(case_from_data(data).situation)
    was = gc.isenabled()
    gc.disable()
    try:
        engine.reachable("A")
        engine.reachable("B")
        engine.supply(["A"])
        gone = weakref.ref(engine)
        del engine
        assert gone() is None
    finally:
        if was:
            gc.enable()
