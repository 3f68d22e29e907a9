"""Partitioning and stitching rows (TF's data_flow_ops.dynamic_partition / dynamic_stitch), with
their gradients: how a lookup in a partitioned table splits its ids by shard and merges the
rows back in the ids' order."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, errors
from simdist.runtime.ops import args, attr_rules, dispatch, list_inputs, static_shapes, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.tensor import Tensor

# Why these ops run lane by lane in a fused replay (OpDef.fusion).
_LANE_ROWS = lanes("its indices address one lane's rows: no stacked form written")


__all__ = ["dynamic_partition", "dynamic_stitch"]


def _partition(data: np.ndarray, parts: np.ndarray, num_partitions: int) -> tuple[np.ndarray, ...]:
    """DynamicPartitionOp's kernel: data's shape starting with partitions' (ValidateAndAllocateOutputs, which a raw
    call reaches past `_check_partition`: [] partitions of [3, 4] data, fz31a tape seed 3120261203 #172), then
    each partition id."""
    if data.shape[:parts.ndim] != parts.shape:
        raise errors.InvalidArgumentError(None, None, f"data.shape must start with partitions.shape, got data.shape = "
                                          f"{args.dims(data.shape)}, partitions.shape = {args.dims(parts.shape)} "
                                          "[Op:DynamicPartition]")
    bad = np.argwhere((parts < 0) | (parts >= num_partitions))
    if len(bad):    # the kernel's check, the first offending id in row-major order
        at = tuple(int(i) for i in bad[0])
        raise errors.InvalidArgumentError(None, None, f"partitions[{','.join(str(i) for i in at)}] = "
                                          f"{int(parts[at])} is not in [0, {num_partitions}) [Op:DynamicPartition]")
    return tuple(data[parts == p] for p in range(num_partitions))


def _stitch(*arrays: np.ndarray, n: int) -> np.ndarray:
    idx, data = arrays[:n], arrays[n:]
    for i in idx:   # (the kernel's bounds check, also when a graph runs: fz36a, sig seed 3620261218 #132)
        neg = np.nonzero(i.reshape(-1) < 0)[0]
        if neg.size:
            raise errors.InvalidArgumentError(None, None, f"indices[{int(neg[0])}] is out of range [Op:DynamicStitch]")
    size = max((int(i.max()) + 1 for i in idx if i.size), default=0)
    tail = data[0].shape[idx[0].ndim:]
    # (positions no index names are left as allocated: zeros here, and a string tensor's empty strings, its
    # default-constructed tstrings: ParallelDynamicStitch of [1, 3] and [2, 3] has b'' at 0; fz43, fz20 seed
    # 4320261205 #130)
    out = np.full((size,) + tail, b"", dtype=object) if data[0].dtype == object else \
        np.zeros((size,) + tail, dtype=data[0].dtype)
    for i, d in zip(idx, data):      # later pieces win for repeated indices, as TF's kernel
        out[i.reshape(-1)] = d.reshape((i.size,) + tail)   # (not -1: an empty tail has no size to divide; fz31a #161, fz31b)
    return out


PARTITION = register("DynamicPartition", _partition, args.first, args.zero_flops, num_outputs=-1, kind="gather/scatter",
                     fusion=lanes("its outputs' lengths depend on the lane's values"))
# (the shape function's outputs, [?] + data.shape[partitions' rank:] each: what a dry run or a retry past the kernel's
# error goes on with; without it a variadic op had no outputs to go on with, and a tf.function of an out-of-range
# partition returned [] where TF 2.21 raises the kernel's error; fz37a, sig seed 3720261202 #141)
PARTITION.standin = lambda arrays, attrs: ((0,) + tuple(arrays[0].shape[np.ndim(arrays[1]):]),) * attrs["num_partitions"]
STITCH = register("DynamicStitch", _stitch, lambda dts, attrs: dts[attrs["n"]], args.zero_flops, kind="gather/scatter",
                  fusion=_LANE_ROWS)


def _check_partition(d: Tensor, p: Tensor, n: int) -> None:
    """DynamicPartition's checks (data_flow_ops.cc, dynamic_partition_op.cc), in their order: the
    attr's minimum, data's shape starting with partitions' (traced: the shape function's
    ValueError); then the kernel's check of each partition id (_partition)."""
    if n < 1:
        raise trace_errors.static(errors.InvalidArgumentError(
            None, None, f"Value for attr 'num_partitions' of {n} must be at least minimum 1 [Op:DynamicPartition]"),
            ValueError, f"Attr 'num_partitions' of 'DynamicPartition' Op passed {n} less than minimum 1.")
    ds, ps = d.shape.as_list(), p.shape.as_list()
    if ds[:len(ps)] != ps:
        if len(ds) < len(ps):
            text = f"Shape must be at least rank {len(ps)} but is rank {len(ds)}"
        else:
            a, b = next((a, b) for a, b in zip(ds, ps) if a != b)
            text = f"Dimensions must be equal, but are {a} and {b}"
        raise trace_errors.shape_error(f"data.shape must start with partitions.shape, got data.shape = "
                                       f"{args.dims(ds)}, partitions.shape = {args.dims(ps)} [Op:DynamicPartition]",
                                       text, "DynamicPartition", (ds, ps))


