"""The grid on maps bocage did not draw: the foreign bench (``../shared/bench/foreign``).

Six maps in published styles, drawn by an independent renderer with exact hex centres:
a key, a title block and a turn track inside the image (keybox), a map printed edge to
edge with its outer hexes cut by a dark frame (stipple), a scanned halftone print
(halftone), small hexes (dense), a thin grid under icons (icons) and a phone photo of a
folded sheet with perspective and barrel distortion (photo). Each is calibrated as a
builder would set it up (``bench/foreign_setup.json``: the grid as printed, no pixel
layout): every hex must be found and numbered right, with the mean centre error at most
1% of the hex width.

The folder is found as ``bench/foreign.py`` finds it; without it these tests skip, naming
it, and fail when ``CI=true``.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from pipeline.digitize import GridFit, calibrate, load_scan
from pipeline.digitize.gridfile import grid_from_data
from pipeline.hexgrid import HexGrid
from tests.needs import missing

ROOT = Path(__file__).resolve().parents[2]
MAPS = ("icons", "stipple", "halftone", "keybox", "dense", "photo")


@cache
def bench() -> ModuleType:
    """``bench/foreign.py``, which knows where the bench folder is and how it is set up."""
    spec = importlib.util.spec_from_file_location("bench_foreign", ROOT / "bench" / "foreign.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def _folder() -> Path:
    folder = bench().foreign_folder()
    if folder is None:
        missing("the foreign bench folder (../shared/bench/foreign beside the repository, or"
                " $BOCAGE_FOREIGN, with score.py and the six maps)")
    folder = Path(folder)
    absent = [m for m in MAPS if not (folder / m / "truth.json").is_file()]
    if absent:
        pytest.fail(f"{folder.name}: no truth.json for {', '.join(absent)}")
    return folder


@cache
def _scan(name: str) -> np.ndarray:
    return load_scan(bench().image_of(_folder(), name))


def _truth(name: str) -> dict[str, Any]:
    truth: dict[str, Any] = bench().truth_of(_folder(), name)
    return truth


def _spec(name: str) -> HexGrid:
    return grid_from_data(bench().load_setup()[name]["grid"], f"foreign_setup.json: {name}")


def _check(name: str, fit: GridFit, record: Any = None) -> tuple[float, float]:
    """Every truth hex on the fitted grid under its own id, nothing else; centre errors."""
    truth = _truth(name)
    ids = sorted(truth["centers_px"])
    grid = fit.grid
    assert (grid.cols, grid.rows) == (truth["grid"]["cols"], truth["grid"]["rows"]), name
    assert len(grid.hexes()) == len(ids) and all(grid.has_id(i) for i in ids), name
    got = fit.centres([grid.hex(i) for i in ids])
    want = np.array([truth["centers_px"][i] for i in ids])
    width = float(truth["hex_size_px"]) * 3 ** 0.5
    errors = np.hypot(*(got - want).T) / width
    if record is not None:
        record("mean_centre_error", round(float(errors.mean()), 5))
        record("max_centre_error", round(float(errors.max()), 5))
    return float(errors.mean()), float(errors.max())


@pytest.mark.slow
@pytest.mark.parametrize("name", MAPS)
def test_every_hex_is_found_and_numbered_with_the_grid_as_printed(name, record_property):
    fit = calibrate(_scan(name), spec=_spec(name), source=name)
    mean, worst = _check(name, fit, record_property)
    assert mean <= 0.01, f"{name}: mean centre error {mean:.2%} (max {worst:.2%})"
    # No hex is far off either: a tenth of the way to its neighbour.
    assert worst <= 0.03, f"{name}: max centre error {worst:.2%} (mean {mean:.2%})"


@pytest.mark.slow
@pytest.mark.parametrize("name", MAPS)
def test_columns_and_rows_alone_choose_the_field(name):
    # Orientation and stagger read off the scan; only the size given (--cols/--rows).
    spec = _spec(name)
    fit = calibrate(_scan(name), size=(spec.cols, spec.rows), source=name)
    assert fit.grid.orientation is spec.orientation
    assert fit.grid.numbering.stagger == spec.numbering.stagger
    mean, _ = _check(name, fit)
    assert mean <= 0.01


def test_the_photo_is_fitted_through_a_lens():
    fit = calibrate(_scan("photo"), spec=_spec("photo"))
    assert fit.lens is not None and fit.lens.k1 == pytest.approx(-0.045, abs=0.01)
    assert fit.method.startswith("automatic + refined + lens (k1 -0.04")
    # Flat prints and scans get no lens.
    assert calibrate(_scan("keybox"), spec=_spec("keybox")).lens is None


@pytest.mark.slow
@pytest.mark.parametrize("name", MAPS)
def test_two_anchors_never_grow_the_grid_over_the_key(name):
    # The anchored corner hexes; no size given. On the keybox the key's hexes and the
    # turn track stand apart from the map; on the stipple map both corners are cut; on
    # the photo the two corners are where the anchors' affine grid is right.
    truth = _truth(name)
    ids = sorted(truth["centers_px"])
    anchors = {i: tuple(truth["centers_px"][i]) for i in (ids[0], ids[-1])}
    fit = calibrate(_scan(name), anchors=anchors)
    assert _check(name, fit)[0] <= 0.01
    spec = _spec(name)
    sized = calibrate(_scan(name), anchors=anchors, size=(spec.cols, spec.rows))
    assert _check(name, sized)[0] <= 0.01


def test_a_size_that_is_not_the_map_is_refused():
    spec = _spec("keybox")
    small = HexGrid(spec.orientation, spec.numbering, spec.cols - 1, spec.rows)
    with pytest.raises(Exception, match=r"found \d+ hexes in 24 columns x 18 rows on the scan,"
                                        r" but the grid file says 23 x 18"):
        calibrate(_scan("keybox"), spec=small)
