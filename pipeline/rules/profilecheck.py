"""Nothing ignored: a rules profile key its system does not read is refused with its place.

A profile names its rule system; the system declares the keys it reads
(:attr:`~pipeline.rules.systems.base.System.reads`: the kernel's, plus those of its
own procedures). Every key the document gives must be one of them, one of the keys
every profile may carry (:data:`~pipeline.rules.kernel.COMMON_KEYS`: what the
document is, its vocabulary and chart, what the play aids print), or a ``cite`` or
``note``: a key nobody reads would be a rule the validator silently ignores.

>>> from pipeline.model import rules_from_data
>>> doc = {"kind": "rules", "game": "g", "source": "RULES.md", "unit_classes": ["foot"],
...     "dice": "1d6", "terrain": {"clear": {"move": 1, "note": "n"}},
...     "stacking": {"limit": 1}, "los": {"corners_block": False}}
>>> unread_keys(rules_from_data(doc, "rules.json"))
[('los.corners_block', 'los.corners_block')]
"""

from __future__ import annotations

from collections.abc import Iterator

from pipeline.errors import DataError
from pipeline.model.base import Model
from pipeline.model.rulesprofile import RulesProfile
from pipeline.rules.kernel import COMMON_KEYS
from pipeline.rules.registry import SystemSpec, registry, spec_for

__all__ = ["check_profile_keys", "reads_key", "unread_keys"]

_DOCUMENTATION = frozenset({"cite", "note", "notes"})
# Fields whose values are mappings of names the profile defines (each name stands as "*").
_NAMED = frozenset({"terrain", "hexsides", "roads", "roles", "by_class", "phases", "points",
                    "markers", "elevations", "bars"})


def _given(node: Model, place: str, pattern: str) -> Iterator[tuple[str, str]]:
    """(place, pattern) for every key the document gives, innermost first."""
    for field in sorted(node.model_fields_set):
        info = type(node).model_fields[field]
        key = info.alias or field
        value = getattr(node, field)
        here = f"{place}.{key}" if place else key
        shape = f"{pattern}.{key}" if pattern else key
        inner = list(_inner(value, here, shape, field in _NAMED))
        if inner:
            yield from inner
        else:
            yield here, shape


def _inner(value: object, place: str, pattern: str, named: bool) -> Iterator[tuple[str, str]]:
    if isinstance(value, Model):
        yield from _given(value, place, pattern)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, Model):
                yield from _given(item, f"{place}[{i}]", pattern)
    elif isinstance(value, dict):
        for name, item in value.items():
            star = f"{pattern}.*" if named else f"{pattern}.{name}"
            if isinstance(item, Model):
                yield from _given(item, f"{place}.{name}", star)
            elif isinstance(item, list) and all(isinstance(x, Model) for x in item):
                for i, x in enumerate(item):
                    yield from _given(x, f"{place}.{name}[{i}]", star)


def reads_key(keys: frozenset[str], pattern: str) -> bool:
    """Whether a system reading ``keys`` reads the key ``pattern`` (``zoc.enter.stop``,
    ``terrain.*.move``): it reads the key or one that holds it; ``cite`` and ``note``
    are documentation, read by every system.

    >>> reads_key(frozenset({"zoc.enter"}), "zoc.enter.stop"), reads_key(frozenset(), "los")
    (True, False)
    """
    parts = pattern.split(".")
    if parts[-1] in _DOCUMENTATION:
        return True
    return any(".".join(parts[:n]) in keys for n in range(1, len(parts) + 1))


def _covered(pattern: str, keys: frozenset[str]) -> bool:
    return reads_key(keys, pattern)


def unread_keys(profile: RulesProfile, spec: SystemSpec | None = None) -> list[tuple[str, str]]:
    """The keys ``profile`` gives that its system does not read: ``(place, key)`` pairs,
    the place as the document spells it (``supply.sources[0].edge``)."""
    spec = spec or spec_for(profile.system)
    keys = spec.reads | COMMON_KEYS
    return [(place, pattern) for place, pattern in _given(profile, "", "")
            if not _covered(pattern, keys)]


def check_profile_keys(profile: RulesProfile, spec: SystemSpec | None = None) -> None:
    """Refuse a profile giving a key its system does not read: one :class:`DataError` naming
    the file, the place and the systems that do read it."""
    spec = spec or spec_for(profile.system)
    unread = unread_keys(profile, spec)
    if not unread:
        return
    place, pattern = unread[0]
    readers = sorted(name for name, other in registry().items()
                     if _covered(pattern, other.reads | COMMON_KEYS))
    who = f"; the {', '.join(readers)} rules read it" if readers else "; no rule system reads it"
    raise DataError(profile.file or None, place, f"the {spec.id} rules do not read this key:"
                    f" it would be ignored{who} (remove it, or name a system that reads it)")
