"""Unit and marker manifests: CSV files, one counter (or marker kind) a row.

Counter makers keep these in spreadsheets, so they are CSV and forgiving where
it costs nothing (a byte-order mark, spaces around values, blank lines) and
strict where a slip would print a wrong counter: unknown columns, unknown unit
types, sizes or flags, text in a number column, duplicate ids. Every error is
a :class:`ManifestError` naming the file and the CSV line (the header is line
1): ``units.csv:12: unknown unit type 'armr' (did you mean 'armor'?)``.

An empty cell means "not given by the rulebook" (``None``); counters print
``?`` there rather than invent a value.

Files are read row by row (a manifest is never held as text) and bounded: at
most :data:`MAX_ROWS` rows and :data:`MAX_MANIFEST_BYTES` bytes, a marker
printed at most :data:`MAX_COPIES` times, and no cell may hold a control
character (a NUL in a unit name would reach the counter and break the module).
"""

# No ``from __future__ import annotations`` here: pydantic then reads each field's type
# as an object, not a string it evaluates, which saves a sixth of the time building
# these classes takes at every start (issue 18).

import csv
import difflib
import io
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
    field_validator,
)

from pipeline.errors import DataError, ManifestError, did_you_mean
from pipeline.model.base import SIGNED_NUMBER_PATTERN, Invalid, Model, Name, Note
from pipeline.model.documents import forbidden_character, read_json
from pipeline.model.translate import describe, one_line, translate_error

__all__ = [
    "MARKER_COLUMNS",
    "MARKER_KINDS",
    "MAX_COPIES",
    "MAX_MANIFEST_BYTES",
    "MAX_ROWS",
    "STYLE_FILE",
    "TYPE_NAME",
    "UNIT_COLUMNS",
    "UNIT_FLAGS",
    "UNIT_SIZES",
    "UNIT_TYPES",
    "MarkerManifest",
    "MarkerSpec",
    "UnitManifest",
    "UnitSpec",
    "check_images",
    "declared_unit_types",
    "load_manifest",
    "load_markers",
    "load_units",
    "markers_from_text",
    "sniff_manifest",
    "units_from_text",
]

UNIT_COLUMNS = (
    "id", "name", "side", "nationality", "type", "size", "formation", "class",
    "attack", "defence", "range", "movement", "strength",
    "back_attack", "back_defence", "back_range", "back_movement", "back_strength",
    "steps", "flags", "setup_hex", "arrival_turn", "count", "image", "notes",
)
_UNIT_REQUIRED = ("id", "side", "type")
_UNIT_NUMBERS = frozenset({
    "attack", "defence", "range", "movement", "strength",
    "back_attack", "back_defence", "back_range", "back_movement", "back_strength",
})
_UNIT_WHOLE = frozenset({"steps", "arrival_turn", "count"})
STYLE_FILE = "style.json"
"""A game's counter style, beside its manifests (``counters/<game>/style.json``)."""
TYPE_NAME = r"^[a-z][a-z0-9_]*$"
"""How a unit type a counter style adds is written: ``mountain_infantry``."""

