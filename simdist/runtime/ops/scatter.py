"""N-d gathers and scatters and segment sums (TF's GatherNd, ScatterNd, TensorScatterUpdate,
TensorScatterAdd, TensorScatterSub, SegmentSum, and the public form of UnsortedSegmentSum),
with TF's index checks and gradients.

An index that does not address an element raises InvalidArgumentError as TF's CPU kernels do
(never NumPy's wrap-around of negative indices). Duplicate indices: ScatterNd and
TensorScatterAdd add them; TensorScatterUpdate keeps the last (what TF's CPU kernel does).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime import subnormals as _subnormals
from simdist.runtime.indexed_slices import IndexedSlices
from simdist.runtime.ops import (alloc, args, attr_rules, dispatch, graph_constants, partial_values, static_shapes,
                                 trace_errors)
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.math import NUMERIC
from simdist.runtime.ops.registry import RegisterGradient, lanes, register, selected_bytes
from simdist.runtime.ops.cpu_kernels import kernel_first
from simdist.runtime.tensor import Tensor, convert_to_tensor

# Why these ops run lane by lane in a fused replay (OpDef.fusion).
_LANE_ROWS = lanes("its indices address one lane's rows: no stacked form written")

__all__ = ["gather_nd", "scatter_nd", "tensor_scatter_nd_update", "tensor_scatter_nd_add",
           "tensor_scatter_nd_sub", "segment_sum", "unsorted_segment_sum"]

_INDEX = (dtypes.int16, dtypes.int32, dtypes.int64)


def _indices(x: Any, opname: str, allowed: str = "int16, int32, int64") -> Tensor:
    t = x if isinstance(x, Tensor) else convert_to_tensor(x)
    if t.dtype not in _INDEX:
        raise trace_errors.attr_not_allowed(opname, "Tindices", t.dtype, allowed)
    return t


def _check_nd(idx: np.ndarray, shape: tuple[int, ...], what: str, opname: str) -> tuple:
    """The index tuple of idx[..., :K] into shape, or TF's error naming the first bad index."""
    k = idx.shape[-1]
    lim = np.asarray(shape[:k], dtype=np.int64)
    bad = np.any((idx < 0) | (idx >= lim), axis=-1)
    if bad.any():
        flat = idx.reshape(-1, k)
        j = int(np.argmax(bad.reshape(-1)))
        shown = ", ".join(str(int(v)) for v in flat[j])
        raise errors.InvalidArgumentError(None, None, f"indices[{j}] = [{shown}] does not index into {what} "
                                          f"[{','.join(map(str, shape))}]{', node name: GatherNd' if opname == 'GatherNd' else ''} "
                                          f"[Op:{opname}]")
    return tuple(np.moveaxis(idx, -1, 0))


# --- gather_nd ------------------------------------------------------------------------------------------------
def _gather_nd(p: np.ndarray, idx: np.ndarray, bad_indices_policy: str = "") -> np.ndarray:
    """GatherNd's CPU kernel (gather_nd_op.cc DoGatherNd): an empty params with any slice
    requested is refused before the indices are checked (fuzz2 seed 4 #286); then, with any slice requested,
    its switch on the indices' depth has cases 0 to 7 only ("Only indices.shape[-1] values between 1 and 7 are
    currently supported.  Requested rank: 8", before any index is read; fz31a, beside ScatterNd's)."""
    if p.ndim == 0:   # (its first check, for every indices' shape: [0] and [2, 0] indices gather no slice of a
        # scalar yet are refused, eagerly and when a graph runs; the shape function passes them; fz40 seed 4020261201 #16)
        raise errors.InvalidArgumentError(None, None, "params must be at least a vector [Op:GatherNd]")
    if idx.ndim > 0 and idx.shape[-1] > p.ndim:   # (its third check, before the empty params and the depth's
        # switch: batch_gather_nd's prepended batch coordinates reach it eagerly; gsweep63 g-gather-nd-batch-dims)
        raise errors.InvalidArgumentError(None, None, "index innermost dimension length must be <= params rank; "
                                          f"saw: {idx.shape[-1]} vs. {p.ndim} [Op:GatherNd]")
    n = int(np.prod(idx.shape[:-1], dtype=np.int64))
    if p.size == 0 and n > 0:
        raise errors.InvalidArgumentError(None, None, "Requested more than 0 entries, but params is empty.  Params "
                                          f"shape: [{','.join(map(str, p.shape))}] [Op:GatherNd]")
    if n > 0 and idx.shape[-1] > 7:
        raise errors.InvalidArgumentError(None, None, "Only indices.shape[-1] values between 1 and 7 are currently "
                                          f"supported.  Requested rank: {idx.shape[-1]} [Op:GatherNd]")
    if idx.shape[-1] == 0:   # (each index of depth 0 gathers all of params: [2, 0] indices give [2] + params'
        return np.broadcast_to(p, idx.shape[:-1] + p.shape).copy()   # shape; fz31a, sig seed 3120261202 #174)
    if bad_indices_policy == "IGNORE":   # (an index out of range gathers a slice of zeros)
        lim = np.asarray(p.shape[:idx.shape[-1]], dtype=np.int64)
        bad = np.any((idx < 0) | (idx >= lim), axis=-1)
        out = p[tuple(np.moveaxis(np.where(bad[..., None], 0, idx), -1, 0))]
        out[bad] = 0
        return out
    return p[_check_nd(idx, p.shape, "param shape", "GatherNd")]


_POLICIES = ("", "DEFAULT", "ERROR", "IGNORE")


def _policy_attrs(policy: Any, p: Tensor, idx: Tensor) -> dict | None:
    """GatherNd's bad_indices_policy attr (TF 2.21): "", "DEFAULT" and "ERROR" refuse an index out of range
    (InvalidArgumentError), "IGNORE" gathers zeros for it; no CPU kernel is registered for another string
    (NotFoundError, eagerly and when a graph runs). None for the default."""
    if policy in ("", "DEFAULT", "ERROR"):
        return None
    if policy not in _POLICIES:
        raise errors.NotFoundError(None, None, "Could not find device for node: {{node GatherNd}} = GatherNd["
                                   f"Tindices=DT_{idx.dtype.name.upper()}, Tparams=DT_{p.dtype.name.upper()}, "
                                   f'bad_indices_policy="{policy}"]')
    return {"bad_indices_policy": policy}


GATHER_ND = register("GatherNd", _gather_nd, args.first, lambda arrays, out, attrs: out.size, kind="gather/scatter",
                     fusion=_LANE_ROWS, bytes=selected_bytes)
# (a dry run's stand-in past a kernel refusal, a scalar params among them: GatherNdShape's output, the indices' outer
# dimensions then params' dimensions past the indices' depth; fz45b, fz44_gen seed 44009)
GATHER_ND.standin_static = True
GATHER_ND.standin = lambda arrays, attrs: (tuple(arrays[1].shape[:-1]) + tuple(arrays[0].shape[arrays[1].shape[-1]:]),)


