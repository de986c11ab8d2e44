"""Writing outputs whole or not at all, and only where they belong.

Every file bocage writes goes through :func:`atomic_file` and every folder it
fills through :func:`atomic_folder` (ARCHITECTURE.md, "Conventions"):

* A regular file is written to a temporary sibling and renamed over the
  target, so a crash, a Ctrl-C or a refused input leaves the old file or the
  new one, never half of one. A symbolic link is followed: its target is
  replaced and the link kept.
* A character device or a pipe (``/dev/null``, ``/dev/stdout``, a FIFO) is
  written through, never replaced by a regular file; ``-`` is standard output.
  The bytes are made first, so an error part-way writes nothing there either.
* A folder is made as a temporary sibling and swapped in with one rename, so
  it holds the old set of files or the new one, never a mix. Files in it that
  the writer does not make are kept (hard-linked into the new folder).
* Temporary files and folders are named ``.NAME.PID.XXXXXXXX.bocage-tmp``;
  the ones a killed run left behind (its process is gone) are removed by the
  next write of the same target.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import secrets
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Literal, cast

from pipeline.errors import DataError

__all__ = [
    "STDOUT",
    "FolderWriter",
    "StagedFolder",
    "Target",
    "atomic_file",
    "atomic_folder",
    "check_output_folder",
    "clean_leftovers",
    "output_target",
    "write_bytes_atomic",
    "write_text_atomic",
]

STDOUT = "-"
"""The output name that means standard output."""

_log = logging.getLogger(__name__)  # what was written, for --verbose
_STEM = 80  # characters of the target's name kept in a temporary name (NAME_MAX is 255 bytes)
_SPOOL = 32 << 20  # bytes a stream output is held in memory before spilling to a temporary file
_LEFTOVER = re.compile(r"\.(?P<stem>.*)\.(?P<pid>\d+)\.[0-9a-f]{8}\.bocage-(?P<what>tmp|old)")


def _cannot(path: str | Path, exc: OSError, what: str = "cannot write file") -> DataError:
    return DataError(str(path), "", f"{what} ({exc.strerror or exc})")


# -- where an output goes ------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """Where an output goes, as :func:`output_target` resolved it.

    Attributes
    ----------
    given
        The name as the user wrote it (for messages).
    path
        The regular file to replace (symbolic links followed), or the device or
        pipe to write through; ``None`` for standard output.
    kind
        ``"file"`` (replaced by rename), ``"stream"`` (written through) or
        ``"stdout"``.
    """

    given: str
    path: Path | None
    kind: Literal["file", "stream", "stdout"]


def _file_type(mode: int) -> str:
    for test, name in ((stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket"),
                       (stat.S_ISDIR, "folder")):
        if test(mode):
            return name
    return "special file"


def _through_descriptor(path: Path) -> bool:
    """Whether ``path`` names an open descriptor (``/dev/stdout``, ``/dev/fd/1``).

    Such a name resolves to whatever the descriptor is open on, a regular file
    when the shell redirected it: that file must be written through, not
    replaced, or the redirection would keep writing to the old one.
    """
    current = os.path.abspath(path)
    for _ in range(40):  # the kernel's own limit on links followed
        folder = os.path.realpath(os.path.dirname(current))
        if re.fullmatch(r"/proc/[^/]+/fd", folder) or folder == "/dev/fd":
            return True
        if not os.path.islink(current):
            return False
        current = os.path.join(os.path.dirname(current), os.readlink(current))
    return False


def output_target(path: str | Path) -> Target:
    """Resolve an output name: a file to replace, a stream to write through, or stdout.

    Raises :class:`DataError` for a folder, a block device or a socket.

    >>> output_target("-").kind, output_target("/dev/null").kind
    ('stdout', 'stream')
    >>> import tempfile, pathlib
    >>> output_target(pathlib.Path(tempfile.mkdtemp()) / "new.json").kind
    'file'
    """
    given = str(path)
    if given == STDOUT:
        return Target(given, None, "stdout")
    name = Path(path)
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        # A new file, or a link to one not made yet: the file the link names is written.
        return Target(given, Path(os.path.realpath(name)), "file")
    except OSError as exc:
        raise _cannot(given, exc) from None
    if stat.S_ISREG(mode) and not _through_descriptor(name):
        return Target(given, Path(os.path.realpath(name)), "file")
    if stat.S_ISREG(mode) or stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return Target(given, name, "stream")
    if stat.S_ISDIR(mode):
        raise DataError(given, "", "is a folder; give a file name")
    raise DataError(given, "", f"is a {_file_type(mode)}; bocage writes files, character"
                    " devices and pipes")


# -- leftovers of killed runs ---------------------------------------------------------------


def _temp_name(name: str, what: str = "tmp") -> str:
    return f".{name[:_STEM]}.{os.getpid()}.{secrets.token_hex(4)}.bocage-{what}"


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if sys.platform == "win32":
        # os.kill(pid, 0) sends CTRL_C_EVENT there, not a probe: another process's
        # leftovers are kept rather than risk removing a live run's files.
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process: not ours to judge
    return True


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def clean_leftovers(folder: str | Path, name: str) -> list[Path]:
    """Remove what killed writes of ``folder/name`` left behind; return what was removed.

    Only names this module makes are touched, and only those of processes that
    are gone. A folder whose swap was cut between its two renames is put back
    (the old folder returns when the new one never arrived).

    >>> import tempfile, pathlib
    >>> where = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (where / ".out.json.999999999.0123abcd.bocage-tmp").write_bytes(b"half")
    >>> [p.name for p in clean_leftovers(where, "out.json")]
    ['.out.json.999999999.0123abcd.bocage-tmp']
    """
    place = Path(folder)
    stem = name[:_STEM]
    try:
        entries = sorted(os.scandir(place), key=lambda e: e.name)
    except OSError:
        return []
    removed: list[Path] = []
    for entry in entries:
        match = _LEFTOVER.fullmatch(entry.name)
        if match is None or match["stem"] != stem or _alive(int(match["pid"])):
            continue
        path = place / entry.name
        if match["what"] == "old" and not os.path.lexists(place / name):
            try:
                os.rename(path, place / name)  # the swap never finished: the old folder returns
                continue
            except OSError:
                pass
        _remove(path)
        removed.append(path)
    return removed


# -- files -----------------------------------------------------------------------------------


@contextmanager
def _replacing(real: Path, given: str) -> Iterator[BinaryIO]:
    folder = real.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _cannot(given, exc, "cannot make its folder") from None
    clean_leftovers(folder, real.name)
    tmp = folder / _temp_name(real.name)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                     0o600)
    except OSError as exc:
        raise _cannot(given, exc) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        try:
            mode = stat.S_IMODE(os.stat(real).st_mode)
        except FileNotFoundError:
            mode = 0o644  # the temporary file is private (0600); outputs are ordinary files
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise _cannot(given, exc) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _write_through(spool: BinaryIO, target: Target) -> None:
    sys.stdout.flush()  # what was printed before goes first
    try:
        if target.path is None:
            out = sys.stdout.buffer
            shutil.copyfileobj(spool, out)
            out.flush()
            return
        # Appending: a device or pipe does not care, and a file the shell
        # redirected (>>) keeps what it had.
        fd = os.open(target.path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "wb") as fh:
            shutil.copyfileobj(spool, fh)
    except OSError as exc:
        raise _cannot(target.given, exc) from None


@contextmanager
def atomic_file(path: str | Path) -> Iterator[BinaryIO]:
    """Open a binary file that becomes ``path`` whole when the block ends.

    ``path`` may be ``-`` (standard output), a device or a pipe (written
    through), a symbolic link (its target is replaced) or a file, new or old
    (replaced by rename; its folder is made if needed). On any error nothing is
    written and ``path`` is left as it was; an :class:`OSError` becomes a
    one-line :class:`DataError` naming the file.

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.bin"
    >>> with atomic_file(target) as fh:
    ...     _ = fh.write(b"whole")
    >>> target.read_bytes()
    b'whole'
    """
    target = output_target(path)
    if target.kind == "file":
        assert target.path is not None
        with _replacing(target.path, target.given) as fh:
            yield fh
        _log.info("wrote %s", target.given)
        return
    with tempfile.SpooledTemporaryFile(max_size=_SPOOL) as spool:
        yield cast(BinaryIO, spool)
        spool.seek(0)
        _write_through(cast(BinaryIO, spool), target)


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write bytes to ``path`` all at once (see :func:`atomic_file`)."""
    with atomic_file(path) as fh:
        fh.write(data)


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write text as UTF-8 with ``\\n`` line ends to ``path`` all at once."""
    write_bytes_atomic(path, text.encode("utf-8"))


# -- folders ---------------------------------------------------------------------------------


def _is_ours(name: str, owns: Callable[[str], bool] | None) -> bool:
    """Whether an old entry is the writer's (dropped unless made again) or kept."""
    return name.endswith(".bocage-tmp") or (owns is not None and owns(name))


