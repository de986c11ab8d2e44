"""The contact sheet: cells drawn alone (as the workers draw them) make the sheet drawn in
place, pixel for pixel, and a sheet compressed as it is made is the sheet compressed whole."""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import pytest
from PIL import Image, ImageDraw

from pipeline.counters.contact import ContactGrid, ContactPng, ContactSheet, caption
from pipeline.counters.typeset import draw_centred, fit_font
from pipeline.pngwrite import deflate_rows


@dataclass(frozen=True)
class _Shown:
    id: str
    front: Image.Image
    back: Image.Image
    copies: int = 1


def _counters(count: int, side: int) -> list[_Shown]:
    rng = np.random.default_rng(count)
    made = []
    for n in range(count):
        front = Image.fromarray(rng.integers(0, 256, (side, side, 3), dtype=np.uint8))
        back = front if n % 3 == 0 else Image.new("RGB", (side, side), (n % 256, 90, 30))
        # Ids of every length: captions shrunk to fit, with copies, and one whose centre
        # falls on a half pixel (on 48 px faces), in a cell that starts on an odd pixel: the
        # sheet's rounding, not the cell's.
        counter_id = "1" * 24 if n == 0 else "Panzer-Lehr/" * (n % 4) + f"{n}/{n * 7}"
        made.append(_Shown(counter_id, front, back, 1 + n % 3))
    return made


def _drawn_in_place(counters: list[_Shown], side: int, title: str) -> Image.Image:
    """The sheet as it was drawn before cells: faces pasted and captions drawn on it."""
    grid = ContactGrid.of(len(counters), side, title)
    sheet = ContactSheet(len(counters), side, title)  # its title band, nothing placed
    image = sheet.image
    draw = ImageDraw.Draw(image)
    for n, counter in enumerate(counters):
        x, y = grid.place(n)
        image.paste(counter.front, (x, y))
        image.paste(counter.back, (x + grid.side + grid.gap // 2, y))
        text = caption(counter.id, counter.copies)
        face = fit_font(text, "condensed", grid.caption_px, 2 * grid.side)
        draw_centred(draw, text, face, (x + grid.side + grid.gap / 4,
                                        y + grid.side + grid.caption_px), (40, 40, 40))
    return image


@pytest.mark.parametrize(("count", "side"), [(1, 40), (13, 48), (40, 47)])
def test_cells_drawn_alone_make_the_sheet_drawn_in_place(count, side):
    counters = _counters(count, side)
    sheet = ContactSheet(count, side, "a title")
    grid = sheet.grid
    for n, counter in enumerate(counters):
        cell = grid.draw_cell(n, counter.front, counter.back, caption(counter.id, counter.copies))
        assert cell.size == grid.cell
        sheet.place(cell)
    expected = _drawn_in_place(counters, side, "a title")
    assert sheet.image.tobytes() == expected.tobytes()


def test_the_cells_tile_the_sheet():
    grid = ContactGrid.of(50, 63, "t")
    boxes = [grid.cell_box(n) for n in range(grid.columns * grid.rows)]
    covered = np.zeros(grid.size[::-1], int)
    for left, top, right, bottom in boxes:
        covered[top:bottom, left:right] += 1
    assert covered.max() == 1  # no cell overlaps another
    left = grid.gap - grid.gap // 2
    inside = covered[grid.title_h:, left:left + grid.columns * grid.cell[0]]
    assert inside.shape[0] == grid.rows * grid.cell[1] and inside.min() == 1  # nor a hole


@pytest.mark.parametrize(("count", "title"), [(7, "t"), (12, ""), (1, "one")])
def test_a_sheet_joined_from_rows_compressed_apart_is_the_sheet(count, title):
    counters = _counters(count, 40)
    whole = ContactSheet(count, 40, title, columns=4)
    grid = whole.grid
    made = ContactPng(grid, title)
    cells = [grid.draw_cell(n, c.front, c.back, caption(c.id, c.copies))
             for n, c in enumerate(counters)]
    for first in range(0, count, grid.columns):
        made.add(deflate_rows(grid.row(first, cells[first:first + grid.columns])))
    for counter in counters:
        whole.add(counter)
    with Image.open(io.BytesIO(made.png(150))) as back:
        assert back.tobytes() == whole.image.tobytes()
        assert round(back.info["dpi"][0]) == 150
    with Image.open(io.BytesIO(whole.png(150))) as back:
        assert back.tobytes() == whole.image.tobytes()


def test_a_sheet_is_written_once_every_row_is_added():
    grid = ContactGrid.of(9, 40, columns=4)
    made = ContactPng(grid)
    made.add(deflate_rows(grid.row(0, [Image.new("RGB", grid.cell)] * 4)))
    with pytest.raises(ValueError, match="1 rows of cells added of 3"):
        made.png(150)
    with pytest.raises(ValueError, match="a row starts at a multiple of 4 counters, not 2"):
        grid.row(2, [])
