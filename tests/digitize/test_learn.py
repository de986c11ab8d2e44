"""Terrain learnt from a few examples, on maps bocage did not draw (the foreign bench).

Each map of ``../shared/bench/foreign`` is read as a builder would set it up
(``bench/foreign_setup.json``: three sample hexes a terrain), with the grid put on the
truth's own hex centres so that these tests measure terrain alone (calibration has tests
of its own), and scored by the bench's own scorer against its exact truth.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bench.foreign import MAPS, candidate, foreign_folder, load_setup, read_map, run_map, scorer
from pipeline.digitize import digitize_scan, legend_from_data, legend_from_map
from pipeline.errors import DataError
from pipeline.model import MapData
from pipeline.render import Scan
from tests.needs import missing

FOREIGN = foreign_folder()
# The goal is 98% on every map, met with the truth's grid whatever the learner's seed (0 to
# 2: 98.1% at worst, the README has the figures per map); this floor leaves half a point
# for the learner's chance. A drop below it is a regression.
FLOOR = 0.975


def _need_bench() -> Path:
    if FOREIGN is None:
        missing("the foreign bench (../shared/bench/foreign or $BOCAGE_FOREIGN)")
    return FOREIGN


@cache
def _read(name: str, extra: tuple[tuple[str, str], ...] = ()
          ) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """A bench map read with its setup's samples (plus extra labelled hexes), and scored:
    the result, the truth and the score."""
    folder = _need_bench()
    setup = dict(load_setup()[name])
    samples = {t: list(ids) for t, ids in setup["samples"].items()}
    for hex_id, terrain in extra:
        samples.setdefault(terrain, []).append(hex_id)
    setup["samples"] = samples
    result, truth, _ = read_map(folder, name, setup, truth_grid=True, suggest=10)
    return result, truth, scorer(folder).score(truth, candidate(result))


def _accuracy(name: str, extra: tuple[tuple[str, str], ...] = ()) -> float:
    return float(_read(name, extra)[2]["terrain"]["accuracy"])


@pytest.mark.slow
@pytest.mark.parametrize("name", MAPS)
def test_three_samples_a_terrain_read_every_foreign_map(name: str):
    _, _, score = _read(name)
    assert score["hex_count"]["ids_match"]
    assert score["terrain"]["accuracy"] >= FLOOR, (name, score["terrain"]["top_confusions"])


@pytest.mark.slow
@pytest.mark.parametrize("name", MAPS)
def test_confidence_is_calibrated(name: str):
    """Of the hexes read at confidence 0.9 or more, at least 90% are right."""
    result, truth, _ = _read(name)
    grid = result.fit.grid
    sure = [h for h, t in result.terrain.items() if t.confidence >= 0.9]
    right = [h for h in sure if result.terrain[h].terrain[0] == truth["hexes"][grid.id(h)]
             ["terrain"]]
    assert len(sure) >= 0.3 * len(result.terrain)
    assert len(right) >= 0.9 * len(sure)


@pytest.mark.slow
def test_ten_suggested_labels_raise_the_worst_map():
    worst = min(MAPS, key=_accuracy)
    result, truth, _ = _read(worst)
    asked = [result.fit.grid.id(h) for h in result.suggestions]
    assert len(asked) == 10 and len(set(asked)) == 10
    samples = {i for ids in load_setup()[worst]["samples"].values() for i in ids}
    assert not samples & set(asked)
    labels = tuple((i, truth["hexes"][i]["terrain"]) for i in asked)
    assert _accuracy(worst, labels) > _accuracy(worst), worst


@pytest.mark.slow
def test_key_swatches_alone_teach_the_keybox_map():
    """The printed key's swatches, as pixel boxes, are examples enough (no sample hex)."""
    folder = _need_bench()
    setup = {**load_setup()["keybox"], "samples": {}}
    boxes = {"clear": (1556, 281), "woods": (1806, 281), "hills": (1556, 372),
             "marsh": (1806, 372), "city": (1556, 463), "rough": (1806, 463),
             "lake": (1556, 554)}
    key = {t: [(x, y, 78, 70)] for t, (x, y) in boxes.items()}
    figures, _ = run_map(folder, "keybox", setup, truth_grid=True, key=key)
    assert figures.terrain >= 0.99


# -- on bocage's own demo scan: the examples' errors and warnings ----------------------------


def test_a_sample_off_the_grid_is_one_line(demo_scan: tuple[Any, Scan], demo: MapData):
    legend = legend_from_map(demo)
    with pytest.raises(DataError, match=r"--sample: hex '9999' is not on the map \(25 columns"):
        digitize_scan(demo_scan[1].image, legend, samples={"woods": ["9999"]})


def test_a_sample_of_a_terrain_the_legend_lacks(demo_scan: tuple[Any, Scan], demo: MapData):
    legend = legend_from_map(demo, "legend.json")
    with pytest.raises(DataError, match=r"legend.json: terrain.wods: --sample names terrain"
                                        r" 'wods', which the legend does not have \(did you mean"
                                        r" 'woods'\?\)"):
        digitize_scan(demo_scan[1].image, legend, samples={"wods": ["1403"]})