def gather_nd(params: Any, indices: Any, batch_dims: int = 0, name: str | None = None,
              bad_indices_policy: str = "") -> Tensor:
    """`tf.gather_nd`: out[i...] = params[indices[i...]] (the last axis of indices addresses the
    leading dims of params); batch_dims leading dims are shared. bad_indices_policy "IGNORE" gathers zeros for
    an index out of range (`_policy_attrs`; the argument TF 2.21 has, fz54b's signature check)."""
    p = _t(params)
    idx = _indices(indices, "GatherNd")
    attrs = _policy_attrs(bad_indices_policy, p, idx)
    if isinstance(batch_dims, Tensor) and graph_constants.python_constant(batch_dims):
        batch_dims = int(batch_dims._v)   # (array_ops.gather_nd: tensor_util.constant_value, then int)
    elif isinstance(batch_dims, np.integer):
        batch_dims = int(batch_dims)
    elif isinstance(batch_dims, Tensor):   # (its `batch_dims == 0` is a graph tensor's truth)
        from simdist.runtime import symbolic
        symbolic.check_truth_taken(batch_dims)
    if isinstance(batch_dims, Tensor) or batch_dims:
        _batch_gather_nd_checks(p, idx, batch_dims)
        return _batched_gather_nd(p, idx, int(batch_dims), attrs)
    if idx.ndim == 0 or idx.shape[-1] > p.ndim:
        eager = ("params must be at least a vector [Op:GatherNd]" if p.ndim == 0 else
                 "index innermost dimension length must be <= params rank; saw: "
                 f"{idx.shape[-1] if idx.ndim else 0} vs. {p.ndim} [Op:GatherNd]")
        if idx.ndim == 0:
            raise trace_errors.shape_error(eager, "Shape must be at least rank 1 but is rank 0", "GatherNd",
                                           [p.shape, idx.shape])
        if static_shapes.rank_unknown(p) or static_shapes.known_dim(idx, -1) is None:
            # (GatherNd's shape function compares indices.shape[-1] with params' rank only where the graph knows
            # both, else its output is of unknown rank: the kernel's InvalidArgumentError when the graph runs, a
            # stand-in of unknown rank in a dry run; fz20 sig seed 4420261201 #188)
            out = dispatch.refused(errors.InvalidArgumentError(None, None, eager), p.dtype, idx.shape.as_list()[:-1],
                                   pruned=True)
            return static_shapes.mark_rank_unknown(out)
        # (the shape function's ValueError in a graph; fz4 seed 41 #28)
        raise trace_errors.shape_error(
            eager, f"indices.shape[-1] must be <= params.rank, but saw indices shape: "
                   f"{trace_errors.shapes_text([idx.shape])} and params shape: {trace_errors.shapes_text([p.shape])}",
            "GatherNd", [p.shape, idx.shape])
    return dispatch.execute(GATHER_ND, (p, idx), attrs)


def _batch_gather_nd_checks(p: Tensor, idx: Tensor, batch_dims: Any) -> None:
    """array_ops.batch_gather_nd's Python checks, eagerly and traced alike: batch_dims a Python int
    (TypeError; a tensor the graph does not know stays one), not negative, below the known ranks
    of indices, then of params (ValueError; fz14 seed 14 #133)."""
    if not isinstance(batch_dims, int):
        raise TypeError(f"Argument `batch_dims` must be an int; got {batch_dims}")
    if batch_dims < 0:
        raise ValueError("tf.gather_nd does not allow negative batch_dims.")
    for arg, t in (("indices", idx), ("params", p)):
        shape = static_shapes.known_shape(t)
        if shape is not None and batch_dims >= len(shape):
            raise ValueError(f"Argument `batch_dims` = {batch_dims} must be less than rank(`{arg}`) = {len(shape)}")
    if context.in_function() and static_shapes.rank_unknown(p):
        # (batch_gather_nd unstacks shape(params)[:batch_dims], whose length the graph does not know for params of
        # unknown rank: unstack's ValueError at trace; TF 2.21, fix64s)
        raise ValueError("Cannot infer argument `num` from shape (None,)")


def _batched_gather_nd(p: Tensor, idx: Tensor, b: int, attrs: dict | None = None) -> Tensor:
    """batch_dims > 0: the batch coordinates prepended to each index, then one GatherNd (TF's
    batch_gather_nd does the same with a concat of a meshgrid)."""
    from simdist.runtime.ops import array
    bshape = p.shape.as_list()[:b]
    grids = np.meshgrid(*[np.arange(d) for d in bshape], indexing="ij")
    inner = idx.shape.as_list()[b:-1]
    coords = np.stack(grids, -1).reshape(bshape + [1] * len(inner) + [b])
    coords = np.broadcast_to(coords, bshape + inner + [b]).astype(idx.dtype._np)
    full = array.concat([array.constant(coords), idx], axis=-1)
    out = dispatch.execute(GATHER_ND, (p, full), attrs)
    return _batched_static(out, p, idx, b) if context.in_function() else out


def _batched_static(out: Tensor, p: Tensor, idx: Tensor, b: int) -> Tensor:
    """batch_gather_nd's static shape: its last reshape to concat(shape(params)[:b], shape(GatherNd)[1:]) keeps the
    params' batch dimensions as the graph knows them, then the indices' inner ones and the params' past the index
    depth (gather_nd(params [None]*3, indices [2, 5, 1], batch_dims=1) is [None, 5, None], of params [2, 3, 4] by
    indices [2, None, 1] [2, None, 4]); an unknown rank where the graph knows no index depth (TF 2.21; fix64s)."""
    kp, ki = static_shapes.known_shape(p), static_shapes.known_shape(idx)
    if kp is None or ki is None or ki[-1] is None:
        return static_shapes.mark_rank_unknown(out)
    # (the flattened indices' reshape to [prod(params' batch), indices[b:]...] infers the batch from indices the
    # graph knows in full; the last reshape infers its one unknown dimension from a GatherNd output of known size:
    # params [None, 3, 4] by indices [2, 5, 1] is [2, 5, 4])
    batch = int(np.prod(kp[:b])) if None not in kp[:b] else int(np.prod(ki[:b])) if None not in ki else None
    gathered = [batch] + ki[b:-1] + kp[b + ki[-1]:]
    dims = kp[:b] + gathered[1:]
    if None not in gathered and dims.count(None) == 1:
        dims = [0 if d is None else d for d in dims]
    return static_shapes.mark(out, tuple(d is None for d in dims)) if len(dims) == out.ndim else out


@RegisterGradient("GatherNd")
def _gather_nd_grad(op: Any, grad: Any) -> list:
    """TF's _GatherNdGrad: IndexedSlices for [N, 1] indices, else a ScatterNd into zeros."""
    from simdist.runtime.ops import array
    ref, indices = op.inputs
    # (`array_ops.shape(ref, out_type=indices.dtype)` first: Shape's out_type refuses int16 indices'
    # dtype, InvalidArgumentError; fz40, twentieth generator tape seed 4020261209 #35)
    array.shape(ref, out_type=indices.dtype)
    shape = ref.shape.as_list()
    if indices.ndim == 2 and indices.shape.as_list()[-1] == 1:
        return [IndexedSlices(grad, array.squeeze(indices, axis=[-1]), array.constant(shape, dtype=indices.dtype)),
                None]
    return [scatter_nd(indices, grad, shape), None]


