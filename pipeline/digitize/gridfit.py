"""A grid fitted to a scan: where every hex centre is, to a fraction of a pixel.

Hex centres are an affine function of axial coordinates on the printed map
(:mod:`pipeline.hexgrid.coords`); on a scan, slight perspective bends that into
a projective one. :class:`GridFit` keeps the projective map (a homography from
pitch units to scan pixels), which is exact for any flat page photographed or
scanned at an angle, and, for a photograph, the lens distortion after it and a
smooth bend of the sheet (:mod:`pipeline.digitize.lens`). It offers the nearest
affine :class:`~pipeline.hexgrid.Layout` for map.json, which stores an affine grid.

The least-squares fits here (affine, homography, homography with lens and bend,
robust to stray points) are plain NumPy and work in pitch units ``(u, v)``: see
:meth:`pipeline.hexgrid.Layout.to_pixel`. A lens is kept only when it pays for its
two numbers (the Bayesian information criterion), a bend only when, fitted to half
the centres, it predicts the other half better.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.lens import Bend, Lens, fit_bend, fit_lens, lens_for_image
from pipeline.errors import GridError
from pipeline.hexgrid import Hex, HexGrid, Layout, Orientation

__all__ = [
    "BEND_KNOTS",
    "BEND_MIN",
    "LENS_MIN",
    "GridFit",
    "Projection",
    "among",
    "apply_homography",
    "fit_affine",
    "fit_centres",
    "fit_homography",
    "fit_projection",
    "hex_units",
    "layout_from_homography",
    "layout_from_projection",
    "neighbour_agreement",
    "robust_homography",
    "robust_projection",
    "with_layout",
]

F64 = NDArray[np.float64]

LENS_MIN = 12  # hex centres needed before a lens is fitted
BEND_MIN = 100  # and before a bend is
_NOISE_FLOOR = 0.01  # px: no measurement is finer, so no fit is judged finer
_LARGEST_K = 0.5  # a lens bending more than this is a fit gone wrong, not a lens
_AGREE = 0.5  # neighbour agreement above which residuals are a distortion, not noise
_WORTH = 0.005  # pitch units: a shared residual smaller than this is not worth a model
BEND_KNOTS = (4.0, 2.0)  # pitch units between a bend's knots, the coarser first


def hex_units(hexes: Sequence[Hex] | NDArray[np.int64], orientation: Orientation) -> F64:
    """Pitch units ``(u, v)`` of hex centres, shape ``(n, 2)``.

    ``hexes`` are :class:`Hex` values or their axial ``(q, r)`` as an ``(n, 2)`` array.

    >>> hex_units([Hex(1, 0)], Orientation.FLAT).tolist()
    [[1.0, 0.5]]
    """
    qr = np.asarray(hexes, np.float64).reshape(-1, 2)
    q, r = qr[:, 0], qr[:, 1]
    if orientation is Orientation.FLAT:
        return np.stack([q, r + q / 2], axis=-1)
    return np.stack([q + r / 2, r], axis=-1)


def among(hexes: NDArray[np.int64], others: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which axial ``(q, r)`` rows of ``hexes`` are rows of ``others`` (both ``(n, 2)``).

    >>> among(np.array([[0, 1], [2, 2]]), np.array([[2, 2], [5, 0]])).tolist()
    [False, True]
    """
    if not len(hexes) or not len(others):
        return np.zeros(len(hexes), bool)
    lo = min(int(hexes.min()), int(others.min()))
    span = max(int(hexes.max()), int(others.max())) - lo + 1

    def key(qr: NDArray[np.int64]) -> NDArray[np.int64]:
        out: NDArray[np.int64] = (qr[:, 0] - lo) * span + (qr[:, 1] - lo)
        return out

    out: NDArray[np.bool_] = np.isin(key(hexes), key(others))
    return out


