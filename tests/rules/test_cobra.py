"""Cobra (003) rules beyond the scenario suite: properties of the searches and the
readings chosen where the suite does not look. Test names cite the rulebook
section as ``003_sX_Y`` (003 §X.Y)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.errors import DataError
from pipeline.rules import Engine, case_from_data

CHART: dict[str, Any] = {
    "hex": {"clear": 1, "light_forest": {"infantry": 2, "mechanized": 3},
            "heavy_forest": {"infantry": 3, "mechanized": 4},
            "marsh": {"infantry": 3, "mechanized": 3}, "town": 1, "city": 1,
            "caen_city": 1, "cherbourg_city": 1, "fortress": 1, "beach": 1},
    "hexside": {"minor_river": 1, "major_river": 2, "all_sea": "P"},
    "roads": {"primary_road": 0.5, "secondary_road": 1},
}
PROPERTY = settings(max_examples=60, deadline=None)


def unit(uid: str, side: str, hex_id: str | None, ma: float = 4, cls: str = "infantry",
         size: str = "regiment", **flags: Any) -> dict[str, Any]:
    nationality = flags.pop("nationality", "US" if side == "allied" else "German")
    return {"id": uid, "side": side, "hex": hex_id, "class": cls, "ma": ma, "steps": 2,
            "size": size, "nationality": nationality, **flags}


def engine(cols: int, rows: int, units: list[dict[str, Any]], terrain: dict[str, list[str]]
           | None = None, hexsides: list[dict[str, Any]] | None = None,
           markers: list[dict[str, Any]] | None = None, **state: Any) -> Engine:
    state = {"active_side": "allied", "turn": 16, "phase": "initial_movement", **state}
    case = case_from_data({
        "system": "cobra", "map": {"cols": cols, "rows": rows, "terrain": terrain or {},
                                   "hexsides": hexsides or []},
        "terrain_chart": CHART, "units": units, "markers": markers or [], "state": state,
        "query": {}, "expect": {}})
    return Engine(case.situation)


def costs(e: Engine, uid: str) -> dict[str, Any]:
    return {e.name(h): c for h, c in e.reachable(uid).costs.items()}


def path(e: Engine, uid: str, *hexes: str) -> Any:
    return e.check_path(uid, [e.grid.hex(h) for h in hexes])


# -- random positions for the properties --------------------------------------------------

TAGS = [["clear"]] * 6 + [["bocage", "clear"], ["bocage", "light_forest"], ["light_forest"],
                          ["heavy_forest"], ["marsh"], ["town"], ["caen_city"], ["fortress"]]
FEATURES = ["primary_road", "secondary_road", "minor_river", "major_river", "all_sea"]
SIZES = ["division", "regiment", "regiment", "brigade", "battalion", "corps", "delay"]


def random_position(seed: int, cols: int = 7, rows: int = 6) -> dict[str, Any]:
    """A small Cobra position: mixed terrain and hexsides, units of both sides, sources."""
    rng = random.Random(seed)
    e = engine(cols, rows, [])
    hexes = [e.name(h) for h in e.grid.hexes()]
    terrain = {h: rng.choice(TAGS) for h in hexes}
    hexsides = []
    for _ in range(rng.randrange(4, 14)):
        a = e.grid.hex(rng.choice(hexes))
        b = rng.choice(e.grid.neighbours(a))
        hexsides.append({"hexes": [e.name(a), e.name(b)], "features": [rng.choice(FEATURES)]})
    free = hexes[:]
    rng.shuffle(free)
    units = []
    for i in range(rng.randrange(3, 9)):
        side = "allied" if i % 2 == 0 else "german"
        size = rng.choice(SIZES)
        flags: dict[str, Any] = {"hq": True} if size == "corps" else (
            {"delay": True} if size == "delay" else {})
        if side == "allied" and size == "delay":
            size, flags = "regiment", {}
        units.append(unit(f"u{i}", side, free.pop(), ma=rng.choice([2, 4, 6, 9]),
                          cls=rng.choice(["infantry", "mechanized"]), size=size, **flags))
    markers = [{"type": "supply_source", "side": "allied", "hex": free.pop()},
               {"type": "supply_source", "side": "german", "hex": free.pop()},
               {"type": "beach", "hex": free.pop(), "controlled_by": "allied",
                "wrecked": rng.random() < 0.3}]
    return {"cols": cols, "rows": rows, "units": units, "terrain": terrain,
            "hexsides": hexsides, "markers": markers, "free": free,
            "weather": rng.choice(["storm", "overcast", "clear"]),
            "phase": rng.choice(["initial_movement", "initial_movement", "mechanized_movement"])}


def build(p: dict[str, Any], units: list[dict[str, Any]] | None = None) -> Engine:
    return engine(p["cols"], p["rows"], p["units"] if units is None else units, p["terrain"],
                  p["hexsides"], p["markers"], weather=p["weather"], phase=p["phase"])


# -- properties ---------------------------------------------------------------------------

@PROPERTY
@given(st.integers(0, 10**6), st.randoms(use_true_random=False))
def test_supply_answers_do_not_depend_on_unit_order_003_s10_3(seed: int,
                                                               rng: random.Random) -> None:
    """003 §10.3: one search answers every unit; the order in which units are listed (in
    the position or in the question) changes no answer."""
    p = random_position(seed)
    ids = [u["id"] for u in p["units"]]
    first = build(p).supply(ids)
    shuffled = p["units"][:]
    rng.shuffle(shuffled)
    asked = ids[:]
    rng.shuffle(asked)
    second = build(p, shuffled).supply(asked)
    for uid in ids:
        a, b = first[uid], second[uid]
        assert (a.in_supply, a.rule, a.reason) == (b.in_supply, b.rule, b.reason), uid


@PROPERTY
@given(st.integers(0, 10**6), st.data())
def test_an_enemy_unit_never_enlarges_a_reachable_set_003_s5_2_2_s7_1(seed: int,
                                                                     data: st.DataObject) -> None:
    """003 §5.2.2, §5.2.3, §5.6, §5.7.2, §7.1: an enemy unit only bars hexes and adds
    zones of control; no hex becomes reachable because one more enemy unit is on the map."""
    p = random_position(seed)
    mover = data.draw(st.sampled_from(p["units"]))
    where = data.draw(st.sampled_from(p["free"]))
    enemy_side = "german" if mover["side"] == "allied" else "allied"
    size = data.draw(st.sampled_from(["division", "regiment", "battalion", "corps"]))
    extra = unit("X", enemy_side, where, size=size, **({"hq": True} if size == "corps" else {}))
    before = costs(build(p), mover["id"])
    after = costs(build(p, [*p["units"], extra]), mover["id"])
    assert set(after) <= set(before)


@PROPERTY
@given(st.integers(0, 10**6), st.data())
def test_an_enemy_unit_never_supplies_a_unit_003_s10_3_1(seed: int, data: st.DataObject) -> None:
    """003 §10.3.1, §10.3.3: lines avoid enemy units and their ZOC, so one more enemy
    unit never brings a unit into supply."""
    p = random_position(seed)
    side = data.draw(st.sampled_from(["allied", "german"]))
    where = data.draw(st.sampled_from(p["free"]))
    extra = unit("X", "german" if side == "allied" else "allied", where)
    ids = [u["id"] for u in p["units"] if u["side"] == side]
    before = build(p).supply(ids)
    after = build(p, [*p["units"], extra]).supply(ids)
    assert all(before[i].in_supply or not after[i].in_supply for i in ids)


@PROPERTY
@given(st.integers(0, 10**6), st.data())
def test_every_reachable_path_checks_at_its_cost_003_s5(seed: int, data: st.DataObject) -> None:
    """003 §5: the cheapest path the search reports for a hex is accepted step by step
    by the path check, at the same cost (or "one_hex")."""
    p = random_position(seed)
    mover = data.draw(st.sampled_from(p["units"]))
    e = build(p)
    reach = e.reachable(mover["id"])
    for h, line in reach.paths.items():
        check = e.check_path(mover["id"], line)
        assert check.verdict.legal, (e.name(h), check.verdict)
        assert check.cost == reach.costs[h]


@PROPERTY
@given(st.integers(0, 10**6))
def test_supply_lines_obey_the_counting_rules_003_s10_3(seed: int) -> None:
    """003 §10.3.1-§10.3.6 (RULINGS COB-2, COB-3): every line reported is at most 12
    counted hexes, passes no enemy unit and no EZOC a non-HQ friend does not negate,
    crosses no all-sea hexside and counts at most one marsh hex off the roads."""
    p = random_position(seed)
    e = build(p)
    sit = e.situation
    for uid, answer in e.supply([u["id"] for u in p["units"]]).items():
        if not answer.in_supply or not answer.path:
            continue
        side = sit.unit(uid).side
        total, marsh = 0, 0
        line = answer.path
        for i, (frm, to) in enumerate(itertools.pairwise(line)):
            features = sit.map.features(frm, to)
            assert "all_sea" not in features
            assert not sit.enemy_in(to, side)
            if e.in_enemy_zoc(to, side):
                assert any(u.side == side and not u.flag("hq") for u in sit.units_in(to))
            road = bool(features & {"primary_road", "secondary_road"})
            if "major_river" in features and not road:
                total += 6
            elif sit.map.is_feature_hex(to, "secondary_road"):
                total += 1
            elif sit.map.has(to, "bocage") and not sit.map.has(to, "marsh"):
                total += 2
            else:
                total += 1
            if sit.map.has(to, "marsh"):
                leaves = line[i + 2] if i + 2 < len(line) else None
                out_road = leaves is None or bool(
                    sit.map.features(to, leaves) & {"primary_road", "secondary_road"})
                marsh += not (road and out_road)
        assert total <= 12 and marsh <= 1, (uid, [e.name(h) for h in line])
        assert answer.reason.startswith(f"{total} hex{'' if total == 1 else 'es'} counted")


# -- movement allowance -------------------------------------------------------------------

@pytest.mark.parametrize(("ma", "weather", "mpa"), [
    (6, "storm", 6), (6, "overcast", 4), (6, "clear", 2),   # 003 §5.4.2 example
    (7, "overcast", 5), (7, "clear", 3),                     # RULINGS COB-1
    (1, "clear", 1), (4, "overcast", 3), (12, "clear", 4),
])
def test_german_weather_allowance_rounds_up_003_s5_4_2_s2_6(ma: int, weather: str,
                                                             mpa: int) -> None:
    e = engine(20, 1, [unit("G", "german", "0101", ma=ma)], weather=weather,
               active_side="german")
    assert max(costs(e, "G").values()) == mpa


def test_weather_never_touches_allied_units_003_s5_4_2() -> None:
    e = engine(10, 1, [unit("A", "allied", "0101", ma=6)], weather="clear")
    assert max(costs(e, "A").values()) == 6


def test_weather_and_supply_halving_combine_rounding_up_003_s10_6_1_s2_6() -> None:
    """7 in overcast is 5 (COB-1), halved out of supply is 3 (2.5 rounded up)."""
    e = engine(10, 1, [unit("G", "german", "0101", ma=7, in_supply=False)],
               weather="overcast", active_side="german")
    assert max(costs(e, "G").values()) == 3


def test_replacement_halves_allowance_003_s12_2_3() -> None:
    e = engine(10, 1, [unit("A", "allied", "0101", ma=5, received_replacement=True)])
    assert max(costs(e, "A").values()) == 3


def test_mechanized_units_move_in_the_mechanized_phase_003_s4_0() -> None:
    e = engine(10, 1, [unit("T", "allied", "0101", ma=6, cls="mechanized"),
                       unit("G", "german", "1001", ma=6, cls="infantry")],
               phase="mechanized_movement")
    assert max(costs(e, "T").values()) == 6
    assert costs(e, "G") == {}


def test_canadian_infantry_division_two_thirds_but_not_regiments_003_s5_3_3() -> None:
    e = engine(10, 3, [unit("C", "allied", "0101", ma=9, size="division",
                            nationality="Canadian"),
                       unit("R", "allied", "0103", ma=9, size="brigade",
                            nationality="Canadian")],
               phase="mechanized_movement")
    assert max(costs(e, "C").values()) == 6
    assert costs(e, "R") == {}



@pytest.mark.parametrize("ma", range(1, 19))
def test_british_infantry_mechanized_third_on_the_first_turns_003_s5_9_5(ma: int) -> None:
    """"move ... one-third during their mechanized movement phase on Game Turns 1 and 2":
    the two-thirds of 5.3.3 halved, each rounded up (2.6), is the third rounded up."""
    e = engine(25, 1, [unit("B", "allied", "0101", ma=ma, size="division",
                            nationality="British")], phase="mechanized_movement", turn=2)
    assert max(costs(e, "B").values()) == -(-ma // 3)


def test_first_turns_halve_allied_units_only_003_s5_9_5() -> None:
    """"All Allied units have their printed MPA halved on Game Turns 1 and 2": a German
    unit in storm weather keeps its 6, an Allied one has 3; from GT 3 both have 6."""
    for turn, allied in ((1, 3), (2, 3), (3, 6)):
        e = engine(10, 3, [unit("A", "allied", "0101", ma=6),
                           unit("G", "german", "0103", ma=6)], weather="storm", turn=turn)
        assert max(costs(e, "A").values()) == allied
        assert max(costs(e, "G").values()) == 6


def test_paratroops_of_either_side_still_on_turn_one_003_s5_9_4() -> None:
    """"Paratroop units may not move on Game Turns 1": the flag decides, not the side."""
    e = engine(5, 3, [unit("P", "allied", "0101", paratroop=True),
                      unit("F", "german", "0503", paratroop=True),
                      unit("R", "german", "0303")], turn=1, weather="storm")
    assert costs(e, "P") == {} and costs(e, "F") == {}
    assert costs(e, "R")
    assert e.reachable("F").refused[e.grid.hex("0403")].rule == "003 §5.9.4"

# -- terrain ------------------------------------------------------------------------------

def test_bocage_minimum_then_hexside_cost_003_s5_7_1() -> None:
    """Clear bocage costs 2 to enter; a minor river on the hexside is added on top."""
    e = engine(3, 1, [unit("A", "allied", "0101")], {"0201": ["bocage", "clear"]},
               [{"hexes": ["0101", "0201"], "features": ["minor_river"]}])
    assert path(e, "A", "0101", "0201").cost == 3


def test_mechanized_bocage_minimum_holds_along_a_road_003_s5_7_1() -> None:
    """Reading: 5.7.1 'Mechanized units must always pay a minimum of three MP to enter a
    bocage hex' includes entry along a road; infantry pays the road rate (5.7.3)."""
    terrain = {"0201": ["bocage", "clear"]}
    road = [{"hexes": ["0101", "0201"], "features": ["primary_road"]}]
    e = engine(3, 1, [unit("T", "allied", "0101", ma=6, cls="mechanized")], terrain, road)
    assert path(e, "T", "0101", "0201").cost == 3
    e = engine(3, 1, [unit("A", "allied", "0101")], terrain, road)
    assert path(e, "A", "0101", "0201").cost == 0.5


