"""Reading images: one reader, one pixel limit, one line for anything wrong.

Every image bocage reads comes through here: map scans (``digitize``), board
images, counter faces and play-aid charts (``vassal build``), and the images
inside a module (``vassal preview``). The size in the file's header is checked
against the pixel limit *before* anything is decoded, so a small file that
claims to be a 60,000 x 60,000 picture (a decompression bomb) costs nothing
and ends in one :class:`~pipeline.errors.ImageError`.

The limit is :data:`DEFAULT_MAX_PIXELS` (250 million pixels: a 22 x 34 inch
map scanned at 500 dpi is 187 million), or the environment variable
``BOCAGE_MAX_PIXELS`` (a whole number from 1 to 2**30, OpenCV's own ceiling).

A truncated PNG or JPEG is refused too: a half-copied scan must not be read as
a map whose lower half is featureless, which is what a decoder that pads a
cut-off image with grey would give.
"""

from __future__ import annotations

import io
import logging
import os
import struct
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, UnidentifiedImageError

from pipeline.errors import DataError, ImageError

__all__ = [
    "DEFAULT_MAX_PIXELS",
    "MAX_PIXELS_ENV",
    "ImageInfo",
    "check_pixels",
    "exif_orientation",
    "max_pixels",
    "open_image",
    "probe_image",
    "read_rgb",
    "reduced_size",
]

DEFAULT_MAX_PIXELS = 250_000_000
"""The pixel limit unless ``BOCAGE_MAX_PIXELS`` says otherwise."""
MAX_PIXELS_ENV = "BOCAGE_MAX_PIXELS"
"""The environment variable that sets the pixel limit."""
_log = logging.getLogger(__name__)  # what was read, for --verbose
_CEILING = 1 << 30  # OpenCV refuses bigger images whatever it is told (CV_IO_MAX_IMAGE_PIXELS)

# Pillow's own guard is a process-wide number that warns at 89 million pixels
# and fails at 179 million with an exception of its own. This module checks
# every image against bocage's limit before decoding it, so Pillow's guard
# would only refuse what the user allowed: it is switched off here, where all
# reading happens (tests/test_imagefile.py keeps every other module from
# opening images itself).
Image.MAX_IMAGE_PIXELS = None

_PNG = b"\x89PNG\r\n\x1a\n"
_PNG_END = b"\x00\x00\x00\x00IEND\xaeB`\x82"
_JPEG = b"\xff\xd8\xff"
_JPEG_END = b"\xff\xd9"
_ORIENTATION = 0x0112  # the EXIF tag
# What Pillow's plugins raise for data they cannot make sense of.
_CORRUPT = (SyntaxError, ValueError, EOFError, struct.error, zlib.error, IndexError, TypeError,
            KeyError)

Source = str | Path | bytes


def max_pixels(environ: Mapping[str, str] | None = None) -> int:
    """The pixel limit: ``BOCAGE_MAX_PIXELS`` if set, else :data:`DEFAULT_MAX_PIXELS`.

    >>> max_pixels({}), max_pixels({"BOCAGE_MAX_PIXELS": "1_000_000"})
    (250000000, 1000000)
    """
    env = os.environ if environ is None else environ
    text = env.get(MAX_PIXELS_ENV, "").strip()
    if not text:
        return DEFAULT_MAX_PIXELS
    digits = text.replace("_", "")
    if not (digits.isascii() and digits.isdigit()) or not 1 <= int(digits) <= _CEILING:
        raise DataError(None, MAX_PIXELS_ENV, f"'{text}' is not a whole number of pixels from"
                        f" 1 to {_CEILING:,} (2**30, OpenCV's limit)")
    return int(digits)


@dataclass(frozen=True)
class ImageInfo:
    """What an image's header says: its format and size in pixels."""

    format: str
    width: int
    height: int


def _name(source: Source, name: str | Path | None) -> str:
    if name is not None:
        return str(name)
    return "<image>" if isinstance(source, bytes) else str(source)


def _open(source: Source, name: str, formats: Sequence[str] | None) -> Image.Image:
    """Pillow's lazy open (the header only), with one-line errors."""
    try:
        fp = io.BytesIO(source) if isinstance(source, bytes) else source
        return Image.open(fp, formats=list(formats) if formats else None)
    except FileNotFoundError:
        raise ImageError(name, "no such file") from None
    except IsADirectoryError:
        raise ImageError(name, "is a folder, not an image") from None
    except UnidentifiedImageError:
        kinds = "/".join(formats) if formats else "PNG, JPEG or TIFF"
        raise ImageError(name, f"not an image Pillow can read (use {kinds})") from None
    except OSError as exc:
        raise ImageError(name, f"cannot read image ({exc.strerror or exc})") from None
    except _CORRUPT as exc:
        raise ImageError(name, f"corrupt image ({exc})") from None


