"""Read a pixel as a fill plus a line: which printed line it shows, and how much of it.

A thin printed line, once blurred and JPEG-compressed, is rarely its own
colour: it is a blend of the line and the fill around it, and JPEG moves its
hue further towards the fill. So a pixel is read against its hex's own fill
``B`` (measured by :mod:`~pipeline.digitize.classify`): for each candidate
line colour ``F`` the pixel is written as ``B + a (F - B)`` plus a residual;
it is named after the candidate leaving the smallest residual, and ``a`` (the
share of the line in the pixel) is its strength. A faint brown trail and a
blurred black grid line over yellow ground differ in *direction* from ``B``
even when their colours are close.

Two refinements keep fills from passing for lines:

* near a hexside the pixel may also hold some of the neighbouring hex's fill
  (``+ c (other - B)``): where red town, green wood and a black grid line blur
  together the brown that results is explained by ink and the two fills, not
  by a brown bar;
* a textured fill prints symbols in a second colour (waves on water), which
  the legend lists; a pixel best explained as the fill's own symbol colour
  shows no line.

The fills, the hex's own colours and the grid's come from the scan itself
where the caller measures them: the ground beside each hexside
(:meth:`LineReader.local_fills`), each hex's ground and texture
(:meth:`LineReader.use_grounds`, :meth:`LineReader.use_textures`), the grid's
colour as printed (:meth:`LineReader.grid_ink`).

Strength integrated across a line survives blur, so :meth:`Reading.mass`
(summed strength times spacing) is the line's width in hex widths: a thin
black line blurred into a brown smear still weighs no more than a thin line.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.colours import INK, to_lab
from pipeline.digitize.legend import RGB, Legend
from pipeline.digitize.light import Light
from pipeline.digitize.scanfile import read_pixels
from pipeline.hexgrid import Hex, Hexside

__all__ = ["GRID", "Fills", "LineColours", "LineReader", "Points", "Reading", "explain"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
I64 = NDArray[np.int64]
Colour = tuple[float, float, float]
Points = NDArray[np.floating[Any]]
"""Pixel positions ``(..., 2)`` (x, y), single or double precision."""
GRID = "grid"
"""The owner of the grid's colours as measured on the scan (see :meth:`LineReader.grid_ink`)."""
Fills = Mapping[Hex, tuple[str, Colour]]
"""Each map hex's terrain and measured fill colour (RGB, light corrected)."""

_WEAK = 0.2  # share of line colour under which a pixel shows no line
_QUIET = 6.0  # Lab distance from the fill under which a pixel shows no line at all
_DISTINCT = 25.0  # squared Lab distance under which two colours count as one
_SPILL_MAX = 0.5  # most of a pixel beside the hexside that the neighbouring fill can be
_FAR = 1.0e4  # a Lab colour no pixel is near
_SAME_AS_LINE = 10.0  # Lab distance under which a hex's own colour is a line's
_CASED = (0.15, 0.3, 0.45)  # shares of a cased line's edge colour in its blurred pixels
_BLOCK = 32_768  # points read at a time: small enough for the working arrays to stay in cache


class LineColours:
    """Candidate line colours in Lab (the named features, then the inks), and whose each is.

    ``inks`` are the grid's colours as measured on the scan (see
    :meth:`LineReader.grid_ink`), owned by :data:`GRID`: a white grid printed
    on dark ground, or a black one screened into dots, is no line either.
    """

    def __init__(self, legend: Legend, names: list[str], inks: F32 | None = None) -> None:
        colours: list[RGB] = []
        owners: list[str] = []
        for n in names:
            own = list(legend.features[n].colours)
            # A cased line, blurred, is its colour and its edges' mixed.
            own += [_mix(c, k, w) for c in legend.features[n].colours
                    for k in legend.features[n].casing for w in _CASED]
            colours += own
            owners += [n] * len(own)
        colours.append(legend.ink)
        owners.append(INK)
        lab = to_lab(np.array(colours, float))
        if inks is not None and len(inks):
            lab = np.concatenate([lab, np.asarray(inks, np.float32).reshape(-1, 3)])
            owners += [GRID] * len(inks.reshape(-1, 3))
        self.lab: F32 = lab
        self.owners = owners


