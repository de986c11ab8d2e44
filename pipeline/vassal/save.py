"""Reading a VASSAL saved game (``.vsav``) against its module: every piece, where it stands.

A ``.vsav`` is a ZIP (opened as untrusted as a module: :mod:`pipeline.vassal.source`)
whose ``savedGame`` entry is VASSAL's command stream (VASSAL 3.x ``GameState``):

* obfuscated by ``ObfuscatingOutputStream``: ``!VCSK``, one key byte as two hex
  digits, then every byte XOR the key as two hex digits (a plain stream is read
  as it is);
* one command whose sub-commands are nested with ``SequenceEncoder`` on ESC
  (0x1b): ``begin_save``, an ``AddPiece`` (``+/ID/TYPE/STATE``) for every piece
  and then every stack (``stack/MAP;X;Y;ID;...;@@LAYER``, its pieces bottom to
  top), the players (``PLAYER\\tid\\tname\\tside``), each map's board choice
  (``<map>BoardPicker\\tboard\\tcolumn\\trow...``), the turn tracker, ``end_save``.

Each piece's traits are in the save (prototypes expanded), so its name, Layer
levels and properties are read from them (:mod:`pipeline.vassal.traits`); its
hex comes from the module: the map's boards laid out as the save chose them
(:func:`pipeline.vassal.read.lay_out_boards`) and the board's grid naming the
point (:mod:`pipeline.vassal.location`), which is ``Map.locationName``.

:func:`position_from_save` then writes bocage's position document: a piece
with a ``UnitId`` property (bocage modules write one) is a unit, with its
steps from its ``Step`` Layer and its ``Steps`` property; one with a
``MarkerId`` is a marker of its ``MarkerKind``; pieces that cannot be put on a
hex (another window, off the boards, not a unit or marker bocage knows) are
listed with the reason, never dropped.

A stream that is truncated (no ``end_save``, an odd number of hex digits), not
UTF-8, nested beyond :data:`MAX_DEPTH` or larger than :data:`MAX_SAVE` is
refused with one line.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import BocageError, ModuleError
from pipeline.model import GameFolder, Position, position_from_data
from pipeline.model.documents import parse_json
from pipeline.vassal.encoding import Decoder, PieceDefinition, Trait, decode
from pipeline.vassal.read import (
    Module,
    ModuleMap,
    PlacedBoard,
    lay_out_boards,
    read_module,
)
from pipeline.vassal.source import MAX_XML, open_archive, parse_xml, read_bounded
from pipeline.vassal.traits import Layer, view_piece

__all__ = [
    "MAX_DEPTH",
    "MAX_SAVE",
    "SavedGame",
    "SavedPiece",
    "deobfuscate",
    "find_module",
    "position_from_save",
    "read_save",
    "save_commands",
    "save_position",
    "saved_game",
    "side_name",
]

MAX_SAVE = 64 * 1024 ** 2  # bytes of savedGame, decompressed (obfuscated: two per byte)
MAX_DEPTH = 64  # nesting of sub-commands
MAX_COMMANDS = 1_000_000
HEADER = b"!VCSK"
ESC = "\x1b"
OFFBOARD = "offboard"  # Map.locationName of a point on no board


@dataclass(frozen=True)
class SavedPiece:
    """A piece of a saved game, as VASSAL holds it.

    ``location`` is VASSAL's name of its point (``Map.locationName``:
    ``offboard`` when on no board or when the board names nothing); ``stack``
    is the index of its stack among the stacks of its map, ``stack_index`` its
    place in it (0 = bottom). ``reason`` says why it cannot be put on a hex
    (``None`` when it can).
    """

    id: str
    name: str
    basic_name: str
    map: str | None
    board: str | None
    location: str | None
    x: int | None
    y: int | None
    gpid: str | None
    layers: tuple[Layer, ...]
    properties: dict[str, str]
    stack: int | None = None
    stack_index: int = 0
    stack_size: int = 1
    reason: str | None = None
    moved: bool = False

    @property
    def step(self) -> int | None:
        """The first Layer's level (1 = front)."""
        return self.layers[0].level if self.layers else None

    @property
    def face(self) -> str:
        """``front`` on level 1 (or without a Layer), ``back`` otherwise."""
        return "front" if (self.step or 1) == 1 else "back"

    @property
    def kind(self) -> str:
        """``unit`` (a ``UnitId``), ``marker`` (a ``MarkerId``) or ``piece`` (neither)."""
        if "UnitId" in self.properties:
            return "unit"
        return "marker" if "MarkerId" in self.properties else "piece"

    @property
    def side(self) -> str | None:
        """The piece's side (its ``Side`` property) as a bocage name: ``Allied`` -> ``allied``."""
        return side_name(self.properties.get("Side", ""))

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return {"id": self.id, "name": self.name, "basic_name": self.basic_name,
                "kind": self.kind, "unit": self.properties.get("UnitId"),
                "marker": self.properties.get("MarkerId"), "side": self.side,
                "map": self.map, "board": self.board, "location": self.location,
                "x": self.x, "y": self.y, "stack": self.stack, "stack_index": self.stack_index,
                "stack_size": self.stack_size, "gpid": self.gpid, "step": self.step,
                "face": self.face, "moved": self.moved,
                "layers": [{"name": la.name, "level": la.level, "levels": la.levels,
                            "active": la.active} for la in self.layers],
                "reason": self.reason}


