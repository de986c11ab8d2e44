"""The rules kernel: movement, zones of control, stacking and supply from the profile alone.

A game described only by its ``rules.json`` is answered by :class:`Kernel`
(``"system": "generic"``); a registered rule system subclasses it and
overrides only the procedures a table cannot say, each declared with the
section it implements (:attr:`~pipeline.rules.systems.base.System.overrides`).

Movement is the search of :mod:`pipeline.rules.movement`; the kernel says what
one step does. Entering a hex costs its terrain (:mod:`pipeline.rules.terrain`);
an enemy hex is barred (``movement.enemy_hexes``); entering an EZOC costs and
stops as ``zoc.enter`` says for the unit's class, leaving costs ``zoc.leave``,
and moving from one EZOC into another is allowed, prohibited, the whole move or
one hex into a friendly hex (``zoc.ezoc_to_ezoc``); ``movement.stops`` end a
move, ``movement.one_hex`` lets a first step go beyond the MP, the phase and
its modifiers set the MP (:mod:`pipeline.rules.allowance`). Stacking binds
where the move ends (and on the way unless ``stacking.pass_through``). A path
checked as an overrun enters each enemy hex on it as ``overrun`` says (003 §5.5:
who, when, across and into what, from where, at what cost), ignoring the ZOC
of the units it overruns where the profile says so.

>>> from pipeline.rules.cases import case_from_data
>>> profile = {"kind": "rules", "game": "g", "source": "RULES.md", "unit_classes": ["foot"],
...     "dice": "1d6", "terrain": {"clear": {"move": 1, "note": "n"}},
...     "stacking": {"limit": 1}}
>>> case = case_from_data({"system": "generic", "profile": profile,
...     "map": {"cols": 3, "rows": 3}, "units": [
...     {"id": "A", "side": "allied", "hex": "0202", "class": "foot", "ma": 1}],
...     "state": {"active_side": "allied", "turn": 1}, "query": {}, "expect": {}})
>>> from pipeline.rules.engine import Engine
>>> sorted(Engine(case.situation).reachable("A").costs.values())
[1, 1, 1, 1, 1, 1]
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, cast

from pipeline.hexgrid import Hex
from pipeline.model.rulesprofile import PhaseMover, UnitSelector
from pipeline.rules.allowance import Allowance, phase_mover, unit_allowance
from pipeline.rules.errors import RulesError
from pipeline.rules.explain import who
from pipeline.rules.movement import Move, MoveQuery
from pipeline.rules.numbering import numbering
from pipeline.rules.select import any_holds, moving_class, moving_classes, selects
from pipeline.rules.situation import OVERRUNS_MADE, Unit
from pipeline.rules.stacking import (
    counted_markers,
    hex_limit_words,
    lone_refusals,
    once_left_hexes,
    plain_count,
    stacking_verdict,
)
from pipeline.rules.supply import supply_answers
from pipeline.rules.systems.base import (
    NumberedSteps,
    PlainSteps,
    ScaledSteps,
    Steps,
    System,
)
from pipeline.rules.terrain import (
    StepCosts,
    prohibiting,
    step_cost,
)
from pipeline.rules.verdict import SupplyAnswer, Verdict
from pipeline.rules.zoc import (
    ZocEffects,
    exerted_cite,
    exerting,
    exerts_zoc,
    ignores_ezoc,
    zoc_around,
    zoc_effects,
    zoc_reaches,
    zones_around,
)

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["COMMON_KEYS", "IN_EZOC", "KERNEL_READS", "LEFT_EZOC", "OVERRAN", "Kernel", "Mover"]

IN_EZOC = "in_ezoc"      # the mover stands in an EZOC (a word about the hex it is in)
OVERRAN = "overran:"     # "overran:<hex>": the move overran that hex (003 §5.5)
LEFT_EZOC = "left_ezoc"  # it left an EZOC this phase (zoc.leave.no_reentry)
LEFT_HEX = "left:"  # "left:<i>:<hex>": it left that hex of stacking.hex_limits[i] with
#                     once_left, and may never stack again (000 §11.2.1)

#: Keys every profile may carry whatever its system: what the document is, the game's
#: vocabulary, the costs of its chart and what the play aids print (the title among it);
#: and ``cite`` and ``note`` anywhere. (``*`` stands for any name.)
COMMON_KEYS = frozenset({
    "kind", "system", "game", "title", "source", "cite_as", "notes", "sides", "unit_classes",
    "roles", "dice", "multi_terrain", "terrain.*.move", "terrain.*.combat", "hexsides.*.move",
    "hexsides.*.combat", "roads.*.rate",
})
#: The profile keys the kernel reads.
KERNEL_READS = frozenset({
    "terrain.*.minimum", "terrain.*.road_only", "roads.*.along", "roads.*.bridges",
    "movement.allowance", "movement.prohibited", "movement.enemy_hexes", "movement.one_hex",
    "movement.phases", "movement.ma_modifiers", "movement.stops",
    "movement.no_passing_friendly", "movement.moves_as",
    "zoc.exerted", "zoc.exerted_by", "zoc.not_exerted_by", "zoc.suspended",
    "zoc.exerted_under", "zoc.reach",
    "zoc.enter", "zoc.leave", "zoc.ezoc_to_ezoc", "zoc.ezoc_to_ezoc_barred", "zoc.by_class",
    "zoc.negated_by_friendly", "zoc.ignored_by",
    "stacking.limit", "stacking.counts", "stacking.points", "stacking.units",
    "stacking.markers", "stacking.exclusive_markers", "stacking.hex_limits",
    "stacking.no_mixing", "stacking.applies", "stacking.pass_through",
    "hexsides.*.bridged_between", "placement",
    "supply.traced", "supply.not_traced", "supply.sources", "supply.length",
    "supply.enemy_units", "supply.ezoc", "supply.blocking_hexsides", "supply.prohibited",
    "overrun",
})


@dataclass(frozen=True)
class Mover:
    """What a movement question asks of the mover's surroundings at every step, once."""

    unit_class: str                 # the class it moves and pays terrain as
    allowance: Allowance            # of the slowest mover
    effects: ZocEffects             # what an EZOC does to it
    barred: dict[Hex, Verdict]      # hexes it may not enter (enemy units, friends it may not pass)
    ezoc: frozenset[Hex]            # hexes in an enemy ZOC that affects it
    stops: dict[Hex, Verdict]       # hexes whose entry ends its move
    hop: PhaseMover | None          # the phase lets it move one hex only
    kind: tuple[object, ...]        # movers of one kind share their plain steps
    # What steps() needs at every popped state, worked out once:
    first_special: bool             # its first step may use the one-hex allowance
    all_special: bool               # every step goes through enter (hop, hexes limit...)
    leave_special: bool             # a step out of an EZOC costs or is remembered
    # Where its move may end, filled in as asked (every way there gives one answer).
    ends: dict[Hex, Verdict | None] = field(default_factory=dict, compare=False)


