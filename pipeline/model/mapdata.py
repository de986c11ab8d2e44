"""Map data (``map.json``): boards and grids, terrain per hex, hexside features.

The model owns the JSON; :mod:`pipeline.hexgrid` owns the geometry. A map
names its own vocabulary (``terrain_types``, ``hexside_features``,
``hex_features``) and every hex and hexside may only use those names, so a
typo is caught at load time with the place and the closest right name.

A hexside is stored once: by its two hexes, or by one hex and a direction
where it lies on the map edge (ARCHITECTURE.md, "Conventions").
"""

# No ``from __future__ import annotations`` here: pydantic then reads each field's type
# as an object, not a string it evaluates, which saves a sixth of the time building
# these classes takes at every start (issue 18).

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import ConfigDict, Field, PrivateAttr, model_validator

from pipeline.errors import GridError, did_you_mean
from pipeline.hexgrid import (
    Hex,
    HexGrid,
    JoinedGrid,
    Layout,
    Numbering,
    Orientation,
    board_shift,
    join_grids,
)
from pipeline.model.base import Cite, Color, Invalid, Model, Name, Note
from pipeline.model.documents import read_json, validate_document

__all__ = [
    "LINT_KINDS",
    "Board",
    "EdgeName",
    "GridSpec",
    "HexEntry",
    "HexFeatureType",
    "HexsideEntry",
    "HexsideFeatureType",
    "LayoutSpec",
    "Location",
    "MapData",
    "MapEdge",
    "NumberingSpec",
    "TerrainType",
    "load_map",
    "map_from_data",
]

Stagger = Literal[
    "even-down", "odd-down", "even-up", "odd-up",
    "even-right", "odd-right", "even-left", "odd-left",
]
EdgeName = Literal["north", "south", "east", "west"]
Fraction = Annotated[float, Field(ge=0, le=1)]

# The kinds of finding ``bocage validate``'s lint makes (pipeline/validate/lint.py owns the
# checks; a test holds the two lists equal). A map may switch any of them off, with a reason.
LINT_KINDS: tuple[str, ...] = (
    "bridge_without_road_river", "duplicate_hexside", "lone_rare_terrain", "missing_hex",
    "river_break", "river_dead_end", "road_dead_end", "road_gap", "road_river_without_bridge",
    "sea_without_coast", "town_terrain",
)

# Bounds that keep a typo (cols: 250000) from building a grid the size of a
# country; the largest printed hex maps are a few hundred hexes across.
MAX_LINES = 400


class NumberingSpec(Model):
    """How the board prints its hex ids (see :class:`pipeline.hexgrid.Numbering`)."""

    stagger: Stagger = Field(description="which printed lines sit half a hex down/right;"
                             " a fact of each map, so it has no default")
    first_col: int = Field(1, ge=0)
    first_row: int = Field(1, ge=0)
    col_digits: int = Field(2, ge=1, le=6)
    row_digits: int = Field(2, ge=1, le=6)
    prefix: str = ""
    separator: str = ""
    descending_cols: bool = False
    descending_rows: bool = False
    row_first: bool = False

    def to_numbering(self) -> Numbering:
        """The :class:`~pipeline.hexgrid.Numbering` this spec describes."""
        return Numbering(**self.model_dump())


class LayoutSpec(Model):
    """Pixel geometry of the grid on the board image (see :class:`pipeline.hexgrid.Layout`)."""

    dx: float = Field(gt=0)
    dy: float = Field(gt=0)
    x0: float
    y0: float
    rotation: float = 0.0
    affine: list[float] | None = Field(
        None, min_length=4, max_length=4, description="the full 2x2 matrix [a, b, c, d] from"
        " pitch units to pixels (x = a*u + b*v, y = c*u + d*v) of a fitted grid with shear;"
        " when given it wins over dx, dy and rotation, which stay as the nearest upright grid"
        " (what VASSAL uses)")

    def to_layout(self) -> Layout:
        """The :class:`~pipeline.hexgrid.Layout` this spec describes."""
        affine = None if self.affine is None else (
            self.affine[0], self.affine[1], self.affine[2], self.affine[3])
        return Layout(dx=self.dx, dy=self.dy, x0=self.x0, y0=self.y0, rotation=self.rotation,
                      affine=affine)


