"""The elementwise sum of same-shape arrays in TF's AddN order, split over a few threads when large.

`sum_chain(arrays)` adds in the order of TF's AddN CPU kernel (tensorflow/core/kernels/
aggregate_ops.h, which simdist's AddN and cross-replica SUM/MEAN reproduce; TF's
ReductionToOneDevice reduces with math_ops.add_n): up to 9 inputs one chain, `in1 + in2 + ... + in9`
left to right per element (`out = a0 + a1; out += a2; ...`); more inputs in groups
(`addn_groups`). Every element is summed in that order whatever the path, so results are
bit-identical across paths; only wall time changes.

What it buys, measured on the project's 2-core machine, 4 x 1,000,000 float32 (docs/benchmarks.md,
"Foundation", 2026-11-29 session 5; the machine was at load average 8-15 throughout):
- cache blocking: the chain runs over blocks of BLOCK_BYTES of output, each block's partial sum
  staying in L2 while every input adds into it, so memory is read once per input instead of the
  whole output being re-read and re-written per input (one pass, like Eigen's fused expression):
  0.85-0.93x the CPU time of the whole-array chain at load 8-13 (e.g. 1,005 against 1,154 us),
  no gain at load 15 (other processes evict L2);
- threads: NumPy releases the GIL in ufunc loops, so the blocks are shared by the caller and
  helper threads of a small persistent pool (daemon threads, made on first use, at most
  min(os.cpu_count(), MAX_THREADS) - 1 of them), as TF shares AddN over its intra-op pool
  (Eigen's ThreadPoolDevice): the caller's own CPU time per call halves (972 us, the helper
  1,148 us, against 1,978 us alone, load 15); what that gives in wall time on a quiet machine was
  not measured (no quiet machine in that session). Blocks are handed out one at a time, so a
  helper that is not scheduled (a loaded machine) takes none: the caller sums them; one
  preempted in the middle of a block holds the call until it finishes that block (the caller
  waited 14 us a call on average, 2 us median, at load 12). On an oversubscribed machine the
  helpers are not asked (`_cores_free`).
Below PARALLEL_BYTES of output the plain chain runs: a handoff (a queue put, a thread's wake-up)
would be a large part of a small sum; 1 MiB is a choice, not tuned (the machine was never quiet).
Floating-point warnings are not raised on either path, as TF (clause ops.nonfinite-silent):
the blocks run under np.errstate(all="ignore") and the plain chain is covered by the ops
modules' warnings filter (simdist/runtime/ops/math.py).
"""

from __future__ import annotations

import os
import queue
import threading
from typing import Sequence

import numpy as np

from simdist.runtime.subnormals import flushed

__all__ = ["sum_chain", "addn_groups", "PARALLEL_BYTES", "BLOCK_BYTES", "MAX_THREADS"]

PARALLEL_BYTES = 1 << 20   # output size from which the blocked, threaded path runs
BLOCK_BYTES = 256 << 10    # output bytes per block: a block and its inputs' blocks fit in L2
MAX_THREADS = 8            # threads summing one call, the caller included

_pool_lock = threading.Lock()
_pool: "queue.SimpleQueue[_Job] | None" = None
_helpers = 0


def sum_chain(arrays: Sequence[np.ndarray], ftz: bool = False) -> np.ndarray:
    """`a0 + a1 + ... + an` elementwise, added in that order (>= 2 arrays of one shape). `ftz`:
    subnormal float results written as zeros of their sign (TF's flush-to-zero; on the blocked
    path each block is checked while it is in cache)."""
    blocks = _blocks(arrays)
    if blocks is None:
        groups = addn_groups(len(arrays))
        out = _chain(arrays, *groups[0])
        for lo, hi in groups[1:]:
            np.add(out, _chain(arrays, lo, hi), out=out)
        return flushed(out) if ftz else out
    out = np.empty(arrays[0].shape, arrays[0].dtype)
    job = _Job(out, arrays, *blocks, ftz=ftz)
    jobs, helpers = _ensure_pool()
    for _ in range(min(helpers, job.count - 1) if _cores_free() else 0):
        jobs.put(job)
    job.run()
    job.finished.wait()
    error = job.error
    job.release()   # a helper that takes this job later finds no block left, and no arrays
    if error is not None:
        raise error
    return out


def addn_groups(k: int) -> list[tuple[int, int]]:
    """TF's AddN order over k >= 2 inputs, as (start, stop) ranges: the first r in one chain
    (r = k mod 8, or 8 when that is 0, or 9 when it is 1), then each next 8 in a chain of their
    own added to it (aggregate_ops.h: Add2..Add9 assign, Add8p is `out += in1 + ... + in8`)."""
    r = k % 8
    r = 8 if r == 0 else 9 if r == 1 else r
    r = min(r, k)
    return [(0, r)] + [(i, i + 8) for i in range(r, k, 8)]


def _chain(arrays: Sequence[np.ndarray], lo: int, hi: int) -> np.ndarray:
    """arrays[lo] + arrays[lo + 1] + ... + arrays[hi - 1], left to right, in a new array."""
    out = np.asarray(np.add(arrays[lo], arrays[lo + 1]))
    for a in arrays[lo + 2:hi]:
        np.add(out, a, out=out)
    return out


