"""Which hexes of a found lattice are the map's, and how they are numbered.

A hex is on the map when its outline is printed: at least five of its six
sides carry ink (one may hide under a symbol or a river's gap). Hexes beyond
the map edge share at most three sides with the map. A sheet may hold more than
the map, though: a terrain key drawn as hexes, a turn track of boxes, a title
block; and a map printed edge to edge has its outer hexes cut by the frame,
showing only the sides they share with the map.

So when the grid's columns and rows are known (``--grid``, ``--cols/--rows``),
:func:`place_grid` slides that many columns and rows over the lattice and keeps
the placement whose hexes show the most outline: every hex scores the share of
its sides inked, less a half, so a map hex counts for it, a cut edge hex a little,
a hex beyond the edge (three shared sides) nothing, and key, margin and table
against. Two placements scoring alike, a printed grid going on beyond the
placement (a line beyond it with many whole printed hexes), or a placement whose
edge shows no more than hexes beyond an edge would are refused: the size or the
stagger is not the map's.

Unknown size: the map is the largest connected field of printed hexes
(:func:`connected_field`; a key or a track stands apart), framed as columns and
rows by :func:`frame_hexes`: the left-most column is column 0, the top row is
row 0, and the stagger is whichever way the columns (or rows) zig and zag.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.gridfit import hex_units
from pipeline.digitize.lattice import outline_units
from pipeline.errors import GridError
from pipeline.hexgrid import Hex, HexGrid, Numbering, Orientation, axial_to_offset

__all__ = ["connected_field", "frame_hexes", "inked_share", "place_grid",
           "present_hexes", "side_scores"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]

_PER_SIDE = 8
_WORDS = {Orientation.FLAT: ("odd-down", "even-down"),
          Orientation.POINTY: ("odd-right", "even-right")}


def side_scores(ink: F32, to_pixel: Callable[[F64], F64], hexes: Sequence[Hex],
                orientation: Orientation) -> F64:
    """Mean ink along the middle of each of six sides, shape ``(n, 6)``.

    ``to_pixel`` maps pitch units to pixels of ``ink``; points off the image score 0.
    """
    outline = outline_units(orientation, per_side=_PER_SIDE, inner=0.2)
    centres = hex_units(hexes, orientation)
    uv = (centres[:, None, :] + outline[None, :, :]).reshape(-1, 2)
    xy = to_pixel(uv)
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


def inked_share(scores: F64, reference: float) -> F64:
    """Share of each hex's six sides that carry ink (above 40% of ``reference``), ``(n,)``."""
    out: F64 = (scores >= 0.4 * reference).sum(axis=1) / 6.0
    return out


_CONTINUES = 0.4  # a line beyond a placement with this share of printed hexes is map
# Printed whole: all six sides inked. A hex beyond an edge shows the three sides it
# shares with the map, and a frame line close by may ink two more, never all six.
_WHOLE = 1.0 - 1e-9
_EDGE = 0.55  # a placement's edge line must be better outlined than hexes beyond an edge
_MARGIN = 0.1  # per hex of the shorter side: how much better the best placement must be


def place_grid(candidates: Sequence[Hex], share: F64, grid: HexGrid, *,
               given: str = "the grid file says") -> Hex:
    """The lattice hex where ``grid``'s first column and row lie: its best placement.

    ``candidates`` are the lattice hexes whose centres lie on the image and
    ``share`` their :func:`inked_share`. Each placement of the grid's columns
    and rows wholly on the image scores the sum of its hexes' shares less a half.
    ``given`` names where the size came from, for messages.

    Raises :class:`GridError` when the other stagger places the grid clearly
    better, when the scan shows a larger printed grid (a line of well outlined
    hexes right beyond the best placement) or a smaller one (an edge line no
    better outlined than hexes beyond an edge), or when two placements are about
    as good.

    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=3, rows=2)
    >>> lattice = [Hex(q, r) for q in range(-1, 5) for r in range(-3, 4)]
    >>> field = {Hex(q + 1, r) for q, r in g.hexes()}  # the map starts one column in
    >>> share = np.array([1.0 if h in field else 0.3 for h in lattice])
    >>> place_grid(lattice, share, g)
    Hex(q=1, r=0)
    """
    shape = np.array([(h.q, h.r) for h in grid.hexes()], np.int64).reshape(-1, 2)
    best, score, second = _placements(candidates, share, shape)
    if best is None:
        raise GridError(f"the scan has no room for {grid.cols} x {grid.rows} hexes on the"
                        f" printed lattice; check the columns and rows ({given}"
                        f" {grid.cols} x {grid.rows})")
    margin = _MARGIN * min(grid.cols, grid.rows)
    hint = _stagger_hint(candidates, share, grid, score + margin)
    lookup = dict(zip(candidates, share.tolist(), strict=True))
    cols, rows, origin = _grown(lookup, grid, best)
    if hint or (cols, rows) != (grid.cols, grid.rows):
        found = sum(1 for c in range(cols) for r in range(rows)
                    if lookup.get(_at(grid, origin, c, r), 0.0) >= 5 / 6)
        raise GridError(f"found {found} hexes in {cols} columns x {rows} rows on the scan,"
                        f" but {given} {grid.cols} x {grid.rows} ({len(grid.hexes())} hexes)"
                        f"{hint}")
    if second > score - margin:
        raise GridError(f"the scan has room for {grid.cols} x {grid.rows} hexes in more than one"
                        " place; give two anchors (--anchor 0101=x,y) to say which")
    return best


