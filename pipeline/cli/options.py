"""Flags and output helpers several commands share."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from pipeline.errors import BocageError

__all__ = ["HELP", "OneLineErrors", "OneLineErrorsGroup", "emit_json", "json_option",
           "quiet_option"]

F = TypeVar("F", bound=Callable[..., Any])

# Every command also answers -h: set on each group and command, not only the root,
# because click caches a command's help option the first time it runs alone.
HELP: dict[str, Any] = {"help_option_names": ["-h", "--help"]}


def json_option(f: F) -> F:
    """``--json``: print the result as JSON on stdout (stable, for scripts)."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print the result as JSON (for scripts)."
    )(f)


def quiet_option(f: F) -> F:
    """``--quiet``: print nothing but errors."""
    return click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")(f)


def emit_json(data: Any) -> None:
    """Write ``data`` as deterministic, indented JSON to stdout."""
    json.dump(data, sys.stdout, indent=2, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")


class OneLineErrors(click.Command):
    """A command that prints the library's errors as one line and exits 2.

    Used by the root group and by every command or group, so that a stage
    behaves the same when its command object is run on its own.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BocageError as exc:
            click.echo(f"bocage: {exc}", err=True)
            ctx.exit(2)


class OneLineErrorsGroup(OneLineErrors, click.Group):
    """:class:`OneLineErrors` for a group of commands."""
