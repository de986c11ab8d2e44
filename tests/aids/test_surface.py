"""The aids package's public surface is deliberate."""

from __future__ import annotations

import pytest

from tests.surface import assert_surface

SURFACE = {
    "pipeline.aids": {"AID_STEMS", "is_aid_file", "make_aids"},
    "pipeline.aids.cite": {"Rulebook", "cite_text"},
    "pipeline.aids.track": {"BOXES_PER_ROW", "TurnBox", "arrival_text", "track_pages",
                            "turn_boxes", "turn_numbers", "unit_label"},
    "pipeline.aids.crt": {"BOMBARDMENT_CONDITIONAL", "BOMBARDMENT_NO_EFFECT", "UNKNOWN",
                          "column_label", "crt_pages"},
    "pipeline.aids.tec": {"format_combat", "format_cost", "parse_colour", "tec_pages"},
    "pipeline.aids.maptiles": {"DEFAULT_HEX_SIZE", "Tile", "map_tile_pages", "plan_tiles",
                               "render_board", "tile_image"},
    "pipeline.aids.page": {"BLACK", "Cell", "Flow", "Line", "Page", "Picture", "Rect", "Text",
                           "paper_points", "pages_pdf", "pages_png", "text_width", "wrap"},
    "pipeline.cli.aids": {"aids"},
}


@pytest.mark.parametrize("module", sorted(SURFACE))
def test_all_is_exactly_the_documented_surface(module):
    assert_surface(module, SURFACE[module])
