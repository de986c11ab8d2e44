"""Zones of control as the profile says them: who exerts one, where it reaches, what it does.

``zoc.exerted_by`` / ``zoc.not_exerted_by`` say who exerts a ZOC (000 §6.0, 001
§6.0, 003 §7.1); ``zoc.reach`` where it does not extend (003 §7.6 major rivers
and Caen, 001 §6.0 prohibited terrain); ``zoc.enter``, ``zoc.leave`` and
``zoc.ezoc_to_ezoc`` what it does to a moving unit, with ``zoc.by_class`` for a
class that differs (000 §6.1 leg and mobile units); ``zoc.negated_by_friendly``
for which purposes a friendly unit in the hex negates it; ``zoc.ignored_by``
the units it never affects (000 §11.2.3 Rangers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import filterfalse
from typing import TYPE_CHECKING, cast

from pipeline.hexgrid import Hex
from pipeline.model.rulesprofile import EzocToEzoc, ZocEnter, ZocLeave
from pipeline.rules.select import any_holds, holding_any, holds_any, moving_class, selects
from pipeline.rules.situation import Unit
from pipeline.rules.terrain import prohibited_hexes, prohibiting, road_hexes

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["ZocEffects", "exerted_cite", "exerting", "exerts_zoc", "ignores_ezoc", "negates",
           "zoc_around", "zoc_closed_hexes", "zoc_effects", "zoc_reaches", "zones_around"]


@dataclass(frozen=True)
class ZocEffects:
    """What an EZOC does to units of one class."""

    enter: ZocEnter
    leave: ZocLeave
    ezoc_to_ezoc: EzocToEzoc


def exerts_zoc(engine: Engine, unit: Unit) -> bool:
    """Whether ``unit`` exerts a ZOC (``zoc.exerted``, ``exerted_by``, ``not_exerted_by``,
    and ``suspended`` this turn, 003 §7.8)."""
    zoc = engine.profile.zoc
    if not zoc.exerted:
        return False
    if zoc.exerted_by and not holds_any(engine, zoc.exerted_by, unit):
        return False
    if zoc.not_exerted_by and holds_any(engine, zoc.not_exerted_by, unit):
        return False
    return not zoc.suspended or not _suspended(engine, unit)


def exerting(engine: Engine, units: Sequence[Unit]) -> list[Unit]:
    """The units of ``units`` that exert a ZOC (:func:`exerts_zoc` of each, its rules
    looked up once: every new position asks it of every unit)."""
    zoc = engine.profile.zoc
    if not zoc.exerted:
        return []
    found = list(units)
    if zoc.exerted_by:
        found = [u for u, named in zip(found, holding_any(engine, zoc.exerted_by, found),
                                       strict=True) if named]
    if zoc.not_exerted_by:
        found = [u for u, named in zip(found, holding_any(engine, zoc.not_exerted_by, found),
                                       strict=True) if not named]
    turn = engine.situation.turn
    if any(turn in rule.turns for rule in zoc.suspended):
        found = [u for u in found if not _suspended(engine, u)]
    return found


def _suspended(engine: Engine, unit: Unit) -> bool:
    """003 §7.8 (``zoc.suspended``): on its turns such a unit exerts no ZOC, nor (with
    ``adjacent_enemies``) does an enemy unit next to it."""
    sit = engine.situation
    for rule in engine.profile.zoc.suspended:
        if sit.turn not in rule.turns:
            continue
        if selects(engine, rule, unit):
            return True
        if rule.adjacent_enemies and unit.hex is not None and any(
                other.side != unit.side and selects(engine, rule, other)
                for n in engine.grid.neighbours(unit.hex) for other in sit.units_in(n)):
            return True
    return False


def zoc_reaches(engine: Engine, unit: Unit, into: Hex) -> bool:
    """Whether ``unit``'s ZOC extends from its hex into the adjacent ``into``
    (``zoc.reach``)."""
    assert unit.hex is not None
    reach = engine.profile.zoc.reach
    if not (reach.blocked_by_hexsides or reach.not_into_terrain or reach.not_across_prohibited):
        return True  # the six adjacent hexes, whatever lies between
    gmap = engine.situation.map
    features = gmap.features(unit.hex, into)
    if not features and not reach.not_into_terrain:
        # Across a bare hexside only prohibited terrain stops it.
        return not reach.not_across_prohibited or into not in prohibited_hexes(
            engine, moving_class(engine, unit))
    # The answer depends on the hexside, the terrain entered and the unit's class only.
    unit_class = moving_class(engine, unit) if reach.not_across_prohibited else ""
    key = ("zoc_reaches", unit_class, features, gmap.tags(into),
           road_hexes(engine, unit.hex, into) if features else ())
    known = engine.memo.get(key)
    if known is None:
        known = engine.memo[key] = _reaches(engine, unit, into, unit_class, features)
    return bool(known)


def _reaches(engine: Engine, unit: Unit, into: Hex, unit_class: str,
             features: frozenset[str]) -> bool:
    assert unit.hex is not None
    reach, gmap = engine.profile.zoc.reach, engine.situation.map
    if features and reach.blocked_by_hexsides and not features.isdisjoint(
            reach.blocked_by_hexsides):
        return False
    if reach.not_into_terrain and _proof(engine, gmap.tags(into)):
        return False
    if reach.not_across_prohibited:
        if not features:
            return into not in prohibited_hexes(engine, unit_class)
        return prohibiting(engine, unit.hex, into, unit_class) is None
    return True


def zoc_around(engine: Engine, unit: Unit, unit_class: str) -> tuple[Hex, ...]:
    """The neighbours of ``unit``'s hex its ZOC reaches (:func:`zoc_reaches`), for a unit
    moving as ``unit_class`` (``""`` where ``zoc.reach`` does not read the class). What
    it reaches depends only on the hex, the class and the map: worked out once per
    position, for every engine."""
    here = unit.hex
    assert here is not None
    key = ("zoc_around", unit_class)
    by_hex = engine.situation.terrain_memo.get(key)
    if by_hex is None:
        by_hex = engine.situation.terrain_memo[key] = {}
    assert isinstance(by_hex, dict)
    known = by_hex.get(here)
    if known is None:
        # Across a bare hexside only the terrain entered stops it: those hexes, once.
        closed = zoc_closed_hexes(engine, unit_class)
        features = engine.situation.map.features
        known = by_hex[here] = tuple(
            n for n in engine.grid.adjacency[here]
            if (zoc_reaches(engine, unit, n) if features(here, n) else n not in closed))
    return known


def zones_around(engine: Engine, units: Sequence[Unit], classes: Sequence[str]
                 ) -> list[tuple[Hex, ...]]:
    """:func:`zoc_around` of each of ``units`` (on the map), moving as ``classes``, from the
    same table: a hex with only bare hexsides around is closed only by the terrain
    entered (:func:`zoc_closed_hexes`), the others are looked at hexside by hexside."""
    memo, gmap = engine.situation.terrain_memo, engine.situation.map
    adjacency, featured, ids = engine.grid.adjacency, gmap.featured_around, gmap.numbers.ids
    found: list[tuple[Hex, ...]] = []
    tables: dict[str, tuple[dict[Hex, tuple[Hex, ...]], frozenset[Hex]]] = {}
    for unit, unit_class in zip(units, classes, strict=True):
        here = unit.hex
        assert here is not None
        table = tables.get(unit_class)
        if table is None:
            kept = memo.get(("zoc_around", unit_class))
            if kept is None:
                kept = memo[("zoc_around", unit_class)] = {}
            table = tables[unit_class] = (cast("dict[Hex, tuple[Hex, ...]]", kept),
                                          zoc_closed_hexes(engine, unit_class))
        by_hex, closed = table
        known = by_hex.get(here)
        if known is None:
            around, sides = adjacency[here], featured.get(ids[here])
            if sides is not None:  # as zoc_around: the hexside's features, or the terrain
                known = tuple(n for n, features in zip(around, sides, strict=True)
                              if (zoc_reaches(engine, unit, n) if features else
                                  n not in closed))
            elif not closed or closed.isdisjoint(around):
                known = around
            else:
                known = tuple(filterfalse(closed.__contains__, around))
            by_hex[here] = known
        found.append(known)
    return found


def zoc_closed_hexes(engine: Engine, unit_class: str) -> frozenset[Hex]:
    """The hexes a ZOC does not enter across a bare hexside (``zoc.reach``): terrain it
    does not enter, and with ``not_across_prohibited`` terrain prohibited to ``unit_class``
    (pass ``""`` without). The map's alone: worked out once per position."""
    key = ("zoc_closed_hexes", unit_class)
    memo = engine.situation.terrain_memo
    known = memo.get(key)
    if known is None:
        proof: frozenset[Hex] = frozenset()
        if engine.profile.zoc.reach.not_into_terrain:
            # Whether a ZOC enters a hex depends on its mix of terrains: asked once a mix.
            gmap = engine.situation.map
            hexes = gmap.numbers.hexes
            proof = frozenset(hexes[x] for i, tags in enumerate(gmap.terrain_mixes[0])
                              if _proof(engine, tags) for x in gmap.mix_hexes(i))
        known = memo[key] = proof | prohibited_hexes(engine, unit_class) if unit_class \
            else proof
    assert isinstance(known, frozenset)
    return known


