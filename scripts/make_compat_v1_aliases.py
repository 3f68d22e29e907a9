"""Record which of TF 2.21's tf.compat.v1 names are the very objects of TF2 names into
simdist/tf/compat_v1_aliases.json (clause api.namespaces).

TF exports many functions under both APIs (tf.compat.v1.add is tf.math.add, tf.compat.v1.nn.relu is tf.nn.relu);
for those simdist's tf.compat.v1 gives its own TF2 object. The file maps each v1 namespace ("" for tf.compat.v1
itself, "nn", "math", ...) to {name: [every TF2 path of that object, "tf.math.add", "tf.add", ...]}; names whose v1
object is not a TF2 one (the v1 forms: tf.compat.v1.where, the v1 assertions, placeholders, sessions) are left out
and stay simdist's own or absent. Modules are left out (simdist's v1 sub-namespaces are built by name).

Run with real TensorFlow installed: `python scripts/make_compat_v1_aliases.py` (`--check`: exit 1 when the file is
stale).
"""

from __future__ import annotations

import json
import os
import sys
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "simdist" / "tf" / "compat_v1_aliases.json"
V1_NAMESPACES = ("", "nn", "math", "linalg", "image", "strings", "sparse", "random", "signal", "io", "data", "train",
                 "initializers", "losses", "debugging", "bitwise", "sets", "ragged", "dtypes", "lookup", "errors",
                 "config", "audio", "nest", "quantization", "autograph", "summary", "saved_model", "distribute",
                 "experimental", "feature_column", "graph_util", "mixed_precision", "tpu", "types", "version")
_SKIP_V2 = ("tf.compat", "tf.keras", "tf.raw_ops", "tf.experimental.dtensor")


def _is_module(x: Any) -> bool:
    return isinstance(x, types.ModuleType) or type(x).__name__ in ("_LazyLoader", "KerasLazyLoader")


def _v2_paths(real: Any) -> dict[int, list[str]]:
    """id(object) -> every TF2 path it is reachable by (breadth first, so the shortest come first)."""
    out: dict[int, list[str]] = {}
    todo = [(real, "tf")]
    seen = set()
    while todo:
        mod, path = todo.pop(0)
        if id(mod) in seen:
            continue
        seen.add(id(mod))
        for n in sorted(dir(mod)):
            if n.startswith("_"):
                continue
            try:
                o = getattr(mod, n)
            except Exception:  # noqa: BLE001 - a lazy module that fails to load is no TF2 path
                continue
            p = f"{path}.{n}"
            if _is_module(o):
                if not p.startswith(_SKIP_V2) and p.count(".") < 4:
                    todo.append((o, p))
                continue
            out.setdefault(id(o), []).append(p)
    return out


def record() -> dict[str, Any]:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as real
    paths = _v2_paths(real)
    table: dict[str, dict[str, list[str]]] = {}
    for ns_name in V1_NAMESPACES:
        ns = real.compat.v1
        for part in filter(None, ns_name.split(".")):
            ns = getattr(ns, part, None)
        if ns is None:
            continue
        names = {}
        for n in sorted(dir(ns)):
            if n.startswith("_"):
                continue
            o = getattr(ns, n)
            if _is_module(o) or isinstance(o, (int, float, str, bool)) or o is None:
                continue
            if id(o) in paths:
                names[n] = paths[id(o)]
        table[ns_name] = names
    return {"tensorflow": real.__version__, "namespaces": table}


def main() -> int:
    rec = record()
    text = json.dumps(rec, indent=1, sort_keys=True) + "\n"
    if "--check" in sys.argv:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is stale: re-run scripts/make_compat_v1_aliases.py")
            return 1
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT}: {sum(len(v) for v in rec['namespaces'].values())} aliases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
