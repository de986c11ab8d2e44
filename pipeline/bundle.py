"""What bocage ships beside its code: the sample game and the JSON Schemas.

The sample game is the repository's ``maps/demo`` and ``counters/demo``; the
schemas are its ``schemas`` folder. An installed bocage (a wheel) holds them
as package data in ``pipeline/data``, laid out as in the repository (the
wheel's build copies them there, see ``setup.py``), and they are read through
:mod:`importlib.resources`, so they are found wherever the package is. A
checkout installed for development (``pip install -e``) reads the
repository's own folders instead, so an edit to the sample is seen at once.

>>> names = bundled_files()
>>> "maps/demo/map.json" in names, "counters/demo/units.csv" in names
(True, True)
>>> schema("map")["title"]
'bocage map data (map.json)'
"""

from __future__ import annotations

import json
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from pipeline.errors import DataError

__all__ = ["BUNDLED", "bundle_root", "bundled_files", "schema", "schema_text"]

BUNDLED = ("maps/demo", "counters/demo", "schemas")
"""The folders bocage ships, as the repository lays them out (``setup.py`` copies these)."""

_DATA = "data"  # the package-data folder inside ``pipeline`` that holds them in a wheel
_SKIPPED = ("__pycache__",)


def _holds_all(root: Traversable) -> bool:
    return all(_at(root, folder).is_dir() for folder in BUNDLED)


def _at(root: Traversable, name: str) -> Traversable:
    return root.joinpath(*name.split("/"))


def bundle_root() -> Traversable:
    """The folder holding :data:`BUNDLED`: the package's data, else the checkout's root.

    Raises :class:`DataError` when neither has them (a wheel built without its data).

    >>> bundle_root().joinpath("schemas").is_dir()
    True
    """
    packaged = files("pipeline").joinpath(_DATA)
    if _holds_all(packaged):
        return packaged
    checkout = Path(__file__).resolve().parents[1]
    if _holds_all(checkout) and (checkout / "pyproject.toml").is_file():
        return checkout
    raise DataError(str(packaged), "", "bocage's sample game and schemas are not installed"
                    f" ({', '.join(BUNDLED)}); reinstall bocage from its wheel or a checkout")


def _walk(folder: Traversable, prefix: str, out: dict[str, Traversable]) -> None:
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        name = f"{prefix}/{entry.name}"
        if entry.name in _SKIPPED or entry.name.endswith((".pyc", ".bocage-tmp")):
            continue
        if entry.is_dir():
            _walk(entry, name, out)
        else:
            out[name] = entry


def bundled_files() -> dict[str, Traversable]:
    """Every bundled file by its name in the repository (``maps/demo/map.json``), in order.

    >>> sorted(n for n in bundled_files() if n.startswith("counters/"))
    ['counters/demo/markers.csv', 'counters/demo/units.csv']
    """
    root = bundle_root()
    out: dict[str, Traversable] = {}
    for folder in BUNDLED:
        _walk(_at(root, folder), folder, out)
    return out


def schema_text(kind: str) -> str:
    """The published JSON Schema of a kind of document (``map``, ``units`` ...), as text.

    >>> schema_text("rules").startswith("{")
    True
    """
    entry = _at(bundle_root(), f"schemas/{kind}.schema.json")
    if not entry.is_file():
        known = sorted(n.removeprefix("schemas/").removesuffix(".schema.json")
                       for n in bundled_files() if n.startswith("schemas/"))
        raise DataError(None, "", f"no schema for the kind '{kind}' (known: {', '.join(known)})")
    return entry.read_text(encoding="utf-8")


def schema(kind: str) -> dict[str, Any]:
    """The published JSON Schema of a kind of document, parsed."""
    data: dict[str, Any] = json.loads(schema_text(kind))
    return data
