"""Every command's input and output paths, resolved in one place before it runs.

A command declares its paths with :class:`InputPath` and :class:`OutputPath`
(in place of ``click.Path``); :func:`resolve_paths`, called by the shared
command class for every command, then checks them all together before the
command does any work:

* an input exists, is what the command takes (a file, a folder) and is a
  regular file, not a device or a pipe that could be read forever;
* an output never replaces an input: files are compared by device and inode,
  not by name, so a symbolic link, a hard link or ``./out/../out`` is caught;
  no two outputs are one file; no output folder is or holds an input folder,
  nor has an input under a name the command writes there, nor is the current
  folder or above it (it is swapped whole: the shell would be left in the old one);
* ``-`` is standard output where an output is a stream (JSON, GeoJSON, PNG,
  HTML, PDF): at most one output takes it, never with ``--json``, a binary one
  never a terminal; the command's own messages then go quiet;
* devices and pipes are written through, a symbolic link's target is written
  (:func:`pipeline.files.output_target`), and a folder that cannot be swapped
  whole is refused (:func:`pipeline.files.check_output_folder`).

Every refusal is one line naming the file and the option, and exit 2.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from pipeline.errors import DataError
from pipeline.files import STDOUT, check_output_folder, output_target

__all__ = ["InputPath", "OutputPath", "PathPlan", "RenamedOption", "check_input", "io_plan",
           "option_label", "out_dir_option", "output_option", "resolve_paths"]

if TYPE_CHECKING:  # click 8.2+ types its parameter types; at run time any click 8 works
    _PathType = click.ParamType[Path, Any]
else:
    _PathType = click.ParamType

Kind = Literal["file", "folder", "any"]
_CLICK_NAMES = {"file": "file", "folder": "directory", "any": "path"}  # metavars as click.Path


class InputPath(_PathType):
    """A path the command reads: a file, a folder, or either (``kind``).

    ``contents=True`` marks a folder all of whose files the command may read
    (counter images, charts): no output may replace one of them.
    """

    def __init__(self, kind: Kind = "file", *, contents: bool = False) -> None:
        self.kind = kind
        self.contents = contents
        self.name = _CLICK_NAMES[kind]

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Path:
        return Path(value)  # checked with the other paths in resolve_paths, in one line


class OutputPath(_PathType):
    """A path the command writes: a file, or a folder it fills (``kind``).

    Parameters
    ----------
    stream
        ``-`` means standard output (a stream format).
    binary
        The stream is binary (PNG, PDF): never written to a terminal.
    owns
        For a folder: the names in it that the command writes
        (:func:`pipeline.files.atomic_folder`).
    """

    def __init__(self, kind: Literal["file", "folder"] = "file", *, stream: bool = False,
                 binary: bool = False, owns: Callable[[str], bool] | None = None) -> None:
        self.kind = kind
        self.stream = stream
        self.binary = binary
        self.owns = owns
        self.name = _CLICK_NAMES[kind]

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Path:
        return Path(value)


class RenamedOption(click.Option):
    """An option that still accepts its former names (``former``) without showing them: a
    script written before the rename keeps working, while help and errors teach the new
    name."""

    def __init__(self, param_decls: list[str] | None = None, *,
                 former: tuple[str, ...] = (), **attrs: Any) -> None:
        super().__init__(param_decls, **attrs)
        self.former = former

    def shown(self) -> list[str]:
        """The names help and errors give."""
        return [o for o in self.opts if o not in self.former]

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        every = self.opts
        self.opts = self.shown()
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = every

    def get_error_hint(self, ctx: click.Context | None) -> str:
        return " / ".join(f"'{o}'" for o in self.shown())


Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def output_option(help: str, *, stream: bool = False, binary: bool = False,
                  required: bool = True, name: str = "out",
                  former: tuple[str, ...] = ("--out",)) -> Decorator:
    """``-o/--output``: the one file a command writes (``stream``: ``-`` is standard
    output; ``binary``: never to a terminal). Every command names it so."""
    return click.option("-o", "--output", *former, name, cls=RenamedOption, former=former,
                        required=required, type=OutputPath(stream=stream, binary=binary),
                        metavar="FILE", help=help)


def out_dir_option(help: str, *, owns: Callable[[str], bool] | None = None,
                   required: bool = True) -> Decorator:
    """``--out-dir``: the folder a command fills (``owns``: the names it writes there)."""
    return click.option("--out-dir", "--out", "out", cls=RenamedOption, former=("--out",),
                        required=required, type=OutputPath("folder", owns=owns),
                        metavar="DIR", help=help)


@dataclass(frozen=True)
class _Input:
    label: str
    path: Path
    kind: Kind
    contents: bool
    real: str
    identity: tuple[int, int]


@dataclass
class PathPlan:
    """The inputs and outputs of one command run, checked against each other.

    Commands that learn of more inputs while they run (the files a game folder
    names) add them with :meth:`add_inputs`, and outputs written beside a named
    one (``--gis map.gpkg`` writes ``map.jpg`` too) with :meth:`add_outputs`;
    both check the outputs again.
    """

    inputs: list[_Input] = field(default_factory=list)
    outputs: list[tuple[str, Path, OutputPath]] = field(default_factory=list)
    stdout: str | None = None  # the option writing to standard output, if any

    def add_inputs(self, label: str, paths: Iterable[str | Path], kind: Kind = "file") -> None:
        """Record more inputs (checked as :class:`InputPath`) and check the outputs again."""
        for path in paths:
            self.inputs.append(_check_input(label, Path(path), InputPath(kind)))
        self.check_outputs()

    def add_outputs(self, label: str, paths: Iterable[str | Path]) -> None:
        """Record more output files (written for ``label``) and check the outputs again."""
        for path in paths:
            self.outputs.append((label, Path(path), OutputPath()))
        self.check_outputs()

    def check_outputs(self) -> None:
        """Refuse an output that is an input, another output, or cannot be written."""
        seen: dict[str, str] = {}
        for label, path, kind in self.outputs:
            if str(path) == STDOUT:
                continue
            real = (_check_folder_output(label, path, kind, self.inputs) if kind.kind == "folder"
                    else _check_file_output(label, path, self.inputs))
            if real is None:
                continue  # a device or a pipe: written through, any number of times
            if real in seen:
                raise DataError(path, "", f"{label} and {seen[real]} are the same file; give"
                                " each its own name")
            seen[real] = label


def option_label(param: click.Option) -> str:
    """The name messages give an option: its longest, as help shows it (``--output``)."""
    return max(param.shown() if isinstance(param, RenamedOption) else param.opts, key=len)


def _label(param: click.Parameter) -> str:
    if isinstance(param, click.Option):
        return option_label(param)
    # An optional argument: "[DIR]"; one that takes several: "SCAN...".
    return param.human_readable_name.strip("[]").removesuffix("...")


def _file_type(mode: int) -> str:
    for test, name in ((stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
                       (stat.S_ISFIFO, "pipe"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return name
    return "special file"


def check_input(label: str, path: Path, kind: Kind = "file") -> Path:
    """Check one input as :func:`resolve_paths` does (for commands that report each alone)."""
    return _check_input(label, path, InputPath(kind)).path


def _check_input(label: str, path: Path, kind: InputPath) -> _Input:
    what = {"file": "file", "folder": "folder", "any": "file or folder"}[kind.kind]
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise DataError(path, "", f"no such {what}") from None
    except OSError as exc:
        raise DataError(path, "", f"cannot read ({exc.strerror or exc})") from None
    is_dir = stat.S_ISDIR(info.st_mode)
    if is_dir and kind.kind == "file":
        raise DataError(path, "", f"is a folder; {label} takes a file")
    if not is_dir and kind.kind == "folder":
        raise DataError(path, "", f"is not a folder; {label} takes a folder")
    if not is_dir and not stat.S_ISREG(info.st_mode):
        raise DataError(path, "", f"is a {_file_type(info.st_mode)}; {label} takes a regular"
                        " file")
    try:
        if is_dir:
            os.scandir(path).close()
        else:
            open(path, "rb").close()
    except OSError as exc:
        raise DataError(path, "", f"cannot read ({exc.strerror or exc})") from None
    return _Input(label, path, "folder" if is_dir else "file", kind.contents and is_dir,
                  os.path.realpath(path), (info.st_dev, info.st_ino))


def _writable(path: Path, given: Path) -> None:
    """Refuse, before any work, an output whose nearest existing folder cannot be written."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
        raise DataError(given, "", f"cannot write in {folder} (permission denied)")


