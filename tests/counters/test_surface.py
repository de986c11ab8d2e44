"""The counters package's public surface is deliberate."""

from __future__ import annotations

import importlib

import pytest

from tests.surface import assert_surface

SURFACE = {
    "pipeline.counters": {
        "PAPERS", "Counter", "CounterStyle", "Palette", "Placement", "RenderOptions",
        "SheetOptions", "SheetPlan", "contact_sheet", "default_style", "format_length",
        "load_style", "parse_length", "parse_offset", "plan_sheets", "render_manifests",
        "render_marker", "render_unit", "sheet_pdf", "write_counters", "write_sheet_pdf",
    },
    "pipeline.cli.counters": {"counters"},
}


@pytest.mark.parametrize("module", sorted(SURFACE))
def test_all_is_exactly_the_documented_surface(module):
    assert_surface(module, SURFACE[module])


def test_fonts_ship_with_their_licence():
    from pipeline.counters.typeset import FONT_DIR, FONTS

    for name in FONTS.values():
        assert (FONT_DIR / name).stat().st_size > 100_000
    assert "Bitstream" in (FONT_DIR / "LICENSE-DejaVu.txt").read_text()


def test_counters_library_does_not_import_click():
    import sys

    for name in ("pipeline.counters", "pipeline.counters.sheet"):
        importlib.import_module(name)
    for name, module in list(sys.modules.items()):
        if name.startswith("pipeline.counters"):
            assert "click" not in getattr(module, "__dict__", {}), name