def test_marsh_in_the_bocage_area_is_only_marsh_for_mechanized_units_003_s8_3_4() -> None:
    """A road into a marsh hex of the bocage area: the mechanized minimum of 3 for a
    bocage hex does not apply (8.3.4); the 5.3.6 road condition does."""
    e = engine(3, 1, [unit("T", "allied", "0101", ma=6, cls="mechanized")],
               {"0201": ["bocage", "marsh"]},
               [{"hexes": ["0101", "0201"], "features": ["secondary_road"]}])
    assert path(e, "T", "0101", "0201").cost == 1


def test_hq_counts_as_mechanized_for_marsh_003_s5_3_1_s5_3_6() -> None:
    e = engine(3, 1, [unit("H", "allied", "0101", ma=10, cls="infantry", size="corps", hq=True)],
               {"0201": ["marsh"]})
    check = path(e, "H", "0101", "0201")
    assert not check.verdict.legal and check.verdict.section == "5.3.6"


def test_allied_unit_stops_in_a_fortress_zone_hex_003_s5_9_3() -> None:
    e = engine(4, 1, [unit("A", "allied", "0101")], {"0201": ["fortress"]})
    check = path(e, "A", "0101", "0201", "0301")
    assert not check.verdict.legal and check.verdict.section == "5.9.3"
    assert check.verdict.at == "0301"


