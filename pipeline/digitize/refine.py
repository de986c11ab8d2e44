"""Local refinement: measure every hex centre on the image, fit the grid to them.

A first guess (from the lattice, from anchors or from a given layout) is good
to a few pixels near its middle. Correlating the ink map with the outline of
one hex gives a response that peaks at every hex centre; each hex's peak near
its predicted centre is a measurement, to a tenth of a pixel, and a robust fit
through hundreds of them is the grid as the scan shows it: a homography for
perspective, and for a photograph the lens and a bent sheet
(:func:`~pipeline.digitize.gridfit.robust_projection`). Wide rounds grow a region
from the middle out (a photo's far corners come within reach only once the
middle has fixed the perspective and the lens), redrawing the outline where the
hexes change shape; then rounds with shrinking search windows go from "near" to
"exact" without ever jumping to a neighbouring hex. Measurements are made on the
working image, fits in scan pixels.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.gridfit import Projection, fit_affine, robust_projection
from pipeline.digitize.ink import Scale
from pipeline.digitize.lattice import outline_units
from pipeline.hexgrid import Orientation

__all__ = ["FIRST_REACH", "SHAPE_SPREAD", "WIDE_ROUNDS", "WINDOWS", "Refined", "local_response_map",
           "measure_centres", "on_work", "refine", "refit", "response_map", "shape_spread"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]

# Search windows, as shares of the hex width, round by round; the first is used by the
# wide rounds (up to WIDE_ROUNDS of them), which grow the region they measure from
# FIRST_REACH pitch units around the middle, doubling it each round.
WINDOWS = (0.22, 0.1, 0.05)
WIDE_ROUNDS = 8
FIRST_REACH = 4.0
SHAPE_SPREAD = 0.02  # hexes varying more than this across the image get local outlines
_TILE_HEXES = 4  # hexes across a tile of the local response map


@dataclass(frozen=True)
class Refined:
    """The outcome of refinement.

    Attributes
    ----------
    projection
        Pitch units -> scan pixels.
    measured
        Which of the hexes gave a usable peak in the last round and agreed with the fit.
    residual
        RMS distance between the fit and the kept measurements, in scan pixels.
    centres
        The last round's measured centres, scan pixels ``(n, 2)``.
    usable
        Which of them are clear peaks (whether or not the fit kept them).
    floor
        The residual, in scan pixels, below which no measurement is called astray.
    """

    projection: Projection
    measured: NDArray[np.bool_]
    residual: float
    centres: F64
    usable: NDArray[np.bool_]
    floor: float


def on_work(p: Projection, scale: Scale) -> Callable[[F64], F64]:
    """Pitch units -> working-image pixels through a projection onto the scan."""
    def to_work(uv: F64) -> F64:
        xy = p.to_pixel(uv)
        x, y = scale.to_work(xy[:, 0], xy[:, 1])
        return np.stack([x, y], axis=-1)
    return to_work


def response_map(ink: F32, matrix: F64, orientation: Orientation) -> F32:
    """Correlation of the ink map with one hex outline drawn with ``matrix`` (pitch -> px).

    The outline is zero-mean over its support, so flat ink (a dense texture)
    gives no response; only the outline's shape does.
    """
    pts = outline_units(orientation, per_side=48) @ matrix.T
    reach = int(math.ceil(float(np.abs(pts).max()))) + 4
    size = 2 * reach + 1
    kernel = np.zeros((size, size), np.float32)
    x, y = pts[:, 0] + reach, pts[:, 1] + reach
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = (x - x0).astype(np.float32), (y - y0).astype(np.float32)
    for dx, dy, w in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)),
                      (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
        np.add.at(kernel, (y0 + dy, x0 + dx), w)
    kernel = np.asarray(cv2.GaussianBlur(kernel, (0, 0), 1.0), dtype=np.float32)
    yy, xx = np.mgrid[-reach: reach + 1, -reach: reach + 1]
    support = np.hypot(xx, yy) <= reach - 1
    kernel = np.where(support, kernel - kernel[support].mean(), 0).astype(np.float32)
    kernel /= float(np.abs(kernel).sum())
    out = cv2.filter2D(ink, cv2.CV_32F, kernel, borderType=cv2.BORDER_CONSTANT)
    return np.asarray(out, dtype=np.float32)


def local_response_map(ink: F32, to_work: Callable[[F64], F64], uv: F64,
                       orientation: Orientation, tile: int) -> F32:
    """:func:`response_map` with the outline drawn as the grid shows it in each tile.

    Under perspective or a lens the hexes change size and shape across the image;
    one outline then fits the far side badly and its peaks wander by pixels. The
    image is cut into ``tile``-pixel squares, and each is correlated with the
    outline of the hex whose centre (``to_work`` of ``uv``) lies nearest its middle.
    """
    h, w = ink.shape
    centres = to_work(uv)
    out = np.zeros_like(ink)
    for y0 in range(0, h, tile):
        for x0 in range(0, w, tile):
            mid = np.array([x0 + tile / 2, y0 + tile / 2])
            u0 = uv[int(np.argmin(np.hypot(*(centres - mid).T)))]
            matrix = _local_matrix(to_work, u0)
            reach = int(math.ceil(float(np.abs(outline_units(orientation, 4) @ matrix.T).max())))
            pad = reach + 8
            ya, yb = max(0, y0 - pad), min(h, y0 + tile + pad)
            xa, xb = max(0, x0 - pad), min(w, x0 + tile + pad)
            part = response_map(np.ascontiguousarray(ink[ya:yb, xa:xb]), matrix, orientation)
            ty, tx = min(tile, h - y0), min(tile, w - x0)
            out[y0: y0 + ty, x0: x0 + tx] = part[y0 - ya: y0 - ya + ty, x0 - xa: x0 - xa + tx]
    return out


def shape_spread(to_work: Callable[[F64], F64], uv: F64) -> float:
    """How much the hexes' shape varies over ``uv``: the largest relative difference
    between the local matrix at the corners and edges of their extent and at the middle."""
    lo, hi = uv.min(axis=0), uv.max(axis=0)
    mid = _local_matrix(to_work, (lo + hi) / 2)
    spread = 0.0
    for fu in (0.0, 0.5, 1.0):
        for fv in (0.0, 0.5, 1.0):
            m = _local_matrix(to_work, lo + (hi - lo) * (fu, fv))
            spread = max(spread, float(np.linalg.norm(m - mid) / np.linalg.norm(mid)))
    return spread


def _local_matrix(to_work: Callable[[F64], F64], uv: F64) -> F64:
    """Working pixels per pitch unit at ``uv`` (columns: the ``u`` and ``v`` steps)."""
    pts = to_work(np.array([uv, uv + (0.5, 0.0), uv - (0.5, 0.0), uv + (0.0, 0.5),
                            uv - (0.0, 0.5)], np.float64))
    return np.column_stack([pts[1] - pts[2], pts[3] - pts[4]])


def measure_centres(response: F32, predicted: F64, reach: int
                    ) -> tuple[F64, F64, NDArray[np.bool_]]:
    """The response peak within ``reach`` pixels of each predicted centre.

    Returns positions (sub-pixel, by a parabola through the peak's neighbours),
    peak values, and whether each is a true local peak inside the window.
    """
    h, w = response.shape
    n = len(predicted)
    ix = np.rint(predicted[:, 0]).astype(np.int64)
    iy = np.rint(predicted[:, 1]).astype(np.int64)
    inside = (ix >= reach + 1) & (ix < w - reach - 1) & (iy >= reach + 1) & (iy < h - reach - 1)
    ix, iy = np.where(inside, ix, reach + 1), np.where(inside, iy, reach + 1)
    off = np.arange(-reach, reach + 1)
    win = response[iy[:, None, None] + off[None, :, None], ix[:, None, None] + off[None, None, :]]
    flat = win.reshape(n, -1)
    best = np.argmax(flat, axis=1)
    j, i = np.divmod(best, 2 * reach + 1)
    ok = inside & (i > 0) & (i < 2 * reach) & (j > 0) & (j < 2 * reach)
    px, py = ix + i - reach, iy + j - reach
    c = response[py, px]
    dx = _vertex(response[py, np.maximum(px - 1, 0)], c, response[py, np.minimum(px + 1, w - 1)])
    dy = _vertex(response[np.maximum(py - 1, 0), px], c, response[np.minimum(py + 1, h - 1), px])
    xy = np.stack([px + dx, py + dy], axis=-1).astype(np.float64)
    return xy, c.astype(np.float64), ok


def _vertex(a: F32, b: F32, c: F32) -> F64:
    d = (a - 2 * b + c).astype(np.float64)
    safe = np.where(d < 0, d, -1.0)
    return np.where(d < 0, 0.5 * (a - c) / safe, 0.0).clip(-0.5, 0.5)


def refine(ink: F32, orientation: Orientation, uv: F64, start: Projection, scale: Scale,
           hex_width: float, *, lens_at: tuple[tuple[float, float], float] | None = None,
           windows: tuple[float, ...] = WINDOWS, seeds: F64 | None = None) -> Refined | None:
    """Fit the projection (pitch units -> scan pixels) to the hex centres the image shows.

    The wide rounds grow a region from the middle of the candidates (or from
    ``seeds``, pitch units where the start is known to be right: anchors): the
    hexes within :data:`FIRST_REACH` pitch units first, twice as far each round,
    until the region holds them all and reaches no more hexes. The narrow rounds
    then take every hex. Hexes are measured on the :func:`response_map` of the ink
    with the start's outline; when the grid's hexes change shape across the image
    by more than :data:`SHAPE_SPREAD` (perspective, a lens), on a
    :func:`local_response_map` redrawn from the latest fit.

    Parameters
    ----------
    ink
        The working image's ink map.
    orientation
        The grid's orientation.
    uv
        Pitch units of candidate hexes (any hex that may be on the image).
    start
        First guess, pitch units -> scan pixels.
    scale
        The working image's scale to the scan.
    hex_width
        Hex width across flats in working pixels (sets the windows).
    lens_at
        The lens centre and norm in scan pixels, to let the fit bend through a lens;
        ``None`` keeps it projective. (A bent sheet is left to :func:`refit`, once
        the map's own hexes are known.)
    seeds
        Pitch units ``(k, 2)`` the region grows from (default: the middle).

    Returns ``None`` when too few hexes show a clear outline to fit anything.
    """
    m = _Measures(ink, orientation, uv, scale, hex_width, start)
    floor = max(0.5, 0.01 * hex_width) * scale.fx
    p, measured = start, np.zeros(len(uv), bool)
    centres = np.median(uv, axis=0)[None, :] if seeds is None or not len(seeds) else seeds
    distance = np.min(np.hypot(uv[:, None, 0] - centres[None, :, 0],
                               uv[:, None, 1] - centres[None, :, 1]), axis=1)
    reach, reached, fitted = FIRST_REACH, -1, False
    for _ in range(WIDE_ROUNDS):
        region = distance <= reach
        strong = m.measure(p, windows[0], region & ~measured if fitted else region)
        if strong.sum() >= 6:
            # The first fit, from a rough start, is the stiffer affine grid.
            p, measured = _fit(uv, m.scan(), strong, affine=not fitted or int(strong.sum()) < 12,
                               floor=floor, lens_at=lens_at, start=p)
            fitted = True
            if m.redraw(p, measured):
                measured[:] = False  # measured again on the redrawn outlines
        count = int(measured.sum())
        if fitted and reach >= distance.max() and count <= reached:
            break
        reached, reach = max(reached, count), reach * 2
    if not fitted:
        return None
    for share in windows[1:]:
        strong = m.measure(p, share, np.ones(len(uv), bool))
        if strong.sum() < 6:
            return None
        p, measured = _fit(uv, m.scan(), strong, affine=int(strong.sum()) < 12, floor=floor,
                           lens_at=lens_at, start=p)
    xy = m.scan()
    err = np.hypot(*(p.to_pixel(uv[measured]) - xy[measured]).T)
    residual = float(np.sqrt(np.mean(err ** 2)))
    return Refined(p, measured, residual, xy, strong, floor)


class _Measures:
    """Hex centres measured on a response map, kept between rounds."""

    def __init__(self, ink: F32, orientation: Orientation, uv: F64, scale: Scale,
                 hex_width: float, start: Projection) -> None:
        self.ink, self.orientation, self.uv, self.scale = ink, orientation, uv, scale
        self.hex_width = hex_width
        self.response = response_map(ink, _local_matrix(on_work(start, scale),
                                                        uv.mean(axis=0)), orientation)
        n = len(uv)
        self.xy, self.value, self.ok = np.zeros((n, 2)), np.zeros(n), np.zeros(n, bool)

    def measure(self, p: Projection, share: float, look: NDArray[np.bool_]
                ) -> NDArray[np.bool_]:
        """Measure the ``look`` hexes near where ``p`` puts them; returns the strong peaks."""
        if look.any():
            reach = max(2, int(math.ceil(share * self.hex_width)))
            got = measure_centres(self.response, on_work(p, self.scale)(self.uv[look]), reach)
            self.xy[look], self.value[look], self.ok[look] = got
        if self.ok.sum() < 6:
            return np.zeros(len(self.uv), bool)
        # Weak peaks are hexes off the map or outlines hidden under symbols.
        out: NDArray[np.bool_] = self.ok & (
            self.value >= 0.35 * float(np.median(self.value[self.ok])))
        return out

    def scan(self) -> F64:
        """The measured centres in scan pixels."""
        x, y = self.scale.to_scan(self.xy[:, 0], self.xy[:, 1])
        return np.stack([x, y], axis=-1)

    def redraw(self, p: Projection, measured: NDArray[np.bool_]) -> bool:
        """Redraw the outline tile by tile if ``p`` bends the hexes' shape enough;
        then every measurement is stale."""
        if not measured.any() or shape_spread(on_work(p, self.scale),
                                              self.uv[measured]) <= SHAPE_SPREAD:
            return False
        self.response = local_response_map(self.ink, on_work(p, self.scale), self.uv,
                                           self.orientation, int(_TILE_HEXES * self.hex_width))
        self.ok[:] = False
        return True


def refit(refined: Refined, use: NDArray[np.bool_], uv: F64, *,
          lens_at: tuple[tuple[float, float], float] | None = None) -> Refined:
    """The last round's fit again through only the measurements ``use`` allows (the map's).

    With ``lens_at``, the fit may also bend with the sheet
    (:func:`~pipeline.digitize.gridfit.fit_projection`).
    """
    chosen = refined.usable & use
    if chosen.sum() < 6:
        return refined
    p, measured = _fit(uv, refined.centres, chosen, affine=int(chosen.sum()) < 12,
                       floor=refined.floor, lens_at=lens_at, bend=lens_at is not None,
                       start=refined.projection)
    err = np.hypot(*(p.to_pixel(uv[measured]) - refined.centres[measured]).T)
    return Refined(p, measured, float(np.sqrt(np.mean(err ** 2))), refined.centres,
                   refined.usable, refined.floor)


def _fit(uv: F64, xy: F64, use: NDArray[np.bool_], *, affine: bool, floor: float,
         lens_at: tuple[tuple[float, float], float] | None = None, bend: bool = False,
         start: Projection | None = None) -> tuple[Projection, NDArray[np.bool_]]:
    """A robust fit to the ``use`` measurements; returns it and the measurements it kept."""
    idx = np.nonzero(use)[0]
    if affine:
        m = fit_affine(uv[idx], xy[idx])
        err = np.hypot(*(Projection(m).to_pixel(uv[idx]) - xy[idx]).T)
        keep = err <= max(floor, 3.5 * float(np.median(err)))
        p = Projection(fit_affine(uv[idx][keep], xy[idx][keep]))
    else:
        p, keep = robust_projection(uv[idx], xy[idx], floor=floor, lens_at=lens_at, bend=bend,
                                    start=start)
    kept = np.zeros(len(uv), bool)
    kept[idx[keep]] = True
    return p, kept
