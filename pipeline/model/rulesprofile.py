"""The rules profile (``rules.json``): every rule of a game a table can say.

The shared rules validator (:mod:`pipeline.rules`) is one kernel driven by this
document: movement (costs per terrain, hexside and unit class, roads, the
"always one hex" allowance, phases with their own movers and MA, modifiers of
the MA), zones of control (who exerts them, where they reach, what entering,
leaving and moving from one to another cost), stacking (by count or by points,
what counts, what is free, what never mixes) and supply (sources, the length
of a line in hexes or in supply MP, what blocks one). A rule system registered
in the ``bocage.rules`` entry-point group adds only the procedures a table
cannot say, and reads the keys it declares.

Every entry that decides an answer carries its own ``cite`` ("rulebook file
and section", e.g. ``"000_3d79f68a6e3e33eb.txt §6.1 Exception"``): the answers
quote it, with the rulebook's file written as ``cite_as`` says (``"000 §6.1
Exception"``).

A **cost** is a number >= 0, ``"+N"`` (added to the hex's other terrain, 000
§5.4), ``"P"`` (prohibited), ``null`` (the rulebook does not give it), or an
object keyed by unit class whose values take those forms. Every ``null`` needs
a note on the same entry saying where the number is: never a silent unknown.

A **unit selector** (``who`` below) names units by what they are: roles,
classes, flags, types, sizes, nationalities, sides, steps left. Every
condition given must hold; a list holds when any of its values does; an empty
selector is every unit.
"""

# No ``from __future__ import annotations`` here: pydantic then reads each field's type
# as an object, not a string it evaluates, which saves a sixth of the time building
# these classes takes at every start (issue 18).

