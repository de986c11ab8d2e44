"""What a hex looks like, as numbers: colour, ink, texture, computed on its patch.

Terrain is printed many ways: a flat colour, a colour with tree symbols, black icons over
any colour, sparse coloured dots, a halftone screen, contour lines. One descriptor serves
them all, each group a thing a reader notices:

* ``colour``: robust quantiles of L*, a*, b* over the interior (the fill and its marks);
* ``centre``: the same near the centre, where the hex's own terrain is surest;
* ``ink``: how much of the hex is marked darker or lighter than its paper-like part;
* ``texture``: gradient energy per channel and fine detail (dots, hatching, screens);
* ``pattern``: local binary patterns (edges, spots, flats, lines);
* ``shape``: histograms of oriented gradients on a 4 x 4 grid (which icons, arranged how).

Furniture (ids, centre dots, grid lines; :func:`~pipeline.digitize.patches.furniture`) is
left out of every group.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.order import median as middle
from pipeline.digitize.order import quantile
from pipeline.digitize.patches import HexFrame
from pipeline.workers import map_blocks

__all__ = ["GROUPS", "Descriptors", "describe"]

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
BoolMap = NDArray[np.bool_]

GROUPS = ("colour", "centre", "ink", "texture", "pattern", "shape")
_QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
_INTERIOR = 0.9
_CENTRE = 0.45
_LBP_STEP = 2.0  # L* difference a neighbour must exceed to count as brighter
_HOG_CELLS = 4
_HOG_BINS = 9
# Patches described at a time: every step works on whole arrays of them, and a block this
# size keeps those arrays a few megabytes (in cache, and memory used again rather than
# asked for anew: a map of 3,000 hexes described at once took twice as long).
_BLOCK = 256


@dataclass(frozen=True)
class Descriptors:
    """Descriptors of ``n`` hexes: one row each, columns grouped.

    Attributes
    ----------
    values
        Shape ``(n, d)``.
    groups
        Group name -> the slice of columns it fills.
    """

    values: F64
    groups: dict[str, slice]

    @staticmethod
    def stack(parts: list[Descriptors]) -> Descriptors:
        """Descriptors of several sets of hexes (grouped alike), one after the other."""
        return Descriptors(np.vstack([p.values for p in parts]), parts[0].groups)

    def take(self, names: tuple[str, ...]) -> F64:
        """The columns of some groups, side by side."""
        out: F64 = np.hstack([self.values[:, self.groups[g]] for g in names])
        return out


def describe(lab: F32, frame: HexFrame, mask: BoolMap, *, jobs: int = 1) -> Descriptors:
    """Descriptors of hex patches given in Lab, shape ``(n, size, size, 3)``.

    ``mask`` is the patch pixels that may show terrain (furniture already left out);
    ``jobs`` threads describe blocks of patches side by side (the same numbers whatever
    their number).

    Examples
    --------
    >>> from pipeline.hexgrid import Orientation
    >>> frame = HexFrame(Orientation.FLAT, 16)
    >>> lab = np.zeros((2, 16, 16, 3), np.float32); lab[0, ..., 0], lab[1, ..., 0] = 90, 40
    >>> d = describe(lab, frame, frame.inside)
    >>> d.values[:, d.groups["colour"]][:, 6].round(1).tolist()   # median L* (q50, channel L)
    [90.0, 40.0]
    """
    interior = mask & frame.within(_INTERIOR)
    centre = mask & frame.within(_CENTRE)
    if not centre.any():
        centre = frame.within(_CENTRE)
    blocks = map_blocks(lambda s: _block(lab[s], frame, interior, centre), len(lab), _BLOCK,
                        jobs=jobs)
    groups, start = {}, 0
    for name in GROUPS:
        width = blocks[0][name].shape[1]
        groups[name] = slice(start, start + width)
        start += width
    return Descriptors(np.vstack([np.hstack([b[g] for g in GROUPS]) for b in blocks]), groups)


def _block(lab: F32, frame: HexFrame, interior: BoolMap, centre: BoolMap) -> dict[str, F64]:
    """Each group's columns for one block of patches."""
    return {
        "colour": _quantiles(lab, interior, _QUANTILES),
        "centre": _quantiles(lab, centre, (0.25, 0.5, 0.75)),
        "ink": _ink(lab[..., 0], interior),
        "texture": _texture(lab, interior),
        "pattern": _lbp(lab[..., 0], interior),
        "shape": _hog(lab[..., 0], frame.within(0.95)),
    }


def _quantiles(lab: F32, where: BoolMap, qs: tuple[float, ...]) -> F64:
    """Quantiles per patch and channel, interpolated as ``np.quantile``'s default: one sort
    serves them all (three times faster than its partitions here)."""
    ordered = np.sort(lab[:, where, :], axis=1)  # (n, k, 3)
    at = np.asarray(qs) * (ordered.shape[1] - 1)
    below = np.floor(at).astype(np.int64)
    above = np.minimum(below + 1, ordered.shape[1] - 1)
    low = ordered[:, below, :].astype(np.float64)
    q = low + (ordered[:, above, :] - low) * (at - below)[None, :, None]  # (n, len(qs), 3)
    out: F64 = q.reshape(len(lab), -1)
    return out


def _ink(light: F32, where: BoolMap) -> F64:
    vals = light[:, where]
    ordered = np.sort(vals, axis=1)  # one sort for both, NumPy's numbers to the bit
    paper = quantile(vals, 0.75, ordered)[:, None]
    median = middle(vals, ordered)[:, None]
    cols = [((paper - vals) > 12).mean(axis=1), ((paper - vals) > 30).mean(axis=1),
            (vals < 35).mean(axis=1), ((vals - median) > 12).mean(axis=1)]
    out: F64 = np.stack(cols, axis=-1).astype(np.float64)
    return out


