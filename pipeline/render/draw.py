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

import numpy as np
import shapely
from numpy.typing import NDArray
from PIL import ImageFont
from shapely.geometry.base import BaseGeometry

from pipeline.counters.typeset import font
from pipeline.errors import DataError
from pipeline.hexgrid import Hex, HexGrid, Hexside, Layout, Orientation
from pipeline.model import MapData
from pipeline.render.canvas import Canvas
from pipeline.render.halftone import halftone
from pipeline.render.icons import ICONS, INK, SYMBOLS, draw_symbol, icon_for
from pipeline.render.labels import Label, draw_label, invent_names
from pipeline.render.looks import (
    LOOKS,
    RIM_SHADE,
    WAVE_SHADE,
    Palette,
    ground_colour,
    paint_grounds,
    paint_marks,
)
from pipeline.render.regions import REGION_COLOURS, paint_realms, realms
from pipeline.render.sheet import Box, Sheet, SheetPlan, paint_frame, paint_sheet, plan_sheet
from pipeline.render.terrain import TerrainLayers, terrain_layers
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

#: Used for terrain and features that the map gives no colour; distinct in Lab.
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
        Seed of every random placement (textures, icons, dots, realms, names).
    looks
        How each terrain is printed, by name: one of
        :data:`pipeline.render.looks.LOOKS` (``fill``, ``region``, ``icon``,
        ``waves``, ``stipple``, ``rounded``); terrains not named are ``fill``.
    icons
        The icon of each ``icon`` terrain (one of :data:`pipeline.render.icons.ICONS`);
        by default chosen from the terrain's name.
    regions
        Number of political realms coloured under ``region`` and ``icon``
        terrains (0: those terrains get their own colour).
    stipple_ink
        Share of a ``stipple`` terrain's area its dots cover.
    rounding
        Corner radius of ``rounded`` terrains.
    halftone
        Print every colour as CMYK dot screens of this period in pixels
        (``None``: continuous tone).
    symbols
        Hex features drawn as a symbol on the hex centre, by name: one of
        :data:`pipeline.render.icons.SYMBOLS` (``castle``, ``ring``, ``square``);
        features not named are not drawn.
    feature_names
        Print an invented name beside each hex feature's symbol.
    place_names
        Invented place names scattered over the field (distractors).
    ticked
        Across features drawn with cross ticks (railways).
    id_position
        ``"top"`` or ``"bottom"`` of the hex, where ids are printed.
    sheet
        What the sheet prints around the field (:class:`~pipeline.render.sheet.Sheet`:
        key, title, turn track, frame, edge to edge); ``None``: the field and a margin.
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
    looks: Mapping[str, str] = field(default_factory=dict)
    icons: Mapping[str, str] = field(default_factory=dict)
    regions: int = 7
    stipple_ink: float = 0.25
    rounding: float = 0.2
    halftone: float | None = None
    symbols: Mapping[str, str] = field(default_factory=dict)
    feature_names: bool = False
    place_names: int = 0
    ticked: frozenset[str] = frozenset()
    id_position: str = "top"
    sheet: Sheet | None = None

    def __post_init__(self) -> None:
        if not (self.hex_size >= 4 and math.isfinite(self.hex_size)):
            raise ValueError(f"hex_size must be at least 4 px, got {self.hex_size}")
        if self.supersample < 1:
            raise ValueError(f"supersample must be 1 or more, got {self.supersample}")
        for name, look in self.looks.items():
            if look not in LOOKS:
                raise ValueError(f"look of {name!r} is {look!r}: one of {', '.join(LOOKS)}")
        for name, icon in self.icons.items():
            if icon not in ICONS:
                raise ValueError(f"icon of {name!r} is {icon!r}: one of {', '.join(ICONS)}")
        for name, symbol in self.symbols.items():
            if symbol not in SYMBOLS:
                raise ValueError(f"symbol of {name!r} is {symbol!r}: one of "
                                 f"{', '.join(SYMBOLS)}")
        if not 0 < self.stipple_ink < 0.6:
            raise ValueError(f"stipple_ink must be between 0 and 0.6, got {self.stipple_ink}")
        if not 0 <= self.rounding < 0.45:
            raise ValueError(f"rounding must be between 0 and 0.45, got {self.rounding}")
        if self.halftone is not None and not self.halftone >= 2:
            raise ValueError(f"halftone period must be at least 2 px, got {self.halftone}")
        if self.id_position not in ("top", "bottom"):
            raise ValueError(f"id_position must be 'top' or 'bottom', got {self.id_position!r}")
        if self.regions < 0 or self.place_names < 0:
            raise ValueError("regions and place_names must not be negative")

    @property
    def classic(self) -> bool:
        """Whether the terrain is drawn the original way (flat fills, optional textures)."""
        return self.sheet is None and all(look == "fill" for look in self.looks.values())


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
    terrain
        Each hex's terrain as drawn, main first (the main terrain covers the
        hex centre; later ones are discs on it).
    shares
        Each hex's exact area share per terrain, over its visible part (sums to 1).
    visible
        Share of each hex inside the printed field (below 1 where a frame cuts it).
    hex_features
        The hex features drawn as symbols, by hex (one symbol a hex: the first
        of its features that the style gives a symbol).
    labels
        Printed words that are not ids (names, titles, key and track text).
    key
        Box ``(x, y, width, height)`` of each terrain's swatch in the printed key.
    panels
        Box of each printed part that is not the map (``title``, ``key``,
        ``effects``, ``track``).
    field_box
        ``(x0, y0, x1, y1)`` of the printed hex field inside any frame (``None``:
        the whole image).
    """

    image: NDArray[np.uint8]
    grid: HexGrid
    hexsides: dict[Hexside, frozenset[str]]
    terrain: dict[Hex, tuple[str, ...]] = field(default_factory=dict)
    shares: dict[Hex, dict[str, float]] = field(default_factory=dict)
    visible: dict[Hex, float] = field(default_factory=dict)
    hex_features: dict[Hex, frozenset[str]] = field(default_factory=dict)
    labels: tuple[Label, ...] = ()
    key: dict[str, Box] = field(default_factory=dict)
    panels: dict[str, Box] = field(default_factory=dict)
    field_box: tuple[float, float, float, float] | None = None


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
        The image, the grid with its layout, and what was drawn: the features
        per hexside, the terrain shares per hex, the hex features, the labels
        and the sheet's parts.

    Examples
    --------
    >>> from pipeline.render import sample_map
    >>> r = render_map(sample_map("flat", 6, 5, seed=1), RenderStyle(hex_size=30.0))
    >>> r.image.shape, round(sum(r.shares[r.grid.hex("0303")].values()), 6)
    ((213, 213, 3), 1.0)
    """
    style = style or RenderStyle()
    grids = data.grids()
    joined = data.joined_grid() if board is None else None
    name = board if board is not None else next(iter(grids))
    if name not in grids:
        raise DataError(None, "board", f"no board named {name!r} (boards: {', '.join(grids)})")
    plain = joined if joined is not None else grids[name]
    symbols = {n: style.symbols[n] for n in data.hex_features if n in style.symbols}
    plan: SheetPlan | None = None
    if style.sheet is None:
        layout, width, height = board_layout(plain, style)
    else:
        plan = plan_sheet(plain, style.hex_size, style.margin, style.sheet,
                          list(data.terrain_types), len(data.hexside_features) + len(symbols))
        layout, width, height = plan.layout, plan.width, plan.height
    grid = dataclasses.replace(plain, layout=layout)
    painter = _Painter(grid, style, width, height)
    colours = _colours(data, style)
    hexes = grid.hexes()
    terrain = {h: data.terrain_of(grid.id(h)) for h in hexes}
    palette = _palette(data, style, colours)
    layers = terrain_layers(
        grid, terrain, disc_radius=style.symbol_radius * style.hex_size,
        rounded=frozenset(n for n in data.terrain_types if palette.look(n) == "rounded"),
        rounding=style.rounding * style.hex_size, default=data.default_terrain,
        field=None if plan is None else shapely.box(*plan.field))
    extra = _beyond(grid, plan, style)
    labels: list[Label] = []
    if style.classic:
        for h in hexes:
            painter.fill(h, colours[terrain[h][0]])
        if style.textured:
            painter.textures(hexes, terrain, colours, data.default_terrain)
        for h in hexes:
            for second in terrain[h][1:]:
                painter.dot(grid.center(h), style.symbol_radius, colours[second])
    else:
        labels += _paint_terrain(painter, grid, layers, palette, extra, plan, style)
    painter.grid_lines(extra)
    sides = drawn_hexsides(data, grid, style)
    kinds = {n: f.kind for n, f in data.hexside_features.items()}
    _draw_features(painter, sides, kinds, colours, style)
    features = _hex_features(data, grid, symbols)
    labels += _draw_symbols(painter, features, symbols, style)
    if style.ids:
        for h in hexes:
            painter.hex_id(h)
    key: dict[str, Box] = {}
    if plan is not None and style.sheet is not None:
        paint_frame(painter, plan, style.sheet, parse_hex_colour(style.paper),
                    parse_hex_colour(style.sheet.frame_color))
        line_colours = {n: (f.kind, colours[n]) for n, f in data.hexside_features.items()}
        more, key = paint_sheet(painter, plan, style.sheet, grid, palette, line_colours, symbols,
                                painter.key_line, _rng(style, 5))
        labels += more
    if style.halftone is not None:
        painter.replace(halftone(painter.pixels(), style.halftone * painter.k))
    return Rendered(painter.finish(), grid, sides,
                    terrain={h: tuple(terrain[h]) for h in hexes}, shares=layers.shares,
                    visible=layers.visible, hex_features=features, labels=tuple(labels),
                    key=key, panels=dict(plan.panels) if plan is not None else {},
                    field_box=plan.field if plan is not None else None)


