"""`tf.sparse.cross` (TF's SparseCrossV2, sparse_cross_op.cc; clause ops.sparse): per batch row,
every combination of one feature from each input (SparseTensors: the row's values in stored order;
dense tensors: the row), the first input outermost and the last varying fastest, joined by the
separator ("_X_"); other features cast to int64 (sparse_ops.py) and written as decimal strings.
Rows where an input has no feature give no output; the dense shape is [batch, largest count]. Not differentiable.
`tf.sparse.cross_hashed` (TF's SparseCross with hashed_output): the same combinations, each hashed
as HashCrosser does: starting from `hash_key` (sparse_ops' default 0xDECAFCAFFE), FingerprintCat64
with each feature's hash (a string's FarmHash Fingerprint64, an int64 its own bits), then modulo
`num_buckets` (or modulo int64's max when it is 0), int64.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import dispatch, math
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.sparse_core import invalid
from simdist.runtime.sparse_tensor import SparseTensor
from simdist.runtime.tensor import convert_to_tensor

__all__ = ["cross", "cross_hashed", "fingerprint_cat64", "features", "combine"]

_MASK64 = (1 << 64) - 1
_KMUL = 0xC6A4A7935BD1E995
DEFAULT_HASH_KEY = 0xDECAFCAFFE


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def fingerprint_cat64(fp1: int, fp2: int) -> int:
    """TF's FingerprintCat64 (tensorflow/core/platform/fingerprint.h) on unsigned 64-bit ints."""
    result = fp1 ^ _KMUL
    result ^= (_shift_mix((fp2 * _KMUL) & _MASK64) * _KMUL) & _MASK64
    result = (result * _KMUL) & _MASK64
    result = (_shift_mix(result) * _KMUL) & _MASK64
    return _shift_mix(result)


def _feature_hash(v: Any) -> int:
    """HashCrosser's feature: a string's Fingerprint64, an int64's bits."""
    from simdist.runtime.ops.fingerprint import farmhash64
    if isinstance(v, (bytes, str)):
        return farmhash64(v if isinstance(v, bytes) else v.encode())
    return int(v) & _MASK64


def _text(v: Any) -> bytes:
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode()
    return str(int(v)).encode()


def _dims(a: np.ndarray) -> str:
    """TensorShape::DebugString: [2,1], [] for a scalar."""
    return "[" + ",".join(str(d) for d in a.shape) + "]"


def _validate(inds: tuple, vals: tuple, shapes: tuple, dense: tuple, op: str, internal: str) -> int:
    """sparse_cross_op.cc ValidateInput in its order (`internal`: SparseCross's internal_type, whose
    string refuses int64 values and dense inputs; "" for SparseCrossV2, which checks no type), then
    CalculateBatchSize: the first shape's batch, else the first dense input's rows, else 0."""
    size = len(inds)
    for i, a in enumerate(inds):
        if a.ndim != 2:
            raise invalid(f"Input indices should be a matrix but received shape {_dims(a)} at position {i}", op)
        if a.shape[1] != 2:
            raise invalid(f"Expected D2 of index to be 2 got {a.shape[1]} at position {i}", op)
    if len(vals) != size:
        raise invalid(f"Expected {size} input values, got {len(vals)}", op)
    for i, v in enumerate(vals):
        if internal == "string" and v.dtype == np.int64:
            raise invalid(f"Input values should be of internal type {dtypes.string.as_datatype_enum} but received "
                          f"{dtypes.int64.as_datatype_enum}", op)
        if v.ndim != 1:
            raise invalid(f"Input values should be a vector but received shape {_dims(v)} at position {i}", op)
        if inds[i].shape[0] != v.shape[0]:
            raise invalid(f"Expected size of values to be {inds[i].shape[0]} got {v.shape[0]} at position {i}", op)
    if len(shapes) != size:
        raise invalid(f"Expected {size} input shapes, got {len(shapes)}", op)
    for i, s in enumerate(shapes):
        if s.ndim != 1:
            raise invalid(f"Input shapes should be a vector but received shape {_dims(s)} at position {i}", op)
        if s.shape[0] != 2:
            raise invalid(f"shape should imply a 2D tensor, but got {_dims(s)} at position {i}", op)
    for i, d in enumerate(dense):
        if internal == "string" and d.dtype == np.int64:
            raise invalid(f"Dense inputs should be of internal type {dtypes.string.as_datatype_enum} but received "
                          f"{dtypes.int64.as_datatype_enum}", op)
        if d.ndim != 2:
            raise invalid(f"Dense inputs should be a matrix but received shape {_dims(d)} at position {i}", op)
    batch = int(shapes[0][0]) if shapes else (dense[0].shape[0] if dense else 0)
    for i, s in enumerate(shapes):
        if int(s[0]) != batch:
            raise invalid(f"Expected batch size {batch} got {int(s[0])} at position {i}", op)
    for i, d in enumerate(dense):
        if d.shape[0] != batch:
            raise invalid(f"Expected batch size {batch} got {d.shape[0]} at dense tensor {i}", op)
    return batch


