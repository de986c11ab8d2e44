"""The situation a rules question is asked about: map, chart, units, markers, state.

The engine reads one shape, whatever the source: a rules scenario case
(``SCENARIOS.md``: a tiny map and its own terrain chart) or a game folder
(map data, rules profile, position). Everything is keyed by :class:`Hex`;
printed ids appear only in answers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress, repeat
from typing import Any, Literal

from pipeline.errors import DataError
from pipeline.hexgrid import Hex, HexGrid, Hexside
from pipeline.model import RulesProfile
from pipeline.rules.errors import RulesError
from pipeline.rules.numbering import Numbering

__all__ = ["OVERRUNS_MADE", "Chart", "GameMap", "Marker", "MixedHexes", "Situation", "Unit",
           "mixed_names", "refuse_mixed_hexes"]

#: What a position loader does with a hex holding units of both sides: refuse the position
#: (a typed position or a case: a typing error), or keep it and report that hex (a VASSAL
#: saved game records pieces where players left them, e.g. in a combat not yet resolved).
MixedHexes = Literal["refuse", "report"]

Cost = float | str | None | dict[str, Any]
_NONE: frozenset[str] = frozenset()
#: A unit's value for the overruns it made earlier this phase (a position's ``overruns``, a
#: case's unit key of that name), which ``overrun.per_phase`` counts (003 §5.5.1).
OVERRUNS_MADE = "overruns"
_RULES_MEMOS = 4  # a map's memos of what the rules work out from it, at most


@dataclass(frozen=True)
class GameMap:
    """Terrain as the rules see it."""

    grid: HexGrid
    terrain: Mapping[Hex, tuple[str, ...]]
    hexsides: Mapping[Hexside, frozenset[str]]
    edges: Mapping[str, str] = field(default_factory=dict)
    default_terrain: str = "clear"

    def tags(self, h: Hex) -> tuple[str, ...]:
        """The terrain tags of a hex (``("clear",)`` when none are listed)."""
        return self.terrain.get(h, (self.default_terrain,))

    def has(self, h: Hex, tag: str) -> bool:
        """Whether a hex carries a terrain tag."""
        return tag in self.tags(h)

    def features(self, a: Hex, b: Hex) -> frozenset[str]:
        """The features of the hexside between two adjacent hexes."""
        return self._by_pair.get((a, b), _NONE)

    @cached_property
    def _by_pair(self) -> dict[tuple[Hex, Hex], frozenset[str]]:
        # Both orders, so the movement search's hot loop does one dict lookup.
        out: dict[tuple[Hex, Hex], frozenset[str]] = {}
        for side, feats in self.hexsides.items():
            out[(side.a, side.b)] = out[(side.b, side.a)] = feats
        return out

    @cached_property
    def _feature_hexes(self) -> dict[str, frozenset[Hex]]:
        found: dict[str, set[Hex]] = {}
        for side, feats in self.hexsides.items():
            for f in feats:
                found.setdefault(f, set()).update((side.a, side.b))
        return {f: frozenset(hs) for f, hs in found.items()}

    def feature_hexes(self, feature: str) -> frozenset[Hex]:
        """The hexes any of whose hexsides carries ``feature`` ("road hexes")."""
        return self._feature_hexes.get(feature, frozenset())

    def is_feature_hex(self, h: Hex, feature: str) -> bool:
        """Whether any hexside of ``h`` carries ``feature`` (a "road hex")."""
        return h in self._feature_hexes.get(feature, frozenset())

    def edge_hexes(self, edge: str) -> frozenset[Hex]:
        """The map's hexes along one edge (``north``, ``south``, ``east``, ``west``): the
        first or last hex of each column (north, south) or row (west, east), so the
        edges of boards joined side by side are those of the whole map."""
        wanted = {"north": (1, min), "south": (1, max), "west": (0, min), "east": (0, max)}
        if edge not in wanted:
            raise RulesError(f"unknown map edge {edge!r}: use north, south, east or west")
        axis, pick = wanted[edge]
        extreme: dict[int, int] = {}
        for at in self._offsets.values():
            line, place = at[1 - axis], at[axis]
            extreme[line] = pick(extreme.get(line, place), place)
        return frozenset(h for h, at in self._offsets.items()
                         if at[axis] == extreme[at[1 - axis]])

    @cached_property
    def numbers(self) -> Numbering:
        """The hexes numbered for the searches (:mod:`pipeline.rules.numbering`): the
        grid's alone, kept with it for every position on the map."""
        return Numbering.of(self.grid)

    @cached_property
    def numbered_features(self) -> dict[int, frozenset[str]]:
        """The features of each hexside with any, both ways round, keyed ``a * n + b`` by
        the numbers of its hexes ``a`` and ``b`` (``n`` hexes on the map)."""
        ids = self.numbers.ids
        n = len(ids)
        out: dict[int, frozenset[str]] = {}
        for side, feats in self.hexsides.items():
            a, b = ids.get(side.a), ids.get(side.b)
            if a is not None and b is not None:
                out[a * n + b] = out[b * n + a] = feats
        return out

    @cached_property
    def featured_around(self) -> dict[int, tuple[frozenset[str] | None, ...]]:
        """Around each hex with a hexside listed in :attr:`hexsides` (by number), the
        features of the hexside to each neighbour in the order of
        :attr:`~pipeline.rules.numbering.Numbering.around` (``None``: not listed)."""
        numbers = self.numbers
        around, n = numbers.around, len(numbers.hexes)
        rows: dict[int, list[frozenset[str] | None]] = {}
        for key, feats in self.numbered_features.items():
            a, b = divmod(key, n)
            row = rows.get(a)
            if row is None:
                row = rows[a] = [None] * len(around[a])
            if b in around[a]:
                row[around[a].index(b)] = feats
        return {a: tuple(row) for a, row in rows.items()}

    @cached_property
    def terrain_mixes(self) -> tuple[tuple[tuple[str, ...], ...], list[int], tuple[int, ...]]:
        """The mixes of terrain tags on the map (:meth:`tags`), the mix of each hex by its
        number, and the number of the first hex of each mix: what depends on a hex's
        terrain alone is worked out once a mix (:meth:`mix_hexes`)."""
        hexes = self.numbers.hexes
        tags = list(map(self.terrain.get, hexes, repeat((self.default_terrain,), len(hexes))))
        mixes = tuple(dict.fromkeys(tags))
        index = {mix: i for i, mix in enumerate(mixes)}
        mix_of = list(map(index.__getitem__, tags))
        return mixes, mix_of, tuple(map(mix_of.index, range(len(mixes))))

    def mix_hexes(self, mix: int) -> tuple[int, ...]:
        """The numbers of the hexes of one mix of :attr:`terrain_mixes`."""
        mix_of = self.terrain_mixes[1]
        return tuple(compress(range(len(mix_of)), map(mix.__eq__, mix_of)))

    @cached_property
    def _offsets(self) -> dict[Hex, tuple[int, int]]:
        return {h: self.grid.offset(h) for h in self.grid.adjacency}

    @cached_property
    def _rules_memos(self) -> list[tuple[str, object, object, dict[tuple[object, ...], object]]]:
        return []

    def rules_memo(self, system: str, chart: object, profile: object
                   ) -> dict[tuple[object, ...], object]:
        """What the rules work out from this map, one rule system's chart and profile
        alone (what a step costs, each hex's steps before any unit stands near), kept
        with the map for every position on it (:meth:`Situation.with_position`). The
        chart and the profile are told apart by identity: both are frozen, and a new
        one (a profile edited and read again) gets a memo of its own."""
        memos = self._rules_memos
        for kept_system, kept_chart, kept_profile, kept in memos:
            if kept_system == system and kept_chart is chart and kept_profile is profile:
                return kept
        # A map asked about under many charts is a builder trying profiles: keep the last.
        del memos[:-(_RULES_MEMOS - 1)]
        memo: dict[tuple[object, ...], object] = {}
        memos.append((system, chart, profile, memo))
        return memo


