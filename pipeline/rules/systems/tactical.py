"""Rules of tactical (002): not implemented yet; every question raises RulesError."""

from __future__ import annotations

from pipeline.rules.systems.base import System

__all__ = ["Tactical"]


class Tactical(System):
    """Placeholder until the tactical rules land."""

    name = "tactical"
    code = "002"
