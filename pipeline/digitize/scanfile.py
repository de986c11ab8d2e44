"""Read a scan file into RGB pixels, or say in one line why it cannot be read.

A truncated file is refused: a half-transferred scan must not be digitized as
a map whose lower half is featureless, which is what a decoder that pads a
cut-off image with grey would give. PNG and JPEG (the usual scans, and the
big ones) are checked for their end marker and decoded by OpenCV straight
into one array; anything else, and any file OpenCV will not read, goes
through Pillow, whose errors say what is wrong.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, UnidentifiedImageError

from pipeline.errors import ImageError

__all__ = ["load_scan", "read_pixels"]


_PNG = b"\x89PNG\r\n\x1a\n"
_PNG_END = b"\x00\x00\x00\x00IEND\xaeB`\x82"
_JPEG = b"\xff\xd8\xff"
_JPEG_END = b"\xff\xd9"
_REMAP_LIMIT = 32_767  # OpenCV's remap takes images and maps under this many pixels a side
_REMAP_ROW = 4_096  # positions per row of a remap map


def load_scan(path: str | Path) -> NDArray[np.uint8]:
    """Decode a scan as RGB ``uint8`` pixels, shape ``(height, width, 3)``.

    Raises :class:`ImageError` for a missing, unreadable, truncated or
    unsupported file.
    """
    name = str(path)
    kind = _sniff(path)
    if kind is not None:
        if _truncated(path, kind):
            raise ImageError(name, "image file is truncated (cut off before its end);"
                             " copy or export it again")
        pixels = _decode(name)
        if pixels is not None:
            return pixels
    return _pillow(name)


def _decode(name: str) -> NDArray[np.uint8] | None:
    """OpenCV's decoding as RGB, or ``None`` if it will not read the file."""
    rgb = getattr(cv2, "IMREAD_COLOR_RGB", None)  # OpenCV 4.10 and later
    if rgb is not None:
        # The decoder writes RGB itself: no second pass over the full-size scan.
        pixels = cv2.imread(name, rgb)
        return None if pixels is None else np.asarray(pixels, np.uint8)
    pixels = cv2.imread(name, cv2.IMREAD_COLOR)
    if pixels is None:
        return None
    # In place: a full-size scan is never held twice.
    return np.asarray(cv2.cvtColor(pixels, cv2.COLOR_BGR2RGB, dst=pixels), np.uint8)


def _sniff(path: str | Path) -> str | None:
    """``"png"`` or ``"jpeg"`` by the file's first bytes, else ``None`` (or unreadable)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(8)
    except OSError:
        return None
    if head.startswith(_PNG):
        return "png"
    return "jpeg" if head.startswith(_JPEG) else None


def _truncated(path: str | Path, kind: str) -> bool:
    """Whether a PNG lacks its closing IEND chunk, or a JPEG its end-of-image marker."""
    with open(path, "rb") as fh:
        fh.seek(0, 2)
        size = fh.tell()
        fh.seek(max(0, size - 4096))
        tail = fh.read()
    if kind == "png":
        return not tail.endswith(_PNG_END)
    # Some writers pad a JPEG after its end marker.
    return not tail.rstrip(b"\x00").endswith(_JPEG_END)


def _pillow(name: str) -> NDArray[np.uint8]:
    try:
        with Image.open(name) as img:
            img.load()
            rgb = img if img.mode == "RGB" else _to_rgb(img)
            return np.asarray(rgb, dtype=np.uint8).copy()
    except FileNotFoundError:
        raise ImageError(name, "no such file") from None
    except IsADirectoryError:
        raise ImageError(name, "is a folder, not an image") from None
    except UnidentifiedImageError:
        raise ImageError(name, "not an image Pillow can read (use PNG, JPEG or TIFF)") from None
    except Image.DecompressionBombError as exc:
        raise ImageError(name, f"image too large to decode safely ({exc})") from None
    except OSError as exc:
        text = str(exc)
        if "truncated" in text or "broken" in text or "end of file" in text.lower():
            raise ImageError(name, "image file is truncated (cut off before its end);"
                             " copy or export it again") from None
        raise ImageError(name, f"cannot read image ({text})") from None
    except (SyntaxError, ValueError) as exc:  # Pillow's plugins raise these for corrupt data
        raise ImageError(name, f"corrupt image ({exc})") from None


def _to_rgb(img: Image.Image) -> Image.Image:
    if img.mode in ("I;16", "I;16B", "I;16L", "I"):
        # 16-bit scans: keep the top 8 bits rather than clipping at 255.
        arr = np.asarray(img, dtype=np.uint32) >> 8
        return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8)).convert("RGB")
    return img.convert("RGB")


def read_pixels(image: NDArray[np.uint8], xy: NDArray[np.float64]) -> NDArray[np.uint8]:
    """Pixels nearest to positions ``(..., 2)`` (clamped to the image), shape ``(..., 3)``.

    >>> img = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    >>> read_pixels(img, np.array([[2.2, 0.9], [-5.0, 0.0]])).tolist()
    [[15, 16, 17], [0, 1, 2]]
    """
    h, w = image.shape[:2]
    shape = xy.shape[:-1]
    n = int(np.prod(shape))
    if n and max(h, w) < _REMAP_LIMIT:
        # OpenCV's remap gathers on every core and converts positions in vector
        # code: several times faster than NumPy's fancy indexing on a big scan.
        cols = min(n, _REMAP_ROW)
        rows = -(-n // cols)
        where = np.zeros((2, rows * cols), np.float32)
        where[:, :n] = xy.reshape(-1, 2).T
        got = cv2.remap(image, where[0].reshape(rows, cols), where[1].reshape(rows, cols),
                        cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE)
        return np.asarray(got, np.uint8).reshape(rows * cols, -1)[:n].reshape(*shape, -1)
    ix = np.clip(np.rint(xy[..., 0]).astype(np.int64), 0, w - 1)
    iy = np.clip(np.rint(xy[..., 1]).astype(np.int64), 0, h - 1)
    out: NDArray[np.uint8] = image[iy, ix]
    return out
