"""Printed hex ids: the numbering schemes real maps use, parsed and formatted.

A numbering turns the printed column and row numbers into a 0-based lattice
column and row and back. Which lines are staggered is a fact of the printed
map, so it lives here too, stated the way a map reads (``"even-down"``:
columns with even printed numbers sit half a hex lower).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.errors import GridError
from pipeline.hexgrid.coords import Orientation

__all__ = ["STAGGERS", "Numbering"]

#: Each stagger word names the printed parity and the way it is shifted.
#: "even-down" and "odd-up" describe the same map; both are accepted.
STAGGERS: dict[Orientation, tuple[str, ...]] = {
    Orientation.FLAT: ("even-down", "odd-down", "even-up", "odd-up"),
    Orientation.POINTY: ("even-right", "odd-right", "even-left", "odd-left"),
}


@dataclass(frozen=True)
class Numbering:
    """How a map prints its hex ids.

    Parameters
    ----------
    first_col, first_row
        The numbers printed on the top-left hex's column and row (often 1,
        sometimes 0).
    col_digits, row_digits
        Zero padding of each part (``2`` gives ``0421``).
    stagger
        Which printed columns (flat-top) or rows (pointy-top) are shifted half
        a hex, and which way: ``even-down``, ``odd-down``, ``even-up``,
        ``odd-up`` (flat) or ``even-right`` ... ``odd-left`` (pointy).
    prefix
        Board prefix for multi-map games (``"A"`` in ``A2519``).
    separator
        Printed between the two parts (``"."`` in ``04.21``); usually empty.
    descending_cols, descending_rows
        Numbers decrease to the right (columns) or downwards (rows).
    row_first
        The row part is printed before the column part.

    Examples
    --------
    >>> n = Numbering()
    >>> n.format(4, 21)
    '0421'
    >>> n.parse('0421')
    (4, 21)
    """

    first_col: int = 1
    first_row: int = 1
    col_digits: int = 2
    row_digits: int = 2
    stagger: str = "even-down"
    prefix: str = ""
    separator: str = ""
    descending_cols: bool = False
    descending_rows: bool = False
    row_first: bool = False
    _pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.stagger not in STAGGERS[Orientation.FLAT] + STAGGERS[Orientation.POINTY]:
            raise GridError(
                f"unknown stagger {self.stagger!r}: use one of "
                + ", ".join(STAGGERS[Orientation.FLAT] + STAGGERS[Orientation.POINTY])
            )
        if self.col_digits < 1 or self.row_digits < 1:
            raise GridError("col_digits and row_digits must be at least 1")
        if any(ch.isdigit() for ch in self.prefix + self.separator):
            raise GridError("a board prefix or separator may not contain digits")
        if "/" in self.prefix + self.separator:
            raise GridError(
                "a board prefix or separator may not contain '/' (hexside names use it)"
            )
        if self.separator:
            body = r"(\d+)" + re.escape(self.separator) + r"(\d+)"
        else:
            first, second = (
                (self.row_digits, self.col_digits)
                if self.row_first
                else (self.col_digits, self.row_digits)
            )
            body = rf"(\d{{{first}}})(\d{{{second}}})"
        object.__setattr__(
            self, "_pattern", re.compile(re.escape(self.prefix) + body, re.ASCII)
        )

    # -- printed numbers <-> text ------------------------------------------------

    def format(self, col: int, row: int) -> str:
        """Printed id of printed column ``col`` and row ``row``."""
        if col < 0 or row < 0:
            raise GridError(f"column {col}, row {row} has no printed id (negative number)")
        c = f"{col:0{self.col_digits}d}"
        r = f"{row:0{self.row_digits}d}"
        if not self.separator and (len(c) > self.col_digits or len(r) > self.row_digits):
            raise GridError(
                f"column {col}, row {row} does not fit {self.col_digits}+{self.row_digits}"
                " digits; widen the numbering or add a separator"
            )
        parts = (r, c) if self.row_first else (c, r)
        return f"{self.prefix}{parts[0]}{self.separator}{parts[1]}"

    def parse(self, text: str) -> tuple[int, int]:
        """Printed ``(column, row)`` of an id; :class:`GridError` if malformed."""
        m = self._pattern.fullmatch(text) if isinstance(text, str) else None
        if m is None:
            raise GridError(f"{text!r} is not a hex id of the form {self.example()!r}")
        a, b = int(m.group(1)), int(m.group(2))
        col, row = (b, a) if self.row_first else (a, b)
        if self.separator and self.format(col, row) != text:
            # One printed spelling per hex: '4.21' is not '04.21'.
            raise GridError(f"{text!r} is not written as printed: {self.format(col, row)!r}")
        return col, row

    def example(self) -> str:
        """An example id in this scheme (the top-left hex)."""
        return self.format(self.first_col, self.first_row)

    # -- printed numbers <-> lattice ---------------------------------------------

    def to_lattice(self, col: int, row: int) -> tuple[int, int]:
        """0-based lattice column and row (left to right, top to bottom)."""
        c = self.first_col - col if self.descending_cols else col - self.first_col
        r = self.first_row - row if self.descending_rows else row - self.first_row
        return c, r

    def from_lattice(self, c: int, r: int) -> tuple[int, int]:
        """Printed column and row of lattice column ``c`` and row ``r``."""
        col = self.first_col - c if self.descending_cols else self.first_col + c
        row = self.first_row - r if self.descending_rows else self.first_row + r
        return col, row

    def shifted_parity(self) -> int:
        """Parity (0/1) of the *lattice* lines shifted down (flat) or right (pointy)."""
        parity_word, direction = self.stagger.split("-")
        printed = 0 if parity_word == "even" else 1
        if direction in ("up", "left"):
            printed = 1 - printed
        first = self.first_row if self.stagger.endswith(("right", "left")) else self.first_col
        # Printed number = first +/- lattice index, so the parities line up as:
        return (printed - first) % 2

    def orientation(self) -> Orientation:
        """The orientation this stagger word belongs to."""
        return (
            Orientation.FLAT
            if self.stagger in STAGGERS[Orientation.FLAT]
            else Orientation.POINTY
        )
