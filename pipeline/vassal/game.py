"""The inputs of a module build: a game folder's documents and where its files are.

A module needs the folder's map and unit manifest; its rules profile (for the die
and the sides), marker manifest and scenario are used when it has them
(:class:`~pipeline.model.GameFolder` finds each).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.model import (
    GameFolder,
    MapData,
    MarkerManifest,
    RulesProfile,
    Scenario,
    UnitManifest,
)
from pipeline.model.folder import MAP_FILE, MARKERS_FILE, UNITS_FILE

__all__ = ["GameInputs", "load_game_inputs"]


@dataclass(frozen=True)
class GameInputs:
    """Everything a module is built from (documents and the files they came from)."""

    folder: Path
    map_data: MapData
    rules: RulesProfile | None
    units: UnitManifest
    markers: MarkerManifest | None
    scenario: Scenario | None
    scenario_file: Path | None
    files: tuple[Path, ...]

    @property
    def map_file(self) -> Path:
        """The map the module's boards come from."""
        return self.folder / MAP_FILE

    def sides(self) -> list[str]:
        """Sides in rules order, then any other side a unit names (sorted)."""
        sides = list(self.rules.sides) if self.rules is not None else []
        return sides + sorted({u.side for u in self.units} - set(sides))


def load_game_inputs(folder: str | Path | GameFolder, counters: str | Path | None = None,
                     scenario: str | None = None) -> GameInputs:
    """Load a game folder for a module build.

    Parameters
    ----------
    folder
        ``maps/<game>`` (or the :class:`~pipeline.model.GameFolder` of it).
    counters
        A further place to look for ``units.csv`` / ``markers.csv``.
    scenario
        A scenario's file stem or name; ``None`` takes the only one (if any).

    Raises
    ------
    BocageError
        A missing map or unit manifest, a bad document, an unknown scenario.
    """
    game = GameFolder.of(folder, counters)
    game.require(MAP_FILE, UNITS_FILE, stage="a module")
    files = [game.map_file]
    map_data = game.map_data()
    rules = game.rules_if_any()
    if rules is not None:
        files.append(game.rules_file)
    files.append(game.units_file)
    markers = game.markers_if_any()
    if markers is not None:
        files.append(game.file(MARKERS_FILE))
    picked = game.scenario(scenario)
    if picked is not None:
        files.append(picked[0])
    return GameInputs(game.path, map_data, rules, game.units(), markers,
                      picked[1] if picked else None, picked[0] if picked else None,
                      tuple(files))
