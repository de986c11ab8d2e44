"""How each terrain is printed: its *look*, on the map and in the printed key.

=========  =========================================================================
look       drawn as
=========  =========================================================================
fill       the terrain's colour over the whole hex (with symbols when the style is
           ``textured``): the renderer's original look
region     the colour of the political realm beneath, which ignores terrain
icon       a thin black icon (:mod:`pipeline.render.icons`) over the realm colour, or
           over the terrain's colour when the style draws no realms
waves      the terrain's colour with wave marks in a darker blue (sea, lakes)
stipple    sparse dots of the terrain's colour over the default terrain's colour,
           covering ``stipple_ink`` of the area (a fortified line, a minefield)
rounded    one solid region of the terrain's colour with rounded edges and a darker
           rim (spilling a little into neighbours, leaving convex corners bare)
=========  =========================================================================

The key swatches are painted by the same code as the map's hexes, so a
builder who samples the key samples what the map prints.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from PIL import Image, ImageDraw
from shapely.geometry.base import BaseGeometry

from pipeline.hexgrid import Hex, HexGrid
from pipeline.render.canvas import Canvas
from pipeline.render.icons import draw_icon, icon_for
from pipeline.render.regions import REGION_COLOURS
from pipeline.render.terrain import TerrainLayers, rounded_region
from pipeline.render.textures import PATTERNS, draw_texture, shade

__all__ = ["LOOKS", "Palette", "ground_colour", "paint_grounds", "paint_marks", "paint_swatch"]

RGB = tuple[int, int, int]
Point = tuple[float, float]

LOOKS: tuple[str, ...] = ("fill", "region", "icon", "waves", "stipple", "rounded")
RIM = 0.05  # rim of a rounded region, in hex sizes
RIM_SHADE = 0.72
WAVE_SHADE = 0.62
_STIPPLE_SPACING = 0.085  # mean distance between stipple dots, in hex sizes (sets dot size)


@dataclass(frozen=True)
class Palette:
    """What painting a terrain needs: colours, looks, icons, and the style's switches.

    Attributes
    ----------
    colours
        Colour of every terrain (and feature) by name.
    looks
        Look of each terrain (one of :data:`LOOKS`; unnamed terrains are ``fill``).
    icons
        Icon of each terrain with the ``icon`` look.
    default
        The map's default terrain (the ground under stipple and bare corners).
    realms
        Whether the map is coloured by realm (``region`` and ``icon`` grounds).
    textured, stipple_ink, rounding
        The style's texture switch, stipple coverage and corner radius (hex sizes).
    """

    colours: Mapping[str, RGB]
    looks: Mapping[str, str]
    icons: Mapping[str, str]
    default: str
    realms: bool
    textured: bool
    stipple_ink: float
    rounding: float

    def look(self, name: str) -> str:
        """The look of a terrain."""
        return self.looks.get(name, "fill")

    def pattern(self, name: str) -> str:
        """The texture a ``fill`` terrain carries when the style is textured."""
        plain = [n for n in self.colours if n != self.default]
        return PATTERNS[plain.index(name) % len(PATTERNS)]


def ground_colour(palette: Palette, name: str) -> RGB | None:
    """The colour a hex of ``name`` is filled with first (``None``: the realm shows).

    >>> p = Palette({"clear": (250, 240, 200), "fort": (200, 30, 30)}, {"fort": "stipple"},
    ...             {}, "clear", False, False, 0.25, 0.2)
    >>> ground_colour(p, "fort")
    (250, 240, 200)
    """
    look = palette.look(name)
    if look in ("region", "icon") and palette.realms:
        return None
    if look == "region":  # no realms on this map: a plain fill
        return palette.colours[name]
    if look in ("stipple", "rounded"):
        if name == palette.default:
            return palette.colours[name]
        return ground_colour(palette, palette.default)
    return palette.colours[name]


def paint_grounds(canvas: Canvas, grid: HexGrid, layers: TerrainLayers, palette: Palette,
                  extra: Sequence[Hex]) -> None:
    """Fill every hex with its ground, then the rounded regions over them.

    ``extra`` are lattice hexes beyond the map that the printed field shows
    (a map printed edge to edge): they get the default terrain's ground.

    >>> from pipeline.hexgrid import Layout, Numbering, Orientation
    >>> from pipeline.render.terrain import terrain_layers
    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), 1, 1,
    ...             layout=Layout(dx=34.64, dy=40.0, x0=30.0, y0=30.0))
    >>> p = Palette({"clear": (250, 240, 200)}, {}, {}, "clear", False, False, 0.25, 0.2)
    >>> c = Canvas(60, 60, 1, (255, 255, 255), unit=40.0)
    >>> paint_grounds(c, g, terrain_layers(g, {g.hexes()[0]: ["clear"]}, disc_radius=6.0), p, [])
    >>> tuple(int(v) for v in c.finish()[30, 30])
    (250, 240, 200)
    """
    for h in [*layers.ground, *extra]:
        name = layers.ground.get(h, palette.default)
        colour = ground_colour(palette, name)
        if colour is not None:
            canvas.polygon(grid.corners(h), colour)
    for name, geometry in layers.overlays:
        if palette.look(name) == "rounded":
            _rounded(canvas, geometry, palette.colours[name])


def paint_marks(canvas: Canvas, grid: HexGrid, layers: TerrainLayers, palette: Palette,
                rng: np.random.Generator) -> None:
    """Draw what goes over the grounds: icons, waves, stipple dots, textures, then discs.

    >>> from pipeline.hexgrid import Layout, Numbering, Orientation
    >>> from pipeline.render.terrain import terrain_layers
    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), 1, 1,
    ...             layout=Layout(dx=34.64, dy=40.0, x0=30.0, y0=30.0))
    >>> p = Palette({"clear": (250, 240, 200), "fort": (200, 30, 30)}, {"fort": "stipple"},
    ...             {}, "clear", False, False, 0.25, 0.2)
    >>> layers = terrain_layers(g, {g.hexes()[0]: ["fort"]}, disc_radius=6.0)
    >>> c = Canvas(60, 60, 2, (255, 255, 255), unit=40.0)
    >>> paint_grounds(c, g, layers, p, [])
    >>> paint_marks(c, g, layers, p, np.random.default_rng(0))
    >>> red = c.finish()[20:40, 20:40, 1] < 150
    >>> bool(0.15 < red.mean() < 0.35)
    True
    """
    for name in dict.fromkeys(layers.ground.values()):
        if palette.look(name) == "stipple":
            region = layers.region(name, grid)
            _stipple(canvas, region, palette.colours[name], palette.stipple_ink, rng)
    for h, name in layers.ground.items():
        look = palette.look(name)
        if look in ("icon", "waves"):
            _marks(canvas, grid.center(h), name, palette, rng)
        elif look == "fill" and palette.textured and name != palette.default:
            k = canvas.k
            draw_texture(canvas.draw, palette.pattern(name), [canvas.ss(c) for c in
                         grid.corners(h)], canvas.ss(grid.center(h)), canvas.unit * k,
                         palette.colours[name], rng)
    for name, geometry in layers.overlays:
        if palette.look(name) != "rounded":
            canvas.fill_geometry(geometry, palette.colours[name])


def paint_swatch(canvas: Canvas, corners: Sequence[Point], centre: Point, name: str,
                 palette: Palette, rng: np.random.Generator) -> None:
    """A key swatch: one hex of ``name`` at map scale, painted as the map paints it.

    >>> p = Palette({"clear": (250, 240, 200), "woods": (80, 140, 60)}, {"woods": "rounded"},
    ...             {}, "clear", False, False, 0.25, 0.2)
    >>> c = Canvas(60, 60, 1, (255, 255, 255), unit=40.0)
    >>> corners = [(30 + 23 * math.cos(a), 30 + 23 * math.sin(a))
    ...            for a in np.radians([0, 60, 120, 180, 240, 300])]
    >>> paint_swatch(c, corners, (30.0, 30.0), "woods", p, np.random.default_rng(0))
    >>> tuple(int(v) for v in c.finish()[30, 30])
    (80, 140, 60)
    """
    hexagon = shapely.Polygon(corners)
    look = palette.look(name)
    colour = ground_colour(palette, name)
    canvas.polygon(corners, colour if colour is not None else REGION_COLOURS[0])
    if look == "rounded":
        _rounded(canvas, rounded_region(hexagon, palette.rounding * canvas.unit),
                 palette.colours[name])
    elif look == "stipple":
        _stipple(canvas, hexagon, palette.colours[name], palette.stipple_ink, rng)
    elif look in ("icon", "waves"):
        _marks(canvas, centre, name, palette, rng)
    elif look == "fill" and palette.textured and name != palette.default:
        draw_texture(canvas.draw, palette.pattern(name), [canvas.ss(c) for c in corners],
                     canvas.ss(centre), canvas.unit * canvas.k, palette.colours[name], rng)


def _marks(canvas: Canvas, centre: Point, name: str, palette: Palette,
           rng: np.random.Generator) -> None:
    if palette.look(name) == "waves":
        draw_icon(canvas, "waves", centre, rng, shade(palette.colours[name], WAVE_SHADE))
    else:
        draw_icon(canvas, palette.icons.get(name) or icon_for(name, 0), centre, rng)


def _rounded(canvas: Canvas, region: BaseGeometry, colour: RGB) -> None:
    canvas.fill_geometry(region, shade(colour, RIM_SHADE))
    canvas.fill_geometry(region.buffer(-RIM * canvas.unit), colour)


def _stipple(canvas: Canvas, region: BaseGeometry, colour: RGB, ink: float,
             rng: np.random.Generator) -> None:
    """Dots of ``colour`` covering ``ink`` of ``region``, on a jittered triangular lattice.

    The lattice is fixed to the paper, so neighbouring hexes' dots continue
    seamlessly. The dot's drawn area is measured once and the spacing set from
    it, so the coverage is ``ink`` as drawn, not as a circle's formula says.
    """
    placed = canvas.layer(region)
    if placed is None:
        return
    layer, draw, (ox, oy) = placed
    k = canvas.k
    radius = max(1.0, _STIPPLE_SPACING * canvas.unit * k * math.sqrt(ink * math.sqrt(3) / 2
                                                                    / math.pi))
    spacing = math.sqrt(_dot_area(radius) / (ink * math.sqrt(3) / 2)) / k  # output pixels
    minx, miny, maxx, maxy = region.bounds
    row = spacing * math.sqrt(3) / 2
    j0, j1 = math.floor(miny / row) - 1, math.ceil(maxy / row) + 1
    i0, i1 = math.floor(minx / spacing) - 1, math.ceil(maxx / spacing) + 2
    jj, ii = np.mgrid[j0:j1, i0:i1]
    x = (ii + 0.5 * (jj % 2)) * spacing
    y = jj * row
    jitter = rng.uniform(-0.16, 0.16, (2, *x.shape)) * spacing
    for px, py in zip((x + jitter[0]).ravel(), (y + jitter[1]).ravel(), strict=True):
        sx, sy = canvas.ss((float(px), float(py)))
        sx, sy = sx - ox, sy - oy
        draw.ellipse([(sx - radius, sy - radius), (sx + radius, sy + radius)], fill=colour)
    canvas.paste(layer, region, (ox, oy))


def _dot_area(radius: float) -> float:
    """Mean pixel area Pillow gives a dot of ``radius`` (over sub-pixel positions)."""
    size = math.ceil(2 * radius) + 4
    total = 0
    offsets = np.linspace(0, 1, 4, endpoint=False)
    for dx in offsets:
        for dy in offsets:
            mask = Image.new("L", (size, size), 0)
            cx, cy = size / 2 + dx, size / 2 + dy
            ImageDraw.Draw(mask).ellipse([(cx - radius, cy - radius), (cx + radius, cy + radius)],
                                         fill=255)
            total += int(np.count_nonzero(np.asarray(mask)))
    return total / len(offsets) ** 2
