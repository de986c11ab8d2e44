"""Seeded, invented sample maps for the render and digitize test bench.

A sample map has terrain in patches (as real maps do, so a classifier cannot
lean on every hex differing from its neighbours), a river running along
hexsides, roads and a trail from centre to centre, bridges where roads cross
the river, a few coloured bars (ditches) and some hexes with a second terrain.
Every document says it is invented (``"illustrative": true``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from pipeline.hexgrid import Hex, HexGrid, Numbering, Orientation, line
from pipeline.model import MapData, map_from_data

__all__ = ["SAMPLE_FEATURES", "SAMPLE_TERRAIN", "sample_map", "without_features"]

SAMPLE_TERRAIN: dict[str, str] = {
    "clear": "#ebe6c4",
    "woods": "#4f8a3a",
    "rough": "#a88b63",
    "marsh": "#8fb5a8",
    "water": "#6a9fd4",
    "town": "#c0504a",
}
SAMPLE_FEATURES: dict[str, tuple[str, str]] = {
    "river": ("along", "#2456b0"),
    "ditch": ("along", "#9acd32"),
    "road": ("across", "#8c1c13"),
    "trail": ("across", "#b0721c"),
    "bridge": ("across", "#303030"),
}


def sample_map(orientation: Orientation | str = "flat", cols: int = 16, rows: int = 14,
               seed: int = 0, *, terrain: Mapping[str, str] | None = None, towns: int = 0
               ) -> MapData:
    """An invented map with patches of terrain and hexside features.

    Parameters
    ----------
    orientation, cols, rows
        The grid.
    seed
        Seed of every choice.
    terrain
        Terrain names and colours, the default terrain first (default:
        :data:`SAMPLE_TERRAIN`, with villages as a second terrain in some
        clear hexes). Patches are drawn from the others.
    towns
        Hexes of the default terrain given the hex feature ``town``, chosen
        after everything else so the rest of the map does not change.

    Examples
    --------
    >>> m = sample_map("pointy", 6, 5, seed=1)
    >>> m.boards[0].grid.orientation, len(list(m.hex_ids()))
    ('pointy', 30)
    >>> t = sample_map("flat", 8, 6, seed=1, terrain={"open": "#eeeeee", "bog": "#88aa99"},
    ...                towns=2)
    >>> sorted(t.used_terrain()), sum("town" in e.features for e in t.hexes.values())
    (['bog', 'open'], 2)
    """
    orientation = Orientation(orientation)
    stagger = "even-down" if orientation is Orientation.FLAT else "even-right"
    grid = HexGrid(orientation, Numbering(stagger=stagger), cols=cols, rows=rows)
    rng = np.random.default_rng(seed)
    hexes = grid.hexes()
    vocabulary = dict(terrain) if terrain is not None else SAMPLE_TERRAIN
    default = next(iter(vocabulary))
    if terrain is None:
        terrain_of = _patches(grid, hexes, rng)
    else:
        terrain_of = _patches(grid, hexes, rng, list(vocabulary)[1:], default, villages=False)
    river = _river(grid, hexes, rng)
    sides: dict[tuple[Hex, Hex], set[str]] = {s: {"river"} for s in river}
    for name, count in (("road", 2), ("trail", 1)):
        for _ in range(count):
            a, b = (hexes[int(i)] for i in rng.choice(len(hexes), 2, replace=False))
            path = line(a, b)
            for p, q in itertools.pairwise(path):
                key = (min(p, q), max(p, q))
                # One road-like line a hexside: a trail never shares a road's hexside.
                on_map = grid.contains(p) and grid.contains(q)
                if on_map and not sides.get(key, set()) & {"road", "trail"}:
                    sides.setdefault(key, set()).add(name)
    for _ in range(max(2, len(hexes) // 60)):
        h = hexes[int(rng.integers(len(hexes)))]
        n = grid.neighbour(h, int(rng.integers(6)))
        key = (min(h, n), max(h, n))
        if grid.contains(n) and key not in sides:
            sides[key] = {"ditch"}
    entries: dict[str, dict[str, Any]] = {
        grid.id(h): {"terrain": t} for h, t in terrain_of.items() if t != [default]}
    data: dict[str, Any] = {
        "kind": "map", "game": "sample", "title": f"sample map (seed {seed})",
        "illustrative": True, "source": "invented by pipeline.render.sample_map",
        "boards": [{"name": "sample", "grid": {
            "orientation": orientation.value, "numbering": {"stagger": stagger},
            "cols": cols, "rows": rows}}],
        "terrain_types": {n: {"color": c} for n, c in vocabulary.items()},
        "hexside_features": {n: {"kind": k, "color": c} for n, (k, c) in SAMPLE_FEATURES.items()},
        "hexes": entries,
        "hexsides": [{"hexes": sorted((grid.id(a), grid.id(b))), "features": sorted(f)}
                     for (a, b), f in sorted(sides.items())],
    }
    if default != "clear":
        data["default_terrain"] = default
    if towns > 0:
        data["hex_features"] = {"town": {"color": "#1e1e1e"}}
        plain = [h for h in hexes if terrain_of[h] == [default]]
        chosen: list[Hex] = []
        # Towns are never neighbours, so their names do not run into each other.
        for i in np.random.default_rng([seed, 7]).permutation(len(plain)):
            h = plain[int(i)]
            if len(chosen) < towns and not any(grid.adjacent(h, c) for c in chosen):
                chosen.append(h)
        for h in sorted(chosen):
            entry = entries.setdefault(grid.id(h), {"terrain": [default]})
            entry["features"] = ["town"]
    return map_from_data(data, "<sample>")


def without_features(data: dict[str, Any], names: Iterable[str]) -> None:
    """Take the hexside features ``names`` out of a map document (its JSON data), in place:
    out of its vocabulary and off every hexside. A hexside keeps its other features (a
    river a trail ran along stays a river); one left with none goes.

    >>> doc = {"hexside_features": {"river": {}, "trail": {}}, "hexsides": [
    ...     {"hexes": ["0101", "0102"], "features": ["river", "trail"]},
    ...     {"hexes": ["0102", "0103"], "features": ["trail"]}]}
    >>> without_features(doc, ["trail"])
    >>> list(doc["hexside_features"]), doc["hexsides"]
    (['river'], [{'hexes': ['0101', '0102'], 'features': ['river']}])
    """
    gone = set(names)
    for name in gone:
        data["hexside_features"].pop(name, None)
    for entry in data["hexsides"]:
        entry["features"] = [f for f in entry["features"] if f not in gone]
    data["hexsides"] = [e for e in data["hexsides"] if e["features"]]


def _patches(grid: HexGrid, hexes: list[Hex], rng: np.random.Generator,
             names: Sequence[str] = ("woods", "rough", "marsh", "water", "town"),
             default: str = "clear", *, villages: bool = True) -> dict[Hex, list[str]]:
    terrain = {h: [default] for h in hexes}
    for _ in range(max(3, len(hexes) // 12)):
        name = names[int(rng.integers(len(names)))]
        frontier = [hexes[int(rng.integers(len(hexes)))]]
        for _ in range(int(rng.integers(2, 9))):
            h = frontier[int(rng.integers(len(frontier)))]
            terrain[h] = [name]
            frontier.extend(grid.neighbours(h))
    for h in hexes:
        if villages and terrain[h] == ["clear"] and rng.uniform() < 0.06:
            terrain[h] = ["clear", "town"]
    return terrain


def _river(grid: HexGrid, hexes: list[Hex], rng: np.random.Generator
           ) -> set[tuple[Hex, Hex]]:
    """Hexsides between the two sides of a random straight line: one connected river."""
    ux, uy = _units(hexes, grid.orientation)
    angle = rng.uniform(0, math.pi)
    cx, cy = rng.uniform(0.3, 0.7) * ux.max(), rng.uniform(0.3, 0.7) * uy.max()
    side = {h: (x - cx) * math.sin(angle) - (y - cy) * math.cos(angle) > 0
            for h, x, y in zip(hexes, ux, uy, strict=True)}
    out = set()
    for h in hexes:
        for n in grid.neighbours(h):
            if side[h] and not side[n]:
                out.add((min(h, n), max(h, n)))
    return out


def _units(hexes: list[Hex], orientation: Orientation) -> tuple[np.ndarray, np.ndarray]:
    # Centres in units of the centre spacing, so the line's angle is isotropic.
    q = np.array([h.q for h in hexes], float)
    r = np.array([h.r for h in hexes], float)
    if orientation is Orientation.FLAT:
        return q * math.sqrt(3) / 2, r + q / 2
    return q + r / 2, r * math.sqrt(3) / 2
