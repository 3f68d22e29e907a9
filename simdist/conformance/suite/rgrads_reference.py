"""The TF 2.21 recording ``test_rgrads.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.rgrads_record``): the plan (each case concrete: raw op, inputs, attributes,
watched inputs, upstream gradients; and its mode) and TF's observation of every case.

Comparison (observations.differences): error classes, dtypes, shapes and integers exactly; floats within 1e-5
relative plus 1e-6 absolute (a kernel's summation order or libm may round differently; a wrong rule is far outside),
NaN and infinities exactly. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from simdist.conformance.suite import observations, reference_store

PATH = os.path.join(os.path.dirname(__file__), "rgrads_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.rgrads_record"
RTOL, ATOL = 1e-5, 1e-6


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "rgrads", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the planner's parameters (a recording made with others is stale)."""
    from simdist.conformance.suite import rgrads_cases as cases  # noqa: PLC0415
    from simdist.conformance.suite import rgrads_record as record  # noqa: PLC0415

    text = repr((record.SEED, record.VERSION, record.PER_OP, record.ATTEMPTS, record.KINDS, sorted(record._AXES),
                 sorted(record.SKIP), record._STRINGS,
                 sorted(record._SIZES), sorted(record._BLOCKS), sorted(record._PADS), cases.MODES))
    return hashlib.sha256(text.encode()).hexdigest()


def differences(got: Any, want: Any) -> list[str]:
    """Where observation `got` differs from the recorded `want` (got, but should be)."""
    return observations.differences(got, want, RTOL, ATOL)
