"""Each hex's recorded terrain shares are what its pixels show (rounded regions, discs, frames)."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np
import pytest

from pipeline.model import MapData, map_from_data
from pipeline.render import RenderStyle, parse_hex_colour, render_map, sample_map
from pipeline.render.looks import RIM_SHADE
from pipeline.render.sheet import Sheet
from pipeline.render.textures import shade

HEX = 48.0


def bare(data: MapData) -> MapData:
    """The map without hexside features, so every pixel shows terrain."""
    raw: dict[str, Any] = data.model_dump(mode="json", exclude_none=True, by_alias=True)
    raw["hexsides"] = []
    return map_from_data(raw, "<terrain only>")


def pixel_shares(rendered, colours: dict[str, list[tuple[int, int, int]]]):  # type: ignore[no-untyped-def]
    """Per hex, the share of its pixels (inside the field) showing each terrain's colours.

    Only pixels within a few levels of one of the colours count: pixels that
    mix two colours (an edge, the hair-thin grid) are left out of both.
    """
    grid = rendered.grid
    height, width = rendered.image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width]
    q, r = grid.hexes_at(xs.ravel(), ys.ravel())
    names = list(colours)
    palette = np.array([c for n in names for c in colours[n]], float)
    owner = np.array([i for i, n in enumerate(names) for _ in colours[n]])
    pixels = rendered.image.reshape(-1, 3).astype(float)
    distance = ((pixels[:, None, :] - palette[None]) ** 2).sum(axis=2)
    nearest = owner[np.argmin(distance, axis=1)]
    pure = distance.min(axis=1) <= 12 ** 2
    inside = np.ones(len(pixels), bool)
    if rendered.field_box is not None:
        x0, y0, x1, y1 = rendered.field_box
        inside = (xs.ravel() > x0) & (xs.ravel() < x1) & (ys.ravel() > y0) & (ys.ravel() < y1)
    out = {}
    for h in grid.hexes():
        mine = (q == h.q) & (r == h.r) & inside
        counts = np.bincount(nearest[mine & pure], minlength=len(names))
        out[h] = ({n: counts[i] / counts.sum() for i, n in enumerate(names) if counts[i]},
                  int(mine.sum()))
    return out


@pytest.fixture(scope="module")
def forest_map() -> MapData:
    return bare(sample_map("flat", 12, 9, seed=4))


def test_shares_sum_to_one_and_a_village_disc_has_its_area(forest_map):
    data = bare(sample_map("flat", 12, 9, seed=1))
    picture = render_map(data, RenderStyle(hex_size=HEX))
    villages = [h for h, t in picture.terrain.items() if len(t) == 2]
    assert villages, "the sample has villages (a second terrain as a disc)"
    disc = math.pi * (0.15 * HEX) ** 2 / (math.sqrt(3) / 2 * HEX ** 2)
    for h in picture.grid.hexes():
        assert sum(picture.shares[h].values()) == pytest.approx(1.0, abs=1e-9)
    for h in villages:
        main, second = picture.terrain[h]
        assert picture.shares[h][second] == pytest.approx(disc, rel=2e-4)
        assert picture.shares[h][main] == pytest.approx(1 - picture.shares[h][second])


def test_rounded_region_shares_match_the_pixels_hex_by_hex(forest_map):
    mains = Counter(forest_map.terrain_of(i)[0] for i in forest_map.hex_ids())
    woods = next(n for n, _ in mains.most_common() if n != forest_map.default_terrain)
    style = RenderStyle(hex_size=HEX, grid_width=0.001, looks={woods: "rounded"}, rounding=0.25)
    picture = render_map(forest_map, style)
    colours = {n: [parse_hex_colour(t.color or "")] for n, t in forest_map.terrain_types.items()}
    colours[woods].append(shade(colours[woods][0], RIM_SHADE))
    by_pixels = pixel_shares(picture, colours)
    spilled = cut = 0
    for h in picture.grid.hexes():
        truth = picture.shares[h]
        seen, _ = by_pixels[h]
        for name in set(truth) | set(seen):
            assert seen.get(name, 0.0) == pytest.approx(truth.get(name, 0.0), abs=0.02), \
                (picture.grid.id(h), name)
        share = truth.get(woods, 0.0)
        main = picture.terrain[h][0]
        spilled += main != woods and share > 0.002
        cut += main == woods and share < 0.998
    # Rounding is really there: woods outlines lose their corners (0.05 r^2 each) and fill
    # the notches between woods hexes, a little into the hexes next door.
    assert spilled >= 5 and cut >= 5


def test_a_frame_cuts_the_outer_hexes_and_shares_are_over_what_shows(forest_map):
    style = RenderStyle(hex_size=HEX, grid_width=0.001, sheet=Sheet(frame=8, edge_to_edge=True))
    picture = render_map(forest_map, style)
    colours = {n: [parse_hex_colour(t.color or "")] for n, t in forest_map.terrain_types.items()}
    by_pixels = pixel_shares(picture, colours)
    hex_area = math.sqrt(3) / 2 * HEX ** 2
    x0, y0, x1, y1 = picture.field_box or (0, 0, 0, 0)
    grid = picture.grid
    for h in grid.hexes():
        corners = np.array(grid.corners(h))
        beyond = (corners[:, 0] < x0).any() or (corners[:, 0] > x1).any() or \
            (corners[:, 1] < y0).any() or (corners[:, 1] > y1).any()
        assert (picture.visible[h] < 0.999) == beyond, grid.id(h)
        assert picture.visible[h] > 0.75
    outline = [h for h in grid.hexes() if len(grid.neighbours(h)) < 6]
    assert sum(picture.visible[h] < 0.999 for h in outline) >= len(outline) - 12
    for h in picture.grid.hexes():
        seen, count = by_pixels[h]
        assert count / hex_area == pytest.approx(picture.visible[h], abs=0.01), picture.grid.id(h)
        main = picture.terrain[h][0]
        assert seen.get(main, 0.0) == pytest.approx(picture.shares[h][main], abs=0.02)
    for h in picture.grid.hexes():  # every centre is printed, inside the frame
        cx, cy = picture.grid.center(h)
        assert x0 + 0.35 * HEX < cx < x1 - 0.35 * HEX and y0 + 0.35 * HEX < cy < y1 - 0.35 * HEX
