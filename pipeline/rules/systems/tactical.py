"""The tactical game's rules, from its player aid (002_9cac1969b0421155.txt).

Companies and vehicles, four units a hex (blocks, fortifications and wrecks
count), the road bonus from road hex to road hex, streams that stop vehicles and
make infantry roll, blocks and minefields that stop a unit, overruns by armoured
vehicles, stacks that move together and units carried by others, and a line of
sight blocked by the coloured hexside bars. The profile
(``maps/tactical/rules.json``) holds what a table says (the stacking limit and
what counts, the stopping markers, the entry roll, the road's negation, who may
overrun, the LOS bars and elevations); this module holds the aid's procedures.

The aid has no section numbers: every rule is cited by the heading of the
paragraph that states it and its opening words, ``002 §Blocks: Block placement
restrictions`` (the transcription lost the headings; bocage reads them from the
printed aid's layout, see the README). Readings of unclear rules follow
RULINGS.md (TAC-1) and are listed in :class:`Tactical`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pipeline.hexgrid import Hex, Hexside
from pipeline.model.folder import RULES_FILE
from pipeline.model.rulesprofile import LosRules, OverrunRules
from pipeline.rules.errors import RulesError
from pipeline.rules.kernel import KERNEL_READS, Kernel
from pipeline.rules.los import trace
from pipeline.rules.movement import Move, MoveQuery
from pipeline.rules.select import selects
from pipeline.rules.situation import Unit
from pipeline.rules.systems.base import REPOSITORY, Steps
from pipeline.rules.verdict import Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["Tactical"]

# The paragraphs of the player aid, by heading and opening words.
MOVING = "Movement: Any unit that is capable of moving"
AS_A_STACK = "Movement: Stacked units that move as a stack"
THROUGH = "Movement: Units may move through hexes with friendly units"
TERRAIN = "Terrain: Terrain features"
STREAMS = "Streams: Vehicles (except bridge laying tanks)"
BLOCKS = "Blocks: Block placement restrictions"
OVERRUN = "Overrun Attacks: Armored vehicles may engage in Overrun Attacks"
OVERRUN_PATH = "Overrun Attacks: Overrunning units must move straight through the target hex"
OVERRUN_BARRED = ("Overrun Attacks: Blocks, wrecks, fortifications, and minefields prevent all"
                  " Overrun Attacks")
LOS_BARS = "LOS: Always apply LOS rules in favor of the defender"
LOS_ALWAYS = "LOS: LOS is always obstructed by 2 hilltop hex sides"
LOS_HIGHER = "LOS: Units at a higher elevation may trace LOS over obstacles"

# The aid's words for its units and hexes (vocabulary, not numbers).
VEHICLE, INFANTRY = "vehicle", "infantry"
STREAM, BRIDGE, BLOCK = "stream", "bridge", "block"
BRIDGE_LAYER, HALFTRACK, ARMORED = "bridge_layer", "halftrack", "armored"
IN_FORTIFICATION = "in_fortification"

# Move.memory words: standing in an overrun target hex, entered in direction d
# ("overrun:<d>"); a hex overrun earlier in this move ("overran:<hex id>").
_IN_TARGET = "overrun:"
_OVERRAN = "overran:"


class Tactical(Kernel):
    """002: the tactical player aid.

    Readings chosen where the text is unclear (beyond RULINGS TAC-1):

    * Road bonus ("Terrain features"): read literally, from a road hex into a
      road hex; the road rate replaces the hex and hexside costs (as F&M-7)
      and is never dearer than them. The "2+ units" that negate it are
      counted as for stacking: a transporter and its load are one unit.
    * Streams: a unit on an active bridge "passes over" the stream; it does
      not "enter" it in the sense of the stream paragraph, so infantry roll
      only for stream hexes without an active bridge, and a bridged hex costs
      the bridge, not the stream. A stream hex with no roll given is taken as
      entered (the roll is not known yet). One roll serves a moving stack.
    * Overruns: the target hex is the enemy hex the overrun enters; the road
      bonus is negated in the target hex only; the exit hex must be free of
      enemy units (an overrun ends beyond its target before it is resolved);
      the unit may move on after the exit hex.
    * Blocks: the unit's present hex is taken as where it started the
      Movement phase; started adjacent is all the text asks.
    * A stack moving together pays, in each hex, the dearest cost of its
      members' classes, and every member's restrictions apply; units carried
      by another mover move with it and count for none of this.
    * LOS: a unit stands at the elevation of its hex (``los.elevations``; every
      other hex is ground level, 0). "Units at a higher elevation may trace LOS
      over obstacles at a lower elevation" is read with the higher of the two
      ends, and each bar is an obstacle at the level ``los.bars`` gives it: a
      woods (green) or slope (brown) bar at ground level, a hilltop (orange)
      bar at slope level. So a unit on a slope sees over woods and slope bars, a
      unit on a hilltop over one hilltop bar as well, and the aid's "always"
      rules still hold: two hilltop bars block unless both units are on
      hilltops, and a combined woods + town hex blocks at every elevation. The
      aid's two midway diagrams ("when firing from a slope or hilltop to ground
      level", "from ground level to a slope or hilltop") are not in its text;
      they could only narrow this. A slope bar joined at a corner to a hilltop
      bar never blocks. A line through a corner traces through every hexside
      meeting there, in favour of the defender (``los.corners_block``).
      "Combined woods + town hexes" are hexes with both tags, on the line
      between the two ends.
    """

    name = "tactical"
    title = "a tactical Normandy game's player aid (platoons and vehicles)"
    rulebook = "002_9cac1969b0421155.txt"
    code = "002"
    # Its overruns are its own procedure: it reads only who and where from ``overrun``.
    reads = (KERNEL_READS - {"overrun"}) | {
        "los", "overrun.by", "overrun.not_by", "overrun.only_into", "overrun.barred_by_markers",
        "terrain.*.entry_roll", "roads.*.negated_by"}
    reference = REPOSITORY / "maps" / "tactical" / RULES_FILE
    cites_paragraphs = True
    overrides: ClassVar[dict[str, str]] = {
        "carriers": "Transport: Only units with a C at the top may transport other units",
        "enter": OVERRUN_PATH,
        "steps": MOVING,
        "over_budget": AS_A_STACK,
        "end": THROUGH,
        "los": LOS_BARS,
    }

    # -- who is what -----------------------------------------------------------------

    @staticmethod
    def is_vehicle(unit: Unit) -> bool:
        """Vehicles (tanks, halftracks, trucks, wagons...); the rest are infantry-type."""
        return unit.unit_class == VEHICLE

    def carriers(self, engine: Engine, query: MoveQuery) -> tuple[Unit, ...]:
        """A unit loaded in another moving unit moves with it and spends no MA of its own.

        "Only units with a C at the top may transport other units. The
        transported unit is placed under the transporting unit."
        """
        ids = {u.id for u in query.movers}
        return tuple(u for u in query.movers if u.get("transported_by") not in ids)

    def _overrun(self, engine: Engine) -> OverrunRules:
        rules = engine.profile.overrun
        if rules is None:
            raise RulesError(f"{engine.profile.file or 'the rules profile'}: overrun: the"
                             " tactical rules need who may overrun; fill in overrun")
        return rules

    # -- movement ----------------------------------------------------------------------

    def enter(self, engine: Engine, query: MoveQuery, move: Move, to: Hex) -> Move | Verdict:
        """Every step follows the movement, stream, block, minefield and overrun paragraphs,
        and an overrunning unit leaves the target hex straight across, the way it came in
        ("Overrunning units must move straight through the target hex")."""
        sit, name = engine.situation, engine.name(to)
        side = query.unit.side
        exit_of = _overrun_direction(move)
        direction = engine.grid.direction(move.hex, to)
        memory = frozenset(w for w in move.memory if not w.startswith(_IN_TARGET))
        target = sit.enemy_in(to, side)
        if exit_of is not None:
            if direction != exit_of:
                return Verdict(False, self.cite(OVERRUN_PATH), name,
                               "exit direction differs from entry direction: the overrun "
                               f"must leave {engine.name(move.hex)} straight through")
            if target:
                return Verdict(False, self.cite(OVERRUN_PATH), name,
                               "the exit hex of an overrun holds an enemy unit")
        if target:
            refused = self._overrun_refused(engine, query, move, to)
            if refused is not None:
                return refused
            memory |= {f"{_IN_TARGET}{direction}", f"{_OVERRAN}{name}"}
        refused = self._stream_refused(engine, query, to) or self._block_refused(
            engine, query, move, to)
        if refused is not None:
            return refused
        cost = self._cost(engine, query, move.hex, to, overrun_target=target)
        if isinstance(cost, Verdict):
            return cost
        if cost > move.left:
            return self._beyond_allowance(engine, query, move, to, cost, memory,
                                          overrun=target or exit_of is not None)
        refused = self._entry_roll_refused(engine, query, to)
        if refused is not None:
            return refused
        return move.then(to, cost, memory=memory,
                         stop=self.mover(engine, query).stops.get(to))

    def steps(self, engine: Engine, query: MoveQuery, move: Move) -> Steps:
        """After its first step (the one "Any unit that is capable of moving" may always
        make), a unit not overrunning pays the terrain, or the road rate from road hex to
        road hex ("Terrain features"), into a hex with no enemy unit, no marker that stops
        it and no stream to roll for or refuse.

        Those are the plain steps; every other step goes through :meth:`enter`."""
        if move.steps == 0 or move.memory:
            return (), engine.grid.adjacency[move.hex]
        # One table per side and mix of classes: the movers matter only to the road
        # bonus of the hex they stand in, which is left to enter (see _split_steps).
        table = self.step_table(engine, ("tactical_steps", query.unit.side, tuple(sorted(
            {u.unit_class for u in self.carriers(engine, query)}))))
        known = table.get(move.hex)
        if known is None:
            known = table[move.hex] = self._split_steps(engine, query, move.hex)
        return known

    def _split_steps(self, engine: Engine, query: MoveQuery, here: Hex) -> Steps:
        """The neighbours of ``here`` split as :meth:`steps` says ("Terrain features")."""
        sit, side, start = engine.situation, query.unit.side, query.unit.hex
        stopping = self.mover(engine, query).stops
        # The movers' own hex is left to enter: its road bonus counts the units there
        # other than the movers, so a table shared with other movers may not hold it.
        return self.split_steps(engine, here, lambda n: None if (
            n == start or n in stopping or sit.enemy_in(n, side) or self._open_stream(engine, n)
            or sit.markers_in(n, BLOCK)
        ) else self._cost(engine, query, here, n, overrun_target=False))

    def over_budget(self, engine: Engine, query: MoveQuery, move: Move, to: Hex,
                    cost: float) -> Verdict:
        """A stack moving together is short of MP when its slowest unit is ("Stacked units
        that move as a stack use the lowest movement allowance in the stack")."""
        refused = self._beyond_allowance(engine, query, move, to, cost, move.memory,
                                         overrun=False)
        assert isinstance(refused, Verdict)
        return refused

    def _beyond_allowance(self, engine: Engine, query: MoveQuery, move: Move, to: Hex,
                          cost: float, memory: frozenset[str], overrun: bool) -> Move | Verdict:
        """The MP do not cover the step: "All units may move at least one hex each
        turn no matter the terrain", but an overrun needs the MP for its exit hex."""
        name = engine.name(to)
        spent = (f"{_mp(move.spent)} MP spent + {_mp(cost)} for {name} = "
                 f"{_mp(move.spent + cost)}")
        if overrun:
            return Verdict(False, self.cite(OVERRUN_PATH), name,
                           f"{spent}: overrunning units need the MP to enter the target "
                           f"and the exit hex (MA {_mp(move.ma)})")
        one_hex = self.one_hex_allowed(engine, query, move, to)
        if one_hex is not None:
            refused = self._entry_roll_refused(engine, query, to)
            if refused is not None:
                return refused
            stop = Verdict(False, one_hex, name,
                           "entered by the 'at least one hex' allowance: one hex only")
            return move.then(to, cost, memory=memory, stop=stop, one_hex=True)
        rule = AS_A_STACK if len(self.carriers(engine, query)) > 1 else TERRAIN
        return Verdict(False, self.cite(rule), name, f"{spent}, more than MA {_mp(move.ma)}")

    def _stream_refused(self, engine: Engine, query: MoveQuery, to: Hex) -> Verdict | None:
        """"Vehicles (except bridge laying tanks) may never enter stream hexes and may
        only pass over them on active bridges" (RULINGS TAC-1: not even by the
        "at least one hex" allowance)."""
        if not self._open_stream(engine, to):
            return None
        for u in self.carriers(engine, query):
            if self.is_vehicle(u) and not u.flag(BRIDGE_LAYER):
                return Verdict(False, self.cite(STREAMS), engine.name(to),
                               f"vehicle {u.id} into a stream hex without an active bridge")
        return None

    def _entry_roll_refused(self, engine: Engine, query: MoveQuery, to: Hex) -> Verdict | None:
        """"Infantry units entering stream hexes must roll for entry success (1-3 on
        d6) for each stream hex entered or stop at entry hex" (``terrain.stream.entry_roll``):
        a failed roll leaves the unit before the stream hex."""
        if not self._open_stream(engine, to):
            return None
        rule = engine.profile.terrain.get(STREAM)
        roll_rule = rule.entry_roll if rule is not None else None
        if roll_rule is None:
            raise RulesError(f"{engine.profile.file or 'the rules profile'}: terrain.stream."
                             "entry_roll: the roll to enter a stream is not given; fill it in")
        if not any(u.unit_class in roll_rule.classes for u in self.carriers(engine, query)):
            return None
        roll = query.die_rolls.get(to)
        if roll is None or roll in roll_rule.succeeds:
            return None
        name = engine.name(to)
        wins = ", ".join(str(r) for r in roll_rule.succeeds)
        return Verdict(False, self.cite(STREAMS), name,
                       f"entry roll {roll} fails ({wins} needed): the unit stops before {name}")

    @staticmethod
    def _open_stream(engine: Engine, h: Hex) -> bool:
        """A stream hex without an active bridge (``["stream", "bridge"]`` has one)."""
        gmap = engine.situation.map
        return gmap.has(h, STREAM) and not gmap.has(h, BRIDGE)

    def _block_refused(self, engine: Engine, query: MoveQuery, move: Move,
                       to: Hex) -> Verdict | None:
        """"Units may only enter hexes with blocks when starting their Movement phase
        from an adjacent hex ... Vehicular units may not enter a block hex across a
        woods (green) hex side.\""""
        sit, name = engine.situation, engine.name(to)
        if not sit.markers_in(to, BLOCK):
            return None
        start = query.unit.hex
        assert start is not None
        if not engine.grid.adjacent(start, to):
            return Verdict(False, self.cite(BLOCKS), name,
                           f"{query.unit.id} did not start the Movement phase adjacent to "
                           f"the block in {name}")
        if "woods" in sit.map.features(move.hex, to):
            for u in self.carriers(engine, query):
                if self.is_vehicle(u):
                    return Verdict(False, self.cite(BLOCKS), name,
                                   f"vehicle {u.id} entering a block hex across a woods "
                                   "hexside")
        return None

    def _cost(self, engine: Engine, query: MoveQuery, frm: Hex, to: Hex,
              overrun_target: bool) -> float | Verdict:
        """MP to enter ``to`` from ``frm``: the terrain, or the road rate.

        "Road movement bonus only applies if unit enters road hex from another
        road hex; road hex bonus is negated if hex contains 2+ units (not
        including moving unit) or any block, fortification, or minefield"
        (``roads.road.negated_by``). "Overrun Attacks negate the road bonus." A stack
        pays its dearest class.
        """
        cost = 0.0
        for unit_class in sorted({u.unit_class for u in self.carriers(engine, query)}):
            one = self._terrain_cost(engine, frm, to, unit_class)
            if isinstance(one, Verdict):
                return one
            cost = max(cost, one)
        if overrun_target:
            return cost
        for road_name in engine.profile.roads:
            rate = engine.situation.chart.rate(road_name)
            if rate is not None and self._road_bonus(engine, query, frm, to, road_name):
                cost = min(cost, float(rate))
        return cost

    def _terrain_cost(self, engine: Engine, frm: Hex, to: Hex,
                      unit_class: str) -> float | Verdict:
        """The hex's cost (highest of its terrains, as the chart gives them) plus the
        hexside's; on an active bridge the stream itself is not entered. Remembered
        per combination of hexside and terrain; a refusal leaves ``at`` to the caller."""
        gmap = engine.situation.map
        key = ("tactical_cost", gmap.features(frm, to), gmap.tags(to), unit_class)
        known = engine.memo.get(key)
        if known is None:
            known = engine.memo[key] = self._worked_cost(engine, frm, to, unit_class)
        assert isinstance(known, (float, Verdict))
        return known

    def _worked_cost(self, engine: Engine, frm: Hex, to: Hex,
                     unit_class: str) -> float | Verdict:
        """:meth:`_terrain_cost`, worked out ("Terrain features")."""
        sit, name = engine.situation, None
        chart = sit.chart
        tags = sit.map.tags(to)
        if BRIDGE in tags and STREAM in tags:
            tags = tuple(t for t in tags if t != STREAM)
        base: float | None = None
        added = 0.0
        for tag in tags:
            if tag not in chart.hex:
                continue
            raw = chart.hex_cost(tag, unit_class)
            if raw == "P":
                return Verdict(False, self.cite(MOVING), name,
                               f"{tag} is prohibited to {unit_class} units")
            if raw is None:
                raise RulesError(f"the terrain chart gives no cost for '{tag}' ({unit_class})")
            if isinstance(raw, str):
                added += float(raw.lstrip("+"))
            else:
                base = float(raw) if base is None else max(base, float(raw))
        if base is None:
            clear = chart.hex_cost("clear", unit_class)
            if not isinstance(clear, int | float):
                raise RulesError("the terrain chart gives no cost for 'clear', which a hex of"
                                 f" {', '.join(tags)} costs")
            base = float(clear)
        side = 0.0
        for feature in sorted(sit.map.features(frm, to)):
            raw = chart.hexside_cost(feature, unit_class)
            if feature not in chart.hexside:
                continue
            if raw == "P":
                return Verdict(False, self.cite(MOVING), name,
                               f"the {feature} hexside is prohibited to {unit_class} units")
            if raw is None:
                raise RulesError(f"the terrain chart gives no cost for the {feature} hexside")
            side += float(raw.lstrip("+")) if isinstance(raw, str) else float(raw)
        return base + added + side

    def _road_bonus(self, engine: Engine, query: MoveQuery, frm: Hex, to: Hex,
                    road_name: str) -> bool:
        """"Terrain features": road hex to road hex, not negated in ``to``
        (``roads.*.negated_by``)."""
        sit = engine.situation
        if not (sit.map.is_feature_hex(frm, road_name) and sit.map.is_feature_hex(to, road_name)):
            return False
        negation = engine.profile.roads[road_name].negated_by
        if negation is None:
            return True
        if any(sit.markers_in(to, t) for t in negation.markers):
            return False
        ids = {u.id for u in query.movers}
        others = [u for u in sit.units_in(to) if u.id not in ids]
        return negation.units is None or _counted_units(others) < negation.units

    def _overrun_refused(self, engine: Engine, query: MoveQuery, move: Move,
                         to: Hex) -> Verdict | None:
        """Entering an enemy hex: only "as part of an Overrun Attack", and only as
        the overrun paragraphs (and the profile's ``overrun``) allow."""
        sit, name = engine.situation, engine.name(to)
        if not query.overrun:
            return Verdict(False, self.cite(THROUGH), name,
                           "enemy-occupied: units may only move through enemy hexes as part "
                           "of an Overrun Attack")
        rules = self._overrun(engine)
        carriers = self.carriers(engine, query)
        for u in carriers:
            if rules.by and not any(selects(engine, s, u) for s in rules.by):
                return Verdict(False, self.cite(OVERRUN), name,
                               f"{u.id} is not an armoured vehicle: only armoured vehicles "
                               "overrun")
            barred = next((s for s in rules.not_by if selects(engine, s, u)), None)
            if barred is not None:
                return Verdict(False, self.cite(OVERRUN_BARRED), name,
                               f"{u.id} may not overrun ({barred.note or 'the aid bars it'})")
        targets = [u for u in sit.units_in(to) if u.side != query.unit.side]
        if any(u.flag(HALFTRACK) for u in carriers) and any(
                u.flag(ARMORED) or u.flag(HALFTRACK) for u in targets):
            return Verdict(False, self.cite(OVERRUN_BARRED), name,
                           "halftrack against an armoured unit: halftracks may not overrun "
                           "armoured units")
        barred_by = rules.barred_by_markers
        if barred_by is not None:
            kind = next((k for k in barred_by.markers if sit.markers_in(to, k)), None)
            if kind is not None:
                return Verdict(False, engine.cite(barred_by.cite) or self.cite(OVERRUN_BARRED),
                               name, f"a {kind} in the target hex prevents all Overrun Attacks")
        only = rules.only_into
        terrain = [t for t in sit.map.tags(to) if only is not None and t not in only.terrain]
        if only is not None and terrain:
            return Verdict(False, engine.cite(only.cite) or self.cite(OVERRUN), name,
                           f"the target hex is {', '.join(terrain)}: overruns only against "
                           f"units in {' or '.join(only.terrain)} hexes")
        done = {str(h) for h in sit.state.get("overrun_this_phase", ())}
        if name in done or f"{_OVERRAN}{name}" in move.memory:
            return Verdict(False, self.cite(OVERRUN), name,
                           f"{name} was already overrun this phase")
        return None

    def end(self, engine: Engine, query: MoveQuery, move: Move) -> Verdict | None:
        """Stacking where the move ends ("Units may move through hexes with friendly
        units, but may not stop there if doing so would violate stacking limits");
        an overrun may not end in its target hex."""
        if _overrun_direction(move) is not None:
            return Verdict(False, self.cite(OVERRUN_PATH), engine.name(move.hex),
                           "overrunning units must move straight through the target hex "
                           "into the exit hex")
        return super().end(engine, query, move)

    # -- line of sight -------------------------------------------------------------------

    def _los(self, engine: Engine) -> LosRules:
        rules = engine.profile.los
        if rules is None:
            raise RulesError(f"{engine.profile.file or 'the rules profile'}: los: the tactical"
                             " rules need the line-of-sight bars and elevations; fill in los")
        return rules

    def los(self, engine: Engine, a: Hex, b: Hex) -> Verdict:
        """Line of sight between the centres of two hexes, each unit at its hex's elevation.

        "LOS is never obstructed between adjacent hexes." "Always apply LOS rules in
        favor of the defender. LOS is blocked if ANY portion of a traced-through hex
        side contains a solid color bar (green, orange, brown). LOS is not blocked by
        a slope (brown) hex side connected to a hilltop (orange) hex side." "LOS is
        always obstructed by combined
        woods + town hexes." "Units are not obstacles"; wrecks, blocks and
        fortifications "do not obstruct LOS". "Units at a higher elevation may trace
        LOS over obstacles at a lower elevation"; "LOS is always obstructed by 2
        hilltop hex sides unless both units are on hilltops" (readings in the class
        docstring; the bars, levels and blocking hexes are the profile's ``los``).
        """
        rules = self._los(engine)
        grid, gmap = engine.grid, engine.situation.map
        if a == b or grid.adjacent(a, b):
            return Verdict(True, self.cite(LOS_ALWAYS), None,
                           "the same hex" if a == b else "adjacent hexes")
        line = trace(grid, a, b)
        sides = line.crossed + line.along + (line.at_corners if rules.corners_block else ())
        levels = (self.elevation(engine, a), self.elevation(engine, b))
        high = max(levels)
        for h in line.between + line.grazed:
            for blocking in rules.blocking_hexes:
                if all(gmap.has(h, t) for t in blocking.terrain):
                    return Verdict(False, engine.cite(blocking.cite) or self.cite(LOS_ALWAYS),
                                   grid.id(h), f"combined {' + '.join(blocking.terrain)} hex"
                                   f" {grid.id(h)} on the line")
        for bar, spec in rules.bars.items():
            if spec.always_block is None:
                continue
            marked = [s for s in sides if bar in gmap.hexsides.get(s, frozenset())]
            both = spec.always_block.unless_both_at
            if len(marked) >= spec.always_block.count and (both is None
                                                           or levels != (both, both)):
                where = grid.hexside_id(marked[spec.always_block.count - 1])
                level = "" if both is None else (f" and not both units on the"
                                                 f" {self._level_name(rules, both)}")
                return Verdict(False, self.cite(LOS_ALWAYS), where,
                               f"{len(marked)} {bar} bars on the line "
                               f"({', '.join(grid.hexside_id(s) for s in marked)}){level}")
        seen_over: list[str] = []
        for side in sides:
            features = gmap.hexsides.get(side, frozenset())
            for bar, spec in rules.bars.items():
                if bar not in features:
                    continue
                if spec.not_when_joined_to is not None and self._joined_to(
                        engine, side, spec.not_when_joined_to):
                    continue
                where = grid.hexside_id(side)
                if spec.level < high:
                    seen_over.append(f"{bar} bar on {where}")
                    continue
                how = ("crossed" if side in line.crossed else
                       "run along" if side in line.along else "touched at a corner")
                return Verdict(False, self.cite(LOS_BARS), where,
                               f"{bar} bar on {where} ({how} by the line)")
        if seen_over:
            return Verdict(True, self.cite(LOS_HIGHER), None,
                           f"the unit on the {self._level_name(rules, high)} traces LOS over"
                           f" the {', '.join(seen_over)}")
        return Verdict(True, self.cite(LOS_BARS), None,
                       "no coloured bar on a traced-through hexside; units, wrecks, blocks "
                       "and fortifications are not obstacles")

    def elevation(self, engine: Engine, h: Hex) -> int:
        """"Terrain, Obstacles, and Elevation": a unit stands at its hex's elevation
        (``los.elevations``: slope, hilltop; ground otherwise)."""
        levels = self._los(engine).elevations
        return max((levels.get(t, 0) for t in engine.situation.map.tags(h)), default=0)

    @staticmethod
    def _level_name(rules: LosRules, level: int) -> str:
        return next((t for t, v in rules.elevations.items() if v == level), "ground")

    def _joined_to(self, engine: Engine, side: Hexside, bar: str) -> bool:
        """Whether a hexside meets a hexside with ``bar`` at one of its corners."""
        grid, gmap = engine.grid, engine.situation.map
        around_a = {grid.neighbour(side.a, d) for d in grid.direction_names}
        around_b = {grid.neighbour(side.b, d) for d in grid.direction_names}
        for z in around_a & around_b:
            for end in (side.a, side.b):
                if bar in gmap.hexsides.get(grid.hexside(end, z), frozenset()):
                    return True
        return False


def _overrun_direction(move: Move) -> int | None:
    """The direction an overrun entered the target hex the mover stands in."""
    for word in move.memory:
        if word.startswith(_IN_TARGET):
            return int(word[len(_IN_TARGET):])
    return None


def _counted_units(units: list[Unit] | tuple[Unit, ...]) -> int:
    """Units counted for stacking outside a fortification: transported units do not
    count ("Transporter & transported are considered 1 unit for defense and
    stacking"), nor units inside a fortification (counted with it)."""
    return sum(1 for u in units
               if not u.get("transported_by") and not u.flag(IN_FORTIFICATION))


def _mp(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)
