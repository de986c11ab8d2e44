"""Thin black terrain icons, and the symbols that mark a hex feature (a town, a castle).

Many printed maps show terrain not by colour but by small line drawings: round
trees for woods, firs for forest, humps for hills, peaks for mountains, reed
tufts for marsh. Every icon here stays inside a disc of 0.38 hex sizes around
the hex centre, so its ink belongs to that hex alone (the truth a test checks).
Hex features are drawn as one symbol on the hex centre.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from pipeline.render.canvas import Canvas

__all__ = ["ICONS", "ICON_REACH", "SYMBOLS", "draw_icon", "draw_symbol", "icon_for",
           "symbol_for"]

RGB = tuple[int, int, int]
Point = tuple[float, float]

ICONS: tuple[str, ...] = ("trees", "conifers", "hills", "mountain", "marsh", "rough",
                          "buildings", "waves")
SYMBOLS: tuple[str, ...] = ("castle", "ring", "square")
ICON_REACH = 0.38  # every icon's ink lies within this many hex sizes of the centre
INK: RGB = (22, 22, 22)
_FLAG: RGB = (200, 36, 30)

_BY_NAME: dict[str, str] = {
    "woods": "trees", "wood": "trees", "light_woods": "trees", "orchard": "trees",
    "forest": "conifers", "heavy_woods": "conifers", "jungle": "conifers",
    "hills": "hills", "hill": "hills", "slope": "hills",
    "mountain": "mountain", "mountains": "mountain", "alpine": "mountain",
    "marsh": "marsh", "swamp": "marsh", "bog": "marsh", "polder": "marsh",
    "rough": "rough", "broken": "rough", "rocky": "rough", "desert": "rough",
    "city": "buildings", "town": "buildings", "urban": "buildings", "village": "buildings",
    "sea": "waves", "water": "waves", "lake": "waves", "ocean": "waves",
}
_SYMBOL_BY_NAME: dict[str, str] = {
    "castle": "castle", "fort": "castle", "fortress": "castle", "citadel": "castle",
    "town": "ring", "village": "ring", "victory_location": "ring",
    "city": "square", "port": "square", "capital": "square",
}


def icon_for(name: str, index: int) -> str:
    """The icon a terrain is drawn with: by its name, else the ``index``-th of :data:`ICONS`.

    >>> icon_for("forest", 0), icon_for("bocage", 1)
    ('conifers', 'conifers')
    """
    return _BY_NAME.get(name.lower(), ICONS[index % (len(ICONS) - 1)])


def symbol_for(name: str, index: int) -> str:
    """The symbol a hex feature is drawn with: by its name, else by ``index``.

    >>> symbol_for("town", 0), symbol_for("airfield", 2)
    ('ring', 'square')
    """
    return _SYMBOL_BY_NAME.get(name.lower(), SYMBOLS[index % len(SYMBOLS)])


def draw_icon(canvas: Canvas, icon: str, centre: Point, rng: np.random.Generator,
              ink: RGB = INK) -> None:
    """Draw one terrain icon in a hex (a few small motifs around ``centre``).

    Parameters
    ----------
    canvas
        Where to draw; ``canvas.unit`` is the hex size across the flats.
    icon
        One of :data:`ICONS`.
    centre
        The hex centre in output pixels.
    rng
        Seeded jitter of the motifs (the same seed draws the same icon).
    ink
        Line colour (black, or a dark shade for waves).

    Examples
    --------
    >>> c = Canvas(60, 60, 2, (255, 255, 255), unit=60.0)
    >>> draw_icon(c, "mountain", (30.0, 30.0), np.random.default_rng(0))
    >>> bool((c.finish().max(axis=2) < 90).any())
    True
    """
    if icon not in ICONS:
        raise ValueError(f"unknown icon {icon!r}: one of {', '.join(ICONS)}")
    s = canvas.unit
    spots = _SPOTS[icon]
    jitter = rng.uniform(-0.025, 0.025, (len(spots), 2)) * s
    motif = _MOTIFS[icon]
    for (u, v), (jx, jy) in zip(spots, jitter, strict=True):
        motif(canvas, (centre[0] + u * s + jx, centre[1] + v * s + jy), s, ink)


def draw_symbol(canvas: Canvas, symbol: str, centre: Point) -> None:
    """Draw a hex feature's symbol on the hex centre (about a quarter of a hex across).

    >>> c = Canvas(40, 40, 1, (255, 255, 255), unit=40.0)
    >>> draw_symbol(c, "square", (20.0, 20.0))
    >>> tuple(int(v) for v in c.finish()[20, 20])
    (22, 22, 22)
    """
    if symbol not in SYMBOLS:
        raise ValueError(f"unknown symbol {symbol!r}: one of {', '.join(SYMBOLS)}")
    s = canvas.unit
    x, y = centre
    if symbol == "ring":
        canvas.disc(centre, 0.12 * s, INK)
        canvas.disc(centre, 0.085 * s, (255, 255, 255))
        canvas.disc(centre, 0.045 * s, INK)
    elif symbol == "square":
        canvas.polygon(_box(x, y, 0.11 * s), (255, 255, 255))
        canvas.polygon(_box(x, y, 0.075 * s), INK)
    else:  # castle: a keep with three merlons and a flag
        w, h = 0.11 * s, 0.08 * s
        canvas.polygon([(x - w, y + h), (x + w, y + h), (x + w, y - h), (x - w, y - h)], INK)
        m = 2 * w / 5
        for i in (0, 2, 4):
            left = x - w + i * m
            canvas.polygon([(left, y - h), (left + m, y - h), (left + m, y - h - 0.05 * s),
                            (left, y - h - 0.05 * s)], INK)
        pole = x + 0.02 * s
        canvas.line([(pole, y - h - 0.05 * s), (pole, y - h - 0.15 * s)], INK, canvas.px(0.018))
        canvas.polygon([(pole, y - h - 0.15 * s), (pole + 0.08 * s, y - h - 0.125 * s),
                        (pole, y - h - 0.1 * s)], _FLAG)


def _box(x: float, y: float, r: float) -> list[Point]:
    return [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]


def _width(canvas: Canvas) -> int:
    return canvas.px(0.022)


def _tree(canvas: Canvas, p: Point, s: float, ink: RGB) -> None:
    x, y = p
    r = 0.07 * s
    cx, cy = canvas.ss((x, y - 0.02 * s))
    rr = r * canvas.k
    canvas.draw.ellipse([(cx - rr, cy - rr), (cx + rr, cy + rr)], outline=ink,
                        width=_width(canvas))
    canvas.line([(x, y - 0.02 * s + r), (x, y + 0.11 * s)], ink, _width(canvas))


def _conifer(canvas: Canvas, p: Point, s: float, ink: RGB) -> None:
    x, y = p
    top, base, half = y - 0.12 * s, y + 0.06 * s, 0.06 * s
    canvas.line([(x - half, base), (x, top), (x + half, base), (x - half, base)], ink,
                _width(canvas))
    canvas.line([(x, base), (x, base + 0.05 * s)], ink, _width(canvas))


def _hill(canvas: Canvas, p: Point, s: float, ink: RGB) -> None:
    x, y = p
    pts = [(x + 0.12 * s * math.cos(t), y - 0.07 * s * math.sin(t))
           for t in np.linspace(0, math.pi, 13)]
    canvas.line(pts, ink, _width(canvas))
    for i in range(3):
        hx = x + (0.02 + 0.035 * i) * s
        canvas.line([(hx, y - 0.045 * s + 0.012 * s * i), (hx + 0.02 * s, y - 0.005 * s)], ink,
                    _width(canvas))


def _mountain(canvas: Canvas, p: Point, s: float, ink: RGB) -> None:
    x, y = p
    outline = [(x - 0.17 * s, y + 0.08 * s), (x - 0.06 * s, y - 0.13 * s),
               (x + 0.0 * s, y - 0.04 * s), (x + 0.06 * s, y - 0.15 * s),
               (x + 0.18 * s, y + 0.08 * s)]
    canvas.polygon(outline, (250, 250, 250))
    canvas.line([*outline, outline[0]], ink, _width(canvas))
    for i in range(3):
        hx = x + (0.08 + 0.03 * i) * s
        canvas.line([(hx, y - 0.07 * s + 0.045 * s * i), (hx - 0.03 * s, y + 0.07 * s)], ink,
                    _width(canvas))


def _tuft(canvas: Canvas, p: Point, s: float, ink: RGB) -> None:
    x, y = p
    for dx, tall in ((-0.04, 0.06), (0.0, 0.09), (0.04, 0.06)):
        canvas.line([(x + 0.3 * dx * s, y), (x + dx * s, y - tall * s)], ink, _width(canvas))
    canvas.line([(x - 0.07 * s, y + 0.03 * s), (x + 0.07 * s, y + 0.03 * s)], ink,
                _width(canvas))


def _rock(canvas: Canvas, p: Point, s: float, ink: RGB) -> None:
    x, y = p
    pts = [(x - 0.06 * s, y + 0.03 * s), (x - 0.02 * s, y - 0.05 * s),
           (x + 0.05 * s, y - 0.02 * s), (x + 0.06 * s, y + 0.04 * s)]
    canvas.line([*pts, pts[0]], ink, _width(canvas))


def _building(canvas: Canvas, p: Point, s: float, ink: RGB) -> None:
    x, y = p
    r = 0.045 * s
    canvas.line([*_box(x, y, r), (x - r, y - r)], ink, _width(canvas))


def _wave(canvas: Canvas, p: Point, s: float, ink: RGB) -> None:
    x, y = p
    pts = [(x + t * s, y - 0.02 * s * math.sin(t / 0.1 * math.pi))
           for t in np.linspace(-0.1, 0.1, 9)]
    canvas.line(pts, ink, _width(canvas))


Motif = Callable[[Canvas, Point, float, RGB], None]
_MOTIFS: Mapping[str, Motif] = {
    "trees": _tree, "conifers": _conifer, "hills": _hill, "mountain": _mountain,
    "marsh": _tuft, "rough": _rock, "buildings": _building, "waves": _wave,
}
# Where each icon's motifs sit, in hex sizes from the centre (inside ICON_REACH).
_SPOTS: Mapping[str, Sequence[Point]] = {
    "trees": ((-0.14, -0.06), (0.13, -0.08), (0.0, 0.1)),
    "conifers": ((-0.17, 0.0), (-0.05, -0.12), (0.08, 0.08), (0.18, -0.04)),
    "hills": ((-0.08, -0.06), (0.1, 0.12)),
    "mountain": ((0.0, 0.0),),
    "marsh": ((-0.16, -0.04), (0.0, -0.16), (0.15, 0.0), (-0.02, 0.16)),
    "rough": ((-0.15, -0.1), (0.12, -0.12), (-0.1, 0.14), (0.15, 0.1)),
    "buildings": ((-0.12, -0.08), (0.02, -0.1), (-0.05, 0.06), (0.12, 0.05)),
    "waves": ((-0.12, -0.12), (0.1, -0.05), (-0.08, 0.08), (0.13, 0.15)),
}
