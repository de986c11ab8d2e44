"""A small game folder made from the demo game, with the numbers the rulebook leaves
to the map (terrain costs, unit MAs) filled in for the test."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _fill_costs(rules: dict) -> dict:
    chosen = {"beach": 1, "city": 1, "fortification": "+1", "marsh": 2, "rough": 2,
              "village": "+1", "woods": 2}
    for name, cost in chosen.items():
        rules["terrain"][name]["move"] = cost
    for name in ("bridge", "ditch", "minefield", "river"):
        rules["hexsides"][name]["move"] = 1
    return rules


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """maps/demo copied, its null costs filled in, and MAs given to every unit."""
    folder = tmp_path / "maps" / "demo"
    shutil.copytree(ROOT / "maps" / "demo", folder)
    rules = json.loads((folder / "rules.json").read_text())
    (folder / "rules.json").write_text(json.dumps(_fill_costs(rules)))
    with (ROOT / "counters" / "demo" / "units.csv").open(newline="") as src:
        rows = list(csv.DictReader(src))
    for row in rows:
        row["movement"] = row["movement"] or ("6" if row["class"] == "mobile" else "4")
    with (folder / "units.csv").open("w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return folder
