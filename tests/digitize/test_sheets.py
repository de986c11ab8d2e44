"""The grid on whole sheets, from maps bocage draws: the foreign bench's hard cases, our own.

Each case starts from a map drawn by :func:`pipeline.render.render_map` (so its hex
centres are known exactly) and makes it into what a builder really scans:

* a white grid over saturated fills (found in light strokes);
* a terrain key of hex swatches, drawn off the map's lattice, and a turn track of
  square boxes beside the map;
* a map printed edge to edge, its outer hexes cut by a dark frame;
* a phone photo: the sheet tilted (a homography), bowed by a barrel lens, on a
  streaked table.

The photo's warp is written here with NumPy and OpenCV, not with the digitizer's
own lens model, so the test checks that model against an independent one. The
render bench's sample sheets (:mod:`pipeline.render.styles`: icons over realms,
stipple edge to edge, halftone, a sheet with key and turn track, a phone photo) are
calibrated with the grid as printed, as a builder would.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from pipeline.digitize import GridFit, calibrate
from pipeline.digitize.gridfit import Projection, fit_homography, hex_units
from pipeline.errors import GridError
from pipeline.hexgrid import HexGrid, Orientation
from pipeline.model import MapData
from pipeline.render import Rendered, RenderStyle, render_map, sample_map
from pipeline.render.styles import SAMPLES, sample_sheet
from pipeline.render.truth import truth_document

HEX = 48.0
# Saturated fills (the photo map's vintage style) under a white grid.
SATURATED = {"clear": "#8c9a3a", "woods": "#2f5d2a", "rough": "#8a5a2b", "marsh": "#3f7f7a",
             "water": "#2d5f9e", "town": "#9e3b32"}


def _map(orientation: str = "flat", cols: int = 20, rows: int = 14, seed: int = 4) -> MapData:
    return sample_map(orientation, cols, rows, seed=seed)


def _truth(rendered: Rendered) -> dict[str, tuple[float, float]]:
    g = rendered.grid
    return {g.id(h): g.center(h) for h in g.hexes()}


def _errors(fit: GridFit, truth: dict[str, tuple[float, float]]) -> np.ndarray:
    ids = sorted(truth)
    assert len(fit.grid.hexes()) == len(ids) and all(fit.grid.has_id(i) for i in ids)
    got = fit.centres([fit.grid.hex(i) for i in ids])
    want = np.array([truth[i] for i in ids])
    return np.hypot(*(got - want).T) / HEX


def _spec(rendered: Rendered) -> HexGrid:
    g = rendered.grid
    return HexGrid(g.orientation, g.numbering, g.cols, g.rows)


def test_a_white_grid_over_saturated_fills_is_found():
    style = RenderStyle(hex_size=HEX, grid_color="#f6f6f0", grid_width=0.05,
                        palette=SATURATED, textured=True, ids=True, id_color="#f6f6f0")
    rendered = render_map(_map(), style)
    spec = _spec(rendered)
    # The map's outer hexes are white on white paper along their outer sides: its size
    # says where the map ends.
    for fit in (calibrate(rendered.image, spec=spec),
                calibrate(rendered.image, size=(spec.cols, spec.rows))):
        errors = _errors(fit, _truth(rendered))
        assert errors.mean() <= 0.01 and errors.max() <= 0.03


def _with_key_and_track(rendered: Rendered) -> np.ndarray:
    """The map with, beside it, a key of hex swatches and a track of numbered boxes."""
    h, w = rendered.image.shape[:2]
    side = int(HEX * 4.5)
    sheet = np.full((h + side, w + side, 3), 250, np.uint8)
    sheet[:h, :w] = rendered.image
    r = HEX / math.sqrt(3)
    rng = np.random.default_rng(0)
    # Key: eight map-sized hexes two by two, a third of a hex off the map's lattice.
    for i in range(8):
        cx, cy = w + HEX * (1.2 + 1.8 * (i % 2)), HEX * (1.3 + 1.6 * (i // 2))
        pts = np.array([(cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k))
                        for k in range(6)], np.int32)
        colour = tuple(int(c) for c in rng.integers(90, 230, 3))
        cv2.fillPoly(sheet, [pts], colour)
        cv2.polylines(sheet, [pts], True, (30, 30, 30), 2, cv2.LINE_AA)
    # Turn track: two rows of square boxes under the map, about a hex each.
    for row in range(2):
        for col in range(int(w // (HEX * 1.1))):
            x0, y0 = int(HEX * (0.4 + 1.1 * col)), int(h + HEX * (0.6 + 1.1 * row))
            cv2.rectangle(sheet, (x0, y0), (x0 + int(HEX), y0 + int(HEX)), (30, 30, 30), 2)
            cv2.putText(sheet, str(1 + col + 20 * row), (x0 + 4, y0 + 16),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.45, (30, 30, 30), 1, cv2.LINE_AA)
    return sheet


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_a_key_and_a_turn_track_beside_the_map_are_left_out(orientation):
    rendered = render_map(_map(orientation, 18, 12), RenderStyle(hex_size=HEX, ids=True))
    sheet = _with_key_and_track(rendered)
    truth = _truth(rendered)
    spec = _spec(rendered)
    for fit in (calibrate(sheet, spec=spec), calibrate(sheet, size=(spec.cols, spec.rows)),
                calibrate(sheet)):
        errors = _errors(fit, truth)
        assert errors.mean() <= 0.01
    # Two anchors and no size: the map runs over the hexes joined to them, not the key.
    ids = sorted(truth)
    fit = calibrate(sheet, anchors={i: truth[i] for i in (ids[0], ids[-1])})
    assert (fit.grid.cols, fit.grid.rows) == (spec.cols, spec.rows)


def test_a_map_printed_edge_to_edge_keeps_the_hexes_its_frame_cuts():
    rendered = render_map(_map("flat", 20, 14, seed=6), RenderStyle(hex_size=HEX, ids=True,
                                                                    margin=0.0))
    g = rendered.grid
    centres = np.array([g.center(h) for h in g.hexes()])
    # Cut the sheet a third of a hex inside the outer hexes' far sides, and frame it.
    lo = centres.min(axis=0) - 0.25 * HEX
    hi = centres.max(axis=0) + 0.25 * HEX
    x0, y0 = (int(v) for v in np.floor(lo))
    x1, y1 = (int(v) for v in np.ceil(hi))
    sheet = np.ascontiguousarray(rendered.image[y0:y1, x0:x1])
    band = int(0.15 * HEX)
    cv2.rectangle(sheet, (0, 0), (sheet.shape[1] - 1, sheet.shape[0] - 1), (35, 30, 40), band)
    truth = {k: (x - x0, y - y0) for k, (x, y) in _truth(rendered).items()}
    fit = calibrate(sheet, spec=_spec(rendered))
    errors = _errors(fit, truth)
    assert errors.mean() <= 0.01 and errors.max() <= 0.03
    # A size one column short is refused, naming what the scan shows.
    short = HexGrid(g.orientation, g.numbering, g.cols - 2, g.rows)
    with pytest.raises(GridError, match="columns x 14 rows on the scan, but the grid file says"
                                        " 18 x 14"):
        calibrate(sheet, spec=short)


def _photograph(image: np.ndarray, points: np.ndarray, k1: float, seed: int = 0
                ) -> tuple[np.ndarray, np.ndarray]:
    """A phone photo of a sheet: tilted, turned, through a barrel lens, on a table.

    Returns the photo and where ``points`` (sheet pixels) appear in it.
    """
    h, w = image.shape[:2]
    out_w, out_h = int(w * 1.25), int(h * 1.3)
    # The sheet's corners as a tilted camera sees them (the far edge smaller).
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[0.16 * out_w, 0.14 * out_h], [0.86 * out_w, 0.10 * out_h],
                      [0.92 * out_w, 0.90 * out_h], [0.08 * out_w, 0.86 * out_h]])
    tilt = cv2.getPerspectiveTransform(src, dst)
    centre = np.array([(out_w - 1) / 2, (out_h - 1) / 2])
    norm = 0.5 * math.hypot(out_w, out_h)

    def barrel(p: np.ndarray) -> np.ndarray:
        d = (p - centre) / norm
        return centre + (p - centre) * (1 + k1 * (d ** 2).sum(axis=-1, keepdims=True))

    # Each photo pixel looks through the lens (undone by fixed-point iteration) and
    # back through the tilt onto the sheet.
    yy, xx = np.mgrid[0:out_h, 0:out_w].astype(np.float64)
    seen = np.stack([xx, yy], axis=-1)
    flat = seen.copy()
    for _ in range(12):
        d = (flat - centre) / norm
        flat = centre + (seen - centre) / (1 + k1 * (d ** 2).sum(axis=-1, keepdims=True))
    on_sheet = cv2.perspectiveTransform(flat.reshape(-1, 1, 2).astype(np.float64),
                                        np.linalg.inv(tilt)).reshape(out_h, out_w, 2)
    table = np.zeros((out_h, out_w, 3), np.uint8)
    streaks = 90 + 40 * np.sin(xx / 7.0 + 3 * np.sin(yy / 53.0))
    table[...] = np.stack([streaks, streaks * 0.7, streaks * 0.45], axis=-1).astype(np.uint8)
    photo = cv2.remap(image, on_sheet[..., 0].astype(np.float32),
                      on_sheet[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    inside = ((on_sheet[..., 0] >= 0) & (on_sheet[..., 0] < w) & (on_sheet[..., 1] >= 0)
              & (on_sheet[..., 1] < h))
    photo[~inside] = table[~inside]
    # A light gradient across the photo, and sensor noise.
    light = (0.75 + 0.35 * xx / out_w)[..., None]
    noise = np.random.default_rng(seed).normal(0, 3, photo.shape)
    photo = np.clip(photo * light + noise, 0, 255).astype(np.uint8)
    where = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64),
                                     tilt).reshape(-1, 2)
    return photo, barrel(where)


@pytest.mark.parametrize(("style", "k1"), [
    (RenderStyle(hex_size=HEX, ids=True, textured=True), -0.05),
    (RenderStyle(hex_size=HEX, grid_color="#f6f6f0", grid_width=0.05, palette=SATURATED,
                 ids=True, id_color="#f6f6f0"), -0.03),
])
@pytest.mark.slow
def test_a_phone_photo_of_the_sheet_is_fitted_through_its_lens(style, k1):
    rendered = render_map(_map("flat", 22, 15, seed=9), style)
    g = rendered.grid
    sheet_centres = np.array([g.center(h) for h in g.hexes()])
    photo, centres = _photograph(rendered.image, sheet_centres, k1)
    truth = {g.id(h): (float(x), float(y)) for h, (x, y) in zip(g.hexes(), centres,
                                                                  strict=True)}
    fit = calibrate(photo, spec=_spec(rendered))
    assert fit.lens is not None
    width = fit.hex_width  # the photo's hexes are smaller than the sheet's
    ids = sorted(truth)
    got = fit.centres([fit.grid.hex(i) for i in ids])
    want = np.array([truth[i] for i in ids])
    errors = np.hypot(*(got - want).T) / width
    assert errors.mean() <= 0.01 and errors.max() <= 0.03
    # No homography alone comes near: the best one through the true centres is off by
    # more than the bar.
    uv = hex_units([fit.grid.hex(i) for i in ids], Orientation.FLAT)
    plain = Projection(fit_homography(uv, want)).to_pixel(uv)
    assert (np.hypot(*(plain - want).T) / width).mean() > 0.01


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name", SAMPLES)
def test_the_render_benchs_sample_sheets_are_calibrated_as_printed(name, seed):
    rendered, scan = sample_sheet(name, seed).make()
    truth = truth_document(rendered, scan)
    g = rendered.grid
    fit = calibrate(scan.image, spec=HexGrid(g.orientation, g.numbering, g.cols, g.rows))
    ids = sorted(truth["centers_px"])
    assert len(fit.grid.hexes()) == len(ids) and all(fit.grid.has_id(i) for i in ids)
    got = fit.centres([fit.grid.hex(i) for i in ids])
    errors = np.hypot(*(got - np.array([truth["centers_px"][i] for i in ids])).T) / (
        float(truth["hex_size_px"]) * math.sqrt(3))
    assert errors.mean() <= 0.01, f"{name} {seed}: mean {errors.mean():.2%}"
    assert errors.max() <= 0.03, f"{name} {seed}: max {errors.max():.2%}"
