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

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from pipeline.hexgrid import Hex
from pipeline.model.rulesprofile import StackingUnit
from pipeline.rules.errors import RulesError
from pipeline.rules.select import selects
from pipeline.rules.situation import Unit
from pipeline.rules.verdict import Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["counted_markers", "stacking_verdict"]


def counted_markers(engine: Engine, h: Hex) -> dict[str, int]:
    """The markers in ``h`` that count for stacking, by type."""
    counted = engine.profile.stacking.markers
    found: dict[str, int] = {}
    for marker in engine.situation.markers_in(h):
        if marker.type in counted:
            found[marker.type] = found.get(marker.type, 0) + 1
    return found


def stacking_verdict(engine: Engine, h: Hex, units: Sequence[Unit]) -> Verdict:
    """Whether ``units`` (and the counted markers of ``h``) may stand together in ``h``."""
    rules, name = engine.profile.stacking, engine.name(h)
    if len({u.side for u in units}) > 1:
        return Verdict(False, engine.cite(engine.profile.movement.enemy_hexes.cite), name,
                       "units of both sides in one hex")
    markers = counted_markers(engine, h)
    if len(units) <= 1 and not markers:
        return Verdict(True, None, name, "one unit" if units else "empty")
    refused = _limits_by_unit(engine, h, units) or _mixing(engine, h, units) or _markers(
        engine, h, markers)
    if refused is not None:
        return refused
    total, extra, extra_rule = _value(engine, units)
    total += sum(Fraction(rules.markers[t].value).limit_denominator(100) * n
                 for t, n in markers.items())
    limit, limit_cite = _limit(engine, h, units)
    what = "points" if rules.counts == "points" else "units"
    reason = f"{_number(total)} {what} in a hex that holds {_number(limit)}"
    if total <= limit:
        return Verdict(True, None, name, reason)
    cite = extra_rule if extra_rule is not None and total - extra <= limit else limit_cite
    return Verdict(False, cite, name, reason.replace(" in a hex that holds", ", more than"))


def _limit(engine: Engine, h: Hex, units: Sequence[Unit]) -> tuple[Fraction, str | None]:
    """The hex's limit and its rule: ``hex_limits`` first, raised by ``raises_limit``."""
    rules, sit = engine.profile.stacking, engine.situation
    if rules.limit is None:
        file = engine.profile.file or "the rules profile"
        raise RulesError(f"{file}: stacking.limit: the stacking limit is not given (null); fill"
                         " in stacking.limit")
    limit, cite = Fraction(rules.limit).limit_denominator(100), engine.cite(rules.cite)
    for special in rules.hex_limits:
        if special.marker is not None and not sit.markers_in(h, special.marker):
            continue
        if special.terrain is not None and not sit.map.has(h, special.terrain):
            continue
        limit, cite = Fraction(special.limit).limit_denominator(100), engine.cite(special.cite)
        break
    raised = [Fraction(e.raises_limit).limit_denominator(100) for e in rules.units
              if e.raises_limit is not None and any(selects(engine, e, u) for u in units)]
    return limit + max(raised, default=Fraction(0)), cite


def _limits_by_unit(engine: Engine, h: Hex, units: Sequence[Unit]) -> Verdict | None:
    """``max_count`` and ``max_stack`` of ``stacking.units`` (001 §6.3, 003 §15.3.2)."""
    name = engine.name(h)
    # A stack's size counts every unit but those that never count (value 0, 001 §11.1.1).
    never = [e for e in engine.profile.stacking.units if e.value == 0 and e.free is None]
    counted = [u for u in units if not any(selects(engine, e, u) for e in never)]
    for entry in engine.profile.stacking.units:
        matching = [u for u in units if selects(engine, entry, u)]
        if not matching:
            continue
        ids = ", ".join(u.id for u in matching)
        if entry.max_count is not None and len(matching) > entry.max_count:
            return Verdict(False, engine.cite(entry.cite), name,
                           f"{len(matching)} such units ({ids}), at most {entry.max_count}")
        if entry.max_stack is not None and len(counted) > entry.max_stack:
            return Verdict(False, engine.cite(entry.cite), name,
                           f"{ids} may stand in a stack of at most {entry.max_stack}:"
                           f" {len(counted)} units here")
    return None


def _mixing(engine: Engine, h: Hex, units: Sequence[Unit]) -> Verdict | None:
    rule = engine.profile.stacking.no_mixing
    if rule is None:
        return None
    groups = {i for u in units for i, group in enumerate(rule.groups)
              if u.get("nationality") in group}
    if len(groups) <= 1:
        return None
    nations = sorted({str(u.get("nationality")) for u in units if u.get("nationality")})
    return Verdict(False, engine.cite(rule.cite), engine.name(h),
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


def _value(engine: Engine, units: Sequence[Unit]) -> tuple[Fraction, Fraction, str | None]:
    """The stack's value, the part counted beyond free allowances, and their rule."""
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
              ) -> tuple[Fraction, StackingUnit | None]:
    """What one unit counts, and the free allowance it is beyond (``used`` counts the
    free places taken so far, by entry)."""
    rules = engine.profile.stacking
    for i, entry in enumerate(rules.units):
        if entry.value is None and entry.free is None:
            continue
        if not selects(engine, entry, unit):
            continue
        if entry.free is not None:
            with_ok = not entry.free_with or any(
                other.id != unit.id and any(selects(engine, w, other) for w in entry.free_with)
                for other in units)
            if with_ok and used.get(i, 0) < entry.free:
                used[i] = used.get(i, 0) + 1
                return Fraction(0), None
            if entry.value is None:
                continue  # not free here: it counts as its other entries say
            return Fraction(entry.value).limit_denominator(100), entry
        assert entry.value is not None
        return Fraction(entry.value).limit_denominator(100), None
    if rules.counts == "units":
        return Fraction(1), None
    size = unit.get("size")
    if size not in rules.points:
        file = engine.profile.file or "the rules profile"
        raise RulesError(f"{file}: stacking.points: unit {unit.id} is of size {size!r}, which"
                         f" has no stacking points (sizes given: {', '.join(rules.points)})")
    return Fraction(rules.points[size]).limit_denominator(100), None


def _number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
