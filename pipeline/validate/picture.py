"""A plain picture of a map for the validation report: terrain colours, features, grid.

Drawn with Pillow from the map data and each board's layout; a board without
a layout gets a default one, and boards are stacked top to bottom. The
picture is for finding places, not for print: the map renderer
(:mod:`pipeline.render`) makes the real map image. Besides the PNG bytes,
:class:`Picture` keeps every hex's outline in picture pixels, so the report
can lay clickable shapes over the image.
"""

from __future__ import annotations

import hashlib
import io
import math
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image, ImageDraw

from pipeline.hexgrid import HexGrid, Layout, Orientation
from pipeline.model import MapData
from pipeline.validate.sides import SideKey, feature_sides

__all__ = ["DEFAULT_PITCH", "SCAN_WIDTH", "Picture", "ScanView", "draw_map", "draw_scan"]

Point = tuple[float, float]
DEFAULT_PITCH = 28.0  # pixels between column centres: ids stay legible, Cobra fits a screen
_MARGIN = 12.0
_GAP = 24.0  # between stacked boards
SCAN_WIDTH = 1600  # the scan in the report: wide enough for hex ids, light enough for a page
_CROP = 132  # a finding's crop of the scan, in pixels across


@dataclass(frozen=True)
class Picture:
    """The picture's PNG bytes, its size, and each hex's outline and centre in pixels."""

    png: bytes
    width: int
    height: int
    outlines: dict[str, list[Point]]
    centres: dict[str, Point]
    mime: str = "image/png"


def _default_layout(grid: HexGrid) -> Layout:
    side = DEFAULT_PITCH / 1.5  # flat-top: column pitch is 1.5 edge lengths
    if grid.orientation is Orientation.FLAT:
        return Layout(dx=DEFAULT_PITCH, dy=side * math.sqrt(3), x0=side, y0=side * 0.9)
    return Layout(dx=side * math.sqrt(3), dy=DEFAULT_PITCH, x0=side * 0.9, y0=side)


def _scaled(grid: HexGrid) -> HexGrid:
    """The grid with its own layout scaled to the default pitch, or a default layout."""
    lay = grid.layout
    if lay is None:
        return replace(grid, layout=_default_layout(grid))
    k = DEFAULT_PITCH / max(lay.dx, lay.dy)
    return replace(grid, layout=Layout(dx=lay.dx * k, dy=lay.dy * k, x0=lay.x0 * k,
                                       y0=lay.y0 * k, rotation=lay.rotation))


def _fallback_colour(name: str) -> str:
    # A stable colour for names the map gives none, so pictures stay deterministic.
    digest = hashlib.sha256(name.encode()).digest()
    return "#" + "".join(f"{128 + b % 112:02x}" for b in digest[:3])


def _colour(the_map: MapData, name: str) -> str:
    colours = {n: t.color for n, t in the_map.terrain_types.items()}
    colours |= {n: t.color for n, t in the_map.hexside_features.items()}
    colours |= {n: t.color for n, t in the_map.hex_features.items()}
    return colours.get(name) or _fallback_colour(name)


def _geometry(the_map: MapData) -> tuple[dict[str, list[Point]], dict[str, Point], float, float]:
    outlines: dict[str, list[Point]] = {}
    centres: dict[str, Point] = {}
    top, width = _MARGIN, 0.0
    for grid in the_map.grids().values():
        g = _scaled(grid)
        hexes = g.hexes()
        corners = {g.id(h): g.corners(h) for h in hexes}
        xs = [x for pts in corners.values() for x, _ in pts]
        ys = [y for pts in corners.values() for _, y in pts]
        dx, dy = _MARGIN - min(xs), top - min(ys)
        for h in hexes:
            hex_id = g.id(h)
            outlines[hex_id] = [(x + dx, y + dy) for x, y in corners[hex_id]]
            cx, cy = g.center(h)
            centres[hex_id] = (cx + dx, cy + dy)
        width = max(width, max(xs) - min(xs) + 2 * _MARGIN)
        top += max(ys) - min(ys) + _GAP
    return outlines, centres, width, top - _GAP + _MARGIN


def _shared_edge(a: list[Point], b: list[Point]) -> tuple[Point, Point] | None:
    near = [p for p in a if any(math.dist(p, q) < 0.5 for q in b)]
    return (near[0], near[1]) if len(near) == 2 else None


def _side_points(key: SideKey, outlines: dict[str, list[Point]],
                 centres: dict[str, Point]) -> tuple[Point, Point, Point, Point] | None:
    """(edge start, edge end, centre a, centre b) of a hexside, in picture pixels."""
    a = key[0]
    if a not in outlines:
        return None
    if key[1] in outlines:
        edge = _shared_edge(outlines[a], outlines[key[1]])
        if edge is None:
            return None
        return (*edge, centres[a], centres[key[1]])
    return None  # a map-edge hexside: its finding is drawn on its hex


