"""Find a printed hex grid with no help: orientation, both pitches, angle, origin.

The outlines of a hex grid repeat exactly on the lattice of hex centres, and
on no finer one. So the autocorrelation of the ink map peaks at the lattice
vectors. Every pair of strong peaks spans a candidate lattice; each hexagonal
one is scored by how much higher the autocorrelation is at its points than half
a step off them (textures, fills and long frame lines raise both), and of the
lattices scoring near the best the finest is taken: a coarser one (every third
hex) scores as well, a finer one far worse. Detail of a pixel or two (halftone
screens, stipple) is blurred away first, as it repeats on lattices of its own.
A least-squares fit to every peak out to a third of the image makes the lattice
precise (hex width and height separately, and the angle). Which of the six
lattice directions is nearly upright says flat-top (a column step is vertical)
from pointy-top (a row step is horizontal).

The origin comes from folding: every inked pixel's fractional axial position
(modulo one hex) is accumulated in one cell, where the hex outline appears,
and that cell is matched against the ideal outline. How well it matches also
says whether the grid is printed dark or light (:func:`find_printed_lattice`).
What follows (the exact fit, and which hexes are on the map) is
:mod:`pipeline.digitize.refine`'s job.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.ink import ink_map
from pipeline.errors import GridError
from pipeline.hexgrid import Hex, Orientation
from pipeline.hexgrid.coords import SCALE, scaled_corners

__all__ = ["CLEAR_OUTLINE", "Lattice", "find_lattice", "find_printed_lattice", "fold_origin",
           "outline_match", "outline_units"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]

_FOLD_BINS = 64
_SMOOTH = 1.0  # px: detail finer than this is left out of the autocorrelation
_PAIR_PEAKS = 24  # the strongest peaks whose pairs are tried as lattice bases
_SUPPORT_STEPS = 6.0  # a lattice is scored over its points this many steps around
_NEAR_BEST = 0.5  # lattices scoring this share of the best compete on fineness
CLEAR_OUTLINE = 0.7  # an outline match this good is a printed grid in that ink
_TRIES = 4  # the finest lattices whose folds are matched against the outline
_MATCH_PIXELS = 1_000_000  # an outline match reads about this many pixels


@dataclass(frozen=True)
class Lattice:
    """A hex lattice on a working image.

    Attributes
    ----------
    orientation
        Flat-top or pointy-top.
    matrix
        2x2 map from pitch units to working pixels (columns: the ``u`` and ``v`` steps).
    origin
        Working pixel of one hex centre (axial ``(0, 0)`` of this provisional frame).
    strength
        How much the ink folded into one lattice cell looks like a hex outline
        (:func:`outline_match`, 0 to 1).
    light
        Whether the grid is printed light on dark (read in the light-stroke ink map).
    """

    orientation: Orientation
    matrix: F64
    origin: F64
    strength: float = 1.0
    light: bool = False

    def affine(self) -> F64:
        """The lattice as a 3x3 affine matrix from pitch units to working pixels."""
        out = np.eye(3)
        out[:2, :2] = self.matrix
        out[:2, 2] = self.origin
        return out


def outline_units(orientation: Orientation, per_side: int = 16, inner: float = 0.0) -> F64:
    """Points on the outline of the hex at the origin, in pitch units, shape ``(6 * n, 2)``.

    ``inner`` leaves out that share of each side at both ends (corners are
    where three lines meet, and say least about a single side).
    """
    su, sv = SCALE[orientation]
    corners = np.array(scaled_corners(Hex(0, 0), orientation), float) / (su, sv)
    t = np.linspace(inner, 1 - inner, per_side)
    out = []
    for i in range(6):
        a, b = corners[i - 1], corners[i]
        out.append(a + (b - a) * t[:, None])
    return np.concatenate(out)


def find_lattice(ink: F32, *, min_pitch: float = 8.0) -> Lattice:
    """The hex lattice printed on a working image, from its ink map.

    Of the lattices the autocorrelation supports, finest first, the first whose
    folded ink clearly matches a hex outline (:data:`CLEAR_OUTLINE`) is taken, or
    else the best matching of the few finest.

    Raises :class:`GridError` when the image shows no hex lattice.
    """
    # Detail finer than a couple of pixels (halftone screens, stipple, hatching)
    # repeats on lattices of its own and says nothing of the grid's.
    smooth = np.asarray(cv2.GaussianBlur(ink, (0, 0), _SMOOTH), dtype=np.float32)
    ac = _autocorrelation(smooth)
    radius = min(ink.shape) // 3
    if radius <= 2 * min_pitch:
        raise GridError(f"the image is too small to find a hex grid in ({ink.shape[1]} x "
                        f"{ink.shape[0]} px at working size)")
    peaks = _peaks(ac, radius, min_pitch)
    best: Lattice | None = None
    for rough1, rough2 in _bases(ac, peaks, radius, min_pitch)[:_TRIES]:
        b1, b2 = _precise(ac, rough1, rough2, radius)
        orientation, matrix = _orient(b1, b2)
        origin, match = _fold_match(ink, orientation, matrix)
        if best is None or match > best.strength:
            best = Lattice(orientation, matrix, origin, match)
        if match >= CLEAR_OUTLINE:
            break
    assert best is not None  # _bases raises rather than give none
    return best


def find_printed_lattice(gray_image: NDArray[np.uint8], kernel: int = 7) -> Lattice:
    """The hex lattice of a gray working image, its grid printed dark or light.

    The lattice is looked for in the dark-stroke ink map
    (:func:`~pipeline.digitize.ink.ink_map`); if it folds clearly into a hex
    outline there (a match of :data:`CLEAR_OUTLINE` or more), it is a dark grid.
    Otherwise it is also looked for in the light-stroke map (a white grid over
    saturated fills), and each lattice found is read in both inks: the one whose
    folded ink looks most like a hex outline wins, so a grid found more easily in
    the other map is still read in its own ink.

    Raises :class:`GridError` (the dark map's reason) when neither shows a lattice.
    """
    inks: dict[bool, F32] = {}

    def ink(light: bool) -> F32:
        if light not in inks:
            inks[light] = ink_map(gray_image, kernel, light=light)
        return inks[light]

    found: list[Lattice] = []
    reason: GridError | None = None
    for light in (False, True):
        try:
            lattice = find_lattice(ink(light))
        except GridError as exc:
            reason = reason or exc
            continue
        if not light and lattice.strength >= CLEAR_OUTLINE:
            return lattice  # clearly a dark grid: no need to look in light strokes
        found.append(Lattice(lattice.orientation, lattice.matrix, lattice.origin,
                             lattice.strength, light))
        other = not light
        found.append(Lattice(lattice.orientation, lattice.matrix, lattice.origin,
                             outline_match(ink(other), lattice.orientation, lattice.matrix),
                             other))
    if not found:
        assert reason is not None
        raise reason
    best = max(found, key=lambda t: t.strength)
    origin = fold_origin(ink(best.light), best.orientation, best.matrix)
    return Lattice(best.orientation, best.matrix, origin, best.strength, best.light)


def _autocorrelation(ink: F32) -> F64:
    """Unbiased autocorrelation (each shift divided by its overlap), zero shift at the centre."""
    h, w = ink.shape
    # Single precision: the peaks stand far above its rounding, at two thirds of the time.
    a = ink - np.float32(ink.mean())
    # Shifts up to a third of the image are read; padding by that much keeps them
    # free of wrap-around, at under half the cost of doubling.
    reach = min(h, w) // 3 + 2
    sh, sw = cv2.getOptimalDFTSize(h + reach), cv2.getOptimalDFTSize(w + reach)
    f = np.fft.rfft2(a, s=(sh, sw))
    f *= np.conj(f)
    ac = np.fft.irfft2(f, s=(sh, sw))
    shifts = np.arange(-(reach - 1), reach)
    oy, ox = h - np.abs(shifts), w - np.abs(shifts)
    # Only the shifts read: negative ones wrap around to the far end.
    out: F64 = ac[np.ix_(shifts % sh, shifts % sw)].astype(np.float64) / np.outer(oy, ox)
    return out


def _peaks(ac: F64, radius: int, min_pitch: float) -> list[tuple[float, F64]]:
    """Local maxima of the autocorrelation between ``min_pitch`` and ``radius``, strongest first."""
    cy, cx = ac.shape[0] // 2, ac.shape[1] // 2
    win = ac[cy - radius: cy + radius + 1, cx - radius: cx + radius + 1].astype(np.float32)
    dil = cv2.dilate(win, np.ones((5, 5), np.uint8))
    yy, xx = np.mgrid[-radius: radius + 1, -radius: radius + 1]
    rr = np.hypot(xx, yy)
    mask = (win >= dil) & (rr >= min_pitch) & (rr <= radius) & (win > 0)
    ys, xs = np.nonzero(mask)
    order = np.argsort(-win[ys, xs], kind="stable")[:400]
    return [(float(win[ys[i], xs[i]]), np.array([xx[ys[i], xs[i]], yy[ys[i], xs[i]]], float))
            for i in order]


def _bases(ac: F64, peaks: list[tuple[float, F64]], radius: int, min_pitch: float
           ) -> list[tuple[F64, F64]]:
    """The hexagonal lattices the autocorrelation supports, finest first.

    Every pair of strong peaks spans a lattice; those that are not hexagonal are
    dropped, and each other one is scored by the median autocorrelation over its
    points (a lattice that is really printed peaks at every one of them). A
    coarser lattice (every second hex) scores as well as the true one, a finer one
    (half steps) much worse, so of the lattices scoring near the best the finest
    is first. Finer lattices than any pair gave are tried too.
    """
    centre = float(ac[ac.shape[0] // 2, ac.shape[1] // 2])
    half = [p for _, p in peaks if p[1] > 0 or (p[1] == 0 and p[0] > 0)][:_PAIR_PEAKS]
    if len(half) < 2:
        raise GridError("no hex grid found on the scan (no repeating lines); "
                        "give anchors (--anchor 0101=x,y) or a grid file (--grid)")
    near = np.asarray(cv2.dilate(ac.astype(np.float32), np.ones((3, 3), np.uint8)), np.float32)
    scored: dict[tuple[int, int, int, int], tuple[float, F64, F64]] = {}
    shapes: list[tuple[float, float]] = []

    def consider(a: F64, b: F64) -> None:
        if abs(_cross(a, b)) <= 0.3 * _norm(a) * _norm(b):
            return
        b1, b2 = _reduce(a, b)
        if b1 @ b2 < 0:
            b2 = -b2
        if min(_norm(b1), _norm(b2)) < min_pitch:
            return
        ratio, angle = _shape(b1, b2)
        shapes.append((ratio, angle))
        if ratio > 1.4 or not 45 <= angle <= 75:
            return
        key = _key(b1, b2)
        if key not in scored:
            scored[key] = (_support(near, b1, b2, radius) / max(centre, 1e-12), b1, b2)

    for i in range(len(half)):
        for j in range(i + 1, len(half)):
            consider(half[i], half[j])
    if scored:
        top = max(scored.values(), key=lambda t: t[0])
        for k in (2, 3, 4):  # the lattices k times finer than the best one
            for i in range(k):
                for j in range(k):
                    if (i, j) != (0, 0):
                        v = (i * top[1] + j * top[2]) / k
                        consider(v, top[1])
                        consider(v, top[2])
    if not scored:
        if not shapes:
            raise GridError("no hex grid found on the scan (lines repeat in one direction"
                            " only); give anchors (--anchor 0101=x,y) or a grid file (--grid)")
        ratio, angle = shapes[0]
        raise GridError(f"no hex grid found on the scan (the repeating pattern is not hexagonal:"
                        f" {ratio:.2f} side ratio, {angle:.0f} degrees); give anchors "
                        "(--anchor 0101=x,y) or a grid file (--grid)")
    best = max(t[0] for t in scored.values())
    if best <= 0:
        raise GridError("no hex grid found on the scan (no repeating lines); "
                        "give anchors (--anchor 0101=x,y) or a grid file (--grid)")
    fair = sorted((t for t in scored.values() if t[0] >= _NEAR_BEST * best),
                  key=lambda t: abs(_cross(t[1], t[2])))
    out: list[tuple[F64, F64]] = []
    while fair:
        # Bases read off rounded peaks differ by a pixel: lattices of about the same
        # cell are one lattice, and the best supported reading of it is taken.
        finest = abs(_cross(fair[0][1], fair[0][2]))
        same = [t for t in fair if abs(_cross(t[1], t[2])) <= 1.3 * finest]
        _, b1, b2 = max(same, key=lambda t: t[0])
        out.append((b1, b2))
        fair = [t for t in fair if abs(_cross(t[1], t[2])) > 1.3 * finest]
    return out


def _shape(b1: F64, b2: F64) -> tuple[float, float]:
    """Side ratio and angle (degrees) of a reduced basis."""
    ratio = max(_norm(b1), _norm(b2)) / min(_norm(b1), _norm(b2))
    angle = math.degrees(math.acos(min(1.0, abs(float(b1 @ b2)) / (_norm(b1) * _norm(b2)))))
    return ratio, angle


def _key(b1: F64, b2: F64) -> tuple[int, int, int, int]:
    """The same lattice from any of its shortest bases gives the same key (to a pixel)."""
    ring = [b1, b2, b2 - b1, b1 + b2, b1 - b2]
    ring = [v if v[1] > 0 or (v[1] == 0 and v[0] > 0) else -v for v in ring]
    short = sorted(ring, key=lambda v: (round(_norm(v)), round(float(v[0])),
                                        round(float(v[1]))))[:2]
    a, b = sorted((int(round(float(v[0]))), int(round(float(v[1])))) for v in short)
    return a[0], a[1], b[0], b[1]


def _support(near: F32, b1: F64, b2: F64, radius: int) -> float:
    """How much higher the autocorrelation is at the lattice's points than between them.

    The median at the points within reach of the centre (each read as the best
    of its 3 x 3 neighbours), less the median half a step off them: a textured or
    patchy map raises both alike, a printed lattice only the first.
    """
    reach = min(float(radius), _SUPPORT_STEPS * max(_norm(b1), _norm(b2)))
    span = int(reach / min(_norm(b1), _norm(b2))) + 1
    n, m = (g.ravel() for g in np.meshgrid(np.arange(-span, span + 1),
                                            np.arange(-span, span + 1), indexing="ij"))
    p = n[:, None] * b1 + m[:, None] * b2
    d = np.hypot(p[:, 0], p[:, 1])
    p = p[(d > 0) & (d <= reach)]
    if not len(p):
        return 0.0
    off = np.concatenate([p + b1 / 2, p + b2 / 2, p + (b1 + b2) / 2])
    return float(np.median(_read(near, p)) - np.median(_read(near, off)))


def _read(img: F32, p: F64) -> F32:
    """Values at the nearest pixels to offsets ``p`` from the image centre."""
    cy, cx = img.shape[0] // 2, img.shape[1] // 2
    x = np.clip(np.rint(cx + p[:, 0]).astype(np.int64), 0, img.shape[1] - 1)
    y = np.clip(np.rint(cy + p[:, 1]).astype(np.int64), 0, img.shape[0] - 1)
    out: F32 = img[y, x]
    return out


def _reduce(b1: F64, b2: F64) -> tuple[F64, F64]:
    """Lagrange-Gauss reduction: the shortest basis of the same lattice."""
    for _ in range(50):
        if _norm(b1) > _norm(b2):
            b1, b2 = b2, b1
        mu = round(float(b1 @ b2) / float(b1 @ b1))
        if mu == 0:
            break
        b2 = b2 - mu * b1
    return b1, b2


def _precise(ac: F64, b1: F64, b2: F64, radius: int) -> tuple[F64, F64]:
    """Refit the basis to every lattice peak within ``radius`` (sub-pixel, least squares)."""
    cy, cx = ac.shape[0] // 2, ac.shape[1] // 2
    for _ in range(2):
        span = int(radius / min(_norm(b1), _norm(b2))) + 1
        n, m = (g.ravel() for g in np.meshgrid(np.arange(-span, span + 1),
                                                np.arange(-span, span + 1), indexing="ij"))
        p = n[:, None] * b1 + m[:, None] * b2
        near = ((n != 0) | (m != 0)) & (np.hypot(p[:, 0], p[:, 1]) <= radius)
        peaks, ok = _subpixel_peaks(ac, cx + p[near, 0], cy + p[near, 1], 2)
        if ok.sum() < 4:
            break
        nm = np.stack([n[near], m[near]], axis=1)[ok].astype(np.float64)
        sol, *_ = np.linalg.lstsq(nm, peaks[ok] - (cx, cy), rcond=None)
        b1, b2 = sol[0], sol[1]
    return b1, b2


def _subpixel_peaks(img: F64, x: F64, y: F64, reach: int) -> tuple[F64, NDArray[np.bool_]]:
    """The maximum within ``reach`` of each position, to a fraction of a pixel (a parabola
    through its neighbours), and whether it is a true peak inside the window."""
    h, w = img.shape
    ix, iy = np.rint(x).astype(np.int64), np.rint(y).astype(np.int64)
    inside = (ix >= reach + 1) & (ix < w - reach - 1) & (iy >= reach + 1) & (iy < h - reach - 1)
    ix, iy = np.where(inside, ix, reach + 1), np.where(inside, iy, reach + 1)
    off = np.arange(-reach, reach + 1)
    win = img[iy[:, None, None] + off[None, :, None], ix[:, None, None] + off[None, None, :]]
    j, i = np.divmod(np.argmax(win.reshape(len(ix), -1), axis=1), 2 * reach + 1)
    ok = inside & (i > 0) & (i < 2 * reach) & (j > 0) & (j < 2 * reach)
    px, py = ix - reach + i, iy - reach + j
    centre = img[py, px]
    dx = _vertex(img[py, px - 1], centre, img[py, np.minimum(px + 1, w - 1)])
    dy = _vertex(img[py - 1, px], centre, img[np.minimum(py + 1, h - 1), px])
    return np.stack([px + dx, py + dy], axis=-1), ok


def _vertex(a: F64, b: F64, c: F64) -> F64:
    """Offset of the top of the parabola through three equally spaced values (0 if none)."""
    d = a - 2 * b + c
    out: F64 = np.where(d < 0, 0.5 * (a - c) / np.where(d < 0, d, -1.0), 0.0)
    return out


def _orient(b1: F64, b2: F64) -> tuple[Orientation, F64]:
    """Orientation and pitch matrix from a reduced basis (b1 . b2 > 0, about 60 degrees)."""
    ring = [b1, b2, b2 - b1]
    ring += [-v for v in ring]
    ang = [math.degrees(math.atan2(v[1], v[0])) % 180 for v in ring]
    off_vertical = min(abs(a - 90) for a in ang)
    off_horizontal = min(min(a, 180 - a) for a in ang)
    if off_vertical <= off_horizontal:
        down = max(ring, key=lambda v: v[1] / _norm(v))  # the column step (0, 1)
        se = max((v for v in ring if v[0] > 0 and not _parallel(v, down)), key=lambda v: v[1])
        return Orientation.FLAT, np.column_stack([se - down / 2, down])
    right = max(ring, key=lambda v: v[0] / _norm(v))  # the row step (1, 0)
    se = max((v for v in ring if v[1] > 0 and not _parallel(v, right)), key=lambda v: v[0])
    return Orientation.POINTY, np.column_stack([right, se - right / 2])


def _parallel(a: F64, b: F64) -> bool:
    return abs(_cross(a, b)) < 0.1 * _norm(a) * _norm(b)


def fold_origin(ink: F32, orientation: Orientation, matrix: F64) -> F64:
    """A hex centre (pixels) of a lattice whose steps ``matrix`` gives.

    Every inked pixel is folded into one lattice cell and the cell is matched
    against the ideal hex outline.
    """
    return _fold_match(ink, orientation, matrix)[0]


def outline_match(ink: F32, orientation: Orientation, matrix: F64) -> float:
    """How much the ink, folded into one lattice cell, looks like a hex outline (0 to 1).

    The cosine between the folded ink and the ideal outline at their best
    alignment: about 0.8 to 0.9 for a printed grid, half that for ink that only
    repeats with the hexes (ids, symbols) or for the wrong lattice. Large images
    are read on every second or third row and column.
    """
    step = max(1, int(math.sqrt(ink.size / _MATCH_PIXELS)))
    return _fold_match(ink[::step, ::step], orientation, matrix / step)[1]


def _fold_match(ink: F32, orientation: Orientation, matrix: F64) -> tuple[F64, float]:
    """The folded ink's best match with the hex outline: a hex centre and the cosine."""
    inv = np.linalg.inv(matrix)
    _h, w = ink.shape
    weight = np.maximum(ink, 0).ravel()
    keep = weight > np.quantile(weight, 0.8)
    idx = np.nonzero(keep)[0]
    xs, ys = (idx % w).astype(np.float64), (idx // w).astype(np.float64)
    qd, rd = _axial(inv, xs, ys, orientation)
    data = _fold(qd, rd, weight[idx].astype(np.float64))
    outline = outline_units(orientation, per_side=64)
    qt, rt = _axial_units(outline[:, 0], outline[:, 1], orientation)
    template = _fold(qt, rt, np.ones(len(qt)))
    data -= data.mean()
    template -= template.mean()
    corr = np.fft.ifft2(np.fft.fft2(data) * np.conj(np.fft.fft2(template))).real
    j, i = np.unravel_index(int(np.argmax(corr)), corr.shape)
    scale = float(np.linalg.norm(data) * np.linalg.norm(template))
    score = float(corr[j, i]) / scale if scale > 0 else 0.0
    sq, sr = int(i) / _FOLD_BINS, int(j) / _FOLD_BINS
    u, v = (sq, sr + sq / 2) if orientation is Orientation.FLAT else (sq + sr / 2, sr)
    origin: F64 = matrix @ np.array([u, v])
    return origin, score


def _axial(inv: F64, x: F64, y: F64, orientation: Orientation) -> tuple[F64, F64]:
    u = inv[0, 0] * x + inv[0, 1] * y
    v = inv[1, 0] * x + inv[1, 1] * y
    return _axial_units(u, v, orientation)


def _axial_units(u: F64, v: F64, orientation: Orientation) -> tuple[F64, F64]:
    if orientation is Orientation.FLAT:
        return u, v - u / 2
    return u - v / 2, v


def _fold(q: F64, r: F64, weight: F64) -> F64:
    b = _FOLD_BINS
    iq = np.floor(np.mod(q, 1.0) * b).astype(np.int64) % b
    ir = np.floor(np.mod(r, 1.0) * b).astype(np.int64) % b
    hist = np.bincount(ir * b + iq, weights=weight, minlength=b * b).reshape(b, b)
    # Blur on the torus so a slightly wrong pitch still lines up.
    wrapped = np.tile(hist, (3, 3)).astype(np.float32)
    blurred = cv2.GaussianBlur(wrapped, (0, 0), 1.5)[b: 2 * b, b: 2 * b]
    return np.asarray(blurred, dtype=np.float64)


def _norm(v: F64) -> float:
    return math.hypot(float(v[0]), float(v[1]))


def _cross(a: F64, b: F64) -> float:
    return float(a[0] * b[1] - a[1] * b[0])
