"""Unit-type symbols, unit-size marks and marker icons, drawn as small vector shapes.

Each symbol is a short list of shapes (strokes, ovals, dots, arcs, filled
polygons, letters) in the coordinates of its box, 0..1 across and 0..1 down,
so it draws at any size. Shapes are drawn four times larger and reduced, which
anti-aliases every edge; the box frame is kept on whole pixels so it stays
sharp. Drawn images are cached: a manifest has few distinct symbols.

The symbols follow the NATO/APP-6 land unit icons wargames have used since the
1960s (X infantry, oval armour, dot artillery, inverted V anti-tank, diagonal
reconnaissance ...), with the World War II additions APP-6 lacks: glider
infantry (000_3d79f68a6e3e33eb.txt §2.3.1), the Kampfgruppe size mark (KG,
001_2c092b02feae28f3.txt §2.4.2), wagons and fortifications (002).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from pipeline.counters.typeset import draw_centred, fit_font
from pipeline.model.manifest import UNIT_SIZES, UNIT_TYPES

__all__ = [
    "ICONS",
    "KIND_ICONS",
    "SIZE_MARKS",
    "SUPERSAMPLE",
    "SYMBOLS",
    "Arc",
    "Circle",
    "Label",
    "Oval",
    "Polygon",
    "Shape",
    "Stroke",
    "icon_image",
    "size_mark_image",
    "symbol_image",
]

SUPERSAMPLE = 4
"""Shapes are drawn this many times larger, then reduced (anti-aliasing)."""

Point = tuple[float, float]
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Stroke:
    """A line through ``points`` (closed: back to the first)."""

    points: tuple[Point, ...]
    closed: bool = False


@dataclass(frozen=True)
class Oval:
    """A rounded box (the NATO armour 'track'), or an ellipse with ``ellipse=True``."""

    left: float
    top: float
    right: float
    bottom: float
    ellipse: bool = False
    filled: bool = False


@dataclass(frozen=True)
class Circle:
    """A circle; ``radius`` is a fraction of the box height (round on any box)."""

    centre: Point
    radius: float
    filled: bool = False


@dataclass(frozen=True)
class Arc:
    """Part of the ellipse in a bounding box, degrees clockwise from 3 o'clock."""

    left: float
    top: float
    right: float
    bottom: float
    start: float
    end: float


@dataclass(frozen=True)
class Polygon:
    """A filled polygon."""

    points: tuple[Point, ...]


@dataclass(frozen=True)
class Label:
    """Letters centred at ``centre``, ``height`` a fraction of the box height."""

    text: str
    centre: Point = (0.5, 0.5)
    height: float = 0.42


Shape = Stroke | Oval | Circle | Arc | Polygon | Label

# -- the unit-type symbols (box coordinates) -----------------------------------------------

_X = (Stroke(((0, 0), (1, 1))), Stroke(((0, 1), (1, 0))))
_TRACK = (Oval(0.2, 0.26, 0.8, 0.74),)
_AT = (Stroke(((0, 1), (0.5, 0), (1, 1))),)
_RECON = (Stroke(((0, 1), (1, 0))),)
_DOT = (Circle((0.5, 0.5), 0.13, filled=True),)
_CANOPY = (Arc(0.37, 0.74, 0.63, 1.06, 180, 360),)  # parachute canopy, open side down
# A glider seen from above: long straight wing, short fuselage and tailplane.
_GLIDER = (Stroke(((0.3, 0.8), (0.7, 0.8))), Stroke(((0.5, 0.72), (0.5, 0.96))),
           Stroke(((0.45, 0.94), (0.55, 0.94))))
_ARROW = (Stroke(((0.5, 0.78), (0.5, 0.3))), Polygon(((0.42, 0.36), (0.5, 0.12), (0.58, 0.36))))
_BATTLEMENT = (Stroke(((0.28, 0.72), (0.28, 0.28), (0.37, 0.28), (0.37, 0.4), (0.46, 0.4),
                       (0.46, 0.28), (0.54, 0.28), (0.54, 0.4), (0.63, 0.4), (0.63, 0.28),
                       (0.72, 0.28), (0.72, 0.72)), closed=True),)
_WAVE = (Stroke(tuple((0.2 + 0.6 * i / 24, 0.86 + 0.05 * math.sin(i * math.pi / 4))
                      for i in range(25))),)
_WHEELS = (Circle((0.36, 0.64), 0.11), Circle((0.64, 0.64), 0.11))

