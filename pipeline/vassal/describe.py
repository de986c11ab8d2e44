"""``bocage vassal inspect``: what a module holds, with piece definitions decoded.

Maps, boards (image, size, grid attributes and the numbering in words),
at-start stacks with their locations, palette pieces and prototypes with every
trait decoded: id, the type fields, the state, and for the traits bocage
writes a plain reading (images, properties, flip command).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.errors import ModuleError
from pipeline.vassal.encoding import PieceDefinition, Trait, decode
from pipeline.vassal.read import ModuleSource, image_size, read_module, vassal_version_of

__all__ = ["describe_module", "describe_source", "describe_trait"]

M = "VASSAL.build.module."
BOARD = M + "map.boardPicker.Board"
GRIDS = (M + "map.boardPicker.board.HexGrid", M + "map.boardPicker.board.SquareGrid")
PIECE_SLOT = "VASSAL.build.widget.PieceSlot"


def _text(element: Any) -> str:
    return "".join(element.xpath("text()")).strip()


def describe_trait(trait: Trait) -> dict[str, Any]:
    """One trait as plain data: id, type fields, state, and a reading of known traits."""
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


def _piece(element: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"entryName": element.get("entryName") or element.get("name"),
                           "gpid": element.get("gpid"), "line": element.sourceline}
    try:
        piece = PieceDefinition.decode(_text(element))
    except ModuleError as exc:
        out["error"] = exc.message
        return out
    out["traits"] = [describe_trait(t) for t in piece.traits]
    return out


def _palette_path(element: Any) -> str:
    names = [a.get("entryName") or a.get("name") or "" for a in element.iterancestors()
             if a.tag.startswith(("VASSAL.build.widget.", M + "PieceWindow"))]
    return " / ".join(reversed([n for n in names if n]))


def _board(board: Any, source: ModuleSource) -> dict[str, Any]:
    out: dict[str, Any] = {"name": board.get("name"), "image": board.get("image")}
    size = image_size(source, board.get("image") or "")
    if size is not None:
        out["width"], out["height"] = size
    for grid in board.iter(*GRIDS):
        out["grid"] = {"type": grid.tag.rsplit(".", 1)[-1], **dict(grid.attrib)}
        numbering = next(iter(grid), None)
        if numbering is not None and isinstance(numbering.tag, str):
            out["numbering"] = dict(numbering.attrib)
        break
    return out


def describe_source(source: ModuleSource) -> dict[str, Any]:
    """Plain data describing an opened module (see the module docstring)."""
    root = source.root
    module = {k: root.get(k) for k in ("name", "version", "VassalVersion", "nextPieceSlotId")}
    maps = []
    for the_map in root.iter(M + "Map", M + "PrivateMap", M + "PlayerHand"):
        stacks = [{"name": s.get("name"), "board": s.get("owningBoard"),
                   "location": s.get("location") if s.get("useGridLocation") == "true" else None,
                   "x": s.get("x"), "y": s.get("y"),
                   "pieces": [p.get("entryName") for p in s.iter(PIECE_SLOT)]}
                  for s in the_map.iter(M + "map.SetupStack")]
        maps.append({"name": the_map.get("mapName"),
                     "boards": [_board(b, source) for b in the_map.iter(BOARD)],
                     "setup_stacks": stacks})
    pieces = []
    for slot in root.iter(PIECE_SLOT):
        if any(a.tag == M + "map.SetupStack" for a in slot.iterancestors()):
            continue
        pieces.append({**_piece(slot), "palette": _palette_path(slot)})
    prototypes = [_piece(p) for p in root.iter(M + "PrototypeDefinition")]
    moduledata = None
    if source.moduledata is not None:
        moduledata = {c.tag: (c.text or "").strip() for c in source.moduledata
                      if isinstance(c.tag, str)}
        moduledata["VassalVersion"] = vassal_version_of(source.moduledata) or ""
    return {"path": str(source.path), "build_file": source.build_entry, "module": module,
            "moduledata": moduledata, "maps": maps, "pieces": pieces, "prototypes": prototypes,
            "entries": len(source.entries)}


def describe_module(path: str | Path) -> dict[str, Any]:
    """Open a module (or bare build file) safely and describe it."""
    with read_module(path) as source:
        return describe_source(source)
