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

Strength integrated across a line survives blur, so :meth:`Reading.mass`
(summed strength times spacing) is the line's width in hex widths: a thin
black line blurred into a brown smear still weighs no more than a thin line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.colours import INK, to_lab
from pipeline.digitize.legend import RGB, Legend
from pipeline.digitize.light import Light
from pipeline.digitize.scanfile import read_pixels
from pipeline.hexgrid import Hex, Hexside

__all__ = ["Fills", "LineColours", "LineReader", "Reading", "explain"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
I64 = NDArray[np.int64]
Colour = tuple[float, float, float]
Fills = Mapping[Hex, tuple[str, Colour]]
"""Each map hex's terrain and measured fill colour (RGB, light corrected)."""

_WEAK = 0.2  # share of line colour under which a pixel shows no line
_QUIET = 6.0  # Lab distance from the fill under which a pixel shows no line at all
_DISTINCT = 25.0  # squared Lab distance under which two colours count as one


class LineColours:
    """Candidate line colours in Lab (the named features, then the ink), and whose each is."""

    def __init__(self, legend: Legend, names: list[str]) -> None:
        colours: list[RGB] = []
        owners: list[str] = []
        for n in names:
            colours += legend.features[n].colours
            owners += [n] * len(legend.features[n].colours)
        colours.append(legend.ink)
        owners.append(INK)
        self.lab: F32 = to_lab(np.array(colours, float))
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
        """Width of ``name``'s line at each place, in hex widths, shape ``(sides, places)``."""
        own = self.label == self.owners.index(name)
        out: F64 = (self.strength * own).sum(axis=2) * self.spacing / self.width
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
                 fills: Fills, legend: Legend, width: float) -> None:
        self.image, self.light, self.width = image, light, width
        paper = to_lab(np.array([legend.paper], float))[0]
        # Indexed [0 for hex a, 1 for hex b, hexside]: fills (n, 3), symbols (n, m, 3).
        self.fill = np.stack([_fill_lab([s.a for s in sides], fills, paper),
                              _fill_lab([s.b for s in sides], fills, paper)])
        self.symbols = np.stack(_symbol_colours(sides, fills, legend, paper))
        self.pairs = _pairs(sides, fills)

    def read(self, xy: F64, near_a: NDArray[np.bool_], axis: int, lines: LineColours, *,
             other: bool = True) -> Reading:
        """Read points ``(sides, places, across, 2)`` against candidate ``lines``.

        ``near_a`` marks, along ``axis`` (1 places, 2 across), the points on hex
        a's side, read against a's fill. With ``other``, a point may also hold
        the neighbouring hex's fill (near the hexside, where it spills over);
        far from it, it may not (a brown trail over clear is not rough ground).
        """
        shape = xy.shape[:-1]
        per_side = int(np.prod(shape[1:]))
        # The light changes slowly: one gain a hexside, taken at its first point.
        gain = self.light.gain(xy[:, 0, 0, 0], xy[:, 0, 0, 1]).astype(np.float32)
        pixels = read_pixels(self.image, xy.reshape(-1, 2)).reshape(shape[0], per_side, 3)
        x = to_lab((pixels / gain[:, None, :]).reshape(-1, 3))
        side = np.repeat(np.arange(shape[0]), per_side)
        # 0 where a point is on hex a's side, 1 on b's: an index into (fill a, fill b).
        which = 1 - np.broadcast_to(np.expand_dims(near_a, (0, 3 - axis)), shape).reshape(-1)
        fill = self.fill[which, side]
        # Most points are plain fill: only the others need explaining.
        busy = np.nonzero(((x - fill) ** 2).sum(axis=1) >= _QUIET ** 2)[0]
        s, w = side[busy], which[busy]
        across = self.fill[1 - w, s] if other else None
        label = np.full(len(x), -1, np.int64)
        strength = np.zeros(len(x), np.float32)
        label[busy], strength[busy] = explain(x[busy], fill[busy], across, lines.lab,
                                              self.symbols[w, s])
        step = float(np.linalg.norm(xy[0, 0, 1] - xy[0, 0, 0]))
        return Reading(label.reshape(shape), strength.reshape(shape), step, lines.owners,
                       self.pairs, self.width)


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
    n = len(x)
    v = x - fill
    # Every dot product of v, d = line - fill and o = other - fill, as (n, k)
    # matrices from three small matrix products; no (n, k, 3) array is built.
    ll = (lines * lines).sum(axis=1)[None, :]
    fl = fill @ lines.T
    vd = v @ lines.T - (v * fill).sum(axis=1)[:, None]
    dd = np.maximum(ll - 2 * fl + (fill * fill).sum(axis=1)[:, None], 1e-6)
    vv = (v * v).sum(axis=1)[:, None]
    a = vd / dd
    if other is None:
        a = np.clip(a, 0.0, 1.2)
        resid2 = vv - 2 * a * vd + a * a * dd
    else:
        o = other - fill
        oo = (o * o).sum(axis=1)[:, None]
        do = o @ lines.T - (o * fill).sum(axis=1)[:, None]
        vo = (v * o).sum(axis=1)[:, None]
        a, c = _with_other(dd, vd, oo, do, vo, a)
        a = np.clip(a, 0.0, 1.2)
        resid2 = vv + a * a * dd + c * c * oo - 2 * a * vd - 2 * c * vo + 2 * a * c * do
    best = np.argmin(resid2, axis=1)
    rows = np.arange(n)
    strength = np.minimum(a[rows, best], 1.0)
    symbol = _symbol_resid2(v, fill, symbols) < resid2[rows, best]
    quiet = np.sqrt(vv[:, 0]) < _QUIET
    label: I64 = np.where(quiet | symbol | (strength < _WEAK), -1, best)
    return label, np.where(label >= 0, strength, np.float32(0.0))


