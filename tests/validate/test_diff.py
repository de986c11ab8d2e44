"""pipeline/validate/diff.py: hand-entered vs digitized, hex by hex and hexside by hexside."""

from __future__ import annotations

import pytest

from pipeline.errors import BocageError
from pipeline.model import map_from_data
from pipeline.validate import diff_maps

from .conftest import side_entry


def test_a_map_agrees_with_itself(demo_map):
    result = diff_maps(demo_map, demo_map)
    assert result.findings == [] and result.hexes_agreeing == result.hexes == 550
    assert all(a.agreement == 1.0 for a in result.terrain.values())
    assert result.features["river"].hand == result.features["river"].both == 27


def test_disagreements_carry_the_digitizers_confidence_most_certain_first(demo_data, demo_map):
    demo_data["hexes"]["0101"] = {"terrain": ["woods"], "confidence": 0.4}
    demo_data["hexes"]["0102"] = {"terrain": ["marsh"], "confidence": 0.95}
    demo_data["hexes"]["0103"] = {"terrain": ["rough"], "confidence": 0.7}
    digitized = map_from_data(demo_data)
    result = diff_maps(demo_map, digitized)
    assert [(f.where, f.confidence, f.severity) for f in result.findings] == [
        ("0102", 0.95, "error"), ("0103", 0.7, "error"), ("0101", 0.4, "check")]
    assert "clear by hand, marsh digitized" in result.findings[0].message
    assert result.terrain["marsh"].digitized == 16 and result.terrain["marsh"].both == 15
    assert result.hexes_agreeing == 547


def test_hexside_features_are_compared_one_by_one(demo_data, demo_map):
    side_entry(demo_data, "0804", "0805")["features"] = ["road"]  # a river typed as a road
    result = diff_maps(demo_map, map_from_data(demo_data))
    assert [(f.kind, f.where, f.message.split(": ")[1]) for f in result.findings] == [
        ("hexside_differs", "0804/0805", "river by hand, not digitized"),
        ("hexside_differs", "0804/0805", "road digitized, not by hand")]
    assert result.findings[0].hexes == ("0804", "0805")
    assert result.features["river"].both == 26 and result.features["road"].digitized == 71


def test_names_and_hex_features_are_compared(demo_data, demo_map):
    demo_data["hexes"]["1718"]["name"] = "Trevieres"
    demo_data["hexes"]["1718"]["features"] = []
    kinds = {f.kind for f in diff_maps(demo_map, map_from_data(demo_data)).findings}
    assert kinds == {"name_differs", "hex_feature_differs"}


def test_maps_of_different_grids_are_bad_input(demo_data, demo_map):
    demo_data["boards"][0]["grid"]["rows"] = 23
    with pytest.raises(BocageError, match="do not share a grid"):
        diff_maps(demo_map, map_from_data(demo_data))
