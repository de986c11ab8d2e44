"""Hex patches with the roads and railways painted out, so a hex reads as its ground.

A road or railway crossing a hex says nothing about the hex's terrain, yet it can hold a
large share of a small hex's pixels: a pale road cased in black across a halftone hills
hex pulls its colour statistics toward the paper and its ink density toward woods. A
person reading terrain looks past the line; :func:`paint_out_lines` does the same: the
long thin strokes of the legend's across-hex line colours (a road's fill and casing, a
railway's) are found in each patch and filled from the pixels around them
(``cv2.inpaint``, Telea's method).

A stroke is a connected run of pixels nearer the line's colour than the hex's own median
colour, long (spanning a good part of the hex), thin (little area for its span) and drawn
through the hex (from near its centre out toward a hexside), as roads are drawn. A hex
filled with a colour like the road's has that colour as its median, so nothing in it is
taken for a road; a town's block or a forest icon is short or thick, so it stays.

Not found: a road printed as a row of short dashes (each dash is a short mark) or one that
bends well away from the hex's centre. Such roads are thin and cover little; the learner
reads past them as they are.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.patches import HexFrame, lab_patches
from pipeline.workers import map_blocks

__all__ = ["paint_out_lines", "stroke_mask"]

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
BoolMap = NDArray[np.bool_]
RGB = tuple[int, int, int]

_INNER = 0.85  # the hex's inner part: its outline band is furniture already
_NEAR = 40.0  # Lab distance: at most this far from the line's colour
_MIN_SPAN = 0.45  # of the patch size: shorter runs are marks, not lines
_MAX_WIDTH = 0.16  # of the patch size: area / span above this is a region, not a line
_INPAINT_RADIUS = 3
_OWN_INK = 20.0  # Lab distance: an ink this near the line's colour is the line's own
_THROUGH = 0.35  # a road or railway runs to the hex's centre: some pixel this near it
_REACH = 0.75  # and out toward a hexside: some pixel this far out
_BLOCK = 256  # patches looked through at a time
_GROW = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def stroke_mask(patches: U8, frame: HexFrame, colours: Sequence[RGB],
                ink: Sequence[RGB] = (), *, jobs: int = 1, lab: F32 | None = None) -> BoolMap:
    """Patch pixels on long thin strokes of any of ``colours`` (shape ``(n, size, size)``).

    A stroke's pixels are nearer its colour than the hex's median and than the ``ink``
    (the grid's and the icons' black): the dark edge of a mountain icon is not a brown
    road. An ink colour close to the line's own (a black road) does not compete.

    Examples
    --------
    >>> from pipeline.hexgrid import Orientation
    >>> frame = HexFrame(Orientation.FLAT, 32)
    >>> patch = np.full((1, 32, 32, 3), (120, 160, 90), np.uint8)  # a green hex
    >>> patch[0, 15:18, 3:29] = (240, 235, 210)  # a pale road across it
    >>> mask = stroke_mask(patch, frame, [(239, 232, 209)])
    >>> int(mask[0, 16].sum()) >= 20, bool(mask[0, 5].any())
    (True, False)
    """
    n, size = len(patches), frame.size
    if n == 0 or not colours:
        return np.zeros((n, size, size), bool)
    # A few hundred patches at a time (on ``jobs`` threads): each colour's distances are
    # then a few megabytes, in cache and used again, not hundreds asked for anew.
    return np.concatenate(map_blocks(
        lambda s: _strokes(patches[s], frame, colours, ink, None if lab is None else lab[s]),
        n, _BLOCK, jobs=jobs))


def _strokes(patches: U8, frame: HexFrame, colours: Sequence[RGB], ink: Sequence[RGB],
             lab_given: F32 | None = None) -> BoolMap:
    """:func:`stroke_mask` of one block of patches (``lab_given``: theirs in Lab)."""
    n, size = len(patches), frame.size
    out = np.zeros((n, size, size), bool)
    inner = frame.within(_INNER)
    # Only the inner pixels, and squared distances: each colour's distances to every pixel
    # are then one matrix-vector product, the ink's worked out once for all the colours.
    lab_all = lab_patches(patches) if lab_given is None else lab_given
    lab = lab_all[:, inner].astype(np.float64)  # (n, k, 3)
    median = np.median(lab, axis=1)  # (n, 3)
    from_hex = ((lab - median[:, None, :]) ** 2).sum(axis=-1)
    square = (lab ** 2).sum(axis=-1)

    def from_colour(c: F32) -> NDArray[np.float64]:
        c64 = c.astype(np.float64)
        out: NDArray[np.float64] = square - 2.0 * (lab @ c64) + float(c64 @ c64)
        return out

    line_lab = lab_patches(np.array([colours], np.uint8))[0]  # (k, 3)
    ink_lab = lab_patches(np.array([ink], np.uint8))[0] if ink else np.zeros((0, 3), np.float32)
    from_ink = [from_colour(other) for other in ink_lab]
    near = np.zeros((n, size, size), bool)
    for colour in line_lab:
        from_line = from_colour(colour)
        inside = (from_line < from_hex) & (from_line < _NEAR ** 2)
        for other, away in zip(ink_lab, from_ink, strict=True):
            if np.linalg.norm(other - colour) > _OWN_INK:
                inside &= from_line < away
        near[:, inner] = inside
        for i in np.nonzero(inside.sum(axis=1) >= _MIN_SPAN * size)[0]:
            out[i] |= _long_thin(near[i], frame)
    return out


def paint_out_lines(patches: U8, frame: HexFrame, colours: Sequence[RGB],
                    ink: Sequence[RGB] = (), *, jobs: int = 1, lab: F32 | None = None) -> U8:
    """``patches`` with the long thin strokes of ``colours`` filled from around them.

    ``ink`` is as for :func:`stroke_mask`; ``jobs`` threads work blocks of patches side
    by side (the same pixels whatever their number); ``lab`` is the patches in Lab
    (:func:`~pipeline.digitize.patches.lab_patches`), when the caller has them already.

    Patches without such a stroke are returned as they are (the same pixels); the input
    is not changed.

    Examples
    --------
    >>> from pipeline.hexgrid import Orientation
    >>> frame = HexFrame(Orientation.FLAT, 32)
    >>> patch = np.full((1, 32, 32, 3), (120, 160, 90), np.uint8)
    >>> patch[0, 15:18, 3:29] = (240, 235, 210)
    >>> clean = paint_out_lines(patch, frame, [(239, 232, 209)])
    >>> gap = np.abs(clean[0, 16, 16].astype(int) - (120, 160, 90))
    >>> int(gap.max()) <= 3  # the road's place now holds (nearly) the green
    True
    """
    out = patches.copy()
    if not len(patches) or not colours:
        return out

    def paint(s: slice) -> None:
        mask = _strokes(patches[s], frame, colours, ink, None if lab is None else lab[s])
        for i in np.nonzero(mask.any(axis=(1, 2)))[0]:
            # One pixel more each side: the stroke's anti-aliased edge is neither line nor
            # ground and would otherwise be spread into the hole.
            hole = cv2.dilate(mask[i].astype(np.uint8), _GROW)
            out[s.start + i] = cv2.inpaint(np.ascontiguousarray(patches[s.start + i]), hole,
                                           _INPAINT_RADIUS, cv2.INPAINT_TELEA)

    map_blocks(paint, len(patches), _BLOCK, jobs=jobs)
    return out


def _long_thin(near: BoolMap, frame: HexFrame) -> BoolMap:
    """The connected runs of ``near`` shaped like a line drawn through the hex.

    Long and thin, and running from near the centre out toward a hexside, the way a road
    or railway is drawn from hex to hex: a contour line or a coast is long and thin too,
    but seldom passes through the centre.
    """
    size = frame.size
    count, labels, stats, _ = cv2.connectedComponentsWithStats(near.astype(np.uint8),
                                                               connectivity=8)
    if count <= 1:
        return np.zeros(near.shape, bool)
    index = np.asarray(labels, np.int64).ravel()
    norm = frame.norm.ravel()
    closest = np.full(count, np.inf)
    farthest = np.zeros(count)
    np.minimum.at(closest, index, norm)
    np.maximum.at(farthest, index, norm)
    w, h = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
    span = np.hypot(w, h).astype(np.float64)
    area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    keep = ((span >= _MIN_SPAN * size) & (area <= _MAX_WIDTH * size * span)
            & (closest <= _THROUGH) & (farthest >= _REACH))
    keep[0] = False  # the background
    out: BoolMap = keep[labels]
    return out
