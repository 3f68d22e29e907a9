"""What a scenario's listed faults add to the cost of its run (`estimate`, and through it the
guard rails of `run`, `sweep` and `explore`): the work the run does again.

The simulator's cost is its events, and the events follow the steps (or PS functions) it runs,
not the simulated time they take. So (measured on this machine, CPU seconds of `simdist run
--quick`, the rest of the run the same):
- stragglers and degraded links stretch simulated time only: mirrored_allreduce with replica 0
  4x slower for the whole run, 0.108 s -> 0.413 s simulated, 0.91 -> 0.93 s CPU;
  ps_spot_preemption likewise. They add nothing here.
- a multi_worker_mirrored preemption without a grace period restarts the job from its last
  checkpoint: the steps since then are redone, on average half a checkpoint interval
  (train_mwms_preemption, checkpoint_every 100, 3 preemptions: 149 steps redone, 1.49 -> 1.86 s
  CPU). With a grace period the job saves on notice and redoes nothing (3 preemptions: 0 steps
  redone, 3 checkpoint saves more).
- a parameter_server preemption retries the function in flight on that worker (one function);
  a ps failure under ``recovery.on_ps_failure = "restore_checkpoint"`` redoes the functions since
  the last checkpoint (half an interval on average), under "fail" ends the run early (nothing).
The low end of a fault's redo is its average (a fault at a uniformly random time), the high end
its worst case (just before the next checkpoint; the whole run without checkpoints).
``faults.preemption_process`` is not counted: how many preemptions it draws depends on the run's
simulated time, which the estimate does not know.
"""

from __future__ import annotations

from typing import Any

__all__ = ["event_redo", "redo", "add_redo", "worst_plan"]


def event_redo(sc: Any, kind: str, entry: dict[str, Any] | None = None) -> tuple[float, float]:
    """(average, worst) steps (synchronous) or functions (parameter_server) that one fault of
    ``kind`` (a [[faults.*]] list: preemptions, ps_failures, stragglers, links) makes ``sc``'s run
    do again. ``entry`` (the fault's table) is not needed by any rule today; it is taken so that a
    rule that depends on the fault's own fields has it."""
    tr = sc.config["training"]
    steps = int(tr["steps"])
    every = int(tr.get("checkpoint_every") or 0)
    interval = min(every, steps) if every else steps   # work at risk: since the last checkpoint (or the start)
    if kind == "preemptions":
        if sc.strategy == "parameter_server":
            return (1.0, 1.0)   # the function in flight on the preempted worker is retried elsewhere
        if sc.strategy == "multi_worker_mirrored":
            if float(tr.get("grace_period") or 0.0) > 0:
                return (0.0, 0.0)   # PreemptionCheckpointHandler saves on notice: nothing is redone
            return (interval / 2.0, float(interval))
        return (0.0, 0.0)
    if kind == "ps_failures":
        rec = (sc.config.get("faults") or {}).get("recovery") or {}
        if sc.strategy == "parameter_server" and rec.get("on_ps_failure") == "restore_checkpoint":
            return (interval / 2.0, float(interval))
        return (0.0, 0.0)   # "fail": the run ends early
    return (0.0, 0.0)       # stragglers, links: simulated time only


def redo(sc: Any) -> dict[str, Any]:
    """The redo of every fault ``sc`` lists: {"steps": (low, high), "faults": {kind: count}}."""
    faults = sc.config.get("faults") or {}
    lo = hi = 0.0
    counts: dict[str, int] = {}
    for kind in ("preemptions", "ps_failures", "stragglers", "links"):
        for entry in faults.get(kind) or []:
            a, b = event_redo(sc, kind, entry)
            lo, hi = lo + a, hi + b
            counts[kind] = counts.get(kind, 0) + 1
    return {"steps": (lo, hi), "faults": counts}


def add_redo(e: dict[str, Any], sc: Any, steps_redone: tuple[float, float]) -> dict[str, Any]:
    """The estimate ``e`` of ``sc``'s run with ``steps_redone`` (low, high) more steps or functions
    redone, at the run's own cost per step: events and wall time grow in proportion; memory does
    not (a redone step replaces the one it redoes). Adds to the redo ``e`` already counts."""
    steps = max(int(sc.config["training"]["steps"]), 1)
    before = e.get("redo", (0.0, 0.0))
    total = (before[0] + steps_redone[0], before[1] + steps_redone[1])
    out = dict(e)
    for key in ("events", "wall_s"):   # back to the fault-free figure, then the whole redo on it
        out[key] = tuple(v / (1.0 + b / steps) * (1.0 + r / steps) for v, b, r in zip(e[key], before, total))
    out["redo"] = total
    return out


def worst_plan(sc: Any, rates: dict[str, float], caps: dict[str, int], max_events: int) -> dict[str, Any]:
    """The most work a drawn fault plan can add to ``sc``'s run (`simdist explore`: at most
    ``max_events`` events, at most ``caps[kind]`` of a kind, only kinds whose rate is > 0):
    {"steps": (low, high), "faults": {kind: count}}, the costliest events first."""
    costs = sorted(((event_redo(sc, k), k) for k in rates if rates[k] > 0), reverse=True)
    left = max_events
    lo = hi = 0.0
    counts: dict[str, int] = {}
    for (a, b), kind in costs:
        if left <= 0 or b <= 0:
            break
        n = min(left, caps.get(kind, max_events))
        lo, hi, left = lo + n * a, hi + n * b, left - n
        counts[kind] = n
    return {"steps": (lo, hi), "faults": counts}
