"""The studio's calls to the digitizer, all in one place.

The studio holds no digitizing logic: where the grid lies, what each hex shows and
which hexsides carry features are the digitizer's answers. This module is the one
place it asks for them, so a change of the digitizer's API is a change here only:

* :func:`locate_grid`: the grid on the scan, found on the image or through the anchors
  a person placed (``bocage digitize --anchor``);
* :func:`saved_grid`: the grid exactly as a map.json saved for this scan places it;
* :func:`read_scan`: terrain and hexsides on a located grid, taught by the hexes a
  person has given a terrain (``bocage digitize --sample``).

The scan, the fitted grid and the legend stay in memory between calls, so after a
label only the reading itself is done again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize import Digitization, GridFit, Legend, calibrate, digitize_scan
from pipeline.hexgrid import HexGrid

__all__ = ["Point", "locate_grid", "read_scan", "saved_grid"]

Point = tuple[float, float]


def locate_grid(pixels: NDArray[np.uint8], grid: HexGrid,
                anchors: Mapping[str, Point] | None = None, *,
                source: str | None = None) -> GridFit:
    """Where ``grid`` (numbering and extent known) lies on the scan.

    Parameters
    ----------
    pixels
        The scan (RGB).
    grid
        The map's grid; its pixel layout, if any, is where the search starts.
    anchors
        Hex id -> pixel centre that a person placed (two or more), or ``None`` to find
        the grid on the image alone.
    source
        The scan's name, for messages.

    Raises
    ------
    GridError
        Anchors that contradict each other or the image, a grid the scan does not show.
    """
    return calibrate(pixels, spec=grid, anchors=anchors or None, source=source)


def saved_grid(grid: HexGrid) -> GridFit:
    """The grid placed exactly by its saved pixel layout (no search on the image).

    A map.json the studio saved for this scan says where the person left the grid;
    opening it again must show the same grid, not a new search's.

    >>> from pipeline.hexgrid import Layout, Numbering, Orientation
    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), 3, 3,
    ...             layout=Layout(dx=40.0, dy=46.0, x0=30.0, y0=30.0))
    >>> [round(float(v), 3) for v in saved_grid(g).centres([g.hex("0101")])[0]]
    [30.0, 30.0]
    """
    layout = grid.layout
    assert layout is not None, "saved_grid needs a grid with a layout"
    a, b, c, d = layout.matrix
    matrix = np.array([[a, b, layout.x0], [c, d, layout.y0], [0.0, 0.0, 1.0]])
    return GridFit(grid, matrix, 0.0, 0, "layout as saved")


def read_scan(pixels: NDArray[np.uint8], legend: Legend, fit: GridFit,
              samples: Mapping[str, Sequence[str]], checked: Mapping[str, str], *,
              source: str | None = None) -> Digitization:
    """Terrain and hexsides of every hex on a located grid, taught by what a person said.

    Parameters
    ----------
    pixels
        The scan (RGB).
    legend
        The map's terrain and feature vocabulary with their printed colours.
    fit
        The grid on the scan (not searched for again).
    samples
        Terrain -> ids of hexes a person labelled with it (confirming the reading): the
        digitizer's examples of what each terrain looks like on this scan.
    checked
        Hex id -> terrain a person corrected it to.
    source
        The scan's name, for messages and the map document.
    """
    # The digitizer takes every example as a sample of its terrain (--sample); the
    # corrected hexes are examples as good as the labelled ones.
    taught: dict[str, list[str]] = {t: list(ids) for t, ids in samples.items() if ids}
    for hex_id, terrain in sorted(checked.items()):
        taught.setdefault(terrain, []).append(hex_id)
    return digitize_scan(pixels, legend, fit=fit, samples=taught, source=source)
