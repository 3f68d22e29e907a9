"""Array ops of TF 2.21's top-level namespace beyond array.py: tf.roll, reverse_sequence,
searchsorted, unravel_index, tensor_scatter_nd_max/min, shape_n, identity_n, broadcast_static_shape,
broadcast_dynamic_shape, ensure_shape, get_static_value, parallel_stack and bitcast. Each TF op is
one declaration with its gradient as TF registers it (Roll: the gradient rolled back;
ReverseSequence: the gradient reversed alike; TensorScatterMax/Min: the gradient split between the
tied winners; IdentityN and EnsureShape: the gradient itself; LowerBound, UpperBound, UnravelIndex,
BroadcastArgs, Bitcast: no gradient registered, a tape reaching one raises LookupError); the
Python-level functions are composed as TF composes them.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, dtypes, errors, graph_names
from simdist.runtime.ops import args, attr_rules, dispatch, static_shapes, trace_errors
from simdist.runtime.ops.args import raw_attribute, t as _t
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.math_more import _int32_int64
from simdist.runtime.ops.registry import OVER_AXIS, RegisterGradient, lanes, register
from simdist.runtime.ops.cpu_kernels import kernel_first
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor

__all__ = ["roll", "reverse_sequence", "searchsorted", "unravel_index", "tensor_scatter_nd_max",
           "tensor_scatter_nd_min", "shape_n", "identity_n", "broadcast_static_shape", "broadcast_dynamic_shape",
           "ensure_shape", "get_static_value", "parallel_stack", "bitcast"]

_INT_INDEX = ("int32", "int64")


def _int_arg(x: Any, attr: str, op: str) -> Tensor:
    """Roll's shift or axis as its op converts it: with no preferred dtype (Tshift and Taxis have no
    default), so an empty tuple is float32 (fftshift of a scalar in a graph: the type check's
    TypeError; fz14 seed 1420262201 #107), then the allowed types."""
    t = x if isinstance(x, Tensor) else convert_to_tensor(x)
    if t.dtype.name not in _INT_INDEX:
        raise errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of {args.tf_name(t.dtype)} is not in "
                                          f"the list of allowed values: int32, int64 [Op:{op}]")
    return t


# --- Roll ------------------------------------------------------------------------------------------------------
def _roll(a: np.ndarray, shift: tuple[int, ...], axis: tuple[int, ...]) -> np.ndarray:
    return np.roll(a, shift, axis) if shift else a.copy()


ROLL = register("Roll", _roll, args.first, args.zero_flops, kind="shape", fusion=OVER_AXIS)


def roll(input: Any, shift: Any, axis: Any, name: str | None = None) -> Tensor:  # noqa: A002 - TF's name
    """`tf.roll`: elements shifted along axes (scalars or 1-D of one size; an axis named twice
    has its shifts added), wrapping around."""
    t = _t(input)
    sh = dispatch.static_value(_int_arg(shift, "Tshift", "Roll"))
    ax = dispatch.static_value(_int_arg(axis, "Taxis", "Roll"))
    # (the kernel's checks in its order; traced, Roll's shape function finds each where it knows
    # the ranks: input rank >= 1, shift and axis rank <= 1, then Merge(shift, axis))
    shapes = (tuple(t.shape.as_list()), tuple(sh.shape), tuple(ax.shape))
    nd = t.ndim
    if nd == 0:
        err = errors.InvalidArgumentError(None, None, "input must be 1-D or higher [Op:Roll]")
        if static_shapes.rank_unknown(t):
            raise err
        raise trace_errors.mark_shape(err, "Shape must be at least rank 1 but is rank 0", "Roll", shapes)
    for v, what in ((sh, "shift"), (ax, "axis")):
        if v.ndim > 1:
            raise trace_errors.shape_error(f"{what} must be a scalar or a 1-D vector. Found: {args.dims(v.shape)} "
                                           "[Op:Roll]", f"Shape must be at most rank 1 but is rank {v.ndim}", "Roll",
                                           shapes)
    if sh.shape != ax.shape:
        text = (f"Shapes must be equal rank, but are {sh.ndim} and {ax.ndim}" if sh.ndim != ax.ndim else
                f"Dimension 0 in both shapes must be equal, but are {sh.shape[0]} and {ax.shape[0]}. Shapes are "
                f"[{sh.shape[0]}] and [{ax.shape[0]}].")
        raise trace_errors.shape_error("shift and axis must have the same size [Op:Roll]", text, "Roll", shapes)
    shifts, axes = [], []
    for s, a in zip(sh.reshape(-1).tolist(), ax.reshape(-1).tolist()):
        if not -nd <= a < nd:
            raise errors.InvalidArgumentError(None, None, f"axis {a} is out of range [Op:Roll]")
        shifts.append(int(s))
        axes.append(int(a) % nd)
    return dispatch.execute(ROLL, (t,), {"shift": tuple(shifts), "axis": tuple(axes)})


@RegisterGradient("Roll")
def _roll_grad(op: Any, grad: Any) -> list:
    return [dispatch.execute(ROLL, (grad,), {"shift": tuple(-s for s in op.get_attr("shift")),
                                             "axis": op.get_attr("axis")})]


# --- ReverseSequence -------------------------------------------------------------------------------------------
def _reverse_sequence(a: np.ndarray, lengths: np.ndarray, seq_dim: int, batch_dim: int) -> np.ndarray:
    out = a.copy()
    for b, n in enumerate(lengths.tolist()):
        if n <= 1:
            continue
        src = [slice(None)] * a.ndim
        src[batch_dim] = b
        src[seq_dim] = slice(0, n)
        dst = list(src)
        dst[seq_dim] = slice(n - 1, None, -1) if n - 1 >= 0 else slice(None)
        idx_src = tuple(src)
        seg = a[idx_src]
        axis = seq_dim - (1 if batch_dim < seq_dim else 0)
        out[idx_src] = np.flip(seg, axis)
    return out


REVERSE_SEQUENCE = register("ReverseSequence", _reverse_sequence, lambda dts, attrs: dts[0], args.zero_flops,
                            kind="shape", fusion=lanes("its lengths index one lane's batch: no stacked form written"))


