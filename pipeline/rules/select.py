"""Which units a rule of the profile is about: unit selectors matched against units.

A selector (:class:`~pipeline.model.rulesprofile.UnitSelector`) names units by
role, class, flag, type, size, nationality, side and steps left. Every
condition given must hold; a list holds when any of its values does. A unit's
class is the one it moves as (``movement.moves_as``: 003 §5.3.1 makes every HQ
mechanized), except for ``moves_as`` itself, which reads the printed class.

>>> from pipeline.model.rulesprofile import UnitSelector
>>> from pipeline.rules.situation import Unit
>>> hq = Unit("LXXXIV", "german", None, "infantry", 4.0, 1, {"hq": True, "size": "corps"})
>>> selector_holds({}, UnitSelector(flags=["hq"], sides=["german"]), hq, hq.unit_class)
True
>>> selector_holds({}, UnitSelector(sizes=["division"]), hq, hq.unit_class)
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from pipeline.model.rulesprofile import UnitSelector
from pipeline.rules.situation import Unit

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["any_holds", "moving_class", "out_of_supply", "selector_holds", "selects"]

Roles = Mapping[str, Sequence[UnitSelector]]


def out_of_supply(unit: Unit) -> bool:
    """A unit out of supply, as the position or case gives it (``in_supply: false`` or the
    ``out_of_supply`` flag): movement reads the status, it does not trace it."""
    return unit.get("in_supply", True) is False or unit.flag("out_of_supply")


def selector_holds(roles: Roles, selector: UnitSelector, unit: Unit, unit_class: str) -> bool:
    """Whether ``unit`` (moving as ``unit_class``) is one of the units ``selector`` names."""
    if selector.classes and unit_class not in selector.classes:
        return False
    if selector.sides and unit.side not in selector.sides:
        return False
    if selector.flags and not any(unit.flag(f) for f in selector.flags):
        return False
    if selector.types and unit.get("type") not in selector.types:
        return False
    if selector.sizes and unit.get("size") not in selector.sizes:
        return False
    if selector.nationalities and unit.get("nationality") not in selector.nationalities:
        return False
    if selector.steps and unit.steps not in selector.steps:
        return False
    if selector.transported is not None and bool(unit.get("transported_by")) != (
            selector.transported):
        return False
    if selector.out_of_supply is not None and out_of_supply(unit) != selector.out_of_supply:
        return False
    if selector.roles:
        return any(selector_holds(roles, r, unit, unit_class)
                   for role in selector.roles for r in roles.get(role, ()))
    return True


def moving_class(engine: Engine, unit: Unit) -> str:
    """The class a unit moves and pays terrain as: the first ``movement.moves_as`` entry that
    names it (matched on its printed class), else its printed class."""
    key = ("moving_class", unit.id)
    known = engine.memo.get(key)
    if known is None:
        profile = engine.profile
        known = unit.unit_class
        for rule in profile.movement.moves_as:
            if selector_holds(profile.roles, rule, unit, unit.unit_class):
                known = rule.unit_class
                break
        engine.memo[key] = known
    assert isinstance(known, str)
    return known


def selects(engine: Engine, selector: UnitSelector, unit: Unit) -> bool:
    """Whether ``selector`` names ``unit`` (remembered per engine: the searches ask often)."""
    key = ("selects", id(selector), unit.id)
    known = engine.memo.get(key)
    if known is None:
        known = engine.memo[key] = selector_holds(engine.profile.roles, selector, unit,
                                                  moving_class(engine, unit))
    return bool(known)


def any_holds(engine: Engine, selectors: Sequence[UnitSelector], unit: Unit) -> UnitSelector | None:
    """The first of ``selectors`` that names ``unit``, or ``None``."""
    for selector in selectors:
        if selects(engine, selector, unit):
            return selector
    return None
