"""Opening a module (``.vmod``), a saved game (``.vsav``) or a bare build file without trusting it.

A module or a save is a ZIP from anywhere, so opening one refuses what could hurt:

* XML is parsed by lxml with entity resolution, DTD loading and network
  access off and ``huge_tree`` off; a document with a DTD (where entity bombs
  and external entities live) is refused outright;
* ZIP entries with ``..`` components or absolute paths are refused, as are
  archives with too many entries or more than :data:`MAX_TOTAL` bytes once
  decompressed (counted while reading, not taken from the headers, which lie);
* only the entries asked for are decompressed, each up to a bound; images are
  looked at through their headers.

A file that is not a ZIP is read as a bare build file (the samples in
``shared/reference/vassal-samples`` are), so ``check`` works on both. What the
build file *means* is :mod:`pipeline.vassal.read`'s business.
"""

from __future__ import annotations

import logging
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from lxml import etree

from pipeline.errors import ImageError, ModuleError
from pipeline.imagefile import probe_image

__all__ = [
    "MAX_ENTRIES",
    "MAX_TOTAL",
    "MAX_XML",
    "ModuleSource",
    "image_size",
    "open_archive",
    "open_module",
    "parse_xml",
    "read_bounded",
    "vassal_version_of",
]

MAX_ENTRIES = 100_000
MAX_TOTAL = 2 * 1024 ** 3  # bytes, decompressed, over all entries
MAX_XML = 64 * 1024 ** 2  # bytes, one build file or moduledata
BUILD_FILES = ("buildFile.xml", "buildFile")


def _parser() -> etree.XMLParser:
    # strip_cdata=False keeps CDATA visible: VASSAL ignores CDATA text, so check must see it.
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=False, remove_blank_text=False,
                           strip_cdata=False)


def parse_xml(data: bytes, where: str) -> etree._Element:
    """Parse untrusted XML; refuse DTDs and entity references.

    Raises
    ------
    ModuleError
        Malformed XML, a DTD, or an entity reference.

    Examples
    --------
    >>> parse_xml(b"<data><name>m</name></data>", "moduledata").findtext("name")
    'm'
    """
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        raise ModuleError(where, f"not well-formed XML ({exc})") from None
    tree = root.getroottree()
    if tree.docinfo.doctype or tree.docinfo.internalDTD is not None:
        raise ModuleError(where, "the XML has a DTD (<!DOCTYPE ...>); modules never need one and"
                          " it is where entity bombs and external entities hide: refused")
    if any(isinstance(node, etree._Entity) for node in root.iter()):
        raise ModuleError(where, "the XML uses entity references: refused")
    return root


@dataclass
class ModuleSource:
    """What was opened: the build file tree, moduledata, and the archive's entry names.

    Attributes
    ----------
    path
        The file read.
    build_entry
        ``buildFile.xml`` or ``buildFile`` inside a module; ``None`` for a bare file.
    root
        The build file's root element.
    moduledata
        ``moduledata``'s root element, if present.
    entries
        Entry names of the archive (empty for a bare build file).
    """

    path: Path
    build_entry: str | None
    root: etree._Element
    moduledata: etree._Element | None
    entries: frozenset[str]
    _archive: zipfile.ZipFile | None = None

    @property
    def is_archive(self) -> bool:
        """Whether this came from a ZIP (so images and classes can be checked)."""
        return self.build_entry is not None

    def read_entry(self, name: str, limit: int = MAX_XML) -> bytes:
        """Decompress one entry, refusing more than ``limit`` bytes."""
        if self._archive is None or name not in self.entries:
            raise ModuleError(self.path, f"no entry '{name}' in the archive")
        return read_bounded(self._archive, name, limit, self.path)

    def head(self, name: str, size: int) -> bytes | None:
        """The first ``size`` bytes of an entry (``None``: no such entry or unreadable)."""
        if self._archive is None or name not in self.entries:
            return None
        try:
            with self._archive.open(name) as stream:
                return stream.read(size)
        except _BROKEN:
            return None

    def close(self) -> None:
        """Close the archive, if one is open."""
        if self._archive is not None:
            self._archive.close()
            self._archive = None

    def __enter__(self) -> ModuleSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# What reading a damaged archive raises: a bad CRC, cut-off or corrupt deflate data, a
# version or method zipfile does not know, a header that makes no sense (ValueError), an
# entry flagged as encrypted (RuntimeError: modules are never encrypted).
_log = logging.getLogger(__name__)  # what was read, for --verbose
_BROKEN = (zipfile.BadZipFile, OSError, EOFError, zlib.error, NotImplementedError, ValueError,
           RuntimeError)


def read_bounded(archive: zipfile.ZipFile, name: str, limit: int, path: Path) -> bytes:
    """Decompress entry ``name``, refusing more than ``limit`` bytes (``ModuleError``)."""
    try:
        with archive.open(name) as stream:
            data = stream.read(limit + 1)
    except _BROKEN as exc:
        raise ModuleError(path, f"entry '{name}' cannot be read: the archive is truncated or"
                          f" broken ({exc})") from None
    if len(data) > limit:
        raise ModuleError(path, f"entry '{name}' decompresses to more than {limit} bytes: refused")
    return data


