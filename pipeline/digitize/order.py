"""Quantiles and medians of many rows at once, from one sort, equal to NumPy's to the bit.

The terrain reader takes quantiles of every hex's few hundred pixels, for thousands of
hexes: NumPy's :func:`numpy.quantile` and :func:`numpy.median` partition the rows once per
call, which costs several times one sort of them. These sort once and interpolate exactly
as NumPy does (its linear method, from the nearer of the two values; in the values' own
type for one quantile given as a number, in ``float64`` for several), so a reading is the
same to the bit (``tests/digitize/test_order.py`` holds them to NumPy's on rows of every
length).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

__all__ = ["median", "quantile", "quantiles"]

F64 = NDArray[np.float64]
Floats = NDArray[np.floating]


def quantile(values: Floats, q: float, ordered: Floats | None = None) -> Floats:
    """``np.quantile(values, q, axis=1)`` for a 2-D ``values``, in their own type.

    ``ordered`` is ``np.sort(values, axis=1)`` when the caller has it already. As NumPy
    does for one ``q`` given as a number: the position and the weight in ``float64``,
    the interpolation in the values' type.

    >>> v = np.random.default_rng(1).random((5, 41)).astype(np.float32)
    >>> bool(np.array_equal(quantile(v, 0.9), np.quantile(v, 0.9, axis=1)))
    True
    """
    ordered = np.sort(values, axis=1) if ordered is None else ordered
    last = ordered.shape[1] - 1
    at = last * q
    below = min(math.floor(at), last)
    t = at - below
    low, high = ordered[:, below], ordered[:, min(below + 1, last)]
    diff = high - low
    out: Floats = high - diff * (1 - t) if t >= 0.5 else low + diff * t
    return out


def quantiles(values: Floats, qs: tuple[float, ...]) -> F64:
    """``np.quantile(values, qs, axis=1)`` for a 3-D ``values`` (rows, items, channels):
    shape ``(len(qs), rows, channels)``, ``float64``.

    >>> v = np.random.default_rng(0).random((4, 37, 3)).astype(np.float32)
    >>> bool(np.array_equal(quantiles(v, (0.25, 0.5, 0.75)),
    ...                     np.quantile(v, (0.25, 0.5, 0.75), axis=1)))
    True
    """
    ordered = np.sort(values, axis=1)
    last = ordered.shape[1] - 1
    at = last * np.asarray(qs, np.float64)
    below = np.floor(at).astype(np.int64)
    above = np.minimum(below + 1, last)
    t = (at - below)[:, None, None]
    low = np.moveaxis(ordered[:, below, :], 1, 0)
    high = np.moveaxis(ordered[:, above, :], 1, 0)
    diff = high - low
    out: F64 = np.where(t >= 0.5, high - diff * (1 - t), low + diff * t)
    return out


def median(values: Floats, ordered: Floats | None = None) -> Floats:
    """``np.median(values, axis=1)`` for a 2-D ``values``, in their own type.

    >>> v = np.random.default_rng(2).random((3, 40)).astype(np.float32)
    >>> bool(np.array_equal(median(v), np.median(v, axis=1)))
    True
    """
    ordered = np.sort(values, axis=1) if ordered is None else ordered
    n = ordered.shape[1]
    if n % 2:
        return ordered[:, n // 2]
    out: Floats = (ordered[:, n // 2 - 1] + ordered[:, n // 2]) / ordered.dtype.type(2)
    return out
