"""``bocage digitize``: read a map scan into map data (and GIS layers, and an overlay)."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import click
import numpy as np
from numpy.typing import NDArray

from pipeline.cli.options import HELP, OneLineErrors, Text, emit_json, json_option, quiet_option
from pipeline.cli.paths import InputPath, OutputPath, io_plan
from pipeline.digitize import STAGES, Digitization, digitize_scan, encode_png, load_scan
from pipeline.digitize.classify import Teaching
from pipeline.digitize.gridfile import load_grid
from pipeline.digitize.legend import legend_document
from pipeline.digitize.gis import LAYERS, RasterCopy, geojson, geojson_text, geopackage
from pipeline.digitize.gis import raster_copy, world_file
from pipeline.digitize.outputs import UNSURE, overlay
from pipeline.digitize.run import Progress
from pipeline.errors import DataError, GridError
from pipeline.hexgrid import HexGrid, Numbering, Orientation
from pipeline.files import output_target, write_bytes_atomic, write_text_atomic
from pipeline.hexgrid import Hex
from pipeline.model import dumps, load_map

__all__ = ["digitize", "parse_anchor", "parse_key", "parse_sample", "parse_symbol"]

MAX_ANCHORS = 200  # hex centres measured by hand: a few dozen at most
_STAGGER = {"flat": "even-down", "pointy": "even-right"}  # the usual numbering
MAX_EXAMPLES = 2000  # --sample and --key options: a few per terrain are what a reading needs


def parse_anchor(text: str) -> tuple[str, tuple[float, float]]:
    """``"0101=120.5,88"`` -> ``("0101", (120.5, 88.0))``.

    >>> parse_anchor("0101=120.5,88")
    ('0101', (120.5, 88.0))
    """
    hex_id, sep, xy = text.partition("=")
    parts = xy.split(",")
    try:
        if not sep or not hex_id or len(parts) != 2:
            raise ValueError
        x, y = float(parts[0]), float(parts[1])
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError
        return hex_id.strip(), (x, y)
    except ValueError:
        raise DataError(None, "--anchor", f"{text!r} is not HEX=X,Y (the pixel centre of a hex,"
                        " e.g. 0101=120.5,88)") from None


def parse_sample(text: str) -> tuple[str, list[str]]:
    """``"woods=0412,0415"`` -> ``("woods", ["0412", "0415"])``.

    >>> parse_sample("woods=0412, 0415")
    ('woods', ['0412', '0415'])
    """
    name, sep, ids = text.partition("=")
    hexes = [h.strip() for h in ids.split(",")]
    if not sep or not name.strip() or not all(hexes):
        raise DataError(None, "--sample", f"{text!r} is not TERRAIN=HEX[,HEX...] (e.g."
                        " woods=0412,0415)")
    return name.strip(), hexes


def parse_key(text: str) -> tuple[str, tuple[float, float, float, float]]:
    """``"woods=1550,300,80,70"`` -> ``("woods", (1550.0, 300.0, 80.0, 70.0))``.

    >>> parse_key("woods=1550,300,80,70")
    ('woods', (1550.0, 300.0, 80.0, 70.0))
    """
    name, sep, box = text.partition("=")
    parts = box.split(",")
    try:
        if not sep or not name.strip() or len(parts) != 4:
            raise ValueError
        x, y, w, h = (float(p) for p in parts)
    except ValueError:
        raise DataError(None, "--key", f"{text!r} is not TERRAIN=X,Y,W,H (the pixel box of the"
                        " terrain's swatch in the printed key, e.g. woods=1550,300,80,70)"
                        ) from None
    return name.strip(), (x, y, w, h)


def parse_symbol(text: str) -> tuple[str, str]:
    """``"town=0412"`` -> ``("town", "0412")``."""
    name, sep, hex_id = text.partition("=")
    if not sep or not name.strip() or not hex_id.strip():
        raise DataError(None, "--symbol", f"{text!r} is not FEATURE=HEX (a hex that shows the"
                        " symbol, e.g. town=0412)")
    return name.strip(), hex_id.strip()


@click.command(cls=OneLineErrors, short_help="Read a map scan into terrain data.",
               context_settings=HELP)
@click.argument("scan", type=InputPath())
@click.option("--legend", "-l", "legend_path", required=True, type=InputPath(),
              help="Legend JSON: terrain and feature colours (or a map.json to take them from).")
@click.option("--out", "-o", required=True, type=OutputPath(stream=True),
              help="Where to write map.json ('-': standard output).")
@click.option("--grid", "grid_path", type=InputPath(),
              help="Grid JSON (orientation, numbering, cols, rows, optional layout), or a"
              " map.json whose grid to use. Without it the grid is found on the scan.")
@click.option("--cols", type=click.IntRange(min=1), help="Columns the map prints (with --rows;"
              " they choose the map among a key, a track or margins on the scan).")
@click.option("--rows", type=click.IntRange(min=1), help="Rows the map prints (with --cols).")
@click.option("--orientation", type=click.Choice(["flat", "pointy"]),
              help="Flat- or pointy-top, if not found on the scan (with --cols/--rows).")
@click.option("--stagger", metavar="WORD", help="Which lines are shifted: even-down, odd-down"
              " (flat), even-right, odd-right (pointy); with --cols/--rows.")
@click.option("--anchor", "anchors", multiple=True, metavar="HEX=X,Y",
              help="A hex centre on the scan, in pixels (repeat: two or more).")
@click.option("--sample", "samples", multiple=True, metavar="TERRAIN=HEX[,HEX]", type=Text(2000),
              help="Hexes that show a terrain: examples to learn its look on this map from"
              " (repeatable; two or three per terrain is usually enough).")
@click.option("--key", "keys", multiple=True, metavar="TERRAIN=X,Y,W,H", type=Text(),
              help="A terrain's swatch in the printed key, as a pixel box of the scan"
              " (repeatable): an example like --sample.")
@click.option("--train", "train_path", type=InputPath(),
              help="A corrected map.json of this scan: its hexes marked labelled or corrected"
              " are examples, the rest is read again.")
@click.option("--suggest", "suggest", type=click.IntRange(0, 500), default=0, metavar="N",
              help="List the N hexes whose label would most improve the reading.")
@click.option("--write-legend", "legend_out", type=OutputPath(stream=True),
              help="Also write a starter legend: every terrain with the colour read for it,"
              " and the features ('-': standard output).")
@click.option("--symbol", "symbols", multiple=True, metavar="FEATURE=HEX",
              help="A hex showing a symbol to find in every hex, recorded as a hex feature"
              " (town=0412; repeat with a second example for a surer shape).")
@click.option("--overlay", "overlay_path", type=OutputPath(stream=True, binary=True),
              help="Also write a PNG of the findings over the scan ('-': standard output).")
@click.option("--geojson", "geojson_path", type=OutputPath(), metavar="FILE",
              help="Also write the hexes (polygons) as GeoJSON to FILE and the hexside"
              " features (lines) beside it, as NAME.hexsides.geojson: for scripts, in the"
              " frame of --gis (x = column, y = -row).")
@click.option("--gis", "gis_path", type=OutputPath(), metavar="FILE.gpkg",
              help="Also write a GeoPackage of two layers, hexes and hexsides, and beside it a"
              " copy of the scan with its world file (NAME.jpg and NAME.jgw, or .png and"
              " .pgw): open both in a GIS and they line up. The frame is the scan's as QGIS"
              " shows a picture with no georeferencing: x = column, y = -row, no CRS.")
@click.option("--game", default="digitized", show_default=True, type=Text(),
              help="Game name for map.json.")
@click.option("--title", type=Text(), help="Title for map.json (default: 'digitized from SCAN').")
@json_option
@quiet_option
def digitize(scan: Path, legend_path: Path, out: Path, grid_path: Path | None,
             cols: int | None, rows: int | None, orientation: str | None, stagger: str | None,
             anchors: tuple[str, ...], samples: tuple[str, ...], keys: tuple[str, ...],
             symbols: tuple[str, ...], train_path: Path | None, suggest: int,
             legend_out: Path | None,
             overlay_path: Path | None, geojson_path: Path | None, gis_path: Path | None,
             game: str, title: str | None, as_json: bool, quiet: bool) -> None:
    """Read a map scan into map data: the grid, terrain per hex, hexside features.

    The grid is found on the scan (flat- or pointy-top, printed dark or light,
    any pitch, turned a few degrees, photographed at an angle through a phone's
    lens), or fitted to two or more --anchor hex centres, or taken from --grid
    and refined. Give the map's --cols and --rows (or a --grid with them) when
    the sheet also holds a terrain key, a turn track or a title block, or when
    its frame cuts the outer hexes: the map is then the best placement of that
    many hexes on the printed grid. Terrain is learnt from examples on this
    very map, the way a person learns a map's key: a few hexes of each terrain
    (--sample), its swatch in the printed key (--key), the checked hexes of a
    corrected map (--train), or, for a terrain the legend gives a printed
    colour, the hexes that colour names surely. Each hex gets its main terrain,
    the area share of every terrain in it and a confidence; --suggest names
    the hexes worth labelling next. Hexsides get the rivers and bars along them
    and the roads and bridges across them, each with how sure its reading is;
    --symbol finds a symbol (a town) in every hex from a hex that shows it.
    Nothing is written unless all goes well; every file is written whole or
    not at all.

    For a GIS, --gis writes the hexes and hexsides as two layers of a
    GeoPackage, in the scan's own frame, and a copy of the scan with a world
    file: in QGIS, add the copy as a raster layer, then the GeoPackage's two
    layers, and the hexes lie on the printed ones. The scan itself is never
    touched.

    \b
    Examples:
      bocage digitize scan.png -l legend.json -o map.json --grid grid.json \\
          --sample woods=0412,0415,0733 --sample clear=0101,0203 --suggest 10
      bocage digitize scan.jpg -l maps/demo/map.json -o map.json --grid maps/demo/map.json \\
          --overlay check.png --gis map.gpkg
      bocage digitize scan.png -l legend.json -o map.json \\
          --anchor 0101=88,92 --anchor 2522=1012,1047 --key woods=1550,300,80,70
      bocage digitize photo.jpg -l legend.json -o map.json --cols 26 --rows 18
      bocage digitize scan.png -l legend.json -o map.json --symbol town=0412 \\
          --symbol town=1107
    """
    grid, size = _grid(grid_path, cols, rows, orientation, stagger)
    teaching = _teaching(samples, keys, train_path)
    gis = _gis_files(scan, geojson_path, gis_path)
    pixels, result = _run(scan, legend_path, grid, size, anchors, teaching, symbols, suggest,
                          game, title, show_progress=not (quiet or as_json), warn=not quiet)
    files = _outputs(result, pixels, out, overlay_path, gis, scan)
    if legend_out is not None:
        files[legend_out] = json.dumps(legend_document(result.legend, note=(
            f"Starter legend written by bocage digitize from {scan.name}: terrain colours"
            " are what the scan showed for each terrain's hexes.")), indent=2) + "\n"
    for path, data in files.items():
        if isinstance(data, str):
            write_text_atomic(path, data)
        else:
            write_bytes_atomic(path, data)
    if as_json:
        emit_json(_summary(result, scan, list(files)))
    elif not quiet:
        _print(result, scan, list(files))


def _grid(grid_path: Path | None, cols: int | None, rows: int | None,
          orientation: str | None, stagger: str | None
          ) -> tuple[HexGrid | None, tuple[int, int] | None]:
    """What is known of the grid: a grid (the file, the options over it) or only a size."""
    if (cols is None) != (rows is None):
        raise DataError(None, "--cols" if cols is None else "--rows",
                        "give the map's columns and rows together (--cols N --rows M)")
    grid = load_grid(grid_path) if grid_path is not None else None
    if grid is None and not (orientation or stagger):
        # Only a size (or nothing): the orientation and stagger are read off the scan.
        return None, (cols, rows) if cols is not None and rows is not None else None
    if grid is None and cols is None:
        raise DataError(None, "--orientation" if orientation else "--stagger",
                        "needs the map's size too (--cols N --rows M), or a --grid file")
    try:
        if grid is None:
            numbering = Numbering(stagger=stagger or _STAGGER[orientation or "flat"])
            grid = HexGrid(Orientation(orientation) if orientation else numbering.orientation(),
                           numbering)
        numbering = replace(grid.numbering, stagger=stagger) if stagger else grid.numbering
        kind = (Orientation(orientation) if orientation
                else numbering.orientation() if stagger else grid.orientation)
        return HexGrid(kind, numbering, cols or grid.cols, rows or grid.rows, grid.exclude,
                       grid.layout), None
    except GridError as exc:
        raise DataError(None, "--stagger" if stagger else "--orientation", str(exc)) from None


def _teaching(samples: tuple[str, ...], keys: tuple[str, ...], train_path: Path | None
              ) -> Teaching:
    """The builder's examples from the command line."""
    if len(samples) + len(keys) > MAX_EXAMPLES:
        raise DataError(None, "--sample", f"{len(samples) + len(keys)} examples, more than"
                        f" {MAX_EXAMPLES}; a few hexes per terrain teach the reading, --train"
                        " takes a corrected map")
    sample_map: dict[str, list[str]] = {}
    for text in samples:
        name, hexes = parse_sample(text)
        sample_map.setdefault(name, []).extend(hexes)
    key_map: dict[str, list[tuple[float, float, float, float]]] = {}
    for text in keys:
        name, box = parse_key(text)
        key_map.setdefault(name, []).append(box)
    checked: dict[str, str] = {}
    if train_path is not None:
        corrected = load_map(train_path)
        checked = {hex_id: entry.terrain[0] for hex_id, entry in corrected.hexes.items()
                   if entry.provenance in ("labelled", "corrected")}
        if not checked:
            raise DataError(str(train_path), "hexes", "no hex is marked \"provenance\":"
                            " \"labelled\" or \"corrected\", so there is nothing to learn from;"
                            " mark the hexes a person checked")
    return Teaching(samples=sample_map, key=key_map, checked=checked)