def reverse_sequence(input: Any, seq_lengths: Any, seq_axis: Any = None, batch_axis: Any = None,  # noqa: A002
                     name: str | None = None) -> Tensor:
    """`tf.reverse_sequence`: for each batch entry b, its first seq_lengths[b] elements along
    seq_axis reversed (the rest kept)."""
    t = _t(input)
    # (seq_dim has no default: None is TypeError; ops.attr-types)
    attr_rules.check("ReverseSequence", seq_dim=seq_axis, batch_dim=batch_axis)
    lens = seq_lengths if isinstance(seq_lengths, Tensor) else convert_to_tensor(seq_lengths, dtype_hint=dtypes.int64)
    if lens.dtype.name not in _INT_INDEX:
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'Tlen' of {args.tf_name(lens.dtype)} is not in "
                                          "the list of allowed values: int32, int64 [Op:ReverseSequence]")
    nd = t.ndim
    seq_dim = int(seq_axis) if seq_axis is not None else 0
    batch_dim = int(batch_axis) if batch_axis is not None else 0
    # (the kernel's constructor refuses negative dims, batch_dim first, and does not count them from the end;
    # a graph's shape function refuses a negative batch_dim at trace: rawfz20 slice seed 20202612010 #25)
    if batch_dim < 0:   # (the shape function returns an unknown shape for an input of unknown rank before it
        # reads batch_dim: then only the kernel refuses it, when the graph runs; fz35a, sig seed 3520261202 #81)
        err = errors.InvalidArgumentError(None, None, f"Invalid batch_dim {batch_dim} [Op:ReverseSequence]")
        if static_shapes.rank_unknown(t):
            raise err
        raise trace_errors.static(err, ValueError, f"Invalid batch_dim {batch_dim}")
    if seq_dim < 0:   # (the kernel's: a graph TF prunes of an unused ReverseSequence never meets it)
        return dispatch.refused(errors.InvalidArgumentError(None, None, f"Invalid seq_dim {seq_dim} "
                                                            "[Op:ReverseSequence]"), t.dtype, t.shape.as_list(), pruned=True,
                                like=t)
    ln = dispatch.static_value(lens)
    try:   # (traced: ReverseSequence's shape function marks what it sees; fz16d)
        if batch_dim == seq_dim:
            raise errors.InvalidArgumentError(None, None, f"batch_dim == seq_dim == {seq_dim} [Op:ReverseSequence]")
        if not 0 <= seq_dim < nd:
            raise errors.InvalidArgumentError(None, None, f"seq_dim must be < input rank ( {seq_dim} vs. {nd}) "
                                              "[Op:ReverseSequence]")
        if not 0 <= batch_dim < nd:
            raise errors.InvalidArgumentError(None, None, f"batch_dim must be < input rank ( {batch_dim} vs. {nd}) "
                                              "[Op:ReverseSequence]")
        if ln.ndim != 1:
            raise errors.InvalidArgumentError(None, None, f"seq_lengths must be 1-dim, not {ln.ndim} "
                                              "[Op:ReverseSequence]")
        shp = t.shape.as_list()
        if ln.shape[0] != shp[batch_dim]:
            raise errors.InvalidArgumentError(None, None, f"Length of seq_lengths != input.dims({batch_dim}), "
                                              f"({ln.shape[0]} vs. {shp[batch_dim]}) [Op:ReverseSequence]")
    except errors.InvalidArgumentError as e:
        from simdist.runtime.ops import array_shape_fns
        raise array_shape_fns.marked(e, array_shape_fns.reverse_sequence(t, lens, seq_dim, batch_dim), "ReverseSequence",
                                     [t, lens]) from None
    for i, n in enumerate(ln.tolist()):
        if n < 0:
            raise errors.InvalidArgumentError(None, None, f"seq_lengths({i}) < 0 [Op:ReverseSequence]")
        if n > shp[seq_dim]:
            raise errors.InvalidArgumentError(None, None, f"seq_lengths({i}) > input.dims({seq_dim}) "
                                              "[Op:ReverseSequence]")
    return dispatch.execute(REVERSE_SEQUENCE, (t, lens), {"seq_dim": seq_dim, "batch_dim": batch_dim})


@RegisterGradient("ReverseSequence")
def _reverse_sequence_grad(op: Any, grad: Any) -> list:
    return [dispatch.execute(REVERSE_SEQUENCE, (grad, op.inputs[1]), {"seq_dim": op.get_attr("seq_dim"),
                                                                      "batch_dim": op.get_attr("batch_dim")}), None]


# --- LowerBound / UpperBound (searchsorted) ----------------------------------------------------------------------
def _bound(side: str) -> Any:
    """std::lower_bound (side left: the first element e with !(e < v)) or std::upper_bound (right:
    the first with v < e) per row, by the same binary search, so NaN compares as C++ compares it."""
    def forward(seq: np.ndarray, vals: np.ndarray, out_type: dtypes.DType) -> np.ndarray:
        # searchsorted_op.cc's checks (a raw call's inputs; rawfz21, seed 2020261202 #187): both matrices
        # (the shape function's WithRank(2) in a graph), then one leading dimension
        name = "LowerBound" if side == "left" else "UpperBound"
        for a, what in ((seq, "sorted_inputs"), (vals, "values")):
            if a.ndim != 2:
                raise trace_errors.mark_shape(errors.InvalidArgumentError(
                    None, None, f"Shape must be rank 2 but is rank {a.ndim} for `{what}` argument [Op:{name}]"),
                    f"Shape must be rank 2 but is rank {a.ndim}", name, [list(seq.shape), list(vals.shape)])
        if seq.shape[0] != vals.shape[0]:
            raise errors.InvalidArgumentError(None, None, f"Leading dim_size of both Tensors must match. [Op:{name}]")
        rows, n = seq.shape
        first = np.zeros(vals.shape, np.int64)
        count = np.full(vals.shape, n, np.int64)
        r = np.arange(rows)[:, None]
        with np.errstate(invalid="ignore"):
            while (count > 0).any():
                step = count // 2
                it = first + step
                e = seq[r, np.minimum(it, max(n - 1, 0))] if n else np.zeros(vals.shape, seq.dtype)
                go = (e < vals) if side == "left" else ~(vals < e)
                go &= count > 0
                first = np.where(go, it + 1, first)
                count = np.where(go, count - step - 1, np.where(count > 0, step, 0))
        return first.astype(out_type.as_numpy_dtype)
    return forward


def _no_bool_kernel(name: str, d: dtypes.DType) -> None:
    """TF registers these kernels for the numeric types only: bool is NotFoundError."""
    if d.name == "bool":
        raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {name}}}}} = "
                                   f"{name}[T=DT_BOOL] [Op:{name}]")


