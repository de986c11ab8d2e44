"""Rules of cobra (003): not implemented yet; every question raises RulesError."""

from __future__ import annotations

from pipeline.rules.systems.base import System

__all__ = ["Cobra"]


class Cobra(System):
    """Placeholder until the cobra rules land."""

    name = "cobra"
    code = "003"
