"""Run metrics: per-step time breakdown (interval arithmetic) and JSON canonicalisation helpers.

Step breakdown, over the step's span [start, end]:
- ``compute_s``: time during which at least one device runs a kernel;
- ``communication_s``: time during which at least one transfer is in flight (latency included)
  and no device computes;
- ``idle_s``: the rest (``compute_s + communication_s + idle_s == end - start``).
Intervals are clipped to the span: a kernel queued in the step but running after it counts only
up to the step's end, and a transfer in flight across a step boundary counts on both sides.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

__all__ = ["StepRecord", "union_length", "canonical_json"]


class StepRecord:
    """Intervals recorded while a ``with sim.step(name)`` block is open: kernels as (start, end)
    intervals, merged as they come (`add_compute`), transfer in-flight periods as (start, end) pairs."""

    __slots__ = ("name", "start", "end", "transfers", "_cs", "_ce", "_a", "_b", "_open")

    name: str
    start: float
    end: float | None
    transfers: list[tuple[float, float]]
    _cs: list[float]
    _ce: list[float]
    _a: float
    _b: float
    _open: bool

    def __init__(self, name: str, start: float) -> None:
        self.name = name
        self.start = start
        self.end = None
        self.transfers = []  # periods with some transfer in flight
        self._cs = []  # kernel interval starts (merged), the last one in _a/_b while _open
        self._ce = []
        self._a = 0.0
        self._b = 0.0
        self._open = False

    def add_compute(self, start: float, end: float) -> None:
        """A kernel's interval [start, end). One that meets or overlaps the last one recorded
        is merged into it (the union of two intervals that meet is their hull): the union, hence
        the breakdown, is the same, and a step of many kernels in lockstep keeps few intervals."""
        if self._open:
            a = self._a
            b = self._b
            if start <= b and end >= a:
                if start < a:
                    self._a = start
                if end > b:
                    self._b = end
                return
            self._cs.append(a)
            self._ce.append(b)
        else:
            self._open = True
        self._a = start
        self._b = end

    def compute_intervals(self) -> tuple[list[float], list[float]]:
        """(starts, ends) of the recorded kernel intervals (merged as they came)."""
        cs = list(self._cs)
        ce = list(self._ce)
        if self._open:
            cs.append(self._a)
            ce.append(self._b)
        return cs, ce

    def summary(self) -> dict[str, Any]:
        s0 = self.start
        s1 = self.end if self.end is not None else self.start
        xs = [a for a, _ in self.transfers]
        xe = [b for _, b in self.transfers]
        cs, ce = self.compute_intervals()
        if len(cs) + len(xs) <= _SMALL:
            c = _union_small(cs, ce, s0, s1)
            both = _union_small(cs + xs, ce + xe, s0, s1)
        else:
            ncs = np.array(cs, dtype=np.float64)
            nce = np.array(ce, dtype=np.float64)
            c = union_length(ncs, nce, s0, s1)
            both = union_length(np.concatenate([ncs, np.array(xs, dtype=np.float64)]),
                                np.concatenate([nce, np.array(xe, dtype=np.float64)]), s0, s1)
        span = s1 - s0
        return {"communication_s": max(0.0, both - c), "compute_s": c, "end": s1,
                "idle_s": max(0.0, span - both), "name": self.name, "start": s0}


_SMALL = 256  # up to this many kernels a step's union is computed in pure Python (numpy's per-call cost dominates)


def _union_small(starts: list[float], ends: list[float], lo: float, hi: float) -> float:
    """`union_length` for short lists: the same segments, the same exactly rounded sum."""
    # Sorted unclipped, clipped as read: clipping is monotone, so the merged segments (hence
    # their exactly rounded sum) are the same as sorting the clipped intervals, without a
    # generator over every kernel of the step.
    lengths: list[float] = []
    have = False
    cur_a = cur_b = 0.0
    for a, b in sorted(zip(starts, ends)):
        if a < lo:
            a = lo
        if b > hi:
            b = hi
        if b <= a:
            continue
        if not have or a > cur_b:
            if have:
                lengths.append(cur_b - cur_a)
            cur_a = a
            cur_b = b
            have = True
        elif b > cur_b:
            cur_b = b
    if have:
        lengths.append(cur_b - cur_a)
    return math.fsum(lengths)


def union_length(starts: Any, ends: Any, lo: float = -math.inf, hi: float = math.inf) -> float:
    """Length of the union of the intervals [starts[i], ends[i]) clipped to [lo, hi]. Exactly
    rounded (math.fsum), so it does not depend on summation order."""
    s = np.maximum(np.asarray(starts, dtype=np.float64), lo)
    e = np.minimum(np.asarray(ends, dtype=np.float64), hi)
    keep = e > s
    s, e = s[keep], e[keep]
    n = len(s)
    if n == 0:
        return 0.0
    order = np.argsort(s, kind="stable")
    s, e = s[order], e[order]
    reach = np.maximum.accumulate(e)
    new = np.empty(n, dtype=bool)
    new[0] = True
    new[1:] = s[1:] > reach[:-1]
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, n - 1)
    return math.fsum((reach[last] - s[first]).tolist())


def canonical_json(obj: Any) -> str:
    """Sorted keys, no whitespace, NaN/inf rejected: the form hashed by check_determinism."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False)
