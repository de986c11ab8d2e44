"""Hexside readings on a small map drawn here with OpenCV, in styles bocage's renderer lacks.

A flat-top map on cream paper: a black road and a black railroad with ties
down two columns (one colour, told apart by the ties), a blue river along a
chain of hexsides, a red-brown trail across it under a bridge drawn as two
black brackets, a sea edge drawn as water-lines (no river), and the scan
screened into halftone dots (the reader smooths them away) for one test.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from pipeline.digitize import legend_from_data
from pipeline.digitize.gridfit import GridFit, fit_centres, hex_units
from pipeline.digitize.hexsides import read_hexsides
from pipeline.digitize.light import Light
from pipeline.digitize.screen import screen_period
from pipeline.digitize.sidegeometry import side_geometry
from pipeline.hexgrid import HexGrid, Numbering, Orientation

PAPER = (238, 232, 206)
RIVER, ROAD, TRAIL, INK = (40, 100, 200), (25, 25, 25), (150, 64, 40), (30, 30, 30)
UNIT = 48.0  # pixels a pitch unit

LEGEND = {
    "kind": "legend", "paper": list(PAPER), "ink": list(INK),
    "terrain": {"clear": list(PAPER)},
    "features": {
        "river": {"kind": "along", "color": list(RIVER)},
        "road": {"kind": "across", "color": list(ROAD)},
        "railroad": {"kind": "across", "color": list(ROAD), "ticks": True},
        "trail": {"kind": "across", "color": list(TRAIL)},
        "bridge": {"kind": "across", "color": list(ROAD), "shape": "mark"},
    },
}


@dataclass(frozen=True)
class Drawn:
    image: np.ndarray
    fit: GridFit
    truth: dict[tuple[str, str], set[str]]


def _fit(cols: int = 9, rows: int = 7) -> GridFit:
    grid = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=cols, rows=rows)
    uv = hex_units(grid.hexes(), grid.orientation)
    return fit_centres(grid, {grid.id(h): (60 + UNIT * u, 60 + UNIT * v)
                              for h, (u, v) in zip(grid.hexes(), uv, strict=True)})


def _key(fit: GridFit, a: str, b: str) -> tuple[str, str]:
    x, y = sorted((a, b))
    return x, y


def drawn_map(screened: bool = False) -> Drawn:
    fit = _fit()
    grid = fit.grid
    w = fit.hex_width
    corners = side_geometry(fit).ends.reshape(-1, 2).max(axis=0)
    image = np.full((int(corners[1]) + 60, int(corners[0]) + 60, 3), PAPER, np.uint8)
    geo = side_geometry(fit)
    for p, q in geo.ends:
        cv2.line(image, tuple(np.rint(p).astype(int)), tuple(np.rint(q).astype(int)), INK, 1,
                 cv2.LINE_AA)
    truth: dict[tuple[str, str], set[str]] = {}
    centre = {grid.id(h): c for h, c in zip(grid.hexes(), fit.centres(grid.hexes()), strict=True)}

    def path(ids: list[str], colour: tuple[int, int, int], name: str, ties: bool = False) -> None:
        for a, b in itertools.pairwise(ids):
            p, q = centre[a], centre[b]
            cv2.line(image, tuple(np.rint(p).astype(int)), tuple(np.rint(q).astype(int)), colour,
                     3, cv2.LINE_AA)
            truth.setdefault(_key(fit, a, b), set()).add(name)
            if ties:
                d = (q - p) / np.linalg.norm(q - p)
                n = np.array([-d[1], d[0]])
                for t in np.arange(0.05, 1.0, 0.09):
                    m = p + (q - p) * t
                    cv2.line(image, tuple(np.rint(m - n * 0.12 * w).astype(int)),
                             tuple(np.rint(m + n * 0.12 * w).astype(int)), colour, 1,
                             cv2.LINE_AA)

    path([f"02{r:02d}" for r in range(1, 8)], ROAD, "road")
    path([f"07{r:02d}" for r in range(1, 8)], ROAD, "railroad", ties=True)
    # A river down the hexsides between columns 4 and 5.
    index = {frozenset((grid.id(s.a), grid.id(s.b))): i for i, s in enumerate(geo.sides)}
    river = [frozenset((f"04{r:02d}", f"05{r + k:02d}")) for r in range(1, 8) for k in (0, 1)]
    river = [s for s in river if s in index and geo.inner[index[s]].all()]
    for side in river:
        p, q = geo.ends[index[side]]
        cv2.line(image, tuple(np.rint(p).astype(int)), tuple(np.rint(q).astype(int)), RIVER, 3,
                 cv2.LINE_AA)
        a, b = sorted(side)
        truth.setdefault((a, b), set()).add("river")
    # A trail across the river, through a bridge drawn as two brackets.
    path(["0303", "0403", "0504", "0604"], TRAIL, "trail")
    p, q = centre["0403"], centre["0504"]
    mid, d = (p + q) / 2, (q - p) / np.linalg.norm(q - p)
    n = np.array([-d[1], d[0]])
    for side in (-1, 1):
        a = mid + n * side * 0.1 * w
        cv2.line(image, tuple(np.rint(a - d * 0.1 * w).astype(int)),
                 tuple(np.rint(a + d * 0.1 * w).astype(int)), ROAD, 2, cv2.LINE_AA)
    truth[_key(fit, "0403", "0504")].add("bridge")
    if screened:
        image = _screen(image)
    return Drawn(cv2.GaussianBlur(image, (0, 0), 0.6), fit, truth)


def _screen(image: np.ndarray, period: int = 5) -> np.ndarray:
    """The picture as dots of ink on a regular screen (each dot the size of its tone)."""
    h, w = image.shape[:2]
    y, x = np.mgrid[0:h, 0:w]
    cell = np.hypot((x % period) - period / 2 + 0.5, (y % period) - period / 2 + 0.5)
    out = np.empty_like(image)
    for c in range(3):
        ink = 1.0 - image[..., c] / 255.0
        out[..., c] = np.where(cell <= np.sqrt(ink * period * period / np.pi), 0, 255)
    return out


def _read(drawn: Drawn) -> dict[tuple[str, str], set[str]]:
    legend = legend_from_data(LEGEND, "legend.json")
    grid = drawn.fit.grid
    fills = {h: ("clear", tuple(float(v) for v in PAPER)) for h in grid.hexes()}
    h, w = drawn.image.shape[:2]
    reading = read_hexsides(drawn.image, drawn.fit, legend, Light.flat(w, h), fills)
    out = {}
    for side, names in reading.names().items():
        if grid.contains(side.a) and grid.contains(side.b):
            out[_key(drawn.fit, grid.id(side.a), grid.id(side.b))] = set(names)
    return out


@pytest.fixture(scope="module")
def plain() -> tuple[Drawn, dict[tuple[str, str], set[str]]]:
    drawn = drawn_map()
    return drawn, _read(drawn)


@pytest.mark.parametrize("feature", ["road", "railroad", "river", "trail", "bridge"])
def test_every_line_is_read_where_drawn_and_nowhere_else(plain, feature):
    drawn, found = plain
    want = {k for k, v in drawn.truth.items() if feature in v}
    got = {k for k, v in found.items() if feature in v}
    assert want and got == want, f"{feature}: missed {want - got}, invented {got - want}"


def test_a_railroad_and_a_road_of_one_colour_are_told_apart_by_the_ties(plain):
    _, found = plain
    road = {k for k, v in found.items() if "road" in v}
    rail = {k for k, v in found.items() if "railroad" in v}
    assert all(k[0].startswith("02") for k in road) and all(k[0].startswith("07") for k in rail)
    assert not road & rail


def test_a_bridge_is_recorded_with_what_it_spans_and_carries(plain):
    _, found = plain
    assert found[("0403", "0504")] == {"bridge", "river", "trail"}


def _label_over(drawn: Drawn, a: str, b: str, text: str) -> np.ndarray:
    """The map with a place name on a white ground printed over the middle of hexside a/b
    (two fifths of its length)."""
    grid = drawn.fit.grid
    geo = side_geometry(drawn.fit)
    i = next(k for k, s in enumerate(geo.sides) if {grid.id(s.a), grid.id(s.b)} == {a, b})
    p, q = geo.ends[i]
    along = q - p
    across = np.array([-along[1], along[0]]) / np.linalg.norm(along) * 0.12 * drawn.fit.hex_width
    lo, hi = p + along * 0.3, p + along * 0.7
    ground = np.rint([lo - across, hi - across, hi + across, lo + across]).astype(np.int32)
    image = drawn.image.copy()
    cv2.fillPoly(image, [ground], (250, 250, 246), cv2.LINE_AA)
    left = int(ground[:, 0].min())
    cv2.putText(image, text, (left, int((lo[1] + hi[1]) / 2) + 3), cv2.FONT_HERSHEY_PLAIN,
                0.6, INK, 1, cv2.LINE_AA)
    return image


def test_a_river_runs_on_under_a_name_printed_over_it():
    """A town's name on its white ground hides the middle of a river hexside (the foreign
    icons map's 0520/0619): the river runs on from both of its ends, so the hexside is read
    as river; the same name over a river of that one hexside alone is not read."""
    drawn = drawn_map()
    grid = drawn.fit.grid
    image = _label_over(drawn, "0405", "0506", "Kessel")
    # A river of one hexside, elsewhere, under the same name.
    geo = side_geometry(drawn.fit)
    i = next(k for k, s in enumerate(geo.sides) if {grid.id(s.a), grid.id(s.b)} == {"0805", "0905"})
    p, q = geo.ends[i]
    cv2.line(image, tuple(np.rint(p).astype(int)), tuple(np.rint(q).astype(int)), RIVER, 3,
             cv2.LINE_AA)
    image = _label_over(Drawn(image, drawn.fit, drawn.truth), "0805", "0905", "Kessel")
    found = _read(Drawn(image, drawn.fit, drawn.truth))
    river = {k for k, v in found.items() if "river" in v}
    assert ("0405", "0506") in river
    assert river == {k for k, v in drawn.truth.items() if "river" in v}


def test_confidences_come_with_every_reading():
    drawn = drawn_map()
    legend = legend_from_data(LEGEND, "legend.json")
    fills = {h: ("clear", tuple(float(v) for v in PAPER)) for h in drawn.fit.grid.hexes()}
    h, w = drawn.image.shape[:2]
    reading = read_hexsides(drawn.image, drawn.fit, legend, Light.flat(w, h), fills)
    assert reading.features and set(reading.features) == set(reading.evidence)
    values = [c for f in reading.features.values() for c in f.values()]
    assert all(0.0 <= c <= 1.0 for c in values)
    # Lines drawn cleanly and wholly are read surely.
    assert np.median(values) >= 0.9


def test_a_halftone_screen_is_found_and_smoothed_away():
    drawn = drawn_map(screened=True)
    period = screen_period(drawn.image, drawn.fit)
    assert period is not None and 4.0 <= period <= 6.0
    assert screen_period(drawn_map().image, drawn.fit) is None
    found = _read(drawn)
    # Ties a pixel thick do not survive a 5-pixel screen: the two black lines are
    # judged as black lines.
    for features in ({"road", "railroad"}, {"river"}):
        want = {k for k, v in drawn.truth.items() if v & features}
        got = {k for k, v in found.items() if v & features}
        assert len(want & got) >= 0.9 * len(want) and len(got - want) <= 1, features


# -- how sure the reading is that a line is not there -----------------------------------

LINES = ("river", "road", "railroad", "trail")


def _reading(image: np.ndarray, fit: GridFit):
    legend = legend_from_data(LEGEND, "legend.json")
    fills = {h: ("clear", tuple(float(v) for v in PAPER)) for h in fit.grid.hexes()}
    h, w = image.shape[:2]
    return read_hexsides(image, fit, legend, Light.flat(w, h), fills)


def _side(fit: GridFit, reading, a: str, b: str):
    grid = fit.grid
    return next(s for s in reading.absent if {grid.id(s.a), grid.id(s.b)} == {a, b}
                and grid.contains(s.a) and grid.contains(s.b))


@pytest.fixture(scope="module")
def marked() -> tuple[Drawn, object]:
    """The plain map with a road stub that stops short of a hexside, and two hexes
    printed in the road's own black."""
    from pipeline.digitize.outputs import hex_corners

    drawn = drawn_map()
    image = drawn.image.copy()
    grid = drawn.fit.grid
    p, q = drawn.fit.centres([grid.hex("0904"), grid.hex("0905")])
    stub = p + (q - p) * 0.42
    cv2.line(image, tuple(np.rint(p).astype(int)), tuple(np.rint(stub).astype(int)), ROAD, 3,
             cv2.LINE_AA)
    for hex_id in ("0806", "0807"):
        corners = hex_corners(drawn.fit, [grid.hex(hex_id)])[0]
        cv2.fillPoly(image, [np.rint(corners).astype(np.int32)], ROAD)
    return Drawn(image, drawn.fit, drawn.truth), _reading(image, drawn.fit)


