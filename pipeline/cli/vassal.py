"""``bocage vassal``: build, inspect and check VASSAL modules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from pipeline.cli.options import (
    HELP,
    Number,
    OneLineErrorsGroup,
    Text,
    emit_json,
    json_option,
    progress_bar,
    quiet_option,
)
from pipeline.cli.paths import InputPath, io_plan, out_dir_option, output_option
from pipeline.files import atomic_file
from pipeline.model import load_map
from pipeline.vassal import build_module, parse_board_args
from pipeline.vassal.check import check_module
from pipeline.vassal.describe import describe_module
from pipeline.vassal.game import load_game_inputs
from pipeline.vassal.importer import import_module
from pipeline.vassal.preview import DEFAULT_SIDE, preview_module
from pipeline.vassal.save import save_position

__all__ = ["vassal"]

# moduledata's dateSaved is a Java long of milliseconds; VASSAL shows it as a date.
_LAST_DATE_MS = 253_402_300_799_999  # 9999-12-31T23:59:59.999Z
MAX_PIECE_SIZE = 2000  # px: a piece of a hex of an 800 dpi scan


MODULE = click.argument("module", type=InputPath())


@click.group(cls=OneLineErrorsGroup, short_help="Build, inspect and check VASSAL modules.",
             context_settings=HELP)
def vassal() -> None:
    """Build, inspect and check VASSAL modules (.vmod) numbered like the printed map.

    Modules target VASSAL 3.6 and load in 3.7. Exit codes: 0 ok, 1 check findings,
    2 bad input (one line names the file, the place and the fix).
    """


@vassal.command(short_help="Build a .vmod from a game folder, board and counter images.")
@click.argument("game_dir", type=InputPath("folder"))
@click.option("--board", "boards", multiple=True, metavar="[NAME=]PATH",
              help="Board image; NAME=PATH for each board of a multi-board map."
                   " Default: the board's image in map.json.")
@click.option("--counters", type=InputPath("folder", contents=True),
              help="Folder of counter images <slug>-front.png / -back.png"
                   " (default: counters/<game>).")
@click.option("--grid", "grid_from", type=InputPath(),
              help="A map.json whose board layouts to use, board by board (e.g. the"
                   " digitizer's output for the scan given as --board).")
@click.option("--charts", type=InputPath("folder", contents=True),
              help="Folder of play-aid PNGs from 'bocage aids' for the chart window.")
@click.option("--scenario", type=Text(), help="Scenario file stem or name (default: the only"
              " one).")
@output_option("The .vmod to write (replaced atomically).")
@click.option("--date-saved", type=click.IntRange(0, _LAST_DATE_MS), metavar="MS",
              help="moduledata dateSaved in ms (default: SOURCE_DATE_EPOCH, else 0).")
@click.option("--name", type=Text(), help="Module name (default: the map's title).")
@click.option("--module-version", default="1.0", show_default=True, type=Text(40),
              help="Module version.")
@click.option("--piece-size", type=click.IntRange(0, MAX_PIECE_SIZE), metavar="PX",
              help="Side of the piece images in board pixels (default: 85% of a hex across"
              " its flats, as printed counters cover a hex; 0 keeps the rendered images).")
@click.option("--jobs", type=click.IntRange(min=1, max=256), metavar="N",
              help="Worker processes scaling the piece images [default: one a core].")
@json_option
@quiet_option
def build(game_dir: Path, boards: tuple[str, ...], counters: Path | None, grid_from: Path | None,
          charts: Path | None, scenario: str | None, out: Path, date_saved: int | None,
          name: str | None, module_version: str, piece_size: int | None, jobs: int | None,
          as_json: bool, quiet: bool) -> None:
    """Build a VASSAL module from GAME_DIR (map.json, rules, manifests, scenario).

    \b
    Example:
      bocage vassal build maps/demo --board build/demo/map.png \\
          --counters build/demo/counters -o build/demo.vmod
    """
    inputs = load_game_inputs(game_dir, counters, scenario)
    board_names = [b.name for b in inputs.map_data.boards]
    board_images = parse_board_args(boards, board_names)
    plan = io_plan()
    plan.add_inputs("GAME_DIR", inputs.files)
    plan.add_inputs("--board", board_images.values())
    plan.add_inputs("GAME_DIR", [p for p in (game_dir / b.image for b in inputs.map_data.boards
                                             if b.image and b.name not in board_images)
                                 if p.is_file()])
    layouts = ([g.layout for g in load_map(grid_from).grids().values()]
               if grid_from is not None else [])
    with progress_bar("building the module", not (quiet or as_json)) as told:
        report = build_module(game_dir, out, boards=board_images,
                              counters=counters, scenario=scenario, date_saved=date_saved,
                              name=name, version=module_version, layouts=layouts,
                              charts=charts, piece_size=piece_size, jobs=jobs, progress=told)
    if as_json:
        emit_json({"path": str(report.path), "counts": report.counts,
                   "warnings": list(report.warnings), "notes": list(report.notes)})
        return
    for warning in report.warnings:
        click.echo(f"bocage: warning: {warning}", err=True)
    if not quiet:
        for note in report.notes:
            click.echo(f"note: {note}")
        counts = report.counts
        click.echo(f"wrote {report.path} ({counts['units']} units, {counts['markers']} markers,"
                   f" {counts['setup_stacks']} set-up stacks, {counts['boards']} board(s))")


@vassal.command(short_help="List a module's maps, grids, pieces and set-up stacks.")
@MODULE
@json_option
@quiet_option
def inspect(module: Path, as_json: bool, quiet: bool) -> None:
    """List what MODULE (a .vmod, or a bare buildFile) holds, with piece traits decoded.

    With --quiet nothing is listed: the exit code says whether the module reads (0) or
    not (2, with the one line saying where).
    """
    info = describe_module(module)
    if as_json:
        emit_json(info)
        return
    if quiet:
        return
    head = info["module"]
    click.echo(f"{info['path']}: '{head['name']}' version {head['version']}"
               f" (VASSAL {head['VassalVersion']}, nextPieceSlotId {head['nextPieceSlotId']})")
    for the_map in info["maps"]:
        click.echo(f"map '{the_map['name']}'")
        for board in the_map["boards"]:
            size = f" {board['width']}x{board['height']}" if "width" in board else ""
            click.echo(f"  board '{board['name']}' image {board['image']}{size}")
            if "grid" in board:
                grid = board["grid"]
                click.echo(f"    {grid['type']} dx={grid.get('dx')} dy={grid.get('dy')}"
                           f" x0={grid.get('x0')} y0={grid.get('y0')}"
                           f" sideways={grid.get('sideways', 'false')}")
            if "numbering" in board:
                n = board["numbering"]
                keys = ("first", "sep", "hOff", "vOff", "hLeading", "vLeading", "hDescend",
                        "vDescend", "stagger", "locationFormat")
                click.echo("    numbering " + " ".join(f"{k}={n.get(k)!r}" for k in keys))
        for stack in the_map["setup_stacks"]:
            where = stack["location"] or f"({stack['x']},{stack['y']})"
            click.echo(f"  set-up {where} on {stack['board']}: {', '.join(stack['pieces'])}")
    for piece in info["pieces"]:
        traits = " | ".join(_trait_text(t) for t in piece.get("traits", []))
        click.echo(f"piece '{piece['entryName']}' gpid {piece['gpid']} [{piece['palette']}]:"
                   f" {traits or piece.get('error')}")
    for proto in info["prototypes"]:
        traits = " | ".join(_trait_text(t) for t in proto.get("traits", []))
        click.echo(f"prototype '{proto['entryName']}': {traits or proto.get('error')}")


def _trait_text(trait: dict[str, Any]) -> str:
    """One decoded trait in a few words: ``mark UnitId=2 Rgr``, ``emb2 Step[a.png,b.png]``."""
    name = str(trait["id"]).rstrip(";")
    if "properties" in trait:
        return name + " " + ", ".join(f"{k}={v}" for k, v in trait["properties"].items())
    if "images" in trait:
        return f"{name} {trait['layer']}[{','.join(trait['images'])}] {trait['increase_menu']}"
    if "prototype" in trait:
        return f"{name} {trait['prototype']}"
    if "image" in trait:
        return f"{name} {trait['image']} '{trait['name']}'" if trait["image"] else name
    return str(name)


@vassal.command(short_help="Check a module against what VASSAL 3.6/3.7 reads.")
@MODULE
@json_option
@quiet_option
def check(module: Path, as_json: bool, quiet: bool) -> None:
    """Check MODULE (a .vmod, or a bare buildFile): tags, numbers, piece texts, gpids,
    images, set-up locations and moduledata. Exit 1 when there are errors."""
    report = check_module(module)
    if as_json:
        emit_json(report.to_dict())
    else:
        for finding in report.findings:
            if not quiet or finding.severity == "error":
                click.echo(str(finding))
        if not quiet:
            errors = sum(f.severity == "error" for f in report.findings)
            state = "ok" if report.ok else f"{errors} error(s)"
            click.echo(f"{state}: {module} ({report.counts.get('piece_definitions', 0)} piece"
                       f" definitions, {report.counts.get('setup_stacks', 0)} set-up stacks)")
    if not report.ok:
        raise SystemExit(1)


@vassal.command(short_help="Draw a module's main map at game start as a PNG.")
@click.argument("module", type=InputPath())
@output_option("The PNG to write, replaced atomically ('-': standard output).", stream=True,
               binary=True)
@click.option("--scale", type=Number(min=0, min_open=True, max=64), metavar="F",
              help=f"Output pixels per map pixel (default: 1, or less so the longest side"
                   f" is at most {DEFAULT_SIDE} px).")
@click.option("--board", metavar="NAME", type=Text(),
              help="Draw only this board, with its set-up stacks.")
@json_option
@quiet_option
def preview(module: Path, out: Path, scale: float | None, board: str | None, as_json: bool,
            quiet: bool) -> None:
    """Draw what VASSAL shows on MODULE's main map when a game starts (a .vmod, or a bare
    buildFile): the boards, the hex grid where VASSAL's arithmetic puts it with the hex
    names VASSAL gives, and every at-start stack's pieces where VASSAL places them.

    \b
    Example:
      bocage vassal preview build/demo/demo.vmod -o build/demo/preview.png
    """
    result = preview_module(module, scale=scale, board=board)
    with atomic_file(out) as fh:
        result.image.save(fh, "PNG")
    if as_json:
        emit_json({"out": str(out), **result.to_dict()})
        return
    for item in result.unresolved:
        click.echo(f"bocage: warning: {module}: line {item['line']}: stack '{item['stack']}':"
                   f" location '{item['location']}' not found ({item['reason']}); drawn at"
                   f" x,y {tuple(item['drawn_at'])} as VASSAL does", err=True)
    if not quiet:
        for item in result.skipped:
            click.echo(f"note: line {item['line']}: stack '{item['stack']}' not drawn:"
                       f" {item['reason']}")
        for note in result.notes:
            click.echo(f"note: {note}")
        width, height = result.image.size
        click.echo(f"wrote {out} ({width}x{height} px, scale {result.scale:.3g}): map"
                   f" '{result.map_name}', {len(result.boards)} board(s), {result.stacks}"
                   f" set-up stacks, {result.pieces} pieces")


@vassal.command("read-save", short_help="Read a VASSAL saved game into a bocage position.")
@click.argument("save", type=InputPath())
@click.option("--module", "module", type=InputPath(),
              help="The .vmod the game was played on: its grids name the hexes (default:"
                   " the one .vmod beside the save with the module name the save gives).")
@output_option("Write the position document (kind: position) here, replaced atomically"
               " ('-': standard output).", stream=True, required=False)
@click.option("--phase", default="movement", show_default=True,
              help="The position's phase: a saved game does not hold it.")
@json_option
@quiet_option
def read_save(save: Path, module: Path | None, out: Path | None, phase: str, as_json: bool,
              quiet: bool) -> None:
    """Read SAVE (a .vsav written by VASSAL 3.x) against its module: every piece with its
    hex as the module's grid names it, its stack and its Layer (step) level, as a bocage
    position document (units with their steps, markers) for `bocage rules`.

    Pieces that cannot be put on a hex (another window, off the boards, not a unit or
    marker bocage knows) are listed with the reason, never dropped.

    \b
    Example:
      bocage vassal read-save game.vsav --module demo.vmod -o position.json
      bocage rules supply maps/demo --vsav game.vsav --module demo.vmod
    """
    saved, position, left_out = save_position(save, module, phase=phase)
    document = position.model_dump(mode="json", exclude_defaults=True, by_alias=True)
    document = {"kind": "position", **document}
    if out is not None:
        with atomic_file(out) as fh:
            fh.write((json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode())
    if as_json:
        emit_json({"position": document, "pieces": [p.to_dict() for p in saved.pieces],
                   "left_out": [{"id": p.id, "name": p.name, "reason": why}
                                for p, why in left_out],
                   "notes": saved.notes})
        return
    for piece, why in left_out:
        click.echo(f"bocage: warning: {save}: '{piece.name}' not on a hex of the position:"
                   f" {why}", err=True)
    for note in saved.notes:
        click.echo(f"note: {note}", err=True)
    if quiet:
        return
    for piece in saved.pieces:
        where = piece.location if piece.reason is None else f"({piece.reason})"
        stack = (f"stack {piece.stack} {piece.stack_index + 1}/{piece.stack_size}"
                 if piece.stack is not None else "no stack")
        who = piece.properties.get("UnitId") or piece.properties.get("MarkerId") or "-"
        click.echo(f"{where:<8} {piece.kind:<6} {who:<10} {piece.name}  [{stack},"
                   f" {piece.face}]")
    click.echo(f"{len(saved.pieces)} pieces: {len(position.units)} units, {len(position.markers)}"
               f" markers in the position{f', written to {out}' if out else ''}")


@vassal.command("import", short_help="Write a game folder from a module bocage did not build.")
@click.argument("module", type=InputPath())
@out_dir_option("The game folder to create (new, or empty).")
@json_option
@quiet_option
def import_(module: Path, out: Path, as_json: bool, quiet: bool) -> None:
    """Write a game-folder skeleton from MODULE (a .vmod, or a bare buildFile): each
    board's image, each hex grid as a map.json board numbered exactly as VASSAL numbers
    it (proved hex by hex), and the palette as units.csv / markers.csv with the
    counters' front and back images. Terrain is not in a module: digitize the board
    next, with the grid already known.

    \b
    Example:
      bocage vassal import game.vmod --out-dir maps/mygame
      bocage check maps/mygame
      bocage digitize maps/mygame/board-map.png --grid maps/mygame/map.json -o d.json
    """
    report = import_module(module, out)
    if as_json:
        emit_json({"folder": str(report.folder), "counts": report.counts,
                   "grids": list(report.grids), "warnings": list(report.warnings)})
        return
    for warning in report.warnings:
        click.echo(f"bocage: warning: {module}: {warning}", err=True)
    if not quiet:
        for grid in report.grids:
            click.echo(f"board '{grid['board']}' (map '{grid['map']}'): {grid['hexes']} hexes,"
                       f" {grid['cols']} x {grid['rows']}, named as VASSAL names them")
        counts = report.counts
        click.echo(f"wrote {report.folder} ({counts['boards']} board(s), {counts['units']}"
                   f" units, {counts['markers']} markers, {counts['images']} images)")
