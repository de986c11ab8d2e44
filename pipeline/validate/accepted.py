"""Findings a person marked as checked: saved beside the map, hidden on the next run.

The report's "checked" boxes export a small JSON file, ``MAP.checked.json`` beside the
typed ``MAP.json`` (``bocage validate`` reads it from there by itself, or from
``--checked FILE``)::

    {"checked": [{"kind": "terrain_mixed", "where": "0412", "message": "..."}]}

A finding is hidden when its kind and place are listed: the place, not the wording, so
a finding stays accepted when its message changes with the reading's confidence. The
file is the builder's, not the map's: the map's own ``lint_off`` switches a whole kind
off with a reason, this hides single findings a person looked at.

>>> accepted = accepted_from_data({"checked": [{"kind": "terrain_mixed", "where": "0412"}]})
>>> from pipeline.validate.findings import Finding
>>> kept, hidden = apply_accepted([Finding("check", "terrain_mixed", "0412", "m")], accepted)
>>> kept, len(hidden)
([], 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pipeline.errors import DataError
from pipeline.model import read_json
from pipeline.validate.findings import Finding

__all__ = ["SUFFIX", "accepted_from_data", "apply_accepted", "read_accepted", "sidecar_of"]

SUFFIX = ".checked.json"


def sidecar_of(map_path: str | Path) -> Path:
    """Where a map's checked findings are kept: ``map.json`` -> ``map.checked.json``."""
    path = Path(map_path)
    return path.with_name(path.name.removesuffix(".json") + SUFFIX)


def accepted_from_data(data: Any, file: str | Path | None = "<checked>") -> set[tuple[str, str]]:
    """The (kind, place) of each checked finding in a parsed file; bad shapes are located."""
    if not isinstance(data, dict) or not isinstance(data.get("checked"), list):
        raise DataError(file, "", 'expected {"checked": [{"kind": ..., "where": ...}, ...]}')
    out = set()
    for i, item in enumerate(data["checked"]):
        if not (isinstance(item, dict) and isinstance(item.get("kind"), str)
                and isinstance(item.get("where"), str)):
            raise DataError(file, f"checked[{i}]", 'expected {"kind": "...", "where": "..."}')
        out.add((item["kind"], item["where"]))
    return out


def read_accepted(path: str | Path) -> set[tuple[str, str]]:
    """:func:`accepted_from_data` of a file."""
    return accepted_from_data(read_json(path), path)


def apply_accepted(findings: Iterable[Finding], accepted: set[tuple[str, str]]
                   ) -> tuple[list[Finding], list[Finding]]:
    """(findings still to look at, findings hidden because a person checked them).

    Errors of the file itself (``source`` ``screen``: it does not load) are never hidden.
    """
    kept, hidden = [], []
    for f in findings:
        if (f.kind, f.where) in accepted and f.source != "screen":
            hidden.append(f)
        else:
            kept.append(f)
    return kept, hidden
