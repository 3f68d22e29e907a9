"""The TF 2.21 recording ``test_harden20_edges_*.py`` compare with (gzip'd JSON beside this module,
written by ``python -m simdist.conformance.suite.harden20_record``): for every target of
harden20_cases, the constants of TF's source, the edges derived from them, and TF's observation.

Tolerance: harden19_reference's (float arrays within RTOL = 1e-5 of the recorded value plus 1e-6 of the
array's largest magnitude; strings, shapes and lengths exactly). The edges are built so that a changed
constant moves a value by far more: a threshold's ulp either side flips a branch (a value jumps by the
size of the input), and at an epsilon magnitude eps is 10-100% of the quantity it is added to, so an
epsilon moved by 10x changes the output by 5% or more. Each elementwise group and each normalize row
set is compared on its own, so its magnitude sets its own absolute part. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from simdist.conformance.suite import harden19_reference, reference_store

PATH = os.path.join(os.path.dirname(__file__), "harden20_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.harden20_record"
differences = harden19_reference.differences


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "harden20", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the targets and the programs' fixed inputs (a recording made from others is stale)."""
    from simdist.conformance.suite import harden20_cases as cases  # noqa: PLC0415

    text = repr((cases.TARGETS, cases.SPLIT_ROWS, cases.DIRECTION, cases.DOT_SHAPES, cases.TRAINED_SHAPES))
    return hashlib.sha256(text.encode()).hexdigest()
