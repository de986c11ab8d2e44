"""What a GIS lays over the scan: hexes and hexside features as two layers, in the scan's frame.

A map scan has no place on the Earth, so the layers are in the scan's own
frame, the one QGIS gives a picture with no georeferencing: **x = column,
y = -row**, one unit a pixel, the scan's top-left corner at ``(0, 0)`` and y up
(pixel ``(c, r)`` is the square ``[c, c+1] x [-r-1, -r]``). Opened beside the
scan, the layers lie on it with no georeferencing step.

* :func:`to_frame` takes bocage's scan pixels (OpenCV's: pixel ``(c, r)`` is
  the point ``(c, r)``, y down) into the frame.
* :func:`geojson` gives the two layers as GeoJSON FeatureCollections:
  ``hexes`` (a Polygon a hex: ``id``, ``terrain``, ``terrains``,
  ``fractions``, ``confidence``, ``probabilities``, ``provenance``) and ``hexsides`` (a
  LineString a feature on a hexside: ``feature``, ``kind``, ``hexes``,
  ``confidence``, ``provenance``). GeoJSON cannot name a frame that is not the
  Earth's (RFC 7946 fixes WGS 84), so a GIS labels them EPSG:4326; the
  numbers are the frame's all the same.
* :func:`geopackage` writes both layers into one GeoPackage through pyogrio
  (GDAL) with no coordinate reference system, which is what the frame is: a GIS
  then draws them and the scan in one plane without reprojecting either.
* :func:`world_file` is the six lines that put the scan in the same frame for
  any reader (rasterio, GDAL, ArcGIS; QGIS does so even without it), written
  beside a copy of the scan (:func:`raster_copy`): the input is never touched.

Rounding: coordinates to 1/100 px, like map.json's layout.
"""

from __future__ import annotations

import json
import tempfile
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.outputs import encode_png, hex_corners, hexside_line
from pipeline.errors import DataError
from pipeline.imagefile import exif_orientation, probe_image

if TYPE_CHECKING:
    from pipeline.digitize.run import Digitization

__all__ = [
    "FRAME",
    "LAYERS",
    "WORLD",
    "RasterCopy",
    "geojson",
    "geojson_text",
    "geopackage",
    "raster_copy",
    "to_frame",
    "world_file",
]

FRAME = ("scan pixels as a GIS shows a picture with no georeferencing: x = column,"
         " y = -row (y up), the scan's top-left corner at (0, 0)")
"""The frame of every GIS output, in words (written into the GeoJSON)."""

LAYERS = ("hexes", "hexsides")
"""The layers' names, in the order they are written."""

WORLD = (1.0, 0.0, 0.0, -1.0, 0.5, -0.5)
"""The world file's six numbers: pixel width, two rotations, pixel height (negative:
y up), and the frame's x and y of the top-left pixel's centre."""

_PLACES = 2  # decimals kept in coordinates: 1/100 px
_Kind = Literal["Polygon", "LineString"]
# Each layer's fields: name -> how GDAL stores it ("text" or "real").
_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "hexes": (("id", "text"), ("terrain", "text"), ("terrains", "text"),
              ("fractions", "text"), ("confidence", "real"), ("probabilities", "text"),
              ("provenance", "text")),
    "hexsides": (("feature", "text"), ("kind", "text"), ("hexes", "text"),
                 ("confidence", "real"), ("provenance", "text")),
}
_GEOMETRY: dict[str, _Kind] = {"hexes": "Polygon", "hexsides": "LineString"}


def to_frame(points: NDArray[np.float64]) -> NDArray[np.float64]:
    """Scan pixel positions ``(..., 2)`` (y down, pixel centres on whole numbers) in the frame.

    >>> to_frame(np.array([[0.0, 0.0], [99.0, 49.0]])).tolist()
    [[0.5, -0.5], [99.5, -49.5]]
    """
    out: NDArray[np.float64] = np.stack([points[..., 0] + 0.5, -(points[..., 1] + 0.5)], -1)
    return out


def _coords(points: NDArray[np.float64]) -> list[list[float]]:
    return [[round(float(x), _PLACES) + 0.0, round(float(y), _PLACES) + 0.0]
            for x, y in to_frame(points)]