@dataclass
class SavedGame:
    """What a saved game holds: the module it names, players, board choices, pieces.

    ``pieces`` are in VASSAL's drawing order: stack by stack in the order the
    save adds them, each stack bottom to top, then the pieces in no stack.
    """

    path: Path
    module_name: str | None
    module_version: str | None
    vassal_version: str | None
    players: tuple[tuple[str, str], ...]
    boards: dict[str, tuple[tuple[str, int, int], ...]]
    turn: int | None
    pieces: list[SavedPiece] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    game: str | None = None

    def placed(self) -> list[SavedPiece]:
        """The pieces on a hex of a map."""
        return [p for p in self.pieces if p.reason is None]

    def unplaced(self) -> list[SavedPiece]:
        """The pieces that cannot be put on a hex, each with its reason."""
        return [p for p in self.pieces if p.reason is not None]


def side_name(label: str) -> str | None:
    """A side as bocage names it, from VASSAL's label (``Red Army`` -> ``red_army``).

    >>> side_name("Red Army"), side_name("")
    ('red_army', None)
    """
    name = re.sub(r"[^a-z0-9]+", "_", label.strip().lower()).strip("_")
    return name if re.fullmatch(r"[a-z][a-z0-9_]*", name) else None


# -- the stream ----------------------------------------------------------------------------


def deobfuscate(data: bytes, where: str | Path) -> str:
    """The text of a ``savedGame`` entry (see the module docstring).

    >>> deobfuscate(b"!VCSK01" + b"6968", "savedGame"), deobfuscate(b"plain", "savedGame")
    ('hi', 'plain')

    Raises
    ------
    ModuleError
        Truncated (odd) hex, a character that is not a hex digit, or not UTF-8.
    """
    if data.startswith(HEADER):
        body = data[len(HEADER):].strip()
        if len(body) < 2 or len(body) % 2:
            raise ModuleError(where, "the obfuscated stream is truncated (an odd number of hex"
                              " digits): refused")
        try:
            key = int(body[:2], 16)
            raw = bytes.fromhex(body[2:].decode("ascii"))
        except (ValueError, UnicodeDecodeError):
            raise ModuleError(where, "the obfuscated stream holds characters that are not hex"
                              " digits: refused") from None
        data = bytes(b ^ key for b in raw)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ModuleError(where, f"the saved game is not UTF-8 text ({exc.reason} at byte"
                          f" {exc.start}): refused") from None


def save_commands(text: str, where: str | Path) -> list[str]:
    """Every command of a saved game's stream, in order (nested sub-commands flattened).

    Raises
    ------
    ModuleError
        Nesting deeper than :data:`MAX_DEPTH`, more than :data:`MAX_COMMANDS`
        commands, or no ``begin_save`` ... ``end_save`` (a truncated stream).

    Examples
    --------
    >>> save_commands("begin_save\\x1b\\x1ba\\\\\\x1bb\\x1bend_save", "s")
    ['begin_save', '', 'a', 'b', 'end_save']
    """
    out: list[str] = []
    stack: list[tuple[Decoder, int]] = []
    decoder, depth = Decoder(text, ESC), 0
    out.append(decoder.next(""))
    stack.append((decoder, depth))
    while stack:
        decoder, depth = stack[-1]
        if not decoder.has_more():
            stack.pop()
            continue
        inner = Decoder(decoder.next(), ESC)
        out.append(inner.next(""))
        if len(out) > MAX_COMMANDS:
            raise ModuleError(where, f"more than {MAX_COMMANDS} commands: refused")
        if inner.has_more():
            if depth + 1 > MAX_DEPTH:
                raise ModuleError(where, f"commands nested more than {MAX_DEPTH} deep: refused")
            stack.append((inner, depth + 1))
    if not out or out[0] != "begin_save":
        raise ModuleError(where, "not a VASSAL saved game: the stream does not begin with"
                          " begin_save")
    if out[-1] != "end_save":
        raise ModuleError(where, "the saved game is truncated: its stream does not end with"
                          " end_save: refused")
    return out


