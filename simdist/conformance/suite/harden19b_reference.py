"""The TF 2.21 recording ``test_harden19_{roundtrip,utils,callbacks}.py`` compare with: gzip'd JSON
beside this module, written by ``python -m simdist.conformance.suite.harden19b_record``. Nothing
here imports TensorFlow."""

from __future__ import annotations

import os
from typing import Any

from simdist.conformance.suite import reference_store

PATH = os.path.join(os.path.dirname(__file__), "harden19b_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.harden19b_record"


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "harden19b", RECORD_COMMAND)


def tables_hash() -> str:
    """One hash of the three case tables (and the round-trip programs' source)."""
    import hashlib  # noqa: PLC0415

    from simdist.conformance.suite import harden19b_callbacks, harden19b_roundtrip, harden19b_utils  # noqa: PLC0415

    text = "|".join((harden19b_utils.case_tables_hash(), harden19b_callbacks.case_tables_hash(),
                     harden19b_roundtrip.case_tables_hash()))
    return hashlib.sha256(text.encode()).hexdigest()
