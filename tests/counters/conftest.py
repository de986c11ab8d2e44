"""Fixtures for the counter tests: small manifests with values, made in the test."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pipeline.model.manifest import units_from_text

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "counters" / "demo"

# Invented values for the tests (the demo manifest leaves them empty, as the rulebook does).
UNITS_CSV = """\
id,side,nationality,type,size,class,attack,defence,range,movement,strength,back_attack,back_defence,back_movement,steps,flags,setup_hex,arrival_turn
914/352,german,German,infantry,regiment,leg,5,4,,4,,3,2,4,,,,
CCA/2,allied,US,mechanized,regiment,mobile,7,5,,8,,4,3,8,,,,2
1/1,allied,British,armor,brigade,mobile,6,4,,8,,3,2,8,,,,
KG Meyer,german,German,mechanized,kampfgruppe,mobile,6,5,,6,,,,,1,no_zoc,,
2 Rgr,allied,US,ranger,battalion,leg,,,,,,,,,2,ranger,2417,
"""


@pytest.fixture
def units_csv(tmp_path: Path) -> Path:
    path = tmp_path / "units.csv"
    path.write_text(UNITS_CSV, encoding="utf-8")
    return path


@pytest.fixture
def units():
    return units_from_text(UNITS_CSV, "units.csv")


def array(image: Image.Image) -> np.ndarray:
    """An RGB image as an int array (rows, columns, 3)."""
    return np.asarray(image.convert("RGB")).astype(int)


def ink_box(pixels: np.ndarray, background: tuple[int, int, int],
            tolerance: int = 24) -> tuple[int, int, int, int] | None:
    """(left, top, right, bottom) of the pixels that differ from ``background``; exclusive."""
    diff = np.abs(pixels - np.array(background)).sum(axis=2) > tolerance
    ys, xs = np.nonzero(diff)
    if len(xs) == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1
