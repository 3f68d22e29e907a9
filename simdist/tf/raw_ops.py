"""`tf.raw_ops`: TF's raw ops that simdist computes, by TF's OpDef names (clause ops.raw-ops).

The functions are made on first access (module `__getattr__`), from the signatures recorded in
simdist/runtime/ops/raw_opdefs.json, so the namespace costs `import simdist` nothing. A raw op
simdist does not compute is absent: AttributeError naming it.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    from simdist.runtime.ops import raw_ops
    fn = raw_ops.function(name)
    globals()[name] = fn
    return fn


def __dir__() -> list[str]:
    from simdist.runtime.ops import raw_ops
    return sorted(set(globals()) | set(raw_ops.bound_names()))