def _counter_clockwise(corners: NDArray[np.float64]) -> NDArray[np.float64]:
    """A ring's scan pixels in the order that runs counter-clockwise in the frame (RFC 7946
    3.1.6: an outer ring is counter-clockwise; y up turns the scan's order round)."""
    x, y = to_frame(corners).T
    area = float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))
    return corners if area > 0 else corners[::-1]


def _collection(layer: str, scan: str | None, features: list[dict[str, Any]]
                ) -> dict[str, Any]:
    return {"type": "FeatureCollection", "name": layer,
            "bocage": {"layer": layer, "frame": FRAME, "scan": scan},
            "features": features}


def geojson(result: Digitization, source: str | None = None) -> dict[str, dict[str, Any]]:
    """The two layers of a digitization as GeoJSON FeatureCollections, in the frame.

    Parameters
    ----------
    result
        The digitization: the map document's hexes and hexsides (terrain,
        shares, confidence, provenance) placed by its fitted grid.
    source
        The scan's file name, recorded in each collection's ``bocage`` member.

    Returns
    -------
    dict
        ``{"hexes": ..., "hexsides": ...}``; every property is plain JSON
        (``terrains`` a list, ``fractions`` and ``probabilities`` objects: the latter the
        classifier's odds of each terrain, empty for a hex taken as an example).

    Examples
    --------
    On the reading of a scan (:func:`~pipeline.digitize.run.digitize_scan`; the tests run
    it on rendered maps, too slow for a doctest)::

        layers = geojson(result)
        layers["hexes"]["features"][0]["properties"]["terrain"]  # 'clear'
    """
    fit, doc = result.fit, result.map
    grid = fit.grid
    scan = Path(source).name if source else None
    hexes = grid.hexes()
    cells: list[dict[str, Any]] = []
    for h, corners in zip(hexes, hex_corners(fit, hexes), strict=True):
        entry = doc.hexes[grid.id(h)]
        ring = _coords(_counter_clockwise(corners))
        cells.append({"type": "Feature", "geometry": {"type": "Polygon",
                                                      "coordinates": [ring + ring[:1]]},
                      "properties": {"id": grid.id(h), "terrain": entry.terrain[0],
                                     "terrains": list(entry.terrain),
                                     "fractions": dict(entry.fractions or {}),
                                     "confidence": entry.confidence,
                                     "probabilities": dict(entry.probabilities or {}),
                                     "provenance": entry.provenance or "read"}})
    entries = {"/".join(e.key()): e for e in doc.hexsides}
    lines: list[dict[str, Any]] = []
    for side, names in sorted(result.hexsides.items()):
        name = grid.hexside_id(side)
        side_entry = entries[name]
        sure = side_entry.confidence or {}
        for n in names:
            kind = result.legend.features[n].kind
            lines.append({"type": "Feature", "geometry": {
                "type": "LineString", "coordinates": _coords(hexside_line(fit, side, kind))},
                "properties": {"feature": n, "kind": kind, "hexes": name,
                               "confidence": sure.get(n),
                               "provenance": side_entry.provenance or "read"}})
    return {"hexes": _collection("hexes", scan, cells),
            "hexsides": _collection("hexsides", scan, lines)}


def geojson_text(doc: Mapping[str, Any]) -> str:
    """Deterministic GeoJSON text of one layer.

    >>> geojson_text({"type": "FeatureCollection", "features": []})
    '{"features":[],"type":"FeatureCollection"}\\n'
    """
    return json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def _column(values: list[Any], kind: str) -> NDArray[Any]:
    if kind == "real":
        return np.array([np.nan if v is None else float(v) for v in values], np.float64)
    out = np.empty(len(values), object)
    for i, v in enumerate(values):
        if isinstance(v, list):
            out[i] = ",".join(v)
        elif isinstance(v, dict):
            out[i] = json.dumps(v, sort_keys=True, separators=(",", ":"))
        else:
            out[i] = v
    return out


