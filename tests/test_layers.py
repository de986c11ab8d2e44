"""The packages keep to what ARCHITECTURE.md says each must not do, read from their imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PIPELINE = Path(__file__).resolve().parents[1] / "pipeline"

# package -> what it must not import (a top-level module or a pipeline package)
MUST_NOT = {
    "hexgrid": {"pipeline.model", "pipeline.rules", "PIL", "cv2"},  # no files, no terrain
    "model": {"pipeline.rules", "pipeline.render", "PIL", "cv2"},    # no drawing, no rules
    "rules": {"pipeline.render", "pipeline.counters", "pipeline.aids", "PIL", "cv2"},
    "digitize": {"pipeline.rules", "pipeline.vassal", "pipeline.render"},  # knows no game
    "counters": {"pipeline.vassal", "pipeline.rules"},
    "vassal": {"pipeline.rules"},
    # the studio calls digitize, validate and model; it draws no map and knows no rules
    "studio": {"pipeline.rules", "pipeline.render", "pipeline.vassal", "pipeline.counters",
               "pipeline.aids", "pipeline.cli"},
}


def _file_imports(path: Path) -> set[tuple[str, str]]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                 [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
        found |= {(name, path.name) for name in names}
    return found


def _imports(package: str) -> set[tuple[str, str]]:
    return {found for path in (PIPELINE / package).rglob("*.py")
            for found in _file_imports(path)}


@pytest.mark.parametrize("package", sorted(MUST_NOT))
def test_packages_import_nothing_their_layer_forbids(package):
    wrong = sorted((name, where) for name, where in _imports(package)
                   if any(name == f or name.startswith(f + ".") for f in MUST_NOT[package]))
    assert wrong == []


def test_only_the_command_line_imports_click():
    # The library raises BocageError; only pipeline.cli turns it into a line and exit 2.
    packages = sorted(p.name for p in PIPELINE.iterdir() if p.is_dir() and p.name != "cli"
                      and (p / "__init__.py").is_file())
    wrong = sorted((package, where) for package in packages
                   for name, where in _imports(package) if name.split(".")[0] == "click")
    top = sorted(p.name for p in PIPELINE.glob("*.py")
                 if any(name.split(".")[0] == "click" for name, _ in _file_imports(p)))
    assert wrong == [] and top == []