@dataclass(frozen=True)
class Chart:
    """The terrain chart: costs of hexes and hexsides, road rates (SCENARIOS.md §2.2).

    A game folder's chart is its profile's (:meth:`from_profile`); a scenario case's is
    its own ``terrain_chart`` over the numbers its profile gives (:meth:`for_case`), and
    ``source`` names the case in messages about it.
    """

    hex: Mapping[str, Cost]
    hexside: Mapping[str, Cost]
    rates: Mapping[str, Cost]
    extra: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""

    @classmethod
    def from_profile(cls, profile: RulesProfile) -> Chart:
        """The chart a rules profile prints: every terrain, hexside and road it lists."""
        return cls(hex={n: r.move for n, r in profile.terrain.items()},
                   hexside={n: r.move for n, r in profile.hexsides.items()},
                   rates={n: r.rate for n, r in profile.roads.items()})

    @classmethod
    def for_case(cls, profile: RulesProfile, hexes: Mapping[str, Cost],
                 hexsides: Mapping[str, Cost], rates: Mapping[str, Cost],
                 extra: Mapping[str, Any], source: str) -> Chart:
        """A case's chart over the numbers its profile gives: a cost the profile states in
        full (a number or ``P``: the rulebook's own, like 000 §5.4's clear 1 MP or the all-sea
        prohibition) holds unless the case gives another; a ``null`` there is the case's to
        choose, so it is left out."""
        base = cls.from_profile(profile)

        def known(costs: Mapping[str, Cost]) -> dict[str, Cost]:
            return {n: c for n, c in costs.items() if not _unknown(c)}

        return cls(hex={**known(base.hex), **hexes}, hexside={**known(base.hexside), **hexsides},
                   rates={**known(base.rates), **rates}, extra=dict(extra), source=source)

    def hex_cost(self, tag: str, unit_class: str) -> float | str | None:
        """The cost of one terrain tag for a unit class (number, ``"+N"``, ``"P"``)."""
        return _for_class(self.hex.get(tag), unit_class)

    def hexside_cost(self, feature: str, unit_class: str) -> float | str | None:
        """The cost of crossing one hexside feature for a unit class."""
        return _for_class(self.hexside.get(feature), unit_class)

    def rate(self, feature: str, unit_class: str = "") -> float | None:
        """MP per hex along a road-like feature for a unit class, or ``None``."""
        value = _for_class(self.rates.get(feature), unit_class)
        return float(value) if isinstance(value, int | float) else None