def _at(grid: HexGrid, origin: Hex, col: int, row: int) -> Hex:
    h = grid.from_offset(col, row)
    return Hex(origin.q + h.q, origin.r + h.r)


def _placements(candidates: Sequence[Hex], share: F64, shape: NDArray[np.int64]
                ) -> tuple[Hex | None, float, float]:
    """The best placement's origin, its score and the best other placement's score."""
    qr = np.array([(h.q, h.r) for h in candidates], np.int64).reshape(-1, 2)
    lo = qr.min(axis=0) - shape.max(axis=0) - 1
    span = qr.max(axis=0) - shape.min(axis=0) + 2 - lo
    field = np.full((int(span[0]) + 1, int(span[1]) + 1), np.nan)
    field[qr[:, 0] - lo[0], qr[:, 1] - lo[1]] = share - 0.5
    cells = qr[:, None, :] + shape[None, :, :] - lo  # every candidate as the first hex
    inside = ((cells >= 0) & (cells < np.array(field.shape))).all(axis=2)
    cells = np.clip(cells, 0, np.array(field.shape) - 1)
    values = np.where(inside, field[cells[..., 0], cells[..., 1]], np.nan)
    totals = values.sum(axis=1)  # NaN where a hex of the placement is off the image
    valid = np.isfinite(totals)
    if not valid.any():
        return None, -np.inf, -np.inf
    order = np.argsort(-np.where(valid, totals, -np.inf), kind="stable")
    first = int(order[0])
    second = float(totals[order[1]]) if valid.sum() > 1 else -np.inf
    return candidates[first], float(totals[first]), second


def _stagger_hint(candidates: Sequence[Hex], share: F64, grid: HexGrid, beat: float) -> str:
    """A hint to try the other stagger, when it places the grid with a score over ``beat``."""
    parity, direction = grid.numbering.stagger.split("-")
    other = f"{'odd' if parity == 'even' else 'even'}-{direction}"
    flipped = HexGrid(grid.orientation, replace(grid.numbering, stagger=other), grid.cols,
                      grid.rows)
    shape = np.array([(h.q, h.r) for h in flipped.hexes()], np.int64)
    _, flipped_score, _ = _placements(candidates, share, shape)
    if flipped_score > beat:
        lines = "columns" if grid.orientation is Orientation.FLAT else "rows"
        return f"; the {lines} are staggered the other way (try stagger '{other}')"
    return ""


