"""A map's grid: neighbours by printed id, hexsides, polygons, regions, lines."""

from __future__ import annotations

from collections import Counter, deque

import numpy as np
import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import LineString

from pipeline.errors import GridError
from pipeline.hexgrid import Hex, HexGrid, Hexside, Layout, Numbering, Orientation

from .conftest import (
    FLAT,
    FLAT_WORDS,
    HEAVY,
    POINTY,
    POINTY_WORDS,
    PROPERTY,
    grid_and_hex,
    grids,
    near,
    ref_format,
    ref_neighbours,
)

# -- pinned cases -------------------------------------------------------------------


def test_scenarios_s1_even_column_0405_touches_its_six_neighbours(scenario_grid):
    g = scenario_grid
    got = [g.id(n) for n in g.neighbours(g.hex("0405"))]
    assert sorted(got) == sorted("0404 0406 0305 0306 0505 0506".split())
    # In the fixed order N NE SE S SW NW:
    assert got == ["0404", "0505", "0506", "0406", "0306", "0305"]


def test_scenarios_s1_odd_column_0303_touches_its_six_neighbours(scenario_grid):
    g = scenario_grid
    got = [g.id(n) for n in g.neighbours(g.hex("0303"))]
    assert sorted(got) == sorted("0302 0304 0202 0203 0402 0403".split())
    assert got == ["0302", "0402", "0403", "0304", "0203", "0202"]


def test_scenarios_s1_general_rule_for_odd_and_even_columns(scenario_grid):
    """SCENARIOS.md §1: odd (c, r) touches (c, r±1), (c±1, r-1), (c±1, r);
    even (c, r) touches (c, r±1), (c±1, r), (c±1, r+1)."""
    g = scenario_grid
    for h in g.hexes():
        c, r = g.numbering.parse(g.id(h))
        if c % 2:
            expected = {(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1),
                        (c + 1, r)}
        else:
            expected = {(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r),
                        (c + 1, r + 1)}
        on_map = {(a, b) for a, b in expected if 1 <= a <= g.cols and 1 <= b <= g.rows}
        assert {g.numbering.parse(g.id(n)) for n in g.neighbours(h)} == on_map


def test_scenarios_s1_picture_even_columns_sit_half_a_hex_lower(scenario_grid):
    g = scenario_grid
    y = {hid: g.center(g.hex(hid))[1] for hid in ("0101", "0201", "0301", "0102")}
    assert y["0201"] - y["0101"] == pytest.approx(27.5)  # half of dy = 55
    assert y["0301"] == pytest.approx(y["0101"])
    assert y["0102"] - y["0101"] == pytest.approx(55.0)


def test_scenarios_s1_hexes_off_the_map_do_not_exist(scenario_grid):
    g = scenario_grid
    # N and NE are off the map; SE, S remain (SW, NW are off too).
    assert [g.id(n) for n in g.neighbours(g.hex("0101"))] == ["0201", "0102"]
    assert not g.contains(g.hex("0111")) and not g.has_id("1101") and not g.has_id("0000")
    # A lattice step off the map is still a hex, just not on the map.
    off = g.neighbour(g.hex("0101"), "N")
    assert g.id(off) == "0100" and not g.contains(off)


# Pointy-top examples derived by hand from the picture of each stagger word.
#
# even-right, rows 2 and 4 sit half a hex right:
#   row 2:   0102  0202  0302  0402
#   row 3: 0103  0203  0303  0403
#   row 4:   0104  0204  0304  0404
POINTY_CASES = [
    ("even-right", "0303", ["0302", "0403", "0304", "0204", "0203", "0202"]),
    ("even-right", "0404", ["0503", "0504", "0505", "0405", "0304", "0403"]),
    ("odd-right", "0303", ["0402", "0403", "0404", "0304", "0203", "0302"]),
    ("odd-right", "0404", ["0403", "0504", "0405", "0305", "0304", "0303"]),
    # "odd-left" is the same picture as "even-right"; "even-left" as "odd-right".
    ("odd-left", "0303", ["0302", "0403", "0304", "0204", "0203", "0202"]),
    ("even-left", "0303", ["0402", "0403", "0404", "0304", "0203", "0302"]),
]


@pytest.mark.parametrize("word, hex_id, expected", POINTY_CASES)
def test_pointy_neighbours_by_hand_in_order_ne_e_se_sw_w_nw(word, hex_id, expected):
    g = HexGrid(POINTY, Numbering(stagger=word), cols=8, rows=8)
    assert [g.id(g.neighbour(g.hex(hex_id), d)) for d in g.direction_names] == expected
    assert [g.id(n) for n in g.neighbours(g.hex(hex_id))] == expected


