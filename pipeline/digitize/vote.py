"""Terrain per hex by legend colour: the colour most of its interior shows, with shares.

This is how a legend that gives each terrain's printed colour is read when no examples
are shown: the terrain learner (:mod:`~pipeline.digitize.learn`) takes the hexes it is
sure of as its examples.

Each hex is read inside an inset of its outline (70% of its size), which
keeps clear of the grid line and of rivers and bars along the hexsides.
Every sampled pixel is corrected for the light (:mod:`~pipeline.digitize.light`)
and named by the nearest legend colour (:mod:`~pipeline.digitize.colours`);
pixels nearest to a road, a river or the grid's ink are not terrain and do not
vote. Voting, rather than averaging, makes textures and symbols harmless: tree
dots in a wood are a minority of its pixels, whatever colour they are.

The light is fitted from the paper around the map, then refitted from the
hexes the first pass is sure of, and the hexes classified again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.colours import Palette
from pipeline.digitize.gridfit import GridFit, among, hex_units
from pipeline.digitize.legend import RGB, Legend
from pipeline.digitize.light import Light, fit_light
from pipeline.digitize.scanfile import read_pixels
from pipeline.errors import DataError
from pipeline.hexgrid import Hex
from pipeline.hexgrid.coords import SCALE, direction_vectors, scaled_corners

__all__ = [
    "INSET",
    "Votes",
    "inset_pattern",
    "paper_samples",
    "sample_terrain",
    "vote_terrain",
]

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]

INSET = 0.7
MAX_DISTANCE = 30.0  # Lab distance beyond which a pixel matches no legend colour
SECONDARY = 0.06  # share of a hex at which a second terrain is reported
_SURE = 0.7  # main share from which a hex's colour calibrates the light
_ROUNDS = 3
_LIGHT_STEP = 3  # the rounds that refit the light read every third sample


def inset_pattern(fit: GridFit, samples: int = 120) -> F64:
    """Sample points inside the inset hex, in pitch units relative to the centre, ``(k, 2)``.

    A square grid in pixels (so samples are evenly spread however the hex is
    stretched), at a spacing that gives about ``samples`` points, at least one
    pixel apart.
    """
    orientation = fit.grid.orientation
    su, sv = SCALE[orientation]
    corners = np.array(scaled_corners(Hex(0, 0), orientation), float) / (su, sv) * INSET
    m = fit.jacobian((0.0, 0.0))
    pix = corners @ m.T
    area = 0.5 * abs(float(np.sum(pix[:, 0] * np.roll(pix[:, 1], -1)
                                  - np.roll(pix[:, 0], -1) * pix[:, 1])))
    step = max(1.0, math.sqrt(area / samples))
    lo, hi = pix.min(axis=0), pix.max(axis=0)
    xs = np.arange(lo[0] + step / 2, hi[0], step)
    ys = np.arange(lo[1] + step / 2, hi[1], step)
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    inside = _in_polygon(grid, pix)
    out: F64 = grid[inside] @ np.linalg.inv(m).T
    return out


def _in_polygon(points: F64, poly: F64) -> NDArray[np.bool_]:
    """Points inside a convex polygon given clockwise on screen (y down)."""
    ok = np.ones(len(points), bool)
    for i in range(len(poly)):
        a, b = poly[i - 1], poly[i]
        cross = (b[0] - a[0]) * (points[:, 1] - a[1]) - (b[1] - a[1]) * (points[:, 0] - a[0])
        ok &= cross >= 0
    if not ok.any():  # counter-clockwise after a mirror: test the other side
        ok = np.ones(len(points), bool)
        for i in range(len(poly)):
            a, b = poly[i - 1], poly[i]
            ok &= (b[0] - a[0]) * (points[:, 1] - a[1]) - (b[1] - a[1]) * (points[:, 0] - a[0]) <= 0
    return ok


def paper_samples(image: NDArray[np.uint8], fit: GridFit, *, darker: bool = False
                  ) -> tuple[F64, F64, F64]:
    """Paper samples just outside the map's edge: positions ``x``, ``y`` and colours ``(n, 3)``.

    One sample beyond the middle of every edge hexside, 15% of a hex past the
    grid line; samples much darker than the paper around them (a road leaving
    the map, the scanner lid) are dropped unless ``darker`` (a shadow over the paper
    is kept then: the caller judges the samples).
    """
    grid = fit.grid
    qr = np.array(grid.hexes(), np.int64).reshape(-1, 2)
    steps = np.array(direction_vectors(grid.orientation), np.int64)
    beyond = (qr[:, None, :] + steps[None, :, :]).reshape(-1, 2)
    off = ~among(beyond, qr)
    if not off.any():
        return np.empty(0), np.empty(0), np.empty((0, 3))
    a = hex_units(np.repeat(qr, len(steps), axis=0)[off], grid.orientation)
    b = hex_units(beyond[off], grid.orientation)
    xy = fit.to_pixel(a + 0.65 * (b - a))
    hgt, wid = image.shape[:2]
    inside = (xy[:, 0] >= 1) & (xy[:, 0] < wid - 1) & (xy[:, 1] >= 1) & (xy[:, 1] < hgt - 1)
    xy = xy[inside]
    patch = np.stack([read_pixels(image, xy + (dx, dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)])
    colours = np.median(patch.astype(np.float64), axis=0)
    luma = colours @ np.array([0.299, 0.587, 0.114])
    if darker:
        return xy[:, 0], xy[:, 1], colours
    keep = luma >= 0.8 * np.quantile(luma, 0.9) if len(luma) else np.zeros(0, bool)
    return xy[keep, 0], xy[keep, 1], colours[keep]


def sample_terrain(image: NDArray[np.uint8], fit: GridFit, light: Light, hex_id: str,
                   source: str | None = None) -> RGB:
    """The printed colour of a hex's interior (median, light corrected), for ``--sample``."""
    if not fit.grid.has_id(hex_id):
        raise DataError(source, "--sample", f"hex '{hex_id}' is not on the map"
                        f" ({fit.grid.describe_extent()})")
    h = fit.grid.hex(hex_id)
    uv = hex_units([h], fit.grid.orientation) + inset_pattern(fit, 400) * 0.8
    xy = fit.to_pixel(uv)
    rgb = light.correct(read_pixels(image, xy), xy[:, 0], xy[:, 1])
    med = np.clip(np.median(rgb, axis=0), 0, 255)
    return int(round(med[0])), int(round(med[1])), int(round(med[2]))


