"""Every ``rules.json`` key, from the model: its type, default, meaning and the systems reading it.

The reference is made from :class:`~pipeline.model.rulesprofile.RulesProfile` itself (each
field's type, default and description, or its class's docstring) and from the keys each
registered system declares it reads (:attr:`~pipeline.rules.systems.base.System.reads`),
so it cannot drift from what the validator accepts and applies. ``make docs`` writes it
into the README (:mod:`pipeline.cli.docs`); a test fails when a key has no meaning or the
README's copy is stale.

Keys are written as paths: ``terrain.*.move`` (``*`` is any name the profile defines),
``supply.sources[].side`` (``[]`` is each entry of a list). A unit selector (``who``) is
documented once, under ``(selector)``; entries that are selectors with keys of their own
list only those.

>>> keys = {k.key: k for k in rules_keys()}
>>> keys["zoc.enter.extra_mp"].kind, keys["zoc.enter.extra_mp"].default
('number', '0')
>>> keys["overrun.cost.extra_mp"].readers
('cobra', 'fm_omaha', 'generic', 'june44')
"""

from __future__ import annotations

import inspect
import json
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args, get_origin

from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from pipeline.model.base import NAME_PATTERN, Model, Name
from pipeline.model.rulesprofile import RoadRule, RulesProfile, TerrainRule, UnitSelector
from pipeline.rules.kernel import COMMON_KEYS
from pipeline.rules.profilecheck import reads_key
from pipeline.rules.registry import registry

__all__ = ["DOCUMENTATION_KEYS", "SELECTOR", "KeyDoc", "markdown", "rules_keys"]

#: Keys every entry may carry, documented once.
DOCUMENTATION_KEYS = {
    "cite": "where the entry's rule is written: the rulebook's file and section, e.g."
            " \"000_3d79f68a6e3e33eb.txt §6.1 Exception\" (answers quote it, the file written"
            " as `cite_as` says)",
    "note": "free text for people: the rulebook's words, a reading chosen, where a missing"
            " number is printed",
}
#: How a unit selector's keys are written in the reference.
SELECTOR = "(selector)"

# Fields whose type the annotation does not say in words.
_KINDS = {(TerrainRule, "move"): "cost", (RoadRule, "rate"): "rate",
          (RulesProfile, "system"): "system id"}


@dataclass(frozen=True)
class KeyDoc:
    """One key of ``rules.json``."""

    key: str                      # "zoc.enter.extra_mp", "supply.sources[].side"
    kind: str                     # "number", "list of unit selectors", "object"...
    default: str                  # as JSON, "required", or "" for an object of defaults
    meaning: str
    readers: tuple[str, ...]      # the bocage systems that read it

    @property
    def pattern(self) -> str:
        """The key as :mod:`pipeline.rules.profilecheck` matches it (no ``[]``)."""
        return self.key.replace("[]", "")


def rules_keys() -> list[KeyDoc]:
    """Every key of a rules profile, the model's order, unit selectors' keys last. A key
    holding others is read by the systems that read any key in it."""
    systems = _systems()
    found = list(_walk(RulesProfile, "", systems, None))
    for i, k in enumerate(found):
        if not k.readers:
            inside = {r for other in found if other.key.startswith((f"{k.key}.", f"{k.key}[]."))
                      for r in other.readers}
            found[i] = replace(k, readers=tuple(sorted(inside)))
    found += [KeyDoc(f"{SELECTOR}.{name}", _kind(UnitSelector, name, info), _default(info),
                     _meaning(info, None), tuple(sorted(systems)))
              for name, info in UnitSelector.model_fields.items()]
    return found


def markdown() -> str:
    """The reference as Markdown tables, one a top-level section."""
    keys = rules_keys()
    everyone = tuple(sorted(_systems()))
    parts = ["Every entry may also carry:", "",
             *(f"- `{k}`: {v}" for k, v in DOCUMENTATION_KEYS.items()), ""]
    sections: dict[str, list[KeyDoc]] = {}
    for k in keys:
        head = k.key.split(".")[0]
        section = "document" if "." not in k.key and head != SELECTOR else head
        sections.setdefault(section, []).append(k)
    for section, rows in sections.items():
        title = {"document": "The document", SELECTOR: "Unit selectors (who a rule is about)"}
        parts += [f"##### {title.get(section, f'`{section}`')}", "",
                  "| key | type | default | meaning | read by |", "| --- | --- | --- | --- | --- |"]
        for k in rows:
            readers = "every system" if k.readers == everyone else ", ".join(k.readers)
            parts.append(f"| `{k.key}` | {k.kind} | {k.default} | {_cell(k.meaning)} |"
                         f" {readers} |")
        parts.append("")
    return "\n".join(parts).rstrip() + "\n"


# -- the walk ------------------------------------------------------------------------------

