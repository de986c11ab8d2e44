"""Hexside features: what runs along a hexside (a river, a bar) and what crosses it (a road).

Pixels are read by :mod:`~pipeline.digitize.linereader` (each as the ground
beside it plus some share of a line), on a scan with any halftone screen
smoothed away first (:mod:`~pipeline.digitize.screen`); this module decides
where to read and what the readings mean. The grid's own colour is measured
on the scan (a white grid on dark ground, a black one screened into dots) and
read as the legend's ink is: it is no feature.

* **mark** (``shape: "mark"``, bridges): see :mod:`~pipeline.digitize.bridges`.
* **along** (``kind: "along"``, rivers, bars): a band 10% of a hex wide either
  side of the hexside, over its middle 70%, read against the ground on either
  side of it (measured in strips beside each half of the hexside, so a coast
  or a wood's edge along it is two grounds meeting, not a line). Only ink
  that runs unbroken across the band from the hexside's core counts: a line
  printed along the hexside covers the core, while a hex id or a texture
  symbol printed beside it, in a bar's colour as it may be, does not reach
  it. A place along the hexside shows the feature when the feature is the
  heaviest line there and the place carries clearly more line, across, than
  the typical place between the same two terrains (3% of a hex more): the
  grid line is printed under every hexside, but a line printed along the
  hexside is wider (over a grid lighter than the ground, a line that covers
  it need only be as wide). The neighbouring ground may blend into a pixel
  close to the hexside (5% of a hex), and its ground and texture may show
  anywhere in the band (a coast or a town wandering off the hexside): neither
  is a line. The feature is there when 60% of the places show it (a bridge's
  middle excused), or 35% where the line runs on from both of its ends (a
  town's name or a symbol printed over a river hides the rest of it: a line
  along hexsides does not stop for one hexside and start again).
* **across** (``kind: "across"``, roads, railroads): see
  :mod:`~pipeline.digitize.crossings`.

Every hexside examined also says how sure the reading is that each line it did
not read there is absent (:attr:`HexsideReading.absent`), from the line's
trace: along a hexside, the share of places whose core holds some of the
line's colour, line or not (the tests above left out), next to another that
does too; across, the crossing reader's trace. See
:func:`~pipeline.digitize.sideconfidence.absence`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.bridges import read_bridges
from pipeline.digitize.colours import INK, to_lab
from pipeline.digitize.crossings import paired, read_crossings
from pipeline.digitize.gridfit import GridFit
from pipeline.digitize.hexcolours import HexColours
from pipeline.digitize.legend import Legend
from pipeline.digitize.light import Light
from pipeline.digitize.linecolours import scan_line_colours
from pipeline.digitize.linereader import GRID, Fills, LineColours, LineReader, Reading
from pipeline.digitize.screen import descreen, screen_period
from pipeline.digitize.sideconfidence import Kind, LineKind, absences, confidence
from pipeline.digitize.sidegeometry import SideGeometry, side_geometry
from pipeline.errors import DataError
from pipeline.hexgrid import Hex, Hexside, ring
from pipeline.workers import begun

__all__ = ["ALONG_BAND", "HexsideReading", "detect_hexsides", "read_hexsides"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
B = NDArray[np.bool_]

ALONG_BAND = 0.1  # half width of the band read along a hexside, in hex widths
_ALONG_T = np.linspace(0.15, 0.85, 10)
_ALONG_S = np.linspace(-ALONG_BAND, ALONG_BAND, 9)
_ALONG_MIN = 0.6
_ALONG_GAP = 0.35  # share of places enough on a hexside whose line runs on from both ends
_CORE = 0.03  # half width of a hexside's core, in hex widths: under any line printed along it
_SPILL = 0.05  # how far from the hexside the neighbouring fill blurs, in hex widths
_MARK_REACH = 0.2  # share of a hexside either side of its middle a mark may hide
_SPAN = 0.5  # share of a hexside's ends that show the line a bridge there spans
_MASS_FLOOR = 0.015  # least width, in hex widths, a line must show at a place
_WIDER = 0.03  # hex widths by which a line along a hexside outweighs the grid line
_COVERED = 0.5  # share of the grid's own colour left where a line covers it
_PAIR_LEAST = 10  # hexsides between two terrains needed to judge their typical place
# Where the ground beside a hexside is read: places along its first half (the
# second half mirrors them; the middle, where roads cross, is left out) and
# offsets from it, in hex widths.
_STRIP_T = np.linspace(0.1, 0.34, 3)
_STRIP_S = np.array([0.13, 0.17])
_GRID_T = np.linspace(0.2, 0.8, 7)  # places where the grid's colour is measured
_SOME = 2_000  # hexsides the grid's colour is measured on


@dataclass(frozen=True)
class HexsideReading:
    """The features read on hexsides, each with how sure the reading is.

    Attributes
    ----------
    features
        Hexside -> feature name -> confidence (0 to 1) that the feature is there
        (see :mod:`~pipeline.digitize.sideconfidence`).
    evidence
        Hexside -> feature name -> the kind of reading and its evidence, which
        the confidence is calibrated from.
    absent
        Hexside -> line feature name -> confidence (0 to 1) that the line is
        *not* there, for every hexside examined and every line not read on it
        (see :func:`~pipeline.digitize.sideconfidence.absence`; bridges have
        none: a bridge is a mark on a crossing).
    absent_evidence
        Hexside -> line feature name -> the kind of line and its trace (NaN
        where the ground would hide it), which ``absent`` is calibrated from.
    drawn
        Hexside -> line feature name -> confidence that a line of its ink crosses
        there, where the line's name is less sure than that: lines of one ink (a
        road and a railroad in one black) are told apart by their ticks, and
        ``features`` holds the name's confidence.
    """

    features: dict[Hexside, dict[str, float]]
    evidence: dict[Hexside, dict[str, tuple[Kind, float]]]
    absent: dict[Hexside, dict[str, float]] = field(default_factory=dict)
    absent_evidence: dict[Hexside, dict[str, tuple[LineKind, float]]] = field(
        default_factory=dict)
    drawn: dict[Hexside, dict[str, float]] = field(default_factory=dict)

    def names(self) -> dict[Hexside, tuple[str, ...]]:
        """Hexside -> the names of the features on it, sorted (those with any)."""
        return {s: tuple(sorted(f)) for s, f in sorted(self.features.items()) if f}


Found = dict[Hexside, dict[str, tuple[Kind, float]]]
Traced = dict[Hexside, dict[str, tuple[LineKind, float]]]


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
    return read_hexsides(image, fit, legend, light, fills).names()


def read_hexsides(image: NDArray[np.uint8], fit: GridFit, legend: Legend, light: Light,
                  fills: Fills) -> HexsideReading:
    """The legend features on every hexside of the fitted grid, each with its confidence.

    The parameters are those of :func:`detect_hexsides`.
    """
    if not legend.features:
        return HexsideReading({}, {})
    scan = _prepare(image, fit, legend, light, fills)
    geo, reader, legend, inks = scan.geo, scan.reader, scan.legend, scan.inks
    features = legend.features
    marks = [n for n, f in features.items() if f.shape == "mark"]
    along = [n for n, f in features.items() if f.kind == "along" and f.shape == "line"]
    across = [n for n, f in features.items() if f.kind == "across" and f.shape == "line"]
    found: Found = {}
    # The lines across hexsides and those along them are read apart, from the same
    # prepared scan: the crossings on a thread of their own while the rest is read here
    # (array work, mostly: both cores busy). Its symbol tables are made first, once.
    reader.symbols  # noqa: B018
    crossing = begun(read_crossings, reader, geo, legend, across, marks)
    shown, tinted = _along(reader, geo, legend, along, across, inks)
    cross = crossing.result()
    # The line a bridge spans shows at the hexside's ends, where no bridge (and
    # no wide road) hides it.
    ends = np.abs(_ALONG_T - 0.5) > _MARK_REACH
    spans = {name: np.nan_to_num(_share(s[:, ends], np.ones_like(s[:, ends]), least=2))
             for name, s in shown.items()}
    marked = np.zeros(len(geo.sides), bool)
    examples = _examples(legend, marks, geo, fit)
    for name in marks:
        over = [o for o in (legend.features[name].over or spans) if o in spans]
        if not over:
            continue
        spanned = np.max([spans[o] for o in over], axis=0)
        bridges = read_bridges(reader, geo, legend, [name], cross.feature, spanned >= _SPAN,
                               examples)
        hit = bridges.found(name)
        marked |= hit
        _add(found, geo.sides, hit, name, "mark", bridges.score[:, 0])
        # A bridge spans a line along its hexside: the one its ends show best.
        best = np.argmax([spans[o] for o in over], axis=0)
        for k, o in enumerate(over):
            _add(found, geo.sides, hit & (best == k), o, "along", spans[o])
    # A bridge hides the middle of its river: there, the river is not asked for.
    hidden = marked[:, None] & ~ends[None, :]
    traces: dict[str, tuple[LineKind, F64]] = {}
    for name, s in shown.items():
        share = np.nan_to_num(_share(s, s | ~hidden, least=4))
        _add(found, geo.sides, _runs_on(geo.sides, share), name, "along", share)
        # Where both grounds are the line's colour, no share of places says it is not there.
        unseen = reader.hides(to_lab(np.array(features[name].colours, float))).all(axis=0)
        trace = paired(tinted[name], (slice(None),)).mean(axis=1)
        traces[name] = ("along", np.where(unseen, np.nan, trace))
    drawn: dict[Hexside, dict[str, float]] = {}
    for k, name in enumerate(across):
        _add(found, geo.sides, cross.feature == k, name, "across", cross.share * cross.clarity)
        traces[name] = ("across", cross.trace[:, k])
        for i in np.nonzero((cross.feature == k) & (cross.clarity < 1.0))[0].tolist():
            line = confidence("across", cross.share[i])
            if line > confidence("across", cross.share[i] * cross.clarity[i]):
                drawn.setdefault(geo.sides[i], {})[name] = line
    sure = {side: {n: confidence(kind, value) for n, (kind, value) in f.items()}
            for side, f in found.items()}
    traced, unsure = _absent(geo.sides, found, traces)
    return HexsideReading(sure, found, unsure, traced, drawn)


def _absent(sides: list[Hexside], found: Found, traces: dict[str, tuple[LineKind, F64]]
            ) -> tuple[Traced, dict[Hexside, dict[str, float]]]:
    """Per hexside, each line not read there with its trace (the evidence it is not there)
    and the confidence of its absence (each line's worked out for every hexside at once)."""
    sure = {name: absences(kind, trace).tolist() for name, (kind, trace) in traces.items()}
    plain = {name: trace.tolist() for name, (_, trace) in traces.items()}
    kinds = {name: kind for name, (kind, _) in traces.items()}
    out: Traced = {}
    unsure: dict[Hexside, dict[str, float]] = {}
    for i, side in enumerate(sides):
        read = found.get(side, {})
        names = [name for name in traces if name not in read]
        out[side] = {name: (kinds[name], plain[name][i]) for name in names}
        unsure[side] = {name: sure[name][i] for name in names}
    return out, unsure


@dataclass(frozen=True)
class _Scan:
    """What every reading of a scan's hexsides shares."""

    geo: SideGeometry
    reader: LineReader
    legend: Legend  # with the lines' colours as this scan shows them
    inks: F32  # the grid's colour as printed


def _prepare(image: NDArray[np.uint8], fit: GridFit, legend: Legend, light: Light,
             fills: Fills) -> _Scan:
    """The scan made ready to read: descreened, each hex's ground and texture, the colours."""
    image = descreen(image, screen_period(image, fit))
    geo = side_geometry(fit)
    reader = LineReader(image, light, geo.sides, fills, legend, geo.width)
    inside = HexColours(reader.lab, fit)
    reader.use_grounds(inside.grounds())
    legend = scan_line_colours(legend, reader, geo, light)
    some = _some(len(geo.sides))
    inks = reader.grid_ink(geo.subset(some).on_side(_GRID_T, np.linspace(-_CORE, _CORE, 5)),
                           some)
    # The lines as they look blurred (a cased road's edges are thin: its dark
    # casing alone is no colour a hex's texture must keep clear of).
    reader.use_textures(inside.textures(LineColours(legend, list(legend.features)).lab))
    return _Scan(geo, reader, legend, inks)


def _examples(legend: Legend, marks: list[str], geo: SideGeometry, fit: GridFit
              ) -> dict[str, int]:
    """Mark name -> the index in ``geo`` of its legend example hexside (if it gives one)."""
    if not any(legend.features[n].example for n in marks):
        return {}
    index = {frozenset((s.a, s.b)): i for i, s in enumerate(geo.sides)}
    grid = fit.grid
    out = {}
    for name in marks:
        example = legend.features[name].example
        if example is None:
            continue
        where = f"features.{name}.example"
        for hex_id in example:
            if not grid.has_id(hex_id):
                raise DataError(legend.source, where, f"hex '{hex_id}' is not on the map"
                                f" ({grid.describe_extent()})")
        side = index.get(frozenset(grid.hex(h) for h in example))
        if side is None:
            raise DataError(legend.source, where, f"hexes {example[0]} and {example[1]} are"
                            " not neighbours: give the two hexes either side of a bridge")
        out[name] = side
    return out


def _along(reader: LineReader, geo: SideGeometry, legend: Legend, along: list[str],
           across: list[str], inks: F32) -> tuple[dict[str, B], dict[str, B]]:
    """Per along feature, the places ``(sides, places)`` that show it, and those that
    show a trace of it: some of its colour on the hexside, line or not (a river along
    a coast that the coast's own edge hides is a trace of a river)."""
    if not along:
        return {}, {}
    # Roads cross the band: they are candidates too. Marks are not: a bridge's
    # dark grey is the grid's ink to a river's edge.
    grounds = reader.local_fills(_strip_points(geo))
    read = _on_hexside(reader.read(geo.on_side(_ALONG_T, _ALONG_S), _ALONG_S < 0, 2,
                                   LineColours(legend, [*along, *across], inks),
                                   spill=np.abs(_ALONG_S) <= _SPILL, fills=grounds,
                                   group=(_ALONG_T > 0.5).astype(np.int64)[:, None],
                                   both_symbols=True))
    # The grid's measured colour is often a blend (a thin line blurred, a screened
    # one smoothed): its mass is counted as the legend's ink would weigh it.
    ink = read.mass(GRID)
    total = np.sum([read.mass(n) for n in (*along, *across, INK)], axis=0) + ink * _weight(
        legend, inks, grounds)
    typical = total - _more_than_typical(total, read.pairs)
    typical_ink = ink - _more_than_typical(ink, read.pairs)
    # A line printed over a grid lighter than the ground (a river over a white
    # grid) covers it, leaving little of the grid's colour: it need only be as
    # wide as the grid line was. (Over a dark grid a line must be wider to show.)
    light = np.zeros(len(ink), bool) if not len(inks) else (
        float(inks[:, 0].max()) > grounds[..., 0].max(axis=0))
    covered = light[:, None] & (typical_ink >= _MASS_FLOOR) & (ink <= _COVERED * typical_ink)
    out, traced = {}, {}
    for name in along:
        mass = read.mass(name)
        wide = (total >= typical + _WIDER) | (covered & (mass >= typical))
        traced[name] = mass >= _MASS_FLOOR
        out[name] = wide & traced[name] & read.dominant(name, along)
    return out, traced


def _runs_on(sides: list[Hexside], share: F64) -> B:
    """The hexsides a line along them is read on: those where ``_ALONG_MIN`` of the places
    show it, and those showing it at ``_ALONG_GAP`` whose two ends each meet another
    hexside where it is read so (the rest hidden under a name or a symbol).

    >>> from pipeline.hexgrid import Hex
    >>> run = [Hexside(Hex(0, 0), Hex(1, 0)), Hexside(Hex(1, -1), Hex(1, 0)),
    ...        Hexside(Hex(1, -1), Hex(2, -1)), Hexside(Hex(2, -2), Hex(2, -1))]
    >>> _runs_on(run, np.array([0.9, 0.4, 0.9, 0.3])).tolist()
    [True, True, True, False]
    >>> _runs_on(run[:3], np.array([0.9, 0.4, 0.0])).tolist()
    [True, False, False]
    """
    strong = share >= _ALONG_MIN
    out = strong.copy()
    index = {frozenset((s.a, s.b)): i for i, s in enumerate(sides)}

    def shown(a: Hex, b: Hex) -> bool:
        j = index.get(frozenset((a, b)))
        return j is not None and bool(strong[j])

    for i in np.nonzero(~strong & (share >= _ALONG_GAP))[0]:
        a, b = sides[i].a, sides[i].b
        corners = set(ring(a, 1)) & set(ring(b, 1))
        out[i] = len(corners) == 2 and all(shown(a, c) or shown(b, c) for c in corners)
    return out


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


def _weight(legend: Legend, inks: F32, grounds: F32) -> float:
    """How much of the legend's ink the grid's measured colour is, from the typical ground."""
    if not len(inks):
        return 1.0
    ground = np.median(grounds.reshape(-1, 3), axis=0)
    ink = to_lab(np.array([legend.ink], float))[0]
    full = float(np.linalg.norm(ink - ground))
    return float(np.clip(np.linalg.norm(inks[0] - ground) / max(full, 1e-6), 0.0, 1.0))


def _more_than_typical(mass: F64, pairs: NDArray[np.int64]) -> F64:
    """How much more line each place ``(sides, places)`` shows than the typical place.

    The grid line is printed under every hexside, and where it and two fills
    blur together its pixels can take a line's colour (a grid line over tan
    ground reads as more of a dark brown bar than of black ink); a line
    printed along the hexside is wider than that. The typical place is judged
    among hexsides between the same two terrains where there are enough of
    them (most hexsides carry no feature), else among all.
    """
    typical = np.full(len(mass), float(np.median(mass)))
    for key in np.unique(pairs, axis=0):
        same = (pairs == key).all(axis=1)
        if same.sum() >= _PAIR_LEAST:
            typical[same] = float(np.median(mass[same]))
    out: F64 = mass - typical[:, None]
    return out


def _some(n: int) -> NDArray[np.int64]:
    """At most :data:`_SOME` of ``n`` hexsides, spread evenly: enough to measure the typical."""
    spread = np.linspace(0, n - 1, min(n, _SOME)).round().astype(np.int64)
    out: NDArray[np.int64] = np.unique(spread)
    return out


def _share(shown: B, seen: B, least: int) -> F64:
    """Share of the seen places that show a line (NaN when under ``least`` are seen)."""
    count = seen.sum(axis=1)
    out: F64 = np.where(count >= least, shown.sum(axis=1) / np.maximum(count, 1), np.nan)
    return out


def _add(found: Found, sides: list[Hexside], hit: B, name: str, kind: Kind, evidence: F64
         ) -> None:
    """Record ``name`` on the hexsides ``hit``, with the evidence (the strongest, if read twice)."""
    for i in np.nonzero(hit)[0]:
        here = found.setdefault(sides[int(i)], {})
        value = float(evidence[int(i)])
        if name not in here or here[name][1] < value:
            here[name] = (kind, value)


# -- where to read ----------------------------------------------------------------------


def _strip_points(geo: SideGeometry) -> F64:
    """Points ``(sides, 4, k, 2)`` beside each hexside, clear of what is printed on it.

    Rows: hex a's side then b's, by the first half of the hexside, then by the
    second; the middle, where roads cross, is left out.
    """
    n = len(geo.sides)
    s = np.concatenate([-_STRIP_S, _STRIP_S])
    out = []
    for t in (_STRIP_T, 1.0 - _STRIP_T):
        pts = geo.on_side(t, s)  # (n, places, 4, 2)
        out += [pts[:, :, : len(_STRIP_S)].reshape(n, -1, 2),
                pts[:, :, len(_STRIP_S):].reshape(n, -1, 2)]
    return np.stack(out, axis=1)
