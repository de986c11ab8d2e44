"""The hooks of a rule system: what the engine and the movement search ask of it.

:class:`~pipeline.rules.kernel.Kernel` answers every hook from the game's
profile. A registered rule system subclasses the kernel and overrides only the
hooks its own procedures need, declaring each in :attr:`System.overrides` with
the section it implements; it holds no published number (those are the
profile's) and reads the profile keys it declares in :attr:`System.reads`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from pipeline.hexgrid import Hex
from pipeline.rules.errors import RulesError
from pipeline.rules.movement import Move, MoveQuery
from pipeline.rules.situation import Unit
from pipeline.rules.verdict import SupplyAnswer, Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["REPOSITORY", "NumberedSteps", "PlainSteps", "ScaledSteps", "Steps", "SupplyAnswer",
           "System"]

# Plain steps as (hex, MP) and the neighbours that need ``System.enter``.
Steps = tuple[tuple[tuple[Hex, float], ...], tuple[Hex, ...]]
# The same by the hexes' numbers (pipeline.rules.numbering): (MP, hex) and the others.
NumberedSteps = tuple[tuple[tuple[float, int], ...], tuple[int, ...]]
# The same in whole units of MP: (units, hex) and the others.
ScaledSteps = tuple[tuple[tuple[int, int], ...], tuple[int, ...]]


@dataclass(frozen=True)
class PlainSteps:
    """What a search that counts MP alone asks of one question's mover
    (:meth:`System.step_memo`)."""

    #: Where that kind of mover's steps are kept, and the kind's key in it.
    memo: dict[tuple[object, ...], object]
    kind: tuple[object, ...]
    #: The numbers of the hexes :meth:`System.enter` refuses it whatever its state.
    barred: frozenset[int]
    #: :meth:`System.steps` of a state that remembers nothing, after the first step, out of
    #: a hex (by number).
    row: Callable[[int], NumberedSteps]
    #: The same for a count of MP in whole units of ``1 / scale``, given the scale, as a
    #: function of the engine and the hex's number (kept in :attr:`memo` for every engine):
    #: each plain step as ``(units, number)``, the others less :attr:`barred`; a row is
    #: ``None`` where a step's MP are not a whole number of units. ``None`` (or ``None``
    #: at a scale) where only :attr:`row` is given.
    scaled: Callable[[int], Callable[[Engine, int], ScaledSteps | None] | None] | None = None

#: The repository the seed systems' reference profiles (maps/<game>/rules.json) are in.
REPOSITORY = Path(__file__).resolve().parents[3]


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
    # A rulebook without section numbers is cited by its paragraphs' headings.
    cites_paragraphs: ClassVar[bool] = False

    def cite(self, section: str) -> str:
        """A citation of this system's rulebook (``"000 §11.2.1"``)."""
        return f"{self.code} §{section}"

    # -- movement hooks ------------------------------------------------------------

    def allowance(self, engine: Engine, query: MoveQuery) -> float:
        """MP the mover may spend this phase."""
        raise NotImplementedError

    def start(self, engine: Engine, query: MoveQuery) -> Move | Verdict:
        """The state before the first step, or why the unit may not move at all."""
        raise NotImplementedError

    def enter(self, engine: Engine, query: MoveQuery, move: Move, to: Hex) -> Move | Verdict:
        """The state after entering ``to``, or why that is illegal."""
        raise NotImplementedError

    def steps(self, engine: Engine, query: MoveQuery, move: Move) -> Steps:
        """The steps out of ``move.hex``: *plain* ones as ``(hex, MP)`` and the rest.

        A plain step needs no rule but the budget: it is legal when the MP are
        left, costs exactly that, and leaves the mover remembering only what
        :meth:`carried` keeps, with no stop. The search makes those itself
        without calling :meth:`enter` (the hot path of every movement question).
        The default has none: every neighbour goes through :meth:`enter`.
        """
        return (), engine.grid.adjacency[move.hex]

    def stepper(self, engine: Engine, query: MoveQuery) -> Callable[[Move], Steps]:
        """:meth:`steps` for one question, as the search calls it at every state it
        settles: a system may bind what the question's steps read once (the default asks
        :meth:`steps`)."""
        return functools.partial(self.steps, engine, query)

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

    def step_memo(self, engine: Engine, query: MoveQuery) -> PlainSteps | None:
        """What a search that counts the MP alone (:mod:`pipeline.rules.cheapest`) needs of
        this question's mover; ``None`` (the default) when a step after the first depends on
        more than the hexes and what the mover remembers (its MP or its steps so far, a
        die), and every question takes the full search."""
        return None

    def carried(self, memory: frozenset[str]) -> frozenset[str]:
        """What a plain step keeps of the mover's memory (default: all of it).

        What a plain step carries may only restrict the mover (a hex it may not re-enter,
        a stack it may not join): the search drops such a state where the same hex is
        reached for no more MP with nothing remembered."""
        return memory

    def over_budget(self, engine: Engine, query: MoveQuery, move: Move, to: Hex,
                    cost: float) -> Verdict:
        """Why a plain step into ``to`` costing ``cost`` MP is refused from ``move``."""
        return Verdict(False, None, None,
                       f"entering costs {cost:g} MP and {move.left:g} remain")

    def end(self, engine: Engine, query: MoveQuery, move: Move) -> Verdict | None:
        """Why the mover may not end its move here, or ``None``."""
        return None

    def end_checks(self, engine: Engine, query: MoveQuery) -> frozenset[Hex] | None:
        """The hexes where :meth:`end` may refuse a state that remembers nothing, or
        ``None`` for every hex: the search asks :meth:`end` of the others only when they
        remember something (the default asks everywhere)."""
        return None

    def end_refusals(self, engine: Engine, query: MoveQuery) -> Container[Hex] | None:
        """The hexes where :meth:`end` refuses a state that remembers nothing, known
        before the search (away from the mover's own hex), or ``None``: the search then
        asks :meth:`end` (the default)."""
        return None

    # -- zones of control ----------------------------------------------------------

    def exerts_zoc(self, engine: Engine, unit: Unit) -> bool:
        """Whether a unit has a zone of control."""
        return False

    def zoc_reaches(self, engine: Engine, unit: Unit, into: Hex) -> bool:
        """Whether a unit's ZOC extends from its hex into the adjacent ``into``."""
        return True

    def zone_of_control(self, engine: Engine, unit: Unit) -> list[Hex]:
        """The hexes ``unit``'s ZOC extends into: none unless it exerts one
        (:meth:`exerts_zoc`), else the neighbours it reaches (:meth:`zoc_reaches`)."""
        if unit.hex is None or not self.exerts_zoc(engine, unit):
            return []
        return [n for n in engine.grid.neighbours(unit.hex)
                if self.zoc_reaches(engine, unit, n)]

    def zones_of_control(self, engine: Engine, units: Sequence[Unit]
                         ) -> Iterable[tuple[Unit, Sequence[Hex]]]:
        """Each of ``units`` with its :meth:`zone_of_control` (all of a side's units at
        once: a system may look its rules up once for them all)."""
        zone = self.zone_of_control
        return ((unit, zone(engine, unit)) for unit in units)

    # -- other questions -----------------------------------------------------------

    def supply(self, engine: Engine, units: list[Unit]) -> dict[str, SupplyAnswer]:
        """Supply status of units, all traced in one pass."""
        raise RulesError(f"the {self.name} rules have no supply rules")

    def stacking(self, engine: Engine, h: Hex, units: tuple[Unit, ...]) -> Verdict:
        """Whether these units may stand together in hex ``h``."""
        raise RulesError(f"the {self.name} rules have no stacking rules")

    def placement(self, engine: Engine, unit: Unit, h: Hex) -> Verdict:
        """Whether a reinforcement may be placed in ``h``."""
        raise RulesError(f"the {self.name} rules have no reinforcement placement rules")

    def los(self, engine: Engine, a: Hex, b: Hex) -> Verdict:
        """Whether the line of sight between two hexes is clear."""
        raise RulesError(f"the {self.name} rules have no line-of-sight rules")
