"""The public surface of pipeline.model is deliberate, and its docstring examples run."""

from __future__ import annotations

import doctest
import importlib
import sys

import pytest

from tests.surface import assert_surface

SURFACE = {
    "MARKER_KINDS", "UNIT_FLAGS", "UNIT_SIZES", "UNIT_TYPES",
    "Board", "Checked", "CombatEffect", "Cost", "GridSpec", "HexEntry", "HexsideEntry",
    "LayoutSpec", "Location", "MapData", "MapEdge", "MarkerManifest", "MarkerSpec",
    "CrtTable", "Fact", "Facts",
    "NumberingSpec", "Position", "PositionMarker", "PositionUnit", "RulesProfile", "Scenario",
    "TerrainRule", "UnitManifest", "UnitSpec",
    "check_file", "check_game_dir", "companion_counters", "companion_maps", "cost_is_unknown",
    "dumps", "load_file", "load_map",
    "crt_from_data", "facts_from_data", "load_crt", "load_facts",
    "load_markers", "load_position", "load_rules", "load_scenario", "load_units",
    "map_from_data", "markers_from_text", "position_from_data", "read_json", "rules_from_data",
    "save_json", "scenario_from_data", "units_from_text",
}

MODULES = ["base", "translate", "documents", "mapdata", "rulesprofile", "manifest", "scenario",
           "position", "crt", "facts", "check", "schema"]


def test_all_is_exactly_the_documented_surface():
    assert_surface("pipeline.model", SURFACE)


@pytest.mark.parametrize("name", MODULES)
def test_every_module_states_its_public_names(name):
    module = importlib.import_module(f"pipeline.model.{name}")
    assert module.__all__, name
    for public in module.__all__:
        assert hasattr(module, public), f"{name}.{public}"


@pytest.mark.parametrize("name", ["", *(f".{m}" for m in MODULES)])
def test_docstring_examples_run(name):
    module = importlib.import_module(f"pipeline.model{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_model_does_not_import_click():
    for name, module in list(sys.modules.items()):
        if name.startswith("pipeline.model"):
            assert "click" not in vars(module), name
