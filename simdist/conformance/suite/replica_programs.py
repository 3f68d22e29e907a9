"""Recorded programs run once per replica count: one RecordedPrograms file per count (each recorded in its own
process, since TF fixes a process's logical devices once), a program's key `<prefix><count>-<name>`, its keys left open
dropped before recording and comparing, tensors as their bits. Shared by the sweeps that cross replica counts
(jsweep60, rsweep61, dsweep63)."""

from __future__ import annotations

import json
from typing import Any, Callable

from simdist.conformance.suite.recorded_programs import RecordedPrograms, bits


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
