"""The studio's calls to the digitizer, all in one place.

The studio holds no digitizing logic: where the grid lies, what each hex shows and
which hexsides carry features are the digitizer's answers. This module is the one
place it asks for them, so a change of the digitizer's API is a change here only:

* :func:`locate_grid`: the grid on the scan, found on the image or through the anchors
  a person placed (``bocage digitize --anchor``);
* :func:`saved_grid`: the grid exactly as a map.json saved for this scan places it;
* :class:`ScanReader`: terrain and hexsides on a located grid, taught by the hexes a
  person has given a terrain (``bocage digitize --sample`` and ``--train``), with the hexes
  whose label would help the reading most (``--suggest``).

The scan and the legend stay in memory, and each grid's hexes are prepared once (the
digitizer's :class:`~pipeline.digitize.TerrainReader`: every hex resampled and described),
so after a label only the learner and the hexside reader run again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize import (
    Digitization,
    GridFit,
    Legend,
    Teaching,
    TerrainReader,
    build_map,
    calibrate,
    detect_hexsides,
)
from pipeline.digitize.classify import learned_legend
from pipeline.errors import DataError
from pipeline.hexgrid import HexGrid

__all__ = ["SUGGESTED", "Point", "ScanReader", "locate_grid", "saved_grid"]

Point = tuple[float, float]
SUGGESTED = 10  # hexes the learner is asked to suggest labelling next
_PREPARED = 3  # grids whose prepared hexes are kept (the current one and the last few)


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


class ScanReader:
    """The digitizer's reading of one scan, each grid's hexes prepared once.

    Parameters
    ----------
    pixels
        The scan (RGB).
    legend
        The map's terrain and feature vocabulary with their printed colours (a terrain
        without one is learnt from the hexes a person gives it).
    source
        The scan's name, for messages and the map document.

    Examples
    --------
    ``reader.read(fit, {"woods": ["0412"]}, {"0415": "clear"})`` reads every hex of the
    grid ``fit``, taught that 0412 shows woods (as the reading said) and 0415 clear (a
    correction); a second call on the same ``fit`` learns again without resampling a hex.
    """

    def __init__(self, pixels: NDArray[np.uint8], legend: Legend, *,
                 source: str | None = None) -> None:
        self.pixels, self.legend, self.source = pixels, legend, source
        self._prepared: list[tuple[GridFit, TerrainReader]] = []

    def prepared(self, fit: GridFit) -> TerrainReader:
        """The grid's hexes resampled and described (once per grid; the last few kept)."""
        for known, reader in self._prepared:
            if known is fit:
                return reader
        reader = TerrainReader(self.pixels, fit, self.legend, source=self.source)
        self._prepared = [(fit, reader), *self._prepared][:_PREPARED]
        return reader

    def read(self, fit: GridFit, labels: Mapping[str, Sequence[str]],
             corrections: Mapping[str, str], *, suggest: int = SUGGESTED) -> Digitization:
        """Terrain and hexsides of every hex on a located grid, taught by what a person said.

        Parameters
        ----------
        fit
            The grid on the scan (not searched for again).
        labels
            Terrain -> ids of hexes a person labelled with it (confirming the reading):
            examples of what each terrain looks like on this scan (``--sample``).
        corrections
            Hex id -> terrain a person corrected it to: examples too, as a corrected
            map's checked hexes are (``--train``).
        suggest
            How many hexes to suggest labelling next, best first (none of those a person
            has given a terrain).

        Raises
        ------
        DataError
            A terrain with neither a printed colour nor a hex a person gave it; no example
            of any terrain at all (blank paper, or colours that are all wrong).
        """
        teaching = Teaching(samples={t: list(ids) for t, ids in labels.items() if ids},
                            checked=dict(corrections))
        shown = set(teaching.samples) | set(corrections.values())
        lacking = [n for n in self.legend.unsampled() if n not in shown]
        if lacking:  # said as the page's way of giving one, not the command line's
            raise DataError(self.legend.source, "terrain_types", f"no example yet of"
                            f" {', '.join(lacking)}: click a hex that shows one and press"
                            " its terrain's key")
        try:
            read = self.prepared(fit).read(teaching)
        except ValueError as exc:  # the learner found no example at all
            if str(exc) != "no examples":
                raise
            raise DataError(self.legend.source, "terrain_types", "no hex shows a terrain's"
                            " printed colour and no hex has been given one: give a few hexes"
                            " their terrain (click a hex, press its key)") from None
        # What follows is digitize_scan's tail, on the prepared reading.
        legend = learned_legend(self.legend, read.terrain)
        grid = fit.grid
        given = [grid.hex(i) for ids in labels.values() for i in ids]
        given += [grid.hex(i) for i in corrections]
        suggestions = tuple(read.suggest(suggest, exclude=given)) if suggest else ()
        fills = {h: (t.terrain[0], t.colour) for h, t in read.terrain.items()}
        sides = detect_hexsides(self.pixels, fit, legend, read.light, fills)
        doc = build_map(fit, read.terrain, sides, legend, source=self.source)
        return Digitization(doc, fit, read.terrain, sides, legend, read.light, suggestions)
