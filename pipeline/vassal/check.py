"""``bocage vassal check``: what VASSAL 3.6/3.7 would stumble over in a module or build file.

Each finding is one line with a severity:

* ``error``: VASSAL drops an element, fails to load, or a piece cannot be
  built: an unknown ``VASSAL.*`` class, a number that does not parse where
  VASSAL parses it, a piece definition that does not decode or whose TYPE and
  STATE counts differ, duplicate gpids or one not below ``nextPieceSlotId``,
  a referenced image missing from the archive, a set-up location the grid does
  not name, a ``moduledata`` that sends VASSAL to the wrong build file;
* ``warning``: loads, but probably not as meant (an unknown trait id becomes
  an empty Marker, a missing ``owningBoard``, a map without drag-and-drop);
* ``note``: what could not be checked (images of a bare build file, custom
  classes the archive would supply).

A bare build file (no ZIP) is checked the same way, minus what needs the
archive's other entries.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# lxml ships no type hints; the ignore stays harmless if lxml-stubs is installed.
from lxml import etree  # type: ignore[import-untyped, unused-ignore]

from pipeline.errors import ModuleError, did_you_mean
from pipeline.vassal.board import MAX_SIDE
from pipeline.vassal.encoding import Decoder, PieceDefinition, Trait, decode
from pipeline.vassal.location import VassalHexGrid
from pipeline.vassal.read import ModuleSource, image_size, read_module, vassal_version_of
from pipeline.vassal.vocabulary import (
    CHILD_TAGS,
    ERROR,
    INT,
    KNOWN_TAGS,
    NUMERIC_ATTRIBUTES,
    ROOT_TAGS,
    TRAIT_IDS,
)

__all__ = ["CheckReport", "Finding", "check_module", "check_source", "piece_texts",
           "trait_images"]

M = "VASSAL.build.module."
BOARD = M + "map.boardPicker.Board"
HEX_GRID = M + "map.boardPicker.board.HexGrid"
NUMBERING = M + "map.boardPicker.board.mapgrid.HexGridNumbering"
ZONE = M + "map.boardPicker.board.mapgrid.Zone"
REGION = M + "map.boardPicker.board.Region"
PIECE_SLOT = "VASSAL.build.widget.PieceSlot"
CARD_SLOT = "VASSAL.build.widget.CardSlot"
PROTOTYPE = M + "PrototypeDefinition"
SETUP_STACK = M + "map.SetupStack"
MAP_HELPERS = ("PieceMover", "KeyBufferer", "MenuDisplayer", "StackExpander")


@dataclass(frozen=True)
class Finding:
    """One problem: severity (``error``/``warning``/``note``), where, what."""

    severity: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.severity}: {self.where}: {self.message}"


@dataclass
class CheckReport:
    """All findings of a check, with counts of what was looked at."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """No errors (warnings and notes allowed)."""
        return not any(f.severity == "error" for f in self.findings)

    def add(self, severity: str, where: str, message: str) -> None:
        self.findings.append(Finding(severity, where, message))

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return {"path": self.path, "ok": self.ok, "counts": self.counts,
                "findings": [{"severity": f.severity, "where": f.where, "message": f.message}
                             for f in self.findings]}


def _text(element: Any) -> str:
    # VASSAL concatenates the TEXT nodes only (CDATA is skipped), then trims.
    return "".join(element.xpath("text()")).strip()


def _where(element: Any) -> str:
    name = (element.get("entryName") or element.get("name") or element.get("mapName")
            or element.get("location"))
    short = element.tag.rsplit(".", 1)[-1]
    label = f"{short} '{name}'" if name else short
    return f"line {element.sourceline}: {label}"


def piece_texts(root: Any) -> Iterator[tuple[Any, str]]:
    """Every piece definition of a build file: ``(element, text)``."""
    for element in root.iter(PIECE_SLOT, CARD_SLOT, PROTOTYPE):
        yield element, _text(element)


def trait_images(trait: Trait) -> list[str]:
    """Image names a trait refers to (BasicPiece, Layer levels, Mark When Moved)."""
    fields = trait.fields
    if trait.id == "piece;" and len(fields) >= 3:
        return [fields[2]] if fields[2] else []
    if trait.id == "emb2;" and len(fields) >= 16:
        return [i for i in decode(fields[15], ",") if i]
    if trait.id == "markmoved;" and fields:
        return [fields[0]] if fields[0] else []
    return []


# -- the checks ------------------------------------------------------------------------


def _check_tags(root: Any, report: CheckReport, source: ModuleSource) -> None:
    if root.tag not in ROOT_TAGS:
        report.add("error", f"line {root.sourceline}", f"root element {root.tag} is not"
                   " VASSAL.build.GameModule: VASSAL would not read this as a module")
    custom: set[str] = set()
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue  # comments, processing instructions
        tag = element.tag
        if tag in KNOWN_TAGS:
            continue
        parent = element.getparent()
        if parent is not None and tag in CHILD_TAGS.get(parent.tag, ()):
            continue
        if parent is not None and any(tag in CHILD_TAGS.get(a.tag, ())
                                      for a in element.iterancestors()):
            continue
        if tag.startswith("VASSAL."):
            report.add("error", _where(element), f"VASSAL has no class {tag}"
                       f"{did_you_mean(tag, KNOWN_TAGS)}: the element and its contents would be"
                       " dropped")
        elif "." in tag:
            custom.add(tag)
        else:
            report.add("warning", _where(element), f"element <{tag}> is not a class VASSAL"
                       " builds (ignored or a load error)")
    for tag in sorted(custom):
        class_file = tag.replace(".", "/") + ".class"
        if source.is_archive and class_file not in source.entries:
            report.add("error", tag, f"custom class {tag} is not in the archive ({class_file})")
        elif not source.is_archive:
            report.add("note", tag, f"custom class {tag}: must be supplied by the module"
                       f" archive as {class_file} (not checked on a bare build file)")


def _parses(value: str, kind: str) -> bool:
    try:
        number = int(value) if kind == INT else float(value)
    except ValueError:
        return False
    if kind == INT:
        return -2**31 <= number < 2**31
    return math.isfinite(number)


def _check_numbers(root: Any, report: CheckReport) -> None:
    for tag, attributes in NUMERIC_ATTRIBUTES.items():
        elements = [root] if root.tag == tag else list(root.iter(tag))
        for element in elements:
            for name, (kind, severity) in attributes.items():
                value = element.get(name)
                if value is None or _parses(value.strip() if kind != INT else value, kind):
                    continue
                if severity == ERROR:
                    effect = "VASSAL drops this element (and what it holds)"
                    if element is root:
                        effect = "VASSAL refuses to load the module"
                else:
                    effect = "VASSAL falls back to a default"
                report.add(severity, _where(element), f"{name}=\"{value}\" is not"
                           f" {'an integer' if kind == INT else 'a number'}: {effect}")


def _check_pieces(root: Any, report: CheckReport, source: ModuleSource,
                  images: set[str]) -> None:
    prototypes = {e.get("name") for e in root.iter(PROTOTYPE)}
    unknown_traits: Counter[str] = Counter()
    checked = 0
    for element, text in piece_texts(root):
        if b"<![CDATA[" in etree.tostring(element, with_tail=False):
            report.add("error", _where(element), "piece definition in a CDATA section: VASSAL"
                       " reads only plain text nodes, so it sees an empty or cut definition")
            continue
        if not text:
            report.add("error" if element.tag != PROTOTYPE else "warning", _where(element),
                       "empty piece definition (a CDATA section is not read by VASSAL)")
            continue
        checked += 1
        try:
            piece_id, types, states = PieceDefinition.split(text)
        except ModuleError as exc:
            report.add("error", _where(element), f"piece definition does not decode: {exc}")
            continue
        if len(types) != len(states):
            report.add("error", _where(element), f"{len(types)} trait types but {len(states)}"
                       " states: VASSAL cannot build this piece (SequenceEncoder error)")
            continue
        for type_text, state in zip(types, states, strict=True):
            trait = Trait(type_text, state)
            if trait.id not in TRAIT_IDS:
                unknown_traits[trait.id] += 1
            if trait.id == "prototype;":
                name = Decoder(type_text, ";").rest()[1:2]
                if name and name[0] not in prototypes:
                    hint = did_you_mean(name[0], [p for p in prototypes if p])
                    report.add("warning", _where(element), f"uses prototype '{name[0]}', which"
                               f" the module does not define{hint}")
            for image in trait_images(trait):
                if not image.startswith("/"):
                    images.add(image)
    for trait_id, count in sorted(unknown_traits.items()):
        report.add("warning", trait_id, f"unknown trait id in {count} piece definition(s):"
                   " VASSAL replaces it with an empty Marker")
    report.counts["piece_definitions"] = checked


def _check_gpids(root: Any, report: CheckReport) -> None:
    slots = list(root.iter(PIECE_SLOT, CARD_SLOT))
    seen: dict[str, Any] = {}
    without = 0
    next_id = root.get("nextPieceSlotId")
    limit = int(next_id) if next_id is not None and _parses(next_id, INT) else None
    for slot in slots:
        gpid = slot.get("gpid")
        if gpid is None or gpid == "":
            without += 1
            continue
        if gpid in seen:
            report.add("error", _where(slot), f"gpid {gpid} is also used at line"
                       f" {seen[gpid].sourceline}: counter refresh would mix them up")
        seen[gpid] = slot
        if limit is not None and _parses(gpid, INT) and int(gpid) >= limit:
            report.add("error", _where(slot), f"gpid {gpid} is not below nextPieceSlotId {limit}:"
                       " new slots would reuse it")
    if without:
        report.add("note", "gpid", f"{without} piece slot(s) have no gpid (older modules have"
                   " none; VASSAL's Editor assigns them)")
    report.counts["piece_slots"] = len(slots)


def _check_images(root: Any, report: CheckReport, source: ModuleSource, images: set[str]) -> None:
    for board in root.iter(BOARD):
        if board.get("image"):
            images.add(board.get("image"))
    for tag in (M + "documentation.AboutScreen", "VASSAL.build.widget.Chart"):
        for element in root.iter(tag):
            if element.get("fileName"):
                images.add(element.get("fileName"))
    report.counts["images_referenced"] = len(images)
    if not source.is_archive:
        if images:
            report.add("note", "images", f"{len(images)} image(s) referenced; a bare build file"
                       " has no images/ to check them against")
        return
    for board in root.iter(BOARD):
        size = image_size(source, board.get("image") or "")
        if size is not None and max(size) > MAX_SIDE:
            report.add("warning", _where(board), f"board image is {size[0]}x{size[1]} px, over"
                       f" {MAX_SIDE} px on a side: VASSAL may run out of memory tiling it")
    for name in sorted(images):
        if name.startswith("/"):
            continue  # a resource inside VASSAL's own jar
        if f"images/{name}" not in source.entries:
            close = did_you_mean(name, [e[len("images/"):] for e in source.entries
                                        if e.startswith("images/")])
            report.add("error", f"images/{name}", f"referenced but not in the archive{close}")


def _grid_of(board: Any) -> tuple[Any, Any] | None:
    for grid in board.iter(HEX_GRID):
        return grid, grid.find(NUMBERING)
    return None


def _check_setup(root: Any, report: CheckReport, source: ModuleSource) -> None:
    stacks = 0
    for the_map in root.iter(M + "Map", M + "PrivateMap", M + "PlayerHand"):
        boards = {b.get("name"): b for b in the_map.iter(BOARD)}
        for stack in the_map.iter(SETUP_STACK):
            stacks += 1
            if stack.get("useGridLocation") != "true":
                continue
            owner = stack.get("owningBoard")
            location = stack.get("location") or ""
            if not owner:
                if len(boards) != 1:
                    report.add("warning", _where(stack), "no owningBoard on a map with several"
                               " boards: the location is looked up on the first board")
                    continue
                owner = next(iter(boards))
            board = boards.get(owner)
            if board is None:
                report.add("error", _where(stack), f"owningBoard '{owner}' is not a board of this"
                           f" map{did_you_mean(owner, [b for b in boards if b])}")
                continue
            _check_location(stack, board, location, report, source)
    report.counts["setup_stacks"] = stacks


def _check_location(stack: Any, board: Any, location: str, report: CheckReport,
                    source: ModuleSource) -> None:
    zones = {z.get("name") for z in board.iter(ZONE, REGION)}
    if location in zones:
        return
    found = _grid_of(board)
    if found is None:
        if not zones:
            report.add("error", _where(stack), f"location '{location}' but board"
                       f" '{board.get('name')}' has no grid")
        return
    grid_el, numbering = found
    size = image_size(source, board.get("image") or "") or (0, 0)
    try:
        grid = VassalHexGrid.from_attributes(dict(grid_el.attrib),
                                             dict(numbering.attrib) if numbering is not None
                                             else None, *size)
    except ValueError:
        return  # reported by the number check
    if numbering is None:
        report.add("error", _where(stack), "the board's grid has no numbering: grid locations"
                   " cannot be found")
        return
    point = grid.location_point(location)
    if point is None or grid.location_name(*point) != location:
        report.add("error", _where(stack), f"location '{location}' is not a name the grid of"
                   f" board '{board.get('name')}' gives (VASSAL falls back to x,y)")
        return
    if size != (0, 0) and not (0 <= point[0] < size[0] and 0 <= point[1] < size[1]):
        report.add("warning", _where(stack), f"location '{location}' is at {point}, outside the"
                   f" {size[0]}x{size[1]} board image")


def _check_maps(root: Any, report: CheckReport) -> None:
    names = Counter(m.get("mapName") for m in root.iter(M + "Map"))
    for name, count in names.items():
        if count > 1:
            report.add("error", f"Map '{name}'", f"{count} maps share this mapName (must be"
                       " unique: saved games refer to maps by it)")
    for the_map in root.iter(M + "Map"):
        children = {c.tag.rsplit(".", 1)[-1] for c in the_map if isinstance(c.tag, str)}
        missing = [h for h in MAP_HELPERS if h not in children]
        if missing:
            report.add("warning", _where(the_map), f"no {', '.join(missing)}: pieces on this map"
                       " cannot be dragged, selected or right-clicked as usual")
    report.counts["maps"] = sum(names.values())


def _check_moduledata(source: ModuleSource, report: CheckReport) -> None:
    if not source.is_archive:
        return
    if source.moduledata is None:
        report.add("warning", "moduledata", "missing: the Module Manager shows no name or version")
        return
    version = vassal_version_of(source.moduledata)
    if not version:
        report.add("error", "moduledata", "no VassalVersion: VASSAL reads it as 0.0 and looks for"
                   " the legacy buildFile")
    else:
        parts = version.split(".")
        try:
            major_minor = (int(parts[0]), int(parts[1]) if len(parts) > 1 else 0)
        except ValueError:
            major_minor = (0, 0)
        if major_minor < (3, 5) and source.build_entry != "buildFile":
            report.add("error", "moduledata", f"VassalVersion {version} makes VASSAL read"
                       " 'buildFile', which is missing")
        if major_minor >= (3, 7):
            report.add("warning", "moduledata", f"VassalVersion {version}: VASSAL 3.6 refuses"
                       " this module as too new (write a 3.6.x version to reach both)")
    saved = source.moduledata.find("dateSaved")
    if saved is not None and saved.text and not saved.text.strip().isdigit():
        report.add("warning", "moduledata", f"dateSaved '{saved.text}' is not milliseconds")
    if source.moduledata.find("name") is None:
        report.add("warning", "moduledata", "no name")


def check_source(source: ModuleSource) -> CheckReport:
    """Check an opened module or build file (see the module docstring)."""
    report = CheckReport(str(source.path))
    root = source.root
    images: set[str] = set()
    _check_tags(root, report, source)
    _check_numbers(root, report)
    _check_pieces(root, report, source, images)
    _check_gpids(root, report)
    _check_images(root, report, source, images)
    _check_setup(root, report, source)
    _check_maps(root, report)
    _check_moduledata(source, report)
    return report


def check_module(path: str | Path) -> CheckReport:
    """Open a ``.vmod`` or bare build file safely and check it.

    Raises
    ------
    ModuleError
        The file cannot be read safely at all (see :mod:`pipeline.vassal.read`).
    """
    with read_module(path) as source:
        return check_source(source)