def _grown(lookup: dict[Hex, float], grid: HexGrid, origin: Hex) -> tuple[int, int, Hex]:
    """The printed extent around a placement: lines beyond it added while many of
    their hexes are printed whole (a grid going on; in alternate columns, when the
    stagger is the other way), edge lines dropped while they are outlined no better
    than hexes beyond an edge. Returns columns, rows and the new first hex."""
    c0, r0, c1, r1 = 0, 0, grid.cols, grid.rows

    def line(cols: range, rows: range) -> list[float]:
        values = [lookup[h] for c in cols for r in rows
                  if (h := _at(grid, origin, c, r)) in lookup]
        return values if len(values) * 2 >= len(cols) * len(rows) else []

    def mean(cols: range, rows: range) -> float:
        values = line(cols, rows)
        return float(np.mean(values)) if values else 0.0

    def printed(cols: range, rows: range) -> float:
        values = line(cols, rows)
        return float(np.mean(np.array(values) >= _WHOLE)) if values else 0.0

    for _ in range(4 * (grid.cols + grid.rows)):
        moves = [
            (printed(range(c0 - 1, c0), range(r0, r1)), (-1, 0, 0, 0)),
            (printed(range(c1, c1 + 1), range(r0, r1)), (0, 0, 1, 0)),
            (printed(range(c0, c1), range(r0 - 1, r0)), (0, -1, 0, 0)),
            (printed(range(c0, c1), range(r1, r1 + 1)), (0, 0, 0, 1)),
        ]
        grow = [m for v, m in moves if v >= _CONTINUES]
        shrink = []
        if c1 - c0 > 1:
            shrink += [(mean(range(c0, c0 + 1), range(r0, r1)), (1, 0, 0, 0)),
                       (mean(range(c1 - 1, c1), range(r0, r1)), (0, 0, -1, 0))]
        if r1 - r0 > 1:
            shrink += [(mean(range(c0, c1), range(r0, r0 + 1)), (0, 1, 0, 0)),
                       (mean(range(c0, c1), range(r1 - 1, r1)), (0, 0, 0, -1))]
        weak = [m for v, m in shrink if v < _EDGE]
        steps = grow or weak
        if not steps:
            break
        step = steps[0]
        c0, r0, c1, r1 = c0 + step[0], r0 + step[1], c1 + step[2], r1 + step[3]
    # Re-base on the first hex; an odd column (row) shift keeps the numbering's parity
    # only approximately, which is all an error message needs.
    return c1 - c0, r1 - r0, _at(grid, origin, c0, r0)


def connected_field(hexes: Sequence[Hex], present: NDArray[np.bool_],
                    seeds: Sequence[Hex] = ()) -> list[Hex]:
    """The present hexes joined to ``seeds`` through present neighbours, or, without
    seeds, the largest such connected field.

    Each hex is drawn as a 2 x 1 block at doubled coordinates ``(2q + r, r)``, where
    exactly its six neighbours' blocks touch it edge to edge, and OpenCV labels the
    4-connected pieces.

    >>> row = [Hex(q, 0) for q in range(6)]
    >>> [h.q for h in connected_field(row, np.array([1, 1, 0, 1, 1, 1], bool))]
    [3, 4, 5]
    """
    alive = [h for h, p in zip(hexes, present, strict=True) if p]
    if not alive:
        return []
    qr = np.array(alive, np.int64).reshape(-1, 2)
    x, y = 2 * qr[:, 0] + qr[:, 1], qr[:, 1]
    x0, y0 = int(x.min()), int(y.min())
    blocks = np.zeros((int(y.max()) - y0 + 1, int(x.max()) - x0 + 2), np.uint8)
    blocks[y - y0, x - x0] = 1
    blocks[y - y0, x - x0 + 1] = 1
    _, labels = cv2.connectedComponents(blocks, connectivity=4)
    label = labels[y - y0, x - x0]
    if seeds:
        where = {h: i for i, h in enumerate(alive)}
        wanted = {int(label[where[s]]) for s in seeds if s in where}
        keep = np.isin(label, list(wanted))
    else:
        keep = label == int(np.argmax(np.bincount(label)))
    return sorted(h for h, k in zip(alive, keep, strict=True) if k)


def frame_hexes(found: Sequence[Hex], orientation: Orientation) -> tuple[HexGrid, Hex]:
    """The grid the found hexes make, and the found hex that is its top-left (lattice 0, 0).

    The columns and rows are the found hexes' bounding box, and the stagger is
    the one that frames them best (a grid of known size is placed by
    :func:`place_grid` instead).

    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="odd-down"), cols=4, rows=3)
    >>> grid, origin = frame_hexes(g.hexes(), Orientation.FLAT)
    >>> grid.cols, grid.rows, grid.numbering.stagger, origin
    (4, 3, 'odd-down', Hex(q=0, r=0))
    """
    if not found:
        raise GridError("no hex on the scan has a printed outline; give anchors "
                        "(--anchor 0101=x,y) or a grid file with a layout (--grid)")
    framed = [_frame(found, orientation, s) for s in (1, 0)]
    # Best fill first; ties keep the order above (even-down, the usual way, first).
    origin, cols, rows, parity = max(framed, key=lambda f: len(found) / (f[1] * f[2]))
    numbering = Numbering(stagger=_WORDS[orientation][parity])
    return HexGrid(orientation, numbering, cols, rows), origin


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
