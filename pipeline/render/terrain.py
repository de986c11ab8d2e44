"""Which terrain covers which part of the paper, and each hex's exact area shares.

A map is painted in layers: every hex first gets the ground of its main terrain
(its whole polygon), then *overlays* go on top in order: terrains drawn as one
solid region with rounded edges (which spill a little into their neighbours and
leave the corners of convex outlines to the ground beneath), then the discs
that show a hex's second terrain (a village in clear). The painter draws these
same geometries, so the shares computed here from them (with Shapely, exactly,
over the part of each hex that a frame leaves visible) are what was printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from pipeline.hexgrid import Hex, HexGrid

__all__ = ["TerrainLayers", "rounded_region", "terrain_layers"]

_QUAD_SEGS = 12  # segments a quarter circle of a rounded outline is drawn with
_DISC_SEGS = 64  # ... and of a disc: 256 sides, within 0.01% of the circle Pillow draws


@dataclass(frozen=True)
class TerrainLayers:
    """The terrain as painted, and what each hex shows.

    Attributes
    ----------
    ground
        Terrain of each hex's ground (its main terrain, or the map's default
        terrain under a rounded region).
    overlays
        ``(terrain, geometry)`` painted over the grounds, in order (later on top).
    visible
        Share of each hex's area inside the printed field (1.0 unless a frame cuts it).
    shares
        Per hex, the share of its visible area each terrain covers (sums to 1).
    """

    ground: dict[Hex, str]
    overlays: tuple[tuple[str, BaseGeometry], ...]
    visible: dict[Hex, float]
    shares: dict[Hex, dict[str, float]]

    def region(self, name: str, grid: HexGrid) -> BaseGeometry:
        """Where ``name`` is visible on the paper (ground hexes less the overlays above them).

        >>> from pipeline.hexgrid import Numbering, Orientation, Layout
        >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), 2, 1,
        ...             layout=Layout(dx=34.64, dy=40.0, x0=30.0, y0=30.0))
        >>> t = terrain_layers(g, {h: ["clear"] for h in g.hexes()}, disc_radius=6.0)
        >>> round(t.region("clear", g).area / g.polygon(g.hexes()[0]).area, 3)
        2.0
        """
        hexes = [h for h, t in self.ground.items() if t == name]
        out: BaseGeometry = shapely.union_all(grid.polygons(hexes)) if hexes else shapely.Polygon()
        for label, geometry in self.overlays:
            out = out.union(geometry) if label == name else out.difference(geometry)
        return out


def rounded_region(hexes: BaseGeometry, radius: float) -> BaseGeometry:
    """A union of hexes with its convex corners and its notches rounded to ``radius``.

    An opening (shrink then grow) rounds the corners that point out, a closing
    (grow then shrink) fills the notches between hexes, as a printed wood's
    outline is drawn.

    >>> import math, shapely
    >>> square = shapely.box(0, 0, 10, 10)
    >>> lost = 100 - rounded_region(square, 2.0).area  # four corners lose (4 - pi) r^2 in all
    >>> abs(lost - (4 - math.pi) * 4) < 0.1
    True
    """
    if radius <= 0 or hexes.is_empty:
        return hexes
    opened = hexes.buffer(-radius, quad_segs=_QUAD_SEGS).buffer(radius, quad_segs=_QUAD_SEGS)
    return opened.buffer(radius, quad_segs=_QUAD_SEGS).buffer(-radius, quad_segs=_QUAD_SEGS)


def terrain_layers(grid: HexGrid, terrain: Mapping[Hex, Sequence[str]], *,
                   disc_radius: float, rounded: frozenset[str] = frozenset(),
                   rounding: float = 0.0, default: str = "clear",
                   field: BaseGeometry | None = None) -> TerrainLayers:
    """The paint layers of a board's terrain and the area shares they give every hex.

    Parameters
    ----------
    grid
        The board with its pixel layout.
    terrain
        Each hex's terrain, main first; later entries are drawn as a disc at the centre.
    disc_radius
        Radius of a second terrain's disc, in pixels.
    rounded
        Terrains drawn as one solid region with rounded edges.
    rounding
        Radius of those edges, in pixels.
    default
        The terrain shown where a rounded region leaves a hex's corner bare.
    field
        The printed part of the paper (``None``: all of it).

    Examples
    --------
    >>> from pipeline.hexgrid import Layout, Numbering, Orientation
    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), 2, 1,
    ...             layout=Layout(dx=34.64, dy=40.0, x0=30.0, y0=30.0))
    >>> a, b = g.hexes()
    >>> t = terrain_layers(g, {a: ["woods"], b: ["clear", "town"]}, disc_radius=6.0,
    ...                    rounded=frozenset({"woods"}), rounding=8.0)
    >>> t.ground[a], round(t.shares[a]["woods"], 3), round(t.shares[b]["town"], 3)
    ('clear', 0.985, 0.082)
    """
    hexes = list(terrain)
    ground = {h: (default if terrain[h][0] in rounded else terrain[h][0]) for h in hexes}
    overlays: list[tuple[str, BaseGeometry]] = []
    order = _first_use(terrain)
    for name in sorted(rounded, key=lambda n: (order.get(n, len(order)), n)):
        members = [h for h in hexes if terrain[h][0] == name]
        if members:
            union = shapely.union_all(grid.polygons(members))
            overlays.append((name, rounded_region(union, rounding)))
    seconds: dict[str, list[BaseGeometry]] = {}
    for h in hexes:
        for name in terrain[h][1:]:
            disc = shapely.Point(grid.center(h)).buffer(disc_radius, quad_segs=_DISC_SEGS)
            seconds.setdefault(name, []).append(disc)
    overlays += [(name, shapely.union_all(discs)) for name, discs in seconds.items()]
    return TerrainLayers(ground, tuple(overlays), *_shares(grid, hexes, ground, overlays, field))


def _first_use(terrain: Mapping[Hex, Sequence[str]]) -> dict[str, int]:
    order: dict[str, int] = {}
    for names in terrain.values():
        order.setdefault(names[0], len(order))
    return order


def _shares(grid: HexGrid, hexes: list[Hex], ground: Mapping[Hex, str],
            overlays: Sequence[tuple[str, BaseGeometry]], field: BaseGeometry | None
            ) -> tuple[dict[Hex, float], dict[Hex, dict[str, float]]]:
    polys = grid.polygons(hexes)
    full = shapely.area(polys)
    seen = polys if field is None else shapely.intersection(polys, field)
    area = shapely.area(seen)
    visible = {h: float(a / f) for h, a, f in zip(hexes, area, full, strict=True)}
    shares: dict[Hex, dict[str, float]] = {h: {} for h in hexes}
    covered = np.zeros(len(hexes))
    for i, (name, geometry) in enumerate(overlays):
        above = [g for _, g in overlays[i + 1:]]
        shown = geometry.difference(shapely.union_all(above)) if above else geometry
        part = shapely.area(shapely.intersection(seen, shown)) / np.maximum(area, 1e-12)
        covered += part
        for h, p in zip(hexes, part, strict=True):
            if p > 1e-9:
                shares[h][name] = shares[h].get(name, 0.0) + float(p)
    for h, c in zip(hexes, covered, strict=True):
        rest = 1.0 - float(c)
        if rest > 1e-9:
            shares[h][ground[h]] = shares[h].get(ground[h], 0.0) + rest
        shares[h] = dict(sorted(shares[h].items(), key=lambda kv: -kv[1]))
    return visible, shares
