"""What the studio's page is sent: the map as plain data, in scan pixels.

:func:`page_state` is one JSON document the page draws everything from: the grid (each
hex's id, centre and six corners, clockwise from the corner before the first
direction, so a hex's side toward direction ``d`` runs from corner ``d - 1`` to corner
``d``), each hex's terrain, confidence and provenance (and a read hex's odds of each
terrain, ``odds``), the hexsides that have features,
the hex symbols and names, the anchors, the findings, the hexes the learner suggests
labelling next and how sure the reading is, the vocabulary with its colours and keys,
and the version edits must name.
"""

from __future__ import annotations

from typing import Any

from pipeline.digitize.gridfit import GridFit
from pipeline.digitize.legend import Legend
from pipeline.digitize.outputs import UNSURE, hex_corners
from pipeline.model import MapData
from pipeline.studio.document import HexValue
from pipeline.studio.workspace import Workspace

__all__ = ["KEYS", "page_state", "terrain_keys"]

# The keys that give a hex its terrain, in the map's terrain order.
KEYS = "123456789qwertyuiop"


def terrain_keys(names: list[str]) -> dict[str, str]:
    """Terrain -> the key that gives it (the first 19 terrains get one).

    >>> terrain_keys(["clear", "woods"])
    {'clear': '1', 'woods': '2'}
    """
    return dict(zip(names, KEYS, strict=False))


def page_state(workspace: Workspace) -> dict[str, Any]:
    """Everything the page shows, as plain data for JSON.

    While the scan has no reading yet (:meth:`Workspace.unread`), the grid, the labels
    given so far and, under ``reading.missing``, why: the page lets a person label hexes
    until the learner has an example of every terrain.
    """
    missing = workspace.unread()
    if missing is not None:
        fit, doc, legend = workspace.fit(), workspace.opened, workspace.legend
        given = workspace.log.overrides.terrain
        values: dict[str, HexValue] = {grid_id: ((t,), None, p) for grid_id, (t, p)
                                       in given.items()}
        return {**_frame(workspace, fit, doc, legend), "hexes": _hexes(fit, values, doc),
                "hexsides": [], "findings": [], "suggested": [],
                "reading": {"confidence": None, "unsure": 0, "unsureBelow": UNSURE,
                            "taught": len(given), "missing": missing}}
    reading = workspace.reading()
    state = workspace.state()
    fit = reading.fit
    grid = fit.grid
    doc = state.document
    index = {grid.id(h): i for i, h in enumerate(grid.hexes())}
    values = workspace.hex_values()
    sides = []
    for key, (features, provenance) in sorted(workspace.hexside_values().items()):
        side = grid.parse_hexside(key)
        a, b = (side.a, side.b) if grid.contains(side.a) else (side.b, side.a)
        direction = grid.direction(a, b)
        sides.append({"id": key, "hex": index[grid.id(a)], "direction": direction,
                      "other": index[grid.id(b)] if grid.contains(b) else None,
                      "features": list(features), "provenance": provenance})
    # The classifier's odds of each read hex (a person's word has none): the page names the
    # runners-up, the terrains a label would most likely have to choose between.
    odds = {grid.id(h): t.probabilities for h, t in reading.terrain.items()
            if t.probabilities and values.get(grid.id(h), ((), None, ""))[2] == "read"}
    return {
        **_frame(workspace, fit, doc, reading.legend),
        "hexes": _hexes(fit, values, doc, odds),
        "hexsides": sides,
        "findings": [f.to_dict() for f in state.findings],
        "suggested": workspace.suggestions(),
        "reading": _summary(values),
    }


def _hexes(fit: GridFit, values: dict[str, HexValue], doc: MapData,
           odds: dict[str, dict[str, float]] | None = None) -> list[dict[str, Any]]:
    """Each hex's place, its terrain as the page shows it, its marks and name, and the
    classifier's odds where it read the hex (a hex missing from ``values`` has no terrain
    yet)."""
    grid = fit.grid
    order = grid.hexes()
    corners = hex_corners(fit, order)
    centres = fit.centres()
    out = []
    for i, h in enumerate(order):
        hex_id = grid.id(h)
        terrain, confidence, provenance = values.get(hex_id, ((), None, "read"))
        entry = doc.hexes.get(hex_id)
        out.append({
            "id": hex_id,
            "centre": [round(float(centres[i][0]), 1), round(float(centres[i][1]), 1)],
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in corners[i]],
            "terrain": list(terrain), "confidence": confidence, "provenance": provenance,
            "odds": (odds or {}).get(hex_id, {}),
            "features": list(entry.features) if entry else [],
            "name": entry.name if entry and entry.name else None,
        })
    return out


def _frame(workspace: Workspace, fit: GridFit, doc: MapData, legend: Legend) -> dict[str, Any]:
    """The state's parts that need no reading: the files, the grid, the anchors, the
    vocabulary with its colours and keys, and the edit status."""
    grid = fit.grid
    handles = workspace.handles()
    pinned = workspace.log.overrides.anchors
    handle_xy = fit.centres([grid.hex(h) for h in handles])
    names = list(legend.terrain)
    keys = terrain_keys(names)
    return {
        **workspace.status(),
        "file": workspace.map_path.name,
        "scan": workspace.source,
        "grid": {"orientation": grid.orientation.value, "hexWidth": round(fit.hex_width, 2),
                 "method": fit.method, "directions": list(grid.direction_names)},
        "anchors": [{"hex": h, "x": round(float(x), 1), "y": round(float(y), 1),
                     "pinned": h in pinned} for h, (x, y) in zip(handles, handle_xy,
                                                                 strict=True)],
        "terrainTypes": [{"name": n, "key": keys.get(n),
                          "colour": _printed(doc, n) or _colour(legend.terrain[n])}
                         for n in names],
        "hexsideFeatures": [{"name": n, "kind": f.kind, "colour": _colour(f.colours)}
                            for n, f in legend.features.items()],
        "hexFeatures": {n: (t.color or "#e0b000") for n, t in doc.hex_features.items()},
    }


def _summary(values: dict[str, HexValue]) -> dict[str, Any]:
    """How sure the reading is: its mean confidence, how many hexes are read below
    :data:`~pipeline.digitize.outputs.UNSURE` (ringed on the page), and how many hexes a
    person has given a terrain (the examples it learnt from, beside the legend's)."""
    read = [c for _, c, p in values.values() if p == "read" and c is not None]
    return {"confidence": round(sum(read) / len(read), 3) if read else None,
            "unsure": sum(c < UNSURE for c in read), "unsureBelow": UNSURE,
            "taught": sum(p != "read" for _, _, p in values.values())}


def _printed(doc: MapData, name: str) -> str | None:
    """The terrain's colour as the map states it (labels re-sample the legend's)."""
    kind = doc.terrain_types.get(name)
    return kind.color if kind is not None else None


def _colour(colours: tuple[tuple[int, int, int], ...]) -> str:
    if not colours:
        return "#808080"
    r, g, b = colours[0]
    return f"#{r:02x}{g:02x}{b:02x}"
