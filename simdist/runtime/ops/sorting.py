"""top_k (TopKV2), sort and argsort (TF's sort_ops: composites of TopKV2, as TF builds them).

Ties keep the lower index first (TF's TopKV2), so sort and argsort are stable in both
directions. Rows holding NaN, whose order TF's C++ comparisons leave to the algorithm, and
`top_k(sorted=False)`, which TF returns in its heap's order, follow TF's kernel step for step
(topk_kernel.py).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime import symbolic as _symbolic
from simdist.runtime.ops import args, attr_rules, dispatch, partial_values, static_shapes, topk_kernel, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["top_k", "sort", "argsort"]

_TOPK_TYPES = ("fiu", "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64")


# SIMD lanes of TF 2.21's max reduction for top_k(k=1) (AVX: 8 float32, 4 float64, 8 half, 8 bfloat16:
# Eigen's Packet8bf, whose pmax widens to Packet8f, fz67)
_TOPK_LANES = {"float32": 8, "float64": 4, "float16": 8, "bfloat16": 8}


def _top_k(x: np.ndarray, k: int, sorted: bool, index_type: Any = None) -> tuple[np.ndarray, np.ndarray]:  # noqa: A002
    values, idx = _top_k32(x, k, sorted)
    return (values, idx) if index_type is None else (values, idx.astype(index_type._np))


def _top_k32(x: np.ndarray, k: int, sorted: bool) -> tuple[np.ndarray, np.ndarray]:  # noqa: A002 - TF's attr
    # a stable argsort of the negated keys: the largest first, ties in index order (TF's TopKV2 on
    # rows whose comparisons are an order); rows holding NaN, and unsorted top-k (TF's heap order),
    # run TF's kernel step for step (topk_kernel)
    n = x.shape[-1] if x.ndim else 0
    floating = x.dtype.kind == "f" or x.dtype.name == "bfloat16"    # (ml_dtypes' bfloat16 is kind "V")
    key = -x if floating else ~x   # ints: ~x = -x - 1 reverses the order without wrapping at INT64_MIN
    idx = np.argsort(key, axis=-1, kind="stable")[..., :k].astype(np.int32)
    exact = np.isnan(x).any(axis=-1) if floating else np.zeros(x.shape[:-1], bool)
    if not sorted and 1 < k < n:
        exact = np.ones(x.shape[:-1], bool)
    if k and exact.any():
        rows, out = x.reshape(-1, n), idx.reshape(-1, k)
        for r in np.flatnonzero(exact.reshape(-1)):
            out[r] = topk_kernel.row_top_k(rows[r].tolist(), k, sorted, _TOPK_LANES.get(x.dtype.name, 0))
    return np.take_along_axis(x, idx, axis=-1), idx


TOPK = register("TopKV2", _top_k, lambda dts, attrs: (args.allowed("TopKV2", *_TOPK_TYPES)(dts, attrs),
                                                       attrs.get("index_type") or dtypes.int32),
                lambda arrays, out, attrs: arrays[0].size * max(1, int(math.log2(max(arrays[0].shape[-1], 2)))),
                num_outputs=2, kind="sort",
                fusion=lanes("no stacked form written (k and the last axis are one lane's)"))


def _k_input(given: Any, k: Any) -> Any:
    """TopKV2's `k` (type attr Tk: int16, int32, int64, default int32) as the generated op converts
    it (TF 2.21, observed; fz45): a Python int or an integer tensor of those dtypes as before;
    eagerly attr_rules.default_group (on the fast path a Python float is TypeError "Cannot convert
    1.5 to EagerTensor of dtype int32" and a NumPy float is cast; a float or int8 tensor, or a
    string, is the NodeDef's "Value for attr 'Tk'" InvalidArgumentError), in a graph op_def_library's
    TypeError "Value passed to parameter 'k' has DataType float32 not in list of allowed values";
    both before index_type's check and the kernel's and shape function's rank checks (simdist had
    truncated a float k with int()). A Python int as it is, else the converted tensor."""
    if isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)):
        return int(k)
    from simdist.runtime.ops import attr_rules, graph_inputs
    if context.in_function():
        kt = graph_inputs.convert("TopKV2", k, "k")
    else:
        kt = attr_rules.default_group([k], dtypes.int32, ("int16", "int32", "int64"),
                                      attr_rules.fast_path_takes("TopKV2", (given, k)))[0]
    if kt.dtype.name not in ("int16", "int32", "int64"):
        raise trace_errors.attr_not_allowed("TopKV2", "Tk", kt.dtype, "int16, int32, int64")
    return kt


def _top_k_static(a: dict) -> list[int | None] | None:
    """TopKV2's shape function with a k the graph does not know: the input's dimensions, the last unknown."""
    x = a["input"]
    known = static_shapes.known_shape(x) if isinstance(x, Tensor) else list(np.shape(x))
    return None if known is None or not known else known[:-1] + [None]


@partial_values.shaped("k", rule=_top_k_static)
def top_k(input: Any, k: Any = 1, sorted: bool = True, index_type: Any = dtypes.int32,  # noqa: A002
          name: str | None = None) -> tuple[Tensor, Tensor]:
    """`tf.math.top_k`: (values, indices of `index_type`: int32 by default) of the k largest along the last axis."""
    t = _t(input)
    attr_rules.check("TopKV2", sorted=sorted, index_type=index_type)   # (the wrapper's make_*: ops.attr-types)
    TOPK.dtype((t.dtype,), {})   # (attr T before the shape checks, eagerly and traced: a complex scalar)
    kk = _k_input(input, k)
    it = dtypes.as_dtype(index_type)
    if it.name not in ("int16", "int32", "int64"):   # the op def's index_type list (ops.sort), before the kernel's
        # and the shape function's rank checks (fz45, fz14 seed 1420453001 #248)
        raise trace_errors.static(errors.InvalidArgumentError(
            None, None, f"Value for attr 'index_type' of {args.tf_name(it)} is not in the list of allowed values: "
                        "int16, int32, int64 [Op:TopKV2]"), TypeError,
            f"Value passed to parameter 'index_type' has DataType {it.name} not in list of allowed values: int16, "
            "int32, int64")
    from simdist.runtime.ops import static_shapes
    k_shape = kk.shape.as_list() if isinstance(kk, Tensor) else []
    shapes = (t.shape.as_list(), k_shape)
    # (a k that is not a scalar: the kernel checks it before the input's rank, "k must be scalar, got shape [1]";
    # the shape function after it, "Input must be scalar but has rank 1" ValueError at trace; observed)
    k_err = trace_errors.shape_error(f"k must be scalar, got shape {args.dims(k_shape)} [Op:TopKV2]",
                                     f"Input must be scalar but has rank {len(k_shape)}", "TopKV2", shapes) \
        if k_shape else None
    if k_err is not None and not context.in_function():
        raise k_err
    if t.ndim < 1:   # traced: TopKV2's shape function, when the graph knows the rank (fz4 seed 21 #116)
        err = trace_errors.shape_error(f"input must be >= 1-D, got shape {args.dims(t.shape.as_list())} [Op:TopKV2]",
                                       "Shape must be at least rank 1 but is rank 0", "TopKV2", shapes)
        if static_shapes.rank_unknown(t):
            trace_errors.unmark(err)
        raise err
    if k_err is not None:
        raise k_err
    kk = int(dispatch.static_value(kk)) if isinstance(kk, Tensor) else kk
    if kk < 0:   # (traced: the shape function's MakeDimForScalarInput, when the graph knows k; fz45b, seed 44007)
        err = trace_errors.shape_error(f"Need k >= 0, got {kk} [Op:TopKV2]",
                                       f"Dimension size, given by scalar input 1, must be non-negative but is {kk}",
                                       "TopKV2", shapes)
        from simdist.runtime.ops import graph_constants
        if isinstance(k, Tensor) and not graph_constants.known(k):
            trace_errors.unmark(err)
        raise err
    n = t.shape.as_list()[-1]
    if n < kk:   # traced: the shape function, when it knows the last dimension
        err = trace_errors.shape_error(f"input must have at least k columns. Had {n}, needed {kk} [Op:TopKV2]",
                                       f"input must have last dimension >= k = {kk} but is {n}", "TopKV2", shapes)
        if static_shapes.known_dim(t, -1) is None:
            trace_errors.unmark(err)
        raise err
    attrs: dict[str, Any] = {"k": kk, "sorted": bool(sorted)}
    if it is not dtypes.int32:
        attrs["index_type"] = it
    values, indices = dispatch.execute(TOPK, (t,), attrs)
    if static_shapes.rank_unknown(t):   # (TopKShapeFn: an input of unknown rank, outputs of unknown rank; ssweep64)
        values, indices = static_shapes.mark_rank_unknown(values), static_shapes.mark_rank_unknown(indices)
    elif static_shapes.UNKNOWN and static_shapes.unknown(t) is not None:
        # (TopKShapeFn: the input's dimensions but the last, then k; a graph input's unknown batch stays unknown in
        # both outputs: `top_k(x, 1)` of an input_signature [None, None] is [None, 1]; fz49b, fz49b_gen 49002 #8)
        flags = static_shapes.unknown(t)[:-1] + (False,)
        values, indices = static_shapes.mark(values, flags), static_shapes.mark(indices, flags)
    return _TopK(values, indices)


class _TopK(NamedTuple):
    """TF's TopKV2 namedtuple: (values, indices), also as attributes. A namedtuple, so structures
    (strategy.run's regrouped results, tf.nest) rebuild it by its fields (ops.top-k-namedtuple)."""
    values: Tensor
    indices: Tensor


_TopK.__name__ = _TopK.__qualname__ = "TopKV2"


@RegisterGradient("TopKV2")
def _top_k_grad(op: Any, grad: Any, _: Any = None) -> list:
    """TF's _TopKGrad: each value's gradient scattered back to its index on the last axis."""
    from simdist.runtime.ops import array, math, scatter
    in_shape = op.inputs[0].shape.as_list()
    ind = op.outputs[1]
    ind_shape = ind.shape.as_list()
    last = ind_shape[-1] if ind_shape else 1
    ind_2d = array.reshape(ind, [-1, last])
    outer = ind_2d.shape.as_list()[0]
    in_last = in_shape[-1]
    offsets = array.reshape(array.range_(0, outer * in_last, in_last), [-1, 1])
    flat = array.reshape(math.add(ind_2d, offsets), [-1])
    total = int(np.prod(in_shape, dtype=np.int64))
    return [array.reshape(scatter.scatter_nd(array.expand_dims(flat, -1), array.reshape(grad, [-1]), [total]),
                          in_shape)]


def _sort_or_argsort(values: Any, axis: int, direction: str, return_argsort: bool) -> Tensor:
    """TF's sort_ops: descending is top_k over all (axis moved last); ascending is descending on
    -x (ints: -x - 1, unsigned: max - x)."""
    from simdist.runtime.ops import math, unary
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"Argument `direction` should be one of ASCENDING, DESCENDING. Received: "
                         f"direction={direction}")
    if axis is None:   # sort_ops converts axis to a tensor (fz4 seeds 21 #52, 23 #34)
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.")
    # (then it wants a constant scalar, `tensor_util.constant_value(axis)`, and converts the values
    # after it: `axis=(1, 0)` is ValueError "Argument `axis` must be a constant scalar. Received:
    # axis=[1 0]."; fz26b, fz14 seed 1420262602 #11)
    from simdist.runtime.ops import graph_constants
    a = _t(axis)
    if a.ndim != 0 or (_symbolic.is_graph(a) and not graph_constants.known(a)):
        shown = a if _symbolic.is_graph(a) else np.asarray(a._v)
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={shown}.")
    x = _t(values)
    ax = int(a._v)
    def axis_checks() -> None:
        """sort_ops' `shape(values)[axis]` in _descending_sort: for ascending after the negation,
        so a bool or string scalar is Neg's dtype error first (TypeError at trace; fz31b, fz14 seed
        1420313002 #160: `argsort(bool scalar)` in a tf.function)."""
        from simdist.runtime.ops import static_shapes
        rank = x.ndim
        if not -rank <= ax < rank and not static_shapes.rank_unknown(x):
            # (traced with the rank known: sort_ops reads shape(values)[axis], StridedSlice's shape function)
            raise trace_errors.shape_error(f"Expected axis in [{-rank}, {rank}), got {ax} [Op:TopKV2]",
                                           f"slice index {ax if ax >= 0 else ax + rank} of dimension 0 out of bounds.",
                                           "StridedSlice", ((rank,),))
        if rank == 0 and static_shapes.rank_unknown(x):
            # (a graph input of unknown rank called with a scalar: sort_ops' shape(values)[-1] is a
            # dynamic StridedSlice, whose kernel refuses it when the graph runs; fz7 ext seed 83 #187)
            raise errors.InvalidArgumentError(None, None, "slice index -1 of dimension 0 out of bounds.")
    if direction == "DESCENDING":
        axis_checks()
        return _descending(x, ax, return_argsort)
    dt = x.dtype
    if dt.kind == "u":
        off = convert_to_tensor(np.iinfo(dt._np).max, dtype=dt)
        y = math.subtract(off, x)
        axis_checks()
        r = _descending(y, ax, return_argsort)
        return r if return_argsort else math.subtract(off, r)
    if dt.kind == "i":
        y = math.subtract(unary.negative(x), 1)
        axis_checks()
        r = _descending(y, ax, return_argsort)
        return r if return_argsort else math.subtract(unary.negative(r), 1)
    y = unary.negative(x)
    axis_checks()
    r = _descending(y, ax, return_argsort)
    return r if return_argsort else unary.negative(r)


