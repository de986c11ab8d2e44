"""``bocage vassal preview``: the main map of a module as VASSAL shows it when a game starts.

A builder checks a module without launching VASSAL: the board images laid
out as VASSAL's ``Map`` lays them out, the hex grid drawn where VASSAL's own
arithmetic (:mod:`pipeline.vassal.location`) puts it, each hex labelled with
the name VASSAL gives it, and every at-start stack (``SetupStack``) at the
point VASSAL places it, its pieces offset like VASSAL's collapsed stacks.

How VASSAL does it (3.6/3.7 sources; reference ``vassal-format.md`` §3.2, §5):

* boards: the BoardPicker's default ``<setup>`` (``name[/rev]``, column, row
  per board), or the only board; each board sits after the boards to its left
  (same row) and above it (same column), all shifted by the edge buffer;
* a stack's point: ``grid.getLocation(location)`` when ``useGridLocation`` and
  the board has a grid (a ``ZonedGrid`` tries its zones first, a zone's
  ``locationFormat`` decides how it reads the name, a ``RegionGrid`` knows
  regions by name), otherwise ``x``/``y``; a bad name falls back to ``x``/``y``;
  the point is translated by the owning board's position, without snapping;
  a stack whose owning board is not on the map is not placed at all;
* a collapsed stack: each piece ``unexSepX`` right of and ``unexSepY`` above
  the one below it (``StackMetrics``), aligned on left and bottom edges;
* a piece: its BasicPiece image with its active Layer (``emb2``) images
  drawn over it, prototypes expanded, each image centred on the piece point.

What is drawn beyond VASSAL (the point of a preview): the grid even when the
module hides it, hex names in small type near each hex's top edge, and pieces
whose images are not at hand (a bare build file, a missing image) as
labelled boxes. Not modelled: rotation, masks, hidden pieces, reversed boards,
square-grid locations (such stacks are drawn at ``x``/``y`` and reported).
"""

from __future__ import annotations

import io
import math
import re
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont, UnidentifiedImageError

from pipeline.counters import typeset
from pipeline.errors import DataError, ModuleError, did_you_mean
from pipeline.vassal.check import (
    BOARD,
    CARD_SLOT,
    HEX_GRID,
    M,
    NUMBERING,
    PIECE_SLOT,
    PROTOTYPE,
    REGION,
    SETUP_STACK,
    ZONE,
)
from pipeline.vassal.encoding import Decoder, PieceDefinition, Trait, decode
from pipeline.vassal.location import VassalHexGrid, format_parts
from pipeline.vassal.read import ModuleSource, image_size, read_module
from pipeline.vassal.vocabulary import ROOT_TAGS

__all__ = ["DEFAULT_SIDE", "MAX_OUTPUT_SIDE", "Preview", "preview_module", "preview_source"]

DEFAULT_SIDE = 2000  # px: the default scale keeps the longest side at most this
MAX_OUTPUT_SIDE = 16000  # px: an explicit --scale may not make a larger image
MAX_IMAGE_BYTES = 256 * 1024 ** 2  # one image entry, decompressed
DUMMY_SIZE = 50  # VASSAL's stand-in size for a piece without an image
DEFAULT_BOARD = 500  # VASSAL's size of a board without an image

BP = M + "map.boardPicker."
SQUARE_GRID = BP + "board.SquareGrid"
REGION_GRID = BP + "board.RegionGrid"
ZONED_GRID = BP + "board.ZonedGrid"
GRID_TAGS = (HEX_GRID, SQUARE_GRID, REGION_GRID, ZONED_GRID)
MAPS = (M + "Map", M + "PrivateMap", M + "PlayerHand")

GRID_COLOUR = (150, 0, 90)  # dark magenta: darker than a light board, visible on most maps
TEXT = (25, 25, 25)
HALO = (255, 255, 255)
NO_IMAGE_FILL = (236, 236, 236)


# -- what was drawn ----------------------------------------------------------------------


