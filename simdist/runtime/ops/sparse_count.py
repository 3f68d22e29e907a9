"""`tf.sparse.bincount` (TF's DenseCountSparseOutput and SparseCountSparseOutput, count_ops.cc) and
`tf.edit_distance` (EditDistance, edit_distance_op.cc): ops whose operands or results are
SparseTensors (clause ops.sparse).

Counts: per batch row (axis=-1 of a rank-2 input) or over all values (axis=0), a sorted map of
value -> count (or summed weight; 1 with binary_output), values >= maxlength dropped; the last
dimension is maxlength when >= 0, else max(largest value + 1, minlength) (1 for no values); the
counts have the weights' dtype (the values' without weights). Negative values are
InvalidArgumentError. Edit distance: the Levenshtein distance between the hypothesis and truth
sequences (runs of consecutive entries with one index prefix, walked as if both were ordered, as
the kernel's merge does: unordered inputs are not refused) divided by the truth's length when
normalize; a hypothesis without a truth gives inf (its length unnormalized), a truth without a
hypothesis 1 (its length); float32, of the larger of the two group shapes. Not differentiable.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import array, dispatch
from simdist.runtime.ops.args import t as _t, tf_name
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.sparse_core import invalid
from simdist.runtime.sparse_tensor import SparseTensor
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["bincount", "edit_distance"]

_VALUE_DEPENDENT = lanes("its output's length depends on the values")


def _size(max_seen: int, maxlength: int, minlength: int) -> int:
    """count_ops.cc's GetOutputSize as TF 2.21 runs it: a maxlength of 0 is a length of 0 too (every value
    dropped; observed: fuzz20 seed 2420261202 #155), a negative one none."""
    if maxlength >= 0:
        return maxlength
    # (`max_seen + 1` in int64: the largest int64 value wraps to its smallest, so the length is then minlength's,
    # -1 when none is given; observed on TF 2.21, fz55b seed 55202 #40)
    size = max_seen + 1
    return max(size - (1 << 64) if size >= 1 << 63 else size, minlength)


def _counted(rows: np.ndarray, vals: np.ndarray, weights: np.ndarray, batches: int | None, minlength: int,
             maxlength: int, binary_output: bool, out_dtype: Any, op: str) -> tuple:
    if vals.size and (vals < 0).any():
        raise invalid("Input values must all be non-negative", op)
    counts: dict[tuple[int, int], Any] = {}
    max_seen = 0
    for i in range(vals.shape[0]):
        v = int(vals[i])
        if maxlength >= 0 and v >= maxlength:
            continue
        key = (int(rows[i]), v)
        if binary_output:
            counts[key] = 1
        else:
            add = out_dtype.type(weights[i] if weights.size else 1)
            with np.errstate(all="ignore"):
                counts[key] = out_dtype.type(counts.get(key, out_dtype.type(0)) + add)
        max_seen = max(max_seen, v)
    keys = sorted(counts)
    size = _size(max_seen, maxlength, minlength)
    if batches is None:
        ind = np.array([[v] for _, v in keys], np.int64).reshape(len(keys), 1)
        shape = np.array([size], np.int64)
    else:
        ind = np.array([[b, v] for b, v in keys], np.int64).reshape(len(keys), 2)
        shape = np.array([batches, size], np.int64)
    return ind, np.array([counts[k] for k in keys], out_dtype).reshape(len(keys)), shape


def _check_weights(vals: np.ndarray, weights: np.ndarray, op: str) -> None:
    if weights.size and weights.shape != vals.shape:
        raise invalid(f"Weights and values must have the same shape. Weight shape: {list(weights.shape)}; values "
                      f"shape: {list(vals.shape)}", op)


