"""Supply as the profile says it: sources, the length of a line, what blocks one.

Every unit of a side is answered from one search from all the side's sources at
once (``supply.sources``: markers, map edges, listed hexes, terrain, friendly
units), run in reverse: a line runs from the unit to a source, and each hex it
enters counts (the unit's own hex does not, the source does: RULINGS COB-2)
``supply.length.default``, or what ``hex_counts`` say for its terrain or its
hexside features, or what ``crossings`` say for the hexside crossed, or what
``roads`` say for a step along a road; ``length.max`` bounds the sum (in hexes
or supply MP). ``terrain_limits`` bound how many hexes of a terrain a line
passes (003 §10.3.2). A line never enters enemy units; ``supply.ezoc`` says
what an EZOC does (blocked unless a friendly unit negates it, or only the ends
may be in one, 000 §12.0); ``blocking_hexsides`` and ``prohibited`` say what
else it never crosses.

A hex both sides hold (only a saved game keeps one: a combat not yet resolved, a
piece dropped in the wrong hex) is answered as the rules read literally, not
refused. A unit's line runs "from itself" (000_3d79f68a6e3e33eb.txt §12.0) and
only the hexes it enters are closed to it, so the enemy sharing its hex does not
stop its start ("the path cannot enter an enemy occupied hex": it never enters
its own). For every other unit, of either side, that hex holds an enemy unit, so
no line enters it, whatever friendly unit stands there too. Its units exert
their ZOC as anywhere, into the six hexes around and not into their own (§6.0:
"enemy and/or friendly units never affect the presence of ZOC"), so EZOC rules
apply to the line leaving it as the profile says; and a source there serves no
one, the unit in it included (§11.2.1: a beachhead marker is removed once a
German unit occupies its hex).

A unit cut off is told the **binding limit**: the first rule whose relaxation
alone would supply it, in this order: a source excluded (003 §10.5.4), a
source in an EZOC (003 §10.5.3), a terrain limit (003 §10.3.2), what a terrain
counts (003 §10.3.4), what a crossing counts (003 §10.3.6), the length (003
§10.3.1), then the hexsides and terrain that block (003 §5.7.4). A blocked
shortcut is named only when no line is too long: the line that exists is what
the rules cut.
"""

from __future__ import annotations

import functools
import heapq
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Set
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, cast

from pipeline.hexgrid import Hex
from pipeline.model.rulesprofile import SupplySource, TerrainLimit
from pipeline.rules.errors import RulesError
from pipeline.rules.numbering import Numbering, numbering
from pipeline.rules.select import any_holds, selects
from pipeline.rules.situation import Marker, Unit
from pipeline.rules.terrain import prohibited_hexes, prohibiting
from pipeline.rules.verdict import SupplyAnswer
from pipeline.rules.zoc import negates

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["Lines", "Tracing", "source_hexes", "supply_answers", "trace"]


@dataclass(frozen=True)
class Tracing:
    """The rules one search applies: the profile's, less the ``relaxed`` ones (keys such
    as ``"length"``, ``"count:0"``, ``"limit:0"``, ``"blocker:1"``, ``"open:2"``)."""

    side: str
    relaxed: frozenset[str] = frozenset()

    def without(self, *keys: str) -> Tracing:
        """The same tracing with more rules relaxed."""
        return replace(self, relaxed=self.relaxed | frozenset(keys))


# (hex's number, hexes of each limited terrain passed, the line leaves this hex by a road
# hexside)
_State = tuple[int, tuple[int, ...], bool]


@dataclass(frozen=True)
class Lines:
    """The result of one multi-source search: the best state of each hex reached.

    The states are kept by index, in the order the search made them: the number of each
    one's hex (:mod:`pipeline.rules.numbering`), what its line counts and the state it
    came from (``-1``: a source); ``best`` holds the index of each reached hex's best state
    by the hex's number."""

    numbers: Numbering
    best: dict[int, int]
    at: list[int]
    count: list[float]
    parent: list[int]

    def reaches(self, h: Hex) -> bool:
        """Whether a line runs from ``h`` to a source."""
        return self.numbers.ids[h] in self.best

    def reached(self, among: Iterable[Hex]) -> frozenset[Hex]:
        """The hexes ``among`` a line runs from."""
        ids, best = self.numbers.ids, self.best
        return frozenset(h for h in among if ids[h] in best)

    def counted(self, h: Hex) -> float:
        """What the best line from ``h`` counts."""
        return self.count[self.best[self.numbers.ids[h]]]

    def steps(self, h: Hex) -> int:
        """How many hexes the line from ``h`` enters: ``len(path(h)) - 1``."""
        parent, state, entered = self.parent, self.best[self.numbers.ids[h]], -1
        while state >= 0:
            entered += 1
            state = parent[state]
        return entered

    def path(self, h: Hex) -> tuple[Hex, ...]:
        """The line from ``h`` to its source."""
        hexes, at, parent = self.numbers.hexes, self.at, self.parent
        out: list[Hex] = []
        state = self.best[self.numbers.ids[h]]
        while state >= 0:
            out.append(hexes[at[state]])
            state = parent[state]
        return tuple(out)


@dataclass(frozen=True)
class _Source:
    """A hex that is a source, by the first rule that makes it one."""

    index: int
    rule: SupplySource
    marker: Marker | None = None


@dataclass
class _Map:
    """What tracing needs of the map, by the hexes' numbers, worked out once per situation."""

    counts: list[tuple[float, int | None]]   # what entering a hex counts, by which entry
    limited: dict[int, tuple[int, ...]]      # the terrain limits a hex falls under
    entries: frozenset[int]                  # the hex_counts entries some hex falls under


@dataclass(frozen=True)
class _Side:
    """A hexside as supply tracing sees it."""

    road: bool
    road_count: tuple[float, int] | None
    crossing: tuple[float, int] | None
    blockers: tuple[int, ...]


_PLAIN = _Side(False, None, None, ())