@dataclass
class Preview:
    """A drawn preview and what went into it.

    Attributes
    ----------
    image
        The picture (RGB), ``scale`` times the map's size in VASSAL pixels.
    path
        The module read.
    map_name
        The map drawn (the module's first ``Map`` unless ``board`` chose another).
    scale
        Output pixels per VASSAL map pixel.
    map_size
        The map's size in VASSAL pixels (boards plus edge buffers).
    boards
        One entry per board drawn: name, image, position, size and where the size
        came from, and the grids drawn on it.
    stacks, pieces
        Set-up stacks and pieces drawn.
    unresolved
        Stacks whose grid location could not be turned into a point (VASSAL falls
        back to ``x``/``y``, and so does the preview), with the reason.
    skipped
        Stacks not drawn (their owning board is not on the map), with the reason.
    notes
        What the preview could not show as VASSAL would (one line each).
    """

    image: Image.Image
    path: str
    map_name: str
    scale: float
    map_size: tuple[int, int]
    boards: list[dict[str, Any]] = field(default_factory=list)
    stacks: int = 0
    pieces: int = 0
    unresolved: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json`` (everything but the picture)."""
        return {"path": self.path, "map": self.map_name, "scale": self.scale,
                "map_size": list(self.map_size), "size": list(self.image.size),
                "boards": self.boards, "stacks": self.stacks, "pieces": self.pieces,
                "unresolved": self.unresolved, "skipped": self.skipped, "notes": self.notes}


# -- grids: VASSAL's MapGrid.getLocation for the grid kinds a board can hold ---------------


@dataclass
class _Hex:
    grid: VassalHexGrid
    numbered: bool
    visible: bool


@dataclass
class _Regions:
    origins: dict[str, tuple[int, int]]


@dataclass
class _Zone:
    name: str
    polygon: list[tuple[int, int]]
    location_format: str
    grid: _Node | None  # its own grid, or the background grid when useParentGrid
    use_parent: bool = False

    def contains(self, point: tuple[float, float]) -> bool:
        xs = [p[0] for p in self.polygon]
        ys = [p[1] for p in self.polygon]
        if not (min(xs) <= point[0] <= max(xs) and min(ys) <= point[1] <= max(ys)):
            return False
        return _inside(self.polygon, point)


@dataclass
class _Zoned:
    zones: list[_Zone]
    background: _Node | None


@dataclass
class _Other:
    kind: str  # SquareGrid: VASSAL computes its locations, bocage does not


_Node = _Hex | _Regions | _Zoned | _Other


class _BadCoords(Exception):
    """VASSAL's ``BadCoords``: the grid gives no point for a name (the message says why)."""


def _first_grid(element: Any) -> Any | None:
    for child in element:
        if isinstance(child.tag, str) and child.tag in GRID_TAGS:
            return child
    return None


def _polygon(path: str | None) -> list[tuple[int, int]]:
    points = []
    for pair in (path or "").split(";"):
        if not pair.strip():
            continue
        x, _, y = pair.partition(",")
        try:
            points.append((int(x), int(y)))
        except ValueError:
            return []
    return points


def _parse_grid(element: Any | None, size: tuple[int, int], notes: list[str]) -> _Node | None:
    """The grid element as a node (``None``: no grid, or one VASSAL drops)."""
    if element is None:
        return None
    tag = element.tag
    if tag == HEX_GRID:
        numbering = element.find(NUMBERING)
        try:
            grid = VassalHexGrid.from_attributes(dict(element.attrib), None, *size)
        except ValueError:
            notes.append(f"line {element.sourceline}: HexGrid has a malformed number: VASSAL"
                         " drops it, so the preview draws no grid there")
            return None
        numbered = numbering is not None
        if numbering is not None:
            try:
                grid = VassalHexGrid.from_attributes(dict(element.attrib), dict(numbering.attrib),
                                                     *size)
            except ValueError:
                numbered = False
        return _Hex(grid, numbered, element.get("visible") == "true")
    if tag == REGION_GRID:
        origins: dict[str, tuple[int, int]] = {}
        for region in element.iter(REGION):
            try:
                origins[region.get("name") or ""] = (int(region.get("originx", "0")),
                                                     int(region.get("originy", "0")))
            except ValueError:
                continue
        return _Regions(origins)
    if tag == ZONED_GRID:
        background = _parse_grid(_first_grid(element), size, notes)
        zones = []
        for zone in element:
            if not isinstance(zone.tag, str) or zone.tag != ZONE:
                continue
            polygon = _polygon(zone.get("path"))
            if not polygon:
                continue
            parent = zone.get("useParentGrid") == "true"
            own = background if parent else _parse_grid(_first_grid(zone), size, notes)
            zones.append(_Zone(zone.get("name") or "", polygon,
                               zone.get("locationFormat", "$name$"), own, parent))
        return _Zoned(zones, background)
    return _Other(tag.rsplit(".", 1)[-1])


def _inside(polygon: Sequence[tuple[int, int]], point: tuple[float, float]) -> bool:
    """Even-odd point-in-polygon, as ``java.awt.Polygon.contains``."""
    px, py = point
    inside = False
    n = len(polygon)
    for i in range(n):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % n]
        if (y1 > py) != (y2 > py):
            cross = x1 + (py - y1) * (x2 - x1) / (y2 - y1)
            if px < cross:
                inside = not inside
    return inside


def _java_div(total: int, count: int) -> int:
    return total // count if total >= 0 else -((-total) // count)


def _zone_location(zone: _Zone, name: str) -> tuple[int, int]:
    """``Zone.getLocation``: the regex its locationFormat makes, then its grid or its middle."""
    regex = ""
    groups = 0
    for token, is_property in format_parts(zone.location_format):
        if not is_property:
            regex += re.escape(token)
        elif token == "name":
            regex += re.escape(zone.name)
        elif token == "gridLocation" and zone.grid is not None:
            regex += "(.*)"
            groups += 1
    if not regex:
        raise _BadCoords("zone format matches nothing")
    match = re.fullmatch(regex, name, re.DOTALL)
    if match is None:
        raise _BadCoords(f"not zone '{zone.name}'")
    if groups and zone.grid is not None:
        point = _locate(zone.grid, match.group(groups))
        if not zone.contains(point):
            raise _BadCoords(f"outside zone '{zone.name}'")
        return point
    xs = [p[0] for p in zone.polygon]
    ys = [p[1] for p in zone.polygon]
    middle = (_java_div(sum(xs), len(xs)), _java_div(sum(ys), len(ys)))
    return middle if zone.contains(middle) else zone.polygon[0]