def _no_bound_kernel(name: str, d: dtypes.DType, out_type: dtypes.DType) -> None:
    """LowerBound/UpperBound: TF registers the kernels for the real number types only
    (searchsorted_op.cc: TF_CALL_REAL_NUMBER_TYPES): bool, complex and string are NotFoundError
    (fz23b: complex128, fz14 seed 1420262301 #131)."""
    if d.name == "bool" or d.kind == "c" or d.name == "string":
        raise args.no_kernel(name, d, f", out_type=DT_{args.tf_name(out_type).upper()}")


def _bound_rule(name: str) -> Any:
    same = args.same_dtype(name)

    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        from simdist.runtime import context
        if not context.in_function():
            # (eagerly the kernel is looked up for the first input's T before the inputs' dtypes are
            # checked: bool sorted_inputs beside int32 values is the NotFoundError; a graph build's
            # op_def_library refuses the mismatch first; TF 2.21 observed, fz44b, fz43_gen seed 43003)
            _no_bound_kernel(name, dts[0], attrs["out_type"])
        _no_bound_kernel(name, same(dts, attrs), attrs["out_type"])
        return attrs["out_type"]
    return rule


_BOUND_LANES = lanes("each row searches its own sorted row: run per lane")
LOWER_BOUND = register("LowerBound", _bound("left"), _bound_rule("LowerBound"), args.zero_flops, kind="sort",
                       fusion=_BOUND_LANES)
UPPER_BOUND = register("UpperBound", _bound("right"), _bound_rule("UpperBound"), args.zero_flops, kind="sort",
                       fusion=_BOUND_LANES)
no_tf_gradient("LowerBound")
no_tf_gradient("UpperBound")
# (the shape function's WithRank(2) sees only an input whose rank the graph knows: an input_signature's unknown-rank
# sorted_inputs traces, its stand-in's rank error is the kernel's when the graph runs, and the trace goes on with
# values' shape; fz36a, sig seed 3620261233 #153)
LOWER_BOUND.shape_fn = UPPER_BOUND.shape_fn = \
    lambda shapes, attrs: any(s is not None and len(s) != 2 for s in shapes[:2])
LOWER_BOUND.standin_static = UPPER_BOUND.standin_static = True
LOWER_BOUND.standin = UPPER_BOUND.standin = lambda arrays, attrs: (np.shape(arrays[1]),)


def _scalar_row(x: Tensor) -> None:
    """array_ops.searchsorted's shape(x)[-1] of a scalar: a StridedSlice of an empty shape, whose
    shape function sees it while a graph is built when the rank is known (fz5 seed 61 #285)."""
    text = "slice index -1 of dimension 0 out of bounds."
    err = errors.InvalidArgumentError(None, None, f"{text} [Op:StridedSlice]")
    if static_shapes.rank_unknown(x):
        raise err
    raise trace_errors.mark_shape(err, text, "strided_slice", ((0,), (1,), (1,), (1,)))


def searchsorted(sorted_sequence: Any, values: Any, side: str = "left", out_type: Any = dtypes.int32,
                 name: str | None = None) -> Tensor:
    """`tf.searchsorted`: per row of the innermost axis, where each value would be inserted in the
    sorted row (left: before equal values; right: after); leading axes must match."""
    # (array_ops.searchsorted: shape(sorted_sequence)[-1] before values is converted, so a scalar
    # sequence is StridedSlice's error beside values that do not convert (an eager TensorProto: fz35b,
    # fourteenth generator seed 1420353003 #33))
    s = _t(sorted_sequence)
    if s.ndim == 0:
        _scalar_row(s)
    v = _t(values)
    if v.ndim == 0:
        _scalar_row(v)
    if side not in ("left", "right"):   # (after the reshapes)
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: `side` = '{side}'.")
    ot = dtypes.as_dtype(out_type)
    n, m = int(s.shape[-1]), int(v.shape[-1])
    if ot.name not in _INT_INDEX:   # (after the StridedSlices that build the reshapes: fz10 seed 93 #113)
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'out_type' of {args.tf_name(ot)} is not in the "
                                          f"list of allowed values: int32, int64 [Op:{'LowerBound' if side == 'left' else 'UpperBound'}]")
    op = LOWER_BOUND if side == "left" else UPPER_BOUND
    with graph_names.given_name(name, op.name):   # (gen_array_ops.lower_bound(..., name=name): the bound op, not the reshapes)
        return _searchsorted(s, v, n, m, op, ot)


def _searchsorted(s: Tensor, v: Tensor, n: int, m: int, op: Any, ot: Any) -> Tensor:
    from simdist.runtime.ops.array import reshape
    # (array_ops.searchsorted's nodes simdist computes without: shape_internal(x)[-1] of each input before the
    # reshapes, shape_internal(values) before the last; their names count: graph_names.reserve)
    graph_names.reserve("Shape", "strided_slice", "Shape", "strided_slice")
    s2 = reshape(s, [-1, n])
    v2 = reshape(v, [-1, m])
    # the inputs' dtypes are checked before the kernel compares leading dimensions (eagerly, and a
    # graph build raises op_def_library's TypeError for them)
    op.dtype((s2.dtype, v2.dtype), {"out_type": ot})
    if s2.shape[0] != v2.shape[0]:
        raise errors.InvalidArgumentError(None, None, "Leading dim_size of both tensors must match. "
                                          f"[Op:{op.name}]")
    out = dispatch.execute(op, (s2, v2), {"out_type": ot})
    graph_names.reserve("Shape")
    res = reshape(out, v.shape.as_list())
    # (TF reshapes to shape_internal(values), whose partial value is values' static shape: the result's unknown
    # dimensions are values' (searchsorted of an input_signature [None, 3] is (None, 3) on TF 2.21; fz50)
    from simdist.runtime.ops import static_shapes
    if static_shapes.rank_unknown(v):
        return static_shapes.mark_rank_unknown(res)
    flags = static_shapes.unknown(v)
    return res if flags is None else static_shapes.mark(res, flags)


