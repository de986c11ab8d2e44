"""pipeline/digitize/printedkey.py: ``--key auto`` finds the printed key's swatches by name.

The labels are read by the Tesseract OCR program: without it these tests skip, naming
it, and fail when ``CI=true`` (``.ci/run`` installs it).
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache

import numpy as np
import pytest
from click.testing import CliRunner

from pipeline.cli.digitize import digitize as digitize_cli
from pipeline.digitize import calibrate, digitize_scan, legend_from_data, load_scan
from pipeline.digitize.gridfile import grid_from_data
from pipeline.digitize.printedkey import KeySwatch, find_key
from pipeline.errors import BocageError
from pipeline.render.styles import sample_sheet
from tests.digitize.test_foreign import _folder, bench
from tests.needs import program


@pytest.fixture(autouse=True)
def _tesseract() -> None:
    program("tesseract", "tesseract-ocr")


@cache
def _keybox_sheet():  # type: ignore[no-untyped-def]
    """bocage's own sample sheet with a terrain key, printed and scanned."""
    sheet = sample_sheet("keybox", 0)
    rendered, scan = sheet.make()
    return sheet, rendered, scan


def _terrain(rendered) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(rendered.key)


@pytest.mark.slow
def test_every_swatch_of_a_printed_key_is_found_by_its_label():
    _, rendered, scan = _keybox_sheet()
    fit = calibrate(scan.image, spec=dataclasses.replace(rendered.grid, layout=None))
    warned: list[str] = []
    found = {k.terrain: k for k in find_key(scan.image, fit, [*_terrain(rendered), "orchard"],
                                             source="sheet.png", warn=warned.append)}
    # A terrain the key does not show is the one line of warning, naming it.
    assert set(found) == set(rendered.key)
    assert [w.split(": ")[2] for w in warned] == ["orchard"]
    assert "give it with --key orchard=X,Y,W,H or --sample orchard=HEX" in warned[0]
    for name, (x, y, w, h) in rendered.key.items():
        # The printed swatch's box, carried into the scan; the found box's centre lies in
        # its middle third, and the found box is about the swatch's size.
        sx, sy = scan.to_scan(np.array([x + w / 2]), np.array([y + h / 2]))
        fx, fy, fw, fh = found[name].box
        assert abs(fx + fw / 2 - float(sx[0])) < w / 6, name
        assert abs(fy + fh / 2 - float(sy[0])) < h / 6, name
        assert 0.4 * w < fw < 1.2 * w, name
        assert found[name].label.lower().startswith(name[:3])


def test_a_sheet_without_a_key_says_so_in_one_line_and_finds_nothing():
    sheet = sample_sheet("stipple", 0)  # printed edge to edge: no key, no panel
    rendered, scan = sheet.make()
    fit = calibrate(scan.image, spec=dataclasses.replace(rendered.grid, layout=None))
    names = sorted(sheet.data.terrain_types)
    warned: list[str] = []
    assert find_key(scan.image, fit, names, source="sheet.png", warn=warned.append) == []
    # Not one mark of a swatch's size beside the field: one line says so, not one a terrain.
    assert len(warned) == 1 and warned[0].startswith("sheet.png: --key auto: no mark of a")
    assert "is there a printed key on this sheet?" in warned[0]


def test_the_option_of_a_swatch_is_the_key_option_that_gives_it():
    swatch = KeySwatch("woods", (1815.0, 291.5, 59.0, 48.0), "Woods", (1897, 309, 52, 12))
    assert swatch.option() == "woods=1815,291.5,59,48"


