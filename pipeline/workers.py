"""Work spread over the machine's cores: an ordered map in worker processes, or in threads.

Counters are painted and encoded, and module pieces resized and encoded, in a
pool of processes (Pillow and zlib hold the interpreter while they work, so
threads would not run them side by side). Results come back in input order,
in chunks, so the caller writes each as it arrives and memory stays bounded.

Array work that lets go of the interpreter while it runs (NumPy's sorts, reductions and
arithmetic on large arrays, OpenCV's filters) is split into blocks run on threads
(:func:`map_blocks`): no copies to other processes, and each block's arrays stay small.

Workers are forked where the platform allows and the process runs no other
thread (nothing to import again, so a pool pays for itself on a few hundred
items); elsewhere they are spawned. Small jobs run in the calling process.
"""

from __future__ import annotations

import functools
import itertools
import multiprocessing
import os
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor

__all__ = ["begun", "cores", "map_blocks", "map_chunks_in_processes", "map_in_processes",
           "threads_for"]


def cores() -> int:
    """The cores this process may run on (at least 1).

    >>> cores() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def threads_for(jobs: int) -> int:
    """Threads for ``jobs`` as the options give it: -1 every core, else itself (at least 1).

    >>> threads_for(1), threads_for(0), threads_for(-1) == cores()
    (1, 1, True)
    """
    return cores() if jobs < 0 else max(1, jobs)


def begun[Result](fn: Callable[..., Result], *args: object) -> Future[Result]:
    """``fn(*args)`` begun on a thread of its own; its result (or error) from the future.

    For array work that lets go of the interpreter, started while the caller does other
    work that leaves a core idle. The thread ends with the work.

    >>> begun(sum, [1, 2, 3]).result()
    6
    >>> type(begun(int, "x").exception()).__name__   # raised again by result()
    'ValueError'
    """
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(fn, *args)
    finally:
        pool.shutdown(wait=False)


def map_blocks[Result](fn: Callable[[slice], Result], count: int, block: int, *,
                       jobs: int = 1) -> list[Result]:
    """``fn`` over consecutive slices of ``range(count)``, ``block`` long, results in order.

    With ``jobs`` above 1 the blocks run on that many threads, for work that lets go of
    the interpreter (NumPy, OpenCV); the results are the same whatever ``jobs`` is, as
    each block is worked alone. At least one block is worked, empty when ``count`` is 0.

    Examples
    --------
    >>> map_blocks(lambda s: (s.start, s.stop), 5, 2, jobs=2)
    [(0, 2), (2, 4), (4, 5)]
    >>> map_blocks(lambda s: s.stop - s.start, 0, 4)
    [0]
    """
    slices = [slice(s, min(s + block, count)) for s in range(0, max(count, 1), block)]
    if jobs <= 1 or len(slices) == 1:
        return [fn(s) for s in slices]
    with ThreadPoolExecutor(max_workers=min(jobs, len(slices))) as pool:
        return list(pool.map(fn, slices))


def _context() -> multiprocessing.context.BaseContext:
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _run_chunk[Item, Result](fn: Callable[[Item], Result], chunk: Sequence[Item]) -> list[Result]:
    return [fn(item) for item in chunk]


def map_in_processes[Item, Result](fn: Callable[[Item], Result], items: Sequence[Item], *,
                     jobs: int | None = None, chunk: int = 32,
                     serial_below: int = 64) -> Iterator[Result]:
    """``fn`` over ``items`` in worker processes, results in the order of ``items``.

    Parameters
    ----------
    fn
        A module-level function (it is sent to the workers by name).
    items
        What to work on; each is pickled to a worker.
    jobs
        Worker processes; ``None`` uses every core (:func:`cores`), 1 works here.
    chunk
        Items per task: fewer round trips, results still in order.
    serial_below
        Fewer items than this are worked here (a pool costs more than it saves).

    Examples
    --------
    >>> list(map_in_processes(abs, [-1, 2, -3], jobs=2, serial_below=0))
    [1, 2, 3]
    """
    workers = min(cores() if jobs is None else max(1, jobs), -(-len(items) // max(1, chunk)))
    if workers <= 1 or len(items) < serial_below:
        for item in items:
            yield fn(item)
        return
    yield from map_chunks_in_processes(functools.partial(_run_chunk, fn), items, jobs=workers,
                                       chunk=chunk, serial_below=0)


def map_chunks_in_processes[Item, Result](
        fn: Callable[[Sequence[Item]], list[Result]], items: Sequence[Item], *,
        jobs: int | None = None, chunk: int | Sequence[int] = 32, serial_below: int = 64
) -> Generator[Result]:
    """``fn`` over consecutive chunks of ``items`` in worker processes, results in order.

    As :func:`map_in_processes`, but ``fn`` is given a whole chunk and returns one result
    for each of its items: what the items of a chunk share (a store of drawn text, say)
    is made once a chunk, not once an item. ``fn`` may be a :func:`functools.partial`
    of a module-level function: its arguments go to the workers once a chunk. ``chunk``
    is the items of every chunk, or of each chunk in turn (adding up to ``len(items)``):
    big chunks first and small ones last share more and still end together.

    Examples
    --------
    >>> list(map_chunks_in_processes(sorted, [3, 1, 2, 0, 9], jobs=2, chunk=2, serial_below=0))
    [1, 3, 0, 2, 9]
    >>> list(map_chunks_in_processes(sorted, [3, 1, 2, 0, 9], chunk=[3, 2], serial_below=0))
    [1, 2, 3, 0, 9]
    """
    chunks = _cut(items, chunk)
    workers = min(cores() if jobs is None else max(1, jobs), len(chunks))
    if workers <= 1 or len(items) < serial_below:
        for part in chunks:
            yield from fn(part)
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=_context()) as pool:
        # At most two chunks a worker in flight: results are written as they come.
        pending = [pool.submit(fn, c) for c in chunks[:2 * workers]]
        following = 2 * workers
        while pending:
            done = pending.pop(0).result()
            if following < len(chunks):
                pending.append(pool.submit(fn, chunks[following]))
                following += 1
            yield from done


def _cut[Item](items: Sequence[Item], chunk: int | Sequence[int]) -> list[Sequence[Item]]:
    if isinstance(chunk, int):
        return [items[i:i + chunk] for i in range(0, len(items), max(1, chunk))]
    if sum(chunk) != len(items) or min(chunk, default=1) < 1:
        raise ValueError(f"chunks of {list(chunk)} items for {len(items)} items")
    starts = [0, *itertools.accumulate(chunk)]
    return [items[a:b] for a, b in itertools.pairwise(starts)]
