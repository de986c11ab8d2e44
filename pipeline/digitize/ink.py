"""Where the printer put thin dark lines: the ink map the grid is found in.

A grid line is darker than the paper or fill on both sides of it, and thin.
A morphological closing removes thin dark strokes and keeps everything wider
than its kernel, so ``(closing - gray) / closing`` is how much darker a pixel
is than its surroundings, relative to them: about the same for a black line
on pale clear terrain and on dark woods, and indifferent to uneven light
(both terms dim together). Borders between two fills are steps, not strokes,
and leave no ink. Some maps print their grid in white over saturated fills: the
same measure with an opening, ``(gray - opening) / gray``, finds light strokes
(``light=True``), just as indifferent to the light.

Working images are reduced with ``INTER_AREA``; :class:`Scale` converts
positions between the working image and the scan. A :class:`Pyramid` keeps
the halvings of a scan's luma, so each reduction starts from the nearest
level rather than from the full scan.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["Pyramid", "Scale", "gray", "ink_map", "reduce"]

F32 = NDArray[np.float32]

_BAND = 256  # rows of the halved luma made at a time


@dataclass(frozen=True)
class Scale:
    """The factor between a reduced working image and the scan, per axis.

    Pixel centres sit at integers in both; with a factor ``f`` the working
    pixel ``i`` covers scan pixels ``i*f .. (i+1)*f``, centred at ``(i+0.5)*f - 0.5``.
    """

    fx: float = 1.0
    fy: float = 1.0

    def to_scan(self, x: NDArray[np.float64], y: NDArray[np.float64]
                ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Working-image positions -> scan positions."""
        return (x + 0.5) * self.fx - 0.5, (y + 0.5) * self.fy - 0.5

    def matrix(self) -> NDArray[np.float64]:
        """3x3 affine matrix from working-image positions to scan positions."""
        return np.array([[self.fx, 0.0, 0.5 * self.fx - 0.5],
                         [0.0, self.fy, 0.5 * self.fy - 0.5],
                         [0.0, 0.0, 1.0]])

    def to_work(self, x: NDArray[np.float64], y: NDArray[np.float64]
                ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Scan positions -> working-image positions."""
        return (x + 0.5) / self.fx - 0.5, (y + 0.5) / self.fy - 0.5


def gray(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Luma of an RGB image (OpenCV's weights)."""
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_RGB2GRAY), dtype=np.uint8)


