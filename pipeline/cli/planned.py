"""Stages of the pipeline that are designed but not built yet.

Each appears in ``bocage --help`` with what it will do, and says so honestly
(exit 2) when run, rather than pretending to work.
"""

from __future__ import annotations

import click

__all__ = ["PLANNED", "planned_command"]

# Short listings for `bocage --help`, keyed like PLANNED.
SHORT: dict[str, str] = {
    "digitize": "Read a map scan into terrain data.",
}

# name -> (what it does, the command line it will take)
PLANNED: dict[str, tuple[str, str]] = {
    "digitize": (
        "Read a map scan into hex terrain and hexside data (OpenCV + Shapely).",
        "bocage digitize SCAN --legend LEGEND.json --out map.json",
    ),
}


def planned_command(name: str) -> click.Command:
    """A command that explains it is not built yet."""
    summary, usage = PLANNED[name]

    @click.command(
        name,
        help=f"{summary}\n\nNot built yet in this version. Planned usage: {usage}",
        short_help=f"[not built yet] {SHORT[name]}",
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
        add_help_option=True,
    )
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def command(args: tuple[str, ...]) -> None:
        raise click.UsageError(
            f"'bocage {name}' is not built yet in this version; planned usage: {usage}"
        )

    return command
