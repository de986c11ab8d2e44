"""The registered rule systems: the kernel's four seed games, each only its procedures.

Which systems exist is :mod:`pipeline.rules.registry`'s business (the
``bocage.rules`` entry points); :func:`system_for` is kept here for callers
that reach for a system by id.
"""

from __future__ import annotations

from pipeline.rules.systems.base import System

__all__ = ["System", "system_for"]


def system_for(name: str) -> System:
    """A fresh instance of the registered rule system ``name``."""
    from pipeline.rules.registry import system_for as registered

    return registered(name)