def supply_answers(engine: Engine, units: list[Unit]) -> dict[str, SupplyAnswer]:
    """Supply status of ``units``: one search per side, then one explanation per cut-off
    unit (the binding limit)."""
    rules = engine.profile.supply
    answers: dict[str, SupplyAnswer] = {}
    by_side: dict[str, list[Unit]] = {}
    for unit in units:
        if unit.hex is None:
            answers[unit.id] = SupplyAnswer(True, None, "not on the map")
            continue
        free = next((n for n in rules.not_traced if (not n.turns or engine.situation.turn in
                                                      n.turns) and selects(engine, n, unit)),
                    None)
        if free is not None:
            answers[unit.id] = SupplyAnswer(True, engine.cite(free.cite), free.reason)
            continue
        by_side.setdefault(unit.side, []).append(unit)
    for side, group in sorted(by_side.items()):
        answers.update(_side_answers(engine, side, group))
    return {u.id: answers[u.id] for u in units}


def _side_answers(engine: Engine, side: str, units: list[Unit]) -> dict[str, SupplyAnswer]:
    rules = engine.profile.supply
    if not any(s.side == side for s in rules.sources):
        file = engine.profile.file or "the rules profile"
        raise RulesError(f"{file}: supply.sources: no supply source is given for side"
                         f" '{side}', whose units trace supply: add its sources, or say in"
                         " supply.not_traced why they need none")
    strict = Tracing(side)
    answers: dict[str, SupplyAnswer] = {}
    cut: list[Unit] = []
    sources = source_hexes(engine, strict)
    if not sources and not source_hexes(engine, strict.without(*_exclusion_keys(engine))):
        names = "; ".join(_source_names(engine, side))
        for unit in units:
            answers[unit.id] = SupplyAnswer(False, engine.cite(rules.cite),
                                            f"no supply source on the map ({names})")
        return answers
    lines = trace(engine, strict)
    shut = _own_hexes_shut(engine, side)
    cite = engine.cite(rules.length.cite if rules.length.max is not None else rules.cite,
                       rules.cite)  # every line's rule: its length, or supply itself
    for unit in units:
        assert unit.hex is not None
        if unit.hex in shut:
            answers[unit.id] = _own_hex_closed(engine, unit)
        elif lines.reaches(unit.hex):
            answers[unit.id] = _in_supply(engine, lines, unit.hex, sources, cite)
        else:
            cut.append(unit)
    if cut:
        answers.update(_diagnose(engine, strict, cut))
    return answers


def _in_supply(engine: Engine, lines: Lines, at: Hex, sources: dict[Hex, _Source],
               cite: str | None) -> SupplyAnswer:
    """The answer for a unit at ``at`` that a line reaches; ``cite`` is the rule every
    line keeps to (its length's, or supply's own)."""
    rules, name = engine.profile.supply, engine.name
    path = lines.path(at)
    source = sources[path[-1]]
    what = source.rule.name or "a supply source"
    if len(path) == 1:
        own = source.rule.in_hex
        return SupplyAnswer(True, engine.cite(own.cite, source.rule.cite) if own else cite,
                            f"on {what} ({name(at)})", path)
    if rules.length.max is not None:
        counted = lines.counted(at)
        unit = "MP" if rules.length.unit == "mp" else "hex" if counted == 1 else "hexes"
        return SupplyAnswer(True, cite, f"{_number(counted)} {unit} counted to {what}"
                            f" ({name(path[-1])})", path)
    if len(path) == 2:
        return SupplyAnswer(True, cite, f"next to {what} ({name(path[-1])})", path)
    return SupplyAnswer(True, cite, f"traced to {what} ({name(path[-1])}) through"
                        f" {len(path) - 2} hex{'es' if len(path) > 3 else ''}", path)


def _own_hexes_shut(engine: Engine, side: str) -> frozenset[Hex]:
    """003 §10.3.3 (``ezoc.own_hex: "blocked"``): the hexes no line of ``side`` leaves,
    EZOC hexes no friendly unit negates; none where the rule is not the profile's.
    Only the EZOC counts here: an enemy unit sharing the hex (a saved game's) does not
    close the start of the unit's own line (000_3d79f68a6e3e33eb.txt §12.0 "from
    itself"; the module docstring)."""
    rules = engine.profile.supply
    if rules.ezoc.mode == "ignored" or rules.ezoc.own_hex != "blocked":
        return frozenset()
    return _closed(engine, side, frozenset({"enemy_units"}))


def _own_hex_closed(engine: Engine, unit: Unit) -> SupplyAnswer:
    """The answer for a unit in one of :func:`_own_hexes_shut`: the cite names why the unit
    does not negate the EZOC itself (003 §9.2.6)."""
    rules = engine.profile.supply
    negation = engine.profile.zoc.negated_by_friendly
    exempt = any_holds(engine, negation.not_by, unit)
    cite = getattr(exempt, "cite", "") or rules.ezoc.cite
    return SupplyAnswer(False, engine.cite(cite, rules.cite),
                        "in an EZOC that no friendly unit negates (it does not itself), and"
                        " no line of supply may leave such a hex")


# -- sources -----------------------------------------------------------------------------


def source_hexes(engine: Engine, tracing: Tracing) -> dict[Hex, _Source]:
    """The hexes that are sources for ``tracing.side`` (remembered per engine)."""
    key = ("supply_sources", tracing.side, frozenset(
        k for k in tracing.relaxed if k.startswith("exclusion:")))
    known = engine.memo.get(key)
    if known is None:
        known = engine.memo[key] = dict(_sources(engine, tracing))
    assert isinstance(known, dict)
    return known


def _sources(engine: Engine, tracing: Tracing) -> Iterator[tuple[Hex, _Source]]:
    sit, side = engine.situation, tracing.side
    seen: set[Hex] = set()
    for index, rule in enumerate(engine.profile.supply.sources):
        if rule.side != side:
            continue
        for h, marker in _rule_hexes(engine, index, rule, tracing):
            if h in seen or not sit.map.grid.contains(h):
                continue
            if rule.controlled and sit.state.get("control", {}).get(sit.name(h)) != side:
                continue
            if sit.enemy_in(h, side):
                continue  # a line never enters enemy units (000 §11.2.1: no German unit there)
            seen.add(h)
            yield h, _Source(index, rule, marker)


