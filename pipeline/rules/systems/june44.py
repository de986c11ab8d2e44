"""June '44: The Struggle for Normandy, 1944 (001_2c092b02feae28f3.txt).

Divisions and brigades, two units a hex plus a brigade or regiment, a ZOC that
stops every unit and is left for free, the Caen Canal that only roads cross,
German movement cut by the weather, Allied air interdiction, and supply traced
to friendly beaches (Allies) or to the south and east map edges and Cherbourg
(Germans). Readings of unclear rules follow RULINGS.md (J44-1..5); the other
readings chosen here are stated where they are used.
"""

from __future__ import annotations

import math
from collections import deque
from typing import TYPE_CHECKING

from pipeline.hexgrid import Hex
from pipeline.rules.movement import Move, MoveQuery
from pipeline.rules.situation import Unit
from pipeline.rules.kernel import KERNEL_READS
from pipeline.rules.systems.base import REPOSITORY, Steps, SupplyAnswer, System, ma_factor
from pipeline.rules.verdict import Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["June44"]

IN_EZOC = "in_ezoc"
ALLIED, GERMAN = "allied", "german"
US, COMMONWEALTH = frozenset({"US"}), frozenset({"CW"})
THIRD_UNIT_SIZES = frozenset({"brigade", "regiment"})
GERMAN_SUPPLY_EDGES = ("south", "east")
# 001 never makes a rule depend on the unit class (SCENARIOS.md §2.3): supply
# lines are checked against the terrain as an infantry unit would see it.
SUPPLY_CLASS = "infantry"
_NO_SOURCE = {ALLIED: "no friendly-controlled beach hex",
              GERMAN: "no south or east map edge and no German-controlled Cherbourg"}


_UNKNOWN = object()  # a memo miss, told apart from a remembered None


