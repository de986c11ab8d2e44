"""Hexsides and corners of a map, by the ids the map prints.

The validator compares and walks hexsides by key: ``("0303", "0304")`` for
two hexes (sorted, as :meth:`pipeline.model.HexsideEntry.key` writes it) or
``("0121", "SW")`` for one hex and a direction at the map edge. A corner is
the set of the three lattice hexes that meet there, so rivers can be followed
from hexside to hexside.

>>> from pipeline.model import GameFolder
>>> from pathlib import Path
>>> demo = GameFolder(Path(__file__).resolve().parents[2] / "maps" / "demo").map_data()
>>> side_name(("0303", "0304")), sides_of(demo, "0101")[0]
('0303/0304', ('0101', 'N'))
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator

from pipeline.hexgrid import Hex, HexGrid
from pipeline.model import MapData

__all__ = [
    "Corner",
    "SideKey",
    "corner_ids",
    "corners_of_side",
    "feature_sides",
    "hex_regions",
    "named_places",
    "neighbour_ids",
    "road_may_end",
    "side_hexes",
    "side_name",
    "sides_of",
    "touching_sides",
    "transpositions",
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
    # Boards placed on one lattice are one grid: hexsides and corners cross the seam.
    joined = the_map.joined_grid()
    if joined is not None:
        return joined
    grid = the_map.grid_for(hex_id)
    if grid is None:  # callers only pass ids of the map
        raise KeyError(hex_id)
    return grid


# Unplaced boards each have their own lattice: their corners are kept apart by
# shifting board i this far along q (no board is anywhere near so wide).
_BOARD_APART = 1_000_000


def _board_shift(the_map: MapData, grid: HexGrid) -> int:
    if len(the_map.boards) < 2 or the_map.joined_grid() is not None:
        return 0
    return _BOARD_APART * list(the_map.grids().values()).index(grid)


def corner_ids(the_map: MapData, corner: Corner) -> list[str]:
    """The ids of a corner's hexes that are on the map (fewer than three at its edge)."""
    joined = the_map.joined_grid()
    grids = list(the_map.grids().values())
    out = []
    for h in corner:
        board = 0 if joined is not None else round(h.q / _BOARD_APART)
        grid = joined if joined is not None else grids[board]
        local = Hex(h.q - board * _BOARD_APART, h.r)
        if grid.contains(local):
            out.append(grid.id(local))
    return out


def neighbour_ids(the_map: MapData, hex_id: str) -> list[str]:
    """The on-map neighbours of a hex, in the grid's direction order."""
    grid = _grid(the_map, hex_id)
    return grid.ids(grid.neighbours(grid.hex(hex_id)))


def hex_regions(the_map: MapData, starts: Iterable[str], joins: Callable[[str, str], bool]
                ) -> list[list[str]]:
    """Groups of neighbouring hexes, one grown from each of ``starts`` not yet in a group
    (in their order): a neighbour ``n`` of a group's hex joins the group grown from
    ``start`` when ``joins(start, n)``. Each group starts with its start, the rest in the
    order reached.

    >>> from pipeline.model import GameFolder
    >>> from pathlib import Path
    >>> demo = GameFolder(Path(__file__).resolve().parents[2] / "maps" / "demo").map_data()
    >>> lake = {"0101", "0102", "0201"}
    >>> [sorted(r) for r in hex_regions(demo, ["0102", "0201", "0303"], lambda s, n: n in lake)]
    [['0101', '0102', '0201'], ['0303']]
    """
    group: dict[str, int] = {}
    out: list[list[str]] = []
    for start in starts:
        if start in group:
            continue
        group[start] = len(out)
        region, todo = [], [start]
        while todo:
            h = todo.pop()
            region.append(h)
            for n in neighbour_ids(the_map, h):
                if n not in group and joins(start, n):
                    group[n] = len(out)
                    todo.append(n)
        out.append(region)
    return out


def named_places(the_map: MapData) -> set[str]:
    """The hexes a place is named in (a location, or an entry's name or hex features):
    where a road may end."""
    named = {h for place in the_map.locations for h in place.hexes}
    return named | {h for h, e in the_map.hexes.items() if e.name or e.features}


def road_may_end(the_map: MapData, hex_id: str, places: set[str], towns: frozenset[str]
                 ) -> bool:
    """Whether a road may end in ``hex_id``: a place is named there (``places``, from
    :func:`named_places`), a town's terrain (``towns``) is typed there, or the hex is on
    the map's edge (the road leaves the map).

    >>> from pipeline.model import GameFolder
    >>> from pathlib import Path
    >>> demo = GameFolder(Path(__file__).resolve().parents[2] / "maps" / "demo").map_data()
    >>> road_may_end(demo, "0101", set(), frozenset()), road_may_end(demo, "1010", set(),
    ...                                                              frozenset())
    (True, False)
    """
    return (hex_id in places or bool(set(the_map.terrain_of(hex_id)) & towns)
            or len(neighbour_ids(the_map, hex_id)) < 6)


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
    q = _board_shift(the_map, grid)
    a, b = Hex(a.q + q, a.r), Hex(b.q + q, b.r)
    c, d = (Hex(h.q + q, h.r) for h in common)
    return frozenset((a, b, c)), frozenset((a, b, d))


def touching_sides(the_map: MapData, key: SideKey, kind: str) -> list[SideKey]:
    """The hexsides a feature on ``key`` continues onto.

    An ``across`` feature (a road, from hex centre to hex centre) goes on through either
    hex, onto any other side of it; an ``along`` feature (a river, on the hexside line)
    goes on at either corner, onto the four sides meeting ``key`` there.
    """
    hexes = side_hexes(the_map, key)
    if kind == "across" or len(hexes) < 2:
        return [k for h in hexes for k in sides_of(the_map, h) if k != key]
    out = []
    for corner in corners_of_side(the_map, key):
        ids = corner_ids(the_map, corner)
        third = [i for i in ids if i not in hexes]
        out += [tuple(sorted((h, c))) for h in hexes for c in third]
    return out


def feature_sides(the_map: MapData) -> dict[SideKey, frozenset[str]]:
    """Every hexside that carries features, with their union (a key given twice merges)."""
    merged: dict[SideKey, set[str]] = defaultdict(set)
    for side in the_map.hexsides:
        merged[side.key()].update(side.features)
    return {key: frozenset(names) for key, names in merged.items()}


def transpositions(hex_id: str) -> Iterator[str]:
    """Ids made by swapping two neighbouring characters, the commonest typing slip.

    >>> list(transpositions("0412"))
    ['4012', '0142', '0421']
    """
    for i in range(len(hex_id) - 1):
        if hex_id[i] != hex_id[i + 1]:
            yield hex_id[:i] + hex_id[i + 1] + hex_id[i] + hex_id[i + 2:]
