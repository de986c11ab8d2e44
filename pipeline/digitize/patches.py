"""Hex patches: every hex of a scan resampled into one small square picture in its own frame.

A person judges a hex by looking at it whole; so does the terrain learner. Each hex is
resampled into a ``size x size`` patch in the hex's *regular* frame (corners at radius 1),
whatever the scan's scale, turn, shear or perspective, so the same terrain gives the same
patch on every part of the sheet and on every scan of the map. The image is first reduced
(area averaging) to about the patch's scale, which also melts halftone screens and fine
stipple into the colour a reader sees.

:class:`HexFrame` knows the geometry of that frame: which patch pixels are inside the hex,
how far each is from the centre (in the hex's own norm), and where the hexside midpoints are.
:func:`furniture` finds what is printed in the same place in nearly every hex (hex ids,
centre dots, the grid's own lines): it says nothing about terrain and is masked.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.gridfit import GridFit, hex_units
from pipeline.hexgrid import Hex, Orientation

__all__ = ["PATCH", "HexFrame", "furniture", "hex_patches", "image_scale", "lab_patches"]

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]
BoolMap = NDArray[np.bool_]

PATCH = 32
_LAB_STEP = 262_144  # pixels converted to Lab at a time
_ROOT3 = math.sqrt(3.0)
_FURNITURE_SHARE = 0.5  # printed at a place in more than half the hexes: not terrain
_FURNITURE_CONTRAST = 18.0  # Lab L* away from the hex's own median
_REMAP_ROWS = 16_000
_CELL_CENTRE = 0.42
_CELL_RING = 0.92


@dataclass(frozen=True)
class HexFrame:
    """The square frame hexes are resampled into.

    The patch covers ``[-1, 1]`` in both directions in units of the hex's circumradius,
    a regular hex of that radius centred in it (flat- or pointy-topped as the map is).

    Examples
    --------
    >>> frame = HexFrame(Orientation.FLAT, 32)
    >>> bool(frame.norm[16, 16] < 0.1), bool(frame.inside[0, 16]), bool(frame.inside[16, 0])
    (True, False, True)
    """

    orientation: Orientation
    size: int = PATCH
    xy: F64 = field(init=False, repr=False, compare=False)
    norm: F64 = field(init=False, repr=False, compare=False)
    _midpoints: F64 = field(init=False, repr=False, compare=False)
    _corners: F64 = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        s = (np.arange(self.size) + 0.5) / self.size * 2 - 1
        x, y = np.meshgrid(s, s)
        object.__setattr__(self, "xy", np.stack([x, y], axis=-1))
        if self.orientation is Orientation.POINTY:
            x, y = y, x
        # The hex's own norm: 1 on its outline, 0 at the centre (flat-topped form).
        norm = np.maximum(np.abs(y) / (_ROOT3 / 2), (_ROOT3 * np.abs(x) + np.abs(y)) / _ROOT3)
        object.__setattr__(self, "norm", norm)
        mids, corners = self._outline()
        mids.setflags(write=False)
        corners.setflags(write=False)
        object.__setattr__(self, "_midpoints", mids)
        object.__setattr__(self, "_corners", corners)

    @property
    def inside(self) -> BoolMap:
        """Patch pixels inside the hex."""
        out: BoolMap = self.norm <= 1.0
        return out

    def within(self, share: float) -> BoolMap:
        """Patch pixels inside the hex shrunk to ``share`` of its size about the centre."""
        out: BoolMap = self.norm <= share
        return out

    def pitch_offsets(self) -> F64:
        """Each patch pixel's offset from the hex centre in pitch units, shape ``(size^2, 2)``."""
        x, y = self.xy[..., 0].ravel(), self.xy[..., 1].ravel()
        if self.orientation is Orientation.FLAT:
            return np.stack([x / 1.5, y / _ROOT3], axis=-1)
        return np.stack([x / _ROOT3, y / 1.5], axis=-1)

    def midpoints(self) -> F64:
        """The six hexside midpoints in patch pixels ``(6, 2)``, clockwise from the top."""
        return self._midpoints

    def corners(self) -> F64:
        """The six corners in patch pixels ``(6, 2)``."""
        return self._corners

    def _outline(self) -> tuple[F64, F64]:
        """:meth:`midpoints` and :meth:`corners`, worked out once a frame (the drawings of
        the examples ask for them thousands of times)."""
        angles = np.deg2rad(np.arange(6) * 60.0 - 90.0)
        if self.orientation is Orientation.POINTY:
            angles = angles + math.pi / 6
        r = _ROOT3 / 2
        pts = np.stack([r * np.cos(angles), r * np.sin(angles)], axis=-1)
        mids: F64 = (pts + 1) / 2 * self.size - 0.5
        angles = np.deg2rad(np.arange(6) * 60.0)
        if self.orientation is Orientation.POINTY:
            angles = angles + math.pi / 6
        pts = np.stack([np.cos(angles), np.sin(angles)], axis=-1)
        corners: F64 = (pts + 1) / 2 * self.size - 0.5
        return mids, corners

    def cells(self) -> NDArray[np.int64]:
        """Seven cells of the hex: 0 the centre, 1-6 the ring towards each hexside; -1 outside.

        The centre is within 0.42 of the hex's size; the ring reaches 0.92 (the grid line and
        the neighbour beyond it are left out). Cell ``k`` lies towards hexside midpoint
        ``k - 1`` of :meth:`midpoints`.

        >>> cells = HexFrame(Orientation.FLAT, 32).cells()
        >>> sorted(set(cells.ravel().tolist()))
        [-1, 0, 1, 2, 3, 4, 5, 6]
        """
        x, y = self.xy[..., 0], self.xy[..., 1]
        first = -90.0 if self.orientation is Orientation.FLAT else -60.0
        angle = np.mod(np.degrees(np.arctan2(y, x)) - first + 30.0, 360.0)
        sector = (angle // 60.0).astype(np.int64) + 1
        out: NDArray[np.int64] = np.where(self.norm <= _CELL_CENTRE, 0,
                                          np.where(self.norm <= _CELL_RING, sector, -1))
        return out

    @property
    def pixel(self) -> float:
        """One patch pixel in units of the hex's circumradius."""
        return 2.0 / self.size


def image_scale(fit: GridFit, size: int = PATCH) -> float:
    """How much to reduce the scan so a hex spans about ``size`` pixels corner to corner."""
    radius = fit.hex_width / _ROOT3
    return min(1.0, size / max(2.0 * radius, 1e-6))


def hex_patches(image: U8, fit: GridFit, hexes: Sequence[Hex], frame: HexFrame,
                reduced: tuple[U8, float] | None = None) -> U8:
    """Each hex resampled into the frame: RGB ``uint8``, shape ``(n, size, size, 3)``.

    ``reduced`` is the image already reduced by :func:`image_scale` and that scale,
    to share the reduction between calls.
    """
    small, f = reduced if reduced is not None else reduce(image, image_scale(fit, frame.size))
    centres = hex_units(list(hexes), frame.orientation)
    offsets = frame.pitch_offsets()
    n, k = len(centres), len(offsets)
    out = np.empty((n, frame.size, frame.size, 3), np.uint8)
    # One map row a hex (OpenCV's remap takes maps under 32,767 rows and columns), and a
    # quarter of a million positions a call: their coordinates are then a few megabytes,
    # used again from call to call rather than asked for anew.
    step = max(1, min(_REMAP_ROWS, 262_144 // max(k, 1)))
    for s in range(0, n, step):
        uv = (centres[s:s + step, None, :] + offsets[None, :, :]).reshape(-1, 2)
        xy = fit.to_pixel(uv) * f + (f - 1) / 2  # pixel centres of the reduced image
        mx = xy[:, 0].astype(np.float32).reshape(-1, k)
        my = xy[:, 1].astype(np.float32).reshape(-1, k)
        got = cv2.remap(small, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        out[s:s + step] = np.asarray(got, np.uint8).reshape(-1, frame.size, frame.size, 3)
    return out


def reduce(image: U8, scale: float) -> tuple[U8, float]:
    """The image reduced by ``scale`` (area averaging), and the scale actually used."""
    if scale >= 1.0:
        return image, 1.0
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
    return small, size[0] / w


def lab_patches(patches: U8) -> NDArray[np.float32]:
    """Patches in CIE Lab (L 0-100), same shape, float32."""
    out = np.empty(patches.shape, np.float32)
    pixels, lab = patches.reshape(-1, 3), out.reshape(-1, 3)
    # A quarter of a million pixels at a time: the floats in between stay a few megabytes.
    for s in range(0, len(pixels), _LAB_STEP):
        x = pixels[s:s + _LAB_STEP].reshape(-1, 1, 3).astype(np.float32) / 255.0
        lab[s:s + _LAB_STEP] = np.asarray(cv2.cvtColor(x, cv2.COLOR_RGB2Lab)).reshape(-1, 3)
    return out


def furniture(lab: NDArray[np.float32], frame: HexFrame) -> BoolMap:
    """Patch pixels where most hexes print the same thing: ids, centre dots, grid lines.

    A pixel is furniture when its lightness differs from its hex's median by more
    than a printed mark does from paper in more than half of the hexes (dark ids on
    light paper and white ids on dark fills alike). The outline's own band is always
    furniture.
    """
    light = lab[..., 0]
    median = np.median(light.reshape(len(light), -1), axis=1)[:, None, None]
    marked = np.abs(light - median) > _FURNITURE_CONTRAST
    out: BoolMap = (marked.mean(axis=0) > _FURNITURE_SHARE) | ~frame.within(0.9)
    return out