def reduce(image: NDArray[np.uint8], factor: float) -> tuple[NDArray[np.uint8], Scale]:
    """Shrink an image by ``factor`` (>= 1) with area averaging; 1 returns it as is."""
    if factor <= 1.0:
        return image, Scale()
    h, w = image.shape[:2]
    size = (max(1, round(w / factor)), max(1, round(h / factor)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return np.asarray(small, dtype=np.uint8), Scale(w / size[0], h / size[1])


class Pyramid:
    """A scan's luma and its halvings, made on demand, and reductions from them.

    Halving is the mean of 2 x 2 blocks, which OpenCV does about ten times
    faster than a reduction by an arbitrary factor; so a reduction by ``f``
    starts from the halving just finer than ``f`` and only the last step is a
    general one. Pixel ``i`` of halving ``k`` covers pixels ``i*2**k ..
    (i+1)*2**k`` of the original exactly (an odd last row or column is left out).

    The first halving of a colour scan is made a band of rows at a time, so the
    full-size luma (70 MB of fresh memory for a 7,000 x 10,000 px scan) is only
    made if something asks for it.

    >>> p = Pyramid(np.full((101, 60, 3), 7, np.uint8))
    >>> small, scale = p.reduced(4.0)
    >>> small.shape, scale, int(small[0, 0])
    ((25, 15), Scale(fx=4.0, fy=4.0), 7)
    """

    def __init__(self, image: NDArray[np.uint8]) -> None:
        self.image = image
        self._levels: dict[int, NDArray[np.uint8]] = {} if image.ndim == 3 else {0: image}

    @property
    def shape(self) -> tuple[int, int]:
        """Height and width of the original."""
        return self.image.shape[0], self.image.shape[1]

    def level(self, k: int) -> NDArray[np.uint8]:
        """The luma halved ``k`` times."""
        if k not in self._levels:
            if k == 0:
                self._levels[0] = gray(self.image)
            elif k == 1 and 0 not in self._levels:
                self._levels[1] = _halved_luma(self.image)
            else:
                self._levels[k] = _halved(self.level(k - 1))
        return self._levels[k]

    def window(self, y0: int, x0: int, side: int, k: int = 0) -> NDArray[np.uint8]:
        """A square of the luma halved ``k`` times (clipped to it), as a contiguous array."""
        if k == 0 and 0 not in self._levels:
            return gray(np.ascontiguousarray(self.image[y0: y0 + side, x0: x0 + side]))
        return np.ascontiguousarray(self.level(k)[y0: y0 + side, x0: x0 + side])

    def reduced(self, factor: float) -> tuple[NDArray[np.uint8], Scale]:
        """The luma shrunk by about ``factor`` (1 or less gives it as is)."""
        k = int(math.floor(math.log2(factor))) if factor > 1.0 else 0
        while k > 0 and min(self.shape) >> k < 2:
            k -= 1
        small, rest = reduce(self.level(k), factor / 2 ** k)
        return small, Scale(rest.fx * 2 ** k, rest.fy * 2 ** k)


def _halved(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    h, w = image.shape[0] // 2, image.shape[1] // 2
    half = cv2.resize(image[: 2 * h, : 2 * w], (w, h), interpolation=cv2.INTER_AREA)
    return np.asarray(half, dtype=np.uint8)


def _halved_luma(rgb: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The luma of a colour image, halved: the same pixels as ``_halved(gray(rgb))``."""
    h, w = rgb.shape[0] // 2, rgb.shape[1] // 2
    out = np.empty((h, w), np.uint8)
    for y in range(0, h, _BAND):
        rows = min(_BAND, h - y)
        band = gray(np.ascontiguousarray(rgb[2 * y: 2 * (y + rows), : 2 * w]))
        out[y: y + rows] = cv2.resize(band, (w, rows), interpolation=cv2.INTER_AREA)
    return out


def ink_map(gray_image: NDArray[np.uint8], kernel: int, *, light: bool = False) -> F32:
    """Relative darkness of thin strokes (0 = none, up to 1 = black on white).

    Parameters
    ----------
    gray_image
        A gray image.
    kernel
        Width in pixels of the widest stroke to keep (odd, at least 3).
    light
        Measure thin light strokes instead (a white grid over dark fills): how much
        brighter than its surroundings a pixel is, relative to itself.

    Examples
    --------
    >>> img = np.full((9, 9), 200, np.uint8); img[:, 4] = 50
    >>> m = ink_map(img, 5)
    >>> round(float(m[4, 4]), 2), float(m[4, 1])
    (0.72, 0.0)
    >>> white = 255 - img
    >>> round(float(ink_map(white, 5, light=True)[4, 4]), 2), float(ink_map(white, 5)[4, 4])
    (0.7, 0.0)
    """
    k = max(3, int(kernel) | 1)
    element = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    if light:
        opened = cv2.morphologyEx(gray_image, cv2.MORPH_OPEN, element)
        out = gray_image.astype(np.float32)
        out += 8.0
        np.divide(cv2.subtract(gray_image, opened), out, out=out)
        return out
    closed = cv2.morphologyEx(gray_image, cv2.MORPH_CLOSE, element)
    # A closing never darkens, so the difference is exact in bytes; one float
    # array is made, not four (fresh memory is dear on a big scan).
    out = closed.astype(np.float32)
    out += 8.0
    np.divide(cv2.subtract(closed, gray_image), out, out=out)
    return out
