"""Pixel geometry: pitches, origin, rotation, affine matrices, and pixel -> hex."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st

from pipeline.errors import GridError
from pipeline.hexgrid import Hex, HexGrid, Layout, Numbering

from .conftest import (
    FLAT,
    HEAVY,
    POINTY,
    PROPERTY,
    grid_and_hex,
    grids,
    near,
    ref_center_units,
)

# -- construction errors ------------------------------------------------------------


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("name", ["dx", "dy", "x0", "y0", "rotation"])
def test_non_finite_layout_values_raise_grid_error(name, bad):
    values = {"dx": 48.0, "dy": 55.0, "x0": 0.0, "y0": 0.0, "rotation": 0.0}
    values[name] = bad
    with pytest.raises(GridError, match="finite"):
        Layout(**values)


@pytest.mark.parametrize("dx, dy", [(0.0, 55.0), (48.0, 0.0), (-48.0, 55.0)])
def test_hex_pitch_must_be_positive(dx, dy):
    with pytest.raises(GridError, match="positive"):
        Layout(dx=dx, dy=dy)


@pytest.mark.parametrize(
    "matrix", [(0.0, 0.0, 0.0, 0.0), (48.0, 96.0, 24.0, 48.0), (1.0, 2.0, 2.0, 4.0)]
)
def test_singular_affine_matrix_raises_grid_error(matrix):
    with pytest.raises(GridError, match="singular"):
        Layout(dx=48.0, dy=55.0, affine=matrix)


def test_non_finite_affine_matrix_raises_grid_error():
    with pytest.raises(GridError, match="finite"):
        Layout(dx=48.0, dy=55.0, affine=(48.0, math.nan, 0.0, 55.0))


# -- parameters ---------------------------------------------------------------------


def test_unrotated_matrix_is_the_pitches_without_negative_zero():
    m = Layout(dx=48.0, dy=55.0, x0=40.0, y0=40.0).matrix
    assert m == (48.0, 0.0, 0.0, 55.0)
    assert all(math.copysign(1.0, v) == 1.0 for v in m)


def test_affine_matrix_wins_over_pitch_and_rotation():
    lay = Layout(dx=48.0, dy=55.0, rotation=3.0, affine=(50.0, 2.0, -1.0, 57.0))
    assert lay.matrix == (50.0, 2.0, -1.0, 57.0)
    assert lay.to_pixel(1.0, 1.0) == (52.0, 56.0)


def _pitch_grid(orientation, dx, dy, rotation=0.0, x0=100.0, y0=200.0):
    word = "even-down" if orientation is FLAT else "even-right"
    return HexGrid(
        orientation,
        Numbering(stagger=word),
        cols=6,
        rows=6,
        layout=Layout(dx=dx, dy=dy, x0=x0, y0=y0, rotation=rotation),
    )


def test_flat_dx_is_the_column_pitch_and_dy_the_height_flat_to_flat():
    g = _pitch_grid(FLAT, 48.0, 55.0)
    h = g.hex("0303")
    cx, cy = g.center(h)
    # Column pitch: horizontal distance to a hex in the next column.
    assert g.center(g.hex("0403"))[0] - cx == pytest.approx(48.0)
    # Row pitch: the hex below in the same column.
    assert g.center(g.hex("0304")) == pytest.approx((cx, cy + 55.0))
    poly = g.polygon(h)
    minx, miny, maxx, maxy = poly.bounds
    assert maxy - miny == pytest.approx(55.0)  # flat side to flat side
    assert maxx - minx == pytest.approx(48.0 * 4 / 3)  # corner to corner


def test_pointy_dx_is_the_width_flat_to_flat_and_dy_the_row_pitch():
    g = _pitch_grid(POINTY, 48.0, 55.0)
    h = g.hex("0303")
    cx, cy = g.center(h)
    assert g.center(g.hex("0403")) == pytest.approx((cx + 48.0, cy))
    assert g.center(g.hex("0304"))[1] - cy == pytest.approx(55.0)
    minx, miny, maxx, maxy = g.polygon(h).bounds
    assert maxx - minx == pytest.approx(48.0)
    assert maxy - miny == pytest.approx(55.0 * 4 / 3)


@PROPERTY
@given(grids())
def test_origin_is_the_centre_of_the_top_left_hex(g):
    top_left = g.from_offset(0, 0)
    assert near(g.center(top_left), (g.layout.x0, g.layout.y0))
    n = g.numbering
    # The top-left hex is the one printed with the first column and row numbers.
    assert g.numbering.parse(g.id(top_left)) == (n.first_col, n.first_row)


@PROPERTY
@given(grids(max_size=8, rotation=0.0))
def test_centres_follow_the_printed_numbers_and_the_stagger_word(g):
    """Every centre sits where the printed column/row and the stagger word say.

    Unrotated: x = x0 + dx * column index (flat) and y = y0 + dy * (row index
    + 1/2 for columns the word shifts down); likewise for pointy-top rows.
    """
    lay, n = g.layout, g.numbering
    ref0 = ref_center_units(g.orientation, n, n.first_col, n.first_row)
    for h in g.hexes():
        col, row = n.parse(g.id(h))
        u, v = ref_center_units(g.orientation, n, col, row)
        expected = (lay.x0 + lay.dx * (u - ref0[0]), lay.y0 + lay.dy * (v - ref0[1]))
        assert near(g.center(h), expected, 1e-6), g.id(h)


@pytest.mark.parametrize("orientation", [FLAT, POINTY])
def test_positive_rotation_turns_the_grid_clockwise_on_screen(orientation):
    # y points down on screen, so clockwise turns the +x axis towards +y.
    flat = _pitch_grid(orientation, 48.0, 55.0, rotation=0.0)
    turned = _pitch_grid(orientation, 48.0, 55.0, rotation=10.0)
    h = turned.from_offset(2, 0) if orientation is FLAT else turned.from_offset(2, 1)
    x0, y0 = turned.layout.x0, turned.layout.y0
    (ax, ay), (bx, by) = flat.center(h), turned.center(h)
    before = math.atan2(ay - y0, ax - x0)
    after = math.atan2(by - y0, bx - x0)
    assert math.degrees(after - before) == pytest.approx(10.0)
    # Distances from the origin are kept in the unstretched case.
    reg = _pitch_grid(orientation, 50.0, 50.0, rotation=10.0)
    assert math.dist(reg.center(h), (x0, y0)) == pytest.approx(
        math.dist(_pitch_grid(orientation, 50.0, 50.0).center(h), (x0, y0))
    )


def test_layout_less_grid_refuses_geometry_with_a_grid_error():
    g = HexGrid(FLAT, Numbering(), cols=3, rows=3)
    with pytest.raises(GridError, match="layout"):
        g.center(Hex(0, 0))
    with pytest.raises(GridError, match="layout"):
        g.hex_at(1.0, 1.0)


# -- pixel -> hex -------------------------------------------------------------------


@PROPERTY
@given(grids(max_size=8, affine=True))
def test_pixel_at_every_centre_is_that_hex(g):
    hexes = g.hexes()
    xs = np.array([g.center(h)[0] for h in hexes])
    ys = np.array([g.center(h)[1] for h in hexes])
    q, r = g.hexes_at(xs, ys)
    assert [Hex(int(a), int(b)) for a, b in zip(q, r, strict=True)] == hexes
    for h in hexes:
        assert g.hex_at(*g.center(h)) == h


@PROPERTY
@given(
    grid_and_hex(max_size=8, affine=True),
    st.lists(
        st.lists(st.floats(0.0, 1.0), min_size=6, max_size=6).filter(lambda w: sum(w) > 1e-3),
        min_size=1,
        max_size=10,
    ),
)
def test_random_points_inside_a_hex_polygon_are_that_hex(gh, weights):
    g, h = gh
    corners = np.array(g.corners(h))
    centre = np.array(g.center(h))
    poly = g.polygon(h)
    for raw in weights:
        w = np.array(raw) / sum(raw)
        p = w @ corners
        p = centre + (p - centre) * (1 - 1e-7)  # shrink towards the centre
        assert poly.covers(shapely.Point(p))
        assert g.hex_at(float(p[0]), float(p[1])) == h


@PROPERTY
@given(grid_and_hex(max_size=8, affine=True))
def test_points_just_across_each_edge_midpoint_are_the_neighbour(gh):
    g, h = gh
    centre = np.array(g.center(h))
    for d in range(6):
        n = g.neighbour(h, d)
        a, b = (np.array(p) for p in g.hexside_endpoints(g.hexside(h, n)))
        mid = (a + b) / 2
        step = np.array(g.center(n)) - centre
        eps = 1e-7
        inside, outside = mid - eps * step, mid + eps * step
        assert g.hex_at(*inside) == h, g.direction_names[d]
        assert g.hex_at(*outside) == n, g.direction_names[d]
        # The edge midpoint is halfway between the two centres.
        assert near(mid, (centre + np.array(g.center(n))) / 2, 1e-6)


@PROPERTY
@given(grid_and_hex(max_size=8, affine=True))
def test_points_just_inside_each_corner_are_that_hex(gh):
    g, h = gh
    centre = np.array(g.center(h))
    for corner in g.corners(h):
        p = centre + (np.array(corner) - centre) * (1 - 1e-7)
        assert g.hex_at(*p) == h


@HEAVY
@given(grids(max_size=6, affine=True), st.integers(0, 2**32 - 1))
def test_vectorized_pixel_to_hex_agrees_with_polygon_containment(g, seed):
    rng = np.random.default_rng(seed)
    minx, miny, maxx, maxy = shapely.union_all(g.polygons(g.hexes())).bounds
    xs = rng.uniform(minx, maxx, 400)
    ys = rng.uniform(miny, maxy, 400)
    q, r = g.hexes_at(xs, ys)
    assert q.dtype.kind == "i" and q.shape == xs.shape
    found = [Hex(int(a), int(b)) for a, b in zip(q, r, strict=True)]
    polys = g.polygons(found)
    # Each point is inside (or on the boundary of) the polygon of its hex.
    assert shapely.covers(shapely.buffer(polys, 1e-6), shapely.points(xs, ys)).all()


def test_pixel_to_hex_keeps_the_shape_of_a_2d_array():
    g = _pitch_grid(FLAT, 48.0, 55.0)
    ys, xs = np.mgrid[0:20, 0:30].astype(float)
    q, r = g.hexes_at(xs, ys)
    assert q.shape == r.shape == (20, 30)
