"""Counter style: the colours of each side and nationality, and a few layout choices.

A style is a small JSON document. The package ships a default
(``default_style.json``: Commonwealth tan, German grey, US green, after
001_2c092b02feae28f3.txt §2.4.4); a game's own style file only says what it
changes, and is laid over the default: its ``sides`` and ``nationalities``
add to (or replace, key by key) the default ones, any other key replaces the
default's. Every key is checked, with one located line for the first problem::

    style.json: nationalities.US.background: expected a colour written '#rrggbb', got 'green'

A counter takes the palette of its nationality (matched without regard to
case), else of its side, else the style's ``default``; a marker without a
side takes ``markers``. A side the style gives no colour is drawn in a colour
of its own, different for each such side, and said once
(:func:`complete_sides`)::

    units.csv:14: side 'soviet' has no colour in the counter style: drawn in #c9a7d6

A style may add unit types, each drawn from a file (``symbols``), and draw
counters from SVG templates (``templates``); file names are relative to the
style file::

    {"symbols": {"mountain_infantry": {"file": "symbols/mountain.svg"}},
     "templates": {"unit": "unit.svg", "marker": "marker.svg"}}

A game's style lives beside its manifests as ``style.json``
(:data:`pipeline.model.manifest.STYLE_FILE`): ``bocage counters`` uses it when
no ``--style`` is given, and every command accepts the unit types it adds.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from pipeline.errors import DataError
from pipeline.model.base import Color, Model
from pipeline.model.documents import parse_json, read_text, validate_document
from pipeline.model.manifest import (
    STYLE_FILE,
    TYPE_NAME,
    MarkerManifest,
    MarkerSpec,
    UnitManifest,
    UnitSpec,
)

__all__ = [
    "DEFAULT_STYLE_PATH",
    "SIDE_COLOURS",
    "VALUE_LAYOUTS",
    "CounterStyle",
    "Palette",
    "SymbolFile",
    "Templates",
    "complete_sides",
    "default_style",
    "game_style",
    "load_style",
    "rgb",
    "style_from_data",
]

DEFAULT_STYLE_PATH = Path(__file__).with_name("default_style.json")

ValueLayout = Literal[
    "auto", "attack-defence-movement", "strength-movement", "attack-range-defence-movement"
]
VALUE_LAYOUTS: tuple[str, ...] = (
    "auto", "attack-defence-movement", "strength-movement", "attack-range-defence-movement"
)
"""What the bottom band prints: 000/001 print attack-defence-movement, 003 strength-movement,
002 attack, range, defence, movement; ``auto`` picks by the columns the manifest fills."""


class Palette(Model):
    """The colours of one kind of counter."""

    background: Color = Field(description="the counter face")
    text: Color = Field("#000000", description="values and identifiers")
    box: Color | None = Field(None, description="inside the unit-type box; empty: background")
    ink: Color = Field("#000000", description="the unit-type box, its symbol and size mark")
    band: Color = Field("#ffffff", description="the band across the top of a reduced side")


class SymbolFile(Model):
    """A unit type's symbol drawn from a file instead of bocage's own shapes."""

    file: str = Field(description="an SVG, PNG or JPEG file, relative to the style file")
    fit: Literal["inside", "box"] = Field(
        "inside", description="inside: drawn in bocage's framed box, inside its frame; box:"
        " covers the whole box, the file drawing its own frame (a complete APP-6 symbol)")
    description: str = ""


class Templates(Model):
    """Counter templates: SVG files whose ``{column}`` fields the manifest fills."""

    unit: str | None = Field(None, description="a unit's front (and back, unless unit_back)")
    unit_back: str | None = Field(None, description="a unit's reduced side")
    marker: str | None = Field(None, description="a marker")


class CounterStyle(Model):
    """A whole style document (see the module docstring)."""

    notes: str = ""
    values: ValueLayout = "auto"
    default: Palette
    markers: Palette
    sides: dict[str, Palette] = {}
    nationalities: dict[str, Palette] = {}
    symbols: dict[str, SymbolFile] = Field(
        {}, description="unit type -> its symbol file: adds types, or redraws built-in ones")
    templates: Templates = Templates()
    mobile: Color = Field("#c8102e", description="box behind a mobile unit's movement"
                          " (000_3d79f68a6e3e33eb.txt §2.3: red box = mobile unit)")
    corner: Literal["setup", "none"] = Field(
        "setup", description="print the set-up hex or arrival turn in the top-left corner")

    def palette_for(self, item: UnitSpec | MarkerSpec) -> Palette:
        """The palette of a unit (nationality, side, default) or a marker (side, markers).

        Examples
        --------
        >>> from pipeline.model.manifest import UnitSpec
        >>> unit = UnitSpec(id="9/2", side="allied", nationality="us", type="infantry")
        >>> default_style().palette_for(unit).background
        '#a4b86d'
        """
        if isinstance(item, UnitSpec):
            if item.nationality is not None:
                found = _casefolded(self.nationalities).get(item.nationality.casefold())
                if found is not None:
                    return found
            return self.sides.get(item.side, self.default)
        if item.side is None:
            return self.markers
        return self.sides.get(item.side, self.markers)


def _casefolded(table: dict[str, Palette]) -> dict[str, Palette]:
    return {key.casefold(): value for key, value in table.items()}


def rgb(colour: str) -> tuple[int, int, int]:
    """``'#rrggbb'`` as an RGB tuple.

    >>> rgb("#a4b86d")
    (164, 184, 109)
    """
    value = int(colour[1:], 16)
    return (value >> 16) & 255, (value >> 8) & 255, value & 255


@functools.cache
def default_style() -> CounterStyle:
    """The style shipped with the package."""
    return style_from_data(_default_data(), DEFAULT_STYLE_PATH)


def _default_data() -> dict[str, Any]:
    data = parse_json(read_text(DEFAULT_STYLE_PATH), DEFAULT_STYLE_PATH)
    assert isinstance(data, dict)
    return data


def style_from_data(data: Any, file: str | Path | None = None) -> CounterStyle:
    """Validate parsed style data (already laid over the default, if wanted)."""
    return validate_document(CounterStyle, data, file)


def _resolve_files(data: dict[str, Any], path: Path) -> None:
    """Make the style's file names relative to the style file, and check they exist."""
    folder = path.parent

    def where(name: Any, key: str) -> Any:
        if not isinstance(name, str):
            return name  # the model says what is wrong with it
        found = Path(os.path.normpath(folder / name))
        if not found.is_file():
            raise DataError(path, key, f"no file '{name}' in {folder}")
        return str(found)

    symbols = data.get("symbols")
    if isinstance(symbols, dict):
        for name, entry in symbols.items():
            if not re.fullmatch(TYPE_NAME, name):
                raise DataError(path, f"symbols.{name}", "a unit type is written in lower"
                                " case letters, digits and '_', starting with a letter")
            if isinstance(entry, dict) and "file" in entry:
                entry["file"] = where(entry["file"], f"symbols.{name}.file")
    templates = data.get("templates")
    if isinstance(templates, dict):
        for key, name in templates.items():
            if name is not None:
                templates[key] = where(name, f"templates.{key}")


