"""The line each unit in supply is told, as the supply search keeps it (states by index).

A line runs "from itself" to a source (000_3d79f68a6e3e33eb.txt §12.0, 001 §7.2, 003
§10.3.1): it starts in the unit's hex, every hex it enters is next to the one before, it
ends in one of the side's source hexes, it enters no hex holding an enemy unit, and where
a length is counted in hexes the answer's count is the hexes it enters (RULINGS COB-2: the
unit's own hex not counted) when every hex counts one.
"""

from __future__ import annotations

import dataclasses
import random
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.hexgrid import Hex
from pipeline.rules import Engine, supply
from pipeline.rules.situation import GameMap, Marker, Situation
from pipeline.rules.supply import Tracing, source_hexes

from .test_cheapest import crowded
from .test_properties import PROPERTY, _answer, random_situation


def checked_lines(situation: Situation) -> int:
    """Check every line the answers tell; how many there were."""
    engine = Engine(situation)
    answers = _answer(engine.supply)
    grid = situation.map.grid
    length = engine.profile.supply.length
    uniform = not (length.hex_counts or length.crossings or length.roads)
    lines = 0
    for unit in situation.units:
        answer = answers[unit.id]
        if not answer.in_supply or not answer.path:
            continue
        lines += 1
        path = answer.path
        assert path[0] == unit.hex, unit.id
        assert all(grid.adjacent(a, b) for a, b in pairwise(path)), path
        assert path[-1] in source_hexes(engine, Tracing(unit.side)), path
        assert not any(situation.enemy_in(h, unit.side) for h in path[1:]), path
        assert situation.name(path[-1]) in answer.reason, answer.reason
        if length.max is not None and length.unit == "hexes" and uniform and len(path) > 1:
            assert answer.reason.startswith(f"{len(path) - 1} hex"), answer.reason
    return lines


@pytest.mark.parametrize("system", ["fm_omaha", "june44", "cobra"])
@PROPERTY
@given(seed=st.integers(0, 10**9))
def test_every_line_runs_from_the_unit_to_a_source_hex_by_hex(system: str, seed: int) -> None:
    checked_lines(random_situation(system, seed))


@pytest.mark.parametrize("seed", range(4))
def test_lines_to_beachheads_on_a_crowded_position(seed: int) -> None:
    """000 §12.0: allied lines to beachhead markers, past enemy units and their ZOC."""
    assert checked_lines(crowded(seed)) > 0


def marsh_position(seed: int) -> Situation:
    """A Cobra position on clear and marsh with roads and a supply source a side: every
    hex counts one, so the lines are searched in the order reached, with 003's limit of
    one marsh hex a line (003_de9c41aeffe9bb98.txt §10.3.2) kept as part of each state."""
    rng = random.Random(seed)
    base = random_situation("cobra", seed)
    grid = base.map.grid
    terrain = {h: (rng.choice(["clear", "marsh", "marsh"]),) for h in grid.hexes()}
    sides = {k: frozenset({"primary_road"}) for k, v in base.map.hexsides.items()
             if "road" in next(iter(v))}
    hexes = grid.hexes()
    markers = tuple(Marker("supply_source", rng.choice(hexes), {"side": side})
                    for side in ("allied", "german") for _ in range(2))
    gmap = GameMap(grid, terrain, sides, base.map.edges)
    return dataclasses.replace(base, map=gmap, markers=markers,
                               state={**base.state, "turn": 5, "phase": "initial_movement"})


def test_the_in_order_search_prunes_no_line_the_cheapest_first_search_keeps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A state whose hex was reached earlier with no more marsh passed is not made
    # (_Counted.in_order); the search that keeps every state (by_count, right for any
    # counts) must find every hex at the same count by the same line, on positions where
    # the pruning leaves states out.
    def lines(seed: int) -> tuple[list[dict[Hex, tuple[float, tuple[Hex, ...]]]], int]:
        situation = marsh_position(seed)
        engine = Engine(situation)
        found, made = [], 0
        for side in ("allied", "german"):
            for keys in ((), ("length",), ("enemy_units", "ezoc")):
                traced = supply._trace(engine, Tracing(side).without(*keys), None)
                made += len(traced.at)
                found.append({h: (traced.counted(h), traced.path(h))
                              for h in situation.map.grid.hexes() if traced.reaches(h)})
        return found, made

    pruned = [lines(seed) for seed in range(30)]
    monkeypatch.setattr(supply._Counted, "in_order", supply._Counted.by_count)
    kept = [lines(seed) for seed in range(30)]
    assert [p[0] for p in pruned] == [k[0] for k in kept]
    assert sum(len(f) for p in pruned for f in p[0]) > 1000  # lines were found
    assert sum(p[1] for p in pruned) < 0.9 * sum(k[1] for k in kept)  # and states pruned