# -- pieces on maps ---------------------------------------------------------------------------


@dataclass
class _Raw:
    id: str
    traits: tuple[Trait, ...]


def _add_pieces(commands: list[str], where: str | Path
                ) -> tuple[dict[str, _Raw], list[tuple[str, str]], list[str]]:
    pieces: dict[str, _Raw] = {}
    stacks: list[tuple[str, str]] = []
    problems: list[str] = []
    for command in commands:
        if not command.startswith("+/"):
            continue
        try:
            piece_id, types, states = PieceDefinition.split(command)
        except ModuleError as exc:
            problems.append(f"a piece command does not decode ({exc.message})")
            continue
        if types == ["stack"]:
            stacks.append((piece_id, states[0] if states else ""))
        elif len(types) != len(states):
            problems.append(f"piece {piece_id}: {len(types)} trait types but {len(states)}"
                            " states")
        else:
            pieces[piece_id] = _Raw(piece_id, tuple(Trait(t, s) for t, s in zip(types, states,
                                                                                  strict=True)))
    return pieces, stacks, problems


def _board_choices(commands: list[str], module: Module) -> dict[str, tuple[tuple[str, int, int],
                                                                           ...]]:
    out: dict[str, tuple[tuple[str, int, int], ...]] = {}
    names = {m.name + "BoardPicker": m.name for m in module.maps}
    for command in commands:
        head, _, rest = command.partition("\t")
        if head not in names:
            continue
        parts = decode(rest, "\t") if rest else []
        chosen = []
        for i in range(0, len(parts) - 2, 3):
            try:
                chosen.append((Decoder(parts[i], "/").next(""), int(parts[i + 1]),
                               int(parts[i + 2])))
            except ValueError:
                continue
        out[names[head]] = tuple(chosen)
    return out


def _players(commands: list[str]) -> tuple[tuple[str, str], ...]:
    seen: list[tuple[str, str]] = []
    for command in commands:
        if command.startswith("PLAYER\t"):
            parts = decode(command, "\t")
            entry = (parts[2] if len(parts) > 2 else "", parts[3] if len(parts) > 3 else "")
            if entry not in seen:  # VASSAL 3.7.26 writes each player twice
                seen.append(entry)
    return tuple(seen)


def _turn(commands: list[str], module: Module) -> int | None:
    """The turn of the module's first turn tracker, when its first level counts turns."""
    if not module.turn_levels or module.turn_levels[0] != "CounterTurnLevel":
        return None
    for command in commands:
        head, _, state = command.partition("\t")
        if head.startswith("TURN"):
            levels = decode(state, "|")
            try:
                return int(decode(levels[1], ";")[0]) if len(levels) > 1 else None
            except (ValueError, IndexError):
                return None
    return None


def _where_on(the_map: ModuleMap | None, placed: list[PlacedBoard], x: int | None,
              y: int | None) -> tuple[str | None, str | None, str | None]:
    """(board, location, reason): ``Map.findBoard`` and ``Map.locationName`` of a point."""
    if the_map is None:
        return None, None, "its map is not in the module"
    if x is None or y is None:
        return None, None, "its position does not parse"
    for board in placed:
        if board.contains(x, y):
            name = board.board.name_at(x - board.x, y - board.y)
            if name is None:
                return (board.board.name, OFFBOARD,
                        f"board '{board.board.name}' has no grid naming its point")
            return board.board.name, name, None
    return None, OFFBOARD, "it lies on no board of its map"


