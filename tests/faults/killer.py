"""Run ``bocage`` and kill it at its N-th input/output step: ``python -m tests.faults.killer``.

Usage: ``python -m tests.faults.killer N SIGNAL COUNT_FILE -- ARGS...``. Every step
that makes, writes, syncs, renames, links or removes a file, and every entry
written into a ZIP, is a point, counted before and after it runs; at point ``N``
the process sends itself ``SIGNAL`` (``KILL``: a crash, a power cut as far as the
files go; ``INT``: Ctrl-C). With ``N`` = 0 nothing is sent and the number of
points is written to ``COUNT_FILE``, so a test can aim at each of them.
"""

from __future__ import annotations

import functools
import os
import shutil
import signal
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any


class _Points:
    def __init__(self, target: int, signum: int) -> None:
        self.target = target
        self.signum = signum
        self.count = 0
        self.pid = os.getpid()

    def hit(self) -> None:
        # Only the command's own process: its worker processes (pipeline.workers) write no
        # file, and counting them would make the points depend on how work is scheduled.
        if os.getpid() != self.pid:
            return
        self.count += 1
        if self.count == self.target:
            os.kill(os.getpid(), self.signum)

    def around(self, call: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(call)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self.hit()
            result = call(*args, **kwargs)
            self.hit()
            return result

        return wrapper


def main() -> None:
    target, name, count_file = int(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    args = sys.argv[sys.argv.index("--") + 1:]
    points = _Points(target, getattr(signal, f"SIG{name}"))
    import pipeline.files as files
    from pipeline.cli import cli

    for module, names in ((os, ("open", "fsync", "replace", "rename", "mkdir", "link",
                                "symlink", "unlink", "chmod")),
                          (shutil, ("rmtree", "copy2")),
                          (files, ("_exchange",)),
                          (zipfile.ZipFile, ("writestr",))):
        for attr in names:
            setattr(module, attr, points.around(getattr(module, attr)))
    try:
        cli.main(args, prog_name="bocage")
    finally:
        if target == 0:
            count_file.write_text(str(points.count))


if __name__ == "__main__":
    main()
