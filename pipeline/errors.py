"""The error tree: one root, typed children that carry where the problem is.

Every error a user can cause is a :class:`BocageError`; its ``str()`` is the one
line the command line prints (``file: place: what is wrong (how to fix)``).
The library never prints or exits; the CLI turns these into exit code 2.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from pathlib import Path

__all__ = [
    "BocageError",
    "DataError",
    "GridError",
    "ImageError",
    "ManifestError",
    "ModuleError",
    "did_you_mean",
]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return ``" (did you mean 'x'?)"`` for the closest choice, or ``""``.

    >>> did_you_mean("wods", ["woods", "clear"])
    " (did you mean 'woods'?)"
    """
    close = difflib.get_close_matches(word, sorted(set(choices)), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


# Everything str.splitlines() would break a line at, and the other control characters.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _one_line(text: str) -> str:
    """Control characters as escapes: a file name or entry from the user's data may hold a
    newline, and the error a person reads must still be exactly one line."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


class BocageError(Exception):
    """Root of every error bocage raises on purpose."""


class GridError(BocageError, ValueError):
    """A hex id, coordinate or grid definition that does not make sense."""


class DataError(BocageError):
    """A data file that does not load: ``file: path: message``.

    ``path`` is the place inside the document, written the way a reader
    finds it: ``hexes.0421.terrain[1]``. ``others`` are the document's other bad
    values found in the same reading, each a :class:`DataError` of its own (``bocage
    check`` prints them all; a command that stops at the first prints this one).
    """

    others: tuple[DataError, ...] = ()

    def __init__(self, file: str | Path | None, path: str, message: str) -> None:
        self.file = str(file) if file is not None else None
        self.path = path
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = [p for p in (self.file, self.path) if p]
        return _one_line(": ".join([*parts, self.message]))

    def __reduce__(self) -> tuple[type[DataError], tuple[str | None, str, str]]:
        # Rebuilt from its parts when it crosses from a worker process.
        return type(self), (self.file, self.path, self.message)


class ManifestError(BocageError):
    """A bad row in a CSV manifest: ``file:row: message``."""

    def __init__(
        self, file: str | Path | None, row: int, column: str | None, message: str
    ) -> None:
        self.file = str(file) if file is not None else None
        self.row = row
        self.column = column
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file or '<manifest>'}:{self.row}"
        return _one_line(f"{where}: {self.message}")

    def __reduce__(self) -> tuple[type[ManifestError], tuple[str | None, int, str | None, str]]:
        return type(self), (self.file, self.row, self.column, self.message)


class _FileError(BocageError):
    """An error about a whole file: ``file: message``."""

    def __init__(self, file: str | Path | None, message: str) -> None:
        self.file = str(file) if file is not None else None
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        return _one_line(f"{self.file}: {self.message}" if self.file else self.message)

    def __reduce__(self) -> tuple[type[_FileError], tuple[str | None, str]]:
        return type(self), (self.file, self.message)


class ImageError(_FileError):
    """An image that cannot be read or used: ``file: message``."""


class ModuleError(_FileError):
    """A VASSAL module that cannot be read, written or trusted: ``file: message``."""
