"""The TF 2.21 recording ``test_kget.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.kget_record``): the plan (each module's public names on TF 2.21) and TF's
observation of every identifier, compared exactly. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from typing import Any

from simdist.conformance.suite import reference_store

PATH = os.path.join(os.path.dirname(__file__), "kget_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.kget_record"


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "kget", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of kget's rules and program (a recording made by others is stale)."""
    from simdist.conformance.suite import kget_cases  # noqa: PLC0415

    return hashlib.sha256(inspect.getsource(kget_cases).encode()).hexdigest()
