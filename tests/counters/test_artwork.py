"""Unit types a style adds from SVG and picture files, a unit's own image, its count."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from pipeline.cli.counters import counters
from pipeline.counters.layout import counter_layout
from pipeline.counters.render import RenderOptions, render_manifests, render_unit, unit_art
from pipeline.counters.sheet import SheetOptions, write_sheet_pdf
from pipeline.counters.style import load_style, rgb
from pipeline.errors import DataError, ManifestError
from pipeline.model.check import check_game_dir
from pipeline.model.manifest import load_units, units_from_text
from tests.counters.pdftools import operators, raster

RED = (220, 20, 20)
# A red triangle, its tip at the top centre, on a 90 x 60 page (the box's 3:2).
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 90 60">'
       '<polygon points="45,6 80,54 10,54" fill="#dc1414"/></svg>')


def _style(folder: Path, symbols: dict) -> Path:
    (folder / "mountain.svg").write_text(SVG)
    path = folder / "style.json"
    path.write_text(json.dumps({"symbols": symbols}))
    return path


@pytest.fixture
def mountain(tmp_path: Path):
    style = load_style(_style(tmp_path, {"mountain_infantry": {"file": "mountain.svg"}}))
    units = units_from_text("id,side,nationality,type,size,attack,defence,movement\n"
                            "1/99,allied,US,mountain_infantry,battalion,4,5,3\n", "u.csv",
                            unit_types=style.symbols)
    return units.get("1/99"), style


def _inside(rect, frame):
    return rect[0] + frame, rect[1] + frame, rect[2] - frame, rect[3] - frame


def test_an_svg_symbol_draws_where_the_svg_draws(mountain):
    unit, style = mountain
    image = np.asarray(render_unit(unit, RenderOptions(style=style))).astype(int)
    lay = counter_layout(188)
    left, top, right, bottom = _inside(lay.box, lay.frame)
    w, h = right - left, bottom - top
    red = np.all(np.abs(image - RED) < 40, axis=2)

    def at(x: float, y: float) -> bool:  # the SVG's own coordinates, 90 x 60
        return bool(red[round(top + y / 60 * h), round(left + x / 90 * w)])

    assert at(45, 40) and at(30, 50) and at(60, 50)      # inside the triangle
    assert not at(10, 10) and not at(80, 10) and not at(45, 3)  # outside it
    ys, xs = np.nonzero(red)
    assert xs.min() >= left and xs.max() < right and ys.min() >= top and ys.max() < bottom
    box = rgb(style.palette_for(unit).box or "#ffffff")
    assert tuple(image[top + 2, left + 2]) == box  # the box's own fill around it
    assert tuple(image[lay.box[1], lay.box[0] + 10]) == (0, 0, 0)  # bocage's frame kept


def test_an_svg_symbol_is_vector_art_in_the_pdf(tmp_path, mountain):
    _unit, style = mountain
    units = units_from_text("id,side,type\n1/99,allied,mountain_infantry\n",
                            str(tmp_path / "u.csv"), unit_types=style.symbols)
    pdf = tmp_path / "s.pdf"
    plan = write_sheet_pdf(units, None, pdf, SheetOptions(bleed=0.0), RenderOptions(style=style))
    ops, kinds = operators(pdf, 0)
    assert kinds["/Image"] == 0 and ops["f"] + ops["f*"] > 2
    page = raster(pdf, 1, 320)
    placed = plan.on_page(0)[0]
    lay = counter_layout(round(0.625 * 320))
    left, top, right, bottom = _inside(lay.box, lay.frame)
    x = round(placed.x * 320) + (left + right) // 2
    y = round(placed.y * 320) + top + round((bottom - top) * 40 / 60)
    assert np.all(np.abs(page[y, x] - RED) < 40)


def test_a_symbol_with_its_own_frame_covers_the_box(tmp_path):
    style = load_style(_style(tmp_path, {"bicycle": {"file": "mountain.svg", "fit": "box"}}))
    unit = units_from_text("id,side,type\nb,allied,bicycle\n", "u.csv",
                           unit_types=style.symbols).get("b")
    box = next(m for m in unit_art(unit, RenderOptions(style=style)).marks
               if type(m).__name__ == "TypeBox")
    assert not box.framed and box.symbol.rect == box.rect


def test_a_png_symbol_and_a_units_own_image(tmp_path):
    Image.new("RGB", (30, 20), (10, 200, 30)).save(tmp_path / "truck.png")
    (tmp_path / "units.csv").write_text("id,side,type,image,count\nt1,allied,truck,truck.png,3\n"
                                        "t2,allied,truck,,\n")
    units = load_units(tmp_path / "units.csv")
    assert units.get("t1").count == 3 and units.get("t2").count is None
    lay = counter_layout(188)
    left, top, right, bottom = _inside(lay.box, lay.frame)
    middle = ((top + bottom) // 2, (left + right) // 2)
    # The image is found beside the manifest (render_manifests knows where that is).
    drawn = {c.id: np.asarray(c.front).astype(int) for c in render_manifests(units)}
    assert tuple(drawn["t1"][middle]) == (10, 200, 30)
    assert tuple(drawn["t1"][top + 1, left + 1]) == (10, 200, 30)  # fitted 3:2 to the box
    assert tuple(drawn["t2"][middle]) != (10, 200, 30)  # the truck's own symbol


def test_the_count_prints_that_many(tmp_path):
    (tmp_path / "units.csv").write_text("id,side,type,count\na,allied,infantry,3\n"
                                        "b,allied,armor,\n")
    plan = write_sheet_pdf(load_units(tmp_path / "units.csv"), None, tmp_path / "s.pdf",
                           SheetOptions(bleed=0.0))
    fronts = [p.id for p in plan.placements if p.face == "front"]
    assert fronts == ["a", "a", "a", "b"]


def test_a_missing_image_names_the_line_and_column(tmp_path):
    (tmp_path / "units.csv").write_text("id,side,type,image\na,allied,infantry,\n"
                                        "b,allied,armor,tiger.png\n")
    with pytest.raises(ManifestError) as caught:
        load_units(tmp_path / "units.csv")
    assert str(caught.value) == (f"{tmp_path / 'units.csv'}:3: image: no file 'tiger.png'"
                                 f" in {tmp_path}")


def test_a_count_must_be_whole_and_positive(tmp_path):
    with pytest.raises(ManifestError, match=r"u.csv:2: count: '2.5' is not a whole number"):
        units_from_text("id,side,type,count\na,allied,infantry,2.5\n", "u.csv")
    with pytest.raises(ManifestError, match=r"u.csv:2: count: "):
        units_from_text("id,side,type,count\na,allied,infantry,0\n", "u.csv")


def test_an_undeclared_type_is_refused_with_the_way_to_declare_it():
    with pytest.raises(ManifestError) as caught:
        units_from_text("id,side,type\na,allied,mountain_infantry\n", "u.csv")
    assert str(caught.value) == ("u.csv:2: unknown unit type 'mountain_infantry' (did you mean"
                                 " 'infantry'?; a new type needs its symbol in the counter"
                                 " style's \"symbols\", see style.json)")
    with pytest.raises(ManifestError, match=r"unknown unit type 'armr' \(did you mean 'armor'"):
        units_from_text("id,side,type\na,allied,armr\n", "u.csv")
    with pytest.raises(ManifestError, match=r"unknown unit type 'Ski troops'$"):
        units_from_text("id,side,type\na,allied,Ski troops\n", "u.csv")


def test_the_style_beside_the_manifests_declares_types_for_every_command(tmp_path):
    folder = tmp_path / "counters" / "alps"
    folder.mkdir(parents=True)
    _style(folder, {"mountain_infantry": {"file": "mountain.svg"}})
    (folder / "units.csv").write_text("id,side,type\n1,allied,mountain_infantry\n")
    assert load_units(folder / "units.csv").get("1").type == "mountain_infantry"
    checked = check_game_dir(folder)
    assert [c.kind for c in checked] == ["units", "game"]  # style.json is not a data file
    out = tmp_path / "out"
    result = CliRunner().invoke(counters, ["render", str(folder / "units.csv"),
                                           "--out-dir", str(out)])
    assert result.exit_code == 0, result.output
    face = np.asarray(Image.open(out / "1-front.png").convert("RGB")).astype(int)
    assert np.all(np.abs(face - RED) < 40, axis=2).sum() > 500  # the style was used


def test_a_style_naming_a_missing_file_says_where(tmp_path):
    path = tmp_path / "style.json"
    path.write_text(json.dumps({"symbols": {"ski": {"file": "ski.svg"}}}))
    with pytest.raises(DataError) as caught:
        load_style(path)
    assert str(caught.value) == f"{path}: symbols.ski.file: no file 'ski.svg' in {tmp_path}"
    path.write_text(json.dumps({"symbols": {"Ski Troops": {"file": "ski.svg"}}}))
    with pytest.raises(DataError, match=r"symbols.Ski Troops: a unit type is written in lower"):
        load_style(path)


def test_a_broken_svg_says_which_file(tmp_path):
    (tmp_path / "mountain.svg").write_text("<svg><polygon")
    (tmp_path / "style.json").write_text(json.dumps({"symbols": {"m": {"file": "mountain.svg"}}}))
    style = load_style(tmp_path / "style.json")
    unit = units_from_text("id,side,type\na,allied,m\n", "u.csv", unit_types=["m"]).get("a")
    with pytest.raises(DataError, match=r"mountain.svg: line 1: not a readable SVG file"):
        render_unit(unit, RenderOptions(style=style))
