"""JSON documents in and out: read with located errors, write deterministically.

Reading never lets a raw exception through: an unreadable file, bytes that
are not UTF-8, broken JSON, a top level that is not an object, a missing or
unknown ``kind`` and every shape error each become one :class:`DataError`.
:func:`parse_json` is the one JSON reader of every document bocage takes
(data files, styles, scenario cases): it refuses what Python's parser lets
through (NaN, Infinity and numbers too big for a float, a key given twice)
and what no output could hold (nesting deeper than :data:`MAX_DEPTH`, control
characters and lone surrogates in strings), and files over
:data:`MAX_DOCUMENT_BYTES` are not read at all.
Writing is atomic (a temporary file renamed over the target) and byte-stable
(the same model always gives the same bytes).
"""

from __future__ import annotations

import json
import logging
import math
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from pipeline.errors import DataError, did_you_mean
from pipeline.files import write_text_atomic
from pipeline.model.base import Model
from pipeline.model.translate import describe, format_path, one_line, to_data_error

__all__ = [
    "JSON_KINDS",
    "MAX_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "document_kind",
    "dumps",
    "forbidden_character",
    "parse_json",
    "read_json",
    "read_text",
    "save_json",
    "validate_document",
    "write_text_atomic",
]


# The kinds of JSON document bocage knows; CSV manifests are told apart by header.
JSON_KINDS = ("crt", "facts", "map", "position", "rules", "scenario")

MAX_DOCUMENT_BYTES = 64 << 20
"""The largest data file read (64 MiB; the biggest game's map.json is under 1 MiB)."""
MAX_DEPTH = 64
"""The deepest nesting of lists and objects a document may have (bocage's go 8 deep)."""

# What XML 1.0 cannot hold (so no module could carry it) and UTF-8 cannot encode
# (lone surrogates): never meant in a name or a note.
_log = logging.getLogger(__name__)  # what was read, for --verbose
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def forbidden_character(text: str) -> str | None:
    """The first character of ``text`` no data file may hold, written ``U+0000``, or ``None``.

    Tabs and line ends are allowed; other control characters, lone surrogates
    and the non-characters U+FFFE and U+FFFF are not.

    >>> forbidden_character("914/352"), forbidden_character("9\\x002")
    (None, 'U+0000')
    """
    match = _FORBIDDEN.search(text)
    return None if match is None else f"U+{ord(match.group()):04X}"


def read_text(path: str | Path, limit: int = MAX_DOCUMENT_BYTES) -> str:
    """The text of a file, or one :class:`DataError` saying why it cannot be read.

    A UTF-8 byte-order mark is dropped (spreadsheet programs write one). A file
    over ``limit`` bytes is refused unread.
    """
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except IsADirectoryError:
        raise DataError(path, "", "is a folder, not a file") from None
    except FileNotFoundError:
        raise DataError(path, "", "no such file") from None
    except OSError as exc:
        raise DataError(path, "", f"cannot read file ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise DataError(path, "", f"is over {limit >> 20} MiB, more than any bocage data file"
                        " needs; is it the right file?")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(
            path, "", f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start});"
            " save the file as UTF-8"
        ) from None


class _DuplicateKeys(dict[str, Any]):
    """An object that had a key twice (JSON parsers silently keep the last one)."""

    duplicate: str = ""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            dup = _DuplicateKeys(out)
            dup.duplicate = key
            out = dup
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is too large")
    return value


@one_line
def parse_json(text: str, file: str | Path | None) -> Any:
    """Parse JSON text; errors name the line and column, or the place in the document.

    NaN and Infinity (which Python's parser accepts but JSON does not), numbers
    too large for a float, keys given twice in one object, nesting deeper than
    :data:`MAX_DEPTH` and strings holding a :func:`forbidden_character` are
    errors too.

    >>> parse_json('{"a": [1, 2]}', "x.json")
    {'a': [1, 2]}
    >>> parse_json('{"a": 1, "a": 2}', "x.json")
    Traceback (most recent call last):
    ...
    pipeline.errors.DataError: x.json: key 'a' is given twice; keep one
    """
    try:
        data = json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant,
                          parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise DataError(
            file, f"line {exc.lineno} column {exc.colno}", f"invalid JSON ({exc.msg})"
        ) from None
    except RecursionError:
        raise DataError(file, "", f"invalid JSON (nested more than {MAX_DEPTH} deep)") from None
    except ValueError as exc:  # from the hooks, or an integer of over 4300 digits
        message = str(exc) if "JSON" in str(exc) or "too large" in str(exc) else (
            "a number with too many digits")
        raise DataError(file, "", f"invalid JSON ({message})") from None
    problem = _first_problem(data)
    if problem is not None:
        path, message = problem
        raise DataError(file, format_path(path), message)
    return data


