"""Several boards placed on one hex lattice: a map of two boards played as one.

Each board keeps its own printed numbering (``A2519``, ``B0101``); placing a
board is a translation of its axial lattice into the first board's, which is
exact for any offset because axial coordinates step the same way everywhere.
The joined grid answers the questions a :class:`HexGrid` answers (ids,
neighbours across the seam, hexsides, distances) in the first board's lattice.

>>> from pipeline.hexgrid import HexGrid, Numbering, Orientation
>>> a = HexGrid(Orientation.FLAT, Numbering(stagger="even-down", prefix="A"), 4, 3)
>>> b = HexGrid(Orientation.FLAT, Numbering(stagger="even-down", prefix="B"), 4, 3)
>>> g = join_grids([(a, Hex(0, 0)), (b, board_shift(a, "A0501", b, "B0101"))])
>>> sorted(g.id(n) for n in g.neighbours(g.hex("A0402")))
['A0302', 'A0303', 'A0401', 'A0403', 'B0102', 'B0103']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from pipeline.errors import GridError
from pipeline.hexgrid.coords import Hex
from pipeline.hexgrid.grid import HexGrid

__all__ = ["JoinedGrid", "board_shift", "join_grids"]


@dataclass(frozen=True)
class JoinedGrid(HexGrid):
    """Boards on one lattice; the first board's numbering names hexes off every board.

    ``parts`` holds each board's grid and the axial shift that places it.
    """

    parts: tuple[tuple[HexGrid, Hex], ...] = ()

    def _part_of(self, h: Hex) -> tuple[HexGrid, Hex] | None:
        for grid, (dq, dr) in self.parts:
            local = Hex(h.q - dq, h.r - dr)
            if grid.contains(local):
                return grid, local
        return None

    def hex(self, hex_id: str) -> Hex:
        """The hex an id names, on whichever board prints it (else the first board's
        lattice, off the map)."""
        for grid, (dq, dr) in self.parts:
            if grid.has_id(hex_id):
                h = grid.hex(hex_id)
                return Hex(h.q + dq, h.r + dr)
        return super().hex(hex_id)

    def id(self, h: Hex) -> str:
        """The id the board holding ``h`` prints (the first board's numbering off them)."""
        found = self._part_of(h)
        return found[0].id(found[1]) if found is not None else super().id(h)

    def has_id(self, hex_id: str) -> bool:
        """Whether some board prints this id."""
        return any(grid.has_id(hex_id) for grid, _ in self.parts)

    @cached_property
    def _on_map(self) -> frozenset[Hex]:
        return frozenset(Hex(h.q + dq, h.r + dr)
                         for grid, (dq, dr) in self.parts for h in grid.hexes())

    def describe_extent(self) -> str:
        """Every board's id range."""
        return "; ".join(grid.describe_extent() for grid, _ in self.parts)


def board_shift(first: HexGrid, at: str, board: HexGrid, hex_id: str) -> Hex:
    """The shift that puts ``board``'s hex ``hex_id`` where ``first``'s numbering puts
    ``at`` (an id that may lie beyond the first board's edge)."""
    if first.orientation is not board.orientation:
        raise GridError(f"a {board.orientation.value}-top board cannot join a"
                        f" {first.orientation.value}-top one")
    if not board.has_id(hex_id):
        raise GridError(f"hex '{hex_id}' is not on the board ({board.describe_extent()})")
    target, source = first.hex(at), board.hex(hex_id)
    return Hex(target.q - source.q, target.r - source.r)


def join_grids(parts: Sequence[tuple[HexGrid, Hex]]) -> JoinedGrid:
    """Boards shifted onto one lattice; two boards may not print the same hex."""
    if not parts:
        raise GridError("no boards to join")
    seen: dict[Hex, str] = {}
    for grid, (dq, dr) in parts:
        for h in grid.hexes():
            placed = Hex(h.q + dq, h.r + dr)
            if placed in seen:
                raise GridError(f"the boards overlap: {grid.id(h)} falls on {seen[placed]}")
            seen[placed] = grid.id(h)
    first = parts[0][0]
    return JoinedGrid(first.orientation, first.numbering, first.cols, first.rows,
                      first.exclude, first.layout, tuple(parts))
