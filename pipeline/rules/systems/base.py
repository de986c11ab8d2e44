"""What every game's rules share, and the hooks where they differ.

A :class:`System` answers the procedural questions of one rule system. Tables
(costs, rates) come from the situation's chart; rules that are procedures live
in the subclasses, each citing its rulebook and section.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pipeline.hexgrid import Hex
from pipeline.rules.errors import RulesError
from pipeline.rules.movement import Move, MoveQuery
from pipeline.rules.situation import Unit
from pipeline.rules.verdict import SupplyAnswer, Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["ABSENT", "REPOSITORY", "Cost", "Steps", "SupplyAnswer", "System", "length_count", "ma_factor",
           "marker_limit"]

# Plain steps as (hex, MP) and the neighbours that need ``System.enter``.
Steps = tuple[tuple[tuple[Hex, float], ...], tuple[Hex, ...]]

_ABSENT = object()
ABSENT = _ABSENT
#: The repository the seed systems' reference profiles (maps/<game>/rules.json) are in.
REPOSITORY = Path(__file__).resolve().parents[3]


def ma_factor(profile: Any, weather: str | None = None, out_of_supply: bool = False) -> Any:
    """The MA factor of the profile's modifier for a weather, or for units out of supply."""
    for m in profile.movement.ma_modifiers:
        if m.factor is None:
            continue
        if weather is not None and m.weather == [weather]:
            return m.factor
        if out_of_supply and m.out_of_supply:
            return m.factor
    return _ABSENT


def marker_limit(profile: Any, marker: str) -> Any:
    """The stacking limit of hexes holding a marker (``stacking.hex_limits``)."""
    return next((x.limit for x in profile.stacking.hex_limits if x.marker == marker), _ABSENT)


def length_count(profile: Any, what: str) -> Any:
    """What a terrain, a hex with a hexside feature, or a crossing counts of a supply line."""
    length = profile.supply.length
    for entry in length.hex_counts:
        if what in (entry.terrain, entry.feature):
            return entry.counts
    return next((c.counts for c in length.crossings if c.feature == what), _ABSENT)


@dataclass(frozen=True)
class Cost:
    """MP to enter a hex, or the terrain that prohibits it."""

    mp: float
    prohibited_by: str | None = None


_FREE = Cost(0.0)