#: Unit types: the symbol in the counter's type box (000 §10.3, 003 §2.3.2, 002).
UNIT_TYPES: Mapping[str, str] = {
    "infantry": "infantry",
    "armor": "tank / panzer",
    "mechanized": "mechanized composite (000 §10.3)",
    "motorized": "motorized infantry",
    "panzer_grenadier": "panzer grenadier (003 §5.3.1)",
    "parachute": "parachute infantry (000 §10.3)",
    "glider": "glider infantry (000 §10.3)",
    "ranger": "ranger (000 §10.3)",
    "commando": "commando (000 §10.3)",
    "artillery": "artillery (001 §2.4.2)",
    "sp_artillery": "self-propelled artillery",
    "anti_tank": "anti-tank",
    "sp_anti_tank": "self-propelled anti-tank (000 §10.3)",
    "assault_gun": "assault gun (000 §10.3)",
    "tank_destroyer": "tank destroyer",
    "anti_aircraft": "anti-aircraft / flak (000 §10.3, 003 §2.3.2)",
    "headquarters": "headquarters (003 §9.0)",
    "recon": "reconnaissance",
    "scout": "scout (002)",
    "cavalry": "cavalry",
    "armored_cavalry": "armoured cavalry (003 §5.3.2)",
    "engineer": "engineer (002 Engineers)",
    "machine_gun": "machine gun (002)",
    "mortar": "mortar (002)",
    "halftrack": "halftrack (002)",
    "wagon": "wagon (002)",
    "truck": "truck (002)",
    "fortification": "fortification (001 §11.1.1, 002)",
    "beach_defence": "beach defence unit (001 §6.0)",
    "delay": "German delay unit (003 §15.0)",
}
#: Unit sizes, smallest first: the size symbol above the unit type box.
UNIT_SIZES = (
    "team", "squad", "section", "platoon", "company", "battalion", "regiment",
    "brigade", "division", "corps", "army", "kampfgruppe",
)
#: Printed or standing properties of a counter, with where the rules use them.
UNIT_FLAGS: Mapping[str, str] = {
    "mobile": "mobile unit (red box): moves in the Mobile Movement Phase, 000 §2.3, §5.5",
    "no_zoc": "black hexagon: exerts no ZOC, 000 §6.0",
    "artillery_parens": "attack strength in parentheses, used beyond the adjacent hex, 001 §2.4.2",
    "reduced_start": "starts the game on its reduced side (003)",
    "hq": "headquarters: no ZOC, free stacking, 003 §7.1, §9.2",
    "flak": "Flak: no ZOC, moves as infantry, 003 §5.3.1, §7.1",
    "delay": "German delay unit, 003 §15.0",
    "ranger": "ranger: ignores EZOC, 000 §11.2.3; one hex a mechanized phase, 003 §5.3.7",
    "commando": "commando: 000 §6.1 Exception; 003 §5.3.7",
    "paratroop": "airborne unit",
    "fortification": "fortification or beach defence unit: exerts a ZOC, no stacking value,"
                     " 001 §6.0, §11.1.1",
    "armored": "armoured vehicle: may overrun, armoured target (002)",
    "halftrack": "halftrack: may not overrun armoured units (002 Overrun Attacks)",
    "german_spa": "German SPA: may not overrun (002 Overrun Attacks)",
    "bridge_layer": "bridge-laying tank: may enter stream hexes (002)",
    "transport": "'C' at the top: may transport other units (002)",
    "indirect_fire": "'M' or '(H)': may use indirect fire (002)",
    "long_range": "'*' after the range: may fire beyond it at half strength (002)",
    "independent_armored_brigade": "British independent armoured brigade, 003 §6.2",
    "armored_cavalry": "US armoured cavalry regiment, 003 §6.2",
    "seaborne": "may be seaborne when retreating, 000 §8.3",
    "aa_flak": "German AA/Flak unit, 000 §15.0",
}

MAX_ROWS = 10_000
"""Rows a manifest may have (the biggest boxed games have a few thousand counters)."""
MAX_MANIFEST_BYTES = 16 << 20
"""Bytes a manifest file may have (16 MiB: 10,000 rows of 1,600 characters)."""
MAX_COPIES = 1_000
"""How many of one marker a manifest may ask to print."""

MARKER_COLUMNS = ("id", "kind", "side", "value", "count", "icon", "label", "notes")
_MARKER_REQUIRED = ("id", "kind")
#: What a marker can be: the ``kind`` column of markers.csv.
MARKER_KINDS = (
    "support_fire", "naval_support_fire", "beachhead", "game_turn", "supply_points",
    "step_loss", "out_of_supply", "air_points", "naval_points", "delay", "control", "other",
)


