"""VASSAL's grid arithmetic: the name of a point, the point of a name, snapping.

A port of ``HexGrid`` + ``HexGridNumbering``, ``SquareGrid`` +
``SquareGridNumbering`` (both on ``RegularGridNumbering``), ``RegionGrid``,
``Zone`` and ``ZonedGrid`` (VASSAL 3.6/3.7, reference ``vassal-format.md`` §3.2,
§5): Java's integer truncation, its ``%`` on negative numbers, the stagger
rule and the odd descending formulas included, because the point of this
module is to predict exactly what VASSAL will call a location. It is the one
place location names come from: the exporter proves its grid with it,
``check`` validates set-up locations, ``preview`` places stacks and labels
hexes, ``inspect`` describes grids and the saved-game reader names the hex
of every piece.

Every grid answers the two questions VASSAL's ``MapGrid`` does:
``locate(name)`` (``getLocation``: a board point, or :class:`BadCoords` with
the reason) and ``name_at(x, y)`` (``locationName``: a name, or ``None``).

>>> g = VassalHexGrid(dx=55.42562584220407, dy=64.0, x0=40, y0=40,
...                   numbering=VassalNumbering(stagger=False))
>>> g.location_point("2318")
(1259, 1128)
>>> g.location_name(1259, 1128)
'2318'
>>> zone = VassalZone("Z", ((0, 0), (400, 0), (400, 400), (0, 400)), "$name$-$gridLocation$", g)
>>> zoned = VassalZonedGrid((zone,), None)
>>> zoned.name_at(*zoned.locate("Z-0403"))
'Z-0403'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from pipeline.vassal.encoding import Decoder

__all__ = [
    "BadCoords",
    "Grid",
    "VassalHexGrid",
    "VassalNumbering",
    "VassalRegion",
    "VassalRegionGrid",
    "VassalSquareGrid",
    "VassalZone",
    "VassalZonedGrid",
    "format_parts",
    "java_int",
    "polygon_contains",
]

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ALPHA_MATCH = "-?(?:" + "|".join(f"{c}+" for c in _ALPHABET) + ")"


def format_parts(location_format: str) -> Iterator[tuple[str, bool]]:
    """The parts of a VASSAL ``$property$`` format as ``(text, is_property)``, as its
    ``getLocation`` reads them: a part after an unmatched ``$`` is literal text.

    >>> list(format_parts("$name$-$gridLocation$"))
    [('name', True), ('-', False), ('gridLocation', True)]
    """
    decoder = Decoder(location_format, "$")
    is_property = True
    while decoder.has_more():
        token = decoder.next()
        is_property = not is_property
        if token:
            yield token, is_property and decoder.has_more()


def java_int(value: float) -> int:
    """Java's ``(int)`` cast of a double: truncation toward zero."""
    return int(math.trunc(value))


def _round(value: float) -> int:
    # Java Math.round and floor(x + 0.5) agree.
    return math.floor(value + 0.5)


def _bool(text: str | None, default: bool) -> bool:
    return default if text is None else text == "true"


class BadCoords(Exception):
    """VASSAL's ``BadCoords``: a grid gives no point for a name (the message says why)."""


