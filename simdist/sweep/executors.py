"""Executors: serial, a local process pool, or Dask (``distributed``).

Each takes the runs still to do, cuts them into batches (one task per batch, so per-task
overhead does not dominate short runs) and yields result rows as batches finish, in whatever
order they finish; the table is sorted by run index afterwards, so the result does not depend
on the executor, the number of workers or the batch size. The runs may be a lazy iterable (a
sweep's plan): batches are cut as they are needed and a pool holds at most a few batches per
worker in flight, so memory does not grow with the number of runs.
"""

from __future__ import annotations

import itertools
import math
import os
from typing import Any, Callable, Iterable, Iterator, Sequence

from .worker import run_batch

__all__ = ["EXECUTORS", "execute", "batches", "default_batch_size", "check_available"]

EXECUTORS = ("serial", "process", "dask")


def check_available(executor: str) -> None:
    """Refuse (usage error) an executor whose package is missing, before anything is written."""
    if executor == "dask":
        try:
            import distributed  # noqa: F401
        except ImportError:
            from simdist.scenario.outputs import usage_error
            raise usage_error("--executor dask needs dask.distributed (pip install 'simdist[sweep]')") from None


def default_batch_size(n_runs: int, workers: int) -> int:
    """About 8 batches per worker (load balance), at most 64 runs per batch."""
    if n_runs <= 0:
        return 1
    return max(1, min(64, math.ceil(n_runs / (max(1, workers) * 8))))


def batches(specs: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """``specs`` in lists of ``size`` (the last may be shorter), cut lazily."""
    it = iter(specs)
    while True:
        chunk = list(itertools.islice(it, size))
        if not chunk:
            return
        yield chunk


IN_FLIGHT = 2   # batches per worker submitted ahead of the results taken


def execute(payload: Any, specs: Iterable[Any], executor: str = "serial", workers: int | None = None,
            batch_size: int | None = None, scheduler: str | None = None,
            fn: Callable[[Any, list[Any]], list[dict[str, Any]]] = run_batch,
            total: int | None = None) -> Iterator[list[dict[str, Any]]]:
    """Yield lists of result rows (one list per finished batch). ``fn(payload, batch)`` makes a
    batch's rows (a module-level function, so that process and Dask workers can import it):
    a sweep's runs by default, or another kind of job (simdist explore's fault plans).
    ``total``: how many runs ``specs`` holds, when it is a lazy iterable (it sets the batch size)."""
    if executor not in EXECUTORS:
        raise ValueError(f"executor {executor!r}: expected one of {', '.join(EXECUTORS)}")
    if total is None:
        total = len(specs) if isinstance(specs, Sequence) else 0
    n = workers or (os.cpu_count() or 1)
    size = batch_size or default_batch_size(total, 1 if executor == "serial" else n)
    chunks = batches(specs, size)
    first = next(chunks, None)
    if first is None:
        return
    chunks = itertools.chain([first], chunks)
    if executor == "serial":
        for c in chunks:
            yield fn(payload, c)
    elif executor == "process":
        yield from _process(payload, chunks, n, fn)
    else:
        yield from _dask(payload, chunks, n, scheduler, fn)


def _process(payload: Any, chunks: Iterator[list[Any]], workers: int, fn: Callable[..., Any] = run_batch
             ) -> Iterator[list[dict[str, Any]]]:
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from simdist.scenario.interrupts import ignore_in_worker

    # fork (where available) starts workers with simdist already imported; spawn elsewhere
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context("spawn")
    # Workers ignore Ctrl-C (it reaches the whole process group): this process ends them.
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=ignore_in_worker)
    try:
        seq = itertools.count()
        running = {pool.submit(fn, payload, c): next(seq) for c in itertools.islice(chunks, IN_FLIGHT * workers)}
        while running:
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for f in sorted(finished, key=running.__getitem__):   # in submission order
                del running[f]
                nxt = next(chunks, None)
                if nxt is not None:
                    running[pool.submit(fn, payload, nxt)] = next(seq)
                yield f.result()
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def _stop_pool(pool: Any) -> None:
    """End a process pool now (an interrupt, an error, the consumer gone): terminate its workers
    rather than wait for their running tasks (a sweep run can take minutes), shielded from a
    second Ctrl-C so that no worker is left behind."""
    from simdist.scenario.interrupts import end_process_tree, shielded
    with shielded():
        end_process_tree(list((getattr(pool, "_processes", None) or {}).values()))
        pool.shutdown(wait=False, cancel_futures=True)
        # Let the pool's manager thread finish closing its wake-up pipe now (its workers are gone,
        # so it does at once). Otherwise CPython 3.11's exit hook (concurrent.futures.process.
        # _python_exit) can write to that pipe while the thread closes it, and the interrupted
        # command ends with an "Exception ignored ... Bad file descriptor" traceback.
        manager = getattr(pool, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(timeout=10.0)
            # And take the pool out of that exit hook's list: under heavy load (a loaded 2-core machine, load
            # average 20) the traceback still showed once (tests/cli/test_interrupts.py, lead60); the hook has
            # nothing left to wake here, its workers being ended above.
            from concurrent.futures import process as _futures_process
            getattr(_futures_process, "_threads_wakeups", {}).pop(manager, None)


def _dask(payload: Any, chunks: Iterator[list[Any]], workers: int, scheduler: str | None,
          fn: Callable[..., Any] = run_batch) -> Iterator[list[dict[str, Any]]]:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        from simdist.scenario.outputs import usage_error
        raise usage_error("--executor dask needs dask.distributed (pip install 'simdist[sweep]')") from None
    import logging
    logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster = None
    if scheduler:
        client = Client(scheduler, timeout="30s")
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=logging.ERROR)
        client = Client(cluster)
    try:
        pl = client.scatter([payload], broadcast=True)[0]
        futs = [client.submit(fn, pl, c, pure=False) for c in itertools.islice(chunks, IN_FLIGHT * workers)]
        pending = as_completed(futs)
        live = set(futs)   # the futures not yet taken (cancelled on an interrupt)
        try:
            for f in pending:
                live.discard(f)
                nxt = next(chunks, None)
                if nxt is not None:
                    nf = client.submit(fn, pl, nxt, pure=False)
                    live.add(nf)
                    pending.add(nf)
                yield f.result()
        except BaseException:
            client.cancel(list(live))
            raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