def _number(value: Any) -> int | float | None:
    # Keeps ints as ints (a counter prints 4, not 4.0); rejects bool, NaN, inf, < 0.
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        if math.isfinite(value) and value >= 0:
            return value
    raise Invalid((), f"expected a number >= 0, got {describe(value)}")


def _as_is(value: Any) -> Any:
    return value  # ints stay ints when dumped (the union type would warn)


Number = Annotated[
    int | float | None,
    PlainValidator(_number),
    PlainSerializer(_as_is),
    WithJsonSchema({"anyOf": [{"type": "number", "minimum": 0}, {"type": "null"}]}),
]


class UnitSpec(Model):
    """One unit of a manifest: what its counter prints. ``None`` means not given."""

    # "class" is a Python keyword: the field is unit_class, written "class" in files.
    model_config = ConfigDict(**Model.model_config, populate_by_name=True)

    id: str = Field(min_length=1)
    name: str | None = None
    side: Name
    nationality: str | None = None
    type: str = Field(json_schema_extra={"anyOf": [
        {"enum": list(UNIT_TYPES)},
        {"pattern": TYPE_NAME, "description": "a type whose symbol the counter style declares"
         " under \"symbols\""}]})
    size: str | None = Field(None, json_schema_extra={"enum": [*UNIT_SIZES, None]})
    formation: str | None = None
    unit_class: str | None = Field(None, alias="class",
                                   description="rules unit class (leg, mobile...)")
    attack: Number = None
    defence: Number = None
    range: Number = None
    movement: Number = None
    strength: Number = None
    back_attack: Number = None
    back_defence: Number = None
    back_range: Number = None
    back_movement: Number = None
    back_strength: Number = None
    steps: int | None = Field(None, ge=1)
    flags: list[str] = Field([], json_schema_extra={"items": {"enum": list(UNIT_FLAGS)}})
    setup_hex: str | None = None
    arrival_turn: int | None = Field(None, ge=0)
    count: int | None = Field(None, ge=1, description="how many counters of this unit the game"
                              " has (printed that many times); empty: one")
    image: str | None = Field(None, description="a picture (PNG, JPEG or SVG) drawn in the"
                              " unit-type box instead of the type's symbol; a path relative"
                              " to the manifest's folder")
    notes: Note = ""

    @field_validator("type")
    @classmethod
    def _known_type(cls, value: str, info: ValidationInfo) -> str:
        extra = (info.context or {}).get("unit_types", ())
        if value not in UNIT_TYPES and value not in extra:
            known = [*UNIT_TYPES, *extra]
            hint = _hint(value, known)
            # A slip of a letter or two ('armr') gets the near name only; a name of its own
            # ('mountain_infantry', near 'infantry') is told how a new type is declared too.
            typo = max(difflib.SequenceMatcher(None, value, k).ratio() for k in known) >= 0.8
            if re.fullmatch(TYPE_NAME, value) and not typo:
                declare = (f"a new type needs its symbol in the counter style's \"symbols\","
                           f" see {STYLE_FILE}")
                hint = f"{hint[:-1]}; {declare})" if hint else f" ({declare})"
            raise Invalid((), f"unknown unit type '{value}'{hint}")
        return value

    @field_validator("size")
    @classmethod
    def _known_size(cls, value: str | None) -> str | None:
        if value is not None and value not in UNIT_SIZES:
            raise Invalid((), f"unknown unit size '{value}'{_hint(value, UNIT_SIZES)}")
        return value

    @field_validator("flags")
    @classmethod
    def _known_flags(cls, value: list[str]) -> list[str]:
        for i, flag in enumerate(value):
            if flag not in UNIT_FLAGS:
                raise Invalid((i,), f"unknown flag '{flag}'{_hint(flag, UNIT_FLAGS)}")
            if flag in value[:i]:
                raise Invalid((i,), f"flag '{flag}' is given twice")
        return value

    def has(self, flag: str) -> bool:
        """Whether the unit carries ``flag``."""
        return flag in self.flags


