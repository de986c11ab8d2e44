"""Cobra (003_de9c41aeffe9bb98.txt): Normandy, June–August 1944, division scale.

The game's profile (``maps/cobra/rules.json``) says the rules a table can say,
and the kernel answers them: the initial and mechanized movement phases and who
moves in each (§4.0, §5.3.3, §5.3.7), German weather, supply, replacements and
the first turns (§5.4.2, §10.6.1, §12.2.3), the bocage minimums (§5.7.1), roads
(§5.7.3), ZOC that stop a unit and are left only by disengaging (§5.2.3, §5.6,
§7), one division a hex (§6), and supply lines of at most 12 counted hexes
(§10.3). What is left here are Cobra's own procedures: a disengagement the
unit cannot pay for (§5.6.3) and crossing a major river into an EZOC (§5.7.2).
Readings of unclear rules follow RULINGS.md (COB-1..3); the others are noted on
the profile entries and marked "Reading:" here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pipeline.hexgrid import Hex
from pipeline.model.folder import RULES_FILE
from pipeline.rules.kernel import KERNEL_READS, Kernel
from pipeline.rules.movement import Move, MoveQuery
from pipeline.rules.select import moving_class
from pipeline.rules.situation import Unit
from pipeline.rules.systems.base import REPOSITORY
from pipeline.rules.verdict import Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["Cobra"]


class Cobra(Kernel):
    """003: Cobra (the Normandy campaign), basic and expanded rules."""

    name = "cobra"
    title = "Cobra: The Normandy Campaign"
    rulebook = "003_de9c41aeffe9bb98.txt"
    code = "003"
    reads = KERNEL_READS
    reference = REPOSITORY / "maps" / "cobra" / RULES_FILE
    overrides: ClassVar[dict[str, str]] = {
        "short_of_mp": "5.6.3",
        "may_enter_ezoc": "5.7.2",
    }

    # -- disengagement (003 §5.6.3) ------------------------------------------------------

    def short_of_mp(self, engine: Engine, query: MoveQuery, move: Move, to: Hex, cost: float,
                    from_ezoc: bool) -> Verdict:
        """003 §5.6.3: units may be disengaged only if they can expend the required MP, so
        some units in an EZOC cannot move at all: "this is an exception to 5.2.7"."""
        leave = self.mover(engine, query).effects.leave
        if from_ezoc and leave.extra_mp:
            return Verdict(False, self.cite("5.6.3"), None,
                           f"disengaging costs {cost:g} MP (terrain + {leave.extra_mp:g}) and the"
                           f" unit has {move.left:g}; 5.2.7 does not apply in an EZOC")
        return super().short_of_mp(engine, query, move, to, cost, from_ezoc)

    # -- major rivers (003 §5.7.2) -------------------------------------------------------

    def may_enter_ezoc(self, engine: Engine, query: MoveQuery, move: Move,
                       to: Hex) -> Verdict | None:
        """003 §5.7.2: a unit may not be moved across a major river into a hex in an EZOC
        unless a) a friendly unit occupies it, b) no unit exerting the EZOC is adjacent to
        the river, or c) the move would be ordinary without the river.

        The rivers are the passable hexside features a ZOC does not cross
        (``zoc.reach.blocked_by_hexsides``, §7.6). Reading (cob-21, cob-23): c) holds
        when the mover's hex would not be in an EZOC if those rivers did not block ZOC;
        any such hexside counts, bridged or not (the rule does not except roads).
        """
        rivers = self._rivers(engine, query.unit)
        if not rivers & engine.situation.map.features(move.hex, to):
            return None
        sit, unit = engine.situation, query.unit
        if any(u.side == unit.side for u in sit.units_in(to)):
            return None  # a)
        exerting = engine.enemy_zoc(unit.side).get(to, ())
        if not any(u.hex is not None and self._on_river(engine, u.hex, rivers)
                   for u in exerting):
            return None  # b)
        would_be = any(e.side != unit.side and self.exerts_zoc(engine, e)
                       and self._reaches_without(engine, e, move.hex, rivers)
                       for n in engine.grid.neighbours(move.hex) for e in sit.units_in(n))
        return self._refused() if would_be else None  # c)

    def _refused(self) -> Verdict:
        return Verdict(False, self.cite("5.7.2"), None,
                       "across a major river into an EZOC hex: the hex is empty, the enemy"
                       " borders the river, and without the river the move would be EZOC to"
                       " EZOC")

    @staticmethod
    def _rivers(engine: Engine, unit: Unit) -> frozenset[str]:
        """The ZOC-blocking hexside features this unit may cross (003 §7.6: major rivers)."""
        chart = engine.situation.chart
        unit_class = moving_class(engine, unit)
        return frozenset(f for f in engine.profile.zoc.reach.blocked_by_hexsides
                         if chart.hexside_cost(f, unit_class) != "P")

    @staticmethod
    def _on_river(engine: Engine, h: Hex, rivers: frozenset[str]) -> bool:
        features = engine.situation.map.features
        return any(rivers & features(h, n) for n in engine.grid.neighbours(h))

    def _reaches_without(self, engine: Engine, unit: Unit, into: Hex,
                         rivers: frozenset[str]) -> bool:
        """Whether ``unit``'s ZOC would reach ``into`` if ``rivers`` did not block it."""
        assert unit.hex is not None
        reach = engine.profile.zoc.reach
        gmap = engine.situation.map
        blocking = set(reach.blocked_by_hexsides) - rivers
        if blocking & gmap.features(unit.hex, into):
            return False
        return not any(t in reach.not_into_terrain for t in gmap.tags(into))
