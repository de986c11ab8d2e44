"""The map for printing: each board drawn at true scale and split over Letter or A4 pages.

A board is drawn plainly with Pillow from ``map.json`` (hex fills in the
terrain colours, the grid, the hex ids), at a hex size given in inches across
the flats (the printed maps' size is not in the data; 5/8 inch is the common
one). The picture is then cut into tiles the size of a page's printable area;
neighbouring tiles share ``overlap`` inches, and marks in the margins show where
the next tile's edge goes, so the sheets can be trimmed and taped together.

>>> from pipeline.aids.maptiles import plan_tiles
>>> [t.box for t in plan_tiles(1000, 500, tile=(600, 600), overlap=100)]
[(0, 0, 600, 500), (500, 0, 1000, 500)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from pipeline.aids.page import BLACK, Line, Page, Picture, Text, paper_points
from pipeline.aids.tec import parse_colour
from pipeline.counters.typeset import font
from pipeline.errors import DataError
from pipeline.hexgrid import Hex, HexGrid, Layout, Orientation
from pipeline.model.mapdata import MapData

__all__ = ["DEFAULT_HEX_SIZE", "Tile", "map_tile_pages", "plan_tiles", "render_board",
           "tile_image"]

DEFAULT_HEX_SIZE = 0.625
"""Hex width across the flats in inches when neither the data nor the caller gives one."""
SQRT3_2 = math.sqrt(3) / 2
PAPER = (255, 255, 255)
GRID_COLOUR = (40, 40, 40)
FALLBACK = (230, 230, 230)


@dataclass(frozen=True)
class Tile:
    """One page's piece of a board: its place in the tile grid and its pixel box."""

    row: int
    col: int
    box: tuple[int, int, int, int]
    """``(left, top, right, bottom)`` in the board image's pixels."""


def render_board(data: MapData, board: str, hex_size: float = DEFAULT_HEX_SIZE,
                 dpi: float = 150.0, *, ids: bool = True) -> Image.Image:
    """A board of ``data`` drawn at ``hex_size`` inches across the flats and ``dpi``.

    Parameters
    ----------
    data
        The map (:func:`pipeline.model.load_map`).
    board
        A board name; an unknown one raises :class:`DataError`.
    hex_size, dpi
        Hex width across the flats in inches, and pixels per inch of the image.
    ids
        Print each hex's id near its top.
    """
    grids = data.grids()
    if board not in grids:
        raise DataError(None, "boards", f"no board '{board}' (boards: {', '.join(grids)})")
    if not (hex_size > 0 and dpi > 0):
        raise DataError(None, "--hex-size", "hex size and dpi must be positive")
    grid = grids[board]
    s = hex_size * dpi
    dx, dy = (s * SQRT3_2, s) if grid.orientation is Orientation.FLAT else (s, s * SQRT3_2)
    hexes = grid.hexes()
    probe = Layout(dx=dx, dy=dy)
    corners = [c for h in hexes for c in probe.corners(h, grid.orientation)]
    margin = s * 0.25
    x0 = margin - min(c[0] for c in corners)
    y0 = margin - min(c[1] for c in corners)
    width = math.ceil(max(c[0] for c in corners) + x0 + margin)
    height = math.ceil(max(c[1] for c in corners) + y0 + margin)
    layout = Layout(dx=dx, dy=dy, x0=x0, y0=y0)
    colours = {name: parse_colour(kind.color) or FALLBACK
               for name, kind in data.terrain_types.items()}
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    line = max(1, round(s * 0.03))
    face = font("condensed", max(6, round(s * 0.16)))
    for h in hexes:
        _draw_hex(draw, grid, layout, h, colours, data, line)
    if ids:
        for h in hexes:
            cx, cy = layout.center(h, grid.orientation)
            draw.text((cx, cy - s * 0.3), grid.id(h), fill=BLACK, font=face, anchor="mm")
    return image


def _draw_hex(draw: ImageDraw.ImageDraw, grid: HexGrid, layout: Layout, h: Hex,
              colours: dict[str, tuple[int, int, int]], data: MapData, line: int) -> None:
    terrain = data.terrain_of(grid.id(h))
    fill = colours.get(terrain[0], FALLBACK)
    points = layout.corners(h, grid.orientation)
    draw.polygon(points, fill=fill, outline=GRID_COLOUR, width=line)
    if len(terrain) > 1:
        cx, cy = layout.center(h, grid.orientation)
        r = layout.dy * 0.15
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colours.get(terrain[1], FALLBACK),
                     outline=GRID_COLOUR)


