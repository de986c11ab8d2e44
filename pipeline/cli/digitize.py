"""``bocage digitize``: read a map scan into map data (and GIS layers, and an overlay)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import click

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
    progress_bar,
    quiet_option,
    reading_setup,
)
from pipeline.cli.paths import InputPath, OutputPath, io_plan, output_option
from pipeline.digitize import STAGES, Digitization, digitize_scan, encode_png, load_scan
from pipeline.digitize.batch import (
    BatchSetup,
    ScanOutcome,
    digitize_batch,
    executor_for,
    output_names,
)
from pipeline.digitize.gis import (
    LAYERS,
    RasterCopy,
    geojson,
    geojson_text,
    geopackage,
    raster_copy,
    world_file,
)
from pipeline.digitize.legend import legend_document
from pipeline.digitize.outputs import UNSURE, overlay
from pipeline.digitize.run import Progress
from pipeline.digitize.summary import reading_summary
from pipeline.errors import DataError
from pipeline.files import output_target, write_bytes_atomic, write_text_atomic
from pipeline.model import dumps

__all__ = ["digitize", "parse_anchor", "parse_key", "parse_sample", "parse_symbol", "stages_bar"]


def parse_symbol(text: str) -> tuple[str, str]:
    """``"town=0412"`` -> ``("town", "0412")``."""
    name, sep, hex_id = text.partition("=")
    if not sep or not name.strip() or not hex_id.strip():
        raise DataError(None, "--symbol", f"{text!r} is not FEATURE=HEX (a hex that shows the"
                        " symbol, e.g. town=0412)")
    return name.strip(), hex_id.strip()



@click.command(cls=OneLineErrors, short_help="Read a map scan into terrain data.",
               context_settings=HELP)
@click.argument("scans", nargs=-1, required=True, type=InputPath(), metavar="SCAN...")
@click.option("--legend", "-l", "legend_path", required=True, type=InputPath(),
              help="Legend JSON: terrain and feature colours (or a map.json to take them from).")
@output_option("Where to write map.json ('-': standard output); one scan.", stream=True,
               required=False)
@click.option("--out-dir", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              metavar="DIR", help="Several scans: the folder each scan's map.json is written"
              " to, named by the scan (sheet.jpg -> DIR/sheet.json); made if missing.")
@click.option("--jobs", type=click.IntRange(min=1, max=256), metavar="N",
              help="Several scans: how many are read at once, each in a process of its own"
              " (default: one a core).")
@click.option("--scheduler", metavar="ADDRESS", type=Text(),
              help="Several scans: read them on the Dask scheduler at ADDRESS"
              " (dask://host:8786) instead of this machine's cores; the workers need bocage"
              " and the same paths (pip install 'bocage[dask]').")
@digitize_options
@click.option("--suggest", "suggest", type=click.IntRange(0, 500), default=0, metavar="N",
              help="List the N hexes whose label would most improve the reading.")
@click.option("--write-legend", "legend_out", type=OutputPath(stream=True),
              help="Also write a starter legend: every terrain with the colour read for it,"
              " and the features ('-': standard output).")
@click.option("--symbol", "symbols", multiple=True, metavar="FEATURE=HEX",
              help="A hex showing a symbol to find in every hex, recorded as a hex feature"
              " (town=0412; repeat with a second example for a surer shape).")
@click.option("--overlay", "overlay_path", type=OutputPath(stream=True, binary=True),
              help="Also write a PNG of the findings over the scan ('-': standard output); a"
              " big JPEG read at half its size is drawn at that size.")
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
@click.option("--absence", is_flag=True,
              help="Also write how sure the reading is that each line it did not read is not"
              " there (map.json's hexside_features.NAME.absent): 'bocage validate --against'"
              " then names a road or river typed where the scan shows none.")
@json_option
@quiet_option
def digitize(scans: tuple[Path, ...], legend_path: Path, out: Path | None,
             out_dir: Path | None, jobs: int | None, scheduler: str | None,
             grid_path: Path | None,
             cols: int | None, rows: int | None, orientation: str | None, stagger: str | None,
             anchors: tuple[str, ...], samples: tuple[str, ...], keys: tuple[str, ...],
             symbols: tuple[str, ...], train_path: Path | None, suggest: int,
             legend_out: Path | None,
             overlay_path: Path | None, geojson_path: Path | None, gis_path: Path | None,
             game: str, title: str | None, absence: bool, as_json: bool, quiet: bool) -> None:
    """Read a map scan into map data: the grid, terrain per hex, hexside features.

    The grid is found on the scan (flat- or pointy-top, printed dark or light,
    any pitch, turned a few degrees, photographed at an angle through a phone's
    lens), or fitted to two or more --anchor hex centres, or taken from --grid
    and refined. Give the map's --cols and --rows (or a --grid with them) when
    the sheet also holds a terrain key, a turn track or a title block, or when
    its frame cuts the outer hexes: the map is then the best placement of that
    many hexes on the printed grid. Terrain is learnt from examples on this
    very map, the way a person learns a map's key: a few hexes of each terrain
    (--sample), its swatch in the printed key (--key, or --key auto to find
    each swatch by its printed name), the checked hexes of a
    corrected map (--train), or, for a terrain the legend gives a printed
    colour, the hexes that colour names surely. Each hex gets its main terrain,
    the area share of every terrain in it, a confidence and each terrain's
    probability of being the main one; --suggest names the hexes worth
    labelling next. Hexsides get the rivers and bars along them
    and the roads and bridges across them, each with how sure its reading is;
    --symbol finds a symbol (a town) in every hex from a hex that shows it.
    Nothing is written unless all goes well; every file is written whole or
    not at all.

    Several scans (a game's sheets, an archive) are read with the same options,
    each into its own map.json in --out-dir, as many at once as there are cores
    (--jobs) or on a Dask cluster (--scheduler). A scan that cannot be read is
    named on a line of its own and the others go on; the exit code is then 1.

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
      bocage digitize sheet.png -l legend.json -o map.json --cols 24 --rows 18 --key auto
      bocage digitize photo.jpg -l legend.json -o map.json --cols 26 --rows 18
      bocage digitize scan.png -l legend.json -o map.json --symbol town=0412 \\
          --symbol town=1107
      bocage digitize scans/*.jpg -l legend.json --out-dir maps --cols 26 --rows 18 \\
          --jobs 2
    """
    setup = reading_setup(grid_path, cols, rows, orientation, stagger, anchors, samples, keys,
                          train_path)
    if out_dir is not None or len(scans) > 1:
        _one_scan_only(scans, out, overlay=overlay_path, geojson=geojson_path, gis=gis_path,
                       legend=legend_out)
        assert out_dir is not None
        code = _batch(list(scans), out_dir, BatchSetup(
            legend_path, {**setup.digitize_args(), "absence": absence}, _symbol_map(symbols),
            suggest, game, title), jobs, scheduler, as_json=as_json, quiet=quiet)
        click.get_current_context().exit(code)
    if out is None:
        raise DataError(None, "--output", "give the file to write (-o map.json), or --out-dir"
                        " DIR for a batch")
    if jobs is not None or scheduler is not None:
        raise DataError(None, "--jobs" if jobs is not None else "--scheduler",
                        "shares out several scans; one scan is read on every core already")
    scan = scans[0]
    gis = _gis_files(scan, geojson_path, gis_path)
    result = _run(scan, legend_path, setup, symbols, suggest, game, title,
                  show_progress=not (quiet or as_json), warn=not quiet, absence=absence)
    files = _outputs(result, out, overlay_path, gis, scan)
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
        emit_json(reading_summary(result, scan, list(files)))
    elif not quiet:
        _print(result, scan, list(files))


def _run(scan: Path, legend_path: Path, setup: ReadingSetup, symbols: tuple[str, ...],
         suggest: int, game: str, title: str | None, *, show_progress: bool, warn: bool,
         absence: bool = False) -> Digitization:
    symbol_map = _symbol_map(symbols)
    with stages_bar(show_progress) as progress:
        return digitize_scan(scan, legend_path, **setup.digitize_args(), game=game,
                             title=title, source=str(scan), progress=progress,
                             suggest=suggest, warn=_warning if warn else None,
                             symbols=symbol_map, absence=absence)


def _symbol_map(symbols: tuple[str, ...]) -> dict[str, list[str]]:
    symbol_map: dict[str, list[str]] = {}
    for text in symbols:
        name, hex_id = parse_symbol(text)
        symbol_map.setdefault(name, []).append(hex_id)
    return symbol_map


def _one_scan_only(scans: tuple[Path, ...], out: Path | None, **outputs: Path | None) -> None:
    """Refuse, for a batch, the outputs that name one file for one scan."""
    if out is not None:
        raise DataError(out, "", f"-o writes one scan's map.json; {len(scans)} scans write"
                        " theirs into a folder: give --out-dir DIR")
    for name, path in outputs.items():
        if path is not None:
            option = {"legend": "--write-legend"}.get(name, f"--{name}")
            raise DataError(path, "", f"{option} is for one scan; run it on that scan alone")


def _batch(scans: list[Path], folder: Path, setup: BatchSetup, jobs: int | None,
           scheduler: str | None, *, as_json: bool, quiet: bool) -> int:
    """Read every scan into ``folder``; 0 when all were read, 1 when any was not."""
    batch = output_names(scans, folder)
    io_plan().add_outputs("--out-dir", [b.output for b in batch])
    if scheduler is not None and jobs is not None:
        raise DataError(None, "--jobs", "is for this machine's cores; a --scheduler's cluster"
                        " runs as many scans at once as it has workers")
    executor, threads = executor_for(jobs, scheduler, len(batch))
    folder.mkdir(parents=True, exist_ok=True)
    outcomes: dict[Path, ScanOutcome] = {}
    with progress_bar("digitizing", not (quiet or as_json)) as told:
        told(0, len(batch), "")
        for outcome in digitize_batch(batch, setup, executor, threads=threads):
            outcomes[outcome.scan] = outcome
            told(len(outcomes), len(batch), outcome.scan.name)
            if not as_json:
                _print_outcome(outcome, quiet)
    ordered = [outcomes[b.scan] for b in batch]
    failed = sum(not o.ok for o in ordered)
    if as_json:
        emit_json({"ok": failed == 0, "scans": len(ordered), "failed": failed,
                   "results": [o.summary if o.summary is not None
                               else {"ok": False, "scan": str(o.scan), "error": o.error}
                               for o in ordered]})
    elif not quiet:
        click.echo(f"read {len(ordered) - failed} of {len(ordered)} scans into {folder}"
                   + (f"; {failed} could not be read (above)" if failed else ""))
    return 1 if failed else 0


def _print_outcome(outcome: ScanOutcome, quiet: bool) -> None:
    if not quiet:
        for line in outcome.warnings:
            _warning(f"{outcome.scan}: {line}")
    if outcome.summary is None:
        click.echo(f"bocage: {outcome.error}", err=True)
    elif not quiet:
        s = outcome.summary
        click.echo(f"{s['scan']}: {s['hexes']} hexes, {s['grid']['cols']} x {s['grid']['rows']};"
                   " terrain " + ", ".join(f"{n} {c}" for n, c in s["terrain"].items())
                   + f"; {len(s['unsure'])} unsure; wrote {s['written'][0]}")


def _warning(line: str) -> None:
    click.echo(f"bocage: warning: {line}", err=True)


@contextmanager
def stages_bar(show: bool) -> Iterator[Progress]:
    """The stages on a bar (:func:`progress_bar`): each stage named as it starts."""
    with progress_bar("digitizing", show) as told:
        yield lambda stage: told(STAGES.index(stage), len(STAGES), stage)
        told(len(STAGES), len(STAGES), "done")


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


def _outputs(result: Digitization, out: Path, overlay_path: Path | None, gis: _GisFiles,
             scan: Path) -> dict[Path, str | bytes]:
    """Every output's content, made before anything is written."""
    files: dict[Path, str | bytes] = {out: dumps(result.map)}
    working = result.working
    assert working is not None  # digitize_scan always says what it read
    if gis.geojson is not None or gis.gpkg is not None:
        layers = geojson(result, str(scan))
        if gis.geojson is not None:
            for path, layer in zip(gis.geojson, LAYERS, strict=True):
                files[path] = geojson_text(layers[layer])
        if gis.gpkg is not None and gis.raster is not None:
            copy, raster, world = gis.raster
            files[gis.gpkg] = geopackage(layers)
            # The copy is in the scan's own pixels, as the layers are.
            whole = working.pixels if working.rescale.reduce == 1 or copy.verbatim else (
                load_scan(scan))
            files[raster] = copy.data(scan, whole)
            files[world] = world_file()
    if overlay_path is not None:
        # Drawn over the pixels read: a big scan's overlay at the size it was read at.
        picture = overlay(working.pixels, working.fit, result.terrain, result.hexsides,
                          result.legend)
        files[overlay_path] = encode_png(picture, str(overlay_path))
    return files


def _print(result: Digitization, scan: Path, written: list[Path]) -> None:
    s = reading_summary(result, scan, written)
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
    if s["hex_features"]:
        click.echo("symbols: " + ", ".join(f"{n} {c}" for n, c in s["hex_features"].items()))
    if s["key"]:
        click.echo("key found: " + " ".join(f"--key {k['option']}" for k in s["key"]))
    if s["suggest"]:
        click.echo("label next: " + ", ".join(
            f"{x['hex']} (read {x['read']} {x['confidence']:.2f}"
            + (f", or {x['or']}" if x["or"] else "") + ")" for x in s["suggest"]))
    click.echo("wrote " + ", ".join(s["written"]))
