"""Where the printer put thin dark lines: the ink map the grid is found in.

A grid line is darker than the paper or fill on both sides of it, and thin.
A morphological closing removes thin dark strokes and keeps everything wider
than its kernel, so ``(closing - gray) / closing`` is how much darker a pixel
is than its surroundings, relative to them: about the same for a black line
on pale clear terrain and on dark woods, and indifferent to uneven light
(both terms dim together). Borders between two fills are steps, not strokes,
and leave no ink.

Working images are reduced with ``INTER_AREA``; :class:`Scale` converts
positions between the working image and the scan.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["Scale", "gray", "ink_map", "reduce"]

F32 = NDArray[np.float32]


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


def ink_map(gray_image: NDArray[np.uint8], kernel: int) -> F32:
    """Relative darkness of thin strokes (0 = none, up to 1 = black on white).

    Parameters
    ----------
    gray_image
        A gray image.
    kernel
        Width in pixels of the widest stroke to keep (odd, at least 3).

    Examples
    --------
    >>> img = np.full((9, 9), 200, np.uint8); img[:, 4] = 50
    >>> m = ink_map(img, 5)
    >>> round(float(m[4, 4]), 2), float(m[4, 1])
    (0.72, 0.0)
    """
    k = max(3, int(kernel) | 1)
    element = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    closed = cv2.morphologyEx(gray_image, cv2.MORPH_CLOSE, element)
    closed_f = closed.astype(np.float32)
    return np.asarray((closed_f - gray_image.astype(np.float32)) / (closed_f + 8.0),
                      dtype=np.float32)
