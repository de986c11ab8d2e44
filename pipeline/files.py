"""Writing output files whole or not at all.

Every file bocage writes goes through a temporary file in the same folder and
a rename, so a crash or a refused input leaves the old file or the new one,
never half of one (ARCHITECTURE.md, "Conventions").
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from pipeline.errors import DataError

__all__ = ["atomic_file", "write_bytes_atomic", "write_text_atomic"]


@contextmanager
def atomic_file(path: str | Path) -> Iterator[BinaryIO]:
    """Open a temporary binary file that replaces ``path`` when the block ends.

    The folder is made if needed. On any error the temporary file is removed
    and ``path`` is left as it was; an :class:`OSError` becomes a one-line
    :class:`DataError` naming the file.

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.bin"
    >>> with atomic_file(target) as fh:
    ...     _ = fh.write(b"whole")
    >>> target.read_bytes()
    b'whole'
    """
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise DataError(path, "", f"cannot write file ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        # mkstemp makes the file private (0600); outputs are ordinary files.
        os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists() else 0o644)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise DataError(path, "", f"cannot write file ({exc.strerror or exc})") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write bytes to ``path`` all at once (see :func:`atomic_file`)."""
    with atomic_file(path) as fh:
        fh.write(data)


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write text as UTF-8 with ``\\n`` line ends to ``path`` all at once."""
    write_bytes_atomic(path, text.encode("utf-8"))
