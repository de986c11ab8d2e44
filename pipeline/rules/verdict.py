"""Answers that explain themselves: legal or not, the rule, the hex, the reason."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Verdict"]


@dataclass(frozen=True)
class Verdict:
    """A rules answer.

    ``rule`` cites the rulebook as ``"000 §6.1"`` (file number and section, or a
    player-aid heading for 002); ``at`` is the printed id of the hex (or
    hexside) that decided it.

    >>> Verdict(False, "000 §6.1", "2217", "leg unit entered an enemy ZOC and must stop").to_dict()
    {'legal': False, 'rule': '000 §6.1', 'at': '2217', 'reason': 'leg unit entered an enemy ZOC and must stop'}
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
        """The bare section number (``"6.1"``) of :attr:`rule`."""
        if self.rule is None:
            return None
        return self.rule.split("§", 1)[1] if "§" in self.rule else self.rule