class GridSpec(Model):
    """A board's grid: orientation, numbering, size, missing hexes, pixel layout."""

    orientation: Literal["flat", "pointy"]
    numbering: NumberingSpec
    cols: int = Field(ge=1, le=MAX_LINES)
    rows: int = Field(ge=1, le=MAX_LINES)
    exclude: list[str] = []
    layout: LayoutSpec | None = None


class BoardPlacement(Model):
    """Where a board lies on the first board's hex lattice (boards after the first only).

    ``hex`` is one of this board's ids and ``at`` the id the first board's numbering
    gives the same place, read beyond its edge if need be: ``{"hex": "B0101", "at":
    "A5201"}`` puts board B just east of a 51-column board A.
    """

    hex: str = Field(min_length=1)
    at: str = Field(min_length=1)
    note: Note = ""


class Board(Model):
    """One map board; games on two boards (Cobra's A and B) have two."""

    name: str = Field(min_length=1)
    grid: GridSpec
    image: str | None = None
    placement: BoardPlacement | None = Field(
        None, description="how this board joins the first one; with every board after the"
        " first placed, the rules engine plays them as one map")
    note: Note = ""


class TerrainType(Model):
    """One in-hex terrain of the map's own vocabulary."""

    color: Color | None = None
    note: Note = ""


class HexsideFeatureType(Model):
    """One hexside feature: ``along`` a hexside (river) or ``across`` it (road)."""

    kind: Literal["along", "across"]
    color: Color | None = None
    absent: Fraction | None = Field(
        None, description="how sure a reading is that a hexside carries none of this line"
        " where the map lists neither the line nor an `absent` value for it there: the"
        " hexside showed no trace of its colour (digitized maps)"
    )
    note: Note = ""


class HexFeatureType(Model):
    """One symbol printed in a hex (town dot, city name, fort)."""

    color: Color | None = None
    note: Note = ""


class HexEntry(Model):
    """What one hex holds. Hexes not listed have the map's ``default_terrain``."""

    terrain: list[str] = Field(min_length=1)
    fractions: dict[str, Fraction] | None = Field(
        None, description="share of the hex's area per terrain (digitized maps)"
    )
    confidence: Fraction | None = Field(None, description="how sure a classifier was")
    probabilities: dict[str, Fraction] | None = Field(
        None, description="each terrain's probability of being the hex's main terrain, as a"
        " classifier gave it (those of 0.01 or more; digitized maps): a typed terrain given"
        " almost none contradicts the reading even where it covers part of the hex"
    )
    provenance: Literal["read", "labelled", "corrected"] | None = Field(
        None, description="who says so: 'read' by the digitizer, 'labelled' by a person as an"
        " example, 'corrected' by a person over a reading (labelled and corrected hexes count"
        " as checked)"
    )
    elevation: int | None = None
    name: str | None = None
    features: list[str] = []
    note: Note = ""


class HexsideEntry(Model):
    """Features on one hexside: ``{"hexes": [a, b]}``, or ``{"hex", "direction"}`` at the edge."""

    # A digitized map may say only how sure it is that lines are not there.
    model_config = ConfigDict(json_schema_extra={"anyOf": [
        {"properties": {"features": {"minItems": 1}}},
        {"required": ["absent"], "properties": {"absent": {"type": "object"}}}]})

    hexes: list[str] | None = Field(None, min_length=2, max_length=2)
    hex: str | None = None
    direction: str | None = None
    features: list[str] = Field(
        description="the features on the hexside (at least one, unless the entry gives"
        " `absent`)"
    )
    confidence: dict[str, Fraction] | None = Field(
        None, description="how sure the digitizer's reading of each feature is (digitized maps)"
    )
    drawn: dict[str, Fraction] | None = Field(
        None, description="how sure the digitizer is that a line of each feature's ink crosses"
        " here, where it is less sure of the line's name (a road and a railroad printed in one"
        " ink are told apart by the railroad's ticks; `confidence` is the name's) (digitized"
        " maps)"
    )
    absent: dict[str, Fraction] | None = Field(
        None, description="how sure the digitizer's reading is that each line named is not on"
        " this hexside, where it saw a trace of the line's colour (0.5: the ground would hide"
        " the line); a line neither listed nor named here has its vocabulary entry's `absent`"
        " (digitized maps)"
    )
    provenance: Literal["read", "labelled", "corrected"] | None = Field(
        None, description="who says so, as for a hex"
    )
    note: Note = ""

    @model_validator(mode="after")
    def _one_form(self) -> Self:
        if not self.features and not self.absent:
            raise Invalid(("features",), "a hexside entry lists at least one feature")
        edge_form = self.hex is not None or self.direction is not None
        if self.hexes is not None and edge_form:
            raise Invalid((), 'give either "hexes": [a, b] or "hex" + "direction", not both')
        if self.hexes is None and not edge_form:
            raise Invalid((), 'a hexside needs "hexes": [a, b] (or "hex" + "direction" at the'
                          " map edge)")
        if self.hexes is None and (self.hex is None or self.direction is None):
            missing = "direction" if self.direction is None else "hex"
            raise Invalid((), f"missing required key '{missing}' (a map-edge hexside needs both)")
        return self

    def key(self) -> tuple[str, ...]:
        """The ids that name this hexside: two hexes sorted, or ``(hex, direction)``."""
        if self.hexes is not None:
            return tuple(sorted(self.hexes))
        return (str(self.hex), str(self.direction))


