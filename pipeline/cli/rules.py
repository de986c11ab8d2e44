"""``bocage rules``: ask the rules validator about a game folder and a position."""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pipeline.cli.options import (
    HELP,
    OneLineErrorsGroup,
    emit_json,
    json_option,
    quiet_option,
)
from pipeline.cli.paths import InputPath, OutputPath
from pipeline.errors import DataError
from pipeline.files import write_bytes_atomic
from pipeline.hexgrid import Hex
from pipeline.model import GameFolder
from pipeline.rules import Engine
from pipeline.rules.game import load_game

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["rules"]

GAME = click.argument("game", type=InputPath("folder"))
POSITION = click.option("--position", "-p", type=InputPath(), required=True,
                        help="Position file (kind: position).")
UNIT = click.option("--unit", "-u", "unit_id", required=True, help="Id of the moving unit.")
# Not '-': standard output carries the answer.
PICTURE = click.option("--picture", type=OutputPath(),
                       help="Also draw the answer over the map as a PNG.")


def _position_or_save(f: Any) -> Any:
    """--position, or a VASSAL saved game (--vsav, with its --module) read as one."""
    f = click.option("--module", "vmod", type=InputPath(),
                     help="The .vmod the --vsav game was played on (default: the one"
                          " beside the save with the module name it gives).")(f)
    f = click.option("--vsav", type=InputPath(),
                     help="Answer on a VASSAL saved game instead of --position (read as"
                          " 'bocage vassal read-save' reads it).")(f)
    return click.option("--position", "-p", type=InputPath(),
                        help="Position file (kind: position).")(f)


@contextmanager
def _position_file(game: GameFolder, position: Path | None, vsav: Path | None,
                   vmod: Path | None) -> Iterator[Path]:
    """The position to load: --position as given, or --vsav written as one for the loader."""
    if (position is None) == (vsav is None):
        raise click.UsageError("give --position or --vsav (one of them)")
    if position is not None:
        yield position
        return
    assert vsav is not None
    # The save is read by the VASSAL reader, then loaded like any position file.
    import tempfile

    from pipeline.vassal.save import save_position  # only for --vsav: keeps a question fast

    _, read, left_out = save_position(vsav, vmod, game_dir=game)
    for piece, why in left_out:
        click.echo(f"bocage: warning: {vsav}: '{piece.name}' not in the position: {why}",
                   err=True)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{vsav.name}.position.json"
        document = {"kind": "position", **read.model_dump(mode="json", exclude_defaults=True)}
        path.write_text(json.dumps(document), encoding="utf-8")
        try:
            yield path
        except DataError as exc:
            if exc.file != str(path):
                raise
            raise DataError(f"{vsav} (read as a position)", exc.path, exc.message) from None


def _save_picture(path: Path, picture: Image.Image, quiet: bool) -> None:
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=True)
    write_bytes_atomic(path, out.getvalue())
    if not quiet:
        click.echo(f"picture: {path}", err=True)


@click.group(cls=OneLineErrorsGroup, context_settings=HELP)
def rules() -> None:
    """Answer rules questions: legal moves, zones of control, stacking, supply, LOS.

    GAME is a game folder (map.json and rules.json, with units.csv there or in
    counters/<game>/). Every answer names the rule that decided it, citing the
    rulebook and section. Exit codes: 0 yes / all passed, 1 no / findings, 2 bad input;
    with --quiet a command prints nothing (but a failing case's lines) and the exit code
    answers.
    """


def _engine(game: GameFolder, position: Path | None, phase: str | None = None,
            saved: Path | None = None) -> Engine:
    # A saved game keeps a hex both sides hold (a combat not yet resolved, a piece
    # dropped in the wrong hex): that hex is reported and its units' moves refused;
    # their supply and every other question are answered.
    situation = load_game(game, position, "refuse" if saved is None else "report")
    if phase is not None:
        situation = dataclasses.replace(situation, state={**situation.state, "phase": phase})
    board = situation.state.get("board")
    if board is not None:
        # On stderr: --json output on stdout stays one document.
        click.echo(f"answered on board {board} alone (the map data does not say how its"
                   " boards join)", err=True)
    engine = Engine(situation)
    for units in situation.mixed_hexes.values():
        v = engine.mixed_hex(units[0])
        assert v is not None
        click.echo(f"bocage: warning: {saved}: {v.reason}{_cite(v.rule)}: their moves are"
                   " not answered; their supply and every other question are, with the"
                   " pieces where the save has them", err=True)
    return engine


def _speaker(quiet: bool) -> Callable[[str], None]:
    """What a command prints its answer with: nothing under --quiet, where the exit code
    answers (0 yes, 1 no)."""
    def silent(text: str) -> None:
        del text

    return silent if quiet else click.echo


def _cite(rule: str | None) -> str:
    return f" ({rule})" if rule else ""


