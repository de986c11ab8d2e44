"""Where the search asks a system whether a move may end (``System.end_checks``).

The search asks :meth:`~pipeline.rules.systems.base.System.end` of a state that remembers
nothing only in the hexes ``end_checks`` names: the kernel names, for a lone mover, the
hexes holding units or counted markers (one unit alone in a hex stacks legally in every
game: 000 §5.3, 001 §6.4, 003 §6.3). Asking everywhere must give the same answers, and
a state outside those hexes must end legally.
"""

from __future__ import annotations

import pytest

from pipeline.rules import Engine, case_from_data
from pipeline.rules.movement import Move
from pipeline.rules.systems.base import System
from tests.rules.test_terrain_memo import SYSTEMS, position


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_asking_end_everywhere_gives_the_same_reach(system: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    situation = case_from_data(position(system, 7)).situation
    movers = [u.id for u in situation.units if u.side == "allied"][:8]
    engine = Engine(situation)
    told = {u: engine.reachable(u) for u in movers}
    checks = {u: engine.system.end_checks(engine, engine.query(u)) for u in movers}
    assert all(c is not None for c in checks.values())  # the kernel's lone movers
    monkeypatch.setattr(type(engine.system), "end_checks", System.end_checks)
    everywhere = Engine(situation)
    for u in movers:
        asked = everywhere.reachable(u)
        assert asked.costs == told[u].costs
        assert asked.refused == told[u].refused
    # The moves reach (or are refused) hexes that hold units: end() was asked there.
    assert any(h in (checks[u] or ()) for u in movers
               for h in [*told[u].costs, *told[u].refused])


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_lone_mover_ends_legally_wherever_end_checks_does_not_look(system: str) -> None:
    situation = case_from_data(position(system, 3)).situation
    engine = Engine(situation)
    unit = next(u for u in situation.units if u.side == "allied")
    query = engine.query(unit.id)
    checks = engine.system.end_checks(engine, query)
    assert checks is not None
    assert checks == frozenset(situation.occupants)  # no counted markers here
    outside = [h for h in engine.grid.hexes() if h not in checks]
    assert outside
    for h in outside:
        assert engine.system.end(engine, query, Move(h, 1.0, unit.ma)) is None
    # A stack moving together is asked everywhere.
    friend = next(u for u in situation.units if u.side == unit.side and u.id != unit.id)
    assert engine.system.end_checks(engine, engine.query([unit.id, friend.id])) is None