@dataclass(frozen=True)
class Reading:
    """What sample points ``(sides, places, across)`` show.

    Attributes
    ----------
    label
        Index into ``owners`` of the line each point shows, -1 for none.
    strength
        How much of that line each point holds (0 to 1).
    spacing
        Pixels between neighbouring points across a place.
    owners
        The candidates' names.
    pairs
        ``(sides, 2)``: each hexside's two terrains, as sorted indices.
    width
        Hex width in pixels.
    """

    label: I64
    strength: F32
    spacing: float
    owners: list[str]
    pairs: I64
    width: float

    def mass(self, name: str) -> F64:
        """Width of ``name``'s line at each place, in hex widths, shape ``(sides, places)``.

        Every colour of the feature counts.
        """
        out: F64 = self._masses[[i for i, o in enumerate(self.owners) if o == name]].sum(axis=0)
        return out

    @cached_property
    def _masses(self) -> F64:
        """Width of each candidate colour's line at each place, ``(colours, sides, places)``.

        All at once: features are weighed against each other many times over.
        """
        n, p = self.label.shape[:2]
        k = len(self.owners)
        cell = np.arange(n * p).reshape(n, p, 1) * k + self.label
        shown = self.label >= 0
        sums = np.bincount(cell[shown], weights=self.strength[shown], minlength=n * p * k)
        out: F64 = sums.reshape(n, p, k).transpose(2, 0, 1) * (self.spacing / self.width)
        return out

    def line_mass(self) -> F64:
        """Width of all lines together at each place, in hex widths."""
        out: F64 = np.where(self.label >= 0, self.strength, 0.0).sum(axis=2) * (
            self.spacing / self.width)
        return out

    def dominant(self, name: str, rivals: list[str]) -> NDArray[np.bool_]:
        """Places where ``name`` outweighs every rival (the heavier line is the printed one)."""
        best = np.max([self.mass(r) for r in rivals], axis=0)
        out: NDArray[np.bool_] = self.mass(name) >= best
        return out


