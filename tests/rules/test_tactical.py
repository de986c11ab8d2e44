"""The tactical rules (002) beyond the scenario suite.

Tests are named after the player-aid paragraph whose rule they check (its
opening words, as the rules are cited). The line-of-sight properties run over
random bars on a small map: LOS is symmetric, a bar beside the line never
blocks, a bar on a traced-through hexside always does, and adjacent hexes
always see each other.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.hexgrid import Hexside
from pipeline.rules import Engine, case_from_data
from pipeline.rules.los import trace

COLS, ROWS = 6, 6
IDS = [f"{c:02d}{r:02d}" for c in range(1, COLS + 1) for r in range(1, ROWS + 1)]
CHART = {"hex": {"clear": 1, "woods": {"infantry": 2, "vehicle": 3}, "town": 2,
                 "stream": 2, "bridge": 2},
         "hexside": {"woods": 1, "hilltop": 1, "slope": 1}, "road": 0.5}


def engine(units: list[dict[str, Any]] | None = None, *, cols: int = COLS, rows: int = ROWS,
           terrain: dict[str, list[str]] | None = None,
           hexsides: list[dict[str, Any]] | None = None,
           markers: list[dict[str, Any]] | None = None,
           state: dict[str, Any] | None = None) -> Engine:
    case = case_from_data({
        "system": "tactical",
        "map": {"cols": cols, "rows": rows, "terrain": terrain or {},
                "hexsides": hexsides or []},
        "terrain_chart": CHART, "units": units or [], "markers": markers or [],
        "state": {"active_side": "allied", "turn": 2, "phase": "movement",
                  "overrun_this_phase": [], **(state or {})},
        "query": {}, "expect": {}})
    return Engine(case.situation)


def unit(uid: str, hex_id: str, cls: str = "infantry", ma: float = 4, side: str = "allied",
         **flags: Any) -> dict[str, Any]:
    return {"id": uid, "side": side, "hex": hex_id, "class": cls, "ma": ma, **flags}


def every_hexside(e: Engine) -> list[Hexside]:
    g = e.grid
    return [s for s in g.hexsides() if g.contains(s.a) and g.contains(s.b)]


BASE = engine()
SIDES = every_hexside(BASE)
hex_ids = st.sampled_from(IDS)
bars = st.dictionaries(st.sampled_from(range(len(SIDES))),
                       st.sampled_from(["woods", "hilltop", "slope"]), max_size=25)


def barred(assigned: dict[int, str]) -> Engine:
    g = BASE.grid
    return engine(hexsides=[{"hexes": [g.id(SIDES[i].a), g.id(SIDES[i].b)], "features": [f]}
                            for i, f in assigned.items()])


def touched(e: Engine, a: str, b: str) -> set[Hexside]:
    t = trace(e.grid, e.grid.hex(a), e.grid.hex(b))
    return set(t.crossed) | set(t.along) | set(t.at_corners)


# -- line of sight ------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(bars, hex_ids, hex_ids)
def test_always_apply_los_rules_in_favor_of_the_defender__los_is_symmetric(
        assigned: dict[int, str], a: str, b: str) -> None:
    e = barred(assigned)
    g = e.grid
    assert e.los(g.hex(a), g.hex(b)).legal == e.los(g.hex(b), g.hex(a)).legal


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.data(), hex_ids, hex_ids, st.sampled_from(["woods", "hilltop", "slope"]))
def test_always_apply_los_rules_in_favor_of_the_defender__bar_beside_the_line_never_blocks(
        data: st.DataObject, a: str, b: str, bar: str) -> None:
    g = BASE.grid
    beside = [s for s in SIDES if s not in touched(BASE, a, b)]
    chosen = data.draw(st.lists(st.sampled_from(beside), max_size=8, unique=True))
    e = engine(hexsides=[{"hexes": [g.id(s.a), g.id(s.b)], "features": [bar]}
                         for s in chosen])
    assert e.los(g.hex(a), g.hex(b)).legal


@settings(max_examples=150, deadline=None)
@given(st.data(), hex_ids, hex_ids, st.sampled_from(["woods", "hilltop"]))
def test_always_apply_los_rules_in_favor_of_the_defender__bar_on_the_line_blocks(
        data: st.DataObject, a: str, b: str, bar: str) -> None:
    g = BASE.grid
    if a == b or g.adjacent(g.hex(a), g.hex(b)):
        return
    on_line = sorted(s for s in touched(BASE, a, b) if g.contains(s.a) and g.contains(s.b))
    side = data.draw(st.sampled_from(on_line))
    e = engine(hexsides=[{"hexes": [g.id(side.a), g.id(side.b)], "features": [bar]}])
    verdict = e.los(g.hex(a), g.hex(b))
    assert not verdict.legal
    assert verdict.rule == "002 §LOS: Always apply LOS rules in favor of the defender"
    assert verdict.at == g.hexside_id(side)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_los_is_always_obstructed_by_2_hilltop_hex_sides__adjacent_hexes_always_see(
        data: st.DataObject) -> None:
    every = {i: "woods" for i in range(len(SIDES))}
    e = barred(every)
    g = e.grid
    a = g.hex(data.draw(hex_ids))
    b = data.draw(st.sampled_from(g.neighbours(a)))
    assert e.los(a, b).legal and e.los(b, a).legal
    assert e.los(a, a).legal


def test_always_apply_los_rules_in_favor_of_the_defender__line_along_a_hexside() -> None:
    # 0102 to 0302 runs along the hexside 0201/0202: a bar there blocks.
    e = engine(hexsides=[{"hexes": ["0201", "0202"], "features": ["woods"]}])
    verdict = e.los(e.grid.hex("0102"), e.grid.hex("0302"))
    assert not verdict.legal and verdict.at == "0201/0202"


def test_always_apply_los_rules_in_favor_of_the_defender__a_corner_touches_the_hexsides() -> None:
    # The same line leaves 0102 through the corner its hexside 0102/0201 ends in.
    e = engine(hexsides=[{"hexes": ["0102", "0201"], "features": ["hilltop"]}])
    a, b = e.grid.hex("0102"), e.grid.hex("0302")
    assert not e.los(a, b).legal

    profile = e.situation.profile
    assert profile.los is not None
    lenient = profile.model_copy(update={"los": profile.los.model_copy(
        update={"corners_block": False})})
    e = Engine(dataclasses.replace(e.situation, profile=lenient))
    assert e.los(a, b).legal


def test_always_apply_los_rules_in_favor_of_the_defender__slope_joined_to_hilltop() -> None:
    # "LOS is not blocked by a slope (brown) hex side connected to a hilltop (orange)
    # hex side": 0203/0204 is crossed by the column line; 0204/0304 meets it at a corner.
    slope = {"hexes": ["0203", "0204"], "features": ["slope"]}
    hilltop = {"hexes": ["0204", "0304"], "features": ["hilltop"]}
    a, b = BASE.grid.hex("0201"), BASE.grid.hex("0205")
    assert not engine(hexsides=[slope]).los(a, b).legal
    assert engine(hexsides=[slope, hilltop]).los(a, b).legal


def test_los_is_always_obstructed_by_2_hilltop_hex_sides__woods_and_town_hex() -> None:
    # "LOS is always obstructed by combined woods + town hexes."
    a, b = BASE.grid.hex("0201"), BASE.grid.hex("0205")
    assert engine(terrain={"0203": ["woods"]}).los(a, b).legal
    assert engine(terrain={"0203": ["town"]}).los(a, b).legal
    verdict = engine(terrain={"0203": ["woods", "town"]}).los(a, b)
    assert not verdict.legal and verdict.at == "0203"
    # Not the firer's or the target's own hex.
    assert engine(terrain={"0201": ["woods", "town"]}).los(a, b).legal


# -- movement -----------------------------------------------------------------------------


def test_vehicles_except_bridge_laying_tanks__infantry_crosses_a_bridge_without_rolling() -> None:
    e = engine([unit("A", "0101")], cols=4, rows=1, terrain={"0201": ["stream", "bridge"]})
    g = e.grid
    path = [g.hex("0101"), g.hex("0201"), g.hex("0301")]
    assert e.check_path("A", path, {g.hex("0201"): 6}).verdict.legal
    e = engine([unit("A", "0101")], cols=4, rows=1, terrain={"0201": ["stream"]})
    assert not e.check_path("A", path, {g.hex("0201"): 4}).verdict.legal


def test_vehicles_except_bridge_laying_tanks__a_stack_with_a_vehicle_stays_out() -> None:
    e = engine([unit("A", "0101"), unit("T", "0101", "vehicle", 6)], cols=4, rows=1,
               terrain={"0201": ["stream"]})
    assert e.reachable(["A", "T"]).costs == {}
    assert e.grid.hex("0201") in e.reachable("A").costs


def test_stacked_units_that_move_as_a_stack__dearest_class_and_carried_units() -> None:
    woods = {i: ["woods"] for i in ("0201", "0301", "0401")}
    e = engine([unit("A", "0101", ma=6), unit("T", "0101", "vehicle", 6)], cols=4, rows=1,
               terrain=woods)
    assert e.reachable(["A", "T"]).costs == {e.grid.hex("0201"): 3, e.grid.hex("0301"): 6}
    # A loaded infantry unit (MA 1) rides on its truck's allowance.
    e = engine([unit("T", "0101", "vehicle", 3), unit("P", "0101", ma=1, transported_by="T")],
               cols=4, rows=1)
    assert max(e.reachable(["T", "P"]).costs.values()) == 3


def test_any_unit_that_is_capable_of_moving__not_a_unit_without_ma() -> None:
    e = engine([unit("G", "0202", ma=0)], cols=3, rows=3)
    assert e.reachable("G").costs == {}


def test_terrain_features__a_loaded_transporter_is_one_unit_for_the_road() -> None:
    road = [{"hexes": [a, b], "features": ["road"]} for a, b in (("0101", "0201"),
                                                                 ("0201", "0301"))]
    units = [unit("A", "0101"), unit("T", "0201", "vehicle", 6),
             unit("P", "0201", transported_by="T")]
    e = engine(units, cols=3, rows=1, hexsides=road)
    assert e.reachable("A").costs[e.grid.hex("0201")] == 0.5


def test_overrunning_units_must_move_straight_through__not_into_another_enemy() -> None:
    units = [unit("T", "0301", "vehicle", 6, armored=True),
             unit("E", "0302", side="german"), unit("F", "0303", side="german")]
    e = engine(units, cols=5, rows=5)
    g = e.grid
    two = [g.hex(h) for h in ("0301", "0302", "0303")]
    verdict = e.check_path("T", two, overrun=True).verdict
    assert not verdict.legal and verdict.at == "0303"
    stay = e.check_path("T", two[:2], overrun=True).verdict
    assert not stay.legal and stay.at == "0302"
    assert stay.rule == ("002 §Overrun Attacks: Overrunning units must move straight through the"
                         " target hex")


def test_armored_vehicles_may_engage_in_overrun_attacks__and_move_on_after() -> None:
    units = [unit("T", "0301", "vehicle", 6, armored=True), unit("E", "0302", side="german")]
    e = engine(units, cols=5, rows=5)
    g = e.grid
    path = [g.hex(h) for h in ("0301", "0302", "0303", "0403")]
    assert e.check_path("T", path, overrun=True).cost == 3
    infantry = engine([unit("A", "0301"), unit("E", "0302", side="german")])
    verdict = infantry.check_path("A", path, overrun=True).verdict
    assert verdict.rule == "002 §Overrun Attacks: Armored vehicles may engage in Overrun Attacks"
    assert not e.check_path("T", path).verdict.legal  # no overrun declared


# -- stacking -----------------------------------------------------------------------------


def test_fortifications_blocks_and_mines_may_not_occupy_the_same_hex() -> None:
    e = engine(markers=[{"type": "fortification", "hex": "0202"},
                        {"type": "block", "hex": "0202"}])
    verdict = e.stacking(e.grid.hex("0202"))
    assert not verdict.legal
    assert verdict.rule == ("002 §Fortifications: Fortifications, Blocks, and Mines may not"
                            " occupy the same hex")


def test_the_stacking_limit__no_stopping_in_a_full_hex_passing_is_fine() -> None:
    units = [unit("A", "0101")] + [unit(f"W{i}", "0201") for i in range(3)]
    e = engine(units, cols=3, rows=1, markers=[{"type": "wreck", "hex": "0201"}])
    costs = e.reachable("A").costs
    assert e.grid.hex("0201") not in costs and costs[e.grid.hex("0301")] == 2


def test_terrain_features_road_bonus_counts_the_units_in_a_movers_own_hex_for_others():
    """"Road hex bonus is negated if hex contains 2+ units (not including moving unit)":
    X and W stand in road hex 0103. For X's own move they are one other unit; for Z, who
    moves along the road into 0103 after X's question was asked on the same engine, they
    are two, so the bonus is lost there (clear 1 MP instead of the road's 1/2)."""
    road = [{"hexes": [a, b], "features": ["road"]}
            for a, b in (("0101", "0102"), ("0102", "0103"), ("0103", "0104"))]
    e = engine([unit("X", "0103"), unit("W", "0103"), unit("Z", "0101")], hexsides=road)
    assert e.reachable("X").costs[e.grid.hex("0104")] == 0.5   # X's own road move
    costs = e.reachable("Z").costs
    assert costs[e.grid.hex("0102")] == 0.5
    assert costs[e.grid.hex("0103")] == 1.5                    # 1/2 + clear 1: no bonus
    assert costs == engine([unit("X", "0103"), unit("W", "0103"), unit("Z", "0101")],
                           hexsides=road).reachable("Z").costs
