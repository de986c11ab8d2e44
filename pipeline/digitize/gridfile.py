"""The ``--grid`` file: what the user knows of the printed grid before digitizing.

Either the ``grid`` object of a map board (orientation, numbering, columns,
rows, excluded hexes, and optionally a pixel layout to start from)::

    {"orientation": "flat", "numbering": {"stagger": "even-down"}, "cols": 25, "rows": 22}

or a whole map document, whose first board's grid is used (so a hand-made
map.json can be digitized again from its scan).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.errors import DataError, GridError
from pipeline.hexgrid import HexGrid, Orientation
from pipeline.model import GridSpec, map_from_data, read_json
from pipeline.model.documents import validate_document

__all__ = ["grid_from_data", "grid_from_spec", "load_grid"]


def grid_from_spec(spec: GridSpec, file: str | None = None) -> HexGrid:
    """The :class:`~pipeline.hexgrid.HexGrid` a validated grid object describes."""
    try:
        return HexGrid(Orientation(spec.orientation), spec.numbering.to_numbering(), spec.cols,
                       spec.rows, frozenset(spec.exclude),
                       spec.layout.to_layout() if spec.layout is not None else None)
    except GridError as exc:
        raise DataError(file, "", str(exc)) from None


def grid_from_data(data: Any, file: str | Path | None = "<grid>") -> HexGrid:
    """A grid from parsed JSON: a grid object or a map document."""
    name = str(file) if file is not None else None
    if isinstance(data, dict) and data.get("kind") == "map":
        return grid_from_spec(map_from_data(data, file).boards[0].grid, name)
    if isinstance(data, dict) and "kind" in data:
        raise DataError(name, "kind", f"expected a grid object or a map, got a"
                        f" '{data['kind']}' document")
    return grid_from_spec(validate_document(GridSpec, data, file), name)


def load_grid(path: str | Path) -> HexGrid:
    """Read a ``--grid`` file; problems are one located :class:`DataError`."""
    return grid_from_data(read_json(path), path)