# --- scatter_nd and tensor_scatter_nd_* ---------------------------------------------------------------------
def _check_ranks(idx_shape: tuple[int, ...], upd_shape: tuple[int, ...], opname: str) -> None:
    """The scatter kernels' first checks (scatter_nd_op.cc): indices, then updates, of rank 1 or more
    (a scalar update: InvalidArgumentError "Updates shape must have rank at least one. Found:[]",
    before any other shape check; simdist broadcast it or leaked NumPy's IndexError: fz15c)."""
    for what, shp in (("Indices", idx_shape), ("Updates", upd_shape)):
        if len(shp) == 0:
            raise errors.InvalidArgumentError(None, None, f"{what} shape must have rank at least one. Found:[] "
                                              f"[Op:{opname}]")


def _check_vector_indices(ids: Sequence[int], us: Sequence[int], opname: str,
                          xs: Sequence[int] | None = None) -> None:
    """ValidateUpdateShape (scatter_nd_op.cc), which ScatterNd and the TensorScatter ops run after
    their own checks: a rank-1 indices tensor counts as a batch of one dimension (batch_dim 1, each
    index of depth 1), so the updates' first dimension must be its length: `tensor_scatter_nd_update(t,
    [0], updates of shape [2])` is InvalidArgumentError "Dimensions [0,1) of indices[shape=[1]] = 1 must
    match dimensions [0,1) of updates[shape=[2]] = 2", where NumPy's reading (one index of depth 1)
    accepted it (measured; fz28b, fz14 seed 1420282803 #77). Then the tensor's (output's)
    dimensions from 1 (the slice depth of a rank-1 indices) must be the updates' from 1 (the batch):
    `tensor_scatter_nd_min(t of [4, 1, 3], [0], updates of [1, 3])`, which the op's own checks
    pass, is InvalidArgumentError "Dimensions [1,3) of input[shape=[4,1,3]] must match dimensions
    [1,2) of updates[shape=[1,3]]" (measured; fz33b, fz14 seed 1420333001 #148)."""
    if len(ids) != 1 or len(us) < 1:
        return
    if us[0] != ids[0]:
        raise errors.InvalidArgumentError(
            None, None, f"Dimensions [0,1) of indices[shape={args.dims(ids)}] = {ids[0]} must match dimensions [0,1) "
                        f"of updates[shape={args.dims(us)}] = {us[0]} [Op:{opname}]")
    if xs is not None and tuple(us[1:]) != tuple(xs[1:]):
        raise errors.InvalidArgumentError(
            None, None, f"Dimensions [1,{len(xs)}) of input[shape={args.dims(xs)}] must match dimensions [1,{len(us)}) "
                        f"of updates[shape={args.dims(us)}] [Op:{opname}]")


def _valid_empty(n_shape: int, n_indices: int, n_updates: int, opname: str) -> None:
    """ScatterNdOp's ValidEmptyOutputShape (scatter_nd_op.cc): no indices and no updates, or all three of the
    shape, the indices and the updates non-empty, where the shape's count is the number of elements of the
    *shape vector*, not of the output: indices [1, 1] with updates [1, 0] into shape [2, 0], or indices [3, 0]
    (no elements) with updates [3, 2], are InvalidArgumentError "Indices and updates specified for empty output
    shape" (TF 2.21, observed; fz31a)."""
    if not ((n_indices == 0 and n_updates == 0) or (n_shape and n_indices and n_updates)):
        raise errors.InvalidArgumentError(None, None, f"Indices and updates specified for empty output shape "
                                          f"[Op:{opname}]")


def _check_updates(idx: np.ndarray, upd_shape: tuple[int, ...], out_shape: tuple[int, ...], opname: str,
                   shape_rank: int = 1) -> None:
    """ScatterNdOp::Compute's checks in its order: indices, then updates, of rank >= 1; the shape a vector of
    dimensions >= 0 (MakeShape); eagerly ValidEmptyOutputShape (in a graph the shape function's merges come
    first, and the kernel checks it as the graph runs: `_scatter_nd`); then the outer and inner dimensions."""
    from simdist.runtime import context
    _check_ranks(tuple(idx.shape), tuple(upd_shape), opname)
    if shape_rank != 1:
        raise errors.InvalidArgumentError(None, None, f"Shape must be a vector [Op:{opname}]")
    neg = next((d for d in out_shape if d < 0), None)
    if neg is not None:
        raise errors.InvalidArgumentError(None, None, f"Dimension {neg} must be >= 0 [Op:{opname}]")
    if not context.in_function():
        _valid_empty(len(out_shape), idx.size, int(np.prod(upd_shape, dtype=np.int64)), opname)
    _check_vector_indices(tuple(idx.shape), tuple(upd_shape), opname, tuple(out_shape))
    lead = idx.shape[:-1]
    if tuple(upd_shape[:len(lead)]) != tuple(lead):
        raise errors.InvalidArgumentError(
            None, None, f"Dimensions [0,{len(lead)}) of indices[shape=[{','.join(map(str, idx.shape))}]] must match "
            f"dimensions [0,{len(lead)}) of updates[shape=[{','.join(map(str, upd_shape))}]] [Op:{opname}]")
    inner = out_shape[idx.shape[-1]:]
    if tuple(upd_shape[len(lead):]) != tuple(inner):
        raise errors.InvalidArgumentError(
            None, None, f"The inner {len(inner)} dimensions of output.shape=[{','.join(map(str, out_shape))}] must "
            f"match the inner {len(upd_shape) - len(lead)} dimensions of updates.shape="
            f"[{','.join(map(str, upd_shape))}] [Op:{opname}]")


def scatters_nothing(idx_shape: Sequence[int], out_shape: Sequence[int], opname: str) -> bool:
    """DoScatterNd (scatter_nd_op.cc) past the shape checks: an output of no elements is left as it is (True)
    before the switch on the indices' depth, whose cases are 1 to 7 only: a depth of 0 (indices [k, 0] with
    updates of no elements) or 8 into a non-empty output is InvalidArgumentError "Only indices.shape[-1] values
    between 1 and 5 are currently supported.  Requested rank: 0" (TF's text), before any index is read. TF 2.21,
    observed (fz31a: seed 3120261201 #197, TensorScatterMax of a [0, 1, 0] tensor and indices of shape [0])."""
    if int(np.prod(out_shape, dtype=np.int64)) == 0:
        return True
    k = idx_shape[-1]
    if not 1 <= k <= 7:
        raise errors.InvalidArgumentError(None, None, "Only indices.shape[-1] values between 1 and 5 are currently "
                                          f"supported.  Requested rank: {k} [Op:{opname}]")
    return False


