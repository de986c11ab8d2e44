"""A fitted grid with a lens and a bent sheet: exact where the scan is, plain where it is flat."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pipeline.digitize.gridfit import (
    GridFit,
    Projection,
    apply_homography,
    fit_centres,
    fit_projection,
    hex_units,
    robust_projection,
)
from pipeline.digitize.lens import Bend, Lens, fit_lens, lens_for_image
from pipeline.hexgrid import HexGrid, Numbering, Orientation

# A phone photo of a 26 x 18 flat-top sheet, 2600 x 1950 px: tilted (the homography's
# last row), turned, and seen through a barrel lens normalised by the half diagonal.
SHAPE = (1950, 2600)
TILT = np.array([[76.0, -1.5, 190.0], [2.4, 88.0, 120.0], [1.2e-5, 2.9e-5, 1.0]])
BARREL = Lens(*lens_for_image(SHAPE), k1=-0.045)


def _grid(orientation: Orientation = Orientation.FLAT, cols: int = 26, rows: int = 18
          ) -> HexGrid:
    stagger = "even-down" if orientation is Orientation.FLAT else "even-right"
    return HexGrid(orientation, Numbering(stagger=stagger), cols=cols, rows=rows)


def _photo(grid: HexGrid, noise: float = 0.0, seed: int = 0) -> dict[str, tuple[float, float]]:
    """Hex id -> where the photo shows its centre (with measurement noise, in px)."""
    uv = hex_units(grid.hexes(), grid.orientation)
    xy = BARREL.apply(apply_homography(TILT, uv))
    xy = xy + np.random.default_rng(seed).normal(0.0, noise, xy.shape)
    return {grid.id(h): (float(x), float(y)) for h, (x, y) in zip(grid.hexes(), xy,
                                                                    strict=True)}


def _errors(fit: GridFit, truth: dict[str, tuple[float, float]]) -> np.ndarray:
    ids = sorted(truth)
    got = fit.centres([fit.grid.hex(i) for i in ids])
    want = np.array([truth[i] for i in ids])
    return np.hypot(*(got - want).T) / fit.hex_width


def test_a_photographed_sheet_is_fitted_through_its_lens():
    grid = _grid()
    truth = _photo(grid)
    noisy = _photo(grid, noise=0.3)
    fit = fit_centres(grid, noisy, image_shape=SHAPE)
    assert fit.lens is not None and fit.lens.k1 == pytest.approx(-0.045, abs=0.003)
    errors = _errors(fit, truth)
    # A homography alone is off by several per cent of a hex at the corners.
    plain = _errors(fit_centres(grid, noisy, image_shape=SHAPE, distortion=False), truth)
    assert plain.max() > 0.05
    assert errors.mean() < 0.002 and errors.max() < 0.006


def test_to_pixel_centres_and_jacobian_agree_and_include_the_lens():
    grid = _grid()
    fit = fit_centres(grid, _photo(grid), image_shape=SHAPE)
    h = grid.hex("1309")
    uv = hex_units([h], grid.orientation)
    assert np.allclose(fit.centres([h]), fit.to_pixel(uv))
    assert np.allclose(fit.to_pixel(uv), BARREL.apply(apply_homography(TILT, uv)), atol=0.01)
    # The local matrix is the derivative of to_pixel, lens included.
    m = fit.jacobian((float(uv[0, 0]), float(uv[0, 1])))
    step = fit.to_pixel(uv + (0.5, 0.0)) - fit.to_pixel(uv - (0.5, 0.0))
    assert m[:, 0] == pytest.approx(step[0], rel=1e-3)
    # The nearest affine layout is a fair average of the photo's hexes.
    assert 80.0 < fit.hex_width < 100.0


def test_a_flat_scan_gets_no_lens_and_no_bend():
    grid = _grid(Orientation.POINTY, 30, 22)
    uv = hex_units(grid.hexes(), grid.orientation)
    xy = apply_homography(TILT, uv) + np.random.default_rng(1).normal(0.0, 0.3, (len(uv), 2))
    fit = fit_centres(grid, {grid.id(h): (float(x), float(y))
                             for h, (x, y) in zip(grid.hexes(), xy, strict=True)},
                      image_shape=SHAPE)
    assert fit.lens is None and fit.bend is None
    # Exact centres (no noise at all) do not invent a lens out of rounding either.
    exact = apply_homography(TILT, uv)
    p = fit_projection(uv, exact, lens_at=lens_for_image(SHAPE), bend=True)
    assert p.lens is None and p.bend is None


def _creased(uv: np.ndarray) -> np.ndarray:
    """A crease across column 13: the sheet lifts there, up to 4 px."""
    bump = 4.0 * np.exp(-((uv[:, 0] - 13.0) / 2.5) ** 2)
    return np.stack([0.5 * bump * np.sign(uv[:, 0] - 13.0), bump], axis=-1)


def test_a_creased_sheet_gets_a_bend_that_predicts_it():
    grid = _grid()
    uv = hex_units(grid.hexes(), grid.orientation)
    truth = apply_homography(TILT, uv) + _creased(uv)
    noisy = truth + np.random.default_rng(2).normal(0.0, 0.25, truth.shape)
    bent = fit_projection(uv, noisy, lens_at=lens_for_image(SHAPE), bend=True)
    plain = fit_projection(uv, noisy, lens_at=lens_for_image(SHAPE))
    assert bent.bend is not None and plain.bend is None
    err_bent = np.hypot(*(bent.to_pixel(uv) - truth).T)
    err_plain = np.hypot(*(plain.to_pixel(uv) - truth).T)
    assert err_bent.mean() < err_plain.mean() / 3
    assert err_bent.mean() < 0.3


def test_a_moved_projection_names_the_same_pixels():
    grid = _grid()
    uv = hex_units(grid.hexes(), grid.orientation)
    truth = BARREL.apply(apply_homography(TILT, uv)) + _creased(uv)
    p = fit_projection(uv, truth, lens_at=lens_for_image(SHAPE), bend=True)
    assert p.lens is not None and p.bend is not None
    moved = p.moved(3.0, 1.5)
    assert np.allclose(moved.to_pixel(uv - (3.0, 1.5)), p.to_pixel(uv))


def test_stray_centres_are_left_out_of_a_lens_fit():
    grid = _grid()
    uv = hex_units(grid.hexes(), grid.orientation)
    xy = BARREL.apply(apply_homography(TILT, uv))
    wrong = xy.copy()
    wrong[[5, 90, 200]] += 60.0  # three hexes measured on a neighbour
    p, kept = robust_projection(uv, wrong, floor=1.0, lens_at=lens_for_image(SHAPE))
    assert not kept[[5, 90, 200]].any() and kept.sum() == len(uv) - 3
    assert p.lens is not None
    assert np.abs(p.to_pixel(uv) - xy).max() < 0.05


def test_lens_and_bend_basics():
    lens = Lens((50.0, 40.0), 64.0, k1=-0.08, k2=0.01)
    pts = np.array([[0.0, 0.0], [100.0, 80.0], [50.0, 40.0], [90.0, 10.0]])
    assert np.allclose(lens.undo(lens.apply(pts)), pts, atol=1e-9)
    assert lens.apply(pts[2:3]).tolist() == [[50.0, 40.0]]  # the centre stays put
    # Barrel: points move towards the centre.
    assert math.hypot(*(lens.apply(pts[1:2])[0] - (50, 40))) < math.hypot(50, 40)
    flat = Bend((-4.0, -4.0), 4.0, np.zeros((5, 6, 2)))
    assert np.array_equal(flat.offset(pts / 10), np.zeros((4, 2)))
    assert flat.largest() == 0.0


def test_fit_lens_recovers_a_pincushion_too():
    grid = _grid(Orientation.POINTY, 20, 16)
    uv = hex_units(grid.hexes(), grid.orientation)
    truth = Lens((1300.0, 975.0), 1600.0, k1=0.03, k2=-0.01)
    h = np.array([[90.0, 0.0, 300.0], [0.0, 78.0, 200.0], [0.0, 0.0, 1.0]])
    xy = truth.apply(apply_homography(h, uv))
    _, lens = fit_lens(uv, xy, h, truth.centre, truth.norm)
    assert (lens.k1, lens.k2) == pytest.approx((0.03, -0.01), abs=1e-5)


def test_a_plain_projection_is_the_homography():
    h = np.array([[30.0, 2.0, 100.0], [-1.5, 35.0, 80.0], [1e-4, -2e-4, 1.0]])
    uv = np.array([[0.0, 0.0], [3.0, 4.5]])
    assert np.array_equal(Projection(h).to_pixel(uv), apply_homography(h, uv))
