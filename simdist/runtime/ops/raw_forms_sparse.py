"""Raw forms of sparse ops whose forward takes the raw arguments otherwise (clause ops.raw-ops).

TF's list inputs (SparseConcat's, SparseCross's `indices`, `values`, `shapes`, `dense_inputs`)
are simdist's ops' flat tensors with their counts as attrs; SparseSplit is one raw op with
`num_split` outputs of each kind where simdist's op computes one piece (attr `piece`);
SparseReduceMax and SparseReduceMaxSparse share their forward with the Sum ops (attr `kind`,
whose default is "sum": the default binding summed). Each raw form runs the op as the public
function does (sparse_api.py, sparse_cross.py, sparse_math.py), with the op's own checks
(session 28).
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes
from simdist.runtime.ops import registry
from simdist.runtime.ops.raw_args import RawArgs

__all__ = ["declare", "sparse_split", "sparse_concat", "sparse_cross", "sparse_cross_v2", "sparse_cross_hashed"]


def sparse_split(split_dim: Any, indices: Any, values: Any, shape: Any, num_split: int) -> list[Any]:
    """SparseSplit: the num_split pieces' indices, then their values, then their shapes."""
    from simdist.runtime.ops import dispatch, sparse_core
    pieces = [dispatch.execute(sparse_core.SPARSE_SPLIT, (split_dim, indices, values, shape),
                               {"num_split": num_split, "piece": k}) for k in range(num_split)]
    return [p[0] for p in pieces] + [p[1] for p in pieces] + [p[2] for p in pieces]


def sparse_concat(indices: list, values: list, shapes: list, concat_dim: int) -> Any:
    """SparseConcat: the inputs' (indices, values, shapes) concatenated along concat_dim."""
    from simdist.runtime.ops import dispatch, sparse_core
    return dispatch.execute(sparse_core.SPARSE_CONCAT, tuple(indices) + tuple(values) + tuple(shapes),
                            {"concat_dim": concat_dim, "n": len(indices)})


def sparse_cross(indices: list, values: list, shapes: list, dense_inputs: list, hashed_output: bool,
                 num_buckets: int, hash_key: int, out_type: dtypes.DType, internal_type: dtypes.DType) -> Any:
    """SparseCross: TF registers its kernel by out_type (sparse_cross_op.cc): int64 crosses are
    hashed (num_buckets, hash_key), string crosses joined with "_X_"; `hashed_output` does not change
    the result (observed on TF 2.21), and `internal_type` only adds ValidateInput's type checks (a
    string internal_type refuses int64 values and dense inputs, in ValidateInput's order)."""
    from simdist.runtime.ops import dispatch, sparse_cross as sc
    from simdist.runtime.tensor import convert_to_tensor
    tensors = tuple(indices) + tuple(values) + tuple(shapes) + tuple(dense_inputs)
    counts = {"n_sparse": len(indices), "n_dense": len(dense_inputs), "internal": internal_type.name}
    if out_type == dtypes.int64:
        return dispatch.execute(sc.SPARSE_CROSS_HASHED, tensors, {**counts, "num_buckets": num_buckets,
                                                                   "hash_key": hash_key})
    return dispatch.execute(sc.SPARSE_CROSS, tensors + (convert_to_tensor("_X_"),), counts)


def sparse_cross_v2(indices: list, values: list, shapes: list, dense_inputs: list, sep: Any) -> Any:
    """SparseCrossV2: the string crosses joined with the `sep` input."""
    from simdist.runtime.ops import dispatch, sparse_cross as sc
    tensors = tuple(indices) + tuple(values) + tuple(shapes) + tuple(dense_inputs) + (sep,)
    return dispatch.execute(sc.SPARSE_CROSS, tensors, {"n_sparse": len(indices), "n_dense": len(dense_inputs)})


def sparse_cross_hashed(indices: list, values: list, shapes: list, dense_inputs: list, num_buckets: Any,
                        strong_hash: Any, salt: Any) -> Any:
    """SparseCrossHashed: the crosses hashed by HashCrosserV2 (sparse_cross_hashed.py)."""
    from simdist.runtime.ops import dispatch, sparse_cross_hashed as sch
    tensors = tuple(indices) + tuple(values) + tuple(shapes) + tuple(dense_inputs) + (num_buckets, strong_hash, salt)
    return dispatch.execute(sch.SPARSE_CROSS_HASHED_V2, tensors, {"n_sparse": len(indices),
                                                                  "n_dense": len(dense_inputs)})


def declare() -> None:
    """Set the raw forms above, and the max reductions' `kind`, on their ops (idempotent)."""
    for op in ("SparseReduceMax", "SparseReduceMaxSparse"):
        registry.set_raw_args(op, RawArgs(attrs={"keep_dims": "keep_dims", "kind": lambda a: "max"}))
    registry.set_raw_args("SparseSplit", RawArgs(via=sparse_split))
    registry.set_raw_args("SparseConcat", RawArgs(via=sparse_concat))
    registry.set_raw_args("SparseCross", RawArgs(via=sparse_cross))
    registry.set_raw_args("SparseCrossV2", RawArgs(via=sparse_cross_v2))
    registry.set_raw_args("SparseCrossHashed", RawArgs(via=sparse_cross_hashed))
