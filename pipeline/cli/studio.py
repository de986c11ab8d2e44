"""``bocage studio``: digitize, correct and check a map in the browser."""

from __future__ import annotations

import webbrowser
from pathlib import Path

import click

from pipeline.cli.digitize import parse_anchor
from pipeline.cli.options import HELP, OneLineErrors
from pipeline.cli.paths import InputPath
from pipeline.errors import DataError

__all__ = ["studio"]


@click.command(cls=OneLineErrors, short_help="Digitize, correct and check a map in the browser.",
               context_settings=HELP)
@click.argument("folder", metavar="[GAME_FOLDER]", default=".", type=InputPath("folder"))
@click.option("--scan", type=InputPath("file"),
              help="The map scan (default: the image the map.json's board names).")
@click.option("--anchor", "anchors", multiple=True, metavar="HEX=X,Y",
              help="A hex centre on the scan, in pixels, for a grid not found alone (repeat:"
              " two or more).")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="Port on 127.0.0.1 (0: any free one).")
@click.option("--no-browser", is_flag=True, help="Print the address; do not open a browser.")
def studio(folder: Path, scan: Path | None, anchors: tuple[str, ...], port: int,
           no_browser: bool) -> None:
    """Open a game folder's map and its scan in the browser, to check and correct.

    Shows the scan with bocage's reading over it: the fitted grid with hex ids,
    terrain coloured by its confidence (unsure hexes ringed), hexside features,
    hex symbols and validate's findings (click one to fly to it). Drag an anchor to
    fix the grid; click a hex and press a key to give its terrain (the reading learns
    from it); click a hexside to toggle a feature; N walks the hexes the reading
    suggests labelling next (digitize --suggest). Save writes GAME_FOLDER/map.json
    (the previous one kept as map.json.bak) with who says each hex is so: read,
    labelled or corrected.

    The studio answers only on 127.0.0.1, and only to the address it prints (it
    holds a random token). Stop it with Ctrl+C.

    \b
    Examples:
      bocage studio maps/demo
      bocage studio maps/mygame --scan scans/board.jpg --port 9000 --no-browser
      bocage studio maps/mygame --anchor 0101=88,92 --anchor 2522=1012,1047
    """
    try:
        from pipeline.studio import StudioServer, Workspace
    except ImportError as exc:  # the studio extra is not installed
        raise click.ClickException(f"bocage studio needs its web server ({exc.name}): pip install"
                                   " 'bocage[studio]'") from None

    pinned = dict(parse_anchor(a) for a in anchors)
    if len(pinned) != len(anchors):
        raise DataError(None, "--anchor", "a hex is anchored twice; give each hex once")
    workspace = Workspace(folder, scan, pinned or None)
    server = StudioServer(workspace, port)
    click.echo(f"bocage studio: {workspace.map_path} on {workspace.scan_path}")
    click.echo(f"open {server.url}  (Ctrl+C stops)")
    if not no_browser:
        webbrowser.open(server.url)
    server.run()
