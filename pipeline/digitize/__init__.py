"""Scan -> map data: grid calibration, terrain per hex, hexside features, outputs.

The stages, one idea a module:

* :mod:`~pipeline.digitize.scanfile` reads a scan (and refuses a truncated one);
* :mod:`~pipeline.digitize.calibrate` finds the printed grid (automatically,
  from anchors or from a layout), with :mod:`~pipeline.digitize.lattice`,
  :mod:`~pipeline.digitize.refine` and :mod:`~pipeline.digitize.extent`, into a
  :class:`~pipeline.digitize.gridfit.GridFit`;
* :mod:`~pipeline.digitize.legend` names the terrains and says which colours mean what;
  :mod:`~pipeline.digitize.colours` names a pixel's colour and
  :mod:`~pipeline.digitize.light` undoes yellowing and uneven light;
* :mod:`~pipeline.digitize.classify` gives each hex its terrain, shares and
  confidence, learnt from the builder's examples on this map: every hex resampled into a
  patch (:mod:`~pipeline.digitize.patches`), described
  (:mod:`~pipeline.digitize.describe`), the examples drawn again with what is not terrain
  over them (:mod:`~pipeline.digitize.augment`), a forest taught from them
  (:mod:`~pipeline.digitize.learn`), area shares per cell
  (:mod:`~pipeline.digitize.shares`), and a legend's printed colours read by
  :mod:`~pipeline.digitize.vote`; :mod:`~pipeline.digitize.hexsides` finds rivers,
  bars, roads and bridges, each with how sure it is
  (:mod:`~pipeline.digitize.sideconfidence`), reading lines with
  :mod:`~pipeline.digitize.linereader` where :mod:`~pipeline.digitize.sidegeometry`
  says, roads and railroads with :mod:`~pipeline.digitize.crossings`, bridges with
  :mod:`~pipeline.digitize.bridges`, on a scan :mod:`~pipeline.digitize.screen`
  descreens, against each hex's own colours (:mod:`~pipeline.digitize.hexcolours`)
  and the lines' as the scan shows them (:mod:`~pipeline.digitize.linecolours`);
* :mod:`~pipeline.digitize.symbols` finds hex symbols (towns) from example hexes;
* :mod:`~pipeline.digitize.outputs` writes map.json and an overlay, and
  :mod:`~pipeline.digitize.gis` the hexes and hexsides as a GIS's layers (GeoJSON,
  a GeoPackage) with a world file for the scan, all in the frame a GIS shows it in;
  :mod:`~pipeline.digitize.run` does it all in one call, :mod:`~pipeline.digitize.summary`
  says what a reading found as plain data, and :mod:`~pipeline.digitize.batch` reads many
  scans at once (on every core, or on a Dask cluster).

The package knows no game: everything game-specific is in the legend and the grid.
"""

from pipeline.digitize.calibrate import calibrate, fit_anchors
from pipeline.digitize.classify import (
    Classification,
    HexTerrain,
    Teaching,
    TerrainReader,
    classify_hexes,
)
from pipeline.digitize.gis import geojson, geojson_text, geopackage, world_file
from pipeline.digitize.gridfit import GridFit
from pipeline.digitize.hexsides import detect_hexsides
from pipeline.digitize.learn import Learner
from pipeline.digitize.legend import (
    FeatureKey,
    Legend,
    legend_document,
    legend_from_data,
    legend_from_map,
    load_legend,
)
from pipeline.digitize.outputs import build_map, encode_png, overlay
from pipeline.digitize.run import STAGES, Digitization, digitize, digitize_scan
from pipeline.digitize.scanfile import load_scan

__all__ = [
    "STAGES",
    "Classification",
    "Digitization",
    "FeatureKey",
    "GridFit",
    "HexTerrain",
    "Learner",
    "Legend",
    "Teaching",
    "TerrainReader",
    "build_map",
    "calibrate",
    "classify_hexes",
    "detect_hexsides",
    "digitize",
    "digitize_scan",
    "encode_png",
    "fit_anchors",
    "geojson",
    "geojson_text",
    "geopackage",
    "legend_document",
    "legend_from_data",
    "legend_from_map",
    "load_legend",
    "load_scan",
    "overlay",
    "world_file",
]
