"""The TF 2.21 recording ``test_harden19_{roundtrip,utils,callbacks}.py`` compare with: gzip'd JSON
beside this module, written by ``python -m simdist.conformance.suite.harden19b_record``. Nothing
here imports TensorFlow."""

from __future__ import annotations

import os
from typing import Any

from simdist.conformance.suite import reference_store

PATH = os.path.join(os.path.dirname(__file__), "harden19b_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.harden19b_record"

#: Whether the recording's host ran float16 through oneDNN (clause ops.host-cpu). It did not: on an AVX512-FP16 Xeon
#: (oneDNN float16 on), TF 2.21's round-trip values of the two Sequentials holding a mixed_float16 Dense differ from
#: the recording beyond rtol 1e-5 (observed 2026-12-04 on 398942c1 and later: 54 differences, all of `seq` and
#: `seq_frozen`; the other models agree), so those two are compared only on a CPU whose float16 path is the recording's.
RECORDED_ONEDNN_FLOAT16 = False


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