def _texture(lab: F32, where: BoolMap) -> F64:
    cols = []
    inner = where[1:-1, 1:-1]
    for c in range(3):
        ch = lab[..., c]
        gx = ch[:, 1:-1, 2:] - ch[:, 1:-1, :-2]
        gy = ch[:, 2:, 1:-1] - ch[:, :-2, 1:-1]
        g = np.hypot(gx, gy)[:, inner]
        cols.append(g.mean(axis=1))
        if c == 0:
            cols.append(quantile(g, 0.9))
    light = lab[..., 0]
    blur = np.stack([cv2.GaussianBlur(p, (0, 0), 1.2) for p in light])
    cols.append(np.abs(light - blur)[:, where].mean(axis=1))
    out: F64 = np.stack(cols, axis=-1).astype(np.float64)
    return out


def _lbp(light: F32, where: BoolMap) -> F64:
    """Uniform local binary patterns (8 neighbours, radius 1): a 10-bin histogram."""
    h, w = light.shape[1:]
    centre = light[:, 1:-1, 1:-1] + _LBP_STEP
    shifts = ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1))
    # The eight comparisons packed into a byte, each byte's pattern looked up.
    byte = np.zeros(centre.shape, np.uint8)
    for k, (dy, dx) in enumerate(shifts):
        byte |= (light[:, 1 + dy:h - 1 + dy, 1 + dx:w - 1 + dx] >= centre).astype(np.uint8) << k
    code = _UNIFORM[byte[:, where[1:-1, 1:-1]]]
    n = len(light)
    counts = np.bincount((np.arange(n)[:, None] * 10 + code).ravel(), minlength=n * 10)
    out: F64 = counts.reshape(n, 10) / max(code.shape[1], 1)
    return out


def _uniform_table() -> NDArray[np.int64]:
    """Each 8-bit neighbourhood's pattern: its count of brighter neighbours if it changes
    at most twice round the circle (a uniform pattern), else 9."""
    bits = (np.arange(256)[:, None] >> np.arange(8)) & 1
    changes = (bits != np.roll(bits, 1, axis=1)).sum(axis=1)
    out: NDArray[np.int64] = np.where(changes <= 2, bits.sum(axis=1), 9).astype(np.int64)
    return out


_UNIFORM = _uniform_table()


def _hog(light: F32, where: BoolMap) -> F64:
    """Oriented-gradient histograms on a 4 x 4 grid of cells, each cell L2-normalised."""
    n, h, w = light.shape
    gx = np.zeros_like(light)
    gy = np.zeros_like(light)
    gx[:, :, 1:-1] = light[:, :, 2:] - light[:, :, :-2]
    gy[:, 1:-1, :] = light[:, 2:, :] - light[:, :-2, :]
    mag = np.hypot(gx, gy) * where
    b = _orientation_bins(gx, gy)
    cell = (np.arange(h) * _HOG_CELLS // h)[:, None] * _HOG_CELLS + (
        np.arange(w) * _HOG_CELLS // w)[None, :]
    cells = _HOG_CELLS * _HOG_CELLS
    index = (np.arange(n)[:, None, None] * cells + cell[None]) * _HOG_BINS + b
    hist = np.bincount(index.ravel(), weights=mag.ravel().astype(np.float64),
                       minlength=n * cells * _HOG_BINS).reshape(n, cells, _HOG_BINS)
    hist /= np.sqrt((hist ** 2).sum(axis=-1, keepdims=True)) + 10.0
    out: F64 = hist.reshape(n, -1)
    return out


# OpenCV's quick angle is within 0.3 degrees of the true one (its documentation): a gradient
# farther than this from a bin's start (in radians, 0.57 degrees) is binned by it alone.
_NEAR_START = 0.01


def _orientation_bins(gx: F32, gy: F32) -> NDArray[np.int64]:
    """The bin of each gradient's orientation: ``floor(mod(arctan2(gy, gx), pi) / pi * bins)``.

    The same bins, to the last pixel, at a tenth of NumPy's arc tangent's time: OpenCV's
    quick angle bins every gradient that lies clear of a bin's start by more than its
    error, and the few that do not (about one in twenty) are binned by the arc tangent as
    before.

    >>> gx = np.array([1.0, 0.0, -1.0, 1.0, -1.0, 0.0], np.float32)
    >>> gy = np.array([0.0, 1.0, 0.0, -1.0, 1e-3, 0.0], np.float32)
    >>> _orientation_bins(gx, gy).tolist()   # 0, 90, 180 (= 0), -45 (= 135), 179.9, none
    [0, 4, 0, 6, 8, 0]
    """
    shape = gx.shape
    flat_x = np.ascontiguousarray(gx, np.float32).reshape(-1, shape[-1])
    flat_y = np.ascontiguousarray(gy, np.float32).reshape(-1, shape[-1])
    angle = np.asarray(cv2.phase(flat_x, flat_y), np.float32).reshape(shape)  # 0 to 2 pi
    angle = np.where(angle >= np.float32(math.pi), angle - np.float32(math.pi), angle)
    at = angle * np.float32(_HOG_BINS / math.pi)  # in bins
    bins = np.clip(at.astype(np.int64), 0, _HOG_BINS - 1)
    near = np.abs(at - np.rint(at)) <= np.float32(_NEAR_START * _HOG_BINS / math.pi)
    near &= gy != 0  # level (or none): 0 or 180 degrees, bin 0 both ways
    if near.any():
        exact = np.mod(np.arctan2(gy[near], gx[near]), np.pi)
        bins[near] = np.minimum((exact / np.pi * _HOG_BINS).astype(np.int64), _HOG_BINS - 1)
    return bins
