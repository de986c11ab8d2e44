"""Errors of the rules engine."""

from __future__ import annotations

from pipeline.errors import BocageError

__all__ = ["RulesError"]


class RulesError(BocageError):
    """A rules question the engine cannot answer from the data it was given."""