@dataclass(frozen=True)
class VassalNumbering:
    """``HexGridNumbering`` attributes (defaults are VASSAL's)."""

    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True
    location_format: str = "$gridLocation$"

    @classmethod
    def from_attributes(cls, attrs: Mapping[str, str]) -> VassalNumbering:
        """From XML attributes; a malformed number raises ``ValueError`` (VASSAL drops it)."""
        def num(name: str, default: int) -> int:
            return int(attrs[name]) if name in attrs else default

        def char(name: str, default: str) -> str:
            return attrs[name][:1] if attrs.get(name) else default

        return cls(
            first=char("first", "H"), sep=attrs.get("sep", ""),
            h_type=char("hType", "N"), v_type=char("vType", "N"),
            h_leading=num("hLeading", 1), v_leading=num("vLeading", 1),
            h_off=num("hOff", 1), v_off=num("vOff", 1),
            h_descend=_bool(attrs.get("hDescend"), False),
            v_descend=_bool(attrs.get("vDescend"), False),
            stagger=_bool(attrs.get("stagger"), True),
            location_format=attrs.get("locationFormat", "$gridLocation$"),
        )

    def attributes(self) -> dict[str, str]:
        """The naming attributes as VASSAL writes them."""
        return {
            "first": self.first, "sep": self.sep, "hType": self.h_type, "vType": self.v_type,
            "hLeading": str(self.h_leading), "vLeading": str(self.v_leading),
            "hOff": str(self.h_off), "vOff": str(self.v_off),
            "hDescend": str(self.h_descend).lower(), "vDescend": str(self.v_descend).lower(),
            "stagger": str(self.stagger).lower(), "locationFormat": self.location_format,
        }

    # -- names of numbers ------------------------------------------------------------

    @staticmethod
    def part_name(value: int, kind: str, leading: int) -> str:
        """``RegularGridNumbering.getName(int, char, int)``."""
        out = "-" if value < 0 else ""
        value = abs(value)
        if kind == "A":
            while True:
                out += _ALPHABET[value % 26]
                value -= 26
                if value < 0:
                    return out
        while leading > 0 and value < 10 ** leading:
            out += "0"
            leading -= 1
        return out + str(value)

    @staticmethod
    def parse_part(text: str, kind: str) -> int:
        """``RegularGridNumbering.parseName``."""
        if kind != "A":
            return int(text)
        value, index, negative = 0, 0, text.startswith("-")
        if negative:
            index = 1
        while index < len(text) and text[index].isupper():
            value += 26 if index < len(text) - 1 else _ALPHABET.index(text[index])
            index += 1
        return -value if negative else value

    def grid_location(self, row: int, col: int) -> str:
        """``getName(row, col)``: the ``$gridLocation$`` of a row and column."""
        row_name = self.part_name(row + self.v_off, self.v_type, self.v_leading)
        col_name = self.part_name(col + self.h_off, self.h_type, self.h_leading)
        return col_name + self.sep + row_name if self.first == "H" else (
            row_name + self.sep + col_name)

    def format_location(self, row: int, col: int) -> str:
        """The location name: ``locationFormat`` with its properties filled in."""
        values = {
            "gridLocation": self.grid_location(row, col),
            "row": self.part_name(row + self.v_off, self.v_type, self.v_leading),
            "column": self.part_name(col + self.h_off, self.h_type, self.h_leading),
        }
        # FormattedString: $name$ is replaced by the property, unknown ones stay.
        return re.sub(r"\$([^$]*)\$", lambda m: values.get(m.group(1), m.group(0)),
                      self.location_format)

    def _pattern(self, kind: str, leading: int) -> str:
        return _ALPHA_MATCH if kind == "A" else f"-?[0-9]{{{leading + 1},}}"

    def parse_location(self, location: str) -> tuple[int, int] | None:
        """``(column, row)`` numbers of a location name, as ``getLocation`` reads it."""
        regex = ""
        col_group = row_group = groups = 0
        for token, is_property in format_parts(self.location_format):
            if not is_property:
                regex += re.escape(token)
            elif token == "gridLocation":
                h = "(" + self._pattern(self.h_type, self.h_leading) + ")"
                v = "(" + self._pattern(self.v_type, self.v_leading) + ")"
                if self.first == "H":
                    regex += h + (re.escape(self.sep) if self.sep else "") + v
                    col_group, row_group = groups + 1, groups + 2
                else:
                    regex += v + re.escape(self.sep) + h
                    row_group, col_group = groups + 1, groups + 2
                groups += 2
            elif token == "row":
                regex += "(" + self._pattern(self.v_type, self.v_leading) + ")"
                groups += 1
                row_group = groups
            elif token == "column":
                regex += "(" + self._pattern(self.h_type, self.h_leading) + ")"
                groups += 1
                col_group = groups
        if not regex or not col_group or not row_group:
            return None
        match = re.fullmatch(regex, location)
        if match is None:
            return None
        return (self.parse_part(match.group(col_group), self.h_type),
                self.parse_part(match.group(row_group), self.v_type))


