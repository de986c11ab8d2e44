"""Printed-style terrain symbols: dots, hatching, tufts and waves over a fill.

Real maps rarely print flat colour: woods carry tree dots, rough ground
hatching, marsh tufts, water wave marks. A classifier that only ever saw flat
fills would be untested against them, so the render bench draws them too, in a
darker shade of the fill, covering a modest share of the hex (as printed maps
do: the fill stays the dominant colour).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from PIL import ImageDraw

__all__ = ["PATTERNS", "SYMBOL_SHADE", "draw_texture", "shade"]

PATTERNS: tuple[str, ...] = ("dots", "hatch", "tufts", "waves")
SYMBOL_SHADE = 0.72  # symbols are the fill colour times this

RGB = tuple[int, int, int]
Point = tuple[float, float]


def shade(colour: RGB, factor: float) -> RGB:
    """A darker (``factor < 1``) or lighter shade of a colour.

    >>> shade((100, 200, 50), 0.5)
    (50, 100, 25)
    """
    return (min(255, round(colour[0] * factor)), min(255, round(colour[1] * factor)),
            min(255, round(colour[2] * factor)))


def draw_texture(draw: ImageDraw.ImageDraw, pattern: str, corners: Sequence[Point],
                 centre: Point, size: float, colour: RGB, rng: np.random.Generator) -> None:
    """Scatter one pattern's symbols inside a hex.

    Parameters
    ----------
    draw
        Where to draw (coordinates in the drawing's own pixels).
    pattern
        One of :data:`PATTERNS`.
    corners
        The hex's corners (unused by the symbols, which stay inside a disc of
        0.4 hex sizes around ``centre``; kept for patterns that clip).
    centre, size
        Hex centre and size across flats, in the drawing's pixels.
    colour
        The fill colour; symbols use a darker shade of it.
    rng
        Seeded generator: the only source of placement.
    """
    if pattern not in PATTERNS:
        raise ValueError(f"unknown pattern {pattern!r}: one of {', '.join(PATTERNS)}")
    ink = shade(colour, SYMBOL_SHADE)
    count = {"dots": 12, "hatch": 7, "tufts": 6, "waves": 5}[pattern]
    radius = rng.uniform(0, 1, count) ** 0.5 * 0.36 * size
    angle = rng.uniform(0, 2 * math.pi, count)
    for r, a in zip(radius, angle, strict=True):
        x, y = centre[0] + r * math.cos(a), centre[1] + r * math.sin(a)
        _symbol(draw, pattern, x, y, size, ink)


def _symbol(draw: ImageDraw.ImageDraw, pattern: str, x: float, y: float, size: float,
            ink: RGB) -> None:
    w = max(1, round(0.025 * size))
    if pattern == "dots":
        r = 0.035 * size
        draw.ellipse([(x - r, y - r), (x + r, y + r)], fill=ink)
    elif pattern == "hatch":
        d = 0.07 * size
        draw.line([(x - d, y + d), (x + d, y - d)], fill=ink, width=w)
    elif pattern == "tufts":
        d = 0.05 * size
        for dx in (-d, 0.0, d):
            draw.line([(x, y + d), (x + dx, y - d)], fill=ink, width=w)
    else:  # waves
        d = 0.045 * size
        pts = [(x - 2 * d, y), (x - d, y - d / 2), (x, y), (x + d, y - d / 2), (x + 2 * d, y)]
        draw.line(pts, fill=ink, width=w, joint="curve")
