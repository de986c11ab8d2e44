"""``bocage aids``: printable play aids (CRT, Terrain Effects Chart, map tiles) from a game."""

from __future__ import annotations

from pathlib import Path

import click

from pipeline.aids import is_aid_file, make_aids
from pipeline.aids.maptiles import DEFAULT_HEX_SIZE
from pipeline.cli.options import (
    HELP,
    Number,
    OneLineErrors,
    emit_json,
    json_option,
    progress_bar,
    quiet_option,
)
from pipeline.cli.paths import InputPath, out_dir_option

__all__ = ["aids"]


@click.command(cls=OneLineErrors, context_settings=HELP)
@click.argument("game_dir", type=InputPath("folder"))
@click.option("--paper", type=click.Choice(["letter", "a4"]), default="letter",
              show_default=True, help="Paper size of the PDFs.")
@out_dir_option("Folder for the PDFs and PNGs (e.g. build/GAME/aids/).", owns=is_aid_file)
@click.option("--hex-size", type=Number(min=0.1, max=3.0), default=DEFAULT_HEX_SIZE,
              show_default=True, help="Printed hex width across the flats, in inches.")
@click.option("--map-dpi", type=Number(min=20, max=600), default=150.0,
              show_default=True, help="Pixels per inch of the printed map.")
@json_option
@quiet_option
def aids(game_dir: Path, paper: str, out: Path, hex_size: float, map_dpi: float,
         as_json: bool, quiet: bool) -> None:
    """Print the play aids of GAME_DIR, as PDF for the table and PNG for a module's charts.

    Writes to --out-dir each aid the folder's data allows. Numbers the rulebook text
    does not give print as '?'; citations name the game by the rules profile's
    title ("D-Day Omaha Beach §6.1").

    \b
      crt.pdf, crt.png            combat results table (crt.json)
      tec.pdf, tec.png            terrain effects chart (rules.json, map colours)
      quickref.pdf, quickref.png  the rules the validator applies, by section
      track.pdf, track.png        turn record track: a box a turn, with the units
                                  arriving on it (scenario.json; track-NAME.* for
                                  scenario_NAME.json)
      oob.pdf, oob.png            order of battle and set-up with counters
                                  (a scenario and units.csv; oob-NAME.*)
      map.pdf, map-BOARD.png      the map at true scale, tiled over the paper
                                  (map.json)

    \b
    Example:
      bocage aids maps/demo --out-dir build/demo/aids/
    """
    with progress_bar("drawing play aids", not (quiet or as_json)) as told:
        written = make_aids(game_dir, out, paper, hex_size=hex_size, map_dpi=map_dpi,
                            progress=told)
    if as_json:
        emit_json({"files": [str(p) for p in written]})
    elif not quiet:
        for path in written:
            click.echo(str(path))