@dataclass(frozen=True)
class VassalHexGrid:
    """A ``HexGrid`` with its numbering on a board of ``width`` x ``height`` pixels.

    ``x0``/``y0`` are VASSAL's origin (swapped roles when ``sideways``); board
    size matters only for descending numbering.
    """

    dx: float = math.sqrt(3) / 2 * 64
    dy: float = 64.0
    x0: int = 0
    y0: int = 32
    sideways: bool = False
    numbering: VassalNumbering = field(default_factory=VassalNumbering)
    width: int = 0
    height: int = 0
    numbered: bool = True  # False: no HexGridNumbering, so no names at all
    visible: bool = False  # drawn by VASSAL (its own ``visible``)

    @classmethod
    def from_attributes(
        cls, grid: Mapping[str, str], numbering: Mapping[str, str] | None,
        width: int = 0, height: int = 0,
    ) -> VassalHexGrid:
        """From ``HexGrid`` / ``HexGridNumbering`` XML attributes (``ValueError`` if bad).

        ``numbering=None`` is a grid without a numbering element: it names nothing.
        """
        dx = float(grid["dx"]) if "dx" in grid else math.sqrt(3) / 2 * 64
        dy = float(grid["dy"]) if "dy" in grid else 64.0
        if "dx" not in grid and "dy" in grid:
            dx = math.sqrt(3) / 2 * dy  # setting dy recomputes a default dx
        if not (math.isfinite(dx) and math.isfinite(dy) and dx > 0 and dy > 0):
            raise ValueError(f"hex size {dx} x {dy} is not positive")
        return cls(dx=dx, dy=dy, x0=int(grid.get("x0", "0")), y0=int(grid.get("y0", "32")),
                   sideways=_bool(grid.get("sideways"), False),
                   numbering=VassalNumbering.from_attributes(numbering or {}),
                   width=width, height=height, numbered=numbering is not None,
                   visible=_bool(grid.get("visible"), False))

    def locate(self, name: str) -> tuple[int, int]:
        """``getLocation``: the board point of a name; :class:`BadCoords` when there is none."""
        if not self.numbered:
            raise BadCoords("the board's hex grid has no numbering")
        point = self.location_point(name)
        if point is None:
            raise BadCoords("not a name the board's hex grid gives")
        return point

    def name_at(self, x: int, y: int) -> str | None:
        """``locationName``: the name of a board point (``None`` without a numbering)."""
        return self.location_name(x, y) if self.numbered else None

    def _swap(self, x: int, y: int) -> tuple[int, int]:
        return (y, x) if self.sideways else (x, y)

    # -- descending needs the board size (VASSAL's own formulas) ------------------------

    def max_rows(self) -> int:
        """``getMaxRows``: board height over ``dx`` (sic)."""
        return math.floor(self.height / self.dx + 0.5)

    def max_columns(self) -> int:
        """``getMaxColumns``: board width over ``dy`` (sic)."""
        return math.floor(self.width / self.dy + 0.5)

    # -- point -> name -------------------------------------------------------------

    def raw_column(self, x: int, y: int) -> int:
        """``getRawColumn`` of a board point."""
        px, _ = self._swap(x, y)
        return math.floor((px - self.x0) / self.dx + 0.5)

    def raw_row(self, x: int, y: int) -> int:
        """``getRawRow`` of a board point."""
        px, py = self._swap(x, y)
        nx = _round((px - self.x0) / self.dx)
        if nx % 2 == 0:
            return _round((py - self.y0) / self.dy)
        return _round((py - self.y0 - self.dy / 2) / self.dy)

    def column(self, x: int, y: int) -> int:
        """``getColumn``."""
        c = self.raw_column(x, y)
        n = self.numbering
        if n.v_descend and self.sideways:
            c = self.max_rows() - c
        if n.h_descend and not self.sideways:
            c = self.max_columns() - c
        return c

    def row(self, x: int, y: int) -> int:
        """``getRow``."""
        n = self.numbering
        r = self.raw_row(x, y)
        if n.v_descend and not self.sideways:
            r = self.max_rows() - r
        if n.h_descend and self.sideways:
            r = self.max_columns() - r
        if n.stagger and self.raw_column(x, y) % 2 != 0:
            descending = n.h_descend if self.sideways else n.v_descend
            r += -1 if descending else 1
        return r

    def location_name(self, x: int, y: int) -> str:
        """VASSAL's name of the board point ``(x, y)`` (``locationName``)."""
        return self.numbering.format_location(self.row(x, y), self.column(x, y))

    # -- name -> point -------------------------------------------------------------

    def center_point(self, col: int, row: int) -> tuple[int, int]:
        """``getCenterPoint(col, row)`` (numbers less their offsets)."""
        n = self.numbering
        if n.stagger and col % 2 != 0:
            descending = n.h_descend if self.sideways else n.v_descend
            row += 1 if descending else -1
        if self.sideways:
            if n.v_descend:
                col = self.max_rows() - col
            if n.h_descend:
                row = self.max_columns() - row
        else:
            if n.h_descend:
                col = self.max_columns() - col
            if n.v_descend:
                row = self.max_rows() - row
        x = java_int(col * self.dx) + self.x0
        if col % 2 == 0:
            y = java_int(row * self.dy) + self.y0
        else:
            y = java_int(row * self.dy + self.dy / 2) + self.y0
        return self._swap(x, y)

    def location_point(self, location: str) -> tuple[int, int] | None:
        """Board point of a location name (``getLocation``), or ``None`` (BadCoords)."""
        parsed = self.numbering.parse_location(location)
        if parsed is None:
            return None
        col, row = parsed
        return self.center_point(col - self.numbering.h_off, row - self.numbering.v_off)

    # -- drawing geometry ---------------------------------------------------------

    def outline(self, cx: float, cy: float) -> list[tuple[float, float]]:
        """Corners of the hex around a centre, board pixels (flat-topped unless sideways)."""
        dx, dy = self.dx, self.dy
        corners = [(-2 * dx / 3, 0.0), (-dx / 3, -dy / 2), (dx / 3, -dy / 2), (2 * dx / 3, 0.0),
                   (dx / 3, dy / 2), (-dx / 3, dy / 2)]
        if self.sideways:
            return [(cx + b, cy + a) for a, b in corners]
        return [(cx + a, cy + b) for a, b in corners]

    def centres(self, width: int, height: int) -> Iterator[tuple[float, float]]:
        """Centres of every hex touching a board (raw columns and rows, VASSAL's geometry)."""
        along, across = (height, width) if self.sideways else (width, height)
        first_col = math.floor((-self.x0) / self.dx) - 1
        last_col = math.ceil((along - self.x0) / self.dx) + 1
        first_row = math.floor((-self.y0) / self.dy) - 2
        last_row = math.ceil((across - self.y0) / self.dy) + 1
        for col in range(first_col, last_col + 1):
            for row in range(first_row, last_row + 1):
                u = self.x0 + col * self.dx
                v = self.y0 + row * self.dy + (self.dy / 2 if col % 2 else 0.0)
                yield (v, u) if self.sideways else (u, v)

    # -- snapping -----------------------------------------------------------------

    def snap(self, x: int, y: int) -> tuple[int, int]:
        """``snapToHex``: the nearest hex centre as VASSAL snaps a dropped piece."""
        px, py = self._swap(x, y)
        nx = math.floor((px - self.x0 + self.dx / 2) / self.dx)
        sx = java_int(self.dx * nx + self.x0)
        if nx % 2 == 0:
            sy = java_int(self.dy * math.floor((py - self.y0 + self.dy / 2) / self.dy) + self.y0)
        else:
            sy = java_int(self.dy * math.floor((py - self.y0) / self.dy)
                          + java_int(self.dy / 2) + self.y0)
        return self._swap(sx, sy)


