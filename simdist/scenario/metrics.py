"""metrics.json: what one run produced, its JSON Schema, a validator, and the summary table.

The document (schema id ``simdist.metrics/1``; docs/scenarios.md describes every field) holds
- ``summary``: flat numbers (the columns of sweep tables and what `simdist gate` compares);
- ``steps``, ``coordinator``, ``recovery``: per-strategy detail;
- ``devices``, ``links``: utilisation per device and link;
- ``faults``: the fault windows of the run (for plots);
- ``digest``: sha256 of the canonical JSON of everything else (what `replay` checks).
Nothing in it depends on the wall clock, the machine or the file's location.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

__all__ = ["SCHEMA_ID", "METRICS_SCHEMA", "SUMMARY_METRICS", "validate_metrics", "digest_of", "canonical",
           "summary_table", "training_table", "format_value", "direction"]

SCHEMA_ID = "simdist.metrics/1"

# name -> (unit, better: "lower" | "higher" | "neutral", meaning)
SUMMARY_METRICS: dict[str, tuple[str, str, str]] = {
    "simulated_time_s": ("s", "lower", "simulated time of the whole run"),
    "steps_completed": ("", "higher", "training steps (synchronous) or functions (parameter_server) whose "
                                      "effect is in the final model"),
    "examples_per_s": ("ex/s", "higher", "goodput: examples of completed steps per simulated second"),
    "step_time_mean_s": ("s", "lower", "mean step time (synchronous strategies)"),
    "step_time_p50_s": ("s", "lower", "median step time"),
    "step_time_p95_s": ("s", "lower", "95th percentile step time"),
    "step_time_max_s": ("s", "lower", "slowest step"),
    "compute_fraction": ("", "higher", "share of step time with some device computing"),
    "communication_fraction": ("", "lower", "share of step time only communicating"),
    "idle_fraction": ("", "lower", "share of step time with nothing running"),
    "device_busy_mean": ("", "higher", "mean busy fraction of the devices doing the training compute"),
    "device_busy_min": ("", "higher", "least busy of those devices"),
    "link_busy_max": ("", "neutral", "busy fraction of the busiest link"),
    "bytes_transferred": ("B", "lower", "bytes moved over all links"),
    "peak_memory_bytes": ("B", "lower", "highest peak memory of any device"),
    "checkpoints": ("", "neutral", "checkpoints saved"),
    "checkpoint_time_s": ("s", "lower", "simulated time spent saving and restoring checkpoints"),
    "closures_scheduled": ("", "neutral", "functions scheduled (parameter_server)"),
    "closures_completed": ("", "neutral", "functions that completed (including work later lost to a restore)"),
    "closures_failed": ("", "lower", "functions that failed"),
    "closures_cancelled": ("", "lower", "functions cancelled"),
    "retries": ("", "lower", "functions re-run after a preemption"),
    "preemptions": ("", "neutral", "worker preemptions"),
    "lost_work_s": ("s", "lower", "worker time lost to preempted functions"),
    "worker_downtime_s": ("s", "neutral", "total time workers were down"),
    "ps_bytes": ("B", "lower", "bytes read from and written to the ps tasks"),
    "ps_failures": ("", "neutral", "parameter-server failures"),
    "recoveries": ("", "neutral", "restores from a checkpoint after a ps failure"),
    "redone_closures": ("", "lower", "completed functions lost to a restore and run again"),
    "recovery_time_s": ("s", "lower", "time from a ps failure to training resuming"),
    "restarts": ("", "lower", "multi_worker_mirrored: times the job stopped and was restarted from its last "
                              "checkpoint"),
    "steps_redone": ("", "lower", "multi_worker_mirrored: applied steps a restart rolled back (computed again)"),
    "steps_applied": ("", "neutral", "multi_worker_mirrored: step applications, redone ones included "
                                     "(= steps_completed + steps_redone)"),
    "time_lost_restart_s": ("s", "lower", "multi_worker_mirrored: for each restart, from when the state was last "
                                          "the restored checkpoint's to the end of the restore"),
    "time_checkpointing_s": ("s", "lower", "multi_worker_mirrored: simulated time of the checkpoint saves that "
                                           "completed"),
    "preemption_checkpoints": ("", "neutral", "multi_worker_mirrored: checkpoints saved in a preemption's grace "
                                              "period"),
    "collective_timeouts": ("", "lower", "multi_worker_mirrored: steps whose gradient all-reduce timed out "
                                         "(strategy.timeout_seconds: a replica more than that late) and restarted "
                                         "the job"),
    "restore_mismatches": ("", "lower", "multi_worker_mirrored: restores whose state differs from the saved one "
                                        "(0 unless simdist is wrong)"),
    "final_loss": ("", "lower", "training models: loss of the trained model on the held-out split (last evaluation)"),
    "final_accuracy": ("", "higher", "training models: accuracy of the trained model on the held-out split"),
    "time_to_accuracy_s": ("s", "lower", "training models: simulated time of the first evaluation at or above "
                                         "training.target_accuracy (absent if none reached it)"),
    "time_to_loss_s": ("s", "lower", "training models: simulated time of the first evaluation at or below "
                                     "training.target_loss (absent if none reached it)"),
    "staleness_mean": ("", "lower", "parameter_server training: mean updates committed by other functions between a "
                                    "function's reads and its commit"),
    "staleness_max": ("", "neutral", "parameter_server training: the largest staleness of a function"),
}

_NUM = {"type": "number"}
_NNUM = {"type": "number", "minimum": 0}
_NINT = {"type": "integer", "minimum": 0}
_FRAC = {"type": "number", "minimum": 0, "maximum": 1.000001}

_SERIES = {"type": "array", "items": _NUM}
_NSERIES = {"type": "array", "items": _NNUM}
# training models only (absent for FLOP-only models): what the run learned against simulated time
_TRAINING: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "required": ["model", "parameters", "optimizer", "learning_rate", "batch_size", "eval_every", "data",
                 "target_accuracy", "time_to_accuracy_s", "steps", "evals"],
    "properties": {
        "model": {"type": "string"}, "parameters": _NINT, "optimizer": {"enum": ["sgd", "adam"]},
        "learning_rate": _NNUM, "batch_size": _NINT, "eval_every": _NINT,
        "mixed_precision": {"enum": ["float32", "mixed_float16", "mixed_bfloat16"]},
        "data": {"type": "object", "additionalProperties": False,
                 "required": ["source", "sha256", "train", "test", "classes", "input_shape", "categorical_buckets"],
                 "properties": {"source": {"type": "string"}, "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                                "train": _NINT, "test": _NINT, "classes": _NINT,
                                "input_shape": {"type": "array", "items": _NINT}, "categorical_buckets": _NINT}},
        "target_accuracy": {"type": ["number", "null"]},
        "time_to_accuracy_s": {"type": ["number", "null"]},
        "target_loss": _NNUM,
        "time_to_loss_s": {"type": ["number", "null"]},
        "steps": {"type": "object", "additionalProperties": False, "required": ["step", "time_s", "loss", "accuracy"],
                  "properties": {"step": {"type": "array", "items": _NINT}, "time_s": _NSERIES, "loss": _SERIES,
                                 "accuracy": _NSERIES, "staleness": {"type": "array", "items": _NINT}}},
        "evals": {"type": "object", "additionalProperties": False, "required": ["step", "time_s", "loss", "accuracy"],
                  "properties": {"step": {"type": "array", "items": _NINT}, "time_s": _NSERIES, "loss": _SERIES,
                                 "accuracy": _NSERIES}},
    },
}

METRICS_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://simdist.dev/schemas/metrics-1.json",
    "title": "simdist run metrics (simdist.metrics/1)",
    "type": "object",
    "required": ["schema", "scenario", "seed", "status", "error", "summary", "steps", "coordinator", "recovery",
                 "devices", "links", "collectives", "transfers", "events", "faults", "digest"],
    "additionalProperties": False,
    "properties": {
        "schema": {"const": SCHEMA_ID},
        "scenario": {
            "type": "object", "additionalProperties": False,
            "required": ["name", "digest", "strategy", "overrides", "cost_model", "all_reduce"],
            "properties": {
                "name": {"type": "string"},
                "digest": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                "strategy": {"enum": ["one_device", "mirrored", "central_storage", "parameter_server",
                                              "multi_worker_mirrored"]},
                "overrides": {"type": "object"},
                "cost_model": {"enum": ["flops", "roofline"]},
                "all_reduce": {"type": ["string", "null"]},
            },
        },
        "seed": _NINT,
        "status": {"enum": ["ok", "failed"]},
        "error": {"type": ["string", "null"]},
        "summary": {
            "type": "object",
            "required": ["simulated_time_s", "steps_completed", "examples_per_s", "bytes_transferred",
                         "peak_memory_bytes"],
            "propertyNames": {"enum": sorted(SUMMARY_METRICS)},
            "additionalProperties": _NNUM,
        },
        "steps": {
            "type": ["object", "null"], "additionalProperties": False,
            "required": ["count", "compute_s", "communication_s", "idle_s", "time_s"],
            "properties": {
                "count": _NINT, "compute_s": _NNUM, "communication_s": _NNUM, "idle_s": _NNUM,
                "time_s": {"type": "object", "additionalProperties": False, "required": ["mean", "p50", "p95", "max"],
                           "properties": {"mean": _NNUM, "p50": _NNUM, "p95": _NNUM, "max": _NNUM}},
            },
        },
        "coordinator": {"type": ["object", "null"]},
        "recovery": {
            "type": ["object", "null"], "additionalProperties": False,
            "required": ["recoveries", "redone_closures", "recovery_time_s", "events"],
            "properties": {
                "recoveries": _NINT, "redone_closures": _NINT, "recovery_time_s": _NNUM,
                "events": {"type": "array", "items": {
                    "type": "object", "additionalProperties": False,
                    "required": ["failed_at", "resumed_at", "restored_step", "lost_closures"],
                    "properties": {"failed_at": _NNUM, "resumed_at": _NNUM, "restored_step": _NINT,
                                   "lost_closures": _NINT}}},
            },
        },
        "devices": {"type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": False,
            "required": ["busy_fraction", "busy_s", "kernels", "peak_memory_bytes"],
            "properties": {"busy_fraction": _FRAC, "busy_s": _NNUM, "kernels": _NINT, "peak_memory_bytes": _NINT}}},
        "links": {"type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": False,
            "required": ["busy_fraction", "busy_s", "bytes", "transfers"],
            "properties": {"busy_fraction": _FRAC, "busy_s": _NNUM, "bytes": _NNUM, "transfers": _NINT}}},
        "collectives": {"type": "object", "additionalProperties": _NINT},
        "transfers": {"type": "object", "additionalProperties": False, "required": ["bytes", "count"],
                      "properties": {"bytes": _NNUM, "count": _NINT}},
        "events": _NINT,
        "faults": {"type": "array", "items": {
            "type": "object", "additionalProperties": False, "required": ["kind", "target", "start", "end"],
            "properties": {"kind": {"enum": ["preemption", "straggler", "degraded_link", "ps_failure", "checkpoint",
                                             "restore", "restart"]},
                           "target": {"type": "string"}, "start": _NNUM, "end": _NUM}}},
        "training": _TRAINING,
        "digest": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
    },
}


# --------------------------------------------------------------------------------------------- validator
def _type_ok(v: Any, t: str) -> bool:
    if t == "object":
        return isinstance(v, dict)
    if t == "array":
        return isinstance(v, list)
    if t == "string":
        return isinstance(v, str)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "null":
        return v is None
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    raise AssertionError(t)


def _check(v: Any, s: dict, path: str, out: list[str]) -> None:
    import re
    if "const" in s and v != s["const"]:
        out.append(f"{path}: expected {s['const']!r}, got {v!r}")
        return
    if "enum" in s and v not in s["enum"]:
        out.append(f"{path}: {v!r} is not one of {s['enum']}")
        return
    if "type" in s:
        types = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(_type_ok(v, t) for t in types):
            out.append(f"{path}: expected {' or '.join(types)}, got {type(v).__name__} {v!r:.60}")
            return
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if "minimum" in s and v < s["minimum"]:
            out.append(f"{path}: {v!r} < minimum {s['minimum']}")
        if "maximum" in s and v > s["maximum"]:
            out.append(f"{path}: {v!r} > maximum {s['maximum']}")
    if isinstance(v, str) and "pattern" in s and not re.search(s["pattern"], v):
        out.append(f"{path}: {v!r} does not match {s['pattern']}")
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v:
                out.append(f"{path}: missing required key {k!r}")
        props = s.get("properties", {})
        names = s.get("propertyNames")
        for k, x in v.items():
            if names is not None:
                _check(k, names, f"{path}.{k} (key)", out)
            if k in props:
                _check(x, props[k], f"{path}.{k}", out)
            else:
                ap = s.get("additionalProperties", True)
                if ap is False:
                    out.append(f"{path}: unexpected key {k!r}")
                elif isinstance(ap, dict):
                    _check(x, ap, f"{path}.{k}", out)
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            _check(x, s["items"], f"{path}[{i}]", out)


def validate_metrics(doc: Any) -> list[str]:
    """Problems of a metrics.json document against `METRICS_SCHEMA` (and its digest); [] if valid."""
    out: list[str] = []
    _check(doc, METRICS_SCHEMA, "$", out)
    if not out and digest_of(doc) != doc["digest"]:
        out.append("$.digest: does not match the sha256 of the document's other fields")
    return out


# --------------------------------------------------------------------------------------------- digests
def canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False)


def digest_of(doc: dict) -> str:
    """sha256 of the canonical JSON of ``doc`` without its "digest" key."""
    return hashlib.sha256(canonical({k: v for k, v in doc.items() if k != "digest"}).encode("utf-8")).hexdigest()


def direction(metric: str) -> str:
    return SUMMARY_METRICS.get(metric, ("", "neutral", ""))[1]


# --------------------------------------------------------------------------------------------- display
def format_value(metric: str, v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    unit = SUMMARY_METRICS.get(metric, ("",))[0]
    if unit == "B":
        from simdist.sim.units import format_bytes
        return format_bytes(v)
    if unit == "s":
        from simdist.sim.units import format_time
        return format_time(v) if v else "0 s"
    if metric.endswith("_fraction") or metric.startswith("device_busy") or metric == "link_busy_max" or \
            metric.endswith("_accuracy"):
        return f"{100.0 * v:.1f} %"
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) < 1e15 and unit == ""):
        return f"{int(v):,}"
    text = f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.4g}"
    return text + (f" {unit}" if unit else "")


def training_table(doc: dict, rows: int = 12) -> list[str]:
    """A training run's progress against simulated time: at (up to ``rows``) evaluations, the mean
    loss and accuracy of the training batches since the previous row and the held-out loss and
    accuracy."""
    from simdist.sim.units import format_time
    tr = doc["training"]
    ev, st = tr["evals"], tr["steps"]
    n = len(ev["step"])
    if not n:
        return []
    pick = list(range(n)) if n <= rows else sorted({round(i * (n - 1) / (rows - 1)) for i in range(rows)})
    out = [f"training {tr['model']} ({tr['parameters']:,} parameters) on {tr['data']['source']}: "
           f"{tr['data']['train']:,} training / {tr['data']['test']:,} held-out examples",
           f"  {'time':>12}  {'step':>7}  {'loss':>8}  {'accuracy':>8}  {'test loss':>9}  {'test acc':>8}"]
    j = 0
    for i in pick:
        t = ev["time_s"][i]
        k = j
        while k < len(st["time_s"]) and st["time_s"][k] <= t:
            k += 1
        window = range(j, k) if k > j else range(0)
        loss = sum(st["loss"][q] for q in window) / len(window) if window else None
        acc = sum(st["accuracy"][q] for q in window) / len(window) if window else None
        j = max(j, k)
        tl = "—" if loss is None else f"{loss:8.4f}"
        ta = "—" if acc is None else f"{100 * acc:6.1f} %"
        out.append(f"  {format_time(t) if t else '0 s':>12}  {ev['step'][i]:>7}  {tl:>8}  {ta:>8}  "
                   f"{ev['loss'][i]:9.4f}  {100 * ev['accuracy'][i]:6.1f} %")
    if tr.get("target_accuracy") is not None:
        tta = tr.get("time_to_accuracy_s")
        out.append(f"  target accuracy {100 * tr['target_accuracy']:.1f} %: " +
                   (f"reached at {format_time(tta) if tta else '0 s'}" if tta is not None else "not reached"))
    if tr.get("target_loss") is not None:
        ttl = tr.get("time_to_loss_s")
        out.append(f"  target loss {tr['target_loss']:.4g}: " +
                   (f"reached at {format_time(ttl) if ttl else '0 s'}" if ttl is not None else "not reached"))
    return out


def summary_table(doc: dict) -> str:
    """The table `simdist run` prints: headline metrics, then the busiest devices and links."""
    s = doc["summary"]
    rows = [(k, format_value(k, s[k])) for k in SUMMARY_METRICS if k in s]
    w = max(len(k) for k, _ in rows)
    sc = doc["scenario"]
    timed = f"  cost model {sc['cost_model']}" if sc.get("cost_model") else ""
    if sc.get("all_reduce"):
        timed += f"  all-reduce {sc['all_reduce']}"
    lines = [f"scenario {sc['name']}  strategy {sc['strategy']}  seed {doc['seed']}  status {doc['status']}{timed}"]
    if doc.get("error"):
        lines.append(f"error: {doc['error']}")
    lines.append(f"{'metric':<{w}}  value")
    lines.append(f"{'-' * w}  {'-' * 16}")
    lines += [f"{k:<{w}}  {v}" for k, v in rows]
    if doc.get("training"):
        lines.append("")
        lines += training_table(doc)
    devs = sorted(doc["devices"].items(), key=lambda kv: (-kv[1]["busy_fraction"], kv[0]))[:6]
    links = sorted(((n, d) for n, d in doc["links"].items() if d["bytes"]),
                   key=lambda kv: (-kv[1]["busy_fraction"], kv[0]))[:6]
    if devs:
        lines.append("")
        lines.append("busiest devices                                      busy")
        lines += [f"  {n:<50} {100 * d['busy_fraction']:5.1f} %" for n, d in devs]
    if links:
        lines.append("busiest links                                        busy      bytes")
        from simdist.sim.units import format_bytes
        lines += [f"  {n:<50} {100 * d['busy_fraction']:5.1f} %  {format_bytes(d['bytes'])}" for n, d in links]
    return "\n".join(lines)


if __name__ == "__main__":  # python -m simdist.scenario.metrics > docs/metrics.schema.json
    print(json.dumps(METRICS_SCHEMA, indent=2))
