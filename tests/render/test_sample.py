"""Seeded sample maps: valid, deterministic, with every feature kind."""

from __future__ import annotations

import pytest

from pipeline.model import dumps
from pipeline.render import sample_map


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_sample_maps_are_valid_deterministic_and_full_of_features(orientation):
    a = sample_map(orientation, 14, 12, seed=5)
    assert dumps(a) == dumps(sample_map(orientation, 14, 12, seed=5))
    assert dumps(a) != dumps(sample_map(orientation, 14, 12, seed=6))
    assert a.illustrative and a.boards[0].grid.orientation == orientation
    assert {"river", "road", "trail", "ditch"} <= a.used_hexside_features()
    assert len(a.used_terrain()) >= 4
    # A trail never shares a road's hexside: one road-like line a hexside.
    assert not any({"road", "trail"} <= set(s.features) for s in a.hexsides)
