"""Counters: unit symbols, counter images and printable sheets.

``units.csv`` (and ``markers.csv``) -> a front and a back image per counter
(:func:`render_manifests`, :func:`write_counters`), a contact sheet of a whole
manifest (:func:`contact_sheet`), and a duplex PDF of counter sheets for
printing and cutting (:func:`write_sheet_pdf`). Colours come from a style
(:func:`load_style`); text from the fonts shipped in ``fonts/``.
"""

from pipeline.counters.measure import PAPERS, format_length, parse_length, parse_offset
from pipeline.counters.render import (
    Counter,
    RenderOptions,
    contact_sheet,
    render_manifests,
    render_marker,
    render_unit,
    write_counters,
)
from pipeline.counters.sheet import (
    Placement,
    SheetOptions,
    SheetPlan,
    plan_sheets,
    sheet_pdf,
    write_sheet_pdf,
)
from pipeline.counters.style import CounterStyle, Palette, default_style, load_style

__all__ = [
    "PAPERS",
    "Counter",
    "CounterStyle",
    "Palette",
    "Placement",
    "RenderOptions",
    "SheetOptions",
    "SheetPlan",
    "contact_sheet",
    "default_style",
    "format_length",
    "load_style",
    "parse_length",
    "parse_offset",
    "plan_sheets",
    "render_manifests",
    "render_marker",
    "render_unit",
    "sheet_pdf",
    "write_counters",
    "write_sheet_pdf",
]
