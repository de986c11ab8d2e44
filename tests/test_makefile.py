"""The Makefile's own checks, run on a copy of it with a stand-in interpreter."""

from __future__ import annotations

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
