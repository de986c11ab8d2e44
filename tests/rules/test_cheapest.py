"""The MP-only search (``pipeline/rules/cheapest.py``) against the full search.

``Engine.reachable`` takes its costs from the MP-only search where the system's steps allow
it and its paths and refusals from the full search when they are read: the two must give
the same hexes at the same MP (or ``"one_hex"``), hex for hex, on every scenario case, on
random positions of every system, and on a crowded Fire & Movement position where units
leave beach landing hexes (000_3d79f68a6e3e33eb.txt §11.2.1: what a unit remembers after
leaving one) and mobile units pay to enter enemy ZOC (§6.1, RULINGS F&M-1, F&M-2).
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.rules import Engine, case_from_data
from pipeline.rules.cheapest import cheapest_costs
from pipeline.rules.movement import ONE_HEX, Move, Reach
from pipeline.rules.situation import Chart, GameMap, Marker, Situation, Unit

from .test_properties import PROPERTY, SYSTEMS, _answer, random_situation

SCENARIOS = Path(__file__).parent / "scenarios"


def searched_costs(reach: Reach) -> dict:
    """The costs of the full search's final states (what ``costs`` was before)."""
    return {h: ONE_HEX if m.one_hex else int(m.spent) if m.spent == int(m.spent) else m.spent
            for h, m in reach.ends.items()}


def counted(engine: Engine, unit_id: str) -> dict | None:
    query = engine.query(unit_id)
    first = engine.system.start(engine, query)
    return cheapest_costs(engine, query, first) if isinstance(first, Move) else {}


def _reachable_cases() -> list:
    return [pytest.param(data, id=data["id"]) for path in sorted(SCENARIOS.glob("*.json"))
            for data in json.loads(path.read_text(encoding="utf-8"))
            if data["query"]["kind"] == "reachable"]


@pytest.mark.parametrize("data", _reachable_cases())
def test_every_reachable_case_costs_the_same_as_the_full_search(data: dict) -> None:
    situation = case_from_data(data).situation
    query = data["query"]
    reach = Engine(situation).reachable(query.get("moving_units") or query["unit"])
    assert reach.costs == searched_costs(reach)


@pytest.mark.parametrize("data", _reachable_cases())
def test_asking_for_paths_at_once_gives_the_same_answer(data: dict) -> None:
    # `rules moves` prints every path: it asks for the full search alone.
    situation = case_from_data(data).situation
    query = data["query"]
    movers = query.get("moving_units") or query["unit"]
    lazy = Engine(situation).reachable(movers)
    eager = Engine(situation).reachable(movers, paths=True)
    assert eager.costs == lazy.costs and eager.paths == lazy.paths
    assert {h: v.to_dict() for h, v in eager.refused.items()} == {
        h: v.to_dict() for h, v in lazy.refused.items()}


@pytest.mark.parametrize("system", SYSTEMS)
@PROPERTY
@given(seed=st.integers(0, 10**9))
def test_random_positions_cost_the_same_as_the_full_search(system: str, seed: int) -> None:
    engine = Engine(random_situation(system, seed))
    for unit in engine.situation.units:
        reach = _answer(lambda u=unit: engine.reachable(u.id))
        assert reach.costs == searched_costs(reach), unit.id


def crowded(seed: int) -> Situation:
    """A 12 x 12 Fire & Movement position: beach landing hexes along the top edge with
    beachhead markers and allied units on some, roads at ½ MP, a river, and 40 units of
    both sides mixed, so moves leave beaches, pay for enemy ZOC and stop at stacks."""
    rng = random.Random(seed)
    base = case_from_data({
        "system": "fm_omaha", "map": {"cols": 12, "rows": 12},
        "terrain_chart": {"hex": {"clear": 1, "woods": {"leg": 2, "mobile": 3}, "beach": 1},
                          "hexside": {"river": 1}, "rates": {"road": 0.5}},
        "units": [], "state": {"active_side": "allied", "turn": 3, "phase": "movement"},
        "query": {}, "expect": {}}).situation
    grid = base.map.grid
    hexes = grid.hexes()
    beaches = [grid.from_offset(c, 0) for c in range(0, 12, 2)]
    terrain = {h: (rng.choice(["clear", "clear", "woods"]),) for h in hexes}
    terrain.update({b: ("beach",) for b in beaches})
    sides = {}
    for _ in range(8):
        h, d = rng.choice(hexes), rng.randrange(6)
        for _ in range(5):
            n = grid.neighbour(h, d)
            if not grid.contains(n):
                break
            sides[grid.hexside(h, n)] = frozenset({rng.choice(["road", "road", "river"])})
            h, d = n, (d + rng.choice((-1, 0, 1))) % 6
    spots = list(hexes)
    rng.shuffle(spots)
    units = [Unit(f"b{i}", "allied", b, "leg", 4.0, 2) for i, b in enumerate(beaches[:3])]
    units += [Unit(f"u{i}", rng.choice(["allied", "german"]), h, rng.choice(["leg", "mobile"]),
                   rng.choice([4.0, 8.0, 12.0]), 2) for i, h in enumerate(
                       h for h in spots if h not in beaches[:3])][:37]
    chart = Chart.for_case(base.profile, {"clear": 1, "woods": {"leg": 2, "mobile": 3},
                                          "beach": 1}, {"river": 1}, {"road": 0.5}, {}, "test")
    return dataclasses.replace(base, map=GameMap(grid, terrain, sides), chart=chart,
                               units=tuple(units),
                               markers=tuple(Marker("beachhead", b) for b in beaches))


@pytest.mark.parametrize("seed", range(6))
def test_a_crowded_position_costs_the_same_as_the_full_search(seed: int) -> None:
    situation = crowded(seed)
    engine = Engine(situation)
    remembered = 0
    for unit in situation.units:
        reach = engine.reachable(unit.id)
        assert counted(Engine(situation), unit.id) is not None  # the MP-only search answered
        assert reach.costs == searched_costs(reach), unit.id
        remembered += sum(1 for m in reach.ends.values() if m.memory)
    assert remembered, "no move remembered leaving a beach or entering an EZOC"


def test_fractions_of_a_mp_are_counted_at_a_finer_unit_or_left_to_the_full_search() -> None:
    situation = crowded(1)
    for rate, whole in ((0.25, True), (1 / 3, False)):
        chart = dataclasses.replace(situation.chart, rates={"road": rate})
        sit = dataclasses.replace(situation, chart=chart)
        for unit in sit.units:
            reach = Engine(sit).reachable(unit.id)
            assert reach.costs == searched_costs(reach), (rate, unit.id)
        used = [counted(Engine(sit), u.id) is not None for u in sit.units]
        assert all(used) if whole else not all(used)


def test_a_system_with_its_own_steps_takes_the_full_search() -> None:
    """002's steps read die rolls and blocks (002_9cac1969b0421155.txt): never counted."""
    situation = random_situation("tactical", 3)
    engine = Engine(situation)
    assert engine.system.step_memo(engine, engine.query(situation.units[0].id)) is None