def _scatter_nd(idx: np.ndarray, upd: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The kernel: ValidEmptyOutputShape (see `_check_updates`), then DoScatterNd's PrepareAndValidateInputs,
    which refuses indices into an output of no elements ("Indices and updates specified for empty output.
    indices shape: [1,1]"), then its switch on the indices' depth (`scatters_nothing`). A replay of a recorded
    call checks the shapes of its own run first (`_check_updates`, which `scatter_nd` ran as the call recorded)."""
    _check_updates(idx, upd.shape, shape, "ScatterNd")
    _valid_empty(len(shape), idx.size, upd.size, "ScatterNd")
    strings = upd.dtype.kind in "OSU"
    out = np.full(shape, b"", dtype=object) if strings else np.zeros(shape, dtype=upd.dtype)
    if out.size == 0 and idx.size:
        raise errors.InvalidArgumentError(None, None, "Indices and updates specified for empty output.  indices "
                                          f"shape: {args.dims(idx.shape)} [Op:ScatterNd]")
    if not scatters_nothing(idx.shape, shape, "ScatterNd"):
        pos = _check_nd(idx, shape, "shape", "ScatterNd")
        if not strings:
            np.add.at(out, pos, upd)   # (duplicates add up)
            return out
        # (tstring's ScatterNd adds by concatenation, in the updates' order: duplicates join, b"8" + b"5"; TF 2.21
        # observed, fix62d)
        rows = upd.reshape((-1,) + tuple(shape[idx.shape[-1]:]))
        for i, at in enumerate(zip(*(np.ravel(p) for p in pos))):
            out[at] = np.frompyfunc(lambda a, b: bytes(a) + bytes(b), 2, 1)(out[at], rows[i])
    return out


def tensor_scatter_checks(xs: Sequence[int], ids: Sequence[int], us: Sequence[int], opname: str) -> None:
    """TensorScatterOp::Compute's shape checks (scatter_nd_op.cc), in its order: indices and
    updates of rank at least 1, no indices or updates for an empty tensor, the outer dimensions
    of indices and updates equal, then the inner ones of the tensor and the updates."""
    def bad(text: str) -> errors.InvalidArgumentError:
        return errors.InvalidArgumentError(None, None, f"{text} [Op:{opname}]")
    if len(ids) < 1:
        raise bad(f"Indices shape must have rank at least one. Found:{args.dims(ids)}")
    if len(us) < 1:
        raise bad(f"Updates shape must have rank at least one. Found:{args.dims(us)}")
    n_i, n_u = int(np.prod(ids, dtype=np.int64)), int(np.prod(us, dtype=np.int64))
    if not ((n_i == 0 and n_u == 0) or (int(np.prod(xs, dtype=np.int64)) and n_i and n_u)):
        raise bad("Indices and updates specified for empty output shape")
    outer = len(ids) - 1
    for i in range(outer):
        if i >= len(us) or ids[i] != us[i]:
            raise bad(f"Outer dimensions of indices and update must match. Indices shape: {args.dims(ids)}, "
                      f"updates shape:{args.dims(us)}")
    ix = ids[outer]
    if len(us) - outer != len(xs) - ix:
        raise bad(f"Inner dimensions of output shape must match inner dimensions of updates shape. Output: "
                  f"{args.dims(xs)} updates: {args.dims(us)}")
    for i in range(len(us) - outer):
        if us[i + outer] != xs[ix + i]:
            raise bad(f"The inner {len(xs) - ix} dimensions of output.shape={args.dims(xs)} must match the inner "
                      f"{len(us) - outer} dimensions of updates.shape={args.dims(us)}")
    _check_vector_indices(ids, us, opname, xs)


def tensor_scatter_shape_text(xs: Any, ids: Any, us: Any, output: bool = False) -> str | None:
    """What the TensorScatter ops' shape function (ScatterNdTensorShape, then
    ScatterNdShapeHelper) finds in the shapes a traced graph knows (None: an unknown dimension,
    a shape None: an unknown rank), or None: the tensor and the indices of rank at least 1, then
    the indices' outer dimensions merged with the updates' and the tensor's inner ones with the
    updates' (InferenceContext::Merge; Subshape clamps to the rank; a scalar `updates` is left to
    the kernel, as TF 2.21 does). Clause function.trace-time-errors. output=True: ScatterNd's (ScatterNdShape),
    whose xs is the output's shape made from the shape tensor, of any rank (shape=[] traces beside updates of
    unknown rank, the kernel refusing it when the graph runs; fz36a, sig seed 3620261201 #122)."""
    from simdist.runtime.ops import static_shapes
    for s in ((ids,) if output else (xs, ids)):
        if s is not None and len(s) < 1:
            return f"Shape must be at least rank 1 but is rank {len(s)}"
    # (ScatterNdShapeHelper's first check, whatever the updates' rank: a scalar too; fz16d, fz14 seed 14 #448)
    if _elements(xs) == 0 and ((_elements(ids) or 0) > 0 or (_elements(us) or 0) > 0):
        return "Indices and updates specified for empty input"
    if ids is None or us is None or len(us) == 0 or ids[-1] is None:
        return None
    outer, ix = len(ids) - 1, ids[-1]
    pre_i, pre_u = list(ids[:outer]), list(us[:outer])
    if static_shapes.merge([pre_i, pre_u]) is False:
        return (f"Dimensions [0,{outer}) of indices[shape={trace_errors._dims(ids)}] = {trace_errors._dims(pre_i)} "
                f"must match dimensions [0,{outer}) of updates[shape={trace_errors._dims(us)}] = "
                f"{trace_errors._dims(pre_u)}: {_merge_error(pre_i, pre_u)}")
    if xs is None:
        return None
    suf_x, suf_u = list(xs[ix:]), list(us[outer:])
    if static_shapes.merge([suf_x, suf_u]) is False:
        return (f"Dimensions [{ix},{len(xs)}) of input[shape={trace_errors._dims(xs)}] = {trace_errors._dims(suf_x)} "
                f"must match dimensions [{outer},{len(us)}) of updates[shape={trace_errors._dims(us)}] = "
                f"{trace_errors._dims(suf_u)}: {_merge_error(suf_x, suf_u)}")
    return None


def _elements(shape: Any) -> int | None:
    """The number of elements of a shape the graph knows, None when it does not: InferenceContext::NumElements,
    0 for a known dimension of 0 beside unknown ones (a [None, 0, 1, 0] tensor is empty; fz32a, sig seed
    3220261207 #189)."""
    if shape is None:
        return None
    if any(d == 0 for d in shape if d is not None):
        return 0
    if any(d is None for d in shape):
        return None
    return int(np.prod(shape, dtype=np.int64))


def _merge_error(a: Sequence[Any], b: Sequence[Any]) -> str:
    """InferenceContext::Merge's message for two known-rank shapes that do not merge."""
    if len(a) != len(b):
        return f"Shapes must be equal rank, but are {len(a)} and {len(b)}"
    return trace_errors.merge_text(a, b)


def _tensor_scatter(mode: str, opname: str) -> Any:
    def forward(x: np.ndarray, idx: np.ndarray, upd: np.ndarray) -> np.ndarray:
        tensor_scatter_checks(x.shape, idx.shape, upd.shape, opname)
        if scatters_nothing(idx.shape, x.shape, opname):
            return x.copy()
        pos = _check_nd(idx, x.shape, "shape", opname)
        out = x.copy()
        if mode == "update":
            out[pos] = upd   # duplicates: the last update wins (TF's CPU kernel)
        elif mode == "add":
            np.add.at(out, pos, upd)
        else:
            np.subtract.at(out, pos, upd)
        return out
    return forward