FLAT_CASES = [
    ("odd-down", "0303", ["0302", "0403", "0404", "0304", "0204", "0203"]),
    ("even-up", "0303", ["0302", "0403", "0404", "0304", "0204", "0203"]),
    ("odd-up", "0405", ["0404", "0505", "0506", "0406", "0306", "0305"]),
]


@pytest.mark.parametrize("word, hex_id, expected", FLAT_CASES)
def test_flat_neighbours_by_hand_for_the_other_stagger_words(word, hex_id, expected):
    g = HexGrid(FLAT, Numbering(stagger=word), cols=8, rows=8)
    assert [g.id(n) for n in g.neighbours(g.hex(hex_id))] == expected


def test_flat_descending_columns_by_hand():
    # Columns 10, 9, 8 ... left to right; even columns (10, 8) sit lower.
    g = HexGrid(FLAT, Numbering(first_col=10, descending_cols=True), cols=6, rows=8)
    assert [g.id(n) for n in g.neighbours(g.hex("0905"))] == [
        "0904", "0804", "0805", "0906", "1005", "1004",
    ]


def test_board_prefix_ids_through_the_grid__003_s5_10():
    g = HexGrid(FLAT, Numbering(prefix="A"), cols=45, rows=30)
    h = g.hex("A2519")
    assert g.id(h) == "A2519" and g.contains(h)
    assert len(g.neighbours(h)) == 6
    assert all(g.id(n).startswith("A") for n in g.neighbours(h))


# -- neighbours: reference model and physics ----------------------------------------


@PROPERTY
@given(grid_and_hex(layout=False))
def test_neighbours_match_the_printed_offset_rule_for_every_stagger_word(gh):
    g, h = gh
    col, row = g.numbering.parse(g.id(h))
    ref = ref_neighbours(g.orientation, g.numbering, col, row)
    for name in g.direction_names:
        n = g.neighbour(h, name)
        c2, r2 = ref[name]
        if c2 >= 0 and r2 >= 0 and len(str(c2)) <= 3 and len(str(r2)) <= 3:
            try:
                got = g.id(n)
            except GridError:  # too wide for the padding
                continue
            assert got == ref_format(g.numbering, c2, r2), name
    on_map = [g.neighbour(h, d) for d in g.direction_names if g.contains(g.neighbour(h, d))]
    assert g.neighbours(h) == on_map


_SIGNS = {  # direction name -> (sign of dx, sign of dy) on screen; 0 = not asserted
    "N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0),
    "NE": (1, -1), "SE": (1, 1), "SW": (-1, 1), "NW": (-1, -1),
}


@PROPERTY
@given(grid_and_hex(max_size=8))
def test_each_direction_name_points_that_way_on_screen(gh):
    """'N' has a smaller y, 'NE' a larger x and smaller y, and so on, for both
    orientations, every stagger word and descending numbering (rotation <= 5°)."""
    g, h = gh
    cx, cy = g.center(h)
    for name in g.direction_names:
        nx, ny = g.center(g.neighbour(h, name))
        sx, sy = _SIGNS[name]
        if sx:
            assert np.sign(nx - cx) == sx, name
        if sy:
            assert np.sign(ny - cy) == sy, name


@pytest.mark.parametrize("orientation", [FLAT, POINTY])
def test_directions_in_order_turn_clockwise_by_sixty_degrees_on_a_regular_grid(orientation):
    word = "even-down" if orientation is FLAT else "even-right"
    dx, dy = (1.5, 3**0.5) if orientation is FLAT else (3**0.5, 1.5)
    g = HexGrid(orientation, Numbering(stagger=word), cols=5, rows=5,
                layout=Layout(dx=dx * 30, dy=dy * 30, x0=200.0, y0=200.0))
    h = g.hex("0303")
    cx, cy = g.center(h)
    for name in g.direction_names:
        nx, ny = g.center(g.neighbour(h, name))
        angle = np.degrees(np.arctan2(ny - cy, nx - cx)) % 360
        expected = {"N": 270, "NE": 300 if orientation is POINTY else 330, "E": 0,
                    "SE": 60 if orientation is POINTY else 30, "S": 90,
                    "SW": 120 if orientation is POINTY else 150, "W": 180,
                    "NW": 240 if orientation is POINTY else 210}[name]
        assert angle == pytest.approx(expected), name


