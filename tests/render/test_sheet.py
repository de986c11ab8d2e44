"""The sheet around the field: key swatches at map scale, title, turn track, edge-to-edge frame."""

from __future__ import annotations

import math
from collections import Counter

import cv2
import numpy as np
import pytest

from pipeline.model import map_from_data
from pipeline.render import RenderStyle, parse_hex_colour, render_map, sample_map
from pipeline.render.sheet import Sheet
from pipeline.render.styles import style_for

HEX = 40.0


@pytest.fixture(scope="module")
def keybox():  # type: ignore[no-untyped-def]
    data = sample_map("flat", 14, 10, seed=3, towns=4)
    style = style_for("keybox", data, hex_size=HEX, seed=3)
    return data, style, render_map(data, style)


def boxes_overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_panels_sit_beside_and_below_the_field_inside_the_image(keybox):
    _data, _style, picture = keybox
    height, width = picture.image.shape[:2]
    assert set(picture.panels) == {"title", "key", "effects", "track"}
    corners = np.array([c for h in picture.grid.hexes() for c in picture.grid.corners(h)])
    field = (corners[:, 0].min(), corners[:, 1].min(), np.ptp(corners[:, 0]), np.ptp(corners[:, 1]))
    for name, box in picture.panels.items():
        x, y, w, h = box
        assert -0.5 <= x and x + w <= width and -0.5 <= y and y + h <= height, name
        assert not boxes_overlap(box, field), name
    for a in picture.panels:
        for b in picture.panels:
            if a < b:
                assert not boxes_overlap(picture.panels[a], picture.panels[b]), (a, b)


def test_key_swatches_are_hexes_at_map_scale_painted_like_the_map(keybox):
    data, _style, picture = keybox
    grid = picture.grid
    assert set(picture.key) == set(data.terrain_types)
    x0, y0, x1, y1 = (np.array(grid.corners(grid.hexes()[0])).min(axis=0).tolist()
                      + np.array(grid.corners(grid.hexes()[0])).max(axis=0).tolist())
    for name, (x, y, w, h) in picture.key.items():
        assert w == pytest.approx(x1 - x0, abs=1e-6) and h == pytest.approx(y1 - y0, abs=1e-6)
        centre = (x + w / 2, y + h / 2)
        swatch = patch(picture.image, centre, 0.38 * HEX)
        mains = [hx for hx in grid.hexes() if picture.terrain[hx] == (name,)]
        if not mains:
            continue
        on_map = np.concatenate([patch(picture.image, grid.center(hx), 0.38 * HEX)
                                 for hx in mains])
        # Same fill colour most of the time, and about as much texture ink.
        assert mode(swatch) == mode(on_map), name
        fill = np.array(mode(on_map))
        share = (np.abs(swatch - fill).max(axis=1) <= 3).mean()
        share_map = (np.abs(on_map - fill).max(axis=1) <= 3).mean()
        assert share == pytest.approx(share_map, abs=0.25), name
    # Its name is printed beside each swatch.
    key_labels = {lab.text for lab in picture.labels if lab.kind == "key"}
    assert {n.capitalize() for n in data.terrain_types} <= key_labels


def patch(image: np.ndarray, centre: tuple[float, float], radius: float) -> np.ndarray:
    x, y, r = round(centre[0]), round(centre[1]), round(radius)
    ys, xs = np.mgrid[-r: r + 1, -r: r + 1]
    return image[y - r: y + r + 1, x - r: x + r + 1][np.hypot(xs, ys) <= r].astype(int)


def mode(pixels: np.ndarray) -> tuple[int, ...]:
    colour, _ = Counter(map(tuple, pixels.tolist())).most_common(1)[0]
    return tuple(colour)


def test_the_turn_track_is_a_grid_of_square_boxes(keybox):
    _data, style, picture = keybox
    x, y, w, h = picture.panels["track"]
    crop = picture.image[round(y): round(y + h) + 1, round(x) - 2: round(x + w) + 3]
    dark = (crop.max(axis=2) < 160).astype(np.uint8)
    contours, hierarchy = cv2.findContours(dark, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    squares = []
    for c, rel in zip(contours, hierarchy[0], strict=True):
        bx, by, bw, bh = cv2.boundingRect(c)
        if rel[3] >= 0 and abs(bw - bh) <= 2 and bw > 0.9 * HEX:  # a hole: a box's inside
            squares.append((bx, by, bw))
    assert len(squares) == style.sheet.track == 20
    sides = [s for _, _, s in squares]
    assert max(sides) - min(sides) <= 2


def test_edge_to_edge_has_no_margin_a_dark_frame_and_partial_hexes_past_the_outline():
    data = sample_map("flat", 12, 9, seed=2)
    style = RenderStyle(hex_size=HEX, ids=True, sheet=Sheet(frame=10, edge_to_edge=True))
    picture = render_map(data, style)
    image = picture.image
    frame = np.array(parse_hex_colour(style.sheet.frame_color))
    height, width = image.shape[:2]
    border = np.concatenate([image[:10].reshape(-1, 3), image[-10:].reshape(-1, 3),
                             image[:, :10].reshape(-1, 3), image[:, -10:].reshape(-1, 3)])
    assert (np.abs(border.astype(int) - frame).max(axis=1) <= 2).all()  # the frame, all round
    inner = np.concatenate([image[10], image[-11], image[:, 10], image[:, -11]]).astype(int)
    paper = np.array(parse_hex_colour(style.paper))
    assert not (np.abs(inner - paper).max(axis=1) <= 4).any()  # no paper margin anywhere
    # Beyond the outline, the lattice goes on: its partial hexes show the default terrain.
    grid = picture.grid
    clear = np.array(parse_hex_colour(data.terrain_types["clear"].color or ""))
    off_map = 0
    for yy in range(12, height - 12, 7):
        for xx in (12, width - 13):
            h = grid.hex_at(float(xx), float(yy))
            if not grid.contains(h) and (np.abs(image[yy, xx].astype(int) - clear).max() <= 2):
                off_map += 1
    assert off_map > 10
    # Every hex is numbered and its centre printed; the outer ones are cut.
    assert all(picture.visible[h] > 0.75 for h in grid.hexes())
    assert sum(picture.visible[h] < 0.99 for h in grid.hexes()) > 20


def test_a_sheet_changes_nothing_of_the_map_itself():
    raw = sample_map("flat", 8, 6, seed=1).model_dump(mode="json", exclude_none=True,
                                                      by_alias=True)
    raw["hexsides"] = []  # the sheet may shift the map by a fraction of a pixel: no lines
    data = map_from_data(raw, "<terrain only>")
    plain = render_map(data, RenderStyle(hex_size=HEX))
    sheet = render_map(data, RenderStyle(hex_size=HEX, sheet=Sheet(title="A title", key=True,
                                                                   track=8)))
    for h in plain.grid.hexes():
        a = plain.image[round(plain.grid.center(h)[1]), round(plain.grid.center(h)[0])]
        b = sheet.image[round(sheet.grid.center(h)[1]), round(sheet.grid.center(h)[0])]
        assert np.array_equal(a, b)
        assert math.isclose(plain.grid.center(h)[0] - sheet.grid.center(h)[0],
                            plain.grid.center(plain.grid.hexes()[0])[0]
                            - sheet.grid.center(sheet.grid.hexes()[0])[0])
    assert plain.shares == sheet.shares


def test_bad_sheets_are_refused():
    with pytest.raises(ValueError, match="cut must lie inside the outer hexes"):
        Sheet(edge_to_edge=True, cut=0.6)
    with pytest.raises(ValueError, match="must not be negative"):
        Sheet(track=-1)