SCATTER_ND = register("ScatterNd", _scatter_nd, lambda dts, attrs: dts[1], lambda arrays, out, attrs: arrays[1].size,
                      kind="gather/scatter",
                      fusion=_LANE_ROWS)
TENSOR_SCATTER_UPDATE = register("TensorScatterUpdate", _tensor_scatter("update", "TensorScatterUpdate"),
                                 lambda dts, attrs: args.same_dtype("TensorScatterUpdate")((dts[0], dts[2]), attrs),
                                 args.zero_flops, kind="gather/scatter",
                                 fusion=_LANE_ROWS)
TENSOR_SCATTER_ADD = register("TensorScatterAdd", _tensor_scatter("add", "TensorScatterAdd"),
                              lambda dts, attrs: args.same_dtype("TensorScatterAdd")((dts[0], dts[2]), attrs),
                              lambda arrays, out, attrs: arrays[2].size, kind="gather/scatter",
                              fusion=_LANE_ROWS)
TENSOR_SCATTER_SUB = register("TensorScatterSub", _tensor_scatter("sub", "TensorScatterSub"),
                              lambda dts, attrs: args.same_dtype("TensorScatterSub")((dts[0], dts[2]), attrs),
                              lambda arrays, out, attrs: arrays[2].size, kind="gather/scatter",
                              fusion=_LANE_ROWS)
def tensor_scatter_standin(arrays: Any, attrs: dict) -> tuple:
    """The TensorScatter ops' output shape (ScatterNdTensorShape: the tensor's), which a dry run
    goes on with past the kernel's shape checks (dispatch `_past_kernel_error`: a rank-0 update,
    then a later op's build error; fz28b, fz14_known's seed 1420261218 #312)."""
    return (arrays[0].shape,)


TENSOR_SCATTER_UPDATE.standin = TENSOR_SCATTER_ADD.standin = TENSOR_SCATTER_SUB.standin = tensor_scatter_standin
TENSOR_SCATTER_UPDATE.standin_static = TENSOR_SCATTER_ADD.standin_static = TENSOR_SCATTER_SUB.standin_static = True
TENSOR_SCATTER_ADD.dtype = kernel_first("TensorScatterAdd", TENSOR_SCATTER_ADD.dtype)
TENSOR_SCATTER_SUB.dtype = kernel_first("TensorScatterSub", TENSOR_SCATTER_SUB.dtype)


# (ScatterNdShapeHelper: the output is MakeShapeFromShapeTensor(shape), its partial value: `tf.shape(x[:1])` of an
# input_signature [None, None] leaves both dimensions unknown, not the dry run's probe sizes; fix66s)
@partial_values.shaped("shape")
def scatter_nd(indices: Any, updates: Any, shape: Any, name: str | None = None) -> Tensor:
    """`tf.scatter_nd`: zeros of `shape` with updates added at indices (duplicates add up)."""
    from simdist.runtime.ops import graph_inputs
    graph_inputs.check("ScatterNd", (indices, updates, shape))   # (a graph: shape's Tindices against the
    # indices' before the shape function; fz14 seed 1420262402 #49)
    if not context.in_function() and not isinstance(indices, Tensor) and isinstance(shape, Tensor):
        # (eagerly the fast path takes Tindices from an EagerTensor among the inputs sharing it: Python indices
        # beside a shape tensor take the shape's dtype — int64 computes, int16 finds no kernel, int8/uint* are not
        # allowed; traced, op_def_library converts the indices first, int32; fix62d, vsweep62 v-scatter)
        indices = convert_to_tensor(indices, dtype=shape.dtype)
    elif (isinstance(indices, Tensor) and not isinstance(shape, Tensor) and not hasattr(shape, "_as_tensor")
          and (not context.in_function() or indices.dtype in (dtypes.int32, dtypes.int64))
          and (not isinstance(shape, (np.ndarray, np.generic)) or indices.dtype == dtypes.string)):
        # (and the other way: indices' Tindices converts a Python shape before the attr's allowed list is checked,
        # `scatter_nd(<bool indices>, u, [3, 1])` is "Cannot convert [3, 1] to EagerTensor of dtype bool", TypeError, a
        # NumPy shape to string ValueError, and int32 indices wrap a Python 2**31 as that conversion does, "Dimension
        # -2147483648 must be >= 0"; the raw op's generic path does this; fz66, fz62gen seed 66403 #0. Traced,
        # op_def_library refuses a Tindices outside the list first and converts the shape to an allowed one: the
        # wrapped shape is the shape function's ValueError "Invalid value in tensor used for shape: -2147483648")
        shape = convert_to_tensor(shape, dtype=indices.dtype)
    idx = _indices(indices, "ScatterNd")
    if idx.dtype == dtypes.int16:
        # (int16 is in the op def's Tindices and no CPU kernel registers it: NotFoundError eagerly; traced, the
        # shape function reads the shape tensor, int16 too, first: ValueError; TF 2.21 observed, fix62d)
        err = errors.NotFoundError(None, None, "Could not find device for node: {{node ScatterNd}} = ScatterNd["
                                   f"T=DT_{args.tf_name(_t(updates).dtype).upper()}, Tindices=DT_INT16, "
                                   'bad_indices_policy=""] [Op:ScatterNd]')
        raise trace_errors.static(err, ValueError, "Input tensor must be int32 or int64, but was int16")
    upd = _t(updates)
    if isinstance(shape, Tensor) and shape.dtype != idx.dtype and shape.dtype.is_integer:
        # (shape shares the Tindices attr the indices fixed: an int64 shape beside int32 indices is the kernel's
        # input-type error eagerly; TF 2.21 observed, qsweep60 scatter-nd-shape-t64)
        raise args.dtype_error("ScatterNd", 2, idx.dtype, shape.dtype)
    raw = shape._v if isinstance(shape, Tensor) else shape
    shape_rank = np.ndim(raw) if isinstance(raw, (list, tuple, np.ndarray, int, np.integer)) else 1
    shp = args.shape_arg(shape) if shape_rank == 1 else ()   # (else "Shape must be a vector", after the ranks)
    from simdist.runtime.ops import graph_constants
    if context.in_function() and shape_rank == 1 and (not isinstance(shape, Tensor) or graph_constants.known(shape)):
        # (traced: ScatterNdShapeHelper refuses indices or updates holding elements for an output the graph knows
        # to hold none, ValueError at trace; the kernel's ValidEmptyOutputShape is the run's; fz45b, seed 45003)
        text = tensor_scatter_shape_text(list(shp), static_shapes.known_shape(idx), static_shapes.known_shape(upd),
                                         output=True)
        if text == "Indices and updates specified for empty input":
            raise trace_errors.mark_shape(
                errors.InvalidArgumentError(None, None, "Indices and updates specified for empty output shape "
                                            "[Op:ScatterNd]"), text, "ScatterNd",
                (tuple(idx.shape.as_list()), tuple(upd.shape.as_list()), (len(shp),)))
    try:
        # (the checks read the indices' shape, not their values: `raw`, so a traced call that scatters computed
        # indices, Keras's confusion matrix of the IoU metrics, stays recorded, as TF traces it once; the kernel
        # checks the shapes again as a replay runs, kfuzz52)
        _check_updates(dispatch.raw(idx), tuple(upd.shape.as_list()), shp, "ScatterNd", shape_rank)
    except errors.InvalidArgumentError as e:
        from simdist.runtime.ops import graph_constants
        neg = next((d for d in shp if d < 0), None)
        if neg is not None and e.message.startswith(f"Dimension {neg} must be >= 0"):
            # (traced, the shape function reads a constant shape with MakeShapeFromShapeTensor: -1 is an unknown
            # dimension (the kernel's error when the graph runs), below -1 its ValueError at trace; vsweep62)
            if neg == -1:
                raise
            raise trace_errors.static(e, ValueError, f"Invalid value in tensor used for shape: {neg}")
        vector_rule = idx.shape.rank == 1 and e.message.startswith("Dimensions [0,1) of indices[shape=")
        if vector_rule and tensor_scatter_shape_text(shp, static_shapes.known_shape(idx),
                                                     static_shapes.known_shape(upd), output=True) is None:
            # (ValidateUpdateShape's rank-1 rule is the kernel's alone: ScatterNdShapeHelper takes indices [1] with
            # updates [3] into [5, 3] (no outer dimensions), so a traced call fails as it runs; ixsweep67)
            raise
        if (static_shapes.unknown(idx) is None and static_shapes.unknown(upd) is None
                and graph_constants.known(shape)):
            # (traced: ScatterNdShapeHelper merges the shapes the graph knows, ValueError at trace)
            raise trace_errors.mark_shape(e, e.message.replace(" [Op:ScatterNd]", ""), "ScatterNd",
                                          (tuple(idx.shape.as_list()), tuple(upd.shape.as_list()), (len(shp),)))
        # (a dimension the graph does not know: ScatterNdShapeHelper still merges the ranks, with the
        # output's dimensions unknown as the traced graph has them; fz23b, fz14 seed 1420262302 #17)
        text = tensor_scatter_shape_text([None] * len(shp), static_shapes.known_shape(idx),
                                         static_shapes.known_shape(upd), output=True)
        if text is not None:
            raise trace_errors.mark_shape(e, text, "ScatterNd", (tuple(idx.shape.as_list()),
                                                                 tuple(upd.shape.as_list()), (len(shp),)))
        raise
    if idx.ndim >= 1 and idx.shape[-1] > len(shp):
        # (indices deeper than the output's rank pass ScatterNdOp's own checks; DoScatterNd's ValidateUpdateShape
        # refuses them, the kernel's InvalidArgumentError eagerly and as a traced graph runs; TF 2.21 observed,
        # vsweep62 "scatter_nd too deep")
        k, bd = int(idx.shape[-1]), (idx.ndim - 1 if idx.ndim > 1 else 1)
        raise errors.InvalidArgumentError(
            None, None, f"Dimensions [{k},{len(shp)}) of input[shape=[{','.join(map(str, shp))}]] must match "
            f"dimensions [{bd},{upd.ndim}) of updates[shape=[{','.join(map(str, upd.shape.as_list()))}]] "
            "[Op:ScatterNd]")
    alloc.check_output("ScatterNd", shp, upd.dtype)
    return dispatch.execute(SCATTER_ND, (idx, upd), {"shape": shp})