# -- zones of control and disengagement -----------------------------------------------------

def test_delay_unit_may_not_pass_through_a_friendly_unit_003_s15_3_2() -> None:
    e = engine(4, 1, [unit("D", "german", "0101", ma=6, size="delay", delay=True),
                      unit("G", "german", "0201")], active_side="german", weather="storm")
    check = path(e, "D", "0101", "0201", "0301")
    assert not check.verdict.legal and check.verdict.section == "15.3.2"


def test_paratroops_and_their_neighbours_exert_no_zoc_on_turn_one_003_s7_8() -> None:
    units = [unit("P", "allied", "0202", paratroop=True), unit("G", "german", "0203"),
             unit("A", "allied", "0101"), unit("H", "german", "0505")]
    e = engine(6, 6, units, turn=1, active_side="german", weather="storm")
    assert set(e.enemy_zoc("german")) == {e.grid.hex(h) for h in ("0102", "0201")}  # A only
    assert set(e.enemy_zoc("allied")) == {e.grid.hex(h) for h in  # H only
                                          ("0504", "0506", "0404", "0405", "0604", "0605")}
    e = engine(6, 6, units, turn=2, active_side="german", weather="storm")
    assert e.grid.hex("0203") in e.enemy_zoc("german")
    assert e.grid.hex("0202") in e.enemy_zoc("allied")


