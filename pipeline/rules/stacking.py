"""Stacking as the profile says it: a limit per hex, by count or by points.

``stacking.limit`` units (``counts: "units"``) or points (``counts: "points"``,
each unit the points of its size) a hex; ``stacking.units`` for units that count
differently (free, a share, free only with another unit, at most N a hex, a
stack they are in holds at most N, a third unit allowed), ``stacking.markers``
for the markers that count (every other marker never does), ``hex_limits`` for
hexes that hold a different number and ``no_mixing`` for nationalities that
never stack together. Units of both sides never share a hex
(``movement.enemy_hexes``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from pipeline.hexgrid import Hex
from pipeline.model.rulesprofile import HexLimit, StackingUnit
from pipeline.rules.errors import RulesError
from pipeline.rules.select import selects
from pipeline.rules.situation import Unit, mixed_names
from pipeline.rules.verdict import Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

# A stacking value: a whole number of units or points, or a share such as 1/3.
Number = Fraction | int

__all__ = ["counted_markers", "hex_limit_words", "lone_refusals", "once_left_hexes",
           "plain_count", "stacking_verdict"]


def counted_markers(engine: Engine, h: Hex) -> dict[str, int]:
    """The markers in ``h`` that count for stacking, by type."""
    counted = engine.profile.stacking.markers
    found: dict[str, int] = {}
    for marker in engine.situation.markers_in(h):
        if marker.type in counted:
            found[marker.type] = found.get(marker.type, 0) + 1
    return found


def once_left_hexes(engine: Engine) -> dict[Hex, int]:
    """The hexes a unit may not stack again after leaving (``hex_limits`` with
    ``once_left``, 000 §11.2.1), with the index of their entry."""
    memo = engine.situation.position_memo  # the map's and the markers': the position's
    known = memo.get(("once_left_hexes",))
    if known is None:
        found: dict[Hex, int] = {}
        for i, special in enumerate(engine.profile.stacking.hex_limits):
            if special.once_left is None:
                continue
            sit = engine.situation
            # A marker's hexes are few: look there first, not over the whole map.
            candidates = ([m.hex for m in sit.markers if m.type == special.marker]
                          if special.marker is not None else list(engine.grid.adjacency))
            for h in candidates:
                if h is not None and h not in found and _in_hex_limit(engine, special, h):
                    found[h] = i
        known = memo[("once_left_hexes",)] = found
    return known  # type: ignore[return-value]


def hex_limit_words(special: HexLimit) -> str:
    """The hexes of a ``hex_limits`` entry in words: "a beach hex with a beachhead marker".

    >>> hex_limit_words(HexLimit(limit=3, marker="beachhead", terrain="beach"))
    'a beach hex with a beachhead marker'
    """
    hexes = f"a {special.terrain} hex" if special.terrain else "a hex"
    return hexes + (f" with a {special.marker} marker" if special.marker else "")


def _in_hex_limit(engine: Engine, special: HexLimit, h: Hex) -> bool:
    sit = engine.situation
    if special.marker is not None and not sit.markers_in(h, special.marker):
        return False
    return special.terrain is None or sit.map.has(h, special.terrain)


def _once_left(engine: Engine, h: Hex, units: Sequence[Unit]) -> Verdict | None:
    """000 §11.2.1: units that have left such a hex (their ``once_left`` flag) never stack
    with another unit in one again."""
    i = once_left_hexes(engine).get(h)
    if i is None or len(units) <= 1:
        return None
    rule = engine.profile.stacking.hex_limits[i]
    assert rule.once_left is not None
    flagged = [u.id for u in units if u.flag(rule.once_left.flag)]
    if not flagged:
        return None
    return Verdict(False, engine.cite(rule.once_left.cite, rule.cite), engine.name(h),
                   f"{', '.join(flagged)} left {hex_limit_words(rule)} earlier and may not"
                   " stack again")


def stacking_verdict(engine: Engine, h: Hex, units: Sequence[Unit]) -> Verdict:
    """Whether ``units`` (and the counted markers of ``h``) may stand together in ``h``."""
    rules = engine.profile.stacking
    side = units[0].side if units else None
    if any(u.side != side for u in units):
        return Verdict(False, engine.cite(engine.profile.movement.enemy_hexes.cite),
                       engine.name(h),
                       f"units of both sides in one hex: {mixed_names(tuple(units))}")
    markers = counted_markers(engine, h) if rules.markers else {}
    if len(units) <= 1 and not markers:
        return Verdict(True, None, engine.name(h), "one unit" if units else "empty")
    if rules.hex_limits:
        refused = _once_left(engine, h, units)
        if refused is not None:
            return refused
    if not markers and _counts_plainly(engine):
        # The plain count (000 §5.3): no share, no free unit, no marker to weigh; it reads
        # only how many units there are: one verdict per hex and number (a move's end asks
        # it of every hex where friends stand).
        return plain_count(engine, h, len(units))
    name = engine.name(h)
    facts = [_facts(engine, u) for u in units]
    refused = _limits_by_unit(engine, name, units, facts) or _mixing(
        engine, name, units, facts)
    if refused is None and (markers or rules.exclusive_markers):
        refused = _markers(engine, h, markers)
    if refused is not None:
        return refused
    total, extra, extra_rule = _value(engine, units, facts)
    for t, n in markers.items():
        total += _fraction(rules.markers[t].value) * n
    limit, limit_cite = _limit(engine, h, facts)
    what = "points" if rules.counts == "points" else "units"
    reason = f"{_number(total)} {what} in a hex that holds {_number(limit)}"
    if total <= limit:
        return Verdict(True, None, name, reason)
    cite = extra_rule if extra_rule is not None and total - extra <= limit else limit_cite
    return Verdict(False, cite, name, reason.replace(" in a hex that holds", ", more than"))


def lone_refusals(engine: Engine, side: str) -> dict[Hex, int] | None:
    """Where stacking is the plain count, the hexes one unit of ``side`` may not end its
    move in for the friendly units already there, each with the count of units it would
    make there (000 §5.3; :func:`plain_count` words the refusal): the same for every lone
    mover of the side, so worked out once per position. ``None`` where the answer reads
    more than a count (points, shares, counted markers, nationalities): asked of each
    move. A hex a unit may not stack in again after leaving (000 §11.2.1) is left out:
    that reads the mover's own flag (:func:`stacking_verdict` answers it).

    A move's end asks it of every hex where friends stand, and most moves are of one unit.
    """
    rules = engine.profile.stacking
    if rules.markers or not _counts_plainly(engine):
        return None
    memo = engine.situation.position_memo
    key = ("lone_refusals", side)
    known = memo.get(key)
    if known is None:
        once = once_left_hexes(engine)
        count: dict[Hex, int] = {}
        for u in engine.situation.units:
            if u.side == side and u.hex is not None and u.hex not in once:
                count[u.hex] = count.get(u.hex, 0) + 1
        # The limit of each hex as _hex_limit reads it, compared as _counted compares it.
        limits, most = _hex_limits(engine), float(rules.limit)  # type: ignore[arg-type]
        known = memo[key] = {h: n + 1 for h, n in count.items()
                             if n + 1 > float(limits.get(h, most))}
    return known  # type: ignore[return-value]


def _hex_limits(engine: Engine) -> dict[Hex, float]:
    """The hexes of the ``hex_limits`` entries, each with the limit of the first entry that
    holds it (:func:`_hex_limit`): the position's (its map and markers)."""
    memo = engine.situation.position_memo
    known = memo.get(("hex_limits",))
    if known is None:
        sit = engine.situation
        found: dict[Hex, float] = {}
        for special in engine.profile.stacking.hex_limits:
            # A marker's hexes are few: look there first, not over the whole map.
            candidates = ([m.hex for m in sit.markers if m.type == special.marker]
                          if special.marker is not None else list(engine.grid.adjacency))
            for h in candidates:
                if h is not None and h not in found and _in_hex_limit(engine, special, h):
                    found[h] = special.limit
        known = memo[("hex_limits",)] = found
    return known  # type: ignore[return-value]


