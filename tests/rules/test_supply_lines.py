"""The line each unit in supply is told, as the supply search keeps it (states by index).

A line runs "from itself" to a source (000_3d79f68a6e3e33eb.txt §12.0, 001 §7.2, 003
§10.3.1): it starts in the unit's hex, every hex it enters is next to the one before, it
ends in one of the side's source hexes, it enters no hex holding an enemy unit, and where
a length is counted in hexes the answer's count is the hexes it enters (RULINGS COB-2: the
unit's own hex not counted) when every hex counts one.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.rules import Engine
from pipeline.rules.situation import Situation
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
