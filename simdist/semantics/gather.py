"""Shape rules of `Strategy.gather` and `ReplicaContext.all_gather` (collective and concatenation paths)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from simdist.runtime.ops import concat_arrays, trace_errors


# TF 2.21's messages (observed): CollectiveReplicaLauncher.all_gather moves `axis` first with
# Ranges whose shape function rejects a negative axis (`range(axis)`) and an axis >= rank
# (`range(axis + 1, rank)`; scalars: every axis); a traced ConcatV2 of scalars fails shape inference.
_COLLECTIVE_NEGATIVE_AXIS = ("Requires start <= limit when delta > 0: 0/{axis} for '{{{{node allgather/range}}}} = "
                             "Range[Tidx=DT_INT32](allgather/range/start, allgather/range/limit, allgather/range/delta)' "
                             "with input shapes: [], [], [] and with computed input tensors: input[0] = <0>, "
                             "input[1] = <{axis}>, input[2] = <1>.")
_COLLECTIVE_AXIS_BEYOND = ("Requires start <= limit when delta > 0: {start}/{rank} for '{{{{node allgather/range_1}}}} = "
                           "Range[Tidx=DT_INT32](allgather/range_1/start, allgather/Rank, allgather/range_1/delta)' "
                           "with input shapes: [], [], [] and with computed input tensors: input[0] = <{start}>, "
                           "input[1] = <{rank}>, input[2] = <1>.")
_TRACED_CONCAT_RANK0 = ("Can't concatenate scalars (use tf.stack instead) for '{{{{node concat}}}} = "
                        "ConcatV2[N={n}, T=DT_{dtype}, Tidx=DT_INT32]({inputs}, concat/axis)' with input shapes: "
                        "{shapes}.")


def check_collective_axis(rank: int, axis: int) -> None:
    """Clauses gather.axis-range, gather.rank0-error-class (TF 2.21, the collective path:
    MirroredStrategy without explicit cross_device_ops, every dtype but int32, which goes to
    ReductionToOneDevice; simdist's MultiWorkerMirroredStrategy likewise): the
    all-gather transposes `axis` to the front with a permutation built from `range(axis)` and
    `range(axis + 1, rank)`, so a negative axis and an axis >= rank (rank 0 included) are the
    Range shape function's ValueError, eagerly and traced alike. The concatenation path takes a
    negative axis (ConcatV2 counts it from the end)."""
    axis = int(axis)
    if axis < 0:
        raise ValueError(_COLLECTIVE_NEGATIVE_AXIS.format(axis=axis))
    if axis + 1 > rank:
        raise ValueError(_COLLECTIVE_AXIS_BEYOND.format(start=axis + 1, rank=rank))


def check_rank0(arrays: Sequence[np.ndarray], dtype: str, in_function: bool) -> None:
    """Clause gather.rank0-error-class, the concatenation path (ReductionToOneDevice, NCCL and
    HierarchicalCopy fallbacks, CentralStorageStrategy, int32 on MirroredStrategy): rank-0
    components are a ValueError inside a tf.function (shape inference while tracing) and an
    InvalidArgumentError eagerly (ConcatOp at run time, raised by `gather_components`). The
    collective path's error is `check_collective_axis`'s."""
    if len(arrays) < 2 or np.ndim(arrays[0]) != 0:
        return
    if in_function:
        n = len(arrays)
        raise ValueError(_TRACED_CONCAT_RANK0.format(
            n=n, dtype=dtype.upper(), inputs=", ".join(f"concat/values_{i}" for i in range(n)),
            shapes=", ".join(["[]"] * (n + 1))))


def collective_path(collective: bool, dtype: str) -> bool:
    """Whether TF 2.21 gathers these components with the collective all-gather: a strategy whose
    gathers are collective (MirroredStrategy without cross_device_ops), for every dtype but int32
    (MirroredStrategy sends int32 to ReductionToOneDevice)."""
    return collective and dtype != "int32"


def check_components(arrays: Sequence[np.ndarray], dtype: str, collective: bool, in_function: bool,
                     axis: int) -> None:
    """The checks TF 2.21 makes before concatenating two or more replicas' components: the
    collective path's axis rule (which covers rank 0), else the concatenation path's rank-0 rule."""
    if len(arrays) < 2:
        return
    if collective_path(collective, dtype):
        check_collective_axis(np.ndim(arrays[0]), axis)
        return
    check_rank0(arrays, dtype, in_function)


def gather_components(arrays: Sequence[np.ndarray], axis: int, collective: bool = False) -> np.ndarray:
    """Clauses gather.concat, gather.shape-rule, gather.nonzero-rank, gather.axis-range:
    concatenate the components in replica order along `axis`. Components must have equal rank
    (not 0) and equal dims except at `axis`; axis must lie in [-rank, rank). Errors are TF's
    ConcatOp InvalidArgumentErrors (the ReductionToOneDevice / CentralStorage path; a tf.function
    raises ConcatV2's shape-function ValueError while it traces). `collective`: the collective
    all-gather pads and checks the replicas' shapes when it runs, so even traced the error is the
    InvalidArgumentError."""
    try:
        return concat_arrays(list(arrays), int(axis), op="ConcatV2")
    except Exception as e:
        if collective:
            trace_errors.unmark(e)
        raise