def saved_game(path: str | Path, module: Module) -> SavedGame:
    """Read a saved game against a module already read (see the module docstring).

    Raises
    ------
    ModuleError
        Unsafe, broken or truncated input (one line naming the file).
    """
    file = Path(path)
    if not file.is_file():
        raise ModuleError(file, "no such file")
    if not zipfile.is_zipfile(file):
        raise ModuleError(file, "not a ZIP (truncated, or not a saved game): a .vsav is a ZIP")
    with open_archive(file) as archive:
        names = set(archive.namelist())
        if "savedGame" not in names:
            raise ModuleError(file, "no savedGame entry: not a VASSAL saved game")
        data = read_bounded(archive, "savedGame", 2 * MAX_SAVE + 16, file)
        info = {name: parse_xml(read_bounded(archive, name, MAX_XML, file), f"{file}:{name}")
                for name in ("moduledata", "savedata") if name in names}
    commands = save_commands(deobfuscate(data, file), file)
    moduledata = info.get("moduledata")
    savedata = info.get("savedata")
    saved = SavedGame(
        file, moduledata.findtext("name") if moduledata is not None else None,
        moduledata.findtext("version") if moduledata is not None else None,
        savedata.findtext("VassalVersion") if savedata is not None else None,
        _players(commands), _board_choices(commands, module), _turn(commands, module),
        game=_game_id(module))
    if saved.module_name and module.moduledata and module.moduledata.get("name") and (
            saved.module_name != module.moduledata["name"]):
        saved.notes.append(f"the save was made with module '{saved.module_name}', not"
                           f" '{module.moduledata['name']}': hexes are named by the module given")
    raw, stacks, problems = _add_pieces(commands, file)
    saved.notes += problems
    _place(saved, module, raw, stacks)
    return saved


def _place(saved: SavedGame, module: Module, raw: dict[str, _Raw],
           stacks: list[tuple[str, str]]) -> None:
    maps = {m.name: m for m in module.maps}
    layouts = {name: lay_out_boards(m, saved.boards.get(name))[0] for name, m in maps.items()}
    counts: dict[str, int] = {}
    order: list[tuple[str, int | None, int, int]] = []
    for _, state in stacks:
        parts = decode(state, ";")
        members = [p for p in parts[3:] if not p.startswith("@@") and p in raw]
        map_name = parts[0] if parts else ""
        index = counts.get(map_name, 0)
        counts[map_name] = index + 1
        order += [(p, index, i, len(members)) for i, p in enumerate(members)]
    in_stacks = {p for p, *_ in order}
    order += [(p, None, 0, 1) for p in raw if p not in in_stacks]
    for piece_id, stack, index, size in order:
        view = view_piece(raw[piece_id].traits)
        the_map = maps.get(view.map_id or "")
        board, location, reason = _where_on(the_map, layouts.get(view.map_id or "", []),
                                            view.x, view.y)
        if view.map_id is None:
            reason = "it is on no map"
        elif the_map is None:
            reason = f"map '{view.map_id}' is not in the module"
        elif the_map.kind != "Map":
            reason = f"it is in the {the_map.kind} '{the_map.name}', not on the map"
        saved.pieces.append(SavedPiece(
            piece_id, view.name, view.basic_name, view.map_id, board, location, view.x, view.y,
            view.gpid, view.layers, view.properties, stack, index, size, reason, view.moved))


def _game_id(module: Module) -> str | None:
    # A module bocage built carries its game data, with the game's id.
    if "bocage/game.json" not in module.source.entries:
        return None
    entry = "bocage/game.json"
    try:
        data = parse_json(module.source.read_entry(entry).decode("utf-8"),
                          f"{module.source.path}:{entry}")
    except (BocageError, UnicodeDecodeError):
        return None  # not bocage's game data after all: the game is not named
    game = data.get("game") if isinstance(data, dict) else None
    return game if isinstance(game, str) and game else None


def read_save(path: str | Path, module: str | Path) -> SavedGame:
    """Open a module and read a saved game against it.

    Parameters
    ----------
    path
        The ``.vsav``.
    module
        The ``.vmod`` the game was played on (its grids name the hexes).

    Raises
    ------
    ModuleError
        Either file is unsafe, broken or truncated.
    """
    with read_module(module) as read:
        return saved_game(path, read)


# -- the position document ---------------------------------------------------------------------


def _steps(piece: SavedPiece) -> int | None:
    # A unit of n steps shows its first on level 1; each level further is one step less.
    try:
        total = int(piece.properties.get("Steps", ""))
    except ValueError:
        return None
    return max(1, total - ((piece.step or 1) - 1)) if total >= 1 else None


