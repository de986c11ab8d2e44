"""Scan -> map data in one call: calibrate, sample, classify, read hexsides, build the map.

:func:`digitize` returns the map document; :func:`digitize_scan` returns
everything found along the way (the fitted grid with every hex centre, the
light, per-hex shares and confidence, the hexside features), which the
GeoJSON and overlay outputs and the tests need.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.calibrate import Point, calibrate
from pipeline.digitize.classify import (
    Box,
    HexTerrain,
    Teaching,
    check_box,
    classify_hexes,
    learned_legend,
)
from pipeline.digitize.gridfit import GridFit
from pipeline.digitize.hexsides import read_hexsides
from pipeline.digitize.learn import Learner
from pipeline.digitize.legend import Legend, load_legend
from pipeline.digitize.light import Light
from pipeline.digitize.linereader import LineColours
from pipeline.digitize.outputs import build_map, with_absence
from pipeline.digitize.printedkey import KeySwatch, find_key
from pipeline.digitize.scanfile import load_scan
from pipeline.digitize.symbols import cover_symbols, read_symbols
from pipeline.digitize.workscale import Rescale, big_enough, first_reduction, read_size
from pipeline.errors import GridError
from pipeline.hexgrid import Hex, HexGrid, Hexside
from pipeline.model import MapData

__all__ = ["STAGES", "Digitization", "Progress", "WorkingImage", "digitize", "digitize_scan"]

Progress = Callable[[str], None]
"""Called with the name of each stage as it starts (see :data:`STAGES`)."""

STAGES = ("read", "grid", "key", "terrain", "hexsides", "map")
"""The stages of a reading, in order, as :func:`digitize_scan` reports them."""

_log = logging.getLogger(__name__)  # each stage's time, for --verbose


@dataclass(frozen=True)
class WorkingImage:
    """The pixels a reading worked on, and the grid on them (to draw over them).

    A big JPEG is read at half its size (:mod:`pipeline.digitize.workscale`);
    ``rescale`` takes positions on ``pixels`` to the scan's own.
    """

    pixels: NDArray[np.uint8]
    fit: GridFit
    rescale: Rescale


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
    suggestions
        Hexes whose label would help the reading most, best first (when asked for).
    hexside_confidence
        Hexside -> feature -> how sure its reading is (0 to 1).
    hex_features
        Hex -> the symbols it shows (towns, cities), for ``symbols`` asked for.
    key
        The printed key's swatches found by their labels (``key_auto``).
    hexside_absence
        Hexside -> line -> how sure the reading is that the line is not there, for
        every hexside examined and every line not read on it (0 to 1).
    working
        The pixels read and the grid on them, for an overlay drawn over them.

    Positions (the grid, the light, the key's boxes) are in the scan's own pixels,
    whatever size it was read at.
    """

    map: MapData
    fit: GridFit
    terrain: dict[Hex, HexTerrain]
    hexsides: dict[Hexside, tuple[str, ...]]
    legend: Legend
    light: Light
    suggestions: tuple[Hex, ...] = ()
    hexside_confidence: dict[Hexside, dict[str, float]] = field(default_factory=dict)
    hex_features: dict[Hex, tuple[str, ...]] = field(default_factory=dict)
    key: tuple[KeySwatch, ...] = ()
    hexside_absence: dict[Hexside, dict[str, float]] = field(default_factory=dict)
    working: WorkingImage | None = None


