"""The movement allowance a unit has this phase, and the rule behind each MP taken away.

The printed MA, then the phase's own factor for its movers (``movement.phases``,
003 §5.3.3), then every ``movement.ma_modifiers`` entry that selects the unit,
in the profile's order: weather (000 §14.1, 001 §7.5, 003 §5.4.2), supply (001
§7.4, 003 §10.6.1), replacements, the first turns of a campaign. Each change is
rounded as its entry says (up by default, 003 §2.6). The chain of values is
kept, so a step short of MP cites the rule that took the missing MP away.

>>> chain = Allowance(7.0, 3.0, ((7.0, "003 §5.2.4"), (3.0, "003 §5.4.2")), None, None)
>>> chain.ma, chain.taken_by(5.0)
(3.0, '003 §5.4.2')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from pipeline.model.rulesprofile import MaModifier, PhaseMover
from pipeline.rules.errors import RulesError
from pipeline.rules.select import any_holds, selects
from pipeline.rules.situation import Unit
from pipeline.rules.verdict import Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["Allowance", "phase_mover", "unit_allowance"]


@dataclass(frozen=True)
class Allowance:
    """A unit's MP this phase and how they came about.

    ``chain`` holds the MA after each step with the rule that set it, the printed MA
    first; ``max_hexes`` (with its rule) limits how far it moves (003 §5.9.4);
    ``mover`` is the phase's entry that lets it move, if the phase has any.
    """

    printed: float
    ma: float
    chain: tuple[tuple[float, str | None], ...]
    max_hexes: tuple[int, str | None] | None
    mover: PhaseMover | None

    def taken_by(self, need: float) -> str | None:
        """The rule behind an MA too small for a move needing ``need``: the first change
        after which the MA falls short (the printed MA's rule when even that is short),
        or a later rule that states the same MA again (003 §5.4.2: storms leave German
        units their full printed MPA)."""
        for i, (value, _) in enumerate(self.chain):
            if need > value:
                same = [r for v, r in self.chain[i:] if v == value]
                return same[-1]
        return self.chain[-1][1]


def phase_mover(engine: Engine, unit: Unit) -> PhaseMover | Verdict | None:
    """The phase's entry that lets ``unit`` move, ``None`` in a phase where every unit
    moves, or why it may not move in this phase (000 §5.5, 003 §4.0)."""
    sit = engine.situation
    phase = engine.profile.movement.phases.get(sit.phase)
    if phase is None:
        return None
    cite = engine.cite(phase.cite)
    if phase.not_if_moved_in is not None and unit.id in sit.state.get(phase.not_if_moved_in, ()):
        return Verdict(False, cite, None, f"{unit.id} moved earlier this turn and may not move"
                       f" in the {sit.phase.replace('_', ' ')} phase")
    if not phase.movers:
        return None
    mover = any_holds(engine, phase.movers, unit)
    if mover is None:
        return Verdict(False, cite, None, f"{unit.id} is not among the units that move in the"
                       f" {sit.phase.replace('_', ' ')} phase")
    assert isinstance(mover, PhaseMover)
    return mover


def unit_allowance(engine: Engine, unit: Unit) -> Allowance:
    """The MP ``unit`` may spend this phase (remembered per engine)."""
    key = ("allowance", unit.id)
    known = engine.memo.get(key)
    if known is None:
        known = engine.memo[key] = _allowance(engine, unit)
    assert isinstance(known, Allowance)
    return known


def _allowance(engine: Engine, unit: Unit) -> Allowance:
    movement = engine.profile.movement
    mover = phase_mover(engine, unit)
    mover = mover if isinstance(mover, PhaseMover) else None
    ma = Fraction(unit.ma)
    chain: list[tuple[float, str | None]] = [(float(ma), engine.cite(movement.allowance.cite))]
    if mover is not None and mover.ma_factor is not None:
        ma = _round(ma * _ratio(mover.ma_factor), "up")
        chain.append((float(ma), engine.cite(mover.cite)))
    max_hexes: tuple[int, str | None] | None = None
    for modifier in movement.ma_modifiers:
        if not _applies(engine, modifier, unit):
            continue
        cite = engine.cite(modifier.cite)
        if modifier.max_hexes is not None:
            if max_hexes is None or modifier.max_hexes < max_hexes[0]:
                max_hexes = (modifier.max_hexes, cite)
            continue
        if modifier.factor is not None:
            ma = _round(ma * _ratio(modifier.factor), modifier.rounding)
        else:
            taken = _subtracted(engine, modifier)
            if not taken:
                continue  # nothing taken away: not a reason for anything
            ma = max(Fraction(0), ma - taken)
        chain.append((float(ma), cite))
    return Allowance(float(unit.ma), float(ma), tuple(chain), max_hexes, mover)


def _applies(engine: Engine, modifier: MaModifier, unit: Unit) -> bool:
    sit = engine.situation
    if modifier.turns and sit.turn not in modifier.turns:
        return False
    if modifier.phases and sit.phase not in modifier.phases:
        return False
    if modifier.weather and sit.state.get("weather") not in modifier.weather:
        return False
    if modifier.subtract_from_state is not None and modifier.subtract_from_state not in sit.state:
        return False  # the position gives no such number: nothing to subtract
    return selects(engine, modifier, unit)


def _subtracted(engine: Engine, modifier: MaModifier) -> Fraction:
    if modifier.subtract is not None:
        return Fraction(modifier.subtract)
    key = modifier.subtract_from_state
    assert key is not None
    value = engine.situation.state.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise RulesError(f"the position's state gives {key} = {value!r}: a number >= 0 is"
                         f" needed ({engine.profile.file or 'the rules profile'}: movement."
                         "ma_modifiers)")
    return Fraction(value)


def _round(value: Fraction, rounding: str) -> Fraction:
    return Fraction(math.ceil(value) if rounding == "up" else math.floor(value))


def _ratio(factor: float) -> Fraction:
    # Profiles hold 2/3 as 0.6666666666666666: round it back to the fraction meant,
    # so a rounded-up MA (003 §2.6) is not one too high.
    return Fraction(factor).limit_denominator(100)
