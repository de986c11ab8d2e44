"""Legend files: colour formats, features, and one clear line for every mistake."""

from __future__ import annotations

import json

import pytest

from pipeline.digitize import legend_from_data, legend_from_map, load_legend
from pipeline.errors import DataError

GOOD = {
    "kind": "legend",
    "paper": "#fffdf5",
    "ink": [20, 20, 20],
    "default_terrain": "clear",
    "terrain": {"clear": "#e9e4c3", "woods": ["#5b8a3c", [74, 122, 48]], "city": None,
                "marsh": "#8b5"},
    "features": {
        "river": {"kind": "along", "color": "#2e62b5"},
        "road": {"kind": "across", "color": [140, 28, 19]},
        "bridge": {"kind": "across", "color": "#333333", "shape": "mark"},
    },
}


def test_every_colour_format_is_read():
    legend = legend_from_data(GOOD, "legend.json")
    assert legend.terrain["clear"] == ((233, 228, 195),)
    assert legend.terrain["woods"] == ((91, 138, 60), (74, 122, 48))
    assert legend.terrain["marsh"] == ((136, 187, 85),)
    assert legend.terrain["city"] == ()
    assert legend.unsampled() == ["city"]
    assert legend.paper == (255, 253, 245) and legend.ink == (20, 20, 20)
    assert legend.features["road"].colours == ((140, 28, 19),)
    assert legend.features["bridge"].shape == "mark"
    assert legend.features["river"].kind == "along"
    assert legend.with_colours("city", ((181, 70, 60),)).unsampled() == []


@pytest.mark.parametrize(("change", "message"), [
    ({"terrain": {"woods": "green"}}, ("legend.json: terrain.woods: unknown colour format 'green'"
                                      r" \(write '#rrggbb' or \[r, g, b\] with 0-255 integers\)")),
    ({"terrain": {"woods": [91, 138]}}, r"terrain.woods: unknown colour format \[91, 138\]"),
    ({"terrain": {"woods": [91, 138, 300]}}, "terrain.woods: unknown colour format"),
    ({"terrain": {"woods": ["#5b8a3c", "#zzzzzz"]}}, r"terrain.woods\[1\]: unknown colour"),
    ({"terrain": {}}, "terrain: give at least one terrain"),
    ({"features": {"river": {"kind": "beside", "color": "#2e62b5"}}},
     "features.river.kind: kind must be 'along'"),
    ({"features": {"river": {"kind": "along"}}}, "features.river.color: a hexside feature needs"),
    ({"features": {"river": {"kind": "along", "colour": "#2e62b5"}}},
     "features.river.colour: unknown key 'colour' \\(did you mean 'color'\\?\\)"),
    ({"features": {"bridge": {"kind": "across", "color": "#333", "shape": "box"}}},
     "shape must be 'line' or 'mark'"),
    ({"terain": {}}, "unknown key 'terain' \\(did you mean 'terrain'\\?\\)"),
    ({"default_terrain": "cleer"}, "default_terrain: unknown terrain 'cleer'"),
    ({"kind": "map2"}, "kind: this is a 'map2' document"),
])
def test_mistakes_are_one_located_line(change, message):
    data = {k: v for k, v in GOOD.items() if k not in ("default_terrain",)} | change
    with pytest.raises(DataError, match=message) as info:
        legend_from_data(data, "legend.json")
    assert "\n" not in str(info.value)


def test_sampling_an_unknown_terrain_is_refused():
    legend = legend_from_data(GOOD, "legend.json")
    with pytest.raises(DataError, match=r"--sample names terrain 'wods'.*did you mean 'woods'"):
        legend.with_colours("wods", ((1, 2, 3),))


def test_a_map_document_is_a_legend(demo, tmp_path):
    legend = legend_from_map(demo)
    assert legend.terrain["woods"] == ((91, 138, 60),)
    assert legend.features["bridge"].shape == "mark" and legend.features["river"].shape == "line"
    path = tmp_path / "map.json"
    path.write_text(json.dumps(demo.model_dump(mode="json", exclude_none=True)))
    assert load_legend(path).terrain == legend.terrain


def test_unreadable_legend_files_are_data_errors(tmp_path):
    with pytest.raises(DataError, match="no such file"):
        load_legend(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(DataError, match="invalid JSON"):
        load_legend(broken)


LINES = {
    "kind": "legend",
    "terrain": {"clear": "#e9e4c3"},
    "features": {
        "river": {"kind": "along", "color": "#2e62b5"},
        "bar": {"kind": "along", "color": "#3f6b2c"},
        "road": {"kind": "across", "color": "#efe8d1", "casing": "#504c46"},
        "railroad": {"kind": "across", "color": "#141414", "ticks": True},
        "bridge": {"kind": "across", "color": "#282828", "shape": "mark",
                   "example": ["0705", "0706"], "over": ["river"]},
    },
}


def test_how_lines_are_drawn_is_read():
    legend = legend_from_data(LINES, "legend.json")
    assert legend.features["railroad"].ticks and not legend.features["road"].ticks
    assert legend.features["road"].casing == ((80, 76, 70),)
    assert legend.features["bridge"].example == ("0705", "0706")
    assert legend.features["bridge"].over == ("river",)
    assert legend.features["river"].over == () and legend.features["river"].example is None
    # Colours picked off a scan may be under its light, unless the legend names its paper.
    assert not legend.as_printed
    assert legend_from_data(LINES | {"paper": "#fffdf5"}, "legend.json").as_printed


@pytest.mark.parametrize(("feature", "change", "message"), [
    ("railroad", {"ticks": "yes"}, "features.railroad.ticks: ticks is true or false, got 'yes'"),
    ("river", {"ticks": True}, "features.river.ticks: only a line across hexsides"),
    ("bridge", {"casing": "#000000"}, "features.bridge.casing: only a line across hexsides"),
    ("road", {"casing": "black"}, "features.road.casing: unknown colour format 'black'"),
    ("road", {"example": ["0101", "0102"]}, "features.road.example: only a mark"),
    ("bridge", {"example": "0705"}, "features.bridge.example: an example hexside is two hex"),
    ("bridge", {"over": ["rivr"]}, ("features.bridge.over: 'rivr' is not a feature along"
                                   " hexsides \\(did you mean 'river'\\?\\)")),
    ("bridge", {"over": ["road"]}, "features.bridge.over: 'road' is not a feature along"),
    ("river", {"over": ["bar"]}, "features.river.over: over lists the features"),
])
def test_mistakes_in_how_lines_are_drawn_are_one_located_line(feature, change, message):
    data = json.loads(json.dumps(LINES))
    data["features"][feature].update(change)
    with pytest.raises(DataError, match=message) as info:
        legend_from_data(data, "legend.json")
    assert str(info.value).startswith("legend.json: ") and "\n" not in str(info.value)