def check_output_folder(path: str | Path, owns: Callable[[str], bool] | None = None) -> Path:
    """The folder :func:`atomic_folder` would replace, checked before any work is done.

    Returns the real folder (a symbolic link followed). Refuses a file, and a
    folder holding sub-folders the writer would not make (they cannot be
    carried over in one step; give the output a folder of its own).

    >>> import tempfile
    >>> check_output_folder(tempfile.mkdtemp()).is_dir()
    True
    """
    given = str(path)
    if given == STDOUT:
        raise DataError(given, "", "a folder is written here, not a stream; give a folder")
    real = Path(os.path.realpath(path))
    if os.path.lexists(real) and not real.is_dir():
        raise DataError(given, "", "is a file; give a folder")
    if not real.is_dir():
        return real
    try:
        entries = list(os.scandir(real))
    except OSError as exc:
        raise _cannot(given, exc, "cannot read the folder") from None
    for entry in sorted(entries, key=lambda e: e.name):
        if not _is_ours(entry.name, owns) and entry.is_dir(follow_symlinks=False):
            raise DataError(given, "", f"holds a folder '{entry.name}' that is not an output;"
                            " give a folder of its own")
    return real


def _plain_new_name(name: str) -> None:
    if not name or name in (".", "..") or "/" in name or "\0" in name:
        raise ValueError(f"not a new plain file name: {name!r}")


