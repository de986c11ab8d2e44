"""The ``bocage`` command: a thin shell over the library.

Exit codes: 0 all is well, 1 findings (a check that found problems), 2 bad
usage or bad input (one line on stderr names the file, the place and the fix).
"""

from __future__ import annotations

import click

from pipeline import __version__
from pipeline.cli.aids import aids
from pipeline.cli.check import check
from pipeline.cli.counters import counters
from pipeline.cli.digitize import digitize
from pipeline.cli.options import HELP, OneLineErrorsGroup
from pipeline.cli.rules import rules
from pipeline.cli.validate import validate
from pipeline.cli.vassal import vassal

__all__ = ["cli", "main"]


class _Bocage(OneLineErrorsGroup):
    """The root group: the library's errors as one line and exit 2; pipeline order."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        # Pipeline order reads better than alphabetical order in --help.
        order = ["check", "digitize", "validate", "counters", "aids", "vassal", "rules"]
        return [n for n in order if n in self.commands]


@click.group(cls=_Bocage, context_settings=HELP)
@click.version_option(__version__, prog_name="bocage")
def cli() -> None:
    """Digital editions of hex-and-counter wargames.

    Turn a paper map, a counter sheet and a rulebook into checked game data, counters,
    play aids and a VASSAL module, and check moves against the rules. Every stage reads
    and writes plain files (JSON, CSV, images) with published JSON Schemas in schemas/.

    \b
    Start with:  bocage check maps/demo counters/demo
    Exit codes:  0 ok, 1 findings, 2 bad usage or bad input.
    """


cli.add_command(check)
cli.add_command(digitize)
cli.add_command(aids)
cli.add_command(counters)
cli.add_command(rules)
cli.add_command(validate)
cli.add_command(vassal)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="bocage")
