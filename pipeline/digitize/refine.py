"""Local refinement: measure every hex centre on the image, fit the grid to them.

A first guess (from the lattice, from anchors or from a given layout) is good
to a few pixels. Correlating the ink map with the outline of one hex gives a
response that peaks at every hex centre; each hex's peak near its predicted
centre is a measurement, to a tenth of a pixel, and a robust homography
through hundreds of them is the grid as the scan shows it, perspective
included. Rounds with shrinking search windows go from "near" to "exact"
without ever jumping to a neighbouring hex.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.gridfit import apply_homography, fit_affine, robust_homography
from pipeline.digitize.lattice import outline_units
from pipeline.hexgrid import Orientation

__all__ = ["Refined", "measure_centres", "refine", "response_map"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]

# Search windows, as shares of the hex width, round by round.
WINDOWS = (0.22, 0.1, 0.05)


@dataclass(frozen=True)
class Refined:
    """The outcome of refinement, in working-image pixels.

    Attributes
    ----------
    homography
        Pitch units -> working pixels.
    measured
        Which of the hexes gave a usable peak in the last round (and agreed with the fit).
    residual
        RMS distance between the fit and the kept measurements, in working pixels.
    """

    homography: F64
    measured: NDArray[np.bool_]
    residual: float


def response_map(ink: F32, matrix: F64, orientation: Orientation) -> F32:
    """Correlation of the ink map with one hex outline drawn with ``matrix`` (pitch -> px).

    The outline is zero-mean over its support, so flat ink (a dense texture)
    gives no response; only the outline's shape does.
    """
    pts = outline_units(orientation, per_side=48) @ matrix.T
    reach = int(math.ceil(float(np.abs(pts).max()))) + 4
    size = 2 * reach + 1
    kernel = np.zeros((size, size), np.float32)
    x, y = pts[:, 0] + reach, pts[:, 1] + reach
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = (x - x0).astype(np.float32), (y - y0).astype(np.float32)
    for dx, dy, w in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)),
                      (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
        np.add.at(kernel, (y0 + dy, x0 + dx), w)
    kernel = np.asarray(cv2.GaussianBlur(kernel, (0, 0), 1.0), dtype=np.float32)
    yy, xx = np.mgrid[-reach: reach + 1, -reach: reach + 1]
    support = np.hypot(xx, yy) <= reach - 1
    kernel = np.where(support, kernel - kernel[support].mean(), 0).astype(np.float32)
    kernel /= float(np.abs(kernel).sum())
    out = cv2.filter2D(ink, cv2.CV_32F, kernel, borderType=cv2.BORDER_CONSTANT)
    return np.asarray(out, dtype=np.float32)


def measure_centres(response: F32, predicted: F64, reach: int
                    ) -> tuple[F64, F64, NDArray[np.bool_]]:
    """The response peak within ``reach`` pixels of each predicted centre.

    Returns positions (sub-pixel, by a parabola through the peak's neighbours),
    peak values, and whether each is a true local peak inside the window.
    """
    h, w = response.shape
    n = len(predicted)
    ix = np.rint(predicted[:, 0]).astype(np.int64)
    iy = np.rint(predicted[:, 1]).astype(np.int64)
    inside = (ix >= reach + 1) & (ix < w - reach - 1) & (iy >= reach + 1) & (iy < h - reach - 1)
    ix, iy = np.where(inside, ix, reach + 1), np.where(inside, iy, reach + 1)
    off = np.arange(-reach, reach + 1)
    win = response[iy[:, None, None] + off[None, :, None], ix[:, None, None] + off[None, None, :]]
    flat = win.reshape(n, -1)
    best = np.argmax(flat, axis=1)
    j, i = np.divmod(best, 2 * reach + 1)
    ok = inside & (i > 0) & (i < 2 * reach) & (j > 0) & (j < 2 * reach)
    px, py = ix + i - reach, iy + j - reach
    c = response[py, px]
    dx = _vertex(response[py, np.maximum(px - 1, 0)], c, response[py, np.minimum(px + 1, w - 1)])
    dy = _vertex(response[np.maximum(py - 1, 0), px], c, response[np.minimum(py + 1, h - 1), px])
    xy = np.stack([px + dx, py + dy], axis=-1).astype(np.float64)
    return xy, c.astype(np.float64), ok


def _vertex(a: F32, b: F32, c: F32) -> F64:
    d = (a - 2 * b + c).astype(np.float64)
    safe = np.where(d < 0, d, -1.0)
    return np.where(d < 0, 0.5 * (a - c) / safe, 0.0).clip(-0.5, 0.5)


def refine(response: F32, uv: F64, start: F64, hex_width: float, *,
           windows: tuple[float, ...] = WINDOWS) -> Refined | None:
    """Fit a homography (pitch units -> working pixels) to the hex centres the image shows.

    Parameters
    ----------
    response
        :func:`response_map` of the working image.
    uv
        Pitch units of candidate hexes (any hex that may be on the image).
    start
        First guess, 3x3, pitch units -> working pixels.
    hex_width
        Hex width across flats in working pixels (sets the windows).

    Returns ``None`` when too few hexes show a clear outline to fit anything.
    """
    h = start
    measured = np.zeros(len(uv), bool)
    residual = math.inf
    for k, share in enumerate(windows):
        predicted = apply_homography(h, uv)
        reach = max(2, int(math.ceil(share * hex_width)))
        xy, value, ok = measure_centres(response, predicted, reach)
        if ok.sum() < 6:
            return None
        # Weak peaks are hexes off the map or outlines hidden under symbols.
        strong = ok & (value >= 0.35 * float(np.median(value[ok])))
        if strong.sum() < 6:
            return None
        # The first round, from a rough start, fits the stiffer affine grid.
        h, measured = _fit(uv, xy, strong, affine=k == 0 or int(strong.sum()) < 12,
                           floor=max(0.5, 0.02 * hex_width))
        err = np.hypot(*(apply_homography(h, uv[measured]) - xy[measured]).T)
        residual = float(np.sqrt(np.mean(err ** 2)))
    return Refined(h, measured, residual)


def _fit(uv: F64, xy: F64, use: NDArray[np.bool_], *, affine: bool, floor: float
         ) -> tuple[F64, NDArray[np.bool_]]:
    """A robust fit to the ``use`` measurements; returns it and the measurements it kept."""
    idx = np.nonzero(use)[0]
    if affine:
        m = fit_affine(uv[idx], xy[idx])
        err = np.hypot(*(apply_homography(m, uv[idx]) - xy[idx]).T)
        keep = err <= max(1.0, 3.5 * float(np.median(err)))
        h = fit_affine(uv[idx][keep], xy[idx][keep])
    else:
        h, keep = robust_homography(uv[idx], xy[idx], floor=floor)
    kept = np.zeros(len(uv), bool)
    kept[idx[keep]] = True
    return h, kept
