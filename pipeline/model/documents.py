"""JSON documents in and out: read with located errors, write deterministically.

Reading never lets a raw exception through: an unreadable file, bytes that
are not UTF-8, broken JSON, a top level that is not an object, a missing or
unknown ``kind`` and every shape error each become one :class:`DataError`.
Writing is atomic (a temporary file renamed over the target) and byte-stable
(the same model always gives the same bytes).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from pipeline.errors import DataError, did_you_mean
from pipeline.files import write_text_atomic
from pipeline.model.base import Model
from pipeline.model.translate import describe, format_path, one_line, to_data_error

__all__ = [
    "JSON_KINDS",
    "document_kind",
    "dumps",
    "parse_json",
    "read_json",
    "read_text",
    "save_json",
    "validate_document",
    "write_text_atomic",
]

M = TypeVar("M", bound=BaseModel)

# The kinds of JSON document bocage knows; CSV manifests are told apart by header.
JSON_KINDS = ("crt", "facts", "map", "position", "rules", "scenario")


def read_text(path: str | Path) -> str:
    """The text of a file, or one :class:`DataError` saying why it cannot be read.

    A UTF-8 byte-order mark is dropped (spreadsheet programs write one).
    """
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise DataError(path, "", "is a folder, not a file") from None
    except FileNotFoundError:
        raise DataError(path, "", "no such file") from None
    except OSError as exc:
        raise DataError(path, "", f"cannot read file ({exc.strerror or exc})") from None
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


@one_line
def parse_json(text: str, file: str | Path | None) -> Any:
    """Parse JSON text; errors name the line and column.

    NaN and Infinity (which Python's parser accepts but JSON does not) and
    keys given twice in one object are errors too.

    >>> parse_json('{"a": [1, 2]}', "x.json")
    {'a': [1, 2]}
    """
    try:
        data = json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise DataError(
            file, f"line {exc.lineno} column {exc.colno}", f"invalid JSON ({exc.msg})"
        ) from None
    except ValueError as exc:  # from _no_constant
        raise DataError(file, "", f"invalid JSON ({exc})") from None
    except RecursionError:
        raise DataError(file, "", "invalid JSON (nested too deeply)") from None
    where = _find_duplicate(data, ())
    if where is not None:
        path, key = where
        raise DataError(file, format_path(path), f"key '{key}' is given twice; keep one")
    return data


def _find_duplicate(value: Any, path: tuple[str | int, ...]) -> tuple[Any, str] | None:
    # Iterative walk: documents can be deep and recursion limits are low.
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, _DuplicateKeys):
            return where, item.duplicate
        if isinstance(item, dict):
            stack.extend((v, (*where, k)) for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((v, (*where, i)) for i, v in reversed(list(enumerate(item))))
    return None


def read_json(path: str | Path) -> Any:
    """Read and parse a JSON file (see :func:`parse_json`)."""
    return parse_json(read_text(path), path)


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
def validate_document(
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
            out[name] = _plain(item)
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