class MarkerSpec(Model):
    """One kind of marker of a manifest, with how many the game has."""

    id: str = Field(min_length=1)
    kind: Literal[
        "support_fire", "naval_support_fire", "beachhead", "game_turn", "supply_points",
        "step_loss", "out_of_supply", "air_points", "naval_points", "delay", "control", "other",
    ]
    side: Name | None = None
    value: str | None = Field(None, pattern=SIGNED_NUMBER_PATTERN)
    count: int | None = Field(None, ge=1, le=MAX_COPIES,
                              description="how many the game has; empty: not given")
    icon: str | None = None
    label: str | None = None
    notes: Note = ""




@dataclass(frozen=True)
class _Manifest[Row: BaseModel]:
    file: str
    rows: tuple[Row, ...]
    lines: Mapping[str, int] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def line_of(self, row_id: str) -> int | None:
        """The CSV line a row was read from (``None`` for rows made in memory)."""
        return self.lines.get(row_id)


@dataclass(frozen=True)
class UnitManifest(_Manifest[UnitSpec]):
    """The units of a game, in file order."""

    def get(self, unit_id: str) -> UnitSpec | None:
        """The unit with this id, or ``None``."""
        return next((u for u in self.rows if u.id == unit_id), None)

    def ids(self) -> list[str]:
        """Unit ids in file order."""
        return [u.id for u in self.rows]


@dataclass(frozen=True)
class MarkerManifest(_Manifest[MarkerSpec]):
    """The marker kinds of a game, in file order."""

    def get(self, marker_id: str) -> MarkerSpec | None:
        """The marker with this id, or ``None``."""
        return next((m for m in self.rows if m.id == marker_id), None)

    def total(self) -> int:
        """How many marker counters the manifest adds up to (rows without a count excluded)."""
        return sum(m.count or 0 for m in self.rows)


# -- reading ---------------------------------------------------------------------------


def _hint(word: str, choices: Any) -> str:
    """did-you-mean that also catches a change of case ('ID' -> 'id')."""
    choices = list(choices)
    lowered = {c.lower(): c for c in choices}
    if word.lower() in lowered:
        return f" (did you mean '{lowered[word.lower()]}'?)"
    return did_you_mean(word, choices)


def _header(
    cells: list[str], file: str, columns: tuple[str, ...], required: tuple[str, ...]
) -> list[str]:
    names = [c.strip() for c in cells]
    for i, name in enumerate(names):
        if not name:
            raise ManifestError(file, 1, None, f"column {i + 1} of the header has no name"
                                " (a stray comma?)")
        if name not in columns:
            raise ManifestError(file, 1, name, f"unknown column '{name}'{_hint(name, columns)}")
        if name in names[:i]:
            raise ManifestError(file, 1, name, f"column '{name}' appears twice in the header")
    for name in required:
        if name not in names:
            need = ", ".join(required)
            raise ManifestError(file, 1, name, f"missing required column '{name}'"
                                f" (the header must name at least {need})")
    return names


def _rows(lines: Iterable[str], file: str) -> Iterator[tuple[int, list[str]]]:
    """CSV rows with the line each starts on; csv and decoding errors become ManifestErrors."""
    reader = csv.reader(lines, strict=True)
    start = 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise ManifestError(file, reader.line_num or start, None, f"bad CSV ({exc})") from None
        except UnicodeDecodeError:
            raise ManifestError(file, reader.line_num + 1, None, "not UTF-8 text; save the file"
                                " as UTF-8") from None
        yield start, row
        start = reader.line_num + 1


