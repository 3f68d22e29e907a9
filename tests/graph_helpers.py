"""Running a program eagerly and from its recorded graph, and comparing what a user sees
(tests of simdist.runtime.graph and its rewrites)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import simdist
from simdist.runtime import graph
from ps_helpers import coordinator, pss

N = 12


def run(build: Callable[[], tuple[Any, dict[str, Any]]], traced: bool, faults: Any = None,
        n: int = N) -> dict[str, Any]:
    """Build a program on a fresh 2-worker, 2-ps cluster, schedule its function n times, and
    return what a user can observe: variables, results, coordinator metrics, the clock."""
    simdist.reset()
    old = graph.enabled
    graph.enabled = traced
    try:
        strategy = pss(workers=2, ps=2, faults=faults, seed=3 if faults is not None else 0)
        with strategy.scope():
            fn, variables = build()
        coord = coordinator(strategy)
        results = [coord.schedule(fn) for _ in range(n)]
        coord.join()
        return {"vars": {k: v.numpy().copy() for k, v in variables.items()},
                "results": [numpy_of(r.fetch()) for r in results],
                "devices": [devices_of(r._value) for r in results],
                "metrics": coord.metrics(), "now": simdist.now(),
                "explain": graph.explain(fn)}
    finally:
        graph.enabled = old


def devices_of(x: Any) -> Any:
    """Where each result tensor was made (the worker for ops, the ps for a variable's read)."""
    if isinstance(x, dict):
        return {k: devices_of(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [devices_of(v) for v in x]
    return getattr(x, "device", None)


def numpy_of(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: numpy_of(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [numpy_of(v) for v in x]
    return None if x is None else np.asarray(x)


def assert_same(eager: dict[str, Any], replayed: dict[str, Any], what: str) -> None:
    for k, v in eager["vars"].items():
        got = replayed["vars"][k]
        assert got.dtype == v.dtype and got.shape == v.shape and got.tobytes() == v.tobytes(), \
            f"{k}={got.ravel()[:4]}..., but should be {v.ravel()[:4]}... (eager) [{what}]"
    assert repr(replayed["results"]) == repr(eager["results"]), \
        f"results={replayed['results']!r}, but should be {eager['results']!r} (eager) [{what}]"
    assert replayed["devices"] == eager["devices"], \
        f"result devices={replayed['devices']}, but should be {eager['devices']} (eager) [{what}]"
    assert replayed["metrics"] == eager["metrics"], \
        f"metrics={replayed['metrics']}, but should be {eager['metrics']} (eager) [{what}]"
    assert replayed["now"] == eager["now"], f"now={replayed['now']!r}, but should be {eager['now']!r} [{what}]"