class LineReader:
    """Reads sample points around hexsides, each against the fill of the hex it lies in.

    Parameters
    ----------
    image, light
        The scan, and the light to correct its colours by.
    sides
        The hexsides the sample points belong to (one row each).
    fills
        Each map hex's terrain and fill; hexes off the map are read against paper.
    legend
        For the paper colour and the terrains' symbol colours.
    width
        Hex width in pixels.
    """

    def __init__(self, image: NDArray[np.uint8], light: Light, sides: list[Hexside],
                 fills: Fills, legend: Legend, width: float,
                 textures: Mapping[Hex, F32] | None = None) -> None:
        self.image, self.light, self.width = image, light, width
        paper = to_lab(np.array([legend.paper], float))[0]
        # Indexed [0 for hex a, 1 for hex b, hexside]: fills (n, 3), symbols (n, m, 3).
        self.fill = np.stack([_fill_lab([s.a for s in sides], fills, paper),
                              _fill_lab([s.b for s in sides], fills, paper)])
        self._sides, self._fills, self._legend, self._paper = sides, fills, legend, paper
        self._tables: tuple[F32, I64, I64] | None = None
        self._textures = textures or {}
        self.pairs = _pairs(sides, fills)

    def use_grounds(self, grounds: Mapping[Hex, F32]) -> None:
        """Read against each hex's ground as measured (Lab, by hex) rather than its fill."""
        for k, hexes in enumerate(([s.a for s in self._sides], [s.b for s in self._sides])):
            rows = [i for i, h in enumerate(hexes) if h in grounds]
            if rows:
                self.fill[k, rows] = np.stack([grounds[hexes[i]] for i in rows])

    def use_textures(self, textures: Mapping[Hex, F32]) -> None:
        """Know each hex's texture colours (Lab) as its own, not lines."""
        self._textures, self._tables = textures, None

    @property
    def symbols(self) -> F32:
        """Per hexside side, the colours its hex prints besides lines, Lab ``(2, n, m, 3)``."""
        palette, own, _ = self._symbol_tables()
        out: F32 = palette[own]
        return out

    @property
    def textures(self) -> F32:
        """Per hexside side, its hex's texture colours alone, Lab ``(2, n, k, 3)``."""
        palette, _, alone = self._symbol_tables()
        out: F32 = palette[alone]
        return out

    def _symbol_tables(self) -> tuple[F32, I64, I64]:
        if self._tables is None:
            self._tables = _symbol_colours(self._sides, self._fills, self._legend, self._paper,
                                           self._textures)
        return self._tables

    def lab(self, xy: Points) -> F32:
        """Light-corrected Lab colours of points ``(n, ..., 2)``, shape ``(n, ..., 3)``.

        The light changes slowly: one gain for each ``n``, taken at its first point.
        """
        rows = xy.reshape(len(xy), -1, 2)
        first = rows[:, 0].astype(np.float64)
        gain = self.light.gain(first[:, 0], first[:, 1]).astype(np.float32)
        rgb = read_pixels(self.image, cast(F64, rows)).astype(np.float32) / gain[:, None, :]
        out: F32 = to_lab(rgb.reshape(-1, 3)).reshape(*xy.shape[:-1], 3)
        return out

    def local_fills(self, xy: Points) -> F32:
        """The ground on either side of each hexside, for :meth:`read`'s ``fills``.

        ``xy`` are points ``(sides, 2 g, k, 2)`` in strips beside each hexside
        (rows ``2 j`` in hex a, ``2 j + 1`` in hex b), clear of what is printed
        on it; their median is that side's ground, Lab ``(2 g, sides, 3)``.
        Organic terrain does not stop at hexsides, and a hex's main fill can be
        another colour than the ground next to one of its hexsides (a coast, a
        wood's edge).
        """
        out: F32 = np.ascontiguousarray(np.median(self.lab(xy), axis=2).transpose(1, 0, 2),
                                        dtype=np.float32)
        return out

    def hides(self, colours: F32) -> NDArray[np.bool_]:
        """Whether each hexside's grounds (``(2, sides)``: a's, b's) hide a line of ``colours``.

        A line printed in (nearly) its ground's colour leaves pixels no further
        from the ground than paper noise (:data:`_QUIET`): a grey road on a grey
        city shows nowhere, so no reading of that ground says it is not there.
        ``colours`` are Lab, ``(k, 3)``.
        """
        far = np.linalg.norm(self.fill[:, :, None, :] - np.asarray(colours)[None, None], axis=-1)
        out: NDArray[np.bool_] = far.min(axis=-1) < _QUIET
        return out

    def grid_ink(self, xy: Points, rows: I64) -> F32:
        """The grid's colour as printed on this scan, Lab ``(1, 3)`` (empty when unclear).

        ``xy`` are points ``(sides, places, k, 2)`` across the cores of the
        hexsides ``rows``: most hexsides carry only the grid line, so the colour
        furthest from each side's fill, typical over them all, is the grid's.
        """
        lab = self.lab(xy)
        fill = self.fill[:, rows].mean(axis=0)[:, None, None, :]
        far = np.linalg.norm(lab - fill, axis=-1)
        n, p, k = far.shape
        pick = far.reshape(n * p, k).argmax(axis=1)
        core = lab.reshape(n * p, k, 3)[np.arange(n * p), pick]
        strong = far.reshape(n * p, k).max(axis=1) >= 2 * _QUIET
        if strong.sum() < max(10, 0.2 * n * p):
            return np.empty((0, 3), np.float32)
        out: F32 = np.median(core[strong], axis=0, keepdims=True).astype(np.float32)
        return out

    def read(self, xy: Points, near_a: NDArray[np.bool_], axis: int, lines: LineColours, *,
             spill: NDArray[np.bool_] | None = None, fills: F32 | None = None,
             group: I64 | None = None, rows: I64 | None = None,
             both_symbols: bool = False) -> Reading:
        """Read points ``(sides, places, across, 2)`` against candidate ``lines``.

        ``near_a`` marks, along ``axis`` (1 places, 2 across), the points on hex
        a's side, read against a's fill. ``spill`` marks, along the same axis,
        the points close enough to the hexside to hold some of the neighbouring
        hex's fill too (where the two fills and the grid line blur together);
        elsewhere, and everywhere without ``spill``, a point holds only its own
        fill and a line (a brown trail over clear is not rough ground).

        ``fills`` replaces the hexes' fills: Lab ``(2 g, sides, 3)``, rows ``2 k``
        and ``2 k + 1`` the ground on hex a's and b's side for the points whose
        ``group`` (an index per point of a side, ``xy.shape[1:-1]``) is ``k``.
        ``rows`` says which of the reader's hexsides the points are of (all, in
        order, by default); ``fills`` are then for those only. With
        ``both_symbols`` a point may show the other hex's ground and texture as
        well (a town's blocks, like its ground, do not stop at the hexside).
        """
        shape = xy.shape[:-1]
        per_side = int(np.prod(shape[1:]))
        # Per point of a side: 0 on hex a's side, 1 on b's, plus twice its group:
        # the row of the fills it is read against.
        half = 1 - np.broadcast_to(np.expand_dims(near_a, (0, 3 - axis)), shape)[0].reshape(-1)
        if group is not None:
            half = half + 2 * np.broadcast_to(group, shape[1:]).reshape(-1)
        near = None if spill is None else np.broadcast_to(
            np.expand_dims(spill, (0, 3 - axis)), shape)[0].reshape(-1)
        which = np.arange(shape[0]) if rows is None else np.asarray(rows, np.int64)
        table = self.fill[:, which] if fills is None else fills
        palette, own, alone = self._symbol_tables()
        palette = _unlike(palette, lines.lab)
        step = max(1, _BLOCK // per_side)
        blocks = [slice(i, min(i + step, shape[0])) for i in range(0, shape[0], step)]
        flat = xy.reshape(shape[0], per_side, 2)

        def block(part: slice) -> tuple[I64, F32]:
            return self._block(flat[part], part, which[part], half, near, lines.lab, table,
                               palette, own, alone if both_symbols else None)

        # NumPy and OpenCV let go of the interpreter inside each call: blocks of
        # sides are read on as many threads as OpenCV is allowed.
        with ThreadPoolExecutor(max(1, cv2.getNumThreads())) as pool:
            parts = list(pool.map(block, blocks))
        label = np.concatenate([p[0] for p in parts]).reshape(shape)
        strength = np.concatenate([p[1] for p in parts]).reshape(shape)
        spacing = float(np.linalg.norm(xy[0, 0, 1] - xy[0, 0, 0])) if shape[0] else 1.0
        return Reading(label, strength, spacing, lines.owners, self.pairs[which], self.width)

    def _block(self, xy: Points, rows: slice, sides: I64, row: I64,
               near: NDArray[np.bool_] | None, lines: F32, table: F32, palette: F32,
               own_symbols: I64, other_textures: I64 | None) -> tuple[I64, F32]:
        """Labels and strengths of points ``(n, k, 2)``: rows ``rows`` of the read,
        hexsides ``sides``."""
        n, k = xy.shape[:2]
        # The light changes slowly: one gain a hexside, taken at its first point.
        first = xy[:, 0].astype(np.float64)
        gain = self.light.gain(first[:, 0], first[:, 1]).astype(np.float32)
        pixels = read_pixels(self.image, cast(F64, xy.reshape(-1, 2))).reshape(n, k, 3)
        x = to_lab(pixels / gain[:, None, :]).reshape(n, k, 3)
        fills = table[:, rows]  # (2 g, n, 3)
        own = fills[row].transpose(1, 0, 2)  # (n, k, 3)
        label = np.full((n, k), -1, np.int64)
        strength = np.zeros((n, k), np.float32)
        # Most points are plain fill: only the others need explaining.
        off = x - own
        busy = off[..., 0] ** 2 + off[..., 1] ** 2 + off[..., 2] ** 2 >= _QUIET ** 2
        groups = [(busy, False)] if near is None else [(busy & ~near, False), (busy & near, True)]
        for where, spills in groups:
            side, point = np.nonzero(where)
            w = row[point]
            other = fills[w ^ 1, side] if spills else None
            index = own_symbols[w & 1, sides[side]]
            if other_textures is not None:
                # The other hex's texture may show on this side of the hexside too.
                index = np.concatenate([index, other_textures[1 - (w & 1), sides[side]]], axis=1)
            symbols = palette[index]
            if other_textures is not None:
                # And so may its ground, where the two grounds' boundary wanders
                # off the hexside (a coast): it is no line either.
                symbols = np.concatenate([symbols, fills[w ^ 1, side][:, None, :]], axis=1)
            label[side, point], strength[side, point] = explain(
                x[side, point], own[side, point], other, lines, symbols)
        return label, strength


def explain(x: F32, fill: F32, other: F32 | None, lines: F32, symbols: F32
            ) -> tuple[I64, F32]:
    """Name each pixel (Lab, ``(n, 3)``) by the line best explaining it.

    Parameters
    ----------
    x, fill
        The pixels and the fill each is read against, ``(n, 3)``.
    other
        The fill across the hexside, ``(n, 3)``, or ``None``.
    lines
        Candidate line colours, ``(k, 3)``.
    symbols
        The fill's own printed colours, ``(n, m, 3)``.

    Returns
    -------
    tuple
        The line index (-1 for none) and the line's share in each pixel.
    """
    # Colour components first, one contiguous row each: every product below is a
    # few whole-row operations, where sums over an axis of three would crawl.
    f = np.ascontiguousarray(fill.T)
    v = np.ascontiguousarray(x.T) - f
    vv = _dot(v, v)
    # Dot products with d = line - fill, as (k, n) rows: v.d and d.d.
    vd = _with_lines(lines, v) - _dot(v, f)
    dd = _with_lines(lines, f)
    dd *= -2.0
    dd += (lines * lines).sum(axis=1)[:, None]
    dd += _dot(f, f)
    np.maximum(dd, np.float32(1e-6), out=dd)
    a = vd / dd
    if other is None:
        np.clip(a, 0.0, 1.2, out=a)
        resid2 = a * dd
        resid2 -= 2 * vd
        resid2 *= a
        resid2 += vv
    else:
        a, resid2 = _with_other(v, vv, f, np.ascontiguousarray(other.T) - f, lines, vd, dd, a)
    best = np.argmin(resid2, axis=0)
    cols = np.arange(len(best))
    strength = np.minimum(a[best, cols], 1.0)
    symbol = _symbol_resid2(v, vv, f, symbols) < resid2[best, cols]
    quiet = vv < _QUIET ** 2
    label: I64 = np.where(quiet | symbol | (strength < _WEAK), -1, best)
    return label, np.asarray(np.where(label >= 0, strength, np.float32(0.0)), np.float32)


def _unlike(symbols: F32, lines: F32) -> F32:
    """``symbols`` (``(..., 3)``, Lab) with those a line's colour could be put out of reach.

    A hex's own colour that is also a line's (a wood's tree dots and a green
    bar) says nothing against the line: the line is read as before textures
    were known, by which is the heavier along the hexside.
    """
    near = ((symbols[..., None, :] - lines) ** 2).sum(axis=-1).min(axis=-1) < _SAME_AS_LINE ** 2
    out: F32 = np.where(near[..., None], np.float32(_FAR), symbols).astype(np.float32)
    return out


def _mix(colour: RGB, other: RGB, share: float) -> RGB:
    """``colour`` with ``share`` of ``other`` mixed in."""
    r, g, b = (round((1 - share) * c + share * o) for c, o in zip(colour, other, strict=True))
    return r, g, b


def _dot(p: F32, q: F32) -> F32:
    """Dot products of colours given component first, ``(3, n)`` each."""
    out: F32 = p[0] * q[0] + p[1] * q[1] + p[2] * q[2]
    return out


def _with_lines(lines: F32, p: F32) -> F32:
    """Dot products of each line colour ``(k, 3)`` with colours ``(3, n)``, as ``(k, n)``."""
    out: F32 = lines[:, 0:1] * p[0] + lines[:, 1:2] * p[1] + lines[:, 2:3] * p[2]
    return out


def _with_other(v: F32, vv: F32, f: F32, o: F32, lines: F32, vd: F32, dd: F32, a: F32
                ) -> tuple[F32, F32]:
    """Line shares and squared residuals when ``v = a d + c o``, by least squares.

    ``o`` is the neighbouring fill less the pixel's own (``(3, n)``); ``vd``,
    ``dd`` and ``a`` are as in :func:`explain`, ``(k, n)``. ``c`` is held to at most
    :data:`_SPILL_MAX`: a pixel on one side of the hexside is at most half the
    other side's fill.
    """
    oo = _dot(o, o)
    do = _with_lines(lines, o) - _dot(o, f)
    vo = _dot(v, o)
    det = dd * oo - do * do
    # Only two fills that differ, and a line not along their difference, have two unknowns.
    both = (oo > _DISTINCT) & (det > 1e-3 * dd * np.maximum(oo, 1e-6))
    safe = np.where(both, det, 1.0)
    c = np.where(both, np.clip((vo * dd - vd * do) / safe, 0.0, _SPILL_MAX), 0.0)
    a = np.clip(np.where(both, (vd - c * do) / dd, a), 0.0, 1.2)
    resid2 = (vo * -2 + c * oo) * c + vv + a * (a * dd - 2 * vd + 2 * c * do)
    return a.astype(np.float32), resid2.astype(np.float32)


def _symbol_resid2(v: F32, vv: F32, f: F32, symbols: F32) -> F32:
    """Squared residual of each pixel as its fill blended with one of the fill's symbol colours.

    ``v`` is each pixel less its fill ``f`` (both ``(3, n)``), ``vv`` its squared length.
    """
    out = np.full(len(vv), np.inf, np.float32)
    for j in range(symbols.shape[1]):
        e = np.ascontiguousarray(symbols[:, j, :].T) - f
        ee = _dot(e, e)
        ve = _dot(v, e)
        b = np.clip(ve / np.maximum(ee, 1e-6), 0.0, 1.2)
        resid2 = vv - 2 * b * ve + b * b * ee
        # A "symbol" in the fill's own colour explains nothing a line would not.
        np.minimum(out, np.where(ee > _DISTINCT, resid2, np.float32(np.inf)), out=out)
    return out


def _symbol_colours(sides: list[Hexside], fills: Fills, legend: Legend, paper: F32,
                    textures: Mapping[Hex, F32]) -> tuple[F32, I64, I64]:
    """The colours each hexside's hexes print besides lines: a palette and indices into it.

    Returns the palette (Lab ``(k, 3)``; its last entry a colour no pixel is
    near), then per hexside side ``(2, n, m)`` the legend's colours of the
    hex's terrain with the ``textures`` seen in the hex itself, then ``(2, n,
    t)`` the textures alone (what may spill across the hexside: the legend's
    colours of a wood, its tree dots, may be a bar's). Short lists are padded:
    the first with its first colour (off the map it is the paper), the second
    with the colour no pixel is near.
    """
    names = sorted(n for n, c in legend.terrain.items() if c)
    colours = [paper[None, :]] + [to_lab(np.array(legend.terrain[n], float)) for n in names]
    starts = np.cumsum([0] + [len(c) for c in colours])
    m = max(len(c) for c in colours)
    # Per terrain (row 0 off the map or unknown): its legend colours, padded with the first.
    base = np.array([[starts[i] + min(j, len(c) - 1) for j in range(m)]
                     for i, c in enumerate(colours)], np.int64)
    hexes = sorted({h for s in sides for h in (s.a, s.b) if h in fills})
    index = {h: i + 1 for i, h in enumerate(hexes)}  # row 0 is off the map
    terrain_row = {n: i + 1 for i, n in enumerate(names)}
    rows = np.array([0] + [terrain_row.get(fills[h][0], 0) for h in hexes], np.int64)
    seen = [textures[h] for h in hexes if h in textures]
    t = max([len(c) for c in seen] + [1])
    palette = np.concatenate([*colours, *seen, np.full((1, 3), _FAR, np.float32)])
    far = len(palette) - 1
    alone = np.full((len(hexes) + 1, t), far, np.int64)
    at = int(starts[-1])
    for h in hexes:
        if h in textures:
            k = len(textures[h])
            alone[index[h], :k] = np.arange(at, at + k)
            at += k
    own = np.concatenate([base[rows], np.where(alone == far, base[rows][:, :1], alone)], axis=1)
    a = np.array([index.get(s.a, 0) for s in sides], np.int64)
    b = np.array([index.get(s.b, 0) for s in sides], np.int64)
    return (palette.astype(np.float32), np.stack([own[a], own[b]]),
            np.stack([alone[a], alone[b]]))


def _pairs(sides: list[Hexside], fills: Fills) -> I64:
    """Per hexside, its two hexes' terrains as sorted indices (0 is off the map)."""
    names = sorted({f[0] for f in fills.values()})
    index = {n: i + 1 for i, n in enumerate(names)}
    of = {h: index[f[0]] for h, f in fills.items()}
    a = np.array([of.get(s.a, 0) for s in sides], np.int64)
    b = np.array([of.get(s.b, 0) for s in sides], np.int64)
    out: I64 = np.sort(np.stack([a, b], axis=1), axis=1).reshape(-1, 2)
    return out


def _fill_lab(hexes: list[Hex], fills: Fills, paper: F32) -> F32:
    rgb = [fills[h][1] if h in fills else None for h in hexes]
    lab = to_lab(np.array([c if c is not None else (0.0, 0.0, 0.0) for c in rgb], float))
    out: F32 = np.where(np.array([c is None for c in rgb])[:, None], paper[None, :], lab)
    return out
