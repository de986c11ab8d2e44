"""What digitizing writes: map.json (through the model) and an overlay picture.

* :func:`build_map` makes the :class:`~pipeline.model.MapData` document: the
  grid with its fitted layout, every hex's terrain with area shares and
  confidence, and the hexside features, validated like any hand-made map.
* :func:`hex_corners` and :func:`hexside_line` are where hexes and hexside
  features lie on the scan, in its pixels (x right, y down); the overlay draws
  them and :mod:`~pipeline.digitize.gis` turns them into a GIS's layers.
* :func:`overlay` draws the findings over a faded copy of the scan: hexes
  tinted with their terrain's colour, features traced, and unsure hexes
  circled in magenta, so a person can review a map at a glance.

Everything is deterministic: the same scan and legend give the same bytes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.classify import HexTerrain
from pipeline.digitize.gridfit import GridFit, hex_units
from pipeline.digitize.legend import RGB, Legend
from pipeline.digitize.sideconfidence import absence
from pipeline.errors import ImageError
from pipeline.hexgrid import Hex, HexGrid, Hexside
from pipeline.hexgrid.coords import SCALE, scaled_corners
from pipeline.model import MapData, map_from_data

__all__ = [
    "UNSURE",
    "build_map",
    "encode_png",
    "hex_corners",
    "hexside_line",
    "overlay",
    "with_absence",
]

UNSURE = 0.6  # confidence under which the overlay circles a hex


def _hex_colour(c: RGB) -> str:
    return f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"


def _grid_spec(fit: GridFit) -> dict[str, Any]:
    grid = fit.grid
    layout = grid.layout
    assert layout is not None
    a, b, c, d = layout.matrix
    n = grid.numbering
    numbering: dict[str, Any] = {
        "stagger": n.stagger, "first_col": n.first_col, "first_row": n.first_row,
        "col_digits": n.col_digits, "row_digits": n.row_digits, "prefix": n.prefix,
        "separator": n.separator, "descending_cols": n.descending_cols,
        "descending_rows": n.descending_rows, "row_first": n.row_first,
    }
    return {
        "orientation": grid.orientation.value,
        "numbering": numbering,
        "cols": grid.cols,
        "rows": grid.rows,
        "exclude": sorted(grid.exclude),
        # The fitted matrix, shear and all, is what the hexes are placed by; dx, dy
        # and rotation stay as the nearest upright grid (what VASSAL and people
        # read). Only the perspective, a fraction of a pixel on a flat scan, is lost.
        "layout": {"dx": round(math.hypot(a, c), 3), "dy": round(math.hypot(b, d), 3),
                   "x0": round(layout.x0, 3), "y0": round(layout.y0, 3),
                   "rotation": round(math.degrees(math.atan2(c, a)), 4) + 0.0,
                   "affine": [round(v, 5) + 0.0 for v in (a, b, c, d)]},
    }


def build_map(fit: GridFit, terrain: Mapping[Hex, HexTerrain],
              hexsides: Mapping[Hexside, tuple[str, ...]], legend: Legend, *,
              game: str = "digitized", title: str | None = None, board: str = "map",
              source: str | None = None,
              confidence: Mapping[Hexside, Mapping[str, float]] | None = None,
              hex_features: Mapping[Hex, tuple[str, ...]] | None = None,
              drawn: Mapping[Hexside, Mapping[str, float]] | None = None) -> MapData:
    """The map document of a digitization.

    Parameters
    ----------
    fit, terrain, hexsides, legend
        What calibration, classification and hexside detection found.
    game, title, board
        Names for the document and its one board.
    source
        The scan's file name, recorded as the source.
    confidence
        Hexside -> feature -> how sure its reading is, recorded with each hexside.
    hex_features
        Hex -> the symbols found on it (towns), recorded as hex features.
    drawn
        Hexside -> line -> how sure the reading is that a line of its ink crosses there,
        where its name is less sure (``HexsideReading.drawn``), recorded with each hexside.
    """
    grid = fit.grid
    marks = dict(hex_features or {})
    counts = Counter(t.terrain[0] for t in terrain.values())
    default = legend.default_terrain or min(counts, key=lambda n: (-counts[n], n))
    scan = Path(source).name if source else "a scan"
    notes = (f"Digitized by bocage from {scan} against the legend"
             f" {Path(legend.source).name if legend.source else '(given in code)'}: grid"
             f" {fit.method}, {fit.support} hex centres measured, fit residual"
             f" {fit.residual:.2f} px.")
    data: dict[str, Any] = {
        "kind": "map",
        "game": game,
        "title": title or f"digitized from {scan}",
        "illustrative": False,
        "notes": notes,
        "source": f"scan {scan}",
        "boards": [{"name": board, "grid": _grid_spec(fit),
                    **({"image": Path(source).name} if source else {})}],
        "terrain_types": {n: ({"color": _hex_colour(c[0])} if c else {})
                          for n, c in legend.terrain.items()},
        "hexside_features": {n: {"kind": f.kind, "color": _hex_colour(f.colours[0])}
                             for n, f in legend.features.items()},
        "default_terrain": default,
        "hexes": {grid.id(h): {"terrain": list(t.terrain), "fractions": dict(t.fractions),
                               "confidence": t.confidence,
                               **({"probabilities": dict(t.probabilities)}
                                  if t.probabilities else {}),
                               **({"features": list(marks[h])} if h in marks else {})}
                  for h, t in terrain.items()},
        "hexsides": [_hexside_entry(grid, side, names, (confidence or {}).get(side),
                                    (drawn or {}).get(side))
                     for side, names in sorted(hexsides.items())],
    }
    if marks:
        data["hex_features"] = {n: {"note": "found on the scan as a symbol"}
                                for n in sorted({n for f in marks.values() for n in f})}
    return map_from_data(data, "<digitized map>")


def with_absence(doc: MapData, legend: Legend,
                 absent: Mapping[Hexside, Mapping[str, float]]) -> MapData:
    """A digitized map document that also says how sure its reading is that lines are not
    where it read none (what ``bocage validate`` needs to name a line typed too many).

    Each line's vocabulary entry keeps its confidence where a hexside showed no trace
    of it (``hexside_features.road.absent``), and the hexsides where the reading's own
    differs keep theirs (``hexsides[].absent``; an entry with no feature when the
    hexside carries none). A map a builder goes on to correct needs none of it:
    :func:`~pipeline.digitize.digitize_scan` adds it when asked (``absence=True``).

    Parameters
    ----------
    doc
        The map document of a digitization (:func:`build_map`), on one board.
    legend
        The legend it was read with (which features are lines).
    absent
        Hexside -> line -> how sure the reading is that the line is not there
        (:attr:`Digitization.hexside_absence <pipeline.digitize.Digitization>`).

    Examples
    --------
    >>> from pipeline.hexgrid import Hex, Hexside
    >>> from pipeline.digitize.legend import legend_from_data
    >>> from pipeline.model import map_from_data
    >>> doc = map_from_data({"kind": "map", "game": "g", "title": "t", "illustrative": False,
    ...     "source": "s", "terrain_types": {"clear": {}},
    ...     "hexside_features": {"road": {"kind": "across"}},
    ...     "boards": [{"name": "1", "grid": {"orientation": "flat", "cols": 2, "rows": 2,
    ...                                       "numbering": {"stagger": "even-down"}}}]})
    >>> legend = legend_from_data({"kind": "legend", "terrain": {"clear": [250, 250, 240]},
    ...     "features": {"road": {"kind": "across", "color": [20, 20, 20]}}})
    >>> out = with_absence(doc, legend, {Hexside(Hex(0, 0), Hex(0, 1)): {"road": 0.28},
    ...                                  Hexside(Hex(0, 0), Hex(1, 0)): {"road": 0.92}})
    >>> out.hexside_features["road"].absent, [(s.key(), s.absent) for s in out.hexsides]
    (0.92, [(('0101', '0102'), {'road': 0.28})])
    """
    grid = next(iter(doc.grids().values()))
    unseen, doubts = _absences(legend, absent)
    data = doc.model_dump(mode="json", exclude_none=True)
    for name, value in unseen.items():
        data["hexside_features"][name]["absent"] = value
    entries = {_side_of(grid, entry): entry for entry in data["hexsides"]}
    for side, lines in doubts.items():
        entries.setdefault(side, _hexside_entry(grid, side, ()))["absent"] = lines
    data["hexsides"] = [entries[side] for side in sorted(entries)]
    return map_from_data(data, "<digitized map>")


def _side_of(grid: HexGrid, entry: Mapping[str, Any]) -> Hexside:
    """The hexside of a map document's entry (two hexes, or a hex and a direction)."""
    if "hexes" in entry:
        a, b = entry["hexes"]
        return grid.hexside(grid.hex(a), grid.hex(b))
    return grid.hexside_at(grid.hex(entry["hex"]), entry["direction"])


