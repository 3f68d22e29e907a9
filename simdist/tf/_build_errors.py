"""Graph-build errors raised where the op is called (clause function.trace-time-errors).

While TF builds a tf.function's graph, op_def_library's dtype checks (TypeError) and the shape functions
(ValueError) raise from the op's API call itself, inside the Python that is tracing: the function's own
`try`/`except` around the call sees TF's class. simdist runs the Python eagerly, so an op raises its eager error
marked with the class TF raises while it builds (runtime/ops/trace_errors.py); the tf.function converted the mark
only when the error left the function (tf/_function.py `_as_traced`). `wrap` gives each op function of the facade's
namespaces (a function of simdist.runtime.ops) a wrapper that, while a tf.function's Python runs, raises the marked
class with TF's text at the call (`trace_errors.in_body`), keeping the mark so that the function's boundary frames
it as before. Observed on TF 2.21: `tf.math.maximum(4.0, x)` of a bfloat16 argument x inside a tf.function's
`try` is TypeError "Input 'y' of 'Maximum' Op has type bfloat16 that does not match type float32 of argument
'x'." (eagerly it computes in bfloat16); simdist's body saw InvalidArgumentError (fz55: the fz54b generator's seeds
55101 #5, 55106 #0, 55107 #7).
"""

from __future__ import annotations

import types
from typing import Any, Callable

from simdist.runtime.facade_calls import WRAPPED, converting as _converting

__all__ = ["wrap", "wrap_operators"]

_DONE: dict[int, Callable[..., Any]] = {}   # id(op function) -> its wrapper (one per function: `tf.add is tf.math.add`)
_KEEP: list[Callable[..., Any]] = []        # (the wrapped functions, alive while their ids key _DONE)


def _op_function(v: Any) -> bool:
    return type(v) is types.FunctionType and (getattr(v, "__module__", "") or "").startswith("simdist.runtime.ops") \
        and not getattr(v, WRAPPED, False)


def wrap(namespace: dict) -> None:
    """Replace the op functions of a facade namespace (a module's globals) by their converting wrappers."""
    for name, v in list(namespace.items()):
        if name.startswith("_") or not _op_function(v):
            continue
        w = _DONE.get(id(v))
        if w is None:
            w = _DONE[id(v)] = _converting(v)
            _KEEP.append(v)
        namespace[name] = w


_OPERATORS = tuple(f"__{p}{n}__" for n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and",
                                           "or", "xor") for p in ("", "r")) + \
    ("__lt__", "__le__", "__gt__", "__ge__", "__neg__", "__abs__", "__invert__", "__getitem__")


def wrap_operators(cls: type) -> None:
    """The same for a tensor class's Python operators (`a + b` is math_ops.add's op inside TF's graph too)."""
    for name in _OPERATORS:
        v = cls.__dict__.get(name)
        if type(v) is types.FunctionType and not getattr(v, WRAPPED, False):
            setattr(cls, name, _converting(v))
