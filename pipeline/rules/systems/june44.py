"""Rules of june44 (001): not implemented yet; every question raises RulesError."""

from __future__ import annotations

from pipeline.rules.systems.base import System

__all__ = ["June44"]


class June44(System):
    """Placeholder until the june44 rules land."""

    name = "june44"
    code = "001"