def digitize_scan(image: NDArray[np.uint8] | str | Path, legend: Legend | str | Path, *,
                  grid: HexGrid | None = None, size: tuple[int, int] | None = None,
                  anchors: Mapping[str, Point] | None = None,
                  samples: Mapping[str, Sequence[str]] | None = None,
                  key: Mapping[str, Sequence[Box]] | None = None,
                  checked: Mapping[str, str] | None = None, game: str = "digitized",
                  title: str | None = None, board: str = "map", source: str | None = None,
                  progress: Progress | None = None, fit: GridFit | None = None,
                  learner: Learner = Learner(), warn: Callable[[str], None] | None = None,
                  suggest: int = 0, symbols: Mapping[str, Sequence[str]] | None = None,
                  key_auto: bool = False, absence: bool = False) -> Digitization:
    """Digitize a scan, keeping every intermediate finding.

    Parameters
    ----------
    image
        The scan (RGB pixels, or a file to read: a big JPEG with big hexes is read at
        half its size, :mod:`pipeline.digitize.workscale`).
    legend
        Terrain and feature colours (a :class:`Legend` or a legend file).
    grid
        What is known of the grid (orientation, numbering, size, maybe a layout).
    size
        The map's columns and rows, when no ``grid`` gives them.
    anchors
        Hex id -> pixel centre, for assisted calibration.
    samples
        Terrain -> ids of hexes that show it (``--sample woods=0412``): examples to learn from.
    key
        Terrain -> pixel boxes ``(x, y, w, h)`` of its swatch in the printed key.
    checked
        Hex id -> terrain, for hexes a person has checked (a corrected map's).
    game, title, board
        Names for the map document.
    source
        The scan's name for messages and the document (the file name by default).
    progress
        Told the name of each stage as it starts.
    fit
        The grid already located on this scan (calibration is then skipped).
    learner
        The terrain learner's settings.
    warn
        Told each warning, one line each (a terrain found in no hex, say).
    suggest
        How many hexes to suggest labelling next
        (:meth:`~pipeline.digitize.classify.Classification.suggest`).
    symbols
        Hex feature -> one or two hexes that show its symbol
        (``{"town": ["0412"]}``, ``--symbol town=0412``).
    key_auto
        Find the printed key's swatches by their labels (``--key auto``,
        :func:`~pipeline.digitize.printedkey.find_key`); a terrain given in ``key``
        keeps the boxes given.
    absence
        Write into the map document how sure the reading is that each line is not
        where it read none (:func:`~pipeline.digitize.outputs.with_absence`), as a
        reading to validate a typed map against needs; the Digitization carries it
        (``hexside_absence``) either way.
    """
    tell = _timed(progress or (lambda stage: None))
    tell("read")
    rescale = Rescale()
    if isinstance(image, (str, Path)):
        source = source or str(image)
        rescale = Rescale(first_reduction(image) if fit is None else 1)
        pixels = load_scan(image, reduce=rescale.reduce)
    else:
        pixels = image
    legend_ = legend if isinstance(legend, Legend) else load_legend(legend)
    tell("grid")
    if fit is None:
        located = _located(pixels, rescale, grid, anchors, source, size)
        if located is None:
            # Hexes too small at half size, or no grid found there: the whole scan (and
            # any refusal in the scan's own pixels).
            assert isinstance(image, (str, Path))
            del pixels
            rescale = Rescale()
            pixels = load_scan(image)
            located = calibrate(pixels, spec=grid, anchors=anchors, source=source, size=size)
        fit = located
    if key and rescale.reduce > 1:
        assert isinstance(image, (str, Path))
        scan_size = read_size(image, pixels, rescale.reduce)
        for boxes in key.values():
            for box in boxes:
                check_box(box, scan_size, source)  # the message in the scan's own pixels
    key = {t: [rescale.box_in(b) for b in boxes] for t, boxes in (key or {}).items()}
    tell("key")
    found: tuple[KeySwatch, ...] = ()
    if key_auto:
        # The key's labels are small print, read by OCR on the scan as it is.
        whole = pixels if rescale.reduce == 1 else load_scan(cast(str | Path, image))
        found = tuple(find_key(whole, rescale.fit_out(fit), list(legend_.terrain),
                               source=source, warn=warn))
        del whole
        key = {**{k.terrain: [rescale.box_in(k.box)] for k in found}, **key}
    tell("terrain")
    # Symbols first: matched by the shape of their lightness, they need no light
    # correction, and a hex's terrain is what lies under its symbol.
    lines = LineColours(legend_, [n for n, f in legend_.features.items()
                                 if f.shape == "line"]).lab[:-1]
    height, width = pixels.shape[:2]
    marks = read_symbols(pixels, fit, Light.flat(width, height), symbols or {}, source, lines)
    teaching = Teaching(samples=samples or {}, key=key or {}, checked=checked or {})
    read = classify_hexes(cover_symbols(pixels, fit, list(marks)), fit, legend_, teaching,
                          learner=learner, source=source, warn=warn)
    terrain, light = read.terrain, read.light
    legend_ = learned_legend(legend_, terrain)
    shown = [fit.grid.hex(i) for ids in (samples or {}).values() for i in ids]
    shown += [fit.grid.hex(i) for i in (checked or {}) if fit.grid.has_id(i)]
    suggestions = tuple(read.suggest(suggest, exclude=shown)) if suggest else ()
    tell("hexsides")
    fills = {h: (t.terrain[0], t.colour) for h, t in terrain.items()}
    reading = read_hexsides(pixels, fit, legend_, light, fills)
    sides = reading.names()
    confidence = {s: dict(sorted(f.items())) for s, f in reading.features.items() if s in sides}
    drawn = {s: dict(sorted(f.items())) for s, f in reading.drawn.items() if s in sides}
    tell("map")
    on_scan = rescale.fit_out(fit)
    doc = build_map(on_scan, terrain, sides, legend_, game=game, title=title, board=board,
                    source=source, confidence=confidence, hex_features=marks,
                    drawn=drawn)
    if absence:
        doc = with_absence(doc, legend_, reading.absent)
    tell("done")
    return Digitization(doc, on_scan, terrain, sides, legend_, rescale.light_out(light),
                        suggestions, confidence, marks, found, reading.absent,
                        WorkingImage(pixels, fit, rescale))


