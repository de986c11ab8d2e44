"""Combat Results Tables (``crt.json``): a game's CRT as data.

A CRT is a grid of result codes: columns (a combat differential or an odds
ratio), one row per die roll, and a cell where they cross. Some games print
lines of column headings by the defender's terrain (the Fire & Movement CRT of
000: the same twelve result columns, headed ``-5`` on the clear line and ``0``
on the mountain line); others shift columns instead (Cobra, 003 §8.3.1).

Cells are kept as printed strings (``"(A)"``, ``"D2"``, ``"•"``); the result
key says what each code means, and for games with bombardment (000 §8.1.3)
which results apply to it. What the rulebook text does not give stays
``null`` with a note, as everywhere in bocage: most CRTs are printed on the
map, and the text only names a few columns or shows a few cells in examples
of play (``examples``).

>>> table = CrtTable.model_validate({
...     "kind": "crt", "game": "g", "title": "t", "source": "s", "type": "differential",
...     "dice": "1d6", "clamp": True,
...     "columns": [{"index": 1, "label": "-1", "low": -1, "high": -1},
...                 {"index": 2, "label": "0,+1", "low": 0, "high": 1}],
...     "die_rolls": [1, 2],
...     "results": [{"roll": 1, "cells": ["A1", "D2"]}, {"roll": 2, "cells": ["•", "D2"]}],
...     "result_key": {"A1": {"meaning": "attacker retreats"}, "D2": {"meaning": "d"},
...                    "•": {"meaning": "no effect"}}})
>>> table.result(2, -4), table.result(1, 7), table.complete
('•', 'D2', True)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Self

from pydantic import Field, model_validator

from pipeline.errors import BocageError
from pipeline.model.base import Cite, Invalid, Model, Note
from pipeline.model.documents import read_json, validate_document

__all__ = [
    "CrtBombardment",
    "CrtColumn",
    "CrtExample",
    "CrtHeading",
    "CrtLine",
    "CrtModifier",
    "CrtResult",
    "CrtRow",
    "CrtTable",
    "crt_from_data",
    "load_crt",
]


class CrtColumn(Model):
    """One result column, left to right as printed.

    For a differential table without terrain lines, ``low`` and ``high`` are
    the differentials the column covers (``"+2,+3"``: 2 and 3); for an odds
    table, ``attacker``:``defender`` is the ratio (``"3:1"``). A table with
    terrain lines (000) heads its columns per line instead (:class:`CrtLine`).
    """

    index: int | None = Field(None, ge=1, description="place in the printed table, from 1;"
                              " null: not known (the text names the column only)")
    label: str | None = Field(None, description="the heading as printed, when one heading"
                              " serves every line")
    low: int | None = Field(None, description="lowest differential of the column")
    high: int | None = Field(None, description="highest differential of the column")
    attacker: int | None = Field(None, ge=1, description="odds: the attacker's side of the ratio")
    defender: int | None = Field(None, ge=1, description="odds: the defender's side of the ratio")
    cite: Cite = ""
    note: Note = ""

    @model_validator(mode="after")
    def _ranges(self) -> Self:
        if (self.low is None) != (self.high is None):
            raise Invalid((), 'give both "low" and "high" (the differentials the column covers)')
        if self.low is not None and self.high is not None and self.low > self.high:
            raise Invalid(("high",), f"high {self.high} is below low {self.low}")
        if (self.attacker is None) != (self.defender is None):
            raise Invalid((), 'give both "attacker" and "defender" (the odds ratio)')
        return self


class CrtHeading(Model):
    """One heading of a terrain line: which differentials use which result column."""

    column: int = Field(ge=1, description="the result column (CrtColumn.index)")
    label: str = Field(min_length=1, description="as printed: '-5', '0', '+2,+3', '+4,5'")
    low: int
    high: int


class CrtLine(Model):
    """A line of column headings for the defender's terrain (000 CRT, §8.2.1 d)."""

    label: str = Field(min_length=1, description="as printed: 'City, Rough, River'")
    headings: list[CrtHeading] | None = Field(
        None, description="left to right; null: the rulebook names the line but the text"
        " does not print it")
    cite: Cite = ""
    note: Note = ""

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.headings is None:
            if not self.note.strip():
                raise Invalid(("headings",), "headings are null (not given) but the line has no"
                              " note: say where they are printed")
            return self
        if not self.headings:
            raise Invalid(("headings",), "a line needs at least one heading (or null + a note)")
        for i, (a, b) in enumerate(zip(self.headings, self.headings[1:], strict=False)):
            if b.low > b.high:
                raise Invalid(("headings", i + 1, "high"), f"high {b.high} is below low {b.low}")
            if b.column <= a.column or b.low <= a.high:
                raise Invalid(("headings", i + 1), "headings must run left to right: columns"
                              " and differentials increasing")
        first = self.headings[0]
        if first.low > first.high:
            raise Invalid(("headings", 0, "high"), f"high {first.high} is below low {first.low}")
        return self

    def heading_for(self, differential: int, clamp: bool) -> CrtHeading:
        """The heading whose differentials hold ``differential`` (the end ones with
        ``clamp``)."""
        if self.headings is None:
            raise BocageError(f"CRT line '{self.label}' is not given in the rulebook text")
        for heading in self.headings:
            if heading.low <= differential <= heading.high:
                return heading
        if clamp and differential < self.headings[0].low:
            return self.headings[0]
        if clamp and differential > self.headings[-1].high:
            return self.headings[-1]
        raise BocageError(f"differential {differential:+d} is not on CRT line '{self.label}'")


