"""``bocage vassal inspect``: what a module holds, with piece definitions decoded.

Maps, boards (image, size, grid and numbering attributes), at-start stacks with
their locations, palette pieces and prototypes with every trait decoded: id,
the type fields, the state, and for the traits bocage writes a plain reading
(images, properties, flip command). Everything comes from the module as
:mod:`pipeline.vassal.read` reads it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.errors import ModuleError
from pipeline.vassal.encoding import PieceDefinition, Trait, decode
from pipeline.vassal.read import (
    Board,
    Module,
    PieceSlot,
    Prototype,
    SetupStack,
    read_module,
)

__all__ = ["describe_module", "describe_read", "describe_trait"]


def describe_trait(trait: Trait) -> dict[str, Any]:
    """One trait as plain data: id, type fields, state, and a reading of known traits.

    >>> describe_trait(Trait("mark;Attack", "6"))
    {'id': 'mark;', 'state': '6', 'properties': {'Attack': '6'}}
    """
    out: dict[str, Any] = {"id": trait.id, "state": trait.state}
    fields = trait.fields
    if trait.id == "mark;":
        names = decode(trait.type[len("mark;"):], ",")
        values = decode(trait.state, ",")
        out["properties"] = {n: (values[i] if i < len(values) else "") for i, n in enumerate(names)}
        return out
    out["fields"] = fields
    if trait.id == "piece;" and len(fields) >= 4:
        out["image"], out["name"] = fields[2], fields[3]
    elif trait.id == "prototype;" and fields:
        out["prototype"] = fields[0]
    elif trait.id == "emb2;" and len(fields) >= 19:
        out["layer"] = fields[18]
        out["images"] = decode(fields[15], ",")
        out["level_names"] = decode(fields[16], ",")
        out["increase_menu"] = fields[3]
        if len(fields) >= 28:
            out["increase_key"] = fields[27]
    return out


def _piece(name: str | None, gpid: str | None, line: int, text: str) -> dict[str, Any]:
    out: dict[str, Any] = {"entryName": name, "gpid": gpid, "line": line}
    try:
        piece = PieceDefinition.decode(text)
    except ModuleError as exc:
        out["error"] = exc.message
        return out
    out["traits"] = [describe_trait(t) for t in piece.traits]
    return out


def _slot(slot: PieceSlot) -> dict[str, Any]:
    return {**_piece(slot.entry_name or None, slot.gpid, slot.line, slot.text),
            "palette": slot.palette}


def _prototype(prototype: Prototype) -> dict[str, Any]:
    return _piece(prototype.name or None, None, prototype.line, prototype.text)


def _board(board: Board) -> dict[str, Any]:
    out: dict[str, Any] = {"name": board.name or None, "image": board.image}
    if board.size_from == "image":
        out["width"], out["height"] = board.width, board.height
    if board.grid_attributes is not None:
        kind, attributes, numbering = board.grid_attributes
        out["grid"] = {"type": kind, **attributes}
        if numbering is not None:
            out["numbering"] = numbering
    return out


def _stack(stack: SetupStack) -> dict[str, Any]:
    raw = stack.attributes
    return {"name": raw.get("name"), "board": raw.get("owningBoard"),
            "location": raw.get("location") if stack.use_grid_location else None,
            "x": raw.get("x"), "y": raw.get("y"),
            "pieces": [s.entry_name for s in stack.slots]}


def describe_read(module: Module) -> dict[str, Any]:
    """Plain data describing a module already read (see the module docstring)."""
    head = {k: module.attributes.get(k)
            for k in ("name", "version", "VassalVersion", "nextPieceSlotId")}
    maps = [{"name": m.name or None, "boards": [_board(b) for b in m.boards],
             "setup_stacks": [_stack(s) for s in m.stacks]} for m in module.maps
            if m.kind != "WidgetMap"]
    source = module.source
    return {"path": str(source.path), "build_file": source.build_entry, "module": head,
            "moduledata": module.moduledata, "maps": maps,
            "pieces": [_slot(s) for s in module.palette() if not s.card],
            "prototypes": [_prototype(p) for p in module.prototype_list],
            "entries": len(source.entries)}


def describe_module(path: str | Path) -> dict[str, Any]:
    """Open a module (or bare build file) safely and describe it."""
    with read_module(path) as module:
        return describe_read(module)
