"""Counters: unit symbols, counter images and printable sheets.

``units.csv`` (and ``markers.csv``) -> a front and a back image per counter
(:func:`render_manifests`, :func:`write_counters`; on every core,
:func:`pipeline.counters.render.write_manifests`), a contact sheet of a whole
manifest (:func:`contact_sheet`), and a duplex PDF of counter sheets for
printing and cutting, as vector art (:func:`write_sheet_pdf`). Each face is
laid out once (:mod:`pipeline.counters.art`) and drawn by two back-ends
(:mod:`~pipeline.counters.raster`, :mod:`~pipeline.counters.vector`). Colours,
symbol files and counter templates (:mod:`pipeline.counters.template`) come
from a style (:func:`load_style`); text from the fonts shipped in ``fonts/``.

Each name is imported from its module when first asked for (:mod:`pipeline.lazy`): a
command that draws counter faces does not import the PDF sheets and the game folders.
"""

import typing as _typing

from pipeline.lazy import exports as _exports

if _typing.TYPE_CHECKING:  # the same names as the table below, for type checkers
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

#: Each public module of the package and the names it gives the package.
_SOURCES: dict[str, tuple[str, ...]] = {
    "pipeline.counters.measure": ("PAPERS", "format_length", "parse_length", "parse_offset"),
    "pipeline.counters.render": (
        "Counter", "RenderOptions", "contact_sheet", "render_manifests", "render_marker",
        "render_unit", "write_counters",
    ),
    "pipeline.counters.sheet": (
        "Placement", "SheetOptions", "SheetPlan", "plan_sheets", "sheet_pdf", "write_sheet_pdf",
    ),
    "pipeline.counters.style": ("CounterStyle", "Palette", "default_style", "load_style"),
}

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

if not _typing.TYPE_CHECKING:  # type checkers take the imports above, and no others
    __getattr__, __dir__ = _exports(__name__, _SOURCES)
