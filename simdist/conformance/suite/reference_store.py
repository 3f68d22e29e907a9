"""The suite families' TF recordings on disk (harden16, harden19a, harden19b, harden20, kargs, kproto, kfit ...):
gzip'd JSON beside their modules, written the same way and read once per process, and the recorders' shared
steps (`record`: real TF set up, the meta, the save). Nothing here imports TensorFlow but `reference_tf`."""

from __future__ import annotations

import gzip
import json
import os
from typing import Any, Callable

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


def reference_tf(tables_hash: str) -> tuple[Any, dict[str, Any]]:
    """For a recorder (needs ``tensorflow``): real TF 2.21 set up as the suite's TF backend sets it up, and the
    recording's meta (TF's and Keras's releases, the family's `tables_hash`)."""
    from simdist.conformance.backends.tf_backend import TensorFlowBackend  # noqa: PLC0415

    backend = TensorFlowBackend()
    backend.setup()
    import keras  # noqa: PLC0415

    return backend.tf, {"tensorflow": backend.tf.__version__, "keras": keras.__version__, "tables": tables_hash}


def record(save_to: Callable[[dict[str, Any]], None], tables_hash: str,
           observe: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
    """Run a recorder: `observe(tf)` on real TF (its plan, observations and what it left out), saved with the meta
    by `save_to`; returns the data."""
    tf, meta = reference_tf(tables_hash)
    data = {"meta": meta, **observe(tf)}
    save_to(data)
    return data
