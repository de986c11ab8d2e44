"""Terrain looks, checked by pixels where the truth says: icons, realms, waves, stipple dots."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from pipeline.model import MapData, map_from_data
from pipeline.render import RenderStyle, parse_hex_colour, render_map, sample_map
from pipeline.render.icons import ICON_REACH
from pipeline.render.regions import REGION_COLOURS
from pipeline.render.styles import style_for

HEX = 44.0
VOCABULARY = {"clear": "#ece6cc", "woods": "#6f9a4a", "forest": "#2f6b3a", "hills": "#b89a6a",
              "mountain": "#8a7a6a", "marsh": "#7fa99a", "sea": "#7fb0d8"}


def terrain_only(data: MapData) -> MapData:
    raw: dict[str, Any] = data.model_dump(mode="json", exclude_none=True, by_alias=True)
    raw["hexsides"] = []
    return map_from_data(raw, "<terrain only>")


def disc(image: np.ndarray, centre: tuple[float, float], radius: float) -> np.ndarray:
    """The pixels within ``radius`` of ``centre``."""
    x0, y0 = max(0, int(centre[0] - radius) - 1), max(0, int(centre[1] - radius) - 1)
    window = image[y0: int(centre[1] + radius) + 2, x0: int(centre[0] + radius) + 2]
    ys, xs = np.mgrid[y0: y0 + window.shape[0], x0: x0 + window.shape[1]]
    return window[np.hypot(xs - centre[0], ys - centre[1]) <= radius]


def window(image: np.ndarray, centre: tuple[float, float], half: int) -> np.ndarray:
    x, y = round(centre[0]), round(centre[1])
    return image[y - half: y + half + 1, x - half: x + half + 1]


def black(pixels: np.ndarray) -> np.ndarray:
    return pixels.max(axis=-1) < 90


@pytest.fixture(scope="module", params=[8, 11])
def icons(request):  # type: ignore[no-untyped-def]
    data = terrain_only(sample_map("pointy", 14, 10, seed=request.param, terrain=VOCABULARY))
    style = style_for("icons", data, hex_size=HEX, seed=request.param)
    return data, style, render_map(data, style)


def test_icon_ink_is_where_the_truth_puts_an_icon_and_nowhere_else(icons):
    _data, style, picture = icons
    grid = picture.grid
    labelled = [lab.box for lab in picture.labels]
    checked = Counter[str]()
    for h in grid.hexes():
        x, y = grid.center(h)
        if any(bx - 4 < x < bx + bw + 4 and by - 4 < y < by + bh + 4
               for bx, by, bw, bh in labelled):
            continue  # a realm name is printed across this hex
        name = picture.terrain[h][0]
        ink = black(disc(picture.image, (x, y), ICON_REACH * HEX)).mean()
        ring = disc(picture.image, (x, y), 0.47 * HEX)
        inner = disc(picture.image, (x, y), (ICON_REACH + 0.03) * HEX)
        outside = black(ring).sum() - black(inner).sum()  # icon ink never leaves its disc
        if style.looks[name] == "icon":
            assert ink > 0.01, (grid.id(h), name)
        else:
            assert ink == 0, (grid.id(h), name)
        assert outside == 0, grid.id(h)
        checked[style.looks[name]] += 1
    assert checked["icon"] > 25 and checked["region"] > 40 and checked["waves"] > 3


def test_each_terrain_has_its_own_icon(icons):
    _data, style, picture = icons
    grid = picture.grid
    half = round(ICON_REACH * HEX)
    ink: dict[str, list[np.ndarray]] = {}
    for h in grid.hexes():
        name = picture.terrain[h][0]
        if style.looks[name] == "icon":
            ink.setdefault(name, []).append(black(window(picture.image, grid.center(h), half)))
    mean = {n: np.mean(v, axis=0).ravel() for n, v in ink.items()}
    assert len(mean) >= 4
    for a in mean:
        for b in mean:
            if a < b:  # the average ink of two terrains' hexes hardly overlaps
                corr = np.corrcoef(mean[a], mean[b])[0, 1]
                assert corr < 0.5, (a, b, corr)


def test_realm_colours_ignore_terrain(icons):
    _data, style, picture = icons
    grid = picture.grid
    realm = {c: i for i, c in enumerate(REGION_COLOURS)}
    under: dict[str, set[int]] = {}
    for h in grid.hexes():
        name = picture.terrain[h][0]
        if style.looks[name] not in ("icon", "region"):
            continue
        pixels = disc(picture.image, grid.center(h), 0.42 * HEX)
        colour, _ = Counter(map(tuple, pixels.tolist())).most_common(1)[0]
        assert tuple(colour) in realm, grid.id(h)  # the ground is a realm's colour
        under.setdefault(name, set()).add(realm[tuple(colour)])
    # One terrain spans several realms, and one realm holds several terrains.
    assert max(len(v) for v in under.values()) >= 3
    holds = Counter(i for v in under.values() for i in v)
    assert max(holds.values()) >= 4


def test_sea_is_its_blue_with_darker_waves(icons):
    _data, _style, picture = icons
    grid = picture.grid
    sea = np.array(parse_hex_colour(VOCABULARY["sea"]))
    seas = [h for h in grid.hexes() if picture.terrain[h][0] == "sea"]
    assert seas
    for h in seas:
        pixels = disc(picture.image, grid.center(h), 0.42 * HEX).astype(int)
        flat = (np.abs(pixels - sea).max(axis=1) <= 2).mean()
        waves = (pixels.sum(axis=1) < sea.sum() * 0.8).mean()
        assert flat > 0.7 and waves > 0.01, grid.id(h)


@pytest.fixture(scope="module")
def stippled():  # type: ignore[no-untyped-def]
    data = terrain_only(sample_map("flat", 12, 9, seed=6))
    dotted = Counter(data.terrain_of(i)[0] for i in data.hex_ids() if data.terrain_of(i)[0]
                     != "clear").most_common(1)[0][0]
    style = RenderStyle(hex_size=HEX, looks={dotted: "stipple"}, stipple_ink=0.25, seed=6)
    return data, dotted, render_map(data, style)


def test_stipple_dots_cover_a_quarter_of_their_hexes_on_the_clear_colour(stippled):
    data, dotted, picture = stippled
    grid = picture.grid
    ink = np.array(parse_hex_colour(data.terrain_types[dotted].color or ""), float)
    ground = np.array(parse_hex_colour(data.terrain_types["clear"].color or ""), float)
    covers = []
    for h in grid.hexes():
        pixels = disc(picture.image, grid.center(h), 0.4 * HEX).astype(float)
        # Each pixel is a mix of the two colours: how much of it is dot.
        t = ((pixels - ground) @ (ink - ground)) / ((ink - ground) @ (ink - ground))
        if picture.terrain[h][0] == dotted and len(picture.terrain[h]) == 1:
            covers.append(float(np.clip(t, 0, 1).mean()))
            pure = (np.abs(pixels - ground).max(axis=1) <= 3).mean()
            assert pure > 0.35, grid.id(h)  # the clear colour shows between the dots
        elif picture.terrain[h][0] == "clear" and len(picture.terrain[h]) == 1:
            assert (t > 0.3).mean() == 0, grid.id(h)  # no dot strays into a clear hex
    assert len(covers) >= 5
    assert np.mean(covers) == pytest.approx(0.25, abs=0.02)
    assert min(covers) > 0.2 and max(covers) < 0.3


def test_an_unknown_look_is_refused():
    with pytest.raises(ValueError, match="look of 'woods' is 'plaid'"):
        RenderStyle(looks={"woods": "plaid"})
    with pytest.raises(ValueError, match="symbol of 'town'"):
        RenderStyle(symbols={"town": "blob"})


def test_printed_colours_name_what_each_look_prints(icons, stippled):
    from pipeline.render import printed_colours
    from pipeline.render.icons import INK

    data, style, _ = icons
    colours = printed_colours(data, style)
    assert colours["woods"][0] == INK and set(colours["woods"][1:]) <= set(REGION_COLOURS)
    assert set(colours["clear"]) <= set(REGION_COLOURS)
    assert colours["sea"][0] == parse_hex_colour(VOCABULARY["sea"]) and len(colours["sea"]) == 2
    data, dotted, _ = stippled
    dots = printed_colours(data, RenderStyle(looks={dotted: "stipple"}))[dotted]
    assert dots == (parse_hex_colour(data.terrain_types[dotted].color or ""),
                    parse_hex_colour(data.terrain_types["clear"].color or ""))
