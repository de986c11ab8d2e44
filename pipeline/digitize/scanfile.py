"""Read a scan file into RGB pixels, or say in one line why it cannot be read.

The reading itself is bocage's one image reader (:mod:`pipeline.imagefile`):
the pixel limit, truncated files refused, PNG and JPEG decoded by OpenCV
straight into one array, anything else through Pillow.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.imagefile import read_rgb

__all__ = ["load_scan", "read_pixels"]


_REMAP_LIMIT = 32_767  # OpenCV's remap takes images and maps under this many pixels a side
_REMAP_ROW = 4_096  # positions per row of a remap map


def load_scan(path: str | Path, *, reduce: int = 1) -> NDArray[np.uint8]:
    """Decode a scan as RGB ``uint8`` pixels, shape ``(height, width, 3)``, at ``1/reduce``
    of its size (1, 2, 4 or 8; a JPEG decodes straight to it).

    Raises :class:`~pipeline.errors.ImageError` for a missing, unreadable,
    truncated, unsupported or too large file (see :func:`pipeline.imagefile.read_rgb`).
    """
    return read_rgb(path, reduce=reduce)


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
