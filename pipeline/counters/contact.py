"""The contact sheet: every counter's front and back side by side, captioned by id.

A :class:`ContactGrid` says where everything goes: how many columns, how big a
face is shown (a big manifest gets more columns and smaller faces, so the sheet
stays within :data:`CONTACT_PIXELS`) and the cell of each counter. A cell is
drawn alone (:meth:`ContactGrid.draw_cell`), with the pixels it has on the whole
sheet, so the worker processes that paint the counters draw their cells too and
the sheet only places them (:meth:`ContactSheet.place`). With :class:`ContactPng`
the workers also lay their cells out in rows of the sheet and compress them
(:meth:`ContactGrid.row`): the sheet is joined from the parts, never in memory
whole, and its encoding is done by the time its last counter is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from PIL import Image, ImageDraw

from pipeline.counters.art import RGB, Rect
from pipeline.counters.style import rgb
from pipeline.counters.typeset import cap_height, fit_font, font
from pipeline.errors import DataError
from pipeline.pngwrite import DeflatedRows, PngRows, deflate_rows, png_of_parts

__all__ = [
    "CONTACT_PIXELS",
    "ContactGrid",
    "ContactPng",
    "ContactSheet",
    "Shown",
    "caption",
    "contact_sheet",
]

CONTACT_PIXELS = 40_000_000
"""The most pixels a contact sheet has: a big manifest's faces are shown smaller."""

_CAPTION_INK = (40, 40, 40)


class Shown(Protocol):
    """What the sheet shows of a counter (:class:`pipeline.counters.render.Counter` is one)."""

    @property
    def id(self) -> str: ...

    @property
    def front(self) -> Image.Image: ...

    @property
    def back(self) -> Image.Image: ...

    @property
    def copies(self) -> int: ...


def caption(counter_id: str, copies: int) -> str:
    """The line under a counter: its id, and how many the game has when more than one.

    >>> caption("914/352", 1), caption("Smoke", 3)
    ('914/352', 'Smoke  x3')
    """
    return counter_id + (f"  x{copies}" if copies > 1 else "")


