"""Shape rules of `Strategy.gather` and `ReplicaContext.all_gather` (concatenation path)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from simdist.runtime.ops import concat_arrays


# TF 2.21's messages (observed): the collective all-gather builds a Range over the rank, which
# shape inference rejects for scalars; a traced ConcatV2 of scalars fails shape inference too.
_COLLECTIVE_RANK0 = ("Requires start <= limit when delta > 0: 1/0 for '{{node allgather/range_1}} = "
                     "Range[Tidx=DT_INT32](allgather/range_1/start, allgather/Rank, allgather/range_1/delta)' "
                     "with input shapes: [], [], [] and with computed input tensors: input[0] = <1>, "
                     "input[1] = <0>, input[2] = <1>.")
_TRACED_CONCAT_RANK0 = ("Can't concatenate scalars (use tf.stack instead) for '{{{{node concat}}}} = "
                        "ConcatV2[N={n}, T=DT_{dtype}, Tidx=DT_INT32]({inputs}, concat/axis)' with input shapes: "
                        "{shapes}.")


def check_rank0(arrays: Sequence[np.ndarray], dtype: str, collective: bool, in_function: bool) -> None:
    """Clause gather.rank0-error-class: which error rank-0 components raise (TF 2.21, every dtype).

    * the collective path (MirroredStrategy without explicit cross_device_ops, any dtype but
      int32, which TF sends through ReductionToOneDevice): ValueError, eager or traced;
    * the concatenation path (ReductionToOneDevice, NCCL/HierarchicalCopy fallbacks,
      CentralStorageStrategy, int32 on MirroredStrategy): ValueError inside a tf.function
      (shape inference while tracing), InvalidArgumentError eagerly (ConcatOp at run time,
      raised by `gather_components`)."""
    if len(arrays) < 2 or np.ndim(arrays[0]) != 0:
        return
    if collective and dtype != "int32":
        raise ValueError(_COLLECTIVE_RANK0)
    if in_function:
        n = len(arrays)
        raise ValueError(_TRACED_CONCAT_RANK0.format(
            n=n, dtype=dtype.upper(), inputs=", ".join(f"concat/values_{i}" for i in range(n)),
            shapes=", ".join(["[]"] * (n + 1))))


def gather_components(arrays: Sequence[np.ndarray], axis: int) -> np.ndarray:
    """Clauses gather.concat, gather.shape-rule, gather.nonzero-rank, gather.axis-range:
    concatenate the components in replica order along `axis`. Components must have equal rank
    (not 0) and equal dims except at `axis`; axis must lie in [-rank, rank). Errors are TF's
    ConcatOp InvalidArgumentErrors (the ReductionToOneDevice / CentralStorage path)."""
    return concat_arrays(list(arrays), int(axis), op="ConcatV2")
