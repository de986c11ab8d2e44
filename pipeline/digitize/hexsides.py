"""Hexside features: what runs along a hexside (a river, a bar) and what crosses it (a road).

Pixels are read by :mod:`~pipeline.digitize.linereader` (each as its hex's
fill plus some share of a line); this module decides where to read and what
the readings mean.

* **mark** (``shape: "mark"``, bridges): a patch on the middle of the
  hexside, mostly (70%) in the mark's colour at full strength. When that
  colour is close to the grid's ink, ink counts too: the patch is wide enough
  that a grid line, or a road crossing there, cannot fill it. As along a
  hexside, the neighbouring fill is allowed for only next to the hexside.
* **along** (``kind: "along"``, rivers, bars): a band 10% of a hex wide either
  side of the hexside, over its middle 70%. Only ink that runs unbroken
  across the band from the hexside's core counts: a line printed along the
  hexside covers the core, while a hex id or a texture symbol printed beside
  it, in a bar's colour as it may be, does not reach it. A place along the
  hexside shows the feature when the feature is the heaviest line there and
  the place carries clearly more line, across, than the typical place between
  the same two terrains (3% of a hex more): the grid line is printed under
  every hexside, and where two fills and the ink blur together its core can
  take almost any colour, but a line printed along the hexside is wider. The
  neighbouring hex's fill is allowed for only that close to the hexside
  (5% of a hex): further out, a bar's brown is not red town and green wood
  blurred together. The feature is there when 60% of the places show it (a
  bridge's middle excused).
* **across** (``kind: "across"``, roads, trails): the straight line from one
  hex centre to the other, between 18% and 38% of the way from each centre:
  the hexside itself (where a river or a bridge may cover the road) and the
  centres (where other roads meet) are left out. A line crosses when both
  halves show one at 40% of the places not hidden under ink (a printed hex
  id, a crease), and which line it is goes by weight over the whole hexside (a
  road's core, blurred and faded by JPEG, can pass for a brown trail while its
  edges still read as road). A road that ends in one hex does not cross; at
  the map edge only the inner half is read.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.colours import INK, to_lab
from pipeline.digitize.gridfit import GridFit, among, hex_units
from pipeline.digitize.legend import Legend
from pipeline.digitize.light import Light
from pipeline.digitize.linereader import Fills, LineColours, LineReader, Reading
from pipeline.hexgrid import Hex, Hexside, Orientation
from pipeline.hexgrid.coords import SCALE, direction_vectors, scaled_corners

__all__ = ["ALONG_BAND", "detect_hexsides"]

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]
Found = dict[Hexside, set[str]]

ALONG_BAND = 0.1  # half width of the band read along a hexside, in hex widths
_ALONG_T = np.linspace(0.15, 0.85, 10)
_ALONG_S = np.linspace(-ALONG_BAND, ALONG_BAND, 9)
_ALONG_MIN = 0.6
_CORE = 0.03  # half width of a hexside's core, in hex widths: under any line printed along it
_SPILL = 0.05  # how far from the hexside the neighbouring fill blurs, in hex widths
_ACROSS_T = np.concatenate([np.linspace(0.18, 0.38, 6), np.linspace(0.62, 0.82, 6)])
_ACROSS_S = np.linspace(-0.04, 0.04, 3)
_ACROSS_MIN = 0.4
_MARK_T = np.linspace(-0.12, 0.12, 5)  # across the hexside, in hex widths
_MARK_S = np.linspace(-0.075, 0.075, 5)  # along it: wider than a road crossing there
_MARK_MIN = 0.7
_MARK_REACH = 0.2  # share of a hexside either side of its middle a mark may hide
_INK_LIKE = 15.0  # Lab distance under which a mark's colour passes for ink
_STRONG = 0.6  # share of a mark's colour each of its pixels needs
_MASS_FLOOR = 0.015  # least width, in hex widths, a line must show at a place
_WIDER = 0.03  # hex widths by which a line along a hexside outweighs the grid line
_PAIR_LEAST = 10  # hexsides between two terrains needed to judge their typical place


@dataclass(frozen=True)
class _Geometry:
    """Pixel geometry of every hexside: its corners and its hexes' centres."""

    sides: list[Hexside]
    ends: F64  # (n, 2, 2) corner to corner
    centres: F64  # (n, 2, 2) centre of a, centre of b
    inner: NDArray[np.bool_]  # (n, 2) whether a, b are on the map
    width: float


