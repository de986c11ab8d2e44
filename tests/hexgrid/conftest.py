"""Hypothesis strategies for hex grids, and a reference model written from the spec.

The reference model (:func:`ref_lattice`, :func:`ref_neighbours`,
:func:`ref_format`) works in printed numbers and offset coordinates, exactly as
SCENARIOS.md §1 states the convention, generalised to every stagger word,
descending numbering, prefixes and separators. It deliberately shares no code
with ``pipeline.hexgrid`` so the tests check the code against the spec, not
against itself.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from pipeline.hexgrid import Hex, HexGrid, Layout, Numbering, Orientation

FLAT, POINTY = Orientation.FLAT, Orientation.POINTY

FLAT_WORDS = ("even-down", "odd-down", "even-up", "odd-up")
POINTY_WORDS = ("even-right", "odd-right", "even-left", "odd-left")
WORDS = {FLAT: FLAT_WORDS, POINTY: POINTY_WORDS}

# Bounded so the whole hexgrid suite runs in well under 20 s on 2 cores.
PROPERTY = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEAVY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- reference model (from SCENARIOS.md §1, generalised) -----------------------------


def ref_shifted(numbering: Numbering, printed_line: int) -> bool:
    """Whether the printed column (flat) / row (pointy) sits half a hex down / right."""
    parity, way = numbering.stagger.split("-")
    matches = (printed_line % 2 == 0) == (parity == "even")
    return matches if way in ("down", "right") else not matches


def ref_lattice(numbering: Numbering, col: int, row: int) -> tuple[int, int]:
    """0-based lattice column and row, counted left to right and top to bottom."""
    c = numbering.first_col - col if numbering.descending_cols else col - numbering.first_col
    r = numbering.first_row - row if numbering.descending_rows else row - numbering.first_row
    return c, r


def ref_printed(numbering: Numbering, c: int, r: int) -> tuple[int, int]:
    col = numbering.first_col - c if numbering.descending_cols else numbering.first_col + c
    row = numbering.first_row - r if numbering.descending_rows else numbering.first_row + r
    return col, row


def ref_neighbours(
    orientation: Orientation, numbering: Numbering, col: int, row: int
) -> dict[str, tuple[int, int]]:
    """Printed (col, row) of the six neighbours by direction name."""
    c, r = ref_lattice(numbering, col, row)
    if orientation is FLAT:
        if ref_shifted(numbering, col):  # this column is down: sides are (r) and (r+1)
            up, low = r, r + 1
        else:
            up, low = r - 1, r
        lat = {
            "N": (c, r - 1), "S": (c, r + 1),
            "NE": (c + 1, up), "SE": (c + 1, low),
            "SW": (c - 1, low), "NW": (c - 1, up),
        }
    else:
        if ref_shifted(numbering, row):  # this row is right: rows above/below are (c, c+1)
            left, right = c, c + 1
        else:
            left, right = c - 1, c
        lat = {
            "E": (c + 1, r), "W": (c - 1, r),
            "NE": (right, r - 1), "NW": (left, r - 1),
            "SE": (right, r + 1), "SW": (left, r + 1),
        }
    return {k: ref_printed(numbering, *v) for k, v in lat.items()}


def ref_format(numbering: Numbering, col: int, row: int) -> str:
    c = str(col).zfill(numbering.col_digits)
    r = str(row).zfill(numbering.row_digits)
    first, second = (r, c) if numbering.row_first else (c, r)
    return f"{numbering.prefix}{first}{numbering.separator}{second}"


def ref_center_units(orientation: Orientation, numbering: Numbering, col: int, row: int):
    """Centre in pitch units relative to the top-left hex, from the printed numbers.

    Only differences between these are meaningful for the half-hex shift; the
    top-left hex sits at (0, 0) up to that half step.
    """
    c, r = ref_lattice(numbering, col, row)
    if orientation is FLAT:
        return c, r + (0.5 if ref_shifted(numbering, col) else 0.0)
    return c + (0.5 if ref_shifted(numbering, row) else 0.0), r


# -- strategies ---------------------------------------------------------------------

orientations = st.sampled_from([FLAT, POINTY])


@dataclass(frozen=True)
class GridCase:
    grid: HexGrid

    def __repr__(self) -> str:  # shorter falsifying examples
        g = self.grid
        return f"GridCase({g.orientation.value}, {g.numbering!r}, {g.cols}x{g.rows}, {g.layout!r})"


@st.composite
def layouts(draw, *, rotation: float = 5.0, affine: bool = False) -> Layout:
    dx = draw(st.floats(20.0, 90.0))
    ratio = draw(st.floats(0.7, 1.4).filter(lambda k: abs(k - 1.0) > 1e-3))
    x0 = draw(st.floats(-400.0, 400.0))
    y0 = draw(st.floats(-400.0, 400.0))
    if affine and draw(st.booleans()):
        # A fitted grid with shear: a near-diagonal matrix with a little mixing.
        a = dx
        d = dx * ratio
        b = draw(st.floats(-0.15, 0.15)) * d
        c = draw(st.floats(-0.15, 0.15)) * a
        return Layout(dx=dx, dy=d, x0=x0, y0=y0, affine=(a, b, c, d))
    rot = draw(st.floats(-rotation, rotation))
    return Layout(dx=dx, dy=dx * ratio, x0=x0, y0=y0, rotation=rot)


@st.composite
def numberings(draw, orientation: Orientation) -> Numbering:
    stagger = draw(st.sampled_from(WORDS[orientation]))
    prefix = draw(st.sampled_from(["", "", "A", "B", "Map-"]))
    separator = draw(st.sampled_from(["", "", "", ".", "-"]))
    digits = draw(st.integers(2, 3))
    row_digits = draw(st.integers(2, 3))
    return Numbering(
        first_col=draw(st.integers(0, 3)),
        first_row=draw(st.integers(0, 3)),
        col_digits=digits,
        row_digits=row_digits,
        stagger=stagger,
        prefix=prefix,
        separator=separator,
        descending_cols=draw(st.booleans()),
        descending_rows=draw(st.booleans()),
        row_first=draw(st.booleans()),
    )


@st.composite
def grids(
    draw,
    *,
    orientation: Orientation | None = None,
    max_size: int = 12,
    layout: bool = True,
    rotation: float = 5.0,
    affine: bool = False,
) -> HexGrid:
    o = orientation if orientation is not None else draw(orientations)
    n = draw(numberings(o))
    cols = draw(st.integers(1, max_size))
    rows = draw(st.integers(1, max_size))
    # Descending numbering counts down from the first number: start high enough
    # that every printed number on the map is >= 0.
    if n.descending_cols:
        n = dataclasses.replace(n, first_col=n.first_col + cols - 1)
    if n.descending_rows:
        n = dataclasses.replace(n, first_row=n.first_row + rows - 1)
    lay = draw(layouts(rotation=rotation, affine=affine)) if layout else None
    return HexGrid(o, n, cols=cols, rows=rows, layout=lay)


@st.composite
def grid_and_hex(draw, **kw) -> tuple[HexGrid, Hex]:
    g = draw(grids(**kw))
    return g, draw(st.sampled_from(g.hexes()))


def lattice_hexes(lo: int = -30, hi: int = 30):
    return st.builds(Hex, st.integers(lo, hi), st.integers(lo, hi))


def near(p, q, tol: float = 1e-6) -> bool:
    return math.isclose(p[0], q[0], abs_tol=tol) and math.isclose(p[1], q[1], abs_tol=tol)


@pytest.fixture
def scenario_grid() -> HexGrid:
    """SCENARIOS.md §1: flat, even columns half a hex down, ids XXYY from 0101."""
    return HexGrid(
        FLAT,
        Numbering(first_col=1, first_row=1, stagger="even-down"),
        cols=10,
        rows=10,
        layout=Layout(dx=48.0, dy=55.0, x0=40.0, y0=40.0),
    )
