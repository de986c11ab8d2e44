"""Hex symbols learned from example hexes, on a map drawn here with OpenCV.

Towns are black keeps with a red pennant on hexes of two region colours, a
few with a road through them and a name beside them; names alone, black
squares of another shape and plain hexes are the distractors.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from pipeline.digitize.gridfit import GridFit, fit_centres, hex_units
from pipeline.digitize.light import Light
from pipeline.digitize.symbols import cover_symbols, read_symbols
from pipeline.errors import DataError
from pipeline.hexgrid import HexGrid, Numbering, Orientation

TOWNS = ["0203", "0305", "0502", "0604", "0706", "0803"]
NAMES_ONLY = ["0402", "0705"]
BLOTS = ["0206", "0504"]


def _fit() -> GridFit:
    grid = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=9, rows=7)
    uv = hex_units(grid.hexes(), grid.orientation)
    return fit_centres(grid, {grid.id(h): (50 + 40 * u, 50 + 40 * v)
                              for h, (u, v) in zip(grid.hexes(), uv, strict=True)})


def _keep(image: np.ndarray, x: int, y: int) -> None:
    """A town: a black keep with battlements and a red pennant."""
    cv2.rectangle(image, (x - 6, y - 3), (x + 6, y + 7), (20, 20, 20), -1)
    for dx in (-6, -1, 4):
        cv2.rectangle(image, (x + dx, y - 7), (x + dx + 2, y - 3), (20, 20, 20), -1)
    cv2.line(image, (x + 5, y - 7), (x + 5, y - 15), (20, 20, 20), 1)
    cv2.fillPoly(image, [np.array([(x + 6, y - 15), (x + 13, y - 12), (x + 6, y - 10)])],
                 (200, 30, 30))


@pytest.fixture(scope="module")
def drawn() -> tuple[np.ndarray, GridFit]:
    fit = _fit()
    grid = fit.grid
    image = np.full((560, 560, 3), (236, 230, 200), np.uint8)
    image[:, 280:] = (205, 222, 236)  # a second region, another ground colour
    centre = {grid.id(h): tuple(int(v) for v in np.rint(c))
              for h, c in zip(grid.hexes(), fit.centres(grid.hexes()), strict=True)}
    road = ["0305", "0404", "0504", "0604"]
    for a, b in itertools.pairwise(road):
        cv2.line(image, centre[a], centre[b], (130, 70, 30), 3, cv2.LINE_AA)
    for hex_id in TOWNS:
        x, y = centre[hex_id]
        _keep(image, x, y)
    for hex_id in TOWNS[:3] + NAMES_ONLY:
        x, y = centre[hex_id]
        cv2.putText(image, "Arlon", (x - 16, y + 22), cv2.FONT_HERSHEY_SIMPLEX, 0.35,
                    (20, 20, 20), 1, cv2.LINE_AA)
    for hex_id in BLOTS:
        x, y = centre[hex_id]
        cv2.circle(image, (x, y), 8, (20, 20, 20), -1)
    return cv2.GaussianBlur(image, (0, 0), 0.7), fit


def _found(image: np.ndarray, fit: GridFit, examples: list[str]) -> set[str]:
    h, w = image.shape[:2]
    hexes = read_symbols(image, fit, Light.flat(w, h), {"town": examples})
    assert all(v == ("town",) for v in hexes.values())
    return {fit.grid.id(h) for h in hexes}


@pytest.mark.parametrize("examples", [["0305"], ["0803"], ["0203", "0706"]])
def test_towns_are_found_from_one_or_two_examples_and_nothing_else(drawn, examples):
    image, fit = drawn
    assert _found(image, fit, examples) == set(TOWNS)


def test_a_symbol_example_on_an_empty_hex_is_one_clear_line(drawn):
    image, fit = drawn
    h, w = image.shape[:2]
    with pytest.raises(DataError) as info:
        read_symbols(image, fit, Light.flat(w, h), {"town": ["0101"]}, "scan.png")
    message = str(info.value)
    assert message.startswith("scan.png: --symbol town=0101: hex 0101 shows nothing but its"
                              " ground") and "\n" not in message


def test_a_symbol_example_off_the_grid_is_one_clear_line(drawn):
    image, fit = drawn
    h, w = image.shape[:2]
    with pytest.raises(DataError, match=r"scan.png: --symbol town=1203: hex '1203' is not on"
                                        r" the map \(") as info:
        read_symbols(image, fit, Light.flat(w, h), {"town": ["0305", "1203"]}, "scan.png")
    assert "\n" not in str(info.value)


def test_no_symbols_asked_for_reads_nothing(drawn):
    image, fit = drawn
    h, w = image.shape[:2]
    assert read_symbols(image, fit, Light.flat(w, h), {}) == {}


def test_a_symbol_example_showing_only_a_road_is_one_clear_line(drawn):
    from pipeline.digitize.colours import to_lab

    image, fit = drawn
    h, w = image.shape[:2]
    road = to_lab(np.array([(130, 70, 30)], float))
    with pytest.raises(DataError, match=r"scan.png: --symbol town=0404: hex 0404 shows only"
                                        r" lines the legend knows"):
        read_symbols(image, fit, Light.flat(w, h), {"town": ["0404"]}, "scan.png", road)
    assert _found(image, fit, ["0305"]) == set(TOWNS)


def test_a_small_mark_in_a_road_s_colour_is_a_symbol_not_a_road(drawn):
    """A small town printed as a dot in the roads' colour (bocage's own photo sample, seed 1:
    0209) is compact, not a line: the example is taken, and every such dot is found."""
    from pipeline.digitize.colours import to_lab

    image, fit = drawn
    image = image.copy()
    dots = ["0102", "0807", "0901"]
    for h, c in zip(fit.grid.hexes(), fit.centres(fit.grid.hexes()), strict=True):
        if fit.grid.id(h) in dots:
            x, y = (int(v) for v in np.rint(c))
            cv2.rectangle(image, (x - 2, y - 2), (x + 2, y + 2), (130, 70, 30), -1)
    h, w = image.shape[:2]
    road = to_lab(np.array([(130, 70, 30)], float))
    found = read_symbols(image, fit, Light.flat(w, h), {"dot": ["0102"]}, "scan.png", road)
    assert {fit.grid.id(x) for x in found} == set(dots)


def test_the_symbols_found_are_painted_over_from_their_ground_for_the_terrain(drawn):
    from pipeline.digitize.colours import to_lab

    image, fit = drawn
    before = image.copy()
    towns = [fit.grid.hex(i) for i in TOWNS]
    covered = cover_symbols(image, fit, towns)
    assert np.array_equal(image, before)  # the scan itself is left alone
    assert cover_symbols(image, fit, []) is image
    changed = np.any(covered != image, axis=-1)
    for h, (x, y) in zip(towns, fit.centres(towns), strict=True):
        cx, cy = int(round(x)), int(round(y))
        ground = to_lab(image[cy + 10:cy + 12, cx - 2:cx + 3].reshape(-1, 3))  # below it
        keep = to_lab(covered[cy - 3:cy + 8, cx - 6:cx + 7].reshape(-1, 3))
        # Where the keep stood is now its hex's ground, region colour and all.
        assert np.median(np.linalg.norm(keep - np.median(ground, axis=0), axis=1)) < 8, \
            fit.grid.id(h)
    # Nothing is touched away from the towns: the name beside a town, the blots.
    for hex_id in NAMES_ONLY + BLOTS:
        x, y = fit.centres([fit.grid.hex(hex_id)])[0]
        assert not changed[int(y) - 15:int(y) + 25, int(x) - 18:int(x) + 18].any(), hex_id
    x, y = fit.centres([fit.grid.hex(TOWNS[0])])[0]
    assert not changed[int(y) + 18:int(y) + 24, int(x) - 16:int(x) + 16].any()  # its name
