"""Consistency lint of one map: no scan needed.

Each check reads the map's own vocabulary through :class:`~pipeline.validate.roles.Roles`:

* ``duplicate_hexside``: the same hexside given twice (error when the
  features differ, warning when they repeat);
* ``bridge_without_road_river``: a bridge needs a road and a river on its
  hexside (error; cited from the map's bridge note when it cites a rulebook,
  e.g. 000_3d79f68a6e3e33eb.txt §8.2.2 "a bridge wherever a road crosses a river");
* ``road_dead_end``: a road that stops inside the map, away from any town,
  named place or map edge (warning);
* ``river_dead_end``: a river that ends at a corner touching neither sea, another
  river nor the map edge (warning);
* ``sea_without_coast``: sea next to land that is not coast, on a hexside with
  no coast feature (warning);
* ``town_terrain``: a hex a town location lists (or that bears a town's name)
  whose terrain is not town terrain (warning); a named hex in no location (check);
* ``lone_rare_terrain``: a single hex of a rare main terrain (check);
* ``missing_hex``: hexes left out of a map that lists most of its hexes (check).

Unknown names and off-grid hexes are found before loading, by
:mod:`pipeline.validate.screen`.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from pipeline.model import MapData
from pipeline.validate.findings import Finding, cite_of, sort_findings
from pipeline.validate.roles import Roles, roles_for
from pipeline.validate.sides import (
    Corner,
    SideKey,
    corner_ids,
    corners_of_side,
    feature_sides,
    neighbour_ids,
    side_hexes,
    side_name,
    sides_of,
)

__all__ = ["lint_map"]

def _duplicates(the_map: MapData) -> list[Finding]:
    seen: dict[SideKey, frozenset[str]] = {}
    out = []
    for side in the_map.hexsides:
        key, features = side.key(), frozenset(side.features)
        if key in seen:
            name = side_name(key)
            differ = seen[key] != features
            out.append(Finding(
                "error" if differ else "warning", "duplicate_hexside", name,
                f"{name} is given twice ({', '.join(sorted(seen[key]))} and"
                f" {', '.join(sorted(features))}); keep one entry",
                hexes=side_hexes(the_map, key)))
        seen.setdefault(key, features)
    return out


def _bridges(the_map: MapData, roles: Roles, sides: dict[SideKey, frozenset[str]]
             ) -> list[Finding]:
    out = []
    for key, features in sorted(sides.items()):
        for bridge in sorted(features & roles.bridges):
            lacking = [w for w, r in (("road", roles.roads), ("river", roles.rivers))
                       if not features & r]
            if lacking:
                name = side_name(key)
                out.append(Finding(
                    "error", "bridge_without_road_river", name,
                    f"{name}: {bridge} without a {' and a '.join(lacking)} on the hexside",
                    cite=cite_of(the_map.hexside_features[bridge].note),
                    hexes=side_hexes(the_map, key)))
    return out


def _places(the_map: MapData) -> set[str]:
    named = {h for place in the_map.locations for h in place.hexes}
    return named | {h for h, e in the_map.hexes.items() if e.name or e.features}


def _road_ends(the_map: MapData, roles: Roles, sides: dict[SideKey, frozenset[str]]
               ) -> list[Finding]:
    touching: dict[str, list[SideKey]] = defaultdict(list)
    for key, features in sides.items():
        if features & (roles.roads | roles.bridges):
            for h in side_hexes(the_map, key):
                touching[h].append(key)
    fine = _places(the_map)
    out = []
    for hex_id, keys in sorted(touching.items()):
        if len(keys) != 1 or hex_id in fine or set(the_map.terrain_of(hex_id)) & roles.towns:
            continue
        if len(neighbour_ids(the_map, hex_id)) < 6:  # on the map edge: the road leaves
            continue
        out.append(Finding("warning", "road_dead_end", hex_id,
                           f"{hex_id}: the road ({side_name(keys[0])}) stops here, away from a"
                           " town or the map edge; a road hexside may be missing",
                           hexes=(hex_id,)))
    return out


def _river_ends(the_map: MapData, roles: Roles, sides: dict[SideKey, frozenset[str]]
                ) -> list[Finding]:
    ends: dict[Corner, list[SideKey]] = defaultdict(list)
    for key, features in sides.items():
        if features & roles.rivers:
            for corner in corners_of_side(the_map, key):
                ends[corner].append(key)
    out = []
    for corner, keys in ends.items():
        if len(keys) != 1:
            continue
        ids = corner_ids(the_map, corner)
        if len(ids) < 3 or any(set(the_map.terrain_of(h)) & roles.sea for h in ids):
            continue  # at the map edge or the sea: the river flows on or out
        name = side_name(keys[0])
        out.append(Finding("warning", "river_dead_end", name,
                           f"{name}: the river ends at the corner of {', '.join(sorted(ids))},"
                           " in the middle of land; a river hexside may be missing",
                           hexes=side_hexes(the_map, keys[0])))
    return sorted(out, key=lambda f: f.where)


def _coasts(the_map: MapData, roles: Roles, sides: dict[SideKey, frozenset[str]]
            ) -> list[Finding]:
    if not roles.sea:
        return []
    out = []
    for hex_id in the_map.hex_ids():
        here = set(the_map.terrain_of(hex_id))
        if not here & roles.sea:
            continue
        for key in sides_of(the_map, hex_id):
            other = next((h for h in key if h != hex_id and the_map.has_hex(h)), None)
            if other is None:  # the map edge: open sea beyond is no finding
                continue
            there = set(the_map.terrain_of(other))
            if there & (roles.sea | roles.coast) or sides.get(key, frozenset()) & roles.coast_sides:
                continue
            name = side_name(key)
            out.append(Finding("warning", "sea_without_coast", name,
                               f"{name}: sea ({hex_id}) next to {', '.join(sorted(there))}"
                               f" ({other}) with no coast: is {hex_id} sea, or is a"
                               " beach or coast missing?", hexes=(hex_id, other)))
    return out


def _towns(the_map: MapData, roles: Roles) -> list[Finding]:
    towns = [p for p in the_map.locations if p.kind in roles.town_kinds]
    town_hexes = {h: p for p in towns for h in p.hexes}
    by_name = {p.name: p for p in towns}
    located = {h for p in the_map.locations for h in p.hexes}
    out = []
    for hex_id in the_map.hex_ids():
        entry = the_map.hexes.get(hex_id)
        name = entry.name if entry is not None else None
        place = town_hexes.get(hex_id) or (by_name.get(name) if name else None)
        terrain = the_map.terrain_of(hex_id)
        if place is not None and not set(terrain) & roles.towns:
            out.append(Finding("warning", "town_terrain", hex_id,
                               f"{hex_id}: {place.name} ({place.kind}) on {', '.join(terrain)};"
                               f" town terrain is {', '.join(sorted(roles.towns)) or 'unset'}",
                               cite=place.cite, hexes=(hex_id,)))
        elif place is None and name and hex_id not in located \
                and not set(terrain) & roles.towns:
            out.append(Finding("check", "town_terrain", hex_id,
                               f"{hex_id}: named '{name}' but on {', '.join(terrain)} and in no"
                               " location; if it is a town, its terrain is wrong",
                               hexes=(hex_id,)))
    return out


def _lone_rare(the_map: MapData, roles: Roles) -> list[Finding]:
    ids = list(the_map.hex_ids())
    main = {h: the_map.terrain_of(h)[0] for h in ids}
    count = Counter(main.values())
    rare = {t for t, n in count.items()
            if n <= roles.rare_share * len(ids) and t not in roles.towns}
    out = []
    for hex_id in ids:
        t = main[hex_id]
        if t in rare and all(main[n] != t for n in neighbour_ids(the_map, hex_id)):
            out.append(Finding("check", "lone_rare_terrain", hex_id,
                               f"{hex_id}: a lone hex of {t} (rare on this map: {count[t]} of"
                               f" {len(ids)} hexes); is the terrain right?", hexes=(hex_id,)))
    return out


def _missing(the_map: MapData) -> list[Finding]:
    ids = list(the_map.hex_ids())
    missing = [h for h in ids if h not in the_map.hexes]
    # Only a map that lists (nearly) every hex means anything by leaving one out.
    if not missing or len(missing) > len(ids) // 10:
        return []
    return [Finding("check", "missing_hex", h,
                    f"{h}: not listed, so it takes the default terrain"
                    f" '{the_map.default_terrain}' (the map lists {len(the_map.hexes)} of"
                    f" {len(ids)} hexes)", hexes=(h,)) for h in missing]


def lint_map(the_map: MapData, roles: Roles | None = None) -> list[Finding]:
    """Every consistency finding of one map, in report order.

    Parameters
    ----------
    the_map
        A loaded map (see :func:`pipeline.validate.screen.screen_document` for
        one with unknown names).
    roles
        What the map's names mean; guessed from its vocabulary when omitted.

    Examples
    --------
    >>> from pipeline.model import load_map
    >>> from pathlib import Path
    >>> demo = load_map(Path(__file__).resolve().parents[2] / "maps" / "demo" / "map.json")
    >>> sorted({f.kind for f in lint_map(demo)})[:2]
    ['lone_rare_terrain', 'river_dead_end']
    """
    roles = roles or roles_for(the_map)
    sides = feature_sides(the_map)
    found = [
        *_duplicates(the_map), *_bridges(the_map, roles, sides),
        *_road_ends(the_map, roles, sides), *_river_ends(the_map, roles, sides),
        *_coasts(the_map, roles, sides), *_towns(the_map, roles),
        *_lone_rare(the_map, roles), *_missing(the_map),
    ]
    return sort_findings(found)