@pytest.mark.parametrize("word", FLAT_WORDS + POINTY_WORDS)
@pytest.mark.parametrize("descending", [False, True])
def test_stagger_word_says_which_printed_lines_sit_lower_or_further_right(word, descending):
    o = FLAT if word in FLAT_WORDS else POINTY
    n = Numbering(stagger=word, first_col=9 if descending else 1,
                  first_row=9 if descending else 1,
                  descending_cols=descending, descending_rows=descending)
    g = HexGrid(o, n, cols=6, rows=6, layout=Layout(dx=40.0, dy=50.0, x0=100.0, y0=100.0))
    parity, way = word.split("-")
    for h in g.hexes():
        col, row = n.parse(g.id(h))
        line_no = col if o is FLAT else row
        shifted = ((line_no % 2 == 0) == (parity == "even")) == (way in ("down", "right"))
        # Compare with the hex of the same printed row (column) in a neighbouring line.
        other = next(
            (x for x in g.hexes()
             if n.parse(g.id(x)) == ((col + 1, row) if o is FLAT else (col, row + 1))
             or n.parse(g.id(x)) == ((col - 1, row) if o is FLAT else (col, row - 1))),
        )
        axis = 1 if o is FLAT else 0
        diff = g.center(h)[axis] - g.center(other)[axis]
        half = (g.layout.dy if o is FLAT else g.layout.dx) / 2
        assert diff == pytest.approx(half if shifted else -half), g.id(h)


@PROPERTY
@given(grids(layout=False, max_size=10))
def test_neighbours_are_symmetric(g):
    for a in g.hexes():
        for b in g.neighbours(a):
            assert g.contains(b)
            assert a in g.neighbours(b)
            assert g.adjacent(a, b) and g.distance(a, b) == 1


@PROPERTY
@given(grids(layout=False, max_size=4), st.builds(Hex, st.integers(-20, 20), st.integers(-20, 20)))
def test_stepping_back_the_opposite_direction_returns_home(g, h):
    for d in range(6):
        n = g.neighbour(h, d)
        assert g.neighbour(n, (d + 3) % 6) == h
        assert g.direction(h, n) == d and g.direction(n, h) == (d + 3) % 6
        assert g.neighbour(h, g.direction_names[d]) == n
        assert g.neighbour(h, g.direction_names[d].lower()) == n


@pytest.mark.parametrize("bad", ["NNE", "E", 6, -1, "", None, 2.0])
def test_unknown_direction_raises_grid_error(bad):
    g = HexGrid(FLAT, Numbering(), cols=3, rows=3)
    with pytest.raises(GridError, match="unknown direction"):
        g.neighbour(Hex(0, 0), bad)


@PROPERTY
@given(grids(layout=False, max_size=9))
def test_distance_on_a_full_rectangular_map_is_the_shortest_path_over_its_hexes(g):
    hexes = g.hexes()
    start = hexes[0]
    seen = {start: 0}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in g.neighbours(h):
            if n not in seen:
                seen[n] = seen[h] + 1
                todo.append(n)
    assert set(seen) == set(hexes)
    for h, steps in seen.items():
        assert g.distance(start, h) == steps


# -- hexsides -----------------------------------------------------------------------


def test_hexside_names_between_two_hexes_and_at_the_map_edge(scenario_grid):
    g = scenario_grid
    side = g.hexside(g.hex("0303"), g.hex("0304"))
    assert g.hexside_id(side) == "0303/0304"
    assert g.parse_hexside("0303/0304") == g.parse_hexside("0304/0303") == side
    edge = g.hexside_at(g.hex("0101"), "N")
    assert g.hexside_id(edge) == "0101/N"
    assert g.parse_hexside("0101/N") == g.parse_hexside("0101/n") == edge
    assert g.hexside_id(g.hexside_at(g.hex("0101"), "NW")) == "0101/NW"


@pytest.mark.parametrize("bad", ["0303", "0303/0305", "0303/X", "0303/", "/0303", "0303-0304"])
def test_malformed_hexside_names_raise_grid_error(scenario_grid, bad):
    with pytest.raises(GridError):
        scenario_grid.parse_hexside(bad)


def test_hexside_of_non_adjacent_hexes_raises_grid_error(scenario_grid):
    g = scenario_grid
    with pytest.raises(GridError, match="not adjacent"):
        g.hexside(g.hex("0303"), g.hex("0305"))
    with pytest.raises(GridError, match="not adjacent"):
        g.hexside(g.hex("0303"), g.hex("0303"))


def test_hexside_entirely_off_the_map_has_no_name(scenario_grid):
    g = scenario_grid
    far = g.hexside(g.hex("2020"), g.hex("2021"))
    with pytest.raises(GridError, match="no hex on the map"):
        g.hexside_id(far)