@dataclass(frozen=True)
class StagedFolder:
    """Where the files of a folder being made go until the swap, for other processes.

    :attr:`FolderWriter.staged` gives it to worker processes (it pickles), which write
    their files here themselves; the writer is then told their names
    (:meth:`FolderWriter.add`). The folder still appears whole or not at all: these
    files are in the temporary folder until the writer swaps it in.

    Attributes
    ----------
    staging
        The temporary folder.
    given
        The folder as the user gave it (for messages).
    """

    staging: Path
    given: str

    def write(self, name: str, data: bytes) -> None:
        """Write one new file (refused if the name is taken or is not a plain name)."""
        _plain_new_name(name)
        try:
            # One open, write and close a file: no buffered file object for bytes in hand,
            # and no flush (the folder is made durable in one, before the swap: _flush).
            fd = os.open(os.path.join(self.staging, name),
                         os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                         0o644)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
        except OSError as exc:
            raise _cannot(self.given, exc) from None


@dataclass
class FolderWriter:
    """The files of a folder being made by :func:`atomic_folder`.

    Attributes
    ----------
    staging
        The temporary folder the files go to until the swap.
    folder
        The folder they will be in.
    """

    staging: Path
    folder: Path
    given: str
    names: list[str] = field(default_factory=list)
    _taken: set[str] = field(default_factory=set, repr=False)

    @property
    def staged(self) -> StagedFolder:
        """The temporary folder, for worker processes to write files into themselves."""
        return StagedFolder(self.staging, self.given)

    def write(self, name: str, data: bytes) -> Path:
        """Write one file of the folder; returns where it will be after the swap, spelt
        as the folder was given (messages keep the user's names, not the real path)."""
        self._claim(name)
        self.staged.write(name, data)
        return self._took(name)

    def add(self, name: str) -> Path:
        """Count a file another process wrote through :attr:`staged` as one of the folder's;
        returns where it will be after the swap, as :meth:`write` does."""
        self._claim(name)
        return self._took(name)

    def _claim(self, name: str) -> None:
        _plain_new_name(name)
        if name in self._taken:
            raise ValueError(f"not a new plain file name: {name!r}")

    def _took(self, name: str) -> Path:
        self._taken.add(name)
        self.names.append(name)
        return Path(self.given) / name