def detect_hexsides(image: NDArray[np.uint8], fit: GridFit, legend: Legend, light: Light,
                    fills: Fills) -> dict[Hexside, tuple[str, ...]]:
    """The legend features on every hexside of the fitted grid (only those with any).

    Parameters
    ----------
    image, fit, legend, light
        The scan, its grid, the legend, and the light to correct colours by.
    fills
        Each map hex's terrain and fill colour, light corrected (from the
        classifier); hexes off the map are read against the legend's paper.

    Returns
    -------
    dict
        Hexside -> the names of the features on it, sorted.
    """
    features = legend.features
    if not features:
        return {}
    geo = _geometry(fit)
    reader = LineReader(image, light, geo.sides, fills, legend, geo.width)
    marks = [n for n, f in features.items() if f.shape == "mark"]
    along = [n for n, f in features.items() if f.kind == "along" and f.shape == "line"]
    across = [n for n, f in features.items() if f.kind == "across" and f.shape == "line"]
    found: Found = {}
    marked = _marks(reader, geo, legend, marks, [*along, *across], found)
    if along:
        _along(reader, geo, legend, along, across, marked, found)
    if across:
        _across(reader, geo, legend, across, marks, found)
    return {s: tuple(sorted(f)) for s, f in sorted(found.items())}


def _marks(reader: LineReader, geo: _Geometry, legend: Legend, marks: list[str],
           lines: list[str], found: Found) -> NDArray[np.bool_]:
    """Find marks; returns which hexsides have one."""
    marked = np.zeros(len(geo.sides), bool)
    if not marks:
        return marked
    # Everything that can be printed on a hexside's middle is a candidate, so a
    # road or a river there is read as itself, not as part of a bridge.
    colours = LineColours(legend, [*marks, *lines])
    read = reader.read(_mark_points(geo), _MARK_T < 0, 1, colours,
                       spill=np.abs(_MARK_T) <= _SPILL)
    ink = to_lab(np.array([legend.ink], float))[0]
    for name in marks:
        accept = read.label == colours.owners.index(name)
        own = to_lab(np.array(legend.features[name].colours, float))
        if float(np.min(np.linalg.norm(own - ink, axis=1))) < _INK_LIKE:
            accept |= read.label == colours.owners.index(INK)
        # A mark is solid: faint darkening (a crease's shadow) is not one.
        accept &= read.strength >= _STRONG
        hit = accept.reshape(len(geo.sides), -1).mean(axis=1) >= _MARK_MIN
        marked |= hit
        _add(found, geo.sides, hit, name)
    return marked


def _along(reader: LineReader, geo: _Geometry, legend: Legend, along: list[str],
           across: list[str], marked: NDArray[np.bool_], found: Found) -> None:
    # Roads cross the band: they are candidates too. Marks are not: a bridge's
    # dark grey is the grid's ink to a river's edge.
    read = _on_hexside(reader.read(_along_points(geo), _ALONG_S < 0, 2,
                                   LineColours(legend, [*along, *across]),
                                   spill=np.abs(_ALONG_S) <= _SPILL))
    wide = _wider_than_grid(read)
    # A bridge hides the middle of its river: there, the river is not asked for.
    hidden = marked[:, None] & (np.abs(_ALONG_T - 0.5) <= _MARK_REACH)[None, :]
    for name in along:
        shown = wide & (read.mass(name) >= _MASS_FLOOR) & read.dominant(name, along)
        hit = np.nan_to_num(_share(shown, shown | ~hidden, least=4)) >= _ALONG_MIN
        _add(found, geo.sides, hit, name)


