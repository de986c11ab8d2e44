"""``bocage vassal check``: what VASSAL 3.6/3.7 would stumble over in a module or build file.

Each finding is one line with a severity:

* ``error``: VASSAL drops an element, fails to load, or a piece cannot be
  built: an unknown ``VASSAL.*`` class, a number that does not parse where
  VASSAL parses it, a piece definition that does not decode or whose TYPE and
  STATE counts differ, duplicate gpids or one not below ``nextPieceSlotId``,
  a referenced image missing from the archive, a set-up location the board's
  grid gives no point for (exactly the stacks ``preview`` lists as unresolved:
  both ask :func:`pipeline.vassal.read.place_stack`), a ``moduledata`` that
  sends VASSAL to the wrong build file;
* ``warning``: loads, but probably not as meant (an unknown trait id becomes
  an empty Marker, a missing ``owningBoard``, a set-up location whose point
  the grid names differently, a map without drag-and-drop);
* ``note``: what could not be checked (images of a bare build file, custom
  classes the archive would supply).

A bare build file (no ZIP) is checked the same way, minus what needs the
archive's other entries.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from pipeline.errors import ModuleError, did_you_mean
from pipeline.vassal.board import MAX_SIDE
from pipeline.vassal.encoding import Decoder, PieceDefinition, Trait
from pipeline.vassal.read import (
    M,
    Module,
    ModuleMap,
    PieceSlot,
    Prototype,
    StackPlacement,
    lay_out_boards,
    place_stack,
    read_module,
)
from pipeline.vassal.source import image_size, vassal_version_of
from pipeline.vassal.traits import trait_images
from pipeline.vassal.vocabulary import (
    CHILD_TAGS,
    ERROR,
    INT,
    KNOWN_TAGS,
    NUMERIC_ATTRIBUTES,
    ROOT_TAGS,
    TRAIT_IDS,
)

__all__ = ["CheckReport", "Finding", "check_module", "check_read", "setup_location_error"]

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


def _where(element: etree._Element) -> str:
    name = (element.get("entryName") or element.get("name") or element.get("mapName")
            or element.get("location"))
    short = str(element.tag).rsplit(".", 1)[-1]
    label = f"{short} '{name}'" if name else short
    return f"line {element.sourceline}: {label}"


def _at(line: int, kind: str, name: str) -> str:
    return f"line {line}: {kind} '{name}'" if name else f"line {line}: {kind}"


# -- the checks ------------------------------------------------------------------------


def _check_tags(module: Module, report: CheckReport) -> None:
    root = module.source.root
    if module.root_tag not in ROOT_TAGS:
        report.add("error", f"line {root.sourceline}", f"root element {module.root_tag} is not"
                   " VASSAL.build.GameModule: VASSAL would not read this as a module")
    custom: set[str] = set()
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue  # comments, processing instructions
        tag = element.tag
        if tag in KNOWN_TAGS:
            continue
        parent = element.getparent()
        if parent is not None and tag in CHILD_TAGS.get(str(parent.tag), ()):
            continue
        if parent is not None and any(tag in CHILD_TAGS.get(str(a.tag), ())
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
    source = module.source
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


def _check_numbers(module: Module, report: CheckReport) -> None:
    root = module.source.root
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


def _definitions(module: Module) -> list[tuple[str, PieceSlot | Prototype]]:
    return [*((_at(s.line, "CardSlot" if s.card else "PieceSlot", s.entry_name), s)
              for s in module.slots),
            *((_at(p.line, "PrototypeDefinition", p.name), p) for p in module.prototype_list)]


def _check_pieces(module: Module, report: CheckReport, images: set[str]) -> None:
    prototypes = set(module.prototypes)
    unknown_traits: Counter[str] = Counter()
    checked = 0
    for where, item in sorted(_definitions(module), key=lambda d: _line_of(d[1])):
        if item.cdata:
            report.add("error", where, "piece definition in a CDATA section: VASSAL"
                       " reads only plain text nodes, so it sees an empty or cut definition")
            continue
        if not item.text:
            report.add("error" if isinstance(item, PieceSlot) else "warning", where,
                       "empty piece definition (a CDATA section is not read by VASSAL)")
            continue
        checked += 1
        try:
            _, types, states = PieceDefinition.split(item.text)
        except ModuleError as exc:
            report.add("error", where, f"piece definition does not decode: {exc}")
            continue
        if len(types) != len(states):
            report.add("error", where, f"{len(types)} trait types but {len(states)}"
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
                    report.add("warning", where, f"uses prototype '{name[0]}', which"
                               f" the module does not define{hint}")
            for image in trait_images(trait):
                if not image.startswith("/"):
                    images.add(image)
    for trait_id, count in sorted(unknown_traits.items()):
        report.add("warning", trait_id, f"unknown trait id in {count} piece definition(s):"
                   " VASSAL replaces it with an empty Marker")
    report.counts["piece_definitions"] = checked


def _line_of(item: PieceSlot | Prototype) -> int:
    return item.line


def _check_gpids(module: Module, report: CheckReport) -> None:
    seen: dict[str, PieceSlot] = {}
    without = 0
    next_id = module.next_piece_slot_id
    limit = int(next_id) if next_id is not None and _parses(next_id, INT) else None
    for slot in module.slots:
        gpid = slot.gpid
        where = _at(slot.line, "CardSlot" if slot.card else "PieceSlot", slot.entry_name)
        if gpid is None or gpid == "":
            without += 1
            continue
        if gpid in seen:
            report.add("error", where, f"gpid {gpid} is also used at line"
                       f" {seen[gpid].line}: counter refresh would mix them up")
        seen[gpid] = slot
        if limit is not None and _parses(gpid, INT) and int(gpid) >= limit:
            report.add("error", where, f"gpid {gpid} is not below nextPieceSlotId {limit}:"
                       " new slots would reuse it")
    if without:
        report.add("note", "gpid", f"{without} piece slot(s) have no gpid (older modules have"
                   " none; VASSAL's Editor assigns them)")
    report.counts["piece_slots"] = len(module.slots)


def _check_images(module: Module, report: CheckReport, images: set[str]) -> None:
    source = module.source
    root = source.root
    boards = [b for m in module.maps for b in m.boards]
    images.update(b.image for b in boards if b.image)
    for tag in (M + "documentation.AboutScreen", "VASSAL.build.widget.Chart"):
        for element in root.iter(tag):
            name = element.get("fileName")
            if name:
                images.add(name)
    report.counts["images_referenced"] = len(images)
    if not source.is_archive:
        if images:
            report.add("note", "images", f"{len(images)} image(s) referenced; a bare build file"
                       " has no images/ to check them against")
        return
    for board in boards:
        size = image_size(source, board.image or "")
        if size is not None and max(size) > MAX_SIDE:
            report.add("warning", _at(board.line, "Board", board.name), f"board image is"
                       f" {size[0]}x{size[1]} px, over {MAX_SIDE} px on a side: VASSAL may run"
                       " out of memory tiling it")
    for name in sorted(images):
        if name.startswith("/"):
            continue  # a resource inside VASSAL's own jar
        if f"images/{name}" not in source.entries:
            close = did_you_mean(name, [e[len("images/"):] for e in source.entries
                                        if e.startswith("images/")])
            report.add("error", f"images/{name}", f"referenced but not in the archive{close}")


def setup_location_error(board: str, location: str, reason: str) -> str:
    """The one wording of a set-up location that a grid gives no point for."""
    return (f"location '{location}' is not a name the grid of board '{board}' gives"
            f" ({reason}; VASSAL falls back to x,y)")


def _check_setup(module: Module, report: CheckReport) -> None:
    stacks = 0
    for the_map in module.maps:
        placed, _ = lay_out_boards(the_map)
        for stack in the_map.stacks:
            stacks += 1
            if not stack.use_grid_location:
                continue
            where = _at(stack.line, "SetupStack", stack.name or stack.location)
            owner = stack.owning_board
            if owner is not None and the_map.board(owner) is None:
                names = [b.name for b in the_map.boards if b.name]
                report.add("error", where, f"owningBoard '{owner}' is not a board of this"
                           f" map{did_you_mean(owner, names)}")
                continue
            if owner is None and len(the_map.boards) != 1:
                report.add("warning", where, "no owningBoard on a map with several"
                           " boards: the location is looked up on the first board")
            _check_location(the_map, where, place_stack(the_map, stack, placed), report)
    report.counts["setup_stacks"] = stacks


def _check_location(the_map: ModuleMap, where: str, placement: StackPlacement,
                    report: CheckReport) -> None:
    stack, placed = placement.stack, placement.board
    if placed is None or placement.point is None:
        return  # not placed at all: an x/y or board problem, reported elsewhere
    board = placed.board
    if placement.unresolved is not None:
        report.add("error", where, setup_location_error(board.name, stack.location,
                                                        placement.unresolved))
        return
    x, y = placement.point[0] - placed.x, placement.point[1] - placed.y
    if stack.owning_board is None:
        x, y = placement.point[0] - the_map.edge[0], placement.point[1] - the_map.edge[1]
    named = board.name_at(x, y)
    if named is not None and named != stack.location:
        report.add("warning", where, f"location '{stack.location}' is placed at ({x}, {y}),"
                   f" which the grid of board '{board.name}' names '{named}'")
    if board.size_from == "image" and not (0 <= x < board.width and 0 <= y < board.height):
        report.add("warning", where, f"location '{stack.location}' is at {(x, y)}, outside"
                   f" the {board.width}x{board.height} board image")


def _check_maps(module: Module, report: CheckReport) -> None:
    maps = [m for m in module.maps if m.kind == "Map"]
    names = Counter(m.name for m in maps)
    for name, count in names.items():
        if count > 1:
            report.add("error", f"Map '{name}'", f"{count} maps share this mapName (must be"
                       " unique: saved games refer to maps by it)")
    for the_map in maps:
        missing = [h for h in MAP_HELPERS if h not in the_map.helpers]
        if missing:
            report.add("warning", _at(the_map.line, "Map", the_map.name), f"no"
                       f" {', '.join(missing)}: pieces on this map cannot be dragged, selected"
                       " or right-clicked as usual")
    report.counts["maps"] = len(maps)


def _check_moduledata(module: Module, report: CheckReport) -> None:
    source = module.source
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


def check_read(module: Module) -> CheckReport:
    """Check a module already read (see the module docstring)."""
    report = CheckReport(str(module.path))
    images: set[str] = set()
    _check_tags(module, report)
    _check_numbers(module, report)
    _check_pieces(module, report, images)
    _check_gpids(module, report)
    _check_images(module, report, images)
    _check_setup(module, report)
    _check_maps(module, report)
    _check_moduledata(module, report)
    return report


def check_module(path: str | Path) -> CheckReport:
    """Open a ``.vmod`` or bare build file safely and check it.

    Raises
    ------
    ModuleError
        The file cannot be read safely at all (see :mod:`pipeline.vassal.source`).
    """
    with read_module(path) as module:
        return check_read(module)