def _locate(node: _Node, name: str) -> tuple[int, int]:
    """``MapGrid.getLocation(name)`` in board pixels; :class:`_BadCoords` when there is none."""
    if isinstance(node, _Hex):
        if not node.numbered:
            raise _BadCoords("the board's hex grid has no numbering")
        point = node.grid.location_point(name)
        if point is None:
            raise _BadCoords("not a name the board's hex grid gives")
        return point
    if isinstance(node, _Regions):
        if name in node.origins:
            return node.origins[name]
        raise _BadCoords("no region of that name")
    if isinstance(node, _Zoned):
        for zone in node.zones:
            try:
                point = _zone_location(zone, name)
            except _BadCoords:
                continue
            if zone.contains(point):
                return point
        if node.background is not None:
            return _locate(node.background, name)
        raise _BadCoords("no zone or region of that name")
    raise _BadCoords(f"bocage does not compute {node.kind} locations (VASSAL does)")


def _hex_grids(node: _Node | None) -> list[tuple[_Hex, _Zone | None]]:
    """The hex grids to draw: ``(grid, zone it is clipped to or None for the whole board)``."""
    if isinstance(node, _Hex):
        return [(node, None)]
    if isinstance(node, _Zoned):
        out: list[tuple[_Hex, _Zone | None]] = []
        if isinstance(node.background, _Hex):
            out.append((node.background, None))
        for zone in node.zones:
            if isinstance(zone.grid, _Hex) and not zone.use_parent:
                out.append((zone.grid, zone))
        return out
    return []


# -- boards --------------------------------------------------------------------------------


@dataclass
class _Board:
    name: str
    element: Any
    image: str | None
    width: int
    height: int
    size_from: str
    column: int = 0
    row: int = 0
    x: int = 0
    y: int = 0
    grid: _Node | None = None


def _int_attr(element: Any, name: str, default: int) -> int:
    try:
        return int(element.get(name, default))
    except (TypeError, ValueError):
        return default


def _estimate_size(board: Any, the_map: Any) -> tuple[int, int] | None:
    """Board extent from what names its points: zones, regions, stack x/y (plus a hex)."""
    xs: list[int] = []
    ys: list[int] = []
    for zone in board.iter(ZONE):
        for x, y in _polygon(zone.get("path")):
            xs.append(x)
            ys.append(y)
    for region in board.iter(REGION):
        xs.append(_int_attr(region, "originx", 0))
        ys.append(_int_attr(region, "originy", 0))
    name = board.get("name")
    for stack in the_map.iter(SETUP_STACK):
        if stack.get("owningBoard") in (None, name):
            xs.append(_int_attr(stack, "x", 0))
            ys.append(_int_attr(stack, "y", 0))
    if not xs:
        return None
    margin = 50
    for grid in board.iter(HEX_GRID):
        try:
            margin = max(margin, math.ceil(float(grid.get("dy", "64"))))
        except ValueError:
            pass
    return max(max(xs) + margin, 1), max(max(ys) + margin, 1)


def _board_of(element: Any, the_map: Any, source: ModuleSource, notes: list[str]) -> _Board:
    name = element.get("name") or ""
    image = element.get("image") or None
    size: tuple[int, int] | None = None
    size_from = "image"
    if image:
        size = image_size(source, image)
        if size is None:
            why = ("a bare build file has no images" if not source.is_archive
                   else f"images/{image} is missing or unreadable")
            size = _estimate_size(element, the_map)
            size_from = "estimate" if size is not None else "default"
            shape = ("the extent of its zones, regions and stacks" if size is not None
                     else f"{DEFAULT_BOARD}x{DEFAULT_BOARD} px")
            notes.append(f"board '{name}': {why}; drawn as a blank board, {shape}")
            size = size or (DEFAULT_BOARD, DEFAULT_BOARD)
    else:
        size = (_int_attr(element, "width", DEFAULT_BOARD), _int_attr(element, "height",
                                                                       DEFAULT_BOARD))
        size_from = "attributes"
    width, height = max(1, size[0]), max(1, size[1])
    board = _Board(name, element, image, width, height, size_from)
    board.grid = _parse_grid(_first_grid(element), (width, height), notes)
    return board