def _systems() -> dict[str, frozenset[str]]:
    """bocage's own systems and the keys each reads (a plugin's are its own to document)."""
    return {name: spec.reads | COMMON_KEYS for name, spec in registry().items()
            if spec.factory.__module__.startswith("pipeline.")}


def _walk(model: type[Model], prefix: str, systems: dict[str, frozenset[str]],
          parent: tuple[str, ...] | None) -> Iterator[KeyDoc]:
    own = (set(model.model_fields) - set(UnitSelector.model_fields)
           if issubclass(model, UnitSelector) else set(model.model_fields))
    for name, info in model.model_fields.items():
        key = info.alias or name
        if name not in own or key in DOCUMENTATION_KEYS or (key == "notes" and prefix):
            continue
        path = f"{prefix}{key}"
        inner, shape = _inner(info.annotation)
        path_inner = path + {"list": "[]", "dict": ".*"}.get(shape, "")
        readers = parent if parent is not None else tuple(
            sorted(s for s, reads in systems.items()
                   if reads_key(reads, path.replace("[]", ""))))
        yield KeyDoc(path, _kind(model, name, info), _default(info), _meaning(info, inner),
                     readers)
        if inner is not None and inner is not UnitSelector:
            yield from _walk(inner, f"{path_inner}.", systems, None)


def _inner(annotation: Any) -> tuple[type[Model] | None, str]:
    """The model a field holds (if any) and how: ``"one"``, ``"list"`` or ``"dict"``."""
    annotation = _strip_none(annotation)
    origin = get_origin(annotation)
    if origin is list:
        (item,) = get_args(annotation)
        return (_model(_strip_none(item)), "list")
    if origin is dict:
        _, value = get_args(annotation)
        value = _strip_none(value)
        if get_origin(value) is list:  # roles: lists of selectors by name
            (value,) = get_args(value)
        return (_model(value), "dict")
    return (_model(annotation), "one")


def _model(t: Any) -> type[Model] | None:
    return t if inspect.isclass(t) and issubclass(t, Model) else None


def _strip_none(t: Any) -> Any:
    if get_origin(t) in (typing.Union, types.UnionType):
        args = [a for a in get_args(t) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return t


def _kind(model: type[Model], name: str, info: FieldInfo) -> str:
    known = next((words for (cls, field), words in _KINDS.items()
                  if field == name and issubclass(model, cls)), None)
    if known is not None:
        return known
    if any(getattr(m, "pattern", None) == NAME_PATTERN for m in info.metadata):
        return "name"
    nullable = type(None) in get_args(info.annotation) and get_origin(info.annotation) in (
        typing.Union, types.UnionType)
    words = _words(_strip_none(info.annotation))
    return f"{words} or null" if nullable else words


def _words(t: Any) -> str:
    if t is Name:
        return "name"
    origin = get_origin(t)
    if origin is typing.Annotated:
        return _words(get_args(t)[0])
    if origin is list:
        (item,) = get_args(t)
        inner = _strip_none(item)
        if get_origin(inner) is list:
            return "list of lists of " + _plural(_words(get_args(inner)[0]))
        return "list of " + _plural(_words(inner))
    if origin is dict:
        _, value = get_args(t)
        value = _strip_none(value)
        if get_origin(value) in (typing.Union, types.UnionType):
            return "object of values by name"
        return f"object of {_plural(_words(value))} by name"
    if origin is Literal:
        return "one of " + ", ".join(f"`{json.dumps(a)}`" for a in get_args(t))
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_words(a) for a in get_args(t))
    if t is UnitSelector:
        return "unit selector"
    model = _model(t)
    if model is not None:
        return "unit selector and its own keys" if issubclass(model, UnitSelector) else "object"
    return {bool: "true or false", int: "integer", float: "number", str: "text"}.get(t, "value")


def _plural(words: str) -> str:
    if words.startswith("unit selector and"):
        return "unit selectors, each with its own keys"
    if words.startswith("one of "):
        return "any of " + words[len("one of "):]
    first, _, rest = words.partition(" ")
    if words == "unit selector":
        return "unit selectors"
    plural = {"text": "texts", "object": "objects", "integer": "integers", "number": "numbers",
              "value": "values"}.get(first, first + "s")
    return f"{plural} {rest}".strip()


def _default(info: FieldInfo) -> str:
    if info.default is PydanticUndefined and info.default_factory is None:
        return "required"
    value = info.get_default(call_default_factory=True)
    if isinstance(value, Model):
        return ""
    return json.dumps(value, ensure_ascii=False)


#: Descriptions a field takes from its type, which say nothing of the field.
_GENERIC = frozenset({"a lower-case identifier"})


def _meaning(info: FieldInfo, inner: type[Model] | None) -> str:
    if info.description and info.description not in _GENERIC:
        return info.description
    doc = inspect.getdoc(inner) if inner is not None else None
    if doc and inner is not None and inner.__doc__ is not None:
        return " ".join(doc.split("\n\n")[0].split()).replace("``", "`")
    return ""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