def test_every_line_not_read_on_a_hexside_comes_with_how_sure_its_absence_is():
    drawn = drawn_map()
    reading = _reading(drawn.image, drawn.fit)
    assert set(reading.absent) == set(side_geometry(drawn.fit).sides)
    for side, absent in reading.absent.items():
        assert set(absent) == set(LINES) - set(reading.features.get(side, {})), side
        assert set(reading.absent_evidence[side]) == set(absent)
        assert all(0.0 <= c <= 1.0 for c in absent.values())


def test_a_hexside_showing_no_trace_of_any_line_is_surely_without_them():
    drawn = drawn_map()
    reading = _reading(drawn.image, drawn.fit)
    from pipeline.digitize.sideconfidence import absence

    assert reading.absent[_side(drawn.fit, reading, "0904", "0905")] == {
        "river": absence("along", 0.0), "road": absence("across", 0.0),
        "railroad": absence("across", 0.0), "trail": absence("across", 0.0)}
    assert absence("across", 0.0) >= 0.9 and absence("along", 0.0) >= 0.9


def test_a_line_seen_on_one_half_of_the_path_is_not_read_and_not_surely_absent(marked):
    drawn, reading = marked
    side = _side(drawn.fit, reading, "0904", "0905")
    assert "road" not in reading.features.get(side, {})
    # The stub shows on the half from 0904: the reading cannot say no road crosses.
    assert reading.absent_evidence[side]["road"][1] >= 0.5
    assert reading.absent[side]["road"] < 0.5


