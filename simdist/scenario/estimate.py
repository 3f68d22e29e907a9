"""What a scenario run will cost before it starts (`simdist run --dry-run`): events and peak
memory, from the validated scenario and its cluster, without simulating.

The figures are rough on purpose (the right order of magnitude, to catch a run that will take
hours or not fit in memory), calibrated on measured runs (docs/benchmarks.md):
- synchronous strategies, per step: the kernels and copies of the step, plus the collective's
  events: a chunked all-reduce takes 1 (an 8-GPU host: chunks of a step end together) to 2.5
  events per chunk transfer (bench_sim: 1,309,188 events for 523,264 transfers at 512 GPUs), an
  analytic one a wake-up per phase, and wall time ~2e-6 x n^1.5 s per step over n GPUs (its
  arrays over every rank: 10,000 GPUs 2.1 s a step, 20,000 GPUs 6.0 s);
- parameter server: ~3 events per closure (lockstep rounds share timers: 302,636 events for
  100,000 closures at 1,024 workers) to ~10 (desynchronised workers, faults);
- memory: ~60 MiB of interpreter and libraries, ~1 KB per synchronous step's record, ~4 KiB
  per GPU for an analytic collective's arrays and routes, a training model's parameters,
  activations and data (`estimate_training`), and for a PS job ~1.2 KiB per (worker, ps) pair for its routes and prepared
  transfers and ~0.4 KiB per transfer in flight (10,000 workers x 100 ps: 1.65 GiB measured).
"""

from __future__ import annotations

from typing import Any

__all__ = ["estimate", "EVENTS_PER_CHUNK", "EVENTS_PER_CLOSURE"]

EVENTS_PER_CHUNK = (1.0, 2.5)   # lockstep rings share completion timers (1 x 8 GPUs: ~1), others ~2.5
EVENTS_PER_CLOSURE = (3, 10)
BASE_BYTES = 60 << 20
PER_GPU_BYTES = 4 << 10
PER_PAIR_BYTES = 1200
PER_FLOW_BYTES = 400
PER_CLOSURE_BYTES = 300
PER_STEP_BYTES = 1000          # a synchronous step's record (20,000 steps of a FLOP-only model: +18.4 MiB)
PER_TRAIN_STEP_BYTES = 200     # a training step's loss, accuracy, time (and staleness) in the record
WALL_PER_EVENT_S = 5e-6   # bench_sim: ~4.5 us per event on the project's machine
WALL_PER_FLOW_S = 4e-6    # a pooled PS transfer, start to end
# an analytic all-reduce step over n GPUs (gpu_cluster, 3 steps: 10,000 GPUs 6.2 s, 20,000 GPUs
# 18.1 s of CPU: 2.1e-6 x n^1.5 per step)
WALL_ANALYTIC_N15_S = (1.5e-6, 3e-6)
WALL_PER_TRAIN_STEP_S = (2e-3, 8e-3)   # a training model's step through the facade (digits, Keras models)
NUMPY_FLOPS = 1.5e10       # the facade's NumPy matmuls, one BLAS thread (4.35M-parameter MLP, 20 steps of 256: 9.9 s)
NUMPY_BYTES_PER_S = 2e9    # copies of the variables (reads, Embedding's convert_to_tensor)


