"""The raw-op coverage of docs/ops-coverage.md (clause ops.raw-ops): how many of TF 2.21's raw ops
`tf.raw_ops` of simdist's facade has, and the raw ops TF executes most often while the per-op test
matrix (tests/ops/specs_*.py) runs its public functions that simdist's namespace lacks (TF builds
those functions from these raw ops; simdist computes them as compositions or with ops of its own
names), each with the number of calls:

    python docs/tools/raw_op_coverage.py            # print the Markdown section
    python docs/tools/raw_op_coverage.py --write    # rewrite it in docs/ops-coverage.md

Needs real TensorFlow (the `tf` extra).
"""

from __future__ import annotations

import collections
import importlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ops-coverage.md"
BEGIN, END = "<!-- raw-ops -->", "<!-- /raw-ops -->"
TOP = 40


def executed() -> collections.Counter:
    """Raw ops TF executes (eager fast path) for the spec matrix's forward and gradient runs."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf
    from tensorflow.python import pywrap_tfe
    sys.path[:0] = [str(ROOT / "tests" / "ops"), str(ROOT / "tests")]
    counts: collections.Counter = collections.Counter()
    original = pywrap_tfe.TFE_Py_FastPathExecute

    def noted(ctx, op_name, *rest):  # noqa: ANN001, ANN002, ANN202
        counts[op_name] += 1
        return original(ctx, op_name, *rest)

    pywrap_tfe.TFE_Py_FastPathExecute = noted
    try:
        for p in sorted((ROOT / "tests" / "ops").glob("specs_*.py")):
            for spec in getattr(importlib.import_module(p.stem), "SPECS", []):
                try:
                    args = [tf.constant(x) for x in spec.make(np.random.default_rng(0),
                                                              spec.dtypes[0] if spec.dtypes else np.float32)]
                    with tf.GradientTape(persistent=True) as tape:
                        for i in spec.diff:
                            if i < len(args) and args[i].dtype.is_floating:
                                tape.watch(args[i])
                        out = spec.fn(tf, *args)
                    if spec.grad and spec.diff:
                        tape.gradient(out, [args[i] for i in spec.diff if i < len(args)])
                except Exception:  # noqa: BLE001, S112 - a spec TF refuses counts what it ran
                    continue
    finally:
        pywrap_tfe.TFE_Py_FastPathExecute = original
    return counts


def section() -> str:
    sys.path.insert(0, str(ROOT))
    from simdist.runtime.ops import raw_ops
    import simdist.tf  # noqa: F401
    data = raw_ops.opdefs()
    bound = set(raw_ops.bound_names())
    counts = executed()
    lacking = [(n, c) for n, c in counts.most_common() if n not in bound and n in set(data["names"])]
    unbound = raw_ops.unbound()
    lines = [BEGIN, "", f"`tf.raw_ops` has **{len(bound)} of {data['count']:,}** raw ops of TF {data['tensorflow']}. "
             f"Registered ops without a raw form: {len(unbound)} (`raw_ops.unbound()` says why).", "",
             f"The raw ops TF executes most while the per-op test matrix runs (calls), that simdist's "
             f"namespace lacks (top {TOP}):", "", "| Raw op | Calls | simdist |", "|---|---|---|"]
    for n, c in lacking[:TOP]:
        why = unbound.get(n, "not registered (a composition of other ops, or not implemented)")
        lines.append(f"| `{n}` | {c} | {why} |")
    lines += ["", END]
    return "\n".join(lines)


def main() -> None:
    text = section()
    if "--write" not in sys.argv:
        print(text)
        return
    doc = DOC.read_text()
    if BEGIN in doc:
        head, rest = doc.split(BEGIN, 1)
        doc = head + text + rest.split(END, 1)[1]
    else:
        doc = doc.rstrip("\n") + "\n\n## Raw ops (`tf.raw_ops`, clause `ops.raw-ops`)\n\n" \
            "Computed by `python docs/tools/raw_op_coverage.py --write` against the installed TF 2.21.\n\n" + text + "\n"
    DOC.write_text(doc)


if __name__ == "__main__":
    main()