def apply_homography(h: F64, uv: F64) -> F64:
    """Map points ``(n, 2)`` through a 3x3 homography."""
    w = uv[:, 0] * h[2, 0] + uv[:, 1] * h[2, 1] + h[2, 2]
    x = (uv[:, 0] * h[0, 0] + uv[:, 1] * h[0, 1] + h[0, 2]) / w
    y = (uv[:, 0] * h[1, 0] + uv[:, 1] * h[1, 1] + h[1, 2]) / w
    return np.stack([x, y], axis=-1)


def fit_affine(uv: F64, xy: F64, weights: F64 | None = None) -> F64:
    """Least-squares affine map ``(u, v) -> (x, y)`` as a 3x3 matrix (last row 0, 0, 1).

    >>> uv = np.array([[0, 0], [1, 0], [0, 1.0]]); xy = uv * 10 + 5
    >>> (fit_affine(uv, xy).round(6) + 0.0).tolist()
    [[10.0, 0.0, 5.0], [0.0, 10.0, 5.0], [0.0, 0.0, 1.0]]
    """
    a = np.column_stack([uv, np.ones(len(uv))])
    w = np.ones(len(uv)) if weights is None else weights
    sol, *_ = np.linalg.lstsq(a * w[:, None], xy * w[:, None], rcond=None)
    out = np.eye(3)
    out[:2, :] = sol.T
    return out


def fit_homography(uv: F64, xy: F64) -> F64:
    """Least-squares homography ``(u, v) -> (x, y)`` (normalised DLT); needs 4+ points."""
    def norm(p: F64) -> F64:
        c = p.mean(axis=0)
        s = math.sqrt(2) / max(float(np.sqrt(((p - c) ** 2).sum(axis=1)).mean()), 1e-12)
        return np.array([[s, 0, -s * c[0]], [0, s, -s * c[1]], [0, 0, 1]])

    tu, tx = norm(uv), norm(xy)
    pu = uv @ tu[:2, :2].T + tu[:2, 2]
    px = xy @ tx[:2, :2].T + tx[:2, 2]
    n = len(uv)
    a = np.zeros((2 * n, 9))
    a[0::2, 0:2], a[0::2, 2] = pu, 1
    a[0::2, 6:8] = -px[:, :1] * pu
    a[0::2, 8] = -px[:, 0]
    a[1::2, 3:5], a[1::2, 5] = pu, 1
    a[1::2, 6:8] = -px[:, 1:] * pu
    a[1::2, 8] = -px[:, 1]
    # The normal matrix's least eigenvector is the least singular vector of ``a``: a 9 x 9
    # problem instead of a 2n x 9 one (the normalisation keeps it well conditioned).
    _, vectors = np.linalg.eigh(a.T @ a)
    h = vectors[:, 0].reshape(3, 3)
    h = np.linalg.inv(tx) @ h @ tu
    return np.asarray(h / h[2, 2], dtype=np.float64)


def robust_homography(uv: F64, xy: F64, *, floor: float, rounds: int = 3
                      ) -> tuple[F64, NDArray[np.bool_]]:
    """A homography fit that drops points far from the consensus.

    Points whose residual exceeds ``max(floor, 3.5 * median residual)`` are
    left out and the fit repeated. Returns the homography and the mask of
    points kept.
    """
    keep = np.ones(len(uv), bool)
    h = fit_homography(uv, xy) if len(uv) >= 8 else fit_affine(uv, xy)
    for _ in range(rounds):
        err = np.hypot(*(apply_homography(h, uv) - xy).T)
        new = err <= max(floor, 3.5 * float(np.median(err[keep])))
        if new.sum() < 4 or np.array_equal(new, keep):
            break
        keep = new
        h = fit_homography(uv[keep], xy[keep]) if keep.sum() >= 8 else fit_affine(
            uv[keep], xy[keep])
    return h, keep


