"""Map data -> map image: a clean print, or a simulated scan or photo of one.

The digitizer's test bench: :func:`render_map` draws a board from its map
data (flat fills or printed-style textures, hexside features, grid, ids) and
:func:`simulate_scan` turns the picture into what a scanner makes of paper
(rotation, slight perspective, a crease, uneven light, yellowing, blur, noise,
JPEG), keeping the exact geometric transform so tests can score a digitizer.

The hard cases of real printed maps are drawn from the same data by the
:class:`RenderStyle` fields and live in their own modules: terrain looks
(``looks``: icons over political realms, stipple, rounded fills, waves),
CMYK dot screens (``halftone``), hex feature symbols and distractor names
(``icons``, ``labels``), the sheet's key, title, turn track and edge-to-edge
frame (``sheet``), a phone photo (``photo``), named styles and seeded sample
sheets (``styles``), and the truth in the foreign bench's format (``truth``).
Nothing in the rules depends on this package.
"""

from pipeline.render.draw import (
    DEFAULT_PALETTE,
    Rendered,
    RenderStyle,
    board_layout,
    drawn_hexsides,
    parse_hex_colour,
    printed_colours,
    render_map,
)
from pipeline.render.sample import sample_map
from pipeline.render.scan import Scan, ScanOptions, simulate_scan

__all__ = [
    "DEFAULT_PALETTE",
    "RenderStyle",
    "Rendered",
    "Scan",
    "ScanOptions",
    "board_layout",
    "drawn_hexsides",
    "parse_hex_colour",
    "printed_colours",
    "render_map",
    "sample_map",
    "simulate_scan",
]