def _located(pixels: NDArray[np.uint8], rescale: Rescale, grid: HexGrid | None,
             anchors: Mapping[str, Point] | None, source: str | None,
             size: tuple[int, int] | None) -> GridFit | None:
    """The grid on pixels read at ``1/rescale.reduce`` of the scan's size, or ``None`` when
    a scan read smaller should be read whole (no grid found, or hexes too small)."""
    try:
        fit = calibrate(pixels, spec=rescale.grid_in(grid), anchors=rescale.anchors_in(anchors),
                        source=source, size=size)
    except GridError:
        if rescale.reduce == 1:
            raise
        return None
    return fit if rescale.reduce == 1 or big_enough(fit) else None


def _timed(progress: Progress) -> Progress:
    """``progress``, and each stage's time in the log once the next one starts."""
    started: list[tuple[str, float]] = []

    def tell(stage: str) -> None:
        now = time.perf_counter()
        if started:
            name, then = started[-1]
            _log.info("digitize: %s took %.1f s", name, now - then)
        started.append((stage, now))
        if stage != "done":
            progress(stage)

    return tell


def digitize(image: NDArray[np.uint8] | str | Path, legend: Legend | str | Path,
             grid_or_anchors: HexGrid | Mapping[str, Point] | None = None, *,
             samples: Mapping[str, Sequence[str]] | None = None, game: str = "digitized",
             title: str | None = None, board: str = "map", source: str | None = None,
             progress: Progress | None = None,
             symbols: Mapping[str, Sequence[str]] | None = None) -> MapData:
    """Digitize a scan into a map document.

    ``grid_or_anchors`` is what is known of the grid (a :class:`HexGrid`) or
    anchors (hex id -> pixel centre); ``None`` finds the grid unaided. The
    other options are those of :func:`digitize_scan`.
    """
    grid = grid_or_anchors if isinstance(grid_or_anchors, HexGrid) else None
    anchors = None if isinstance(grid_or_anchors, HexGrid) else grid_or_anchors
    return digitize_scan(image, legend, grid=grid, anchors=anchors, samples=samples, game=game,
                         title=title, board=board, source=source, progress=progress,
                         symbols=symbols).map
