"""Roads and railways painted out of hex patches before the terrain is learnt.

Small pictures drawn here with OpenCV show each rule of :mod:`pipeline.digitize.unlined`
(what is a line across a hex, what is not); the foreign bench's halftone, dense, photo,
stipple and keybox maps (drawn by others, with exact truth) show that the strokes found
are the roads the truth lists and almost nowhere else.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from bench.foreign import foreign_folder, image_of, load_setup, truth_fit, truth_of
from pipeline.digitize import Legend, legend_from_data
from pipeline.digitize.classify import _stroke_colours
from pipeline.digitize.gridfile import grid_from_data
from pipeline.digitize.patches import HexFrame, hex_patches, image_scale, lab_patches, reduce
from pipeline.digitize.scanfile import load_scan
from pipeline.digitize.unlined import paint_out_lines, stroke_mask
from pipeline.hexgrid import HexGrid, Orientation
from tests.needs import missing

FRAME = HexFrame(Orientation.FLAT, 32)
HILLS = (176, 150, 104)
ROAD = (239, 232, 209)
CASING = (80, 76, 70)
INK = ((20, 20, 20),)


def _halftone_hex(seed: int = 0) -> np.ndarray:
    """A hills hex printed as a coarse halftone: dots of brown on cream, slightly noisy."""
    rng = np.random.default_rng(seed)
    patch = np.full((32, 32, 3), (236, 226, 196), np.uint8)
    for y in range(1, 32, 3):
        for x in range(1 + (y // 3) % 2, 32, 3):
            cv2.circle(patch, (x, y), 1, HILLS, -1)
    noise = rng.normal(0, 3, patch.shape)
    out: np.ndarray = np.clip(patch + noise, 0, 255).astype(np.uint8)
    return out


def _with_road(patch: np.ndarray, a: tuple[int, int], b: tuple[int, int]) -> np.ndarray:
    """A cased road from ``a`` to ``b``: a black line with a pale one down its middle."""
    out = patch.copy()
    cv2.line(out, a, b, CASING, 5, cv2.LINE_AA)
    cv2.line(out, a, b, ROAD, 3, cv2.LINE_AA)
    return out


def _mean_lab(patch: np.ndarray) -> np.ndarray:
    inner = FRAME.within(0.85)
    mean: np.ndarray = lab_patches(patch[None])[0][inner].mean(axis=0)
    return mean


def test_a_cased_road_through_a_halftone_hex_is_painted_out():
    ground = _halftone_hex()
    road = _with_road(ground, (2, 16), (30, 16))
    clean = paint_out_lines(road[None], FRAME, [ROAD, CASING], INK)[0]
    before = np.linalg.norm(_mean_lab(road) - _mean_lab(ground))
    after = np.linalg.norm(_mean_lab(clean) - _mean_lab(ground))
    # The road moves the hex's mean colour far; painted out, the hex is its ground again.
    assert before > 4.0
    assert after < before / 2, (before, after)


def test_a_diagonal_road_and_a_railway_in_the_ink_colour_are_found():
    ground = _halftone_hex(1)
    diagonal = _with_road(ground, (6, 4), (26, 28))
    rail = ground.copy()
    cv2.line(rail, (16, 2), (16, 30), INK[0], 2, cv2.LINE_AA)
    mask = stroke_mask(np.stack([diagonal, rail]), FRAME, [ROAD, CASING, INK[0]], INK)
    assert mask[0].sum() >= 40 and mask[0, 16, 16]
    assert mask[1].sum() >= 30 and mask[1, 16, 16]


def test_what_is_not_a_line_across_the_hex_stays():
    ground = _halftone_hex(2)
    filled = np.full((32, 32, 3), ROAD, np.uint8)  # a hex filled with the road's colour
    block = ground.copy()  # a town's block: short and thick
    cv2.rectangle(block, (12, 12), (20, 20), ROAD, -1)
    contour = ground.copy()  # a long thin line that keeps off the centre, as a contour does
    cv2.ellipse(contour, (16, 16), (11, 11), 0, 200, 340, ROAD, 2, cv2.LINE_AA)
    icon = ground.copy()  # a black icon's stroke, on a map whose road is brown
    cv2.line(icon, (6, 20), (26, 12), (30, 24, 20), 2, cv2.LINE_AA)
    for patches, colours in (([filled, block, contour], [ROAD]), ([icon], [(128, 70, 30)])):
        stack = np.stack(patches)
        assert not stroke_mask(stack, FRAME, colours, INK).any()
        assert np.array_equal(paint_out_lines(stack, FRAME, colours, INK), stack)


def test_the_input_is_not_changed():
    road = _with_road(_halftone_hex(3), (2, 16), (30, 16))[None]
    kept = road.copy()
    clean = paint_out_lines(road, FRAME, [ROAD, CASING], INK)
    assert np.array_equal(road, kept) and not np.array_equal(clean, road)


def bench_patches(name: str) -> tuple[np.ndarray, HexFrame, Legend, HexGrid, dict[str, Any]]:
    """A foreign bench map's hex patches on the truth's grid, its frame, legend, grid and
    truth."""
    folder = foreign_folder()
    if folder is None:
        missing("the foreign bench (../shared/bench/foreign or $BOCAGE_FOREIGN)")
    setup, truth = load_setup()[name], truth_of(folder, name)
    grid = grid_from_data(setup["grid"], name)
    legend = legend_from_data(setup["legend"], name)
    fit = truth_fit(truth, grid, image_of(folder, name))
    image = load_scan(image_of(folder, name))
    frame = HexFrame(grid.orientation)
    patches = hex_patches(image, fit, grid.hexes(), frame,
                          reduce(image, image_scale(fit, frame.size)))
    return patches, frame, legend, grid, truth


def _bench_rates(name: str) -> tuple[float, float]:
    """On a bench map: the share of the hexes a road or railway crosses (by the truth's
    hexsides) where a stroke is found, and the share of the other hexes where one is."""
    patches, frame, legend, grid, truth = bench_patches(name)
    hexes = grid.hexes()
    found = stroke_mask(patches, frame, _stroke_colours(legend),
                        (legend.ink, (20, 20, 20))).any(axis=(1, 2))
    lines = {f for f, k in legend.features.items() if k.kind == "across" and k.shape == "line"}
    crossed: set[Any] = set()
    for side in truth["hexsides"]:
        if lines & set(side["features"]):
            crossed |= set(side["hexes"])
    on = np.array([grid.id(h) in crossed for h in hexes])
    return float(found[on].mean()), float(found[~on].mean())


@pytest.mark.parametrize("name", ["halftone", "dense", "photo", "stipple", "keybox"])
def test_strokes_are_found_where_the_truth_has_roads(name: str):
    on, off = _bench_rates(name)
    # Measured: 65% (dense: its roads also run along hexsides) to 99% of the crossed
    # hexes, at most 2.2% of the others (a coast or a contour drawn like a road).
    assert on >= 0.6, on
    assert off <= 0.04, off


def test_threads_and_a_given_lab_paint_out_the_same_pixels():
    # 704 hexes: three blocks, worked on two threads, give what one thread gives.
    patches, frame, legend, _, _ = bench_patches("halftone")
    colours, ink = _stroke_colours(legend), (legend.ink, (20, 20, 20))
    one = paint_out_lines(patches, frame, colours, ink, jobs=1)
    assert not np.array_equal(one, patches)  # there are roads to paint out
    assert np.array_equal(paint_out_lines(patches, frame, colours, ink, jobs=2), one)
    # The caller's own Lab conversion of the patches finds the same strokes.
    given = paint_out_lines(patches, frame, colours, ink, lab=lab_patches(patches))
    assert np.array_equal(given, one)
    assert np.array_equal(stroke_mask(patches, frame, colours, ink, jobs=2),
                          stroke_mask(patches, frame, colours, ink))
