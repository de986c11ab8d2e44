"""The public surface is deliberate: adding or removing a public name fails here."""

from __future__ import annotations

import importlib

import pytest

from tests.surface import assert_surface

SURFACE = {
    "pipeline": {
        "BocageError", "DataError", "GridError", "ImageError", "ManifestError",
        "ModuleError", "__version__",
    },
    "pipeline.errors": {
        "BocageError", "DataError", "GridError", "ImageError", "ManifestError",
        "ModuleError", "did_you_mean",
    },
    "pipeline.hexgrid": {
        "AXIAL_DIRECTIONS", "HALF_HEX", "STAGGERS", "Hex", "HexGrid", "Hexside", "JoinedGrid",
        "Layout", "Numbering", "Orientation", "axial_to_offset", "board_shift",
        "direction_names", "distance", "join_grids", "line", "SightLine", "offset_to_axial",
        "ring", "sight_line",
    },
    "pipeline.bundle": {"BUNDLED", "bundle_root", "bundled_files", "schema", "schema_text"},
    "pipeline.cli": {"COMMANDS", "cli", "main"},
    "pipeline.cli.demo": {"DEFAULT_FOLDER", "OUTPUTS", "SAMPLE", "Stage", "Step", "demo",
                          "is_demo_file", "stages"},
    "pipeline.cli.options": {"HELP", "Length", "Number", "Offset", "OneLineErrors",
                             "OneLineErrorsGroup", "ReadingSetup", "Text", "digitize_options",
                             "emit_json", "json_option", "parse_anchor", "parse_key",
                             "parse_sample", "quiet_option", "reading_setup"},
    "pipeline.cli.paths": {"InputPath", "OutputPath", "PathPlan", "check_input", "io_plan",
                           "resolve_paths"},
    "pipeline.files": {"STDOUT", "FolderWriter", "Target", "atomic_file", "atomic_folder",
                       "check_output_folder", "clean_leftovers", "output_target",
                       "write_bytes_atomic", "write_text_atomic"},
    "pipeline.imagefile": {"DEFAULT_MAX_PIXELS", "MAX_PIXELS_ENV", "ImageInfo", "check_pixels",
                           "exif_orientation", "max_pixels", "open_image", "probe_image",
                           "read_rgb"},
    "pipeline.pdf": {"PDF_FONTS", "DocumentInfo", "binary_images", "new_canvas", "pdf_font"},
    "pipeline.workers": {"cores", "map_in_processes"},
}


@pytest.mark.parametrize("module", sorted(SURFACE))
def test_all_is_exactly_the_documented_surface(module):
    assert_surface(module, SURFACE[module])


def test_every_error_is_a_bocage_error():
    import pipeline.errors as e

    for name in ("DataError", "GridError", "ImageError", "ManifestError", "ModuleError"):
        assert issubclass(getattr(e, name), e.BocageError)


def test_library_does_not_import_click():
    import sys

    importlib.import_module("pipeline.hexgrid")
    for name, module in list(sys.modules.items()):
        if name.startswith("pipeline.") and not name.startswith("pipeline.cli"):
            assert "click" not in getattr(module, "__dict__", {}), name