def geopackage(layers: Mapping[str, Mapping[str, Any]]) -> bytes:
    """One GeoPackage holding the layers of :func:`geojson`, written by GDAL (pyogrio).

    Each layer keeps one geometry type (``hexes`` Polygon, ``hexsides``
    LineString) and has no coordinate reference system: the frame is the
    scan's. A list becomes comma-separated text and an object JSON text
    (``terrains`` ``"clear,village"``, ``fractions`` ``{"clear":0.9,...}``).

    Examples
    --------
    >>> ring = [[0.5, -0.5], [9.5, -0.5], [9.5, -9.5], [0.5, -0.5]]
    >>> cell = {"geometry": {"type": "Polygon", "coordinates": [ring]}, "properties": {
    ...     "id": "0101", "terrain": "clear", "terrains": ["clear"],
    ...     "fractions": {"clear": 1.0}, "confidence": 0.9, "probabilities": {"clear": 0.9},
    ...     "provenance": "read"}}
    >>> data = geopackage({"hexes": {"features": [cell]}, "hexsides": {"features": []}})
    >>> data[:16]
    b'SQLite format 3\\x00'
    """
    import pyogrio.raw  # GDAL takes a second or more to load: only this output needs it
    import shapely

    with tempfile.TemporaryDirectory(prefix="bocage-gpkg-") as folder:
        path = Path(folder) / "layers.gpkg"
        for layer in LAYERS:
            features = layers[layer]["features"]
            geometry = shapely.to_wkb([shapely.from_geojson(json.dumps(f["geometry"]))
                                       for f in features])
            fields = _FIELDS[layer]
            data = [_column([f["properties"][name] for f in features], kind)
                    for name, kind in fields]
            with warnings.catch_warnings():
                # No CRS is the point (the scan's frame); pyogrio warns of it.
                warnings.filterwarnings("ignore", message=".*crs.*not provided")
                pyogrio.raw.write(path, np.asarray(geometry, object), data,
                                  [name for name, _ in fields], layer=layer, driver="GPKG",
                                  geometry_type=_GEOMETRY[layer], crs=None, encoding="UTF-8")
        return path.read_bytes()


def world_file() -> str:
    """The world file that puts a picture in the frame (one number a line, as GDAL reads it).

    >>> world_file().split()
    ['1', '0', '0', '-1', '0.5', '-0.5']
    """
    return "".join(f"{v:g}\n" for v in WORLD)


@dataclass(frozen=True)
class RasterCopy:
    """The scan as a GIS is given it, beside the layers.

    Attributes
    ----------
    suffix, world_suffix
        The copy's file suffix and its world file's (``.jpg``/``.jgw``, ``.png``/``.pgw``).
    verbatim
        Whether the copy is the scan's own bytes (a PNG or JPEG stored upright,
        which every reader decodes to the pixels bocage read); otherwise it is
        a PNG of those pixels (a TIFF, a phone photo turned by its EXIF tag).
    """

    suffix: str
    world_suffix: str
    verbatim: bool

    def data(self, scan: str | Path, pixels: NDArray[np.uint8]) -> bytes:
        """The copy's bytes: the scan's file, or a PNG of ``pixels`` (what bocage read)."""
        if not self.verbatim:
            return encode_png(pixels, str(scan))
        try:
            return Path(scan).read_bytes()
        except OSError as exc:
            raise DataError(scan, "", f"cannot read ({exc.strerror or exc})") from None


def raster_copy(scan: str | Path) -> RasterCopy:
    """How to copy ``scan`` for a GIS (see :class:`RasterCopy`), from its header alone.

    >>> import io, tempfile, pathlib
    >>> from PIL import Image
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "scan.jpeg"
    >>> Image.new("RGB", (40, 30)).save(path)
    >>> raster_copy(path)
    RasterCopy(suffix='.jpg', world_suffix='.jgw', verbatim=True)
    """
    info = probe_image(scan)
    if info.format in ("PNG", "JPEG") and exif_orientation(scan) == 1:
        return (RasterCopy(".png", ".pgw", True) if info.format == "PNG"
                else RasterCopy(".jpg", ".jgw", True))
    return RasterCopy(".png", ".pgw", False)
