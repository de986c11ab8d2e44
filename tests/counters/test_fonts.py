"""The fonts the counters are drawn in ship with bocage, with their licence."""

from __future__ import annotations


def test_fonts_ship_with_their_licence():
    from pipeline.counters.typeset import FONT_DIR, FONTS

    for name in FONTS.values():
        assert (FONT_DIR / name).stat().st_size > 100_000
    assert "Bitstream" in (FONT_DIR / "LICENSE-DejaVu.txt").read_text()
