"""Counting ops: tf.unique, tf.unique_with_counts, tf.math.bincount, tf.math.count_nonzero and
tf.math.in_top_k (= tf.nn.in_top_k), as TF 2.21's kernels and Python wrappers compute them.

- Unique / UniqueWithCounts: 1-D input; values in order of first appearance, each input's index
  into them (out_idx int32 or int64), the counts. Equality is C++'s: -0.0 and 0.0 are one value
  (the first seen is kept), every NaN is a value of its own.
- DenseBincount (bincount_ops.bincount): non-integer input is cast to int32; the size is
  max(arr) + 1 (0 when empty), at least minlength, at most maxlength; values >= size are
  dropped, a negative value is InvalidArgumentError; axis None/0 flattens, -1 counts each row of
  a rank-2 input; weights (a Tensor of arr's shape) give the output dtype, else `dtype`.
- count_nonzero: reduce_sum(cast(x != 0, int64)) cast to `dtype` (math_ops.count_nonzero_v2).
- InTopKV2: float32 predictions [batch, classes], int32/int64 targets; a target is in the top k
  when fewer than k classes predict strictly more than it; a row holding a non-finite
  prediction, or a target out of range, gives False (in_topk_op.h).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import (alloc, args, attr_rules, dispatch, graph_constants, graph_inputs, partial_values, static_shapes,
                                 trace_errors)
from simdist.runtime.ops.attr_rules import make_bool as _make_bool   # (the wrappers' make_bool: ops.attr-types)
from simdist.runtime.ops.op_outputs import named_outputs
from simdist.runtime.ops.registry import NotDifferentiable, RegisterGradient, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["unique", "unique_with_counts", "bincount", "count_nonzero", "in_top_k"]

_PER_LANE = lanes("its output's length depends on the lane's values")


def no_tf_gradient(op_type: str) -> None:
    """TF 2.21 registers no gradient for op_type (nor declares it not differentiable): a tape
    that reaches it raises LookupError, as registry.gradient_function words it."""
    def grad(op: Any, *grads: Any) -> list:
        from simdist.runtime.ops import registry
        registry.gradient_function(registry.OpDef(op_type, lambda: None, lambda d, a: None, kind="shape"))
        return []
    grad.no_tf_gradient = True   # type: ignore[attr-defined]  # (autodiff/tape.py check_function_backward)
    RegisterGradient(op_type)(grad)


def _unique(x: np.ndarray, out_idx: dtypes.DType, counts: bool = False) -> tuple[np.ndarray, ...]:
    if x.ndim != 1:
        # (traced: Unique's shape function asserts rank 1 where the graph knows the rank, ValueError;
        # UniqueWithCounts's sets its outputs only, so the kernel refuses it when the graph runs;
        # fz14 seed 14 #769, seed 1420261202 #554, #729)
        op = f"Unique{'WithCounts' * counts}"
        err = errors.InvalidArgumentError(None, None, f"unique expects a 1D vector. [Op:{op}]")
        if counts:
            raise err
        raise trace_errors.mark_shape(err, f"Shape must be rank 1 but is rank {x.ndim}", op, [list(x.shape)])
    first: dict[Any, int] = {}
    idx = np.empty(x.shape[0], dtype=out_idx._np)
    keep: list[int] = []
    items = x.tolist()
    # float16 and bfloat16: -0.0 and 0.0 are two values (TF hashes them by their bits); other floats: one, and
    # under DAZ a float32/float64 subnormal is that value too (std::hash<double> hashes a value
    # `== 0.0` as 0 and `==` reads it as zero: unique([0.0, 5e-324]) is [0.0], seed 54 #27)
    if x.dtype == np.float16 or x.dtype.name == "bfloat16":   # (bfloat16 too: fz34a, sig seed 3420261211 #199)
        keys = x.view(np.uint16).tolist()
    elif x.dtype in (np.float32, np.float64):
        from simdist.runtime import subnormals
        keys = subnormals.flushed(x).tolist()
    else:
        keys = items
    for i, (v, key) in enumerate(zip(items, keys)):
        if isinstance(v, float) and v != v:     # NaN: a value of its own
            idx[i] = len(keep)
            keep.append(i)
            continue
        j = first.get(key)
        if j is None:
            j = first[key] = len(keep)
            keep.append(i)
        idx[i] = j
    y = x[np.asarray(keep, dtype=np.int64)]
    if not counts:
        return y, idx
    return y, idx, np.bincount(idx.astype(np.int64), minlength=len(keep)).astype(out_idx._np)


def _idx_rule(name: str, n: int) -> Any:
    def rule(dts: Any, attrs: Any) -> tuple:
        # (the NodeDef's out_idx list before the kernel lookup: `unique_with_counts(complex128, out_idx=tf.uint8)` is
        # InvalidArgumentError "Value for attr 'out_idx' of uint8", int32 the missing kernel's NotFoundError; fz49,
        # fz14 seed 1420493003 #11, observed)
        o = attrs["out_idx"]
        if o not in (dtypes.int32, dtypes.int64):
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'out_idx' of {args.tf_name(o)} is not in the "
                                              f"list of allowed values: int32, int64 [Op:{name}]")
        if dts[0].kind == "c":   # (unique_op.cc registers real types, bool and string only)
            raise args.no_kernel(name, dts[0], f", out_idx=DT_{attrs['out_idx'].name.upper()}")
        return (dts[0],) + (o,) * (n - 1)
    return rule


UNIQUE = register("Unique", lambda x, out_idx: _unique(x, out_idx), _idx_rule("Unique", 2),
                  num_outputs=2, kind="gather/scatter", fusion=_PER_LANE)
UNIQUE_WITH_COUNTS = register("UniqueWithCounts", lambda x, out_idx: _unique(x, out_idx, True),
                              _idx_rule("UniqueWithCounts", 3), num_outputs=3, kind="gather/scatter",
                              fusion=_PER_LANE)
# (Unique's shape function sees the rank only where the graph knows it)
UNIQUE.shape_fn = lambda shapes, attrs: shapes[0] is not None
no_tf_gradient("Unique")
no_tf_gradient("UniqueWithCounts")
# (UniqueWithCounts' shape function: y and count vectors the graph cannot size, idx the input's shape;
# a dry run goes on with them past the kernel's rank refusal, as TF's trace does: the later TypeError
# of a Sub or an autopacked erf; fz27b, fz14_known's call:unique_with_counts classes)
UNIQUE_WITH_COUNTS.standin = lambda arrays, attrs: ((arrays[0].size,), arrays[0].shape, (arrays[0].size,))


def unique(x: Any, out_idx: Any = dtypes.int32, name: str | None = None) -> tuple[Tensor, Tensor]:
    """`tf.unique`: (values in order of first appearance, index of each input into them). In a
    tf.function Unique's shape function wants a vector (ValueError at trace, before the graph
    finds no kernel for a dtype such as complex128)."""
    xt = convert_to_tensor(x)
    if context.in_function():
        # (op_def_library checks the attrs' allowed types before the shape function: `tf.unique(int64 [3, 3, 1],
        # out_idx=tf.uint32)` is TypeError "Value passed to parameter 'out_idx' has DataType uint32 not in list of
        # allowed values: int32, int64" at trace; fz47: fz14 seed 1420473002 #94)
        from simdist.runtime.ops import raw_ops, raw_rules
        raw_rules.check_attrs("Unique", raw_ops.opdefs()["ops"]["Unique"],
                              {"T": xt.dtype, "out_idx": dtypes.as_dtype(out_idx)})
    if context.in_function() and not static_shapes.rank_unknown(xt) and xt.ndim != 1:
        raise trace_errors.shape_error("unique expects a 1D vector. [Op:Unique]",
                                       f"Shape must be rank 1 but is rank {xt.ndim}", "Unique", [xt.shape.as_list()])
    y, idx = dispatch.execute(UNIQUE, (xt,), {"out_idx": dtypes.as_dtype(out_idx)})
    # (a traced graph knows not how many values are unique)
    return named_outputs("Unique", (static_shapes.mark_dim(y, 0), idx))


def unique_with_counts(x: Any, out_idx: Any = dtypes.int32, name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """`tf.unique_with_counts`: unique's two outputs and how often each value occurs (in a tf.function op_def_library's
    TypeError for an out_idx outside int32/int64 first, as `unique`)."""
    xt = convert_to_tensor(x)
    if context.in_function():
        from simdist.runtime.ops import raw_ops, raw_rules
        raw_rules.check_attrs("UniqueWithCounts", raw_ops.opdefs()["ops"]["UniqueWithCounts"],
                              {"T": xt.dtype, "out_idx": dtypes.as_dtype(out_idx)})
    y, idx, count = dispatch.execute(UNIQUE_WITH_COUNTS, (xt,), {"out_idx": dtypes.as_dtype(out_idx)})
    return named_outputs("UniqueWithCounts", (static_shapes.mark_dim(y, 0), idx, static_shapes.mark_dim(count, 0)))


# --- bincount ----------------------------------------------------------------------------------------------
def _dense_bincount(arr: np.ndarray, weights: np.ndarray, size: int, binary_output: bool,
                    size_of: tuple | None = None) -> np.ndarray:
    if size_of is not None:   # (a recorded call's size, computed from each call's values: `_size_of`)
        size = _size_of(arr, *size_of)
    if arr.ndim > 2:
        raise trace_errors.shape_error(f"Shape must be at most rank 2 but is rank {arr.ndim} [Op:DenseBincount]",
                                       f"Shape must be at most rank 2 but is rank {arr.ndim}", "DenseBincount",
                                       [list(arr.shape), [], list(weights.shape)])
    # (the output is allocated before the values are checked: a size too large to allocate is
    # ResourceExhaustedError even beside a negative value; fz5 seed 62 #145)
    out_shape, out_dt = ([arr.shape[0]] if arr.ndim == 2 else []) + [size], dtypes.as_dtype(weights.dtype)
    alloc.check_output("DenseBincount", out_shape, out_dt, limit=alloc.HOST_BYTES)
    if arr.ndim < 2 and arr.size and arr.min() < 0:   # (BincountFunctor's check; rows: _rows_sign_check)
        raise errors.InvalidArgumentError(None, None, "Input arr must be non-negative! [Op:DenseBincount]")
    if arr.ndim == 2:
        _rows_sign_check(arr)
    alloc.check_output("DenseBincount", out_shape, out_dt)
    rows = arr if arr.ndim == 2 else arr.reshape(1, -1)
    w = weights.reshape(rows.shape) if weights.size else None
    out = np.zeros((rows.shape[0], size), dtype=weights.dtype)
    for r in range(rows.shape[0]):
        keep = (rows[r] >= 0) & (rows[r] < size)
        ids = rows[r][keep].astype(np.int64)
        if binary_output:
            out[r, ids] = 1
        elif w is None:
            np.add.at(out[r], ids, 1)
        else:
            np.add.at(out[r], ids, w[r][keep])
    return out if arr.ndim == 2 else out[0]


def _rows_sign_check(arr: np.ndarray) -> None:
    """TF 2.21's rank-2 DenseBincount keeps the last negative value in row-major order in a 32-bit
    int and raises when that int is negative: an int64 value whose low 32 bits are non-negative
    (-2**32, the int64 minimum) passes the check, and hides any negative value before it. Values
    that pass while negative are not counted (docs/spec.md `ops.counting`)."""
    neg = arr[arr < 0]
    if not neg.size:
        return
    last = int(neg[-1].astype(np.int64).astype(np.uint64) & np.uint64(0xFFFFFFFF))
    last = last - (1 << 32) if last >= 1 << 31 else last
    if last < 0:
        raise errors.InvalidArgumentError(None, None, "Input 'in' must be non-negative! Negative input value found: "
                                          f"{last} [Op:DenseBincount]")


def _bincount_rule(dts: Any, attrs: Any) -> dtypes.DType:
    tidx, t = dts
    if tidx not in (dtypes.int32, dtypes.int64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'Tidx' of {args.tf_name(tidx)} is not in the "
                                          "list of allowed values: int32, int64 [Op:DenseBincount]")
    if t not in (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {args.tf_name(t)} is not in the list of "
                                          "allowed values: int32, int64, float, double [Op:DenseBincount]")
    return t


DENSE_BINCOUNT = register("DenseBincount", _dense_bincount, _bincount_rule, lambda arrays, out, attrs: arrays[0].size,
                          kind="gather/scatter", fusion=_PER_LANE)
no_tf_gradient("DenseBincount")


def _bincount_static(a: dict) -> list[int | None] | None:
    """bincount's static shape when the graph does not know the values or minlength/maxlength: an unknown
    length (its output size is computed from the values' maximum; the leading dimensions of a 2-D input for
    axis=-1)."""
    arr = a["arr"]
    if a["axis"] is not None and int(a["axis"]) == -1 and isinstance(arr, Tensor):
        known = static_shapes.known_shape(arr)
        return None if known is None else known[:-1] + [None]
    return [None]


@partial_values.shaped("arr", "minlength", "maxlength", rule=_bincount_static)
def bincount(arr: Any, weights: Any = None, minlength: Any = None, maxlength: Any = None, dtype: Any = dtypes.int32,
             name: str | None = None, axis: Any = None, binary_output: bool = False) -> Tensor:
    """`tf.math.bincount`: how often each value 0..size-1 occurs in `arr` (or the sum of its weights)."""
    from simdist.runtime.ops import array, math
    from simdist.runtime.ragged_tensor import RaggedTensor
    from simdist.runtime.sparse_tensor import SparseTensor
    if isinstance(arr, RaggedTensor):
        return _ragged_bincount(arr, weights, minlength, maxlength, dtype, axis, binary_output)
    if isinstance(arr, SparseTensor):
        from simdist.runtime.ops import sparse_bincount
        return sparse_bincount.bincount(arr, weights, minlength, maxlength, dtype, axis, binary_output)
    a = convert_to_tensor(arr)
    w = convert_to_tensor(weights) if weights is not None else None
    if w is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify only one.")
    if not a.dtype.is_integer:
        a = math.cast(a, dtypes.int32)
    axis = check_axis(axis)
    npd = a.dtype._np
    for b in (minlength, maxlength):
        if b is not None and not isinstance(b, Tensor) and np.ndim(b) > 0:
            # (a bound of rank 1 or more broadcasts into the size, maximum(minlength, .): DenseBincount's size wants
            # rank 0, InvalidArgumentError "Shape must be rank 0 but is rank 1" (a NumPy [1] array too), the shape
            # function's ValueError when traced; TF 2.21 observed, npsweep67)
            raise trace_errors.shape_error(f"Shape must be rank 0 but is rank {np.ndim(b)} [Op:DenseBincount]",
                                           f"Shape must be rank 0 but is rank {np.ndim(b)}", "DenseBincount",
                                           [a.shape.as_list(), list(np.shape(b)), []])
    # (TF's size is a tensor of the graph, `reduce_max(arr) + 1` bounded: a recorded call whose values vary computes
    # it in the kernel from each call's values, so the call is recorded and replayed, its Python run once, as TF
    # traces once; fz55's class, the fz54b generator's seeds 55101-55103: 12 of 24 programs ran their Python twice)
    varies = _varies(a)
    size_of = None
    if varies:
        bounds = tuple(None if b is None else dispatch.static_value(convert_to_tensor(b, dtype=a.dtype))
                       for b in (minlength, maxlength))
        size_of = (npd.name, *(None if b is None else int(b) for b in bounds))
        size_v = np.asarray(_size_of(dispatch.raw(a), *size_of))
    else:
        v = dispatch.static_value(a)
        with np.errstate(over="ignore"):
            # cast(size(arr) > 0) * (reduce_max(arr) + 1), in arr's dtype (uint64's 2**64 - 1 wraps to 0)
            size_v = (v.max() + np.ones((), npd)).astype(npd) if v.size else np.zeros((), npd)
            size_v = bounded_size(size_v, a.dtype, minlength, maxlength)
    if axis == 0:
        if w is not None:
            w = array.reshape(w, [-1])
        a = array.reshape(a, [-1])
    return dense_bincount(a, w, int(size_v), dtype, binary_output, (minlength, maxlength), size_of)


def _varies(t: Tensor) -> bool:
    """Whether t's value may differ between replays of the call being recorded (a Python read of it would keep the
    call eager: Recorder.is_constant)."""
    from simdist.runtime import execution
    rec = execution.current().recorder
    return rec is not None and hasattr(rec, "is_constant") and not rec.is_constant(t)


def _size_of(arr: np.ndarray, dtype_name: str, minlength: int | None, maxlength: int | None) -> int:
    """bincount's size from arr's values: cast(size(arr) > 0) * (reduce_max(arr) + 1) in arr's dtype (wrapping),
    then maximum(minlength, .), minimum(maxlength, .) (each bound in that dtype); a negative size is DenseBincount's
    InvalidArgumentError."""
    npd = np.dtype(dtype_name)
    with np.errstate(over="ignore"):
        size_v = (arr.max() + np.ones((), npd)).astype(npd) if arr.size else np.zeros((), npd)
        if minlength is not None:
            size_v = np.maximum(np.asarray(minlength).astype(npd), size_v)
        if maxlength is not None:
            size_v = np.minimum(np.asarray(maxlength).astype(npd), size_v)
    size = int(size_v)
    if size < 0:
        raise errors.InvalidArgumentError(None, None, f"size ({size}) must be non-negative [Op:DenseBincount]")
    return size


def check_axis(axis: Any) -> int:
    """bincount's axis: None is 0; only 0 and -1 are taken."""
    axis = 0 if axis is None else axis
    if isinstance(axis, Tensor):   # (bincount_ops' `axis not in [0, -1]` takes a comparison's truth:
        from simdist.runtime import symbolic   # in a tf.function OperatorNotAllowedInGraphError; fz14 seed
        symbolic.check_truth_taken(axis)       # 1420261219 #101)
    if axis not in (0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are currently supported.")
    return axis


def bounded_size(size_v: np.ndarray, dtype: dtypes.DType, minlength: Any, maxlength: Any) -> np.ndarray:
    """gen_math_ops.maximum(minlength, size), then minimum(maxlength, size), each bound converted to the values'
    dtype."""
    for bound, pick in ((minlength, np.maximum), (maxlength, np.minimum)):
        if bound is not None:
            size_v = pick(dispatch.static_value(convert_to_tensor(bound, dtype=dtype)), size_v)
    return size_v


def dense_bincount(a: Tensor, w: Tensor | None, size: int, dtype: Any, binary_output: Any,
                   bounds: tuple = (None, None), size_of: tuple | None = None) -> Tensor:
    """validate_dense_weights, then gen_math_ops.dense_bincount: DenseBincount of `a` into `size` bins (``bounds``,
    the minlength and maxlength a traced size was made of)."""
    from simdist.runtime.ops import array
    if w is None:
        w = array.constant(np.zeros([0], dtypes.as_dtype(dtype)._np), dtype=dtypes.as_dtype(dtype))
    # (gen_math_ops.dense_bincount converts its bool attr before the kernel or, traced, the shape function
    # judges the size: `binary_output=np.bool_(True)` is make_bool's TypeError; fz33b, fz14 seed 1420333002 #266)
    binary = _make_bool(binary_output, "binary_output", DENSE_BINCOUNT.name)
    # (the op's types before its size and weights checks: op_def_library's in a graph, the NodeDef's eagerly;
    # uint64 weights are T's error, not the weights' shape; fz38b, fz14 seed 1420383003 #157)
    graph_inputs.check("DenseBincount", (a, size, w))
    DENSE_BINCOUNT.dtype((a.dtype, w.dtype), None)
    if size < 0:
        err = errors.InvalidArgumentError(None, None, f"size ({size}) must be non-negative [Op:DenseBincount]")
        if context.in_function() and graph_constants.known(a, *bounds):
            # DenseBincount's shape function evaluates a constant size (graph_constants.py)
            raise trace_errors.mark_shape(err, f"size ({size}) must be non-negative", "DenseBincount",
                                          [a.shape.as_list(), [], w.shape.as_list()])
        raise err
    if w.shape.num_elements() and w.shape.as_list() != a.shape.as_list():
        # (DenseBincount's kernel check, after axis 0 flattened both: fz11, fz4 seed 41 #95)
        dims = "[" + ",".join(str(d) for d in w.shape.as_list()) + "]"
        raise errors.InvalidArgumentError(None, None, "`weights` must be the same shape as `arr` or a length-0 "
                                          "`Tensor`, in which case it acts as all weights equal to 1. Received "
                                          f"{dims} [Op:DenseBincount]")
    attrs: dict = {"size": size, "binary_output": binary}
    if size_of is not None:   # (the size computed again from each replay's values: bincount)
        attrs["size_of"] = size_of
    return dispatch.execute(DENSE_BINCOUNT, (a, w), attrs)


def _ragged_bincount(arr: Any, weights: Any, minlength: Any, maxlength: Any, dtype: Any, axis: Any,
                     binary_output: bool) -> Tensor:
    """ragged_bincount_ops.bincount: the size from the flat values as the dense op's; axis 0 counts
    the flat values (DenseBincount; RaggedTensor weights checked level by level, then their flat
    values), -1 each row of a ragged_rank-1 tensor (RaggedBincount: a dense [nrows, size] result,
    the weights' dtype with weights, values >= size dropped, a negative one InvalidArgumentError)."""
    from simdist.runtime.ops import math
    from simdist.runtime.ops.sparse_count import ragged_weights
    from simdist.runtime.ragged_tensor import RaggedTensor
    from simdist.runtime.sparse_tensor import SparseTensor
    if weights is not None and not isinstance(weights, (SparseTensor, RaggedTensor)):
        weights = convert_to_tensor(weights)
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify only one.")
    flat = arr.flat_values
    if not flat.dtype.is_integer:
        flat = math.cast(flat, dtypes.int32)
    axis = check_axis(axis)
    if axis == 0:
        level = arr
        while isinstance(level, RaggedTensor):   # (each ragged level's weights checked against its splits)
            if weights is not None:
                weights = ragged_weights(level, weights)
            level = level.values
        return bincount(flat, weights, minlength, maxlength, dtype, binary_output=binary_output)
    if arr.ragged_rank != 1:   # (RaggedBincount is handed the nested values: their conversion fails)
        raise ValueError("TypeError: object of type 'RaggedTensor' has no len()\n")
    w = None if weights is None else np.asarray(ragged_weights(arr, weights)._v)
    v = dispatch.static_value(flat)
    size = int(v.max()) + 1 if v.size else 0
    for bound, pick in ((minlength, max), (maxlength, min)):
        if bound is not None:
            size = pick(int(dispatch.static_value(convert_to_tensor(bound, dtype=flat.dtype))), size)
    if (v < 0).any():
        raise errors.InvalidArgumentError(None, None, "Input must be non-negative [Op:RaggedBincount]")
    splits = arr.row_splits._v.tolist()
    out_dtype = dtypes.as_dtype(dtype) if w is None else dtypes.as_dtype(w.dtype)
    out = np.zeros((len(splits) - 1, max(size, 0)), out_dtype._np)
    for i, (a, b) in enumerate(zip(splits, splits[1:])):
        row = v[a:b].astype(np.int64)
        keep = row < size
        if w is not None:   # (RaggedBincount: each value's weight added in its row's order)
            for value, weight in zip(row[keep], w[a:b][keep]):
                out[i, value] += weight
            continue
        counts = np.bincount(row[keep], minlength=size)[:size] if size > 0 else np.zeros(0, np.int64)
        out[i] = np.minimum(counts, 1) if binary_output else counts
    return convert_to_tensor(out, dtype=out_dtype)


def count_nonzero(input: Any, axis: Any = None, keepdims: Any = None, dtype: Any = dtypes.int64,  # noqa: A002
                  name: str | None = None) -> Tensor:
    """`tf.math.count_nonzero`: reduce_sum(cast(input != zeros([], input.dtype), int64)), cast to `dtype` (a string
    input counts its non-empty strings: zeros of string are b""; fz66, fz62gen seed 66409 #6)."""
    from simdist.runtime.ops import array, math
    t = convert_to_tensor(input)
    pred = t if t.dtype is dtypes.bool_ else math.not_equal(t, array.zeros([], dtype=t.dtype))
    return math.cast(math.reduce_sum(math.cast(pred, dtypes.int64), axis=axis,
                                     keepdims=False if keepdims is None else keepdims), dtype)


# --- in_top_k ----------------------------------------------------------------------------------------------
def _in_top_k(predictions: np.ndarray, targets: np.ndarray, k: np.ndarray) -> np.ndarray:
    shapes = [list(predictions.shape), list(targets.shape), list(np.shape(k))]
    if predictions.ndim != 2:
        raise trace_errors.shape_error("predictions must be 2-dimensional [Op:InTopKV2]",
                                       f"Shape must be rank 2 but is rank {predictions.ndim}", "InTopKV2", shapes)
    if targets.ndim != 1:
        raise trace_errors.shape_error("targets must be 1-dimensional [Op:InTopKV2]",
                                       f"Shape must be rank 1 but is rank {targets.ndim}", "InTopKV2", shapes)
    if np.ndim(k) != 0:   # (the kernel's alone: InTopKV2's shape function does not read k's rank)
        raise errors.InvalidArgumentError(None, None, "k must be 0-D, got shape " + args.dims(list(np.shape(k))) +
                                          " [Op:InTopKV2]")
    if predictions.shape[0] != targets.shape[0]:
        raise trace_errors.shape_error(
            f"First dimension of predictions {predictions.shape[0]} must match length of targets "
            f"{targets.shape[0]} [Op:InTopKV2]",
            f"Dimensions must be equal, but are {predictions.shape[0]} and {targets.shape[0]}", "InTopKV2", shapes)
    kk = int(k)
    n, classes = predictions.shape
    out = np.zeros(n, dtype=bool)
    for b in range(n):
        t = int(targets[b])
        row = predictions[b]
        if not 0 <= t < classes or not np.all(np.isfinite(row)):
            continue
        out[b] = int(np.count_nonzero(row > row[t])) < kk
    return out


def _in_top_k_rule(dts: Any, attrs: Any) -> dtypes.DType:
    p, t, k = dts
    if t not in (dtypes.int32, dtypes.int64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {args.tf_name(t)} is not in the list of "
                                          "allowed values: int32, int64 [Op:InTopKV2]")
    if p is not dtypes.float32:   # traced: op_def_library's check of the fixed float32 input, a TypeError
        raise trace_errors.static(
            errors.InvalidArgumentError(None, None, "cannot compute InTopKV2 as input #0(zero-based) was expected "
                                        f"to be a float tensor but is a {args.tf_name(p)} tensor [Op:InTopKV2]"),
            TypeError, f"Input 'predictions' of 'InTopKV2' Op has type {p.name} that does not match expected type "
                       "of float32.")
    return dtypes.bool_


IN_TOP_K = register("InTopKV2", _in_top_k, _in_top_k_rule, lambda arrays, out, attrs: arrays[0].size,
                    kind="sort", fusion=lanes("k and the class axis are one lane's"))


def _in_top_k_sees(shapes: list[Any], attrs: Any) -> bool:
    """InTopKV2's shape function (nn_ops.cc): predictions WithRank 2, targets WithRank 1, then Merge of
    their first dimensions; an unknown rank or dimension passes, and the kernel raises the error when
    the graph runs (fuzz20 sig seed 3320261206 #48: predictions of an input_signature's unknown rank)."""
    p, t = shapes[0], shapes[1]
    if p is not None and len(p) != 2 or t is not None and len(t) != 1:
        return True
    return p is not None and t is not None and p[0] is not None and t[0] is not None and p[0] != t[0]


IN_TOP_K.shape_fn = _in_top_k_sees
no_tf_gradient("InTopKV2")


def in_top_k(targets: Any, predictions: Any, k: Any, name: str | None = None) -> Tensor:
    """`tf.math.in_top_k` / `tf.nn.in_top_k`: whether each target is among its row's k largest
    predictions (ties count for the target; a non-finite row or an out-of-range target: False)."""
    # (predictions is typed float32: a value that is not a tensor converts with it on either path,
    # `in_top_k(np.float16(-1.5), 0, 2)` has predictions 0.0; fz14 seed 1420261218 #123)
    p = convert_to_tensor(predictions) if isinstance(predictions, Tensor) or hasattr(predictions, "_as_tensor") \
        else convert_to_tensor(predictions, dtype=dtypes.float32)
    if context.in_function():
        if not isinstance(targets, (Tensor, np.ndarray)) and not isinstance(k, Tensor) and p.dtype is not dtypes.float32:
            # (a graph: op_def_library's check of the fixed float32 input)
            raise TypeError(f"Input 'predictions' of 'InTopKV2' Op has type {p.dtype.name} that does not match "
                            "expected type of float32.")
    elif p.dtype is not dtypes.float32 and not attr_rules.fast_path_takes("InTopKV2", (predictions, targets, k)):
        # eagerly a call the fast path does not take (a list, a NumPy scalar other than np.float64)
        # runs in_top_kv2_eager_fallback: args_to_matching_eager of targets and k, then predictions'
        # convert_to_tensor to float32, its ValueError; on the fast path a tensor of another dtype
        # reaches the kernel ("cannot compute ... as input #0"), after the targets' conversion and
        # T's attr check (fz14 seed 1420262201 #149, #222)
        attr_rules.fallback_matching([targets, k])
        attr_rules.fallback_conversion(p, dtypes.float32)
    if type(targets) is float and not isinstance(k, Tensor) and \
            attr_rules.fast_path_takes("InTopKV2", (predictions, targets, k)):
        # the eager fast path converts a Python float with T's default int32 and lets its TypeError
        # out; a list input sends the call to the fallback, which infers float32: the attr error
        raise TypeError(f"Cannot convert {targets!r} to EagerTensor of dtype int32")
    if isinstance(targets, Tensor):
        t = targets
    elif isinstance(k, Tensor) and not context.in_function():   # T comes from k when it is a tensor (eagerly)
        t = convert_to_tensor(targets, dtype=k.dtype)
    else:   # else the fast path tries T's default int32, and infers the dtype where that fails (a Python []
        try:  # is int32; floats are float32, the attr check's error; 2**40 int64: fz14 seed 1420261219 #130)
            t = convert_to_tensor(targets, dtype=dtypes.int32)
        except (TypeError, ValueError):
            t = convert_to_tensor(targets)
    kt = None
    if not context.in_function() and not isinstance(k, Tensor):
        # the eager fast path converts a k that is not a tensor with T (from targets) before the
        # kernel checks T: `in_top_k(bool tensor, p, 2)` is "Cannot convert 2 to EagerTensor of dtype
        # bool" (TypeError), `in_top_k(float tensor, p, 2)` the attr error (fz30b: seed 1420303001 #11)
        kt = convert_to_tensor(k, dtype=t.dtype)
    if t.dtype not in (dtypes.int32, dtypes.int64):   # attr T (from targets) is checked before a tensor k's
        _in_top_k_rule((dtypes.float32, t.dtype, t.dtype), None)   # dtype, and before k is converted in a graph
    if isinstance(k, Tensor) and k.dtype != t.dtype:
        # (T is shared by targets and k: in a graph op_def_library binds it from targets, converted first, and
        # refuses k's other dtype (TypeError); eagerly two tensors take the fast path, whose kernel refuses input #2
        # (InvalidArgumentError). TF 2.21 observed, lsweep63: `in_top_k([0, 1], p, tf.constant(2, tf.int64))`
        # traced, `in_top_k(int64 targets, p, int32 k)`)
        if context.in_function():
            raise TypeError(f"Input 'k' of 'InTopKV2' Op has type {k.dtype.name} that does not match type "
                            f"{t.dtype.name} of argument 'targets'.")
        if isinstance(targets, Tensor) and k.dtype in (dtypes.int32, dtypes.int64):
            raise args.dtype_error("InTopKV2", 2, t.dtype, k.dtype)
    kt = convert_to_tensor(k, dtype=t.dtype) if kt is None else kt
    return dispatch.execute(IN_TOP_K, (p, t, kt))