class June44(System):
    """001: June '44 rules."""

    name = "june44"
    title = "June '44: The Struggle for Normandy, 1944"
    rulebook = "001_2c092b02feae28f3.txt"
    code = "001"
    reads = KERNEL_READS
    reference = REPOSITORY / "maps" / "june44" / "rules.json"

    # -- who is what -----------------------------------------------------------------

    @staticmethod
    def is_artillery(unit: Unit) -> bool:
        """001 §2.4.1, §11.2.1: an artillery unit (no ZOC, special stacking)."""
        return unit.flag("artillery") or unit.get("size") == "artillery"

    @staticmethod
    def is_fortification(unit: Unit) -> bool:
        """001 §6.0: "Beach defence units are considered fortifications" (§11.1.1)."""
        return unit.flag("fortification") or unit.get("size") == "beach_defence"

    def exerts_zoc(self, engine: Engine, unit: Unit) -> bool:
        """001 §6.0: fortifications and all units except artillery exert a ZOC
        (§11.2.1, §11.5: artillery never does). Out-of-supply units keep their full
        ZOC (§7.4). The rules profile's ``zoc`` lists say which units those are."""
        return not self.zoc_exempt(engine, unit, published=self.is_artillery(unit))

    def zoc_reaches(self, engine: Engine, unit: Unit, into: Hex) -> bool:
        """001 §6.0: a ZOC covers the six surrounding hexes "except across prohibited
        terrain, e.g. the Caen Canal".

        Reading: the test is the one of movement, so a canal hexside that a road
        bridges is not prohibited and the ZOC crosses it (the rulebook does not
        settle the bridged case; the 6.2 example has no bridge).
        """
        assert unit.hex is not None
        return self.prohibited(engine, unit.hex, into, unit.unit_class) is None

    # -- terrain ------------------------------------------------------------------------

    def road_move(self, engine: Engine, frm: Hex, to: Hex, feature: str) -> bool:
        """001 §10.1: the road rate applies "via a road hex to another adjacent road
        hex".

        Reading: literally, both hexes are road hexes (a road hexside on any side);
        the text does not ask for the road to run through the shared hexside. In
        the scenario files two road hexes are never adjacent without one
        (SCENARIOS.md §2.1), so the two readings agree there.
        """
        m = engine.situation.map
        return m.is_feature_hex(frm, feature) and m.is_feature_hex(to, feature)

    @staticmethod
    def bridged(features: frozenset[str]) -> frozenset[str]:
        """001 §6.0, §6.2 example, §10.1: a road crossing the Caen Canal or a river on
        the same hexside is a bridge; the water costs nothing there (the canal has
        no MP cost of its own: it only prohibits, SCENARIOS.md §2.1)."""
        water = frozenset({"canal", "river"})
        return features & water if "road" in features else features & frozenset({"canal"})

    def prohibited(self, engine: Engine, frm: Hex, to: Hex, unit_class: str) -> str | None:
        """001 §6.0: what makes the step ``frm``→``to`` prohibited terrain, or ``None``:
        the Caen Canal unless a road crosses it (6.2 example: "it cannot cross the
        Caen Canal unless a bridge exists"), or a hex or hexside the chart prohibits
        (§10.1, TEC). Remembered per combination of hexside, terrain and road hexes."""
        gmap = engine.situation.map
        features = gmap.features(frm, to)
        key = ("june44_prohibited", unit_class, features, gmap.tags(to),
               gmap.is_feature_hex(frm, "road"), gmap.is_feature_hex(to, "road"))
        known = engine.memo.get(key, _UNKNOWN)
        if known is _UNKNOWN:
            known = engine.memo[key] = self._prohibited(engine, frm, to, unit_class, features)
        assert known is None or isinstance(known, str)
        return known

    def _prohibited(self, engine: Engine, frm: Hex, to: Hex, unit_class: str,
                    features: frozenset[str]) -> str | None:
        """:meth:`prohibited`, worked out (001 §6.0, §10.1)."""
        if "canal" in features and "road" not in features:
            return "the Caen Canal"
        found = self.prohibiting(engine, frm, to, unit_class, self.bridged(features))
        if found is None or found.endswith("hexside"):
            return found
        return None if self.road_move(engine, frm, to, "road") else found

    def terrain_cost(self, engine: Engine, unit: Unit, frm: Hex, to: Hex) -> float | Verdict:
        """001 §10.1, §3.2: the higher cost of the hex's terrains ("when moving
        through a hex, use the least advantageous one"), "unless moving via a road
        hex to another adjacent road hex", which costs the road rate; hexside costs
        are added (SCENARIOS.md §3), except the water a road bridges. §6.0: the
        Caen Canal is prohibited unless a road crosses it. Memoised per step."""
        # The cost depends on the hexside, the hex entered and which of the two are road
        # hexes, not on where they are: remembered per combination (a map has few); a
        # refusal leaves ``at`` to the caller.
        gmap = engine.situation.map
        key = ("june44_step", unit.unit_class, gmap.features(frm, to), gmap.tags(to),
               gmap.is_feature_hex(frm, "road"), gmap.is_feature_hex(to, "road"))
        known = engine.memo.get(key)
        if known is None:
            known = engine.memo[key] = self._terrain_cost(engine, unit.unit_class, frm, to)
        assert isinstance(known, (float, Verdict))
        return known

    def _terrain_cost(self, engine: Engine, unit_class: str, frm: Hex,
                      to: Hex) -> float | Verdict:
        """001 §10.1, §6.0: the step's cost or the prohibition, unmemoised."""
        sit, name = engine.situation, None
        why = self.prohibited(engine, frm, to, unit_class)
        if why == "the Caen Canal":
            return Verdict(False, self.cite("6.0"), name,
                           "the Caen Canal may be crossed only where a road bridges it")
        if why is not None:
            return Verdict(False, self.cite("10.1"), name, f"{why} is prohibited")
        rate = sit.chart.rate("road")
        if rate is not None and self.road_move(engine, frm, to, "road"):
            base = float(rate)
        else:
            base = self.hex_cost(engine, to, unit_class).mp
        side = self.hexside_cost(engine, frm, to, unit_class,
                                 self.bridged(sit.map.features(frm, to)))
        return float(base + side.mp)

    # -- movement -----------------------------------------------------------------------

    def weather_allowance(self, engine: Engine, unit: Unit) -> float:
        """001 §7.5: German units subtract the weather modifier from their base MP
        (never below 0); "weather never affects Allied movement"."""
        if unit.side != GERMAN:
            return unit.ma
        return max(0.0, unit.ma - float(engine.situation.state.get("weather_modifier") or 0))

    @staticmethod
    def out_of_supply(unit: Unit) -> bool:
        """001 §7.1, §7.4: the unit's OOS status, given and not computed (SCENARIOS.md
        §2.3: ``in_supply: false``; a game position's ``out_of_supply`` flag)."""
        return unit.get("in_supply", True) is False or unit.flag("out_of_supply")

    def unit_allowance(self, engine: Engine, unit: Unit) -> float:
        """001 §7.4: an out-of-supply unit's movement is halved, rounding up, after
        the weather of §7.5.

        Reading: the weather modifier comes off the base (printed) MP first, as §7.5
        says, and the OOS halving applies to what is left.
        """
        ma = self.weather_allowance(engine, unit)
        if self.out_of_supply(unit):
            ma = float(math.ceil(ma * self.profile_value(engine, lambda p: ma_factor(p, out_of_supply=True), 0.5)))
        return ma

    def allowance(self, engine: Engine, query: MoveQuery) -> float:
        """001 §10.0, §7.4, §7.5: the MP a unit may spend this phase."""
        return min(self.unit_allowance(engine, u) for u in query.movers)

    def start(self, engine: Engine, query: MoveQuery) -> Move | Verdict:
        """001 §10.0: only a unit with a movement allowance above 0 moves (beach
        defence units have none); §6.2: remember whether it begins in an EZOC."""
        unit = query.unit
        if min(u.ma for u in query.movers) <= 0:
            return Verdict(False, self.cite("10.0"), None,
                           f"{unit.id} has a movement allowance of 0 and cannot move")
        move = super().start(engine, query)
        assert isinstance(move, Move)
        if engine.in_enemy_zoc(move.hex, unit.side):
            move = Move(move.hex, 0.0, move.ma, frozenset({IN_EZOC}))
        return move

    def enter(self, engine: Engine, query: MoveQuery, move: Move, to: Hex) -> Move | Verdict:
        """One step of 001 §6.0-§6.2, §9.0 and §10.0-§10.1."""
        unit, sit = query.unit, engine.situation
        cost = self.terrain_cost(engine, unit, move.hex, to)
        if isinstance(cost, Verdict):
            return cost
        ids = {u.id for u in query.movers}
        friendly_there = any(u.side == unit.side and u.id not in ids for u in sit.units_in(to))
        to_ezoc = engine.in_enemy_zoc(to, unit.side)
        from_ezoc = IN_EZOC in move.memory
        if from_ezoc and to_ezoc and not friendly_there:
            # 001 §6.0, §6.2: EZOC to EZOC only one hex, into a hex holding a friendly unit.
            name = engine.name(to)
            return Verdict(False, self.cite("6.2"), name,
                           f"{unit.id} may move from an EZOC into the EZOC in {name} only "
                           "when a friendly unit is there")
        if sit.enemy_in(to, unit.side):
            return Verdict(False, self.cite("6.3"), engine.name(to),
                           "holds an enemy unit: units of both sides never share a hex "
                           "(RULINGS J44-1)")
        one_hex = cost > move.left
        if one_hex and move.steps > 0:
            return self._short_of_mp(engine, query, move, to, cost)
        stop = self._stop(engine, unit, to, to_ezoc, from_ezoc, friendly_there)
        if one_hex and stop is None:
            # 001 §10.0 (RULINGS J44-2): a unit whose printed MA is above 0 (checked
            # in start) may always move one hex into a legal hex, even when terrain
            # or weather leaves it short of MP; that hex is its whole move.
            name = engine.name(to)
            stop = Verdict(False, self.cite("10.0"), name,
                           f"{unit.id} entered {name} by the one-hex allowance and may move "
                           "no further")
        return move.then(to, cost, memory=frozenset(), stop=stop, one_hex=one_hex)

    def steps(self, engine: Engine, query: MoveQuery, move: Move) -> Steps:
        """Plain steps after the first (the first may use the one-hex allowance of
        001 §10.0): into a hex with no enemy unit, no EZOC (§6.1) and, for a German unit,
        no successful air mission (§9.0), across terrain that does not prohibit it
        (§6.0, §10.1). Every other step goes through :meth:`enter`."""
        if move.steps == 0:
            return (), engine.grid.adjacency[move.hex]
        unit = query.unit
        table = self.step_table(engine, ("june44_steps", unit.unit_class, unit.side))
        known = table.get(move.hex)
        if known is None:
            known = table[move.hex] = self._split_steps(engine, unit, move.hex)
        return known

    def _split_steps(self, engine: Engine, unit: Unit, here: Hex) -> Steps:
        """The neighbours of ``here`` split as :meth:`steps` says (001 §6.1, §9.0, §10.1)."""
        sit = engine.situation
        ezoc = engine.enemy_zoc(unit.side)
        return self.split_steps(engine, here, lambda n: None if (
            n in ezoc or sit.enemy_in(n, unit.side)
            or (unit.side == GERMAN and sit.markers_in(n, "air"))
        ) else self.terrain_cost(engine, unit, here, n))

    def over_budget(self, engine: Engine, query: MoveQuery, move: Move, to: Hex,
                    cost: float) -> Verdict:
        """001 §10.0, §7.4, §7.5: short of MP after the first step."""
        return self._short_of_mp(engine, query, move, to, cost)

    def _stop(self, engine: Engine, unit: Unit, to: Hex, to_ezoc: bool, from_ezoc: bool,
              friendly_there: bool) -> Verdict | None:
        """001 §6.1: a unit entering an EZOC stops (no extra MP); §6.0: a friendly unit
        there does not negate the EZOC for movement, and fortifications exert one;
        §6.2: the one-hex EZOC-to-EZOC move ends the unit's move; §9.0: a German unit
        entering a hex with a successful air unit stops (interdiction)."""
        sit = engine.situation
        if to_ezoc:
            name = engine.name(to)
            exerting = engine.enemy_zoc(unit.side)[to]
            by = ", ".join(u.id for u in exerting)
            if from_ezoc:
                return Verdict(False, self.cite("6.2"), name,
                               f"{unit.id} moved from an EZOC into {name} (ZOC of {by}), "
                               "which holds a friendly unit, and must stop there")
            if friendly_there:
                return Verdict(False, self.cite("6.0"), name,
                               f"the friendly unit in {name} does not negate the ZOC of {by} "
                               f"for movement: {unit.id} had to stop there")
            if all(self.is_fortification(u) for u in exerting):
                return Verdict(False, self.cite("6.0"), name,
                               f"{name} is in the ZOC of the fortification {by}: "
                               f"{unit.id} had to stop there")
            return Verdict(False, self.cite("6.1"), name,
                           f"{unit.id} had to stop on entering {name} (ZOC of {by})")
        if unit.side == GERMAN and any(m.get("mission") == "success"
                                       for m in sit.markers_in(to, "air")):
            return Verdict(False, self.cite("9.0"), engine.name(to),
                           f"{unit.id} had to stop in {engine.name(to)} (successful air mission)")
        return None

    def _short_of_mp(self, engine: Engine, query: MoveQuery, move: Move, to: Hex,
                     cost: float) -> Verdict:
        """001 §10.0: a unit moves "up to the limit of its available movement
        factors"; the section cited is the one that took the missing MP away: §7.4
        (out of supply) or §7.5 (weather) when the printed MA would have paid."""
        need = move.spent + cost
        key = ("june44_short", tuple(u.id for u in query.movers), need, cost, move.ma)
        known = engine.memo.get(key)
        if isinstance(known, Verdict):
            return known
        printed = min(u.ma for u in query.movers)
        weathered = min(self.weather_allowance(engine, u) for u in query.movers)
        rule, why = "10.0", f"MA {_mp(printed)}"
        if need <= weathered:
            rule, why = "7.4", f"out of supply: {_mp(weathered)} halved, rounding up"
        elif need <= printed:
            rule, why = "7.5", f"weather: MA {_mp(printed)} less the modifier"
        # Shared by every hex refused for the same numbers; the search names the hex.
        verdict = engine.memo[key] = Verdict(
            False, self.cite(rule), None, f"entering costs {_mp(cost)} MP, {_mp(need)} in all,"
            f" and only {_mp(move.ma)} are available ({why})")
        return verdict

    # -- stacking -----------------------------------------------------------------------

    def stacking(self, engine: Engine, h: Hex, units: tuple[Unit, ...]) -> Verdict:
        """001 §6.3: two units, and a brigade or regiment may always be a third with two
        units of any size; artillery stacks with one unit only (RULINGS J44-4); US and
        Commonwealth units never stack together. §11.1.1: fortifications have no
        stacking value. §6.4: the limit binds at the end of movement only.

        Reading: three units are legal when one of them is a brigade or regiment and
        none is artillery (division + two brigades is legal).
        """
        name = engine.name(h)
        if len({u.side for u in units}) > 1:
            return Verdict(False, self.cite("6.3"), name,
                           "units of both sides in one hex (RULINGS J44-1)")
        nations = {str(u.get("nationality", "")) for u in units}
        if nations & US and nations & COMMONWEALTH:
            return Verdict(False, self.cite("6.3"), name,
                           "US and Commonwealth units may not stack together")
        counted = [u for u in units if not self.is_fortification(u)]
        ids = ", ".join(u.id for u in counted)
        artillery = [u.id for u in counted if self.is_artillery(u)]
        if artillery and len(counted) > 2:
            return Verdict(False, self.cite("6.3"), name,
                           f"artillery ({', '.join(artillery)}) may stack with one unit only;"
                           f" {len(counted)} units here ({ids})")
        limit = int(self.number(engine, "stacking.limit", 2))
        if len(counted) <= limit:
            return Verdict(True, None, name, f"{len(counted)} unit(s) with stacking value")
        third = [u.id for u in counted if u.get("size") in THIRD_UNIT_SIZES]
        if len(counted) == limit + 1 and third:
            return Verdict(True, None, name, f"{_count(limit)} units plus the {third[-1]}"
                           " (brigade/regiment) as a third")
        if len(counted) == limit + 1:
            return Verdict(False, self.cite("6.3"), name,
                           f"{_count(len(counted))} units ({ids}) and none is a brigade or"
                           " regiment")
        return Verdict(False, self.cite("6.3"), name,
                       f"{len(counted)} units ({ids}): at most {_count(limit)} plus a brigade"
                       " or regiment")

    # -- supply -------------------------------------------------------------------------

    def supply_sources(self, engine: Engine, side: str) -> dict[Hex, str]:
        """001 §7.2 sources, with what each one is: Allied, "any friendly controlled
        beach hex" (beach markers, SCENARIOS.md §2.4); German, "any south or east
        edge of the map" (edges marked ``german_supply``; an edge of an extract that
        is a cut through the map is not one) or Cherbourg while German-controlled."""
        sit = engine.situation
        found: dict[Hex, str] = {}
        if side == ALLIED:
            for m in sit.markers:
                if m.type == "beach" and m.hex is not None and m.get("controlled_by") == ALLIED:
                    found[m.hex] = "an Allied-controlled beach"
        elif side == GERMAN:
            for edge in GERMAN_SUPPLY_EDGES:
                if sit.map.edges.get(edge) == "german_supply":
                    for h in sit.map.edge_hexes(edge):
                        found.setdefault(h, f"the {edge} map edge")
            for m in sit.markers:
                if (m.type == "city" and m.hex is not None
                        and str(m.get("name", "")).casefold() == "cherbourg"
                        and m.get("controlled_by") == GERMAN):
                    found[m.hex] = "German-controlled Cherbourg"
        return found

    def supply_passable(self, engine: Engine, side: str, h: Hex) -> bool:
        """001 §7.2: a supply line may not enter hexes occupied by enemy units, nor
        hexes containing EZOCs "unless a friendly unit is there to negate that EZOC";
        §6.0: any friendly unit negates the EZOC "within and through the hex"
        (RULINGS J44-3, artillery included). A unit's own hex always passes: it is
        not entered, and the unit negates the EZOC there anyway."""
        sit = engine.situation
        if sit.enemy_in(h, side):
            return False
        if engine.in_enemy_zoc(h, side):
            return any(u.side == side for u in sit.units_in(h))
        return True

    def supply_network(self, engine: Engine, side: str,
                       sources: dict[Hex, str]) -> dict[Hex, Hex | None]:
        """001 §7.2: one breadth-first search from every source of ``side`` at once.

        Returns, for every hex a line of supply of any length reaches, the next hex
        toward a source (``None`` on a source). A line is "an unbroken line of
        contiguous, non-prohibited hexes" (§6.0: not across the Caen Canal except
        at a road bridge). A source hex is entered by the line like any other, so
        one in an EZOC serves only with a friendly unit in it (RULINGS J44-5).
        """
        grid = engine.grid
        parent: dict[Hex, Hex | None] = {}
        queue: deque[Hex] = deque()
        for s in sorted(sources):
            if grid.contains(s) and self.supply_passable(engine, side, s):
                parent[s] = None
                queue.append(s)
        while queue:
            h = queue.popleft()
            for n in grid.neighbours(h):
                if (n not in parent and self.supply_passable(engine, side, n)
                        and self.prohibited(engine, n, h, SUPPLY_CLASS) is None):
                    parent[n] = h
                    queue.append(n)
        return parent

    def supply(self, engine: Engine, units: list[Unit]) -> dict[str, SupplyAnswer]:
        """001 §7.2: every unit of a side is answered from one search for that side,
        so the answers do not depend on which units are asked or in what order."""
        searched: dict[str, tuple[dict[Hex, str], dict[Hex, Hex | None]]] = {}
        answers: dict[str, SupplyAnswer] = {}
        for unit in units:
            if unit.hex is None:
                answers[unit.id] = SupplyAnswer(True, None, "not on the map")
                continue
            if unit.side not in searched:
                sources = self.supply_sources(engine, unit.side)
                searched[unit.side] = (sources, self.supply_network(engine, unit.side, sources))
            answers[unit.id] = self._unit_supply(engine, unit.side, unit.hex,
                                                 *searched[unit.side])
        return answers

    def _unit_supply(self, engine: Engine, side: str, at: Hex, sources: dict[Hex, str],
                     parent: dict[Hex, Hex | None]) -> SupplyAnswer:
        """001 §7.2: read one unit's line off its side's search."""
        rule, name = self.cite("7.2"), engine.name
        if at not in parent:
            kinds = sorted(set(sources.values()))
            if not kinds:
                return SupplyAnswer(False, rule,
                                    f"no supply source: {_NO_SOURCE.get(side, side)}")
            return SupplyAnswer(False, rule, f"no line of supply reaches {' or '.join(kinds)} "
                                "without entering an enemy unit, an EZOC hex with no friendly "
                                "unit in it, or prohibited terrain")
        path = [at]
        while (step := parent[path[-1]]) is not None:
            path.append(step)
        what = sources[path[-1]]
        if len(path) == 1:
            return SupplyAnswer(True, rule, f"on {what} ({name(at)})", tuple(path))
        if len(path) == 2:
            return SupplyAnswer(True, rule, f"next to {what} ({name(path[-1])})", tuple(path))
        through = " ".join(name(h) for h in path[1:-1])
        return SupplyAnswer(True, rule, f"traced through {through} to {what} "
                            f"({name(path[-1])})", tuple(path))


def _mp(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _count(n: int) -> str:
    return {2: "two", 3: "three"}.get(n, str(n))
