"""VASSAL modules: write them from game data, read them back safely, check them.

The exporter turns a game folder (map data, manifests, scenario), board images
and counter images into a ``.vmod`` whose grid names every hex exactly as the
printed map does; the reader and checker open any module (or bare build file)
without trusting it and report what VASSAL would stumble over. Facts come from
``shared/reference/vassal-format.md`` (VASSAL 3.6/3.7 source).
"""

from pipeline.vassal.build import BuildReport, build_module, parse_board_args
from pipeline.vassal.encoding import Decoder, PieceDefinition, Trait, decode, encode
from pipeline.vassal.grid import GridPlan, vassal_grid
from pipeline.vassal.images import counter_image_names, image_slug
from pipeline.vassal.location import VassalHexGrid, VassalNumbering
from pipeline.vassal.preview import Preview, preview_module

__all__ = [
    "BuildReport",
    "Decoder",
    "GridPlan",
    "PieceDefinition",
    "Preview",
    "Trait",
    "VassalHexGrid",
    "VassalNumbering",
    "build_module",
    "counter_image_names",
    "decode",
    "encode",
    "image_slug",
    "parse_board_args",
    "preview_module",
    "vassal_grid",
]
