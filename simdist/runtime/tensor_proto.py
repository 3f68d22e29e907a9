"""make_tensor_proto's type check (TF 2.21 tensor_util._AssertCompatible): inside a tf.function a
Python value converted to a requested dtype is a graph constant, and before NumPy converts it every
leaf must be of a Python or NumPy type the dtype takes (clause ops.conversion)."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from simdist.runtime import dtypes

__all__ = ["assert_compatible", "dense_dimensions", "assert_dense", "graph_unsupported"]


def _expected(dt: dtypes.DType) -> tuple[type, ...] | None:
    """The leaf types `dt` takes (tensor_util._TF_TO_IS_OK), None where TF checks nothing but tensors."""
    if dt.is_bool:
        return (bool,)                      # (not np.bool_: it is no subclass of bool)
    if dt is dtypes.string:
        return (bytes, str)
    if dt.is_complex:
        return (numbers.Complex, np.number)
    if dt.is_floating:
        return (numbers.Real, np.integer, np.floating)
    if dt.is_integer:
        return (numbers.Integral, np.integer)
    return None


def _leaves(value: Any) -> list:
    """nest.flatten of a Python value: lists and tuples opened (ragged ones too), a dict's values in
    sorted key order, anything else (a set, an object) a leaf."""
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _leaves(v)]
    if isinstance(value, dict):
        return [leaf for k in sorted(value) for leaf in _leaves(value[k])]
    return [value]


def _is_tensor(v: Any) -> bool:
    """A tensor, variable or traced value (duck-typed: this module sits below the tensor class)."""
    return hasattr(v, "_as_tensor") or (hasattr(v, "dtype") and hasattr(v, "shape")
                                        and not isinstance(v, (np.ndarray, np.generic)))


_FAILED = ("Failed to convert elements of {value} to Tensor. Consider casting elements to a supported type. See "
           "https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF dtypes.")


def graph_unsupported(value: Any, dt: dtypes.DType | None) -> Any:
    """make_tensor_proto of a value NumPy can only hold as an object (a dict, a set, an object, a list
    of such), inside a tf.function: without a dtype, a tensor among its nest.flatten leaves is
    TypeError "Expected any non-tensor type, but got a tensor instead." and anything else NumPy's
    object array, whose dtype TF refuses ("Failed to convert elements of ... to Tensor."), unless NumPy
    refuses the value first (ValueError "inhomogeneous shape": arrays of unequal shapes); with a
    numeric or bool dtype (after `assert_compatible`), NumPy's own conversion of the whole value:
    `float()` of a dict is TypeError, `bool()` of one its truth value. (Eagerly it is ValueError
    "Attempt to convert a value ... with an unsupported type".) Returns the array when NumPy makes one."""
    if dt is None:
        if any(_is_tensor(v) for v in _leaves(value)):
            raise TypeError("Expected any non-tensor type, but got a tensor instead.")
        # (numpy_compat.np_array: NumPy's own inference first, whose ValueError for a list of arrays of
        # unequal shapes, `[bool array [3, 4, 1, 2], nan, ...]`, is the trace's; fz32b, fz14 seed 1420323001 #197)
        np.array(value)
        raise TypeError(_FAILED.format(value=value))
    if dt is dtypes.string or not (dt.is_bool or dt.is_integer or dt.is_floating or dt.is_complex):
        raise TypeError(_FAILED.format(value=value))
    arr = np.array(value, dtype=dt.np)
    if arr.dtype == object:
        raise TypeError(_FAILED.format(value=value))
    return arr


def assert_compatible(value: Any, dt: dtypes.DType) -> None:
    """TypeError "Expected bool, but got 1 of type 'int'." for the first leaf of `value` (not a NumPy
    array or scalar: make_tensor_proto converts those without the check) that `dt` does not take;
    an ndarray inside a list counts by its dtype's scalar type (a bool array is refused as bool)."""
    kinds = _expected(dt)
    if kinds is None:
        return
    packed = not isinstance(value, dict)   # (a list of tensors is packed before; a dict's are leaves)
    for v in _leaves(value):
        ok = isinstance(v, kinds) or (isinstance(v, np.ndarray) and issubclass(v.dtype.type, kinds))
        if not ok and not (packed and _is_tensor(v)):
            raise TypeError(f"Expected {dt.name}, but got {v} of type '{type(v).__name__}'.")


def dense_dimensions(value: Any) -> list[int]:
    """tensor_util._GetDenseDimensions: the lengths along the first elements of nested lists and
    tuples (an ndarray element ends the walk, as any non-list does)."""
    if not isinstance(value, (list, tuple)):
        return []
    if not value:
        return [0]
    return [len(value)] + dense_dimensions(value[0])


def assert_dense(value: Any, shape: tuple[int, ...]) -> None:
    """make_tensor_proto's check after np.array(values): a list or tuple whose NumPy shape differs
    from its dense dimensions (a list holding arrays of rank >= 1: `[np.array([1, 2])]` in a
    tf.function) is ValueError. Eagerly the C++ conversion takes such lists. Clause ops.conversion."""
    dense = dense_dimensions(value)
    if list(shape) != dense:
        raise ValueError(f"Expected values {value} to be a dense tensor with shape {dense}, but got shape "
                         f"{list(shape)}.")