def _on_hexside(read: Reading) -> Reading:
    """The reading with only the ink that runs through the hexside itself.

    At each place, the points that show a line and are joined across the band,
    point by point, to the hexside's core are kept. A line printed along the
    hexside covers the core; ink beside it that does not reach it (a hex id
    printed near the hexside, a texture's symbol) is dropped, however much
    its colour looks like a bar's.
    """
    inked = read.label >= 0
    core = np.abs(_ALONG_S) <= _CORE
    lo, hi = int(np.argmax(core)), len(core) - int(np.argmax(core[::-1]))
    keep = inked & core
    # Outwards from each edge of the core, as far as the line runs unbroken.
    keep[..., hi - 1:] |= np.logical_and.accumulate(inked[..., hi - 1:], axis=-1)
    keep[..., : lo + 1] |= np.logical_and.accumulate(inked[..., lo::-1], axis=-1)[..., ::-1]
    return replace(read, label=np.where(keep, read.label, -1),
                   strength=np.where(keep, read.strength, np.float32(0.0)))


def _wider_than_grid(read: Reading) -> NDArray[np.bool_]:
    """Places carrying clearly more line than the typical place between the same terrains.

    A grid line over tan ground reads as more of a dark brown bar than of
    black ink (the bar's colour is nearer the fill), so the typical place is
    judged among hexsides between the same two terrains where there are
    enough of them (most hexsides carry no feature), else among all.
    """
    line = read.line_mass()
    typical = np.full(len(line), float(np.median(line)))
    for key in np.unique(read.pairs, axis=0):
        same = (read.pairs == key).all(axis=1)
        if same.sum() >= _PAIR_LEAST:
            typical[same] = float(np.median(line[same]))
    out: NDArray[np.bool_] = line >= typical[:, None] + _WIDER
    return out


def _across(reader: LineReader, geo: _Geometry, legend: Legend, across: list[str],
            marks: list[str], found: Found) -> None:
    # Along features never reach this far from the hexside; they are left out so
    # a faint trail is not taken for a brown bar.
    half = len(_ACROSS_T) // 2
    read = reader.read(_across_points(geo), np.arange(len(_ACROSS_T)) < half, 1,
                       LineColours(legend, [*across, *marks]))
    hidden = read.mass(INK) >= _MASS_FLOOR
    masses = np.stack([read.mass(n) for n in across])
    shown = masses.max(axis=0) >= _MASS_FLOOR
    seen = shown | ~hidden
    side_a = _share(shown[:, :half], seen[:, :half], least=2)
    side_b = _share(shown[:, half:], seen[:, half:], least=2)
    # Off the map there is nothing to read, and a half wholly hidden says nothing:
    # the other half decides.
    side_a = np.where(geo.inner[:, 0] & ~np.isnan(side_a), side_a, side_b)
    side_b = np.where(geo.inner[:, 1] & ~np.isnan(side_b), side_b, side_a)
    crossing = np.nan_to_num(np.minimum(side_a, side_b)) >= _ACROSS_MIN
    heaviest = masses.sum(axis=2).argmax(axis=0)
    for k, name in enumerate(across):
        _add(found, geo.sides, crossing & (heaviest == k), name)


def _share(shown: NDArray[np.bool_], seen: NDArray[np.bool_], least: int) -> F64:
    """Share of the seen places that show a line (NaN when under ``least`` are seen)."""
    count = seen.sum(axis=1)
    out: F64 = np.where(count >= least, shown.sum(axis=1) / np.maximum(count, 1), np.nan)
    return out


def _add(found: Found, sides: list[Hexside], hit: NDArray[np.bool_], name: str) -> None:
    for i in np.nonzero(hit)[0]:
        found.setdefault(sides[int(i)], set()).add(name)


# -- where to read ----------------------------------------------------------------------


def _geometry(fit: GridFit) -> _Geometry:
    grid = fit.grid
    orientation = grid.orientation
    ends, d, on_map = _hexsides(grid.hexes(), orientation)
    sides = [Hexside(Hex(a, b), Hex(c, e)) for a, b, c, e in ends.tolist()]
    su, sv = SCALE[orientation]
    # Side i of a hex joins its corners i-1 and i and faces direction i.
    offsets = np.array(scaled_corners(Hex(0, 0), orientation), float) / (su, sv)
    ua, ub = hex_units(ends[:, :2], orientation), hex_units(ends[:, 2:], orientation)
    units = np.stack([ua + offsets[d - 1], ua + offsets[d]], axis=1)
    pixel_ends = fit.to_pixel(units.reshape(-1, 2)).reshape(-1, 2, 2)
    centres = np.stack([fit.to_pixel(ua), fit.to_pixel(ub)], axis=1)
    return _Geometry(sides, pixel_ends, centres, on_map, fit.hex_width)


