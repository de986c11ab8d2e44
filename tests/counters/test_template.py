"""Counter templates: the builder's SVG, its {column} fields filled from the manifest."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pipeline.counters.measure import MM
from pipeline.counters.render import RenderOptions, render_manifests
from pipeline.counters.sheet import SheetOptions, write_sheet_pdf
from pipeline.counters.style import load_style, rgb
from pipeline.counters.svg import FAMILY, rasterise
from pipeline.counters.template import load_template
from pipeline.errors import DataError
from pipeline.model.manifest import markers_from_text, units_from_text
from tests.counters.pdftools import raster, text

# The background runs 10 units past the page on every side: the bleed shows it.
TEMPLATE = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <rect x="-10" y="-10" width="120" height="120" fill="{background}"/>
  <rect x="0" y="70" width="100" height="30" fill="#ffffff"/>
  <text x="50" y="93" font-family="Futura" font-size="24" font-weight="bold"
        text-anchor="middle" fill="#000000">{values}</text>
  <text x="6" y="20" font-size="15" fill="{text}">{own}</text>
  <rect id="symbol" x="30" y="30" width="40" height="26" fill="#ff00ff"/>
</svg>
"""
UNITS = ("id,side,nationality,type,size,attack,defence,movement,back_attack,back_defence,"
         "back_movement\n"
         "914/352,german,German,infantry,regiment,5,4,4,3,2,4\n"
         "915/352,german,German,infantry,regiment,7,6,8,3,2,4\n")


@pytest.fixture
def templated(tmp_path: Path):
    (tmp_path / "unit.svg").write_text(TEMPLATE)
    (tmp_path / "style.json").write_text(json.dumps({"templates": {"unit": "unit.svg"}}))
    style = load_style(tmp_path / "style.json")
    units = units_from_text(UNITS, str(tmp_path / "units.csv"))
    return tmp_path, style, units


def _typed(values: str, own: str, side: int) -> np.ndarray:
    """The template with the values typed in by hand, as resvg draws it (the box left out)."""
    svg = (TEMPLATE.replace("{background}", "#a9b2b7").replace("{text}", "#000000")
           .replace("{values}", values).replace("{own}", own).replace("Futura", FAMILY))
    svg = svg.replace('<rect id="symbol" x="30" y="30" width="40" height="26" fill="#ff00ff"/>',
                      "")
    return np.asarray(rasterise(svg.encode(), side, side).convert("RGB")).astype(int)


def test_the_png_holds_the_manifests_values(templated):
    _, style, units = templated
    faces = {c.id: c for c in render_manifests(units, None, RenderOptions(style=style))}
    side = 188
    band = slice(round(0.7 * side) + 2, side)  # the white band with the values
    for unit_id, values in (("914/352", "5-4-4"), ("915/352", "7-6-8")):
        face = np.asarray(faces[unit_id].front).astype(int)
        assert np.array_equal(face[band], _typed(values, "", side)[band]), unit_id
        assert not np.array_equal(face[band], _typed("9-9-9", "", side)[band])
    back = np.asarray(faces["914/352"].back).astype(int)
    assert np.array_equal(back[band], _typed("3-2-4", "", side)[band])  # the reduced values
    front = np.asarray(faces["914/352"].front).astype(int)
    assert tuple(front[40, 180]) == rgb("#a9b2b7")  # fill="{background}": the side's colour