SYMBOLS: Mapping[str, tuple[Shape, ...]] = {
    "infantry": _X,
    "armor": _TRACK,
    "mechanized": _X + _TRACK,
    "motorized": _X + (Stroke(((0.5, 0), (0.5, 1))),),  # APP-6 motorized: X and an axle
    "panzer_grenadier": _X + _TRACK,  # armoured infantry (003 §5.3.1)
    "parachute": _X + _CANOPY,
    "glider": _X + _GLIDER,
    "ranger": (Label("RGR"),),
    "commando": (Label("CDO"),),
    "artillery": _DOT,
    "sp_artillery": _DOT + _TRACK,
    "anti_tank": _AT,
    "sp_anti_tank": _AT + _TRACK,
    "assault_gun": _AT + _TRACK,  # 000 §2.3.1 groups them: SP anti-tank/assault gun
    "tank_destroyer": _AT + _TRACK,
    "anti_aircraft": (Arc(0, 0.58, 1, 1.42, 180, 360),),
    "headquarters": (Label("HQ"),),
    "recon": _RECON,
    "scout": _RECON,
    "cavalry": _RECON,
    "armored_cavalry": _RECON + _TRACK,
    "engineer": (Stroke(((0.3, 0.66), (0.3, 0.34), (0.7, 0.34), (0.7, 0.66))),
                 Stroke(((0.5, 0.34), (0.5, 0.66)))),
    "machine_gun": _ARROW + (Stroke(((0.4, 0.64), (0.6, 0.64))),),
    "mortar": (Stroke(((0.5, 0.7), (0.5, 0.3))),
               Polygon(((0.42, 0.36), (0.5, 0.12), (0.58, 0.36))),
               Circle((0.5, 0.79), 0.09)),
    "halftrack": (Oval(0.18, 0.38, 0.58, 0.72), Circle((0.72, 0.6), 0.11)),
    "wagon": (Stroke(((0.12, 0.34), (0.24, 0.46), (0.78, 0.46))),) + _WHEELS,
    "truck": (Circle((0.5, 0.5), 0.3), Stroke(((0.5, 0.2), (0.5, 0.8))),
              Stroke(((0.5 - 0.26 / 1.5, 0.35), (0.5 + 0.26 / 1.5, 0.65))),
              Stroke(((0.5 - 0.26 / 1.5, 0.65), (0.5 + 0.26 / 1.5, 0.35)))),
    "fortification": _BATTLEMENT,
    "beach_defence": (Stroke(tuple((x, y - 0.08) for x, y in _BATTLEMENT[0].points),
                             closed=True),) + _WAVE,
    "delay": (Label("D", height=0.5),),
}
"""Unit type (:data:`pipeline.model.manifest.UNIT_TYPES`) -> shapes in its box."""

# -- size marks (drawn above the box) -------------------------------------------------------


def _dots(n: int) -> tuple[Shape, ...]:
    return tuple(Circle(((i - (n - 1) / 2) * 0.8, 0.5), 0.23, filled=True) for i in range(n))


def _bars(n: int) -> tuple[Shape, ...]:
    return tuple(Stroke((((i - (n - 1) / 2) * 0.5, 0.04), ((i - (n - 1) / 2) * 0.5, 0.96)))
                 for i in range(n))


def _crosses(n: int) -> tuple[Shape, ...]:
    shapes: list[Shape] = []
    for i in range(n):
        cx = (i - (n - 1) / 2) * 0.95
        shapes += [Stroke(((cx - 0.35, 0.04), (cx + 0.35, 0.96))),
                   Stroke(((cx - 0.35, 0.96), (cx + 0.35, 0.04)))]
    return tuple(shapes)


SIZE_MARKS: Mapping[str, tuple[Shape, ...]] = {
    "team": (Circle((0, 0.5), 0.36), Stroke(((-0.3, 0.96), (0.3, 0.04)))),
    "squad": _dots(1),
    "section": _dots(2),
    "platoon": _dots(3),
    "company": _bars(1),
    "battalion": _bars(2),
    "regiment": _bars(3),
    "brigade": _crosses(1),
    "division": _crosses(2),
    "corps": _crosses(3),
    "army": _crosses(4),
    "kampfgruppe": (Label("KG", (0, 0.5), height=1.0),),  # 001 §2.4.2: the KG (Kampfgruppe)
}
"""Unit size (:data:`pipeline.model.manifest.UNIT_SIZES`) -> shapes in a strip above the box.
Here x counts strip heights from the centre line (marks keep their shape on any width) and
y runs 0..1 down the strip."""