def _same_input(path: Path, inputs: list[_Input]) -> _Input | None:
    """The input that ``path`` (an existing file) is, by device and inode."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    for item in inputs:
        if item.identity == (info.st_dev, info.st_ino):
            return item
        if item.contents and os.path.realpath(path.parent) == item.real:
            return item  # a file of a folder the command reads whole
    return None


def _check_file_output(label: str, path: Path, inputs: list[_Input]) -> str | None:
    target = output_target(path)
    if target.kind != "file" or target.path is None:
        return None
    hit = _same_input(target.path, inputs)
    if hit is not None:
        what = f"the input {hit.path}" if hit.kind == "file" else f"a file of {hit.path}"
        raise DataError(path, "", f"{label} would replace {what} ({hit.label}); choose another"
                        " file name")
    for item in inputs:
        if item.kind == "folder" and os.path.realpath(target.path) == item.real:
            raise DataError(path, "", f"is the input folder {item.path} ({item.label})")
    _writable(target.path, path)
    return str(target.path)


def _check_folder_output(label: str, path: Path, kind: OutputPath,
                         inputs: list[_Input]) -> str:
    real = os.path.realpath(path)
    here = os.path.realpath(os.getcwd())
    if here == real or here.startswith(real.rstrip(os.sep) + os.sep):
        where = "the current folder" if here == real else "above the current folder"
        raise DataError(path, "", f"{label} is {where}, and a folder output is replaced whole;"
                        f" give {label} a folder of its own inside it")
    for item in inputs:
        if item.kind == "folder" and (item.real == real or item.real.startswith(real + os.sep)):
            relation = "is" if item.real == real else "holds"
            raise DataError(path, "", f"{label} {relation} the input folder {item.path}"
                            f" ({item.label}); give {label} a folder of its own")
        if (item.kind == "file" and os.path.dirname(item.real) == real and kind.owns is not None
                and kind.owns(os.path.basename(item.real))):
            raise DataError(path, "", f"{label} would replace the input {item.path}"
                            f" ({item.label}); move it or give {label} another folder")
    check_output_folder(path, kind.owns)
    _writable(Path(real) / "x", path)
    return real


def resolve_paths(command: click.Command, ctx: click.Context) -> PathPlan:
    """Check every path parameter of ``command`` as parsed in ``ctx`` (see the module docstring).

    Stored in ``ctx.meta`` for :func:`io_plan`; sets the command's ``quiet``
    when an output takes standard output.
    """
    plan = PathPlan()
    for param in command.params:
        value = ctx.params.get(param.name or "")
        values = value if isinstance(value, tuple) else (value,)
        for item in values:
            if item is None:
                continue
            if isinstance(param.type, InputPath):
                plan.inputs.append(_check_input(_label(param), Path(item), param.type))
            elif isinstance(param.type, OutputPath):
                plan.outputs.append((_label(param), Path(item), param.type))
    for label, path, kind in plan.outputs:
        if str(path) != STDOUT:
            continue
        if not kind.stream:
            raise DataError(STDOUT, "", f"{label} writes a {kind.kind}, not a stream; give a"
                            f" {kind.kind} name")
        if plan.stdout is not None:
            raise DataError(STDOUT, "", f"{plan.stdout} and {label} both write to standard"
                            " output; give one a file name")
        if ctx.params.get("as_json"):
            raise DataError(STDOUT, "", f"--json and {label} both write to standard output;"
                            f" give {label} a file name")
        if kind.binary and sys.stdout.isatty():
            raise DataError(STDOUT, "", f"{label} writes binary data and standard output is a"
                            " terminal; redirect it to a file or a pipe")
        plan.stdout = label
    plan.check_outputs()
    if plan.stdout is not None and "quiet" in ctx.params:
        ctx.params["quiet"] = True  # the command's own words would mix with the data
    ctx.meta["bocage.paths"] = plan
    return plan


def io_plan(ctx: click.Context | None = None) -> PathPlan:
    """The :class:`PathPlan` of the running command."""
    current = ctx or click.get_current_context()
    plan = current.meta.get("bocage.paths")
    return plan if isinstance(plan, PathPlan) else PathPlan()