def _tensor_scatter_call(op: Any, tensor: Any, indices: Any, updates: Any) -> Tensor:
    from simdist.runtime.ops import math
    # (a plain variable counts as a tensor: the fast path takes T from a resource variable too;
    # fz14 seed 1420261218 #111: an int8 ndarray tensor beside uint8 variable updates is uint8)
    from simdist.runtime import context
    if context.in_function():
        # (op_def_library: the first input fixes T, a Python value or array by its own conversion;
        # updates of another dtype are its TypeError, before the shape function; fz14 seed
        # 1420262201 #151)
        x = _t(tensor)
        if isinstance(updates, Tensor) or getattr(updates, "_as_tensor", None) is not None:
            upd = _t(updates)
            if upd.dtype != x.dtype:
                raise TypeError(f"Input 'updates' of '{op.name}' Op has type {upd.dtype.name} that does not match "
                                f"type {x.dtype.name} of argument 'tensor'.")
        else:
            upd = convert_to_tensor(updates, dtype=x.dtype)
    else:   # (eagerly T as the fast path or the fallback fixes it: ops.attr-types)
        x, upd = attr_rules.eager_group([tensor, updates], attr_rules.fast_path_takes(
            op.name, (tensor, indices, updates)))
    idx = _indices(indices, op.name)
    if idx.dtype == dtypes.int16:
        # (TensorScatterUpdate's op def lists int16 Tindices and no CPU kernel registers it: NotFoundError eagerly,
        # the placement's InvalidArgumentError when a graph runs; TensorScatterAdd/Sub/Min/Max list int32 and int64
        # only: the attr's InvalidArgumentError, op_def_library's TypeError traced; TF 2.21 observed, ixsweep67)
        if op.name != "TensorScatterUpdate":
            raise trace_errors.attr_not_allowed(op.name, "Tindices", idx.dtype, "int32, int64")
        raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {op.name}}}}} = {op.name}["
                                   f"T=DT_{args.tf_name(_t(tensor).dtype).upper()}, Tindices=DT_INT16, "
                                   'bad_indices_policy=""] [Op:' + op.name + "]")
    # (a graph: the shape function as the op is added, before a run finds no kernel for T: a bool
    # scalar tensor is "Shape must be at least rank 1"; fz23b, fourth generator seed 2301 #7)
    if context.in_function():
        text = tensor_scatter_shape_text(*[static_shapes.known_shape(v) for v in (x, idx, upd)])
        if text is not None:
            raise trace_errors.mark_shape(errors.InvalidArgumentError(None, None, f"{text} [Op:{op.name}]"), text,
                                          op.name, [v.shape.as_list() for v in (x, idx, upd)])
    try:
        return dispatch.execute(op, (x, idx, upd))
    except errors.InvalidArgumentError as e:   # (traced: the shape function's ValueError, where it sees one)
        known = [static_shapes.known_shape(v) for v in (x, idx, upd)]
        text = tensor_scatter_shape_text(*known)
        if text is not None:
            raise trace_errors.mark_shape(e, text, op.name, [v.shape.as_list() for v in (x, idx, upd)]) from None
        raise


