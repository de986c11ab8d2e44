"""Flags, bounded option types and the command class every command shares.

:class:`OneLineErrors` is the class of every ``bocage`` command and group: it
resolves the command's paths in one place (:mod:`pipeline.cli.paths`) before
the command runs, prints the library's errors and click's usage errors as one
line with exit code 2, and a Ctrl-C as one line with exit code 130.

:func:`digitize_options` is the one set of options that say how to read a scan
(the grid, its size, anchors, terrain examples), shared by ``bocage digitize``
and ``bocage validate --scan`` so both read a scan exactly alike;
:func:`reading_setup` turns them into what :func:`pipeline.digitize.digitize_scan`
takes.

The option types bound what a user types, checked before any file is read:
:class:`Number` (a finite number in a range), :class:`Length` and
:class:`Offset` (lengths such as ``3mm`` within the library's limits) and
:class:`Text` (a name of sane length with no control characters).
"""

from __future__ import annotations

import json
import logging
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from pipeline.errors import BocageError, DataError, GridError
from pipeline.progress import Told

if TYPE_CHECKING:
    from pipeline.hexgrid import HexGrid

__all__ = ["HELP", "Length", "Number", "Offset", "OneLineErrors", "OneLineErrorsGroup",
           "ReadingSetup", "Text", "digitize_options", "emit_json", "json_option",
           "parse_anchor", "parse_key", "parse_sample", "quiet_option", "reading_setup"]


if TYPE_CHECKING:  # click 8.2+ types its parameter types; at run time any click 8 works
    _TextType = click.ParamType[str, Any]
else:
    _TextType = click.ParamType

# Every command also answers -h: set on each group and command, not only the root,
# because click caches a command's help option the first time it runs alone.
HELP: dict[str, Any] = {"help_option_names": ["-h", "--help"]}