def _with_other(dd: F32, vd: F32, oo: F32, do: F32, vo: F32, a: F32) -> tuple[F32, F32]:
    """Shares of line and neighbouring fill, ``v = a d + c o`` by least squares."""
    det = dd * oo - do * do
    # Only two fills that differ, and a line not along their difference, have two unknowns.
    both = (oo > _DISTINCT) & (det > 1e-3 * dd * np.maximum(oo, 1e-6))
    safe = np.where(both, det, 1.0)
    c = np.where(both, np.clip((vo * dd - vd * do) / safe, 0.0, 1.0), 0.0)
    return np.where(both, (vd - c * do) / dd, a), c


def _symbol_resid2(v: F32, fill: F32, symbols: F32) -> F32:
    """Squared residual of each pixel as its fill blended with one of the fill's symbol colours."""
    e = symbols - fill[:, None, :]
    ee = (e * e).sum(axis=2)
    ve = np.einsum("nj,nmj->nm", v, e)
    b = np.clip(ve / np.maximum(ee, 1e-6), 0.0, 1.2)
    resid2 = (v * v).sum(axis=1)[:, None] - 2 * b * ve + b * b * ee
    # A "symbol" in the fill's own colour explains nothing a line would not.
    out: F32 = np.where(ee > _DISTINCT, resid2, np.float32(np.inf)).min(axis=1)
    return out


def _symbol_colours(sides: list[Hexside], fills: Fills, legend: Legend, paper: F32
                    ) -> tuple[F32, F32]:
    """Per hexside, the legend colours of each hex's terrain, Lab, shape ``(n, m, 3)`` twice.

    Short lists are padded with their first colour; off the map it is the paper.
    """
    names = sorted(n for n, c in legend.terrain.items() if c)
    m = max([len(legend.terrain[n]) for n in names] + [1])
    # Row 0 is the paper (off the map, or a terrain without colour); row i+1 is names[i].
    table = np.empty((len(names) + 1, m, 3), np.float32)
    table[0] = paper
    for i, n in enumerate(names):
        lab = to_lab(np.array(legend.terrain[n], float))
        table[i + 1] = np.concatenate([lab, np.repeat(lab[:1], m - len(lab), axis=0)])
    index = {n: i + 1 for i, n in enumerate(names)}

    def rows(hexes: list[Hex]) -> I64:
        return np.array([index.get(fills[h][0], 0) if h in fills else 0 for h in hexes], np.int64)

    return table[rows([s.a for s in sides])], table[rows([s.b for s in sides])]


def _pairs(sides: list[Hexside], fills: Fills) -> I64:
    """Per hexside, its two hexes' terrains as sorted indices (0 is off the map)."""
    names = sorted({f[0] for f in fills.values()})
    index = {n: i + 1 for i, n in enumerate(names)}
    pairs = np.array([[index[fills[h][0]] if h in fills else 0 for h in (s.a, s.b)]
                      for s in sides], np.int64).reshape(-1, 2)
    out: I64 = np.sort(pairs, axis=1)
    return out


def _fill_lab(hexes: list[Hex], fills: Fills, paper: F32) -> F32:
    rgb = [fills[h][1] if h in fills else None for h in hexes]
    lab = to_lab(np.array([c if c is not None else (0.0, 0.0, 0.0) for c in rgb], float))
    out: F32 = np.where(np.array([c is None for c in rgb])[:, None], paper[None, :], lab)
    return out
