"""What a digitization writes: map.json through the model, GeoJSON, the overlay picture."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from pipeline.digitize import (
    digitize,
    digitize_scan,
    encode_png,
    geojson,
    geojson_text,
    legend_from_data,
    legend_from_map,
    overlay,
)
from pipeline.digitize.gridfile import grid_from_spec
from pipeline.digitize.outputs import build_map
from pipeline.errors import DataError
from pipeline.model import MapData, dumps, map_from_data

from .conftest import RoundTrip

# Each test reads what the digitizer made of the demo scan (seconds to make, once a run).
pytestmark = pytest.mark.slow


def test_map_json_is_a_valid_deterministic_map(demo_scanned: RoundTrip):
    doc = demo_scanned.result.map
    text = dumps(doc)
    assert dumps(map_from_data(json.loads(text))) == text  # loads back to the same bytes
    again = build_map(demo_scanned.result.fit, demo_scanned.result.terrain,
                      demo_scanned.result.hexsides, demo_scanned.result.legend,
                      confidence=demo_scanned.result.hexside_confidence)
    assert dumps(again) == text
    assert doc.illustrative is False and doc.default_terrain == "clear"
    grid = doc.boards[0].grid
    assert (grid.orientation, grid.cols, grid.rows) == ("flat", 25, 22)
    assert grid.numbering.stagger == "even-down"
    assert grid.layout is not None and grid.layout.rotation == pytest.approx(1.5, abs=0.3)
    entry = doc.hexes["2417"]
    assert entry.terrain == ["rough"] and entry.confidence is not None
    assert entry.fractions is not None and sum(entry.fractions.values()) == pytest.approx(1, 0.02)
    # The classifier's odds of each terrain being the main one: the main terrain's is the
    # confidence, none above it, and those listed (1% or more) add up to at most 1. The
    # hexes the legend's colours named surely were its examples, read as they say: no odds.
    odds = {h: e for h, e in doc.hexes.items() if e.probabilities}
    assert 0 < len(odds) < len(doc.hexes)
    for e in odds.values():
        assert e.probabilities is not None and e.probabilities[e.terrain[0]] == e.confidence
        assert max(e.probabilities.values()) == e.confidence
        assert sum(e.probabilities.values()) <= 1 + 0.0005 * len(e.probabilities)  # rounded
    sides = {tuple(sorted(s.hexes or ())): s.features for s in doc.hexsides}
    assert sides[("1806", "1807")] == ["bridge", "river", "road"]
    edge = [s for s in doc.hexsides if s.hex is not None]
    assert any(s.hex == "0121" and s.direction == "SW" and s.features == ["road"] for s in edge)


def test_map_json_keeps_the_fitted_affine_grid(demo_scanned: RoundTrip):
    fit = demo_scanned.result.fit
    spec = demo_scanned.result.map.boards[0].grid
    assert spec.layout is not None and spec.layout.affine is not None
    kept = grid_from_spec(spec)
    hexes = kept.hexes()
    fitted = np.array([fit.grid.center(h) for h in hexes])
    assert np.abs(np.array([kept.center(h) for h in hexes]) - fitted).max() < 0.01
    # Without its shear the grid is a pixel out at the far corner of this scan.
    assert kept.layout is not None
    upright = replace(kept, layout=replace(kept.layout, affine=None))
    assert np.abs(np.array([upright.center(h) for h in hexes]) - fitted).max() > 0.5


def test_geojson_is_two_layers_in_the_frame_a_gis_shows_the_scan_in(demo_scanned: RoundTrip):
    result = demo_scanned.result
    layers = geojson(result, "scan.png")
    assert sorted(layers) == ["hexes", "hexsides"]
    hexes, lines = layers["hexes"]["features"], layers["hexsides"]["features"]
    assert len(hexes) == 550 and {f["geometry"]["type"] for f in hexes} == {"Polygon"}
    assert len(lines) == sum(len(names) for names in result.hexsides.values())
    assert {f["geometry"]["type"] for f in lines} == {"LineString"}
    ring = np.array(hexes[0]["geometry"]["coordinates"][0])
    assert len(ring) == 7 and (ring[0] == ring[-1]).all()
    # x = column, y = -row, pixel (c, r) the square [c, c+1] x [-r-1, -r]: a pixel centre
    # (c, r) of the scan is (c + 0.5, -r - 0.5).
    props = hexes[0]["properties"]
    fit_centre = result.fit.centres([result.fit.grid.hex(props["id"])])[0]
    assert ring[:-1].mean(axis=0) == pytest.approx([fit_centre[0] + 0.5, -fit_centre[1] - 0.5],
                                                   abs=0.05)
    # An outer ring runs counter-clockwise (RFC 7946 3.1.6): positive area with y up.
    x, y = ring[:-1].T
    assert np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y) > 0
    entry = result.map.hexes[props["id"]]
    assert props == {"id": props["id"], "terrain": entry.terrain[0], "terrains": entry.terrain,
                     "fractions": entry.fractions, "confidence": entry.confidence,
                     "probabilities": entry.probabilities or {}, "provenance": "read"}
    river = next(f for f in lines if f["properties"]["feature"] == "river")
    assert river["properties"]["kind"] == "along" and "/" in river["properties"]["hexes"]
    bridge = next(f for f in lines if f["properties"]["hexes"] == "1806/1807"
                  and f["properties"]["feature"] == "road")
    a, b = (result.fit.centres([result.fit.grid.hex(i)])[0] for i in ("1806", "1807"))
    expected = np.array([[a[0] + 0.5, -a[1] - 0.5], [b[0] + 0.5, -b[1] - 0.5]])
    assert np.abs(np.array(bridge["geometry"]["coordinates"]) - expected).max() < 0.01
    text = geojson_text(layers["hexes"])
    assert json.loads(text)["bocage"]["frame"].startswith("scan pixels as a GIS shows")
    assert text == geojson_text(geojson(result, "scan.png")["hexes"])


def test_overlay_tints_hexes_and_circles_the_unsure(demo_scanned: RoundTrip):
    result = demo_scanned.result
    image = demo_scanned.scan.image
    picture = overlay(image, result.fit, result.terrain, result.hexsides, result.legend)
    assert picture.shape == image.shape and picture.dtype == np.uint8
    grid = result.fit.grid
    x, y = result.fit.centres([grid.hex("2412")])[0]  # sea
    sea = np.array([0x5e, 0x8f, 0xc4])
    assert np.abs(picture[round(y), round(x)].astype(int) - sea).max() < 60
    # Make one hex unsure: a magenta ring goes round it.
    h = grid.hex("1212")
    unsure = dict(result.terrain)
    unsure[h] = type(unsure[h])(unsure[h].terrain, unsure[h].fractions, 0.1, unsure[h].colour)
    ringed = overlay(image, result.fit, unsure, result.hexsides, result.legend)
    cx, cy = result.fit.centres([h])[0]
    r = 0.3 * result.fit.hex_width
    ring = ringed[round(cy) - round(r) - 2: round(cy) + round(r) + 3,
                  round(cx) - round(r) - 2: round(cx) + round(r) + 3].astype(int)
    assert ((ring[..., 0] > 180) & (ring[..., 1] < 80) & (ring[..., 2] > 150)).sum() > 20
    png = encode_png(picture)
    assert png.startswith(b"\x89PNG")


def test_digitize_returns_the_map(demo: MapData, demo_scanned: RoundTrip):
    legend = legend_from_map(demo)
    doc = digitize(demo_scanned.scan.image, legend, None, game="omaha", title="test")
    assert doc.game == "omaha" and doc.title == "test"
    assert doc.terrain_of("1718") == ["city"]


def test_terrain_sampled_from_the_scan(demo: MapData, demo_scanned: RoundTrip):
    data = {"terrain": {n: t.color for n, t in demo.terrain_types.items()},
            "features": {n: {"kind": f.kind, "color": f.color}
                         for n, f in demo.hexside_features.items()}}
    data["terrain"]["woods"] = None
    legend = legend_from_data(data, "legend.json")
    with pytest.raises(DataError, match="legend.json: terrain.woods: no colour and no example:"
                                        r" give its colour in the legend, or show it \(--sample"
                                        " woods=HEX"):
        digitize_scan(demo_scanned.scan.image, legend)
    result = digitize_scan(demo_scanned.scan.image, legend, samples={"woods": ["1403"]})
    sampled = np.array(result.legend.terrain["woods"][0])
    assert np.abs(sampled - [0x5b, 0x8a, 0x3c]).max() < 12
    assert result.map.terrain_of("1504") == ["woods"]
    with pytest.raises(DataError, match="--sample: hex '9999' is not on the map"):
        digitize_scan(demo_scanned.scan.image, legend, samples={"woods": ["9999"]})


def test_progress_is_told_every_stage_in_order(demo: MapData, demo_scanned: RoundTrip):
    from pipeline.digitize import STAGES

    told: list[str] = []
    digitize_scan(demo_scanned.scan.image, legend_from_map(demo), progress=told.append)
    assert told == list(STAGES)


def test_map_json_says_how_sure_each_hexside_feature_is(demo_scanned: RoundTrip):
    doc = demo_scanned.result.map
    assert doc.hexsides
    for side in doc.hexsides:
        assert side.confidence is not None and set(side.confidence) == set(side.features)
        assert all(0.0 <= v <= 1.0 for v in side.confidence.values())
    assert demo_scanned.result.hexside_confidence
    assert not doc.hex_features and demo_scanned.result.hex_features == {}