@dataclass(frozen=True)
class Projection:
    """Pitch units -> image pixels: a homography, then perhaps a lens, plus perhaps a bend.

    >>> p = Projection(np.array([[10.0, 0, 5], [0, 10.0, 5], [0, 0, 1]]))
    >>> p.to_pixel(np.array([[1.0, 2.0]])).tolist()
    [[15.0, 25.0]]
    """

    homography: F64
    lens: Lens | None = None
    bend: Bend | None = None

    def to_pixel(self, uv: F64) -> F64:
        """Image pixels of points given in pitch units, ``(n, 2)``."""
        xy = apply_homography(self.homography, uv)
        if self.lens is not None:
            xy = self.lens.apply(xy)
        if self.bend is not None:
            xy = xy + self.bend.offset(uv)
        return xy

    def moved(self, du: float, dv: float) -> Projection:
        """The same projection for pitch units counted from ``(du, dv)`` (a new origin hex)."""
        shift = np.array([[1.0, 0.0, du], [0.0, 1.0, dv], [0.0, 0.0, 1.0]])
        bend = None if self.bend is None else self.bend.moved(du, dv)
        return Projection(self.homography @ shift, self.lens, bend)


@dataclass(frozen=True)
class GridFit:
    """A printed grid located on a scan.

    Attributes
    ----------
    grid
        The map's grid (orientation, numbering, extent) with the nearest
        affine :class:`~pipeline.hexgrid.Layout`.
    homography
        3x3 map from pitch units to scan pixels (exact under perspective).
    residual
        Root-mean-square distance in pixels between the fit and the hex
        centres (or anchors) it was fitted to.
    support
        How many measured centres (or anchors) the fit rests on.
    method
        ``"automatic"``, ``"anchors"`` or ``"layout"``, and whether refined on the image.
    lens
        Radial lens distortion after the homography (a photograph), if any.
    bend
        A smooth displacement of the sheet (pitch units -> pixels) added after
        the lens, if any.

    :meth:`to_pixel`, :meth:`centres` and :meth:`jacobian` are the one way from
    pitch units to scan pixels: they include the lens and the bend.
    """

    grid: HexGrid
    homography: F64
    residual: float
    support: int
    method: str
    lens: Lens | None = None
    bend: Bend | None = None

    @property
    def projection(self) -> Projection:
        """The map from pitch units to scan pixels."""
        return Projection(self.homography, self.lens, self.bend)

    def centres(self, hexes: Sequence[Hex] | None = None) -> F64:
        """Scan pixel centres of hexes (all the map's hexes by default), shape ``(n, 2)``."""
        hs = self.grid.hexes() if hexes is None else hexes
        return self.to_pixel(hex_units(hs, self.grid.orientation))

    def to_pixel(self, uv: F64) -> F64:
        """Scan pixels of points given in pitch units, shape ``(n, 2)``."""
        return self.projection.to_pixel(np.asarray(uv, np.float64).reshape(-1, 2))

    def jacobian(self, uv: tuple[float, float]) -> F64:
        """The 2x2 local matrix (pixels per pitch unit) at one point."""
        p = np.array([uv, (uv[0] + 1e-3, uv[1]), (uv[0], uv[1] + 1e-3)])
        x = self.to_pixel(p)
        return np.column_stack([(x[1] - x[0]) / 1e-3, (x[2] - x[0]) / 1e-3])

    @property
    def hex_width(self) -> float:
        """Mean distance across the flats of a hex, in scan pixels."""
        layout = self.grid.layout
        assert layout is not None  # a GridFit's grid always has one
        a, b, c, d = layout.matrix
        if self.grid.orientation is Orientation.FLAT:
            return math.hypot(b, d)
        return math.hypot(a, c)


