"""A bocage grid as a VASSAL ``HexGrid`` + ``HexGridNumbering`` that names every hex as printed.

VASSAL numbers raw columns from an integer origin, puts odd raw columns half a
hex lower, and names them ``column + hOff`` / ``row + vOff`` (reference
``vassal-format.md`` §5). We never use its ``stagger`` option: instead, when a
map's lower columns are the even ones, raw column 0 is a virtual column left of
the map (recipe B2 of §5.3), which keeps names right with descending numbering
too, where VASSAL's stagger disagrees with itself. Pointy-top maps are VASSAL's
``sideways`` grids (x and y swapped), so a printed column is VASSAL's *row*
part. Board prefixes go into ``locationFormat`` (``A$gridLocation$``).

Every choice is then proved: for every hex of the map, VASSAL's name of its
centre is the printed id, and VASSAL's point for the printed id is within 1 px
of the centre (:func:`prove_grid`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pipeline.errors import GridError
from pipeline.hexgrid import HexGrid, Layout, Orientation
from pipeline.vassal.location import VassalHexGrid, VassalNumbering, java_int

__all__ = ["GridPlan", "prove_grid", "vassal_grid"]

# How far (px) VASSAL's point of a hex may be from the true centre.
TOLERANCE = 1.0


@dataclass(frozen=True)
class GridPlan:
    """The VASSAL grid of one board, with the worst centre error found by the proof."""

    grid: VassalHexGrid
    max_error: float

    def hex_grid_attributes(self) -> dict[str, str]:
        """Attributes of ``BP.board.HexGrid``."""
        g = self.grid
        return {
            "color": "0,0,0", "cornersLegal": "false", "dotsVisible": "false",
            "dx": repr(float(g.dx)), "dy": repr(float(g.dy)), "edgesLegal": "false",
            "sideways": str(g.sideways).lower(), "snapTo": "true", "visible": "false",
            "x0": str(g.x0), "y0": str(g.y0),
        }

    def numbering_attributes(self) -> dict[str, str]:
        """Attributes of ``BP.board.mapgrid.HexGridNumbering`` (numbers not drawn)."""
        return {**self.grid.numbering.attributes(), "color": "0,0,0", "fontSize": "9",
                "hDrawOff": "0", "rotateText": "0", "vDrawOff": "0", "visible": "false"}


def _axis_aligned(layout: Layout) -> tuple[float, float]:
    a, b, c, d = layout.matrix
    if abs(b) > 1e-9 or abs(c) > 1e-9 or a <= 0 or d <= 0:
        raise GridError("the grid layout is rotated or sheared: resample the board image first"
                        " (pipeline.vassal.board.prepare_board does it)")
    return a, d


def _centres(grid: HexGrid, layout: Layout) -> list[tuple[str, float, float]]:
    return [(grid.id(h), *layout.center(h, grid.orientation)) for h in grid.hexes()]


def _check_format_text(text: str, what: str) -> None:
    # '$' delimits properties in locationFormat; a backslash before it escapes it.
    if "$" in text or "\\" in text:
        raise GridError(f"{what} {text!r} contains '$' or '\\', which VASSAL's location"
                        " format cannot hold")


def vassal_grid(grid: HexGrid, width: int, height: int) -> GridPlan:
    """The VASSAL grid naming every hex of ``grid`` as printed, on a ``width`` x ``height`` board.

    Parameters
    ----------
    grid
        A bocage grid with an axis-aligned :class:`~pipeline.hexgrid.Layout` in the
        board image's pixels (resample rotated boards first).
    width, height
        Board image size in pixels (VASSAL's descending numbering depends on it).

    Raises
    ------
    GridError
        No layout, a rotated layout, or a numbering VASSAL 3.6 cannot express
        (the proof failed for some hex; the message names it).

    Examples
    --------
    >>> from pipeline.hexgrid import HexGrid, Layout, Numbering, Orientation
    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=3, rows=2,
    ...             layout=Layout(dx=54.0, dy=62.0, x0=40.0, y0=40.0))
    >>> plan = vassal_grid(g, 300, 300)
    >>> plan.grid.location_name(*plan.grid.location_point("0201")), plan.grid.numbering.stagger
    ('0201', False)
    """
    if grid.layout is None:
        raise GridError("the grid has no pixel layout (dx, dy, x0, y0) on the board image")
    pitch_x, pitch_y = _axis_aligned(grid.layout)
    numbering = grid.numbering
    _check_format_text(numbering.prefix, "board prefix")
    _check_format_text(numbering.separator, "separator")
    sideways = grid.orientation is Orientation.POINTY
    # VASSAL's frame: u runs across its columns, v along them (x/y, swapped if sideways).
    pitch_u, pitch_v = (pitch_y, pitch_x) if sideways else (pitch_x, pitch_y)
    # Lines (columns, or rows when pointy) of this lattice parity sit half a hex further on.
    shifted = numbering.shifted_parity()
    virtual = 0 if shifted == 1 else 1  # VASSAL's lower lines are the odd raw ones
    origin_x, origin_y = grid.layout.x0, grid.layout.y0
    u0_true, v0_true = (origin_y, origin_x) if sideways else (origin_x, origin_y)
    u0_true -= virtual * pitch_u
    v0_true -= virtual * pitch_v / 2

    cols = numbering.first_col, numbering.col_digits, numbering.descending_cols
    rows = numbering.first_row, numbering.row_digits, numbering.descending_rows
    if sideways:  # the printed row is VASSAL's column part, the printed column its row part
        c_first, c_digits, c_desc = rows
        r_first, r_digits, r_desc = cols
        first = "H" if numbering.row_first else "V"
    else:
        c_first, c_digits, c_desc = cols
        r_first, r_digits, r_desc = rows
        first = "V" if numbering.row_first else "H"
    probe = VassalHexGrid(dx=pitch_u, dy=pitch_v, width=width, height=height, sideways=sideways)
    max_c = probe.max_rows() if sideways else probe.max_columns()
    max_r = probe.max_columns() if sideways else probe.max_rows()
    c_off = c_first + virtual - max_c if c_desc else c_first - virtual
    r_off = r_first - max_r if r_desc else r_first
    h_off, v_off = c_off, r_off
    h_desc, v_desc = (r_desc, c_desc) if sideways else (c_desc, r_desc)
    vnum = VassalNumbering(
        first=first, sep=numbering.separator,
        h_leading=c_digits - 1, v_leading=r_digits - 1, h_off=h_off, v_off=v_off,
        h_descend=h_desc, v_descend=v_desc, stagger=False,
        location_format=f"{numbering.prefix}$gridLocation$",
    )
    centres = _centres(grid, grid.layout)
    best: GridPlan | None = None
    # x0/y0 must be integers: try both neighbours of the true origin, keep the closer fit.
    for u0 in (math.floor(u0_true), math.floor(u0_true) + 1):
        for v0 in (math.floor(v0_true), math.floor(v0_true) + 1):
            x0, y0 = int(u0), int(v0)
            candidate = VassalHexGrid(dx=pitch_u, dy=pitch_v, x0=x0, y0=y0, sideways=sideways,
                                      numbering=vnum, width=width, height=height)
            error = max((_error(candidate, hx, cx, cy) for hx, cx, cy in centres), default=0.0)
            if best is None or error < best.max_error:
                best = GridPlan(candidate, error)
    assert best is not None
    prove_grid(best.grid, centres)
    return best


def _error(grid: VassalHexGrid, hex_id: str, cx: float, cy: float) -> float:
    point = grid.location_point(hex_id)
    if point is None:
        return math.inf
    return max(abs(point[0] - cx), abs(point[1] - cy))


def prove_grid(grid: VassalHexGrid, centres: list[tuple[str, float, float]]) -> None:
    """Check that VASSAL names every centre as printed and places every id on its centre.

    Parameters
    ----------
    grid
        The VASSAL grid.
    centres
        ``(printed id, x, y)`` of every hex, in board pixels.

    Raises
    ------
    GridError
        Naming the first hex that VASSAL would name or place differently.
    """
    for hex_id, cx, cy in centres:
        name = grid.location_name(java_int(round(cx)), java_int(round(cy)))
        if name != hex_id:
            raise GridError(f"VASSAL would name hex {hex_id} '{name}' (centre {cx:.1f},{cy:.1f});"
                            " this numbering cannot be expressed in VASSAL 3.6")
        point = grid.location_point(hex_id)
        if point is None:
            raise GridError(f"VASSAL cannot read the location name '{hex_id}' back with this"
                            " numbering (ids with unequal digit counts and no separator?)")
        if max(abs(point[0] - cx), abs(point[1] - cy)) > TOLERANCE:
            raise GridError(f"VASSAL would put hex {hex_id} at {point}, more than {TOLERANCE:g} px"
                            f" from its centre ({cx:.1f},{cy:.1f})")
        snapped = grid.snap(*point)
        if grid.location_name(*snapped) != hex_id:
            raise GridError(f"a piece dropped on hex {hex_id} would snap to"
                            f" '{grid.location_name(*snapped)}'")