def check_pixels(name: str | Path, width: int, height: int) -> None:
    """Refuse an image of ``width`` x ``height`` over the pixel limit, in one line.

    >>> check_pixels("scan.png", 6_913, 10_377)
    >>> check_pixels("empty.png", 0, 5)
    Traceback (most recent call last):
    ...
    pipeline.errors.ImageError: empty.png: image is 0 x 5 px: it has no pixels
    """
    if width < 1 or height < 1:
        raise ImageError(name, f"image is {width} x {height} px: it has no pixels")
    limit = max_pixels()
    if width * height > limit:
        raise ImageError(name, f"image is {width:,} x {height:,} px, over the limit of"
                         f" {limit:,} pixels (set {MAX_PIXELS_ENV} to allow more)")


def _check_size(image: Image.Image, name: str) -> ImageInfo:
    check_pixels(name, *image.size)
    return ImageInfo(image.format or "", *image.size)


def probe_image(source: Source, name: str | Path | None = None, *,
                formats: Sequence[str] | None = None, check_size: bool = True) -> ImageInfo:
    """Read an image's header: its format and size, checked against the pixel limit.

    Parameters
    ----------
    source
        A file name or the file's bytes.
    name
        How messages name it (default: the file name).
    formats
        Pillow format names to accept (``["PNG"]``); default any.
    check_size
        Refuse an image over :func:`max_pixels` (off: only report its size).

    >>> from PIL import Image
    >>> buffer = io.BytesIO()
    >>> Image.new("RGB", (40, 30)).save(buffer, "PNG")
    >>> probe_image(buffer.getvalue(), "face.png")
    ImageInfo(format='PNG', width=40, height=30)
    """
    label = _name(source, name)
    with _open(source, label, formats) as image:
        if check_size:
            return _check_size(image, label)
        return ImageInfo(image.format or "", *image.size)


def exif_orientation(source: Source, name: str | Path | None = None) -> int:
    """The EXIF orientation an image's header states: 1 upright, 2 to 8 a turn or mirror.

    OpenCV and Pillow's ``exif_transpose`` turn such an image upright; most GIS
    readers (GDAL) do not, so a scan whose file is not upright must not be handed
    to a GIS as it is. An image with no EXIF orientation is upright (1).

    >>> from PIL import Image
    >>> buffer = io.BytesIO()
    >>> exif = Image.Exif()
    >>> exif[0x0112] = 6  # turned a quarter: the camera was held upright
    >>> Image.new("RGB", (40, 30)).save(buffer, "JPEG", exif=exif)
    >>> exif_orientation(buffer.getvalue())
    6
    """
    label = _name(source, name)
    with _open(source, label, None) as image:
        try:
            value = image.getexif().get(_ORIENTATION, 1)
        except _CORRUPT + (OSError,):
            return 1  # an EXIF block that does not parse states nothing a decoder follows
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def open_image(source: Source, name: str | Path | None = None, *,
               formats: Sequence[str] | None = None,
               draft: tuple[str, tuple[int, int]] | None = None) -> Image.Image:
    """Decode an image whole, after checking its size (see :func:`probe_image`).

    ``draft`` lets a JPEG decode straight to a smaller size (Pillow's
    ``Image.draft``). Raises :class:`ImageError` for a missing, unreadable,
    truncated, corrupt or too large image.

    >>> from PIL import Image
    >>> buffer = io.BytesIO()
    >>> Image.new("RGB", (40, 30), "red").save(buffer, "PNG")
    >>> open_image(buffer.getvalue()).getpixel((0, 0))
    (255, 0, 0)
    """
    label = _name(source, name)
    with _open(source, label, formats) as image:
        _check_size(image, label)
        try:
            if draft is not None and image.format == "JPEG":
                image.draft(*draft)
            image.load()
            loaded = image.copy()
        except OSError as exc:
            text = str(exc)
            if "truncated" in text or "broken" in text or "end of file" in text.lower():
                raise ImageError(label, "image file is truncated (cut off before its end);"
                                 " copy or export it again") from None
            raise ImageError(label, f"cannot read image ({text})") from None
        except _CORRUPT as exc:
            raise ImageError(label, f"corrupt image ({exc})") from None
        loaded.format = image.format  # what the file was, for callers that keep its bytes
    _log.debug("read %s: %d x %d px", label, loaded.width, loaded.height)
    return loaded