class CrtRow(Model):
    """The results of one die roll, one cell per column (``null``: not given)."""

    roll: int
    cells: list[str | None]


class CrtResult(Model):
    """What a result code means."""

    meaning: str = Field(min_length=1)
    cite: Cite = ""
    note: Note = ""


class CrtBombardment(Model):
    """How the CRT reads for bombardment (000 §8.1.3): which results do nothing,
    which apply only on a condition, and which apply as in ground combat."""

    no_effect: list[str] = []
    conditional: dict[str, str] = Field({}, description="result code -> when it applies")
    applies: list[str] = []
    terrain: Note = Field("", description="which terrain picks the line (000 §8.1.2)")
    cite: Cite = ""
    note: Note = ""


class CrtModifier(Model):
    """A column shift or die-roll modifier the rulebook states (003 §8.3, 002)."""

    name: str = Field(min_length=1)
    column_shift: int | None = Field(None, description="+ toward the attacker (right)")
    die_roll: int | None = None
    cite: Cite = ""
    note: Note = ""

    @model_validator(mode="after")
    def _something(self) -> Self:
        if self.column_shift is None and self.die_roll is None and not self.note.strip():
            raise Invalid((), 'a modifier needs "column_shift" or "die_roll", or a note saying'
                          " why the number is not given")
        return self


class CrtExample(Model):
    """A cell an example of play reveals (``column`` as the example names it)."""

    column: str = Field(min_length=1)
    roll: int
    outcome: str = Field(min_length=1, description="what the example says happened")
    cell: str | None = Field(None, description="the printed code this implies; null: the"
                             " example does not settle it")
    cite: Cite = ""
    note: Note = ""


