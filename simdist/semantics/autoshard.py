"""Auto-shard policy rules of tf.distribute's input pipeline (TF 2.21 grappler `auto_shard.cc`).

Pure Python, no state, no clock. One function per rule, each citing its clause. Graph-walking
rules take node objects with `.kind` (TF dataset op name), `.inputs` and `.params`.

simdist has no file reader datasets (TFRecord, TextLine, ...), so FILE sharding never finds a
shardable source: FILE raises TF's NotFoundError and AUTO falls back to DATA, exactly what TF
does for in-memory sources (range, from_tensor_slices, from_generator).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simdist.runtime import errors
from simdist.runtime.data.options import AutoShardPolicy   # tf.data's enum (its ShardDataset: runtime/data/shard.py)
from simdist.semantics.rebatch import matches_any_version

_READER_OPS = ("ArrayRecordDataset", "FixedLengthRecordDataset", "RecordIODataset", "SSTableDataset",
               "TextLineDataset", "TFRecordDataset")
_MULTI_INPUT_OPS = ("ConcatenateDataset", "ZipDataset")
_FUNC_OPS = ("ExperimentalParallelInterleaveDataset", "FlatMapDataset", "InterleaveDataset",
             "LegacyParallelInterleaveDataset", "ParallelInterleaveDataset")
_UNSHARDABLE_SOURCES = ("GeneratorDataset", "RangeDataset", "SparseTensorsSliceDataset", "TensorDataset",
                        "TensorSliceDataset")
_PASS_THROUGH_OPS = ("_Retval", "AssertNextDataset", "BatchDataset", "CacheDataset",
                     "ExperimentalMapAndBatchDataset", "ExperimentalParseExampleDataset",
                     "ExperimentalRebatchDataset", "FilterDataset", "FinalizeDataset", "Identity",
                     "MapAndBatchDataset", "MapDataset", "MaxIntraOpParallelismDataset", "ModelDataset",
                     "OptimizeDataset", "OptionsDataset", "PaddedBatchDataset", "ParallelBatchDataset",
                     "ParallelMapDataset", "ParseExampleDataset", "PrefetchDataset", "PrivateThreadPoolDataset",
                     "ReduceDataset", "RebatchDataset", "RepeatDataset", "ShardDataset", "ShuffleAndRepeatDataset",
                     "ShuffleDataset", "SkipDataset", "TakeDataset", "WindowDataset")
# Nodes ShardByData steps over at the end of the pipeline before inserting the shard.
TRAILING_OPS = ("PrefetchDataset", "OptionsDataset", "FinalizeDataset")


def _of_type(op: str, names: tuple[str, ...]) -> bool:
    return any(matches_any_version(n, op) for n in names)


def _debug_string(node: Any) -> str:
    """A short stand-in for TF's NodeDef DebugString (simdist has no GraphDef)."""
    return f'name: "{node.kind}"\nop: "{node.kind}"\n'


def file_shard_error(node: Any) -> str | None:
    """Why FILE sharding cannot apply, walking sink -> sources like TF's `RecursivelyHandleOp`.

    Returns the NotFound message (first unshardable source, or first node that is neither
    pass-through nor a dataset function), or None if a reader source was reached. Clause dataset.autoshard.
    """
    kind = node.kind
    if _of_type(kind, _UNSHARDABLE_SOURCES) or (_of_type(kind, _FUNC_OPS) and not node.inputs):
        return "Found an unshardable source dataset: " + _debug_string(node)
    if _of_type(kind, _MULTI_INPUT_OPS):
        for child in node.inputs:
            err = file_shard_error(child)
            if err is not None:
                return err
        return None
    if _of_type(kind, _READER_OPS):
        return None
    if not (_of_type(kind, _FUNC_OPS) or _of_type(kind, _PASS_THROUGH_OPS)) or not node.inputs:
        return ("Did not find a shardable source, walked to a node which is not a dataset: "
                + _debug_string(node) + ". Consider either turning off auto-sharding or switching the "
                "auto_shard_policy to DATA to shard this dataset. You can do this by creating a new "
                "`tf.data.Options()` object then setting `options.experimental_distribute.auto_shard_policy = "
                "AutoShardPolicy.DATA` before applying the options object to the dataset via "
                "`dataset.with_options(options)`.")
    return file_shard_error(node.inputs[0])


@dataclass(frozen=True)
class ShardPlan:
    """What auto-sharding does to one worker's pipeline.

    policy_applied: the policy in effect (AUTO resolves to DATA here).
    insert_shard: insert shard(num_workers, index) after the last non-trailing node.
    rewrite_rebatch_v2: turn a RebatchV2 right before that point into legacy Rebatch(num_replicas).
    replace_shard_hint: replace every shard(SHARD_HINT, *) with shard(num_workers, index).
    log: TF's warning text when AUTO falls back to DATA (None otherwise).
    """

    policy_applied: AutoShardPolicy
    insert_shard: bool = False
    rewrite_rebatch_v2: bool = False
    replace_shard_hint: bool = False
    log: str | None = None


def plan_autoshard(policy: int, num_workers: int, index: int, file_error: str | None) -> ShardPlan:
    """The auto-shard decision for worker `index` of `num_workers` (clause dataset.autoshard).

    OFF: nothing. FILE with one worker (index 0): skipped entirely. FILE otherwise: needs a
    reader source; `file_error` (from `file_shard_error`) is raised as NotFoundError. AUTO: FILE,
    falling back to DATA on NotFound; a reader source (TFRecordDataset ...) on one worker is FILE
    sharded by (1, 0), which keeps every file: nothing changes (several workers: not simulated). DATA: shard(W, i) at the end of the
    pipeline, rewriting RebatchV2 to legacy (clause dataset.partial-batch-split: legacy split for
    in-memory data under AUTO/DATA, even on one worker). HINT: replace shard(SHARD_HINT) nodes.
    """
    policy = AutoShardPolicy(int(policy))
    if num_workers < 1:
        raise errors.InvalidArgumentError(None, None, f"num_workers should be >= 1, currently {num_workers}")
    if index < 0 or index >= num_workers:
        raise errors.InvalidArgumentError(None, None,
                                          f"index should be >= 0 and < {num_workers}, currently {index}")
    if policy == AutoShardPolicy.OFF:
        return ShardPlan(policy)
    if policy == AutoShardPolicy.FILE and num_workers == 1 and index == 0:
        return ShardPlan(policy)
    if policy == AutoShardPolicy.HINT:
        return ShardPlan(policy, replace_shard_hint=True)
    if policy == AutoShardPolicy.DATA:
        return ShardPlan(policy, insert_shard=True, rewrite_rebatch_v2=True)
    if file_error is None:
        if num_workers == 1:   # (ShardByFile: shard(1, 0) of the reader's file list keeps every file)
            return ShardPlan(AutoShardPolicy.FILE)
        raise NotImplementedError("FILE sharding of reader datasets over several workers is not simulated by simdist")
    if policy == AutoShardPolicy.FILE:
        raise errors.NotFoundError(None, None, file_error)
    log = ("AUTO sharding policy will apply DATA sharding policy as it failed to apply FILE sharding policy "
           "because of the following reason: " + file_error)
    return ShardPlan(AutoShardPolicy.DATA, insert_shard=True, rewrite_rebatch_v2=True, log=log)


def trailing_count(kinds_from_sink: list[str]) -> int:
    """How many trailing prefetch/options/finalize nodes the DATA shard goes below (TF's ShardByData).

    Clause dataset.autoshard.
    """
    n = 0
    for kind in kinds_from_sink:
        if kind in TRAILING_OPS:
            n += 1
        else:
            break
    return n
