"""`tf.data.experimental.at(dataset, index)`: the element at `index` (TF 2.21's
experimental/ops/random_access.py and the GetElementAtIndex kernel; clause
dataset.experimental-extras).

The index converts as an int64 (a float is TypeError; an int32 tensor is the op's
InvalidArgumentError). TF's kernel asks each node for the element (`Get(index)`), from the
dataset up its inputs: a node without random access is UnimplementedError "Random access is not
implemented for dataset <Kind>Op::Dataset"; a node with it checks its own cardinality first
(infinite or unknown: FailedPreconditionError "Dataset of type <Kind>Op::Dataset has infinite
cardinality, which does not support random access."), except map (not the parallel one),
prefetch, options and assert_cardinality, which pass the request on (observed: filter.map is
Unimplemented for the filter, filter.take FailedPrecondition for the take; TF's own rewrites may
make a map parallel, which then answers for its unknown cardinality); an index outside [0, n) is OutOfRangeError
"Index out of range [0, n):index". With every node passing, the element is the index-th one the
iteration yields (these nodes keep their input's order), which simdist computes by iterating.
Difference: TF's shuffle gives random access through a global permutation; simdist refuses it
(UnimplementedError).
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes, errors
from simdist.runtime.data import resources
from simdist.runtime.data.elements import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["at"]

# The kinds whose Get(index) checks the node's cardinality, then reads its inputs.
_INDEXED = frozenset({"RangeDataset", "TensorSliceDataset", "TensorDataset", "ListDataset", "BatchDatasetV2",
                      "TakeDataset", "SkipDataset", "RepeatDataset", "ConcatenateDataset", "ZipDataset",
                      "CacheDatasetV2", "ShardDataset", "ParallelMapDatasetV2"})
# The kinds whose Get(index) is their input's (element-wise).
_PASSING = frozenset({"MapDataset", "PrefetchDataset", "OptionsDataset",
                      "AssertCardinalityDataset"})


def _check(node: Any) -> None:
    kind = node.kind
    if kind in _PASSING:
        pass
    elif kind in _INDEXED:
        card = node._card()
        if card in (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY):
            which = "infinite" if card == INFINITE_CARDINALITY else "unknown"
            raise errors.FailedPreconditionError(
                None, None, f"Dataset of type {kind}Op::Dataset has {which} cardinality, which does not support "
                            "random access. [Op:GetElementAtIndex]")
    else:
        raise errors.UnimplementedError(None, None, f"Random access is not implemented for dataset {kind}Op::Dataset "
                                                    "[Op:GetElementAtIndex]")
    for inp in node.inputs:
        _check(inp)


def at(dataset: Any, index: Any) -> Any:
    """The element of `dataset` at `index`."""
    if isinstance(index, Tensor) and index.dtype != dtypes.int64:
        raise errors.InvalidArgumentError(None, None, "cannot compute GetElementAtIndex as input #1(zero-based) was "
                                                      f"expected to be a int64 tensor but is a {index.dtype.name} "
                                                      "tensor [Op:GetElementAtIndex]")
    i = int(convert_to_tensor(index, dtype=dtypes.int64).numpy())
    if not hasattr(dataset, "element_spec"):
        raise AttributeError(f"'{type(dataset).__name__}' object has no attribute 'element_spec'")
    _check(dataset)
    n = dataset._card()
    if not 0 <= i < n:
        raise errors.OutOfRangeError(None, None, f"Index out of range [0, {n}):{i} [Op:GetElementAtIndex]")
    it = resources.owned(dataset._iter_flat())
    for _ in range(i):
        next(it)
    return dataset._pack(next(it))