def _first_problem(value: Any) -> tuple[tuple[str | int, ...], str] | None:
    """The place and the problem of the first key given twice, nesting too deep, or
    string with a forbidden character, in document order."""
    # Iterative walk: a document can be deep, recursion limits are low.
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, where = stack.pop()
        if len(where) > MAX_DEPTH:
            return where[:MAX_DEPTH], f"nested more than {MAX_DEPTH} deep"
        if isinstance(item, str):
            bad = forbidden_character(item)
            if bad is not None:
                return where, f"the text holds the control character {bad}; remove it"
        elif isinstance(item, _DuplicateKeys):
            return where, f"key '{item.duplicate}' is given twice; keep one"
        elif isinstance(item, dict):
            for key in item:
                bad = forbidden_character(key)
                if bad is not None:
                    return where, f"a key holds the control character {bad}; remove it"
            stack.extend((v, (*where, k)) for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((v, (*where, i)) for i, v in reversed(list(enumerate(item))))
    return None


def read_json(path: str | Path) -> Any:
    """Read and parse a JSON file (see :func:`parse_json`)."""
    data = parse_json(read_text(path), path)
    _log.info("read %s", path)
    return data


@one_line
def document_kind(data: Any, file: str | Path | None) -> str:
    """The ``kind`` of a parsed document, checked against :data:`JSON_KINDS`.

    >>> document_kind({"kind": "map"}, "m.json")
    'map'
    """
    if not isinstance(data, dict):
        raise DataError(
            file, "", f"expected a JSON object at the top level, got {describe(data)}"
        )
    if "kind" not in data:
        choices = ", ".join(f"'{k}'" for k in JSON_KINDS)
        raise DataError(file, "", f'no "kind" key at the top level (one of {choices})')
    kind = data["kind"]
    if not isinstance(kind, str):
        raise DataError(file, "kind", f"expected a string, got {describe(kind)}")
    if kind not in JSON_KINDS:
        choices = ", ".join(f"'{k}'" for k in JSON_KINDS)
        raise DataError(
            file, "kind",
            f"unknown kind {describe(kind)}{did_you_mean(kind, JSON_KINDS)} (one of {choices})",
        )
    return kind


@one_line
def validate_document[M: BaseModel](
    model: type[M], data: Any, file: str | Path | None, kind: str | None = None
) -> M:
    """Validate parsed data as ``model``; any problem is one located :class:`DataError`.

    Parameters
    ----------
    model
        The class to validate as.
    data
        Parsed JSON (or any Python data of the same shape).
    file
        Name used in messages (the path as the user gave it).
    kind
        When given, the document's ``kind`` must be this one.
    """
    if kind is not None:
        found = document_kind(data, file)
        if found != kind:
            raise DataError(file, "kind", f"this is a '{found}' document, expected '{kind}'")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise to_data_error(exc, str(file) if file is not None else None, model) from None
    except RecursionError:
        raise DataError(file, "", "data nested too deeply") from None


def dumps(model: BaseModel) -> str:
    """Deterministic JSON text of a model.

    Fields keep their declared order (``kind`` first, then what a reader looks
    for); mapping keys are sorted (hex ids, terrain names: their order means
    nothing); lists keep their order (it can mean something: a hex's main
    terrain first). Optional fields left at their default are omitted, whole
    numbers are written without ``.0``, indent is 2, lists of plain values and
    short objects of them stay on one line (``"terrain": ["clear", "village"]``,
    ``{"id": "9/2", "hex": "2318"}``) and there is a final newline.
    """
    return _encode(_plain(model), "") + "\n"


_LINE = 100  # objects and lists of plain values this short stay on one line


def _flat(value: Any) -> bool:
    """Plain values, or lists of them: what may share a line."""
    if isinstance(value, list):
        return all(not isinstance(v, dict | list) for v in value)
    return not isinstance(value, dict)


def _encode(value: Any, indent: str) -> str:
    inner = indent + "  "
    if isinstance(value, dict):
        if not value:
            return "{}"
        if all(_flat(v) for v in value.values()):
            line = "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {_encode(v, inner)}"
                                   for k, v in value.items()) + "}"
            if len(indent) + len(line) <= _LINE:
                return line
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_encode(v, inner)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        if all(not isinstance(v, dict | list) for v in value):
            # Short lists of plain values read best on one line (hex pairs, terrain).
            return "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in value) + "]"
        items = [inner + _encode(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        out: dict[str, Any] = {}
        for name, field in type(value).model_fields.items():
            item = getattr(value, name)
            if not field.is_required() and item == field.get_default(call_default_factory=True):
                continue
            out[field.alias or name] = _plain(item)
        for name, item in sorted((value.model_extra or {}).items()):
            out[name] = _plain(item)
        return out
    if isinstance(value, dict):
        return {str(k): _plain(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)  # pragma: no cover - models hold only JSON values


def save_json(model: Model, path: str | Path) -> None:
    """Write a model as deterministic JSON (see :func:`dumps`), atomically.

    Parameters
    ----------
    model
        Any bocage model (map, rules profile, scenario, position).
    path
        Where to write.
    """
    write_text_atomic(path, dumps(model))
