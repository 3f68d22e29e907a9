"""The suite families' TF recordings on disk (harden16, harden19a, harden19b, harden20): gzip'd JSON
beside their modules, written the same way and read once per process. Nothing here imports TensorFlow."""

from __future__ import annotations

import gzip
import json
import os
from typing import Any

_CACHE: dict[str, Any] = {}


def save(data: dict[str, Any], path: str) -> None:
    """Write `data` (sorted keys, mtime 0: the same data gives the same bytes)."""
    tmp = path + ".part"
    with gzip.GzipFile(tmp, "wb", mtime=0) as raw:
        raw.write(json.dumps(data, sort_keys=True, separators=(",", ":")).encode())
    os.replace(tmp, path)


def load(path: str, family: str, record_command: str) -> dict[str, Any]:
    """The recording at `path` (cached); raises FileNotFoundError naming the command that writes it."""
    if path not in _CACHE:
        if not os.path.exists(path):
            raise FileNotFoundError(f"no {family} reference at {path}: record it with `{record_command}`")
        with gzip.open(path, "rt", encoding="utf-8") as f:
            _CACHE[path] = json.load(f)
    return _CACHE[path]
