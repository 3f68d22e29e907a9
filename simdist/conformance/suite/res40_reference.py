"""The TF 2.21 recording ``test_res40.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.res40_record``). Values within 1e-5 relative plus 1e-6 of the largest
magnitude (harden19_reference.differences); shapes, dtypes and error classes exactly. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from typing import Any

from simdist.conformance.suite import reference_store

PATH = os.path.join(os.path.dirname(__file__), "res40_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.res40_record"


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "res40", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the cases' programs (a recording made from others is stale)."""
    from simdist.conformance.suite import res40_cases  # noqa: PLC0415

    return hashlib.sha256(inspect.getsource(res40_cases).encode()).hexdigest()