def vote_terrain(image: NDArray[np.uint8], fit: GridFit, legend: Legend,
                 light: Light | None = None) -> tuple[Votes, Light]:
    """Every hex's votes by legend colour (in ``fit.grid.hexes()`` order), and the light.

    Parameters
    ----------
    image
        The scan (RGB).
    fit
        The grid on it.
    legend
        Terrain colours (all sampled) and feature colours.
    light
        A light to start from; by default fitted to the paper around the map.
    """
    palette = Palette.from_legend(legend)
    hexes = fit.grid.hexes()
    centres = hex_units(hexes, fit.grid.orientation)
    pattern = inset_pattern(fit)
    xy = fit.to_pixel((centres[:, None, :] + pattern[None, :, :]).reshape(-1, 2))
    pixels = read_pixels(image, xy).reshape(len(hexes), len(pattern), 3)
    cxy = fit.to_pixel(centres)
    hgt, wid = image.shape[:2]
    px, py, pcol = paper_samples(image, fit)
    paper = np.tile(np.asarray(legend.paper, float), (len(px), 1))
    if light is None:
        light = fit_light(px, py, pcol, paper, wid, hgt)
    for _ in range(_ROUNDS - 1):
        # These rounds only refit the light, to sure hexes' mean colours: a few of
        # each hex's samples tell those as well as all of them.
        few = pixels[:, ::_LIGHT_STEP]
        votes, ref = _vote(few, light.gain(cxy[:, 0], cxy[:, 1]), palette)
        light = _relight(few, ref, votes.sure_ref, cxy, palette, (px, py, pcol, paper), wid, hgt)
    votes, _ = _vote(pixels, light.gain(cxy[:, 0], cxy[:, 1]), palette)
    return votes, light


