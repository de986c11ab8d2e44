"""Pydantic's validation errors turned into one located line a person can act on.

pydantic reports ``('hexes', '0421', 'terrain', 1)`` and "Input should be a
valid number, unable to parse string as a number"; a map maker wants
``hexes.0421.terrain[1]: expected a number, got 'abc'``. This module does that
translation, for the first error only: one clear line beats a page of
consequences of the same slip.
"""

from __future__ import annotations

import functools
import re
import types
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from pipeline.errors import DataError, GridError, ManifestError, did_you_mean
from pipeline.model.base import (
    COLOR_PATTERN,
    NAME_PATTERN,
    SIGNED_NUMBER_PATTERN,
    Invalid,
    Path,
)

__all__ = ["describe", "format_path", "one_line", "to_data_error", "translate_error"]

# Readable names for the patterns the models use.
_PATTERN_NAMES = {
    COLOR_PATTERN: "a colour written '#rrggbb'",
    SIGNED_NUMBER_PATTERN: "a number such as '+3' or '-1'",
    NAME_PATTERN: "a lower-case name (letters a-z, digits, '_'; starting with a letter)",
}



# Everything str.splitlines() would break a line at, and the other control characters.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _escape(text: str) -> str:
    """Control characters as escapes, so a message stays on one line."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def one_line[**P, R](func: Callable[P, R]) -> Callable[P, R]:
    """Re-raise a function's located errors with control characters escaped.

    Keys, ids and cells come from the user's file and may hold a newline; the
    error a person reads must still be exactly one line.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except DataError as exc:
            if _CONTROL.search(exc.path + exc.message) is None:
                raise
            raise DataError(exc.file, _escape(exc.path), _escape(exc.message)) from None
        except ManifestError as exc:
            if _CONTROL.search(exc.message) is None:
                raise
            raise ManifestError(exc.file, exc.row, exc.column, _escape(exc.message)) from None

    return wrapper


