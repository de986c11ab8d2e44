"""Map data -> a clean map image: terrain fills, hexside features, grid, printed ids.

The picture is drawn with Pillow at ``supersample`` times the output size and
averaged down, so edges are anti-aliased and every drawn position is exact to
a fraction of a pixel (Pillow puts coordinates on whole pixels; at 3x that is
within a sixth of an output pixel, and unbiased). Pixel centres sit at integer
coordinates, as in OpenCV and :meth:`pipeline.hexgrid.HexGrid.hexes_at`.

Which hexsides carry which drawn features is returned with the image
(:attr:`Rendered.hexsides`), so a test can compare a digitized map with what
was really printed, including the bridges a style adds where a road crosses a
river.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from pipeline.errors import DataError
from pipeline.hexgrid import Hex, HexGrid, Hexside, Layout, Orientation
from pipeline.model import MapData
from pipeline.render.textures import PATTERNS, SYMBOL_SHADE, draw_texture, shade

__all__ = [
    "DEFAULT_PALETTE",
    "RenderStyle",
    "Rendered",
    "board_layout",
    "drawn_hexsides",
    "parse_hex_colour",
    "printed_colours",
    "render_map",
]

RGB = tuple[int, int, int]
Point = tuple[float, float]

# Used for terrain and features that the map gives no colour; distinct in Lab.
DEFAULT_PALETTE: tuple[str, ...] = (
    "#e9e4c3", "#5b8a3c", "#a88b63", "#8fb5a8", "#5e8fc4", "#b5463c", "#c98b6b",
    "#f2dc9b", "#7a5c9e", "#d9a13b",
)

SQRT3_2 = math.sqrt(3) / 2


@dataclass(frozen=True)
class RenderStyle:
    """How a map is drawn. Sizes are fractions of ``hex_size`` unless said otherwise.

    Parameters
    ----------
    hex_size
        Width of a hex across its flats in pixels (the distance between the
        centres of neighbouring hexes).
    margin
        Blank paper around the map, in pixels.
    paper, grid_color, id_color
        Colours as ``#rrggbb``.
    grid_width
        Grid line width.
    grid_dashed
        Draw the grid as three dashes a hexside, as some maps print it.
    ids
        Print each hex's id small near its top.
    textured
        Printed style: terrain symbols (dots, hatching, tufts, waves) over the fills.
    along_width, across_width
        Widths of hexside features drawn along a hexside (rivers, bars) and
        across it (roads, centre to centre).
    wave
        Amplitude of a wavy river's meander.
    wavy, dashed, marks
        Feature names drawn as wavy lines, dashed lines, and as a mark on the
        middle of the hexside (a bridge) instead of a line.
    crossing_mark
        A mark feature drawn wherever an ``across`` line crosses an ``along``
        feature (a road over a river is printed with a bridge), if the map
        defines it; ``None`` to draw no such marks.
    symbol_radius
        Radius of the disc that shows a hex's second terrain (a village in clear).
    palette
        Colours by terrain or feature name, overriding the map's own.
    supersample
        Drawing scale before anti-aliased reduction (1 draws directly).
    seed
        Seed of the texture placement (the only randomness).
    """

    hex_size: float = 48.0
    margin: float = 24.0
    paper: str = "#ffffff"
    grid_color: str = "#1e1e1e"
    grid_width: float = 0.035
    grid_dashed: bool = False
    ids: bool = False
    id_color: str = "#1e1e1e"
    textured: bool = False
    along_width: float = 0.1
    across_width: float = 0.07
    wave: float = 0.035
    wavy: frozenset[str] = frozenset({"river", "stream", "creek"})
    dashed: frozenset[str] = frozenset({"trail", "track"})
    marks: frozenset[str] = frozenset({"bridge"})
    crossing_mark: str | None = "bridge"
    symbol_radius: float = 0.15
    palette: Mapping[str, str] = field(default_factory=dict)
    supersample: int = 3
    seed: int = 0

    def __post_init__(self) -> None:
        if not (self.hex_size >= 4 and math.isfinite(self.hex_size)):
            raise ValueError(f"hex_size must be at least 4 px, got {self.hex_size}")
        if self.supersample < 1:
            raise ValueError(f"supersample must be 1 or more, got {self.supersample}")


@dataclass(frozen=True)
class Rendered:
    """A drawn map.

    Attributes
    ----------
    image
        RGB pixels, shape ``(height, width, 3)``, ``uint8``.
    grid
        The board's grid with the pixel :class:`~pipeline.hexgrid.Layout` used.
    hexsides
        The features actually drawn on each hexside (implied marks included).
    """

    image: NDArray[np.uint8]
    grid: HexGrid
    hexsides: dict[Hexside, frozenset[str]]


def parse_hex_colour(text: str) -> RGB:
    """``'#rrggbb'`` -> ``(r, g, b)``.

    >>> parse_hex_colour("#5b8a3c")
    (91, 138, 60)
    """
    if len(text) != 7 or text[0] != "#":
        raise ValueError(f"colour {text!r} is not '#rrggbb'")
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


def board_layout(grid: HexGrid, style: RenderStyle) -> tuple[Layout, int, int]:
    """An upright layout for ``grid`` with ``style.margin`` around it, and the image size.

    >>> from pipeline.hexgrid import Numbering
    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=2, rows=2)
    >>> layout, w, h = board_layout(g, RenderStyle(hex_size=40.0, margin=10.0))
    >>> round(layout.dx, 3), layout.dy, (w, h)
    (34.641, 40.0, (101, 120))
    """
    s = style.hex_size
    dx, dy = (s * SQRT3_2, s) if grid.orientation is Orientation.FLAT else (s, s * SQRT3_2)
    probe = Layout(dx=dx, dy=dy)
    corners = np.array([c for h in grid.hexes() for c in probe.corners(h, grid.orientation)])
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    layout = Layout(dx=dx, dy=dy, x0=style.margin - lo[0], y0=style.margin - lo[1])
    width = math.ceil(hi[0] - lo[0] + 2 * style.margin)
    height = math.ceil(hi[1] - lo[1] + 2 * style.margin)
    return layout, width, height


def render_map(data: MapData, style: RenderStyle | None = None, board: str | None = None
               ) -> Rendered:
    """Draw one board of a map.

    Parameters
    ----------
    data
        The map; hexes not listed have its ``default_terrain``.
    style
        How to draw (defaults: 48 px flat fills, plain grid, no ids).
    board
        Board name; by default the first board, or every board when map.json
        places them on one lattice (``boards[].placement``).

    Returns
    -------
    Rendered
        The image, the grid with its layout, and the features drawn per hexside.
    """
    style = style or RenderStyle()
    grids = data.grids()
    joined = data.joined_grid() if board is None else None
    name = board if board is not None else next(iter(grids))
    if name not in grids:
        raise DataError(None, "board", f"no board named {name!r} (boards: {', '.join(grids)})")
    plain = joined if joined is not None else grids[name]
    layout, width, height = board_layout(plain, style)
    grid = dataclasses.replace(plain, layout=layout)
    painter = _Painter(grid, style, width, height)
    colours = _colours(data, style)
    hexes = grid.hexes()
    terrain = {h: data.terrain_of(grid.id(h)) for h in hexes}
    for h in hexes:
        painter.fill(h, colours[terrain[h][0]])
    if style.textured:
        painter.textures(hexes, terrain, colours, data.default_terrain)
    for h in hexes:
        for second in terrain[h][1:]:
            painter.disc(grid.center(h), style.symbol_radius, colours[second])
    painter.grid_lines()
    sides = drawn_hexsides(data, grid, style)
    kinds = {n: f.kind for n, f in data.hexside_features.items()}
    _draw_features(painter, sides, kinds, colours, style)
    if style.ids:
        for h in hexes:
            painter.hex_id(h)
    return Rendered(painter.finish(), grid, sides)


def drawn_hexsides(data: MapData, grid: HexGrid, style: RenderStyle
                   ) -> dict[Hexside, frozenset[str]]:
    """The features drawn on each hexside of ``grid`` (board of ``data``), implied marks too."""
    out: dict[Hexside, frozenset[str]] = {}
    kinds = {n: f.kind for n, f in data.hexside_features.items()}
    for entry in data.hexsides:
        if not all(grid.has_id(i) for i in (entry.hexes or (str(entry.hex),))):
            continue  # on another board, or across a seam between boards
        if entry.hexes is not None:
            a, b = (grid.hex(i) for i in entry.hexes)
        else:
            a = grid.hex(str(entry.hex))
            b = grid.neighbour(a, str(entry.direction))
        if not (grid.contains(a) or grid.contains(b)):
            continue
        names = set(entry.features)
        mark = style.crossing_mark
        crossing = any(kinds.get(n) == "across" and n not in style.marks for n in names) and any(
            kinds.get(n) == "along" for n in names)
        if mark is not None and mark in kinds and crossing:
            names.add(mark)
        out[grid.hexside(a, b)] = frozenset(names)
    return out


def printed_colours(data: MapData, style: RenderStyle) -> dict[str, tuple[RGB, ...]]:
    """Every colour each terrain is printed in: its fill, and its symbols' shade when textured.

    What a legend for the picture should list (a legend names all the
    colours a terrain shows, symbols included).
    """
    colours = _colours(data, style)
    out: dict[str, tuple[RGB, ...]] = {}
    for name in data.terrain_types:
        fill = colours[name]
        textured = style.textured and name != data.default_terrain
        out[name] = (fill, shade(fill, SYMBOL_SHADE)) if textured else (fill,)
    return out


def _colours(data: MapData, style: RenderStyle) -> dict[str, RGB]:
    names = list(data.terrain_types) + list(data.hexside_features)
    given = {n: t.color for n, t in data.terrain_types.items()}
    given |= {n: f.color for n, f in data.hexside_features.items()}
    out: dict[str, RGB] = {}
    for i, n in enumerate(names):
        text = style.palette.get(n) or given.get(n) or DEFAULT_PALETTE[i % len(DEFAULT_PALETTE)]
        out[n] = parse_hex_colour(text)
    return out


def _draw_features(painter: _Painter, sides: dict[Hexside, frozenset[str]],
                   kinds: Mapping[str, str], colours: Mapping[str, RGB],
                   style: RenderStyle) -> None:
    # Printed order: along features, then roads over them, then bridges on top.
    ordered = sorted(sides.items())
    for side, names in ordered:
        for n in sorted(names):
            if kinds.get(n) == "along" and n not in style.marks:
                painter.along(side, colours[n], wavy=n in style.wavy)
    for side, names in ordered:
        for n in sorted(names):
            if kinds.get(n) == "across" and n not in style.marks:
                painter.across(side, colours[n], dashed=n in style.dashed)
    for side, names in ordered:
        for n in sorted(names):
            if n in style.marks:
                painter.mark(side, colours[n])


class _Painter:
    """Pillow drawing in supersampled coordinates; positions are given in output pixels."""

    def __init__(self, grid: HexGrid, style: RenderStyle, width: int, height: int) -> None:
        self.grid, self.style = grid, style
        self.k = style.supersample
        self.size = (width, height)
        self.image = Image.new("RGB", (width * self.k, height * self.k),
                               parse_hex_colour(style.paper))
        self.draw = ImageDraw.Draw(self.image)
        self.rng = np.random.default_rng(style.seed)

    def ss(self, p: Point) -> Point:
        # Output pixel x covers [x - 0.5, x + 0.5], so x sits at sub-pixel
        # k * (x + 0.5) - 0.5. Pillow truncates coordinates to whole pixels; adding
        # 0.5 turns that into rounding, which is unbiased.
        return self.k * (p[0] + 0.5), self.k * (p[1] + 0.5)

    def px(self, fraction: float) -> int:
        """A width given as a fraction of the hex size, in supersampled pixels (>= 1)."""
        return max(1, round(fraction * self.style.hex_size * self.k))

    def fill(self, h: Hex, colour: RGB) -> None:
        self.draw.polygon([self.ss(c) for c in self.grid.corners(h)], fill=colour)

    def disc(self, centre: Point, radius: float, colour: RGB) -> None:
        x, y = self.ss(centre)
        r = radius * self.style.hex_size * self.k
        self.draw.ellipse([(x - r, y - r), (x + r, y + r)], fill=colour)

    def textures(self, hexes: Sequence[Hex], terrain: Mapping[Hex, list[str]],
                 colours: Mapping[str, RGB], default: str) -> None:
        plain = [n for n in colours if n != default]
        for h in hexes:
            main = terrain[h][0]
            if main == default or main not in plain:
                continue
            pattern = PATTERNS[plain.index(main) % len(PATTERNS)]
            corners = [self.ss(c) for c in self.grid.corners(h)]
            draw_texture(self.draw, pattern, corners, self.ss(self.grid.center(h)),
                         self.style.hex_size * self.k, colours[main], self.rng)

    def grid_lines(self) -> None:
        colour = parse_hex_colour(self.style.grid_color)
        width = self.px(self.style.grid_width)
        for side in self.grid.hexsides():
            a, b = self.grid.hexside_endpoints(side)
            if not self.style.grid_dashed:
                self.line([a, b], colour, width)
                continue
            for t0, t1 in ((0.0, 0.22), (0.39, 0.61), (0.78, 1.0)):
                self.line([_lerp(a, b, t0), _lerp(a, b, t1)], colour, width)

    def line(self, points: Sequence[Point], colour: RGB, width: int) -> None:
        self.draw.line([self.ss(p) for p in points], fill=colour, width=width, joint="curve")

    def along(self, side: Hexside, colour: RGB, *, wavy: bool) -> None:
        a, b = self.grid.hexside_endpoints(side)
        width = self.px(self.style.along_width)
        if not wavy:
            self.line([a, b], colour, width)
            return
        nx, ny = _unit_normal(a, b)
        amp = self.style.wave * self.style.hex_size
        pts = []
        for i in range(25):
            t = i / 24
            off = amp * math.sin(2 * math.pi * t)
            x, y = _lerp(a, b, t)
            pts.append((x + off * nx, y + off * ny))
        self.line(pts, colour, width)
        # Round ends so consecutive hexsides join without notches.
        for end in (a, b):
            self.disc(end, self.style.along_width / 2, colour)

    def _ends(self, side: Hexside) -> tuple[Point, Point]:
        """Centre to centre; at the map edge, centre to half a hex past the hexside."""
        ca, cb = self.grid.center(side.a), self.grid.center(side.b)
        if self.grid.contains(side.a) and self.grid.contains(side.b):
            return ca, cb
        inner, outer = (ca, cb) if self.grid.contains(side.a) else (cb, ca)
        return inner, _lerp(inner, outer, 0.75)

    def across(self, side: Hexside, colour: RGB, *, dashed: bool) -> None:
        a, b = self._ends(side)
        width = self.px(self.style.across_width)
        if not dashed:
            self.line([a, b], colour, width)
            for end in (a, b):
                self.disc(end, self.style.across_width / 2, colour)
            return
        steps = 7
        for i in range(steps):
            t0 = i / steps
            self.line([_lerp(a, b, t0), _lerp(a, b, t0 + 0.65 / steps)], colour, width)

    def mark(self, side: Hexside, colour: RGB) -> None:
        """A bridge: a bar across the hexside's middle, along the centre-to-centre line."""
        a, b = self.grid.hexside_endpoints(side)
        mid = _lerp(a, b, 0.5)
        ux, uy = _unit_normal(a, b)  # across the hexside
        vx, vy = -uy, ux  # along it
        s = self.style.hex_size
        half_len, half_wid = 0.16 * s, 0.09 * s
        pts = [(mid[0] + su * half_len * ux + sv * half_wid * vx,
                mid[1] + su * half_len * uy + sv * half_wid * vy)
               for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        self.draw.polygon([self.ss(p) for p in pts], fill=colour)

    def hex_id(self, h: Hex) -> None:
        s = self.style.hex_size
        font = ImageFont.load_default(size=max(4.0, 0.17 * s * self.k))
        x, y = self.grid.center(h)
        if self.grid.orientation is Orientation.FLAT:
            y -= 0.36 * s
        else:
            y -= 0.42 * s
        self.draw.text(self.ss((x, y)), self.grid.id(h), fill=parse_hex_colour(self.style.id_color),
                       font=font, anchor="mm")

    def finish(self) -> NDArray[np.uint8]:
        pixels = np.asarray(self.image, dtype=np.uint8)
        if self.k == 1:
            return pixels.copy()
        # INTER_AREA with an integer factor is the exact mean of each k x k block.
        small = cv2.resize(pixels, self.size, interpolation=cv2.INTER_AREA)
        return np.ascontiguousarray(small, dtype=np.uint8)


def _lerp(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def _unit_normal(a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    return -dy / n, dx / n