def _rule_hexes(engine: Engine, index: int, rule: SupplySource, tracing: Tracing
                ) -> Iterator[tuple[Hex, Marker | None]]:
    sit, side = engine.situation, tracing.side
    if rule.kind == "marker":
        assert rule.marker is not None
        for m in sit.markers:
            if m.hex is None or not _marker_matches(m, rule.marker.type, rule.marker.where, side):
                continue
            if rule.terrain is not None and not sit.map.has(m.hex, rule.terrain):
                continue
            if any(f"exclusion:{index}:{i}" not in tracing.relaxed
                   and _values_match(m, ex.where, side) for i, ex in enumerate(rule.excluded)):
                continue
            yield m.hex, m
    elif rule.kind == "edge":
        for edge in rule.edges or ("north", "south", "east", "west"):
            if rule.edge_role is not None and sit.map.edges.get(edge) != rule.edge_role:
                continue
            for h in sorted(sit.map.edge_hexes(edge)):
                yield h, None
    elif rule.kind == "hexes":
        for hex_id in rule.hexes:
            if sit.map.grid.has_id(hex_id):
                yield sit.map.grid.hex(hex_id), None
    elif rule.kind == "terrain":
        assert rule.terrain is not None
        for h in sit.map.grid.hexes():
            if sit.map.has(h, rule.terrain):
                yield h, None
    else:  # units
        for u in sit.units:
            if u.side == side and u.hex is not None and any(selects(engine, s, u)
                                                            for s in rule.units):
                yield u.hex, None


def _marker_matches(m: Marker, kind: str, where: Mapping[str, object], side: str) -> bool:
    return m.type == kind and _values_match(m, where, side)


def _values_match(m: Marker, where: Mapping[str, object], side: str) -> bool:
    for key, given in where.items():
        value = m.get(key)
        wanted = side if given == "$side" else given
        if isinstance(wanted, str) and isinstance(value, str):
            if value.casefold() != wanted.casefold():
                return False
        elif value != wanted:
            return False
    return True


def _source_names(engine: Engine, side: str) -> list[str]:
    return [s.name or s.kind for s in engine.profile.supply.sources if s.side == side]


def _exclusion_keys(engine: Engine) -> list[str]:
    return [f"exclusion:{i}:{j}" for i, s in enumerate(engine.profile.supply.sources)
            for j in range(len(s.excluded))]


# -- the search --------------------------------------------------------------------------


def _open(engine: Engine, side: str, h: Hex) -> bool:
    """Whether a line may enter ``h`` as far as units and EZOC go (003 §10.3.1, 001 §7.2):
    no enemy unit; outside an EZOC, or (mode ``blocked``) with a friendly unit there that
    negates it for supply (001 §6.0, 003 §7.5, §9.2.6)."""
    return h not in _closed(engine, side)


def _closed(engine: Engine, side: str, relaxed: frozenset[str] = frozenset()
            ) -> frozenset[Hex]:
    """The hexes no line of ``side`` enters (remembered per engine): enemy units' hexes
    (unless ``"enemy_units"`` is relaxed) and EZOC hexes as ``supply.ezoc`` says (unless
    ``"ezoc"`` is relaxed: the binding limit's searches)."""
    enemy, ezoc = "enemy_units" not in relaxed, "ezoc" not in relaxed
    key = ("supply_closed", side, enemy, ezoc)
    known = engine.memo.get(key)
    if known is None:
        mode = engine.profile.supply.ezoc.mode
        closed: frozenset[Hex] = frozenset()
        if enemy:
            closed = _enemy_hexes(engine, side)
        if mode != "ignored" and ezoc:
            closed = closed | _ezoc_closed(engine, side)
        known = engine.memo[key] = closed
    assert isinstance(known, frozenset)
    return known


def _enemy_hexes(engine: Engine, side: str) -> frozenset[Hex]:
    """The hexes holding a unit not of ``side`` (a fact of the position, kept for its
    engines: :attr:`~pipeline.rules.situation.Situation.position_memo`)."""
    key = ("supply_enemy_hexes", side)
    memo = engine.situation.position_memo
    known = memo.get(key)
    if known is None:
        # By the units themselves: the same hexes as their occupants, one pass, no tuples.
        known = memo[key] = frozenset(
            u.hex for u in engine.situation.units if u.side != side and u.hex is not None)
    return known  # type: ignore[return-value]


def _ezoc_closed(engine: Engine, side: str) -> frozenset[Hex]:
    """The EZOC hexes no line of ``side`` enters (``supply.ezoc``): all of them, or (mode
    ``blocked``) those where no friendly unit negates the EZOC for supply (a fact of the
    position). Only hexes holding friendly units can be negated: those are looked at."""
    key = ("supply_ezoc_closed", side)
    memo = engine.situation.position_memo
    known = memo.get(key)
    if known is None:
        sit = engine.situation
        zone = engine.enemy_zoc(side)
        negated = set()
        if engine.profile.supply.ezoc.mode != "enter_or_exit":
            for h, here in sit.occupants.items():
                if h in zone and any(u.side == side and negates(engine, u, "supply")
                                     for u in here):
                    negated.add(h)
        known = memo[key] = frozenset(zone).difference(negated)
    return known  # type: ignore[return-value]


def _position_kept[T](engine: Engine, key: str, make: Callable[[Engine], T]) -> T:
    """``make(engine)``, worked out once per position and shared by its engines (what
    depends only on the map, the chart and the profile)."""
    memo = engine.situation.terrain_memo
    if (key,) not in memo:
        memo[(key,)] = make(engine)
    return cast("T", memo[(key,)])


def _supply_map(engine: Engine) -> _Map:
    return _position_kept(engine, "supply_map", _make_supply_map)


