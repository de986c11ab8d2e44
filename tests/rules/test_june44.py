"""June '44 (001) rules beyond the scenario suite: the readings the suite leaves open,
the supply search's shape, and that every rule names its section.

Positions use the scenario grid (SCENARIOS.md §1: flat-top, even columns half a hex
down): ``0202`` touches ``0201 0203 0102 0103 0302 0303``; ``0303`` touches ``0302
0304 0202 0203 0402 0403``.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import random
from collections import deque
from typing import Any

import pytest

import pipeline.rules.supply as supply_module
from pipeline.hexgrid import Hex
from pipeline.rules import Engine, case_from_data
from pipeline.rules.supply import Tracing, source_hexes
from pipeline.rules.systems.june44 import June44
from pipeline.rules.verdict import SupplyAnswer

CHART = {"hex": {"clear": 1, "woods": 2, "bocage": 3, "hill": 2, "city": 1, "swamp": 3,
                 "beach": 1},
         "hexside": {"river": 1, "canal": "P"}, "road": 1}


def unit(uid: str, side: str, at: str | None, ma: float = 4, **flags: Any) -> dict[str, Any]:
    defaults = {"size": "division", "nationality": "US" if side == "allied" else "German"}
    return {"id": uid, "side": side, "hex": at, "class": "infantry", "ma": ma, "steps": 2,
            **defaults, **flags}


def engine(units: list[dict[str, Any]], *, cols: int = 5, rows: int = 5,
           terrain: dict[str, list[str]] | None = None,
           hexsides: list[dict[str, Any]] | None = None, edges: dict[str, str] | None = None,
           markers: list[dict[str, Any]] | None = None, chart: dict[str, Any] | None = None,
           **state: Any) -> Engine:
    data = {"id": "t", "system": "june44",
            "map": {"cols": cols, "rows": rows, "terrain": terrain or {},
                    "hexsides": hexsides or [], "edges": edges or {}},
            "terrain_chart": chart or CHART, "units": units, "markers": markers or [],
            "state": {"active_side": "allied", "turn": 4, "phase": "movement",
                      "weather_modifier": 0, **state},
            "query": {}, "expect": {}}
    return Engine(case_from_data(data).situation)


def hexes(e: Engine, *ids: str) -> list[Hex]:
    return [e.grid.hex(i) for i in ids]


def costs(e: Engine, uid: str) -> dict[str, float | str]:
    return {e.name(h): c for h, c in e.reachable(uid).costs.items()}


def path(e: Engine, uid: str, *ids: str) -> dict[str, Any]:
    r = e.check_path(uid, hexes(e, *ids))
    return {"legal": r.verdict.legal, "cost": r.cost, "rule": r.verdict.rule,
            "at": r.verdict.at}


# -- every rule names its section ----------------------------------------------------------

def test_every_june44_rule_is_the_profiles_the_system_adds_no_procedure() -> None:
    """001: every June '44 rule is a table of maps/june44/rules.json; the system overrides
    no kernel hook and defines no function of its own."""
    assert June44.overrides == {}
    assert not [n for n, m in vars(June44).items() if inspect.isfunction(m)]


def test_every_verdict_cites_the_june44_rulebook() -> None:
    e = engine([unit("A", "allied", "0301", 2), unit("G", "german", "0305"),
                unit("D", "german", "0505", 0, fortification=True, size="beach_defence")],
               hexsides=[{"hexes": ["0301", "0401"], "features": ["canal"]}])
    reach = e.reachable("A")
    rules = {v.rule for v in reach.refused.values()}
    assert rules and all(r is not None and r.startswith("001 §") for r in rules)
    assert e.check_path("D", hexes(e, "0505", "0504")).verdict.rule == "001 §10.0"


# -- 10.1 terrain and roads, 6.0 the Caen Canal --------------------------------------------

def test_road_rate_between_road_hexes_reading_is_literal() -> None:
    """Reading of 10.1: "via a road hex to another adjacent road hex" asks for two road
    hexes, not for the road to run through their shared hexside."""
    e = engine([unit("A", "allied", "0202", 1)], terrain={"0303": ["bocage"]},
               hexsides=[{"hexes": ["0202", "0201"], "features": ["road"]},
                         {"hexes": ["0303", "0304"], "features": ["road"]}])
    # 0202 and 0303 are both road hexes, on two different roads.
    assert path(e, "A", "0202", "0303") == {"legal": True, "cost": 1, "rule": None, "at": None}


def test_bridge_costs_the_road_rate_and_an_unbridged_river_adds_its_cost() -> None:
    e = engine([unit("A", "allied", "0202", 3)], terrain={"0302": ["woods"], "0203": ["woods"]},
               hexsides=[{"hexes": ["0202", "0302"], "features": ["bridge"]},
                         {"hexes": ["0202", "0201"], "features": ["road"]},
                         {"hexes": ["0202", "0203"], "features": ["river"]}])
    got = costs(e, "A")
    assert got["0302"] == 1      # road hex to road hex over the bridge: the road rate only
    assert got["0203"] == 3      # woods 2 + river 1


def test_canal_bridge_is_a_road_move_and_the_canal_costs_nothing() -> None:
    e = engine([unit("A", "allied", "0202", 1)], terrain={"0303": ["swamp"]},
               hexsides=[{"hexes": ["0202", "0303"], "features": ["road", "canal"]},
                         {"hexes": ["0202", "0302"], "features": ["canal"]}])
    assert path(e, "A", "0202", "0303")["cost"] == 1
    assert path(e, "A", "0202", "0302") == {"legal": False, "cost": None, "rule": "001 §6.0",
                                            "at": "0302"}


def test_canal_is_prohibited_even_when_the_chart_gives_it_no_cost() -> None:
    e = engine([unit("A", "allied", "0202", 4)],
               hexsides=[{"hexes": ["0202", "0302"], "features": ["canal"]}],
               chart={**CHART, "hexside": {"river": 1}})
    assert path(e, "A", "0202", "0302")["rule"] == "001 §6.0"
    assert costs(e, "A")["0302"] == 2  # round the canal by 0201 or 0303


def test_zoc_crosses_a_bridged_canal_hexside_but_not_an_open_one() -> None:
    """Reading of 6.0: ZOC stops only at prohibited terrain; a bridged hexside is not."""
    e = engine([unit("G", "german", "0202")],
               hexsides=[{"hexes": ["0202", "0303"], "features": ["road", "canal"]},
                         {"hexes": ["0202", "0302"], "features": ["canal"]}])
    zoc = {e.name(h) for h in e.zone_of_control(e.situation.unit("G"))}
    assert zoc == {"0201", "0203", "0102", "0103", "0303"}


# -- 10.0 always one hex, 7.4 / 7.5 MA ------------------------------------------------------

def test_weather_comes_off_the_base_ma_before_the_out_of_supply_halving() -> None:
    """Reading of 7.5 / 7.4: (4 - 1) halved rounding up is 2 (not 4 / 2 - 1 = 1)."""
    e = engine([unit("G", "german", "0101", 4, in_supply=False)], cols=6, rows=1,
               weather_modifier=1, active_side="german")
    assert costs(e, "G") == {"0201": 1, "0301": 2}


def test_game_position_out_of_supply_flag_halves_too() -> None:
    e = engine([unit("A", "allied", "0101", 5, out_of_supply=True)], cols=7, rows=1)
    assert costs(e, "A") == {"0201": 1, "0301": 2, "0401": 3}


@pytest.mark.parametrize(("ma", "flags", "state", "rule"), [
    (3, {}, {}, "001 §10.0"),
    (5, {"in_supply": False}, {}, "001 §7.4"),
    (4, {}, {"weather_modifier": 2}, "001 §7.5"),
])
def test_running_out_of_mp_cites_the_rule_that_took_them(ma: float, flags: dict[str, Any],
                                                         state: dict[str, Any],
                                                         rule: str) -> None:
    e = engine([unit("G", "german", "0101", ma, **flags)], cols=7, rows=1,
               active_side="german", **state)
    steps = ["0101", "0201", "0301", "0401", "0501"][: int(e.system.allowance(
        e, e.query("G"))) + 2]
    got = path(e, "G", *steps)
    assert (got["legal"], got["rule"], got["at"]) == (False, rule, steps[-1])


def test_a_unit_with_ma_zero_never_moves_even_one_hex() -> None:
    e = engine([unit("D", "german", "0202", 0, size="beach_defence", fortification=True)])
    assert costs(e, "D") == {}
    assert path(e, "D", "0202", "0203")["rule"] == "001 §10.0"


def test_one_hex_move_from_ezoc_into_a_friendly_ezoc_hex() -> None:
    """10.0 and 6.2 together: a swamp hex beyond the MP, EZOC to EZOC, with a friend."""
    e = engine([unit("A", "allied", "0202", 2), unit("F", "allied", "0203", 2),
                unit("G", "german", "0303")], terrain={"0203": ["swamp"]})
    got = costs(e, "A")
    assert got["0203"] == "one_hex"
    assert got["0302"] == 2  # not directly (EZOC to EZOC, no friend), but round by 0201
    assert path(e, "A", "0202", "0302")["rule"] == "001 §6.2"
    assert path(e, "A", "0202", "0203", "0204")["rule"] == "001 §6.2"


def test_ezoc_to_ezoc_into_a_full_friendly_hex_is_not_an_end_hex() -> None:
    e = engine([unit("A", "allied", "0202"), unit("F1", "allied", "0203"),
                unit("F2", "allied", "0203"), unit("G", "german", "0303")])
    assert "0203" not in costs(e, "A")
    assert path(e, "A", "0202", "0203")["rule"] == "001 §6.3"


# -- J44-1, 9.0 -----------------------------------------------------------------------------

def test_enemy_hex_is_never_entered() -> None:
    e = engine([unit("A", "allied", "0101", 4), unit("X", "german", "0301", 3,
                                                      size="artillery", artillery=True)],
               cols=5, rows=1)
    assert costs(e, "A") == {"0201": 1}  # artillery has no ZOC, but its hex is closed
    assert path(e, "A", "0101", "0201", "0301")["rule"] == "001 §6.3"


def test_air_interdiction_stops_only_german_units_and_only_on_entering() -> None:
    air = [{"type": "air", "hex": "0201", "mission": "success"},
           {"type": "air", "hex": "0401", "mission": "success"}]
    allied = engine([unit("A", "allied", "0101", 4)], cols=6, rows=1, markers=air)
    assert costs(allied, "A") == {"0201": 1, "0301": 2, "0401": 3, "0501": 4}
    german = engine([unit("G", "german", "0201", 4)], cols=6, rows=1, markers=air,
                    active_side="german")
    assert costs(german, "G") == {"0101": 1, "0301": 1, "0401": 2}
    assert path(german, "G", "0201", "0301", "0401", "0501")["rule"] == "001 §9.0"


# -- 6.3 stacking ---------------------------------------------------------------------------

@pytest.mark.parametrize(("members", "ok"), [
    ([("division", {}), ("artillery", {"artillery": True}),
      ("beach_defence", {"fortification": True})], True),
    ([("brigade", {}), ("regiment", {}), ("brigade", {})], True),
    ([("division", {}), ("division", {}), ("artillery", {"artillery": True})], False),
    ([("artillery", {"artillery": True}), ("artillery", {"artillery": True})], True),
    ([("division", {}), ("division", {}), ("regiment", {}),
      ("beach_defence", {"fortification": True}),
      ("beach_defence", {"fortification": True})], True),
])
def test_stacking_counts(members: list[tuple[str, dict[str, Any]]], ok: bool) -> None:
    e = engine([unit(f"U{i}", "german", "0202", 4, size=size, **flags)
                for i, (size, flags) in enumerate(members)])
    verdict = e.stacking(e.grid.hex("0202"))
    assert verdict.legal is ok
    assert ok or verdict.rule == "001 §6.3"


def test_us_and_cw_never_stack_whatever_the_count() -> None:
    e = engine([unit("A", "allied", "0202", 4, size="artillery", artillery=True),
                unit("B", "allied", "0202", 4, nationality="CW")])
    assert e.stacking(e.grid.hex("0202")).legal is False


# -- 7.2 supply -----------------------------------------------------------------------------

def _reference_supply(e: Engine, uid: str) -> bool:
    """7.2 traced for one unit alone, straight from the text: a line from the unit's hex
    (not entered) through hexes free of enemy units and of unnegated EZOC, across no
    prohibited hexside, into a source hex (entered like any other)."""
    sit = e.situation
    me = sit.unit(uid)
    assert me.hex is not None
    sources = set(source_hexes(e, Tracing(me.side)))

    def may_enter(h: Hex) -> bool:
        if sit.enemy_in(h, me.side):
            return False
        return not e.in_enemy_zoc(h, me.side) or any(u.side == me.side for u in sit.units_in(h))

    seen, queue = {me.hex}, deque([me.hex])
    while queue:
        h = queue.popleft()
        if h in sources and (h == me.hex or may_enter(h)):
            return True
        for n in e.grid.neighbours(h):
            features = sit.map.features(h, n)
            if n in seen or ("canal" in features and "road" not in features):
                continue
            if may_enter(n):
                seen.add(n)
                queue.append(n)
    return False


def _random_supply_engine(seed: int) -> Engine:
    rng = random.Random(seed)
    cols, rows = rng.randint(4, 8), rng.randint(4, 8)
    all_hexes = [f"{c:02d}{r:02d}" for c in range(1, cols + 1) for r in range(1, rows + 1)]
    rng.shuffle(all_hexes)
    units = [unit(f"U{i}", rng.choice(["allied", "german"]), h, 4,
                  **({"artillery": True, "size": "artillery"} if rng.random() < 0.2 else {}))
             for i, h in enumerate(all_hexes[: rng.randint(2, 12)])]
    beaches = all_hexes[12:14]
    markers = [{"type": "beach", "hex": h, "controlled_by": rng.choice(["allied", "german"])}
               for h in beaches]
    markers.append({"type": "city", "name": "Cherbourg", "hex": all_hexes[14],
                    "controlled_by": rng.choice(["allied", "german"])})
    edges = {"south": rng.choice(["german_supply", "interior"]),
             "east": rng.choice(["german_supply", "interior"])}
    data = engine([], cols=cols, rows=rows, edges=edges, markers=markers).situation
    hexsides = []
    for _ in range(rng.randint(0, 10)):
        a = rng.choice(data.map.grid.hexes())
        b = data.map.grid.neighbour(a, rng.randrange(6))
        if data.map.grid.contains(b):
            hexsides.append({"hexes": [data.name(a), data.name(b)],
                             "features": rng.choice([["canal"], ["road", "canal"], ["road"]])})
    return engine(units, cols=cols, rows=rows, edges=edges, markers=markers, hexsides=hexsides)


@pytest.mark.parametrize("seed", range(150))
def test_supply_matches_a_per_unit_search_whatever_the_order(seed: int) -> None:
    e = _random_supply_engine(seed)
    ids = [u.id for u in e.situation.units]
    shuffled = ids[:]
    random.Random(seed).shuffle(shuffled)
    reordered = dataclasses.replace(
        e.situation, units=tuple(e.situation.unit(i) for i in shuffled))
    answers = e.supply(ids)
    again = Engine(reordered).supply(shuffled)
    alone = {i: Engine(e.situation).supply([i])[i] for i in ids}
    for i in ids:
        assert answers[i].in_supply == _reference_supply(e, i), i
        assert answers[i] == again[i] == alone[i]
        _assert_line_is_legal(e, i, answers[i])


def _assert_line_is_legal(e: Engine, uid: str, answer: SupplyAnswer) -> None:
    if not answer.in_supply:
        return
    sit = e.situation
    side = sit.unit(uid).side
    line = list(answer.path)
    assert line[0] == sit.unit(uid).hex
    assert line[-1] in source_hexes(e, Tracing(side))
    for a, b in itertools.pairwise(line):
        assert e.grid.adjacent(a, b)
        assert not sit.enemy_in(b, side)
        assert not e.in_enemy_zoc(b, side) or any(u.side == side for u in sit.units_in(b))


def test_supply_is_one_search_per_side_not_one_per_unit(monkeypatch) -> None:
    e = _random_supply_engine(3)
    searches: list[str] = []
    real = supply_module._trace

    def counting(engine: Engine, tracing: Tracing, targets: Any) -> Any:
        if targets is None:
            searches.append(tracing.side)
        return real(engine, tracing, targets)

    monkeypatch.setattr(supply_module, "_trace", counting)
    answers = e.supply()
    sides = {u.side for u in e.situation.units if u.hex is not None}
    with_sources = {side for side in sides if source_hexes(e, Tracing(side))}
    assert with_sources and sorted(searches) == sorted(with_sources)
    assert len(answers) == len(e.situation.units)


def test_supply_does_not_cross_the_canal_except_by_a_bridge() -> None:
    canal = [{"hexes": ["0101", "0201"], "features": ["canal"]}]
    beach = [{"type": "beach", "hex": "0101", "controlled_by": "allied"}]
    cut = engine([unit("A", "allied", "0201")], cols=2, rows=1, hexsides=canal, markers=beach)
    assert cut.supply(["A"])["A"].in_supply is False
    canal[0]["features"] = ["road", "canal"]
    bridged = engine([unit("A", "allied", "0201")], cols=2, rows=1, hexsides=canal,
                     markers=beach)
    assert bridged.supply(["A"])["A"].path == tuple(hexes(bridged, "0201", "0101"))


def test_cherbourg_in_an_ezoc_serves_only_with_a_german_unit_in_it() -> None:
    # A (0402) puts Cherbourg (0302) in its ZOC; G's way there, 0201, is free of it.
    city = [{"type": "city", "name": "Cherbourg", "hex": "0302", "controlled_by": "german"}]
    empty = engine([unit("G", "german", "0101"), unit("A", "allied", "0402")],
                   cols=5, rows=4, markers=city)
    assert empty.supply(["G"])["G"].in_supply is False
    held = engine([unit("G", "german", "0101"), unit("K", "german", "0302"),
                   unit("A", "allied", "0402")], cols=5, rows=4, markers=city)
    assert held.supply(["G"])["G"].in_supply is True


def test_only_the_south_and_east_edges_are_german_sources() -> None:
    """7.2 names the south and east edges; a north or west edge marked as a source is
    not one."""
    e = engine([unit("G", "german", "0101")], cols=3, rows=3,
               edges={"north": "german_supply", "west": "german_supply"})
    assert e.supply(["G"])["G"].in_supply is False


def test_allied_sources_are_friendly_controlled_beaches_only() -> None:
    beaches = [{"type": "beach", "hex": "0101", "controlled_by": "german"}]
    e = engine([unit("A", "allied", "0201")], cols=3, rows=3, markers=beaches,
               edges={"south": "german_supply", "east": "german_supply"})
    answer = e.supply(["A"])["A"]
    assert (answer.in_supply, answer.rule) == (False, "001 §7.2")


def test_off_map_unit_is_answered_without_tracing() -> None:
    e = engine([unit("R", "german", None, off_map=True), unit("G", "german", "0101")])
    assert e.supply(["R"])["R"] == SupplyAnswer(True, None, "not on the map")