def _choose_boards(the_map: Any, source: ModuleSource, only: str | None,
                   notes: list[str]) -> list[_Board]:
    elements = list(the_map.iter(BOARD))
    if only is not None:
        chosen = [e for e in elements if e.get("name") == only][:1]
        board = _board_of(chosen[0], the_map, source, notes)
        return [board]
    picker = the_map.find(M + "map.BoardPicker")
    setup = picker.find("setup") if picker is not None else None
    by_name = {e.get("name"): e for e in elements}
    if setup is not None and (setup.text or "").strip():
        tokens = Decoder(setup.text.strip(), "\t")
        tokens.next()  # <map id>BoardPicker
        boards = []
        while tokens.has_more():
            name = Decoder(tokens.next(), "/").next("")
            column, row = _int_token(tokens), _int_token(tokens)
            if name in by_name:
                board = _board_of(by_name[name], the_map, source, notes)
                board.column, board.row = column, row
                boards.append(board)
        if boards:
            return boards
    if len(elements) == 1:
        return [_board_of(elements[0], the_map, source, notes)]
    notes.append(f"map '{the_map.get('mapName')}' has {len(elements)} boards and no default"
                 " layout: VASSAL asks the player to choose; all are drawn in one row"
                 " (--board draws one)")
    boards = []
    for column, element in enumerate(elements):
        board = _board_of(element, the_map, source, notes)
        board.column = column
        boards.append(board)
    return boards


def _int_token(decoder: Decoder) -> int:
    try:
        return int(decoder.next("0"))
    except ValueError:
        return 0


def _lay_out(boards: list[_Board], edge: tuple[int, int]) -> tuple[int, int]:
    """``Map.setBoardBoundaries``: board positions, and the map's size."""
    widths: dict[tuple[int, int], int] = {}
    heights: dict[tuple[int, int], int] = {}
    for board in boards:
        widths[board.column, board.row] = board.width
        heights[board.column, board.row] = board.height
    right = bottom = 0
    for board in boards:
        board.x = edge[0] + sum(widths.get((c, board.row), 0) for c in range(board.column))
        board.y = edge[1] + sum(heights.get((board.column, r), 0) for r in range(board.row))
        right = max(right, board.x + board.width)
        bottom = max(bottom, board.y + board.height)
    return right + edge[0], bottom + edge[1]


# -- pieces --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Layer:
    image: str
    dx: int
    dy: int


@dataclass
class _Piece:
    name: str
    layers: tuple[_Layer, ...]
    box: tuple[int, int]  # stand-in size when the images are not at hand


def _text(element: Any) -> str:
    return "".join(element.xpath("text()")).strip()


def _expanded(text: str, prototypes: dict[str, str], depth: int = 0) -> list[Trait]:
    """Traits outermost first, prototypes replaced by their traits (minus their BasicPiece)."""
    out: list[Trait] = []
    for trait in PieceDefinition.decode(text).traits:
        if trait.id == "prototype;":
            name = (trait.fields or [""])[0]
            if name in prototypes and depth < 16:
                try:
                    inner = _expanded(prototypes[name], prototypes, depth + 1)
                except ModuleError:
                    continue
                out.extend(t for t in inner if t.id != "piece;")
            continue
        out.append(trait)
    return out


def _layer_image(trait: Trait) -> _Layer | None:
    """The image an ``emb2`` Layer shows in its state, with its offset (``None``: inactive)."""
    fields = trait.fields
    if len(fields) < 16:
        return None
    try:
        value = int(decode(trait.state, ";")[0] or "1") if trait.state else 1
    except ValueError:
        value = 1
    always = len(fields) > 25 and fields[25] == "true"
    if value <= 0 and not always:  # Embellishment.isActive: value > 0
        return None
    level = max(abs(value), 1)
    images = decode(fields[15], ",")
    if level > len(images) or not images[level - 1]:
        return None
    try:
        dx, dy = int(fields[13] or 0), int(fields[14] or 0)
    except ValueError:
        dx = dy = 0
    return _Layer(images[level - 1], dx, dy)


def _piece(slot: Any, prototypes: dict[str, str]) -> _Piece:
    width = _int_attr(slot, "width", DUMMY_SIZE)
    height = _int_attr(slot, "height", DUMMY_SIZE)
    box = (width if 8 <= width <= 1000 else DUMMY_SIZE, height if 8 <= height <= 1000
           else DUMMY_SIZE)
    name = slot.get("entryName") or ""
    try:
        traits = _expanded(_text(slot), prototypes)
    except ModuleError:
        return _Piece(name, (), box)
    layers: list[_Layer] = []
    for trait in reversed(traits):  # innermost (the BasicPiece) is drawn first
        fields = trait.fields
        if trait.id == "piece;" and len(fields) >= 3:
            if len(fields) >= 4 and fields[3]:
                name = fields[3]
            if fields[2]:
                layers.append(_Layer(fields[2], 0, 0))
        elif trait.id == "emb2;":
            layer = _layer_image(trait)
            if layer is not None:
                layers.append(layer)
    return _Piece(name, tuple(layers), box)


# -- images --------------------------------------------------------------------------------


class _Images:
    """Images of the archive, read once, scaled once per size."""

    def __init__(self, source: ModuleSource, scale: float) -> None:
        self.source = source
        self.scale = scale
        self._raw: dict[str, Image.Image | None] = {}
        self._scaled: dict[str, Image.Image | None] = {}
        self.missing: set[str] = set()

    def raw(self, name: str) -> Image.Image | None:
        if name not in self._raw:
            self._raw[name] = self._load(name)
            if self._raw[name] is None:
                self.missing.add(name)
        return self._raw[name]

    def _load(self, name: str) -> Image.Image | None:
        entry = f"images/{name}"
        if name.startswith("/") or not self.source.is_archive or entry not in self.source.entries:
            return None
        try:
            data = self.source.read_entry(entry, MAX_IMAGE_BYTES)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                with Image.open(io.BytesIO(data)) as image:
                    image.load()
                    return image.convert("RGBA")
        except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError,
                ModuleError):
            return None

    def scaled(self, name: str) -> Image.Image | None:
        if name not in self._scaled:
            raw = self.raw(name)
            self._scaled[name] = None if raw is None else _resize(raw, self.scale)
        return self._scaled[name]


