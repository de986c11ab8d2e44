"""Every case of the bad-input corpus is refused cleanly by the real command line.

The cases (``cases.py``) are run by one worker process (``worker.py``) capped at
3 GiB of address space and 60 s a case, as a new user's machine would stop a
runaway command. For each: exit code 2, exactly one line on stderr that starts
``bocage:`` and names the file, no traceback, nothing on stdout, and nothing
written anywhere: the case's folder (its inputs and where its outputs would
go), the shared inputs and the worker's temporary folder are the same, file by
file and hash by hash, after the run as before; ``/dev/null`` is still a device.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.corpus.cases import CASES, ROOT, make_shared

MEMORY_MB = 3072
TIMEOUT = 60


class Worker:
    """The corpus worker process: one request and one answer a line."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.process: subprocess.Popen[str] | None = None
        self.start()

    def start(self) -> None:
        env = {**os.environ, "TMPDIR": str(self.tmp), "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("BOCAGE_MAX_PIXELS", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.corpus.worker", str(MEMORY_MB)], cwd=ROOT, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert json.loads(self._line()) == {"ready": True}

    def _line(self) -> str:
        assert self.process is not None and self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            code = self.process.wait()
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None:
                    pipe.close()
            self.process = None
            raise AssertionError(f"the worker died (exit {code}): out of memory or crashed")
        return line

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.process is None:
            self.start()
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(json.dumps({"timeout": TIMEOUT, **request}) + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self._line())
        return answer

    def close(self) -> None:
        if self.process is not None:
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None:
                    pipe.close()
            self.process.wait(timeout=30)


def tree(root: Path) -> dict[str, str]:
    """Every entry under ``root``: a hash for files, the target for links, the kind otherwise."""
    found: dict[str, str] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            rel = str(path.relative_to(root))
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                found[rel] = "link " + os.readlink(path)
            elif stat.S_ISREG(mode):
                digest = hashlib.sha256()
                with path.open("rb") as fh:
                    for block in iter(lambda: fh.read(1 << 20), b""):
                        digest.update(block)
                found[rel] = f"file {stat.S_IMODE(mode):o} {digest.hexdigest()}"
            else:
                found[rel] = f"{stat.S_IFMT(mode):o}"
    return found


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("shared")
    make_shared(root)
    return root


@pytest.fixture(scope="module")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Any:
    running = Worker(tmp_path_factory.mktemp("worker-tmp"))
    yield running
    running.close()


def test_the_corpus_covers_every_kind_of_input_the_issue_names():
    assert len(CASES) >= 100
    assert len({c.id for c in CASES}) == len(CASES)
    commands = {c.args[0] if c.args[0] not in ("counters", "vassal", "rules")
                else " ".join(c.args[:2]) for c in CASES}
    assert commands >= {"check", "digitize", "validate", "aids", "counters render",
                        "counters sheet", "vassal build", "vassal check", "vassal inspect",
                        "vassal preview", "rules test", "rules moves"}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_is_one_line_exit_2_and_touches_nothing(case, shared, worker, tmp_path):
    folder = tmp_path / "case"
    folder.mkdir()
    if case.setup is not None:
        case.setup(shared, folder)
    before = tree(folder), tree(shared), tree(worker.tmp)
    # Run from beside the case's folder: a folder output that is the current folder is
    # refused before anything else (pipeline.files), which would hide the case's own check.
    result = worker.run({"args": case.argv(shared, folder), "cwd": str(tmp_path),
                         "env": case.env})
    lines = result["stderr"].splitlines()
    assert result["code"] == 2, result
    assert len(lines) == 1 and lines[0].startswith("bocage: "), result["stderr"]
    assert case.expected(shared, folder) in lines[0], lines[0]
    assert "Traceback" not in result["stderr"] and result["stdout"] == ""
    assert (tree(folder), tree(shared), tree(worker.tmp)) == before
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert result["seconds"] < TIMEOUT