class Location(Model):
    """A named place: a town, a beach, a victory location, a boundary."""

    name: str = Field(min_length=1)
    kind: str = Field(min_length=1)
    hexes: list[str] = Field(min_length=1)
    note: Note = ""
    cite: Cite = ""


class MapEdge(Model):
    """What a map edge means to the rules (entry area, supply source, ...)."""

    role: str = Field(min_length=1)
    side: str | None = None
    note: Note = ""
    cite: Cite = ""


@dataclass(frozen=True)
class _BoardGrid:
    """A board with its grid, and the lattice bounds used for fast membership."""

    board: Board
    grid: HexGrid
    excluded: frozenset[Hex]

    def holds(self, h: Hex) -> bool:
        # Bounds arithmetic instead of grid.contains: no per-hex set is built.
        c, r = self.grid.offset(h)
        return 0 <= c < self.grid.cols and 0 <= r < self.grid.rows and h not in self.excluded

    def find(self, hex_id: str) -> Hex | None:
        """The hex ``hex_id`` names if it is on this board and written as the map writes it."""
        try:
            h = self.grid.hex(hex_id)
        except GridError:
            return None
        # One spelling per hex ('04.21', not '4.21'), so ids can be dict keys.
        return h if self.holds(h) and self.grid.id(h) == hex_id else None

    def parses(self, hex_id: str) -> bool:
        """Whether ``hex_id`` is written in this board's numbering (on the board or not)."""
        try:
            self.grid.hex(hex_id)
        except GridError:
            return False
        return True

    def why_not(self, hex_id: str) -> str | None:
        """Why ``hex_id`` is not on this board, or ``None`` when it is."""
        try:
            h = self.grid.hex(hex_id)
        except GridError:
            return (f"'{hex_id}' is not a hex id of this map (ids look like"
                    f" '{self.grid.numbering.example()}'; {self.grid.describe_extent()})")
        if h in self.excluded:
            return f"hex '{hex_id}' is excluded from the grid"
        if not self.holds(h):
            return f"hex '{hex_id}' is not on the grid ({self.grid.describe_extent()})"
        if self.grid.id(h) != hex_id:
            return f"hex '{hex_id}' is written '{self.grid.id(h)}' on this map"
        return None


