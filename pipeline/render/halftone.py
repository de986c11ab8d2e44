"""Offset printing: every colour made of cyan, magenta, yellow and black dot screens.

A printed map has no pixel of its "true" colours: each colour is separated
into four inks, and each ink is printed as a screen of dots whose size sets
its coverage, the screens turned to the classic angles (cyan 15 degrees,
magenta 75, yellow 0, black 45) so their interference makes small rosettes
rather than coarse moire. The eye, and a mean over an area, sees the colour.

The inks here are ideal (cyan takes out only red, magenta only green, yellow
only blue, black all three) and the separation is their exact inverse, so the
mean colour of a patch is its colour wherever the screens are independent:
``red = (1 - cyan) * (1 - black)`` and likewise for the others. Black replaces
part of the grey component of dark colours only (light tints are printed in
the three colours alone, as printers do).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

__all__ = ["SCREEN_ANGLES", "halftone", "separate"]

SCREEN_ANGLES: dict[str, float] = {"cyan": 15.0, "magenta": 75.0, "yellow": 0.0, "black": 45.0}
_ROWS = 256  # rows per strip (bounds the floating-point working memory)
_LEVELS = 4096  # resolution of the spot-function lookup table


def separate(rgb: NDArray[np.float32]) -> NDArray[np.float32]:
    """RGB in ``[0, 1]`` -> CMYK coverages in ``[0, 1]``.

    Black takes over the grey component gradually: none of it below 20%
    grey, all of it at full black.

    >>> separate(np.array([[1.0, 0.5, 0.0]], np.float32)).round(3).tolist()
    [[0.0, 0.5, 1.0, 0.0]]
    >>> separate(np.array([[0.0, 0.0, 0.0]], np.float32)).round(3).tolist()
    [[0.0, 0.0, 0.0, 1.0]]
    """
    grey = 1.0 - rgb.max(axis=-1)
    k = grey * np.clip((grey - 0.2) / 0.8, 0.0, 1.0)
    rest = np.maximum(1.0 - k, 1e-6)[..., None]
    cmy = np.where(rest > 1e-5, 1.0 - rgb / rest, 0.0)
    return np.concatenate([np.clip(cmy, 0, 1), k[..., None]], axis=-1).astype(np.float32)


def halftone(pixels: NDArray[np.uint8], period: float) -> NDArray[np.uint8]:
    """Print an RGB picture as four rotated dot screens of ``period`` pixels.

    Parameters
    ----------
    pixels
        RGB, ``uint8``, shape ``(height, width, 3)``.
    period
        Screen period (distance between dot centres) in pixels of ``pixels``.

    Returns
    -------
    numpy.ndarray
        The screened picture: only the eight colours the inks make, each pixel
        inked or not by each screen.

    Examples
    --------
    >>> img = np.full((64, 64, 3), (200, 120, 60), np.uint8)
    >>> out = halftone(img, 8.0)
    >>> len(np.unique(out.reshape(-1, 3), axis=0)) > 2, bool((out == img).all(axis=2).any())
    (True, False)
    """
    if not period > 1:
        raise ValueError(f"halftone period must be more than one pixel, got {period}")
    height, width = pixels.shape[:2]
    table = _threshold_table()
    out = np.empty_like(pixels)
    xs = np.arange(width, dtype=np.float32)
    for y0 in range(0, height, _ROWS):
        y1 = min(height, y0 + _ROWS)
        ys = np.arange(y0, y1, dtype=np.float32)[:, None]
        cover = separate(pixels[y0:y1].astype(np.float32) / 255.0)
        inked = [cover[..., i] > _threshold(xs, ys, angle, period, table)
                 for i, angle in enumerate(SCREEN_ANGLES.values())]
        paper = ~inked[3]
        strip = np.stack([~inked[0] & paper, ~inked[1] & paper, ~inked[2] & paper], axis=-1)
        out[y0:y1] = strip.astype(np.uint8) * 255
    return out


def _threshold(xs: NDArray[np.float32], ys: NDArray[np.float32], angle: float, period: float,
               table: NDArray[np.float32]) -> NDArray[np.float32]:
    """The coverage above which each pixel is inked, for one screen."""
    t = math.radians(angle)
    w = np.float32(2 * math.pi / period)
    u = (xs * np.float32(math.cos(t)) + ys * np.float32(math.sin(t))) * w
    v = (ys * np.float32(math.cos(t)) - xs * np.float32(math.sin(t))) * w
    spot = (np.cos(u) + np.cos(v)) * np.float32(0.5)  # 1 at dot centres, -1 between
    index = ((spot + 1) * np.float32((_LEVELS - 1) / 2)).astype(np.int32)
    return table[index]


def _threshold_table() -> NDArray[np.float32]:
    """For each spot value, the share of a cell whose spot value is at least as high.

    Inking where ``coverage > share`` inks exactly ``coverage`` of each cell: the dot
    grows from the cell centre outward.
    """
    a = np.linspace(0, 2 * math.pi, 512, endpoint=False)
    spot = np.sort(((np.cos(a)[:, None] + np.cos(a)[None, :]) / 2).ravel())
    levels = np.linspace(-1, 1, _LEVELS)
    above = 1.0 - np.searchsorted(spot, levels, side="left") / spot.size
    return above.astype(np.float32)