def test_ranger_one_hex_leaves_an_ezoc_but_never_ezoc_to_ezoc_003_s5_3_7() -> None:
    e = engine(3, 3, [unit("R", "allied", "0202", size="battalion", ranger=True),
                      unit("G", "german", "0201")], phase="mechanized_movement")
    assert costs(e, "R") == {"0203": "one_hex", "0103": "one_hex", "0303": "one_hex"}


def test_only_german_units_disengage_one_hex_in_bocage_003_s5_6_4() -> None:
    terrain = {"0202": ["bocage", "clear"], "0203": ["bocage", "clear"]}
    e = engine(3, 3, [unit("A", "allied", "0202", ma=2), unit("G", "german", "0201")], terrain)
    assert costs(e, "A") == {}
    e = engine(3, 3, [unit("G", "german", "0202", ma=3), unit("A", "allied", "0201")], terrain,
               weather="clear", active_side="german")
    assert costs(e, "G") == {"0203": "one_hex"}


def test_disengaging_unit_that_can_pay_shows_its_cost_and_goes_on_003_s5_6_1() -> None:
    e = engine(5, 1, [unit("G", "german", "0201", ma=6), unit("A", "allied", "0101")],
               {"0301": ["bocage", "clear"]}, weather="storm", active_side="german")
    assert costs(e, "G") == {"0301": 4, "0401": 5, "0501": 6}


