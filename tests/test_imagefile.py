"""pipeline.imagefile: one image reader, one pixel limit checked before decoding."""

from __future__ import annotations

import ast
import io
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pipeline.errors import DataError, ImageError
from pipeline.imagefile import (
    DEFAULT_MAX_PIXELS,
    max_pixels,
    open_image,
    probe_image,
    read_rgb,
)
from tests.corpus.cases import png_bomb

PIPELINE = Path(__file__).resolve().parents[1] / "pipeline"


@pytest.fixture(scope="module")
def bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bomb") / "bomb.png"
    png_bomb(path, 20_000, 20_000)  # 400 million pixels in a few kilobytes
    return path


def _png(size: tuple[int, int], colour: str = "red") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, "PNG")
    return buffer.getvalue()


def test_the_limit_comes_from_the_environment_and_is_checked():
    assert max_pixels({}) == DEFAULT_MAX_PIXELS == 250_000_000
    assert max_pixels({"BOCAGE_MAX_PIXELS": "400_000_000"}) == 400_000_000
    for bad in ("lots", "0", "-5", "1.5", str(2**31)):
        with pytest.raises(DataError) as info:
            max_pixels({"BOCAGE_MAX_PIXELS": bad})
        assert str(info.value) == (f"BOCAGE_MAX_PIXELS: '{bad}' is not a whole number of pixels"
                                   " from 1 to 1,073,741,824 (2**30, OpenCV's limit)")


def test_a_bomb_is_refused_from_its_header_without_decoding(bomb):
    tracemalloc.start()
    try:
        for read in (probe_image, open_image, read_rgb):
            with pytest.raises(ImageError) as info:
                read(bomb)
            assert str(info.value) == (f"{bomb}: image is 20,000 x 20,000 px, over the limit of"
                                       " 250,000,000 pixels (set BOCAGE_MAX_PIXELS to allow"
                                       " more)")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000  # decoded, it would be 400 MB


def test_a_raised_limit_lets_the_big_image_through(bomb, monkeypatch):
    monkeypatch.setenv("BOCAGE_MAX_PIXELS", "400_000_000")
    assert probe_image(bomb).width == 20_000


def test_a_lowered_limit_applies_to_every_reader(tmp_path, monkeypatch):
    path = tmp_path / "scan.png"
    path.write_bytes(_png((50, 40)))
    monkeypatch.setenv("BOCAGE_MAX_PIXELS", "1999")
    for read in (probe_image, open_image, read_rgb):
        with pytest.raises(ImageError, match=r"image is 50 x 40 px, over the limit of 1,999"):
            read(path)
    monkeypatch.setenv("BOCAGE_MAX_PIXELS", "2000")
    assert read_rgb(path).shape == (40, 50, 3)


def test_bytes_and_files_decode_to_the_same_pixels(tmp_path):
    data = _png((30, 20), "blue")
    (tmp_path / "face.png").write_bytes(data)
    from_bytes = open_image(data, "face.png")
    assert from_bytes.format == "PNG" and from_bytes.getpixel((3, 3)) == (0, 0, 255)
    assert np.array_equal(read_rgb(tmp_path / "face.png"), np.asarray(from_bytes))


def test_formats_can_be_restricted():
    buffer = io.BytesIO()
    Image.new("RGB", (10, 10)).save(buffer, "JPEG")
    with pytest.raises(ImageError, match="not an image Pillow can read \\(use PNG\\)"):
        probe_image(buffer.getvalue(), "face.png", formats=["PNG"])


@pytest.mark.parametrize(("data", "message"), [
    (b"", "not an image Pillow can read"),
    (b"just some text", "not an image Pillow can read"),
    (b"\x89PNG\r\n\x1a\nnot really", "cannot read image"),
])
def test_what_is_no_image_is_one_line(data, message):
    with pytest.raises(ImageError) as info:
        open_image(data, "x.png")
    assert str(info.value).startswith(f"x.png: {message}") and "\n" not in str(info.value)


def test_a_truncated_image_is_refused_not_padded():
    rng = np.random.default_rng(1)
    buffer = io.BytesIO()
    Image.fromarray(rng.integers(0, 255, (300, 300, 3), dtype=np.uint8)).save(buffer, "PNG")
    data = buffer.getvalue()
    with pytest.raises(ImageError, match="image file is truncated"):
        open_image(data[: len(data) // 2], "cut.png")


def test_no_other_module_opens_images_itself():
    """Every image read goes through pipeline.imagefile, so the limit holds everywhere.

    render/scan.py decodes the JPEG it has just encoded (the scan simulator's
    compression), which reads no file a user gave.
    """
    readers = {("Image", "open"), ("cv2", "imread"), ("cv2", "imdecode"),
               ("cv2", "imreadmulti")}
    found = []
    for path in sorted(PIPELINE.rglob("*.py")):
        rel = path.relative_to(PIPELINE).as_posix()
        if rel in ("imagefile.py", "render/scan.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and (node.value.id, node.attr) in readers):
                found.append(f"{rel}:{node.lineno} {node.value.id}.{node.attr}")
    assert found == []
