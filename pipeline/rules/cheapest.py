"""The cheapest MP to every hex a mover may end in, and nothing else.

Most movement questions read only where a unit may go and at what MP (the studio's
highlight, a game's legal-move check). :func:`pipeline.rules.movement.reachable` answers
that from here, and runs its full search (every state with its way there, and what
refused each hex beside) only when the paths or the refusals are read.

This is the same search over the same movement states, asking the rule system the same
questions (:meth:`~pipeline.rules.systems.base.System.stepper`, ``enter``, ``end``), so
the rules are said once. What it drops is the bookkeeping of ways and refusals, and what
it changes is the queue: MP are counted in whole units of ``1/scale`` (a half MP for a
road at ½, 000 §5.4.1), so the states are settled from an array of buckets, one per
count of units, with no heap; hexes are numbered (:mod:`pipeline.rules.numbering`), and
a plain state (nothing remembered, no stop) is its hex's number. A step whose MP are not
a whole number of units at any of :data:`SCALES` leaves the question to the full search.

A system whose steps after the first depend on more than the hexes and what the mover
remembers (its MP spent, its steps so far, a die) answers ``None`` to
:meth:`~pipeline.rules.systems.base.System.step_memo`, and its questions take the full
search.

>>> from pipeline.rules.cases import case_from_data
>>> from pipeline.rules.engine import Engine
>>> case = case_from_data({"system": "fm_omaha", "map": {"cols": 3, "rows": 3},
...     "terrain_chart": {"hex": {"clear": 1}}, "units": [
...     {"id": "A", "side": "allied", "hex": "0202", "class": "leg", "ma": 1}],
...     "state": {"active_side": "allied", "turn": 2, "phase": "movement"},
...     "query": {}, "expect": {}})
>>> engine = Engine(case.situation)
>>> query = engine.query("A")
>>> sorted(cheapest_costs(engine, query, engine.system.start(engine, query)).values())
[1, 1, 1, 1, 1, 1]
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from pipeline.hexgrid import Hex
from pipeline.rules.movement import ONE_HEX, Move, MoveQuery
from pipeline.rules.numbering import numbering
from pipeline.rules.systems.base import PlainSteps
from pipeline.rules.verdict import Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["SCALES", "cheapest_costs"]

#: Units of MP tried in turn: a half, a sixteenth, a 128th (powers of two, so a count of
#: units is the float the full search adds up, exactly).
SCALES = (2, 16, 128)
_EMPTY: frozenset[str] = frozenset()
_FAR = 1 << 62  # more units than any allowance

# A state that remembers something, stops or was entered by a one-hex allowance: its hex's
# number, its memory, whether it stops, whether by that allowance. A plain state is its
# hex's number alone.
_Held = tuple[int, frozenset[str], bool, bool]
_Key = int | _Held
# A plain state's steps: (units, hex number) of each plain step, the numbers of the
# hexes a step into goes through ``enter``.
_Row = tuple[tuple[tuple[int, int], ...], tuple[int, ...]]


class _Fractional(Exception):
    """A step's MP are not a whole number of units."""


def cheapest_costs(engine: Engine, query: MoveQuery, first: Move
                   ) -> dict[Hex, float | str] | None:
    """The cheapest MP (or ``"one_hex"``) to every hex the mover may end its move in, as
    :attr:`~pipeline.rules.movement.Reach.costs` gives them, from its first state
    ``first``; ``None`` where the full search must answer (see the module docstring)."""
    steps = engine.system.step_memo(engine, query)
    if steps is None:
        return None
    memo, kind = steps.memo, steps.kind
    for scale in SCALES:
        if ("cheapest_fractional", *kind, scale) in memo:
            continue
        try:
            return _Search(engine, query, first, scale, _rows(memo, kind, scale),
                           steps, _scaled(memo, kind, scale, steps)).costs()
        except _Fractional:
            memo[("cheapest_fractional", *kind, scale)] = True
    return None


