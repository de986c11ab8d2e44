"""PNG faces written unfiltered at zlib level 1: the same pixels back through Pillow and
OpenCV, the same bytes as libpng writes (OpenCV's writer, which wrote them before), the dpi
in a valid pHYs chunk right after IHDR, and every mode a face or piece comes in."""

from __future__ import annotations

import io
import itertools
import struct
import zlib

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from pipeline.pngwrite import PngRows, deflate_rows, png_bytes, png_of_parts


def _face(mode: str) -> Image.Image:
    image = Image.new("RGBA", (61, 47), (240, 230, 200, 255))
    draw = ImageDraw.Draw(image)
    draw.rectangle((5, 5, 40, 30), outline=(10, 20, 30, 255), width=2)
    draw.text((8, 30), "3-4-5 <&\">", fill=(200, 0, 0, 128))
    return image if mode == "RGBA" else image.convert(mode)


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_pixels_come_back_exactly_through_pillow_and_opencv(mode):
    face = _face(mode)
    data = png_bytes(face, dpi=300)
    with Image.open(io.BytesIO(data)) as back:
        back.load()  # Pillow checks every chunk's CRC as it reads
        assert back.mode == mode and back.size == face.size
        assert np.array_equal(np.asarray(back), np.asarray(face))
        assert [round(d, 2) for d in back.info["dpi"]] == [300.0, 300.0]
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    expected = np.asarray(face)
    if mode != "L":
        expected = cv2.cvtColor(expected, cv2.COLOR_RGB2BGR if mode == "RGB"
                                else cv2.COLOR_RGBA2BGRA)
    assert np.array_equal(decoded, expected)


def _libpng(image: Image.Image) -> bytes:
    """The picture as OpenCV's libpng writer encodes it, rows unfiltered, zlib level 1."""
    pixels = np.asarray(image)
    if image.mode != "L":
        pixels = cv2.cvtColor(pixels, cv2.COLOR_RGB2BGR if image.mode == "RGB"
                              else cv2.COLOR_RGBA2BGRA)
    ok, data = cv2.imencode(".png", pixels, [cv2.IMWRITE_PNG_COMPRESSION, 1,
                                             cv2.IMWRITE_PNG_FILTER, cv2.IMWRITE_PNG_FILTER_NONE])
    assert ok
    return data.tobytes()


@pytest.mark.skipif(not hasattr(cv2, "IMWRITE_PNG_FILTER"), reason="OpenCV before 4.11 filters")
@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
@pytest.mark.parametrize("size", [(1, 1), (10, 73), (47, 47), (61, 47), (188, 188), (300, 200)])
def test_the_bytes_are_libpngs(mode, size):
    # Flat art and noise: a small window in the zlib header (under 16 KiB of rows), one
    # IDAT chunk, and several of 8,192 bytes.
    rng = np.random.default_rng(sum(size))
    noise = Image.fromarray(rng.integers(0, 256, (size[1], size[0], 4), dtype=np.uint8))
    for image in (_face("RGBA").resize(size), noise):
        picture = image.convert(mode)
        assert png_bytes(picture) == _libpng(picture)


def test_the_resolution_chunk_follows_ihdr_with_its_crc():
    data = png_bytes(_face("RGB"), dpi=150)
    length, kind = struct.unpack(">I4s", data[33:41])
    assert (length, kind) == (9, b"pHYs")
    x, y, unit = struct.unpack(">IIB", data[41:50])
    assert (x, y, unit) == (5906, 5906, 1)  # 150 dpi in pixels per metre, rounded
    assert struct.unpack(">I", data[50:54])[0] == zlib.crc32(data[37:50])
    assert b"pHYs" not in png_bytes(_face("RGB"))  # no dpi given, none written


def test_other_modes_are_written_with_their_colours_and_alpha():
    palette = _face("RGB").convert("P")
    with Image.open(io.BytesIO(png_bytes(palette))) as back:
        assert back.mode == "RGBA"
        assert np.array_equal(np.asarray(back), np.asarray(palette.convert("RGBA")))


@pytest.mark.parametrize("bands", [[47], [1, 46], [10, 10, 10, 17]])
def test_a_picture_given_in_bands_is_the_picture_given_whole(bands):
    face = _face("RGB")
    rows, top = PngRows(*face.size), 0
    for height in bands:
        rows.add(face.crop((0, top, face.width, top + height)))
        top += height
    assert rows.png(dpi=300) == png_bytes(face, dpi=300)


def test_rows_missing_or_too_many_are_refused():
    rows = PngRows(61, 47)
    rows.add(_face("RGB").crop((0, 0, 61, 40)))
    with pytest.raises(ValueError, match="40 rows given of 47"):
        rows.png()
    with pytest.raises(ValueError, match="rows 80 of a picture of 47"):
        rows.add(_face("RGB").crop((0, 0, 61, 40)))


def test_rows_compressed_apart_make_the_picture():
    rng = np.random.default_rng(7)
    noise = Image.fromarray(rng.integers(0, 256, (300, 200, 3), dtype=np.uint8))
    picture = Image.new("RGB", (200, 700), (230, 230, 220))
    picture.paste(noise, (0, 150))  # flat rows and rows that do not compress
    cuts = [0, 1, 149, 150, 400, 699, 700]
    parts = [deflate_rows(picture.crop((0, a, 200, b))) for a, b in itertools.pairwise(cuts)]
    data = png_of_parts(200, 700, parts, dpi=150)
    with Image.open(io.BytesIO(data)) as back:
        back.load()  # every chunk's CRC checked
        assert back.tobytes() == picture.tobytes()
        assert round(back.info["dpi"][0]) == 150
    stream = b"".join(body for kind, body in _chunks(data) if kind == b"IDAT")
    # A zlib stream whose checksum holds: decompress checks it (the combined Adler-32).
    assert zlib.decompress(stream) == b"".join(
        b"\0" + picture.crop((0, y, 200, y + 1)).tobytes() for y in range(700))
    with pytest.raises(ValueError, match="699 rows given of 700"):
        png_of_parts(200, 700, parts[:-1])


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    found, at = [], 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        found.append((kind, data[at + 8:at + 8 + length]))
        at += 12 + length
    return found
