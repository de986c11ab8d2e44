"""``bocage check``: validate data files by their kind."""

from __future__ import annotations

from pathlib import Path

import click

from pipeline.cli.options import HELP, OneLineErrors, emit_json, json_option, quiet_option
from pipeline.cli.paths import check_input
from pipeline.errors import BocageError, DataError
from pipeline.model import Checked, check_file, check_game_dir, load_rules
from pipeline.rules.profilecheck import check_profile_keys

__all__ = ["check"]


@click.command(cls=OneLineErrors,
               short_help="Check data files and game folders against their schemas.",
               context_settings=HELP)
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@json_option
@quiet_option
def check(paths: tuple[Path, ...], as_json: bool, quiet: bool) -> None:
    """Check data files (map, rules profile, scenario, position, unit or marker manifest).

    PATHS are files or game folders. The kind of a JSON file comes from its "kind"
    field, the kind of a CSV manifest from its header. A folder is checked file by
    file and then as a whole (the rules cover the map's terrain, the scenario's
    units are in the manifest and its hexes are on the map). A rules profile giving
    a key its rule system does not read is refused, and so is a unit missing what
    the rules need of it (a class where costs are per class, a movement allowance).

    Every bad value of a file gets one line naming the file, the place and the
    problem (all those found in one reading: a wrong type or a missing key, each
    one; a value that only makes sense once those are right, such as a terrain the
    map does not list, is found on the next run), and the exit code is 2.

    \b
    Examples:
      bocage check maps/demo/map.json
      bocage check maps/demo counters/demo --json
    """
    results: list[dict[str, object]] = []
    failed = False
    for path in paths:
        try:
            checked = _check_one(path)
        except BocageError as exc:
            failed = True
            every = [exc, *(exc.others if isinstance(exc, DataError) else ())]
            results.append({"path": str(path), "ok": False, "error": str(exc),
                            "errors": [str(e) for e in every]})
            for error in every:
                click.echo(f"bocage: {error}", err=True)
            continue
        for item in checked:
            results.append({"path": item.path, "ok": True, "kind": item.kind,
                            "summary": item.summary, "counts": item.counts,
                            "warnings": list(item.warnings)})
            if not quiet and not as_json:
                click.echo(f"ok  {item.kind:<9} {item.path}  ({item.summary})")
            if not as_json:
                for warning in item.warnings:
                    click.echo(f"bocage: warning: {warning}", err=True)
    if as_json:
        emit_json({"ok": not failed, "files": results})
    if failed:
        raise SystemExit(2)


def _check_one(path: Path) -> list[Checked]:
    check_input("PATHS", path, "any")  # each bad path is its own line; the others go on
    checked = check_game_dir(path) if path.is_dir() else [check_file(path)]
    for item in checked:
        if item.kind == "rules":
            # The rules kernel's own check: no key its system would ignore.
            check_profile_keys(load_rules(item.path))
    return checked
