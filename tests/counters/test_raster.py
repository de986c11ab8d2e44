"""The raster back-end's painter: each line of text rendered once, the same pixels as Pillow
drawing it every time."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageDraw

from pipeline.counters.art import Block, Face, Words
from pipeline.counters.raster import Painter, paint
from pipeline.counters.typeset import font


def _drawn_each_time(face: Face) -> bytes:
    """The face as Pillow draws it with ImageDraw.text for every line (the painter before)."""
    image = Image.new("RGB", (face.size, face.size), face.background)
    draw = ImageDraw.Draw(image)
    for mark in face.marks:
        if isinstance(mark, Words):
            draw.text((mark.x, mark.y), mark.text, font=font(mark.font, mark.px),
                      fill=mark.colour, anchor="ls")
        else:
            assert isinstance(mark, Block)
            left, top, right, bottom = mark.rect
            draw.rectangle((left, top, right - 1, bottom - 1), fill=mark.colour)
    return image.tobytes()


TEXTS = ["5-4-", "(5)", "914", "KG Meyer", "Côte 192", "?", "jy,Q", "  ", "", "W", "x3"]


@pytest.mark.parametrize("name", ["bold", "condensed", "regular"])
def test_a_line_drawn_again_is_the_line_pillow_draws(name):
    painter = Painter()
    inks = [(0, 0, 0), (255, 255, 255), (200, 16, 46)]
    for text, px, ink in itertools.product(TEXTS, (7, 30, 51), inks):
        # Off the edge too: the stored line is cut where Pillow would cut the drawing.
        for x, y in ((4, px + 6), (-3, px // 2), (60, 70)):
            face = Face(80, (164, 184, 109), (Block((0, 30, 80, 50), (226, 233, 201)),
                                              Words(text, name, px, x, y, ink)))
            assert painter.paint(face).tobytes() == _drawn_each_time(face), (text, px, ink)
    assert painter.lines == len(TEXTS) * 3  # each line rendered once, in any colour or place


def test_a_full_store_starts_again_and_paints_the_same():
    painter = Painter(capacity=2)
    faces = [Face(40, (255, 255, 255), (Words(str(n), "bold", 20, 2, 30, (0, 0, 0)),))
             for n in range(5)]
    assert [painter.paint(f).tobytes() for f in faces] == [_drawn_each_time(f) for f in faces]
    assert painter.lines <= 2


def test_paint_alone_is_the_painter():
    face = Face(60, (10, 20, 30), (Words("7-7", "condensed", 25, 3, 40, (250, 250, 0)),))
    assert paint(face).tobytes() == Painter().paint(face).tobytes() == _drawn_each_time(face)
