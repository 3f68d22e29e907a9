"""The tf.math functions TF 2.21 writes in Python over other ops (reciprocal_no_nan, lbeta,
polyval, scalar_mul, is_non_decreasing, is_strictly_increasing, zero_fraction, accumulate_n),
composed here of the same ops in the same order, so that their values, dtypes, errors and
gradients are those ops' (as in TF); and InvertPermutation, an op of its own (no gradient).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.indexed_slices import IndexedSlices
from simdist.runtime.ops import args, attr_rules, dispatch, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.op_outputs import named_outputs
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["approx_max_k", "approx_min_k", "approx_top_k", "erfcinv", "reciprocal_no_nan", "lbeta", "polyval", "scalar_mul", "is_non_decreasing", "is_strictly_increasing",
           "zero_fraction", "accumulate_n", "invert_permutation"]


def erfcinv(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.erfcinv`: -ndtri(0.5 * x) * sqrt(0.5), as math_ops.py writes it."""
    from simdist.runtime.ops.special_more import ndtri
    return -ndtri(0.5 * _t(x)) * float(np.sqrt(0.5))


def reciprocal_no_nan(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.reciprocal_no_nan`: div_no_nan(1, x) (0 where x == 0), as math_ops.py writes it."""
    from simdist.runtime.ops import math
    xt = _t(x)
    one = convert_to_tensor(1, dtype=xt.dtype)
    math.DIV_NO_NAN.dtype((one.dtype, xt.dtype), None)
    return math.binary(math.DIV_NO_NAN, one, xt)


def lbeta(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.lbeta`: log|Beta(x)| over the last axis: reduce_sum(lgamma(x), -1) - lgamma(reduce_sum(x, -1))."""
    from simdist.runtime.ops import math
    from simdist.runtime.ops.special import lgamma
    xt = _t(x)
    log_prod_gamma_x = math.reduce_sum(lgamma(xt), axis=[-1])
    sum_x = math.reduce_sum(xt, axis=[-1])
    return log_prod_gamma_x - lgamma(sum_x)


def polyval(coeffs: Any, x: Any, name: str | None = None) -> Tensor:
    """`tf.math.polyval(coeffs, x)`: Horner's method, p = c + p * x over the list `coeffs`
    (zeros_like(x) for an empty list)."""
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    from simdist.runtime.ops.array import zeros_like
    xt = _t(x)
    if len(coeffs) < 1:
        return zeros_like(xt)
    cs = [_t(c) for c in coeffs]
    p = cs[0]
    for c in cs[1:]:
        p = c + p * xt
    return p


def scalar_mul(scalar: Any, x: Any, name: str | None = None) -> Any:
    """`tf.math.scalar_mul` (also `tf.scalar_mul`): Mul(scalar, x), the scalar converted to x's
    dtype; an IndexedSlices x gets its values scaled. A scalar of rank > 0 is a ValueError."""
    from simdist.runtime.ops import math
    base = x.dtype
    s = scalar if isinstance(scalar, Tensor) and scalar.dtype == base else convert_to_tensor(scalar, dtype=base)
    if s.dtype != base:
        raise ValueError(f"Tensor conversion requested dtype {base.name} for Tensor with dtype {s.dtype.name}: {s!r}")
    if s.shape.ndims != 0:
        raise ValueError(f"The input scalar must be a 0-D value. Received shape {s.shape}.")
    if isinstance(x, IndexedSlices):
        return IndexedSlices(math.multiply(s, x.values), x.indices, x.dense_shape)
    return math.multiply(s, x)


_NUMERIC = ("f", "i", "u", "c")   # (TF's DType.is_numeric: complex too)


def _monotonic(x: Any, compare: Any) -> Tensor:
    from simdist.runtime.ops.array import constant, reshape
    from simdist.runtime.ops.reductions import reduce_all
    xt = reshape(_t(x), [-1])
    if xt.dtype.kind not in _NUMERIC:
        raise TypeError(f"Expected x to be numeric, instead found: {xt!r}")
    n = int(xt.shape[0])
    if n < 2:
        if context.in_function():   # (check_ops' cond builds both branches, so a graph compares x's dtype with 0:
            # LessEqual/Less refuse a complex x of any size, at trace for an unknown shape too; eagerly the short
            # branch alone runs, True for a complex x too; fz40, fourteenth generator sig seed 1420403003 #297)
            compare(xt[:0], xt[:0])
        return reduce_all(constant([], dtype=dtypes.bool_))
    return reduce_all(compare(xt[1:], xt[:-1]))


def is_non_decreasing(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.is_non_decreasing`: every x[i+1] >= x[i] in x flattened (True for < 2 elements;
    a NaN makes it False). Non-numeric x (bool, string) is a TypeError."""
    from simdist.runtime.ops import math
    return _monotonic(x, math.greater_equal)


def is_strictly_increasing(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.is_strictly_increasing`: every x[i+1] > x[i] in x flattened (True for < 2 elements)."""
    from simdist.runtime.ops import math
    return _monotonic(x, math.greater)


def zero_fraction(value: Any, name: str | None = None) -> Tensor:
    """`tf.math.zero_fraction` (also tf.nn's): float32(size - count_nonzero) / float32(size), the
    count taken in int32 and cast to int64 (NaN for an empty value, as 0 / 0)."""
    from simdist.runtime import graph_names
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import identity, size, zeros
    with graph_names.op_scope(name or "zero_fraction"):   # (its graph nodes below the scope; the result `fraction`)
        v = _t(value)
        n = size(v, out_type=dtypes.int64)
        zero = zeros([], dtype=v.dtype)
        nonzero = math.reduce_sum(math.cast(math.not_equal(v, zero), dtypes.int32))
        num_zero = n - math.cast(nonzero, dtypes.int64)
        return identity(math.cast(num_zero, dtypes.float32) / math.cast(n, dtypes.float32), name="fraction")


def accumulate_n(inputs: Any, shape: Any = None, tensor_dtype: Any = None, name: str | None = None) -> Tensor:
    """`tf.math.accumulate_n` (deprecated in TF, still present): add_n of tensors of one dtype and
    shape (`shape` merged with theirs); a single input is returned itself, or its identity when
    the call names the op."""
    from simdist.runtime.ops import math
    from simdist.runtime.tensor import TensorShape
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype and shape")
    ts = [x if isinstance(x, (Tensor, IndexedSlices)) else convert_to_tensor(x) for x in inputs]
    if not all(isinstance(x, Tensor) for x in ts) or not all(x.dtype == ts[0].dtype for x in ts):
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype and shape")
    from simdist.runtime import symbolic
    from simdist.runtime.ops import static_shapes
    if symbolic.DEPTH[0] and symbolic.is_graph(shape):   # (as_shape of a graph tensor; fz14 seed 14 #538)
        raise TypeError(f"Dimension value must be integer or None or have an __index__ method, got value "
                        f"'{shape!r}' with type '{type(shape)!r}'")
    merged = TensorShape(None) if shape is None else TensorShape(args.shape_arg(shape))
    for x in ts:
        xs = static_shapes.static_shape(x)     # (as a traced graph knows it: input_signature's None dimensions)
        if not merged.is_compatible_with(xs):
            raise ValueError(f"Shapes {merged} and {xs} are not compatible")
        m = static_shapes.merge([None if merged.rank is None else merged.as_list(), xs.as_list() if xs.rank is not None
                                 else None])
        merged = TensorShape(m if m is not False else None)
    if tensor_dtype is not None and dtypes.as_dtype(tensor_dtype) != ts[0].dtype:
        raise TypeError(f"The `tensor_dtype` argument is {dtypes.as_dtype(tensor_dtype)}, but `input` is of type "
                        f"{ts[0].dtype}. These must be equal. Try casting the input to the desired type.")
    if len(ts) == 1:
        if name is None:
            return ts[0]
        # (TF: `array_ops.identity(inputs[0], name=name)`, an op on the tape: the gradient of an
        # integer variable's read through it is None, seed 53 #238)
        from simdist.runtime.ops import array
        return array.identity(ts[0])
    return math.add_n(ts)


# --- InvertPermutation: an op of its own --------------------------------------------------------------------
def _invert(p: np.ndarray) -> np.ndarray:
    """InvertPermutationOp: each entry in [0, n) and none repeated (the kernel's checks, so a raw call
    makes them too: fuzz20 seed 2520261205 #2, where NumPy wrapped -1), after its vector check (a raw [[0]]
    was computed: fz35a, tape seed 3520261209 #191), then y[x[i]] = i."""
    if p.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "invert_permutation expects a 1D vector. [Op:InvertPermutation]")
    n = p.size
    seen = np.zeros(n, bool)
    for d in p.reshape(-1).tolist():
        if not 0 <= d < n:
            raise errors.InvalidArgumentError(None, None, f"{d} is not between 0 and {n} [Op:InvertPermutation]")
        if seen[d]:
            raise errors.InvalidArgumentError(None, None, f"{d} is duplicated in the input. [Op:InvertPermutation]")
        seen[d] = True
    out = np.empty_like(p)
    out[p] = np.arange(p.size, dtype=p.dtype)
    return out


def _int32_int64(name: str) -> Any:
    """int32 or int64 only (int8/int16 and unsigned: InvalidArgumentError), one dtype for all inputs."""
    base = args.same_dtype(name)

    def rule(dts: Any, attrs: Any) -> Any:
        d = base(dts, attrs)
        if d.name not in ("int32", "int64"):
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {args.tf_name(d)} is not in the list "
                                              f"of allowed values: int32, int64 [Op:{name}]")
        return d
    return rule


INVERT_PERMUTATION = register("InvertPermutation", _invert, _int32_int64("InvertPermutation"),
                              args.zero_flops, kind="gather/scatter",
                              fusion=lanes("its values must be checked as a permutation before it runs: run per lane"))
NotDifferentiable("InvertPermutation")


def invert_permutation(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.invert_permutation`: y[x[i]] = i for a 1-D permutation x of 0..n-1 (int32/int64);
    a value out of range or repeated is InvalidArgumentError."""
    from simdist.runtime.ops import graph_inputs
    # (a non-tensor x converts as the op's T, default int32, takes it: attr_rules.default_group
    # eagerly, in a graph op_def_library's own-dtype-else-default rule)
    xt = graph_inputs.convert("InvertPermutation", x) if context.in_function() else attr_rules.default_group(
        [x], dtypes.int32, ("int32", "int64"), attr_rules.fast_path_takes("InvertPermutation", (x,)))[0]
    INVERT_PERMUTATION.dtype((xt.dtype,), None)
    if xt.shape.ndims != 1:   # (traced: InvertPermutation's shape function, WithRank(x, 1); fz16d)
        from simdist.runtime.ops import array_shape_fns, static_shapes
        known = static_shapes.known_shape(xt)
        raise array_shape_fns.marked(errors.InvalidArgumentError(
            None, None, "invert_permutation expects a 1D vector. [Op:InvertPermutation]"),
            None if known is None else f"Shape must be rank 1 but is rank {len(known)}", "InvertPermutation", [xt])
    return dispatch.execute(INVERT_PERMUTATION, (xt,))


def _approx_top_k(operand: Any, k: Any, reduction_dimension: int, is_max_k: bool, recall_target: Any = 0.95,
                  reduction_input_size_override: Any = -1, aggregate_to_topk: Any = True) -> Any:
    """TF 2.21's ApproxTopK on CPU: float, half and bfloat16 (else InvalidArgumentError), CPU kernels only
    for is_max_k and reduction_dimension == -1 (else NotFoundError), where it gives top_k's values and
    indices exactly (ties and NaN included: checked against TF on random rows)."""
    from simdist.runtime.ops.sorting import top_k
    attr_rules.check("ApproxTopK", k=k, reduction_dimension=reduction_dimension, recall_target=recall_target,
                     is_max_k=is_max_k, reduction_input_size_override=reduction_input_size_override,
                     aggregate_to_topk=aggregate_to_topk)   # (the wrapper's make_*: ops.attr-types; before the
    x = _t(operand)                                          # operand converts, fz14 seed 1420261219 #102)
    if x.dtype.name not in ("float16", "bfloat16", "float32"):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {args.tf_name(x.dtype)} is not in the list "
                                          "of allowed values: half, bfloat16, float [Op:ApproxTopK]")
    if not isinstance(k, Tensor) and int(k) < 0:     # attr k's minimum, before the kernel lookup (TF 2.21)
        raise trace_errors.attr_minimum("ApproxTopK", "k", int(k), 0)   # (traced: op_def_library's ValueError)
    from simdist.runtime import context
    if context.in_function():
        _approx_top_k_shape_fn(x, int(k), int(reduction_dimension), float(recall_target))
    if not is_max_k or int(reduction_dimension) != -1:
        raise errors.NotFoundError(None, None, "Could not find device for node: {{node ApproxTopK}} = ApproxTopK["
                                   f"T=DT_{args.tf_name(x.dtype).upper()}, is_max_k={str(is_max_k).lower()}, "
                                   f"reduction_dimension={int(reduction_dimension)}] [Op:ApproxTopK]")
    return named_outputs("ApproxTopK", top_k(x, k))


def _approx_top_k_shape_fn(x: Tensor, k: int, reduction_dimension: int, recall_target: float) -> None:
    """ApproxTopK's shape function (nn_ops.cc), which only a graph build runs (eagerly TF checks
    none of it): rank at least 1, the reduction dimension within the rank (an unknown rank is
    rank -1, so every dimension is refused), the reduced dimension at least k (an unknown
    dimension counts as -1, so it is refused), then 0 < recall_target <= 1 (NaN passes); each a
    ValueError at trace (function.trace-time-errors)."""
    from simdist.runtime.ops import static_shapes
    shape = static_shapes.known_shape(x)
    shown = "?" if shape is None else trace_errors.shapes_text([shape])

    def fail(text: str) -> None:
        raise trace_errors.static(ValueError(text), ValueError,
                                  f"{text} for '{{{{node ApproxTopK}}}}' with input shapes: {shown}.")

    if shape is not None and len(shape) < 1:
        fail(f"Shape must be at least rank 1 but is rank {len(shape)}")
    rank = -1 if shape is None else len(shape)
    if not -rank <= reduction_dimension < rank:
        fail(f"Invalid reduction dimension: {reduction_dimension}. Must be within the range of [{-rank}, {rank - 1}]")
    dim = shape[reduction_dimension] if shape is not None else None
    if (-1 if dim is None else dim) < k:
        fail(f"input must have last dimension >= k = {k} but was {-1 if dim is None else dim}")
    if recall_target <= 0 or recall_target > 1.0:
        fail(f"Invalid recall target: {recall_target:g}. Valid value range in : [0, 1.0].")


def approx_max_k(operand: Any, k: Any, reduction_dimension: int = -1, recall_target: float = 0.95,
                 reduction_input_size_override: int = -1, aggregate_to_topk: bool = True,
                 name: str | None = None) -> Any:
    """`tf.math.approx_max_k` (also tf.nn's): on TF 2.21's CPU, top_k over the last axis."""
    return _approx_top_k(operand, k, reduction_dimension, True, recall_target, reduction_input_size_override,
                         aggregate_to_topk)


def approx_min_k(operand: Any, k: Any, reduction_dimension: int = -1, recall_target: float = 0.95,
                 reduction_input_size_override: int = -1, aggregate_to_topk: bool = True,
                 name: str | None = None) -> Any:
    """`tf.math.approx_min_k` (also tf.nn's): TF 2.21 has no CPU kernel for it (NotFoundError)."""
    return _approx_top_k(operand, k, reduction_dimension, False, recall_target, reduction_input_size_override,
                         aggregate_to_topk)


def approx_top_k(input: Any, k: int, reduction_dimension: int = -1, recall_target: float = 0.95,  # noqa: A002
                 is_max_k: bool = True, reduction_input_size_override: int = -1, aggregate_to_topk: bool = True,
                 name: str | None = None) -> Any:
    """`tf.approx_top_k` (the raw ApproxTopK op): (values, indices) as approx_max_k/approx_min_k."""
    return _approx_top_k(input, k, reduction_dimension, is_max_k, recall_target, reduction_input_size_override,
                         aggregate_to_topk)
