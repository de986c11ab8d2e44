"""Normalise the light: yellowed paper, a scanner's uneven lamp, a phone's vignette.

What the scan shows is the printed colour times a slowly varying gain per
channel (the paper's tint, the light falling on it). The gain is modelled as
the exponential of a quadratic in x and y, fitted by least squares to
samples where the true colour is known: blank paper just outside the map
(it should be the legend's paper colour), and hexes whose terrain the
classifier is already sure of (they should be their legend colour). Dividing
by the gain puts every pixel back on the legend's paper.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["Light", "fit_light"]

F64 = NDArray[np.float64]


@dataclass(frozen=True)
class Light:
    """A gain field over the image.

    Attributes
    ----------
    coeffs
        Shape ``(terms, 3)``: the log gain per channel as a polynomial in the
        position scaled to ``[-1, 1]``.
    width, height
        The image size the positions are scaled by.
    """

    coeffs: F64
    width: int
    height: int

    @classmethod
    def flat(cls, width: int, height: int) -> Light:
        """No correction."""
        return cls(np.zeros((1, 3)), width, height)

    def gain(self, x: F64, y: F64) -> F64:
        """Gain per channel at positions, shape ``(n, 3)``."""
        terms = _terms(x, y, self.width, self.height, len(self.coeffs))
        out: F64 = np.exp(terms @ self.coeffs)
        return out

    def correct(self, rgb: NDArray[np.floating] | NDArray[np.uint8], x: F64, y: F64) -> F64:
        """Colours ``(n, 3)`` observed at positions, as printed (on the legend's paper)."""
        out: F64 = np.asarray(rgb, np.float64) / self.gain(x, y)
        return out


def fit_light(x: F64, y: F64, observed: F64, reference: F64, width: int, height: int,
              weight: F64 | None = None) -> Light:
    """Fit the gain that turns ``reference`` colours into ``observed`` ones at ``(x, y)``.

    The polynomial's degree follows the evidence: quadratic with 30 samples
    or more, linear with 8, a constant below that. Channels where either
    colour is nearly black (no signal) or clipped white are left out.

    Examples
    --------
    >>> x = np.linspace(0, 99, 50); y = np.linspace(0, 49, 50) ** 1.0
    >>> ref = np.full((50, 3), 200.0); obs = ref * [1.0, 0.95, 0.8]
    >>> fit_light(x, y, obs, ref, 100, 50).gain(np.array([10.0]), np.array([10.0])).round(3)
    array([[1.  , 0.95, 0.8 ]])
    """
    n = len(x)
    terms_count = 6 if n >= 30 else 3 if n >= 8 else 1
    terms = _terms(x, y, width, height, terms_count)
    w = np.ones(n) if weight is None else np.asarray(weight, float)
    coeffs = np.zeros((terms_count, 3))
    for c in range(3):
        ok = (observed[:, c] > 8) & (observed[:, c] < 252) & (reference[:, c] > 8) & (w > 0)
        if ok.sum() < terms_count:
            continue
        target = np.log(observed[ok, c] / reference[ok, c])
        sw = np.sqrt(w[ok])
        sol, *_ = np.linalg.lstsq(terms[ok] * sw[:, None], target * sw, rcond=None)
        coeffs[:, c] = sol
    return Light(coeffs, width, height)


def _terms(x: F64, y: F64, width: int, height: int, count: int) -> F64:
    u = 2 * np.asarray(x, float) / max(width, 1) - 1
    v = 2 * np.asarray(y, float) / max(height, 1) - 1
    cols = [np.ones_like(u), u, v, u * u, u * v, v * v][:count]
    return np.stack(cols, axis=-1)