def tensor_scatter_nd_update(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Tensor:
    """`tf.tensor_scatter_nd_update`: a copy of tensor with the indexed slices replaced."""
    return _tensor_scatter_call(TENSOR_SCATTER_UPDATE, tensor, indices, updates)


def tensor_scatter_nd_add(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Tensor:
    return _tensor_scatter_call(TENSOR_SCATTER_ADD, tensor, indices, updates)


def tensor_scatter_nd_sub(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Tensor:
    return _tensor_scatter_call(TENSOR_SCATTER_SUB, tensor, indices, updates)


@RegisterGradient("ScatterNd")
def _scatter_nd_grad(op: Any, grad: Any) -> list:
    return [None, gather_nd(grad, op.inputs[0])]


@RegisterGradient("TensorScatterUpdate")
def _tensor_scatter_update_grad(op: Any, grad: Any) -> list:
    """TF: the tensor's gradient is grad with the updated entries zeroed; the updates' is
    gather_nd(grad, indices)."""
    from simdist.runtime.ops import array
    indices = op.inputs[1]
    tensor_grad = tensor_scatter_nd_update(array.identity(grad), indices, array.zeros_like(op.inputs[2]))
    return [tensor_grad, None, gather_nd(grad, indices)]


@RegisterGradient("TensorScatterAdd")
def _tensor_scatter_add_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import array
    return [array.identity(grad), None, gather_nd(grad, op.inputs[1])]


@RegisterGradient("TensorScatterSub")
def _tensor_scatter_sub_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import array, unary
    return [array.identity(grad), None, unary.negative(gather_nd(grad, op.inputs[1]))]


# --- segment sums ---------------------------------------------------------------------------------------------
def sorted_segments(data: np.ndarray, ids: np.ndarray, opname: str) -> int:
    """The number of segments of sorted `ids` over data's rows (the last id + 1), or the error TF's
    sorted segment kernels (SegmentSum, SegmentMax, ...) raise."""
    if ids.ndim != 1 or ids.shape[0] != data.shape[0]:
        err = errors.InvalidArgumentError(None, None, "segment_ids should be the same size as dimension 0 of input. "
                                          f"[Op:{opname}]")
        if ids.ndim != 1:   # (traced: SegmentReductionShapeFn's WithRank(segment_ids, 1); fz16d)
            raise trace_errors.mark_shape(err, f"Shape must be rank 1 but is rank {ids.ndim}", opname,
                                          [list(data.shape), list(ids.shape)])
        raise err
    n = int(ids[-1]) + 1 if ids.size else 0
    if ids.size:
        if np.any(np.diff(ids) < 0):
            raise errors.InvalidArgumentError(None, None, f"segment ids are not increasing [Op:{opname}]")
        if ids[0] < 0:
            raise errors.InvalidArgumentError(None, None, f"Segment id {int(ids[0])} out of range [0, {n}), possibly "
                                              f"because 'segment_ids' input is not sorted. [Op:{opname}]")
    return n


def copy_one_row_segments(out: np.ndarray, ids: np.ndarray, data: np.ndarray) -> np.ndarray:
    """TF 2.21's sorted segment kernels (SegmentReductionOp: sum, prod, mean, max, min) copy a
    segment of one row instead of reducing it from the reducer's start value, so its bits stay:
    segment_sum([-0.0], [0]) is -0.0, not 0 + -0.0 (fz30b, fz3 ext8 seed 3002 #285)."""
    if ids.size:
        counts = np.bincount(ids.astype(np.int64), minlength=out.shape[0])
        one = np.flatnonzero(counts[ids] == 1)
        if one.size:
            out[ids[one]] = data[one]
    return out


def _one_row_fix(arrays: Any, flushed: Any, out: Any, attrs: Any) -> Any:
    """With subnormal data (DAZ read them as zeros): the reduced segments flushed (FTZ), the
    one-row segments copied with their subnormals (segment_sum([1e-40], [0]) is 1e-40)."""
    from simdist.runtime import subnormals
    return copy_one_row_segments(np.array(subnormals.flushed(out)), arrays[1], arrays[0])


def one_row_subnormals(arrays: Any, attrs: Any) -> Any:
    """The subnormal rule of the sorted segment reductions: FLUSH, or `_one_row_fix` when the data
    hold subnormals."""
    from simdist.runtime import subnormals
    return ONE_ROW_FIX if subnormals.holds(arrays[0]) else subnormals.FLUSH


def _segment_sum(data: np.ndarray, ids: np.ndarray) -> np.ndarray:
    n = sorted_segments(data, ids, "SegmentSum")
    out = np.zeros((n,) + data.shape[1:], dtype=data.dtype)
    # (complex additions under DAZ/FTZ, subnormal parts zeros, where a one-row segment is a copy; fz55b)
    np.add.at(out, ids, _subnormals.flushed_parts(data))
    if data.dtype.kind == "f":   # (the rows' additions keep the first NaN row's; nansweep67)
        from simdist.runtime.ops.nan_operands import first_nan_rows
        out = first_nan_rows(out, ids, data)
    if data.dtype.name == "bfloat16" and out.size:   # (each row's float32 sums converted in packets of 8 columns:
        from simdist.runtime.ops.packet_math import bf16_row_packet_nans   # 0x7fc0 there; nansweep67)
        out = bf16_row_packet_nans(np.array(out, copy=True))
    return copy_one_row_segments(_subnormals.flushed_parts(out), ids, data)


_SEGMENT_RULE = args.allowed("SegmentSum", *NUMERIC)
SEGMENT_SUM = register("SegmentSum", _segment_sum, lambda dts, attrs: _SEGMENT_RULE(dts[:1], attrs),
                       lambda arrays, out, attrs: arrays[0].size, kind="gather/scatter",
                       fusion=_LANE_ROWS)
SEGMENT_SUM.standin = lambda arrays, attrs: (((max(int(arrays[1].reshape(-1)[-1]) + 1, 0) if arrays[1].size else 0,)
                                              + tuple(arrays[0].shape[1:])),)   # (segments.sorted_segment_standin)


def sorted_segment_shape_fn(shapes: list, attrs: Any) -> bool:
    """Whether SegmentReductionShapeFn sees segment ids of a known rank other than 1 (the one
    check `sorted_segments` marks; an unknown rank leaves it to the kernel)."""
    return shapes[1] is not None and len(shapes[1]) != 1


SEGMENT_SUM.shape_fn = sorted_segment_shape_fn
ONE_ROW_FIX = _subnormals.Fixed("one-row segments", _one_row_fix)
SEGMENT_SUM.subnormals = one_row_subnormals



def segment_sum(data: Any, segment_ids: Any, name: str | None = None) -> Tensor:
    """`tf.math.segment_sum`: sorted segment ids; ids missing from the range give zero rows."""
    d = _t(data)
    # (the type attr before the shape: op_def_library's TypeError for bool data before the shape
    # function's rank check in a graph, the kernel's T refusal eagerly; fz27b, fz14 seed 1420272702 #64)
    _SEGMENT_RULE((d.dtype,), None)
    from simdist.runtime.ops import index_dtypes
    index_dtypes.check("SegmentSum", "segment_ids", segment_ids)   # (Tindices before the shapes: ops.index-dtypes)
    check_segment_rank(d, "SegmentSum")
    out = dispatch.execute(SEGMENT_SUM, (d, _indices(segment_ids, "SegmentSum", "int32, int64")))
    # (SegmentReductionShapeFn: as many rows as the last id + 1, unknown to a traced graph even for
    # constant ids, as for the other sorted segment reductions: segments.py)
    return static_shapes.segment_rows(out, d)


def check_segment_rank(d: Tensor, opname: str) -> None:
    """A sorted segment reduction of a scalar: the kernel's InvalidArgumentError, traced the shape
    function's ValueError (ops.argument-errors); where the graph does not know the rank, the kernel's
    when it runs (an input_signature of TensorSpec(None) traces; fz37b, fourth generator seed 3701 #45)."""
    if d.ndim == 0:
        if static_shapes.rank_unknown(d):
            raise errors.InvalidArgumentError(None, None, f"input must be at least rank 1 [Op:{opname}]")
        raise trace_errors.shape_error(f"input must be at least rank 1 [Op:{opname}]",
                                       "Shape must be at least rank 1 but is rank 0", opname, ([],))


@RegisterGradient("SegmentSum")
def _segment_sum_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import array
    return [array.gather(grad, op.inputs[1]), None]


def unsorted_segment_args(data: Any, segment_ids: Any, num_segments: Any, opname: str) -> tuple[Tensor, Tensor, tuple]:
    """(data, ids, the output shape) of an unsorted segment op, or TF's error for ids that are not
    a prefix of data's shape."""
    d = _t(data)
    ids = _indices(segment_ids, opname, "int16, int32, int64")
    from simdist.runtime.ops import index_dtypes
    index_dtypes.check(opname, "num_segments", num_segments)   # (Tnumsegments: int32, int64; ops.index-dtypes)
    nv = np.asarray(dispatch.static_value(num_segments) if isinstance(num_segments, Tensor) else num_segments)
    if nv.ndim:   # (the kernel's first check; traced, the shape function's WithRank(num_segments, 0); vsweep62)
        err = errors.InvalidArgumentError(None, None, "num_segments should be a scalar, not shape "
                                                      f"[{','.join(map(str, nv.shape))}] [Op:{opname}]")
        if isinstance(num_segments, Tensor) and static_shapes.rank_unknown(num_segments):
            raise err
        raise trace_errors.mark_shape(err, f"Shape must be rank 0 but is rank {nv.ndim}", opname,
                                      [d.shape.as_list(), ids.shape.as_list(), list(nv.shape)])
    n = int(dispatch.static_value(num_segments) if isinstance(num_segments, Tensor) else num_segments)
    ishape, dshape = ids.shape.as_list(), d.shape.as_list()
    if dshape[:len(ishape)] != ishape:
        err = errors.InvalidArgumentError(
            None, None, f"data.shape = [{','.join(map(str, dshape))}] does not start with segment_ids.shape = "
            f"[{','.join(map(str, ishape))}] [Op:{opname}]")
        kd, ki = static_shapes.known_shape(d), static_shapes.known_shape(ids)
        if kd is not None and ki is not None and (len(kd) < len(ki) or any(
                a is not None and b is not None and a != b for a, b in zip(kd, ki))):
            # the unsorted segment ops' shape function (its merge of the known prefix): ValueError
            raise trace_errors.mark_shape(err, f"Shapes must be equal rank, but are {len(ki)} and {len(kd)}"
                                          if len(kd) < len(ki) else "Dimensions must be equal", opname,
                                          [dshape, ishape, []])
        raise err
    # (the kernel reads num_segments as the ids' type, static_cast<Index>: an int16 id's 2147483647 is -1 rows,
    # 65539 is 3; fz34a, sig seed 3420261206 #250. The shape function reads it whole)
    rows = int(np.array(n, np.int64).astype(ids.dtype.np))
    traced_neg = n < 0 and context.in_function() and (
        not isinstance(num_segments, Tensor) or graph_constants.known(num_segments))
    if rows < 0 or traced_neg:   # (the kernel after the prefix check; traced, the shape function's
        # MakeDimForScalarInput of a constant num_segments, also after its MergePrefix: fz21, fz14 seed 1420262101 #233)
        err = errors.InvalidArgumentError(None, None, f"Input num_segments == {rows} must not be negative. "
                                                      f"[Op:{opname}]")
        if traced_neg:
            raise trace_errors.static(err, ValueError, "Dimension size, given by scalar input 2, must be "
                                                       f"non-negative but is {n}")
        raise err
    shape = (rows,) + tuple(dshape[len(ishape):])
    # (the kernel allocates its output before it reads the ids: an output the allocator cannot give is
    # ResourceExhaustedError, not Python's MemoryError; fuzz20 sig seed 2420261204 #109, fz24a)
    alloc.check_output(opname, shape, d.dtype)
    return d, ids, shape


def unsorted_segment_sum(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    """`tf.math.unsorted_segment_sum`: out[k] = sum of data[i...] with segment_ids[i...] = k;
    negative ids are dropped, ids >= num_segments raise (TF's CPU kernel)."""
    from simdist.runtime.ops import array
    d = _t(data)
    if d.dtype.is_bool or d.dtype.name == "string":   # (SCATTER_ROWS takes bools for other callers;
        # UnsortedSegmentSum's T does not, nor strings, which its kernel would add: tf.math.reduce_sum of a ragged
        # string tensor, fz44b, fz44_gen seed 44001)
        # (the type attr is checked before the shapes: eagerly, and by op_def_library before the
        # shape function in a graph; fz11, fz4 seed 43 #26)
        _SEGMENT_RULE((d.dtype,), None)
    return unsorted_segment_run(array.SCATTER_ROWS, d, segment_ids, num_segments, "UnsortedSegmentSum")


def unsorted_segment_run(op: Any, d: Tensor, segment_ids: Any, num_segments: Any, opname: str) -> Tensor:
    """An unsorted segment op's checks and kernel; in a dry run of a traced function (dispatch.refused) a kernel's
    refusal that only the probes make (data's first dimensions not the ids' where the graph knows neither, an id
    of the ids' fill at or past a num_segments placeholder's probe) goes on with a stand-in of the shape
    UnsortedSegmentReductionShapeFn gives: [num_segments] + data's dimensions past the ids' rank, unknown where
    data's are, an unknown rank from data or ids of unknown rank (`unsorted_segment_sum(x [None, 3], ids [4], 5)`
    is [5, 3] in TF's trace; fix64s)."""
    try:
        dd, ids, shape = unsorted_segment_args(d, segment_ids, num_segments, opname)
        out = dispatch.execute(op, (dd, ids), {"shape": shape})
    except errors.OpError as e:
        out = _segment_standin(e, d, segment_ids, num_segments)
    return segments_unknown(out, num_segments)


def _segment_standin(err: errors.OpError, d: Tensor, segment_ids: Any, num_segments: Any) -> Tensor:
    """`unsorted_segment_run`'s stand-in past `err` (raised where dispatch.refused raises it: eagerly, outside a
    dry run, or an error TF's trace raises too)."""
    ids = _t(segment_ids)
    nv = dispatch.static_value(num_segments) if isinstance(num_segments, Tensor) else num_segments
    rows = max(int(np.asarray(nv).reshape(-1)[0]) if np.size(nv) else 0, 0)
    shape = (rows,) + tuple(d.shape.as_list()[ids.ndim:])
    out = dispatch.refused(err, d.dtype, shape)
    return static_shapes.standin("UnsortedSegmentSum", (d, ids), out, {})


def segments_unknown(out: Tensor, num_segments: Any) -> Tensor:
    """An unsorted segment op's output, its first dimension unknown to a traced graph when num_segments is a
    value the graph does not know (UnsortedSegmentReductionShapeFn: MakeDimForScalarInput of a non-constant
    input is an unknown dimension; `unsorted_segment_sum(x, ids, n)` of an int placeholder n is [?, 3])."""
    if context.in_function() and isinstance(num_segments, Tensor) and not graph_constants.known(num_segments):
        return static_shapes.also_unknown(out, 0)
    return out