def _dense_count(values: np.ndarray, weights: np.ndarray, minlength: int = -1, maxlength: int = -1,
                 binary_output: bool = False) -> tuple:
    op = "DenseCountSparseOutput"
    if values.ndim not in (1, 2):
        raise invalid(f"Input must be a 1 or 2-dimensional tensor. Got: {values.ndim}", op)
    _check_weights(values, weights, op)
    out_dtype = weights.dtype   # (no weights: an empty array of the values' dtype)
    if values.ndim == 1:
        return _counted(np.zeros(values.shape[0], np.int64), values, weights, None, minlength, maxlength,
                        binary_output, out_dtype, op)
    rows = np.repeat(np.arange(values.shape[0]), values.shape[1])
    w = weights.reshape(-1) if weights.size else weights
    return _counted(rows, values.reshape(-1), w, values.shape[0], minlength, maxlength, binary_output, out_dtype, op)


def _sparse_checks(ind: np.ndarray, values: np.ndarray, shape: np.ndarray, op: str) -> None:
    """SparseCount::Compute's checks before the weights' (count_ops.cc, TF 2.21's texts: no space
    after the first sentence): indices a matrix, values and the shape vectors, one value per index
    row, one shape entry per index column, a non-empty shape, then each index within the shape
    (fuzz20 seed 2520261201 #136)."""
    def dims(a: np.ndarray) -> str:
        return "[" + ",".join(str(d) for d in a.shape) + "]"
    if ind.ndim != 2:
        raise invalid(f"Input indices must be a 2-dimensional tensor. Got: {dims(ind)}", op)
    if values.ndim != 1:
        raise invalid(f"Input values must be a vector. Got: {dims(values)}", op)
    if shape.ndim != 1:
        raise invalid(f"Input shape must be a vector. Got: {dims(shape)}", op)
    if values.shape[0] != ind.shape[0]:
        raise invalid(f"Number of values must match first dimension of indices.Got {values.shape[0]} values, "
                      f"indices shape: {dims(ind)}", op)
    if shape.shape[0] != ind.shape[1]:
        raise invalid(f"Number of dimensions must match second dimension of indices.Got {shape.shape[0]} "
                      f"dimensions, indices shape: {dims(ind)}", op)
    if shape.size == 0:
        raise invalid("The shape argument requires at least one element.", op)
    for i in range(values.shape[0]):
        for j in range(ind.shape[1]):
            v, bound = int(ind[i, j]), int(shape[j])
            if not 0 <= v < bound:
                raise invalid(f"Invalid index value at {i}: dimension {j} has value {v} which is not in [0, {bound}) "
                              f"(as given by dense shape Tensor<type: int64 shape: [{shape.shape[0]}] values: "
                              f"{' '.join(str(int(x)) for x in shape)}>", op)


def _sparse_count(ind: np.ndarray, values: np.ndarray, shape: np.ndarray, weights: np.ndarray, minlength: int = -1,
                  maxlength: int = -1, binary_output: bool = False) -> tuple:
    op = "SparseCountSparseOutput"
    _sparse_checks(ind, values, shape, op)
    # (no rank limit: a dense shape of rank 3 or more counts by its first index, as rank 2)
    _check_weights(values, weights, op)
    if shape.shape[0] == 1:
        return _counted(np.zeros(values.shape[0], np.int64), values, weights, None, minlength, maxlength,
                        binary_output, weights.dtype, op)
    return _counted(ind[:, 0], values, weights, int(shape[0]), minlength, maxlength, binary_output, weights.dtype, op)


def _count_rule(values_at: int) -> Any:
    def rule(dts: Any, attrs: Any) -> tuple:
        t = dts[values_at]
        if t not in (dtypes.int32, dtypes.int64):
            raise invalid(f"Value for attr 'T' of {tf_name(t)} is not in the list of allowed values: int32, int64",
                          "DenseCountSparseOutput" if values_at == 0 else "SparseCountSparseOutput")
        return (dtypes.int64, dts[-1], dtypes.int64)
    return rule


DENSE_COUNT = register("DenseCountSparseOutput", _dense_count, _count_rule(0), lambda a, out, at: float(a[0].size),
                       num_outputs=3, kind="gather/scatter", fusion=_VALUE_DEPENDENT)
