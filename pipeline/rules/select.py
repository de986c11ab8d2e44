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

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING

from pipeline.model.rulesprofile import UnitSelector
from pipeline.rules.situation import Unit

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["any_holds", "compile_selector", "holding_any", "holds_any", "moving_class",
           "moving_classes", "out_of_supply", "selector_holds", "selects"]

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
    if not engine.profile.movement.moves_as:
        return unit.unit_class
    rules, classes = _moves_as(engine)
    return _kept(classes, unit, partial(_moving_as, rules, unit))


def moving_classes(engine: Engine, units: Sequence[Unit]) -> list[str]:
    """:func:`moving_class` of each of ``units``."""
    if not engine.profile.movement.moves_as:
        return [u.unit_class for u in units]
    rules, classes = _moves_as(engine)
    return [_kept(classes, u, partial(_moving_as, rules, u)) for u in units]


def _kept[T](answers: dict[str, tuple[Unit, T]], unit: Unit, make: Callable[[], T]) -> T:
    """What ``answers`` keeps for ``unit``, made where it has none for this very unit.

    Answers are kept by unit id with the unit each was made for: a selector reads the
    unit alone (its side, class, flags, values, steps), so where they are kept with the
    map (:attr:`~pipeline.rules.situation.Situation.terrain_memo`) a unit not moved keeps
    its answers from position to position, and a unit moved or changed is a new unit,
    asked again."""
    known = answers.get(unit.id)
    if known is None or known[0] is not unit:
        known = answers[unit.id] = (unit, make())
    return known[1]


def _moving_as(rules: tuple[tuple[Test, str], ...], unit: Unit) -> str:
    for test, unit_class in rules:
        if test(unit, unit.unit_class):
            return unit_class
    return unit.unit_class


def _moves_as(engine: Engine
              ) -> tuple[tuple[tuple[Test, str], ...], dict[str, tuple[Unit, str]]]:
    """``movement.moves_as`` compiled (:func:`compile_selector`), and the class each unit
    moves as (:func:`_kept`)."""
    memo = engine.situation.terrain_memo
    known = memo.get(("moves_as",))
    if known is None:
        profile = engine.profile
        known = memo[("moves_as",)] = (tuple(
            (compile_selector(profile.roles, rule), rule.unit_class)
            for rule in profile.movement.moves_as), {})
    return known  # type: ignore[return-value]


def selects(engine: Engine, selector: UnitSelector, unit: Unit) -> bool:
    """Whether ``selector`` names ``unit`` (the selector compiled once per engine and its
    answers kept per unit, :func:`_compiled`: the searches ask often, and reading the
    profile's fields each time is slow)."""
    test, answers = _compiled(engine.memo, selector,
                              lambda: compile_selector(engine.profile.roles, selector))
    return _kept(answers, unit, partial(_asked, engine, test, unit))


Test = Callable[[Unit, str], bool]


def compile_selector(roles: Roles, selector: UnitSelector) -> Test:
    """``selector`` as a test of a unit and the class it moves as: what
    :func:`selector_holds` answers, with only the conditions the selector gives.

    >>> test = compile_selector({}, UnitSelector(flags=["hq"], sides=["german"]))
    >>> test(Unit("LXXXIV", "german", None, "infantry", 4.0, 1, {"hq": True}), "infantry")
    True
    """
    tests: list[Test] = []
    if selector.classes:
        classes = frozenset(selector.classes)
        tests.append(lambda u, c: c in classes)
    if selector.sides:
        sides = frozenset(selector.sides)
        tests.append(lambda u, c: u.side in sides)
    if selector.flags:
        flags = tuple(selector.flags)  # a flag absent or false is not set (Unit.flag)
        tests.append(lambda u, c: any(map(u.data.get, flags)))
    for key, values in (("type", selector.types), ("size", selector.sizes),
                        ("nationality", selector.nationalities)):
        if values:
            tests.append(_attribute_test(key, frozenset(values)))
    if selector.steps:
        steps = frozenset(selector.steps)
        tests.append(lambda u, c: u.steps in steps)
    if selector.transported is not None:
        transported = selector.transported
        tests.append(lambda u, c: bool(u.get("transported_by")) == transported)
    if selector.out_of_supply is not None:
        cut = selector.out_of_supply
        tests.append(lambda u, c: out_of_supply(u) == cut)
    if selector.roles:
        members = tuple(compile_selector(roles, r)
                        for role in selector.roles for r in roles.get(role, ()))
        tests.append(_any_of(members))
    if not tests:
        return lambda u, c: True
    if len(tests) == 1:
        return tests[0]
    return _all_of(tuple(tests))


def _any_of(tests: tuple[Test, ...]) -> Test:
    def test(unit: Unit, unit_class: str) -> bool:
        for t in tests:
            if t(unit, unit_class):
                return True
        return False
    return test


def _all_of(tests: tuple[Test, ...]) -> Test:
    def test(unit: Unit, unit_class: str) -> bool:
        for t in tests:
            if not t(unit, unit_class):
                return False
        return True
    return test


def _attribute_test(key: str, values: frozenset[object]) -> Test:
    return lambda u, c: u.data.get(key) in values


def holds_any(engine: Engine, selectors: Sequence[UnitSelector], unit: Unit) -> bool:
    """Whether any of ``selectors`` names ``unit``: :func:`any_holds` as one test, compiled
    once with its answers kept per unit (who exerts a ZOC is asked of every unit of every
    new position)."""
    return holding_any(engine, selectors, (unit,))[0]


def holding_any(engine: Engine, selectors: Sequence[UnitSelector], units: Sequence[Unit]
                ) -> list[bool]:
    """:func:`holds_any` of each of ``units``, the test looked up once."""
    roles = engine.profile.roles
    # Kept with the map: who exerts a ZOC is asked of every unit of every new position.
    test, answers = _compiled(engine.situation.terrain_memo, selectors, lambda: _any_of(
        tuple(compile_selector(roles, s) for s in selectors)))
    return [_kept(answers, u, partial(_asked, engine, test, u)) for u in units]


def _asked(engine: Engine, test: Test, unit: Unit) -> bool:
    return test(unit, moving_class(engine, unit))


def _compiled(memo: dict[tuple[object, ...], object], selectors: object,
              make: Callable[[], Test]) -> tuple[Test, dict[str, tuple[Unit, bool]]]:
    """``selectors`` (one, or a list read as any of them) compiled by ``make`` once for
    ``memo`` (an engine's, or the map's under these rules), and its answers by unit
    (:func:`_kept`). The profile holds the selectors, so their id names them while the
    memo lives."""
    key = ("selector", id(selectors))
    known = memo.get(key)
    if known is None or known[0] is not selectors:  # type: ignore[index]
        known = memo[key] = (selectors, make(), {})
    return known[1], known[2]  # type: ignore[index]


def any_holds(engine: Engine, selectors: Sequence[UnitSelector], unit: Unit) -> UnitSelector | None:
    """The first of ``selectors`` that names ``unit``, or ``None``."""
    for selector in selectors:
        if selects(engine, selector, unit):
            return selector
    return None