@PROPERTY
@given(grids(layout=False, max_size=7))
def test_every_hexside_name_round_trips(g):
    sides = g.hexsides()
    assert len(sides) == len(set(sides))
    for side in sides:
        assert side.a < side.b
        name = g.hexside_id(side)
        assert g.parse_hexside(name) == side
        a_id, _, b_part = name.partition("/")
        if g.contains(side.a) and g.contains(side.b):
            assert {a_id, b_part} == {g.id(side.a), g.id(side.b)}
        else:
            assert b_part in g.direction_names
    # Every on-map hex's six sides are there, and nothing else.
    assert set(sides) == {s for h in g.hexes() for s in g.hexsides_of(h)}


@PROPERTY
@given(grids(layout=False, max_size=3), st.integers(-6, 6), st.integers(-6, 6))
def test_each_hexside_key_is_counted_once_for_each_of_its_two_hexes(g, q0, r0):
    """Over all lattice hexes of a window, the multiset of hexside keys holds
    each key once per hex of the key in the window: twice when both hexes are."""
    window = {Hex(q, r) for q in range(q0, q0 + 7) for r in range(r0, r0 + 7)}
    counts = Counter(s for h in window for s in g.hexsides_of(h))
    for side, k in counts.items():
        assert isinstance(side, Hexside) and side.a < side.b
        assert k == (side.a in window) + (side.b in window)
    interior = [h for h in window if all(g.neighbour(h, d) in window for d in range(6))]
    for h in interior:
        assert all(counts[s] == 2 for s in g.hexsides_of(h))
    assert len(set(g.hexsides_of(Hex(q0, r0)))) == 6


@PROPERTY
@given(grid_and_hex(max_size=7, affine=True))
def test_hexside_end_points_are_corners_shared_by_both_hexes(gh):
    g, h = gh
    for d in range(6):
        n = g.neighbour(h, d)
        side = g.hexside(h, n)
        p, q = g.hexside_endpoints(side)
        for hexagon in (h, n):
            corners = g.corners(hexagon)
            assert any(near(p, c, 1e-6) for c in corners)
            assert any(near(q, c, 1e-6) for c in corners)
        # The boundary the two polygons share is the hexside line. (Compared with a
        # hair of tolerance: see the xfail on bit-identical corners below.)
        tol = 1e-6
        shared = g.polygon(h).exterior.intersection(g.polygon(n).buffer(tol))
        line = g.hexside_line(side)
        assert shared.length == pytest.approx(line.length, abs=4 * tol)
        assert shapely.hausdorff_distance(shared, line) < 4 * tol
        # The hexside is perpendicular-ish: it crosses the segment between centres at its middle.
        mid = LineString([g.center(h), g.center(n)]).interpolate(0.5, normalized=True)
        assert line.distance(mid) < 1e-6


# -- polygons -----------------------------------------------------------------------


@PROPERTY
@given(grid_and_hex(max_size=7, affine=True))
def test_neighbouring_polygons_touch_but_do_not_overlap(gh):
    g, h = gh
    poly = g.polygon(h)
    assert poly.is_valid and len(poly.exterior.coords) == 7
    corners = np.array(g.corners(h))
    centre = np.array(g.center(h))
    for d in range(6):
        n = g.neighbour(h, d)
        other = g.polygon(n)
        # Separated by the hexside line: every corner of the neighbour lies on
        # it or beyond it, seen from this hex's centre. (Checked by hand, not by
        # a GEOS overlay, which misbehaves here: see the xfail below.)
        p, q = corners[d - 1], corners[d]
        edge = q - p
        def side(pt, p=p, edge=edge):
            return edge[0] * (pt[1] - p[1]) - edge[1] * (pt[0] - p[0])

        own = np.sign(side(centre))
        scale = float(np.hypot(*edge)) ** 2
        assert all(own * side(c) <= 1e-9 * scale for c in np.array(g.corners(n)))
        assert own * side(np.array(g.center(n))) < 0
        assert poly.distance(other) < 1e-9
    # Not a neighbour: no contact at all.
    two_away = g.neighbour(g.neighbour(h, 0), 0)
    assert poly.distance(g.polygon(two_away)) > 0