# --- UnravelIndex -----------------------------------------------------------------------------------------------
def _unravel(idx: np.ndarray, dims: np.ndarray) -> np.ndarray:
    """Coordinate j is (idx / stride_j) % dims[j] in C's integer arithmetic (truncating toward zero:
    a negative index, which TF does not refuse, gives negative coordinates). First UnravelIndexOp's
    checks in its order, which a raw call reaches (fuzz20 seed 2320261203 #45; TF 2.21's texts,
    observed): indices a scalar or vector, each dim not zero then not negative, every index below
    their product."""
    def fail(text: str) -> None:
        raise errors.InvalidArgumentError(None, None, f"{text} [Op:UnravelIndex]")
    if idx.ndim > 1:
        fail(f"The indices can only be scalar or vector, got \"{args.dims(idx.shape)}\"")
    if idx.size == 0:   # (then no index: a raw call's [] too, whatever dims is; fz42, fz20 seed 4120261209 #128)
        fail(f"received empty tensor indices: Tensor<type: {dtypes.as_dtype(idx.dtype).name} shape: "
             f"{args.dims(idx.shape)} values: >")
    for k, v in enumerate(dims.reshape(-1).tolist()):
        if v == 0:
            fail(f"Input dims cannot contain a dim of zero, but dims contains zero at index {k}")
        if v < 0:
            fail(f"Input dims cannot be negative. Got dim = {v} at index {k}")
    if idx.size and (idx >= int(np.prod(dims, dtype=np.int64))).any():
        fail("index is out of bound as with dims")
    flat = idx.reshape(-1).astype(np.int64)
    d = dims.astype(np.int64)
    strides = np.concatenate([np.cumprod(d[::-1])[::-1][1:], [1]]).astype(np.int64) if d.size else d
    with np.errstate(over="ignore"):   # C's truncating division (no abs(): INT64_MIN has none, seed 54 #174)
        q = flat[None, :] // strides[:, None]
        q = q + ((flat[None, :] % strides[:, None] != 0) & (flat[None, :] < 0))
    out = np.fmod(q, d[:, None]).astype(idx.dtype)
    return out.reshape((dims.size,) + idx.shape) if idx.ndim else out.reshape(dims.size)


UNRAVEL_INDEX = register("UnravelIndex", _unravel, _int32_int64("UnravelIndex"),
                         args.zero_flops, kind="gather/scatter",
                         fusion=lanes("its output puts the coordinates first: no stacked form written"))
no_tf_gradient("UnravelIndex")
# (a dry run of a tf.function's Python goes on past the kernel's refusal of its values, a dim of zero or
# an index out of bound, with [len(dims)] + indices' shape, the shape function's: `unravel_index([-1],
# [2, 0])` then assert_less of an int8 y is the assert's TypeError at trace; fz31b, fz14 seed 1420313005 #73)
UNRAVEL_INDEX.standin_static = True
UNRAVEL_INDEX.standin = lambda arrays, attrs: ((arrays[1].size,) + tuple(arrays[0].shape),)


def unravel_index(indices: Any, dims: Any, name: str | None = None) -> Tensor:
    """`tf.unravel_index`: flat indices into coordinates of shape `dims`, shape [len(dims)] + indices.shape."""
    from simdist.runtime import context
    from simdist.runtime.ops import math
    if context.in_function():
        if not math._tensorlike(indices) and not math._tensorlike(dims):
            # (op_def_library: the first converted as it is, and again with the attr's default,
            # int32, when its dtype is not allowed (int32, int64))
            try:
                if convert_to_tensor(indices).dtype not in (dtypes.int32, dtypes.int64):
                    indices = convert_to_tensor(indices, dtype=dtypes.int32)
            except (TypeError, ValueError):
                pass
        i, d = math.gen_operands(UNRAVEL_INDEX, indices, dims)   # (a non-tensor takes the other's dtype)
    else:
        # (eagerly Tidx's default, int32, on the fast path: two int64 ndarrays are int32, fz14 seed
        # 1420262402 #154; a list or a NumPy integer scalar takes the fallback: np.bool_(False) is
        # index 0 (seed 53 #232), np.int64(-5) stays int64; attr_rules.default_group)
        math.check_distributed_variables((indices, dims))
        i, d = attr_rules.default_group([indices, dims], dtypes.int32, ("int32", "int64"),
                                        attr_rules.fast_path_takes("UnravelIndex", (indices, dims)))
    UNRAVEL_INDEX.dtype((i.dtype, d.dtype), None)
    from simdist.runtime.ops import infer_ctx
    infer_ctx.check("UnravelIndex", {"indices": i, "dims": d}, {})   # (traced: dims of rank 1, shape_fns_array)
    dv, iv = dispatch.static_value(d), dispatch.static_value(i)
    # (the kernel's order, observed on TF 2.21: the indices' rank, then their emptiness (`unravel_index([[]], [2])`
    # is the rank's error, `unravel_index([], [[2]])` the emptiness'), then the dims' rank; fz42)
    if i.ndim > 1:
        raise errors.InvalidArgumentError(None, None, f"The indices can only be scalar or vector, got "
                                          f"\"{args.dims(iv.shape)}\" [Op:UnravelIndex]")
    if iv.size == 0:
        raise errors.InvalidArgumentError(None, None, f"received empty tensor indices: Tensor<type: {i.dtype.name} "
                                          f"shape: {args.dims(iv.shape)} values: > [Op:UnravelIndex]")
    if d.ndim != 1:
        raise errors.InvalidArgumentError(None, None, f"The dims argument must be a 1-D tensor, got shape "
                                          f"{args.dims(dv.shape)} [Op:UnravelIndex]")
    # (the dims' and the indices' values are the kernel's checks, `_unravel`, with TF 2.21's texts: a
    # dry run goes on past them with the op's stand-in)
    return dispatch.execute(UNRAVEL_INDEX, (i, d))


# --- TensorScatterMax / TensorScatterMin ---------------------------------------------------------------------------
def _tensor_scatter_extreme(wins: Any, opname: str) -> Any:
    """out[i] = u if wins(u, out[i]) else out[i], update by update (TF's functor: u > out for max, u <
    out for min, so a NaN already there stays and a NaN update is dropped)."""
    from simdist.runtime.ops.scatter import _check_nd, scatters_nothing, tensor_scatter_checks

    def forward(x: np.ndarray, idx: np.ndarray, upd: np.ndarray) -> np.ndarray:
        tensor_scatter_checks(x.shape, idx.shape, upd.shape, opname)
        if scatters_nothing(idx.shape, x.shape, opname):
            return x.copy()
        pos = _check_nd(idx, x.shape, "shape", opname)
        out = x.copy()
        k = idx.shape[-1]
        flat_pos = [p.reshape(-1) for p in pos]
        flat_upd = upd.reshape((-1,) + x.shape[k:])
        with np.errstate(invalid="ignore"):
            for j in range(flat_upd.shape[0]):
                at = tuple(p[j] for p in flat_pos)
                cur = out[at]
                out[at] = np.where(wins(flat_upd[j], cur), flat_upd[j], cur)
        return out
    return forward


