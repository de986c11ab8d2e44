"""Named printed styles, and seeded sample sheets drawn in them.

The digitizer's own bench needs maps in the styles real wargame maps use, with
exact truth. :func:`style_for` dresses any map data in a named style (the same
data in every style); :func:`sample_sheet` gives a small seeded map, its style
and how it is captured (a flatbed scan or a phone photo), quick enough to make
in a test:

=========  ==========================================================================
style      what it prints
=========  ==========================================================================
fills      the renderer's original look: flat terrain colours
printed    fills with terrain symbols, a dashed grid, hex ids
icons      terrain only as thin black icons over political realm colours that ignore
           terrain; water blue with waves; clear bare; towns as castles with names
stipple    pale flat fills, one terrain as sparse dots (25% ink) on the clear colour,
           one as a solid region with rounded edges; printed edge to edge with a dark
           frame cutting the outer hexes; grey rivers, railways with ticks
halftone   printed style where every colour is CMYK dot screens (no pixel has it)
keybox     textured fills with a terrain key (swatches are hexes at map scale), a
           title block, a terrain-effects table and a turn record track on the sheet;
           ids at the bottom of each hex; towns as ringed dots
vintage    saturated colours, white grid and ids, towns as squares, a title and frame
=========  ==========================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pipeline.model import MapData, map_from_data
from pipeline.render.draw import Rendered, RenderStyle, parse_hex_colour, render_map
from pipeline.render.icons import symbol_for
from pipeline.render.photo import PhotoOptions, simulate_photo
from pipeline.render.sample import sample_map, without_features
from pipeline.render.scan import Scan, ScanOptions, simulate_scan
from pipeline.render.sheet import Sheet

__all__ = ["SAMPLES", "STYLES", "SampleSheet", "sample_sheet", "style_for"]

STYLES: tuple[str, ...] = ("fills", "printed", "icons", "stipple", "halftone", "keybox",
                           "vintage")
SAMPLES: tuple[str, ...] = ("icons", "stipple", "halftone", "keybox", "photo")

_WATER = frozenset({"water", "sea", "lake", "ocean", "river_water", "pond"})
_DOTTED = ("fort", "fortified", "fortification", "fortified_line", "minefield", "beach", "sand")
_SOLID = ("forest", "woods", "wood", "jungle", "heavy_woods")
_RAIL = frozenset({"railroad", "railway", "rail"})


def style_for(name: str, data: MapData, *, hex_size: float = 44.0, seed: int = 0
              ) -> RenderStyle:
    """The named style (one of :data:`STYLES`) fitted to a map's own vocabulary.

    Which terrain gets which look is read from the names (water gets waves, a
    fort or minefield the stipple, forest or woods the rounded fill) and
    otherwise from the order of ``terrain_types``; every hex feature gets a
    symbol.

    Examples
    --------
    >>> from pipeline.render import sample_map
    >>> s = style_for("icons", sample_map(seed=1))
    >>> s.looks["clear"], s.looks["water"], s.looks["woods"]
    ('region', 'waves', 'icon')
    """
    if name not in STYLES:
        raise ValueError(f"unknown style {name!r}: one of {', '.join(STYLES)}")
    terrains = list(data.terrain_types)
    default = data.default_terrain
    symbols = {f: symbol_for(f, i) for i, f in enumerate(data.hex_features)}
    rail = frozenset(n for n in data.hexside_features if n in _RAIL)
    base = RenderStyle(hex_size=hex_size, seed=seed, ticked=rail)
    if name == "fills":
        return base
    if name == "printed":
        return replace(base, textured=True, grid_dashed=True, ids=True)
    if name == "icons":
        looks = {t: ("region" if t == default else "waves" if t in _WATER else "icon")
                 for t in terrains}
        return replace(base, looks=looks, grid_width=0.025, symbols=_all(symbols, "castle"),
                       feature_names=True, dashed=base.dashed | {"road"}, regions=6,
                       sheet=Sheet(frame=3.0))
    if name == "stipple":
        rest = [t for t in terrains if t != default and t not in _WATER]
        dotted = next((t for t in _DOTTED if t in rest), rest[-1] if rest else None)
        solid = next((t for t in _SOLID if t in rest and t != dotted),
                     next((t for t in rest if t != dotted), None))
        looks = {t: look for t, look in ((dotted, "stipple"), (solid, "rounded")) if t}
        pale = {t: _pale(data, t) for t in terrains if t not in looks}
        return replace(base, looks=looks, palette=pale, ids=True, rounding=0.22,
                       sheet=Sheet(frame=10.0, edge_to_edge=True))
    if name == "halftone":
        return replace(base, textured=True, ids=True, halftone=round(0.125 * hex_size, 2),
                       symbols=_all(symbols, "ring"), feature_names=True, place_names=3)
    if name == "keybox":
        return replace(base, textured=True, ids=True, id_position="bottom",
                       symbols=_all(symbols, "ring"), feature_names=True,
                       sheet=Sheet(title=data.title, key=True, effects=True, track=20))
    # vintage
    return replace(base, paper="#f3eedf", grid_color="#f4f4f0", id_color="#f4f4f0", ids=True,
                   grid_width=0.04, symbols=_all(symbols, "square"), feature_names=True,
                   sheet=Sheet(title=data.title, key=True, frame=4.0))


def _all(symbols: Mapping[str, str], first: str) -> dict[str, str]:
    """The style's own symbol for the first hex feature, the usual ones for the rest."""
    names = list(symbols)
    return {n: (first if i == 0 else symbols[n]) for i, n in enumerate(names)}