class System:
    """The hooks of a rule system; :class:`~pipeline.rules.kernel.Kernel` implements them
    from the profile, and a registered system overrides the ones it declares."""

    #: The system's id, under which it is registered (entry-point group ``bocage.rules``).
    name: ClassVar[str] = ""
    #: What it is, in a few words.
    title: ClassVar[str] = ""
    #: The rulebook its procedures come from (a file name) and how its answers name it.
    rulebook: ClassVar[str] = ""
    code: ClassVar[str] = ""  # the rulebook's file number: "000", "001", "002", "003"
    #: The profile keys it reads (``"zoc.enter"``, ``"terrain.*.minimum"``...).
    reads: ClassVar[frozenset[str]] = frozenset()
    #: The kernel hooks it replaces, each with the section of the rule it implements.
    overrides: ClassVar[dict[str, str]] = {}
    #: The profile its scenario cases are answered with when they carry none.
    reference: ClassVar[Path | None] = None
    # A rulebook without section numbers is cited by its paragraphs' opening words.
    cites_paragraphs: ClassVar[bool] = False

    def cite(self, section: str) -> str:
        """A citation of this game's rulebook."""
        return f"{self.code} §{section}"

    # -- numbers a table can say -----------------------------------------------------

    def setting(self, engine: Engine, path: str, published: Any) -> Any:
        """A value of the game's rules profile, by dotted path (``"supply.max_length"``).

        A question without a profile (a scenario case) gets ``published``, the
        number of the game this system was written from, as does a profile whose
        table has no such key; a builder's profile that changes the number
        changes the answer.
        """
        node: Any = engine.situation.profile
        if node is None:
            return published
        for part in path.split("."):
            node = node.get(part, _ABSENT) if isinstance(node, dict) else getattr(
                node, part, _ABSENT)
            if node is _ABSENT:
                return published
        return node

    @staticmethod
    def profile_value(engine: Engine, find: Callable[[Any], Any], published: Any) -> Any:
        """A value ``find`` reads off the profile, or ``published`` without a profile (or
        when ``find`` finds nothing there)."""
        profile = engine.situation.profile
        if profile is None:
            return published
        found = find(profile)
        return published if found is _ABSENT else found

    def number(self, engine: Engine, path: str, published: float) -> float:
        """A number the rules need from the profile; ``null`` there is refused by name."""
        value = self.setting(engine, path, published)
        if value is None:
            raise RulesError(f"the rules profile leaves {path} null and {self.code} needs it:"
                             f" fill in {path} in rules.json")
        return float(value)

    # -- movement hooks ------------------------------------------------------------

    def allowance(self, engine: Engine, query: MoveQuery) -> float:
        """MP the mover may spend this phase (printed MA unless a rule changes it)."""
        return min(u.ma for u in query.movers)

    def start(self, engine: Engine, query: MoveQuery) -> Move | Verdict:
        """The state before the first step, or why the unit may not move at all."""
        assert query.unit.hex is not None
        return Move(query.unit.hex, 0.0, self.allowance(engine, query))

    def enter(self, engine: Engine, query: MoveQuery, move: Move, to: Hex) -> Move | Verdict:
        """The state after entering ``to``, or why that is illegal."""
        raise NotImplementedError

    def steps(self, engine: Engine, query: MoveQuery, move: Move) -> Steps:
        """The steps out of ``move.hex``: *plain* ones as ``(hex, MP)`` and the rest.

        A plain step needs no rule but the budget: it is legal when the MP are
        left, costs exactly that, and leaves the mover with no memory and no
        stop. The search makes those itself without calling :meth:`enter` (the
        hot path of every movement question). The default has none: every
        neighbour goes through :meth:`enter`.
        """
        return (), engine.grid.adjacency[move.hex]

    @staticmethod
    def split_steps(engine: Engine, here: Hex,
                    plain_cost: Callable[[Hex], float | Verdict | None]) -> Steps:
        """The neighbours of ``here`` as :meth:`steps` returns them: ``plain_cost`` gives
        a plain step's MP, or ``None`` (or the refusal) for a step :meth:`enter` decides."""
        plain: list[tuple[Hex, float]] = []
        special: list[Hex] = []
        for n in engine.grid.adjacency[here]:
            cost = plain_cost(n)
            if cost is None or isinstance(cost, Verdict):
                special.append(n)
            else:
                plain.append((n, cost))
        return tuple(plain), tuple(special)

    @staticmethod
    def step_table(engine: Engine, key: tuple[object, ...]) -> dict[Hex, Steps]:
        """The engine's table of :meth:`steps` answers for one kind of mover (``key``: what
        the answers depend on), filled in hex by hex as the searches ask."""
        table = engine.memo.get(key)
        if table is None:
            table = engine.memo[key] = {}
        assert isinstance(table, dict)
        return table

    def over_budget(self, engine: Engine, query: MoveQuery, move: Move, to: Hex,
                    cost: float) -> Verdict:
        """Why a plain step into ``to`` costing ``cost`` MP is refused from ``move``."""
        return Verdict(False, None, None,
                       f"entering costs {cost:g} MP and {move.left:g} remain")

    def end(self, engine: Engine, query: MoveQuery, move: Move) -> Verdict | None:
        """Why the mover may not end its move here, or ``None``."""
        here = engine.situation.units_in(move.hex)
        if not here and len(query.movers) == 1:
            return None  # one unit alone in a hex stacks legally in every game
        ids = {u.id for u in query.movers}
        others = tuple(u for u in here if u.id not in ids)
        placed = tuple(u for u in query.movers)
        verdict = self.stacking(engine, move.hex, others + placed)
        return None if verdict.legal else verdict

    # -- zones of control ----------------------------------------------------------

    def exerts_zoc(self, engine: Engine, unit: Unit) -> bool:
        """Whether a unit has a zone of control."""
        return not self.zoc_exempt(engine, unit, published=False)

    @staticmethod
    def zoc_exempt(engine: Engine, unit: Unit, published: bool) -> bool:
        """Whether the game's rules profile says a unit exerts no ZOC (``zoc.exerted``,
        ``zoc.not_exerted_by``). Without a profile (a scenario case), ``published``: the
        system's own reading of the published rule."""
        profile = engine.situation.profile
        if profile is None:
            return published
        from pipeline.rules.zoc import exerts_zoc
        return not exerts_zoc(engine, unit)

    def zoc_reaches(self, engine: Engine, unit: Unit, into: Hex) -> bool:
        """Whether a unit's ZOC extends from its hex into the adjacent ``into``."""
        return True

    # -- other questions -----------------------------------------------------------

    def supply(self, engine: Engine, units: list[Unit]) -> dict[str, SupplyAnswer]:
        """Supply status of units, all traced in one pass."""
        raise RulesError(f"{self.name} has no supply rules in bocage yet")

    def stacking(self, engine: Engine, h: Hex, units: tuple[Unit, ...]) -> Verdict:
        """Whether these units may stand together in hex ``h``."""
        raise RulesError(f"{self.name} has no stacking rules in bocage yet")

    def placement(self, engine: Engine, unit: Unit, h: Hex) -> Verdict:
        """Whether a reinforcement may be placed in ``h``."""
        raise RulesError(f"{self.name} has no reinforcement placement rules")

    def los(self, engine: Engine, a: Hex, b: Hex) -> Verdict:
        """Whether the line of sight between two hexes is clear."""
        raise RulesError(f"{self.name} has no line-of-sight rules")

    # -- shared terrain arithmetic -------------------------------------------------

    def hex_cost(self, engine: Engine, h: Hex, unit_class: str) -> Cost:
        """Cost of a hex's terrain: the highest of its terrains plus every ``+N``.

        000 §5.4 and 001 §10.1: the highest cost of several terrains; "+N"
        terrain is added to the highest other cost, or to clear when there is
        none (SCENARIOS.md §2.2).
        """
        # Keyed by the hex's terrain, not the hex: a map has few terrain mixes.
        key = ("hex_cost", engine.situation.map.tags(h), unit_class)
        known = engine.memo.get(key)
        if known is None:
            known = engine.memo[key] = self._hex_cost(engine, h, unit_class)
        assert isinstance(known, Cost)
        return known

    def _hex_cost(self, engine: Engine, h: Hex, unit_class: str) -> Cost:
        chart = engine.situation.chart
        base: float | None = None
        added = 0.0
        for tag in engine.situation.map.tags(h):
            raw = chart.hex.get(tag, _ABSENT)
            if raw is _ABSENT:
                continue  # a tag with no movement effect (e.g. a named area)
            cost = chart.hex_cost(tag, unit_class)
            if cost == "P":
                return Cost(math.inf, tag)
            if cost is None:
                raise RulesError(f"no movement cost for terrain '{tag}' ({unit_class}): the rulebook"
                                 f" leaves it to the map's chart; fill in terrain.{tag}.move")
            if isinstance(cost, str):
                added += float(cost.lstrip("+"))
            else:
                base = cost if base is None else max(base, float(cost))
        if base is None:
            clear = chart.hex_cost("clear", unit_class)
            base = float(clear) if isinstance(clear, (int, float)) else 1.0
        return Cost(base + added)

    def prohibiting(self, engine: Engine, frm: Hex, to: Hex, unit_class: str,
                    ignore: frozenset[str] = frozenset()) -> str | None:
        """The hex terrain or hexside feature the chart marks ``"P"`` for this step.

        Unlike :meth:`hex_cost`, a ``null`` (unknown) cost is not an error here:
        questions that only ask "may a unit go there at all" (supply lines, ZOC)
        can be answered while the map's chart is still being filled in.
        """
        chart, gmap = engine.situation.chart, engine.situation.map
        for feature in sorted(gmap.features(frm, to) - ignore):
            if chart.hexside_cost(feature, unit_class) == "P":
                return f"the {feature} hexside"
        for tag in gmap.tags(to):
            if chart.hex_cost(tag, unit_class) == "P":
                return f"{tag} terrain"
        return None

    def hexside_cost(self, engine: Engine, frm: Hex, to: Hex, unit_class: str,
                     ignore: frozenset[str] = frozenset()) -> Cost:
        """Sum of the costs of the hexside's features (added to the hex, 000 §5.4)."""
        features = engine.situation.map.features(frm, to) - ignore
        if not features:
            return _FREE
        chart = engine.situation.chart
        total = 0.0
        for feature in sorted(features):
            if chart.hexside.get(feature, _ABSENT) is _ABSENT:
                continue
            cost = chart.hexside_cost(feature, unit_class)
            if cost == "P":
                return Cost(math.inf, feature)
            if cost is None:
                raise RulesError(f"no movement cost for hexside '{feature}': the rulebook leaves"
                                 f" it to the map's chart; fill in hexsides.{feature}.move")
            total += float(cost.lstrip("+")) if isinstance(cost, str) else float(cost)
        return Cost(total)

    def road_move(self, engine: Engine, frm: Hex, to: Hex, feature: str) -> bool:
        """From a road hex into a road hex through a road hexside (000 §5.4.1)."""
        return feature in engine.situation.map.features(frm, to)
