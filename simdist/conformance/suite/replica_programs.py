"""Recorded programs run once per replica count: one RecordedPrograms file per count (each recorded in its own
process, since TF fixes a process's logical devices once), a program's key `<prefix><count>-<name>`, its keys left open
dropped before recording and comparing, tensors as their bits; and the inputs and observations those sweeps share.
Used by the sweeps that cross replica counts (jsweep60, rsweep61, dsweep63)."""

from __future__ import annotations

import json
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import RecordedPrograms, bits, rng

#: per dtype a magnitude whose sum with 1 rounds back to it (so big + 1 - big is 0, big - big + 1 is 1)
BIG = {"float16": 4096.0, "bfloat16": 512.0, "float32": 1e8, "float64": 2.0 ** 60, "int32": 1e6, "int64": 1e12}


def register(refs: dict[int, RecordedPrograms], prefix: str, left_open: dict[str, tuple[str, ...]], name: str,
             fn: Callable[[Any, Any, int], dict[str, Any]], only: tuple[int, ...] | None = None) -> None:
    """Add `fn(tf, mk, replicas)` to each count's programs (those in `only`, else all) as `<prefix><count>-<name>`."""
    for n, ref in refs.items():
        if only is not None and n not in only:
            continue
        key = f"{prefix}{n}-{name}"

        def run(tf: Any, mk: Any, fn: Any = fn, n: int = n, key: str = key) -> Any:
            out = fn(tf, mk, n)
            for k in left_open.get(key, ()):
                out.pop(k, None)
            return json.loads(json.dumps(out, default=lambda t: ["tensor", bits(t)]))
        ref.add(key, run)


def dev(t: Any) -> str:
    """A result's device, as its last field (job/replica/task prefixes differ by strategy, not by rule)."""
    return "/".join(str(getattr(t, "device", "")).split("/")[-1:])


def order_values(m: int, size: int, dt: str, seed: str) -> np.ndarray:
    """(m, size) values: per element an arrangement of big, 1, -big (and 3, 0.5, -2.25) over the replicas, or plain
    values whose mean by division differs from the product by the reciprocal."""
    r = rng(seed)
    big = BIG[dt]
    pool = np.array([big, 1.0, -big, 3.0, 0.5, -2.25])
    v = pool[r.randint(0, len(pool), (m, size))]
    plain = r.randint(-4000, 4000, (m, size)) / 64.0
    mix = r.randint(0, 3, size)
    out = np.where(mix == 0, plain, v)
    return np.round(out * 4).astype(np.int64) if dt.startswith("int") else out
