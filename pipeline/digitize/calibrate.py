"""Grid calibration: where the printed grid lies on a scan, from the image or from anchors.

Three ways in, one way out (a :class:`~pipeline.digitize.gridfit.GridFit`):

* **automatic**: the lattice is found in the ink map, its grid printed dark or
  light (:mod:`~pipeline.digitize.lattice`), refined hex by hex with the
  perspective and, on a photograph, the lens (:mod:`~pipeline.digitize.refine`),
  and framed as the map's columns and rows (:mod:`~pipeline.digitize.extent`):
  given them (a grid file, or ``size``), the best placement of that many on the
  lattice, so a key, a track or a margin beside the map is left out and a map cut
  by its frame keeps its edge hexes; without, the largest connected field of
  printed hexes;
* **anchors**: two or more hex centres the user names (``0101=x,y``) give an
  affine grid by least squares; anchors that no sane hex grid can satisfy
  (mirrored, sheared, squashed, or one far from where the others put it) are
  refused with the reason; the image then refines the fit; the map runs to the
  given size, or, without one, over the printed hexes joined to the anchors
  (never over a key standing apart);
* **layout**: a grid file that already has a pixel layout, refined the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.extent import (
    connected_field,
    frame_hexes,
    inked_share,
    place_grid,
    present_hexes,
    side_scores,
)
from pipeline.digitize.gridfit import (
    GridFit,
    Projection,
    among,
    apply_homography,
    fit_affine,
    hex_units,
    layout_from_projection,
    with_layout,
)
from pipeline.digitize.ink import Pyramid, Scale, ink_map
from pipeline.digitize.lattice import Lattice, find_printed_lattice, fold_origin, outline_match
from pipeline.digitize.lens import lens_for_image
from pipeline.digitize.refine import on_work, refine, refit
from pipeline.errors import GridError, ImageError
from pipeline.hexgrid import Hex, HexGrid, Numbering, Orientation, distance

__all__ = [
    "MIN_HEX_WIDTH",
    "MIN_IMAGE_SIDE",
    "Point",
    "calibrate",
    "check_image_size",
    "fit_anchors",
]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
Point = tuple[float, float]

MIN_IMAGE_SIDE = 64
MIN_HEX_WIDTH = 10.0
_COARSE_SIDE = 1024  # the lattice is found on an image reduced to about this size
_TRUSTED_PITCH = 14.0  # lattice steps, in reduced pixels, found reliably there
_WORK_HEX = 48.0  # refinement works where a hex is about this wide
_POLARITY_HEXES = 10  # hexes across the middle window a grid's polarity is read in
_AROUND = ((0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # a hex and its six
_STAGGERS = {Orientation.FLAT: ("even-down", "odd-down"),
             Orientation.POINTY: ("even-right", "odd-right")}
# Hex height over width for a regular hex, per orientation (|v step| / |u step|).
_ASPECT = {Orientation.FLAT: 2 / math.sqrt(3), Orientation.POINTY: math.sqrt(3) / 2}


def check_image_size(image: NDArray[np.uint8], source: str | None = None) -> None:
    """Refuse an image too small to hold a readable hex grid."""
    h, w = image.shape[:2]
    if min(h, w) < MIN_IMAGE_SIDE:
        raise ImageError(source, f"image is {w} x {h} px, too small to hold a hex grid (needs"
                         f" at least {MIN_IMAGE_SIDE} px each way)")


def calibrate(image: NDArray[np.uint8], *, spec: HexGrid | None = None,
              anchors: Mapping[str, Point] | None = None, source: str | None = None,
              size: tuple[int, int] | None = None) -> GridFit:
    """Locate the printed grid on a scan.

    Parameters
    ----------
    image
        The scan, RGB ``uint8``.
    spec
        What the user knows of the grid: orientation, numbering, columns and
        rows, excluded hexes, and perhaps a pixel layout to start from.
    anchors
        Printed hex id -> pixel centre on the scan, for assisted calibration.
    source
        The scan's file name, for messages.
    size
        Columns and rows, when no ``spec`` gives them (the orientation and the
        stagger are then read off the scan).

    Returns
    -------
    GridFit
        The grid with every hex's centre on the scan.
    """
    check_image_size(image, source)
    if spec is not None and size is not None and size != (spec.cols, spec.rows):
        raise GridError(f"the size given ({size[0]} x {size[1]}) is not the grid file's"
                        f" ({spec.cols} x {spec.rows}); give one of them")
    if size is not None and (size[0] < 1 or size[1] < 1):
        raise GridError(f"a grid needs at least one column and row ({size[0]} x {size[1]})")
    luma = Pyramid(image)
    lens_at = lens_for_image(image.shape)
    if anchors:
        return _from_anchors(luma, spec, anchors, size, lens_at)
    if spec is not None and spec.layout is not None:
        return _finish(luma, spec, _layout_matrix(spec), "layout", lens_at=lens_at)
    return _automatic(luma, spec, size, lens_at)


# -- anchors ------------------------------------------------------------------------


def fit_anchors(grid: HexGrid, anchors: Mapping[str, Point]) -> tuple[F64, float]:
    """An affine grid (3x3, pitch units -> pixels) through named hex centres.

    Two anchors fix position, size and angle (the hexes taken as regular);
    three or more fix width and height separately and any shear, by least
    squares. Returns the matrix and the RMS residual in pixels.

    Raises :class:`GridError` when the anchors contradict each other.

    Examples
    --------
    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=10, rows=10)
    >>> m, rms = fit_anchors(g, {"0101": (50.0, 50.0), "0501": (50.0 + 4 * 43.3, 50.0)})
    >>> round(float(m[1, 1]), 1), rms
    (50.0, 0.0)
    """
    if len(anchors) < 2:
        raise GridError("give at least two anchors (--anchor 0101=x,y --anchor 1010=x,y)")
    ids = list(anchors)
    hexes = [grid.hex(i) for i in ids]
    uv = hex_units(hexes, grid.orientation)
    xy = np.array([anchors[i] for i in ids], float)
    if not np.all(np.isfinite(xy)):
        raise GridError("anchor positions must be finite numbers")
    _distinct(ids, uv, xy)
    m = _similarity(uv, xy, grid.orientation) if len(ids) == 2 else fit_affine(uv, xy)
    if len(ids) >= 4:
        # Each anchor against the grid the others make: a wrong one stands out alone.
        apart = _leave_one_out(uv, xy)
        worst = _odd_one_out(uv, xy, apart, grid.orientation)
        width = float(np.median([_width(fit_affine(np.delete(uv, i, 0), np.delete(xy, i, 0)),
                                        grid.orientation) for i in range(len(ids))]))
        if apart[worst] > 0.15 * width:
            raise GridError(f"anchors contradict each other: anchor {ids[worst]} is"
                            f" {apart[worst]:.1f} px ({apart[worst] / width:.2f} hex) from where"
                            " the others put it; check its hex id and position")
    _plausible(m, grid.orientation)
    err = np.hypot(*(apply_homography(m, uv) - xy).T)
    return m, float(np.sqrt(np.mean(err ** 2)))


def _leave_one_out(uv: F64, xy: F64) -> F64:
    """Distance from each anchor to where an affine fit of the others puts its hex."""
    out = np.empty(len(uv))
    for i in range(len(uv)):
        others = np.arange(len(uv)) != i
        m = fit_affine(uv[others], xy[others])
        out[i] = float(np.hypot(*(apply_homography(m, uv[i: i + 1]) - xy[i: i + 1])[0]))
    return out


def _odd_one_out(uv: F64, xy: F64, apart: F64, orientation: Orientation) -> int:
    """The anchor the others disagree with most.

    Four anchors at the corners of a map put each other off by the same distance when one
    is wrong (an affine grid through any three places the fourth): the wrong one is then
    the one whose leaving out leaves the others a grid as printed (hexes of their shape,
    unsheared), where any three including it describe a squashed, sheared one.
    """
    close = np.nonzero(apart >= 0.8 * apart.max())[0]
    if len(close) == 1:
        return int(close[0])
    odd = [_irregularity(fit_affine(np.delete(uv, i, 0), np.delete(xy, i, 0)), orientation)
           for i in close]
    return int(close[int(np.argmin(odd))])


def _irregularity(m: F64, orientation: Orientation) -> float:
    """How far an affine grid is from a printed one: log of its aspect's error, plus shear."""
    aspect, shear = _shape(m, orientation)
    return abs(math.log(max(aspect, 1e-9))) + math.radians(shear)