# -- square grids --------------------------------------------------------------------


@dataclass(frozen=True)
class VassalSquareGrid:
    """A ``SquareGrid`` with its ``SquareGridNumbering`` (``numbered`` False: none)."""

    dx: float = 48.0
    dy: float = 48.0
    x0: int = 24
    y0: int = 24
    numbering: VassalNumbering = field(default_factory=lambda: VassalNumbering(stagger=False))
    width: int = 0
    height: int = 0
    numbered: bool = True
    visible: bool = False

    @classmethod
    def from_attributes(cls, grid: Mapping[str, str], numbering: Mapping[str, str] | None,
                        width: int = 0, height: int = 0) -> VassalSquareGrid:
        """From ``SquareGrid`` / ``SquareGridNumbering`` XML attributes (``ValueError`` if bad)."""
        dx, dy = float(grid.get("dx", "48.0")), float(grid.get("dy", "48.0"))
        if not (math.isfinite(dx) and math.isfinite(dy) and dx > 0 and dy > 0):
            raise ValueError(f"square size {dx} x {dy} is not positive")
        plain = {**(numbering or {}), "stagger": "false"}
        return cls(dx=dx, dy=dy, x0=int(grid.get("x0", "24")), y0=int(grid.get("y0", "24")),
                   numbering=VassalNumbering.from_attributes(plain), width=width,
                   height=height, numbered=numbering is not None,
                   visible=_bool(grid.get("visible"), False))

    def _max_rows(self) -> int:
        return java_int(self.height / self.dy + 0.5)

    def _max_columns(self) -> int:
        return java_int(self.width / self.dx + 0.5)

    def column(self, x: int) -> int:
        """``SquareGridNumbering.getColumn`` (floor)."""
        col = math.floor((x - self.x0) / self.dx + 0.5)
        return self._max_columns() - col if self.numbering.h_descend else col

    def row(self, y: int) -> int:
        """``SquareGridNumbering.getRow`` (a cast: truncation toward zero, unlike the column)."""
        row = java_int((y - self.y0) / self.dy + 0.5)
        return self._max_rows() - row if self.numbering.v_descend else row

    def name_at(self, x: int, y: int) -> str | None:
        """``locationName`` of a board point."""
        if not self.numbered:
            return None
        return self.numbering.format_location(self.row(y), self.column(x))

    def locate(self, name: str) -> tuple[int, int]:
        """``getLocation`` of a name (``getCenterPoint`` of its column and row)."""
        parsed = self.numbering.parse_location(name) if self.numbered else None
        if parsed is None:
            raise BadCoords("not a name the board's square grid gives" if self.numbered
                            else "the board's square grid has no numbering")
        col, row = parsed[0] - self.numbering.h_off, parsed[1] - self.numbering.v_off
        if self.numbering.v_descend:
            row = self._max_rows() - row
        if self.numbering.h_descend:
            col = self._max_columns() - col
        return java_int(col * self.dx + self.x0), java_int(row * self.dy + self.y0)


