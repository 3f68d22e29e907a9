"""The TF 2.21 recording ``test_kfit.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.kfit_record``): the plan (each method's cases: data kind and arguments) and
TF's observation of every case.

Comparison (`differences`): error classes, history keys and epochs, output structure, shapes and dtypes exactly;
values within 1e-4 relative plus 1e-6 absolute (float32 training: summation orders), NaN and infinities exactly.
Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import math
import os
from typing import Any

from simdist.conformance.suite import reference_store

PATH = os.path.join(os.path.dirname(__file__), "kfit_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.kfit_record"
RTOL, ATOL = 1e-4, 1e-6


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "kfit", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the rules the plan is derived by (a recording made by others is stale)."""
    from simdist.conformance.suite import kfit_cases as cases  # noqa: PLC0415

    a = cases.arrays()
    text = repr((cases.DATA, cases.EDGES, cases.PAIRS, [a[k].tolist() for k in sorted(a)],
                 [cases.base_args(m, k) for m, ks in cases.DATA.items() for k in ks]))
    return hashlib.sha256(text.encode()).hexdigest()


def _close(g: float, w: float) -> bool:
    if math.isnan(w) or math.isinf(w):
        return (math.isnan(g) and math.isnan(w)) or g == w
    return abs(g - w) <= RTOL * abs(w) + ATOL


def differences(got: Any, want: Any, where: str = "") -> list[str]:
    """Where observation `got` differs from the recorded `want` (got, but should be)."""
    if isinstance(want, float) and isinstance(got, float):
        return [] if _close(got, want) else [f"{where or 'value'}: {got!r}, but should be {want!r}"]
    if isinstance(want, dict) and isinstance(got, dict):
        if set(got) != set(want):
            return [f"{where or 'result'}: keys {sorted(got)}, but should be {sorted(want)}"]
        out: list[str] = []
        for k in sorted(want):
            out += differences(got[k], want[k], f"{where}.{k}" if where else str(k))
        return out
    if isinstance(want, list) and isinstance(got, list):
        if len(got) != len(want):
            return [f"{where}: {len(got)} entries {got!r:.200}, but should be {len(want)} {want!r:.200}"]
        out = []
        for i, (g, w) in enumerate(zip(got, want)):
            out += differences(g, w, f"{where}[{i}]")
        return out
    return [] if got == want else [f"{where or 'result'}: {got!r:.200}, but should be {want!r:.200}"]
