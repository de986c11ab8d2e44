"""``check``: load any data file by its kind, and a whole game folder together.

A file alone can be well formed and still wrong for its game: a scenario may
name a unit the manifest lacks, a position may put a unit on a hex the map
does not have, a map may use a terrain the rules profile cannot price. A game
folder is therefore checked file by file, then as a whole.

Errors raise (one located line, like every load error). Things that are
probably fine but worth a look (vocabulary the rules do not price but no hex
uses, documents naming different games) are returned as warnings.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import DataError, ManifestError, did_you_mean
from pipeline.model.crt import CrtTable, crt_from_data
from pipeline.model.documents import document_kind, parse_json, read_text
from pipeline.model.facts import Facts, facts_from_data
from pipeline.model.folder import (
    MAP_FILE,
    UNITS_FILE,
    GameFolder,
    companion_counters,
    companion_maps,
)
from pipeline.model.manifest import (
    MarkerManifest,
    UnitManifest,
    UnitSpec,
    load_manifest,
)
from pipeline.model.mapdata import MapData, map_from_data
from pipeline.model.position import Position, position_from_data
from pipeline.model.rulesprofile import RulesProfile, cost_is_unknown, rules_from_data
from pipeline.model.scenario import Scenario, scenario_from_data
from pipeline.model.translate import format_path, one_line

__all__ = ["Checked", "Document", "check_file", "check_game_dir", "companion_counters",
           "companion_maps", "load_file"]

Document = (MapData | RulesProfile | Scenario | Position | UnitManifest | MarkerManifest
            | CrtTable | Facts)

@dataclass(frozen=True)
class Checked:
    """The result of checking one file (or, with kind ``game``, a folder's cross-references).

    Attributes
    ----------
    path
        The path as given.
    kind
        ``map``, ``rules``, ``scenario``, ``position``, ``crt``, ``facts``, ``units``,
        ``markers`` or ``game``.
    summary
        One line for people.
    counts
        The numbers behind the summary, for scripts.
    warnings
        Findings that are not errors.
    """

    path: str
    kind: str
    summary: str
    counts: dict[str, int]
    warnings: tuple[str, ...] = field(default=())


@one_line
def load_file(path: str | Path) -> tuple[str, Document]:
    """Load any bocage data file, telling its kind from ``kind`` (JSON) or the header (CSV).

    Returns
    -------
    tuple
        The kind and the loaded document.
    """
    suffix = Path(path).suffix.lower()
    if suffix == ".json":
        data = parse_json(read_text(path), path)
        kind = document_kind(data, path)
        if kind == "crt":
            return kind, crt_from_data(data, path)
        if kind == "facts":
            return kind, facts_from_data(data, path)
        if kind == "map":
            return kind, map_from_data(data, path)
        if kind == "rules":
            return kind, rules_from_data(data, path)
        if kind == "scenario":
            return kind, scenario_from_data(data, path)
        return kind, position_from_data(data, path)
    if suffix == ".csv":
        manifest = load_manifest(path)
        return ("units" if isinstance(manifest, UnitManifest) else "markers"), manifest
    raise DataError(path, "", "not a bocage data file: expected .json (map, rules, scenario,"
                    " position) or .csv (units, markers)")


@one_line
def check_file(path: str | Path) -> Checked:
    """Load one file and summarise it.

    Examples
    --------
    >>> from pathlib import Path
    >>> demo = Path(__file__).resolve().parents[2] / "counters" / "demo" / "units.csv"
    >>> check_file(demo).kind
    'units'
    """
    kind, doc = load_file(path)
    summary, counts = _summary(doc)
    return Checked(str(path), kind, summary, counts)


def _summary(doc: Document) -> tuple[str, dict[str, int]]:
    if isinstance(doc, MapData):
        total = sum(g.cols * g.rows - len(g.exclude) for g in doc.grids().values())
        # A digitized map's entries that only say how sure a line is not there carry none.
        lined = sum(bool(s.features) for s in doc.hexsides)
        counts = {"boards": len(doc.boards), "hexes": total, "hexes_listed": len(doc.hexes),
                  "hexsides": lined, "locations": len(doc.locations)}
        tag = ", illustrative" if doc.illustrative else ""
        return (f"{counts['boards']} board(s), {total} hexes ({len(doc.hexes)} listed),"
                f" {lined} hexsides, {len(doc.locations)} locations{tag}"), counts
    if isinstance(doc, RulesProfile):
        rules = [*doc.terrain.values(), *doc.hexsides.values()]
        unknown = sum(cost_is_unknown(r.move) for r in rules)
        unknown += sum(cost_is_unknown(r.rate) for r in doc.roads.values())
        counts = {"terrain": len(doc.terrain), "hexsides": len(doc.hexsides),
                  "roads": len(doc.roads), "costs_not_given": unknown}
        return (f"{doc.system}: {len(doc.terrain)} terrain, {len(doc.hexsides)} hexside"
                f" features, {len(doc.roads)} roads, {unknown} costs not given"), counts
    if isinstance(doc, Scenario):
        counts = {"turns": doc.last_turn - doc.first_turn + 1, "setup": len(doc.setup),
                  "reinforcements": len(doc.reinforcements), "markers": len(doc.markers)}
        return (f"{doc.name}: turns {doc.first_turn}-{doc.last_turn}, {len(doc.setup)} set up,"
                f" {len(doc.reinforcements)} reinforcements"), counts
    if isinstance(doc, Position):
        on_map = sum(u.hex is not None for u in doc.units)
        counts = {"units": len(doc.units), "on_map": on_map, "markers": len(doc.markers)}
        return (f"turn {doc.turn}, {doc.phase}, {doc.active_side} to act: {len(doc.units)}"
                f" units ({on_map} on the map), {len(doc.markers)} markers"), counts
    if isinstance(doc, CrtTable):
        cells = [c for row in doc.results for c in row.cells]
        given = sum(c is not None for c in cells)
        counts = {"columns": len(doc.columns), "lines": len(doc.lines),
                  "die_rolls": len(doc.die_rolls or []), "cells_given": given,
                  "cells": len(cells)}
        return (f"{doc.type} CRT, {len(doc.columns)} columns, {len(doc.lines)} terrain lines,"
                f" {given} of {len(cells)} cells given"), counts
    if isinstance(doc, Facts):
        claims = Counter(f.claim for f in doc.facts)
        counts = {"facts": len(doc.facts),
                  **{f"claim_{c}": n for c, n in sorted(claims.items())}}
        by_claim = ", ".join(f"{c} {n}" for c, n in sorted(claims.items())) or "none"
        return f"{len(doc.facts)} facts ({by_claim})", counts
    if isinstance(doc, UnitManifest):
        sides = Counter(u.side for u in doc)
        counts = {"units": len(doc), **{f"side_{s}": n for s, n in sorted(sides.items())}}
        by_side = ", ".join(f"{s} {n}" for s, n in sorted(sides.items()))
        return f"{len(doc)} units ({by_side})", counts
    counts = {"kinds": len(doc), "markers": doc.total()}
    return f"{len(doc)} marker kinds, {doc.total()} markers counted", counts


# -- game folders --------------------------------------------------------------------


@dataclass
class _Folder:
    """What a game folder holds, by kind, with the paths as given."""

    maps: list[tuple[str, MapData]] = field(default_factory=list)
    rules: list[tuple[str, RulesProfile]] = field(default_factory=list)
    scenarios: list[tuple[str, Scenario]] = field(default_factory=list)
    positions: list[tuple[str, Position]] = field(default_factory=list)
    units: list[UnitManifest] = field(default_factory=list)
    markers: list[MarkerManifest] = field(default_factory=list)
    crts: list[tuple[str, CrtTable]] = field(default_factory=list)
    facts: list[tuple[str, Facts]] = field(default_factory=list)

    def add(self, path: str, doc: Document) -> None:
        if isinstance(doc, MapData):
            self.maps.append((path, doc))
        elif isinstance(doc, RulesProfile):
            self.rules.append((path, doc))
        elif isinstance(doc, Scenario):
            self.scenarios.append((path, doc))
        elif isinstance(doc, Position):
            self.positions.append((path, doc))
        elif isinstance(doc, UnitManifest):
            self.units.append(doc)
        elif isinstance(doc, CrtTable):
            self.crts.append((path, doc))
        elif isinstance(doc, Facts):
            self.facts.append((path, doc))
        else:
            self.markers.append(doc)


@one_line
def check_game_dir(
    directory: str | Path, counters: str | Path | None = None
) -> list[Checked]:
    """Check every data file of a game folder, then the references between them.

    Parameters
    ----------
    directory
        A game folder (``maps/<game>`` or ``counters/<game>``). Files other than
        ``.json`` and ``.csv`` (READMEs, scripts) are skipped.
    counters
        Where the unit and marker manifests are, when not in ``directory``. By
        default ``maps/<game>`` is paired with ``counters/<game>``; their files
        are used for the cross-checks but not listed in the result.

    Returns
    -------
    list of Checked
        One entry per file, in name order, then one of kind ``game`` for the
        cross-references (with any warnings).

    Raises
    ------
    BocageError
        The first problem found, as one located line. Cross-file problems
        that are errors: terrain or hexside features the map uses but the rules
        profile does not price; scenario or position units missing from the
        manifest; hexes not on the map; manifest units whose class or side the
        rules profile does not know; enemy units sharing a hex in a position.
    """
    game = GameFolder(directory)
    files = game.data_files()
    if not files:
        raise game.not_a_game_folder([MAP_FILE, UNITS_FILE, "other data file"], every=False)
    results: list[Checked] = []
    folder = _Folder()
    for path in files:
        shown = str(path)
        kind, doc = load_file(shown)
        summary, counts = _summary(doc)
        results.append(Checked(shown, kind, summary, counts))
        folder.add(shown, doc)
    extra = Path(counters) if counters is not None else (
        None if folder.units else companion_counters(game.path))
    if extra is not None and extra.is_dir():
        for path in GameFolder(extra).data_files():
            kind, doc = load_file(str(path))
            if kind in ("units", "markers"):
                folder.add(str(path), doc)
    warnings, counts = _cross_check(folder, str(directory))
    summary = (f"cross-references ok: {counts['units_checked']} unit references,"
               f" {counts['hexes_checked']} hex references, {len(warnings)} warnings")
    results.append(Checked(str(directory), "game", summary, counts, tuple(warnings)))
    return results


def _only[T](items: list[T], names: list[str], what: str, directory: str) -> T | None:
    if len(items) > 1:
        raise DataError(directory, "", f"a game folder holds one {what}; found {len(items)}"
                        f" ({', '.join(Path(n).name for n in names)})")
    return items[0] if items else None


def _cross_check(folder: _Folder, directory: str) -> tuple[list[str], dict[str, int]]:
    warnings: list[str] = []
    counts = {"units_checked": 0, "hexes_checked": 0}
    the_map = _only(folder.maps, [p for p, _ in folder.maps], "map", directory)
    the_rules = _only(folder.rules, [p for p, _ in folder.rules], "rules profile", directory)
    units = _only(folder.units, [u.file for u in folder.units], "units manifest", directory)
    markers = _only(folder.markers, [m.file for m in folder.markers], "markers manifest", directory)

    games = {doc.game for _, doc in folder.maps} | {doc.game for _, doc in folder.rules}
    games |= {doc.game for _, doc in folder.scenarios} | {doc.game for _, doc in folder.positions}
    if len(games) > 1:
        warnings.append(f"documents name different games: {', '.join(sorted(games))}")
    if the_map is not None and the_rules is not None:
        warnings += _rules_cover_map(the_map, the_rules)
    if units is not None:
        counts["hexes_checked"] += _check_manifest(units, the_map, the_rules)
    for path, scenario in folder.scenarios:
        warnings += _scenario_fits(path, scenario, the_map, the_rules)
        u, h = _check_scenario(path, scenario, the_map, units, markers)
        counts["units_checked"] += u
        counts["hexes_checked"] += h
    for path, position in folder.positions:
        u, h = _check_position(path, position, the_map, units, the_rules)
        counts["units_checked"] += u
        counts["hexes_checked"] += h
    if (folder.scenarios or folder.positions) and units is None:
        warnings.append("no units manifest found: unit ids in scenarios and positions not checked")
    return warnings, counts


def _rules_cover_map(mapped: tuple[str, MapData], ruled: tuple[str, RulesProfile]) -> list[str]:
    """Terrain the map uses must be priced (error); vocabulary it only declares, warned."""
    map_path, the_map = mapped
    rules_path, rules = ruled
    for name in sorted(the_map.used_terrain()):
        if not rules.covers_terrain(name):
            raise DataError(rules_path, "terrain", f"no entry for terrain '{name}', which"
                            f" {map_path} uses{did_you_mean(name, rules.terrain)}")
    for name in sorted(the_map.used_hexside_features()):
        if not rules.covers_hexside_feature(name):
            raise DataError(rules_path, "hexsides", f"no entry (in hexsides or roads) for hexside"
                            f" feature '{name}', which {map_path} uses"
                            f"{did_you_mean(name, [*rules.hexsides, *rules.roads])}")
    warnings = [f"{rules_path}: terrain '{n}' of {map_path}'s vocabulary has no entry"
                " (no hex uses it)"
                for n in sorted(the_map.terrain_types) if not rules.covers_terrain(n)]
    warnings += [f"{rules_path}: hexside feature '{n}' of {map_path}'s vocabulary has no entry"
                 " (no hexside uses it)"
                 for n in sorted(the_map.hexside_features) if not rules.covers_hexside_feature(n)]
    return warnings


def _check_manifest(
    units: UnitManifest, mapped: tuple[str, MapData] | None, ruled: tuple[str, RulesProfile] | None
) -> int:
    hexes = 0
    for unit in units:
        line = units.line_of(unit.id) or 0
        if mapped is not None and unit.setup_hex is not None:
            hexes += 1
            if not mapped[1].has_hex(unit.setup_hex):
                raise ManifestError(units.file, line, "setup_hex",
                                    f"setup_hex: {mapped[1].why_not_on_map(unit.setup_hex)}")
        if ruled is not None:
            rules = ruled[1]
            if unit.side not in rules.sides:
                raise ManifestError(units.file, line, "side", f"side '{unit.side}' is not one of"
                                    f" the rules profile's sides ({', '.join(rules.sides)})")
            known = rules.unit_classes
            if unit.unit_class is not None and unit.unit_class not in known:
                raise ManifestError(units.file, line, "class", f"unknown unit class"
                                    f" '{unit.unit_class}'{did_you_mean(unit.unit_class, known)}"
                                    f" (the rules profile's unit_classes: {', '.join(known)})")
            _unit_has_what_the_rules_need(units, line, unit, rules)
    return hexes


def _class_dependent(rules: RulesProfile) -> str | None:
    """Why the rules profile's answers depend on a unit's class, or ``None``."""
    if len(rules.unit_classes) > 1:
        return f"the profile has unit classes {', '.join(rules.unit_classes)}"
    for section in ("terrain", "hexsides"):
        for name, rule in getattr(rules, section).items():
            if isinstance(rule.move, dict):
                return f"{section}.{name}.move is per class"
    for name, road in rules.roads.items():
        if isinstance(road.rate, dict):
            return f"roads.{name}.rate is per class"
    return None


def _unit_has_what_the_rules_need(units: UnitManifest, line: int, unit: UnitSpec,
                                  rules: RulesProfile) -> None:
    """A unit the rules could not answer for is caught here, not at the first question:
    a class where the profile's costs depend on it, a movement allowance (or notes saying
    where it is printed), a size where stacking counts points by size."""
    why = _class_dependent(rules)
    if unit.unit_class is None and why is not None:
        raise ManifestError(units.file, line, "class", f"unit '{unit.id}' has no class, which"
                            f" the rules need ({why}): give it one of"
                            f" {', '.join(rules.unit_classes)}")
    if unit.movement is None and not unit.notes.strip():
        raise ManifestError(units.file, line, "movement", f"unit '{unit.id}' has no movement"
                            " allowance, which every movement question needs: give it, or say"
                            " in notes where it is printed")
    stacking = rules.stacking
    if stacking.counts == "points" and unit.size is None and not unit.notes.strip():
        raise ManifestError(units.file, line, "size", f"unit '{unit.id}' has no size, and"
                            " stacking counts points by size (stacking.points): give it one"
                            f" of {', '.join(stacking.points)}, or say in notes why not")


def _require_unit(
    path: str, where: tuple[str | int, ...], unit_id: str, units: UnitManifest
) -> None:
    if units.get(unit_id) is None:
        raise DataError(path, format_path(where), f"unknown unit '{unit_id}'"
                        f"{did_you_mean(unit_id, units.ids())}: not in {units.file}")


def _require_hexes(
    path: str, hexes: list[tuple[tuple[str | int, ...], str]], mapped: tuple[str, MapData] | None
) -> int:
    if mapped is None:
        return 0
    for where, hex_id in hexes:
        if not mapped[1].has_hex(hex_id):
            raise DataError(path, format_path(where), mapped[1].why_not_on_map(hex_id))
    return len(hexes)


def _check_scenario(
    path: str, scenario: Scenario, mapped: tuple[str, MapData] | None,
    units: UnitManifest | None, markers: MarkerManifest | None,
) -> tuple[int, int]:
    refs = scenario.units()
    if units is not None:
        for where, unit_id in refs:
            _require_unit(path, where, unit_id, units)
    if markers is not None:
        ids = [m.id for m in markers]
        for i, placed in enumerate(scenario.markers):
            if markers.get(placed.marker) is None:
                raise DataError(path, format_path(("markers", i, "marker")),
                                f"unknown marker '{placed.marker}'"
                                f"{did_you_mean(placed.marker, ids)}: not in {markers.file}")
    return (len(refs) if units is not None else 0), _require_hexes(path, scenario.hexes(), mapped)


def _scenario_fits(
    path: str, scenario: Scenario, mapped: tuple[str, MapData] | None,
    ruled: tuple[str, RulesProfile] | None,
) -> list[str]:
    """The first player must be a rules side (error); edges used should be described (warning)."""
    if ruled is not None and scenario.first_player is not None:
        sides = ruled[1].sides
        if scenario.first_player not in sides:
            raise DataError(path, "first_player", f"side '{scenario.first_player}' is not one of"
                            f" the rules profile's sides ({', '.join(sides)})")
    if mapped is None:
        return []
    return [f"{path}: reinforcements[{i}].edge: the map does not describe its {r.edge} edge"
            f" (add edges.{r.edge} to {mapped[0]})"
            for i, r in enumerate(scenario.reinforcements)
            if r.edge is not None and r.edge not in mapped[1].edges]


def _check_position(
    path: str, position: Position, mapped: tuple[str, MapData] | None,
    units: UnitManifest | None, ruled: tuple[str, RulesProfile] | None,
) -> tuple[int, int]:
    hexes = _require_hexes(path, position.hexes(), mapped)
    if ruled is not None:
        sides = ruled[1].sides
        if position.active_side not in sides:
            raise DataError(path, "active_side", f"side '{position.active_side}' is not one of the"
                            f" rules profile's sides ({', '.join(sides)})")
        for hex_id, side in position.control.items():
            if side not in sides:
                raise DataError(path, format_path(("control", hex_id)), f"side '{side}' is not one"
                                f" of the rules profile's sides ({', '.join(sides)})")
    if units is None:
        return 0, hexes
    held: dict[str, tuple[str, str]] = {}  # hex -> (side, unit id) of the first unit there
    for i, placed in enumerate(position.units):
        _require_unit(path, ("units", i, "id"), placed.id, units)
        spec = units.get(placed.id)
        assert spec is not None  # _require_unit raised otherwise
        if placed.steps is not None and spec.steps is not None and placed.steps > spec.steps:
            raise DataError(path, format_path(("units", i, "steps")), f"unit '{placed.id}' has"
                            f" {spec.steps} steps in {units.file}, not {placed.steps}")
        if placed.hex is None:
            continue
        side, other = held.setdefault(placed.hex, (spec.side, placed.id))
        if side != spec.side:
            raise DataError(path, format_path(("units", i, "hex")), f"unit '{placed.id}'"
                            f" ({spec.side}) is in hex {placed.hex} with enemy unit '{other}'"
                            f" ({side}): enemy units never share a hex (000 §5.2d, 003 §5.2.2)")
    return len(position.units), hexes
