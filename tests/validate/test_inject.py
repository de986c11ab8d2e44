"""pipeline/validate/inject.py: 25 typing errors, all found, at most 2 false alarms."""

from __future__ import annotations

import pytest

from pipeline.model import map_from_data
from pipeline.validate import KINDS, inject_errors, lint_map, score, validate_data


@pytest.mark.parametrize("seed", [1, 2, 3, 44])
def test_25_injected_errors_are_all_reported_with_at_most_2_false_alarms(seed, demo_data,
                                                                          demo_map):
    typed, errors = inject_errors(demo_data, 25, seed=seed)
    assert len(errors) == 25 and {e.kind for e in errors} == set(KINDS)
    result = validate_data(typed, file="typed.json", against=demo_map)
    got = score(result.findings, errors, baseline=lint_map(demo_map))
    assert got.missed == []
    assert len(got.false_alarms) <= 2, got.false_alarms
    assert result.has_errors


def test_injection_is_seeded_and_leaves_the_original_alone(demo_data):
    before = repr(demo_data)
    first = inject_errors(demo_data, 10, seed=7)
    assert inject_errors(demo_data, 10, seed=7) == first
    assert inject_errors(demo_data, 10, seed=8) != first
    assert repr(demo_data) == before


def test_lint_alone_catches_a_town_typed_on_a_clear_hex(demo_data, demo_map):
    typed, errors = inject_errors(demo_data, 5, seed=3, kinds=("town_on_clear",))
    found = lint_map(map_from_data(typed))
    for error in errors:
        assert any(f.kind == "town_terrain" and f.where == error.hexes[0] for f in found)
