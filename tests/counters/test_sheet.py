"""Counter sheets: the PDF rasterised with pdftoppm puts every face where it belongs."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pipeline.counters.measure import MM
from pipeline.counters.render import RenderOptions, render_manifests
from pipeline.counters.sheet import SheetOptions, plan_sheets, sheet_pdf, write_sheet_pdf
from pipeline.counters.style import load_style, rgb
from pipeline.errors import DataError
from pipeline.model.manifest import markers_from_text, units_from_text
from tests.needs import program

DPI = 300
TOLERANCE = 0.2 * MM * DPI  # 0.2 mm in pixels of the raster
COLOURS = ["#c03030", "#3060c0", "#30a050", "#c0a020", "#9040b0", "#20a0a0", "#e07020"]



@pytest.fixture
def coloured(tmp_path: Path):
    """Seven units, each in its own colour (its band too), and the style that says so."""
    style = {"nationalities": {f"N{i}": {"background": c, "band": c, "box": "#ffffff"}
                               for i, c in enumerate(COLOURS)}}
    path = tmp_path / "style.json"
    path.write_text(json.dumps(style))
    rows = "".join(f"u{i},allied,N{i},infantry,5,4,4\n" for i in range(len(COLOURS)))
    units = units_from_text("id,side,nationality,type,attack,defence,movement\n" + rows,
                            "units.csv")
    return units, load_style(path)


def _raster(pdf: Path, page: int) -> np.ndarray:
    out = pdf.with_name(f"{pdf.stem}-{page}")
    subprocess.run([program("pdftoppm", "poppler-utils"), "-r", str(DPI), "-png", "-singlefile",
                    "-f", str(page), "-l", str(page), str(pdf), str(out)], check=True)
    with Image.open(f"{out}.png") as image:
        rgb_pixels = np.asarray(image.convert("RGB")).astype(np.int32)
    # One int a pixel: comparing colours is then one fast comparison.
    return (rgb_pixels[..., 0] << 16) | (rgb_pixels[..., 1] << 8) | rgb_pixels[..., 2]


def _bbox(pixels: np.ndarray, colour: str) -> tuple[float, float, float, float]:
    r, g, b = rgb(colour)
    # Exact colour: pixels a cut edge passes through are blends, at most 1 px of 2.4 allowed.
    ys, xs = np.nonzero(pixels == (r << 16) | (g << 8) | b)
    assert len(xs), f"colour {colour} not on the page"
    return float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)


def _write(tmp_path: Path, units, style, options: SheetOptions) -> tuple[Path, object]:
    pdf = tmp_path / "sheet.pdf"
    plan = write_sheet_pdf(units, None, pdf, options, RenderOptions(style=style))
    return pdf, plan



@pytest.mark.slow
@pytest.mark.parametrize(("paper", "duplex"), [("letter", "long"), ("a4", "short")])
def test_counters_at_their_physical_place_and_size_backs_behind_fronts(
        tmp_path, coloured, paper, duplex):
    units, style = coloured
    options = SheetOptions(paper=paper, duplex=duplex, bleed=0.0)
    pdf, plan = _write(tmp_path, units, style, options)
    front, back = _raster(pdf, 1), _raster(pdf, 2)
    turned = np.fliplr(back) if duplex == "long" else np.flipud(back)
    for i, colour in enumerate(COLOURS):
        placed = plan.on_page(0)[i]
        expect = (placed.x * DPI, placed.y * DPI, (placed.x + placed.size) * DPI,
                  (placed.y + placed.size) * DPI)
        found = _bbox(front, colour)
        assert np.allclose(found, expect, atol=TOLERANCE), (i, found, expect)
        # A 5/8-inch counter measures 5/8 inch.
        assert abs((found[2] - found[0]) - 0.625 * DPI) < TOLERANCE
        assert abs((found[3] - found[1]) - 0.625 * DPI) < TOLERANCE
        # Its back, with the sheet turned on the chosen edge, covers the same square.
        assert np.allclose(_bbox(turned, colour), found, atol=TOLERANCE), (i, duplex)



def test_back_offset_shifts_every_back(tmp_path, coloured):
    units, style = coloured
    plain, _ = _write(tmp_path, units, style, SheetOptions(bleed=0.0))
    before = _raster(plain, 2)
    shifted, _ = _write(tmp_path, units, style,
                        SheetOptions(bleed=0.0, back_offset=(1 * MM, -0.5 * MM)))
    after = _raster(shifted, 2)
    for colour in COLOURS[:3]:
        (x0, y0, _, _), (x1, y1, _, _) = _bbox(before, colour), _bbox(after, colour)
        assert abs((x1 - x0) - 1 * MM * DPI) < TOLERANCE
        assert abs((y1 - y0) + 0.5 * MM * DPI) < TOLERANCE



def test_bleed_cut_marks_and_page_boxes(tmp_path, coloured):
    units, style = coloured
    bleed = 3 * MM
    options = SheetOptions(paper="letter", bleed=bleed)
    pdf, plan = _write(tmp_path, units, style, options)
    front = _raster(pdf, 1)
    placed = plan.on_page(0)
    for i, colour in enumerate(COLOURS):
        p = placed[i]
        # The face colour runs a bleed past the cut square on every side.
        expect = ((p.x - bleed) * DPI, (p.y - bleed) * DPI, (p.x + p.size + bleed) * DPI,
                  (p.y + p.size + bleed) * DPI)
        assert np.allclose(_bbox(front, colour), expect, atol=TOLERANCE), i
    # Cut marks above the grid continue each cut line, outside the bleed.
    top = min(p.y for p in placed) - bleed
    row = front[round((top - options.mark_gap - options.mark_length / 2) * DPI)]
    dark = np.nonzero(((row >> 8) & 255) < 160)[0]
    runs = np.split(dark, np.nonzero(np.diff(dark) > 1)[0] + 1)
    marks = sorted((r.min() + r.max() + 1) / 2 for r in runs if len(r))
    lines = sorted({round(v, 6) for p in placed for v in (p.x, p.x + p.size)})
    assert len(marks) == len(lines)
    assert np.allclose(marks, [v * DPI for v in lines], atol=TOLERANCE)
    # Nothing is drawn between the marks and the bleed (the gap).
    gap_row = front[round((top - options.mark_gap / 2) * DPI)]
    assert (((gap_row >> 8) & 255) > 250).all()
    # TrimBox and BleedBox, as pdfinfo reads them (points, origin bottom left).
    info = subprocess.run(["pdfinfo", "-box", "-f", "1", "-l", "1", str(pdf)], check=True,
                          capture_output=True, text=True).stdout
    trim = [float(v) for v in re.search(r"TrimBox:\s+(.*)", info).group(1).split()]
    bleed_box = [float(v) for v in re.search(r"BleedBox:\s+(.*)", info).group(1).split()]
    left, right = min(p.x for p in placed), max(p.x + p.size for p in placed)
    top_in, bottom = min(p.y for p in placed), max(p.y + p.size for p in placed)
    assert np.allclose(trim, [left * 72, (plan.height - bottom) * 72, right * 72,
                              (plan.height - top_in) * 72], atol=0.01)
    assert np.allclose(bleed_box, np.array(trim) + np.array([-1, -1, 1, 1]) * bleed * 72,
                       atol=0.01)



def test_pages_alternate_fronts_and_backs_and_say_so(tmp_path):
    rows = "".join(f"u{i},allied,infantry\n" for i in range(200))
    units = units_from_text("id,side,type\n" + rows, "units.csv")
    pdf = tmp_path / "many.pdf"
    plan = write_sheet_pdf(units, None, pdf, SheetOptions(paper="letter", duplex="short"),
                           title="many")
    assert plan.pages == 6 and plan.columns * plan.rows * 2 < 200
    text = subprocess.run([program("pdftotext", "poppler-utils"), str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout
    pages = text.split("\f")
    assert "fronts, sheet 1 of 3" in pages[0] and "backs, sheet 1 of 3" in pages[1]
    assert "short edge" in pages[1] and "fronts, sheet 2 of 3" in pages[2]


def test_plan_mirrors_backs_on_the_chosen_edge():
    for duplex in ("long", "short"):
        plan = plan_sheets(30, SheetOptions(duplex=duplex))
        fronts, backs = plan.on_page(0), plan.on_page(1)
        for f, b in zip(fronts, backs, strict=True):
            assert f.index == b.index
            if duplex == "long":
                assert b.x == pytest.approx(plan.width - f.x - f.size) and b.y == f.y
            else:
                assert b.y == pytest.approx(plan.height - f.y - f.size) and b.x == f.x


def test_pdf_is_deterministic_and_markers_print_their_count(coloured):
    units, style = coloured
    options = SheetOptions()
    faces = RenderOptions(bleed=options.bleed, style=style)
    drawn = render_manifests(units, None, faces)
    a = sheet_pdf(drawn, options, side_px=faces.side_px, bleed_px=faces.bleed_px)
    b = sheet_pdf(drawn, options, side_px=faces.side_px, bleed_px=faces.bleed_px)
    assert a == b
    markers = markers_from_text("id,kind,value,count\nsf,support_fire,+2,5\n", "m.csv")
    drawn = render_manifests(None, markers, faces)
    assert drawn[0].copies == 5
    pdf = sheet_pdf(drawn, options, side_px=faces.side_px, bleed_px=faces.bleed_px)
    assert pdf.count(b"/Subtype /Image") == 1  # five copies, one stored image


@pytest.mark.parametrize(("options", "message"), [
    ({"size": 9.0}, "--size: 9 in is out of range (1/4 in to 2 in)"),
    ({"size": 0.0}, "--size: 0 in is out of range (1/4 in to 2 in)"),
    ({"bleed": 20.0}, "--bleed: 20 in is out of range (0 in to 1/4 in)"),
    ({"margin": 3.0}, "--margin: 3 in is out of range (0 in to 2 in)"),
    ({"back_offset": (0.0, -1.0)}, "--back-offset: -1 in is out of range (-1/4 in to 1/4 in)"),
])
def test_sizes_out_of_range_are_refused_before_anything_is_drawn(options, message):
    with pytest.raises(DataError) as info:
        SheetOptions(paper="a4", **options)
    assert str(info.value) == message


def test_a_print_run_over_the_page_limit_is_refused_before_it_is_laid_out():
    with pytest.raises(DataError, match=r"^1,000,000,000 counters need 22,727,274 pages, more"
                                        r" than 400; print the manifests in parts$"):
        plan_sheets(1_000_000_000, SheetOptions(paper="letter"))


@pytest.mark.slow
def test_a_long_manifest_is_drawn_sheet_by_sheet_not_held(tmp_path):
    import tracemalloc

    def peak(count: int) -> int:
        text = "id,side,type,attack\n" + "".join(f"u{n},allied,infantry,{n % 9}\n"
                                                 for n in range(count))
        units = units_from_text(text, "u.csv")
        tracemalloc.start()
        try:
            write_sheet_pdf(units, None, tmp_path / f"{count}.pdf", SheetOptions(),
                            RenderOptions(dpi=150))
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    faces = RenderOptions(dpi=150, bleed=SheetOptions().bleed)
    held = (faces.side_px + 2 * faces.bleed_px) ** 2 * 3 * 2  # both faces of one counter
    # Both runs fill whole sheets (88 counters a letter sheet), so what the later 400
    # counters add is what stays per counter: reportlab keeps the document, their images
    # compressed, until it is saved. Holding their faces would cost twice as much or more.
    few, many = peak(300), peak(700)
    assert many - few < 400 * held / 2, (few, many, 400 * held)


def test_an_empty_manifest_names_its_file(tmp_path):
    units = units_from_text("id,side,type\n", "units.csv")
    with pytest.raises(DataError) as info:
        write_sheet_pdf(units, None, tmp_path / "s.pdf", SheetOptions())
    assert str(info.value) == "units.csv: nothing to print: no units or markers below the header"
    assert not (tmp_path / "s.pdf").exists()