def _make_supply_map(engine: Engine) -> _Map:
    """What each hex counts and the limits it falls under: the same for every hex of one
    mix of terrains (:attr:`~pipeline.rules.situation.GameMap.terrain_mixes`), so worked
    out once a mix, and for the hexes along a counted feature once per such mix with the
    same feature hexsides."""
    length = engine.profile.supply.length
    gmap = engine.situation.map
    features = tuple(sorted({e.feature for e in length.hex_counts if e.feature is not None}))
    along = frozenset().union(*(gmap.feature_hexes(f) for f in features))
    mixes, mix_of, _ = gmap.terrain_mixes
    none = tuple(False for _ in features)
    by_mix = [_counted(engine, tags, none, features) for tags in mixes]
    counts = list(map([kind[0] for kind in by_mix].__getitem__, mix_of))
    limited = {x: by_mix[m][1] for m in range(len(mixes)) if by_mix[m][1]
               for x in gmap.mix_hexes(m)}
    if not along:
        return _Map(counts, limited, frozenset(
            kind[0][1] for kind in by_mix if kind[0][1] is not None))
    kinds: dict[tuple[tuple[str, ...], tuple[bool, ...]],
                tuple[tuple[float, int | None], tuple[int, ...]]] = {}
    ids = gmap.numbers.ids
    for h in along:
        x = ids.get(h)
        if x is None:
            continue  # a hexside on the map's edge names a hex off it
        key = (mixes[mix_of[x]], tuple(gmap.is_feature_hex(h, f) for f in features))
        kind = kinds.get(key)
        if kind is None:
            kind = kinds[key] = _counted(engine, *key, features)
        counts[x] = kind[0]
        if kind[1]:
            limited[x] = kind[1]
        else:
            limited.pop(x, None)
    return _Map(counts, limited, frozenset(i for _, i in counts if i is not None))


def _counted(engine: Engine, tags: tuple[str, ...], along: tuple[bool, ...],
             features: tuple[str, ...]) -> tuple[tuple[float, int | None], tuple[int, ...]]:
    """What entering a hex of ``tags`` counts and by which ``hex_counts`` entry (the first
    that names its terrain, or a feature ``along`` says one of its hexsides has: 003
    §10.3.4, §10.3.5), and the ``terrain_limits`` it falls under (003 §10.3.2)."""
    length = engine.profile.supply.length
    has = dict(zip(features, along, strict=True))
    counted: tuple[float, int | None] = (length.default, None)
    for i, entry in enumerate(length.hex_counts):
        if ((entry.terrain is not None and entry.terrain in tags)
                or (entry.feature is not None and has[entry.feature])):
            counted = (entry.counts, i)
            break
    return counted, tuple(i for i, lim in enumerate(length.terrain_limits)
                          if lim.terrain in tags)


def _side_of(engine: Engine, features: frozenset[str]) -> _Side:
    """A hexside of these features as tracing sees it."""
    if not features:
        return _PLAIN
    rules = engine.profile.supply
    roads = [r for r in engine.profile.roads if r in features]
    road_count = min(((c.counts, i) for i, c in enumerate(rules.length.roads)
                      if c.road in roads), default=None)
    crossing = next(((c.counts, i) for i, c in enumerate(rules.length.crossings)
                     if c.feature in features and not (c.unless_road and roads)), None)
    blockers = tuple(i for i, b in enumerate(rules.blocking_hexsides)
                     if b.feature in features and not (b.unless_road and roads))
    return _Side(bool(roads), road_count, crossing, blockers)


def trace(engine: Engine, tracing: Tracing, targets: frozenset[Hex] | None = None) -> Lines:
    """One cheapest-first search from every source of ``tracing.side`` at once, in reverse.

    Searching from the sources, stepping from ``x`` to ``y`` prices the line's step from
    ``y`` into ``x``. A hex a line may not enter is still reached as a unit's own hex, but
    no line runs on through it. With ``targets`` the search stops once it has reached all
    of them; without, the result is remembered per engine.
    """
    if targets is None:
        key = ("supply_lines", tracing)
        known = engine.memo.get(key)
        if known is None:
            known = engine.memo[key] = _trace(engine, tracing, None)
        assert isinstance(known, Lines)
        return known
    return _trace(engine, tracing, targets)


def _trace(engine: Engine, tracing: Tracing, targets: frozenset[Hex] | None) -> Lines:
    rules = engine.profile.supply
    length = rules.length
    sources = source_hexes(engine, tracing)
    relaxed = tracing.relaxed
    limit = None if "length" in relaxed else length.max
    limits = [(i, lim) for i, lim in enumerate(length.terrain_limits)
              if f"limit:{i}" not in relaxed]
    side = tracing.side
    mode = rules.ezoc.mode

    def source_ok(s: Hex, src: _Source) -> bool:
        if mode == "blocked" and f"open:{src.index}" not in relaxed:
            return _open(engine, side, s)
        return not engine.situation.enemy_in(s, side)

    starts = [s for s, src in sorted(sources.items()) if source_ok(s, src)]
    present = _present(engine)
    # Every step counts the same (the default) on this map, with these rules relaxed.
    even = (all(r.counts == length.default or r.road not in present for r in length.roads)
            and all(f"crossing:{i}" in relaxed or c.counts == length.default
                    or c.feature not in present for i, c in enumerate(length.crossings))
            and all(f"count:{i}" in relaxed or e.counts == length.default
                    or (e.terrain or e.feature) not in present
                    for i, e in enumerate(length.hex_counts)))
    uniform = even and not limits
    step_ok = _step_filter(engine, tracing)
    if uniform:
        return _breadth_first(engine, tracing, starts, sources, limit, step_ok, targets)
    return _cheapest_first(engine, tracing, starts, limit, limits, step_ok, targets, even)


def _step_filter(engine: Engine, tracing: Tracing) -> Callable[[int, int, _Side], bool]:
    """Whether the line's step from hex ``y`` into hex ``x`` (their numbers) may be made
    (blocking hexsides, 003 §5.7.4; prohibited terrain, 001 §6.0). Across a bare hexside
    only the terrain of ``x`` can prohibit it: those hexes are worked out once."""
    rules, relaxed = engine.profile.supply, tracing.relaxed
    prohibited = rules.prohibited if "prohibited" not in relaxed else None
    blocking = frozenset(i for i in range(len(rules.blocking_hexsides))
                         if f"blocker:{i}" not in relaxed)
    barred = _prohibited_numbers(engine, prohibited.unit_class) if prohibited else frozenset()
    hexes = numbering(engine).hexes

    def ok(y: int, x: int, side: _Side) -> bool:
        if side is _PLAIN:
            return x not in barred
        if side.blockers and any(i in blocking for i in side.blockers):
            return False
        return prohibited is None or prohibiting(engine, hexes[y], hexes[x],
                                                 prohibited.unit_class) is None

    return ok


