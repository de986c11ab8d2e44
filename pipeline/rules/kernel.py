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
where the move ends (and on the way unless ``stacking.pass_through``).

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

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pipeline.hexgrid import Hex
from pipeline.model.rulesprofile import PhaseMover
from pipeline.rules.allowance import Allowance, phase_mover, unit_allowance
from pipeline.rules.movement import Move, MoveQuery
from pipeline.rules.select import any_holds, moving_class, selects
from pipeline.rules.situation import Unit
from pipeline.rules.stacking import counted_markers, stacking_verdict
from pipeline.rules.supply import supply_answers
from pipeline.rules.systems.base import Steps, System
from pipeline.rules.terrain import prohibiting, step_cost
from pipeline.rules.verdict import SupplyAnswer, Verdict
from pipeline.rules.zoc import (
    ZocEffects,
    exerted_cite,
    exerts_zoc,
    ignores_ezoc,
    zoc_effects,
    zoc_reaches,
)

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["COMMON_KEYS", "IN_EZOC", "KERNEL_READS", "LEFT_EZOC", "Kernel", "Mover"]

IN_EZOC = "in_ezoc"      # the mover stands in an EZOC (a word about the hex it is in)
LEFT_EZOC = "left_ezoc"  # it left an EZOC this phase (zoc.leave.no_reentry)

