"""Political regions: pastel realms that ignore terrain, with dotted borders.

Fantasy and strategic maps colour the ground by kingdom, not by terrain, and
show the terrain with icons on top. The realms here are Voronoi cells of
seeded points, bent by a smooth warp so their borders wander through hexes as
drawn borders do. The warp is a small, smooth displacement (its gradient well
under one), so the bent cells still tile the field without gaps or overlaps.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from pipeline.render.canvas import Canvas

__all__ = ["REGION_COLOURS", "Realm", "paint_realms", "realms"]

RGB = tuple[int, int, int]

# Pale, mutually distinct, none of them a terrain's usual colour.
REGION_COLOURS: tuple[RGB, ...] = (
    (246, 233, 190), (222, 236, 204), (240, 218, 222), (214, 226, 240),
    (236, 222, 246), (244, 226, 200), (226, 240, 232), (238, 238, 214),
)
BORDER_COLOUR: RGB = (196, 44, 40)


@dataclass(frozen=True)
class Realm:
    """One region: its outline, colour and name (a distractor label's text)."""

    outline: BaseGeometry
    colour: RGB
    name: str


def realms(box: tuple[float, float, float, float], count: int, unit: float, names: list[str],
           rng: np.random.Generator) -> list[Realm]:
    """``count`` warped Voronoi realms tiling ``box`` (``x0, y0, x1, y1`` in pixels).

    >>> r = realms((0, 0, 400, 300), 4, 40.0, ["A", "B", "C", "D"], np.random.default_rng(1))
    >>> len(r), round(sum(x.outline.area for x in r))
    (4, 120000)
    """
    x0, y0, x1, y1 = box
    amp = 0.3 * unit
    pad = 3 * amp
    points = np.column_stack([rng.uniform(x0, x1, count), rng.uniform(y0, y1, count)])
    outer = shapely.box(x0 - pad, y0 - pad, x1 + pad, y1 + pad)
    cells = shapely.voronoi_polygons(shapely.MultiPoint(points), extend_to=outer)
    warp = _warp(amp, unit, rng)
    frame = shapely.box(*box)
    out = []
    for i, cell in enumerate(sorted(cells.geoms, key=lambda c: (c.centroid.y, c.centroid.x))):
        bent = shapely.transform(shapely.segmentize(cell.intersection(outer), 0.1 * unit), warp)
        out.append(Realm(bent.intersection(frame), REGION_COLOURS[i % len(REGION_COLOURS)],
                         names[i % len(names)]))
    return out


def _warp(amp: float, unit: float, rng: np.random.Generator
          ) -> Callable[[NDArray[np.float64]], NDArray[np.float64]]:
    # Three waves per axis, wavelengths 4 to 9 hexes: slope amp * 2 pi / (4 unit) < 0.5.
    k = 2 * math.pi / (rng.uniform(4, 9, (2, 3)) * unit)
    angle = rng.uniform(0, 2 * math.pi, (2, 3))
    phase = rng.uniform(0, 2 * math.pi, (2, 3))

    def move(xy: NDArray[np.float64]) -> NDArray[np.float64]:
        out = xy.copy()
        for axis in range(2):
            for j in range(3):
                t = k[axis, j] * (xy[:, 0] * math.cos(angle[axis, j])
                                  + xy[:, 1] * math.sin(angle[axis, j]))
                out[:, axis] += amp / 3 * np.sin(t + phase[axis, j])
        return out

    return move


def paint_realms(canvas: Canvas, found: list[Realm], box: tuple[float, float, float, float]
                 ) -> None:
    """Fill each realm with its colour and dot the borders between them.

    >>> found = realms((0, 0, 200, 100), 2, 40.0, ["A", "B"], np.random.default_rng(0))
    >>> c = Canvas(200, 100, 1, (255, 255, 255), unit=40.0)
    >>> paint_realms(c, found, (0, 0, 200, 100))
    >>> img = c.finish().reshape(-1, 3)
    >>> ours = [(img == np.array(colour)).all(axis=1).mean() for colour in REGION_COLOURS[:2]]
    >>> bool(min(ours) > 0.1 and sum(ours) > 0.95)
    True
    """
    for realm in found:
        canvas.fill_geometry(realm.outline, realm.colour)
    edge = shapely.box(*box).exterior.buffer(1e-6)
    borders = shapely.union_all([r.outline.boundary for r in found]).difference(edge)
    step, radius = 0.11 * canvas.unit, 0.022 * canvas.unit
    for line in _lines(shapely.line_merge(borders) if not borders.is_empty else borders):
        for d in np.arange(step / 2, line.length, step):
            p = line.interpolate(float(d))
            canvas.disc((p.x, p.y), radius, BORDER_COLOUR)


def _lines(geometry: BaseGeometry) -> list[shapely.LineString]:
    if isinstance(geometry, shapely.LineString):
        return [geometry]
    return [g for part in getattr(geometry, "geoms", ()) for g in _lines(part)]
