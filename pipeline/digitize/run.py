"""Scan -> map data in one call: calibrate, sample, classify, read hexsides, build the map.

:func:`digitize` returns the map document; :func:`digitize_scan` returns
everything found along the way (the fitted grid with every hex centre, the
light, per-hex shares and confidence, the hexside features), which the
GeoJSON and overlay outputs and the tests need.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.calibrate import Point, calibrate
from pipeline.digitize.classify import HexTerrain, classify_hexes, paper_samples, sample_terrain
from pipeline.digitize.gridfit import GridFit
from pipeline.digitize.hexsides import detect_hexsides
from pipeline.digitize.legend import Legend, load_legend
from pipeline.digitize.light import Light, fit_light
from pipeline.digitize.outputs import build_map
from pipeline.digitize.scanfile import load_scan
from pipeline.errors import DataError
from pipeline.hexgrid import Hex, HexGrid, Hexside
from pipeline.model import MapData

__all__ = ["STAGES", "Digitization", "Progress", "digitize", "digitize_scan"]

Progress = Callable[[str], None]
"""Called with the name of each stage as it starts (see :data:`STAGES`)."""

STAGES = ("read", "grid", "terrain", "hexsides", "map")


@dataclass(frozen=True)
class Digitization:
    """Everything a digitization found.

    Attributes
    ----------
    map
        The map document.
    fit
        The grid on the scan (every hex centre, perspective included).
    terrain
        Per hex: terrain, shares, confidence, fill colour.
    hexsides
        Hexside -> feature names.
    legend
        The legend used, with any sampled colours.
    light
        The light the colours were corrected for.
    """

    map: MapData
    fit: GridFit
    terrain: dict[Hex, HexTerrain]
    hexsides: dict[Hexside, tuple[str, ...]]
    legend: Legend
    light: Light


def digitize_scan(image: NDArray[np.uint8] | str | Path, legend: Legend | str | Path, *,
                  grid: HexGrid | None = None, size: tuple[int, int] | None = None,
                  anchors: Mapping[str, Point] | None = None,
                  samples: Mapping[str, Sequence[str]] | None = None, game: str = "digitized",
                  title: str | None = None, board: str = "map", source: str | None = None,
                  progress: Progress | None = None, fit: GridFit | None = None
                  ) -> Digitization:
    """Digitize a scan, keeping every intermediate finding.

    Parameters
    ----------
    image
        The scan (RGB pixels, or a file to read).
    legend
        Terrain and feature colours (a :class:`Legend` or a legend file).
    grid
        What is known of the grid (orientation, numbering, size, maybe a layout).
    size
        The map's columns and rows, when no ``grid`` gives them.
    anchors
        Hex id -> pixel centre, for assisted calibration.
    samples
        Terrain -> hex ids whose colour defines it (``--sample woods=0412``).
    game, title, board
        Names for the map document.
    source
        The scan's name for messages and the document (the file name by default).
    progress
        Told the name of each stage as it starts.
    fit
        The grid already located on this scan (calibration is then skipped).
    """
    tell = progress or (lambda stage: None)
    tell("read")
    if isinstance(image, (str, Path)):
        source = source or str(image)
        pixels = load_scan(image)
    else:
        pixels = image
    key = legend if isinstance(legend, Legend) else load_legend(legend)
    tell("grid")
    if fit is None:
        fit = calibrate(pixels, spec=grid, anchors=anchors, source=source, size=size)
    tell("terrain")
    key = _sampled(pixels, fit, key, samples or {}, source)
    terrain, light = classify_hexes(pixels, fit, key)
    tell("hexsides")
    fills = {h: (t.terrain[0], t.colour) for h, t in terrain.items()}
    sides = detect_hexsides(pixels, fit, key, light, fills)
    tell("map")
    doc = build_map(fit, terrain, sides, key, game=game, title=title, board=board, source=source)
    return Digitization(doc, fit, terrain, sides, key, light)


def digitize(image: NDArray[np.uint8] | str | Path, legend: Legend | str | Path,
             grid_or_anchors: HexGrid | Mapping[str, Point] | None = None, *,
             samples: Mapping[str, Sequence[str]] | None = None, game: str = "digitized",
             title: str | None = None, board: str = "map", source: str | None = None,
             progress: Progress | None = None) -> MapData:
    """Digitize a scan into a map document.

    ``grid_or_anchors`` is what is known of the grid (a :class:`HexGrid`) or
    anchors (hex id -> pixel centre); ``None`` finds the grid unaided. The
    other options are those of :func:`digitize_scan`.
    """
    grid = grid_or_anchors if isinstance(grid_or_anchors, HexGrid) else None
    anchors = None if isinstance(grid_or_anchors, HexGrid) else grid_or_anchors
    return digitize_scan(image, legend, grid=grid, anchors=anchors, samples=samples, game=game,
                         title=title, board=board, source=source, progress=progress).map


def _sampled(image: NDArray[np.uint8], fit: GridFit, legend: Legend,
             samples: Mapping[str, Sequence[str]], source: str | None) -> Legend:
    """The legend with sampled terrain colours, checked to have a colour for every terrain."""
    if samples:
        h, w = image.shape[:2]
        px, py, pcol = paper_samples(image, fit)
        light = fit_light(px, py, pcol, np.tile(np.asarray(legend.paper, float), (len(px), 1)),
                          w, h)
        for name, hex_ids in samples.items():
            colours = tuple(sample_terrain(image, fit, light, i, source) for i in hex_ids)
            legend = legend.with_colours(name, colours)
    missing = legend.unsampled()
    if missing:
        raise DataError(legend.source, f"terrain.{missing[0]}", "no colour: give one in the"
                        f" legend or sample it from the scan (--sample {missing[0]}=HEX)")
    return legend