#: Keys every profile may carry whatever its system: what the document is, the game's
#: vocabulary, the costs of its chart and what the play aids print; and ``cite`` and
#: ``note`` anywhere. (``*`` stands for any name.)
COMMON_KEYS = frozenset({
    "kind", "system", "game", "source", "cite_as", "notes", "sides", "unit_classes", "roles",
    "dice", "multi_terrain", "terrain.*.move", "terrain.*.combat", "hexsides.*.move",
    "hexsides.*.combat", "roads.*.rate",
})
#: The profile keys the kernel reads.
KERNEL_READS = frozenset({
    "terrain.*.minimum", "terrain.*.road_only", "roads.*.along", "roads.*.bridges",
    "movement.allowance", "movement.prohibited", "movement.enemy_hexes", "movement.one_hex",
    "movement.phases", "movement.ma_modifiers", "movement.stops",
    "movement.no_passing_friendly", "movement.moves_as",
    "zoc.exerted", "zoc.exerted_by", "zoc.not_exerted_by", "zoc.exerted_under", "zoc.reach",
    "zoc.enter", "zoc.leave", "zoc.ezoc_to_ezoc", "zoc.ezoc_to_ezoc_barred", "zoc.by_class",
    "zoc.negated_by_friendly", "zoc.ignored_by",
    "stacking.limit", "stacking.counts", "stacking.points", "stacking.units",
    "stacking.markers", "stacking.exclusive_markers", "stacking.hex_limits",
    "stacking.no_mixing", "stacking.applies", "stacking.pass_through",
    "supply.traced", "supply.not_traced", "supply.sources", "supply.length",
    "supply.enemy_units", "supply.ezoc", "supply.blocking_hexsides", "supply.prohibited",
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
        key = ("kernel_mover", tuple(u.id for u in query.movers))
        known = engine.memo.get(key)
        if known is None:
            known = engine.memo[key] = self._mover(engine, query)
        assert isinstance(known, Mover)
        return known

    def _mover(self, engine: Engine, query: MoveQuery) -> Mover:
        unit = query.unit
        unit_class = moving_class(engine, unit)
        allowance = min((unit_allowance(engine, u) for u in query.movers),
                        key=lambda a: a.ma)
        ezoc = frozenset() if ignores_ezoc(engine, unit) else frozenset(
            engine.enemy_zoc(unit.side))
        hop = allowance.mover if allowance.mover is not None and (
            allowance.mover.one_hex_only) else None
        return Mover(unit_class, allowance, zoc_effects(engine, unit_class),
                     self.barred(engine, query), ezoc, self.stopping(engine, unit), hop)

    def barred(self, engine: Engine, query: MoveQuery) -> dict[Hex, Verdict]:
        """Hexes the mover may not enter: enemy hexes (``movement.enemy_hexes``, except
        those holding only units it names), and hexes of friendly units it may not pass
        (``movement.no_passing_friendly``)."""
        sit, profile, unit = engine.situation, engine.profile, query.unit
        rule = profile.movement.enemy_hexes
        ids = {u.id for u in query.movers}
        no_pass = any_holds(engine, profile.movement.no_passing_friendly, unit)
        barred: dict[Hex, Verdict] = {}
        for h, here in sit.occupants.items():
            enemies = [u for u in here if u.side != unit.side]
            if enemies and not rule.enterable and not (rule.except_holding_only and all(
                    any(selects(engine, s, e) for s in rule.except_holding_only)
                    for e in enemies)):
                barred[h] = Verdict(False, engine.cite(rule.cite), engine.name(h),
                                    "holds an enemy unit")
            elif no_pass is not None and any(u.side == unit.side and u.id not in ids
                                             for u in here):
                barred[h] = Verdict(False, engine.cite(getattr(no_pass, "cite", "")),
                                    engine.name(h), f"{unit.id} may not move through a hex"
                                    " holding a friendly unit")
        return barred

    def stopping(self, engine: Engine, unit: Unit) -> dict[Hex, Verdict]:
        """Hexes whose entry ends ``unit``'s move (``movement.stops``)."""
        sit = engine.situation
        found: dict[Hex, Verdict] = {}
        for rule in engine.profile.movement.stops:
            if not selects(engine, rule, unit):
                continue
            hexes = {h for h in engine.grid.adjacency
                     if any(sit.map.has(h, t) for t in rule.terrain)}
            for match in rule.markers:
                for m in sit.markers:
                    if m.hex is not None and m.type == match.type and all(
                            (unit.side if v == "$side" else v) == m.get(k)
                            for k, v in match.where.items()):
                        hexes.add(m.hex)
            for h in hexes:
                found.setdefault(h, Verdict(False, engine.cite(rule.cite), engine.name(h),
                                            f"{unit.id} must stop on entering {engine.name(h)}"))
        return found

    # -- movement hooks ----------------------------------------------------------------

    def allowance(self, engine: Engine, query: MoveQuery) -> float:
        """The MP of the slowest mover this phase (:mod:`pipeline.rules.allowance`)."""
        return min(unit_allowance(engine, u).ma for u in query.movers)

    def start(self, engine: Engine, query: MoveQuery) -> Move | Verdict:
        """Whether the unit may move at all (its MA, the phase's movers, a modifier that
        keeps it still), and what it must remember from its start hex (in an EZOC)."""
        unit = query.unit
        assert unit.hex is not None
        if min(u.ma for u in query.movers) <= 0:
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
        memory = frozenset({IN_EZOC}) if unit.hex in mover.ezoc else frozenset()
        ma = 0.0 if mover.hop is not None else mover.allowance.ma
        return Move(unit.hex, 0.0, ma, memory)

    def enter(self, engine: Engine, query: MoveQuery, move: Move, to: Hex) -> Move | Verdict:
        """One step: the hex's entry, its EZOC, its cost, and what the unit must remember
        (see the module docstring)."""
        mover = self.mover(engine, query)
        barred = mover.barred.get(to)
        if barred is not None:
            return barred
        limit = mover.allowance.max_hexes
        if limit is not None and move.steps >= limit[0]:
            return Verdict(False, limit[1], None, f"{query.unit.id} may move only {limit[0]}"
                           f" hex{'es' if limit[0] != 1 else ''} this turn")
        from_ezoc, to_ezoc = IN_EZOC in move.memory, to in mover.ezoc
        effects = mover.effects
        if from_ezoc and not effects.leave.allowed:
            return Verdict(False, engine.cite(effects.leave.cite), None,
                           "a unit in an EZOC may not leave it")
        if to_ezoc and LEFT_EZOC in move.memory:
            return Verdict(False, engine.cite(effects.leave.cite), None,
                           "a unit that left an EZOC may not enter one again this phase")
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
            if self.one_hex_allowed(engine, query, move, to):
                rule = engine.profile.movement.one_hex
                assert rule is not None
                return move.then(to, cost, memory=memory, one_hex=True, stop=stop or Verdict(
                    False, engine.cite(rule.cite), engine.name(to),
                    f"{query.unit.id} entered {engine.name(to)} by the one-hex allowance and"
                    " may move no further"))
            return self.over_budget(engine, query, move, to, cost)
        if not engine.profile.stacking.pass_through:
            refused = self.end(engine, query, move.then(to, cost))
            if refused is not None:
                return refused
        return move.then(to, cost, memory=memory, stop=stop)

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
        if to_ezoc:
            memory.add(IN_EZOC)
        return frozenset(memory)

    def one_hex_allowed(self, engine: Engine, query: MoveQuery, move: Move, to: Hex) -> bool:
        """``movement.one_hex``: the first step of a unit whose printed MA is above 0 may go
        beyond its MP, unless it starts in an EZOC and the rule says not then."""
        rule = engine.profile.movement.one_hex
        if rule is None or move.steps > 0 or min(u.ma for u in query.movers) <= 0:
            return False
        return rule.from_ezoc or IN_EZOC not in move.memory

    def carried(self, memory: frozenset[str]) -> frozenset[str]:
        """The memory a plain step keeps (all but the words about the hex left)."""
        return memory - self.HERE

    def steps(self, engine: Engine, query: MoveQuery, move: Move) -> Steps:
        """Plain steps: into a hex the mover may enter, outside an EZOC, that does not stop
        it, at its terrain cost. The first step (when a one-hex rule may apply), a one-hex
        phase move, a move limited in hexes and a step out of an EZOC that costs or that
        must be remembered go through :meth:`enter`. One table per kind of mover, filled in
        hex by hex as the searches ask."""
        mover = self.mover(engine, query)
        profile = engine.profile
        if ((move.steps == 0 and profile.movement.one_hex is not None) or mover.hop is not None
                or mover.allowance.max_hexes is not None or not profile.stacking.pass_through):
            return (), engine.grid.adjacency[move.hex]
        if IN_EZOC in move.memory:
            leave = mover.effects.leave
            if leave.extra_mp or leave.no_reentry or not leave.allowed:
                return (), engine.grid.adjacency[move.hex]
        key = ("kernel_steps", query.unit.side, mover.unit_class, mover.ezoc,
               tuple(sorted(mover.stops)), tuple(sorted(mover.barred)))
        table = self.step_table(engine, key)
        known = table.get(move.hex)
        if known is None:
            here = move.hex
            known = table[here] = self.split_steps(engine, here, lambda n: None if (
                n in mover.barred or n in mover.ezoc or n in mover.stops
            ) else self.step_cost(engine, mover.unit_class, here, n))
        return known

    def over_budget(self, engine: Engine, query: MoveQuery, move: Move, to: Hex,
                    cost: float) -> Verdict:
        """Short of MP: cites the rule that took the missing MP away (the allowance's own,
        a phase's, a modifier's: :meth:`~pipeline.rules.allowance.Allowance.taken_by`)."""
        allowance = self.mover(engine, query).allowance
        need = move.spent + cost
        key = ("kernel_short", need, cost, move.ma, tuple(u.id for u in query.movers))
        known = engine.memo.get(key)
        if known is None:
            known = engine.memo[key] = Verdict(
                False, allowance.taken_by(need), None,
                f"entering costs {_mp(cost)} MP, {_mp(need)} in all, and only {_mp(move.ma)}"
                " are available")
        assert isinstance(known, Verdict)
        return known

    def end(self, engine: Engine, query: MoveQuery, move: Move) -> Verdict | None:
        """Stacking where the move ends, with the friendly units already there."""
        here = engine.situation.units_in(move.hex)
        ids = {u.id for u in query.movers}
        others = tuple(u for u in here if u.id not in ids and u.side == query.unit.side)
        if not others and len(query.movers) == 1 and not counted_markers(engine, move.hex):
            return None  # one unit alone in a hex stacks legally in every game
        verdict = self.stacking(engine, move.hex, others + query.movers)
        return None if verdict.legal else verdict

    # -- zones of control ----------------------------------------------------------------

    def exerts_zoc(self, engine: Engine, unit: Unit) -> bool:
        """``zoc.exerted``, ``zoc.exerted_by`` and ``zoc.not_exerted_by``."""
        return exerts_zoc(engine, unit)

    def zoc_reaches(self, engine: Engine, unit: Unit, into: Hex) -> bool:
        """``zoc.reach``: blocking hexsides, terrain it does not enter, prohibited terrain."""
        return zoc_reaches(engine, unit, into)

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
