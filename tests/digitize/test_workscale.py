"""A big JPEG with big hexes is read at half its size, and what it finds is in the scan's pixels.

The reading's positions (the grid, hex centres, the key's boxes) must not depend on the size
a scan was read at: a reading at half size is held to the same scan read whole, hex centre
by hex centre, and its terrain and hexsides to the same answers. A scan whose hexes would be
too small at half size is read whole.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from pipeline.cli.digitize import digitize
from pipeline.digitize import digitize_scan, legend_from_map, load_scan, workscale
from pipeline.digitize.gridfit import GridFit, Projection, hex_units, layout_from_projection
from pipeline.digitize.legend import legend_document
from pipeline.digitize.lens import Bend, Lens
from pipeline.digitize.workscale import MIN_RADIUS, Rescale, big_enough, first_reduction
from pipeline.errors import DataError
from pipeline.hexgrid import HexGrid, Layout, Numbering, Orientation
from pipeline.imagefile import read_rgb, reduced_size
from pipeline.model import MapData, load_map
from pipeline.render import (
    RenderStyle,
    ScanOptions,
    printed_colours,
    render_map,
    sample_map,
    simulate_scan,
)

SCAN = ScanOptions(rotation=1.2, perspective=0.002, light=0.2, yellowing=0.4, blur=1.0, noise=3,
                   margin=20, seed=4)


def _jpeg(path: Path, data: MapData, hex_size: float) -> Path:
    style = RenderStyle(hex_size=hex_size, textured=True, ids=True, seed=3)
    scan = simulate_scan(render_map(data, style).image, SCAN).image
    cv2.imwrite(str(path), cv2.cvtColor(scan, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    return path


@pytest.fixture(scope="module")
def big_hexes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, MapData]:
    """A JPEG whose hexes are 150 px across (87 px centre to corner): big enough halved."""
    data = sample_map("flat", 10, 8, seed=5)
    return _jpeg(tmp_path_factory.mktemp("big") / "scan.jpg", data, 150.0), data


def _legend(data: MapData):
    return legend_from_map(data, colours=printed_colours(data, RenderStyle(textured=True)))


def test_a_jpeg_reads_at_half_its_size_as_its_pixels_averaged(big_hexes):
    path, _ = big_hexes
    whole = read_rgb(path)
    half = read_rgb(path, reduce=2)
    h, w = whole.shape[:2]
    assert half.shape[:2][::-1] == reduced_size(w, h, 2)
    averaged = cv2.resize(whole, (half.shape[1], half.shape[0]), interpolation=cv2.INTER_AREA)
    # The decoder's own reduction is an average over the same pixels, not a subsample.
    assert np.abs(half.astype(int) - averaged.astype(int)).mean() < 2.0


def test_a_png_reads_at_a_quarter_of_its_size_by_area_averaging(tmp_path):
    rng = np.random.default_rng(1)
    pixels = rng.integers(0, 256, (101, 67, 3), np.uint8)
    path = tmp_path / "scan.png"
    cv2.imwrite(str(path), cv2.cvtColor(pixels, cv2.COLOR_RGB2BGR))
    got = read_rgb(path, reduce=4)
    assert got.shape == (26, 17, 3)
    assert np.array_equal(got, cv2.resize(pixels, (17, 26), interpolation=cv2.INTER_AREA))
    with pytest.raises(ValueError, match="reduce must be 1, 2, 4 or 8"):
        read_rgb(path, reduce=3)


def test_a_grid_found_on_the_halved_image_is_the_same_grid_on_the_scan():
    grid = HexGrid(Orientation.FLAT, Numbering(), cols=6, rows=5)
    h = np.array([[40.0, 3.0, 100.0], [-2.0, 46.0, 80.0], [1e-4, 2e-4, 1.0]])
    lens = Lens((300.0, 250.0), 380.0, k1=-0.05, k2=0.01)
    bend = Bend((-2.0, -2.0), 4.0, np.random.default_rng(2).normal(0, 0.7, (5, 5, 2)))
    on_half = GridFit(grid, h, 0.3, 30, "automatic", lens, bend)
    rescale = Rescale(2)
    on_scan = rescale.fit_out(on_half)
    uv = hex_units(grid.hexes(), grid.orientation)
    assert np.allclose(on_scan.to_pixel(uv), rescale.to_scan(on_half.to_pixel(uv)), atol=1e-9)
    assert on_scan.residual == pytest.approx(0.6)
    expected = layout_from_projection(grid, Projection(on_scan.homography, on_scan.lens,
                                                       on_scan.bend))
    assert on_scan.grid.layout == expected


def test_what_the_builder_gives_in_scan_pixels_lands_on_the_same_place_halved():
    rescale = Rescale(2)
    layout = Layout(dx=120.0, dy=138.6, x0=201.0, y0=95.0, rotation=2.0)
    grid = HexGrid(Orientation.FLAT, Numbering(), cols=4, rows=4, layout=layout)
    halved = rescale.grid_in(grid)
    assert halved is not None and halved.layout is not None
    for hx in grid.hexes():
        scan_xy = np.array([grid.layout.center(hx, grid.orientation)])  # type: ignore[union-attr]
        half_xy = np.array([halved.layout.center(hx, halved.orientation)])
        assert np.allclose(rescale.to_scan(half_xy), scan_xy)
    anchors = rescale.anchors_in({"0101": (201.0, 95.0)})
    assert anchors is not None
    assert np.allclose(rescale.to_scan(np.array([anchors["0101"]])), [[201.0, 95.0]])


def test_hexes_under_the_least_radius_are_not_big_enough():
    def fit(width: float) -> GridFit:
        layout = Layout(dx=0.75 * 2 * width / math.sqrt(3), dy=width)
        grid = HexGrid(Orientation.FLAT, Numbering(), cols=2, rows=2, layout=layout)
        return GridFit(grid, np.eye(3), 0.0, 4, "layout")

    least = MIN_RADIUS * math.sqrt(3)
    assert big_enough(fit(least + 0.5)) and not big_enough(fit(least - 0.5))


def test_only_a_big_jpeg_is_guessed_smaller(big_hexes, tmp_path, monkeypatch):
    path, _ = big_hexes
    assert first_reduction(path) == 1  # 4 Mpx: decoded whole in a moment
    monkeypatch.setattr(workscale, "GUESS_FROM", 1_000_000)
    assert first_reduction(path) == 2
    png = tmp_path / "scan.png"
    cv2.imwrite(str(png), cv2.imread(str(path)))
    assert first_reduction(png) == 1  # a PNG decodes no faster smaller


@pytest.mark.slow
def test_a_big_jpeg_read_at_half_size_gives_the_whole_scans_answers(big_hexes, monkeypatch):
    path, data = big_hexes
    legend = _legend(data)
    whole = digitize_scan(load_scan(path), legend)
    monkeypatch.setattr(workscale, "GUESS_FROM", 1_000_000)
    half = digitize_scan(path, legend)
    assert half.working is not None and half.working.rescale.reduce == 2
    assert half.working.pixels.shape[0] == -(-whole.working.pixels.shape[0] // 2)
    apart = np.hypot(*(half.fit.centres() - whole.fit.centres()).T)
    # Hex centres within a tenth of a pixel of the whole scan's (hexes 150 px across).
    assert apart.max() < 0.1
    assert half.map.boards[0].grid.layout.dx == pytest.approx(
        whole.map.boards[0].grid.layout.dx, rel=1e-3)
    same = [half.terrain[h].terrain[0] == whole.terrain[h].terrain[0] for h in whole.terrain]
    assert np.mean(same) >= 0.98
    assert half.hexsides.keys() == whole.hexsides.keys()
    assert half.light.width == whole.light.width and half.light.height == whole.light.height


@pytest.mark.slow
def test_a_jpeg_whose_hexes_would_be_too_small_halved_is_read_whole(tmp_path, monkeypatch):
    data = sample_map("flat", 12, 10, seed=6)
    path = _jpeg(tmp_path / "small.jpg", data, 110.0)  # 64 px centre to corner: 32 halved
    monkeypatch.setattr(workscale, "GUESS_FROM", 1_000_000)
    assert first_reduction(path) == 2
    result = digitize_scan(path, _legend(data))
    assert result.working is not None and result.working.rescale.reduce == 1
    assert result.working.pixels.shape == load_scan(path).shape


@pytest.mark.slow
def test_a_key_box_off_a_halved_scan_is_named_in_the_scans_own_pixels(big_hexes, monkeypatch):
    path, data = big_hexes
    width = load_scan(path).shape[1]
    monkeypatch.setattr(workscale, "GUESS_FROM", 1_000_000)
    box = (width - 50, 10, 80, 60)
    with pytest.raises(DataError, match=rf"the box {width - 50},10,80,60 is not inside the image"
                                        rf" \({width} x \d+ px\)"):
        digitize_scan(path, _legend(data), key={"clear": [box]})


@pytest.mark.slow
def test_the_cli_draws_the_overlay_over_the_pixels_it_read(big_hexes, tmp_path, monkeypatch):
    path, data = big_hexes
    monkeypatch.setattr(workscale, "GUESS_FROM", 1_000_000)
    legend = tmp_path / "legend.json"
    legend.write_text(json.dumps(legend_document(_legend(data))))
    out, picture = tmp_path / "out.json", tmp_path / "overlay.png"
    result = CliRunner().invoke(digitize, [str(path), "-l", str(legend), "-o", str(out),
                                           "--cols", "10", "--rows", "8", "--overlay",
                                           str(picture), "--quiet"], prog_name="bocage digitize")
    assert result.exit_code == 0, result.output
    drawn = cv2.imread(str(picture))
    h, w = load_scan(path).shape[:2]
    assert drawn.shape[:2] == (-(-h // 2), -(-w // 2))
    # map.json's layout is in the scan's own pixels: its first hex sits on the scan's.
    written = load_map(out)
    layout = written.boards[0].grid.layout
    assert layout is not None and 120 < layout.dy < 180
