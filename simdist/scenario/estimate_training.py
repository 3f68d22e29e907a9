"""What a training model's run holds in memory, before it runs (`simdist run --dry-run` and the
memory check of `simdist run`): the model's parameters times the copies the strategy keeps, its
activations for a batch, and the data set.

Calibrated on measured runs (peak RSS over the interpreter's, 4-byte floats):
- parameters: the copies are the variables, their gradients and the strategy's own: a wide_deep
  of 18.9M parameters under ParameterServerStrategy with checkpoints took 216 MiB (~3 copies:
  variables, gradients, the checkpoint's values); an MLP of 4.35M parameters mirrored over 4
  GPUs took 177 MiB (~10.6 copies: variables and gradients on each replica, the all-reduce's
  buffers). Adam adds two slots per copy of the variables; SGD none.
- activations: the forward pass's outputs, kept for the backward pass, and their gradients
  (x3), for the largest of a step's batch and the evaluation batch;
- data: the arrays as read, as float32, split, and each input pipeline's slices (x(3 + pipelines)).
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["training_memory", "zoo_parameters"]

FLOAT = 4
ACTIVATION_COPIES = 3
EVAL_BATCH = 512


def _dense(dims: list[int]) -> int:
    return sum(a * b + b for a, b in zip(dims, dims[1:]))


def zoo_parameters(model: dict, x_shape: list[int], classes: int, buckets: int) -> tuple[int, int, int]:
    """(parameters, activation floats per example, multiply-adds per example of the forward pass)
    of a zoo model, from its options and the data's shape."""
    kind = model.get("zoo")
    features = math.prod(x_shape) if x_shape else 1
    hidden = [int(h) for h in (model.get("hidden") or [64])]
    if kind == "mlp":
        dense = _dense([features] + hidden + [classes])
        return dense, features + sum(hidden) + classes, dense
    if kind == "cnn":
        h, w = (x_shape + [1, 1])[:2]
        c = x_shape[2] if len(x_shape) > 2 else 1
        params, acts, macs = 0, h * w * c, 0
        for f in (int(f) for f in (model.get("filters") or [16, 32])):
            params += 9 * c * f + f
            macs += 9 * c * f * h * w
            acts += h * w * f
            h, w, c = -(-h // 2), -(-w // 2), f
            acts += h * w * f
        return params + c * classes + classes, acts + c + classes, macs + c * classes
    if kind == "wide_deep":
        dim = int(model.get("embedding_dim") or 8)
        dense = _dense([features + dim] + hidden + [classes])
        return buckets * dim + dense + buckets * classes, features + 2 * dim + sum(hidden) + 3 * classes, dense
    if kind == "transformer":
        from .train.zoo import transformer_options
        o = transformer_options(model)
        t, d, ff = o["tokens"], o["embedding_dim"], o["ff_dim"]
        kd = max(1, d // o["heads"])
        per_token = features // max(t, 1)
        attn = 3 * (d * o["heads"] * kd + o["heads"] * kd) + o["heads"] * kd * d + d
        block = attn + 2 * 2 * d + (d * ff + ff) + (ff * d + d)
        params = per_token * d + d + t * d + o["blocks"] * block + d * classes + classes
        macs = t * per_token * d + o["blocks"] * (t * (4 * d * o["heads"] * kd + 2 * d * ff)
                                                  + 2 * o["heads"] * t * t * kd) + d * classes
        acts = t * per_token + 2 * t * d + o["blocks"] * (t * (6 * d + ff) + o["heads"] * t * t) + d + classes
        return params, acts, macs
    return 0, 0, 0


def _copies(sc: Any, adam: bool, checkpoints: bool) -> float:
    kind, r = sc.strategy, int(sc.plan["replicas"])
    if kind == "mirrored":
        copies, variable_copies = 2.0 * r + 2, r
    elif kind == "central_storage":
        copies, variable_copies = r + 3.0, 1
    elif kind == "parameter_server":
        copies, variable_copies = 3.0, 1
    else:
        copies, variable_copies = 3.0, 1
    if adam:
        copies += 2 * variable_copies
    if checkpoints:
        copies += 1
    return copies


def training_memory(sc: Any) -> dict[str, int]:
    """{"parameters", "flops", "bytes_moved", "model_bytes", "activation_bytes", "data_bytes"} of a
    validated training scenario (flops and bytes_moved: the NumPy work of the whole run)."""
    cfg, facts = sc.config, sc.plan["training"]
    d, tr = cfg["data"], cfg["training"]
    buckets = int(d.get("categorical_buckets") or 0)
    params, per_example, macs = zoo_parameters(cfg["model"], list(facts["x_shape"]), int(facts["classes"]), buckets)
    if cfg["model"].get("function") is not None:
        params = int((sc.plan.get("model_probe") or {}).get("parameters", 0))
        per_example = math.prod(facts["x_shape"]) + int(facts["classes"])
        macs = params
    copies = _copies(sc, tr.get("optimizer") == "adam", bool(tr.get("checkpoint_every")))
    batch = int(d["batch_size"])
    if sc.strategy == "parameter_server":
        batch = batch // max(1, int(sc.plan["workers"])) * int(sc.plan["workers"])
    pipelines = int(sc.plan["workers"]) if sc.strategy == "parameter_server" else 1
    examples = int(facts["examples"])
    return {"parameters": params,
            # forward, backward (x3), 2 FLOPs a multiply-add, every example of the run's steps
            "flops": int(6 * macs * int(d["batch_size"]) * int(tr["steps"])),
            # Keras's Embedding and the variable reads copy every variable each step (and replica)
            "bytes_moved": int(params * FLOAT * int(tr["steps"]) * max(1, int(sc.plan["replicas"]))),
            "model_bytes": int(params * FLOAT * copies),
            "activation_bytes": int(max(batch, min(EVAL_BATCH, examples)) * per_example * FLOAT * ACTIVATION_COPIES),
            "data_bytes": int(examples * max(1, math.prod(facts["x_shape"])) * FLOAT * (3 + pipelines))}
