"""The GIS outputs read back by real GIS readers: pyogrio (GDAL) for the layers, rasterio for
the scan's copy and its world file. The hexes must land on their hexes' pixels."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pyogrio  # a dependency (the GeoPackage's writer), read here as any GIS would
import pytest
import rasterio  # a dev dependency: the raster side of a GIS, reading the world file
import rasterio.features as features
import shapely
from click.testing import CliRunner

from pipeline.cli.digitize import digitize
from pipeline.digitize import world_file
from pipeline.model import MapData
from pipeline.render import (
    Rendered,
    RenderStyle,
    Scan,
    ScanOptions,
    printed_colours,
    render_map,
    simulate_scan,
)

from .conftest import DEMO_MAP

pytestmark = pytest.mark.slow

STYLE = RenderStyle(hex_size=48.0)  # flat fills: each hex's pixels show its terrain's colour


@dataclass(frozen=True)
class Written:
    """What ``bocage digitize --gis --geojson`` wrote for a rendered map, and the truth."""

    folder: Path
    scan: Path
    stdout: str
    data: MapData
    rendered: Rendered
    captured: Scan


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory, demo: MapData) -> Written:
    """The demo map drawn, then turned 2 degrees with a slight perspective, digitized."""
    rendered = render_map(demo, STYLE)
    captured = simulate_scan(rendered.image, ScanOptions(rotation=2.0, perspective=0.003))
    folder = tmp_path_factory.mktemp("gis")
    scan = folder / "input" / "scan.png"
    scan.parent.mkdir()
    cv2.imwrite(str(scan), cv2.cvtColor(captured.image, cv2.COLOR_RGB2BGR))
    out = folder / "out"
    result = CliRunner().invoke(digitize, [
        str(scan), "-l", str(DEMO_MAP), "-o", str(out / "map.json"),
        "--gis", str(out / "map.gpkg"), "--geojson", str(out / "map.geojson")])
    assert result.exit_code == 0, result.stderr
    return Written(out, scan, result.stdout, demo, rendered, captured)


def _layer(path: Path, layer: str | None = None) -> tuple[list[object], dict[str, np.ndarray]]:
    """Geometries and fields as pyogrio returns them."""
    meta, _, geometry, fields = pyogrio.raw.read(path, layer=layer)
    return list(shapely.from_wkb(geometry)), dict(zip(meta["fields"], fields, strict=True))


def test_the_layers_are_polygons_and_lines_with_no_crs(written: Written):
    gpkg = written.folder / "map.gpkg"
    assert pyogrio.list_layers(gpkg).tolist() == [["hexes", "Polygon"],
                                                  ["hexsides", "LineString"]]
    hexes = pyogrio.read_info(gpkg, layer="hexes")
    assert hexes["features"] == 550 and hexes["crs"] is None
    assert list(hexes["fields"]) == ["id", "terrain", "terrains", "fractions", "confidence",
                                     "probabilities", "provenance"]
    sides = pyogrio.read_info(gpkg, layer="hexsides")
    assert list(sides["fields"]) == ["feature", "kind", "hexes", "confidence", "provenance"]
    # The GeoJSON pair for scripts: one geometry type each, as GDAL reads them.
    assert pyogrio.read_info(written.folder / "map.geojson")["geometry_type"] == "Polygon"
    assert (pyogrio.read_info(written.folder / "map.hexsides.geojson")["geometry_type"]
            == "LineString")
    _, fields = _layer(gpkg, "hexsides")
    assert sorted(set(fields["feature"])) == ["bridge", "ditch", "minefield", "river", "road",
                                              "trail"]
    assert (fields["feature"] == "river").sum() == 27


def test_the_layers_say_what_map_json_says(written: Written):
    doc = json.loads((written.folder / "map.json").read_text())
    _, fields = _layer(written.folder / "map.gpkg", "hexes")
    for i, hex_id in enumerate(fields["id"]):
        entry = doc["hexes"][hex_id]
        assert fields["terrain"][i] == entry["terrain"][0]
        assert fields["terrains"][i].split(",") == entry["terrain"]
        assert json.loads(fields["fractions"][i]) == entry["fractions"]
        assert fields["confidence"][i] == pytest.approx(entry["confidence"])
        assert json.loads(fields["probabilities"][i]) == entry.get("probabilities", {})
        assert fields["provenance"][i] == "read"


def test_the_scan_copy_is_untouched_and_its_world_file_puts_it_in_the_frame(written: Written):
    copy = written.folder / "map.png"
    assert copy.read_bytes() == written.scan.read_bytes()  # a PNG stored upright: its bytes
    assert (written.folder / "map.pgw").read_text().split() == ["1", "0", "0", "-1", "0.5",
                                                                "-0.5"]
    with rasterio.open(copy) as raster:
        # The world file names the centre of the top-left pixel; rasterio gives its corner.
        assert tuple(raster.transform)[:6] == (1.0, 0.0, 0.0, 0.0, -1.0, 0.0)
        assert raster.crs is None
        assert (raster.height, raster.width) == cv2.imread(str(written.scan)).shape[:2]
    assert f"{written.folder / 'map.pgw'}" in written.stdout


def _pixels_under(polygons: list[object], transform: object, shape: tuple[int, int],
                  shift: tuple[float, float] = (0.0, 0.0)) -> list[np.ndarray]:
    """Which pixels each polygon covers, as GDAL's rasterizer decides through the raster's
    own transform (a pixel is covered when its centre is inside)."""
    out = []
    for polygon in polygons:
        moved = shapely.transform(polygon, lambda xy: xy + np.array(shift))
        out.append(features.rasterize([(moved, 1)], out_shape=shape, transform=transform,
                                      fill=0, dtype="uint8").astype(bool))
    return out


def _terrain_by_pixels(image: np.ndarray, masks: list[np.ndarray],
                       colours: dict[str, np.ndarray]) -> list[str]:
    """Each mask's terrain, by the median colour of the scan's pixels under it."""
    names = list(colours)
    table = np.array([colours[n] for n in names], float)
    out = []
    for mask in masks:
        median = np.median(image[mask].astype(float), axis=0)
        out.append(names[int(np.argmin(np.linalg.norm(table - median, axis=1)))])
    return out


def test_each_hex_polygon_lands_on_its_hexs_pixels(written: Written):
    polygons, fields = _layer(written.folder / "map.gpkg", "hexes")
    with rasterio.open(written.folder / "map.png") as raster:
        image = np.moveaxis(raster.read(), 0, -1)  # the pixels as the GIS reader has them
        transform, shape = raster.transform, (raster.height, raster.width)
    truth = written.data
    colours = {n: np.array(c[0], float) for n, c in printed_colours(truth, STYLE).items()}
    expected = [truth.terrain_of(i)[0] for i in fields["id"]]
    read = _terrain_by_pixels(image, _pixels_under(polygons, transform, shape), colours)
    right = np.mean([a == b for a, b in zip(read, expected, strict=True)])
    assert right >= 0.98, right
    # The check can fail: moved one hex north (+48 with y up), the polygons of hexes whose
    # north neighbour is of another terrain read that neighbour's terrain instead.
    grid = written.rendered.grid
    north = {i: grid.neighbour(grid.hex(i), "N") for i in fields["id"]}
    edge = [k for k, i in enumerate(fields["id"]) if grid.contains(north[i])
            and truth.terrain_of(grid.id(north[i]))[0] != expected[k]]
    assert len(edge) > 40
    moved = _terrain_by_pixels(image, _pixels_under([polygons[k] for k in edge], transform,
                                                    shape, (0.0, 48.0)), colours)
    neighbours = [truth.terrain_of(grid.id(north[fields["id"][k]]))[0] for k in edge]
    assert np.mean([a == b for a, b in zip(moved, neighbours, strict=True)]) >= 0.9
    assert np.mean([read[k] == expected[k] for k in edge]) >= 0.98


def test_hex_centres_are_within_a_fraction_of_a_pixel_of_the_true_ones(written: Written):
    polygons, fields = _layer(written.folder / "map.gpkg", "hexes")
    with rasterio.open(written.folder / "map.png") as raster:
        a, b, c, d, e, f = tuple(~raster.transform)[:6]
    # Through the raster's own transform back to (column, row), pixel corners on whole numbers.
    x, y = np.array([p.centroid.coords[0] for p in polygons]).T
    got = np.stack([a * x + b * y + c, d * x + e * y + f], axis=1)
    grid = written.rendered.grid
    centres = np.array([grid.center(grid.hex(i)) for i in fields["id"]])
    tx, ty = written.captured.to_scan(centres[:, 0], centres[:, 1])
    # The true centres in scan pixels, y down, pixel centres on whole numbers: +0.5.
    error = got - np.stack([tx + 0.5, ty + 0.5], axis=1)
    assert np.abs(error.mean(axis=0)).max() < 0.15, error.mean(axis=0)  # no half-pixel shift
    assert np.hypot(*error.T).max() < 0.25  # 0.06 px on this map


def test_river_lines_lie_on_the_printed_rivers(written: Written):
    lines, fields = _layer(written.folder / "map.gpkg", "hexsides")
    with rasterio.open(written.folder / "map.png") as raster:
        image = np.moveaxis(raster.read(), 0, -1)
        transform, shape = raster.transform, (raster.height, raster.width)
    colour = np.array(_feature_colour(written.data), float)
    near = []
    for line, name in zip(lines, fields["feature"], strict=True):
        if name != "river":
            continue
        middle = shapely.line_interpolate_point(line, [0.2, 0.3, 0.7, 0.8],  # a bridge: middle
                                                normalized=True)
        mask = features.rasterize([(p, 1) for p in shapely.buffer(middle, 1.5)],
                                  out_shape=shape, transform=transform, fill=0,
                                  dtype="uint8").astype(bool)
        near.append(float(np.median(np.linalg.norm(image[mask].astype(float) - colour,
                                                   axis=1))))
    assert len(near) == 27
    assert max(near) < 40, near


def _feature_colour(data: MapData) -> tuple[int, int, int]:
    colour = data.hexside_features["river"].color
    assert colour is not None
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def test_a_scan_a_gis_would_read_otherwise_is_copied_as_the_pixels_bocage_read(tmp_path):
    from PIL import Image

    from pipeline.digitize.gis import raster_copy
    from pipeline.digitize.scanfile import load_scan

    # A phone photo stored on its side with an EXIF turn: bocage reads it upright, GDAL not.
    pixels = np.zeros((30, 40, 3), np.uint8)
    pixels[:, :20] = (200, 30, 30)  # left half red, as stored
    exif = Image.Exif()
    exif[0x0112] = 6  # to be turned a quarter clockwise for viewing
    photo = tmp_path / "photo.jpg"
    Image.fromarray(pixels).save(photo, quality=95, exif=exif)
    seen = load_scan(photo)
    assert seen.shape == (40, 30, 3)  # upright: the decoder followed the tag
    copy = raster_copy(photo)
    assert (copy.suffix, copy.world_suffix, copy.verbatim) == (".png", ".pgw", False)
    (tmp_path / "copy.png").write_bytes(copy.data(photo, seen))
    (tmp_path / "copy.pgw").write_text(world_file())
    with rasterio.open(tmp_path / "copy.png") as raster:
        assert np.array_equal(np.moveaxis(raster.read(), 0, -1), seen)
    # A TIFF (which may carry GeoTIFF tags of its own) is copied as a PNG too.
    tiff = tmp_path / "scan.tif"
    Image.fromarray(pixels).save(tiff)
    assert raster_copy(tiff) == type(copy)(".png", ".pgw", False)
    # An upright JPEG is its own bytes.
    plain = tmp_path / "plain.jpg"
    Image.fromarray(pixels).save(plain)
    assert raster_copy(plain).verbatim and raster_copy(plain).suffix == ".jpg"
    assert raster_copy(plain).data(plain, load_scan(plain)) == plain.read_bytes()