def _vote(pixels: NDArray[np.uint8], gain: F64, palette: Palette) -> tuple[Votes, I64]:
    """Each hex's votes from its pixels ``(n, k, 3)`` under a gain per hex ``(n, 3)``.

    Also returns the reference colour each pixel is nearest to, ``(n, k)``.
    """
    n, k = pixels.shape[:2]
    corrected = np.asarray(pixels / gain[:, None, :].astype(np.float32), dtype=np.float32)
    label, dist, ref = palette.label(corrected.reshape(-1, 3))
    votes = _count(label.reshape(n, k), dist.reshape(n, k), ref.reshape(n, k), palette,
                   corrected)
    return votes, ref.reshape(n, k)


@dataclass(frozen=True)
class Votes:
    """Per hex: terrain shares, the main terrain, confidence, fill colour.

    Attributes
    ----------
    share
        ``(n, terrains)``: share of the hex's matched pixels per legend terrain.
    main
        Index of the main terrain.
    confidence
        Main share minus the next one, times how closely the colour matches
        (``exp(-(mean Lab distance / 20)^2)``): 0 is a guess, 1 certain.
    colour
        ``(n, 3)`` the main terrain's mean light-corrected colour (RGB 0-255).
    sure_ref
        Reference colour of a hex sure of its terrain, else -1.
    """

    share: F64
    main: I64
    confidence: F64
    colour: F64
    sure_ref: I64


def _count(label: I64, dist: NDArray[np.float32], ref: I64, palette: Palette,
           colours: NDArray[np.float32]) -> Votes:
    """Count each hex's votes (pixels near a terrain colour); all hexes at once."""
    t = palette.terrain_count
    n, k = label.shape
    ok = (label < t) & (dist <= MAX_DISTANCE)
    rows = np.repeat(np.arange(n), k)
    counts = np.bincount(rows[ok.ravel()] * t + label.ravel()[ok.ravel()],
                         minlength=n * t).reshape(n, t).astype(np.float64)
    total = counts.sum(axis=1)
    share = counts / np.maximum(total, 1)[:, None]
    # Where nothing matched well: the terrain most pixels are nearest to, with no confidence.
    near = np.bincount(rows * t + np.where(label < t, label, 0).ravel(),
                       minlength=n * t).reshape(n, t).argmax(axis=1)
    share[total == 0] = np.eye(t)[near[total == 0]]
    main = np.argmax(share, axis=1)
    mine = ok & (label == main[:, None])
    count = mine.sum(axis=1)
    # Mean Lab distance of the main terrain's pixels: how well the colour matches.
    spread = np.where(mine, dist, 0).sum(axis=1) / np.maximum(count, 1)
    colour = np.where(count[:, None] > 0,
                      (colours * mine[:, :, None]).sum(axis=1) / np.maximum(count, 1)[:, None],
                      colours.mean(axis=1)).astype(np.float64)
    ordered = np.sort(share, axis=1)
    second = ordered[:, -2] if t > 1 else np.zeros(n)
    confidence = np.maximum(0.0, ordered[:, -1] - second) * np.exp(-((spread / 20.0) ** 2))
    confidence = np.where(total > 0, confidence, 0.0)
    # The reference colour most of a sure hex's main pixels are nearest to.
    m = len(palette.rgb)
    per_ref = np.bincount(rows[mine.ravel()] * m + ref.ravel()[mine.ravel()],
                          minlength=n * m).reshape(n, m)
    sure = (share.max(axis=1) >= _SURE) & (total > 0)
    sure_ref = np.where(sure, per_ref.argmax(axis=1), -1)
    return Votes(share, main, confidence, colour, sure_ref)


def _relight(pixels: NDArray[np.uint8], ref: I64, sure_ref: I64, cxy: F64, palette: Palette,
             paper: tuple[F64, F64, F64, F64], width: int, height: int) -> Light:
    """Refit the light to the paper samples and to each sure hex's own colour."""
    px, py, pcol, pref = paper
    xs, ys, obs, want = [px], [py], [pcol], [pref]
    idx = np.nonzero(sure_ref >= 0)[0]
    if len(idx):
        chosen = sure_ref[idx]
        mask = (ref[idx] == chosen[:, None]).astype(np.float64)
        mean = (pixels[idx] * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1)[:, None]
        xs.append(cxy[idx, 0])
        ys.append(cxy[idx, 1])
        obs.append(mean)
        want.append(palette.rgb[chosen].astype(np.float64))
    return fit_light(np.concatenate(xs), np.concatenate(ys), np.concatenate(obs),
                     np.concatenate(want), width, height)
