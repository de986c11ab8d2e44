"""The wheel as built for users: its package data, licences and description, and the package
run from it with no checkout on the path.

``.ci/run`` builds the wheel (from the source distribution), installs it into a clean venv,
runs ``bocage demo`` from another folder, and names the wheel in ``BOCAGE_WHEEL`` for these
tests. Without it they build one with pip (which fetches setuptools to build with); if that
cannot be done they skip, except under CI, where it is a failure.
"""

from __future__ import annotations

import email
import fcntl
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pipeline.bundle import bundled_files
from tests.needs import missing

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``BOCAGE_WHEEL``, else a wheel built here from the checkout as pip builds one."""
    given = os.environ.get("BOCAGE_WHEEL")
    if given:
        path = Path(given)
        assert path.is_file(), f"BOCAGE_WHEEL={given} is not a file"
        return path
    # One build for every xdist worker, under a lock: two builds at once in one source tree
    # (setuptools' build/ folder) break each other.
    shared = tmp_path_factory.getbasetemp().parent
    out = shared / "wheel-dist"
    with (shared / "wheel.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not any(out.glob("bocage-*.whl")):
            built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                                    "--wheel-dir", str(out), str(ROOT)], capture_output=True,
                                   text=True, check=False)
            if built.returncode != 0:
                shutil.rmtree(out, ignore_errors=True)
                last = (built.stderr.strip().splitlines() or ["no output"])[-1]
                missing(f"a wheel (pip wheel could not build one here: {last}; set"
                        " BOCAGE_WHEEL)")
    wheels = sorted(out.glob("bocage-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def unpacked(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wheel")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(folder)
    return folder


def _metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return email.message_from_bytes(archive.read(name))


def test_the_wheel_carries_the_sample_and_the_schemas_byte_for_byte(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for name, entry in bundled_files().items():
            packed = f"pipeline/data/{name}"
            assert packed in names, packed
            assert archive.read(packed) == entry.read_bytes(), packed
        data = {n for n in names if n.startswith("pipeline/data/")}
        assert len(data) == len(bundled_files())  # nothing else (no caches, no leftovers)
        assert "pipeline/py.typed" in names
        assert any(n.startswith("pipeline/counters/fonts/") and n.endswith(".ttf") for n in names)
        assert not [n for n in names if n.startswith(("tests/", "bench/", "tools/"))]


def test_the_licences_are_in_the_wheel(wheel):
    meta = _metadata(wheel)
    assert meta["License-Expression"] == "MIT"
    with zipfile.ZipFile(wheel) as archive:
        licences = {n.split(".dist-info/licenses/")[1]: archive.read(n) for n in archive.namelist()
                    if ".dist-info/licenses/" in n}
    assert licences["LICENSE"] == (ROOT / "LICENSE").read_bytes()
    assert b"MIT License" in licences["LICENSE"]
    assert "pipeline/counters/fonts/LICENSE-DejaVu.txt" in licences


def test_the_package_index_description_has_no_relative_pictures_or_links(wheel):
    meta = _metadata(wheel)
    assert meta["Description-Content-Type"] == "text/markdown"
    text = meta.get_payload()
    assert isinstance(text, str) and text.startswith("# bocage")
    assert not re.findall(r"\]\((?!https?:|#)[^)]+\)", text)  # no relative target left
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pictures = re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", readme)
    assert pictures
    for alt, target in pictures:  # each picture is named, with its file
        assert f"*(picture: {alt}, `{target}` in the source distribution)*" in text


def test_the_package_runs_from_the_wheel_alone(unpacked, tmp_path):
    """The wheel's own pipeline (not the checkout's) finds its data through importlib.resources
    and its command says where to start."""
    env = {**os.environ, "PYTHONPATH": str(unpacked)}
    code = ("import pipeline, pipeline.bundle as b; print(pipeline.__file__);"
            " print(b.bundle_root()); print(len(b.bundled_files()));"
            " print(b.schema('map')['title'])")
    out = subprocess.run([sys.executable, "-P", "-c", code], cwd=tmp_path, env=env, check=True,
                         capture_output=True, text=True).stdout.splitlines()
    assert Path(out[0]).is_relative_to(unpacked)
    assert Path(out[1]) == unpacked / "pipeline" / "data"
    assert int(out[2]) == len(bundled_files())
    assert out[3] == "bocage map data (map.json)"
    shown = subprocess.run([sys.executable, "-P", "-m", "pipeline.cli", "--help"], cwd=tmp_path,
                           env=env, check=True, capture_output=True, text=True).stdout
    assert "Start with:  bocage demo" in shown