def _scatter_rule(name: str) -> Any:
    same = args.same_dtype(name)

    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        d = same((dts[0], dts[2]), attrs)
        _no_bool_kernel(name, d)
        return d
    return rule


_SCATTER_LANES = lanes("its indices address one lane's rows: no stacked form written")
TENSOR_SCATTER_MAX = register("TensorScatterMax", _tensor_scatter_extreme(np.greater, "TensorScatterMax"),
                              _scatter_rule("TensorScatterMax"), lambda arrays, out, attrs: arrays[2].size,
                              kind="gather/scatter", fusion=_SCATTER_LANES)
TENSOR_SCATTER_MIN = register("TensorScatterMin", _tensor_scatter_extreme(np.less, "TensorScatterMin"),
                              _scatter_rule("TensorScatterMin"), lambda arrays, out, attrs: arrays[2].size,
                              kind="gather/scatter", fusion=_SCATTER_LANES)
from simdist.runtime.ops.scatter import tensor_scatter_standin  # noqa: E402 - beside its ops
TENSOR_SCATTER_MAX.standin = TENSOR_SCATTER_MIN.standin = tensor_scatter_standin
TENSOR_SCATTER_MAX.standin_static = TENSOR_SCATTER_MIN.standin_static = True
TENSOR_SCATTER_MAX.dtype = kernel_first("TensorScatterMax", TENSOR_SCATTER_MAX.dtype)
TENSOR_SCATTER_MIN.dtype = kernel_first("TensorScatterMin", TENSOR_SCATTER_MIN.dtype)