def _shape(m: F64, orientation: Orientation) -> tuple[float, float]:
    """A grid's hex height over width against a regular hex's, and its shear in degrees."""
    cu, cv = m[:2, 0], m[:2, 1]
    aspect = float(np.hypot(*cv) / np.hypot(*cu)) / _ASPECT[orientation]
    cosine = float(cu @ cv) / (float(np.hypot(*cu)) * float(np.hypot(*cv)))
    return aspect, abs(90.0 - math.degrees(math.acos(max(-1.0, min(1.0, cosine)))))


def _distinct(ids: Sequence[str], uv: F64, xy: F64) -> None:
    for i in range(len(ids)):
        for j in range(i + 1, len(ids)):
            if np.allclose(uv[i], uv[j]):
                raise GridError(f"anchors {ids[i]} and {ids[j]} name the same hex")
            if np.hypot(*(xy[i] - xy[j])) < 1.0:
                raise GridError(f"anchors contradict each other: {ids[i]} and {ids[j]} are at"
                                " the same pixel")
    if len(ids) >= 3:
        a = np.column_stack([uv, np.ones(len(uv))])
        if np.linalg.matrix_rank(a, tol=1e-6) < 3:
            raise GridError("anchors all lie on one line of hexes; give one off that line")


def _similarity(uv: F64, xy: F64, orientation: Orientation) -> F64:
    """Scale, angle and shift through two points, hexes taken as regular."""
    sx, sy = (1.0, _ASPECT[orientation])
    w = (uv[:, 0] * sx) + 1j * (uv[:, 1] * sy)
    z = xy[:, 0] + 1j * xy[:, 1]
    a = (z[1] - z[0]) / (w[1] - w[0])
    b = z[0] - a * w[0]
    out = np.eye(3)
    out[:2, :2] = [[a.real * sx, -a.imag * sy], [a.imag * sx, a.real * sy]]
    out[:2, 2] = [b.real, b.imag]
    return out


