"""The TF 2.21 recording ``test_harden16_*.py`` compare with: gzip'd JSON beside this module,
written by ``python -m simdist.conformance.suite.harden16_record``. Nothing here imports TensorFlow."""

from __future__ import annotations

import gzip
import json
import os
from typing import Any

PATH = os.path.join(os.path.dirname(__file__), "harden16_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.harden16_record"
_CACHE: dict[str, Any] = {}


def save(data: dict[str, Any], path: str = PATH) -> None:
    tmp = path + ".part"
    with gzip.GzipFile(tmp, "wb", mtime=0) as raw:   # mtime 0: the same data gives the same bytes
        raw.write(json.dumps(data, sort_keys=True, separators=(",", ":")).encode())
    os.replace(tmp, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    if path not in _CACHE:
        if not os.path.exists(path):
            raise FileNotFoundError(f"no harden16 reference at {path}: record it with `{RECORD_COMMAND}`")
        with gzip.open(path, "rt", encoding="utf-8") as f:
            _CACHE[path] = json.load(f)
    return _CACHE[path]
