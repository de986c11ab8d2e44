"""Hex symbols (towns, cities, fortifications) learned from one or two example hexes.

A builder names a hex that shows the symbol (``--symbol town=0412``); the
symbol is what that hex shows near its centre besides its ground and the
lines the legend knows (the road through a town is no part of it), in the
colours the scan shows it in. Every hex is then compared with it:

* the **template** is the example's patch round its centre, in Lab (light
  corrected, any halftone screen smoothed away), with a mask of the symbol's
  own pixels: those unlike the hex's ground and joined to the centre (a name
  printed beside the symbol is a separate blot). With two examples, the
  pixels both show are kept (the road through one town is not the other's);
* each hex is scored by how well its lightness, somewhere within a few
  pixels of its centre, correlates with the template's over the symbol and
  the ground just round it (normalised, so a symbol in a shadow or on another
  region's colour scores as well), where at least half the symbol's pixels
  are its colours too;
* symbols are few and alike, so their scores stand well above every other
  hex's: the hexes above the widest gap among the best scores show it (a
  name, a realm label, a counter of another shape scores low, whatever its
  colour).

Text (names, realm labels) and counters of other colours or shapes do not
match a symbol's ink in place, whatever their colour.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.colours import to_lab
from pipeline.digitize.gridfit import GridFit, hex_units
from pipeline.digitize.hexcolours import HexColours
from pipeline.digitize.light import Light
from pipeline.digitize.scanfile import read_pixels
from pipeline.digitize.screen import descreen, screen_period
from pipeline.errors import DataError
from pipeline.hexgrid import Hex

__all__ = ["SHOWS", "SymbolTemplate", "cover_symbols", "find_symbols", "learn_symbol",
           "read_symbols", "symbol_scores"]

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
B = NDArray[np.bool_]
Lab = Callable[[F64], F32]

SHOWS = 0.7  # correlation from which a hex shows a symbol, when its scores do not say
_MATCH = 30.0  # Lab distance under which a pixel is the symbol's colour
_SAME = 0.5  # share of the symbol's pixels that must be its colours
_TOP = 50  # best scores among which the gap is looked for
_GAP = 0.1  # least gap between the symbols' scores and the others'
_FLOOR = 0.5  # least correlation a symbol shows
_RADIUS = 0.24  # half the side of the patch a symbol is read in, in hex widths
_SEARCH = 0.08  # how far from the centre a symbol may sit, in hex widths
_CORE = 0.06  # the symbol covers a point this close to the centre, in hex widths
_SIZE = 0.16  # and reaches no further from it, in hex widths
_UNLIKE = 15.0  # Lab distance from the ground from which a pixel is the symbol's
_LEAST = 6  # pixels a symbol needs
_LINE = 8.0  # Lab distance under which a pixel is its ground and some of a known line
_MOSTLY = 0.8  # share of an example's pixels that, a known line's, make it no symbol
_STROKE = 0.15  # hex widths under which a mask's strokes are a line's
_LONG = 2.0  # times its stroke's width a line's mask is long, at least (a dot is not)
_HOLE = 3  # points a mask must enclose to be a ring, not a line


@dataclass(frozen=True)
class SymbolTemplate:
    """What a hex symbol looks like on this scan.

    Attributes
    ----------
    name
        The hex feature it stands for (``town``).
    lab
        The patch round the example's centre, Lab ``(k, k, 3)``.
    mask
        ``(k, k)``: the symbol's own pixels.
    step
        Pixels between neighbouring patch points.
    ground
        The example's ground colour, Lab ``(3,)``.
    """

    name: str
    lab: F32
    mask: B
    step: float
    ground: F32


def read_symbols(image: NDArray[np.uint8], fit: GridFit, light: Light,
                 examples: Mapping[str, Sequence[str]], source: str | None = None,
                 lines: F32 | None = None) -> dict[Hex, tuple[str, ...]]:
    """The hex symbols of ``examples`` (feature name -> example hex ids) on a scan.

    Parameters
    ----------
    image, fit, light
        The scan, its grid and the light it is read under.
    examples
        Hex feature name -> one or two hexes that show it (``{"town": ["0412"]}``).
    source
        The scan's name, for messages.
    lines
        The colours of the lines the legend knows, Lab ``(k, 3)``: an example
        that shows only one of them (a road through an empty hex) is refused.

    Returns
    -------
    dict
        Hex -> the names of the symbols it shows (hexes with none left out).

    Examples
    --------
    >>> from pipeline.digitize.gridfit import fit_centres
    >>> from pipeline.hexgrid import HexGrid, Orientation
    >>> from pipeline.digitize.light import Light
    >>> grid = HexGrid(Orientation.FLAT, cols=4, rows=3)
    >>> uv = hex_units(grid.hexes(), grid.orientation)
    >>> fit = fit_centres(grid, {grid.id(h): (40 + 24 * u, 40 + 24 * v)
    ...                          for h, (u, v) in zip(grid.hexes(), uv)})
    >>> img = np.full((220, 200, 3), 235, np.uint8)
    >>> for hex_id in ("0102", "0302", "0401"):
    ...     x, y = (int(round(v)) for v in fit.centres([grid.hex(hex_id)])[0])
    ...     _ = cv2.rectangle(img, (x - 4, y - 4), (x + 4, y + 4), (20, 20, 20), -1)
    >>> found = read_symbols(img, fit, Light.flat(200, 220), {"town": ["0102"]})
    >>> sorted(grid.id(h) for h in found)
    ['0102', '0302', '0401']
    """
    if not examples:
        return {}
    screened = descreen(image, screen_period(image, fit))

    def lab(xy: F64) -> F32:
        rows = xy.reshape(len(xy), -1, 2)
        gain = light.gain(rows[:, 0, 0], rows[:, 0, 1]).astype(np.float32)
        rgb = read_pixels(screened, rows).astype(np.float32) / gain[:, None, :]
        out: F32 = to_lab(rgb.reshape(-1, 3)).reshape(*xy.shape[:-1], 3)
        return out

    grounds = HexColours(lab, fit).grounds()
    templates = [learn_symbol(lab, fit, name, ids, grounds, source, lines)
                 for name, ids in sorted(examples.items())]
    return find_symbols(lab, fit, templates)


def learn_symbol(lab: Lab, fit: GridFit, name: str, hex_ids: Sequence[str],
                 grounds: Mapping[Hex, F32], source: str | None = None,
                 lines: F32 | None = None) -> SymbolTemplate:
    """The symbol ``name`` as its example hexes ``hex_ids`` show it.

    Parameters
    ----------
    lab
        Light-corrected Lab colours of scan positions ``(n, k, 2)``.
    fit
        The grid on the scan.
    name
        The hex feature the symbol stands for.
    hex_ids
        One or two hexes that show it (as printed).
    grounds
        Each hex's ground colour, Lab.
    source
        The scan's name, for messages.
    lines
        The known lines' colours, Lab ``(k, 3)``, if any.

    Raises
    ------
    DataError
        When an example hex is not on the map, or shows nothing but its ground
        near its centre, or only a line the legend knows (drawn out, in a
        line's colours).
    """
    if not hex_ids:
        raise DataError(source, "--symbol", f"give a hex that shows a {name}"
                        f" (--symbol {name}=HEX)")
    offsets, step = _grid(fit, _RADIUS)
    side = int(round(np.sqrt(len(offsets))))
    dist = np.hypot(*np.meshgrid(np.arange(side) - side // 2, np.arange(side) - side // 2)) * step
    centre = dist <= _CORE * fit.hex_width
    # A symbol is compact: what runs on from it (the road through a town, the
    # town's block of a city) is cut at this distance.
    near = dist <= _SIZE * fit.hex_width
    patches: list[F32] = []
    masks: list[B] = []
    seen: list[F32] = []
    for hex_id in hex_ids:
        if not fit.grid.has_id(hex_id):
            raise DataError(source, f"--symbol {name}={hex_id}", f"hex '{hex_id}' is not on"
                            f" the map ({fit.grid.describe_extent()})")
        h = fit.grid.hex(hex_id)
        xy = fit.to_pixel(hex_units([h], fit.grid.orientation))[0]
        patch = lab((xy + offsets)[None])[0].reshape(side, side, 3)
        ground = grounds.get(h, np.median(patch.reshape(-1, 3), axis=0))
        mask = _own(patch, ground, centre) & near
        if int(mask.sum()) < _LEAST:
            raise DataError(source, f"--symbol {name}={hex_id}", f"hex {hex_id} shows nothing"
                            " but its ground near its centre: name a hex where the"
                            f" {name} is printed")
        if lines is not None and len(lines) and _lines_only(patch[mask], ground, lines) \
                and _thin(mask, _STROKE * fit.hex_width / step):
            raise DataError(source, f"--symbol {name}={hex_id}", f"hex {hex_id} shows only"
                            " lines the legend knows (a road) near its centre: name a hex"
                            f" where the {name} is printed")
        if patches:
            # The symbol need not sit at the same place in every hex: the later
            # examples are shifted onto the first.
            dy, dx = _shift(masks[0], mask)
            patch, mask = np.roll(patch, (dy, dx), axis=(0, 1)), np.roll(mask, (dy, dx), (0, 1))
        patches.append(patch)
        masks.append(mask)
        seen.append(ground)
    mask = np.logical_and.reduce(masks) if len(masks) > 1 else masks[0]
    if int(mask.sum()) < _LEAST:
        mask = masks[0]
    template = np.mean(patches, axis=0).astype(np.float32)
    return SymbolTemplate(name, template, mask, step, np.mean(seen, axis=0).astype(np.float32))


def cover_symbols(image: NDArray[np.uint8], fit: GridFit, hexes: Sequence[Hex]
                  ) -> NDArray[np.uint8]:
    """The scan with the symbols of ``hexes`` painted over from the ground round them.

    A hex's terrain is what lies under its symbol: a town's castle over clear ground is
    clear. The symbol's pixels are found as :func:`learn_symbol` finds an example's
    (unlike the hex's ground, joined to its centre) and filled in from round
    them (OpenCV's inpainting). ``image`` itself is left alone; with no ``hexes`` it is
    returned as it is.

    Examples
    --------
    >>> from pipeline.digitize.gridfit import fit_centres
    >>> from pipeline.hexgrid import HexGrid, Orientation
    >>> grid = HexGrid(Orientation.FLAT, cols=2, rows=2)
    >>> uv = hex_units(grid.hexes(), grid.orientation)
    >>> fit = fit_centres(grid, {grid.id(h): (40 + 24 * u, 40 + 24 * v)
    ...                          for h, (u, v) in zip(grid.hexes(), uv)})
    >>> img = np.full((140, 120, 3), 200, np.uint8)
    >>> x, y = (int(round(v)) for v in fit.centres([grid.hex("0101")])[0])
    >>> _ = cv2.rectangle(img, (x - 2, y - 2), (x + 2, y + 2), (20, 20, 20), -1)
    >>> covered = cover_symbols(img, fit, [grid.hex("0101")])
    >>> int(img[y, x, 0]), bool(covered[y - 2:y + 3, x - 2:x + 3, 0].min() >= 195)
    (20, True)
    """
    if not hexes:
        return image
    out = image.copy()
    height, width = image.shape[:2]
    hex_width = fit.hex_width
    reach = int(np.ceil(_RADIUS * hex_width)) + 2
    for x, y in fit.centres(list(hexes)):
        cx, cy = int(round(x)), int(round(y))
        x0, y0 = max(cx - reach, 0), max(cy - reach, 0)
        x1, y1 = min(cx + reach + 1, width), min(cy + reach + 1, height)
        if x1 <= x0 or y1 <= y0:
            continue
        window = out[y0:y1, x0:x1]
        lab = to_lab(window.reshape(-1, 3).astype(np.float32)).reshape(*window.shape[:2], 3)
        yy, xx = np.mgrid[y0:y1, x0:x1]
        dist = np.hypot(xx - x, yy - y)
        ground = np.median(lab.reshape(-1, 3), axis=0)
        # All of it, reaching out as far as a patch it is read in (a keep's pennant); what
        # runs on beyond (a road) is no terrain either.
        mask = _own(lab, ground, dist <= _CORE * hex_width) & (dist <= _RADIUS * hex_width)
        if int(mask.sum()) < _LEAST:
            continue
        grown = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8),
                           iterations=max(1, int(round(0.02 * hex_width))))
        out[y0:y1, x0:x1] = cv2.inpaint(np.ascontiguousarray(window), grown, 3,
                                        cv2.INPAINT_TELEA)
    return out


def find_symbols(lab: Lab, fit: GridFit, templates: Sequence[SymbolTemplate]
                 ) -> dict[Hex, tuple[str, ...]]:
    """Hex -> the symbols it shows (hexes with none are left out).

    ``lab`` is as for :func:`learn_symbol`.
    """
    hexes = fit.grid.hexes()
    out: dict[Hex, set[str]] = {}
    if not templates or not hexes:
        return {}
    centres = fit.to_pixel(hex_units(hexes, fit.grid.orientation))
    for t in templates:
        score = symbol_scores(lab, fit, t, centres)
        for i in np.nonzero(score >= _split(score))[0]:
            out.setdefault(hexes[int(i)], set()).add(t.name)
    return {h: tuple(sorted(v)) for h, v in sorted(out.items())}


def symbol_scores(lab: Lab, fit: GridFit, template: SymbolTemplate, centres: F64) -> F64:
    """How well each hex (its centre ``(n, 2)`` in pixels) shows the symbol, -1 to 1.

    The best normalised correlation, within a few pixels of the centre, of the
    hex's lightness with the template's over the symbol and the ground just
    round it (its shape, however the light and the ground colour differ),
    where most of the symbol's pixels are its colours too.
    """
    t = template
    k = t.mask.shape[0]
    reach = int(np.ceil(_SEARCH * fit.hex_width / t.step))
    offsets, _ = _grid(fit, _RADIUS, size=k + 2 * reach, step=t.step)
    window = lab(centres[:, None, :] + offsets[None, :, :])
    window = window.reshape(len(centres), k + 2 * reach, k + 2 * reach, 3)
    around = cv2.dilate(t.mask.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(np.float32)
    light = np.ascontiguousarray(t.lab[..., 0])
    ink = t.lab[t.mask]
    out = np.full(len(centres), -1.0)
    for i in range(len(centres)):
        score = cv2.matchTemplate(np.ascontiguousarray(window[i, ..., 0]), light,
                                  cv2.TM_CCOEFF_NORMED, mask=around)
        score = np.nan_to_num(score, nan=-1.0, posinf=-1.0, neginf=-1.0)
        y, x = np.unravel_index(int(np.argmax(score)), score.shape)
        sub = window[i, y: y + k, x: x + k][t.mask]
        if float((np.linalg.norm(sub - ink, axis=-1) <= _MATCH).mean()) >= _SAME:
            out[i] = float(score[y, x])
    return out


def _split(score: F64) -> float:
    """The score from which a hex shows a symbol: at the widest gap among the best scores.

    Symbols are few: the best scores are theirs, well above those of every
    other hex; the gap must be clear (:data:`_GAP`), else :data:`SHOWS` decides.
    """
    top = np.sort(score)[::-1][: max(_TOP, len(score) // 20)]
    top = top[top > 0]
    if len(top) >= 2:
        gaps = top[:-1] - top[1:]
        k = int(np.argmax(gaps))
        if gaps[k] >= _GAP:
            return float(max((top[k] + top[k + 1]) / 2, _FLOOR))
    return SHOWS


def _lines_only(pixels: F32, ground: F32, lines: F32) -> bool:
    """Whether most of a symbol's pixels are the ground with some of a known line."""
    d = lines[None, :, :] - ground
    v = (pixels - ground)[:, None, :]
    a = np.clip((v * d).sum(-1) / np.maximum((d * d).sum(-1), 1e-6), 0.0, 1.2)
    resid = np.linalg.norm(v - a[..., None] * d, axis=-1).min(axis=1)
    return bool((resid <= _LINE).mean() >= _MOSTLY)


def _thin(mask: B, width: float) -> bool:
    """Whether a mask is drawn like a line: strokes under ``width`` pixels, enclosing nothing,
    and longer than wide.

    A road through the centre, straight or bent there, is; a solid keep or
    square is thicker, a ring encloses its middle, and a dot (a small town's
    mark in a road's colour) is about as long as it is wide.

    >>> dot = np.zeros((21, 21), bool)
    >>> dot[9:13, 9:13] = True
    >>> road = np.zeros((21, 21), bool)
    >>> road[9:12, 2:19] = True
    >>> _thin(dot, 6.0), _thin(road, 6.0)
    (False, True)
    """
    shape = mask.astype(np.uint8)
    # A stroke of width w has its points at w/4 from its edge, typically.
    stroke = float(np.median(cv2.distanceTransform(shape, cv2.DIST_L2, 3)[mask])) * 4
    if stroke > width:
        return False
    ys, xs = np.nonzero(mask)
    _, sides, _ = cv2.minAreaRect(np.stack([xs, ys], axis=1).astype(np.float32))
    if max(sides) < _LONG * max(stroke, 1.0):
        return False
    outside = np.pad(1 - shape, 1, constant_values=1)
    cv2.floodFill(outside, None, (0, 0), 2)
    return int((outside[1:-1, 1:-1] == 1).sum()) < _HOLE


def _own(patch: F32, ground: F32, centre: B) -> B:
    """The pixels of a patch that are its symbol: unlike the ground and joined to the centre."""
    unlike = np.linalg.norm(patch - ground, axis=-1) >= _UNLIKE
    _count, parts = cv2.connectedComponents(unlike.astype(np.uint8), connectivity=8)
    keep = np.unique(parts[centre & unlike])
    out: B = np.isin(parts, keep[keep > 0])
    return out


def _shift(first: B, other: B, reach: int = 4) -> tuple[int, int]:
    """The shift ``(dy, dx)``, a few points at most, that lays mask ``other`` best over
    ``first``."""
    best, out = -1, (0, 0)
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            overlap = int((first & np.roll(other, (dy, dx), axis=(0, 1))).sum())
            if overlap > best:
                best, out = overlap, (dy, dx)
    return out


def _grid(fit: GridFit, radius: float, size: int | None = None, step: float | None = None
          ) -> tuple[F64, float]:
    """Pixel offsets of a square patch round a centre, ``(k * k, 2)``, and their spacing.

    About a pixel apart (at least a fortieth of a hex), ``radius`` hex widths
    either side, or ``size`` points a side at ``step`` pixels.
    """
    if step is None:
        step = max(1.0, fit.hex_width / 40)
    if size is None:
        size = 2 * int(np.ceil(radius * fit.hex_width / step)) + 1
    r = (np.arange(size) - size // 2) * step
    xs, ys = np.meshgrid(r, r)
    out: F64 = np.stack([xs.ravel(), ys.ravel()], axis=1)
    return out, step