def test_bocage_draws_the_type_box_where_the_template_says(templated):
    _, style, units = templated
    face = np.asarray(render_manifests(units, None, RenderOptions(style=style))[0].front)
    left, top, right, bottom = (round(v * 188 / 100) for v in (30, 30, 70, 56))
    assert tuple(face[top, (left + right) // 2]) == (0, 0, 0)  # the frame, not magenta
    assert tuple(face[(top + bottom) // 2, (left + right) // 2]) == (0, 0, 0)  # the X's centre
    assert not np.any(np.all(face == (255, 0, 255), axis=2))  # the placeholder is gone
    assert tuple(face[top + 4, left + 10]) == rgb("#e0e4e6")  # the German box colour


def test_the_pdf_text_holds_the_manifests_values(templated, tmp_path):
    _, style, units = templated
    pdf = tmp_path / "sheet.pdf"
    write_sheet_pdf(units, None, pdf, SheetOptions(bleed=3 * MM), RenderOptions(style=style))
    fronts, backs = text(pdf, 1), text(pdf, 2)
    assert "5-4-4" in fronts and "7-6-8" in fronts and "914" in fronts and "915" in fronts
    assert backs.count("3-2-4") == 2 and "5-4-4" not in backs


def test_what_the_template_draws_past_its_page_fills_the_bleed(templated, tmp_path):
    _, style, units = templated
    pdf = tmp_path / "sheet.pdf"
    plan = write_sheet_pdf(units, None, pdf, SheetOptions(bleed=3 * MM),
                           RenderOptions(style=style))
    page = raster(pdf, 1, 150)
    placed = plan.on_page(0)[0]
    bleed_px = round(3 * MM * 150)
    x, y = round(placed.x * 150) - bleed_px // 2, round((placed.y + 0.3) * 150)
    assert np.all(np.abs(page[y, x] - rgb("#a9b2b7")) <= 2)  # in the bleed, left of the cut
    faces = render_manifests(units, None, RenderOptions(style=style, bleed=3 * MM))
    assert tuple(np.asarray(faces[0].front)[1, 1]) == rgb("#a9b2b7")


def test_a_marker_template(tmp_path):
    (tmp_path / "m.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 50 50">'
        '<rect width="50" height="50" fill="{background}"/>'
        '<text x="25" y="30" font-size="14" text-anchor="middle">{label} {value}</text></svg>')
    (tmp_path / "style.json").write_text(json.dumps({"templates": {"marker": "m.svg"}}))
    style = load_style(tmp_path / "style.json")
    markers = markers_from_text("id,kind,side,value,label\nsf,support_fire,allied,+3,SF\n",
                                "m.csv")
    pdf = tmp_path / "m.pdf"
    write_sheet_pdf(None, markers, pdf, SheetOptions(), RenderOptions(style=style))
    assert "SF +3" in text(pdf, 1)


def test_an_unknown_field_names_its_line(tmp_path):
    (tmp_path / "t.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg">\n'
                                    "<text>{own}</text>\n<text>{atack}</text>\n</svg>")
    with pytest.raises(DataError) as caught:
        load_template(tmp_path / "t.svg")
    assert str(caught.value) == (f"{tmp_path / 't.svg'}: line 3: unknown field '{{atack}}'"
                                 " (did you mean '{attack}'?)")
    (tmp_path / "u.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg">'
                                    "<text>{kind}</text></svg>")
    with pytest.raises(DataError, match=r"unknown field '{kind}'"):
        load_template(tmp_path / "u.svg", "unit")  # a marker column on a unit template
    assert load_template(tmp_path / "u.svg", "marker").fields == {"kind"}


def test_a_moved_symbol_box_is_refused(tmp_path):
    (tmp_path / "t.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg">\n<g transform='
                                    '"translate(5,5)">\n<rect id="symbol" width="9" height="6"/>'
                                    "</g></svg>")
    with pytest.raises(DataError, match=r"t.svg: line 3: the <rect id=\"symbol\"> is moved by"):
        load_template(tmp_path / "t.svg")
    (tmp_path / "c.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><circle id="symbol"'
                                    ' r="4"/></svg>')
    with pytest.raises(DataError, match=r'the element id="symbol" must be a <rect>'):
        load_template(tmp_path / "c.svg")


def test_a_file_that_is_not_svg(tmp_path):
    (tmp_path / "t.svg").write_text("<html><body/></html>")
    with pytest.raises(DataError, match=r"not an SVG document: the root element is <html>"):
        load_template(tmp_path / "t.svg")