def _rows(memo: dict[tuple[object, ...], object], kind: tuple[object, ...], scale: int
          ) -> dict[int, _Row]:
    """The plain states' steps of one kind of mover at one scale, filled in hex by hex
    (kept where the system keeps that kind's steps)."""
    key = ("cheapest_rows", *kind, scale)
    known = memo.get(key)
    if known is None:
        known = memo[key] = {}
    return cast("dict[int, _Row]", known)


def _scaled(memo: dict[tuple[object, ...], object], kind: tuple[object, ...], scale: int,
            steps: PlainSteps) -> Callable[[Engine, int], _Row | None] | None:
    """The system's plain states' steps at one scale
    (:attr:`~pipeline.rules.systems.base.PlainSteps.scaled`), made once for that kind of
    mover; ``None`` where it gives none."""
    if steps.scaled is None:
        return None
    key = ("cheapest_scaled", *kind, scale)
    if key not in memo:
        memo[key] = steps.scaled(scale)
    return cast("Callable[[Engine, int], _Row | None] | None", memo[key])


def _units(mp: float, scale: int) -> int:
    units = mp * scale
    whole = int(units)
    if whole != units:
        raise _Fractional
    return whole


class _Search:
    """One question's search: the best count of units of every state reached, plain
    states (by hex number) apart from the few that remember something or stop."""

    def __init__(self, engine: Engine, query: MoveQuery, first: Move, scale: int,
                 rows: dict[int, _Row], steps: PlainSteps,
                 scaled: Callable[[Engine, int], _Row | None] | None = None) -> None:
        system = engine.system
        numbers = numbering(engine)
        self.engine, self.query, self.first, self.scale = engine, query, first, scale
        self.hexes, self.ids, self.rows = numbers.hexes, numbers.ids, rows
        self.stepper = system.stepper(engine, query)
        self.enter, self.carried = system.enter, system.carried
        self.barred, self.row = steps.barred, steps.row
        # A plain state's steps: the system's in units where it gives them (None: a
        # fraction), else converted here.
        self.make: Callable[[int], _Row | None] = (
            self._row if scaled is None else functools.partial(scaled, engine))
        self.limit = math.floor(first.ma * scale)
        self.best: dict[int, int] = {}  # plain states
        self.held: dict[_Held, int] = {}  # the others
        self.buckets: list[list[_Key]] = [[] for _ in range(self.limit + 1)]

    def costs(self) -> dict[Hex, float | str]:
        first = self.first
        start = self.ids[first.hex]
        if first.memory:
            self.held[(start, first.memory, False, False)] = 0
        else:
            self.best[start] = 0
        self._expand(first, 0)
        self._settle()
        return self._ends(start)

    def _settle(self) -> None:
        # Dijkstra with the buckets for a heap: a bucket is read in order, and a step of
        # no MP lands in the bucket being read (the loop reads what is appended).
        best, held, rows, hexes, ma = self.best, self.held, self.rows, self.hexes, self.first.ma
        make = self.make
        get, buckets, limit, scale = best.get, self.buckets, self.limit, self.scale
        appends = [bucket.append for bucket in buckets]
        for spent, bucket in enumerate(buckets):
            for key in bucket:
                if not isinstance(key, int):
                    if held[key] == spent:
                        x, memory, _, _ = key
                        self._expand(Move(hexes[x], spent / scale, ma, memory, None, False,
                                          1), spent)
                    continue
                if best[key] != spent:
                    continue  # reached later for fewer units
                row = rows.get(key)
                if row is None:
                    row = make(key)
                    if row is None:
                        raise _Fractional
                    rows[key] = row
                for units, y in row[0]:
                    total = spent + units
                    if total <= limit and total < get(y, _FAR):
                        best[y] = total
                        appends[total](y)
                if row[1]:
                    move = Move(hexes[key], spent / scale, ma, _EMPTY, None, False, 1)
                    self._special(move, row[1], spent)

    def _row(self, x: int) -> _Row:
        """A plain state's steps out of hex ``x``: the system's plain steps in units, and
        the hexes a step into goes through ``enter`` (not those the mover may never
        enter: ``enter`` refuses them first, whatever the state)."""
        scale, barred = self.scale, self.barred
        plain, special = self.row(x)
        steps = []
        for cost, y in plain:  # _units, inlined
            units = cost * scale
            whole = int(units)
            if whole != units:
                raise _Fractional
            steps.append((whole, y))
        return tuple(steps), tuple(y for y in special if y not in barred)

    def _expand(self, move: Move, spent: int) -> None:
        """The steps out of a state that remembers something (or the first), as the full
        search takes them: a plain step carries what :meth:`carried` keeps, and is
        dropped where the hex is reached for no more with nothing remembered."""
        plain, special = self.stepper(move)
        carry = self.carried(move.memory) if move.memory else _EMPTY
        ids, best, held, limit, scale = self.ids, self.best, self.held, self.limit, self.scale
        for n, cost in plain:
            total = spent + _units(cost, scale)
            if total > limit:
                continue
            y = ids[n]
            if not carry:
                if total < best.get(y, _FAR):
                    best[y] = total
                    self.buckets[total].append(y)
            elif best.get(y, _FAR) > total:
                key = (y, carry, False, False)
                if total < held.get(key, _FAR):
                    held[key] = total
                    self.buckets[total].append(key)
        self._special(move, tuple(ids[n] for n in special), spent)

    def _special(self, move: Move, targets: tuple[int, ...], spent: int) -> None:
        """The steps the system's ``enter`` decides; a stop (a one-hex move among them) is
        settled where it is reached, as nothing leaves it."""
        engine, query, enter, hexes = self.engine, self.query, self.enter, self.hexes
        best, held, scale, limit = self.best, self.held, self.scale, self.limit
        for y in targets:
            step = enter(engine, query, move, hexes[y])
            if not isinstance(step, Move):
                continue
            total = _units(step.spent, scale)
            stops = step.stop is not None
            if not (step.memory or stops or step.one_hex):
                if total < best.get(y, _FAR):
                    best[y] = total
                    self.buckets[total].append(y)
                continue
            key = (y, step.memory, stops, step.one_hex)
            if total < held.get(key, _FAR):
                held[key] = total
                if not stops and total <= limit:
                    self.buckets[total].append(key)

    def _ends(self, start: int) -> dict[Hex, float | str]:
        """Every settled state the system lets the move end in (``end``, asked where
        ``end_checks`` says), the best for each hex: MP before a one-hex move, fewer MP
        first."""
        engine, query, hexes, scale = self.engine, self.query, self.hexes, self.scale
        system, ma = engine.system, self.first.ma
        checks = system.end_checks(engine, query)
        refusals = system.end_refusals(engine, query) or {}
        end: Callable[[Engine, MoveQuery, Move], Verdict | None] = system.end
        values = [_number(units / scale) for units in range(self.limit + 1)]
        best = self.best
        costs: dict[Hex, float | str] = {}
        looked = best
        if checks is not None:  # as many as the map has stacks: asked of the hexes reached
            looked = {x: total for x, total in best.items() if hexes[x] in checks}
            costs = {hexes[x]: values[total] for x, total in best.items() if x not in looked}
        for x, total in looked.items():
            h = hexes[x]
            if x != start and h not in refusals and end(
                    engine, query, Move(h, total / scale, ma)) is None:
                costs[h] = values[total]
        costs.pop(hexes[start], None)
        chosen: dict[int, tuple[bool, int]] = {}
        for (x, memory, _, one_hex), total in self.held.items():
            h = hexes[x]
            if x == start or ((checks is None or memory or h in checks) and end(
                    engine, query, Move(h, total / scale, ma, memory, None, one_hex)
            ) is not None):
                continue
            mine = (one_hex, total)
            known = chosen.get(x)
            if known is None and h in costs:
                known = (False, self.best[x])
            if known is None or mine < known:
                chosen[x] = mine
                costs[h] = ONE_HEX if one_hex else _number(total / scale)
        return costs


def _number(x: float) -> float:
    return int(x) if x == int(x) else x
