"""The TF 2.21 recording ``test_kbase.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.kbase_record``): the plan (each layer's variants) and TF's observation of
every variant, compared as kargs_reference compares (error classes, structure, shapes and dtypes exactly; values
within 1e-4 relative plus 1e-5 of the largest finite magnitude). Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from typing import Any

from simdist.conformance.suite import kargs_reference, reference_store

PATH = os.path.join(os.path.dirname(__file__), "kbase_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.kbase_record"
differences = kargs_reference.differences


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "kbase", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the rules the plan is derived by (BASES, the variants, the inputs; kargs' and kenum's rules):
    a recording made by others is stale."""
    from simdist.conformance.suite import kbase_cases as cases  # noqa: PLC0415
    from simdist.conformance.suite import kenum_reference  # noqa: PLC0415

    text = repr((sorted(cases.BASES.items()), cases.SKIP_ARGS, cases._TYPED.pattern, sorted(cases.TYPED_VALUES.items()),
                 cases.MORE_FLOATS, inspect.getsource(cases.constructor_values),
                 cases.input_array(cases._x(2, 3), 1).tolist(), kargs_reference.tables_hash(), kenum_reference.tables_hash()))
    return hashlib.sha256(text.encode()).hexdigest()