def _prohibited_numbers(engine: Engine, unit_class: str) -> frozenset[int]:
    """The numbers of the hexes ``unit_class`` may not enter (the map's alone)."""
    ids = numbering(engine).ids
    return _position_kept(engine, f"supply_prohibited:{unit_class}", lambda e: frozenset(
        ids[h] for h in prohibited_hexes(e, unit_class)))


def _passes(engine: Engine, side: str, x: Hex, start: bool) -> bool:
    """Whether a line runs on through ``x``: a source is only entered; any other hex must
    be open (:func:`_open`)."""
    return start or _open(engine, side, x)


def _sides_around(engine: Engine) -> dict[int, tuple[_Side, ...]]:
    """Around each hex with a hexside the map lists (by number), the hexside to each
    neighbour as tracing sees it, in the grid's order
    (:attr:`~pipeline.rules.situation.GameMap.featured_around`: a hexside on the map's
    edge, naming a hex off it, is no step of a line)."""
    def make(engine: Engine) -> dict[int, tuple[_Side, ...]]:
        # What a hexside is to a line depends on its features alone: few kinds on a map.
        featured = engine.situation.map.featured_around
        kinds: dict[frozenset[str] | None, _Side] = {None: _PLAIN}
        for sides in featured.values():
            for features in sides:
                if features not in kinds:
                    kinds[features] = _side_of(engine, features)  # type: ignore[arg-type]
        kind = kinds.__getitem__
        return {x: tuple(map(kind, sides)) for x, sides in featured.items()}
    return _position_kept(engine, "supply_sides_around", make)


def _sides_of(engine: Engine, x: int) -> tuple[_Side, ...]:
    """The hexsides around hex number ``x`` (:func:`_sides_around`; all bare for a hex with
    no featured hexside)."""
    known = _sides_around(engine).get(x)
    return known if known is not None else (_PLAIN,) * len(numbering(engine).around[x])


def _present(engine: Engine) -> frozenset[str]:
    """Every terrain and hexside feature the map uses."""
    def make(engine: Engine) -> frozenset[str]:
        gmap = engine.situation.map
        found = {f for feats in set(gmap.hexsides.values()) for f in feats}
        return frozenset(found.union(*gmap.terrain_mixes[0]))
    return _position_kept(engine, "supply_present", make)


def _featured(engine: Engine) -> frozenset[int]:
    """The numbers of the hexes with a hexside the map lists (:func:`_sides_around`; a
    hexside on the map's edge names a hex off it, and its steps are none)."""
    return _position_kept(engine, "supply_featured",
                          lambda e: frozenset(e.situation.map.featured_around))


def _closed_numbers(engine: Engine, tracing: Tracing) -> frozenset[int]:
    """:func:`_closed` by the hexes' numbers (a fact of the position, kept for its
    engines)."""
    relaxed = tracing.relaxed
    key = ("supply_closed_numbers", tracing.side, "enemy_units" in relaxed, "ezoc" in relaxed)
    memo = engine.situation.position_memo
    known = memo.get(key)
    if known is None:
        known = memo[key] = frozenset(map(numbering(engine).ids.__getitem__,
                                          _closed(engine, tracing.side, relaxed)))
    return cast("frozenset[int]", known)


def _breadth_first(engine: Engine, tracing: Tracing, starts: list[Hex],
                   sources: dict[Hex, _Source], limit: float | None,
                   step_ok: Callable[[int, int, _Side], bool],
                   targets: frozenset[Hex] | None) -> Lines:
    """:func:`trace` when every hex counts the same: a breadth-first search, its queue the
    states themselves in the order they are made."""
    rules = engine.profile.supply
    per_hex = rules.length.default
    plain = not rules.blocking_hexsides and rules.prohibited is None
    numbers = numbering(engine)
    ids = numbers.ids
    # Hexsides matter only where some block a line or lead into prohibited terrain.
    featured = _featured(engine) if not plain else frozenset()
    relaxed = tracing.relaxed
    barred = (_prohibited_numbers(engine, rules.prohibited.unit_class)
              if rules.prohibited is not None and "prohibited" not in relaxed else frozenset())
    closed = _closed_numbers(engine, tracing)
    around, sides_of = numbers.around, _sides_around(engine) if not plain else {}
    at = [ids[s] for s in starts]
    count = [0.0] * len(at)
    parent = [-1] * len(at)
    initial = set(at)
    best: dict[int, int] = {}
    remaining = {ids[t] for t in targets} if targets is not None else None
    seen = set(at)
    # The queue is the states' list itself: the loop reads what is appended to it.
    for state, x in enumerate(at):
        best[x] = state  # _settle, inlined
        if remaining is not None:
            remaining.discard(x)
            if not remaining:
                break
        total = count[state] + per_hex
        if x in closed and x not in initial:
            continue  # a source is only entered; any other hex must be open (_open)
        if limit is not None and total > limit:
            continue
        ys = around[x]
        if x in featured:
            for y, side in zip(ys, sides_of.get(x) or _sides_of(engine, x), strict=True):
                if y not in seen and step_ok(y, x, side):
                    seen.add(y)
                    at.append(y)
                    count.append(total)
                    parent.append(state)
        elif x not in barred:  # across a bare hexside only x's own terrain can stop a step
            for y in ys:
                if y not in seen:
                    seen.add(y)
                    at.append(y)
                    count.append(total)
                    parent.append(state)
    return Lines(numbers, best, at, count, parent)


def _cheapest_first(engine: Engine, tracing: Tracing, starts: list[Hex],
                    limit: float | None, limits: list[tuple[int, TerrainLimit]],
                    step_ok: Callable[[int, int, _Side], bool],
                    targets: frozenset[Hex] | None, even: bool) -> Lines:
    """:func:`trace` with counts that differ or terrain limits: a cheapest-first search over
    (hex, limited hexes passed, leaves by road). Where every step counts the same
    (``even``: only terrain limits make the search keep more than the hex) the states are
    settled in the order they are reached, which is cheapest first."""
    search = _Counted(engine, tracing, starts, limit, limits, step_ok, targets)
    return search.in_order() if even else search.by_count()