def _counts_plainly(engine: Engine) -> bool:
    """Stacking is a plain count of units: no unit counts differently, no nationalities
    kept apart, a limit given (counted markers are the caller's to weigh)."""
    rules = engine.profile.stacking
    return (rules.counts == "units" and not rules.units and rules.no_mixing is None
            and not rules.exclusive_markers and rules.limit is not None)


def plain_count(engine: Engine, h: Hex, count: int) -> Verdict:
    """:func:`stacking_verdict` by the plain count: ``count`` units against the hex's
    limit (``hex_limits`` first); one verdict per hex and number, for every engine on
    the position (it reads the map, the markers and the profile only)."""
    memo = engine.situation.position_memo
    key = ("plain_count", h, count)
    known = memo.get(key)
    if known is None:
        known = memo[key] = _counted(engine, h, count)
    return known  # type: ignore[return-value]


def _counted(engine: Engine, h: Hex, count: int) -> Verdict:
    limit, cite = _hex_limit(engine, h)
    most = float(limit)
    reason = f"{count} units in a hex that holds {most:g}"
    if count <= most:
        return Verdict(True, None, engine.name(h), reason)
    return Verdict(False, cite, engine.name(h),
                   reason.replace(" in a hex that holds", ", more than"))


def _limit(engine: Engine, h: Hex, facts: Sequence[_Facts]) -> tuple[Number, str | None]:
    """The hex's limit and its rule: ``hex_limits`` first, raised by ``raises_limit``."""
    rules = engine.profile.stacking
    if rules.limit is None:
        file = engine.profile.file or "the rules profile"
        raise RulesError(f"{file}: stacking.limit: the stacking limit is not given (null); fill"
                         " in stacking.limit")
    limit, cite = _hex_limit(engine, h)
    return _fraction(limit) + max((f.raises for f in facts), default=0), cite