SPARSE_COUNT = register("SparseCountSparseOutput", _sparse_count, _count_rule(1), lambda a, out, at: float(a[1].size),
                        num_outputs=3, kind="gather/scatter", fusion=_VALUE_DEPENDENT)
no_tf_gradient("DenseCountSparseOutput")   # (TF 2.21 registers none: a tape raises LookupError; fuzz20
no_tf_gradient("SparseCountSparseOutput")   # tape seed 2720261205 #181)


def bincount(values: Any, weights: Any = None, axis: Any = 0, minlength: Any = None, maxlength: Any = None,
             binary_output: bool = False, name: str | None = None) -> SparseTensor:
    """`tf.sparse.bincount`: the counts (or summed weights) of each value, as a SparseTensor; a RaggedTensor counts
    each row (ragged_bincount_ops.sparse_bincount: RaggedCountSparseOutput)."""
    from simdist.runtime.ragged_tensor import RaggedTensor  # noqa: PLC0415

    if not isinstance(values, (SparseTensor, RaggedTensor)):
        values = _t(values)
    if weights is not None and not isinstance(weights, (SparseTensor, RaggedTensor)):
        weights = _t(weights)
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify only one.")
    axis = 0 if axis is None else axis
    if isinstance(axis, Tensor):   # (bincount_ops' `axis not in [0, -1]` takes a comparison's truth:
        from simdist.runtime import symbolic   # in a tf.function OperatorNotAllowedInGraphError; fz14 seed
        symbolic.check_truth_taken(axis)       # 1420261219 #101)
    if axis not in (0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are currently supported.")
    attrs = {"minlength": -1 if minlength is None else int(minlength),
             "maxlength": -1 if maxlength is None else int(maxlength), "binary_output": bool(binary_output)}
    if isinstance(values, RaggedTensor):
        return _ragged_bincount(values, weights, axis, attrs)
    if axis == 0:
        if isinstance(values, SparseTensor):
            if weights is not None:
                weights = sparse_weights(values, weights)
            values = values.values
        else:
            if weights is not None:   # (tf.reshape's ragged dispatch: a RaggedTensor's flat values)
                from simdist.runtime.ops.ragged_rows import ragged_reshape  # noqa: PLC0415
                weights = ragged_reshape(array.reshape)(weights, [-1])
            values = array.reshape(values, [-1])
    if isinstance(values, SparseTensor):
        w = sparse_weights(values, weights)
        out = dispatch.execute(SPARSE_COUNT, (values.indices, values.values, values.dense_shape, w), attrs)
        result = SparseTensor(*out)
        from simdist.runtime.ops import composite_shapes
        if composite_shapes.in_trace():
            # (SparseCountSparseOutput's shape function: dense_shape a vector of the input indices' column count,
            # so a rank-3 input's counts have static rank 3 where the value has rank 2; TF 2.21 observed, fz55b_gen
            # seed 56203 #143, #180)
            from simdist.runtime.tensor import TensorShape
            cols = values.indices.shape[1]
            if cols is not None and int(cols) != int(result.dense_shape._v.shape[0]):
                result._static = TensorShape([None] * int(cols))
        return result
    else:
        out = dispatch.execute(DENSE_COUNT, (values, dense_weights(values, weights)), attrs)
    return SparseTensor(*out)


def _weights_kind(weights: Any) -> str:
    """The class name TF's weights checks print: EagerTensor (SymbolicTensor in a graph) for a tensor."""
    from simdist.runtime import context  # noqa: PLC0415

    if isinstance(weights, Tensor):
        return "EagerTensor" if context.executing_eagerly() else "SymbolicTensor"
    return type(weights).__name__


def _assert_same(x: Any, y: Any, message: str) -> None:
    """check_ops.assert_equal(x, y, message) eagerly: InvalidArgumentError with its data where they differ (and
    equal's own error where their shapes do not broadcast)."""
    from simdist.runtime import assert_messages  # noqa: PLC0415
    from simdist.runtime.ops import math  # noqa: PLC0415

    x, y = convert_to_tensor(x), convert_to_tensor(y)
    if x.shape.as_list() != y.shape.as_list() or not np.array_equal(np.asarray(x._v), np.asarray(y._v)):
        test = math.equal(x, y)
        if bool(np.all(np.asarray(test._v))):
            return
        raise errors.InvalidArgumentError(None, None, assert_messages.eager_message(
            message, assert_messages.eager_binary_data("==", x, y, test, 3), 3))


def ragged_weights(values: Any, weights: Any) -> Any:
    """ragged_bincount_ops.validate_ragged_weights: an empty vector of the values' dtype for no weights, else the
    weights' flat values (a RaggedTensor of the same row splits)."""
    from simdist.runtime.ragged_tensor import RaggedTensor  # noqa: PLC0415

    if weights is None:
        return convert_to_tensor(np.zeros(0, values.values.dtype._np))
    if not isinstance(weights, RaggedTensor):
        raise ValueError(f"`weights` must be a RaggedTensor if `values` is a RaggedTensor. Received argument "
                         f"weights={weights} of type: {_weights_kind(weights)}.")
    if weights.row_splits is not values.row_splits:
        _assert_same(weights.row_splits, values.row_splits, "'weights' and 'values' must have the same row splits.")
    return weights.values


def sparse_weights(values: SparseTensor, weights: Any, dtype: Any = None) -> Tensor:
    """sparse_ops.validate_sparse_weights: an empty vector of ``dtype`` (else the values' dtype) for no weights, else
    the weights' values: a SparseTensor with the values' dense shape and indices (each compared by assert_equal
    unless it is the same tensor)."""
    if weights is None:
        return convert_to_tensor(np.zeros(0, dtypes.as_dtype(dtype or values.values.dtype)._np))
    if not isinstance(weights, SparseTensor):
        raise ValueError(f"Argument `weights` must be a SparseTensor if `values` is a SparseTensor. Received "
                         f"weights={weights} of type: {_weights_kind(weights)}")
    if weights.dense_shape is not values.dense_shape:
        _assert_same(weights.dense_shape, values.dense_shape, "'weights' and 'values' must have the same dense shape.")
    if weights.indices is not values.indices:
        _assert_same(weights.indices, values.indices, "'weights' and 'values' must have the same indices.")
    return weights.values


def dense_weights(values: Tensor, weights: Any, dtype: Any = None) -> Tensor:
    """bincount_ops.validate_dense_weights: an empty vector of ``dtype`` (else the values' dtype) for no weights; a
    weights argument that is not a tensor (a SparseTensor, a RaggedTensor) is ValueError."""
    if weights is None:
        return convert_to_tensor(np.zeros(0, dtypes.as_dtype(dtype or values.dtype)._np))
    if not isinstance(weights, Tensor):
        raise ValueError(f"Argument `weights` must be a tf.Tensor if `values` is a tf.Tensor. Received "
                         f"weights={weights} of type: {type(weights).__name__}")
    return weights


def _ragged_bincount(values: Any, weights: Any, axis: int, attrs: dict[str, Any]) -> SparseTensor:
    """tf.sparse.bincount of a RaggedTensor: axis 0 counts its flat values (dense counting), -1 each row."""
    from simdist.runtime.ops import raw_ragged  # noqa: PLC0415
    from simdist.runtime.ragged_tensor import RaggedTensor  # noqa: PLC0415

    if axis == 0:
        if weights is not None:
            weights = ragged_weights(values, weights)
        values = values.values
    if isinstance(values, RaggedTensor):
        w = ragged_weights(values, weights)
        out = raw_ragged.ragged_count_sparse_output(values.row_splits, values.values, w, attrs["binary_output"],
                                                    attrs["minlength"], attrs["maxlength"])
    else:
        w = weights if weights is not None else convert_to_tensor(np.zeros(0, values.dtype._np))
        out = dispatch.execute(DENSE_COUNT, (values, w), attrs)
    return SparseTensor(*out)


# --- EditDistance --------------------------------------------------------------------------------------------------

def _levenshtein(a: list, b: list) -> int:
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (0 if a[i - 1] == b[j - 1] else 1))
        prev = cur
    return prev[-1]


