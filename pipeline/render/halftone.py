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
    k = _black(1.0 - rgb.max(axis=-1))
    rest = np.maximum(1.0 - k, 1e-6)[..., None]
    cmy = np.where(rest > 1e-5, 1.0 - rgb / rest, 0.0)
    return np.concatenate([np.clip(cmy, 0, 1), k[..., None]], axis=-1).astype(np.float32)


def _black(grey: NDArray[np.floating]) -> NDArray[np.floating]:
    """Black ink for a grey component (0 white to 1 black)."""
    return np.asarray(grey * np.clip((grey - 0.2) / 0.8, 0.0, 1.0))


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
    screens = [(angle, _threshold_table(angle, period, width, height))
               for angle in SCREEN_ANGLES.values()]
    # The separation (see separate) by table on the brightest channel, which sets black:
    # cover = 1 - value * scale[brightest], black = k[brightest].
    grey = 1.0 - np.arange(256) / 255.0
    k = _black(grey)
    black = k.astype(np.float32)
    scale = np.where(k < 1, 1.0 / (255.0 * np.maximum(1.0 - k, 1e-9)), 0.0).astype(np.float32)
    out = np.empty_like(pixels)
    xs = np.arange(width, dtype=np.float32)
    for y0 in range(0, height, _ROWS):
        y1 = min(height, y0 + _ROWS)
        ys = np.arange(y0, y1, dtype=np.float32)[:, None]
        strip = pixels[y0:y1]
        brightest = np.maximum(np.maximum(strip[..., 0], strip[..., 1]), strip[..., 2])
        factor = scale[brightest]
        paper = ~(black[brightest] > screens[3][1][_level(_spot(xs, ys, screens[3][0], period))])
        for i in range(3):
            angle, table = screens[i]
            cover = 1.0 - strip[..., i] * factor
            out[y0:y1, :, i] = (~(cover > table[_level(_spot(xs, ys, angle, period))])
                                & paper).astype(np.uint8) * 255
    return out


def _spot(xs: NDArray[np.float32], ys: NDArray[np.float32], angle: float, period: float
          ) -> NDArray[np.float32]:
    """The spot function of one screen: 1 at dot centres, -1 between them.

    ``cos(a x + b y)`` is expanded into products of functions of ``x`` and of
    ``y`` alone, so a strip costs four multiplications a pixel, not two cosines.
    """
    t = math.radians(angle)
    w = 2 * math.pi / period
    # Off-grid phases keep a screen at 0 or 45 degrees from sampling symmetric twins.
    x = (xs.astype(np.float64) + 0.31).ravel()
    y = (ys.astype(np.float64) + 0.17).ravel()
    total = np.zeros((y.size, x.size), np.float32)
    for a, b in ((math.cos(t), math.sin(t)), (-math.sin(t), math.cos(t))):
        cx, sx = np.cos(w * a * x).astype(np.float32), np.sin(w * a * x).astype(np.float32)
        cy, sy = np.cos(w * b * y).astype(np.float32), np.sin(w * b * y).astype(np.float32)
        total += cy[:, None] * cx[None, :]
        total -= sy[:, None] * sx[None, :]
    return total * np.float32(0.5)


def _level(spot: NDArray[np.float32]) -> NDArray[np.int32]:
    return np.clip(((spot + 1) * np.float32((_LEVELS - 1) / 2)).astype(np.int32), 0, _LEVELS - 1)


def _threshold_table(angle: float, period: float, width: int, height: int
                     ) -> NDArray[np.float32]:
    """For each spot level, the share of the screen's pixels at that level or above.

    Inking where ``coverage > share`` inks exactly ``coverage`` of the pixels:
    the dot grows from the cell centre outward. The shares are counted on the
    pixels themselves (a window of the picture), not on the continuous spot
    function, so a screen whose period fits the pixel grid (yellow at 0
    degrees) is as exact as a turned one.
    """
    xs = np.arange(min(width, 512), dtype=np.float32)
    ys = np.arange(min(height, 512), dtype=np.float32)[:, None]
    counts = np.bincount(_level(_spot(xs, ys, angle, period)).ravel(), minlength=_LEVELS)
    above = np.cumsum(counts[::-1])[::-1] / counts.sum()
    return above.astype(np.float32)