@HEAVY
@given(grids(max_size=6, affine=True))
def test_polygons_tile_the_plane_without_gaps(g):
    hexes = g.hexes()
    polys = g.polygons(hexes)
    assert all(p.equals_exact(g.polygon(h), 1e-9) for p, h in zip(polys, hexes, strict=True))
    # A window around the middle hex: the hexes' pieces inside it add up to it.
    cx, cy = g.center(hexes[len(hexes) // 2])
    m = np.abs(np.array(g.layout.matrix)).max()
    window = shapely.box(cx - m, cy - m, cx + m, cy + m)
    candidates = g.hexes_in(window, min_fraction=1e-12)
    pieces = shapely.intersection(g.polygons(candidates), window)
    assert shapely.area(pieces).sum() == pytest.approx(window.area, rel=1e-9)
    # Every hex has the same area: one pitch cell (in pitch units a hex has area
    # 1, one hex per lattice point), i.e. |det| of the layout matrix in pixels.
    areas = shapely.area(polys)
    a, b, c, d = g.layout.matrix
    assert np.allclose(areas, abs(a * d - b * c), rtol=1e-9)
    # The whole map is one piece: no overlaps (areas add up) and no gaps (no
    # holes worth speaking of; see the xfail on bit-identical corners).
    whole = shapely.union_all(polys)
    assert whole.area == pytest.approx(areas.sum(), rel=1e-9)
    closed = whole.buffer(1e-7, join_style="mitre")
    assert closed.geom_type == "Polygon"
    assert sum(shapely.Polygon(ring).area for ring in closed.interiors) < 1e-6


def test_polygons_of_nothing_is_an_empty_array(scenario_grid):
    assert len(scenario_grid.polygons([])) == 0


# -- regions ------------------------------------------------------------------------


@HEAVY
@given(grid_and_hex(max_size=8, affine=True), st.data())
def test_region_made_of_some_hexes_gives_back_those_hexes(gh, data):
    g, _h = gh
    chosen = set(data.draw(st.lists(st.sampled_from(g.hexes()), min_size=1, max_size=8)))
    # Shrunk by a hair (1e-9 of a pitch) so the region's edges are not 1 ulp from
    # the neighbours' edges; the exact union is the strict xfail below.
    hair = 1e-9 * float(np.abs(g.layout.matrix).max())
    region = shapely.union_all(g.polygons(sorted(chosen))).buffer(-hair, join_style="mitre")
    for fraction in (0.5, 0.99, 1.0):
        assert set(g.hexes_in(region, min_fraction=fraction)) == chosen


# Corners are computed per hex as x0 + a*(u0 + cu) + b*(v0 + cv) with cu, cv in
# thirds and halves, so the corner two hexes share comes out 1 ulp apart in about
# 6% of cases (e.g. 0 + 2/3 != 1 - 1/3 in floating point). Two neighbouring
# polygons then do not share their hexside exactly, and GEOS overlays on edges 1
# ulp apart can go badly wrong: below, the region is the union of two hex
# polygons and hexes_in reports a third hex, touching it only along a hexside, as
# 96% inside (GEOS 3.14.1, shapely 2.2.0). Fix: build unit corners from integer
# numerators, e.g. flat u = (6q + k)/6, v = (2r + q + m)/2, so shared corners are
# bit-identical (a prototype made 64,800/64,800 shared corners identical and
# removed every wrong hexes_in result in 1,500 random unions).
def test_region_made_of_two_hexes_gives_back_exactly_those_two():
    g = HexGrid(POINTY, Numbering(first_col=0, first_row=0, stagger="even-right"),
                cols=1, rows=2, layout=Layout(dx=20.0, dy=15.0, x0=0.0, y0=42.0, rotation=-1.0))
    chosen = [Hex(0, 0), Hex(-1, 1)]
    region = shapely.union_all(g.polygons(chosen))
    assert g.hexes_in(region, min_fraction=0.5) == sorted(chosen)


def test_neighbouring_polygons_share_their_hexside_exactly():
    g = HexGrid(FLAT, Numbering(first_col=0, first_row=0), cols=1, rows=1,
                layout=Layout(dx=20.0, dy=15.0))
    h = Hex(0, 0)
    for d in range(6):
        n = g.neighbour(h, d)
        p, q = g.hexside_endpoints(g.hexside(h, n))
        assert p in g.corners(n) and q in g.corners(n), g.direction_names[d]
        shared = g.polygon(h).intersection(g.polygon(n))
        assert shared.length == pytest.approx(g.hexside_line(g.hexside(h, n)).length)


def test_the_union_of_a_maps_hex_polygons_is_one_polygon():
    g = HexGrid(FLAT, Numbering(first_col=0, first_row=0), cols=2, rows=1,
                layout=Layout(dx=20.0, dy=25.0))
    assert shapely.union_all(g.polygons(g.hexes())).geom_type == "Polygon"


def test_intersection_of_two_neighbouring_hex_polygons_has_no_area():
    g = HexGrid(FLAT, Numbering(first_col=0, first_row=0), cols=1, rows=1,
                layout=Layout(dx=20.0, dy=15.0, x0=3.0, y0=0.0, rotation=-1.0))
    h = Hex(0, 0)
    ne = g.neighbour(h, "NE")
    assert g.polygon(h).intersection(g.polygon(ne)).area < 1e-6


def test_region_may_be_a_rectangle_tuple(scenario_grid):
    g = scenario_grid
    h = g.hex("0505")
    minx, miny, maxx, maxy = g.polygon(h).bounds
    assert g.hexes_in((minx, miny, maxx, maxy), min_fraction=0.9) == [h]


@pytest.mark.parametrize("orientation", [FLAT, POINTY])
def test_half_hexes_at_map_edge_are_in_region__001_s10_1_note(orientation):
    """A rectangle cut through a line of centres holds half of each hex on that
    line: they count at min_fraction 0.5 (001_2c092b02feae28f3.txt §10.1 note:
    half hexes on the map are playable) and not at 0.6."""
    word = "even-down" if orientation is FLAT else "even-right"
    g = HexGrid(orientation, Numbering(stagger=word), cols=8, rows=8,
                layout=Layout(dx=47.0, dy=53.0, x0=30.0, y0=30.0))
    cut_line = [g.from_offset(3, r) for r in range(8)] if orientation is FLAT else [
        g.from_offset(c, 3) for c in range(8)]
    cx, cy = g.center(cut_line[0])
    if orientation is FLAT:  # everything right of column 3's centres
        box = (cx, -1000.0, 2000.0, 2000.0)
    else:  # everything below row 3's centres
        box = (-1000.0, cy, 2000.0, 2000.0)
    at_half = set(g.hexes_in(box, min_fraction=0.5, on_map_only=True))
    at_six = set(g.hexes_in(box, min_fraction=0.6, on_map_only=True))
    assert set(cut_line) <= at_half
    assert not set(cut_line) & at_six
    assert at_half - at_six == set(cut_line)
    cover = dict(zip(cut_line, g.coverage(cut_line, shapely.box(*box)), strict=True))
    assert all(v == pytest.approx(0.5) for v in cover.values())


def test_hexes_in_defaults_to_half_hexes_and_may_keep_only_map_hexes(scenario_grid):
    g = scenario_grid
    x0, y0 = g.layout.x0, g.layout.y0
    box = (x0, y0, x0 + 1000, y0 + 1000)  # cuts column 01 and row 01 through centres
    got = set(g.hexes_in(box, on_map_only=True))
    assert g.hex("0101") not in got  # a quarter hex
    assert g.hex("0105") in got and g.hex("0301") in got  # half hexes
    assert g.hex("0201") in got  # even column sits lower: more than half inside
    assert all(g.contains(h) for h in got)
    off_too = set(g.hexes_in(box))
    assert off_too > got and not all(g.contains(h) for h in off_too)


def test_partial_hexes_are_those_the_image_edge_cuts__001_s10_1_note(scenario_grid):
    g = dataclass_replace_layout(scenario_grid, Layout(dx=48.0, dy=55.0, x0=0.0, y0=0.0))
    width, height = 48.0 * 9, 55.0 * 9  # right edge through column 10's centres
    partial = set(g.partial_hexes(width, height))
    ids = {g.id(h) for h in partial}
    # Column 01 and column 10 are cut through their centres; odd columns of row 01
    # are cut through theirs; the bottom row of odd columns ends exactly at the edge.
    assert {f"01{r:02d}" for r in range(1, 11)} <= ids
    assert {f"10{r:02d}" for r in range(1, 10)} <= ids
    assert "1010" not in ids  # even column, lower: wholly below the image
    assert {f"{c:02d}01" for c in range(1, 11, 2)} <= ids
    assert "0505" not in ids and "0201" not in ids
    # Exactly the map hexes whose polygon crosses the image edge.
    image = shapely.box(0, 0, width, height)
    expected = {
        h for h in g.hexes()
        if 1e-6 < g.polygon(h).intersection(image).area / g.polygon(h).area < 1 - 1e-6
    }
    assert partial == expected
    inside = dataclass_replace_layout(g, Layout(dx=48.0, dy=55.0, x0=100.0, y0=100.0))
    assert inside.partial_hexes(2000.0, 2000.0) == []


def dataclass_replace_layout(g: HexGrid, layout: Layout) -> HexGrid:
    return HexGrid(g.orientation, g.numbering, cols=g.cols, rows=g.rows, exclude=g.exclude,
                   layout=layout)


# -- lines on the map (line of sight) ---------------------------------------------


def _hexes_touched_by_segment(g: HexGrid, a: Hex, b: Hex) -> set[Hex]:
    if a == b:
        return {a}
    seg = LineString([g.center(a), g.center(b)])
    cands = g.hexes_in(seg.buffer(1.0), min_fraction=1e-12)
    # A hex counts when a stretch of the segment lies in it or on its boundary
    # (lines along a hexside touch both hexes); touching a corner does not.
    return {h for h in cands if g.polygon(h).buffer(1e-6).intersection(seg).length > 1e-3}


@HEAVY
@given(grids(max_size=6, affine=True), st.data())
def test_line_hexes_all_lie_on_the_drawn_line(g, data):
    """Affine maps keep straight lines straight, so the lattice line is the
    line drawn on the stretched, rotated map: every hex of every step is one
    the segment between the two centres runs through (the converse is the
    strict xfail below)."""
    a = data.draw(st.sampled_from(g.hexes()))
    b = data.draw(st.sampled_from(g.hexes()))
    s = g.sight_line(a, b)
    assert _traced(s) == _hexes_touched_by_segment(g, a, b)


def _traced(s) -> set:
    """Hexes a sight line enters, plus both hexes of each hexside it runs along."""
    return set(s.hexes) | {h for pair in s.along for h in pair}


# line() samples distance+1 points of the segment, one hex per step: a good grid
# path, but the drawn line from 0101 to 0207 (axial (0,0) -> (1,6), 7 steps) also
# runs 8.5 px through each of two more hexes (hex side 30 px), which neither
# line() reports. In 400 random lines within 10 hexes, 125
# missed a crossed hex, by up to 20 px of a 30 px side. A line-of-sight check needs
# every hex and hexside the line traces through (002_9cac1969b0421155.txt,
# "Terrain, Obstacles, and Elevation"), so it needs a true traversal, not sampling.
def test_sight_line_lists_every_hex_the_drawn_line_passes_through():
    g = HexGrid(FLAT, Numbering(), cols=2, rows=7,
                layout=Layout(dx=1.5 * 30, dy=3**0.5 * 30, x0=30.0, y0=30.0))
    a, b = g.hex("0101"), g.hex("0207")
    assert (a, b) == (Hex(0, 0), Hex(1, 6))
    assert _traced(g.sight_line(a, b)) == _hexes_touched_by_segment(g, a, b)
    assert not set(g.line(a, b)) >= _hexes_touched_by_segment(g, a, b)  # why sight_line exists


# A line from 0101 two columns over and three rows down crosses the hexside
# between the two hexes of its middle step at that hexside's midpoint, at an
# angle: the line enters BOTH hexes for ~16 px each. sampling reported the
# pair as a tie ("the line runs exactly along the hexside"), and line() keeps
# only one of them, so a line-of-sight check built on either would miss the
# other hex (002_9cac1969b0421155.txt, "Terrain, Obstacles, and Elevation":
# LOS is blocked if ANY portion of a traced-through hexside has an obstacle bar).
def test_along_means_the_line_runs_along_the_hexside_between_the_pair():
    g = HexGrid(FLAT, Numbering(), cols=8, rows=8,
                layout=Layout(dx=48.0, dy=55.0, x0=40.0, y0=40.0))
    a, b = Hex(0, 0), Hex(1, 3)
    seg = LineString([g.center(a), g.center(b)])
    s = g.sight_line(a, b)
    assert s.along == ()  # this line crosses hexsides at an angle, never along one
    assert _traced(s) == _hexes_touched_by_segment(g, a, b)
    for pair in s.crossed:
        assert g.hexside_line(g.hexside(*pair)).intersection(seg).length < 1e-6


def test_spine_line_ties_do_run_along_the_hexside(scenario_grid):
    g = scenario_grid
    a = g.hex("0303")
    b = g.neighbour(g.neighbour(a, "NE"), "SE")  # two columns right, same height
    assert g.center(b)[1] == pytest.approx(g.center(a)[1])
    seg = LineString([g.center(a), g.center(b)])
    s = g.sight_line(a, b)
    assert s.hexes == (a, b) and len(s.along) == 1
    assert g.hexside_line(g.hexside(*s.along[0])).intersection(seg).length == pytest.approx(
        g.layout.dx * 2 / 3
    )


# -- grid construction errors and misc ------------------------------------------------


def test_stagger_that_does_not_suit_the_orientation_raises_grid_error():
    with pytest.raises(GridError, match="even-right"):
        HexGrid(POINTY, Numbering(stagger="even-down"), cols=3, rows=3)
    with pytest.raises(GridError, match="even-down"):
        HexGrid(FLAT, Numbering(stagger="odd-left"), cols=3, rows=3)


@pytest.mark.parametrize("cols, rows", [(0, 5), (5, 0), (-1, 5)])
def test_grid_needs_at_least_one_column_and_row(cols, rows):
    with pytest.raises(GridError, match="at least one column"):
        HexGrid(FLAT, Numbering(), cols=cols, rows=rows)


def test_unknown_orientation_raises_grid_error():
    with pytest.raises(GridError, match="flat"):
        HexGrid("hexagonal", Numbering(), cols=3, rows=3)  # type: ignore[arg-type]
    assert HexGrid("pointy", Numbering(stagger="odd-right")).orientation is Orientation.POINTY


def test_excluded_ids_are_not_on_the_map():
    g = HexGrid(FLAT, Numbering(), cols=5, rows=5, exclude=frozenset({"0303", "0101"}))
    assert not g.has_id("0303") and not g.has_id("0101") and g.has_id("0302")
    assert len(g.hexes()) == 23
    assert g.hex("0303") not in g.neighbours(g.hex("0302"))
    with pytest.raises(GridError):
        HexGrid(FLAT, Numbering(), cols=5, rows=5, exclude=frozenset({"03x3"}))


def test_hexes_are_listed_column_by_column_or_row_by_row():
    f = HexGrid(FLAT, Numbering(), cols=2, rows=2)
    assert f.ids(f.hexes()) == ["0101", "0102", "0201", "0202"]
    p = HexGrid(POINTY, Numbering(stagger="odd-right"), cols=2, rows=2)
    assert p.ids(p.hexes()) == ["0101", "0201", "0102", "0202"]
    assert f.describe_extent() == "2 columns x 2 rows, 0101 to 0202"


@pytest.mark.slow
@PROPERTY
@given(grids(max_size=6, affine=True), st.data())
def test_hexes_in_with_a_tiny_fraction_keeps_only_hexes_that_overlap_the_region(g, data):
    # Found while testing: min_fraction <= 1e-6 once kept every candidate of the
    # internal search window, overlapping or not (the tolerance made the bar < 0).
    h = data.draw(st.sampled_from(g.hexes()))
    cx, cy = g.center(h)
    w = data.draw(st.floats(1.0, 60.0))
    k = data.draw(st.floats(1.0, 60.0))
    box = shapely.box(cx - w / 2, cy - k / 2, cx + w / 2, cy + k / 2)
    expected = {
        x for x in g.hexes_in(box.buffer(200.0), min_fraction=0.5)
        if g.polygon(x).intersection(box).area > 1e-9
    }
    for fraction in (0.0, 1e-12, 1e-9):
        got = set(g.hexes_in(box, min_fraction=fraction))
        assert h in got
        assert expected <= got
        assert all(g.polygon(x).intersection(box).area > 0 for x in got)


def test_hexside_key_of_non_adjacent_hexes_has_no_name_and_no_end_points(scenario_grid):
    # Found while testing: hexside_id printed '0101/0608' for a hand-made key.
    g = scenario_grid
    bad = Hexside(g.hex("0101"), g.hex("0608"))
    with pytest.raises(GridError, match="not adjacent"):
        g.hexside_id(bad)
    with pytest.raises(GridError, match="not adjacent"):
        g.hexside_endpoints(bad)


@pytest.mark.parametrize("orientation", [FLAT, POINTY])
def test_corners_and_rings_go_clockwise_on_screen(orientation):
    # On screen y points down, so clockwise on screen is counter-clockwise in
    # shapely's y-up sense.
    word = "even-down" if orientation is FLAT else "even-right"
    g = HexGrid(orientation, Numbering(stagger=word), cols=8, rows=8,
                layout=Layout(dx=40.0, dy=47.0, x0=300.0, y0=300.0, rotation=4.0))
    from shapely.geometry import LinearRing

    from pipeline.hexgrid import ring

    h = g.hex("0404")
    assert LinearRing(g.corners(h)).is_ccw
    assert LinearRing([g.center(x) for x in ring(h, 2)]).is_ccw
    # Side i of the direction order runs from corner i-1 to corner i.
    corners = g.corners(h)
    for d in range(6):
        p, q = g.hexside_endpoints(g.hexside_at(h, d))
        ends = sorted([p, q])
        want = sorted([corners[d - 1], corners[d]])
        assert all(near(x, y, 1e-9) for x, y in zip(ends, want, strict=True))


@HEAVY
@given(
    st.sampled_from([FLAT, POINTY]),
    st.builds(Hex, st.integers(-12, 12), st.integers(-12, 12)),
    st.builds(Hex, st.integers(-12, 12), st.integers(-12, 12)),
)
def test_long_lines_on_the_lattice_pass_only_through_drawn_hexes(orientation, a, b):
    word = "even-down" if orientation is FLAT else "even-right"
    g = HexGrid(orientation, Numbering(stagger=word), cols=1, rows=1,
                layout=Layout(dx=37.0, dy=52.0, x0=11.0, y0=-7.0, rotation=-3.0))
    assert _traced(g.sight_line(a, b)) == _hexes_touched_by_segment(g, a, b)