class MapData(Model):
    """A map document (``kind: "map"``).

    Examples
    --------
    >>> m = MapData.model_validate({
    ...     "kind": "map", "game": "demo", "title": "t", "illustrative": True,
    ...     "source": "invented", "terrain_types": {"clear": {}, "woods": {}},
    ...     "boards": [{"name": "1", "grid": {"orientation": "flat", "cols": 4, "rows": 4,
    ...                                       "numbering": {"stagger": "even-down"}}}],
    ...     "hexes": {"0202": {"terrain": ["woods"]}}})
    >>> m.terrain_of("0202"), m.terrain_of("0101"), m.has_hex("0505")
    (['woods'], ['clear'], False)
    """

    kind: Literal["map"]
    game: str = Field(min_length=1)
    title: str
    illustrative: bool = Field(description="true when the data is invented (demo data)")
    notes: Note = ""
    source: Cite
    boards: list[Board] = Field(min_length=1)
    terrain_types: dict[Name, TerrainType] = Field(min_length=1)
    hexside_features: dict[Name, HexsideFeatureType] = {}
    hex_features: dict[Name, HexFeatureType] = {}
    default_terrain: str = "clear"
    hexes: dict[str, HexEntry] = {}
    hexsides: list[HexsideEntry] = []
    locations: list[Location] = []
    edges: dict[EdgeName, MapEdge] = {}
    lint_off: dict[str, Annotated[str, Field(min_length=1)]] = Field(
        {}, description="lint kinds of `bocage validate` switched off for this map, each with"
        " the reason (a rule, or what the map's printing does): {\"sea_without_coast\": \"the"
        " coast is printed as cliffs, not as a terrain\"}",
        json_schema_extra={"propertyNames": {"enum": list(LINT_KINDS)}})

    _boards: list[_BoardGrid] = PrivateAttr(default_factory=list)
    _joined: JoinedGrid | None = PrivateAttr(default=None)

    # -- checks that need the whole document --------------------------------------

    @model_validator(mode="after")
    def _check(self) -> Self:
        self._boards = _build_boards(self.boards)
        self._joined = _join_boards(self._boards)
        if self.default_terrain not in self.terrain_types:
            raise Invalid(("default_terrain",), self._unknown("terrain", self.default_terrain))
        for hex_id, entry in self.hexes.items():
            self._check_hex(hex_id, entry)
        for i, side in enumerate(self.hexsides):
            self._check_hexside(i, side)
        for i, place in enumerate(self.locations):
            for j, hex_id in enumerate(place.hexes):
                self._require_hex(("locations", i, "hexes", j), hex_id)
        for kind in self.lint_off:
            if kind not in LINT_KINDS:
                raise Invalid(("lint_off", kind), f"unknown lint kind '{kind}'"
                              f"{did_you_mean(kind, LINT_KINDS)} (one of {', '.join(LINT_KINDS)})")
        return self

    def _unknown(self, what: str, name: str) -> str:
        vocabularies: dict[str, list[str]] = {
            "terrain": list(self.terrain_types),
            "hex feature": list(self.hex_features),
            "hexside feature": list(self.hexside_features),
        }
        vocab = vocabularies[what]
        known = ", ".join(sorted(vocab)) or "none"
        hint = did_you_mean(name, vocab)
        return f"unknown {what} '{name}'{hint or f' (this map knows: {known})'}"

    def _check_hex(self, hex_id: str, entry: HexEntry) -> None:
        self._require_hex(("hexes", hex_id), hex_id)
        for j, name in enumerate(entry.terrain):
            if name not in self.terrain_types:
                raise Invalid(("hexes", hex_id, "terrain", j), self._unknown("terrain", name))
        for shares in ("fractions", "probabilities"):
            for name in getattr(entry, shares) or {}:
                if name not in self.terrain_types:
                    raise Invalid(("hexes", hex_id, shares, name), self._unknown("terrain", name))
        for j, name in enumerate(entry.features):
            if name not in self.hex_features:
                raise Invalid(("hexes", hex_id, "features", j), self._unknown("hex feature", name))

    def _check_hexside(self, i: int, side: HexsideEntry) -> None:
        where = ("hexsides", i)
        if side.hexes is not None:
            a_id, b_id = side.hexes
            a_board, a = self._require_hex((*where, "hexes", 0), a_id)
            b_board, b = self._require_hex((*where, "hexes", 1), b_id)
            if a_board is not b_board:
                joined = self.joined_grid()
                if joined is None:
                    raise Invalid((*where, "hexes"), f"hexes '{a_id}' and '{b_id}' are on"
                                  " different boards, and the boards are not placed (give each"
                                  " board after the first a placement)")
                if not joined.adjacent(joined.hex(a_id), joined.hex(b_id)):
                    raise Invalid((*where, "hexes"), f"hexes '{a_id}' and '{b_id}' are not"
                                  " adjacent across the seam, so they share no hexside")
                return self._check_features(where, side)
            if a == b:
                raise Invalid((*where, "hexes"), "a hexside joins two different hexes,"
                              f" got '{a_id}' twice")
            if not a_board.grid.adjacent(a, b):
                raise Invalid((*where, "hexes"), f"hexes '{a_id}' and '{b_id}' are not adjacent,"
                              " so they share no hexside")
        else:
            hex_id, direction = str(side.hex), str(side.direction)
            board, h = self._require_hex((*where, "hex"), hex_id)
            names = board.grid.direction_names
            if direction not in names:
                raise Invalid((*where, "direction"), f"unknown direction '{direction}'"
                              f"{did_you_mean(direction, names)} (one of {', '.join(names)})")
            other = board.grid.neighbour(h, direction)
            if board.holds(other):
                other_id = board.grid.id(other)
                raise Invalid(where, f"hexside {hex_id}/{direction} is inside the map, not on its"
                              f' edge: write it as {{"hexes": ["{hex_id}", "{other_id}"]}}')
        self._check_features(where, side)

    def _check_features(self, where: tuple[str | int, ...], side: HexsideEntry) -> None:
        for j, name in enumerate(side.features):
            if name not in self.hexside_features:
                raise Invalid((*where, "features", j), self._unknown("hexside feature", name))
        for name in side.confidence or {}:
            if name not in side.features:
                raise Invalid((*where, "confidence", name), f"confidence for '{name}', which this"
                              f" hexside does not list (its features: {', '.join(side.features)})")
        for name in side.absent or {}:
            if name not in self.hexside_features:
                raise Invalid((*where, "absent", name), self._unknown("hexside feature", name))
            if name in side.features:
                raise Invalid((*where, "absent", name), f"'{name}' is listed on this hexside:"
                              " a reading of its absence here contradicts it")

    def _require_hex(self, where: tuple[str | int, ...], hex_id: str) -> tuple[_BoardGrid, Hex]:
        for board in self._boards:
            h = board.find(hex_id)
            if h is not None:
                return board, h
        raise Invalid(where, self.why_not_on_map(hex_id))

    # -- queries ------------------------------------------------------------------

    def _board_grids(self) -> list[_BoardGrid]:
        if not self._boards:  # built by model_construct, which skips validation
            self._boards = _build_boards(self.boards)
        return self._boards

    def grids(self) -> dict[str, HexGrid]:
        """Each board's :class:`~pipeline.hexgrid.HexGrid`, by board name, in board order."""
        return {b.board.name: b.grid for b in self._board_grids()}

    def joined_grid(self) -> JoinedGrid | None:
        """All boards on one lattice when every board after the first has a placement
        (``None`` for a single board or unplaced boards)."""
        if self._joined is None and len(self.boards) > 1:
            self._joined = _join_boards(self._board_grids())
        return self._joined

    def board_for(self, hex_id: str) -> Board | None:
        """The board a printed hex id is on, or ``None`` when it is on no board."""
        for b in self._board_grids():
            if b.find(hex_id) is not None:
                return b.board
        return None

    def grid_for(self, hex_id: str) -> HexGrid | None:
        """The grid of the board a printed hex id is on, or ``None``."""
        for b in self._board_grids():
            if b.find(hex_id) is not None:
                return b.grid
        return None

    def has_hex(self, hex_id: str) -> bool:
        """Whether ``hex_id`` is a hex on one of the boards."""
        return self.board_for(hex_id) is not None

    def hex_ids(self) -> Iterator[str]:
        """Every hex id of the map, board by board, in the grid's id order."""
        for b in self._board_grids():
            for h in b.grid.hexes():
                yield b.grid.id(h)

    def terrain_of(self, hex_id: str) -> list[str]:
        """The terrain of a hex: its entry's list, or ``[default_terrain]``."""
        entry = self.hexes.get(hex_id)
        return list(entry.terrain) if entry is not None else [self.default_terrain]

    def used_terrain(self) -> set[str]:
        """Terrain names the hexes actually use (the default included when a hex is unlisted)."""
        used = {name for entry in self.hexes.values() for name in entry.terrain}
        total = sum(b.grid.cols * b.grid.rows - len(b.excluded) for b in self._board_grids())
        if len(self.hexes) < total:
            used.add(self.default_terrain)
        return used

    def used_hexside_features(self) -> set[str]:
        """Hexside feature names the hexsides actually use."""
        return {name for side in self.hexsides for name in side.features}

    def why_not_on_map(self, hex_id: str) -> str:
        """A message saying why ``hex_id`` is not a hex of this map, naming the ranges."""
        boards = self._board_grids()
        if len(boards) == 1:
            return boards[0].why_not(hex_id) or f"hex '{hex_id}' is on the map"
        for b in boards:
            if b.parses(hex_id):
                # Well formed for this board (its prefix): its reason is the useful one.
                return f"board {b.board.name}: {b.why_not(hex_id) or 'on the map'}"
        extents = "; ".join(f"board {b.board.name}: {b.grid.describe_extent()}" for b in boards)
        return f"hex '{hex_id}' is not on any board ({extents})"