def _flush(staging: Path, names: list[str]) -> None:
    """Make a staged folder's files durable before the swap: one ``syncfs`` of its file
    system where the platform has it (Linux), else one flush a file.

    A folder of thousands of counter faces paid a flush a file (7% of the time
    of 4,042 faces); one flush of the file system is the same guarantee.
    """
    import ctypes  # here, not above: a command that writes no folder does not load it

    libc = ctypes.CDLL(None, use_errno=True)
    syncfs = getattr(libc, "syncfs", None)
    if syncfs is not None:
        fd = os.open(staging, os.O_RDONLY)
        try:
            if syncfs(fd) == 0:
                return
        finally:
            os.close(fd)
    for name in names:
        fd = os.open(staging / name, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _carry_over(old: Path, new: Path, made: set[str], owns: Callable[[str], bool] | None,
                given: str) -> None:
    """Hard-link the old folder's other files into the new one (same files, not copies)."""
    for entry in sorted(os.scandir(old), key=lambda e: e.name):
        if entry.name in made or _is_ours(entry.name, owns):
            continue
        source, copy = old / entry.name, new / entry.name
        if entry.is_symlink():
            os.symlink(os.readlink(source), copy)
        elif entry.is_dir(follow_symlinks=False):
            raise DataError(given, "", f"holds a folder '{entry.name}' that is not an output;"
                            " give a folder of its own")
        else:
            try:
                os.link(source, copy, follow_symlinks=False)
            except OSError:
                shutil.copy2(source, copy, follow_symlinks=False)  # a file system without links


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2``, macOS ``renamex_np``), if possible."""
    if sys.platform == "win32":
        return False  # no C library to look the calls up in (CDLL(None) fails there)
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    renamex = getattr(libc, "renamex_np", None)
    if renameat2 is not None:
        done = renameat2(-100, os.fsencode(a), -100, os.fsencode(b), 2)  # AT_FDCWD, EXCHANGE
    elif renamex is not None:
        done = renamex(os.fsencode(a), os.fsencode(b), 2)  # RENAME_SWAP
    else:
        return False
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False  # this file system cannot swap: two renames instead
    raise OSError(code, os.strerror(code), str(b))


def _swap_in(staging: Path, folder: Path) -> None:
    """Put ``staging`` at ``folder``; afterwards ``staging`` holds the old folder, if any."""
    if not os.path.lexists(folder):
        os.rename(staging, folder)
        return
    if _exchange(staging, folder):
        return
    # Cut between these two renames, the next run puts the old folder back.
    old = folder.parent / _temp_name(folder.name, "old")
    os.rename(folder, old)
    os.rename(staging, folder)
    os.rename(old, staging)


@contextmanager
def atomic_folder(path: str | Path,
                  owns: Callable[[str], bool] | None = None) -> Iterator[FolderWriter]:
    """Make the files of a folder, then swap the folder in whole when the block ends.

    Parameters
    ----------
    path
        The folder; made if missing, a symbolic link followed.
    owns
        Which names in the folder are the writer's: old ones not made again are
        dropped. Every other file is kept as it was. ``None``: only files made
        again are replaced.

    On any error, or a Ctrl-C, the folder is left as it was. An
    :class:`OSError` becomes a one-line :class:`DataError` naming the folder.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "faces"
    >>> with atomic_folder(out) as folder:
    ...     _ = folder.write("a.png", b"new")
    >>> sorted(p.name for p in out.iterdir())
    ['a.png']
    """
    given = str(path)
    real = check_output_folder(path, owns)
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _cannot(given, exc, "cannot make its folder") from None
    clean_leftovers(real.parent, real.name)
    staging = real.parent / _temp_name(real.name)
    try:
        staging.mkdir(0o755)
        if real.is_dir():
            os.chmod(staging, stat.S_IMODE(os.stat(real).st_mode))
    except OSError as exc:
        _remove(staging)
        raise _cannot(given, exc) from None
    try:
        writer = FolderWriter(staging, real, given)
        yield writer
        _flush(staging, writer.names)
        if real.is_dir():
            _carry_over(real, staging, set(writer.names), owns, given)
        _swap_in(staging, real)
        _log.info("wrote %s (%d files)", given, len(writer.names))
    except OSError as exc:
        raise _cannot(given, exc) from None
    finally:
        _remove(staging)
