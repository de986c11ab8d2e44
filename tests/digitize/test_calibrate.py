"""Grid calibration: anchors, given layouts, the automatic search, and what it refuses."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pipeline.digitize import calibrate, fit_anchors
from pipeline.digitize.calibrate import _middle_lattice
from pipeline.digitize.gridfile import grid_from_data, grid_from_spec
from pipeline.digitize.gridfit import apply_homography, fit_homography, hex_units, robust_homography
from pipeline.digitize.ink import Pyramid, gray, ink_map
from pipeline.digitize.lattice import find_lattice, find_printed_lattice
from pipeline.errors import DataError, GridError, ImageError
from pipeline.hexgrid import Hex, HexGrid, Layout, Numbering, Orientation
from pipeline.model import MapData
from pipeline.render import RenderStyle, ScanOptions, render_map, sample_map, simulate_scan

from .conftest import RoundTrip


@pytest.fixture(scope="module")
def stretched(demo: MapData):  # type: ignore[no-untyped-def]
    """The demo scanned turned 1.5 degrees and 1% wider, with slight perspective."""
    rendered = render_map(demo, RenderStyle(hex_size=48.0))
    scan = simulate_scan(rendered.image, ScanOptions(rotation=1.5, stretch=(1.01, 1.0),
                                                     perspective=0.002, blur=0.8, noise=3.0,
                                                     jpeg_quality=80, seed=2))
    return rendered, scan


def _clicked(rendered, scan, ids, jitter=2.0, seed=0):  # type: ignore[no-untyped-def]
    """Where a person clicks the centres of ``ids``: within ``jitter`` px of the truth."""
    rng = np.random.default_rng(seed)
    out = {}
    for i in ids:
        x, y = rendered.grid.center(rendered.grid.hex(i))
        sx, sy = scan.to_scan(np.array([x]), np.array([y]))
        out[i] = (float(sx[0]) + rng.uniform(-jitter, jitter),
                  float(sy[0]) + rng.uniform(-jitter, jitter))
    return out


def _errors(fit, rendered, scan):  # type: ignore[no-untyped-def]
    grid = rendered.grid
    truth = np.array([grid.center(h) for h in grid.hexes()])
    tx, ty = scan.to_scan(truth[:, 0], truth[:, 1])
    got = fit.centres([fit.grid.hex(grid.id(h)) for h in grid.hexes()])
    return np.hypot(got[:, 0] - tx, got[:, 1] - ty) / 48.0


@pytest.mark.parametrize("ids", [("0101", "2522"), ("0101", "2501", "0122"),
                                 ("0101", "2501", "0122", "2522")])
def test_anchors_fit_a_turned_stretched_scan(demo, stretched, ids):
    rendered, scan = stretched
    spec = grid_from_spec(demo.boards[0].grid)
    fit = calibrate(scan.image, spec=spec, anchors=_clicked(rendered, scan, ids))
    errors = _errors(fit, rendered, scan)
    assert fit.method == "anchors + refined"
    assert errors.mean() <= 0.01 and errors.max() <= 0.03


def test_anchors_alone_fit_to_their_own_accuracy(demo, stretched):
    rendered, scan = stretched
    grid = grid_from_spec(demo.boards[0].grid)
    anchors = _clicked(rendered, scan, ("0101", "2501", "0122", "2522"), jitter=0.0)
    matrix, rms = fit_anchors(grid, anchors)
    # Four exact anchors through a slightly perspective scan: an affine fit within a pixel.
    assert rms < 1.5
    assert math.hypot(matrix[0, 0], matrix[1, 0]) == pytest.approx(48 * math.sqrt(3) / 2 * 1.01,
                                                                   rel=0.01)


def test_anchors_without_a_grid_file_find_the_map_extent(stretched):
    rendered, scan = stretched
    fit = calibrate(scan.image, anchors=_clicked(rendered, scan, ("0101", "2501", "0122")))
    assert (fit.grid.cols, fit.grid.rows) == (25, 22)
    assert _errors(fit, rendered, scan).max() <= 0.03


@pytest.mark.parametrize(("anchors", "message"), [
    ({"0101": (60.0, 60.0), "0501": (60.0, 60.0)}, "the same pixel"),
    ({"0101": (60.0, 60.0), "0101 ": (100.0, 60.0)}, "not a hex id"),
    ({"0101": (60.0, 60.0)}, "at least two anchors"),
    ({"0101": (60.0, 60.0), "0501": (220.0, 60.0), "0901": (380.0, 60.0)}, "one line"),
    # 0122 clicked where 2501 is and the other way round: a mirrored grid.
    ({"0101": (60.0, 60.0), "2501": (60.0, 1050.0), "0122": (1000.0, 60.0)}, "mirrored"),
    # Hexes twice as tall as they are wide.
    ({"0101": (60.0, 60.0), "1101": (475.0, 60.0), "0111": (60.0, 1020.0)}, "as tall as wide"),
])
def test_contradicting_anchors_are_refused_with_the_reason(demo, anchors, message):
    grid = grid_from_spec(demo.boards[0].grid)
    with pytest.raises(GridError, match=message) as info:
        fit_anchors(grid, anchors)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("wrong", ["0101", "2501", "0122", "2522"])
def test_one_wrong_anchor_among_four_is_named(demo, stretched, wrong):
    # At the four corners every anchor is as far from where the other three put it: the
    # wrong one is told by the squashed, sheared grid any three including it describe.
    rendered, scan = stretched
    grid = grid_from_spec(demo.boards[0].grid)
    anchors = _clicked(rendered, scan, ("0101", "2501", "0122", "2522"))
    anchors[wrong] = anchors[wrong][0] - 150.0, anchors[wrong][1]  # clicked 3 hexes off
    with pytest.raises(GridError, match=rf"anchor {wrong} is .* from where the others put it"):
        fit_anchors(grid, anchors)


def test_a_given_layout_is_refined_on_the_image(demo, stretched):
    rendered, scan = stretched
    spec = demo.boards[0].grid.model_dump()
    # A layout from the clean picture: the scan turned and stretched it.
    layout = rendered.grid.layout
    assert layout is not None
    spec["layout"] = {"dx": layout.dx, "dy": layout.dy, "x0": layout.x0, "y0": layout.y0}
    fit = calibrate(scan.image, spec=grid_from_data(spec))
    assert fit.method == "layout + refined"
    assert _errors(fit, rendered, scan).max() <= 0.03


@pytest.mark.slow
def test_the_grid_file_must_match_what_the_scan_shows(demo_scanned: RoundTrip, demo):
    spec = demo.boards[0].grid.model_dump() | {"cols": 24}
    with pytest.raises(GridError, match=r"found 550 hexes in 25 columns x 22 rows on the scan,"
                                        r" but the grid file says 24 x 22"):
        calibrate(demo_scanned.scan.image, spec=grid_from_data(spec))
    stagger = demo.boards[0].grid.model_dump()
    stagger["numbering"]["stagger"] = "odd-down"
    with pytest.raises(GridError, match="try stagger 'even-down'"):
        calibrate(demo_scanned.scan.image, spec=grid_from_data(stagger))


@pytest.mark.slow
def test_pointy_orientation_in_the_grid_file_must_match(demo_scanned: RoundTrip):
    spec = {"orientation": "pointy", "numbering": {"stagger": "even-right"}, "cols": 25,
            "rows": 22}
    with pytest.raises(GridError, match="shows a flat-top grid"):
        calibrate(demo_scanned.scan.image, spec=grid_from_data(spec))


def test_images_without_a_readable_grid_are_refused():
    with pytest.raises(ImageError, match=r"image is 50 x 40 px, too small"):
        calibrate(np.full((40, 50, 3), 255, np.uint8), source="tiny.png")
    with pytest.raises(GridError, match="no hex grid found"):
        calibrate(np.full((300, 400, 3), 230, np.uint8))
    noise = np.random.default_rng(0).integers(0, 255, (300, 400, 3), dtype=np.uint8)
    with pytest.raises(GridError):
        calibrate(noise)


def test_a_grid_file_that_is_not_a_grid_is_a_data_error():
    with pytest.raises(DataError, match="cols"):
        grid_from_data({"orientation": "flat", "numbering": {"stagger": "even-down"}})
    with pytest.raises(DataError, match="expected a grid object or a map"):
        grid_from_data({"kind": "rules"})


@pytest.mark.slow
def test_small_hexes_on_a_big_scan_are_found_in_the_middle():
    sample = sample_map("flat", 40, 60, seed=3)
    image = render_map(sample, RenderStyle(hex_size=26.0, supersample=1)).image
    assert max(image.shape) > 1500  # reduced to 1,024 px the hexes would be 17 px
    fit = calibrate(image)
    assert (fit.grid.cols, fit.grid.rows) == (40, 60)
    assert fit.hex_width == pytest.approx(26.0, rel=0.002)


def test_big_hexes_in_the_middle_are_looked_at_halved():
    # A big scan whose whole view makes its hexes too small to trust looks again at its
    # middle: halved when the hexes are big, which must find the same lattice.
    rendered = render_map(sample_map("flat", 16, 14, seed=4), RenderStyle(hex_size=70.0,
                                                                          supersample=1))
    luma = Pyramid(rendered.image)
    halved = _middle_lattice(luma, 70.0 * math.sqrt(3) / 2)
    full = _middle_lattice(luma, 0.0)
    layout = rendered.grid.layout
    assert layout is not None
    for lattice in (halved, full):
        orientation, matrix = lattice.orientation, lattice.affine()
        assert orientation is Orientation.FLAT and not lattice.light
        assert matrix[:2, :2] == pytest.approx(np.reshape(layout.matrix, (2, 2)), abs=0.3)
        # The origin is a hex centre of the printed grid.
        uv = np.linalg.solve(matrix[:2, :2], matrix[:2, 2] - (layout.x0, layout.y0))
        q, r = uv[0], uv[1] - uv[0] / 2
        assert abs(q - round(q)) < 0.05 and abs(r - round(r)) < 0.05


def test_a_colour_pyramid_halves_as_its_luma_does():
    image = np.random.default_rng(0).integers(0, 256, (301, 203, 3), dtype=np.uint8)
    colour, luma = Pyramid(image), Pyramid(gray(image))
    for k in (1, 2, 3):
        assert np.array_equal(colour.level(k), luma.level(k))
    assert np.array_equal(colour.window(100, 50, 64), luma.window(100, 50, 64))
    # Halved twice (the odd last row and column left out), then shrunk by 1.25.
    small, scale = colour.reduced(5.0)
    assert small.shape == (60, 40) and (scale.fx, scale.fy) == (5.0, 5.0)


def test_lattice_orientation_and_pitches():
    for orientation, words in (("flat", Orientation.FLAT), ("pointy", Orientation.POINTY)):
        image = render_map(sample_map(orientation, 16, 14, seed=1),
                           RenderStyle(hex_size=40.0)).image
        lattice = find_lattice(ink_map(gray(image), 7))
        assert lattice.orientation is words
        widths = np.hypot(*lattice.matrix.T)
        want = (40 * math.sqrt(3) / 2, 40.0) if orientation == "flat" else (40.0, 40 * math.sqrt(
            3) / 2)
        assert widths == pytest.approx(want, rel=0.01)


def test_homography_fits_are_exact_and_robust():
    h = np.array([[30.0, 2.0, 100.0], [-1.5, 35.0, 80.0], [1e-4, -2e-4, 1.0]])
    grid = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=10, rows=10,
                   layout=Layout(dx=30.0, dy=35.0))
    uv = hex_units(grid.hexes(), Orientation.FLAT)
    xy = apply_homography(h, uv)
    assert np.allclose(fit_homography(uv, xy), h, rtol=1e-6, atol=1e-8)
    xy[7] += 25.0  # one hex measured on its neighbour
    fitted, kept = robust_homography(uv, xy, floor=1.0)
    assert not kept[7] and kept.sum() == len(uv) - 1
    assert np.abs(apply_homography(fitted, uv[kept]) - xy[kept]).max() < 1e-6
    assert hex_units([Hex(2, 1)], Orientation.POINTY).tolist() == [[2.5, 1.0]]


def test_an_anchor_off_the_map_is_named(demo, stretched):
    rendered, scan = stretched
    anchors = _clicked(rendered, scan, ("0101", "2501")) | {"3001": (10.0, 10.0)}
    with pytest.raises(GridError, match=r"anchor 3001 is not on the map \(25 columns x 22 rows"):
        calibrate(scan.image, spec=grid_from_spec(demo.boards[0].grid), anchors=anchors)


def test_the_lattice_is_found_in_dark_or_light_strokes_and_through_a_screen():
    palette = {"clear": "#8c9a3a", "woods": "#2f5d2a", "rough": "#8a5a2b", "marsh": "#3f7f7a",
               "water": "#2d5f9e", "town": "#9e3b32"}
    sample = sample_map("flat", 16, 14, seed=1)
    dark = render_map(sample, RenderStyle(hex_size=40.0, textured=True)).image
    white = render_map(sample, RenderStyle(hex_size=40.0, grid_color="#f6f6f0",
                                           grid_width=0.05, palette=palette)).image
    # A halftone screen: dark dots every 5 px over everything, as an offset print shows.
    screened = dark.copy()
    screened[::5, ::5] = (screened[::5, ::5] * 0.3).astype(np.uint8)
    screened[2::5, 2::5] = (screened[2::5, 2::5] * 0.3).astype(np.uint8)
    want = (40 * math.sqrt(3) / 2, 40.0)
    for image, light in ((dark, False), (white, True), (screened, False)):
        lattice = find_printed_lattice(gray(image))
        assert lattice.orientation is Orientation.FLAT and lattice.light is light
        assert np.hypot(*lattice.matrix.T) == pytest.approx(want, rel=0.01)
        assert lattice.strength > 0.7  # the folded ink is a hex outline