def test_major_river_into_ezoc_barred_for_a_bridge_too_003_s5_7_2() -> None:
    """Reading: 5.7.2 names no road exception: a bridged major river hexside is still
    crossed 'across a major river'."""
    sides = [{"hexes": ["0203", "0303"], "features": ["major_river", "primary_road"]},
             {"hexes": ["0203", "0304"], "features": ["major_river"]}]
    e = engine(5, 5, [unit("A", "allied", "0203"), unit("E", "german", "0304")], hexsides=sides)
    check = path(e, "A", "0203", "0303")
    assert not check.verdict.legal and check.verdict.section == "5.7.2"


def test_major_river_exception_b_enemy_away_from_the_river_003_s5_7_2() -> None:
    """b): the unit exerting the EZOC into 0303 does not border any major river."""
    sides = [{"hexes": ["0203", "0303"], "features": ["major_river"]}]
    e = engine(5, 5, [unit("A", "allied", "0203"), unit("E", "german", "0403")], hexsides=sides)
    assert path(e, "A", "0203", "0303").cost == 3


# -- stacking -----------------------------------------------------------------------------

def test_a_second_hq_is_not_free_003_s6_2_s9_2_4() -> None:
    """Reading: 6.2 frees 'up to one HQ'; a second one counts like the battalion beyond
    two (1/3), so a division and two HQs are over the limit."""
    e = engine(3, 3, [unit("D", "allied", "0202", size="division"),
                      unit("H1", "allied", "0202", size="corps", hq=True),
                      unit("H2", "allied", "0202", size="corps", hq=True)])
    verdict = e.stacking(e.grid.hex("0202"))
    assert not verdict.legal and verdict.section == "6.2"


@pytest.mark.parametrize(("a", "b"), [("US", "French"), ("British", "Polish"),
                                      ("British", "Canadian")])
def test_us_stacks_with_french_and_british_with_canadians_and_poles_003_s8_8_2(a: str,
                                                                             b: str) -> None:
    """Reading: 'nationalities' as 2.3.4 defines US (with French) and British (with
    Canadian and Polish)."""
    e = engine(3, 3, [unit("R1", "allied", "0202", nationality=a),
                      unit("R2", "allied", "0202", nationality=b)])
    assert e.stacking(e.grid.hex("0202")).legal


def test_independent_brigade_free_only_with_a_british_infantry_division_003_s6_2() -> None:
    e = engine(3, 3, [unit("D", "allied", "0202", size="division", cls="mechanized",
                           nationality="British"),
                      unit("T", "allied", "0202", size="brigade", cls="mechanized",
                           nationality="British", independent_armored_brigade=True)])
    verdict = e.stacking(e.grid.hex("0202"))
    assert not verdict.legal and verdict.section == "6.1"


