"""Many scans read at once: one reading a scan, on every core or on a Dask cluster.

A batch is a list of :class:`BatchScan` (a scan and the map.json it becomes) read with
one :class:`BatchSetup` (the legend and what is known of the grid and the terrain, the
same for every scan, as for the sheets of one game). :func:`digitize_batch` hands the
scans to an executor, one task a scan, and yields a :class:`ScanOutcome` for each as it
finishes; each task reads its scan, writes its map.json whole (:mod:`pipeline.files`)
and sends back only a summary, so no scan's pixels cross between processes.

The executor is any :class:`concurrent.futures.Executor`: :func:`process_pool` (the
machine's cores, the default) or :func:`dask_executor` (a Dask cluster, for an archive
that outgrows one machine: the optional ``dask`` extra). Each reading is the one
:func:`pipeline.digitize.digitize_scan` gives for that scan alone: the forests' threads
only change how the work is shared (:class:`pipeline.digitize.Learner`).

A scan that cannot be read (a truncated file, a sample hex off its grid) is an outcome
with its one-line error, and the others go on; what is not one of bocage's errors (a
bug) stops the batch.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pipeline.digitize.learn import Learner
from pipeline.digitize.run import digitize_scan
from pipeline.digitize.summary import reading_summary
from pipeline.errors import BocageError, DataError
from pipeline.files import write_text_atomic
from pipeline.model import dumps
from pipeline.workers import cores

__all__ = ["BatchScan", "BatchSetup", "ScanOutcome", "batch_workers", "dask_executor",
           "digitize_batch", "executor_for", "output_names", "process_pool", "read_one"]


@dataclass(frozen=True)
class BatchScan:
    """One scan of a batch and the map.json it is read into."""

    scan: Path
    output: Path


@dataclass(frozen=True)
class BatchSetup:
    """How every scan of a batch is read: :func:`pipeline.digitize.digitize_scan`'s
    arguments other than the scan (``reading``: grid, size, anchors, samples, key,
    checked, key_auto), the legend file, the symbols' example hexes, and the learner."""

    legend: Path
    reading: Mapping[str, Any] = field(default_factory=dict)
    symbols: Mapping[str, Sequence[str]] = field(default_factory=dict)
    suggest: int = 0
    game: str = "digitized"
    title: str | None = None
    learner: Learner = Learner()


@dataclass(frozen=True)
class ScanOutcome:
    """What became of one scan: its summary (:func:`reading_summary`) or its error line."""

    scan: Path
    output: Path
    summary: dict[str, Any] | None = None
    error: str | None = None
    warnings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.error is None


def output_names(scans: Sequence[Path], folder: Path, suffix: str = ".json") -> list[BatchScan]:
    """Each scan's map.json in ``folder``, named by the scan's stem.

    Two scans of one stem (``a/sheet.jpg``, ``b/sheet.png``) would write one file: refused.

    >>> [str(b.output) for b in output_names([Path("x/n.jpg"), Path("s.png")], Path("out"))]
    ['out/n.json', 'out/s.json']
    """
    seen: dict[str, Path] = {}
    batch = []
    for scan in scans:
        name = scan.stem + suffix
        if name in seen:
            raise DataError(scan, "", f"writes {folder / name}, as {seen[name]} does; give the"
                            " scans different names, or read them in two batches")
        seen[name] = scan
        batch.append(BatchScan(scan, folder / name))
    return batch


def batch_workers(jobs: int | None, scans: int) -> int:
    """How many scans are read at once: ``jobs`` (``None``: every core), never more than
    there are scans.

    >>> batch_workers(None, 1), batch_workers(8, 3)
    (1, 3)
    """
    return max(1, min(cores() if jobs is None else jobs, scans))


def process_pool(workers: int) -> ProcessPoolExecutor:
    """``workers`` processes, each reading one scan at a time with its share of the cores
    for OpenCV (see :func:`digitize_batch` for the forests').

    The workers are spawned, never forked: a process that has read a scan already holds
    OpenCV's and the BLAS's own threads (which Python does not see), and a forked child
    of it waits forever on their locks. A start costs the imports, a second or so, next
    to seconds a scan.
    """
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(
        "spawn"), initializer=_share_cores, initargs=(workers,))


def executor_for(jobs: int | None, scheduler: str | None, scans: int) -> tuple[Executor, int]:
    """Where a batch of ``scans`` runs, and the threads each reading's forests get: a
    Dask ``scheduler``'s workers (one thread a task: the cluster runs as many tasks as it
    has threads), or :func:`batch_workers` processes sharing this machine's cores."""
    if scheduler is not None:
        return dask_executor(scheduler), 1
    workers = batch_workers(jobs, scans)
    return process_pool(workers), max(1, cores() // workers)


def dask_executor(address: str) -> Executor:
    """An executor on the Dask scheduler at ``address`` (``dask://host:port``, or
    ``tcp://...`` as Dask writes it). Needs the optional extra: ``pip install 'bocage[dask]'``.

    The workers must have bocage installed and see the scans and the output folder
    (a shared disk): each task opens its scan and writes its map.json where it runs.
    """
    try:
        from distributed import Client
    except ImportError:
        raise DataError(None, "--scheduler", "a Dask scheduler needs Dask's distributed"
                        " package: pip install 'bocage[dask]'") from None
    target = "tcp://" + address.removeprefix("dask://") if address.startswith("dask://") \
        else address
    try:
        client = Client(target, timeout="10s", set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise DataError(None, "--scheduler", f"no Dask scheduler answers at {address} ({exc})"
                        ) from None
    return _DaskExecutor(client)


class _DaskExecutor(Executor):
    """A Dask client as an executor that closes the client when it is shut down."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._inner = client.get_executor(pure=False)

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = self._inner.submit(fn, *args, **kwargs)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._inner.shutdown(wait=wait)
        self._client.close()


def digitize_batch(batch: Sequence[BatchScan], setup: BatchSetup, executor: Executor, *,
                   threads: int = 1) -> Iterator[ScanOutcome]:
    """Read every scan of ``batch`` on ``executor``; an outcome for each as it finishes.

    ``threads`` is how many threads each reading's forests may use (the cores divided
    among the readings that run at once). The executor is shut down at the end, or
    when the caller stops early (the scans not started are cancelled).

    Examples
    --------
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> list(digitize_batch([], BatchSetup(Path("legend.json")), ThreadPoolExecutor(1)))
    []
    """
    learner = replace(setup.learner, jobs=max(1, threads))
    task = replace(setup, learner=learner)
    with executor:
        futures = {executor.submit(read_one, item, task): item for item in batch}
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def read_one(item: BatchScan, setup: BatchSetup) -> ScanOutcome:
    """Read one scan and write its map.json whole; its summary, or its error line."""
    warnings: list[str] = []
    try:
        result = digitize_scan(item.scan, setup.legend, **setup.reading, game=setup.game,
                               title=setup.title, source=str(item.scan),
                               suggest=setup.suggest, warn=warnings.append,
                               symbols={k: list(v) for k, v in setup.symbols.items()},
                               learner=setup.learner)
        write_text_atomic(item.output, dumps(result.map))
    except BocageError as exc:
        line = str(exc)
        return ScanOutcome(item.scan, item.output, error=line if str(item.scan) in line
                           else f"{item.scan}: {line}", warnings=tuple(warnings))
    return ScanOutcome(item.scan, item.output, reading_summary(result, item.scan,
                                                                [item.output]),
                       warnings=tuple(warnings))


def _share_cores(workers: int) -> None:
    """A worker's share of the cores for OpenCV's own threads."""
    import cv2

    cv2.setNumThreads(max(1, cores() // workers))