def _hex(engine: Engine, text: str, what: str) -> Hex:
    if not engine.grid.has_id(text):
        raise DataError(None, what, f"hex '{text}' is not on the map "
                        f"({engine.grid.describe_extent()})")
    return engine.grid.hex(text)


@rules.command()
@GAME
@_position_or_save
@UNIT
@click.option("--phase", help="Ask as if in this phase (e.g. movement, mobile_movement).")
@PICTURE
@json_option
@quiet_option
def moves(game: Path, position: Path | None, vsav: Path | None, vmod: Path | None, unit_id: str,
          phase: str | None, picture: Path | None, as_json: bool, quiet: bool) -> None:
    """Where can this unit go? Reachable hexes, minimum MP, one cheapest path each.

    With --picture, the reachable hexes are tinted over the map from light (cheap) to
    dark (the whole MA) with their cost, the cheapest paths drawn from the start hex,
    and the hexes refused next to them crossed.
    """
    folder = GameFolder(game)
    with _position_file(folder, position, vsav, vmod) as position_path:
        engine = _engine(folder, position_path, phase, saved=vsav)
    try:
        reach = engine.reachable(unit_id, paths=True)  # every path is printed
    except DataError as exc:
        if vsav is None or exc.file is not None:
            raise
        # The unit is the save's (unknown there, or in a hex both sides hold).
        raise DataError(str(vsav), exc.path, exc.message) from None
    if picture is not None:
        from pipeline.render.answers import moves_picture  # only for --picture

        _save_picture(picture, moves_picture(folder.map_data(), engine.situation, reach,
                                             unit_id), quiet)
    if as_json:
        emit_json(reach.to_dict(engine.name))
        return
    say = _speaker(quiet)
    say(f"{unit_id} from {engine.name(reach.start)}: {len(reach.costs)} hexes")
    for h, cost in sorted(reach.costs.items(), key=lambda kv: (str(kv[1]), engine.name(kv[0]))):
        path = " ".join(engine.name(x) for x in reach.paths[h])
        say(f"  {engine.name(h)}  {cost!s:>7}  {path}")


@rules.command("check-move")
@GAME
@POSITION
@UNIT
@click.option("--path", "path_text", required=True,
              help="Comma-separated hexes from the start hex: 2318,2317,2217.")
@click.option("--phase", help="Ask as if in this phase.")
@click.option("--overrun", is_flag=True,
              help="Check the path as an overrun: each enemy hex it enters is overrun as"
                   " the game's rules.json 'overrun' says, and the overrun taken as won.")
@json_option
@quiet_option
def check_move(game: Path, position: Path, unit_id: str, path_text: str, phase: str | None,
               overrun: bool, as_json: bool, quiet: bool) -> None:
    """Is this path legal? Exit 0 if so, 1 with the first illegal step if not."""
    engine = _engine(GameFolder(game), position, phase)
    path = [_hex(engine, h.strip(), "--path") for h in path_text.split(",") if h.strip()]
    result = engine.check_path(unit_id, path, overrun=overrun)
    if as_json:
        emit_json(result.to_dict())
    elif result.verdict.legal:
        _speaker(quiet)(f"legal: {result.cost} MP")
    else:
        v = result.verdict
        _speaker(quiet)(f"illegal at {v.at}: {v.reason}{_cite(v.rule)}")
    if not result.verdict.legal:
        raise SystemExit(1)


@rules.command()
@GAME
@_position_or_save
@click.option("--side", help="Only units of this side.")
@PICTURE
@json_option
@quiet_option
def supply(game: Path, position: Path | None, vsav: Path | None, vmod: Path | None,
           side: str | None, picture: Path | None, as_json: bool, quiet: bool) -> None:
    """Is each unit in supply? All units traced in one pass; exit 1 if any is not.

    On a --vsav save, a unit sharing its hex with the enemy is answered too: its
    line starts in its own hex, and no other unit's line enters that hex.

    With --picture, units are drawn over the map green (in supply, with the line they
    traced and its source ringed) or red (out of supply).
    """
    folder = GameFolder(game)
    with _position_file(folder, position, vsav, vmod) as position_path:
        engine = _engine(folder, position_path, saved=vsav)
    ids = [u.id for u in engine.situation.units
           if u.hex is not None and (side is None or u.side == side)]
    answers = engine.supply(ids)
    if picture is not None:
        from pipeline.render.answers import supply_picture  # only for --picture

        _save_picture(picture, supply_picture(folder.map_data(), engine.situation, answers),
                      quiet)
    if as_json:
        emit_json({i: a.to_dict(engine.name) for i, a in answers.items()})
    else:
        say = _speaker(quiet)
        for i, a in answers.items():
            state = "in supply" if a.in_supply else "OUT OF SUPPLY"
            say(f"{i:<12} {state:<14} {a.reason}{_cite(a.rule)}")
    if not all(a.in_supply for a in answers.values()):
        raise SystemExit(1)