def _hex_limit(engine: Engine, h: Hex) -> tuple[float, str | None]:
    """The limit of ``h`` as the profile prints it, and its rule: the first ``hex_limits``
    entry whose hexes hold ``h``, else ``stacking.limit`` (given: callers check)."""
    rules = engine.profile.stacking
    for special in rules.hex_limits:
        if _in_hex_limit(engine, special, h):
            return special.limit, engine.cite(special.cite)
    assert rules.limit is not None
    return rules.limit, engine.cite(rules.cite)


def _limits_by_unit(engine: Engine, name: str, units: Sequence[Unit], facts: Sequence[_Facts]
                    ) -> Verdict | None:
    """``max_count`` and ``max_stack`` of ``stacking.units`` (001 §6.3, 003 §15.3.2)."""
    kinds = _kinds(engine)
    if not kinds.limiting:
        return None
    entries = engine.profile.stacking.units
    # A stack's size counts every unit but those that never count (value 0, 001 §11.1.1).
    counted = sum(1 for f in facts if not f.never)
    for i in kinds.limiting:
        entry = entries[i]
        matching = [u for u, f in zip(units, facts, strict=True) if f.entries[i]]
        if not matching:
            continue
        ids = ", ".join(u.id for u in matching)
        if entry.max_count is not None and len(matching) > entry.max_count:
            return Verdict(False, engine.cite(entry.cite), name,
                           f"{len(matching)} such units ({ids}), at most {entry.max_count}")
        if entry.max_stack is not None and counted > entry.max_stack:
            return Verdict(False, engine.cite(entry.cite), name,
                           f"{ids} may stand in a stack of at most {entry.max_stack}:"
                           f" {counted} units here")
    return None


def _mixing(engine: Engine, name: str, units: Sequence[Unit], facts: Sequence[_Facts]
            ) -> Verdict | None:
    rule = engine.profile.stacking.no_mixing
    if rule is None:
        return None
    groups = {i for f in facts for i in f.groups}
    if len(groups) <= 1:
        return None
    nations = sorted({str(u.get("nationality")) for u in units if u.get("nationality")})
    return Verdict(False, engine.cite(rule.cite), name,
                   f"units of {', '.join(nations)} may not stack together")


def _markers(engine: Engine, h: Hex, markers: dict[str, int]) -> Verdict | None:
    rules, name = engine.profile.stacking, engine.name(h)
    for kind, count in sorted(markers.items()):
        most = rules.markers[kind].max_count
        if most is not None and count > most:
            return Verdict(False, engine.cite(rules.markers[kind].cite), name,
                           f"{count} {kind} markers, at most {most} a hex")
    for exclusion in rules.exclusive_markers:
        present = [t for t in exclusion.types if engine.situation.markers_in(h, t)]
        if len(present) > 1:
            return Verdict(False, engine.cite(exclusion.cite), name,
                           f"{' and '.join(present)} in one hex")
    return None


def _value(engine: Engine, units: Sequence[Unit], facts: Sequence[_Facts]
           ) -> tuple[Number, Number, str | None]:
    """The stack's value, the part counted beyond free allowances, and their rule."""
    if all(f.fixed is not None for f in facts):
        # No free allowance to share out: each unit counts what it always counts.
        total: Number = 0
        for f in facts:
            assert f.fixed is not None
            total += f.fixed
        return total, 0, None
    used: dict[int, int] = {}
    total = extra = Fraction(0)
    extra_rule: str | None = None
    for unit in sorted(units, key=lambda u: u.id):
        value, beyond = _value_of(engine, unit, units, used)
        total += value
        if beyond is not None:
            extra += value
            extra_rule = extra_rule or engine.cite(beyond.cite)
    return total, extra, extra_rule


