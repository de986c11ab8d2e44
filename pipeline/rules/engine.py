"""The rules engine: one situation, one game's rules, every question.

>>> from pipeline.rules.cases import case_from_data
>>> case = case_from_data({"system": "fm_omaha", "map": {"cols": 3, "rows": 3},
...     "terrain_chart": {"hex": {"clear": 1}}, "units": [
...     {"id": "A", "side": "allied", "hex": "0202", "class": "leg", "ma": 1}],
...     "state": {"active_side": "allied", "turn": 2, "phase": "movement"},
...     "query": {}, "expect": {}})
>>> sorted(Engine(case.situation).reachable("A").costs.values())
[1, 1, 1, 1, 1, 1]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from pipeline.errors import DataError
from pipeline.hexgrid import Hex, HexGrid
from pipeline.model import RulesProfile
from pipeline.rules.errors import RulesError
from pipeline.rules.movement import MoveQuery, PathCheck, Reach, check_path, reachable
from pipeline.rules.situation import Situation, Unit, mixed_names
from pipeline.rules.systems import system_for
from pipeline.rules.systems.base import System
from pipeline.rules.verdict import SupplyAnswer, Verdict

__all__ = ["Engine"]


class Engine:
    """Answers rules questions about one :class:`Situation`."""

    def __init__(self, situation: Situation) -> None:
        self.situation = situation
        self.system: System = system_for(situation.system)
        self._zoc: dict[str, dict[Hex, tuple[Unit, ...]]] = {}
        # Per-engine memo for the systems' pure lookups (terrain costs...): the
        # search asks the same questions thousands of times.
        self.memo: dict[tuple[object, ...], object] = {}
        # The system's rules for each question's movers, by their ids (the searches look
        # them up at every step).
        self.movers: dict[tuple[str, ...], object] = {}
        # What the system keeps of the question being answered (the kernel: its mover and
        # step table), here rather than on the system so neither holds the other.
        self.asking: object = None
        self._cites: dict[str, str] = {}

    @property
    def profile(self) -> RulesProfile:
        """The rules profile the answers come from."""
        return self.situation.profile

    def cite(self, text: str, fallback: str = "") -> str | None:
        """A ``cite`` of the profile as answers quote it (``"000 §6.1"``): ``text``, else
        ``fallback``; ``None`` when both are empty."""
        chosen = text or fallback
        if not chosen:
            return None
        known = self._cites.get(chosen)
        if known is None:
            known = self._cites[chosen] = self.profile.cite_text(chosen)
        return known

    @property
    def grid(self) -> HexGrid:
        """The map's grid."""
        return self.situation.map.grid

    def name(self, h: Hex) -> str:
        """Printed id of a hex."""
        return self.grid.id(h)

    # -- zones of control ----------------------------------------------------------

    def zone_of_control(self, unit: Unit) -> list[Hex]:
        """The hexes a unit's ZOC extends into (none when it exerts none)."""
        return self.system.zone_of_control(self, unit)

    def enemy_zoc(self, side: str) -> dict[Hex, tuple[Unit, ...]]:
        """Hexes in the ZOC of units not of ``side``, with the units exerting it (worked
        out once per position: :attr:`~pipeline.rules.situation.Situation.position_memo`)."""
        known = self._zoc.get(side)
        if known is None:
            memo = self.situation.position_memo
            kept = memo.get(("enemy_zoc", side))
            if kept is None:
                kept = memo[("enemy_zoc", side)] = self._zoc_of(side)
            known = self._zoc[side] = cast("dict[Hex, tuple[Unit, ...]]", kept)
        return known

    def _zoc_of(self, side: str) -> dict[Hex, tuple[Unit, ...]]:
        found: dict[Hex, tuple[Unit, ...]] = {}
        get = found.get
        others = [u for u in self.situation.units if u.side != side]
        for unit, zone in self.system.zones_of_control(self, others):
            for h in zone:
                here = get(h)
                found[h] = (unit,) if here is None else (*here, unit)
        return found

    def in_enemy_zoc(self, h: Hex, side: str) -> bool:
        """Whether a hex is in an enemy ZOC for ``side``."""
        return h in self.enemy_zoc(side)

    # -- questions -----------------------------------------------------------------

    def query(self, unit_ids: str | Sequence[str], die_rolls: dict[Hex, int] | None = None,
              overrun: bool = False) -> MoveQuery:
        """A movement query for one unit or a stack moving together."""
        ids = [unit_ids] if isinstance(unit_ids, str) else list(unit_ids)
        movers = tuple(self.situation.unit(i) for i in ids)
        for u in movers:
            if u.hex is None:
                raise DataError(None, "query", f"unit '{u.id}' is not on the map")
            mixed = self.mixed_hex(u)
            if mixed is not None:
                raise DataError(None, "query", f"unit '{u.id}': {mixed.reason}, so its move"
                                f" is not answered{self._cited(mixed.rule)}")
            if math.isnan(u.ma):
                raise RulesError(f"unit '{u.id}' has no movement allowance in its manifest "
                                 "(the rulebook does not give it): fill in 'movement'")
        return MoveQuery(movers, die_rolls or {}, overrun)

    def reachable(self, unit_ids: str | Sequence[str], *, paths: bool = False) -> Reach:
        """Where the unit (or stack) can end its move, at what minimum MP.

        ``paths``: the caller will read the paths or the refusals too (one search then
        gives everything, rather than the MP's own search and then the full one).
        """
        return reachable(self, self.query(unit_ids), paths=paths)

    def check_path(self, unit_ids: str | Sequence[str], path: Sequence[Hex],
                   die_rolls: dict[Hex, int] | None = None, overrun: bool = False) -> PathCheck:
        """Whether moving along ``path`` is legal, and what it costs."""
        return check_path(self, self.query(unit_ids, die_rolls, overrun), list(path))

    def supply(self, unit_ids: Sequence[str] | None = None) -> dict[str, SupplyAnswer]:
        """Supply status of the given units (default: all units), traced in one pass.

        Every unit is answered, those in a hex both sides hold included (only a saved game
        keeps one: ``load_game(..., mixed="report")``): its line starts in its own hex,
        which the enemy there does not close, and for every other unit that hex holds an
        enemy unit, so no line enters it (:mod:`pipeline.rules.supply`)."""
        units = list(self.situation.units) if unit_ids is None else [
            self.situation.unit(i) for i in unit_ids]
        profile = self.situation.profile
        if not profile.supply.traced:
            # A game without supply rules (002): every unit is in supply, and says why.
            why = "supply is not traced in this game (rules.json supply.traced is false)"
            if profile.supply.note:
                why += f": {profile.supply.note}"
            return {u.id: SupplyAnswer(True, None, why) for u in units}
        return self.system.supply(self, units)

    def mixed_hex(self, unit: Unit) -> Verdict | None:
        """Why a unit's move and its hex's stacking are not answered: it stands in a hex
        with units of another side (only a saved game keeps one:
        ``load_game(..., mixed="report")``), citing the profile's ``movement.enemy_hexes``;
        ``None`` for every other unit. Its supply is answered (:meth:`supply`)."""
        h = unit.hex
        if h is None or h not in self.situation.mixed_hexes:
            return None
        return Verdict(False, self.cite(self.profile.movement.enemy_hexes.cite), self.name(h),
                       f"hex {self.name(h)} holds units of both sides:"
                       f" {mixed_names(self.situation.mixed_hexes[h])}")

    @staticmethod
    def _cited(rule: str | None) -> str:
        return f" ({rule})" if rule else ""

    def stacking(self, h: Hex) -> Verdict:
        """Whether the units now in ``h`` may stack there."""
        here = self.situation.units_in(h)
        if here and (mixed := self.mixed_hex(here[0])) is not None:
            return mixed
        return self.system.stacking(self, h, here)

    def placement(self, unit_id: str, h: Hex) -> Verdict:
        """Whether a reinforcement may be placed in ``h``."""
        return self.system.placement(self, self.situation.unit(unit_id), h)

    def los(self, a: Hex, b: Hex) -> Verdict:
        """Whether the line of sight from ``a`` to ``b`` is clear."""
        return self.system.los(self, a, b)
