"""VASSAL's hex-grid arithmetic: the name of a point, the point of a name, snapping.

A port of ``HexGrid`` + ``HexGridNumbering`` + ``RegularGridNumbering`` (VASSAL
3.6/3.7, reference ``vassal-format.md`` §5): Java's integer truncation, its
``%`` on negative numbers, the stagger rule and the odd descending formulas
included, because the point of this module is to predict exactly what VASSAL
will call a hex. The exporter uses it to prove its grid; ``check`` uses it to
validate set-up locations in any module.

>>> g = VassalHexGrid(dx=55.42562584220407, dy=64.0, x0=40, y0=40,
...                   numbering=VassalNumbering(stagger=False))
>>> g.location_point("2318")
(1259, 1128)
>>> g.location_name(1259, 1128)
'2318'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from pipeline.vassal.encoding import Decoder

__all__ = ["VassalHexGrid", "VassalNumbering", "format_parts", "java_int"]

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

    @classmethod
    def from_attributes(
        cls, grid: Mapping[str, str], numbering: Mapping[str, str] | None,
        width: int = 0, height: int = 0,
    ) -> VassalHexGrid:
        """From ``HexGrid`` / ``HexGridNumbering`` XML attributes (``ValueError`` if bad)."""
        dx = float(grid["dx"]) if "dx" in grid else math.sqrt(3) / 2 * 64
        dy = float(grid["dy"]) if "dy" in grid else 64.0
        if "dx" not in grid and "dy" in grid:
            dx = math.sqrt(3) / 2 * dy  # setting dy recomputes a default dx
        return cls(dx=dx, dy=dy, x0=int(grid.get("x0", "0")), y0=int(grid.get("y0", "32")),
                   sideways=_bool(grid.get("sideways"), False),
                   numbering=VassalNumbering.from_attributes(numbering or {}),
                   width=width, height=height)

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