def _descending(x: Tensor, axis: int, return_argsort: bool) -> Tensor:
    from simdist.runtime.ops import array
    rank = x.ndim
    ax = axis % max(rank, 1)
    if not -rank <= axis < rank:
        err = errors.InvalidArgumentError(None, None, f"Expected axis in [{-rank}, {rank}), got {axis} [Op:TopKV2]")
        if rank == 0:   # traced: sort_ops reads the shape's last entry, StridedSlice's shape function
            raise trace_errors.shape_error(str(err.message), "slice index -1 of dimension 0 out of bounds.",
                                           "StridedSlice", ((0,),))
        raise err
    k = x.shape.as_list()[ax]
    if ax == rank - 1:
        values, indices = top_k(x, k)
        return _as_unknown_as(x, indices if return_argsort else values)
    perm = list(range(ax)) + [rank - 1] + list(range(ax + 1, rank - 1)) + [ax]
    values, indices = top_k(array.transpose(x, perm), k)
    return _as_unknown_as(x, array.transpose(indices if return_argsort else values, perm))


def _as_unknown_as(x: Tensor, out: Tensor) -> Tensor:
    """sort_ops' k is `shape(values)[axis]`, a tensor the graph does not know where the axis's dimension is
    unknown: TopKV2's last output dimension is then unknown too, so a sort or argsort has its input's unknown
    dimensions (`tf.sort(x)` of an input_signature [None, None] is [None, None], not the traced value's; fz49b)."""
    from simdist.runtime.ops import static_shapes
    if not static_shapes.UNKNOWN or static_shapes.rank_unknown(x):
        return out
    flags = static_shapes.unknown(x)
    return static_shapes.mark(out, flags) if flags is not None and len(flags) == out.ndim else out


def sort(values: Any, axis: int = -1, direction: str = "ASCENDING", name: str | None = None) -> Tensor:
    """`tf.sort`: sorted along axis; NaNs land where TF's kernel leaves them (topk_kernel)."""
    return _sort_or_argsort(values, axis, direction, False)


def argsort(values: Any, axis: int = -1, direction: str = "ASCENDING", stable: bool = False,
            name: str | None = None) -> Tensor:
    """`tf.argsort` (int32): stable, as TF's is whatever `stable` says."""
    return _sort_or_argsort(values, axis, direction, True)