def _blocks(arrays: Sequence[np.ndarray]) -> tuple[bool, int, int] | None:
    """(flat, per_block, count) for the blocked path, or None for the plain chain: flat blocks of
    elements when every array is C-contiguous, blocks of rows (axis 0) otherwise. The first two
    arrays must be C-contiguous, so that the output's layout is the plain chain's (np.add's
    order "K" of two C-contiguous operands)."""
    first = arrays[0]
    if not isinstance(first, np.ndarray) or first.nbytes < PARALLEL_BYTES or first.ndim == 0:
        return None
    dt = first.dtype
    if not _summable(dt) or any(not isinstance(a, np.ndarray) or a.dtype != dt or a.shape != first.shape
                                for a in arrays):
        return None
    if not (first.flags.c_contiguous and arrays[1].flags.c_contiguous):
        return None
    per_block = max(1, BLOCK_BYTES // dt.itemsize)
    if all(a.flags.c_contiguous for a in arrays[2:]):
        return True, per_block, -(-first.size // per_block)
    rows = first.shape[0]
    per_row = first.size // rows if rows else 0
    if rows < 2 or per_row == 0:
        return None
    per_block = max(1, per_block // per_row)
    return False, per_block, -(-rows // per_block)


_SUMMABLE: dict[np.dtype, bool] = {}


def _summable(dt: np.dtype) -> bool:
    """Whether np.add(dt, dt) -> dt runs in a GIL-free loop: numbers (bfloat16 and the other
    ml_dtypes included), not objects or strings."""
    ok = _SUMMABLE.get(dt)
    if ok is None:
        ok = False
        if dt.kind in "biufcV" and dt.fields is None and not dt.hasobject:
            try:
                ok = np.add.resolve_dtypes((dt, dt, None)) == (dt, dt, dt)
            except TypeError:
                ok = False
        _SUMMABLE[dt] = ok
    return ok


_NOTHING = np.empty(0, np.int8)


class _Job:
    """One call's blocks, taken one at a time by the caller and the helpers."""

    def __init__(self, out: np.ndarray, arrays: Sequence[np.ndarray], flat: bool, per_block: int,
                 count: int, ftz: bool = False) -> None:
        self.ftz = ftz
        if flat:
            self.out, self.ins = out.reshape(-1), [a.reshape(-1) for a in arrays]
        else:
            self.out, self.ins = out, list(arrays)
        self.per_block, self.count = per_block, count
        self.groups = addn_groups(len(arrays))
        self.lock = threading.Lock()
        self.next = 0
        self.left = count
        self.finished = threading.Event()
        self.error: BaseException | None = None

    def release(self) -> None:
        """Drop the arrays once every block is summed."""
        self.out, self.ins = _NOTHING, []

    def _take(self) -> int:
        with self.lock:
            i = self.next
            self.next += 1
            return i

    def run(self) -> None:
        """Sum blocks until none is left to take."""
        with np.errstate(all="ignore"):
            while True:
                i = self._take()
                if i >= self.count:
                    return
                try:
                    if self.error is None:
                        self._block(i)
                except BaseException as e:   # noqa: BLE001 - handed to the caller, which raises it
                    self.error = e
                finally:
                    with self.lock:
                        self.left -= 1
                        if self.left == 0:
                            self.finished.set()

    def _block(self, i: int) -> None:
        lo = i * self.per_block
        hi = lo + self.per_block
        ins = self.ins
        o = self.out[lo:hi]
        first, *rest = self.groups
        _chain_into(o, ins, first, lo, hi)
        if rest:
            part = np.empty_like(o)
            for g in rest:
                _chain_into(part, ins, g, lo, hi)
                np.add(o, part, out=o)
        if self.ftz:   # (checked while the block is in cache; flushed() allocates only when it holds one)
            f = flushed(o)
            if f is not o:
                o[...] = f


def _chain_into(o: np.ndarray, ins: Sequence[np.ndarray], group: tuple[int, int], lo: int, hi: int) -> None:
    """o = ins[g0][lo:hi] + ... + ins[g1 - 1][lo:hi], left to right."""
    g0, g1 = group
    np.add(ins[g0][lo:hi], ins[g0 + 1][lo:hi], out=o)
    for a in ins[g0 + 2:g1]:
        np.add(o, a[lo:hi], out=o)


def _cores_free() -> bool:
    """Whether helpers can help: not while the machine is oversubscribed (1-minute load average
    at or above os.cpu_count() + 1). At load 14.5 on 2 cores the caller with its helper took
    1.10-1.18x the time of the caller alone (per-round medians of 150 alternating rounds;
    presumably a helper preempted while it holds the GIL or a block stalls the caller), so there
    the caller sums every block itself (1.01x at load 16). Wall time only: same values."""
    try:
        return os.getloadavg()[0] < (os.cpu_count() or 1) + 1
    except OSError:   # (no load average on this platform)
        return True


def _serve(jobs: "queue.SimpleQueue[_Job]") -> None:
    while True:
        jobs.get().run()


def _ensure_pool() -> tuple["queue.SimpleQueue[_Job]", int]:
    """The helpers' job queue and how many helpers serve it, starting them on first use."""
    global _pool, _helpers
    with _pool_lock:
        if _pool is None:
            n = min(os.cpu_count() or 1, MAX_THREADS) - 1
            jobs: "queue.SimpleQueue[_Job]" = queue.SimpleQueue()
            for k in range(n):
                threading.Thread(target=_serve, args=(jobs,), name=f"simdist-sum-{k}", daemon=True).start()
            _pool, _helpers = jobs, n
        return _pool, _helpers


def _forget_pool() -> None:
    """In a forked child the helper threads do not exist: start new ones on next use."""
    global _pool, _helpers, _pool_lock
    _pool, _helpers, _pool_lock = None, 0, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)
