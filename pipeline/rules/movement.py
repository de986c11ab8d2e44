"""Movement: the reachable hexes of a unit and the check of a given path.

The search is one cheapest-first search over *movement states*: a hex, the MP
spent, and whatever the game's rules must remember on the way (started in an
enemy ZOC, disengaged this phase, marsh hexes entered...). Each game's
:class:`~pipeline.rules.systems.base.System` says what entering a hex costs and
what it does to the state; this module only searches. Stacking is checked at
the end of movement only: passing through friendly units is free (000 §5.3,
001 §6.4, 003 §6.3).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

from pipeline.hexgrid import Hex
from pipeline.rules.situation import Unit
from pipeline.rules.verdict import Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["Move", "MoveQuery", "PathCheck", "Reach", "check_path", "reachable"]

ONE_HEX = "one_hex"
_EMPTY: frozenset[str] = frozenset()


@dataclass(frozen=True)
class MoveQuery:
    """Who moves, and the facts of this move that are not in the position."""

    movers: tuple[Unit, ...]
    die_rolls: Mapping[Hex, int] = field(default_factory=dict)
    overrun: bool = False
    #: The path being checked (:func:`check_path`, its start first); empty in a search.
    path: tuple[Hex, ...] = ()
    ids: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The movers' ids key every per-question memo: worked out once.
        object.__setattr__(self, "ids", tuple(u.id for u in self.movers))

    @property
    def unit(self) -> Unit:
        """The moving unit (the first of a stack)."""
        return self.movers[0]


class Move(NamedTuple):
    """A movement state: the mover stands in ``hex`` having spent ``spent`` MP.

    ``memory`` holds what the rules must remember (system-specific words);
    ``stop`` says why the unit may go no further; ``one_hex`` marks a hex
    entered only through an "always one hex" allowance. A named tuple, not a
    dataclass: the search makes thousands of these per question.
    """

    hex: Hex
    spent: float
    ma: float
    memory: frozenset[str] = frozenset()
    stop: Verdict | None = None
    one_hex: bool = False
    steps: int = 0
    prev: Move | None = None

    def key(self) -> Hex | tuple[Any, ...]:
        """States with equal keys differ only in MP spent.

        A plain state (no memory, no stop, not a one-hex move) is keyed by its
        hex alone: most states are plain and the search looks them up most.
        """
        if not self.memory and self.stop is None and not self.one_hex:
            return self.hex
        return (self.hex, self.memory, self.stop is not None, self.one_hex)

    @property
    def left(self) -> float:
        """MP still to spend."""
        return self.ma - self.spent

    def path(self) -> list[Hex]:
        """The hexes from the start to here."""
        out: list[Hex] = []
        node: Move | None = self
        while node is not None:
            out.append(node.hex)
            node = node.prev
        return out[::-1]

    def then(self, to: Hex, cost: float, memory: frozenset[str] | None = None,
             stop: Verdict | None = None, one_hex: bool | None = None) -> Move:
        """The state after entering ``to`` at ``cost`` MP."""
        return Move(to, self.spent + cost, self.ma,
                    self.memory if memory is None else memory, stop,
                    self.one_hex if one_hex is None else one_hex, self.steps + 1, self)


# The full search's answer: the final state of each reachable hex, and what words the
# refusals of the hexes it did not reach.
Searched = tuple[dict[Hex, Move], Callable[[], dict[Hex, Verdict]]]


@dataclass(frozen=True)
class Reach:
    """The answer to "where can this unit go?".

    ``costs`` holds the cheapest MP to each reachable hex. The search that keeps every
    state's way there and what refused each hex beside runs when ``ends``, ``paths`` or
    ``refused`` is first read, and the refusals are worded then too: most questions never
    look (:mod:`pipeline.rules.cheapest`).
    """

    start: Hex
    costs: dict[Hex, float | str]
    #: Runs the full search (:attr:`ends` and :attr:`refused` when first read).
    search: Callable[[], Searched] = field(repr=False, compare=False)

    @cached_property
    def _searched(self) -> Searched:
        return self.search()

    @cached_property
    def ends(self) -> dict[Hex, Move]:
        """The final movement state of each reachable hex (its way back to the start)."""
        return self._searched[0]

    @cached_property
    def refused(self) -> dict[Hex, Verdict]:
        """Why each unreached hex the search looked at is not reachable."""
        return self._searched[1]()

    @cached_property
    def paths(self) -> dict[Hex, list[Hex]]:
        """One cheapest path to each reachable hex, its start first."""
        return {h: m.path() for h, m in self.ends.items()}

    def to_dict(self, name: Any) -> dict[str, Any]:
        """JSON-ready, hexes by printed id."""
        return {
            "start": name(self.start),
            "reachable": {name(h): c for h, c in sorted(self.costs.items())},
            "paths": {name(h): [name(x) for x in p] for h, p in sorted(self.paths.items())},
            "not_reachable": {name(h): v.to_dict() for h, v in sorted(self.refused.items())},
        }


@dataclass(frozen=True)
class PathCheck:
    """The answer to "is this path legal?"."""

    verdict: Verdict
    cost: float | str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        out = self.verdict.to_dict()
        out["cost"] = self.cost
        return out


def reachable(engine: Engine, query: MoveQuery, *, paths: bool = False) -> Reach:
    """Every hex the mover can legally end in, with the minimum MP and one cheapest path.

    The MP come from :func:`~pipeline.rules.cheapest.cheapest_costs` where the system's
    steps allow it, the paths and refusals from :func:`_search` when first read (the same
    states, so the same answers: ``tests/rules/test_cheapest.py``). With ``paths`` (the
    caller reads the paths or the refusals) the full search alone gives it all."""
    # Imported here: that module builds on this one's states.
    from pipeline.rules.cheapest import cheapest_costs

    system, start_hex = engine.system, query.unit.hex
    assert start_hex is not None
    first = system.start(engine, query)
    if isinstance(first, Verdict):
        refusal = first
        return Reach(start_hex, {}, lambda: (
            {}, lambda: {n: refusal for n in engine.grid.neighbours(start_hex)}))
    costs = None if paths else cheapest_costs(engine, query, first)
    if costs is None:
        best, named = _searched(engine, query, first)
        return Reach(start_hex, _costs(best), lambda: (best, named))
    return Reach(start_hex, costs, lambda: _searched(engine, query, first))


def _searched(engine: Engine, query: MoveQuery, first: Move) -> Searched:
    """The full search from ``first``: the best final state of every hex the mover may end
    in, and the refusals of the others, worded when called."""
    system, start_hex = engine.system, first.hex
    # A refusal for want of MP is named only if the hex is not reached another way: the
    # search keeps the move it was refused from (and the step's cost in ``short``).
    refused: dict[Hex, Verdict | Move] = {}
    short: dict[Hex, float] = {}
    settled = _search(engine, query, first, refused, short)
    best: dict[Hex, Move] = {}
    end = system.end
    # Where a state that remembers nothing may be refused its end (None: anywhere).
    checks = system.end_checks(engine, query)
    adjacency = engine.grid.adjacency
    for move in settled:
        h = move.hex
        if move.stop is not None:
            # A hex beyond a stop that no other way reaches: the stop is why (named there).
            beyond: Verdict | None = None
            for n in adjacency[h]:
                if n not in refused:
                    if beyond is None:
                        beyond = Verdict(False, move.stop.rule, None, move.stop.reason)
                    refused[n] = beyond
        if h == start_hex:
            continue
        if checks is None or move.memory or h in checks:
            verdict = end(engine, query, move)
            if verdict is not None:
                refused.setdefault(h, verdict)
                continue
        known = best.get(h)
        if known is None or _better(move, known):
            best[h] = move
    return best, lambda: _named(engine, query, refused, short, best, start_hex)


def _costs(best: dict[Hex, Move]) -> dict[Hex, float | str]:
    """The MP of each hex's final state (``"one_hex"`` for a move by that allowance)."""
    return {h: ONE_HEX if m.one_hex else int(s) if (s := m.spent) == int(s) else s
            for h, m in best.items()}


