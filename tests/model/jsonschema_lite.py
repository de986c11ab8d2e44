"""A small JSON Schema checker for the keywords our generated schemas use.

``jsonschema`` is not a dependency; this covers exactly the subset pydantic
emits for bocage's models and refuses any keyword it does not know, so a
schema can never pass by being misunderstood.
"""

from __future__ import annotations

import re
from typing import Any

_ANNOTATIONS = {"title", "description", "default", "examples", "$schema", "$id"}
_KNOWN = _ANNOTATIONS | {
    "$ref", "$defs", "type", "enum", "const", "anyOf", "properties", "required",
    "additionalProperties", "propertyNames", "items", "minItems", "maxItems", "minimum",
    "maximum", "exclusiveMinimum", "exclusiveMaximum", "pattern", "minLength", "maxLength",
    "minProperties", "patternProperties",
}


def errors(schema: dict[str, Any], value: Any, root: dict[str, Any] | None = None,
           where: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema`` (empty when it conforms)."""
    root = schema if root is None else root
    unknown = set(schema) - _KNOWN
    if unknown:
        raise ValueError(f"{where}: schema keyword(s) not understood: {sorted(unknown)}")
    out: list[str] = []
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        out += errors(root["$defs"][name], value, root, where)
    if "anyOf" in schema:
        if all(errors(s, value, root, where) for s in schema["anyOf"]):
            out.append(f"{where}: matches none of anyOf")
    if "type" in schema and not _is_type(value, schema["type"]):
        out.append(f"{where}: not of type {schema['type']}")
        return out
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{where}: {value!r} not in enum")
    if "const" in schema and value != schema["const"]:
        out.append(f"{where}: {value!r} != const {schema['const']!r}")
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            out.append(f"{where}: {value!r} does not match {schema['pattern']}")
        if len(value) < schema.get("minLength", 0):
            out.append(f"{where}: too short")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            out.append(f"{where}: too long")
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            out.append(f"{where}: below minimum")
        if "maximum" in schema and value > schema["maximum"]:
            out.append(f"{where}: above maximum")
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            out.append(f"{where}: not above exclusiveMinimum")
        if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
            out.append(f"{where}: not below exclusiveMaximum")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            out.append(f"{where}: too few items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            out.append(f"{where}: too many items")
        if "items" in schema:
            for i, item in enumerate(value):
                out += errors(schema["items"], item, root, f"{where}[{i}]")
    if isinstance(value, dict):
        out += _object_errors(schema, value, root, where)
    return out


def _object_errors(schema: dict[str, Any], value: dict[str, Any], root: dict[str, Any],
                   where: str) -> list[str]:
    out = [f"{where}: missing {name!r}" for name in schema.get("required", []) if name not in value]
    if len(value) < schema.get("minProperties", 0):
        out.append(f"{where}: too few properties")
    props = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        if "propertyNames" in schema:
            out += errors(schema["propertyNames"], key, root, f"{where}<key {key}>")
        patterned = [s for p, s in schema.get("patternProperties", {}).items() if re.search(p, key)]
        if key in props:
            out += errors(props[key], item, root, f"{where}.{key}")
        elif patterned:
            for sub in patterned:
                out += errors(sub, item, root, f"{where}.{key}")
        elif extra is False:
            out.append(f"{where}: unexpected key {key!r}")
        elif isinstance(extra, dict):
            out += errors(extra, item, root, f"{where}.{key}")
    return out


def _is_type(value: Any, kind: str | list[str]) -> bool:
    if isinstance(kind, list):
        return any(_is_type(value, k) for k in kind)
    checks = {
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "null": lambda v: v is None,
    }
    return checks[kind](value)
