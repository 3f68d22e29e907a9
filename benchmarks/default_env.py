"""Benchmarks run simdist as a new user does: out of the box, no tuning environment variables.

`out_of_the_box()` (first thing in every benchmark's main) re-executes the benchmark without
any variable that tunes simdist, BLAS/OpenMP thread pools or glibc's allocator, and prints which
it removed, so a figure never depends on what the shell that ran it had set. simdist's own
defaults (one BLAS thread, fixed malloc thresholds: simdist/runtime/threads.py, malloc.py) are
what is measured. It also says whether this checkout's simulator runs compiled (the mypyc
build `pip install` makes: docs/architecture.md) or as pure Python, and why.
"""

from __future__ import annotations

import os
import subprocess
import sys

TUNING = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "GOTO_NUM_THREADS",
          "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS", "GLIBC_TUNABLES")
_MARK = "_SIMDIST_BENCH_REMOVED"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # this checkout


def _tuning(name: str) -> bool:
    return name in TUNING or (name.startswith("SIMDIST_")) or name.startswith("MALLOC_")


def out_of_the_box() -> None:
    """Re-exec this script without tuning variables (once), then say so on stdout."""
    removed = sorted(k for k in os.environ if _tuning(k))
    if removed:
        env = {k: v for k, v in os.environ.items() if not _tuning(k)}
        env[_MARK] = ",".join(removed)
        sys.stdout.flush()
        os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], env)
    gone = os.environ.pop(_MARK, "")
    print("configuration: out of the box (no SIMDIST_*, BLAS/OpenMP thread or malloc variables"
          + (f"; removed from this run: {gone.replace(',', ', ')}" if gone else "") + ")", flush=True)
    print(f"simulator build: {simulator_build()}", flush=True)


def simulator_build() -> str:
    """Whether this checkout's simulator modules and its in-order FMA kernels (simdist/runtime/ops/_fma.c) run
    compiled, as a fresh interpreter finds them (a subprocess: the benchmark's own process has not imported simdist
    yet)."""
    code = ("import simdist.sim._native as n; s = n.state(); "
            "print(('compiled (mypyc)' if s['compiled'] else 'pure Python') + ': ' + s['reason'], end='; ')\n"
            "import simdist.runtime.ops.fma_native as f; s = f.state(); "
            "print('oneDNN-order FMA kernels ' + ('compiled (_fma.c)' if s['compiled'] else 'pure Python') + ': ' "
            "+ s['reason'])")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, *sys.path]))
    out = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, env=env)
    return out.stdout.strip() or f"unknown (the check failed: {out.stderr.strip()[-300:]})"
