"""The public surface of pipeline.vassal is deliberate."""

from __future__ import annotations

import importlib

import pytest

from tests.surface import assert_surface

SURFACE = {
    "pipeline.vassal": {
        "BuildReport", "Decoder", "GridPlan", "PieceDefinition", "Preview", "Trait",
        "VassalHexGrid", "VassalNumbering", "build_module", "counter_image_names", "decode",
        "encode", "image_slug", "parse_board_args", "preview_module", "vassal_grid",
    },
    "pipeline.vassal.images": {"check_slugs", "counter_image_names", "image_slug"},
    "pipeline.cli.vassal": {"vassal"},
}
MODULES = ["archive", "board", "build", "buildfile", "check", "describe", "encoding", "game",
           "grid", "images", "importer", "location", "pictures", "pieces", "preview", "read",
           "save", "source", "traits", "vocabulary"]


@pytest.mark.parametrize("module", sorted(SURFACE))
def test_all_is_exactly_the_documented_surface(module):
    assert_surface(module, SURFACE[module])


@pytest.mark.parametrize("name", MODULES)
def test_every_module_names_its_public_api(name):
    mod = importlib.import_module(f"pipeline.vassal.{name}")
    assert mod.__doc__ and mod.__all__
    for public in mod.__all__:
        assert hasattr(mod, public), f"{name}.{public} is in __all__ but missing"