# -- supply -------------------------------------------------------------------------------

def test_one_search_from_every_source_003_s10_3_1() -> None:
    """Each unit traces to its nearest source: one 14-hex row, sources at both ends."""
    units = [unit(f"u{c}", "allied", f"{c:02d}01") for c in range(2, 14)]
    markers = [{"type": "supply_source", "side": "allied", "hex": "0101"},
               {"type": "supply_source", "side": "allied", "hex": "1401"}]
    answers = engine(14, 1, units, markers=markers).supply([u["id"] for u in units])
    assert all(a.in_supply for a in answers.values())
    assert answers["u3"].path[-1] == engine(14, 1, []).grid.hex("0101")
    assert answers["u12"].reason.startswith("2 hexes")


def test_a_longer_line_with_one_marsh_hex_beats_a_short_one_with_two_003_s10_3_2() -> None:
    """The shortest lines from 0501 (4 hexes: 0401, 0302 or 0301, 0201, 0101) pass two
    marsh hexes; the search keeps the costlier states with one marsh and finds a line of
    5 hexes through one of them."""
    e = engine(5, 2, [unit("A", "allied", "0501")], {"0401": ["marsh"], "0201": ["marsh"]},
               markers=[{"type": "supply_source", "side": "allied", "hex": "0101"}])
    answer = e.supply(["A"])["A"]
    assert answer.in_supply and answer.reason.startswith("5 hexes")
    line = [e.name(h) for h in answer.path]
    assert line[0] == "0501" and line[-1] == "0101" and len(line) == 6
    assert sum(h in ("0401", "0201") for h in line[1:]) == 1


def test_own_marsh_hex_is_not_traced_through_003_s10_3_2() -> None:
    """COB-2 reading for marsh: the unit's own hex is not entered, so a unit in marsh
    may still trace through one more marsh hex."""
    e = engine(4, 1, [unit("A", "allied", "0401")], {"0401": ["marsh"], "0201": ["marsh"]},
               markers=[{"type": "supply_source", "side": "allied", "hex": "0101"}])
    assert e.supply(["A"])["A"].in_supply


def test_primary_road_hexes_in_bocage_still_count_two_003_s10_3_5() -> None:
    """Reading: 10.3.5 names secondary road hexes only."""
    row = [f"{c:02d}01" for c in range(1, 9)]
    terrain = {h: ["bocage", "clear"] for h in row[1:7]}
    road = [{"hexes": [a, b], "features": ["primary_road"]} for a, b in itertools.pairwise(row)]
    e = engine(8, 1, [unit("A", "allied", "0801")], terrain, road,
               markers=[{"type": "supply_source", "side": "allied", "hex": "0101"}])
    answer = e.supply(["A"])["A"]
    assert not answer.in_supply and answer.rule == "003 §10.3.4"


def test_hq_alone_on_a_beach_in_an_ezoc_makes_no_source_003_s10_5_3_s9_2_6() -> None:
    """Reading: the Allied unit that 10.5.3 asks for must negate the EZOC (7.5, 9.2.6)."""
    units = [unit("H", "allied", "0201", ma=10, size="corps", hq=True),
             unit("A", "allied", "0401"), unit("E", "german", "0101")]
    e = engine(5, 2, units, {"0201": ["beach"]},
               markers=[{"type": "beach", "hex": "0201", "controlled_by": "allied"}], turn=5)
    answers = e.supply(["H", "A"])
    assert answers["H"].rule == "003 §9.2.6" and not answers["H"].in_supply
    assert answers["A"].rule == "003 §10.5.3" and not answers["A"].in_supply


def test_german_controlled_beach_is_no_allied_source_003_s10_5_3() -> None:
    e = engine(5, 1, [unit("A", "allied", "0201")], {"0101": ["beach"]},
               markers=[{"type": "beach", "hex": "0101", "controlled_by": "german"}], turn=5)
    assert not e.supply(["A"])["A"].in_supply


def test_german_units_trace_to_german_sources_only_003_s10_4_1() -> None:
    e = engine(7, 1, [unit("G", "german", "0301"), unit("A", "allied", "0701")],
               markers=[{"type": "supply_source", "side": "allied", "hex": "0101"},
                        {"type": "supply_source", "side": "german", "hex": "0501"}])
    answers = e.supply(["G", "A"])
    assert answers["G"].in_supply and answers["G"].reason.startswith("2 hexes")
    assert not answers["A"].in_supply  # G and its ZOC stand between A and 0101


