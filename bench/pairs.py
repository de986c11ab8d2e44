"""A task and its baseline timed in pairs, A B A B, so both see the same machine.

On a machine shared with other work, two runs minutes apart see different
loads; a ratio of two timings taken side by side does not. Each pair times
the task then the baseline (wall clock, and CPU time of this process and its
children: worker processes and command-line runs count), and the figures are
the median over the pairs with the smallest and largest ratio beside it.
"""

from __future__ import annotations

import resource
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Pairs", "interleaved"]


def _cpu() -> float:
    # This process's own clock (nanoseconds: a task of a few ms is measured, where the
    # resource counters may tick by the scheduler's slice), plus its children's.
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _timed(fn: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), _cpu()
    fn()
    return time.perf_counter() - wall, _cpu() - cpu


@dataclass(frozen=True)
class Pairs:
    """Wall and CPU seconds of every pair: ``task[i]`` ran just before ``baseline[i]``."""

    task: tuple[tuple[float, float], ...]
    baseline: tuple[tuple[float, float], ...]

    def ratios(self, which: int = 0) -> list[float]:
        """Task over baseline, pair by pair (``which``: 0 wall, 1 CPU)."""
        return [t[which] / b[which] for t, b in zip(self.task, self.baseline, strict=True)]

    def median(self, side: str, which: int = 0) -> float:
        """The median wall (0) or CPU (1) seconds of ``side`` (``task`` or ``baseline``)."""
        return statistics.median(x[which] for x in getattr(self, side))

    def summary(self, which: int = 0) -> str:
        """``2.1x (1.9-2.4, 5 pairs)``: the median ratio and its range."""
        ratios = self.ratios(which)
        return (f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f},"
                f" {len(ratios)} pairs)")


def interleaved(task: Callable[[], object], baseline: Callable[[], object], *, pairs: int = 5,
                warmup: int = 1, setup: Callable[[], object] | None = None) -> Pairs:
    """Time ``task`` and ``baseline`` alternately, ``pairs`` times each after ``warmup`` pairs.

    ``setup`` runs before every timed call, untimed (e.g. to clear an output folder).
    """
    def run(fn: Callable[[], object]) -> tuple[float, float]:
        if setup is not None:
            setup()
        return _timed(fn)

    for _ in range(warmup):
        run(task)
        run(baseline)
    timings = [(run(task), run(baseline)) for _ in range(pairs)]
    return Pairs(tuple(t for t, _ in timings), tuple(b for _, b in timings))
