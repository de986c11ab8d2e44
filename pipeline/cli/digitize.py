"""``bocage digitize``: read a map scan into map data (and GeoJSON, and an overlay)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import numpy as np
from numpy.typing import NDArray

from pipeline.cli.options import (
    HELP,
    OneLineErrors,
    ReadingSetup,
    Text,
    digitize_options,
    emit_json,
    json_option,
    parse_anchor,
    parse_key,
    parse_sample,
    quiet_option,
    reading_setup,
)
from pipeline.cli.paths import InputPath, OutputPath
from pipeline.digitize import STAGES, Digitization, digitize_scan, encode_png, load_scan
from pipeline.digitize.legend import legend_document
from pipeline.digitize.outputs import UNSURE, geojson, geojson_text, overlay
from pipeline.digitize.run import Progress
from pipeline.files import write_bytes_atomic, write_text_atomic
from pipeline.hexgrid import Hex
from pipeline.model import dumps

__all__ = ["digitize", "parse_anchor", "parse_key", "parse_sample"]

@click.command(cls=OneLineErrors, short_help="Read a map scan into terrain data.",
               context_settings=HELP)
@click.argument("scan", type=InputPath())
@click.option("--legend", "-l", "legend_path", required=True, type=InputPath(),
              help="Legend JSON: terrain and feature colours (or a map.json to take them from).")
@click.option("--out", "-o", required=True, type=OutputPath(stream=True),
              help="Where to write map.json ('-': standard output).")
@digitize_options
@click.option("--suggest", "suggest", type=click.IntRange(0, 500), default=0, metavar="N",
              help="List the N hexes whose label would most improve the reading.")
@click.option("--write-legend", "legend_out", type=OutputPath(stream=True),
              help="Also write a starter legend: every terrain with the colour read for it,"
              " and the features ('-': standard output).")
@click.option("--overlay", "overlay_path", type=OutputPath(stream=True, binary=True),
              help="Also write a PNG of the findings over the scan ('-': standard output).")
@click.option("--geojson", "geojson_path", type=OutputPath(stream=True),
              help="Also write hexes and hexside features as GeoJSON (scan pixels; '-':"
              " standard output).")
@click.option("--game", default="digitized", show_default=True, type=Text(),
              help="Game name for map.json.")
@click.option("--title", type=Text(), help="Title for map.json (default: 'digitized from SCAN').")
@json_option
@quiet_option
def digitize(scan: Path, legend_path: Path, out: Path, grid_path: Path | None,
             cols: int | None, rows: int | None, orientation: str | None, stagger: str | None,
             anchors: tuple[str, ...], samples: tuple[str, ...], keys: tuple[str, ...],
             train_path: Path | None, suggest: int, legend_out: Path | None,
             overlay_path: Path | None, geojson_path: Path | None, game: str,
             title: str | None, as_json: bool, quiet: bool) -> None:
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
    and the roads and bridges across them. Nothing is written unless all goes
    well; every file is written whole or not at all.

    \b
    Examples:
      bocage digitize scan.png -l legend.json -o map.json --grid grid.json \\
          --sample woods=0412,0415,0733 --sample clear=0101,0203 --suggest 10
      bocage digitize scan.jpg -l maps/demo/map.json -o map.json --grid maps/demo/map.json \\
          --overlay check.png --geojson map.geojson
      bocage digitize scan.png -l legend.json -o map.json \\
          --anchor 0101=88,92 --anchor 2522=1012,1047 --key woods=1550,300,80,70
      bocage digitize photo.jpg -l legend.json -o map.json --cols 26 --rows 18
    """
    setup = reading_setup(grid_path, cols, rows, orientation, stagger, anchors, samples, keys,
                          train_path)
    pixels, result = _run(scan, legend_path, setup, suggest, game, title,
                          show_progress=not (quiet or as_json), warn=not quiet)
    files = _outputs(result, pixels, out, overlay_path, geojson_path, scan)
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


def _run(scan: Path, legend_path: Path, setup: ReadingSetup, suggest: int, game: str,
         title: str | None, *, show_progress: bool, warn: bool
         ) -> tuple[NDArray[np.uint8], Digitization]:
    with _progress(show_progress) as progress:
        pixels = load_scan(scan)
        result = digitize_scan(pixels, legend_path, **setup.digitize_args(), game=game,
                               title=title, source=str(scan), progress=progress,
                               suggest=suggest, warn=_warning if warn else None)
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


def _outputs(result: Digitization, pixels: NDArray[np.uint8], out: Path,
             overlay_path: Path | None, geojson_path: Path | None, scan: Path
             ) -> dict[Path, str | bytes]:
    """Every output's content, made before anything is written."""
    files: dict[Path, str | bytes] = {out: dumps(result.map)}
    if geojson_path is not None:
        files[geojson_path] = geojson_text(geojson(result.fit, result.terrain, result.hexsides,
                                                   result.legend, str(scan)))
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
    click.echo("wrote " + ", ".join(s["written"]))
