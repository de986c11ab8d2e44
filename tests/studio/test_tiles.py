"""The deep-zoom pyramid: level sizes, tiles that are the image's pixels, halving by area."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from pipeline.errors import ImageError
from pipeline.studio import Pyramid


@pytest.fixture(scope="module")
def image() -> np.ndarray:
    # Smooth enough for JPEG to keep, varied enough that a tile one pixel off is told apart.
    y, x = np.mgrid[0:701, 0:1203].astype(np.float64)
    waves = [np.sin(x / 9.0 + y / 23.0), np.cos(y / 7.0 - x / 31.0), np.sin((x + y) / 13.0)]
    return np.stack([127.5 + 120 * w for w in waves], axis=-1).astype(np.uint8)


def decode(data: bytes) -> np.ndarray:
    bgr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB).astype(np.float64)


def test_levels_halve_rounding_up_down_to_one_pixel(image):
    pyramid = Pyramid(image)
    assert pyramid.max_level == 11  # 2**11 = 2048 >= 1203
    assert pyramid.level_size(11) == (1203, 701)
    assert pyramid.level_size(10) == (602, 351)
    assert pyramid.level_size(0) == (1, 1)
    assert pyramid.tiles(11) == (5, 3) and pyramid.tiles(9) == (2, 1)
    assert pyramid.describe() == {"width": 1203, "height": 701, "tileSize": 254,
                                  "tileOverlap": 1, "maxLevel": 11, "format": "jpg"}


def test_a_full_size_tile_is_the_image_with_its_overlap(image):
    pyramid = Pyramid(image)
    got = decode(pyramid.tile(11, 2, 1))
    assert got.shape == (256, 256, 3)  # 254 + one pixel each side
    want = image[253:509, 507:763].astype(np.float64)
    off = image[254:510, 508:764].astype(np.float64)
    assert np.abs(got - want).mean() < 2 < np.abs(got - off).mean()
    edge = decode(pyramid.tile(11, 4, 2))  # the last tile: only the overlap before it
    assert edge.shape == (701 - 507, 1203 - 1015, 3)


def blocks(pixels: np.ndarray) -> np.ndarray:
    """The mean of each 2 x 2 block (the last odd row and column left out)."""
    h, w = pixels.shape[0] // 2 * 2, pixels.shape[1] // 2 * 2
    p = pixels[:h, :w].astype(np.float64)
    return (p[0::2, 0::2] + p[1::2, 0::2] + p[0::2, 1::2] + p[1::2, 1::2]) / 4


def test_a_lower_level_is_the_mean_of_each_two_by_two_block(image):
    pyramid = Pyramid(image)
    level = pyramid.level(9)
    assert level.shape == (176, 301, 3)
    half = pyramid.level(10).astype(np.float64)
    assert half.shape == (351, 602, 3)
    # Away from the last odd row and column, a level is its parent's 2 x 2 means.
    assert np.abs(half[:300, :500] - blocks(image)[:300, :500]).max() <= 1.0
    quarter = blocks(half)
    assert np.abs(level[:150, :250] - quarter[:150, :250]).max() <= 1.0
    tile = decode(pyramid.tile(9, 0, 0))
    here = np.abs(tile[:-1, :-1] - level[:175, :254]).mean()
    off = np.abs(tile[:-1, :-1] - level[1:, 1:255]).mean()
    assert here < off / 2


def test_tiles_are_encoded_once(image):
    pyramid = Pyramid(image)
    assert pyramid.tile(10, 1, 0) is pyramid.tile(10, 1, 0)


@pytest.mark.parametrize("level, col, row, message", [
    (12, 0, 0, "no level 12"), (-1, 0, 0, "no level -1"), (11, 5, 0, "no tile 5_0"),
    (0, 0, 1, "no tile 0_1"),
])
def test_tiles_it_does_not_have_are_refused(image, level, col, row, message):
    with pytest.raises(ImageError, match=message):
        Pyramid(image).tile(level, col, row)
