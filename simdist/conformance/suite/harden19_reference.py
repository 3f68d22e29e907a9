"""The TF 2.21 recording ``test_harden19_defaults_*.py`` compare with (gzip'd JSON beside this module,
written by ``python -m simdist.conformance.suite.harden19_record``), and how they compare.

Tolerance: float arrays element-wise within RTOL = 1e-5 of the recorded value plus ATOL_FRAC = 1e-6
of the array's largest recorded magnitude. float32 arithmetic in another order (another summation
tree, another host's rsqrt/reciprocal kernels) moves a value by a few ulps (~1e-7 relative), and an
entry that is a cancellation of terms of the array's size by ~1e-7 of that size; 1e-5 is 100x that.
A default that moves (an epsilon 1e-6 -> 1e-7 on inputs ~1e-3, a fan_in -> fan_avg, a slope
0.3 -> 0.2) moves values by 1e-3 or more. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

import numpy as np

from simdist.conformance.suite import reference_store

PATH = os.path.join(os.path.dirname(__file__), "harden19_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.harden19_record"
RTOL = 1e-5
ATOL_FRAC = 1e-6
#: Weights Keras initializes with Orthogonal by default (a QR: LAPACK's rounding, within RTOL); every
#: other default initial weight is TF's stateless draw, compared bit for bit.
ORTHOGONAL_WEIGHTS = ("recurrent_kernel",)


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "harden19", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the case tables (a recording made from other tables is stale)."""
    from simdist.conformance.suite import harden19_layers as layers  # noqa: PLC0415
    from simdist.conformance.suite import harden19_training as training  # noqa: PLC0415

    text = repr((sorted(layers.LAYER_CASES.items()), layers.SCALES, sorted(training.LOSS_CASES.items()),
                 sorted(training.METRIC_CASES.items()), training.OPTIMIZERS, sorted(training.SCHEDULES.items()),
                 training.SCHEDULE_STEPS, sorted(training.INITIALIZERS.items()), training.INIT_SEED,
                 training.INIT_SHAPES, training.REGULARIZERS, training.CONSTRAINTS, training.EDGE_PROBS.tolist(),
                 training.FIT_ROWS, layers.INIT_SEED))
    return hashlib.sha256(text.encode()).hexdigest()


def _max_abs(value: Any) -> float:
    """The largest finite magnitude among the numbers of a nested observation (0 if none)."""
    if isinstance(value, dict):
        return max((_max_abs(v) for v in value.values()), default=0.0)
    if isinstance(value, list):
        return max((_max_abs(v) for v in value), default=0.0)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and np.isfinite(value):
        return abs(float(value))
    return 0.0


def call_differences(got: dict[str, Any], want: dict[str, Any], path: str = "") -> list[str]:
    """A layer call's observation compared: outputs as `differences`; its gradients (w.r.t. the
    inputs and every weight) with the absolute part at least ATOL_FRAC of the largest gradient of
    the call — a gradient that is 0 in exact arithmetic (an attention key bias: the softmax ignores
    a constant added to all scores) is float32 noise ~1e-8 of the others, on TF as on simdist."""
    floor = ATOL_FRAC * max(_max_abs(want.get("grad_inputs")), _max_abs(want.get("grad_weights")))
    out = []
    if sorted(got) != sorted(want):
        return [f"{path}: keys {sorted(got)}, but should be {sorted(want)}"]
    for key in sorted(want):
        out += differences(got[key], want[key], f"{path}/{key}", floor=floor if key.startswith("grad_") else 0.0)
    return out


def layer_differences(got: dict[str, Any], want: dict[str, Any]) -> list[str]:
    """A layer's observation (harden19_layers.observe_layer) compared, call by call; its default
    initial weights (after keras.utils.set_random_seed) exactly but for ORTHOGONAL_WEIGHTS."""
    if sorted(got) != sorted(want):
        return [f"/: keys {sorted(got)}, but should be {sorted(want)}"]
    out = []
    for key in sorted(want):
        if "/" in key and isinstance(want[key], dict) and isinstance(got[key], dict):
            out += call_differences(got[key], want[key], f"/{key}")
        elif key == "initial_weights" and isinstance(got[key], list) and len(got[key]) == len(want[key]):
            names = [w[0] for w in want.get("weights", [])] + [""] * len(want[key])
            for i, (g, w) in enumerate(zip(got[key], want[key])):
                exact = {} if names[i] in ORTHOGONAL_WEIGHTS else {"rtol": 0.0, "atol_frac": 0.0}
                out += differences(g, w, f"/{key}[{i}] ({names[i]})", **exact)
        else:
            out += differences(got[key], want[key], f"/{key}")
    return out


def _numeric(value: Any) -> bool:
    while isinstance(value, list) and value:
        value = value[0]
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _array_differences(got: Any, want: Any, path: str, rtol: float, atol_frac: float, floor: float) -> list[str]:
    try:
        g, w = np.asarray(got, np.float64), np.asarray(want, np.float64)
    except (ValueError, TypeError):   # ragged (arrays of several shapes) or holding None: element by element
        if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
            return [d for i, (a, b) in enumerate(zip(got, want))
                    for d in differences(a, b, f"{path}[{i}]", rtol, atol_frac, floor)]
        return [f"{path}: {str(got)[:200]}, but should be {str(want)[:200]}"]
    if g.shape != w.shape:
        return [f"{path}: shape {list(g.shape)}, but should be {list(w.shape)}"]
    finite = np.isfinite(w)
    scale = float(np.max(np.abs(w[finite]))) if finite.any() else 0.0
    atol = max(atol_frac * scale, floor)
    with np.errstate(invalid="ignore"):
        bad = ~((np.abs(g - w) <= rtol * np.abs(w) + atol) | (g == w) | (np.isnan(g) & np.isnan(w)))
    if not bad.any():
        return []
    i = np.unravel_index(int(np.argmax(bad)), w.shape) if w.ndim else ()
    return [f"{path}: {int(bad.sum())} of {w.size} values differ, e.g. [{','.join(map(str, i))}] "
            f"{g[i]!r}, but should be {w[i]!r}"]


def differences(got: Any, want: Any, path: str = "", rtol: float = RTOL, atol_frac: float = ATOL_FRAC,
                floor: float = 0.0) -> list[str]:
    """Where an observation differs from the recorded one: keys, strings, dtypes and lengths exactly,
    numbers and arrays of numbers within the tolerance above (the absolute part at least `floor`);
    each as `path: got ..., but should be ...`."""
    if isinstance(want, dict) and isinstance(got, dict):
        if sorted(got) != sorted(want):
            return [f"{path or '/'}: keys {sorted(got)}, but should be {sorted(want)}"]
        return [d for k in sorted(want) for d in differences(got[k], want[k], f"{path}/{k}", rtol, atol_frac, floor)]
    if _numeric(want) and _numeric(got):
        return _array_differences(got, want, path, rtol, atol_frac, floor)
    if isinstance(want, list) and isinstance(got, list):
        if len(got) != len(want):
            return [f"{path}: length {len(got)} ({str(got)[:200]}), but should be {len(want)} ({str(want)[:200]})"]
        return [d for i, (g, w) in enumerate(zip(got, want))
                for d in differences(g, w, f"{path}[{i}]", rtol, atol_frac, floor)]
    if type(got) is not type(want) or got != want:
        return [f"{path}: {str(got)[:200]}, but should be {str(want)[:200]}"]
    return []