def _unknown(cost: Cost) -> bool:
    if isinstance(cost, dict):
        return any(v is None for v in cost.values())
    return cost is None


def _for_class(cost: Cost, unit_class: str) -> float | str | None:
    if isinstance(cost, dict):
        value = cost.get(unit_class)
        return value if isinstance(value, (int, float, str)) or value is None else None
    return cost


@dataclass(frozen=True)
class Unit:
    """A unit on (or off) the map, with its printed values and flags."""

    id: str
    side: str
    hex: Hex | None
    unit_class: str
    ma: float
    steps: int = 1
    data: Mapping[str, Any] = field(default_factory=dict)

    def flag(self, name: str) -> bool:
        """A boolean flag (absent means false)."""
        return bool(self.data.get(name, False))

    def get(self, name: str, default: Any = None) -> Any:
        """Any other value the unit carries (``size``, ``nationality``...)."""
        return self.data.get(name, default)


@dataclass(frozen=True)
class Marker:
    """A marker on the map (beachhead, block, supply source...)."""

    type: str
    hex: Hex | None
    data: Mapping[str, Any] = field(default_factory=dict)

    def get(self, name: str, default: Any = None) -> Any:
        """A value the marker carries (``controlled_by``, ``wrecked``...)."""
        return self.data.get(name, default)