def test_a_line_the_ground_would_hide_says_nothing_either_way(marked):
    drawn, reading = marked
    side = _side(drawn.fit, reading, "0806", "0807")
    absent = reading.absent[side]
    # Black ground hides the black road and railroad; the brown trail would still show.
    assert absent["road"] == absent["railroad"] == 0.5
    assert absent["trail"] >= 0.9


def test_the_map_document_keeps_each_lines_absence_where_it_says_something(marked):
    from pipeline.digitize import digitize_scan
    from pipeline.digitize.sideconfidence import absence

    drawn, reading = marked
    legend = legend_from_data(LEGEND, "legend.json")
    plain = digitize_scan(drawn.image, legend, fit=drawn.fit)
    result = digitize_scan(drawn.image, legend, fit=drawn.fit, absence=True)
    doc = result.map
    assert result.hexside_absence and set(result.hexside_absence) == set(reading.absent)
    # A map a builder goes on to correct carries none of it unless asked.
    assert plain.hexside_absence == result.hexside_absence
    assert all(s.features and s.absent is None for s in plain.map.hexsides)
    assert all(f.absent is None for f in plain.map.hexside_features.values())
    # Where a hexside shows no trace, the vocabulary says how sure; bridges are marks.
    assert {n: f.absent for n, f in doc.hexside_features.items()} == {
        "river": absence("along", 0.0), "road": absence("across", 0.0),
        "railroad": absence("across", 0.0), "trail": absence("across", 0.0), "bridge": None}
    entries = {tuple(s.key()): s for s in doc.hexsides}
    # The stub's hexside says it, with no feature; a blank one is not listed.
    assert entries[("0904", "0905")].features == []
    assert entries[("0904", "0905")].absent is not None
    assert entries[("0904", "0905")].absent["road"] < 0.5
    assert ("0903", "0904") not in entries
    # A road read is listed with the railroad of its colour doubted, not itself.
    assert entries[("0201", "0202")].features == ["road"]
    assert "road" not in (entries[("0201", "0202")].absent or {})
