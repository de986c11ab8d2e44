"""The registered rule systems: one list, read from the ``bocage.rules`` entry points.

A rule system is a :class:`~pipeline.rules.systems.base.System` subclass (in
practice a :class:`~pipeline.rules.kernel.Kernel` subclass) that declares, in
one place, its ``id``, its rulebook (``rulebook`` file, ``code`` cited in
answers, ``title``), the profile keys it reads (``reads``), the kernel hooks it
overrides with the section each implements (``overrides``) and, for a seed
game, the profile its scenario cases are answered with (``reference``). A
distribution registers it under its id in the entry-point group
``bocage.rules``::

    [project.entry-points."bocage.rules"]
    toy = "toy_rules:Toy"

``generic`` is the kernel alone. Nothing else lists the systems: the profile
schema's enum, the scenario case reader and the tests' game lists all come from
:func:`registry`.

>>> sorted(registry())[:2], spec_for("generic").reads >= {"zoc.enter", "supply.length"}
(['cobra', 'fm_omaha'], True)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib.metadata import EntryPoint
from pathlib import Path

from pipeline.errors import DataError, did_you_mean
from pipeline.model import RulesProfile, load_rules
from pipeline.model.systems import GENERIC, RULES_GROUP, registered_entry_points
from pipeline.rules.errors import RulesError
from pipeline.rules.systems.base import System

__all__ = ["SystemSpec", "reference_profile", "registry", "spec_for", "system_for"]


@dataclass(frozen=True)
class SystemSpec:
    """What a registered system declares about itself."""

    id: str
    title: str
    rulebook: str                 # the rulebook's file ("" for the kernel alone)
    code: str                     # how its own answers name the rulebook ("000")
    reads: frozenset[str]         # the profile keys it reads
    overrides: dict[str, str]     # kernel hook -> the section it implements instead
    reference: Path | None        # the profile its scenario cases are answered with
    factory: type[System]

    @property
    def game(self) -> str | None:
        """The seed game folder's name (``maps/<game>``) of the reference profile, if any."""
        return self.reference.parent.name if self.reference is not None else None


def registry() -> dict[str, SystemSpec]:
    """Every registered system by id, ``generic`` first (loaded from the entry points)."""
    points = registered_entry_points()
    found: dict[str, SystemSpec] = {}
    for name in sorted(points, key=lambda n: (n != GENERIC, n)):
        found[name] = _spec(name, points[name].value)
    if GENERIC not in found:
        from pipeline.rules.kernel import Kernel  # a broken install: the kernel is still here
        found = {GENERIC: _describe(GENERIC, Kernel), **found}
    return found


@functools.lru_cache(maxsize=64)
def _spec(name: str, value: str) -> SystemSpec:
    # Loaded once per (id, object reference): importing a system is the slow part.
    try:
        loaded = EntryPoint(name, value, RULES_GROUP).load()
    except Exception as exc:  # a plugin's import error, reported with its entry point
        raise RulesError(f"rule system '{name}' ({value}) cannot be loaded: {exc}") from None
    if not (isinstance(loaded, type) and issubclass(loaded, System)):
        raise RulesError(f"rule system '{name}' ({value}) is not a rules System class")
    return _describe(name, loaded)


def _describe(name: str, cls: type[System]) -> SystemSpec:
    if cls.name != name:
        raise RulesError(f"rule system '{name}' is registered for {cls.__module__}."
                         f"{cls.__qualname__}, whose id is {cls.name!r}: they must agree")
    return SystemSpec(name, cls.title or name, cls.rulebook, cls.code, frozenset(cls.reads),
                      dict(cls.overrides), cls.reference, cls)


def spec_for(system_id: str) -> SystemSpec:
    """A registered system by id; an unknown id is refused with the registered ones."""
    known = registry()
    if system_id not in known:
        raise RulesError(f"unknown rule system '{system_id}'{did_you_mean(system_id, known)}"
                         f" (registered: {', '.join(known)})")
    return known[system_id]


def system_for(system_id: str) -> System:
    """A fresh instance of the registered system ``system_id``."""
    return spec_for(system_id).factory()


def reference_profile(system_id: str) -> RulesProfile | None:
    """The profile a system's scenario cases are answered with when they carry none: the
    published game's (the seed folder's ``rules.json``), ``None`` for the kernel alone."""
    spec = spec_for(system_id)
    if spec.reference is None:
        return None
    path = spec.reference
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        raise DataError(path, "", f"the {system_id} system's reference profile is missing:"
                        " give the case a 'profile'") from None
    return _load_reference(path, stamp)


@functools.lru_cache(maxsize=16)
def _load_reference(path: Path, stamp: int) -> RulesProfile:
    # Keyed by the file's modification time: an edited rules.json is read again.
    return load_rules(path)