# -- marker icons (square) ------------------------------------------------------------------

_AIRCRAFT = (Polygon(((0.5, 0.08), (0.55, 0.16), (0.56, 0.38), (0.94, 0.5), (0.94, 0.57),
                      (0.56, 0.52), (0.54, 0.78), (0.68, 0.86), (0.68, 0.92), (0.5, 0.89),
                      (0.32, 0.92), (0.32, 0.86), (0.46, 0.78), (0.44, 0.52), (0.06, 0.57),
                      (0.06, 0.5), (0.44, 0.38), (0.45, 0.16))),)
_TURRET = (Polygon(((0.12, 0.78), (0.2, 0.5), (0.62, 0.44), (0.72, 0.5), (0.8, 0.78))),
           Polygon(((0.6, 0.52), (0.96, 0.4), (0.97, 0.45), (0.62, 0.6))),
           Polygon(((0.6, 0.62), (0.96, 0.52), (0.97, 0.57), (0.62, 0.7))),
           Polygon(((0.06, 0.78), (0.86, 0.78), (0.86, 0.86), (0.06, 0.86))))
_SHIP = (Polygon(((0.02, 0.6), (0.98, 0.6), (0.86, 0.76), (0.1, 0.76))),
         Polygon(((0.3, 0.6), (0.3, 0.48), (0.44, 0.48), (0.46, 0.36), (0.56, 0.36),
                  (0.58, 0.48), (0.7, 0.48), (0.7, 0.6))),
         Polygon(((0.5, 0.36), (0.5, 0.22), (0.53, 0.22), (0.53, 0.36))),
         Polygon(((0.14, 0.6), (0.16, 0.54), (0.26, 0.54), (0.26, 0.6))),
         Polygon(((0.74, 0.6), (0.74, 0.54), (0.86, 0.54), (0.86, 0.6))))
_BURST = (Polygon(tuple(
    (0.5 + (0.46 if i % 2 == 0 else 0.2) * math.cos(i * math.pi / 8 - math.pi / 2),
     0.5 + (0.46 if i % 2 == 0 else 0.2) * math.sin(i * math.pi / 8 - math.pi / 2))
    for i in range(16))),)
_ANCHOR = (Circle((0.5, 0.17), 0.08), Stroke(((0.5, 0.25), (0.5, 0.86))),
           Stroke(((0.32, 0.36), (0.68, 0.36))), Arc(0.18, 0.42, 0.82, 0.88, 0, 180),
           Polygon(((0.12, 0.62), (0.24, 0.6), (0.19, 0.7))),
           Polygon(((0.88, 0.62), (0.76, 0.6), (0.81, 0.7))))
_FLAG = (Stroke(((0.28, 0.1), (0.28, 0.92))),
         Polygon(((0.28, 0.12), (0.8, 0.2), (0.66, 0.32), (0.8, 0.44), (0.28, 0.44))))

ICONS: Mapping[str, tuple[Shape, ...]] = {
    "aircraft": _AIRCRAFT,
    "turret": _TURRET,
    "ship": _SHIP,
    "burst": _BURST,
    "anchor": _ANCHOR,
    "flag": _FLAG,
}
"""Marker icon name (the ``icon`` column of a marker manifest) -> shapes in a square."""

KIND_ICONS: Mapping[str, str] = {
    "support_fire": "burst",
    "naval_support_fire": "turret",
    "air_points": "aircraft",
    "naval_points": "ship",
    "beachhead": "anchor",
    "control": "flag",
}
"""The icon a marker kind gets when its ``icon`` cell is empty."""

# Every type and size the manifest accepts can be drawn (checked by the tests as well).
assert set(SYMBOLS) == set(UNIT_TYPES) and set(SIZE_MARKS) == set(UNIT_SIZES)


# -- drawing ----------------------------------------------------------------------------------


