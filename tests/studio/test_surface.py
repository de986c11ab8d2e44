"""The studio's public surface is deliberate."""

from __future__ import annotations

from tests.surface import assert_surface


def test_studio_surface():
    assert_surface("pipeline.studio", {
        "Edit", "EditConflict", "EditLog", "Guard", "Overrides", "Pyramid", "StudioServer",
        "Workspace", "create_app", "inside", "new_token", "page_state",
    })
