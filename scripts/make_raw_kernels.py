"""Record TF 2.21's CPU kernel registrations of its raw ops into simdist/runtime/ops/raw_kernels.json
(clause ops.fuzz-raw).

An OpDef allows dtypes (and attr values) for which TF registers no CPU kernel (MatrixSetDiagV3 of
strings, GatherNd with an unknown bad_indices_policy): eagerly TF's kernel lookup raises
NotFoundError ("Could not find device for node"), a tf.function's run InvalidArgumentError ("No
OpKernel was registered to support Op"). For each raw op: its CPU kernels' attr constraints, one
{attr: [allowed values]} per kernel (type attrs by dtype name, string attrs by value; kernels with a
label, which only a node asking for that label gets, left out). simdist/runtime/ops/raw_rules.py
checks a raw call against them.

Run with real TensorFlow installed: `python scripts/make_raw_kernels.py` (`--check`: exit 1 when the
file is stale).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "simdist" / "runtime" / "ops" / "raw_kernels.json"


def _constraint(c: Any) -> tuple[str, list[str]]:
    from tensorflow.python.framework import dtypes
    types = list(c.allowed_values.list.type)
    if types:
        return c.name, sorted(dtypes.as_dtype(t).name for t in types)
    return c.name, sorted(s.decode() for s in c.allowed_values.list.s)


def _merged(found: list[dict[str, list[str]]]) -> list[dict[str, list[str]]]:
    """The kernels' constraints with those that differ in one attr's values only merged (the same
    set of attr combinations, written shorter), sorted."""
    ks = [dict(f) for f in found]
    changed = True
    while changed:
        changed = False
        for i in range(len(ks)):
            for j in range(i + 1, len(ks)):
                a, b = ks[i], ks[j]
                if a.keys() != b.keys():
                    continue
                diff = [n for n in a if a[n] != b[n]]
                if len(diff) <= 1:
                    if diff:
                        a[diff[0]] = sorted(set(a[diff[0]]) | set(b[diff[0]]))
                    del ks[j]
                    changed = True
                    break
            if changed:
                break
    return sorted(ks, key=lambda k: json.dumps(k, sort_keys=True))


def record() -> dict[str, Any]:
    import tensorflow as tf
    from tensorflow.python.framework import kernels
    out: dict[str, Any] = {}
    for name in sorted(n for n in dir(tf.raw_ops) if not n.startswith("_")):
        found = []
        for k in kernels.get_registered_kernels_for_op(name).kernel:
            if k.device_type not in ("CPU", "DEFAULT") or k.label:   # (a DEFAULT kernel serves every device)
                continue
            found.append(dict(sorted(_constraint(c) for c in k.constraint)))
        out[name] = _merged(found)
    return {"tensorflow": tf.__version__, "kernels": out}


def main() -> int:
    text = json.dumps(record(), sort_keys=True, separators=(",", ":")) + "\n"
    if sys.argv[1:] == ["--check"]:
        return 0 if OUT.exists() and OUT.read_text(encoding="utf-8") == text else 1
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
