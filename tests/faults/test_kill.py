"""Commands killed part-way leave their output old or new, never mixed, and no leftovers.

``counters render`` (a folder), ``counters sheet`` (a PDF) and ``vassal build`` (a
module) are run over an earlier output, made from other inputs, and killed at
several of their input/output steps (``killer.py``): with SIGKILL, as a crash or
a power cut would, and with SIGINT, as Ctrl-C does. After each kill the output is
byte for byte the old one or the new one. A Ctrl-C also exits 130 with one line
and leaves nothing behind at once; after a SIGKILL, the next run of the command
removes what the killed one left, and its output is the new one.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import cli
from tests.vassal.conftest import make_game

ROOT = Path(__file__).resolve().parents[2]
KILLS_PER_COMMAND = 7  # spread over the run, the swap always among them


def snapshot(path: Path) -> dict[str, str]:
    """A file's hash, or a folder's files and their hashes."""
    if path.is_file():
        return {"": hashlib.sha256(path.read_bytes()).hexdigest()}
    if not path.exists():
        return {}
    return {str(p.relative_to(path)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.rglob("*")) if p.is_file()}


def run_killed(at: int, signal_name: str, args: list[str], count: Path, cwd: Path
               ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "tests.faults.killer", str(at), signal_name,
                           str(count), "--", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=env, check=False)


def run_here(args: list[str], cwd: Path) -> None:
    here = os.getcwd()
    os.chdir(cwd)  # paths are relative: the same bytes whatever folder a tree is in
    try:
        result = CliRunner().invoke(cli, args, prog_name="bocage")
    finally:
        os.chdir(here)
    assert result.exit_code == 0, result.output


@dataclass(frozen=True)
class Job:
    """A command over an output it replaces: how to make the old one, how to run the new."""

    name: str
    old: Callable[[Path], list[str]]
    new: Callable[[Path], list[str]]
    output: str


def _manifests(root: Path) -> None:
    source = (ROOT / "counters" / "demo" / "units.csv").read_text().splitlines()
    (root / "old.csv").write_text("\n".join(source[:6]) + "\n")
    # Other values and a unit fewer: every face differs and one old face must go.
    (root / "new.csv").write_text("\n".join(source[:5]).replace(",infantry,", ",armor,") + "\n")


JOBS = [
    Job("counters-render",
        lambda r: ["counters", "render", "old.csv", "--out-dir", "out", "--dpi", "60"],
        lambda r: ["counters", "render", "new.csv", "--out-dir", "out", "--dpi", "60"],
        "out"),
    Job("counters-sheet",
        lambda r: ["counters", "sheet", "old.csv", "-o", "out.pdf", "--dpi", "60"],
        lambda r: ["counters", "sheet", "new.csv", "-o", "out.pdf", "--dpi", "60"],
        "out.pdf"),
    Job("vassal-build",
        lambda r: ["vassal", "build", "maps/demo", "--board", "maps/demo/board.png",
                   "-o", "out.vmod", "--name", "old"],
        lambda r: ["vassal", "build", "maps/demo", "--board", "maps/demo/board.png",
                   "-o", "out.vmod", "--name", "new"],
        "out.vmod"),
]


def _setup(root: Path, job: Job) -> None:
    root.mkdir(parents=True, exist_ok=True)
    _manifests(root)
    if job.name == "vassal-build":
        make_game(root)
    run_here(job.old(root), root)
    if job.name == "counters-render":
        (root / "out" / "notes.txt").write_text("the builder's own file, kept")


def _leftovers(root: Path) -> list[str]:
    return sorted(p.name for p in root.rglob("*") if ".bocage-" in p.name)


def _points(count: int) -> list[int]:
    """Kill points spread over the run (first, last and between)."""
    step = max(1, (count - 1) / (KILLS_PER_COMMAND - 1))
    return sorted({min(count, 1 + round(i * step)) for i in range(KILLS_PER_COMMAND)})


@pytest.fixture(scope="module", params=JOBS, ids=[j.name for j in JOBS])
def job_states(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
               ) -> tuple[Job, Path, dict[str, str], dict[str, str], int]:
    """The job, a pristine tree holding its old output, the old and new snapshots, and
    how many kill points the new run has."""
    job: Job = request.param
    pristine = tmp_path_factory.mktemp(job.name)
    _setup(pristine, job)
    old = snapshot(pristine / job.output)
    probe = tmp_path_factory.mktemp(job.name + "-probe")
    shutil.copytree(pristine, probe, dirs_exist_ok=True, symlinks=True)
    count = probe / "points"
    done = run_killed(0, "KILL", job.new(probe), count, probe)
    assert done.returncode == 0, done.stderr
    new = snapshot(probe / job.output)
    assert new != old and old and new
    return job, pristine, old, new, int(count.read_text())


@pytest.mark.slow
def test_a_killed_run_leaves_old_or_new_and_the_next_run_cleans_up(job_states, tmp_path):
    job, pristine, old, new, count = job_states
    seen = []
    for at in _points(count):
        root = tmp_path / f"kill-{at}"
        shutil.copytree(pristine, root, symlinks=True)
        killed = run_killed(at, "KILL", job.new(root), root / "points", root)
        assert killed.returncode == -9, (at, killed.stderr)
        state = snapshot(root / job.output)
        assert state in (old, new), f"{job.name} killed at point {at} of {count}: mixed"
        seen.append("old" if state == old else "new")
        run_here(job.new(root), root)  # the next run
        assert snapshot(root / job.output) == new
        assert _leftovers(root) == [], (at, _leftovers(root))
        if job.name == "counters-render":
            assert (root / "out" / "notes.txt").read_text() == "the builder's own file, kept"
    assert "old" in seen and "new" in seen  # the kills fell on both sides of the swap


@pytest.mark.slow
def test_ctrl_c_exits_130_in_one_line_and_leaves_the_old_output(job_states, tmp_path):
    job, pristine, old, new, count = job_states
    for at in _points(count)[1:-1]:  # while it is working
        root = tmp_path / f"int-{at}"
        shutil.copytree(pristine, root, symlinks=True)
        stopped = run_killed(at, "INT", job.new(root), root / "points", root)
        state = snapshot(root / job.output)
        if state == new:  # the Ctrl-C came after the output was in place
            continue
        assert stopped.returncode == 130, (at, stopped.stderr)
        assert stopped.stderr == "bocage: interrupted\n"
        assert state == old
        assert _leftovers(root) == []