def _pale(data: MapData, name: str) -> str:
    colour = data.terrain_types[name].color or "#e9e4c3"
    r, g, b = parse_hex_colour(colour)
    mix = 0.5  # halfway to white: the pale flats of a 1980s map
    return "#{:02x}{:02x}{:02x}".format(*(round(v + (255 - v) * mix) for v in (r, g, b)))


@dataclass(frozen=True)
class SampleSheet:
    """A seeded sample map, the style it is printed in and how it is captured.

    Attributes
    ----------
    name
        One of :data:`SAMPLES`.
    data
        The invented map data.
    style
        How it is printed.
    capture
        A flatbed scan (:class:`~pipeline.render.scan.ScanOptions`) or a phone
        photo (:class:`~pipeline.render.photo.PhotoOptions`).
    """

    name: str
    data: MapData
    style: RenderStyle
    capture: ScanOptions | PhotoOptions

    def render(self) -> Rendered:
        """The clean printed sheet."""
        return render_map(self.data, self.style)

    def shoot(self, rendered: Rendered) -> Scan:
        """The sheet scanned or photographed (with its exact transform)."""
        if isinstance(self.capture, PhotoOptions):
            return simulate_photo(rendered.image, self.capture)
        return simulate_scan(rendered.image, self.capture)

    def make(self) -> tuple[Rendered, Scan]:
        """Print and capture."""
        rendered = self.render()
        return rendered, self.shoot(rendered)


