"""The Makefile's own checks, run on a copy of it with a stand-in interpreter."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.needs import program

ROOT = Path(__file__).resolve().parents[1]


def test_make_setup_says_which_package_brings_venv_when_it_is_missing(tmp_path):
    # Debian and Ubuntu ship ensurepip apart (python3.12-venv); without it python -m venv
    # fails half-way. A stand-in interpreter whose ensurepip cannot be imported plays that.
    program("make", "make")
    project = tmp_path / "project"
    project.mkdir()
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, project / name)
    shadow = tmp_path / "shadow" / "ensurepip"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError(\"No module named 'ensurepip'\")\n")
    python = tmp_path / "python3"
    python.write_text(f"#!/bin/sh\nPYTHONPATH={shadow.parent} exec {sys.executable} \"$@\"\n")
    python.chmod(0o755)
    done = subprocess.run(["make", "-C", str(project), "setup", f"PYTHON={python}"],
                          capture_output=True, text=True, check=False)
    assert done.returncode != 0
    version = "{}.{}".format(*sys.version_info[:2])
    assert (f"make: {python} cannot make a virtual environment: its venv module or ensurepip"
            " is missing.") in done.stdout
    assert f"On Debian or Ubuntu: sudo apt install python{version}-venv" in done.stdout
    assert not (project / ".venv").exists()  # nothing half made


def _selections(target: str) -> list[str]:
    """The ``-m`` marker expressions of the pytest runs in a Makefile target's recipe."""
    text = (ROOT / "Makefile").read_text()
    recipe = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)+)", text, re.M)
    assert recipe is not None, f"the Makefile has no {target} target"
    return re.findall(r'-m pytest [^\n]*?-m "([^"]+)"', recipe.group(1).replace("\\\n", " "))


def test_make_test_and_make_test_slow_together_run_every_test_once():
    """CI runs both targets; every test, whatever its marks, is selected by exactly one run
    of one of them (the marker expressions are pytest's and, or and not, as Python's)."""
    ci = (ROOT / ".ci" / "run").read_text().split("\n")
    assert "make test" in ci and "make test-slow" in ci
    runs = _selections("test") + _selections("test-slow")
    assert runs == ["not slow", "slow and browser", "slow and not browser"]
    for slow, browser in itertools.product((False, True), repeat=2):
        marks = {"slow": slow, "browser": browser}
        chosen = [r for r in runs if eval(r, {"__builtins__": {}}, marks)]
        assert len(chosen) == 1, (marks, chosen)