def fit_centres(grid: HexGrid, centres: Mapping[str, tuple[float, float]], *,
                method: str = "centres", image_shape: tuple[int, ...] | None = None,
                distortion: bool = True) -> GridFit:
    """A grid through known hex centres (printed id -> scan pixel), by least squares.

    An affine map, or with eight or more centres a homography when the centres show
    perspective (:func:`fit_projection`). With
    ``distortion`` and :data:`LENS_MIN` or more centres a radial lens is fitted too, and
    with :data:`BEND_MIN` or more a bend of the sheet, each kept only when the centres
    call for it (:func:`fit_projection`). The lens is centred on the image when
    ``image_shape`` is given, else on the centres. Used when the centres are known from
    elsewhere (a survey of the sheet, a bench's truth).

    >>> from pipeline.hexgrid import Numbering
    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=3, rows=3)
    >>> known = {g.id(h): (10.0 + 30 * u, 20.0 + 30 * v)
    ...          for h, (u, v) in zip(g.hexes(), hex_units(g.hexes(), g.orientation))}
    >>> fit = fit_centres(g, known)
    >>> [round(float(x), 6) for x in fit.centres([g.hex("0202")])[0]]
    [40.0, 65.0]
    """
    if len(centres) < 3:
        raise GridError(f"need at least three hex centres to fit a grid, got {len(centres)}")
    ids = sorted(centres)
    uv = hex_units([grid.hex(i) for i in ids], grid.orientation)
    xy = np.array([centres[i] for i in ids], np.float64)
    if image_shape is not None:
        centre, norm = lens_for_image(image_shape)
    else:
        lo, hi = xy.min(axis=0), xy.max(axis=0)
        centre = (float(lo[0] + hi[0]) / 2, float(lo[1] + hi[1]) / 2)
        norm = max(0.5 * float(np.hypot(*(hi - lo))), 1.0)
    p = fit_projection(uv, xy, lens_at=(centre, norm) if distortion else None,
                       bend=distortion)
    residual = float(np.sqrt(np.mean(np.sum((p.to_pixel(uv) - xy) ** 2, axis=1))))
    return GridFit(with_layout(grid, layout_from_projection(grid, p)), p.homography, residual,
                   len(ids), method, p.lens, p.bend)


def fit_projection(uv: F64, xy: F64, *,
                   lens_at: tuple[tuple[float, float], float] | None = None,
                   bend: bool = False, start: Projection | None = None,
                   gate: bool = True) -> Projection:
    """The projection through measured points: homography, and the lens and bend they need.

    An affine map, or from eight points a homography when its perspective lowers
    the Bayesian information criterion (BIC). What the homography
    leaves is looked at only when neighbouring points are off the same way
    (:func:`neighbour_agreement`); measurement noise is not. Then ``lens_at``
    (centre and norm, :func:`~pipeline.digitize.lens.lens_for_image`) allows a
    radial lens from :data:`LENS_MIN` points, kept when it lowers the Bayesian
    information criterion (one coefficient, ``k1``: a phone's mild barrel or
    pincushion), and ``bend`` allows a bend from :data:`BEND_MIN`
    points, kept when, fitted to either half of the points, it predicts the other
    half better. ``start`` (an earlier fit to about the same points) starts the
    lens's search from its lens. ``gate=False`` skips the look at the residuals
    (a caller that has already decided a lens or bend is called for).

    >>> u, v = np.meshgrid(np.arange(10.0), np.arange(8.0))
    >>> uv = np.column_stack([u.ravel(), v.ravel()])
    >>> xy = Lens((200.0, 150.0), 250.0, k1=-0.04).apply(uv * 40.0 + 20.0)
    >>> p = fit_projection(uv, xy, lens_at=((200.0, 150.0), 250.0))
    >>> round(p.lens.k1, 4), p.bend is None
    (-0.04, True)
    """
    h = fit_affine(uv, xy)
    if len(uv) >= 8:
        # Perspective must pay for its two numbers too: a flatbed scan is affine, and
        # a homography through part of the map tilts the rest (a sea without outlines).
        tilted = fit_homography(uv, xy)
        if _pays(_rss(Projection(h), uv, xy), _rss(Projection(tilted), uv, xy), len(uv)):
            h = tilted
    out = Projection(h)
    lens_ok = lens_at is not None and len(uv) >= LENS_MIN
    bend_ok = bend and len(uv) >= BEND_MIN
    if not (lens_ok or bend_ok) or (gate and not _distorted(out, uv, xy)):
        return out
    if lens_ok:
        assert lens_at is not None
        h0, k0 = h, (0.0, 0.0)
        before = start.lens if start is not None else None
        if before is not None and (before.centre, before.norm) == lens_at:
            h0, k0 = fit_homography(uv, before.undo(xy)), (before.k1, before.k2)
        h_lens, lens = fit_lens(uv, xy, h0, *lens_at, start=k0, terms=1)
        with_lens = Projection(h_lens, lens)
        if _pays(_rss(out, uv, xy), _rss(with_lens, uv, xy), len(uv), extra=1) and (
                max(abs(lens.k1), abs(lens.k2)) <= _LARGEST_K):
            out = with_lens
    if bend_ok and (not gate or _distorted(out, uv, xy)):
        out = _with_bend(out, uv, xy)
    return out