_VOCABULARY: dict[str, dict[str, str]] = {
    "icons": {"clear": "#ece6cc", "woods": "#6f9a4a", "forest": "#2f6b3a", "hills": "#b89a6a",
              "mountain": "#8a7a6a", "marsh": "#7fa99a", "sea": "#7fb0d8"},
    "stipple": {"clear": "#e3d5a1", "rough": "#cdb06a", "hills": "#d99a3c", "forest": "#4e8a48",
                "fort": "#c8322a", "marsh": "#9fc2ad", "lake": "#79b1d9"},
    "halftone": {"clear": "#ebe6c4", "woods": "#4f8a3a", "rough": "#a88b63", "marsh": "#8fb5a8",
                 "water": "#6a9fd4", "city": "#9a8f8a"},
    "keybox": {"clear": "#f3efd9", "woods": "#5d9a46", "hills": "#d8b27a", "marsh": "#a9cfc4",
               "city": "#8a8a8a", "rough": "#cbb48e", "lake": "#86b6e0"},
    "photo": {"clear": "#b5b94e", "woods": "#2f6e2e", "hills": "#a0612e", "mountain": "#6f5846",
              "marsh": "#4f9a8c", "city": "#a8a8a8", "lake": "#2f62b8"},
}
# Per sample: grid, style, hex size, towns, feature renames/recolours, what is dropped.
_PLAN: dict[str, dict[str, Any]] = {
    "icons": {"grid": ("pointy", 20, 14), "style": "icons", "hex": 40.0, "towns": 6,
              "features": {"road": "#7a4a22", "river": "#2a5cc0", "bridge": "#1e1e1e"},
              "drop": ("trail", "ditch")},
    "stipple": {"grid": ("flat", 22, 15), "style": "stipple", "hex": 42.0, "towns": 0,
                "features": {"river": "#767b84", "road": "#a0442a", "railroad": "#1a1a1a",
                             "bridge": "#1a1a1a"}, "drop": ("ditch",)},
    "halftone": {"grid": ("flat", 20, 14), "style": "halftone", "hex": 44.0, "towns": 5,
                 "features": {}, "drop": ()},
    "keybox": {"grid": ("flat", 16, 12), "style": "keybox", "hex": 40.0, "towns": 5,
               "features": {"road": "#1e1e1e", "railroad": "#1e1e1e", "river": "#2f6fd0",
                            "bridge": "#1e1e1e"}, "drop": ("ditch",)},
    "photo": {"grid": ("flat", 20, 14), "style": "vintage", "hex": 40.0, "towns": 5,
              "features": {"road": "#141414", "railroad": "#141414", "river": "#2456c8",
                           "bridge": "#141414"}, "drop": ("ditch",)},
}


def sample_sheet(name: str, seed: int = 0) -> SampleSheet:
    """A seeded sample sheet in one of the :data:`SAMPLES` styles.

    Each takes about a second to print and capture. ``photo`` is the
    ``vintage`` style photographed by a phone; the others are scanned.

    Examples
    --------
    >>> sheet = sample_sheet("stipple", seed=2)
    >>> sheet.style.looks["fort"], sheet.style.sheet.edge_to_edge
    ('stipple', True)
    >>> sorted(sheet.data.hexside_features)
    ['bridge', 'railroad', 'river', 'road']
    """
    if name not in SAMPLES:
        raise ValueError(f"unknown sample {name!r}: one of {', '.join(SAMPLES)}")
    plan = _PLAN[name]
    orientation, cols, rows = plan["grid"]
    data = _dressed(sample_map(orientation, cols, rows, seed=seed, terrain=_VOCABULARY[name],
                               towns=plan["towns"]), plan["features"], plan["drop"],
                    f"The {name.capitalize()} Sample (seed {seed})")
    style = style_for(plan["style"], data, hex_size=plan["hex"], seed=seed)
    capture: ScanOptions | PhotoOptions
    if name == "photo":
        capture = PhotoOptions(seed=seed)
    else:
        capture = ScanOptions(rotation=0.6 if seed % 2 else -0.8, perspective=0.002, light=0.15,
                              yellowing=0.3, blur=0.8, noise=3.0, jpeg_quality=85,
                              margin=24, seed=seed)
    return SampleSheet(name, data, style, capture)


def _dressed(data: MapData, colours: Mapping[str, str], drop: tuple[str, ...], title: str
             ) -> MapData:
    """The sample with its trail turned into a railroad, features recoloured, some dropped."""
    raw: dict[str, Any] = data.model_dump(mode="json", exclude_none=True, by_alias=True)
    raw["title"] = title
    features = raw["hexside_features"]
    if "railroad" in colours and "trail" in features:
        features["railroad"] = features.pop("trail")
        for entry in raw["hexsides"]:
            entry["features"] = sorted("railroad" if f == "trail" else f
                                       for f in entry["features"])
    without_features(raw, drop)
    for feature, colour in colours.items():
        if feature in features:
            features[feature]["color"] = colour
    return map_from_data(raw, "<sample sheet>")
