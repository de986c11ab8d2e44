"""Where the search asks a system whether a move may end (``System.end_checks``).

The search asks :meth:`~pipeline.rules.systems.base.System.end` of a state that remembers
nothing only in the hexes ``end_checks`` names: the kernel names, for a lone mover, the
hexes holding units or counted markers (one unit alone in a hex stacks legally in every
game: 000 §5.3, 001 §6.4, 003 §6.3), and where stacking is the plain count (000 §5.3) only
the hexes whose friends leave no room, refused from the position's table
(``stacking.lone_refusals``). Asking everywhere must give the same answers, a state
outside those hexes must end legally, and the table must say what the stacking rules say.
"""

from __future__ import annotations

import pytest

from pipeline.rules import Engine, case_from_data
from pipeline.rules.movement import Move
from pipeline.rules.stacking import lone_refusals, stacking_verdict
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
    # No counted markers here: only hexes holding units are looked at.
    assert checks <= frozenset(situation.occupants)
    outside = [h for h in engine.grid.hexes() if h not in checks]
    assert outside
    for h in outside:
        assert engine.system.end(engine, query, Move(h, 1.0, unit.ma)) is None
    # A stack moving together is asked everywhere.
    friend = next(u for u in situation.units if u.side == unit.side and u.id != unit.id)
    assert engine.system.end_checks(engine, engine.query([unit.id, friend.id])) is None


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_lone_movers_end_says_what_the_stacking_rules_say(system: str) -> None:
    """Every hex holding friends: the end the search is told (from the position's table
    where stacking is the plain count) is the stacking verdict of the friends and the
    mover, asked directly (000 §5.3, 001 §6.4, 003 §6.3)."""
    situation = case_from_data(position(system, 3)).situation
    engine = Engine(situation)
    unit = next(u for u in situation.units if u.side == "allied")
    query = engine.query(unit.id)
    friendly = {u.hex for u in situation.units
                if u.side == unit.side and u.id != unit.id and u.hex != unit.hex}
    assert friendly
    refused = 0
    for h in friendly:
        assert h is not None
        others = tuple(u for u in situation.units_in(h) if u.side == unit.side)
        direct = engine.system.stacking(engine, h, (*others, unit))
        told = engine.system.end(engine, query, Move(h, 1.0, unit.ma))
        assert told == (None if direct.legal else direct), engine.name(h)
        refused += told is not None
    if system == "fm_omaha":  # one unit a hex (000 §5.3): every friend's hex is refused
        assert refused == len(friendly)
        assert lone_refusals(engine, unit.side) is not None


def test_a_path_back_to_the_start_ends_where_the_mover_stood() -> None:
    """The mover's own hex counts it among its friends in the position's table; a path
    that comes back there ends legally where the unit stood alone (000 §5.3)."""
    situation = case_from_data(position("fm_omaha", 3)).situation
    engine = Engine(situation)
    grid = engine.grid
    for unit in situation.units:
        assert unit.hex is not None
        if situation.units_in(unit.hex) != (unit,) or unit.ma < 2:
            continue
        for n in grid.neighbours(unit.hex):
            if grid.contains(n) and not situation.units_in(n):
                there = engine.check_path(unit.id, [unit.hex, n])
                if not there.verdict.legal:
                    continue
                back = engine.check_path(unit.id, [unit.hex, n, unit.hex])
                if back.cost is None and "MP" in back.verdict.reason:
                    continue  # short of MP to come back: not this question
                assert back.verdict.legal, back.verdict
                assert stacking_verdict(engine, unit.hex, (unit,)).legal
                return
    pytest.fail("no unit alone with an empty neighbour it can enter and leave")