def format_path(path: Sequence[str | int]) -> str:
    """Write a location the way a reader finds it: ``hexes.0421.terrain[1]``.

    >>> format_path(("hexes", "0421", "terrain", 1))
    'hexes.0421.terrain[1]'
    >>> format_path((0, "id"))
    '[0].id'
    """
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def describe(value: object, limit: int = 40) -> str:
    """A short, JSON-flavoured description of a value for ``got ...``.

    >>> describe("abc"), describe(None), describe(True), describe([1, 2])
    ("'abc'", 'null', 'true', 'a list')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        text = value if len(value) <= limit else value[: limit - 3] + "..."
        return "'" + text.replace("\n", "\\n") + "'"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return f"a {type(value).__name__}"


def to_data_error(
    exc: ValidationError, file: str | None, model: type[BaseModel] | None = None
) -> DataError:
    """The first error of a validation, as one :class:`DataError`, with the others
    (:attr:`DataError.others`).

    Parameters
    ----------
    exc
        What pydantic raised.
    file
        The file name to put in front of the message.
    model
        The validated class; used to suggest the right key for a misspelt one.
    """
    errors = exc.errors(include_url=False)
    if not errors:  # pragma: no cover - pydantic never raises an empty error
        return DataError(file, "", "invalid data")
    found = [DataError(file, format_path(path), message)
             for path, message in (translate_error(e, model) for e in errors)]
    first = found[0]
    first.others = tuple(found[1:])
    return first


def translate_error(err: ErrorDetails, model: type[BaseModel] | None) -> tuple[Path, str]:
    """One pydantic error as ``(place, message)`` in plain words."""
    loc: Path = tuple(err["loc"])
    kind = err["type"]
    value = err.get("input")
    ctx: dict[str, Any] = dict(err.get("ctx") or {})
    got = describe(value)

    if kind in ("value_error", "assertion_error"):
        cause = ctx.get("error")
        if isinstance(cause, Invalid):
            return loc + cause.path, cause.message
        if isinstance(cause, GridError):
            return loc, str(cause)
        return loc, str(cause) if cause is not None else err["msg"]
    if "[key]" in loc:
        # A dict key failed its own check: name the key, not the value.
        at = loc.index("[key]")
        key = loc[at - 1]
        if kind in ("literal_error", "enum"):
            choices = _choices(ctx)
            hint = did_you_mean(str(key), choices)
            listed = ", ".join(f"'{c}'" for c in choices)
            return loc[: at - 1], f"unknown key {describe(key)}{hint} (one of {listed})"
        why = _simple_message(kind, got, value, ctx, err["msg"])
        return loc[: at - 1], f"bad key {describe(key)}: {why}"
    if kind == "missing":
        return loc[:-1], f"missing required key '{loc[-1]}'"
    if kind == "extra_forbidden":
        known = _keys_at(model, loc[:-1])
        hint = did_you_mean(str(loc[-1]), known) if known else ""
        return loc[:-1], f"unknown key '{loc[-1]}'{hint}"
    return loc, _simple_message(kind, got, value, ctx, err["msg"])


def _simple_message(
    kind: str, got: str, value: object, ctx: dict[str, Any], fallback: str
) -> str:
    expected = {
        "float_type": "a number",
        "float_parsing": "a number",
        "int_type": "a whole number",
        "int_parsing": "a whole number",
        "int_from_float": "a whole number",
        "string_type": "a string",
        "bool_type": "true or false",
        "bool_parsing": "true or false",
        "dict_type": "an object",
        "model_type": "an object",
        "model_attributes_type": "an object",
        "list_type": "a list",
        "finite_number": "a finite number",
    }
    if kind in expected:
        return f"expected {expected[kind]}, got {got}"
    bounds = {
        "greater_than": ">",
        "greater_than_equal": ">=",
        "less_than": "<",
        "less_than_equal": "<=",
    }
    if kind in bounds:
        limit = next(iter(ctx.values()), "?")
        if isinstance(limit, float) and limit.is_integer():
            limit = int(limit)
        return f"must be {bounds[kind]} {limit}, got {got}"
    if kind in ("too_short", "too_long"):
        word = "at least" if kind == "too_short" else "at most"
        n = ctx.get("min_length" if kind == "too_short" else "max_length")
        items = "item" if n == 1 else "items"
        return f"needs {word} {n} {items}, got {ctx.get('actual_length', '?')}"
    if kind in ("string_too_short", "string_too_long"):
        if kind == "string_too_short" and ctx.get("min_length") == 1:
            return "must not be empty"
        n = ctx.get("min_length", ctx.get("max_length"))
        word = "at least" if kind == "string_too_short" else "at most"
        return f"must have {word} {n} characters, got {got}"
    if kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern", ""))
        what = _PATTERN_NAMES.get(pattern, f"text matching {pattern}")
        return f"expected {what}, got {got}"
    if kind in ("literal_error", "enum"):
        choices = _choices(ctx)
        hint = did_you_mean(value, choices) if isinstance(value, str) and choices else ""
        listed = ", ".join(f"'{c}'" for c in choices) if choices else str(ctx.get("expected"))
        return f"expected one of {listed}, got {got}{hint}"
    # Anything not foreseen: pydantic's words, still located, never a traceback.
    return fallback[:1].lower() + fallback[1:] if fallback else "invalid value"


def _choices(ctx: dict[str, Any]) -> list[str]:
    """The allowed values pydantic lists in a literal error's context."""
    return re.findall(r"'((?:[^'\\]|\\.)*)'", str(ctx.get("expected", "")))


def _keys_at(model: type[BaseModel] | None, path: Path) -> list[str]:
    """Field names of the model found at ``path`` below ``model`` (for did-you-mean)."""
    tp: Any = model
    for part in path:
        tp = _unwrap(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = _fields(tp).get(str(part))
            if field is None:
                return []
            tp = field.annotation
            continue
        origin = get_origin(tp)
        args = get_args(tp)
        if origin is list and args:
            tp = args[0]
        elif origin is dict and len(args) == 2:
            tp = args[1]
        else:
            return []
    tp = _unwrap(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return list(_fields(tp))
    return []


def _fields(model: type[BaseModel]) -> dict[str, Any]:
    """A model's fields by the key written in files (the alias where there is one)."""
    return {field.alias or name: field for name, field in model.model_fields.items()}


def _unwrap(tp: Any) -> Any:
    """Strip ``Annotated[...]`` and ``X | None`` down to ``X``."""
    while True:
        origin = get_origin(tp)
        if origin is Annotated:
            tp = get_args(tp)[0]
            continue
        if origin in (Union, types.UnionType):
            rest = [a for a in get_args(tp) if a is not type(None)]
            if len(rest) == 1:
                tp = rest[0]
                continue
        return tp
