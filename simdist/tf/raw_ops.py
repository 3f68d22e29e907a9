"""`tf.raw_ops`: TF's raw ops that simdist computes, by TF's OpDef names (clause ops.raw-ops).

The functions are made on first access (module `__getattr__`), from the signatures recorded in
simdist/runtime/ops/raw_opdefs.json, so the namespace costs `import simdist` nothing. A raw op
simdist does not compute is absent: AttributeError naming it. (The module binds no other public
name: `Any`, `All` ... are raw ops.)
"""

import typing as _typing


def __getattr__(name: str) -> _typing.Any:
    if name.startswith("__"):
        raise AttributeError(name)
    from simdist.runtime.ops import raw_ops as _raw
    fn = _raw.function(name)
    globals()[name] = fn
    return fn


def __dir__() -> list:
    from simdist.runtime.ops import raw_ops as _raw
    return sorted({n for n in globals() if not n.startswith("_")} | set(_raw.bound_names()))