# -- regions, zones ------------------------------------------------------------------


@dataclass(frozen=True)
class VassalRegion:
    """A ``Region`` of an irregular grid: a name at a point."""

    name: str
    x: int
    y: int


@dataclass(frozen=True)
class VassalRegionGrid:
    """A ``RegionGrid``: named points; a point is named after the nearest region."""

    regions: tuple[VassalRegion, ...]
    visible: bool = False

    def locate(self, name: str) -> tuple[int, int]:
        """``getLocation``: the origin of the region of that name."""
        for region in self.regions:
            if region.name == name:
                return region.x, region.y
        raise BadCoords("no region of that name")

    def name_at(self, x: int, y: int) -> str | None:
        """``locationName``: the region whose origin is nearest (``doSnap``)."""
        best: VassalRegion | None = None
        best_distance = math.inf
        for region in self.regions:
            distance = (x - region.x) ** 2 + (y - region.y) ** 2
            if distance < best_distance:
                best, best_distance = region, distance
        return best.name if best is not None else None


def polygon_contains(polygon: Sequence[tuple[int, int]], point: tuple[float, float]) -> bool:
    """Even-odd point-in-polygon, as ``java.awt.Polygon.contains``.

    >>> polygon_contains([(0, 0), (10, 0), (10, 10), (0, 10)], (5, 5))
    True
    """
    if not polygon:
        return False
    px, py = point
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    if not (min(xs) <= px <= max(xs) and min(ys) <= py <= max(ys)):
        return False
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


