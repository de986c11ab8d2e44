"""Facts from the rulebook, checked against a map (hand-entered or digitized).

Each claim kind of :mod:`pipeline.model.facts` has one check; every finding
carries the fact's id and citation, so a reader goes straight from a wrong hex
to the rulebook section that says what it should be. A fact about features the
map has not entered at all (an unsurveyed map with no river hexside yet) cannot
be tested: it is a ``check`` of kind ``fact_unverified``, not an error.

>>> from pipeline.model import GameFolder
>>> from pathlib import Path
>>> demo = GameFolder(Path(__file__).resolve().parents[2] / "maps" / "demo")
>>> check_facts(demo.facts(), demo.map_data())
[]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from pipeline.model import Fact, Facts, MapData
from pipeline.validate.findings import Finding, Severity, sort_findings
from pipeline.validate.sides import (
    Corner,
    SideKey,
    corners_of_side,
    feature_sides,
    side_name,
    sides_of,
)

__all__ = ["check_fact", "check_facts"]


def _finding(fact: Fact, where: str, message: str, hexes: tuple[str, ...] = (),
             severity: Severity = "error", kind: str = "") -> Finding:
    return Finding(severity, kind or f"fact_{fact.claim}", where,
                   f"{where or fact.id}: {message} (fact '{fact.id}')", cite=fact.cite,
                   hexes=hexes, source="facts", fact=fact.id)


def _on_map(fact: Fact, the_map: MapData) -> list[Finding]:
    return [_finding(fact, h, f"the fact names a hex not on this map:"
                     f" {the_map.why_not_on_map(h)}", kind="fact_off_map")
            for h in fact.hex_ids() if not the_map.has_hex(h)]


def _hex_terrain(fact: Fact, the_map: MapData) -> list[Finding]:
    terrain = str(fact.terrain)
    if terrain not in the_map.terrain_types:
        return [_finding(fact, "", f"the map has no terrain '{terrain}' in its vocabulary")]
    return [_finding(fact, h, f"should be {terrain}, the map has"
                     f" {', '.join(the_map.terrain_of(h))}", (h,))
            for h in fact.hexes if terrain not in the_map.terrain_of(h)]


def _named(the_map: MapData, hex_id: str, name: str) -> bool:
    entry = the_map.hexes.get(hex_id)
    if entry is not None and entry.name == name:
        return True
    # A location may add a qualifier ("Cherbourg Defense Zone (example hex)").
    return any(p.name.startswith(name) and hex_id in p.hexes for p in the_map.locations)


def _hex_name(fact: Fact, the_map: MapData) -> list[Finding]:
    name = str(fact.name)
    return [_finding(fact, h, f"should be (part of) {name}; the map names it"
                     f" {_name_of(the_map, h)}", (h,))
            for h in fact.hexes if not _named(the_map, h, name)]


def _name_of(the_map: MapData, hex_id: str) -> str:
    entry = the_map.hexes.get(hex_id)
    names = [entry.name] if entry is not None and entry.name else []
    names += [p.name for p in the_map.locations if hex_id in p.hexes]
    return " / ".join(repr(n) for n in names) or "nothing"


def _carrying(the_map: MapData, feature: str) -> dict[SideKey, frozenset[str]]:
    return {k: v for k, v in feature_sides(the_map).items() if feature in v}


def _unverified(fact: Fact, the_map: MapData, feature: str) -> list[Finding]:
    if feature not in the_map.hexside_features:
        return [_finding(fact, "", f"the map has no hexside feature '{feature}' in its"
                         " vocabulary")]
    return [_finding(fact, "", f"cannot be tested: the map enters no '{feature}' hexside"
                     " yet (unsurveyed?)", tuple(h for h in fact.hexes if the_map.has_hex(h)),
                     severity="check", kind="fact_unverified")]


def _hexside_feature(fact: Fact, the_map: MapData) -> list[Finding]:
    feature = str(fact.feature)
    carrying = _carrying(the_map, feature)
    if not carrying:
        return _unverified(fact, the_map, feature)
    out = []
    for a, b in fact.hexsides:
        key = tuple(sorted((a, b)))
        if key not in carrying:
            out.append(_finding(fact, side_name(key), f"should carry {feature}", (a, b)))
    for h in fact.hexes:
        if not any(k in carrying for k in sides_of(the_map, h)):
            out.append(_finding(fact, h, f"should have a {feature} hexside", (h,)))
    return out


def _components(the_map: MapData, sides: list[SideKey]) -> dict[SideKey, int]:
    """Connected groups of hexsides (joined where they share a corner)."""
    at: dict[Corner, list[SideKey]] = defaultdict(list)
    for key in sides:
        for corner in corners_of_side(the_map, key):
            at[corner].append(key)
    group: dict[SideKey, int] = {}
    for start in sides:
        if start in group:
            continue
        group[start] = len(group)
        label, stack = group[start], [start]
        while stack:
            for corner in corners_of_side(the_map, stack.pop()):
                for other in at[corner]:
                    if other not in group:
                        group[other] = label
                        stack.append(other)
    return group


def _river_course(fact: Fact, the_map: MapData) -> list[Finding]:
    feature = str(fact.feature)
    carrying = _carrying(the_map, feature)
    if not carrying:
        return _unverified(fact, the_map, feature)
    group = _components(the_map, sorted(carrying))
    out: list[Finding] = []
    lines: set[int] = set()
    for h in fact.hexes:
        touching = [k for k in sides_of(the_map, h) if k in carrying]
        if not touching:
            out.append(_finding(fact, h, f"the {feature} should touch this hex", (h,)))
        lines.update(group[k] for k in touching)
    if len(lines) > 1:
        ends = f"{fact.hexes[0]} to {fact.hexes[-1]}"
        out.append(_finding(fact, fact.hexes[0], f"the {feature} from {ends} is broken into"
                            f" {len(lines)} pieces", tuple(fact.hexes)))
    return out


def _edge_of(the_map: MapData, hex_id: str) -> set[str]:
    grid = the_map.grid_for(hex_id)
    assert grid is not None  # _on_map has reported hexes off the map
    col, row = grid.offset(grid.hex(hex_id))
    on = {"north": row == 0, "south": row == grid.rows - 1,
          "west": col == 0, "east": col == grid.cols - 1}
    return {edge for edge, yes in on.items() if yes}


def _map_edge(fact: Fact, the_map: MapData) -> list[Finding]:
    edge = str(fact.edge)
    out = []
    meaning = the_map.edges.get(edge)  # type: ignore[call-overload]
    if meaning is None and fact.role is not None:
        out.append(_finding(fact, "", f"the map says nothing about its {edge} edge (should be"
                            f" {fact.role})"))
    elif meaning is not None and fact.role is not None:
        if fact.role != meaning.role and fact.role not in meaning.note:
            out.append(_finding(fact, "", f"the {edge} edge should be {fact.role}, the map"
                                f" says {meaning.role}"))
        elif fact.side is not None and meaning.side not in (None, fact.side) \
                and fact.role == meaning.role:
            out.append(_finding(fact, "", f"the {edge} edge is {fact.role} for {fact.side},"
                                f" the map says for {meaning.side}"))
    for h in fact.hexes:
        if the_map.has_hex(h) and edge not in _edge_of(the_map, h):
            out.append(_finding(fact, h, f"should lie on the {edge} map edge", (h,)))
    return out


_CHECKS: dict[str, Callable[[Fact, MapData], list[Finding]]] = {
    "hex_terrain": _hex_terrain,
    "hex_name": _hex_name,
    "hexside_feature": _hexside_feature,
    "river_course": _river_course,
    "map_edge": _map_edge,
}


def check_fact(fact: Fact, the_map: MapData) -> list[Finding]:
    """The findings of one fact against a map (``[]`` when it holds)."""
    off = _on_map(fact, the_map)
    if off:
        return off
    return _CHECKS[fact.claim](fact, the_map)


def check_facts(facts: Facts, the_map: MapData) -> list[Finding]:
    """Every fact of a facts document checked against a map, in report order."""
    return sort_findings(f for fact in facts.facts for f in check_fact(fact, the_map))