def _proof(engine: Engine, tags: tuple[str, ...]) -> bool:
    """Whether a hex of these terrains is one a ZOC does not enter (remembered per mix)."""
    key = ("zoc_proof", tags)
    known = engine.memo.get(key)
    if known is None:
        known = engine.memo[key] = any(
            t in engine.profile.zoc.reach.not_into_terrain for t in tags)
    return bool(known)


def zoc_effects(engine: Engine, unit_class: str) -> ZocEffects:
    """The profile's ZOC effects for a unit class (``zoc.by_class`` over the defaults)."""
    zoc = engine.profile.zoc
    own = zoc.by_class.get(unit_class)
    if own is None:
        return ZocEffects(zoc.enter, zoc.leave, zoc.ezoc_to_ezoc)
    return ZocEffects(own.enter or zoc.enter, own.leave or zoc.leave,
                      own.ezoc_to_ezoc or zoc.ezoc_to_ezoc)


def ignores_ezoc(engine: Engine, unit: Unit) -> bool:
    """Whether EZOC never affect ``unit`` (``zoc.ignored_by``)."""
    return any_holds(engine, engine.profile.zoc.ignored_by, unit) is not None


def negates(engine: Engine, unit: Unit, purpose: str) -> bool:
    """Whether ``unit`` negates the EZOC in its hex for ``purpose`` (``"supply"``...)."""
    negation = engine.profile.zoc.negated_by_friendly
    return purpose in negation.purposes and any_holds(engine, negation.not_by, unit) is None


def exerted_cite(engine: Engine, exerting: tuple[Unit, ...]) -> str | None:
    """The rule of ``zoc.exerted_under`` that covers every unit putting a hex in an EZOC
    (003 §15.1: delay units; §7.6: a ZOC projected out of Caen), or ``None``."""
    gmap = engine.situation.map
    for rule in engine.profile.zoc.exerted_under:
        if exerting and all(
                selects(engine, rule, u) and (not rule.in_terrain or (
                    u.hex is not None and any(gmap.has(u.hex, t) for t in rule.in_terrain)))
                for u in exerting):
            return engine.cite(rule.cite)
    return None
