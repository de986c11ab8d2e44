"""Counter sheets as vector art: paths and embedded text, the PNG faces' very drawing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pypdf import PdfReader

from pipeline.counters.measure import MM
from pipeline.counters.render import RenderOptions, render_manifests
from pipeline.counters.sheet import SheetOptions, sheet_info, write_sheet_pdf
from pipeline.model.manifest import load_markers, load_units
from tests.counters.pdftools import fonts, operators, raster, text

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["demo", "omaha", "june44", "cobra", "tactical"]
DPI = 320  # 5/8 in is 200 px and the 1/2 in margins whole pixels: faces sit on the grid


def _sheet(tmp_path: Path, game: str, bleed: float = 0.0):
    units = load_units(ROOT / "counters" / game / "units.csv")
    markers = load_markers(ROOT / "counters" / game / "markers.csv")
    options = SheetOptions(bleed=bleed)
    pdf = tmp_path / f"{game}.pdf"
    plan = write_sheet_pdf(units, markers, pdf, options, RenderOptions(dpi=DPI))
    return units, markers, pdf, plan


def test_a_sheet_page_is_paths_and_text_with_no_pictures(tmp_path):
    _, _, pdf, _ = _sheet(tmp_path, "demo")
    ops, kinds = operators(pdf, 0)
    # A filled face a counter (61 here: re f), strokes (m l S), curves (c: ovals, circles,
    # arcs), text (Tj).
    assert ops["re"] >= 61 and ops["m"] > 50 and ops["l"] > 50 and ops["c"] > 10
    assert ops["Tj"] > 60 and ops["S"] >= 10
    assert kinds["/Image"] == 0 and kinds["/Form"] >= 5  # repeated symbols drawn once
    assert ops["Do"] > kinds["/Form"]  # ... and placed many times


def test_every_font_is_embedded_regular_and_bold(tmp_path):
    _, _, pdf, _ = _sheet(tmp_path, "demo")
    found = fonts(pdf)
    assert found and all(f["emb"] == "yes" for f in found), found
    names = {f["name"].split("+")[-1] for f in found}
    assert {"DejaVuSans-Bold", "DejaVuSansCondensed-Bold", "DejaVuSansCondensed"} <= names
    assert not any("Helvetica" in n for n in names)


def test_trim_and_bleed_boxes_frame_the_counters(tmp_path):
    bleed = 3 * MM
    _, _, pdf, plan = _sheet(tmp_path, "omaha", bleed)
    reader = PdfReader(str(pdf))
    for number, page in enumerate(reader.pages):
        placed = plan.on_page(number)
        left = min(p.x for p in placed) * 72
        right = max(p.x + p.size for p in placed) * 72
        top = (plan.height - min(p.y for p in placed)) * 72
        bottom = (plan.height - max(p.y + p.size for p in placed)) * 72
        trim = [float(v) for v in page.trimbox]
        assert trim == pytest.approx([left, bottom, right, top], abs=1e-3)
        grown = [left - bleed * 72, bottom - bleed * 72, right + bleed * 72, top + bleed * 72]
        assert [float(v) for v in page.bleedbox] == pytest.approx(grown, abs=1e-3)


def test_metadata_names_the_game(tmp_path):
    manifests = [ROOT / "counters" / "omaha" / "units.csv"]
    info = sheet_info(manifests, SheetOptions())
    units = load_units(manifests[0])
    pdf = tmp_path / "sheet.pdf"
    write_sheet_pdf(units, None, pdf, SheetOptions(), info=info)
    meta = PdfReader(str(pdf)).metadata
    assert meta.title == ("D-Day Omaha Beach: Beach to Bocage (Beach to Bocage / Landing and"
                          " Linkup map): counter sheets")
    assert meta.author != "anonymous" and "D-Day Omaha Beach" in meta.author
    assert "5/8 in" in meta.subject and "units.csv" in meta.subject


def test_the_pdf_text_is_the_counters_text(tmp_path):
    units, _, pdf, _ = _sheet(tmp_path, "cobra")
    printed = text(pdf, 1)
    for unit in units:
        assert unit.id.split("/")[0] in printed, unit.id


def _apart(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How far each pixel of ``a`` is from the nearest match in ``b`` within one pixel."""
    padded = np.pad(b, ((1, 1), (1, 1), (0, 0)), mode="edge")
    best = None
    for dy in range(3):
        for dx in range(3):
            d = np.abs(a - padded[dy:dy + a.shape[0], dx:dx + a.shape[1]]).max(axis=2)
            best = d if best is None else np.minimum(best, d)
    assert best is not None
    return best


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_printed_counter_is_the_png_face(tmp_path, game):
    """The PDF page rasterised by poppler, face by face, against the PNG from the same layout.

    Both are drawn at 320 dpi. FreeType hints the PNG's text, poppler does not, so a
    glyph's edge may fall a pixel apart: a pixel counts as different only when
    nothing within one pixel of it matches. A shape or colour of one back-end
    alone (a symbol's stroke is 1% of a face, its value line 4%) would show."""
    units, markers, pdf, plan = _sheet(tmp_path, game)
    faces = {c.id: c for c in render_manifests(units, markers, RenderOptions(dpi=DPI))}
    side = 200
    worst = []
    for page in range(plan.pages):
        pixels = raster(pdf, page + 1, DPI)
        for p in plan.on_page(page):
            x, y = round(p.x * DPI), round(p.y * DPI)
            printed = pixels[y:y + side, x:x + side]
            face = np.asarray(faces[p.id].front if p.face == "front" else faces[p.id].back
                              ).astype(int)
            apart = np.maximum(_apart(printed, face), _apart(face, printed))
            worst.append((float((apart > 64).mean()), p.id, p.face))
    worst.sort(reverse=True)
    assert len(worst) == len(plan.placements)
    assert worst[0][0] < 0.01, worst[:3]
