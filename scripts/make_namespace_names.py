"""Record TF 2.21's public names of every namespace simdist's facade has into
tests/tf_namespace_names.json (clause api.namespaces).

A namespace is a module or SimpleNamespace reachable from `from simdist import tf` by TF names
(tf.io, tf.keras.layers, tf.compat.v1.nn ...); for each one TF 2.21 also has at that path, the file
holds `sorted(n for n in dir(tf.<path>) if not n.startswith("_"))`. tests/test_namespace_names.py
compares the facade with it, without TF.

Run with real TensorFlow installed: `python scripts/make_namespace_names.py` (`--check`: exit 1 when
the file is stale; the test marked `tf` runs that).
"""

from __future__ import annotations

import json
import os
import sys
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "tf_namespace_names.json"
MAX_DEPTH = 4


def is_namespace(x: Any) -> bool:
    """A module (the facade's modules, TF's API modules and lazy loaders) or a SimpleNamespace."""
    return isinstance(x, (types.ModuleType, types.SimpleNamespace))


def public(ns: Any) -> list[str]:
    return sorted(n for n in dir(ns) if not n.startswith("_"))


def record() -> dict[str, Any]:
    """{"tensorflow": version, "namespaces": {"tf.io": [names], ...}} for the facade's namespaces."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as real
    sys.path.insert(0, str(ROOT))
    from simdist import tf as ours
    out: dict[str, list[str]] = {}

    def walk(path: str, s: Any, t: Any, depth: int) -> None:
        names = public(t)
        out[path] = names
        if depth >= MAX_DEPTH:
            return
        for n in names:
            sv = getattr(s, n, None)
            if not is_namespace(sv) or f"{path}.{n}" in out or sv is ours:   # (tf.compat.v2 is tf itself)
                continue
            tv = getattr(t, n, None)
            if is_namespace(tv) or type(tv).__name__ == "KerasLazyLoader":
                walk(f"{path}.{n}", sv, tv, depth + 1)

    walk("tf", ours, real, 0)
    return {"tensorflow": real.__version__, "namespaces": dict(sorted(out.items()))}


def main(argv: list[str]) -> int:
    data = record()
    text = json.dumps(data, indent=0, sort_keys=True) + "\n"
    if argv[1:] == ["--check"]:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is stale: re-run scripts/make_namespace_names.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
