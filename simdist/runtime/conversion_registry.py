"""TF 2.21's tensor conversion registry (framework/tensor_conversion_registry.py; names44, clause ops.conversion):
tf.register_tensor_conversion_function and the `__tf_tensor__` protocol, consulted by convert_to_tensor for a value
that is no tensor or variable.

A registration (base_type, conversion_func, priority=100) is refused with TF's TypeErrors (not a type or tuple of
types; Python numbers and NumPy scalars and arrays; not callable). A value's functions are those registered for a
base of its type, lowest priority first and in registration order within one; each is called as
`conversion_func(value, dtype=..., name=..., as_ref=False)`: with a preferred dtype (dtype_hint) and no dtype it is
tried with the hint first (a TypeError or ValueError drops the hint; a result of another dtype is TF's
RuntimeError), NotImplemented passes on to the next, a result that is not a tensor or of another dtype than asked
is RuntimeError. When every function passes (or none is registered) the value goes on to simdist's own
conversion, as TF's default function for `object` (registered at priority 200) converts it with constant_op. A
value whose type has `__tf_tensor__` converts by `value.__tf_tensor__(dtype, name)` before any of this.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

_registry: dict[int, list] = {}
_lock = threading.Lock()
_CONSTANT_OP_CONVERTIBLES = (int, float, np.generic, np.ndarray)
# the types TF 2.21 registers its own functions for at priority 0-100 (numbers, lists and tuples, shapes, range,
# IndexedSlices; variables and tensors never reach here): simdist converts them itself, so a user function that TF
# would order before its own (a lower priority on a base class such as `object`) is not consulted for them
BUILTIN: tuple = (int, float, np.generic, np.ndarray, list, tuple, range)


def register(base_type: Any, conversion_func: Any, priority: int = 100) -> None:
    """tf.register_tensor_conversion_function."""
    base_types = base_type if isinstance(base_type, tuple) else (base_type,)
    if any(not isinstance(x, type) for x in base_types):
        raise TypeError(f"Argument `base_type` must be a type or a tuple of types. Obtained: {base_type}")
    if any(issubclass(x, _CONSTANT_OP_CONVERTIBLES) for x in base_types):
        raise TypeError("Cannot register conversions for Python numeric types and NumPy scalars and arrays.")
    if not callable(conversion_func):
        raise TypeError(f"Argument `conversion_func` must be callable. Received {conversion_func}.")
    with _lock:
        _registry.setdefault(priority, []).append((base_type, conversion_func))


def _builtin() -> tuple:
    from simdist.runtime.dimension import Dimension
    from simdist.runtime.indexed_slices import IndexedSlices
    from simdist.runtime.tensor import TensorShape
    return BUILTIN + (TensorShape, Dimension, IndexedSlices)


_local = threading.local()


def registered() -> bool:
    """Whether convert_to_tensor consults the registry: a function is registered and the conversion is not
    tf.constant's (constant_op converts the value itself: a registered type is its ValueError)."""
    return bool(_registry) and not getattr(_local, "suppressed", 0)


class suppressed:
    """The registry left out (tf.constant's conversion)."""

    def __enter__(self) -> None:
        _local.suppressed = getattr(_local, "suppressed", 0) + 1

    def __exit__(self, *exc: Any) -> None:
        _local.suppressed -= 1


def functions(query: type) -> list:
    """The (base_type, conversion_func) pairs for a value of type `query`, in TF's order."""
    with _lock:
        return [(b, f) for p in sorted(_registry) for b, f in _registry[p] if issubclass(query, b)]


def _prefix(msg: str, name: Any) -> str:
    return msg if name is None else f"{name}: {msg}"


def convert(value: Any, dtype: Any, name: Any, preferred_dtype: Any) -> Any:
    """The registered functions' tensor for `value`, or None when none gives one (simdist's conversion goes on)."""
    from simdist.runtime import dtypes
    from simdist.runtime.tensor import Tensor
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    preferred_dtype = None if preferred_dtype is None else dtypes.as_dtype(preferred_dtype)
    for base_type, conversion_func in functions(type(value)):
        ret = None
        if dtype is None and preferred_dtype is not None:
            try:
                ret = conversion_func(value, dtype=preferred_dtype, name=name, as_ref=False)
            except (TypeError, ValueError):
                pass
            else:
                if ret is not NotImplemented and ret.dtype.base_dtype != preferred_dtype.base_dtype:
                    raise RuntimeError(_prefix(
                        f"Conversion function {conversion_func!r} for type {base_type} returned incompatible dtype: "
                        f"requested = {preferred_dtype.base_dtype.name}, actual = {ret.dtype.base_dtype.name}", name))
        if ret is None:
            ret = conversion_func(value, dtype=dtype, name=name, as_ref=False)
        if ret is NotImplemented:
            continue
        if not isinstance(ret, Tensor):
            raise RuntimeError(_prefix(f"Conversion function {conversion_func!r} for type {base_type} returned "
                                       f"non-Tensor: {ret!r}", name))
        if dtype and not dtype.is_compatible_with(ret.dtype):
            raise RuntimeError(_prefix(f"Conversion function {conversion_func} for type {base_type} returned "
                                       f"incompatible dtype: requested = {dtype.name}, actual = {ret.dtype.name}", name))
        return ret
    return None
