"""Run every ``bench/bench_*.py`` module's ``main()`` and print one table.

Each ``main()`` returns a list of :class:`Row`: a task timed against a baseline
measured in the same run, interleaved A B A B where the bench uses ``bench/pairs.py``
(then with the range of the pair-by-pair ratios), so the ratio means something on a
noisy machine, and the issue's goal beside it. Benchmarks never fail on time; they only
print.

    python bench/run.py                        # all benchmarks
    python bench/run.py hexgrid digitize       # only those
    python bench/run.py --json build/bench.json
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent


class Row(NamedTuple):
    """One task and its baseline, both as median seconds of several repeats.

    ``spread`` is the range of the pair-by-pair ratios when the two were timed
    interleaved (``bench/pairs.py``), ``goal`` the issue's target for the task.
    """

    task: str
    seconds: float
    baseline: str
    baseline_seconds: float
    spread: str = ""
    goal: str = ""

    @property
    def ratio(self) -> float:
        return self.seconds / self.baseline_seconds

    @classmethod
    def paired(cls, task: str, timed: Any, baseline: str, *, goal: str = "",
               cpu: bool = False) -> Row:
        """A row from an interleaved timing (:class:`pairs.Pairs`): its medians and the
        range of its ratios (wall clock, or CPU time with ``cpu``)."""
        which = 1 if cpu else 0
        ratios = timed.ratios(which)
        return cls(task, timed.median("task", which), baseline, timed.median("baseline", which),
                   f"{min(ratios):.2f}-{max(ratios):.2f}x, {len(ratios)} pairs", goal)

    def to_dict(self, bench: str) -> dict[str, Any]:
        """The row for ``--json``."""
        return {"bench": bench, **self._asdict(), "ratio": round(self.ratio, 4)}


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
    head = ("bench", "task", "time", "baseline", "baseline time", "ratio", "spread", "goal")
    body = [
        (module, r.task, _fmt(r.seconds), r.baseline, _fmt(r.baseline_seconds),
         f"{r.ratio:.2f}x", r.spread or "-", r.goal or "-")
        for r in rows
    ]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]
    right = {2, 4, 5}

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return "\n".join([line(head), "  ".join("-" * w for w in widths), *map(line, body)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    names = sorted(p.stem.removeprefix("bench_") for p in HERE.glob("bench_*.py"))
    parser.add_argument("benches", nargs="*", metavar="BENCH",
                        help=f"benchmarks to run (default all: {', '.join(names)})")
    parser.add_argument("--json", metavar="FILE",
                        help="also write every row as JSON to FILE ('-' for stdout)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.benches) - set(names))
    if unknown:
        parser.error(f"no benchmark {', '.join(unknown)} (there are: {', '.join(names)})")
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    found: list[dict[str, Any]] = []
    for name in args.benches or names:
        module = importlib.import_module(f"bench_{name}")
        rows = module.main()
        print(format_table(name, rows), file=sys.stderr if args.json == "-" else sys.stdout)
        print(file=sys.stderr if args.json == "-" else sys.stdout)
        found += [r.to_dict(name) for r in rows]
    if args.json == "-":
        print(json.dumps(found, indent=1))
    elif args.json:
        Path(args.json).write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