def _distorted(p: Projection, uv: F64, xy: F64) -> bool:
    """Whether ``p`` leaves a distortion worth modelling: residuals that neighbours
    mostly share (:func:`neighbour_agreement` of a half or more), whose shared part
    is at least half a percent of a pitch unit (half the digitizer's bar of 1% of a
    hex). A flat scan's measurement bias, which follows the terrain from hex to hex,
    agrees about 0.4 and shares 0.3% of a hex; a phone's lens agrees 0.9 and 5%."""
    rest = xy - p.to_pixel(uv)
    centre = uv.mean(axis=0)
    corners = Projection(p.homography).to_pixel(np.array([centre, centre + (1, 0),
                                                           centre + (0, 1)]))
    pitch = math.sqrt(abs(_cross(corners[1] - corners[0], corners[2] - corners[0])))
    power = float(np.mean(np.sum(rest ** 2, axis=1)))
    if power < (_WORTH * pitch) ** 2:
        return False  # even all shared, too little to matter (no need to look closer)
    agreement = neighbour_agreement(uv, rest)
    return agreement >= _AGREE and math.sqrt(agreement * power) >= _WORTH * pitch


def _cross(a: F64, b: F64) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def neighbour_agreement(uv: F64, rest: F64) -> float:
    """How much each point's residual points the way its lattice neighbours' do.

    The sum of each residual's dot product with the mean of its neighbours'
    (points one pitch unit away), over the sum of squared residuals: about 0 when
    the residuals are measurement noise, near 1 when they are a smooth distortion
    the model misses (a lens, a bend), negative when they alternate.

    >>> u, v = np.meshgrid(np.arange(8.0), np.arange(8.0))
    >>> uv = np.column_stack([u.ravel(), v.ravel() + u.ravel() / 2])
    >>> round(neighbour_agreement(uv, np.tile([0.5, 0.0], (64, 1))), 3)
    1.0
    """
    key = np.rint(uv * 2).astype(np.int64)
    key -= key.min(axis=0)
    base = int(key[:, 1].max()) + 8
    code = (key[:, 0] + 4) * base + key[:, 1] + 4
    order = np.argsort(code)
    sorted_code = code[order]
    total = np.zeros_like(rest)
    count = np.zeros(len(uv))
    # Flat-top neighbours are (0, +-1) and (+-1, +-1/2), pointy-top ones (+-1, 0) and
    # (+-1/2, +-1) pitch units (here doubled); a flat lattice has whole u, a pointy one
    # whole v.
    flat = bool(np.all(key[:, 0] % 2 == key[0, 0] % 2))
    steps = (((0, 2), (0, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)) if flat else
             ((2, 0), (-2, 0), (1, 2), (1, -2), (-1, 2), (-1, -2)))
    for du, dv in steps:
        want = (key[:, 0] + 4 + du) * base + key[:, 1] + 4 + dv
        at = np.clip(np.searchsorted(sorted_code, want), 0, len(code) - 1)
        hit = sorted_code[at] == want
        total[hit] += rest[order[at[hit]]]
        count[hit] += 1
    has = count > 0
    if not has.any():
        return 0.0
    mean = total[has] / count[has, None]
    power = float(np.sum(rest[has] ** 2))
    return float(np.sum(rest[has] * mean)) / power if power > 0 else 0.0