def test_a_key_box_outside_the_image_is_one_line(demo_scan: tuple[Any, Scan], demo: MapData):
    legend = legend_from_map(demo)
    h, w = demo_scan[1].image.shape[:2]
    with pytest.raises(DataError, match=f"--key: the box {w - 10},5,40,40 is not inside the"
                                        f" image \\({w} x {h} px\\)"):
        digitize_scan(demo_scan[1].image, legend, key={"woods": [(w - 10, 5, 40, 40)]})


@pytest.mark.slow
def test_a_terrain_found_nowhere_is_a_warning(demo_scanned: Any, demo: MapData):
    data = {"terrain": {n: t.color for n, t in demo.terrain_types.items()},
            "features": {n: {"kind": f.kind, "color": f.color}
                         for n, f in demo.hexside_features.items()}}
    data["terrain"]["glacier"] = "#ff00ff"  # printed nowhere on the map
    told: list[str] = []
    digitize_scan(demo_scanned.scan.image, legend_from_data(data, "legend.json"),
                  warn=told.append)
    assert "legend.json: terrain 'glacier' was found in no hex; check its examples or drop it" \
        in told
    assert np.all(["glacier" not in line or "no hex" in line for line in told])


def test_patches_of_a_map_of_many_hexes():
    """Thousands of hexes are resampled in one go (OpenCV's remap takes maps under 32,767
    rows: a 2,000-hex map must not reach it)."""
    from pipeline.digitize.gridfit import fit_centres, hex_units
    from pipeline.digitize.patches import HexFrame, hex_patches
    from pipeline.hexgrid import HexGrid, Numbering, Orientation

    grid = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=50, rows=44)
    uv = hex_units(grid.hexes(), grid.orientation)
    fit = fit_centres(grid, {grid.id(h): (20 + 15 * u, 20 + 17.32 * v)
                             for h, (u, v) in zip(grid.hexes(), uv, strict=True)})
    image = np.zeros((800, 800, 3), np.uint8)
    image[:, 400:] = 200  # the east half light
    patches = hex_patches(image, fit, grid.hexes(), HexFrame(grid.orientation))
    assert patches.shape == (2200, 32, 32, 3)
    centres = fit.centres()
    light = patches[:, 16, 16, 0] > 100
    assert np.array_equal(light, centres[:, 0] > 400)


def test_suggestions_prefer_whole_hexes_to_mixed_ones():
    """Of two hexes as doubtful, the one of a single terrain is asked first: labelling a
    half-woods, half-clear hex teaches the learner a mixed picture."""
    from pipeline.digitize.learn import Reading, suggest

    p = np.array([[0.52, 0.48], [0.55, 0.45], [0.99, 0.01], [0.98, 0.02]])
    x = np.array([[0.0], [0.2], [5.0], [5.1]])
    reading = Reading(("woods", "clear"), p, x)
    assert suggest(reading, 1) == [0]  # the most doubtful
    assert suggest(reading, 1, whole=np.array([0.5, 1.0, 1.0, 1.0])) == [1]


@pytest.mark.slow
def test_suggested_hexes_on_the_bench_are_mostly_of_one_terrain():
    """Pooled over the learner's seeds 0 to 2 (ten suggestions each): one seed's ten move
    with the forest's chance (dense's median share is 0.80 under seed 0 and 0.99 and 0.95
    under seeds 1 and 2). With mixed hexes not held back, seed 0's was 0.82 on both maps
    (measured with the forest of 120 trees, where it is 0.90 and 0.95 held back)."""
    from pipeline.digitize.learn import Learner

    folder = _need_bench()
    for name in ("halftone", "dense"):
        shares = []
        for seed in range(3):
            result, truth, _ = (_read(name) if seed == 0 else read_map(
                folder, name, load_setup()[name], truth_grid=True, suggest=10,
                learner=Learner(seed=seed)))
            grid = result.fit.grid
            shares += [truth["hexes"][grid.id(h)].get("main_area_fraction", 1.0)
                       for h in result.suggestions]
        assert len(shares) == 30 and float(np.median(shares)) >= 0.88, (name, shares)


@pytest.mark.slow
def test_the_reading_is_the_same_on_one_thread_and_on_two():
    """The trees' answers are added up in the trees' order, not as threads finish, so a
    map reads the same however many threads apply the forest. (The race this guards
    against showed only under load: one run in three of the icons map read 99.0% instead
    of 98.8%, a rounding difference carried on by the self-training rounds. This test
    holds the property; it cannot make the race happen.)"""
    from pipeline.digitize.learn import Learner

    folder = _need_bench()
    setup = load_setup()["icons"]
    readings = []
    for jobs in (1, 2):
        result, _, _ = read_map(folder, "icons", setup, truth_grid=True,
                                learner=Learner(jobs=jobs))
        readings.append({h: (t.terrain, t.confidence, tuple(sorted(t.fractions.items())))
                         for h, t in result.terrain.items()})
    assert readings[0] == readings[1]
