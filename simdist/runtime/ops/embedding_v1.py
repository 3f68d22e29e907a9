"""tf.compat.v1.nn.embedding_lookup: TF 2.21's embedding_ops._embedding_lookup_and_transform for a list of
partitions, transcribed (clause ops.index-errors; ixsweep67). One partition is a gather; several split the ids by
`partition_strategy` — "mod": partition id % n, row id // n (floor division: a negative id reaches a gather as a
negative row, its InvalidArgumentError); "div": contiguous blocks, the first (total % n) one row longer — then
dynamic_partition of the rows and of their positions, a gather per partition, and dynamic_stitch back in the ids'
order (a partition number outside [0, n) is dynamic_partition's InvalidArgumentError)."""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes
from simdist.runtime.ops import array, data_flow, math
from simdist.runtime.ops.args import t as _t


def embedding_lookup(params: Any, ids: Any, partition_strategy: str = "mod", name: Any = None,
                     validate_indices: bool = True, max_norm: Any = None) -> Any:
    """The rows of the partitioned `params` at `ids` (shape ids.shape + the rows' shape)."""
    from simdist.runtime.ops import nn
    if not isinstance(params, (list, tuple)):
        params = [params]
    if not params:
        raise ValueError("Length of `params` must be greater than 0. Received: params=[]")
    if len(params) == 1:
        return nn.embedding_lookup(params[0], ids, max_norm=max_norm)
    n = len(params)
    ids_t = _t(ids)
    flat = array.reshape(ids_t, [-1])
    positions = array.range_(array.size(flat))
    if partition_strategy == "mod":
        where = math.floormod(flat, n)
        rows = math.floordiv(flat, n)
    elif partition_strategy == "div":
        total = array.constant(sum(int(_t(p).shape[0]) for p in params), dtype=flat.dtype)
        per = math.floordiv(total, n)
        extras = math.floormod(total, n)
        where = math.maximum(math.floordiv(flat, per + 1), math.floordiv(flat - extras, per))
        rows = math.where(where < extras, math.floormod(flat, per + 1), math.floormod(flat - extras, per))
    else:
        raise ValueError(f"Unrecognized partition strategy: {partition_strategy}. Must be one of either `mod` or "
                         "`div`.")
    where = math.cast(where, dtypes.int32)
    gather_ids = data_flow.dynamic_partition(rows, where, n)
    pindices = data_flow.dynamic_partition(positions, where, n)
    parts = [array.gather(p, i) for p, i in zip(params, gather_ids)]
    out = data_flow.dynamic_stitch(pindices, parts)
    row_shape = list(_t(params[0]).shape.as_list()[1:])
    out = array.reshape(out, array.concat([array.shape(ids_t), array.constant(row_shape, dtype=dtypes.int32)], 0))
    if max_norm is not None:
        out = nn._clip_rows(out, ids_t.ndim, max_norm)
    return out