def json_option[F: Callable[..., Any]](f: F) -> F:
    """``--json``: print the result as JSON on stdout (stable, for scripts)."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print the result as JSON (for scripts)."
    )(f)


def quiet_option[F: Callable[..., Any]](f: F) -> F:
    """``--quiet``: print nothing but errors."""
    return click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")(f)


class _Told(logging.Handler):
    """The library's log as bocage's own lines on standard error (the stream of the
    running command, looked up per line: a test's runner swaps it)."""

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(f"bocage: {record.getMessage()}", err=True)


def _verbosity(ctx: click.Context, param: click.Parameter, value: int) -> None:
    """Sets what the library tells for this run (every command's ``-v``, even when not
    given: a run never inherits the last one's)."""
    log = logging.getLogger("pipeline")
    for handler in [h for h in log.handlers if isinstance(h, _Told)]:
        log.removeHandler(handler)
    if value:
        log.addHandler(_Told())
        log.setLevel(logging.INFO if value == 1 else logging.DEBUG)
        log.propagate = False
    else:
        log.setLevel(logging.NOTSET)
        log.propagate = True


def verbose_option() -> click.Option:
    """``-v/--verbose``: each file read and written and each long stage's time, on
    standard error (``-vv``: each image too). Every command has it (:class:`OneLineErrors`)."""
    return click.Option(["-v", "--verbose"], count=True, expose_value=False,
                        callback=_verbosity, help="Also tell each file read and written and"
                        " each long stage's time, on standard error (-vv: every image).")


@contextmanager
def progress_bar(label: str, show: bool) -> Iterator[Told]:
    """A bar on standard error that a long step moves by calling ``told(done, total,
    what)``; made on its first call, when the total is known. Shown on a terminal only,
    and never under ``--quiet`` or ``--json`` (``show``): a pipe or a script reads no bar.
    """
    if not (show and sys.stderr.isatty()):
        yield lambda done, total, what: None
        return
    with ExitStack() as stack:
        bars: list[Any] = []

        def told(done: int, total: int, what: str) -> None:
            if not bars:
                bars.append(stack.enter_context(click.progressbar(
                    length=total, label=label, file=sys.stderr, item_show_func=lambda s: s)))
            bars[0].update(done - bars[0].pos, what)

        yield told


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
    elif isinstance(exc, click.NoSuchOption) and exc.ctx is not None:
        # Click suggests from every name an option takes; suggest the name it is shown by.
        names = sorted({_shown_name(exc.ctx.command, p) for p in exc.possibilities or ()})
        shown = ", ".join(repr(n) for n in names)
        message = exc.message
        if len(names) == 1:
            message += f" Did you mean {shown}?"
        elif names:
            message += f" (Did you mean one of: {shown}?)"
    else:
        message = exc.format_message()
    return f"bocage: {where}{_flat(message).rstrip('.')} (see '{path} --help')"


def _hint(param: click.Parameter) -> str:
    from pipeline.cli.paths import option_label

    return option_label(param) if isinstance(param, click.Option) else param.human_readable_name


def _shown_name(command: click.Command, name: str) -> str:
    """``name`` as help shows it: a former name of a renamed option becomes its new one."""
    from pipeline.cli.paths import RenamedOption, option_label

    for param in command.params:
        if isinstance(param, RenamedOption) and name in param.former:
            return option_label(param)
    return name


def _exit(code: int) -> NoReturn:
    sys.exit(code)


class OneLineErrors(click.Command):
    """A command that resolves its paths first and reports every failure in one line.

    Used by the root group and by every command or group, so that a stage
    behaves the same when its command object is run on its own.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # -h too when the command is run on its own: click keeps a command's help option
        # from the first context that asks, and a command without a parent has no -h.
        kwargs["context_settings"] = {**HELP, **(kwargs.get("context_settings") or {})}
        super().__init__(*args, **kwargs)
        if not isinstance(self, click.Group):  # a group's would be reset by its command's
            self.params.append(verbose_option())

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


# -- how to read a scan: shared by `bocage digitize` and `bocage validate --scan` ----------

MAX_ANCHORS = 200  # hex centres measured by hand: a few dozen at most
MAX_EXAMPLES = 2000  # --sample and --key options: a few per terrain are what a reading needs
_STAGGER = {"flat": "even-down", "pointy": "even-right"}  # the usual numbering


def parse_anchor(text: str) -> tuple[str, tuple[float, float]]:
    """``"0101=120.5,88"`` -> ``("0101", (120.5, 88.0))``.

    >>> parse_anchor("0101=120.5,88")
    ('0101', (120.5, 88.0))
    """
    hex_id, sep, xy = text.partition("=")
    parts = xy.split(",")
    try:
        if not sep or not hex_id or len(parts) != 2:
            raise ValueError
        x, y = float(parts[0]), float(parts[1])
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError
        return hex_id.strip(), (x, y)
    except ValueError:
        raise DataError(None, "--anchor", f"{text!r} is not HEX=X,Y (the pixel centre of a hex,"
                        " e.g. 0101=120.5,88)") from None


def parse_sample(text: str) -> tuple[str, list[str]]:
    """``"woods=0412,0415"`` -> ``("woods", ["0412", "0415"])``.

    >>> parse_sample("woods=0412, 0415")
    ('woods', ['0412', '0415'])
    """
    name, sep, ids = text.partition("=")
    hexes = [h.strip() for h in ids.split(",")]
    if not sep or not name.strip() or not all(hexes):
        raise DataError(None, "--sample", f"{text!r} is not TERRAIN=HEX[,HEX...] (e.g."
                        " woods=0412,0415)")
    return name.strip(), hexes


def parse_key(text: str) -> tuple[str, tuple[float, float, float, float]]:
    """``"woods=1550,300,80,70"`` -> ``("woods", (1550.0, 300.0, 80.0, 70.0))``.

    >>> parse_key("woods=1550,300,80,70")
    ('woods', (1550.0, 300.0, 80.0, 70.0))
    """
    name, sep, box = text.partition("=")
    parts = box.split(",")
    try:
        if not sep or not name.strip() or len(parts) != 4:
            raise ValueError
        x, y, w, h = (float(p) for p in parts)
    except ValueError:
        raise DataError(None, "--key", f"{text!r} is not TERRAIN=X,Y,W,H (the pixel box of the"
                        " terrain's swatch in the printed key, e.g. woods=1550,300,80,70)"
                        ) from None
    return name.strip(), (x, y, w, h)


def digitize_options[F: Callable[..., Any]](f: F) -> F:
    """The options that say how to read a scan: ``--grid``, ``--cols/--rows``,
    ``--orientation``, ``--stagger``, ``--anchor``, ``--sample``, ``--key``, ``--train``
    (their values go to :func:`reading_setup`)."""
    from pipeline.cli.paths import InputPath

    options = [
        click.option("--grid", "grid_path", type=InputPath(),
                     help="Grid JSON (orientation, numbering, cols, rows, optional layout), or"
                     " a map.json whose grid to use. Without it the grid is found on the"
                     " scan."),
        click.option("--cols", type=click.IntRange(min=1), help="Columns the map prints (with"
                     " --rows; they choose the map among a key, a track or margins on the"
                     " scan)."),
        click.option("--rows", type=click.IntRange(min=1),
                     help="Rows the map prints (with --cols)."),
        click.option("--orientation", type=click.Choice(["flat", "pointy"]),
                     help="Flat- or pointy-top, if not found on the scan (with --cols/--rows)."),
        click.option("--stagger", metavar="WORD", help="Which lines are shifted: even-down,"
                     " odd-down (flat), even-right, odd-right (pointy); with --cols/--rows."),
        click.option("--anchor", "anchors", multiple=True, metavar="HEX=X,Y",
                     help="A hex centre on the scan, in pixels (repeat: two or more)."),
        click.option("--sample", "samples", multiple=True, metavar="TERRAIN=HEX[,HEX]",
                     type=Text(2000), help="Hexes that show a terrain: examples to learn its"
                     " look on this map from (repeatable; two or three per terrain is usually"
                     " enough)."),
        click.option("--key", "keys", multiple=True, metavar="TERRAIN=X,Y,W,H|auto",
                     type=Text(),
                     help="A terrain's swatch in the printed key, as a pixel box of the scan"
                     " (repeatable): an example like --sample. 'auto' finds every swatch by"
                     " its printed label (needs the tesseract OCR program); a terrain given"
                     " as a box keeps it."),
        click.option("--train", "train_path", type=InputPath(),
                     help="A corrected map.json of this scan: its hexes marked labelled or"
                     " corrected are examples, the rest is read again."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


@dataclass(frozen=True)
class ReadingSetup:
    """What the options of :func:`digitize_options` say about a scan, ready for
    :func:`pipeline.digitize.digitize_scan` (``grid``, ``size``, ``anchors``,
    ``samples``, ``key``, ``checked``)."""

    grid: HexGrid | None = None
    size: tuple[int, int] | None = None
    anchors: dict[str, tuple[float, float]] = field(default_factory=dict)
    samples: dict[str, list[str]] = field(default_factory=dict)
    key: dict[str, list[tuple[float, float, float, float]]] = field(default_factory=dict)
    checked: dict[str, str] = field(default_factory=dict)
    key_auto: bool = False

    def digitize_args(self) -> dict[str, Any]:
        """Keyword arguments for :func:`pipeline.digitize.digitize_scan`."""
        return {"grid": self.grid, "size": self.size, "anchors": self.anchors or None,
                "samples": self.samples, "key": self.key, "checked": self.checked,
                "key_auto": self.key_auto}


def _grid(grid: HexGrid | None, cols: int | None, rows: int | None,
          orientation: str | None, stagger: str | None
          ) -> tuple[HexGrid | None, tuple[int, int] | None]:
    """What is known of the grid: a grid (the file, the options over it) or only a size."""
    from pipeline.hexgrid import HexGrid, Numbering, Orientation

    if (cols is None) != (rows is None):
        raise DataError(None, "--cols" if cols is None else "--rows",
                        "give the map's columns and rows together (--cols N --rows M)")
    if grid is None and not (orientation or stagger):
        # Only a size (or nothing): the orientation and stagger are read off the scan.
        return None, (cols, rows) if cols is not None and rows is not None else None
    if grid is None and cols is None:
        raise DataError(None, "--orientation" if orientation else "--stagger",
                        "needs the map's size too (--cols N --rows M), or a --grid file")
    try:
        if grid is None:
            numbering = Numbering(stagger=stagger or _STAGGER[orientation or "flat"])
            grid = HexGrid(Orientation(orientation) if orientation else numbering.orientation(),
                           numbering)
        numbering = replace(grid.numbering, stagger=stagger) if stagger else grid.numbering
        kind = (Orientation(orientation) if orientation
                else numbering.orientation() if stagger else grid.orientation)
        return HexGrid(kind, numbering, cols or grid.cols, rows or grid.rows, grid.exclude,
                       grid.layout), None
    except GridError as exc:
        raise DataError(None, "--stagger" if stagger else "--orientation", str(exc)) from None


def _examples(samples: Sequence[str], keys: Sequence[str], train_path: Path | None
              ) -> tuple[dict[str, list[str]], dict[str, list[tuple[float, float, float, float]]],
                         dict[str, str]]:
    """The builder's examples from the command line: samples, key swatches, checked hexes."""
    from pipeline.model import load_map

    if len(samples) + len(keys) > MAX_EXAMPLES:
        raise DataError(None, "--sample", f"{len(samples) + len(keys)} examples, more than"
                        f" {MAX_EXAMPLES}; a few hexes per terrain teach the reading, --train"
                        " takes a corrected map")
    sample_map: dict[str, list[str]] = {}
    for text in samples:
        name, hexes = parse_sample(text)
        sample_map.setdefault(name, []).extend(hexes)
    key_map: dict[str, list[tuple[float, float, float, float]]] = {}
    for text in keys:
        name, box = parse_key(text)
        key_map.setdefault(name, []).append(box)
    checked: dict[str, str] = {}
    if train_path is not None:
        corrected = load_map(train_path)
        checked = {hex_id: entry.terrain[0] for hex_id, entry in corrected.hexes.items()
                   if entry.provenance in ("labelled", "corrected")}
        if not checked:
            raise DataError(str(train_path), "hexes", "no hex is marked \"provenance\":"
                            " \"labelled\" or \"corrected\", so there is nothing to learn from;"
                            " mark the hexes a person checked")
    return sample_map, key_map, checked


def _anchors(anchors: Sequence[str]) -> dict[str, tuple[float, float]]:
    if len(anchors) > MAX_ANCHORS:
        raise DataError(None, "--anchor", f"{len(anchors)} anchors, more than {MAX_ANCHORS};"
                        " two to a few dozen well-spread hexes fix the grid")
    anchor_map = dict(parse_anchor(a) for a in anchors)
    if len(anchor_map) != len(anchors):
        raise DataError(None, "--anchor", "a hex is anchored twice; give each hex once")
    return anchor_map


def reading_setup(grid_path: Path | None = None, cols: int | None = None,
                  rows: int | None = None, orientation: str | None = None,
                  stagger: str | None = None, anchors: Sequence[str] = (),
                  samples: Sequence[str] = (), keys: Sequence[str] = (),
                  train_path: Path | None = None, *, default_grid: HexGrid | None = None
                  ) -> ReadingSetup:
    """The :func:`digitize_options` values as a :class:`ReadingSetup`.

    ``default_grid`` is the grid when no ``--grid`` is given (``validate --scan`` gives
    the typed map's, layout and all). Bad values are one located :class:`DataError`.

    >>> setup = reading_setup(cols=30, rows=22, samples=["woods=0412,0415"])
    >>> setup.size, setup.samples
    ((30, 22), {'woods': ['0412', '0415']})
    """
    from pipeline.digitize.gridfile import load_grid

    grid = load_grid(grid_path) if grid_path is not None else default_grid
    grid, size = _grid(grid, cols, rows, orientation, stagger)
    auto = [k for k in keys if k.strip().lower() == "auto"]
    sample_map, key_map, checked = _examples(
        samples, [k for k in keys if k not in auto], train_path)
    return ReadingSetup(grid, size, _anchors(anchors), sample_map, key_map, checked,
                        key_auto=bool(auto))
