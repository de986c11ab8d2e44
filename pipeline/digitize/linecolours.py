"""The colours of the legend's lines as this scan prints them.

Pixels are read corrected for the light (as printed on the legend's paper,
see :mod:`~pipeline.digitize.light`), but a builder often picks a road's or a
river's colour straight off the scan, under the scan's own light, while a
legend taken from a map document holds the printer's colours. Nothing in the
legend says which unless it names its paper (a map document's colours are the
printer's), and on a yellowed or dim scan the two differ by more than a faint
line differs from its ground. So each line's colours are tried both ways, as
given and as picked under the map's typical light (divided by the median
gain), and the reading under which more of the pixels near hexsides and on
the paths between hex centres are wholly the line's colour (as the ground
plus the line, nothing left over) is kept.

A colour picked off the scan is then taken as the scan shows it over the
whole sheet: the median of the pixels it explains almost wholly, when there
are enough of them and they stay close to it (a builder's pick may come from
a bright or a shaded part of the sheet).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.colours import to_lab
from pipeline.digitize.legend import RGB, FeatureKey, Legend
from pipeline.digitize.light import Light
from pipeline.digitize.linereader import LineReader
from pipeline.digitize.sidegeometry import SideGeometry

__all__ = ["scan_line_colours"]

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]

_SIDES = 1_000  # hexsides sampled, at most
_SEED = 11
_FIT = 6.0  # Lab residual under which a pixel is explained by the ground and a line
_PURE = 0.9  # share from which a pixel is the line's own colour
_BETTER = 1.15  # how many more pixels the other light must explain to be taken
_LEAST = 30  # pure pixels needed to take a colour as the scan shows it
_NEAR = 25.0  # Lab distance the colour as shown may move from the legend's
_ROUNDS = 3
_BEYOND = 1.3  # share beyond the colour a pixel may hold when the colour is re-measured
_LOOSE = 10.0  # and the Lab residual it may leave
_QUIET = 8.0  # Lab distance from the ground under which a pixel shows no line


def scan_line_colours(legend: Legend, reader: LineReader, geo: SideGeometry, light: Light
                      ) -> Legend:
    """The legend with each hexside feature's colours as this scan shows them.

    Parameters
    ----------
    legend
        The legend as given.
    reader
        Reads the scan (its hexes' fills, light corrected).
    geo
        The hexsides, where the lines are looked for.
    light
        The light the scan is corrected for.
    """
    if not legend.features or not geo.sides or legend.as_printed:
        # Colours known to be as printed are read as given.
        return legend
    lab, fill = _samples(reader, geo)
    gain = np.median(light.gain(geo.centres[:, 0, 0], geo.centres[:, 0, 1]), axis=0)
    features = {}
    for name, key in legend.features.items():
        given = _lab(key)
        picked = _lab(key, gain)
        a_share, _ = _explained(lab, fill, given, top=_BEYOND)
        b_share, _ = _explained(lab, fill, picked, top=_BEYOND)
        scan_light = _pure_count(b_share) > _BETTER * _pure_count(a_share)
        features[name] = _as_shown(key, gain if scan_light else None, lab, fill)
    return replace(legend, features=features)


def _samples(reader: LineReader, geo: SideGeometry) -> tuple[F32, F32]:
    """Lab pixels near hexsides and on the paths between centres, and the fill of each."""
    n = len(geo.sides)
    rng = np.random.default_rng(_SEED)
    rows = np.sort(rng.choice(n, min(n, _SIDES), replace=False))
    sub = geo.subset(rows)
    along = sub.on_side(np.linspace(0.2, 0.8, 7), np.linspace(-0.06, 0.06, 7))
    path = sub.on_path(np.array([0.25, 0.32, 0.39, 0.61, 0.68, 0.75]), np.linspace(-0.05, 0.05, 7))
    lab = np.concatenate([reader.lab(along).reshape(len(rows), -1, 3),
                          reader.lab(path).reshape(len(rows), -1, 3)], axis=1)
    # Each point against the fill of the hex it lies in.
    side_along = np.broadcast_to((np.linspace(-0.06, 0.06, 7) > 0)[None, :], (7, 7)).ravel()
    side_path = np.broadcast_to((np.array([0.25, 0.32, 0.39, 0.61, 0.68, 0.75]) > 0.5)[:, None],
                                (6, 7)).ravel()
    side = np.concatenate([side_along, side_path]).astype(np.int64)
    fill = np.ascontiguousarray(reader.fill[:, rows][side].transpose(1, 0, 2),
                                np.float32).reshape(-1, 3)  # each point's fill
    lab = lab.reshape(-1, 3)
    # Only pixels unlike their fill can show a line.
    busy = ((lab - fill) ** 2).sum(axis=1) >= _QUIET ** 2
    return lab[busy], fill[busy]


def _lab(key: FeatureKey, gain: F64 | None = None) -> F32:
    """A feature's colours (and its casing's blends) in Lab, divided by ``gain`` if given."""
    colours = [np.array(c, float) for c in key.colours]
    colours += [(1 - w) * np.array(c, float) + w * np.array(k, float)
                for c in key.colours for k in key.casing for w in (0.15, 0.3, 0.45)]
    rgb = np.array(colours)
    if gain is not None:
        rgb = np.clip(rgb / gain[None, :], 0, 255)
    return to_lab(rgb)


def _explained(lab: F32, fill: F32, colours: F32, top: float = 1.2, fit: float = _FIT
               ) -> tuple[F64, NDArray[np.int64]]:
    """Per pixel, the share of the best-fitting line colour (0 where none fits) and which.

    A pixel is its fill plus a share (up to ``top``) of a line colour, leaving
    at most ``fit`` (Lab) unexplained.
    """
    v = (lab - fill).astype(np.float64)
    d = colours[None, :, :].astype(np.float64) - fill[:, None, :]
    dd = np.maximum((d * d).sum(axis=2), 1e-6)
    a = np.clip((v[:, None, :] * d).sum(axis=2) / dd, 0.0, top)
    resid = np.linalg.norm(v[:, None, :] - a[..., None] * d, axis=2)
    best = resid.argmin(axis=1)
    rows = np.arange(len(lab))
    busy = np.linalg.norm(v, axis=1) >= _QUIET
    share = np.where(busy & (resid[rows, best] <= fit), a[rows, best], 0.0)
    return share, best


def _as_shown(key: FeatureKey, gain: F64 | None, pixels: F32, fill: F32) -> FeatureKey:
    """The feature with its colours under the light they were taken in (divided by ``gain``
    when picked off the scan), each moved to its own as the scan shows it.

    A few rounds of: the median of the pixels that are (nearly) wholly the
    colour, or a little beyond it from their ground (a pick from a bright part
    of the sheet is paler than the line elsewhere), within :data:`_NEAR` of the
    start; kept if more pixels are then wholly the colour.
    """
    n = len(key.colours)
    start = _lab(key, gain)[:n]
    lab = start.copy()
    # Colours as given are the printer's (or the scan's under the light it is read
    # in): only a pick off the scan comes from one spot of it, blurred and lit as
    # that spot is.
    for _ in range(_ROUNDS if gain is not None else 0):
        share, best = _explained(pixels, fill, lab, top=_BEYOND, fit=_LOOSE)
        for i in range(n):
            pure = (share >= _PURE) & (best == i)
            if int(pure.sum()) >= _LEAST:
                seen = np.median(pixels[pure], axis=0)
                if float(np.linalg.norm(seen - start[i])) <= _NEAR:
                    lab[i] = seen
    # Kept only if more pixels are (nearly) wholly it than were the colour it started from.
    if _pure(pixels, fill, lab) <= _pure(pixels, fill, start):
        lab = start
    casing = tuple(key.casing) if gain is None else tuple(
        _rgb(to_lab(np.clip(np.array([c], float) / gain[None, :], 0, 255))[0])
        for c in key.casing)
    return replace(key, colours=tuple(_rgb(c) for c in lab), casing=casing)


def _pure_count(share: F64) -> int:
    """How many pixels are (nearly) wholly a line's colour, by their shares of it."""
    return int((share >= _PURE).sum())


def _pure(pixels: F32, fill: F32, lab: F32) -> int:
    """How many pixels are (nearly) wholly one of the colours ``lab``."""
    share, _ = _explained(pixels, fill, lab, top=_BEYOND)
    return int((share >= _PURE).sum())


def _rgb(lab: F32) -> RGB:
    """An RGB colour (0-255 integers) from Lab."""
    rgb = cv2.cvtColor(np.asarray(lab, np.float32).reshape(1, 1, 3), cv2.COLOR_Lab2RGB)
    r, g, b = (int(round(float(v) * 255)) for v in np.clip(rgb.reshape(3), 0, 1))
    return r, g, b
