"""The rules profile (``rules.json``): what one rule system says in tables.

Rules that differ between games are data wherever a table can say them
(ARCHITECTURE.md, "Conventions"): terrain and hexside costs per unit class,
road rates, who exerts a ZOC and what stops it, stacking limits and how units
count, supply sources and path limits, weather and MA. Procedures stay code
in :mod:`pipeline.rules`; this module only holds and checks the numbers.

A **cost** is a number >= 0, ``"+N"`` (added to the hex's other terrain, 000
§5.4), ``"P"`` (prohibited), ``null`` (the rulebook does not give it), or an
object keyed by unit class whose values take those forms. Every ``null`` needs
a note on the same entry saying where the number is: never a silent unknown.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import Field, PlainSerializer, PlainValidator, WithJsonSchema, model_validator

from pipeline.errors import did_you_mean
from pipeline.model.base import Cite, Invalid, Model, Name, Note
from pipeline.model.documents import read_json, validate_document
from pipeline.model.mapdata import EdgeName
from pipeline.model.translate import describe

__all__ = [
    "SYSTEMS",
    "CombatEffect",
    "Cost",
    "CostLeaf",
    "MovementRules",
    "RoadRule",
    "RulesProfile",
    "StackingException",
    "StackingRules",
    "SupplyRules",
    "SupplySource",
    "TerrainRule",
    "WeatherEffect",
    "ZocRules",
    "cost_is_unknown",
    "load_rules",
    "rules_from_data",
]

SYSTEMS = ("fm_omaha", "june44", "cobra", "tactical")
System = Literal["fm_omaha", "june44", "cobra", "tactical"]

CostLeaf = float | str | None
"""One cost: a number, ``"+N"``, ``"P"`` or ``None`` (not given)."""

_ADDED = re.compile(r"\+\d+(\.\d+)?")
_COST_WORDS = "a number >= 0, '+N' (added terrain), 'P' (prohibited) or null (not given)"


def _leaf(value: Any, path: tuple[str, ...], *, rate: bool) -> CostLeaf:
    what = "a rate: a number >= 0 or null (not given)" if rate else f"a cost: {_COST_WORDS}"
    if value is None:
        return None
    if isinstance(value, bool):
        raise Invalid(path, f"expected {what}, got {describe(value)}")
    if isinstance(value, int | float):
        if not math.isfinite(value) or value < 0:
            raise Invalid(path, f"expected {what}, got {describe(value)}")
        return value
    if isinstance(value, str) and not rate and (value == "P" or _ADDED.fullmatch(value)):
        return value
    raise Invalid(path, f"expected {what}, got {describe(value)}")


def _parse(value: Any, *, rate: bool) -> CostLeaf | dict[str, CostLeaf]:
    if isinstance(value, dict):
        if not value:
            raise Invalid((), "an object of costs by unit class needs at least one class")
        return {str(k): _leaf(v, (str(k),), rate=rate) for k, v in value.items()}
    return _leaf(value, (), rate=rate)


def _parse_cost(value: Any) -> CostLeaf | dict[str, CostLeaf]:
    return _parse(value, rate=False)


def _parse_rate(value: Any) -> CostLeaf | dict[str, CostLeaf]:
    return _parse(value, rate=True)


_LEAF_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "number", "minimum": 0},
        {"type": "string", "pattern": r"^(P|\+\d+(\.\d+)?)$"},
        {"type": "null"},
    ]
}
_RATE_LEAF_SCHEMA: dict[str, Any] = {"anyOf": [{"type": "number", "minimum": 0}, {"type": "null"}]}

def _as_is(value: Any) -> Any:
    # Costs are JSON values already; the union type would make pydantic warn on ints.
    return value


Cost = Annotated[
    CostLeaf | dict[str, CostLeaf],
    PlainValidator(_parse_cost),
    PlainSerializer(_as_is),
    WithJsonSchema({
        "description": f"{_COST_WORDS}, or an object of those keyed by unit class",
        "anyOf": [*_LEAF_SCHEMA["anyOf"],
                  {"type": "object", "additionalProperties": _LEAF_SCHEMA, "minProperties": 1}],
    }),
]
Rate = Annotated[
    CostLeaf | dict[str, CostLeaf],
    PlainValidator(_parse_rate),
    PlainSerializer(_as_is),
    WithJsonSchema({
        "description": "MP per hex along the road: a number >= 0 or null, or an object of"
                       " those keyed by unit class",
        "anyOf": [*_RATE_LEAF_SCHEMA["anyOf"],
                  {"type": "object", "additionalProperties": _RATE_LEAF_SCHEMA,
                   "minProperties": 1}],
    }),
]


def cost_is_unknown(cost: CostLeaf | dict[str, CostLeaf]) -> bool:
    """Whether a cost is, or contains, ``None`` (a number the rulebook does not give).

    >>> cost_is_unknown(None), cost_is_unknown({"leg": 2, "mobile": None}), cost_is_unknown("P")
    (True, True, False)
    """
    if isinstance(cost, dict):
        return any(v is None for v in cost.values())
    return cost is None


class CombatEffect(Model):
    """What a terrain does in combat: a CRT row (000), a column shift (003), a modifier (001)."""

    row: str | None = Field(None, description="CRT line to use, as printed (000 CRT)")
    shift: int | None = Field(None, description="CRT column shifts, + for the attacker (003)")
    modifier: int | None = Field(None, description="die-roll or strength modifier (001 §11.1.1)")
    multiplier: float | None = Field(None, gt=0,
                                     description="defence multiplied by this (000 §8.2.3)")
    cite: Cite = ""
    note: Note = ""

    @model_validator(mode="after")
    def _something(self) -> Self:
        if (self.row, self.shift, self.modifier, self.multiplier) == (None, None, None, None):
            raise Invalid((), 'a combat effect needs "row", "shift", "modifier" or "multiplier"'
                          " (use null for the whole effect when the rulebook gives none)")
        return self


class TerrainRule(Model):
    """The effects of one terrain type or hexside feature."""

    move: Cost
    combat: CombatEffect | None = None
    cite: Cite = ""
    note: Note = ""


class RoadRule(Model):
    """Movement along a road-like hexside feature (000 §5.4.1 road, §5.4.2 trail)."""

    rate: Rate
    cite: Cite = ""
    note: Note = ""


EzocPurpose = Literal["movement", "supply", "retreat", "command"]
MPFormula = Literal["half_printed_ma_round_down", "whole_printed_ma"]
EzocToEzoc = Literal["whole_ma", "one_hex_into_friendly", "disengage", "prohibited", "free"]


class ZocRules(Model):
    """Zones of control: who exerts them, what stops them, what they do to movement."""

    exerted: bool = Field(True, description="false: the system has no ZOC (002)")
    exempt_flags: list[str] = Field([], description="units with these flags exert no ZOC")
    exempt_types: list[str] = []
    exempt_sizes: list[str] = []
    blocked_by_hexsides: list[str] = Field([], description="ZOC does not cross these hexsides")
    not_into_terrain: list[str] = Field([], description="ZOC does not extend into these hexes")
    negated_by_friendly: list[EzocPurpose] = Field(
        [], description="a friendly unit in the hex negates the EZOC for these purposes")
    negation_exempt_flags: list[str] = Field([], description="units with these flags never negate")
    ignored_by_flags: list[str] = Field([], description="units with these flags ignore EZOC")
    stop_on_entry: list[str] = Field([], description="unit classes that stop on entering an EZOC")
    entry_surcharge: dict[str, MPFormula] = Field(
        {}, description="extra MP by unit class for entering an EZOC")
    ezoc_to_ezoc: EzocToEzoc | None = None
    leave_cost: float | None = Field(None, ge=0, description="MP surcharge to leave an EZOC")
    ezoc_to_ezoc_blocked_hexsides: list[str] = []
    ezoc_to_ezoc_blocked_terrain: list[str] = []
    ezoc_to_ezoc_exempt_flags: list[str] = []
    cite: Cite = ""
    note: Note = ""


class StackingException(Model):
    """Units that count differently: free, a fraction, or capped per hex."""

    flag: str | None = None
    type: str | None = None
    size: str | None = None
    nationality: str | None = None
    value: float | None = Field(None, ge=0, description="how much one such unit counts (0: free)")
    max_count: int | None = Field(None, ge=0, description="at most this many per hex")
    cite: Cite = ""
    note: Note = ""

    @model_validator(mode="after")
    def _selects(self) -> Self:
        if (self.flag, self.type, self.size, self.nationality) == (None, None, None, None):
            raise Invalid((), 'a stacking exception needs "flag", "type", "size" or "nationality"')
        return self


class StackingRules(Model):
    """How many units a hex holds and how they count."""

    limit: float | None = Field(..., ge=0, description="per hex, in units or division equivalents")
    counts: Literal["units", "division_equivalents"] = "units"
    size_values: dict[str, float] = Field({}, description="division equivalents by unit size")
    exceptions: list[StackingException] = []
    marker_limits: dict[str, int] = Field(
        {}, description="a different limit in hexes holding this marker (000 §11.2.1 beachhead)")
    no_mixing: list[list[str]] = Field(
        [], description="groups of nationalities; units of different groups never stack")
    cite: Cite = ""
    note: Note = ""


class SupplySource(Model):
    """Where a side traces supply to."""

    side: str = Field(min_length=1)
    kind: Literal["marker", "edge", "hexes", "terrain", "location", "controlled"]
    marker: str | None = None
    edge: EdgeName | None = None
    hexes: list[str] = []
    terrain: str | None = None
    location: str | None = None
    condition: str = ""
    cite: Cite = ""
    note: Note = ""


class SupplyRules(Model):
    """Tracing supply: sources, path length and what blocks a path."""

    traced: bool = Field(True, description="false: every unit is always in supply (000 §9.0)")
    sides: list[str] = Field([], description="sides that must trace supply (empty: all)")
    sources: list[SupplySource] = []
    max_length: int | None = Field(None, ge=0, description="hexes; null: any length")
    length_costs: dict[str, float] = Field(
        {}, description="a hex of this terrain or feature counts this many hexes (003 §10.3.4)")
    max_terrain: dict[str, int] = Field({}, description="at most this many hexes of a terrain")
    ezoc: Literal["blocked", "enter_or_exit_not_both", "ignored"] = "blocked"
    enemy_units_block: bool = True
    exempt_flags: list[str] = []
    out_of_supply_ma_factor: float | None = Field(None, gt=0)
    cite: Cite = ""
    note: Note = ""


class WeatherEffect(Model):
    """What one kind of weather does to movement allowances."""

    sides: list[str] = Field([], description="sides affected (empty: all)")
    ma_factor: float | None = Field(None, ge=0, description="MA multiplied by this")
    ma_subtract: int | None = Field(None, ge=0, description="MA reduced by this")
    rounding: Literal["up", "down"] = "up"
    cite: Cite = ""
    note: Note = ""


class MovementRules(Model):
    """General movement settings a terrain chart does not hold."""

    always_one_hex: bool = Field(False, description="a unit may always move one hex")
    enemy_hexes: Literal["prohibited", "prohibited_except_hq_only"] = "prohibited"
    phase_classes: dict[str, list[str]] = Field(
        {}, description="unit classes that may move in a phase (000 §5.5 mobile movement)")
    weather: dict[str, WeatherEffect] = {}
    cite: Cite = ""
    note: Note = ""


class RulesProfile(Model):
    """A rules profile document (``kind: "rules"``)."""

    kind: Literal["rules"]
    system: System
    game: str = Field(min_length=1)
    title: str = Field("", description="the game's title as players know it ('D-Day Omaha"
                       " Beach'); play aids cite the rulebook by it ('D-Day Omaha Beach"
                       " §6.1'); empty: by the rulebook's file name")
    source: Cite
    notes: Note = ""
    sides: list[Name] = Field(["allied", "german"], min_length=2)
    unit_classes: list[Name] = Field(min_length=1)
    dice: Literal["1d6", "2d6", "1d10"]
    terrain: dict[Name, TerrainRule]
    hexsides: dict[Name, TerrainRule] = {}
    roads: dict[Name, RoadRule] = {}
    multi_terrain: Literal["highest"] = "highest"
    zoc: ZocRules
    stacking: StackingRules
    supply: SupplyRules
    movement: MovementRules

    @model_validator(mode="after")
    def _check(self) -> Self:
        for section in ("terrain", "hexsides"):
            rules: dict[str, TerrainRule] = getattr(self, section)
            for name, rule in rules.items():
                self._check_cost((section, name, "move"), rule.move, rule.note)
                if rule.combat is None and not rule.note.strip():
                    raise Invalid((section, name, "combat"), _needs_note("combat effect"))
        for name, road in self.roads.items():
            self._check_cost(("roads", name, "rate"), road.rate, road.note)
        if self.stacking.limit is None and not self.stacking.note.strip():
            raise Invalid(("stacking", "limit"), _needs_note("stacking limit"))
        for i, name in enumerate(self.zoc.stop_on_entry):
            self._check_class(("zoc", "stop_on_entry", i), name)
        for name in self.zoc.entry_surcharge:
            self._check_class(("zoc", "entry_surcharge", name), name)
        for phase, classes in self.movement.phase_classes.items():
            for i, name in enumerate(classes):
                self._check_class(("movement", "phase_classes", phase, i), name)
        return self

    def _check_cost(self, where: tuple[str, ...], cost: Any, note: str) -> None:
        if isinstance(cost, dict):
            for unit_class in cost:
                self._check_class((*where, unit_class), unit_class)
        if cost_is_unknown(cost) and not note.strip():
            raise Invalid(where, _needs_note("cost"))

    def _check_class(self, where: tuple[str | int, ...], name: str) -> None:
        if name not in self.unit_classes:
            known = ", ".join(self.unit_classes)
            hint = did_you_mean(name, self.unit_classes)
            raise Invalid(where, f"unknown unit class '{name}'{hint} (unit_classes: {known})")

    def covers_terrain(self, name: str) -> bool:
        """Whether the profile says what terrain ``name`` costs."""
        return name in self.terrain

    def covers_hexside_feature(self, name: str) -> bool:
        """Whether the profile says what hexside feature ``name`` does (as a hexside or a road)."""
        return name in self.hexsides or name in self.roads


def _needs_note(what: str) -> str:
    return (f"{what} is null (not given) but the entry has no note: say where the number is,"
            " e.g. \"printed on the map's Terrain Effects Chart, not in the rulebook text\"")


def rules_from_data(data: Any, file: str | Path | None = "<rules>") -> RulesProfile:
    """Validate parsed JSON as a rules document; problems raise one located :class:`DataError`.

    Parameters
    ----------
    data
        The parsed document (a dict with ``"kind": "rules"``).
    file
        Name used in messages.
    """
    return validate_document(RulesProfile, data, file, kind="rules")


def load_rules(path: str | Path) -> RulesProfile:
    """Read a rules document (rules.json); problems raise one located :class:`DataError`."""
    return rules_from_data(read_json(path), path)
