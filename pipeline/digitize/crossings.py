"""Lines across hexsides: roads, tracks and railroads from one hex centre to the next.

A road is printed from hex centre to hex centre, so it crosses a hexside at
its middle, heading for the next centre. It is read on that path, short of
the hexside's middle (where a river, a bar or a bridge may cover it) and of
the centres (where roads meet and towns sit), from 20% to 42% of the way from
each centre:

* at each place along the path the line is looked for a little either side of
  it (a smoothed road bends towards its next hex before the centre); its
  cross-section is the run of its colour (as read by
  :mod:`~pipeline.digitize.linereader`) through the strongest point there;
* places where most hexsides of the same direction show something (the
  printed hex id, a dot at every centre) are the map's own furniture, and
  places hidden under another line or the ink say nothing: the line crosses
  when most of the other places on both halves show it (at the map's edge,
  the inner half decides);
* lines of one colour (a black road and a black railroad, or a black road and
  the grid's ink) are read as one, then told apart by how they are drawn: a
  railroad's ties make its cross-section several times wider at a share of
  the places, which no plain line shows; without another line of its colour
  the heaviest reading names it, as between lines of different colours;
* one stroke may read as two colours (a red road's dark core as a brown trail's colour):
  where no line shows on enough of the path alone, runs of two colours that meet across
  it are one line, named by the colour heaviest at most places.

Every hexside also gets each line's **trace**, the evidence that it is *not*
there: the share of the places on the path's half showing most of the line's
colour, each next to another that shows it too (from the first look, the
map's furniture left out: a line runs on, a speck of its colour does not). A
line crossing a hexside shows on both halves, so a hexside where neither half
shows a run of its colour carries none; a half whose ground is the line's own
colour (a grey road on a grey city) cannot show it and says nothing (NaN when
neither half can).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.colours import INK, to_lab
from pipeline.digitize.legend import Legend
from pipeline.digitize.linereader import LineColours, LineReader
from pipeline.digitize.sidegeometry import SideGeometry

__all__ = ["Crossings", "paired", "read_crossings"]

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
I64 = NDArray[np.int64]
B = NDArray[np.bool_]

_NEAR = np.linspace(0.2, 0.42, 8)  # places from a centre, as shares of the way to the next
_U = np.concatenate([_NEAR, 1.0 - _NEAR[::-1]])
_V = np.linspace(-0.12, 0.12, 25)  # beside the path, in hex widths
_BESIDE = (0.15, 0.2)  # where the ground beside the path is read, in hex widths
_FLOOR = 0.01  # least width, in hex widths, a line shows at a place
_MIN = 0.45  # share of a half's places that must show the line
_CLUTTER = 0.35  # share of hexsides of one direction busy at a place that makes it furniture
_SAME = 20.0  # Lab distance under which two lines' colours are read as one
_BLOT = 1.8  # times its typical width from which a line's colour at a place is a blot
_BLOT_MORE = 0.04  # and at least this much wider, in hex widths
_STEP = 0.03  # hex widths a line's middle may move between neighbouring places
_INK_LIKE = 15.0  # Lab distance under which a line's colour is the ink's
_TIE_MORE = 0.02  # how much further than the line a tie reaches on both sides, in hex widths
_TIE_NEAR = 3  # fine places either side among which the line's own width is found
_TIES = 0.2  # share of the places showing a tie that makes the line a railroad
_TIE_GAP = 0.1  # least difference of the two groups' mean tie shares that splits a map's lines
_TIE_CLEAR = 0.6  # least share of the tie shares' spread that is between the two groups
_FINE_NEAR = np.linspace(0.18, 0.42, 25)
_COARSE_NEAR = np.linspace(0.2, 0.42, 8)  # the first look on every hexside
_COARSE_U = np.concatenate([_COARSE_NEAR, 1.0 - _COARSE_NEAR[::-1]])
_COARSE_V = np.linspace(-0.04, 0.04, 3)
_FINE_U = np.concatenate([_FINE_NEAR, 1.0 - _FINE_NEAR[::-1]])


@dataclass(frozen=True)
class Crossings:
    """What crosses each hexside.

    Attributes
    ----------
    feature
        Per hexside, the index into ``names`` of the line crossing it, -1 for none.
    share
        Per hexside, the share of the weaker half's places that show the line.
    ties
        Per hexside, the share of the places showing it that show a tie.
    names
        The across features read.
    clarity
        Per hexside, how clearly its ties told the line from another of its
        colour (1 where nothing needed telling; 0 at the map's split).
    trace
        ``(hexsides, names)``: the share of places showing each line's colour on
        the half of the path that shows most of it (NaN where neither half can
        show it: off the map, or on ground of the line's own colour).
    """

    feature: I64
    share: F64
    ties: F64
    names: list[str]
    clarity: F64
    trace: F64


def read_crossings(reader: LineReader, geo: SideGeometry, legend: Legend, names: list[str],
                   others: list[str]) -> Crossings:
    """Which of the lines ``names`` crosses each hexside of ``geo``.

    Parameters
    ----------
    reader, geo
        The pixel reader and the hexsides' geometry.
    legend
        The legend (the features' colours, ticks and casings).
    names
        The across features to read.
    others
        Other features whose colours may be printed on the path (a bridge).

    No grid line runs along the path, so the grid's colour as measured on the
    scan is not asked for there (a halftone grid's grey is a light road's,
    blurred): the legend's ink stands for the printed ids and names.
    """
    n = len(geo.sides)
    feature = np.full(n, -1, np.int64)
    share = np.zeros(n)
    ties = np.zeros(n)
    if not names or n == 0:
        return Crossings(feature, share, ties, names, np.ones(n), np.zeros((n, len(names))))
    colours = LineColours(legend, [*names, *others])
    groups = _colour_groups(legend, names, colours)
    # A first look on every hexside, against its hexes' grounds: which show one
    # of the lines' colours on both halves, and where the map's furniture is.
    coarse = reader.read(geo.on_path(_COARSE_U, _COARSE_V), _COARSE_U < 0.5, 1, colours)
    furniture_all = _furniture((coarse.label >= 0).any(axis=2), geo)
    trace = _traces(reader, geo, legend, names, colours, groups, coarse.label, furniture_all)
    lit = np.isin(coarse.label, np.concatenate(groups)).any(axis=2)
    rows = np.nonzero(_both_halves(lit, np.ones_like(lit), geo.inner) > 0)[0]
    if not len(rows):
        return Crossings(feature, share, ties, names, np.ones(n), trace)
    full = geo
    geo = geo.subset(rows)
    furniture = furniture_all[rows][:, np.abs(_U[:, None] - _COARSE_U[None, :]).argmin(axis=1)]
    read = reader.read(geo.on_path(_U, _V), _U < 0.5, 1, colours,
                       fills=reader.local_fills(_beside_points(geo)), rows=rows)
    spacing = float(_V[1] - _V[0])
    window = np.abs(_V)[None, :] <= _tolerance(_U)[:, None]  # (U, V)
    n = len(rows)
    share = np.zeros(n)
    known = np.zeros(read.label.shape, bool)
    runs = []
    peaks = []
    for members in groups:
        in_g = np.isin(read.label, members)
        known |= in_g
        runs.append(_run(in_g, read.strength, window, spacing))
        peaks.append(np.where(in_g & window[None], read.strength, np.float32(0.0)).argmax(axis=2))
    heaviest = np.max([r[0] for r in runs], axis=0)
    other = np.where(~known & window[None], read.strength, 0.0).sum(axis=2) * spacing

    def judged(rival: list[NDArray[Any]]) -> list[tuple[F64, B, B]]:
        """Each group's share of places showing its line against ``rival`` masses, with
        the places that show it and those that say anything."""
        out = []
        for g, (mass, left, right) in enumerate(runs):
            shown = (mass >= _FLOOR) & (mass >= rival[g])
            seen = ~furniture & (shown | (other < _FLOOR))
            s = _both_halves(shown & seen, seen, geo.inner)
            ticked = any(legend.features[colours.owners[int(k)]].ticks for k in groups[g]
                         if colours.owners[int(k)] in names)
            if not ticked:
                # A line is as wide on every crossing of a map: a blot of its colour
                # (a town's blocks, rocks) much wider than its typical crossing is none.
                width = left + right
                typical = np.median(width[(s >= _MIN)[:, None] & shown & seen]) if (
                    (s >= _MIN)[:, None] & shown & seen).any() else np.inf
                shown &= width <= max(_BLOT * typical, typical + _BLOT_MORE)
            shown &= _steady(_V[0] + (peaks[g] + (right - left) / 2 / spacing) * spacing,
                             shown)
            out.append((_both_halves(shown & seen, seen, geo.inner), shown, seen))
        return out

    group = np.full(n, -1, np.int64)
    first = judged([heaviest] * len(runs))
    for g, (s, _, _) in enumerate(first):
        better = (s >= _MIN) & (s > share)
        group[better] = g
        share[better] = s[better]
    # One stroke read as two colours (a red road's dark core read as the brown trail's
    # colour at some places, its edges as the road's): where no line won on its own, a
    # run of another colour touching a line's run is that line, not its rival, and the
    # hexside goes to the colour heaviest at most places.
    lost = group < 0
    if len(runs) > 1 and lost.any():
        spans = [(peaks[g] - left / spacing, peaks[g] + right / spacing, mass > 0)
                 for g, (mass, left, right) in enumerate(runs)]
        rival = [np.max([np.where(_touching(spans[g], spans[h]), 0.0, runs[h][0])
                         for h in range(len(runs)) if h != g], axis=0)
                 for g in range(len(runs))]
        most = np.full(n, -1)
        for g, (s, _, _) in enumerate(judged(rival)):
            count = (first[g][1] & first[g][2]).sum(axis=1)
            better = lost & (s >= _MIN) & (count > most)
            group[better] = g
            share[better] = s[better]
            most = np.where(better, count, most)
    found = np.full(n, -1, np.int64)
    found_ties = np.zeros(n)
    found_clarity = np.ones(n)
    for g, members in enumerate(groups):
        mine = np.nonzero(group == g)[0]
        own = [nm for nm in names if nm in {colours.owners[int(k)] for k in members}]
        if not len(mine):
            continue
        if any(legend.features[nm].ticks for nm in own):
            found_ties[mine] = _tie_shares(reader, geo.subset(mine), rows[mine], colours,
                                           members, furniture[mine])
        found[mine], found_clarity[mine] = _name(legend, names, own, colours, read.label[mine],
                                                 read.strength[mine], found_ties[mine])
    feature = np.full(len(full.sides), -1, np.int64)
    feature[rows] = found
    out_share = np.zeros(len(full.sides))
    out_share[rows] = share
    ties = np.zeros(len(full.sides))
    ties[rows] = found_ties
    clarity = np.ones(len(full.sides))
    clarity[rows] = found_clarity
    return Crossings(feature, out_share, ties, names, clarity, trace)


def _traces(reader: LineReader, geo: SideGeometry, legend: Legend, names: list[str],
            colours: LineColours, groups: list[I64], label: I64, furniture: B) -> F64:
    """Each line's trace on every hexside, ``(hexsides, names)`` (see :class:`Crossings`).

    ``label`` is the first look's reading ``(hexsides, places, across)``. Lines
    read as one (one colour) share their trace: which of them it is, the
    reading tells where one crosses.
    """
    half = label.shape[1] // 2
    halves = (slice(0, half), slice(half, None))
    out = np.full((len(geo.sides), len(names)), np.nan)
    for members in groups:
        mine = np.isin(label, members).any(axis=2)
        # Under another line's colour, a mark or the ink (a bridge, a name) the line may
        # run unseen: such places say nothing, and they join the places either side.
        under = ((label >= 0) & ~np.isin(label, members)).any(axis=2) & ~mine
        seen = ~furniture & ~under
        lit = paired(mine & ~furniture, halves, beside=under)
        own = [k for k, nm in enumerate(names) if colours.owners.index(nm) in members]
        lab = to_lab(np.array([c for k in own for c in legend.features[names[k]].colours],
                              float))
        visible = geo.inner & ~reader.hides(lab).T  # (hexsides, 2)
        shares = []
        for k, part in enumerate(halves):
            count = seen[:, part].sum(axis=1)
            s = lit[:, part].sum(axis=1) / np.maximum(count, 1)
            shares.append(np.where(visible[:, k] & (count > 0), s, np.nan))
        out[:, own] = np.fmax(*shares)[:, None]  # NaN only where neither half can show it
    return out


def paired(shown: B, parts: tuple[slice, ...], beside: B | None = None) -> B:
    """Places ``(hexsides, places)`` that show a line next to a place that shows it too.

    Places are judged within each of ``parts`` (the halves of a path, or a hexside's
    whole length): a line runs on through neighbouring places, a speck of its colour
    (a town's dot, a letter) lights one. A place ``beside`` (where the line may run
    hidden) counts as a neighbour that shows it.

    >>> paired(np.array([[True, True, False, True]]), (slice(0, 4),)).tolist()
    [[True, True, False, False]]
    >>> paired(np.array([[True, False, False, True]]), (slice(0, 4),),
    ...        beside=np.array([[False, False, True, False]])).tolist()
    [[False, False, False, True]]
    """
    near = shown if beside is None else shown | beside
    out = np.zeros_like(shown)
    for part in parts:
        s, n = shown[:, part], near[:, part]
        keep = np.zeros_like(s)
        keep[:, 1:] |= s[:, 1:] & n[:, :-1]
        keep[:, :-1] |= s[:, :-1] & n[:, 1:]
        out[:, part] = keep
    return out


def _colour_groups(legend: Legend, names: list[str], colours: LineColours) -> list[I64]:
    """Candidate colour indices of each group of lines read as one (their colours alike)."""
    lab = {nm: to_lab(np.array(legend.features[nm].colours, float)) for nm in names}
    parent = list(range(len(names)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i in range(len(names)):
        for j in range(i):
            d = np.linalg.norm(lab[names[i]][:, None] - lab[names[j]][None], axis=-1)
            if float(d.min()) < _SAME:
                parent[root(i)] = root(j)
    out = []
    for r in sorted({root(i) for i in range(len(names))}):
        members = [names[i] for i in range(len(names)) if root(i) == r]
        idx = [k for k, o in enumerate(colours.owners) if o in members]
        own = np.concatenate([lab[m] for m in members])
        # The inks the lines are printed like: a black road is read with the grid's
        # black, not with a white grid's white.
        idx += [k for k, o in enumerate(colours.owners) if o == INK and float(
            np.linalg.norm(own - colours.lab[k][None], axis=-1).min()) < _INK_LIKE]
        out.append(np.array(sorted(idx), np.int64))
    return out


def _tolerance(u: F64) -> F64:
    """How far beside the path a line may run at ``u``, in hex widths (more nearer a centre)."""
    out: F64 = 0.03 + 0.1 * np.abs(0.5 - np.asarray(u))
    return out


def _run(in_g: B, strength: F32, window: B, spacing: float) -> tuple[F64, F64, F64]:
    """Mass of the run of a colour through its strongest point near the path, and its reach.

    ``in_g`` and ``strength`` are ``(n, U, V)``; the run is the unbroken stretch
    of the colour, across the whole width read, through the strongest of its
    points within ``window``. All are in hex widths; the reaches are how far the
    run goes from that point on either side (a tie reaches out on both).
    """
    w = np.where(in_g & window[None], strength, np.float32(0.0))
    peak = w.argmax(axis=2)
    present = w.max(axis=2) > 0
    breaks = np.cumsum(~in_g, axis=2)
    target = np.take_along_axis(breaks, peak[..., None], axis=2)
    member = in_g & (breaks == target) & present[..., None]
    mass: F64 = np.where(member, strength, 0.0).sum(axis=2) * spacing
    idx = np.arange(in_g.shape[2])
    lo = np.where(member, idx, in_g.shape[2]).min(axis=2)
    hi = np.where(member, idx, -1).max(axis=2)
    left: F64 = np.where(present, peak - lo, 0) * spacing
    right: F64 = np.where(present, hi - peak, 0) * spacing
    return mass, left, right


def _touching(a: tuple[F64, F64, B], b: tuple[F64, F64, B]) -> B:
    """Places where two runs ``(first, last, present)`` (indices across the path) overlap
    or meet: one stroke.

    >>> road = (np.array([7.0, 7.0]), np.array([11.0, 11.0]), np.array([True, True]))
    >>> core = (np.array([12.0, 14.0]), np.array([15.0, 16.0]), np.array([True, True]))
    >>> _touching(road, core).tolist()
    [True, False]
    """
    out: B = a[2] & b[2] & (b[0] <= a[1] + 1) & (a[0] <= b[1] + 1)
    return out


def _steady(centre: F64, shown: B) -> B:
    """Places showing a line whose neighbour along the path shows it in line with them.

    A line runs on, a little to one side at most between neighbouring places;
    specks of its colour (a town's blocks, rocks, dots) lie anywhere. The two
    halves of the path are judged apart.
    """
    out = np.zeros_like(shown)
    half = shown.shape[1] // 2
    for part in (slice(0, half), slice(half, None)):
        c, s = centre[:, part], shown[:, part]
        pair = s[:, 1:] & s[:, :-1] & (np.abs(np.diff(c, axis=1)) <= _STEP)
        keep = np.zeros_like(s)
        keep[:, 1:] |= pair
        keep[:, :-1] |= pair
        out[:, part] = keep
    return out


def _furniture(busy: B, geo: SideGeometry) -> B:
    """Places most hexsides of the same direction show something at: the map's own furniture.

    Each half of the path is judged from its own hex: hex a looks along the
    hexside's direction, hex b the opposite way.
    """
    _n, u = busy.shape
    half = u // 2
    own = np.stack([geo.direction, (geo.direction + 3) % 6], axis=1)  # (n, 2)
    # Places of each half as distances from its own centre: (n, 2, half).
    by_half = np.stack([busy[:, :half], busy[:, half:][:, ::-1]], axis=1)
    inner = geo.inner.all(axis=1)
    rate = np.zeros((6, half))
    for d in range(6):
        pick = (own == d) & inner[:, None]
        if pick.any():
            rate[d] = by_half[pick].mean(axis=0)
    clutter = rate[own] >= _CLUTTER  # (n, 2, half)
    out: B = np.concatenate([clutter[:, 0], clutter[:, 1][:, ::-1]], axis=1)
    return out


def _both_halves(shown: B, seen: B, inner: B) -> F64:
    """The weaker half's share of seen places that show the line.

    Off the map there is nothing to read, and a half with under two places
    seen says nothing: the other half decides.
    """
    half = shown.shape[1] // 2
    shares = []
    for part in (slice(0, half), slice(half, None)):
        count = seen[:, part].sum(axis=1)
        shares.append(np.where(count >= 2, shown[:, part].sum(axis=1) / np.maximum(count, 1),
                               np.nan))
    a, b = shares
    a = np.where(inner[:, 0] & ~np.isnan(a), a, b)
    b = np.where(inner[:, 1] & ~np.isnan(b), b, a)
    out: F64 = np.nan_to_num(np.minimum(a, b))
    return out


def _ties(left: F64, right: F64, shown: B) -> F64:
    """Share of the places showing a line where it reaches out on both sides: a tie.

    The line's own width is its narrowest reach near each place (ties may
    come close together, but not without a gap); a tie reaches
    :data:`_TIE_MORE` further on both sides, within a few places of each other
    (a curving railroad's ties are slanted to the path), where text or a
    symbol beside the line reaches out on one. The two halves of the path are
    judged apart.
    """
    wide = [shown & (r >= _near(np.where(shown, r, np.inf), np.minimum) + _TIE_MORE)
            for r in (left, right)]
    both = (wide[0] & _near(wide[1], np.maximum)) | (wide[1] & _near(wide[0], np.maximum))
    count = shown.sum(axis=1)
    out: F64 = np.where(count > 0, both.sum(axis=1) / np.maximum(count, 1), 0.0)
    return out


def _near(values: NDArray[Any], reduce: Any) -> NDArray[Any]:
    """``reduce`` (minimum or maximum) of ``values`` over :data:`_TIE_NEAR` places either side.

    Along each half of the path apart, ``(n, places)``.
    """
    out = values.copy()
    half = values.shape[1] // 2
    for part in (slice(0, half), slice(half, None)):
        m = values[:, part]
        for k in range(1, _TIE_NEAR + 1):
            out[:, part][:, k:] = reduce(out[:, part][:, k:], m[:, :-k])
            out[:, part][:, :-k] = reduce(out[:, part][:, :-k], m[:, k:])
    return out


def _tie_shares(reader: LineReader, geo: SideGeometry, rows: I64, colours: LineColours,
                members: I64, furniture: B) -> F64:
    """Share of the places along each path where its line shows a tie, read finely.

    A railroad's ties are thin strokes a little apart: the path is read every
    1% of a hex, where the places that tell whether a line crosses are 3% apart.
    Places near the map's furniture (``furniture`` at those places) are left out:
    a hex id printed over a road reaches out on both sides of it.
    """
    read = reader.read(geo.on_path(_FINE_U, _V), _FINE_U < 0.5, 1, colours,
                       fills=reader.local_fills(_beside_points(geo)), rows=rows)
    spacing = float(_V[1] - _V[0])
    window = np.abs(_V)[None, :] <= _tolerance(_FINE_U)[:, None]
    mass, left, right = _run(np.isin(read.label, members), read.strength, window, spacing)
    nearest = np.abs(_FINE_U[:, None] - _U[None, :]).argmin(axis=1)
    return _ties(left, right, (mass >= _FLOOR) & ~furniture[:, nearest])


def _name(legend: Legend, names: list[str], own: list[str], colours: LineColours, label: I64,
          strength: F32, ties: F64) -> tuple[I64, F64]:
    """Which of the lines ``own`` (read as one) crosses each hexside, an index into ``names``.

    Where lines drawn with ties and lines drawn without share a colour, ties
    name them: this map's crossings split in two by their tie shares (every
    railroad of a map has its ties as long and as close). Among lines drawn
    alike, the one whose own colours weigh most on the path. Also returns how
    far each crossing's tie share is from the split (1 when none was needed).
    """
    weight = np.stack([np.where(np.isin(label, [k for k, o in enumerate(colours.owners)
                                                if o == nm]), strength, 0.0).sum(axis=(1, 2))
                       for nm in own])
    ticked = [i for i, nm in enumerate(own) if legend.features[nm].ticks]
    plain = [i for i, nm in enumerate(own) if not legend.features[nm].ticks]
    if not (ticked and plain):
        return (np.array([names.index(own[int(i)]) for i in weight.argmax(axis=0)], np.int64),
                np.ones(len(label)))
    out = np.full(len(label), -1, np.int64)
    split = _tie_split(ties)
    with_ties = ties >= split
    for pick, where in ((ticked, with_ties), (plain, ~with_ties)):
        best = np.array([names.index(own[pick[int(i)]])
                         for i in weight[pick].argmax(axis=0)], np.int64)
        out = np.where(where, best, out)
    return out, np.clip(np.abs(ties - split) / _TIE_GAP, 0.0, 1.0)


def _tie_split(ties: F64) -> float:
    """The tie share that splits a map's crossings into lines with ties and lines without.

    Otsu's threshold, when it separates two clear groups (most of the spread
    between them); else :data:`_TIES`.
    """
    values = np.sort(ties)
    n = len(values)
    if n < 4 or float(values.var()) == 0.0:
        return _TIES
    k = np.arange(1, n)
    total = np.cumsum(values)
    mean_lo = total[:-1] / k
    mean_hi = (total[-1] - total[:-1]) / (n - k)
    between = (k / n) * (1 - k / n) * (mean_hi - mean_lo) ** 2
    best = int(np.argmax(between))
    if between[best] / float(values.var()) >= _TIE_CLEAR and \
            mean_hi[best] - mean_lo[best] >= _TIE_GAP:
        return float((values[best] + values[best + 1]) / 2)
    return _TIES


def _beside_points(geo: SideGeometry) -> F64:
    """Points ``(n, 2, k, 2)`` beside the path in each hex, clear of even a wide road on it."""
    v = np.array([-_BESIDE[1], -_BESIDE[0], _BESIDE[0], _BESIDE[1]])
    a = geo.on_path(_NEAR, v).reshape(len(geo.sides), -1, 2)
    b = geo.on_path(1.0 - _NEAR, v).reshape(len(geo.sides), -1, 2)
    return np.stack([a, b], axis=1)