import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import (
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    PlainSerializer,
    PlainValidator,
    PrivateAttr,
    WithJsonSchema,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from pipeline.errors import did_you_mean
from pipeline.model.base import Cite, Invalid, Model, Name, Note
from pipeline.model.documents import read_json, validate_document
from pipeline.model.mapdata import EdgeName
from pipeline.model.systems import GENERIC, system_ids
from pipeline.model.translate import describe

__all__ = [
    "AllowanceRule",
    "AlwaysBlock",
    "AssumedBridge",
    "BlockingHex",
    "CombatEffect",
    "Cost",
    "CostLeaf",
    "CrossingCount",
    "EnemyHexRule",
    "EzocToEzoc",
    "EzocToEzocBarred",
    "HexLimit",
    "HexTerrainRule",
    "HexsideRule",
    "LengthCount",
    "LosBar",
    "LosRules",
    "MaModifier",
    "MarkerExclusion",
    "MarkerMatch",
    "MinimumCost",
    "MovementRules",
    "MovesAs",
    "Negation",
    "NoMixing",
    "NotInEzoc",
    "NotTraced",
    "OnceLeft",
    "OneHexOut",
    "OneHexRule",
    "OverrunCost",
    "OverrunHexsides",
    "OverrunLimit",
    "OverrunMarkers",
    "OverrunPhases",
    "OverrunRules",
    "OverrunTerrain",
    "OverrunTurns",
    "OverrunZoc",
    "PhaseMover",
    "PhaseRule",
    "PlacementRules",
    "RoadCount",
    "RoadNegation",
    "RoadOnly",
    "RoadRule",
    "Rule",
    "RulesProfile",
    "SourceExclusion",
    "StackingMarker",
    "StackingRules",
    "StackingUnit",
    "StopRule",
    "SupplyBlocker",
    "SupplyEzoc",
    "SupplyLength",
    "SupplyProhibited",
    "SupplyRules",
    "SupplySource",
    "TerrainLimit",
    "TerrainRule",
    "UnitRule",
    "UnitSelector",
    "ZocByClass",
    "ZocEnter",
    "ZocExerter",
    "ZocLeave",
    "ZocReach",
    "ZocRules",
    "ZocSuspension",
    "cost_is_unknown",
    "load_rules",
    "rules_from_data",
]

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


#: A movement cost as a profile gives it: a number >= 0, '+N' (added terrain), 'P'
#: (prohibited) or null (not given), or an object of those keyed by unit class.
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


class _SystemId:
    """A registered rule system's id, checked against the registry when a profile is read
    (so a plugin installed later is known) and published as the schema's enum."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler
                                     ) -> CoreSchema:
        return core_schema.no_info_plain_validator_function(_check_system)

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: CoreSchema, handler: GetJsonSchemaHandler
                                     ) -> JsonSchemaValue:
        return {"enum": list(system_ids()), "type": "string",
                "description": "the rule system: 'generic' is the kernel alone, driven by this"
                               " profile; the others are registered in the 'bocage.rules'"
                               " entry-point group and add their procedures to it"}


def _check_system(value: Any) -> str:
    known = system_ids()
    if not isinstance(value, str) or value not in known:
        hint = did_you_mean(value, known) if isinstance(value, str) else ""
        raise Invalid((), f"unknown rule system {describe(value)}{hint}: registered systems are"
                      f" {', '.join(known)} (a plugin registers its own in the 'bocage.rules'"
                      " entry-point group)")
    return value


SystemId = Annotated[str, _SystemId]


# -- shared pieces -----------------------------------------------------------------------


class Rule(Model):
    """A rule with nothing to set but where it is written."""

    cite: Cite = ""
    note: Note = ""


class UnitSelector(Model):
    """Which units a rule is about: every condition given must hold, a list holds when any
    of its values does, and an empty selector is every unit."""

    roles: list[Name] = Field([], description="units of any of these roles (the profile's"
                              " 'roles')")
    classes: list[Name] = Field([], description="units of any of these unit classes")
    flags: list[Name] = Field([], description="units carrying any of these flags (manifest"
                              " 'flags', position flags, scenario case flags)")
    types: list[str] = Field([], description="units of any of these types (manifest 'type')")
    sizes: list[str] = Field([], description="units of any of these sizes (manifest 'size')")
    nationalities: list[str] = Field([], description="units of any of these nationalities")
    sides: list[Name] = Field([], description="units of any of these sides")
    steps: list[int] = Field([], description="units with this many steps left")
    transported: bool | None = Field(None, description="true: only units carried by another"
                                     " unit; false: only units not carried")
    out_of_supply: bool | None = Field(None, description="true: only units out of supply (as"
                                       " the position or case gives it, not traced)")

    def conditions(self) -> dict[str, Any]:
        """The conditions given, by field name."""
        return {name: value for name, value in self if name in _SELECTOR_FIELDS
                and value not in ([], None)}


_SELECTOR_FIELDS = frozenset(UnitSelector.model_fields)


class UnitRule(UnitSelector):
    """Units a rule names, with where the rule is written."""

    cite: Cite = ""
    note: Note = ""


class MarkerMatch(Model):
    """Markers of one type, optionally with given values (``"$side"``: the side asking)."""

    type: str = Field(min_length=1, description="the marker's type")
    where: dict[str, str | int | float | bool] = Field(
        {}, description="values the marker must carry, e.g. {\"controlled_by\": \"$side\"};"
        " \"$side\" stands for the side the question is about")


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


# -- terrain, hexsides, roads ------------------------------------------------------------


class TerrainRule(Model):
    """The effects of one hex terrain or hexside feature."""

    move: Cost = Field(description="MP to enter (a hex) or added to cross (a hexside)")
    combat: CombatEffect | None = Field(None, description="the effect in combat (play aids)")
    cite: Cite = ""
    note: Note = ""


class AssumedBridge(Model):
    """Where this hexside separates two hexes of one of these terrains a bridge is assumed:
    it is crossed as the ``bridge`` feature is (000 §10.1 Important)."""

    between: list[Name] = Field(min_length=1, description="terrains of the hexes on both sides")
    crossed_as: Name = Field(description="the hexside feature whose cost it takes")
    cite: Cite = ""
    note: Note = ""


class HexsideRule(TerrainRule):
    """The effects of one hexside feature."""

    bridged_between: AssumedBridge | None = None


class MinimumCost(Model):
    """No hex of this terrain costs less than this to enter (003 §5.7.1)."""

    cost: float = Field(ge=0, description="the least MP entering costs")
    classes: list[Name] = Field([], description="only for these unit classes (empty: all)")
    along_roads: bool = Field(False, description="true: also when entered along a road")
    unless_terrain: list[Name] = Field([], description="not in a hex that also has one of"
                                       " these terrains (003 §8.3.4: marsh is only marsh)")
    cite: Cite = ""
    note: Note = ""


class RoadOnly(Model):
    """Units of these classes enter such a hex only through a road hexside (003 §5.3.6)."""

    classes: list[Name] = Field(min_length=1, description="the unit classes")
    cite: Cite = ""
    note: Note = ""


class EntryRoll(Model):
    """Units of these classes must roll to enter such a hex, or stop before it (002)."""

    classes: list[Name] = Field(min_length=1, description="the unit classes that roll")
    succeeds: list[int] = Field(min_length=1, description="the die results that let it enter")
    cite: Cite = ""
    note: Note = ""


class HexTerrainRule(TerrainRule):
    """The effects of one terrain type in a hex."""

    minimum: list[MinimumCost] = Field([], description="least costs of entering")
    road_only: RoadOnly | None = None
    entry_roll: EntryRoll | None = None


class RoadNegation(Model):
    """What takes the road's rate away in the hex entered (002 "Terrain features")."""

    units: int | None = Field(None, ge=1, description="a hex holding this many units besides"
                              " the movers (counted as for stacking)")
    markers: list[str] = Field([], description="a hex holding any of these markers")
    cite: Cite = ""
    note: Note = ""


class RoadRule(Model):
    """Movement along a road-like hexside feature (000 §5.4.1 road, §5.4.2 trail)."""

    rate: Rate = Field(description="MP a hex along the road: a number >= 0, null (not"
                     " given: say where in the note), or an object of those by unit class")
    along: Literal["hexside", "hexes"] = Field(
        "hexside", description="'hexside': the rate applies entering a hex through a road"
        " hexside and replaces the hex's and the hexside's costs (000 §5.4.1, 003 §5.7.3);"
        " 'hexes': from a road hex into a road hex, the rate replaces the hex's cost and"
        " the hexside's costs are added (001 §10.1)")
    bridges: list[Name] = Field([], description="hexside features a road on the same hexside"
                                " crosses: they neither cost nor prohibit there (bridges)")
    negated_by: RoadNegation | None = None
    cite: Cite = ""
    note: Note = ""


# -- movement ----------------------------------------------------------------------------


class AllowanceRule(Model):
    """A unit spends at most its movement allowance (MA) in a phase."""

    cite: Cite = Field("", description="cited when a step needs more MP than are left")
    note: Note = ""


class EnemyHexRule(Model):
    """Whether a unit may enter a hex holding enemy units."""

    enterable: bool = Field(False, description="true: units may enter hexes holding enemy"
                            " units (movement is not what stops them)")
    except_holding_only: list[UnitSelector] = Field(
        [], description="a hex holding only such enemy units may be entered (003 §9.2.1)")
    cite: Cite = ""
    note: Note = ""


class OneHexRule(Model):
    """A unit with an MA above 0 may always move one hex: its first step, even when its MP
    do not cover it, into a hex it may otherwise enter; that hex ends its move."""

    from_ezoc: bool = Field(True, description="false: not when it starts in an EZOC"
                            " (003 §5.2.7)")
    cite: Cite = ""
    note: Note = ""


class PhaseMover(UnitSelector):
    """Units that may move in a phase, and how."""

    ma_factor: float | None = Field(None, gt=0, description="their MA this phase: the printed"
                                    " MA times this, rounded up (003 §5.3.3)")
    one_hex_only: bool = Field(False, description="they move one hex only (003 §5.3.7)")
    ignore_terrain: bool = Field(False, description="that hex costs them nothing")
    cite: Cite = ""
    note: Note = ""


class PhaseRule(Model):
    """A movement phase with its own movers (mobile, mechanized, exploitation phases)."""

    movers: list[PhaseMover] = Field([], description="who may move (empty: every unit)")
    not_if_moved_in: str | None = Field(
        None, description="a key of the position's state listing the ids of units that"
        " moved earlier in the turn; they may not move in this phase (000 §5.5)")
    cite: Cite = ""
    note: Note = ""


class MaModifier(UnitSelector):
    """A change to the MA of the units it selects, applied in the profile's order after a
    phase's own factor: weather, supply, replacements, the first turns."""

    turns: list[int] = Field([], description="only on these game turns")
    phases: list[str] = Field([], description="only in these phases")
    weather: list[str] = Field([], description="only in this weather (the position's)")
    factor: float | None = Field(None, ge=0, description="MA times this")
    subtract: float | None = Field(None, ge=0, description="MA less this (never below 0)")
    subtract_from_state: str | None = Field(
        None, description="MA less the number the position's state holds under this key"
        " (001 §7.5: the weather modifier is read off the Weather Track)")
    max_hexes: int | None = Field(None, ge=0, description="the unit moves at most this many"
                                  " hexes (0: it does not move)")
    rounding: Literal["up", "down"] = Field("up", description="how a factor's fraction is"
                                                 " rounded (003 §2.6: up)")
    cite: Cite = ""
    note: Note = ""

    @model_validator(mode="after")
    def _one_change(self) -> Self:
        given = [n for n in ("factor", "subtract", "subtract_from_state", "max_hexes")
                 if getattr(self, n) is not None]
        if len(given) != 1:
            raise Invalid((), "a movement modifier needs exactly one of factor, subtract,"
                          " subtract_from_state or max_hexes"
                          f" (given: {', '.join(given) or 'none'})")
        return self


class StopRule(UnitSelector):
    """Units that enter such a hex must stop there."""

    terrain: list[Name] = Field([], description="hexes with any of these terrains")
    markers: list[MarkerMatch] = Field([], description="hexes holding such a marker")
    cite: Cite = ""
    note: Note = ""

    @model_validator(mode="after")
    def _where(self) -> Self:
        if not self.terrain and not self.markers:
            raise Invalid((), "a stop rule needs terrain or markers")
        return self


class MovesAs(UnitSelector):
    """Units that move (and pay terrain costs) as another class (003 §5.3.1: HQs)."""

    unit_class: Name = Field(alias="class", description="the class they move as")
    cite: Cite = ""
    note: Note = ""


class MovementRules(Model):
    """Movement: the allowance, enemy hexes, phases, modifiers, stops."""

    allowance: AllowanceRule = AllowanceRule()
    prohibited: Rule = Field(Rule(), description="no unit enters prohibited terrain (cited when"
                             " the terrain's own entry has no cite)")
    enemy_hexes: EnemyHexRule = EnemyHexRule()
    one_hex: OneHexRule | None = Field(None, description="null: no minimum move")
    phases: dict[Name, PhaseRule] = Field({}, description="phases with their own movers;"
                                          " every other phase lets every unit move")
    ma_modifiers: list[MaModifier] = []
    stops: list[StopRule] = []
    no_passing_friendly: list[UnitRule] = Field(
        [], description="units that may not move through hexes holding friendly units")
    moves_as: list[MovesAs] = []
    cite: Cite = ""
    note: Note = ""


# -- zones of control --------------------------------------------------------------------


class ZocReach(Model):
    """Where a zone of control extends: the six adjacent hexes, except..."""

    blocked_by_hexsides: list[Name] = Field([], description="not across these hexside features")
    not_into_terrain: list[Name] = Field([], description="not into hexes of these terrains")
    not_across_prohibited: bool = Field(False, description="not where the exerting unit could"
                                        " not move (001 §6.0: the Caen Canal)")
    cite: Cite = ""
    note: Note = ""


class ZocEnter(Model):
    """What entering a hex in an enemy ZOC (EZOC) does."""

    stop: bool = Field(True, description="the unit stops there")
    extra_mp: float = Field(0, ge=0, description="MP paid on top of the terrain")
    extra_ma_fraction: float | None = Field(None, gt=0, le=1, description="plus this share"
                                            " of the printed MA (000 §6.1: a half)")
    rounding: Literal["up", "down"] = Field("down", description="how the share of the MA"
                                                 " is rounded (000 §6.1: down)")
    free_for: list[UnitRule] = Field([], description="units that pay none of the extra MP"
                                         " (000 §6.1: commandos)")
    cite: Cite = ""
    note: Note = ""


class OneHexOut(UnitSelector):
    """Units standing in such terrain in an EZOC may always leave it one hex into such
    terrain, whatever their MP (003 §5.6.4)."""

    terrain: list[Name] = Field(min_length=1, description="the terrains of the hex it stands"
                               " in and of the hex it leaves into")
    unless_terrain: list[Name] = Field([], description="not a hex that also has one of these")
    cite: Cite = ""
    note: Note = ""


class ZocLeave(Model):
    """What leaving a hex in an EZOC does."""

    allowed: bool = Field(True, description="false: a unit in an EZOC may not leave it")
    extra_mp: float = Field(0, ge=0, description="MP paid on top of the terrain (003 §5.6.1)")
    no_reentry: bool = Field(False, description="a unit that left an EZOC may not enter one"
                             " again this phase (003 §5.6.2)")
    reentry_cite: Cite = Field("", description="cited when it tries to")
    one_hex: list[OneHexOut] = []
    cite: Cite = ""
    note: Note = ""


class ZocSuspension(UnitSelector):
    """Units that exert no ZOC on some turns, nor do enemy units next to them (003 §7.8)."""

    turns: list[int] = Field(min_length=1, description="the game turns")
    adjacent_enemies: bool = Field(False, description="enemy units adjacent to them exert"
                                   " none either")
    cite: Cite = ""
    note: Note = ""


class EzocToEzoc(Model):
    """Moving directly from a hex in an EZOC into another."""

    mode: Literal["allowed", "prohibited", "whole_ma", "one_hex_into_friendly"] = Field(
        "allowed", description="'whole_ma': only as the whole move, spending the whole MA"
        " (000 §6.1); 'one_hex_into_friendly': one hex, into a hex holding a friendly unit,"
        " then stop (001 §6.2)")
    cite: Cite = ""
    note: Note = ""


class EzocToEzocBarred(Model):
    """Where no unit moves from EZOC to EZOC (000 §6.1 Exception)."""

    hexsides: list[Name] = Field([], description="not across these hexside features")
    terrain: list[Name] = Field([], description="not into hexes of these terrains")
    exempt: list[UnitSelector] = Field([], description="units it does not bar (000 §6.1"
                                       " Exception: commandos)")
    cite: Cite = ""
    note: Note = ""


class ZocByClass(Model):
    """A unit class's own ZOC effects (the profile's defaults otherwise)."""

    enter: ZocEnter | None = None
    leave: ZocLeave | None = None
    ezoc_to_ezoc: EzocToEzoc | None = None


class ZocExerter(UnitSelector):
    """Units that exert a ZOC under a rule of their own: when only such units put a hex in
    an EZOC, answers cite that rule (003 §15.1 delay units)."""

    in_terrain: list[Name] = Field([], description="only while they stand in such terrain"
                                   " (003 §7.6: out of Caen)")
    cite: Cite = ""
    note: Note = ""


EzocPurpose = Literal["movement", "supply", "retreat", "command"]


class Negation(Model):
    """Friendly units in a hex negate the EZOC there, for some purposes."""

    purposes: list[EzocPurpose] = Field([], description="what the negation is for (empty:"
                                          " friendly units never negate an EZOC)")
    not_by: list[UnitRule] = Field([], description="units that never negate (003 §9.2.6)")
    cite: Cite = ""
    note: Note = ""


class ZocRules(Model):
    """Zones of control: who exerts them, where they reach, what they do to movement."""

    exerted: bool = Field(True, description="false: the game has no ZOC (002)")
    exerted_by: list[UnitSelector] = Field([], description="who exerts one (empty: every unit"
                                           " not in not_exerted_by)")
    not_exerted_by: list[UnitRule] = Field([], description="who exerts none (each with where"
                                           " that is written)")
    suspended: list[ZocSuspension] = []
    exerted_under: list[ZocExerter] = []
    reach: ZocReach = ZocReach()
    enter: ZocEnter = ZocEnter()
    leave: ZocLeave = ZocLeave()
    ezoc_to_ezoc: EzocToEzoc = EzocToEzoc()
    ezoc_to_ezoc_barred: EzocToEzocBarred | None = None
    by_class: dict[Name, ZocByClass] = Field({}, description="per unit class, what differs")
    negated_by_friendly: Negation = Negation()
    ignored_by: list[UnitRule] = Field([], description="units an EZOC never affects")
    cite: Cite = Field("", description="the rule saying which units exert a ZOC and into"
                       " which hexes (each entry below cites its own)")
    note: Note = ""


# -- stacking ----------------------------------------------------------------------------


class StackingUnit(UnitSelector):
    """Units that count differently for stacking, or limit a stack."""

    value: float | None = Field(None, ge=0, description="what one such unit counts (0: nothing);"
                                " null: as every unit does")
    free: int | None = Field(None, ge=0, description="the first this many such units of a hex"
                             " count nothing; the others count 'value'")
    free_with: list[UnitSelector] = Field([], description="free only in a hex that also holds"
                                          " such a unit (003 §6.2)")
    max_count: int | None = Field(None, ge=0, description="at most this many such units a hex")
    max_stack: int | None = Field(None, ge=1, description="a hex holding such a unit holds at"
                                  " most this many units")
    raises_limit: float | None = Field(None, gt=0, description="a hex holding such a unit may"
                                       " hold this much more (001 §6.3: a third unit)")
    cite: Cite = ""
    note: Note = ""


class StackingMarker(Model):
    """A marker that counts for stacking (other markers never do)."""

    value: float = Field(1, ge=0, description="what one such marker counts (0: nothing)")
    max_count: int | None = Field(None, ge=0, description="at most this many a hex")
    cite: Cite = ""
    note: Note = ""


class MarkerExclusion(Model):
    """Marker types that never share a hex."""

    types: list[str] = Field(min_length=2, description="marker types")
    cite: Cite = ""
    note: Note = ""


class OnceLeft(Model):
    """A unit that has left such a hex, by the move being checked too, may never stack
    again (000 §11.2.1)."""

    flag: Name = Field(description="the flag a position gives a unit that has left one")
    cite: Cite = ""
    note: Note = ""


class HexLimit(Model):
    """A different limit in some hexes (000 §11.2.1: three in a beach landing hex)."""

    limit: float = Field(ge=0, description="what such a hex holds, in units or points")
    marker: str | None = Field(None, description="hexes holding this marker")
    terrain: Name | None = Field(None, description="hexes of this terrain")
    once_left: OnceLeft | None = None
    cite: Cite = ""
    note: Note = ""


class NoMixing(Model):
    """Groups of nationalities whose units never stack together."""

    groups: list[list[str]] = Field(min_length=2, description="lists of nationalities; units"
                                     " of two groups never share a hex")
    cite: Cite = ""
    note: Note = ""


class StackingRules(Model):
    """How much a hex holds and how units count."""

    limit: float | None = Field(..., ge=0, description="per hex, in units or points")
    counts: Literal["units", "points"] = Field(
        "units", description="'points': each unit counts the points of its size")
    points: dict[str, float] = Field({}, description="stacking points by unit size")
    units: list[StackingUnit] = []
    markers: dict[str, StackingMarker] = Field({}, description="markers that count, by type")
    exclusive_markers: list[MarkerExclusion] = []
    hex_limits: list[HexLimit] = []
    no_mixing: NoMixing | None = None
    applies: Literal["end_of_movement", "always"] = Field(
        "end_of_movement", description="when the limit holds (a position is checked either way)")
    pass_through: bool = Field(True, description="units may move through a hex they could"
                               " not end in")
    cite: Cite = ""
    note: Note = ""


# -- reinforcements ----------------------------------------------------------------------


class NotInEzoc(Model):
    """No reinforcement is placed in a hex in an EZOC (from some turn on)."""

    from_turn: int = Field(1, ge=0, description="the first turn this holds (000 §11.2.4: not"
                           " on GT 1)")
    unless_friendly: bool = Field(False, description="unless a friendly unit is in the hex")
    cite: Cite = ""
    note: Note = ""


class PlacementRules(Model):
    """Where reinforcements may be placed; the stacking limits apply there too."""

    markers: list[MarkerMatch] = Field([], description="only in hexes holding such a marker")
    terrain: list[Name] = Field([], description="only in hexes of such terrain")
    enemy_occupied: Rule = Field(Rule(), description="never in a hex holding an enemy unit")
    not_in_ezoc: NotInEzoc | None = None
    cite: Cite = ""
    note: Note = ""


# -- supply ------------------------------------------------------------------------------


class NotTraced(UnitSelector):
    """Units that need not trace supply, and why."""

    turns: list[int] = Field([], description="only on these game turns")
    reason: str = Field(min_length=1, description="what the answer says")
    cite: Cite = ""
    note: Note = ""


class SourceExclusion(Model):
    """A source marker carrying these values is not a source (003 §10.5.4)."""

    where: dict[str, str | int | float | bool] = Field(
        min_length=1, description="values a marker carries that make it no source (\"$side\": the"
        " side tracing)")
    reason: str = Field("", description="what the answer says when this leaves a unit cut off")
    cite: Cite = ""
    note: Note = ""


class SupplySource(Model):
    """Where a side traces supply to."""

    side: Name = Field(description="the side whose units trace to it")
    kind: Literal["marker", "edge", "hexes", "terrain", "units"] = Field(
        description="what makes a hex a source: a marker, a map edge, listed hexes, a terrain,"
        " friendly units")
    name: str = Field("", description="how answers name it ('a beach landing hex')")
    marker: MarkerMatch | None = Field(None, description="kind 'marker': hexes holding it")
    terrain: Name | None = Field(None, description="kind 'terrain': hexes of it; kind"
                                 " 'marker': only markers in such a hex")
    edges: list[EdgeName] = Field([], description="kind 'edge': these map edges (empty: all)")
    edge_role: str | None = Field(None, description="kind 'edge': only edges the map data"
                                  " gives this role")
    hexes: list[str] = Field([], description="kind 'hexes': these hexes")
    units: list[UnitSelector] = Field([], description="kind 'units': hexes of friendly units"
                                      " like these")
    controlled: bool = Field(False, description="only while the position's control gives the"
                             " hex to the side")
    excluded: list[SourceExclusion] = []
    in_hex: Rule | None = Field(None, description="the rule that a unit in such a hex is in"
                                " supply (000 §12.0 Exception), cited for it (default: the"
                                " source's own cite)")
    cite: Cite = ""
    note: Note = ""

    @model_validator(mode="after")
    def _complete(self) -> Self:
        needs = {"marker": self.marker, "terrain": self.terrain, "hexes": self.hexes or None,
                 "units": self.units or None}
        if self.kind in needs and needs[self.kind] is None:
            raise Invalid((self.kind,), f"a '{self.kind}' source needs '{self.kind}'")
        return self


class LengthCount(Model):
    """What a hex counts toward a line's length (first match wins)."""

    terrain: Name | None = Field(None, description="a hex of this terrain")
    feature: Name | None = Field(None, description="a hex with a hexside of this feature")
    counts: float = Field(ge=0, description="what entering such a hex counts")
    cite: Cite = ""
    note: Note = ""


class CrossingCount(Model):
    """A hexside crossed counts this instead of the hex entered (003 §10.3.6)."""

    feature: Name = Field(description="the hexside feature")
    counts: float = Field(ge=0, description="what the step counts instead")
    unless_road: bool = Field(True, description="not when a road crosses the same hexside")
    cite: Cite = ""
    note: Note = ""


class RoadCount(Model):
    """A step along a road hexside counts this (supply in MP along roads)."""

    road: Name = Field(description="the road (a key of roads)")
    counts: float = Field(ge=0, description="what the step counts")
    cite: Cite = ""
    note: Note = ""


class TerrainLimit(Model):
    """A line passes at most this many hexes of a terrain (003 §10.3.2)."""

    terrain: Name = Field(description="the terrain")
    max: int = Field(ge=0, description="at most this many such hexes on one line")
    except_along_roads: bool = Field(False, description="a hex the line enters and leaves"
                                     " through road hexsides does not count")
    cite: Cite = ""
    note: Note = ""


class SupplyLength(Model):
    """How long a line of supply may be, counted in hexes or in supply MP."""

    max: float | None = Field(None, ge=0, description="null: any length")
    unit: Literal["hexes", "mp"] = Field("hexes", description="what max counts: hexes, or"
                                        " supply MP")
    default: float = Field(1, ge=0, description="what entering a hex counts otherwise")
    hex_counts: list[LengthCount] = []
    crossings: list[CrossingCount] = []
    roads: list[RoadCount] = []
    terrain_limits: list[TerrainLimit] = []
    cite: Cite = ""
    note: Note = ""


class SupplyEzoc(Model):
    """What an EZOC does to a line of supply."""

    mode: Literal["blocked", "enter_or_exit", "ignored"] = Field(
        "blocked", description="'blocked': a line may not enter an EZOC hex unless a friendly"
        " unit negates it; 'enter_or_exit': only the unit's own hex and the source may be in"
        " an EZOC (000 §12.0)")
    own_hex: Literal["free", "blocked"] = Field(
        "free", description="'blocked': no line leaves an EZOC hex that no friendly unit"
        " negates (003 §10.3.3)")
    cite: Cite = ""
    note: Note = ""


class SupplyBlocker(Model):
    """A hexside feature no line crosses."""

    feature: Name = Field(description="the hexside feature")
    unless_road: bool = Field(False, description="except where a road crosses it (a bridge)")
    cite: Cite = ""
    note: Note = ""


class SupplyProhibited(Model):
    """A line may not cross what movement prohibits to units of this class (001 §6.0)."""

    unit_class: Name = Field(alias="class", description="the unit class whose prohibited"
                             " terrain no line crosses")
    cite: Cite = ""
    note: Note = ""


class SupplyRules(Model):
    """Tracing supply: who, to which sources, how far, and what blocks a line."""

    traced: bool = Field(True, description="false: the game has no supply rules")
    not_traced: list[NotTraced] = []
    sources: list[SupplySource] = []
    length: SupplyLength = SupplyLength()
    enemy_units: Rule = Field(Rule(), description="a line never enters a hex holding enemy"
                              " units")
    ezoc: SupplyEzoc = SupplyEzoc()
    blocking_hexsides: list[SupplyBlocker] = []
    prohibited: SupplyProhibited | None = None
    cite: Cite = Field("", description="the rule a unit out of supply is refused by when no"
                       " single limit is to blame")
    note: Note = ""


# -- procedures some systems read --------------------------------------------------------


class AlwaysBlock(Model):
    """This many bars of a kind on one line always block it, unless both units stand at an
    elevation (002: "LOS is always obstructed by 2 hilltop hex sides unless both units are
    on hilltops")."""

    count: int = Field(ge=1, description="this many such bars on the line")
    unless_both_at: int | None = Field(None, ge=0, description="not when both units stand at"
                                        " this elevation")
    cite: Cite = ""
    note: Note = ""


class LosBar(Model):
    """A hexside bar that blocks line of sight (002)."""

    level: int = Field(ge=0, description="the elevation it stands at: a unit higher up traces"
                       " LOS over it")
    not_when_joined_to: Name | None = Field(None, description="it does not block where it meets"
                                            " a bar of this kind at a corner")
    always_block: AlwaysBlock | None = None
    cite: Cite = ""
    note: Note = ""


class BlockingHex(Model):
    """A hex with all of these terrains on the line always blocks it (002: "combined woods +
    town hexes")."""

    terrain: list[Name] = Field(min_length=1, description="terrains the hex has, all of them")
    cite: Cite = ""
    note: Note = ""


class LosRules(Model):
    """Line of sight over hexside bars and elevation (002)."""

    elevations: dict[Name, int] = Field({}, description="hex terrain -> elevation (else 0)")
    bars: dict[Name, LosBar] = {}
    blocking_hexes: list[BlockingHex] = Field([], description="hexes that always block")
    corners_block: bool = Field(True, description="a line through a corner touches every"
                                " hexside meeting there")
    cite: Cite = ""
    note: Note = ""


class OverrunCost(Model):
    """What an overrun costs: MP on top of entering the target hex (003 §5.5.1)."""

    extra_mp: float = Field(ge=0, description="MP paid on top of the target hex's terrain"
                            " cost, which roads may lower as for any move (003 §5.5.1: 3)")
    cite: Cite = Field("", description="cited when the mover has not the MP left")
    note: Note = ""


class OverrunPhases(Model):
    """Overruns are made only in these phases (003 §5.5: the initial movement phase)."""

    phases: list[str] = Field(min_length=1, description="the phases, as the position names"
                              " them")
    cite: Cite = ""
    note: Note = ""


class OverrunTurns(Model):
    """No overrun on these game turns (003 §5.9.7: Game Turn 1)."""

    turns: list[int] = Field(min_length=1, description="the game turns")
    cite: Cite = ""
    note: Note = ""


class OverrunHexsides(Model):
    """No overrun across these hexside features, a road on the hexside or not (003 §5.5.3:
    major rivers, bridged or not)."""

    hexsides: list[Name] = Field(min_length=1, description="hexside features")
    cite: Cite = ""
    note: Note = ""


class OverrunTerrain(Model):
    """Hexes of these terrains: no overrun into them (``not_into``, 003 §5.5.3: fortress
    hexes), or only into them (``only_into``, 002: clear)."""

    terrain: list[Name] = Field(min_length=1, description="terrains")
    cite: Cite = ""
    note: Note = ""


class OverrunMarkers(Model):
    """No overrun into a hex holding such a marker (002: blocks, wrecks, fortifications and
    minefields)."""

    markers: list[str] = Field(min_length=1, description="marker types")
    cite: Cite = ""
    note: Note = ""


class OverrunZoc(Model):
    """Zones of control and an overrun (003 §5.5.6)."""

    ignores_target: bool = Field(True, description="the move that overruns ignores the ZOC of"
                                 " the units it overruns: hexes only they put in an EZOC are"
                                 " entered and left freely, before and after the overrun")
    not_from_other_ezoc: bool = Field(True, description="no overrun from a hex in the ZOC of"
                                      " enemy units other than those overrun")
    not_after_leaving: bool = Field(True, description="no overrun by a unit that left an EZOC"
                                    " this phase (disengaged)")
    cite: Cite = ""
    note: Note = ""


class OverrunLimit(UnitSelector):
    """At most ``count`` overruns a phase by the units selected (003 §5.5.1: two for
    armored, panzer and panzer-grenadier divisions, one for a US truck-mechanized infantry
    division)."""

    count: int = Field(ge=1, description="overruns a phase at most")
    cite: Cite = ""
    note: Note = ""


class OverrunRules(Model):
    """Overruns: an attack made while moving, by entering the enemy's hex (002, 003 §5.5).

    A path checked as an overrun (``bocage rules check-move --overrun``) enters each enemy
    hex on it as an overrun the defender loses: the units there are taken as dislodged, and
    the mover goes on from their hex as the rules allow."""

    by: list[UnitRule] = Field([], description="who may overrun (empty: every unit)")
    not_by: list[UnitRule] = Field([], description="who never does")
    cost: OverrunCost | None = Field(None, description="null: the target hex costs what its"
                                     " terrain costs")
    phases: OverrunPhases | None = Field(None, description="null: in any phase")
    not_on_turns: OverrunTurns | None = Field(None, description="no overrun on these game"
                                              " turns (003 §5.9.7: Game Turn 1)")
    not_across: OverrunHexsides | None = Field(None, description="no overrun across these"
                                               " hexside features, bridged or not (003"
                                               " §5.5.3: major rivers)")
    not_into: OverrunTerrain | None = Field(None, description="no overrun into hexes of these"
                                            " terrains (003 §5.5.3: fortress hexes)")
    only_into: OverrunTerrain | None = Field(None, description="overruns only into hexes"
                                             " of these terrains (002: clear)")
    barred_by_markers: OverrunMarkers | None = None
    zoc: OverrunZoc | None = Field(None, description="null: an overrun does nothing to ZOC")
    per_phase: list[OverrunLimit] = Field([], description="how many overruns a phase a unit"
                                          " makes at most, by the first entry that selects it"
                                          " (none: no limit); a path checked as an overrun"
                                          " counts the hexes it overruns and those the"
                                          " position's 'overruns' says the unit made before")
    cite: Cite = ""
    note: Note = ""


# -- the document ------------------------------------------------------------------------


class RulesProfile(Model):
    """A rules profile document (``kind: "rules"``)."""

    kind: Literal["rules"] = Field(description="what the document is")
    system: SystemId = Field(GENERIC, description="the rule system: 'generic' is the kernel"
                             " alone; a registered system adds its procedures to it")
    game: str = Field(min_length=1, description="the game's id (its folder's name)")
    title: str = Field("", description="the game's title as players know it ('D-Day Omaha"
                       " Beach'); play aids cite the rulebook by it ('D-Day Omaha Beach"
                       " §6.1'); empty: by the rulebook's file name")
    source: Cite = Field(description="the rulebook: its file name first (what cites start"
                        " with), then what of it the profile draws on")
    cite_as: str = Field("", description="how answers name the rulebook: the first word of"
                         " 'source' (its file) is written so in the cites they quote, e.g."
                         " '000' (default: as it is)")
    notes: Note = Field("", description="free text for people about the whole profile")
    sides: list[Name] = Field(["allied", "german"], min_length=2,
                             description="the sides' ids, as units and markers name them")
    unit_classes: list[Name] = Field(min_length=1, description="the classes units move and"
                                    " pay terrain as (leg, mobile; infantry, mechanized)")
    roles: dict[Name, list[UnitSelector]] = Field(
        {}, description="named kinds of unit ('hq': [{\"flags\": [\"hq\"]}]) that selectors"
        " name in 'roles'")
    dice: Literal["1d6", "2d6", "1d10"] = Field(description="the dice the game rolls")
    terrain: dict[Name, HexTerrainRule] = Field(description="every hex terrain of the map"
                                                  " and what it does")
    hexsides: dict[Name, HexsideRule] = Field({}, description="every hexside feature but"
                                               " roads, and what it does")
    roads: dict[Name, RoadRule] = Field({}, description="road-like hexside features: roads,"
                                         " trails, railways")
    multi_terrain: Literal["highest"] = Field("highest", description="a hex of several"
                                               " terrains costs the highest (000 §5.4 Important)")
    movement: MovementRules = MovementRules()
    zoc: ZocRules = ZocRules()
    stacking: StackingRules
    supply: SupplyRules = SupplyRules()
    placement: PlacementRules | None = None
    los: LosRules | None = None
    overrun: OverrunRules | None = None

    _file: str = PrivateAttr("")

    @property
    def file(self) -> str:
        """The file the profile was read from (``""`` when built in memory)."""
        return self._file

    @model_validator(mode="after")
    def _check(self) -> Self:
        for name, rule in self.terrain.items():
            self._check_cost(("terrain", name, "move"), rule.move, rule.note)
            if rule.combat is None and not rule.note.strip():
                raise Invalid(("terrain", name, "combat"), _needs_note("combat effect"))
        for name, side in self.hexsides.items():
            self._check_cost(("hexsides", name, "move"), side.move, side.note)
            if side.combat is None and not side.note.strip():
                raise Invalid(("hexsides", name, "combat"), _needs_note("combat effect"))
        for name, road in self.roads.items():
            self._check_cost(("roads", name, "rate"), road.rate, road.note)
        if self.stacking.limit is None and not self.stacking.note.strip():
            raise Invalid(("stacking", "limit"), _needs_note("stacking limit"))
        self._check_references()
        return self

    def _check_cost(self, where: tuple[str, ...], cost: Any, note: str) -> None:
        if isinstance(cost, dict):
            for unit_class in cost:
                self._check_name(("classes",), (*where, unit_class), unit_class)
        if cost_is_unknown(cost) and not note.strip():
            raise Invalid(where, _needs_note("cost"))

    def _check_references(self) -> None:
        """Every class, side, role, terrain and hexside feature a rule names is declared."""
        for where, kind, name in _references(self, ()):
            self._check_name(kind, where, name)

    def _check_name(self, kind: tuple[str, ...], where: tuple[str | int, ...], name: str) -> None:
        what, listed = _KINDS[kind[0]]
        known: list[str] = {
            "classes": list(self.unit_classes), "sides": list(self.sides),
            "roles": list(self.roles), "terrain": list(self.terrain),
            "features": [*self.hexsides, *self.roads], "roads": list(self.roads),
        }[kind[0]]
        if name not in known:
            raise Invalid(where, f"unknown {what} '{name}'{did_you_mean(name, known)}"
                          f" ({listed}: {', '.join(known) or 'none'})")

    def covers_terrain(self, name: str) -> bool:
        """Whether the profile says what terrain ``name`` costs."""
        return name in self.terrain

    def covers_hexside_feature(self, name: str) -> bool:
        """Whether the profile says what hexside feature ``name`` does (as a hexside or a road)."""
        return name in self.hexsides or name in self.roads

    def cite_text(self, cite: str) -> str:
        """A cite as answers quote it: the rulebook file written as ``cite_as`` says.

        >>> p = rules_from_data({"kind": "rules", "game": "g", "source": "book.txt §1-§9",
        ...     "cite_as": "001", "unit_classes": ["foot"], "dice": "1d6",
        ...     "terrain": {"clear": {"move": 1, "note": "n"}}, "stacking": {"limit": 1}})
        >>> p.cite_text("book.txt §6.1 Exception"), p.cite_text("§7.2")
        ('001 §6.1 Exception', '001 §7.2')
        """
        book = self.source.split()[0] if self.source.split() else ""
        short = self.cite_as or book
        text = cite.strip()
        if book and text.startswith(book):
            return short + text[len(book):]
        if text.startswith("§"):
            return f"{short} {text}"
        return text


# What each kind of name is called in messages, and where the profile declares it.
_KINDS = {"classes": ("unit class", "unit_classes"), "sides": ("side", "sides"),
          "roles": ("role", "roles"), "terrain": ("terrain", "terrain"),
          "features": ("hexside feature", "hexsides or roads"), "roads": ("road", "roads")}

# Fields whose values name other things the profile declares, by the kind they name.
_NAMED_BY: dict[str, tuple[str, ...]] = {
    "classes": ("classes",), "unit_class": ("classes",), "roles": ("roles",),
    "sides": ("sides",), "side": ("sides",),
    "terrain": ("terrain",), "not_into_terrain": ("terrain",), "unless_terrain": ("terrain",),
    "in_terrain": ("terrain",), "between": ("terrain",),
    "crossed_as": ("features",),
    "blocked_by_hexsides": ("features",), "hexsides": ("features",),
    "feature": ("features",), "bridges": ("features",),
    "road": ("roads",),
}


def _references(node: Model, where: tuple[str | int, ...]
                ) -> Iterator[tuple[tuple[str | int, ...], tuple[str, ...], str]]:
    """(place, kind, name) for every name a rule gives, walking the nested models."""
    for field in type(node).model_fields:
        value = getattr(node, field)
        place = (*where, field)
        kind = _NAMED_BY.get(field)
        if kind is not None and not isinstance(node, RulesProfile):
            if isinstance(value, str):
                yield place, kind, value
            elif isinstance(value, list) and all(isinstance(v, str) for v in value):
                yield from (((*place, i), kind, v) for i, v in enumerate(value))
        if field == "by_class" and isinstance(value, dict):
            yield from (((*place, name), ("classes",), name) for name in value)
        for key, item in _children(value):
            yield from _references(item, (*place, *key))


def _children(value: Any) -> Iterator[tuple[tuple[str | int, ...], Model]]:
    if isinstance(value, Model):
        yield (), value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, Model):
                yield (i,), item
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, Model):
                yield (str(key),), item
            elif isinstance(item, list):  # roles: lists of selectors
                yield from (((str(key), i), x) for i, x in enumerate(item)
                            if isinstance(x, Model))


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
        Name used in messages (and kept as :attr:`RulesProfile.file`).

    Examples
    --------
    >>> p = rules_from_data({"kind": "rules", "game": "g", "source": "RULES.md",
    ...     "unit_classes": ["foot"], "dice": "1d6",
    ...     "terrain": {"clear": {"move": 1, "note": "n"}}, "stacking": {"limit": 2}})
    >>> p.system, p.stacking.limit == 2, p.zoc.enter.stop
    ('generic', True, True)
    """
    profile = validate_document(RulesProfile, data, file, kind="rules")
    profile._file = "" if file is None else str(file)
    return profile


def load_rules(path: str | Path) -> RulesProfile:
    """Read a rules document (rules.json); problems raise one located :class:`DataError`."""
    return rules_from_data(read_json(path), path)