def _rss(p: Projection, uv: F64, xy: F64) -> float:
    return float(np.sum((p.to_pixel(uv) - xy) ** 2))


def _pays(rss_without: float, rss_with: float, n: int, extra: int = 2) -> bool:
    """Whether ``extra`` more numbers lower the BIC of ``2 n`` coordinates' fit."""
    floor = 2 * n * _NOISE_FLOOR ** 2
    m = 2 * n
    return m * math.log((rss_with + floor) / (rss_without + floor)) + extra * math.log(m) < 0


def _with_bend(p: Projection, uv: F64, xy: F64) -> Projection:
    """``p`` with a bend through what it leaves, if a bend predicts unseen centres better.

    Knots four hexes apart are tried first, then two (a crease needs the finer):
    the one that best predicts held-out centres is kept, if it beats no bend by a
    fifth. A sheet that the coarse bend does not help is taken as flat.
    """
    rest = xy - p.to_pixel(uv)
    # Two folds of interleaved hexes (the centres come sorted by column): each half
    # is predicted by a bend fitted to the other.
    halves = np.arange(len(uv)) % 2 == 0
    floor = len(uv) * (2 * _NOISE_FLOOR) ** 2
    plain = float(np.sum(rest ** 2)) + floor
    best, best_error = None, 0.8 * plain
    for spacing in BEND_KNOTS:
        error = floor
        for train in (halves, ~halves):
            field = fit_bend(uv[train], rest[train], spacing=spacing)
            error += float(np.sum((rest[~train] - field.offset(uv[~train])) ** 2))
        if error >= best_error:
            break
        best, best_error = spacing, error
    if best is None:
        return p
    return Projection(p.homography, p.lens, fit_bend(uv, rest, spacing=best))


def robust_projection(uv: F64, xy: F64, *, floor: float,
                      lens_at: tuple[tuple[float, float], float] | None = None,
                      bend: bool = False, rounds: int = 3, start: Projection | None = None
                      ) -> tuple[Projection, NDArray[np.bool_]]:
    """:func:`fit_projection` that drops points far from the consensus.

    Points whose residual exceeds ``max(floor, 3.5 * median residual)`` are left
    out and the fit repeated. Returns the projection and the mask of points kept.
    """
    keep = np.ones(len(uv), bool)
    p = fit_projection(uv, xy, lens_at=lens_at, bend=bend, start=start)
    for _ in range(rounds):
        err = np.hypot(*(p.to_pixel(uv) - xy).T)
        new = err <= max(floor, 3.5 * float(np.median(err[keep])))
        if new.sum() < 4 or np.array_equal(new, keep):
            break
        keep = new
        # Once a lens (or bend) is called for, the refits only refine it; until then
        # each refit, with fewer strays, looks again.
        p = fit_projection(uv[keep], xy[keep], lens_at=lens_at, bend=bend, start=p,
                           gate=p.lens is None and p.bend is None)
    return p, keep


def layout_from_homography(grid: HexGrid, h: F64) -> Layout:
    """The affine layout closest to a homography over the map's hex centres."""
    return layout_from_projection(grid, Projection(h))


def layout_from_projection(grid: HexGrid, p: Projection) -> Layout:
    """The affine layout closest to a projection over the map's hex centres."""
    uv = hex_units(grid.hexes(), grid.orientation)
    m = fit_affine(uv, p.to_pixel(uv))
    a, b, c, d = float(m[0, 0]), float(m[0, 1]), float(m[1, 0]), float(m[1, 1])
    if a * d - b * c <= 0:
        raise GridError("the fitted grid is mirrored; check the anchors' ids and positions")
    return Layout(dx=math.hypot(a, c), dy=math.hypot(b, d), x0=float(m[0, 2]),
                  y0=float(m[1, 2]), affine=(a, b, c, d))


def with_layout(grid: HexGrid, layout: Layout) -> HexGrid:
    """The same grid with another pixel layout."""
    return HexGrid(grid.orientation, grid.numbering, grid.cols, grid.rows, grid.exclude, layout)
