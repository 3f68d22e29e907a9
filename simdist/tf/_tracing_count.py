"""`tf.function(...).experimental_get_tracing_count()`: how many times TF would have traced the
function (docs/spec.md `function.tracing-count`).

TF traces once per distinct call type: the call bound to the Python signature with defaults
filled in, tensors (and NumPy arrays and scalars, which tf.function converts to tensors) by dtype
and shape, Variables by dtype, shape and trainable (two variables of one spec share a trace; distributed
variables likewise, as a kind of their own: a MirroredVariable and a sync-on-read one of one spec
share a trace, a plain variable of that spec does not), Python
literals by value (1, 1.0 and True are one literal), lists and tuples and dicts by their kind and
items, other objects by identity. A call whose trace raises is not counted; with an
input_signature every call shares one trace. simdist keeps the distinct keys of the calls that
returned (or traced, for get_concrete_function) in call order; the count is their number,
whatever simdist itself recorded or ran eagerly.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np


def call_key(fn: Any, signature: Any, args: tuple, kwargs: dict) -> Any:
    """The trace key of a call of `fn` (a function with an input_signature: one key)."""
    if signature is not None:
        return ("signature",)
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
        bound.apply_defaults()
        args, kwargs = bound.args, bound.kwargs
    except (TypeError, ValueError):
        pass
    return (tuple(_key(a) for a in args), tuple((k, _key(kwargs[k])) for k in sorted(kwargs)))


def _key(x: Any) -> Any:
    from simdist.runtime.tensor import Tensor
    from simdist.runtime.variables import ResourceVariable
    if isinstance(x, Tensor):
        return ("tensor", x.dtype.name, tuple(x.shape.as_list()))
    if isinstance(x, ResourceVariable):
        # (TF's VariableSpec: dtype, shape and trainable; observed: a trainable=False variable of one
        # spec takes its own trace)
        return ("variable", x.dtype.name, tuple(x.shape.as_list()), bool(getattr(x, "trainable", True)))
    from simdist.runtime.values import DistributedValues
    from simdist.runtime.variables import Variable
    if isinstance(x, DistributedValues) and isinstance(x, Variable):
        # (TF 2.21: a distributed variable's trace type is its dtype and shape, one kind for mirrored and
        # sync-on-read whatever their aggregation, another than a plain variable's)
        return ("distributed variable", x.dtype.name, tuple(x.shape.as_list()))
    if isinstance(x, (np.ndarray, np.generic)):
        return ("tensor", np.asarray(x).dtype.name, np.shape(x))
    if isinstance(x, (bool, int, float, str, complex)) or x is None:
        return ("literal", x)
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(_key(v) for v in x))
    if isinstance(x, dict):
        return ("dict", tuple((repr(k), _key(x[k])) for k in sorted(x, key=repr)))
    if type(x).__name__ == "TensorSpec":   # (get_concrete_function's specs)
        return ("tensor", x.dtype.name, None if x.shape.rank is None else tuple(x.shape.as_list()))
    if hasattr(x, "dtype") and hasattr(x, "shape"):   # a distributed value or another tensor-like
        return (type(x).__name__, str(x.dtype), str(x.shape), id(x))
    return ("object", id(x))


def note(seen: list[Any], key: Any) -> None:
    """Count `key` if no earlier trace has an equal key (a list: keys compare with ==, which
    makes the literals 1, 1.0 and True one)."""
    if key not in seen:
        seen.append(key)