def _rng(style: RenderStyle, stream: int) -> np.random.Generator:
    """One seeded stream per concern, so adding names does not move the icons."""
    return np.random.default_rng([style.seed, stream])


def _palette(data: MapData, style: RenderStyle, colours: Mapping[str, RGB]) -> Palette:
    looks = {n: style.looks.get(n, "fill") for n in data.terrain_types}
    icons = {n: style.icons.get(n) or icon_for(n, i)
             for i, n in enumerate(data.terrain_types) if looks[n] == "icon"}
    realm = style.regions > 0 and any(v in ("region", "icon") for v in looks.values())
    return Palette(colours, looks, icons, data.default_terrain, realm, style.textured,
                   style.stipple_ink, style.rounding)


def _beyond(grid: HexGrid, plan: SheetPlan | None, style: RenderStyle) -> list[Hex]:
    """Lattice hexes past the map that an edge-to-edge field shows in part."""
    if plan is None or style.sheet is None or not style.sheet.edge_to_edge:
        return []
    return [h for h in grid.hexes_in(plan.outer, min_fraction=1e-6) if not grid.contains(h)]


def _paint_terrain(painter: _Painter, grid: HexGrid, layers: TerrainLayers, palette: Palette,
                   extra: Sequence[Hex], plan: SheetPlan | None, style: RenderStyle
                   ) -> list[Label]:
    labels: list[Label] = []
    if palette.realms:
        box = plan.outer if plan is not None else (-0.5, -0.5, painter.size[0] - 0.5,
                                                   painter.size[1] - 0.5)
        rng = _rng(style, 1)
        found = realms(box, style.regions, style.hex_size,
                       [n.upper() for n in invent_names(rng, style.regions)], rng)
        paint_realms(painter, found, box)
    paint_grounds(painter, grid, layers, palette, extra)
    paint_marks(painter, grid, layers, palette, _rng(style, 2))
    if palette.realms:
        # Realm names are printed over everything in the realms, blended.
        realm_hexes = [h for h, t in layers.ground.items() if palette.look(t) in ("region", "icon")]
        shown = shapely.union_all(grid.polygons(realm_hexes)) if realm_hexes else None
        taken: list[BaseGeometry] = []
        size = 0.55 * style.hex_size
        for realm in found:
            spot = realm.outline.intersection(shown) if shown is not None else realm.outline
            inner = spot.buffer(-style.hex_size)
            if inner.is_empty:
                continue
            p = inner.point_on_surface()
            half = 0.5 * (font("bold", 100).getlength(realm.name) / 100 * size
                          + 0.6 * size * (len(realm.name) - 1))
            where = shapely.box(p.x - half, p.y - size, p.x + half, p.y + size)
            if any(where.intersects(t) for t in taken):
                continue  # names of neighbouring realms would run into each other
            taken.append(where)
            labels.append(draw_label(painter, realm.name, (p.x, p.y), size, (150, 60, 50),
                                     kind="realm", tracking=0.6, alpha=0.5, anchor="mm",
                                     face="bold"))
    return labels


