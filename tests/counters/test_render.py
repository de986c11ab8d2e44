"""Counter images by their pixels: layout, values, colours, reduced sides, markers, files."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from pipeline.counters.layout import counter_layout, marker_layout
from pipeline.counters.render import (
    RenderOptions,
    contact_sheet,
    render_manifests,
    render_marker,
    render_unit,
    write_counters,
)
from pipeline.counters.style import default_style, rgb
from pipeline.counters.typeset import font
from pipeline.errors import DataError, ManifestError
from pipeline.model.manifest import (
    MarkerSpec,
    UnitSpec,
    load_markers,
    load_units,
    markers_from_text,
    units_from_text,
)

from .conftest import DEMO, array, ink_box

BLACK = (0, 0, 0)


def _text_alone(text: str, px: int, background: tuple[int, int, int]) -> np.ndarray:
    """``text`` drawn by Pillow alone, in the shipped bold font, cropped to its ink."""
    face = font("bold", px)
    image = Image.new("RGB", (round(face.getlength(text)) + 40, px * 2), background)
    ImageDraw.Draw(image).text((20, px * 3 // 2), text, font=face, fill=BLACK, anchor="ls")
    pixels = array(image)
    box = ink_box(pixels, background, tolerance=0)
    assert box is not None
    return pixels[box[1]:box[3], box[0]:box[2]]


def _band_ink(image: Image.Image, background: tuple[int, int, int]) -> np.ndarray:
    lay = counter_layout(image.width)
    left, top, right, bottom = lay.values
    pixels = array(image)[top:bottom, left:right]
    box = ink_box(pixels, background, tolerance=0)
    assert box is not None, "nothing printed in the value band"
    return pixels[box[1]:box[3], box[0]:box[2]]


def test_symbol_box_is_centred_and_symbol_centred_in_it(units):
    image = render_unit(units.get("914/352"))  # infantry: an X from corner to corner
    pixels = array(image)
    side = image.width
    lay = counter_layout(side)
    left, top, right, bottom = lay.box
    # The frame: ink on the box edges, equal margins left and right of the counter.
    assert left == side - right
    palette = default_style().palette_for(units.get("914/352"))
    mid = (top + bottom) // 2
    for x in (left, left + lay.frame - 1, right - lay.frame, right - 1):
        assert tuple(pixels[mid, x]) == BLACK
    for x in (left - 1, right):
        assert tuple(pixels[mid, x]) == rgb(palette.background)
    for x in (left + lay.frame, right - lay.frame - 1):
        assert tuple(pixels[mid, x]) == rgb(palette.box or palette.background)
    assert tuple(pixels[top, (left + right) // 2]) == BLACK
    assert tuple(pixels[bottom - 1, (left + right) // 2]) == BLACK
    # Inside the frame the symbol's ink balances on the box centre (the X crosses there).
    inner = pixels[top + lay.frame:bottom - lay.frame, left + lay.frame:right - lay.frame]
    weight = 255 * 3 - inner.sum(axis=2)
    ys, xs = np.indices(weight.shape)
    cx = (weight * xs).sum() / weight.sum()
    cy = (weight * ys).sum() / weight.sum()
    assert abs(cx - (inner.shape[1] - 1) / 2) < 0.75
    assert abs(cy - (inner.shape[0] - 1) / 2) < 0.75
    assert inner[inner.shape[0] // 2, inner.shape[1] // 2].sum() < 200  # the crossing is inked


@pytest.mark.parametrize("unit_type", ["artillery", "armor", "anti_aircraft", "headquarters"])
def test_other_symbols_are_centred_across_their_box(unit_type):
    unit = UnitSpec(id="1", side="allied", type=unit_type)
    pixels = array(render_unit(unit))
    lay = counter_layout(188)
    left, top, right, bottom = lay.box
    inner = pixels[top + lay.frame:bottom - lay.frame, left + lay.frame:right - lay.frame]
    box_colour = rgb(default_style().sides["allied"].box or "#000000")
    ink = ink_box(inner, box_colour)
    assert ink is not None
    assert abs(ink[0] - (inner.shape[1] - ink[2])) <= 1  # same margin left and right


def test_values_read_what_the_manifest_says(units):
    unit = units.get("914/352")
    background = rgb(default_style().palette_for(unit).background)
    front, back = render_unit(unit), render_unit(unit, back=True)
    px = counter_layout(188).value_px
    assert np.array_equal(_band_ink(front, background), _text_alone("5-4-4", px, background))
    # The band is not merely 'some text': a different value reads differently.
    assert not np.array_equal(_band_ink(front, background), _text_alone("5-4-3", px, background))
    # The back carries the back values.
    assert np.array_equal(_band_ink(back, background), _text_alone("3-2-4", px, background))


def test_values_the_manifest_leaves_empty_print_as_question_marks(units):
    unit = units.get("2 Rgr")
    background = rgb(default_style().palette_for(unit).background)
    px = counter_layout(188).value_px
    band = _band_ink(render_unit(unit), background)
    assert np.array_equal(band, _text_alone("?-?-?", px, background))


def test_value_layouts_of_the_other_systems():
    cobra = UnitSpec(id="1", side="german", type="infantry", strength=7, movement=4)
    tactical = UnitSpec(id="2", side="german", type="machine_gun", attack=6, range=8,
                        defence=4, movement=5, flags=["long_range"])
    background = rgb(default_style().sides["german"].background)
    px = counter_layout(188).value_px
    assert np.array_equal(_band_ink(render_unit(cobra), background),
                          _text_alone("7-4", px, background))
    image = render_unit(tactical, RenderOptions(values="attack-range-defence-movement"))
    band = _band_ink(image, background)
    width = counter_layout(188).values
    face = font("bold", px)
    if face.getlength("6-8*-4-5") <= width[2] - width[0]:
        assert np.array_equal(band, _text_alone("6-8*-4-5", px, background))
    else:  # shrunk to fit: same text, smaller
        assert band.shape[1] <= width[2] - width[0]


def test_side_and_nationality_colours_at_sampled_points(units):
    style = default_style()
    for unit_id, palette in (("914/352", style.nationalities["German"]),
                             ("CCA/2", style.nationalities["US"]),
                             ("1/1", style.nationalities["British"])):
        pixels = array(render_unit(units.get(unit_id)))
        lay = counter_layout(188)
        for x, y in ((2, 2), (185, 94), (94, 185), (10, 60)):
            assert tuple(pixels[y, x]) == rgb(palette.background), (unit_id, x, y)
        left, top, right, _bottom = lay.box
        assert tuple(pixels[top + 5, left + (right - left) // 2 - 12]) == rgb(palette.box)


def test_reduced_side_has_a_band_and_one_step_units_no_reduced_side(units):
    style = default_style()
    lay = counter_layout(188)
    y = (lay.band[1] + lay.band[3]) // 2
    unit = units.get("914/352")
    front, back = array(render_unit(unit)), array(render_unit(unit, back=True))
    assert tuple(back[y, 3]) == rgb(style.nationalities["German"].band)
    assert tuple(front[y, 3]) == rgb(style.nationalities["German"].background)
    assert tuple(back[1, 3]) == rgb(style.nationalities["German"].background)  # edge stays
    one_step = units.get("KG Meyer")
    assert np.array_equal(array(render_unit(one_step)), array(render_unit(one_step, back=True)))


def test_mobile_units_box_their_movement_in_the_style_colour(units):
    pixels = array(render_unit(units.get("CCA/2")))
    lay = counter_layout(188)
    band = pixels[lay.values[1]:lay.values[3], lay.values[0]:lay.values[2]]
    red = np.all(band == rgb(default_style().mobile), axis=2)
    assert red.sum() > 300
    assert np.nonzero(red)[1].min() > band.shape[1] // 2  # the last cell: movement


def test_size_mark_above_the_box_and_no_zoc_hexagon(units):
    lay = counter_layout(188)
    palette = default_style().nationalities["German"]
    pixels = array(render_unit(units.get("KG Meyer")))
    left, top, right, bottom = lay.size_mark
    mark = ink_box(pixels[top:bottom, left:right], rgb(palette.background))
    assert mark is not None and mark[3] <= bottom - top
    assert abs((mark[0] + mark[2]) / 2 - (right - left) / 2) <= 1.5  # centred over the box
    zx = (lay.zoc[0] + lay.zoc[2]) // 2
    zy = (lay.zoc[1] + lay.zoc[3]) // 2
    assert tuple(pixels[zy, zx]) == rgb(palette.ink)


def test_text_is_anti_aliased():
    unit = UnitSpec(id="914/352", side="german", type="infantry", attack=5, defence=4,
                    movement=4)
    pixels = array(render_unit(unit))
    lay = counter_layout(188)
    band = pixels[lay.values[1]:lay.values[3], lay.values[0]:lay.values[2], 0]
    assert len(np.unique(band)) > 20  # edges shade between ink and face


@pytest.mark.parametrize(("size", "dpi"), [(0.5, 150), (0.75, 300), (1.0, 600)])
def test_any_size_and_resolution(size, dpi):
    unit = UnitSpec(id="9/2", side="allied", type="infantry", size="regiment", attack=5,
                    defence=4, movement=4)
    image = render_unit(unit, RenderOptions(size=size, dpi=dpi))
    side = round(size * dpi)
    assert image.size == (side, side)
    lay = counter_layout(side)
    assert lay.box[0] == side - lay.box[2]
    assert tuple(array(image)[lay.box[1], side // 2]) == BLACK


def test_bleed_extends_the_face_colour():
    unit = UnitSpec(id="9/2", side="allied", type="infantry")
    opts = RenderOptions(bleed=3 / 25.4)
    image = render_unit(unit, opts)
    assert image.size == (188 + 2 * opts.bleed_px,) * 2
    plain = array(render_unit(unit))
    with_bleed = array(image)
    b = opts.bleed_px
    assert np.array_equal(with_bleed[b:b + 188, b:b + 188], plain)
    assert tuple(with_bleed[1, 1]) == rgb(default_style().sides["allied"].background)


def test_markers_print_value_icon_and_label():
    style = default_style()
    marker = MarkerSpec(id="sf", kind="support_fire", side="allied", value="+6")
    image = render_marker(marker)
    pixels = array(image)
    background = rgb(style.sides["allied"].background)
    lay = marker_layout(188)
    left, top, right, bottom = lay.icon
    assert ink_box(pixels[top:bottom, left:right], background) is not None  # the burst
    v = lay.value
    band = pixels[v[1]:v[3], v[0]:v[2]]
    box = ink_box(band, background, tolerance=0)
    assert box is not None
    assert np.array_equal(band[box[1]:box[3], box[0]:box[2]],
                          _text_alone("+6", lay.value_px, background))
    for icon in ("aircraft", "turret", "ship"):
        other = array(render_marker(marker.model_copy(update={"icon": icon})))
        assert not np.array_equal(other[top:bottom, left:right], pixels[top:bottom, left:right])
    sideless = array(render_marker(MarkerSpec(id="gt", kind="game_turn", label="GT")))
    assert tuple(sideless[2, 2]) == rgb(style.markers.background)


def test_unknown_marker_icon_names_the_line():
    markers = markers_from_text("id,kind,icon\na,beachhead,\nb,air_points,airplane\n", "m.csv")
    with pytest.raises(ManifestError, match=r"^m\.csv:3: unknown marker icon 'airplane'"):
        render_manifests(None, markers)


def test_demo_manifests_render_deterministically():
    units, markers = load_units(DEMO / "units.csv"), load_markers(DEMO / "markers.csv")
    first = render_manifests(units, markers)
    again = render_manifests(units, markers)
    assert len(first) == len(units) + len(markers)
    for a, b in zip(first, again, strict=True):
        assert a.front.tobytes() == b.front.tobytes() and a.back.tobytes() == b.back.tobytes()
    assert {c.copies for c in first if c.kind == "marker"} >= {1, 2, 3, 6}


def test_write_counters_files_and_contact_sheet(tmp_path, units):
    drawn = render_manifests(units)
    sheet = contact_sheet(drawn, "test")
    files = write_counters(drawn, tmp_path / "out", contact=sheet)
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert "914-352-front.png" in names and "914-352-back.png" in names
    assert "2-rgr-front.png" in names
    assert "contact-sheet.png" in names and len(files) == len(names) == 2 * len(units) + 1
    with Image.open(tmp_path / "out" / "914-352-front.png") as image:
        assert image.size == (188, 188)
        assert round(image.info["dpi"][0]) == 300
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".")]


def test_ids_that_collide_as_file_names_are_refused(tmp_path):
    a = UnitSpec(id="9/2", side="allied", type="infantry")
    b = UnitSpec(id="9 2", side="allied", type="infantry")
    from pipeline.counters.render import Counter

    drawn = [Counter(u.id, "unit", render_unit(u), render_unit(u)) for u in (a, b)]
    with pytest.raises(DataError, match=r"would share the counter image names 9-2-front.png"):
        write_counters(drawn, tmp_path / "out")
    assert not (tmp_path / "out").exists()


# -- long manifests: drawn one at a time, the contact sheet bounded ----------------------------


def _many(count: int) -> str:
    return "id,side,type,attack\n" + "".join(f"u{n},allied,infantry,{n % 9}\n"
                                             for n in range(count))


def test_a_contact_sheet_of_a_long_manifest_stays_within_its_pixels():
    from pipeline.counters.render import CONTACT_PIXELS, ContactSheet

    sheet = ContactSheet(10_000, 188, "ten thousand")
    assert sheet.image.width * sheet.image.height <= CONTACT_PIXELS
    assert sheet.side < 188 and sheet.columns > 6  # smaller faces, more columns
    small = ContactSheet(34, 188, "the demo")
    assert (small.side, small.columns) == (188, 6)  # a short one is drawn as before


def test_faces_are_written_as_drawn_not_held(tmp_path):
    import tracemalloc

    from pipeline.counters.render import ContactSheet, iter_counters

    def peak(count: int) -> int:
        units = units_from_text(_many(count), "u.csv")
        options = RenderOptions(dpi=150)
        tracemalloc.start()
        try:
            write_counters(iter_counters(units, None, options), tmp_path / f"out{count}",
                           dpi=150, contact=ContactSheet(count, options.side_px))
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    face = RenderOptions(dpi=150).side_px ** 2 * 3
    few, many = peak(20), peak(220)
    # Holding 200 more counters would cost 400 faces; the contact sheet costs under 2 each.
    assert many - few < 200 * 2 * face / 3, (few, many)
    assert len(list((tmp_path / "out220").glob("*-front.png"))) == 220


def test_a_unit_and_a_marker_with_one_id_are_refused_before_anything_is_written(tmp_path):
    from pipeline.counters.render import iter_counters

    units = units_from_text("id,side,type\n1,allied,infantry\n", "u.csv")
    markers = markers_from_text("id,kind\n1,other\n", "m.csv")
    with pytest.raises(DataError, match="counters: id '1' is given twice"):
        write_counters(iter_counters(units, markers), tmp_path / "out")
    assert not (tmp_path / "out").exists()


# -- written by the workers: straight into the folder being made -----------------------------


def _rows(count: int, broken: int | None = None, movement: int = 4) -> str:
    return "id,side,type,attack,defence,movement,steps\n" + "".join(
        f"u{n},{'allied' if n % 2 else 'german'},{'ski' if n == broken else 'infantry'},"
        f"{n % 9},{n % 5},{movement},{1 if n % 7 == 0 else 2}\n" for n in range(count))


def _written(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def test_the_workers_write_every_face_under_its_name_and_nothing_else(tmp_path):
    from pipeline.counters.names import counter_image_names
    from pipeline.counters.render import write_manifests

    units = units_from_text(_rows(150), str(tmp_path / "units.csv"))
    out = tmp_path / "out"
    files = write_manifests(units, None, out, RenderOptions(dpi=100), jobs=2)
    expected = [out / name for u in units for name in counter_image_names(u.id)]
    assert files == [*expected, out / "contact-sheet.png"]
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in files)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary left
    # A one-step unit's back is its front, in both files.
    assert (out / "u7-front.png").read_bytes() == (out / "u7-back.png").read_bytes()
    assert (out / "u8-front.png").read_bytes() != (out / "u8-back.png").read_bytes()


def test_a_worker_failing_leaves_the_old_folder_and_no_temporary(tmp_path):
    import json

    from pipeline.counters.render import write_manifests

    (tmp_path / "bad.svg").write_text("<svg><polygon")
    (tmp_path / "style.json").write_text(json.dumps({"symbols": {"ski": {"file": "bad.svg"}}}))
    out = tmp_path / "out"
    good = units_from_text(_rows(150), str(tmp_path / "units.csv"))
    write_manifests(good, None, out, RenderOptions(dpi=100), jobs=2)
    before = _written(out)
    from pipeline.counters.style import load_style

    style = load_style(tmp_path / "style.json")
    broken = units_from_text(_rows(150, broken=140), str(tmp_path / "units.csv"),
                             unit_types=set(style.symbols))
    with pytest.raises(DataError, match=r"bad\.svg: line 1: not a readable SVG file"):
        write_manifests(broken, None, out, RenderOptions(dpi=100, style=style), jobs=2)
    assert _written(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.svg", "out", "style.json"]


def test_a_unit_and_a_marker_with_one_id_are_refused_before_the_workers_start(tmp_path):
    from pipeline.counters.render import write_manifests

    units = units_from_text("id,side,type\n1,allied,infantry\n", "u.csv")
    markers = markers_from_text("id,kind\n1,other\n", "m.csv")
    with pytest.raises(DataError, match="counters: id '1' is given twice"):
        write_manifests(units, markers, tmp_path / "out", jobs=2)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_render_killed_part_way_leaves_the_old_folder(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    units = tmp_path / "units.csv"
    units.write_text(_rows(1500))
    out = tmp_path / "out"
    command = [sys.executable, "-m", "pipeline.cli", "counters", "render", str(units),
               "--out-dir", str(out), "--dpi", "100", "--jobs", "2", "--quiet"]
    subprocess.run(command, check=True)
    (out / "notes.txt").write_text("kept")
    before = _written(out)
    units.write_text(_rows(1500, movement=5))  # every front changes
    run = subprocess.Popen(command, start_new_session=True)  # the workers in its group
    staged: list[str] = []
    deadline = time.monotonic() + 60
    while not staged and run.poll() is None and time.monotonic() < deadline:
        staged = [name for folder in tmp_path.glob(".out.*.bocage-tmp")
                  for name in os.listdir(folder)]
    os.killpg(run.pid, signal.SIGKILL)  # the command and its workers, mid-way
    run.wait()
    assert staged, "the render ended before any face was staged: make it longer"
    time.sleep(0.2)  # a worker's last write lands in the temporary folder, never in out
    assert _written(out) == before
    subprocess.run(command, check=True)  # the next run clears what the killed one left
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "units.csv"]
    after = _written(out)
    assert after["notes.txt"] == b"kept" and len(after) == 2 * 1500 + 2
    assert all(after[name] != before[name] for name in before if name.endswith("-front.png"))


def test_a_typesetter_kept_over_many_faces_lays_each_out_as_alone():
    from pipeline.counters.render import unit_art
    from pipeline.counters.typeset import Typesetter

    units = [*load_units(DEMO / "units.csv"), *units_from_text(_rows(60), "u.csv")]
    setter = Typesetter(capacity=16)  # small: the store also starts again on the way
    for unit in units:
        for back in (False, True):
            assert unit_art(unit, back=back, typesetter=setter) == unit_art(unit, back=back)
