"""The TF 2.21 recording ``test_kopsenum.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.kopsenum_record``): the plan (each variant's base case, option and value) and
TF's observation of each, compared as kops23_reference compares. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from typing import Any

from simdist.conformance.suite import reference_store

PATH = os.path.join(os.path.dirname(__file__), "kopsenum_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.kopsenum_record"


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "kopsenum", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of kops23's table and kopsenum's rule (a recording made from others is stale)."""
    from simdist.conformance.suite import kenum_cases, kops23_cases, kopsenum_cases  # noqa: PLC0415

    text = kops23_cases.table_text() + inspect.getsource(kopsenum_cases) + kenum_cases._QUOTED.pattern
    return hashlib.sha256(text.encode()).hexdigest()
