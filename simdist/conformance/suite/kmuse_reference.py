"""The TF 2.21 recording ``test_kmuse.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.kmuse_record``): the metrics and TF's observation of each, compared as kenum
compares (error classes, structure, shapes and dtypes exactly; values within 1e-4 relative plus 1e-5 of the largest
finite magnitude). Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from typing import Any

from simdist.conformance.suite import kenum_reference, reference_store

PATH = os.path.join(os.path.dirname(__file__), "kmuse_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.kmuse_record"


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "kmuse", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the program and its tables (a recording made by others is stale)."""
    from simdist.conformance.suite import harden19_training as training  # noqa: PLC0415
    from simdist.conformance.suite import kmuse_cases as cases  # noqa: PLC0415

    text = repr((inspect.getsource(cases.observe), inspect.getsource(cases._pair),
                 sorted(training.METRIC_CASES.items()), training.make_pair("prob", "typical", "x")[0].tolist()))
    return hashlib.sha256(text.encode()).hexdigest()


def differences(got: dict[str, Any], want: dict[str, Any]) -> list[str]:
    """Where observation `got` differs from the recorded `want` (got, but should be)."""
    if "out" not in want or "out" not in got:
        if "out" in got or "out" in want or got.get("call") != want.get("call"):
            return [f"{got}, but should be {want}"]
        return differences({"out": got["before"]}, {"out": want["before"]})
    if len(got["out"]) != len(want["out"]):
        return [f"{len(got['out'])} observations, but should be {len(want['out'])}"]
    out = []
    for i, (g, w) in enumerate(zip(got["out"], want["out"])):
        if "untouched" in w or "untouched" in g:
            if g != w:
                out.append(f"observation {i}: {g}, but should be {w}")
            continue
        out += [d.replace("output 0", f"observation {i}", 1) for d in kenum_reference.differences({"out": [g]},
                                                                                                  {"out": [w]})]
    return out
