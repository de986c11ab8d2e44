"""The digitize and render packages state their public names deliberately."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import pipeline.digitize
import pipeline.render

SURFACE = {
    "pipeline.digitize": {
        "STAGES", "Classification", "Digitization", "FeatureKey", "GridFit", "HexTerrain",
        "Learner", "Legend", "Teaching", "TerrainReader", "build_map", "calibrate",
        "classify_hexes", "detect_hexsides", "digitize", "digitize_scan", "encode_png",
        "fit_anchors", "geojson", "geojson_text", "geopackage", "legend_document",
        "legend_from_data", "legend_from_map", "load_legend", "load_scan", "overlay",
        "world_file",
    },
    "pipeline.render": {
        "DEFAULT_PALETTE", "RenderStyle", "Rendered", "Scan", "ScanOptions", "board_layout",
        "drawn_hexsides", "parse_hex_colour", "printed_colours", "render_map", "sample_map",
        "simulate_scan",
    },
}


@pytest.mark.parametrize("package", sorted(SURFACE))
def test_package_surface_is_exactly_the_documented_one(package):
    module = importlib.import_module(package)
    assert set(module.__all__) == SURFACE[package]
    for name in module.__all__:
        assert hasattr(module, name), f"{package}.{name} is in __all__ but missing"


@pytest.mark.parametrize("package", [pipeline.digitize, pipeline.render])
def test_every_module_states_its_public_names(package):
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        assert hasattr(module, "__all__"), module.__name__
        for name in module.__all__:
            assert hasattr(module, name), f"{module.__name__}.{name}"


def test_render_is_not_needed_by_digitize():
    import sys

    for name in list(sys.modules):
        if name.startswith("pipeline.digitize"):
            source = sys.modules[name].__dict__
            assert "render_map" not in source and "simulate_scan" not in source, name
