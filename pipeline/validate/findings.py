"""Findings: what the validator reports, in one shape for every check.

A finding has a severity (``error``, ``warning``, ``check``), a kind (a short
machine name such as ``terrain_differs`` or ``road_dead_end``), a place (a hex
id ``0421`` or a hexside id ``0303/0304``, ``0121/SW`` at the map edge), a
message for people and, when a rulebook or a fact says so, a citation. The
hexes a finding touches are kept too, so the report can draw it on the map.

>>> f = Finding("error", "terrain_differs", "0421", "0421: city here, clear in the scan",
...             hexes=("0421",), confidence=0.9)
>>> f.to_dict()["where"], sort_findings([f])[0].severity
('0421', 'error')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["SEVERITIES", "Finding", "Severity", "cite_of", "count_by", "sort_findings"]

#: How much a finding matters: an error, a warning, or a check (worth a look).
Severity = Literal["error", "warning", "check"]
#: Most serious first: the order of reports and of the exit code's reasoning.
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "check")

# A rulebook cited by its seed's file name and section (000_3d79f68a6e3e33eb.txt §8.2.2).
_CITE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt(?: §[0-9.]+(?:, §[0-9.]+)*)?")


def cite_of(note: str) -> str:
    """The first rulebook citation in a note, or ``""``.

    >>> cite_of("a bridge wherever a road crosses a river (000_3d79f68a6e3e33eb.txt §8.2.2)")
    '000_3d79f68a6e3e33eb.txt §8.2.2'
    """
    found = _CITE.search(note)
    return found.group(0) if found else ""


@dataclass(frozen=True)
class Finding:
    """One problem (or one thing to look at) found in a map.

    Parameters
    ----------
    severity
        ``error`` (the data is wrong), ``warning`` (probably wrong) or
        ``check`` (worth a look).
    kind
        Short machine name of the check that found it.
    where
        A hex id or a hexside id (``A/B`` or ``HEX/DIRECTION``); ``""`` for the
        whole map.
    message
        One line for people: what, where, and how to fix.
    cite
        Rulebook file name and section, or a fact's citation; ``""`` if none.
    hexes
        Hex ids the finding touches (for drawing), on the map only.
    confidence
        The digitizer's confidence for a disagreement, when it gave one.
    source
        Which stage found it: ``screen``, ``lint``, ``diff`` or ``facts``.
    fact
        The id of the fact that does not hold, for ``facts`` findings.
    """

    severity: Severity
    kind: str
    where: str
    message: str
    cite: str = ""
    hexes: tuple[str, ...] = ()
    confidence: float | None = None
    source: str = "lint"
    fact: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json`` (empty optional fields are left out)."""
        out: dict[str, Any] = {
            "severity": self.severity, "kind": self.kind, "where": self.where,
            "message": self.message, "source": self.source, "hexes": list(self.hexes),
        }
        if self.cite:
            out["cite"] = self.cite
        if self.confidence is not None:
            out["confidence"] = self.confidence
        if self.fact:
            out["fact"] = self.fact
        return out


def _key(f: Finding) -> tuple[int, float, str, str, str]:
    # Most serious first; within a severity the most certain disagreement first
    # (no confidence sorts as certain: a hand-made reference has none).
    certainty = 1.0 if f.confidence is None else f.confidence
    return (SEVERITIES.index(f.severity), -certainty, f.kind, f.where, f.message)


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Findings in report order: severity, then confidence (highest first), kind, place."""
    return sorted(findings, key=_key)


def count_by(findings: Iterable[Finding], field: str) -> dict[str, int]:
    """How many findings per value of ``field`` (``severity``, ``kind``, ``source``)."""
    return dict(sorted(Counter(str(getattr(f, field)) for f in findings).items()))