def _width(m: F64, orientation: Orientation) -> float:
    column = m[:2, 1] if orientation is Orientation.FLAT else m[:2, 0]
    return float(np.hypot(*column))


def _plausible(m: F64, orientation: Orientation) -> None:
    """Refuse a fit no printed hex grid looks like (mirrored, sheared, squashed)."""
    cu, cv = m[:2, 0], m[:2, 1]
    det = float(cu[0] * cv[1] - cu[1] * cv[0])
    if det <= 0:
        raise GridError("anchors contradict each other: they describe a mirrored grid; "
                        "check their hex ids and positions")
    aspect, shear = _shape(m, orientation)
    if not 0.8 <= aspect <= 1.25 or shear > 10.0:
        raise GridError(f"anchors contradict each other: they describe hexes {aspect:.2f} times"
                        f" as tall as wide and sheared {shear:.0f} degrees; check their hex ids"
                        " and positions")
    if _width(m, orientation) < MIN_HEX_WIDTH:
        raise GridError(f"anchors describe hexes {_width(m, orientation):.1f} px wide, too small"
                        " to read; check their positions")


def _from_anchors(luma: Pyramid, spec: HexGrid | None, anchors: Mapping[str, Point],
                  size: tuple[int, int] | None,
                  lens_at: tuple[tuple[float, float], float]) -> GridFit:
    if spec is None:
        orientation = _orientation_or_flat(luma)
        words = {Orientation.FLAT: "even-down", Orientation.POINTY: "even-right"}
        spec_grid = HexGrid(orientation, Numbering(stagger=words[orientation]))
        if size is not None:
            spec_grid = HexGrid(orientation, spec_grid.numbering, *size)
        known = size is not None
    else:
        spec_grid, known = spec, True
        for hex_id in anchors:
            if spec.has_id(hex_id):
                continue
            spec.hex(hex_id)  # a malformed id says so
            raise GridError(f"anchor {hex_id} is not on the map ({spec.describe_extent()})")
    start, _ = fit_anchors(spec_grid, anchors)
    fit = _finish(luma, spec_grid if known else None, start, "anchors", frame=spec_grid,
                  seeds=[spec_grid.hex(i) for i in anchors], lens_at=lens_at)
    _agree(fit, anchors)
    return fit


