"""Axial lattice: directions, distance, rings, straight lines, offset conversion."""

from __future__ import annotations

import itertools
from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.hexgrid import (
    AXIAL_DIRECTIONS,
    Hex,
    Orientation,
    axial_to_offset,
    direction_names,
    distance,
    line,
    offset_to_axial,
    ring,
    sight_line,
)

from .conftest import FLAT, POINTY, PROPERTY, lattice_hexes


def test_direction_names_are_in_the_fixed_clockwise_order():
    assert direction_names(FLAT) == ("N", "NE", "SE", "S", "SW", "NW")
    assert direction_names(POINTY) == ("NE", "E", "SE", "SW", "W", "NW")


def test_axial_directions_are_the_six_unit_steps_and_opposites_are_three_apart():
    assert len(set(AXIAL_DIRECTIONS)) == 6
    for i, (dq, dr) in enumerate(AXIAL_DIRECTIONS):
        assert distance(Hex(0, 0), Hex(dq, dr)) == 1
        oq, orr = AXIAL_DIRECTIONS[(i + 3) % 6]
        assert (dq + oq, dr + orr) == (0, 0)


def test_cube_coordinate_sums_to_zero():
    h = Hex(3, -5)
    assert h.q + h.r + h.s == 0


def test_hexes_order_by_q_then_r():
    assert sorted([Hex(1, 0), Hex(0, 5), Hex(0, -1)]) == [Hex(0, -1), Hex(0, 5), Hex(1, 0)]


# -- distance -----------------------------------------------------------------------

WINDOW = 9  # BFS window: every hex within WINDOW steps of the origin


def _bfs_from_origin() -> dict[Hex, int]:
    """Shortest path lengths over the six lattice steps, computed by search."""
    seen = {Hex(0, 0): 0}
    todo = deque([Hex(0, 0)])
    while todo:
        h = todo.popleft()
        if seen[h] == WINDOW:
            continue
        for dq, dr in AXIAL_DIRECTIONS:
            n = Hex(h.q + dq, h.r + dr)
            if n not in seen:
                seen[n] = seen[h] + 1
                todo.append(n)
    return seen


BFS = _bfs_from_origin()


def test_distance_equals_shortest_path_length_in_a_window():
    # The window of hexes within 9 steps holds every shortest path between its hexes.
    assert len(BFS) == 1 + 3 * WINDOW * (WINDOW + 1)
    for h, steps in BFS.items():
        assert distance(Hex(0, 0), h) == steps


@PROPERTY
@given(st.sampled_from(sorted(BFS)), lattice_hexes(-40, 40))
def test_distance_is_translation_invariant_shortest_path_length(h, shift):
    a = Hex(shift.q, shift.r)
    b = Hex(shift.q + h.q, shift.r + h.r)
    assert distance(a, b) == distance(b, a) == BFS[h]


@PROPERTY
@given(lattice_hexes(), lattice_hexes(), lattice_hexes())
def test_distance_obeys_the_triangle_inequality(a, b, c):
    assert distance(a, c) <= distance(a, b) + distance(b, c)
    assert (distance(a, b) == 0) == (a == b)


# -- rings --------------------------------------------------------------------------


@PROPERTY
@given(lattice_hexes(), st.integers(0, 8))
def test_ring_holds_every_hex_at_exactly_that_distance_in_a_closed_walk(c, k):
    hexes = ring(c, k)
    assert len(hexes) == max(1, 6 * k)
    assert len(set(hexes)) == len(hexes)
    assert all(distance(c, h) == k for h in hexes)
    if k:
        for a, b in zip(hexes, hexes[1:] + hexes[:1], strict=True):
            assert distance(a, b) == 1
    expected = {Hex(c.q + h.q, c.r + h.r) for h, d in BFS.items() if d == k}
    assert set(hexes) == expected


# -- lines --------------------------------------------------------------------------


@PROPERTY
@given(lattice_hexes(), lattice_hexes())
def test_line_runs_from_a_to_b_one_adjacent_hex_per_step(a, b):
    hexes = line(a, b)
    assert hexes[0] == a and hexes[-1] == b
    assert len(hexes) == distance(a, b) + 1
    for x, y in itertools.pairwise(hexes):
        assert distance(x, y) == 1
    # Each hex is one step further from a and one closer to b.
    assert [distance(a, h) for h in hexes] == list(range(len(hexes)))


