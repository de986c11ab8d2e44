"""Game folders for the studio: the demo game and its scan, copied so tests may write.

``mistaught`` is the demo with the printed colour of woods given wrong in its map.json
(as a builder who guessed it would): the digitizer then reads every woods hex as
something else, until a person labels a few woods hexes and the reading learns the
colour from them.

:func:`foreign_game` is a game folder on a map of the foreign bench (drawn by another
renderer, with its exact truth), started as a builder starts one: no terrain colours,
one labelled hex a terrain.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from pipeline.model import MapData, load_map
from tests.needs import missing

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


def foreign_bench() -> Path:
    """The foreign bench folder (``../shared/bench/foreign`` beside the repository, or
    ``$BOCAGE_FOREIGN``), as ``bench/foreign.py`` finds it; without it the test skips,
    naming it, and fails when ``CI`` is set."""
    spec = importlib.util.spec_from_file_location("bench_foreign", ROOT / "bench" / "foreign.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    found: Path | None = module.foreign_folder()
    if found is None:
        missing("the foreign bench folder (../shared/bench/foreign beside the repository, or"
                " $BOCAGE_FOREIGN)")
    return found


def foreign_game(name: str, folder: Path, per_terrain: int = 1) -> dict[str, Any]:
    """A game folder for a foreign bench map, as a builder starts one; returns its truth.

    The map.json has what ``bench/foreign_setup.json`` gives the digitizer (the grid as
    printed, no pixel layout; the terrain names without colours; the hexside feature
    colours) and the first ``per_terrain`` of its sample hexes for each terrain, labelled
    (as a builder's first session in the studio leaves them); the map's image is copied
    beside it. The truth is for scoring only.
    """
    bench = foreign_bench()
    setup = json.loads((ROOT / "bench" / "foreign_setup.json").read_text())[name]
    image = next(p for p in sorted((bench / name).glob("map.*")))
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(image, folder / image.name)
    legend = setup["legend"]
    data = {
        "kind": "map", "game": name, "title": f"foreign bench: {name}", "illustrative": True,
        "source": f"the foreign bench's {name} map",
        "boards": [{"name": name, "grid": setup["grid"], "image": image.name}],
        "default_terrain": legend["default_terrain"],
        "terrain_types": {t: {} for t in legend["terrain"]},
        "hexside_features": {f: {"kind": v["kind"], "color": "#" + bytes(v["color"]).hex()}
                             for f, v in legend["features"].items()},
        "hexes": {i: {"terrain": [t], "provenance": "labelled"}
                  for t, ids in setup["samples"].items() for i in ids[:per_terrain]},
    }
    (folder / "map.json").write_text(json.dumps(data, indent=1))
    truth: dict[str, Any] = json.loads((bench / name / "truth.json").read_text())
    return truth