def _orientation_or_flat(luma: Pyramid) -> Orientation:
    try:
        return _coarse_lattice(luma).orientation
    except GridError:
        return Orientation.FLAT


def _agree(fit: GridFit, anchors: Mapping[str, Point]) -> None:
    """Every anchor must sit on its hex of the refined grid."""
    width = fit.hex_width
    for hex_id, (x, y) in anchors.items():
        h = fit.grid.hex(hex_id)
        cx, cy = fit.centres([h])[0]
        if math.hypot(cx - x, cy - y) > 0.4 * width:
            raise GridError(f"anchor {hex_id} is {math.hypot(cx - x, cy - y):.0f} px from the"
                            f" centre of hex {hex_id} as printed on the scan; check its id and"
                            " position")


# -- automatic ----------------------------------------------------------------------


def _coarse_lattice(luma: Pyramid) -> Lattice:
    """Orientation, polarity and a first affine grid (pitch units -> scan pixels).

    The whole scan is looked at reduced to about 1,000 px; when its hexes come
    out too small to trust there (a big scan of a small-hex map), the middle
    of the scan is looked at more closely. The lattice's ``matrix`` and
    ``origin`` are returned in scan pixels.
    """
    factor = max(1.0, max(luma.shape) / _COARSE_SIDE)
    step = 0.0
    try:
        small, scale = luma.reduced(factor)
        lattice = find_printed_lattice(small, 7)
        step = float(min(np.hypot(*lattice.matrix.T)))
        if factor == 1.0 or step >= _TRUSTED_PITCH:
            return _in_scan(lattice, scale.matrix())
    except GridError:
        if factor == 1.0:
            raise
    return _middle_lattice(luma, step * factor)


def _in_scan(lattice: Lattice, to_scan: F64) -> Lattice:
    """A lattice found on a working image, its matrix and origin in scan pixels."""
    m = to_scan @ lattice.affine()
    return Lattice(lattice.orientation, m[:2, :2], m[:2, 2], lattice.strength, lattice.light)


