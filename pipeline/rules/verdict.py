"""Answers that explain themselves: legal or not, the rule, the hex, the reason.

A rule is cited as the rulebook writes it: ``"000 §6.1 Exception"``, ``"003
§5.7.2"``, or for a rulebook without section numbers a paragraph heading and
its opening words (``"002 §Blocks: Block placement restrictions"``).
:func:`same_rule` compares an expected citation with an answer's at that
granularity: the whole, the section number alone (``"6.1"`` is the rule
``"6.1 Exception"`` belongs to), or either half of a heading citation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["SupplyAnswer", "Verdict", "same_rule"]


@dataclass(frozen=True)
class Verdict:
    """A rules answer.

    ``rule`` cites the rulebook as ``"000 §6.1"`` (file number and section, or a
    player-aid heading for 002); ``at`` is the printed id of the hex (or
    hexside) that decided it.

    >>> Verdict(False, "000 §6.1", "2217", "must stop in an enemy ZOC").to_dict()
    {'legal': False, 'rule': '000 §6.1', 'at': '2217', 'reason': 'must stop in an enemy ZOC'}
    """

    legal: bool
    rule: str | None = None
    at: str | None = None
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The answer as JSON-ready data."""
        return {"legal": self.legal, "rule": self.rule, "at": self.at, "reason": self.reason}

    @property
    def section(self) -> str | None:
        """The cited section (``"6.1 Exception"``) of :attr:`rule`, without the rulebook."""
        if self.rule is None:
            return None
        return self.rule.split("§", 1)[1] if "§" in self.rule else self.rule


@dataclass(frozen=True)
class SupplyAnswer:
    """One unit's supply status and why."""

    in_supply: bool
    rule: str | None
    reason: str
    path: tuple[Any, ...] = ()

    def to_dict(self, name: Any) -> dict[str, Any]:
        """JSON-ready, hexes by printed id."""
        return {"in_supply": self.in_supply, "rule": self.rule, "reason": self.reason,
                "path": [name(h) for h in self.path]}


_SECTION = re.compile(r"\d+(?:\.\d+)*")


def _norm(rule: str) -> str:
    text = rule.split("§", 1)[1] if "§" in rule else rule
    return " ".join(text.strip().strip('"').split()).casefold()


def same_rule(expected: str, actual: str | None) -> bool:
    """Whether an answer citing ``actual`` cites the rule ``expected`` names.

    >>> same_rule("6.1", "000 §6.1 Exception"), same_rule("6.1 Exception", "000 §6.1 Exception")
    (True, True)
    >>> same_rule("6.1", "000 §6.1.2"), same_rule("6.1 Exception", "000 §6.1")
    (False, False)
    >>> same_rule("Blocks", "002 §Blocks: Block placement restrictions")
    True
    >>> same_rule("Block placement restrictions", "002 §Blocks: Block placement restrictions")
    True
    >>> same_rule("5.2", "000 §5.2e, §8.3"), same_rule("8.3", "000 §5.2e, §8.3")
    (True, True)
    >>> same_rule("Overrun Attacks", "002 §Overrun Attacks: Blocks, wrecks, and mines")
    True
    """
    if actual is None:
        return False
    want = _norm(expected)
    text = actual.split("§", 1)[1] if "§" in actual else actual
    for piece in re.split(r",\s*§", " ".join(text.strip().split()).casefold()):
        part = piece.strip()
        if want == part:
            return True
        number = _SECTION.match(part)
        if number is not None and want == number.group(0) and not part[len(want):].startswith("."):
            return True
        if ":" in part and want in (h.strip() for h in part.split(":", 1)):
            return True
    return False