# -- scans: big, so decoded by OpenCV straight into one array ------------------------------


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


def _decode(name: str, reduce: int = 1) -> NDArray[np.uint8] | None:
    """OpenCV's decoding as RGB, or ``None`` if it will not read the file.

    ``reduce`` 2, 4 or 8 asks for the image at that fraction of its size: a JPEG's
    decoder then skips the finer frequencies (several times faster than decoding it
    whole); anything else is decoded whole and then reduced.
    """
    smaller = _REDUCED.get(reduce, 0)
    try:
        rgb = getattr(cv2, "IMREAD_COLOR_RGB", None)  # OpenCV 4.10 and later
        if rgb is not None:
            # The decoder writes RGB itself: no second pass over the full-size scan.
            pixels = cv2.imread(name, rgb | smaller)
            return None if pixels is None else np.asarray(pixels, np.uint8)
        pixels = cv2.imread(name, cv2.IMREAD_COLOR | smaller)
    except cv2.error:
        return None
    if pixels is None:
        return None
    # In place: a full-size scan is never held twice.
    return np.asarray(cv2.cvtColor(pixels, cv2.COLOR_BGR2RGB, dst=pixels), np.uint8)


# OpenCV's flags for a JPEG decoded at 1/2, 1/4, 1/8 of its size, less the colour bit
# (given apart: IMREAD_COLOR_RGB or IMREAD_COLOR).
_REDUCED = {2: cv2.IMREAD_REDUCED_COLOR_2 & ~cv2.IMREAD_COLOR,
            4: cv2.IMREAD_REDUCED_COLOR_4 & ~cv2.IMREAD_COLOR,
            8: cv2.IMREAD_REDUCED_COLOR_8 & ~cv2.IMREAD_COLOR}


def reduced_size(width: int, height: int, reduce: int) -> tuple[int, int]:
    """The size of an image read at ``1/reduce`` of ``width x height`` (rounded up, as
    a JPEG decoder reduces).

    >>> reduced_size(6913, 10377, 2)
    (3457, 5189)
    """
    return -(-width // reduce), -(-height // reduce)


def _reduced(pixels: NDArray[np.uint8], reduce: int) -> NDArray[np.uint8]:
    """``pixels`` at ``1/reduce`` of their size, each the mean of the pixels it covers."""
    if reduce == 1:
        return pixels
    h, w = pixels.shape[:2]
    size = reduced_size(w, h, reduce)
    if size == (w, h):
        return pixels
    return np.asarray(cv2.resize(pixels, size, interpolation=cv2.INTER_AREA), np.uint8)


def _to_rgb(img: Image.Image) -> Image.Image:
    if img.mode in ("I;16", "I;16B", "I;16L", "I"):
        # 16-bit scans: keep the top 8 bits rather than clipping at 255.
        arr = np.asarray(img, dtype=np.uint32) >> 8
        return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8)).convert("RGB")
    return img.convert("RGB")


def read_rgb(path: str | Path, *, reduce: int = 1) -> NDArray[np.uint8]:
    """Decode an image file as RGB ``uint8`` pixels, shape ``(height, width, 3)``.

    PNG and JPEG (the usual scans, and the big ones) are checked for their end
    marker and decoded by OpenCV; anything else, and any file OpenCV will not
    read, goes through Pillow, whose errors say what is wrong. Raises
    :class:`ImageError` for a missing, unreadable, truncated, unsupported or
    too large file.

    ``reduce`` (1, 2, 4 or 8) reads the image at that fraction of its size
    (:func:`reduced_size`), each pixel the mean of those it covers: a JPEG is
    decoded straight to it.
    """
    if reduce not in (1, *_REDUCED):
        raise ValueError(f"reduce must be 1, 2, 4 or 8, not {reduce!r}")
    name = str(path)
    probe_image(path, name)
    kind = _sniff(path)
    pixels = None
    decoded_at = 1  # the reduction the decoder made itself
    if kind is not None:
        if _truncated(path, kind):
            raise ImageError(name, "image file is truncated (cut off before its end);"
                             " copy or export it again")
        decoded_at = reduce if kind == "jpeg" else 1
        pixels = _decode(name, decoded_at)
    if pixels is None:
        image = open_image(path, name)
        rgb = image if image.mode == "RGB" else _to_rgb(image)
        pixels = np.asarray(rgb, dtype=np.uint8).copy()
        decoded_at = 1
    if decoded_at != reduce:
        pixels = _reduced(pixels, reduce)
    _log.info("read %s: %d x %d px", name, pixels.shape[1], pixels.shape[0])
    return pixels
