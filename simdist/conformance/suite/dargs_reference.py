"""The TF 2.21 recording ``test_dargs.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.dargs_record``): the plan (each method's variants) and TF's observation of each,
compared exactly (integer datasets). Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from typing import Any

from simdist.conformance.suite import reference_store

PATH = os.path.join(os.path.dirname(__file__), "dargs_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.dargs_record"


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "dargs", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of dargs' rules and programs (a recording made by others is stale)."""
    from simdist.conformance.suite import dargs_cases  # noqa: PLC0415

    return hashlib.sha256(inspect.getsource(dargs_cases).encode()).hexdigest()
