"""The sample game and the schemas bocage ships (pipeline.bundle), read as a checkout has them.

tests/test_wheel.py reads the same names from a built wheel.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from pipeline.bundle import BUNDLED, bundle_root, bundled_files, schema, schema_text
from pipeline.errors import DataError
from pipeline.model.schema import schema_texts

ROOT = Path(__file__).resolve().parents[1]


def _checkout_files() -> dict[str, Path]:
    found = {}
    for folder in BUNDLED:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                found[path.relative_to(ROOT).as_posix()] = path
    return found


def test_a_checkout_bundles_its_own_folders_byte_for_byte():
    assert Path(str(bundle_root())) == ROOT
    files = bundled_files()
    expected = _checkout_files()
    assert list(files) == list(expected)  # every file, folder by folder, sorted within
    for name, entry in files.items():
        assert entry.read_bytes() == expected[name].read_bytes(), name
    assert {"maps/demo/scan.jpg", "maps/demo/rules.json", "counters/demo/units.csv",
            "schemas/map.schema.json"} <= set(files)


def test_every_schema_is_bundled_and_parses():
    names = {n.removeprefix("schemas/").removesuffix(".schema.json") for n in bundled_files()
             if n.startswith("schemas/")}
    assert {f.removesuffix(".schema.json") for f in schema_texts()} == names
    for kind in names:
        assert schema_text(kind) == schema_texts()[f"{kind}.schema.json"]
        assert schema(kind)["type"] == "object"
    assert schema("units")["title"] == json.loads(schema_text("units"))["title"]


def test_an_unknown_kind_names_the_known_ones():
    with pytest.raises(DataError, match=r"no schema for the kind 'mapp' \(known: crt, facts, map,"):
        schema_text("mapp")


def test_setup_copies_the_folders_the_bundle_reads():
    """setup.py cannot import the package while it builds, so it lists the folders itself."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    listed = [node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == "BUNDLED" for t in node.targets)]
    assert len(listed) == 1 and ast.literal_eval(listed[0]) == BUNDLED
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").split("\n")
    for folder in BUNDLED:
        assert f"graft {folder}" in manifest  # and the source distribution carries them