def test_two_causes_together_are_named_10_3_1_003_s10_3_1() -> None:
    """Counting bocage as one leaves 13, counting the river crossing as one hex leaves
    13: neither rule alone is to blame, the line is simply too long: 10.3.1."""
    row = [f"{c:02d}01" for c in range(1, 10)]
    terrain = {h: ["bocage", "clear"] for h in row[1:6]}
    river = [{"hexes": ["0701", "0801"], "features": ["major_river"]}]
    e = engine(9, 1, [unit("A", "allied", "0901")], terrain, river,
               markers=[{"type": "supply_source", "side": "allied", "hex": "0101"}])
    # counted: 0801 6 (river), 0701 1, 0601..0201 5 x 2, 0101 1 = 18
    answer = e.supply(["A"])["A"]
    assert not answer.in_supply and answer.rule == "003 §10.3.1"
    assert "18 hexes" in answer.reason


# -- overruns -----------------------------------------------------------------------------

def overrun(e: Engine, uid: str, *hexes: str) -> Any:
    return e.check_path(uid, [e.grid.hex(h) for h in hexes], overrun=True)


def armoured(hex_id: str, ma: float = 8, **flags: Any) -> dict[str, Any]:
    return unit("A", "allied", hex_id, ma=ma, cls="mechanized", size="division", **flags)


def test_an_overrun_may_use_a_road_into_the_target_003_s5_5_1() -> None:
    """"the overrun cost of three MP plus the terrain cost of entering the target hex
    (Roads may be used.)": woods entered by a primary road (1/2) costs 3.5."""
    e = engine(5, 1, [armoured("0101"), unit("G", "german", "0201")],
               {"0201": ["heavy_forest"]},
               [{"hexes": ["0101", "0201"], "features": ["primary_road"]}])
    result = overrun(e, "A", "0101", "0201")
    assert result.verdict.legal and result.cost == 3.5
    off_road = engine(5, 1, [armoured("0101"), unit("G", "german", "0201")],
                      {"0201": ["heavy_forest"]})
    assert overrun(off_road, "A", "0101", "0201").cost == 3 + 4


def test_no_overrun_after_disengaging_003_s5_5_6() -> None:
    """"A unit may not disengage and perform an overrun in the same phase": A leaves E's ZOC
    (+2 MP, 5.6.1) into 0201, next to G only, whose ZOC the overrun ignores (without an
    overrun that step is EZOC to EZOC, 5.6.2); the overrun itself is refused."""
    e = engine(6, 3, [armoured("0102", ma=12), unit("E", "german", "0103"),
                      unit("G", "german", "0301")])
    assert path(e, "A", "0102", "0201").verdict.rule == "003 §5.6.2"
    refused = overrun(e, "A", "0102", "0201", "0301").verdict  # 0201 entered: refused at 0301
    assert (refused.legal, refused.rule, refused.at) == (False, "003 §5.5.6", "0301")
    assert "left an EZOC" in refused.reason
    from_start = engine(6, 3, [armoured("0201", ma=12), unit("G", "german", "0301")])
    assert overrun(from_start, "A", "0201", "0301").verdict.legal  # adjacent from the start


def test_an_out_of_supply_division_does_not_overrun_003_s10_6_4() -> None:
    e = engine(5, 1, [armoured("0101", in_supply=False), unit("G", "german", "0201")])
    verdict = overrun(e, "A", "0101", "0201").verdict
    assert (verdict.legal, verdict.rule) == (False, "003 §10.6.4")


def test_the_hexes_only_the_target_controls_are_free_after_the_overrun_003_s5_5_1() -> None:
    """Dislodged, G's ZOC goes with it: from 0301 A moves on through 0302, which only G's
    ZOC covered, and stops in 0402 (E's ZOC)."""
    e = engine(6, 3, [armoured("0101"), unit("G", "german", "0301"),
                      unit("E", "german", "0503")])
    result = overrun(e, "A", "0101", "0201", "0301", "0302", "0402")
    assert result.verdict.legal and result.cost == 1 + 4 + 1 + 1
    beyond = overrun(e, "A", "0101", "0201", "0301", "0302", "0402", "0401").verdict
    assert (beyond.legal, beyond.rule, beyond.at) == (False, "003 §5.2.3", "0401")