@dataclass(frozen=True)
class Situation:
    """Everything a rules question needs."""

    system: str
    map: GameMap
    chart: Chart
    units: tuple[Unit, ...]
    markers: tuple[Marker, ...]
    state: Mapping[str, Any]
    # The rules profile the answers come from: the game folder's, or a scenario case's
    # (its own, or the published game's its system registers).
    profile: RulesProfile

    @cached_property
    def by_id(self) -> dict[str, Unit]:
        """Units by id."""
        return {u.id: u for u in self.units}

    def unit(self, unit_id: str) -> Unit:
        """A unit by id; :class:`DataError` names an unknown one."""
        try:
            return self.by_id[unit_id]
        except KeyError:
            known = ", ".join(sorted(self.by_id)) or "none"
            raise DataError(None, "query", f"unknown unit '{unit_id}' (units: {known})") from None

    def with_position(self, units: tuple[Unit, ...], markers: tuple[Marker, ...] | None = None,
                      state: Mapping[str, Any] | None = None) -> Situation:
        """The same game at another position: these units (and markers and state, where
        given) on the same map, under the same rules. What the rules work out from the
        map alone (:attr:`terrain_memo`) is kept; the position's own facts are not.

        Examples
        --------
        >>> from pipeline.rules.cases import case_from_data
        >>> profile = {"kind": "rules", "game": "g", "source": "RULES.md",
        ...     "unit_classes": ["foot"], "dice": "1d6", "stacking": {"limit": 1},
        ...     "terrain": {"clear": {"move": 1, "note": "n"}}}
        >>> case = case_from_data({"system": "generic", "profile": profile,
        ...     "map": {"cols": 3, "rows": 3},
        ...     "units": [{"id": "a", "side": "allied", "hex": "0101", "ma": 4}],
        ...     "state": {"active_side": "allied", "turn": 1}, "query": {}, "expect": {}})
        >>> sit = case.situation
        >>> moved = dataclasses.replace(sit.units[0], hex=sit.map.grid.hex("0202"))
        >>> later = sit.with_position((moved,))
        >>> later.map is sit.map, later.terrain_memo is sit.terrain_memo
        (True, True)
        """
        return dataclasses.replace(
            self, units=units, markers=self.markers if markers is None else markers,
            state=self.state if state is None else state)

    @cached_property
    def terrain_memo(self) -> dict[tuple[object, ...], object]:
        """What depends only on the map, the chart and the profile (what a step costs,
        each hex's steps before any unit stands near), kept with the map for every
        position on it under the same rules (:meth:`GameMap.rules_memo`): worked out once
        per map, not once per position or question."""
        return self.map.rules_memo(self.system, self.chart, self.profile)

    @cached_property
    def position_memo(self) -> dict[tuple[object, ...], object]:
        """The facts of the position that many questions share and that depend on its
        units too (each side's zones of control, the hexes enemy units bar, where moves
        stop): worked out once per position. Answers to questions are not kept here."""
        return {}

    @cached_property
    def occupants(self) -> dict[Hex, tuple[Unit, ...]]:
        """Units on the map by hex."""
        found: dict[Hex, tuple[Unit, ...]] = {}
        for u in self.units:
            h = u.hex
            if h is not None:
                here = found.get(h)
                found[h] = (u,) if here is None else (*here, u)
        return found

    @cached_property
    def mixed_hexes(self) -> dict[Hex, tuple[Unit, ...]]:
        """Hexes holding units of more than one side, with their units (only a saved game
        read with ``mixed="report"`` keeps any: :func:`refuse_mixed_hexes`)."""
        return {h: us for h, us in self.occupants.items()
                if len(us) > 1 and any(u.side != us[0].side for u in us)}

    def units_in(self, h: Hex) -> tuple[Unit, ...]:
        """Units in a hex."""
        return self.occupants.get(h, ())

    @cached_property
    def _markers_by_hex(self) -> dict[Hex, tuple[Marker, ...]]:
        found: dict[Hex, list[Marker]] = {}
        for m in self.markers:
            if m.hex is not None:
                found.setdefault(m.hex, []).append(m)
        return {h: tuple(ms) for h, ms in found.items()}

    def markers_in(self, h: Hex, marker_type: str | None = None) -> list[Marker]:
        """Markers in a hex, optionally of one type."""
        return [m for m in self._markers_by_hex.get(h, ())
                if marker_type is None or m.type == marker_type]

    def enemy_in(self, h: Hex, side: str) -> bool:
        """Whether a hex holds a unit of another side."""
        return any(u.side != side for u in self.units_in(h))

    def name(self, h: Hex) -> str:
        """Printed id of a hex."""
        return self.map.grid.id(h)

    @cached_property
    def active_side(self) -> str:
        """The side whose turn it is."""
        return str(self.state.get("active_side", ""))

    @cached_property
    def phase(self) -> str:
        """The current phase name."""
        return str(self.state.get("phase", "movement"))

    @cached_property
    def turn(self) -> int:
        """The game turn."""
        return int(self.state.get("turn", 1))


def refuse_mixed_hexes(situation: Situation, file: str | None, where: str) -> None:
    """Refuse a position with units of both sides in one hex.

    No unit may stand in a hex holding an enemy unit (the profile's
    ``movement.enemy_hexes``), so in a typed position such a hex is a typing error,
    reported with its place. A saved game keeps them instead
    (:attr:`Situation.mixed_hexes`, answered hex by hex).
    """
    for h, units in situation.mixed_hexes.items():
        raise DataError(file, where, f"hex {situation.name(h)} holds units of both sides:"
                        f" {mixed_names(units)}")


def mixed_names(units: tuple[Unit, ...]) -> str:
    """The units of a hex both sides hold, as messages name them: ``"A (blue), R (red)"``."""
    return ", ".join(f"{u.id} ({u.side})" for u in units)