def _absences(legend: Legend, absent: Mapping[Hexside, Mapping[str, float]]
              ) -> tuple[dict[str, float], dict[Hexside, dict[str, float]]]:
    """Each line's confidence of absence where it left no trace, and the hexsides where
    the reading's differs (a trace seen, or ground that would hide the line).

    Listing every hexside would bury the few that say something: most show nothing.
    """
    unseen = {n: absence(f.kind, 0.0) for n, f in legend.features.items() if f.shape == "line"}
    doubts: dict[Hexside, dict[str, float]] = {}
    for side, lines in absent.items():
        differ = {n: round(float(v), 3) for n, v in sorted(lines.items())
                  if n in unseen and round(float(v), 3) != unseen[n]}
        if differ:
            doubts[side] = differ
    return unseen, doubts


def _hexside_entry(grid: HexGrid, side: Hexside, names: tuple[str, ...],
                   confidence: Mapping[str, float] | None = None,
                   drawn: Mapping[str, float] | None = None) -> dict[str, Any]:
    sure = ({"confidence": {n: round(float(confidence[n]), 3) for n in names if n in confidence}}
            if confidence else {})
    if drawn and any(n in drawn for n in names):
        sure["drawn"] = {n: round(float(drawn[n]), 3) for n in names if n in drawn}
    if grid.contains(side.a) and grid.contains(side.b):
        return {"hexes": sorted((grid.id(side.a), grid.id(side.b))), "features": list(names),
                **sure}
    inner, outer = (side.a, side.b) if grid.contains(side.a) else (side.b, side.a)
    d = grid.direction(inner, outer)
    assert d is not None
    return {"hex": grid.id(inner), "direction": grid.direction_names[d], "features": list(names),
            **sure}


