"""Native thread pools (BLAS, OpenMP) limited to one thread in a simdist process.

simdist computes one simulated cluster on one OS thread; sweeps parallelise across processes.
NumPy's BLAS starts a thread per core in every process, and those threads only spin against
the simulation and against each other: on 2 cores with one busy, a PS job ran 115 closures/s
instead of 17,765/s, and two simdist runs side by side 490/s each instead of 12,800/s
(docs/benchmarks.md). `import simdist` therefore sets every native pool loaded in the process to
one thread, with threadpoolctl (which calls each library's own setter, e.g.
`openblas_set_num_threads`; environment variables such as OPENBLAS_NUM_THREADS are read only
when the library loads, so they cannot help once NumPy is imported).

NumPy is imported here first, so the limit reaches its BLAS whether or not the program imported
NumPy before simdist. `SIMDIST_BLAS_THREADS=N` (N >= 1) in the environment sets N threads
instead; `SIMDIST_BLAS_THREADS=0` leaves the libraries' own defaults. `limit(n)` changes it later
in the process (e.g. for a NumPy-heavy program that runs no simulation).
"""

from __future__ import annotations

import os

import numpy as _np  # noqa: F401  (loads NumPy's BLAS so that the limit reaches it)
from threadpoolctl import threadpool_info, threadpool_limits

ENV = "SIMDIST_BLAS_THREADS"
DEFAULT = 1

_applied: dict[str, int] = {}


def _from_env() -> int | None:
    raw = os.environ.get(ENV, "").strip()
    if raw == "":
        return DEFAULT
    try:
        n = int(raw)
    except ValueError:
        n = -1
    if n < 0:
        raise ValueError(f"{ENV}={raw!r}: must be a whole number of threads >= 1, "
                         f"or 0 to leave the native libraries' own defaults")
    return None if n == 0 else n


def limit(n: int) -> dict[str, int]:
    """Set every loaded native thread pool (BLAS, OpenMP) to `n` threads; returns
    {library internal_api: threads} as the libraries now report them."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"threads must be an int >= 1, got {n!r}")
    threadpool_limits(limits=n)
    _applied.clear()
    _applied.update(current())
    return dict(_applied)


def current() -> dict[str, int]:
    """{library internal_api (e.g. 'openblas'): threads} for every native pool loaded now (the
    most any copy of that library has, when several are loaded)."""
    out: dict[str, int] = {}
    for info in threadpool_info():
        api = info["internal_api"]
        out[api] = max(out.get(api, 0), info["num_threads"])
    return out


def apply_default() -> dict[str, int]:
    """Apply `SIMDIST_BLAS_THREADS` (default 1) once per process; returns what was set, empty
    when opted out with 0."""
    if _applied:
        return dict(_applied)
    n = _from_env()
    return {} if n is None else limit(n)


def applied() -> dict[str, int]:
    """What `import simdist` (or `limit`) set: {library internal_api: threads}."""
    return dict(_applied)
