"""``bocage validate``: check hand-entered terrain against a digitized map, itself and the facts."""

from __future__ import annotations

from pathlib import Path

import click

from pipeline.cli.options import HELP, OneLineErrors, emit_json, json_option, quiet_option
from pipeline.cli.paths import InputPath, OutputPath
from pipeline.validate import (
    parse_role_options,
    text_report,
    validate_files,
    write_html_report,
)

__all__ = ["validate"]

@click.command(cls=OneLineErrors, short_help="Check hand-entered terrain.", context_settings=HELP)
@click.argument("map_path", metavar="MAP.json", type=InputPath())
@click.option("--against", type=InputPath(),
              help="A digitized map of the same grid to diff with.")
@click.option("--facts", type=InputPath(), help="The rulebook's facts (facts.json) to check.")
@click.option("--scan", type=InputPath(),
              help="A map scan to digitize (on this map's grid) and diff with.")
@click.option("--legend", type=InputPath(), help="The scan's legend (with --scan).")
@click.option("--report", type=OutputPath(stream=True),
              help="Write a self-contained HTML report here ('-': standard output).")
@click.option("--role", "roles", multiple=True, metavar="ROLE=NAME,...",
              help="What the map's names mean: sea, coast, coast_sides, towns, town_kinds,"
              " roads, rivers, bridges (guessed from the names when not given).")
@json_option
@quiet_option
def validate(map_path: Path, against: Path | None, facts: Path | None, scan: Path | None,
             legend: Path | None, report: Path | None, roles: tuple[str, ...],
             as_json: bool, quiet: bool) -> None:
    """Check a hand-entered map: diff, lint and the rulebook's facts, in one run.

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
    reading's own per-feature confidence. --facts checks each fact and cites
    its rulebook section.

    Exit codes: 0 no errors (warnings and checks may remain), 1 errors found,
    2 bad input.

    \b
    Examples:
      bocage validate maps/demo/map.json --facts maps/demo/facts.json
      bocage validate typed.json --against digitized.json --report report.html
    """
    result = validate_files(map_path, against=against, facts=facts, scan=scan,
                            legend=legend, roles=parse_role_options(roles))
    if report is not None:
        write_html_report(result, report)
    if as_json:
        emit_json(result.to_dict())
    elif not quiet:
        click.echo(text_report(result), nl=False)
    if result.has_errors:
        raise SystemExit(1)
