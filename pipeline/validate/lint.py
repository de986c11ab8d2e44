"""Consistency lint of one map: no scan needed.

Each check reads the map's own vocabulary through :class:`~pipeline.validate.roles.Roles`.
A finding is a warning or an error only where a rule or the map's own declarations
make the map wrong; what is merely unusual on a printed map (a river rising inland, a
road that stops in a field, sea against a cliff) is a ``check``:

* ``duplicate_hexside``: the same hexside given twice (error when the
  features differ, warning when they repeat);
* ``bridge_without_road_river``: a bridge needs a road and a river on its
  hexside (error; cited from the map's bridge note when it cites a rulebook,
  e.g. 000_3d79f68a6e3e33eb.txt §8.2.2 "a bridge wherever a road crosses a river");
* ``road_river_without_bridge``: the other way, a road crossing a river with no
  bridge on a map that types its bridges on hexsides (an error when the bridge
  note cites a rule, else a warning), or declares a bridge and types none (its
  only bridge left out); a map whose bridge note cites the rule that bridges every
  crossing and types none leaves bridges to its rule (Omaha's
  000_3d79f68a6e3e33eb.txt §8.2.2);
* ``road_gap``: two road ends facing each other across one hexside, or a road
  of a single hexside: a road hexside left out or typed on its own (warning);
  any other ``road_dead_end`` inside the map is a check;
* ``river_break``: two river ends one or two hexsides apart (a river hexside left
  out, or typed on the next side) (warning); any other ``river_dead_end`` (a
  river rising inland) is a check, one finding per river end;
* ``sea_without_coast``: sea next to land that is not coast, on a hexside with
  no coast feature: a warning a hexside on a map whose vocabulary has a coast
  hexside feature (it declares its coasts), else one check for each sea's shore;
* ``town_terrain``: a hex a town location lists (or that bears a town's name)
  whose terrain is not town terrain (warning); a named hex in no location (check);
* ``lone_rare_terrain``: a single hex of a rare main terrain (check);
* ``missing_hex``: a hex left out of a map that lists nine in ten of its hexes or
  more (warning: such a map declares its hexes by listing them).

A map switches a kind off with its reason, in its own data (``"lint_off":
{"sea_without_coast": "the coast is printed as cliffs"}``); the kinds are
:data:`pipeline.model.mapdata.LINT_KINDS`. Unknown names, ids off the grid and
hexsides that are none are found before loading, by :mod:`pipeline.validate.screen`.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from pipeline.model import MapData
from pipeline.model.mapdata import LINT_KINDS
from pipeline.validate.findings import Finding, Severity, cite_of, sort_findings
from pipeline.validate.roles import Roles, roles_for
from pipeline.validate.sides import (
    Corner,
    SideKey,
    corner_ids,
    corners_of_side,
    feature_sides,
    hex_regions,
    named_places,
    neighbour_ids,
    road_may_end,
    side_hexes,
    side_name,
    sides_of,
)

__all__ = ["LINT_KINDS", "lint_map", "switched_off"]


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


def _unbridged(the_map: MapData, roles: Roles, sides: dict[SideKey, frozenset[str]]
               ) -> list[Finding]:
    # A map that types bridges on its hexsides declares them one by one: a road crossing
    # a river without one is then a bridge left out (an error where the bridge's note
    # cites a rule). A map that types none leaves them to its rule: Omaha's "River
    # hexsides contain a bridge wherever a road crosses a river"
    # (000_3d79f68a6e3e33eb.txt §8.2.2) bridges every such crossing by itself.
    # A map that declares a bridge and types none is the same map with its bridges left
    # out, unless the bridge's note cites the rule that bridges every crossing (Omaha).
    typed = sorted({b for features in sides.values() for b in features & roles.bridges})
    declared = sorted(b for b in the_map.hexside_features if b in roles.bridges)
    if not typed and any(cite_of(the_map.hexside_features[b].note) for b in declared):
        return []
    known = typed or declared
    if not known:
        return []
    cite = next((c for b in known if (c := cite_of(the_map.hexside_features[b].note))), "")
    where = (f"where this map types a {known[0]} on every other crossing" if typed else
             f"where this map declares {known[0]} hexsides and types none; if a rule bridges"
             f" every crossing, cite it in the {known[0]}'s note")
    out = []
    for key, features in sorted(sides.items()):
        roads, rivers = sorted(features & roles.roads), sorted(features & roles.rivers)
        if roads and rivers and not features & roles.bridges:
            name = side_name(key)
            out.append(Finding(
                "error" if cite else "warning", "road_river_without_bridge", name,
                f"{name}: {roads[0]} crosses the {rivers[0]} with no {known[0]}, {where}:"
                " is it missing?", cite=cite, hexes=side_hexes(the_map, key)))
    return out


def _road_ends(the_map: MapData, roles: Roles, sides: dict[SideKey, frozenset[str]]
               ) -> list[Finding]:
    # Each kind of road is followed on its own (a railroad and a road are two lines), and
    # a trail that ends where it meets a road joins it: any other road through the hex
    # makes a junction, not an end.
    any_road: dict[str, int] = defaultdict(int)
    for key, features in sides.items():
        if features & roles.roads:
            for h in side_hexes(the_map, key):
                any_road[h] += 1
    out = []
    for road in sorted(roles.roads & set(the_map.hexside_features)):
        out += _ends_of(the_map, roles, {k: v for k, v in sides.items() if road in v}, road,
                        any_road)
    return out


def _ends_of(the_map: MapData, roles: Roles, sides: dict[SideKey, frozenset[str]], road: str,
             any_road: dict[str, int]) -> list[Finding]:
    touching: dict[str, list[SideKey]] = defaultdict(list)
    for key in sides:
        for h in side_hexes(the_map, key):
            touching[h].append(key)
    places = named_places(the_map)
    junctions = {h for h, n in any_road.items() if n > len(touching.get(h, ()))}
    ends = {}
    for hex_id, keys in sorted(touching.items()):
        if len(keys) != 1 or hex_id in junctions or road_may_end(the_map, hex_id, places,
                                                                  roles.towns):
            continue
        ends[hex_id] = keys[0]
    out = []
    for hex_id, key in ends.items():
        near = [n for n in neighbour_ids(the_map, hex_id) if n in ends and n != hex_id]
        stub = next((n for n in near if ends[n] == key), None)
        facing = next((n for n in near if ends[n] != key), None)
        if stub is not None:
            if hex_id < stub:
                out.append(Finding("warning", "road_gap", side_name(key),
                                   f"{side_name(key)}: a {road} of one hexside, ending at both"
                                   " hexes: typed on its own, or the rest left out?",
                                   hexes=(hex_id, stub)))
        elif facing is not None:
            if hex_id < facing:
                between = side_name(tuple(sorted((hex_id, facing))))
                out.append(Finding("warning", "road_gap", between,
                                   f"{between}: the {road} ends at {hex_id} and at {facing},"
                                   f" facing each other: is the {road} hexside between them"
                                   " missing?", hexes=(hex_id, facing)))
        else:
            out.append(Finding("check", "road_dead_end", hex_id,
                               f"{hex_id}: the {road} ({side_name(key)}) stops here, away from"
                               " a town or the map edge", hexes=(hex_id,)))
    return out


def _corner_steps(the_map: MapData, corner: Corner) -> list[tuple[Corner, SideKey]]:
    """The corners one hexside away from an inland corner, with the hexside to each."""
    ids = corner_ids(the_map, corner)
    out = []
    for pair in ((ids[0], ids[1]), (ids[0], ids[2]), (ids[1], ids[2])):
        key = tuple(sorted(pair))
        for far in corners_of_side(the_map, key):
            if far != corner:
                out.append((far, key))
    return out


def _inland(the_map: MapData, roles: Roles, corner: Corner) -> bool:
    ids = corner_ids(the_map, corner)
    return len(ids) == 3 and not any(set(the_map.terrain_of(h)) & roles.sea for h in ids)


def _river_ends(the_map: MapData, roles: Roles, sides: dict[SideKey, frozenset[str]]
                ) -> list[Finding]:
    at: dict[Corner, list[SideKey]] = defaultdict(list)
    for key, features in sides.items():
        if features & roles.rivers:
            for corner in corners_of_side(the_map, key):
                at[corner].append(key)
    # At the map edge or the sea the river flows on or out: only inland ends are ends.
    ends = {c: keys[0] for c, keys in at.items() if len(keys) == 1 and _inland(the_map, roles, c)}
    out: dict[str, Finding] = {}
    paired: set[Corner] = set()
    for corner, key in ends.items():
        # Walk off the end, not back along its own river: a short river's two ends are
        # joined by the river itself, a break's by land.
        near: dict[Corner, int] = {}
        for one, via in _corner_steps(the_map, corner):
            if via == key:
                continue
            if one in ends:
                near.setdefault(one, 1)
            elif _inland(the_map, roles, one):
                for two, _ in _corner_steps(the_map, one):
                    if two in ends and two != corner:
                        near.setdefault(two, 2)
        free = [c for c in near if c not in paired]
        other = min(free, key=lambda c: (near[c], sorted(corner_ids(the_map, c))), default=None)
        if other is not None and corner not in paired:
            paired |= {corner, other}
            hexes = tuple(dict.fromkeys(corner_ids(the_map, corner)
                                        + corner_ids(the_map, other)))
            a, b = side_name(key), side_name(ends[other])
            out[f"{a} {b}"] = Finding(
                "warning", "river_break", a,
                f"{a}: the river ends here and again at {b}, {near[other]} hexside"
                f"{'s' if near[other] > 1 else ''} away: is a river hexside left out or"
                " typed on the wrong side?", hexes=tuple(sorted(hexes)))
    for corner, key in ends.items():
        if corner in paired:
            continue
        name = side_name(key)
        ids = ", ".join(sorted(corner_ids(the_map, corner)))
        if name in out:  # both ends of one river hexside: one finding
            out[name] = Finding("check", "river_dead_end", name,
                                f"{name}: a river of one hexside, ending inland at both ends"
                                f" ({', '.join(side_hexes(the_map, key))})",
                                hexes=side_hexes(the_map, key))
            continue
        out[name] = Finding("check", "river_dead_end", name,
                            f"{name}: the river rises (or ends) inland, at the corner of {ids}",
                            hexes=side_hexes(the_map, key))
    return sorted(out.values(), key=lambda f: f.where)


def _coasts(the_map: MapData, roles: Roles, sides: dict[SideKey, frozenset[str]]
            ) -> list[Finding]:
    if not roles.sea:
        return []
    # A map whose vocabulary has a coast hexside feature declares its coasts: sea against
    # land without one is a slip there. Elsewhere a cliff or a harbour is no finding to fix.
    declared = bool(roles.coast_sides & set(the_map.hexside_features))
    bare: list[tuple[str, str, SideKey]] = []  # (sea hex, land hex, hexside)
    for hex_id in the_map.hex_ids():
        if not set(the_map.terrain_of(hex_id)) & roles.sea:
            continue
        for key in sides_of(the_map, hex_id):
            other = next((h for h in key if h != hex_id and the_map.has_hex(h)), None)
            if other is None:  # the map edge: open sea beyond is no finding
                continue
            there = set(the_map.terrain_of(other))
            if there & (roles.sea | roles.coast) or sides.get(key, frozenset()) & roles.coast_sides:
                continue
            bare.append((hex_id, other, key))
    if declared:
        return [_bare_coast(the_map, *found, "warning") for found in bare]
    # Undeclared, a sea's whole shore is one look: a sea printed against land with no coast
    # feature is how many maps draw coasts (the foreign icons map: 53 such hexsides).
    out = []
    for shore in _shores(the_map, roles, bare):
        if len(shore) == 1:
            out.append(_bare_coast(the_map, *shore[0], "check"))
            continue
        names = sorted(side_name(key) for _, _, key in shore)
        land = sorted({t for _, other, _ in shore for t in the_map.terrain_of(other)})
        touched = tuple(sorted({h for sea, other, _ in shore for h in (sea, other)}))
        out.append(Finding(
            "check", "sea_without_coast", names[0],
            f"{names[0]}: sea meets {', '.join(land)} along {len(shore)} hexsides with no"
            f" coast ({names[0]} ... {names[-1]}): on a map that declares no coast hexside,"
            " is a beach or coast missing, or is the sea's edge its coast? (if so, switch"
            " sea_without_coast off with that reason)", hexes=touched))
    return out


def _bare_coast(the_map: MapData, sea: str, other: str, key: SideKey, severity: Severity
                ) -> Finding:
    name = side_name(key)
    there = ", ".join(sorted(the_map.terrain_of(other)))
    return Finding(severity, "sea_without_coast", name,
                   f"{name}: sea ({sea}) next to {there} ({other}) with no coast: is {sea}"
                   " sea, or is a beach or coast missing?", hexes=(sea, other))


def _shores(the_map: MapData, roles: Roles, bare: list[tuple[str, str, SideKey]]
            ) -> list[list[tuple[str, str, SideKey]]]:
    """The bare coast hexsides grouped by the body of water their sea hex is in (sea hexes
    joined through sea hexes), in the order first met."""
    bodies = hex_regions(the_map, dict.fromkeys(sea for sea, _, _ in bare),
                         lambda _, n: bool(set(the_map.terrain_of(n)) & roles.sea))
    water = {h: body for body, hexes in enumerate(bodies) for h in hexes}
    shores: dict[int, list[tuple[str, str, SideKey]]] = {}
    for found in bare:
        shores.setdefault(water[found[0]], []).append(found)
    return list(shores.values())


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
    return [Finding("warning", "missing_hex", h,
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
    >>> from pipeline.model import GameFolder
    >>> from pathlib import Path
    >>> demo = GameFolder(Path(__file__).resolve().parents[2] / "maps" / "demo").map_data()
    >>> sorted({f.kind for f in lint_map(demo)})[:2]
    ['lone_rare_terrain', 'river_dead_end']
    """
    roles = roles or roles_for(the_map)
    sides = feature_sides(the_map)
    found = [
        *_duplicates(the_map), *_bridges(the_map, roles, sides),
        *_unbridged(the_map, roles, sides),
        *_road_ends(the_map, roles, sides), *_river_ends(the_map, roles, sides),
        *_coasts(the_map, roles, sides), *_towns(the_map, roles),
        *_lone_rare(the_map, roles), *_missing(the_map),
    ]
    return sort_findings(f for f in found if f.kind not in the_map.lint_off)


def switched_off(the_map: MapData) -> dict[str, str]:
    """The lint kinds the map switches off, with its reasons (``lint_off``).

    >>> from pipeline.model import GameFolder
    >>> from pathlib import Path
    >>> switched_off(GameFolder(Path(__file__).resolve().parents[2] / "maps" / "demo").map_data())
    {}
    """
    return dict(sorted(the_map.lint_off.items()))
