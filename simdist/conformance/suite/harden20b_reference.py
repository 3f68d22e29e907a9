"""The TF 2.21 recording ``test_harden20b_trained_*.py`` compare with (gzip'd JSON beside this module,
written by ``python -m simdist.conformance.suite.harden20b_record``): harden16's save format and
harden19's comparison (harden19_reference.differences: element-wise within 1e-5 relative plus 1e-6
of the array's largest recorded magnitude; strings, errors, names and lengths exactly). An option
that changes a trained value (a momentum 0.99 vs 0.5, an epsilon 1e-7 vs 1e-2 on gradients ~1, a
clip, a skipped accumulation step) moves it by 1e-3 or more after a step. Nothing here imports TF.
"""

from __future__ import annotations

import hashlib
import os

import numpy as np
from typing import Any

from simdist.conformance.suite import harden16_reference, harden19_reference

PATH = os.path.join(os.path.dirname(__file__), "harden20b_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.harden20b_record"


def compact(value: Any) -> Any:
    """Every float at 9 significant digits (a float32 value's shortest round trip: the same float32,
    a third of the characters), nested structure kept."""
    if isinstance(value, dict):
        return {k: compact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [compact(v) for v in value]
    if isinstance(value, float) and np.isfinite(value):
        return float(f"{value:.9g}")
    return value


def save(data: dict[str, Any], path: str = PATH) -> None:
    """harden16_reference.save of the compacted data."""
    harden16_reference.save(compact(data), path)


def _abs_sum(value: Any) -> float:
    """The sum of the finite magnitudes of a nested observation."""
    a = np.asarray(_numbers(value), np.float64)
    return float(np.sum(np.abs(a[np.isfinite(a)]))) if a.size else 0.0


def _numbers(value: Any) -> list[float]:
    if isinstance(value, list):
        return [x for v in value for x in _numbers(v)]
    return [float(value)] if isinstance(value, (int, float)) and not isinstance(value, bool) else []


def differences(got: Any, want: Any, path: str = "") -> list[str]:
    """harden19_reference.differences, but a step's gradients with the absolute part at least
    ATOL_FRAC of the step's largest gradient (a gradient 0 in exact arithmetic, an attention key
    bias, which the softmax ignores, is float32 noise ~1e-8 of the others, on TF as on simdist),
    and a layer step's loss, sum(output * w), at least RTOL of sum |output| (float32 sums in
    another order; the outputs themselves are compared element by element)."""
    if isinstance(want, dict) and isinstance(got, dict) and "grads" in want and sorted(got) == sorted(want):
        floors = {"grads": harden19_reference.ATOL_FRAC * harden19_reference._max_abs(want["grads"])}
        if "outputs" in want:   # a layer's loss sum(output * w), |w| <= 1: a cancellation of terms ~|output|
            floors["loss"] = harden19_reference.RTOL * _abs_sum(want["outputs"])
        return [d for k in sorted(want) for d in (
            harden19_reference.differences(got[k], want[k], f"{path}/{k}", floor=floors[k]) if k in floors
            else differences(got[k], want[k], f"{path}/{k}"))]
    if isinstance(want, dict) and isinstance(got, dict) and sorted(got) == sorted(want):
        return [d for k in sorted(want) for d in differences(got[k], want[k], f"{path}/{k}")]
    if isinstance(want, list) and isinstance(got, list) and len(got) == len(want) and any(
            isinstance(w, dict) for w in want):
        return [d for i, (g, w) in enumerate(zip(got, want)) for d in differences(g, w, f"{path}[{i}]")]
    return harden19_reference.differences(got, want, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    if not os.path.exists(path):
        raise FileNotFoundError(f"no harden20b reference at {path}: record it with `{RECORD_COMMAND}`")
    return harden16_reference.load(path)


def tables_hash() -> str:
    """The SHA-256 of the case tables and the programs' constants (a recording of others is stale)."""
    from simdist.conformance.suite import harden20b_programs as programs  # noqa: PLC0415
    from simdist.conformance.suite import harden20b_tables as tables  # noqa: PLC0415

    text = repr((tables.all_cases(), tables.STEPS, tables.LAYERS, tables.METRICS, tables.LOSSES, programs.INIT_SEED,
                 programs.LAYER_LR, programs.LOSS_LR, programs.METRIC_UPDATES, programs.MASK.tolist()))
    return hashlib.sha256(text.encode()).hexdigest()
