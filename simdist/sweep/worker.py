"""What runs inside an executor: a batch of runs of one scenario -> one result row per run.

A row never raises: a run whose simulated training failed has status "failed"; a run that hit
an error in simdist itself has status "error" (with the exception in ``error``), and the sweep
goes on. Rows carry no wall-clock data, so they are identical whichever process computed them.
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["run_batch", "run_one"]

_cache: dict[tuple[str, str, str], Any] = {}


def _base(payload: tuple[str, str, list]) -> Any:
    from simdist.scenario.loader import loads
    text, file, overrides = payload
    key = (text, file, repr(overrides))
    sc = _cache.get(key)
    if sc is None:
        if len(_cache) > 8:
            _cache.clear()
        sc = _cache[key] = loads(text, file, overrides)
    return sc


def run_one(payload: tuple[str, str, list], spec: Any) -> dict[str, Any]:
    """The table row of one run (see `simdist.scenario.table` for the columns)."""
    row: dict[str, Any] = {"run": spec.index, "run_id": spec.run_id, "seed": spec.seed,
                           "params": {p: v for p, v in spec.params}}
    try:
        from simdist.scenario.runner import run
        sc = _base(payload).with_overrides(spec.overrides()) if spec.params else _base(payload)
        res = run(sc, spec.seed)
        m = res.metrics
        row.update(status=m["status"], error=m["error"], digest=m["digest"], metrics=dict(m["summary"]))
    except Exception as e:  # noqa: BLE001 - recorded per run, the sweep continues
        row.update(status="error", error=f"{type(e).__name__}: {e}", digest="", metrics={})
    return row


def run_batch(payload: tuple[str, str, list], specs: Sequence[Any]) -> list[dict[str, Any]]:
    return [run_one(payload, s) for s in specs]