@PROPERTY
@given(lattice_hexes(), lattice_hexes(), st.sampled_from([FLAT, POINTY]))
def test_sight_line_starts_at_a_ends_at_b_and_steps_through_touching_hexes(a, b, orientation):
    s = sight_line(a, b, orientation)
    assert s.hexes[0] == a and s.hexes[-1] == b
    assert len(set(s.hexes)) == len(s.hexes)
    # The line's hexes include the grid path's: sampling never finds a hex the
    # exact trace does not.
    assert set(line(a, b)) <= set(s.hexes) | {h for pair in s.along for h in pair}
    for pair in s.crossed + s.along:
        x, y = pair
        assert x < y and distance(x, y) == 1
    for trio in s.corners:
        assert all(distance(x, y) == 1 for x in trio for y in trio if x != y)


@PROPERTY
@given(lattice_hexes(), lattice_hexes(), st.sampled_from([FLAT, POINTY]))
def test_sight_line_is_the_same_both_ways(a, b, orientation):
    forward, backward = sight_line(a, b, orientation), sight_line(b, a, orientation)
    assert forward.hexes == backward.hexes[::-1]
    assert forward.crossed == backward.crossed[::-1]
    assert forward.along == backward.along[::-1]
    assert forward.corners == backward.corners[::-1]


def test_sight_line_along_a_hexside_spine_runs_along_every_other_step():
    # Cube direction (2, -1, -1) runs along the hexsides between the hexes on
    # either side, through a corner at each end of each such hexside.
    s = sight_line(Hex(0, 0), Hex(4, -2), FLAT)
    assert s.hexes == (Hex(0, 0), Hex(2, -1), Hex(4, -2))
    assert s.along == ((Hex(1, -1), Hex(1, 0)), (Hex(3, -2), Hex(3, -1)))
    assert s.crossed == ()
    assert len(s.corners) == 4


def test_sight_line_along_a_lattice_axis_crosses_each_hexside():
    s = sight_line(Hex(0, 0), Hex(0, 3), FLAT)
    assert s.hexes == tuple(Hex(0, r) for r in range(4))
    assert s.crossed == tuple((Hex(0, r), Hex(0, r + 1)) for r in range(3))
    assert s.along == () and s.corners == ()
    assert line(Hex(2, 2), Hex(2, 2)) == [Hex(2, 2)]
    assert sight_line(Hex(2, 2), Hex(2, 2)).hexes == (Hex(2, 2),)


# -- offset <-> axial ---------------------------------------------------------------


@PROPERTY
@given(
    st.sampled_from([FLAT, POINTY]),
    st.integers(0, 1),
    st.integers(-50, 50),
    st.integers(-50, 50),
)
def test_offset_and_axial_conversions_are_inverse(orientation, shifted, col, row):
    h = offset_to_axial(col, row, orientation, shifted)
    assert axial_to_offset(h, orientation, shifted) == (col, row)
    assert offset_to_axial(*axial_to_offset(h, orientation, shifted), orientation, shifted) == h


@pytest.mark.parametrize("shifted", [0, 1])
def test_flat_offset_columns_are_straight_and_the_shifted_parity_sits_lower(shifted):
    # Along a lattice column, rows step by the S vector (0, +1).
    for col in range(-3, 4):
        hexes = [offset_to_axial(col, row, Orientation.FLAT, shifted) for row in range(5)]
        assert all(b.q == a.q and b.r == a.r + 1 for a, b in itertools.pairwise(hexes))
    # A shifted column's hex (col, 0) is the SE neighbour of (col-1, 0); an
    # unshifted one is the NE neighbour.
    for col in range(-3, 4):
        left = offset_to_axial(col - 1, 0, Orientation.FLAT, shifted)
        here = offset_to_axial(col, 0, Orientation.FLAT, shifted)
        step = (here.q - left.q, here.r - left.r)
        assert step == ((1, 0) if col % 2 == shifted else (1, -1))


@pytest.mark.parametrize("shifted", [0, 1])
def test_pointy_offset_rows_are_straight_and_the_shifted_parity_sits_right(shifted):
    for row in range(-3, 4):
        above = offset_to_axial(0, row - 1, Orientation.POINTY, shifted)
        here = offset_to_axial(0, row, Orientation.POINTY, shifted)
        step = (here.q - above.q, here.r - above.r)
        # Pointy centre u = q + r/2: SE is (0, +1), SW is (-1, +1).
        assert step == ((0, 1) if row % 2 == shifted else (-1, 1))
