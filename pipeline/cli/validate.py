"""``bocage validate``: check hand-entered terrain against a digitized map, itself and the facts."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import click

from pipeline.cli.options import (
    HELP,
    OneLineErrors,
    digitize_options,
    emit_json,
    json_option,
    quiet_option,
    reading_setup,
)
from pipeline.cli.paths import InputPath, OutputPath
from pipeline.errors import DataError
from pipeline.model.folder import FACTS_FILE, MAP_FILE, GameFolder
from pipeline.validate import (
    parse_role_options,
    read_raw_file,
    text_report,
    typed_grid,
    validate_files,
    write_html_report,
)

__all__ = ["validate"]

@click.command(cls=OneLineErrors, short_help="Check hand-entered terrain.", context_settings=HELP)
@click.argument("map_path", metavar="MAP.json|GAME_DIR", type=InputPath("any", contents=True))
@click.option("--against", type=InputPath(),
              help="A digitized map of the same grid to diff with.")
@click.option("--facts", type=InputPath(), help="The rulebook's facts (facts.json) to check.")
@click.option("--scan", type=InputPath(),
              help="A map scan to digitize (on this map's grid) and diff with.")
@click.option("--legend", type=InputPath(), help="The scan's legend (with --scan).")
@digitize_options
@click.option("--checked", "checked", type=InputPath(),
              help="Findings marked as checked in a report (its 'Save checked' file), hidden"
              " this run; by default MAP.checked.json beside the map, when there is one.")
@click.option("--report", type=OutputPath(stream=True),
              help="Write a self-contained HTML report here ('-': standard output).")
@click.option("--role", "roles", multiple=True, metavar="ROLE=NAME,...",
              help="What the map's names mean: sea, coast, coast_sides, towns, town_kinds,"
              " roads, rivers, bridges (guessed from the names when not given).")
@json_option
@quiet_option
def validate(map_path: Path, against: Path | None, facts: Path | None, scan: Path | None,
             legend: Path | None, grid_path: Path | None, cols: int | None, rows: int | None,
             orientation: str | None, stagger: str | None, anchors: tuple[str, ...],
             samples: tuple[str, ...], keys: tuple[str, ...], train_path: Path | None,
             checked: Path | None, report: Path | None, roles: tuple[str, ...], as_json: bool,
             quiet: bool) -> None:
    """Check a hand-entered map: diff, lint and the rulebook's facts, in one run.

    MAP.json is the typed map, or a game folder: its map.json, checked against its
    facts.json when it has one (unless --facts names other facts).

    Every slip of the file is listed at once, each with its place: keys typed
    twice (with their lines), unknown names, hexes off the grid, hexsides
    between hexes that are not neighbours. Such a file still does not load for
    the other commands until they are fixed.

    Lint needs nothing else: a bridge without a road and a river, a road
    crossing a river without the bridge the map types elsewhere, road and
    river breaks (a hexside left out or on the wrong side), towns on the wrong
    terrain, hexes left out. What is unusual but not wrong (a river rising
    inland, sea against a cliff) is a check. A map switches a lint kind off in
    its own data, with the reason: "lint_off": {"sea_without_coast": "..."}.

    --against diffs with a digitized map: the typed main terrain against the
    reading's main terrain (its area shares soften it), hexside features at the
    reading's own per-feature confidence. --scan reads a scan first, exactly as
    bocage digitize does and with its options (--grid, --cols/--rows, --anchor,
    --sample, --key, --train); without --grid or --cols/--rows it reads on this
    map's grid, layout and all. --facts checks each fact and cites its
    rulebook section.

    Exit codes: 0 no errors (warnings and checks may remain), 1 errors found,
    2 bad input.

    \b
    Examples:
      bocage validate maps/demo/map.json --facts maps/demo/facts.json
      bocage validate maps/demo
      bocage validate typed.json --against digitized.json --report report.html
      bocage validate typed.json --scan map.png --legend legend.json \\
          --anchor 0101=88,92 --anchor 2522=1012,1047 --sample woods=0412,0415
    """
    if map_path.is_dir():
        game = GameFolder(map_path)
        game.require(MAP_FILE, stage="validation")
        map_path = game.map_file
        facts = facts if facts is not None or not game.has(FACTS_FILE) else game.facts_file
    reading = None
    if scan is not None:
        # Without --grid the typed map's own grid, layout and all, as --grid MAP.json.
        typed = typed_grid(read_raw_file(map_path)[0], map_path) if grid_path is None else None
        reading = reading_setup(grid_path, cols, rows, orientation, stagger, anchors, samples,
                                keys, train_path, default_grid=typed).digitize_args()
    elif grid_path or cols or rows or orientation or stagger or anchors or samples or keys \
            or train_path:
        raise DataError(None, "--scan", "the reading options (--grid, --cols, --anchor,"
                        " --sample, ...) say how to read a scan: give --scan SCAN too")
    with ExitStack() as stack:
        if reading is not None:  # a scan is digitized first: its stages on a bar
            from pipeline.cli.digitize import stages_bar

            bar = stack.enter_context(stages_bar(not (quiet or as_json)))
            reading = {**reading, "progress": bar}
        result = validate_files(map_path, against=against, facts=facts, scan=scan,
                                legend=legend, roles=parse_role_options(roles),
                                reading=reading, checked=checked)
    if report is not None:
        write_html_report(result, report)
    if as_json:
        emit_json(result.to_dict())
    elif not quiet:
        click.echo(text_report(result), nl=False)
    if result.has_errors:
        raise SystemExit(1)
