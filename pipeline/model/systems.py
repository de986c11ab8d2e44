"""The names of the rule systems a rules profile may name.

A rule system is registered by a distribution in the entry-point group
``bocage.rules`` (bocage registers its own four there, in ``pyproject.toml``;
a plugin adds its own the same way). The model only needs the names, to check
``rules.json`` and to publish the schema's enum, so it reads the entry points'
names and never imports the rules package: loading a system is
:mod:`pipeline.rules.registry`'s business. ``generic`` is always known: the
rules kernel alone, driven by the profile.

>>> "generic" in system_ids() and "cobra" in system_ids()
True
"""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint, entry_points

__all__ = ["GENERIC", "RULES_GROUP", "registered_entry_points", "system_ids"]

RULES_GROUP = "bocage.rules"
GENERIC = "generic"

# Scanning the installed distributions costs milliseconds and every engine asks:
# the answer is kept per import path (a plugin installed into a new path entry,
# as the tests do, is seen at once).
_SEEN: dict[tuple[str, ...], dict[str, EntryPoint]] = {}


def registered_entry_points() -> dict[str, EntryPoint]:
    """The entry points of ``bocage.rules`` by name (one per system id)."""
    key = tuple(sys.path)
    known = _SEEN.get(key)
    if known is None:
        found: dict[str, EntryPoint] = {}
        for point in entry_points(group=RULES_GROUP):
            found.setdefault(point.name, point)  # the first on sys.path wins, as imports do
        known = _SEEN[key] = found
    return known


def system_ids() -> tuple[str, ...]:
    """Every system id a profile may name: ``generic`` first, then the registered ones."""
    return (GENERIC, *sorted(n for n in registered_entry_points() if n != GENERIC))