def _hex_features(data: MapData, grid: HexGrid, symbols: Mapping[str, str]
                  ) -> dict[Hex, frozenset[str]]:
    """The hex features that get a symbol: one a hex (the first that has a symbol)."""
    out: dict[Hex, frozenset[str]] = {}
    for hex_id, entry in sorted(data.hexes.items()):
        drawn = [n for n in entry.features if n in symbols]
        if drawn and grid.has_id(hex_id):
            out[grid.hex(hex_id)] = frozenset(drawn[:1])
    return out


def _draw_symbols(painter: _Painter, features: Mapping[Hex, frozenset[str]],
                  symbols: Mapping[str, str], style: RenderStyle) -> list[Label]:
    """Each hex feature's symbol on its hex centre, its name beside it; then place names."""
    labels: list[Label] = []
    grid, s = painter.grid, style.hex_size
    rng = _rng(style, 3)
    names = invent_names(rng, len(features) + style.place_names)
    for (h, drawn), name in zip(sorted(features.items()), names, strict=False):
        x, y = grid.center(h)
        draw_symbol(painter, symbols[next(iter(drawn))], (x, y))
        if style.feature_names:
            labels.append(draw_label(painter, name, (x + 0.2 * s, y + 0.2 * s), 0.24 * s, INK,
                                     kind="name", italic=True))
    hexes = grid.hexes()
    spots = rng.choice(len(hexes), min(style.place_names, len(hexes)), replace=False)
    for i, name in zip(spots, names[len(features):], strict=False):
        x, y = grid.center(hexes[int(i)])
        labels.append(draw_label(painter, name, (x, y + 0.05 * s), 0.26 * s, (70, 50, 40),
                                 kind="place", italic=True, anchor="mm"))
    return labels


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
    colours a terrain shows, symbols included). By look: ``icon`` terrains are
    black ink over the realm colours (or over their own colour without
    realms), ``region`` terrains the realm colours, ``stipple`` their dots
    and the ground between them, ``waves`` and ``rounded`` their fill and its
    darker marks or rim. Under ``halftone`` these are the colours' means:
    no single pixel has them.

    >>> from pipeline.render import sample_map
    >>> m = sample_map("flat", 4, 4, seed=0)
    >>> printed_colours(m, RenderStyle(looks={"marsh": "stipple"}))["marsh"]
    ((143, 181, 168), (235, 230, 196))
    """
    colours = _colours(data, style)
    palette = _palette(data, style, colours)
    realm_colours = REGION_COLOURS[:max(1, min(style.regions, len(REGION_COLOURS)))]
    out: dict[str, tuple[RGB, ...]] = {}
    for name in data.terrain_types:
        fill = colours[name]
        look = palette.look(name)
        if look == "fill":
            textured = style.textured and name != data.default_terrain
            out[name] = (fill, shade(fill, SYMBOL_SHADE)) if textured else (fill,)
        elif look in ("region", "icon"):
            ground = realm_colours if palette.realms else (fill,)
            out[name] = (INK, *ground) if look == "icon" else ground
        elif look == "stipple":
            under = ground_colour(palette, name)
            out[name] = (fill,) if under is None or under == fill else (fill, under)
        else:
            out[name] = (fill, shade(fill, WAVE_SHADE if look == "waves" else RIM_SHADE))
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
                painter.across(side, colours[n], dashed=n in style.dashed,
                               ticked=n in style.ticked)
    for side, names in ordered:
        for n in sorted(names):
            if n in style.marks:
                painter.mark(side, colours[n])


class _Painter(Canvas):
    """The map's drawing: a :class:`Canvas` that knows the grid and the style."""

    def __init__(self, grid: HexGrid, style: RenderStyle, width: int, height: int) -> None:
        super().__init__(width, height, style.supersample, parse_hex_colour(style.paper),
                         style.hex_size)
        self.grid, self.style = grid, style
        self.rng = np.random.default_rng(style.seed)

    def fill(self, h: Hex, colour: RGB) -> None:
        self.draw.polygon([self.ss(c) for c in self.grid.corners(h)], fill=colour)

    def dot(self, centre: Point, radius: float, colour: RGB) -> None:
        """A disc whose radius is a fraction of the hex size."""
        self.disc(centre, radius * self.style.hex_size, colour)

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

    def grid_lines(self, extra: Sequence[Hex] = ()) -> None:
        colour = parse_hex_colour(self.style.grid_color)
        width = self.px(self.style.grid_width)
        ends = [self.grid.hexside_endpoints(side) for side in self.grid.hexsides()]
        for h in extra:  # partial hexes past an edge-to-edge map's outline
            c = self.grid.corners(h)
            ends += [(c[i], c[(i + 1) % 6]) for i in range(6)]
        for a, b in ends:
            if not self.style.grid_dashed:
                self.line([a, b], colour, width)
                continue
            for t0, t1 in ((0.0, 0.22), (0.39, 0.61), (0.78, 1.0)):
                self.line([_lerp(a, b, t0), _lerp(a, b, t1)], colour, width)

    def along(self, side: Hexside, colour: RGB, *, wavy: bool) -> None:
        a, b = self.grid.hexside_endpoints(side)
        self.along_line(a, b, colour, wavy=wavy)

    def along_line(self, a: Point, b: Point, colour: RGB, *, wavy: bool) -> None:
        """A feature drawn along the segment ``a``-``b`` (a hexside)."""
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
            self.dot(end, self.style.along_width / 2, colour)

    def _ends(self, side: Hexside) -> tuple[Point, Point]:
        """Centre to centre; at the map edge, centre to half a hex past the hexside."""
        ca, cb = self.grid.center(side.a), self.grid.center(side.b)
        if self.grid.contains(side.a) and self.grid.contains(side.b):
            return ca, cb
        inner, outer = (ca, cb) if self.grid.contains(side.a) else (cb, ca)
        return inner, _lerp(inner, outer, 0.75)

    def across(self, side: Hexside, colour: RGB, *, dashed: bool, ticked: bool = False
               ) -> None:
        a, b = self._ends(side)
        self.across_line(a, b, colour, dashed=dashed, ticked=ticked)

    def across_line(self, a: Point, b: Point, colour: RGB, *, dashed: bool,
                    ticked: bool = False) -> None:
        """A feature drawn from ``a`` to ``b`` (centre to centre)."""
        width = self.px(self.style.across_width)
        if ticked:
            self._ticks(a, b, colour)
        if not dashed:
            self.line([a, b], colour, width)
            for end in (a, b):
                self.dot(end, self.style.across_width / 2, colour)
            return
        steps = 7
        for i in range(steps):
            t0 = i / steps
            self.line([_lerp(a, b, t0), _lerp(a, b, t0 + 0.65 / steps)], colour, width)

    def _ticks(self, a: Point, b: Point, colour: RGB) -> None:
        """Cross ticks every fifth of the way, as railways are printed."""
        nx, ny = _unit_normal(a, b)
        half = 0.09 * self.style.hex_size
        for t in (0.1, 0.3, 0.5, 0.7, 0.9):
            x, y = _lerp(a, b, t)
            self.line([(x - half * nx, y - half * ny), (x + half * nx, y + half * ny)], colour,
                      self.px(0.025))

    def mark(self, side: Hexside, colour: RGB) -> None:
        """A bridge: a bar across the hexside's middle, along the centre-to-centre line."""
        a, b = self.grid.hexside_endpoints(side)
        self.mark_on(a, b, colour)

    def mark_on(self, a: Point, b: Point, colour: RGB) -> None:
        """A bar across the middle of the segment ``a``-``b`` (a hexside)."""
        mid = _lerp(a, b, 0.5)
        ux, uy = _unit_normal(a, b)  # across the hexside
        vx, vy = -uy, ux  # along it
        s = self.style.hex_size
        half_len, half_wid = 0.16 * s, 0.09 * s
        pts = [(mid[0] + su * half_len * ux + sv * half_wid * vx,
                mid[1] + su * half_len * uy + sv * half_wid * vy)
               for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        self.draw.polygon([self.ss(p) for p in pts], fill=colour)

    def key_line(self, name: str, kind: str, colour: RGB, a: Point, b: Point) -> None:
        """A hexside feature as the key shows it: a short horizontal piece of it."""
        style = self.style
        if name in style.marks:
            mid = _lerp(a, b, 0.5)
            half = 0.3 * style.hex_size
            self.mark_on((mid[0], mid[1] - half), (mid[0], mid[1] + half), colour)
        elif kind == "along":
            self.along_line(a, b, colour, wavy=name in style.wavy)
        else:
            self.across_line(a, b, colour, dashed=name in style.dashed,
                             ticked=name in style.ticked)

    def hex_id(self, h: Hex) -> None:
        s = self.style.hex_size
        font = ImageFont.load_default(size=max(4.0, 0.17 * s * self.k))
        x, y = self.grid.center(h)
        up = 0.36 * s if self.grid.orientation is Orientation.FLAT else 0.42 * s
        y += up if self.style.id_position == "bottom" else -up
        self.draw.text(self.ss((x, y)), self.grid.id(h), fill=parse_hex_colour(self.style.id_color),
                       font=font, anchor="mm")


def _lerp(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def _unit_normal(a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    return -dy / n, dx / n
