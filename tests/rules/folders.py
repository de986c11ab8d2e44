"""Small game folders written by the tests: a map, a rules profile, units and a position."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

UNIT_COLUMNS = ["id", "name", "side", "nationality", "type", "size", "formation", "class",
                "movement", "steps", "flags", "notes"]


def rules_doc(system: str = "generic", **sections: Any) -> dict[str, Any]:
    """A small profile: foot units, clear 1 and woods 3 MP, ZOC stops, one unit a hex."""
    doc: dict[str, Any] = {
        "kind": "rules", "system": system, "game": "toy", "source": "TOY.md (a test game)",
        "cite_as": "TOY", "sides": ["blue", "red"], "unit_classes": ["foot"], "dice": "1d6",
        "terrain": {"clear": {"move": 1, "note": "TOY.md §1"},
                    "woods": {"move": 3, "note": "TOY.md §1"}},
        "movement": {"allowance": {"cite": "TOY.md §2"}},
        "zoc": {"enter": {"stop": True, "cite": "TOY.md §3"}},
        "stacking": {"limit": 1, "cite": "TOY.md §4"},
        "supply": {"sources": [{"side": "blue", "kind": "edge", "edges": ["west"],
                                "name": "the west edge", "cite": "TOY.md §5"},
                               {"side": "red", "kind": "edge", "edges": ["east"],
                                "name": "the east edge", "cite": "TOY.md §5"}],
                   "cite": "TOY.md §5"},
    }
    doc.update(sections)
    return doc


def write_game(folder: Path, rules: dict[str, Any], units: list[dict[str, Any]],
               placed: dict[str, str], hexes: dict[str, list[str]] | None = None,
               cols: int = 6, rows: int = 6) -> Path:
    """Write ``folder`` with map.json, rules.json, units.csv and position.json."""
    folder.mkdir(parents=True, exist_ok=True)
    terrain = sorted({t for tags in (hexes or {}).values() for t in tags} | {"clear"})
    (folder / "map.json").write_text(json.dumps({
        "kind": "map", "game": "toy", "title": "Toy map", "source": "TOY.md",
        "illustrative": True,
        "boards": [{"name": "toy", "grid": {"orientation": "flat",
                                            "numbering": {"stagger": "even-down"},
                                            "cols": cols, "rows": rows}}],
        "terrain_types": {t: {"color": "#aaaaaa"} for t in terrain},
        "hexes": {h: {"terrain": tags} for h, tags in (hexes or {}).items()},
    }))
    (folder / "rules.json").write_text(json.dumps(rules))
    with (folder / "units.csv").open("w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=UNIT_COLUMNS)
        writer.writeheader()
        for unit in units:
            writer.writerow({"type": "infantry", "notes": "invented for a test", **unit})
    (folder / "position.json").write_text(json.dumps({
        "kind": "position", "game": "toy", "turn": 2, "phase": "movement",
        "active_side": "blue", "units": [{"id": u, "hex": h} for u, h in placed.items()]}))
    return folder
