"""Unit symbols, size marks and icons: every vocabulary word drawn, at any size, smoothly."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.counters.symbols import (
    ICONS,
    KIND_ICONS,
    SIZE_MARKS,
    SYMBOLS,
    icon_image,
    size_mark_image,
    symbol_image,
)
from pipeline.model.manifest import MARKER_KINDS, UNIT_SIZES, UNIT_TYPES

WHITE, BLACK = (255, 255, 255), (0, 0, 0)


def test_every_unit_type_and_size_has_a_drawing():
    assert set(SYMBOLS) == set(UNIT_TYPES)
    assert set(SIZE_MARKS) == set(UNIT_SIZES)
    assert set(KIND_ICONS) <= set(MARKER_KINDS) and set(KIND_ICONS.values()) <= set(ICONS)


def test_symbols_are_told_apart():
    drawn = {t: symbol_image(t, 90, 60, 2, WHITE, BLACK).tobytes() for t in SYMBOLS}
    # Types the rulebooks draw alike share a picture; every other pair differs.
    alike = [{"mechanized", "panzer_grenadier"}, {"recon", "scout", "cavalry"},
             {"sp_anti_tank", "assault_gun", "tank_destroyer"}]
    groups: dict[bytes, set[str]] = {}
    for name, data in drawn.items():
        groups.setdefault(data, set()).add(name)
    shared = [g for g in groups.values() if len(g) > 1]
    assert sorted(map(sorted, shared)) == sorted(map(sorted, alike))
    marks = {size_mark_image(s, 90, 18, 2, BLACK).tobytes() for s in SIZE_MARKS}
    assert len(marks) == len(SIZE_MARKS)


@pytest.mark.parametrize("px", [(45, 30), (90, 60), (300, 200)])
def test_symbols_scale_with_frame_on_whole_pixels(px):
    w, h = px
    frame = max(1, w // 45)
    image = np.asarray(symbol_image("armor", w, h, frame, WHITE, BLACK)).astype(int)
    assert image.shape == (h, w, 3)
    assert (image[:frame, :] == 0).all() and (image[:, :frame] == 0).all()
    assert (image[h // 2, frame:frame + 2] == 255).all()  # inside the frame: the fill
    # Shapes are anti-aliased: the oval's edges shade through greys.
    assert len(np.unique(image[..., 0])) > 8


def test_size_marks_and_icons_are_transparent_around_their_ink():
    mark = np.asarray(size_mark_image("battalion", 90, 18, 2, BLACK))
    assert mark[0, 0, 3] == 0 and mark[..., 3].max() == 255
    _ys, xs = np.nonzero(mark[..., 3])
    assert abs((xs.min() + xs.max() + 1) / 2 - 45) <= 1  # centred on the strip
    for name in ICONS:
        icon = np.asarray(icon_image(name, 64, 2, BLACK))
        assert icon[..., 3].max() == 255 and 0 < (icon[..., 3] > 128).mean() < 0.7