def _run(scan: Path, legend_path: Path, grid: HexGrid | None, size: tuple[int, int] | None,
         anchors: tuple[str, ...], teaching: Teaching, symbols: tuple[str, ...],
         suggest: int, game: str, title: str | None, *, show_progress: bool, warn: bool
         ) -> tuple[NDArray[np.uint8], Digitization]:
    if len(anchors) > MAX_ANCHORS:
        raise DataError(None, "--anchor", f"{len(anchors)} anchors, more than {MAX_ANCHORS};"
                        " two to a few dozen well-spread hexes fix the grid")
    anchor_map = dict(parse_anchor(a) for a in anchors)
    if len(anchor_map) != len(anchors):
        raise DataError(None, "--anchor", "a hex is anchored twice; give each hex once")
    symbol_map: dict[str, list[str]] = {}
    for text in symbols:
        name, hex_id = parse_symbol(text)
        symbol_map.setdefault(name, []).append(hex_id)
    with _progress(show_progress) as progress:
        pixels = load_scan(scan)
        result = digitize_scan(pixels, legend_path, grid=grid, size=size,
                               anchors=anchor_map or None, samples=teaching.samples,
                               key=teaching.key, checked=teaching.checked, game=game,
                               title=title, source=str(scan), progress=progress,
                               suggest=suggest, warn=_warning if warn else None,
                               symbols=symbol_map)
    return pixels, result


