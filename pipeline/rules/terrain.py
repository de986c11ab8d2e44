"""What a step costs: terrain per unit class, hexside features, roads, minimum costs.

The costs are the situation's chart (a game folder's profile, or a scenario
case's own chart over the profile's published numbers); what a road, a bridge
or a minimum does is the profile's (``roads``, ``terrain.*.minimum``,
``terrain.*.road_only``). Several terrains in a hex cost the highest, ``+N``
terrain is added (000 §5.4, 001 §10.1); hexside costs are added to the hex's
(000 §5.4, SCENARIOS.md §3). A road along the hexside replaces both
(``along: "hexside"``, 000 §5.4.1, 003 §5.7.3); from a road hex into a road
hex it replaces the hex's cost (``along: "hexes"``, 001 §10.1). A number the
data leaves ``null`` is refused by name, never guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipeline.hexgrid import Hex
from pipeline.model.rulesprofile import AssumedBridge, RoadRule
from pipeline.rules.errors import RulesError
from pipeline.rules.situation import GameMap
from pipeline.rules.verdict import Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["Step", "StepCosts", "prohibited_hexes", "prohibiting", "road_hexes", "road_steps",
           "roads_along_hexes", "step_cost"]

_ABSENT = object()
_NONE: frozenset[str] = frozenset()
# A plain state's steps in whole units of MP: (units, hex number) of each plain step, and
# the numbers of the hexes a step into goes through ``enter`` (pipeline.rules.cheapest).
ScaledRow = tuple[tuple[tuple[int, int], ...], tuple[int, ...]]


@dataclass(frozen=True)
class Step:
    """How a step is made: the hexside features crossed, the roads used."""

    features: frozenset[str]   # of the hexside, bridged water and roads left out
    roads: tuple[str, ...]     # roads whose rate applies to this step
    road_hexside: bool         # a road runs through the hexside crossed


def road_steps(engine: Engine, frm: Hex, to: Hex, bridged: frozenset[str] = frozenset()
               ) -> Step:
    """The roads a step from ``frm`` into ``to`` moves along, and the hexside features it
    still crosses (a road's ``bridges`` on the same hexside are crossed by the road, and
    ``bridged`` features are crossed as a bridge is, by a system's rule)."""
    gmap, roads = engine.situation.map, engine.profile.roads
    features = gmap.features(frm, to) - bridged
    on_side = [name for name in roads if name in features]
    crossed_by_road: set[str] = set(on_side)
    for name in on_side:
        crossed_by_road.update(roads[name].bridges)
    used = tuple(name for name, road in roads.items() if _along(gmap, road, name, frm, to,
                                                                  features))
    return Step(features - crossed_by_road, used, bool(on_side))


def _along(gmap: GameMap, road: RoadRule, name: str, frm: Hex, to: Hex,
           features: frozenset[str]) -> bool:
    if road.along == "hexside":
        return name in features
    return gmap.is_feature_hex(frm, name) and gmap.is_feature_hex(to, name)


def step_cost(engine: Engine, unit_class: str, frm: Hex, to: Hex,
              bridged: frozenset[str] = frozenset()) -> float | Verdict:
    """MP for a unit of ``unit_class`` to step from ``frm`` into the adjacent ``to``, or the
    refusal (prohibited terrain or hexside, a road-only terrain entered off the road);
    ``bridged`` hexside features cost nothing (a bridge a system's rule assumes).

    The cost depends only on the hexside, the terrains of ``to`` and which hexes are road
    hexes, so it is remembered per such combination (a map has few); a refusal leaves
    ``at`` for the caller to fill in.
    """
    costs = StepCosts.of(engine)
    return costs.cost(engine, unit_class, frm, to, costs.map.features(frm, to), bridged)


_UNKNOWN = object()  # a hex's steps not made yet


class StepCosts:
    """:func:`step_cost` for one situation, with what every step asks looked up once: the
    movement search's hot loop holds one and passes the hexside's features it has.

    >>> from pipeline.rules.cases import case_from_data
    >>> from pipeline.rules.engine import Engine
    >>> profile = {"kind": "rules", "game": "g", "source": "RULES.md",
    ...     "unit_classes": ["foot"], "dice": "1d6", "stacking": {"limit": 1},
    ...     "terrain": {"clear": {"move": 1, "note": "n"}, "woods": {"move": 2, "note": "n"}}}
    >>> case = case_from_data({"system": "generic", "profile": profile,
    ...     "map": {"cols": 3, "rows": 3, "terrain": {"0203": ["woods"]}}, "units": [],
    ...     "state": {"active_side": "allied", "turn": 1}, "query": {}, "expect": {}})
    >>> engine = Engine(case.situation)
    >>> a, b = engine.grid.hex("0202"), engine.grid.hex("0203")
    >>> StepCosts.of(engine).cost(engine, "foot", a, b, frozenset())
    2.0
    """

    __slots__ = ("_bare", "_bare_numbered", "_by_mix", "_memo", "_rows", "along_hexes", "bridges",
                 "map")

    def __init__(self, engine: Engine) -> None:
        # No reference to the engine: it holds this object.
        self.map = engine.situation.map
        self.along_hexes = roads_along_hexes(engine)
        self.bridges = bool(_assumed_bridges(engine))
        self._memo: dict[tuple[object, ...], float | Verdict] = {}
        # A step across a bare hexside, by the unit class and the hex entered (its number).
        self._bare: dict[str, dict[Hex, float | Verdict]] = {}
        self._bare_numbered: dict[str, list[float | Verdict | None]] = {}
        self._by_mix: dict[tuple[object, ...], float | Verdict] = {}
        # Each hex's steps before any unit stands near, by unit class and scale.
        self._rows: dict[tuple[str, int], tuple[Callable[[Engine, int], ScaledRow | None],
                                                list[object]]] = {}

    @staticmethod
    def of(engine: Engine) -> StepCosts:
        """The step costs of the engine's situation: they depend only on its map, chart and
        profile, so every engine asking about it shares them
        (:attr:`~pipeline.rules.situation.Situation.terrain_memo`)."""
        memo = engine.situation.terrain_memo
        known = memo.get(("step_costs",))
        if known is None:
            known = memo[("step_costs",)] = StepCosts(engine)
        return known  # type: ignore[return-value]

    def step(self, engine: Engine, unit_class: str, frm: Hex, to: Hex) -> float | Verdict:
        """:func:`step_cost` with none given: across a bare hexside, where no road runs from
        road hex to road hex, only the hex entered counts (:meth:`cost`'s key), so that
        step's cost is remembered by the hex entered."""
        features = self.map.features(frm, to)
        if features or self.along_hexes:
            return self.cost(engine, unit_class, frm, to, features)
        bare = self._bare.get(unit_class)
        if bare is None:
            bare = self._bare[unit_class] = {}
        known = bare.get(to)
        if known is None:
            known = bare[to] = self.cost(engine, unit_class, frm, to, features)
        return known

    def numbered(self, engine: Engine, unit_class: str, frm: int, skip: Container[int]
                 ) -> tuple[tuple[tuple[float, int], ...], tuple[int, ...]]:
        """The steps from the hex numbered ``frm`` into its neighbours, in the order of
        :attr:`~pipeline.rules.numbering.Numbering.around`, split: ``(MP, number)`` of
        those the terrain allows, and the numbers of those it refuses and of those in
        ``skip`` (not priced)."""
        gmap = self.map
        numbers = gmap.numbers
        hexes = numbers.hexes
        features, first = gmap.numbered_features, frm * len(hexes)
        priced: list[tuple[float, int]] = []
        others: list[int] = []
        if self.along_hexes:  # a road from road hex to road hex: which hexes are road hexes
            for to in numbers.around[frm]:
                cost = None if to in skip else self.cost(
                    engine, unit_class, hexes[frm], hexes[to], features.get(first + to, _NONE))
                if cost is None or cost.__class__ is Verdict:
                    others.append(to)
                else:
                    priced.append((cost, to))  # type: ignore[arg-type]
            return tuple(priced), tuple(others)
        # Else a step's cost depends on the hexside's features and the terrains of the two
        # hexes alone (the hex left only for a bridge assumed between two terrains, 000
        # §10.1): remembered by those, and a bare step's by the hex entered.
        bare = self._bare_numbered.get(unit_class)
        if bare is None:
            bare = self._bare_numbered[unit_class] = [None] * len(hexes)
        terrain, default = gmap.terrain, (gmap.default_terrain,)
        for to in numbers.around[frm]:
            if to in skip:
                others.append(to)
                continue
            crossed = features.get(first + to)
            if crossed is None:
                known = bare[to]
                if known is None:
                    known = bare[to] = self._mixed(engine, unit_class, hexes[frm], hexes[to],
                                                   _NONE, default, terrain)
            else:
                known = self._mixed(engine, unit_class, hexes[frm], hexes[to], crossed,
                                    default, terrain)
            if known.__class__ is Verdict:
                others.append(to)
            else:
                priced.append((known, to))  # type: ignore[arg-type]
        return tuple(priced), tuple(others)

    def scaled_rows(self, engine: Engine, unit_class: str, scale: int, *,
                    skip: frozenset[int], barred: frozenset[int], through: frozenset[int]
                    ) -> Callable[[Engine, int], ScaledRow | None] | None:
        """:meth:`numbered` in whole units of ``1 / scale`` MP, ready for every hex: a
        function of an engine on the situation and a hex's number (it keeps no engine: the
        situation keeps it for them all) giving ``(units, number)`` of each step the terrain
        allows and the numbers of the others less ``barred`` (``None`` where a step's MP
        are not a whole number of units); every step out of a hex in ``through`` is one of
        the others, and so is every step into a hex in ``skip``. ``None`` where a road runs
        from road hex to road hex (a step's cost depends on the hex left too:
        :meth:`numbered` then).

        A hex outside ``through`` with no neighbour in ``skip`` (most of those a move
        reaches: ``skip`` is where units stand and their zones of control) has the steps
        the map alone gives it, the same in every position: made once for the map and
        kept (these step costs are kept with the map, :meth:`of`); the others are made
        for the position."""
        if self.along_hexes:
            return None
        kept = self._rows.get((unit_class, scale))
        if kept is None:
            none: frozenset[int] = frozenset()
            kept = self._rows[(unit_class, scale)] = (
                self._position_rows(engine, unit_class, scale, skip=none, barred=none,
                                    through=none),
                [_UNKNOWN] * len(self.map.numbers.hexes))
        plain, rows = kept
        around, apart = self.map.numbers.around, skip.isdisjoint
        made: list[Callable[[Engine, int], ScaledRow | None]] = []

        def row(engine: Engine, x: int) -> ScaledRow | None:
            if x in through or not apart(around[x]):
                if not made:  # the position's own rows, made when first asked
                    made.append(self._position_rows(engine, unit_class, scale, skip=skip,
                                                    barred=barred, through=through))
                return made[0](engine, x)
            known = rows[x]
            if known is _UNKNOWN:
                known = rows[x] = plain(engine, x)
            return known  # type: ignore[return-value]

        return row

    def _position_rows(self, engine: Engine, unit_class: str, scale: int, *,
                       skip: frozenset[int], barred: frozenset[int], through: frozenset[int]
                       ) -> Callable[[Engine, int], ScaledRow | None]:
        """:meth:`scaled_rows` for one position, every hex's steps made here.

        A step across a bare hexside costs what the hex entered costs, the same for every
        hex of one mix of terrains (:attr:`~pipeline.rules.situation.GameMap.terrain_mixes`):
        priced once a mix; only the hexsides listed in the map are priced step by step
        (never asked where a road runs from road hex to road hex)."""
        gmap = self.map
        hexes, around = gmap.numbers.hexes, gmap.numbers.around
        mixes, mix_of, first = gmap.terrain_mixes
        terrain, default = gmap.terrain, (gmap.default_terrain,)
        mixed = self._mixed
        per_mix: list[int | None] = []
        refused: list[int] = []
        fractional: list[int] = []
        for i in range(len(mixes)):
            h = hexes[first[i]]  # across a bare hexside the hex left does not count
            cost = mixed(engine, unit_class, h, h, _NONE, default, terrain)
            whole = None
            if cost.__class__ is Verdict:
                refused.append(i)
            elif (whole := int(cost * scale)) != cost * scale:  # type: ignore[operator]
                whole = None
                fractional.append(i)
            per_mix.append(whole)
        # The units of a plain step into each hex across a bare hexside (None: enter decides,
        # or a fraction), and whether a step into it goes through enter.
        entry = list(map(per_mix.__getitem__, mix_of))
        special = [False] * len(entry)
        for y in skip:
            entry[y] = None
            if y not in barred:
                special[y] = True
        for i in refused:
            for y in gmap.mix_hexes(i):
                if y not in skip:
                    special[y] = True
        fraction = frozenset(y for i in fractional for y in gmap.mix_hexes(i) if y not in skip)
        featured, entry_of = gmap.featured_around, entry.__getitem__

        def row(engine: Engine, x: int) -> ScaledRow | None:
            ys = around[x]
            if x in through:
                return (), tuple([y for y in ys if y not in barred])
            sides = featured.get(x)
            if sides is None:  # every hexside bare: each step priced by the hex entered
                entries = tuple(map(entry_of, ys))
                if None not in entries:
                    return tuple(zip(entries, ys, strict=True)), ()  # type: ignore[arg-type]
                if fraction and not fraction.isdisjoint(ys):
                    return None
                return (tuple([(u, y) for u, y in zip(entries, ys, strict=True)
                               if u is not None]),
                        tuple([y for y in ys if special[y]]))
            made: list[tuple[int, int]] = []
            others: list[int] = []
            for y, crossed in zip(ys, sides, strict=True):
                if crossed is None:
                    step = entry[y]
                    if step is not None:
                        made.append((step, y))
                    elif special[y]:
                        others.append(y)
                    elif y in fraction:
                        return None
                    continue
                if y in skip:
                    if y not in barred:
                        others.append(y)
                    continue
                cost = mixed(engine, unit_class, hexes[x], hexes[y], crossed, default, terrain)
                if cost.__class__ is Verdict:
                    others.append(y)
                    continue
                units = cost * scale  # type: ignore[operator]
                whole = int(units)
                if whole != units:
                    return None
                made.append((whole, y))
            return tuple(made), tuple(others)

        return row

    def _mixed(self, engine: Engine, unit_class: str, frm: Hex, to: Hex,
               crossed: frozenset[str], default: tuple[str, ...],
               terrain: Mapping[Hex, tuple[str, ...]]) -> float | Verdict:
        """:meth:`cost` where no road runs from road hex to road hex, remembered by the unit
        class, the features crossed and the terrains of the two hexes."""
        key = (unit_class, crossed, terrain.get(frm, default) if crossed else (),
               terrain.get(to, default))
        known = self._by_mix.get(key)
        if known is None:
            known = self._by_mix[key] = self.cost(engine, unit_class, frm, to, crossed)
        return known

    def cost(self, engine: Engine, unit_class: str, frm: Hex, to: Hex,
             features: frozenset[str], bridged: frozenset[str] = frozenset()
             ) -> float | Verdict:
        """:func:`step_cost`, given the features of the hexside between."""
        gmap, along = self.map, self.along_hexes
        both = tuple(gmap.is_feature_hex(frm, r) and gmap.is_feature_hex(to, r)
                     for r in along) if along else ()
        if features and self.bridges:
            bridged = bridged | _bridged_here(engine, frm, to, features)
        key = (unit_class, features, gmap.tags(to), both, bridged)
        known = self._memo.get(key)
        if known is None:
            known = self._memo[key] = _step_cost(engine, unit_class, frm, to, bridged)
        return known


def _assumed_bridges(engine: Engine) -> dict[str, AssumedBridge]:
    """The hexside features a bridge is assumed over between some terrains (000 §10.1)."""
    known = engine.memo.get(("assumed_bridges",))
    if known is None:
        known = engine.memo[("assumed_bridges",)] = {
            name: rule.bridged_between for name, rule in engine.profile.hexsides.items()
            if rule.bridged_between is not None}
    return known  # type: ignore[return-value]


def _bridged_here(engine: Engine, frm: Hex, to: Hex, features: frozenset[str]
                  ) -> frozenset[str]:
    """000 §10.1 Important: the features of this hexside a bridge is assumed over."""
    gmap = engine.situation.map
    return frozenset(name for name, rule in _assumed_bridges(engine).items()
                     if name in features and any(gmap.has(frm, t) and gmap.has(to, t)
                                                 for t in rule.between))


def road_hexes(engine: Engine, frm: Hex, to: Hex) -> tuple[bool, ...]:
    """For each road running from road hex to road hex (001 §10.1), whether both ``frm``
    and ``to`` are its road hexes: what, beside the hexside and terrain, a step's cost
    depends on."""
    costs = StepCosts.of(engine)
    gmap = costs.map
    return tuple(gmap.is_feature_hex(frm, r) and gmap.is_feature_hex(to, r)
                 for r in costs.along_hexes) if costs.along_hexes else ()


def roads_along_hexes(engine: Engine) -> tuple[str, ...]:
    """The roads whose rate applies from a road hex into a road hex (001 §10.1)."""
    known = engine.memo.get(("roads_along_hexes",))
    if known is None:
        known = engine.memo[("roads_along_hexes",)] = tuple(
            r for r, road in engine.profile.roads.items() if road.along == "hexes")
    assert isinstance(known, tuple)
    return known


def _step_cost(engine: Engine, unit_class: str, frm: Hex, to: Hex,
               bridged: frozenset[str]) -> float | Verdict:
    sit, profile = engine.situation, engine.profile
    step = road_steps(engine, frm, to, bridged)
    refused = _prohibited_hexside(engine, step.features, unit_class)
    if refused is not None:
        return refused
    tags = sit.map.tags(to)
    for tag in tags:
        rule = profile.terrain.get(tag)
        if (rule is not None and rule.road_only is not None
                and unit_class in rule.road_only.classes and not step.road_hexside):
            cite = engine.cite(rule.road_only.cite, profile.movement.prohibited.cite)
            return Verdict(False, cite, None,
                           f"{unit_class} units enter {tag} only through a road hexside")
    along = [r for r in step.roads if profile.roads[r].along == "hexside"]
    if along:
        return _at_least(engine, tags, unit_class, _rate(engine, along, unit_class), road=True)
    hexes = [r for r in step.roads if profile.roads[r].along == "hexes"]
    if hexes:
        base = _rate(engine, hexes, unit_class)
    else:
        hex_cost = _hex_cost(engine, tags, unit_class)
        if isinstance(hex_cost, Verdict):
            return hex_cost
        base = _at_least(engine, tags, unit_class, hex_cost, road=False)
    side = _hexside_cost(engine, step.features, unit_class)
    if bridged and not step.road_hexside:
        side += _assumed_bridge_cost(engine, bridged, unit_class)
    return float(base + side)


def _assumed_bridge_cost(engine: Engine, bridged: frozenset[str], unit_class: str) -> float:
    """What crossing an assumed bridge costs: the feature it is crossed as."""
    total = 0.0
    for name in sorted(bridged):
        rule = _assumed_bridges(engine).get(name)
        if rule is None:
            continue
        total += _hexside_cost(engine, frozenset({rule.crossed_as}), unit_class)
    return total


def _rate(engine: Engine, roads: list[str], unit_class: str) -> float:
    """The cheapest rate of the roads a step moves along (a null rate is refused)."""
    rates = []
    for name in roads:
        rate = engine.situation.chart.rate(name, unit_class)
        if rate is None:
            raise RulesError(_fill_in(engine, "roads", name, f"the {name} rate"))
        rates.append(float(rate))
    return min(rates)


def _hex_cost(engine: Engine, tags: tuple[str, ...], unit_class: str) -> float | Verdict:
    """000 §5.4, 001 §10.1: the highest cost of the hex's terrains, plus every ``+N``."""
    chart, profile = engine.situation.chart, engine.profile
    base: float | None = None
    added = 0.0
    for tag in tags:
        if chart.hex.get(tag, _ABSENT) is _ABSENT:
            continue  # a tag with no movement effect of its own (a named area)
        cost = chart.hex_cost(tag, unit_class)
        if cost == "P":
            rule = profile.terrain.get(tag)
            return Verdict(False, engine.cite(rule.cite if rule is not None else "",
                                              profile.movement.prohibited.cite),
                           None, f"{tag} is prohibited terrain for {unit_class or 'this'} units")
        if cost is None:
            raise RulesError(_fill_in(engine, "terrain", tag,
                                      f"the cost of {tag} for {unit_class or 'a unit'}"))
        if isinstance(cost, str):
            added += float(cost.lstrip("+"))
        else:
            base = float(cost) if base is None else max(base, float(cost))
    if base is None:
        # Only added terrain (or none the chart prices): added to clear (SCENARIOS.md §2.2).
        clear = chart.hex_cost("clear", unit_class)
        if not isinstance(clear, int | float):
            raise RulesError(_fill_in(engine, "terrain", "clear",
                                      f"the cost of clear terrain, which a hex of"
                                      f" {', '.join(tags)} costs"))
        base = float(clear)
    return base + added


def _at_least(engine: Engine, tags: tuple[str, ...], unit_class: str, cost: float,
              road: bool) -> float:
    """A hex costs at least its terrains' minimums (003 §5.7.1), those that hold along a
    road too when the step is along one."""
    terrain = engine.profile.terrain
    for tag in tags:
        rule = terrain.get(tag)
        if rule is None:
            continue
        for least in rule.minimum:
            if least.classes and unit_class not in least.classes:
                continue
            if road and not least.along_roads:
                continue
            if any(t in tags for t in least.unless_terrain):
                continue
            cost = max(cost, least.cost)
    return cost


def _hexside_cost(engine: Engine, features: frozenset[str], unit_class: str) -> float:
    """The hexside's features, added to the hex (000 §5.4, SCENARIOS.md §3)."""
    chart = engine.situation.chart
    total = 0.0
    for feature in sorted(features):
        if chart.hexside.get(feature, _ABSENT) is _ABSENT:
            continue
        cost = chart.hexside_cost(feature, unit_class)
        if cost is None:
            raise RulesError(_fill_in(engine, "hexsides", feature,
                                      f"the cost of crossing {feature}"))
        if cost != "P":
            total += float(cost.lstrip("+")) if isinstance(cost, str) else float(cost)
    return total


def _prohibited_hexside(engine: Engine, features: frozenset[str], unit_class: str
                        ) -> Verdict | None:
    chart, profile = engine.situation.chart, engine.profile
    for feature in sorted(features):
        if chart.hexside_cost(feature, unit_class) == "P":
            rule = profile.hexsides.get(feature)
            return Verdict(False, engine.cite(rule.cite if rule is not None else "",
                                              profile.movement.prohibited.cite),
                           None, f"the {feature} hexside is prohibited to"
                           f" {unit_class or 'these'} units")
    return None


def prohibited_hexes(engine: Engine, unit_class: str) -> frozenset[Hex]:
    """The hexes whose terrain the chart prohibits to ``unit_class`` (across a bare hexside
    only these stop a step, :func:`prohibiting`): the map's and the chart's alone, worked
    out once per position."""
    key = ("prohibited_hexes", unit_class)
    memo = engine.situation.terrain_memo
    known = memo.get(key)
    if known is None:
        chart, gmap = engine.situation.chart, engine.situation.map
        banned = {t for t in chart.hex if chart.hex_cost(t, unit_class) == "P"}
        hexes = gmap.numbers.hexes
        # Asked once for each mix of terrains on the map.
        known = memo[key] = frozenset(
            hexes[x] for i, tags in enumerate(gmap.terrain_mixes[0])
            if not banned.isdisjoint(tags) for x in gmap.mix_hexes(i)) if banned else frozenset()
    assert isinstance(known, frozenset)
    return known


def prohibiting(engine: Engine, frm: Hex, to: Hex, unit_class: str) -> Verdict | None:
    """Why the step ``frm`` -> ``to`` is prohibited terrain, or ``None``.

    Unlike :func:`step_cost`, a ``null`` (unknown) cost is no error here: the questions
    that only ask "could a unit go there at all" (where a ZOC reaches, 001 §6.0; a supply
    line, 001 §7.2) are answered while the map's chart is still being filled in. A road
    move passes prohibited hex terrain; only hexside features it does not bridge stop it.
    """
    gmap = engine.situation.map
    key = ("prohibiting", unit_class, gmap.features(frm, to), gmap.tags(to),
           road_hexes(engine, frm, to))
    known = engine.memo.get(key, _ABSENT)
    if known is _ABSENT:
        known = engine.memo[key] = _prohibiting(engine, frm, to, unit_class)
    assert known is None or isinstance(known, Verdict)
    return known


def _prohibiting(engine: Engine, frm: Hex, to: Hex, unit_class: str) -> Verdict | None:
    step = road_steps(engine, frm, to)
    refused = _prohibited_hexside(engine, step.features, unit_class)
    if refused is not None or step.roads:
        return refused
    chart, profile = engine.situation.chart, engine.profile
    for tag in engine.situation.map.tags(to):
        if chart.hex_cost(tag, unit_class) == "P":
            rule = profile.terrain.get(tag)
            return Verdict(False, engine.cite(rule.cite if rule is not None else "",
                                              profile.movement.prohibited.cite),
                           None, f"{tag} is prohibited terrain")
    return None


def _fill_in(engine: Engine, section: str, name: str, what: str) -> str:
    """A missing number, named with its file and key (the profile's, or the case chart's)."""
    chart = engine.situation.chart
    if chart.source:
        key = {"terrain": "hex", "hexsides": "hexside", "roads": "roads"}[section]
        return f"{chart.source}: terrain_chart.{key}.{name}: {what} is not given; give it"
    path = f"{section}.{name}.{'rate' if section == 'roads' else 'move'}"
    file = engine.profile.file or "the rules profile"
    return (f"{file}: {path}: {what} is not given (null): the rulebook leaves it to the"
            f" map's chart; fill in {path}")
