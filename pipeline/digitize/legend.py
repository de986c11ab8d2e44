"""The legend: which colours on the scan mean which terrain and hexside feature.

A legend file is JSON::

    {
      "kind": "legend",
      "paper": "#ffffff",
      "ink": "#1e1e1e",
      "default_terrain": "clear",
      "terrain": {
        "clear": "#e9e4c3",
        "woods": ["#5b8a3c", [74, 122, 48]],
        "city": null
      },
      "features": {
        "river": {"kind": "along", "color": "#2e62b5"},
        "road": {"kind": "across", "color": "#8c1c13"},
        "bridge": {"kind": "across", "color": "#333333", "shape": "mark"}
      }
    }

A colour is ``"#rrggbb"`` (or ``"#rgb"``) or ``[r, g, b]`` with 0-255
integers; a terrain may list several (a printed fill and its symbols). A
terrain with ``null`` needs a sample from the scan (``--sample city=0608``).
``paper`` is the colour of blank paper *as the reference colours were taken*
(white if they are the printer's colours); ``ink`` is the grid's colour.
Feature ``shape`` is ``"line"`` (the default: a river, a bar, a road) or
``"mark"`` (a symbol on the middle of the hexside, like a bridge). A line
across hexsides may say how it is drawn besides its colour: ``"ticks": true``
for a railroad's cross ties (which tell it from a road of the same colour),
``"casing": "#333333"`` for the dark edges of a road printed light. A mark
may name a hexside that shows one, ``"example": ["0705", "0706"]``, to learn
its shape from (else it is learned from the map), and the lines along
hexsides it spans, ``"over": ["river"]`` (all of them by default).

A map document (``kind: "map"``) is a legend too: its terrain and hexside
feature colours are used as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from pipeline.errors import DataError, did_you_mean
from pipeline.model import MapData, map_from_data, read_json

__all__ = [
    "RGB",
    "FeatureKey",
    "Legend",
    "legend_document",
    "legend_from_data",
    "legend_from_map",
    "load_legend",
    "parse_colour",
]

RGB = tuple[int, int, int]
Kind = Literal["along", "across"]
Shape = Literal["line", "mark"]

_TOP_KEYS = ("kind", "paper", "ink", "default_terrain", "terrain", "features", "note")
_FEATURE_KEYS = ("kind", "color", "colors", "shape", "ticks", "casing", "example", "over",
                 "note")


@dataclass(frozen=True)
class FeatureKey:
    """One hexside feature of the legend.

    ``ticks`` says the line has cross ties (a railroad); ``casing`` gives the
    colours of the edges of a line printed with them (a white road edged in
    black); ``example`` names a hexside (two hex ids) showing a mark, and
    ``over`` the features along hexsides a mark spans (empty for all).
    """

    kind: Kind
    colours: tuple[RGB, ...]
    shape: Shape = "line"
    ticks: bool = False
    casing: tuple[RGB, ...] = ()
    example: tuple[str, str] | None = None
    over: tuple[str, ...] = ()


@dataclass(frozen=True)
class Legend:
    """Terrain and feature colours, with the paper and ink they were taken against.

    Attributes
    ----------
    terrain
        Terrain name -> reference colours (empty until sampled, for ``null``).
    features
        Feature name -> its kind, colours and shape.
    paper, ink
        Blank paper and grid line colours.
    default_terrain
        The terrain a map leaves unlisted; the most common one when ``None``.
    source
        The file it came from, for messages.
    as_printed
        Whether the colours are known to be as printed on ``paper`` (a map
        document's, or a legend file that names its paper) rather than
        possibly picked off the scan under its own light.
    """

    terrain: Mapping[str, tuple[RGB, ...]]
    features: Mapping[str, FeatureKey] = field(default_factory=dict)
    paper: RGB = (255, 255, 255)
    ink: RGB = (30, 30, 30)
    default_terrain: str | None = None
    source: str | None = None
    as_printed: bool = True

    def unsampled(self) -> list[str]:
        """Terrain names that still have no colour."""
        return [n for n, c in self.terrain.items() if not c]

    def with_colours(self, name: str, colours: tuple[RGB, ...]) -> Legend:
        """A copy in which terrain ``name`` has ``colours`` (sampled ones replace ``null``)."""
        if name not in self.terrain:
            raise DataError(self.source, f"terrain.{name}", f"--sample names terrain '{name}',"
                            f" which the legend does not have{did_you_mean(name, self.terrain)}")
        return replace(self, terrain={**self.terrain, name: colours})


def parse_colour(value: Any, file: str | None, where: str) -> RGB:
    """A colour from ``"#rrggbb"``, ``"#rgb"`` or ``[r, g, b]``; anything else is a DataError.

    >>> parse_colour("#5b8a3c", None, "x"), parse_colour([1, 2, 3], None, "x")
    ((91, 138, 60), (1, 2, 3))
    >>> parse_colour("green", "l.json", "terrain.woods")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pipeline.errors.DataError: l.json: terrain.woods: unknown colour format 'green' (write ...)
    """
    if isinstance(value, str) and value.startswith("#") and len(value) in (4, 7):
        digits = value[1:]
        if len(digits) == 3:
            digits = "".join(ch * 2 for ch in digits)
        try:
            return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)
        except ValueError:
            pass
    if (isinstance(value, list) and len(value) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255
                    for v in value)):
        return int(value[0]), int(value[1]), int(value[2])
    shown = repr(value) if not isinstance(value, str) else f"'{value}'"
    raise DataError(file, where, f"unknown colour format {shown} (write '#rrggbb' or"
                    " [r, g, b] with 0-255 integers)")


def _colours(value: Any, file: str | None, where: str) -> tuple[RGB, ...]:
    """One colour, or a list of them; ``None`` is no colour yet."""
    if value is None:
        return ()
    if isinstance(value, list) and value and all(isinstance(v, (str, list)) for v in value):
        return tuple(parse_colour(v, file, f"{where}[{i}]") for i, v in enumerate(value))
    return (parse_colour(value, file, where),)


def legend_from_data(data: Any, file: str | Path | None = "<legend>") -> Legend:
    """Validate parsed legend JSON (or a map document) into a :class:`Legend`."""
    name = str(file) if file is not None else None
    if isinstance(data, dict) and data.get("kind") == "map":
        return legend_from_map(map_from_data(data, file), name)
    if not isinstance(data, dict):
        raise DataError(name, "", "a legend is a JSON object with \"terrain\" and \"features\"")
    for key in data:
        if key not in _TOP_KEYS:
            raise DataError(name, key, f"unknown key '{key}'{did_you_mean(key, _TOP_KEYS)}"
                            f" (a legend has: {', '.join(_TOP_KEYS)})")
    if data.get("kind", "legend") != "legend":
        raise DataError(name, "kind", f"this is a '{data['kind']}' document, expected a legend")
    terrain_data = data.get("terrain")
    if not isinstance(terrain_data, dict) or not terrain_data:
        raise DataError(name, "terrain", "give at least one terrain and its colour,"
                        ' e.g. "terrain": {"clear": "#e9e4c3"}')
    terrain = {str(k): _colours(v, name, f"terrain.{k}") for k, v in terrain_data.items()}
    features = _features(data.get("features", {}), name)
    default = data.get("default_terrain")
    if default is not None and default not in terrain:
        raise DataError(name, "default_terrain", f"unknown terrain '{default}'"
                        f"{did_you_mean(str(default), terrain)}")
    return Legend(
        terrain=terrain,
        features=features,
        paper=parse_colour(data["paper"], name, "paper") if "paper" in data else (255, 255, 255),
        ink=parse_colour(data["ink"], name, "ink") if "ink" in data else (30, 30, 30),
        default_terrain=default,
        source=name,
        as_printed="paper" in data,
    )


def _features(data: Any, file: str | None) -> dict[str, FeatureKey]:
    if not isinstance(data, dict):
        raise DataError(file, "features", "expected an object: feature name -> "
                        '{"kind": "along" or "across", "color": "#rrggbb"}')
    out = {}
    for name, spec in data.items():
        where = f"features.{name}"
        if not isinstance(spec, dict):
            raise DataError(file, where, 'expected {"kind": "along" or "across", "color": ...}')
        for key in spec:
            if key not in _FEATURE_KEYS:
                raise DataError(file, f"{where}.{key}", f"unknown key '{key}'"
                                f"{did_you_mean(key, _FEATURE_KEYS)}")
        kind = spec.get("kind")
        if kind not in ("along", "across"):
            raise DataError(file, f"{where}.kind", f"kind must be 'along' (river, bar) or"
                            f" 'across' (road, bridge), got {kind!r}")
        shape = spec.get("shape", "line")
        if shape not in ("line", "mark"):
            raise DataError(file, f"{where}.shape",
                            f"shape must be 'line' or 'mark', got {shape!r}")
        colours = _colours(spec.get("color", spec.get("colors")), file, f"{where}.color")
        if not colours:
            raise DataError(file, f"{where}.color", "a hexside feature needs a colour")
        ticks = spec.get("ticks", False)
        if not isinstance(ticks, bool):
            raise DataError(file, f"{where}.ticks", f"ticks is true or false, got {ticks!r}")
        casing = _colours(spec.get("casing"), file, f"{where}.casing")
        if (ticks or casing) and (kind != "across" or shape != "line"):
            raise DataError(file, f"{where}.{'ticks' if ticks else 'casing'}",
                            "only a line across hexsides (a road, a railroad) has ticks or a"
                            " casing")
        example = spec.get("example")
        if example is not None:
            if shape != "mark":
                raise DataError(file, f"{where}.example", "only a mark (shape \"mark\") takes"
                                " an example hexside")
            if not (isinstance(example, list) and len(example) == 2
                    and all(isinstance(h, str) and h for h in example)):
                raise DataError(file, f"{where}.example", "an example hexside is two hex ids,"
                                f' e.g. ["0705", "0706"], got {example!r}')
        over = spec.get("over", [])
        if not (isinstance(over, list) and all(isinstance(o, str) for o in over)) or (
                over and shape != "mark"):
            raise DataError(file, f"{where}.over", "over lists the features along hexsides a"
                            f' mark spans, e.g. ["river"], got {over!r}')
        out[str(name)] = FeatureKey(kind, colours, shape, ticks, casing,
                                    None if example is None else (example[0], example[1]),
                                    tuple(over))
    for name, key in out.items():
        for spanned in key.over:
            if spanned not in out or out[spanned].kind != "along":
                raise DataError(file, f"features.{name}.over", f"'{spanned}' is not a feature"
                                f" along hexsides{did_you_mean(spanned, out)}")
    return out


def legend_from_map(data: MapData, file: str | None = None,
                    marks: frozenset[str] = frozenset({"bridge"}),
                    colours: Mapping[str, tuple[RGB, ...]] | None = None) -> Legend:
    """A legend from a map's own terrain and feature colours.

    ``marks`` names the features printed as a mark on the hexside (bridges);
    features without a colour are left out. ``colours`` replaces terrain
    colours (a printed map's fills and symbol shades, say).
    """
    terrain: dict[str, tuple[RGB, ...]] = {
        n: ((_hex(t.color),) if t.color else ()) for n, t in data.terrain_types.items()}
    terrain.update(colours or {})
    features = {n: FeatureKey(f.kind, (_hex(f.color),), "mark" if n in marks else "line")
                for n, f in data.hexside_features.items() if f.color}
    return Legend(terrain=terrain, features=features, default_terrain=data.default_terrain,
                  source=file)


def _hex(text: str) -> RGB:
    return parse_colour(text, None, "")


def load_legend(path: str | Path) -> Legend:
    """Read a legend file (or a map.json used as one); problems are one DataError line."""
    return legend_from_data(read_json(path), path)


def legend_document(legend: Legend, note: str = "") -> dict[str, Any]:
    """A legend as the JSON a legend file holds (what :func:`legend_from_data` reads).

    >>> doc = legend_document(Legend({"clear": ((233, 228, 195),), "city": ()}))
    >>> doc["terrain"]
    {'clear': '#e9e4c3', 'city': None}
    >>> legend_from_data(doc).terrain["clear"]
    ((233, 228, 195),)
    """
    def colour(c: RGB) -> str:
        return "#{:02x}{:02x}{:02x}".format(*c)

    def colours(cs: tuple[RGB, ...]) -> str | list[str] | None:
        if not cs:
            return None
        return colour(cs[0]) if len(cs) == 1 else [colour(c) for c in cs]

    doc: dict[str, Any] = {"kind": "legend"}
    if note:
        doc["note"] = note
    doc["paper"] = colour(legend.paper)
    doc["ink"] = colour(legend.ink)
    if legend.default_terrain is not None:
        doc["default_terrain"] = legend.default_terrain
    doc["terrain"] = {n: colours(c) for n, c in legend.terrain.items()}
    features: dict[str, Any] = {}
    for name, f in legend.features.items():
        entry: dict[str, Any] = {"kind": f.kind, "color": colours(f.colours)}
        if f.shape != "line":
            entry["shape"] = f.shape
        features[name] = entry
    doc["features"] = features
    return doc