def estimate(sc: Any, cluster: Any) -> dict[str, Any]:
    """{"events": (low, high), "memory_bytes": int, "wall_s": (low, high), "collective": str | None,
    "training": None or the training model's parameters and bytes (`estimate_training`), "redo": (low, high)
    steps or functions the listed faults make the run do again, "faults": {kind: count}
    (`estimate_faults`)}."""
    out = _estimate(sc, cluster)
    out["training"] = None
    from .schema import is_training_model
    if is_training_model(sc.config["model"]):   # the values are computed for real: NumPy through the facade
        steps = sc.config["training"]["steps"]
        lo, hi = out["wall_s"]
        out["wall_s"] = (lo + steps * WALL_PER_TRAIN_STEP_S[0], hi + steps * WALL_PER_TRAIN_STEP_S[1])
        from .estimate_training import training_memory
        parts = training_memory(sc)
        out["training"] = parts
        out["memory_bytes"] += parts["model_bytes"] + parts["activation_bytes"] + parts["data_bytes"] + \
            steps * PER_TRAIN_STEP_BYTES
        numpy_s = parts["flops"] / NUMPY_FLOPS + parts["bytes_moved"] / NUMPY_BYTES_PER_S
        lo, hi = out["wall_s"]
        out["wall_s"] = (lo + numpy_s, hi + 2 * numpy_s)
    from .estimate_faults import add_redo, redo
    r = redo(sc)   # the listed faults' redone steps/functions (stragglers and links add none)
    out = add_redo(out, sc, r["steps"])
    out["faults"] = r["faults"]
    return out


def _estimate(sc: Any, cluster: Any) -> dict[str, Any]:
    steps = sc.config["training"]["steps"]
    if sc.strategy == "parameter_server":
        nw, nps = sc.plan["workers"], sc.plan["ps"]
        flows = 2 * nps * steps
        lo, hi = (k * steps for k in EVENTS_PER_CLOSURE)
        mem = BASE_BYTES + nw * nps * (PER_PAIR_BYTES + PER_FLOW_BYTES) + steps * PER_CLOSURE_BYTES
        return {"events": (lo, hi), "memory_bytes": mem, "collective": None,
                "wall_s": (lo * WALL_PER_EVENT_S + flows * WALL_PER_FLOW_S, hi * WALL_PER_EVENT_S + flows * WALL_PER_FLOW_S)}
    from simdist.sim import collectives, plans
    from .runner import _replica_devices
    devs = [cluster.device(d) for d in _replica_devices(sc)]
    n = len(devs)
    per_step = 3 * n + 2   # forward+backward and update kernels, input copies, the input kernel
    if sc.strategy == "central_storage":
        per_step += 2 * n
    per_step_hi = per_step
    what = None
    all_reduces = sc.strategy in ("mirrored", "multi_worker_mirrored")   # (restarts' redone steps: estimate_faults)
    if all_reduces and n > 1 and sc.plan.get("all_reduce", "ring") == "nccl":
        per_step += n + 1   # NCCL's model: a kernel per rank, one wake-up
        per_step_hi += n + 1
        what = "nccl all-reduce (NCCL's tuning model: one kernel per rank, one wake-up per step)"
    elif all_reduces and n > 1:
        algorithm = sc.plan.get("all_reduce", "ring")
        plan = collectives.plan_for("all_reduce", devs, 1.0, algorithm)
        transfers = plans.transfer_count(plan)
        fidelity = sc.config["strategy"].get("collectives") or "auto"
        if fidelity == "auto":
            fidelity = "chunked" if transfers <= collectives.AUTO_CHUNKED_MAX else "analytic"
        if fidelity == "chunked":
            per_step += int(EVENTS_PER_CHUNK[0] * transfers) + n
            per_step_hi += int(EVENTS_PER_CHUNK[1] * transfers) + n
        else:
            per_step += len(plan) + 1
            per_step_hi += len(plan) + 1
        what = f"{algorithm} all-reduce, {fidelity}: {transfers:,} chunk transfers per step" + \
            (" (simulated one by one)" if fidelity == "chunked" else " (computed per phase)")
    lo, hi = per_step * steps, per_step_hi * steps
    mem = BASE_BYTES + PER_GPU_BYTES * len(cluster.devices()) + PER_STEP_BYTES * steps
    scale = 0.0
    if what is not None and "analytic" in what:   # each phase's arrays over every rank: ~n^1.5 per step
        scale = steps * n ** 1.5
    return {"events": (lo, hi), "memory_bytes": mem, "collective": what,
            "wall_s": (lo * WALL_PER_EVENT_S + scale * WALL_ANALYTIC_N15_S[0],
                       hi * WALL_PER_EVENT_S * 2 + scale * WALL_ANALYTIC_N15_S[1])}
