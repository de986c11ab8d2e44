"""CMYK dot screens: no pixel has the true colour, every patch's mean does."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from pipeline.model import MapData, map_from_data
from pipeline.render import RenderStyle, render_map, sample_map
from pipeline.render.halftone import SCREEN_ANGLES, halftone, separate

HEX = 48.0


def terrain_only(data: MapData) -> MapData:
    raw: dict[str, Any] = data.model_dump(mode="json", exclude_none=True, by_alias=True)
    raw["hexsides"] = []
    return map_from_data(raw, "<terrain only>")


@pytest.fixture(scope="module")
def pair():  # type: ignore[no-untyped-def]
    data = terrain_only(sample_map("flat", 12, 9, seed=5))
    flat = render_map(data, RenderStyle(hex_size=HEX, seed=5))
    screened = render_map(data, RenderStyle(hex_size=HEX, seed=5, halftone=6.0))
    return flat, screened


def interior(image: np.ndarray, centre: tuple[float, float]) -> np.ndarray:
    x, y = round(centre[0]), round(centre[1])
    r = round(0.36 * HEX)
    ys, xs = np.mgrid[-r: r + 1, -r: r + 1]
    return image[y - r: y + r + 1, x - r: x + r + 1][np.hypot(xs, ys) <= r].astype(float)


def test_each_hexs_mean_colour_is_its_fill_and_almost_no_pixel_has_it(pair):
    flat, screened = pair
    grid = flat.grid
    errors, near = [], []
    for h in grid.hexes():
        if len(flat.terrain[h]) > 1:
            continue  # a village disc in the middle
        truth = interior(flat.image, grid.center(h))
        fill = truth.mean(axis=0)
        assert np.abs(truth - fill).max() < 1  # the continuous print is one flat colour
        dots = interior(screened.image, grid.center(h))
        errors.append(np.abs(dots.mean(axis=0) - fill).max())
        near.append((np.abs(dots - fill).max(axis=1) <= 10).mean())
    assert len(errors) > 80
    assert max(errors) < 6.0  # worst hex; the mean error is much smaller
    assert np.mean(errors) < 2.5
    assert max(near) < 0.05  # fewer than one pixel in twenty shows the colour itself


def test_at_one_sample_a_pixel_every_pixel_is_one_of_the_eight_ink_mixtures():
    data = terrain_only(sample_map("flat", 6, 5, seed=1))
    image = render_map(data, RenderStyle(hex_size=40.0, supersample=1, halftone=6.0)).image
    inks = {tuple(255 * np.array(c)) for c in itertools.product((0, 1), repeat=3)}
    assert {tuple(p) for p in image.reshape(-1, 3).tolist()} <= inks


def test_each_screen_is_at_its_classic_angle():
    # A flat 30% of one ink: the strongest peak of the pattern's spectrum lies at its angle.
    for i, (ink, angle) in enumerate(SCREEN_ANGLES.items()):
        rgb = np.ones(3) * 255.0
        if i < 3:
            rgb[i] = 255 * 0.7  # cyan, magenta, yellow take out red, green, blue
        else:
            rgb[:] = 255 * 0.4  # black: 60% grey puts most of it in the black screen
        image = np.full((256, 256, 3), rgb, np.uint8)
        out = halftone(image, 8.0).astype(float)
        channel = out[..., i] if i < 3 else out.mean(axis=2)
        spectrum = np.abs(np.fft.fftshift(np.fft.fft2(channel - channel.mean())))
        spectrum[126:131, 126:131] = 0
        fy, fx = np.unravel_index(np.argmax(spectrum), spectrum.shape)
        found = np.degrees(np.arctan2(fy - 128, fx - 128)) % 90
        assert min(abs(found - angle), 90 - abs(found - angle)) < 4, (ink, found)


def test_separation_inverts_the_inks():
    rgb = np.random.default_rng(0).uniform(0, 1, (500, 3)).astype(np.float32)
    c, m, y, k = np.moveaxis(separate(rgb), -1, 0)
    back = np.stack([(1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)], axis=-1)
    assert np.abs(back - rgb).max() < 1e-5
    light = separate(np.array([[0.95, 0.9, 0.8]], np.float32))
    assert light[0, 3] == 0  # a light tint is printed without black


def test_halftone_is_deterministic_and_refuses_a_tiny_period(pair):
    _, screened = pair
    again = render_map(terrain_only(sample_map("flat", 12, 9, seed=5)),
                       RenderStyle(hex_size=HEX, seed=5, halftone=6.0))
    assert np.array_equal(screened.image, again.image)
    with pytest.raises(ValueError, match="halftone period"):
        RenderStyle(halftone=1.0)
