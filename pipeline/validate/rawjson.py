"""The raw pass over a typed map's JSON: every key given twice, every NaN, each one located.

Every other bocage command reads JSON through :func:`pipeline.model.read_json`, which
refuses a document at its first key given twice or its first ``NaN`` (right for the
pipeline: what a parser would silently drop must not reach a game). A typist wants the
whole list in one run instead, so validation parses the text here, keeps the *first*
value of a key typed twice, reports each repetition with its line, and lets the checks
run on what is left. The file still does not load for the other commands until the
findings are fixed; the report says so.

What no parser can read (a missing comma, a cut-off file) is bad input: one
:class:`~pipeline.errors.DataError` with its line and column.

>>> data, found = read_raw('{"hexes": {\\n "0421": {"terrain": ["woods"]},\\n'
...                        ' "0421": {"terrain": ["clear"]}}}', "typed.json")
>>> data["hexes"]["0421"]["terrain"], [(f.kind, f.where) for f in found]
(['woods'], [('duplicate_key', '0421')])
>>> found[0].message
'hexes.0421 is typed twice, on lines 2 and 3 (woods; then clear): the first is kept; keep one entry'
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from pipeline.errors import DataError
from pipeline.model.documents import MAX_DEPTH, read_text
from pipeline.model.translate import format_path
from pipeline.validate.findings import Finding

__all__ = ["read_raw", "read_raw_file"]

_CONSTANTS = ("NaN", "Infinity", "-Infinity")


class _Object(dict[str, Any]):
    """A parsed JSON object that remembers the keys typed again (values after the first)."""

    again: list[tuple[str, Any]]


def _pairs(pairs: list[tuple[str, Any]]) -> _Object:
    out = _Object()
    out.again = []
    for key, value in pairs:
        if key in out:
            out.again.append((key, value))
        else:
            out[key] = value
    return out


def _describe(value: Any) -> str:
    if isinstance(value, dict) and isinstance(value.get("terrain"), list):
        return ", ".join(str(t) for t in value["terrain"])
    return json.dumps(value)[:40]


class _Walk:
    """Collects the findings of one parsed document, with their lines in the text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: list[Finding] = []

    def lines_of(self, key: str) -> list[int]:
        pattern = re.compile(re.escape(json.dumps(key)) + r"\s*:")
        return [self.text.count("\n", 0, m.start()) + 1 for m in pattern.finditer(self.text)]

    def twice(self, where: tuple[str | int, ...], obj: _Object) -> None:
        laters: dict[str, list[Any]] = {}
        for key, later in obj.again:
            laters.setdefault(key, []).append(later)
        for key, values in laters.items():
            path = format_path((*where, key))
            lines = self.lines_of(key)
            at = f", on lines {', '.join(map(str, lines[:-1]))} and {lines[-1]}" \
                if len(lines) > 1 else ""
            hexes = (key,) if where == ("hexes",) else ()
            every = [obj[key], *values]
            times = "twice" if len(every) == 2 else f"{len(every)} times"
            differ = "" if all(v == every[0] for v in every) else (
                " (" + "; then ".join(_describe(v) for v in every) + ")")
            self.found.append(Finding(
                "error", "duplicate_key", key if hexes else path,
                f"{path} is typed {times}{at}{differ}: the first is kept; keep one entry",
                hexes=hexes, source="screen"))

    def walk(self, value: Any) -> Any:
        """The document as plain dicts and lists, its repetitions reported."""
        stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
        while stack:
            item, where = stack.pop()
            if isinstance(item, _Object):
                self.twice(where, item)
            if isinstance(item, dict):
                stack.extend((v, (*where, k)) for k, v in reversed(list(item.items())))
            elif isinstance(item, list):
                stack.extend((v, (*where, i)) for i, v in reversed(list(enumerate(item))))
        return value


def read_raw(text: str, file: str | Path | None = "<map>") -> tuple[Any, list[Finding]]:
    """Parse a typed map's text, reporting each key given twice and each ``NaN``.

    Returns
    -------
    (data, list of Finding)
        The document with the first value of each repeated key, ``NaN``,
        ``Infinity`` and numbers too large for a float as ``null``, and one
        finding for each.

    Raises
    ------
    DataError
        The text is not JSON at all (its line and column), or nested too deep.
    """
    constants: list[str] = []

    def constant(name: str) -> None:
        constants.append(name)

    def number(text: str) -> float | None:
        value = float(text)
        if math.isfinite(value):
            return value
        constants.append(text)  # 1e400: a float would silently make it infinity
        return None

    try:
        data = json.loads(text, object_pairs_hook=_pairs, parse_constant=constant,
                          parse_float=number)
    except json.JSONDecodeError as exc:
        raise DataError(file, f"line {exc.lineno} column {exc.colno}",
                        f"invalid JSON ({exc.msg})") from None
    except RecursionError:
        raise DataError(file, "", f"invalid JSON (nested more than {MAX_DEPTH} deep)") from None
    except ValueError:  # an integer of over 4300 digits
        raise DataError(file, "", "invalid JSON (a number with too many digits)") from None
    walk = _Walk(text)
    walk.walk(data)
    for name in sorted(set(constants)):
        lines = [text.count("\n", 0, m.start()) + 1
                 for m in re.finditer(rf"(?<![\w\".+-]){re.escape(name)}(?![\w\".])", text)]
        what = f"{name} is not valid JSON" if name in _CONSTANTS else (
            f"the number {name[:20]} is too large")
        walk.found.append(Finding(
            "error", "not_a_number", "",
            f"{what}, on line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}:"
            " write a number, or leave the key out", source="screen"))
    return data, walk.found


def read_raw_file(path: str | Path) -> tuple[Any, list[Finding]]:
    """:func:`read_raw` on a file (read as :func:`pipeline.model.read_json` reads it)."""
    return read_raw(read_text(path), path)