def _value_of(engine: Engine, unit: Unit, units: Sequence[Unit], used: dict[int, int]
              ) -> tuple[Number, StackingUnit | None]:
    """What one unit counts, and the free allowance it is beyond (``used`` counts the
    free places taken so far, by entry)."""
    rules = engine.profile.stacking
    matched = _entries(engine, unit)
    for i, entry in enumerate(rules.units):
        if entry.value is None and entry.free is None:
            continue
        if not matched[i]:
            continue
        if entry.free is not None:
            with_ok = not entry.free_with or any(
                other.id != unit.id and any(selects(engine, w, other) for w in entry.free_with)
                for other in units)
            if with_ok and used.get(i, 0) < entry.free:
                used[i] = used.get(i, 0) + 1
                return 0, None
            if entry.value is None:
                continue  # not free here: it counts as its other entries say
            return _fraction(entry.value), entry
        assert entry.value is not None
        return _fraction(entry.value), None
    return _base_value(engine, unit), None


def _base_value(engine: Engine, unit: Unit) -> Number:
    """What a unit no ``stacking.units`` entry values counts: one, or its size's points."""
    rules = engine.profile.stacking
    if rules.counts == "units":
        return 1
    size = unit.get("size")
    if size not in rules.points:
        file = engine.profile.file or "the rules profile"
        raise RulesError(f"{file}: stacking.points: unit {unit.id} is of size {size!r}, which"
                         f" has no stacking points (sizes given: {', '.join(rules.points)})")
    return _fraction(rules.points[size])


@dataclass(frozen=True, slots=True)
class _Facts:
    """What stacking needs of one unit, worked out once per engine."""

    entries: tuple[bool, ...]    # which stacking.units entries name it
    never: bool                  # it never counts (value 0, no free allowance)
    groups: frozenset[int]       # its no_mixing groups
    raises: Number               # how much it raises the hex's limit
    fixed: Number | None         # what it counts, when no free allowance can apply


def _facts(engine: Engine, unit: Unit) -> _Facts:
    key = ("stacking_facts", unit.id)
    known = engine.memo.get(key)
    if known is None:
        rules, kinds = engine.profile.stacking, _kinds(engine)
        entries = _entries(engine, unit)
        mixing = rules.no_mixing
        groups = frozenset(i for i, group in enumerate(mixing.groups)
                           if unit.get("nationality") in group) if mixing else frozenset()
        raises = max((_fraction(rules.units[i].raises_limit or 0) for i in kinds.raising
                      if entries[i]), default=0)
        fixed: Number | None = None
        for i, entry in enumerate(rules.units):
            if entries[i] and entry.free is not None:
                break  # a free allowance: what it counts depends on the others
            if entries[i] and entry.value is not None:
                fixed = _fraction(entry.value)
                break
        else:
            if rules.counts == "units" or unit.get("size") in rules.points:
                fixed = _base_value(engine, unit)  # else refused if ever counted
        known = engine.memo[key] = _Facts(entries, any(entries[i] for i in kinds.never),
                                          groups, raises, fixed)
    return known  # type: ignore[return-value]


@dataclass(frozen=True)
class _Kinds:
    """The ``stacking.units`` entries by what they do (indices), worked out once."""

    never: tuple[int, ...]     # units that never count (value 0, no free allowance)
    limiting: tuple[int, ...]  # entries with max_count or max_stack
    raising: tuple[int, ...]   # entries with raises_limit


def _kinds(engine: Engine) -> _Kinds:
    known = engine.memo.get(("stacking_kinds",))
    if known is None:
        entries = engine.profile.stacking.units
        known = engine.memo[("stacking_kinds",)] = _Kinds(
            tuple(i for i, e in enumerate(entries) if e.value == 0 and e.free is None),
            tuple(i for i, e in enumerate(entries)
                  if e.max_count is not None or e.max_stack is not None),
            tuple(i for i, e in enumerate(entries) if e.raises_limit is not None))
    return known  # type: ignore[return-value]


def _entries(engine: Engine, unit: Unit) -> tuple[bool, ...]:
    """Which ``stacking.units`` entries name ``unit`` (remembered per engine)."""
    key = ("stacking_entries", unit.id)
    known = engine.memo.get(key)
    if known is None:
        known = engine.memo[key] = tuple(selects(engine, e, unit)
                                         for e in engine.profile.stacking.units)
    return known  # type: ignore[return-value]


@functools.lru_cache(maxsize=256)
def _fraction(x: float) -> Number:
    # Profiles hold 1/3 as 0.3333333333333333: the fraction meant, so three make one.
    # Whole values stay ints: most stacks add up whole units, and ints add fast.
    if float(x).is_integer():
        return int(x)
    return Fraction(x).limit_denominator(100)


def _number(x: Number) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