# The steps out of a state, grouped: (what the line counts, limited hexes passed, leaves by
# road into a limited hex) and the numbers of the hexes it steps from.
_Groups = list[tuple[tuple[float, tuple[int, ...], bool], tuple[int, ...]]]


class _Counted:
    """One cheapest-first search: its rules looked up once, and its states by index (their
    hex's number, what their line counts, the state they come from), those of each
    (limited hexes passed, leaves by road) pair also by their hex's number. The hot loop of
    supply: the hexside tests only where a hexside has a feature."""

    def __init__(self, engine: Engine, tracing: Tracing, starts: list[Hex],
                 limit: float | None, limits: list[tuple[int, TerrainLimit]],
                 step_ok: Callable[[int, int, _Side], bool],
                 targets: frozenset[Hex] | None) -> None:
        rules = engine.profile.supply
        length, relaxed = rules.length, tracing.relaxed
        terrain = _supply_map(engine)
        self.engine, self.limit, self.step_ok = engine, limit, step_ok
        self.counts, self.limited = terrain.counts, terrain.limited
        self.slot = {i: n for n, (i, _) in enumerate(limits)}
        self.every_limit = len(self.slot) == len(length.terrain_limits)
        self.maxima = {i: lim.max for i, lim in limits}
        self.by_roads = {i for i, lim in limits if lim.except_along_roads}
        self.default = length.default
        self.relaxed_counts = frozenset(int(k.split(":")[1]) for k in relaxed
                                        if k.startswith("count:"))
        self.relaxed_crossings = frozenset(int(k.split(":")[1]) for k in relaxed
                                           if k.startswith("crossing:"))
        self.checks = bool(rules.blocking_hexsides) or rules.prohibited is not None
        self.closed = _closed_numbers(engine, tracing)
        self.numbers = numbers = numbering(engine)
        # The least any step can count: what entering a hex counts, or crossing into it.
        self.least = min([self.default, *(e.counts for e in length.hex_counts),
                          *(r.counts for r in length.roads),
                          *(c.counts for c in length.crossings)])
        self.around, self.sides = numbers.around, _sides_around(engine)
        self.featured = _featured(engine)
        ids = numbers.ids
        zero = tuple(0 for _ in limits)
        self.states: list[_State] = [(ids[s], zero, True) for s in starts]
        self.at = [ids[s] for s in starts]
        self.count = [0.0] * len(starts)
        self.parent = [-1] * len(starts)
        self.layers: tuple[dict[tuple[int, ...], dict[int, int]], ...] = (
            {}, {zero: {x: i for i, x in enumerate(self.at)}})
        self.initial = frozenset(self.at)
        self.best: dict[int, int] = {}
        self.remaining = {ids[t] for t in targets} if targets is not None else None

    def lines(self) -> Lines:
        return Lines(self.numbers, self.best, self.at, self.count, self.parent)

    def in_order(self) -> Lines:
        """Every step counting the same, a state is first reached at its least count and
        the states are reached cheapest first: settled in the order reached.

        A state is not made where its hex was reached already with no more limited hexes
        passed (and the same road): reached earlier, at no greater count, that state
        reaches all this one would, each hex first. Every hex is first reached by the same
        line as without the pruning; a third to two-fifths of the states on the bench's
        Cobra position were such (003_de9c41aeffe9bb98.txt §10.3.2: one marsh hex at most)."""
        states, at, count, parent = self.states, self.at, self.count, self.parent
        best, remaining, layers, limit = self.best, self.remaining, self.layers, self.limit
        step_groups = self.grouper()
        for state, x in enumerate(at):
            if x not in best:
                best[x] = state  # _settle, inlined
                if remaining is not None:
                    remaining.discard(x)
                    if not remaining:
                        break
            groups = step_groups(state, count[state])
            if groups is None:
                continue
            for (total, now, road), into in groups:
                if limit is not None and total > limit:
                    continue
                by_used = layers[road]
                layer = by_used.get(now)
                if layer is None:
                    layer = by_used[now] = {}
                fewer = [by_used[u] for u in _fewer(now) if u in by_used]
                for y in into:
                    if y not in layer and not (fewer and any(y in f for f in fewer)):
                        layer[y] = len(states)
                        states.append((y, now, road))
                        at.append(y)
                        count.append(total)
                        parent.append(state)
        return self.lines()

    def by_count(self) -> Lines:
        """Cheapest first, and in the order reached among equals: the states reached at
        each count in a list, the counts in a heap."""
        states, at, count, parent = self.states, self.at, self.count, self.parent
        best, remaining, layers, limit = self.best, self.remaining, self.layers, self.limit
        queue: dict[float, list[int]] = {0.0: list(range(len(states)))}
        counts_due = [0.0]
        step_groups = self.grouper()
        while counts_due:
            d = heapq.heappop(counts_due)
            for state in queue[d]:
                if d > count[state]:
                    continue  # a state is reached again only for less: this one is stale
                x = at[state]
                if x not in best:
                    best[x] = state  # _settle, inlined
                    if remaining is not None:
                        remaining.discard(x)
                        if not remaining:
                            return self.lines()
                groups = step_groups(state, d)
                if groups is None:
                    continue
                for (total, now, road), into in groups:
                    if limit is not None and total > limit:
                        continue
                    layer = layers[road].get(now)
                    if layer is None:
                        layer = layers[road][now] = {}
                    due: list[int] | None = None
                    for y in into:
                        known = layer.get(y)
                        if known is None:
                            known = layer[y] = len(states)
                            states.append((y, now, road))
                            at.append(y)
                            count.append(total)
                            parent.append(state)
                        elif total < count[known]:
                            count[known], parent[known] = total, state
                        else:
                            continue
                        if due is None:
                            due = queue.get(total)
                            if due is None:
                                due = queue[total] = []
                                heapq.heappush(counts_due, total)
                        due.append(known)
            del queue[d]
        return self.lines()

    def grouper(self) -> Callable[[int, float], _Groups | None]:
        """The steps the line may take into a state's hex (searching from the sources, a
        step from x to y is the line's step from y into x), from the state's index and
        count, or ``None`` where no line runs on through it. A closure over this search's
        rules: it is called at every state."""
        engine, states, closed, initial = self.engine, self.states, self.closed, self.initial
        limit, least, counts, default = self.limit, self.least, self.counts, self.default
        relaxed_counts, relaxed_crossings = self.relaxed_counts, self.relaxed_crossings
        limited, slot, maxima, by_roads = self.limited, self.slot, self.maxima, self.by_roads
        every_limit, around, sides, featured = (self.every_limit, self.around, self.sides,
                                                self.featured)
        step_ok = self.step_ok if self.checks else None
        unbumped: frozenset[int] = frozenset()

        def groups(state: int, d: float) -> _Groups | None:
            x, used, leaves_by_road = states[state]
            if x in closed and x not in initial:
                return None  # a source is only entered; any other hex must be open (_open)
            if limit is not None and d + least > limit:
                return None  # no step from here stays within the length
            base, entry = counts[x]
            if entry is not None and entry in relaxed_counts:
                base = default
            hits = limited.get(x) if limited else None
            if hits is not None and not every_limit:
                hits = tuple(i for i in hits if i in slot)
            # The limited hexes passed once x is entered: the same from every neighbour but
            # by road, where one entered and left along roads is not counted (003 §10.3.2).
            now_plain: tuple[int, ...] | None = used
            now_road: tuple[int, ...] | None = used
            if hits:
                now_plain = now_road = _bumped(used, hits, slot, maxima, unbumped)
                if leaves_by_road and not by_roads.isdisjoint(hits):
                    now_road = _bumped(used, hits, slot, maxima, by_roads)
            ys = around[x]
            if x in featured:
                return _steps(ys, sides.get(x) or _sides_of(engine, x), x, d, base, now_plain,
                              now_road, limited, relaxed_crossings, step_ok)
            if now_plain is None:
                return None
            return [((d + base, now_plain, False), ys)]  # every hexside bare: one step for all

        return groups


