"""One module per rule system; :func:`system_for` picks by the system id."""

from __future__ import annotations

from pipeline.rules.errors import RulesError
from pipeline.rules.systems.base import System

__all__ = ["SYSTEM_IDS", "system_for"]

SYSTEM_IDS = ("generic", "fm_omaha", "june44", "cobra", "tactical")


def system_for(name: str) -> System:
    """The rules of a system id (``fm_omaha``, ``june44``, ``cobra``, ``tactical``)."""
    from pipeline.rules.kernel import Kernel
    from pipeline.rules.systems import cobra, fm_omaha, june44, tactical

    table: dict[str, type[System]] = {
        "generic": Kernel,
        "fm_omaha": fm_omaha.FireAndMovement,
        "june44": june44.June44,
        "cobra": cobra.Cobra,
        "tactical": tactical.Tactical,
    }
    if name not in table:
        raise RulesError(f"unknown rule system '{name}' (known: {', '.join(SYSTEM_IDS)})")
    return table[name]()
