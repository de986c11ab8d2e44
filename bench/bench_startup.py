"""A command's whole process against bare Python's start, pair by pair (A B A B).

* ``bocage --version``: the root command alone. Goal (issue 18): 0.15 s.
* ``bocage rules supply maps/demo --position maps/demo/position.json``: a rules
  question on the demo, from the process's start to its exit (imports, reading the
  map, the rules profile, the units and the position, the answer). Goal: 0.3 s.

Each is timed against ``python -c pass`` (the interpreter's own start, in the same
pair), as a user starts it: the ``bocage`` script beside this interpreter, in the
checkout's root, with the demo's paths as the issue writes them. The goals are wall
clock; CPU (the command's process) is printed beside it. The bytecode of the
package the script imports is compiled first, as installing a wheel does, so a
checkout whose ``.pyc`` files are stale or not written (``PYTHONDONTWRITEBYTECODE``)
times the start a user has, not Python compiling bocage's sources.

``BENCH_PAIRS`` changes the number of pairs (15 by default; a pair takes about half
a second).
"""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
from pathlib import Path

try:  # run through bench/run.py, or directly as a script
    from pairs import Pairs, interleaved
    from run import Row, format_table
except ImportError:  # pragma: no cover - imported as bench.bench_startup
    from bench.pairs import Pairs, interleaved
    from bench.run import Row, format_table

ROOT = Path(__file__).resolve().parent.parent
PAIRS = int(os.environ.get("BENCH_PAIRS", "15"))
BOCAGE = str(Path(sys.executable).with_name("bocage"))
SUPPLY = ("rules", "supply", "maps/demo", "--position", "maps/demo/position.json")


def _run(*argv: str) -> None:
    # The answer is not read; an exit code other than 0 and 1 (findings) is a broken run.
    done = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(argv)}: exit {done.returncode}: {done.stderr.decode()}")


def _row(task: str, timed: Pairs, goal: float) -> Row:
    walls = sorted(t[0] for t in timed.task)
    wall, cpu = timed.median("task"), timed.median("task", 1)
    verdict = "met" if wall <= goal else "not met"
    return Row.paired(f"{task}: wall {wall:.3f} s ({walls[0]:.3f}-{walls[-1]:.3f}),"
                      f" CPU {cpu:.3f} s", timed, "python -c pass",
                      goal=f"<= {goal} s wall: {verdict}")


def main() -> list[Row]:
    import pipeline  # the package the script imports (this checkout's, when installed -e)

    compileall.compile_dir(Path(pipeline.__file__).parent, quiet=1)
    bare = (sys.executable, "-c", "pass")
    version = interleaved(lambda: _run(BOCAGE, "--version"), lambda: _run(*bare),
                          pairs=PAIRS, warmup=2)
    supply = interleaved(lambda: _run(BOCAGE, *SUPPLY), lambda: _run(*bare),
                         pairs=PAIRS, warmup=2)
    return [_row("bocage --version, whole process", version, 0.15),
            _row("bocage rules supply on the demo, whole process", supply, 0.3)]


if __name__ == "__main__":
    print(format_table("startup", main()))
