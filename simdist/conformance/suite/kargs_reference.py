"""The TF 2.21 recording ``test_kargs.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.kargs_record``): the plan (each layer's variants: its arguments, the input
shape and kind its default configuration accepts on TF) and TF's observation of every variant.

Comparison (`differences`): error classes, output structure, shapes and dtypes exactly; values within 1e-4
relative plus 1e-5 of the output's largest finite magnitude (Keras's float32 layers: summation orders), NaN and
infinities exactly. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

import numpy as np

from simdist.conformance.suite import reference_store

PATH = os.path.join(os.path.dirname(__file__), "kargs_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.kargs_record"
RTOL, ATOL_FRAC = 1e-4, 1e-5


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "kargs", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the rules the plan is derived by (a recording made by others is stale)."""
    from simdist.conformance.suite import kargs_cases as cases  # noqa: PLC0415

    text = repr((sorted(cases.REQUIRED.items()), cases.INPUT_SHAPES, cases.KINDS, cases.SKIP,
                 [cases.variants(d) for d in (0, 1, 5, 0.5, True, "same", (1, 1))],
                 cases.input_array((2, 3), "float32").tolist(), cases.input_array((2, 3), "int32").tolist()))
    return hashlib.sha256(text.encode()).hexdigest()


def _num(vals: list[Any]) -> np.ndarray:
    conv = {"nan": np.nan, "inf": np.inf, "-inf": -np.inf}
    return np.asarray([conv[v] if isinstance(v, str) else v for v in vals], dtype=np.float64)


def differences(got: dict[str, Any], want: dict[str, Any]) -> list[str]:
    """Where observation `got` differs from the recorded `want` (got, but should be)."""
    if "out" not in want or "out" not in got:
        return [] if got == want else [f"{got}, but should be {want}"]
    if len(got["out"]) != len(want["out"]):
        return [f"{len(got['out'])} outputs, but should be {len(want['out'])}"]
    out = []
    for i, (g, w) in enumerate(zip(got["out"], want["out"])):
        if (g["shape"], g["dtype"]) != (w["shape"], w["dtype"]):
            out.append(f"output {i}: shape {g['shape']} {g['dtype']}, but should be {w['shape']} {w['dtype']}")
            continue
        G, W = _num(g["values"]), _num(w["values"])
        fin = np.isfinite(W)
        scale = float(np.max(np.abs(W[fin]))) if fin.any() else 0.0
        with np.errstate(invalid="ignore"):
            ok = (np.isnan(G) & np.isnan(W)) | (G == W) | (np.abs(G - W) <= RTOL * np.abs(W) + ATOL_FRAC * scale)
        if not ok.all():
            j = int(np.nonzero(~ok)[0][0])
            out.append(f"output {i}: {int((~ok).sum())} of {ok.size} values differ, e.g. [{j}] {G[j]!r}, "
                       f"but should be {W[j]!r}")
    return out
