"""Area shares: how much of each hex each terrain covers.

The learner names a hex's main terrain; a hex on a wood's edge is part wood and part
field, and the builder (and validation) want to know how much. Each hex is cut into seven
cells (:meth:`~pipeline.digitize.patches.HexFrame.cells`: the centre and six towards the
hexsides). Each terrain's look at cell scale is learnt from the hexes read surely as that
terrain (their cells are that terrain's examples): a Gaussian profile per terrain over the
cells' colour and ink. A cell's terrain is then weighed between what its profile says and
what the whole hex was read as.

How much to trust the cell profiles is measured on the map itself: the surely read hexes'
own cells must come out as their hex's terrain (a map whose terrains differ only by icons
has cells that say little, and leans on the hex's reading; a map of colour regions has
cells that say much).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.learn import Reading
from pipeline.digitize.order import quantile, quantiles
from pipeline.digitize.patches import HexFrame
from pipeline.workers import map_blocks

__all__ = ["area_shares", "cell_descriptors"]

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
BoolMap = NDArray[np.bool_]

_SURE = 0.8
_TRUST = (1.0, 0.5, 0.25, 0.12, 0.06, 0.03, 0.0)  # cell evidence weights tried, strongest first
_AGREE = 0.95  # share of sure hexes' cells that must come out as their hex's terrain
_PRIOR_FLOOR = 0.02
_BLOCK = 256  # hexes described at a time


def cell_descriptors(lab: F32, frame: HexFrame, mask: BoolMap, *, jobs: int = 1
                     ) -> tuple[F64, F64]:
    """Each hex's seven cells described, ``(n, 7, d)``, and each cell's share of the hex.

    A cell is described by its L*a*b* quartiles, its ink share (darker than the hex's own
    paper-like quartile) and its gradient energy. ``jobs`` threads describe blocks of hexes
    side by side.
    """
    cells = frame.cells()
    parts = map_blocks(lambda s: _cells(lab[s], cells, mask), len(lab), _BLOCK, jobs=jobs)
    areas = np.array([float((cells == k).sum()) for k in range(7)])
    return np.concatenate(parts), areas / areas.sum()


def _cells(lab: F32, cells: NDArray[np.int64], mask: BoolMap) -> F64:
    """:func:`cell_descriptors` of one block of hexes."""
    light = lab[..., 0]
    paper = quantile(light[:, mask & (cells >= 0)], 0.75)[:, None]
    gx = np.zeros_like(light)
    gy = np.zeros_like(light)
    gx[:, :, 1:-1] = light[:, :, 2:] - light[:, :, :-2]
    gy[:, 1:-1, :] = light[:, 2:, :] - light[:, :-2, :]
    grad = np.hypot(gx, gy)
    parts = []
    for k in range(7):
        where = mask & (cells == k)
        if not where.any():
            where = cells == k
        q = quantiles(lab[:, where, :], (0.25, 0.5, 0.75))  # (3, n, 3), NumPy's to the bit
        ink = ((paper - light[:, where]) > 12).mean(axis=1)
        parts.append(np.concatenate([np.transpose(q, (1, 0, 2)).reshape(len(lab), -1),
                                     ink[:, None], grad[:, where].mean(axis=1)[:, None]], axis=1))
    out: F64 = np.stack(parts, axis=1).astype(np.float64)
    return out


def area_shares(cells: F64, area: F64, reading: Reading) -> F64:
    """Each hex's share per terrain, ``(n, terrains)``, rows summing to 1.

    Parameters
    ----------
    cells, area
        From :func:`cell_descriptors`.
    reading
        The learner's reading of the whole hexes.
    """
    _n, _k, d = cells.shape
    prob = reading.probability
    t = prob.shape[1]
    main, conf = reading.main, reading.confidence
    sure = conf >= _SURE
    mean = np.zeros((t, d))
    var = np.ones((t, d))
    known = np.zeros(t, bool)
    spread = cells.reshape(-1, d).var(axis=0) + 1e-6
    for c in range(t):
        these = cells[sure & (main == c)].reshape(-1, d)
        if len(these) >= 3:
            mean[c] = np.median(these, axis=0)
            var[c] = np.maximum(these.var(axis=0), 0.02 * spread)
            known[c] = True
    if not known.any():
        return prob.copy()
    # Log-likelihood of each cell under each terrain's profile, (n, k, t).
    ll = -0.5 * (((cells[:, :, None, :] - mean[None, None]) ** 2) / var[None, None]
                 + np.log(var)[None, None]).sum(axis=-1)
    ll[:, :, ~known] = ll[:, :, known].min() if known.any() else 0.0
    ll -= ll.max(axis=2, keepdims=True)
    prior = np.log(prob + _PRIOR_FLOOR)[:, None, :]
    trust = _trust(ll, prior, sure, main)
    post = trust * ll + prior
    post -= post.max(axis=2, keepdims=True)
    p = np.exp(post)
    p /= p.sum(axis=2, keepdims=True)
    shares: F64 = (p * area[None, :, None]).sum(axis=1)
    return shares


def _trust(ll: F64, prior: F64, sure: BoolMap, main: NDArray[np.int64]) -> float:
    """The strongest cell evidence under which the sure hexes' cells keep their terrain."""
    if not sure.any():
        return 0.0
    for w in _TRUST:
        post = w * ll[sure] + prior[sure]
        agree = (np.argmax(post, axis=2) == main[sure][:, None]).mean()
        if agree >= _AGREE:
            return w
    return 0.0
