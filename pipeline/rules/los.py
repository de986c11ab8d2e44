"""What a line of sight touches: the hexsides and hexes it traces through.

The tactical player aid (002_9cac1969b0421155.txt, "Always apply LOS rules in
favor of the defender") blocks LOS when "ANY portion of a traced-through hex
side" carries a coloured bar. This module answers the geometric half of that
question exactly, with :meth:`HexGrid.sight_line` (no sampling): which
hexsides the straight line between two hex centres crosses, runs along, or
touches at a corner, and which hexes lie on it. Which of those block is the
rule system's business.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.hexgrid import Hex, HexGrid, Hexside

__all__ = ["Trace", "trace"]


@dataclass(frozen=True)
class Trace:
    """The hexsides and hexes a sight line between two hexes touches.

    Attributes
    ----------
    crossed
        Hexsides the line passes across, in order from the start.
    along
        Hexsides the line runs along (it lies on them), in order.
    at_corners
        Hexsides the line touches only at an end corner, where it passes
        exactly through a corner of the grid; not already in ``crossed`` or
        ``along``.
    between
        Hexes whose interior the line passes through, without the two ends.
    grazed
        Hexes the line only touches (along one of their hexsides or at a
        corner), without the two ends and the hexes of ``between``.
    """

    crossed: tuple[Hexside, ...]
    along: tuple[Hexside, ...]
    at_corners: tuple[Hexside, ...]
    between: tuple[Hex, ...]
    grazed: tuple[Hex, ...]


def trace(grid: HexGrid, a: Hex, b: Hex) -> Trace:
    """Trace the line from the centre of ``a`` to the centre of ``b`` exactly.

    The answer does not depend on the direction: the same segment is traced
    either way (only the order of each tuple is reversed).

    >>> from pipeline.hexgrid import Numbering, Orientation
    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=3, rows=6)
    >>> t = trace(g, g.hex("0201"), g.hex("0204"))
    >>> [g.hexside_id(s) for s in t.crossed], t.along, t.at_corners, g.ids(t.between)
    (['0201/0202', '0202/0203', '0203/0204'], (), (), ['0202', '0203'])
    """
    line = grid.sight_line(a, b)
    crossed = tuple(Hexside(*pair) for pair in line.crossed)
    along = tuple(Hexside(*pair) for pair in line.along)
    seen = set(crossed) | set(along)
    at_corners: list[Hexside] = []
    for x, y, z in line.corners:
        for side in (Hexside(*sorted((x, y))), Hexside(*sorted((x, z))),
                     Hexside(*sorted((y, z)))):
            if side not in seen:
                seen.add(side)
                at_corners.append(side)
    ends = {a, b}
    between = tuple(h for h in line.hexes if h not in ends)
    inner = set(between) | ends
    grazed: list[Hex] = []
    touched = [h for side in along for h in side] + [h for c in line.corners for h in c]
    for h in touched:
        if h not in inner:
            inner.add(h)
            grazed.append(h)
    return Trace(crossed, along, tuple(at_corners), between, tuple(grazed))
