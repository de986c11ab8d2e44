"""Flags, bounded option types and the command class every command shares.

:class:`OneLineErrors` is the class of every ``bocage`` command and group: it
resolves the command's paths in one place (:mod:`pipeline.cli.paths`) before
the command runs, prints the library's errors and click's usage errors as one
line with exit code 2, and a Ctrl-C as one line with exit code 130.

The option types bound what a user types, checked before any file is read:
:class:`Number` (a finite number in a range), :class:`Length` and
:class:`Offset` (lengths such as ``3mm`` within the library's limits) and
:class:`Text` (a name of sane length with no control characters).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from pipeline.errors import BocageError

__all__ = ["HELP", "Length", "Number", "Offset", "OneLineErrors", "OneLineErrorsGroup", "Text",
           "emit_json", "json_option", "quiet_option"]

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:  # click 8.2+ types its parameter types; at run time any click 8 works
    _TextType = click.ParamType[str, Any]
else:
    _TextType = click.ParamType

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


# -- bounded option types --------------------------------------------------------------------
#
# The root command loads this module, so what checks a value (the counters' lengths, the
# model's characters, and numpy and pydantic behind them) is imported when a value is
# converted: `bocage --help` and `bocage --version` stay free of them.


class Number(click.FloatRange):
    """A finite number within ``[low, high]`` (click's range alone lets ``nan`` through)."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number", param, ctx)
        return number


class Length(_TextType):
    """A length as written (``5/8in``, ``3mm``), checked against ``limits`` in inches.

    The text is passed on as typed; the command reads it with
    :func:`pipeline.counters.measure.parse_length`.
    """

    name = "text"

    def __init__(self, limits: tuple[float, float]) -> None:
        self.limits = limits

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        from pipeline.counters.measure import check_length, parse_length  # on use: see above

        what = param.opts[-1] if isinstance(param, click.Option) else "length"
        try:
            check_length(parse_length(str(value), what), what, self.limits)
        except BocageError as exc:
            self.fail(getattr(exc, "message", str(exc)), param, ctx)
        return str(value)


class Offset(Length):
    """An ``x,y`` pair of lengths, each within ``limits`` (see :class:`Length`)."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        from pipeline.counters.measure import check_length, parse_offset  # on use: see above

        what = param.opts[-1] if isinstance(param, click.Option) else "offset"
        try:
            for part in parse_offset(str(value), what):
                check_length(part, what, self.limits)
        except BocageError as exc:
            self.fail(getattr(exc, "message", str(exc)), param, ctx)
        return str(value)


class Text(_TextType):
    """A name or label: at most ``limit`` characters, no control characters."""

    name = "text"

    def __init__(self, limit: int = 200) -> None:
        self.limit = limit

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        from pipeline.model.documents import forbidden_character  # on use: see above

        text = str(value)
        bad = forbidden_character(text)
        if bad is not None:
            self.fail(f"holds the control character {bad}", param, ctx)
        if len(text) > self.limit:
            self.fail(f"is {len(text):,} characters long, more than {self.limit}", param, ctx)
        return text


# -- the command class -----------------------------------------------------------------------


def _flat(text: str) -> str:
    return " ".join(text.split())


def _usage_line(exc: click.UsageError) -> str:
    """Click's usage error as one line: the command, the option, what is wrong, where to look."""
    path = exc.ctx.command_path if exc.ctx is not None else "bocage"
    command = path.partition(" ")[2]
    where = f"{command}: " if command else ""
    if isinstance(exc, click.BadParameter) and exc.param is not None and not isinstance(
            exc, click.MissingParameter):
        message = f"{exc.param_hint or _hint(exc.param)}: {exc.message}"
    else:
        message = exc.format_message()
    return f"bocage: {where}{_flat(message).rstrip('.')} (see '{path} --help')"


def _hint(param: click.Parameter) -> str:
    if isinstance(param, click.Option):
        return max(param.opts, key=len)
    return param.human_readable_name


def _exit(code: int) -> NoReturn:
    sys.exit(code)


class OneLineErrors(click.Command):
    """A command that resolves its paths first and reports every failure in one line.

    Used by the root group and by every command or group, so that a stage
    behaves the same when its command object is run on its own.
    """

    def invoke(self, ctx: click.Context) -> Any:
        from pipeline.cli.paths import resolve_paths

        try:
            if not isinstance(self, click.Group):
                resolve_paths(self, ctx)
            return super().invoke(ctx)
        except BocageError as exc:
            click.echo(f"bocage: {exc}", err=True)
            ctx.exit(2)
        except KeyboardInterrupt:
            # Whatever was being written is left as it was (pipeline.files).
            click.echo("bocage: interrupted", err=True)
            ctx.exit(130)

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """Run as a program: usage errors and interruptions are one line too."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as exc:
            click.echo(_usage_line(exc), err=True)
            _exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"bocage: {_flat(exc.format_message())}", err=True)
            _exit(exc.exit_code)
        except (click.Abort, KeyboardInterrupt):
            click.echo("bocage: interrupted", err=True)
            _exit(130)
        _exit(code if isinstance(code, int) else 0)


class OneLineErrorsGroup(OneLineErrors, click.Group):
    """:class:`OneLineErrors` for a group of commands; its commands get the class too."""

    command_class = OneLineErrors