def _features(arrays: tuple, n_sparse: int, n_dense: int, op: str, feature: Any,
              internal: str = "") -> list[list[list[Any]]]:
    """Per input, per batch row, its features (mapped by `feature`), after TF's ValidateInput.
    A sparse input's rows are ExtractFeatureData's: for each batch row b in turn, the run of
    indices from where the last run stopped whose first column is b (so unsorted or out-of-range
    rows are skipped, as TF's kernel skips them)."""
    inds, vals, shapes = arrays[:n_sparse], arrays[n_sparse:2 * n_sparse], arrays[2 * n_sparse:3 * n_sparse]
    dense = arrays[3 * n_sparse:3 * n_sparse + n_dense]
    batch = _validate(inds, vals, shapes, dense, op, internal)
    features: list[list[list[Any]]] = []
    for i in range(n_sparse):
        rows: list[list[Any]] = []
        row = 0
        for b in range(batch):
            start = row
            while row < inds[i].shape[0] and int(inds[i][row, 0]) == b:
                row += 1
            rows.append([feature(vals[i][n]) for n in range(start, row)])
        features.append(rows)
    for d in dense:
        features.append([[feature(v) for v in d[r]] for r in range(batch)])
    return features


def _combine(features: list, combine: Any, out_dtype: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every combination per row (the last input varying fastest), combined into one value."""
    batch = len(features[0]) if features else 0
    out_ind, out_val, width = [], [], 0
    for r in range(batch):
        combos = list(itertools.product(*[f[r] for f in features]))
        width = max(width, len(combos))
        for k, combo in enumerate(combos):
            out_ind.append([r, k])
            out_val.append(combine(combo))
    values = np.empty(len(out_val), dtype=out_dtype)
    values[:] = out_val
    return np.array(out_ind, np.int64).reshape(len(out_ind), 2), values, np.array([batch, width], np.int64)


features = _features   # (SparseCrossHashed's too: sparse_cross_hashed.py)
combine = _combine


def _cross(*arrays: np.ndarray, n_sparse: int, n_dense: int,
           internal: str = "") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`internal`: raw SparseCross's internal_type (its checks and error name), "" for SparseCrossV2."""
    feats = _features(arrays[:-1], n_sparse, n_dense, "SparseCross" if internal else "SparseCrossV2", _text, internal)
    sep = _text(arrays[-1].item() if arrays[-1].ndim == 0 else arrays[-1])
    return _combine(feats, sep.join, object)


def _cross_hashed(*arrays: np.ndarray, n_sparse: int, n_dense: int, num_buckets: int,
                  hash_key: int, internal: str = "") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    def combine(combo: tuple) -> int:
        h = hash_key & _MASK64
        for f in combo:
            h = fingerprint_cat64(h, f)
        return h % num_buckets if num_buckets > 0 else h % ((1 << 63) - 1)
    return _combine(_features(arrays, n_sparse, n_dense, "SparseCross", _feature_hash, internal), combine, np.int64)


def _rule_for(op: str, hashed: bool) -> Any:
    def rule(dts: Any, attrs: Any) -> tuple:
        n = attrs["n_sparse"]
        for dt in list(dts[n:2 * n]) + list(dts[3 * n:len(dts) if hashed else -1]):
            if dt not in (dtypes.string, dtypes.int64):
                raise invalid(f"Value for attr 'dense_types' of {dt.name} is not in the list of allowed values: "
                              "int64, string", op)
        return (dtypes.int64, dtypes.int64 if hashed else dtypes.string, dtypes.int64)
    return rule


SPARSE_CROSS = register("SparseCrossV2", _cross, _rule_for("SparseCrossV2", False), lambda a, out, at: 0.0,
                        num_outputs=3, kind="gather/scatter", fusion=lanes("its output's length depends on the values"))
NotDifferentiable("SparseCrossV2")
SPARSE_CROSS_HASHED = register("SparseCross", _cross_hashed, _rule_for("SparseCross", True), lambda a, out, at: 0.0,
                               num_outputs=3, kind="gather/scatter",
                               fusion=lanes("its output's length depends on the values"))
NotDifferentiable("SparseCross")


def _inputs(inputs: Any) -> tuple[list, list]:
    """sparse_ops._sparse_cross_internal: SparseTensors and dense tensors, non-strings cast to int64."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError("Inputs must be a list")
    sparse = [x if x.dtype == dtypes.string else SparseTensor(x.indices, math.cast(x.values, dtypes.int64),
                                                              x.dense_shape)
              for x in inputs if isinstance(x, SparseTensor)]
    dense = [_t(x) for x in inputs if not isinstance(x, SparseTensor)]
    dense = [d if d.dtype == dtypes.string else math.cast(d, dtypes.int64) for d in dense]   # (sparse_ops.py's casts)
    return sparse, dense


def cross_hashed(inputs: Any, num_buckets: int = 0, hash_key: int | None = None,
                 name: str | None = None) -> SparseTensor:
    """`tf.sparse.cross_hashed`: the hashed crosses of the inputs' features per row (int64)."""
    sparse, dense = _inputs(inputs)
    tensors = [s.indices for s in sparse] + [s.values for s in sparse] + [s.dense_shape for s in sparse] + dense
    ind, val, shape = dispatch.execute(SPARSE_CROSS_HASHED, tuple(tensors), {
        "n_sparse": len(sparse), "n_dense": len(dense), "num_buckets": int(num_buckets),
        "hash_key": int(hash_key or DEFAULT_HASH_KEY)})
    return SparseTensor(ind, val, shape)


def cross(inputs: Any, name: str | None = None, separator: str | None = None) -> SparseTensor:
    """`tf.sparse.cross`: the string crosses of the inputs' features per row."""
    sparse, dense = _inputs(inputs)
    # (TF's kernel takes the SparseTensors' lists first, then the dense inputs: that is the crossing order)
    sep = convert_to_tensor("_X_" if separator is None else separator)
    tensors = [s.indices for s in sparse] + [s.values for s in sparse] + [s.dense_shape for s in sparse] + dense + [sep]
    ind, val, shape = dispatch.execute(SPARSE_CROSS, tuple(tensors), {"n_sparse": len(sparse), "n_dense": len(dense)})
    return SparseTensor(ind, val, shape)
