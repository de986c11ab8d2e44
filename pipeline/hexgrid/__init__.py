"""Hex geometry and numbering: no file I/O, no terrain.

Hexes are axial coordinates on an infinite lattice (:class:`Hex`); a
:class:`HexGrid` says which of them a map prints and under which ids, and,
with a :class:`Layout`, where they sit on an image.

>>> from pipeline.hexgrid import HexGrid, Numbering, Orientation
>>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=25, rows=22)
>>> g.id(g.neighbour(g.hex("0303"), "NE"))
'0402'
"""

from pipeline.hexgrid.coords import (
    AXIAL_DIRECTIONS,
    Hex,
    Orientation,
    axial_to_offset,
    direction_names,
    distance,
    line,
    offset_to_axial,
    ring,
)
from pipeline.hexgrid.grid import HALF_HEX, HexGrid, Hexside
from pipeline.hexgrid.joined import JoinedGrid, board_shift, join_grids
from pipeline.hexgrid.layout import Layout
from pipeline.hexgrid.numbering import STAGGERS, Numbering
from pipeline.hexgrid.sightline import SightLine, sight_line

__all__ = [
    "AXIAL_DIRECTIONS",
    "HALF_HEX",
    "STAGGERS",
    "Hex",
    "HexGrid",
    "Hexside",
    "JoinedGrid",
    "Layout",
    "Numbering",
    "Orientation",
    "SightLine",
    "axial_to_offset",
    "board_shift",
    "direction_names",
    "distance",
    "join_grids",
    "line",
    "offset_to_axial",
    "ring",
    "sight_line",
]