def _middle_lattice(luma: Pyramid, step: float) -> Lattice:
    """The lattice in the middle of the scan, with its hexes at least twice the trusted size.

    ``step`` is the lattice step the whole scan suggested, in scan pixels (0
    if none). Big hexes are looked at halved, in a smaller window that still
    holds a dozen of them, which costs a quarter of a full-size look; if that
    finds no lattice, or a finer one than expected, the middle is looked at in full.
    """
    halvings = max(0, int(math.floor(math.log2(step / (2 * _TRUSTED_PITCH))))) if step else 0
    side = _COARSE_SIDE if halvings == 0 else _COARSE_SIDE // 2
    h, w = luma.shape[0] >> halvings, luma.shape[1] >> halvings
    y0, x0 = max(0, (h - side) // 2), max(0, (w - side) // 2)
    try:
        lattice = find_printed_lattice(luma.window(y0, x0, side, halvings), 7)
        trusted = min(np.hypot(*lattice.matrix.T)) >= _TRUSTED_PITCH
    except GridError:
        if halvings == 0:
            raise
        trusted = False
    if not trusted and halvings > 0:
        return _middle_lattice(luma, 0.0)
    shift = np.array([[1.0, 0.0, x0], [0.0, 1.0, y0], [0.0, 0.0, 1.0]])
    return _in_scan(lattice, Scale(2.0 ** halvings, 2.0 ** halvings).matrix() @ shift)


def _automatic(luma: Pyramid, spec: HexGrid | None, size: tuple[int, int] | None,
               lens_at: tuple[tuple[float, float], float]) -> GridFit:
    lattice = _coarse_lattice(luma)
    if spec is not None and spec.orientation is not lattice.orientation:
        raise GridError(f"the scan shows a {lattice.orientation.value}-top grid, but the grid"
                        f" file says {spec.orientation.value}-top")
    return _finish(luma, spec, lattice.affine(), "automatic", orientation=lattice.orientation,
                   light=lattice.light, size=size, lens_at=lens_at)


# -- refinement and framing ---------------------------------------------------------


def _layout_matrix(grid: HexGrid) -> F64:
    layout = grid.layout
    assert layout is not None
    a, b, c, d = layout.matrix
    return np.array([[a, b, layout.x0], [c, d, layout.y0], [0.0, 0.0, 1.0]])


def _finish(luma: Pyramid, spec: HexGrid | None, start: F64, method: str, *,
            frame: HexGrid | None = None, orientation: Orientation | None = None,
            light: bool | None = None, size: tuple[int, int] | None = None,
            seeds: Sequence[Hex] = (),
            lens_at: tuple[tuple[float, float], float] | None = None) -> GridFit:
    """Refine ``start`` (pitch units -> scan pixels) on the image and frame the map's hexes.

    ``frame`` is a grid whose numbering the start already uses (anchors name
    ids, ``seeds`` their hexes); without it the start's axial frame is
    provisional and re-based on the hexes found. ``light`` says the grid is
    printed light on dark; ``None`` reads it off the image.
    """
    if orientation is None:
        known_grid = spec or frame
        assert known_grid is not None  # only the automatic path has neither, and gives one
        orientation = known_grid.orientation
    width = _width(start, orientation)
    if width < MIN_HEX_WIDTH:
        raise ImageError(None, f"the hexes on the scan are {width:.1f} px wide, too small to read"
                         f" (need at least {MIN_HEX_WIDTH:.0f} px); scan at a higher resolution")
    small, scale = luma.reduced(width / _WORK_HEX)
    to_work = np.linalg.inv(scale.matrix())
    kernel = max(5, int(0.16 * width / scale.fx) | 1)
    h_work = to_work @ start
    if light is None:
        light = _printed_light(small, kernel, orientation, h_work)
    ink = ink_map(small, kernel, light=light)
    if method == "layout":
        # A layout from elsewhere (another scan of the map) may be off by more than
        # refinement reaches: put its hexes on the printed lattice first.
        h_work = _snap_phase(ink, h_work, orientation)
    # The map's hexes are known when the grid is given and anchored or laid out.
    known = spec is not None and (frame is not None or spec.layout is not None)
    candidates = (spec.hexes() if spec is not None and known
                  else _candidates(h_work, orientation, small.shape))
    uv = hex_units(candidates, orientation)
    start_p = Projection(scale.matrix() @ h_work)
    # Anchors are where the start is surely right: the fit grows from them.
    refined = refine(ink, orientation, uv, start_p, scale, width / scale.fx, lens_at=lens_at,
                     seeds=hex_units(seeds, orientation) if seeds else None)
    if refined is None:
        if method == "automatic":
            raise GridError("no hex outlines found on the scan; give anchors"
                            " (--anchor 0101=x,y) or a grid file (--grid)")
        residual, support, p = math.nan, 0, start_p
    else:
        p = refined.projection
        residual, support = refined.residual, int(refined.measured.sum())
        method += " + refined"
    if spec is not None and known:
        grid = spec
        origin = (_best_shift(ink, on_work(p, scale), spec) if method.startswith("layout")
                  else Hex(0, 0))
    else:
        grid, origin = _frame(ink, on_work(p, scale), candidates, orientation, spec, frame,
                              refined.measured if refined is not None else None, size, seeds)
    if refined is not None:
        # The map's own hexes only: a key, a track or a margin must not pull the fit.
        mine = np.array([(h.q + origin.q, h.r + origin.r) for h in grid.hexes()], np.int64)
        use = among(np.array([(h.q, h.r) for h in candidates], np.int64), mine)
        refined = refit(refined, use, uv, lens_at=lens_at)
        p, residual = refined.projection, refined.residual
        support = int(refined.measured.sum())
    p = p.moved(*hex_units([origin], orientation)[0])
    fitted = with_layout(grid, layout_from_projection(grid, p))
    # Said in map.json's notes: its affine layout does not hold a lens or a bend.
    method += (f" + lens (k1 {p.lens.k1:+.4f})" if p.lens is not None else "") + (
        " + bend" if p.bend is not None else "")
    fit = GridFit(fitted, p.homography, residual, support, method, p.lens, p.bend)
    _inside(fit, luma.shape)
    return fit


def _printed_light(small: NDArray[np.uint8], kernel: int, orientation: Orientation,
                   h_work: F64) -> bool:
    """Whether the grid a start puts on the image is printed light (a white grid).

    Read in the middle of the image, about ten hexes across, where a start that is
    a little off in pitch or angle (a layout from another scan) still folds sharply.
    """
    side = int(_POLARITY_HEXES * _width(h_work, orientation))
    h, w = small.shape
    y0, x0 = max(0, (h - side) // 2), max(0, (w - side) // 2)
    middle = np.ascontiguousarray(small[y0: y0 + side, x0: x0 + side])
    scores = [outline_match(ink_map(middle, kernel, light=light), orientation, h_work[:2, :2])
              for light in (False, True)]
    return scores[1] > scores[0]


def _snap_phase(ink: F32, h_work: F64, orientation: Orientation) -> F64:
    """Move a grid so that its hexes sit on the printed lattice (by less than a hex)."""
    centre = fold_origin(ink, orientation, h_work[:2, :2])
    uv = apply_homography(np.linalg.inv(h_work), centre[None, :])[0]
    q, r = (uv[0], uv[1] - uv[0] / 2) if orientation is Orientation.FLAT else (
        uv[0] - uv[1] / 2, uv[1])
    dq, dr = q - round(q), r - round(r)
    du, dv = (dq, dr + dq / 2) if orientation is Orientation.FLAT else (dq + dr / 2, dr)
    shift = np.array([[1.0, 0.0, du], [0.0, 1.0, dv], [0.0, 0.0, 1.0]])
    out: F64 = h_work @ shift
    return out


def _best_shift(ink: F32, to_work: Callable[[F64], F64], spec: HexGrid) -> Hex:
    """The whole-hex shift (up to two hexes) under which the most of the map's hexes are printed.

    A layout off by a hex or more still fits the printed lattice, one hex over;
    the map's own outline tells which way.
    """
    hexes = spec.hexes()
    # Nearest shifts first, so a tie (a map cut from a larger sheet) keeps the layout.
    shifts = sorted((Hex(dq, dr) for dq in range(-2, 3) for dr in range(-2, 3)
                     if abs(dq + dr) <= 2), key=lambda s: distance(s, Hex(0, 0)))
    best, best_count = Hex(0, 0), -1
    for s in shifts:
        moved = [Hex(h.q + s.q, h.r + s.r) for h in hexes]
        scores = side_scores(ink, to_work, moved, spec.orientation)
        count = int(present_hexes(scores, float(np.quantile(scores, 0.9))).sum())
        if count > best_count:
            best, best_count = s, count
    return best


def _candidates(h_work: F64, orientation: Orientation, shape: tuple[int, ...]) -> list[Hex]:
    """Lattice hexes whose centre lies on the image."""
    height, width = shape[:2]
    inv = np.linalg.inv(h_work)
    corners = np.array([[0, 0], [width, 0], [0, height], [width, height]], float)
    uv = apply_homography(inv, corners)
    if orientation is Orientation.FLAT:
        q, r = uv[:, 0], uv[:, 1] - uv[:, 0] / 2
    else:
        q, r = uv[:, 0] - uv[:, 1] / 2, uv[:, 1]
    s = -q - r
    out = []
    for qq in range(int(np.floor(q.min())) - 1, int(np.ceil(q.max())) + 2):
        for rr in range(int(np.floor(r.min())) - 1, int(np.ceil(r.max())) + 2):
            if s.min() - 1 <= -qq - rr <= s.max() + 1:
                out.append(Hex(qq, rr))
    xy = apply_homography(h_work, hex_units(out, orientation))
    keep = (xy[:, 0] >= 0) & (xy[:, 0] < width) & (xy[:, 1] >= 0) & (xy[:, 1] < height)
    return [h for h, k in zip(out, keep, strict=True) if k]


def _frame(ink: F32, to_work: Callable[[F64], F64], candidates: list[Hex],
           orientation: Orientation, spec: HexGrid | None, frame: HexGrid | None,
           measured: NDArray[np.bool_] | None, size: tuple[int, int] | None,
           seeds: Sequence[Hex]) -> tuple[HexGrid, Hex]:
    """The map's grid and the candidate hex that is its top-left (lattice 0, 0)."""
    scores = side_scores(ink, to_work, candidates, orientation)
    reference_rows = scores[measured] if measured is not None and measured.any() else scores
    reference = float(np.median(reference_rows))
    if frame is None and (spec is not None or size is not None):
        return _placed(candidates, inked_share(scores, reference), orientation, spec, size)
    present = present_hexes(scores, reference)
    if frame is None:
        return frame_hexes(connected_field(candidates, present), orientation)
    # Anchors fixed the numbering: the map runs from column 0, row 0 over the anchors
    # and the printed hexes joined to them (a key or a track drawn apart is not the
    # map; an anchored corner hex cut by the frame is).
    near = [Hex(h.q + dq, h.r + dr) for h in seeds for dq, dr in _AROUND]
    found = connected_field(candidates, present, near)
    offsets = [frame.offset(h) for h in [*found, *seeds]]
    cols = max(c for c, _ in offsets) + 1
    rows = max(r for _, r in offsets) + 1
    # A stray hex or two before the first line (a notch outlined by the border) is
    # not the map; a line of them says the anchors' ids are off.
    before_col = sum(1 for c, _ in offsets if c < 0)
    before_row = sum(1 for _, r in offsets if r < 0)
    if before_col > rows // 2 or before_row > cols // 2:
        raise GridError("hexes are printed before the first column or row the anchors imply;"
                        " check the anchors' ids, or give the grid (--grid)")
    return HexGrid(orientation, frame.numbering, cols, rows), Hex(0, 0)


def _placed(candidates: list[Hex], share: F64, orientation: Orientation,
            spec: HexGrid | None, size: tuple[int, int] | None) -> tuple[HexGrid, Hex]:
    """The grid of known size placed where it fits the printed lattice best."""
    if spec is not None:
        grid = HexGrid(orientation, spec.numbering, spec.cols, spec.rows, spec.exclude)
        return grid, place_grid(candidates, share, grid)
    assert size is not None
    # Only the size is known: each stagger is placed, and the better one kept.
    tried: list[tuple[float, HexGrid, Hex]] = []
    errors: list[GridError] = []
    for word in _STAGGERS[orientation]:
        grid = HexGrid(orientation, Numbering(stagger=word), *size)
        try:
            origin = place_grid(candidates, share, grid, given="--cols/--rows say")
        except GridError as exc:
            errors.append(exc)
            continue
        tried.append((_placement_score(candidates, share, grid, origin), grid, origin))
    if not tried:
        raise errors[-1]
    _, grid, origin = max(tried, key=lambda t: t[0])
    return grid, origin


def _placement_score(candidates: list[Hex], share: F64, grid: HexGrid, origin: Hex) -> float:
    lookup: dict[Hex, float] = dict(zip(candidates, share.tolist(), strict=True))
    return float(sum(lookup.get(Hex(h.q + origin.q, h.r + origin.r), 0.0) - 0.5
                     for h in grid.hexes()))


def _inside(fit: GridFit, shape: tuple[int, ...]) -> None:
    height, width = shape[:2]
    xy = fit.centres()
    out = (xy[:, 0] < 0) | (xy[:, 0] >= width) | (xy[:, 1] < 0) | (xy[:, 1] >= height)
    if out.any():
        hexes = [h for h, o in zip(fit.grid.hexes(), out, strict=True) if o]
        names = ", ".join(fit.grid.ids(hexes[:3])) + (" ..." if len(hexes) > 3 else "")
        raise GridError(f"{len(hexes)} hexes of the grid lie outside the scan ({names}); check"
                        " the grid's size and the anchors")

