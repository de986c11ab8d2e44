"""The map for printing: each board drawn at true scale and split over Letter or A4 pages.

A board is drawn from ``map.json`` (hex fills in the terrain colours, the
grid, the hexside features, the hex ids), at a hex size given in inches across
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

from PIL import Image

from pipeline.aids.page import BLACK, Line, Page, Picture, Text, paper_points
from pipeline.errors import DataError
from pipeline.imagefile import max_pixels
from pipeline.model.mapdata import MapData
from pipeline.render import RenderStyle, render_map

__all__ = ["DEFAULT_HEX_SIZE", "Tile", "map_tile_pages", "plan_tiles", "render_board",
           "tile_image"]

DEFAULT_HEX_SIZE = 0.625
"""Hex width across the flats in inches when neither the data nor the caller gives one."""


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

    The board is drawn by :func:`pipeline.render.render_map`, the same drawing the
    digitizer's bench uses: terrain fills, second terrains as discs, the grid, and
    the hexside features (rivers, roads, bars, bridges) in the map's colours.

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
    s = hex_size * dpi
    grid = grids[board]
    # A hex covers 0.866 s x s; the board is drawn supersampled twice, with margins.
    drawn = (grid.cols + 1.5) * (grid.rows + 1.5) * 0.866 * (2 * max(4.0, s)) ** 2
    if drawn > max_pixels():
        raise DataError(None, "--map-dpi", f"board '{board}' ({grid.cols} x {grid.rows} hexes)"
                        f" would be drawn on about {drawn / 1e6:,.0f} million pixels at"
                        f" {hex_size:g} in and {dpi:g} dpi, over the limit of"
                        f" {max_pixels():,}; lower --map-dpi or --hex-size")
    style = RenderStyle(hex_size=max(4.0, s), margin=s * 0.25, ids=ids, supersample=2,
                        grid_color="#282828")
    return Image.fromarray(render_map(data, style, board).image)


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
