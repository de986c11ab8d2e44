"""Exact straight lines between hex centres, for line of sight.

A line-of-sight rule needs every hex the drawn line passes through, every
hexside it crosses, and the places where it runs exactly along a hexside or
through a corner (002_9cac1969b0421155.txt, "Terrain, Obstacles, and
Elevation": any portion of a traced-through hexside can block). Sampling
points along the line misses hexes it only clips, so this module clips the
segment against each candidate hexagon exactly.

All arithmetic is on integers (corners of a hex are integers once pitch units
are scaled by 6 and 2) with :class:`fractions.Fraction` for positions along
the line, so ties are decided exactly. Affine maps keep straight lines
straight and incidences intact, so the answer holds for any layout, however
stretched or rotated.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

from pipeline.hexgrid.coords import (
    AXIAL_DIRECTIONS,
    Hex,
    Orientation,
    Point,
    direction_vectors,
    distance,
    line,
    scaled_center,
    scaled_corners,
)

__all__ = ["SightLine", "sight_line"]

@dataclass(frozen=True)
class SightLine:
    """What the straight line from one hex centre to another passes.

    Attributes
    ----------
    hexes
        Hexes whose interior the line passes through, in order from the start.
    crossed
        Hexsides the line crosses, as sorted hex pairs, in order.
    along
        Hexsides the line runs along (it touches both hexes without entering
        either there), as sorted hex pairs, in order.
    corners
        For each corner the line passes exactly through, the three hexes that
        meet there, in order.
    """

    hexes: tuple[Hex, ...]
    crossed: tuple[tuple[Hex, Hex], ...]
    along: tuple[tuple[Hex, Hex], ...]
    corners: tuple[tuple[Hex, Hex, Hex], ...]


def _cross(ax: int, ay: int, bx: int, by: int) -> int:
    return ax * by - ay * bx


def _clip(a: Point, d: Point, corners: list[Point], center: Point
          ) -> tuple[Fraction, Fraction, int | None] | None:
    """Cyrus-Beck: the part of segment a + t*d (0<=t<=1) inside the closed hexagon.

    Returns ``(t_in, t_out, edge)`` where ``edge`` is the index of the side the
    part lies on, if it lies on one; ``None`` when the segment misses the hex
    or only touches it at a point.
    """
    t_in, t_out = Fraction(0), Fraction(1)
    on_edge: int | None = None
    for i in range(6):
        c0, c1 = corners[i - 1], corners[i]
        ex, ey = c1[0] - c0[0], c1[1] - c0[1]
        inside = _cross(ex, ey, center[0] - c0[0], center[1] - c0[1])
        n0 = _cross(ex, ey, a[0] - c0[0], a[1] - c0[1])
        nd = _cross(ex, ey, d[0], d[1])
        sign = 1 if inside > 0 else -1
        n0, nd = n0 * sign, nd * sign
        if nd == 0:
            if n0 < 0:
                return None
            if n0 == 0:
                on_edge = i
        elif nd > 0:
            t_in = max(t_in, Fraction(-n0, nd))
        else:
            t_out = min(t_out, Fraction(-n0, nd))
        if t_in >= t_out:
            return None
    return t_in, t_out, on_edge


def sight_line(a: Hex, b: Hex, orientation: Orientation = Orientation.FLAT) -> SightLine:
    """Trace the straight line between the centres of ``a`` and ``b`` exactly.

    Examples
    --------
    >>> s = sight_line(Hex(0, 0), Hex(0, 2))
    >>> s.hexes
    (Hex(q=0, r=0), Hex(q=0, r=1), Hex(q=0, r=2))
    >>> len(s.crossed), s.along, s.corners
    (2, (), ())
    """
    if a == b:
        return SightLine((a,), (), (), ())
    pa, pb = scaled_center(a, orientation), scaled_center(b, orientation)
    d = (pb[0] - pa[0], pb[1] - pa[1])
    # Every hex the segment touches is on, or next to, the sampled grid path.
    candidates = {n for h in line(a, b) for n in _with_neighbours(h)}
    entered: list[tuple[Fraction, Hex]] = []
    along: dict[tuple[Hex, Hex], Fraction] = {}
    for h in candidates:
        clipped = _clip(pa, d, scaled_corners(h, orientation), scaled_center(h, orientation))
        if clipped is None:
            continue
        t_in, _, edge = clipped
        if edge is None:
            entered.append((t_in, h))
        else:
            dq, dr = direction_vectors(orientation)[edge]
            along[_pair(h, Hex(h.q + dq, h.r + dr))] = t_in
    entered.sort()
    hexes = tuple(h for _, h in entered)
    crossed = tuple(_pair(x, y) for x, y in itertools.pairwise(hexes) if distance(x, y) == 1)
    return SightLine(
        hexes=hexes,
        crossed=crossed,
        along=tuple(p for p, _ in sorted(along.items(), key=lambda kv: kv[1])),
        corners=_corners_passed(pa, d, candidates, orientation),
    )


def _corners_passed(a: Point, d: Point, candidates: set[Hex], orientation: Orientation
                    ) -> tuple[tuple[Hex, Hex, Hex], ...]:
    meeting: dict[Point, set[Hex]] = {}
    for h in candidates:
        for c in scaled_corners(h, orientation):
            meeting.setdefault(c, set()).add(h)
    hits: list[tuple[Fraction, tuple[Hex, Hex, Hex]]] = []
    length2 = d[0] * d[0] + d[1] * d[1]
    for c, hexes in meeting.items():
        rel = (c[0] - a[0], c[1] - a[1])
        if _cross(d[0], d[1], rel[0], rel[1]) != 0:
            continue
        t = Fraction(rel[0] * d[0] + rel[1] * d[1], length2)
        if 0 < t < 1 and len(hexes) == 3:
            ordered = sorted(hexes)
            hits.append((t, (ordered[0], ordered[1], ordered[2])))
    return tuple(h for _, h in sorted(hits))


def _pair(x: Hex, y: Hex) -> tuple[Hex, Hex]:
    return (x, y) if x < y else (y, x)


def _with_neighbours(h: Hex) -> list[Hex]:
    return [h, *(Hex(h.q + dq, h.r + dr) for dq, dr in AXIAL_DIRECTIONS)]

