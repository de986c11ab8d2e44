"""Boards joined on one lattice (pipeline.hexgrid.joined)."""

from __future__ import annotations

import pytest

from pipeline.errors import GridError
from pipeline.hexgrid import (
    Hex,
    HexGrid,
    Numbering,
    Orientation,
    board_shift,
    distance,
    join_grids,
)


def board(prefix: str, cols: int = 4, rows: int = 3, stagger: str = "even-down",
          orientation: Orientation = Orientation.FLAT) -> HexGrid:
    return HexGrid(orientation, Numbering(stagger=stagger, prefix=prefix), cols, rows)


def east_of_a() -> tuple[HexGrid, HexGrid, HexGrid]:
    a, b = board("A"), board("B")
    return a, b, join_grids([(a, Hex(0, 0)), (b, board_shift(a, "A0501", b, "B0101"))])


def test_ids_are_each_boards_own():
    a, b, g = east_of_a()
    assert len(g.hexes()) == 24 and g.has_id("A0403") and g.has_id("B0403")
    assert not g.has_id("B0404") and not g.has_id("A0501")
    for hex_id in ("A0101", "A0403", "B0101", "B0403"):
        assert g.id(g.hex(hex_id)) == hex_id
    assert g.describe_extent() == f"{a.describe_extent()}; {b.describe_extent()}"


def test_the_seam_is_crossed_like_any_hexside():
    """B0101 sits where A0501 would: it neighbours A0401 (A's column 04 is even, down)."""
    _, _, g = east_of_a()
    assert g.adjacent(g.hex("A0401"), g.hex("B0101"))
    assert g.adjacent(g.hex("A0402"), g.hex("B0102"))
    assert not g.adjacent(g.hex("A0301"), g.hex("B0101"))
    assert distance(g.hex("A0101"), g.hex("B0401")) == 7
    side = g.hexside(g.hex("A0401"), g.hex("B0101"))
    assert g.hexside_id(side) == "A0401/B0101"


def test_a_board_placed_on_an_odd_shift_keeps_its_own_stagger():
    """Shifted down a row, B's hexes keep their printed neighbours: B0202's six."""
    a, b = board("A"), board("B", rows=4)
    g = join_grids([(a, Hex(0, 0)), (b, board_shift(a, "A0502", b, "B0101"))])
    around = sorted(g.id(n) for n in g.neighbours(g.hex("B0202")))
    assert around == sorted(b.id(n) for n in b.neighbours(b.hex("B0202")))


def test_overlapping_boards_are_refused():
    a, b = board("A"), board("B")
    with pytest.raises(GridError, match="the boards overlap: B0101 falls on A0401"):
        join_grids([(a, Hex(0, 0)), (b, board_shift(a, "A0401", b, "B0101"))])


def test_orientations_must_agree():
    a = board("A")
    b = board("B", stagger="even-right", orientation=Orientation.POINTY)
    with pytest.raises(GridError, match="pointy-top board cannot join a flat-top one"):
        board_shift(a, "A0501", b, "B0101")