def _warning(line: str) -> None:
    click.echo(f"bocage: warning: {line}", err=True)


@contextmanager
def _progress(show: bool) -> Iterator[Progress | None]:
    """A progress bar over the stages on a terminal; nothing when piped or quiet."""
    if not (show and sys.stderr.isatty()):
        yield None
        return
    with click.progressbar(length=len(STAGES), label="digitizing", file=sys.stderr,
                           item_show_func=lambda s: s) as bar:
        done: list[str] = []

        def tell(stage: str) -> None:
            if done:
                bar.update(1, stage)
            done.append(stage)

        yield tell
        bar.update(1, "done")


@dataclass(frozen=True)
class _GisFiles:
    """Where the GIS outputs go: the files named and those written beside them."""

    geojson: tuple[Path, Path] | None  # hexes, hexsides
    gpkg: Path | None
    raster: tuple[RasterCopy, Path, Path] | None  # how the scan is copied, the copy, its world


def _hexsides_name(path: Path) -> Path:
    """``map.geojson`` -> ``map.hexsides.geojson``: the hexsides' layer beside the hexes'."""
    return path.with_name(f"{path.stem}.hexsides{path.suffix or '.geojson'}")


def _gis_files(scan: Path, geojson_path: Path | None, gis_path: Path | None) -> _GisFiles:
    """The GIS outputs' names, checked with the other paths before any work is done."""
    plan = io_plan()
    pair = None
    if geojson_path is not None:
        _a_file("--geojson", geojson_path, "two files (the hexes, and the hexsides beside them)")
        pair = (geojson_path, _hexsides_name(geojson_path))
        plan.add_outputs("--geojson", pair[1:])
    raster = None
    if gis_path is not None:
        _a_file("--gis", gis_path, "a GeoPackage and a copy of the scan beside it")
        if gis_path.suffix.lower() != ".gpkg":
            raise DataError(gis_path, "", "--gis writes a GeoPackage: give a name ending in"
                            " .gpkg")
        copy = raster_copy(scan)
        raster = (copy, gis_path.with_suffix(copy.suffix), gis_path.with_suffix(copy.world_suffix))
        plan.add_outputs("--gis", raster[1:])
    return _GisFiles(pair, gis_path, raster)