@rules.command()
@GAME
@_position_or_save
@json_option
@quiet_option
def stacking(game: Path, position: Path | None, vsav: Path | None, vmod: Path | None,
             as_json: bool, quiet: bool) -> None:
    """Does every occupied hex respect the stacking limits? Exit 1 if not.

    On a --vsav save, a hex holding units of both sides is reported with them.
    """
    folder = GameFolder(game)
    with _position_file(folder, position, vsav, vmod) as position_path:
        engine = _engine(folder, position_path, saved=vsav)
    verdicts = {engine.name(h): engine.stacking(h) for h in sorted(engine.situation.occupants)}
    mixed = {engine.name(h) for h in engine.situation.mixed_hexes}
    if as_json:
        emit_json({h: v.to_dict() for h, v in verdicts.items()})
    else:
        say = _speaker(quiet)
        for h, v in verdicts.items():
            state = "ok" if v.legal else "OVERSTACKED"
            if h in mixed:
                state = "BOTH SIDES"
            say(f"{h}  {state}  {v.reason}{_cite(v.rule)}")
    if not all(v.legal for v in verdicts.values()):
        raise SystemExit(1)


@rules.command()
@GAME
@click.option("--from", "from_hex", required=True, help="Hex of the observer.")
@click.option("--to", "to_hex", required=True, help="Hex of the target.")
@click.option("--position", "-p", type=InputPath(),
              help="Position file, when units or markers matter.")
@json_option
@quiet_option
def los(game: Path, from_hex: str, to_hex: str, position: Path | None, as_json: bool,
        quiet: bool) -> None:
    """Is the line of sight clear? Exit 0 if so, 1 if blocked."""
    engine = _engine(GameFolder(game), position)
    verdict = engine.los(_hex(engine, from_hex, "--from"), _hex(engine, to_hex, "--to"))
    if as_json:
        emit_json({"clear": verdict.legal, "rule": verdict.rule, "at": verdict.at,
                   "reason": verdict.reason})
    else:
        _speaker(quiet)(("clear" if verdict.legal else f"blocked at {verdict.at}")
                   + f": {verdict.reason}")
    if not verdict.legal:
        raise SystemExit(1)


@rules.command("explain")
@GAME
@json_option
@quiet_option
def explain_rules(game: Path, as_json: bool, quiet: bool) -> None:
    """Print, in words, every rule the validator applies to GAME, with its citation.

    One line per rule the game's rules.json gives (movement, zones of control,
    stacking, supply, line of sight), then one per procedure its system adds, each
    with the citation the answers quote, so a builder can check the reading of the
    profile before trusting the answers. --json prints a list of {"topic", "rule",
    "text", "key"}: key is the rules.json key (or the system's procedure) it comes
    from.
    """
    from pipeline.rules.explain import TOPICS, explain  # the questions never need these
    from pipeline.rules.profilecheck import check_profile_keys

    profile = GameFolder(game).rules()
    check_profile_keys(profile)
    lines = explain(profile)
    if as_json:
        emit_json([line.to_dict() for line in lines])
        return
    say = _speaker(quiet)
    alone = ": the kernel alone" if profile.system == "generic" else ""
    say(f"{profile.title or profile.game} (system {profile.system}{alone}), from"
               f" {profile.source}: the rules the validator applies, with the citation each"
               " answer gives")
    for topic in TOPICS:
        these = [line for line in lines if line.topic == topic]
        if these:
            say(f"\n{topic}")
        for line in these:
            say(f"  - {line.text}{_cite(line.rule)}")


@rules.command("test")
@click.argument("files", nargs=-1, required=True, type=InputPath())
@json_option
@quiet_option
def test_cases(files: tuple[Path, ...], as_json: bool, quiet: bool) -> None:
    """Run rules scenario files (SCENARIOS.md format). Exit 1 if any case fails.

    A case whose question the engine cannot answer counts as failed, never skipped.
    --json prints {"passed": N, "failed": M, "cases": [{"id", "passed", "expected",
    "actual", ...}]}.
    """
    from pipeline.rules import load_cases, run_cases  # the questions never need these

    results = [r for f in files for r in run_cases(load_cases(f))]
    passed = sum(r.passed for r in results)
    if as_json:
        doc: dict[str, Any] = {"passed": passed, "failed": len(results) - passed,
                               "cases": [r.to_dict() for r in results]}
        emit_json(doc)
    else:
        width = max((len(r.id) for r in results), default=10)
        say = _speaker(quiet)
        for r in results:
            # Under --quiet the failures still print: they are the findings.
            (say if r.passed else click.echo)(
                f"{'PASS' if r.passed else 'FAIL'}  {r.id:<{width}}  {r.kind}")
            for problem in r.problems:
                click.echo(f"      {problem}")
        say(f"{passed} passed, {len(results) - passed} failed")
    if passed != len(results):
        raise SystemExit(1)
