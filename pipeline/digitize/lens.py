"""What a camera adds to a homography: radial lens distortion and a bent sheet.

A flat sheet scanned or photographed through an ideal lens maps onto the image by a
homography (:mod:`pipeline.digitize.gridfit`). A phone's lens bows straight lines
(barrel or pincushion distortion), and a sheet that was folded may not lie flat.
Two small models cover these, each applied after the homography:

* :class:`Lens`, the radial part of the Brown-Conrady model used by OpenCV and
  Hugin: a point ``p`` moves along its ray from the distortion centre ``c`` to
  ``c + (p - c)(1 + k1 rho**2 + k2 rho**4)``, where ``rho`` is its distance from
  ``c`` over ``norm`` (half the image diagonal). Barrel distortion has ``k1 < 0``.
* :class:`Bend`, a smooth displacement field over the sheet (pitch units to
  pixels): a tensor-product cubic B-spline with a knot every few hexes, for what
  neither the homography nor the lens explains.

:func:`fit_lens` fits a homography and a lens together to measured hex centres
(Levenberg-Marquardt, in NumPy), and :func:`fit_bend` fits a bend to what is left.
Whether either is worth keeping is decided where they are used (a lens must pay
for its two numbers; a bend must predict hexes it was not fitted to).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["Bend", "Lens", "bend_basis", "fit_bend", "fit_lens", "lens_for_image"]

F64 = NDArray[np.float64]

_BEND_KNOT = 4.0  # pitch units between the bend's knots (about four hexes)
_BEND_SMOOTH = 0.05  # weight of the bend's second-difference penalty, per coefficient


@dataclass(frozen=True)
class Lens:
    """Radial lens distortion about a centre.

    Attributes
    ----------
    centre
        The distortion centre, in image pixels (the image centre for a phone photo).
    norm
        The distance, in pixels, at which ``rho`` is 1 (half the image diagonal).
    k1, k2
        The radial coefficients: ``k1 < 0`` is barrel distortion.

    Examples
    --------
    >>> lens = Lens((100.0, 100.0), 100.0, k1=-0.1)
    >>> lens.apply(np.array([[200.0, 100.0]])).tolist()
    [[190.0, 100.0]]
    >>> np.round(lens.undo(lens.apply(np.array([[180.0, 40.0]]))), 9).tolist()
    [[180.0, 40.0]]
    """

    centre: tuple[float, float]
    norm: float
    k1: float = 0.0
    k2: float = 0.0

    def factor(self, xy: F64) -> F64:
        """How far each undistorted point moves along its ray, ``(n,)``."""
        d = (xy - np.asarray(self.centre)) / self.norm
        rho2 = d[:, 0] ** 2 + d[:, 1] ** 2
        out: F64 = 1.0 + rho2 * (self.k1 + self.k2 * rho2)
        return out

    def apply(self, xy: F64) -> F64:
        """Where undistorted points ``(n, 2)`` appear through the lens."""
        c = np.asarray(self.centre)
        out: F64 = c + (xy - c) * self.factor(xy)[:, None]
        return out

    def undo(self, xy: F64, rounds: int = 20) -> F64:
        """The undistorted points that the lens shows at ``xy`` (fixed-point iteration)."""
        c = np.asarray(self.centre)
        p = xy.astype(np.float64)
        for _ in range(rounds):
            p = c + (xy - c) / self.factor(p)[:, None]
        return p

    def strength(self) -> float:
        """The largest shift the lens makes inside ``norm`` of its centre, in pixels."""
        rho = np.linspace(0.0, 1.0, 33)
        return float(np.abs(rho * (self.k1 * rho ** 2 + self.k2 * rho ** 4)).max() * self.norm)


def lens_for_image(shape: tuple[int, ...]) -> tuple[tuple[float, float], float]:
    """The usual distortion centre and norm of an image: its centre and half its diagonal.

    >>> lens_for_image((101, 201, 3))
    ((100.0, 50.0), 111.80339887498948)
    """
    h, w = shape[0], shape[1]
    return ((w - 1) / 2.0, (h - 1) / 2.0), 0.5 * math.hypot(w - 1, h - 1)


def _normaliser(p: F64) -> F64:
    c = p.mean(axis=0)
    s = math.sqrt(2) / max(float(np.sqrt(((p - c) ** 2).sum(axis=1)).mean()), 1e-12)
    return np.array([[s, 0, -s * c[0]], [0, s, -s * c[1]], [0, 0, 1]])


def _project(params: F64, uvn: F64, to_pixel: F64, centre: F64, norm: float) -> F64:
    """Pixels of normalised pitch units under homography and lens parameters (8 + 1 or 2)."""
    h = np.append(params[:8], 1.0).reshape(3, 3)
    w = uvn[:, 0] * h[2, 0] + uvn[:, 1] * h[2, 1] + h[2, 2]
    xn = (uvn[:, 0] * h[0, 0] + uvn[:, 1] * h[0, 1] + h[0, 2]) / w
    yn = (uvn[:, 0] * h[1, 0] + uvn[:, 1] * h[1, 1] + h[1, 2]) / w
    x = (xn - to_pixel[0, 2]) / to_pixel[0, 0]
    y = (yn - to_pixel[1, 2]) / to_pixel[1, 1]
    d = np.stack([x - centre[0], y - centre[1]], axis=-1)
    rho2 = (d[:, 0] ** 2 + d[:, 1] ** 2) / norm ** 2
    k2 = params[9] if len(params) > 9 else 0.0
    f = 1.0 + rho2 * (params[8] + k2 * rho2)
    out: F64 = centre + d * f[:, None]
    return out


def fit_lens(uv: F64, xy: F64, homography: F64, centre: tuple[float, float], norm: float, *,
             rounds: int = 30, start: tuple[float, float] = (0.0, 0.0), terms: int = 2
             ) -> tuple[F64, Lens]:
    """A homography and a radial lens together, by least squares in image pixels.

    ``homography`` (pitch units -> undistorted pixels) and ``start`` (``k1, k2``)
    are the starting point: usually the homography alone fitted to the same
    points and no distortion, or an earlier fit of both. ``terms`` is 1 to fit
    ``k1`` alone (mild distortion; steadier when the points cover only part of
    the image), 2 for ``k1`` and ``k2``. Returns the refined homography and the lens.

    Examples
    --------
    >>> u, v = np.meshgrid(np.arange(12.0), np.arange(10.0))
    >>> uv = np.column_stack([u.ravel(), v.ravel()])
    >>> h = np.array([[40.0, 1.0, 30.0], [-1.0, 45.0, 20.0], [1e-4, 2e-4, 1.0]])
    >>> from pipeline.digitize.gridfit import apply_homography
    >>> truth = Lens((240.0, 225.0), 330.0, k1=-0.05)
    >>> xy = truth.apply(apply_homography(h, uv))
    >>> _, lens = fit_lens(uv, xy, h, truth.centre, truth.norm)
    >>> round(lens.k1, 6), round(lens.k2, 6) + 0.0
    (-0.05, 0.0)
    """
    tu, tx = _normaliser(uv), _normaliser(xy)
    uvn = uv @ tu[:2, :2].T + tu[:2, 2]
    hn = tx @ homography @ np.linalg.inv(tu)
    hn = hn / hn[2, 2]
    c = np.asarray(centre, np.float64)
    params = np.append(hn.ravel()[:8], start[:terms])

    def residual(p: F64) -> F64:
        out: F64 = (_project(p, uvn, tx, c, norm) - xy).ravel()
        return out

    r = residual(params)
    cost = float(r @ r)
    damping = 1e-3
    for _ in range(rounds):
        jac = _jacobian(residual, params, r)
        jtj, jtr = jac.T @ jac, jac.T @ r
        improved = False
        for _ in range(10):
            step = np.linalg.solve(jtj + damping * np.diag(np.diag(jtj) + 1e-12), -jtr)
            trial = params + step
            rt = residual(trial)
            ct = float(rt @ rt)
            if ct < cost:
                params, r, improved = trial, rt, True
                small = cost - ct <= 1e-12 * max(cost, 1e-300)
                cost, damping = ct, max(damping / 3, 1e-9)
                break
            damping *= 4
        if not improved or small:
            break
    hn = np.append(params[:8], 1.0).reshape(3, 3)
    h = np.linalg.inv(tx) @ hn @ tu
    return h / h[2, 2], Lens(centre, norm, float(params[8]),
                             float(params[9]) if terms > 1 else 0.0)


def _jacobian(residual: Callable[[F64], F64], params: F64, r0: F64) -> F64:
    """Forward-difference Jacobian of ``residual`` at ``params`` (``r0`` its value there)."""
    out = np.empty((len(r0), len(params)))
    for i in range(len(params)):
        step = 1e-7 * max(1.0, abs(float(params[i])))
        p = params.copy()
        p[i] += step
        out[:, i] = (residual(p) - r0) / step
    return out


@dataclass(frozen=True)
class Bend:
    """A smooth displacement over the sheet: pitch units -> pixels to add.

    A tensor-product cubic B-spline: ``coefficients[j, i]`` is the control
    offset at knot ``(origin[0] + i * spacing, origin[1] + j * spacing)``,
    the knots one step beyond the fitted area on every side.

    Examples
    --------
    >>> flat = Bend((0.0, 0.0), 4.0, np.full((4, 4, 2), 0.5))
    >>> flat.offset(np.array([[5.0, 3.0]])).round(6).tolist()
    [[0.5, 0.5]]
    """

    origin: tuple[float, float]
    spacing: float
    coefficients: F64

    def offset(self, uv: F64) -> F64:
        """The displacement, in pixels, at points given in pitch units, ``(n, 2)``."""
        idx, weight = bend_basis(uv, self.origin, self.spacing, self.coefficients.shape[:2])
        flat = self.coefficients.reshape(-1, 2)
        out: F64 = np.einsum("nk,nkc->nc", weight, flat[idx])
        return out

    def moved(self, du: float, dv: float) -> Bend:
        """The same bend for pitch units counted from a point ``(du, dv)`` further on."""
        return Bend((self.origin[0] - du, self.origin[1] - dv), self.spacing, self.coefficients)

    def largest(self) -> float:
        """The largest control offset, in pixels."""
        return float(np.hypot(self.coefficients[..., 0], self.coefficients[..., 1]).max())


def _cubic(t: F64) -> F64:
    """The four uniform cubic B-spline weights at fractions ``t`` in ``[0, 1)``, ``(n, 4)``."""
    s = 1.0 - t
    return np.stack([s ** 3, 3 * t ** 3 - 6 * t ** 2 + 4, -3 * t ** 3 + 3 * t ** 2 + 3 * t + 1,
                     t ** 3], axis=-1) / 6.0


def bend_basis(uv: F64, origin: tuple[float, float], spacing: float, shape: tuple[int, ...]
               ) -> tuple[NDArray[np.int64], F64]:
    """For each point, its 16 coefficients' flat indices and weights, both ``(n, 16)``.

    Points beyond the knots use the nearest cell (the field is held at its edge).
    """
    ny, nx = shape[0], shape[1]
    gu = (uv[:, 0] - origin[0]) / spacing
    gv = (uv[:, 1] - origin[1]) / spacing
    iu = np.clip(np.floor(gu).astype(np.int64), 1, nx - 3)
    iv = np.clip(np.floor(gv).astype(np.int64), 1, ny - 3)
    wu = _cubic(np.clip(gu - iu, 0.0, 1.0))
    wv = _cubic(np.clip(gv - iv, 0.0, 1.0))
    offs = np.arange(-1, 3)
    cols = iu[:, None] + offs[None, :]
    rows = iv[:, None] + offs[None, :]
    idx = (rows[:, :, None] * nx + cols[:, None, :]).reshape(len(uv), 16)
    weight = (wv[:, :, None] * wu[:, None, :]).reshape(len(uv), 16)
    return idx, weight


def fit_bend(uv: F64, residual: F64, *, spacing: float = _BEND_KNOT,
             smooth: float = _BEND_SMOOTH) -> Bend:
    """The smooth field through residual displacements ``(n, 2)`` at pitch units ``uv``.

    Regularised least squares: the second differences of the control offsets
    are kept small, so where points are few the field stays flat. The normal
    equations are gathered point by point (16 coefficients each), never as a
    dense design matrix.

    >>> u, v = np.meshgrid(np.arange(20.0), np.arange(16.0))
    >>> uv = np.column_stack([u.ravel(), v.ravel()])
    >>> wave = np.column_stack([np.sin(uv[:, 0] / 3), np.zeros(len(uv))])
    >>> bend = fit_bend(uv, wave, spacing=2.0)
    >>> bool(np.abs(bend.offset(uv) - wave).max() < 0.05)
    True
    """
    lo, hi = uv.min(axis=0), uv.max(axis=0)
    cells = np.maximum(1, np.ceil((hi - lo) / spacing - 1e-9)).astype(int)
    nx, ny = int(cells[0]) + 3, int(cells[1]) + 3
    origin = (float(lo[0] - spacing), float(lo[1] - spacing))
    idx, weight = bend_basis(uv, origin, spacing, (ny, nx))
    m = nx * ny
    pairs = (idx[:, :, None] * m + idx[:, None, :]).ravel()
    lhs = np.bincount(pairs, (weight[:, :, None] * weight[:, None, :]).ravel(),
                      minlength=m * m).reshape(m, m)
    rhs = np.stack([np.bincount(idx.ravel(), (weight * residual[:, None, c]).ravel(),
                                minlength=m) for c in (0, 1)], axis=-1)
    lhs += smooth * _second_difference_normal(ny, nx) + 1e-9 * np.eye(m)
    coef = np.linalg.solve(lhs, rhs)
    return Bend(origin, spacing, coef.reshape(ny, nx, 2))


def _second_difference_normal(ny: int, nx: int) -> F64:
    """``D.T @ D`` for the second differences ``D`` along both axes of an ``ny x nx`` grid."""
    j, i = np.mgrid[0:ny, 0:nx]
    flat = (j * nx + i).ravel()
    out = np.zeros((ny * nx, ny * nx))
    stencil = np.array([1.0, -2.0, 1.0])
    for along_rows in (False, True):
        ok = ((j >= 1) & (j <= ny - 2)) if along_rows else ((i >= 1) & (i <= nx - 2))
        mid = flat[ok.ravel()]
        step = nx if along_rows else 1
        cols = np.stack([mid - step, mid, mid + step], axis=1)
        np.add.at(out, (np.repeat(cols, 3, axis=1).ravel(), np.tile(cols, (1, 3)).ravel()),
                  np.tile(np.outer(stencil, stencil).ravel(), len(mid)))
    return out