def _join_boards(boards: list[_BoardGrid]) -> JoinedGrid | None:
    """The boards on the first one's lattice, if each later board says where it lies."""
    if len(boards) < 2:
        return None
    first = boards[0]
    if first.board.placement is not None:
        raise Invalid(("boards", 0, "placement"), "the first board is where the others are"
                      " placed: it takes no placement")
    placed = [b for b in boards[1:] if b.board.placement is not None]
    if not placed:
        return None
    if len(placed) < len(boards) - 1:
        missing = next(i for i, b in enumerate(boards) if i and b.board.placement is None)
        raise Invalid(("boards", missing, "placement"), "every board after the first needs a"
                      " placement once one has it")
    parts = [(first.grid, Hex(0, 0))]
    for i, b in enumerate(boards[1:], start=1):
        spot = b.board.placement
        assert spot is not None
        where = ("boards", i, "placement")
        if b.find(spot.hex) is None:
            raise Invalid((*where, "hex"), f"hex '{spot.hex}' is not on board"
                          f" '{b.board.name}' ({b.grid.describe_extent()})")
        try:
            parts.append((b.grid, board_shift(first.grid, spot.at, b.grid, spot.hex)))
        except GridError as exc:
            raise Invalid((*where, "at"), str(exc)) from None
    try:
        return join_grids(parts)
    except GridError as exc:
        raise Invalid(("boards",), str(exc)) from None