def _safe_name(name: str) -> bool:
    posix = PurePosixPath(name.replace("\\", "/"))
    return not (posix.is_absolute() or ".." in posix.parts or (len(name) > 1 and name[1] == ":"))


def _check_archive(archive: zipfile.ZipFile, path: Path) -> None:
    infos = archive.infolist()
    if len(infos) > MAX_ENTRIES:
        raise ModuleError(path, f"{len(infos)} entries, more than {MAX_ENTRIES}: refused")
    for info in infos:
        if not _safe_name(info.filename):
            raise ModuleError(path, f"entry '{info.filename}' has an absolute path or '..':"
                              " refused (it could write outside a folder when unpacked)")
    declared = sum(info.file_size for info in infos)
    if declared > MAX_TOTAL:
        raise ModuleError(path, f"entries decompress to {declared} bytes, more than"
                          f" {MAX_TOTAL} bytes: refused")


def _measure(archive: zipfile.ZipFile, path: Path) -> None:
    # Headers can lie about sizes: count the real bytes, stopping at the bound.
    total = 0
    for info in archive.infolist():
        try:
            with archive.open(info) as stream:
                while chunk := stream.read(1 << 20):
                    total += len(chunk)
                    if total > MAX_TOTAL:
                        raise ModuleError(path, f"entries decompress to more than {MAX_TOTAL}"
                                          " bytes: refused")
        except _BROKEN as exc:
            raise ModuleError(path, f"entry '{info.filename}' cannot be read: the archive is"
                              f" truncated or broken ({exc})") from None


def open_archive(path: Path, *, measure: bool = True) -> zipfile.ZipFile:
    """Open a ZIP that came from anywhere, after the checks above (the caller closes it).

    Raises
    ------
    ModuleError
        Not a readable ZIP, unsafe entry names, too many entries or bytes.
    """
    try:
        archive = zipfile.ZipFile(path)
    except _BROKEN as exc:
        raise ModuleError(path, f"not a readable ZIP ({exc})") from None
    try:
        _check_archive(archive, path)
        if measure:
            _measure(archive, path)
    except _BROKEN as exc:
        archive.close()
        raise ModuleError(path, f"broken archive ({exc})") from None
    except BaseException:
        archive.close()
        raise
    _log.info("read %s: %d entries", path, len(archive.infolist()))
    return archive


def open_module(path: str | Path, *, measure: bool = True) -> ModuleSource:
    """Open a ``.vmod`` (or a bare build file) for reading.

    Parameters
    ----------
    path
        The module, or a build file (``buildFile.xml``/``buildFile``) on its own.
    measure
        Decompress every entry once to prove the total stays under :data:`MAX_TOTAL`.

    Raises
    ------
    ModuleError
        Unsafe or broken input, with the reason on one line.
    """
    file = Path(path)
    if not file.is_file():
        raise ModuleError(file, "no such file")
    if not zipfile.is_zipfile(file):
        if file.stat().st_size > MAX_XML:
            raise ModuleError(file, f"a bare build file over {MAX_XML} bytes: refused")
        return ModuleSource(file, None, parse_xml(file.read_bytes(), str(file)), None,
                            frozenset())
    archive = open_archive(file, measure=measure)
    try:
        names = frozenset(archive.namelist())
        moduledata = None
        if "moduledata" in names:
            moduledata = parse_xml(read_bounded(archive, "moduledata", MAX_XML, file),
                                   f"{file}:moduledata")
        entry = _build_entry(names, moduledata)
        if entry is None:
            raise ModuleError(file, "no buildFile.xml (or legacy buildFile): not a VASSAL module")
        root = parse_xml(read_bounded(archive, entry, MAX_XML, file), f"{file}:{entry}")
    except BaseException:
        archive.close()
        raise
    return ModuleSource(file, entry, root, moduledata, names, archive)


def vassal_version_of(moduledata: etree._Element | None) -> str | None:
    """``VassalVersion`` text of a moduledata root, or ``None``."""
    node = moduledata.find("VassalVersion") if moduledata is not None else None
    return (node.text or "").strip() if node is not None else None


def _build_entry(names: frozenset[str], moduledata: etree._Element | None) -> str | None:
    # VASSAL reads buildFile.xml unless moduledata says the module predates 3.5.
    version = vassal_version_of(moduledata)
    if version is not None and _major_minor(version) < (3, 5):
        return "buildFile" if "buildFile" in names else None
    for name in BUILD_FILES:
        if name in names:
            return name
    return None


def _major_minor(version: str) -> tuple[int, int]:
    parts = version.split(".")
    try:
        return int(parts[0]), int(parts[1]) if len(parts) > 1 else 0
    except ValueError:
        return 0, 0


def image_size(source: ModuleSource, name: str) -> tuple[int, int] | None:
    """Pixel size of ``images/NAME`` from its header (``None`` if unreadable)."""
    head = source.head(f"images/{name}", 1 << 20)  # enough for any header we read
    if head is None:
        return None
    try:
        info = probe_image(head, f"{source.path}: images/{name}", check_size=False)
    except ImageError:
        return None
    return info.width, info.height
