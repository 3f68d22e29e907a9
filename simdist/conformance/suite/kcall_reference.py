"""The TF 2.21 recording ``test_kcall.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.kcall_record``): the plan (each layer's call-argument variants, with the input
its default configuration accepts) and TF's observation of every variant.

Comparison (`differences`): kargs_reference's for the outputs (error classes, structure, shapes and dtypes exactly;
values within 1e-4 relative plus 1e-5 of the largest finite magnitude); compute_mask's answer exactly. Nothing here
imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from typing import Any

from simdist.conformance.suite import kargs_reference, reference_store

PATH = os.path.join(os.path.dirname(__file__), "kcall_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.kcall_record"


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "kcall", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the rules the plan is derived by and of the inputs (a recording made by others is stale)."""
    from simdist.conformance.suite import kcall_cases as cases  # noqa: PLC0415

    text = repr((inspect.getsource(cases.call_variants), inspect.getsource(cases.observe),
                 sorted(cases.ATTENTION.items()), cases.QUERY, cases.VALUE, cases.MASKS,
                 cases.mask_for("mask", "single", (2, 6, 3)).tolist(),
                 cases.mask_for("attention_mask", "attention", cases.QUERY).tolist(), kargs_reference.tables_hash()))
    return hashlib.sha256(text.encode()).hexdigest()


def differences(got: dict[str, Any], want: dict[str, Any]) -> list[str]:
    """Where observation `got` differs from the recorded `want` (got, but should be)."""
    extra = ("mask", "compute_mask")
    out = kargs_reference.differences({k: v for k, v in got.items() if k not in extra},
                                      {k: v for k, v in want.items() if k not in extra})
    for k in extra:
        if got.get(k) != want.get(k):
            out.append(f"{k} {got.get(k)}, but should be {want.get(k)}")
    return out
