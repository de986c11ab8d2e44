"""The scanner simulator: seeded, geometrically exact, and doing what each effect says."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.render import RenderStyle, ScanOptions, render_map, sample_map, simulate_scan


@pytest.fixture(scope="module")
def picture():  # type: ignore[no-untyped-def]
    return render_map(sample_map("flat", 10, 8, seed=1), RenderStyle(hex_size=40.0))


def test_same_seed_same_scan_other_seed_other_noise(picture):
    options = ScanOptions(rotation=1.5, perspective=0.004, light=0.2, yellowing=0.5, crease=0.3,
                          blur=0.8, noise=4.0, jpeg_quality=80, seed=7)
    a = simulate_scan(picture.image, options)
    b = simulate_scan(picture.image, options)
    assert np.array_equal(a.image, b.image) and np.array_equal(a.homography, b.homography)
    c = simulate_scan(picture.image, ScanOptions(noise=4.0, seed=8))
    d = simulate_scan(picture.image, ScanOptions(noise=4.0, seed=9))
    assert not np.array_equal(c.image, d.image)


def test_homography_says_where_each_hex_centre_landed(picture):
    scan = simulate_scan(picture.image, ScanOptions(rotation=3.0, stretch=(1.01, 0.99),
                                                    perspective=0.005, seed=2))
    grid = picture.grid
    checked = 0
    for h in grid.hexes():
        x, y = (round(v) for v in grid.center(h))
        patch = picture.image[y - 3: y + 4, x - 3: x + 4].astype(int)
        if np.abs(patch - patch[3, 3]).max() > 0:
            continue  # a road or a symbol's edge is near the centre
        sx, sy = scan.to_scan(np.array([float(x)]), np.array([float(y)]))
        got = scan.image[round(sy[0]), round(sx[0])].astype(int)
        assert np.abs(got - patch[3, 3]).max() <= 2, grid.id(h)
        checked += 1
    assert checked > 40


def test_rotation_by_a_right_angle_swaps_width_and_height():
    image = np.full((40, 60, 3), 255, np.uint8)
    scan = simulate_scan(image, ScanOptions(rotation=90.0, margin=0))
    assert scan.image.shape == (60, 40, 3)


def test_yellowing_and_light_darken_blue_most(picture):
    plain = simulate_scan(picture.image, ScanOptions(margin=0)).image
    aged = simulate_scan(picture.image, ScanOptions(margin=0, yellowing=1.0)).image
    corner = (slice(0, 10), slice(0, 10))  # blank paper
    r, g, b = (aged[corner].astype(float).mean(axis=(0, 1)) /
               plain[corner].astype(float).mean(axis=(0, 1)))
    assert r > 0.99 and b < 0.85 and b < g
    dim = simulate_scan(picture.image, ScanOptions(margin=0, light=0.3, seed=1)).image
    assert dim.astype(float).mean() < plain.astype(float).mean() * 0.95


def test_a_crease_casts_a_narrow_shadow():
    image = np.full((300, 300, 3), 255, np.uint8)
    scan = simulate_scan(image, ScanOptions(margin=0, crease=0.5, seed=3)).image
    darkest = scan.min(axis=2)
    assert darkest.min() < 160  # the fold
    assert (darkest > 250).mean() > 0.8  # the rest of the page


def test_jpeg_is_lossy_but_close(picture):
    lossless = simulate_scan(picture.image, ScanOptions(margin=0)).image
    jpeg = simulate_scan(picture.image, ScanOptions(margin=0, jpeg_quality=80)).image
    diff = np.abs(lossless.astype(int) - jpeg.astype(int))
    assert diff.max() > 0 and diff.mean() < 4
