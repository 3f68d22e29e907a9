"""The raw ops TF executes for the public functions simdist implements (clause ops.raw-ops): the
target list of `tf.raw_ops`.

Every program of simdist's TF differential tests runs under real TF 2.21: the per-op test matrix
(tests/ops/specs_*.py, forward and gradient) and the cases of every tests/ops/test_*_tf.py module
that lists CASES (their `fn(tf)`, which call the public functions of tf, tf.math, tf.nn,
tf.linalg, tf.signal, tf.strings, tf.random, tf.image, tf.sparse, tf.io ... that simdist implements).
Each raw op TF executes eagerly is noted, from TF's eager fast path
(pywrap_tfe.TFE_Py_FastPathExecute) and from the generated wrappers' fallback
(execute.execute, the path of the ops whose fast path declines), with its number of calls. Each
source runs in its own TF process (an edge case may abort TF). The counts of the ops that are TF
raw ops go to docs/tools/raw_op_targets.json; the target list is those ops minus the ones
`tf.raw_ops` binds, printed with its count:

    python docs/tools/raw_op_targets.py --record   # run the sources under TF, rewrite the JSON, print
    python docs/tools/raw_op_targets.py --retry    # run again only the sources whose process failed
    python docs/tools/raw_op_targets.py            # print the list from the recorded JSON

docs/tools/raw_op_coverage.py reads the JSON for docs/ops-coverage.md ("Raw ops").
"""

from __future__ import annotations

import collections
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).with_name("raw_op_targets.json")
CHUNK = 8


def _paths() -> None:
    for p in (str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "ops")):
        if p not in sys.path:
            sys.path.insert(0, p)


def _simdist() -> None:
    """simdist's namespaces imported, so that every op is registered (bound_names reads the registry)."""
    _paths()
    import simdist.tf  # noqa: F401


def sources() -> list[str]:
    """"specs" (the per-op matrix) and the differential modules with CASES, in a fixed order."""
    mods = [p.stem for p in sorted((ROOT / "tests" / "ops").glob("test_*_tf.py")) if p.stem != "test_raw_ops_tf"]
    return ["specs"] + mods


def _run_source(source: str, tf: Any, np: Any) -> None:
    if source == "specs":
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
        return
    try:
        m = importlib.import_module(source)
    except Exception:  # noqa: BLE001 - a module that needs what this process lacks
        return
    for case in getattr(m, "CASES", []):
        if not (isinstance(case, tuple) and case and callable(case[-1])):
            continue
        try:
            case[-1](tf)
        except Exception:  # noqa: BLE001, S112 - an error case counts the ops it ran
            continue


def part(names: list[str]) -> dict[str, int]:
    """Run the sources `names` under TF; the calls of each op executed eagerly."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    _paths()
    import numpy as np
    import tensorflow as tf
    from tensorflow.python import pywrap_tfe
    from tensorflow.python.eager import execute
    counts: collections.Counter = collections.Counter()
    fast, slow = pywrap_tfe.TFE_Py_FastPathExecute, execute.execute

    def noted_fast(ctx, op_name, *rest):  # noqa: ANN001, ANN002, ANN202
        counts[op_name] += 1
        return fast(ctx, op_name, *rest)

    def noted_slow(op_name, *rest, **kw):  # noqa: ANN001, ANN002, ANN003, ANN202
        counts[op_name.decode() if isinstance(op_name, bytes) else op_name] += 1
        return slow(op_name, *rest, **kw)

    pywrap_tfe.TFE_Py_FastPathExecute = noted_fast
    execute.execute = noted_slow
    try:
        for s in names:
            _run_source(s, tf, np)
    finally:
        pywrap_tfe.TFE_Py_FastPathExecute, execute.execute = fast, slow
    return dict(counts)


def _run_part(chunk: list[str]) -> dict[str, int] | None:
    try:
        r = subprocess.run([sys.executable, __file__, "--part", ",".join(chunk)], capture_output=True, text=True,
                           errors="replace", timeout=900, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return None
    lines = r.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines and lines[-1].startswith("{") else None


def record(retry: bool = False) -> dict[str, Any]:
    """Every source under TF (CHUNK per process; a chunk whose process fails, each source alone),
    merged; only TF raw ops kept. `retry`: only the sources the JSON lists as failed, added to its counts."""
    _paths()
    from simdist.runtime.ops import raw_ops
    names = set(raw_ops.opdefs()["names"])
    todo = sources()
    total: collections.Counter = collections.Counter()
    if retry:
        old = json.loads(OUT.read_text())
        total.update(old["calls"])
        chunks = [[s] for s in old["failed"]]
    else:
        chunks = [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]
    failed = []
    while chunks:
        chunk = chunks.pop(0)
        got = _run_part(chunk)
        if got is None:
            if len(chunk) > 1:
                chunks[:0] = [[s] for s in chunk]
            else:
                failed += chunk
            continue
        total.update(got)
        print(f"{chunk[0]}..{chunk[-1]}: {len(got)} ops", file=sys.stderr, flush=True)
    data = {"tensorflow": raw_ops.opdefs()["tensorflow"], "sources": todo, "failed": failed,
            "calls": {n: c for n, c in sorted(total.items()) if n in names}}
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    return data


def targets() -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """(the target list's ops bound by `tf.raw_ops`, the ones not), each (op, calls), most called first."""
    _simdist()
    from simdist.runtime.ops import raw_ops
    calls = json.loads(OUT.read_text())["calls"]
    bound = set(raw_ops.bound_names())
    order = sorted(calls.items(), key=lambda kv: (-kv[1], kv[0]))
    return [kv for kv in order if kv[0] in bound], [kv for kv in order if kv[0] not in bound]


def main() -> None:
    if "--part" in sys.argv:
        print(json.dumps(part(sys.argv[sys.argv.index("--part") + 1].split(","))))
        return
    if "--record" in sys.argv or "--retry" in sys.argv:
        record(retry="--retry" in sys.argv)
    _simdist()
    from simdist.runtime.ops import raw_ops
    done, todo = targets()
    unbound = raw_ops.unbound()
    print(f"target list: {len(done) + len(todo)} raw ops executed by TF for the public functions simdist tests; "
          f"bound {len(done)}, missing {len(todo)}")
    for n, c in todo:
        print(f"{n}\t{c}\t{unbound.get(n, 'not registered')}")


if __name__ == "__main__":
    main()
