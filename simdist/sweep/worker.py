"""What runs inside an executor: a batch of runs of one scenario -> one result row per run.

A row never raises: a run whose simulated training failed has status "failed"; a run that hit
an error in simdist itself has status "error" (with the exception in ``error``); a run the guard
rails refused (its estimate over the memory or time limit, `simdist.scenario.guard`) has status
"refused" and is run again when the sweep resumes; the sweep goes on. Rows carry no wall-clock data, so they are identical whichever process computed them.
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["run_batch", "run_one"]

_cache: dict[tuple[str, str, str], Any] = {}


def _base(payload: tuple) -> Any:
    from simdist.scenario.loader import loads
    text, file, overrides = payload[:3]
    key = (text, file, repr(overrides))
    sc = _cache.get(key)
    if sc is None:
        if len(_cache) > 8:
            _cache.clear()
        sc = _cache[key] = loads(text, file, overrides)
    return sc


def run_one(payload: tuple, spec: Any) -> dict[str, Any]:
    """The table row of one run (see `simdist.scenario.table` for the columns). ``payload``:
    (scenario text, file name, base overrides[, guard-rail Limits])."""
    row: dict[str, Any] = {"run": spec.index, "run_id": spec.run_id, "seed": spec.seed,
                           "params": {p: v for p, v in spec.params}}
    try:
        from simdist.scenario.runner import run
        sc = _base(payload).with_overrides(spec.overrides()) if spec.params else _base(payload)
        if len(payload) > 3:
            from simdist.scenario.guard import refusal
            why = refusal(sc, payload[3])
            if why:
                row.update(status="refused", error=why, digest="", metrics={})
                return row
        res = run(sc, spec.seed)
        m = res.metrics
        row.update(status=m["status"], error=m["error"], digest=m["digest"], metrics=dict(m["summary"]))
    except Exception as e:  # noqa: BLE001 - recorded per run, the sweep continues
        row.update(status="error", error=f"{type(e).__name__}: {e}", digest="", metrics={})
    return row


def run_batch(payload: tuple, specs: Sequence[Any]) -> list[dict[str, Any]]:
    return [run_one(payload, s) for s in specs]
