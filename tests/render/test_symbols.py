"""Hex features drawn as symbols where the truth records them; names and titles as distractors."""

from __future__ import annotations

import re

import numpy as np
import pytest

from pipeline.render import RenderStyle, render_map, sample_map
from pipeline.render.icons import INK

HEX = 48.0


@pytest.fixture(scope="module")
def towns():  # type: ignore[no-untyped-def]
    return sample_map("flat", 14, 10, seed=2, towns=6)


def at(image: np.ndarray, x: float, y: float) -> np.ndarray:
    return image[round(y), round(x)].astype(int)


def is_ink(pixel: np.ndarray) -> bool:
    return bool(np.abs(pixel - np.array(INK)).max() <= 12)


def band(image: np.ndarray, x: float, y: float, r0: float, r1: float) -> float:
    """Mean brightness of the pixels between radii ``r0`` and ``r1`` (hex sizes) of a point."""
    ys, xs = np.mgrid[0: image.shape[0], 0: image.shape[1]]
    d = np.hypot(xs - x, ys - y) / HEX
    return float(image[(d >= r0) & (d < r1)].mean())


@pytest.mark.parametrize("symbol", ["ring", "square", "castle"])
def test_each_town_gets_its_symbol_on_its_hex_centre(towns, symbol):
    style = RenderStyle(hex_size=HEX, symbols={"town": symbol}, seed=2)
    picture = render_map(towns, style)
    grid = picture.grid
    marked = {i for i, e in towns.hexes.items() if "town" in e.features}
    assert {grid.id(h) for h in picture.hex_features} == marked and len(marked) == 6
    assert all(f == {"town"} for f in picture.hex_features.values())
    plain = render_map(towns, RenderStyle(hex_size=HEX, seed=2)).image
    for h in picture.hex_features:
        x, y = grid.center(h)
        img = picture.image
        if symbol == "ring":  # a dot, white, then a black ring
            assert band(img, x, y, 0, 0.03) < 40 and band(img, x, y, 0.055, 0.075) > 230
            assert band(img, x, y, 0.095, 0.11) < 40
        elif symbol == "square":  # black with a white rim
            ys, xs = np.mgrid[0: img.shape[0], 0: img.shape[1]]
            d = np.maximum(np.abs(xs - x), np.abs(ys - y)) / HEX
            assert img[d < 0.065].mean() < 40 and img[(d > 0.085) & (d < 0.105)].mean() > 225
        else:  # a black keep with a red flag above it
            assert is_ink(at(img, x, y)) and is_ink(at(img, x - 0.09 * HEX, y + 0.06 * HEX))
            flag = at(img, x + 0.05 * HEX, y - 0.205 * HEX)
            assert flag[0] > 150 and flag[1] < 90, flag
        # Nothing of the symbol beyond a third of a hex from the centre.
        ys, xs = np.mgrid[0: img.shape[0], 0: img.shape[1]]
        far = np.hypot(xs - x, ys - y) > 0.33 * HEX
        near = np.hypot(xs - x, ys - y) < 0.45 * HEX
        assert np.array_equal(img[far & near], plain[far & near])
    # Hexes without a town are untouched.
    ids = {grid.id(h) for h in grid.hexes()} - marked
    for hex_id in sorted(ids)[:40]:
        x, y = grid.center(grid.hex(hex_id))
        assert np.array_equal(at(picture.image, x, y), at(plain, x, y))


def test_hex_features_without_a_symbol_are_neither_drawn_nor_recorded(towns):
    picture = render_map(towns, RenderStyle(hex_size=HEX))
    assert picture.hex_features == {}
    plain_data = sample_map("flat", 14, 10, seed=2)
    assert np.array_equal(picture.image, render_map(plain_data, RenderStyle(hex_size=HEX)).image)


def test_names_are_printed_beside_towns_and_recorded_as_labels(towns):
    style = RenderStyle(hex_size=HEX, symbols={"town": "ring"}, feature_names=True,
                        place_names=4, seed=2)
    picture = render_map(towns, style)
    without = render_map(towns, RenderStyle(hex_size=HEX, symbols={"town": "ring"}, seed=2))
    grid = picture.grid
    names = [lab for lab in picture.labels if lab.kind == "name"]
    places = [lab for lab in picture.labels if lab.kind == "place"]
    assert len(names) == 6 and len(places) == 4
    assert len({lab.text for lab in picture.labels}) == 10
    centres = [grid.center(h) for h in picture.hex_features]
    for lab in picture.labels:
        assert not re.fullmatch(r"\d{4}", lab.text)  # never mistakable for a hex id
        x, y, w, h = lab.box
        assert w > 0.5 * HEX and 0.1 * HEX < h < 0.4 * HEX
        crop = (slice(round(y), round(y + h) + 1), slice(round(x), round(x + w) + 1))
        changed = np.abs(picture.image[crop].astype(int) - without.image[crop].astype(int))
        assert (changed.max(axis=2) > 60).mean() > 0.1, lab.text  # its ink is in its box
    for lab in names:  # each name starts just right of a town's symbol
        x, y, _, h = lab.box
        assert min(np.hypot(x - cx - 0.2 * HEX, y + h / 2 - cy - 0.2 * HEX)
                   for cx, cy in centres) < 0.2 * HEX


def test_symbols_and_names_are_deterministic(towns):
    style = RenderStyle(hex_size=HEX, symbols={"town": "castle"}, feature_names=True,
                        place_names=3, seed=9)
    a, b = render_map(towns, style), render_map(towns, style)
    assert np.array_equal(a.image, b.image) and a.labels == b.labels
