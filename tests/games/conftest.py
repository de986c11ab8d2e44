"""Shared paths for the four seed games' data folders (maps/<game>, counters/<game>)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from pipeline.model import GameFolder
from pipeline.rules.registry import registry

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
# The seed games are the registered rule systems that answer with a game folder's profile;
# each folder says its game's rulebook and code (tests/model/test_folder.py holds them to
# what the system declares).
SEEDS = {spec.game: GameFolder(spec.reference.parent) for spec in registry().values()
         if spec.reference is not None and spec.game is not None}
GAMES = tuple(SEEDS)
RULEBOOKS = {game: folder.game.rulebook for game, folder in SEEDS.items()}
CODES = {game: folder.game.code for game, folder in SEEDS.items()}


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
