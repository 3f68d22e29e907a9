"""The TF 2.21 recording ``test_kfit.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.kfit_record``): the plan (each method's cases: data kind and arguments) and
TF's observation of every case.

Comparison (`differences`): error classes, history keys and epochs, output structure, shapes and dtypes exactly;
values within 1e-4 relative plus 1e-6 absolute (float32 training: summation orders), NaN and infinities exactly.
Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from simdist.conformance.suite import observations, reference_store

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


def differences(got: Any, want: Any, where: str = "") -> list[str]:
    """Where observation `got` differs from the recorded `want` (got, but should be; observations.differences at
    RTOL/ATOL)."""
    return observations.differences(got, want, RTOL, ATOL, where)