def dynamic_partition(data: Any, partitions: Any, num_partitions: int, name: str | None = None) -> list[Tensor]:
    """`tf.dynamic_partition`, with DynamicPartitionOp's checks: num_partitions at least 1 (the
    attr's minimum), every partition in [0, num_partitions)."""
    d, p = _t(data), _t(partitions)
    # (gen_data_flow_ops' make_int: a graph tensor is TypeError "Expected int for argument 'num_partitions' not
    # <tf.Tensor 'Const:0' ...>" at trace, where the eager fast path takes a tensor; fz38b, fz14 seed 1420383005 #108)
    n = attr_rules.make_int(num_partitions, "num_partitions") if context.in_function() else int(num_partitions)
    if isinstance(partitions, Tensor) and p.dtype.name != "int32":
        # (partitions is int32 only: eagerly the input's "cannot compute" InvalidArgumentError, or with a negative
        # num_partitions (a count of outputs the fast path cannot make) the fallback's conversion ValueError;
        # op_def_library's TypeError in a graph; TF 2.21, fz62: the fourth generator's seeds 62403 #4, 62405)
        if n < 0 and not context.in_function():
            raise ValueError(f"Tensor conversion requested dtype int32 for Tensor with dtype {p.dtype.name}: {p!r}")
        raise _wrong_input_type("DynamicPartition", 1, p)
    _check_partition(d, p, n)   # (then the kernel's check of each id, `_partition`: SliceDebugString's [i,j])
    outs = list(dispatch.execute(PARTITION, (d, p), {"num_partitions": n}))
    if context._function_depth:
        # (DynamicPartitionShape: each output's first dimension counts the ids equal to its index, unknown to the
        # graph; then data's dimensions past the partitions' rank; clause function.static-shapes)
        known = static_shapes.known_shape(d)
        outs = [static_shapes.mark_rank_unknown(o) if known is None else
                static_shapes.mark(o, [True] + [k is None for k in known[p.ndim:]]) for o in outs]
    return outs


def _stitch_checks(idx: list[Tensor], dat: list[Tensor]) -> None:
    """DynamicStitchOp's checks (dynamic_stitch_op.cc): as many data as indices (the NodeDef's
    inputs), data[i].shape starting with indices[i].shape, one trailing shape for every data, and
    indices in [0, the largest + 1). An empty data list (a tensor of no rows, which the fast path
    iterates) leaves T out of the NodeDef: the kernel lookup's constraint error (TF 2.21, observed; fz38b,
    fz14 seed 1420383003 #176)."""
    if not dat:
        raise errors.InvalidArgumentError(
            None, None, f"OpKernel 'DynamicStitch' has constraint on attr 'T' not in NodeDef '[N={len(idx)}]', "
            "KernelDef: 'goo.gle/debugstr    op: \"DynamicStitch\" device_type: \"CPU\" constraint { name: \"T\" "
            "allowed_values { list { type: DT_QINT32 } } } host_memory_arg: \"indices\"' [Op:DynamicStitch]")
    if len(idx) != len(dat):
        raise errors.InvalidArgumentError(
            None, None, f"NodeDef expected inputs '{', '.join(['int32'] * len(idx) + [args.tf_name(dat[0].dtype)] * len(idx))}' "
            f"do not match {len(idx) + len(dat)} inputs specified; Op<name=DynamicStitch; signature=indices:N*int32, "
            "data:N*T -> merged:T; attr=N:int,min=1; attr=T:type>; NodeDef: {{node DynamicStitch}} [Op:DynamicStitch]")
    i0, d0 = idx[0].shape.as_list(), dat[0].shape.as_list()
    for i, (ix, d) in enumerate(zip(idx, dat)):
        si, sd = ix.shape.as_list(), d.shape.as_list()
        if sd[:len(si)] != si:
            raise errors.InvalidArgumentError(None, None, f"data[{i}].shape = {args.dims(sd)} does not start with "
                                              f"indices[{i}].shape = {args.dims(si)} [Op:DynamicStitch]")
        if i and sd[len(si):] != d0[len(i0):]:
            raise errors.InvalidArgumentError(
                None, None, f"Need data[0].shape[{len(i0)}:] = data[{i}].shape[{len(si)}:], got data[0].shape = "
                f"{args.dims(d0)}, data[{i}].shape = {args.dims(sd)}, indices[0].shape = {args.dims(i0)}, "
                f"indices[{i}].shape = {args.dims(si)} [Op:DynamicStitch]")
    if dispatch.recorder() is None:
        for ix in idx:
            flat = np.asarray(dispatch.static_value(ix)).reshape(-1)
            neg = np.nonzero(flat < 0)[0]
            if neg.size:
                raise errors.InvalidArgumentError(None, None, f"indices[{int(neg[0])}] is out of range "
                                                  "[Op:DynamicStitch]")