def draw_map(the_map: MapData) -> Picture:
    """Draw a map: terrain fills, second terrain as an inner hexagon, hexside features, grid.

    Examples
    --------
    >>> from pipeline.model import GameFolder
    >>> from pathlib import Path
    >>> demo = GameFolder(Path(__file__).resolve().parents[2] / "maps" / "demo").map_data()
    >>> pic = draw_map(demo)
    >>> pic.png[:4], len(pic.outlines), pic.width > 600
    (b'\\x89PNG', 550, True)
    """
    outlines, centres, width, height = _geometry(the_map)
    image = Image.new("RGB", (math.ceil(width), math.ceil(height)), "white")
    pen = ImageDraw.Draw(image)
    for hex_id, pts in outlines.items():
        terrain = the_map.terrain_of(hex_id)
        pen.polygon(pts, fill=_colour(the_map, terrain[0]), outline="#9a9a9a")
        for extra in terrain[1:]:
            cx, cy = centres[hex_id]
            inner = [(cx + (x - cx) * 0.45, cy + (y - cy) * 0.45) for x, y in pts]
            pen.polygon(inner, fill=_colour(the_map, extra), outline="#555555")
    for key, features in sorted(feature_sides(the_map).items()):
        points = _side_points(key, outlines, centres)
        for feature in sorted(features):
            colour = _colour(the_map, feature)
            kind = the_map.hexside_features[feature].kind
            if points is None:
                continue
            start, end, ca, cb = points
            if kind == "along":
                pen.line([start, end], fill=colour, width=4)
            else:
                pen.line([ca, cb], fill=colour, width=3)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return Picture(buffer.getvalue(), image.width, image.height, outlines, centres)


@dataclass(frozen=True)
class ScanView:
    """The scan for the report: a picture with the fitted grid and hex ids drawn, and
    the full-resolution scan with the grid's outlines on it, for each finding's crop."""

    picture: Picture
    scan: Image.Image
    outlines: dict[str, list[Point]]

    def crop(self, hexes: tuple[str, ...]) -> bytes | None:
        """A JPEG of the scan around some hexes (their outlines drawn), or ``None``."""
        shapes = [self.outlines[h] for h in hexes if h in self.outlines]
        if not shapes:
            return None
        xs = [x for pts in shapes for x, _ in pts]
        ys = [y for pts in shapes for _, y in pts]
        pad = 0.6 * (max(xs) - min(xs) + max(ys) - min(ys)) / 2
        box = (int(max(0, min(xs) - pad)), int(max(0, min(ys) - pad)),
               int(min(self.scan.width, max(xs) + pad)), int(min(self.scan.height, max(ys) + pad)))
        if box[2] <= box[0] or box[3] <= box[1]:
            return None
        piece = self.scan.crop(box).convert("RGB")
        pen = ImageDraw.Draw(piece)
        for pts in shapes:
            pen.polygon([(x - box[0], y - box[1]) for x, y in pts], outline="#ff00ff",
                        width=max(1, piece.width // 90))
        piece.thumbnail((_CROP, _CROP))
        buffer = io.BytesIO()
        piece.save(buffer, format="JPEG", quality=80)
        return buffer.getvalue()


def draw_scan(scan: str | Path, reading: MapData, width: int = SCAN_WIDTH) -> ScanView:
    """The scan under the findings: scaled to ``width`` at most, the reading's fitted grid
    and every hex id drawn on it (its first board's layout: the nearest affine fit).

    Raises
    ------
    ImageError
        The scan cannot be read.
    BocageError
        The reading has no layout (it was not read from this scan).
    """
    from pipeline.errors import BocageError
    from pipeline.imagefile import open_image

    grid = next(iter(reading.grids().values()))
    if grid.layout is None:
        raise BocageError(f"{scan}: the reading has no layout on the scan")
    image = open_image(scan, scan).convert("RGB")
    outlines = {grid.id(h): grid.corners(h) for h in grid.hexes()}
    k = min(1.0, width / image.width)
    small = image.resize((max(1, round(image.width * k)), max(1, round(image.height * k))))
    pen = ImageDraw.Draw(small)
    scaled: dict[str, list[Point]] = {}
    centres: dict[str, Point] = {}
    for h in grid.hexes():
        hex_id = grid.id(h)
        pts = [(x * k, y * k) for x, y in outlines[hex_id]]
        scaled[hex_id] = pts
        cx, cy = grid.center(h)
        centres[hex_id] = (cx * k, cy * k)
        pen.polygon(pts, outline="#3050ff")
        pen.text((cx * k, cy * k - 0.55 * (max(y for _, y in pts) - cy * k)), hex_id,
                 fill="#1030c0", anchor="mm")
    buffer = io.BytesIO()
    small.save(buffer, format="JPEG", quality=82)
    picture = Picture(buffer.getvalue(), small.width, small.height, scaled, centres, "image/jpeg")
    return ScanView(picture, image, outlines)
