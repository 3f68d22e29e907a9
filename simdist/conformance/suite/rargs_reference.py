"""The TF 2.21 recording ``test_rargs.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.rargs_record``): the plan (each case: function, arguments, mode) and TF's
observation of every case.

Comparison (observations.differences): error classes, dtypes, shapes and integer samples exactly; float samples
within 1e-5 relative plus 1e-7 absolute (the transforms' libm calls may round differently on another CPU; an
algorithm that draws other numbers is far outside), NaN and infinities exactly. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from simdist.conformance.suite import observations, reference_store

PATH = os.path.join(os.path.dirname(__file__), "rargs_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.rargs_record"
RTOL, ATOL = 1e-5, 1e-7


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "rargs", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the rules the plan is derived by (a recording made by others is stale)."""
    from simdist.conformance.suite import rargs_cases as cases  # noqa: PLC0415

    text = repr((cases.GLOBAL_SEED, cases.COMMON, cases.FUNCS, cases.MODES, cases.ABORTS,
                 {k: f().tolist() for k, f in sorted(cases._IMAGES.items())}))
    return hashlib.sha256(text.encode()).hexdigest()


def differences(got: Any, want: Any) -> list[str]:
    """Where observation `got` differs from the recorded `want` (got, but should be)."""
    return observations.differences(got, want, RTOL, ATOL)
