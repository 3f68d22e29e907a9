"""Elements of tf.data pipelines: conversion of Python and NumPy values to the flat lists of arrays
a dataset yields, argument checks, TF's cardinality constants and C++ integer arithmetic."""

from __future__ import annotations

import types
import warnings
from typing import Any, Callable

import numpy as np

from simdist.runtime import context, devices, dtypes, errors
from simdist.runtime.data import components
from simdist.runtime.ragged_tensor import RaggedTensor
from simdist.runtime.sparse_tensor import SparseTensor
from simdist.runtime.spec import TensorSpec, flatten, map_structure
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2
_INT64_MAX = 2 ** 63 - 1


def host_device() -> str:
    """Where iterated elements live: the CPU of the task the current device belongs to."""
    return devices.host_cpu(context.current_device())


def _to_tensor(value: Any) -> Tensor | SparseTensor:
    """An element leaf as a Tensor (a SparseTensor or RaggedTensor stays one: dataset.sparse-elements,
    dataset.ragged-batch)."""
    from simdist.runtime.data.dataset import DatasetV2   # (the dataset module imports this one)
    if isinstance(value, (SparseTensor, RaggedTensor)):
        return value
    if isinstance(value, DatasetV2):
        raise TypeError("tf.data datasets cannot be elements of another dataset in simdist "
                        f"(got {type(value).__name__})")
    try:
        return convert_to_tensor(value)
    except ValueError as e:
        if "inhomogeneous" in str(e) or "sequence" in str(e):
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
        raise


def _normalize(value: Any) -> tuple[Any, list[np.ndarray]]:
    """A structure of values -> (structure of specs, flat list of component arrays). Lists become
    tensors; a SparseTensor is a SparseTensorSpec leaf of three components (components.py)."""
    tensors = map_structure(_to_tensor, value)
    spec = map_structure(components.spec_of, tensors)
    return spec, [a for t in flatten(tensors) for a in components.leaf_arrays(t)]


def _zeros(shape: tuple[int, ...], dtype: dtypes.DType) -> np.ndarray:
    if dtype is dtypes.string:
        return np.full(shape, b"", dtype=object)
    return np.zeros(shape, dtype=dtype.np)


def probe_arrays(specs: list[TensorSpec], size: int, fill: int) -> list[np.ndarray]:
    """The arrays of a spec probe (map_filter.py): unknown dims `size`, every value `fill`
    (strings b"a" when `fill` is not 0)."""
    arrays = []
    for s in specs:
        dims = (size,) if s.shape.rank is None else tuple(size if d is None else d for d in s.shape.as_list())
        arr = _zeros(dims, s.dtype)
        if fill:
            arr[...] = b"a" if s.dtype is dtypes.string else fill
        arrays.append(arr)
    return arrays


def _as_array(value: Any, dtype: dtypes.DType) -> np.ndarray:
    arr = np.asarray(value._v if isinstance(value, Tensor) else value)
    if dtype is dtypes.string:
        return arr.astype(object)
    return arr.astype(dtype.np, copy=False)


def _shape_list(shape: TensorShape) -> list[int | None] | None:
    return None if shape.rank is None else shape.as_list()


def _fmt_shape(shape: tuple[int, ...]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def _int_arg(value: Any, what: str = "") -> int:
    """An int64 scalar argument (Python int, NumPy integer or int64 tensor), TF's TypeError otherwise. TF converts it
    with `convert_to_tensor(value, dtype=int64, name=what)`: a tensor of another dtype (int32, uint8, bool, a float)
    is that conversion's ValueError "<what>: Tensor conversion requested dtype int64 for Tensor with dtype ...",
    eagerly and when traced (a dataset function's `range(x)` of an int32 element; TF 2.21 observed, blind61b;
    clause dataset.api-surface)."""
    if isinstance(value, Tensor):
        if value.dtype != dtypes.int64:
            raise ValueError(f"{what + ': ' if what else ''}Tensor conversion requested dtype int64 for Tensor with "
                             f"dtype {value.dtype.name}: {value!r}")
        value = value.numpy()
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "iufb":
        # (a NumPy value converts by a forced cast, as for an op's integer input (ops.index-dtypes'
        # index_dtypes.scalar): range(np.float64(2.0)), take(np.array(2.5)), batch(np.bool_(True)) are 2, 2, 1; an
        # array of rank 1 or more reaches the dataset op, whose kernel wants a scalar: InvalidArgumentError; TF 2.21
        # observed, npsweep67)
        from simdist.runtime.ops import index_dtypes
        if np.ndim(value):
            raise errors.InvalidArgumentError(None, None, f"{what or 'argument'} must be a scalar")
        return int(index_dtypes.scalar(value))
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if value is None:   # (convert_to_tensor(None, int64): take(None), skip(None); TF 2.21 observed, dsweep65)
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a "
                         "Tensor.")
    raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int64")


def _bool_arg(value: Any) -> bool:
    if isinstance(value, Tensor):
        value = value.numpy()
    return bool(value)


def _cdiv(a: int, b: int) -> int:
    """C++ integer division (truncates toward zero), as TF's cardinality arithmetic uses."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _cmod(a: int, b: int) -> int:
    return a - b * _cdiv(a, b)


def _unknown_or_infinite(n: int) -> bool:
    return n in (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY)


def _apply(fn: Callable[..., Any], element: Any) -> Any:
    """A tf.data function's call on an element: a plain tuple element is unpacked into
    positional arguments (TF's rule)."""
    if type(element) is tuple:
        return fn(*element)
    return fn(element)


def _call_with_element(fn: Callable[..., Any], element: Any, trace: Any = None) -> Any:
    """Call a tf.data function's Python on an element (`_apply`), as its trace would (`trace`: the
    function's build trace, which records the stateful ops it makes)."""
    from simdist.runtime import symbolic
    with context.in_dataset_function(trace):
        for t in flatten(element):
            if isinstance(t, Tensor):
                symbolic.note(t)
        return _apply(fn, element)


def _normalize_fn_output(out: Any) -> Any:
    """A map function's return value as a structure of Tensors (a top-level list becomes a tuple)."""
    if out is None:
        raise errors.InvalidArgumentError(
            None, None, "The tf.data function returned None; it must return a (nested structure of) tensors.")
    if isinstance(out, list):
        warnings.warn("The tf.data function returned a list; converting it to a tuple, as TF does.",
                      stacklevel=3)
        out = tuple(out)
    return map_structure(_to_tensor, out)
