"""Fixtures: the demo game's map and facts, as parsed JSON and loaded."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from pipeline.model import MapData, map_from_data, read_json

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "maps" / "demo"
GAME_FOLDERS = ["demo", "omaha", "june44", "cobra", "tactical"]


@pytest.fixture
def demo_data() -> dict[str, Any]:
    """The demo map as parsed JSON (a fresh copy each test may change)."""
    return copy.deepcopy(_DEMO_DATA)


@pytest.fixture
def demo_map() -> MapData:
    return _DEMO_MAP


_DEMO_DATA: dict[str, Any] = read_json(DEMO / "map.json")
_DEMO_MAP = map_from_data(_DEMO_DATA)


def side_entry(data: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    """The hexside entry of ``a``/``b`` in a map document."""
    return next(s for s in data["hexsides"] if sorted(s.get("hexes", [])) == sorted([a, b]))
