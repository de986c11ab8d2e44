"""Board images for a module: read, size-checked, and axis-aligned when the grid is not.

VASSAL's hex grid has no rotation: its columns run straight down the image.
A scan whose fitted layout is rotated or sheared is therefore resampled
(OpenCV ``warpAffine``) onto an image where the grid is axis-aligned with the
fitted pitches ``dx``/``dy``; the new layout comes back with it, and the build
report says that it happened. Untouched PNG/JPEG/GIF boards are stored byte for
byte; other formats become PNG (VASSAL reads no TIFF).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from pipeline.errors import ImageError
from pipeline.hexgrid import Layout
from pipeline.imagefile import open_image

__all__ = ["MAX_SIDE", "BoardImage", "is_axis_aligned", "prepare_board", "resample"]

# Real modules run out of memory tiling very large boards (VASSAL issues #12292,
# #12874): warn above this many pixels on a side (reference §9).
MAX_SIDE = 8000
_KEEP = {"PNG": ".png", "JPEG": ".jpg", "GIF": ".gif"}


@dataclass(frozen=True)
class BoardImage:
    """A board image ready for the module.

    Attributes
    ----------
    data
        The bytes stored under ``images/``.
    suffix
        ``.png``, ``.jpg`` or ``.gif``.
    width, height
        Pixel size.
    layout
        The grid layout on *this* image (axis-aligned).
    resampled
        Whether the image was warped to align the grid.
    warnings
        One-line findings (a very large image).
    """

    data: bytes
    suffix: str
    width: int
    height: int
    layout: Layout
    resampled: bool
    warnings: tuple[str, ...] = ()


def is_axis_aligned(layout: Layout) -> bool:
    """Whether the layout's columns run straight down the image at positive pitches."""
    a, b, c, d = layout.matrix
    return abs(b) < 1e-9 and abs(c) < 1e-9 and a > 0 and d > 0


def _pitches(layout: Layout) -> tuple[float, float]:
    a, b, c, d = layout.matrix
    # The pitch along each grid axis is the length of that axis' image vector.
    return math.hypot(a, c), math.hypot(b, d)


def resample(pixels: np.ndarray, layout: Layout) -> tuple[np.ndarray, Layout]:
    """Warp an image so that ``layout`` becomes axis-aligned; returns the image and new layout.

    Parameters
    ----------
    pixels
        ``H x W x C`` uint8 array.
    layout
        The fitted (rotated or sheared) layout on ``pixels``.
    """
    dx, dy = _pitches(layout)
    a, b, c, d = layout.matrix
    m = np.array([[a, b], [c, d]], dtype=np.float64)
    target = np.diag([dx, dy])
    to_target = target @ np.linalg.inv(m)  # source offset -> target offset
    h, w = pixels.shape[:2]
    corners = np.array([[0, 0], [w, 0], [0, h], [w, h]], dtype=np.float64)
    origin = np.array([layout.x0, layout.y0])
    mapped = (corners - origin) @ to_target.T
    low, high = mapped.min(axis=0), mapped.max(axis=0)
    new_origin = -low
    size = np.ceil(high - low).astype(int)
    # warpAffine with WARP_INVERSE_MAP takes target -> source.
    back = np.linalg.inv(to_target)
    shift = origin - back @ new_origin
    matrix = np.hstack([back, shift[:, None]])
    fill = (255,) * pixels.shape[2] if pixels.ndim == 3 else 255
    warped = cv2.warpAffine(pixels, matrix, (int(size[0]), int(size[1])),
                            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    new_layout = Layout(dx=dx, dy=dy, x0=float(new_origin[0]), y0=float(new_origin[1]))
    return warped, new_layout


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")  # Pillow writes no time stamp: same pixels, same bytes
    return out.getvalue()


def prepare_board(path: str | Path, layout: Layout) -> BoardImage:
    """Read a board image and make it ready for VASSAL (see the module docstring).

    Raises
    ------
    ImageError
        The file is missing, not an image, corrupt or over the pixel limit
        (:func:`pipeline.imagefile.open_image`).
    """
    file = Path(path)
    if not file.is_file():
        raise ImageError(file, "board image not found (give it with --board)")
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise ImageError(file, f"cannot read image ({exc.strerror or exc})") from None
    image = open_image(data, file)
    image_format = image.format or ""
    resampled = not is_axis_aligned(layout)
    if resampled:
        rgb = np.asarray(image.convert("RGBA" if "A" in image.mode else "RGB"))
        warped, layout = resample(rgb, layout)
        image = Image.fromarray(warped)
        data, suffix = _png(image), ".png"
    elif image_format in _KEEP:
        suffix = _KEEP[image_format]
    else:
        data, suffix = _png(image.convert("RGBA" if "A" in image.mode else "RGB")), ".png"
    width, height = image.size
    warnings = []
    if max(width, height) > MAX_SIDE:
        warnings.append(f"{file}: board image is {width}x{height} px, over {MAX_SIDE} px on a side;"
                        " VASSAL may run out of memory tiling it (use a lower resolution)")
    return BoardImage(data, suffix, width, height, layout, resampled, tuple(warnings))
