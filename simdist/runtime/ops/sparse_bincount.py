"""TF's SparseBincount (a raw op only; tensorflow/core/kernels/bincount_op.cc SparseBincountOp, clause ops.raw-ops):
the bincount of a SparseTensor's values. Checks, in order (TF 2.21's texts, observed): `size` a scalar ("Shape must
be rank 0 but is rank 1"), not negative ("size (-1) must be non-negative"), then sparse_utils::ValidateSparseTensor
(indices a matrix, values and dense_shape vectors, "Number of elements in indices (2) and values (3) do not match",
"Index rank (2) and shape rank (1) do not match", each index inside dense_shape: "Sparse index tuple indices[1, :] =
[1, 9] is out of bounds"). A one-dimensional dense_shape counts into [size] (BincountFunctor: "Input arr must be
non-negative!", then "Input indices and weights must have the same size."); otherwise into [dense_shape[0], size]
by each entry's first index, a negative value skipped. Values from `size` on are dropped; each counted value adds
its weight (none: 1), or sets 1 with binary_output. TF registers no gradient (a tape: LookupError).

`bincount` is TF's dispatch of `tf.math.bincount` for a SparseTensor (sparse_ops.bincount): the stored values are
counted (implicit zeros are not), into cast(size(arr) > 0) * (max(reduce_max(values), -1) + 1) bins bounded by
minlength and maxlength; axis 0 by DenseBincount of the values, axis -1 by SparseBincount per row of the first
index."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.counting import bounded_size, check_axis, dense_bincount, no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.tensor import convert_to_tensor

__all__ = ["SPARSE_BINCOUNT", "bincount"]

_OP = "SparseBincount"
_PREFIX = f"{{{{function_node __wrapped__{_OP}_device_/job:localhost/replica:0/task:0/device:CPU:0}}}} "


def _bad(text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{_PREFIX}{text} [Op:{_OP}]")


def _validate(indices: np.ndarray, values: np.ndarray, shape: np.ndarray) -> None:
    """sparse_utils::ValidateSparseTensor with unordered indices."""
    if indices.ndim != 2:
        raise _bad(f"Sparse indices must be rank 2 but is rank {indices.ndim}")
    if values.ndim != 1:
        raise _bad(f"Sparse values must be rank 1 but is rank {values.ndim}")
    if shape.ndim != 1:
        raise _bad(f"Sparse shape must be rank 1 but is rank {shape.ndim}")
    nnz, rank = indices.shape
    if values.shape[0] != nnz:
        raise _bad(f"Number of elements in indices ({nnz}) and values ({values.shape[0]}) do not match")
    if shape.size != rank:
        raise _bad(f"Index rank ({rank}) and shape rank ({shape.size}) do not match")
    for i in range(nnz):
        row = indices[i]
        if np.any(row < 0) or np.any(row >= shape):
            raise _bad(f"Sparse index tuple indices[{i}, :] = [{', '.join(str(int(v)) for v in row)}] is out of bounds")


def _sparse_bincount(indices: np.ndarray, values: np.ndarray, dense_shape: np.ndarray, size: np.ndarray,
                     weights: np.ndarray, binary_output: bool = False) -> np.ndarray:
    """SparseBincountOp::Compute."""
    if size.ndim:
        raise _bad(f"Shape must be rank 0 but is rank {size.ndim}")
    n = int(size)
    if n < 0:
        raise _bad(f"size ({n}) must be non-negative")
    _validate(indices, values, dense_shape)
    dt = weights.dtype
    one = dt.type(1)
    if dense_shape.size == 1:
        out = np.zeros((n,), dt)
        if values.size and values.min() < 0:
            raise _bad("Input arr must be non-negative!")
        if weights.size and weights.size != values.size:
            raise _bad("Input indices and weights must have the same size.")
        for i, v in enumerate(values.tolist()):
            if v < n:
                out[v] = one if binary_output else out[v] + (weights[i] if weights.size else one)
        return out
    out = np.zeros((int(dense_shape[0]), n), dt)
    for i, v in enumerate(values.tolist()):
        b = int(indices[i, 0])
        if 0 <= v < n:
            out[b, v] = one if binary_output else out[b, v] + (weights[i] if weights.size else one)
    return out


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    from simdist.runtime.ops.args import dtype_error
    from simdist.runtime.ops.nn_rules import attr_error
    if dts[0] != dtypes.int64:
        raise dtype_error(_OP, 0, dtypes.int64, dts[0])
    tidx = dts[1]
    if dts[2] != dtypes.int64:
        raise dtype_error(_OP, 2, dtypes.int64, dts[2])
    if dts[3] != tidx:
        raise dtype_error(_OP, 3, tidx, dts[3])
    if tidx not in (dtypes.int32, dtypes.int64):
        raise attr_error(_OP, tidx, "int32, int64", attr="Tidx")
    t = dts[4]
    if t not in (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64):
        raise attr_error(_OP, t, "int32, int64, float, double")
    return t


SPARSE_BINCOUNT = register(_OP, _sparse_bincount, _rule, lambda arrays, out, attrs: float(np.size(arrays[1])),
                           kind="gather/scatter", fusion=lanes("value-dependent scatter of one lane's counts"))
no_tf_gradient(_OP)


def bincount(arr: Any, weights: Any, minlength: Any, maxlength: Any, dtype: Any, axis: Any,
             binary_output: Any) -> Any:
    """`tf.math.bincount` of a SparseTensor (sparse_ops.bincount, TF 2.21): weights must be a SparseTensor of the
    same dense shape and indices (validate_sparse_weights)."""
    from simdist.runtime.ops import math, reductions
    from simdist.runtime.ops.attr_rules import make_bool
    from simdist.runtime.ops.sparse_count import sparse_weights
    from simdist.runtime.sparse_tensor import SparseTensor
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify only one.")
    if not arr.dtype.is_integer:   # (math_ops.cast of a SparseTensor casts its values)
        arr = SparseTensor(arr.indices, math.cast(arr.values, dtypes.int32), arr.dense_shape)
    axis = check_axis(axis)
    nonempty = math.greater(math.cast(reductions.reduce_prod(arr.dense_shape), dtypes.int32), 0)
    max_value = math.maximum(math.reduce_max(arr.values), -1)
    size = math.multiply(math.cast(nonempty, arr.dtype), math.add(max_value, 1))
    size_v = bounded_size(dispatch.static_value(size), arr.dtype, minlength, maxlength)
    if axis == 0:
        if weights is not None:
            weights = sparse_weights(arr, weights, dtype)
        return dense_bincount(arr.values, weights, int(size_v), dtype, binary_output, (minlength, maxlength))
    w = sparse_weights(arr, weights, dtype)
    return dispatch.execute(SPARSE_BINCOUNT, (arr.indices, arr.values, arr.dense_shape,
                                              convert_to_tensor(size_v, dtype=arr.dtype), w),
                            {"binary_output": make_bool(binary_output, "binary_output", _OP)})