def _hexsides(hexes: list[Hex], orientation: Orientation
              ) -> tuple[I64, I64, NDArray[np.bool_]]:
    """Every hexside touching ``hexes``, sorted as :meth:`HexGrid.hexsides` sorts them.

    Returns each side's hexes ``(n, 4)`` as ``a.q, a.r, b.q, b.r`` (``a < b``),
    the direction from a to b, and whether a and b are among ``hexes``, ``(n, 2)``.
    Worked out for all hexsides at once, where a loop over 17,000 of them would
    cost more than reading their pixels.
    """
    qr = np.array(hexes, np.int64).reshape(-1, 2)
    steps = np.array(direction_vectors(orientation), np.int64)
    nb = qr[:, None, :] + steps[None, :, :]
    here = np.broadcast_to(qr[:, None, :], nb.shape)
    # Hexes order by (q, r): the lesser one is a hexside's a.
    first = (here[..., 0] < nb[..., 0]) | (
        (here[..., 0] == nb[..., 0]) & (here[..., 1] < nb[..., 1]))
    a = np.where(first[..., None], here, nb).reshape(-1, 2)
    b = np.where(first[..., None], nb, here).reshape(-1, 2)
    ends = np.unique(np.concatenate([a, b], axis=1), axis=0)
    delta = ends[:, 2:] - ends[:, :2]
    d = np.argmax((delta[:, None, :] == steps[None, :, :]).all(axis=2), axis=1)
    on_map = np.stack([among(ends[:, :2], qr), among(ends[:, 2:], qr)], axis=1)
    return ends, d, on_map


def _along_points(geo: _Geometry) -> F64:
    a, b = geo.ends[:, 0], geo.ends[:, 1]
    normal = _towards(_unit_normal(b - a), geo.centres[:, 1] - geo.centres[:, 0])
    base = a[:, None, :] + (b - a)[:, None, :] * _ALONG_T[None, :, None]
    offs = _ALONG_S * geo.width
    out: F64 = base[:, :, None, :] + normal[:, None, None, :] * offs[None, None, :, None]
    return out


def _across_points(geo: _Geometry) -> F64:
    ca, cb = geo.centres[:, 0], geo.centres[:, 1]
    normal = _unit_normal(cb - ca)
    base = ca[:, None, :] + (cb - ca)[:, None, :] * _ACROSS_T[None, :, None]
    offs = _ACROSS_S * geo.width
    out: F64 = base[:, :, None, :] + normal[:, None, None, :] * offs[None, None, :, None]
    return out


def _mark_points(geo: _Geometry) -> F64:
    a, b = geo.ends[:, 0], geo.ends[:, 1]
    mid = (a + b) / 2
    along = (b - a) / np.linalg.norm(b - a, axis=1)[:, None]
    across = _towards(_unit_normal(b - a), geo.centres[:, 1] - geo.centres[:, 0])
    t = _MARK_T * geo.width
    s = _MARK_S * geo.width
    out: F64 = (mid[:, None, None, :] + across[:, None, None, :] * t[None, :, None, None]
                + along[:, None, None, :] * s[None, None, :, None])
    return out


def _unit_normal(v: F64) -> F64:
    n = np.stack([-v[:, 1], v[:, 0]], axis=-1)
    out: F64 = n / np.linalg.norm(n, axis=1)[:, None]
    return out


def _towards(normal: F64, direction: F64) -> F64:
    """Flip normals to point along ``direction`` (from hex a towards hex b)."""
    sign = np.sign((normal * direction).sum(axis=1))
    out: F64 = normal * np.where(sign == 0, 1.0, sign)[:, None]
    return out
