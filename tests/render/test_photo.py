"""The phone photo: exact paper -> image mapping through a tilted pinhole and a barrel lens."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from pipeline.model import map_from_data
from pipeline.render import RenderStyle, Scan, render_map, sample_map
from pipeline.render.photo import PhotoOptions, simulate_photo

HEX = 48.0
# Geometry only: no light effects, noise or JPEG to move the ink.
GEOMETRY = PhotoOptions(folds=(0, 0), light=0, shadow=0, glare=0, vignette=0, noise=0,
                        blur=0.5, jpeg_quality=None, seed=4)


@pytest.fixture(scope="module")
def grid_sheet():  # type: ignore[no-untyped-def]
    """All-clear hexes with a black grid: the only ink on the paper is the grid."""
    raw: dict[str, Any] = sample_map("flat", 16, 11, seed=1).model_dump(
        mode="json", exclude_none=True, by_alias=True)
    raw["hexes"], raw["hexsides"] = {}, []
    picture = render_map(map_from_data(raw, "<grid only>"),
                         RenderStyle(hex_size=HEX, grid_width=0.05, paper="#f4f1e6"))
    return picture, simulate_photo(picture.image, GEOMETRY)


def inner_vertices(picture) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Corners shared by three hexes of the map: where three grid lines meet."""
    grid = picture.grid
    count: dict[tuple[float, float], int] = {}
    for h in grid.hexes():
        for x, y in grid.corners(h):
            key = (round(x, 3), round(y, 3))
            count[key] = count.get(key, 0) + 1
    return np.array([k for k, n in count.items() if n == 3])


def ink_centroid(image: np.ndarray, x: float, y: float, radius: float) -> tuple[float, float]:
    r = math.ceil(radius) + 1
    x0, y0 = round(x) - r, round(y) - r
    patch = image[y0: y0 + 2 * r + 1, x0: x0 + 2 * r + 1].astype(float).mean(axis=2)
    ys, xs = np.mgrid[y0: y0 + 2 * r + 1, x0: x0 + 2 * r + 1]
    weight = np.clip(np.percentile(patch, 90) - patch, 0, None)
    weight *= np.hypot(xs - x, ys - y) <= radius
    return float((weight * xs).sum() / weight.sum()), float((weight * ys).sum() / weight.sum())


def test_every_grid_vertex_lands_where_the_scan_says(grid_sheet):
    picture, photo = grid_sheet
    vertices = inner_vertices(picture)
    assert len(vertices) > 250
    px, py = photo.to_scan(vertices[:, 0], vertices[:, 1])
    # The three arms of a vertex are symmetric: their ink centroid is the vertex itself, as
    # far as the drawing puts its lines (measured on the clean picture too, as a baseline).
    radius = 0.22 * HEX
    clean = [math.dist(ink_centroid(picture.image, x, y, radius), (x, y)) for x, y in vertices]
    errors = [math.dist(ink_centroid(photo.image, float(x), float(y), radius), (x, y))
              for x, y in zip(px, py, strict=True)]
    assert np.mean(errors) < np.mean(clean) + 0.06 and max(errors) < max(clean) + 0.2
    assert np.mean(errors) < 0.25 and max(errors) < 0.6  # pixels, on a 46 px hex
    lens_free = Scan(photo.image, photo.homography)
    qx, qy = lens_free.to_scan(vertices[:, 0], vertices[:, 1])
    assert np.hypot(qx - px, qy - py).max() > 5  # the lens moved outer vertices this far


def test_paper_to_image_and_back_is_exact(grid_sheet):
    _, photo = grid_sheet
    rng = np.random.default_rng(0)
    x, y = rng.uniform(0, 900, 500), rng.uniform(0, 600, 500)
    u, v = photo.to_scan(x, y)
    bx, by = photo.to_paper(u, v)
    assert np.abs(bx - x).max() < 1e-6 and np.abs(by - y).max() < 1e-6


def test_the_sheet_is_tilted_and_lies_on_a_table(grid_sheet):
    picture, photo = grid_sheet
    height, width = picture.image.shape[:2]
    corners = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], float)
    u, v = photo.to_scan(corners[:, 0], corners[:, 1])
    top, bottom = math.hypot(u[1] - u[0], v[1] - v[0]), math.hypot(u[2] - u[3], v[2] - v[3])
    left, right = math.hypot(u[3] - u[0], v[3] - v[0]), math.hypot(u[2] - u[1], v[2] - v[1])
    assert abs(top / bottom - 1) > 0.03 and abs(left / right - 1) > 0.01  # a trapezoid
    image = photo.image.astype(int)
    border = np.concatenate([image[:8].reshape(-1, 3), image[-8:].reshape(-1, 3)])
    r, g, b = border.mean(axis=0)
    assert r > g > b and 40 < border.mean() < 160  # brown wood all round
    x, y = photo.to_scan(np.array([width / 2]), np.array([height / 2]))
    middle = image[round(y[0]) - 8: round(y[0]) + 9, round(x[0]) - 8: round(x[0]) + 9]
    assert np.median(middle) > 200  # the paper in the middle


def test_each_effect_does_what_it_says():
    sheet = np.full((300, 400, 3), 235, np.uint8)
    base = PhotoOptions(folds=(0, 0), light=0, shadow=0, glare=0, vignette=0, noise=0,
                        blur=0, jpeg_quality=None, seed=2)
    plain = simulate_photo(sheet, base)
    inside = _paper_mask(plain, sheet.shape, 3)
    outside = ~_paper_mask(plain, sheet.shape, -3)

    def ratio(**change: Any) -> np.ndarray:
        import dataclasses

        other = simulate_photo(sheet, dataclasses.replace(base, **change))
        return other.image.astype(float).mean(axis=2) / np.maximum(
            plain.image.astype(float).mean(axis=2), 1)

    folds = ratio(folds=(1, 1), fold_depth=0.3)[inside]
    assert folds.min() < 0.75 and (folds < 0.95).mean() < 0.08 and folds.max() > 1.05
    glare = ratio(glare=0.6)
    assert glare[inside].max() > 1.04 and np.abs(glare[outside] - 1).max() < 0.01
    vignette = ratio(vignette=0.4)
    h, w = vignette.shape
    assert vignette[h // 2, w // 2] > 0.99 and vignette[2, 2] < 0.8
    noisy = simulate_photo(sheet, base.__class__(**{**base.__dict__, "noise": 4.0}))
    assert np.std(noisy.image.astype(float) - plain.image) == pytest.approx(4.0, rel=0.1)


def _paper_mask(photo: Scan, shape: tuple[int, ...], inset: float) -> np.ndarray:
    """Image pixels that show the sheet, ``inset`` paper pixels inside its edges."""
    height, width = photo.image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width]
    px, py = photo.to_paper(xs.astype(float), ys.astype(float))
    return ((px > inset) & (px < shape[1] - 1 - inset) & (py > inset)
            & (py < shape[0] - 1 - inset))


def test_photos_are_deterministic():
    sheet = np.full((120, 160, 3), 230, np.uint8)
    a, b = simulate_photo(sheet, PhotoOptions(seed=5)), simulate_photo(sheet, PhotoOptions(seed=5))
    assert np.array_equal(a.image, b.image) and np.array_equal(a.homography, b.homography)
    assert not np.array_equal(a.image, simulate_photo(sheet, PhotoOptions(seed=6)).image)
