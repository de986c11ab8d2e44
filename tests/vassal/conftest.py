"""Game folders for module builds, made from the demo game with generated images.

The demo map has no board image or pixel layout, so each fixture copies
``maps/demo`` and ``counters/demo`` into a temporary tree, gives the board a
layout and draws a plain board and plain counters with Pillow (seeded by the
ids, so the same fixture gives the same bytes).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from pipeline.model import load_markers, load_units
from pipeline.vassal.images import counter_image_names
from tests.needs import missing

ROOT = Path(__file__).resolve().parents[2]
# shared/ sits beside the work tree (and beside CI's clone).
REFERENCE = ROOT.parent / "shared" / "reference"
SAMPLES = REFERENCE / "vassal-samples"
SAVES = REFERENCE / "vassal-saves"
SAMPLE_FILES = ("almoravid.buildFile.xml", "tld-mod.buildFile", "vivelemperor.buildFile.xml")


def reference(*parts: str) -> Path:
    """A file or folder of ``shared/reference``: skipped, naming it, when it is absent;
    a failure instead when ``CI=true`` (CI always has it)."""
    path = REFERENCE.joinpath(*parts)
    if not path.exists():
        missing(f"{path} (shared/reference beside the work tree)")
    return path
DEMO_LAYOUT = {"dx": 48.0, "dy": 55.0, "x0": 40.0, "y0": 40.0}


def colour(text: str) -> tuple[int, int, int]:
    digest = hashlib.sha256(text.encode()).digest()
    return digest[0], digest[1], digest[2]


def write_counter_images(directory: Path, ids: list[str], *, backs: bool = True,
                         size: int = 50) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for item in ids:
        front, back = counter_image_names(item)
        Image.new("RGB", (size, size), colour(item)).save(directory / front)
        if backs:
            Image.new("RGB", (size, size), colour(item + "/back")).save(directory / back)


def write_board(path: Path, width: int, height: int) -> None:
    image = Image.new("RGB", (width, height), (233, 228, 195))
    draw = ImageDraw.Draw(image)
    for x in range(0, width, 100):
        draw.line([(x, 0), (x, height)], fill=(120, 120, 120))
    image.save(path)


def make_game(tmp_path: Path, *, layout: dict[str, Any] | None = None,
              grid: dict[str, Any] | None = None, board_size: tuple[int, int] = (1240, 1290),
              counters: bool = True, backs: bool = True) -> Path:
    """``tmp_path/maps/demo`` with a layout and board.png, counters in
    ``tmp_path/counters/demo``."""
    game = tmp_path / "maps" / "demo"
    shutil.copytree(ROOT / "maps" / "demo", game)
    shutil.copytree(ROOT / "counters" / "demo", tmp_path / "counters" / "demo")
    data = json.loads((game / "map.json").read_text())
    board = data["boards"][0]
    if grid is not None:
        board["grid"].update(grid)
    board["grid"]["layout"] = layout if layout is not None else dict(DEMO_LAYOUT)
    (game / "map.json").write_text(json.dumps(data))
    write_board(game / "board.png", *board_size)
    if counters:
        units = load_units(tmp_path / "counters" / "demo" / "units.csv")
        markers = load_markers(tmp_path / "counters" / "demo" / "markers.csv")
        write_counter_images(tmp_path / "counters" / "demo",
                             [*units.ids(), *(m.id for m in markers)], backs=backs)
    return game


@pytest.fixture
def demo_game(tmp_path: Path) -> Path:
    return make_game(tmp_path)


@pytest.fixture
def game_factory(tmp_path: Path) -> Callable[..., Path]:
    counter = iter(range(1000))

    def factory(**kwargs: Any) -> Path:
        return make_game(tmp_path / f"g{next(counter)}", **kwargs)

    return factory
