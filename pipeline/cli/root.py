"""The root ``bocage`` group: its subcommands, loaded when one runs, and the entry point.
"""

from __future__ import annotations

import importlib

import click

from pipeline import __version__
from pipeline.cli.options import HELP, OneLineErrorsGroup

__all__ = ["COMMANDS", "cli", "main"]

#: Every subcommand: its module and its one-line help, in pipeline order (it reads better
#: than alphabetical order in --help). A subcommand's module, and the libraries it needs
#: (OpenCV, scikit-learn, reportlab, shapely, lxml), is imported only when that subcommand
#: runs, so `bocage --version` and `bocage --help` start at once; a test holds each line
#: here to the command's own help.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("pipeline.cli.demo", "Run every stage on the bundled sample game."),
    "check": ("pipeline.cli.check",
              "Check data files and game folders against their schemas."),
    "digitize": ("pipeline.cli.digitize", "Read a map scan into terrain data."),
    "studio": ("pipeline.cli.studio", "Digitize, correct and check a map in the browser."),
    "validate": ("pipeline.cli.validate", "Check hand-entered terrain."),
    "counters": ("pipeline.cli.counters",
                 "Render counters from unit and marker manifests, and print counter sheets."),
    "aids": ("pipeline.cli.aids",
             ("Print the play aids of GAME_DIR, as PDF for the table and PNG for a module's"
             " charts.")),
    "vassal": ("pipeline.cli.vassal", "Build, inspect and check VASSAL modules."),
    "rules": ("pipeline.cli.rules",
              "Answer rules questions: legal moves, zones of control, stacking, supply, LOS."),
}


class _Bocage(OneLineErrorsGroup):
    """The root group: the library's errors as one line and exit 2; subcommands loaded lazily."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*COMMANDS, *(n for n in self.commands if n not in COMMANDS)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS and cmd_name not in self.commands:
            module = importlib.import_module(COMMANDS[cmd_name][0])
            self.add_command(getattr(module, cmd_name), cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # The listing from the table above, so that --help imports no subcommand.
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            if name in COMMANDS and name not in self.commands:
                # A stand-in shortens the line exactly as click shortens a command's help.
                text = click.Command(name, help=COMMANDS[name][1]).get_short_help_str(limit)
            else:
                command = self.get_command(ctx, name)
                text = command.get_short_help_str(limit) if command is not None else ""
            rows.append((name, text))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=_Bocage, context_settings=HELP)
@click.version_option(__version__, prog_name="bocage")
def cli() -> None:
    """Digital editions of hex-and-counter wargames.

    Turn a paper map, a counter sheet and a rulebook into checked game data, counters,
    play aids and a VASSAL module, and check moves against the rules. Every stage reads
    and writes plain files (JSON, CSV, images) with published JSON Schemas (schemas/ in
    a checkout; bocage demo copies them to DIR/sample/schemas/).

    \b
    Start with:  bocage demo
    Then:        bocage check bocage-demo/sample/maps/demo
    Exit codes:  0 ok, 1 findings, 2 bad usage or bad input.
    """


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="bocage")