def position_from_save(saved: SavedGame, *, phase: str = "movement",
                       active_side: str | None = None, game: str | None = None,
                       units_by_name: Mapping[str, str] | None = None
                       ) -> tuple[Position, list[tuple[SavedPiece, str]]]:
    """bocage's position document of a saved game, and the pieces it leaves out (with why).

    Parameters
    ----------
    saved
        The saved game.
    phase
        The position's phase (a save does not say it).
    active_side
        Default: the side of the save's first player.
    game
        The game id; default: the one the module carries, else the module name.
    units_by_name
        Piece name -> unit id, for pieces without a ``UnitId`` property (a module
        bocage did not build, imported with ``vassal import``).
    """
    units: list[dict[str, Any]] = []
    markers: list[dict[str, Any]] = []
    left_out: list[tuple[SavedPiece, str]] = []
    seen: set[str] = set()
    for piece in saved.pieces:
        unit_id = piece.properties.get("UnitId") or (units_by_name or {}).get(piece.basic_name)
        if piece.kind == "marker":
            if piece.reason is not None:
                left_out.append((piece, piece.reason))
                continue
            marker: dict[str, Any] = {"type": piece.properties.get("MarkerKind")
                                      or piece.properties["MarkerId"], "hex": piece.location}
            if piece.side is not None:
                marker["side"] = piece.side
            markers.append(marker)
        elif unit_id:
            if unit_id in seen:
                left_out.append((piece, (f"unit '{unit_id}' is already placed (two pieces"
                                 " carry its id)")))
                continue
            seen.add(unit_id)
            entry: dict[str, Any] = {"id": unit_id}
            if piece.reason is None:
                entry["hex"] = piece.location
            else:
                entry.update({"hex": None, "off_map": True})
                left_out.append((piece, piece.reason))
            steps = _steps(piece)
            if steps is not None:
                entry["steps"] = steps
            units.append(entry)
        else:
            left_out.append((piece, ("not a unit or marker bocage knows (no UnitId or MarkerId"
                             " property, and no unit of that name)")))
    sides = [side_name(s) for _, s in saved.players]
    side = active_side or next((s for s in sides if s), None)
    doc = {
        "kind": "position",
        "game": game or saved.game or side_name(saved.module_name or "") or "vassal",
        "notes": (f"Read from the VASSAL saved game {saved.path.name}"
                  f" (VASSAL {saved.vassal_version or '?'}, module"
                  f" '{saved.module_name or '?'}' {saved.module_version or ''}).".replace(" )", ")")
                  + ("" if saved.turn is not None else " The save holds no turn counter: turn 0.")
                  + f" Phase '{phase}' as asked (a save does not say it)."),
        "turn": saved.turn if saved.turn is not None else 0,
        "phase": phase,
        "active_side": side or "none",
        "units": units,
        "markers": markers,
    }
    return position_from_data(doc, f"{saved.path} (as a position)"), left_out


MAX_NEIGHBOURS = 50  # .vmod files looked at beside a save to find its module


def find_module(save: str | Path) -> Path:
    """The module a save was played on, when none is given: the one ``.vmod`` beside it
    whose ``moduledata`` name is the one the save names.

    Raises
    ------
    ModuleError
        None or several match (give the module explicitly).
    """
    file = Path(save)
    if not file.is_file():
        raise ModuleError(file, "no such file")
    with open_archive(file) as archive:
        if "moduledata" not in archive.namelist():
            raise ModuleError(file, "the save names no module (no moduledata): give --module")
        wanted = parse_xml(read_bounded(archive, "moduledata", MAX_XML, file),
                           f"{file}:moduledata").findtext("name")
    matches = []
    for candidate in sorted(file.parent.glob("*.vmod"))[:MAX_NEIGHBOURS]:
        try:
            with read_module(candidate) as module:
                if module.moduledata and module.moduledata.get("name") == wanted:
                    matches.append(candidate)
        except ModuleError:
            continue
    if len(matches) != 1:
        found = "none" if not matches else ", ".join(m.name for m in matches)
        raise ModuleError(file, f"played on module '{wanted}'; the .vmod files beside it that"
                          f" have that name: {found}: give --module")
    return matches[0]


def _units_by_name(game: GameFolder) -> dict[str, str]:
    # The game folder's manifest, as the rules find it.
    units = game.units_if_any()
    return {unit.name or unit.id: unit.id for unit in units} if units is not None else {}


def save_position(save: str | Path, module: str | Path | None = None, *,
                  phase: str = "movement", game_dir: str | Path | GameFolder | None = None
                  ) -> tuple[SavedGame, Position, list[tuple[SavedPiece, str]]]:
    """Read a save (its module found beside it unless given) into a position document.

    ``game_dir``: a game folder whose unit manifest names the pieces that carry
    no ``UnitId`` (a module bocage did not build, imported with ``vassal import``).
    Returns the saved game, the position and the pieces left out of it (with why).
    """
    saved = read_save(save, module if module is not None else find_module(save))
    names = _units_by_name(GameFolder.of(game_dir)) if game_dir is not None else None
    position, left_out = position_from_save(saved, phase=phase, units_by_name=names)
    return saved, position, left_out
