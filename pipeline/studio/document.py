"""The map document the studio saves, and what a saved one brings back.

:func:`build_document` makes the map.json of a reading and a person's word: the folder's
map.json as it was (names, elevations, hex features, locations, edges, other boards),
with the first board's grid where the scan shows it, each of its hexes' terrain and
each hexside's features, and who says so (``provenance``: ``read`` with the digitizer's
shares and confidence, ``labelled`` or ``corrected``).

Opening one again: :func:`person_word` is what its labelled and corrected entries say,
:func:`saved_hexsides` the hexsides it was saved with (a hexside a person cleared has no
entry, so the reader would find its feature again), and :func:`is_typed` tells a map a
person typed (entries without provenance), whose disagreements with the reading
validate's diff lists.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pipeline.digitize import Digitization
from pipeline.hexgrid import HexGrid
from pipeline.model import HexsideEntry, MapData, dumps
from pipeline.studio.edits import Overrides, TerrainWord

__all__ = ["HexValue", "SideValue", "build_document", "is_typed", "person_word",
           "saved_hexsides"]

HexValue = tuple[tuple[str, ...], float | None, str]
"""A hex as the document says: terrain, confidence (``None`` for a person's), provenance."""
SideValue = tuple[tuple[str, ...], str]
"""A hexside as the document says: its features and their provenance."""


def build_document(opened: MapData, reading: Digitization, hexes: Mapping[str, HexValue],
                   hexsides: Mapping[str, SideValue], *, image: str | None = None
                   ) -> dict[str, Any]:
    """The map document (plain JSON data) of the first board's hexes and hexsides.

    Parameters
    ----------
    opened
        The folder's map.json as it was opened.
    reading
        The digitizer's reading (its grid and each hex's shares and confidence).
    hexes, hexsides
        Every hex of the board and every hexside with features, as the document says.
    image
        The scan's name relative to the folder, for the board's ``image``.
    """
    grid = reading.fit.grid
    data: dict[str, Any] = json.loads(dumps(opened))
    board = data["boards"][0]
    board["grid"] = json.loads(dumps(reading.map.boards[0].grid))
    if image is not None:
        board["image"] = image
    digitized = reading.map.hexes
    # The studio reads the first board; the others' entries stay as they were.
    entries: dict[str, Any] = {i: e for i, e in data.get("hexes", {}).items()
                               if not grid.has_id(i)}
    for hex_id, (terrain, _, provenance) in hexes.items():
        entry: dict[str, Any] = {"terrain": list(terrain), "provenance": provenance}
        if provenance == "read":
            read = digitized[hex_id]
            entry |= {"fractions": read.fractions, "confidence": read.confidence}
            if read.probabilities:
                entry["probabilities"] = read.probabilities
        old = opened.hexes.get(hex_id)
        if old is not None:
            entry |= old.model_dump(include={"elevation", "name", "features", "note"},
                                    exclude_defaults=True)
        entries[hex_id] = entry
    data["hexes"] = entries
    others = [s for s in data.get("hexsides", [])
              if not any(grid.has_id(i) for i in s.get("hexes") or [s.get("hex")])]
    data["hexsides"] = others + [_hexside_entry(grid, key, features, provenance)
                                 for key, (features, provenance) in sorted(hexsides.items())]
    return data


def _on(grid: HexGrid, side: HexsideEntry) -> bool:
    """Whether a hexside entry touches the board the studio reads."""
    return any(grid.has_id(i) for i in side.key() if i not in grid.direction_names)


def is_typed(the_map: MapData, grid: HexGrid) -> bool:
    """Whether a person typed (some of) the board: entries with no provenance."""
    return (any(e.provenance is None for i, e in the_map.hexes.items() if grid.has_id(i))
            or any(s.provenance is None for s in the_map.hexsides if _on(grid, s)))


def person_word(the_map: MapData, grid: HexGrid) -> Overrides:
    """The person's word a map.json carries for the board: labelled and corrected entries."""
    terrain: dict[str, TerrainWord] = {}
    for hex_id, entry in the_map.hexes.items():
        if entry.provenance in ("labelled", "corrected") and grid.has_id(hex_id):
            terrain[hex_id] = (entry.terrain[0], entry.provenance)
    sides = {"/".join(s.key()): tuple(sorted(s.features)) for s in the_map.hexsides
             if s.provenance == "corrected" and _on(grid, s)}
    return Overrides(terrain=terrain, hexsides=sides)


def saved_hexsides(the_map: MapData, grid: HexGrid) -> dict[str, tuple[str, ...]] | None:
    """The board's hexsides as the studio saved them (each entry says who says so), or
    ``None`` for a map whose hexsides were typed."""
    mine = [s for s in the_map.hexsides if _on(grid, s)]
    if not mine or any(s.provenance is None for s in mine):
        return None
    return {"/".join(s.key()): tuple(sorted(s.features)) for s in mine if s.provenance == "read"}


def _hexside_entry(grid: HexGrid, key: str, features: tuple[str, ...], provenance: str
                   ) -> dict[str, Any]:
    first, _, second = key.partition("/")
    if second in grid.direction_names:
        return {"hex": first, "direction": second, "features": list(features),
                "provenance": provenance}
    return {"hexes": [first, second], "features": list(features), "provenance": provenance}