def _clean(cells: list[str], names: list[str] | None, line: int, file: str) -> None:
    for i, cell in enumerate(cells):
        bad = forbidden_character(cell)
        if bad is None:
            continue
        column = names[i] if names is not None and i < len(names) else None
        where = f"{column}: " if column else f"column {i + 1}: "
        if "U+DC80" <= bad <= "U+DCFF":
            # A byte the file's UTF-8 decoding could not read (kept as an escape to be named here).
            raise ManifestError(file, line, column, f"{where}not UTF-8 text (byte"
                                f" 0x{int(bad[2:], 16) - 0xDC00:02x}); save the file as UTF-8")
        raise ManifestError(file, line, column, f"{where}the cell holds the control"
                            f" character {bad}; remove it")


def _read(
    lines: Iterable[str], file: str, columns: tuple[str, ...], required: tuple[str, ...]
) -> Iterator[tuple[int, dict[str, str]]]:
    rows = _rows(lines, file)
    first = next(rows, None)
    if first is not None and first[1]:
        first[1][0] = first[1][0].removeprefix("\ufeff")
    if first is None or not any(c.strip() for c in first[1]):
        raise ManifestError(file, 1, None, "no header row: the first line must name the columns"
                            f" ({', '.join(columns)})")
    _clean(first[1], None, 1, file)
    names = _header(first[1], file, columns, required)
    for line, cells in rows:
        if not any(c.strip() for c in cells):
            continue  # blank line
        if len(cells) != len(names):
            raise ManifestError(file, line, None, f"row has {len(cells)} fields but the header"
                                f" has {len(names)} (a missing or extra comma?)")
        _clean(cells, names, line, file)
        row = {n: c.strip() for n, c in zip(names, cells, strict=True)}
        for name in required:
            if not row[name]:
                raise ManifestError(file, line, name, f"{name}: required, but the cell is empty")
        yield line, row