def plan_tiles(width: int, height: int, *, tile: tuple[int, int], overlap: int) -> list[Tile]:
    """Cut a ``width`` x ``height`` image into tiles of at most ``tile`` pixels that share
    ``overlap`` pixels with their neighbours, row by row.

    >>> [(t.row, t.col) for t in plan_tiles(900, 900, tile=(500, 500), overlap=100)]
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    tw, th = tile
    if overlap * 2 >= min(tw, th):
        raise DataError(None, "--overlap", "the overlap must be less than half a page")
    step_x, step_y = tw - overlap, th - overlap
    cols = max(1, math.ceil((width - overlap) / step_x))
    rows = max(1, math.ceil((height - overlap) / step_y))
    return [Tile(r, c, (c * step_x, r * step_y, min(width, c * step_x + tw),
                        min(height, r * step_y + th)))
            for r in range(rows) for c in range(cols)]


def tile_image(image: Image.Image, tile: Tile) -> Image.Image:
    """The pixels of one tile."""
    return image.crop(tile.box)


def map_tile_pages(data: MapData, paper: str = "letter", *, hex_size: float = DEFAULT_HEX_SIZE,
                   dpi: float = 150.0, margin: float = 0.5, overlap: float = 0.5
                   ) -> tuple[list[Page], dict[str, Image.Image]]:
    """Every board at true scale, tiled over portrait pages of ``paper``.

    Returns the pages and each board's whole image (for the chart window).
    Lengths are in inches; the image on a page is printed at exactly ``dpi``
    pixels an inch, so a hex measures ``hex_size`` on paper.
    """
    width_pt, height_pt = paper_points(paper)
    tile = (int((width_pt / 72 - 2 * margin) * dpi), int((height_pt / 72 - 2 * margin) * dpi))
    pages: list[Page] = []
    images: dict[str, Image.Image] = {}
    for board in data.grids():
        image = render_board(data, board, hex_size, dpi)
        images[board] = image
        tiles = plan_tiles(image.width, image.height, tile=tile, overlap=round(overlap * dpi))
        rows = 1 + max(t.row for t in tiles)
        cols = 1 + max(t.col for t in tiles)
        for t in tiles:
            pages.append(_tile_page(image, t, (width_pt, height_pt), margin * 72, dpi,
                                    overlap * 72, f"{data.game} board {board}: sheet"
                                    f" {t.row + 1}-{t.col + 1} (row-column) of {rows}x{cols};"
                                    f" hexes {hex_size:g} in; overlap {overlap:g} in",
                                    last=(t.row == rows - 1, t.col == cols - 1)))
    return pages, images


def _tile_page(image: Image.Image, tile: Tile, size: tuple[float, float], margin: float,
               dpi: float, overlap: float, caption: str, last: tuple[bool, bool]) -> Page:
    page = Page(*size)
    piece = tile_image(image, tile)
    w, h = piece.width * 72 / dpi, piece.height * 72 / dpi
    page.items.append(Picture(margin, margin, w, h, piece))
    page.items.append(Text(margin, margin - 8, caption, 7))
    tick = margin * 0.6
    # Alignment marks in the margins: where this tile's overlap with the next one starts.
    # Lay the next sheet's picture edge on these lines.
    if not last[1]:
        x = margin + w - overlap
        page.items.append(Line(x, margin - tick, x, margin, BLACK, 0.5))
        page.items.append(Line(x, margin + h, x, margin + h + tick, BLACK, 0.5))
    if not last[0]:
        y = margin + h - overlap
        page.items.append(Line(margin - tick, y, margin, y, BLACK, 0.5))
        page.items.append(Line(margin + w, y, margin + w + tick, y, BLACK, 0.5))
    # Corner crosses at the picture's corners, to trim and align on.
    for cx, cy in ((margin, margin), (margin + w, margin), (margin, margin + h),
                   (margin + w, margin + h)):
        page.items.append(Line(cx - 6, cy, cx + 6, cy, BLACK, 0.3))
        page.items.append(Line(cx, cy - 6, cx, cy + 6, BLACK, 0.3))
    return page
