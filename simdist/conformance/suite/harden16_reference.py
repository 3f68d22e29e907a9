"""The TF 2.21 recording ``test_harden16_*.py`` compare with: gzip'd JSON beside this module,
written by ``python -m simdist.conformance.suite.harden16_record``. Nothing here imports TensorFlow."""

from __future__ import annotations

import os
from typing import Any

from simdist.conformance.suite import reference_store

PATH = os.path.join(os.path.dirname(__file__), "harden16_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.harden16_record"


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "harden16", RECORD_COMMAND)
