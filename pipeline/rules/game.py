"""Read a game folder and a position into a :class:`Situation`.

The rules need the folder's map and rules profile, and its unit manifest when a
position places units (:class:`~pipeline.model.GameFolder` finds each). The
position file says where the units stand.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from pipeline.errors import DataError
from pipeline.hexgrid import Hex, HexGrid, Hexside
from pipeline.model import (
    GameFolder,
    MapData,
    Position,
    RulesProfile,
    UnitManifest,
    load_position,
)
from pipeline.model.folder import MAP_FILE, RULES_FILE
from pipeline.rules.errors import RulesError
from pipeline.rules.profilecheck import check_profile_keys
from pipeline.rules.situation import (
    OVERRUNS_MADE,
    Chart,
    GameMap,
    Marker,
    MixedHexes,
    Situation,
    Unit,
    refuse_mixed_hexes,
)

__all__ = ["load_game", "situation_from_game"]


def load_game(game_dir: str | Path | GameFolder, position: str | Path | None = None,
              mixed: MixedHexes = "refuse") -> Situation:
    """Load a game folder's map, rules profile and manifest, and a position.

    Without a position the map is empty of units (useful for LOS questions). A hex
    holding units of both sides refuses the position, or with ``mixed="report"`` (a
    saved game) is kept and answered hex by hex (:attr:`Situation.mixed_hexes`).

    Examples
    --------
    >>> from pathlib import Path
    >>> demo = Path(__file__).resolve().parents[2] / "maps" / "demo"
    >>> load_game(demo).mixed_hexes
    {}
    """
    folder = GameFolder.of(game_dir)
    folder.require(MAP_FILE, RULES_FILE, stage="the rules")
    pos = load_position(position) if position is not None else None
    rules = folder.rules()
    check_profile_keys(rules)
    return situation_from_game(folder.map_data(), rules, pos, folder.units_if_any(),
                               str(position) if position else None, mixed)


def situation_from_game(map_data: MapData, rules: RulesProfile, position: Position | None,
                        manifest: UnitManifest | None, position_file: str | None = None,
                        mixed: MixedHexes = "refuse") -> Situation:
    """Join the documents of a game into the engine's :class:`Situation`."""
    grids = map_data.grids()
    joined = map_data.joined_grid()
    board: str | None = None
    if joined is not None:
        grid: HexGrid = joined  # every board placed: one map (map.json boards[].placement)
    else:
        board = _board(map_data, position, position_file) if len(grids) > 1 else next(
            iter(grids))
        grid = grids[board]
    gmap = GameMap(grid, _terrain(map_data, grid), _hexsides(map_data, grid),
                   {name: edge.role for name, edge in map_data.edges.items()},
                   map_data.default_terrain)
    # The profile's own chart: per-class road rates included (a case's is the same).
    chart = Chart.from_profile(rules)
    units, markers, state = _position(position, manifest, grid, position_file)
    if len(grids) > 1 and board is not None:
        state["board"] = board
    situation = Situation(rules.system, gmap, chart, units, markers, state, rules)
    if mixed == "refuse":
        refuse_mixed_hexes(situation, position_file, "units")
    return situation


def _board(map_data: MapData, position: Position | None, file: str | None) -> str:
    """The one board a position's units and markers stand on.

    Boards whose placement map.json does not give (Cobra's A and B: how they
    join is printed on the maps, not in the rules) are answered one at a time:
    a position on one board is answered on that board alone.
    """
    names = ", ".join(map_data.grids())
    placed = [] if position is None else [
        *(u.hex for u in position.units), *(m.hex for m in position.markers)]
    boards = {b.name for hex_id in placed if hex_id is not None
              if (b := map_data.board_for(hex_id)) is not None}
    if len(boards) == 1:
        return boards.pop()
    if not boards:
        raise RulesError(f"this map has {len(map_data.grids())} boards ({names}) and the"
                         " engine answers on one at a time: give a position with units on"
                         " the board to ask about")
    raise DataError(file, "units", f"the position spans boards {', '.join(sorted(boards))}:"
                    " the engine answers on one board at a time until map.json says how the"
                    " boards join (boards[].placement)")


def _terrain(map_data: MapData, grid: HexGrid) -> dict[Hex, tuple[str, ...]]:
    return {grid.hex(hex_id): tuple(entry.terrain) for hex_id, entry in map_data.hexes.items()
            if grid.has_id(hex_id)}


def _hexsides(map_data: MapData, grid: HexGrid) -> dict[Hexside, frozenset[str]]:
    out: dict[Hexside, frozenset[str]] = {}
    for entry in map_data.hexsides:
        first = entry.hexes[0] if entry.hexes is not None else entry.hex
        if first is None or not grid.has_id(first):
            continue  # on another board
        if entry.hexes is not None:
            side = grid.hexside(grid.hex(entry.hexes[0]), grid.hex(entry.hexes[1]))
        else:
            assert entry.hex is not None and entry.direction is not None
            side = grid.hexside_at(grid.hex(entry.hex), entry.direction)
        out[side] = out.get(side, frozenset()) | frozenset(entry.features)
    return out


def _position(position: Position | None, manifest: UnitManifest | None, grid: HexGrid,
              file: str | None) -> tuple[tuple[Unit, ...], tuple[Marker, ...], dict[str, Any]]:
    if position is None:
        return (), (), {}
    specs = {row.id: row for row in manifest.rows} if manifest is not None else {}
    units = []
    for i, placed in enumerate(position.units):
        spec = specs.get(placed.id)
        if spec is None:
            known = "no unit manifest was found" if manifest is None else f"see {manifest.file}"
            raise DataError(file, f"units[{i}].id", f"unknown unit '{placed.id}' ({known})")
        h = _on_map(grid, placed.hex, file, f"units[{i}].hex")
        data: dict[str, Any] = {flag: True for flag in [*spec.flags, *placed.flags]}
        data.update({"type": spec.type, "size": spec.size, "nationality": spec.nationality,
                     "formation": spec.formation, "name": spec.name,
                     "transported_by": placed.transported_by,
                     OVERRUNS_MADE: placed.overruns or None})
        ma = spec.movement
        units.append(Unit(
            id=spec.id, side=spec.side, hex=h, unit_class=spec.unit_class or "",
            ma=float(ma) if ma is not None else math.nan,
            steps=placed.steps or spec.steps or 1,
            data={k: v for k, v in data.items() if v is not None},
        ))
    markers = tuple(
        Marker(m.type, _on_map(grid, m.hex, file, f"markers[{i}].hex"),
               dict(m.model_extra or {}))
        for i, m in enumerate(position.markers)
    )
    state = {"turn": position.turn, "phase": position.phase, "weather": position.weather,
             "active_side": position.active_side, "control": dict(position.control)}
    return tuple(units), markers, state


def _on_map(grid: HexGrid, hex_id: str | None, file: str | None, where: str) -> Hex | None:
    if hex_id is None:
        return None
    if not grid.has_id(hex_id):
        raise DataError(file, where,
                        f"hex '{hex_id}' is not on the map ({grid.describe_extent()})")
    return grid.hex(hex_id)
