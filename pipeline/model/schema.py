"""Published JSON Schemas, generated from the models so they cannot drift.

``python -m pipeline.model.schema schemas/`` writes one schema per kind of
file: ``map``, ``rules``, ``scenario``, ``position``, ``crt`` and ``facts``
documents, and one row of the ``units`` and ``markers`` manifests. A test regenerates them in memory
and compares them with the checked-in files.

The schemas describe shapes; the checks that need the whole document or the
whole game folder (a terrain name in the map's vocabulary, a hex on the grid,
a unit in the manifest) are made by the loaders and ``check``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from pipeline.errors import BocageError
from pipeline.model.crt import CrtTable
from pipeline.model.documents import write_text_atomic
from pipeline.model.facts import Facts
from pipeline.model.manifest import MarkerSpec, UnitSpec
from pipeline.model.mapdata import MapData
from pipeline.model.position import Position
from pipeline.model.rulesprofile import RulesProfile
from pipeline.model.scenario import Scenario

__all__ = ["SCHEMA_MODELS", "main", "schema_for", "schema_texts", "write_schemas"]

SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "map": MapData,
    "rules": RulesProfile,
    "scenario": Scenario,
    "position": Position,
    "crt": CrtTable,
    "facts": Facts,
    "units": UnitSpec,
    "markers": MarkerSpec,
}

_TITLES = {
    "map": "bocage map data (map.json)",
    "rules": "bocage rules profile (rules.json)",
    "scenario": "bocage scenario (scenario*.json)",
    "position": "bocage position (position*.json)",
    "crt": "bocage combat results table (crt.json)",
    "facts": "bocage facts stated by a rulebook about its map (facts.json)",
    "units": "bocage units manifest: one row of units.csv (empty cells are null)",
    "markers": "bocage markers manifest: one row of markers.csv (empty cells are null)",
}


def schema_for(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one kind of file.

    >>> schema_for("map")["properties"]["kind"]["const"]
    'map'
    """
    model = SCHEMA_MODELS[kind]
    schema = model.model_json_schema(by_alias=True, mode="validation")
    _close_pattern_keys(schema)
    schema["title"] = _TITLES[kind]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{kind}.schema.json",
        **schema,
    }


def _close_pattern_keys(node: Any) -> None:
    """Make ``dict[Name, X]`` refuse keys off the pattern, as the loader does.

    pydantic writes such a mapping as ``patternProperties`` alone, which lets
    any other key through; ``propertyNames`` with the same pattern closes it.
    """
    if isinstance(node, dict):
        patterns = node.get("patternProperties")
        if isinstance(patterns, dict) and len(patterns) == 1:
            names = node.setdefault("propertyNames", {})
            names["pattern"] = next(iter(patterns))
        for value in node.values():
            _close_pattern_keys(value)
    elif isinstance(node, list):
        for value in node:
            _close_pattern_keys(value)


def schema_texts() -> dict[str, str]:
    """File name -> schema text, exactly as :func:`write_schemas` writes it."""
    return {
        f"{kind}.schema.json": json.dumps(schema_for(kind), indent=2, sort_keys=True,
                                          ensure_ascii=False) + "\n"
        for kind in SCHEMA_MODELS
    }


def write_schemas(directory: str | Path) -> list[Path]:
    """Write every schema into ``directory`` (created if missing); returns the paths."""
    folder = Path(directory)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BocageError(f"{folder}: cannot create folder ({exc.strerror or exc})") from None
    written = []
    for name, text in schema_texts().items():
        write_text_atomic(folder / name, text)
        written.append(folder / name)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pipeline.model.schema DIRECTORY``: write the schemas; exit 2 on error."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        sys.stderr.write("usage: python -m pipeline.model.schema DIRECTORY\n")
        return 2
    try:
        write_schemas(args[0])
    except BocageError as exc:
        sys.stderr.write(f"bocage: {exc}\n")
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
