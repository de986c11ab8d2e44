"""The inputs of a module build: a game folder's documents and where its files are.

A game folder is ``maps/<game>/`` with ``map.json``; ``rules.json`` (for the
die and the sides), the unit manifest ``units.csv`` and ``markers.csv`` sit
there or in the companion ``counters/<game>/``; scenarios are the folder's
``kind: "scenario"`` documents.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import DataError
from pipeline.model import (
    MapData,
    MarkerManifest,
    RulesProfile,
    Scenario,
    UnitManifest,
    companion_counters,
    load_map,
    load_markers,
    load_rules,
    load_units,
    scenario_from_data,
)
from pipeline.model.documents import parse_json, read_text

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

    def sides(self) -> list[str]:
        """Sides in rules order, then any other side a unit names (sorted)."""
        sides = list(self.rules.sides) if self.rules is not None else []
        return sides + sorted({u.side for u in self.units} - set(sides))


def _find(name: str, folder: Path, counters: Path | None) -> Path | None:
    places = [folder, counters, companion_counters(folder)]
    for place in places:
        if place is not None and (place / name).is_file():
            return place / name
    return None


def _scenarios(folder: Path) -> list[tuple[Path, Scenario]]:
    found = []
    for path in sorted(folder.glob("*.json")):
        if path.name in ("map.json", "rules.json"):
            continue
        data = parse_json(read_text(path), path)
        # Other documents (positions, facts, charts) are not the exporter's business.
        if isinstance(data, dict) and data.get("kind") == "scenario":
            found.append((path, scenario_from_data(data, path)))
    return found


def _pick_scenario(folder: Path, wanted: str | None) -> tuple[Path, Scenario] | None:
    found = _scenarios(folder)
    if wanted is None:
        if len(found) > 1:
            names = ", ".join(f"'{p.stem}'" for p, _ in found)
            raise DataError(folder, "", f"several scenarios ({names}): choose one with --scenario")
        return found[0] if found else None
    for path, scenario in found:
        if wanted in (path.stem, path.name, scenario.name):
            return path, scenario
    names = ", ".join(f"'{p.stem}' ({s.name})" for p, s in found) or "none"
    raise DataError(folder, "", f"no scenario '{wanted}' (this folder has: {names})")


def load_game_inputs(folder: str | Path, counters: str | Path | None = None,
                     scenario: str | None = None) -> GameInputs:
    """Load a game folder for a module build.

    Parameters
    ----------
    folder
        ``maps/<game>``.
    counters
        A further place to look for ``units.csv`` / ``markers.csv``.
    scenario
        A scenario's file stem or name; ``None`` takes the only one (if any).

    Raises
    ------
    BocageError
        A missing map or unit manifest, a bad document, an unknown scenario.
    """
    root = Path(folder)
    if not (root / "map.json").is_file():
        raise DataError(root, "", "not a game folder: no map.json")
    extra = Path(counters) if counters is not None else None
    files = [root / "map.json"]
    map_data = load_map(root / "map.json")
    rules_path = root / "rules.json"
    rules = load_rules(rules_path) if rules_path.is_file() else None
    if rules is not None:
        files.append(rules_path)
    units_path = _find("units.csv", root, extra)
    if units_path is None:
        raise DataError(root, "", "no units.csv here, in --counters or in counters/<game>")
    files.append(units_path)
    markers_path = _find("markers.csv", root, extra)
    markers = load_markers(markers_path) if markers_path is not None else None
    if markers_path is not None:
        files.append(markers_path)
    picked = _pick_scenario(root, scenario)
    if picked is not None:
        files.append(picked[0])
    return GameInputs(root, map_data, rules, load_units(units_path), markers,
                      picked[1] if picked else None, picked[0] if picked else None,
                      tuple(files))
