"""Write the README's picture of the GIS layers over the scan (docs/demo-gis.jpg).

The demo scan is digitized with ``--gis``; then everything drawn comes from GIS
readers, not from bocage: the scan's copy and its world file through rasterio
(pixels and transform), the GeoPackage's two layers through pyogrio (GDAL). Each
vertex goes through the raster's own inverse transform to a pixel, as a GIS
draws a layer over a raster, and Pillow paints it.

    .venv/bin/python tools/gis_picture.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyogrio
import rasterio
import shapely
from click.testing import CliRunner
from PIL import Image, ImageDraw

from pipeline.cli.digitize import digitize

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "maps" / "demo"
OUT = ROOT / "docs" / "demo-gis.jpg"
BOX = (520, 180, 1180, 700)  # the part shown, in scan pixels: the river, its bridge, the town
GREY = (128, 128, 128)
FEATURE_WIDTH = {"river": 5, "road": 4, "trail": 3, "ditch": 4, "minefield": 4, "bridge": 7}


def _colour(text: str) -> tuple[int, int, int]:
    return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))


def _pixels(transform: rasterio.Affine, coords: np.ndarray) -> list[tuple[float, float]]:
    """Frame coordinates to the raster's pixels, through the reader's transform."""
    a, b, c, d, e, f = tuple(~transform)[:6]
    x, y = coords[:, 0], coords[:, 1]
    cols, rows = a * x + b * y + c - BOX[0], d * x + e * y + f - BOX[1]
    return list(zip(cols.tolist(), rows.tolist(), strict=True))


def picture(folder: Path) -> Image.Image:
    """The layers read back by pyogrio over the scan read back by rasterio."""
    doc = json.loads((DEMO / "map.json").read_text())
    terrain = {n: _colour(t["color"]) for n, t in doc["terrain_types"].items() if "color" in t}
    feature = {n: _colour(f["color"]) for n, f in doc["hexside_features"].items()}
    with rasterio.open(folder / "map.jpg") as raster:
        pixels = np.moveaxis(raster.read(), 0, -1)
        transform = raster.transform
    scan = Image.fromarray(pixels).crop(BOX).convert("RGBA")
    layer = Image.new("RGBA", scan.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    meta, _, geometry, fields = pyogrio.raw.read(folder / "map.gpkg", layer="hexes")
    hexes = dict(zip(meta["fields"], fields, strict=True))
    for polygon, name in zip(shapely.from_wkb(geometry), hexes["terrain"], strict=True):
        # The default terrain unfilled, so the scan shows through; the outline in magenta,
        # a colour the map does not print, so it is the layer's and not the scan's.
        ring = _pixels(transform, np.asarray(polygon.exterior.coords))
        plain = name == doc.get("default_terrain", "clear")
        fill = None if plain else (*terrain.get(name, GREY), 90)
        draw.polygon(ring, fill=fill, outline=(230, 0, 200, 255), width=2)
    meta, _, geometry, fields = pyogrio.raw.read(folder / "map.gpkg", layer="hexsides")
    sides = dict(zip(meta["fields"], fields, strict=True))
    for line, name in zip(shapely.from_wkb(geometry), sides["feature"], strict=True):
        draw.line(_pixels(transform, np.asarray(line.coords)), fill=(*feature[name], 255),
                  width=FEATURE_WIDTH.get(name, 4))
    return Image.alpha_composite(scan, layer).convert("RGB")


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        result = CliRunner().invoke(digitize, [
            str(DEMO / "scan.jpg"), "-l", str(DEMO / "map.json"), "--grid", str(DEMO / "map.json"),
            "-o", str(folder / "map.json"), "--gis", str(folder / "map.gpkg"), "--quiet"])
        if result.exit_code != 0:
            sys.stderr.write(result.stderr)
            return result.exit_code
        picture(folder).save(OUT, quality=85, optimize=True)
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
