"""Halftone screens: whether a scan is printed in dots, and the scan with the dots smoothed away.

Offset printing makes every colour of dots of pure ink on a regular screen (a
period of a few pixels at scanning resolution), so no single pixel has the
colour a person sees: a blue river is cyan and magenta dots, a grid line a
row of black ones with cyan beside them. Read pixel by pixel, such a scan
shows lines everywhere. A person (and a scanner's "descreen" setting) sees
the screen's average instead, which is what a Gaussian blur of about 0.4 of
the screen's period gives: the dots' fundamental frequency is damped to a few
percent while a line a hex's few percent wide keeps its ink.

The screen is found on the hex interiors: where most pixels differ strongly
from their neighbourhood (flat print, even scanned with noise and JPEG, does
not), its period is the peak of the interiors' power spectrum.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.gridfit import GridFit, hex_units

__all__ = ["descreen", "screen_period"]

F64 = NDArray[np.float64]

_PATCH = 64  # side of the square read inside a hex, in pixels
_PATCHES = 24  # hexes read
_DOTTY = 6.0  # median grey-level contrast to the neighbourhood from which a print is screened
_PERIODS = (2.5, 16.0)  # screen periods looked for, in pixels
_SMOOTH = 0.4  # blur sigma, in screen periods


def screen_period(image: NDArray[np.uint8], fit: GridFit) -> float | None:
    """The halftone screen's period in pixels, or ``None`` when the print is not screened.

    Parameters
    ----------
    image
        The scan (RGB).
    fit
        The grid on it: the screen is looked for inside hexes.

    Examples
    --------
    >>> from pipeline.digitize.gridfit import fit_centres
    >>> from pipeline.hexgrid import HexGrid, Orientation
    >>> grid = HexGrid(Orientation.FLAT, cols=4, rows=4)
    >>> uv = hex_units(grid.hexes(), grid.orientation)
    >>> fit = fit_centres(grid, {grid.id(h): (60 + 60 * u, 60 + 60 * v)
    ...                          for h, (u, v) in zip(grid.hexes(), uv)})
    >>> y, x = np.mgrid[0:500, 0:420]
    >>> dots = ((x % 6 < 3) & (y % 6 < 3)) * 200 + 40
    >>> round(screen_period(np.dstack([dots] * 3).astype(np.uint8), fit))
    6
    >>> screen_period(np.full((500, 420, 3), 200, np.uint8), fit) is None
    True
    """
    patches = _interior_patches(image, fit)
    if not patches:
        return None
    contrast = []
    for p in patches:
        contrast.append(float(np.median(np.abs(p - cv2.GaussianBlur(p, (0, 0), 1.5)))))
    if float(np.median(contrast)) < _DOTTY:
        return None
    return _period(patches)


def descreen(image: NDArray[np.uint8], period: float | None) -> NDArray[np.uint8]:
    """The scan with a screen of ``period`` pixels smoothed away (as it is without one).

    >>> img = np.zeros((8, 8, 3), np.uint8); img[::2, ::2] = 255
    >>> int(descreen(img, 2.0)[4, 4, 0]) in range(40, 90), descreen(img, None) is img
    (True, True)
    """
    if period is None:
        return image
    out: NDArray[np.uint8] = np.asarray(
        cv2.GaussianBlur(image, (0, 0), _SMOOTH * period), dtype=np.uint8)
    return out


def _interior_patches(image: NDArray[np.uint8], fit: GridFit) -> list[NDArray[np.float32]]:
    """Grey squares from the middle of hexes spread over the map (those wholly on the image)."""
    hexes = fit.grid.hexes()
    if not hexes:
        return []
    pick = np.linspace(0, len(hexes) - 1, min(_PATCHES, len(hexes))).round().astype(int)
    centres = fit.to_pixel(hex_units([hexes[i] for i in pick], fit.grid.orientation))
    side = int(min(_PATCH, max(32, 0.7 * fit.hex_width)))
    h, w = image.shape[:2]
    out = []
    for x, y in np.rint(centres - side / 2).astype(int).tolist():
        if 0 <= x and 0 <= y and x + side <= w and y + side <= h:
            rgb = np.ascontiguousarray(image[y: y + side, x: x + side])
            out.append(np.asarray(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), np.float32))
    return out


def _period(patches: list[NDArray[np.float32]]) -> float | None:
    """The period at the peak of the patches' summed, radially averaged power spectrum
    (weighted by the frequency)."""
    side = patches[0].shape[0]
    window = np.outer(np.hanning(side), np.hanning(side)).astype(np.float32)
    power = np.zeros((side, side), np.float64)
    for p in patches:
        if p.shape != (side, side):
            continue
        f = np.fft.fftshift(np.fft.fft2((p - p.mean()) * window))
        power += np.abs(f) ** 2
    yy, xx = np.indices(power.shape) - side // 2
    radius = np.hypot(xx, yy)
    rings = np.bincount(np.rint(radius).astype(int).ravel(), weights=power.ravel())
    counts = np.bincount(np.rint(radius).astype(int).ravel())
    # A print's own detail falls off with the frequency; a screen is a
    # peak above that fall.
    mean = rings / np.maximum(counts, 1) * np.arange(len(rings))
    lo, hi = int(np.ceil(side / _PERIODS[1])), int(np.floor(side / _PERIODS[0]))
    if hi <= lo:
        return None
    k = lo + int(np.argmax(mean[lo: hi + 1]))
    # The peak's centre of mass with its two neighbours: a sub-bin frequency.
    near = mean[k - 1: k + 2]
    shift = float((near * np.array([-1, 0, 1])).sum() / max(float(near.sum()), 1e-9))
    return float(side / (k + shift))
