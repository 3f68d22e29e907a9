"""Run a validated scenario on the simulator and produce its metrics document.

Two engines, chosen by ``strategy.kind``:

- synchronous (one_device, mirrored, central_storage): the runner replays TF's training step
  on the simulator directly (timing only, no NumPy values): input pipeline on the host CPU
  (prefetched one step ahead) and copies to the replicas; forward+backward on every replica;
  then
    mirrored         an all-reduce of the gradients (ring or reduce-to-one) and the update on
                     every replica;
    central_storage  every replica reads the variables from the parameter device, computes,
                     sends its gradients back; the parameter device sums them and applies the
                     update (one_device: the same with one replica and no copies).
  Each step is a ``sim.step`` (its compute/communication/idle breakdown is in the metrics).
  Checkpoints copy the variables (+ optimizer slots) to the host CPU and write them to storage
  at ``training.checkpoint_bandwidth``; training waits.
- parameter_server: the tf.distribute facade in timing-only mode: a ParameterServerStrategy
  with shape-only variables (`extended.placeholder_variable`, partitioned by the scenario's
  partitioner), a ClusterCoordinator, and one `schedule_synthetic` closure per training step
  (reads of every variable, FLOPs of the per-worker batch, writes of the trainable ones;
  embedding tables with ``rows_read_per_example`` move only the expected unique rows). Faults
  run through `simdist.faults.FaultPlan`.
- multi_worker_mirrored: `mwms_run` (FLOP-only models) and `train.mwms` (training models: real
  values, the same MWMS timing), both under `resilience.run_job`'s preemptions, checkpoints and
  restarts.

Recovery from a ps failure (``faults.recovery.on_ps_failure = "restore_checkpoint"``): the
coordinator raises UnavailableError; the runner keeps the same strategy and coordinator,
waits until the failed ps task is back (its ``downtime``) plus ``restart_delay``, restores the
last checkpoint (storage read, then copies to the ps tasks), and schedules again every step
since that checkpoint (the steps completed after it are counted as ``redone_closures``).

Every random draw comes from ``sim.rng(name)`` (root seed + name): "scenario/jitter" for
compute jitter, and the fault plan's own streams.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from .build import build_cluster, cost_model
from .loader import Scenario, loads
from .metrics import SCHEMA_ID, digest_of
from .run_context import (RunFailure, RunResult, Var, _Ctx, _simulation_errors, expand_variables, fault_plan,
                          replica_devices)
from .schema import is_training_model
from .usercode import user_failure

__all__ = ["RunResult", "RunFailure", "run", "run_text", "determinism_probe", "expand_variables", "Var"]

_replica_devices = replica_devices   # (simdist.scenario.estimate)


def run(sc: Scenario, seed: int | None = None, *, trace: Any = None,
        progress: Callable[[int], None] | None = None, detail: Callable[[int], None] | None = None,
        observe: Callable[[Any, dict[str, Any]], None] | None = None) -> RunResult:
    """Run ``sc`` with ``seed`` (default: the scenario's). ``trace``: None, a path or a text file
    object for the Chrome trace. ``progress(n)`` is called as steps complete, ``detail(events)``
    within a long synchronous step (every `simdist.sim.engine.PROGRESS_EVERY` events). Errors of the
    simulated program (out of memory, an unrecovered ps failure, a deadlock) end the run with
    status "failed"; the metrics then describe the run up to the failure. ``observe(ctx,
    metrics)`` is called once the metrics are made, before the simulation is torn down (``ctx``
    has ``coord``, the ClusterCoordinator or None, and ``variables``): for audits such as
    simdist explore's; it must not change anything. A scenario's values are those of TF 2.21's
    kernels on the reference CPU (simdist/runtime/host_cpu.py), whatever machine runs it, so
    that its results are the same on every machine (clause ops.host-cpu)."""
    from simdist.runtime import host_cpu
    with host_cpu.using("reference"):
        return _run(sc, seed, trace=trace, progress=progress, detail=detail, observe=observe)


def _run(sc: Scenario, seed: int | None, *, trace: Any, progress: Callable[[int], None] | None,
         detail: Callable[[int], None] | None, observe: Callable[[Any, dict[str, Any]], None] | None) -> RunResult:
    import simdist
    from simdist import session

    seed = sc.seed if seed is None else int(seed)
    ctx = _Ctx(sc, seed, progress, detail)
    status, error = "ok", None
    try:
        try:
            training = is_training_model(sc.config["model"])
            if sc.strategy == "parameter_server":
                if training:
                    from .train.ps import run_ps_training
                    run_ps_training(ctx, trace)
                else:
                    from .ps_run import run_ps
                    run_ps(ctx, trace)
            else:
                cluster = build_cluster(sc)
                simdist.configure(cluster=cluster, seed=seed, trace=trace, faults=fault_plan(sc, replica_devices(sc)),
                                  collectives=sc.config["strategy"].get("collectives") or "auto",
                                  cost_model=cost_model(sc))
                ctx.sim = session.simulator()
                if sc.strategy == "multi_worker_mirrored" and training:
                    from .train.mwms import run_mwms_training
                    run_mwms_training(ctx)
                elif sc.strategy == "multi_worker_mirrored":
                    from .mwms_run import run_mwms
                    run_mwms(ctx)
                elif training:
                    from .train.sync import run_sync_training
                    run_sync_training(ctx)
                else:
                    from .sync_run import run_sync
                    run_sync(ctx)
        except _simulation_errors() as e:
            status, error = "failed", f"{type(e).__name__}: {e}"
            if ctx.sim is None:
                raise
        except (Exception, SystemExit) as e:   # user code (the model's layers) failing during the run
            failure = user_failure(e)
            if failure is None:
                raise
            if ctx.sim is None:
                raise failure from None
            status, error = "failed", f"{type(failure).__name__}: {failure}"
        metrics = _assemble(ctx, status, error)
        if observe is not None:
            observe(ctx, metrics)
    finally:
        if ctx.sim is not None:
            ctx.sim.close()
        simdist.reset()
    return RunResult(metrics)


def run_text(text: str, file: str, overrides: list, seed: int | None, trace: Any = None) -> RunResult:
    return run(loads(text, file, overrides), seed, trace=trace)


def determinism_probe(text: str, file: str, overrides: list, seed: int) -> bytes:
    """What --check-determinism compares: the metrics document and the trace, as bytes
    (module-level so that check_determinism can rerun it in a fresh interpreter)."""
    import io
    buf = io.StringIO()
    res = run(loads(text, file, overrides), seed, trace=buf)
    from .metrics import canonical
    return canonical(res.metrics).encode("utf-8") + b"\n--trace--\n" + buf.getvalue().encode("utf-8")


# ------------------------------------------------------------------------------------------ metrics
def _quantile(sorted_xs: list[float], q: float) -> float:
    if not sorted_xs:
        return 0.0
    pos = q * (len(sorted_xs) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def _assemble(ctx: _Ctx, status: str, error: str | None) -> dict[str, Any]:
    sc, sim = ctx.sc, ctx.sim
    sm = sim.metrics()
    now = sm["simulated_time_s"]
    parts = ctx.parts
    summary: dict[str, Any] = {"simulated_time_s": now}
    completed = int(parts.get("completed", 0))
    if status != "ok" and sc.strategy not in ("parameter_server", "multi_worker_mirrored"):
        completed = len(sm["steps"])
    summary["steps_completed"] = completed
    summary["examples_per_s"] = completed * parts.get("examples_per_step", 0) / now if now > 0 else 0.0
    steps_doc = None
    if sc.strategy != "parameter_server":
        steps = sm["steps"]
        times = sorted(s["end"] - s["start"] for s in steps)
        comp = sum(s["compute_s"] for s in steps)
        comm = sum(s["communication_s"] for s in steps)
        idle = sum(s["idle_s"] for s in steps)
        total = sum(times)
        steps_doc = {"count": len(steps), "compute_s": comp, "communication_s": comm, "idle_s": idle,
                     "time_s": {"mean": total / len(times) if times else 0.0, "p50": _quantile(times, 0.5),
                                "p95": _quantile(times, 0.95), "max": times[-1] if times else 0.0}}
        summary.update({"step_time_mean_s": steps_doc["time_s"]["mean"], "step_time_p50_s": steps_doc["time_s"]["p50"],
                        "step_time_p95_s": steps_doc["time_s"]["p95"], "step_time_max_s": steps_doc["time_s"]["max"],
                        "compute_fraction": comp / total if total else 0.0,
                        "communication_fraction": comm / total if total else 0.0,
                        "idle_fraction": idle / total if total else 0.0})
    devices = {name: {"busy_fraction": d["busy_fraction"], "busy_s": d["busy_s"], "kernels": d["kernels"],
                      "peak_memory_bytes": sm["memory"][name]["peak_bytes"]} for name, d in sm["devices"].items()}
    compute = parts.get("compute_devices") or []
    busy = [devices[d]["busy_fraction"] for d in compute if d in devices]
    summary["device_busy_mean"] = sum(busy) / len(busy) if busy else 0.0
    summary["device_busy_min"] = min(busy) if busy else 0.0
    links = {name: {"busy_fraction": ln["busy_fraction"], "busy_s": ln["busy_s"], "bytes": ln["bytes"],
                    "transfers": ln["transfers"]} for name, ln in sm["links"].items()}
    summary["link_busy_max"] = max((ln["busy_fraction"] for ln in links.values()), default=0.0)
    summary["bytes_transferred"] = sm["transfers"]["bytes"]
    summary["peak_memory_bytes"] = max((d["peak_memory_bytes"] for d in devices.values()), default=0)
    summary.update(parts["summary"])
    if ctx.training is not None:
        summary.update(ctx.training.summary())
    cm = ctx.coord.metrics() if ctx.coord is not None else None
    if cm is not None:
        summary.update({"closures_scheduled": cm["closures"]["scheduled"],
                        "closures_completed": cm["closures"]["completed"],
                        "closures_failed": cm["closures"]["failed"],
                        "closures_cancelled": cm["closures"]["cancelled"],
                        "retries": cm["retries"], "preemptions": cm["preemptions"], "lost_work_s": cm["lost_work_s"],
                        "worker_downtime_s": cm["worker_downtime_s"], "ps_bytes": cm["ps_bytes"],
                        "ps_failures": cm["ps_failures"]})
    rec = parts.get("recovery")
    if rec is not None:
        summary.update({"recoveries": rec["recoveries"], "redone_closures": rec["redone_closures"],
                        "recovery_time_s": rec["recovery_time_s"]})
    for k, v in list(summary.items()):
        if isinstance(v, float) and v.is_integer() and k in ("steps_completed", "checkpoints"):
            summary[k] = int(v)
    windows = list(ctx.faults)
    if ctx.coord is not None:   # worker downtime, as the coordinator reports it
        windows += [{"kind": "preemption", "target": e["task"], "start": e["start"],
                     "end": e["end"] if e["end"] is not None else -1.0}
                    for e in ctx.coord.fault_events() if e["kind"] == "preemption"]
    faults = []
    for f in sorted(windows, key=lambda f: (f["start"], f["kind"], f["target"])):
        end = f["end"] if f["end"] >= 0 else now
        faults.append({"kind": f["kind"], "target": f["target"], "start": f["start"], "end": max(end, f["start"])})
    doc = {
        "schema": SCHEMA_ID,
        "scenario": {"name": sc.name, "digest": sc.digest, "strategy": sc.strategy,
                     "overrides": {p: v for p, v in sc.overrides}, "cost_model": cost_model(sc),
                     "all_reduce": sc.plan.get("all_reduce") if sc.strategy in ("mirrored", "multi_worker_mirrored")
                     else None},
        "seed": ctx.seed,
        "status": status,
        "error": error,
        "summary": {k: summary[k] for k in sorted(summary)},
        "steps": steps_doc,
        "coordinator": cm,
        "recovery": rec,
        "devices": devices,
        "links": links,
        "collectives": sm["collectives"],
        "transfers": sm["transfers"],
        "events": sm["events"],
        "faults": faults,
    }
    if ctx.training is not None:
        doc["training"] = ctx.training.doc()
    doc["digest"] = digest_of(doc)
    return doc