def _resize(image: Image.Image, scale: float) -> Image.Image:
    if scale == 1.0:
        return image
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return image.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)


def _board_picture(source: ModuleSource, board: _Board,
                   size: tuple[int, int]) -> Image.Image | None:
    """The board image at ``size`` (decoded at a reduced size when JPEG allows it)."""
    if not board.image or board.size_from != "image":
        return None
    try:
        data = source.read_entry(f"images/{board.image}", MAX_IMAGE_BYTES)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                if image.format == "JPEG":
                    image.draft("RGB", size)
                image.load()
                if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
                    rgba = image.convert("RGBA")
                    flat = Image.new("RGB", rgba.size, (255, 255, 255))
                    flat.paste(rgba, mask=rgba.getchannel("A"))
                else:
                    flat = image.convert("RGB")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError,
            ModuleError):
        return None
    if flat.size != size:
        flat = flat.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
    return flat


def _font(size: int) -> ImageFont.FreeTypeFont:
    # The DejaVu font shipped for counters: the same on every machine, with accents.
    return typeset.font("condensed", size)


def _colour(text: str | None, default: tuple[int, int, int] | None) -> tuple[int, int, int] | None:
    if not text:
        return default
    parts = text.split(",")
    try:
        r, g, b = (int(p) for p in parts[:3])
    except ValueError:
        return default
    return (max(0, min(255, r)), max(0, min(255, g)), max(0, min(255, b)))


# -- drawing -------------------------------------------------------------------------------


def _hex_outline(cx: float, cy: float, grid: VassalHexGrid) -> list[tuple[float, float]]:
    """Corners of the hex around a centre, board pixels (flat-topped unless sideways)."""
    dx, dy = grid.dx, grid.dy
    corners = [(-2 * dx / 3, 0.0), (-dx / 3, -dy / 2), (dx / 3, -dy / 2), (2 * dx / 3, 0.0),
               (dx / 3, dy / 2), (-dx / 3, dy / 2)]
    if grid.sideways:
        return [(cx + b, cy + a) for a, b in corners]
    return [(cx + a, cy + b) for a, b in corners]


def _hex_centres(grid: VassalHexGrid, width: int, height: int) -> Iterable[tuple[float, float]]:
    """Centres of every hex touching the board (raw columns and rows, VASSAL's geometry)."""
    along, across = (height, width) if grid.sideways else (width, height)
    first_col = math.floor((-grid.x0) / grid.dx) - 1
    last_col = math.ceil((along - grid.x0) / grid.dx) + 1
    first_row = math.floor((-grid.y0) / grid.dy) - 2
    last_row = math.ceil((across - grid.y0) / grid.dy) + 1
    for col in range(first_col, last_col + 1):
        for row in range(first_row, last_row + 1):
            u = grid.x0 + col * grid.dx
            v = grid.y0 + row * grid.dy + (grid.dy / 2 if col % 2 else 0.0)
            yield (v, u) if grid.sideways else (u, v)


class _Canvas:
    def __init__(self, size: tuple[int, int], scale: float, background: tuple[int, int, int]):
        self.image = Image.new("RGB", size, background)
        self.draw = ImageDraw.Draw(self.image)
        self.scale = scale

    def at(self, x: float, y: float) -> tuple[int, int]:
        return round(x * self.scale), round(y * self.scale)

    def label(self, xy: tuple[float, float], text: str, size: int, anchor: str = "mm") -> None:
        self.draw.text(xy, text, fill=TEXT, font=_font(size), anchor=anchor, stroke_width=1,
                       stroke_fill=HALO)


def _draw_board(canvas: _Canvas, board: _Board, source: ModuleSource,
                notes: list[str]) -> None:
    left, top = canvas.at(board.x, board.y)
    right, bottom = canvas.at(board.x + board.width, board.y + board.height)
    size = (max(1, right - left), max(1, bottom - top))
    picture = _board_picture(source, board, size)
    if picture is not None:
        canvas.image.paste(picture, (left, top))
        return
    if board.size_from == "image":
        notes.append(f"board '{board.name}': images/{board.image} could not be decoded; drawn"
                     " blank")
    fill = _colour(board.element.get("color"), None) if not board.image else None
    canvas.draw.rectangle([left, top, left + size[0] - 1, top + size[1] - 1],
                          fill=fill or NO_IMAGE_FILL, outline=(120, 120, 120))
    canvas.label((left + 4, top + 4), f"board '{board.name}'", 12, anchor="la")


