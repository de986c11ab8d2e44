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
        pixels = cv2.imread(name, cv2.IMREAD_COLOR)
        if pixels is not None:
            # In place: a full-size scan is never held twice.
            return np.asarray(cv2.cvtColor(pixels, cv2.COLOR_BGR2RGB, dst=pixels), np.uint8)
    return _pillow(name)


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
    """Pixels nearest to positions ``(..., 2)`` (clamped to the image), shape ``(..., 3)``."""
    h, w = image.shape[:2]
    ix = np.clip(np.rint(xy[..., 0]).astype(np.int64), 0, w - 1)
    iy = np.clip(np.rint(xy[..., 1]).astype(np.int64), 0, h - 1)
    out: NDArray[np.uint8] = image[iy, ix]
    return out
