"""A module read once into typed objects: maps, boards and their grids, set-up stacks,
piece slots and prototypes.

:func:`read_module` opens a ``.vmod`` or a bare build file safely
(:mod:`pipeline.vassal.source`) and turns the build file into a
:class:`Module`; ``check``, ``preview``, ``inspect``, the saved-game reader and
``vassal import`` all read modules through it, and all take location names
from the grids it builds (:mod:`pipeline.vassal.location`). Two VASSAL
procedures that several of them need live here too:

* :func:`lay_out_boards` (``Map.setBoardBoundaries``): where each board of a
  map sits, from the BoardPicker's default ``<setup>`` or a saved game's
  board choice, after the boards to its left and above it, shifted by the
  map's edge buffer;
* :func:`place_stack` (``SetupStack`` at game start): the point of an
  at-start stack, by its grid location when ``useGridLocation`` (falling back
  to ``x``/``y`` when the grid gives no point, as VASSAL does), translated by
  the owning board's position, or not placed at all when the owning board is
  not on the map.

What is read is what VASSAL reads: a grid element with a malformed number is
dropped (with a note), a board without an image is ``width`` x ``height``.
Elements keep their line for messages.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from pipeline.errors import ModuleError, did_you_mean
from pipeline.vassal.encoding import Decoder, PieceDefinition, Trait
from pipeline.vassal.location import (
    BadCoords,
    Grid,
    VassalHexGrid,
    VassalRegion,
    VassalRegionGrid,
    VassalSquareGrid,
    VassalZone,
    VassalZonedGrid,
)
from pipeline.vassal.source import (
    ModuleSource,
    image_size,
    open_module,
    vassal_version_of,
)

__all__ = [
    "BOARD",
    "CARD_SLOT",
    "DEFAULT_BOARD",
    "DUMMY_SIZE",
    "MAPS",
    "PIECE_SLOT",
    "PROTOTYPE",
    "SETUP_STACK",
    "Board",
    "M",
    "Module",
    "ModuleMap",
    "PieceSlot",
    "PlacedBoard",
    "Prototype",
    "SetupStack",
    "StackPlacement",
    "element_text",
    "expand_traits",
    "lay_out_boards",
    "map_size",
    "module_from_source",
    "place_stack",
    "read_module",
    "stack_positions",
]

M = "VASSAL.build.module."
BP = M + "map.boardPicker."
BOARD = BP + "Board"
HEX_GRID = BP + "board.HexGrid"
SQUARE_GRID = BP + "board.SquareGrid"
REGION_GRID = BP + "board.RegionGrid"
ZONED_GRID = BP + "board.ZonedGrid"
HEX_NUMBERING = BP + "board.mapgrid.HexGridNumbering"
SQUARE_NUMBERING = BP + "board.mapgrid.SquareGridNumbering"
ZONE = BP + "board.mapgrid.Zone"
REGION = BP + "board.Region"
GRID_TAGS = (HEX_GRID, SQUARE_GRID, REGION_GRID, ZONED_GRID)
PIECE_SLOT = "VASSAL.build.widget.PieceSlot"
CARD_SLOT = "VASSAL.build.widget.CardSlot"
PROTOTYPE = M + "PrototypeDefinition"
SETUP_STACK = M + "map.SetupStack"
MAPS = (M + "Map", M + "PrivateMap", M + "PlayerHand", "VASSAL.build.widget.WidgetMap")
DUMMY_SIZE = 50  # VASSAL's stand-in size for a piece without an image
DEFAULT_BOARD = 500  # VASSAL's size of a board without an image
MAX_PROTOTYPE_DEPTH = 16


# -- the objects -------------------------------------------------------------------------


@dataclass(frozen=True)
class PieceSlot:
    """A ``PieceSlot`` (or ``CardSlot``): its palette label, gpid and definition text.

    ``text`` is what VASSAL reads: the element's text nodes, trimmed (a CDATA
    section is not read, ``cdata`` says one was there). ``palette`` is the path
    of widget names above it (``Pieces / Allied / Formation 2``); ``in_setup``
    says it belongs to an at-start stack.
    """

    entry_name: str
    gpid: str | None
    width: int
    height: int
    text: str
    line: int
    cdata: bool = False
    palette: str = ""
    in_setup: bool = False
    card: bool = False

    def definition(self) -> PieceDefinition:
        """The decoded definition (``ModuleError`` when it does not decode)."""
        return PieceDefinition.decode(self.text)


@dataclass(frozen=True)
class Prototype:
    """A ``PrototypeDefinition``: the traits ``prototype;NAME`` stands for."""

    name: str
    description: str
    text: str
    line: int
    cdata: bool = False


@dataclass(frozen=True)
class SetupStack:
    """A ``SetupStack`` (at-start stack) as written: board, location or x/y, and its slots.

    ``owning_board`` is ``None`` when absent, empty or ``<any>`` (the first
    board); ``x``/``y`` are ``None`` when they do not parse; ``attributes`` are
    the element's attributes as written.
    """

    name: str
    line: int
    owning_board: str | None
    use_grid_location: bool
    location: str
    x: int | None
    y: int | None
    slots: tuple[PieceSlot, ...]
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Board:
    """A ``Board``: name, image and size, and its grid as VASSAL builds it.

    ``size_from`` says where the size came from: ``image`` (the image's header),
    ``attributes`` (no image: ``width``/``height``), ``estimate`` (an image that
    is not at hand: the extent of what names its points), ``default``
    (nothing to go on: 500 x 500). ``notes`` say what VASSAL drops or what
    could not be read.
    """

    name: str
    image: str | None
    line: int
    width: int
    height: int
    size_from: str
    grid: Grid | None
    colour: str | None = None
    reversible: bool = False
    grid_attributes: tuple[str, dict[str, str], dict[str, str] | None] | None = None
    notes: tuple[str, ...] = ()

    def name_at(self, x: int, y: int) -> str | None:
        """``Board.locationName`` of a board point (``None``: no grid, or it names nothing)."""
        return self.grid.name_at(x, y) if self.grid is not None else None


@dataclass(frozen=True)
class ModuleMap:
    """A ``Map`` (or ``PrivateMap``, ``PlayerHand``, a chart window's ``WidgetMap``): boards,
    default layout, stacks, metrics. ``kind`` is the class's short name.

    ``layout`` is the BoardPicker's default ``<setup>`` as (board, column, row);
    ``helpers`` the short class names of its direct children.
    """

    name: str
    kind: str
    line: int
    boards: tuple[Board, ...]
    layout: tuple[tuple[str, int, int], ...]
    edge: tuple[int, int]
    stacks: tuple[SetupStack, ...]
    stack_offset: tuple[int, int] = (2, 4)
    stack_colour: str | None = None
    stacking_disabled: bool = False
    background: str | None = None
    helpers: frozenset[str] = frozenset()

    def board(self, name: str) -> Board | None:
        """The board of that name, if the map has one."""
        return next((b for b in self.boards if b.name == name), None)


@dataclass
class Module:
    """A module (or bare build file) read once (see the module docstring).

    ``source`` stays open for images and entries until :meth:`close`.
    """

    source: ModuleSource
    root_tag: str
    name: str
    version: str
    vassal_version: str | None
    next_piece_slot_id: str | None
    attributes: dict[str, str]
    maps: tuple[ModuleMap, ...]
    prototypes: dict[str, Prototype]
    slots: tuple[PieceSlot, ...]
    prototype_list: tuple[Prototype, ...] = ()
    sides: tuple[str, ...] = ()
    moduledata: dict[str, str] | None = None
    turn_levels: tuple[str, ...] = ()  # the first turn tracker's top levels (class names)

    @property
    def path(self) -> Path:
        """The file read."""
        return self.source.path

    def main_map(self, board: str | None = None) -> ModuleMap:
        """The map a game opens on: the first ``Map`` (else the first private map or hand),
        or the first map with a board of that name (``ModuleError`` naming the boards)."""
        maps = sorted(self.maps, key=lambda m: (m.kind != "Map", m.line))
        if not maps:
            raise ModuleError(self.path, "the module has no map to preview")
        if board is None:
            return maps[0]
        for the_map in maps:
            if the_map.board(board) is not None:
                return the_map
        names = [b.name for m in maps for b in m.boards]
        raise ModuleError(self.path, f"no board '{board}' in the module"
                          f"{did_you_mean(board, names)} (boards:"
                          f" {', '.join(sorted(set(names))) or 'none'})")

    def palette(self) -> list[PieceSlot]:
        """The slots of the piece palette (and other windows), not those of set-up stacks."""
        return [s for s in self.slots if not s.in_setup]

    def close(self) -> None:
        """Close the archive."""
        self.source.close()

    def __enter__(self) -> Module:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- reading -----------------------------------------------------------------------------


def element_text(element: etree._Element) -> str:
    """What VASSAL reads as an element's text: its text nodes only (never CDATA), trimmed."""
    texts = element.xpath("text()")
    return "".join(str(t) for t in texts).strip() if isinstance(texts, list) else ""


def _tag(element: etree._Element) -> str:
    return str(element.tag)


def _short(element: etree._Element) -> str:
    return _tag(element).rsplit(".", 1)[-1]


def _has_cdata(element: etree._Element) -> bool:
    return b"<![CDATA[" in etree.tostring(element, with_tail=False)


def _tags(element: etree._Element) -> Iterator[etree._Element]:
    # Comments and processing instructions have no string tag.
    return (child for child in element if isinstance(child.tag, str))


def _int(element: etree._Element, name: str, default: int) -> int:
    try:
        return int(element.get(name, default))
    except (TypeError, ValueError):
        return default


def _maybe_int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _line(element: etree._Element) -> int:
    return element.sourceline or 0


def _palette_path(element: etree._Element) -> str:
    names = [a.get("entryName") or a.get("name") or "" for a in element.iterancestors()
             if _tag(a).startswith(("VASSAL.build.widget.", M + "PieceWindow"))]
    return " / ".join(reversed([n for n in names if n]))


def _slot(element: etree._Element) -> PieceSlot:
    width, height = _int(element, "width", DUMMY_SIZE), _int(element, "height", DUMMY_SIZE)
    return PieceSlot(
        entry_name=element.get("entryName") or element.get("name") or "",
        gpid=element.get("gpid"),
        width=width if 8 <= width <= 1000 else DUMMY_SIZE,
        height=height if 8 <= height <= 1000 else DUMMY_SIZE,
        text=element_text(element), line=_line(element), cdata=_has_cdata(element),
        palette=_palette_path(element),
        in_setup=any(a.tag == SETUP_STACK for a in element.iterancestors()),
        card=element.tag == CARD_SLOT)


def _polygon(path: str | None) -> tuple[tuple[int, int], ...]:
    points = []
    for pair in (path or "").split(";"):
        if not pair.strip():
            continue
        x, _, y = pair.partition(",")
        try:
            points.append((int(x), int(y)))
        except ValueError:
            return ()
    return tuple(points)


def _first_grid(element: etree._Element) -> etree._Element | None:
    return next((c for c in _tags(element) if c.tag in GRID_TAGS), None)


def _attributes(element: etree._Element) -> dict[str, str]:
    return {str(k): str(v) for k, v in element.attrib.items()}


def _numbered_grid(element: etree._Element, numbering_tag: str, size: tuple[int, int],
                   notes: list[str]) -> Grid | None:
    kind = VassalHexGrid if element.tag == HEX_GRID else VassalSquareGrid
    attrs = _attributes(element)
    try:
        grid: Grid = kind.from_attributes(attrs, None, *size)
    except ValueError:
        notes.append(f"line {_line(element)}: {_short(element)} has a malformed"
                     " number: VASSAL drops it (and what it holds)")
        return None
    numbering = element.find(numbering_tag)
    if numbering is not None:
        try:
            grid = kind.from_attributes(attrs, _attributes(numbering), *size)
        except ValueError:
            notes.append(f"line {_line(numbering)}: the grid numbering has a malformed number:"
                         " VASSAL drops it, so the grid names nothing")
    return grid


def _grid(element: etree._Element | None, size: tuple[int, int],
          notes: list[str]) -> Grid | None:
    """A grid element as VASSAL builds it (``None``: no grid, or one VASSAL drops)."""
    if element is None:
        return None
    if element.tag == HEX_GRID:
        return _numbered_grid(element, HEX_NUMBERING, size, notes)
    if element.tag == SQUARE_GRID:
        return _numbered_grid(element, SQUARE_NUMBERING, size, notes)
    if element.tag == REGION_GRID:
        regions = []
        for region in element.iter(REGION):
            x, y = _maybe_int(region.get("originx", "0")), _maybe_int(region.get("originy", "0"))
            if x is not None and y is not None:
                regions.append(VassalRegion(region.get("name") or "", x, y))
        return VassalRegionGrid(tuple(regions), element.get("visible") == "true")
    background = _grid(_first_grid(element), size, notes)
    zones = []
    for zone in _tags(element):
        if zone.tag != ZONE:
            continue
        polygon = _polygon(zone.get("path"))
        if not polygon:
            continue
        parent = zone.get("useParentGrid") == "true"
        own = background if parent else _grid(_first_grid(zone), size, notes)
        zones.append(VassalZone(zone.get("name") or "", polygon,
                                zone.get("locationFormat", "$name$"), own, parent))
    return VassalZonedGrid(tuple(zones), background)


def _estimate_size(board: etree._Element, stacks: Sequence[SetupStack]) -> tuple[int, int] | None:
    """Board extent from what names its points: zones, regions, stack x/y (plus a hex)."""
    xs: list[int] = []
    ys: list[int] = []
    for zone in board.iter(ZONE):
        for x, y in _polygon(zone.get("path")):
            xs.append(x)
            ys.append(y)
    for region in board.iter(REGION):
        xs.append(_int(region, "originx", 0))
        ys.append(_int(region, "originy", 0))
    name = board.get("name")
    for stack in stacks:
        if stack.owning_board in (None, name):
            xs.append(stack.x or 0)
            ys.append(stack.y or 0)
    if not xs:
        return None
    margin = 50
    for grid in board.iter(HEX_GRID):
        try:
            margin = max(margin, math.ceil(float(grid.get("dy", "64"))))
        except (ValueError, OverflowError):
            pass
    return max(max(xs) + margin, 1), max(max(ys) + margin, 1)


def _described_grid(element: etree._Element
                    ) -> tuple[str, dict[str, str], dict[str, str] | None] | None:
    for grid in element.iter(HEX_GRID, SQUARE_GRID):
        numbering = next(iter(grid), None)
        attrs = (_attributes(numbering) if numbering is not None
                 and isinstance(numbering.tag, str) else None)
        return _short(grid), _attributes(grid), attrs
    return None


def _board(element: etree._Element, stacks: Sequence[SetupStack],
           source: ModuleSource) -> Board:
    name = element.get("name") or ""
    image = element.get("image") or None
    notes: list[str] = []
    if image:
        size = image_size(source, image)
        size_from = "image"
        if size is None:
            why = ("a bare build file has no images" if not source.is_archive
                   else f"images/{image} is missing or unreadable")
            size = _estimate_size(element, stacks)
            size_from = "estimate" if size is not None else "default"
            shape = ("the extent of its zones, regions and stacks" if size is not None
                     else f"{DEFAULT_BOARD}x{DEFAULT_BOARD} px")
            notes.append(f"board '{name}': {why}; drawn as a blank board, {shape}")
            size = size or (DEFAULT_BOARD, DEFAULT_BOARD)
    else:
        size = (_int(element, "width", DEFAULT_BOARD), _int(element, "height", DEFAULT_BOARD))
        size_from = "attributes"
    width, height = max(1, size[0]), max(1, size[1])
    grid = _grid(_first_grid(element), (width, height), notes)
    return Board(name, image, _line(element), width, height, size_from, grid,
                 element.get("color"), element.get("reversible") == "true",
                 _described_grid(element), tuple(notes))


def _stack(element: etree._Element) -> SetupStack:
    owner = element.get("owningBoard") or None
    return SetupStack(
        name=element.get("name") or "", line=_line(element),
        owning_board=None if owner == "<any>" else owner,
        use_grid_location=element.get("useGridLocation") == "true",
        location=element.get("location") or "",
        x=_maybe_int(element.get("x", "0")), y=_maybe_int(element.get("y", "0")),
        slots=tuple(_slot(s) for s in element.iter(PIECE_SLOT, CARD_SLOT)),
        attributes=_attributes(element))


def _layout(picker: etree._Element | None) -> tuple[tuple[str, int, int], ...]:
    setup = picker.find("setup") if picker is not None else None
    text = (setup.text or "").strip() if setup is not None else ""
    if not text:
        return ()
    tokens = Decoder(text, "\t")
    tokens.next()  # <map name>BoardPicker
    out = []
    while tokens.has_more():
        name = Decoder(tokens.next(), "/").next("")
        out.append((name, _int_token(tokens), _int_token(tokens)))
    return tuple(out)


def _int_token(decoder: Decoder) -> int:
    try:
        return int(decoder.next("0"))
    except ValueError:
        return 0


def _map(element: etree._Element, source: ModuleSource) -> ModuleMap:
    stacks = tuple(_stack(s) for s in element.iter(SETUP_STACK))
    metrics = element.find(M + "map.StackMetrics")
    offset, colour, disabled = (2, 4), None, False
    if metrics is not None:
        offset = (_int(metrics, "unexSepX", 2), _int(metrics, "unexSepY", 4))
        colour = metrics.get("color")
        disabled = metrics.get("disabled") == "true"
    return ModuleMap(
        name=element.get("mapName") or "", kind=_short(element),
        line=_line(element),
        boards=tuple(_board(b, stacks, source) for b in element.iter(BOARD)),
        layout=_layout(element.find(M + "map.BoardPicker")),
        edge=(_int(element, "edgeWidth", 0), _int(element, "edgeHeight", 0)),
        stacks=stacks, stack_offset=offset, stack_colour=colour, stacking_disabled=disabled,
        background=element.get("backgroundcolor"),
        helpers=frozenset(_short(c) for c in _tags(element)))


def module_from_source(source: ModuleSource) -> Module:
    """Read an opened module's build file into a :class:`Module`."""
    root = source.root
    prototype_list = tuple(Prototype(p.get("name") or "", p.get("description") or "",
                                     element_text(p), _line(p), _has_cdata(p))
                           for p in root.iter(PROTOTYPE))
    roster = root.find(M + "PlayerRoster")
    sides = tuple(s for e in (roster.iter() if roster is not None else ())
                  if e is not roster and isinstance(e.tag, str)
                  and (s := (e.text or "").strip()))
    tracker = root.find(M + "turn.TurnTracker")
    levels = tuple(_short(c) for c in _tags(tracker)) if tracker is not None else ()
    moduledata = None
    if source.moduledata is not None:
        moduledata = {str(c.tag): (c.text or "").strip() for c in _tags(source.moduledata)}
        moduledata["VassalVersion"] = vassal_version_of(source.moduledata) or ""
    return Module(
        source=source, root_tag=str(root.tag), name=root.get("name") or "",
        version=root.get("version") or "", vassal_version=root.get("VassalVersion"),
        next_piece_slot_id=root.get("nextPieceSlotId"), attributes=_attributes(root),
        maps=tuple(_map(m, source) for m in root.iter(*MAPS)),
        prototypes={p.name: p for p in prototype_list},
        slots=tuple(_slot(s) for s in root.iter(PIECE_SLOT, CARD_SLOT)),
        prototype_list=prototype_list, sides=sides, moduledata=moduledata,
        turn_levels=tuple(lv for lv in levels if lv.endswith("TurnLevel")))


def read_module(path: str | Path) -> Module:
    """Open a module (or bare build file) safely and read it (close it, or use ``with``).

    Examples
    --------
    >>> import tempfile
    >>> bare = Path(tempfile.mkdtemp()) / "buildFile.xml"
    >>> _ = bare.write_text('<VASSAL.build.GameModule name="m"><VASSAL.build.module.Map'
    ...     ' mapName="Main"><VASSAL.build.module.map.BoardPicker><VASSAL.build.module.map.'
    ...     'boardPicker.Board name="A"/></VASSAL.build.module.map.BoardPicker>'
    ...     '</VASSAL.build.module.Map></VASSAL.build.GameModule>')
    >>> with read_module(bare) as module:
    ...     [(m.name, [(b.name, b.width, b.size_from) for b in m.boards]) for m in module.maps]
    [('Main', [('A', 500, 'attributes')])]

    Raises
    ------
    ModuleError
        The file cannot be read safely (see :mod:`pipeline.vassal.source`).
    """
    source = open_module(path)
    try:
        return module_from_source(source)
    except BaseException:
        source.close()
        raise


# -- pieces: prototypes expanded ---------------------------------------------------------


def expand_traits(text: str, prototypes: dict[str, Prototype], depth: int = 0) -> list[Trait]:
    """A definition's traits outermost first, each ``prototype;NAME`` replaced by that
    prototype's traits (minus its BasicPiece), as VASSAL does when it builds the piece.

    An unknown prototype, or one that does not decode, contributes nothing.

    Raises
    ------
    ModuleError
        ``text`` itself does not decode.
    """
    out: list[Trait] = []
    for trait in PieceDefinition.decode(text).traits:
        if trait.id == "prototype;":
            name = (trait.fields or [""])[0]
            if name in prototypes and depth < MAX_PROTOTYPE_DEPTH:
                try:
                    inner = expand_traits(prototypes[name].text, prototypes, depth + 1)
                except ModuleError:
                    continue
                out.extend(t for t in inner if t.id != "piece;")
            continue
        out.append(trait)
    return out


# -- boards on a map, stacks on boards -----------------------------------------------------


@dataclass
class PlacedBoard:
    """A board where the map puts it: column and row of the layout, map pixel offset."""

    board: Board
    column: int = 0
    row: int = 0
    x: int = 0
    y: int = 0

    def contains(self, x: int, y: int) -> bool:
        """Whether a map point lies on this board."""
        return (self.x <= x < self.x + self.board.width
                and self.y <= y < self.y + self.board.height)


def lay_out_boards(the_map: ModuleMap, chosen: Sequence[tuple[str, int, int]] | None = None,
                   only: str | None = None) -> tuple[list[PlacedBoard], list[str]]:
    """The boards of a map where VASSAL puts them, and notes (``Map.setBoardBoundaries``).

    Parameters
    ----------
    the_map
        The map.
    chosen
        The boards in play as (name, column, row), e.g. from a saved game;
        default: the map's default layout, or its only board.
    only
        Lay out just this board (at column 0, row 0).
    """
    notes: list[str] = []
    placed: list[PlacedBoard] = []
    if only is not None:
        board = the_map.board(only)
        placed = [PlacedBoard(board)] if board is not None else []
    else:
        for name, column, row in chosen if chosen is not None else the_map.layout:
            board = the_map.board(name)
            if board is not None:
                placed.append(PlacedBoard(board, column, row))
        if not placed and len(the_map.boards) == 1:
            placed = [PlacedBoard(the_map.boards[0])]
        elif not placed and the_map.boards:
            notes.append(f"map '{the_map.name}' has {len(the_map.boards)} boards and no default"
                         " layout: VASSAL asks the player to choose; all are drawn in one row"
                         " (--board draws one)")
            placed = [PlacedBoard(b, i) for i, b in enumerate(the_map.boards)]
    widths = {(p.column, p.row): p.board.width for p in placed}
    heights = {(p.column, p.row): p.board.height for p in placed}
    for p in placed:
        p.x = the_map.edge[0] + sum(widths.get((c, p.row), 0) for c in range(p.column))
        p.y = the_map.edge[1] + sum(heights.get((p.column, r), 0) for r in range(p.row))
    return placed, notes


def map_size(the_map: ModuleMap, placed: Sequence[PlacedBoard]) -> tuple[int, int]:
    """The map's size in pixels: the laid-out boards plus the edge buffer on both sides."""
    right = max((p.x + p.board.width for p in placed), default=0)
    bottom = max((p.y + p.board.height for p in placed), default=0)
    return right + the_map.edge[0], bottom + the_map.edge[1]


@dataclass(frozen=True)
class StackPlacement:
    """Where an at-start stack goes when a game starts.

    ``point`` is in map pixels (``None`` when the stack is ``skipped``: not
    placed at all, with the reason). ``unresolved`` is the reason its grid
    location gives no point (VASSAL then uses ``x``/``y``, and so is
    ``point``); ``board`` is the board it was looked up on.
    """

    stack: SetupStack
    board: PlacedBoard | None
    point: tuple[int, int] | None
    unresolved: str | None = None
    skipped: str | None = None


def place_stack(the_map: ModuleMap, stack: SetupStack,
                placed: Sequence[PlacedBoard]) -> StackPlacement:
    """Where VASSAL puts an at-start stack (see the module docstring)."""
    on_map = {p.board.name: p for p in placed}
    owner = stack.owning_board
    if owner is not None and owner not in on_map:
        reason = (f"owning board '{owner}' is not drawn" if the_map.board(owner) is not None
                  else f"owningBoard '{owner}' is not a board of this map: VASSAL places it"
                  " nowhere")
        return StackPlacement(stack, None, None, skipped=reason)
    if not placed:
        return StackPlacement(stack, None, None, skipped=f"map '{the_map.name}' has no board")
    board = on_map[owner] if owner is not None else placed[0]
    if stack.x is None or stack.y is None:
        return StackPlacement(stack, board, None,
                              skipped="x/y is not an integer: VASSAL drops the stack")
    point = (stack.x, stack.y)
    unresolved = None
    if stack.use_grid_location:
        grid = board.board.grid
        try:
            if grid is None:
                raise BadCoords("the board has no grid")
            if not stack.location:
                raise BadCoords("no location given")
            point = grid.locate(stack.location)
        except BadCoords as exc:
            unresolved = str(exc)
    offset = (board.x, board.y) if owner is not None else the_map.edge
    return StackPlacement(stack, board, (point[0] + offset[0], point[1] + offset[1]),
                          unresolved=unresolved)


def stack_positions(bounds: Sequence[tuple[int, int, int, int]], point: tuple[int, int],
                     sep: tuple[int, int]) -> list[tuple[int, int]]:
    """``StackMetrics`` for a collapsed stack: each piece's point, bottom first.

    ``bounds`` are the pieces' shapes around their points (x, y, width, height),
    ``sep`` is ``(unexSepX, unexSepY)``: each piece sits that far right of and
    above the one below it, aligned on the left and bottom edges.

    >>> stack_positions([(-20, -20, 40, 40), (-20, -20, 40, 40)], (100, 100), (2, 4))
    [(100, 100), (102, 96)]
    """
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
