"""The tactical game's rules, from its player aid (002_9cac1969b0421155.txt).

Companies and vehicles, four units a hex, road bonus from road hex to road
hex, streams that stop vehicles and make infantry roll, blocks, minefields,
overruns by armoured vehicles, and a line of sight blocked by the coloured
hexside bars. The player aid has no section numbers: every rule is cited by
the opening words of the paragraph that states it (tests/rules/scenarios/
README.md), e.g. ``002 §Block placement restrictions``. Readings of unclear
rules follow RULINGS.md (TAC-1) and are listed in :class:`Tactical`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pipeline.hexgrid import Hex, Hexside
from pipeline.rules.errors import RulesError
from pipeline.rules.los import trace
from pipeline.rules.movement import Move, MoveQuery
from pipeline.rules.situation import Unit
from pipeline.rules.kernel import KERNEL_READS
from pipeline.rules.systems.base import REPOSITORY, Steps, System
from pipeline.rules.verdict import Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["Tactical"]

# The paragraphs of the player aid, by their opening words.
MOVING = "Any unit that is capable of moving"
AS_A_STACK = "Stacked units that move as a stack"
THROUGH = "Units may move through hexes with friendly units"
TERRAIN = "Terrain features"
STACKING = "The stacking limit at all times is 4 units per hex"
STREAMS = "Vehicles (except bridge laying tanks)"
MINEFIELDS = "Minefield placement restrictions"
BLOCKS = "Block placement restrictions"
FORTIFICATIONS = "Fortification placement restrictions"
WRECKS = "When an armored unit or fortification is destroyed"
NOT_TOGETHER = "Fortifications, Blocks, and Mines may not occupy the same hex"
OVERRUN = "Armored vehicles may engage in Overrun Attacks"
OVERRUN_PATH = "Overrunning units must move straight through the target hex"
OVERRUN_BARRED = "Blocks, wrecks, fortifications, and minefields prevent all Overrun Attacks"
LOS_BARS = "Always apply LOS rules in favor of the defender"
LOS_ALWAYS = "LOS is always obstructed by 2 hilltop hex sides"
LOS_HIGHER = "Units at a higher elevation may trace LOS over obstacles"
# Elevations the aid names, by hex terrain: ground, slope, hilltop.
ELEVATION = {"slope": 1, "hilltop": 2}
# The level of each bar as an obstacle (reading, see the class docstring): a unit
# above it traces LOS over it.
BAR_LEVEL = {"woods": 0, "slope": 0, "hilltop": 1}

STACK_LIMIT = 4
MAX_WRECKS = 3
ENTRY_ROLL = 3  # "1-3 on d6"
BARS = ("woods", "hilltop", "slope")  # green, orange, brown hexside bars

# Move.memory words: standing in an overrun target hex, entered in direction d
# ("overrun:<d>"); a hex overrun earlier in this move ("overran:<hex id>").
_IN_TARGET = "overrun:"
_OVERRAN = "overran:"


class Tactical(System):
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
    * LOS: a unit stands at the elevation of its hex (``slope`` and ``hilltop``
      hexes; every other hex is ground level). "Units at a higher elevation may
      trace LOS over obstacles at a lower elevation" is read with the higher of
      the two ends, and each bar is an obstacle at the foot of what it marks: a
      woods (green) or slope (brown) bar at ground level, a hilltop (orange)
      bar at slope level. So a unit on a slope sees over woods and slope bars, a
      unit on a hilltop over one hilltop bar as well, and the aid's "always"
      rules still hold: two hilltop bars block unless both units are on
      hilltops, and a combined woods + town hex blocks at every elevation. The
      aid's two midway diagrams ("when firing from a slope or hilltop to ground
      level", "from ground level to a slope or hilltop") are not in its text;
      they could only narrow this. A slope bar joined at a corner to a hilltop
      bar never blocks. A line through a corner traces through every hexside
      meeting there, in favour of the defender (:attr:`CORNERS_BLOCK`).
      "Combined woods + town hexes" are hexes with both tags, on the line
      between the two ends.
    """

    name = "tactical"
    title = "a tactical Normandy game's player aid (platoons and vehicles)"
    rulebook = "002_9cac1969b0421155.txt"
    code = "002"
    reads = KERNEL_READS
    reference = REPOSITORY / "maps" / "tactical" / "rules.json"
    cites_paragraphs = True

    #: "LOS is blocked if ANY portion of a traced-through hex side contains a
    #: solid color bar" and "Always apply LOS rules in favor of the defender":
    #: a line through a corner touches the ends of the hexsides meeting there.
    CORNERS_BLOCK: ClassVar[bool] = True

    # -- who is what -----------------------------------------------------------------

    @staticmethod
    def is_vehicle(unit: Unit) -> bool:
        """Vehicles (tanks, halftracks, trucks, wagons...); the rest are infantry-type."""
        return unit.unit_class == "vehicle"

    @staticmethod
    def is_infantry(unit: Unit) -> bool:
        """Infantry-type units (engineers included) roll to enter streams."""
        return unit.unit_class == "infantry"

    @staticmethod
    def is_armored(unit: Unit) -> bool:
        """An armoured unit; halftracks are armoured ("Halftracks may not overrun
        armored units – including other halftracks")."""
        return unit.flag("armored") or unit.flag("halftrack")

    @staticmethod
    def carriers(query: MoveQuery) -> tuple[Unit, ...]:
        """The movers that move on their own: not those loaded in another mover.

        "Only units with a C at the top may transport other units. The
        transported unit is placed under the transporting unit."
        """
        ids = {u.id for u in query.movers}
        return tuple(u for u in query.movers if u.get("transported_by") not in ids)

    # -- movement ----------------------------------------------------------------------

    def allowance(self, engine: Engine, query: MoveQuery) -> float:
        """"Stacked units that move as a stack use the lowest movement allowance
        in the stack." A loaded unit rides on its transporter's allowance."""
        return min(u.ma for u in self.carriers(query))

    def enter(self, engine: Engine, query: MoveQuery, move: Move, to: Hex) -> Move | Verdict:
        """One step, through the movement, stream, block, minefield and overrun paragraphs;
        a unit in an overrun's target hex leaves it straight across ("Overrunning units
        must move straight through the target hex")."""
        sit, name = engine.situation, engine.name(to)
        side = query.unit.side
        exit_of = _overrun_direction(move)
        direction = engine.grid.direction(move.hex, to)
        memory = frozenset(w for w in move.memory if not w.startswith(_IN_TARGET))
        target = sit.enemy_in(to, side)
        if exit_of is not None:
            # "Overrunning units must move straight through the target hex"
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
        refused = self._stream_refused(engine, query, to)
        if refused is None:
            refused = self._block_refused(engine, query, move, to)
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
        return move.then(to, cost, memory=memory, stop=self._stop(engine, query, to))

    def steps(self, engine: Engine, query: MoveQuery, move: Move) -> Steps:
        """Plain steps after the first ("Any unit that is capable of moving" may always
        move one hex) by a unit that remembers no overrun: into a hex with no enemy unit,
        no block or minefield (they stop the unit), no stream to roll for or refuse, at
        the terrain or road cost ("Terrain features"). Every other step goes through
        :meth:`enter`."""
        if move.steps == 0 or move.memory:
            return (), engine.grid.adjacency[move.hex]
        # One table per side and mix of classes: the movers matter only to the road
        # bonus of the hex they stand in, which is left to enter (see _split_steps).
        table = self.step_table(engine, ("tactical_steps", query.unit.side, tuple(sorted(
            {u.unit_class for u in self.carriers(query)}))))
        known = table.get(move.hex)
        if known is None:
            known = table[move.hex] = self._split_steps(engine, query, move.hex)
        return known

    def _split_steps(self, engine: Engine, query: MoveQuery, here: Hex) -> Steps:
        """The neighbours of ``here`` split as :meth:`steps` says ("Terrain features")."""
        sit, side, start = engine.situation, query.unit.side, query.unit.hex
        stopping = self._stopping_hexes(engine)
        # The movers' own hex is left to enter: its road bonus counts the units there
        # other than the movers, so a table shared with other movers may not hold it.
        return self.split_steps(engine, here, lambda n: None if (
            n == start or n in stopping or sit.enemy_in(n, side) or self._open_stream(engine, n)
        ) else self._cost(engine, query, here, n, overrun_target=False))

    @staticmethod
    def _stopping_hexes(engine: Engine) -> frozenset[Hex]:
        """Hexes with a block or a minefield (they stop the unit that enters)."""
        known = engine.memo.get(("tactical_stopping",))
        if known is None:
            known = engine.memo[("tactical_stopping",)] = frozenset(
                m.hex for m in engine.situation.markers
                if m.hex is not None and m.type in ("block", "minefield"))
        assert isinstance(known, frozenset)
        return known

    def over_budget(self, engine: Engine, query: MoveQuery, move: Move, to: Hex,
                    cost: float) -> Verdict:
        """"Stacked units that move as a stack use the lowest movement allowance in the
        stack": short of MP after the first step."""
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
        if move.steps == 0 and move.ma > 0:
            refused = self._entry_roll_refused(engine, query, to)
            if refused is not None:
                return refused
            stop = Verdict(False, self.cite(MOVING), name,
                           "entered by the 'at least one hex' allowance: one hex only")
            return move.then(to, cost, memory=memory, stop=stop, one_hex=True)
        rule = AS_A_STACK if len(self.carriers(query)) > 1 else TERRAIN
        return Verdict(False, self.cite(rule), name, f"{spent}, more than MA {_mp(move.ma)}")

    def _stop(self, engine: Engine, query: MoveQuery, to: Hex) -> Verdict | None:
        """Minefields and blocks stop the unit that enters them."""
        sit, name = engine.situation, engine.name(to)
        if sit.markers_in(to, "minefield"):
            # "Any unit entering a minefield hex must immediately stop"
            return Verdict(False, self.cite(MINEFIELDS), name,
                           f"{query.unit.id} had to stop in the minefield hex {name}")
        if sit.markers_in(to, "block"):
            # "... and must stop upon entering the block hex"
            return Verdict(False, self.cite(BLOCKS), name,
                           f"{query.unit.id} had to stop in the block hex {name}")
        return None

    def _stream_refused(self, engine: Engine, query: MoveQuery, to: Hex) -> Verdict | None:
        """"Vehicles (except bridge laying tanks) may never enter stream hexes and may
        only pass over them on active bridges" (RULINGS TAC-1: not even by the
        "at least one hex" allowance)."""
        if not self._open_stream(engine, to):
            return None
        for u in self.carriers(query):
            if self.is_vehicle(u) and not u.flag("bridge_layer"):
                return Verdict(False, self.cite(STREAMS), engine.name(to),
                               f"vehicle {u.id} into a stream hex without an active bridge")
        return None

    def _entry_roll_refused(self, engine: Engine, query: MoveQuery, to: Hex) -> Verdict | None:
        """"Infantry units entering stream hexes must roll for entry success (1-3 on
        d6) for each stream hex entered or stop at entry hex": a failed roll
        leaves the unit before the stream hex."""
        if not self._open_stream(engine, to):
            return None
        if not any(self.is_infantry(u) for u in self.carriers(query)):
            return None
        roll = query.die_rolls.get(to)
        if roll is None or roll <= ENTRY_ROLL:
            return None
        name = engine.name(to)
        return Verdict(False, self.cite(STREAMS), name,
                       f"entry roll {roll} fails (1-{ENTRY_ROLL} needed): the unit stops "
                       f"before {name}")

    @staticmethod
    def _open_stream(engine: Engine, h: Hex) -> bool:
        """A stream hex without an active bridge (``["stream", "bridge"]`` has one)."""
        gmap = engine.situation.map
        return gmap.has(h, "stream") and not gmap.has(h, "bridge")

    def _block_refused(self, engine: Engine, query: MoveQuery, move: Move,
                       to: Hex) -> Verdict | None:
        """"Units may only enter hexes with blocks when starting their Movement phase
        from an adjacent hex ... Vehicular units may not enter a block hex across a
        woods (green) hex side.\""""
        sit, name = engine.situation, engine.name(to)
        if not sit.markers_in(to, "block"):
            return None
        start = query.unit.hex
        assert start is not None
        if not engine.grid.adjacent(start, to):
            return Verdict(False, self.cite(BLOCKS), name,
                           f"{query.unit.id} did not start the Movement phase adjacent to "
                           f"the block in {name}")
        if "woods" in sit.map.features(move.hex, to):
            for u in self.carriers(query):
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
        including moving unit) or any block, fortification, or minefield."
        "Overrun Attacks negate the road bonus." A stack pays its dearest class.
        """
        cost = 0.0
        for unit_class in sorted({u.unit_class for u in self.carriers(query)}):
            one = self._terrain_cost(engine, frm, to, unit_class)
            if isinstance(one, Verdict):
                return one
            cost = max(cost, one)
        rate = engine.situation.chart.rate("road")
        if (rate is not None and not overrun_target
                and self._road_bonus(engine, query, frm, to)):
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
        if "bridge" in tags and "stream" in tags:
            tags = tuple(t for t in tags if t != "stream")
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
            base = float(clear) if isinstance(clear, (int, float)) else 1.0
        side = self.hexside_cost(engine, frm, to, unit_class)
        if side.prohibited_by:
            return Verdict(False, self.cite(MOVING), name,
                           f"the {side.prohibited_by} hexside is prohibited to {unit_class} "
                           "units")
        return base + added + side.mp

    def _road_bonus(self, engine: Engine, query: MoveQuery, frm: Hex, to: Hex) -> bool:
        """"Terrain features": road hex to road hex, not negated in ``to``."""
        sit = engine.situation
        if not (sit.map.is_feature_hex(frm, "road") and sit.map.is_feature_hex(to, "road")):
            return False
        if any(sit.markers_in(to, t) for t in ("block", "fortification", "minefield")):
            return False
        ids = {u.id for u in query.movers}
        others = [u for u in sit.units_in(to) if u.id not in ids]
        return _counted_units(others) < 2

    def _overrun_refused(self, engine: Engine, query: MoveQuery, move: Move,
                         to: Hex) -> Verdict | None:
        """Entering an enemy hex: only "as part of an Overrun Attack", and only as
        the overrun paragraphs allow."""
        sit, name = engine.situation, engine.name(to)
        if not query.overrun:
            return Verdict(False, self.cite(THROUGH), name,
                           "enemy-occupied: units may only move through enemy hexes as part "
                           "of an Overrun Attack")
        carriers = self.carriers(query)
        for u in carriers:
            if not (self.is_vehicle(u) and self.is_armored(u)):
                return Verdict(False, self.cite(OVERRUN), name,
                               f"{u.id} is not an armoured vehicle: only armoured vehicles "
                               "overrun")
            if u.flag("german_spa"):
                return Verdict(False, self.cite(OVERRUN_BARRED), name,
                               f"{u.id} is German SPA: German SPA cannot overrun")
        targets = [u for u in sit.units_in(to) if u.side != query.unit.side]
        if any(u.flag("halftrack") for u in carriers) and any(
                self.is_armored(u) for u in targets):
            return Verdict(False, self.cite(OVERRUN_BARRED), name,
                           "halftrack against an armoured unit: halftracks may not overrun "
                           "armoured units")
        for kind in ("block", "wreck", "fortification", "minefield"):
            if sit.markers_in(to, kind):
                return Verdict(False, self.cite(OVERRUN_BARRED), name,
                               f"a {kind} in the target hex prevents all Overrun Attacks")
        terrain = [t for t in sit.map.tags(to) if t != "clear"]
        if terrain:
            return Verdict(False, self.cite(OVERRUN), name,
                           f"the target hex is {', '.join(terrain)}: overruns only against "
                           "units in clear hexes")
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

    # -- stacking ------------------------------------------------------------------------

    def stacking(self, engine: Engine, h: Hex, units: tuple[Unit, ...]) -> Verdict:
        """"The stacking limit at all times is 4 units per hex. Transported units and
        minefields do not count towards the stacking limit. Blocks, fortifications,
        and wrecks count towards the stacking limit." A fortification and the units
        inside it count as 1; at most 3 wrecks a hex; one fortification and one
        minefield a hex, and never two of fortification, block and minefield."""
        sit, name = engine.situation, engine.name(h)
        forts = len(sit.markers_in(h, "fortification"))
        mines = len(sit.markers_in(h, "minefield"))
        blocks = len(sit.markers_in(h, "block"))
        wrecks = len(sit.markers_in(h, "wreck"))
        if forts > 1:
            return Verdict(False, self.cite(FORTIFICATIONS), name,
                           f"{forts} fortifications: one fortification per hex")
        if mines > 1:
            return Verdict(False, self.cite(MINEFIELDS), name,
                           f"{mines} minefields: one mine counter per hex")
        kinds = [k for k, n in (("fortification", forts), ("block", blocks),
                                ("minefield", mines)) if n]
        if len(kinds) > 1:
            return Verdict(False, self.cite(NOT_TOGETHER), name,
                           f"{' and '.join(kinds)} in one hex")
        if wrecks > MAX_WRECKS:
            return Verdict(False, self.cite(WRECKS), name,
                           f"{wrecks} wrecks: at most {MAX_WRECKS} a hex")
        inside = any(u.flag("in_fortification") for u in units)
        outside = _counted_units(units)
        fort_count = 1 if forts or inside else 0
        total = outside + fort_count + blocks + wrecks
        parts = [_count(n, what) for n, what in (
            (fort_count, "fortification with its occupants"), (outside, "unit"),
            (blocks, "block"), (wrecks, "wreck")) if n]
        reason = (f"{' + '.join(parts)} = {total}" if len(parts) > 1
                  else parts[0] if parts else "empty")
        limit = self.number(engine, "stacking.limit", STACK_LIMIT)
        if total > limit:
            return Verdict(False, self.cite(STACKING), name,
                           f"{reason}, over the limit of {limit:g}")
        return Verdict(True, None, name, reason)

    # -- line of sight -------------------------------------------------------------------

    def los(self, engine: Engine, a: Hex, b: Hex) -> Verdict:
        """Line of sight between the centres of two hexes, each unit at its hex's elevation.

        "LOS is never obstructed between adjacent hexes." "LOS is blocked if ANY
        portion of a traced-through hex side contains a solid color bar (green,
        orange, brown). LOS is not blocked by a slope (brown) hex side connected
        to a hilltop (orange) hex side." "LOS is always obstructed by combined
        woods + town hexes." "Units are not obstacles"; wrecks, blocks and
        fortifications "do not obstruct LOS". "Units at a higher elevation may trace
        LOS over obstacles at a lower elevation"; "LOS is always obstructed by 2
        hilltop hex sides unless both units are on hilltops" (readings in the class
        docstring).
        """
        grid, gmap = engine.grid, engine.situation.map
        if a == b or grid.adjacent(a, b):
            return Verdict(True, self.cite(LOS_ALWAYS), None,
                           "the same hex" if a == b else "adjacent hexes")
        line = trace(grid, a, b)
        sides = line.crossed + line.along + (line.at_corners if self.CORNERS_BLOCK else ())
        levels = (self.elevation(engine, a), self.elevation(engine, b))
        high = max(levels)
        for h in line.between + line.grazed:
            if gmap.has(h, "woods") and gmap.has(h, "town"):
                return Verdict(False, self.cite(LOS_ALWAYS), grid.id(h),
                               f"combined woods + town hex {grid.id(h)} on the line")
        hilltops = [s for s in sides if "hilltop" in gmap.hexsides.get(s, frozenset())]
        if len(hilltops) >= 2 and levels != (2, 2):
            where = grid.hexside_id(hilltops[1])
            return Verdict(False, self.cite(LOS_ALWAYS), where,
                           f"{len(hilltops)} hilltop bars on the line "
                           f"({', '.join(grid.hexside_id(s) for s in hilltops)}) and not both"
                           " units on hilltops")
        seen_over: list[str] = []
        for side in sides:
            features = gmap.hexsides.get(side, frozenset())
            for bar in BARS:
                if bar not in features:
                    continue
                if bar == "slope" and self._joined_to_hilltop(engine, side):
                    continue
                where = grid.hexside_id(side)
                if BAR_LEVEL[bar] < high:
                    seen_over.append(f"{bar} bar on {where}")
                    continue
                how = ("crossed" if side in line.crossed else
                       "run along" if side in line.along else "touched at a corner")
                return Verdict(False, self.cite(LOS_BARS), where,
                               f"{bar} bar on {where} ({how} by the line)")
        if seen_over:
            return Verdict(True, self.cite(LOS_HIGHER), None,
                           f"the unit on the {_LEVEL_NAMES[high]} traces LOS over the "
                           f"{', '.join(seen_over)}")
        return Verdict(True, self.cite(LOS_BARS), None,
                       "no coloured bar on a traced-through hexside; units, wrecks, blocks "
                       "and fortifications are not obstacles")

    @staticmethod
    def elevation(engine: Engine, h: Hex) -> int:
        """"Terrain, Obstacles, and Elevation": ground 0, slope 1, hilltop 2, by the
        hex's terrain."""
        return max((ELEVATION.get(t, 0) for t in engine.situation.map.tags(h)), default=0)

    def _joined_to_hilltop(self, engine: Engine, side: Hexside) -> bool:
        """Whether a hexside meets a hexside with a hilltop bar at one of its corners."""
        grid, gmap = engine.grid, engine.situation.map
        around_a = {grid.neighbour(side.a, d) for d in range(6)}
        around_b = {grid.neighbour(side.b, d) for d in range(6)}
        for z in around_a & around_b:
            for end in (side.a, side.b):
                if "hilltop" in gmap.hexsides.get(grid.hexside(end, z), frozenset()):
                    return True
        return False


_LEVEL_NAMES = {0: "ground", 1: "slope", 2: "hilltop"}


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
               if not u.get("transported_by") and not u.flag("in_fortification"))


def _count(n: int, what: str) -> str:
    if n == 1:
        return f"1 {what}"
    head, _, tail = what.partition(" ")
    return f"{n} {head}s{' ' + tail if tail else ''}"


def _mp(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)