def _steps(ys: tuple[int, ...], sides: tuple[_Side, ...], x: int, d: float, base: float,
           now_plain: tuple[int, ...] | None, now_road: tuple[int, ...] | None,
           limited: Mapping[int, object], relaxed_crossings: frozenset[int],
           step_ok: Callable[[int, int, _Side], bool] | None
           ) -> list[tuple[tuple[float, tuple[int, ...], bool], tuple[int, ...]]]:
    """The lines' steps into ``x`` from each neighbour ``y`` across a featured hexside: what
    the line counts on entering x (from ``d``, what it counts from x on), the limited hexes
    it has passed, and whether it leaves y by a road into a limited hex; with ``(y,)``."""
    out: list[tuple[tuple[float, tuple[int, ...], bool], tuple[int, ...]]] = []
    for y, side in zip(ys, sides, strict=True):
        if side is _PLAIN:
            step, road, now = base, False, now_plain
        else:
            if step_ok is not None and not step_ok(y, x, side):
                continue
            step, road = base, side.road
            now = now_road if road else now_plain
            if side.road_count is not None:
                step = side.road_count[0]
            elif side.crossing is not None and side.crossing[1] not in relaxed_crossings:
                step = side.crossing[0]
        if now is not None:  # else more limited hexes than the limit allows
            out.append(((d + step, now, road and y in limited), (y,)))
    return out


@functools.cache
def _fewer(used: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The counts of limited hexes passed that are no more than ``used`` in every limit,
    ``used`` itself left out.

    >>> _fewer((1, 2))
    ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1))
    >>> _fewer((0,))
    ()
    """
    return tuple(u for u in itertools.product(*(range(n + 1) for n in used)) if u != used)


def _bumped(used: tuple[int, ...], hits: tuple[int, ...], slot: dict[int, int],
            maxima: dict[int, int], not_counted: Set[int]) -> tuple[int, ...] | None:
    """The counts of limited hexes passed after entering one of the ``hits`` limits (less
    those ``not_counted``), or ``None`` past a limit's maximum."""
    bumped = list(used)
    for i in hits:
        if i not in not_counted:
            bumped[slot[i]] += 1
    if any(bumped[slot[i]] > maxima[i] for i in hits):
        return None
    return tuple(bumped)


# -- the binding limit -------------------------------------------------------------------


@dataclass(frozen=True)
class _Relaxation:
    key: str
    cite: str
    reason: str


def _relaxations(engine: Engine, side: str) -> Iterator[_Relaxation]:
    """The rules a cut-off unit may be refused by, in the order they are named, each only
    where the position has something it applies to."""
    sit, rules = engine.situation, engine.profile.supply
    length = rules.length
    terrain = _supply_map(engine)
    most = "" if length.max is None else _number(length.max)
    unit = "MP" if length.unit == "mp" else "hexes"
    for i, source in enumerate(rules.sources):
        if source.side != side:
            continue
        for j, ex in enumerate(source.excluded):
            if source.marker is not None and any(
                    _marker_matches(m, source.marker.type, source.marker.where, side)
                    and _values_match(m, ex.where, side) for m in sit.markers):
                what = source.name or "source"
                yield _Relaxation(f"exclusion:{i}:{j}", ex.cite or source.cite,
                                  ex.reason or f"the only {what} in reach is not a source"
                                  f" ({', '.join(f'{k}: {v}' for k, v in ex.where.items())})")
    if rules.ezoc.mode == "blocked":
        closed = {src.index for h, src in source_hexes(engine, Tracing(side)).items()
                  if not _open(engine, side, h)}
        for i, source in enumerate(rules.sources):
            if i in closed:
                yield _Relaxation(f"open:{i}", source.cite or rules.ezoc.cite,
                                  f"the only {source.name or 'source'} in reach is in an EZOC"
                                  " that no friendly unit negates")
    for i, lim in enumerate(length.terrain_limits):
        if any(i in hits for hits in terrain.limited.values()):
            roads = " off the roads" if lim.except_along_roads else ""
            yield _Relaxation(f"limit:{i}", lim.cite or length.cite,
                              f"every line passes more than {lim.max} {_words(lim.terrain)}"
                              f" hex{'es' if lim.max != 1 else ''}{roads}")
    if length.max is not None:
        for i, entry in enumerate(length.hex_counts):
            if entry.counts > length.default and i in terrain.entries:
                what = (f"{_words(entry.terrain)} hexes" if entry.terrain else
                        f"hexes with a {_words(entry.feature or '')} hexside")
                yield _Relaxation(f"count:{i}", entry.cite or length.cite,
                                  f"{what} count {_number(entry.counts)}")
        present = {f for feats in sit.map.hexsides.values() for f in feats}
        for i, crossing in enumerate(length.crossings):
            if crossing.counts > length.default and crossing.feature in present:
                off = " off the road" if crossing.unless_road else ""
                yield _Relaxation(f"crossing:{i}", crossing.cite or length.cite,
                                  f"a {_words(crossing.feature)} crossed{off} counts"
                                  f" {_number(crossing.counts)}")
        yield _Relaxation("length", length.cite or rules.cite,
                          f"every line is longer than {most} {unit}")
    present = {f for feats in sit.map.hexsides.values() for f in feats}
    for i, blocker in enumerate(rules.blocking_hexsides):
        if blocker.feature in present:
            yield _Relaxation(f"blocker:{i}", blocker.cite or rules.cite,
                              f"{blocker.feature} hexsides block every line to a source")
    if rules.prohibited is not None:
        yield _Relaxation("prohibited", rules.prohibited.cite or rules.cite,
                          "prohibited terrain blocks every line to a source")


