"""TF's SparseBincount (a raw op only; tensorflow/core/kernels/bincount_op.cc SparseBincountOp, clause ops.raw-ops):
the bincount of a SparseTensor's values. Checks, in order (TF 2.21's texts, observed): `size` a scalar ("Shape must
be rank 0 but is rank 1"), not negative ("size (-1) must be non-negative"), then sparse_utils::ValidateSparseTensor
(indices a matrix, values and dense_shape vectors, "Number of elements in indices (2) and values (3) do not match",
"Index rank (2) and shape rank (1) do not match", each index inside dense_shape: "Sparse index tuple indices[1, :] =
[1, 9] is out of bounds"). A one-dimensional dense_shape counts into [size] (BincountFunctor: "Input arr must be
non-negative!", then "Input indices and weights must have the same size."); otherwise into [dense_shape[0], size]
by each entry's first index, a negative value skipped. Values from `size` on are dropped; each counted value adds
its weight (none: 1), or sets 1 with binary_output. TF registers no gradient (a tape: LookupError)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register

__all__ = ["SPARSE_BINCOUNT"]

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
