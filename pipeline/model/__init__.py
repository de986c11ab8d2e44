"""The data model: map data, rules profiles, CRTs, facts, manifests, scenarios, positions.

Every file bocage reads is loaded here into typed, immutable classes, with
errors that name the file, the place and the fix on one line
(``maps/demo/map.json: hexes.0421.terrain[1]: unknown terrain 'wods' (did you
mean 'woods'?)``). JSON documents say what they are in ``kind``; CSV manifests
are told apart by their header. Each kind has a JSON Schema in ``schemas/``
generated from these classes (``python -m pipeline.model.schema schemas/``).

>>> from pipeline.model import GameFolder
>>> from pathlib import Path
>>> demo = GameFolder(Path(__file__).resolve().parents[2] / "maps" / "demo").map_data()
>>> demo.terrain_of("2417"), demo.board_for("0421").name
(['rough'], 'omaha')

Each name is imported from its module when first asked for (PEP 562), so a command that
reads counter manifests does not import the map's classes, numpy or shapely.
"""

import typing as _typing

from pipeline.lazy import exports as _exports

if _typing.TYPE_CHECKING:  # the same names as the table below, for type checkers
    from pipeline.model.check import (
        Checked,
        check_file,
        check_game_dir,
        companion_counters,
        companion_maps,
        load_file,
    )
    from pipeline.model.crt import CrtTable, crt_from_data, load_crt
    from pipeline.model.documents import dumps, read_json, save_json
    from pipeline.model.facts import Fact, Facts, facts_from_data, load_facts
    from pipeline.model.folder import Game, GameFolder, game_folders
    from pipeline.model.manifest import (
        MARKER_KINDS,
        UNIT_FLAGS,
        UNIT_SIZES,
        UNIT_TYPES,
        MarkerManifest,
        MarkerSpec,
        UnitManifest,
        UnitSpec,
        load_markers,
        load_units,
        markers_from_text,
        units_from_text,
    )
    from pipeline.model.mapdata import (
        Board,
        GridSpec,
        HexEntry,
        HexsideEntry,
        LayoutSpec,
        Location,
        MapData,
        MapEdge,
        NumberingSpec,
        load_map,
        map_from_data,
    )
    from pipeline.model.position import (
        Position,
        PositionMarker,
        PositionUnit,
        load_position,
        position_from_data,
    )
    from pipeline.model.rulesprofile import (
        CombatEffect,
        Cost,
        RulesProfile,
        TerrainRule,
        cost_is_unknown,
        load_rules,
        rules_from_data,
    )
    from pipeline.model.scenario import Scenario, load_scenario, scenario_from_data

#: Each public module of the package and the names it gives the package.
_SOURCES: dict[str, tuple[str, ...]] = {
    "pipeline.model.check": (
        "Checked", "check_file", "check_game_dir", "companion_counters", "companion_maps",
        "load_file",
    ),
    "pipeline.model.crt": ("CrtTable", "crt_from_data", "load_crt"),
    "pipeline.model.documents": ("dumps", "read_json", "save_json"),
    "pipeline.model.facts": ("Fact", "Facts", "facts_from_data", "load_facts"),
    "pipeline.model.folder": ("Game", "GameFolder", "game_folders"),
    "pipeline.model.manifest": (
        "MARKER_KINDS", "UNIT_FLAGS", "UNIT_SIZES", "UNIT_TYPES", "MarkerManifest", "MarkerSpec",
        "UnitManifest", "UnitSpec", "load_markers", "load_units", "markers_from_text",
        "units_from_text",
    ),
    "pipeline.model.mapdata": (
        "Board", "GridSpec", "HexEntry", "HexsideEntry", "LayoutSpec", "Location", "MapData",
        "MapEdge", "NumberingSpec", "load_map", "map_from_data",
    ),
    "pipeline.model.position": (
        "Position", "PositionMarker", "PositionUnit", "load_position", "position_from_data",
    ),
    "pipeline.model.rulesprofile": (
        "CombatEffect", "Cost", "RulesProfile", "TerrainRule", "cost_is_unknown", "load_rules",
        "rules_from_data",
    ),
    "pipeline.model.scenario": ("Scenario", "load_scenario", "scenario_from_data"),
}

__all__ = [
    "MARKER_KINDS",
    "UNIT_FLAGS",
    "UNIT_SIZES",
    "UNIT_TYPES",
    "Board",
    "Checked",
    "CombatEffect",
    "Cost",
    "CrtTable",
    "Fact",
    "Facts",
    "Game",
    "GameFolder",
    "GridSpec",
    "HexEntry",
    "HexsideEntry",
    "LayoutSpec",
    "Location",
    "MapData",
    "MapEdge",
    "MarkerManifest",
    "MarkerSpec",
    "NumberingSpec",
    "Position",
    "PositionMarker",
    "PositionUnit",
    "RulesProfile",
    "Scenario",
    "TerrainRule",
    "UnitManifest",
    "UnitSpec",
    "check_file",
    "check_game_dir",
    "companion_counters",
    "companion_maps",
    "cost_is_unknown",
    "crt_from_data",
    "dumps",
    "facts_from_data",
    "game_folders",
    "load_crt",
    "load_facts",
    "load_file",
    "load_map",
    "load_markers",
    "load_position",
    "load_rules",
    "load_scenario",
    "load_units",
    "map_from_data",
    "markers_from_text",
    "position_from_data",
    "read_json",
    "rules_from_data",
    "save_json",
    "scenario_from_data",
    "units_from_text",
]


if not _typing.TYPE_CHECKING:  # type checkers take the imports above, and no others
    __getattr__, __dir__ = _exports(__name__, _SOURCES)