def load_style(path: str | Path | None) -> CounterStyle:
    """Read a style file and lay it over the default (``None``: the default itself).

    Parameters
    ----------
    path
        A JSON file; see the module docstring for what it may say.

    Raises
    ------
    DataError
        One line naming the file and the key: ``style.json: sides.allied.ink:
        expected a colour written '#rrggbb', got 'black'``.
    """
    if path is None:
        return default_style()
    data = parse_json(read_text(path), path)
    if not isinstance(data, dict):
        raise DataError(path, "", "expected a JSON object at the top level")
    _resolve_files(data, Path(path))
    merged = _default_data()
    for key, value in data.items():
        if key in ("sides", "nationalities") and isinstance(value, dict):
            merged[key] = {**merged.get(key, {}), **value}
        else:
            merged[key] = value
    return style_from_data(merged, path)


def game_style(manifests: Iterable[str | Path]) -> Path | None:
    """The game's style beside the first of ``manifests`` that has one, if any.

    >>> game_style(["no/such/units.csv"]) is None
    True
    """
    for manifest in manifests:
        candidate = Path(manifest).parent / STYLE_FILE
        if candidate.is_file():
            return candidate
    return None


SIDE_COLOURS: tuple[tuple[str, str], ...] = (
    ("#c9a7d6", "#efe4f4"), ("#e3b47c", "#f7e8d4"), ("#8fc1c9", "#ddeef0"),
    ("#d99a9a", "#f4dede"), ("#9fb0d9", "#e1e7f5"), ("#b9b57e", "#ecebd8"),
    ("#a6cfa0", "#e3f1e0"), ("#d4a3bd", "#f3e2eb"),
)
"""Background and box colours given, in turn, to sides a style has no colour for."""


def complete_sides(style: CounterStyle, units: UnitManifest | None,
                   markers: MarkerManifest | None = None) -> tuple[CounterStyle, list[str]]:
    """The style with a colour for every side the manifests name, and one line per side added.

    A unit whose nationality or side the style colours is left alone; a side
    it does not colour gets the next of :data:`SIDE_COLOURS`, so two such
    sides never look alike, and a warning naming the first row that has it.

    Examples
    --------
    >>> from pipeline.model.manifest import units_from_text
    >>> units = units_from_text("id,side,type\\n1,soviet,infantry\\n", "u.csv")
    >>> style, warnings = complete_sides(default_style(), units)
    >>> style.sides["soviet"].background, warnings[0].split(": ")[0]
    ('#c9a7d6', 'u.csv:2')
    """
    nations = {key.casefold() for key in style.nationalities}
    added: dict[str, Palette] = {}
    warnings: list[str] = []

    def need(side: str, file: str, line: int | None) -> None:
        if side in style.sides or side in added:
            return
        background, box = SIDE_COLOURS[len(added) % len(SIDE_COLOURS)]
        added[side] = Palette(background=background, box=box)
        warnings.append(f"{file}:{line or 0}: side '{side}' has no colour in the counter style:"
                        f" drawn in {background}; give it one under \"sides\" in {STYLE_FILE}"
                        " (or --style)")

    for unit in units or ():
        if unit.nationality is None or unit.nationality.casefold() not in nations:
            need(unit.side, units.file if units else "", units.line_of(unit.id) if units else 0)
    for marker in markers or ():
        if marker.side is not None:
            need(marker.side, markers.file if markers else "",
                 markers.line_of(marker.id) if markers else 0)
    if not added:
        return style, []
    return style.model_copy(update={"sides": {**style.sides, **added}}), warnings
