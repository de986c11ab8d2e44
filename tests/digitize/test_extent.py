"""Placing a grid of known size on the printed lattice, and the printed field without one.

The evidence is each lattice hex's share of inked sides; here it is made up directly,
the way a sheet shows it: map hexes fully outlined, hexes beyond an edge with the three
sides they share, a key and margins with little or none.
"""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.digitize.extent import connected_field, frame_hexes, place_grid
from pipeline.errors import GridError
from pipeline.hexgrid import Hex, HexGrid, Numbering, Orientation


def _grid(cols: int, rows: int, stagger: str = "even-down") -> HexGrid:
    orientation = Orientation.FLAT if stagger.endswith("down") else Orientation.POINTY
    return HexGrid(orientation, Numbering(stagger=stagger), cols=cols, rows=rows)


def _sheet(printed: HexGrid, origin: Hex, *, beyond: float = 0.5, key: set[Hex] = frozenset(),
           cut: bool = False) -> tuple[list[Hex], np.ndarray]:
    """Lattice hexes around a printed map at ``origin`` and their inked shares."""
    field = {Hex(h.q + origin.q, h.r + origin.r) for h in printed.hexes()}
    lattice = [Hex(q, r) for q in range(-4, printed.cols + 10)
               for r in range(-printed.cols - 4, printed.rows + 6)]
    edge = {h for h in field if any(Hex(h.q + dq, h.r + dr) not in field
                                    for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1),
                                                   (0, 1)))}
    near = {Hex(h.q + dq, h.r + dr) for h in field
            for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))} - field
    share = []
    for h in lattice:
        if h in field:
            share.append(4 / 6 if cut and h in edge else 1.0)
        elif h in key:
            share.append(1.0)
        elif h in near:
            share.append(beyond)
        else:
            share.append(0.0)
    return lattice, np.array(share)


def test_the_placement_that_shows_the_most_outline_wins():
    g = _grid(12, 9)
    lattice, share = _sheet(g, Hex(3, -1))
    assert place_grid(lattice, share, g) == Hex(3, -1)


def test_a_key_drawn_apart_does_not_move_the_map():
    g = _grid(12, 9)
    key = {Hex(q, r) for q in range(17, 19) for r in range(-8, -2)}
    lattice, share = _sheet(g, Hex(2, 0), key=key)
    assert place_grid(lattice, share, g) == Hex(2, 0)


def test_a_map_cut_by_its_frame_keeps_its_edge_hexes():
    # The outer hexes show only the four sides they share; what lies beyond shows three.
    g = _grid(12, 9)
    lattice, share = _sheet(g, Hex(1, 0), cut=True)
    assert place_grid(lattice, share, g) == Hex(1, 0)


def test_a_printed_grid_larger_than_the_size_given_is_named():
    printed = _grid(13, 9)
    lattice, share = _sheet(printed, Hex(2, 0))
    with pytest.raises(GridError, match=r"found 117 hexes in 13 columns x 9 rows on the scan,"
                                        r" but the grid file says 12 x 9 \(108 hexes\)$"):
        place_grid(lattice, share, _grid(12, 9))


def test_the_other_stagger_is_suggested():
    lattice, share = _sheet(_grid(12, 9, "odd-down"), Hex(2, 0))
    with pytest.raises(GridError, match="try stagger 'odd-down'"):
        place_grid(lattice, share, _grid(12, 9, "even-down"))


def test_two_equally_good_placements_are_refused():
    # A faintly printed grid (two sides of six lost to the screen) one row taller than
    # said: one row more above or below is as good, and no line is printed whole.
    g = _grid(12, 9)
    lattice, share = _sheet(g, Hex(2, 0))
    share = np.where(share == 1.0, 4 / 6, share)
    with pytest.raises(GridError, match="room for 12 x 8 hexes in more than one place"):
        place_grid(lattice, share, _grid(12, 8))


def test_no_room_for_the_grid_is_refused():
    lattice = [Hex(q, r) for q in range(4) for r in range(4)]
    with pytest.raises(GridError, match="no room for 12 x 9 hexes"):
        place_grid(lattice, np.ones(len(lattice)), _grid(12, 9))


def test_the_printed_field_is_the_largest_connected_one_and_frames_itself():
    g = _grid(10, 7, "odd-down")
    field = list(g.hexes())
    key = [Hex(q, -20) for q in range(14, 17)]  # a row of key swatches far off
    hexes = field + key
    present = np.ones(len(hexes), bool)
    found = connected_field(hexes, present)
    assert sorted(found) == sorted(field)
    assert connected_field(hexes, present, seeds=[key[0]]) == sorted(key)
    grid, origin = frame_hexes(found, Orientation.FLAT)
    assert (grid.cols, grid.rows, grid.numbering.stagger, origin) == (10, 7, "odd-down",
                                                                      Hex(0, 0))


def test_pointy_grids_are_placed_the_same_way():
    g = _grid(11, 8, "even-right")
    lattice, share = _sheet(g, Hex(-1, 2))
    assert place_grid(lattice, share, g) == Hex(-1, 2)
