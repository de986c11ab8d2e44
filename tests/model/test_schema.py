"""The published schemas are generated from the models and cannot drift from them."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from pipeline.model import load_markers, load_units
from pipeline.model.schema import SCHEMA_MODELS, main, schema_for, schema_texts

from .conftest import (
    DEMO_MAP,
    DEMO_MARKERS,
    DEMO_POSITION,
    DEMO_RULES,
    DEMO_SCENARIO,
    DEMO_UNITS,
    ROOT,
    sample,
)
from .jsonschema_lite import errors

SCHEMAS = ROOT / "schemas"


@pytest.mark.parametrize("name", sorted(schema_texts()))
def test_checked_in_schema_matches_the_models(name):
    assert (SCHEMAS / name).read_text(encoding="utf-8") == schema_texts()[name], (
        f"schemas/{name} is stale: run python -m pipeline.model.schema schemas/")


def test_there_is_one_schema_per_kind_of_file():
    assert sorted(p.name for p in SCHEMAS.glob("*.schema.json")) == sorted(
        f"{kind}.schema.json" for kind in ("map", "rules", "scenario", "position", "units",
                                           "markers", "crt", "facts"))


@pytest.mark.parametrize(("kind", "required"), [
    ("map", {"kind", "game", "title", "illustrative", "source", "boards", "terrain_types"}),
    ("rules", {"kind", "game", "source", "unit_classes", "dice", "terrain", "stacking"}),
    ("scenario", {"kind", "game", "name", "source", "first_turn", "last_turn"}),
    ("position", {"kind", "game", "turn", "phase", "active_side"}),
    ("units", {"id", "side", "type"}),
    ("markers", {"id", "kind"}),
])
def test_schemas_name_the_fields(kind, required):
    schema = schema_for(kind)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(schema["required"]) == required
    assert required <= set(schema["properties"])
    if kind in ("map", "rules", "scenario", "position"):
        assert schema["properties"]["kind"]["const"] == kind
        assert "$defs" in schema and schema["additionalProperties"] is False


def test_unit_schema_lists_the_vocabularies():
    schema = schema_for("units")
    built_in, declared = schema["properties"]["type"]["anyOf"]
    assert "armor" in built_in["enum"]
    # A type a counter style declares is any lower-case name ('mountain_infantry').
    assert declared["pattern"] == "^[a-z][a-z0-9_]*$"
    assert schema["properties"]["count"]["anyOf"][0] == {"minimum": 1, "type": "integer"}
    assert "image" in schema["properties"]
    assert "no_zoc" in schema["properties"]["flags"]["items"]["enum"]
    assert "class" in schema["properties"]  # the column name, not the Python name


@pytest.mark.parametrize(("kind", "path"), [
    ("map", DEMO_MAP), ("rules", DEMO_RULES), ("scenario", DEMO_SCENARIO),
    ("position", DEMO_POSITION),
])
def test_demo_documents_conform_to_their_schema(kind, path):
    assert errors(schema_for(kind), sample(path)) == []


def test_demo_manifest_rows_conform_to_their_schema():
    for unit in load_units(DEMO_UNITS):
        assert errors(schema_for("units"), unit.model_dump(mode="json", by_alias=True)) == []
    for marker in load_markers(DEMO_MARKERS):
        assert errors(schema_for("markers"), marker.model_dump(mode="json")) == []


@pytest.mark.parametrize(("kind", "path", "edit", "needle"), [
    ("map", DEMO_MAP, lambda d: d.update(colour=1), "unexpected key 'colour'"),
    ("map", DEMO_MAP, lambda d: d["boards"][0]["grid"].update(cols="25"), "not of type integer"),
    ("rules", DEMO_RULES, lambda d: d["terrain"]["woods"].update(move="2"),
     "matches none of anyOf"),
    ("rules", DEMO_RULES, lambda d: d["terrain"]["woods"].update(move={"leg": "+1"}), None),
    ("rules", DEMO_RULES, lambda d: d["terrain"].update(Woods=d["terrain"]["woods"]),
     "does not match ^[a-z][a-z0-9_]*$"),
    ("scenario", DEMO_SCENARIO, lambda d: d.pop("first_turn"), "missing 'first_turn'"),
    # A hexside entry lists a feature, or (a digitized map) how sure a line is not there.
    ("map", DEMO_MAP, lambda d: d["hexsides"][0].update(features=[]), "matches none of anyOf"),
    ("map", DEMO_MAP, lambda d: d["hexsides"][0].update(features=[], absent={"road": 0.4}),
     None),
])
def test_schemas_refuse_what_the_models_refuse(kind, path, edit, needle):
    doc: dict[str, Any] = sample(path)
    edit(doc)
    found = errors(schema_for(kind), doc)
    if needle is None:
        assert found == []
    else:
        assert any(needle in e for e in found), found


def test_main_writes_every_schema(tmp_path):
    assert main([str(tmp_path / "out")]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(schema_texts())
    written = json.loads((tmp_path / "out" / "map.schema.json").read_text(encoding="utf-8"))
    assert written["$id"] == "map.schema.json"
    assert main([]) == 2


def test_module_runs_as_a_script_without_warnings(tmp_path):
    done = subprocess.run([sys.executable, "-W", "error", "-m", "pipeline.model.schema",
                           str(tmp_path)], capture_output=True, text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert len(list(tmp_path.glob("*.schema.json"))) == len(SCHEMA_MODELS)