def _wrong_input_type(op: str, k: int, t: Tensor) -> Any:
    """An int32 input of `op` given a tensor of another dtype: eagerly the execution's InvalidArgumentError
    ("cannot compute DynamicStitch as input #0(zero-based) was expected to be a int32 tensor but is a float tensor"),
    marked with op_def_library's TypeError that a graph build raises."""
    from simdist.runtime import dtypes
    err = errors.InvalidArgumentError(None, None, f"cannot compute {op} as input #{k}(zero-based) was expected to be a "
                                                  f"int32 tensor but is a {args.tf_name(t.dtype)} tensor [Op:{op}]")
    return trace_errors.static(err, TypeError, f"Input '{'partitions' if op == 'DynamicPartition' else 'indices'}' of "
                                               f"'{op}' Op has type {t.dtype.name} that does not match expected type "
                                               f"of {dtypes.int32.name}.")


def _index_list_item(i: Any) -> Tensor:
    """An item of DynamicStitch's `indices` (a list of int32 tensors): a tensor as it is, anything else converted
    to int32 as TF's op helper converts it, so an empty Python list or an empty float64 array is an empty int32
    index (`dynamic_stitch([[], [0, 1]], ...)` gathers the second item's rows; simdist had taken a float32 []
    and failed with NumPy's IndexError; fz49b, fz49b_gen seed 49002 #10) and [0.5] is TypeError "Cannot
    convert [0.5] to EagerTensor of dtype int32"."""
    if isinstance(i, Tensor) or hasattr(i, "dtype") and not isinstance(i, np.ndarray):
        return _t(i)
    from simdist.runtime import dtypes
    from simdist.runtime.tensor import convert_to_tensor
    return convert_to_tensor(i, dtype=dtypes.int32)


def dynamic_stitch(indices: Sequence[Any], data: Sequence[Any], name: str | None = None) -> Tensor:
    fast = attr_rules.list_items_fast(indices, data)   # (a list item in a list: the fallback's checks)
    attr_rules.list_input("DynamicStitch", "indices", indices, fast=fast)   # (ops.attr-types)
    attr_rules.list_input("DynamicStitch", "data", data, fast=fast)
    # (the fast path iterates a tensor or a variable given for a list, so a float64 variable of 3 rows is 3
    # data: the NodeDef's count error; fz34b, fz14 seed 1420343001 #184)
    indices, data = [v if isinstance(v, (list, tuple)) else list(v) for v in (indices, data)]
    if len(indices) == 0:   # (N from the first list; T only from data: list_inputs.empty_list)
        raise list_inputs.empty_list("DynamicStitch", "indices", typed=len(data) > 0)
    if len(data) != len(indices) and (not fast or context.in_function()):
        # (the eager fallback and op_def_library compare the two lists' lengths before converting them;
        # the fast path leaves it to the NodeDef's check: fz31b, fz14 seed 1420313006 #71)
        raise ValueError(f"List argument 'data' to 'dynamic_stitch' Op with length {len(data)} must match length "
                         f"{len(indices)} of argument 'indices'.")
    idx = [_index_list_item(i) for i in indices]
    for k, (given, ix) in enumerate(zip(indices, idx)):   # (int32 indices only: a float tensor is the input's
        if isinstance(given, Tensor) and ix.dtype.name != "int32":   # "cannot compute" error; fz62)
            raise _wrong_input_type("DynamicStitch", k, ix)
    # (data share T: the first item converted by itself, the others with its dtype, so a row holding 1e300
    # after float32 rows is float32 inf, not a conversion's range error; fz31b, seed 1420313006 #76)
    items = list(data)   # (a tensor given as the list: its rows, as TF's fast path iterates it)
    dat = args.matching(items, op="DynamicStitch") if items else []
    _stitch_checks(idx, dat)
    return dispatch.execute(STITCH, idx + dat, {"n": len(idx)})


@RegisterGradient("DynamicPartition")
def _partition_grad(op: Any, *grads: Any) -> list:
    """TF's _DynamicPartitionGrads: stitch the pieces' gradients back to the data's rows."""
    from simdist.runtime.ops import array
    data, parts = op.inputs
    n = int(np.prod(parts.shape.as_list(), dtype=np.int64))
    positions = array.reshape(array.range_(0, n), parts.shape.as_list())
    pieces = dynamic_partition(positions, parts, len(op.outputs))
    gs = [g if g is not None else array.zeros_like(o) for g, o in zip(grads, op.outputs)]
    return [array.reshape(dynamic_stitch(pieces, gs), data.shape.as_list()), None]


@RegisterGradient("DynamicStitch")
def _stitch_grad(op: Any, grad: Any) -> list:
    """TF's _DynamicStitchGrads: each data piece gets the rows of the gradient at its indices
    (every piece, also where a later piece overwrote the row, as TF)."""
    from simdist.runtime.ops import array
    n = op.get_attr("n")
    idx = op.inputs[:n]
    return [None] * n + [array.reshape(array.gather(grad, i), d.shape.as_list())
                         for i, d in zip(idx, op.inputs[n:])]
