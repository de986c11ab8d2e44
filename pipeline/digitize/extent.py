"""Which hexes of a found lattice are the map's, and how they are numbered.

A hex is on the map when its outline is printed: at least five of its six
sides carry ink (one may hide under a symbol or a river's gap). Hexes beyond
the map edge share at most three sides with the map. The hexes found are then
framed as the grid's columns and rows: the left-most column is column 0, the
top row is row 0, and the stagger is whichever way the columns (or rows) zig
and zag. A grid given by the user (``--grid``) must agree with what is found.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.gridfit import apply_homography, hex_units
from pipeline.digitize.lattice import outline_units
from pipeline.errors import GridError
from pipeline.hexgrid import Hex, HexGrid, Numbering, Orientation, axial_to_offset

__all__ = ["frame_hexes", "present_hexes", "side_scores"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]

_PER_SIDE = 8
_WORDS = {Orientation.FLAT: ("odd-down", "even-down"),
          Orientation.POINTY: ("odd-right", "even-right")}


def side_scores(ink: F32, homography: F64, hexes: Sequence[Hex], orientation: Orientation
                ) -> F64:
    """Mean ink along the middle of each of six sides, shape ``(n, 6)``.

    ``homography`` maps pitch units to pixels of ``ink``; points off the image score 0.
    """
    outline = outline_units(orientation, per_side=_PER_SIDE, inner=0.2)
    centres = hex_units(hexes, orientation)
    uv = (centres[:, None, :] + outline[None, :, :]).reshape(-1, 2)
    xy = apply_homography(homography, uv)
    h, w = ink.shape
    ix, iy = np.rint(xy[:, 0]).astype(np.int64), np.rint(xy[:, 1]).astype(np.int64)
    inside = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    # A 3x3 maximum forgives a sample landing beside a thin line; taken at the
    # samples only, not over the whole map (the layout search asks up to 19 times).
    spread = np.full(len(ix), -np.inf, np.float32)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            np.maximum(spread, ink[np.clip(iy + dy, 0, h - 1), np.clip(ix + dx, 0, w - 1)],
                       out=spread)
    values = np.where(inside, spread, 0.0)
    out: F64 = values.reshape(len(hexes), 6, _PER_SIDE).mean(axis=2).astype(np.float64)
    return out


def present_hexes(scores: F64, reference: float) -> NDArray[np.bool_]:
    """Hexes with ink on at least five sides (a side counts above 40% of ``reference``)."""
    inked = scores >= 0.4 * reference
    out: NDArray[np.bool_] = inked.sum(axis=1) >= 5
    return out


MIN_FOUND = 0.95  # share of a given grid's hexes whose outlines must be found


def frame_hexes(found: Sequence[Hex], orientation: Orientation, spec: HexGrid | None
                ) -> tuple[HexGrid, Hex]:
    """The grid the found hexes make, and the found hex that is its top-left (lattice 0, 0).

    With ``spec`` (orientation, numbering and size the user gave) the found
    hexes must fill exactly its columns and rows (less its excluded hexes);
    without, the stagger is the one that frames them best.
    """
    if not found:
        raise GridError("no hex on the scan has a printed outline; give anchors "
                        "(--anchor 0101=x,y) or a grid file with a layout (--grid)")
    if spec is not None and spec.orientation is not orientation:
        raise GridError(f"the scan shows a {orientation.value}-top grid, but the grid file says"
                        f" {spec.orientation.value}-top")
    parities = (spec.numbering.shifted_parity(),) if spec is not None else (1, 0)
    framed = [_frame(found, orientation, s) for s in parities]
    # Best fill first; ties keep the order above (even-down, the usual way, first).
    origin, cols, rows, parity = max(framed, key=lambda f: len(found) / (f[1] * f[2]))
    if spec is None:
        numbering = Numbering(stagger=_WORDS[orientation][parity])
        return HexGrid(orientation, numbering, cols, rows), origin
    grid = HexGrid(orientation, spec.numbering, spec.cols, spec.rows, spec.exclude)
    expected = len(grid.hexes())
    # The grid file states the extent; the outlines found only place it. A few
    # outlines lost to a crease or a stain do not make the frame wrong.
    if (cols, rows) != (spec.cols, spec.rows) or not (
            MIN_FOUND * expected <= len(found) <= expected):
        other = _frame(found, orientation, 1 - parity)
        hint = ""
        if (other[1], other[2]) == (spec.cols, spec.rows) and len(found) == expected:
            hint = (f"; the columns are staggered the other way (try stagger"
                    f" '{_WORDS[orientation][1 - parity]}')")
        raise GridError(f"found {len(found)} hexes in {cols} columns x {rows} rows on the scan,"
                        f" but the grid file says {spec.cols} x {spec.rows} ({expected} hexes)"
                        f"{hint}")
    return grid, origin


def _frame(found: Sequence[Hex], orientation: Orientation, parity: int
           ) -> tuple[Hex, int, int, int]:
    """Top-left origin and size of the found hexes' bounding box of columns and rows."""
    q = np.array([h.q for h in found])
    r = np.array([h.r for h in found])
    if orientation is Orientation.FLAT:
        q0 = int(q.min())
        r0 = int(min(axial_to_offset(Hex(int(a) - q0, int(b)), orientation, parity)[1]
                     for a, b in zip(q, r, strict=True)))
        origin = Hex(q0, r0)
    else:
        r0 = int(r.min())
        q0 = int(min(axial_to_offset(Hex(int(a), int(b) - r0), orientation, parity)[0]
                     for a, b in zip(q, r, strict=True)))
        origin = Hex(q0, r0)
    offsets = [axial_to_offset(Hex(h.q - origin.q, h.r - origin.r), orientation, parity)
               for h in found]
    cols = max(c for c, _ in offsets) + 1
    rows = max(rw for _, rw in offsets) + 1
    if min(c for c, _ in offsets) < 0 or min(rw for _, rw in offsets) < 0:
        raise AssertionError("framing put a hex before column or row 0")  # pragma: no cover
    return origin, cols, rows, parity
