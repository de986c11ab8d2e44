"""Hexsides and corners of a map, by the ids the map prints.

The validator compares and walks hexsides by key: ``("0303", "0304")`` for
two hexes (sorted, as :meth:`pipeline.model.HexsideEntry.key` writes it) or
``("0121", "SW")`` for one hex and a direction at the map edge. A corner is
the set of the three lattice hexes that meet there, so rivers can be followed
from hexside to hexside.

>>> from pipeline.model import load_map
>>> from pathlib import Path
>>> demo = load_map(Path(__file__).resolve().parents[2] / "maps" / "demo" / "map.json")
>>> side_name(("0303", "0304")), sides_of(demo, "0101")[0]
('0303/0304', ('0101', 'N'))
"""

from __future__ import annotations

from collections import defaultdict

from pipeline.hexgrid import Hex, HexGrid
from pipeline.model import MapData

__all__ = [
    "Corner",
    "SideKey",
    "corners_of_side",
    "feature_sides",
    "neighbour_ids",
    "side_hexes",
    "side_name",
    "sides_of",
]

SideKey = tuple[str, ...]
Corner = frozenset[Hex]


def side_name(key: SideKey) -> str:
    """The printed name of a hexside: ``A/B`` or ``HEX/DIRECTION``."""
    return "/".join(key)


def side_hexes(the_map: MapData, key: SideKey) -> tuple[str, ...]:
    """The hexes of a hexside that are on the map."""
    return tuple(h for h in key if the_map.has_hex(h))


def _grid(the_map: MapData, hex_id: str) -> HexGrid:
    grid = the_map.grid_for(hex_id)
    if grid is None:  # callers only pass ids of the map
        raise KeyError(hex_id)
    return grid


def neighbour_ids(the_map: MapData, hex_id: str) -> list[str]:
    """The on-map neighbours of a hex, in the grid's direction order."""
    grid = _grid(the_map, hex_id)
    return grid.ids(grid.neighbours(grid.hex(hex_id)))


def sides_of(the_map: MapData, hex_id: str) -> list[SideKey]:
    """A hex's six hexside keys, in the grid's direction order."""
    grid = _grid(the_map, hex_id)
    h = grid.hex(hex_id)
    out: list[SideKey] = []
    for d, name in enumerate(grid.direction_names):
        n = grid.neighbour(h, d)
        out.append(tuple(sorted((hex_id, grid.id(n)))) if grid.contains(n) else (hex_id, name))
    return out


def _lattice_pair(the_map: MapData, key: SideKey) -> tuple[HexGrid, Hex, Hex]:
    grid = _grid(the_map, key[0])
    a = grid.hex(key[0])
    second = key[1]
    b = grid.neighbour(a, second) if second in grid.direction_names else grid.hex(second)
    return grid, a, b


def corners_of_side(the_map: MapData, key: SideKey) -> tuple[Corner, Corner]:
    """The two corners a hexside joins, each as the three lattice hexes meeting there."""
    grid, a, b = _lattice_pair(the_map, key)
    around_a = {grid.neighbour(a, d) for d in range(6)}
    common = sorted(n for n in (grid.neighbour(b, d) for d in range(6)) if n in around_a)
    return frozenset((a, b, common[0])), frozenset((a, b, common[1]))


def feature_sides(the_map: MapData) -> dict[SideKey, frozenset[str]]:
    """Every hexside that carries features, with their union (a key given twice merges)."""
    merged: dict[SideKey, set[str]] = defaultdict(set)
    for side in the_map.hexsides:
        merged[side.key()].update(side.features)
    return {key: frozenset(names) for key, names in merged.items()}
