"""Reading scan files: every format into RGB, and truncated or broken files refused."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image

from pipeline.digitize import load_scan
from pipeline.errors import ImageError


@pytest.fixture(scope="module")
def pixels() -> np.ndarray:
    rng = np.random.default_rng(0)
    return rng.integers(0, 256, (60, 80, 3), dtype=np.uint8)


@pytest.mark.parametrize("suffix", [".png", ".tif", ".bmp"])
def test_lossless_files_read_back_exactly_as_rgb(tmp_path, pixels, suffix):
    path = tmp_path / f"scan{suffix}"
    Image.fromarray(pixels).save(path)
    assert np.array_equal(load_scan(path), pixels)


def test_jpeg_reads_as_rgb(tmp_path):
    red = np.zeros((40, 40, 3), np.uint8)
    red[..., 0] = 200
    path = tmp_path / "scan.jpg"
    Image.fromarray(red).save(path, quality=95)
    r, g, b = load_scan(path)[20, 20]
    assert r > 190 and g < 10 and b < 10


def test_gray_and_16_bit_scans_become_rgb(tmp_path):
    gray = np.tile(np.arange(0, 65536, 1024, dtype=np.uint16), (10, 1))
    path = tmp_path / "gray16.png"
    cv2.imwrite(str(path), gray)
    out = load_scan(path)
    assert out.shape == (10, 64, 3) and out.dtype == np.uint8
    assert out[0, -1, 0] == 252 and out[0, 0, 1] == 0


@pytest.mark.parametrize("suffix", [".png", ".jpg"])
def test_truncated_files_are_refused_in_one_line(tmp_path, pixels, suffix):
    whole = tmp_path / f"whole{suffix}"
    Image.fromarray(pixels).save(whole)
    cut = tmp_path / f"cut{suffix}"
    data = whole.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImageError, match=r"cut\.(png|jpg): image file is truncated"):
        load_scan(cut)


def test_missing_folder_and_non_images(tmp_path):
    with pytest.raises(ImageError, match="no such file"):
        load_scan(tmp_path / "nope.png")
    with pytest.raises(ImageError, match="is a folder"):
        load_scan(tmp_path)
    text = tmp_path / "notes.png"
    text.write_text("not a picture")
    with pytest.raises(ImageError, match="not an image Pillow can read"):
        load_scan(text)
