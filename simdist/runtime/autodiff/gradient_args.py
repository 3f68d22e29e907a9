"""What `GradientTape.gradient` does with a target or source that is neither a tensor nor a
variable (an ndarray, a Python number, a string), as TF 2.21's backprop.py does: each target,
then each source, goes through backprop_util.IsTrainable, whose `dtypes.as_dtype(x)` raises
TypeError for a value it cannot read as a dtype (a string, 2.5, 0, False, an object); one it reads
as a non-trainable dtype (3 is DT_INT32's enum) reaches `logging.vlog(..., t.dtype)`, whose
argument is an AttributeError ("'int' object has no attribute 'dtype'"); the rest (an ndarray,
1.0 = DT_FLOAT, True) reach the C tape, which asks for `_id` (AttributeError). Clause
autodiff.targets.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

__all__ = ["check_targets_and_sources", "not_a_tensor"]

# TF's DataType enum values as_dtype accepts (hash lookup: 1.0 and True count as 1), and whether
# the dtype is trainable; the *_ref types are 100 above.
_TRAINABLE_ENUMS = frozenset({1, 2, 8, 14, 18, 19, 20, 21})
_ENUMS = frozenset(range(1, 34))
_TRAINABLE_NAMES = frozenset({"float16", "half", "float32", "float", "float64", "double", "bfloat16", "complex64",
                              "complex128", "resource", "variant"})


def _trainable(x: Any) -> bool:
    """backprop_util.IsTrainable(x) for a non-tensor x; TypeError where dtypes.as_dtype refuses x."""
    e = _enum(x) if isinstance(x, (int, float, np.number, np.bool_)) else None   # (numbers: all hashable)
    if e is not None:
        return e % 100 in _TRAINABLE_ENUMS
    if isinstance(x, str):
        from simdist.runtime import dtypes
        name = x.removesuffix("_ref")
        if name in _TRAINABLE_NAMES:
            return True
        if name in dtypes._BY_NAME:
            return False
    elif isinstance(x, np.dtype) or (isinstance(x, type) and issubclass(x, np.generic)):
        return np.dtype(x).kind in "fc"    # (as_dtype reads NumPy dtypes and types: fuzz4)
    elif hasattr(x, "dtype"):
        return np.dtype(x.dtype).kind in "fc"
    elif type(x).__name__ == "DType":
        return bool(x.is_floating or x.is_complex)
    raise TypeError(f"Cannot convert the argument `type_value`: {x!r} to a TensorFlow DType.")


def _enum(x: Any) -> int | None:
    """The DataType enum value x equals (as a dict key), or None."""
    try:
        i = int(x)
    except (ValueError, OverflowError, TypeError):
        return None
    return i if x == i and (i in _ENUMS or i - 100 in _ENUMS) else None


def _missing(x: Any, name: str) -> AttributeError:
    """Python's own AttributeError for reading `x.name` (its wording: "'numpy.ndarray' object" for a
    C type, "'DType' object" for a Python class, "type object 'numpy.float32'" for a class itself)."""
    try:
        getattr(x, name)
    except AttributeError as e:
        return AttributeError(*e.args)
    return AttributeError(f"'{type(x).__name__}' object has no attribute '{name}'")


def not_a_tensor(x: Any) -> AttributeError:
    """The C tape's error for a target or source without a tensor id (its `x._id`)."""
    return _missing(x, "_id")


def check_targets_and_sources(targets: Sequence[Any], sources: Sequence[Any], is_tensorlike: Any) -> None:
    """IsTrainable over the targets, then the sources (TF's order), for the non-tensors among them."""
    composite = None
    for x in list(targets) + list(sources):
        if is_tensorlike(x):
            continue
        if type(x).__name__ == "SparseTensor":   # (IsTrainable reads its dtype: a float one passes)
            composite = composite or x
            continue
        if not _trainable(x) and not hasattr(x, "dtype"):   # vlog's argument t.dtype
            raise _missing(x, "dtype")
    if composite is not None:   # the C tape's MakeTensorIDList
        raise ValueError(f"Type {type(composite).__name__} is not supported as a gradient source or gradient target.")
