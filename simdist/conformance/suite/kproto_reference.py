"""The TF 2.21 recording ``test_kproto.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.kproto_record``): the plan (kargs' default configuration of each layer, its
input shape and kind) and TF's answers to kproto_cases' questions.

Comparison (`differences`): every answer exactly (shapes, dtypes, weight names and trainability, error classes).
Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from simdist.conformance.suite import reference_store

PATH = os.path.join(os.path.dirname(__file__), "kproto_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.kproto_record"


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "kproto", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the questions asked (a recording made by others is stale)."""
    from simdist.conformance.suite import kproto_cases as cases  # noqa: PLC0415

    text = repr((cases.SHAPE_EDITS, cases.INPUT_DTYPES, cases.POLICIES,
                 [cases.edit((2, 6, 3), h) for h in cases.SHAPE_EDITS]))
    return hashlib.sha256(text.encode()).hexdigest()


def differences(got: dict[str, Any], want: dict[str, Any]) -> list[str]:
    """Each question whose answer in `got` differs from the recorded `want` (got, but should be)."""
    return [f"{k}: {got.get(k, 'not asked')}, but should be {want.get(k, 'not asked')}"
            for k in sorted(set(got) | set(want)) if got.get(k) != want.get(k)]
