"""The TF 2.21 recording ``test_kreuse.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.kreuse_record``): each case's observation on real TF 2.21 + Keras 3.15.
Compared exactly (harden16_observe.differences with no tolerance: the scripted loss makes every value exact).
Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from typing import Any

from simdist.conformance.suite import reference_store

PATH = os.path.join(os.path.dirname(__file__), "kreuse_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.kreuse_record"


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "kreuse", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of harden19b's case table and kreuse's program (a recording made from others is stale)."""
    from simdist.conformance.suite import harden19b_callbacks, kreuse_cases  # noqa: PLC0415

    text = harden19b_callbacks.case_tables_hash() + inspect.getsource(kreuse_cases)
    return hashlib.sha256(text.encode()).hexdigest()