def _convert_unit(line: int, cells: dict[str, str], file: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, text in cells.items():
        if name == "flags":
            out[name] = [f.strip() for f in text.split(";") if f.strip()]
        elif name == "notes":
            out[name] = text
        elif not text:
            out[name] = None
        elif name in _UNIT_NUMBERS:
            out[name] = _parse_number(text, name, line, file, whole=False)
        elif name in _UNIT_WHOLE:
            out[name] = _parse_number(text, name, line, file, whole=True)
        else:
            out[name] = text
    return out


def _convert_marker(line: int, cells: dict[str, str], file: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, text in cells.items():
        if name == "notes":
            out[name] = text
        elif not text:
            out[name] = None
        elif name == "count":
            out[name] = _parse_number(text, name, line, file, whole=True)
        else:
            out[name] = text
    return out


_SELF_DESCRIBED = frozenset({"type", "size", "flags"})
_INT = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?(\d+\.\d*|\.\d+)")


def _parse_number(text: str, column: str, line: int, file: str, *, whole: bool) -> int | float:
    # Only plain ASCII decimals: int() would also take '٣' and '1_000'.
    if _INT.fullmatch(text) and text.isascii():
        return int(text)
    if not whole and _DECIMAL.fullmatch(text) and text.isascii():
        return float(text)
    kind = "a whole number" if whole else "a number"
    raise ManifestError(file, line, column, f"{column}: '{text}' is not {kind}")


def _manifest_rows[Row: BaseModel](text: Iterable[str], name: str, columns: tuple[str, ...],
                   required: tuple[str, ...], model: type[Row],
                   convert: Callable[[int, dict[str, str], str], dict[str, Any]],
                   what: str, context: dict[str, Any] | None = None
                   ) -> tuple[tuple[Row, ...], dict[str, int]]:
    """The validated rows of a manifest and the CSV line of each id (ids are unique)."""
    rows: list[Row] = []
    lines: dict[str, int] = {}
    for line, cells in _read(text, name, columns, required):
        if len(rows) == MAX_ROWS:
            raise ManifestError(name, line, None, f"more than {MAX_ROWS:,} rows; a manifest"
                                f" holds at most {MAX_ROWS:,} units or markers")
        row = _validate(model, convert(line, cells, name), line, name, context)
        row_id = str(getattr(row, "id"))  # noqa: B009 (a row model; BaseModel has no id)
        if row_id in lines:
            raise ManifestError(name, line, "id", f"duplicate {what} id '{row_id}'"
                                f" (first on line {lines[row_id]})")
        lines[row_id] = line
        rows.append(row)
    return tuple(rows), lines


def _validate[Row: BaseModel](model: type[Row], data: dict[str, Any], line: int, file: str,
              context: dict[str, Any] | None = None) -> Row:
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        path, message = translate_error(err, model)
        column = str(path[0]) if path else None
        # Messages of the vocabulary checks name the thing already ("unknown unit type ...").
        if column and column not in _SELF_DESCRIBED:
            message = f"{column}: {message}"
        raise ManifestError(file, line, column, message) from None


@one_line
def units_from_text(text: str, file: str | Path = "<units>", *,
                    unit_types: Iterable[str] = ()) -> UnitManifest:
    """Parse a units manifest from CSV text.

    Parameters
    ----------
    text
        The CSV, header first.
    file
        Name used in messages.
    unit_types
        Types besides :data:`UNIT_TYPES` that a counter style declares
        (:func:`declared_unit_types`).

    Examples
    --------
    >>> m = units_from_text("id,side,type,attack\\n9/2,allied,infantry,\\n", "u.csv")
    >>> m.get("9/2").attack is None, m.get("9/2").type
    (True, 'infantry')
    >>> units_from_text("id,side,type\\n1,a,mountain_infantry\\n", "u.csv",
    ...                 unit_types=["mountain_infantry"]).get("1").type
    'mountain_infantry'
    """
    return _units(io.StringIO(text, newline=""), file, unit_types)


@one_line
def _units(lines: Iterable[str], file: str | Path,
           unit_types: Iterable[str] = ()) -> UnitManifest:
    name = str(file)
    units, where = _manifest_rows(lines, name, UNIT_COLUMNS, _UNIT_REQUIRED, UnitSpec,
                                  _convert_unit, "unit", {"unit_types": frozenset(unit_types)})
    return UnitManifest(name, units, where)


@one_line
def markers_from_text(text: str, file: str | Path = "<markers>") -> MarkerManifest:
    """Parse a markers manifest from CSV text (see :func:`units_from_text`)."""
    return _markers(io.StringIO(text, newline=""), file)


@one_line
def _markers(lines: Iterable[str], file: str | Path) -> MarkerManifest:
    name = str(file)
    markers, where = _manifest_rows(lines, name, MARKER_COLUMNS, _MARKER_REQUIRED, MarkerSpec,
                                    _convert_marker, "marker")
    return MarkerManifest(name, markers, where)


@contextmanager
def _lines(path: str | Path) -> Iterator[IO[str]]:
    """A manifest file opened for reading row by row, its size checked first."""
    try:
        size = os.stat(path).st_size
        if size > MAX_MANIFEST_BYTES:
            raise DataError(path, "", f"is over {MAX_MANIFEST_BYTES >> 20} MiB, more than a"
                            f" manifest of {MAX_ROWS:,} rows needs; is it the right file?")
        # Undecodable bytes become escapes that the cell check names with their row.
        fh = open(path, encoding="utf-8-sig", errors="surrogateescape", newline="")
    except IsADirectoryError:
        raise DataError(path, "", "is a folder, not a file") from None
    except FileNotFoundError:
        raise DataError(path, "", "no such file") from None
    except OSError as exc:
        raise DataError(path, "", f"cannot read file ({exc.strerror or exc})") from None
    with fh:
        yield fh


def declared_unit_types(folder: str | Path) -> frozenset[str]:
    """The unit types the counter style in ``folder`` (:data:`STYLE_FILE`) adds, if any.

    A game's counter style lives beside its manifests; the names under its
    ``"symbols"`` are unit types its units may have (``mountain_infantry``),
    drawn from the files the style names. Only the names are read here; the
    style itself is checked by ``bocage counters``.

    >>> declared_unit_types("no such folder")
    frozenset()
    """
    path = Path(folder) / STYLE_FILE
    if not path.is_file():
        return frozenset()
    data = read_json(path)
    symbols = data.get("symbols", {}) if isinstance(data, dict) else {}
    if not isinstance(symbols, dict):
        raise DataError(path, "symbols", "expected an object: unit type -> its symbol file")
    for name in symbols:
        if not re.fullmatch(TYPE_NAME, name):
            raise DataError(path, f"symbols.{name}", "a unit type is written in lower case"
                            " letters, digits and '_', starting with a letter")
    return frozenset(symbols)


def check_images(manifest: UnitManifest) -> None:
    """Refuse a unit whose ``image`` file is missing, naming its CSV line.

    Images are looked for relative to the manifest's folder.
    """
    folder = Path(manifest.file).parent
    for unit in manifest:
        if unit.image is not None and not (folder / unit.image).is_file():
            raise ManifestError(manifest.file, manifest.line_of(unit.id) or 0, "image",
                                f"image: no file '{unit.image}' in {folder}")


def load_units(path: str | Path, *, unit_types: Iterable[str] = ()) -> UnitManifest:
    """Read a units manifest (``units.csv``); errors name the file and CSV line.

    Unit types declared by the counter style beside it (:func:`declared_unit_types`)
    are accepted, and so are ``unit_types``; every ``image`` must name a file.
    """
    extra = declared_unit_types(Path(path).parent) | frozenset(unit_types)
    with _lines(path) as fh:
        manifest = _units(fh, path, extra)
    check_images(manifest)
    return manifest


def load_markers(path: str | Path) -> MarkerManifest:
    """Read a markers manifest (``markers.csv``) row by row (see :func:`load_units`)."""
    with _lines(path) as fh:
        return _markers(fh, path)


def load_manifest(path: str | Path, *,
                  unit_types: Iterable[str] = ()) -> UnitManifest | MarkerManifest:
    """Read a manifest of either kind, told apart by its header (:func:`sniff_manifest`).

    A units manifest accepts the types the style beside it declares and
    ``unit_types``, and its images must exist (as :func:`load_units`).

    >>> from pathlib import Path
    >>> demo = Path(__file__).resolve().parents[2] / "counters" / "demo"
    >>> type(load_manifest(demo / "markers.csv")).__name__
    'MarkerManifest'
    """
    with _lines(path) as fh:
        try:
            header = next(csv.reader(fh), [])
        except (csv.Error, UnicodeDecodeError):
            header = []  # the row reader reports the broken header properly
        fh.seek(0)
        kind = sniff_manifest(header) if header else "units"
        if kind == "units":
            units = _units(fh, path, declared_unit_types(Path(path).parent)
                           | frozenset(unit_types))
            check_images(units)
            return units
        if kind == "markers":
            return _markers(fh, path)
    raise ManifestError(path, 1, None, "not a units or markers manifest: the header names none"
                        " of their columns (units: id,side,type,...; markers: id,kind,...)")


def sniff_manifest(header: list[str]) -> Literal["units", "markers"] | None:
    """Which manifest a CSV header belongs to, by the columns only one of them has.

    >>> sniff_manifest(["id", "kind", "count"]), sniff_manifest(["id", "side", "type"])
    ('markers', 'units')
    """
    names = {h.strip().removeprefix("\ufeff") for h in header}
    only_markers = len(names & (set(MARKER_COLUMNS) - set(UNIT_COLUMNS)))
    only_units = len(names & (set(UNIT_COLUMNS) - set(MARKER_COLUMNS)))
    if only_markers > only_units:
        return "markers"
    if only_units or names & set(UNIT_COLUMNS):
        return "units"
    return None
