"""Rendering map data: fills, features, grid and ids, checked by pixels at known places."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from pipeline.hexgrid import HexGrid, Numbering, Orientation
from pipeline.model import MapData, load_map
from pipeline.render import (
    RenderStyle,
    board_layout,
    drawn_hexsides,
    parse_hex_colour,
    printed_colours,
    render_map,
    sample_map,
)

DEMO_MAP = Path(__file__).resolve().parents[2] / "maps" / "demo" / "map.json"


@pytest.fixture(scope="module")
def demo() -> MapData:
    return load_map(DEMO_MAP)


@pytest.fixture(scope="module")
def picture(demo: MapData):  # type: ignore[no-untyped-def]
    return render_map(demo, RenderStyle(hex_size=40.0, supersample=2))


def _pixel(image: np.ndarray, xy: tuple[float, float]) -> tuple[int, int, int]:
    x, y = round(xy[0]), round(xy[1])
    r, g, b = (int(v) for v in image[y, x])
    return r, g, b


def _lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def test_layout_puts_the_map_inside_its_margin():
    grid = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=3, rows=2)
    layout, width, height = board_layout(grid, RenderStyle(hex_size=40.0, margin=10.0))
    assert layout.dy == 40.0 and layout.dx == pytest.approx(40 * math.sqrt(3) / 2)
    placed = HexGrid(grid.orientation, grid.numbering, 3, 2, layout=layout)
    corners = np.array([c for h in placed.hexes() for c in placed.corners(h)])
    assert corners.min(axis=0) == pytest.approx([10.0, 10.0])
    assert (width, height) == (math.ceil(corners[:, 0].max() + 10), math.ceil(corners[:, 1].max()
                                                                               + 10))


def test_every_plain_hex_is_filled_with_its_terrain_colour(demo, picture):
    grid = picture.grid
    crossed = {h for side, names in picture.hexsides.items() for h in side if names}
    checked = 0
    assert picture.image.dtype == np.uint8
    for h in grid.hexes():
        terrain = demo.terrain_of(grid.id(h))
        if h in crossed or len(terrain) > 1:
            continue  # a road or a village symbol may cover the centre
        colour = demo.terrain_types[terrain[0]].color
        assert colour is not None
        assert _pixel(picture.image, grid.center(h)) == parse_hex_colour(colour), grid.id(h)
        checked += 1
    assert checked > 300


def _quiet_hex(data: MapData, picture):  # type: ignore[no-untyped-def]
    """A clear hex whose neighbours are clear and whose surroundings carry no feature."""
    grid = picture.grid
    busy = {h for side in picture.hexsides for h in side}
    for h in grid.hexes():
        around = [h, *grid.neighbours(h)]
        if len(around) == 7 and all(data.terrain_of(grid.id(x)) == ["clear"] for x in around) \
                and not busy & {y for x in around for y in [x, *grid.neighbours(x)]}:
            return h
    raise AssertionError("no quiet hex")


def test_outline_is_centred_on_the_layout_to_a_tenth_of_a_pixel(demo, picture):
    grid = picture.grid
    cx, cy = grid.center(_quiet_hex(demo, picture))
    ys, xs = np.mgrid[round(cy) - 30: round(cy) + 31, round(cx) - 30: round(cx) + 31]
    darkness = 255 * 3 - picture.image[ys, xs].astype(float).sum(axis=2)
    # Within a disc about a hex centre the grid is symmetric: its ink centroid is the centre.
    weight = darkness * (np.hypot(xs - cx, ys - cy) <= 26)
    assert (weight * xs).sum() / weight.sum() == pytest.approx(cx, abs=0.1)
    assert (weight * ys).sum() / weight.sum() == pytest.approx(cy, abs=0.1)


def test_hexside_features_are_drawn_where_the_data_puts_them(demo, picture):
    grid = picture.grid
    river = parse_hex_colour("#2e62b5")
    road = parse_hex_colour("#8c1c13")
    # River along 0805/0905's hexside (000 §10.1): river blue within the band.
    side = grid.hexside(grid.hex("0804"), grid.hex("0805"))
    a, b = grid.hexside_endpoints(side)
    band = [_pixel(picture.image, _lerp(a, b, t)) for t in np.linspace(0.3, 0.7, 9)]
    assert sum(np.abs(np.subtract(p, river)).max() < 40 for p in band) >= 5
    # A road from centre to centre: road red a third of the way along.
    road_side = grid.hexside(grid.hex("0303"), grid.hex("0304"))
    ca, cb = grid.center(road_side.a), grid.center(road_side.b)
    assert np.abs(np.subtract(_pixel(picture.image, _lerp(ca, cb, 0.3)), road)).max() < 30
    # A hexside with nothing on it shows only fill and grid.
    plain = grid.hexside(grid.hex("1212"), grid.hex("1213"))
    pa, pb = grid.hexside_endpoints(plain)
    for t in np.linspace(0.2, 0.8, 7):
        p = _pixel(picture.image, _lerp(pa, pb, t))
        assert np.abs(np.subtract(p, river)).max() > 60


def test_a_road_over_a_river_is_printed_with_a_bridge(demo, picture):
    grid = picture.grid
    side = grid.hexside(grid.hex("1806"), grid.hex("1807"))
    assert picture.hexsides[side] == {"bridge", "river", "road"}
    a, b = grid.hexside_endpoints(side)
    assert _pixel(picture.image, _lerp(a, b, 0.5)) == parse_hex_colour("#333333")
    no_marks = drawn_hexsides(demo, grid, RenderStyle(crossing_mark=None))
    assert no_marks[side] == {"river", "road"}


def test_ids_are_printed_near_the_top_of_each_hex(demo):
    style = RenderStyle(hex_size=48.0, ids=True, supersample=2)
    with_ids = render_map(demo, style).image
    without = render_map(demo, RenderStyle(hex_size=48.0, supersample=2)).image
    grid = render_map(demo, RenderStyle(hex_size=48.0, supersample=2)).grid
    x, y = grid.center(grid.hex("1212"))
    top = (slice(round(y - 0.44 * 48), round(y - 0.28 * 48)), slice(round(x - 14), round(x + 14)))
    assert (with_ids[top].sum(axis=2) < 200).sum() > 15  # dark glyph pixels
    assert (without[top].sum(axis=2) < 200).sum() == 0


def test_dashed_grid_leaves_gaps(demo):
    image = render_map(demo, RenderStyle(hex_size=48.0, grid_dashed=True)).image
    grid = render_map(demo, RenderStyle(hex_size=48.0)).grid
    a, b = grid.hexside_endpoints(grid.hexside(grid.hex("1212"), grid.hex("1213")))
    dash, gap = sum(_pixel(image, _lerp(a, b, 0.5))), sum(_pixel(image, _lerp(a, b, 0.3)))
    assert dash < 0.6 * gap


def test_textures_keep_the_fill_dominant(demo):
    style = RenderStyle(hex_size=48.0, textured=True, seed=1)
    picture = render_map(demo, style)
    grid = picture.grid
    x, y = grid.center(grid.hex("1403"))  # woods
    patch = picture.image[round(y) - 12: round(y) + 13, round(x) - 12: round(x) + 13]
    fill = np.array(parse_hex_colour("#5b8a3c"))
    exact = (np.abs(patch.astype(int) - fill).max(axis=2) <= 2).mean()
    assert 0.5 < exact < 1.0  # symbols are there, the fill still dominates
    assert printed_colours(demo, style)["woods"][1] != printed_colours(demo, style)["woods"][0]
    assert len(printed_colours(demo, style)["clear"]) == 1  # the default terrain is plain


def test_pointy_top_maps_render(demo):
    sample = sample_map("pointy", 8, 6, seed=3)
    picture = render_map(sample, RenderStyle(hex_size=40.0))
    grid = picture.grid
    assert grid.orientation is Orientation.POINTY
    h = grid.hex("0403")
    colour = sample.terrain_types[sample.terrain_of("0403")[0]].color
    assert colour is not None
    crossed = {x for side, names in picture.hexsides.items() for x in side if names}
    if h not in crossed and len(sample.terrain_of("0403")) == 1:
        assert _pixel(picture.image, grid.center(h)) == parse_hex_colour(colour)
    assert picture.image.shape[0] > 6 * 40 * math.sqrt(3) / 2


def test_rendering_is_deterministic(demo):
    style = RenderStyle(hex_size=30.0, textured=True, ids=True, seed=4)
    assert np.array_equal(render_map(demo, style).image, render_map(demo, style).image)


def test_unknown_board_is_a_data_error(demo):
    from pipeline.errors import DataError

    with pytest.raises(DataError, match="no board named 'nope'"):
        render_map(demo, board="nope")