def hex_corners(fit: GridFit, hexes: list[Hex]) -> NDArray[np.float64]:
    """Pixel corners of hexes on the scan, shape ``(n, 6, 2)``, in the grid's corner order.

    Pixels as OpenCV counts them: pixel ``(col, row)`` is the point ``(col, row)``, y down.
    """
    orientation = fit.grid.orientation
    su, sv = SCALE[orientation]
    offsets = np.array(scaled_corners(Hex(0, 0), orientation), float) / (su, sv)
    uv = hex_units(hexes, orientation)[:, None, :] + offsets[None, :, :]
    out: NDArray[np.float64] = fit.to_pixel(uv.reshape(-1, 2)).reshape(len(hexes), 6, 2)
    return out


def hexside_line(fit: GridFit, side: Hexside, kind: str) -> NDArray[np.float64]:
    """Where a hexside feature is drawn: two pixel points, shape ``(2, 2)``.

    Corner to corner for a feature ``kind`` ``"along"`` (a river), centre to
    centre for ``"across"`` (a road; at the map edge, to the hexside's middle).
    """
    grid = fit.grid
    if kind == "along":
        d = grid.direction(side.a, side.b)
        assert d is not None
        su, sv = SCALE[grid.orientation]
        c = np.array(scaled_corners(side.a, grid.orientation), float) / (su, sv)
        return fit.to_pixel(np.array([c[d - 1], c[d]]))
    ends = fit.centres([side.a, side.b])
    if not (grid.contains(side.a) and grid.contains(side.b)):
        inner, outer = (ends[0], ends[1]) if grid.contains(side.a) else (ends[1], ends[0])
        return np.array([inner, (inner + outer) / 2])
    return ends


def overlay(image: NDArray[np.uint8], fit: GridFit, terrain: Mapping[Hex, HexTerrain],
            hexsides: Mapping[Hexside, tuple[str, ...]], legend: Legend) -> NDArray[np.uint8]:
    """The findings drawn over a faded copy of the scan (RGB)."""
    out = (image.astype(np.uint16) // 2 + 128).astype(np.uint8)
    grid = fit.grid
    hexes = grid.hexes()
    corners = hex_corners(fit, hexes)
    width = max(1, round(fit.hex_width / 40))
    shift = 4  # sub-pixel drawing: coordinates in 1/16 px
    tint = out.copy()
    for h, poly in zip(hexes, corners, strict=True):
        centre = poly.mean(axis=0)
        inset = (centre + (poly - centre) * 0.8)
        colours = legend.terrain.get(terrain[h].terrain[0]) or ((128, 128, 128),)
        cv2.fillPoly(tint, [_fixed(inset, shift)], colours[0], cv2.LINE_AA, shift)
    out = np.asarray(cv2.addWeighted(tint, 0.55, out, 0.45, 0), dtype=np.uint8)
    cv2.polylines(out, [_fixed(p, shift) for p in corners], True, (40, 40, 40), width,
                  cv2.LINE_AA, shift)
    for side, names in sorted(hexsides.items()):
        for n in names:
            line = hexside_line(fit, side, legend.features[n].kind)
            colour = legend.features[n].colours[0]
            cv2.polylines(out, [_fixed(line, shift)], False, colour, 3 * width, cv2.LINE_AA, shift)
    for h, poly in zip(hexes, corners, strict=True):
        if terrain[h].confidence < UNSURE:
            centre = poly.mean(axis=0)
            radius = int(0.3 * fit.hex_width * (1 << shift))
            cv2.circle(out, tuple(int(v) for v in _fixed(centre[None], shift)[0]), radius,
                       (230, 0, 200), 2 * width, cv2.LINE_AA, shift)
    return np.asarray(out, dtype=np.uint8)


def _fixed(points: NDArray[np.float64], shift: int) -> NDArray[np.int32]:
    out: NDArray[np.int32] = np.rint(points * (1 << shift)).astype(np.int32)
    return out


def encode_png(image: NDArray[np.uint8], file: str | None = None) -> bytes:
    """PNG bytes of an RGB image."""
    ok, data = cv2.imencode(".png", cv2.cvtColor(image, cv2.COLOR_RGB2BGR))
    if not ok:  # pragma: no cover - OpenCV encodes any uint8 RGB image
        raise ImageError(file, "could not encode the overlay as PNG")
    return bytes(data.tobytes())
