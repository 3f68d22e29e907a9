"""The TF 2.21 recording ``test_grad_edges.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.grad_edges_record``): for every op of grad_edges_cases and each of its
dtypes, TF's forward value and gradients on the edge grid, and for every op of grad_edges_axes in float32 and
float64 the same on the edge rows (or the class of the error it raised).

Comparison (`differences`): error classes, None gradients, shapes and the positions of NaN and of each infinity
exactly; finite values within a relative RTOL of the recorded value (signed zeros equal, no absolute floor: a
zero where TF has 1e-30 differs). RTOL is 2e-5 for float32 and complex64, 1e-9 for float64 and complex128,
2e-3 for float16 and 1e-2 for bfloat16 (their ops compute in float32 and round): the special functions' last
bits (SciPy's or the C library's against Eigen's polynomials, the host's reciprocal estimates) stay far below
it, while a gradient rule taken at the wrong side of an edge, a dropped factor or a NaN where TF selects moves
a value by far more. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

import numpy as np

from simdist.conformance.suite import reference_store

PATH = os.path.join(os.path.dirname(__file__), "grad_edges_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.grad_edges_record"
RTOL = {"float32": 2e-5, "float64": 1e-9, "complex64": 2e-5, "complex128": 1e-9, "float16": 2e-3, "bfloat16": 1e-2}


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "grad_edges", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the op table, the edge values and the upstream gradients (a recording of others is stale)."""
    from simdist.conformance.suite import grad_edges_axes as axes  # noqa: PLC0415
    from simdist.conformance.suite import grad_edges_cases as cases  # noqa: PLC0415

    text = repr((axes.OPS, axes.ROWS, cases.HALF_DTYPES, cases.U_ZEROS, cases.U_ZEROS_C, cases.OPS, cases.VALUES,
                 cases.U_FINITE, cases.U_NONFINITE, cases.DTYPES, cases.PARTS, cases.U_FINITE_C,
                 cases.U_NONFINITE_C))
    return hashlib.sha256(text.encode()).hexdigest()


def _where(op: Any, dtype: str, i: int, finite: bool) -> str:
    """The input point of element `i` of an observation (the grid's values at that element)."""
    from simdist.conformance.suite import grad_edges_cases as cases  # noqa: PLC0415

    if dtype.startswith("complex"):
        values: tuple = cases.complex_values(tuple(v for v in cases.PARTS if np.isfinite(v)) if finite else cases.PARTS)
    else:
        values = tuple(v for v in cases.VALUES if np.isfinite(v)) if finite else cases.VALUES
    inputs = cases.grid(op, values)
    if op.kind == "rows":
        return f"row {i // 3} = {inputs[0][i // 3].tolist()}"
    return ", ".join(f"{n}={a[i].item()!r}" for n, a in zip(op.inputs, inputs))


def differences(got: Any, want: Any, op: Any, dtype: str, path: str = "", finite: bool = False,
                locate: Any = None) -> list[str]:
    """Where observation `got` differs from the recorded `want`, each as `path: got ..., but should be ...
    [the input point]` (`locate(i)` names element i's input point; by default the elementwise grid's)."""
    from simdist.conformance.suite import grad_edges_cases as cases  # noqa: PLC0415

    if isinstance(want, dict) and "values" in want:
        if not (isinstance(got, dict) and "values" in got):
            return [f"{path}: {str(got)[:120]}, but should be an array of shape {want['shape']}"]
        g, w = cases.decode(got), cases.decode(want)
        if g.shape != w.shape:
            return [f"{path}: shape {list(g.shape)}, but should be {list(w.shape)}"]
        g, w = g.reshape(-1), w.reshape(-1)
        if w.dtype.kind == "c" or g.dtype.kind == "c":   # (each part on its own, at the element's index)
            g, w = g.astype(np.complex128), w.astype(np.complex128)
            n = w.size
            g, w = np.concatenate([g.real, g.imag]), np.concatenate([w.real, w.imag])
        else:
            n = w.size
        with np.errstate(invalid="ignore"):
            nan_w, nan_g = np.isnan(w), np.isnan(g)
            fin = ~nan_w & ~nan_g & np.isfinite(w) & np.isfinite(g)
            ok = (nan_w & nan_g) | (~nan_w & ~nan_g & ~np.isfinite(w) & (g == w))
            ok |= fin & (np.abs(g - w) <= RTOL[dtype] * np.abs(w))
        bad = np.nonzero(~ok)[0]
        part = (lambda i: "" if w.size == n else (".real" if i < n else ".imag"))
        at = locate or (lambda j: _where(op, dtype, j, finite))
        return [f"{path}{part(i)}: {float(g[i])!r}, but should be {float(w[i])!r} [{at(int(i) % n)}]"
                for i in bad[:3]] + ([f"{path}: ... {bad.size} of {w.size} parts differ"] if bad.size > 3 else [])
    if isinstance(want, dict):
        if not isinstance(got, dict) or sorted(got) != sorted(want):
            return [f"{path or '/'}: {str(got)[:160]}, but should be {str(want)[:160]}"]
        return [d for k in sorted(want)
                for d in differences(got[k], want[k], op, dtype, f"{path}/{k}", finite or k == "finite", locate)]
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return [f"{path}: {str(got)[:160]}, but should be {str(want)[:160]}"]
        return [d for i, (g2, w2) in enumerate(zip(got, want))
                for d in differences(g2, w2, op, dtype, f"{path}[{i}]", finite, locate)]
    if got != want:
        return [f"{path}: {got!r}, but should be {want!r}"]
    return []
