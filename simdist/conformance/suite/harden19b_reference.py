"""The TF 2.21 recording ``test_harden19_{roundtrip,utils,callbacks}.py`` compare with: gzip'd JSON
beside this module, written by ``python -m simdist.conformance.suite.harden19b_record``. Nothing
here imports TensorFlow."""

from __future__ import annotations

import gzip
import json
import os
from typing import Any

PATH = os.path.join(os.path.dirname(__file__), "harden19b_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.harden19b_record"
_CACHE: dict[str, Any] = {}


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (sorted keys, mtime 0: the same data gives the same bytes)."""
    tmp = path + ".part"
    with gzip.GzipFile(tmp, "wb", mtime=0) as raw:
        raw.write(json.dumps(data, sort_keys=True, separators=(",", ":")).encode())
    os.replace(tmp, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    if path not in _CACHE:
        if not os.path.exists(path):
            raise FileNotFoundError(f"no harden19b reference at {path}: record it with `{RECORD_COMMAND}`")
        with gzip.open(path, "rt", encoding="utf-8") as f:
            _CACHE[path] = json.load(f)
    return _CACHE[path]


def tables_hash() -> str:
    """One hash of the three case tables (and the round-trip programs' source)."""
    import hashlib  # noqa: PLC0415

    from simdist.conformance.suite import harden19b_callbacks, harden19b_roundtrip, harden19b_utils  # noqa: PLC0415

    text = "|".join((harden19b_utils.case_tables_hash(), harden19b_callbacks.case_tables_hash(),
                     harden19b_roundtrip.case_tables_hash()))
    return hashlib.sha256(text.encode()).hexdigest()