@pytest.mark.slow
def test_key_auto_alone_reads_the_foreign_keybox_map():
    # The keybox map of the foreign bench (a key, a title block and a turn track inside the
    # image), with no sample hex: the key's seven swatches teach the whole reading.
    folder = _folder()
    setup = bench().load_setup()["keybox"]
    truth = json.loads((folder / "keybox" / "truth.json").read_text())
    legend = legend_from_data(setup["legend"], "keybox legend")
    pixels = load_scan(folder / "keybox" / "map.png")
    result = digitize_scan(pixels, legend, grid=grid_from_data(setup["grid"], "keybox grid"),
                           key_auto=True)
    assert sorted(k.terrain for k in result.key) == sorted(setup["legend"]["terrain"])
    read = {result.fit.grid.id(h): t.terrain[0] for h, t in result.terrain.items()}
    right = sum(read.get(i) == h["terrain"] for i, h in truth["hexes"].items())
    assert right / len(truth["hexes"]) >= 0.98, right


def test_without_tesseract_key_auto_is_one_clear_line(tmp_path, monkeypatch):
    _, rendered, scan = _keybox_sheet()
    fit = calibrate(scan.image, spec=dataclasses.replace(rendered.grid, layout=None))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BocageError, match="Tesseract OCR program, which is not installed"):
        find_key(scan.image, fit, ["woods"])
    legend = tmp_path / "legend.json"
    legend.write_text(json.dumps({"kind": "legend", "terrain": {"clear": None, "woods": None}}))
    image = tmp_path / "sheet.png"
    import cv2

    cv2.imwrite(str(image), cv2.cvtColor(scan.image, cv2.COLOR_RGB2BGR))
    out = tmp_path / "map.json"
    got = CliRunner().invoke(digitize_cli, [str(image), "-l", str(legend), "-o", str(out),
                                            "--cols", "16", "--rows", "12", "--key", "auto"])
    assert got.exit_code == 2, got.output
    lines = got.output.strip().splitlines()
    assert len(lines) == 1 and "apt-get install tesseract-ocr" in lines[0]
    assert not out.exists()


@pytest.mark.slow
def test_key_auto_on_a_big_jpeg_read_at_half_size(tmp_path):
    # The same map enlarged 2.2 times and saved as a 17-Mpx JPEG (hexes of 88 px from centre
    # to corner, as a 300-dpi scan of a big map has): it is read at half size, the key's
    # labels still on the scan as it is, and every box is in the scan's own pixels.
    import cv2

    folder = _folder()
    setup = bench().load_setup()["keybox"]
    truth = json.loads((folder / "keybox" / "truth.json").read_text())
    legend = legend_from_data(setup["legend"], "keybox legend")
    small = cv2.imread(str(folder / "keybox" / "map.png"))
    big = cv2.resize(small, None, fx=2.2, fy=2.2, interpolation=cv2.INTER_CUBIC)
    path = tmp_path / "big.jpg"
    cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 90])
    result = digitize_scan(path, legend, grid=grid_from_data(setup["grid"], "keybox grid"),
                           key_auto=True)
    assert result.working is not None and result.working.rescale.reduce == 2
    assert sorted(k.terrain for k in result.key) == sorted(setup["legend"]["terrain"])
    height, width = big.shape[:2]
    for swatch in result.key:
        x, y, w, h = swatch.box
        assert 0 <= x and x + w <= width and 0 <= y and y + h <= height, swatch
        assert 0.5 * 2.2 * 40 < w < 2.5 * 2.2 * 40, swatch  # about a hex at the scan's scale
    read = {result.fit.grid.id(h): t.terrain[0] for h, t in result.terrain.items()}
    right = sum(read.get(i) == h["terrain"] for i, h in truth["hexes"].items())
    assert right / len(truth["hexes"]) >= 0.98, right
    # The grid in the scan's pixels: the truth's centres, enlarged, within 1% of a hex.
    centres = np.array([truth["centers_px"][i] for i in truth["hexes"]]) * 2.2 + 0.6
    got = result.fit.centres([result.fit.grid.hex(i) for i in truth["hexes"]])
    width_px = result.fit.hex_width
    assert np.hypot(*(got - centres).T).mean() < 0.01 * width_px