def _draw_shapes(draw: ImageDraw.ImageDraw, shapes: Sequence[Shape], width: int, height: int,
                 stroke: int, ink: RGB | tuple[int, int, int, int],
                 *, centred: bool = False) -> None:
    """Draw shapes scaled to a ``width`` x ``height`` area (already supersampled).

    ``centred``: x counts heights from the middle (size marks) instead of 0..1 across.
    """

    def at(p: Point) -> tuple[float, float]:
        if centred:
            return width / 2 + p[0] * height, p[1] * height
        return p[0] * width, p[1] * height

    for shape in shapes:
        if isinstance(shape, Stroke):
            points = [at(p) for p in shape.points]
            if shape.closed:
                points.append(points[0])
            draw.line(points, fill=ink, width=stroke, joint="curve")
            for x, y in (points[0], points[-1]):  # round caps: thick ends do not look cut off
                r = stroke / 2
                draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)
        elif isinstance(shape, Oval):
            box = (shape.left * width, shape.top * height,
                   shape.right * width, shape.bottom * height)
            fill = ink if shape.filled else None
            if shape.ellipse:
                draw.ellipse(box, outline=ink, width=stroke, fill=fill)
            else:
                radius = (box[3] - box[1]) / 2
                draw.rounded_rectangle(box, radius=radius, outline=ink, width=stroke, fill=fill)
        elif isinstance(shape, Circle):
            x, y = at(shape.centre)
            r = shape.radius * height
            if shape.filled:
                draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)
            else:
                draw.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=stroke)
        elif isinstance(shape, Arc):
            box = (shape.left * width, shape.top * height,
                   shape.right * width, shape.bottom * height)
            draw.arc(box, shape.start, shape.end, fill=ink, width=stroke)
        elif isinstance(shape, Polygon):
            draw.polygon([at(p) for p in shape.points], fill=ink)
        else:
            face = fit_font(shape.text, "bold", round(shape.height * height * 1.38), width * 0.9)
            draw_centred(draw, shape.text, face, at(shape.centre), ink)


@functools.lru_cache(maxsize=1024)
def symbol_image(unit_type: str, width: int, height: int, frame: int,
                 fill: RGB, ink: RGB) -> Image.Image:
    """The unit-type box: frame, fill and symbol, ``width`` x ``height`` pixels (RGB).

    Parameters
    ----------
    unit_type
        A key of :data:`SYMBOLS`.
    width, height
        Outer size of the box in pixels, frame included.
    frame
        Width of the frame (and of the symbol's lines) in pixels.
    fill, ink
        Inside of the box; frame and symbol.

    Examples
    --------
    >>> im = symbol_image("infantry", 60, 40, 2, (255, 255, 255), (0, 0, 0))
    >>> im.size, im.getpixel((30, 20)), im.getpixel((0, 0))
    ((60, 40), (0, 0, 0), (0, 0, 0))
    """
    s = SUPERSAMPLE
    inner_w, inner_h = width - 2 * frame, height - 2 * frame
    # The symbol is drawn on the inside only, so strokes running into corners are clipped.
    inner = Image.new("RGB", (inner_w * s, inner_h * s), fill)
    _draw_shapes(ImageDraw.Draw(inner), SYMBOLS[unit_type], inner_w * s, inner_h * s,
                 max(1, round(frame * s * 0.9)), ink)
    box = Image.new("RGB", (width, height), ink)
    box.paste(inner.reduce(s), (frame, frame))
    return box


@functools.lru_cache(maxsize=256)
def size_mark_image(size: str, width: int, height: int, stroke: int, ink: RGB) -> Image.Image:
    """The unit-size mark (●●●, II, XX, KG ...) on a transparent strip (RGBA).

    >>> size_mark_image("division", 80, 16, 2, (0, 0, 0)).getbbox() is not None
    True
    """
    s = SUPERSAMPLE
    # Transparent pixels carry the ink colour, so reducing does not darken the edges.
    strip = Image.new("RGBA", (width * s, height * s), (*ink, 0))
    # A touch heavier than the frame: thin marks on a busy counter read as lighter.
    _draw_shapes(ImageDraw.Draw(strip), SIZE_MARKS[size], width * s, height * s,
                 max(1, round(stroke * s * 1.2)), (*ink, 255), centred=True)
    return strip.reduce(s)


@functools.lru_cache(maxsize=256)
def icon_image(icon: str, px: int, stroke: int, ink: RGB) -> Image.Image:
    """A marker icon on a transparent ``px`` x ``px`` square (RGBA).

    >>> icon_image("aircraft", 40, 2, (0, 0, 0)).getpixel((20, 20))[3]
    255
    """
    s = SUPERSAMPLE
    square = Image.new("RGBA", (px * s, px * s), (*ink, 0))
    _draw_shapes(ImageDraw.Draw(square), ICONS[icon], px * s, px * s,
                 max(1, round(stroke * s)), (*ink, 255))
    return square.reduce(s)