def tensor_scatter_nd_max(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Tensor:
    """`tf.tensor_scatter_nd_max`: a copy of tensor with max(tensor[i], update) at each index."""
    from simdist.runtime.ops.scatter import _tensor_scatter_call
    return _tensor_scatter_call(TENSOR_SCATTER_MAX, tensor, indices, updates)


def tensor_scatter_nd_min(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Tensor:
    """`tf.tensor_scatter_nd_min`: a copy of tensor with min(tensor[i], update) at each index."""
    from simdist.runtime.ops.scatter import _tensor_scatter_call
    return _tensor_scatter_call(TENSOR_SCATTER_MIN, tensor, indices, updates)


def _scatter_extreme_grad(op: Any, grad: Any) -> list:
    """TF's _TensorScatterMinOrMaxGrad: the gradient split between x and the updates that equal the output."""
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import shape
    from simdist.runtime.ops.scatter import gather_nd, scatter_nd
    x, indices, y = op.inputs
    output = op.outputs[0]
    x_ind = math.cast(math.equal(x, output), grad.dtype)
    y_out = gather_nd(output, indices)
    y_ind = math.cast(math.equal(y, y_out), grad.dtype)
    ys_ind = scatter_nd(indices, y_ind, shape(x, out_type=indices.dtype))
    ind = x_ind + ys_ind
    x_grad = grad * x_ind / ind
    y_grad = y_ind * gather_nd(grad / ind, indices)
    return [x_grad, None, y_grad]


RegisterGradient("TensorScatterMax")(_scatter_extreme_grad)
RegisterGradient("TensorScatterMin")(_scatter_extreme_grad)


# --- ShapeN, IdentityN, BroadcastArgs, EnsureShape, Bitcast ----------------------------------------------------------
def shape_n(input: Sequence[Any], out_type: Any = dtypes.int32, name: str | None = None) -> list[Tensor]:  # noqa: A002
    """`tf.shape_n`: the shape of each tensor of the list (ShapeN: one Shape per input)."""
    from simdist.runtime.ops.array import shape
    from simdist.runtime.ops.list_inputs import matching_list
    fast = isinstance(out_type, (int, dtypes.DType))
    attr_rules.list_input("ShapeN", "input", input, fast=fast)    # (ops.attr-types)
    ot = dtypes.as_dtype(out_type)
    if ot.name not in _INT_INDEX:
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'out_type' of {args.tf_name(ot)} is not in the "
                                          "list of allowed values: int32, int64 [Op:ShapeN]")
    if isinstance(input, (list, tuple, np.ndarray, Tensor)) and len(input) == 0:   # (a tensor: its rows, none)
        from simdist.runtime.ops.list_inputs import empty_list
        raise empty_list("ShapeN", "input", typed=False)
    # (the list converts as one type attr's: after the first element, Python values take its dtype,
    # so [[1.0], [1e300]] is [1.0] and [inf] in float32; fz14 seed 1420262402 #97)
    ts = matching_list(list(input), "ShapeN", "input", fallback=not fast) if isinstance(input, (list, tuple)) else input
    # (a list of tensors is the one attr T's: tensors of two dtypes are op_def_library's TypeError in
    # a graph, eagerly the kernel's input check; fz25b: ssim_multiscale of a uint8 and a float64
    # image, seed 1420262502 #214)
    dts = [_t(x).dtype for x in ts] if isinstance(ts, (list, tuple)) else []
    bad = next((i for i, d in enumerate(dts) if d != dts[0]), None)
    if bad is not None:
        if context.in_function():
            raise TypeError(f"Tensors in list passed to 'input' of 'ShapeN' Op have types "
                            f"[{', '.join(d.name for d in dts)}] that don't all match.")
        raise args.dtype_error("ShapeN", bad, dts[0], dts[bad])
    return [shape(x, out_type=ot) for x in ts]


def _identity_n(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    return tuple(arrays)


IDENTITY_N = register("IdentityN", _identity_n, lambda dts, attrs: tuple(dts), args.zero_flops, num_outputs=-1,
                      kind="shape", fusion=lanes("a list of outputs passed through"),
                      bytes=lambda arrays, outs, attrs: (0, 0))


@RegisterGradient("IdentityN")
def _identity_n_grad(op: Any, *grads: Any) -> list:
    return list(grads)


def identity_n(input: Sequence[Any], name: str | None = None) -> list[Tensor]:  # noqa: A002
    """`tf.identity_n`: each tensor of the list passed through (IdentityN; gradients pass through).
    Inside a tf.function a value that is not a list or tuple (an array, a tensor, a string) is
    op_def_library's TypeError for a list input (clause ops.attr-types; fz14 seed 1420261217 #92)."""
    from simdist.runtime import context
    if context.in_function() and not isinstance(input, (list, tuple)):
        raise TypeError(f"Expected list for 'input' argument to 'IdentityN' Op, not {input}.")
    if isinstance(input, np.ndarray) and input.ndim > 1:
        # (eagerly the fast path's sequence check of the list(type) attr T refuses an array of
        # rank > 1; TF's first IdentityN call of a process takes another path and iterates it:
        # not modelled)
        raise ValueError(f"expected a sequence for attr T, got an ndarray with rank {input.ndim} instead")
    ts = tuple(_t(x) for x in input)
    if not ts:
        raise ValueError("Attr 'T' of 'IdentityN' Op passed list of length 0 less than minimum 1.")
    return list(dispatch.execute(IDENTITY_N, ts))


def _broadcast_args(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """bcast_ops.cc's BCast of two shape vectors, dimension by dimension from the right: equal,
    or one of them 1 (the other is taken); any int64 value, a negative one too (BCast does not
    check them: [-2,1,4] with [4] is [-2,1,4]); else "Incompatible shapes" (rawfz21)."""
    a, b = [int(v) for v in x.tolist()], [int(v) for v in y.tolist()]
    n = max(len(a), len(b))
    pa, pb = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
    out = []
    for u, v in zip(pa, pb):
        if u != v and u != 1 and v != 1:
            raise errors.InvalidArgumentError(None, None, f"Incompatible shapes: [{','.join(map(str, a))}] vs. "
                                              f"[{','.join(map(str, b))}] [Op:BroadcastArgs]")
        out.append(v if u == 1 else u)
    return np.asarray(out, dtype=x.dtype)


BROADCAST_ARGS = register("BroadcastArgs", _broadcast_args, _int32_int64("BroadcastArgs"),
                          args.zero_flops, kind="shape-query")
no_tf_gradient("BroadcastArgs")


def broadcast_dynamic_shape(shape_x: Any, shape_y: Any) -> Tensor:
    """`tf.broadcast_dynamic_shape`: the broadcast shape of two 1-D shape tensors (BroadcastArgs),
    its operands converted as TF's eager fast path converts them (`_shape_operands`)."""
    x, y = _shape_operands(shape_x, shape_y)
    BROADCAST_ARGS.dtype((x.dtype, y.dtype), None)
    for k, t in enumerate((x, y)):   # (vectors only: the kernel's "In[k] must be a vector", the shape function's rank
        if t.shape.rank != 1:        # error in a graph; TF 2.21, fz62: the fourth generator's seed 62404)
            dims = [list(x.shape.as_list()), list(y.shape.as_list())]
            raise trace_errors.shape_error(f"In[{k}] must be a vector.{args.dims(dims[k])} [Op:BroadcastArgs]",
                                           f"Shape must be rank 1 but is rank {t.shape.rank}", "BroadcastArgs", dims)
    xs, ys = dispatch.static_value(x), dispatch.static_value(y)
    try:
        # (the kernel's own BCast rule, negative dimensions included: `broadcast_dynamic_shape([-4, 3], [1, 3])` is
        # [-4, 3] where NumPy's broadcast_shapes refuses them; fz66, fz62gen seed 66408 #3)
        _broadcast_args(np.asarray(xs), np.asarray(ys))
    except errors.InvalidArgumentError:
        # (the kernel's refusal: in a tf.function BroadcastArgs' shape function reads no values, so a later
        # op's graph-build error comes first (`squared_difference(y, '2')`: TypeError), and TF prunes an
        # unused BroadcastArgs; fz39b, fourteenth generator seed 1420393001 #21)
        return dispatch.refused(errors.InvalidArgumentError(
            None, None, f"Incompatible shapes: {args.dims(xs)} vs. {args.dims(ys)} [Op:BroadcastArgs]"), x.dtype,
            [max(len(xs), len(ys))], pruned=True)
    return dispatch.execute(BROADCAST_ARGS, (x, y))


def _shape_operands(shape_x: Any, shape_y: Any) -> tuple[Tensor, Tensor]:
    """BroadcastArgs's operands (attr T: int32 or int64, default int32) as TF 2.21 converts them.
    A Tensor operand fixes T and the other is converted to it. Eagerly, with none, the fast path
    converts the first to T's default where it can (a NumPy int64 or float array, a list, a
    TensorShape: int32; values beyond int32 keep int64) and the second to the first's dtype;
    inside a tf.function each keeps its own dtype (op_def_library). A TensorShape converts as
    TF's registered conversion does (ValueError when partially known or beyond int32)."""
    from simdist.runtime.ops import array, graph_inputs
    orig = (shape_x, shape_y)
    if context.in_function() and not isinstance(shape_x, Tensor) and not hasattr(shape_x, "_as_tensor"):
        # (a graph's op_def_library: the first value fixes T, by its own dtype (an int64 array is
        # int64), a TensorShape as its conversion gives it, and the second converts to T:
        # `(int64 array, TensorShape([2]))` is int64; fz25b, seed 1420262501 #262)
        first = _shape_tensor(shape_x) if isinstance(shape_x, TensorShape) else \
            graph_inputs.convert("BroadcastArgs", shape_x, "s0")
        if isinstance(shape_y, Tensor) or hasattr(shape_y, "_as_tensor"):
            return first, _t(shape_y)
        if isinstance(shape_y, TensorShape):
            _shape_tensor(shape_y)   # (a partially known one: its ValueError)
            shape_y = shape_y.as_list()
        return first, array.constant(shape_y, dtype=first.dtype)
    vals = [_shape_tensor(v) if isinstance(v, TensorShape) else v for v in orig]
    known = next((v.dtype for v in vals if isinstance(v, Tensor)), None)
    if not any(isinstance(v, Tensor) for v in orig) and dispatch.recorder() is None and \
            not all(_fast_path_element(v) for v in orig):
        # a list, tuple or TensorShape sends the call to the eager fallback (CheckOneInput):
        # args_to_matching_eager converts the first value on its own (a dtype outside T's list:
        # again with T's default int32 preferred) and the other to its dtype (`(int64 array,
        # (1, 2))` is int64; fz14 seed 1420261202 #591)
        first = _t(vals[0])
        if first.dtype not in (dtypes.int32, dtypes.int64):
            # (preferred_dtype: an ndarray casts; a list tries int32 and keeps its own dtype where that
            # fails: `[]` is int32, `broadcast_dynamic_shape([], (2, 0))` is [2, 0]; fz14 seed 1420261219 #22)
            first = convert_to_tensor(vals[0], dtype=dtypes.int32) if isinstance(vals[0], np.ndarray) else \
                convert_to_tensor(vals[0], dtype_hint=dtypes.int32)
        second = orig[1].as_list() if isinstance(orig[1], TensorShape) else orig[1]
        from simdist.runtime.ops import array
        return first, array.constant(second, dtype=first.dtype)
    if known is None and dispatch.recorder() is None:
        first = _t(vals[0])
        if first.dtype is not dtypes.int32:
            a = np.asarray(first.numpy())
            if a.dtype.kind in "iuf" and (not a.size or (np.abs(a.astype(np.float64)) < 2 ** 31).all()):
                from simdist.runtime.ops.math import cast
                first = cast(first, dtypes.int32)
        vals[0], known = first, first.dtype
    if known is None:
        return _t(vals[0]), _t(vals[1])
    return tuple(v if isinstance(v, Tensor) else array.constant(v, dtype=known) for v in vals)  # type: ignore[return-value]


def _fast_path_element(v: Any) -> bool:
    """pywrap_tfe_src.cc CheckOneInput: an EagerTensor, a variable, an ndarray or a Python int or
    float takes the generated op's fast path; anything else (a list, a TensorShape) its fallback."""
    return isinstance(v, (Tensor, np.ndarray, int, float)) or (hasattr(v, "_as_tensor") and hasattr(v, "dtype"))


def _shape_tensor(shape: TensorShape) -> Tensor:
    """TF's TensorShape -> Tensor conversion (constant_tensor_conversion.py): int32 unless a
    dimension needs int64, which is a ValueError without a requested dtype."""
    from simdist.runtime.ops import array
    if shape.rank is None or any(d is None for d in shape.as_list()):
        raise ValueError(f"Cannot convert a partially known TensorShape {_shape_text(shape)} to a Tensor.")
    dims_ = shape.as_list()
    if any(d >= 2 ** 31 for d in dims_):
        raise ValueError(f"Cannot convert TensorShape {_shape_text(shape)} to dtype int32; a dimension is too "
                         "large. Consider using tf.int64.")
    return array.constant(np.asarray(dims_, np.int32).reshape(len(dims_)), dtype=dtypes.int32)


def _shape_text(shape: TensorShape) -> str:
    """A TensorShape as Python prints its tuple: (2, None), (3,)."""
    dims_ = ["None" if d is None else str(d) for d in shape.as_list()]
    return "(" + ", ".join(dims_) + ("," if len(dims_) == 1 else "") + ")"


def broadcast_static_shape(shape_x: Any, shape_y: Any) -> TensorShape:
    """`tf.broadcast_static_shape`: the broadcast TensorShape of two TensorShapes (ValueError when
    they do not broadcast). TF reads `shape_x.ndims` on the arguments as given: a tuple, list or
    array is AttributeError (common_shapes.broadcast_shape; clause ops.argument-errors)."""
    raw_attribute(shape_x, "ndims")
    raw_attribute(shape_y, "ndims")
    sx, sy = TensorShape(shape_x), TensorShape(shape_y)
    if sx.rank is None or sy.rank is None:
        return TensorShape(None)
    a, b = sx.as_list(), sy.as_list()
    n = max(len(a), len(b))
    a, b = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
    out: list[Any] = []
    for p, q in zip(a, b):
        if p is None or q is None:   # (common_shapes: an unknown dim takes a known one > 1)
            known = q if p is None else p
            out.append(known if known is not None and known > 1 else None)
        elif p == 1:
            out.append(q)
        elif q == 1 or p == q:
            out.append(p)
        else:
            raise ValueError(f"Incompatible shapes for broadcasting. Two shapes are compatible if for each dimension "
                             f"pair they are either equal or one of them is 1. Received: {sx} and {sy}.")
    return TensorShape(out)


ENSURE_SHAPE = register("EnsureShape", lambda a, shape: a, args.first, args.zero_flops, kind="shape",
                        fusion=lanes("it checks one lane's shape"), bytes=lambda arrays, outs, attrs: (0, 0))


@RegisterGradient("EnsureShape")
def _ensure_shape_grad(op: Any, grad: Any) -> list:
    return [grad]


def ensure_shape(x: Any, shape: Any, name: str | None = None) -> Tensor:
    """`tf.ensure_shape`: x itself when its shape is compatible with `shape` (None dims match any),
    else InvalidArgumentError."""
    from simdist.runtime import symbolic
    from simdist.runtime.ops import array_shape_fns
    t = _t(x)
    if isinstance(shape, Tensor) and context.in_function() and symbolic.is_graph(shape):
        # (array_ops.ensure_shape: TensorShape(shape), whose iter() of a graph tensor fails, so it is
        # taken as one dimension: as_dimension's TypeError; fz14 seed 1420261218 #5)
        raise TypeError(f"Dimension value must be integer or None or have an __index__ method, got value "
                        f"'{shape!r}' with type '{type(shape)!r}'")
    want = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    # (traced: EnsureShape's shape function on the shape the graph knows, which also refuses an
    # attr of unknown rank for an input of known rank, and the kernel's check when the graph runs)
    text = array_shape_fns.ensure_shape(t, want.as_list() if want.rank is not None else None) \
        if context.in_function() else None
    if text is not None or not t.shape.is_compatible_with(want):
        err = errors.InvalidArgumentError(None, None, f"Shape of tensor input {args.dims(t.shape.as_list())} is not "
                                          f"compatible with expected shape {_shape_text(want)}. [Op:EnsureShape]")
        if text is not None:
            raise trace_errors.mark_shape(err, text, "EnsureShape", [static_shapes.known_shape(t)])
        raise err
    return dispatch.execute(ENSURE_SHAPE, (t,), {"shape": tuple(want.as_list()) if want.rank is not None else None})


def _shape_text(s: TensorShape) -> str:
    """A partial shape as TF's C++ DebugString prints it: [2,?], <unknown>."""
    if s.rank is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in s.as_list()) + "]"


def get_static_value(tensor: Any, partial: bool = False) -> Any:
    """`tf.get_static_value` (tensor_util.constant_value, read and run): an eager tensor's value
    as a NumPy array; a variable has none (None); anything that is not a tensor — a NumPy array,
    a Python value, None — is returned as it is."""
    if not isinstance(tensor, Tensor):
        from simdist.runtime.variables import Variable
        if isinstance(tensor, Variable):
            return None
        return tensor
    rec = dispatch.recorder()
    if rec is not None and not _graph_constant(rec, tensor):
        return None
    if rec is not None:
        # (a nested tf.function's argument is its own graph's placeholder: the caller's constant, `inner(x,
        # tf.constant(3))` inside an outer tf.function, has no value there; graph_constants marks the call's
        # arguments VARYING, and what is computed from them; surv59 kw_nested, observed on TF 2.21)
        from simdist.runtime.ops import graph_constants
        if graph_constants.level(tensor) >= graph_constants.VARYING:
            return None
    if rec is None and context.in_function():
        # (a trace with no recorder, get_concrete_function's on an input_signature's placeholders:
        # graph_constants' marks say what constant_value knows; fz23b, fz14 SEEN seed 1420262001 #113)
        from simdist.runtime.ops import graph_constants
        if not graph_constants.python_constant(tensor):
            return None
    return tensor.numpy()


# ops whose value tensor_util.constant_value computes in a graph from constant inputs
_CONSTANT_VALUE_OPS = frozenset(("Shape", "ShapeN", "Size", "Rank", "Range", "Cast", "Identity", "StopGradient", "Fill",
                                 "Pack", "ConcatV2", "Equal", "NotEqual"))


def _graph_constant(rec: Any, t: Tensor) -> bool:
    """Whether TF's constant_value knows t's value inside a tf.function being traced: an eager
    tensor from outside (never an op's input yet), a constant made in the function, or one of
    the ops it evaluates (_CONSTANT_VALUE_OPS) over constants; an argument (a placeholder) and
    any other op's output have none (fuzz14 seed 1420261202 #494: `get_static_value(x)` of an
    input_signature argument is None)."""
    from simdist.runtime.graph.ir import CONST
    i = rec.slot_of.get(id(t))
    if i is None:
        return True
    node = rec.nodes[i]
    if node.kind == CONST:
        return node.key != "capture"
    return bool(rec.static[i]) and node.op is not None and node.op.name in _CONSTANT_VALUE_OPS


def parallel_stack(values: Sequence[Any], name: str = "parallel_stack") -> Tensor:
    """`tf.parallel_stack`: stack while a graph is built (a tf.function's Python, a trace or a dry
    run of get_concrete_function too: array_ops asks context.executing_eagerly()); executing
    eagerly it is TF's RuntimeError."""
    if context.executing_eagerly():
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution.")
    from simdist.runtime.ops.array import stack
    # (array_ops.parallel_stack expands each value by itself: values of several dtypes are
    # ParallelConcat's list TypeError, not converted to the first one's; fz14 seed 1420261202 #801)
    ts = [_t(v) for v in values]
    if len({t.dtype.name for t in ts}) > 1:
        raise TypeError(f"Tensors in list passed to 'values' of 'ParallelConcat' Op have types "
                        f"[{', '.join(t.dtype.name for t in ts)}] that don't all match.")
    return stack(ts, axis=0)


def _bitcast(a: np.ndarray, type: dtypes.DType) -> np.ndarray:  # noqa: A002 - TF's attr
    to = type.np   # (a quantized dtype's storage: its as_numpy_dtype is TF's structured one)
    src = a.dtype.itemsize
    if src == to.itemsize:
        return a.view(to)
    if src > to.itemsize:
        return np.ascontiguousarray(a).view(to).reshape(a.shape + (src // to.itemsize,))
    return np.ascontiguousarray(a).view(to).reshape(a.shape[:-1])


BITCAST = register("Bitcast", _bitcast, args.attr_dtype("type"), args.zero_flops, kind="shape",
                   fusion=lanes("it may add or drop the last axis: no stacked form written"),
                   bytes=lambda arrays, outs, attrs: (0, 0))
no_tf_gradient("Bitcast")

# (complex64/complex128 too: Bitcast's op def lists them, `bitcast(int64, complex64)` computes; fz5 ext seed 61 #121)
_BITCASTABLE = ("bfloat16", "float16", "float32", "float64", "int64", "int32", "uint8", "uint16", "uint32",
                "uint64", "int8", "int16", "complex64", "complex128", "qint8", "quint8", "qint16", "quint16", "qint32")


_BITCAST_ALLOWED = ", ".join(_BITCASTABLE)
_BITCAST_C_LIST = ", ".join({"float16": "half", "float32": "float", "float64": "double"}.get(n, n) for n in _BITCASTABLE)


def bitcast(input: Any, type: Any, name: str | None = None) -> Tensor:  # noqa: A002 - TF's names
    """`tf.bitcast`: the bits reinterpreted as `type`; a wider input gains a last axis of the
    size ratio, a narrower one loses its last axis (which must be that ratio)."""
    t = _t(input)
    to = dtypes.as_dtype(type)
    for d, attr in ((t.dtype, "T"), (to, "type")):
        if d.name not in _BITCASTABLE:
            # (the OpDef's list in C's spelling, as TF 2.21's message gives it: observed for bool and int4)
            err = errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of {args.tf_name(d)} is not in the "
                                              f"list of allowed values: {_BITCAST_C_LIST} [Op:Bitcast]")
            # (traced: op_def_library's type check of T (parameter 'input') or of the attr 'type')
            raise trace_errors.static(err, TypeError, f"Value passed to parameter '{'input' if attr == 'T' else attr}' "
                                                      f"has DataType {d.name} not in list of allowed values: "
                                                      f"{_BITCAST_ALLOWED}")
    a, b = t.dtype.size, to.size
    if a < b:
        shp = t.shape.as_list()
        if not shp or shp[-1] != b // a:
            err = errors.InvalidArgumentError(None, None, "Cannot bitcast from "
                                              f"{args.tf_name(t.dtype)} to "
                                              f"{args.tf_name(to)}: shape {args.dims(shp)} [Op:Bitcast]")
            if not shp and not static_shapes.rank_unknown(t):   # traced: Bitcast's shape function wants rank >= 1
                raise trace_errors.shape_error(str(err.message), "Shape must be at least rank 1 but is rank 0",
                                               "Bitcast", (shp,))
            known = static_shapes.known_shape(t)
            if shp and known is not None and known[-1] is not None:
                # traced: Bitcast's shape function checks a known last dimension (seed 54 #256)
                raise trace_errors.mark_shape(err, f"Cannot bitcast due to shape. {shp[-1]} does not match {b // a}",
                                              "Bitcast", (shp,))
            raise err
    out = dispatch.execute(BITCAST, (t,), {"type": to})
    if to.is_floating or to.is_complex:   # bits that make subnormals are subnormals to the ops that read them
        from simdist.runtime import subnormals
        subnormals.mark_made(out)
    return out
