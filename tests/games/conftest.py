"""Shared paths for the four seed games' data folders (maps/<game>, counters/<game>)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
GAMES = ("omaha", "june44", "cobra", "tactical")
RULEBOOKS = {
    "omaha": "000_3d79f68a6e3e33eb.txt",
    "june44": "001_2c092b02feae28f3.txt",
    "tactical": "002_9cac1969b0421155.txt",
    "cobra": "003_de9c41aeffe9bb98.txt",
}
CODES = {game: book[:3] for game, book in RULEBOOKS.items()}


def maps(game: str) -> Path:
    """``maps/<game>``."""
    return ROOT / "maps" / game


def counters(game: str) -> Path:
    """``counters/<game>``."""
    return ROOT / "counters" / game


def rulebook(name: str) -> Path | None:
    """A seed rulebook's text, if this checkout can see it.

    ``$BOCAGE_SEEDS`` names the folder; otherwise a ``seeds`` (or ``shared/seeds``)
    folder beside the repository or above it is used. The tests that need the
    text fall back to the excerpts in ``tests/games/data`` when it is absent.
    """
    env = os.environ.get("BOCAGE_SEEDS")
    candidates = [Path(env)] if env else []
    for parent in ROOT.parents:
        candidates += [parent / "seeds", parent / "shared" / "seeds"]
    for folder in candidates:
        path = folder / name
        if path.is_file():
            return path
    return None


def load(path: Path) -> Any:
    """Parsed JSON."""
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> str:
    """Each seed game in turn."""
    return str(request.param)