def _draw_grid(canvas: _Canvas, board: _Board, notes: list[str]) -> list[dict[str, Any]]:
    drawn = []
    grids = _hex_grids(board.grid)
    zones = board.grid.zones if isinstance(board.grid, _Zoned) else []
    left, top = canvas.at(board.x, board.y)
    right, bottom = canvas.at(board.x + board.width, board.y + board.height)
    box = (max(1, right - left), max(1, bottom - top))
    s = canvas.scale
    for hexes, zone in grids:
        grid = hexes.grid
        info: dict[str, Any] = {
            "type": "HexGrid", "zone": zone.name if zone else None, "dx": grid.dx,
            "dy": grid.dy, "x0": grid.x0, "y0": grid.y0, "sideways": grid.sideways,
            "visible_in_vassal": hexes.visible, "numbered": hexes.numbered,
            "hexes": 0, "lines": False, "names": False}
        drawn.append(info)
        hex_px = min(grid.dx, grid.dy) * s
        if hex_px < 5:
            notes.append(f"board '{board.name}': hexes are {hex_px:.1f} px at scale {s:g}; grid"
                         " not drawn (raise --scale)")
            continue
        # Clip like VASSAL: a zone's own grid inside its zone; the board's grid outside
        # every zone that does not use it (useParentGrid false).
        clip = Image.new("L", box, 0 if zone else 255)
        clip_draw = ImageDraw.Draw(clip)
        cutouts = [zone] if zone else [z for z in zones if not z.use_parent]
        for part in cutouts:
            clip_draw.polygon([(x * s, y * s) for x, y in part.polygon], fill=255 if zone else 0)
        lines = Image.new("L", box, 0)
        line_draw = ImageDraw.Draw(lines)
        width = 2 if s >= 1.5 else 1
        font_px = 10 if s < 2 else 12
        names = hexes.numbered and (grid.dy if not grid.sideways else grid.dx) * s >= 2.6 * font_px
        labels: list[tuple[tuple[float, float], str]] = []
        count = 0
        for cx, cy in _hex_centres(grid, board.width, board.height):
            outline = [(x * s, y * s) for x, y in _hex_outline(cx, cy, grid)]
            line_draw.polygon(outline, outline=255, width=width)
            inside = 0 <= cx < board.width and 0 <= cy < board.height
            if zone is not None:
                inside = inside and zone.contains((cx, cy))
            else:
                inside = inside and not any(z.contains((cx, cy)) for z in cutouts)
            if not inside:
                continue
            count += 1
            if names:
                name = grid.location_name(round(cx), round(cy))
                up = grid.dy * 0.30 if not grid.sideways else grid.dx * 0.36
                labels.append(((left + cx * s, top + (cy - up) * s), name))
        info["hexes"] = count
        for xy, name in labels:
            canvas.label(xy, name, font_px)
        info["names"] = bool(labels)
        if hexes.numbered and not names and count:
            notes.append(f"board '{board.name}': hex names not drawn, hexes are too small at"
                         f" scale {s:g} (raise --scale)")
        mask = ImageChops.multiply(lines, clip)
        canvas.image.paste(GRID_COLOUR, (left, top, left + box[0], top + box[1]), mask)
        info["lines"] = True
    return drawn


@dataclass
class _Stack:
    name: str
    line: int
    point: tuple[int, int]
    pieces: list[_Piece]


def _stack_positions(bounds: Sequence[tuple[int, int, int, int]], point: tuple[int, int],
                     sep: tuple[int, int]) -> list[tuple[int, int]]:
    """``StackMetrics.getContents`` for a collapsed stack: each piece's point."""
    dx, dy = sep
    out: list[tuple[int, int]] = []
    current: tuple[int, int, int, int] | None = None
    for (bx, by, bw, bh) in bounds:
        if current is None:
            position = point
        else:
            cx, cy, cw, ch = current
            if dx > 0:
                px = cx + dx - bx
            elif dx < 0:
                px = cx + cw - bw + dx - bx
            else:
                px = out[-1][0]
            if dy > 0:
                py = cy + ch - bh - by - dy
            elif dy < 0:
                py = cy - dy - by
            else:
                py = out[-1][1]
            position = (px, py)
        out.append(position)
        current = (bx + position[0], by + position[1], bw, bh)
    return out


