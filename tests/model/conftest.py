"""Shared paths, sample documents and helpers for the model tests."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from pipeline.errors import BocageError

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "maps" / "demo"
COUNTERS = ROOT / "counters" / "demo"
DEMO_MAP = DEMO / "map.json"
DEMO_RULES = DEMO / "rules.json"
DEMO_SCENARIO = DEMO / "scenario.json"
DEMO_POSITION = DEMO / "position.json"
DEMO_UNITS = COUNTERS / "units.csv"
DEMO_MARKERS = COUNTERS / "markers.csv"
RULEBOOK = "000_3d79f68a6e3e33eb.txt"

# Bounded so every fuzz test stays around a second.
FUZZ = settings(max_examples=200, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def sample(path: Path) -> dict[str, Any]:
    """A fresh, editable copy of a demo JSON document."""
    return copy.deepcopy(_cached(path))


_CACHE: dict[Path, Any] = {}


def _cached(path: Path) -> Any:
    if path not in _CACHE:
        _CACHE[path] = json.loads(path.read_text(encoding="utf-8"))
    return _CACHE[path]


def error_of(call: Callable[[], object]) -> str:
    """The message of the BocageError ``call`` raises (the test fails otherwise)."""
    with pytest.raises(BocageError) as info:
        call()
    return str(info.value)


def edited(path: Path, edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """A demo document with one edit applied."""
    doc = sample(path)
    edit(doc)
    return doc


def csv_with(path: Path, line: int, text: str) -> str:
    """A demo CSV with one line (1-based, header is 1) replaced."""
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[line - 1] = text
    return "\n".join(lines) + "\n"