class CrtTable(Model):
    """A CRT document (``kind: "crt"``)."""

    kind: Literal["crt"]
    game: str = Field(min_length=1)
    title: str
    source: Cite
    notes: Note = ""
    type: Literal["differential", "odds"]
    dice: Literal["1d6", "2d6", "1d10"]
    rolls: Literal["attacker", "both"] = Field(
        "attacker", description="both: attacker and defender each roll (001 §11.3)")
    clamp: bool = Field(False, description="attacks beyond the end columns use the end"
                        " columns (000 CRT notes)")
    rounding: Note = Field("", description="how a ratio or differential is brought to a column")
    columns: list[CrtColumn] = Field(min_length=1)
    lines: list[CrtLine] = []
    die_rolls: list[int] | None = Field(None, description="top to bottom; null: not given")
    results: list[CrtRow] = []
    result_key: dict[str, CrtResult] = {}
    bombardment: CrtBombardment | None = None
    modifiers: list[CrtModifier] = []
    examples: list[CrtExample] = []
    cite: Cite = ""

    @model_validator(mode="after")
    def _check(self) -> Self:
        indexes = [c.index for c in self.columns if c.index is not None]
        if len(set(indexes)) != len(indexes):
            raise Invalid(("columns",), "two columns have the same index")
        if indexes != sorted(indexes):
            raise Invalid(("columns",), "columns must be listed left to right (index increasing)")
        for i, column in enumerate(self.columns):
            if self.type == "odds" and column.low is not None:
                raise Invalid(("columns", i), 'an odds column has "attacker" and "defender",'
                              ' not "low" and "high"')
            if self.type == "differential" and column.attacker is not None:
                raise Invalid(("columns", i), 'a differential column has "low" and "high",'
                              ' not "attacker" and "defender"')
        for i, line in enumerate(self.lines):
            for j, heading in enumerate(line.headings or []):
                if heading.column not in indexes:
                    raise Invalid(("lines", i, "headings", j, "column"),
                                  f"no column has index {heading.column}")
        labels = [line.label for line in self.lines]
        for i, label in enumerate(labels):
            if label in labels[:i]:
                raise Invalid(("lines", i, "label"), f"line '{label}' is listed twice")
        if self.die_rolls is not None and self.results:
            rolls = [row.roll for row in self.results]
            if rolls != self.die_rolls:
                raise Invalid(("results",), f"result rows are for rolls {rolls}, but die_rolls"
                              f" is {self.die_rolls}")
        for i, row in enumerate(self.results):
            if len(row.cells) != len(self.columns):
                raise Invalid(("results", i, "cells"), f"{len(row.cells)} cells for"
                              f" {len(self.columns)} columns")
            for j, cell in enumerate(row.cells):
                if cell is not None and cell not in self.result_key:
                    known = ", ".join(sorted(self.result_key)) or "none"
                    raise Invalid(("results", i, "cells", j), f"result '{cell}' is not in"
                                  f" result_key (known: {known})")
        for i, example in enumerate(self.examples):
            if example.cell is not None and example.cell not in self.result_key:
                raise Invalid(("examples", i, "cell"), f"result '{example.cell}' is not in"
                              " result_key")
        if self.bombardment is not None:
            codes = [*self.bombardment.no_effect, *self.bombardment.conditional,
                     *self.bombardment.applies]
            for code in codes:
                if code not in self.result_key:
                    raise Invalid(("bombardment",), f"result '{code}' is not in result_key")
        if (self.die_rolls is None or not self.results) and not self.notes.strip():
            raise Invalid(("die_rolls",), "the results are not given but the table has no"
                          " notes: say where the CRT is printed")
        return self

    # -- queries ------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        """Whether every column, heading and cell is known."""
        if self.die_rolls is None or len(self.results) != len(self.die_rolls):
            return False
        if any(c.index is None for c in self.columns):
            return False
        if any(line.headings is None for line in self.lines):
            return False
        return all(cell is not None for row in self.results for cell in row.cells)

    def line(self, label: str) -> CrtLine:
        """The terrain line printed as ``label``."""
        for line in self.lines:
            if line.label == label:
                return line
        known = ", ".join(f"'{line.label}'" for line in self.lines) or "none"
        raise BocageError(f"no CRT line '{label}' (lines: {known})")

    def column_for(self, differential: int, line: str | None = None) -> int:
        """The position in ``columns`` (from 0) of a differential, on a terrain line if
        the table has lines. Attacks beyond the ends use the end columns when
        ``clamp`` is set (000 CRT notes)."""
        if self.type != "differential":
            raise BocageError("column_for reads differential tables; this CRT is odds")
        if self.lines:
            if line is None:
                raise BocageError("this CRT has terrain lines: name the defender's line")
            index = self.line(line).heading_for(differential, self.clamp).column
            return next(i for i, c in enumerate(self.columns) if c.index == index)
        ranged = [(i, c) for i, c in enumerate(self.columns) if c.low is not None]
        for i, column in ranged:
            assert column.low is not None and column.high is not None
            if column.low <= differential <= column.high:
                return i
        if self.clamp and ranged:
            lowest = min(ranged, key=lambda ic: ic[1].low or 0)
            highest = max(ranged, key=lambda ic: ic[1].high or 0)
            if differential < (lowest[1].low or 0):
                return lowest[0]
            if differential > (highest[1].high or 0):
                return highest[0]
        raise BocageError(f"differential {differential:+d} has no column in the text's CRT")

    def result(self, roll: int, differential: int, line: str | None = None) -> str | None:
        """The printed result for a die roll and a differential (``None``: not given)."""
        column = self.column_for(differential, line)
        for row in self.results:
            if row.roll == roll:
                return row.cells[column]
        raise BocageError(f"die roll {roll} is not a row of this CRT")


def crt_from_data(data: Any, file: str | Path | None = "<crt>") -> CrtTable:
    """Validate parsed JSON as a CRT document; problems raise one located :class:`DataError`.

    Parameters
    ----------
    data
        The parsed document (a dict with ``"kind": "crt"``).
    file
        Name used in messages.
    """
    return validate_document(CrtTable, data, file)


def load_crt(path: str | Path) -> CrtTable:
    """Read a CRT document (crt.json); problems raise one located :class:`DataError`."""
    return crt_from_data(read_json(path), path)