@dataclass
class _Table:
    """The plain steps of one kind of mover, filled in hex by hex, and what filling them in
    needs, looked up once."""

    steps: dict[Hex, Steps]
    special: frozenset[Hex]          # hexes every step into goes through enter
    costs: dict[Hex, dict[Hex, float | Verdict]] | None  # each step's cost, by the hex left
    own_costs: bool                  # the system prices steps its own way (step_cost)
    # The numbers of the special hexes, of those the mover may not enter and of the
    # remembered ones (Kernel.step_memo), worked out when first asked.
    numbers: tuple[frozenset[int], frozenset[int], frozenset[int]] | None = None


# The hooks whose answers, as the kernel gives them, depend on a step's hexes and what the
# mover remembers alone (Kernel.step_memo).
_STEP_HOOKS = ("steps", "stepper", "enter", "end", "end_checks", "end_refusals", "carried",
               "entry_cost", "one_hex_allowed", "ezoc_to_ezoc")

# A question's movers' ids, its Mover, step table, remembered hexes, the hexes where a lone
# mover's end needs a look and the refusals among them known before it (lone_refusals).
_Asking = tuple[tuple[str, ...], Mover, _Table, frozenset[Hex], frozenset[Hex],
                dict[Hex, int] | None]


class Kernel(System):
    """The shared kernel: every rule of the game's profile, no procedure of its own."""

    name: ClassVar[str] = "generic"
    title: ClassVar[str] = "the rules kernel alone, driven by the game's profile"
    reads: ClassVar[frozenset[str]] = KERNEL_READS

    #: Memory words about the hex the mover stands in: dropped by each step.
    HERE: ClassVar[frozenset[str]] = frozenset({IN_EZOC})

    # -- the mover ---------------------------------------------------------------------

    def mover(self, engine: Engine, query: MoveQuery) -> Mover:
        """The mover's rules for this question (remembered per engine)."""
        return self._asking(engine, query)[1]

    def _asking(self, engine: Engine, query: MoveQuery) -> _Asking:
        # The question's mover, step table and the hexes it looks out for, kept on the
        # engine (the search asks for them at every step; kept here, the system would hold
        # its engine in a reference cycle, and every engine's tables would wait for the
        # garbage collector). No typing.cast on this path: it is a call at every step.
        last: _Asking | None = engine.asking  # type: ignore[assignment]
        if last is not None and last[0] is query.ids:
            return last
        known = engine.movers.get(query.ids)
        if known is None:
            known = engine.movers[query.ids] = self._mover(engine, query)
        mover = cast(Mover, known)
        last = engine.asking = (query.ids, mover, self._step_table(engine, query, mover),
                                self._remembered(engine), *self._end_hexes(engine, query))
        return last

    def _remembered(self, engine: Engine) -> frozenset[Hex]:
        memo = engine.situation.position_memo
        known = memo.get(("kernel_remembered", self.name))
        if known is None:
            known = memo[("kernel_remembered", self.name)] = self.remembered_hexes(engine)
        return cast("frozenset[Hex]", known)

    def remembered_hexes(self, engine: Engine) -> frozenset[Hex]:
        """Hexes whose leaving is remembered, so a step out of one goes through :meth:`enter`:
        those of a ``stacking.hex_limits`` entry with ``once_left`` (000 §11.2.1)."""
        return frozenset(once_left_hexes(engine))

    def _end_hexes(self, engine: Engine, query: MoveQuery
                   ) -> tuple[frozenset[Hex], dict[Hex, int] | None]:
        """Where a lone mover's end needs a look, and the refusals known there before it.

        Where stacking is the plain count and this system keeps the kernel's stacking, the
        refusals are the position's (:func:`~pipeline.rules.stacking.lone_refusals`), and
        only they and the hexes that read the mover's own flag (000 §11.2.1) are looked at;
        else every hex holding units, or markers when some markers count."""
        side = query.unit.side
        memo = engine.situation.position_memo
        key = ("kernel_end_hexes", self.name, side)
        known = memo.get(key)
        if known is None:
            sit = engine.situation
            crowded = set(sit.occupants)
            if engine.profile.stacking.markers:
                crowded.update(m.hex for m in sit.markers if m.hex is not None)
            refusals = (lone_refusals(engine, side)
                        if type(self).stacking is Kernel.stacking else None)
            if refusals is not None:
                once = once_left_hexes(engine)
                crowded = {h for h in crowded if h in once}.union(refusals)
            known = memo[key] = (frozenset(crowded), refusals)
        return cast("tuple[frozenset[Hex], dict[Hex, int] | None]", known)

    def _mover(self, engine: Engine, query: MoveQuery) -> Mover:
        unit = query.unit
        unit_class = moving_class(engine, unit)
        allowance = min((unit_allowance(engine, u) for u in self.carriers(engine, query)),
                        key=lambda a: a.ma)
        ezoc = frozenset() if ignores_ezoc(engine, unit) else self._ezoc_hexes(engine, unit.side)
        hop = allowance.mover if allowance.mover is not None and (
            allowance.mover.one_hex_only) else None
        effects = zoc_effects(engine, unit_class)
        profile = engine.profile
        leave = effects.leave
        stops, signature = self.stopping(engine, unit)
        barred = self.barred(engine, query)
        # Movers of one kind share a step table: what the plain steps depend on.
        kind = ("kernel_steps", unit.side, unit_class, bool(ezoc), signature,
                query.ids if barred is not self._enemy_barred(engine, unit.side) else ())
        return Mover(unit_class, allowance, effects, barred, ezoc, stops, hop, kind,
                     first_special=profile.movement.one_hex is not None or bool(leave.one_hex),
                     all_special=(hop is not None or allowance.max_hexes is not None
                                  or not profile.stacking.pass_through),
                     leave_special=bool(leave.extra_mp or leave.no_reentry or not leave.allowed))

    def carriers(self, engine: Engine, query: MoveQuery) -> tuple[Unit, ...]:
        """The movers that move on their own (whose MA counts): every mover, unless a
        system carries some in others (002 transport)."""
        return query.movers

    def barred(self, engine: Engine, query: MoveQuery) -> dict[Hex, Verdict]:
        """Hexes the mover may not enter: enemy hexes (``movement.enemy_hexes``, except
        those holding only units it names), and hexes of friendly units it may not pass
        (``movement.no_passing_friendly``)."""
        sit, profile, unit = engine.situation, engine.profile, query.unit
        enemy = self._enemy_barred(engine, unit.side)
        no_pass = any_holds(engine, profile.movement.no_passing_friendly, unit)
        if no_pass is None:
            return enemy
        ids = set(query.ids)
        barred = dict(enemy)
        for h, here in sit.occupants.items():
            if h not in barred and any(u.side == unit.side and u.id not in ids for u in here):
                barred[h] = Verdict(False, engine.cite(getattr(no_pass, "cite", "")), None,
                                    f"{unit.id} may not move through a hex holding a friendly"
                                    " unit")
        return barred

    def _enemy_barred(self, engine: Engine, side: str) -> dict[Hex, Verdict]:
        """The enemy hexes a unit of ``side`` may not enter (``movement.enemy_hexes``):
        a fact of the position (:attr:`~pipeline.rules.situation.Situation.position_memo`)."""
        key = ("enemy_barred", side)
        memo = engine.situation.position_memo
        known = memo.get(key)
        if known is None:
            rule = engine.profile.movement.enemy_hexes
            refusal = Verdict(False, engine.cite(rule.cite), None, "holds an enemy unit")
            found: dict[Hex, Verdict] = {}
            for h, here in engine.situation.occupants.items():
                enemies = [u for u in here if u.side != side]
                if enemies and not rule.enterable and not (rule.except_holding_only and all(
                        any(selects(engine, s, e) for s in rule.except_holding_only)
                        for e in enemies)):
                    found[h] = refusal
            known = memo[key] = found
        return cast("dict[Hex, Verdict]", known)

    @staticmethod
    def _ezoc_hexes(engine: Engine, side: str) -> frozenset[Hex]:
        key = ("ezoc_hexes", side)
        memo = engine.situation.position_memo
        known = memo.get(key)
        if known is None:
            known = memo[key] = frozenset(engine.enemy_zoc(side))
        return cast("frozenset[Hex]", known)

    def stopping(self, engine: Engine, unit: Unit
                 ) -> tuple[dict[Hex, Verdict], tuple[object, ...]]:
        """Hexes whose entry ends ``unit``'s move (``movement.stops``), and which of the
        rules name it (units they name alike share the answer)."""
        rules = engine.profile.movement.stops
        signature = (unit.side, *(i for i, r in enumerate(rules) if selects(engine, r, unit)))
        key = ("stopping", signature)
        memo = engine.situation.position_memo  # the map's and the markers': the position's
        known = memo.get(key)
        if known is None:
            sit = engine.situation
            found: dict[Hex, Verdict] = {}
            for i in signature[1:]:
                assert isinstance(i, int)
                rule = rules[i]
                hexes = set(self._terrain_hexes(engine, tuple(rule.terrain)))
                for match in rule.markers:
                    for m in sit.markers:
                        if m.hex is not None and m.type == match.type and all(
                                (unit.side if v == "$side" else v) == m.get(k)
                                for k, v in match.where.items()):
                            hexes.add(m.hex)
                for h in hexes:
                    found.setdefault(h, Verdict(False, engine.cite(rule.cite), engine.name(h),
                                                f"the move must stop on entering {engine.name(h)}"))
            known = memo[key] = found
        return cast("dict[Hex, Verdict]", known), signature

    @staticmethod
    def _terrain_hexes(engine: Engine, terrain: tuple[str, ...]) -> frozenset[Hex]:
        """The hexes of the map with any of ``terrain`` (the map's alone: remembered for
        every engine on the position, :attr:`~pipeline.rules.situation.Situation.terrain_memo`)."""
        if not terrain:
            return frozenset()
        key = ("terrain_hexes", terrain)
        memo = engine.situation.terrain_memo
        known = memo.get(key)
        if known is None:
            gmap = engine.situation.map
            hexes = gmap.numbers.hexes
            known = memo[key] = frozenset(
                hexes[x] for i, tags in enumerate(gmap.terrain_mixes[0])
                if any(t in tags for t in terrain) for x in gmap.mix_hexes(i))
        return cast("frozenset[Hex]", known)

    # -- movement hooks ----------------------------------------------------------------

    def allowance(self, engine: Engine, query: MoveQuery) -> float:
        """The MP of the slowest mover this phase (:mod:`pipeline.rules.allowance`)."""
        return min(unit_allowance(engine, u).ma for u in self.carriers(engine, query))

    def start(self, engine: Engine, query: MoveQuery) -> Move | Verdict:
        """Whether the unit may move at all (its MA, the phase's movers, a modifier that
        keeps it still), and what it must remember from its start hex (in an EZOC)."""
        unit = query.unit
        assert unit.hex is not None
        if min(u.ma for u in self.carriers(engine, query)) <= 0:
            return Verdict(False, engine.cite(engine.profile.movement.allowance.cite), None,
                           f"{unit.id} has a movement allowance of 0 and cannot move")
        for u in query.movers:
            allowed = phase_mover(engine, u)
            if isinstance(allowed, Verdict):
                return allowed
        mover = self.mover(engine, query)
        still = mover.allowance.max_hexes
        if still is not None and still[0] == 0:
            return Verdict(False, still[1], None, f"{unit.id} may not move this turn")
        in_ezoc = unit.hex in mover.ezoc and not (
            query.overrun and unit.hex in self._ignored_ezoc(engine, query, mover))
        memory = frozenset({IN_EZOC}) if in_ezoc else frozenset()
        ma = 0.0 if mover.hop is not None else mover.allowance.ma
        return Move(unit.hex, 0.0, ma, memory)

    def enter(self, engine: Engine, query: MoveQuery, move: Move, to: Hex) -> Move | Verdict:
        """One step: the hex's entry, its EZOC, its cost, and what the unit must remember
        (see the module docstring)."""
        mover = self.mover(engine, query)
        barred = mover.barred.get(to)
        if barred is not None:
            if query.overrun and to in self._overrun_targets(engine, query):
                return self.overrun(engine, query, mover, move, to)
            return barred
        limit = mover.allowance.max_hexes
        if limit is not None and move.steps >= limit[0]:
            return Verdict(False, limit[1], None, f"{query.unit.id} may move only {limit[0]}"
                           f" hex{'es' if limit[0] != 1 else ''} this turn")
        from_ezoc, to_ezoc = IN_EZOC in move.memory, to in mover.ezoc
        if to_ezoc and query.overrun and to in self._ignored_ezoc(engine, query, mover):
            to_ezoc = False  # only the units it overruns put it there (003 §5.5.6)
        effects = mover.effects
        if from_ezoc and not effects.leave.allowed:
            return Verdict(False, engine.cite(effects.leave.cite), None,
                           "a unit in an EZOC may not leave it")
        if to_ezoc and LEFT_EZOC in move.memory:
            return Verdict(False, engine.cite(effects.leave.reentry_cite, effects.leave.cite),
                           None, "a unit that left an EZOC may not enter one again this phase")
        if to_ezoc:
            refused = self.may_enter_ezoc(engine, query, move, to)
            if refused is not None:
                return refused
        if from_ezoc and to_ezoc:
            refused = self.ezoc_to_ezoc_barred(engine, query, move, to)
            if refused is not None:
                return refused
        terrain = self.entry_cost(engine, query, mover, move, to)
        if isinstance(terrain, Verdict):
            return terrain
        cost = terrain
        if mover.hop is None:
            if to_ezoc:
                cost += self.ezoc_surcharge(engine, query, mover)
            if from_ezoc:
                cost += effects.leave.extra_mp
        stop: Verdict | None = None
        if from_ezoc and to_ezoc:
            e2e = self.ezoc_to_ezoc(engine, query, mover, move, to, terrain)
            if isinstance(e2e, Verdict):
                return e2e
            if e2e is not None:
                cost = cost if e2e[0] is None else e2e[0]
                stop = e2e[1]
        if stop is None and to_ezoc and effects.enter.stop:
            stop = self.ezoc_stop(engine, query, to)
        if stop is None:
            stop = mover.stops.get(to)
        if limit is not None and move.steps + 1 >= limit[0] and stop is None:
            stop = Verdict(False, limit[1], engine.name(to), f"{query.unit.id} may move only"
                           f" {limit[0]} hex{'es' if limit[0] != 1 else ''} this turn")
        memory = self.remember(engine, query, move, to, from_ezoc, to_ezoc)
        if mover.hop is not None:
            return move.then(to, 0.0, memory=memory, one_hex=True, stop=stop or Verdict(
                False, engine.cite(mover.hop.cite), engine.name(to),
                f"{query.unit.id} moves one hex in the {engine.situation.phase.replace('_', ' ')}"
                " phase"))
        if cost > move.left:
            allowance = self.one_hex_allowed(engine, query, move, to)
            if allowance is not None:
                return move.then(to, cost, memory=memory, one_hex=True, stop=stop or Verdict(
                    False, allowance, engine.name(to),
                    f"{query.unit.id} entered {engine.name(to)} by the one-hex allowance and"
                    " may move no further"))
            return self.short_of_mp(engine, query, move, to, cost, from_ezoc)
        if not engine.profile.stacking.pass_through:
            refused = self.end(engine, query, move.then(to, cost))
            if refused is not None:
                return refused
        return move.then(to, cost, memory=memory, stop=stop)

    # -- overruns ------------------------------------------------------------------------

    def _overrun_targets(self, engine: Engine, query: MoveQuery) -> frozenset[Hex]:
        """The enemy hexes a path checked as an overrun enters (none without ``overrun``)."""
        if not query.overrun or not query.path or engine.profile.overrun is None:
            return frozenset()
        key = ("overrun_targets", query.ids, query.path)
        known = engine.memo.get(key)
        if known is None:
            enemy = self._enemy_barred(engine, query.unit.side)
            known = engine.memo[key] = frozenset(h for h in query.path[1:] if h in enemy)
        return cast("frozenset[Hex]", known)

    def _ignored_ezoc(self, engine: Engine, query: MoveQuery, mover: Mover) -> frozenset[Hex]:
        """The EZOC hexes only the overrun's targets put in an EZOC, which the move ignores
        (``overrun.zoc.ignores_target``, 003 §5.5.6)."""
        rules = engine.profile.overrun
        targets = self._overrun_targets(engine, query)
        if not targets or rules is None or rules.zoc is None or not rules.zoc.ignores_target:
            return frozenset()
        key = ("overrun_ignored", query.ids, targets)
        known = engine.memo.get(key)
        if known is None:
            exerting = engine.enemy_zoc(query.unit.side)
            known = engine.memo[key] = frozenset(
                h for h in mover.ezoc if all(u.hex in targets for u in exerting.get(h, ())))
        return cast("frozenset[Hex]", known)

    def overrun(self, engine: Engine, query: MoveQuery, mover: Mover, move: Move,
                to: Hex) -> Move | Verdict:
        """``overrun``: entering the enemy hex ``to`` as an overrun, which the defender is
        taken to lose: who may (``by``, ``not_by``), when (``phases``, ``not_on_turns``),
        across and into what, from where (``zoc``), at what cost (``cost``, on top of the
        terrain); from the target the move goes on as usual (003 §5.5, §5.9.7)."""
        rules = engine.profile.overrun
        assert rules is not None
        refused = self._overrun_refused(engine, query, move, to)
        if refused is not None:
            return refused
        limit = mover.allowance.max_hexes
        if limit is not None and move.steps >= limit[0]:
            return Verdict(False, limit[1], None, f"{query.unit.id} may move only {limit[0]}"
                           f" hex{'es' if limit[0] != 1 else ''} this turn")
        terrain = self.step_cost(engine, mover.unit_class, move.hex, to)
        if isinstance(terrain, Verdict):
            return terrain
        extra = rules.cost.extra_mp if rules.cost is not None else 0.0
        cost = terrain + extra
        name = engine.name(to)
        if cost > move.left:
            cite = rules.cost.cite if rules.cost is not None else ""
            return Verdict(False, engine.cite(cite, rules.cite), None,
                           f"overrunning {name} costs {_mp(extra)} + {_mp(terrain)} for the"
                           f" terrain = {_mp(cost)} MP, and {_mp(move.left)} remain")
        # The units overrun are dislodged: the ZOC still on the hex is the others'.
        exerting = [u for u in engine.enemy_zoc(query.unit.side).get(to, ())
                    if u.hex not in self._overrun_targets(engine, query)]
        in_ezoc = bool(exerting) and not ignores_ezoc(engine, query.unit)
        # Leaving an EZOC by an overrun is not disengaging (003 §7.3): nothing to remember.
        memory = set(self.remember(engine, query, move, to, False, in_ezoc))
        memory.add(f"{OVERRAN}{name}")
        stop = mover.stops.get(to)
        if in_ezoc:
            if mover.effects.enter.stop:
                stop = Verdict(False, engine.cite(mover.effects.enter.cite), name,
                               f"{query.unit.id} overran {name}, which is in the ZOC of"
                               f" {', '.join(u.id for u in exerting)}, and must stop")
        return move.then(to, cost, memory=frozenset(memory), stop=stop)

    def _overrun_refused(self, engine: Engine, query: MoveQuery, move: Move,
                         to: Hex) -> Verdict | None:
        """Why the mover may not overrun ``to`` from where it stands, or ``None``."""
        rules = engine.profile.overrun
        assert rules is not None
        sit, name, cite = engine.situation, engine.name(to), engine.cite
        for u in self.carriers(engine, query):
            if rules.by and any_holds(engine, rules.by, u) is None:
                return Verdict(False, cite(rules.by[0].cite, rules.cite), None,
                               f"{u.id} may not overrun: only {_whos(rules.by)} do")
            barred = next((r for r in rules.not_by if selects(engine, r, u)), None)
            if barred is not None:
                return Verdict(False, cite(barred.cite, rules.cite), None,
                               f"{u.id} may not overrun: {_whos([barred])} never do")
        refused = self._overrun_limit(engine, query, move)
        if refused is not None:
            return refused
        if rules.phases is not None and sit.phase not in rules.phases.phases:
            return Verdict(False, cite(rules.phases.cite, rules.cite), None,
                           f"no overrun in the {sit.phase.replace('_', ' ')} phase")
        if rules.not_on_turns is not None and sit.turn in rules.not_on_turns.turns:
            return Verdict(False, cite(rules.not_on_turns.cite, rules.cite), None,
                           f"no overrun on turn {sit.turn}")
        crossed = sit.map.features(move.hex, to)
        if rules.not_across is not None:
            river = next((f for f in rules.not_across.hexsides if f in crossed), None)
            if river is not None:
                return Verdict(False, cite(rules.not_across.cite, rules.cite), None,
                               f"no overrun across a {river.replace('_', ' ')} hexside")
        tags = sit.map.tags(to)
        if rules.not_into is not None:
            into = next((t for t in rules.not_into.terrain if t in tags), None)
            if into is not None:
                return Verdict(False, cite(rules.not_into.cite, rules.cite), None,
                               f"no overrun into a {into.replace('_', ' ')} hex")
        only = rules.only_into
        if only is not None and any(t not in only.terrain for t in tags):
            return Verdict(False, cite(only.cite, rules.cite), None, "overruns only into"
                           f" {' or '.join(t.replace('_', ' ') for t in only.terrain)} hexes")
        barred_by = rules.barred_by_markers
        marker = next((k for k in barred_by.markers if sit.markers_in(to, k)), None) \
            if barred_by is not None else None
        if barred_by is not None and marker is not None:
            return Verdict(False, cite(barred_by.cite, rules.cite), None, f"a {marker} in"
                           f" {name} prevents overruns")
        return self._overrun_zoc_refused(engine, query, move, to)

    def _overrun_limit(self, engine: Engine, query: MoveQuery, move: Move) -> Verdict | None:
        """``overrun.per_phase``: a unit that made its overruns this phase makes no more
        (003 §5.5.1: two for armored, panzer and panzer-grenadier divisions, one for a US
        truck-mechanized infantry division). Those made before the path are the
        position's ``overruns`` (none if it does not say), those on it are counted along it;
        each unit making the overrun is held to its own limit."""
        rules = engine.profile.overrun
        assert rules is not None
        on_path = sum(w.startswith(OVERRAN) for w in move.memory)
        for u in self.carriers(engine, query):
            limit = next((r for r in rules.per_phase if selects(engine, r, u)), None)
            if limit is None:
                continue
            before = int(u.get(OVERRUNS_MADE, 0))
            if before + on_path < limit.count:
                continue
            earlier = f", {before} before this move" if before else ""
            return Verdict(False, engine.cite(limit.cite, rules.cite), None,
                           f"{u.id} has made its {limit.count} overrun"
                           f"{'s' if limit.count != 1 else ''} this phase{earlier}"
                           f" ({_whos([limit])} make at most {limit.count})")
        return None

    def _overrun_zoc_refused(self, engine: Engine, query: MoveQuery, move: Move,
                             to: Hex) -> Verdict | None:
        """``overrun.zoc``: not after leaving an EZOC this phase, not from a hex in the ZOC
        of enemy units it does not overrun (those it overran already are gone)."""
        rules = engine.profile.overrun
        assert rules is not None
        zoc = rules.zoc
        if zoc is None or ignores_ezoc(engine, query.unit):
            return None
        cite = engine.cite(zoc.cite, rules.cite)
        if zoc.not_after_leaving and LEFT_EZOC in move.memory:
            return Verdict(False, cite, None, f"{query.unit.id} left an EZOC this phase and"
                           " may not overrun")
        if zoc.not_from_other_ezoc:
            gone = {w[len(OVERRAN):] for w in move.memory if w.startswith(OVERRAN)}
            others = [u for u in engine.enemy_zoc(query.unit.side).get(move.hex, ())
                      if u.hex is not None and u.hex != to and engine.name(u.hex) not in gone]
            if others:
                return Verdict(False, cite, None, f"{engine.name(move.hex)} is in the ZOC of"
                               f" {', '.join(u.id for u in others)}, which {query.unit.id}"
                               f" does not overrun: no overrun from there")
        return None

    def entry_cost(self, engine: Engine, query: MoveQuery, mover: Mover, move: Move,
                   to: Hex) -> float | Verdict:
        """The terrain cost of the step (nothing for a one-hex phase move that ignores
        terrain, 003 §5.3.7, though prohibited terrain still stops it)."""
        if mover.hop is not None and mover.hop.ignore_terrain:
            refused = prohibiting(engine, move.hex, to, mover.unit_class)
            return refused if refused is not None else 0.0
        return self.step_cost(engine, mover.unit_class, move.hex, to)

    def step_cost(self, engine: Engine, unit_class: str, frm: Hex, to: Hex) -> float | Verdict:
        """MP to step from ``frm`` into ``to`` (:func:`pipeline.rules.terrain.step_cost`)."""
        return step_cost(engine, unit_class, frm, to)

    def ezoc_surcharge(self, engine: Engine, query: MoveQuery, mover: Mover) -> float:
        """``zoc.enter``: extra MP and a share of the printed MA for entering an EZOC."""
        enter = mover.effects.enter
        if any_holds(engine, enter.free_for, query.unit) is not None:
            return 0.0
        extra = enter.extra_mp
        if enter.extra_ma_fraction is not None:
            share = query.unit.ma * enter.extra_ma_fraction
            extra += math.floor(share) if enter.rounding == "down" else math.ceil(share)
        return float(extra)

    def ezoc_stop(self, engine: Engine, query: MoveQuery, to: Hex) -> Verdict:
        """The stop on entering an EZOC, citing the rule behind it: a unit's own rule for
        exerting one (``zoc.exerted_under``), the rule that friendly units do not negate
        it for movement when one is there, else ``zoc.enter``."""
        unit, name = query.unit, engine.name(to)
        exerting = engine.enemy_zoc(unit.side).get(to, ())
        by = ", ".join(u.id for u in exerting)
        cite = exerted_cite(engine, exerting)
        negation = engine.profile.zoc.negated_by_friendly
        ids = {u.id for u in query.movers}
        friendly = any(u.side == unit.side and u.id not in ids
                       for u in engine.situation.units_in(to))
        if cite is None and friendly and "movement" not in negation.purposes and negation.cite:
            return Verdict(False, engine.cite(negation.cite), name,
                           f"the friendly unit in {name} does not negate the ZOC of {by} for"
                           f" movement: {unit.id} must stop there")
        enter = self.mover(engine, query).effects.enter
        return Verdict(False, cite or engine.cite(enter.cite), name,
                       f"{unit.id} entered the ZOC of {by} in {name} and must stop")

    def ezoc_to_ezoc_barred(self, engine: Engine, query: MoveQuery, move: Move,
                            to: Hex) -> Verdict | None:
        """``zoc.ezoc_to_ezoc_barred``: no EZOC-to-EZOC step across these hexsides or into
        these terrains, except for the units it exempts (000 §6.1 Exception)."""
        rule = engine.profile.zoc.ezoc_to_ezoc_barred
        if rule is None or any(selects(engine, s, query.unit) for s in rule.exempt):
            return None
        gmap = engine.situation.map
        crossed = [f for f in rule.hexsides if f in gmap.features(move.hex, to)]
        entered = [t for t in rule.terrain if gmap.has(to, t)]
        if not crossed and not entered:
            return None
        what = f"across a {crossed[0]} hexside" if crossed else f"into a {entered[0]} hex"
        return Verdict(False, engine.cite(rule.cite), None, f"EZOC to EZOC {what} is forbidden")

    def ezoc_to_ezoc(self, engine: Engine, query: MoveQuery, mover: Mover, move: Move, to: Hex,
                     terrain: float) -> Verdict | tuple[float | None, Verdict] | None:
        """``zoc.ezoc_to_ezoc`` for the unit's class, given the step's terrain cost: ``None``
        (allowed, as is), a refusal (``at`` empty), or the step's new cost (``None``: as it
        is) and the stop it ends with."""
        rule = mover.effects.ezoc_to_ezoc
        cite, name, unit = engine.cite(rule.cite), engine.name(to), query.unit
        if mover.hop is not None:
            return Verdict(False, engine.cite(mover.hop.cite), None,
                           "a one-hex move may not go from an EZOC into another")
        if rule.mode == "prohibited":
            return Verdict(False, cite, None, "EZOC to EZOC: a unit leaves an EZOC only into"
                           " a hex free of EZOC")
        if rule.mode == "one_hex_into_friendly":
            ids = {u.id for u in query.movers}
            if not any(u.side == unit.side and u.id not in ids
                       for u in engine.situation.units_in(to)):
                return Verdict(False, cite, None, f"{unit.id} may move from an EZOC into the"
                               f" EZOC in {name} only when a friendly unit is there")
            return None, Verdict(False, cite, name, f"{unit.id} moved from an EZOC into {name},"
                                 " which holds a friendly unit, and must stop there")
        if rule.mode == "whole_ma":
            if move.steps > 0 or terrain > move.ma:
                return Verdict(False, cite, None, f"EZOC to EZOC needs the whole MA"
                               f" ({_mp(move.ma)}) at the start of the move, and the terrain"
                               f" costs {_mp(terrain)}")
            return move.ma, Verdict(
                False, cite, name, f"{unit.id} moved from an EZOC into another by spending its"
                " whole MA and must stop")
        return None

    def remember(self, engine: Engine, query: MoveQuery, move: Move, to: Hex, from_ezoc: bool,
                 to_ezoc: bool) -> frozenset[str]:
        """What the mover remembers after entering ``to``: the words it carries along, less
        those about the hex it left (:attr:`HERE`)."""
        memory = set(move.memory - self.HERE)
        if from_ezoc and self.mover(engine, query).effects.leave.no_reentry:
            memory.add(LEFT_EZOC)
        left = once_left_hexes(engine).get(move.hex)
        if left is not None:
            memory.add(f"{LEFT_HEX}{left}:{engine.name(move.hex)}")  # 000 §11.2.1
        if to_ezoc:
            memory.add(IN_EZOC)
        return frozenset(memory)

    def may_enter_ezoc(self, engine: Engine, query: MoveQuery, move: Move,
                       to: Hex) -> Verdict | None:
        """Why the mover may not step into the EZOC hex ``to`` at all (a system's own
        rule), or ``None``; the kernel has none."""
        return None

    def one_hex_allowed(self, engine: Engine, query: MoveQuery, move: Move,
                        to: Hex) -> str | None:
        """The rule letting the first step go beyond the MP, or ``None``: ``movement.one_hex``
        for a unit whose printed MA is above 0 (unless it starts in an EZOC and the rule
        says not then), or ``zoc.leave.one_hex`` for a unit leaving an EZOC from and into
        the terrain it names (003 §5.6.4)."""
        rule = engine.profile.movement.one_hex
        if move.steps > 0 or min(u.ma for u in self.carriers(engine, query)) <= 0:
            return None
        if rule is not None and (rule.from_ezoc or IN_EZOC not in move.memory):
            return engine.cite(rule.cite)
        if IN_EZOC in move.memory and to not in self.mover(engine, query).ezoc:
            gmap = engine.situation.map
            for out in self.mover(engine, query).effects.leave.one_hex:
                if selects(engine, out, query.unit) and all(
                        any(gmap.has(h, t) for t in out.terrain)
                        and not any(gmap.has(h, t) for t in out.unless_terrain)
                        for h in (move.hex, to)):
                    return engine.cite(out.cite)
        return None

    def short_of_mp(self, engine: Engine, query: MoveQuery, move: Move, to: Hex, cost: float,
                    from_ezoc: bool) -> Verdict:
        """The refusal of a step whose MP the mover does not have (:meth:`over_budget`)."""
        return self.over_budget(engine, query, move, to, cost)

    def carried(self, memory: frozenset[str]) -> frozenset[str]:
        """The memory a plain step keeps (all but the words about the hex left)."""
        return memory - self.HERE

    def steps(self, engine: Engine, query: MoveQuery, move: Move) -> Steps:
        """Plain steps: into a hex the mover may enter, outside an EZOC, that does not stop
        it, at its terrain cost. The first step (when a one-hex rule may apply), a one-hex
        phase move, a move limited in hexes and a step out of an EZOC that costs or that
        must be remembered go through :meth:`enter`. One table per kind of mover, filled in
        hex by hex as the searches ask."""
        last: _Asking | None = engine.asking  # type: ignore[assignment]
        if last is None or last[0] is not query.ids:
            last = self._asking(engine, query)
        mover, kind, remembered = last[1], last[2], last[3]
        if (mover.all_special or (mover.first_special and move.steps == 0)
                or (mover.leave_special and IN_EZOC in move.memory)
                or (remembered and move.hex in remembered)):
            return (), engine.grid.adjacency[move.hex]
        known = kind.steps.get(move.hex)
        if known is None:
            known = kind.steps[move.hex] = self._split(engine, kind, mover.unit_class, move.hex)
        return known

    def stepper(self, engine: Engine, query: MoveQuery) -> Callable[[Move], Steps]:
        """:meth:`steps` with the question's mover and step table bound once (the search
        calls it at every state it settles); a system that overrides :meth:`steps` is
        asked through it."""
        if type(self).steps is not Kernel.steps:
            return super().stepper(engine, query)
        _, mover, kind, remembered, _, _ = self._asking(engine, query)
        table, adjacency, split, unit_class = (
            kind.steps, engine.grid.adjacency, self._split, mover.unit_class)
        if mover.all_special:
            return lambda move: ((), adjacency[move.hex])
        first, leave = mover.first_special, mover.leave_special

        def steps(move: Move) -> Steps:
            h = move.hex
            if ((first and move.steps == 0) or (leave and IN_EZOC in move.memory)
                    or (remembered and h in remembered)):
                return (), adjacency[h]
            known = table.get(h)
            if known is None:
                known = table[h] = split(engine, kind, unit_class, h)
            return known

        return steps

    def step_memo(self, engine: Engine, query: MoveQuery) -> PlainSteps | None:
        """Where this kind of mover's step table is kept (:meth:`_step_table`), the hexes it
        may not enter (:meth:`barred`, refused first by :meth:`enter`) and its plain steps by
        number; ``None`` for a move limited in hexes or to one hex (a step's answer depends
        on the steps before) and for a system with its own :meth:`steps`, :meth:`enter`,
        :meth:`end`, :meth:`carried`, :meth:`entry_cost`, :meth:`one_hex_allowed` or
        :meth:`ezoc_to_ezoc`. The hooks :meth:`enter` asks that a system may replace
        (:meth:`may_enter_ezoc`, :meth:`step_cost`, :meth:`remember`...) answer from the
        step alone: the hexes and what the mover remembers."""
        cls = type(self)
        if any(getattr(cls, hook) is not getattr(Kernel, hook) for hook in _STEP_HOOKS):
            return None
        _, mover, kind, remembered, _, _ = self._asking(engine, query)
        if mover.all_special or mover.hop is not None:
            return None
        own_costs = cls.step_cost is not Kernel.step_cost
        memo = (engine.memo if own_costs or mover.kind[-1]
                else engine.situation.position_memo)
        if kind.numbers is None:
            number = numbering(engine).ids.__getitem__
            kind.numbers = (frozenset(map(number, kind.special)),
                            frozenset(map(number, mover.barred)),
                            frozenset(map(number, remembered)))
        return PlainSteps(memo, (self.name, *mover.kind), kind.numbers[1],
                          self._numbered_row(engine, query, mover, kind),
                          None if own_costs else self._scaled_rows(engine, mover, kind))

    @staticmethod
    def _scaled_rows(engine: Engine, mover: Mover, kind: _Table
                     ) -> Callable[[int], Callable[[Engine, int], ScaledSteps | None] | None]:
        """:meth:`_numbered_row` in whole units of MP, the terrain's rows made for the map at
        once (:meth:`~pipeline.rules.terrain.StepCosts.scaled_rows`); a remembered hex's
        steps all go through enter."""
        assert kind.numbers is not None
        skip, barred, remembered = kind.numbers
        costs, unit_class = StepCosts.of(engine), mover.unit_class
        return functools.partial(costs.scaled_rows, engine, unit_class, skip=skip,
                                 barred=barred, through=remembered)

    def _numbered_row(self, engine: Engine, query: MoveQuery, mover: Mover, kind: _Table
                      ) -> Callable[[int], NumberedSteps]:
        """:meth:`steps` of a state that remembers nothing, after the first step, by the
        hexes' numbers: split as :meth:`_split` splits them."""
        numbers = numbering(engine)
        around, hexes = numbers.around, numbers.hexes
        assert kind.numbers is not None
        special_numbers, _, remembered = kind.numbers
        unit_class = mover.unit_class
        if kind.own_costs:
            stepper = self.stepper(engine, query)
            ids = numbers.ids

            def by_hex(x: int) -> NumberedSteps:
                plain, special = stepper(Move(hexes[x], 0.0, mover.allowance.ma, steps=1))
                return (tuple((cost, ids[n]) for n, cost in plain),
                        tuple(ids[n] for n in special))

            return by_hex
        priced = StepCosts.of(engine).numbered

        def row(x: int) -> NumberedSteps:
            if x in remembered:
                return (), around[x]
            # A step the terrain refuses, like one into a special hex, goes through enter.
            return priced(engine, unit_class, x, special_numbers)

        return row

    def _split(self, engine: Engine, kind: _Table, unit_class: str, here: Hex) -> Steps:
        """The neighbours of ``here`` split as :meth:`steps` says. What each step costs
        depends only on the map, the chart and the profile: the terrain's costs are the
        situation's (:class:`~pipeline.rules.terrain.StepCosts`), shared by its engines; a
        system's own pricing (:meth:`step_cost`) is remembered per engine, by hex left."""
        special_hexes = kind.special
        cost_of = (self._own_costs(engine, kind, unit_class, here) if kind.own_costs
                   else functools.partial(StepCosts.of(engine).step, engine, unit_class, here))
        plain: list[tuple[Hex, float]] = []
        special: list[Hex] = []
        for n in engine.grid.adjacency[here]:
            if n in special_hexes:
                special.append(n)
                continue
            cost = cost_of(n)
            if cost.__class__ is Verdict:
                special.append(n)
            else:
                plain.append((n, cost))  # type: ignore[arg-type]
        return tuple(plain), tuple(special)

    def _own_costs(self, engine: Engine, kind: _Table, unit_class: str, here: Hex
                   ) -> Callable[[Hex], float | Verdict]:
        """The system's own :meth:`step_cost` of each step from ``here``, remembered."""
        by_hex = kind.costs
        if by_hex is None:
            by_hex = kind.costs = cast("dict[Hex, dict[Hex, float | Verdict]]",
                                       engine.memo.setdefault(("kernel_costs", unit_class), {}))
        rows = by_hex.setdefault(here, {})

        def cost(n: Hex) -> float | Verdict:
            known = rows.get(n)
            if known is None:
                known = rows[n] = self.step_cost(engine, unit_class, here, n)
            return known

        return cost

    def _step_table(self, engine: Engine, query: MoveQuery, mover: Mover) -> _Table:
        """The plain-step table of this mover: shared by every mover of the same kind (side,
        class, the hexes it may not enter, that are in an EZOC for it or stop it).

        What a kind's plain steps are depends on the position alone (its map, chart and
        profile, where enemy units bar and their zones reach): kept for every engine on the
        position. A table of one mover's own (friends it may not pass) or priced by the
        system's own :meth:`step_cost` is kept per engine."""
        own_costs = type(self).step_cost is not Kernel.step_cost
        memo = (engine.memo if own_costs or mover.kind[-1]
                else engine.situation.position_memo)
        key = (self.name, *mover.kind)
        known = memo.get(key)
        if known is None:
            known = memo[key] = _Table(
                {}, frozenset(mover.barred).union(mover.ezoc, mover.stops), None, own_costs)
        return cast(_Table, known)

    def over_budget(self, engine: Engine, query: MoveQuery, move: Move, to: Hex,
                    cost: float) -> Verdict:
        """Short of MP: cites the rule that took the missing MP away (the allowance's own,
        a phase's, a modifier's: :meth:`~pipeline.rules.allowance.Allowance.taken_by`)."""
        allowance = self.mover(engine, query).allowance
        need = move.spent + cost
        # The refusal reads only the numbers and the allowance's rules: movers alike share it.
        key = ("kernel_short", need, cost, move.ma, allowance.chain)
        known = engine.memo.get(key)
        if known is None:
            known = engine.memo[key] = Verdict(
                False, allowance.taken_by(need), None,
                f"entering costs {_mp(cost)} MP, {_mp(need)} in all, and only {_mp(move.ma)}"
                " are available")
        return cast(Verdict, known)

    def end(self, engine: Engine, query: MoveQuery, move: Move) -> Verdict | None:
        """Stacking where the move ends, with the friendly units already there (the same
        answer for every way of getting there: remembered per hex and mover); a unit that
        left a hex it may not stack again after (000 §11.2.1) may not end stacked."""
        if move.memory:
            refused = self._left_and_stacked(engine, query, move)
            if refused is not None:
                return refused
        last: _Asking | None = engine.asking  # type: ignore[assignment]
        if last is None or last[0] is not query.ids:
            last = self._asking(engine, query)
        if len(query.movers) == 1:
            if move.hex not in last[4]:
                return None  # alone, or within the count (Kernel._end_hexes)
            lone = last[5]
            # Its own hex counts it among the friends there: asked below (a path back).
            if lone is not None and move.hex in lone and move.hex != query.unit.hex:
                return plain_count(engine, move.hex, lone[move.hex])
        ends = last[1].ends
        if move.hex in ends:
            return ends[move.hex]
        sit = engine.situation
        ids = set(query.ids)
        others = tuple(u for u in sit.units_in(move.hex)
                       if u.id not in ids and u.side == query.unit.side)
        verdict: Verdict | None = None
        if others or len(query.movers) > 1 or counted_markers(engine, move.hex):
            found = self.stacking(engine, move.hex, others + query.movers)
            verdict = None if found.legal else found
        ends[move.hex] = verdict
        return verdict

    def end_checks(self, engine: Engine, query: MoveQuery) -> frozenset[Hex] | None:
        """A lone mover's end is refused only where units (or counted markers) are, or by
        what it remembers (:meth:`end`); a stack's anywhere."""
        if len(query.movers) != 1:
            return None
        return self._asking(engine, query)[4]

    def end_refusals(self, engine: Engine, query: MoveQuery) -> Container[Hex] | None:
        """A lone mover's refusals where stacking is the plain count
        (:func:`~pipeline.rules.stacking.lone_refusals`): :meth:`end` words them."""
        if len(query.movers) != 1:
            return None
        return self._asking(engine, query)[5]

    @staticmethod
    def _left_and_stacked(engine: Engine, query: MoveQuery, move: Move) -> Verdict | None:
        words = [w for w in move.memory if w.startswith(LEFT_HEX)]
        if not words:
            return None
        ids = set(query.ids)
        others = [u.id for u in engine.situation.units_in(move.hex) if u.id not in ids]
        if not others:
            return None
        index, left = sorted(words)[0][len(LEFT_HEX):].split(":", 1)
        rule = engine.profile.stacking.hex_limits[int(index)]
        assert rule.once_left is not None
        return Verdict(False, engine.cite(rule.once_left.cite, rule.cite), engine.name(move.hex),
                       f"{query.unit.id} left {left} ({hex_limit_words(rule)}) on this move"
                       f" and may not stack again: {', '.join(others)} in"
                       f" {engine.name(move.hex)}")

    def placement(self, engine: Engine, unit: Unit, h: Hex) -> Verdict:
        """``placement``: where a reinforcement may be placed (markers, terrain), never on
        an enemy unit, not in an EZOC from some turn unless a friendly unit is there, and
        within the stacking limits (000 §11.2.4)."""
        rules = engine.profile.placement
        sit, name = engine.situation, engine.name(h)
        if rules is None:
            raise RulesError(f"{engine.profile.file or 'the rules profile'}: placement: the"
                             " profile says nothing of where reinforcements are placed")
        if sit.enemy_in(h, unit.side):
            return Verdict(False, engine.cite(rules.enemy_occupied.cite, rules.cite), name,
                           "an enemy unit occupies the hex")
        gmap = sit.map
        if rules.terrain and not any(gmap.has(h, t) for t in rules.terrain):
            return Verdict(False, engine.cite(rules.cite), name,
                           f"reinforcements are placed only in {' or '.join(rules.terrain)} hexes")
        if rules.markers and not any(m.type == match.type and all(
                (unit.side if v == "$side" else v) == m.get(k) for k, v in match.where.items())
                for match in rules.markers for m in sit.markers_in(h)):
            kinds = " or ".join(m.type for m in rules.markers)
            return Verdict(False, engine.cite(rules.cite), name,
                           f"reinforcements are placed only in hexes with a {kinds} marker")
        friends = [u for u in sit.units_in(h) if u.side == unit.side and u.id != unit.id]
        ezoc = rules.not_in_ezoc
        if (ezoc is not None and sit.turn >= ezoc.from_turn and engine.in_enemy_zoc(h, unit.side)
                and not (ezoc.unless_friendly and friends)):
            return Verdict(False, engine.cite(ezoc.cite, rules.cite), name,
                           "the hex is in an EZOC" + (" and holds no friendly unit"
                                                      if ezoc.unless_friendly else ""))
        return self.stacking(engine, h, (*friends, unit))

    # -- zones of control ----------------------------------------------------------------

    def exerts_zoc(self, engine: Engine, unit: Unit) -> bool:
        """``zoc.exerted``, ``zoc.exerted_by`` and ``zoc.not_exerted_by``."""
        return exerts_zoc(engine, unit)

    def zoc_reaches(self, engine: Engine, unit: Unit, into: Hex) -> bool:
        """``zoc.reach``: blocking hexsides, terrain it does not enter, prohibited terrain."""
        return zoc_reaches(engine, unit, into)

    def zone_of_control(self, engine: Engine, unit: Unit) -> list[Hex]:
        """The neighbours of an exerting unit its ZOC reaches: all six where ``zoc.reach``
        says nothing (every fresh engine works this out for every unit)."""
        if unit.hex is None or not self.exerts_zoc(engine, unit):
            return []
        here, reach = unit.hex, engine.profile.zoc.reach
        around = engine.grid.adjacency[here]
        if type(self).zoc_reaches is not Kernel.zoc_reaches:
            return [n for n in around if self.zoc_reaches(engine, unit, n)]
        if not (reach.blocked_by_hexsides or reach.not_across_prohibited
                or reach.not_into_terrain):
            return list(around)
        return list(zoc_around(engine, unit, moving_class(engine, unit)
                               if reach.not_across_prohibited else ""))

    def zones_of_control(self, engine: Engine, units: Sequence[Unit]
                         ) -> Iterable[tuple[Unit, Sequence[Hex]]]:
        """:meth:`zone_of_control` of each unit, the profile's rules read once for them all
        (a new position asks it of every unit): who exerts one
        (:func:`~pipeline.rules.zoc.exerting`) and where it reaches
        (:func:`~pipeline.rules.zoc.zones_around`)."""
        cls = type(self)
        if (cls.zone_of_control is not Kernel.zone_of_control
                or cls.exerts_zoc is not Kernel.exerts_zoc
                or cls.zoc_reaches is not Kernel.zoc_reaches):
            return super().zones_of_control(engine, units)
        found = exerting(engine, [u for u in units if u.hex is not None])
        reach, adjacency = engine.profile.zoc.reach, engine.grid.adjacency
        if not (reach.blocked_by_hexsides or reach.not_across_prohibited
                or reach.not_into_terrain):
            return [(u, adjacency[u.hex]) for u in found]  # type: ignore[index]
        classes = (moving_classes(engine, found) if reach.not_across_prohibited
                   else [""] * len(found))
        return zip(found, zones_around(engine, found, classes), strict=True)

    # -- stacking and supply --------------------------------------------------------------

    def stacking(self, engine: Engine, h: Hex, units: tuple[Unit, ...]) -> Verdict:
        """``stacking``: the limit by count or points, what counts, what never mixes."""
        return stacking_verdict(engine, h, units)

    def supply(self, engine: Engine, units: list[Unit]) -> dict[str, SupplyAnswer]:
        """``supply``: every side's units from one search, the cut-off ones told the binding
        limit (:mod:`pipeline.rules.supply`)."""
        return supply_answers(engine, units)


def _mp(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _whos(selectors: Sequence[UnitSelector]) -> str:
    """Who a list of selectors names, in words ("mechanized units of size division")."""
    return " or ".join(who(s) for s in selectors)