def _diagnose(engine: Engine, strict: Tracing, units: list[Unit]) -> dict[str, SupplyAnswer]:
    """Name the binding limit of each cut-off unit. A search with every rule but enemy
    units and EZOC relaxed bounds any line from below: a unit it does not reach, or reaches
    only beyond the length, needs no other search. The others try one relaxation at a
    time, each search stopping once it has reached every unit still unexplained."""
    rules = engine.profile.supply
    length = rules.length
    side = strict.side
    targets = {u.hex for u in units if u.hex is not None}
    found: dict[Hex, SupplyAnswer] = {}
    relaxations = list(_relaxations(engine, side))
    loose_keys = [r.key for r in relaxations] + _exclusion_keys(engine) + ["length"]
    loosest = trace(engine, strict.without(*loose_keys), frozenset(targets))
    floor = min([length.default, *(c.counts for c in length.hex_counts),
                 *(c.counts for c in length.roads), *(c.counts for c in length.crossings)])
    unit = "MP" if length.unit == "mp" else "hexes"
    for h in targets:
        if not loosest.reaches(h):
            continue  # named below: enemy units, EZOC, or both
        if length.max is not None and floor > 0:
            steps = loosest.steps(h)
            if steps * floor > length.max:
                found[h] = SupplyAnswer(
                    False, engine.cite(length.cite or rules.cite),
                    f"every line is longer than {_number(length.max)} {unit} (at least"
                    f" {_number(steps * floor)})")
    unreached = frozenset(targets - loosest.reached(targets))
    if unreached:
        found.update(_cut_by_units(engine, strict.without(*loose_keys), unreached))
    longest = _number(length.max or 0)
    for relaxation in relaxations:
        left = frozenset(targets - found.keys())
        if not left:
            break
        lines = trace(engine, strict.without(relaxation.key), left)
        reached = lines.reached(left)
        counted = relaxation.key.startswith(("count:", "crossing:"))
        # What the line counts as the rules have it (a count or a crossing being to blame).
        full = trace(engine, strict.without("length"), reached) if counted and reached else None
        for h in reached:
            reason = relaxation.reason
            if relaxation.key == "length":
                reason = (f"the shortest line counts {_number(lines.counted(h))} {unit}, more"
                          f" than {longest}")
            elif full is not None and full.reaches(h):
                which = ("they counted" if relaxation.key.startswith("count:")
                         else "the crossing counted")
                reason = (f"{reason}: the shortest line counts {_number(full.counted(h))}"
                          f" {unit}, more than {longest} ({_number(lines.counted(h))} if"
                          f" {which} {_number(length.default)})")
            found[h] = SupplyAnswer(False, engine.cite(relaxation.cite, rules.cite), reason)
    for h in targets - found.keys():
        found[h] = SupplyAnswer(False, engine.cite(rules.cite), "no line of supply: several"
                                " rules together cut every line")
    return {u.id: found[u.hex] for u in units if u.hex is not None}


def _cut_by_units(engine: Engine, loose: Tracing, targets: frozenset[Hex]
                  ) -> dict[Hex, SupplyAnswer]:
    """Units no line reaches even with every other rule relaxed: the enemy's units cut
    them off. Named by the one rule whose relaxation alone lets a line through (the EZOC
    rule, then enemy units' hexes), else by both."""
    rules = engine.profile.supply
    found: dict[Hex, SupplyAnswer] = {}
    names = " or ".join(_source_names(engine, loose.side))
    tries = [("enemy_units", rules.enemy_units.cite,
              f"every line to {names} enters a hex holding an enemy unit")]
    if rules.ezoc.mode != "ignored":
        tries.insert(0, ("ezoc", rules.ezoc.cite,
                         f"every line to {names} enters an EZOC hex"
                         + (" no friendly unit negates" if rules.ezoc.mode == "blocked"
                            else " on its way")))
    left = targets
    for key, cite, reason in tries:
        lines = trace(engine, loose.without(key), left)
        reached = lines.reached(left)
        for h in reached:
            found[h] = SupplyAnswer(False, engine.cite(cite, rules.cite), reason)
        left = left - reached
    for h in left:
        found[h] = SupplyAnswer(False, engine.cite(rules.cite), _no_line(engine, loose.side))
    return found


def _no_line(engine: Engine, side: str) -> str:
    mode = engine.profile.supply.ezoc.mode
    names = " or ".join(_source_names(engine, side))
    ezoc = {"blocked": ", an EZOC hex no friendly unit negates",
            "enter_or_exit": " or passing through an EZOC hex", "ignored": ""}[mode]
    return f"no line of supply reaches {names} without entering an enemy unit{ezoc}"


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _words(name: str) -> str:
    """A profile name in words: ``major_river`` is "major river"."""
    return name.replace("_", " ")
