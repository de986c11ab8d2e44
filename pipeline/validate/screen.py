"""Screening a hand-entered map: names and hex ids a strict load would stop at.

:func:`pipeline.model.load_map` refuses a map at its first unknown name or
off-grid hex, which is right for the rest of the pipeline but not for a
validator: a typist wants every such slip listed at once. Screening walks the
raw document, reports each unknown name, each hex that is not on the grid and
each hexside that is none (two hexes that are not neighbours, an edge hexside
inside the map) as a finding, drops just those entries, and loads what is left
strictly. What
still does not load (a broken grid, a missing key) is bad input, not a finding.

>>> doc = {"kind": "map", "game": "g", "title": "t", "illustrative": True, "source": "s",
...        "terrain_types": {"clear": {}, "woods": {}},
...        "boards": [{"name": "1", "grid": {"orientation": "flat", "cols": 4, "rows": 4,
...                                          "numbering": {"stagger": "even-down"}}}],
...        "hexes": {"0202": {"terrain": ["wods"]}, "0909": {"terrain": ["woods"]}}}
>>> the_map, found = screen_document(doc, "m.json")
>>> [(f.kind, f.where) for f in found], list(the_map.hexes)
([('unknown_name', '0202'), ('off_grid', '0909')], [])
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from pipeline.errors import did_you_mean
from pipeline.model import MapData, map_from_data, read_json
from pipeline.validate.findings import Finding

__all__ = ["screen_document", "screen_file"]


def _adjacent(the_map: MapData, a: str, b: str) -> bool:
    joined = the_map.joined_grid()
    if joined is not None:
        return joined.adjacent(joined.hex(a), joined.hex(b))
    grid = the_map.grid_for(a)
    return grid is not None and grid is the_map.grid_for(b) and grid.adjacent(grid.hex(a),
                                                                              grid.hex(b))


class _Screen:
    """Walks one raw document, collecting findings and dropping what they name."""

    def __init__(self, data: dict[str, Any], grid_only: MapData) -> None:
        self.data = data
        self.grid = grid_only
        self.found: list[Finding] = []

    def vocab(self, key: str) -> list[str]:
        value = self.data.get(key)
        return list(value) if isinstance(value, dict) else []

    def unknown(self, where: str, hexes: tuple[str, ...], what: str, name: str,
                vocab: list[str]) -> None:
        hint = did_you_mean(name, vocab) or f" (this map knows: {', '.join(sorted(vocab))})"
        self.found.append(Finding("error", "unknown_name", where,
                                  f"{where}: unknown {what} '{name}'{hint}",
                                  hexes=hexes, source="screen"))

    def off_grid(self, where: str, hex_id: str, context: str) -> None:
        self.found.append(Finding("error", "off_grid", where,
                                  f"{context}: {self.grid.why_not_on_map(hex_id)}",
                                  source="screen"))

    def names(self, where: str, hexes: tuple[str, ...], what: str, values: Any,
              vocab: list[str]) -> Any:
        """The known names of a list (or the keys of a dict), reporting the rest."""
        if not isinstance(values, (list, dict)):
            return values  # a shape error: the strict load reports it
        keep = [v for v in values if not isinstance(v, str) or v in vocab]
        for v in values:
            if isinstance(v, str) and v not in vocab:
                self.unknown(where, hexes, what, v, vocab)
        return keep if isinstance(values, list) else {k: values[k] for k in keep}

    def hexes(self) -> None:
        entries = self.data.get("hexes")
        if not isinstance(entries, dict):
            return
        kept: dict[str, Any] = {}
        for hex_id, given in entries.items():
            if not self.grid.has_hex(hex_id):
                self.off_grid(hex_id, hex_id, f"hexes.{hex_id}")
                continue
            entry = self.hex_entry(hex_id, given) if isinstance(given, dict) else given
            if entry is not None or not isinstance(given, dict):
                kept[hex_id] = entry
        self.data["hexes"] = kept

    def hex_entry(self, hex_id: str, entry: dict[str, Any]) -> dict[str, Any] | None:
        terrain = self.vocab("terrain_types")
        at = (hex_id,)
        entry["terrain"] = self.names(hex_id, at, "terrain", entry.get("terrain", []), terrain)
        for shares in ("fractions", "probabilities"):
            if entry.get(shares) is not None:
                entry[shares] = self.names(hex_id, at, "terrain", entry[shares], terrain)
        if "features" in entry:
            entry["features"] = self.names(hex_id, at, "hex feature", entry["features"],
                                           self.vocab("hex_features"))
        # A hex whose every terrain name was unknown takes the default terrain.
        return entry if entry["terrain"] != [] else None

    def hexsides(self) -> None:
        sides = self.data.get("hexsides")
        if not isinstance(sides, list):
            return
        kept = []
        for i, given in enumerate(sides):
            side = self.side_entry(i, given) if isinstance(given, dict) else given
            if side is not None or not isinstance(given, dict):
                kept.append(side)
        self.data["hexsides"] = kept

    def side_entry(self, i: int, side: dict[str, Any]) -> dict[str, Any] | None:
        ids = side.get("hexes") if "hexes" in side else [side.get("hex")]
        if not isinstance(ids, list) or not all(isinstance(h, str) for h in ids):
            return side
        where = "/".join([*ids, *([str(side["direction"])] if "direction" in side else [])])
        for hex_id in ids:
            if not self.grid.has_hex(hex_id):
                self.off_grid(where, hex_id, f"hexsides[{i}] {where}")
                return None
        on_map = tuple(ids)
        problem = self.shape(side, ids)
        if problem is not None:
            kind, message = problem
            self.found.append(Finding("error", kind, where, f"hexsides[{i}] {where}: {message}",
                                      hexes=tuple(dict.fromkeys(on_map)), source="screen"))
            return None
        side["features"] = self.names(where, on_map, "hexside feature",
                                      side.get("features", []),
                                      self.vocab("hexside_features"))
        return side if side["features"] != [] else None

    def shape(self, side: dict[str, Any], ids: list[str]) -> tuple[str, str] | None:
        """Why a hexside of on-map hexes is no hexside of this grid, or ``None``."""
        if "hexes" in side:
            if len(ids) != 2:
                return None  # a shape error: the strict load reports it
            a, b = ids
            if a == b:
                return "not_adjacent", f"'{a}' twice: a hexside joins two neighbouring hexes"
            if not _adjacent(self.grid, a, b):
                return "not_adjacent", (f"{a} and {b} are not neighbours, so they share no"
                                        " hexside: is one of the ids mistyped?")
            return None
        direction = side.get("direction")
        grid = self.grid.grid_for(ids[0])
        if not isinstance(direction, str) or grid is None:
            return None
        names = grid.direction_names
        if direction not in names:
            return "bad_hexside", (f"unknown direction '{direction}'"
                                   f"{did_you_mean(direction, names)} (one of {', '.join(names)})")
        other = grid.neighbour(grid.hex(ids[0]), direction)
        if grid.contains(other):
            return "bad_hexside", (f"inside the map, not on its edge: write it as"
                                   f' {{"hexes": ["{ids[0]}", "{grid.id(other)}"]}}')
        return None

    def locations(self) -> None:
        places = self.data.get("locations")
        if not isinstance(places, list):
            return
        kept = []
        for i, place in enumerate(places):
            if isinstance(place, dict) and isinstance(place.get("hexes"), list):
                for hex_id in place["hexes"]:
                    if isinstance(hex_id, str) and not self.grid.has_hex(hex_id):
                        self.off_grid(hex_id, hex_id,
                                      f"locations[{i}] '{place.get('name', '')}'")
                place["hexes"] = [h for h in place["hexes"]
                                  if not isinstance(h, str) or self.grid.has_hex(h)]
                if not place["hexes"]:
                    continue
            kept.append(place)
        self.data["locations"] = kept


def screen_document(data: Any, file: str | Path | None = "<map>"
                    ) -> tuple[MapData, list[Finding]]:
    """Report unknown names and off-grid hexes of a raw map document, and load the rest.

    Parameters
    ----------
    data
        The parsed JSON of a map document (not modified).
    file
        Name used in error messages.

    Returns
    -------
    (MapData, list of Finding)
        The map without the entries the findings name, and the findings.

    Raises
    ------
    DataError
        The document does not load even without those entries.
    """
    if not isinstance(data, dict):
        return map_from_data(data, file), []  # raises the located error
    doc = copy.deepcopy(data)
    found: list[Finding] = []
    terrain = list(doc["terrain_types"]) if isinstance(doc.get("terrain_types"), dict) else []
    default = doc.get("default_terrain", "clear")
    if terrain and isinstance(default, str) and default not in terrain:
        found.append(Finding("error", "unknown_name", "",
                             f"default_terrain: unknown terrain '{default}'"
                             f"{did_you_mean(default, terrain)}", source="screen"))
        doc["default_terrain"] = terrain[0]
    grid_only = map_from_data({**doc, "hexes": {}, "hexsides": [], "locations": []}, file)
    screen = _Screen(doc, grid_only)
    screen.hexes()
    screen.hexsides()
    screen.locations()
    return map_from_data(doc, file), found + screen.found


def screen_file(path: str | Path) -> tuple[MapData, list[Finding]]:
    """:func:`screen_document` on a map file."""
    return screen_document(read_json(path), path)
