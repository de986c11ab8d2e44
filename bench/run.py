"""Run every ``bench/bench_*.py`` module's ``main()`` and print one table.

Each ``main()`` returns a list of :class:`Row`: a task timed against a baseline
measured in the same run, so the ratio means something on a noisy machine.
Benchmarks never fail on time; they only print.

    python bench/run.py            # all benchmarks
    python bench/run.py hexgrid    # only bench_hexgrid.py
"""

from __future__ import annotations

import importlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent


class Row(NamedTuple):
    """One task and its baseline, both as median seconds of several repeats."""

    task: str
    seconds: float
    baseline: str
    baseline_seconds: float

    @property
    def ratio(self) -> float:
        return self.seconds / self.baseline_seconds


def median_time(fn: Callable[[], object], *, repeat: int = 7, warmup: int = 1) -> float:
    """Median wall time of ``fn()`` in seconds (``time.perf_counter``)."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _fmt(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} us"


def format_table(module: str, rows: list[Row]) -> str:
    head = ("bench", "task", "time", "baseline", "baseline time", "ratio")
    body = [
        (module, r.task, _fmt(r.seconds), r.baseline, _fmt(r.baseline_seconds), f"{r.ratio:.1f}x")
        for r in rows
    ]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]
    right = {2, 4, 5}

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    return "\n".join([line(head), "  ".join("-" * w for w in widths), *map(line, body)])


def main(argv: list[str] | None = None) -> int:
    wanted = set(argv if argv is not None else sys.argv[1:])
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem.removeprefix("bench_")
        if wanted and name not in wanted:
            continue
        module = importlib.import_module(path.stem)
        rows = module.main()
        print(format_table(name, rows))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
