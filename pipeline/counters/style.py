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
side takes ``markers``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from pipeline.errors import DataError
from pipeline.model.base import Color, Model
from pipeline.model.documents import parse_json, read_text, validate_document
from pipeline.model.manifest import MarkerSpec, UnitSpec

__all__ = [
    "DEFAULT_STYLE_PATH",
    "VALUE_LAYOUTS",
    "CounterStyle",
    "Palette",
    "default_style",
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


class CounterStyle(Model):
    """A whole style document (see the module docstring)."""

    notes: str = ""
    values: ValueLayout = "auto"
    default: Palette
    markers: Palette
    sides: dict[str, Palette] = {}
    nationalities: dict[str, Palette] = {}
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
    merged = _default_data()
    for key, value in data.items():
        if key in ("sides", "nationalities") and isinstance(value, dict):
            merged[key] = {**merged.get(key, {}), **value}
        else:
            merged[key] = value
    return style_from_data(merged, path)