def _named(engine: Engine, query: MoveQuery, refused: dict[Hex, Verdict | Move],
           short: dict[Hex, float], best: dict[Hex, Move], start: Hex) -> dict[Hex, Verdict]:
    """The refusals of hexes the search did not reach, worded: a step short of MP by the
    system's :meth:`over_budget`, every one with the hex it names."""
    over_budget = engine.system.over_budget
    named: dict[Hex, Verdict] = {}
    for h, kept in refused.items():
        if h in best or h == start:
            continue
        v = over_budget(engine, query, kept, h, short[h]) if type(kept) is Move else kept
        assert isinstance(v, Verdict)
        # Systems may leave ``at`` empty in the hot loop: name only the refusals kept.
        named[h] = v if v.at else Verdict(v.legal, v.rule, engine.name(h), v.reason)
    return named


def _better(a: Move, b: Move) -> bool:
    # A hex the MP cover normally always shows its MP cost (SCENARIOS.md §2.6).
    return (a.one_hex, a.spent) < (b.one_hex, b.spent)


def _search(engine: Engine, query: MoveQuery, first: Move,
            refused: dict[Hex, Verdict | Move], short: dict[Hex, float]) -> list[Move]:
    # The hot loop of every movement question: locals, plain steps relaxed
    # without building a state unless they improve on the best known one.
    tick = 0
    # Heap entries carry their state's key so a pop needs no second key().
    heap: list[tuple[float, int, Hex | tuple[Any, ...], Move]] = [
        (0.0, tick, first.key(), first)]
    best: dict[Hex | tuple[Any, ...], float] = {first.key(): 0.0}
    settled: list[Move] = []
    system = engine.system
    steps, enter = system.stepper(engine, query), system.enter
    carried = system.carried
    push, pop = heapq.heappush, heapq.heappop
    new = tuple.__new__  # Move(...) without its __new__'s frame
    inf = float("inf")
    while heap:
        spent, _, popped, move = pop(heap)
        if best[popped] < spent:
            continue
        settled.append(move)
        if move.stop is not None:
            continue
        plain, special = steps(move)
        ma, one_hex, count = move.ma, move.one_hex, move.steps + 1
        # A plain step keeps what the mover remembers of its way, not of the hex it left.
        carry = carried(move.memory) if move.memory else _EMPTY
        if not (one_hex or carry):
            # Most states: keyed by the hex alone (Move.key(), inlined).
            for n, cost in plain:
                total = spent + cost
                if total > ma:
                    if n not in refused:
                        refused[n], short[n] = move, cost  # named if never reached
                elif total < best.get(n, inf):
                    best[n] = total
                    tick += 1
                    push(heap, (total, tick, n,
                                new(Move, (n, total, ma, carry, None, one_hex, count, move))))
        else:
            for n, cost in plain:
                total = spent + cost
                if total > ma:
                    if n not in refused:
                        refused[n], short[n] = move, cost
                    continue
                if carry and not one_hex and best.get(n, inf) <= total:
                    continue  # reached for no more with nothing remembered: as good or better
                key = (n, carry, False, one_hex)
                if total < best.get(key, inf):
                    best[key] = total
                    tick += 1
                    push(heap, (total, tick, key,
                                new(Move, (n, total, ma, carry, None, one_hex, count, move))))
        for n in special:
            nxt = enter(engine, query, move, n)
            if type(nxt) is not Move:
                if n not in refused:
                    refused[n] = nxt
                continue
            key = nxt.key()
            if nxt.spent < best.get(key, inf):
                best[key] = nxt.spent
                tick += 1
                push(heap, (nxt.spent, tick, key, nxt))
    return settled


