"""The TF 2.21 recording ``test_kenum.py`` compares with (gzip'd JSON beside this module, written by
``python -m simdist.conformance.suite.kenum_record``): the plan (each class's documented-value variants, with the
input a layer's default configuration accepts) and TF's observation of every variant.

Comparison (`differences`): kargs_reference's (error classes, structure, shapes and dtypes exactly; values within
1e-4 relative plus 1e-5 of the largest finite magnitude), strings exactly. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from typing import Any

from simdist.conformance.suite import kargs_reference, reference_store

PATH = os.path.join(os.path.dirname(__file__), "kenum_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.kenum_record"


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "kenum", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the rules the plan is derived by and of the programs' inputs (a recording made by others is
    stale)."""
    from simdist.conformance.suite import harden19_training as training  # noqa: PLC0415
    from simdist.conformance.suite import harden20b_tables  # noqa: PLC0415
    from simdist.conformance.suite import kenum_cases as cases  # noqa: PLC0415

    text = repr((cases._QUOTED.pattern, inspect.getsource(cases.reordered_values),
                 inspect.getsource(cases.grid_sequences), harden20b_tables.METRICS, harden20b_tables.LOSSES,
                 cases.NOT_VALUES, cases.SKIP_ARGS, sorted(cases.STRING_LAYERS.items()),
                 sorted(training.LOSS_CASES.items()), sorted(training.METRIC_CASES.items()),
                 cases._weights(4, "x").tolist(), kargs_reference.tables_hash()))
    return hashlib.sha256(text.encode()).hexdigest()


def differences(got: dict[str, Any], want: dict[str, Any]) -> list[str]:
    """Where observation `got` differs from the recorded `want` (got, but should be)."""
    if "out" not in want or "out" not in got:
        return [] if got == want else [f"{got}, but should be {want}"]
    if len(got["out"]) != len(want["out"]):
        return [f"{len(got['out'])} outputs, but should be {len(want['out'])}"]
    out = []
    for i, (g, w) in enumerate(zip(got["out"], want["out"])):
        if "string" in (g["dtype"], w["dtype"]):
            if g != w:
                out.append(f"output {i}: {g['dtype']}{g['shape']} {g['values']}, but should be "
                           f"{w['dtype']}{w['shape']} {w['values']}")
            continue
        out += [d.replace("output 0", f"output {i}", 1)
                for d in kargs_reference.differences({"out": [g]}, {"out": [w]})]
    return out