def _runs(ind: np.ndarray, val: np.ndarray) -> list[tuple[tuple, list]]:
    """The runs of consecutive entries with one index prefix, in stored order (SparseTensor::group)."""
    out: list[tuple[tuple, list]] = []
    for n in range(ind.shape[0]):
        key = tuple(int(i) for i in ind[n, :-1])
        v = val[n].item() if hasattr(val[n], "item") else val[n]
        if out and out[-1][0] == key:
            out[-1][1].append(v)
        else:
            out.append((key, [v]))
    return out


def _edit_distance(hi: np.ndarray, hv: np.ndarray, hs: np.ndarray, ti: np.ndarray, tv: np.ndarray, ts: np.ndarray,
                   normalize: bool = True) -> np.ndarray:
    op = "EditDistance"
    if hs.shape[0] < 2 or ts.shape[0] < 2:
        which, rank = ("hypothesis", hs.shape[0]) if hs.shape[0] < 2 else ("truth", ts.shape[0])
        raise invalid(f"Input SparseTensors must have rank at least 2, but {which}_shape rank is: {rank}", op)
    if hs.shape[0] != ts.shape[0]:
        raise invalid(f"truth and hypothesis have differing ranks; hypothesis_shape rank is: {hs.shape[0]} while "
                      f"truth_shape rank is: {ts.shape[0]}", op)
    out_shape = np.maximum(hs[:-1], ts[:-1]).astype(np.int64)
    out = np.zeros(tuple(out_shape), np.float32)
    hyp, truth = _runs(hi, hv), _runs(ti, tv)
    for key in [k for k, _ in hyp + truth]:
        if any(not 0 <= k < d for k, d in zip(key, out_shape)):
            raise invalid(f"Index {list(key)} is out of bounds of the output shape {out_shape.tolist()}", op)
    i = j = 0
    while i < len(hyp) or j < len(truth):   # the kernel's walk over both runs as if ordered
        if i < len(hyp) and j < len(truth) and hyp[i][0] == truth[j][0]:
            d = np.float32(_levenshtein(hyp[i][1], truth[j][1]))
            out[hyp[i][0]] = d / np.float32(len(truth[j][1])) if normalize else d
            i, j = i + 1, j + 1
        elif j >= len(truth) or (i < len(hyp) and hyp[i][0] < truth[j][0]):
            out[hyp[i][0]] = np.float32(np.inf) if normalize else np.float32(len(hyp[i][1]))
            i += 1
        else:
            out[truth[j][0]] = np.float32(1.0) if normalize else np.float32(len(truth[j][1]))
            j += 1
    return out


def _edit_rule(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[4] != dts[1]:
        raise invalid(f"cannot compute EditDistance as input #4(zero-based) was expected to be a {tf_name(dts[1])} "
                      f"tensor but is a {tf_name(dts[4])} tensor", "EditDistance")
    return dtypes.float32


EDIT_DISTANCE = register("EditDistance", _edit_distance, _edit_rule, lambda a, out, at: float(a[1].size * a[4].size),
                         kind="gather/scatter", fusion=_VALUE_DEPENDENT)
NotDifferentiable("EditDistance")


def edit_distance(hypothesis: Any, truth: Any, normalize: bool = True, name: str = "edit_distance") -> Tensor:
    """`tf.edit_distance`: the Levenshtein distance between the sequences of two SparseTensors."""
    if not isinstance(hypothesis, SparseTensor):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, SparseTensor):
        raise TypeError("Truth must be a SparseTensor.")
    return dispatch.execute(EDIT_DISTANCE, (hypothesis.indices, hypothesis.values, hypothesis.dense_shape,
                                            truth.indices, truth.values, truth.dense_shape),
                            {"normalize": bool(normalize)})