def _build_boards(boards: list[Board]) -> list[_BoardGrid]:
    """Build each board's grid; errors are located at the board that causes them."""
    names: dict[str, int] = {}
    prefixes: dict[str, int] = {}
    out = []
    for i, board in enumerate(boards):
        if board.name in names:
            raise Invalid(("boards", i, "name"),
                          f"board name '{board.name}' is already used by"
                          f" boards[{names[board.name]}]")
        names[board.name] = i
        prefix = board.grid.numbering.prefix
        if len(boards) > 1:
            if not prefix:
                raise Invalid(("boards", i, "grid", "numbering", "prefix"),
                              "with more than one board every board needs its own id prefix"
                              " (like 'A' in A2519)")
            if prefix in prefixes:
                raise Invalid(("boards", i, "grid", "numbering", "prefix"),
                              f"prefix '{prefix}' is already used by boards[{prefixes[prefix]}]")
            prefixes[prefix] = i
        out.append(_build_board(i, board))
    return out


def _build_board(i: int, board: Board) -> _BoardGrid:
    spec = board.grid
    where: tuple[str | int, ...] = ("boards", i, "grid")
    orientation = Orientation(spec.orientation)
    flat = spec.numbering.stagger.endswith(("down", "up"))
    if flat != (orientation is Orientation.FLAT):
        fits = "even-down, odd-down, even-up, odd-up" if orientation is Orientation.FLAT else (
            "even-right, odd-right, even-left, odd-left")
        raise Invalid((*where, "numbering", "stagger"),
                      f"stagger '{spec.numbering.stagger}' does not suit a {spec.orientation}-top"
                      f" grid (use one of {fits})")
    try:
        numbering = spec.numbering.to_numbering()
    except GridError as exc:
        raise Invalid((*where, "numbering"), str(exc)) from None
    try:
        layout = spec.layout.to_layout() if spec.layout is not None else None
    except GridError as exc:
        raise Invalid((*where, "layout"), str(exc)) from None
    try:
        grid = HexGrid(orientation, numbering, spec.cols, spec.rows, frozenset(), layout)
    except GridError as exc:
        raise Invalid(where, str(exc)) from None
    plain = _BoardGrid(board, grid, frozenset())
    excluded = set()
    for j, hex_id in enumerate(spec.exclude):
        h = plain.find(hex_id)
        if h is None:
            raise Invalid((*where, "exclude", j), f"hex '{hex_id}' is not on the grid"
                          f" ({grid.describe_extent()})")
        excluded.add(h)
    if spec.exclude:
        grid = HexGrid(orientation, numbering, spec.cols, spec.rows,
                       frozenset(spec.exclude), layout)
    return _BoardGrid(board, grid, frozenset(excluded))


def map_from_data(data: Any, file: str | Path | None = "<map>") -> MapData:
    """Validate parsed JSON as a map document; problems raise one located :class:`DataError`.

    Parameters
    ----------
    data
        The parsed document (a dict with ``"kind": "map"``).
    file
        Name used in messages.
    """
    return validate_document(MapData, data, file, kind="map")


def load_map(path: str | Path) -> MapData:
    """Read a map document (map.json); problems raise one located :class:`DataError`."""
    return map_from_data(read_json(path), path)
