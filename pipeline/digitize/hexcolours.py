"""What each hex prints: its ground, and the texture colours it shows besides, off the scan.

Both are read inside the hex towards its corners (away from the paths to
the neighbouring centres, where roads run, and from the hexsides, where
rivers and bars do), on the scan as the line reader sees it (light corrected,
any screen smoothed away), so they need no terrain named right.

* The **ground** is the median colour there: the colour lines in the hex are
  read against (see :mod:`~pipeline.digitize.linereader`).
* A textured terrain is its ground and a few other colours: a fortified line's
  red dots, a city's grey blocks, a bocage's dark hedgerows, the water-lines
  of a sea along its coast. Those colours are no line, however close they lie
  to a hexside. They are found the way a person sees them: the map's colours
  are clustered once (k-means in Lab); a cluster is one of a hex's **texture
  colours** when it covers :data:`SHARE` of the hex's points or more, differs
  from the hex's main colour, and is not a line blended with it (a road
  crossing a hex, for all the care taken, may still cross a corner).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.gridfit import GridFit, hex_units
from pipeline.hexgrid import Hex
from pipeline.hexgrid.coords import direction_vectors

__all__ = ["SHARE", "HexColours"]

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]

SHARE = 0.06  # least share of a terrain's interior points a texture colour covers
_CLUSTERS = 12
_POINTS = 20_000  # points the map's colours are clustered from
_RADIUS = 0.34  # points lie within this distance of a hex centre, in hex widths
_HUB = 0.1  # and beyond this one (a town's symbol, where roads meet)
_WEDGE = 15.0  # and within this many degrees of the way to a corner
_APART = 12.0  # Lab distance from the fill a texture colour keeps
_BLEND = 8.0  # Lab distance under which a colour is a line blended with the fill
_LEAST_LINE = 0.1  # share of a line in a blend that makes it the line's
_SEED = 7


class HexColours:
    """The colours read inside every hex of a fitted grid.

    Parameters
    ----------
    lab
        Light-corrected Lab colours of scan positions ``(n, k, 2)``
        (:meth:`~pipeline.digitize.linereader.LineReader.lab`).
    fit
        The grid on the scan.
    """

    def __init__(self, lab: Callable[[F64], F32], fit: GridFit) -> None:
        self.hexes = fit.grid.hexes()
        offsets = _disc(fit)
        centres = fit.to_pixel(hex_units(self.hexes, fit.grid.orientation))
        self.colours: F32 = lab(centres[:, None, :] + offsets[None, :, :]) if self.hexes else \
            np.empty((0, len(offsets), 3), np.float32)

    def grounds(self) -> dict[Hex, F32]:
        """Hex -> its ground colour, Lab ``(3,)``."""
        median = np.median(self.colours, axis=1).astype(np.float32)
        return dict(zip(self.hexes, median, strict=True))

    def textures(self, lines: F32) -> dict[Hex, F32]:
        """Hex -> its texture colours, Lab ``(k, 3)`` (hexes with a plain fill left out).

        ``lines`` are the colours of every hexside feature, Lab ``(k, 3)``
        (as they look blurred): a cluster that is one of them blended with a
        hex's main colour is no texture.
        """
        if not self.hexes:
            return {}
        n, m = self.colours.shape[:2]
        colours = self.colours.reshape(-1, 3)
        rng = np.random.default_rng(_SEED)
        some = colours[rng.choice(len(colours), min(_POINTS, len(colours)), replace=False)]
        k = min(_CLUSTERS, len(some))
        cv2.setRNGSeed(_SEED)
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
        start = np.zeros((len(some), 1), np.int32)  # not read: the centres start k-means++
        _, _, found = cv2.kmeans(np.ascontiguousarray(some, np.float32), k, start, criteria, 2,
                                 cv2.KMEANS_PP_CENTERS)
        centre: F32 = np.asarray(found, np.float32)
        # Nearest centre by |c|^2 - 2 x.c (|x|^2 is the same for every centre).
        d2 = (centre * centre).sum(axis=1)[None, :] - 2.0 * (colours @ centre.T)
        label = d2.argmin(axis=1).reshape(n, m)
        rows = np.repeat(np.arange(n), m)
        share = np.bincount(rows * k + label.ravel(), minlength=n * k).reshape(n, k) / m
        main = share.argmax(axis=1)
        own = (share >= SHARE) & _texture_of(centre, np.asarray(lines, np.float32))[main]
        out: dict[Hex, F32] = {}
        for i in np.nonzero(own.any(axis=1))[0]:
            out[self.hexes[int(i)]] = np.asarray(centre[own[i]], np.float32)
        return out


def _texture_of(centre: F32, lines: F32) -> NDArray[np.bool_]:
    """``(k, k)``: whether colour j can be a texture of a hex whose main colour is i.

    Not when it is the main colour, nor a line over it: the colour a line
    blurred into the fill takes (a road through the hex) is on the way from the
    fill to the line.
    """
    apart = np.linalg.norm(centre[:, None] - centre[None], axis=-1) >= _APART
    for line in lines:
        d = line[None, :] - centre  # (k, 3): from each main colour to the line
        v = centre[None, :, :] - centre[:, None, :]  # (i, j, 3): from main i to colour j
        a = np.clip((v * d[:, None, :]).sum(-1) / np.maximum((d * d).sum(-1), 1e-6)[:, None],
                    0.0, 1.0)
        resid = np.linalg.norm(v - a[..., None] * d[:, None, :], axis=-1)
        apart &= ~((resid < _BLEND) & (a >= _LEAST_LINE))
    out: NDArray[np.bool_] = apart
    return out


def _disc(fit: GridFit) -> F64:
    """Pixel offsets round a hex centre where its texture is read, ``(k, 2)``.

    Inside the disc of :data:`_RADIUS` hex widths, beyond :data:`_HUB`, and
    towards the hex's corners only (within :data:`_WEDGE` degrees of the
    directions between neighbouring centres): roads and railroads run from
    centre to centre, and the middles of hexsides, where they cross, lie the
    other way.
    """
    r = _RADIUS * fit.hex_width
    step = max(1.0, r / 8)
    ys, xs = np.mgrid[-r:r + step / 2:step, -r:r + step / 2:step]
    points = np.stack([xs.ravel(), ys.ravel()], axis=1)
    dist = np.hypot(points[:, 0], points[:, 1])
    keep = (dist <= r) & (dist >= _HUB * fit.hex_width)
    grid = fit.grid
    home = grid.hexes()[0]
    steps = np.array(direction_vectors(grid.orientation), float)
    spokes = fit.to_pixel(hex_units([home], grid.orientation) + hex_units(
        [Hex(home.q + int(q), home.r + int(v)) for q, v in steps], grid.orientation)
        - hex_units([home], grid.orientation)) - fit.to_pixel(hex_units([home], grid.orientation))
    spokes /= np.linalg.norm(spokes, axis=1)[:, None]
    corners = spokes + np.roll(spokes, 1, axis=0)
    corners /= np.linalg.norm(corners, axis=1)[:, None]
    unit = points / np.maximum(dist, 1e-9)[:, None]
    towards = (unit @ corners.T).max(axis=1) >= np.cos(np.radians(_WEDGE))
    out: F64 = points[keep & towards]
    return out
