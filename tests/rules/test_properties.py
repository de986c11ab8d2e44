"""Properties every rule system must keep, on random positions (hypothesis).

- the MP spent never decreases along a path (000 §5.1: each hex entered costs MP);
- every path ``reachable`` returns is accepted by ``check_path`` at the same cost;
- supply answers do not depend on the order of the units;
- adding an enemy unit never makes a unit's reachable set larger;
- a unit's answer does not depend on what the engine was asked before (the
  systems share step tables between questions).

Random positions use each system's vocabulary and the terrain chart of its first
scenario case, so the charts are ones the suite already vouches for.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from pipeline.hexgrid import Hex
from pipeline.rules import Engine, Unit, case_from_data
from pipeline.rules.errors import RulesError
from pipeline.rules.movement import Move
from pipeline.rules.situation import GameMap, Marker, Situation

from .test_scenarios import DONE

SCENARIOS = Path(__file__).parent / "scenarios"
FEATURES = {
    "fm_omaha": ["road", "trail", "river", "minefield", "bridge"],
    "june44": ["road", "river", "canal", "bridge"],
    "cobra": ["primary_road", "secondary_road", "major_river", "all_sea"],
    "tactical": ["road", "woods", "hilltop", "slope"],
}
CLASSES = {"fm_omaha": ["leg", "mobile"], "june44": ["infantry"],
           "cobra": ["infantry", "mechanized"], "tactical": ["infantry", "vehicle"]}
# Unit data each system needs to answer at all (SCENARIOS.md §2.3).
UNIT_DATA = {
    "fm_omaha": [{}],
    "june44": [{"size": "division", "nationality": "US"},
               {"size": "regiment", "nationality": "German"}],
    "cobra": [{"size": "division", "nationality": "US"},
              {"size": "regiment", "nationality": "German"}],
    "tactical": [{}],
}
SYSTEMS = sorted(DONE)
PROPERTY = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _template(system: str) -> dict:
    cases = json.loads((SCENARIOS / f"{system}.json").read_text(encoding="utf-8"))
    return next(c for c in cases if c["query"]["kind"] == "reachable")


def random_situation(system: str, seed: int) -> Situation:
    rng = random.Random(seed)
    case = _template(system)
    cols, rows = rng.randint(4, 8), rng.randint(4, 8)
    tags = sorted(k for k, v in case["terrain_chart"]["hex"].items() if v != "P")
    hexes = [f"{c:02d}{r:02d}" for c in range(1, cols + 1) for r in range(1, rows + 1)]
    terrain = {h: [rng.choice(tags)] for h in hexes if rng.random() < 0.4}
    data = {**case, "map": {"cols": cols, "rows": rows, "terrain": terrain, "hexsides": []},
            "units": [], "markers": []}
    base = case_from_data(data).situation
    grid = base.map.grid
    sides = {}
    for _ in range(rng.randint(0, 12)):
        a = rng.choice(grid.hexes())
        b = grid.neighbour(a, rng.randrange(6))
        if grid.contains(b):
            sides[grid.hexside(a, b)] = frozenset({rng.choice(FEATURES[system])})
    free = grid.hexes()
    rng.shuffle(free)
    units = tuple(
        Unit(f"U{i}", rng.choice(["allied", "german"]), h, rng.choice(CLASSES[system]),
             float(rng.randint(1, 8)), 2, rng.choice(UNIT_DATA[system]))
        for i, h in enumerate(free[: rng.randint(1, 7)])
    )
    markers = tuple(Marker("beachhead", h) for h in free[7:9])
    gmap = GameMap(grid, base.map.terrain, sides, base.map.edges)
    return dataclasses.replace(base, map=gmap, units=units, markers=markers,
                               state={**base.state, "active_side": units[0].side})


def _answer(fn):
    try:
        return fn()
    except RulesError:
        reject()  # this random chart leaves a needed cost out: hypothesis draws another


def _replay(engine: Engine, unit_id: str, path: list[Hex]) -> list[float]:
    query = engine.query(unit_id)
    move = engine.system.start(engine, query)
    assert isinstance(move, Move)
    spent = [move.spent]
    for h in path[1:]:
        move = engine.system.enter(engine, query, move, h)
        assert isinstance(move, Move), f"a returned path has an illegal step: {move}"
        spent.append(move.spent)
    return spent


@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
@PROPERTY
@given(seed=st.integers(0, 10**9))
def test_reachable_paths_are_legal_at_their_cost_and_never_cheaper_on_the_way(system, seed):
    engine = Engine(random_situation(system, seed))
    for unit in engine.situation.units:
        reach = _answer(lambda u=unit: engine.reachable(u.id))
        for h, path in reach.paths.items():
            spent = _replay(engine, unit.id, path)
            assert spent == sorted(spent), "MP spent decreased along a path"
            check = engine.check_path(unit.id, path)
            assert check.verdict.legal, check.verdict
            assert check.cost == reach.costs[h]


@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
@PROPERTY
@given(seed=st.integers(0, 10**9), order=st.randoms())
def test_an_answer_does_not_depend_on_the_questions_asked_before(system, seed, order):
    situation = random_situation(system, seed)
    ids = [u.id for u in situation.units]
    alone = {i: _answer(lambda i=i: Engine(situation).reachable(i)) for i in ids}
    order.shuffle(ids)
    shared = Engine(situation)
    for i in ids:
        reach = _answer(lambda i=i: shared.reachable(i))
        assert reach.costs == alone[i].costs, i
        assert {h: v.rule for h, v in reach.refused.items()} == {
            h: v.rule for h, v in alone[i].refused.items()}, i


@pytest.mark.parametrize("system", [s for s in SYSTEMS if s != "tactical"])  # 002: no supply
@PROPERTY
@given(seed=st.integers(0, 10**9), order=st.randoms())
def test_supply_does_not_depend_on_unit_order(system, seed, order):
    sit = random_situation(system, seed)
    units = list(sit.units)
    order.shuffle(units)
    again = dataclasses.replace(sit, units=tuple(units))
    ids = [u.id for u in sit.units]
    first = _answer(lambda: Engine(sit).supply(ids))
    second = _answer(lambda: Engine(again).supply(ids))
    assert {i: a.in_supply for i, a in first.items()} == {i: a.in_supply
                                                          for i, a in second.items()}


@pytest.mark.parametrize("system", SYSTEMS)
@PROPERTY
@given(seed=st.integers(0, 10**9), where=st.integers(0, 10**6))
def test_an_extra_enemy_unit_never_enlarges_the_reachable_set(system, seed, where):
    sit = random_situation(system, seed)
    mover = sit.units[0]
    empty = [h for h in sit.map.grid.hexes() if not sit.units_in(h)]
    if not empty:
        return
    enemy = Unit("X", "german" if mover.side == "allied" else "allied",
                 empty[where % len(empty)], mover.unit_class, 4.0, 2)
    before = _answer(lambda: Engine(sit).reachable(mover.id))
    after = _answer(lambda: Engine(dataclasses.replace(sit, units=(*sit.units, enemy)))
                    .reachable(mover.id))
    assert set(after.costs) <= set(before.costs)


def _answers(sit: Situation) -> tuple[dict, dict]:
    engine = Engine(sit)
    moves = {}
    for u in sit.units:
        reach = _answer(lambda u=u: engine.reachable(u.id))
        moves[u.id] = (reach.costs, reach.paths, {h: v.rule for h, v in reach.refused.items()})
    supply = {} if sit.system == "tactical" else {  # 002 has no supply rule
        i: (a.in_supply, a.rule, a.reason, a.path) for i, a in
        _answer(lambda: engine.supply([u.id for u in sit.units])).items()}
    return moves, supply


@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
@PROPERTY
@given(seed=st.integers(0, 10**9), moves=st.randoms())
def test_positions_on_one_map_answer_as_each_on_a_map_of_its_own(system, seed, moves):
    # A map keeps what the rules work out from it alone (Situation.with_position): each
    # later position on it, its units moved, answers as the same position on a fresh copy
    # of the map that has worked out nothing.
    sit = random_situation(system, seed)
    _answers(sit)
    hexes = sit.map.grid.hexes()
    for _ in range(3):
        free = hexes[:]
        moves.shuffle(free)
        later = sit.with_position(tuple(dataclasses.replace(u, hex=h)
                                        for u, h in zip(sit.units, free, strict=False)))
        fresh = dataclasses.replace(later, map=dataclasses.replace(sit.map))
        assert fresh.terrain_memo is not later.terrain_memo
        assert _answers(later) == _answers(fresh)