def _a_file(option: str, path: Path, what: str) -> None:
    if output_target(path).kind != "file":
        raise DataError(path, "", f"{option} writes {what}: give a file name, not a device or"
                        " a pipe")


def _outputs(result: Digitization, pixels: NDArray[np.uint8], out: Path,
             overlay_path: Path | None, gis: _GisFiles, scan: Path
             ) -> dict[Path, str | bytes]:
    """Every output's content, made before anything is written."""
    files: dict[Path, str | bytes] = {out: dumps(result.map)}
    if gis.geojson is not None or gis.gpkg is not None:
        layers = geojson(result, str(scan))
        if gis.geojson is not None:
            for path, layer in zip(gis.geojson, LAYERS, strict=True):
                files[path] = geojson_text(layers[layer])
        if gis.gpkg is not None and gis.raster is not None:
            copy, raster, world = gis.raster
            files[gis.gpkg] = geopackage(layers)
            files[raster] = copy.data(scan, pixels)
            files[world] = world_file()
    if overlay_path is not None:
        picture = overlay(pixels, result.fit, result.terrain, result.hexsides,
                          result.legend)
        files[overlay_path] = encode_png(picture, str(overlay_path))
    return files


def _summary(result: Digitization, scan: Path, written: list[Path]) -> dict[str, Any]:
    fit = result.fit
    grid = fit.grid
    layout = grid.layout
    assert layout is not None
    unsure = sorted(grid.id(h) for h, t in result.terrain.items() if t.confidence < UNSURE)
    terrain: dict[str, int] = {}
    for t in result.terrain.values():
        terrain[t.terrain[0]] = terrain.get(t.terrain[0], 0) + 1
    features: dict[str, int] = {}
    for names in result.hexsides.values():
        for n in names:
            features[n] = features.get(n, 0) + 1
    symbols: dict[str, int] = {}
    for marks in result.hex_features.values():
        for n in marks:
            symbols[n] = symbols.get(n, 0) + 1
    board = result.map.boards[0].grid
    return {
        "ok": True,
        "scan": str(scan),
        "grid": {"orientation": grid.orientation.value, "cols": grid.cols, "rows": grid.rows,
                 "stagger": grid.numbering.stagger, "hex_width": round(fit.hex_width, 2),
                 "rotation": board.layout.rotation if board.layout else 0.0,
                 "method": fit.method, "residual": round(fit.residual, 3),
                 "measured": fit.support},
        "hexes": len(result.terrain),
        "terrain": dict(sorted(terrain.items())),
        "unsure": unsure,
        "hexside_features": dict(sorted(features.items())),
        "suggest": [_suggestion(result, h) for h in result.suggestions],
        "hex_features": dict(sorted(symbols.items())),
        "written": [str(p) for p in written],
    }


