"""One fault plan -> one result row, in whatever process an executor runs it.

A row never raises. It holds the plan's index and event count, the run's status, error and
metrics digest, its summary metrics, and every invariant it broke; nothing in it depends on
the wall clock (except the wall-time limit, when a run hits it), so the table is the same
whichever executor ran the plans.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from . import invariants as inv
from .limits import LimitExceeded, watch
from .plans import Event, overrides

__all__ = ["Job", "PlanSpec", "run_plan", "run_plans", "fresh_digests"]


@dataclass(frozen=True)
class PlanSpec:
    index: int                       # 0 is the fault-free baseline (no events)
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Job:
    """Everything a worker needs (pickled once per executor task)."""

    text: str
    file: str
    base_overrides: tuple[tuple[str, Any], ...]     # the [quick] pairs, when --quick
    seed: int
    base: dict[str, list[Event]]                    # the file's own [[faults.*]] entries
    base_faults: str
    steps: int
    predicates: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()
    search: tuple[str, ...] = ()                    # where checks are imported from
    baseline: dict[str, Any] = field(default_factory=dict)   # the baseline run's summary
    max_wall_time: float = 60.0
    max_simulated_time: float = float("inf")


_cache: dict[str, Any] = {}


def _base_scenario(job: Job) -> Any:
    from simdist.scenario.loader import loads
    key = repr((job.text, job.file, job.base_overrides))
    sc = _cache.get(key)
    if sc is None:
        _cache.clear()
        sc = _cache[key] = loads(job.text, job.file, list(job.base_overrides))
    return sc


def _checks(job: Job) -> list[tuple[str, Any]]:
    key = repr(("checks", job.checks, job.search))
    fns = _cache.get(key)
    if fns is None:
        fns = _cache[key] = [(ref, inv.load_check(ref, job.search)) for ref in job.checks]
    return fns


def scenario_of(job: Job, spec: PlanSpec) -> Any:
    """The validated scenario of a plan: the base with the plan's overrides (as --param makes them)."""
    pairs = overrides(job.base, job.base_faults, spec.events)
    base = _base_scenario(job)
    return base.with_overrides(pairs) if pairs else base


def run_plan(job: Job, spec: PlanSpec, trace: Any = None, user: bool = True) -> tuple[dict[str, Any], Any]:
    """(row, metrics document or None) of one plan; ``user`` False skips the predicates and checks."""
    from simdist.scenario.runner import run
    row: dict[str, Any] = {"plan": spec.index, "events": len(spec.events), "status": "error", "error": None,
                           "digest": "", "summary": {}, "violations": []}
    found: list[inv.Violation] = []

    def observe(ctx: Any, metrics: dict[str, Any]) -> None:
        acc = inv.accounting(metrics, job.steps)
        if acc:
            found.append(inv.Violation("accounting", inv.first(acc)))
        if ctx.coord is not None:
            rv = inv.remote_values(ctx.coord.closure_report())
            if rv:
                found.append(inv.Violation("remote_values", inv.first(rv)))
        bad = inv.run_error(metrics)
        if bad:
            found.append(inv.Violation("ends", bad))
        if user:
            for ref, fn in _checks(job):
                left = job.max_wall_time - (time.monotonic() - t0)
                v = inv.call_check(ref, fn, metrics, dict(ctx.variables), max(0.05, min(inv.CHECK_TIME_S, left)))
                if v is not None:
                    found.append(v)

    metrics = None
    w = watch(job.max_wall_time, job.max_simulated_time)
    t0 = time.monotonic()
    try:
        sc = scenario_of(job, spec)
        try:
            with w:
                res = run(sc, job.seed, trace=trace, observe=observe)
        except LimitExceeded:
            res = None
        if w.reason is not None or res is None:
            found.append(inv.Violation("ends", w.reason or "stopped by a limit"))
            row.update(status="limit", error=w.reason)
        else:
            metrics = res.metrics
            row.update(status=metrics["status"], error=metrics["error"], digest=metrics["digest"],
                       summary=dict(metrics["summary"]))
            if metrics["summary"]["simulated_time_s"] > job.max_simulated_time:
                found.append(inv.Violation("ends", f"ended at {metrics['summary']['simulated_time_s']:.6g} s, past "
                                                   f"the simulated-time limit of {job.max_simulated_time:.6g} s"))
            if user:
                for text in job.predicates:
                    v = _predicate(text, row["summary"], job.baseline)
                    if v is not None:
                        found.append(v)
    except Exception as e:  # noqa: BLE001 - an error of simdist itself: recorded, the exploration goes on
        found.append(inv.Violation("ends", f"internal error: {type(e).__name__}: {e}"))
        row.update(status="error", error=f"{type(e).__name__}: {e}")
    row["violations"] = [v.as_dict() for v in found]
    return row, metrics


def _predicate(text: str, summary: dict[str, Any], baseline: dict[str, Any]) -> inv.Violation | None:
    from .config import predicates_of
    key = "pred:" + text
    p = _cache.get(key)
    if p is None:
        p = _cache[key] = predicates_of([text])[0]
    ok, shown = p.evaluate(summary, baseline)
    return None if ok else inv.Violation(p.id, shown)


def run_plans(job: Job, specs: Sequence[PlanSpec]) -> list[dict[str, Any]]:
    """An executor task: the rows of a batch of plans."""
    return [run_plan(job, s)[0] for s in specs]


# ---------------------------------------------------------------------------------------------- determinism
def _other_hash_seed() -> str:
    return "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"


def fresh_digests(job: Job, specs: Sequence[PlanSpec]) -> tuple[dict[int, str], str]:
    """Run ``specs`` in one fresh interpreter with another PYTHONHASHSEED: ({plan: digest}, hash seed)."""
    seed = _other_hash_seed()
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = seed
    paths = [p for p in sys.path if p and os.path.isdir(p)]
    env["PYTHONPATH"] = os.pathsep.join([os.getcwd()] + paths)
    proc = subprocess.run([sys.executable, "-c", "from simdist.explore.worker import _fresh_child; _fresh_child()"],
                          input=pickle.dumps((job, list(specs))), capture_output=True, env=env, cwd=os.getcwd())
    if proc.returncode != 0:
        raise RuntimeError(f"the fresh-process re-run (PYTHONHASHSEED={seed}) failed with exit code "
                           f"{proc.returncode}: {proc.stderr.decode('utf-8', 'replace')[-2000:]}")
    out = json.loads(proc.stdout.decode("utf-8").strip().splitlines()[-1])
    return {int(k): v for k, v in out.items()}, seed


def _fresh_child() -> None:
    job, specs = pickle.loads(sys.stdin.buffer.read())
    out = {s.index: run_plan(job, s, user=False)[0]["digest"] for s in specs}
    sys.stdout.write("\n" + json.dumps(out) + "\n")
