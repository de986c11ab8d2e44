"""``bocage vassal preview``: the main map of a module as VASSAL shows it when a game starts.

A builder checks a module without launching VASSAL: the board images laid
out as VASSAL's ``Map`` lays them out, the hex grid drawn where VASSAL's own
arithmetic (:mod:`pipeline.vassal.location`) puts it, each hex labelled with
the name VASSAL gives it, and every at-start stack (``SetupStack``) at the
point VASSAL places it, its pieces offset like VASSAL's collapsed stacks.

How VASSAL does it (3.6/3.7 sources; reference ``vassal-format.md`` §3.2, §5):

* boards and stacks: laid out and placed as :mod:`pipeline.vassal.read` says
  (``Map.setBoardBoundaries``, ``SetupStack``), so ``check`` reports an error
  for exactly the stacks listed here as unresolved;
* a collapsed stack: each piece ``unexSepX`` right of and ``unexSepY`` above
  the one below it (``StackMetrics``), aligned on left and bottom edges;
* a piece: its BasicPiece image with its active Layer (``emb2``) images
  drawn over it, prototypes expanded, each image centred on the piece point.

What is drawn beyond VASSAL (the point of a preview): the grid even when the
module hides it, hex names in small type near each hex's top edge, and pieces
whose images are not at hand (a bare build file, a missing image) as
labelled boxes. Not modelled: rotation, masks, hidden pieces, reversed boards;
square and region grids locate stacks but are not drawn.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont

from pipeline.counters import typeset
from pipeline.errors import DataError, ModuleError
from pipeline.vassal.location import Grid, VassalHexGrid, VassalZone, VassalZonedGrid
from pipeline.vassal.pictures import ModuleImages, board_picture
from pipeline.vassal.read import (
    Module,
    ModuleMap,
    PieceSlot,
    PlacedBoard,
    Prototype,
    expand_traits,
    lay_out_boards,
    map_size,
    module_from_source,
    place_stack,
    stack_positions,
)
from pipeline.vassal.source import ModuleSource, open_module
from pipeline.vassal.traits import PieceImage, view_piece
from pipeline.vassal.vocabulary import ROOT_TAGS

__all__ = ["DEFAULT_SIDE", "MAX_OUTPUT_SIDE", "Preview", "preview_module", "preview_read"]

DEFAULT_SIDE = 2000  # px: the default scale keeps the longest side at most this
MAX_OUTPUT_SIDE = 16000  # px: an explicit --scale may not make a larger image

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



# -- pieces --------------------------------------------------------------------------------


@dataclass
class _Piece:
    name: str
    images: tuple[PieceImage, ...]
    box: tuple[int, int]  # stand-in size when the images are not at hand


def _piece(slot: PieceSlot, prototypes: dict[str, Prototype]) -> _Piece:
    try:
        view = view_piece(expand_traits(slot.text, prototypes))
    except ModuleError:
        return _Piece(slot.entry_name, (), (slot.width, slot.height))
    return _Piece(view.basic_name or slot.entry_name, view.images, (slot.width, slot.height))


def _hex_grids(grid: Grid | None) -> list[tuple[VassalHexGrid, VassalZone | None]]:
    """The hex grids to draw: ``(grid, zone it is clipped to or None for the whole board)``."""
    if isinstance(grid, VassalHexGrid):
        return [(grid, None)]
    if isinstance(grid, VassalZonedGrid):
        out: list[tuple[VassalHexGrid, VassalZone | None]] = []
        if isinstance(grid.background, VassalHexGrid):
            out.append((grid.background, None))
        for zone in grid.zones:
            if isinstance(zone.grid, VassalHexGrid) and not zone.use_parent:
                out.append((zone.grid, zone))
        return out
    return []


# -- helpers -------------------------------------------------------------------------------


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


def _draw_board(canvas: _Canvas, placed: PlacedBoard, source: ModuleSource,
                notes: list[str]) -> None:
    board = placed.board
    left, top = canvas.at(placed.x, placed.y)
    right, bottom = canvas.at(placed.x + board.width, placed.y + board.height)
    size = (max(1, right - left), max(1, bottom - top))
    picture = (board_picture(source, board.image, size)
               if board.image and board.size_from == "image" else None)
    if picture is not None:
        canvas.image.paste(picture, (left, top))
        return
    if board.size_from == "image":
        notes.append(f"board '{board.name}': images/{board.image} could not be decoded; drawn"
                     " blank")
    fill = _colour(board.colour, None) if not board.image else None
    canvas.draw.rectangle([left, top, left + size[0] - 1, top + size[1] - 1],
                          fill=fill or NO_IMAGE_FILL, outline=(120, 120, 120))
    canvas.label((left + 4, top + 4), f"board '{board.name}'", 12, anchor="la")


def _draw_grid(canvas: _Canvas, placed: PlacedBoard, notes: list[str]) -> list[dict[str, Any]]:
    drawn = []
    board = placed.board
    grids = _hex_grids(board.grid)
    zones = board.grid.zones if isinstance(board.grid, VassalZonedGrid) else ()
    left, top = canvas.at(placed.x, placed.y)
    right, bottom = canvas.at(placed.x + board.width, placed.y + board.height)
    box = (max(1, right - left), max(1, bottom - top))
    s = canvas.scale
    for grid, zone in grids:
        info: dict[str, Any] = {
            "type": "HexGrid", "zone": zone.name if zone else None, "dx": grid.dx,
            "dy": grid.dy, "x0": grid.x0, "y0": grid.y0, "sideways": grid.sideways,
            "visible_in_vassal": grid.visible, "numbered": grid.numbered,
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
        names = grid.numbered and (grid.dy if not grid.sideways else grid.dx) * s >= 2.6 * font_px
        labels: list[tuple[tuple[float, float], str]] = []
        count = 0
        for cx, cy in grid.centres(board.width, board.height):
            outline = [(x * s, y * s) for x, y in grid.outline(cx, cy)]
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
        if grid.numbered and not names and count:
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


def _piece_bounds(piece: _Piece, images: ModuleImages) -> tuple[int, int, int, int]:
    """The piece's shape bounds around its point (images, else its stand-in box)."""
    if not piece.images:
        return (0, 0, 0, 0)  # VASSAL: a piece without an image has an empty shape
    rects = []
    for layer in piece.images:
        raw = images.raw(layer.image)
        if raw is not None:
            w, h = raw.size
            rects.append((layer.offset[0] - w // 2, layer.offset[1] - h // 2, w, h))
    if not rects:
        w, h = piece.box
        return (-(w // 2), -(h // 2), w, h)
    x1 = min(r[0] for r in rects)
    y1 = min(r[1] for r in rects)
    x2 = max(r[0] + r[2] for r in rects)
    y2 = max(r[1] + r[3] for r in rects)
    return (x1, y1, x2 - x1, y2 - y1)


def _draw_piece(canvas: _Canvas, piece: _Piece, point: tuple[int, int], images: ModuleImages,
                blank: tuple[int, int, int] | None) -> str:
    """Draw one piece: ``image``, ``box`` (its images are not at hand), ``blank`` (a
    piece under the top of a stack, as StackMetrics' blank colour), ``none`` (no image)."""
    if not piece.images:
        return "none"
    pictures = [(layer, images.scaled(layer.image)) for layer in piece.images]
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
        x = point[0] + layer.offset[0] - raw.width // 2
        y = point[1] + layer.offset[1] - raw.height // 2
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


def _stacks(the_map: ModuleMap, placed: list[PlacedBoard], preview: Preview,
            prototypes: dict[str, Prototype]) -> list[_Stack]:
    out = []
    for stack in the_map.stacks:
        where = {"stack": stack.name, "line": stack.line}
        placement = place_stack(the_map, stack, placed)
        if placement.point is None:
            preview.skipped.append({**where, "board": stack.owning_board,
                                    "reason": placement.skipped})
            continue
        if placement.unresolved is not None and placement.board is not None:
            preview.unresolved.append({**where, "board": placement.board.board.name,
                                       "location": stack.location,
                                       "reason": placement.unresolved,
                                       "drawn_at": [stack.x, stack.y]})
        pieces = [_piece(slot, prototypes) for slot in stack.slots]
        out.append(_Stack(stack.name, stack.line, placement.point, pieces))
    return out


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


def _draw_stacks(canvas: _Canvas, stacks: list[_Stack], the_map: ModuleMap, images: ModuleImages,
                 preview: Preview) -> Counter[str]:
    sep = (0, 0) if the_map.stacking_disabled else the_map.stack_offset
    blank = _colour(the_map.stack_colour, None)
    drawn: Counter[str] = Counter()
    captions = []
    for stack in stacks:
        bounds = [_piece_bounds(p, images) for p in stack.pieces]
        positions = stack_positions(bounds, stack.point, sep)
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
    return drawn


def preview_read(module: Module, *, scale: float | None = None,
                 board: str | None = None) -> Preview:
    """Draw the main map of a module already read (see the module docstring)."""
    if module.root_tag not in ROOT_TAGS:
        raise ModuleError(module.path, f"root element {module.root_tag} is not a VASSAL module")
    the_map = module.main_map(board)
    placed, notes = lay_out_boards(the_map, only=board)
    if not placed:
        raise ModuleError(module.path, f"map '{the_map.name}' has no board")
    notes = [n for p in placed for n in p.board.notes] + notes
    size = map_size(the_map, placed)
    s = _choose_scale(size, scale)
    background = _colour(the_map.background, (255, 255, 255)) or (255, 255, 255)
    canvas = _Canvas((max(1, round(size[0] * s)), max(1, round(size[1] * s))), s, background)
    preview = Preview(canvas.image, str(module.path), the_map.name, s, size, notes=notes)
    source = module.source
    for item in placed:
        _draw_board(canvas, item, source, notes)
    for item in placed:
        grids = _draw_grid(canvas, item, notes)
        preview.boards.append({
            "name": item.board.name, "image": item.board.image, "x": item.x, "y": item.y,
            "width": item.board.width, "height": item.board.height,
            "size_from": item.board.size_from, "grid": _grid_kind(item.board.grid),
            "hex_grids": grids})
    stacks = _stacks(the_map, placed, preview, module.prototypes)
    images = ModuleImages(source, s)
    drawn = _draw_stacks(canvas, stacks, the_map, images, preview)
    if drawn["box"]:
        why = ("a bare build file has no images" if not source.is_archive
               else f"{len(images.missing)} image(s) missing or unreadable:"
               f" {', '.join(sorted(images.missing)[:5])}")
        notes.append(f"{drawn['box']} piece(s) drawn as labelled boxes ({why})")
    if drawn["none"]:
        notes.append(f"{drawn['none']} piece(s) have no image (VASSAL shows nothing for them)")
    return preview


def _grid_kind(grid: Grid | None) -> str | None:
    return None if grid is None else type(grid).__name__.replace("Vassal", "")


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
        source = open_module(path)
    except ModuleError as exc:
        if exc.message.startswith("not well-formed XML"):
            # Neither a ZIP nor XML: say what was expected, not only what the parser saw.
            raise ModuleError(path, "not a VASSAL module: neither a .vmod (ZIP) nor a build"
                              f" file (XML); {exc.message}") from None
        raise
    with source:
        return preview_read(module_from_source(source), scale=scale, board=board)
