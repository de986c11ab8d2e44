"""Game folders for the studio: the demo game and its scan, copied so tests may write.

``mistaught`` is the demo with the printed colour of woods given wrong in its map.json
(as a builder who guessed it would): the digitizer then reads every woods hex as
something else, until a person labels a few woods hexes and the reading learns the
colour from them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pipeline.model import MapData, load_map

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "maps" / "demo"
WRONG_WOODS = "#8a8a8a"


def copy_demo(folder: Path) -> Path:
    """The demo game's map, facts and scan in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("map.json", "facts.json", "scan.jpg"):
        shutil.copy(DEMO / name, folder / name)
    return folder


@pytest.fixture
def demo_folder(tmp_path: Path) -> Path:
    return copy_demo(tmp_path / "demo")


@pytest.fixture
def mistaught(tmp_path: Path) -> Path:
    folder = copy_demo(tmp_path / "mistaught")
    data = json.loads((folder / "map.json").read_text())
    data["terrain_types"]["woods"]["color"] = WRONG_WOODS
    (folder / "map.json").write_text(json.dumps(data, indent=2))
    return folder


@pytest.fixture(scope="session")
def demo_truth() -> MapData:
    """The demo map as typed: what the scan really shows."""
    return load_map(DEMO / "map.json")


def woods_hexes(truth: MapData) -> list[str]:
    """The demo's woods hexes, in id order."""
    return sorted(i for i in truth.hex_ids() if truth.terrain_of(i)[0] == "woods")
