"""Shrink a failing fault plan to a minimal one that still breaks the same invariant.

Two passes, both deterministic (runs are, and every choice below is made in a fixed order):

1. delta debugging on the plan's events (``ddmin``, Zeller and Hildebrandt, "Simplifying and
   Isolating Failure-Inducing Input", IEEE TSE 2002): remove chunks of events, then single
   events, while the plan still fails. The result is 1-minimal: removing any one of its events
   makes the failure go away.
2. simpler numbers: each number of each remaining event is rounded to 1, 2, then 3 significant
   digits (``at_time = 197.53`` -> 200, 200, 198), the first that still fails is kept.

Why not Hypothesis's shrinker (the project already depends on Hypothesis)? It shrinks the
choice sequence behind an example it generated itself; its public API cannot start from a plan
drawn elsewhere and run on a process pool. picire, the delta-debugging library, has had no
release since 2021. ddmin is forty lines, here.

Each test runs the plan (a cached result for a plan already tried); ``max_tests`` and
``deadline`` bound the work, and the result says whether it finished.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from .plans import Event

__all__ = ["Shrunk", "ddmin", "shrink"]

Plan = tuple[Event, ...]


@dataclass(frozen=True)
class Shrunk:
    events: Plan          # the minimal plan
    tests: int            # plans run while shrinking
    complete: bool        # False when max_tests or the deadline stopped it early


class _Budget(Exception):
    pass


def ddmin(items: Sequence[Event], fails: Callable[[Plan], bool]) -> Plan:
    """A 1-minimal sub-sequence of ``items`` for which ``fails`` holds (``fails(items)`` must)."""
    cur = list(items)
    n = 2
    while len(cur) >= 2:
        size = math.ceil(len(cur) / n)
        chunks = [cur[i:i + size] for i in range(0, len(cur), size)]
        for c in chunks:                                   # a chunk alone fails?
            if fails(tuple(c)):
                cur, n = c, 2
                break
        else:
            for i in range(len(chunks)):                   # all but one chunk fails?
                rest = [e for j, c in enumerate(chunks) if j != i for e in c]
                if fails(tuple(rest)):
                    cur, n = rest, max(n - 1, 2)
                    break
            else:
                if n >= len(cur):
                    break
                n = min(len(cur), 2 * n)
    if len(cur) == 1 and fails(()):
        return ()
    return tuple(cur)


def _rounded(x: float, digits: int) -> float:
    return float(f"{x:.{digits}g}")


def _candidates(e: Event, key: str) -> list[Event]:
    """Simpler variants of one number of an event, simplest first: rounded to 1, 2, then 3 significant digits."""
    v = e.as_dict()[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)) or key in ("worker", "ps"):
        return []
    out = []
    for digits in (1, 2, 3):
        r: float | int = _rounded(float(v), digits)
        r = int(r) if isinstance(v, int) else r
        if r == v or (key == "at_closure" and r < 1) or (key == "slowdown" and r < 1) or \
                (key in ("bandwidth_factor", "latency_factor") and r <= 0):
            continue
        new = dict(e.as_dict(), **{key: r})
        if new.get("end") is not None and new["end"] <= new.get("start", 0.0):
            continue
        out.append(Event(e.kind, tuple((k, new[k]) for k, _ in e.fields)))
    return out


def shrink(events: Sequence[Event], fails: Callable[[Plan], bool], max_tests: int = 300,
           deadline: Callable[[], bool] | None = None) -> Shrunk:
    """The minimal plan for ``fails`` (which ``events`` must satisfy), by ddmin then simpler numbers."""
    cache: dict[Plan, bool] = {tuple(events): True}

    def test(plan: Plan) -> bool:
        if plan not in cache:
            if len(cache) > max_tests or (deadline is not None and deadline()):
                raise _Budget()
            cache[plan] = bool(fails(plan))
        return cache[plan]

    best: Plan = tuple(events)

    def keep(plan: Plan) -> bool:
        nonlocal best
        if test(plan):
            best = plan
            return True
        return False

    try:
        best = ddmin(best, keep)
        for i in range(len(best)):
            for key, _ in best[i].fields:
                for cand in _candidates(best[i], key):
                    if keep(best[:i] + (cand,) + best[i + 1:]):
                        break
    except _Budget:
        return Shrunk(best, len(cache) - 1, False)
    return Shrunk(best, len(cache) - 1, True)