def _piece_bounds(piece: _Piece, images: _Images) -> tuple[int, int, int, int]:
    """The piece's shape bounds around its point (images, else its stand-in box)."""
    if not piece.layers:
        return (0, 0, 0, 0)  # VASSAL: a piece without an image has an empty shape
    rects = []
    for layer in piece.layers:
        raw = images.raw(layer.image)
        if raw is not None:
            w, h = raw.size
            rects.append((layer.dx - w // 2, layer.dy - h // 2, w, h))
    if not rects:
        w, h = piece.box
        return (-(w // 2), -(h // 2), w, h)
    x1 = min(r[0] for r in rects)
    y1 = min(r[1] for r in rects)
    x2 = max(r[0] + r[2] for r in rects)
    y2 = max(r[1] + r[3] for r in rects)
    return (x1, y1, x2 - x1, y2 - y1)


def _draw_piece(canvas: _Canvas, piece: _Piece, point: tuple[int, int], images: _Images,
                blank: tuple[int, int, int] | None) -> str:
    """Draw one piece: ``image``, ``box`` (its images are not at hand), ``blank`` (a
    piece under the top of a stack, as StackMetrics' blank colour), ``none`` (no image)."""
    if not piece.layers:
        return "none"
    pictures = [(layer, images.scaled(layer.image)) for layer in piece.layers]
    shown = [(layer, picture) for layer, picture in pictures if picture is not None]
    if blank is not None or not shown:
        bx, by, bw, bh = _piece_bounds(piece, images)
        left, top = canvas.at(point[0] + bx, point[1] + by)
        right, bottom = canvas.at(point[0] + bx + bw, point[1] + by + bh)
        right, bottom = max(right, left + 2), max(bottom, top + 2)
        canvas.draw.rectangle([left, top, right - 1, bottom - 1], fill=blank or (255, 255, 255),
                              outline=(0, 0, 0))
        if blank is not None:
            return "blank"
        return "box" if _box_label(canvas, piece.name, (left, top, right, bottom)) else "small box"
    for layer, picture in shown:
        raw = images.raw(layer.image)
        assert raw is not None
        x = point[0] + layer.dx - raw.width // 2
        y = point[1] + layer.dy - raw.height // 2
        canvas.image.paste(picture, canvas.at(x, y), picture)
    return "image"


def _shorten(name: str, limit: int = 24) -> str:
    return name if len(name) <= limit else name[:limit - 1].rstrip() + "\u2026"


def _box_label(canvas: _Canvas, name: str, box: tuple[int, int, int, int]) -> bool:
    """Write ``name`` inside a box, word-wrapped; ``False`` (nothing written) if it does not fit."""
    left, top, right, bottom = box
    font = _font(9)
    room = right - left - 4
    lines: list[str] = []
    for word in name.split():
        if lines and canvas.draw.textlength(lines[-1] + " " + word, font=font) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if (not lines or len(lines) * 10 > bottom - top - 2
            or any(canvas.draw.textlength(line, font=font) > room for line in lines)):
        return False
    y = top + (bottom - top - 10 * len(lines)) / 2
    for line in lines:
        canvas.draw.text(((left + right) / 2, y), line, fill=TEXT, font=font, anchor="ma")
        y += 10
    return True


# -- the set-up stacks ---------------------------------------------------------------------


def _stacks(the_map: Any, boards: list[_Board], all_boards: dict[str, Any], edge: tuple[int, int],
            preview: Preview, prototypes: dict[str, str]) -> list[_Stack]:
    drawn = {b.name: b for b in boards}
    out = []
    for element in the_map.iter(SETUP_STACK):
        name = element.get("name") or ""
        where = {"stack": name, "line": element.sourceline}
        owner = element.get("owningBoard")
        if owner == "<any>":
            owner = None
        if owner is not None and owner not in drawn:
            reason = (f"owning board '{owner}' is not drawn" if owner in all_boards
                      else f"owningBoard '{owner}' is not a board of this map: VASSAL places"
                      " it nowhere")
            preview.skipped.append({**where, "board": owner, "reason": reason})
            continue
        board = drawn[owner] if owner is not None else boards[0]
        try:
            point = (int(element.get("x", "0")), int(element.get("y", "0")))
        except ValueError:
            preview.skipped.append({**where, "board": owner, "reason": "x/y is not an integer:"
                                    " VASSAL drops the stack"})
            continue
        location = element.get("location") or ""
        if element.get("useGridLocation") == "true" and board.grid is not None and location:
            try:
                point = _locate(board.grid, location)
            except _BadCoords as exc:
                preview.unresolved.append({**where, "board": board.name, "location": location,
                                           "reason": str(exc), "drawn_at": list(point)})
        offset = (board.x, board.y) if owner is not None else edge
        pieces = [_piece(slot, prototypes) for slot in element.iter(PIECE_SLOT, CARD_SLOT)]
        out.append(_Stack(name, element.sourceline, (point[0] + offset[0], point[1] + offset[1]),
                          pieces))
    return out


def _main_map(root: Any, board: str | None, path: Path) -> Any:
    maps = [m for tag in MAPS for m in root.iter(tag)]
    maps.sort(key=lambda m: (m.tag != M + "Map", m.sourceline or 0))
    if not maps:
        raise ModuleError(path, "the module has no map to preview")
    if board is None:
        return maps[0]
    for the_map in maps:
        if any(b.get("name") == board for b in the_map.iter(BOARD)):
            return the_map
    names = [b.get("name") or "" for m in maps for b in m.iter(BOARD)]
    raise ModuleError(path, f"no board '{board}' in the module{did_you_mean(board, names)}"
                      f" (boards: {', '.join(sorted(set(names))) or 'none'})")


def _choose_scale(size: tuple[int, int], scale: float | None) -> float:
    longest = max(size)
    if scale is None:
        return min(1.0, DEFAULT_SIDE / longest)
    if not math.isfinite(scale) or scale <= 0:
        raise DataError(None, "--scale", f"{scale} is not a positive number")
    if longest * scale > MAX_OUTPUT_SIDE:
        raise DataError(None, "--scale", f"{scale:g} makes a {round(size[0] * scale)}x"
                        f"{round(size[1] * scale)} image, over {MAX_OUTPUT_SIDE} px a side"
                        f" (at most {MAX_OUTPUT_SIDE / longest:.3g} for this map)")
    return scale


def preview_source(source: ModuleSource, *, scale: float | None = None,
                   board: str | None = None) -> Preview:
    """Draw the main map of an opened module (see the module docstring)."""
    root = source.root
    if root.tag not in ROOT_TAGS:
        raise ModuleError(source.path, f"root element {root.tag} is not a VASSAL module")
    the_map = _main_map(root, board, source.path)
    notes: list[str] = []
    boards = _choose_boards(the_map, source, board, notes)
    if not boards:
        raise ModuleError(source.path, f"map '{the_map.get('mapName')}' has no board")
    edge = (_int_attr(the_map, "edgeWidth", 0), _int_attr(the_map, "edgeHeight", 0))
    map_size = _lay_out(boards, edge)
    s = _choose_scale(map_size, scale)
    background = _colour(the_map.get("backgroundcolor"), (255, 255, 255)) or (255, 255, 255)
    canvas = _Canvas((max(1, round(map_size[0] * s)), max(1, round(map_size[1] * s))), s,
                     background)
    preview = Preview(canvas.image, str(source.path), the_map.get("mapName") or "", s, map_size,
                      notes=notes)
    for item in boards:
        _draw_board(canvas, item, source, notes)
    for item in boards:
        grids = _draw_grid(canvas, item, notes)
        preview.boards.append({
            "name": item.name, "image": item.image, "x": item.x, "y": item.y,
            "width": item.width, "height": item.height, "size_from": item.size_from,
            "grid": _grid_kind(item.grid), "hex_grids": grids})
    prototypes = {p.get("name") or "": _text(p) for p in root.iter(PROTOTYPE)}
    all_boards = {b.get("name"): b for b in the_map.iter(BOARD)}
    stacks = _stacks(the_map, boards, all_boards, edge, preview, prototypes)
    metrics = the_map.find(M + "map.StackMetrics")
    sep = (2, 4)
    blank = None
    if metrics is not None:
        sep = (_int_attr(metrics, "unexSepX", 2), _int_attr(metrics, "unexSepY", 4))
        blank = _colour(metrics.get("color"), None)
        if metrics.get("disabled") == "true":
            sep = (0, 0)
    images = _Images(source, s)
    drawn: Counter[str] = Counter()
    captions = []
    for stack in stacks:
        bounds = [_piece_bounds(p, images) for p in stack.pieces]
        positions = _stack_positions(bounds, stack.point, sep)
        for index, (piece, point) in enumerate(zip(stack.pieces, positions, strict=True)):
            top = index == len(stack.pieces) - 1
            how = _draw_piece(canvas, piece, point, images, None if top else blank)
            drawn["box" if how == "small box" else how] += 1
            if top and how == "small box":
                # Too small to hold its name: the name goes under the stack, drawn last.
                below = point[1] + bounds[index][1] + bounds[index][3]
                more = f" +{len(stack.pieces) - 1}" if len(stack.pieces) > 1 else ""
                captions.append((canvas.at(point[0], below), _shorten(piece.name) + more))
        preview.stacks += 1
        preview.pieces += len(stack.pieces)
    for (x, y), caption in captions:
        canvas.label((x, y + 1), caption, 9, anchor="ma")
    if drawn["box"]:
        why = ("a bare build file has no images" if not source.is_archive
               else f"{len(images.missing)} image(s) missing or unreadable:"
               f" {', '.join(sorted(images.missing)[:5])}")
        notes.append(f"{drawn['box']} piece(s) drawn as labelled boxes ({why})")
    if drawn["none"]:
        notes.append(f"{drawn['none']} piece(s) have no image (VASSAL shows nothing for them)")
    return preview


def _grid_kind(node: _Node | None) -> str | None:
    if node is None:
        return None
    if isinstance(node, _Hex):
        return "HexGrid"
    if isinstance(node, _Regions):
        return "RegionGrid"
    if isinstance(node, _Zoned):
        return "ZonedGrid"
    return node.kind


def preview_module(path: str | Path, *, scale: float | None = None,
                   board: str | None = None) -> Preview:
    """Open a module (or bare build file) safely and draw its main map at game start.

    Parameters
    ----------
    path
        A ``.vmod`` or a bare build file.
    scale
        Output pixels per map pixel; default: 1, or less so the longest side is at
        most :data:`DEFAULT_SIDE` px.
    board
        Draw only this board (of the first map that has it), with its stacks.

    Raises
    ------
    ModuleError
        Unreadable or unsafe module, no map, or no board of that name.
    DataError
        A scale that is not positive or makes too large an image.
    """
    try:
        source = read_module(path)
    except ModuleError as exc:
        if exc.message.startswith("not well-formed XML"):
            # Neither a ZIP nor XML: say what was expected, not only what the parser saw.
            raise ModuleError(path, "not a VASSAL module: neither a .vmod (ZIP) nor a build"
                              f" file (XML); {exc.message}") from None
        raise
    with source:
        return preview_source(source, scale=scale, board=board)
