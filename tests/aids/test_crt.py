"""The CRT aid: 000's differential table with terrain lines and bombardment shading
(000 Combat Results Table, §8.1.3), 003's odds columns, 001's differential columns."""

from __future__ import annotations

import re

from PIL import Image

from pipeline.aids.crt import BOMBARDMENT_CONDITIONAL, BOMBARDMENT_NO_EFFECT, crt_pages
from pipeline.aids.page import Rect, Text, pages_pdf, pages_png
from pipeline.model import load_crt

from .conftest import MAPS, pdf_text


def _pdf(tmp_path, game, paper="letter"):
    table = load_crt(MAPS / game / "crt.json")
    pages = crt_pages(table, paper)
    path = tmp_path / f"{game}.pdf"
    path.write_bytes(pages_pdf(pages, table.title))
    return table, pages, pdf_text(path)


def _result_lines(text):
    return {int(m.group(1)): m.group(2).split()
            for m in re.finditer(r"^Die roll (\d+)\s+(.*)$", text, re.M)}


def test_000_crt_cells_lines_and_key_match_the_data(tmp_path):
    table, _, text = _pdf(tmp_path, "omaha")
    rows = _result_lines(text)
    assert rows == {row.roll: list(row.cells) for row in table.results}
    for line in table.lines:
        printed = re.search(rf"^{re.escape(line.label)}\s+(.*)$", text, re.M)
        assert printed, line.label
        if line.headings is None:
            assert printed.group(1).split() == ["?"] * len(table.columns)
        else:
            assert printed.group(1).split() == [h.label for h in line.headings]
    for code, result in table.result_key.items():
        assert result.meaning.split()[0] in text and code in text
    assert "Line: the line of the terrain" in text


def test_000_bombardment_cells_are_shaded_as_section_8_1_3_says(tmp_path):
    """000 §8.1.3: Ae, A1, A2, A3 and Ex are no result; (A) only with a friendly unit
    adjacent; the rest apply as in ground combat."""
    table, pages, text = _pdf(tmp_path, "omaha")
    assert "No result in bombardment: Ae, A1, A2, A3, Ex" in text
    assert "(A) applies in bombardment only if at least one unit friendly" in text
    image = pages_png(pages[:1], dpi=72, gap=0)
    items = pages[0].items
    checked = set()
    for i, item in enumerate(items):
        if isinstance(item, Text) and item.text in table.result_key and i > 0:
            rect = items[i - 1]
            assert isinstance(rect, Rect)
            if rect.w > 60:  # the result key's meaning column, not a cell
                continue
            b = table.bombardment
            want = (BOMBARDMENT_NO_EFFECT if item.text in b.no_effect
                    else BOMBARDMENT_CONDITIONAL if item.text in b.conditional else None)
            assert rect.fill == want
            corner = image.getpixel((round(rect.x) + 3, round(rect.y) + 3))
            assert corner == (want or (255, 255, 255))
            checked.add(item.text)
    assert {"De", "(A)", "Ae", "Ex"} <= checked


def test_003_odds_columns_print_and_unknown_cells_are_question_marks(tmp_path):
    table, _, text = _pdf(tmp_path, "cobra")
    header = re.search(r"^Odds\s{2,}(.*)$", text, re.M)
    assert header.group(1).split() == [c.label for c in table.columns]
    rows = _result_lines(text)
    assert rows == {r: ["?"] * 7 for r in range(1, 7)}
    assert "carpet bombing, never shifted" in text


def test_001_differential_columns_and_the_few_known_cells(tmp_path):
    table, _, text = _pdf(tmp_path, "june44")
    header = re.search(r"^Combat differential\s{2,}(.*)$", text, re.M)
    assert header.group(1).split() == ["−7", "−3", "+3", "+7"]
    rows = _result_lines(text)
    assert rows == {row.roll: [c if c is not None else "?" for c in row.cells]
                    for row in table.results}
    assert rows[2] == ["?", "?", "-", "?"]
    assert "each roll" in text


def test_a_crt_without_results_prints_question_marks(tmp_path):
    _, _, text = _pdf(tmp_path, "tactical", "a4")
    assert re.search(r"^Die roll \?\s+\?$", text, re.M)
    assert "2-1" in text


def test_png_is_the_pdf_page_at_the_chart_dpi(tmp_path):
    table = load_crt(MAPS / "omaha" / "crt.json")
    pages = crt_pages(table, "a4")
    image = pages_png(pages, dpi=100, gap=8)
    w, h = pages[0].width, pages[0].height
    assert image.size == (round(w * 100 / 72), len(pages) * round(h * 100 / 72) + 8 *
                          (len(pages) - 1))
    assert (w, h) == (841.89, 595.276)  # landscape A4
    # The title is dark ink where the PDF draws it.
    title = next(i for i in pages[0].items if isinstance(i, Text) and i.text == table.title)
    band = image.crop((round(title.x * 100 / 72), round((title.y - title.size) * 100 / 72),
                       round((title.x + 200) * 100 / 72), round(title.y * 100 / 72)))
    assert band.convert("L").getextrema()[0] < 60
    assert isinstance(image, Image.Image)
