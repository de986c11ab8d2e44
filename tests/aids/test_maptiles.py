"""The map for printing: true scale, tiles that overlap by the same pixels and reassemble."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from pipeline.aids.maptiles import map_tile_pages, plan_tiles, render_board, tile_image
from pipeline.aids.page import Line, Picture
from pipeline.errors import DataError
from pipeline.model import load_map

from .conftest import MAPS


@pytest.fixture(scope="module")
def demo():
    return load_map(MAPS / "demo" / "map.json")


def test_hexes_are_drawn_at_the_asked_size_in_the_terrain_colour(demo):
    image = render_board(demo, "omaha", hex_size=0.5, dpi=60)
    grid = demo.grids()["omaha"]
    # 25 flat-top columns 0.5 in across the flats: 24 * 0.75 * side + 2 sides wide.
    side = 0.5 * 60 / 3 ** 0.5
    assert abs(image.width - (24 * 1.5 * side + 2 * side + 0.5 * 30)) < 3
    woods = tuple(int(demo.terrain_types["woods"].color[i:i + 2], 16) for i in (1, 3, 5))
    assert demo.terrain_of("0110") == ["woods"]
    assert grid.has_id("0110")
    assert woods in {c for _, c in image.getcolors(1 << 16)}


def test_tiles_overlap_by_identical_pixels_and_reassemble(demo):
    image = render_board(demo, "omaha", dpi=80)
    overlap = 40
    tiles = plan_tiles(image.width, image.height, tile=(600, 760), overlap=overlap)
    assert len(tiles) > 2
    by_place = {(t.row, t.col): t for t in tiles}
    compared = 0
    for (r, c), t in by_place.items():
        right = by_place.get((r, c + 1))
        if right is not None:
            a = tile_image(image, t)
            b = tile_image(image, right)
            strip_a = a.crop((a.width - overlap, 0, a.width, a.height))
            strip_b = b.crop((0, 0, overlap, b.height))
            assert ImageChops.difference(strip_a, strip_b).getbbox() is None
            compared += 1
        below = by_place.get((r + 1, c))
        if below is not None:
            a = tile_image(image, t)
            b = tile_image(image, below)
            strip_a = a.crop((0, a.height - overlap, a.width, a.height))
            strip_b = b.crop((0, 0, b.width, overlap))
            assert ImageChops.difference(strip_a, strip_b).getbbox() is None
            compared += 1
    assert compared >= 2
    whole = Image.new("RGB", image.size, (255, 0, 255))
    for t in tiles:
        whole.paste(tile_image(image, t), t.box[:2])
    assert ImageChops.difference(whole, image).getbbox() is None


def test_pages_print_the_map_at_true_scale_with_alignment_marks(demo):
    pages, images = map_tile_pages(demo, "a4", hex_size=0.625, dpi=50, overlap=0.5)
    image = images["omaha"]
    first = pages[0]
    picture = next(i for i in first.items if isinstance(i, Picture))
    # 72 points an inch: the picture's pixels are dpi an inch on paper.
    assert picture.w == pytest.approx(picture.image.width * 72 / 50)
    assert picture.x >= 36 and picture.x + picture.w <= first.width - 36 + 0.01
    marks = [i for i in first.items if isinstance(i, Line) and i.x1 == i.x2
             and i.x1 == pytest.approx(picture.x + picture.w - 36)]
    assert len(marks) == 2  # the overlap's edge, above and below the picture
    assert len(pages) == len(plan_tiles(image.width, image.height,
                                        tile=(int((595.276 / 72 - 1) * 50),
                                              int((841.89 / 72 - 1) * 50)), overlap=25))


def test_an_overlap_of_half_a_page_is_refused():
    with pytest.raises(DataError, match="overlap"):
        plan_tiles(1000, 1000, tile=(100, 100), overlap=60)


def test_hexside_features_are_printed_on_the_tiles(demo):
    """The Douve/Taute river of the demo map (blue, along hexsides) is on the printed board,
    and is gone when the map lists no hexsides."""
    river = tuple(int(demo.hexside_features["river"].color[i:i + 2], 16) for i in (1, 3, 5))

    def river_pixels(data) -> int:
        image = render_board(data, "omaha", hex_size=0.625, dpi=60)
        return sum(n for n, c in image.getcolors(1 << 20)
                   if sum(abs(a - b) for a, b in zip(c, river, strict=True)) < 30)

    bare = demo.model_copy(update={"hexsides": []})
    assert river_pixels(demo) > 200 and river_pixels(bare) < 20
