"""Fire & Movement system with the Omaha exclusive rules (000_3d79f68a6e3e33eb.txt).

Regiments, one unit a hex (three on beach landing hexes), ZOC rules that
differ for leg and mobile units, road ½ MP and trail 1 MP, and supply traced to
beachhead markers. Readings of unclear rules follow RULINGS.md (F&M-1..7).
"""

from __future__ import annotations

import math
from collections import deque
from typing import TYPE_CHECKING

from pipeline.hexgrid import Hex
from pipeline.rules.movement import Move, MoveQuery
from pipeline.rules.situation import Unit
from pipeline.rules.kernel import KERNEL_READS
from pipeline.rules.systems.base import REPOSITORY, Steps, SupplyAnswer, System, ma_factor, marker_limit
from pipeline.rules.verdict import Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["FireAndMovement"]

IN_EZOC = "in_ezoc"
_EMPTY: frozenset[str] = frozenset()
ALLIED, GERMAN = "allied", "german"


class FireAndMovement(System):
    """000: Fire & Movement system rules + D-Day Omaha Beach exclusive rules."""

    name = "fm_omaha"
    title = "Fire & Movement system with the D-Day Omaha Beach exclusive rules"
    rulebook = "000_3d79f68a6e3e33eb.txt"
    code = "000"
    reads = KERNEL_READS
    reference = REPOSITORY / "maps" / "omaha" / "rules.json"

    # -- who is what -----------------------------------------------------------------

    @staticmethod
    def is_mobile(unit: Unit) -> bool:
        """000 §2.3.2: a mobile unit (red movement box); every other unit is a leg unit."""
        return unit.unit_class == "mobile"

    @staticmethod
    def ignores_ezoc(unit: Unit) -> bool:
        """000 §11.2.3 Important (RULINGS F&M-4): Rangers ignore EZOC for all purposes;
        000 §6.1 Exception: commandos pay nothing to enter or leave an EZOC."""
        return unit.flag("ranger") or unit.flag("commando")

    def exerts_zoc(self, engine: Engine, unit: Unit) -> bool:
        """000 §6.0: units marked with a black hexagon exert no ZOC (RULINGS F&M-6); the
        rules profile's ``zoc`` lists say which units those are."""
        return not self.zoc_exempt(engine, unit, published=unit.flag("no_zoc"))

    # -- movement ---------------------------------------------------------------------

    def allowance(self, engine: Engine, query: MoveQuery) -> float:
        """000 §14.1: inclement weather halves the MA, rounding up."""
        ma = super().allowance(engine, query)
        if engine.situation.state.get("weather") == "inclement":
            factor = self.profile_value(engine, lambda p: ma_factor(p, "inclement"), 0.5)
            return float(math.ceil(ma * factor))
        return ma

    def start(self, engine: Engine, query: MoveQuery) -> Move | Verdict:
        """000 §4.1, §5.5: who may move in the Mobile Movement Phase."""
        unit = query.unit
        state = engine.situation.state
        if engine.situation.phase == "mobile_movement":
            if not self.is_mobile(unit):
                return Verdict(False, self.cite("5.5"), None,
                               "leg units cannot move during the Mobile Movement Phase")
            if unit.id in state.get("moved_in_movement_phase", ()):
                return Verdict(False, self.cite("5.5"), None,
                               f"{unit.id} moved in the Movement Phase of this player turn")
        move = super().start(engine, query)
        assert isinstance(move, Move)
        if self._in_ezoc(engine, unit, move.hex):
            move = Move(move.hex, 0.0, move.ma, frozenset({IN_EZOC}))
        return move

    def enter(self, engine: Engine, query: MoveQuery, move: Move, to: Hex) -> Move | Verdict:
        """000 §5.2-§6.1: entering a hex costs its terrain and hexside costs, never an enemy or
        prohibited hex; a leg unit stops on entering an EZOC, a mobile unit pays half its MA
        more."""
        unit = query.unit
        enemy_hexes, ezoc = self._surroundings(engine, unit)
        if to in enemy_hexes:
            return Verdict(False, self.cite("5.2"), engine.name(to), "holds an enemy unit (5.2d)")
        cost = self._terrain_cost(engine, unit, move.hex, to)
        if isinstance(cost, Verdict):
            return cost
        assert isinstance(cost, float | int)
        from_ezoc = IN_EZOC in move.memory
        to_ezoc = to in ezoc
        memory = frozenset({IN_EZOC}) if to_ezoc else frozenset()
        stop: Verdict | None = None
        if from_ezoc and to_ezoc:
            exception = self._ezoc_to_ezoc_exception(engine, unit, move.hex, to)
            if exception is not None:
                return exception
        if to_ezoc and self.is_mobile(unit):
            # 000 §6.1 (RULINGS F&M-1, F&M-2): half the printed MA, rounded down,
            # on top of the terrain, for every entry; the unit may go on.
            cost += math.floor(unit.ma / 2)
        elif to_ezoc:
            stop = Verdict(False, self.cite("6.1"), engine.name(to),
                           "leg unit entered an enemy ZOC and must stop")
            if from_ezoc:
                # 000 §6.1 (RULINGS F&M-3): a leg unit that begins in an EZOC may
                # move directly into another EZOC hex by spending all its MA,
                # provided the terrain cost does not exceed it; then it stops.
                if move.steps > 0 or cost > move.ma:
                    return Verdict(False, self.cite("6.1"), engine.name(to),
                                   f"EZOC to EZOC needs the whole MA ({_mp(move.ma)}) at the"
                                   f" start of the move, and the terrain costs {_mp(cost)}")
                cost = move.ma
        if cost > move.left:
            return self._over_budget(engine, cost, move.left)
        return move.then(to, cost, memory=memory, stop=stop)

    def steps(self, engine: Engine, query: MoveQuery, move: Move) -> Steps:
        """Plain steps: into a hex with no enemy unit and no EZOC (for this unit) whose
        terrain does not prohibit it. Every other step goes through :meth:`enter`.
        One table per unit class and ZOC status, filled in hex by hex as asked."""
        unit, here = query.unit, move.hex
        table = engine.memo.get(("fm_steps", unit.id))
        if table is None:  # the unit's kind is worked out once, then found by its id
            table = self.step_table(engine, ("fm_steps", unit.unit_class, unit.side,
                                             self.ignores_ezoc(unit)))
            engine.memo[("fm_steps", unit.id)] = table
        assert isinstance(table, dict)
        known = table.get(here)
        if known is None:
            known = table[here] = self._split_steps(engine, unit, here)
        return known

    def _split_steps(self, engine: Engine, unit: Unit, here: Hex) -> Steps:
        # Inlined rather than System.split_steps: every fresh engine fills this in for
        # every hex a search reaches, and the reachable-set bench counts it.
        enemy_hexes, ezoc = self._surroundings(engine, unit)
        features = engine.situation.map.features
        into = self._entry_costs(engine, unit.unit_class)
        plain: list[tuple[Hex, float]] = []
        special: list[Hex] = []
        for n in engine.grid.adjacency[here]:
            if n in ezoc or n in enemy_hexes:
                special.append(n)
                continue
            if features(here, n):
                cost = self._terrain_cost(engine, unit, here, n)
            else:  # across a bare hexside the step costs the hex alone (000 §5.4)
                known = into.get(n)
                if known is None:
                    known = into[n] = self._terrain_cost(engine, unit, here, n)
                cost = known
            if cost.__class__ is Verdict:
                special.append(n)
            else:
                plain.append((n, cost))  # type: ignore[arg-type]
        return tuple(plain), tuple(special)

    def over_budget(self, engine: Engine, query: MoveQuery, move: Move, to: Hex,
                    cost: float) -> Verdict:
        """000 §5.2c."""
        return self._over_budget(engine, cost, move.left)

    def _over_budget(self, engine: Engine, cost: float, left: float) -> Verdict:
        # Shared by every step of the same cost and MP left: the search makes many.
        key = ("fm_over", cost, left)
        known = engine.memo.get(key)
        if known is None:
            known = engine.memo[key] = Verdict(
                False, self.cite("5.2"), None,
                f"entering costs {cost:g} MP and {left:g} remain (5.2c)")
        assert isinstance(known, Verdict)
        return known

    def _entry_costs(self, engine: Engine, unit_class: str) -> dict[Hex, float | Verdict]:
        """The cost of entering each hex across a bare hexside, filled in as asked."""
        table = engine.memo.setdefault(("fm_entry", unit_class), {})
        assert isinstance(table, dict)
        return table

    def _terrain_cost(self, engine: Engine, unit: Unit, frm: Hex, to: Hex) -> float | Verdict:
        """000 §5.4: hex cost (highest terrain, plus +N) plus hexside costs;
        §5.4.1 road ½ and §5.4.2 trail 1 replace both along a road or trail hexside.

        The cost depends only on the terrain of both hexes and the hexside between
        them, so it is remembered per combination (a map has few) and a refusal
        leaves ``at`` for the caller to fill in.
        """
        gmap = engine.situation.map
        key = ("fm_cost", unit.unit_class, gmap.features(frm, to), gmap.tags(frm), gmap.tags(to))
        known = engine.memo.get(key)
        if known is None:
            known = engine.memo[key] = self._step_cost(engine, unit, frm, to)
        assert isinstance(known, float | int | Verdict)
        return known

    def _step_cost(self, engine: Engine, unit: Unit, frm: Hex, to: Hex) -> float | Verdict:
        sit = engine.situation
        features = sit.map.features(frm, to)
        rates = [r for f in ("road", "trail")
                 if f in features and (r := sit.chart.rate(f)) is not None]
        if rates:
            return min(rates)
        hex_cost = self.hex_cost(engine, to, unit.unit_class)
        if hex_cost.prohibited_by:
            return Verdict(False, self.cite("5.2"), None,
                           f"{hex_cost.prohibited_by} is prohibited terrain (5.2e)")
        ignore: frozenset[str] = frozenset()
        extra = 0.0
        if "river" in features and sit.map.has(frm, "city") and sit.map.has(to, "city"):
            # 000 §10.1 Important (RULINGS F&M-5): a bridge is assumed between
            # two city hexes separated by a river hexside.
            ignore = frozenset({"river"})
            extra = float(sit.chart.extra.get("bridged_river") or 0.0)
        side_cost = self.hexside_cost(engine, frm, to, unit.unit_class, ignore)
        if side_cost.prohibited_by:
            return Verdict(False, self.cite("5.2"), None,
                           f"the {side_cost.prohibited_by} hexside is prohibited (5.2e)")
        return hex_cost.mp + side_cost.mp + extra

    def _ezoc_to_ezoc_exception(self, engine: Engine, unit: Unit, frm: Hex,
                                to: Hex) -> Verdict | None:
        """000 §6.1 Exception: no EZOC to EZOC across a minefield hexside or into a
        fortification hex (commandos exempt)."""
        sit = engine.situation
        if "minefield" in sit.map.features(frm, to):
            return Verdict(False, self.cite("6.1"), engine.name(to),
                           "EZOC to EZOC across a minefield hexside is forbidden")
        if sit.map.has(to, "fortification"):
            return Verdict(False, self.cite("6.1"), engine.name(to),
                           "EZOC to EZOC into a fortification hex is forbidden")
        return None

    def _in_ezoc(self, engine: Engine, unit: Unit, h: Hex) -> bool:
        return h in self._surroundings(engine, unit)[1]

    def _surroundings(self, engine: Engine, unit: Unit
                      ) -> tuple[frozenset[Hex], frozenset[Hex]]:
        """Enemy-occupied hexes, and the EZOC hexes that matter to this unit."""
        key = ("fm_surroundings", unit.side, self.ignores_ezoc(unit))
        known = engine.memo.get(key)
        if known is None:
            sit = engine.situation
            enemy = frozenset(h for h in sit.occupants if sit.enemy_in(h, unit.side))
            ezoc = frozenset() if self.ignores_ezoc(unit) else frozenset(
                engine.enemy_zoc(unit.side))
            known = engine.memo[key] = (enemy, ezoc)
        return known  # type: ignore[return-value]

    # -- stacking and placement ---------------------------------------------------------

    def beach_landing_hex(self, engine: Engine, h: Hex) -> bool:
        """000 §11.2.1: a beach hex with a beachhead marker and no German unit in it."""
        sit = engine.situation
        return (sit.map.has(h, "beach") and bool(sit.markers_in(h, "beachhead"))
                and not any(u.side == GERMAN for u in sit.units_in(h)))

    def stacking(self, engine: Engine, h: Hex, units: tuple[Unit, ...]) -> Verdict:
        """000 §5.3 one unit a hex; §11.2.1/§11.2.4 three in a beach landing hex, and a
        unit that has left one may never stack again."""
        name = engine.name(h)
        limit = self.number(engine, "stacking.limit", 1)
        if len(units) <= limit:
            return Verdict(True, None, name, "one unit" if len(units) == 1 else
                           f"{len(units)} units within the limit of {limit:g}")
        if not self.beach_landing_hex(engine, h):
            return Verdict(False, self.cite("5.3"), name,
                           f"{len(units)} units in a hex that is not a beach landing hex")
        exited = [u.id for u in units if u.flag("exited_beach")]
        if exited:
            return Verdict(False, self.cite("11.2.1"), name,
                           f"{', '.join(exited)} left a beach landing hex and may not stack again")
        beach_limit = float(self.profile_value(engine, lambda p: marker_limit(p, "beachhead"), 3))
        if len(units) > beach_limit:
            return Verdict(False, self.cite("11.2.4"), name, f"{len(units)} units exceed the"
                           f" beach landing hex limit of {beach_limit:g}")
        return Verdict(True, None, name, f"{len(units)} units in a beach landing hex")

    def placement(self, engine: Engine, unit: Unit, h: Hex) -> Verdict:
        """000 §11.2.4: reinforcements land on beach landing hexes with a beachhead
        marker, not in one that is in an EZOC and holds no Allied unit (after GT 1)."""
        sit, name = engine.situation, engine.name(h)
        if any(u.side == GERMAN for u in sit.units_in(h)):
            return Verdict(False, self.cite("11.2.1"), name, "a German unit occupies the hex")
        if not self.beach_landing_hex(engine, h):
            return Verdict(False, self.cite("11.2.4"), name,
                           "not a beach landing hex with a beachhead marker")
        allied_here = [u for u in sit.units_in(h) if u.side == ALLIED and u.id != unit.id]
        if sit.turn > 1 and engine.in_enemy_zoc(h, ALLIED) and not allied_here:
            return Verdict(False, self.cite("11.2.4"), name,
                           "the hex is in an EZOC and holds no Allied unit")
        return self.stacking(engine, h, (*allied_here, unit))

    # -- supply -------------------------------------------------------------------------

    def supply(self, engine: Engine, units: list[Unit]) -> dict[str, SupplyAnswer]:
        """000 §12.0: a path of any length to a beachhead, not into enemy units nor through an
        EZOC hex (entered or left only); §9.0: German units need no supply.

        One search from every beach landing hex with a beachhead marker over the
        hexes a path may pass through: not enemy-occupied, not in an EZOC (an EZOC
        hex may only be left, by the unit, or entered, as the source).
        """
        sit, rule = engine.situation, self.cite("12.0")
        sources = {h for h in sit.map.grid.hexes() if self.beach_landing_hex(engine, h)}
        ezoc = engine.enemy_zoc(ALLIED)
        passable = {h for h in sit.map.grid.hexes()
                    if h not in ezoc and not sit.enemy_in(h, ALLIED)}
        # parent[h]: the next hex toward a source on a shortest path.
        parent: dict[Hex, Hex] = {}
        queue: deque[Hex] = deque()
        for s in sorted(sources):
            for n in engine.grid.neighbours(s):
                if n in passable and n not in parent and n not in sources:
                    parent[n] = s
                    queue.append(n)
        while queue:
            h = queue.popleft()
            for n in engine.grid.neighbours(h):
                if n in passable and n not in parent and n not in sources:
                    parent[n] = h
                    queue.append(n)
        answers: dict[str, SupplyAnswer] = {}
        for unit in units:
            answers[unit.id] = self._unit_supply(engine, unit, sources, parent, rule)
        return answers

    def _unit_supply(self, engine: Engine, unit: Unit, sources: set[Hex],
                     parent: dict[Hex, Hex], rule: str) -> SupplyAnswer:
        if unit.side != ALLIED:
            return SupplyAnswer(True, self.cite("9.0"), "German units are always in supply")
        if unit.flag("ranger"):
            return SupplyAnswer(True, self.cite("12.0"), "Rangers need not trace supply")
        if unit.hex is None:
            return SupplyAnswer(True, None, "not on the map")
        if unit.hex in sources:
            return SupplyAnswer(True, rule, "on a beach landing hex", (unit.hex,))
        for n in engine.grid.neighbours(unit.hex):
            if n in sources:
                return SupplyAnswer(True, rule, "next to a beach landing hex", (unit.hex, n))
        for n in engine.grid.neighbours(unit.hex):
            if n in parent:
                path = [unit.hex, n]
                while path[-1] not in sources:
                    path.append(parent[path[-1]])
                return SupplyAnswer(True, rule, f"traced to the beachhead in "
                                    f"{engine.name(path[-1])}", tuple(path))
        return SupplyAnswer(False, rule, "no path to a beach landing hex with a beachhead "
                            "marker avoids enemy units and passing through EZOC hexes")


def _mp(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)