@dataclass(frozen=True)
class ContactGrid:
    """Where a contact sheet puts each counter (every length in pixels).

    Attributes
    ----------
    count
        Counters on the sheet.
    columns, rows
        Cells across and down.
    side
        A face as shown (smaller than drawn on a big manifest).
    gap
        Between the faces of two counters (half of it between a front and its back).
    caption_px
        The caption's em size (the size it shrinks from to fit).
    cell
        Width and height of a cell: two faces, their caption and the gaps.
    title_h
        Height of the title band above the cells.
    background
        The sheet's colour.
    """

    count: int
    columns: int
    rows: int
    side: int
    gap: int
    caption_px: int
    cell: tuple[int, int]
    title_h: int
    background: RGB

    @classmethod
    def of(cls, count: int, side: int, title: str = "", *, columns: int = 6,
           background: str = "#e9e7e1") -> ContactGrid:
        """The grid of ``count`` counters of ``side`` pixels (bleed included).

        >>> grid = ContactGrid.of(2021, 188, "a big one")
        >>> grid.columns, grid.side, grid.size[0] * grid.size[1] <= CONTACT_PIXELS
        (32, 79, True)
        """
        if count < 1:
            raise DataError(None, "", "nothing to show: the manifests have no rows")
        # Roughly square for many counters; each cell is about 2.6 faces wide, 1.4 high.
        across = max(1, min(count, max(columns, math.ceil(math.sqrt(count / 2)))))
        down = -(-count // across)
        while True:
            gap = max(4, side // 8)
            caption_px = max(10, side // 10)
            grid = cls(count, across, down, side, gap, caption_px,
                       (2 * side + gap // 2 + gap, side + caption_px * 2 + gap),
                       caption_px * 3 if title else gap, rgb(background))
            if grid.size[0] * grid.size[1] <= CONTACT_PIXELS or side <= 8:
                return grid
            side = max(8, int(side * 0.9))

    @property
    def size(self) -> tuple[int, int]:
        """Width and height of the whole sheet."""
        return (self.columns * self.cell[0] + self.gap, self.title_h + self.rows * self.cell[1])

    def place(self, n: int) -> tuple[int, int]:
        """Where the ``n``-th counter's front goes (its top left corner)."""
        return (self.gap + (n % self.columns) * self.cell[0],
                self.title_h + (n // self.columns) * self.cell[1])

    def cell_box(self, n: int) -> Rect:
        """The ``n``-th counter's cell on the sheet: its faces and caption, and half the gap
        either side, so the cells of a row and of a column tile the sheet."""
        x, y = self.place(n)
        left = x - self.gap // 2
        return left, y, left + self.cell[0], y + self.cell[1]

    def draw_cell(self, n: int, front: Image.Image, back: Image.Image, text: str) -> Image.Image:
        """The ``n``-th counter's cell drawn alone: ``front`` and ``back`` (shown size) and
        the caption ``text``, every pixel as it is where the cell lies on the sheet."""
        left, top, right, bottom = self.cell_box(n)
        image = Image.new("RGB", (right - left, bottom - top), self.background)
        x, y = self.place(n)
        image.paste(front, (x - left, y - top))
        image.paste(back, (x + self.side + self.gap // 2 - left, y - top))
        # Measured once where it fits at full size (fit_font would measure it, then
        # centring again); a caption is a line of its own, seldom drawn twice.
        face = font("condensed", self.caption_px)
        length = face.getlength(text)
        if length > 2 * self.side:
            face = fit_font(text, "condensed", self.caption_px, 2 * self.side)
            length = face.getlength(text)
        # Centred on the sheet, then moved into the cell: rounding a centre that ends in .5
        # depends on where it is, so the caption is placed where the sheet would place it.
        at = (round(x + self.side + self.gap / 4 - length / 2),
              round(y + self.side + self.caption_px + cap_height("condensed", face.size) / 2))
        ImageDraw.Draw(image).text((at[0] - left, at[1] - top), text, font=face,
                                   fill=_CAPTION_INK, anchor="ls")
        return image

    def row(self, first: int, cells: Sequence[Image.Image]) -> Image.Image:
        """The sheet's row of cells whose first is counter ``first``: ``cells`` (drawn by
        :meth:`draw_cell`, fewer than a row on the last), the whole width of the sheet.

        >>> grid = ContactGrid.of(8, 40, columns=4)
        >>> grid.row(4, [Image.new("RGB", grid.cell)]).size == (grid.size[0], grid.cell[1])
        True
        """
        if first % self.columns or len(cells) > self.columns:
            raise ValueError(f"a row starts at a multiple of {self.columns} counters, not"
                             f" {first}, and holds at most {self.columns}")
        band = Image.new("RGB", (self.size[0], self.cell[1]), self.background)
        for n, cell in enumerate(cells, first):
            band.paste(cell, (self.cell_box(n)[0], 0))
        return band


class ContactSheet:
    """One image with every counter's front and back side by side, captioned by id.

    Counters are added one at a time (:meth:`add`, or :meth:`place` for a cell drawn
    elsewhere by :meth:`ContactGrid.draw_cell`), so a sheet is made without holding the
    counters. A big manifest gets more columns and smaller faces, so the sheet stays
    within :data:`CONTACT_PIXELS`. (:class:`ContactPng` writes a sheet without holding
    its picture either.)

    Parameters
    ----------
    count
        How many counters will be added.
    side
        Their side in pixels (bleed included).
    """

    def __init__(self, count: int, side: int, title: str = "", *, columns: int = 6,
                 background: str = "#e9e7e1") -> None:
        self.grid = ContactGrid.of(count, side, title, columns=columns, background=background)
        self.image = Image.new("RGB", self.grid.size, self.grid.background)
        self._added = 0
        _draw_title(self.image, self.grid, title)

    @property
    def side(self) -> int:
        """A face's side as shown."""
        return self.grid.side

    @property
    def columns(self) -> int:
        """Counters across."""
        return self.grid.columns

    def add(self, counter: Shown) -> None:
        """Place the next counter."""
        front, back = counter.front, counter.back
        if front.width != self.side:
            size = (self.side, self.side)
            front = front.resize(size, Image.Resampling.LANCZOS)
            back = front if counter.back is counter.front else back.resize(
                size, Image.Resampling.LANCZOS)
        self.place(self.grid.draw_cell(self._added, front, back,
                                       caption(counter.id, counter.copies)))

    def place(self, cell: Image.Image) -> None:
        """Place the next counter's cell, drawn by :meth:`ContactGrid.draw_cell`."""
        self.image.paste(cell, self.grid.cell_box(self._added)[:2])
        self._added += 1

    def png(self, dpi: float) -> bytes:
        """The sheet as PNG, ``dpi`` recorded: unfiltered at zlib level 1 as the faces are,
        compressed a row of cells at a time (the picture is never copied whole)."""
        rows = PngRows(*self.grid.size, name="contact sheet")
        step = self.grid.cell[1]
        for top in range(0, self.image.height, step):
            rows.add(self.image.crop((0, top, self.image.width,
                                      min(self.image.height, top + step))))
        return rows.png(dpi=dpi)


class ContactPng:
    """A contact sheet made straight into a PNG, from its rows of cells compressed apart.

    Each row of cells is drawn (:meth:`ContactGrid.row`) and compressed
    (:func:`pipeline.pngwrite.deflate_rows`) where its counters are drawn, in the workers;
    the sheet only joins the parts in order. It is never in memory whole, and is encoded
    by the time its last counter is drawn. The pixels are those of :class:`ContactSheet`
    given the same cells.

    Parameters
    ----------
    grid
        Where everything goes.
    title
        Printed above the cells (the grid leaves room for it).
    """

    def __init__(self, grid: ContactGrid, title: str = "") -> None:
        self.grid = grid
        band = Image.new("RGB", (grid.size[0], grid.title_h), grid.background)
        _draw_title(band, grid, title)
        self._parts = [deflate_rows(band)]
        self._rows = 0

    def add(self, row: DeflatedRows) -> None:
        """The next row of cells, drawn by :meth:`ContactGrid.row` and compressed."""
        self._parts.append(row)
        self._rows += 1

    def png(self, dpi: float) -> bytes:
        """The sheet as PNG, once every row of cells is added, ``dpi`` recorded."""
        if self._rows != self.grid.rows:
            raise ValueError(f"{self._rows} rows of cells added of {self.grid.rows}")
        return png_of_parts(*self.grid.size, self._parts, dpi=dpi)


def _draw_title(image: Image.Image, grid: ContactGrid, title: str) -> None:
    if title:
        face = fit_font(title, "condensed", round(grid.caption_px * 1.5),
                        grid.size[0] - 2 * grid.gap)
        ImageDraw.Draw(image).text((grid.gap, round(grid.title_h * 0.7)), title, font=face,
                                   fill=_CAPTION_INK, anchor="ls")


def contact_sheet(counters: Sequence[Shown], title: str = "", *, columns: int = 6,
                  background: str = "#e9e7e1") -> Image.Image:
    """One image with every counter's front and back side by side, captioned by id.

    See :class:`ContactSheet`, which makes it one counter at a time.
    """
    if not counters:
        raise DataError(None, "", "nothing to show: the manifests have no rows")
    sheet = ContactSheet(len(counters), counters[0].front.width, title, columns=columns,
                         background=background)
    for counter in counters:
        sheet.add(counter)
    return sheet.image