def _fill_format(text: str, values: Mapping[str, str | None]) -> str:
    # FormattedString: $name$ is replaced by the property; a missing value is empty.
    def one(match: re.Match[str]) -> str:
        key = match.group(1)
        return (values.get(key) or "") if key in values else match.group(0)

    return re.sub(r"\$([^$]*)\$", one, text)


@dataclass(frozen=True)
class VassalZone:
    """A ``Zone`` of a zoned grid: a polygon (board pixels) with its own naming.

    ``grid`` is the zone's own grid, or the zoned grid's background when
    ``use_parent`` (``useParentGrid``).
    """

    name: str
    polygon: tuple[tuple[int, int], ...]
    location_format: str = "$name$"
    grid: Grid | None = None
    use_parent: bool = False

    def contains(self, point: tuple[float, float]) -> bool:
        """Whether the point is inside the zone's polygon."""
        return polygon_contains(self.polygon, point)

    def locate(self, name: str) -> tuple[int, int]:
        """``Zone.getLocation``: the regex its locationFormat makes, then its grid or its middle."""
        regex = ""
        groups = 0
        for token, is_property in format_parts(self.location_format):
            if not is_property:
                regex += re.escape(token)
            elif token == "name":
                regex += re.escape(self.name)
            elif token == "gridLocation" and self.grid is not None:
                regex += "(.*)"
                groups += 1
        if not regex:
            raise BadCoords("zone format matches nothing")
        match = re.fullmatch(regex, name, re.DOTALL)
        if match is None:
            raise BadCoords(f"not zone '{self.name}'")
        if groups and self.grid is not None:
            point = self.grid.locate(match.group(groups))
            if not self.contains(point):
                raise BadCoords(f"outside zone '{self.name}'")
            return point
        xs = [p[0] for p in self.polygon]
        ys = [p[1] for p in self.polygon]
        middle = (_java_div(sum(xs), len(xs)), _java_div(sum(ys), len(ys)))
        return middle if self.contains(middle) else self.polygon[0]

    def name_at(self, x: int, y: int) -> str | None:
        """``Zone.locationName``: its format with the zone name and its grid's name."""
        grid_name = self.grid.name_at(x, y) if self.grid is not None else None
        return _fill_format(self.location_format, {"name": self.name, "gridLocation": grid_name})


@dataclass(frozen=True)
class VassalZonedGrid:
    """A ``ZonedGrid``: zones tried in order, then the background grid."""

    zones: tuple[VassalZone, ...]
    background: Grid | None = None

    def locate(self, name: str) -> tuple[int, int]:
        """``ZonedGrid.getLocation``: the first zone that reads the name (inside itself)."""
        for zone in self.zones:
            try:
                point = zone.locate(name)
            except BadCoords:
                continue
            if zone.contains(point):
                return point
        if self.background is not None:
            return self.background.locate(name)
        raise BadCoords("no zone or region of that name")

    def name_at(self, x: int, y: int) -> str | None:
        """``ZonedGrid.locationName``: the first zone holding the point, else the background."""
        for zone in self.zones:
            if zone.contains((x, y)):
                name = zone.name_at(x, y)
                if name is not None:
                    return name
                break
        return self.background.name_at(x, y) if self.background is not None else None


Grid = VassalHexGrid | VassalSquareGrid | VassalRegionGrid | VassalZonedGrid
