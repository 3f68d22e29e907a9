"""How tf.distribute splits a dataset's batches across replicas (TF 2.21 input pipeline rules).

Pure NumPy/Python, no state, no clock. One function per rule; each docstring cites its clause
(docs: tf-2.21-semantics.md §3, §4). Graph-walking rules take any node object with `.kind`
(TF's dataset op name, e.g. "BatchDatasetV2"), `.inputs` (tuple of nodes) and `.params` (dict).

Sources of the rules: TF's `data/experimental/ops/distribute.py` (`batch_sizes_for_worker`,
`compute_batch_size`, `_LegacyRebatchDataset`), `data/ops/rebatch_op.py`, the kernels
`compute_batch_size_op.cc` and `rebatch_dataset_op.cc`, and `distribute/input_lib.py`. How the
RebatchDataset kernels split batches is tf.data's own and lives with those datasets
(`simdist.runtime.data.rebatch`); this module keeps the rules that decide how tf.distribute uses them.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2



def matches_any_version(prefix: str, op: str) -> bool:
    """TF's `MatchesAnyVersion`: "BatchDataset" matches "BatchDataset", "BatchDatasetV2", ...

    Helper of the graph-walking rules of clauses dataset.partial-batch-split and dataset.autoshard.
    """
    return op == prefix or re.fullmatch(re.escape(prefix) + r"V\d+", op) is not None


def _of_type(op: str, names: Sequence[str]) -> bool:
    return any(matches_any_version(n, op) for n in names)


# --- the global batch size ------------------------------------------------------------------------
def batch_sizes_for_worker(global_batch: int, num_workers: int, replicas_per_worker: int,
                           worker_index: int) -> list[int]:
    """Per-replica batch sizes a worker rebatches into (clause dataset.partial-batch-split).

    N = W*r sub-batches; the first G mod N of worker 0 are one larger than G // N; worker w's
    list is worker 0's rotated left by w*r, so that every global step consumes G elements.
    G=7, W=2, r=2 -> [2, 2, 2, 1] and [2, 1, 2, 2].
    """
    n = num_workers * replicas_per_worker
    floor = global_batch // n
    num_ceil = global_batch - n * floor
    worker_0 = [floor + 1] * num_ceil + [floor] * (n - num_ceil)
    offset = worker_index * replicas_per_worker
    return worker_0[offset:] + worker_0[:offset]


def static_batch_size(component_shapes: Sequence[Any]) -> int | None:
    """The batch size known from the element spec alone (clause dataset.partial-batch-split).

    Every component needs a known dim 0: equal ones give it, unequal ones -1. Any unknown-rank
    or unknown-dim-0 component gives None (ask the graph). A scalar component raises
    `IndexError('list index out of range')`, as TF 2.21's `compute_batch_size` does (older TF
    raised ValueError "Call the `batch` method on the input Dataset ...").
    """
    dims: list[int | None] = []
    for shape in component_shapes:
        if shape is None:
            dims.append(None)
        else:
            dims.append(list(shape)[0])  # IndexError for scalars, exactly like TF 2.21
    if all(d is not None for d in dims):
        return dims[0] if all(d == dims[0] for d in dims) else -1
    return None


_BATCH_OPS = ("BatchDataset", "PaddedBatchDataset", "MapAndBatchDataset", "ExperimentalMapAndBatchDataset",
              "ParallelBatchDataset")
_MULTI_INPUT_OPS = ("ConcatenateDataset", "ZipDataset")
_SIZE_PASS_THROUGH_OPS = ("AssertCardinalityDataset", "CacheDataset", "FilterDataset", "FinalizeDataset",
                          "Identity", "ModelDataset", "OptimizeDataset", "OptionsDataset",
                          "ParseExampleDataset", "PrefetchDataset", "RepeatDataset", "ShardDataset",
                          "ShuffleAndRepeatDataset", "ShuffleDataset", "SkipDataset", "TakeDataset")


def graph_batch_size(node: Any) -> int:
    """TF's ComputeBatchSize op: the batch size of the first batching node upstream, else -1.

    Walks from the sink through ops that cannot change dim 0 (prefetch, options, shuffle,
    repeat, take, skip, shard, filter, cache, ...). Zip/concatenate need equal batch sizes on all
    inputs. Any other op (map, unbatch, rebatch, generators, ...) stops the walk with -1.
    Clause dataset.partial-batch-split.
    """
    if _of_type(node.kind, _BATCH_OPS):
        size = node.params.get("batch_size")
        return int(size) if size is not None else -1
    if _of_type(node.kind, _MULTI_INPUT_OPS):
        sizes = [graph_batch_size(i) for i in node.inputs]
        return sizes[0] if all(s == sizes[0] for s in sizes) else -1
    if _of_type(node.kind, _SIZE_PASS_THROUGH_OPS) and node.inputs:
        return graph_batch_size(node.inputs[0])
    return -1


def compute_batch_size(component_shapes: Sequence[Any], node: Any) -> int:
    """`compute_batch_size`: the static batch size if known from the spec, else the graph's (-1 if none).

    Clause dataset.partial-batch-split: -1 selects the legacy split, anything else RebatchV2.
    """
    static = static_batch_size(component_shapes)
    return static if static is not None else graph_batch_size(node)


def check_replicas_divide(num_replicas: int, num_workers: int) -> int:
    """Replicas per worker; every worker must hold the same number of replicas (TF's ValueError).

    Clause dataset.autoshard (multi-worker input).
    """
    if num_replicas % num_workers:
        raise ValueError(
            "tf.distribute expects every worker to have the same number of replicas. However, encountered "
            f"`num_replicas_in_sync` ({num_replicas}) that cannot be divided by `num_workers` ({num_workers})")
    return num_replicas // num_workers


# --- legacy rebatch (RebatchDataset, num_replicas) -------------------------------------------------
# --- RebatchV2 (batch_sizes) -----------------------------------------------------------------------
# --- dealing steps to replicas ---------------------------------------------------------------------
def replica_element_index(step: int, replicas_per_worker: int, local_replica: int) -> int:
    """Round-robin dealing: local replica j at step s gets element s*r + j of its worker's stream.

    Clause dataset-fn.no-batching ("each replica of a worker dequeues one batch per step").
    """
    return step * replicas_per_worker + local_replica


def partial_batches_enabled(strategy_flag: bool, cardinality: int, statically_shaped: bool,
                            multi_worker: bool) -> bool:
    """TF's `_enable_get_next_as_optional` (clause dataset.partial-batch-split).

    On iff the strategy allows it, the dataset is not infinite, and its element spec is not fully
    static or there are several workers.
    """
    if not strategy_flag or cardinality == INFINITE_CARDINALITY:
        return False
    return (not statically_shaped) or multi_worker


def step_outcome(has_value: Sequence[bool], partial_enabled: bool) -> str:
    """What a step does given which replicas (all workers) got an element: "full", "partial" or "end".

    "partial": replicas without data get dummies; only when partial batches are enabled and at
    least one replica has data. Otherwise a step missing any replica's data ends iteration.
    Clause dataset.partial-batch-split.
    """
    if all(has_value):
        return "full"
    if partial_enabled and any(has_value):
        return "partial"
    return "end"


def dummy_shape(shape: Any) -> tuple[int, ...]:
    """Shape of the dummy a replica without data gets (TF's `_dummy_tensor_fn`).

    Unknown dims -> 0; if the shape is fully defined, dim 0 -> 0 too ((2,) -> (0,), (3, 2) ->
    (0, 2)); unknown rank -> a scalar. Clause dataset.partial-batch-split.
    """
    if shape is None:
        return ()
    dims = [0 if d is None else int(d) for d in shape]
    if dims and all(d is not None for d in shape):
        dims[0] = 0
    return tuple(dims)


def global_batch_rows(global_batch: int, num_replicas: int) -> int:
    """`InputContext.get_per_replica_batch_size` (clause dataset-fn.input-context)."""
    if global_batch % num_replicas != 0:
        raise ValueError("The `global_batch_size` %r is not divisible by `num_replicas_in_sync` %r "
                         % (global_batch, num_replicas))
    return global_batch // num_replicas

