"""Writing a ``.vmod``: a plain ZIP, the same bytes for the same entries, never half-written.

Entries are written in the order given with a fixed time stamp (1980-01-01,
ZIP's earliest), fixed permissions and system, so identical inputs give a
byte-identical module. Images already compressed (PNG, JPEG, GIF) are STORED,
the rest DEFLATED. The file appears only when complete: it is written to a
temporary file beside the target and renamed.
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from pathlib import Path

from pipeline.files import atomic_file

__all__ = ["write_vmod"]

_EPOCH = (1980, 1, 1, 0, 0, 0)
_STORED_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif")


def _info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=_EPOCH)
    info.create_system = 3  # unix, whatever machine builds it
    info.external_attr = 0o100644 << 16
    stored = name.lower().endswith(_STORED_SUFFIXES)
    info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    return info


def write_vmod(path: str | Path, entries: Sequence[tuple[str, bytes]]) -> Path:
    """Write ``entries`` (archive name, bytes) as a ZIP at ``path``, atomically.

    Parameters
    ----------
    path
        The ``.vmod`` to create or replace; its folder is created if needed.
    entries
        In the order they should appear; names must be unique.
    """
    target = Path(path)
    names = [name for name, _ in entries]
    if len(set(names)) != len(names):
        raise ValueError("duplicate archive entry names")
    with atomic_file(target) as raw, zipfile.ZipFile(raw, "w") as archive:
        for name, data in entries:
            archive.writestr(_info(name), data, compresslevel=6)
    return target