def test_an_armored_division_overruns_at_most_twice_a_phase_003_s5_5_1() -> None:
    """"Armored, panzer or panzer-grenadier divisions may conduct up to two overruns per
    phase": along one path A overruns G and H, and is refused the third, K. The position
    says nothing of overruns made before the path, so the path's own are counted."""
    e = engine(7, 1, [armoured("0101", ma=20), unit("G", "german", "0201"),
                      unit("H", "german", "0301"), unit("K", "german", "0401")])
    two = overrun(e, "A", "0101", "0201", "0301")
    assert two.verdict.legal and two.cost == 2 * (3 + 1)
    third = overrun(e, "A", "0101", "0201", "0301", "0401").verdict
    assert (third.legal, third.rule, third.at) == (False, "003 §5.5.1", "0401")
    assert "made its 2 overruns this phase" in third.reason


def test_overruns_made_before_the_path_count_towards_the_limit_003_s5_5_1() -> None:
    """The two overruns a phase of an armored division (5.5.1) count those it made earlier in
    the phase (the unit's ``overruns``): after one, the path may overrun G but not H; after
    two, not even G. A division that says nothing made none."""
    units = [unit("G", "german", "0201"), unit("H", "german", "0301")]
    one = engine(7, 1, [armoured("0101", ma=20, overruns=1), *units])
    assert overrun(one, "A", "0101", "0201").verdict.legal
    second = overrun(one, "A", "0101", "0201", "0301").verdict
    assert (second.legal, second.rule, second.at) == (False, "003 §5.5.1", "0301")
    assert "made its 2 overruns this phase, 1 before this move" in second.reason
    both = overrun(engine(7, 1, [armoured("0101", ma=20, overruns=2), *units]),
                   "A", "0101", "0201").verdict
    assert (both.legal, both.rule, both.at) == (False, "003 §5.5.1", "0201")
    assert overrun(engine(7, 1, [armoured("0101", ma=20), *units]),
                   "A", "0101", "0201", "0301").verdict.legal


@pytest.mark.parametrize("made", ["1", -1, 1.5, None, True])
def test_a_case_s_overruns_made_must_be_a_whole_number_003_s5_5_1(made: Any) -> None:
    """A case unit's ``overruns`` (made earlier this phase, 5.5.1) is a count: anything else
    is one located line, not a crash in the middle of a move."""
    with pytest.raises(DataError, match=r"^case\.units\[0\]\.overruns: must be a whole number"
                                        r" of 0 or more"):
        engine(7, 1, [armoured("0101", ma=20, overruns=made), unit("G", "german", "0201")])


def test_each_division_in_a_stack_is_held_to_its_own_overrun_limit_003_s5_5_1() -> None:
    """Two armored divisions overrun together: the one that made its two this phase stops the
    stack, though the other has made none (each division's limit is its own, 5.5.1)."""
    spent = unit("B", "allied", "0101", ma=20, cls="mechanized", size="division", overruns=2)
    e = engine(7, 1, [armoured("0101", ma=20), spent, unit("G", "german", "0201")])
    verdict = e.check_path(["A", "B"], [e.grid.hex("0101"), e.grid.hex("0201")],
                           overrun=True).verdict
    assert (verdict.legal, verdict.rule, verdict.at) == (False, "003 §5.5.1", "0201")
    assert verdict.reason.startswith("B has made its 2 overruns this phase, 2 before")


def test_a_truck_mechanized_infantry_division_overruns_once_003_s5_5_1_s5_8_2() -> None:
    """A US infantry division with a truck marker "may perform an overrun in the initial
    movement phase" (5.8.2), "only one" a phase (5.5.1); without the marker it may not."""
    trucked = unit("T", "allied", "0101", ma=20, size="division", truck_mechanized=True)
    e = engine(7, 1, [trucked, unit("G", "german", "0201"), unit("H", "german", "0301")])
    assert overrun(e, "T", "0101", "0201").verdict.legal
    second = overrun(e, "T", "0101", "0201", "0301").verdict
    assert (second.legal, second.rule, second.at) == (False, "003 §5.5.1", "0301")
    assert "made its 1 overrun this phase" in second.reason
    plain = engine(7, 1, [unit("T", "allied", "0101", ma=20, size="division"),
                          unit("G", "german", "0201")])
    refused = overrun(plain, "T", "0101", "0201").verdict
    assert (refused.legal, refused.rule) == (False, "003 §6.5.3")
