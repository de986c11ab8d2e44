"""The terrain reader's quantiles and medians equal NumPy's to the bit, so that sorting once
instead of partitioning leaves every hex's description, and so every reading, unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.digitize.order import median, quantile, quantiles

LENGTHS = [1, 2, 3, 4, 5, 8, 37, 100, 311, 512, 777, 1024]


def _rows(rng: np.random.Generator, shape: tuple[int, ...], decimals: int) -> np.ndarray:
    # Rounded values repeat, as Lab values of flat printed fills do: ties in the sort.
    return np.round(rng.random(shape) * 100, decimals).astype(np.float32)


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("q", [0.1, 0.25, 0.5, 0.75, 0.9])
def test_one_quantile_equals_numpys_in_the_values_type(n, q):
    rng = np.random.default_rng(n)
    for decimals in (0, 2, 6):
        v = _rows(rng, (40, n), decimals)
        got, want = quantile(v, q), np.quantile(v, q, axis=1)
        assert got.dtype == want.dtype == np.float32
        assert np.array_equal(got, want)
        assert np.array_equal(quantile(v, q, np.sort(v, axis=1)), want)


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("qs", [(0.25, 0.5, 0.75), (0.1, 0.25, 0.5, 0.75, 0.9)])
def test_several_quantiles_equal_numpys_in_float64(n, qs):
    rng = np.random.default_rng(n + 1)
    for decimals in (0, 2, 6):
        v = _rows(rng, (12, n, 3), decimals)
        got, want = quantiles(v, qs), np.quantile(v, qs, axis=1)
        assert got.dtype == want.dtype == np.float64
        assert np.array_equal(got, want)


@pytest.mark.parametrize("n", LENGTHS)
def test_the_median_equals_numpys(n):
    rng = np.random.default_rng(n + 2)
    for decimals in (0, 2, 6):
        v = _rows(rng, (40, n), decimals)
        got, want = median(v), np.median(v, axis=1)
        assert got.dtype == want.dtype
        assert np.array_equal(got, want)
