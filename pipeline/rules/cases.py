"""Read rules scenario cases (``SCENARIOS.md``) into a :class:`Situation`.

Each case is self-contained: a tiny flat-top map numbered ``XXYY`` with even
columns half a hex down, its own terrain chart, units, markers and state.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import DataError, GridError, did_you_mean
from pipeline.hexgrid import Hex, HexGrid, Hexside, Numbering, Orientation
from pipeline.model import RulesProfile, load_rules, rules_from_data
from pipeline.rules.profilecheck import check_profile_keys
from pipeline.rules.registry import reference_profile, registry
from pipeline.rules.situation import (
    OVERRUNS_MADE,
    Chart,
    GameMap,
    Marker,
    Situation,
    Unit,
    refuse_mixed_hexes,
)

__all__ = ["Case", "case_from_data", "case_profile", "situation_from_case"]

# SCENARIOS.md §2.1: "bridge is shorthand for road + river".
_SHORTHAND = {"bridge": frozenset({"bridge", "road", "river"})}
_UNIT_KEYS = {"id", "side", "hex", "class", "ma", "steps"}


@dataclass(frozen=True)
class Case:
    """One scenario case: the situation, the question and the expected answer."""

    id: str
    system: str
    rules: tuple[str, ...]
    description: str
    situation: Situation
    query: dict[str, Any]
    expect: dict[str, Any]


def case_grid(cols: int, rows: int) -> HexGrid:
    """The grid of every scenario case (SCENARIOS.md §1)."""
    return HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=cols, rows=rows)


def case_from_data(data: Any, where: str = "case", file: str | None = None) -> Case:
    """Build a :class:`Case`; :class:`DataError` names the place of any problem."""
    if not isinstance(data, dict):
        raise DataError(file, where, "a case must be a JSON object")
    system = data.get("system")
    known = registry()
    if system not in known:
        hint = did_you_mean(system, known) if isinstance(system, str) else ""
        raise DataError(file, f"{where}.system", f"unknown system {system!r}{hint}: registered"
                        f" systems are {', '.join(known)}")
    situation = situation_from_case(data, where, file)
    for key in ("query", "expect"):
        if not isinstance(data.get(key), dict):
            raise DataError(file, f"{where}.{key}", f"'{key}' must be an object")
    return Case(
        id=str(data.get("id", where)),
        system=system,
        rules=tuple(str(r) for r in data.get("rules", ())),
        description=str(data.get("description", "")),
        situation=situation,
        query=data["query"],
        expect=data["expect"],
    )


def situation_from_case(data: dict[str, Any], where: str = "case",
                        file: str | None = None) -> Situation:
    """The :class:`Situation` a case describes."""
    profile = case_profile(data, where, file)
    m = _obj(data.get("map"), f"{where}.map", file)
    try:
        grid = case_grid(int(m["cols"]), int(m["rows"]))
    except (KeyError, TypeError, ValueError, GridError) as exc:
        raise DataError(file, f"{where}.map",
                        f"needs whole numbers 'cols' and 'rows' ({exc})") from None

    def hex_at(text: Any, place: str) -> Hex:
        if not isinstance(text, str) or not grid.has_id(text):
            raise DataError(file, place,
                            f"hex {text!r} is not on the map ({grid.describe_extent()})")
        return grid.hex(text)

    terrain = {
        hex_at(k, f"{where}.map.terrain.{k}"): tuple(v)
        for k, v in _obj(m.get("terrain", {}), f"{where}.map.terrain", file).items()
    }
    hexsides: dict[Hexside, frozenset[str]] = {}
    for i, entry in enumerate(m.get("hexsides", [])):
        place = f"{where}.map.hexsides[{i}]"
        a, b = (hex_at(h, f"{place}.hexes") for h in entry.get("hexes", ()))
        if not grid.adjacent(a, b):
            raise DataError(file, place, f"{entry['hexes']} are not adjacent")
        feats = frozenset().union(*(_SHORTHAND.get(f, frozenset({f})) for f in entry["features"]))
        side = grid.hexside(a, b)
        hexsides[side] = hexsides.get(side, frozenset()) | feats
    gmap = GameMap(grid, terrain, hexsides, dict(m.get("edges", {})))

    chart_data = _obj(data.get("terrain_chart", {}), f"{where}.terrain_chart", file)
    rates: dict[str, Any] = {}
    for key in ("road", "trail"):
        if key in chart_data:
            rates[key] = chart_data[key]
    rates.update(chart_data.get("roads", {}))
    extra = {k: v for k, v in chart_data.items()
             if k not in {"hex", "hexside", "road", "trail", "roads", "basis"}}
    label = f"{file or 'case'}: {where} ({data.get('id', 'no id')})"
    hexside_costs = dict(chart_data.get("hexside", {}))
    if "bridged_river" in chart_data:
        # SCENARIOS.md §2.2: "the chosen cost of a bridged river hexside" (F&M 10.1).
        hexside_costs.setdefault("bridge", chart_data["bridged_river"])
    chart = Chart.for_case(profile, dict(chart_data.get("hex", {})), hexside_costs, rates,
                           extra, label)
    units = []
    for i, u in enumerate(data.get("units", [])):
        place = f"{where}.units[{i}]"
        h = None if u.get("hex") is None else hex_at(u["hex"], f"{place}.hex")
        made = u.get(OVERRUNS_MADE, 0)
        if isinstance(made, bool) or not isinstance(made, int) or made < 0:
            raise DataError(file, f"{place}.{OVERRUNS_MADE}", f"must be a whole number of 0 or"
                            f" more (overruns made earlier this phase), got {made!r}")
        units.append(Unit(
            id=str(u["id"]), side=str(u["side"]), hex=h, unit_class=str(u.get("class", "")),
            ma=float(u.get("ma", 0)), steps=int(u.get("steps", 1)),
            data={k: v for k, v in u.items() if k not in _UNIT_KEYS},
        ))
    markers = []
    for i, mk in enumerate(data.get("markers", [])):
        h = None if mk.get("hex") is None else hex_at(mk["hex"], f"{where}.markers[{i}].hex")
        markers.append(Marker(str(mk["type"]), h,
                              {k: v for k, v in mk.items() if k not in {"type", "hex"}}))
    situation = Situation(str(data["system"]), gmap, chart, tuple(units), tuple(markers),
                          dict(data.get("state", {})), profile)
    refuse_mixed_hexes(situation, file, f"{where}.units")
    return situation


def case_profile(data: dict[str, Any], where: str = "case", file: str | None = None
                 ) -> RulesProfile:
    """The rules profile a case is answered with: its own ``profile`` (a rules document, or
    the path of a ``rules.json`` relative to the case file), else the one its system
    registers (the published game's, :func:`~pipeline.rules.registry.reference_profile`)."""
    raw = data.get("profile")
    if raw is None:
        system = str(data.get("system"))
        reference = reference_profile(system)
        if reference is None:
            raise DataError(file, f"{where}.profile", f"a '{system}' case needs a 'profile':"
                            " the kernel alone has no published game to take one from")
        return reference
    if isinstance(raw, str):
        base = Path(file).parent if file else Path.cwd()
        loaded = load_rules(base / raw)
        check_profile_keys(loaded)
        return loaded
    if not isinstance(raw, dict):
        raise DataError(file, f"{where}.profile", "a case's profile is a rules document (an"
                        " object) or the path of a rules.json")
    try:
        profile = rules_from_data({"kind": "rules", **raw}, file)
    except DataError as exc:
        raise DataError(file, f"{where}.profile" + (f".{exc.path}" if exc.path else ""),
                        exc.message) from None
    if profile.system != data.get("system"):
        raise DataError(file, f"{where}.profile.system", f"the case's system is"
                        f" {data.get('system')!r}, its profile's {profile.system!r}")
    try:
        check_profile_keys(profile)
    except DataError as exc:
        raise DataError(file, f"{where}.profile.{exc.path}", exc.message) from None
    return profile


def _obj(value: Any, place: str, file: str | None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DataError(file, place, "expected an object")
    return value