def _suggestion(result: Digitization, h: Hex) -> dict[str, Any]:
    t = result.terrain[h]
    others = [n for n in sorted(t.fractions, key=lambda n: -t.fractions[n]) if n != t.terrain[0]]
    return {"hex": result.fit.grid.id(h), "read": t.terrain[0], "confidence": t.confidence,
            "or": others[0] if others else None}


def _print(result: Digitization, scan: Path, written: list[Path]) -> None:
    s = _summary(result, scan, written)
    g = s["grid"]
    click.echo(f"{scan}: {s['hexes']} hexes, {g['cols']} x {g['rows']} {g['orientation']}-top"
               f" ({g['stagger']}), hex {g['hex_width']} px, turned {g['rotation']} degrees;"
               f" grid {g['method']}, residual {g['residual']} px")
    click.echo("terrain: " + ", ".join(f"{n} {c}" for n, c in s["terrain"].items())
               + f"; {len(s['unsure'])} hexes under {UNSURE} confidence"
               + (f" ({', '.join(s['unsure'][:8])}{' ...' if len(s['unsure']) > 8 else ''})"
                  if s["unsure"] else ""))
    features = ", ".join(f"{n} {c}" for n, c in s["hexside_features"].items()) or "none"
    click.echo(f"hexsides: {features}")
    if s["suggest"]:
        click.echo("label next: " + ", ".join(
            f"{x['hex']} (read {x['read']} {x['confidence']:.2f}"
            + (f", or {x['or']}" if x["or"] else "") + ")" for x in s["suggest"]))
    if s["hex_features"]:
        click.echo("symbols: " + ", ".join(f"{n} {c}" for n, c in s["hex_features"].items()))
    click.echo("wrote " + ", ".join(s["written"]))