def check_path(engine: Engine, query: MoveQuery, path: list[Hex]) -> PathCheck:
    """Accept a path (``path[0]`` is the start hex) or name its first illegal step."""
    grid, system = engine.grid, engine.system
    name = engine.name
    query = replace(query, path=tuple(path))
    if not path or path[0] != query.unit.hex:
        return PathCheck(Verdict(False, None, name(path[0]) if path else None,
                                 "the path must start in the unit's hex"), None)
    move = system.start(engine, query)
    if isinstance(move, Verdict):
        at = name(path[1]) if len(path) > 1 else name(path[0])
        return PathCheck(Verdict(False, move.rule, at, move.reason), None)
    for to in path[1:]:
        if not grid.contains(to):
            return PathCheck(Verdict(False, None, name(to), "the hex is not on the map"), None)
        if not grid.adjacent(move.hex, to):
            return PathCheck(Verdict(False, None, name(to),
                                     f"{name(to)} is not adjacent to {name(move.hex)}"), None)
        if move.stop is not None:
            return PathCheck(Verdict(False, move.stop.rule, name(to), move.stop.reason), None)
        step = system.enter(engine, query, move, to)
        if isinstance(step, Verdict):
            return PathCheck(Verdict(False, step.rule, name(to), step.reason), None)
        move = step
    if len(path) > 1:
        end = system.end(engine, query, move)
        if end is not None:
            return PathCheck(Verdict(False, end.rule, name(move.hex), end.reason), None)
    cost: float | str = ONE_HEX if move.one_hex else _number(move.spent)
    return PathCheck(Verdict(True, None, None, "every step is legal"), cost)


def _number(x: float) -> float:
    return int(x) if float(x).is_integer() else x
