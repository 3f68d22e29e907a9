"""The mutation catalogue: realistic semantic bugs planted one at a time in a copy of simdist.

`python benchmarks/mutation_score.py` applies each mutant to a fresh copy of the `simdist`
package, runs the conformance suite (`--backend simdist`) against it and reports the share of
mutants the suite detects (docs/conformance.md, "How strong is the suite").

Each mutant replaces an exact code snippet (`old`, whitespace included) by a wrong one (`new`)
in one file. The snippet must occur exactly `count` times (default once): when a refactor
moves or rewrites the code, `apply` raises `AnchorGone` naming the mutant and the file, and
tests/test_mutation.py fails in the default test run, so the catalogue is kept in step with
the code instead of silently testing nothing. Distribution mutants live in the stable semantic
layers (semantics/, strategies/, runtime/data/, values.py, sharded.py). Training mutants
(`layer="training"`, TRAINING below, issue 29) live in the gradient functions of runtime/ops/,
the tape (runtime/autodiff/), the Keras optimizers, losses, metrics, trainer, callbacks and
weight files; the mutation score reports them apart.

A mutant the suite cannot detect has `unobservable` set to the reason: it changes nothing a
program can see through the public API (e.g. a simulated cost only). Those are reported apart
and do not count against the score.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: Categories of bugs, as the issue lists them.
KINDS = ("denominator", "dtype", "order", "axis", "placement", "shard-size", "missing-error", "error-class",
         "retry", "boundary", "state", "gradient", "formula")
#: Layers a mutant may belong to; the training layer's score is reported apart (issue 29).
LAYERS = ("distribution", "training")


@dataclass(frozen=True)
class Mutant:
    id: str
    kind: str
    path: str          # relative to the repository root
    old: str
    new: str
    why: str           # the mistake it models
    count: int = 1     # how many times `old` must occur (all are replaced)
    unobservable: str = ""
    layer: str = "distribution"   # "training": gradients, tape, optimizers, losses, metrics, fit, saving


class AnchorGone(RuntimeError):
    """A mutant's snippet is not in its file as often as the catalogue says."""


def apply(text: str, m: Mutant) -> str:
    """`text` with the mutant planted; AnchorGone if its snippet occurs other than `count` times."""
    found = text.count(m.old)
    if found != m.count:
        raise AnchorGone(f"mutant {m.id}: its snippet occurs {found} time(s) in {m.path}, expected {m.count}; "
                         f"the code moved: update tests/mutants.py.\nsnippet:\n{m.old}")
    out = text.replace(m.old, m.new)
    if out == text:
        raise AnchorGone(f"mutant {m.id}: replacing its snippet changes nothing in {m.path}")
    return out


def apply_to_tree(root: Path, m: Mutant) -> str:
    """Plant `m` in the copy of the repository (or package parent) at `root`; returns the original text."""
    path = root / m.path
    original = path.read_text(encoding="utf-8")
    path.write_text(apply(original, m), encoding="utf-8")
    return original


R = "simdist/semantics/reduce.py"
P = "simdist/semantics/partition.py"
RB = "simdist/semantics/rebatch.py"
AS = "simdist/semantics/autoshard.py"
CL = "simdist/semantics/cluster.py"
B = "simdist/strategies/base.py"
PT = "simdist/strategies/partitioners.py"
PS = "simdist/strategies/parameter_server.py"
CO = "simdist/strategies/coordinator.py"
CQ = "simdist/strategies/closure_queue.py"
CC = "simdist/strategies/cluster.py"
CS = "simdist/strategies/central_storage.py"
DV = "simdist/strategies/dist_variables.py"
IN = "simdist/strategies/input.py"
CR = "simdist/strategies/cluster_resolver.py"
SV = "simdist/runtime/sharded.py"
V = "simdist/runtime/values.py"
DBA = "simdist/runtime/data/batching.py"
RBK = "simdist/runtime/data/rebatch.py"
SHK = "simdist/runtime/data/shard.py"
CK = "simdist/strategies/checkpoint.py"
RV = "simdist/strategies/remote_value.py"

CATALOGUE: list[Mutant] = [
    # -- reduce: denominators, dtypes, axes --------------------------------------------------------
    Mutant("reduce-int-mean-axis-none-is-sum", "denominator", R,
           "    if op is ReduceOp.SUM:\n        return total, dtype\n    out_dt = _truediv_dtype(dtype)\n"
           "    mean = _divide(total.astype(out_dt.np, copy=False), len(arrays)",
           "    if op is ReduceOp.SUM or dtype in (dtypes.int32, dtypes.int64):\n        return total, dtype\n"
           "    out_dt = _truediv_dtype(dtype)\n    mean = _divide(total.astype(out_dt.np, copy=False), len(arrays)",
           "integer MEAN with axis=None returns the SUM (the gap issue 17 cites)"),
    Mutant("reduce-mean-axis-none-divides-by-replicas-minus-one", "denominator", R,
           "mean = _divide(total.astype(out_dt.np, copy=False), len(arrays), out_dt)",
           "mean = _divide(total.astype(out_dt.np, copy=False), max(1, len(arrays) - 1), out_dt)",
           "MEAN over replicas uses an unbiased-variance style denominator"),
    Mutant("reduce-int32-mean-is-float32", "dtype", R,
           "    if dt in (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64):\n        return dtypes.float64",
           "    if dt in (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64):\n        return dtypes.float32",
           "integer MEAN returns float32 instead of TF's truediv float64"),
    Mutant("reduce-int8-mean-is-float64", "dtype", R,
           "    if dt in (dtypes.int8, dtypes.int16, dtypes.uint8, dtypes.uint16):\n        return dtypes.float32",
           "    if dt in (dtypes.int8, dtypes.int16, dtypes.uint8, dtypes.uint16):\n        return dtypes.float64",
           "small-integer MEAN returns float64 instead of TF's truediv float32"),
    Mutant("reduce-mean-axis-assumes-equal-batches", "denominator", R,
           "count += int(np.prod([a.shape[i] for i in axes], dtype=np.int64))",
           "count = int(np.prod([a.shape[i] for i in axes], dtype=np.int64)) * len(arrays)",
           "MEAN along an axis assumes every replica has the last replica's batch size"),
    Mutant("reduce-mean-axis-empty-replica-counts-one", "denominator", R,
           "count += int(np.prod([a.shape[i] for i in axes], dtype=np.int64))",
           "count += max(1, int(np.prod([a.shape[i] for i in axes], dtype=np.int64)))",
           "an empty replica counts as one element in the MEAN denominator"),
    Mutant("reduce-axis-rejects-negative", "axis", R,
           "if not -rank <= a < rank:",
           "if not 0 <= a < rank:",
           "reduce(axis=-1) is rejected although TF counts negative axes from the end"),
    Mutant("reduce-op-case-sensitive", "missing-error", R,
           "return ReduceOp(op.upper())",
           "return ReduceOp(op)",
           "reduce op names are case-sensitive (\"sum\" rejected)"),
    Mutant("reduce-plain-mean-multi-replica-raises", "missing-error", R,
           "    if op is ReduceOp.MEAN:\n        return value\n    if num_replicas == 1:\n",
           "    if op is ReduceOp.MEAN and num_replicas == 1:\n        return value\n    if num_replicas == 1:\n",
           "MEAN of a plain value over several replicas raises like SUM"),
    Mutant("reduce-shape-check-rank-only", "error-class", R,
           "        if a.shape != first.shape:\n            # (AddN's shape function",
           "        if a.ndim != first.ndim:\n            # (AddN's shape function",
           "mismatched shapes of the same rank surface as NumPy's ValueError, not InvalidArgumentError"),
    Mutant("reduce-axis-sum-in-float32", "dtype", R,
           "_sum_kernel(flushed(a) if daz else a, axes, False)",
           "_sum_kernel((flushed(a) if daz else a).astype(np.float32), axes, False)",
           "per-replica sums along an axis accumulate in float32, losing int64/float64 precision"),
    # -- strategies/base: run, reduce, gather, all-reduce, local results ------------------------------
    Mutant("all-reduce-ignores-mean", "denominator", B,
           "per_leaf.append(_reduce_axis_none(op, comps, ring=",
           "per_leaf.append(_reduce_axis_none(ReduceOp.SUM, comps, ring=",
           "ReplicaContext.all_reduce always sums"),
    Mutant("all-reduce-results-on-replica-0", "placement", B,
           "else t, devs[i] if devs else None)\n                             for k, t in enumerate(per_leaf)]) "
           "for i in range(len(payloads))]\n\n        traced_packs",
           "else t, devs[0] if devs else None)\n                             for k, t in enumerate(per_leaf)]) "
           "for i in range(len(payloads))]\n\n        traced_packs",
           "every replica's all-reduce result lives on replica 0's device"),
    Mutant("run-args-type-error-class", "error-class", B,
           "        if not isinstance(args, (list, tuple)):\n            raise ValueError(f\"positional args must be "
           "a list or tuple, got {type(args)}\")\n        kwargs = kwargs or {}\n        lifted = self._replica_threads",
           "        if not isinstance(args, (list, tuple)):\n            raise TypeError(f\"positional args must be "
           "a list or tuple, got {type(args)}\")\n        kwargs = kwargs or {}\n        lifted = self._replica_threads",
           "run(fn, args=x) with a non-sequence raises TypeError instead of TF's ValueError"),
    Mutant("reduce-single-replica-recomputes", "dtype", B,
           "            if n == 1:   # (the cross-device ops' one-value shortcut: an identity on the component's device)\n"
           "                return broadcast.copy_to_device(value.values[0])\n",
           "            if n == 1:\n"
           "                return _reduce_axis_none(op, list(value.values))\n",
           "a one-replica PerReplica is reduced (integer MEAN becomes float64) instead of returned as is"),
    Mutant("reduce-plain-value-not-broadcast", "denominator", B,
           "        return [value] * self.num_replicas_in_sync\n",
           "        return [value]\n",
           "reduce(SUM, plain tensor, axis=0) counts the value once, not once per replica"),
    Mutant("reduce-to-ignores-destination", "placement", B,
           "        if isinstance(destinations, str) and isinstance(out, Tensor):\n",
           "        if False:\n",
           "StrategyExtended.reduce_to leaves the result on the current device, not the destination"),
    Mutant("reduce-to-in-replica-context", "missing-error", B,
           "        strategy._check_cross_replica_or_default()\n        op = reduce_rules.parse_reduce_op(reduce_op)\n",
           "        op = reduce_rules.parse_reduce_op(reduce_op)\n",
           "reduce_to is accepted in a replica context"),
    Mutant("gather-in-replica-context-generic-error", "error-class", B,
           "        if f.replica_context is not None and f.strategy is not _default:\n"
           "            raise RuntimeError(\"tf.distribute.Strategy.gather method requires",
           "        if False:\n            raise RuntimeError(\"tf.distribute.Strategy.gather method requires",
           "Strategy.gather in a replica context gives the generic merge_call error, not TF's gather message"),
    Mutant("gather-indexed-slices-value-error", "error-class", B,
           "            raise NotImplementedError(\"gather does not support IndexedSlices\")",
           "            raise ValueError(\"gather does not support IndexedSlices\")",
           "gather of IndexedSlices raises ValueError instead of NotImplementedError"),
    Mutant("all-gather-accepts-indexed-slices", "missing-error", B,
           "            raise NotImplementedError(\"all_gather does not support IndexedSlices\")",
           "            pass",
           "all_gather densifies IndexedSlices instead of raising NotImplementedError"),
    Mutant("local-results-plain-not-tuple", "state", B,
           "            return tuple(select_replica(i, value) for i in range(self.num_replicas_in_sync))\n"
           "        return (value,)",
           "            return tuple(select_replica(i, value) for i in range(self.num_replicas_in_sync))\n"
           "        return (value,) * self.num_replicas_in_sync",
           "experimental_local_results of a plain value repeats it once per replica"),
    Mutant("values-from-function-reversed-replicas", "order", B,
           "regroup([value_fn(ValueContext(i, n)) for i in range(n)]",
           "regroup([value_fn(ValueContext(n - 1 - i, n)) for i in range(n)]",
           "value_fn sees replica ids in reverse order"),
    Mutant("scope-mixing-allowed", "missing-error", B,
           "            raise mixing_error(f.strategy, s)\n",
           "            pass\n",
           "entering another strategy's scope inside a scope is silently allowed"),
    Mutant("gather-reversed-order", "order", "simdist/semantics/gather.py",
           "return concat_arrays(list(arrays), int(axis), op=\"ConcatV2\")",
           "return concat_arrays(list(arrays)[::-1], int(axis), op=\"ConcatV2\")",
           "gather concatenates the replicas in reverse order"),
    # -- values -----------------------------------------------------------------------------------
    Mutant("regroup-wraps-identical-objects", "state", V,
           "    if not always_wrap and all(o is first for o in per_replica_outputs):\n        return first\n",
           "",
           "the same Python object returned by every replica is wrapped in a PerReplica"),
    Mutant("select-replica-always-first", "order", V,
           "        return structure._values[i]\n",
           "        return structure._values[0]\n",
           "every replica receives replica 0's component of a distributed argument"),
    Mutant("per-replica-repr-uses-str", "state", V,
           "body = \",\\n\".join(\"  %d: %r\" % (i, v) for i, v in enumerate(self._values))",
           "body = \",\\n\".join(\"  %d: %s\" % (i, v) for i, v in enumerate(self._values))",
           "repr(PerReplica) shows the components' str, not their repr"),
    # -- partitioning and placement -----------------------------------------------------------------
    Mutant("shard-sizes-larger-last", "shard-size", P,
           "return [base + (1 if i < extra else 0) for i in range(k)]",
           "return [base + (1 if i >= k - extra else 0) for i in range(k)]",
           "the longer shards come last instead of first"),
    Mutant("shard-sizes-no-cap", "shard-size", P,
           "    k = min(k, n)\n    base, extra = divmod(n, k)",
           "    base, extra = divmod(n, k)",
           "asking for more shards than rows makes empty shards"),
    Mutant("round-robin-off-by-one", "placement", P,
           "return count % num_ps",
           "return (count + 1) % num_ps",
           "the first variable goes to ps task 1"),
    Mutant("partition-check-skips-second-axis", "missing-error", P,
           "any(x != 1 for x in p[1:])",
           "any(x != 1 for x in p[2:])",
           "a partitioner splitting the second axis is not rejected"),
    Mutant("fixed-shards-no-cap", "shard-size", P,
           "out[axis] = min(num_shards, int(shape[axis]))",
           "out[axis] = num_shards",
           "FixedShardsPartitioner asks for more shards than rows"),
    Mutant("min-size-floor", "shard-size", P,
           "k = max(1, min(int(shape[axis]), max_shards, math.ceil(total / min_shard_bytes)))",
           "k = max(1, min(int(shape[axis]), max_shards, total // min_shard_bytes))",
           "MinSizePartitioner rounds the shard count down"),
    Mutant("min-size-no-row-cap", "shard-size", P,
           "k = max(1, min(int(shape[axis]), max_shards, math.ceil(total / min_shard_bytes)))",
           "k = max(1, min(max_shards, math.ceil(total / min_shard_bytes)))",
           "MinSizePartitioner asks for more shards than rows"),
    Mutant("max-size-ceil-slices", "shard-size", P,
           "slices_per_shard = max(1, math.floor(max_shard_bytes / bytes_per_slice))",
           "slices_per_shard = max(1, math.ceil(max_shard_bytes / bytes_per_slice))",
           "MaxSizePartitioner lets a shard exceed max_shard_bytes by rounding slices per shard up"),
    Mutant("max-size-ignores-max-shards", "shard-size", P,
           "    if max_shards:\n        k = min(k, max_shards)\n",
           "",
           "MaxSizePartitioner ignores max_shards"),
    Mutant("max-size-rejects-zero-max-shards", "missing-error", PT,
           "if max_shards and max_shards < 1:",
           "if max_shards is not None and max_shards < 1:",
           "MaxSizePartitioner(max_shards=0) raises, where TF 2.21 reads 0 as no cap (simdist's own bug before issue 17)"),
    Mutant("max-size-accepts-negative-max-shards", "missing-error", PT,
           "if max_shards and max_shards < 1:",
           "if max_shards and max_shards < -1:",
           "MaxSizePartitioner(max_shards=-1) is accepted"),
    Mutant("min-size-accepts-zero", "missing-error", PT,
           "            if v < 1:\n",
           "            if v < 0:\n",
           "MinSizePartitioner accepts zero arguments"),
    Mutant("partitioner-elem-bytes-float32", "shard-size", PT,
           "return bytes_per_string if dt is dtypes.string else dt.size",
           "return bytes_per_string if dt is dtypes.string else 4",
           "partitioners size every element as 4 bytes whatever the dtype"),
    Mutant("pss-vectors-not-partitioned", "boundary", PS,
           "            if init._v.ndim > 0:\n",
           "            if init._v.ndim > 1:\n",
           "rank-1 variables are never partitioned"),
    Mutant("pss-one-partition-is-sharded", "boundary", PS,
           "                p = partition.check_partition_result(partitioner(shape=init.shape, dtype=init.dtype))\n"
           "                if p[0] > 1:",
           "                p = partition.check_partition_result(partitioner(shape=init.shape, dtype=init.dtype))\n"
           "                if p[0] > 0:",
           "a variable left in one piece becomes a one-shard ShardedVariable"),
    Mutant("pss-colocated-round-robin", "placement", PS,
           "dev = getattr(self._colocate_with, \"device\", chief) if self._current_worker is None else chief",
           "dev = self._next_ps() if self._current_worker is None else chief",
           "colocate_vars_with is ignored: colocated variables go round-robin"),
    Mutant("pss-shard-names-from-one", "order", PS,
           "name=f\"{name}/part_{i}\", device=self._next_ps(), **kw)",
           "name=f\"{name}/part_{i + 1}\", device=self._next_ps(), **kw)",
           "shard names start at part_1"),
    Mutant("pss-dataset-fn-variables-runtime-error", "error-class", PS,
           "raise ValueError(\"Creating variables in `dataset_fn` is not allowed.\")",
           "raise RuntimeError(\"Creating variables in `dataset_fn` is not allowed.\")",
           "creating a variable in dataset_fn raises RuntimeError instead of ValueError"),
    Mutant("pss-two-chiefs-allowed", "missing-error", CL,
           "if len(jobs.get(\"chief\", [])) > 1:",
           "if len(jobs.get(\"chief\", [])) > 2:",
           "a cluster with two chiefs is accepted"),
    # -- ShardedVariable -------------------------------------------------------------------------------
    Mutant("sharded-assign-equal-slices", "shard-size", SV,
           "return [Tensor(t._v[self._offsets[i]:self._offsets[i + 1]], t.dtype) for i in range(len(self._variables))]",
           "k = int(self._variables[0].shape[0])\n"
           "        return [Tensor(t._v[i * k:(i + 1) * k], t.dtype) for i in range(len(self._variables))]",
           "assign splits the value into equal slices of the first shard's size"),
    Mutant("sharded-lookup-boundary", "boundary", SV,
           "shard_of = np.searchsorted(self._offsets, flat, side=\"right\") - 1",
           "shard_of = np.searchsorted(self._offsets, flat, side=\"left\") - 1",
           "embedding lookups of a shard's first row read the previous shard"),
    Mutant("sharded-lookup-accepts-n", "missing-error", SV,
           "bad = idx[(idx < 0) | (idx >= n)]",
           "bad = idx[(idx < 0) | (idx > n)]",
           "looking up row N (one past the end) is not an InvalidArgumentError",
           unobservable="equivalent since lookups became per-shard sparse reads (main, after issue 17 began): row N "
                        "reaches the last shard as its local row size_last, and that shard's own ResourceGather raises "
                        "the same InvalidArgumentError (only the index in the message is the local one)"),
    Mutant("sharded-shape-equal-shards", "shard-size", SV,
           "rows = sum(int(v.shape[0]) for v in self._variables)",
           "rows = int(first.shape[0]) * len(self._variables)",
           "the sharded variable's shape assumes equal shards"),
    # -- distributed variables ----------------------------------------------------------------------------
    Mutant("only-first-replica-takes-last", "order", DV,
           "v = strategy.experimental_local_results(merged)[0]",
           "v = strategy.experimental_local_results(merged)[-1]",
           "ONLY_FIRST_REPLICA aggregation keeps the last replica's value"),
    Mutant("aggregation-none-allowed", "missing-error", DV,
           "    if agg == VariableAggregation.NONE:\n        raise ValueError(",
           "    if agg is None:\n        raise ValueError(",
           "updating a mirrored variable in replica context without aggregation is not an error"),
    Mutant("mirrored-assign-first-copy-only", "state", DV,
           "        for comp in self._values:\n            getattr(comp, method)(value)",
           "        for comp in self._values[:1]:\n            getattr(comp, method)(value)",
           "assigning a MirroredVariable updates only replica 0's copy"),
    Mutant("mirrored-none-aggregation-raises", "missing-error", DV,
           "if not (self.aggregation == VariableAggregation.NONE and self._apply_local(rid, method, value)):",
           "if True:",
           "a MirroredVariable without aggregation cannot be updated in replica context (the documented rule, not "
           "TF 2.21's per-copy update; simdist's own behaviour before issue 17)"),
    Mutant("mirrored-collectives-take-every-dtype", "missing-error", "simdist/strategies/mirrored.py",
           "    _collective_dtypes = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)\n",
           "    _collective_dtypes = None\n",
           "MirroredStrategy gathers and all-reduces 8/16-bit integers, which TF 2.21's CPU collectives reject "
           "(simdist's own behaviour before issue 17)"),
    # -- input pipelines ------------------------------------------------------------------------------------
    Mutant("legacy-split-floor", "shard-size", RBK,
           "m = -(-batch_dim // num_replicas) if batch_dim > 0 else 0",
           "m = batch_dim // num_replicas if batch_dim > 0 else 0",
           "the legacy split gives each replica floor(b/R) rows instead of ceil(b/R)"),
    Mutant("rebatch-v2-drops-partial", "boundary", RBK,
           "if (got == 0 and desired > 0) or (drop_remainder and got < desired):",
           "if (got == 0 and desired > 0) or got < desired:",
           "the new-style split drops a short final per-replica batch"),
    Mutant("partial-step-always-padded", "boundary", RB,
           "    if partial_enabled and any(has_value):\n",
           "    if any(has_value):\n",
           "a partial last step is padded with empty batches even where TF drops it (CentralStorage)"),
    Mutant("per-replica-batch-no-divisibility-check", "missing-error", RB,
           "    if global_batch % num_replicas != 0:\n        raise ValueError(",
           "    if global_batch % num_replicas < 0:\n        raise ValueError(",
           "get_per_replica_batch_size floors a global batch that does not divide"),
    Mutant("input-dealt-reversed", "order", IN,
           "for flat, dev in zip(per_worker, pipe.dest):",
           "for flat, dev in zip(per_worker[::-1], pipe.dest):",
           "a worker's input elements are dealt to its replicas in reverse order"),
    Mutant("autoshard-data-keeps-rebatch-v2", "shard-size", AS,
           "        return ShardPlan(policy, insert_shard=True, rewrite_rebatch_v2=True)\n",
           "        return ShardPlan(policy, insert_shard=True, rewrite_rebatch_v2=False)\n",
           "DATA sharding keeps the new-style split (in-memory data split [0..3]|[4,5] under DATA)"),
    Mutant("shard-keeps-blocks", "order", SHK,
           "return position % num_shards == index",
           "return (position // 2) % num_shards == index",
           "Dataset.shard keeps pairs of elements instead of every num_shards-th"),
    Mutant("batch-drops-remainder-always", "boundary", DBA,
           "        if not buf or (drop and len(buf) < size):\n",
           "        if not buf or (not drop and len(buf) < size):\n",
           "Dataset.batch drops the final short batch unless drop_remainder=True (inverted)"),
    Mutant("central-storage-pads-partial-steps", "boundary", CS,
           "        \"\"\"False in TF 2.21: a partial last step is dropped, not padded with empty batches.\"\"\"\n"
           "        return False",
           "        \"\"\"False in TF 2.21: a partial last step is dropped, not padded with empty batches.\"\"\"\n"
           "        return True",
           "CentralStorageStrategy pads a partial last step like MirroredStrategy"),
    Mutant("central-storage-params-on-first-compute-device", "placement", CS,
           "param = compute[0] if len(compute) == 1 else session.canonical(\"/device:CPU:0\")",
           "param = compute[0]",
           "with several GPUs, variables land on GPU:0 instead of the CPU"),
    Mutant("input-context-divisibility", "denominator", IN,
           "return rebatch.global_batch_rows(global_batch_size, self._num_replicas_in_sync)",
           "return global_batch_size // self._num_input_pipelines",
           "get_per_replica_batch_size divides by the input pipelines, not the replicas"),
    Mutant("tf-config-task-id-string", "state", CR,
           "        return None if i is None else int(i)\n",
           "        return i\n",
           "TF_CONFIG task index strings are not converted to int"),
    # -- coordinator: retries and errors -------------------------------------------------------------------------
    Mutant("coord-preempted-closure-dropped", "retry", CQ,
           "        closure.state = \"queued\"\n        self.queue.appendleft(closure)",
           "        closure.state = \"queued\"",
           "a preempted closure is not put back in the queue"),
    Mutant("coord-error-sticky", "retry", CC,
           "        queue.error = None\n        self.pool.notify()\n        raise err",
           "        self.pool.notify()\n        raise err",
           "an application error is raised on every later call, not once"),
    Mutant("coord-cancelled-queued-aborted", "error-class", CQ,
           "c.remote._fail(errors.CancelledError(None, None, _CANCELLED_QUEUED))",
           "c.remote._fail(errors.AbortedError(None, None, _CANCELLED_QUEUED))",
           "queued closures cancelled by an error fail with AbortedError instead of CancelledError"),
    Mutant("coord-schedule-accepts-python-functions", "missing-error", CO,
           "        if not isinstance(fn, function_type()):\n            raise TypeError(",
           "        if not callable(fn):\n            raise TypeError(",
           "schedule accepts a plain Python function"),
    Mutant("coord-new-per-call", "state", CO,
           "        if existing is not None:\n            return existing\n",
           "",
           "ClusterCoordinator(strategy) makes a new coordinator each time"),
    # -- a second batch, written before looking for the tests that would catch them ----------------------------
    Mutant("rebatch-no-worker-rotation", "order", RB,
           "    return worker_0[offset:] + worker_0[:offset]\n",
           "    return worker_0\n",
           "every worker rebatches with worker 0's per-replica sizes (the global step then takes the wrong count)"),
    # Observable since simdist ships MultiWorkerMirroredStrategy (issue 30): range(14).batch(7) over 2
    # workers with AutoShardPolicy.OFF gives worker 1 [0,1,2],[3,4,5,6] (TF 2.21, two worker processes:
    # docs/tools/mwms_facts/rebatch.py), [0..3],[4,5,6] with this mutant; killed by
    # test_multi_worker_mirrored.py::test_mwms_uneven_global_batch_rotates_per_worker.
    Mutant("static-batch-first-component", "boundary", RB,
           "        return dims[0] if all(d == dims[0] for d in dims) else -1\n",
           "        return dims[0]\n",
           "components with different batch sizes take the first one's size (new-style split instead of legacy)"),
    Mutant("legacy-rebatch-dim-always-divides", "shard-size", RBK,
           "    if dim0 is not None and dim0 % num_replicas == 0:\n        return dim0 // num_replicas\n",
           "    if dim0 is not None:\n        return dim0 // num_replicas\n",
           "the element_spec after a legacy rebatch claims a static batch size although the batch does not divide"),
    Mutant("coord-remote-value-input-accepted", "missing-error", CO,
           "        if (args or kwargs) and any(isinstance(a, RemoteValue) for a in _leaves((args, kwargs))):\n",
           "        if False:\n",
           "a RemoteValue passed as an argument to schedule is accepted"),
    Mutant("coord-done-ignores-inflight", "state", CO,
           "        return not q.queue and not q.inflight\n",
           "        return not q.queue\n",
           "done() is True while functions are still running"),
    Mutant("coord-aborted-fetch-error-class", "error-class", RV,
           "            raise errors.CancelledError(None, None, _ABORTED)\n        if self._error is not None:\n"
           "            raise self._error\n        return _to_numpy(self._value)",
           "            raise errors.AbortedError(None, None, _ABORTED)\n        if self._error is not None:\n"
           "            raise self._error\n        return _to_numpy(self._value)",
           "fetch() of an aborted function raises AbortedError instead of CancelledError",
           unobservable="dead code: simdist's coordinator never puts a RemoteValue in the ABORTED state (TF aborts "
                        "a closure when its worker fails for good, which simdist's fault model has no way to express)"),
    Mutant("coord-fetch-returns-tensors", "state", RV,
           "        if hasattr(v, \"numpy\"):\n            return v.numpy()\n",
           "",
           "RemoteValue.fetch returns tensors instead of NumPy values"),
    Mutant("regroup-different-structures-accepted", "missing-error", V,
           "            if not isinstance(o, type(first)) or len(o) != len(first):",
           "            if not isinstance(o, type(first)):",
           "replicas returning structures of different lengths are zipped silently"),
    Mutant("input-context-str-swapped", "order", IN,
           "            self.input_pipeline_id, self.num_input_pipelines)",
           "            self.num_input_pipelines, self.input_pipeline_id)",
           "str(InputContext) swaps the pipeline id and the pipeline count"),
    Mutant("shard-cardinality-off-by-one", "boundary", SHK,
           "return _cdiv(n, shards) + (1 if index < _cmod(n, shards) else 0)",
           "return _cdiv(n, shards) + (1 if index <= _cmod(n, shards) else 0)",
           "Dataset.shard's cardinality counts one element too many for the shard at index n mod k"),
    Mutant("checkpoint-partition-count-unchecked", "missing-error", CK,
           "                if k_saved != k_now:   # (before any assignment: nothing restored)\n                    raise ValueError(",
           "                if k_saved < 0:   # (before any assignment: nothing restored)\n                    raise ValueError(",
           "restoring into a different number of partitions is not an error (the documented rule simdist keeps)",
           unobservable="the documented rule only asks that such a restore fail, and it still does: the first shard "
                        "whose shape differs raises ValueError (\"has shape [2, 2] in the checkpoint but [1, 2]\"); "
                        "only the message naming both partition counts is lost, which is simdist's own promise, "
                        "checked by tests/strategies/test_faults.py::test_checkpoint_partitions_must_not_change (it kills this "
                        "mutant)"),
    Mutant("pss-zero-ps-accepted", "missing-error", PS,
           "        if not jobs.get(\"ps\"):\n            raise ValueError(\"There must be at least one ps.\")\n",
           "",
           "a cluster without ps tasks is accepted"),
    Mutant("autoshard-file-single-worker-not-skipped", "missing-error", AS,
           "    if policy == AutoShardPolicy.FILE and num_workers == 1 and index == 0:\n        return ShardPlan(policy)\n",
           "",
           "FILE sharding on a single worker is attempted (NotFoundError) instead of skipped"),
    Mutant("is-chief-no-evaluator", "state", CL,
           "    if task_type in (\"chief\", \"evaluator\"):\n        return True\n",
           "    if task_type == \"chief\":\n        return True\n",
           "the evaluator is not treated as a chief (an MWMS made on the evaluator task would not checkpoint; "
           "TF 2.21's is True: test_mwms_on_the_evaluator_task_is_its_own_chief)"),
    Mutant("dataset-function-probe-writes-kept", "state", "simdist/runtime/data/functions.py",
           "        txn = None if outer else variables.Transaction()\n",
           "        txn = None\n",
           "a tf.data function's spec probes keep their variable writes, as if TF's trace ran the function's ops"),
    Mutant("dataset-function-replays-recorded-kernels", "state", "simdist/runtime/data/functions.py",
           "            if recorded is instance:\n",
           "            if True:\n",
           "a replayed tf.data function draws from the kernels it was recorded with, not the running iterator's"),
    Mutant("dataset-function-python-per-element", "state", "simdist/runtime/data/functions.py",
           "        if entry is not False and entry is not None and _replayable(own):\n",
           "        if False:\n",
           "a tf.data function's Python runs for every element instead of once as its trace"),
]


# -- the training layer (issue 29): gradients, tape, optimizers, losses, metrics, fit, saving ---------------
AR = "simdist/runtime/ops/array.py"
AC = "simdist/runtime/ops/activations.py"
LA = "simdist/runtime/ops/linalg.py"
MA = "simdist/runtime/ops/math.py"
UN = "simdist/runtime/ops/unary.py"
LO = "simdist/runtime/ops/losses.py"
RA = "simdist/runtime/ops/random.py"
BP = "simdist/runtime/autodiff/backprop.py"
TP = "simdist/runtime/autodiff/tape.py"
BO = "simdist/keras/optimizers/base_optimizer.py"
KL = "simdist/keras/losses/losses.py"
KLL = "simdist/keras/losses/loss.py"
KNN = "simdist/keras/ops/tf_nn.py"   # keras.ops' crossentropies, which the losses call


def _t(id: str, kind: str, path: str, old: str, new: str, why: str, **kw) -> Mutant:
    return Mutant(id, kind, path, old, new, why, layer="training", **kw)


TRAINING: list[Mutant] = [
    # -- gradient functions ----------------------------------------------------------------------------
    _t("grad-matmul-transpose-a-b", "gradient", LA,
       "    if t_a and not t_b:\n        return _mm(a, grad)\n",
       "    if t_a and not t_b:\n        return _mm(a, grad, ta=True)\n",
       "the gradient of b in matmul(a, b, transpose_a=True) forgets that a is already transposed"),
    _t("grad-matmul-a-transposed-b", "gradient", LA,
       "    if not t_a and t_b:\n        return _mm(grad, b)\n",
       "    if not t_a and t_b:\n        return _mm(grad, b, tb=True)\n",
       "the gradient of a in matmul(a, b, transpose_b=True) transposes b once more"),
    _t("grad-relu-at-zero", "gradient", AC,
       "lambda g, y: g * (y > 0)", "lambda g, y: g * (y >= 0)",
       "relu passes the gradient where its output is 0 (every negative input and 0), TF passes none"),
    _t("grad-leaky-relu-at-zero", "gradient", AC,
       "np.where(x > 0, g, g * x.dtype.type(np.float32(alpha)))",
       "np.where(x >= 0, g, g * x.dtype.type(np.float32(alpha)))",
       "leaky_relu's gradient at exactly 0 is 1 instead of TF's alpha"),
    _t("grad-tanh-of-output", "gradient", AC,
       "        return dy * (1 - y * y)", "        return dy * (1 - np.tanh(y) ** 2)",
       "tanh's gradient applies the derivative to the output as if it were the input"),
    _t("grad-sigmoid-no-one-minus", "gradient", AC,
       "    packets = dy * (y * (1 - y))", "    packets = dy * y",
       "sigmoid's gradient drops the (1 - y) factor"),
    _t("grad-softmax-no-centering", "gradient", AC,
       "    return [(grad_softmax - sum_channels) * s]", "    return [grad_softmax * s]",
       "softmax's gradient forgets to subtract the weighted sum over the classes"),
    _t("grad-log-softmax-unweighted", "gradient", AC,
       "    return [grad - math.reduce_sum(grad, -1, keepdims=True) * s]", "    return [grad - s]",
       "log_softmax's gradient assumes the upstream gradient sums to 1 over the classes"),
    _t("grad-sparse-xent-ignores-upstream", "gradient", LO,
       "def _sparse_xent_grad(op: Any, grad_loss: Any, grad_grad: Any) -> list:\n"
       "    grad = _broadcast_mul(grad_loss, op.outputs[1])",
       "def _sparse_xent_grad(op: Any, grad_loss: Any, grad_grad: Any) -> list:\n"
       "    grad = op.outputs[1]",
       "the sparse cross-entropy gradient ignores the upstream gradient (the loss's 1/batch and weights)"),
    _t("grad-xent-labels-sign", "gradient", LO,
       "return [grad, _broadcast_mul(grad_loss, -activations.log_softmax(logits))]",
       "return [grad, _broadcast_mul(grad_loss, activations.log_softmax(logits))]",
       "the cross-entropy gradient with respect to the labels has the wrong sign"),
    _t("grad-l2loss-doubled", "gradient", LO,
       "    return [op.inputs[0] * grad]", "    return [2.0 * op.inputs[0] * grad]",
       "l2_loss's gradient forgets the 1/2 of sum(x**2)/2"),
    _t("grad-mean-axis-whole-size", "gradient", MA,
       "factor = in_size // max(out_size, 1)", "factor = in_size",
       "reduce_mean along an axis divides the gradient by the whole input's size"),
    _t("grad-unbroadcast-keeps-size-one-dims", "gradient", MA,
       "axes = list(range(lead)) + [lead + i for i, d in enumerate(shape) if d == 1 and gs[lead + i] != 1]",
       "axes = list(range(lead))",
       "undoing a broadcast sums the leading dimensions only, not the size-1 ones"),
    _t("grad-sub-broadcast-sign", "gradient", MA,
       "None if 1 in skip else unbroadcast(negative(grad), sy)]",
       "None if 1 in skip else unbroadcast(grad, sy)]",
       "x - y with broadcasting gives y the gradient +1 instead of -1"),
    _t("grad-mul-broadcast-wrong-factor", "gradient", MA,
       "None if 1 in skip else unbroadcast(multiply(x, grad), sy)]",
       "None if 1 in skip else unbroadcast(multiply(y, grad), sy)]",
       "x * y with broadcasting multiplies y's gradient by y instead of x"),
    _t("grad-div-denominator-once", "gradient", MA,
       "gy = multiply(grad, binary(REALDIV, binary(REALDIV, negative(x), y), y))",
       "gy = multiply(grad, binary(REALDIV, negative(x), y))",
       "d(x/y)/dy is -x/y instead of -x/y**2"),
    _t("grad-pow-exponent", "gradient", MA,
       "gx = multiply(multiply(grad, y), pow_(x, subtract(y, 1)))",
       "gx = multiply(multiply(grad, y), pow_(x, y))",
       "d(x**y)/dx uses x**y instead of x**(y-1)"),
    _t("grad-max-ties-not-shared", "gradient", MA,
       "    return [multiply(binary(REALDIV, indicators, num_selected), g)]",
       "    return [multiply(indicators, g)]",
       "reduce_max's gradient gives every tied maximum the full gradient instead of sharing it"),
    _t("grad-maximum-ties-to-y", "gradient", MA,
       "    return _max_min_grad(op, grad, greater_equal)", "    return _max_min_grad(op, grad, greater)",
       "tf.maximum(x, y) sends the gradient of a tie to y instead of x"),
    _t("grad-transpose-not-inverted", "gradient", AR,
       "    return [transpose(grad, tuple(int(i) for i in np.argsort(perm)))]",
       "    return [transpose(grad, tuple(int(i) for i in perm))]",
       "transpose's gradient applies perm again instead of its inverse"),
    _t("grad-gather-duplicates-overwrite", "gradient", AR,
       "    np.add.at(moved, idx, gm)", "    moved[idx] = gm",
       "gathering the same index twice (on an axis other than 0) keeps one gradient instead of their sum"),
    _t("grad-sqrt-of-input", "gradient", UN,
       "    return [sqrt_grad(op.outputs[0], grad)]", "    return [sqrt_grad(op.inputs[0], grad)]",
       "sqrt's gradient divides by x instead of sqrt(x)"),
    _t("grad-cumsum-same-direction", "gradient", "simdist/runtime/ops/reductions.py",
       "exclusive=op.get_attr(\"exclusive\"), reverse=not op.get_attr(\"reverse\"))]",
       "exclusive=op.get_attr(\"exclusive\"), reverse=op.get_attr(\"reverse\"))]",
       "cumsum's gradient scans in the same direction as the forward pass instead of the opposite one"),
    _t("grad-bias-add-sums-channels", "gradient", "simdist/runtime/ops/nn.py",
       "    axes = tuple(i for i in range(g.ndim) if i != ax)\n",
       "    axes = tuple(i for i in range(g.ndim) if i != ax)\n    g = g[:1]\n",
       "bias_add's gradient takes the first example's sum instead of summing over the batch"),
    _t("grad-concat-equal-pieces", "gradient", AR,
       "        return list(split(grad, sizes, axis=axis))",
       "        return list(split(grad, len(sizes), axis=axis)) if len(set(sizes)) == 1 else "
       "list(split(grad, sorted(sizes), axis=axis))",
       "concat's gradient splits by the input sizes sorted, not in the inputs' order"),
    # -- the tape ---------------------------------------------------------------------------------------
    _t("tape-aggregate-keeps-last", "gradient", BP,
       "    if all(isinstance(g, Tensor) for g in grads):\n        return math.add_n(grads)\n",
       "    if all(isinstance(g, Tensor) for g in grads):\n        return grads[-1]\n",
       "a tensor used twice gets only its last use's gradient"),
    _t("tape-unconnected-zero-ignored", "state", BP,
       "        elif getattr(unconnected, \"value\", unconnected) == \"zero\":\n",
       "        elif getattr(unconnected, \"value\", unconnected) == \"zeros\":\n",
       "unconnected_gradients=ZERO still returns None"),
    _t("tape-persistent-released", "state", TP,
       "        if not self._persistent:\n            self._watched_variables = tuple(in_creation_order(self._tape.watched_vars))\n"
       "            self._tape.release()\n            self._tape = None\n        return nest.pack_sequence_as(sources, grads)",
       "        if True:\n            self._watched_variables = tuple(in_creation_order(self._tape.watched_vars))\n"
       "            self._tape.release()\n            self._tape = None\n        return nest.pack_sequence_as(sources, grads)",
       "a persistent tape is released after its first gradient"),
    # -- optimizers -------------------------------------------------------------------------------------
    _t("adam-no-beta2-correction", "formula", "simdist/keras/optimizers/adam.py",
       "alpha = lr * ops.sqrt(1 - beta_2_power) / (1 - beta_1_power)", "alpha = lr / (1 - beta_1_power)",
       "Adam's bias correction forgets sqrt(1 - beta_2^t)"),
    _t("sgd-nesterov-ignored", "formula", "simdist/keras/optimizers/sgd.py",
       "            if self.nesterov:\n", "            if self.nesterov and False:\n",
       "SGD(nesterov=True) takes plain momentum steps"),
    _t("sgd-momentum-ignored-in-velocity", "formula", "simdist/keras/optimizers/sgd.py",
       "self.assign(m, ops.subtract(ops.multiply(m, momentum), ops.multiply(gradient, learning_rate)))",
       "self.assign(m, ops.subtract(m, ops.multiply(gradient, learning_rate)))",
       "SGD's velocity accumulates without decaying by the momentum"),
    _t("adagrad-epsilon-outside-sqrt", "formula", "simdist/keras/optimizers/adagrad.py",
       "ops.sqrt(ops.add(accumulator, self.epsilon))", "ops.add(ops.sqrt(accumulator), self.epsilon)",
       "Adagrad adds epsilon after the square root (Keras 2's placement) instead of inside it"),
    _t("weight-decay-without-lr", "formula", BO,
       "variable.assign_sub(variable * wd * lr)", "variable.assign_sub(variable * wd)",
       "decoupled weight decay forgets the learning rate"),
    _t("weight-decay-after-update", "order", BO,
       "            self._apply_weight_decay(trainable_variables)\n"
       "            self._backend_update_step(grads, trainable_variables, self.learning_rate)\n",
       "            self._backend_update_step(grads, trainable_variables, self.learning_rate)\n"
       "            self._apply_weight_decay(trainable_variables)\n",
       "weight decay is applied after the gradient step instead of before"),
    _t("clipnorm-as-clipvalue", "formula", BO,
       "return [ops.clip_by_norm(g, self.clipnorm) if g is not None else g for g in grads]",
       "return [ops.clip(g, -self.clipnorm, self.clipnorm) if g is not None else g for g in grads]",
       "clipnorm clips each element instead of rescaling the gradient's norm"),
    _t("global-clipnorm-per-tensor", "formula", BO,
       "return clip_by_global_norm(grads, self.global_clipnorm)",
       "return [ops.clip_by_norm(g, self.global_clipnorm) if g is not None else g for g in grads]",
       "global_clipnorm clips each gradient by its own norm instead of the global norm"),
    _t("clipvalue-lower-bound-zero", "boundary", BO,
       "return [ops.clip(g, -v, v) if g is not None else g for g in grads]",
       "return [ops.clip(g, 0.0, v) if g is not None else g for g in grads]",
       "clipvalue clips to [0, v] instead of [-v, v]"),
    _t("iterations-assigned-not-incremented", "state", BO,
       "        self._iterations.assign_add(1)\n", "        self._iterations.assign(1)\n",
       "apply sets iterations to 1 instead of incrementing it (Adam's bias correction and schedules stall)"),
    _t("grads-all-reduced-as-mean", "denominator", "simdist/keras/optimizers/_distribute.py",
       "reduced = rc.all_reduce(tf.distribute.ReduceOp.SUM, [g for g, _ in filtered]) if filtered else []",
       "reduced = rc.all_reduce(tf.distribute.ReduceOp.MEAN, [g for g, _ in filtered]) if filtered else []",
       "apply_gradients averages the replicas' gradients instead of summing them"),
    # -- losses -----------------------------------------------------------------------------------------
    _t("loss-not-scaled-per-replica", "denominator", KLL,
       "    if n > 1:\n        value = value * ops.cast(1.0 / n, value.dtype)\n",
       "    if n > 1 and False:\n        value = value * ops.cast(1.0 / n, value.dtype)\n",
       "a Keras loss in a replica context is not divided by num_replicas_in_sync (summed gradients are R times the mean)"),
    _t("loss-mean-divides-by-weights", "denominator", KLL,
       "        if reduction == \"mean_with_sample_weight\" and sample_weight is not None:",
       "        if sample_weight is not None:",
       "sum_over_batch_size divides by the sum of the sample weights instead of the number of values"),
    _t("cce-label-smoothing-not-per-class", "formula", KL,
       "(label_smoothing / num_classes)", "label_smoothing",
       "categorical label smoothing adds the whole smoothing to every class"),
    _t("bce-label-smoothing-full", "formula", KL,
       "+ 0.5 * label_smoothing", "+ label_smoothing",
       "binary label smoothing adds the whole smoothing instead of half"),
    _t("cce-probabilities-not-normalised", "formula", KNN,
       "    output = output / tf.reduce_sum(output, axis, keepdims=True)\n", "",
       "categorical_crossentropy of probabilities that do not sum to 1 is not renormalised"),
    _t("scce-from-logits-ignored", "formula", KNN,
       "    if not from_logits:\n        output = tf.clip_by_value(\n            output, backend.epsilon(), 1 - backend.epsilon()\n",
       "    if True:\n        output = tf.clip_by_value(\n            output, backend.epsilon(), 1 - backend.epsilon()\n",
       "sparse_categorical_crossentropy(from_logits=True) treats the logits as probabilities"),
    # -- metrics ----------------------------------------------------------------------------------------
    _t("mean-metric-weights-not-counted", "denominator", "simdist/keras/metrics/reduction_metrics.py",
       "            num_samples: Any = ops.sum(sample_weight)\n",
       "            num_samples: Any = ops.shape(values)[0]\n",
       "a weighted Mean divides by the number of samples instead of the sum of the weights"),
    _t("mean-metric-reset-keeps-count", "state", "simdist/keras/metrics/reduction_metrics.py",
       "        self.total.assign(0)\n        self.count.assign(0)\n", "        self.total.assign(0)\n",
       "Mean.reset_state forgets the count (the next epoch's mean is too small)"),
    # -- fit, callbacks, weight files, random ops -----------------------------------------------------
    _t("fit-validation-split-takes-head", "order", "simdist/keras/trainers/data_adapter.py",
       "    return split(0, split_at), split(split_at, batch_dim)",
       "    return split(batch_dim - split_at, batch_dim), split(0, batch_dim - split_at)",
       "validation_split holds out the first samples instead of the last"),
    _t("fit-shuffle-false-shuffles", "order", "simdist/keras/trainers/data_adapter.py",
       "        bs = self._batch_size\n        if not self._shuffle and",
       "        bs = self._batch_size\n        self._shuffle = True\n        if not self._shuffle and",
       "fit(shuffle=False) still shuffles the samples"),
    _t("callbacks-called-in-reverse", "order", "simdist/keras/callbacks/callback_list.py",
       "        for callback in self.callbacks:\n            getattr(callback, hook)(*args, logs)",
       "        for callback in self.callbacks[::-1]:\n            getattr(callback, hook)(*args, logs)",
       "callbacks run in reverse order"),
    _t("lr-scheduler-next-epoch", "boundary", "simdist/keras/callbacks/learning_rate_scheduler.py",
       "learning_rate = self.schedule(epoch, _as_float(", "learning_rate = self.schedule(epoch + 1, _as_float(",
       "LearningRateScheduler asks the schedule for the next epoch's rate (epochs counted from 1)"),
    _t("save-weights-optimizer-iterations-only", "state", "simdist/keras/models/saving.py",
       "    if isinstance(obj, Optimizer):\n        return list(obj.variables)\n",
       "    if isinstance(obj, Optimizer):\n        return list(obj.variables)[:1]\n",
       "save_weights/load_weights keep the optimizer's iterations but not its slots"),
    _t("random-op-seed-restarts-each-call", "state", RA,
       "    gen = streams.get(key)\n    if gen is None:\n        gen = streams[key] = philox.seeded(seed, seed2)\n    local = gen.copy()\n",
       "    gen = None\n    if gen is None:\n        gen = streams[key] = philox.seeded(seed, seed2)\n    local = gen.copy()\n",
       "a random op with an op seed draws the same values on every call (TF's kernel counter advances)"),
]


# -- a third batch of training mutants (2026-11-29), written before looking for the tests that would catch
# them; the share the suite caught on first contact is the honest estimate for hidden planted bugs
# (docs/conformance.md) --------------------------------------------------------------------------------------
TRAINING += [
    # gradient rules
    _t("grad-cast-keeps-upstream-dtype", "dtype", MA,
       "        return [cast(grad, src)]\n", "        return [grad]\n",
       "the gradient through tf.cast keeps the output's dtype instead of casting back to the input's"),
    _t("grad-batch-matmul-b-not-unbroadcast", "gradient", LA,
       "    return [unbroadcast(ga, op.inputs[0].shape.as_list()), unbroadcast(gb, op.inputs[1].shape.as_list())]",
       "    return [unbroadcast(ga, op.inputs[0].shape.as_list()), gb]",
       "a batched matmul against a shared (broadcast) matrix does not sum that matrix's gradient over the batch"),
    _t("grad-avg-pool-full-window", "denominator", "simdist/runtime/ops/pooling.py",
       "    per = g / _valid_counts(orig_input_shape, ksize, strides, out_hw, pads).astype(g.dtype)",
       "    per = g / g.dtype.type(ksize[1] * ksize[2])",
       "avg_pool's gradient divides by the whole window at SAME-padded edges, where the forward pass counted "
       "only the valid entries"),
    _t("grad-slice-pads-swapped", "gradient", "simdist/runtime/ops/slicing.py",
       "    return [pad(grad, [[b, d - s - b] for b, s, d in zip(begin, size, shp)])]",
       "    return [pad(grad, [[d - s - b, b] for b, s, d in zip(begin, size, shp)])]",
       "tf.slice's gradient pads the before and after sides the wrong way round"),
    # the tape
    _t("tape-output-gradients-ignored", "gradient", BP,
       "        g = None if output_gradients is None or n >= len(output_gradients) else output_gradients[n]\n",
       "        g = None\n",
       "tape.gradient(output_gradients=...) seeds the targets with ones instead of the given weights"),
    _t("tape-watches-non-trainable-variables", "state", TP,
       "        if self.watch_accessed and getattr(owner, \"trainable\", True):\n",
       "        if self.watch_accessed:\n",
       "the tape watches non-trainable variables it reads (TF gives them no gradient: None)"),
    _t("tape-stop-recording-still-records", "state", TP,
       "        self._pop_tape()\n        try:\n            yield\n        finally:\n            self._push_tape()\n",
       "        yield\n",
       "ops inside tape.stop_recording() are still recorded"),
    # optimizers
    _t("adam-amsgrad-uses-current-velocity", "formula", "simdist/keras/optimizers/adam.py",
       "            self.assign(v_hat, ops.maximum(v_hat, v))\n            v = v_hat\n",
       "            self.assign(v_hat, ops.maximum(v_hat, v))\n",
       "Adam(amsgrad=True) keeps the running maximum of v but divides by the current v"),
    _t("loss-scale-factor-multiplies", "formula", BO,
       "grads = [g if g is None else ops.divide(g, self.loss_scale_factor) for g in grads]",
       "grads = [g if g is None else ops.multiply(g, self.loss_scale_factor) for g in grads]",
       "loss_scale_factor multiplies the gradients again instead of unscaling them"),
    _t("lr-schedule-one-step-ahead", "boundary", BO,
       "            return self._learning_rate(self._iterations)\n",
       "            return self._learning_rate(self._iterations + 1)\n",
       "a LearningRateSchedule is asked for step iterations + 1 (steps counted from 1)"),
    _t("weight-decay-exclusions-ignored", "state", BO,
       "                if self._use_weight_decay(variable):\n",
       "                if True:\n",
       "exclude_from_weight_decay is ignored: every variable decays"),
    # losses
    _t("loss-mask-mean-over-all-entries", "denominator", KLL,
       "    if reduction in (\"mean\", \"sum_over_batch_size\"):\n        total = ops.prod_of_shape(mask, dtype)",
       "    if False:\n        total = ops.prod_of_shape(mask, dtype)",
       "a masked loss (ignore_class, a Keras mask) averages over every entry instead of the valid ones"),
    _t("loss-softmax-logits-shortcut-ignored", "formula", KNN,
       "        output_ = output._keras_logits\n        from_logits_ = True\n",
       "        output_ = output\n        from_logits_ = from_logits\n",
       "a cross-entropy of a softmax/sigmoid layer's output uses the clipped probabilities, not the layer's "
       "logits (Keras's _keras_logits shortcut)"),
    # metrics, fit
    _t("binary-accuracy-threshold-inclusive", "boundary", "simdist/keras/metrics/accuracy_metrics.py",
       "y_pred = ops.cast(tf.greater(ops.cast(y_pred, dt), ops.cast(threshold, dt)), y_true.dtype)",
       "y_pred = ops.cast(tf.greater_equal(ops.cast(y_pred, dt), ops.cast(threshold, dt)), y_true.dtype)",
       "BinaryAccuracy counts a prediction equal to the threshold as positive"),
    _t("fit-metrics-not-reset-per-epoch", "state", "simdist/keras/trainers/trainer.py",
       "            self.reset_metrics()\n            callbacks.on_epoch_begin(epoch)\n",
       "            callbacks.on_epoch_begin(epoch)\n",
       "fit does not reset the metrics at each epoch: epoch 2's loss and metrics average over epochs 1 and 2"),
    # checkpoints
    _t("checkpoint-deferred-restore-skips-first", "boundary", CK,
       "            if rest.isdigit() and int(rest) >= have:\n",
       "            if rest.isdigit() and int(rest) > have:\n",
       "a Checkpoint restored before the optimizer's first step loses the value of the first slot it creates"),
    _t("backup-restore-repeats-last-epoch", "boundary", "simdist/keras/callbacks/backup_and_restore.py",
       "        self._current_epoch = epoch + 1\n", "        self._current_epoch = epoch\n",
       "BackupAndRestore records the epoch index, not the number of finished epochs: a resumed fit repeats one"),
    # random ops under tf.function
    _t("random-uniform-not-stateful", "state", RA,
       "UNIFORM = register(\"RandomUniform\", _uniform, lambda dts, a: a[\"dtype\"], stateful=True, kind=\"random\")",
       "UNIFORM = register(\"RandomUniform\", _uniform, lambda dts, a: a[\"dtype\"], stateful=False, kind=\"random\")",
       "tf.random.uniform is registered as a pure op, so a traced function may fold or replay its first draw"),
    _t("set-seed-keeps-op-seed-streams", "state", RA,
       "    _state[\"philox\"] = {}     # TF clears its kernel cache: every Philox kernel stream restarts\n",
       "",
       "tf.random.set_seed restarts the global stream but not the op-seeded ones"),
    # replica gradient all-reduce, MultiWorkerMirroredStrategy collectives
    _t("clip-after-all-reduce", "order", BO,
       "            grads = self._clip_gradients(grads)\n            self._apply_weight_decay(trainable_variables)\n"
       "            self._backend_update_step(grads, trainable_variables, self.learning_rate)\n",
       "            self._apply_weight_decay(trainable_variables)\n"
       "            from simdist.keras.optimizers._distribute import all_reduce_sum as _ars\n"
       "            pairs = _ars(list(zip(grads, [unwrap(v) for v in trainable_variables])))\n"
       "            grads = self._clip_gradients([g for g, _ in pairs])\n"
       "            maybe_merge_call(self._distributed_update_step, self._distribution_strategy,\n"
       "                             list(zip(grads, [v for _, v in pairs])), self.learning_rate)\n",
       "clipnorm/clipvalue clip the all-reduced (summed) gradient instead of each replica's before the all-reduce"),
    _t("mwms-initial-values-not-broadcast", "state", "simdist/strategies/multi_worker.py",
       "        if self._num_workers > 1:\n", "        if False:\n",
       "MultiWorkerMirroredStrategy keeps each worker's own initial value instead of broadcasting worker 0's"),
]

CATALOGUE += TRAINING


# -- a fourth blind batch of training mutants (2026-11-29, fifth session), written from the source before
# looking for the tests that would catch them (docs/conformance.md) ------------------------------------------
NO = "simdist/keras/layers/normalization.py"
RC = "simdist/keras/layers/rnn_cells.py"
RMS = "simdist/keras/optimizers/rmsprop.py"
SCH = "simdist/keras/optimizers/schedules.py"
CB = "simdist/keras/callbacks/"
TR = "simdist/keras/trainers/trainer.py"

TRAINING_BATCH4: list[Mutant] = [
    # layers
    _t("bn-moving-stats-momentum-swapped", "formula", NO,
       "                self.moving_mean.assign(moving_mean * self.momentum + mean * (1.0 - self.momentum))\n"
       "                self.moving_variance.assign(moving_variance * self.momentum + variance * (1.0 - self.momentum))\n",
       "                self.moving_mean.assign(moving_mean * (1.0 - self.momentum) + mean * self.momentum)\n"
       "                self.moving_variance.assign(moving_variance * (1.0 - self.momentum) + variance * self.momentum)\n",
       "BatchNormalization's moving statistics keep (1 - momentum) of the old value instead of momentum"),
    _t("bn-inference-uses-batch-statistics", "state", NO,
       "        if training and self.trainable:\n", "        if self.trainable:\n",
       "BatchNormalization normalises by the batch's statistics in inference too (training=False)"),
    _t("layernorm-epsilon-outside-sqrt", "formula", NO,
       "    inv = tf.math.rsqrt(variance + epsilon)\n", "    inv = 1.0 / (tf.sqrt(variance) + epsilon)\n",
       "LayerNormalization adds epsilon to the standard deviation instead of the variance"),
    _t("dropout-no-rescale", "formula", "simdist/runtime/ops/nn.py",
       "        ret = math.multiply(x, convert_to_tensor(1 / (1 - rate), dtype=x.dtype))\n",
       "        ret = x\n",
       "dropout with a Python rate keeps the surviving values unscaled (no 1 / (1 - rate))"),
    _t("scatter-duplicate-rows-overwrite", "gradient", "simdist/runtime/variables.py",
       "        _SCATTER_UFUNCS[op].at(arr, key, upd)\n",
       "        arr[key] = _SCATTER_UFUNCS[op](arr[key], upd)\n",
       "a sparse update (an Embedding's IndexedSlices gradient) with a repeated row applies only the last "
       "of its updates"),
    _t("lstm-forget-bias-on-input-gate", "formula", RC,
       "                return tf.concat([base((units,), *args, **kwargs), initializers.get(\"ones\")((units,), *args, **kwargs),\n"
       "                                  base((units * 2,), *args, **kwargs)], axis=0)",
       "                return tf.concat([initializers.get(\"ones\")((units,), *args, **kwargs), base((units,), *args, **kwargs),\n"
       "                                  base((units * 2,), *args, **kwargs)], axis=0)",
       "LSTM's unit_forget_bias puts the ones on the input gate's bias (the first block) instead of the forget gate's"),
    _t("gru-update-gate-swapped", "formula", RC,
       "        h = z * h_tm1 + (1 - z) * hh\n", "        h = (1 - z) * h_tm1 + z * hh\n",
       "GRU mixes the old state by (1 - z) and the candidate by z (the other paper convention), not Keras's"),
    _t("rnn-mask-updates-state", "state", "simdist/keras/layers/rnn_loop.py",
       "            new_states = [tf.where(step_masks.at(t, s), s, ps) for s, ps in zip(new_states, states)]\n",
       "",
       "a masked time step still updates the RNN's state (only its output is held)"),
    _t("conv-input-grad-ignores-dilation", "gradient", "simdist/runtime/ops/conv.py",
       "        r0 = i * dilations[0]\n", "        r0 = i\n",
       "the input gradient of a dilated convolution scatters the kernel rows as if undilated"),
    _t("mha-causal-mask-transposed", "boundary", "simdist/keras/layers/attention.py",
       "                band = tf.greater_equal(tf.reshape(tf.range(t), (t, 1)), tf.reshape(tf.range(s), (1, s)))",
       "                band = tf.less_equal(tf.reshape(tf.range(t), (t, 1)), tf.reshape(tf.range(s), (1, s)))",
       "MultiHeadAttention(use_causal_mask=True) lets each query see the future keys instead of the past ones"),
    # optimizers, schedules
    _t("rmsprop-centered-adds-mean-square", "formula", RMS,
       "            denominator = velocity - ops.square(average_grad) + self.epsilon\n",
       "            denominator = velocity + ops.square(average_grad) + self.epsilon\n",
       "RMSprop(centered=True) adds the squared mean gradient instead of subtracting it"),
    _t("rmsprop-momentum-damped", "formula", RMS,
       "            self.assign(momentum, ops.add(ops.multiply(self.momentum, momentum), increment))\n",
       "            self.assign(momentum, ops.add(ops.multiply(self.momentum, momentum), "
       "ops.multiply(1 - self.momentum, increment)))\n",
       "RMSprop's momentum is an exponential average (increment damped by 1 - momentum), not Keras's sum"),
    _t("exp-decay-staircase-ignored", "formula", SCH,
       "        if self.staircase:\n            p = ops.floor(p)\n"
       "        return ops.multiply(initial_learning_rate, ops.power(decay_rate, p))\n",
       "        if False:\n            p = ops.floor(p)\n"
       "        return ops.multiply(initial_learning_rate, ops.power(decay_rate, p))\n",
       "ExponentialDecay(staircase=True) decays continuously"),
    _t("nadam-u-product-frozen", "formula", "simdist/keras/optimizers/nadam.py",
       "        self.assign(self._u_product, self._u_product * self.beta_1 * (1.0 - 0.5 * decay))\n",
       "",
       "Nadam never advances its u_product (the product of the momentum schedule) before the update"),
    _t("constraint-not-applied", "order", BO,
       "                    variable.assign(constraint(variable))\n",
       "                    pass\n",
       "the optimizer never applies a variable's constraint after the update"),
    _t("piecewise-boundary-exclusive", "boundary", SCH,
       "        result += ops.cast(step <= boundaries[0], result_dtype) * values[0]\n"
       "        result += ops.cast(step > boundaries[-1], result_dtype) * values[-1]\n"
       "        for low, high, value in zip(boundaries[:-1], boundaries[1:], values[1:-1]):\n"
       "            in_range = ops.cast(tf.logical_and(step > low, step <= high), result_dtype)\n",
       "        result += ops.cast(step < boundaries[0], result_dtype) * values[0]\n"
       "        result += ops.cast(step >= boundaries[-1], result_dtype) * values[-1]\n"
       "        for low, high, value in zip(boundaries[:-1], boundaries[1:], values[1:-1]):\n"
       "            in_range = ops.cast(tf.logical_and(step >= low, step < high), result_dtype)\n",
       "PiecewiseConstantDecay switches value at step == boundary instead of after it"),
    _t("lso-growth-one-step-late", "boundary", "simdist/keras/optimizers/loss_scale_optimizer.py",
       "        if int(self.step_counter.numpy()) == self.dynamic_growth_steps - 1:\n",
       "        if int(self.step_counter.numpy()) == self.dynamic_growth_steps:\n",
       "LossScaleOptimizer doubles its scale after dynamic_growth_steps + 1 finite steps"),
    _t("sgd-config-drops-nesterov", "state", "simdist/keras/optimizers/sgd.py",
       "        config.update({\"momentum\": self.momentum, \"nesterov\": self.nesterov})\n",
       "        config.update({\"momentum\": self.momentum})\n",
       "SGD.get_config forgets nesterov: a saved and reloaded (or cloned) optimizer takes plain momentum steps"),
    # losses, metrics
    _t("weighted-xent-pos-weight-on-negatives", "formula", LO,
       "    log_weight = 1 + (pos_weight - 1) * labels_t\n",
       "    log_weight = 1 + (pos_weight - 1) * (1 - labels_t)\n",
       "weighted_cross_entropy_with_logits weights the negative examples by pos_weight"),
    _t("fbeta-beta-not-squared", "formula", "simdist/keras/metrics/f_score_metrics.py",
       "((self.beta ** 2) * precision) + recall + eps)", "(self.beta * precision) + recall + eps)",
       "FBetaScore weights the precision by beta instead of beta squared in the denominator"),
    _t("additional-loss-not-scaled-per-replica", "denominator", TR,
       "        return scale_loss_for_distribution(tf.reduce_sum(loss))\n",
       "        return tf.reduce_sum(loss)\n",
       "add_loss / regularization losses are not divided by num_replicas_in_sync (R times too strong when summed)"),
    # fit / evaluate / callbacks
    _t("evaluate-in-training-mode", "state", TR,
       "        y_pred = self._call_model(x, training=False)\n        loss = self._compute_loss(",
       "        y_pred = self._call_model(x, training=True)\n        loss = self._compute_loss(",
       "evaluate (test_step) calls the model with training=True (Dropout drops, BatchNorm uses batch stats)"),
    _t("monitor-min-delta-sign-kept", "boundary", CB + "monitor_callback.py",
       "        if self.monitor_op is ops.less:\n            self.min_delta *= -1\n", "",
       "a minimised monitor's min_delta is not negated: any value below best + min_delta counts as improvement"),
    _t("early-stopping-restores-first-weights", "state", CB + "early_stopping.py",
       "            self.best_epoch = epoch\n            if self.restore_best_weights:\n"
       "                self.best_weights = self.model.get_weights()\n",
       "            self.best_epoch = epoch\n",
       "EarlyStopping(restore_best_weights=True) restores the first epoch's weights, not the best epoch's"),
    _t("checkpoint-best-never-recorded", "state", CB + "model_checkpoint.py",
       "            self.best = current\n            return True\n", "            return True\n",
       "ModelCheckpoint(save_best_only=True) never records the best value, so it saves every epoch"),
    _t("reduce-lr-wait-not-reset", "state", CB + "reduce_lr_on_plateau.py",
       "                    self.cooldown_counter = self.cooldown\n                    self.wait = 0\n",
       "                    self.cooldown_counter = self.cooldown\n",
       "ReduceLROnPlateau does not reset its wait after a reduction: it reduces again every epoch"),
    # random ops
    _t("op-seed-ignores-global-seed", "state", "simdist/runtime/ops/random_gamma.py",
       "        seeds = (int(g) % _MAXINT32, s % _MAXINT32)\n",
       "        seeds = (_DEFAULT_GRAPH_SEED, s % _MAXINT32)\n",
       "a random op with an op seed draws the same values whatever tf.random.set_seed was given"),
]
TRAINING += TRAINING_BATCH4
CATALOGUE += TRAINING_BATCH4


# -- after the fourth blind batch: the same areas' neighbours, written from the source to see whether the
# gap classes it revealed were closed (run with --only against the suite with the new tests) -------------
TRAINING_AFTER4: list[Mutant] = [
    _t("bce-probabilities-not-clipped", "boundary", KNN,
       "    output = tf.clip_by_value(\n        output, backend.epsilon(), 1.0 - backend.epsilon()\n    )\n    bce = target",
       "    bce = target",
       "binary_crossentropy of probabilities 0 or 1 takes log(0) (inf/NaN) instead of clipping to [eps, 1 - eps]"),
    _t("precision-threshold-inclusive", "boundary", "simdist/keras/metrics/metrics_utils.py",
       "    pred_is_pos = tf.greater(preds_tiled, thresh_tiled)\n",
       "    pred_is_pos = tf.greater_equal(preds_tiled, thresh_tiled)\n",
       "Precision/Recall/AUC count a prediction equal to a threshold as positive"),
    _t("truncated-normal-three-sigma", "boundary", "simdist/runtime/ops/philox_dists.py",
       "ok = (np.abs(f) < 2.0)", "ok = (np.abs(f) < 3.0)",
       "truncated_normal keeps draws up to three standard deviations instead of two"),
    _t("stateless-seed-first-element-only", "state", "simdist/runtime/ops/philox.py",
       "    s0, s1 = (int(v) & _U64 for v in np.asarray(seed).reshape(-1)[:2])\n",
       "    s0 = s1 = int(np.asarray(seed).reshape(-1)[0]) & _U64\n",
       "stateless random ops key their stream by the first seed element only"),
    _t("loss-tracker-unweighted-batches", "denominator", TR,
       "training=True)\n            self._loss_tracker.update_state(unscale_loss_for_distribution(loss),\n"
       "                                            sample_weight=tf.shape(_first_leaf(x))[0])\n",
       "training=True)\n            self._loss_tracker.update_state(unscale_loss_for_distribution(loss))\n",
       "fit's logged loss averages the batch losses unweighted (a partial last batch counts as a full one)"),
    _t("validation-freq-zero-based", "boundary", TR,
       "        epoch = epoch + 1\n        if isinstance(validation_freq, int):\n",
       "        if isinstance(validation_freq, int):\n",
       "validation_freq counts epochs from 0: validation_freq=2 validates after epochs 1, 3, ... instead of 2, 4"),
    _t("activity-regularizer-not-per-sample", "denominator", "simdist/keras/layers/layer.py",
       "                            if len(output.shape) > 0:\n"
       "                                loss = tf.math.divide_no_nan(loss, tf.cast(tf.shape(output)[0], loss.dtype))\n",
       "",
       "an activity regularizer's penalty is not divided by the batch size"),
    _t("mha-scale-by-key-dim", "formula", "simdist/keras/layers/attention.py",
       "        self._inverse_sqrt_key_dim = 1.0 / math.sqrt(float(self._key_dim))\n",
       "        self._inverse_sqrt_key_dim = 1.0 / float(self._key_dim)\n",
       "MultiHeadAttention scales the logits by 1/key_dim instead of 1/sqrt(key_dim)"),
    _t("checkpoint-save-freq-one-late", "boundary", CB + "model_checkpoint.py",
       "        if self._batches_seen_since_last_saving >= self.save_freq:\n",
       "        if self._batches_seen_since_last_saving > self.save_freq:\n",
       "ModelCheckpoint with an integer save_freq saves one batch late"),
]
TRAINING += TRAINING_AFTER4
CATALOGUE += TRAINING_AFTER4


# -- the fifth blind batch (2026-11-29, sixth session): written from the source alone, before looking
# for any test that would catch them, in areas the earlier batches did not hit the same way ----------------
KMP = "simdist/keras/optimizers/"
TRAINING_BATCH5: list[Mutant] = [
    # gradient rules of ops
    _t("grad-relu6-passes-saturated", "boundary", AC,
       'lambda g, y: g * ((y > 0) & (y < 6))', 'lambda g, y: g * ((y > 0) & (y <= 6))',
       "relu6's gradient passes through where the output is saturated at 6 (x >= 6 gets gradient 1)"),
    _t("grad-prod-left-product-inclusive", "gradient", "simdist/runtime/ops/reductions.py",
       "    left = cumprod(reshaped, axis=0, exclusive=True)\n",
       "    left = cumprod(reshaped, axis=0, exclusive=False)\n",
       "reduce_prod's gradient multiplies in the entry itself from the left (inclusive cumprod): x_i * prod(others)"),
    _t("grad-cumprod-same-direction", "gradient", "simdist/runtime/ops/reductions.py",
       "    out = cumsum(math.multiply(prod, grad), axis, exclusive=exclusive, reverse=not reverse)\n",
       "    out = cumsum(math.multiply(prod, grad), axis, exclusive=exclusive, reverse=reverse)\n",
       "cumprod's gradient accumulates the upstream gradient in the forward direction instead of the reverse one"),
    _t("grad-pad-uses-after-padding", "gradient", "simdist/runtime/ops/slicing.py",
       '    begin = [lo for lo, _ in op.get_attr("paddings")]\n',
       '    begin = [hi for _, hi in op.get_attr("paddings")]\n',
       "tf.pad's gradient slices the input's window at the after-padding offsets instead of the before ones"),
    _t("grad-roll-shift-not-negated", "gradient", "simdist/runtime/ops/array_more.py",
       '{"shift": tuple(-s for s in op.get_attr("shift")),',
       '{"shift": tuple(s for s in op.get_attr("shift")),',
       "tf.roll's gradient rolls the upstream gradient by the same shift instead of rolling it back"),
    _t("grad-segment-mean-as-sum", "denominator", "simdist/runtime/ops/segments.py",
       "    return [array.gather(math.divide(grad, scatter.segment_sum(ones, ids)), ids), None]\n",
       "    return [array.gather(grad, ids), None]\n",
       "segment_mean's gradient is segment_sum's: not divided by the segment sizes"),
    _t("grad-top-k-no-row-offsets", "gradient", "simdist/runtime/ops/sorting.py",
       "    flat = array.reshape(math.add(ind_2d, offsets), [-1])\n",
       "    flat = array.reshape(ind_2d, [-1])\n",
       "top_k's gradient scatters every row's values into the first row (the per-row offsets forgotten)"),
    # tf.nn
    _t("nn-batch-norm-shift-unscaled", "formula", "simdist/runtime/ops/normalization.py",
       "    inv = unary.rsqrt(variance + variance_epsilon)\n    if scale is not None:\n        inv = inv * scale\n"
       "    a = math.cast(inv, raw_attribute(x, \"dtype\"))\n    xa = x * a\n"
       "    b = math.cast((offset - mean * inv) if offset is not None else -mean * inv, raw_attribute(x, \"dtype\"))\n",
       "    inv = unary.rsqrt(variance + variance_epsilon)\n    unscaled = inv\n    if scale is not None:\n"
       "        inv = inv * scale\n    a = math.cast(inv, raw_attribute(x, \"dtype\"))\n    xa = x * a\n"
       "    b = math.cast((offset - mean * unscaled) if offset is not None else -mean * unscaled, "
       "raw_attribute(x, \"dtype\"))\n",
       "tf.nn.batch_normalization subtracts mean / sqrt(var + eps) without the scale (shift computed before scaling)"),
    # (fz45: embedding_lookup's max_norm is clip_by_norm's, as TF's embedding_ops._clip: the mutant follows the code)
    _t("nn-embedding-max-norm-squared", "formula", "simdist/runtime/ops/clip.py",
       "    values_clip = array.identity(math.truediv(intermediate, math.maximum(l2norm, clip_norm)))\n",
       "    values_clip = array.identity(math.truediv(intermediate, math.maximum(l2sum, clip_norm)))\n",
       "embedding_lookup's max_norm (clip_by_norm) clips by the squared L2 norm instead of the norm"),
    # the tape
    _t("tape-batch-jacobian-not-transposed", "axis", TP,
       "        out = array.transpose(out, [1, 0, 2])\n",
       "        out = array.transpose(out, [0, 1, 2])\n",
       "batch_jacobian returns its [row, batch] columns without moving the batch axis first"),
    # Keras layers
    _t("bidirectional-backward-not-reversed", "order", "simdist/keras/layers/bidirectional.py",
       "        if self.return_sequences:\n            y_rev = tf.reverse(y_rev, [1])\n",
       "",
       "Bidirectional with return_sequences merges the backward layer's outputs in reversed time order"),
    _t("gap1d-mask-mean-over-all-steps", "denominator", "simdist/keras/layers/global_pooling1d.py",
       "                    / tf.reduce_sum(float_mask, axis=steps_axis, keepdims=self.keepdims))\n",
       "                    / tf.cast(tf.shape(inputs)[steps_axis], inputs.dtype))\n",
       "GlobalAveragePooling1D with a mask divides the masked sum by every step, not by the unmasked ones"),
    _t("conv1d-causal-pad-ignores-dilation", "boundary", "simdist/keras/layers/convolutional.py",
       "        left_pad = self.dilation_rate[0] * (self.kernel_size[0] - 1)\n",
       "        left_pad = self.kernel_size[0] - 1\n",
       "Conv1D(padding='causal') pads kernel_size - 1 steps, ignoring the dilation rate"),
    # losses
    _t("scce-ignore-class-mask-dropped", "denominator", KL,
       "        set_keras_mask(res, valid_mask)\n", "",
       "SparseCategoricalCrossentropy(ignore_class=...) zeroes the ignored entries but still averages over them"),
    # metrics
    _t("in-top-k-ties-count-against-target", "boundary", "simdist/keras/metrics/accuracy_metrics.py",
       "    above = ops.sum(ops.cast(tf.greater(predictions, tf.expand_dims(target_score, -1)), tf.int32), axis=-1)\n",
       "    above = ops.sum(ops.cast(tf.greater_equal(predictions, tf.expand_dims(target_score, -1)), tf.int32), "
       "axis=-1)\n",
       "top-k accuracy counts the target itself (and its ties) as scoring above it: k behaves as k - 1"),
    _t("pearson-centres-pred-with-true-mean", "formula", "simdist/keras/metrics/correlation_metrics.py",
       "    p = y_pred - ops.mean(y_pred, axis=axis, keepdims=True)\n    t = t / ",
       "    p = y_pred - ops.mean(y_true, axis=axis, keepdims=True)\n    t = t / ",
       "pearson_correlation centres the predictions with the targets' mean",
       unobservable="equivalent: the standardised predictions divide by their own std, which a shift leaves "
                    "alone, and the shift (mean(y_pred) - mean(y_true)) / std multiplies mean(z(y_true)) = 0, so "
                    "the correlation is unchanged up to rounding (survived the blind run, 2026-11-29)"),
    # optimizers
    _t("adam-epsilon-inside-sqrt", "formula", KMP + "adam.py",
       "ops.add(ops.sqrt(v), self.epsilon)", "ops.sqrt(ops.add(v, self.epsilon))",
       "Adam divides by sqrt(v + epsilon) instead of sqrt(v) + epsilon"),
    _t("ema-overwrite-one-step-early", "boundary", BO,
       "                overwrite = tf.equal(tf.math.floormod(_read(self.iterations) + 1,\n",
       "                overwrite = tf.equal(tf.math.floormod(_read(self.iterations),\n",
       "use_ema with ema_overwrite_frequency overwrites the variables one step early (iterations, not iterations + 1)"),
    _t("grad-accumulators-not-reset", "state", BO,
       "                for a in self._accumulated_gradients:\n                    if a is not None:\n"
       "                        unwrap(a).assign(tf.zeros_like(_read(a)))\n",
       "",
       "gradient_accumulation_steps: the accumulators are not reset after an update step"),
    # mixed precision
    _t("mixed-bfloat16-variables-bfloat16", "dtype", "simdist/keras/dtype_policies.py",
       '        if name == "mixed_bfloat16":\n            return "bfloat16", "float32"\n',
       '        if name == "mixed_bfloat16":\n            return "bfloat16", "bfloat16"\n',
       "the mixed_bfloat16 policy keeps its variables in bfloat16 instead of float32"),
    _t("lso-nonfinite-keeps-counter", "state", KMP + "loss_scale_optimizer.py",
       "    def _stateful_handle_non_finite_grads(self) -> None:\n        self.step_counter.assign(0)\n",
       "    def _stateful_handle_non_finite_grads(self) -> None:\n",
       "LossScaleOptimizer: a non-finite step halves the scale but does not reset the growth counter"),
    # callbacks
    _t("early-stopping-start-from-epoch-inclusive", "boundary", CB + "early_stopping.py",
       "        if current is None or epoch < self.start_from_epoch:\n",
       "        if current is None or epoch <= self.start_from_epoch:\n",
       "EarlyStopping(start_from_epoch=n) also ignores epoch n (one epoch too many)"),
    # fit / evaluate loop
    _t("fit-initial-epoch-shifts-end", "boundary", TR,
       "        for epoch in range(initial_epoch, epochs):\n",
       "        for epoch in range(initial_epoch, initial_epoch + epochs):\n",
       "fit(initial_epoch=k, epochs=n) runs n more epochs instead of stopping at epoch index n"),
    _t("evaluate-metrics-not-reset", "state", TR,
       "        logs: Any = {}\n        self.reset_metrics()\n        static = epoch_iterator.traced_static_batch(",
       "        logs: Any = {}\n        static = epoch_iterator.traced_static_batch(",
       "evaluate does not reset the metrics first: a fit's or earlier evaluate's state leaks into the result"),
    _t("steps-batch-size-floor", "boundary", "simdist/keras/trainers/data_adapter.py",
       "            batch_size = int(math.ceil(num_samples / steps)) if steps else 32\n",
       "            batch_size = int(num_samples // steps) if steps else 32\n",
       "arrays with steps_per_epoch and no batch_size: the batch size is rounded down, so steps batches miss samples"),
    # checkpoints
    _t("checkpoint-save-numbered-from-zero", "boundary", CK,
       '        self._counter += 1\n        path = self._write(f"{file_prefix}-{self._counter}")\n',
       '        path = self._write(f"{file_prefix}-{self._counter}")\n        self._counter += 1\n',
       "Checkpoint.save numbers its files from 0 (ckpt-0) and save_counter runs one ahead of the file"),
    # random ops and initializers
    _t("variance-scaling-truncated-no-correction", "formula", "simdist/keras/initializers.py",
       "            stddev = math.sqrt(scale) / 0.87962566103423978\n",
       "            stddev = math.sqrt(scale)\n",
       "VarianceScaling's truncated normal (Glorot/He/LeCun normal) lacks the 1/.8796 truncation correction"),
    _t("random-uniform-int-maxval-inclusive", "boundary", "simdist/runtime/ops/philox_dists.py",
       "np.uint64((hi - lo) &", "np.uint64((hi - lo + 1) &",
       "integer tf.random.uniform draws from [minval, maxval] instead of [minval, maxval)", count=2),
    # replica gradient aggregation, multi-worker training
    _t("all-reduce-sum-index-not-advanced", "order", "simdist/keras/optimizers/_distribute.py",
       "            out.append((reduced[pos], v))\n            pos += 1\n",
       "            out.append((reduced[pos], v))\n",
       "Keras's all-reduced gradients: every variable gets the first variable's summed gradient"),
    _t("mwms-all-reduce-local-worker-only", "placement", "simdist/strategies/multi_worker.py",
       "        def combine(per_worker: list[list[list[Any]]]) -> list[Any]:\n"
       "            flat = [rep for w in per_worker for rep in w]\n            out = []\n"
       "            for k in range(len(leaves)):\n                comps = [p[k] for p in flat]\n",
       "        def combine(per_worker: list[list[list[Any]]]) -> list[Any]:\n"
       "            flat = list(per_worker[0])\n            out = []\n"
       "            for k in range(len(leaves)):\n                comps = [p[k] for p in flat]\n",
       "MultiWorkerMirrored all_reduce combines only the first worker's replicas (the other workers' gradients lost)"),
]
TRAINING += TRAINING_BATCH5
CATALOGUE += TRAINING_BATCH5


# -- the sixth blind batch (2026-11-30, seventh session): written from the source alone, before looking
# for any test that would catch them, in files the catalogue had no or few mutants in ------------------------
KLY = "simdist/keras/layers/"
KMT = "simdist/keras/metrics/"
TRAINING_BATCH6: list[Mutant] = [
    # gradient rules of ops
    _t("grad-acos-sign-dropped", "gradient", "simdist/runtime/ops/special.py",
       "    return [-grad * reciprocal(sqrt(one - square(_conj(x))))]\n",
       "    return [grad * reciprocal(sqrt(one - square(_conj(x))))]\n",
       "acos's gradient copied from asin: -1/sqrt(1 - x^2) loses its sign"),
    _t("grad-squared-difference-y-not-negated", "gradient", MA,
       "    return [unbroadcast(x_grad, sx), unbroadcast(negative(x_grad), sy)]\n",
       "    return [unbroadcast(x_grad, sx), unbroadcast(x_grad, sy)]\n",
       "squared_difference's y-gradient is x's, not its negation"),
    _t("grad-tensor-scatter-update-not-zeroed", "gradient", "simdist/runtime/ops/scatter.py",
       "    tensor_grad = tensor_scatter_nd_update(array.identity(grad), indices, array.zeros_like(op.inputs[2]))\n",
       "    tensor_grad = array.identity(grad)\n",
       "tensor_scatter_nd_update's tensor gradient passes through the overwritten entries (not zeroed)"),
    _t("grad-resize-bilinear-lerp-swapped", "gradient", "simdist/runtime/ops/resize.py",
       "    gy = [g * iy_[None, :, None, None], g * ylerp[None, :, None, None]]\n",
       "    gy = [g * ylerp[None, :, None, None], g * iy_[None, :, None, None]]\n",
       "the bilinear resize gradient gives the top row the bottom row's interpolation weight"),
    _t("grad-silu-ignores-beta", "gradient", AC,
       "            activation_grad = s * (1.0 + (beta * features) * (1.0 - s))\n",
       "            activation_grad = s * (1.0 + features * (1.0 - s))\n",
       "silu/swish's input gradient forgets beta inside the derivative (right only for beta = 1)"),
    # tf.nn / tf.clip
    _t("clip-by-norm-axes-ignored", "axis", "simdist/runtime/ops/clip.py",
       "    l2sum = math.reduce_sum(math.multiply(values, values), axes, keepdims=True)\n",
       "    l2sum = math.reduce_sum(math.multiply(values, values), None, keepdims=True)\n",
       "clip_by_norm(t, c, axes=...) clips by the norm of the whole tensor, ignoring axes"),
    _t("nn-weighted-moments-unweighted-variance", "formula", "simdist/runtime/ops/nn_more.py",
       "    weighted_distsq = math.reduce_sum(w * math.squared_difference(xt, weighted_mean), axes, keepdims=True)\n",
       "    weighted_distsq = math.reduce_sum(math.squared_difference(xt, weighted_mean), axes, keepdims=True)\n",
       "tf.nn.weighted_moments sums the squared deviations without their frequency weights"),
    # Keras layers' options
    _t("zero-padding2d-rows-cols-swapped", "axis", KLY + "upsampling_padding.py",
       "        return _pad(inputs, [(0, 0), *self.padding, (0, 0)])\n",
       "        return _pad(inputs, [(0, 0), self.padding[1], self.padding[0], (0, 0)])\n",
       "ZeroPadding2D (channels_last) pads the rows with the columns' widths and the reverse"),
    _t("global-pool2d-channels-first-axes", "axis", KLY + "pooling.py",
       "        return list(range(1, 1 + nsp)) if self.data_format == \"channels_last\" else list(range(2, 2 + nsp))\n",
       "        return list(range(1, 1 + nsp))\n",
       "global 2-D pooling reduces axes 1..n for channels_first too (the channel axis among them)"),
    _t("average-merge-divides-by-two", "denominator", KLY + "merging.py",
       "        return tf.divide(out, tf.cast(len(inputs), out.dtype))\n",
       "        return tf.divide(out, tf.cast(2, out.dtype))\n",
       "keras.layers.Average divides the sum by 2 whatever the number of inputs"),
    _t("masking-any-feature-equal-masks", "boundary", KLY + "masking.py",
       "    return tf.reduce_any(tf.not_equal(inputs, tf.cast(mask_value, inputs.dtype)), axis=-1, keepdims=keepdims)\n",
       "    return tf.reduce_all(tf.not_equal(inputs, tf.cast(mask_value, inputs.dtype)), axis=-1, keepdims=keepdims)\n",
       "Masking masks a step when any feature equals mask_value (not only when all do)"),
    _t("relu-leaky-part-ignores-threshold", "formula", "simdist/keras/activations.py",
       "        negative_part: Any = tf.nn.relu(-x + threshold) if threshold != 0 else tf.nn.relu(-x)\n",
       "        negative_part: Any = tf.nn.relu(-x)\n",
       "keras relu/ReLU with negative_slope and threshold: the leaky part measured from 0, not from the threshold"),
    _t("rnn-zero-output-for-mask-ignored", "state", "simdist/keras/layers/rnn_loop.py",
       "            if prev_output is None or zero_output_for_mask:\n",
       "            if prev_output is None:\n",
       "RNN(zero_output_for_mask=True) repeats the previous output at masked steps instead of zeros"),
    _t("layer-autocast-false-ignored", "dtype", "simdist/keras/layers/layer.py",
       "                    if not self.autocast or not dtype_policies.is_float_dtype(self.compute_dtype):\n",
       "                    if not dtype_policies.is_float_dtype(self.compute_dtype):\n",
       "a nested layer with autocast=False still autocasts its variables inside its parent's mixed-precision scope"),
    _t("seed-generator-not-advanced", "state", "simdist/keras/random.py",
       "            self.state.assign(value + tf.constant([0, 1], dtype=tf.int64))\n",
       "            self.state.assign(value + tf.constant([0, 0], dtype=tf.int64))\n",
       "a SeedGenerator hands out the same seed every call (Dropout draws the same mask each step)"),
    # losses
    _t("bce-axis-ignored", "axis", KL,
       "    return ops.mean(nn_ops().binary_crossentropy(y_true, y_pred, from_logits=from_logits), axis=axis)\n",
       "    return ops.mean(nn_ops().binary_crossentropy(y_true, y_pred, from_logits=from_logits), axis=-1)\n",
       "binary_crossentropy(axis=k) averages over the last axis whatever axis says"),
    _t("cce-logits-axis-dropped", "axis", KNN,
       "        return tf.nn.softmax_cross_entropy_with_logits(\n            labels=target, logits=output, axis=axis\n        )\n",
       "        return tf.nn.softmax_cross_entropy_with_logits(\n            labels=target, logits=output\n        )\n",
       "categorical_crossentropy(from_logits=True, axis=k) takes the softmax over the last axis"),
    # metrics
    _t("categorical-hinge-neg-includes-target", "formula", "simdist/keras/losses/hinge_losses.py",
       "    neg = tf.reduce_max((1.0 - y_true) * y_pred, axis=-1)\n",
       "    neg = tf.reduce_max(y_pred, axis=-1)\n",
       "categorical hinge takes the largest score over every class, the target's included"),
    _t("bce-metric-label-smoothing-dropped", "formula", KMT + "probabilistic_metrics.py",
       "        super().__init__(binary_crossentropy, name, dtype=dtype, from_logits=from_logits,\n"
       "                         label_smoothing=label_smoothing)\n",
       "        super().__init__(binary_crossentropy, name, dtype=dtype, from_logits=from_logits)\n",
       "the BinaryCrossentropy metric stores label_smoothing but never passes it to the loss"),
    _t("mean-iou-divides-by-all-classes", "denominator", KMT + "iou_metrics.py",
       "        return tf.divide(tf.reduce_sum(iou, axis=self.axis), num_valid + config.epsilon())\n",
       "        return tf.divide(tf.reduce_sum(iou, axis=self.axis), float(len(self.target_class_ids)) + "
       "config.epsilon())\n",
       "IoU/MeanIoU average over every target class, counting classes that never occur as IoU 0"),
    _t("auc-label-weights-not-normalised", "denominator", KMT + "confusion_metrics.py",
       "            return ops.divide_no_nan(ops.sum(by_label_auc * self.label_weights), ops.sum(self.label_weights))\n",
       "            return ops.sum(by_label_auc * self.label_weights)\n",
       "multi-label AUC with label_weights: the weighted sum is not divided by the weights' sum", count=2),
    # optimizers
    _t("adamw-default-weight-decay", "formula", KMP + "adamw.py",
       "    def __init__(self, learning_rate: Any = 0.001, weight_decay: float = 0.004, beta_1: float = 0.9,\n",
       "    def __init__(self, learning_rate: Any = 0.001, weight_decay: float = 0.01, beta_1: float = 0.9,\n",
       "AdamW's default weight_decay is PyTorch's 0.01, not Keras's 0.004"),
    _t("all-reduce-none-gradient-advances", "order", "simdist/keras/optimizers/_distribute.py",
       "        if g is None:\n            out.append((None, v))\n        else:\n",
       "        if g is None:\n            out.append((None, v))\n            pos += 1\n        else:\n",
       "Keras's all-reduced gradients: a variable without gradient consumes a slot, shifting the later ones",
       unobservable="equivalent: its only caller (_backend_update_step) runs after apply's _filter_empty_gradients "
                    "has dropped every None gradient, so the branch is dead (survived the blind run, 2026-11-30; "
                    "a None gradient under MirroredStrategy is tested by test_blind6_a_variable_without_gradient_...)"),
    # callbacks, fit/evaluate/predict
    _t("csv-logger-separator-ignored", "formula", CB + "csv_logger.py",
       "                delimiter = sep\n", "                delimiter = \",\"\n",
       "CSVLogger(separator=...) always writes commas"),
    _t("fit-batch-begin-after-step", "order", TR,
       "                    callbacks.on_train_batch_begin(begin_step)\n"
       "                    logs = self.train_function(iterator)\n",
       "                    logs = self.train_function(iterator)\n"
       "                    callbacks.on_train_batch_begin(begin_step)\n",
       "fit calls on_train_batch_begin after the step ran (a callback sees the updated weights)"),
    _t("train-on-batch-class-weight-ignored", "formula", TR,
       "            sample_weight = data_adapter_module.class_weight_to_sample_weights(y, class_weight)\n"
       "        self.make_train_function()\n",
       "        self.make_train_function()\n",
       "train_on_batch(class_weight=...) checks the argument but trains unweighted"),
    _t("predict-in-training-mode", "state", TR,
       "        x, _, _ = unpack_x_y_sample_weight(data)\n        return self._call_model(x, training=False)\n",
       "        x, _, _ = unpack_x_y_sample_weight(data)\n        return self._call_model(x, training=True)\n",
       "predict runs the model in training mode (Dropout active, BatchNorm on batch statistics and updating)"),
    _t("accuracy-string-sparse-by-rank-only", "boundary", "simdist/keras/trainers/compile_utils.py",
       "    is_sparse = len(ts) < len(ps) or (y_t_last == 1 and y_p_last is not None and y_p_last > 1)\n",
       "    is_sparse = len(ts) < len(ps)\n",
       "metrics=['accuracy'] with (batch, 1) integer targets and (batch, k) outputs picks categorical accuracy"),
    _t("output-loss-metric-records-weighted", "order", "simdist/keras/trainers/compile_utils.py",
       "                metric.update_state(unscale_loss_for_distribution(value), sample_weight=rows)\n"
       "            if weight is not None:\n                value = tf_numpy.multiply(value, weight)\n",
       "                pass\n"
       "            if weight is not None:\n                value = tf_numpy.multiply(value, weight)\n"
       "            if metric is not None:\n"
       "                metric.update_state(unscale_loss_for_distribution(value), sample_weight=rows)\n",
       "multi-output models: each output's `<name>_loss` metric records the loss after its loss_weight"),
    # saving
    _t("load-model-drops-loss-weights", "state", "simdist/keras/models/keras_file.py",
       '        "loss": loss_of(cfg.get("loss")), "loss_weights": cfg.get("loss_weights"),\n',
       '        "loss": loss_of(cfg.get("loss")), "loss_weights": None,\n',
       "load_model re-compiles a saved model without its loss_weights"),
]
TRAINING += TRAINING_BATCH6
CATALOGUE += TRAINING_BATCH6


# -- the seventh blind batch (2026-11-30, eighth session): written from the source alone, before looking
# for any test that would catch them, in files the catalogue had no or few mutants in ------------------------
TRAINING_BATCH7: list[Mutant] = [
    # gradient rules of ops and the tape
    _t("grad-abs-sign-of-output", "gradient", UN,
       "    return [grad * sign(op.inputs[0])]\n",
       "    return [grad * sign(op.outputs[0])]\n",
       "abs's gradient takes the sign of |x| (always +1) instead of the sign of x"),
    _t("grad-atan2-signs-swapped", "gradient", "simdist/runtime/ops/xfunctions.py",
       "    return _reduced(op, x * grad_inv, -y * grad_inv)\n",
       "    return _reduced(op, -x * grad_inv, y * grad_inv)\n",
       "atan2(y, x)'s gradient: the minus sign put on the y-partial instead of the x-partial"),
    _t("grad-sigmoid-grad-grad-factor-two", "gradient", AC,
       "    return [gb - 2.0 * gb * a, dispatch.execute(SIGMOID_GRAD, (a, grad))]\n",
       "    return [gb - gb * a, dispatch.execute(SIGMOID_GRAD, (a, grad))]\n",
       "the second derivative of sigmoid (SigmoidGrad's gradient) forgets the factor 2 of d/dy y(1-y)"),
    _t("grad-tile-interleave-swapped", "gradient", "simdist/runtime/ops/slicing.py",
       '    split = [v for pair in zip(op.get_attr("multiples"), shp) for v in pair]\n',
       '    split = [v for pair in zip(shp, op.get_attr("multiples")) for v in pair]\n',
       "tile's gradient reshapes to [d0, m0, d1, m1, ...] (TF's order is [m0, d0, ...]) and sums the wrong axes"),
    _t("grad-stack-unstacks-axis-zero", "axis", AR,
       '    return unstack(grad, axis=op.get_attr("axis"))\n',
       "    return unstack(grad, axis=0)\n",
       "tf.stack(..., axis=k)'s gradient unstacks along axis 0 whatever k is"),
    _t("custom-gradient-variable-grads-reversed", "order", "simdist/runtime/autodiff/custom_gradient.py",
       "                    for g in flat] + list(variable_grads)\n",
       "                    for g in flat] + list(reversed(variable_grads))\n",
       "tf.custom_gradient: the grad_fn's variable gradients paired with the variables in reverse order"),
    _t("keras-dropout-noise-shape-none-as-one", "axis", "simdist/keras/random.py",
       "        noise_shape = [dims[i] if v is None else v for i, v in enumerate(noise_shape)]\n",
       "        noise_shape = [1 if v is None else v for i, v in enumerate(noise_shape)]\n",
       "Dropout(noise_shape=(None, 1, k)): a None dimension broadcasts the mask (size 1) instead of taking the input's size"),
    # Keras layers' options and regularizers
    _t("flatten-channels-first-inverse-perm", "axis", KLY + "reshaping.py",
       "            inputs = tf.transpose(inputs, perm=(0, *range(2, rank), 1))\n",
       "            inputs = tf.transpose(inputs, perm=(0, rank - 1, *range(1, rank - 1)))\n",
       "Flatten(data_format='channels_first') applies the inverse permutation (channels_last -> first) for rank >= 4"),
    _t("softmax-layer-multi-axis-last-only", "axis", KLY + "core.py",
       "                outputs = tf.exp(inputs - tf.reduce_logsumexp(inputs, axis=list(self.axis), keepdims=True))\n",
       "                outputs = tf.exp(inputs - tf.reduce_logsumexp(inputs, axis=-1, keepdims=True))\n",
       "keras.layers.Softmax(axis=(1, 2)) normalises over the last axis only"),
    _t("l1l2-l2-term-uses-l1-factor", "formula", "simdist/keras/regularizers.py",
       "            regularization += tf.cast(self.l2, _dtype(x)) * tf.reduce_sum(tf.square(x))\n",
       "            regularization += tf.cast(self.l1, _dtype(x)) * tf.reduce_sum(tf.square(x))\n",
       "L1L2's squared term is multiplied by the l1 factor (copy-paste)"),
    _t("orthogonal-regularizer-columns-normalised-by-rows", "axis", "simdist/keras/regularizers.py",
       "            inputs = _l2_normalize(inputs, axis=0)\n",
       "            inputs = _l2_normalize(inputs, axis=1)\n",
       "OrthogonalRegularizer(mode='columns') L2-normalises the rows, not the columns"),
    # losses' options
    _t("sparse-cce-ignore-class-loss-not-zeroed", "formula", KL,
       "        res = tf.where(valid_mask, res, tf.zeros_like(res))\n",
       "",
       "sparse_categorical_crossentropy(ignore_class=c): the ignored entries keep the loss of their zeroed inputs"),
    _t("loss-mask-drops-own-mask", "formula", KLL,
       "            mask = tf.logical_and(tf.cast(in_mask, tf.bool), tf.cast(out_mask, tf.bool))\n",
       "            mask = tf.cast(in_mask, tf.bool)\n",
       "a loss whose values carry their own mask (ignore_class) drops it when y_pred carries a Keras mask too"),
    _t("metric-mask-dropped-with-sample-weight", "formula", KMT + "reduction_metrics.py",
       "        if mask is not None:\n            sample_weight = apply_mask(sample_weight, mask, dtype=dtype, reduction=\"sum\")\n",
       "",
       "a weighted Mean-style metric of masked values (ignore_class, Masking) ignores the mask once sample_weight is given"),
    _t("mean-with-sample-weight-divides-by-count", "denominator", KLL,
       "            divisor = ops.cast(ops.sum(sample_weight), loss.dtype)\n",
       "            divisor = ops.prod_of_shape(values, loss.dtype)\n",
       "reduction='mean_with_sample_weight' divides by the number of entries, not the sum of the weights"),
    # metrics' options and reset
    _t("rmse-metric-sample-weight-dropped", "formula", KMT + "regression_metrics.py",
       "        super().update_state(tf.square(y_pred - y_true), sample_weight=sample_weight)\n",
       "        super().update_state(tf.square(y_pred - y_true), sample_weight=None)\n",
       "RootMeanSquaredError ignores sample_weight"),
    _t("precision-reset-keeps-false-positives", "state", KMT + "precision_recall.py",
       "        self._other_variable.assign(tf.zeros((n,)))\n",
       "",
       "Precision/Recall.reset_state zeroes the true positives but not the false positives/negatives"),
    _t("precision-top-k-default-threshold-half", "boundary", KMT + "precision_recall.py",
       "        default_threshold = 0.5 if top_k is None else metrics_utils.NEG_INF\n",
       "        default_threshold = 0.5\n",
       "Precision/Recall(top_k=k): the default threshold stays 0.5, so a top-k prediction below 0.5 is not positive"),
    _t("sensitivity-thresholds-spacing-off-by-one", "boundary", KMT + "sensitivity_specificity.py",
       "            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]\n",
       "            inner = [(i + 1) * 1.0 / num_thresholds for i in range(num_thresholds - 2)]\n",
       "SensitivityAtSpecificity & co.: the inner thresholds spaced 1/n instead of 1/(n-1)"),
    _t("at-constraint-strict-inequality", "boundary", KMT + "sensitivity_specificity.py",
       "        feasible = tf.greater_equal(constrained, ops.cast(self.value, constrained.dtype))\n",
       "        feasible = tf.greater(constrained, ops.cast(self.value, constrained.dtype))\n",
       "XAtY metrics: a threshold whose constrained rate equals the target is not feasible"),
    # optimizers' less used options and schedules
    _t("sgd-nesterov-forgets-momentum-factor", "formula", KMP + "sgd.py",
       "                self.assign_add(variable, ops.subtract(ops.multiply(m, momentum),\n",
       "                self.assign_add(variable, ops.subtract(m,\n",
       "SGD(nesterov=True): var += m - lr * g (the lookahead forgets to multiply m by momentum)"),
    _t("adagrad-initial-accumulator-ignored", "state", KMP + "adagrad.py",
       '        self._accumulators = self.add_optimizer_variables(var_list, "accumulator",\n'
       "                                                          initializer=float(self.initial_accumulator_value))\n",
       '        self._accumulators = self.add_optimizer_variables(var_list, "accumulator")\n',
       "Adagrad's accumulators start at 0 instead of initial_accumulator_value"),
    _t("grad-accumulation-drops-current-gradient", "denominator", BO,
       "                mean = [ops.divide(ops.add(g, _read(a)), steps) for g, a in zip(grads, acc_grads)]\n",
       "                mean = [ops.divide(_read(a), steps) for g, a in zip(grads, acc_grads)]\n",
       "gradient_accumulation_steps: the update uses the accumulated gradients without the current step's"),
    _t("ema-first-step-not-copied", "state", BO,
       "            momentum = not_first_step * tf.constant(self.ema_momentum, value.dtype)\n",
       "            momentum = tf.constant(self.ema_momentum, value.dtype)\n",
       "use_ema: the first step blends the averages' initial values instead of copying the variables"),
    _t("piecewise-middle-values-shifted", "boundary", SCH,
       "        for low, high, value in zip(boundaries[:-1], boundaries[1:], values[1:-1]):\n",
       "        for low, high, value in zip(boundaries[:-1], boundaries[1:], values[:-2]):\n",
       "PiecewiseConstantDecay with 2+ boundaries: each middle interval takes the previous interval's value"),
    # callbacks
    _t("terminate-on-nan-ignores-inf", "boundary", CB + "terminate_on_nan.py",
       "        if loss is not None and (np.isnan(loss) or np.isinf(loss)):\n",
       "        if loss is not None and np.isnan(loss):\n",
       "TerminateOnNaN stops on NaN but not on an infinite loss"),
    _t("reduce-lr-cooldown-ignored", "state", CB + "reduce_lr_on_plateau.py",
       "                    self.cooldown_counter = self.cooldown\n",
       "                    self.cooldown_counter = 0\n",
       "ReduceLROnPlateau(cooldown=n) never enters its cooldown after a reduction"),
    # fit / evaluate / predict, distribution
    _t("predict-steps-per-execution-drops-tail", "boundary", TR,
       "                    if data:\n                        return data\n                    raise StopIteration\n",
       "                    raise StopIteration\n",
       "predict with steps_per_execution > 1 drops the last group of batches when it is incomplete"),
    _t("evaluate-loss-not-unscaled", "denominator", TR,
       "training=False)\n        self._loss_tracker.update_state(unscale_loss_for_distribution(loss),\n",
       "training=False)\n        self._loss_tracker.update_state(loss,\n",
       "evaluate's loss under a multi-replica strategy is the per-replica scaled loss (divided by the replicas)"),
    # saving
    _t("save-weights-skips-non-trainable", "state", "simdist/keras/models/saving.py",
       "        return list(obj._trainable_variables) + list(obj._non_trainable_variables)\n",
       "        return list(obj._trainable_variables)\n",
       "weight files: a layer's non-trainable variables (BatchNormalization's moving statistics) are not saved"),
]
TRAINING += TRAINING_BATCH7
CATALOGUE += TRAINING_BATCH7

# -- issue 29, ninth session (2026-11-30): the eighth blind batch, written from the source alone
# before reading any suite test, aimed at files the catalogue had no mutant in (einsum_dense,
# depthwise_separable, rnn, optimizers/_ops, random_generator, pooling3d, diag, linalg_more,
# history/lambda callbacks, keras_file's compile config) and at options given only defaults.
TRAINING_BATCH8: list[Mutant] = [
    # gradients, the tape, random generators
    _t("grad-cumulative-logsumexp-negative-part-added", "gradient", "simdist/runtime/ops/reductions.py",
       "    return [pos - neg]\n",
       "    return [pos + neg]\n",
       "cumulative_logsumexp's gradient adds the negative part of the upstream gradient instead of subtracting it"),
    _t("grad-slogdet-not-transposed", "gradient", "simdist/runtime/ops/linalg_more.py",
       "    return [_times_matrices(grad_b, inv(op.inputs[0], adjoint=True))]\n",
       "    return [_times_matrices(grad_b, inv(op.inputs[0], adjoint=False))]\n",
       "the gradient of log|det A| is inv(A) instead of inv(A)^T (transposed for non-symmetric A)"),
    _t("grad-avg-pool3d-full-window", "denominator", "simdist/runtime/ops/pooling3d.py",
       "    per = gw / _counts(orig_input_shape, ksize, strides, out, pads).astype(gw.dtype)\n",
       "    per = gw / gw.dtype.type(ksize[1] * ksize[2] * ksize[3])\n",
       "avg_pool3d's gradient divides by the whole window at SAME-padded edges (the forward counts in-bounds cells)"),
    _t("grad-diag-part-ignores-k", "gradient", "simdist/runtime/ops/diag.py",
       '    return [diag(grad, k=op.get_attr("k"), num_rows=m, num_cols=n, align=op.get_attr("align")), None]\n',
       '    return [diag(grad, k=0, num_rows=m, num_cols=n, align=op.get_attr("align")), None]\n',
       "matrix_diag_part's gradient puts the upstream gradient on the main diagonal whatever the offset k"),
    _t("tape-reset-keeps-records", "state", TP,
       "            self._tape.release()\n        self._tape = None\n        self._push_tape()\n",
       "            self._tape.release()\n        self._push_tape()\n",
       "GradientTape.reset() keeps the tape's records and watches (a forgotten reset)"),
    _t("generator-uniform-scales-by-maxval", "formula", "simdist/runtime/ops/random_generator.py",
       "        return add(multiply(rnd, subtract(hi, lo)), lo)\n",
       "        return add(multiply(rnd, hi), lo)\n",
       "tf.random.Generator.uniform scales by maxval instead of maxval - minval (wrong unless minval is 0)"),
    _t("generator-make-seeds-rows-swapped", "order", "simdist/runtime/ops/random_generator.py",
       "        return stack([keys, zeros_like(keys)])\n",
       "        return stack([zeros_like(keys), keys])\n",
       "Generator.make_seeds puts the zeros in the first row and the keys in the second"),
    _t("generator-truncated-normal-ignores-mean", "formula", "simdist/runtime/ops/random_generator.py",
       '        rnd = dispatch.execute(TRUNCATED, (state,), {"shape": shp, "dtype": dt})\n'
       "        return add(multiply(rnd, s), m)\n",
       '        rnd = dispatch.execute(TRUNCATED, (state,), {"shape": shp, "dtype": dt})\n'
       "        return multiply(rnd, s)\n",
       "Generator.truncated_normal drops its mean"),
    # layers
    _t("bn-frozen-uses-batch-statistics", "state", "simdist/keras/layers/normalization.py",
       "        if training and self.trainable:\n            mean, variance = self._moments(inputs, mask)\n",
       "        if training:\n            mean, variance = self._moments(inputs, mask)\n",
       "a frozen BatchNormalization (trainable=False) still normalises by batch statistics and updates its moving "
       "ones in training (Keras 3 runs it in inference mode)"),
    _t("bn-masked-variance-counts-masked-entries", "denominator", "simdist/keras/layers/normalization.py",
       "        difference = tf.where(m, inputs - mean, tf.zeros_like(inputs))\n",
       "        difference = inputs - mean\n",
       "BatchNormalization with a mask adds the masked entries' squared deviations into the variance"),
    _t("mha-value-mask-on-query-axis", "axis", "simdist/keras/layers/attention.py",
       '                m = tf.expand_dims(tf.cast(m, "bool"), -2)\n',
       '                m = tf.expand_dims(tf.cast(m, "bool"), -1)\n',
       "MultiHeadAttention's value/key mask expanded on the last axis: it masks query rows instead of key columns"),
    _t("mha-sliding-window-inclusive", "boundary", "simdist/keras/layers/attention.py",
       "            m = tf.less(tf.abs(rows - cols), self._sliding_window)\n",
       "            m = tf.less_equal(tf.abs(rows - cols), self._sliding_window)\n",
       "MultiHeadAttention's sliding_window lets a query see one key too far on each side"),
    _t("einsum-dense-fans-swapped", "axis", "simdist/keras/layers/einsum_dense.py",
       '            config["input_axes"], config["output_axes"] = input_axes, output_axes\n',
       '            config["input_axes"], config["output_axes"] = output_axes, input_axes\n',
       "EinsumDense gives its VarianceScaling initializer the kernel's output axes as fan_in (he/lecun scale wrong)"),
    _t("separable-conv1d-dilation-on-unit-axis", "axis", "simdist/keras/layers/depthwise_separable.py",
       "        dilation_rate = (1,) + tuple(dilation_rate)\n",
       "        dilation_rate = tuple(dilation_rate) + (1,)\n",
       "SeparableConv1D puts its dilation on the added unit height axis: the steps are not dilated"),
    _t("lstm-return-state-reversed", "order", "simdist/keras/layers/rnn.py",
       "        if self.return_state:\n            return (output, *states)\n        return output\n",
       "        if self.return_state:\n            return (output, *states[::-1])\n        return output\n",
       "RNN(return_state=True) returns an LSTM's states as [c, h] instead of [h, c]"),
    _t("rnn-dropout-masks-not-reset", "state", "simdist/keras/layers/rnn.py",
       "        self._maybe_reset_dropout_masks(self.cell)\n",
       "",
       "a recurrent layer keeps its first call's dropout masks for every later call (a forgotten reset)"),
    # metrics, losses, compile
    _t("scce-metric-ignore-class-dropped", "state", "simdist/keras/metrics/probabilistic_metrics.py",
       "from_logits=from_logits,\n                         ignore_class=ignore_class, axis=axis)\n",
       "from_logits=from_logits,\n                         axis=axis)\n",
       "the SparseCategoricalCrossentropy metric stores ignore_class but does not pass it to the loss function"),
    _t("sparse-top-k-sorted-ids-off-by-one", "boundary", "simdist/keras/metrics/accuracy_metrics.py",
       "y_pred[:, :k]), axis=1)",
       "y_pred[:, :k - 1]), axis=1)",
       "SparseTopKCategoricalAccuracy(from_sorted_ids=True) looks at the first k - 1 ids"),
    _t("weighted-metrics-unweighted", "state", "simdist/keras/trainers/compile_utils.py",
       "            if m:\n                m.update_state(y_t, y_p, s_w)\n",
       "            if m:\n                m.update_state(y_t, y_p)\n",
       "compile(weighted_metrics=...) updates those metrics without the sample weights"),
    _t("load-model-drops-weighted-metrics", "state", "simdist/keras/models/keras_file.py",
       '"weighted_metrics": metric_of(cfg.get("weighted_metrics")),',
       '"weighted_metrics": None,',
       "load_model recompiles without the saved weighted_metrics"),
    # optimizers
    _t("sparse-square-densified", "formula", "simdist/keras/optimizers/_ops.py",
       "        if isinstance(x, IndexedSlices):\n            return IndexedSlices(fn(x.values), x.indices, x.dense_shape)\n"
       "        return fn(tf.convert_to_tensor(x))\n",
       "        return fn(tf.convert_to_tensor(x))\n",
       "Keras's sparse square densifies IndexedSlices first: a repeated row's gradients are summed before squaring "
       "(Adagrad/RMSprop/Adam accumulators of an Embedding)"),
    _t("weight-decay-names-matched-at-start", "boundary", BO,
       "        return not (pattern is not None and re.search(pattern, variable.name) is not None)\n",
       "        return not (pattern is not None and re.match(pattern, variable.name) is not None)\n",
       "exclude_from_weight_decay(var_names=...) matches the names only at their start (re.match, not re.search)"),
    _t("lso-unscales-by-initial-scale", "formula", "simdist/keras/optimizers/loss_scale_optimizer.py",
       "        scale = self.dynamic_scale\n        tvs = trainable_variables or self._trainable_variables\n",
       "        scale = self.initial_scale\n        tvs = trainable_variables or self._trainable_variables\n",
       "LossScaleOptimizer divides the gradients by the initial scale, not the current dynamic one"),
    # fit's data
    _t("validation-split-rounds-up", "boundary", "simdist/keras/trainers/data_adapter.py",
       "    split_at = int(math.floor(batch_dim * (1.0 - validation_split)))\n",
       "    split_at = int(math.ceil(batch_dim * (1.0 - validation_split)))\n",
       "validation_split keeps one sample too many for training when the split is not whole"),
    _t("class-weight-binary-column-argmax", "axis", "simdist/keras/trainers/data_adapter.py",
       "        y_numpy = np.argmax(y_numpy, axis=-1) if y_numpy.shape[-1] != 1 else np.squeeze(y_numpy, axis=-1)\n",
       "        y_numpy = np.argmax(y_numpy, axis=-1)\n",
       "class_weight with (n, 1) binary targets takes the argmax of one column (always class 0)"),
    _t("dataset-class-weight-default-zero", "formula", "simdist/keras/trainers/data_adapter.py",
       "    table = tf.convert_to_tensor([float(class_weight.get(int(c), 1.0)) for c in range(max(class_weight) + 1)])\n",
       "    table = tf.convert_to_tensor([float(class_weight.get(int(c), 0.0)) for c in range(max(class_weight) + 1)])\n",
       "fit(dataset, class_weight=...) weighs the classes missing from the dict 0 instead of 1"),
    _t("evaluate-loss-tracker-unweighted", "denominator", "simdist/keras/trainers/trainer.py",
       "training=False)\n        self._loss_tracker.update_state(unscale_loss_for_distribution(loss),\n"
       "                                        sample_weight=tf.shape(_first_leaf(x))[0])\n",
       "training=False)\n        self._loss_tracker.update_state(unscale_loss_for_distribution(loss))\n",
       "evaluate's loss is the mean of the batches' losses, not weighted by their sizes (a partial last batch)"),
    # callbacks
    _t("early-stopping-baseline-ignored", "state", "simdist/keras/callbacks/early_stopping.py",
       "            if self.baseline is None or self._is_improvement(current, self.baseline):\n"
       "                self.wait = 0\n",
       "            self.wait = 0\n",
       "EarlyStopping's baseline is ignored: an improvement that does not beat it still resets the wait"),
    _t("checkpoint-initial-threshold-ignored", "state", "simdist/keras/callbacks/model_checkpoint.py",
       "        super().__init__(monitor, mode, initial_value_threshold)\n",
       "        super().__init__(monitor, mode)\n",
       "ModelCheckpoint(save_best_only=True) ignores initial_value_threshold and saves the first epoch"),
    _t("lambda-callback-batch-end-at-begin", "order", "simdist/keras/callbacks/lambda_callback.py",
       '("on_train_batch_begin", on_train_batch_begin), ("on_train_batch_end", on_train_batch_end)',
       '("on_train_batch_begin", on_train_batch_begin), ("on_train_batch_begin", on_train_batch_end)',
       "LambdaCallback installs on_train_batch_end as the batch-begin hook (a callback hook at the wrong time)"),
]
TRAINING += TRAINING_BATCH8
CATALOGUE += TRAINING_BATCH8


# -- issue 29, tenth session (2026-11-30, gradcov): gradients of ops no suite test differentiated before
# (benchmarks/suite_gradients.py on main's suite: 100 of 252 differentiable op types never run by a tape),
# planted in the gradient functions of those ops; suite/test_gradient_table.py is the table that covers them.
TRAINING_GRADCOV: list[Mutant] = [
    _t("grad-bessel-k1e-reciprocal-added", "gradient", "simdist/runtime/ops/special_funcs.py",
       "    return [grad * (y * (1.0 - reciprocal(x)) - bessel_k0e(x))]\n",
       "    return [grad * (y * (1.0 + reciprocal(x)) - bessel_k0e(x))]\n",
       "bessel_k1e's gradient adds y/x where it subtracts it (d/dx k1e = k1e(1 - 1/x) - k0e)"),
    _t("grad-expint-exp-negated", "gradient", "simdist/runtime/ops/special_funcs.py",
       "    return [grad * exp(x) / x]\n",
       "    return [grad * exp(-x) / x]\n",
       "expint's gradient uses E1's exp(-x)/x instead of Ei's exp(x)/x"),
    _t("grad-floormod-divisor-not-floored", "gradient", "simdist/runtime/ops/math.py",
       "unbroadcast(multiply(grad, negative(floordiv(x, y))), sy)]",
       "unbroadcast(multiply(grad, negative(x / y)), sy)]",
       "floormod's divisor gradient is -g*x/y, forgetting the floor of the quotient"),
    _t("grad-relu-grad-grad-unmasked", "gradient", "simdist/runtime/ops/activations.py",
       "    x = op.inputs[1]\n    return [relu_grad(grad, x), array.zeros_like(x)]\n",
       "    x = op.inputs[1]\n    return [grad, array.zeros_like(x)]\n",
       "the gradient of ReluGrad (a second derivative through relu) passes the gradient where x <= 0 too"),
    _t("grad-max-pool-third-order-dropped", "gradient", "simdist/runtime/ops/pooling.py",
       "    return [array.zeros_like(x), array.zeros_like(y), dispatch.execute(MAX_POOL_GRAD, (x, y, grad), "
       "_pool_attrs(op))]\n",
       "    return [array.zeros_like(x), array.zeros_like(y), array.zeros_like(x)]\n",
       "MaxPoolGradGrad's gradient (a third derivative of max_pool) is zeros instead of MaxPoolGrad"),
    _t("grad-sparse-segment-sqrtn-divides-by-count", "denominator", "simdist/runtime/ops/sparse_segments.py",
       "        return [dispatch.execute(GRAD_OPS[kind], (grad, idx, seg, dim0)), None, None] + extra\n",
       "        return [dispatch.execute(GRAD_OPS[\"mean\" if kind == \"sqrtn\" else kind], (grad, idx, seg, dim0)), "
       "None, None] + extra\n",
       "sparse segment_sqrt_n's gradient divides by the segment's count, as mean's does, not its square root"),
    _t("grad-tridiagonal-matmul-superdiag-shifted-down", "gradient", "simdist/runtime/ops/tridiagonal.py",
       "    sup_g = math.reduce_sum(_shift(rhs, True) * grad, axis=-1)\n",
       "    sup_g = math.reduce_sum(_shift(rhs, False) * grad, axis=-1)\n",
       "tridiagonal_matmul's superdiagonal gradient pairs each row with the rhs row above, not below"),
    _t("grad-extract-patches-ignores-rates", "gradient", "simdist/runtime/ops/image_patches.py",
       "\"strides\": op.get_attr(\"strides\"), \"rates\": op.get_attr(\"rates\"),",
       "\"strides\": op.get_attr(\"strides\"), \"rates\": (1, 1, 1, 1),",
       "extract_patches' gradient scatters back to undilated patch positions (rates ignored)"),
    _t("grad-matrix-diag-align-dropped", "gradient", "simdist/runtime/ops/diag.py",
       "    return [diag_part(grad, k=op.get_attr(\"k\"), align=op.get_attr(\"align\")), None]\n",
       "    return [diag_part(grad, k=op.get_attr(\"k\")), None]\n",
       "linalg.diag's gradient reads the diagonals with the default alignment (RIGHT_LEFT), not the call's"),
    _t("grad-fft2d-scaled-as-inverse", "denominator", "simdist/runtime/ops/fft.py",
       "RegisterGradient(\"FFT2D\")(_complex_grad(2, ifft2d, True))\n",
       "RegisterGradient(\"FFT2D\")(_complex_grad(2, ifft2d, False))\n",
       "fft2d's gradient divides ifft2d(g) by the size instead of multiplying it"),
    _t("grad-irfft-odd-length-as-even", "boundary", "simdist/runtime/ops/fft.py",
       "        is_odd = lengths[-1] % 2\n",
       "        is_odd = 0\n",
       "irfft's gradient weighs the last frequency of an odd fft_length once, as for an even length"),
    _t("grad-conj-not-conjugated", "gradient", "simdist/runtime/ops/complex_math.py",
       "def _conj_grad(op: Any, grad: Tensor) -> list:\n    return [conj(grad)]\n",
       "def _conj_grad(op: Any, grad: Tensor) -> list:\n    return [grad]\n",
       "conj's gradient passes the gradient unconjugated"),
    _t("grad-igammac-x-not-negated", "gradient", "simdist/runtime/ops/special_more.py",
       "    return [-ga, -gx]\n",
       "    return [-ga, gx]\n",
       "igammac's gradient in x is igamma's, not its negation (igammac = 1 - igamma)"),
    _t("grad-sparse-softmax-sum-term-dropped", "gradient", "simdist/runtime/ops/sparse_math.py",
       "    summed = dispatch.execute(CWISE[\"Add\"], (ind, grad, shape, reduced))\n",
       "    summed = grad\n",
       "sparse.softmax's gradient forgets the -sum(g * softmax) term of each row"),
    _t("lookup-truncatemod-differentiable", "error-class", "simdist/runtime/ops/truncation.py",
       "    no_tf_gradient(\"TruncateMod\")",
       "    RegisterGradient(\"TruncateMod\")(lambda op, grad: [grad, None])",
       "truncatemod gets a gradient (x's, as floormod's) where TF 2.21 registers none (LookupError)"),
]
TRAINING += TRAINING_GRADCOV
CATALOGUE += TRAINING_GRADCOV

# -- the ninth blind batch (tenth session, issue 29): 30 mutants written from the source alone, before reading
# any suite test, aimed at the files and options the catalogue had not touched (docs/conformance.md) ----------
TRAINING_BATCH9: list[Mutant] = [
    # gradients of the op layer
    _t("grad-eigh-eigenvector-gap-sign", "gradient", "simdist/runtime/ops/linalg_decomp.py",
       "        f = set_diag(_safe_reciprocal(expand_dims(e, -2) - expand_dims(e, -1)), zeros_like(e))\n",
       "        f = set_diag(_safe_reciprocal(expand_dims(e, -1) - expand_dims(e, -2)), zeros_like(e))\n",
       "eigh's gradient through the eigenvectors uses 1/(e_i - e_j) instead of 1/(e_j - e_i): its sign flipped"),
    _t("grad-bessel-k1e-sign", "gradient", "simdist/runtime/ops/special_funcs.py",
       "    return [grad * (y * (1.0 - reciprocal(x)) - bessel_k0e(x))]\n",
       "    return [grad * (y * (1.0 + reciprocal(x)) - bessel_k0e(x))]\n",
       "d/dx k1e(x) = k1e (1 - 1/x) - k0e written with + 1/x"),
    _t("grad-einsum-complex-not-conjugated", "gradient", "simdist/runtime/ops/einsum.py",
       "        ca, cb = conj(a), conj(b)\n",
       "        ca, cb = a, b\n",
       "einsum's gradient of complex operands contracts with the other operand itself, not its conjugate"),
    _t("grad-irfft-nyquist-bin-doubled", "formula", "simdist/runtime/ops/fft.py",
       "                           ops.ones([1 - is_odd], rdt)], 0)\n",
       "                           2.0 * ops.ones([1 - is_odd], rdt)], 0)\n",
       "irfft's gradient doubles the Nyquist bin of an even length as it does the interior bins"),
    _t("grad-cholesky-diagonal-not-halved", "gradient", "simdist/runtime/ops/linalg_more.py",
       "    middle = set_diag(middle, 0.5 * diag_part(middle))\n    middle = band_part(middle, -1, 0)\n",
       "    middle = band_part(middle, -1, 0)\n",
       "Cholesky's gradient forgets to halve the diagonal of L^H dL (Murray's Phi)"),
    _t("grad-triangular-solve-adjoint-ignored", "gradient", "simdist/runtime/ops/linalg_more.py",
       "    grad_a = -_mm(c, grad_b, adjoint_b=True) if adj else -_mm(grad_b, c, adjoint_b=True)\n"
       "    grad_a = band_part(grad_a, -1, 0) if low",
       "    grad_a = -_mm(grad_b, c, adjoint_b=True)\n"
       "    grad_a = band_part(grad_a, -1, 0) if low",
       "triangular_solve(adjoint=True)'s gradient wrt the matrix takes the non-adjoint product's order"),
    _t("grad-unsorted-segment-max-ties-not-shared", "gradient", "simdist/runtime/ops/segments.py",
       "    spread, _ = _gather_drop_negatives(math.divide(grad, count), ids)\n",
       "    spread, _ = _gather_drop_negatives(grad, ids)\n",
       "unsorted_segment_max/min give every tied maximum the whole gradient instead of sharing it"),
    _t("grad-sparse-dense-matmul-rows-cols-swapped", "order", "simdist/runtime/ops/sparse_math.py",
       "    parts_a = array.gather(grad, cols if adj_a else rows)\n",
       "    parts_a = array.gather(grad, rows if adj_a else cols)\n",
       "sparse_dense_matmul's gradient wrt the sparse values gathers the output gradient by the wrong index column"),
    # the tape and graph gradients
    _t("tf-gradients-stop-gradients-ignored", "state", "simdist/runtime/autodiff/graph_gradients.py",
       "    stops = {id(t) for t in nest.flatten(stop_gradients)} if stop_gradients is not None else set()\n",
       "    stops = set()\n",
       "tf.gradients ignores stop_gradients: it differentiates through the tensors it should hold constant"),
    _t("tape-watch-accessed-variables-ignored", "state", "simdist/runtime/autodiff/tape.py",
       '        if self.watch_accessed and getattr(owner, "trainable", True):\n',
       '        if getattr(owner, "trainable", True):\n',
       "GradientTape(watch_accessed_variables=False) still watches the trainable variables it reads"),
    # random streams
    _t("random-gamma-beta-as-scale", "formula", "simdist/runtime/ops/random_gamma.py",
       "    return math.maximum(tiny, math.divide(raw, beta))\n",
       "    return math.maximum(tiny, math.multiply(raw, beta))\n",
       "tf.random.gamma reads beta as a scale (multiplies) instead of a rate (divides)"),
    _t("fold-in-order-swapped", "order", "simdist/runtime/ops/stateless_seeds.py",
       "    return stack([s1, d])\n",
       "    return stack([d, s1])\n",
       "tf.random.fold_in returns [data, draw] instead of [draw, data]"),
    _t("stateless-shuffle-partner-off-by-one", "boundary", "simdist/runtime/ops/stateless_seeds.py",
       "        j = i + words[i] % ((size - i) & 0xFFFFFFFF)\n",
       "        j = i + words[i] % ((size - i - 1) & 0xFFFFFFFF)\n",
       "stateless_shuffle's Fisher-Yates draws the swap partner from size - i - 1 positions (never itself: Sattolo)"),
    _t("conv-kernel-fan-in-ignores-receptive-field", "formula", "simdist/keras/initializers.py",
       "    return int(shape[-2] * receptive), int(shape[-1] * receptive)\n",
       "    return int(shape[-2]), int(shape[-1] * receptive)\n",
       "a convolution kernel's fan_in leaves out the receptive field (input channels only)"),
    # layers
    _t("pool2d-channels-first-back-transpose-swapped", "axis", "simdist/keras/layers/pooling.py",
       "_TO_FIRST = {3: (0, 2, 1), 4: (0, 3, 1, 2), 5: (0, 4, 1, 2, 3)}\n",
       "_TO_FIRST = {3: (0, 2, 1), 4: (0, 3, 2, 1), 5: (0, 4, 1, 2, 3)}\n",
       "a channels_first 2-D pooling transposes back with its rows and columns swapped"),
    _t("bidirectional-initial-state-halves-swapped", "order", "simdist/keras/layers/bidirectional.py",
       "            forward_state, backward_state = initial_state[:half], initial_state[half:]\n",
       "            forward_state, backward_state = initial_state[half:], initial_state[:half]\n",
       "Bidirectional gives the backward layer the first half of initial_state and the forward layer the second"),
    _t("upsampling2d-bilinear-sizes-swapped", "axis", "simdist/keras/layers/upsampling_padding.py",
       "x = ops.image.resize(x, (shape[1] * self.size[0], shape[2] * self.size[1]), data_format=",
       "x = ops.image.resize(x, (shape[1] * self.size[1], shape[2] * self.size[0]), data_format=",
       "UpSampling2D(interpolation='bilinear') scales the rows by size[1] and the columns by size[0]"),
    _t("gru-no-reset-after-resets-after", "formula", "simdist/keras/layers/rnn_cells.py",
       "            else:\n                recurrent_h = tf.matmul(r * h_tm1, rk[:, 2 * u:])\n",
       "            else:\n                recurrent_h = r * tf.matmul(h_tm1, rk[:, 2 * u:])\n",
       "GRU(reset_after=False) applies the reset gate after the recurrent matmul, as reset_after=True does"),
    _t("layernorm-multi-axis-moments-last-only", "axis", "simdist/keras/layers/normalization.py",
       "    mean, variance = moments(x, axes=axis, keepdims=True)\n    gamma, beta = _broadcast(gamma), _broadcast(beta)\n",
       "    mean, variance = moments(x, axes=axis[-1:], keepdims=True)\n    gamma, beta = _broadcast(gamma), _broadcast(beta)\n",
       "LayerNormalization over several axes takes the moments over the last of them only"),
    # metrics
    _t("binary-iou-threshold-strict", "boundary", "simdist/keras/metrics/iou_metrics.py",
       "        y_pred = ops.cast(tf.greater_equal(y_pred, tf.constant(self.threshold, tf.float32)), self.dtype)\n",
       "        y_pred = ops.cast(tf.greater(y_pred, tf.constant(self.threshold, tf.float32)), self.dtype)\n",
       "BinaryIoU counts a prediction equal to the threshold as 0 (y_pred > threshold, not >=)"),
    _t("fbeta-weighted-by-predicted-counts", "formula", "simdist/keras/metrics/f_score_metrics.py",
       "        self.intermediate_weights.assign(self.intermediate_weights + weighted_sum(y_true))\n",
       "        self.intermediate_weights.assign(self.intermediate_weights + weighted_sum(y_pred))\n",
       "FBetaScore(average='weighted') weighs the classes by their predicted counts, not their true support"),
    _t("auc-minoring-takes-max", "formula", "simdist/keras/metrics/confusion_metrics.py",
       "        elif self.summation_method == SM.MINORING:\n            heights = tf.minimum(y[: n - 1], y[1:])\n",
       "        elif self.summation_method == SM.MINORING:\n            heights = tf.maximum(y[: n - 1], y[1:])\n",
       "AUC(summation_method='minoring') takes each interval's larger height (majoring)"),
    # callbacks
    _t("history-epoch-one-based", "boundary", "simdist/keras/callbacks/history.py",
       "        self.epoch.append(epoch)\n",
       "        self.epoch.append(epoch + 1)\n",
       "History.epoch records 1-based epoch numbers"),
    _t("reduce-lr-min-lr-ignored", "boundary", "simdist/keras/callbacks/reduce_lr_on_plateau.py",
       "            new_lr = max(old_lr * self.factor, self.min_lr)\n",
       "            new_lr = old_lr * self.factor\n",
       "ReduceLROnPlateau reduces the learning rate below min_lr"),
    _t("monitor-min-delta-not-negated", "boundary", "simdist/keras/callbacks/monitor_callback.py",
       "        if self.monitor_op is ops.less:\n            self.min_delta *= -1\n",
       "        if self.monitor_op is ops.greater:\n            self.min_delta *= -1\n",
       "EarlyStopping/ModelCheckpoint negate min_delta for a maximised quantity instead of a minimised one"),
    _t("csv-logger-append-repeats-header", "state", "simdist/keras/callbacks/csv_logger.py",
       "                    self.append_header = not bool(len(f.readline()))\n",
       "                    self.append_header = True\n",
       "CSVLogger(append=True) writes the header again into a file that already has one"),
    # fit, evaluate, compile
    _t("fit-validation-steps-ignored", "state", "simdist/keras/trainers/trainer.py",
       "                        batch_size=validation_batch_size or batch_size, steps_per_epoch=validation_steps,\n",
       "                        batch_size=validation_batch_size or batch_size, steps_per_epoch=None,\n",
       "fit's validation runs over the whole validation data, ignoring validation_steps"),
    _t("test-on-batch-metrics-not-reset", "state", "simdist/keras/trainers/trainer.py",
       "        self.make_test_function()\n        self.reset_metrics()\n        with data_batches(False):",
       "        self.make_test_function()\n        with data_batches(False):",
       "test_on_batch does not reset the metrics: each call reports the running values over every batch so far"),
    _t("compile-loss-per-output-sample-weight-first", "order", "simdist/keras/trainers/compile_utils.py",
       "            sw = _resolve_path(path, sample_weight) if nested_sw else sample_weight\n",
       "            sw = _resolve_path(self._flat_losses[0].path, sample_weight) if nested_sw else sample_weight\n",
       "per-output sample weights (a list or dict) all weigh by the first output's weights"),
    _t("to-categorical-num-classes-off-by-one", "boundary", "simdist/keras/utils/numerical_utils.py",
       "        num_classes = int(np.max(x)) + 1\n",
       "        num_classes = int(np.max(x))\n",
       "to_categorical without num_classes takes the largest index as the class count (one column short)"),
]
TRAINING += TRAINING_BATCH9
CATALOGUE += TRAINING_BATCH9

# -- the tenth blind batch (eleventh session, issue 29): 30 mutants written from the source alone, before reading
# any suite test, aimed at files the catalogue had not touched and at last session's seeding rules -------------
TRAINING_BATCH10: list[Mutant] = [
    # seeding: keras.utils.set_random_seed, keras.random's global generator, tf.data functions, fit's shuffle
    _t("set-random-seed-keeps-global-generator", "state", "simdist/keras/backend.py",
       "    random.reset_global_generator()\n    _pyrandom.seed(seed)\n",
       "    _pyrandom.seed(seed)\n",
       "keras.utils.set_random_seed keeps the global SeedGenerator made before it, instead of dropping it"),
    _t("keras-global-generator-ordered", "state", "simdist/keras/random.py",
       "        return global_seed_generator().next(ordered=False)\n",
       "        return global_seed_generator().next()\n",
       "an unseeded keras.random draw advances the global SeedGenerator by counting, not by Keras's unordered hash"),
    _t("dataset-shuffle-reshuffle-default-off", "state", "simdist/runtime/data/dataset.py",
       "                               True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration),\n",
       "                               False if reshuffle_each_iteration is None else bool(reshuffle_each_iteration),\n",
       "Dataset.shuffle's reshuffle_each_iteration defaults to False: every epoch repeats the first epoch's order"),
    _t("dataset-shuffle-newest-fills-the-hole", "order", "simdist/runtime/data/shuffle.py",
       "            buf[k] = buf[0]   # std::swap(buffer[index], buffer[start]); start++\n            del buf[0]\n",
       "            buf[k] = buf[-1]\n            del buf[-1]\n",
       "the shuffle buffer fills the given element's place with the newest element, not TF's oldest"),
    _t("dataset-function-kernels-shared-across-iterators", "state", "simdist/runtime/ops/random_graphs.py",
       "    return Trace(_serial(), trace.seed)\n",
       "    return trace\n",
       "a tf.data function's random kernels continue across iterators instead of starting afresh with each"),
    _t("fit-shuffle-batch-permutes-all", "state", "simdist/keras/trainers/data_adapter.py",
       "            if shuffle and shuffle != \"batch\":\n                indices = tf.random.shuffle(indices)\n",
       "            if shuffle:\n                indices = tf.random.shuffle(indices)\n",
       "fit(shuffle=\"batch\") permutes all the samples (as shuffle=True) before shuffling within each batch"),
    _t("fit-shuffle-partial-batch-dropped", "boundary", "simdist/keras/trainers/data_adapter.py",
       "            if partial:\n                batches = batches.concatenate(",
       "            if False:\n                batches = batches.concatenate(",
       "fit(shuffle=True) drops the last partial batch of the permuted samples"),
    # gradients of ops in files the catalogue had not touched
    _t("grad-crop-and-resize-method-ignored", "gradient", "simdist/runtime/ops/image_crop_resize.py",
       "                                 {\"method\": op.get_attr(\"method\"), \"T\": image.dtype})\n",
       "                                 {\"method\": \"bilinear\", \"T\": image.dtype})\n",
       "crop_and_resize's image gradient spreads bilinearly even for method=\"nearest\""),
    _t("grad-tridiagonal-solve-not-transposed", "gradient", "simdist/runtime/ops/tridiagonal_solve.py",
       "    grad_rhs = dispatch.execute(TRIDIAGONAL_SOLVE, (_transpose_tridiagonal(diags), grad), attrs)\n",
       "    grad_rhs = dispatch.execute(TRIDIAGONAL_SOLVE, (diags, grad), attrs)\n",
       "tridiagonal_solve's gradient solves with the matrix instead of its transpose"),
    _t("grad-sqrtm-upstream-not-transposed", "gradient", "simdist/runtime/ops/sqrtm.py",
       "    vec_da = reshape(matrix_transpose(grad), shape[:-2] + [order * order, 1])\n",
       "    vec_da = reshape(grad, shape[:-2] + [order * order, 1])\n",
       "sqrtm's gradient vectorises the upstream gradient row-major without transposing it (column-major vec)"),
    _t("grad-lstsq-not-symmetrised", "gradient", "simdist/runtime/ops/lstsq.py",
       "        zx_sym = xzt + matrix_transpose(xzt)\n",
       "        zx_sym = xzt\n",
       "matrix_solve_ls's gradient wrt the matrix (m >= n) forgets the transposed half of x z^T + z x^T"),
    # Keras layers
    _t("global-avg-pool1d-channels-first-mask-on-steps", "axis", "simdist/keras/layers/global_pooling1d.py",
       "            mask_expanded = tf.expand_dims(tf.convert_to_tensor(mask), 2 if self.data_format == \"channels_last\" else 1)\n",
       "            mask_expanded = tf.expand_dims(tf.convert_to_tensor(mask), 2)\n",
       "a masked channels_first GlobalAveragePooling1D expands the (batch, steps) mask as for channels_last"),
    _t("merge-mask-and", "formula", "simdist/keras/layers/merging.py",
       "            output_mask = tf.logical_or(output_mask, m)\n",
       "            output_mask = tf.logical_and(output_mask, m)\n",
       "merge layers (Add, Average, ...) combine their inputs' masks with AND instead of OR"),
    _t("merge-rank-expand-last-axis", "axis", "simdist/keras/layers/merging.py",
       "                    x = tf.expand_dims(x, axis=1)\n",
       "                    x = tf.expand_dims(x, axis=-1)\n",
       "merge layers give a lower-rank input its missing axes at the end instead of after the batch axis"),
    _t("concatenate-mask-all", "formula", "simdist/keras/layers/merging.py",
       "        return tf.reduce_any(tf.concat(full, axis=self.axis), axis=-1, keepdims=False)\n",
       "        return tf.reduce_all(tf.concat(full, axis=self.axis), axis=-1, keepdims=False)\n",
       "Concatenate's output mask keeps a step only if every concatenated mask keeps it"),
    _t("embedding-negative-index-off-by-one", "boundary", "simdist/keras/layers/core.py",
       "        indices = tf.where(inputs < 0, inputs + n, inputs)\n",
       "        indices = tf.where(inputs < 0, inputs + n - 1, inputs)\n",
       "Embedding wraps a negative index to n + i - 1 instead of n + i"),
    _t("functional-dict-inputs-sorted-keys", "order", "simdist/keras/models/functional.py",
       "                inputs = [inputs[i.name] for i in flat]\n",
       "                inputs = [inputs[k] for k in sorted(inputs)]\n",
       "a functional model fed a dict takes the inputs in sorted key order, not by the Input layers' names"),
    _t("elu-alpha-scales-positive-part", "formula", "simdist/keras/activations.py",
       "    return res if alpha == 1 else tf.where(x > 0, res, alpha * res)\n",
       "    return res if alpha == 1 else alpha * res\n",
       "keras.activations.elu(alpha) scales the positive part by alpha too, not only the negative one"),
    _t("conv1d-causal-channels-first-pads-channels", "axis", "simdist/keras/layers/convolutional.py",
       "        return [[0, 0], [0, 0], [left_pad, 0]]\n",
       "        return [[0, 0], [left_pad, 0], [0, 0]]\n",
       "channels_first causal Conv1D pads the channel axis instead of the steps"),
    _t("celu-alpha-ignored-in-exponent", "formula", "simdist/keras/activations.py",
       "    return tf.maximum(x, 0.0) + alpha * tf.math.expm1(tf.minimum(x, 0.0) / alpha)\n",
       "    return tf.maximum(x, 0.0) + alpha * tf.math.expm1(tf.minimum(x, 0.0))\n",
       "celu forgets to divide x by alpha inside the exponential"),
    _t("log-softmax-axis-none-last-axis", "axis", "simdist/keras/activations.py",
       "        return tf.reshape(tf.nn.log_softmax(tf.reshape(x, [-1]), axis=-1), tf.shape(x))\n",
       "        return tf.nn.log_softmax(x, axis=-1)\n",
       "keras.activations.log_softmax(axis=None) normalises over the last axis, not over every element"),
    # metrics
    _t("concordance-norm-without-mean-gap", "formula", "simdist/keras/metrics/correlation_metrics.py",
       "    norm = t_var + p_var + tf.square(t_mean - p_mean)\n",
       "    norm = t_var + p_var\n",
       "concordance correlation's denominator leaves out the squared difference of the means"),
    _t("in-top-k-non-finite-row-counted", "boundary", "simdist/keras/metrics/accuracy_metrics.py",
       "    return tf.logical_and(tf.logical_and(valid, finite), tf.less(above, k))\n",
       "    return tf.logical_and(valid, tf.less(above, k))\n",
       "top-k accuracy counts a hit in a row with a NaN or infinite score (TF's in_top_k answers False there)"),
    _t("metric-variables-skip-nested-metrics", "state", "simdist/keras/metrics/metric.py",
       "        out = list(self._variables)\n        for m in self._metrics:\n            out.extend(m.variables)\n",
       "        out = list(self._variables)\n",
       "a metric's variables leave out those of the metrics it holds, so reset_state does not reset them"),
    # callbacks, saving, optimizers
    _t("early-stopping-best-not-reset", "state", "simdist/keras/callbacks/early_stopping.py",
       "        self.stopped_epoch = 0\n        self.best = None\n",
       "        self.stopped_epoch = 0\n",
       "EarlyStopping reused for a second fit keeps the first fit's best value"),
    _t("save-weights-non-trainable-first", "order", "simdist/keras/models/saving.py",
       "        return list(obj._trainable_variables) + list(obj._non_trainable_variables)\n",
       "        return list(obj._non_trainable_variables) + list(obj._trainable_variables)\n",
       "a layer's weights are written to (and read from) a .weights.h5 file non-trainable first"),
    _t("optimizer-iterations-ignore-accumulation", "state", "simdist/keras/optimizers/base_optimizer.py",
       "        if self.gradient_accumulation_steps:\n            return tf.math.floordiv(",
       "        if False:\n            return tf.math.floordiv(",
       "with gradient_accumulation_steps, optimizer.iterations counts every apply, not the completed cycles"),
    _t("ema-momentum-weights-swapped", "formula", "simdist/keras/optimizers/base_optimizer.py",
       "            unwrap(average).assign(momentum * _read(average) + (1 - momentum) * value)\n",
       "            unwrap(average).assign((1 - momentum) * _read(average) + momentum * value)\n",
       "use_ema's moving average weighs the new value by ema_momentum and the average by 1 - ema_momentum"),
    _t("overwrite-with-gradient-updated-normally", "state", "simdist/keras/optimizers/base_optimizer.py",
       "        if not any(getattr(v, \"overwrite_with_gradient\", False) for v in variables):\n            return grads, variables\n",
       "        if True:\n            return grads, variables\n",
       "a variable with overwrite_with_gradient=True is updated by the optimizer's rule instead of taking the gradient"),
    # the tape
    _t("tape-jacobian-releases-persistent", "state", "simdist/runtime/autodiff/tape.py",
       "        if not self._persistent:\n            if self._recording:   # (TF's jacobian calls `gradient`, which stops "
       "a non-persistent tape's recording)\n                self._pop_tape()\n"
       "            self._watched_variables = tuple(in_creation_order(tape.watched_vars))\n"
       "            tape.release()\n            self._tape = None\n        out = []\n",
       "        if True:\n            if self._recording:   # (TF's jacobian calls `gradient`, which stops "
       "a non-persistent tape's recording)\n                self._pop_tape()\n"
       "            self._watched_variables = tuple(in_creation_order(tape.watched_vars))\n"
       "            tape.release()\n            self._tape = None\n        out = []\n",
       "GradientTape.jacobian releases a persistent tape: a later gradient or jacobian raises"),
    # Keras's dtype promotion
    _t("promotion-uint8-skips-int16", "dtype", "simdist/keras/dtype_promotion.py",
       "    \"uint8\": (\"int16\", \"uint16\"),\n",
       "    \"uint8\": (\"uint16\",),\n",
       "Keras's promotion lattice misses uint8 -> int16: uint8 with int8 or int16 promotes to int32"),
]
TRAINING += TRAINING_BATCH10
CATALOGUE += TRAINING_BATCH10

# Eleventh blind batch (twelfth session, 2026-11-30): written from the source alone, before reading any
# suite test; over half on the mainstream training path (optimizers, conv/pool gradients, losses, fit,
# BatchNormalization/LSTM/Conv layers, the tape, tf.data, checkpoints, distributed logs), the rest in
# files the catalogue had few or no mutants in (docs/conformance.md, "an eleventh blind batch").
TRAINING_BATCH11: list[Mutant] = [
    # -- mainstream: optimizers
    _t("adam-bias-correction-beta1-power-from-beta2", "formula", "simdist/keras/optimizers/adam.py",
       "        beta_1_power = ops.power(ops.cast(self.beta_1, variable.dtype), local_step)\n",
       "        beta_1_power = ops.power(ops.cast(self.beta_2, variable.dtype), local_step)\n",
       "Adam's first-moment bias correction raises beta_2 (copy-paste) instead of beta_1 to the step"),
    _t("rmsprop-momentum-slot-not-applied", "formula", "simdist/keras/optimizers/rmsprop.py",
       "            self.assign_sub(variable, momentum)\n",
       "            self.assign_sub(variable, increment)\n",
       "RMSprop(momentum>0) updates its momentum slot but steps the variable by the plain increment"),
    # -- mainstream: gradients of conv/pool
    _t("grad-max-pool-ties-last", "gradient", "simdist/runtime/ops/pooling.py",
       "    if not nan.any():\n        return np.argmax(flat, axis=3)\n",
       "    if not nan.any():\n        return flat.shape[3] - 1 - np.argmax(flat[:, :, :, ::-1], axis=3)\n",
       "max_pool's gradient goes to the last of tied maxima in a window (TF's: the first), e.g. ReLU zeros"),
    _t("grad-conv-same-crop-after-pads", "gradient", "simdist/runtime/ops/conv.py",
       "    return out[:, pt:pt + h, pl:pl + w, :]\n",
       "    return out[:, pb:pb + h, pr:pr + w, :]\n",
       "the input gradient of a window op (conv2d, max_pool) cuts the padded frame at the bottom/right "
       "padding offsets: wrong where SAME pads asymmetrically (stride 2, even kernels)"),
    # -- mainstream: losses, fit
    _t("mse-function-no-rank-match", "axis", "simdist/keras/losses/losses.py",
       "    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)\n"
       "    return ops.mean(tf.square(y_true - y_pred), axis=-1)\n",
       "    return ops.mean(tf.square(y_true - y_pred), axis=-1)\n",
       "mean_squared_error (the function: the mse metric, keras.losses.mse) does not match (n,) targets to "
       "(n, 1) predictions: they broadcast to (n, n)"),
    _t("fit-validation-sample-weight-dropped", "state", "simdist/keras/trainers/trainer.py",
       "                        x=val_x, y=val_y, sample_weight=val_sample_weight,\n",
       "                        x=val_x, y=val_y, sample_weight=None,\n",
       "fit(validation_data=(x, y, sample_weight)) validates without the sample weights"),
    _t("steps-per-epoch-restarts-iterator", "state", "simdist/keras/trainers/epoch_iterator.py",
       "            if self._current_iterator is None or self.steps_per_epoch is None:\n",
       "            if True:\n",
       "fit(steps_per_epoch=k) restarts the data at every epoch instead of continuing the iterator"),
    _t("early-stopping-patience-off-by-one", "boundary", "simdist/keras/callbacks/early_stopping.py",
       "        if self.wait >= self.patience and epoch > 0:\n",
       "        if self.wait > self.patience and epoch > 0:\n",
       "EarlyStopping waits patience + 1 epochs without improvement before stopping"),
    _t("fit-logs-auto-reduction-sum", "denominator", "simdist/keras/trainers/trainer.py",
       "        reduction = \"mean\"\n",
       "        reduction = \"sum\"\n",
       "the train/test step's per-replica logs are summed, not averaged, under a multi-replica strategy"),
    # -- mainstream: layers
    _t("bn-reduction-axes-assume-channels-last", "axis", "simdist/keras/layers/normalization.py",
       "        del reduction_axes[self.axis]\n",
       "        del reduction_axes[-1]\n",
       "BatchNormalization reduces over every axis but the last whatever `axis` says (channels_first, axis=1)"),
    _t("lstm-impl1-forget-gate-recurrent-slice", "formula", "simdist/keras/layers/rnn_cells.py",
       "            f = rec(x[1] + tf.matmul(hs[1], rk[:, u:u * 2]))\n",
       "            f = rec(x[1] + tf.matmul(hs[1], rk[:, :u]))\n",
       "LSTM implementation 1 (recurrent_dropout) computes the forget gate with the input gate's recurrent kernel"),
    _t("conv-channels-first-bias-on-last-axis", "axis", "simdist/keras/layers/convolutional.py",
       "            bias_shape = (1, channels) + (1,) * layer.rank\n",
       "            bias_shape = (1,) * (layer.rank + 1) + (channels,)\n",
       "a channels_first convolution adds its bias along the last (spatial) axis instead of the channel axis",
       unobservable="Keras's ops.add (keras_add) squeezes a bias-like operand to its one dimension above 1 and picks "
                    "bias_add's axis from the output's shape alone (the last axis when it matches, else the channel "
                    "axis), so the reshape before it changes no value, as in Keras 3.15 itself"),
    _t("keras-gelu-default-approximate", "formula", "simdist/keras/activations.py",
       "def gelu(x: Any, approximate: bool = False) -> Any:\n",
       "def gelu(x: Any, approximate: bool = True) -> Any:\n",
       "keras.activations.gelu (and activation=\"gelu\") defaults to the tanh approximation (JAX's default)"),
    _t("trainable-false-not-propagated-to-sublayers", "state", "simdist/keras/layers/layer.py",
       "        for v in self._trainable_variables:\n            v.trainable = value\n"
       "        for layer in self._layers:\n            layer.trainable = value\n",
       "        for v in self._trainable_variables:\n            v.trainable = value\n",
       "setting trainable=False on a model or nested layer does not freeze its sub-layers (transfer learning "
       "still trains the base)"),
    # -- mainstream: the tape
    _t("tape-intermediate-source-gradient-dropped", "gradient", "simdist/runtime/autodiff/backprop.py",
       "                if k not in source_set:\n                    del gradients[k]\n",
       "                del gradients[k]\n",
       "tape.gradient(y, [x, h]) with h an intermediate result gives h no gradient (its gradients freed "
       "once passed on)"),
    # -- mainstream: tf.data, checkpoints
    _t("dataset-shuffle-buffer-one-too-many", "boundary", "simdist/runtime/data/shuffle.py",
       "            while not ended[0] and (size is None or len(buf) < size):\n",
       "            while not ended[0] and (size is None or len(buf) <= size):\n",
       "Dataset.shuffle fills buffer_size + 1 elements (shuffle(1) is no longer the identity)"),
    _t("batch-after-map-keeps-remainder", "boundary", "simdist/runtime/data/batching.py",
       "        if not buf or (drop and len(buf) < size):\n",
       "        if not buf:\n",
       "Dataset.batch(drop_remainder=True) keeps the short last batch when its input is not plain slices "
       "(after map, shuffle, repeat)"),
    _t("checkpoint-manager-keeps-one-fewer", "boundary", "simdist/strategies/checkpoint.py",
       "        while self._max_to_keep is not None and len(self._checkpoints) > self._max_to_keep:\n",
       "        while self._max_to_keep is not None and len(self._checkpoints) >= self._max_to_keep:\n",
       "CheckpointManager(max_to_keep=k) keeps k - 1 checkpoints (max_to_keep=1 deletes the one just saved)"),
    # -- files with few mutants
    _t("hard-sigmoid-keras2-formula", "formula", "simdist/keras/activations.py",
       "    return tf.nn.relu6(x + tf.constant(3.0, x.dtype)) / tf.constant(6.0, x.dtype)\n",
       "    return tf.clip_by_value(tf.constant(0.2, x.dtype) * x + tf.constant(0.5, x.dtype), 0.0, 1.0)\n",
       "keras.activations.hard_sigmoid uses Keras 2's clip(0.2 x + 0.5, 0, 1) instead of Keras 3's relu6(x + 3) / 6 "
       "(hard_silu too)"),
    _t("sync-on-read-sum-assign-not-divided", "denominator", "simdist/strategies/sync_on_read.py",
       "                value = convert_to_tensor(value / n, dtype=self.dtype)\n",
       "                value = convert_to_tensor(value, dtype=self.dtype)\n",
       "assigning a Python number to a SUM SyncOnRead variable (a Keras metric's) in cross-replica context "
       "writes it to every copy undivided: the read gives n times the value"),
    _t("orthogonal-wide-matrix-not-transposed", "axis", "simdist/keras/initializers.py",
       "        if num_rows < num_cols:\n            q = q.T\n",
       "        if num_rows > num_cols:\n            q = q.T\n",
       "Orthogonal transposes Q for tall shapes instead of wide ones: a wide kernel (an LSTM's (u, 4u) "
       "recurrent kernel) has non-orthonormal rows"),
    _t("clip-by-global-norm-scales-up", "formula", "simdist/runtime/ops/clip.py",
       "        scale_for_finite = clip_norm * math.minimum(inverse, convert_to_tensor(1.0, dtype=use_norm.dtype) / clip_norm)\n",
       "        scale_for_finite = clip_norm * inverse\n",
       "tf.clip_by_global_norm rescales every list to the clip norm, scaling up lists whose norm is below it"),
    # kloss2: the focal weighting and R2Score (suite/test_keras_losses_more.py, test_keras_metrics_more.py);
    # two only, the training catalogue being at its cap
    _t("focal-factor-of-prediction-not-pt", "formula", "simdist/keras/losses/probabilistic_losses.py",
       "    focal_bce = ops.power(1.0 - p_t, gamma) * bce\n",
       "    focal_bce = ops.power(1.0 - y_pred, gamma) * bce\n",
       "binary focal crossentropy modulates by (1 - p)**gamma of the predicted probability, not of the "
       "probability of the true class p_t"),
    _t("r2-variance-weighted-is-uniform", "formula", "simdist/keras/metrics/r2_score.py",
       "            r2_score = tf.reduce_sum(total * raw_scores) / tf.reduce_sum(total)\n",
       "            r2_score = tf.reduce_mean(raw_scores)\n",
       "R2Score(class_aggregation='variance_weighted_average') averages the columns uniformly"),
    _t("hinge-binary-labels-mapped-per-element", "formula", "simdist/keras/losses/hinge_losses.py",
       "    is_binary = tf.reduce_all(tf.logical_or(tf.equal(y_true, 0), tf.equal(y_true, 1)))\n",
       "    is_binary = tf.logical_or(tf.equal(y_true, 0), tf.equal(y_true, 1))\n",
       "hinge maps each 0/1 label to -1/1 element by element, not only when every label is 0 or 1 "
       "(a 0 among -1/1 labels becomes -1)"),
    _t("padded-batch-pads-to-first-element", "boundary", "simdist/runtime/data/batching.py",
       "max(c.shape[k] for c in comps)", "comps[0].shape[k]",
       "padded_batch pads each batch to its first element's size, not the longest (a longer later element fails)"),
    _t("from-tensor-slices-length-mismatch-accepted", "missing-error", "simdist/runtime/data/sources.py",
       "            if d != dims[0]:\n",
       "            if d > dims[0]:\n",
       "Dataset.from_tensor_slices accepts components whose first dimension is shorter than the first "
       "component's (zipped to the shortest) instead of raising ValueError"),
    _t("get-layer-index-bound-off-by-one", "missing-error", "simdist/keras/models/model.py",
       "            if len(self.layers) <= index:\n",
       "            if len(self.layers) < index:\n",
       "model.get_layer(index=len(layers)) raises IndexError instead of Keras's ValueError"),
    _t("callback-train-batch-end-not-forwarded", "state", "simdist/keras/callbacks/callback.py",
       "    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:\n"
       "        self.on_batch_end(batch, logs=logs)\n",
       "    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:\n        pass\n",
       "a Callback's on_train_batch_end no longer calls on_batch_end (a callback overriding on_batch_end is "
       "never called by fit)"),
    _t("dataset-shuffle-seed-ignored", "state", "simdist/runtime/data/dataset.py",
       "                               tf_seeds(op_seed))\n",
       "                               tf_seeds(None))\n",
       "Dataset.shuffle(seed=s) ignores its seed: every seed gives the same order"),
    _t("dataset-repeat-one-extra-epoch", "boundary", "simdist/runtime/data/counting.py",
       "            while count < 0 or state[\"epoch\"] < count:\n",
       "            while count < 0 or state[\"epoch\"] <= count:\n",
       "Dataset.repeat(n) yields n + 1 passes (its cardinality still says n)"),
    _t("loss-sum-reduction-mask-rescaled", "denominator", "simdist/keras/losses/loss.py",
       "    if reduction in (\"mean\", \"sum_over_batch_size\"):\n",
       "    if reduction in (\"mean\", \"sum_over_batch_size\", \"sum\"):\n",
       "a masked loss with reduction='sum' weighs the valid entries by total/valid, as the mean reductions do"),
]
TRAINING += TRAINING_BATCH11
CATALOGUE += TRAINING_BATCH11

# klayer2: the new tf.keras layers (suite/test_keras_layers_more2.py; two: the training cap is 335)
TRAINING_KLAYER2: list[Mutant] = [
    _t("group-norm-reduces-the-group-axis", "axis", "simdist/keras/layers/group_normalization.py",
       "        axes.pop(-2 if self.axis == -1 else self.axis - 1)\n",
       "        axes.pop(-1 if self.axis == -1 else self.axis)\n",
       "GroupNormalization keeps the wrong axis out of its moments: it normalizes across the groups per "
       "channel-in-group instead of within each group"),
    _t("normalization-adapt-drops-lack-of-fit", "formula", "simdist/keras/layers/normalization_adapt.py",
       "            total_var = ((total_var + (total_mean - new_total_mean) ** 2) * existing_weight\n",
       "            total_var = ((total_var) * existing_weight\n",
       "Normalization.adapt over batches averages the batch variances without the lack-of-fit terms of the "
       "running mean: the variance of batches with different means comes out too small"),
]
TRAINING += TRAINING_KLAYER2
CATALOGUE += TRAINING_KLAYER2

# -- Blind batch 12 (thirteenth session, 2026-11-30): 30 mutants written from the source alone,
# before reading any suite test; 15 on the mainstream training path, 15 in files the catalogue had
# few or no mutants in (docs/conformance.md, "Thirteenth session").
TRAINING_BATCH12: list[Mutant] = [
    # -- mainstream: optimizers and schedules
    _t("constraint-applied-before-update", "order", "simdist/keras/optimizers/base_optimizer.py",
       "            self._backend_apply_gradients(grads, trainable_variables)\n"
       "            for variable in trainable_variables:\n"
       "                constraint = getattr(variable, \"constraint\", None)\n"
       "                if constraint is not None:\n"
       "                    variable.assign(constraint(variable))\n",
       "            for variable in trainable_variables:\n"
       "                constraint = getattr(variable, \"constraint\", None)\n"
       "                if constraint is not None:\n"
       "                    variable.assign(constraint(variable))\n"
       "            self._backend_apply_gradients(grads, trainable_variables)\n",
       "the optimizer projects the variables with their constraints before the update instead of after it "
       "(kernel_constraint=NonNeg etc.: the updated weights may leave the constraint's set)"),
    _t("exp-decay-config-drops-staircase", "state", "simdist/keras/optimizers/schedules.py",
       "        return ops.multiply(initial_learning_rate, ops.power(decay_rate, p))\n\n    def get_config(self) -> dict:\n"
       "        return {\"initial_learning_rate\": self.initial_learning_rate, \"decay_steps\": self.decay_steps,\n"
       "                \"decay_rate\": self.decay_rate, \"staircase\": self.staircase, \"name\": self.name}\n",
       "        return ops.multiply(initial_learning_rate, ops.power(decay_rate, p))\n\n    def get_config(self) -> dict:\n"
       "        return {\"initial_learning_rate\": self.initial_learning_rate, \"decay_steps\": self.decay_steps,\n"
       "                \"decay_rate\": self.decay_rate, \"name\": self.name}\n",
       "ExponentialDecay.get_config omits staircase: a saved and reloaded (or from_config) schedule decays smoothly"),
    # -- mainstream: gradients
    _t("grad-unbroadcast-leading-axes-not-summed", "gradient", "simdist/runtime/ops/math.py",
       "    axes = list(range(lead)) + [lead + i for i, d in enumerate(shape) if d == 1 and gs[lead + i] != 1]\n",
       "    axes = [lead + i for i, d in enumerate(shape) if d == 1 and gs[lead + i] != 1]\n",
       "the gradient of an operand broadcast from a lower rank (x + b with b of shape (n,)) is not summed over "
       "the leading axes it was extended along (only over its size-1 axes)"),
    _t("grad-select-else-branch-not-inverted", "gradient", "simdist/runtime/ops/math.py",
       "            unbroadcast(where(c, zeros, grad), y.shape.as_list())]\n",
       "            unbroadcast(where(c, grad, zeros), y.shape.as_list())]\n",
       "tf.where's gradient gives the else-branch the upstream gradient where the condition is True (copy-paste of "
       "the then-branch) instead of where it is False"),
    _t("tape-watched-variables-duplicated", "state", "simdist/runtime/autodiff/tape.py",
       "        if all(w is not shown for w in self.watched_vars):\n            self.watched_vars.append(shown)\n",
       "        self.watched_vars.append(shown)\n",
       "GradientTape.watched_variables() lists a variable once per read instead of once"),
    # -- mainstream: losses
    _t("loss-sum-over-batch-size-divides-by-batch", "denominator", "simdist/keras/losses/loss.py",
       "            divisor = ops.prod_of_shape(values, loss.dtype)\n",
       "            divisor = ops.cast(ops.shape(values)[0], loss.dtype)\n",
       "\"sum_over_batch_size\" divides by the batch size only, not by the number of loss entries (per-step losses "
       "of sequence models are summed over the steps)"),
    # -- mainstream: fit and callbacks
    _t("early-stopping-restores-only-when-stopped", "state", "simdist/keras/callbacks/early_stopping.py",
       "        if self.restore_best_weights and self.best_weights is not None:\n",
       "        if self.restore_best_weights and self.best_weights is not None and self.stopped_epoch > 0:\n",
       "EarlyStopping(restore_best_weights=True) restores only when it stopped training (Keras 2's rule; Keras 3 "
       "restores the best weights at the end of every fit)"),
    _t("fit-stop-training-checked-per-epoch-only", "boundary", "simdist/keras/trainers/trainer.py",
       "                    callbacks.on_train_batch_end(end_step, logs)\n"
       "                    if self.stop_training:\n                        break\n",
       "                    callbacks.on_train_batch_end(end_step, logs)\n",
       "fit only looks at stop_training at the end of an epoch: a callback stopping in a batch hook "
       "(TerminateOnNaN, a custom one) lets the epoch's remaining batches train"),
    _t("monitor-auto-val-metric-direction-unresolved", "boundary", "simdist/keras/callbacks/monitor_callback.py",
       "                if m.name == metric_name and hasattr(m, \"_direction\"):\n",
       "                if m.name == self.monitor and hasattr(m, \"_direction\"):\n",
       "mode=\"auto\" looks a val_ metric up by its full name (\"val_accuracy\"), so EarlyStopping/ModelCheckpoint/"
       "ReduceLROnPlateau cannot tell the direction of a validation metric"),
    # -- mainstream: layers
    _t("dense-activation-before-bias", "order", "simdist/keras/layers/core.py",
       "        x = matmul(inputs, self.kernel)\n        if self.bias is not None:\n            x = bias_add(x, self.bias)\n"
       "        if self.activation is not None:\n            x = self.activation(x)\n",
       "        x = matmul(inputs, self.kernel)\n        if self.activation is not None:\n            x = self.activation(x)\n"
       "        if self.bias is not None:\n            x = bias_add(x, self.bias)\n",
       "Dense applies its activation before adding the bias"),
    _t("conv-strides-axes-reversed", "axis", "simdist/keras/layers/convolutional.py",
       "        return conv(inputs, kernel, strides=list(self.strides), padding=self.padding,\n",
       "        return conv(inputs, kernel, strides=list(self.strides)[::-1], padding=self.padding,\n",
       "a convolution layer hands its strides to the op in reverse axis order (Conv2D(strides=(1, 2)) strides the "
       "rows by 2)"),
    _t("layernorm-mean-shift-without-gamma", "order", "simdist/keras/layers/normalization.py",
       "    inv = tf.math.rsqrt(variance + epsilon)\n    if gamma is not None:\n        inv = inv * gamma\n"
       "    res = -mean * inv\n",
       "    inv = tf.math.rsqrt(variance + epsilon)\n    res = -mean * inv\n    if gamma is not None:\n"
       "        inv = inv * gamma\n",
       "layer normalization shifts by mean * rsqrt(var + eps) before folding gamma into the scale: wrong once "
       "gamma is not 1"),
    _t("dropout-active-when-training-unset", "boundary", "simdist/keras/layers/core.py",
       "        if training and self.rate > 0:\n            from simdist.keras import random\n",
       "        if training is not False and self.rate > 0:\n            from simdist.keras import random\n",
       "Dropout drops when `training` is not given (a direct call of the layer or of a model outside fit) "
       "instead of only when training=True"),
    _t("rnn-go-backwards-sequences-reordered", "order", "simdist/keras/layers/rnn_loop.py",
       "    return last_output, tf.stack(outputs, axis=1), states\n",
       "    return last_output, tf.stack(outputs[::-1] if go_backwards else outputs, axis=1), states\n",
       "a go_backwards recurrent layer returns its sequences flipped back to input order (Keras keeps the "
       "reversed order; Bidirectional flips them itself)"),
    # -- mainstream: tf.data
    _t("prefetch-drops-buffered-tail", "boundary", "simdist/runtime/data/buffering.py",
       "        if not buf:\n            raise StopIteration\n        item, error = buf.popleft()\n",
       "        if done:\n            raise StopIteration\n        item, error = buf.popleft()\n",
       "prefetch stops as soon as its input is exhausted, dropping the elements still in its buffer"),
    # -- files with few mutants
    _t("keras-variable-rtruediv-operands-swapped", "order", "simdist/keras/variables.py",
       "    def __rtruediv__(self, other: Any) -> Any:\n        return _binary(\"divide\", other, self)\n",
       "    def __rtruediv__(self, other: Any) -> Any:\n        return _binary(\"divide\", self, other)\n",
       "`number / keras_variable` computes variable / number (the reflected operator's operands copied from "
       "__truediv__)"),
    _t("cache-commits-partial-pass", "state", "simdist/runtime/data/buffering.py",
       "        seen: list[list[np.ndarray]] = []\n        it: list[Iterator[list[np.ndarray]]] = []\n",
       "        seen: list[list[np.ndarray]] = []\n        self._cache = seen\n"
       "        it: list[Iterator[list[np.ndarray]]] = []\n",
       "Dataset.cache() records the pass as it goes, so an iteration stopped early (take, a break) leaves a "
       "truncated cache that later passes replay"),
    _t("zip-cardinality-longest", "boundary", "simdist/runtime/data/combine.py",
       "            if n != INFINITE_CARDINALITY and (result == INFINITE_CARDINALITY or n < result):\n",
       "            if n != INFINITE_CARDINALITY and (result == INFINITE_CARDINALITY or n > result):\n",
       "Dataset.zip's cardinality is the longest input's, though the zip stops at the shortest"),
    _t("concatenate-spec-first-shape", "axis", "simdist/runtime/data/combine.py",
       "        spec = pack_as(a, [type(x)(most_specific_compatible_shape(x.shape, y.shape), x.dtype)\n",
       "        spec = pack_as(a, [type(x)(x.shape, x.dtype)\n",
       "Dataset.concatenate takes the first dataset's element shapes instead of the most specific shape "
       "compatible with both (a dimension that differs stays fixed instead of None)"),
    _t("dataset-take-of-infinite-stays-infinite", "boundary", "simdist/runtime/data/counting.py",
       "        if n == INFINITE_CARDINALITY:\n            return count\n        if count == -1:\n            return n\n"
       "        return min(n, count)",
       "        if n == INFINITE_CARDINALITY:\n            return n\n        if count == -1:\n            return n\n"
       "        return min(n, count)",
       "take(k) of an infinite dataset (repeat()) reports an infinite cardinality instead of k"),
    _t("sequential-layers-drops-first-without-input", "boundary", "simdist/keras/models/sequential.py",
       "        layers = self._layers\n        if layers and isinstance(layers[0], InputLayer):\n"
       "            return list(layers[1:])\n        return list(layers)\n",
       "        layers = self._layers\n        return list(layers[1:])\n",
       "Sequential.layers drops the first entry whatever it is: without an Input, the first real layer is lost"),
    _t("precision-top-k-keeps-k-plus-one", "boundary", "simdist/keras/metrics/metrics_utils.py",
       "    _, top_k_idx = tf.math.top_k(x, k)\n",
       "    _, top_k_idx = tf.math.top_k(x, k + 1)\n",
       "Precision/Recall(top_k=k) keep the k + 1 largest scores of each row"),
    _t("reshape-layer-minus-one-counts-batch", "axis", "simdist/keras/layers/reshaping.py",
       "        resolved = compute_reshape_output_shape(tuple(inputs.shape.as_list()[1:]), self.target_shape, "
       "\"target_shape\")\n",
       "        resolved = compute_reshape_output_shape(tuple(inputs.shape.as_list()), self.target_shape, "
       "\"target_shape\")\n",
       "Reshape resolves a -1 in target_shape from the size including the batch axis"),
    _t("history-reset-per-fit", "state", "simdist/keras/callbacks/history.py",
       "    def on_train_begin(self, logs: Any = None) -> None:\n        self.epoch = []\n",
       "    def on_train_begin(self, logs: Any = None) -> None:\n        self.epoch = []\n        self.history = {}\n",
       "a History passed to several fits forgets the earlier fits' logs (Keras keeps appending to history and "
       "resets only the epoch list)"),
    _t("metric-state-aggregation-mean", "denominator", "simdist/keras/metrics/metric.py",
       "    def add_variable(self, shape: Any, initializer: Any, dtype: Any = None, aggregation: str = \"sum\",\n",
       "    def add_variable(self, shape: Any, initializer: Any, dtype: Any = None, aggregation: str = \"mean\",\n",
       "metric state variables aggregate their replicas' values by MEAN instead of SUM (a Sum or a confusion "
       "count under a multi-replica strategy reads 1/replicas of the total)"),
    _t("functional-input-rank-squeeze-all-axes", "axis", "simdist/keras/models/functional.py",
       "                adjusted.append(tf.squeeze(x, axis=-1) if isinstance(x, tf.Tensor) else x)\n",
       "                adjusted.append(tf.squeeze(x) if isinstance(x, tf.Tensor) else x)\n",
       "a functional model matching an input's rank squeezes every size-1 axis, not just the last (a batch of one)"),
    _t("layer-array-input-not-autocast", "dtype", "simdist/keras/dtype_policies.py",
       "            t = tf.convert_to_tensor(x)\n"
       "            if autocast and is_float_dtype(t.dtype) and standardize_dtype(t.dtype) != dtype:\n"
       "                t = tf.cast(t, dtype)\n            return t\n",
       "            t = tf.convert_to_tensor(x)\n            return t\n",
       "a layer called on a NumPy array keeps the array's float dtype (float64) instead of casting it to the "
       "layer's compute dtype"),
    _t("auto-name-suffix-off-by-one", "boundary", "simdist/keras/naming.py",
       "    unique = f\"{name}_{_uids[name]}\" if name in _uids else name\n",
       "    unique = f\"{name}_{_uids[name] + 1}\" if name in _uids else name\n",
       "Keras auto-names count from 2 (dense, dense_2, ...) instead of 1"),
    _t("dataset-skip-cardinality-not-clamped", "boundary", "simdist/runtime/data/counting.py",
       "        return max(0, n - count)\n",
       "        return n - count\n",
       "skip(k) past the end of a finite dataset reports a negative cardinality instead of 0"),
    _t("summary-total-excludes-optimizer-params", "denominator", "simdist/keras/models/summary.py",
       "{t_count + n_count + o_count:,}",
       "{t_count + n_count:,}",
       "model.summary()'s Total params leaves out the built optimizer's variables (Keras 2's count)"),
]
TRAINING += TRAINING_BATCH12
CATALOGUE += TRAINING_BATCH12

# -- cov13a (fourteenth session): realistic bugs on lines the suite first ran in the coverage audit
# of tf.data, checkpoints and callbacks (suite/test_cov13_*.py; docs/conformance.md, "Fourteenth
# session: suite coverage of tf.data, checkpoints, callbacks").
TRAINING_COV13A: list[Mutant] = [
    _t("take-of-infinite-stays-infinite", "boundary", "simdist/runtime/data/counting.py",
       "        if n == INFINITE_CARDINALITY:\n            return count\n",
       "        if n == INFINITE_CARDINALITY:\n            return n\n",
       "take(k) of an infinite dataset reports infinite cardinality instead of k (len() then refuses it)"),
    _t("skip-negative-keeps-all", "boundary", "simdist/runtime/data/counting.py",
       "        if count < 0:\n            return 0\n        return max(0, n - count)\n",
       "        if count < 0:\n            return n\n        return max(0, n - count)\n",
       "skip(-1) (skip everything) reports the input's cardinality instead of 0"),
    _t("zip-ignores-unknown-input", "state", "simdist/runtime/data/combine.py",
       "            if n == UNKNOWN_CARDINALITY:\n                return n\n",
       "            if n == UNKNOWN_CARDINALITY:\n                continue\n",
       "zip of a dataset of unknown cardinality (a filter) reports the other inputs' minimum instead of unknown"),
    _t("cache-keeps-a-partial-pass", "state", "simdist/runtime/data/buffering.py",
       "            seen.append(flat)\n            return flat\n",
       "            seen.append(flat)\n            self._cache = seen\n            return flat\n",
       "cache() keeps what a pass stopped early (take) read, so later passes replay a truncated dataset"),
    _t("options-merge-earlier-wins", "order", "simdist/runtime/data/options.py",
       "            elif name in other._values:\n                out._values[name] = theirs\n"
       "            elif name in self._values:\n                out._values[name] = mine\n",
       "            elif name in self._values:\n                out._values[name] = mine\n"
       "            elif name in other._values:\n                out._values[name] = theirs\n",
       "Options.merge (and ds.options()) keeps the earlier setting of an option set twice instead of the later one"),
    _t("checkpoint-existing-matched-counts-unused", "missing-error", CK,
       "    def assert_existing_objects_matched(self) -> \"_Status\":\n        if self._missing:\n",
       "    def assert_existing_objects_matched(self) -> \"_Status\":\n        if self._missing or self._unused:\n",
       "assert_existing_objects_matched also fails on checkpoint values the program does not have (it is "
       "assert_consumed's job)"),
    _t("manager-accepts-max-to-keep-zero", "boundary", CK,
       "        if max_to_keep is not None and max_to_keep <= 0:\n",
       "        if max_to_keep is not None and max_to_keep < 0:\n",
       "CheckpointManager(max_to_keep=0) is accepted (and deletes every checkpoint it saves) instead of ValueError"),
    _t("manager-skips-init-fn", "state", CK,
       "        if self._init_fn is not None:\n            self._init_fn()\n",
       "        if self._init_fn is not None:\n            pass\n",
       "CheckpointManager.restore_or_initialize with no checkpoint never calls init_fn"),
    _t("lr-scheduler-accepts-int", "missing-error", "simdist/keras/callbacks/learning_rate_scheduler.py",
       "        if not isinstance(learning_rate, (float, np.float32, np.float64)):\n",
       "        if not isinstance(learning_rate, (float, int, np.float32, np.float64)):\n",
       "LearningRateScheduler accepts a schedule returning an int, which Keras refuses (ValueError)"),
    _t("model-checkpoint-new-epoch-undercounts", "boundary", "simdist/keras/callbacks/model_checkpoint.py",
       "            add_batches = batch + 1\n",
       "            add_batches = batch\n",
       "ModelCheckpoint(save_freq=n) counts a new epoch's first batch as 0 batches: batch saves drift late"),
]
TRAINING += TRAINING_COV13A
CATALOGUE += TRAINING_COV13A

# -- Fourteenth session (cov13b): realistic bugs on lines the suite first executed then ---------------------------
# (docs/conformance.md, "Fourteenth session: suite coverage of Keras models, trainers, optimizers"); each is
# killed by the cov13 suite modules (test_cov13_models.py, test_cov13_trainer.py, test_cov13_optimizers.py).
TRAINING_COV13B: list[Mutant] = [
    _t("cov13b-summary-centre-odd-space-left", "boundary", "simdist/keras/models/summary.py",
       "                piece = \" \" * ((width - len(piece)) // 2) + piece\n",
       "                piece = \" \" * ((width - len(piece) + 1) // 2) + piece\n",
       "summary(show_trainable=True) centres the Trainable cell with the odd space on the left (rich puts it on "
       "the right)"),
    _t("cov13b-summary-not-cropped-to-console", "boundary", "simdist/keras/models/summary.py",
       "    lines += [line[:console_width] for line in _render_table(header, rows, widths, justify)]\n",
       "    lines += [line for line in _render_table(header, rows, widths, justify)]\n",
       "summary(line_length=n) wider than the console prints the whole table (rich crops it at the console width)"),
    _t("cov13b-duplicate-metric-suffix-from-2", "boundary", "simdist/keras/trainers/compile_utils.py",
       "                    results[f\"{name}_{index}\"] = m.result()\n",
       "                    results[f\"{name}_{index + 1}\"] = m.result()\n",
       "a metric name repeated in one output's metrics is logged as name_2 instead of name_1"),
    _t("cov13b-weighted-metric-not-prefixed", "formula", "simdist/keras/trainers/compile_utils.py",
       "                    name = f\"weighted_{m.name}\"\n",
       "                    name = f\"{m.name}\"\n",
       "a weighted metric named like an unweighted one is logged as mae_1 instead of weighted_mae"),
    _t("cov13b-metrics-dict-in-insertion-order", "order", "simdist/keras/trainers/compile_utils.py",
       "                flat_metrics = [metrics.get(name) for name in output_names]\n",
       "                flat_metrics = list(metrics.values())\n",
       "compile(metrics={name: ...}) is matched to the outputs by the dict's order, not by output name"),
    _t("cov13b-loss-dict-in-insertion-order", "order", "simdist/keras/trainers/compile_utils.py",
       "            loss = [loss[n] for n in names]\n",
       "            loss = list(loss.values())\n",
       "compile(loss={name: ...}) for a list-output model takes the losses in the dict's order, not the outputs'"),
    _t("cov13b-sequential-pop-no-rebuild", "state", "simdist/keras/models/sequential.py",
       "        if rebuild:\n            self._maybe_rebuild()\n        return layer\n",
       "        return layer\n",
       "Sequential.pop() leaves the model unbuilt (no output_shape) instead of rebuilding it on the remaining layers"),
    _t("cov13b-lr-schedule-keeps-variable", "state", "simdist/keras/optimizers/base_optimizer.py",
       "            if isinstance(self._learning_rate, OptimizerVariable):\n"
       "                self._variables.remove(self._learning_rate)\n",
       "            if isinstance(self._learning_rate, OptimizerVariable):\n                pass\n",
       "setting a schedule as learning_rate leaves the old learning-rate variable in optimizer.variables"),
]
TRAINING += TRAINING_COV13B
CATALOGUE += TRAINING_COV13B
# -- Blind batch 13 (fourteenth session, 2026-12-01): 30 mutants written from the source alone,
# before reading any suite test; about half on the mainstream training path (gradients, layers,
# optimizers, losses, metrics, fit options, strategies), half in the API around it (tf.data,
# schedules, callbacks, configs, bookkeeping) (docs/conformance.md, "Fourteenth session").
TRAINING_BATCH13: list[Mutant] = [
    # -- mainstream: gradients of ordinary ops
    _t("grad-div-no-nan-y-sign-dropped", "gradient", "simdist/runtime/ops/math.py",
       "    gy = multiply(grad, divide_no_nan(divide_no_nan(negative(x), y), y))\n",
       "    gy = multiply(grad, divide_no_nan(divide_no_nan(x, y), y))\n",
       "tf.math.divide_no_nan's gradient wrt the divisor loses its minus sign (x / y**2 instead of -x / y**2)"),
    _t("grad-pow-negative-base-log-nan", "gradient", "simdist/runtime/ops/math.py",
       "    mask = not_equal(x, 0) if x.dtype.kind == \"c\" else greater(x, 0)\n",
       "    mask = not_equal(x, 0)\n",
       "the exponent's gradient of x ** y takes log(x) of a negative real base (NaN) instead of TF's 0 where x <= 0"),
    _t("grad-minimum-ties-to-y", "gradient", "simdist/runtime/ops/math.py",
       "    return _max_min_grad(op, grad, less_equal)\n",
       "    return _max_min_grad(op, grad, less)\n",
       "tf.minimum(x, y) sends the gradient of a tie to y instead of x (a relu-like clamp tf.minimum(x, 6.0) at 6)"),
    # -- mainstream: layers
    _t("lstm-cell-output-gate-swapped", "order", "simdist/keras/layers/rnn_cells.py",
       "            c = f * c_tm1 + i * act(z2)\n            o = rec(z3)\n",
       "            c = f * c_tm1 + i * act(z3)\n            o = rec(z2)\n",
       "LSTM (implementation 2) reads the kernel's blocks as i, f, o, c instead of Keras's i, f, c, o: the candidate "
       "and the output gate swap columns"),
    _t("gru-reset-after-recurrent-bias-dropped", "formula", "simdist/keras/layers/rnn_cells.py",
       "                matrix_inner = tf.matmul(h_tm1, rk)\n                if recurrent_bias is not None:\n"
       "                    matrix_inner = matrix_inner + recurrent_bias\n",
       "                matrix_inner = tf.matmul(h_tm1, rk)\n",
       "GRU(reset_after=True) (implementation 2) never adds the recurrent half of its (2, 3u) bias: invisible while "
       "the bias is zero, wrong once it is trained or set"),
    _t("bn-synchronized-count-not-all-reduced", "denominator", "simdist/keras/layers/normalization.py",
       "    count_sum = replica_ctx.all_reduce(tf.distribute.ReduceOp.SUM, local_count)\n",
       "    count_sum = local_count\n",
       "BatchNormalization(synchronized=True) divides the all-reduced sums by the replica's own count: the global "
       "mean and E[x^2] come out num_replicas times too large"),
    _t("bn-renorm-moving-variance-keeps-epsilon", "formula", "simdist/keras/layers/normalization.py",
       "        self.moving_variance.assign(tf.nn.relu(new_moving_stddev * new_moving_stddev - self.epsilon))\n",
       "        self.moving_variance.assign(new_moving_stddev * new_moving_stddev)\n",
       "BatchNormalization(renorm=True) sets the moving variance to the moving stddev squared without taking the "
       "epsilon back out (inference normalises by var + 2 eps)"),
    _t("spatial-dropout-channels-first-noise-shape", "axis", "simdist/keras/layers/spatial_dropout.py",
       "        if self.data_format == \"channels_first\":\n            return shape[:2] + [1] * self.rank\n",
       "        if self.data_format == \"channels_first\" and self.rank == 1:\n            return shape[:2] + [1] * self.rank\n",
       "SpatialDropout2D/3D(data_format='channels_first') use the channels_last noise shape: they drop along the "
       "last spatial axis instead of whole channels"),
    _t("embedding-config-drops-mask-zero", "state", "simdist/keras/layers/core.py",
       "\"embeddings_constraint\": constraints.serialize(self.embeddings_constraint), \"mask_zero\": self.mask_zero,\n",
       "\"embeddings_constraint\": constraints.serialize(self.embeddings_constraint),\n",
       "Embedding.get_config omits mask_zero: a reloaded or cloned model stops masking its padding"),
    # -- mainstream: optimizers
    _t("rmsprop-epsilon-outside-sqrt", "formula", "simdist/keras/optimizers/rmsprop.py",
       "            denominator = ops.add(velocity, self.epsilon)\n"
       "        increment = ops.divide(ops.multiply(lr, gradient), ops.sqrt(denominator))\n",
       "            denominator = velocity\n"
       "        increment = ops.divide(ops.multiply(lr, gradient), ops.add(ops.sqrt(denominator), self.epsilon))\n",
       "RMSprop (not centered) adds epsilon after the square root (Keras 2's sqrt(v) + eps) instead of inside it"),
    # -- mainstream: losses and metrics
    _t("xent-config-drops-from-logits", "state", "simdist/keras/losses/losses.py",
       "        config.update({\"from_logits\": self.from_logits, \"label_smoothing\": self.label_smoothing, "
       "\"axis\": self.axis})\n",
       "        config.update({\"label_smoothing\": self.label_smoothing, \"axis\": self.axis})\n",
       "BinaryCrossentropy/CategoricalCrossentropy.get_config omit from_logits: a reloaded model (or from_config) "
       "treats its logits as probabilities", count=2),
    _t("huber-linear-part-forgets-delta", "formula", "simdist/keras/losses/regression_losses.py",
       "                             delta * abs_error - half * tf.square(delta)), axis=-1)\n",
       "                             abs_error - half * tf.square(delta)), axis=-1)\n",
       "Huber's linear branch is |e| - delta^2 / 2 instead of delta * |e| - delta^2 / 2 (right only for delta = 1)"),
    _t("mape-divides-by-prediction", "denominator", "simdist/keras/losses/regression_losses.py",
       "    diff = tf.abs((y_true - y_pred) / tf.maximum(tf.abs(y_true), epsilon))\n",
       "    diff = tf.abs((y_true - y_pred) / tf.maximum(tf.abs(y_pred), epsilon))\n",
       "mean_absolute_percentage_error divides by the prediction instead of the target"),
    _t("mean-metric-temporal-weights-summed", "denominator", "simdist/keras/metrics/reduction_metrics.py",
       "            sample_weight = reduce_fn(sample_weight, axis=list(range(1, weight_ndim)))\n",
       "            sample_weight = ops.sum(sample_weight, axis=list(range(1, weight_ndim)))\n",
       "a Mean-style metric given per-timestep (rank-2) sample weights counts the sum of each sample's step weights "
       "in its denominator instead of their mean"),
    _t("rmse-ranks-not-matched", "axis", "simdist/keras/metrics/regression_metrics.py",
       "        y_pred = ops.convert_to_tensor(y_pred, self._dtype)\n"
       "        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)\n"
       "        super().update_state(tf.square(y_pred - y_true), sample_weight=sample_weight)\n",
       "        y_pred = ops.convert_to_tensor(y_pred, self._dtype)\n"
       "        super().update_state(tf.square(y_pred - y_true), sample_weight=sample_weight)\n",
       "RootMeanSquaredError does not match the ranks of (n,) targets and (n, 1) predictions: the difference "
       "broadcasts to (n, n)"),
    _t("mape-metric-direction-up", "boundary", "simdist/keras/metrics/regression_metrics.py",
       "        super().__init__(mean_absolute_percentage_error, name, dtype=dtype)\n        self._direction = \"down\"\n",
       "        super().__init__(mean_absolute_percentage_error, name, dtype=dtype)\n        self._direction = \"up\"\n",
       "MeanAbsolutePercentageError declares itself maximised: mode='auto' callbacks (EarlyStopping, "
       "ModelCheckpoint) watching it keep the worst epoch"),
    # -- mainstream: fit options, strategies
    _t("validation-batch-size-ignored", "boundary", "simdist/keras/trainers/trainer.py",
       "                        batch_size=validation_batch_size or batch_size, steps_per_epoch=validation_steps,\n",
       "                        batch_size=batch_size, steps_per_epoch=validation_steps,\n",
       "fit's validation pass batches by batch_size, ignoring validation_batch_size"),
    _t("evaluate-list-sorted-by-name", "order", "simdist/keras/trainers/trainer.py",
       "        results = [logs[name] for name in metric_names if name in logs]\n"
       "        results += [logs[key] for key in sorted(logs.keys()) if key not in metric_names]\n",
       "        results = [logs[key] for key in sorted(logs.keys())]\n",
       "evaluate/train_on_batch/test_on_batch return their list of results in sorted name order instead of "
       "the model's metrics order (loss first, then the compiled metrics)"),
    _t("mwms-predict-concat-worker-major", "order", "simdist/keras/trainers/trainer.py",
       "    for replica_id in range(per_worker):\n        ordered += parts[replica_id::per_worker]\n",
       "    ordered += parts\n",
       "predict under MultiWorkerMirroredStrategy concatenates the gathered replicas worker by worker instead of "
       "Keras's (local replica, worker) order"),
    _t("conv-transpose-valid-output-padding-zero", "boundary", "simdist/keras/layers/conv_transpose.py",
       "            output_padding = max(kernel_size, stride) - kernel_size\n",
       "            output_padding = 0\n",
       "a 'valid' transposed convolution without output_padding pads 0 instead of max(kernel, stride) - kernel: "
       "with strides larger than the kernel the output is too short"),
    # -- around training: callbacks and History
    _t("reduce-lr-learning-rate-not-logged", "order", "simdist/keras/callbacks/reduce_lr_on_plateau.py",
       "        logs = logs or {}\n        log_learning_rates(self.model.optimizer, logs)\n",
       "        logs = logs or {}\n",
       "ReduceLROnPlateau never writes learning_rate into the epoch's logs (History has no learning_rate)"),
    _t("callback-list-user-history-replaced", "state", "simdist/keras/callbacks/callback_list.py",
       "            elif isinstance(cb, History):\n                self._history = cb\n",
       "",
       "a History passed in callbacks is not recognised: fit adds its own and returns (and sets model.history "
       "to) that one instead of the user's"),
    _t("validation-freq-list-zero-based", "boundary", "simdist/keras/trainers/trainer.py",
       "        if isinstance(validation_freq, list):\n            return epoch in validation_freq\n",
       "        if isinstance(validation_freq, list):\n            return epoch - 1 in validation_freq\n",
       "validation_freq given as a list counts epochs from 0: [1, 3] validates after the 2nd and 4th epochs"),
    # -- around training: tf.data
    _t("batch-spec-fixed-without-drop-remainder", "boundary", "simdist/runtime/data/batching.py",
       "        dim = batch_size if drop_remainder else None\n"
       "        spec = map_structure(lambda s: s._batch(dim), input_dataset.element_spec)\n",
       "        dim = batch_size\n"
       "        spec = map_structure(lambda s: s._batch(dim), input_dataset.element_spec)\n",
       "Dataset.batch's element_spec has a fixed batch dimension even without drop_remainder (TF: None)"),
    _t("range-cardinality-floor-division", "boundary", "simdist/runtime/data/sources.py",
       "        return _wrap64(_cdiv(diff - 1, step) + 1)\n",
       "        return _wrap64(_cdiv(diff, step))\n",
       "Dataset.range(start, stop, step)'s cardinality floors (stop - start) / step: range(0, 10, 3) reports 3 "
       "elements and yields 4"),
    _t("enumerate-start-ignored", "boundary", "simdist/runtime/data/dataset.py",
       "        return _ZipDataset((_RangeDataset(_int_arg(start), _INT64_MAX, 1, dtypes.int64), self))\n",
       "        return _ZipDataset((_RangeDataset(0, _INT64_MAX, 1, dtypes.int64), self))\n",
       "Dataset.enumerate(start=k) counts from 0 whatever start is"),
    _t("unbatch-cardinality-not-multiplied", "boundary", "simdist/runtime/data/batching.py",
       "        return n * dims[0] if dims else UNKNOWN_CARDINALITY\n",
       "        return n if dims else UNKNOWN_CARDINALITY\n",
       "Dataset.unbatch's cardinality is the number of batches, not batches times the known batch size"),
    # -- around training: schedules
    _t("polynomial-cycle-step-capped", "boundary", "simdist/keras/optimizers/schedules.py",
       "            decay_steps_recomp = ops.multiply(decay_steps_recomp, multiplier)\n        else:\n"
       "            global_step_recomp = ops.minimum(global_step_recomp, decay_steps_recomp)\n",
       "            decay_steps_recomp = ops.multiply(decay_steps_recomp, multiplier)\n"
       "        global_step_recomp = ops.minimum(global_step_recomp, ops.cast(self.decay_steps, dtype))\n",
       "PolynomialDecay(cycle=True) still caps the step at decay_steps, so after the first cycle the rate sticks "
       "at the cycle's midpoint value instead of restarting"),
    _t("cosine-warmup-decay-not-offset", "boundary", "simdist/keras/optimizers/schedules.py",
       "                       lambda: self._decay_function(global_step_recomp - warmup_steps, decay_steps, warmup_target,\n",
       "                       lambda: self._decay_function(global_step_recomp, decay_steps, warmup_target,\n",
       "CosineDecay with warmup starts its cosine at step 0, not at the end of the warmup (the decay is "
       "warmup_steps ahead)"),
    _t("cosine-restarts-m-mul-ignored", "formula", "simdist/keras/optimizers/schedules.py",
       "        cosine_decayed = 0.5 * m_fac * (1.0 + ops.cos(",
       "        cosine_decayed = 0.5 * (1.0 + ops.cos(",
       "CosineDecayRestarts ignores m_mul: every restart starts at the initial rate"),
]
TRAINING += TRAINING_BATCH13
CATALOGUE += TRAINING_BATCH13
# -- Keras image preprocessing layers (kprep, fourteenth session) ------------------------------------
_IMG = "simdist/keras/layers/preprocessing/image/"
TRAINING_KPREP: list[Mutant] = [
    _t("image-affine-rotation-sign", "formula", _IMG + "base.py",
       "        a1 = scale * (-sin_theta + shear_x * cos_theta)\n",
       "        a1 = scale * (sin_theta + shear_x * cos_theta)\n",
       "the image layers' affine matrix takes +sin for the x row's y coefficient (a rotation becomes a shear-mirror)"),
    _t("random-flip-axes-swapped", "axis", _IMG + "random_flip.py",
       "        horizontal_axis, vertical_axis = (-2, -3) if self.data_format == \"channels_last\" else (-1, -2)\n",
       "        horizontal_axis, vertical_axis = (-3, -2) if self.data_format == \"channels_last\" else (-2, -1)\n",
       "RandomFlip's \"horizontal\" mode mirrors the rows (height) and \"vertical\" the columns"),
    _t("random-contrast-mean-over-height-only", "axis", _IMG + "random_contrast.py",
       "        mean = np_.mean(np_.mean(images, axis=height_axis, keepdims=True), axis=width_axis, keepdims=True)\n",
       "        mean = np_.mean(images, axis=height_axis, keepdims=True)\n",
       "RandomContrast scales about each column's mean instead of the image's per-channel mean"),
    _t("random-translation-shift-sign", "formula", _IMG + "random_translation.py",
       "ones((n, 1)), zeros((n, 1)), -translations[:, 0:1], zeros((n, 1)),",
       "ones((n, 1)), zeros((n, 1)), translations[:, 0:1], zeros((n, 1)),",
       "RandomTranslation shifts horizontally the other way (the matrix's x offset is +dx)"),
    _t("center-crop-start-rounds-up", "boundary", _IMG + "center_crop.py",
       "            rows = slice(h_diff // 2, h_diff // 2 + self.height)\n",
       "            rows = slice((h_diff + 1) // 2, (h_diff + 1) // 2 + self.height)\n",
       "CenterCrop starts an odd height difference's window one row lower than Keras ((d + 1) // 2)"),
    _t("auto-contrast-over-channels-too", "axis", _IMG + "auto_contrast.py",
       "        low = np_.min(images, axis=(1, 2), keepdims=True)\n",
       "        low = np_.min(images, axis=(1, 2, 3), keepdims=True)\n",
       "AutoContrast takes each image's minimum over all channels instead of per channel"),
]
TRAINING += TRAINING_KPREP
CATALOGUE += TRAINING_KPREP

# -- Fifteenth session (cov14b): realistic bugs on lines the suite first executed in the coverage pass of
# the strategies and distributed training (docs/conformance.md, "Fifteenth session: suite coverage of
# strategies and distributed training"); each is killed by a cov14 suite module (test_cov14_strategies.py,
# test_cov14_input.py, test_cov14_mwms.py, test_cov14_coordinator.py).
_DV = "simdist/strategies/dist_variables.py"
TRAINING_COV14B: list[Mutant] = [
    _t("cov14b-scatter-update-of-sum-variable-allowed", "missing-error", _DV,
       "        if method in (\"scatter_update\", \"scatter_min\", \"scatter_max\") and self.aggregation not in (\n",
       "        if method in (\"scatter_min\", \"scatter_max\") and self.aggregation not in (\n",
       "a SUM/MEAN MirroredVariable's scatter_update is applied instead of raising NotImplementedError"),
    _t("cov14b-replica-scatter-mean-not-divided", "denominator", _DV,
       "            v = _reduce_slices(ReduceOp.from_variable_aggregation(agg), "
       "list(strategy.experimental_local_results(merged)))\n",
       "            v = _reduce_slices(ReduceOp.SUM, list(strategy.experimental_local_results(merged)))\n",
       "a replica-context scatter of a MEAN variable applies the replicas' slices summed, not averaged"),
    _t("cov14b-device-scoped-read-gives-primary", "placement", _DV,
       "        rid = _replica_id(self._distribute_strategy)\n        if rid is None:\n            rid = _update_state.replica\n"
       "            if rid is None:\n                dev = context.scoped_device()\n",
       "        rid = _replica_id()\n        if rid is None:\n            rid = _update_state.replica\n"
       "            if rid is None:\n                dev = context.scoped_device()\n",
       "outside any scope a MirroredVariable read under tf.device(d) gives copy 0 (the default replica context's "
       "id) instead of the copy on d"),
    _t("cov14b-distributed-cardinality-of-rebatched-pipeline", "state", "simdist/strategies/input.py",
       "        return self._cardinality\n",
       "        return np.int64(self._pipes[0].dataset._card())\n",
       "DistributedDataset.cardinality reports the rewritten (rebatched, prefetched) pipeline's cardinality, not "
       "the source dataset's"),
    _t("cov14b-per-replica-contexts-count-workers", "denominator", "simdist/strategies/input.py",
       "            input_contexts = [InputContext(len(slots), k, num_replicas) for k in range(len(slots))]\n",
       "            input_contexts = [InputContext(w, k, num_replicas) for k in range(len(slots))]\n",
       "PER_REPLICA input: each dataset_fn's InputContext says one pipeline per worker instead of one per replica"),
    _t("cov14b-reduce-bool-axis-refused", "error-class", "simdist/semantics/reduce.py",
       "    if not isinstance(axis, (int, np.integer, tuple, list)):\n",
       "    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer, tuple, list)):\n",
       "strategy.reduce(op, v, axis=True) raises TypeError where TF reduces along axis 1"),
    _t("cov14b-session-master-only-without-arguments", "state", "simdist/strategies/cluster_resolver.py",
       "        if cfg.get(\"session_master\") is not None:\n",
       "        if task_type is None and task_id is None and cfg.get(\"session_master\") is not None:\n",
       "TFConfigClusterResolver.master(task_type, task_id) ignores TF_CONFIG's session_master"),
    _t("cov14b-reduce-to-variable-single-value", "boundary", "simdist/strategies/base.py",
       "        if isinstance(out, Tensor) and isinstance(dests, (list, tuple)) and len(dests) > 1:\n",
       "        if isinstance(out, Tensor) and isinstance(dests, (list, tuple)) and len(dests) > 2:\n",
       "extended.reduce_to(op, value, destinations=mirrored variable) over two devices returns one tensor, not a "
       "Mirrored value with a copy per device"),
    _t("cov14b-mwms-value-context-local-ids", "state", "simdist/strategies/multi_worker.py",
       "value_fn(ValueContext(self._extended._id_in_cluster * local + i, n))",
       "value_fn(ValueContext(i, n))",
       "MWMS experimental_distribute_values_from_function gives each worker's replicas local ids (0..) instead of "
       "their global replica ids"),
    _t("cov14b-remote-namedtuple-becomes-tuple", "state", "simdist/strategies/remote_value.py",
       "        return type(x)(*[_map(v, fn) for v in x])\n",
       "        return tuple(_map(v, fn) for v in x)\n",
       "RemoteValue.fetch/get of a namedtuple result returns a plain tuple"),
]
TRAINING += TRAINING_COV14B
CATALOGUE += TRAINING_COV14B
# -- Fifteenth session (2026-12-01): suite coverage of Keras optimizers, schedules and mixed
# precision (cov14d; docs/conformance.md, "Fifteenth session: suite coverage of Keras optimizers,
# schedules and mixed precision"): 10 mutants on lines the suite first ran then, each killed by
# suite/test_cov14_optimizers.py.
TRAINING_COV14D: list[Mutant] = [
    _t("cov14d-adam-build-twice-recreates-slots", "state", "simdist/keras/optimizers/adam.py",
       "        if self.built:\n            return\n        super().build(var_list)\n",
       "        super().build(var_list)\n",
       "a second Adam.build (after a step) adds fresh zero slots instead of returning at once"),
    _t("cov14d-overwrite-accumulates-sum", "formula", "simdist/keras/optimizers/base_optimizer.py",
       "        running = ops.maximum(grad, _read(acc))\n",
       "        running = ops.add(grad, _read(acc))\n",
       "an overwrite_with_gradient variable under gradient accumulation takes the sum of the gradients, not "
       "Keras's running maximum"),
    _t("cov14d-overwrite-accumulator-not-reset", "state", "simdist/keras/optimizers/base_optimizer.py",
       "        acc.assign(tf.where(is_update_step, tf.zeros_like(running), running))\n",
       "        acc.assign(running)\n",
       "an overwrite_with_gradient variable's accumulator keeps its maximum across update steps"),
    _t("cov14d-lso-lr-setter-sets-own", "state", "simdist/keras/optimizers/loss_scale_optimizer.py",
       "            return\n        self.inner_optimizer.learning_rate = learning_rate\n",
       "            return\n        Optimizer.learning_rate.fset(self, learning_rate)   # type: ignore[attr-defined]\n",
       "setting LossScaleOptimizer.learning_rate sets its own unused variable, not the inner optimizer's"),
    _t("cov14d-lso-config-drops-growth-steps", "state", "simdist/keras/optimizers/loss_scale_optimizer.py",
       "                \"initial_scale\": self.initial_scale, \"dynamic_growth_steps\": self.dynamic_growth_steps}\n",
       "                \"initial_scale\": self.initial_scale}\n",
       "LossScaleOptimizer.get_config leaves out dynamic_growth_steps (from_config then grows every 2000 steps)"),
    _t("cov14d-lso-finalize-not-delegated", "state", "simdist/keras/optimizers/loss_scale_optimizer.py",
       "        self.inner_optimizer.finalize_variable_values(var_list)\n",
       "        super().finalize_variable_values(var_list)\n",
       "LossScaleOptimizer.finalize_variable_values runs its own (no EMA) instead of the inner optimizer's"),
    _t("cov14d-sparse-divide-zero-rows-ignored", "boundary", "simdist/keras/optimizers/_ops.py",
       "    bad = tf.equal(d, tf.zeros_like(d))\n",
       "    bad = tf.less(d, tf.zeros_like(d))\n",
       "sparse division by a dense tensor ignores its zero rows (Keras joins them: the untouched rows become NaN)"),
    _t("cov14d-muon-adamw-decay-uses-weight-decay", "formula", "simdist/keras/optimizers/muon.py",
       "            value = self.adam_weight_decay if self._should_use_adamw(variable) else self.weight_decay\n",
       "            value = self.weight_decay\n",
       "Muon decays the AdamW-path variables with weight_decay instead of adam_weight_decay"),
    _t("cov14d-policy-default-floatx-not-global", "state", "simdist/keras/dtype_policies.py",
       "        if name is None:\n            name = dtype_policy().name\n",
       "        if name is None:\n            name = floatx()\n",
       "DTypePolicy() without a name takes floatx instead of the global policy's name"),
    _t("cov14d-nested-layer-keeps-outer-autocast", "state", "simdist/keras/layers/layer.py",
       "                    elif scope.dtype != self.compute_dtype:\n"
       "                        new_scope = dtype_policies.AutocastScope(self.compute_dtype)\n",
       "",
       "a layer called inside another layer's autocast scope of a different compute dtype reads its variables "
       "in the outer dtype"),
]
TRAINING += TRAINING_COV14D
CATALOGUE += TRAINING_COV14D
# -- Fifteenth session (cov14a): realistic bugs on lines the suite first executed then ---------------------------
# (docs/conformance.md, "Fifteenth session: suite coverage of op gradients and autodiff"); each is killed by the
# cov14a suite modules (test_cov14_gradients.py, test_cov14_autodiff.py).
TRAINING_COV14A: list[Mutant] = [
    _t("cov14a-cast-slices-keep-upstream-dtype", "dtype", "simdist/runtime/ops/math.py",
       "            return [IndexedSlices(cast(grad.values, src), grad.indices, grad.dense_shape)]\n",
       "            return [IndexedSlices(grad.values, grad.indices, grad.dense_shape)]\n",
       "Cast's gradient passes IndexedSlices on in the cast's output dtype (float64 values for a float32 source)"),
    _t("cov14a-concat-slices-inner-axis-no-offset", "axis", "simdist/runtime/ops/array.py",
       "            out.append(IndexedSlices(values, grad.indices, shape(x)))\n            begin += size\n",
       "            out.append(IndexedSlices(values, grad.indices, shape(x)))\n",
       "concat along an inner axis hands every input the first input's columns of an IndexedSlices gradient"),
    _t("cov14a-transpose-grad-accepts-negative-perm", "missing-error", "simdist/runtime/ops/array.py",
       "    for d in perm:\n        if not 0 <= d < len(perm):\n",
       "    for d in perm:\n        if not -len(perm) <= d < len(perm):\n",
       "Transpose's gradient accepts a negative perm entry, where TF's InvertPermutation raises InvalidArgumentError"),
    _t("cov14a-complex-matmul-grad-no-conj", "gradient", "simdist/runtime/ops/linalg.py",
       "        a, b = conj_of(a), conj_of(b)\n",
       "        a, b = a, b\n",
       "complex matmul's gradient uses the operands themselves, not their conjugates (f'(z), not conj(f'(z)))"),
    _t("cov14a-complex-prod-grad-no-conj", "gradient", "simdist/runtime/ops/reductions.py",
       "        left, right = conj(left), conj(right)\n",
       "        left, right = left, right\n",
       "complex reduce_prod's gradient multiplies the exclusive products without conjugating them"),
    _t("cov14a-einsum-reduced-labels-after-output", "axis", "simdist/runtime/ops/einsum.py",
       "    lhs = reduced + out + (\",\" + os if other is not None else \"\")\n",
       "    lhs = out + reduced + (\",\" + os if other is not None else \"\")\n",
       "einsum's gradient labels the broadcast gradient out+reduced while its axes are reduced+out"),
    _t("cov14a-sparse-xent-no-second-order", "gradient", "simdist/runtime/ops/losses.py",
       "        grad = grad + _softmax_second_order(op.inputs[0], grad_grad)\n    return [grad, None]\n",
       "        grad = grad\n    return [grad, None]\n",
       "sparse softmax cross-entropy's gradient drops the gradient that reaches its backprop output (second order 0)"),
    _t("cov14a-trainable-ref-names-not-stripped", "dtype", "simdist/runtime/autodiff/gradient_args.py",
       "        name = x.removesuffix(\"_ref\")\n",
       "        name = x\n",
       "a '*_ref' dtype name as a gradient target counts as non-trainable (AttributeError 'dtype', TF: '_id')"),
    _t("cov14a-graph-gradients-read-not-mapped", "state", "simdist/runtime/autodiff/graph_gradients.py",
       "            tape.tensor_tape[id(t)] = k\n            reached.add(id(t))\n            continue\n",
       "            reached.add(id(t))\n            continue\n",
       "tf.gradients records a variable read but maps no tensor to it: variables among xs get no gradient"),
    _t("cov14a-crop-boxes-one-row-full-height", "denominator", "simdist/runtime/ops/image_crop_resize.py",
       "                    terms[0].append(gy.astype(np.float64) * 0.5 * (h - 1))\n",
       "                    terms[0].append(gy.astype(np.float64) * (h - 1))\n",
       "crop_and_resize's boxes gradient for a one-row crop weighs y1 by h - 1 instead of (h - 1) / 2 (the centre)"),
]
TRAINING += TRAINING_COV14A
CATALOGUE += TRAINING_COV14A
# -- Fifteenth session, cov14c (2026-12-01): 10 realistic mutants on lines of the Keras layers,
# losses and metrics that the suite first executed with simdist/conformance/suite/test_cov14_layers.py
# and test_cov14_losses_metrics.py (docs/conformance.md, "Fifteenth session: suite coverage of
# Keras layers, losses and metrics").
TRAINING_COV14C: list[Mutant] = [
    _t("cov14c-auc-multi-label-sum-not-mean", "formula", "simdist/keras/metrics/confusion_metrics.py",
       "        if self.multi_label:\n            by_label_auc = ops.sum(riemann_terms, axis=0)\n"
       "            if self.label_weights is None:\n                return ops.mean(by_label_auc)\n",
       "        if self.multi_label:\n            by_label_auc = ops.sum(riemann_terms, axis=0)\n"
       "            if self.label_weights is None:\n                return ops.sum(by_label_auc)\n",
       "AUC(multi_label=True) without label_weights sums the per-label AUCs instead of averaging them"),
    _t("cov14c-prgain-precision-gain-zero-at-no-tp", "boundary", "simdist/keras/metrics/confusion_metrics.py",
       "tf.where(tf.equal(tps, 0.0), tf.ones_like(precision_gain), precision_gain)",
       "tf.where(tf.equal(tps, 0.0), tf.zeros_like(precision_gain), precision_gain)",
       "AUC(curve='PRGAIN') sets the precision gain to 0 instead of 1 at thresholds with no true positive"),
    _t("cov14c-auc-label-weights-dropped-without-sample-weight", "state", "simdist/keras/metrics/metrics_utils.py",
       "        weights_tiled = label_weights_tiled if weights_tiled is None else",
       "        weights_tiled = None if weights_tiled is None else",
       "AUC(label_weights=...) with uneven thresholds ignores the label weights when no sample_weight is given"),
    _t("cov14c-renorm-without-gamma-ignores-r", "formula", "simdist/keras/layers/normalization.py",
       "            effective_gamma, effective_beta = tf.cast(r, dtype), tf.cast(d, dtype)\n",
       "            effective_gamma, effective_beta = tf.ones_like(tf.cast(r, dtype)), tf.cast(d, dtype)\n",
       "BatchNormalization(renorm=True, scale=False) drops the renorm correction r (scales by 1)"),
    _t("cov14c-bidirectional-ave-precedence", "formula", "simdist/keras/layers/bidirectional.py",
       "            output = (y + y_rev) / 2\n",
       "            output = y + y_rev / 2\n",
       "Bidirectional(merge_mode='ave') halves only the backward output (operator precedence)"),
    _t("cov14c-bidirectional-states-backward-first", "order", "simdist/keras/layers/bidirectional.py",
       "            states = tuple(y[1:]) + tuple(y_rev[1:])\n",
       "            states = tuple(y_rev[1:]) + tuple(y[1:])\n",
       "Bidirectional(return_state=True) returns the backward states before the forward ones"),
    _t("cov14c-merge-broadcast-keeps-size-1", "boundary", "simdist/keras/layers/merging.py",
       "            elif i == 1:\n                out.append(j)\n",
       "            elif i == 1:\n                out.append(i)\n",
       "Add/Multiply's output shape keeps the first input's size-1 dim instead of broadcasting it"),
    _t("cov14c-selu-as-elu", "formula", "simdist/keras/activations.py",
       "    return tf.nn.selu(_t(x))\n",
       "    return tf.nn.elu(_t(x))\n",
       "keras.activations.selu computes elu (no scale, alpha 1)"),
    _t("cov14c-time-distributed-first-step-mask", "order", "simdist/keras/layers/time_distributed.py",
       "                kwargs[\"mask\"] = masks[i]\n",
       "                kwargs[\"mask\"] = masks[0]\n",
       "TimeDistributed hands every step the first step's mask slice instead of its own"),
    _t("cov14c-embedding-float-ids-rounded", "formula", "simdist/keras/layers/core.py",
       "            inputs = tf.cast(inputs, tf.int32)\n",
       "            inputs = tf.cast(tf.round(inputs), tf.int32)\n",
       "Embedding rounds float ids to the nearest integer instead of truncating them (Keras's cast)"),
]
TRAINING += TRAINING_COV14C
CATALOGUE += TRAINING_COV14C

# -- blind batch 14 (fifteenth session): written from the source alone, before reading any suite test ----
TRAINING_BATCH14: list[Mutant] = [
    # -- mainstream: optimizers
    _t("lion-momentum-updated-before-step", "order", "simdist/keras/optimizers/lion.py",
       "        self.assign_sub(variable, ops.multiply(lr, ops.sign(ops.add(ops.multiply(m, beta_1),\n"
       "                                                                    ops.multiply(gradient, (1.0 - beta_1))))))\n"
       "        self.assign(m, ops.add(ops.multiply(m, beta_2), ops.multiply(gradient, (1.0 - beta_2))))\n",
       "        self.assign(m, ops.add(ops.multiply(m, beta_2), ops.multiply(gradient, (1.0 - beta_2))))\n"
       "        self.assign_sub(variable, ops.multiply(lr, ops.sign(ops.add(ops.multiply(m, beta_1),\n"
       "                                                                    ops.multiply(gradient, (1.0 - beta_1))))))\n",
       "Lion updates its momentum (beta_2) before taking the sign step, so the step interpolates with the new "
       "momentum instead of the previous one (same on step 1, different once gradients change sign)"),
    _t("adamax-bias-correction-dropped", "formula", "simdist/keras/optimizers/adamax.py",
       "                                             ops.multiply((1 - beta_1_power), ops.add(u, self.epsilon))))\n",
       "                                             ops.add(u, self.epsilon)))\n",
       "Adamax forgets the first moment's bias correction 1 / (1 - beta_1^t): its early steps are ~10x too small"),
    _t("ftrl-accumulator-squares-shrunk-gradient", "formula", "simdist/keras/optimizers/ftrl.py",
       "        new_accum = ops.add(accum, ops.square(gradient))\n",
       "        new_accum = ops.add(accum, ops.square(grad_to_use))\n",
       "Ftrl with l2_shrinkage_regularization_strength accumulates the square of the shrinkage-adjusted gradient "
       "instead of the raw gradient's"),
    # -- mainstream: losses and metrics
    _t("focal-class-balancing-alpha-swapped", "formula", "simdist/keras/losses/probabilistic_losses.py",
       "        weight = y_true * alpha + (1 - y_true) * (1 - alpha)\n",
       "        weight = y_true * (1 - alpha) + (1 - y_true) * alpha\n",
       "BinaryFocalCrossentropy(apply_class_balancing=True) weighs the positives by 1 - alpha and the negatives by "
       "alpha (the other paper convention)"),
    _t("squared-hinge-labels-not-mapped", "formula", "simdist/keras/losses/hinge_losses.py",
       "    y_true = convert_binary_labels_to_hinge(ops.cast(y_true, y_pred.dtype))\n"
       "    return ops.mean(tf.square(tf.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)\n",
       "    y_true = ops.cast(y_true, y_pred.dtype)\n"
       "    return ops.mean(tf.square(tf.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)\n",
       "squared_hinge does not map 0/1 labels to -1/1 (hinge does): a 0 label contributes 1 whatever the score"),
    _t("cosine-similarity-loss-axis-ignored", "axis", "simdist/keras/losses/regression_losses.py",
       "    y_pred = ops.l2_normalize(y_pred, axis=axis)\n    y_true = ops.l2_normalize(y_true, axis=axis)\n",
       "    y_pred = ops.l2_normalize(y_pred, axis=-1)\n    y_true = ops.l2_normalize(y_true, axis=-1)\n",
       "cosine_similarity(axis=k) normalises along the last axis whatever axis says (the sum still runs over k)"),
    _t("auc-from-logits-ignored", "formula", "simdist/keras/metrics/confusion_metrics.py",
       "        if self._from_logits:\n            y_pred = tf.sigmoid(ops.convert_to_tensor(y_pred))\n",
       "        if self._from_logits and self.multi_label:\n            y_pred = tf.sigmoid(ops.convert_to_tensor(y_pred))\n",
       "AUC(from_logits=True) applies the sigmoid only in multi-label mode: single-label logits are thresholded "
       "as probabilities"),
    # -- mainstream: layers and op gradients
    _t("grouped-conv-channels-round-robin", "axis", "simdist/runtime/ops/conv.py",
       "    return cols.reshape(p, k, groups, -1).transpose(2, 0, 1, 3).reshape(groups, p, -1)\n",
       "    return cols.reshape(p, k, -1, groups).transpose(3, 0, 1, 2).reshape(groups, p, -1)\n",
       "a grouped convolution (Conv2D(groups=g)) deals the input channels to the groups round-robin instead of in "
       "contiguous blocks"),
    _t("grad-softplus-of-output", "gradient", "simdist/runtime/ops/activations.py",
       "    return [grad * sigmoid(op.inputs[0])]\n",
       "    return [grad * sigmoid(op.outputs[0])]\n",
       "softplus's gradient takes the sigmoid of the output softplus(x) instead of the input x"),
    _t("rnn-stateful-states-not-carried", "state", "simdist/keras/layers/rnn.py",
       "        if self.stateful:\n            for variable, state in zip(tf.nest.flatten(self.states), "
       "tf.nest.flatten(states)):\n                variable.assign(state)\n",
       "        if self.stateful and self.return_state:\n            for variable, state in zip("
       "tf.nest.flatten(self.states), tf.nest.flatten(states)):\n                variable.assign(state)\n",
       "a stateful RNN keeps its final states for the next batch only when it also returns them (return_state)"),
    # -- mainstream: the tape, strategies, fit
    _t("tape-duplicate-targets-seeded-once", "gradient", "simdist/runtime/autodiff/backprop.py",
       "        gradients.setdefault(k, []).append(g)\n\n    # 3. the ops",
       "        gradients[k] = [g]\n\n    # 3. the ops",
       "tape.gradient([y, y], x) (a target listed twice, or a target that is also summed in another) seeds it "
       "once: the gradient of the targets' sum counts it once"),
    _t("compute-average-loss-local-batch", "denominator", "simdist/runtime/ops/losses.py",
       "        global_batch_size = loss.shape.as_list()[0] * _num_replicas()\n",
       "        global_batch_size = loss.shape.as_list()[0]\n",
       "tf.nn.compute_average_loss without global_batch_size divides by the replica's own batch, not times "
       "num_replicas_in_sync: a custom loop's summed gradients are R times too large"),
    _t("scale-regularization-loss-not-divided", "denominator", "simdist/runtime/ops/losses.py",
       "        return math.truediv(total, _num_replicas())\n",
       "        return total\n",
       "tf.nn.scale_regularization_loss sums the losses without dividing by num_replicas_in_sync"),
    _t("kld-targets-not-clipped", "formula", "simdist/keras/losses/probabilistic_losses.py",
       "    y_true = ops.clip(y_true, config.epsilon(), 1)\n    y_pred = ops.clip(y_pred, config.epsilon(), 1)\n",
       "    y_pred = ops.clip(y_pred, config.epsilon(), 1)\n",
       "kl_divergence clips only the predictions: a zero target gives 0 * log(0) = NaN instead of ~0"),
    _t("ema-finalize-only-with-overwrite-frequency", "state", "simdist/keras/optimizers/base_optimizer.py",
       "        if self.use_ema:\n            self._overwrite_model_variables_with_average_value(var_list)\n",
       "        if self.use_ema and self.ema_overwrite_frequency:\n"
       "            self._overwrite_model_variables_with_average_value(var_list)\n",
       "fit's end (finalize_variable_values) swaps in the EMA weights only when ema_overwrite_frequency is set: "
       "use_ema=True alone leaves the raw weights"),
    # -- around training: tf.data
    _t("shard-cardinality-remainder-inclusive", "boundary", "simdist/runtime/data/shard.py",
       "        return _cdiv(n, shards) + (1 if index < _cmod(n, shards) else 0)\n",
       "        return _cdiv(n, shards) + (1 if index <= _cmod(n, shards) else 0)\n",
       "shard's cardinality gives the shard whose index equals n % num_shards one element too many"),
    _t("concatenate-cardinality-unknown-before-infinite", "order", "simdist/runtime/data/combine.py",
       "        if INFINITE_CARDINALITY in (n, m):\n            return INFINITE_CARDINALITY\n"
       "        if UNKNOWN_CARDINALITY in (n, m):\n            return UNKNOWN_CARDINALITY\n",
       "        if UNKNOWN_CARDINALITY in (n, m):\n            return UNKNOWN_CARDINALITY\n"
       "        if INFINITE_CARDINALITY in (n, m):\n            return INFINITE_CARDINALITY\n",
       "concatenate of an unknown-cardinality dataset (a filter) and an infinite one reports unknown instead of "
       "infinite"),
    _t("padded-batch-pads-before", "placement", "simdist/runtime/data/batching.py",
       "                arr[(j,) + tuple(slice(0, a) for a in c.shape)] = c\n",
       "                arr[(j,) + tuple(slice(t - a, t) for a, t in zip(c.shape, target))] = c\n",
       "padded_batch puts the padding before each element (left-pads) instead of after it"),
    _t("filter-cardinality-keeps-input", "boundary", "simdist/runtime/data/map_filter.py",
       "    def _card(self) -> int:\n        return UNKNOWN_CARDINALITY\n\n\nclass _FlatMapFnDataset",
       "    def _card(self) -> int:\n        return self._input._card()\n\n\nclass _FlatMapFnDataset",
       "filter's cardinality is its input's (copied from map) instead of unknown"),
    _t("take-cardinality-not-capped", "boundary", "simdist/runtime/data/counting.py",
       "        return min(n, count)   # TF returns a negative count < -1 as is\n",
       "        return count\n",
       "take(k) of a finite dataset shorter than k reports k elements"),
    _t("dataset-options-first-input-only", "state", "simdist/runtime/data/dataset.py",
       "        for inp in self._inputs:\n            out = out.merge(inp.options())\n",
       "        for inp in self._inputs[:1]:\n            out = out.merge(inp.options())\n",
       "ds.options() of a zip or concatenate merges only the first input's options (the others' are lost)"),
    # -- around training: callbacks, History, bookkeeping
    _t("callback-params-steps-from-argument", "state", "simdist/keras/trainers/trainer.py",
       "                                                      verbose=verbose, epochs=epochs,\n"
       "                                                      steps=epoch_iterator.num_batches, model=self)\n",
       "                                                      verbose=verbose, epochs=epochs,\n"
       "                                                      steps=steps_per_epoch, model=self)\n",
       "fit's callbacks get params['steps'] from the steps_per_epoch argument (None without it) instead of the "
       "number of batches the data gives"),
    _t("history-epoch-not-reset-per-fit", "state", "simdist/keras/callbacks/history.py",
       "    def on_train_begin(self, logs: Any = None) -> None:\n        self.epoch = []\n",
       "    def on_train_begin(self, logs: Any = None) -> None:\n        self.epoch = self.epoch\n",
       "a History reused for a second fit (model.fit(callbacks=[h]) twice) keeps the first fit's epoch indices in "
       "h.epoch (Keras resets epoch, and keeps appending to history)"),
    _t("cosine-decay-alpha-not-rescaled", "formula", "simdist/keras/optimizers/schedules.py",
       "        decayed = (1 - self.alpha) * cosine_decayed + self.alpha\n",
       "        decayed = cosine_decayed + self.alpha\n",
       "CosineDecay(alpha=a) adds the floor a to the cosine without rescaling it by 1 - a: the rate starts at "
       "(1 + a) * lr0"),
    _t("checkpoint-filepath-epoch-zero-based", "boundary", "simdist/keras/callbacks/model_checkpoint.py",
       "                return self.filepath.format(epoch=epoch + 1, **logs)\n",
       "                return self.filepath.format(epoch=epoch, **logs)\n",
       "ModelCheckpoint formats {epoch} in its filepath 0-based (the first epoch's file is ...00)"),
    _t("csv-logger-keys-insertion-order", "order", "simdist/keras/callbacks/csv_logger.py",
       "            self.keys = sorted(logs.keys())\n",
       "            self.keys = list(logs.keys())\n",
       "CSVLogger writes its columns in the logs' order instead of Keras's sorted order"),
    _t("evaluate-stop-evaluating-ignored", "state", "simdist/keras/trainers/trainer.py",
       "                callbacks.on_test_batch_end(end_step, logs)\n                if self.stop_evaluating:\n"
       "                    break\n",
       "                callbacks.on_test_batch_end(end_step, logs)\n",
       "evaluate never looks at model.stop_evaluating: a callback cannot end the evaluation early"),
    _t("count-params-trainable-only", "state", "simdist/keras/layers/layer.py",
       "        return int(sum(int(np.prod(v.shape.as_list())) for v in self.weights))\n",
       "        return int(sum(int(np.prod(v.shape.as_list())) for v in self.trainable_weights))\n",
       "count_params counts the trainable weights only (BatchNormalization's moving statistics and frozen layers "
       "left out)"),
    _t("inverse-time-decay-staircase-ignored", "formula", "simdist/keras/optimizers/schedules.py",
       "        p = ops.cast(step, dtype) / decay_steps\n        if self.staircase:\n            p = ops.floor(p)\n"
       "        denom = ops.add(ops.cast(1, dtype), ops.multiply(decay_rate, p))\n",
       "        p = ops.cast(step, dtype) / decay_steps\n"
       "        denom = ops.add(ops.cast(1, dtype), ops.multiply(decay_rate, p))\n",
       "InverseTimeDecay(staircase=True) decays continuously"),
    _t("manager-same-number-listed-twice", "state", "simdist/strategies/checkpoint.py",
       "        self._checkpoints = [c for c in self._checkpoints if c != path] + [path]\n",
       "        self._checkpoints = self._checkpoints + [path]\n",
       "CheckpointManager.save(checkpoint_number=n) twice lists ckpt-n twice: `checkpoints` repeats it and a later "
       "rotation deletes the file still listed"),
]
TRAINING += TRAINING_BATCH14
CATALOGUE += TRAINING_BATCH14


# amut15: survivors of the mechanical sweep with seed 2 (sixteenth session, docs/conformance.md "Sixteenth
# session: automatic sweep, seed 2"), each killed by suite/test_amut15_gaps.py
TRAINING_AMUT15: list[Mutant] = [
    _t("amut15-event-dir-must-be-new", "state", "simdist/tf/summary/_event_file.py",
       "        os.makedirs(logdir, exist_ok=True)\n", "        os.makedirs(logdir)\n",
       "TensorBoard's event writer fails (FileExistsError) on a log_dir that already exists: a second fit "
       "into the same log_dir crashes"),
    _t("amut15-tensorboard-write-graph-off", "state", "simdist/keras/callbacks/tensorboard.py",
       "write_graph: bool = True,", "write_graph: bool = False,",
       "TensorBoard's write_graph defaults to False: the model's config is not written unless asked"),
    _t("amut15-int-conversion-refuses-floats", "dtype", "simdist/keras/losses/_ops.py",
       "elif dtype is not None and (dtype == tf.bool or dtype.is_integer):",
       "elif dtype is not None and (dtype == tf.bool and dtype.is_integer):",
       "Keras's convert_to_tensor to an integer dtype no longer converts-then-casts: sparse labels given as "
       "Python floats are refused (TF's conversion) instead of truncated"),
    _t("amut15-circle-ignores-ref-labels", "state", "simdist/keras/losses/similarity_losses.py",
       'ref_labels = y_true if ref_labels is None else ops.cast(ref_labels, "int32")',
       "ref_labels = y_true",
       "circle ignores ref_labels and compares the queries' labels with the reference embeddings"),
    _t("amut15-pearson-scales-over-everything", "formula", "simdist/keras/metrics/correlation_metrics.py",
       "    t = t / tf.math.reduce_std(_float(t), axis=axis, keepdims=True)\n",
       "    t = t / tf.math.reduce_std(_float(t), keepdims=True)\n",
       "pearson_correlation scales y_true by its standard deviation over all entries instead of along `axis` "
       "(the survivor that centred over all entries is equivalent: y_pred is centred, so the offset cancels)"),
    _t("amut15-fbeta-threshold-zero-accepted", "boundary", "simdist/keras/metrics/f_score_metrics.py",
       "if threshold > 1.0 or threshold <= 0.0:", "if threshold > 1.0 or threshold < 0.0:",
       "FBetaScore(threshold=0.0) is accepted (Keras: 0 < threshold <= 1)"),
    _t("amut15-model-from-json-drops-custom-objects", "state", "simdist/keras/models/__init__.py",
       "return deserialize_model(json.loads(json_string), custom_objects=custom_objects)",
       "return deserialize_model(json.loads(json_string))",
       "model_from_json ignores custom_objects: a model with an unregistered custom layer cannot be rebuilt"),
    _t("amut15-adamax-default-lr", "state", "simdist/keras/optimizers/adamax.py",
       "    def __init__(self, learning_rate: Any = 0.001,", "    def __init__(self, learning_rate: Any = 0.01,",
       "Adamax's default learning rate is 0.01 instead of Keras's 0.001"),
    _t("amut15-early-stopping-keeps-stopped-epoch", "state", "simdist/keras/callbacks/early_stopping.py",
       "        self.wait = 0\n        self.stopped_epoch = 0\n        self.best = None\n",
       "        self.wait = 0\n        self.best = None\n",
       "EarlyStopping reused across fits keeps the previous fit's stopped_epoch (and reports a stop that did not "
       "happen)"),
    _t("amut15-nested-model-not-found", "state", "simdist/keras/models/functional.py",
       "        names.update(Functional=Functional, Sequential=Sequential)   # models nested as layers\n", "",
       "a functional model holding a nested Sequential/Functional model cannot be rebuilt from its config "
       "(the bug the seed-2 sweep's tests found)"),
]
TRAINING += TRAINING_AMUT15
CATALOGUE += TRAINING_AMUT15
# -- Sixteenth session: a fifteenth blind batch (TRAINING_BATCH15), written from the source alone, before reading
#    any suite test (docs/conformance.md, "Sixteenth session: a fifteenth blind batch"). 16 on the mainstream
#    training path, 14 in the API around training.
_PR_CLASS_ID = ("    if class_id is not None:\n        if len(y_pred.shape) == 1:\n"
                "            raise ValueError(\"When class_id is provided, y_pred must be a 2D array with shape "
                "(num_samples, \"\n"
                "                             f\"num_classes), found shape: {y_pred.shape}\")\n"
                "        y_true = y_true[..., class_id:class_id + 1]\n"
                "        y_pred = y_pred[..., class_id:class_id + 1]\n")
_PR_TOP_K = "    if top_k is not None:\n        y_pred = filter_top_k(y_pred, top_k)\n"
_SLOT_APPEND = ("                out[i].append(self.add_variable_from_reference(variable, name=n, initializer=init)\n"
                "                              if not getattr(variable, \"overwrite_with_gradient\", False) else None)\n")
TRAINING_BATCH15: list[Mutant] = [
    # -- mainstream training: layers
    _t("bn-moving-variance-bessel-corrected", "formula", "simdist/keras/layers/normalization.py",
       "                self.moving_variance.assign(moving_variance * self.momentum + variance * (1.0 - self.momentum))\n",
       "                n = tf.cast(tf.size(inputs) // tf.size(variance), variance.dtype)\n"
       "                self.moving_variance.assign(moving_variance * self.momentum\n"
       "                                            + variance * (n / (n - 1.0)) * (1.0 - self.momentum))\n",
       "BatchNormalization's moving variance takes the batch variance with Bessel's correction n/(n-1) (TF1's "
       "fused batch norm did) instead of Keras 3's biased variance"),
    _t("lstm-output-ignores-activation", "formula", "simdist/keras/layers/rnn_cells.py",
       "        h = o * act(c)\n        return h, [h, c]\n",
       "        h = o * tf.tanh(c)\n        return h, [h, c]\n",
       "LSTM's output h = o * tanh(c) whatever `activation` says (the candidate uses the activation, the output "
       "does not)"),
    _t("gaussian-dropout-variance-as-stddev", "formula", "simdist/keras/layers/noise.py",
       "            stddev = math.sqrt(self.rate / (1.0 - self.rate))\n",
       "            stddev = self.rate / (1.0 - self.rate)\n",
       "GaussianDropout's noise standard deviation is rate / (1 - rate), the variance, instead of its square root"),
    _t("conv-output-shape-ignores-dilation", "formula", "simdist/keras/layers/argument_validation.py",
       "        out = np.floor((spatial - dilation * (kernel_spatial - 1) - 1) / strides) + 1\n",
       "        out = np.floor((spatial - (kernel_spatial - 1) - 1) / strides) + 1\n",
       "a 'valid' convolution's static output shape ignores dilation_rate (the symbolic shape of a dilated Conv "
       "in a functional model is too long)"),
    # -- mainstream training: optimizers
    _t("lamb-trust-ratio-uses-gradient-norm", "formula", "simdist/keras/optimizers/lamb.py",
       "        g_norm = ops.sqrt(ops.sum(ops.power(update, 2)))\n",
       "        g_norm = ops.sqrt(ops.sum(ops.power(gradient, 2)))\n",
       "Lamb's trust ratio divides the weight norm by the raw gradient's norm instead of the Adam update's"),
    _t("adadelta-delta-from-previous-grad-accumulator", "order", "simdist/keras/optimizers/adadelta.py",
       "        self.assign(accumulated_grad, ops.add(rho * accumulated_grad, ops.multiply(1 - rho, "
       "ops.square(grad))))\n"
       "        delta_var = ops.negative(ops.divide(ops.multiply(rms(accumulated_delta_var), grad), "
       "rms(accumulated_grad)))\n",
       "        delta_var = ops.negative(ops.divide(ops.multiply(rms(accumulated_delta_var), grad), "
       "rms(accumulated_grad)))\n"
       "        self.assign(accumulated_grad, ops.add(rho * accumulated_grad, ops.multiply(1 - rho, "
       "ops.square(grad))))\n",
       "Adadelta divides by the RMS of the gradient accumulator before this step's gradient is folded in"),
    _t("ps-slots-not-colocated", "placement", "simdist/keras/optimizers/base_optimizer.py",
       "        with self._distribution_strategy.extended.colocate_vars_with(unwrap(reference_variable)):\n"
       "            return self.add_variable(shape=reference_variable.shape, initializer=initializer,\n"
       "                                     dtype=reference_variable.dtype, name=name)\n",
       "        return self.add_variable(shape=reference_variable.shape, initializer=initializer,\n"
       "                                 dtype=reference_variable.dtype, name=name)\n",
       "optimizer slots are created without colocation: under ParameterServerStrategy a slot lands on the next "
       "parameter server in round-robin order instead of its variable's"),
    # -- mainstream training: losses and metrics
    _t("tversky-alpha-on-false-positives", "formula", "simdist/keras/losses/overlap_losses.py",
       "    fp = ops.sum((1 - y_pred) * y_true, axis=axis)\n    fn = ops.sum(y_pred * (1 - y_true), axis=axis)\n",
       "    fp = ops.sum(y_pred * (1 - y_true), axis=axis)\n    fn = ops.sum((1 - y_pred) * y_true, axis=axis)\n",
       "Tversky's terms \"corrected\" to the textbook names: alpha weighs the predicted-but-absent mass instead of "
       "Keras 3.15's missed positives (differs whenever alpha != beta)"),
    _t("poisson-sums-over-last-axis", "denominator", "simdist/keras/losses/probabilistic_losses.py",
       "    return ops.mean(y_pred - y_true * tf.math.log(y_pred + epsilon), axis=-1)\n",
       "    return ops.sum(y_pred - y_true * tf.math.log(y_pred + epsilon), axis=-1)\n",
       "Poisson sums over the last axis instead of averaging"),
    _t("categorical-focal-label-smoothing-binary", "formula", "simdist/keras/losses/probabilistic_losses.py",
       "        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / num_classes\n",
       "        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing\n",
       "CategoricalFocalCrossentropy smooths labels towards 0.5 (the binary rule, copied from the binary focal "
       "loss) instead of 1 / num_classes"),
    _t("sum-reduction-loss-scaled-by-replicas", "denominator", "simdist/keras/losses/loss.py",
       "        loss = ops.divide_no_nan(loss, divisor)\n        loss = scale_loss_for_distribution(loss)\n"
       "    return loss\n",
       "        loss = ops.divide_no_nan(loss, divisor)\n    loss = scale_loss_for_distribution(loss)\n"
       "    return loss\n",
       "a loss with reduction='sum' is also divided by num_replicas_in_sync (Keras scales only the mean "
       "reductions): under MirroredStrategy with 2 replicas the gradient halves"),
    _t("added-loss-vector-averaged", "denominator", "simdist/keras/trainers/trainer.py",
       "        return scale_loss_for_distribution(tf.reduce_sum(loss))\n",
       "        return scale_loss_for_distribution(tf.reduce_mean(loss))\n",
       "a non-scalar loss from add_loss is averaged instead of summed into the training loss"),
    _t("precision-class-id-before-top-k", "order", "simdist/keras/metrics/metrics_utils.py",
       _PR_TOP_K + _PR_CLASS_ID, _PR_CLASS_ID + _PR_TOP_K,
       "Precision/Recall(top_k, class_id) slice out the class before the top-k filter: the class column is "
       "always its own top 1"),
    _t("fbeta-macro-from-mean-precision-recall", "formula", "simdist/keras/metrics/f_score_metrics.py",
       "        recall = tf.divide(tp, tp + fn + eps)\n",
       "        recall = tf.divide(tp, tp + fn + eps)\n        if self.average == \"macro\":\n"
       "            precision, recall = tf.reduce_mean(precision), tf.reduce_mean(recall)\n",
       "FBetaScore(average='macro') is the F of the mean precision and mean recall instead of the mean of the "
       "per-class F scores"),
    # -- mainstream training: gradients
    _t("grad-log1p-as-log", "gradient", "simdist/runtime/ops/unary.py",
       "    return [grad * reciprocal(1.0 + _conj(op.inputs[0]))]",
       "    return [grad * reciprocal(_conj(op.inputs[0]))]",
       "log1p's gradient is 1/x (log's, copied) instead of 1/(1 + x): the gradient of "
       "sigmoid_cross_entropy_with_logits (BCE from logits) goes wrong"),
    _t("grad-rsqrt-sign-dropped", "gradient", "simdist/runtime/ops/sqrt_grads.py",
       "        return np.where(_is_zero(g), zero, out).astype(y.dtype, copy=False)",
       "        return np.where(_is_zero(g), zero, -out).astype(y.dtype, copy=False)",
       "rsqrt's gradient loses its minus sign (+0.5 y^3 instead of -0.5 y^3): LayerNormalization's and "
       "BatchNormalization's gradients through the variance go wrong"),
    # -- around training: schedules, configs, bookkeeping
    _t("polynomial-decay-power-on-progress", "formula", "simdist/keras/optimizers/schedules.py",
       "        return ops.add(ops.multiply(initial_learning_rate - end_learning_rate, ops.power(1 - p, power)),\n",
       "        return ops.add(ops.multiply(initial_learning_rate - end_learning_rate, 1 - ops.power(p, power)),\n",
       "PolynomialDecay raises the progress to the power (1 - p^power) instead of the remaining fraction "
       "((1 - p)^power); equal only for power 1"),
    _t("dense-config-bias-regularizer-from-kernel", "state", "simdist/keras/layers/core.py",
       "                \"bias_regularizer\": regularizers.serialize(self.bias_regularizer),\n",
       "                \"bias_regularizer\": regularizers.serialize(self.kernel_regularizer),\n",
       "Dense.get_config writes the kernel's regularizer as the bias regularizer (copy-paste): a clone or a "
       "reloaded model regularizes its bias as its kernel"),
    _t("optimizer-slots-grouped-by-name", "order", "simdist/keras/optimizers/base_optimizer.py",
       "        for variable in trainable_variables:\n            for i, (n, init) in enumerate(zip(names, inits)):\n"
       + _SLOT_APPEND,
       "        for i, (n, init) in enumerate(zip(names, inits)):\n            for variable in trainable_variables:\n"
       + _SLOT_APPEND,
       "an optimizer with two slots per variable (Adam's momentum and velocity) creates all momentums, then all "
       "velocities, instead of Keras's per-variable interleaving: optimizer.variables is in another order"),
    _t("model-metrics-loss-trackers-before-compiled", "order", "simdist/keras/trainers/trainer.py",
       "            if self._compile_metrics is not None:\n                metrics.append(self._compile_metrics)\n"
       "            if self._compile_loss is not None:\n                metrics.extend(self._compile_loss.metrics)\n",
       "            if self._compile_loss is not None:\n                metrics.extend(self._compile_loss.metrics)\n"
       "            if self._compile_metrics is not None:\n                metrics.append(self._compile_metrics)\n",
       "model.metrics lists the per-output loss trackers before the compiled metrics: the logs' and evaluate's "
       "order of a multi-output model changes"),
    _t("summary-memory-in-bits", "formula", "simdist/keras/models/summary.py",
       "    return sum(math.prod(w.shape.as_list()) * _dtype_bits(w.dtype) for w in unique) / 8\n",
       "    return sum(math.prod(w.shape.as_list()) * _dtype_bits(w.dtype) for w in unique)\n",
       "model.summary() reports the weights' memory in bits as bytes (8 times too large)"),
    # -- around training: callbacks and History
    _t("train-end-logs-from-last-batch", "state", "simdist/keras/trainers/trainer.py",
       "        callbacks.on_train_end(logs=training_logs)\n",
       "        callbacks.on_train_end(logs=logs)\n",
       "on_train_end gets the last batch's logs instead of the last epoch's (no val_ entries)"),
    _t("history-added-before-user-callbacks", "order", "simdist/keras/callbacks/callback_list.py",
       "            self._history = History()\n            self.callbacks.append(self._history)\n",
       "            self._history = History()\n            self.callbacks.insert(0, self._history)\n",
       "fit's History runs before the user's callbacks: what they add to an epoch's logs (ReduceLROnPlateau's and "
       "LearningRateScheduler's learning_rate) never reaches history"),
    _t("tensorboard-val-tags-keep-prefix", "state", "simdist/keras/callbacks/tensorboard.py",
       "                    tf.summary.scalar(f\"epoch_{name[4:]}\", value, step=epoch)\n",
       "                    tf.summary.scalar(f\"epoch_{name}\", value, step=epoch)\n",
       "TensorBoard writes validation scalars as epoch_val_loss in the validation run instead of epoch_loss"),
    _t("checkpoint-filepath-batch-zero-based", "boundary", "simdist/keras/callbacks/model_checkpoint.py",
       "            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)\n",
       "            return self.filepath.format(epoch=epoch + 1, batch=batch, **logs)\n",
       "ModelCheckpoint(save_freq=n) formats {batch} 0-based"),
    _t("backup-metadata-left-after-training", "state", "simdist/keras/callbacks/backup_and_restore.py",
       "        if self.delete_checkpoint and os.path.exists(str(self.backup_dir)):\n"
       "            shutil.rmtree(str(self.backup_dir))\n",
       "        if self.delete_checkpoint and os.path.exists(self._weights_path):\n"
       "            os.remove(self._weights_path)\n",
       "BackupAndRestore deletes only its weights file at the end of training: the metadata left behind makes "
       "the next fit resume at the finished epoch (it trains no epoch)"),
    # -- around training: tf.data
    _t("repeat-empty-forever-infinite", "boundary", "simdist/runtime/data/counting.py",
       "            return 0 if n == 0 else INFINITE_CARDINALITY\n",
       "            return INFINITE_CARDINALITY\n",
       "repeat() of an empty dataset reports infinite cardinality (TF: 0)"),
    _t("batch-cardinality-drop-remainder-ignored", "boundary", "simdist/runtime/data/batching.py",
       "    return _cdiv(n, size) + (0 if _cmod(n, size) == 0 or drop else 1)\n",
       "    return _cdiv(n, size) + (0 if _cmod(n, size) == 0 else 1)\n",
       "batch/padded_batch(drop_remainder=True) count the dropped partial batch in their cardinality"),
    _t("options-nested-replaced-not-merged", "state", "simdist/runtime/data/options.py",
       "                    out._values[name] = base._merged_with(theirs) if theirs is not None else copy.deepcopy(base)\n",
       "                    out._values[name] = copy.deepcopy(theirs) if theirs is not None else copy.deepcopy(base)\n",
       "merging tf.data Options replaces a nested options object (threading, experimental_optimization, ...) "
       "wholesale: a downstream with_options loses the fields set upstream in the same group"),
    _t("enumerate-index-int32", "dtype", "simdist/runtime/data/dataset.py",
       "        return _ZipDataset((_RangeDataset(_int_arg(start), _INT64_MAX, 1, dtypes.int64), self))\n",
       "        return _ZipDataset((_RangeDataset(_int_arg(start), _INT64_MAX, 1, dtypes.int32), self))\n",
       "enumerate's index is int32 instead of int64"),
]
TRAINING += TRAINING_BATCH15
CATALOGUE += TRAINING_BATCH15


# -- Seventeenth session: a sixteenth blind batch (TRAINING_BATCH16), written from the source alone, before reading
#    any suite test (docs/conformance.md, "Seventeenth session: a sixteenth blind batch"). 17 on the mainstream
#    training path, 13 in the API around training.
TRAINING_BATCH16: list[Mutant] = [
    # -- mainstream training: layers
    _t("rms-normalization-layer-epsilon-of-op", "formula", "simdist/keras/layers/rms_normalization.py",
       "    def __init__(self, axis: Any = -1, epsilon: float = 1e-6, **kwargs: Any) -> None:\n",
       "    def __init__(self, axis: Any = -1, epsilon: float = 1e-7, **kwargs: Any) -> None:\n",
       "RMSNormalization's layer takes the op's default epsilon 1e-7 instead of its own 1e-6"),
    _t("prelu-shared-axes-off-by-one", "axis", "simdist/keras/layers/prelu.py",
       "                param_shape[i - 1] = 1\n",
       "                param_shape[i] = 1\n",
       "PReLU(shared_axes) indexes the parameter shape (batch axis dropped) with the input's axis numbers: "
       "the wrong axes are shared"),
    _t("cropping-zero-end-crops-everything", "boundary", "simdist/keras/layers/cropping.py",
       "            index[axis] = slice(start, -end if end else None)\n",
       "            index[axis] = slice(start, -end)\n",
       "Cropping2D/3D slice `start:-end` even when end is 0: an axis cropped only at its start comes out empty"),
    _t("convlstm-forget-bias-on-input-gate", "order", "simdist/keras/layers/conv_lstm.py",
       "                    return _ops().concatenate([self.bias_initializer((self.filters,), *args, **kwargs),\n"
       "                                               initializers.get(\"ones\")((self.filters,), *args, **kwargs),\n",
       "                    return _ops().concatenate([initializers.get(\"ones\")((self.filters,), *args, **kwargs),\n"
       "                                               self.bias_initializer((self.filters,), *args, **kwargs),\n",
       "ConvLSTM's unit_forget_bias puts the ones on the input gate's slice of the bias (i, f, c, o order "
       "misread)"),
    _t("gqa-key-value-heads-tiled", "order", "simdist/keras/layers/grouped_query_attention.py",
       "        key = ops.repeat(key, self.num_repeats, axis=2)\n"
       "        value = ops.repeat(value, self.num_repeats, axis=2)\n",
       "        key = ops.tile(key, [1, 1, self.num_repeats, 1])\n"
       "        value = ops.tile(value, [1, 1, self.num_repeats, 1])\n",
       "GroupQueryAttention tiles the key/value heads (0,1,0,1) instead of repeating each (0,0,1,1): query heads "
       "attend with another group's keys"),
    _t("he-uniform-fan-avg", "formula", "simdist/keras/initializers.py",
       "    _preset = (2.0, \"fan_in\", \"uniform\")\n",
       "    _preset = (2.0, \"fan_avg\", \"uniform\")\n",
       "HeUniform scales by the mean of fan_in and fan_out (Glorot's mode) instead of fan_in"),
    _t("minmaxnorm-rate-on-raw-norm", "formula", "simdist/keras/constraints.py",
       "        desired = self.rate * clipped + (1 - self.rate) * norms\n",
       "        desired = self.rate * norms + (1 - self.rate) * clipped\n",
       "MinMaxNorm weighs the raw norm by `rate` and the clipped one by 1 - rate (equal only for rate 0.5)"),
    # -- mainstream training: optimizers
    _t("adafactor-alpha-from-gradient-rms", "formula", "simdist/keras/optimizers/adafactor.py",
       "        alpha_t = ops.maximum(epsilon_2, self._rms(variable)) * rho_t\n",
       "        alpha_t = ops.maximum(epsilon_2, self._rms(gradient)) * rho_t\n",
       "Adafactor's relative step size scales by the gradient's RMS instead of the variable's"),
    _t("schedule-free-warmup-off-by-one", "boundary", "simdist/keras/optimizers/schedule_free_adamw.py",
       "            lr = lr * ops.minimum(local_step / warmup_steps, 1.0)\n",
       "            lr = lr * ops.minimum((local_step - 1) / warmup_steps, 1.0)\n",
       "ScheduleFreeAdamW's warmup counts steps from 0: the first step has learning rate 0"),
    _t("nadam-next-momentum-at-current-step", "boundary", "simdist/keras/optimizers/nadam.py",
       "        u_t_1 = beta_1 * (1.0 - 0.5 * ops.power(decay, next_step))\n",
       "        u_t_1 = beta_1 * (1.0 - 0.5 * ops.power(decay, local_step))\n",
       "Nadam's next-step momentum factor u_{t+1} is computed at step t"),
    _t("adamax-infinity-norm-of-signed-gradient", "formula", "simdist/keras/optimizers/adamax.py",
       "        self.assign(u, ops.maximum(ops.multiply(self.beta_2, u), ops.abs(gradient)))\n",
       "        self.assign(u, ops.maximum(ops.multiply(self.beta_2, u), gradient))\n",
       "Adamax's exponentially weighted infinity norm takes the signed gradient: a negative gradient leaves u at "
       "0 and the step explodes"),
    _t("ftrl-l2-not-doubled", "formula", "simdist/keras/optimizers/ftrl.py",
       "        quadratic = ops.add(ops.divide(ops.power(new_accum, (-lr_power)), lr), 2 * l2_reg)\n",
       "        quadratic = ops.add(ops.divide(ops.power(new_accum, (-lr_power)), lr), l2_reg)\n",
       "FTRL's quadratic term adds l2 (and beta / 2lr) once instead of twice"),
    # -- mainstream training: gradients of less common ops
    _t("grad-atanh-as-atan", "gradient", "simdist/runtime/ops/special.py",
       "    return [grad * reciprocal(one - square(_conj(x)))]\n",
       "    return [grad * reciprocal(one + square(_conj(x)))]\n",
       "the gradient of atanh is 1/(1 + x^2) (atan's, copied) instead of 1/(1 - x^2)"),
    _t("grad-ndtri-exponent-not-halved", "gradient", "simdist/runtime/ops/special_more.py",
       "    return [grad * _const(np.sqrt(2 * np.pi), grad.dtype) * exp(square(op.outputs[0]) / 2.0)]\n",
       "    return [grad * _const(np.sqrt(2 * np.pi), grad.dtype) * exp(square(op.outputs[0]))]\n",
       "the gradient of ndtri is sqrt(2 pi) exp(y^2) instead of sqrt(2 pi) exp(y^2 / 2)"),
    # -- mainstream training: losses and metrics
    _t("msle-negative-predictions-not-clipped", "boundary", "simdist/keras/losses/regression_losses.py",
       "    first_log = tf.math.log(ops.maximum(y_pred, epsilon) + 1.0)\n",
       "    first_log = tf.math.log(y_pred + 1.0)\n",
       "mean_squared_logarithmic_error takes log(y_pred + 1) without clipping y_pred at epsilon: negative "
       "predictions give a different (or NaN) loss"),
    _t("log-cosh-softplus-sign", "formula", "simdist/keras/losses/regression_losses.py",
       "    return ops.mean(x + tf.math.softplus(x * -2.0) - log2, axis=-1)\n",
       "    return ops.mean(x + tf.math.softplus(x * 2.0) - log2, axis=-1)\n",
       "log_cosh's overflow-safe form uses softplus(2x) instead of softplus(-2x): not log(cosh(x))"),
    _t("iou-ignore-class-on-prediction", "state", "simdist/keras/metrics/iou_metrics.py",
       "tf.not_equal(y_true, ops.convert_to_tensor(self.ignore_class,",
       "tf.not_equal(y_pred, ops.convert_to_tensor(self.ignore_class,",
       "IoU's ignore_class drops the samples *predicted* as that class instead of those labelled with it"),
    # -- around training: preprocessing and utilities
    _t("discretization-boundary-goes-left", "boundary", "simdist/keras/layers/discretization.py",
       "        indices = tf.reshape(tf.searchsorted(bins, flat, side=\"right\"), tf.shape(x))\n",
       "        indices = tf.reshape(tf.searchsorted(bins, flat, side=\"left\"), tf.shape(x))\n",
       "Discretization puts a value equal to a boundary in the bucket below it (Bucketize puts it above)"),
    _t("lookup-max-tokens-ignores-special-tokens", "boundary", "simdist/keras/layers/index_lookup.py",
       "            sorted_indices = sorted_indices[:self.max_tokens - token_start]\n",
       "            sorted_indices = sorted_indices[:self.max_tokens]\n",
       "StringLookup/IntegerLookup.adapt(max_tokens) keeps max_tokens learned tokens on top of the mask and OOV "
       "slots: the vocabulary is larger than max_tokens"),
    _t("timeseries-last-window-dropped", "boundary", "simdist/keras/utils/timeseries.py",
       "    num_seqs = end_index - start_index - (sequence_length - 1) * sampling_rate\n",
       "    num_seqs = end_index - start_index - sequence_length * sampling_rate\n",
       "timeseries_dataset_from_array counts one window too few (the window ending on the last element is "
       "dropped)"),
    _t("split-dataset-right-from-left-end", "boundary", "simdist/keras/utils/split_dataset.py",
       "_restore(list(samples[-right:]), spec, dataset)",
       "_restore(list(samples[left:]), spec, dataset)",
       "split_dataset's right part starts where the left ends instead of being the last right_size samples "
       "(differs when left_size + right_size < the length)"),
    _t("pad-sequences-pre-truncation-keeps-head", "boundary", "simdist/keras/utils/sequence_utils.py",
       "            trunc = s[-maxlen:]\n",
       "            trunc = s[:maxlen]\n",
       "pad_sequences(truncating='pre') keeps the first maxlen items (drops at the end) instead of the last"),
    _t("hashing-mask-bin-not-reserved", "boundary", "simdist/keras/layers/hashing.py",
       "        if self.mask_value is not None and hash_bins > 1:\n            hash_bins -= 1\n",
       "        if self.mask_value is not None and hash_bins > 1:\n            pass\n",
       "Hashing(mask_value=...) hashes into num_bins buckets before shifting them by one for the mask: the "
       "other values land in the wrong bins (and one past the last)"),
    # -- around training: configs, saving, checkpoints
    _t("cosine-decay-config-drops-warmup", "state", "simdist/keras/optimizers/schedules.py",
       "                \"alpha\": self.alpha, \"name\": self.name, \"warmup_target\": self.warmup_target,\n"
       "                \"warmup_steps\": self.warmup_steps}\n",
       "                \"alpha\": self.alpha, \"name\": self.name}\n",
       "CosineDecay.get_config omits warmup_target and warmup_steps: a round trip (or a saved optimizer) loses "
       "the warmup"),
    _t("clone-sequential-drops-trainable", "state", "simdist/keras/models/cloning.py",
       "    clone = Sequential(new_layers, name=model.name, trainable=model.trainable)\n",
       "    clone = Sequential(new_layers, name=model.name)\n",
       "clone_model of a frozen Sequential model is trainable"),
    _t("load-model-drops-steps-per-execution", "state", "simdist/keras/models/keras_file.py",
       "        \"run_eagerly\": bool(cfg.get(\"run_eagerly\", False)), "
       "\"steps_per_execution\": int(cfg.get(\"steps_per_execution\", 1)),\n",
       "        \"run_eagerly\": bool(cfg.get(\"run_eagerly\", False)),\n",
       "load_model recompiles without the saved steps_per_execution (back to 1)"),
    _t("manager-numbered-save-not-counted", "state", "simdist/strategies/checkpoint.py",
       "            self._checkpoint._count_save()\n",
       "            pass\n",
       "CheckpointManager.save(checkpoint_number=n) does not advance the checkpoint's save_counter"),
    # -- around training: fit loop and callbacks
    _t("progbar-epoch-line-for-single-epoch", "boundary", "simdist/keras/callbacks/progbar_logger.py",
       "        if self.verbose and self.epochs > 1:\n",
       "        if self.verbose and self.epochs >= 1:\n",
       "ProgbarLogger prints 'Epoch 1/1' for a one-epoch fit (Keras prints the line only for epochs > 1)"),
    _t("steps-per-execution-batch-end-index-first-step", "boundary", "simdist/keras/trainers/epoch_iterator.py",
       "                yield step, step + self.steps_per_execution - 1, self._current_iterator\n",
       "                yield step, step, self._current_iterator\n",
       "with steps_per_execution > 1 on_train_batch_end gets the first step of the execution instead of its last"),
    _t("lambda-callback-ignores-extra-hooks", "state", "simdist/keras/callbacks/lambda_callback.py",
       "        self.__dict__.update(kwargs)\n",
       "",
       "LambdaCallback ignores the hooks passed as other keyword arguments (on_test_end, on_predict_batch_end, "
       "...)"),
]
TRAINING += TRAINING_BATCH16
CATALOGUE += TRAINING_BATCH16


# -- Nineteenth session: a seventeenth blind batch (TRAINING_BATCH17), written from the source alone, before reading
#    any suite test (docs/conformance.md, "Nineteenth session: a seventeenth blind batch"). 15 on the mainstream
#    training path, 15 in the API around training, in files no earlier mutant touched where possible.
TRAINING_BATCH17: list[Mutant] = [
    # -- mainstream training: layers
    _t("dot-normalize-second-input-on-first-axis", "axis", "simdist/keras/layers/dot.py",
       "            x2 = l2_normalize(x2, axes[1])\n",
       "            x2 = l2_normalize(x2, axes[0])\n",
       "Dot(normalize=True) normalizes the second input along the first input's axis (equal only when both "
       "axes are the same)"),
    _t("attention-concat-scale-outside-tanh", "formula", "simdist/keras/layers/dot_attention.py",
       "        inner = tf.cast(self.scale, q.dtype) * (q + k) if self.scale is not None else q + k\n"
       "        return tf.cast(self.concat_score_weight, q.dtype) * tf.reduce_sum(tf.tanh(inner), axis=-1)\n",
       "        inner = q + k\n"
       "        scores = tf.cast(self.concat_score_weight, q.dtype) * tf.reduce_sum(tf.tanh(inner), axis=-1)\n"
       "        return scores * tf.cast(self.scale, q.dtype) if self.scale is not None else scores\n",
       "Attention(score_mode='concat', use_scale=True) multiplies the scores by `scale` instead of scaling q + k "
       "inside the tanh"),
    _t("rescaling-offset-before-scale", "order", "simdist/keras/layers/rescaling.py",
       "        return tf.cast(inputs, dtype) * scale + offset\n",
       "        return (tf.cast(inputs, dtype) + offset) * scale\n",
       "Rescaling adds the offset before scaling (x + offset) * scale instead of x * scale + offset"),
    _t("unit-normalization-epsilon-of-dot", "formula", "simdist/keras/layers/unit_normalization.py",
       "        return l2_normalize(tf.convert_to_tensor(inputs), self.axis, epsilon=1e-12)\n",
       "        return l2_normalize(tf.convert_to_tensor(inputs), self.axis)\n",
       "UnitNormalization takes l2_normalize's default epsilon (1e-7, keras.config.epsilon) instead of its own "
       "1e-12: vectors of norm below 1e-7 are not brought to unit norm"),
    _t("spectral-norm-vector-u-not-updated", "state", "simdist/keras/layers/spectral_normalization.py",
       "            self.vector_u.assign(new_vector_u)\n",
       "",
       "SpectralNormalization normalizes the kernel in training but never stores the power iteration's new "
       "vector_u: every call restarts from the initial vector"),
    _t("stacked-cells-built-on-first-input", "state", "simdist/keras/layers/stacked_rnn_cells.py",
       "            batch_size = tf.nest.flatten(input_shape)[0]\n"
       "            input_shape = (batch_size, output_dim)\n",
       "            batch_size = tf.nest.flatten(input_shape)[0]\n",
       "StackedRNNCells builds every cell on the RNN's input shape instead of the previous cell's output size"),
    _t("reversible-embedding-soft-cap-not-divided", "formula", "simdist/keras/layers/reversible_embedding.py",
       "            logits = ops.multiply(ops.tanh(ops.divide(logits, soft_cap)), soft_cap)\n",
       "            logits = ops.multiply(ops.tanh(logits), soft_cap)\n",
       "ReversibleEmbedding's logit_soft_cap takes tanh(logits) * cap instead of tanh(logits / cap) * cap"),
    _t("cropping1d-ends-swapped", "order", "simdist/keras/layers/cropping1d.py",
       "        return inputs[:, self.cropping[0]:-self.cropping[1], :]\n",
       "        return inputs[:, self.cropping[1]:-self.cropping[0], :]\n",
       "Cropping1D((a, b)) with both ends non-zero crops b steps at the start and a at the end"),
    _t("thresholded-relu-keeps-theta", "boundary", "simdist/keras/layers/activation_layers.py",
       "        return inputs * tf.cast(tf.greater(inputs, self.theta), self.compute_dtype)\n",
       "        return inputs * tf.cast(tf.greater_equal(inputs, self.theta), self.compute_dtype)\n",
       "ThresholdedReLU keeps an input equal to theta (TF/Keras keep only x > theta)"),
    _t("category-encoding-count-weights-dropped", "state", "simdist/keras/layers/category_encoding.py",
       "    result = tf.math.bincount(inputs, weights=count_weights, minlength=depth,",
       "    result = tf.math.bincount(inputs, weights=None, minlength=depth,",
       "CategoryEncoding(output_mode='count') ignores count_weights on rank-1/2 inputs: plain counts"),
    # -- mainstream training: tf.nn, gradients, optimizers, losses
    _t("nn-normalize-moments-variance-of-shifted-mean", "formula", "simdist/runtime/ops/nn_more.py",
       "    variance = math.subtract(math.multiply(variance_ss, divisor), square(shifted_mean))\n",
       "    variance = math.subtract(math.multiply(variance_ss, divisor), square(mean))\n",
       "tf.nn.normalize_moments subtracts the square of the (shift-added) mean instead of the shifted mean's: "
       "wrong variance whenever shift is not 0"),
    _t("nn-log-poisson-stirling-at-one", "boundary", "simdist/runtime/ops/nn_more.py",
       "        cond = math.logical_and(tg >= zeros, tg <= ones)\n",
       "        cond = math.logical_and(tg >= zeros, tg < ones)\n",
       "tf.nn.log_poisson_loss(compute_full_loss=True) adds Stirling's term at targets == 1 (TF leaves 0 <= z <= 1 "
       "out)"),
    _t("grad-rgb-to-hsv-value-channels-swapped", "gradient", "simdist/runtime/ops/image_color.py",
       "    dv = ops.stack([grad[..., 2] * rb, grad[..., 2] * gb, grad[..., 2] * bb], axis=-1)\n",
       "    dv = ops.stack([grad[..., 2] * rb, grad[..., 2] * bb, grad[..., 2] * gb], axis=-1)\n",
       "the gradient of rgb_to_hsv's value (the max channel) goes to blue when green is the max and the reverse"),
    _t("lamb-bias-correction-step-from-zero", "boundary", "simdist/keras/optimizers/lamb.py",
       "        local_step = ops.cast(self.iterations + 1, variable.dtype)\n",
       "        local_step = ops.cast(self.iterations, variable.dtype)\n",
       "Lamb's bias correction counts steps from 0: 1 - beta^0 = 0 at the first step"),
    _t("circle-negative-optimum-one-minus-margin", "formula", "simdist/keras/losses/similarity_losses.py",
       "    optim_pos, optim_neg = margin, 1 + margin\n",
       "    optim_pos, optim_neg = margin, 1 - margin\n",
       "circle loss's negative optimum O_n is 1 - m (the negative decision margin's value) instead of 1 + m"),
    # -- around training: tf.data
    _t("window-cardinality-floor", "boundary", "simdist/runtime/data/window.py",
       "        return n // p[\"shift\"] + (0 if n % p[\"shift\"] == 0 else 1)\n",
       "        return n // p[\"shift\"]\n",
       "window(drop_remainder=False).cardinality() floors n / shift: the last, partial window is not counted"),
    _t("group-by-window-flush-first-seen-order", "order", "simdist/runtime/data/group_by_window.py",
       "        for key in sorted(groups):\n",
       "        for key in groups:\n",
       "group_by_window flushes the unfinished windows at the end in first-seen order instead of by key (TF's "
       "std::map)"),
    _t("bucket-boundary-length-goes-below", "boundary", "simdist/runtime/data/group_by_window.py",
       "math.logical_and(math.less_equal(lows, seq_length), math.less(seq_length, highs))",
       "math.logical_and(math.less(lows, seq_length), math.less_equal(seq_length, highs))",
       "bucket_by_sequence_length puts a length equal to a boundary in the bucket below it ((low, high] instead "
       "of [low, high))"),
    _t("take-while-filters-instead-of-stopping", "state", "simdist/runtime/data/take_while.py",
       "            if not bool(np.asarray(keep._v)):\n                raise Ended\n",
       "            if not bool(np.asarray(keep._v)):\n                return []\n",
       "Dataset.take_while skips the refused elements and goes on (a filter) instead of ending at the first"),
    # -- around training: fit's data, callbacks, utilities
    _t("py-dataset-class-weight-dropped", "state", "simdist/keras/trainers/py_dataset.py",
       "            if len(batch) == 2:\n"
       "                batch = batch + (class_weight_to_sample_weights(batch[1], self.class_weight),)\n",
       "            if len(batch) == 2:\n"
       "                pass\n",
       "fit(PyDataset, class_weight=...) ignores the class weights (no sample weights added to the batches)"),
    _t("generator-peeked-batches-lost", "state", "simdist/keras/trainers/generator_adapter.py",
       "    return batches, lambda: itertools.chain(batches, generator)\n",
       "    return batches, lambda: generator\n",
       "a Python generator passed to fit loses the batches read to infer its signature: the first two batches "
       "are never trained on"),
    _t("progbar-stateless-average-unweighted", "denominator", "simdist/keras/utils/progbar.py",
       "                    base = max(current - self._seen_so_far, 1)\n",
       "                    base = 1\n",
       "keras.utils.Progbar averages a stateless metric per update instead of per unit (each update weighted "
       "by the units it covers)"),
    _t("optimizer-map-pattern-prefix-match", "boundary", "simdist/keras/optimizers/multi_optimizer.py",
       "if re.fullmatch(pattern, key)]",
       "if re.match(pattern, key)]",
       "OptimizerMap matches a pattern against a prefix of the variable path (re.match) instead of the whole "
       "path"),
    _t("custom-object-scope-exit-clears-outer", "state", "simdist/keras/object_registration.py",
       "        _SCOPE.objects = dict(self.backup or {})\n",
       "        _SCOPE.objects = {}\n",
       "leaving a nested custom_object_scope clears the objects of the enclosing one instead of restoring them"),
    _t("register-serializable-ignores-name", "state", "simdist/keras/object_registration.py",
       "        class_name = name if name is not None else arg.__name__\n",
       "        class_name = arg.__name__\n",
       "register_keras_serializable(package, name) registers the class under its Python name, ignoring `name`"),
    _t("lambda-output-shape-without-batch", "boundary", "simdist/keras/layers/lambda_layer.py",
       "        return _map_shapes(lambda s: (batch_size,) + s, self._output_shape)\n",
       "        return _map_shapes(lambda s: s, self._output_shape)\n",
       "Lambda(output_shape=tuple) takes the tuple as the whole output shape instead of prepending the batch "
       "axis"),
    _t("smart-resize-crop-ratio-inverted", "formula", "simdist/keras/utils/image_utils.py",
       "    crop_height = max(min(height, int(float(width * target_height) / target_width)), 1)\n"
       "    crop_width = max(min(width, int(float(height * target_width) / target_height)), 1)\n",
       "    crop_height = max(min(height, int(float(width * target_width) / target_height)), 1)\n"
       "    crop_width = max(min(width, int(float(height * target_height) / target_width)), 1)\n",
       "smart_resize crops to the inverse of the target aspect ratio (target_width / target_height for the "
       "height)"),
    _t("split-dataset-fraction-floored", "boundary", "simdist/keras/utils/split_dataset.py",
       "    left = round(left_size * total) if lt is float else (float(left_size) if lt is int else None)\n",
       "    left = int(left_size * total) if lt is float else (float(left_size) if lt is int else None)\n",
       "split_dataset(left_size=float) floors left_size * n instead of rounding it"),
    _t("normalize-lp-norm-root-missing", "formula", "simdist/keras/utils/numerical_utils.py",
       "    norm = tf.pow(tf.reduce_sum(tf.pow(tf.abs(x), ord_t), axis=axis, keepdims=True), 1.0 / ord_t)\n",
       "    norm = tf.pow(tf.reduce_sum(tf.pow(tf.abs(x), ord_t), axis=axis, keepdims=True), 1.0)\n",
       "keras.utils.normalize of a tensor with order != 2 divides by sum(|x|^p) instead of its p-th root"),
    _t("manager-forgets-existing-checkpoints", "state", "simdist/strategies/checkpoint.py",
       "        if latest is not None:\n            self._checkpoints = _read_state(self._directory)[1]\n",
       "        if latest is not None:\n            pass\n",
       "a CheckpointManager opened on a directory that holds checkpoints does not read them: checkpoints is "
       "empty, latest_checkpoint None and restore_or_initialize initializes"),
]
TRAINING += TRAINING_BATCH17
CATALOGUE += TRAINING_BATCH17


# -- Twentieth session: an eighteenth blind batch (TRAINING_BATCH18), written from the source alone, before reading
#    any suite test (docs/conformance.md, "Twentieth session: an eighteenth blind batch"). 15 on the mainstream
#    training path, 15 in the API around training, in files no earlier mutant touched where possible.
TRAINING_BATCH18: list[Mutant] = [
    # -- mainstream training: layers, losses, optimizers
    _t("adaptive-pool-window-end-floored", "boundary", "simdist/keras/ops/tf_nn.py",
       "        tf.math.ceil(\n"
       "            tf.cast(tf.range(1, output_size + 1), tf.float32)\n",
       "        tf.floor(\n"
       "            tf.cast(tf.range(1, output_size + 1), tf.float32)\n",
       "adaptive pooling's window ends are floor((i + 1) * in / out) instead of the ceiling: a window that should "
       "be the big one is taken small (its last element dropped) when out does not divide in"),
    _t("ctc-label-length-counts-padding", "denominator", "simdist/keras/losses/sequence_losses.py",
       "    label_length = tf.cast(ops.sum(tf.not_equal(target, 0), axis=-1), tf.int32)\n",
       "    label_length = tf.cast(ops.sum(tf.not_equal(target, -1), axis=-1), tf.int32)\n",
       "keras.losses.CTC counts every position of y_true as a label (the 0 padding included) instead of the "
       "nonzero ones"),
    _t("activity-regularization-l1-l2-swapped", "order", "simdist/keras/layers/activity_regularization.py",
       "activity_regularizer=regularizers.L1L2(l1=l1, l2=l2)",
       "activity_regularizer=regularizers.L1L2(l1=l2, l2=l1)",
       "ActivityRegularization(l1, l2) builds its regularizer with l1 and l2 swapped"),
    _t("solarization-threshold-lower-scaled", "formula", "simdist/keras/layers/preprocessing/image/solarization.py",
       "        thresholds = uniform(minval=self.threshold_factor[0], maxval=self.threshold_factor[1] * 255,\n",
       "        thresholds = uniform(minval=self.threshold_factor[0] * 255, maxval=self.threshold_factor[1] * 255,\n",
       "Solarization scales the threshold's lower bound by 255 as well (Keras scales only the upper one)"),
    _t("mixup-labels-weight-swapped", "order", "simdist/keras/layers/preprocessing/image/mix_up.py",
       "        return weight * labels + (1.0 - weight) * others\n",
       "        return (1.0 - weight) * labels + weight * others\n",
       "MixUp mixes the labels with the weights swapped (w on the permuted labels) while the images take w on "
       "their own"),
    _t("random-brightness-delta-not-scaled", "formula", "simdist/keras/layers/preprocessing/image/random_brightness.py",
       "        return {\"rgb_delta\": rgb_delta * (self.value_range[1] - self.value_range[0])}\n",
       "        return {\"rgb_delta\": rgb_delta}\n",
       "RandomBrightness adds the factor draw itself instead of scaling it by the value range's width"),
    _t("zero-padding3d-pairs-reversed", "order", "simdist/keras/layers/zero_padding3d.py",
       "tf.constant([list(p) for p in pads], \"int32\")",
       "tf.constant([list(p)[::-1] for p in pads], \"int32\")",
       "ZeroPadding3D(((a, b), ...)) pads b before and a after each spatial axis"),
    _t("random-invert-reflects-range", "formula", "simdist/keras/layers/preprocessing/image/random_invert.py",
       "                                        self.value_range[1] - images, images)\n",
       "                                        self.value_range[0] + self.value_range[1] - images, images)\n",
       "RandomInvert reflects within the value range (lo + hi - x) instead of Keras's hi - x"),
    _t("adafactor-row-factor-normalized-by-sum", "denominator", "simdist/keras/optimizers/adafactor.py",
       "ops.divide(r, ops.mean(r, axis=-1, keepdims=True))",
       "ops.divide(r, ops.sum(r, axis=-1, keepdims=True))",
       "Adafactor normalizes the factored row statistic by its sum instead of its mean (v too small by the "
       "number of rows)"),
    _t("tf-random-normal-initializer-stddev-one", "state", "simdist/tf/_initializers.py",
       "    def __init__(self, mean: Any = 0.0, stddev: Any = 0.05, seed: Any = None) -> None:\n",
       "    def __init__(self, mean: Any = 0.0, stddev: Any = 1.0, seed: Any = None) -> None:\n",
       "tf.random_normal_initializer's default stddev is 1.0 (TF: 0.05)"),
    # -- mainstream training: tf.nn and tf.math composites
    _t("nn-collapse-repeated-ignores-seq-length", "boundary", "simdist/runtime/ops/nn_composites.py",
       "    label_mask = math.logical_and(label_mask, sequence_mask(sl, maxlen=maxlen))\n",
       "",
       "tf.nn.collapse_repeated keeps the labels past each row's seq_length"),
    _t("nn-nce-true-labels-not-divided", "denominator", "simdist/runtime/ops/sampled_losses.py",
       "array.ones_like(true_logits) / num_true,",
       "array.ones_like(true_logits),",
       "nce_loss / sampled_softmax_loss give each true class the label 1 instead of 1 / num_true (num_true > 1)"),
    _t("space-to-batch-paddings-full-block", "boundary", "simdist/runtime/ops/nn_composites.py",
       "    extra = np.where(block == 0, 0, (safe - np.mod(full, safe)) % safe)\n",
       "    extra = np.where(block == 0, 0, safe - np.mod(full, safe))\n",
       "tf.required_space_to_batch_paddings pads a whole extra block when the size is already a multiple"),
    _t("math-polyval-coefficients-reversed", "order", "simdist/runtime/ops/math_more.py",
       "    p = cs[0]\n    for c in cs[1:]:\n",
       "    p = cs[-1]\n    for c in cs[-2::-1]:\n",
       "tf.math.polyval takes the coefficients lowest power first (TF: coeffs[0] is the highest power)"),
    _t("math-strictly-increasing-allows-equal", "boundary", "simdist/runtime/ops/math_more.py",
       "    return _monotonic(x, math.greater)\n",
       "    return _monotonic(x, math.greater_equal)\n",
       "tf.math.is_strictly_increasing accepts equal neighbours"),
    # -- around training: tf.data
    _t("ignore-errors-stops-at-first-error", "state", "simdist/runtime/data/ignore_errors.py",
       "\"Error raised with error message %s\", e.message)\n                continue\n",
       "\"Error raised with error message %s\", e.message)\n                return\n",
       "Dataset.ignore_errors ends the dataset at the first failing element instead of skipping it"),
    _t("rejection-resample-mixing-weights-swapped", "order", "simdist/runtime/data/rejection_resample.py",
       "prob_original_ds.map(lambda prob: ((prob, 1.0 - prob),))",
       "prob_original_ds.map(lambda prob: ((1.0 - prob, prob),))",
       "rejection_resample draws the input itself with probability 1 - m and the filtered stream with m"),
    _t("save-num-elements-counts-records", "denominator", "simdist/runtime/data/save_load.py",
       "    count = sum(len(r) for r in shards.values()) // max(1, len(specs))\n",
       "    count = sum(len(r) for r in shards.values())\n",
       "Dataset.save records the number of records (one per component) as num_elements: a loaded dataset of "
       "tuples reports a multiple of its cardinality"),
    _t("csv-dataset-header-only-first-file", "state", "simdist/runtime/data/csv_reader.py",
       "            if p[\"header\"]:\n                next(records, None)\n",
       "            if p[\"header\"] and name == p[\"filenames\"][0]:\n                next(records, None)\n",
       "CsvDataset(header=True) skips the header line of the first file only"),
    _t("make-csv-infer-type-slice-off-by-one", "boundary", "simdist/runtime/data/make_csv.py",
       "prev in allowed[:i + 1])",
       "prev in allowed[:i])",
       "make_csv_dataset's type inference refuses a column's previous type itself: a second int32 value "
       "widens the column to int64"),
    _t("interleave-ended-slot-keeps-cursor", "order", "simdist/runtime/data/interleave.py",
       "                        slots[cursor] = None\n                        st[\"open\"] -= 1\n"
       "                        advance()\n",
       "                        slots[cursor] = None\n                        st[\"open\"] -= 1\n"
       "                        st[\"taken\"] = 0\n",
       "interleave refills a slot whose dataset ended at once, before the cursor moves on"),
    _t("assert-cardinality-fails-at-expected-count", "boundary", "simdist/runtime/data/assert_cardinality.py",
       "count > expected:",
       "count >= expected:",
       "assert_cardinality(n) fails at the n-th element (>= instead of >)"),
    # -- around training: tf.io parsing, tf.raw_ops
    _t("decode-csv-trailing-empty-field-dropped", "boundary", "simdist/runtime/ops/decode_csv.py",
       "    if include and record[-1] == delim:\n        out.append(b\"\")\n",
       "",
       "tf.io.decode_csv drops the empty last field of a record ending in the delimiter"),
    _t("parse-example-ragged-trailing-empty-rows", "boundary", "simdist/runtime/ops/example_parsing.py",
       "np.cumsum(np.bincount(rows, minlength=batch))",
       "np.cumsum(np.bincount(rows))",
       "parse_example's RaggedFeature row_splits miss the Examples after the last one with values"),
    _t("parse-fixed-len-zero-default-dropped", "state", "simdist/runtime/ops/parsing_config.py",
       "        if feature.default_value is not None:\n            self.dense_defaults[key] = feature.default_value\n"
       "\n    def _add_sparse_key",
       "        if feature.default_value:\n            self.dense_defaults[key] = feature.default_value\n"
       "\n    def _add_sparse_key",
       "a FixedLenFeature whose default_value is falsy (0, 0.0, \"\") is taken as required"),
    _t("parse-example-sequence-feature-padded-with-zeros", "state", "simdist/runtime/ops/example_parsing.py",
       "            full = np.empty((batch, longest) + tuple(shape[1:]), dtype=object if dt == \"string\" else dt)\n"
       "            full[...] = defaults[d].reshape(())\n",
       "            full = np.zeros((batch, longest) + tuple(shape[1:]), dtype=object if dt == \"string\" else dt)\n",
       "parse_example pads a batch's FixedLenSequenceFeature with zeros instead of its default_value"),
    _t("raw-ops-group-dtype-ignores-tensor", "state", "simdist/runtime/ops/raw_ops.py",
       "    dtype = next((v.dtype for v in values if isinstance(v, Tensor)), None)\n",
       "    dtype = None\n",
       "tf.raw_ops converts a Python value sharing a type attr by itself instead of to the tensor's dtype"),
    # -- around training: keras utils
    _t("pythonify-logs-unsorted", "order", "simdist/keras/utils/python_utils.py",
       "    for key, value in sorted((logs or {}).items()):\n",
       "    for key, value in (logs or {}).items():\n",
       "the logs given to callbacks and History keep the metrics' insertion order instead of Keras's sorted keys"),
    _t("get-source-inputs-duplicates", "state", "simdist/keras/utils/graph_utils.py",
       "            if all(s is not t for t in sources):\n                sources.append(s)\n",
       "            sources.append(s)\n",
       "keras.utils.get_source_inputs lists an Input once per path that reaches it"),
    _t("serialize-tuple-becomes-list", "state", "simdist/keras/utils/keras_object_serialization.py",
       "        return tuple(items) if isinstance(obj, tuple) else items   # (Keras keeps a tuple a tuple)\n",
       "        return items\n",
       "keras.utils.serialize_keras_object turns a tuple into a list"),
]
TRAINING += TRAINING_BATCH18
CATALOGUE += TRAINING_BATCH18


# -- Twenty-first session: a nineteenth blind batch (TRAINING_BATCH19), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Twenty-first session: a nineteenth blind batch"). 15 on the
#    mainstream training path, 15 in the API around training, in files no earlier mutant touched where possible.
_IMG = "simdist/keras/layers/preprocessing/image/"
TRAINING_BATCH19: list[Mutant] = [
    # -- mainstream training: layers, losses, metrics, optimizers, tf.nn and their gradients
    _t("cutmix-box-y-drawn-before-x", "order", _IMG + "cut_mix.py",
       "        x0, x1 = self._crop_bounds(batch_size, width, ratio, seed)\n"
       "        y0, y1 = self._crop_bounds(batch_size, height, ratio, seed)\n",
       "        y0, y1 = self._crop_bounds(batch_size, height, ratio, seed)\n"
       "        x0, x1 = self._crop_bounds(batch_size, width, ratio, seed)\n",
       "CutMix draws the box's y start before its x start (Keras draws x first from the seed generator)"),
    _t("random-hue-shift-not-halved", "formula", _IMG + "random_hue.py",
       "        return {\"factor\": invert * factor * 0.5}\n",
       "        return {\"factor\": invert * factor}\n",
       "RandomHue shifts the hue by the full factor draw instead of half of it"),
    _t("random-saturation-factor-without-epsilon", "formula", _IMG + "random_saturation.py",
       "        return {\"factor\": factor / (1 - factor + epsilon())}\n",
       "        return {\"factor\": factor / (1 - factor)}\n",
       "RandomSaturation's factor f / (1 - f) without Keras's epsilon: f = 1 (full saturation) divides by zero"),
    _t("random-crop-equal-side-takes-random-offset", "boundary", _IMG + "random_crop.py",
       "        if training and input_height > self.height and input_width > self.width:\n",
       "        if training and input_height >= self.height and input_width >= self.width:\n",
       "RandomCrop draws a random offset when one side equals the target (Keras takes the centred window then)"),
    _t("random-zoom-offsets-height-width-swapped", "axis", _IMG + "random_zoom.py",
       "        x_offset = ((ops.cast(image_width, \"float32\") - 1.0) / 2.0) * (1.0 - zooms[:, 0:1])\n"
       "        y_offset = ((ops.cast(image_height, \"float32\") - 1.0) / 2.0) * (1.0 - zooms[:, 1:])\n",
       "        x_offset = ((ops.cast(image_height, \"float32\") - 1.0) / 2.0) * (1.0 - zooms[:, 0:1])\n"
       "        y_offset = ((ops.cast(image_width, \"float32\") - 1.0) / 2.0) * (1.0 - zooms[:, 1:])\n",
       "RandomZoom centres the zoom with the height and width swapped (only square images come out right)"),
    _t("resizing-int-images-truncated", "formula", _IMG + "resizing.py",
       "        if is_int_dtype(images.dtype):\n            resized = self.backend.numpy.round(resized)\n",
       "",
       "Resizing casts resized integer images back by truncation instead of rounding first"),
    _t("upsampling3d-size-reversed", "order", "simdist/keras/layers/upsampling3d.py",
       "            x = tf.repeat(x, self.size[i], axis=self._first_axis() + i)\n",
       "            x = tf.repeat(x, self.size[2 - i], axis=self._first_axis() + i)\n",
       "UpSampling3D repeats the spatial axes by size in reversed order (width's factor on depth)"),
    _t("adaptive-pool-channels-first-shape-last-axis", "axis", "simdist/keras/layers/adaptive_pooling.py",
       "        return (batch_size, input_shape[1], *self.output_size)\n",
       "        return (batch_size, input_shape[-1], *self.output_size)\n",
       "adaptive pooling's channels_first output shape takes the channels from the last axis"),
    _t("squared-hinge-metric-uses-hinge", "formula", "simdist/keras/metrics/hinge_metrics.py",
       "        super().__init__(fn=squared_hinge, name=name, dtype=dtype)\n",
       "        super().__init__(fn=hinge, name=name, dtype=dtype)\n",
       "keras.metrics.SquaredHinge averages the plain hinge (a copy-paste of Hinge)"),
    _t("ctc-loss-repeats-not-separated", "formula", "simdist/runtime/ops/ctc.py",
       "        out[:, k, k - 1] += _F(1) - repeats.astype(_F)\n",
       "        out[:, k, k - 1] += _F(1)\n",
       "tf.nn.ctc_loss lets a label follow an equal label without a blank between (the repeat rule dropped)"),
    _t("erosion2d-filters-not-reversed", "order", "simdist/runtime/ops/morphology.py",
       "    return negative(dilation2d(negative(_t(value)), reverse(_t(filters), [0, 1]), strides, padding, \"NHWC\",\n",
       "    return negative(dilation2d(negative(_t(value)), _t(filters), strides, padding, \"NHWC\",\n",
       "tf.nn.erosion2d dilates the negated input by the filters as given instead of reflected"),
    _t("max-pool-argmax-grad-batch-offset-dropped", "gradient", "simdist/runtime/ops/morphology.py",
       "    if not include_batch_in_index:\n"
       "        a = a + (np.arange(x.shape[0]) * (x.size // max(x.shape[0], 1)))[:, None, None, None]\n",
       "",
       "max_pool_with_argmax's gradient scatters every image's gradient into the first image (the per-image "
       "argmax not offset by the batch)"),
    _t("schedule-free-average-weight-off-by-one", "boundary", "simdist/keras/optimizers/schedule_free_adamw.py",
       "        weight = 1.0 / local_step\n",
       "        weight = 1.0 / (local_step + 1)\n",
       "ScheduleFreeAdamW averages x with weight 1 / (t + 1) instead of 1 / t"),
    _t("weighted-xent-relu-sign", "formula", "simdist/runtime/ops/losses.py",
       "log_weight * (unary.log1p(unary.exp(-unary.abs_(logits_t))) + activations.relu(-logits_t)))",
       "log_weight * (unary.log1p(unary.exp(-unary.abs_(logits_t))) + activations.relu(logits_t)))",
       "weighted_cross_entropy_with_logits uses max(x, 0) for max(-x, 0) in log(1 + exp(-x))"),
    _t("keras-ops-normalize-zero-vector-unclamped", "missing-error", "simdist/keras/ops/op_nn.py",
       "        inv_norm = backend.numpy.minimum(inv_norm, 1.0 / epsilon)\n",
       "",
       "keras.ops.normalize's L2 path does not clamp rsqrt(sum) at 1 / epsilon: a zero vector gives NaN"),
    # -- the API around training: tf.data, tf.io, tf.signal, tf.sets, tf.lookup, tf.strings, keras config
    _t("dataset-counter-starts-after-start", "boundary", "simdist/runtime/data/scan.py",
       "lambda state, _: (state + step_t, state))",
       "lambda state, _: (state + step_t, state + step_t))",
       "Dataset.counter yields the advanced state: it starts at start + step"),
    _t("group-by-reducer-keys-first-seen-order", "order", "simdist/runtime/data/group_by_reducer.py",
       "        for key in sorted(states):\n",
       "        for key in states:\n",
       "group_by_reducer finalizes the keys in the order first seen instead of ascending (the kernel's std::map)"),
    _t("choose-from-datasets-ignores-stop-on-empty", "boundary", "simdist/runtime/data/sampling.py",
       "            if self._params[\"stop_on_empty_dataset\"]:\n                return\n",
       "",
       "DirectedInterleave drops an exhausted input and goes on even with stop_on_empty_dataset=True"),
    _t("sparse-batch-row-equal-to-shape-rejected", "boundary", "simdist/runtime/data/sparse_batch.py",
       "any(w >= 0 and d > w for d, w in zip(e.shape, want))",
       "any(w >= 0 and d >= w for d, w in zip(e.shape, want))",
       "sparse_batch refuses an element exactly as large as row_shape (DataLossError)"),
    _t("dataset-at-index-equal-cardinality", "boundary", "simdist/runtime/data/random_access.py",
       "    if not 0 <= i < n:\n",
       "    if not 0 <= i <= n:\n",
       "tf.data.experimental.at accepts the index equal to the cardinality"),
    _t("sets-difference-flip-ignored", "order", "simdist/runtime/ops/sets.py",
       "    if flipped:\n        aminusb = not aminusb\n",
       "",
       "tf.sets.difference(sparse, dense) computes dense - sparse: the operands' swap is not undone"),
    _t("window-periodic-odd-length-extended", "boundary", "simdist/runtime/ops/signal_ops.py",
       "    n = ops.cast(wl + per * even - 1, dt)\n",
       "    n = ops.cast(wl + per - 1, dt)\n",
       "hann/hamming windows of odd length take the periodic extension (N = length) too"),
    _t("ifftshift-same-as-fftshift", "formula", "simdist/runtime/ops/signal_ops.py",
       "    return _shift(x, axes, -1)\n",
       "    return _shift(x, axes, 1)\n",
       "tf.signal.ifftshift rolls as fftshift (they differ by one for odd lengths)"),
    _t("hashed-crossing-one-hot-shape-keeps-unit-axis", "axis", "simdist/keras/layers/hashed_crossing.py",
       "        if self.output_mode == \"one_hot\" and input_shape[0][-1] != 1:\n",
       "        if self.output_mode == \"one_hot\":\n",
       "HashedCrossing(output_mode='one_hot') appends num_bins to a (batch, 1) shape instead of replacing the 1"),
    _t("input-spec-max-ndim-inclusive", "boundary", "simdist/keras/layers/input_spec.py",
       "        if spec.max_ndim is not None and ndim > spec.max_ndim:\n",
       "        if spec.max_ndim is not None and ndim >= spec.max_ndim:\n",
       "InputSpec(max_ndim=n) refuses an input of exactly n dimensions"),
    _t("parse-sequence-varlen-rows-of-last-example", "boundary", "simdist/runtime/ops/sequence_parsing.py",
       "            most_rows = max(most_rows, len(groups))\n",
       "            most_rows = len(groups)\n",
       "parse_sequence_example's VarLenFeature sequence dense_shape takes the last example's frame count, not the "
       "largest"),
    _t("text-file-initializer-line-offset-ignored", "boundary", "simdist/runtime/lookup_tables.py",
       "            return number + offset\n",
       "            return number\n",
       "TextFileInitializer ignores value_index_offset for LINE_NUMBER values"),
    _t("mutable-hash-table-insert-keeps-old", "state", "simdist/runtime/lookup_tables.py",
       "            if kk in self._index:\n                self._values[self._index[kk]] = vv\n",
       "            if kk in self._index:\n                pass\n",
       "MutableHashTable.insert keeps a key's old value instead of overwriting it"),
    _t("set-image-data-format-case-sensitive", "missing-error", "simdist/keras/config.py",
       "    data_format = str(data_format).lower()\n",
       "    data_format = str(data_format)\n",
       "keras.config.set_image_data_format refuses 'Channels_First' (Keras lower-cases the argument)"),
    _t("substr-pos-at-end-rejected", "boundary", "simdist/runtime/ops/string_substr.py",
       "    if not 0 <= start <= len(s):\n",
       "    if not 0 <= start < len(s):\n",
       "tf.strings.substr refuses pos equal to the string's length (TF gives b'')"),
]
TRAINING += TRAINING_BATCH19
CATALOGUE += TRAINING_BATCH19


# -- Twenty-second session: a twentieth blind batch (TRAINING_BATCH20), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Twenty-first session: a twentieth blind batch"). 17 on the
#    mainstream training path, 13 in the API around training; 23 in files no earlier mutant touched, 6 in functions
#    no earlier mutant touched, one (CosineDecay's warmup clamp) on a line of a function an earlier mutant touched.
TRAINING_BATCH20: list[Mutant] = [
    # -- mainstream training: optimizers, metrics, losses, schedules, callbacks, layers, tf.nn and gradients
    _t("muon-lr-adjust-min-dim", "formula", "simdist/keras/optimizers/muon.py",
       "tf.cast(tf.maximum(x.shape[0], x.shape[1]), tf.float32)",
       "tf.cast(tf.minimum(x.shape[0], x.shape[1]), tf.float32)",
       "Muon's rms_rate adjustment scales by sqrt(min(rows, cols)) instead of sqrt(max(rows, cols))"),
    _t("muon-adamw-bias-correction-swapped", "formula", "simdist/keras/optimizers/muon.py",
       "        alpha = lr * ops.sqrt(1 - beta_2_power) / (1 - beta_1_power)\n",
       "        alpha = lr * ops.sqrt(1 - beta_1_power) / (1 - beta_2_power)\n",
       "Muon's AdamW path (1-D variables, embeddings) swaps the two bias corrections"),
    _t("r2-count-ignores-sample-weight", "formula", "simdist/keras/metrics/r2_score.py",
       "        self.count.assign(self.count + tf.reduce_sum(sample_weight, axis=0))\n",
       "        self.count.assign(self.count + tf.reduce_sum(tf.ones_like(sample_weight), axis=0))\n",
       "R2Score counts samples unweighted: the weighted mean of y_true is divided by the plain count"),
    _t("specificity-uses-false-negatives", "formula", "simdist/keras/metrics/sensitivity_specificity.py",
       "\"specificity\": ops.divide_no_nan(tn, tf.add(tn, fp))",
       "\"specificity\": ops.divide_no_nan(tn, tf.add(tn, fn))",
       "the *AtSpecificity / SpecificityAt* metrics compute specificity as tn / (tn + fn)"),
    _t("dice-without-epsilon", "missing-error", "simdist/keras/losses/overlap_losses.py",
       "    denominator = ops.sum(y_true, axis=axis) + ops.sum(y_pred, axis=axis) + config.epsilon()\n",
       "    denominator = ops.sum(y_true, axis=axis) + ops.sum(y_pred, axis=axis)\n",
       "the Dice loss drops its epsilon: an all-zero y_true and y_pred gives NaN instead of 1"),
    _t("generalized-xent-not-divided-by-q", "formula", "simdist/keras/losses/probabilistic_losses.py",
       "    return (1 - ops.power(p, q)) / q\n",
       "    return 1 - ops.power(p, q)\n",
       "CategoricalGeneralizedCrossEntropy forgets the 1 / q factor"),
    _t("cosine-decay-warmup-clamp-without-warmup", "boundary", "simdist/keras/optimizers/schedules.py",
       "        global_step_recomp = ops.minimum(global_step_recomp, decay_steps + warmup_steps)\n",
       "        global_step_recomp = ops.minimum(global_step_recomp, decay_steps)\n",
       "CosineDecay with warmup clamps the step at decay_steps, not decay_steps + warmup_steps"),
    _t("isotonic-grad-sums-segments", "gradient", "simdist/runtime/ops/isotonic.py",
       "    from simdist.runtime.ops.segments import unsorted_segment_mean\n",
       "    from simdist.runtime.ops.scatter import unsorted_segment_sum as unsorted_segment_mean\n",
       "tf.nn.isotonic_regression's gradient sums each pooled segment's gradient instead of averaging it"),
    _t("embedding-sparse-sqrtn-weights-not-squared", "formula", "simdist/runtime/ops/embedding_sparse.py",
       "            squared = scatter.segment_sum(math.pow_(weights, 2), segment_ids)\n",
       "            squared = scatter.segment_sum(weights, segment_ids)\n",
       "embedding_lookup_sparse(combiner='sqrtn') with weights divides by sqrt(sum w) instead of sqrt(sum w^2)"),
    _t("random-sharpness-factor-not-doubled", "formula", _IMG + "random_sharpness.py",
       "ops.cast(transformation[\"factor\"] * 2, dtype=self.compute_dtype)",
       "ops.cast(transformation[\"factor\"], dtype=self.compute_dtype)",
       "RandomSharpness blends with 1 - f instead of 1 - 2f (Keras doubles the draw)"),
    _t("color-degeneration-blend-reversed", "formula", _IMG + "random_color_degeneration.py",
       "        images = images + factor * (degenerates - images)\n",
       "        images = degenerates + factor * (images - degenerates)\n",
       "RandomColorDegeneration blends from the grayscale towards the image (f and 1 - f swapped)"),
    _t("equalization-single-value-channel-equalized", "boundary", _IMG + "equalization.py",
       "np_.where(np_.count_nonzero(hist) <= 1, channel,",
       "np_.where(np_.count_nonzero(hist) < 1, channel,",
       "Equalization equalizes a channel of one value (Keras leaves it unchanged)"),
    _t("random-erasing-side-ratios-swapped", "axis", _IMG + "random_erasing.py",
       "        x0, x1 = self._crop_bounds(batch_size, shape[self.width_axis], ratio[:, 0], seed)\n"
       "        y0, y1 = self._crop_bounds(batch_size, shape[self.height_axis], ratio[:, 1], seed)\n",
       "        x0, x1 = self._crop_bounds(batch_size, shape[self.width_axis], ratio[:, 1], seed)\n"
       "        y0, y1 = self._crop_bounds(batch_size, shape[self.height_axis], ratio[:, 0], seed)\n",
       "RandomErasing sizes the box's width by the height's ratio draw and its height by the width's"),
    _t("random-shear-x-y-swapped-in-matrix", "axis", _IMG + "random_shear.py",
       "np_.stack([ones, shear[:, 0], zeros, shear[:, 1], ones, zeros, zeros, zeros], axis=1)",
       "np_.stack([ones, shear[:, 1], zeros, shear[:, 0], ones, zeros, zeros, zeros], axis=1)",
       "RandomShear puts the y shear where the x shear goes in the affine matrix (and back)"),
    _t("posterization-upper-bits-inclusive", "boundary", _IMG + "random_posterization.py",
       "minval=self.factor[0], maxval=self.factor[1],\n",
       "minval=self.factor[0], maxval=self.factor[1] + 1,\n",
       "RandomPosterization draws its bit count with the upper end inclusive"),
    _t("resize-nearest-grad-assigns", "gradient", "simdist/runtime/ops/resize_nearest.py",
       "    np.add.at(out, (slice(None), iy, ix), g)\n",
       "    out[:, iy, ix] = g\n",
       "the nearest-neighbour resize gradient assigns instead of accumulating (upsampling keeps one output's "
       "gradient per input pixel)"),
    _t("swap-ema-finalize-epoch-off-by-one", "boundary", "simdist/keras/callbacks/swap_ema_weights.py",
       "            if epoch == self.params[\"epochs\"] - 1:\n",
       "            if epoch == self.params[\"epochs\"]:\n",
       "SwapEMAWeights(swap_on_epoch=True) never sets the averages to the swapped-in weights after the last epoch"),
    # -- the API around training: tf.nn/tf.image/tf.signal/tf.strings ops, tf.data, keras.utils, a loss mask
    _t("isotonic-equal-blocks-pooled", "boundary", "simdist/runtime/ops/isotonic.py",
       "        while minima and _daz(m, flushed) > _daz(minima[-1], flushed):\n",
       "        while minima and _daz(m, flushed) >= _daz(minima[-1], flushed):\n",
       "tf.nn.isotonic_regression pools blocks of equal means (the segments output merges ties)"),
    _t("ms-ssim-odd-size-padded-at-start", "order", "simdist/runtime/ops/image_msssim.py",
       "                padding = [[0, 0]] + [[0, r] for r in remainder]\n",
       "                padding = [[0, 0]] + [[r, 0] for r in remainder]\n",
       "tf.image.ssim_multiscale pads odd sizes at the start instead of the end before halving"),
    _t("repeat-tiles-whole-axis", "axis", "simdist/runtime/ops/repeat.py",
       "    multiples = [1] * (nd + 1)\n    multiples[axis + 1] = k\n    tiled = tile",
       "    multiples = [1] * (nd + 1)\n    multiples[axis] = k\n    tiled = tile",
       "tf.repeat with a scalar count tiles the whole axis (x, x) instead of repeating each element"),
    _t("ragged-batch-rank-of-first-unknown-axis", "axis", "simdist/runtime/data/ragged_batch.py",
       "    ragged_rank = max(axis for axis, size in enumerate(spec.shape.as_list()) if size is None)\n",
       "    ragged_rank = min(axis for axis, size in enumerate(spec.shape.as_list()) if size is None)\n",
       "Dataset.ragged_batch makes the first unknown axis the ragged rank (TF: the last)"),
    _t("from-list-spec-of-first-element", "boundary", "simdist/runtime/data/from_list.py",
       "                shape = most_specific_compatible_shape(shape, other[i].shape)\n",
       "                shape = shape\n",
       "tf.data.experimental.from_list's element_spec is the first element's shape, not the common one"),
    _t("index-directory-hidden-subdir-is-class", "boundary", "simdist/keras/utils/dataset_utils.py",
       "os.path.isdir(os.path.join(directory, subdir)) and not subdir.startswith(\".\")",
       "os.path.isdir(os.path.join(directory, subdir))",
       "image/text_dataset_from_directory take a hidden subdirectory (.ipynb_checkpoints) as a class"),
    _t("text-dataset-shuffle-buffer-not-times-8", "formula", "simdist/keras/utils/text_dataset.py",
       "    buffer = batch_size * 8 if batch_size is not None else 1024\n",
       "    buffer = batch_size if batch_size is not None else 1024\n",
       "text_dataset_from_directory shuffles with a buffer of batch_size instead of 8 * batch_size"),
    _t("draw-boxes-edge-scaled-by-size", "boundary", "simdist/runtime/ops/image_draw_boxes.py",
       "    return int(np.float32(np.float32(v) * np.float32(size - 1)))",
       "    return int(np.float32(np.float32(v) * np.float32(size)))",
       "tf.image.draw_bounding_boxes maps box coordinates by size instead of size - 1"),
    _t("dct4-ortho-missing-sqrt-half", "formula", "simdist/runtime/ops/signal_dct.py",
       "        out = out * (_pymath.sqrt(0.5) * ops.rsqrt(dim_f))\n",
       "        out = out * ops.rsqrt(dim_f)\n",
       "tf.signal.dct(type=4, norm='ortho') scales by 1/sqrt(N) instead of sqrt(1/(2N))"),
    _t("reduce-join-axes-not-reversed", "order", "simdist/runtime/ops/string_join.py",
       "    order = kept + listed[::-1]         # the first listed axis last: it varies fastest\n",
       "    order = kept + listed\n",
       "tf.strings.reduce_join over several axes joins in the listed order (TF: the first listed varies fastest)"),
    _t("fixed-length-footer-not-stripped", "boundary", "simdist/runtime/data/readers.py",
       "        body = data[header:max(header, len(data) - footer)]\n",
       "        body = data[header:]\n",
       "FixedLengthRecordDataset keeps the footer bytes in the body"),
    _t("nms-padded-score-threshold-inclusive", "boundary", "simdist/runtime/ops/image_nms_padded.py",
       "        score_mask = ops.cast(ops.greater(scores, score_threshold), scores.dtype)\n",
       "        score_mask = ops.cast(ops.greater_equal(scores, score_threshold), scores.dtype)\n",
       "non_max_suppression_padded keeps a box whose score equals score_threshold"),
    _t("circle-negative-mask-after-diagonal", "order", "simdist/keras/losses/similarity_losses.py",
       "    negative_mask = tf.logical_not(positive_mask)\n    if remove_diagonal:\n"
       "        n, m = int(tf.size(query_labels)), int(tf.size(key_labels))\n"
       "        positive_mask = tf.logical_and(positive_mask, tf.logical_not(tf.cast(tf.eye(n, m), tf.bool)))\n",
       "    if remove_diagonal:\n"
       "        n, m = int(tf.size(query_labels)), int(tf.size(key_labels))\n"
       "        positive_mask = tf.logical_and(positive_mask, tf.logical_not(tf.cast(tf.eye(n, m), tf.bool)))\n"
       "    negative_mask = tf.logical_not(positive_mask)\n",
       "the Circle loss's negative mask is taken after the diagonal is removed: each sample is its own negative"),
]
TRAINING += TRAINING_BATCH20
CATALOGUE += TRAINING_BATCH20

# -- Twenty-third session: a twenty-first blind batch (TRAINING_BATCH21), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Twenty-third session: a twenty-first blind batch (the core)").
#    All 30 on the core of the training layer as issue 29 names it: op gradients, the tape, tf.nn, Keras layers,
#    optimizers and their options, schedules, callbacks, metrics, random ops and tf.function's rewrites, a
#    distributed variable; each a function, branch or argument no earlier mutant touched.
TRAINING_BATCH21: list[Mutant] = [
    # -- optimizers, their options and constraints
    _t("ftrl-beta-not-halved", "formula", "simdist/keras/optimizers/ftrl.py",
       "        l2_reg = self.l2_regularization_strength + self.beta / (2.0 * lr)\n",
       "        l2_reg = self.l2_regularization_strength + self.beta / lr\n",
       "Ftrl adds beta / lr to the l2 strength instead of beta / (2 lr)"),
    _t("adadelta-delta-accumulator-rho-swapped", "formula", "simdist/keras/optimizers/adadelta.py",
       "        self.assign(accumulated_delta_var, ops.add(ops.multiply(rho, accumulated_delta_var),\n"
       "                                                   ops.multiply(1 - rho, ops.square(delta_var))))\n",
       "        self.assign(accumulated_delta_var, ops.add(ops.multiply(1 - rho, accumulated_delta_var),\n"
       "                                                   ops.multiply(rho, ops.square(delta_var))))\n",
       "Adadelta's running average of the squared updates weighs the new update by rho and the old by 1 - rho"),
    _t("nadam-gradient-term-next-u-product", "formula", "simdist/keras/optimizers/nadam.py",
       "                        ops.divide(ops.multiply(1 - u_t, gradient), 1 - u_product_t))\n",
       "                        ops.divide(ops.multiply(1 - u_t, gradient), 1 - u_product_t_1))\n",
       "Nadam's gradient term is bias-corrected by the next step's momentum product (u_product * u_t+1)"),
    _t("lion-momentum-decays-with-beta1", "formula", "simdist/keras/optimizers/lion.py",
       "        self.assign(m, ops.add(ops.multiply(m, beta_2), ops.multiply(gradient, (1.0 - beta_2))))\n",
       "        self.assign(m, ops.add(ops.multiply(m, beta_1), ops.multiply(gradient, (1.0 - beta_1))))\n",
       "Lion's momentum is updated with beta_1 (the interpolation factor of the step) instead of beta_2"),
    _t("lso-check-finite-ignores-inf", "boundary", "simdist/keras/optimizers/loss_scale_optimizer.py",
       "            verdicts.append(tf.reduce_all(tf.math.is_finite(values)))\n",
       "            verdicts.append(tf.reduce_all(tf.logical_not(tf.math.is_nan(values))))\n",
       "LossScaleOptimizer's finiteness check looks for NaN only: an inf gradient is applied and the scale grows"),
    _t("grad-accumulator-overwritten-not-added", "state", BO,
       "            var.assign(var + grad)\n",
       "            var.assign(grad)\n",
       "with gradient_accumulation_steps, each non-update step overwrites the accumulator with its own gradient"),
    _t("maxnorm-without-epsilon", "missing-error", "simdist/keras/constraints.py",
       "        desired = tf.clip_by_value(norms, 0, self.max_value)\n"
       "        return _cast(w, norms.dtype) * (desired / (_EPSILON + norms))\n",
       "        desired = tf.clip_by_value(norms, 0, self.max_value)\n"
       "        return _cast(w, norms.dtype) * (desired / norms)\n",
       "MaxNorm divides by the bare norm: a zero column becomes NaN (Keras adds epsilon to the norm)"),
    # -- learning-rate schedules and callbacks
    _t("polynomial-cycle-step-zero-not-special", "boundary", SCH,
       "            multiplier = ops.where(ops.equal(global_step_recomp, 0), 1.0,\n"
       "                                   ops.ceil(global_step_recomp / self.decay_steps))\n",
       "            multiplier = ops.ceil(global_step_recomp / self.decay_steps)\n",
       "PolynomialDecay(cycle=True) at step 0 multiplies decay_steps by ceil(0) = 0 (NaN; Keras uses 1)"),
    _t("cosine-restarts-fraction-not-rescaled", "formula", SCH,
       "                completed_fraction = ops.divide(ops.subtract(completed_fraction, sum_r), "
       "ops.power(t_mul, i_restart))\n",
       "                completed_fraction = ops.subtract(completed_fraction, sum_r)\n",
       "CosineDecayRestarts (t_mul != 1) measures the fraction of a later period in first-period units"),
    _t("reduce-lr-patience-off-by-one", "boundary", "simdist/keras/callbacks/reduce_lr_on_plateau.py",
       "            if self.wait >= self.patience:\n",
       "            if self.wait > self.patience:\n",
       "ReduceLROnPlateau reduces the learning rate one epoch after `patience` epochs without improvement"),
    # -- gradients and the tape
    _t("roll-grad-not-reversed", "gradient", "simdist/runtime/ops/array_more.py",
       "shift\": tuple(-s for s in op.get_attr(\"shift\")),",
       "shift\": tuple(s for s in op.get_attr(\"shift\")),",
       "tf.roll's gradient rolls the upstream gradient the same way as the forward op instead of back"),
    _t("tape-target-as-source-gets-none", "gradient", BP,
       "            if (op_id is not None and op_id != -1 and op_id in ops) or k in source_set:\n",
       "            if op_id is not None and op_id != -1 and op_id in ops:\n",
       "a target that is itself a source (tape.gradient(x, x), or a watched tensor used directly) gets no seed"),
    _t("jacobian-rows-stacked-on-last-axis", "axis", TP,
       "            out.append(array.reshape(array.stack(rows[k]) if rows[k] else",
       "            out.append(array.reshape(array.stack(rows[k], axis=-1) if rows[k] else",
       "GradientTape.jacobian stacks the per-target-element rows along the last axis (a transposed jacobian)"),
    _t("sqrt-grad-nan-under-zero-upstream", "gradient", "simdist/runtime/ops/sqrt_grads.py",
       "        return np.where(_is_zero(_ftz(dy)), np.zeros((), y.dtype), out).astype(y.dtype, copy=False)\n",
       "        return out.astype(y.dtype, copy=False)\n",
       "Sqrt's gradient at 0 with a zero upstream gradient is 0 * inf = NaN (TF's kernel gives 0)"),
    _t("elu-grad-exp-of-output", "gradient", AC,
       "lambda g, y: np.where(y < 0, g * (y + 1), g)",
       "lambda g, y: np.where(y < 0, g * np.exp(y), g)",
       "ELU's gradient on negative inputs takes exp of the output as if it were the input"),
    _t("tanh-second-derivative-drops-upstream", "gradient", AC,
       "    return [grad * -2.0 * b * a, dispatch.execute(TANH_GRAD, (a, grad))]\n",
       "    return [grad * -2.0 * a, dispatch.execute(TANH_GRAD, (a, grad))]\n",
       "tanh's second derivative (TanhGrad's gradient) forgets the upstream gradient factor b"),
    _t("silu-beta-grad-unsquared", "gradient", AC,
       "            beta_grad = math.reduce_sum(dy * unary.square(features) * s * (1.0 - s))\n",
       "            beta_grad = math.reduce_sum(dy * features * s * (1.0 - s))\n",
       "tf.nn.silu's gradient with respect to beta uses x instead of x^2"),
    # -- tf.nn: normalization, pooling, losses
    _t("l2-normalize-epsilon-added", "formula", "simdist/runtime/ops/normalization.py",
       "    square_sum = math.reduce_sum(unary.square(x), _axes(axis), keepdims=True)\n"
       "    x_inv_norm = unary.rsqrt(math.maximum(square_sum, epsilon))\n",
       "    square_sum = math.reduce_sum(unary.square(x), _axes(axis), keepdims=True)\n"
       "    x_inv_norm = unary.rsqrt(square_sum + epsilon)\n",
       "tf.math.l2_normalize adds epsilon to the squared norm instead of taking the maximum"),
    _t("moments-float16-not-promoted", "dtype", "simdist/runtime/ops/normalization.py",
       "    y = math.cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x\n",
       "    y = x\n",
       "tf.nn.moments of float16 input is computed in float16 (TF computes it in float32)"),
    _t("avg-pool-valid-count-ignores-leading-pad", "boundary", "simdist/runtime/ops/pooling.py",
       "        return np.minimum(start + k, size) - np.maximum(start, 0)\n",
       "        return np.minimum(start + k, size) - start\n",
       "avg_pool with SAME padding counts the padding before the input in a window's divisor"),
    _t("compute-average-loss-weights-not-expanded", "axis", LO,
       "        elif lr - wr == 1:\n            w = array.expand_dims(w, -1)\n",
       "        elif lr - wr == 1:\n            w = w\n",
       "tf.nn.compute_average_loss broadcasts per-sample weights against the loss's last axis, not its first"),
    # -- Keras metrics, activations and layers
    _t("sparse-categorical-accuracy-labels-not-squeezed", "axis", "simdist/keras/metrics/accuracy_metrics.py",
       "    if len(y_true.shape) == len(y_pred.shape) and ops.shape(y_true)[-1] == 1:\n"
       "        y_true = ops.squeeze(y_true, -1)\n        reshape_matches = True\n",
       "    if False:\n"
       "        y_true = ops.squeeze(y_true, -1)\n        reshape_matches = True\n",
       "sparse_categorical_accuracy keeps (batch, 1) labels unsqueezed: the comparison broadcasts to (batch, batch)"),
    _t("keras-relu-threshold-inclusive", "boundary", "simdist/keras/activations.py",
       "        x = tf.where(tf.greater(x, tf.cast(threshold, x.dtype)), x, tf.zeros_like(x))\n",
       "        x = tf.where(tf.greater_equal(x, tf.cast(threshold, x.dtype)), x, tf.zeros_like(x))\n",
       "keras relu(threshold=t) keeps an input equal to t (Keras zeroes it)"),
    _t("softmax-layer-masked-outputs-not-zeroed", "missing-error", "simdist/keras/layers/core.py",
       "        if mask is not None:\n            outputs = tf.where(mask, outputs, tf.zeros_like(outputs))\n"
       "        return outputs\n",
       "        return outputs\n",
       "the Softmax layer leaves masked positions as computed: a fully masked row is uniform, not zeros"),
    _t("attention-causal-mask-strict", "boundary", "simdist/keras/layers/dot_attention.py",
       "        causal_mask = tf.greater_equal(tf.cumsum(ones, axis=-2), tf.cumsum(ones, axis=-1))\n",
       "        causal_mask = tf.greater(tf.cumsum(ones, axis=-2), tf.cumsum(ones, axis=-1))\n",
       "Attention(use_causal_mask=True) masks the diagonal too: a query cannot attend to its own position"),
    _t("gru-impl1-recurrent-bias-after-reset", "order", RC,
       "                recurrent_h = tf.matmul(hs[2], rk[:, u * 2:])\n"
       "                if recurrent_bias is not None:\n"
       "                    recurrent_h = recurrent_h + recurrent_bias[u * 2:]\n"
       "                recurrent_h = r * recurrent_h\n",
       "                recurrent_h = r * tf.matmul(hs[2], rk[:, u * 2:])\n"
       "                if recurrent_bias is not None:\n"
       "                    recurrent_h = recurrent_h + recurrent_bias[u * 2:]\n",
       "GRU (implementation 1, reset_after) adds the candidate's recurrent bias after the reset gate"),
    # -- distribution, random ops, tf.function
    _t("sync-on-read-sum-tensor-assign-not-divided", "denominator", "simdist/strategies/sync_on_read.py",
       "                value = math.cast(math.truediv(t, n), self.dtype)\n",
       "                value = math.cast(t, self.dtype)\n",
       "a SUM sync-on-read variable assigned a tensor in cross-replica context writes it whole to every copy"),
    _t("keras-int-seed-in-second-slot", "order", "simdist/keras/random.py",
       "        return tf.constant([int(seed), 0], dtype=tf.int64)\n",
       "        return tf.constant([0, int(seed)], dtype=tf.int64)\n",
       "keras.random with an integer seed puts it in the second slot of the stateless seed pair"),
    _t("generator-skip-by-leading-dim", "formula", "simdist/runtime/ops/random_generator.py",
       "        old = self.skip(int(np.prod(values, dtype=np.float64 if values.dtype.kind == \"f\" else np.int64)))\n",
       "        old = self.skip(int(values.reshape(-1)[0]) if values.size else 1)\n",
       "tf.random.Generator advances its counter by the leading dimension, not the number of values drawn"),
    _t("grappler-folds-stateful-ops", "state", "simdist/runtime/graph/optimize.py",
       "        if n.stateful:\n            continue                     # (a random draw: computed anew by every replay)\n",
       "",
       "tf.function's constant folding and CSE treat stateful random draws as pure: one value for all calls"),
]
TRAINING += TRAINING_BATCH21
CATALOGUE += TRAINING_BATCH21

# -- Twenty-fourth session: a twenty-second blind batch (TRAINING_BATCH22), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Twenty-fourth session: a twenty-second blind batch (the core, 2)").
#    All 30 on the core of the training layer: optimizers and clipping, schedules and callbacks, op gradients and
#    the tape, tf.nn, Keras layers and metrics, the fit loop's class weights, save/load and Checkpoint of an
#    optimizer, sync-on-read variables, random ops in tf.function; each a function, branch or argument no
#    earlier mutant touched, at most four in one file.
TRAINING_BATCH22: list[Mutant] = [
    # -- optimizers, clipping
    _t("rmsprop-centered-mean-grad-rho-swapped", "formula", "simdist/keras/optimizers/rmsprop.py",
       "            self.assign(average_grad, ops.add(ops.multiply(rho, average_grad), ops.multiply(1 - rho, gradient)))\n",
       "            self.assign(average_grad, ops.add(ops.multiply(1 - rho, average_grad), ops.multiply(rho, gradient)))\n",
       "RMSprop(centered=True)'s running mean of the gradients weighs the new gradient by rho and the old by 1 - rho"),
    _t("adamax-infinity-norm-not-decayed", "formula", "simdist/keras/optimizers/adamax.py",
       "        self.assign(u, ops.maximum(ops.multiply(self.beta_2, u), ops.abs(gradient)))\n",
       "        self.assign(u, ops.maximum(u, ops.abs(gradient)))\n",
       "Adamax's exponentially weighted infinity norm forgets the beta_2 decay: u is the running maximum of |g|"),
    _t("global-norm-without-sqrt", "formula", BO,
       "    return ops.sqrt(ops.sum(ops.stack(squared)))\n",
       "    return ops.sum(ops.stack(squared))\n",
       "global_clipnorm compares the sum of squares (not its square root) with the clip norm"),
    _t("lamb-trust-ratio-zero-weights-not-special", "boundary", "simdist/keras/optimizers/lamb.py",
       "        ratio = ops.where(ops.greater(w_norm, 0), ops.where(ops.greater(g_norm, 0), (w_norm / g_norm), 1.0), 1.0)\n",
       "        ratio = ops.where(ops.greater(g_norm, 0), (w_norm / g_norm), 1.0)\n",
       "Lamb's trust ratio of an all-zero variable is 0 (no update ever), not 1"),
    _t("ftrl-shrinkage-not-doubled", "formula", "simdist/keras/optimizers/ftrl.py",
       "        grad_to_use = ops.add(gradient, ops.multiply(2 * self.l2_shrinkage_regularization_strength, variable))\n",
       "        grad_to_use = ops.add(gradient, ops.multiply(self.l2_shrinkage_regularization_strength, variable))\n",
       "Ftrl's l2 shrinkage adds l2_shrinkage * w to the gradient instead of 2 * l2_shrinkage * w"),
    _t("adadelta-epsilon-outside-rms-sqrt", "formula", "simdist/keras/optimizers/adadelta.py",
       "            return ops.sqrt(ops.add(x, self.epsilon))\n",
       "            return ops.add(ops.sqrt(x), self.epsilon)\n",
       "Adadelta's RMS adds epsilon after the square root: the first steps are about sqrt(epsilon) / epsilon too large"),
    # -- schedules and callbacks
    _t("cosine-restarts-alpha-not-rescaled", "formula", SCH,
       "        decayed = ops.add(ops.multiply((1 - alpha), cosine_decayed), alpha)\n",
       "        decayed = ops.add(cosine_decayed, alpha)\n",
       "CosineDecayRestarts adds alpha to the cosine without scaling the cosine by 1 - alpha"),
    _t("reduce-lr-waits-during-cooldown", "state", "simdist/keras/callbacks/reduce_lr_on_plateau.py",
       "        elif not self.in_cooldown():\n            self.wait += 1\n",
       "        else:\n            self.wait += 1\n",
       "ReduceLROnPlateau counts epochs without improvement during its cooldown"),
    # -- op gradients and the tape
    _t("matmul-grad-a-both-transposed-drops-ta", "gradient", "simdist/runtime/ops/linalg.py",
       "    return _mm(b, grad, ta=True, tb=True)\n\n\ndef _grad_b(",
       "    return _mm(b, grad, tb=True)\n\n\ndef _grad_b(",
       "matmul(transpose_a=True, transpose_b=True)'s gradient for a ignores b's transpose"),
    _t("top-k-grad-row-offsets-by-k", "gradient", "simdist/runtime/ops/sorting.py",
       "    offsets = array.reshape(array.range_(0, outer * in_last, in_last), [-1, 1])\n",
       "    offsets = array.reshape(array.range_(0, outer * last, last), [-1, 1])\n",
       "top_k's gradient offsets each row by k instead of the input's last dimension"),
    _t("batch-jacobian-unconnected-zeros-shape", "axis", TP,
       "            return array.zeros(t_shape + s_shape[1:], target.dtype)\n",
       "            return array.zeros(t_shape + s_shape, target.dtype)\n",
       "batch_jacobian of an unconnected source keeps the source's batch dimension in its zeros"),
    _t("persistent-tape-stops-recording-at-gradient", "state", TP,
       "        if self._recording:\n            if not self._persistent:\n                self._pop_tape()\n            else:\n",
       "        if self._recording:\n            self._pop_tape()\n            if self._persistent:\n",
       "a persistent tape's gradient() inside its context stops the recording: no higher-order derivative"),
    _t("tape-aggregate-slices-indices-reversed", "order", BP,
       "    return IndexedSlices(array.concat([g.values for g in grads], 0), array.concat(idx, 0), grads[0].dense_shape)\n",
       "    return IndexedSlices(array.concat([g.values for g in grads], 0), array.concat(idx[::-1], 0), grads[0].dense_shape)\n",
       "summing two IndexedSlices gradients concatenates the indices in the reverse order of the values"),
    _t("xent-second-order-not-centered", "gradient", "simdist/runtime/ops/losses.py",
       "    return (grad_grad - inner) * softmax\n",
       "    return grad_grad * softmax\n",
       "softmax_cross_entropy_with_logits' second-order gradient forgets to centre grad_grad"),
    _t("conv-input-grad-col-stride-from-rows", "axis", "simdist/runtime/ops/conv.py",
       "            out[:, r0:r0 + (oh - 1) * sh + 1:sh, c0:c0 + (ow - 1) * sw + 1:sw, :] += dwin[:, :, :, i, j, :]\n",
       "            out[:, r0:r0 + (oh - 1) * sh + 1:sh, c0:c0 + (ow - 1) * sh + 1:sh, :] += dwin[:, :, :, i, j, :]\n",
       "the conv input gradient steps the columns by the row stride"),
    # -- tf.nn
    _t("nn-dropout-noise-shape-none-as-one", "axis", "simdist/runtime/ops/nn.py",
       "        dims = [xd if d is None else d for d, xd in zip(dims, xs)]\n",
       "        dims = [1 if d is None else d for d, xd in zip(dims, xs)]\n",
       "tf.nn.dropout's noise_shape None entries broadcast (size 1) instead of taking x's size"),
    _t("softmax-axis-moved-not-swapped", "axis", AC,
       "    perm = list(range(x.ndim))\n    perm[axis], perm[-1] = perm[-1], perm[axis]\n    return tuple(perm)\n",
       "    perm = [d for d in range(x.ndim) if d != axis % x.ndim] + [axis % x.ndim]\n    return tuple(perm)\n",
       "softmax/log_softmax on a non-last axis moves that axis last (not a swap), then transposes back with the same perm"),
    # -- Keras layers and metrics
    _t("layernorm-gamma-not-reshaped-for-inner-axis", "axis", "simdist/keras/layers/normalization.py",
       "        if v is not None and len(v.shape) != ndims and axis != [ndims - 1]:\n",
       "        if False:\n",
       "LayerNormalization over a non-last axis broadcasts gamma and beta against the last axis"),
    _t("bn-channels-first-stats-not-reshaped", "axis", "simdist/keras/layers/normalization.py",
       "    if axis != -1:\n        shape = [1] * len(x.shape)\n",
       "    if axis not in (-1, 1):\n        shape = [1] * len(x.shape)\n",
       "BatchNormalization(axis=1) broadcasts its statistics against the last axis"),
    _t("lstm-impl1-candidate-uses-output-slice", "axis", RC,
       "            c = f * c_tm1 + i * act(x[2] + tf.matmul(hs[2], rk[:, u * 2:u * 3]))\n",
       "            c = f * c_tm1 + i * act(x[2] + tf.matmul(hs[2], rk[:, u * 3:]))\n",
       "LSTM implementation 1 (recurrent_dropout set) takes the candidate's recurrent kernel from the output gate's slice"),
    _t("mha-scores-path-unscaled", "formula", "simdist/keras/layers/attention.py",
       "        query = tf.multiply(query, tf.cast(self._inverse_sqrt_key_dim, query.dtype))\n",
       "",
       "MultiHeadAttention's einsum path (return_attention_scores, dropout) does not scale the query by 1/sqrt(key_dim)"),
    _t("top-k-accuracy-matches-not-reshaped", "axis", "simdist/keras/metrics/accuracy_metrics.py",
       "    matches = ops.cast(in_top_k(ops.cast(y_true, tf.int32), y_pred, k), config.floatx())\n"
       "    return matches if org_shape is None else tf.reshape(matches, org_shape)\n",
       "    matches = ops.cast(in_top_k(ops.cast(y_true, tf.int32), y_pred, k), config.floatx())\n"
       "    return matches\n",
       "top_k_categorical_accuracy of sequence labels returns the flattened matches, not the labels' shape"),
    # -- the fit loop, save/load and Checkpoint
    _t("class-weight-labels-truncated-not-rounded", "formula", "simdist/keras/trainers/data_adapter.py",
       "    y_numpy = np.round(y_numpy).astype(\"int32\")\n",
       "    y_numpy = y_numpy.astype(\"int32\")\n",
       "class_weight on float labels truncates them to a class instead of rounding"),
    _t("dataset-class-weight-column-labels-argmaxed", "boundary", "simdist/keras/trainers/data_adapter.py",
       "            if y.shape[-1] is not None and y.shape[-1] > 1:\n",
       "            if y.shape[-1] is not None and y.shape[-1] >= 1:\n",
       "a dataset's (batch, 1) labels take class_weight by argmax (always class 0) instead of their value"),
    _t("load-model-optimizer-not-built", "state", "simdist/keras/models/keras_file.py",
       "        model.optimizer.build(model.trainable_variables)\n",
       "        pass\n",
       "load_model does not build the optimizer before reading its variables: iterations and slots are not restored"),
    _t("checkpoint-deferred-slots-reindexed-from-zero", "order", CK,
       "                pending[int(rest)] = arr\n",
       "                pending[int(rest) - have] = arr\n",
       "a Checkpoint restored before the optimizer is built hands its slots over shifted by the variables it has"),
    # -- distribution, random ops, tf.function
    _t("sync-on-read-only-first-reads-last-copy", "order", "simdist/strategies/sync_on_read.py",
       "        if agg == VariableAggregation.ONLY_FIRST_REPLICA:\n            return self._values[0]._as_tensor()\n",
       "        if agg == VariableAggregation.ONLY_FIRST_REPLICA:\n            return self._values[-1]._as_tensor()\n",
       "an ONLY_FIRST_REPLICA sync-on-read variable read in cross-replica context gives the last replica's copy"),
    _t("random-trace-kernels-share-one-instance", "state", "simdist/runtime/ops/random_graphs.py",
       "    k = s.kernels\n    s.kernels = k + 1\n",
       "    k = s.kernels\n",
       "the random ops of one tf.function share one kernel: two ops with the same seeds continue one stream"),
    _t("graph-op-seed-counter-not-advanced", "state", "simdist/runtime/ops/random_graphs.py",
       "    n = s.op_seeds\n    s.op_seeds = n + 1\n",
       "    n = s.op_seeds\n",
       "in a tf.function under a global seed every random op without an op seed gets the same op seed"),
    _t("random-kernel-stream-shared-across-dtypes", "state", "simdist/runtime/ops/random.py",
       "    gen = _kernel((\"RandomUniform\", seed, seed2, dtype.name) + _t_key(T), seed, seed2, n * philox_dists.RESERVED,\n",
       "    gen = _kernel((\"RandomUniform\", seed, seed2) + _t_key(T), seed, seed2, n * philox_dists.RESERVED,\n",
       "eager tf.random.uniform caches one kernel per seed pair for every dtype: a float64 draw continues the float32 stream"),
]
TRAINING += TRAINING_BATCH22
CATALOGUE += TRAINING_BATCH22

# -- Twenty-fifth session: a twenty-third blind batch (TRAINING_BATCH23), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Twenty-fifth session: a twenty-third blind batch"). Optimizers
#    and their options, schedules, callbacks, op gradients, the tape, tf.nn, Keras layers, losses, metrics, the fit
#    loop, the weights file, a sync-on-read variable, the Generator and tf.function's tracing count; each a
#    function, branch or argument no earlier mutant touched, at most two in one file; more than half in areas the
#    twenty-second batch did not touch.
TRAINING_BATCH23: list[Mutant] = [
    # -- optimizers and their options
    _t("grad-accumulation-updates-first-of-group", "boundary", BO,
       "            is_update_step = tf.equal(tf.math.floormod(_read(self._iterations) + 1, tf.constant(steps, tf.int64)), 0)\n",
       "            is_update_step = tf.equal(tf.math.floormod(_read(self._iterations), tf.constant(steps, tf.int64)), 0)\n",
       "gradient accumulation updates at the first step of each group of gradient_accumulation_steps, not the last"),
    _t("adam-first-moment-weights-swapped", "formula", "simdist/keras/optimizers/adam.py",
       "        self.assign_add(m, ops.multiply(ops.subtract(gradient, m), 1 - self.beta_1))\n",
       "        self.assign_add(m, ops.multiply(ops.subtract(gradient, m), self.beta_1))\n",
       "Adam's first moment moves towards the gradient by beta_1 instead of 1 - beta_1"),
    _t("adafactor-matrices-not-factored", "boundary", "simdist/keras/optimizers/adafactor.py",
       "        if len(variable.shape) >= 2:\n",
       "        if len(variable.shape) > 2:\n",
       "Adafactor factors the second moment only for rank > 2: a Dense kernel takes the unfactored path"),
    _t("lso-replica-verdict-from-last-replica", "order", "simdist/keras/optimizers/loss_scale_optimizer.py",
       "            lambda strategy, verdicts: strategy.experimental_local_results(verdicts)[0],\n",
       "            lambda strategy, verdicts: strategy.experimental_local_results(verdicts)[-1],\n",
       "LossScaleOptimizer under a strategy takes the last replica's finiteness verdict, not replica 0's"),
    # -- schedules
    _t("cosine-decay-step-not-clamped", "boundary", SCH,
       "            global_step_recomp = ops.minimum(global_step_recomp, decay_steps)\n"
       "            return self._decay_function(",
       "            return self._decay_function(",
       "CosineDecay (no warmup) does not hold alpha after decay_steps: the cosine climbs again"),
    _t("cosine-restarts-constant-period-not-wrapped", "formula", SCH,
       "                i_restart = ops.floor(completed_fraction)\n                completed_fraction -= i_restart\n",
       "                i_restart = ops.floor(completed_fraction)\n",
       "CosineDecayRestarts(t_mul=1) keeps the whole completed fraction instead of the fraction of the current period"),
    # -- callbacks
    _t("lr-scheduler-learning-rate-not-logged", "state", "simdist/keras/callbacks/learning_rate_scheduler.py",
       "    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:\n"
       "        log_learning_rates(self.model.optimizer, logs if logs is not None else {})\n",
       "    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:\n        pass\n",
       "LearningRateScheduler does not write logs['learning_rate'] at each epoch's end (History lacks it)"),
    _t("checkpoint-missing-monitor-skips-save", "boundary", "simdist/keras/callbacks/model_checkpoint.py",
       "            warnings.warn(f\"Can save best model only with {self.monitor} available.\", stacklevel=2)\n"
       "            return True\n",
       "            warnings.warn(f\"Can save best model only with {self.monitor} available.\", stacklevel=2)\n"
       "            return False\n",
       "ModelCheckpoint(save_best_only=True) with its monitor missing from the logs saves nothing instead of every epoch"),
    # -- op gradients
    _t("segment-prod-grad-single-zero-zeroed", "boundary", "simdist/runtime/ops/segments.py",
       "    zeros = scatter.segment_sum(math.cast(zero, dtypes.int32), ids)\n"
       "    grad = math.where(math.greater(zeros, 1), array.zeros_like(grad), grad)\n",
       "    zeros = scatter.segment_sum(math.cast(zero, dtypes.int32), ids)\n"
       "    grad = math.where(math.greater(zeros, 0), array.zeros_like(grad), grad)\n",
       "segment_prod's gradient is zero for a segment with one zero (the zero's gradient is the others' product)"),
    _t("euclidean-norm-grad-upstream-not-reshaped", "axis", "simdist/runtime/ops/reductions.py",
       "        out, grad = array.reshape(out, kept), array.reshape(grad, kept)\n",
       "        out = array.reshape(out, kept)\n",
       "reduce_euclidean_norm's gradient (keepdims=False) broadcasts the upstream gradient against the last axis"),
    _t("tensor-scatter-sub-updates-grad-not-negated", "gradient", "simdist/runtime/ops/scatter.py",
       "    return [array.identity(grad), None, unary.negative(gather_nd(grad, op.inputs[1]))]\n",
       "    return [array.identity(grad), None, gather_nd(grad, op.inputs[1])]\n",
       "tensor_scatter_nd_sub's gradient for the updates is +grad, as for tensor_scatter_nd_add"),
    _t("matrix-solve-grad-rhs-not-adjoint", "gradient", "simdist/runtime/ops/linalg_more.py",
       "    grad_b = solve(a, grad, adjoint=not adj)\n",
       "    grad_b = solve(a, grad, adjoint=adj)\n",
       "matrix_solve's gradient solves with a instead of a's adjoint"),
    _t("matrix-determinant-grad-inverse-not-transposed", "gradient", "simdist/runtime/ops/linalg_more.py",
       "    return [_times_matrices(grad * c, inv(a, adjoint=True))]\n",
       "    return [_times_matrices(grad * c, inv(a))]\n",
       "det's gradient is det * inv(a) instead of det * inv(a)^T"),
    _t("depthwise-filter-grad-multiplier-major", "axis", "simdist/runtime/ops/conv.py",
       "    dyc = dy.reshape(-1, c, m).transpose(1, 0, 2)                             # [C, P, M]\n"
       "    return matmul(by_channel, dyc)",
       "    dyc = dy.reshape(-1, m, c).transpose(2, 0, 1)                             # [C, P, M]\n"
       "    return matmul(by_channel, dyc)",
       "depthwise_conv2d's filter gradient reads the output channels multiplier-major (c * m + j is channel-major)"),
    # -- the tape
    _t("jacobian-unconnected-zero-not-passed", "missing-error", TP,
       "                g = backprop.imperative_grad(tape, [y], flat_sources, None, unconnected, taped_sources=True)\n",
       "                g = backprop.imperative_grad(tape, [y], flat_sources, None, \"none\", taped_sources=True)\n",
       "jacobian(unconnected_gradients=ZERO) of an unconnected source gives None, not zeros"),
    _t("tape-cast-densifies-indexed-slices", "state", TP,
       "_SLICES_THROUGH = frozenset({\"Identity\", \"Cast\", \"Neg\", \"AddN\", \"AddV2\", \"Sub\", \"ConcatV2\"})\n",
       "_SLICES_THROUGH = frozenset({\"Identity\", \"Neg\", \"AddN\", \"AddV2\", \"Sub\", \"ConcatV2\"})\n",
       "a Cast after a gather makes the variable's gradient a dense tensor instead of IndexedSlices"),
    # -- tf.nn
    _t("nn-pool1d-stride-from-ksize", "axis", "simdist/runtime/ops/nn_more.py",
       "    return array.squeeze(pool2d(x, k, s, padding, \"NHWC\" if fmt == \"NWC\" else \"NCHW\"), [expanding])\n",
       "    return array.squeeze(pool2d(x, k, k, padding, \"NHWC\" if fmt == \"NWC\" else \"NCHW\"), [expanding])\n",
       "tf.nn.max_pool/avg_pool of rank-3 input (1-D pooling) strides by the window size"),
    _t("embedding-lookup-max-norm-last-axis-only", "axis", "simdist/runtime/ops/nn.py",
       "    axes = list(range(ids_rank, values.ndim))\n",
       "    axes = [values.ndim - 1]\n",
       "tf.nn.embedding_lookup(max_norm=) clips each vector of the last axis, not each looked-up embedding whole"),
    # -- Keras layers
    _t("attention-key-input-ignored", "boundary", "simdist/keras/layers/dot_attention.py",
       "        k = inputs[2] if len(inputs) > 2 else v\n",
       "        k = inputs[2] if len(inputs) > 3 else v\n",
       "Attention([query, value, key]) scores against the value: the key input is ignored"),
    _t("alpha-dropout-shift-sign", "formula", "simdist/keras/layers/noise.py",
       "            b = -a * alpha_p * self.rate\n",
       "            b = a * alpha_p * self.rate\n",
       "AlphaDropout's affine shift b has the wrong sign: training outputs lose zero mean"),
    # -- losses and metrics
    _t("binary-focal-label-smoothing-full", "formula", "simdist/keras/losses/probabilistic_losses.py",
       "        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing\n",
       "        y_true = y_true * (1.0 - label_smoothing) + label_smoothing\n",
       "binary focal crossentropy smooths labels towards 1 (+ label_smoothing) instead of towards 0.5"),
    _t("scce-sequence-labels-not-squeezed", "axis", "simdist/keras/ops/tf_nn.py",
       "    if len(target.shape) == len(output.shape) and target.shape[-1] == 1:\n        target = tf.squeeze(target, axis=-1)\n",
       "    if len(target.shape) == 2 and target.shape[-1] == 1:\n        target = tf.squeeze(target, axis=-1)\n",
       "keras.ops.sparse_categorical_crossentropy squeezes a trailing 1 of the labels only for rank-2 labels "
       "(not (b, t, 1))"),
    _t("sum-metric-samplewise-mean", "denominator", "simdist/keras/metrics/reduction_metrics.py",
       "        values, _ = reduce_to_samplewise_values(values, sample_weight, reduce_fn=ops.sum, dtype=self.dtype)\n",
       "        values, _ = reduce_to_samplewise_values(values, sample_weight, reduce_fn=ops.mean, dtype=self.dtype)\n",
       "keras.metrics.Sum of rank > 1 values averages each sample's entries instead of summing them"),
    _t("accuracy-ranks-not-matched", "axis", "simdist/keras/metrics/accuracy_metrics.py",
       "    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)\n"
       "    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)\n"
       "    return ops.cast(tf.equal(y_true, y_pred), config.floatx())\n",
       "    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)\n"
       "    return ops.cast(tf.equal(y_true, y_pred), config.floatx())\n",
       "keras.metrics.accuracy of (n,) labels and (n, 1) predictions broadcasts to (n, n) instead of matching ranks"),
    # -- the fit loop, the weights file
    _t("epoch-iterator-restarts-one-step-late", "boundary", "simdist/keras/trainers/epoch_iterator.py",
       "            if self._num_batches and self._steps_seen >= self._num_batches:\n"
       "                self._current_iterator = iter(self._get_iterator())\n",
       "            if self._num_batches and self._steps_seen > self._num_batches:\n"
       "                self._current_iterator = iter(self._get_iterator())\n",
       "fit(steps_per_epoch=) over a finite input: an epoch ending exactly on the data's end does not restart it "
       "(the next epoch runs no step)"),
    _t("evaluate-steps-ignored", "missing-error", "simdist/keras/trainers/trainer.py",
       "                                                  steps_per_epoch=steps, shuffle=False)\n",
       "                                                  steps_per_epoch=None, shuffle=False)\n",
       "evaluate(steps=) over arrays runs every batch"),
    _t("weights-file-duplicate-names-from-two", "boundary", "simdist/keras/models/saving.py",
       "    used[name] = 0\n    return name\n",
       "    used[name] = 1\n    return name\n",
       "the weights file names a type's second object `<name>_2` (Keras: `<name>_1`), so Keras's files load shifted"),
    # -- distribution, random ops, tf.function
    _t("sync-on-read-cross-replica-write-primary-only", "placement", "simdist/strategies/sync_on_read.py",
       "        for c in self._values:\n            getattr(c, method)(value)\n        if not read_value:\n",
       "        for c in self._values[:1]:\n            getattr(c, method)(value)\n        if not read_value:\n",
       "a sync-on-read variable's cross-replica assign writes only the first replica's copy"),
    _t("generator-split-key-in-counter", "order", "simdist/runtime/ops/random_generator.py",
       "        return [Generator(state=np.array([0] * (_STATE_SIZE[self._alg] - 1) + [int(k)], np.int64), alg=self._alg)\n",
       "        return [Generator(state=np.array([int(k)] + [0] * (_STATE_SIZE[self._alg] - 1), np.int64), alg=self._alg)\n",
       "Generator.split puts each new key in the counter slot of the state instead of the key slot"),
    _t("tracing-count-defaults-not-applied", "state", "simdist/tf/_tracing_count.py",
       "        bound.apply_defaults()\n",
       "",
       "tf.function counts f(x) and f(x, default) as two traces: the call is keyed without its defaults"),
]
TRAINING += TRAINING_BATCH23
CATALOGUE += TRAINING_BATCH23

# -- Twenty-sixth session: a twenty-fourth blind batch (TRAINING_BATCH24), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Twenty-sixth session: a twenty-fourth blind batch"). Op
#    gradients (selu's second order, segment and scatter ties, a dropped id, cross), the tape (custom_gradient's
#    variables, a re-watched tensor), tf.nn (crelu, sufficient_statistics, compute_average_loss), Embedding's
#    mask, losses, metrics, callbacks, a schedule's warmup, optimizer options (loss scaling, global_clipnorm,
#    Ftrl), class weights of a dataset, distributed variables, random ops, tf.function and CheckpointManager;
#    each a function, branch or argument no earlier mutant touched, at most two in one file.
TRAINING_BATCH24: list[Mutant] = [
    # -- op gradients
    _t("selu-second-order-output-term-dropped", "gradient", "simdist/runtime/ops/activations.py",
       "            math.where(selu_x < 0.0, grad * op.inputs[0], array.zeros_like(selu_x))]\n",
       "            array.zeros_like(selu_x)]\n",
       "SeluGrad's gradient with respect to selu's output is dropped: selu's second derivative is 0 for x < 0"),
    _t("unsorted-segment-sum-grad-negative-ids-kept", "gradient", "simdist/runtime/ops/array.py",
       "    return [math.where(keep, gathered, zeros_like(gathered)), None]\n",
       "    return [gathered, None]\n",
       "unsorted_segment_sum's gradient gives a dropped (negative) id the gradient of segment 0 instead of zeros"),
    _t("tensor-scatter-max-grad-ties-not-shared", "gradient", "simdist/runtime/ops/array_more.py",
       "    x_grad = grad * x_ind / ind\n",
       "    x_grad = grad * x_ind\n",
       "tensor_scatter_nd_max/min's gradient gives x the whole gradient where an update ties it (not shared)"),
    _t("cross-grad-first-operand-sign", "gradient", "simdist/runtime/ops/linalg_more.py",
       "    return [cross(v, grad), cross(grad, u)]\n",
       "    return [cross(grad, v), cross(grad, u)]\n",
       "the gradient of cross(u, v) with respect to u has its operands swapped (the sign flips)"),
    _t("segment-max-grad-ties-not-shared", "gradient", "simdist/runtime/ops/segments.py",
       "    return [math.where(selected, array.gather(math.divide(grad, count), ids), array.zeros_like(x)), None]\n",
       "    return [math.where(selected, array.gather(grad, ids), array.zeros_like(x)), None]\n",
       "segment_max/segment_min's (sorted) gradient gives every tied maximum the whole gradient"),
    # -- the tape
    _t("custom-gradient-watcher-keeps-non-trainable", "state", "simdist/runtime/autodiff/tape.py",
       "        if getattr(owner, \"trainable\", True) and all(s is not owner for s in self._seen):\n",
       "        if all(s is not owner for s in self._seen):\n",
       "tf.custom_gradient hands grad_fn the non-trainable variables read inside too"),
    _t("tape-rewatch-cuts-history", "state", "simdist/runtime/autodiff/tape.py",
       "        k = id(x)\n        if k not in self.tensor_tape:\n            self.tensor_tape[k] = -1\n",
       "        k = id(x)\n        if True:\n            self.tensor_tape[k] = -1\n",
       "watching a tensor the tape already records (the output of a recorded op) makes it a leaf: the gradient "
       "stops there (TF keeps its history)"),
    # -- tf.nn
    _t("crelu-axis-ignored", "axis", "simdist/runtime/ops/nn_more.py",
       "    return relu(concat([x, -x], axis))\n",
       "    return relu(concat([x, -x], -1))\n",
       "tf.nn.crelu concatenates x and -x on the last axis whatever `axis` says"),
    _t("sufficient-statistics-mean-not-shifted", "formula", "simdist/runtime/ops/nn_more.py",
       "        m_ss = math.subtract(xt, shift)\n",
       "        m_ss = xt\n",
       "tf.nn.sufficient_statistics with a shift sums x, not x - shift, for the mean statistic"),
    _t("compute-average-loss-weights-not-squeezed", "axis", "simdist/runtime/ops/losses.py",
       "            w = array.squeeze(w, [-1])\n",
       "            pass\n",
       "tf.nn.compute_average_loss with (n, 1) weights for (n,) losses broadcasts to (n, n) instead of squeezing"),
    # -- Keras layers
    _t("embedding-mask-zero-masks-negative-ids", "boundary", "simdist/keras/layers/core.py",
       "        return tf.not_equal(inputs, tf.zeros_like(inputs))\n",
       "        return tf.greater(inputs, tf.zeros_like(inputs))\n",
       "Embedding(mask_zero=True) masks negative ids as well as 0"),
    # -- losses
    _t("categorical-focal-logits-softmax-last-axis", "axis", "simdist/keras/losses/probabilistic_losses.py",
       "        y_pred = activations.softmax(y_pred, axis=axis)\n",
       "        y_pred = activations.softmax(y_pred)\n",
       "categorical_focal_crossentropy(from_logits=True, axis=0) takes the softmax over the last axis"),
    _t("msle-targets-not-clipped", "boundary", "simdist/keras/losses/regression_losses.py",
       "    second_log = tf.math.log(ops.maximum(y_true, epsilon) + 1.0)\n",
       "    second_log = tf.math.log(y_true + 1.0)\n",
       "mean_squared_logarithmic_error takes log(y_true + 1) of negative targets instead of clipping them at epsilon"),
    _t("loss-weights-rank-one-values-not-expanded", "axis", "simdist/keras/losses/loss.py",
       "        if r1 == 1 and expand_rank_1:\n            x1 = ops.expand_dims(x1, -1)\n",
       "        if r1 == 1 and expand_rank_1:\n            x2 = ops.squeeze(x2, -1)\n",
       "rank-1 values against (n, 1) weights: the weights are squeezed instead of the values expanded "
       "(reduction='none' returns (n,), not (n, 1))"),
    # -- metrics
    _t("cosine-similarity-metric-sums-last-axis", "axis", "simdist/keras/metrics/regression_metrics.py",
       "    return tf.reduce_sum(ops.l2_normalize(y_true, axis=axis) * ops.l2_normalize(y_pred, axis=axis), axis=axis)\n",
       "    return tf.reduce_sum(ops.l2_normalize(y_true, axis=axis) * ops.l2_normalize(y_pred, axis=axis), axis=-1)\n",
       "keras.metrics.CosineSimilarity(axis=0) normalises along axis 0 but sums the products over the last axis"),
    _t("auc-pr-curve-axes-swapped", "order", "simdist/keras/metrics/confusion_metrics.py",
       "            x, y = recall, ops.divide_no_nan(tps, tps + fps)\n",
       "            x, y = ops.divide_no_nan(tps, tps + fps), recall\n",
       "AUC(curve='PR') with a Riemann summation integrates recall over precision (the axes swapped)"),
    _t("auc-interpolated-pr-multi-label-summed", "denominator", "simdist/keras/metrics/confusion_metrics.py",
       "            by_label_auc = ops.sum(pr_auc_increment, axis=0)\n            if self.label_weights is None:\n"
       "                return ops.mean(by_label_auc)\n",
       "            by_label_auc = ops.sum(pr_auc_increment, axis=0)\n            if self.label_weights is None:\n"
       "                return ops.sum(by_label_auc)\n",
       "AUC(curve='PR', multi_label=True) with interpolation sums the labels' AUCs instead of averaging them"),
    # -- callbacks, schedules
    _t("reduce-lr-cooldown-never-counts-down", "state", "simdist/keras/callbacks/reduce_lr_on_plateau.py",
       "        if self.in_cooldown():\n            self.cooldown_counter -= 1\n",
       "        if self.in_cooldown():\n            pass\n",
       "ReduceLROnPlateau never counts its cooldown down: after the first reduction it never reduces again"),
    _t("early-stopping-improvement-not-counted-as-waiting", "boundary", "simdist/keras/callbacks/early_stopping.py",
       "        self.wait += 1\n        if self._is_improvement(current, self.best):\n            self.best = current\n",
       "        improved = self._is_improvement(current, self.best)\n        self.wait += 0 if improved else 1\n"
       "        if improved:\n            self.best = current\n",
       "EarlyStopping with a baseline not reached: an improving epoch does not count towards patience"),
    _t("cosine-warmup-delta-not-offset", "formula", "simdist/keras/optimizers/schedules.py",
       "        total_step_delta = warmup_target - initial_learning_rate\n",
       "        total_step_delta = warmup_target\n",
       "CosineDecay's linear warmup climbs by warmup_target, not by warmup_target - initial_learning_rate"),
    # -- optimizers and their options
    _t("lso-scale-loss-uses-initial-scale", "state", "simdist/keras/optimizers/loss_scale_optimizer.py",
       "        scale = self.dynamic_scale if self.built else self.initial_scale\n",
       "        scale = self.initial_scale\n",
       "LossScaleOptimizer.scale_loss multiplies by the initial scale, not the current dynamic scale"),
    _t("global-clipnorm-non-finite-not-nan", "boundary", "simdist/keras/optimizers/base_optimizer.py",
       "    scale = scale_for_finite + (use_norm - use_norm)\n",
       "    scale = scale_for_finite\n",
       "global_clipnorm with a non-finite global norm scales the gradients by 0 instead of making them NaN"),
    _t("ftrl-sigma-from-new-accumulator-only", "formula", "simdist/keras/optimizers/ftrl.py",
       "            ops.divide(ops.subtract(ops.power(new_accum, -lr_power), ops.power(accum, -lr_power)), lr), variable)))\n",
       "            ops.divide(ops.subtract(ops.power(new_accum, -lr_power), ops.power(new_accum, -lr_power)), lr), variable)))\n",
       "Ftrl's sigma uses the new accumulator twice (sigma = 0): the linear term forgets sigma * w"),
    # -- the fit loop
    _t("dataset-class-weight-unit-labels-truncated", "boundary", "simdist/keras/trainers/data_adapter.py",
       "                y_classes = tf.cast(tf.round(tf.squeeze(y, axis=-1)), tf.int32)\n",
       "                y_classes = tf.cast(tf.squeeze(y, axis=-1), tf.int32)\n",
       "fit(dataset, class_weight=) truncates (n, 1) float labels to their class instead of rounding them"),
    # -- distribution
    _t("sync-on-read-cross-replica-gather-primary", "placement", "simdist/strategies/sync_on_read.py",
       "            return array.gather(self._cross_replica_value(), indices)\n",
       "            return array.gather(self._values[0]._as_tensor(), indices)\n",
       "tf.gather of a sync-on-read variable in cross-replica context reads the first copy's rows, not the aggregate's"),
    _t("mirrored-none-replica-update-writes-primary", "placement", "simdist/strategies/dist_variables.py",
       "        getattr(self._values[replica], method)(value)\n",
       "        getattr(self._values[0], method)(value)\n",
       "a MirroredVariable without aggregation updated in replica context: every replica writes the first copy"),
    # -- random ops
    _t("create-rng-state-vector-padded-right", "order", "simdist/runtime/ops/random_generator.py",
       "        vals = [0] * (size - len(vals)) + vals\n",
       "        vals = vals + [0] * (size - len(vals))\n",
       "tf.random.create_rng_state (Generator.from_seed) of a short seed vector pads zeros on the right"),
    _t("generator-replica-counter-words-swapped", "order", "simdist/runtime/ops/random_generator.py",
       "        kc = stack([constant(rid, dtype=dtypes.int64), constant(0, dtype=dtypes.int64), old[2]])\n",
       "        kc = stack([constant(0, dtype=dtypes.int64), constant(rid, dtype=dtypes.int64), old[2]])\n",
       "a Generator drawn in a replica mixes the replica id into the high counter word instead of the low one"),
    # -- tf.function, Checkpoint
    _t("function-numpy-defaults-not-tensors", "dtype", "simdist/tf/_function.py",
       "        missing = {n: params[n].default for n in found if n not in given}\n",
       "        missing = {}\n",
       "tf.function leaves a NumPy default of an omitted argument a NumPy value (TF binds it as a tensor)"),
    _t("manager-checkpoint-interval-inclusive", "boundary", "simdist/strategies/checkpoint.py",
       "                if check_interval and step < self._last_checkpoint_step + self._checkpoint_interval:\n",
       "                if check_interval and step <= self._last_checkpoint_step + self._checkpoint_interval:\n",
       "CheckpointManager(checkpoint_interval=k) skips the save at exactly k steps after the last"),
]
TRAINING += TRAINING_BATCH24
CATALOGUE += TRAINING_BATCH24

# -- Twenty-seventh session: a twenty-fifth blind batch (TRAINING_BATCH25), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Twenty-seventh session: a twenty-fifth blind batch"). Optimizer
#    options (Adagrad's accumulator, exclude_from_weight_decay's list, tf.train.ExponentialMovingAverage), callbacks
#    (SwapEMAWeights, min_delta, ModelCheckpoint's batch count, CSVLogger), fit's EMA, the tape (gathered variables,
#    a target as its own source, custom_gradient's argument variables), op gradients (sparse segments, eigvalsh,
#    svd's values, MaxPoolGradGrad, BiasAddGrad's gradient), tf.nn (softmax xent's axis, weighted_moments), losses
#    and metrics (l2_normalize of a zero vector, R2Score's adjustment, weighted Mean), GroupNormalization,
#    Attention's causal mask, keras.random's seed, Generator.from_key_counter, tf.function (a copied object's
#    method, NumPy in a list), CheckpointManager, distributed EMA and sync-on-read assign; each a function,
#    branch or argument no earlier mutant touched, at most two in one file.
TRAINING_BATCH25: list[Mutant] = [
    # -- optimizers and their options
    _t("adagrad-accumulator-assigned-not-added", "state", "simdist/keras/optimizers/adagrad.py",
       "        self.assign_add(accumulator, ops.square(gradient))\n",
       "        self.assign(accumulator, ops.square(gradient))\n",
       "Adagrad's accumulator is overwritten by the step's squared gradient instead of summing every step's"),
    _t("exclude-weight-decay-list-accumulates", "state", "simdist/keras/optimizers/base_optimizer.py",
       "        self._exclude_from_weight_decay = {self._var_key(v) for v in var_list} if var_list else set()\n",
       "        self._exclude_from_weight_decay = getattr(self, \"_exclude_from_weight_decay\", set()) | "
       "({self._var_key(v) for v in var_list} if var_list else set())\n",
       "a second exclude_from_weight_decay(var_list=...) adds to the earlier exclusions instead of replacing them"),
    _t("tf-ema-num-updates-decay-not-capped", "formula", "simdist/tf/_moving_averages.py",
       "            decay = tf.minimum(decay, (1.0 + n) / (10.0 + n))\n",
       "            decay = (1.0 + n) / (10.0 + n)\n",
       "tf.train.ExponentialMovingAverage(num_updates=n) uses (1 + n) / (10 + n) even when decay is smaller"),
    # -- callbacks and the fit loop
    _t("swap-ema-finalize-copies-into-variables", "order", "simdist/keras/callbacks/swap_ema_weights.py",
       "        extended.update(average, lambda a, b: a.assign(b), args=(var,))\n",
       "        extended.update(var, lambda a, b: a.assign(b), args=(average,))\n",
       "SwapEMAWeights(swap_on_epoch=True)'s last epoch copies the averages into the variables instead of the "
       "(swapped-in) variables into the averages"),
    _t("monitor-min-delta-sign-flipped", "formula", "simdist/keras/callbacks/monitor_callback.py",
       "        return bool(self.monitor_op(monitor_value - self.min_delta, reference_value))\n",
       "        return bool(self.monitor_op(monitor_value + self.min_delta, reference_value))\n",
       "min_delta is added instead of subtracted: an improvement smaller than min_delta counts (mode min)"),
    _t("model-checkpoint-batch-gap-counted-once", "boundary", "simdist/keras/callbacks/model_checkpoint.py",
       "            add_batches = batch - self._last_batch_seen\n",
       "            add_batches = 1\n",
       "ModelCheckpoint(save_freq=k) counts one batch per callback call, not the batches between "
       "(steps_per_execution > 1 saves too late)"),
    _t("csv-logger-val-columns-not-reserved", "state", "simdist/keras/callbacks/csv_logger.py",
       "                self.keys.extend([f\"val_{k}\" for k in self.keys])\n",
       "                pass\n",
       "CSVLogger's header has only the first epoch's keys: with validation_freq > 1 the later val_ columns are lost"),
    _t("fit-ema-not-finalized", "state", "simdist/keras/trainers/trainer.py",
       "            self.optimizer.finalize_variable_values(self._trainer_trainable_weights())\n",
       "            pass\n",
       "fit does not write the EMA averages into the model at its end (use_ema without ema_overwrite_frequency)"),
    # -- the tape
    _t("gathered-grad-indices-not-flattened", "gradient", "simdist/runtime/autodiff/tape.py",
       "            return [IndexedSlices(array.reshape(g, [n] + shape[1:]), array.reshape(indices, [n]),\n",
       "            return [IndexedSlices(g, indices,\n",
       "a variable gathered with rank-2 indices gets IndexedSlices of the unflattened indices and values"),
    _t("tape-target-as-source-unseen", "state", "simdist/runtime/autodiff/backprop.py",
       "        seen = not taped_sources or k in tensor_tape or k in target_set\n",
       "        seen = not taped_sources or k in tensor_tape\n",
       "an unwatched tensor that is both target and source gets None instead of ones"),
    _t("custom-gradient-argument-variable-in-variables", "state", "simdist/runtime/autodiff/custom_gradient.py",
       "        variables = [v for v in watcher.watched_variables() if all(v is not a for a in all_inputs)]\n",
       "        variables = list(watcher.watched_variables())\n",
       "a variable passed to a custom_gradient function as an argument is also handed to grad_fn as a variable"),
    # -- op gradients
    _t("sparse-segment-sparse-grad-indices-repeated", "gradient", "simdist/runtime/ops/sparse_segments.py",
       "        uniq = np.unique(idx)\n        return full[uniq], uniq.astype(idx.dtype)\n",
       "        uniq = np.asarray(idx)\n        return full[uniq], uniq.astype(idx.dtype)\n",
       "sparse_segment_*(sparse_gradient=True)'s IndexedSlices repeat a row used twice (its sum counted twice)"),
    _t("svd-values-grad-v-not-adjoint", "gradient", "simdist/runtime/ops/linalg_decomp.py",
       "        return [matmul(u, matmul(grad_s_mat, v, adjoint_b=True))]\n",
       "        return [matmul(u, matmul(grad_s_mat, v))]\n",
       "the gradient of the singular values alone (compute_uv=False) is U diag(g) V instead of U diag(g) V^H"),
    _t("eigvalsh-grad-eigenvectors-transposed", "gradient", "simdist/runtime/ops/linalg_decomp.py",
       "        grad_a = matmul(v, matmul(diag(grad_e), v, adjoint_b=True))\n",
       "        grad_a = matmul(v, matmul(diag(grad_e), v), adjoint_a=True)\n",
       "eigvalsh's gradient is V^T diag(g) V instead of V diag(g) V^T"),
    _t("max-pool-grad-grad-ties-to-last", "gradient", "simdist/runtime/ops/pooling.py",
       "    idx = np.argmax(eq, axis=3)[:, :, :, None, :]\n",
       "    idx = (eq.shape[3] - 1 - np.argmax(eq[:, :, :, ::-1, :], axis=3))[:, :, :, None, :]\n",
       "max_pool's second-order gradient (MaxPoolGradGrad) reads the last of tied maxima in a window, not the first"),
    # -- tf.nn
    _t("softmax-xent-axis-labels-not-transposed", "axis", "simdist/runtime/ops/losses.py",
       "            precise = array.transpose(precise, perm)\n            labels_t = array.transpose(labels_t, perm)\n",
       "            precise = array.transpose(precise, perm)\n",
       "softmax_cross_entropy_with_logits(axis=k) moves the logits' class axis last but not the labels'"),
    _t("bias-add-grad-grad-data-format-ignored", "axis", "simdist/runtime/ops/nn.py",
       "    ax = _channel_axis(len(shape), op.get_attr(\"data_format\"))\n    expanded = array.reshape(grad, [d if i == ax else 1 for i, d in enumerate(shape)])\n",
       "    ax = _channel_axis(len(shape), \"NHWC\")\n    expanded = array.reshape(grad, [d if i == ax else 1 for i, d in enumerate(shape)])\n",
       "BiasAddGrad's gradient (bias_add's second order) tiles along the last axis for NCHW too"),
    _t("weighted-moments-weights-not-broadcast", "denominator", "simdist/runtime/ops/nn_more.py",
       "    sum_of_weights = math.reduce_sum(broadcasted_weights, axes, keepdims=True)\n",
       "    sum_of_weights = math.reduce_sum(w, axes, keepdims=True)\n",
       "weighted_moments divides by the sum of the weights as given, not broadcast to x's shape"),
    # -- losses and metrics
    _t("loss-l2-normalize-zero-not-capped", "boundary", "simdist/keras/losses/_ops.py",
       "    return x * minimum(inv_norm, 1.0 / config.epsilon())\n",
       "    return x * inv_norm\n",
       "the losses' l2_normalize does not cap 1/norm: a zero vector's cosine similarity is NaN"),
    _t("r2-adjusted-denominator-off-by-one", "denominator", "simdist/keras/metrics/r2_score.py",
       "                r2_score = 1.0 - (1.0 - r2_score) * (n - 1.0) / (n - p - 1.0)\n",
       "                r2_score = 1.0 - (1.0 - r2_score) * (n - 1.0) / (n - p)\n",
       "R2Score(num_regressors=p)'s adjustment divides by n - p instead of n - p - 1"),
    _t("metric-values-reduced-to-batch-before-weighting", "axis", "simdist/keras/metrics/reduction_metrics.py",
       "            values = reduce_fn(values, axis=list(range(weight_ndim, values_ndim)))\n",
       "            values = reduce_fn(values, axis=list(range(1, values_ndim)))\n",
       "Mean/Sum with sample weights of rank 2 reduce the values to one per sample before weighting them"),
    # -- Keras layers
    _t("group-norm-minus-one-is-layer-norm", "formula", "simdist/keras/layers/group_normalization.py",
       "        if self.groups == -1:\n            self.groups = dim\n",
       "        if self.groups == -1:\n            self.groups = 1\n",
       "GroupNormalization(groups=-1) normalizes over all channels (one group) instead of each channel"),
    _t("attention-causal-mask-drops-value-mask", "state", "simdist/keras/layers/dot_attention.py",
       "        if v_mask is not None:\n            return tf.logical_and(tf.expand_dims(v_mask, axis=-2), causal_mask)\n",
       "        if False:\n            return tf.logical_and(tf.expand_dims(v_mask, axis=-2), causal_mask)\n",
       "Attention(use_causal_mask=True) with a value mask uses the causal mask alone"),
    # -- random ops
    _t("keras-seed-cast-modulus-off-by-one", "boundary", "simdist/keras/random.py",
       "    return tf.cast(tf.math.floormod(seed, tf.constant(2**31 - 2, dtype=tf.int64)), tf.int32)\n",
       "    return tf.cast(tf.math.floormod(seed, tf.constant(2**31 - 1, dtype=tf.int64)), tf.int32)\n",
       "keras.random takes seeds modulo int32 max instead of int32 max - 1"),
    _t("generator-from-key-counter-key-first", "order", "simdist/runtime/ops/random_generator.py",
       "        return cls(state=np.concatenate([c, k.reshape(1)]), alg=a)\n",
       "        return cls(state=np.concatenate([k.reshape(1), c]), alg=a)\n",
       "Generator.from_key_counter puts the key before the counter in the state"),
    # -- tf.function, Checkpoint
    _t("function-method-copy-bound-to-original", "state", "simdist/tf/_function.py",
       "        if f is None or getattr(f.python_function, \"__self__\", None) is not obj:   # (not one copied from another)\n",
       "        if f is None:\n",
       "a tf.function method of a copied object runs bound to the original object"),
    _t("function-numpy-in-list-not-converted", "dtype", "simdist/tf/_function.py",
       "    if type(x) in (list, tuple):\n        return type(x)(_as_tensor(v) for v in x)\n",
       "    if type(x) in (list, tuple):\n        return x\n",
       "tf.function leaves NumPy arrays inside a list or tuple argument as NumPy values (TF makes them tensors)"),
    _t("manager-same-step-saved-again", "boundary", "simdist/strategies/checkpoint.py",
       "                if step == self._last_checkpoint_step:\n                    return None\n",
       "                if False:\n                    return None\n",
       "CheckpointManager(checkpoint_interval=k).save(check_interval=False) saves again at the step it last saved"),
    # -- distribution
    _t("tf-ema-replica-values-summed", "placement", "simdist/tf/_moving_averages.py",
       "            val = strategy.extended.reduce_to(tf.distribute.ReduceOp.MEAN, val, v)\n",
       "            val = strategy.extended.reduce_to(tf.distribute.ReduceOp.SUM, val, v)\n",
       "ExponentialMovingAverage.apply in a replica context moves the average towards the replicas' sum, not mean"),
    _t("sync-on-read-sum-assign-numpy-not-divided", "denominator", "simdist/strategies/sync_on_read.py",
       "                value = math.cast(convert_to_tensor(value / n), self.dtype)   # NumPy's division, then the cast\n",
       "                value = math.cast(convert_to_tensor(value), self.dtype)\n",
       "a SUM sync-on-read variable's cross-replica assign of a NumPy value writes it to every copy undivided"),
]
TRAINING += TRAINING_BATCH25
CATALOGUE += TRAINING_BATCH25

# -- Twenty-eighth session: a twenty-sixth blind batch (TRAINING_BATCH26), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Twenty-eighth session: a twenty-sixth blind batch"). Optimizers
#    (MultiOptimizer.set_weights, ScheduleFreeAdamW's second moment, Nadam's schedule product, Lamb's bias
#    correction at a zero variable), CosineDecayRestarts' geometric restarts, callbacks (BackupAndRestore's batch
#    count across epochs, ReduceLROnPlateau at min_lr), Keras layers (TimeDistributed's training flag,
#    RMSNormalization and SpectralNormalization at zero, Dot's normalize), op gradients (SparseToDense's default,
#    SparseReorder, overlapping fractional_avg_pool, EuclideanNorm without keepdims, CumulativeLogsumexp,
#    rgb_to_hsv at a zero channel), the tape (batch_jacobian's non-persistent tape, jacobian without pfor), tf.nn
#    (compute_average_loss of a zero batch, normalize_moments' shift), losses and metrics (the CategoricalCrossentropy
#    metric's and Dice's axis), random ops (tensor moments, stateless gamma's alpha gradient), fit's
#    validation_split beside validation_data, a MEAN sync-on-read assign_add, tf.function (an input_signature
#    argument by keyword, a dict output), load_weights into an unbuilt optimizer; each a function, branch or
#    argument no earlier mutant touched, at most two in one file.
TRAINING_BATCH26: list[Mutant] = [
    # -- optimizers and their options
    _t("multi-optimizer-set-weights-offset-stuck", "order", "simdist/keras/optimizers/multi_optimizer.py",
       "                opt.set_weights(weights[idx:idx + n])\n                idx += n\n",
       "                opt.set_weights(weights[idx:idx + n])\n",
       "MultiOptimizer.set_weights hands every inner optimizer the slice after its own variables, not the next one's"),
    _t("schedule-free-velocity-decay-beta-1", "formula", "simdist/keras/optimizers/schedule_free_adamw.py",
       "        self.assign_add(velocity, ops.multiply(ops.subtract(ops.square(gradient), velocity), 1 - beta_2))\n",
       "        self.assign_add(velocity, ops.multiply(ops.subtract(ops.square(gradient), velocity), 1 - beta_1))\n",
       "ScheduleFreeAdamW's second moment moves by 1 - beta_1 instead of 1 - beta_2"),
    _t("nadam-next-product-uses-current-u", "formula", "simdist/keras/optimizers/nadam.py",
       "        u_product_t_1 = u_product_t * u_t_1\n",
       "        u_product_t_1 = u_product_t * u_t\n",
       "Nadam's next momentum-schedule product multiplies by this step's u_t instead of the next step's"),
    _t("lamb-first-moment-bias-fixed-beta", "formula", "simdist/keras/optimizers/lamb.py",
       "        m_t_hat = ops.divide(m, (1.0 - beta_1_power))\n",
       "        m_t_hat = ops.divide(m, (1.0 - self.beta_1))\n",
       "Lamb corrects the first moment by 1 - beta_1 at every step instead of 1 - beta_1^t"),
    # -- schedules
    _t("cosine-restarts-geometric-index-sign", "formula", "simdist/keras/optimizers/schedules.py",
       "                i_restart = ops.floor(ops.log(ops.cast(1.0 - completed_fraction * (1.0 - t_mul), dtype))\n",
       "                i_restart = ops.floor(ops.log(ops.cast(1.0 + completed_fraction * (1.0 - t_mul), dtype))\n",
       "CosineDecayRestarts(t_mul != 1) finds the restart index from 1 + f(1 - t_mul) (NaN past a point)"),
    # -- callbacks
    _t("backup-new-epoch-first-batch-uncounted", "boundary", "simdist/keras/callbacks/backup_and_restore.py",
       "            add_batches = batch + 1\n",
       "            add_batches = batch\n",
       "BackupAndRestore(save_freq=k) counts a new epoch's first batch as zero batches"),
    _t("reduce-lr-at-min-lr-counts-a-reduction", "boundary", "simdist/keras/callbacks/reduce_lr_on_plateau.py",
       "        if old_lr > np.float32(self.min_lr):\n",
       "        if old_lr >= np.float32(self.min_lr):\n",
       "ReduceLROnPlateau at min_lr still counts a reduction (resets wait, enters cooldown)"),
    # -- Keras layers
    _t("time-distributed-training-not-passed", "state", "simdist/keras/layers/time_distributed.py",
       "                kwargs[\"training\"] = training\n",
       "                kwargs[\"training\"] = None\n",
       "TimeDistributed drops the training flag: a wrapped Dropout never drops"),
    _t("rms-norm-epsilon-outside-rsqrt", "boundary", "simdist/keras/layers/rms_normalization.py",
       "    rrms = tf.math.rsqrt(tf.reduce_mean(tf.square(x), axis=axis, keepdims=True) + epsilon)\n",
       "    rrms = tf.math.rsqrt(tf.reduce_mean(tf.square(x), axis=axis, keepdims=True)) + epsilon\n",
       "rms_normalization adds epsilon after the rsqrt: a zero row is NaN"),
    _t("spectral-norm-zero-kernel-normalized", "boundary", "simdist/keras/layers/spectral_normalization.py",
       "            new_vector_u, new_kernel = ops.cond(ops.all(ops.equal(self.kernel.value, 0)),\n"
       "                                                lambda: (self.vector_u.value, self.kernel.value),\n"
       "                                                self.normalized_weights)\n",
       "            new_vector_u, new_kernel = self.normalized_weights()\n",
       "SpectralNormalization normalizes an all-zero kernel (0/0) instead of leaving it"),
    _t("dot-normalize-first-input-other-axis", "axis", "simdist/keras/layers/dot.py",
       "            x1 = l2_normalize(x1, axes[0])\n",
       "            x1 = l2_normalize(x1, axes[1])\n",
       "Dot(normalize=True) normalizes the first input along the second input's axis"),
    # -- op gradients
    _t("sparse-to-dense-default-grad-whole-sum", "gradient", "simdist/runtime/ops/sparse_core.py",
       "    default_grad = math.subtract(math.reduce_sum(grad), math.reduce_sum(values_grad))\n",
       "    default_grad = math.reduce_sum(grad)\n",
       "SparseToDense's default_value gradient counts the positions the values fill too"),
    _t("sparse-reorder-grad-not-inverted", "order", "simdist/runtime/ops/sparse_core.py",
       "    return [None, array.gather(values_grad, invert_permutation(order)), None]\n",
       "    return [None, array.gather(values_grad, order), None]\n",
       "SparseReorder's values gradient gathers by the sort order instead of its inverse"),
    _t("fractional-avg-pool-grad-overlap-dropped", "gradient", "simdist/runtime/ops/fractional_pool.py",
       "    return [dispatch.execute(FRACTIONAL_AVG_POOL_GRAD, (shape, grad, rows, cols),\n"
       "                             {\"overlapping\": op.get_attr(\"overlapping\")})]\n",
       "    return [dispatch.execute(FRACTIONAL_AVG_POOL_GRAD, (shape, grad, rows, cols),\n"
       "                             {\"overlapping\": False})]\n",
       "fractional_avg_pool(overlapping=True)'s gradient spreads over non-overlapping cells"),
    _t("euclidean-norm-grad-keepdims-inverted", "axis", "simdist/runtime/ops/reductions.py",
       "    x, out = op.inputs[0], op.outputs[0]\n    if not op.get_attr(\"keepdims\"):\n",
       "    x, out = op.inputs[0], op.outputs[0]\n    if op.get_attr(\"keepdims\"):\n",
       "EuclideanNorm's gradient restores the reduced axes only when they were kept"),
    _t("cumulative-logsumexp-grad-positive-forward", "order", "simdist/runtime/ops/reductions.py",
       "    pos = unary.exp(cumulative_logsumexp(log_pos - out, axis=axis, reverse=not reverse, exclusive=exclusive) + x)\n",
       "    pos = unary.exp(cumulative_logsumexp(log_pos - out, axis=axis, reverse=reverse, exclusive=exclusive) + x)\n",
       "CumulativeLogsumexp's gradient scans the positive part of the upstream gradient forwards"),
    _t("rgb-to-hsv-grad-zero-channel-positive", "boundary", "simdist/runtime/ops/image_color.py",
       "    rp, gp, bp = cast(r > 0), cast(g > 0), cast(b > 0)\n",
       "    rp, gp, bp = cast(r >= 0), cast(g >= 0), cast(b >= 0)\n",
       "rgb_to_hsv's gradient counts a zero channel as positive"),
    # -- the tape
    _t("batch-jacobian-keeps-non-persistent-tape", "state", "simdist/runtime/autodiff/tape.py",
       "            cols.append(None if g is None else _dense(g))\n        if not self._persistent:\n",
       "            cols.append(None if g is None else _dense(g))\n        if False:\n",
       "batch_jacobian leaves a non-persistent tape usable: a second gradient or jacobian runs instead of RuntimeError"),
    _t("jacobian-no-pfor-accepts-non-persistent", "missing-error", "simdist/runtime/autodiff/tape.py",
       "        if not experimental_use_pfor and not self._persistent:\n"
       "            raise RuntimeError(\"GradientTape must be created with persistent=True to compute the jacobian with \"\n",
       "        if False:\n"
       "            raise RuntimeError(\"GradientTape must be created with persistent=True to compute the jacobian with \"\n",
       "jacobian(experimental_use_pfor=False) on a non-persistent tape runs instead of raising RuntimeError"),
    # -- tf.nn and distribution of losses
    _t("compute-average-loss-zero-batch-divides", "boundary", "simdist/runtime/ops/losses.py",
       "    return div_no_nan(total, gbs)\n",
       "    return math.truediv(total, gbs)\n",
       "compute_average_loss(global_batch_size=0) divides (NaN) instead of giving 0"),
    _t("normalize-moments-shift-dropped", "formula", "simdist/runtime/ops/nn_more.py",
       "    mean = math.add(shifted_mean, shift) if shift is not None else shifted_mean\n",
       "    mean = shifted_mean\n",
       "tf.nn.normalize_moments ignores the shift: the mean stays the shifted one"),
    # -- losses and metrics
    _t("cce-metric-axis-not-forwarded", "axis", "simdist/keras/metrics/probabilistic_metrics.py",
       "                         label_smoothing=label_smoothing, axis=axis)\n",
       "                         label_smoothing=label_smoothing)\n",
       "the CategoricalCrossentropy metric ignores its axis"),
    _t("dice-loss-axis-not-forwarded", "axis", "simdist/keras/losses/overlap_losses.py",
       "        super().__init__(dice, name=name, reduction=reduction, dtype=dtype, axis=axis)\n",
       "        super().__init__(dice, name=name, reduction=reduction, dtype=dtype)\n",
       "the Dice loss class ignores its axis (the function keeps it)"),
    # -- random ops
    _t("random-tensor-moments-shift-before-scale", "formula", "simdist/runtime/ops/random.py",
       "    return math.add(math.multiply(r, sd), m)\n",
       "    return math.multiply(math.add(r, m), sd)\n",
       "tf.random.normal/truncated_normal with a tensor mean and stddev shifts before scaling"),
    _t("stateless-gamma-grad-sample-dims-with-alpha", "axis", "simdist/runtime/ops/random_gamma.py",
       "    return [_alpha_grad(alpha, op.outputs[0], grad, len(op.get_attr(\"shape\")) - alpha.ndim), None]\n",
       "    return [_alpha_grad(alpha, op.outputs[0], grad, len(op.get_attr(\"shape\")) - 1), None]\n",
       "stateless_random_gamma's alpha gradient sums over all but the last axis, whatever alpha's rank"),
    # -- the fit loop
    _t("fit-validation-split-overrides-data", "state", "simdist/keras/trainers/trainer.py",
       "        if validation_split and validation_data is None:\n",
       "        if validation_split:\n",
       "fit(validation_split=s, validation_data=d) validates on the split instead of d"),
    # -- distribution
    _t("sync-on-read-mean-assign-add-refused", "missing-error", "simdist/strategies/sync_on_read.py",
       "        if method != \"assign\" and agg == VariableAggregation.SUM:\n",
       "        if method != \"assign\" and agg in (VariableAggregation.SUM, VariableAggregation.MEAN):\n",
       "a MEAN sync-on-read variable's cross-replica assign_add is refused as a SUM one's"),
    # -- tf.function, save/load
    _t("function-signature-keyword-not-bound", "dtype", "simdist/tf/_signature.py",
       "        if 0 <= i < len(specs) and isinstance(specs[i], TensorSpec):\n",
       "        if False:\n",
       "a tf.function with an input_signature leaves an argument passed by keyword unconverted"),
    _t("function-dict-output-not-converted", "dtype", "simdist/tf/_function.py",
       "        return type(out)((k, _outputs_to_tensors(v)) for k, v in out.items())\n",
       "        return out\n",
       "a tf.function returning a dict leaves its Python and NumPy values unconverted"),
    _t("load-weights-optimizer-mismatch-raises", "error-class", "simdist/keras/models/saving.py",
       "    own = _own_variables(obj)\n    if isinstance(obj, Optimizer):\n",
       "    own = _own_variables(obj)\n    if False:\n",
       "load_weights into an unbuilt optimizer raises (as a layer) instead of warning and skipping it"),
]
TRAINING += TRAINING_BATCH26
CATALOGUE += TRAINING_BATCH26

# -- Twenty-ninth session: a twenty-seventh blind batch (TRAINING_BATCH27), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Twenty-ninth session: a twenty-seventh blind batch"). The tape's
#    forward accumulators (a gathered variable's JVP, re-entering a recording accumulator), optimizers (Muon's
#    adam_lr_ratio, a plain callable learning rate, the iterations counter under a strategy), schedules with
#    decay_steps=0, callbacks (TerminateOnNaN's raise_error, a negative min_delta), Keras layers (LeakyReLU's alpha
#    spelling, Masking's masked steps), metrics (PearsonCorrelation of a constant prediction, AUC of predictions
#    outside [0, 1]), op gradients (xdivy at x = 0, check_numerics of a non-finite gradient, QuantizeAndDequantizeV4
#    at its bounds, SYMMETRIC MirrorPad, |z| at 0, unsorted_segment_prod with negative ids), the fit loop
#    (train_on_batch's class and sample weights, fit's loss_scale_factor), save/load (load_weights' skip_mismatch,
#    Checkpoint's save counter after restore and write), keras.random (dropout at rate 1, shuffle along an axis),
#    tf.Module's dict attributes, tf.function (a returned variable, the tracing count of variables), tf.nn (pool's
#    dilations, safe_embedding_lookup_sparse's empty rows); each a function, branch or argument no earlier mutant
#    touched, at most two in one file.
TRAINING_BATCH27: list[Mutant] = [
    # -- the tape: forward accumulators (no earlier mutant in forwardprop.py)
    _t("forward-gathered-jvp-whole-tangent", "gradient", "simdist/runtime/autodiff/forwardprop.py",
       "                self.set(t, array.gather(tan, indices))\n",
       "                self.set(t, tan)\n",
       "a ForwardAccumulator gives a gathered variable's rows the whole variable's tangent, not those rows of it"),
    _t("forward-accumulator-reentered-accepted", "missing-error", "simdist/runtime/autodiff/forwardprop.py",
       "        if self._recording:\n            raise ValueError(\"Accumulator is already recording.\")\n",
       "",
       "entering a ForwardAccumulator that is already recording is accepted (TF: ValueError)"),
    # -- optimizers and their options
    _t("muon-adam-lr-ratio-ignored", "formula", "simdist/keras/optimizers/muon.py",
       "            self._adamw_update_step(gradient, variable, learning_rate * self.adam_lr_ratio, m, v)\n",
       "            self._adamw_update_step(gradient, variable, learning_rate, m, v)\n",
       "Muon's AdamW path (1-D variables, excluded layers) uses the full learning rate, ignoring adam_lr_ratio"),
    _t("optimizer-callable-lr-called-with-step", "formula", "simdist/keras/optimizers/base_optimizer.py",
       "            return self._learning_rate()\n",
       "            return self._learning_rate(self._iterations)\n",
       "a plain callable learning rate (a zero-argument function) is called with the step, as a schedule is"),
    # -- distribution: the optimizer's step counter under a strategy
    _t("optimizer-iterations-summed-across-replicas", "denominator", "simdist/keras/optimizers/base_optimizer.py",
       "\"iteration\", \"only_first_replica\")\n",
       "\"iteration\", \"sum\")\n",
       "the optimizer's iterations variable aggregates replica-context increments by SUM instead of the first "
       "replica's: one apply under R replicas counts R steps"),
    # -- schedules
    _t("schedule-zero-decay-steps-accepted", "boundary", "simdist/keras/optimizers/schedules.py",
       "    if value <= 0:\n",
       "    if value < 0:\n",
       "a learning-rate schedule accepts decay_steps=0 (Keras: ValueError, `must be > 0`)"),
    # -- callbacks
    _t("terminate-on-nan-raise-error-ignored", "missing-error", "simdist/keras/callbacks/terminate_on_nan.py",
       "            if self.raise_error:\n",
       "            if False:\n",
       "TerminateOnNaN(raise_error=True) only stops training instead of raising RuntimeError"),
    _t("monitor-negative-min-delta-kept", "boundary", "simdist/keras/callbacks/monitor_callback.py",
       "        self.min_delta = abs(min_delta)\n",
       "        self.min_delta = min_delta\n",
       "EarlyStopping/ModelCheckpoint keep a negative min_delta as given (Keras takes its absolute value)"),
    # -- Keras layers
    _t("leaky-relu-alpha-spelling-ignored", "state", "simdist/keras/layers/activation_layers.py",
       "            negative_slope = kwargs.pop(\"alpha\")\n",
       "            kwargs.pop(\"alpha\")\n",
       "LeakyReLU(alpha=...) (the deprecated spelling) drops the value and keeps the default negative_slope"),
    _t("masking-masked-steps-not-zeroed", "formula", "simdist/keras/layers/masking.py",
       "        outputs = tf.where(boolean_mask, inputs, tf.zeros_like(inputs))\n",
       "        outputs = tf.identity(inputs)\n",
       "Masking only sets the mask: the masked steps keep their (mask_value) features instead of zeros"),
    # -- losses and metrics
    _t("pearson-constant-prediction-epsilon-guarded", "denominator", "simdist/keras/metrics/correlation_metrics.py",
       "    p = p / tf.math.reduce_std(_float(p), axis=axis, keepdims=True)\n",
       "    p = p / (tf.math.reduce_std(_float(p), axis=axis, keepdims=True) + config.epsilon())\n",
       "PearsonCorrelation guards its division by the prediction's std with epsilon: a constant prediction "
       "gives 0 instead of Keras's NaN"),
    _t("auc-optimized-predictions-not-clipped", "boundary", "simdist/keras/metrics/metrics_utils.py",
       "    y_pred = tf.clip_by_value(y_pred, 0.0, 1.0)\n",
       "",
       "the evenly-spaced-thresholds path (AUC's default) buckets predictions outside [0, 1] unclipped: they "
       "fall out of the buckets and are not counted"),
    # -- op gradients
    _t("xdivy-grad-x-partial-unmasked", "gradient", "simdist/runtime/ops/xfunctions.py",
       "    return _reduced(op, xdivy(_not_zero(x), y) * grad, xdivy(-x, y ** 2) * grad)\n",
       "    return _reduced(op, (1.0 / y) * grad, xdivy(-x, y ** 2) * grad)\n",
       "xdivy's gradient with respect to x is the textbook 1 / y, also where x = 0 (TF: 0 there)"),
    _t("check-numerics-grad-unchecked", "missing-error", "simdist/runtime/ops/check_numerics.py",
       "    return [check_numerics(grad, _gradient_message(op))]\n",
       "    return [grad]\n",
       "check_numerics passes a NaN or Inf gradient through instead of failing on it (TF checks the gradient too)"),
    _t("qdq-v4-grad-bounds-exclusive", "boundary", "simdist/runtime/ops/quantize_dequantize.py",
       "np.where((input >= lo) & (input <= hi), one, zero)",
       "np.where((input > lo) & (input < hi), one, zero)",
       "quantize_and_dequantize_v4's gradient is cut at inputs equal to min or max (TF passes them)"),
    _t("mirror-pad-grad-mode-reflect", "gradient", "simdist/runtime/ops/slicing.py",
       "    return [dispatch.execute(MIRROR_PAD_GRAD, (grad,), {\"paddings\": op.get_attr(\"paddings\"),\n"
       "                                                        \"mode\": op.get_attr(\"mode\")})]\n",
       "    return [dispatch.execute(MIRROR_PAD_GRAD, (grad,), {\"paddings\": op.get_attr(\"paddings\"),\n"
       "                                                        \"mode\": \"REFLECT\"})]\n",
       "MirrorPad's gradient folds the padding back as REFLECT whatever the mode (SYMMETRIC's fold is shifted by one)"),
    _t("complex-abs-grad-zero-divides", "gradient", "simdist/runtime/ops/complex_math.py",
       "    return [math.divide_no_nan(complex_(grad, _zeros(grad)) * z, complex_(out, _zeros(out)))]\n",
       "    return [math.divide(complex_(grad, _zeros(grad)) * z, complex_(out, _zeros(out)))]\n",
       "the gradient of |z| divides by |z| without div_no_nan: NaN at z = 0 (TF: 0)"),
    _t("unsorted-segment-prod-grad-negative-ids-spread", "gradient", "simdist/runtime/ops/segments.py",
       "    spread, _ = _gather_drop_negatives(grad, ids)\n    return [spread * partial, None]\n",
       "    spread = array.gather(grad, clipped)\n    return [spread * partial, None]\n",
       "unsorted_segment_prod's gradient gives an element with a negative (dropped) segment id segment 0's gradient"),
    # -- the fit loop
    _t("train-on-batch-class-and-sample-weight-accepted", "missing-error", "simdist/keras/trainers/trainer.py",
       "            if sample_weight is not None:\n                raise ValueError(\"Arguments `sample_weight` and "
       "`class_weight` cannot be specified at the same \"\n",
       "            if False:\n                raise ValueError(\"Arguments `sample_weight` and "
       "`class_weight` cannot be specified at the same \"\n",
       "train_on_batch accepts sample_weight and class_weight together (Keras: ValueError), class_weight winning"),
    _t("fit-loss-not-scaled-by-loss-scale-factor", "formula", "simdist/keras/trainers/trainer.py",
       "            if self.optimizer is not None:\n                loss = self.optimizer.scale_loss(loss)\n",
       "",
       "fit's train step does not multiply the loss by the optimizer's loss_scale_factor before the gradient, "
       "while apply still divides the gradients by it"),
    # -- save/load and Checkpoint
    _t("load-weights-skip-mismatch-loads-nothing", "state", "simdist/keras/models/saving.py",
       "        warnings.warn(msg)\n    for v, value in ctx.pending:\n",
       "        warnings.warn(msg)\n        return\n    for v, value in ctx.pending:\n",
       "load_weights(skip_mismatch=True) with a mismatched layer skips every layer, not only the mismatched one"),
    _t("checkpoint-restore-counter-not-restored", "state", "simdist/strategies/checkpoint.py",
       "        self._counter_made = True   # (TF's restore makes the counter, which then takes the saved count)\n",
       "",
       "Checkpoint.restore into a fresh checkpoint leaves save_counter at 0 instead of the saved count"),
    _t("checkpoint-write-counts-a-save", "state", "simdist/strategies/checkpoint.py",
       "        path = self._write(file_prefix)\n        _after_write(options, path)\n",
       "        self._count_save()\n        path = self._write(file_prefix)\n        _after_write(options, path)\n",
       "Checkpoint.write advances save_counter as save does (TF: write neither counts nor numbers)"),
    # -- random ops
    _t("keras-random-dropout-rate-one-not-zeros", "boundary", "simdist/keras/random.py",
       "    if rate == 1.0:\n        return tf.zeros_like(inputs)\n",
       "",
       "keras.random.dropout(rate=1) is handed to tf's stateless dropout (ValueError) instead of returning zeros"),
    _t("keras-random-shuffle-length-from-axis-zero", "axis", "simdist/keras/random.py",
       "stateless_uniform(shape=[tf.shape(x)[axis]], seed=seed))",
       "stateless_uniform(shape=[tf.shape(x)[0]], seed=seed))",
       "keras.random.shuffle(axis=k) draws the permutation's length from axis 0 instead of axis k"),
    # -- tf.Module and tf.function
    _t("module-dict-variables-insertion-order", "order", "simdist/tf/_module.py",
       "        return [leaf for k in sorted(obj, key=str) for leaf in _leaves(obj[k])]\n",
       "        return [leaf for k in obj for leaf in _leaves(obj[k])]\n",
       "tf.Module.variables walks a dict attribute's values in insertion order (TF: sorted keys)"),
    _t("function-returned-variable-not-read", "state", "simdist/tf/_function.py",
       "    if isinstance(out, Variable):\n        return out.read_value()\n",
       "    if isinstance(out, Variable):\n        return out\n",
       "a tf.function returning a variable returns the variable itself (which later assigns change), not its value"),
    _t("tracing-count-variables-by-identity", "state", "simdist/tf/_tracing_count.py",
       "        return (\"variable\", x.dtype.name, tuple(x.shape.as_list()), bool(getattr(x, \"trainable\", True)))\n",
       "        return (\"variable\", id(x))\n",
       "experimental_get_tracing_count counts a trace per variable object (TF: variables of one dtype and shape "
       "share a trace)"),
    # -- tf.nn
    _t("nn-pool-dilations-dropped", "formula", "simdist/runtime/ops/nn_composites.py",
       "    return with_space_to_batch(x, rate, padding, op, filter_shape=window, spatial_dims=range(1, nsp + 1))\n",
       "    return with_space_to_batch(x, np.ones_like(rate), padding, op, filter_shape=window,\n"
       "                               spatial_dims=range(1, nsp + 1))\n",
       "tf.nn.pool checks its dilations but pools undilated windows"),
    _t("safe-embedding-empty-rows-not-zeroed", "boundary", "simdist/runtime/ops/embedding_sparse.py",
       "    if default_id is None:\n        empty = slicing.tile(",
       "    if False:\n        empty = slicing.tile(",
       "safe_embedding_lookup_sparse without default_id gives an empty row id 0's embedding instead of zeros"),
]
TRAINING += TRAINING_BATCH27
CATALOGUE += TRAINING_BATCH27

# -- Thirtieth session: a twenty-eighth blind batch (TRAINING_BATCH28), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Thirtieth session: a twenty-eighth blind batch"). Op gradients
#    (FakeQuant's Vars gradient to min/max and the Args gradient's narrow_range, banded_triangular_solve's band
#    side, extract_volume_patches under SAME, ResizeBicubic's align_corners, ScaleAndTranslate's antialias, Eig's
#    conjugated F, the parameterized truncated normal's min/max, tf.gradients' grad_ys), Keras layers (Cropping2D
#    at the whole dimension, AveragePooling3D's default padding, UnitNormalization's shape check, ZeroPadding3D and
#    UpSampling3D channels_first, CategoryEncoding's count_weights check, Discretization.adapt's steps, InputSpec's
#    axes, EinsumDense's bias shape, GroupedQueryAttention's sliding window), losses (CTC's float64 result,
#    sampled_softmax_loss's remove_accidental_hits default), metrics (a Metric without super().__init__),
#    optimizers (AdamW without weight_decay), the fit loop (a PyDataset's sample weights with class_weight, a
#    Dataset with y), models (clone_model of a shared layer), tf.function (a concrete function's literal
#    argument), random ops (random_crop's offsets, random_hue's bound, tnp.random.randint's range); each a
#    function, branch or argument no earlier mutant touched, at most two in one file.
TRAINING_BATCH28: list[Mutant] = [
    # -- op gradients
    _t("fake-quant-vars-grad-min-max-swapped", "gradient", "simdist/runtime/ops/fake_quant.py",
       "    return g * _pass_mask(x, lo, hi), total(g * below), total(g * above)\n",
       "    return g * _pass_mask(x, lo, hi), total(g * above), total(g * below)\n",
       "fake_quant_with_min_max_vars' gradient gives min the gradient above the range and max the one below"),
    _t("fake-quant-args-grad-narrow-range-dropped", "gradient", "simdist/runtime/ops/fake_quant.py",
       "{k: op.get_attr(k) for k in (\"min\", \"max\", \"num_bits\", \"narrow_range\")})]\n",
       "{k: op.get_attr(k) for k in (\"min\", \"max\", \"num_bits\")})]\n",
       "fake_quant_with_min_max_args' gradient ignores narrow_range: it passes the gradient in the wide range's "
       "nudged bounds"),
    _t("banded-solve-grad-band-side-swapped", "gradient", "simdist/runtime/ops/banded_solve.py",
       "    k = (-(num_bands - 1), 0) if lower_a else (0, num_bands - 1)\n",
       "    k = (0, num_bands - 1) if lower_a else (-(num_bands - 1), 0)\n",
       "banded_triangular_solve's gradient to the bands reads the diagonals on the other side of the main one"),
    _t("volume-patches-grad-padding-valid", "gradient", "simdist/runtime/ops/volume_patches.py",
       "\"padding\": op.attrs[\"padding\"], \"explicit_paddings\": (),",
       "\"padding\": \"VALID\", \"explicit_paddings\": (),",
       "extract_volume_patches' gradient scatters back as if the patches were VALID, whatever the padding"),
    _t("resize-bicubic-grad-align-corners-dropped", "gradient", "simdist/runtime/ops/resize_bicubic.py",
       "{\"align_corners\": op.get_attr(\"align_corners\"),",
       "{\"align_corners\": False,",
       "ResizeBicubic's gradient ignores align_corners=True (the forward's sampling grid differs)"),
    _t("scale-translate-grad-antialias-forced", "gradient", "simdist/runtime/ops/scale_translate.py",
       "    attrs = {k: op.get_attr(k) for k in (\"kernel_type\", \"antialias\")}\n",
       "    attrs = {\"kernel_type\": op.get_attr(\"kernel_type\"), \"antialias\": True}\n",
       "ScaleAndTranslate's gradient always antialiases (a downscale without antialias has narrower kernels)"),
    _t("eig-grad-f-not-conjugated", "gradient", "simdist/runtime/ops/eig.py",
       "        f = conj(f)\n",
       "",
       "Eig's gradient through the eigenvectors uses F = 1 / (e_j - e_i) unconjugated (wrong for complex "
       "eigenvalues)"),
    _t("param-truncated-normal-grad-min-max-swapped", "gradient", "simdist/runtime/ops/param_truncated_normal.py",
       "    for d, shp in zip((dmean, sample_std, dmin, dmax), shapes):\n",
       "    for d, shp in zip((dmean, sample_std, dmax, dmin), shapes):\n",
       "the parameterized truncated normal's gradient gives minval the maxval partial and the reverse"),
    _t("tf-gradients-grad-ys-ignored", "gradient", "simdist/runtime/autodiff/graph_gradients.py",
       "    flat_grad_ys = None if grad_ys is None else [",
       "    flat_grad_ys = None if True else [",
       "tf.gradients ignores grad_ys: every y is seeded with ones"),
    # -- Keras layers
    _t("cropping-whole-dimension-accepted", "boundary", "simdist/keras/layers/cropping.py",
       "            if shape[axis] is not None and sum(crop) >= shape[axis]:\n",
       "            if shape[axis] is not None and sum(crop) > shape[axis]:\n",
       "Cropping2D/3D accept a cropping that removes a whole spatial dimension (Keras: ValueError)"),
    _t("average-pooling3d-default-padding-same", "boundary", "simdist/keras/layers/pooling3d.py",
       "    def __init__(self, pool_size: Any, strides: Any = None, padding: str = \"valid\", data_format: Any = None,\n",
       "    def __init__(self, pool_size: Any, strides: Any = None, padding: str = \"same\", data_format: Any = None,\n",
       "AveragePooling3D defaults to padding=\"same\" (Keras: \"valid\")"),
    _t("unit-normalization-output-shape-axis-bound", "boundary", "simdist/keras/layers/unit_normalization.py",
       "            if a >= len(input_shape) or a < -len(input_shape):\n                raise ValueError(f\"Axis {self.axis}",
       "            if a > len(input_shape) or a < -len(input_shape):\n                raise ValueError(f\"Axis {self.axis}",
       "UnitNormalization.compute_output_shape accepts axis == rank (Keras: out of bounds)"),
    _t("zero-padding3d-channels-first-pads-channels", "axis", "simdist/keras/layers/zero_padding3d.py",
       "            pads = ((0, 0), (0, 0), *self.padding)\n",
       "            pads = ((0, 0), *self.padding, (0, 0))\n",
       "ZeroPadding3D(data_format=\"channels_first\") pads the channel and first two spatial axes"),
    _t("upsampling3d-channels-first-axis", "axis", "simdist/keras/layers/upsampling3d.py",
       "        return 2 if self.data_format == \"channels_first\" else 1\n",
       "        return 1\n",
       "UpSampling3D(data_format=\"channels_first\") repeats the channel axis and the first two spatial ones"),
    _t("category-encoding-count-weights-mode-unchecked", "missing-error", "simdist/keras/layers/category_encoding.py",
       "            if self.output_mode != \"count\":\n",
       "            if False:\n",
       "CategoryEncoding accepts count_weights outside output_mode=\"count\" (Keras: ValueError)"),
    _t("discretization-adapt-steps-off-by-one", "boundary", "simdist/keras/layers/discretization.py",
       "                if steps is not None and i >= steps:\n",
       "                if steps is not None and i > steps:\n",
       "Discretization.adapt(batches, steps=n) reads n + 1 batches of an iterable"),
    _t("input-spec-axes-unchecked", "missing-error", "simdist/keras/layers/input_spec.py",
       "            if value is not None and shape[axis] not in {value, None}:\n",
       "            if False:\n",
       "a built layer's InputSpec axes are not checked: Dense called on another feature size fails in the kernel "
       "(not Keras's ValueError)"),
    _t("einsum-dense-bias-trailing-ones-dropped", "axis", "simdist/keras/layers/einsum_dense.py",
       "        bias_shape = [idx_map[char] if char in bias_axes else 1 for char in output_spec[first:]]\n",
       "        bias_shape = [idx_map[char] for char in output_spec[first:] if char in bias_axes]\n",
       "EinsumDense's bias drops the unit axes after its first bias axis: it broadcasts along the wrong axes"),
    _t("gqa-sliding-window-inclusive", "boundary", "simdist/keras/layers/grouped_query_attention.py",
       "        return ops.less(ops.abs(row_index - col_index), self.sliding_window)\n",
       "        return ops.less_equal(ops.abs(row_index - col_index), self.sliding_window)\n",
       "GroupedQueryAttention's sliding window admits positions sliding_window away (Keras: strictly closer)"),
    # -- losses and metrics
    _t("ctc-loss-float64-not-cast-back", "dtype", "simdist/keras/losses/sequence_losses.py",
       "    return tf.cast(loss, result_dtype)\n",
       "    return loss\n",
       "keras.losses.ctc of float64 logits returns the float32 computation's result, not cast back to float64"),
    _t("sampled-softmax-accidental-hits-default-off", "boundary", "simdist/runtime/ops/sampled_losses.py",
       "num_sampled: int, num_classes: int,\n                         num_true: int = 1, sampled_values: Any = None, "
       "remove_accidental_hits: bool = True,",
       "num_sampled: int, num_classes: int,\n                         num_true: int = 1, sampled_values: Any = None, "
       "remove_accidental_hits: bool = False,",
       "tf.nn.sampled_softmax_loss defaults to remove_accidental_hits=False (TF: True)"),
    _t("metric-super-init-unchecked", "error-class", "simdist/keras/metrics/metric.py",
       "        if \"_tracker\" not in self.__dict__:\n",
       "        if False:\n",
       "a Metric subclass that forgot super().__init__() fails in add_variable with an AttributeError instead of "
       "Keras's RuntimeError asking for the call"),
    # -- optimizers
    _t("adamw-weight-decay-none-accepted", "missing-error", "simdist/keras/optimizers/adamw.py",
       "        if self.weight_decay is None:\n",
       "        if False:\n",
       "AdamW(weight_decay=None) is accepted (plain Adam) instead of Keras's ValueError"),
    # -- the fit loop
    _t("py-dataset-class-and-sample-weight-accepted", "missing-error", "simdist/keras/trainers/py_dataset.py",
       "            if len(batch) == 3:\n                raise ValueError(\"You cannot specify `class_weight`",
       "            if False:\n                raise ValueError(\"You cannot specify `class_weight`",
       "fit on a PyDataset whose batches carry sample weights accepts class_weight too (Keras: ValueError)"),
    _t("fit-dataset-with-y-accepted", "missing-error", "simdist/keras/trainers/epoch_iterator.py",
       "        if y is not None:\n            _raise_unsupported_arg(\"y\", \"the targets\", \"tf.data.Dataset\")\n",
       "        if False:\n            _raise_unsupported_arg(\"y\", \"the targets\", \"tf.data.Dataset\")\n",
       "fit(dataset, y=...) ignores y instead of Keras's ValueError"),
    # -- models and tf.function
    _t("clone-model-shared-layer-cloned-twice", "state", "simdist/keras/models/cloning.py",
       "        if id(layer) in memo:\n            return memo[id(layer)]\n",
       "        if False:\n            return memo[id(layer)]\n",
       "clone_model clones a layer used twice in a functional model twice: the clone has two sets of weights"),
    _t("concrete-function-literal-mismatch-accepted", "missing-error", "simdist/tf/_concrete.py",
       "                if not same:\n",
       "                if False:\n",
       "a concrete function called with another value for a traced Python argument runs the traced value "
       "(TF: TypeError, can not cast to the literal)"),
    # -- random ops
    _t("random-crop-offset-limit-off-by-one", "boundary", "simdist/runtime/ops/image_basic.py",
       "    limit = shape - sz + 1\n",
       "    limit = shape - sz\n",
       "tf.image.random_crop draws offsets modulo shape - size (never the last position; a full-size axis divides "
       "by zero)"),
    _t("random-hue-max-delta-half-refused", "boundary", "simdist/runtime/ops/image_random.py",
       "    if truth_taken(max_delta > 0.5):\n",
       "    if truth_taken(max_delta >= 0.5):\n",
       "tf.image.random_hue refuses max_delta=0.5 (TF: <= 0.5 allowed)"),
    _t("tnp-randint-high-inclusive", "boundary", "simdist/runtime/ops/tnp_random.py",
       "        high, low = low, 0\n",
       "        high, low = low + 1, 0\n",
       "tnp.random.randint(n) draws from [0, n] instead of [0, n)"),
]
TRAINING += TRAINING_BATCH28
CATALOGUE += TRAINING_BATCH28

# -- Thirty-first session: a twenty-ninth blind batch (TRAINING_BATCH29), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Thirty-first session: a twenty-ninth blind batch"). Keras layers
#    (RepeatVector's n, Permute's permutation, TextVectorization's ngrams, IntegerLookup's vocabulary_dtype,
#    MelSpectrogram's ref_power, RandomRotation's fill_value), keras.ops (stft's window padding, fori_loop's bound,
#    norm's ord=-inf, average's weighted denominator), tf.keras.backend (moving_average_update,
#    categorical_crossentropy's axis), Keras preprocessing (Tokenizer's num_words, TimeseriesGenerator's last row,
#    make_sampling_table), metrics.get's snake_case names, the fit loop (steps_per_execution under a one-replica
#    MirroredStrategy, a generator's batch dimension, optimizer variables' aggregation), gradients (all_gather's
#    replica offset, ImageProjectiveTransformV3's interpolation, CTCLoss's upstream gradient), control flow
#    (tf.scan's reverse, compat.v1.while_loop's maximum_iterations), tf.nn (ctc_greedy_decoder's repeats) and
#    random ops (unique candidate sampling, sample_distorted_bounding_box's coverage, index_shuffle's cycle walk,
#    the binomial's BTRS threshold above p = 0.5, the gamma's small-alpha boost); each a function, branch or
#    argument no earlier mutant touched, at most two in one file.
TRAINING_BATCH29: list[Mutant] = [
    # -- Keras layers
    _t("repeat-vector-zero-accepted", "boundary", "simdist/keras/layers/repeat_vector.py",
       "        if n <= 0:\n",
       "        if n < 0:\n",
       "RepeatVector(0) is accepted (Keras: ValueError, n must be positive)"),
    _t("permute-inverse-permutation", "order", "simdist/keras/layers/permute.py",
       "        return tf.transpose(inputs, (0,) + self.dims)\n",
       "        return tf.transpose(inputs, (0,) + tuple(self.dims.index(i) + 1 for i in range(1, len(self.dims) + 1)))\n",
       "Permute applies the inverse permutation (the same for swaps, wrong for a 3-cycle)"),
    _t("text-vectorization-ngrams-off-by-one", "boundary", "simdist/keras/layers/text_vectorization.py",
       "        self._ngrams = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams\n",
       "        self._ngrams = tuple(range(1, ngrams)) if isinstance(ngrams, int) else ngrams\n",
       "TextVectorization(ngrams=n) makes widths 1..n-1 (Keras: 1..n)"),
    _t("integer-lookup-int32-vocabulary-accepted", "missing-error", "simdist/keras/layers/integer_lookup.py",
       "        if vocabulary_dtype != \"int64\":\n",
       "        if vocabulary_dtype not in (\"int64\", \"int32\"):\n",
       "IntegerLookup(vocabulary_dtype=\"int32\") is accepted (Keras: ValueError, only int64)"),
    _t("mel-spectrogram-ref-power-ignored", "formula", "simdist/keras/layers/preprocessing/audio/mel_spectrogram.py",
       "        log_spec -= 10.0 * np_.log10(np_.maximum(ref_value, self.min_power))\n",
       "",
       "MelSpectrogram's decibel scale ignores ref_power (always relative to 1)"),
    _t("random-rotation-fill-value-dropped", "formula", "simdist/keras/layers/preprocessing/image/random_rotation.py",
       "            fill_mode=self.fill_mode, fill_value=self.fill_value, data_format=self.data_format)\n",
       "            fill_mode=self.fill_mode, fill_value=0.0, data_format=self.data_format)\n",
       "RandomRotation(fill_mode=\"constant\", fill_value=v) fills the corners with 0"),
    # -- keras.ops (the TF backend's functions)
    _t("keras-ops-stft-window-pad-swapped", "order", "simdist/keras/ops/tf_math.py",
       "        win_array = tf.pad(win_array, [[l_pad, r_pad]])\n\n        def win(frame_step, dtype):\n",
       "        win_array = tf.pad(win_array, [[r_pad, l_pad]])\n\n        def win(frame_step, dtype):\n",
       "keras.ops.stft pads a window shorter than fft_length with the larger half on the left"),
    _t("keras-ops-fori-loop-upper-inclusive", "boundary", "simdist/keras/ops/tf_core.py",
       "        lambda i, val: i < upper,\n",
       "        lambda i, val: i <= upper,\n",
       "keras.ops.fori_loop(lower, upper, ...) runs the body for i == upper too"),
    _t("keras-ops-norm-neg-inf-max", "formula", "simdist/keras/ops/tf_linalg.py",
       "        elif ord == float(\"-inf\"):\n            return tf.math.reduce_min(\n",
       "        elif ord == float(\"-inf\"):\n            return tf.math.reduce_max(\n",
       "keras.ops.norm(x, ord=-inf) of a vector is the largest magnitude (should be the smallest)"),
    _t("keras-ops-average-weights-sum-all-axes", "denominator", "simdist/keras/ops/tf_numpy.py",
       "            weights_sum = tf.reduce_sum(weights, axis=axis)\n",
       "            weights_sum = tf.reduce_sum(weights)\n",
       "keras.ops.average(x, axis, weights) of equal ranks divides by the sum of all weights, not per axis"),
    # -- tf.keras.backend
    _t("legacy-moving-average-update-momentum", "formula", "simdist/keras/legacy_backend.py",
       "    return x.assign_sub((x - value) * (1 - momentum))\n",
       "    return x.assign_sub((x - value) * momentum)\n",
       "tf.keras.backend.moving_average_update moves by momentum instead of 1 - momentum"),
    _t("legacy-categorical-crossentropy-normalised-last-axis", "axis", "simdist/keras/legacy_backend.py",
       "    output = output / tf.reduce_sum(output, axis, True)\n",
       "    output = output / tf.reduce_sum(output, -1, True)\n",
       "tf.keras.backend.categorical_crossentropy(axis=k) renormalises the probabilities along the last axis"),
    # -- Keras preprocessing
    _t("tokenizer-num-words-inclusive", "boundary", "simdist/keras/preprocessing/text.py",
       "                    if num_words and i >= num_words:\n",
       "                    if num_words and i > num_words:\n",
       "Tokenizer(num_words=n).texts_to_sequences keeps the word of index n (Keras: indices below n)"),
    _t("timeseries-generator-last-row-dropped", "boundary", "simdist/keras/preprocessing/sequence.py",
       "            rows = np.arange(i, min(i + self.batch_size * self.stride, self.end_index + 1), self.stride)\n",
       "            rows = np.arange(i, min(i + self.batch_size * self.stride, self.end_index), self.stride)\n",
       "TimeseriesGenerator's last batch leaves out the window ending at end_index"),
    _t("make-sampling-table-sqrt-dropped", "formula", "simdist/keras/preprocessing/sequence.py",
       "    return np.minimum(1.0, f / np.sqrt(f))\n",
       "    return np.minimum(1.0, f)\n",
       "make_sampling_table returns min(1, f) instead of min(1, f / sqrt(f))"),
    # -- metrics and the fit loop
    _t("metrics-get-snake-case-names-dropped", "missing-error", "simdist/keras/metrics/__init__.py",
       "ALL_OBJECTS_DICT.update({to_snake_case(cls.__name__): cls for cls in ALL_OBJECTS})\n",
       "",
       "keras.metrics.get(\"r2_score\") (a class's snake_case name) is ValueError (Keras: an R2Score)"),
    _t("spe-mirrored-single-replica-fails", "boundary", "simdist/keras/trainers/multi_step_bug.py",
       "            and strategy.num_replicas_in_sync > 1)\n",
       "            and strategy.num_replicas_in_sync >= 1)\n",
       "fit with steps_per_execution > 1 under a one-replica MirroredStrategy fails like the multi-replica case "
       "(TF 2.21 trains)"),
    _t("generator-spec-batch-dim-fixed", "shard-size", "simdist/keras/trainers/tensor_spec.py",
       "    merged[0] = None     # convert_to_tf_tensor_spec(batch_axis_to_none=True)\n",
       "",
       "a generator's peeked batches fix the TensorSpec's batch dimension: a shorter last batch does not match"),
    _t("optimizer-variable-aggregation-dropped", "state", "simdist/keras/optimizers/_variable.py",
       "trainable=False, aggregation=aggregation, name=name)\n",
       "trainable=False, name=name)\n",
       "an optimizer's own variables (iterations) lose their aggregation (Keras: only_first_replica)"),
    # -- gradients
    _t("all-gather-grad-offset-includes-own", "gradient", "simdist/runtime/ops/collective.py",
       "        begin = math.reduce_sum(array.strided_slice(sizes, slice(None, rid)))\n",
       "        begin = math.reduce_sum(array.strided_slice(sizes, slice(None, rid + 1)))\n",
       "all_gather's gradient takes a replica's rows after its own block (offset counts its own size)"),
    _t("projective-transform-grad-interpolation-nearest", "gradient", "simdist/runtime/ops/image_projective.py",
       "interpolation=op.attrs[\"interpolation\"], fill_mode=op.attrs[\"fill_mode\"])\n",
       "interpolation=\"NEAREST\", fill_mode=op.attrs[\"fill_mode\"])\n",
       "ImageProjectiveTransformV3's gradient samples NEAREST whatever the forward's interpolation"),
    _t("ctc-loss-v1-grad-upstream-ignored", "gradient", "simdist/runtime/ops/ctc_sparse.py",
       "    return [expand_dims(grad_loss, -1) * g, None, None, None]\n",
       "    return [g, None, None, None]\n",
       "CTCLoss's gradient ignores the upstream gradient (a weighted loss gets the unweighted gradient)"),
    # -- control flow
    _t("tf-scan-reverse-outputs-not-reversed", "order", "simdist/runtime/ops/control_flow.py",
       "    if reverse:\n        outs.reverse()\n",
       "",
       "tf.scan(reverse=True) stacks the outputs in the order computed (last slice first)"),
    _t("v1-while-loop-maximum-iterations-dropped", "boundary", "simdist/tf/_compat_v1_ops.py",
       "parallel_iterations=parallel_iterations, maximum_iterations=maximum_iterations)\n",
       "parallel_iterations=parallel_iterations)\n",
       "tf.compat.v1.while_loop ignores maximum_iterations"),
    # -- tf.nn
    _t("ctc-greedy-blank-does-not-reset-repeat", "state", "simdist/runtime/ops/ctc_decode.py",
       "                out.append(c)\n            prev = c\n",
       "                out.append(c)\n                prev = c\n",
       "ctc_greedy_decoder merges a label repeated across a blank (the blank does not reset the previous class)"),
    # -- random ops
    _t("candidate-sampler-unique-full-range-refused", "boundary", "simdist/runtime/ops/candidate_samplers.py",
       "    if unique and num_sampled > rng:\n",
       "    if unique and num_sampled >= rng:\n",
       "a unique candidate sampler refuses num_sampled == range_max (TF samples the whole range)"),
    _t("distorted-box-coverage-strict", "boundary", "simdist/runtime/ops/image_distorted_box.py",
       "        if _F(_area(_intersect(crop, box)) / area) >= min_covered:\n",
       "        if _F(_area(_intersect(crop, box)) / area) > min_covered:\n",
       "sample_distorted_bounding_box needs a crop to cover more than min_object_covered (TF: at least)"),
    _t("index-shuffle-table-walk-off-by-one", "boundary", "simdist/runtime/ops/index_shuffle.py",
       "        while value > max_index:\n",
       "        while value >= max_index:\n",
       "index_shuffle's cycle walk (max_index below 2^16) skips max_index itself"),
    _t("binomial-high-p-btrs-threshold-uses-p", "formula", "simdist/runtime/ops/binomial.py",
       "            if count * (tdt(1) - prob) >= tdt(10):\n",
       "            if count * prob >= tdt(10):\n",
       "the binomial above p = 0.5 picks BTRS by count * p instead of count * (1 - p)"),
    _t("gamma-small-alpha-boost-exponent", "formula", "simdist/runtime/ops/gamma_poisson.py",
       "                res *= _pow(b, _recip(alpha))\n",
       "                res *= _pow(b, alpha)\n",
       "the gamma's alpha < 1 boost multiplies by U^alpha instead of U^(1/alpha)"),
]
TRAINING += TRAINING_BATCH29
CATALOGUE += TRAINING_BATCH29

# -- Thirty-second session: a thirtieth blind batch (TRAINING_BATCH30), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Thirty-second session: a thirtieth blind batch"). Keras layers
#    (MaxNumBoundingBoxes' label padding, CLAHE's clipped excess, RandomGaussianBlur's kernel-size pair and sigma
#    range, RandomGrayscale's draw, RandomColorJitter's value_range, STFTSpectrogram's psd bins and default
#    fft_length, MaxPooling1D's default pool_size, DepthwiseConv1D's default padding, StringLookup's config), losses and
#    optimizers (Reduction.all, losses.get("mape"), optimizers.deserialize of a lower-case class name), gradients
#    (SpaceToBatchND's crops, DynamicPartition's positions), keras.ops (gaussian_blur's sigmas, rgb_to_grayscale's
#    weights, conv_transpose's "same" shape), keras.ops symbolic specs (extract_sequences, top_k, svd, unstack,
#    digitize, crop_images), Keras utilities (FeatureSpace.integer_categorical, image_dataset_from_directory's
#    crop, audio_dataset_from_directory's sampling_rate) and random ops / tf.nn (compute_accidental_hits' weight,
#    the alg name "auto_select"); each a function, branch or argument no earlier mutant touched, at most two in
#    one file, most in files no earlier mutant touched.
TRAINING_BATCH30: list[Mutant] = [
    # -- Keras layers
    _t("max-num-boxes-labels-padded-with-zero", "formula", "simdist/keras/layers/preprocessing/image/max_num_bounding_boxes.py",
       "        labels = ops.numpy.pad(labels[:, : self.max_number], [[0, 0], [0, pad_size]], constant_values=self.fill_value)\n",
       "        labels = ops.numpy.pad(labels[:, : self.max_number], [[0, 0], [0, pad_size]], constant_values=0)\n",
       "MaxNumBoundingBoxes pads the labels with 0 instead of fill_value (the boxes keep fill_value)"),
    _t("clahe-clipped-excess-not-redistributed", "formula", "simdist/keras/layers/preprocessing/image/clahe.py",
       "            hists = clipped + np_.sum(hists - clipped, axis=-1, keepdims=True) / 256.0\n",
       "            hists = clipped\n",
       "ContrastLimitedAdaptiveHistogramEqualization drops the clipped excess instead of spreading it over the bins"),
    _t("gaussian-blur-layer-kernel-pair-second-unchecked", "missing-error",
       "simdist/keras/layers/preprocessing/image/random_gaussian_blur.py",
       "        if value[0] % 2 == 0 or value[1] % 2 == 0:\n",
       "        if value[0] % 2 == 0:\n",
       "RandomGaussianBlur(kernel_size=(3, 4)) is accepted (Keras: ValueError, both sizes must be odd)"),
    _t("random-grayscale-draw-comparison-flipped", "boundary", "simdist/keras/layers/preprocessing/image/random_grayscale.py",
       "        return self.backend.numpy.expand_dims(draws < self.factor, axis=[1, 2, 3])\n",
       "        return self.backend.numpy.expand_dims(draws > self.factor, axis=[1, 2, 3])\n",
       "RandomGrayscale converts an image when its draw is above factor (factor=1 converts none)"),
    _t("color-jitter-value-range-not-passed", "formula", "simdist/keras/layers/preprocessing/image/random_color_jitter.py",
       "        common = {\"value_range\": value_range, \"seed\": seed}\n",
       "        common = {\"seed\": seed}\n",
       "RandomColorJitter's sub-layers get the default value_range (0, 255) instead of the jitter's"),
    _t("stft-spectrogram-psd-doubles-nyquist", "boundary", "simdist/keras/layers/preprocessing/audio/stft_spectrogram.py",
       "power + knp.pad(power[:, :, 1:-1, :], [[0, 0], [0, 0], [1, 1], [0, 0]])",
       "power + knp.pad(power[:, :, 1:, :], [[0, 0], [0, 0], [1, 0], [0, 0]])",
       "STFTSpectrogram(mode=\"psd\") doubles the Nyquist bin too (Keras: only the inner bins)"),
    _t("stft-spectrogram-default-fft-length-is-frame-length", "formula",
       "simdist/keras/layers/preprocessing/audio/stft_spectrogram.py",
       "        self._fft_length = fft_length or 2 ** int(math.ceil(math.log2(frame_length)))\n",
       "        self._fft_length = fft_length or frame_length\n",
       "STFTSpectrogram's default fft_length is frame_length (Keras: the next power of two)"),
    _t("max-pooling1d-default-pool-size-three", "boundary", "simdist/keras/layers/pooling1d.py",
       "    def __init__(self, pool_size: Any = 2, strides: Any = None,",
       "    def __init__(self, pool_size: Any = 3, strides: Any = None,",
       "MaxPooling1D's default pool_size is 3 (Keras: 2)"),
    _t("depthwise-conv1d-default-padding-same", "boundary", "simdist/keras/layers/depthwise_conv1d.py",
       "padding: str = \"valid\", depth_multiplier: int = 1,",
       "padding: str = \"same\", depth_multiplier: int = 1,",
       "DepthwiseConv1D's default padding is \"same\" (Keras: \"valid\")"),
    _t("string-lookup-config-keeps-vocabulary-dtype", "state", "simdist/keras/layers/string_lookup.py",
       "        del base_config[\"vocabulary_dtype\"]    # (strings have one dtype)\n",
       "",
       "StringLookup.get_config keeps vocabulary_dtype, so from_config(get_config()) passes it twice"),
    _t("named-factor-lower-bound-not-clipped", "boundary", "simdist/keras/layers/preprocessing/image/factors.py",
       "        return max(-factor, lo), factor\n",
       "        return -factor, factor\n",
       "RandomGaussianBlur(sigma=s) ranges over (-s, s) instead of (max(-s, 0), s)"),
    # -- losses and optimizers
    _t("legacy-reduction-all-drops-auto", "missing-error", "simdist/keras/losses/reduction.py",
       "        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)\n",
       "        return (cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)\n",
       "tf.keras.losses.Reduction.all() leaves out AUTO, so validate(\"auto\") raises"),
    _t("losses-get-mape-alias-dropped", "missing-error", "simdist/keras/losses/__init__.py",
       "                         \"mape\": _regression.mean_absolute_percentage_error,\n",
       "",
       "tf.keras.losses.get(\"mape\") is ValueError (Keras: mean_absolute_percentage_error)"),
    _t("optimizers-deserialize-lowercase-class-name", "missing-error", "simdist/keras/optimizers/__init__.py",
       "    if config[\"class_name\"].lower() in _BY_NAME:\n        config[\"class_name\"] = config[\"class_name\"].lower()\n",
       "",
       "keras.optimizers.deserialize({\"class_name\": \"adam\", ...}) returns the string (Keras: an Adam)"),
    # -- gradients
    _t("space-to-batch-grad-crops-dropped", "gradient", "simdist/runtime/ops/space_batch.py",
       "{\"block\": op.get_attr(\"block\"), \"crops\": op.get_attr(\"pads\")})]",
       "{\"block\": op.get_attr(\"block\"), \"crops\": [[0, 0]] * len(op.get_attr(\"block\"))})]",
       "SpaceToBatchND's gradient does not crop the paddings (gradient of the padded shape)"),
    _t("dynamic-partition-grad-positions-flat", "gradient", "simdist/runtime/ops/data_flow.py",
       "    positions = array.reshape(array.range_(0, n), parts.shape.as_list())\n",
       "    positions = array.range_(0, n)\n",
       "DynamicPartition's gradient numbers the rows without the partitions' shape (fails for 2-D partitions)"),
    # -- keras.ops (the TF backend's functions)
    _t("keras-ops-gaussian-blur-sigmas-swapped", "axis", "simdist/keras/ops/tf_image.py",
       "            kernel1d_x = _get_gaussian_kernel1d(size[0], sigma[0])\n"
       "            kernel1d_y = _get_gaussian_kernel1d(size[1], sigma[1])\n",
       "            kernel1d_x = _get_gaussian_kernel1d(size[0], sigma[1])\n"
       "            kernel1d_y = _get_gaussian_kernel1d(size[1], sigma[0])\n",
       "keras.ops.image.gaussian_blur applies sigma[1] along the first kernel axis and sigma[0] along the second"),
    _t("keras-ops-rgb-to-grayscale-bgr-weights", "order", "simdist/keras/ops/tf_image.py",
       "        [0.2989, 0.5870, 0.1140], dtype=images.dtype\n",
       "        [0.1140, 0.5870, 0.2989], dtype=images.dtype\n",
       "keras.ops.image.rgb_to_grayscale weighs the channels as BGR"),
    _t("keras-ops-conv-transpose-same-shape", "boundary", "simdist/keras/ops/backend_utils.py",
       "            return input_size * strides\n",
       "            return (input_size - 1) * strides + 1\n",
       "keras.ops.conv_transpose(padding=\"same\") on a symbolic input infers (n - 1) * s + 1 (Keras: n * s)"),
    # -- keras.ops symbolic shapes and dtypes (compute_output_spec)
    _t("keras-ops-extract-sequences-spec-count-off-by-one", "boundary", "simdist/keras/ops/op_math.py",
       "                1 + (x.shape[-1] - self.sequence_length) // self.sequence_stride\n",
       "                (x.shape[-1] - self.sequence_length) // self.sequence_stride\n",
       "keras.ops.extract_sequences on a symbolic input infers one sequence fewer"),
    _t("keras-ops-top-k-spec-indices-dtype", "dtype", "simdist/keras/ops/op_math.py",
       "            KerasTensor(shape=output_shape, dtype=\"int32\"),\n        )\n\n    def call(self, x):\n"
       "        return backend.math.top_k(x, self.k, self.sorted)\n",
       "            KerasTensor(shape=output_shape, dtype=x.dtype),\n        )\n\n    def call(self, x):\n"
       "        return backend.math.top_k(x, self.k, self.sorted)\n",
       "keras.ops.top_k on a symbolic input infers the indices' dtype as the values' (Keras: int32)"),
    _t("keras-ops-svd-spec-reduced-v-transposed", "order", "simdist/keras/ops/op_linalg.py",
       "            v_shape = batches + (min(rows, columns), columns)\n",
       "            v_shape = batches + (columns, min(rows, columns))\n",
       "keras.ops.svd(full_matrices=False) on a symbolic input infers v as (n, k) instead of (k, n)"),
    _t("keras-ops-unstack-spec-num-from-axis-zero", "axis", "simdist/keras/ops/op_core.py",
       "            num = x.shape[axis]\n",
       "            num = x.shape[0]\n",
       "keras.ops.unstack(axis=k) on a symbolic input makes as many outputs as the first dimension"),
    _t("keras-ops-digitize-spec-int64", "dtype", "simdist/keras/ops/op_numpy.py",
       "        return KerasTensor(x.shape, dtype=\"int32\", sparse=sparse)\n",
       "        return KerasTensor(x.shape, dtype=\"int64\", sparse=sparse)\n",
       "keras.ops.digitize on a symbolic input infers int64 (Keras: int32)"),
    _t("keras-ops-crop-images-spec-left-twice", "formula", "simdist/keras/ops/op_image.py",
       "target_width = width - self.left_cropping - self.right_cropping",
       "target_width = width - self.left_cropping - self.left_cropping",
       "keras.ops.image.crop_images on a symbolic input subtracts left_cropping twice from the width"),
    # -- Keras utilities
    _t("feature-space-integer-categorical-oov-dropped", "formula", "simdist/keras/utils/feature_space.py",
       "        preprocessor = layers.IntegerLookup(name=f\"{name}_preprocessor\", max_tokens=max_tokens,\n"
       "                                            num_oov_indices=num_oov_indices)\n",
       "        preprocessor = layers.IntegerLookup(name=f\"{name}_preprocessor\", max_tokens=max_tokens)\n",
       "FeatureSpace.integer_categorical(num_oov_indices=n) builds its IntegerLookup with one OOV index"),
    _t("image-dataset-crop-to-aspect-ratio-top-aligned", "formula", "simdist/keras/utils/image_dataset.py",
       "    h0 = tf.cast(tf.cast(height - crop_h, \"float32\") / 2, \"int32\")\n",
       "    h0 = tf.cast(0 * height, \"int32\")\n",
       "image_dataset_from_directory(crop_to_aspect_ratio=True) crops a tall image from the top, not the centre"),
    # -- random ops / tf.nn
    _t("accidental-hits-weight-minus-inf", "formula", "simdist/runtime/ops/candidate_sampling.py",
       "            np.full(len(rows), np.finfo(np.float32).min, np.float32))\n",
       "            np.full(len(rows), -np.inf, np.float32))\n",
       "tf.nn.compute_accidental_hits weights a hit -inf (TF: the lowest float32, -FLT_MAX)"),
    _t("rng-alg-auto-select-underscore-refused", "missing-error", "simdist/runtime/ops/rng_alg.py",
       "        canon = alg.strip().lower().replace(\"-\", \"\").replace(\"_\", \"\")\n",
       "        canon = alg.strip().lower().replace(\"-\", \"\")\n",
       "a stateless random op's alg=\"auto_select\" (a string with an underscore) is ValueError (TF: auto-selection)"),
    _t("audio-dataset-sampling-rate-zero-accepted", "missing-error", "simdist/keras/utils/audio_dataset.py",
       "        if sampling_rate <= 0:\n",
       "        if sampling_rate < 0:\n",
       "audio_dataset_from_directory(sampling_rate=0) passes the check (Keras: ValueError, should be higher than 0)"),
]
TRAINING += TRAINING_BATCH30
CATALOGUE += TRAINING_BATCH30

# -- Thirty-third session: a thirty-first blind batch (TRAINING_BATCH31), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Thirty-third session: a thirty-first blind batch"). Keras layers
#    (RandAugment/AugMix's posterization bits, AugMix's all_ops=False list, RandAugment's op draw, RandomPerspective's
#    scale check, Cropping1D's zero right crop, Permute's dims check, Masking's mask, the normalization layers' axis
#    check, Discretization's adapted boundaries, RepeatVector's symbolic shape), keras.ops (rearrange's symbolic
#    dtype), losses and metrics (hinge's 0/1 labels, thresholds of 1, the sensitivity/specificity range),
#    keras.random (categorical's dtype, randint's intermediate dtype), tf.data (unique's int64, get_single_element's
#    second element, Optional.from_value's spec), gradients (ClipByValue at a bound, ReverseSequence's axes,
#    Xlog1py's y, Erfinv, MatrixBandPart, Angle), optimizers and callbacks (Muon's 2-D rule, optimizers.get's case,
#    ReduceLROnPlateau's cooldown), tf.nn (dropout's rate 1) and distributed values (a sync-on-read variable's
#    assign_sub); each a function, branch or argument no earlier mutant touched, at most two in one file (29
#    files), eight in files no earlier mutant touched.
_IMG31 = "simdist/keras/layers/preprocessing/image/"
TRAINING_BATCH31: list[Mutant] = [
    # -- Keras layers
    _t("augment-posterization-bits-from-lower-factor", "formula", _IMG31 + "augment_ops.py",
       "        return RandomPosterization(factor=max(1, int(8 * factor[1])), **colour)\n",
       "        return RandomPosterization(factor=max(1, int(8 * factor[0])), **colour)\n",
       "RandAugment/AugMix build their RandomPosterization from the lower factor bound (Keras: the upper)"),
    _t("aug-mix-all-ops-false-list-short", "boundary", _IMG31 + "aug_mix.py",
       "AUGMENT_LAYERS = AUGMENT_LAYERS_ALL[:7]\n",
       "AUGMENT_LAYERS = AUGMENT_LAYERS_ALL[:5]\n",
       "AugMix(all_ops=False) chooses among five sub-layers, not seven (no AutoContrast, no Equalization)"),
    _t("rand-augment-last-op-never-drawn", "boundary", _IMG31 + "rand_augment.py",
       "randint((self.num_ops,), 0, len(self._AUGMENT_LAYERS),",
       "randint((self.num_ops,), 0, len(self._AUGMENT_LAYERS) - 1,",
       "RandAugment draws its op indices from [0, 10) (an inclusive bound read as exclusive twice: Equalization never)"),
    _t("random-perspective-negative-scale-accepted", "missing-error", _IMG31 + "random_perspective.py",
       "        if scale < 0.0 or scale > 1.0:\n",
       "        if scale > 1.0:\n",
       "RandomPerspective(scale=-0.5) is accepted (Keras: ValueError, scale in [0, 1])"),
    _t("cropping1d-zero-right-crop-empties", "boundary", "simdist/keras/layers/cropping1d.py",
       "        if self.cropping[1] == 0:\n            return inputs[:, self.cropping[0]:, :]\n",
       "",
       "Cropping1D((1, 0)) slices [1:-0], an empty sequence (Keras: crops the start only)"),
    _t("permute-duplicate-dims-accepted", "missing-error", "simdist/keras/layers/permute.py",
       "        if sorted(dims) != list(range(1, len(dims) + 1)):\n",
       "        if max(dims) > len(dims):\n",
       "Permute((1, 1)) passes the check (Keras: ValueError, the dims must be a permutation of 1..n)"),
    _t("masking-compute-mask-keeps-last-axis", "axis", "simdist/keras/layers/masking.py",
       "        return _keep(inputs, self.mask_value, keepdims=False)\n",
       "        return _keep(inputs, self.mask_value, keepdims=True)\n",
       "Masking.compute_mask keeps the feature axis (Keras: a (batch, steps) mask)"),
    _t("norm-axis-check-lowest-axis-refused", "boundary", "simdist/keras/layers/unit_normalization.py",
       "        if a >= len(input_shape) or a < -len(input_shape):\n            raise ValueError(f\"Axis {a} is out",
       "        if a >= len(input_shape) or a <= -len(input_shape):\n            raise ValueError(f\"Axis {a} is out",
       "RMSNormalization/GroupNormalization refuse axis=-rank in compute_output_shape (Keras: in range)"),
    _t("discretization-adapt-boundaries-shifted", "boundary", "simdist/keras/layers/discretization.py",
       "    return compress_summary(summary, 1.0 / num_bins)[0, :-1]\n",
       "    return compress_summary(summary, 1.0 / num_bins)[0, 1:]\n",
       "Discretization(num_bins=n).adapt keeps the upper n - 1 quantiles (Keras: all but the last)"),
    _t("repeat-vector-output-shape-axes-swapped", "axis", "simdist/keras/layers/repeat_vector.py",
       "        return (input_shape[0], self.n, input_shape[1])\n",
       "        return (input_shape[0], input_shape[1], self.n)\n",
       "RepeatVector's symbolic output shape is (batch, features, n) (Keras: (batch, n, features))"),
    # -- keras.ops
    _t("keras-ops-rearrange-spec-float32", "dtype", "simdist/keras/ops/op_einops.py",
       "        return KerasTensor(shape=output_shape, dtype=tensor.dtype)\n",
       "        return KerasTensor(shape=output_shape, dtype=\"float32\")\n",
       "keras.ops.rearrange on a symbolic input infers float32 (Keras: the input's dtype)"),
    # -- losses and metrics
    _t("hinge-binary-labels-not-mapped", "formula", "simdist/keras/losses/hinge_losses.py",
       "    y_true = convert_binary_labels_to_hinge(ops.cast(y_true, y_pred.dtype))\n"
       "    return ops.mean(tf.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)\n",
       "    y_true = ops.cast(y_true, y_pred.dtype)\n"
       "    return ops.mean(tf.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)\n",
       "keras.losses.hinge takes 0/1 labels as they are (Keras: mapped to -1/1)"),
    _t("metric-threshold-one-refused", "boundary", "simdist/keras/metrics/metrics_utils.py",
       "t is None or t < 0 or t > 1]",
       "t is None or t < 0 or t >= 1]",
       "Precision(thresholds=1.0) is ValueError (Keras: thresholds in [0, 1] inclusive)"),
    _t("sensitivity-specificity-range-upper-unchecked", "missing-error",
       "simdist/keras/metrics/sensitivity_specificity.py",
       "    if value < 0 or value > 1:\n",
       "    if value < 0 or value > 100:\n",
       "SensitivityAtSpecificity(1.5) is accepted (a percentage bound; Keras: ValueError, in [0, 1])"),
    # -- keras.random
    _t("keras-random-categorical-dtype-ignored", "dtype", "simdist/keras/random.py",
       "    return tf.cast(out, dtype)\n",
       "    return out\n",
       "keras.random.categorical returns int64 whatever dtype (Keras: cast to dtype, int32 by default)"),
    _t("keras-random-randint-small-ints-drawn-int32", "dtype", "simdist/keras/random.py",
       "    intermediate = name if name in (\"int32\", \"int64\") else \"int64\"\n",
       "    intermediate = name if name in (\"int32\", \"int64\") else \"int32\"\n",
       "keras.random.randint(dtype=\"int8\") draws int32 then casts (Keras's TF backend: int64, other values)"),
    # -- tf.data
    _t("dataset-unique-int64-refused", "missing-error", "simdist/runtime/data/unique.py",
       "            if s.dtype not in (dtypes.int32, dtypes.int64, dtypes.string):\n",
       "            if s.dtype not in (dtypes.int32, dtypes.string):\n",
       "Dataset.unique refuses int64 elements (TF: int32, int64 and string)"),
    _t("get-single-element-second-unchecked", "missing-error", "simdist/runtime/data/single_element.py",
       "    if next(it, None) is not None:\n",
       "    if False:\n",
       "Dataset.get_single_element returns the first of several elements (TF: InvalidArgumentError)"),
    _t("optional-from-value-spec-shape-dropped", "state", "simdist/runtime/data/iterators.py",
       "TensorSpec(t.shape, t.dtype)",
       "TensorSpec(None, t.dtype)",
       "tf.experimental.Optional.from_value's element_spec has an unknown shape (TF: the value's shape)"),
    # -- gradients
    _t("clip-by-value-grad-bound-takes-equal", "gradient", "simdist/runtime/ops/truncation.py",
       "    below, above = math.less(x, lo), math.greater(x, hi)\n",
       "    below, above = math.less_equal(x, lo), math.greater_equal(x, hi)\n",
       "ClipByValue's gradient sends an x equal to a bound's gradient to the bound (TF: to x)"),
    _t("reverse-sequence-grad-axes-swapped", "gradient", "simdist/runtime/ops/array_more.py",
       "{\"seq_dim\": op.get_attr(\"seq_dim\"),\n"
       "                                                                      \"batch_dim\": op.get_attr(\"batch_dim\")}",
       "{\"seq_dim\": op.get_attr(\"batch_dim\"),\n"
       "                                                                      \"batch_dim\": op.get_attr(\"seq_dim\")}",
       "ReverseSequence's gradient reverses along batch_dim per seq_dim entry (seq_dim and batch_dim swapped)"),
    _t("xlog1py-grad-y-without-one", "gradient", "simdist/runtime/ops/xfunctions.py",
       "xdivy(x, y + 1.0) * grad)",
       "xdivy(x, y) * grad)",
       "Xlog1py's gradient for y is x / y (TF: x / (1 + y))"),
    _t("erfinv-grad-halved-exponent", "gradient", "simdist/runtime/ops/special_more.py",
       "    return [grad * _const(np.sqrt(np.pi) / 2, grad.dtype) * exp(square(op.outputs[0]))]\n",
       "    return [grad * _const(np.sqrt(np.pi) / 2, grad.dtype) * exp(square(op.outputs[0]) / 2.0)]\n",
       "Erfinv's gradient uses exp(y^2 / 2) (the Ndtri form; TF: sqrt(pi)/2 exp(y^2))"),
    _t("matrix-band-part-grad-unmasked", "gradient", "simdist/runtime/ops/linalg_more.py",
       "    return [band_part(grad, op.inputs[1], op.inputs[2]), None, None]\n",
       "    return [grad, None, None]\n",
       "MatrixBandPart's gradient passes the whole upstream gradient (TF: only the band)"),
    _t("angle-grad-sign-flipped", "gradient", "simdist/runtime/ops/complex_math.py",
       "    return [-complex_(grad, _zeros(grad)) * w]\n",
       "    return [complex_(grad, _zeros(grad)) * w]\n",
       "Angle's gradient has the wrong sign (TF: -grad / complex(imag z, real z))"),
    # -- optimizers and callbacks
    _t("muon-higher-rank-variables-not-adamw", "boundary", "simdist/keras/optimizers/muon.py",
       "        if len(variable.shape) != 2:\n",
       "        if len(variable.shape) < 2:\n",
       "Muon updates 3-D and 4-D kernels with the Newton-Schulz step (Keras: AdamW for all but 2-D)"),
    _t("optimizers-get-name-case-sensitive", "missing-error", "simdist/keras/optimizers/__init__.py",
       "        obj = deserialize({\"class_name\": identifier, \"config\": {}})\n",
       "        obj = _BY_NAME[identifier]() if identifier in _BY_NAME else identifier\n",
       "keras.optimizers.get(\"Adam\") is ValueError (Keras: the class name in any case)"),
    _t("reduce-lr-always-in-cooldown", "boundary", "simdist/keras/callbacks/reduce_lr_on_plateau.py",
       "        return self.cooldown_counter > 0\n",
       "        return self.cooldown_counter >= 0\n",
       "ReduceLROnPlateau is always in cooldown (counter >= 0), so it never counts a plateau nor reduces the rate"),
    # -- tf.nn
    _t("nn-dropout-rate-one-accepted", "missing-error", "simdist/runtime/ops/nn.py",
       "(rate < 0 or rate >= 1):\n",
       "(rate < 0 or rate > 1):\n",
       "tf.nn.dropout(x, rate=1.0) is accepted (TF: ValueError, rate in [0, 1))"),
    # -- distributed values
    _t("sync-on-read-assign-sub-adds", "state", "simdist/strategies/sync_on_read.py",
       "        return self._write(\"assign_sub\", delta, read_value)\n",
       "        return self._write(\"assign_add\", delta, read_value)\n",
       "a sync-on-read variable's assign_sub in cross-replica context adds to each copy"),
]
TRAINING += TRAINING_BATCH31
CATALOGUE += TRAINING_BATCH31

# -- Thirty-fourth session: a thirty-second blind batch (TRAINING_BATCH32), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Thirty-fourth session: a thirty-second blind batch"). Keras layers
#    (RandomElasticTransform's alpha and sigma, RandomHeight's number factor, the colour layers' value_range order,
#    Pipeline's training default, a tracked list's pop, an RNN's output mask, Add's dtype promotion, the global
#    poolings' channels_first keepdims shape, Sequential's unique names), losses and metrics (mean_absolute_error's
#    ranks, MeanMetricWrapper's mask, Precision's top_k, SensitivityAtSpecificity's class_id), optimizers, callbacks
#    and mixed precision (Adafactor's column factor, MultiOptimizer's iterations, all-None gradients,
#    LossScaleOptimizer's initial_scale, LearningRateScheduler with a MultiOptimizer), the trainer (dict
#    loss_weights, unpack_x_y_sample_weight of a list, max_steps_per_epoch, add_loss of a vector), gradients
#    (NthElement's ties, SigmoidGrad's second order, grad_pass_through's variables), tf.data (shuffle_and_repeat,
#    pad_to_cardinality, a namedtuple element), keras.random.beta's seeds and a Checkpoint's attributes; each a
#    function no earlier mutant touched, at most two in one file (29 files), ten in files no earlier mutant touched.
_IMG32 = "simdist/keras/layers/preprocessing/image/"
TRAINING_BATCH32: list[Mutant] = [
    # -- Keras layers
    _t("elastic-transform-alpha-sigma-sides-swapped", "formula", _IMG32 + "random_elastic_transform.py",
       "        alpha, sigma = max(height, width) * (0.1 * factor), min(height, width) * (0.05 * factor)\n",
       "        alpha, sigma = min(height, width) * (0.1 * factor), max(height, width) * (0.05 * factor)\n",
       "RandomElasticTransform scales alpha by the shorter side and sigma by the longer (Keras: alpha by max(h, w), "
       "sigma by min(h, w))"),
    _t("random-size-number-factor-only-enlarges", "boundary", _IMG32 + "random_size.py",
       "if isinstance(factor, (tuple, list)) else (-factor, factor)\n",
       "if isinstance(factor, (tuple, list)) else (0.0, factor)\n",
       "RandomHeight/RandomWidth(factor=f) draw from (0, f), never shrinking (Keras: a number f means (-f, f))"),
    _t("value-range-kept-unsorted", "order", _IMG32 + "value_range.py",
       "    return sorted(value_range)\n",
       "    return list(value_range)\n",
       "the colour layers keep value_range=(255, 0) as given (Keras sorts it to [0, 255])"),
    _t("pipeline-training-default-none", "state", "simdist/keras/layers/preprocessing/pipeline.py",
       "    def call(self, inputs: Any, training: Any = True, mask: Any = None) -> Any:\n",
       "    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:\n",
       "keras.layers.Pipeline called without `training` runs its layers in inference (Keras: training=True)"),
    _t("tracked-list-pop-keeps-tracking", "state", "simdist/keras/tracking.py",
       "        value = super().pop(index)\n"
       "        if self.tracker is not None:\n            self.tracker.untrack(value)\n",
       "        value = super().pop(index)\n",
       "a layer list's pop() leaves the popped sublayer tracked (its weights still in the owner's weights)"),
    _t("rnn-compute-mask-kept-without-sequences", "state", "simdist/keras/layers/rnn.py",
       "        output_mask = mask if self.return_sequences else None\n",
       "        output_mask = mask\n",
       "an RNN with return_sequences=False passes its (batch, steps) input mask on (Keras: no output mask)"),
    _t("add-mixed-dtypes-not-promoted", "dtype", "simdist/keras/layers/merging.py",
       "the elementwise sum of its inputs.\"\"\"\n\n    def _merge_function(self, inputs: list[Any]) -> Any:\n"
       "        inputs = _same_dtype(inputs)\n",
       "the elementwise sum of its inputs.\"\"\"\n\n    def _merge_function(self, inputs: list[Any]) -> Any:\n",
       "keras.layers.Add of int8 and uint8 inputs adds them unpromoted (Keras: their result_type, int16)"),
    _t("global-pool-channels-first-keepdims-shape", "axis", "simdist/keras/layers/pooling.py",
       "            return (input_shape[0], input_shape[1]) + (1,) * nsp\n",
       "            return (input_shape[0],) + (1,) * nsp + (input_shape[1],)\n",
       "the global poolings' symbolic shape with channels_first and keepdims puts the channels last"),
    _t("sequential-duplicate-layer-names-accepted", "missing-error", "simdist/keras/models/sequential.py",
       "            if layer.name == ref.name and ref is not layer:\n",
       "            if layer.name == ref.name and ref is layer:\n",
       "Sequential.add of a second layer with an existing name is accepted (Keras: ValueError, names unique)"),
    # -- losses and metrics
    _t("mae-ranks-not-matched", "axis", "simdist/keras/losses/losses.py",
       "    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)\n"
       "    return ops.mean(tf.abs(y_true - y_pred), axis=-1)\n",
       "    return ops.mean(tf.abs(y_true - y_pred), axis=-1)\n",
       "mean_absolute_error of (n,) labels and (n, 1) predictions broadcasts to (n, n) (Keras: squeezes to one rank)"),
    _t("mean-metric-wrapper-mask-ignored", "state", "simdist/keras/metrics/reduction_metrics.py",
       "        sample_weight = apply_mask(sample_weight, mask, dtype=self.dtype, reduction=\"sum\")\n"
       "        super().update_state(values, sample_weight=sample_weight)\n",
       "        super().update_state(values, sample_weight=sample_weight)\n",
       "MeanMetricWrapper metrics (MSE, accuracy...) count the masked steps of a masked prediction"),
    _t("precision-recall-top-k-dropped", "state", "simdist/keras/metrics/precision_recall.py",
       "            top_k=self.top_k, class_id=self.class_id, sample_weight=sample_weight)\n",
       "            class_id=self.class_id, sample_weight=sample_weight)\n",
       "Precision/Recall(top_k=k) threshold every prediction instead of keeping each row's k largest"),
    _t("sensitivity-specificity-class-id-dropped", "state", "simdist/keras/metrics/sensitivity_specificity.py",
       "            thresholds_distributed_evenly=self._thresholds_distributed_evenly, class_id=self.class_id,\n",
       "            thresholds_distributed_evenly=self._thresholds_distributed_evenly,\n",
       "SensitivityAtSpecificity & co. (class_id=c) count every class's column, not c's"),
    # -- optimizers and mixed precision
    _t("adafactor-column-factor-shape-rows", "axis", "simdist/keras/optimizers/adafactor.py",
       "shape=shape[:-2] + shape[-1:], dtype=var.dtype, name=var.name))\n",
       "shape=shape[:-2] + shape[-2:-1], dtype=var.dtype, name=var.name))\n",
       "Adafactor's column accumulator has the row count (Keras: shape[:-2] + shape[-1:])"),
    _t("multi-optimizer-iterations-frozen", "state", "simdist/keras/optimizers/multi_optimizer.py",
       "                opt.apply(list(sub_grads), list(sub_vars))\n        self._iterations.assign_add(1)\n",
       "                opt.apply(list(sub_grads), list(sub_vars))\n",
       "MultiOptimizer.apply leaves its own iterations at 0 (Keras counts each apply)"),
    _t("optimizer-no-gradients-silently-skipped", "missing-error", "simdist/keras/optimizers/base_optimizer.py",
       "        if not kept:\n            raise ValueError(\"No gradients provided for any variable.\")\n",
       "        if not kept:\n            return [], []\n",
       "apply_gradients with every gradient None does nothing (Keras: ValueError 'No gradients provided')"),
    _t("loss-scale-initial-scale-ignored", "state", "simdist/keras/optimizers/loss_scale_optimizer.py",
       "initializer=float(self.initial_scale),\n",
       "initializer=2.0 ** 15,\n",
       "LossScaleOptimizer(initial_scale=s) starts its dynamic scale at 2**15 whatever s"),
    _t("lr-scheduler-multi-optimizer-first-only", "state", "simdist/keras/callbacks/learning_rate_scheduler.py",
       "            for opt in optimizers:\n                lr = self._update_optimizer_lr(opt, epoch)\n",
       "            for opt in optimizers[:1]:\n                lr = self._update_optimizer_lr(opt, epoch)\n",
       "LearningRateScheduler sets the learning rate of a MultiOptimizer's first optimizer only"),
    # -- the trainer
    _t("loss-weights-dict-insertion-order", "order", "simdist/keras/trainers/compile_utils.py",
       "            loss = tree.map_structure(lambda _loss, _weight: _WeightedLoss(_loss, _weight), loss, loss_weights)\n",
       "            loss = tree.map_structure(lambda _loss, _weight: _WeightedLoss(_loss, _weight), loss,\n"
       "                                      dict(zip(sorted(loss), loss_weights.values()))\n"
       "                                      if isinstance(loss, dict) and isinstance(loss_weights, dict) else loss_weights)\n",
       "a dict of loss_weights pairs with dict outputs in their insertion order, not by sorted key as the losses"),
    _t("unpack-x-y-list-not-tuple", "state", "simdist/keras/trainers/data_adapter.py",
       "    if isinstance(data, list):\n        data = tuple(data)\n    if not isinstance(data, tuple):\n",
       "    if not isinstance(data, tuple):\n",
       "unpack_x_y_sample_weight takes a list [x, y] as x alone (Keras: a list counts as a tuple)"),
    _t("max-steps-per-epoch-raises-steps", "boundary", "simdist/keras/trainers/epoch_iterator.py",
       "            if not steps_per_epoch or max_steps_per_epoch < steps_per_epoch:\n",
       "            if not steps_per_epoch or max_steps_per_epoch > steps_per_epoch:\n",
       "keras.config.set_max_steps_per_epoch(m) limits an explicit steps_per_epoch only when it is below m"),
    _t("added-loss-not-summed", "denominator", "simdist/keras/trainers/trainer.py",
       "            losses.append(self._aggregate_additional_loss(loss))\n",
       "            losses.append(tf.reduce_mean(tf.cast(loss, tf.float32)))\n",
       "a vector passed to add_loss is averaged into the training loss (Keras: summed)"),
    # -- gradients
    _t("nth-element-grad-ties-not-shared", "gradient", "simdist/runtime/ops/raw_legacy.py",
       "    return math.divide(hits, count) * array.expand_dims(grad, -1)\n",
       "    return hits * array.expand_dims(grad, -1)\n",
       "NthElement's gradient gives the whole upstream gradient to every tied entry (TF splits it evenly)"),
    _t("sigmoid-grad-grad-missing-two", "gradient", "simdist/runtime/ops/raw_compositions.py",
       "    return gb - 2.0 * gb * ca, dispatch.execute(activations.SIGMOID_GRAD, (ca, grad))\n",
       "    return gb - gb * ca, dispatch.execute(activations.SIGMOID_GRAD, (ca, grad))\n",
       "SigmoidGrad's gradient with respect to y is g*dy*(1 - y) (TF: g*dy*(1 - 2y))"),
    _t("grad-pass-through-variables-zero", "gradient", "simdist/runtime/ops/control_more.py",
       "                return dys, [None] * len(variables)\n",
       "                return dys, [v * 0 for v in variables]\n",
       "tf.grad_pass_through gives the variables f reads zero gradients (TF: None)"),
    # -- tf.data
    _t("shuffle-and-repeat-same-order-each-epoch", "state", "simdist/runtime/data/experimental_forms.py",
       "dataset.shuffle(buffer_size, seed=seed, reshuffle_each_iteration=True).repeat(count)\n",
       "dataset.shuffle(buffer_size, seed=seed, reshuffle_each_iteration=False).repeat(count)\n",
       "tf.data.experimental.shuffle_and_repeat repeats one order (TF reshuffles each repetition)"),
    _t("pad-to-cardinality-equal-refused", "boundary", "simdist/runtime/data/experimental_forms.py",
       "        if card > cardinality:\n",
       "        if card >= cardinality:\n",
       "pad_to_cardinality(n) of a dataset of exactly n elements is ValueError (TF: no padding)"),
    _t("dataset-fn-namedtuple-unpacked", "state", "simdist/runtime/data/elements.py",
       "    if type(element) is tuple:\n        return fn(*element)\n",
       "    if isinstance(element, tuple):\n        return fn(*element)\n",
       "a tf.data function gets a namedtuple element's fields as separate arguments (TF: plain tuples only)"),
    # -- random
    _t("keras-random-beta-second-seed-offset", "formula", "simdist/keras/random.py",
       "    seed_2 = seed_1 + 12\n",
       "    seed_2 = seed_1 + 1\n",
       "keras.random.beta seeds its second gamma with seed + 1 (Keras's TF backend: seed + 12)"),
    # -- checkpoints
    _t("checkpoint-stale-plain-attribute-shadows", "state", "simdist/strategies/checkpoint.py",
       "        elif is_trackable(value):\n            self._attrs.pop(name, None)\n",
       "        elif is_trackable(value):\n",
       "a Checkpoint attribute first set to a plain value then to a variable still reads the plain value"),
]
TRAINING += TRAINING_BATCH32
CATALOGUE += TRAINING_BATCH32

# -- Thirty-fifth session: a thirty-third blind batch (TRAINING_BATCH33), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Thirty-fifth session: a thirty-third blind batch"). Keras layers
#    (IndexLookup's hashed OOV indices, TextVectorization's strip_punctuation, Dot's negative axes over two ranks,
#    StackedRNNCells' output size, GroupQueryAttention's key_mask, LayerNormalization's axis order, Hashing's
#    symbolic shape), losses and metrics (AUC's given thresholds, R2Score's reset, BinaryFocalCrossentropy's
#    config, Tversky's alpha and beta), optimizers, callbacks and mixed precision (Muon's Newton-Schulz
#    normalization, SwapEMAWeights after evaluate, ReduceLROnPlateau's reset, a nested AutocastScope's exit,
#    LossScaleOptimizer's inner loss_scale_factor), the trainer (a list of input arrays, compute_metrics' sample
#    weights, the cardinality check, the weighted metrics' reset), gradients (Xlogy's y at 0/0, Betainc's x
#    exponents, a tape's watched variables' order), tf.data (a strided window's span, sample_from_datasets' all-zero
#    weights, ragged_batch's row_splits_dtype), checkpoints and saving (latest_checkpoint of removed files,
#    save_weights' file name, a deserialized layer's build_config) and a strategy (MirroredStrategy's
#    batch_reduce_to of a mirrored variable); each a function no earlier mutant touched, at most two in one file
#    (29 files, one of them, keras/serialization.py, without a mutant before).
TRAINING_BATCH33: list[Mutant] = [
    # -- Keras layers
    _t("index-lookup-hashed-oov-ignores-mask-offset", "boundary", "simdist/keras/layers/index_lookup.py",
       "            oov_indices = oov_indices + self._oov_start_index()\n",
       "",
       "IndexLookup with num_oov_indices > 1 and a mask token hashes OOV inputs into [0, n) (Keras: [1, n + 1), "
       "past the mask index)"),
    _t("text-vectorization-strip-punctuation-lowercases", "state", "simdist/keras/layers/text_vectorization.py",
       "        if self._standardize in (\"lower\", \"lower_and_strip_punctuation\"):\n",
       "        if self._standardize in (\"lower\", \"lower_and_strip_punctuation\", \"strip_punctuation\"):\n",
       "TextVectorization(standardize=\"strip_punctuation\") lowercases too (Keras: only strips punctuation)"),
    _t("dot-negative-axis-first-rank-only", "axis", "simdist/keras/layers/dot.py",
       "            return [self.axes % rank1, self.axes % rank2] if self.axes < 0 else [self.axes] * 2\n",
       "            return [self.axes % rank1] * 2 if self.axes < 0 else [self.axes] * 2\n",
       "Dot(axes=-1) of inputs of two ranks resolves -1 by the first input's rank for both"),
    _t("stacked-cells-output-size-first-cell", "state", "simdist/keras/layers/stacked_rnn_cells.py",
       "        if getattr(self.cells[-1], \"output_size\", None) is not None:\n"
       "            return self.cells[-1].output_size\n",
       "        if getattr(self.cells[0], \"output_size\", None) is not None:\n"
       "            return self.cells[0].output_size\n",
       "StackedRNNCells' output_size is its first cell's (Keras: the last cell's), so RNN's symbolic shape is wrong"),
    _t("gqa-key-mask-dropped-beside-value-mask", "state", "simdist/keras/layers/grouped_query_attention.py",
       "        if key_mask is not None:\n            mask = ops.expand_dims(ops.cast(key_mask, \"bool\"), -2)\n",
       "        if key_mask is not None and value_mask is None:\n"
       "            mask = ops.expand_dims(ops.cast(key_mask, \"bool\"), -2)\n",
       "GroupedQueryAttention ignores key_mask when a value_mask is also given (Keras: both are and-ed)"),
    _t("layernorm-axis-list-kept-unsorted", "order", "simdist/keras/layers/normalization.py",
       "            self.axis = sorted(self.axis)\n            shape = tuple(input_shape[dim] for dim in self.axis)\n",
       "            shape = tuple(input_shape[dim] for dim in self.axis)\n",
       "LayerNormalization(axis=[2, 1]) keeps the axes as given, so gamma and beta get the shape (d2, d1)"),
    _t("hashing-symbolic-shape-appends-bins", "axis", "simdist/keras/layers/hashing.py",
       "        return tuple(input_shape[:-1]) + (self.num_bins,)\n",
       "        return tuple(input_shape) + (self.num_bins,)\n",
       "Hashing(output_mode=\"one_hot\"/\"multi_hot\"/\"count\") of a (None, 4) Input is (None, 4, bins) symbolically "
       "(Keras: the last axis replaced, (None, bins))"),
    # -- losses and metrics
    _t("auc-given-thresholds-not-sorted", "order", "simdist/keras/metrics/confusion_metrics.py",
       "            thresholds = sorted(thresholds)\n",
       "            thresholds = list(thresholds)\n",
       "AUC(thresholds=[0.7, 0.3]) keeps the thresholds unsorted (Keras sorts them), so the curve's points cross"),
    _t("r2-score-reset-keeps-sample-count", "state", "simdist/keras/metrics/r2_score.py",
       "    def reset_state(self) -> None:\n        for v in self.variables:\n",
       "    def reset_state(self) -> None:\n        for v in (self.squared_sum, self.sum, self.total_mse, self.count):\n",
       "R2Score.reset_state leaves num_samples counting, so the adjusted score after a reset uses a stale n"),
    _t("binary-focal-config-drops-class-balancing", "state", "simdist/keras/losses/probabilistic_losses.py",
       "\"axis\": self.axis,\n                        \"apply_class_balancing\": self.apply_class_balancing, "
       "\"alpha\": self.alpha,\n",
       "\"axis\": self.axis,\n                        \"alpha\": self.alpha,\n",
       "BinaryFocalCrossentropy.get_config omits apply_class_balancing, so a clone from its config loses it"),
    _t("tversky-class-alpha-beta-swapped", "order", "simdist/keras/losses/overlap_losses.py",
       "        super().__init__(tversky, name=name, reduction=reduction, dtype=dtype, alpha=alpha, beta=beta, "
       "axis=axis)\n",
       "        super().__init__(tversky, name=name, reduction=reduction, dtype=dtype, alpha=beta, beta=alpha, "
       "axis=axis)\n",
       "keras.losses.Tversky(alpha, beta) passes them swapped to the function (the fp and fn weights exchanged)"),
    # -- optimizers, callbacks and mixed precision
    _t("muon-newton-schulz-rows-normalized", "axis", "simdist/keras/optimizers/muon.py",
       "        x = x / (tf.sqrt(tf.reduce_sum(x * x, axis=(-2, -1), keepdims=True)) + 1e-7)\n",
       "        x = x / (tf.sqrt(tf.reduce_sum(x * x, axis=-1, keepdims=True)) + 1e-7)\n",
       "Muon's Newton-Schulz iteration starts from each row normalized (Keras: the whole matrix by its norm)"),
    _t("swap-ema-test-end-keeps-ema-weights", "state", "simdist/keras/callbacks/swap_ema_weights.py",
       "    def on_test_end(self, logs: Any = None) -> None:\n        if self._ema_weights_in_model:\n",
       "    def on_test_end(self, logs: Any = None) -> None:\n        if not self._ema_weights_in_model:\n",
       "SwapEMAWeights leaves the EMA weights in the model after evaluate (Keras swaps the trained ones back)"),
    _t("reduce-lr-reset-keeps-best", "state", "simdist/keras/callbacks/reduce_lr_on_plateau.py",
       "    def _reset(self) -> None:\n        self.best = None\n",
       "    def _reset(self) -> None:\n",
       "ReduceLROnPlateau keeps the previous fit's best value into the next fit, counting its epochs as no gains"),
    _t("autocast-scope-exit-drops-outer-scope", "state", "simdist/keras/dtype_policies.py",
       "        _config[\"autocast\"] = self.original_scope\n",
       "        _config[\"autocast\"] = None\n",
       "leaving a nested AutocastScope (a float32 sublayer in a mixed layer) ends the outer one too: the outer "
       "layer's later variable reads are not cast"),
    _t("loss-scale-inner-factor-kept", "state", "simdist/keras/optimizers/loss_scale_optimizer.py",
       "        self.dynamic_growth_steps = dynamic_growth_steps\n        self.inner_optimizer.loss_scale_factor = None\n",
       "        self.dynamic_growth_steps = dynamic_growth_steps\n",
       "LossScaleOptimizer keeps its inner optimizer's loss_scale_factor (Keras clears it: the outer one scales)"),
    # -- the trainer
    _t("array-adapter-list-inputs-stacked", "state", "simdist/keras/trainers/data_adapter.py",
       "    if isinstance(data, list):\n        return tuple(_map(fn, v) for v in data)  # tf.data stacks lists: Keras "
       "makes them tuples\n",
       "    if isinstance(data, list):\n        return [_map(fn, v) for v in data]\n",
       "fit/predict of arrays keep a list of inputs a list, which tf.data stacks into one tensor (Keras: a tuple)"),
    _t("compute-metrics-sample-weight-dropped", "state", "simdist/keras/trainers/trainer.py",
       "            self._compile_metrics.update_state(y, y_pred, sample_weight)\n",
       "            self._compile_metrics.update_state(y, y_pred)\n",
       "Model.compute_metrics updates the weighted_metrics without the sample weights"),
    _t("cardinality-check-skips-sample-weight", "missing-error", "simdist/keras/trainers/data_adapter.py",
       "    sizes = sorted({int(np.shape(i)[0]) for i in _flatten(data) if i is not None})\n",
       "    sizes = sorted({int(np.shape(i)[0]) for i in _flatten(data[:2]) if i is not None})\n",
       "fit's data cardinality check compares x and y only: a sample_weight of another length is not the "
       "'Data cardinality is ambiguous' ValueError"),
    _t("compile-metrics-reset-skips-weighted", "state", "simdist/keras/trainers/compile_utils.py",
       "        for m in self._flat_metrics + self._flat_weighted_metrics:\n            if m:\n"
       "                m.reset_state()\n",
       "        for m in self._flat_metrics:\n            if m:\n                m.reset_state()\n",
       "the compiled metrics' reset leaves the weighted_metrics accumulating across epochs and evaluate calls"),
    # -- gradients
    _t("xlogy-grad-y-plain-division", "gradient", "simdist/runtime/ops/xfunctions.py",
       "    return _reduced(op, xlogy(_not_zero(x), y) * grad, xdivy(x, y) * grad)\n",
       "    return _reduced(op, xlogy(_not_zero(x), y) * grad, (x / y) * grad)\n",
       "Xlogy's gradient with respect to y is x / y (NaN at x = y = 0; TF: xdivy, 0 there)"),
    _t("betainc-grad-x-exponents-swapped", "gradient", "simdist/runtime/ops/special_more.py",
       "    partial_x = exp(xlog1py(b - 1, -x) + xlogy(a - 1, x) - log_beta)\n",
       "    partial_x = exp(xlog1py(a - 1, -x) + xlogy(b - 1, x) - log_beta)\n",
       "Betainc's gradient in x uses x^(b-1) (1-x)^(a-1) (TF: x^(a-1) (1-x)^(b-1))"),
    _t("tape-watched-variables-access-order", "order", "simdist/runtime/autodiff/tape.py",
       "        \"\"\"The variables this tape watches, in the order they were made (TF's set by handle id).\"\"\"\n"
       "        if self._tape is not None:\n"
       "            self._watched_variables = tuple(in_creation_order(self._tape.watched_vars))\n",
       "        \"\"\"The variables this tape watches, in the order they were made (TF's set by handle id).\"\"\"\n"
       "        if self._tape is not None:\n"
       "            self._watched_variables = tuple(self._tape.watched_vars)\n",
       "GradientTape.watched_variables() lists the variables in the order they were first read (TF: creation order)"),
    # -- tf.data
    _t("window-stride-span-unscaled", "boundary", "simdist/runtime/data/window.py",
       "            last = start + (size - 1) * stride\n",
       "            last = start + size - 1\n",
       "Dataset.window(size, stride=s) spans size elements, not (size - 1) * s + 1, so a strided window is short"),
    _t("sample-from-datasets-all-zero-weights-not-empty", "boundary", "simdist/runtime/data/sampling.py",
       "if kept else ([datasets[0].take(0)], [1.])\n",
       "if kept else ([datasets[0]], [1.])\n",
       "sample_from_datasets with every weight 0 yields the first input's elements (TF: an empty dataset)"),
    _t("ragged-batch-row-splits-dtype-ignored", "dtype", "simdist/runtime/data/ragged_batch.py",
       "    ragged = _DenseToRaggedDataset(dataset, dtypes.as_dtype(row_splits_dtype))\n",
       "    ragged = _DenseToRaggedDataset(dataset, dtypes.int64)\n",
       "Dataset.ragged_batch(row_splits_dtype=tf.int32) makes int64 row splits anyway"),
    # -- checkpoints and saving
    _t("latest-checkpoint-missing-files-returned", "missing-error", "simdist/strategies/checkpoint.py",
       "    return latest if latest is not None and os.path.exists(latest + \".npz\") else None\n",
       "    return latest\n",
       "tf.train.latest_checkpoint names the recorded checkpoint even after its files were removed (TF: None)"),
    _t("save-weights-plain-h5-accepted", "missing-error", "simdist/keras/models/saving.py",
       "    if not str(path).endswith(\".weights.h5\"):\n        raise ValueError(f\"The filename must end in",
       "    if not str(path).endswith(\".h5\"):\n        raise ValueError(f\"The filename must end in",
       "Model.save_weights(\"w.h5\") writes the file (Keras: ValueError, the name must end in .weights.h5)"),
    _t("deserialized-layer-build-config-ignored", "state", "simdist/keras/serialization.py",
       "        if build and hasattr(obj, \"build_from_config\") and not getattr(obj, \"built\", True):\n"
       "            obj.build_from_config(build)",
       "        if build and hasattr(obj, \"build_from_config\") and getattr(obj, \"built\", True):\n"
       "            obj.build_from_config(build)",
       "keras.layers.deserialize of a built layer's config leaves it unbuilt (Keras builds it from its build_config)"),
    # -- distribution strategies
    _t("mirrored-batch-reduce-variable-not-summed", "denominator", "simdist/strategies/mirrored.py",
       "                out.append(self._reduce_to(op, _as_per_replica(v), d, ring))\n",
       "                out.append(self._reduce_to(op, v.values[0], d, ring))\n",
       "MirroredStrategy.extended.batch_reduce_to(SUM) of a MirroredVariable returns one copy (TF adds the copies)"),
]
TRAINING += TRAINING_BATCH33
CATALOGUE += TRAINING_BATCH33

# -- Thirty-sixth session: a thirty-fourth blind batch (TRAINING_BATCH34), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Thirty-sixth session: a thirty-fourth blind batch"). Keras layers
#    (Attention's value mask, MultiHeadAttention's causal mask over a longer value, Multiply's mixed dtypes,
#    ConvLSTM's candidate activation, Normalization's given mean of lower rank, GroupNormalization's gamma layout,
#    MelSpectrogram's mag_exp, ReversibleEmbedding's reverse shape), losses and metrics (Circle's remove_diagonal,
#    the weighted values' ranks, OneHotMeanIoU's ignore_class, RecallAtPrecision's constraint), optimizers,
#    callbacks and mixed precision (MultiOptimizer's loss_scale_factor, LossScaleOptimizer's iterations,
#    Adafactor's RMS, on_train_batch_begin, the callbacks' params), the trainer (a metric's string name, compile's
#    auto_scale_loss, predict's scalar outputs, PyDataset.on_epoch_begin), gradients (GatherV2 on a negative
#    axis, MatrixInverse, MatrixSetDiagV3's align), tf.data (scan's state shape, shuffle's reshuffle seeds,
#    skip(-1)), checkpoints and saving (CheckpointManager's save_counter, load_weights' skip_mismatch of a .keras
#    file) and a strategy (read_var of a sync-on-read variable); each a function no earlier mutant touched, at
#    most two in one file.
TRAINING_BATCH34: list[Mutant] = [
    # -- Keras layers
    _t("attention-value-mask-expanded-on-key-axis", "axis", "simdist/keras/layers/dot_attention.py",
       "                padding_mask = tf.expand_dims(padding_mask, axis=-2)\n",
       "                padding_mask = tf.expand_dims(padding_mask, axis=-1)\n",
       "Attention's (batch, Tv) value mask is expanded on the last axis, so it masks query rows, not key columns"),
    _t("mha-causal-mask-value-length-ignored", "boundary", "simdist/keras/layers/attention.py",
       "        s = t if value is None else tf.shape(value)[1]\n",
       "        s = t\n",
       "MultiHeadAttention(use_causal_mask=True) builds a (T, T) mask from the query alone: a value of another "
       "length does not fit"),
    _t("fold-merge-mixed-dtypes-not-promoted", "dtype", "simdist/keras/layers/merging.py",
       "        inputs = _same_dtype(inputs)\n        out = inputs[0]\n        for x in inputs[1:]:\n"
       "            out = type(self)._op(out, x)\n",
       "        out = inputs[0]\n        for x in inputs[1:]:\n            out = type(self)._op(out, x)\n",
       "Multiply/Maximum/Minimum of inputs of two dtypes do not promote them first (Keras: their result_type)"),
    _t("convlstm-candidate-recurrent-activation", "formula", "simdist/keras/layers/conv_lstm.py",
       "        c = f * c_tm1 + i * self.activation(x_c + h_c)\n",
       "        c = f * c_tm1 + i * self.recurrent_activation(x_c + h_c)\n",
       "ConvLSTM's candidate cell state goes through the recurrent (gate) activation instead of `activation`"),
    _t("normalization-given-mean-aligned-left", "axis", "simdist/keras/layers/normalization_adapt.py",
       "                expanded[self._keep_axis[-i]] = mean.shape[-i]\n",
       "                expanded[self._keep_axis[i - 1]] = mean.shape[-i]\n",
       "Normalization(axis=(1, 2), mean=m) with m of lower rank puts m's axes on the first kept axes "
       "(Keras: aligned on the last ones)"),
    _t("group-norm-gamma-broadcast-groups-minor", "order", "simdist/keras/layers/group_normalization.py",
       "        shape[self.axis] = channels // self.groups\n        shape.insert(self.axis, self.groups)\n"
       "        return shape\n",
       "        shape[self.axis] = self.groups\n        shape.insert(self.axis, channels // self.groups)\n"
       "        return shape\n",
       "GroupNormalization reshapes gamma and beta as (channels/groups, groups): a channel's scale lands on another "
       "channel"),
    _t("mel-spectrogram-mag-exp-ignored", "formula", "simdist/keras/layers/preprocessing/audio/mel_spectrogram.py",
       "        return np_.power(spec, self.mag_exp)\n",
       "        return np_.square(spec)\n",
       "MelSpectrogram always squares the magnitude (mag_exp=1.0, an amplitude spectrogram, is ignored)"),
    _t("reversible-embedding-reverse-shape-output-dim", "axis", "simdist/keras/layers/reversible_embedding.py",
       "            output_shape[-1] = self.input_dim\n",
       "            output_shape[-1] = self.output_dim\n",
       "ReversibleEmbedding's symbolic reverse output ends in output_dim (Keras: input_dim, the vocabulary)"),
    # -- losses and metrics
    _t("circle-class-remove-diagonal-not-passed", "state", "simdist/keras/losses/similarity_losses.py",
       "        super().__init__(circle, name=name, reduction=reduction, dtype=dtype, gamma=gamma, margin=margin,\n"
       "                         remove_diagonal=remove_diagonal)\n",
       "        super().__init__(circle, name=name, reduction=reduction, dtype=dtype, gamma=gamma, margin=margin)\n",
       "keras.losses.Circle(remove_diagonal=False) does not pass it to the function, which removes the diagonal"),
    _t("loss-weighted-values-ranks-not-matched", "axis", "simdist/keras/losses/loss.py",
       "        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)\n"
       "        values = values * sample_weight\n",
       "        values = values * sample_weight\n",
       "a loss's per-sample values are multiplied by (batch, 1) sample weights without matching ranks: a "
       "(batch, batch) product is reduced"),
    _t("one-hot-mean-iou-ignore-class-dropped", "state", "simdist/keras/metrics/iou_metrics.py",
       "        super().__init__(num_classes=num_classes, name=name, dtype=dtype, ignore_class=ignore_class,\n"
       "                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)\n",
       "        super().__init__(num_classes=num_classes, name=name, dtype=dtype,\n"
       "                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)\n",
       "OneHotMeanIoU(ignore_class=c) does not pass ignore_class on: the ignored class's pixels count"),
    _t("recall-at-precision-constraint-swapped", "order", "simdist/keras/metrics/sensitivity_specificity.py",
       "    _constrained, _dependent = \"precision\", \"recall\"\n",
       "    _constrained, _dependent = \"recall\", \"precision\"\n",
       "RecallAtPrecision returns the best precision where recall reaches the value (PrecisionAtRecall's rule)"),
    # -- optimizers, callbacks and mixed precision
    _t("multi-optimizer-map-loss-scale-factor-not-set", "state", "simdist/keras/optimizers/multi_optimizer.py",
       "                if all(opt is not o for o in self._inner_optimizers):\n"
       "                    opt.loss_scale_factor = loss_scale_factor\n"
       "                    self._inner_optimizers.append(opt)\n",
       "                if all(opt is not o for o in self._inner_optimizers):\n"
       "                    self._inner_optimizers.append(opt)\n",
       "MultiOptimizer(map, loss_scale_factor=s) gives s to the default optimizer only: the mapped optimizers do "
       "not unscale the scaled gradients"),
    _t("lso-iterations-own-counter", "state", "simdist/keras/optimizers/loss_scale_optimizer.py",
       "    def iterations(self) -> OptimizerVariable:\n        return self.inner_optimizer.iterations\n",
       "    def iterations(self) -> OptimizerVariable:\n        return self._iterations\n",
       "LossScaleOptimizer.iterations is its own counter, which apply never advances (Keras: the inner optimizer's)"),
    _t("adafactor-rms-is-norm", "formula", "simdist/keras/optimizers/adafactor.py",
       "        return ops.sqrt(ops.mean(ops.square(x)))\n",
       "        return ops.sqrt(ops.sum(ops.square(x)))\n",
       "Adafactor's RMS is the L2 norm (sum, not mean, of squares): the relative step and the clipping scale by "
       "sqrt(size)"),
    _t("callback-train-batch-begin-not-forwarded", "state", "simdist/keras/callbacks/callback.py",
       "    def on_train_batch_begin(self, batch: int, logs: Any = None) -> None:\n"
       "        self.on_batch_begin(batch, logs=logs)\n",
       "    def on_train_batch_begin(self, batch: int, logs: Any = None) -> None:\n        pass\n",
       "Callback.on_train_batch_begin does not call on_batch_begin, so a callback overriding the old hook is not "
       "called in fit"),
    _t("callback-list-params-not-forwarded", "state", "simdist/keras/callbacks/callback_list.py",
       "        self.params = params\n        if params:\n            for callback in self.callbacks:\n"
       "                callback.set_params(params)\n",
       "        self.params = params\n",
       "CallbackList.set_params keeps the params to itself: the user's callbacks see params None in fit"),
    # -- the trainer
    _t("compile-metric-string-name-from-object", "state", "simdist/keras/trainers/compile_utils.py",
       "    metric_name = identifier if isinstance(identifier, str) else _object_name(metric_obj)\n",
       "    metric_name = _object_name(metric_obj)\n",
       "compile(metrics=[\"mae\"]) names the metric after its function (mean_absolute_error), not the string given"),
    _t("compile-auto-scale-loss-flag-ignored", "state", "simdist/keras/trainers/trainer.py",
       "            if auto_scale_loss and self.dtype_policy.name == \"mixed_float16\" and self.optimizer \\\n",
       "            if self.dtype_policy.name == \"mixed_float16\" and self.optimizer \\\n",
       "compile(auto_scale_loss=False) under mixed_float16 still wraps the optimizer in a LossScaleOptimizer"),
    _t("predict-concat-scalars-not-stacked", "axis", "simdist/keras/trainers/trainer.py",
       "    if len(tensors[0].shape) == 0:\n        return tf.stack(tensors, axis=axis)\n",
       "    if len(tensors[0].shape) == 0:\n        return tf.concat([tf.reshape(t, [1]) for t in tensors[:1]], "
       "axis=axis)\n",
       "predict of a model whose output is a scalar per batch keeps the first batch's only"),
    _t("py-dataset-on-epoch-begin-not-forwarded", "state", "simdist/keras/trainers/py_dataset.py",
       "        self._within_epoch = True\n        self.py_dataset.on_epoch_begin()\n",
       "        self._within_epoch = True\n",
       "fit never calls a PyDataset's on_epoch_begin"),
    # -- gradients
    _t("gather-grad-negative-axis-sliced", "gradient", "simdist/runtime/ops/array.py",
       "    if axis == 0:    # literally 0 (a negative axis naming the first dimension gets a dense gradient)\n",
       "    if axis % len(pshape) == 0:\n",
       "tf.gather(params, i, axis=-rank)'s gradient is IndexedSlices (TF: a dense tensor unless axis is literally 0)"),
    _t("matrix-inverse-grad-right-factor-not-transposed", "gradient", "simdist/runtime/ops/linalg_more.py",
       "    return [-_mm(ainv, _mm(grad, ainv, adjoint_a=adj, adjoint_b=not adj), adjoint_a=not adj)]\n",
       "    return [-_mm(ainv, _mm(grad, ainv, adjoint_a=adj, adjoint_b=adj), adjoint_a=not adj)]\n",
       "MatrixInverse's gradient is -A^-T g A^-1 (TF: -A^-T g A^-T)"),
    _t("set-diag-grad-diagonal-align-dropped", "gradient", "simdist/runtime/ops/linalg_more.py",
       "    return [grad_input, diag_part(grad, k=k, align=align)]\n",
       "    return [grad_input, diag_part(grad, k=k)]\n",
       "MatrixSetDiagV3's gradient of the diagonals reads the band with the default align, not the op's"),
    # -- tf.data
    _t("scan-state-shape-not-relaxed", "boundary", "simdist/runtime/data/scan.py",
       "            if all(a.shape.rank is None or (w.rank is not None and a.shape.as_list() == w.as_list())\n"
       "                   for a, w in zip(old, weak)):\n                break\n",
       "            break\n",
       "Dataset.scan keeps the initial state's shape: a state that grows is refused (TF relaxes it to None dims)"),
    _t("shuffle-reshuffle-generator-not-advanced", "state", "simdist/runtime/data/shuffle.py",
       "    gen.skip((2 * epoch) // 4)\n",
       "",
       "a reshuffling shuffle's seeds for epoch 2 and later come from the generator's first block again: epoch 2 "
       "repeats epoch 0's order"),
    _t("skip-negative-count-skips-nothing", "boundary", "simdist/runtime/data/counting.py",
       "            return iter(())\n        it = self._input._iter_flat()\n",
       "            return self._input._iter_flat()\n        it = self._input._iter_flat()\n",
       "Dataset.skip(-1) yields every element (TF: skips the whole dataset)"),
    # -- checkpoints and saving
    _t("checkpoint-manager-save-counter-not-advanced", "state", "simdist/strategies/checkpoint.py",
       "        self._counter_made = True\n        self._counter += 1\n        return self._counter\n",
       "        self._counter_made = True\n        return self._counter + 1\n",
       "CheckpointManager.save numbers the checkpoint but leaves the checkpoint's save_counter where it was"),
    _t("load-weights-keras-file-skip-mismatch-dropped", "missing-error", "simdist/keras/models/keras_file.py",
       "    _load_checked(model, weights, path, skip_mismatch=skip_mismatch)\n",
       "    _load_checked(model, weights, path)\n",
       "model.load_weights(\"m.keras\", skip_mismatch=True) refuses a mismatched layer instead of skipping it"),
    # -- distribution strategies
    _t("mirrored-read-var-sync-on-read-first-copy", "denominator", "simdist/strategies/mirrored.py",
       "        if isinstance(v, SyncOnReadVariable):\n            return v._cross_replica_value()\n",
       "        if isinstance(v, SyncOnReadVariable):\n            return convert_to_tensor(v.values[0])\n",
       "MirroredStrategy.extended.read_var of a sync-on-read variable gives the first replica's copy, not the "
       "aggregate"),
]
TRAINING += TRAINING_BATCH34
CATALOGUE += TRAINING_BATCH34

# -- Thirty-seventh session: a thirty-fifth blind batch (TRAINING_BATCH35), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Thirty-seventh session: a thirty-fifth blind batch"). Keras layers
#    (HashedCrossing of (batch,) inputs, Subtract's operands, GroupedQueryAttention's causal mask over a longer
#    value, Concatenate's unknown axis, moments of bfloat16, Resizing's masks, SimpleRNNCell's recurrent dropout,
#    Bidirectional's mask without sequences), losses and metrics (CategoricalHinge, a metric's __call__,
#    SparseTopKCategoricalAccuracy's from_sorted_ids, CategoricalFocalCrossentropy's label_smoothing), optimizers,
#    callbacks and mixed precision (EarlyStopping's start_from_epoch, AutocastScope of integers, Adadelta's slot
#    names, an optimizer's global_clipnorm config, ModelCheckpoint's directory), the trainer ("crossentropy" of one
#    column, predict_on_batch of a list, the epoch iterator's reset, compute_loss's training flag), gradients
#    (ResizeBilinear's half_pixel_centers, MaxPool3D's second order, FusedBatchNorm's NCHW inference gradient),
#    tf.data (unique's shapes, padded_batch's equal and larger padded shapes), checkpoints and saving (the weights
#    file's attribute order, the checkpoint state file) and a strategy (MirroredStrategy's update of per-replica
#    arguments); each a function no earlier mutant touched, at most two in one file.
TRAINING_BATCH35: list[Mutant] = [
    # -- Keras layers
    _t("hashed-crossing-rank-one-not-squeezed", "axis", "simdist/keras/layers/hashed_crossing.py",
       "        if rank == 1:\n            outputs = tf.squeeze(outputs, axis=1)\n        elif rank == 0:\n",
       "        if rank == 0:\n",
       "HashedCrossing of (batch,) inputs returns (batch, 1) crosses (Keras: squeezed back to (batch,))"),
    _t("subtract-operands-reversed", "order", "simdist/keras/layers/merging.py",
       "        a, b = _same_dtype(inputs)\n        return tf.subtract(a, b)\n",
       "        b, a = _same_dtype(inputs)\n        return tf.subtract(a, b)\n",
       "keras.layers.Subtract computes inputs[1] - inputs[0]"),
    _t("gqa-causal-mask-query-length-only", "boundary", "simdist/keras/layers/grouped_query_attention.py",
       "        v_seq_length = q_seq_length if value is None else ops.shape(value)[1]\n        ones_mask",
       "        v_seq_length = q_seq_length\n        ones_mask",
       "GroupedQueryAttention's causal mask (with another mask given) is (T, T) from the query alone: a value of "
       "another length does not fit"),
    _t("concatenate-shape-skips-unknown-axis", "boundary", "simdist/keras/layers/merging.py",
       "            if out[self.axis] is None or shape[self.axis] is None:\n                out[self.axis] = None\n"
       "                break\n",
       "            if out[self.axis] is None or shape[self.axis] is None:\n                continue\n",
       "Concatenate's symbolic shape sums the known sizes on the axis and ignores an unknown one (Keras: None)"),
    _t("moments-bfloat16-not-upcast", "dtype", "simdist/keras/layers/normalization.py",
       "    need_cast = ori.name in (\"float16\", \"bfloat16\")\n",
       "    need_cast = ori.name == \"float16\"\n",
       "Keras's moments (BatchNormalization's statistics) of bfloat16 inputs are computed in bfloat16, not float32",
       unobservable="equivalent: every caller of keras/layers/normalization.moments (BatchNormalization, "
       "layer_normalization, GroupNormalization) casts 16-bit inputs to result_type(dtype, float32) first, so moments "
       "never sees bfloat16; its probe seemed to differ only because the probes of an 'all' run drew other random "
       "inputs (found after the commit, docs/conformance.md thirty-fifth blind batch)"),
    _t("resizing-masks-own-interpolation", "state", "simdist/keras/layers/preprocessing/image/resizing.py",
       "        return self._transform_images(segmentation_masks, transformation, \"nearest\")\n",
       "        return self._transform_images(segmentation_masks, transformation, self.interpolation)\n",
       "Resizing resizes segmentation masks with the images' interpolation (Keras: always nearest)"),
    _t("simple-rnn-recurrent-dropout-at-inference", "state", "simdist/keras/layers/rnn_cells.py",
       "        if training and rec_dp_mask is not None:\n            prev_output = prev_output * rec_dp_mask\n",
       "        if rec_dp_mask is not None:\n            prev_output = prev_output * rec_dp_mask\n",
       "SimpleRNNCell applies its recurrent dropout mask outside training too"),
    _t("bidirectional-mask-kept-without-sequences", "state", "simdist/keras/layers/bidirectional.py",
       "        if self.return_sequences:\n            return (mask, mask) if not self.merge_mode else mask\n"
       "        return (None, None) if not self.merge_mode else None\n",
       "        return (mask, mask) if not self.merge_mode else mask\n",
       "Bidirectional without return_sequences passes the time-step mask on to its (per-sample) output"),
    # -- losses and metrics
    _t("categorical-hinge-metric-hinge-fn", "formula", "simdist/keras/metrics/hinge_metrics.py",
       "        super().__init__(fn=categorical_hinge, name=name, dtype=dtype)\n",
       "        super().__init__(fn=hinge, name=name, dtype=dtype)\n",
       "keras.metrics.CategoricalHinge averages the (binary) hinge loss"),
    _t("metric-call-resets-state", "state", "simdist/keras/metrics/metric.py",
       "        self._check_super_called()\n        self.update_state(*args, **kwargs)\n        return self.result()\n",
       "        self._check_super_called()\n        self.reset_state()\n        self.update_state(*args, **kwargs)\n"
       "        return self.result()\n",
       "calling a metric object resets it first: metric(y, p) gives the batch's value, not the running one"),
    _t("sparse-top-k-from-sorted-ids-dropped", "state", "simdist/keras/metrics/accuracy_metrics.py",
       "        super().__init__(fn=sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k,\n"
       "                         from_sorted_ids=from_sorted_ids)\n",
       "        super().__init__(fn=sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k)\n",
       "SparseTopKCategoricalAccuracy(from_sorted_ids=True) reads its predictions as scores"),
    _t("categorical-focal-label-smoothing-dropped", "state", "simdist/keras/losses/probabilistic_losses.py",
       "        super().__init__(categorical_focal_crossentropy, name=name, reduction=reduction, dtype=dtype, alpha=alpha,\n"
       "                         gamma=gamma, from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)\n",
       "        super().__init__(categorical_focal_crossentropy, name=name, reduction=reduction, dtype=dtype, alpha=alpha,\n"
       "                         gamma=gamma, from_logits=from_logits, axis=axis)\n",
       "CategoricalFocalCrossentropy(label_smoothing=s) does not smooth the labels (the attribute is set, the "
       "function never gets it)"),
    # -- optimizers, callbacks and mixed precision
    _t("early-stopping-start-from-epoch-ignored", "state", "simdist/keras/callbacks/early_stopping.py",
       "        self.start_from_epoch = start_from_epoch\n",
       "        self.start_from_epoch = 0\n",
       "EarlyStopping(start_from_epoch=n) watches the metric from the first epoch"),
    _t("autocast-scope-casts-integer-variables", "dtype", "simdist/keras/dtype_policies.py",
       "        if self.dtype is not None and is_float_dtype(value.dtype):\n",
       "        if self.dtype is not None:\n",
       "under a mixed policy an integer variable read in a layer's call is cast to the compute dtype"),
    _t("adadelta-slot-names-swapped", "order", "simdist/keras/optimizers/adadelta.py",
       "            var_list, [\"accumulated_grad\", \"accumulated_delta_var\"])\n",
       "            var_list, [\"accumulated_delta_var\", \"accumulated_grad\"])\n",
       "Adadelta's accumulated gradients live in the variables named accumulated_delta_var and the other way round"),
    _t("optimizer-config-global-clipnorm-from-clipnorm", "state", "simdist/keras/optimizers/base_optimizer.py",
       "\"clipnorm\": self.clipnorm, \"global_clipnorm\": self.global_clipnorm,",
       "\"clipnorm\": self.clipnorm, \"global_clipnorm\": self.clipnorm,",
       "an optimizer's get_config writes clipnorm for global_clipnorm (a saved or cloned optimizer clips otherwise)"),
    _t("model-checkpoint-directory-not-created", "missing-error", "simdist/keras/callbacks/model_checkpoint.py",
       "                if dirname and not os.path.exists(dirname):\n                    os.makedirs(dirname, "
       "exist_ok=True)\n",
       "",
       "ModelCheckpoint does not create the missing directories of its file path"),
    # -- the trainer
    _t("compile-crossentropy-sparse-before-binary", "order", "simdist/keras/trainers/compile_utils.py",
       "        if is_binary:\n            loss_obj = losses.binary_crossentropy\n        elif is_sparse:\n"
       "            loss_obj = losses.sparse_categorical_crossentropy\n",
       "        if is_sparse:\n            loss_obj = losses.sparse_categorical_crossentropy\n        elif is_binary:\n"
       "            loss_obj = losses.binary_crossentropy\n",
       "compile(loss=\"crossentropy\") with (batch,) labels and (batch, 1) predictions picks the sparse categorical "
       "crossentropy (Keras: binary, the one-column rule first)"),
    _t("predict-on-batch-inputs-not-wrapped", "state", "simdist/keras/trainers/trainer.py",
       "        out = self.predict_function([(x,)])\n",
       "        out = self.predict_function([x])\n",
       "predict_on_batch passes x as the batch itself: a list of two inputs is unpacked as (x, y)"),
    _t("epoch-iterator-reset-skips-on-epoch-end", "state", "simdist/keras/trainers/epoch_iterator.py",
       "        self._epoch_iterator = None\n        self.data_adapter.on_epoch_end()\n",
       "        self._epoch_iterator = None\n",
       "the epoch iterator's reset does not call the data adapter's on_epoch_end (a PyDataset misses one call)"),
    _t("compute-loss-training-always-true", "state", "simdist/keras/trainers/trainer.py",
       "            return self.compute_loss(x, y, y_pred, sample_weight, training=training)\n",
       "            return self.compute_loss(x, y, y_pred, sample_weight, training=True)\n",
       "a compute_loss override with a `training` argument is told training=True in evaluate too"),
    # -- gradients
    _t("resize-bilinear-grad-half-pixel-dropped", "gradient", "simdist/runtime/ops/resize.py",
       "                             {\"align_corners\": op.get_attr(\"align_corners\"),\n"
       "                              \"half_pixel_centers\": op.get_attr(\"half_pixel_centers\")})]\n",
       "                             {\"align_corners\": op.get_attr(\"align_corners\")})]\n",
       "ResizeBilinear's gradient does not pass half_pixel_centers to ResizeBilinearGrad (its default False is used)"),
    _t("max-pool3d-second-order-grad-first-order-kernel", "gradient", "simdist/runtime/ops/pooling3d.py",
       "            dispatch.execute(MAX_POOL3D_GRAD_GRAD, (x, y, grad), dict(op.attrs))]\n",
       "            dispatch.execute(MAX_POOL3D_GRAD, (x, y, grad), dict(op.attrs))]\n",
       "MaxPool3DGrad's gradient (MaxPool3D's second order) runs MaxPool3DGrad again instead of MaxPool3DGradGrad"),
    _t("fused-bn-inference-grad-nchw-perm-not-inverted", "gradient", "simdist/runtime/ops/fused_batch_norm.py",
       "        back = [0, 3, 1, 2] if data_format == \"NCHW\" else [0, 4, 1, 2, 3]\n",
       "        back = [0, 2, 3, 1] if data_format == \"NCHW\" else [0, 4, 1, 2, 3]\n",
       "FusedBatchNorm's inference gradient in NCHW transposes dx back with the forward permutation"),
    # -- tf.data
    _t("padded-batch-equal-padded-shape-refused", "boundary", "simdist/runtime/data/batching.py",
       "    return all(p is None or c is None or p >= c for p, c in zip(padded.as_list(), component.as_list()))\n",
       "    return all(p is None or c is None or p > c for p, c in zip(padded.as_list(), component.as_list()))\n",
       "padded_batch refuses a padded shape equal to the component's (TF: only a smaller one)"),
    _t("unique-ignores-shape", "formula", "simdist/runtime/data/unique.py",
       "            key = (a.shape, tuple(a.ravel().tolist()))\n",
       "            key = tuple(a.ravel().tolist())\n",
       "Dataset.unique compares elements by their values alone: [1, 2] and [[1], [2]] count as one"),
    _t("padded-batch-slices-larger-shape-not-padded", "boundary", "simdist/runtime/data/batching.py",
       "any(d is not None and d != r for d, r in zip(shape.as_list(), a.shape[1:])):\n",
       "any(d is not None and d < r for d, r in zip(shape.as_list(), a.shape[1:])):\n",
       "padded_batch of from_tensor_slices rows takes the unpadded fast path when the padded shape is larger"),
    # -- checkpoints and saving
    _t("weights-file-children-plain-sorted", "order", "simdist/keras/models/saving.py",
       "    for attr in sorted(dir(obj), key=_name_key):\n",
       "    for attr in sorted(dir(obj)):\n",
       "the weights file walks a layer's attributes in plain sorted order (Keras: private names after public ones), "
       "so a layer reachable by a public and a private attribute is stored under the private path"),
    _t("checkpoint-state-lists-only-latest", "state", "simdist/strategies/checkpoint.py",
       "    lines += [f'all_model_checkpoint_paths: \"{os.path.basename(p)}\"' for p in paths]\n",
       "    lines += [f'all_model_checkpoint_paths: \"{os.path.basename(paths[-1])}\"']\n",
       "the checkpoint state file lists only the latest checkpoint: a new CheckpointManager forgets the others"),
    # -- distribution strategies
    _t("mirrored-update-args-first-replica", "placement", "simdist/strategies/mirrored.py",
       "*select_replica(i, args), **select_replica(i, kwargs))",
       "*select_replica(0, args), **select_replica(0, kwargs))",
       "MirroredStrategy.extended.update gives every copy the first replica's component of a per-replica argument"),
]
TRAINING += TRAINING_BATCH35
CATALOGUE += TRAINING_BATCH35

# -- Thirty-eighth session: a thirty-sixth blind batch (TRAINING_BATCH36), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Thirty-eighth session: a thirty-sixth blind batch"). Keras layers
#    and attention masks (MultiHeadAttention's mask over two attention axes and its key's last size,
#    GroupedQueryAttention's mask on its dot-product path, Attention's output mask, Dot's normalisation of a zero vector,
#    Reshape's -1), losses and metrics (the stateless API: stateless_update_state, stateless_result,
#    stateless_reset_state and the state's length; AUC's reset, a confusion count's default threshold,
#    BinaryFocalCrossentropy's class balancing), optimizers and callbacks (Adam's amsgrad config, ReduceLROnPlateau's
#    factor), the trainer (predict's stop_predicting and its tuple and NumPy outputs, custom train_step logs,
#    pack_x_y_sample_weight, fit's shuffle="batch", a metric function's name), CholeskyGrad, tf.data
#    (bucket_by_sequence_length's boundary padding, sample_from_datasets' element_spec, zip of one tuple, unbatch's
#    batch sizes), checkpoints and saving (BackupAndRestore's epoch, a config's NumPy scalars) and Strategy.reduce's
#    unhashable axis; each a function no earlier mutant touched.
TRAINING_BATCH36: list[Mutant] = [
    # -- Keras layers and attention masks
    _t("mha-mask-expanded-at-fixed-axis", "axis", "simdist/keras/layers/attention.py",
       "            attention_mask = tf.convert_to_tensor(attention_mask)\n"
       "            axis = -len(self._attention_axes) * 2 - 1\n",
       "            attention_mask = tf.convert_to_tensor(attention_mask)\n" "            axis = -3\n",
       "MultiHeadAttention expands a lower-rank attention mask at axis -3 (the heads' axis only for one "
       "attention axis): with attention_axes=(1, 2) the heads' axis is missed"),
    _t("mha-output-shape-key-last-dim-checked", "boundary", "simdist/keras/layers/attention.py",
       "        if value_shape[1:-1] != key_shape[1:-1]:\n",
       "        if value_shape[1:] != key_shape[1:]:\n",
       "MultiHeadAttention.compute_output_shape refuses a key whose last size differs from the value's "
       "(Keras: only the other dimensions must agree)"),
    _t("gqa-fast-path-mask-dropped", "state", "simdist/keras/layers/grouped_query_attention.py",
       "            return ops.dot_product_attention(query=query, key=key, value=value, bias=None, mask=attention_mask,\n",
       "            return ops.dot_product_attention(query=query, key=key, value=value, bias=None, mask=None,\n",
       "GroupedQueryAttention's dot-product path (no scores asked, no dropout) drops the attention mask"),
    _t("attention-output-mask-from-value", "state", "simdist/keras/layers/dot_attention.py",
       "        if mask is None or mask[0] is None:\n" "            return None\n"
       "        return tf.convert_to_tensor(mask[0])\n",
       "        if mask is None or mask[-1] is None:\n" "            return None\n"
       "        return tf.convert_to_tensor(mask[-1])\n",
       "keras.layers.Attention's output mask is the value's mask (Keras: the query's)"),
    _t("dot-normalize-unbounded-inverse-norm", "formula", "simdist/keras/layers/dot.py",
       "    inv_norm = tf.minimum(tf.math.rsqrt(square_sum), tf.cast(1.0 / epsilon, x.dtype))\n",
       "    inv_norm = tf.math.rsqrt(square_sum)\n",
       "Dot(normalize=True) divides by the plain L2 norm: a zero vector gives NaN (Keras: rsqrt capped at "
       "1/epsilon)"),
    _t("reshape-indivisible-size-accepted", "missing-error", "simdist/keras/layers/reshaping.py",
       "    if known == 0 or size % known != 0:\n",
       "    if known == 0:\n",
       "Reshape with a -1 whose other sizes do not divide the input's size builds a (floored) shape instead "
       "of Keras's ValueError"),
    # -- losses and metrics
    _t("metric-stateless-update-ignores-given-state", "state", "simdist/keras/metrics/metric.py",
       "        self._check_state_length(metric_variables)\n"
       "        with StatelessScope(state_mapping=list(zip(self.variables, metric_variables))) as scope:\n"
       "            self.update_state(*args, **kwargs)\n",
       "        self._check_state_length(metric_variables)\n" "        with StatelessScope() as scope:\n"
       "            self.update_state(*args, **kwargs)\n",
       "stateless_update_state starts from the metric's own variables, not the metric_variables given"),
    _t("metric-stateless-reset-returns-current", "state", "simdist/keras/metrics/metric.py",
       "        with StatelessScope() as scope:\n" "            self.reset_state()\n"
       "        return self._state_after(scope)\n",
       "        return list(self.variables)\n",
       "stateless_reset_state returns the metric's current values instead of the reset ones"),
    _t("metric-stateless-result-ignores-given-state", "state", "simdist/keras/metrics/metric.py",
       "        self._check_state_length(metric_variables)\n"
       "        with StatelessScope(state_mapping=list(zip(self.variables, metric_variables))):\n"
       "            return self.result()\n",
       "        self._check_state_length(metric_variables)\n" "        with StatelessScope():\n"
       "            return self.result()\n",
       "stateless_result reads the metric's own variables, not the metric_variables given"),
    _t("metric-stateless-state-length-unchecked", "missing-error", "simdist/keras/metrics/metric.py",
       "        if len(metric_variables) != len(self.variables):\n",
       "        if len(metric_variables) > len(self.variables):\n",
       "a stateless metric call given fewer metric_variables than the metric has is accepted (zip drops the "
       "rest)"),
    _t("auc-reset-keeps-negatives", "state", "simdist/keras/metrics/confusion_metrics.py",
       "            for v in (self.true_positives, self.false_positives, self.true_negatives, self.false_negatives):\n"
       "                v.assign(tf.zeros(shape))\n",
       "            for v in (self.true_positives, self.false_positives):\n"
       "                v.assign(tf.zeros(shape))\n",
       "AUC.reset_state zeroes the positives' counts only: true and false negatives carry over"),
    _t("confusion-count-default-threshold-zero", "boundary", "simdist/keras/metrics/precision_recall.py",
       "        self.thresholds = metrics_utils.parse_init_thresholds(thresholds, default_threshold=0.5)\n"
       "        self._thresholds_distributed_evenly = metrics_utils.is_evenly_distributed_thresholds(self.thresholds)\n"
       "        self.accumulator",
       "        self.thresholds = metrics_utils.parse_init_thresholds(thresholds, default_threshold=0.0)\n"
       "        self._thresholds_distributed_evenly = metrics_utils.is_evenly_distributed_thresholds(self.thresholds)\n"
       "        self.accumulator",
       "TruePositives/FalsePositives/... without thresholds count predictions above 0 as positive (Keras: "
       "0.5)"),
    _t("binary-focal-class-balancing-dropped", "state", "simdist/keras/losses/probabilistic_losses.py",
       "                         apply_class_balancing=apply_class_balancing, alpha=alpha, gamma=gamma,\n",
       "                         alpha=alpha, gamma=gamma,\n",
       "BinaryFocalCrossentropy(apply_class_balancing=True) does not weight by alpha (the option never "
       "reaches the function)"),
    # -- optimizers and callbacks
    _t("adam-config-amsgrad-dropped", "state", "simdist/keras/optimizers/adam.py",
       "        config.update({\"beta_1\": self.beta_1, \"beta_2\": self.beta_2, \"epsilon\": self.epsilon,\n"
       "                       \"amsgrad\": self.amsgrad})\n",
       "        config.update({\"beta_1\": self.beta_1, \"beta_2\": self.beta_2, \"epsilon\": self.epsilon})\n",
       "Adam's get_config leaves amsgrad out: a saved or cloned Adam(amsgrad=True) is plain Adam"),
    _t("reduce-lr-factor-one-accepted", "boundary", "simdist/keras/callbacks/reduce_lr_on_plateau.py",
       "        if factor >= 1.0:\n",
       "        if factor > 1.0:\n",
       "ReduceLROnPlateau(factor=1.0) is accepted (Keras: ValueError for a factor >= 1.0)"),
    # -- the trainer
    _t("predict-stop-predicting-ignored", "state", "simdist/keras/trainers/trainer.py",
       "                callbacks.on_predict_batch_end(end_step, {\"outputs\": batch_outputs})\n"
       "                if self.stop_predicting:\n" "                    break\n",
       "                callbacks.on_predict_batch_end(end_step, {\"outputs\": batch_outputs})\n",
       "predict ignores model.stop_predicting set by a callback and runs every batch"),
    _t("metrics-result-replaces-custom-logs", "state", "simdist/keras/trainers/trainer.py",
       "        if isinstance(logs, dict) and set(logs.keys()) == set(metric_logs.keys()):\n"
       "            return metric_logs\n" "        return logs\n",
       "        return metric_logs\n",
       "fit/evaluate report the compiled metrics' results even when train_step/test_step returned other logs"),
    _t("predict-tuple-outputs-as-list", "state", "simdist/keras/trainers/trainer.py",
       "        return type(shallow)(_map_up_to(s, fn, d) for s, d in zip(shallow, deep))\n",
       "        return [_map_up_to(s, fn, d) for s, d in zip(shallow, deep)]\n",
       "predict of a model with a tuple of outputs returns a list"),
    _t("predict-outputs-left-as-tensors", "state", "simdist/keras/trainers/predict_concat.py",
       "    if isinstance(x, tf.Tensor):\n" "        return x.numpy()\n" "    return x\n",
       "    return x\n",
       "predict returns its outputs as tf.Tensor objects (Keras: NumPy arrays)"),
    _t("pack-x-y-list-not-wrapped", "state", "simdist/keras/trainers/data_adapter.py",
       "        return x if not isinstance(x, (tuple, list)) else (x,)\n",
       "        return x\n",
       "pack_x_y_sample_weight(x) of a list or tuple returns it as is (Keras: (x,), so it is not read as (x,"
       " y))"),
    _t("fit-batch-shuffle-within-batch-skipped", "state", "simdist/keras/trainers/data_adapter.py",
       "        if shuffle == \"batch\":\n" "            indices = indices.map(tf.random.shuffle)\n",
       "",
       "fit(shuffle=\"batch\") keeps each batch's samples in order (Keras: each batch shuffled)"),
    _t("metric-function-name-not-snake-cased", "state", "simdist/keras/trainers/compile_utils.py",
       "    if fn:\n" "        return to_snake_case(fn)\n",
       "    if fn:\n" "        return fn\n",
       "a metric function passed to compile is logged under its __name__ as written (Keras: snake case)"),
    # -- gradients
    _t("cholesky-grad-upper-upstream-kept", "gradient", "simdist/runtime/ops/cholesky_grad.py",
       "    g = np.tril(grad).reshape(-1, n, n)\n",
       "    g = grad.reshape(-1, n, n)\n",
       "CholeskyGrad reads the upstream gradient's upper triangle too (TF: its lower triangle only)"),
    # -- tf.data
    _t("bucket-pad-to-boundary-not-minus-one", "boundary", "simdist/runtime/data/group_by_window.py",
       "            filler = bucket_boundaries[k] - 1\n",
       "            filler = bucket_boundaries[k]\n",
       "bucket_by_sequence_length(pad_to_bucket_boundary=True) pads to the boundary (TF: boundary - 1)"),
    _t("sample-from-datasets-spec-of-first", "state", "simdist/runtime/data/sampling.py",
       "                if any(m is None for m in merged):\n" "                    raise TypeError\n"
       "                specs = merged\n",
       "                if any(m is None for m in merged):\n" "                    raise TypeError\n",
       "sample_from_datasets/choose_from_datasets take the first dataset's element_spec (TF: the most "
       "specific common supertype: [2] and [3] are [None])"),
    _t("dataset-zip-single-structure-nested", "state", "simdist/runtime/data/dataset.py",
       "        elif len(args) == 1:\n" "            structure = args[0]\n" "        elif not args:\n",
       "        elif not args:\n",
       "Dataset.zip((a, b)) with one structure argument nests it as ((x, y),)"),
    _t("unbatch-batch-sizes-unchecked", "missing-error", "simdist/runtime/data/batching.py",
       "            if c.shape[0] != flat[0].shape[0]:\n" "                raise errors.InvalidArgumentError(\n"
       "                    None, None, \"Input element must have the same batch size in each component. Component \"\n",
       "            if c.shape[0] < flat[0].shape[0]:\n" "                raise errors.InvalidArgumentError(\n"
       "                    None, None, \"Input element must have the same batch size in each component. Component \"\n",
       "unbatch accepts an element whose later components have more rows than the first (the extra rows "
       "dropped)"),
    # -- checkpoints and saving
    _t("backup-restore-initial-epoch-ignored", "state", "simdist/keras/callbacks/backup_and_restore.py",
       "                training_metadata = json.loads(f.read())\n"
       "            self.model._initial_epoch = training_metadata[\"epoch\"]\n",
       "                training_metadata = json.loads(f.read())\n",
       "BackupAndRestore restores the weights but not the epoch: a resumed fit starts again from epoch 0"),
    _t("keras-json-numpy-scalar-kept", "state", "simdist/keras/models/keras_file.py",
       "    if isinstance(x, np.generic):\n" "        return x.item()\n" "    return x\n",
       "    return x\n",
       "a model's config holding a NumPy scalar is not converted: to_json/save fail on it"),
    # -- distribution
    _t("strategy-reduce-unhashable-axis-accepted", "missing-error", "simdist/strategies/base.py",
       "            if not context.in_function():\n"
       "                # TF 2.21 eagerly caches its per-axis tf.function in a dict",
       "            if False:\n" "                # TF 2.21 eagerly caches its per-axis tf.function in a dict",
       "Strategy.reduce(op, value, axis=[0]) eagerly is accepted (TF 2.21: TypeError unhashable type: "
       "'list')"),
]
TRAINING += TRAINING_BATCH36
CATALOGUE += TRAINING_BATCH36

# -- Thirty-ninth session: a thirty-seventh blind batch (TRAINING_BATCH37), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Thirty-ninth session: a thirty-seventh blind batch"). Keras layers
#    (MultiHeadAttention's and Attention's symbolic scores, Dropout's noise_shape, BatchNormalization's renorm
#    clipping, Reshape's negative sizes, ZeroPadding2D's output shape), losses and metrics (the weighted confusion
#    counts, top-k of rank-3 inputs, IoU's confusion matrix, FBetaScore's averaged state, a single threshold's
#    range, AUC's multi-label rank, the loss's divide_no_nan), optimizers and callbacks (the logged learning rate, an unknown
#    variable's error), the trainer (predict's ragged concatenation and its steps_per_execution order, a generator's
#    batch-shape error, the batches' dict structure, loss_weights' structure, the compiled metrics' list), gradients
#    (GatherNd's sparse gradient, Maximum/Minimum ties), tf.data (choose_from_datasets' choice dtype, a scalar
#    padded shape, shard's index, window's shift), checkpoints and saving (unbuilt models) and the collectives'
#    dtype check; each a function no earlier mutant touched.
TRAINING_BATCH37: list[Mutant] = [
    # -- Keras layers
    _t("mha-symbolic-scores-value-length", "axis", "simdist/keras/layers/attention.py",
       "            return spec, KerasTensor((query.shape[0], self.num_heads, length, length), dtype=self.compute_dtype)\n",
       "            return spec, KerasTensor((query.shape[0], self.num_heads, length, value.shape[1]),\n"
       "                                     dtype=self.compute_dtype)\n",
       "MultiHeadAttention's symbolic attention scores end in the value's length (Keras 3.15's compute_output_spec "
       "gives (batch, heads, query length, query length))"),
    _t("attention-symbolic-scores-query-length", "axis", "simdist/keras/layers/dot_attention.py",
       "            return spec, KerasTensor((*query.shape[:-1], key.shape[-2]), dtype=self.compute_dtype)\n",
       "            return spec, KerasTensor((*query.shape[:-1], query.shape[-2]), dtype=self.compute_dtype)\n",
       "keras.layers.Attention's symbolic scores end in the query's length instead of the key's"),
    _t("dropout-noise-shape-zero-accepted", "boundary", "simdist/keras/layers/core.py",
       "                if dim <= 0:\n",
       "                if dim < 0:\n",
       "Dropout(noise_shape=(0, ...)) is accepted (Keras: ValueError for a zero or negative dimension)"),
    _t("renorm-dmax-lower-bound-dropped", "boundary", "simdist/keras/layers/normalization.py",
       "            d = tf.clip_by_value(d, -dmax, dmax)\n",
       "            d = tf.minimum(d, dmax)\n",
       "BatchNormalization(renorm=True)'s d correction is clipped above only: renorm_clipping's dmax does not bound "
       "a negative d"),
    _t("reshape-minus-two-accepted", "boundary", "simdist/keras/layers/reshaping.py",
       "        if dim < -1:\n",
       "        if dim < -2:\n",
       "Reshape((-2, n)) is accepted (Keras: ValueError, each dimension non-negative or -1)"),
    _t("zero-padding2d-shape-symmetric", "formula", "simdist/keras/layers/upsampling_padding.py",
       "                out[i + offset] += self.padding[i][0] + self.padding[i][1]\n",
       "                out[i + offset] += 2 * self.padding[i][0]\n",
       "ZeroPadding2D.compute_output_shape assumes symmetric padding (twice the first amount)"),
    # -- losses and metrics
    _t("confusion-weighted-add-ignores-weights", "state", "simdist/keras/metrics/metrics_utils.py",
       "            result = tf.where(label_and_pred, ops.cast(weights, var.dtype), tf.zeros_like(ops.cast(weights, var.dtype)))\n",
       "            result = ops.cast(label_and_pred, var.dtype)\n",
       "the evenly-distributed-thresholds confusion update counts hits without their sample weights"),
    _t("top-k-rank3-labels-not-flattened", "axis", "simdist/keras/metrics/accuracy_metrics.py",
       "    if len(y_true.shape) > 1:\n"
       "        return tf.reshape(y_true, [-1]), y_pred, org_shape\n",
       "    if len(y_true.shape) > 1:\n"
       "        return y_true, y_pred, org_shape\n",
       "top-k accuracy of rank-3 inputs flattens the predictions but not the labels"),
    _t("iou-confusion-matrix-last-wins", "formula", "simdist/keras/metrics/iou_metrics.py",
       "    return tf.scatter_nd(indices, values, (int(num_classes), int(num_classes)))\n",
       "    return tf.tensor_scatter_nd_update(tf.zeros((int(num_classes), int(num_classes)), dtype=values.dtype),\n"
       "                                       indices, values)\n",
       "the IoU metrics' confusion matrix keeps one count per (label, prediction) pair instead of summing repeats"),
    _t("fbeta-macro-state-scalar", "axis", "simdist/keras/metrics/f_score_metrics.py",
       "        shape = (int(y_pred_shape[-1]),) if self.average != \"micro\" else ()\n",
       "        shape = (int(y_pred_shape[-1]),) if self.average is None else ()\n",
       "FBetaScore(average='macro'/'weighted') keeps scalar counts (Keras: one per class unless 'micro')"),
    _t("thresholds-scalar-range-unchecked", "missing-error", "simdist/keras/metrics/metrics_utils.py",
       "    if thresholds is not None:\n"
       "        assert_thresholds_range(_to_list(thresholds))\n",
       "    if isinstance(thresholds, list):\n"
       "        assert_thresholds_range(thresholds)\n",
       "a confusion metric's single threshold outside [0, 1] (Precision(thresholds=1.5)) is accepted: only a list "
       "is range-checked (Keras: ValueError)"),
    _t("auc-multi-label-rank-unchecked", "missing-error", "simdist/keras/metrics/confusion_metrics.py",
       "            if len(shape) != 2:\n",
       "            if len(shape) < 2:\n",
       "AUC(multi_label=True) accepts predictions of rank 3 (Keras: ValueError, rank 2 only)"),
    _t("loss-divide-no-nan-plain-divide", "formula", "simdist/keras/losses/_ops.py",
       "    return tf.math.divide_no_nan(convert_to_tensor(x1, dt), convert_to_tensor(x2, dt))\n",
       "    return tf.math.divide(convert_to_tensor(x1, dt), convert_to_tensor(x2, dt))\n",
       "the losses' ops.divide_no_nan divides plainly: a batch whose sample weights are all zero gives NaN, not 0"),
    # -- optimizers and callbacks
    _t("lr-logged-as-lr", "state", "simdist/keras/callbacks/learning_rate_scheduler.py",
       "        logs[\"learning_rate\"] = _as_float(optimizer.learning_rate)\n",
       "        logs[\"lr\"] = _as_float(optimizer.learning_rate)\n",
       "LearningRateScheduler/ReduceLROnPlateau log the rate under tf.keras 2's key 'lr' (Keras 3: 'learning_rate')"),
    _t("optimizer-unknown-variable-key-error", "error-class", "simdist/keras/optimizers/base_optimizer.py",
       "                raise ValueError(f\"Unknown variable: {v}. This optimizer can only be called for the variables it was \"\n",
       "                raise KeyError(f\"Unknown variable: {v}. This optimizer can only be called for the variables it was \"\n",
       "apply_gradients with a variable the optimizer was not built with is KeyError (Keras: ValueError)"),
    # -- the trainer
    _t("predict-ragged-inner-dims-unreversed", "order", "simdist/keras/trainers/predict_concat.py",
       "    constant_inner_dimensions = np.asarray(constant_dims).tolist()[::-1].index(False)\n",
       "    constant_inner_dimensions = np.asarray(constant_dims).tolist().index(False)\n",
       "predict's ragged concatenation counts the constant inner dimensions from the front, not the back"),
    _t("generator-batch-shape-value-error", "error-class", "simdist/keras/trainers/generator_adapter.py",
       "        raise TypeError(f\"Generator yielded an element of shape {tuple(shape.as_list())} where an element of shape \"\n",
       "        raise ValueError(f\"Generator yielded an element of shape {tuple(shape.as_list())} where an element of shape \"\n",
       "a generator batch that does not fit the first batches' signature is ValueError (Keras: TypeError)"),
    _t("generator-dict-key-order-checked", "order", "simdist/keras/trainers/tensor_spec.py",
       "            if not isinstance(s, dict) or sorted(s) != sorted(first):\n",
       "            if not isinstance(s, dict) or list(s) != list(first):\n",
       "the batches of a generator or PyDataset must list a dict's keys in the same order (Keras: same keys)"),
    _t("structure-list-tuple-alike", "missing-error", "simdist/keras/trainers/data_adapter.py",
       "        return type(a) is type(b) and len(a) == len(b) and all(same_structure(x, y) for x, y in zip(a, b))\n",
       "        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(same_structure(x, y) for x, y in zip(a, b))\n",
       "the structure check of y against sample_weight (and of loss against loss_weights) takes a list and a tuple "
       "as the same structure"),
    _t("predict-steps-per-execution-reversed", "order", "simdist/keras/trainers/trainer.py",
       "                outputs = tf.nest.map_structure(lambda a, b: concat([a, b]), outputs, step_outputs)\n",
       "                outputs = tf.nest.map_structure(lambda a, b: concat([b, a]), outputs, step_outputs)\n",
       "predict with steps_per_execution > 1 puts each later batch of a group before the earlier ones"),
    _t("compile-metrics-weighted-not-listed", "state", "simdist/keras/trainers/compile_utils.py",
       "        out: list[Any] = []\n"
       "        for m in self._flat_metrics + self._flat_weighted_metrics:\n"
       "            if isinstance(m, MetricsList):\n",
       "        out: list[Any] = []\n"
       "        for m in self._flat_metrics:\n"
       "            if isinstance(m, MetricsList):\n",
       "the compiled metrics' `metrics` list leaves the weighted metrics out"),
    # -- gradients
    _t("gather-nd-grad-always-dense", "gradient", "simdist/runtime/ops/scatter.py",
       "    if indices.ndim == 2 and indices.shape.as_list()[-1] == 1:\n"
       "        return [IndexedSlices(grad,",
       "    if False:\n"
       "        return [IndexedSlices(grad,",
       "GatherNd's gradient is a dense ScatterNd also for [N, 1] indices (TF: IndexedSlices)"),
    _t("max-min-grad-ties-to-both", "gradient", "simdist/runtime/ops/math.py",
       "    return [unbroadcast(where(xmask, grad, zeros), sx), unbroadcast(where(xmask, zeros, grad), sy)]\n",
       "    return [unbroadcast(where(xmask, grad, zeros), sx), unbroadcast(where(select(y, x), grad, zeros), sy)]\n",
       "Maximum/Minimum's gradient gives a tie to both inputs (TF: to x only)"),
    # -- tf.data
    _t("choose-from-datasets-int32-choices", "missing-error", "simdist/runtime/data/sampling.py",
       "    if not (isinstance(spec, TensorSpec) and spec.dtype == dtypes.int64 and spec.shape.is_compatible_with([])):\n",
       "    if not (isinstance(spec, TensorSpec) and spec.dtype.is_integer and spec.shape.is_compatible_with([])):\n",
       "choose_from_datasets accepts a choice dataset of int32 scalars (TF: TypeError, int64 only)"),
    _t("padded-shape-scalar-minus-one-accepted", "boundary", "simdist/runtime/data/batching.py",
       "        if p < 0:\n"
       "            raise ValueError(f\"Padded shape {int(p)} must be",
       "        if p < -1:\n"
       "            raise ValueError(f\"Padded shape {int(p)} must be",
       "padded_batch(padded_shapes=-1) (a scalar) is read as one unknown dimension (TF: ValueError)"),
    _t("shard-index-equal-num-shards", "boundary", "simdist/runtime/data/shard.py",
       "    if not ((0 <= index < num_shards) or num_shards == SHARD_HINT):\n",
       "    if not ((0 <= index <= num_shards) or num_shards == SHARD_HINT):\n",
       "Dataset.shard(n, n) is accepted (TF: InvalidArgumentError, index in [0, n))"),
    _t("window-shift-default-one", "boundary", "simdist/runtime/data/window.py",
       "    return _WindowDataset(dataset, _int64(size), _int64(size if shift is None else shift), _int64(stride),\n",
       "    return _WindowDataset(dataset, _int64(size), _int64(1 if shift is None else shift), _int64(stride),\n",
       "Dataset.window(size) without shift slides by one (TF: shift defaults to size)"),
    # -- checkpoints and saving
    _t("load-keras-file-unbuilt-accepted", "missing-error", "simdist/keras/models/model.py",
       "            if not self.built:\n"
       "                raise ValueError(\"You are loading weights into a model that has not yet been built. Try building the \"\n",
       "            if False:\n"
       "                raise ValueError(\"You are loading weights into a model that has not yet been built. Try building the \"\n",
       "load_weights of a .keras file into an unbuilt model does not raise Keras's ValueError"),
    _t("save-weights-unbuilt-accepted", "missing-error", "simdist/keras/models/saving.py",
       "    if not model.built:\n"
       "        raise ValueError(\"You are saving a model that has not yet been built.",
       "    if False:\n"
       "        raise ValueError(\"You are saving a model that has not yet been built.",
       "save_weights of an unbuilt model writes a file instead of Keras's ValueError"),
    # -- distribution
    _t("collective-dtypes-unchecked-for-two", "boundary", "simdist/strategies/base.py",
       "        if allowed is None or self._num_replicas < 2:\n",
       "        if allowed is None or self._num_replicas <= 2:\n",
       "the CPU collectives' dtype check is skipped with two replicas: an all_reduce or all_gather of an unsupported "
       "dtype runs (TF 2.21: its error)"),
]
TRAINING += TRAINING_BATCH37
CATALOGUE += TRAINING_BATCH37

# -- Fortieth session: a thirty-eighth blind batch (TRAINING_BATCH38), written from the source alone, before
#    reading any suite test (docs/conformance.md, "Fortieth session: a thirty-eighth blind batch"), in Keras layers,
#    losses and metrics, optimizers and schedules, and callbacks only (blind40b's batch 39 takes the trainer,
#    gradients, tf.data, saving and distribution): argument checks (standardize_tuple's length, data_format's case,
#    AdaptiveAveragePooling's output_size, merge masks, TimeDistributed's rank, HashedCrossing's shapes, a loss's
#    reduction, the losses' same-shape check, IoU's target ids, Lion's beta_1, Ftrl's learning_rate_power,
#    PiecewiseConstantDecay's lengths, BackupAndRestore's save_freq, Optimizer.set_weights' shapes), output shapes
#    of second code paths (channels_first, 'same' pooling, Dot, RNN states, Discretization, Flatten, ConvLSTM's
#    mask), dtypes, slots and values (GlobalAveragePooling2D of ints, GroupNormalization's groups, the -0.0 argmax,
#    the crossentropies' axis and ignore_class, RMSprop's momentum slots, CosineDecayRestarts' multipliers) and a
#    warning's text; each a function no earlier mutant touched.
TRAINING_BATCH38: list[Mutant] = [
    # -- Keras layers
    _t("standardize-tuple-short-accepted", "missing-error", "simdist/keras/layers/argument_validation.py",
       "        if len(value_tuple) != n:\n"
       "            raise ValueError(error_msg)\n",
       "        if len(value_tuple) > n:\n"
       "            raise ValueError(error_msg)\n",
       "standardize_tuple accepts an iterable with fewer than n entries (Keras: ValueError 'must be a tuple of n integers')"),
    _t("pool-same-shape-valid-formula", "formula", "simdist/keras/layers/argument_validation.py",
       '    elif padding == "same":\n'
       "        out = np.floor((spatial - 1) / strides) + 1\n",
       '    elif padding == "same":\n'
       "        out = np.floor((spatial - pool) / strides) + 1\n",
       "a pooling's 'same' output shape uses the 'valid' formula (subtracting the pool size)"),
    _t("data-format-case-sensitive", "boundary", "simdist/keras/layers/argument_validation.py",
       "    data_format = str(data_format).lower()\n",
       "    data_format = str(data_format)\n",
       "data_format is compared as given (Keras lower-cases it: 'Channels_Last' is accepted)"),
    _t("adaptive-pool-output-size-too-long", "missing-error", "simdist/keras/layers/adaptive_pooling.py",
       "    if isinstance(output_size, (tuple, list)) and len(output_size) == rank:\n",
       "    if isinstance(output_size, (tuple, list)) and len(output_size) >= rank:\n",
       "AdaptiveAveragePooling2D accepts an output_size tuple longer than the spatial rank"),
    _t("conv-transpose-channels-first-order", "axis", "simdist/keras/layers/conv_transpose.py",
       "    return [input_shape[0], filters, *sizes]\n",
       "    return [input_shape[0], *sizes, filters]\n",
       "a channels_first transposed convolution's output shape puts the filters last"),
    _t("dot-shape-second-batch-kept", "axis", "simdist/keras/layers/dot.py",
       "        shape2.pop(axes[1])\n"
       "        shape2.pop(0)\n",
       "        shape2.pop(axes[1])\n",
       "Dot's output shape keeps the second input's batch dimension"),
    _t("group-norm-groups-interleaved", "axis", "simdist/keras/layers/group_normalization.py",
       "        shape[self.axis] = shape[self.axis] // self.groups\n"
       "        shape.insert(self.axis, self.groups)\n"
       "        return shape\n",
       "        per_group = shape[self.axis] // self.groups\n"
       "        shape[self.axis] = self.groups\n"
       "        shape.insert(self.axis, per_group)\n"
       "        return shape\n",
       "GroupNormalization groups channels by stride (channel c in group c % groups) instead of in contiguous blocks"),
    _t("merge-masks-length-unchecked", "missing-error", "simdist/keras/layers/merging.py",
       "    if len(mask) != len(inputs):\n",
       "    if len(mask) > len(inputs):\n",
       "a merge layer's compute_mask accepts fewer masks than inputs"),
    _t("zero-padding1d-channels-first-axis", "axis", "simdist/keras/layers/upsampling_padding.py",
       '        axis = 2 if self.data_format == "channels_first" else 1\n'
       "        if out[axis] is not None:\n"
       "            out[axis] += self.padding[0] + self.padding[1]\n",
       "        axis = 1\n"
       "        if out[axis] is not None:\n"
       "            out[axis] += self.padding[0] + self.padding[1]\n",
       "ZeroPadding1D(data_format='channels_first')'s output shape pads the channels axis"),
    _t("global-avg-pool2d-int-result-int", "dtype", "simdist/keras/layers/pooling.py",
       "        result = compute if (ori.is_integer or ori.is_bool) else ori\n"
       "        out = tf.reduce_mean(tf.cast(x, compute), axis=self._spatial_axes(x), keepdims=self.keepdims)\n",
       "        result = ori\n"
       "        out = tf.reduce_mean(tf.cast(x, compute), axis=self._spatial_axes(x), keepdims=self.keepdims)\n",
       "GlobalAveragePooling2D of integers is cast back to the integer dtype (Keras: float32)"),
    _t("rnn-state-shapes-no-batch", "axis", "simdist/keras/layers/rnn.py",
       "        states_shape = [(batch_size, s) if isinstance(s, int) else [(batch_size, d) for d in s]\n",
       "        states_shape = [(s,) if isinstance(s, int) else [(batch_size, d) for d in s]\n",
       "an RNN's return_state output shapes drop the batch dimension for int state sizes"),
    _t("convlstm-mask-kept-without-sequences", "state", "simdist/keras/layers/conv_lstm.py",
       "        output_mask = mask if self.return_sequences else None\n"
       "        if self.return_state:\n"
       "            return [output_mask, None, None]\n",
       "        output_mask = mask\n"
       "        if self.return_state:\n"
       "            return [output_mask, None, None]\n",
       "ConvLSTM's compute_mask passes the mask on though return_sequences is False"),
    _t("time-distributed-rank2-accepted", "missing-error", "simdist/keras/layers/time_distributed.py",
       "        if not isinstance(input_shape, (tuple, list)) or len(input_shape) < 3:\n",
       "        if not isinstance(input_shape, (tuple, list)) or len(input_shape) < 2:\n",
       "TimeDistributed accepts rank-2 inputs (Keras: ValueError, at least 3 dimensions)"),
    _t("hashed-crossing-shapes-rank-only", "missing-error", "simdist/keras/layers/hashed_crossing.py",
       "        if not all(tuple(x.shape) == first_shape for x in inputs[1:]):\n",
       "        if not all(len(x.shape) == rank for x in inputs[1:]):\n",
       "HashedCrossing compares its inputs' ranks instead of their shapes"),
    _t("discretization-depth-off-by-one", "formula", "simdist/keras/layers/discretization.py",
       "        depth = len(self.bin_boundaries) + 1 if self.bin_boundaries is not None else self.num_bins\n",
       "        depth = len(self.bin_boundaries) if self.bin_boundaries is not None else self.num_bins\n",
       "Discretization's output shape counts the boundaries, not the bins (one fewer)"),
    _t("flatten-shape-any-none-all", "boundary", "simdist/keras/layers/reshaping.py",
       "            flat: Any = 1\n"
       "        elif any(d is None for d in non_batch):\n",
       "            flat: Any = 1\n"
       "        elif all(d is None for d in non_batch):\n",
       "Flatten's output shape is computed from the known dims only when all are unknown (a partly unknown shape fails)"),
    # -- losses and metrics
    _t("argmax-negative-zero-sign-flipped", "boundary", "simdist/keras/losses/_ops.py",
       "    is_negative_zero = tf.logical_and(tf.equal(x, 0.0), tf.less(tf.math.reciprocal(x), 0.0))\n",
       "    is_negative_zero = tf.logical_and(tf.equal(x, 0.0), tf.greater(tf.math.reciprocal(x), 0.0))\n",
       "the losses' argmax takes +0.0 (not -0.0) as the smaller zero"),
    _t("reduction-case-insensitive", "missing-error", "simdist/keras/losses/loss.py",
       "    if reduction not in REDUCTIONS:\n",
       "    if (reduction.lower() if isinstance(reduction, str) else reduction) not in REDUCTIONS:\n",
       "a loss's reduction is matched case-insensitively ('SUM' accepted; Keras: ValueError)"),
    _t("nn-same-shape-broadcast-dims", "missing-error", KNN,   # (categorical_crossentropy's copy of the check)
       "        if e1 is not None and e2 is not None and e1 != e2:\n"
       '            raise ValueError(\n                "Arguments `target` and `output` must have the same shape. "\n'
       '                "Received: "\n                f"target.shape={target.shape}, output.shape={output.shape}"\n'
       "            )\n\n    output, from_logits = _get_logits(\n        output, from_logits, \"Softmax\", \"categorical_crossentropy\"\n",
       "        if e1 is not None and e2 is not None and e1 != e2 and 1 not in (e1, e2):\n"
       '            raise ValueError(\n                "Arguments `target` and `output` must have the same shape. "\n'
       '                "Received: "\n                f"target.shape={target.shape}, output.shape={output.shape}"\n'
       "            )\n\n    output, from_logits = _get_logits(\n        output, from_logits, \"Softmax\", \"categorical_crossentropy\"\n",
       "the losses' same-shape check lets a dimension of 1 broadcast"),
    _t("cce-axis-not-passed", "axis", "simdist/keras/losses/losses.py",
       "                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)\n",
       "                         from_logits=from_logits, label_smoothing=label_smoothing)\n",
       "CategoricalCrossentropy(axis=...) does not pass its axis to the loss function"),
    _t("scce-ignore-class-not-passed", "state", "simdist/keras/losses/losses.py",
       "                         from_logits=from_logits, ignore_class=ignore_class, axis=axis)\n",
       "                         from_logits=from_logits, axis=axis)\n",
       "SparseCategoricalCrossentropy(ignore_class=...) does not pass ignore_class to the loss function"),
    _t("iou-target-id-equal-num-classes", "boundary", "simdist/keras/metrics/iou_metrics.py",
       "        if max(target_class_ids) >= num_classes:\n",
       "        if max(target_class_ids) > num_classes:\n",
       "IoU accepts a target class id equal to num_classes (Keras: ValueError, out of range [0, num_classes))"),
    # -- optimizers and schedules
    _t("optimizer-set-weights-rank-only", "missing-error", "simdist/keras/optimizers/base_optimizer.py",
       "            if want != got:   # Keras 3.15's check",
       "            if len(want) != len(got):   # Keras 3.15's check",
       "Optimizer.set_weights compares only the ranks of the weights"),
    _t("piecewise-extra-values-accepted", "missing-error", "simdist/keras/optimizers/schedules.py",
       "        if len(boundaries) != len(values) - 1:\n",
       "        if len(boundaries) > len(values) - 1:\n",
       "PiecewiseConstantDecay accepts more values than boundaries + 1"),
    _t("sgdr-t-mul-m-mul-swapped", "formula", "simdist/keras/optimizers/schedules.py",
       "        self._t_mul = t_mul\n"
       "        self._m_mul = m_mul\n",
       "        self._t_mul = m_mul\n"
       "        self._m_mul = t_mul\n",
       "CosineDecayRestarts stores t_mul and m_mul in each other's place"),
    _t("ftrl-lr-power-zero-refused", "missing-error", "simdist/keras/optimizers/ftrl.py",
       '            if arg == "initial_accumulator_value" and learning_rate_power > 0.0:\n',
       '            if arg == "initial_accumulator_value" and learning_rate_power >= 0.0:\n',
       "Ftrl refuses learning_rate_power=0 (Keras: negative or zero)"),
    _t("lion-beta1-one-refused", "boundary", "simdist/keras/optimizers/lion.py",
       "        if beta_1 <= 0 or beta_1 > 1:\n",
       "        if beta_1 <= 0 or beta_1 >= 1:\n",
       "Lion refuses beta_1=1 (Keras: the range is (0, 1])"),
    _t("rmsprop-momentum-slots-always", "state", "simdist/keras/optimizers/rmsprop.py",
       "        if self.momentum > 0:\n"
       '            self._momentums = self.add_optimizer_variables(var_list, "momentum")\n',
       "        if self.momentum >= 0:\n"
       '            self._momentums = self.add_optimizer_variables(var_list, "momentum")\n',
       "RMSprop builds momentum slots when momentum is 0 (Keras: only for momentum > 0)"),
    # -- callbacks
    _t("early-stopping-missing-metric-list-sep", "formula", "simdist/keras/callbacks/early_stopping.py",
       '                          f"Available metrics are: {\',\'.join(list(logs.keys()))}", stacklevel=2)\n',
       '                          f"Available metrics are: {\', \'.join(list(logs.keys()))}", stacklevel=2)\n',
       "EarlyStopping's missing-metric warning separates the available metrics with ', '"),
    _t("backup-save-freq-bool-refused", "boundary", "simdist/keras/callbacks/backup_and_restore.py",
       '        if save_freq != "epoch" and not isinstance(save_freq, int):\n',
       '        if save_freq != "epoch" and (not isinstance(save_freq, int) or isinstance(save_freq, bool)):\n',
       "BackupAndRestore refuses save_freq=False (Keras accepts bools as ints)"),
]
TRAINING += TRAINING_BATCH38
CATALOGUE += TRAINING_BATCH38

# -- Fortieth session: a thirty-ninth blind batch (TRAINING_BATCH39, helper blind40b), written from the source alone,
#    before reading any suite test (docs/conformance.md, "Fortieth session: a thirty-ninth blind batch"). Only the
#    trainer (the replicas' step reduction, compile's metrics arguments, PyDataset's and a generator's first batches,
#    compile's dict flattening, Functional's output shapes, Sequential's input dtype, to_json), gradients (Reciprocal at a
#    zero upstream, complex Square and Complex, SoftplusGrad's second order, keras.Variable on a tape, an
#    accumulator's unconnected JVPs, the all-reduce's gradient), tf.data (take_while's predicate, rebatch's
#    components, parallel interleave's block length, integer arguments, list_files' shuffle, padded_batch's size),
#    checkpoints and saving (the .keras extension, the write callbacks, the checkpoint state file, deferred
#    restores, a Sequential's identity) and distribution (input options, broadcast_to of a Python int, a one-device
#    MEAN); each a function no earlier mutant touched (batch 38, blind40a's, takes the other training areas).
TRAINING_BATCH39: list[Mutant] = [
    # -- the trainer
    _t("reduce-per-replica-mean-first-replica", "denominator", "simdist/keras/trainers/trainer.py",
       "        if reduction == \"mean\":\n"
       "            return tf.reduce_mean(tf.stack(list(local)), axis=0)\n",
       "        if reduction == \"mean\":\n"
       "            return local[0]\n",
       "the train/test step's per-replica outputs reduced with 'auto' (= 'mean') keep the first replica's value"),
    _t("compile-metrics-string-accepted", "missing-error", "simdist/keras/trainers/compile_utils.py",
       "        if metrics and not isinstance(metrics, (list, tuple, dict)):\n",
       "        if metrics and not isinstance(metrics, (list, tuple, dict, str)):\n",
       "compile(metrics='mae') (a bare string) is accepted (Keras: ValueError, a list, tuple or dict)"),
    _t("metrics-list-tuple-not-listed", "missing-error", "simdist/keras/trainers/compile_utils.py",
       "    if isinstance(metrics, (list, tuple)):\n"
       "        return MetricsList([get_metric(m, y_true, y_pred) for m in metrics], output_name=output_name)\n",
       "    if isinstance(metrics, list):\n"
       "        return MetricsList([get_metric(m, y_true, y_pred) for m in metrics], output_name=output_name)\n",
       "one output's metrics given as a tuple are taken as one metric identifier"),
    _t("pydataset-empty-unchecked", "missing-error", "simdist/keras/trainers/py_dataset.py",
       "            if not batches:\n"
       "                raise ValueError(\"The PyDataset has length 0\")\n",
       "            if not batches and num_batches is None:\n"
       "                raise ValueError(\"The PyDataset has length 0\")\n",
       "a PyDataset of length 0 is not refused with Keras's ValueError 'The PyDataset has length 0'"),
    _t("compile-flatten-dict-insertion-order", "order", "simdist/keras/trainers/compile_utils.py",
       "        return [leaf for k in sorted(x) for leaf in _flatten(x[k])]\n",
       "        return [leaf for k in x for leaf in _flatten(x[k])]\n",
       "compile's flattening of dict targets, predictions and weights follows insertion order, not sorted keys "
       "(tree.flatten), so a dict y given in another key order pairs with the wrong outputs"),
    _t("functional-output-shape-single-tuple-unwrapped", "axis", "simdist/keras/models/functional.py",
       "        specs = tree.flatten(tree.map_shape_structure(lambda s: KerasTensor(tuple(s)), input_shape))\n",
       "        specs = [KerasTensor(tuple(s)) for s in input_shape]\n",
       "Functional.compute_output_shape reads its argument as one shape per input, so one input's shape tuple is "
       "taken apart (its anchor moved with the fix of blind batch 39: a list or dict of shapes was refused)"),
    _t("generator-list-batches-accepted", "missing-error", "simdist/keras/trainers/generator_adapter.py",
       "        if not isinstance(first_batches[0], tuple):\n",
       "        if not isinstance(first_batches[0], (tuple, list)):\n",
       "a Python generator yielding lists [x, y] is accepted (Keras: ValueError, it must yield tuples)"),
    _t("sequential-input-dtype-policy", "dtype", "simdist/keras/models/sequential.py",
       "        if layers and isinstance(layers[0], InputLayer):\n"
       "            return layers[0].dtype\n",
       "        if layers and isinstance(layers[0], InputLayer):\n"
       "            return self.dtype_policy.compute_dtype\n",
       "a Sequential model's input_dtype is its compute dtype, not its Input's dtype"),
    _t("to-json-kwargs-dropped", "state", "simdist/keras/models/model.py",
       "        return json.dumps(_jsonable(serialize_model(self)), **kwargs)\n",
       "        return json.dumps(_jsonable(serialize_model(self)))\n",
       "Model.to_json(**kwargs) drops json.dumps' keyword arguments (indent, sort_keys)"),
    # -- gradients
    _t("reciprocal-grad-nan-at-zero-upstream", "gradient", "simdist/runtime/ops/unary.py",
       "    c = _conj(y)\n"
       "    return _safe(dy, -dy * (c * c))\n",
       "    c = _conj(y)\n"
       "    return -dy * (c * c)\n",
       "ReciprocalGrad multiplies a zero upstream gradient by an infinite y^2 (NaN; TF: 0 where dy is 0)"),
    _t("square-grad-complex-no-conj", "gradient", "simdist/runtime/ops/unary.py",
       "    x = _conj(op.inputs[0])   # (math_grad._SquareGrad",
       "    x = op.inputs[0]   # (math_grad._SquareGrad",
       "Square's gradient of a complex input uses x instead of conj(x)"),
    _t("softplus-grad-grad-denominator-without-two", "gradient", "simdist/runtime/ops/activations.py",
       "    d2x = grad * dy / (unary.exp(-x) + two + unary.exp(x))\n",
       "    d2x = grad * dy / (unary.exp(-x) + unary.exp(x))\n",
       "SoftplusGrad's gradient with respect to the features drops the 2 of exp(-x) + 2 + exp(x)"),
    _t("complex-grad-imag-summed-to-real-shape", "gradient", "simdist/runtime/ops/complex_math.py",
       "    return [unbroadcast(real(grad), re.shape), unbroadcast(imag(grad), im.shape)]\n",
       "    return [unbroadcast(real(grad), re.shape), unbroadcast(imag(grad), re.shape)]\n",
       "tf.complex's gradient sums the imaginary part's gradient to the real part's shape (broadcast inputs)"),
    _t("tape-watch-keras-variable-accepted", "missing-error", "simdist/runtime/autodiff/tape.py",
       "            if not isinstance(t, Tensor) and (not _is_variable(t) or hasattr(t, \"_simdist_variable\")):\n",
       "            if not isinstance(t, Tensor) and not _is_variable(t) and not hasattr(t, \"_simdist_variable\"):\n",
       "GradientTape.watch of a keras.Variable is accepted (TF 2.21: ValueError, watch its .value)"),
    _t("jvp-unconnected-none-as-zero", "gradient", "simdist/runtime/autodiff/forwardprop.py",
       "            if got is None and zero:\n",
       "            if got is None:\n",
       "ForwardAccumulator.jvp of a primal the watched tensors do not reach gives zeros also under the default "
       "unconnected_gradients=NONE (TF: None)"),
    _t("all-reduce-grad-always-sum", "gradient", "simdist/runtime/ops/collective.py",
       "    return list(op.get_attr(\"replica_context\").all_reduce(op.get_attr(\"reduce_op\"), list(grads)))\n",
       "    return list(op.get_attr(\"replica_context\").all_reduce(type(op.get_attr(\"reduce_op\")).SUM, list(grads)))\n",
       "the gradient of a replica context's all_reduce(MEAN) sums the upstream gradients instead of averaging them"),
    # -- tf.data
    _t("take-while-vector-predicate-accepted", "missing-error", "simdist/runtime/data/take_while.py",
       "        if not (spec.dtype == dtypes.bool_ and spec.shape.rank == 0):\n",
       "        if not (spec.dtype == dtypes.bool_ and spec.shape.num_elements() == 1):\n",
       "take_while accepts a predicate returning a bool of shape [1] (TF: ValueError, a scalar)"),
    _t("rebatch-smaller-component-accepted", "missing-error", "simdist/runtime/data/rebatch.py",
       "        if c.shape[0] != comps[0].shape[0]:\n",
       "        if c.shape[0] > comps[0].shape[0]:\n",
       "rebatch accepts an element whose later component has fewer rows than the first"),
    _t("parallel-interleave-block-zero-accepted", "boundary", "simdist/runtime/data/interleave.py",
       "            if block <= 0:\n"
       "                raise errors.InvalidArgumentError(None, None, \"`block_length` must be > 0 \"\n",
       "            if block < 0:\n"
       "                raise errors.InvalidArgumentError(None, None, \"`block_length` must be > 0 \"\n",
       "interleave(block_length=0, num_parallel_calls=n) is accepted (TF: InvalidArgumentError)"),
    _t("dataset-int-arg-float-accepted", "dtype", "simdist/runtime/data/elements.py",
       "    if isinstance(value, (int, np.integer)):\n"
       "        return int(value)\n"
       "    raise TypeError(f\"Cannot convert {value!r} to EagerTensor of dtype int64\")\n",
       "    if isinstance(value, (int, np.integer, float)):\n"
       "        return int(value)\n"
       "    raise TypeError(f\"Cannot convert {value!r} to EagerTensor of dtype int64\")\n",
       "tf.data's int64 arguments (batch, take, skip, shard, repeat, prefetch, shuffle) accept a Python float, "
       "truncated (TF: TypeError)"),
    _t("list-files-default-unshuffled", "order", "simdist/runtime/data/readers.py",
       "    if shuffle is None or shuffle:\n",
       "    if shuffle:\n",
       "Dataset.list_files without shuffle= gives the sorted names (TF: shuffled unless shuffle=False)"),
    _t("padded-batch-size-zero-accepted", "boundary", "simdist/runtime/data/batching.py",
       "        if batch_size <= 0:\n"
       "            raise errors.InvalidArgumentError(None, None, \"Batch size must be greater than zero.\")\n"
       "        in_spec = input_dataset.element_spec\n"
       "        in_specs = flatten(in_spec)\n",
       "        if batch_size < 0:\n"
       "            raise errors.InvalidArgumentError(None, None, \"Batch size must be greater than zero.\")\n"
       "        in_spec = input_dataset.element_spec\n"
       "        in_specs = flatten(in_spec)\n",
       "padded_batch(0) is accepted (TF: InvalidArgumentError 'Batch size must be greater than zero.')"),
    # -- checkpoints and saving
    _t("save-model-extension-anywhere", "missing-error", "simdist/keras/models/keras_file.py",
       "    if not path.endswith(\".keras\"):\n"
       "        raise ValueError(\"Invalid filepath extension for saving.",
       "    if \".keras\" not in path:\n"
       "        raise ValueError(\"Invalid filepath extension for saving.",
       "model.save of a path that holds '.keras' but does not end in it ('m.keras.bak') is accepted"),
    _t("write-callback-path-not-passed", "state", "simdist/strategies/checkpoint.py",
       "        if len(inspect.signature(callback).parameters) == 1:\n"
       "            callback(path)\n",
       "        if len(inspect.signature(callback).parameters) > 1:\n"
       "            callback(path)\n",
       "CheckpointOptions' write callbacks taking one parameter are called without the checkpoint's path"),
    _t("checkpoint-state-keeps-last-path-only", "state", "simdist/strategies/checkpoint.py",
       "            elif key == \"all_model_checkpoint_paths\":\n"
       "                every.append(os.path.join(directory, val))\n",
       "            elif key == \"all_model_checkpoint_paths\":\n"
       "                every = [os.path.join(directory, val)]\n",
       "the checkpoint state file's all_model_checkpoint_paths keep only the last one when read back"),
    _t("unbuilt-prefix-without-slash", "state", "simdist/strategies/checkpoint.py",
       "        for k in sorted(obj._objects):\n"
       "            yield from _unbuilt(obj._objects[k], f\"{prefix}{k}/\")\n",
       "        for k in sorted(obj._objects):\n"
       "            yield from _unbuilt(obj._objects[k], f\"{prefix}{k}\")\n",
       "a Checkpoint's unbuilt objects (an optimizer before its first step) are found under a prefix without '/': "
       "their slots' saved values are not deferred to their creation"),
    _t("sequential-identity-src-module", "state", "simdist/keras/models/keras_file.py",
       "    if cls is Sequential:\n"
       "        return \"keras\", None\n",
       "    if cls is Sequential:\n"
       "        return \"keras.src.models.sequential\", \"Sequential\"\n",
       "a Sequential model is serialized (config.json, to_json) with Functional's style of identity, module "
       "'keras.src.models.sequential' and registered_name 'Sequential' (Keras 3.15: 'keras', None)"),
    # -- distribution
    _t("input-options-wrong-type-ignored", "missing-error", "simdist/strategies/input.py",
       "    if not isinstance(options, InputOptions):\n"
       "        # (TF 2.21 reads the option without a check",
       "    if not isinstance(options, InputOptions):\n"
       "        return InputOptions()\n"
       "        # (TF 2.21 reads the option without a check",
       "experimental_distribute_dataset(options=<not an InputOptions>) runs with the default options "
       "(TF 2.21: AttributeError)"),
    _t("broadcast-to-int-converted", "dtype", "simdist/strategies/mirrored.py",
       "        if isinstance(tensor, (float, int)):\n"
       "            return tensor\n",
       "        if isinstance(tensor, float):\n"
       "            return tensor\n",
       "MirroredStrategy's extended.broadcast_to converts a Python int (TF keeps a Python number as it is)"),
    _t("central-storage-mean-one-component-undivided", "dtype", "simdist/strategies/central_storage.py",
       "                out.append(self._place(one / 1 if op is ReduceOp.MEAN else one, d))\n",
       "                out.append(self._place(one, d))\n",
       "batch_reduce_to(MEAN) of a one-component integer value keeps its dtype (TF divides by 1: float64)"),
]
TRAINING += TRAINING_BATCH39
CATALOGUE += TRAINING_BATCH39

# Blind batch 40 (forty-first session, helper blind41a): 30 mutants written from simdist's source alone, before
# reading any suite test, in the Keras layers, losses and metrics, optimizers and schedules, and callbacks, each in
# a function no earlier mutant touched (docs/conformance.md, "Forty-first session, 2026-12-04: a fortieth blind
# batch").
TRAINING_BATCH40: list[Mutant] = [
    # -- Keras layers
    _t("upsampling2d-channels-first-sizes-swapped", "axis", "simdist/keras/layers/upsampling_padding.py",
       "            return (input_shape[0], input_shape[1], _times(self.size[0], input_shape[2]),\n"
       "                    _times(self.size[1], input_shape[3]))\n",
       "            return (input_shape[0], input_shape[1], _times(self.size[1], input_shape[2]),\n"
       "                    _times(self.size[0], input_shape[3]))\n",
       "UpSampling2D(data_format='channels_first').compute_output_shape multiplies rows by size[1] and columns by "
       "size[0]"),
    _t("upsampling1d-size-zero-accepted", "boundary", "simdist/keras/layers/upsampling_padding.py",
       "        if size <= 0:\n"
       "            raise ValueError(f\"Argument `size` should be a positive integer. Received: size={size}\")\n",
       "        if size < 0:\n"
       "            raise ValueError(f\"Argument `size` should be a positive integer. Received: size={size}\")\n",
       "UpSampling1D(size=0) is accepted (Keras: ValueError, a positive integer)"),
    _t("cropping1d-whole-length-shape-accepted", "boundary", "simdist/keras/layers/cropping1d.py",
       "            length = input_shape[1] - self.cropping[0] - self.cropping[1]\n"
       "            if length <= 0:\n",
       "            length = input_shape[1] - self.cropping[0] - self.cropping[1]\n"
       "            if length < 0:\n",
       "Cropping1D.compute_output_shape accepts a cropping that removes every step (a length-0 output; Keras: "
       "ValueError)"),
    _t("conv-strides-dilation-first-axis-only", "missing-error", "simdist/keras/layers/convolutional.py",
       "        if max(self.strides) > 1 and max(self.dilation_rate) > 1:\n",
       "        if self.strides[0] > 1 and self.dilation_rate[0] > 1:\n",
       "a convolution's strides > 1 with dilation_rate > 1 is refused only when both are on the first spatial axis "
       "(Keras: any strides > 1 with any dilation > 1)"),
    _t("conv-groups-kernel-full-channels", "shard-size", "simdist/keras/layers/convolutional.py",
       "        kernel_shape = self.kernel_size + (input_channel // self.groups, self.filters)\n",
       "        kernel_shape = self.kernel_size + (input_channel, self.filters)\n",
       "a grouped convolution's kernel has all the input channels instead of input_channels / groups (a full "
       "convolution)"),
    _t("pool-size-zero-accepted", "boundary", "simdist/keras/layers/pooling.py",
       "        self.pool_size = standardize_tuple(pool_size, pool_dimensions, \"pool_size\")\n",
       "        self.pool_size = standardize_tuple(pool_size, pool_dimensions, \"pool_size\", allow_zero=True)\n",
       "a pooling layer's pool_size accepts 0 (Keras: ValueError, the strides alone may be 0)"),
    _t("global-max-pool2d-keepdims-dropped", "axis", "simdist/keras/layers/pooling.py",
       "        return tf_numpy.max(x, axis=self._spatial_axes(x), keepdims=self.keepdims)\n",
       "        return tf_numpy.max(x, axis=self._spatial_axes(x))\n",
       "GlobalMaxPooling2D(keepdims=True) drops the spatial axes when called"),
    _t("layer-norm-shape-axis-bound-off-by-one", "boundary", "simdist/keras/layers/normalization.py",
       "        axes = [self.axis] if isinstance(self.axis, int) else self.axis\n"
       "        for axis in axes:\n"
       "            if axis >= len(input_shape) or axis < -len(input_shape):\n",
       "        axes = [self.axis] if isinstance(self.axis, int) else self.axis\n"
       "        for axis in axes:\n"
       "            if axis > len(input_shape) or axis < -len(input_shape):\n",
       "LayerNormalization.compute_output_shape accepts an axis equal to the input's rank"),
    _t("batch-norm-renorm-dmax-zero-refused", "boundary", "simdist/keras/layers/normalization.py",
       "            if dmax is not None and dmax < 0:\n",
       "            if dmax is not None and dmax <= 0:\n",
       "BatchNormalization(renorm=True, renorm_clipping={'dmax': 0}) is refused (Keras: dmax must be >= 0)"),
    _t("dense-units-zero-accepted", "boundary", "simdist/keras/layers/core.py",
       "        if not isinstance(units, int) or isinstance(units, bool) or units <= 0:\n",
       "        if not isinstance(units, int) or isinstance(units, bool) or units < 0:\n",
       "Dense(0) is accepted (Keras: ValueError, a positive integer)"),
    _t("relu-max-value-zero-refused", "boundary", "simdist/keras/layers/core.py",
       "        if max_value is not None and max_value < 0.0:\n",
       "        if max_value is not None and max_value <= 0.0:\n",
       "ReLU(max_value=0) is refused (Keras: only a negative max_value)"),
    _t("dropout-rate-one-refused", "boundary", "simdist/keras/layers/core.py",
       "        if not 0 <= rate <= 1:\n"
       "            raise ValueError(f\"Invalid value received for argument `rate`. Expected a float value between 0 and 1. \"\n",
       "        if not 0 <= rate < 1:\n"
       "            raise ValueError(f\"Invalid value received for argument `rate`. Expected a float value between 0 and 1. \"\n",
       "Dropout(rate=1) is refused (Keras: 0 <= rate <= 1)"),
    _t("noise-amount-one-refused", "boundary", "simdist/keras/layers/noise.py",
       "    if not 0 <= value <= 1:\n",
       "    if not 0 <= value < 1:\n",
       "GaussianNoise(stddev=1) / GaussianDropout(rate=1) / AlphaDropout(rate=1) are refused (Keras: 0 <= x <= 1)"),
    _t("bidirectional-return-state-mismatch-accepted", "missing-error", "simdist/keras/layers/bidirectional.py",
       "        for a in (\"stateful\", \"return_sequences\", \"return_state\"):\n",
       "        for a in (\"stateful\", \"return_sequences\"):\n",
       "Bidirectional accepts a backward_layer whose return_state differs from the forward layer's"),
    _t("bidirectional-state-shapes-once", "shard-size", "simdist/keras/layers/bidirectional.py",
       "            return (output_shape,) + state_shape + state_shape\n",
       "            return (output_shape,) + state_shape\n",
       "Bidirectional(return_state=True).compute_output_shape lists the forward layer's states only (merged modes)"),
    _t("attention-single-mask-accepted", "missing-error", "simdist/keras/layers/dot_attention.py",
       "            if len(mask) < 2 or len(mask) > 3:\n",
       "            if len(mask) < 1 or len(mask) > 3:\n",
       "Attention/AdditiveAttention accept a mask list of one element (Keras: ValueError, 2 or 3 masks)"),
    _t("subtract-three-inputs-built", "missing-error", "simdist/keras/layers/merging.py",
       "        super().build(input_shape)\n"
       "        if len(input_shape) != 2:\n",
       "        super().build(input_shape)\n"
       "        if len(input_shape) < 2:\n",
       "Subtract.build accepts three input shapes (Keras: ValueError, exactly 2 inputs)"),
    # -- losses and metrics
    _t("cosine-similarity-loss-axis-not-passed", "axis", "simdist/keras/losses/regression_losses.py",
       "        super().__init__(cosine_similarity, name=name, reduction=reduction, dtype=dtype, axis=axis)\n",
       "        super().__init__(cosine_similarity, name=name, reduction=reduction, dtype=dtype)\n",
       "keras.losses.CosineSimilarity(axis=...) computes along the last axis whatever axis it is given"),
    _t("huber-delta-not-passed", "formula", "simdist/keras/losses/regression_losses.py",
       "        super().__init__(huber, name=name, reduction=reduction, dtype=dtype, delta=delta)\n",
       "        super().__init__(huber, name=name, reduction=reduction, dtype=dtype)\n",
       "keras.losses.Huber(delta=...) computes with delta=1 whatever delta it is given"),
    _t("top-k-accuracy-k-not-passed", "formula", "simdist/keras/metrics/accuracy_metrics.py",
       "        super().__init__(fn=top_k_categorical_accuracy, name=name, dtype=dtype, k=k)\n",
       "        super().__init__(fn=top_k_categorical_accuracy, name=name, dtype=dtype)\n",
       "TopKCategoricalAccuracy(k=...) counts the top 5 whatever k it is given"),
    _t("mean-result-empty-nan", "denominator", "simdist/keras/metrics/reduction_metrics.py",
       "        return ops.divide_no_nan(self.total, ops.cast(self.count, self.dtype))\n",
       "        return ops.divide(self.total, ops.cast(self.count, self.dtype))\n",
       "keras.metrics.Mean's result before any update (count 0) is NaN (Keras: divide_no_nan, 0)"),
    _t("mean-iou-last-class-dropped", "boundary", "simdist/keras/metrics/iou_metrics.py",
       "        super().__init__(name=name, num_classes=num_classes, target_class_ids=list(range(num_classes)),\n",
       "        super().__init__(name=name, num_classes=num_classes, target_class_ids=list(range(num_classes - 1)),\n",
       "MeanIoU averages the IoU of classes 0 .. num_classes - 2 (the last class left out)"),
    _t("one-hot-iou-axis-not-passed", "axis", "simdist/keras/metrics/iou_metrics.py",
       "                         ignore_class=ignore_class, sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)\n"
       "\n"
       "    def get_config(self) -> dict[str, Any]:\n"
       "        return {\"num_classes\": self.num_classes, \"target_class_ids\"",
       "                         ignore_class=ignore_class, sparse_y_true=False, sparse_y_pred=sparse_y_pred)\n"
       "\n"
       "    def get_config(self) -> dict[str, Any]:\n"
       "        return {\"num_classes\": self.num_classes, \"target_class_ids\"",
       "OneHotIoU(axis=...) takes the argmax of y_true and y_pred along the last axis whatever axis it is given"),
    # -- optimizers and schedules
    _t("sgd-int-momentum-accepted", "dtype", "simdist/keras/optimizers/sgd.py",
       "        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:\n",
       "        if not isinstance(momentum, (int, float)) or momentum < 0 or momentum > 1:\n",
       "SGD(momentum=1) (a Python int) is accepted (Keras: ValueError, momentum must be a float)"),
    _t("polynomial-decay-steps-unchecked", "missing-error", "simdist/keras/optimizers/schedules.py",
       "        self.cycle = cycle\n"
       "        self.name = name\n"
       "        _check_steps(\"decay_steps\", decay_steps)\n",
       "        self.cycle = cycle\n"
       "        self.name = name\n",
       "PolynomialDecay(decay_steps=0) is accepted (Keras: ValueError, decay_steps must be > 0)"),
    _t("ftrl-slot-initializers-swapped", "order", "simdist/keras/optimizers/ftrl.py",
       "            var_list, [\"accumulator\", \"linear\"], initializer=[float(self.initial_accumulator_value), \"zeros\"])\n",
       "            var_list, [\"accumulator\", \"linear\"], initializer=[\"zeros\", float(self.initial_accumulator_value)])\n",
       "Ftrl's slots are initialized in the wrong order: the accumulators at zero and the linear slots at "
       "initial_accumulator_value"),
    _t("nadam-u-product-floatx", "dtype", "simdist/keras/optimizers/nadam.py",
       "        dtype = var_list[0].dtype if var_list else config.floatx()\n",
       "        dtype = config.floatx()\n",
       "Nadam's u_product variable is made in floatx instead of the first variable's dtype"),
    # -- callbacks
    _t("csv-logger-list-values-comma-only", "formula", "simdist/keras/callbacks/csv_logger.py",
       "        return f'\"[{\", \".join(map(str, k))}]\"'\n",
       "        return f'\"[{\",\".join(map(str, k))}]\"'\n",
       "CSVLogger writes a list value as \"[a,b]\" (Keras: \"[a, b]\")"),
    _t("backup-double-checkpoint-metadata-not-copied", "state", "simdist/keras/callbacks/backup_and_restore.py",
       "        if self.double_checkpoint and os.path.exists(self._training_metadata_path):\n"
       "            shutil.copyfile(self._training_metadata_path, self._prev_training_metadata_path)\n",
       "",
       "BackupAndRestore(double_checkpoint=True) keeps the previous weights but not the previous training metadata"),
    _t("swap-ema-average-sign", "formula", "simdist/keras/callbacks/swap_ema_weights.py",
       "        extended.update(var, lambda a, b: a.assign_add(b), args=(average,))\n"
       "        extended.update(var, lambda a, b: b.assign(a - b), args=(average,))\n",
       "        extended.update(var, lambda a, b: a.assign_add(b), args=(average,))\n"
       "        extended.update(var, lambda a, b: b.assign(b - a), args=(average,))\n",
       "SwapEMAWeights' in-place swap computes the average's new value as b - a (its sign flipped)"),
]
TRAINING += TRAINING_BATCH40
CATALOGUE += TRAINING_BATCH40
# -- Forty-first session: a forty-first blind batch (TRAINING_BATCH41, helper blind41b), written from the source alone,
#    before reading any suite test (docs/conformance.md, "Forty-first session: a forty-first blind batch"). Only the
#    trainer (the data-adapter errors, the epoch iterator's step counts, compile's loss_weights, weighted metrics,
#    the arrays' dtype, the metrics' pairing with dict targets), gradients and the tape (Unpack, MulNoNan, EluGrad,
#    BiasAdd NCHW, complex Expm1, MirrorPadGrad, integer ops on a tape), tf.function's input signature, tf.data
#    (assert_cardinality, random access, sparse batches, shuffle's buffer, take's negative counts), checkpoints and
#    saving (assert_consumed, write callbacks, CheckpointManager, save_format), distribution (cross-device ops'
#    one-value reduce, batch_reduce's destinations, broadcast_to's destinations) and random ops (stateless uniform's
#    unsigned dtypes, negative dimensions); each a function no earlier mutant touched (batch 40, blind41a's, takes
#    the other training areas).
TRAINING_BATCH41: list[Mutant] = [
    # -- the trainer
    _t("unsupported-data-arg-type-error", "error-class", "simdist/keras/trainers/epoch_iterator.py",
       "    raise ValueError(f\"When providing `x` as a {input_type}, `{arg_name}` should not be passed. Instead, \"\n",
       "    raise TypeError(f\"When providing `x` as a {input_type}, `{arg_name}` should not be passed. Instead, \"\n",
       "fit/evaluate/predict given y or sample_weight beside a dataset, PyDataset or generator raise TypeError "
       "(Keras: ValueError)"),
    _t("epoch-num-batches-before-steps", "order", "simdist/keras/trainers/epoch_iterator.py",
       "        if self.steps_per_epoch:\n"
       "            return self.steps_per_epoch\n"
       "        return self._num_batches\n",
       "        if self._num_batches:\n"
       "            return self._num_batches\n"
       "        return self.steps_per_epoch\n",
       "the epoch iterator's num_batches (the callbacks' params['steps'], the progress bar's target) prefers the data's "
       "batch count to the steps_per_epoch given"),
    _t("epoch-unknown-count-off-by-one", "boundary", "simdist/keras/trainers/epoch_iterator.py",
       "            if self._num_batches is None:\n"
       "                self._num_batches = self._steps_seen\n",
       "            if self._num_batches is None:\n"
       "                self._num_batches = self._steps_seen - 1\n",
       "the batch count learned when a dataset of unknown cardinality runs out is one short"),
    _t("compile-loss-weights-int-accepted", "missing-error", "simdist/keras/trainers/compile_utils.py",
       "        if loss_weights and not isinstance(loss_weights, (list, tuple, dict, float)):\n",
       "        if loss_weights and not isinstance(loss_weights, (list, tuple, dict, float, int)):\n",
       "compile(loss_weights=2) (a Python int) is accepted (Keras: ValueError, a float or a list, tuple or dict)"),
    _t("metrics-list-sample-weight-dropped", "state", "simdist/keras/trainers/compile_utils.py",
       "        for m in self.metrics:\n"
       "            m.update_state(y_true, y_pred, sample_weight=sample_weight)\n",
       "        for m in self.metrics:\n"
       "            m.update_state(y_true, y_pred)\n",
       "one output's list of weighted_metrics is updated without the sample weights"),
    _t("compile-metrics-dict-y-sorted-keys", "order", "simdist/keras/trainers/compile_utils.py",
       "        if isinstance(y, dict) and self._resolved_output_names is not None:\n"
       "            return [y[name] for name in self._resolved_output_names]\n",
       "        if isinstance(y, dict) and self._resolved_output_names is None:\n"
       "            return [y[name] for name in self._resolved_output_names]\n",
       "the compiled metrics flatten dict targets by sorted keys instead of the model's output names, so outputs "
       "named out of alphabetical order pair their metrics with another output's targets"),
    _t("floatx-cast-compares-float32", "dtype", "simdist/keras/trainers/data_adapter.py",
       "    return dtype_policies.is_float_dtype(dtype) and dtype_policies.standardize_dtype(dtype) != keras_config.floatx()\n",
       "    return dtype_policies.is_float_dtype(dtype) and dtype_policies.standardize_dtype(dtype) != \"float32\"\n",
       "fit/evaluate/predict cast their float arrays to floatx only when they are not float32 (under "
       "set_floatx('float64') float32 data stay float32; Keras compares with floatx())"),
    # -- gradients and the tape
    _t("unpack-grad-axis-zero", "axis", "simdist/runtime/ops/array.py",
       "    return [stack(gs, axis=op.get_attr(\"axis\"))]\n",
       "    return [stack(gs, axis=0)]\n",
       "the gradient of tf.unstack(x, axis=k) stacks the upstream gradients along axis 0"),
    _t("mul-no-nan-grad-y-operands-swapped", "gradient", "simdist/runtime/ops/xfunctions.py",
       "    return _reduced(op, multiply_no_nan(grad, y), multiply_no_nan(x, grad))\n",
       "    return _reduced(op, multiply_no_nan(grad, y), multiply_no_nan(grad, x))\n",
       "MulNoNan's gradient for y is mul_no_nan(grad, x) (zero where x is 0) instead of mul_no_nan(x, grad) (zero "
       "where the upstream gradient is 0): an infinite x under a zero upstream gives NaN"),
    _t("elu-grad-grad-zero-inclusive", "boundary", "simdist/runtime/ops/activations.py",
       "            math.where(elu_x < 0, grad * op.inputs[0], array.zeros_like(elu_x))]\n",
       "            math.where(elu_x <= 0, grad * op.inputs[0], array.zeros_like(elu_x))]\n",
       "EluGrad's gradient with respect to the elu output counts an output of exactly 0 as negative (elu's second "
       "derivative at 0 becomes 1)"),
    _t("bias-add-grad-format-dropped", "axis", "simdist/runtime/ops/nn.py",
       "    return [grad, dispatch.execute(BIAS_ADD_GRAD, (grad,), {\"data_format\": op.get_attr(\"data_format\")})]\n",
       "    return [grad, dispatch.execute(BIAS_ADD_GRAD, (grad,), {\"data_format\": \"NHWC\"})]\n",
       "BiasAdd's gradient for the bias sums over the NHWC axes whatever the data_format (NCHW reduces the wrong axes)"),
    _t("expm1-grad-complex-no-conj", "gradient", "simdist/runtime/ops/special.py",
       "    return [grad * exp(_conj(op.inputs[0]))]\n",
       "    return [grad * exp(op.inputs[0])]\n",
       "Expm1's gradient of a complex input uses exp(x) instead of exp(conj(x))"),
    _t("mirror-pad-grad-modes-swapped", "formula", "simdist/runtime/ops/slicing.py",
       "    off = 1 if mode == \"REFLECT\" else 0\n"
       "    p = np.asarray(paddings)\n",
       "    off = 1 if mode == \"SYMMETRIC\" else 0\n"
       "    p = np.asarray(paddings)\n",
       "MirrorPadGrad folds the border back as SYMMETRIC for REFLECT and as REFLECT for SYMMETRIC"),
    _t("tape-records-integer-ops", "gradient", "simdist/runtime/autodiff/tape.py",
       "            if id(t) in tt and trainable(t.dtype):\n"
       "                return True\n",
       "            if id(t) in tt:\n"
       "                return True\n",
       "a tape records the ops of a watched integer tensor (TF records only ops of a trainable dtype: the gradient "
       "with respect to an integer source is None)"),
    # -- tf.function
    _t("signature-shape-rank-only", "missing-error", "simdist/tf/_signature.py",
       "    if t.dtype != spec.dtype or not spec.shape.is_compatible_with(t.shape):\n",
       "    if t.dtype != spec.dtype or (spec.shape.rank is not None and spec.shape.rank != t.shape.rank):\n",
       "a tf.function's input_signature checks an argument's rank only: a TensorSpec([2]) accepts a tensor of shape "
       "[3] (TF: TypeError)"),
    # -- tf.data
    _t("assert-cardinality-card-from-input", "state", "simdist/runtime/data/assert_cardinality.py",
       "    def _card(self) -> int:\n"
       "        return self._params[\"expected_cardinality\"]\n",
       "    def _card(self) -> int:\n"
       "        return self._input._card()\n",
       "assert_cardinality(n)'s dataset reports its input's cardinality (unknown after a filter) instead of n"),
    _t("random-access-unknown-card-passes", "error-class", "simdist/runtime/data/random_access.py",
       "        if card in (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY):\n",
       "        if card == INFINITE_CARDINALITY:\n",
       "tf.data.experimental.at checks a random-access node's cardinality for infinity only: an unknown one passes "
       "(TF: FailedPreconditionError)"),
    _t("sparse-batch-card-drops-remainder", "boundary", "simdist/runtime/data/sparse_batch.py",
       "        return _batch_card(self._input._card(), self._params[\"batch_size\"], False)\n",
       "        return _batch_card(self._input._card(), self._params[\"batch_size\"], True)\n",
       "dense_to_sparse_batch's cardinality leaves out the partial last batch it yields"),
    _t("shuffle-buffer-zero-accepted", "boundary", "simdist/runtime/data/shuffle.py",
       "        if buffer_size <= 0 and buffer_size != UNKNOWN_CARDINALITY:\n",
       "        if buffer_size < 0 and buffer_size != UNKNOWN_CARDINALITY:\n",
       "Dataset.shuffle(0) is accepted (TF: InvalidArgumentError, buffer_size must be greater than zero)"),
    _t("take-negative-count-not-all", "boundary", "simdist/runtime/data/counting.py",
       "        it = self._input._iter_flat()\n"
       "        if count < 0:\n"
       "            return it\n"
       "        taken = 0\n",
       "        it = self._input._iter_flat()\n"
       "        if count == -1:\n"
       "            return it\n"
       "        taken = 0\n",
       "take(count) with a negative count other than -1 yields nothing (TF: every element)"),
    # -- checkpoints and saving
    _t("checkpoint-assert-consumed-unused-ignored", "missing-error", "simdist/strategies/checkpoint.py",
       "        if self._missing or self._unused:\n",
       "        if self._missing:\n",
       "a restore status's assert_consumed passes when the checkpoint holds values no object took"),
    _t("checkpoint-options-two-param-callback-accepted", "missing-error", "simdist/strategies/checkpoint.py",
       "                assert len(inspect.signature(callback).parameters) <= 1\n",
       "                assert len(inspect.signature(callback).parameters) <= 2\n",
       "CheckpointOptions accepts a write callback of two parameters (TF: AssertionError)"),
    _t("manager-latest-checkpoint-oldest", "order", "simdist/strategies/checkpoint.py",
       "        return self._checkpoints[-1] if self._checkpoints else None\n",
       "        return self._checkpoints[0] if self._checkpoints else None\n",
       "CheckpointManager.latest_checkpoint is the oldest checkpoint it keeps"),
    _t("save-format-keras-refused", "missing-error", "simdist/keras/models/keras_file.py",
       "    if save_format and not str(filepath).endswith((\".h5\", \".hdf5\", \".keras\")):\n",
       "    if save_format and not str(filepath).endswith((\".h5\", \".hdf5\")):\n",
       "model.save('m.keras', save_format='keras') is refused (Keras 3.15: a deprecation warning, then saves)"),
    # -- distribution
    _t("cross-device-reduce-one-value-destination-ignored", "placement", "simdist/strategies/cross_device_ops.py",
       "        if len(value.values) == 1 and _devices_match(value, destinations):\n",
       "        if len(value.values) == 1:\n",
       "a CrossDeviceOps' reduce of a one-component value onto another device returns it on its own device"),
    _t("all-reduce-batch-destinations-unchecked", "placement", "simdist/strategies/cross_device_ops.py",
       "        if _all_devices_match(value_destination_pairs):\n"
       "            return [self._all_reduce(reduce_op, v) for v, _ in value_destination_pairs]\n",
       "        if True:\n"
       "            return [self._all_reduce(reduce_op, v) for v, _ in value_destination_pairs]\n",
       "an all-reduce CrossDeviceOps' batch_reduce all-reduces onto the values' devices whatever the destinations"),
    _t("broadcast-to-tuple-destinations-accepted", "missing-error", "simdist/strategies/base.py",
       "        if isinstance(destinations, (list, tuple)):\n"
       "            raise AssertionError()\n"
       "        return self._broadcast_to(tensor, destinations)\n",
       "        if isinstance(destinations, list):\n"
       "            raise AssertionError()\n"
       "        return self._broadcast_to(tensor, destinations)\n",
       "extended.broadcast_to accepts a tuple of destinations (TF: AssertionError)"),
    # -- random ops
    _t("stateless-uniform-uint32-minval-accepted", "missing-error", "simdist/runtime/ops/random.py",
       "        if minval is not None and dt in (dtypes.uint32, dtypes.uint64):\n",
       "        if minval is not None and dt == dtypes.uint64:\n",
       "stateless_uniform(dtype=uint32, minval=.., maxval=..) is accepted (TF: ValueError, no unsigned dtype with "
       "bounds)"),
    _t("random-shape-minus-one-accepted", "boundary", "simdist/runtime/ops/random.py",
       "    for d in shape:\n"
       "        if d < 0:\n"
       "            raise errors.InvalidArgumentError(None, None, f\"Dimension {d} must be >= 0 [Op:{opname}]\")\n",
       "    for d in shape:\n"
       "        if d < -1:\n"
       "            raise errors.InvalidArgumentError(None, None, f\"Dimension {d} must be >= 0 [Op:{opname}]\")\n",
       "the random ops' shape check lets a dimension of -1 through (TF: InvalidArgumentError 'Dimension -1 must be "
       ">= 0')"),
    _t("random-normal-complex-dtype-accepted", "missing-error", "simdist/runtime/ops/random.py",
       "    if dt.is_floating:\n"
       "        return dt\n"
       "    raise errors.InvalidArgumentError(None, None, f\"Value for attr 'dtype' of {tf_name(dt)} is not in the list of \"\n",
       "    if dt.is_floating or dt.is_complex:\n"
       "        return dt\n"
       "    raise errors.InvalidArgumentError(None, None, f\"Value for attr 'dtype' of {tf_name(dt)} is not in the list of \"\n",
       "tf.random.normal/truncated_normal accept a complex dtype (TF: InvalidArgumentError, half, bfloat16, float, "
       "double only)"),
]
TRAINING += TRAINING_BATCH41
CATALOGUE += TRAINING_BATCH41

# -- Forty-second session: a forty-second blind batch (TRAINING_BATCH42, helper blind42a), written from simdist's
#    source alone, before reading any suite test (docs/conformance.md, "Forty-second session, 2026-12-04: a
#    forty-second blind batch"). Only the Keras layers, losses and metrics, optimizers and schedules, and callbacks
#    (batch 43, blind42b's, takes the trainer, gradients, tf.function, tf.data, saving, distribution and random
#    ops); each in a function no earlier mutant touched.
TRAINING_BATCH42: list[Mutant] = [
    # -- Keras layers
    _t("thresholded-relu-theta-zero-refused", "boundary", "simdist/keras/layers/activation_layers.py",
       "        if theta < 0:\n",
       "        if theta <= 0:\n",
       "ThresholdedReLU(theta=0) is refused (Keras: theta must be >= 0)"),
    _t("conv-transpose-output-padding-equal-strides", "boundary", "simdist/keras/layers/conv_transpose.py",
       "                if op >= s:\n",
       "                if op > s:\n",
       "a transposed convolution accepts an output_padding equal to its strides (Keras: strictly less)"),
    _t("group-norm-groups-zero-accepted", "boundary", "simdist/keras/layers/group_normalization.py",
       "        if not isinstance(groups, int) or (groups <= 0 and groups != -1):\n",
       "        if not isinstance(groups, int) or (groups < 0 and groups != -1):\n",
       "GroupNormalization(groups=0) is accepted (Keras: ValueError, a positive integer or -1)"),
    _t("dot-one-axis-accepted", "missing-error", "simdist/keras/layers/dot.py",
       "            if len(axes) != 2:\n",
       "            if len(axes) > 2:\n",
       "Dot(axes=[1]) (a list of one axis) is accepted (Keras: ValueError, two elements)"),
    _t("global-max-pool1d-channels-first-typo", "axis", "simdist/keras/layers/global_pooling1d.py",
       "        steps_axis = 1 if self.data_format == \"channels_last\" else 2\n"
       "        from simdist.keras.ops import tf_numpy",
       "        steps_axis = 1 if self.data_format != \"channel_first\" else 2\n"
       "        from simdist.keras.ops import tf_numpy",
       "GlobalMaxPooling1D(data_format='channels_first') reduces axis 1 (the channels) instead of the steps (a typo "
       "in the format's name)"),
    _t("prelu-negative-part-sign", "formula", "simdist/keras/layers/prelu.py",
       "        neg = tf.negative(self.alpha) * activations.relu(tf.negative(inputs))\n",
       "        neg = self.alpha * activations.relu(tf.negative(inputs))\n",
       "PReLU's negative part has its sign flipped (alpha * relu(-x) instead of -alpha * relu(-x))"),
    _t("average-pooling1d-padding-dropped", "formula", "simdist/keras/layers/pooling1d.py",
       "pool_dimensions=1, pool_mode=\"average\", padding=padding,",
       "pool_dimensions=1, pool_mode=\"average\", padding=\"valid\",",
       "AveragePooling1D(padding='same') pools as 'valid' (its padding is not passed on)"),
    _t("max-pooling3d-data-format-dropped", "formula", "simdist/keras/layers/pooling3d.py",
       "        super().__init__(pool_size, strides, pool_dimensions=3, pool_mode=\"max\", padding=padding,\n"
       "                         data_format=data_format, name=name, **kwargs)\n",
       "        super().__init__(pool_size, strides, pool_dimensions=3, pool_mode=\"max\", padding=padding,\n"
       "                         data_format=None, name=name, **kwargs)\n",
       "MaxPooling3D(data_format='channels_first') pools as channels_last (its data_format is not passed on)"),
    _t("flatten-data-format-case-sensitive", "boundary", "simdist/keras/layers/reshaping.py",
       "        data_format = \"channels_last\" if data_format is None else str(data_format).lower()\n",
       "        data_format = \"channels_last\" if data_format is None else str(data_format)\n",
       "Flatten(data_format='Channels_First') is refused (Keras lower-cases the format)"),
    _t("zero-padding3d-shape-symmetric", "formula", "simdist/keras/layers/zero_padding3d.py",
       "                out[i + offset] += self.padding[i][0] + self.padding[i][1]\n",
       "                out[i + offset] += 2 * self.padding[i][0]\n",
       "ZeroPadding3D.compute_output_shape counts an asymmetric padding as twice its first side"),
    _t("zero-padding1d-zero-refused", "boundary", "simdist/keras/layers/upsampling_padding.py",
       "        self.padding = standardize_tuple(padding, 2, \"padding\", allow_zero=True)\n",
       "        self.padding = standardize_tuple(padding, 2, \"padding\")\n",
       "ZeroPadding1D(0) (and a zero side) is refused (Keras allows zero)"),
    _t("hashing-int-salt-half", "formula", "simdist/keras/layers/hashing.py",
       "                self.salt = [salt, salt]\n",
       "                self.salt = [salt, 0]\n",
       "Hashing(salt=<int>) keys its strong hash with [salt, 0] instead of [salt, salt]"),
    _t("mha-negative-attention-axes", "axis", "simdist/keras/layers/attention.py",
       "            self._attention_axes = tuple(a if a >= 0 else (rank - 1) + a for a in self._attention_axes)\n",
       "            self._attention_axes = tuple(a if a >= 0 else rank + a for a in self._attention_axes)\n",
       "MultiHeadAttention's negative attention_axes count from the projected rank instead of the input's"),
    _t("wrapper-non-layer-type-error", "error-class", "simdist/keras/layers/wrapper.py",
       "            raise ValueError(f\"Layer {layer} supplied to Wrapper isn't a supported layer type.",
       "            raise TypeError(f\"Layer {layer} supplied to Wrapper isn't a supported layer type.",
       "a Wrapper (TimeDistributed, Bidirectional...) of a non-layer raises TypeError (Keras: ValueError)"),
    _t("leaky-relu-layer-slope-not-passed", "formula", "simdist/keras/layers/activation_layers.py",
       "        return activations.leaky_relu(inputs, negative_slope=self.negative_slope)\n",
       "        return activations.leaky_relu(inputs)\n",
       "the LeakyReLU layer applies leaky_relu's default slope (0.2) instead of its own negative_slope (0.3)"),
    _t("elu-layer-alpha-not-passed", "formula", "simdist/keras/layers/activation_layers.py",
       "        return activations.elu(inputs, alpha=self.alpha)\n",
       "        return activations.elu(inputs)\n",
       "the ELU layer ignores its alpha (always 1.0)"),
    _t("category-encoding-zero-tokens-accepted", "boundary", "simdist/keras/layers/category_encoding.py",
       "        if num_tokens < 1:\n",
       "        if num_tokens < 0:\n",
       "CategoryEncoding(num_tokens=0) is accepted (Keras: ValueError, >= 1)"),
    # -- losses and metrics
    _t("loss-dtype-ignored", "dtype", "simdist/keras/losses/loss.py",
       "        self._dtype_policy = dtype_policies.get(dtype or config.floatx())\n",
       "        self._dtype_policy = dtype_policies.get(config.floatx())\n",
       "a Loss's dtype argument is ignored (its values always in floatx)"),
    _t("generalized-ce-q-one-accepted", "boundary", "simdist/keras/losses/probabilistic_losses.py",
       "        if not 0 < q < 1:\n",
       "        if not 0 < q <= 1:\n",
       "CategoricalGeneralizedCrossEntropy(q=1) is accepted (Keras: q in the open interval (0, 1))"),
    _t("specificity-at-sensitivity-class-id-dropped", "formula", "simdist/keras/metrics/sensitivity_specificity.py",
       "        super().__init__(sensitivity, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)\n",
       "        super().__init__(sensitivity, num_thresholds=num_thresholds, name=name, dtype=dtype)\n",
       "SpecificityAtSensitivity(class_id=...) scores every class (its class_id is not passed on)"),
    _t("auc-curve-lowercase-prgain-refused", "boundary", "simdist/keras/metrics/metrics_utils.py",
       "        if key in (\"prgain\", \"PRGAIN\"):\n",
       "        if key in (\"PRGAIN\",):\n",
       "AUC(curve='prgain') is refused (Keras accepts 'prgain' and 'PRGAIN')"),
    _t("pearson-axis-not-passed", "formula", "simdist/keras/metrics/correlation_metrics.py",
       "        super().__init__(fn=pearson_correlation, name=name, dtype=dtype, axis=axis)\n",
       "        super().__init__(fn=pearson_correlation, name=name, dtype=dtype)\n",
       "PearsonCorrelation(axis=...) correlates over the last axis (its axis is not passed to the function)"),
    _t("regression-pair-ranks-not-matched", "axis", "simdist/keras/losses/regression_losses.py",
       "    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)\n"
       "    return squeeze_or_expand_to_same_rank(y_true, y_pred)\n",
       "    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)\n"
       "    return y_true, y_pred\n",
       "the regression loss functions (log_cosh, huber, MAPE, MSLE, cosine_similarity) do not match y_true's and "
       "y_pred's ranks: labels (N,) against predictions (N, 1) broadcast to (N, N)"),
    # -- optimizers and schedules
    _t("optimizer-sparse-assign-sub-adds", "formula", "simdist/keras/optimizers/base_optimizer.py",
       "            variable.scatter_sub(value)\n",
       "            variable.scatter_add(value)\n",
       "Optimizer.assign_sub of IndexedSlices (a sparse gradient, e.g. SGD on an Embedding) adds its rows"),
    _t("muon-velocity-for-every-variable", "state", "simdist/keras/optimizers/muon.py",
       "            if self._should_use_adamw(var):\n"
       "                self.adam_velocities[index] = self.add_variable_from_reference(var, name=\"velocity\")\n",
       "            self.adam_velocities[index] = self.add_variable_from_reference(var, name=\"velocity\")\n",
       "Muon builds an Adam velocity for every variable, also those it updates with Muon (2-D+ kernels)"),
    _t("cosine-decay-steps-unchecked", "missing-error", "simdist/keras/optimizers/schedules.py",
       "        self.warmup_target = warmup_target\n"
       "        _check_steps(\"decay_steps\", decay_steps)\n",
       "        self.warmup_target = warmup_target\n",
       "CosineDecay(decay_steps=0) is accepted"),
    _t("lion-slot-name", "order", "simdist/keras/optimizers/lion.py",
       "        self._momentums = self.add_optimizer_variables(var_list, \"momentum\")\n",
       "        self._momentums = self.add_optimizer_variables(var_list, \"velocity\")\n",
       "Lion's slot variables are named '..._velocity' (Keras: '..._momentum'; a checkpoint's keys)"),
    # -- callbacks
    _t("model-checkpoint-batch-save-epoch-plus-one", "boundary", "simdist/keras/callbacks/model_checkpoint.py",
       "        self._current_epoch = epoch\n",
       "        self._current_epoch = epoch + 1\n",
       "ModelCheckpoint(save_freq=<int>) names its batch-end saves one epoch later ({epoch} of the epoch after)"),
    _t("callback-list-tuple-not-flattened", "boundary", "simdist/keras/callbacks/callback_list.py",
       "    if isinstance(callbacks, (list, tuple)):\n",
       "    if isinstance(callbacks, list):\n",
       "CallbackList (fit's callbacks) does not flatten a tuple of callbacks"),
    _t("reduce-lr-not-reset-on-train-begin", "state", "simdist/keras/callbacks/reduce_lr_on_plateau.py",
       "    def on_train_begin(self, logs: Any = None) -> None:\n"
       "        self._reset()\n",
       "    def on_train_begin(self, logs: Any = None) -> None:\n"
       "        pass\n",
       "ReduceLROnPlateau keeps its wait, cooldown and best from the previous fit"),
]
TRAINING += TRAINING_BATCH42
CATALOGUE += TRAINING_BATCH42

# -- Forty-second session: a forty-third blind batch (TRAINING_BATCH43, helper blind42b), written from the source
#    alone, before reading any suite test (docs/conformance.md, "Forty-second session: a forty-third blind batch").
#    Only the trainer (distribute_reduction_method before it is set, compile's missing-call error, PyDataset's
#    iteration, make_train_function's force, get_metrics_result's compiled metrics), op gradients (Real,
#    TensorScatterAdd's updates, BroadcastTo, Polygamma's broadcast, a non-square ResizeNearestNeighbor) and the
#    tape (duplicate primals, jvp's unconnected enum, an unknown unconnected_gradients, a SparseTensor source),
#    tf.function (a copy's shared traces, a variable-creating concrete function's count), tf.data (get_single_element
#    of a non-dataset, batch's drop_remainder of slices, len of an unknown cardinality, apply's result), checkpoints
#    and saving (a falsy root, a plain attribute over a dependency, the compile config's optimizer), distribution
#    (MirroredStrategy's duplicate devices, InputOptions' default, a sparse reduce's error) and random ops (uniform
#    int bounds, zero classes, categorical's dtype, SeedGenerator's seed); each a function no earlier mutant touched
#    (batch 42, blind42a's, takes the other training areas).
TRAINING_BATCH43: list[Mutant] = [
    # -- the trainer
    _t("distribute-reduction-method-unset-auto", "missing-error", "simdist/keras/trainers/trainer.py",
       "        return self._distribute_reduction_method or \"auto\"\n",
       "        return getattr(self, \"_distribute_reduction_method\", None) or \"auto\"\n",
       "Model.distribute_reduction_method read before it is set gives 'auto' (Keras 3.15's TF trainer: "
       "AttributeError, the attribute is never set)"),
    _t("assert-compile-called-runtime-error", "error-class", "simdist/keras/trainers/trainer.py",
       "            raise ValueError(\"You must call `compile()` before using the model.\")\n",
       "            raise RuntimeError(\"You must call `compile()` before using the model.\")\n",
       "fit/evaluate/train_on_batch of a model never compiled raise RuntimeError (Keras: ValueError)"),
    _t("py-dataset-iter-last-batch-dropped", "boundary", "simdist/keras/trainers/py_dataset.py",
       "                index_range = range(num_batches)\n",
       "                index_range = range(num_batches - 1)\n",
       "iterating a PyDataset (iter(ds)) stops one batch before its num_batches"),
    _t("train-function-force-ignored", "state", "simdist/keras/trainers/trainer.py",
       "        if self.train_function is not None and not force:\n            return self.train_function\n",
       "        if self.train_function is not None:\n            return self.train_function\n",
       "make_train_function(force=True) returns the cached train function instead of making a new one"),
    _t("get-metrics-result-dict-nested", "formula", "simdist/keras/trainers/trainer.py",
       "            if isinstance(result, dict):\n                out.update(result)\n            else:\n"
       "                out[metric.name] = result\n        return out\n",
       "            out[metric.name] = result\n        return out\n",
       "get_metrics_result() nests the compiled metrics' dict under 'compile_metrics' instead of merging it"),
    # -- op gradients
    _t("real-grad-imaginary-part", "order", "simdist/runtime/ops/complex_math.py",
       "    return [complex_(grad, _zeros(grad))]\n",
       "    return [complex_(_zeros(grad), grad)]\n",
       "the gradient of tf.math.real(z) is complex(0, grad) (TF's _RealGrad: complex(grad, 0))"),
    _t("tensor-scatter-add-grad-updates-none", "gradient", "simdist/runtime/ops/scatter.py",
       "    return [array.identity(grad), None, gather_nd(grad, op.inputs[1])]\n",
       "    return [array.identity(grad), None, None]\n",
       "tensor_scatter_nd_add gives its updates no gradient (TF: gather_nd(grad, indices))"),
    _t("broadcast-to-grad-not-reduced", "gradient", "simdist/runtime/ops/array.py",
       "    return [math.unbroadcast(grad, _in_shape(op))]\n",
       "    return [grad]\n",
       "BroadcastTo's gradient is not summed back to the input's shape"),
    _t("polygamma-grad-not-unbroadcast", "gradient", "simdist/runtime/ops/special.py",
       "    return [None, math.unbroadcast(grad * polygamma(n + 1, x), x.shape.as_list())]\n",
       "    return [None, grad * polygamma(n + 1, x)]\n",
       "polygamma's x gradient is not reduced over the axes x was broadcast on"),
    _t("resize-nearest-grad-size-swapped", "order", "simdist/runtime/ops/resize_nearest.py",
       "    return [dispatch.execute(RESIZE_NEAREST_GRAD, (grad,), {\"size\": (shp[1], shp[2]),\n",
       "    return [dispatch.execute(RESIZE_NEAREST_GRAD, (grad,), {\"size\": (shp[2], shp[1]),\n",
       "ResizeNearestNeighbor's gradient takes the image size as (width, height): wrong for a non-square image"),
    # -- the tape and forward accumulators
    _t("forward-accumulator-duplicate-primal-accepted", "missing-error", "simdist/runtime/autodiff/forwardprop.py",
       "            if id(p) in seen:   # (TF's text is never formatted)\n",
       "            if False:   # (TF's text is never formatted)\n",
       "ForwardAccumulator accepts a primal listed twice (TF: ValueError 'specified as a primal multiple times')"),
    _t("jvp-unconnected-zero-enum-ignored", "formula", "simdist/runtime/autodiff/forwardprop.py",
       "        zero = str(getattr(unconnected_gradients, \"value\", unconnected_gradients)).lower() == \"zero\"\n",
       "        zero = unconnected_gradients == \"zero\"\n",
       "ForwardAccumulator.jvp(unconnected_gradients=tf.UnconnectedGradients.ZERO) gives None (only the string works)"),
    _t("unconnected-gradients-unknown-accepted", "missing-error", TP,
       "    if v not in (UnconnectedGradients.NONE.value, UnconnectedGradients.ZERO.value):\n"
       "        raise ValueError(f\"Unknown value for unconnected_gradients: {value!r}\")\n",
       "    if v not in (UnconnectedGradients.NONE.value, UnconnectedGradients.ZERO.value):\n"
       "        v = UnconnectedGradients.NONE.value\n",
       "tape.gradient(unconnected_gradients='zeros') is taken as NONE (TF: ValueError 'Unknown value')"),
    _t("sparse-gradient-source-type-error", "error-class", "simdist/runtime/autodiff/gradient_args.py",
       "        raise ValueError(f\"Type {type(composite).__name__} is not supported as a gradient source or gradient target.\")\n",
       "        raise TypeError(f\"Type {type(composite).__name__} is not supported as a gradient source or gradient target.\")\n",
       "a SparseTensor as a tape's source or target is TypeError (TF: ValueError)"),
    # -- tf.function
    _t("function-copy-traces-not-shared", "state", "simdist/tf/_function.py",
       "        self.__dict__.setdefault(\"_trace_keys\", [])   # (shared from now on, as TF's cache is from the start)\n",
       "",
       "copy.copy of a tf.function never called yet does not share its tracing count with the original"),
    _t("concrete-function-creation-trace-uncounted", "boundary", "simdist/tf/_function.py",
       "        if self.__dict__.get(\"_first_created\") and creating is None:\n"
       "            self._count_trace(args, kwargs, _NO_CREATION_TRACE)\n",
       "",
       "get_concrete_function of a function that creates a variable counts one trace (TF traces twice)"),
    # -- tf.data
    _t("get-single-element-non-dataset-unchecked", "missing-error", "simdist/runtime/data/single_element.py",
       "    if not isinstance(dataset, DatasetV2):\n"
       "        raise TypeError(f\"Invalid `dataset`. Expected a `tf.data.Dataset` object but got {type(dataset)}.\")\n"
       "    return get_single_element(dataset)\n",
       "    return get_single_element(dataset)\n",
       "tf.data.experimental.get_single_element of a non-dataset fails inside (TF: TypeError 'Invalid `dataset`')"),
    _t("slice-batches-drop-full-last", "boundary", "simdist/runtime/data/batching.py",
       "    stop = n - n % size if drop else n\n",
       "    stop = n - size if drop else n\n",
       "batch(drop_remainder=True) of tensor slices drops the last batch even when it is full"),
    _t("len-unknown-cardinality-no-error", "missing-error", "simdist/runtime/data/dataset.py",
       "        if n == UNKNOWN_CARDINALITY:\n            raise TypeError(\"The dataset length is unknown.\")\n",
       "",
       "len() of a dataset of unknown cardinality is Python's ValueError for a negative __len__ (TF: TypeError "
       "'The dataset length is unknown.')"),
    _t("apply-non-dataset-accepted", "missing-error", "simdist/runtime/data/dataset.py",
       "        if not isinstance(out, DatasetV2):\n"
       "            raise TypeError(\"`transformation_func` must return a `tf.data.Dataset` object. \"\n"
       "                            f\"Got {type(out)}.\")\n",
       "",
       "Dataset.apply returns whatever its function returns (TF: TypeError for a non-dataset)"),
    # -- checkpoints and saving
    _t("checkpoint-falsy-root-refused", "boundary", "simdist/strategies/checkpoint.py",
       "        if root:   # (TF: `if root:`, so a falsy root is no root)\n",
       "        if root is not None:   # (TF: `if root:`, so a falsy root is no root)\n",
       "tf.train.Checkpoint(root=<falsy value>) checks it as a root (TF: `if root:`, a falsy root is no root)"),
    _t("checkpoint-getattr-dependency-first", "order", "simdist/strategies/checkpoint.py",
       "        for store in (\"_attrs\", \"_objects\"):\n",
       "        for store in (\"_objects\", \"_attrs\"):\n",
       "a Checkpoint attribute reassigned to a plain value reads back the earlier trackable dependency"),
    _t("compile-config-optimizer-unserialized", "state", "simdist/keras/models/keras_file.py",
       "    raw[\"optimizer\"] = model.optimizer\n",
       "",
       "a .keras file's compile_config keeps the optimizer as compile() was given it ('sgd') instead of the "
       "serialized optimizer"),
    # -- distribution
    _t("mirrored-duplicate-devices-raw-check", "formula", "simdist/strategies/mirrored.py",
       "            if len(set(devs)) != len(devs):\n",
       "            if len(set(devices)) != len(devices):\n",
       "MirroredStrategy checks its devices for duplicates before canonicalising them: '/cpu:0' and "
       "'/device:CPU:0' both pass (TF: AssertionError)"),
    _t("input-options-fetch-default-false", "state", "simdist/strategies/input.py",
       "        if experimental_fetch_to_device is None:\n            experimental_fetch_to_device = True\n",
       "        if experimental_fetch_to_device is None:\n            experimental_fetch_to_device = False\n",
       "tf.distribute.InputOptions() defaults experimental_fetch_to_device to False (TF: True)"),
    _t("reduce-sparse-axis-none-type-error", "error-class", "simdist/strategies/base.py",
       "    if where == \"reduce_no_axis\":\n        raise AttributeError(\"'SparseTensor' object has no attribute 'device'\")\n",
       "",
       "strategy.reduce(axis=None) of per-replica SparseTensors is TypeError (TF: AttributeError, .device)"),
    # -- random ops
    _t("uniform-int-equal-bounds-accepted", "boundary", "simdist/runtime/ops/random.py",
       "        if lo >= hi:\n"
       "            raise errors.InvalidArgumentError(None, None, f\"Need minval < maxval, got {lo} >= {hi} [Op:RandomUniformInt]\")\n",
       "        if lo > hi:\n"
       "            raise errors.InvalidArgumentError(None, None, f\"Need minval < maxval, got {lo} >= {hi} [Op:RandomUniformInt]\")\n",
       "tf.random.uniform(dtype=int32, minval=3, maxval=3) is accepted (TF: InvalidArgumentError 'Need minval < maxval')"),
    _t("categorical-zero-classes-accepted", "boundary", "simdist/runtime/ops/random.py",
       "    if classes is not None and classes <= 0:\n",
       "    if classes is not None and classes < 0:\n",
       "tf.random.categorical of logits with 0 classes is accepted (TF: InvalidArgumentError 'num_classes should be "
       "positive')"),
    _t("categorical-default-dtype-int32", "state", "simdist/runtime/ops/random.py",
       "    dt = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)\n",
       "    dt = dtypes.int32 if dtype is None else dtypes.as_dtype(dtype)\n",
       "tf.random.categorical's samples are int32 by default (TF: int64)"),
    _t("seed-generator-float-seed-accepted", "missing-error", "simdist/keras/random.py",
       "        if not isinstance(seed, int):   # (Keras 3.15: a NumPy integer is refused too)\n",
       "        if not isinstance(seed, (int, float)):   # (Keras 3.15: a NumPy integer is refused too)\n",
       "keras.random.SeedGenerator(1.5) is accepted (Keras: ValueError 'must be an integer')"),
]
TRAINING += TRAINING_BATCH43
CATALOGUE += TRAINING_BATCH43


# -- Forty-third session (2026-12-05), helper blind43b: a forty-fifth blind batch, written from simdist's source
# alone before reading any suite test, each in a function no earlier mutant touched (the trainer, op gradients and
# the tape, tf.function, tf.data, checkpoints and saving, distribution, random ops; docs/conformance.md).
TRAINING_BATCH45 = [
    # -- the trainer and its data adapters
    _t("static-batch-partial-ignored", "boundary", "simdist/keras/trainers/epoch_iterator.py",
       "        if not isinstance(a, ArrayDataAdapter) or a.has_partial_batch:\n",
       "        if not isinstance(a, ArrayDataAdapter):\n",
       "fit on arrays with a partial last batch traces a user's train_step with a static batch size (TF: None)"),
    _t("tf-dataset-unknown-cardinality-as-steps", "boundary", "simdist/keras/trainers/data_adapter.py",
       "        return None if card < 0 else card\n",
       "        return card\n",
       "a tf.data dataset of unknown cardinality (a filter) gives fit/evaluate -2 batches instead of None (iterate to "
       "the end)"),
    _t("floatx-tensor-float64-kept", "dtype", "simdist/keras/trainers/data_adapter.py",
       "    if isinstance(a, tf.Tensor):\n        return tf.cast(a, keras_config.floatx()) if _non_floatx_float(a.dtype) else a\n",
       "    if isinstance(a, tf.Tensor):\n        return a\n",
       "fit/predict's tf.Tensor inputs of float64 are not cast to floatx (NumPy arrays are)"),
    _t("py-dataset-no-super-queue-size", "state", "simdist/keras/trainers/py_dataset.py",
       "            self._max_queue_size, warn = 10, True\n",
       "            self._max_queue_size, warn = 1, True\n",
       "a PyDataset whose __init__ skips super().__init__() reads max_queue_size 1 (Keras: 10)"),
    # -- op gradients and the tape
    _t("tape-reenter-accepted", "missing-error", "simdist/runtime/autodiff/tape.py",
       "        if self._recording:\n            raise ValueError(\"Tape is still recording, This can happen",
       "        if False:\n            raise ValueError(\"Tape is still recording, This can happen",
       "re-entering a GradientTape that is still recording is accepted (TF: ValueError 'Tape is still recording')"),
    _t("hessians-flat-shape", "formula", "simdist/runtime/autodiff/graph_gradients.py",
       "array.zeros([0] + dims, x.dtype), dims + dims))\n",
       "array.zeros([0] + dims, x.dtype), [n, n]))\n",
       "tf.hessians of a matrix x has shape [n, n] (n = x's size) instead of x.shape + x.shape"),
    _t("forward-tangent-not-cast", "dtype", "simdist/runtime/autodiff/forwardprop.py",
       "            tan = convert_to_tensor(tangent, dtype=primal.dtype)\n",
       "            tan = convert_to_tensor(tangent)\n",
       "ForwardAccumulator converts a Python tangent with its default dtype (float32), not the primal's (float64)"),
    # -- tf.function
    _t("function-deepcopy-traced-accepted", "missing-error", "simdist/tf/_function.py",
       "        if self.__dict__.get(\"_trace_keys\") and (owner is None or id(owner) not in memo):\n",
       "        if False and (owner is None or id(owner) not in memo):\n",
       "copy.deepcopy of a traced tf.function succeeds (TF: TypeError \"cannot pickle 'FuncGraph' object\")"),
    _t("function-numpy-in-dict-kept", "state", "simdist/tf/_function.py",
       "    if type(x) is dict:\n        return any(_has_numpy(v) for v in x.values())\n    return False\n",
       "    return False\n",
       "a NumPy array inside a dict argument of a tf.function reaches the Python as an array (TF: a tensor)"),
    _t("function-decorator-signature-dropped", "state", "simdist/tf/_function.py",
       "        return lambda f: Function(f, input_signature, **options)\n",
       "        return lambda f: Function(f, None, **options)\n",
       "@tf.function(input_signature=...) as a decorator drops the signature"),
    # -- tf.data
    _t("range-two-args-shifted", "order", "simdist/runtime/data/dataset.py",
       "(0, ints[0], 1) if len(ints) == 1 else (ints + [1])[:3] if len(ints) == 2 else ints\n",
       "(0, ints[0], 1) if len(ints) == 1 else ([0] + ints)[:3] if len(ints) == 2 else ints\n",
       "Dataset.range(start, stop) takes its two arguments as (stop, step) from 0"),
    _t("from-generator-signature-and-types", "missing-error", "simdist/runtime/data/dataset.py",
       "            if output_types is not None or output_shapes is not None:\n",
       "            if False:\n",
       "from_generator(output_signature=..., output_types=...) is accepted (TF: TypeError)"),
    _t("skip-counts-errors", "order", "simdist/runtime/data/counting.py",
       "            if skipped < count:\n                run = 0   # (this call's Skip: counted once it completes)\n"
       "                while skipped + run < count:\n                    next(it)\n                    run += 1\n                skipped += run\n",
       "            while skipped < count:\n                next(it)\n                skipped += 1\n",
       "Dataset.skip(n) keeps the progress of a skip an input's error broke off (TF: that call's skipped elements "
       "are not counted, the next call skips count - i again)"),
    _t("window-zero-size-accepted", "boundary", "simdist/runtime/data/window.py",
       "            if v <= 0:\n",
       "            if v < 0:\n",
       "Dataset.window(0) (or shift/stride 0) is accepted (TF: InvalidArgumentError 'must be greater than zero')"),
    # -- checkpoints and saving
    _t("checkpoint-save-counter-int32", "dtype", "simdist/strategies/checkpoint.py",
       "        return Tensor(np.asarray(self._counter, dtype=np.int64), dtypes.int64)\n",
       "        return Tensor(np.asarray(self._counter, dtype=np.int32), dtypes.int32)\n",
       "Checkpoint.save_counter is int32 (TF: int64)"),
    _t("weights-h5-vars-numbered-from-one", "boundary", "simdist/keras/models/saving.py",
       "            for i, v in enumerate(own):\n                group[str(i)] = np.asarray(v)",
       "            for i, v in enumerate(own, 1):\n                group[str(i)] = np.asarray(v)",
       "save_weights numbers a layer's variables in the .weights.h5 file from 1 (Keras: from 0)"),
    _t("load-weights-unbuilt-accepted", "missing-error", "simdist/keras/models/saving.py",
       "    if not model.built:\n        raise ValueError(\"You are loading weights into a model that has not yet been built. Try building the model \"\n",
       "    if False:\n        raise ValueError(\"You are loading weights into a model that has not yet been built. Try building the model \"\n",
       "load_weights into a model that is not built is not refused (Keras: ValueError 'has not yet been built')"),
    _t("keras-file-metrics-list-not-deserialized", "state", "simdist/keras/models/keras_file.py",
       "            return [metric_of(v) for v in x]\n",
       "            return x\n",
       "a .keras file's list of compiled metrics is passed to compile() as configs, not deserialized metrics"),
    # -- distribution
    _t("replica-id-int64", "dtype", "simdist/strategies/base.py",
       "Tensor(np.asarray(rid, dtype=np.int32), dtypes.int32, self._device()))\n",
       "Tensor(np.asarray(rid, dtype=np.int64), dtypes.int64, self._device()))\n",
       "replica_id_in_sync_group is an int64 tensor in a replica (TF: int32)"),
    _t("update-group-false-not-tupled", "state", "simdist/strategies/base.py",
       "        return {k: _local_results(v) for k, v in value.items()}\n    return (value,)\n",
       "        return {k: _local_results(v) for k, v in value.items()}\n    return value\n",
       "extended.update(group=False) returns a lone result itself instead of a one-tuple"),
    # -- random ops
    _t("shuffle-two-rows-kept", "boundary", "simdist/runtime/ops/random.py",
       "    if a.size <= 1 or a.shape[0] <= 1:\n",
       "    if a.size <= 2 or a.shape[0] <= 2:\n",
       "tf.random.shuffle never shuffles two rows (and draws nothing for them)"),
    _t("uniform-tensor-bounds-no-subtract", "formula", "simdist/runtime/ops/random.py",
       "    lo_t = array.constant(lo, dtype=dt) if isinstance(lo, float) else lo\n"
       "    return math.add(math.multiply(r, math.subtract(hi_t, lo_t)), lo_t)\n",
       "    lo_t = array.constant(lo, dtype=dt) if isinstance(lo, float) else lo\n"
       "    return math.add(math.multiply(r, hi_t), lo_t)\n",
       "tf.random.uniform with array/tensor bounds computes rnd * maxval + minval"),
    _t("categorical-skip-floor", "formula", "simdist/runtime/ops/random.py",
       "    skip = rows * ((num_samples + 3) // 4 * 4 * 2) * philox_dists.RESERVED\n",
       "    skip = rows * (num_samples // 4 * 4 * 2) * philox_dists.RESERVED\n",
       "tf.random.categorical reserves its Philox outputs for whole groups of 4 samples only (a started group lost): "
       "the next draw repeats numbers"),
    _t("generator-normal-mean-stddev-swapped", "order", "simdist/runtime/ops/random_generator.py",
       "        rnd = dispatch.execute(NORMAL, (state,), {\"shape\": shp, \"dtype\": dt})\n"
       "        return add(multiply(rnd, s), m)\n\n    def truncated_normal(",
       "        rnd = dispatch.execute(NORMAL, (state,), {\"shape\": shp, \"dtype\": dt})\n"
       "        return add(multiply(rnd, m), s)\n\n    def truncated_normal(",
       "tf.random.Generator.normal scales by the mean and shifts by the stddev"),
    _t("stateless-categorical-seed-shape-unchecked", "missing-error", "simdist/runtime/ops/random.py",
       "    if s.dtype.is_integer and s.shape.as_list() != [2]:\n        raise seed_shape_error(s.shape.as_list())\n",
       "",
       "stateless_categorical of a seed not of shape [2] is not the seed's error"),
    _t("generator-state-shape-rank-only", "boundary", "simdist/runtime/ops/random_generator.py",
       "        if shape != [size]:\n",
       "        if len(shape) != 1:\n",
       "tf.random.Generator.reset(state of the wrong length) is accepted"),
    _t("generator-skip-returns-new", "order", "simdist/runtime/ops/random_generator.py",
       "        var.assign(dispatch.execute(SKIP, (old,), {\"alg\": self._alg, \"delta\": int(delta)}))\n        return old\n",
       "        var.assign(dispatch.execute(SKIP, (old,), {\"alg\": self._alg, \"delta\": int(delta)}))\n"
       "        return var.read_value()\n",
       "Generator.skip returns the state after the skip (TF: the state before)"),
    _t("train-steps-per-execution-ignored", "boundary", "simdist/keras/trainers/trainer.py",
       "            steps = range(self.steps_per_execution)\n",
       "            steps = range(1)\n",
       "fit's train function runs one step per execution whatever steps_per_execution says"),
    _t("take-counts-errors", "order", "simdist/runtime/data/counting.py",
       "            flat = next(it)\n            taken += 1\n            return flat\n",
       "            taken += 1\n            flat = next(it)\n            return flat\n",
       "Dataset.take(n) counts an element that raised an error as taken (TF: not counted)"),
    _t("distributed-get-next-in-replica-accepted", "missing-error", "simdist/strategies/input.py",
       "        if context.has_strategy() and context.get_replica_context() is not None:\n"
       "            raise ValueError(\"next(iterator) should be called from outside of replica_fn.",
       "        if False:\n"
       "            raise ValueError(\"next(iterator) should be called from outside of replica_fn.",
       "next() of a distributed iterator inside strategy.run's replica function is not refused (TF: ValueError)"),
]
TRAINING += TRAINING_BATCH45
CATALOGUE += TRAINING_BATCH45
# -- Forty-third session: a forty-fourth blind batch (TRAINING_BATCH44, helper blind43a), written from simdist's
#    source alone, before reading any suite test (docs/conformance.md, "Forty-third session, 2026-12-05: a
#    forty-fourth blind batch"). Only the Keras layers, losses and metrics, optimizers and schedules, and callbacks
#    (batch 45, blind43b's, takes the trainer, gradients, tf.function, tf.data, saving, distribution and random
#    ops); each in a function no earlier mutant touched.
TRAINING_BATCH44: list[Mutant] = [
    # -- Keras layers
    _t("cropping-channels-first-axes", "axis", "simdist/keras/layers/cropping.py",
       "        start = 2 if self.data_format == \"channels_first\" else 1\n",
       "        start = 1\n",
       "Cropping2D/3D(data_format='channels_first') crop from axis 1 (the channels) as in channels_last"),
    _t("upsampling3d-shape-first-size", "formula", "simdist/keras/layers/upsampling3d.py",
       "            out[axis] = None if out[axis] is None else self.size[i] * out[axis]\n",
       "            out[axis] = None if out[axis] is None else self.size[0] * out[axis]\n",
       "UpSampling3D.compute_output_shape scales every spatial axis by the first size"),
    _t("spectral-norm-zero-iterations-accepted", "boundary", "simdist/keras/layers/spectral_normalization.py",
       "        if power_iterations <= 0:\n",
       "        if power_iterations < 0:\n",
       "SpectralNormalization(power_iterations=0) is accepted (Keras: ValueError, greater than zero)"),
    _t("bidirectional-backward-name-strip", "formula", "simdist/keras/layers/bidirectional.py",
       "name=f\"backward_{_strip(layer.name, 'backward_')}\")",
       "name=f\"backward_{_strip(layer.name, 'forward_')}\")",
       "Bidirectional's backward copy of a layer named 'backward_x' is named 'backward_backward_x' (a copy-paste "
       "of the forward prefix)"),
    _t("embedding-zero-dim-accepted", "boundary", "simdist/keras/layers/core.py",
       "            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:\n",
       "            if not isinstance(value, int) or isinstance(value, bool) or value < 0:\n",
       "Embedding(input_dim=0) / output_dim=0 is accepted (Keras: ValueError, a positive integer)"),
    _t("layer-norm-axis-error-class", "error-class", "simdist/keras/layers/normalization.py",
       "            raise TypeError(\"Expected an int or a list/tuple of ints for the argument 'axis', but received: %r\"\n",
       "            raise ValueError(\"Expected an int or a list/tuple of ints for the argument 'axis', but received: %r\"\n",
       "LayerNormalization(axis='x') raises ValueError (Keras: TypeError)"),
    _t("attention-score-mode-case-folded", "missing-error", "simdist/keras/layers/dot_attention.py",
       "        if self.score_mode not in [\"dot\", \"concat\"]:\n",
       "        if self.score_mode.lower() not in [\"dot\", \"concat\"]:\n",
       "Attention(score_mode='DOT') is accepted (Keras: ValueError, exactly 'dot' or 'concat')"),
    _t("discretization-zero-bins-refused", "boundary", "simdist/keras/layers/discretization.py",
       "        if num_bins is not None and num_bins < 0:\n",
       "        if num_bins is not None and num_bins <= 0:\n",
       "Discretization(num_bins=0) is refused (Keras: only a negative num_bins)"),
    _t("upsampling2d-interpolation-case", "boundary", "simdist/keras/layers/upsampling_padding.py",
       "        self.interpolation = interpolation.lower()\n",
       "        self.interpolation = interpolation\n",
       "UpSampling2D(interpolation='Bilinear') keeps the capitalised name (Keras lower-cases it)"),
    _t("zero-padding2d-width-from-height", "axis", "simdist/keras/layers/upsampling_padding.py",
       "standardize_tuple(padding[1], 2, \"2nd entry of padding\", allow_zero=True))",
       "standardize_tuple(padding[0], 2, \"2nd entry of padding\", allow_zero=True))",
       "ZeroPadding2D(((t, b), (l, r))) pads the width by the height's pair"),
    _t("gqa-zero-sliding-window-accepted", "boundary", "simdist/keras/layers/grouped_query_attention.py",
       "(not isinstance(sliding_window, int) or sliding_window <= 0):\n",
       "(not isinstance(sliding_window, int) or sliding_window < 0):\n",
       "GroupedQueryAttention(sliding_window=0) is accepted (Keras: ValueError, None or a positive integer)"),
    _t("rnn-cell-zero-units-accepted", "boundary", "simdist/keras/layers/rnn_cells.py",
       "    if units <= 0:\n",
       "    if units < 0:\n",
       "SimpleRNNCell/LSTMCell/GRUCell(units=0) (and the layers) are accepted (Keras: ValueError)"),
    _t("lstm-cell-implementation-from-dropout", "formula", "simdist/keras/layers/rnn_cells.py",
       "        self.implementation = 1 if self.recurrent_dropout != 0.0 else implementation\n"
       "        if self.implementation == 1:\n            self.dropout_mask_count = 4\n",
       "        self.implementation = 1 if self.dropout != 0.0 else implementation\n"
       "        if self.implementation == 1:\n            self.dropout_mask_count = 4\n",
       "LSTMCell switches to implementation 1 on its input dropout instead of its recurrent_dropout"),
    _t("prelu-int-shared-axes-not-listed", "formula", "simdist/keras/layers/prelu.py",
       "            self.shared_axes = [shared_axes]\n",
       "            self.shared_axes = shared_axes\n",
       "PReLU(shared_axes=1) (an int) is kept as an int, not a list of one axis"),
    _t("lookup-oov-start-mask-any-mode", "boundary", "simdist/keras/layers/index_lookup.py",
       "        return 1 if self.mask_token is not None and self.output_mode == \"int\" else 0\n",
       "        return 1 if self.mask_token is not None else 0\n",
       "StringLookup/IntegerLookup with a mask_token reserve index 0 for it in every output_mode (Keras: only 'int')"),
    _t("resizing-shape-unbatched", "axis", "simdist/keras/layers/preprocessing/image/resizing.py",
       "    first = (1 if len(shape) == 4 else 0) + (1 if data_format == \"channels_first\" else 0)\n",
       "    first = 1 + (1 if data_format == \"channels_first\" else 0)\n",
       "Resizing/CenterCrop.compute_output_shape of an unbatched (rank-3) image replaces the wrong axes"),
    _t("category-encoding-one-hot-rank1-shape", "boundary", "simdist/keras/layers/category_encoding.py",
       "            if input_shape[-1] != 1 or len(input_shape) == 1:\n",
       "            if input_shape[-1] != 1:\n",
       "CategoryEncoding(output_mode='one_hot').compute_output_shape((1,)) drops the batch axis of one"),
    # -- losses and metrics
    _t("categorical-accuracy-matches-not-reshaped", "axis", "simdist/keras/metrics/accuracy_metrics.py",
       "    y_true = ops.argmax(y_true, axis=-1)\n    reshape_matches = False\n    y_pred = ops.convert_to_tensor(y_pred)\n"
       "    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)\n    y_true_org_shape = ops.shape(y_true)\n"
       "    if len(y_true.shape) == len(y_pred.shape):\n        y_true = ops.squeeze(y_true, -1)\n"
       "        reshape_matches = True\n",
       "    y_true = ops.argmax(y_true, axis=-1)\n    reshape_matches = False\n    y_pred = ops.convert_to_tensor(y_pred)\n"
       "    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)\n    y_true_org_shape = ops.shape(y_true)\n"
       "    if len(y_true.shape) == len(y_pred.shape):\n        y_true = ops.squeeze(y_true, -1)\n"
       "        reshape_matches = False\n",
       "categorical_accuracy of labels one rank above the predictions returns matches without the labels' shape"),
    _t("recall-at-precision-range-unchecked", "missing-error", "simdist/keras/metrics/sensitivity_specificity.py",
       "        _check_range(\"precision\", precision)\n        self.precision = precision\n",
       "        self.precision = precision\n",
       "RecallAtPrecision(precision=1.5) is accepted (Keras: ValueError, in [0, 1])"),
    _t("r2-negative-regressors-accepted", "missing-error", "simdist/keras/metrics/r2_score.py",
       "        if num_regressors < 0:\n",
       "        if num_regressors < -1:\n",
       "R2Score(num_regressors=-1) is accepted (Keras: ValueError, >= 0)"),
    _t("fbeta-sample-weight-ignored", "formula", "simdist/keras/metrics/f_score_metrics.py",
       "            if sample_weight is not None:\n                val = tf.multiply(val, tf.expand_dims(sample_weight, 1))\n",
       "            if sample_weight is not None:\n                pass\n",
       "FBetaScore/F1Score ignore their sample_weight"),
    _t("binary-accuracy-threshold-not-passed", "formula", "simdist/keras/metrics/accuracy_metrics.py",
       "        super().__init__(fn=binary_accuracy, name=name, dtype=dtype, threshold=threshold)\n",
       "        super().__init__(fn=binary_accuracy, name=name, dtype=dtype)\n",
       "BinaryAccuracy(threshold=...) thresholds at 0.5 (its threshold is not passed to the function)"),
    _t("bce-label-smoothing-not-passed", "formula", "simdist/keras/losses/losses.py",
       "        super().__init__(binary_crossentropy, name=name, reduction=reduction, dtype=dtype, from_logits=from_logits,\n"
       "                         label_smoothing=label_smoothing, axis=axis)\n",
       "        super().__init__(binary_crossentropy, name=name, reduction=reduction, dtype=dtype, from_logits=from_logits,\n"
       "                         axis=axis)\n",
       "BinaryCrossentropy(label_smoothing=...) computes without smoothing (not passed to the function)"),
    # -- optimizers and schedules
    _t("sgd-momentum-slots-always", "state", "simdist/keras/optimizers/sgd.py",
       "        if self.momentum != 0:\n",
       "        if self.momentum is not None:\n",
       "SGD without momentum builds momentum slots (its variables list grows by one per model variable)"),
    _t("loss-scale-optimizer-variables-no-inner", "state", "simdist/keras/optimizers/loss_scale_optimizer.py",
       "        return self._variables[:] + list(self.inner_optimizer.variables)\n",
       "        return self._variables[:]\n",
       "LossScaleOptimizer.variables leaves out the inner optimizer's variables"),
    _t("adamax-slot-name", "order", "simdist/keras/optimizers/adamax.py",
       "[\"momentum\", \"norm\"])",
       "[\"momentum\", \"velocity\"])",
       "Adamax's second slots are named '..._velocity' (Keras: '..._norm'; a checkpoint's keys)"),
    _t("optimizer-sparse-assign-add-overwrites", "formula", "simdist/keras/optimizers/base_optimizer.py",
       "            variable.scatter_add(value)\n        else:\n            variable.assign_add(value)\n",
       "            variable.scatter_update(value)\n        else:\n            variable.assign_add(value)\n",
       "Optimizer.assign_add of IndexedSlices overwrites the rows instead of adding"),
    # -- callbacks
    _t("swap-ema-starts-swapped", "state", "simdist/keras/callbacks/swap_ema_weights.py",
       "        self.swap_on_epoch = swap_on_epoch\n        self._ema_weights_in_model = False\n",
       "        self.swap_on_epoch = swap_on_epoch\n        self._ema_weights_in_model = True\n",
       "SwapEMAWeights starts as if the EMA weights were already in the model: evaluate runs on the trained "
       "weights and leaves the EMA weights in the model"),
    _t("callback-list-model-history-not-set", "state", "simdist/keras/callbacks/callback_list.py",
       "        if self._history:\n            model.history = self._history\n",
       "        if self._history:\n            pass\n",
       "CallbackList(add_history=True, model=m) does not set m.history to its History"),
    _t("model-checkpoint-epoch-end-epoch-plus-one", "boundary", "simdist/keras/callbacks/model_checkpoint.py",
       "            self._save_model(epoch=epoch, batch=None, logs=logs)\n",
       "            self._save_model(epoch=epoch + 1, batch=None, logs=logs)\n",
       "ModelCheckpoint(save_freq='epoch') names its saves one epoch late ({epoch} of the next epoch)"),
]
TRAINING += TRAINING_BATCH44
CATALOGUE += TRAINING_BATCH44
# -- Forty-fourth session: a forty-sixth blind batch (TRAINING_BATCH46, helper blind44a), written from simdist's
#    source alone, before reading any suite test (docs/conformance.md, "Forty-fourth session, 2026-12-05: a
#    forty-sixth blind batch"). Only the Keras layers, losses and metrics, optimizers and schedules, and callbacks
#    (batch 47, blind44b's, takes the trainer, gradients, tf.function, tf.data, saving, distribution and random
#    ops); each in a function no earlier mutant touched.
TRAINING_BATCH46: list[Mutant] = [
    # -- Keras layers
    _t("additive-attention-scale-unused", "formula", "simdist/keras/layers/dot_attention.py",
       "        return tf.reduce_sum((tf.cast(self.scale, t.dtype) * t) if self.use_scale else t, axis=-1)\n",
       "        return tf.reduce_sum(t, axis=-1)\n",
       "AdditiveAttention(use_scale=True) leaves its scale out of the scores"),
    _t("mha-scores-axes-swapped", "order", "simdist/keras/layers/attention.py",
       "    product = \"\".join([target[i] for i in batch_dims] + [target[i] for i in attn_axes] +\n"
       "                      [source[i] for i in attn_axes])\n",
       "    product = \"\".join([target[i] for i in batch_dims] + [source[i] for i in attn_axes] +\n"
       "                      [target[i] for i in attn_axes])\n",
       "MultiHeadAttention's scores put the key axes before the query axes (softmax over the queries)"),
    _t("permute-shape-off-by-one", "boundary", "simdist/keras/layers/permute.py",
       "        return (input_shape[0],) + tuple(input_shape[dim] for dim in self.dims)\n",
       "        return (input_shape[0],) + tuple(input_shape[dim - 1] for dim in self.dims)\n",
       "Permute.compute_output_shape reads the 1-based dims as 0-based"),
    _t("rms-norm-axes-not-sorted", "order", "simdist/keras/layers/rms_normalization.py",
       "            self.axis = sorted(self.axis)\n",
       "            self.axis = list(self.axis)\n",
       "RMSNormalization(axis=[2, 1]) keeps the axes unsorted: the scale's shape follows the given order"),
    _t("depthwise-channels-first-perm", "axis", "simdist/keras/layers/depthwise_separable.py",
       "    return tf.transpose(outputs, [0, rank - 1] + list(range(1, rank - 1)))\n",
       "    return tf.transpose(outputs, [0] + list(range(2, rank)) + [1])\n",
       "Depthwise/SeparableConv channels_first transposes the channels-last result back with the to-last permutation"),
    _t("upsampling1d-tiles", "formula", "simdist/keras/layers/upsampling_padding.py",
       "        return tf.repeat(inputs, self.size, axis=1)\n",
       "        return tf.tile(inputs, [1, self.size, 1])\n",
       "UpSampling1D tiles the sequence ([a, b, a, b]) instead of repeating each step ([a, a, b, b])"),
    _t("random-crop-shape-swapped", "axis", "simdist/keras/layers/preprocessing/image/random_crop.py",
       "        shape[self.height_axis] = self.height\n        shape[self.width_axis] = self.width\n",
       "        shape[self.height_axis] = self.width\n        shape[self.width_axis] = self.height\n",
       "RandomCrop.compute_output_shape swaps the height and the width"),
    _t("rnn-step-mask-rank", "boundary", "simdist/keras/layers/rnn_loop.py",
       "            for _ in range(rank - 1):\n",
       "            for _ in range(rank - 2):\n",
       "an RNN's per-step mask is expanded to one rank less than the state (masked steps broadcast wrongly)"),
    _t("normalization-invert-order", "formula", "simdist/keras/layers/normalization_adapt.py",
       "            return tf.add(self.mean, tf.multiply(inputs, denom))\n",
       "            return tf.multiply(tf.add(inputs, self.mean), denom)\n",
       "Normalization(invert=True) computes (x + mean) * std instead of mean + x * std"),
    _t("normalization-mean-rank-off-by-one", "boundary", "simdist/keras/layers/normalization_adapt.py",
       "            if len(np.shape(mean)) > len(self.axis):\n",
       "            if len(np.shape(mean)) >= len(self.axis):\n",
       "Normalization(mean=[..], variance=[..]) with one axis refuses a vector mean"),
    _t("cropping-zero-int-refused", "boundary", "simdist/keras/layers/cropping.py",
       "        if value < 0:\n",
       "        if value <= 0:\n",
       "Cropping2D(0)/Cropping3D(0)/ZeroPadding3D(0) (an int zero) is refused"),
    _t("elu-layer-alpha-dropped", "formula", "simdist/keras/layers/activation_layers.py",
       "    def __init__(self, alpha: float = 1.0, **kwargs: Any) -> None:\n        super().__init__(**kwargs)\n"
       "        self.alpha = alpha\n",
       "    def __init__(self, alpha: float = 1.0, **kwargs: Any) -> None:\n        super().__init__(**kwargs)\n"
       "        self.alpha = 1.0\n",
       "the ELU layer keeps alpha = 1.0 whatever alpha it is given"),
    _t("softmax-mask-one-refused", "boundary", "simdist/keras/layers/core.py",
       "        if m_dim is not None and i_dim is not None and m_dim != 1 and m_dim != i_dim:\n",
       "        if m_dim is not None and i_dim is not None and m_dim != i_dim:\n",
       "Softmax refuses a mask with a dimension of 1 that broadcasts"),
    _t("random-factor-lower-zero", "formula", "simdist/keras/layers/preprocessing/image/factors.py",
       "        return -factor, factor\n",
       "        return 0, factor\n",
       "RandomTranslation/RandomZoom/RandomRotation...(factor=f) read a single factor as [0, f] instead of [-f, f]"),
    _t("solarization-factor-one-refused", "boundary", "simdist/keras/layers/preprocessing/image/solarization.py",
       "        if x > 1.0 or x < 0:\n",
       "        if x >= 1.0 or x < 0:\n",
       "Solarization(addition_factor=1.0) (or threshold_factor=1.0) is refused"),
    _t("merge-batch-from-first-input", "formula", "simdist/keras/layers/merging.py",
       "        first = list(batch_sizes)[0] if len(batch_sizes) == 1 else None\n",
       "        first = None if input_shape[0] is None else input_shape[0][0]\n",
       "Add/Multiply/....compute_output_shape take the batch size of the first input only"),
    _t("gqa-mask-expand-axis", "axis", "simdist/keras/layers/grouped_query_attention.py",
       "                attention_mask = ops.expand_dims(attention_mask, axis=-3)\n"
       "        return self._softmax(scores, mask=attention_mask)\n",
       "                attention_mask = ops.expand_dims(attention_mask, axis=-2)\n"
       "        return self._softmax(scores, mask=attention_mask)\n",
       "GroupQueryAttention's masked softmax inserts the heads axis of the mask at -2"),
    # -- losses and metrics
    _t("precision-multi-threshold-first", "boundary", "simdist/keras/metrics/precision_recall.py",
       "        value = ops.divide_no_nan(tp, tf.add(tp, ops.convert_to_tensor(self._other_variable)))\n"
       "        return value[0] if len(self.thresholds) == 1 else value\n",
       "        value = ops.divide_no_nan(tp, tf.add(tp, ops.convert_to_tensor(self._other_variable)))\n"
       "        return value[0] if len(self.thresholds) >= 1 else value\n",
       "Precision/Recall(thresholds=[a, b]) return the first threshold's value only"),
    _t("auc-summation-case-folded", "missing-error", "simdist/keras/metrics/metrics_utils.py",
       "        if key in (\"majoring\", \"Majoring\"):\n",
       "        if key.lower() == \"majoring\":\n",
       "AUC(summation_method='MAJORING') is accepted (Keras: only 'majoring' and 'Majoring')"),
    _t("binary-iou-target-ids-dropped", "formula", "simdist/keras/metrics/iou_metrics.py",
       "        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name, dtype=dtype)\n",
       "        super().__init__(num_classes=2, target_class_ids=(0, 1), name=name, dtype=dtype)\n",
       "BinaryIoU(target_class_ids=[1]) averages over both classes"),
    _t("concordance-axis-not-passed", "formula", "simdist/keras/metrics/correlation_metrics.py",
       "        super().__init__(fn=concordance_correlation, name=name, dtype=dtype, axis=axis)\n",
       "        super().__init__(fn=concordance_correlation, name=name, dtype=dtype)\n",
       "ConcordanceCorrelation(axis=0) computes along the last axis (its axis is not passed to the function)"),
    _t("loss-wrapper-no-rank-match", "axis", "simdist/keras/losses/losses.py",
       "    def call(self, y_true: Any, y_pred: Any) -> Any:\n"
       "        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)\n",
       "    def call(self, y_true: Any, y_pred: Any) -> Any:\n",
       "the loss classes (MeanSquaredError, ...) do not match the ranks of (n,) labels and (n, 1) predictions"),
    _t("confusion-count-sample-weight-dropped", "formula", "simdist/keras/metrics/precision_recall.py",
       "            thresholds_distributed_evenly=self._thresholds_distributed_evenly, sample_weight=sample_weight)\n",
       "            thresholds_distributed_evenly=self._thresholds_distributed_evenly)\n",
       "TruePositives/FalsePositives/TrueNegatives/FalseNegatives ignore their sample_weight"),
    # -- optimizers and schedules
    _t("exponential-decay-steps-unchecked", "missing-error", "simdist/keras/optimizers/schedules.py",
       "                 name: str = \"ExponentialDecay\") -> None:\n        super().__init__()\n"
       "        self.initial_learning_rate = initial_learning_rate\n        self.decay_steps = decay_steps\n"
       "        self.decay_rate = decay_rate\n        self.staircase = staircase\n        self.name = name\n"
       "        _check_steps(\"decay_steps\", decay_steps)\n",
       "                 name: str = \"ExponentialDecay\") -> None:\n        super().__init__()\n"
       "        self.initial_learning_rate = initial_learning_rate\n        self.decay_steps = decay_steps\n"
       "        self.decay_rate = decay_rate\n        self.staircase = staircase\n        self.name = name\n",
       "ExponentialDecay(decay_steps=0) is accepted (Keras: ValueError)"),
    _t("lamb-slot-names-swapped", "order", "simdist/keras/optimizers/lamb.py",
       "        self._momentums, self._velocities = self.add_optimizer_variables(var_list, [\"momentum\", \"velocity\"])\n",
       "        self._momentums, self._velocities = self.add_optimizer_variables(var_list, [\"velocity\", \"momentum\"])\n",
       "Lamb's first moments are named '..._velocity' and its second '..._momentum'"),
    _t("optimizer-assign-sparse-adds", "formula", "simdist/keras/optimizers/base_optimizer.py",
       "        if isinstance(value, tf.IndexedSlices):\n            variable.scatter_update(value)\n"
       "        else:\n            variable.assign(value)\n",
       "        if isinstance(value, tf.IndexedSlices):\n            variable.scatter_add(value)\n"
       "        else:\n            variable.assign(value)\n",
       "Optimizer.assign of IndexedSlices adds to the rows instead of overwriting them"),
    _t("optimizer-add-variable-float32", "dtype", "simdist/keras/optimizers/base_optimizer.py",
       "        dtype = tf.as_dtype(dtype or config.floatx())   # Keras: an unspecified dtype is floatx\n",
       "        dtype = tf.as_dtype(dtype or \"float32\")   # Keras: an unspecified dtype is floatx\n",
       "Optimizer.add_variable without a dtype makes float32 whatever floatx is"),
    # -- callbacks
    _t("model-checkpoint-batch-save-no-logs", "formula", "simdist/keras/callbacks/model_checkpoint.py",
       "            self._save_model(epoch=self._current_epoch, batch=batch, logs=logs)\n",
       "            self._save_model(epoch=self._current_epoch, batch=batch, logs=None)\n",
       "ModelCheckpoint(save_freq=n)'s batch saves format the filepath without the batch's logs"),
    _t("progbar-auto-verbose-two", "boundary", "simdist/keras/callbacks/progbar_logger.py",
       "        if verbose == \"auto\":\n            verbose = 1\n",
       "        if verbose == \"auto\":\n            verbose = 2\n",
       "ProgbarLogger reads verbose='auto' as 2 (one line per epoch) instead of 1 (the progress bar)"),
    _t("csv-logger-no-header", "state", "simdist/keras/callbacks/csv_logger.py",
       "        self.keys: list[str] | None = None\n        self.append_header = True\n",
       "        self.keys: list[str] | None = None\n        self.append_header = False\n",
       "CSVLogger(append=False) writes no header line"),
]
TRAINING += TRAINING_BATCH46
CATALOGUE += TRAINING_BATCH46


# The forty-seventh blind batch (forty-fourth session, 2026-12-05, helper blind44b): 30 mutants written from
# simdist's source alone before reading any suite test, each in a function no earlier mutant touched, in the
# trainer, op gradients, the tape, tf.function, tf.data, checkpoints and saving, distribution and random ops.
TRAINING_BATCH47: list[Mutant] = [
    # -- the trainer and its data adapters
    _t("traced-batch-retrace-stays-static", "boundary", "simdist/keras/trainers/epoch_iterator.py",
       "        return static and len(traces) == 1\n",
       "        return static\n",
       "a second fit with another batch size traces the train_step with a static batch (TF's reduce_retracing: None)"),
    _t("py-dataset-num-batches-none-without-len", "missing-error", "simdist/keras/trainers/py_dataset.py",
       "            return len(self)\n        raise NotImplementedError(\"You need to implement the `num_batches` property",
       "            return len(self)\n        return None\n        raise NotImplementedError(\"You need to implement the `num_batches` property",
       "a PyDataset without __len__ or num_batches reads num_batches None (infinite) instead of NotImplementedError"),
    _t("py-dataset-shuffle-batch-ignored", "boundary", "simdist/keras/trainers/py_dataset.py",
       "        if self.shuffle:\n            indices = self._shuffled(indices)\n",
       "        if self.shuffle is True:\n            indices = self._shuffled(indices)\n",
       "fit(PyDataset, shuffle='batch') keeps the batches in order (Keras shuffles them for any truthy shuffle)"),
    _t("compile-metrics-dict-insertion-order", "order", "simdist/keras/trainers/compile_utils.py",
       "                output_names = sorted(y_pred.keys())\n",
       "                output_names = list(y_pred.keys())\n",
       "a list of metric lists against a dict of outputs is matched to the outputs in insertion order, not sorted"),
    _t("tf-dataset-empty-class-weight-ignored", "missing-error", "simdist/keras/trainers/data_adapter.py",
       "        if class_weight is not None:\n            dataset = dataset.map(make_class_weight_map_fn(class_weight))\n",
       "        if class_weight:\n            dataset = dataset.map(make_class_weight_map_fn(class_weight))\n",
       "fit(tf.data dataset, class_weight={}) skips the class-weight map instead of failing in it as Keras does"),
    # -- op gradients
    _t("dynamic-stitch-grad-index-shape", "formula", "simdist/runtime/ops/data_flow.py",
       "array.reshape(array.gather(grad, i), d.shape.as_list())",
       "array.reshape(array.gather(grad, i), i.shape.as_list())",
       "DynamicStitch's data gradients are reshaped to the indices' shape, dropping the data's trailing dimensions"),
    _t("ifft-grad-unscaled", "formula", "simdist/runtime/ops/fft.py",
       "        return [multiply(inverse_of(grad), rsize)]\n",
       "        return [inverse_of(grad)]\n",
       "the gradient of ifft (ifft2d, ifft3d) is fft(grad) without the 1/n"),
    _t("rfft-grad-parity-flipped", "formula", "simdist/runtime/ops/fft.py",
       "        is_even = ops.cast(convert_to_tensor(1 - (lengths[-1] % 2)), cdt)\n",
       "        is_even = ops.cast(convert_to_tensor(lengths[-1] % 2), cdt)\n",
       "rfft's gradient adds the Nyquist term for odd fft lengths instead of even ones"),
    _t("sparse-add-grad-swapped", "order", "simdist/runtime/ops/sparse_math.py",
       "    return [None, ga, None, None, gb, None, None]\n",
       "    return [None, gb, None, None, ga, None, None]\n",
       "tf.sparse.add's gradient gives a's values gradient to b and b's to a"),
    _t("max-pool-argmax-grad-batch-index-dropped", "state", "simdist/runtime/ops/morphology.py",
       "(\"ksize\", \"strides\", \"padding\", \"include_batch_in_index\")}",
       "(\"ksize\", \"strides\", \"padding\")}",
       "max_pool_with_argmax(include_batch_in_index=True)'s gradient reads the flat argmax as per-image indices"),
    _t("qr-grad-wide-dq-correction-missing", "formula", "simdist/runtime/ops/linalg_more.py",
       "    dx = square_and_deep(q, u, dq + _mm(y, dv, adjoint_b=True), du)\n",
       "    dx = square_and_deep(q, u, dq, du)\n",
       "the QR gradient of a wide matrix (m < n) forgets the correction of dq by Y dV^H"),
    # -- the tape and tf.gradients
    _t("jvp-transpose-unconnected-zero", "state", "simdist/runtime/autodiff/forwardprop.py",
       "                                     unconnected_gradients=UnconnectedGradients.NONE)\n",
       "                                     unconnected_gradients=UnconnectedGradients.ZERO)\n",
       "a forward accumulator's JVP of an op whose gradient ignores the upstream (sign) is zeros, not TF's None "
       "(simdist's rule until this session)"),
    _t("while-grad-max-iterations-off-by-one", "boundary", "simdist/runtime/autodiff/graph_gradients.py",
       "            while limit is None or k < limit:\n",
       "            while limit is None or k <= limit:\n",
       "tf.gradients through a tf.while_loop in a tf.function replays one iteration more than maximum_iterations"),
    _t("cond-grad-unconnected-branch-none", "state", "simdist/runtime/autodiff/graph_gradients.py",
       "                    out.append(array.zeros(like.shape.as_list(), like.dtype) if g is None else g)\n",
       "                    out.append(g)\n",
       "tf.gradients through a tf.cond whose taken branch does not use a source gives None (TF: zeros from the If)"),
    # -- tf.function
    _t("concrete-flat-call-off-by-one", "boundary", "simdist/tf/_concrete.py",
       "        if len(args) > len(kw):\n",
       "        if len(args) >= len(kw):\n",
       "a concrete function's flat call with exactly its tensor arguments is refused as too many"),
    _t("concrete-literal-nan-mismatch", "boundary", "simdist/tf/_concrete.py",
       "    if _is_nan(a) and _is_nan(b):\n        return True\n",
       "",
       "a concrete function traced with a NaN literal refuses NaN (TF's Literal.cast matches NaN to NaN)"),
    _t("function-numpy-kwargs-kept", "state", "simdist/tf/_function.py",
       "    return tuple(_as_tensor(a) for a in args), {k: _as_tensor(v) for k, v in kwargs.items()}\n",
       "    return tuple(_as_tensor(a) for a in args), kwargs\n",
       "a NumPy array passed to a tf.function by keyword reaches the Python as an array (TF: a tensor)"),
    # -- tf.data
    _t("filter-predicate-rank-unchecked", "missing-error", "simdist/runtime/data/map_filter.py",
       "spec.dtype == dtypes.bool_ and spec.shape.rank == 0):",
       "spec.dtype == dtypes.bool_):",
       "Dataset.filter accepts a predicate returning a bool vector (TF: ValueError, a scalar tf.bool is required)"),
    _t("zip-error-stops-inputs", "order", "simdist/runtime/data/combine.py",
       "                    error = error or e\n",
       "                    raise\n",
       "Dataset.zip raises an input's error before the later inputs give their element (they fall out of step)"),
    _t("iterator-get-next-stop-iteration", "error-class", "simdist/runtime/data/iterators.py",
       "            raise errors.OutOfRangeError(None, None, \"End of sequence\")\n",
       "            raise StopIteration\n",
       "iterator.get_next() at the end raises StopIteration (TF: OutOfRangeError)"),
    # -- checkpoints and saving
    _t("iterator-restore-one-short", "boundary", "simdist/runtime/data/iterators.py",
       "            for _ in range(produced):\n",
       "            for _ in range(produced - 1):\n",
       "a restored dataset iterator replays one element fewer than it had produced (gives the last one again)"),
    _t("save-container-items-by-layer-name", "state", "simdist/keras/models/saving.py",
       "_save(item, h5, _join(path, _unique(to_snake_case(type(item).__name__), used)), visited, written)",
       "_save(item, h5, _join(path, _unique(item.name, used)), visited, written)",
       "a layer in a list attribute is saved under its name in the weights file (Keras: its snake-cased class)"),
    _t("checkpoint-model-optimizer-dropped", "state", "simdist/strategies/checkpoint.py",
       "        if optimizer is not None:\n            yield from _walk(optimizer,",
       "        if False:\n            yield from _walk(optimizer,",
       "tf.train.Checkpoint(model=compiled_model) leaves out the model's optimizer (TF tracks the attribute)"),
    _t("keras-file-own-build-not-called", "state", "simdist/keras/models/keras_file.py",
       "    own_build = type(model).build not in (Layer.build, Model.build)\n",
       "    own_build = False\n",
       "load_model builds a subclassed model with its own build() by running call instead of calling build"),
    # -- distribution
    _t("all-gather-same-object-gathered", "state", "simdist/strategies/base.py",
       "            same = replica_batch.same_object_leaves(payloads, \"per_leaf\", not context.in_function())\n",
       "            same = [False] * len(leaves)\n",
       "all_gather of a tensor every replica passes as the same object concatenates the copies (TF: returned as is)"),
    _t("mirrored-replica-name-off-by-one", "boundary", "simdist/strategies/mirrored.py",
       "name=name if i == 0 else f\"{name}/replica_{i}\"",
       "name=name if i == 0 else f\"{name}/replica_{i + 1}\"",
       "MirroredStrategy names a variable's second copy v/replica_2 (TF: v/replica_1)"),
    _t("batch-reduce-shortcut-multi-value", "boundary", "simdist/strategies/cross_device_ops.py",
       "        if _all_devices_match(pairs) and len(pairs[0][0].values) == 1:\n",
       "        if _all_devices_match(pairs):\n",
       "CrossDeviceOps.batch_reduce returns several replicas' values unreduced when they sit on the destinations"),
    # -- random ops
    _t("truncated-normal-tensor-stddev-folded", "state", "simdist/runtime/ops/random.py",
       "    if not (_number(mean) and _number(stddev)):\n        return _moments_applied(TRUNCATED",
       "    if not _number(mean):\n        return _moments_applied(TRUNCATED",
       "truncated_normal folds a tensor stddev into the op as a number (no gradient flows to it)"),
    _t("poisson-default-dtype-int64", "dtype", "simdist/runtime/ops/random_gamma.py",
       "def poisson(shape: Any, lam: Any, dtype: Any = dtypes.float32,",
       "def poisson(shape: Any, lam: Any, dtype: Any = dtypes.int64,",
       "tf.random.poisson's default dtype is int64 (TF: float32)"),
    _t("generator-binomial-threefry-accepted", "missing-error", "simdist/runtime/ops/random_generator.py",
       "        if self._alg != 1:\n",
       "        if self._alg not in (1, 2):\n",
       "Generator.binomial of a ThreeFry generator draws (TF: InvalidArgumentError 'Unsupported algorithm id')"),
]
TRAINING += TRAINING_BATCH47
CATALOGUE += TRAINING_BATCH47


# -- Forty-fifth session: a forty-eighth blind batch (TRAINING_BATCH48, helper blind45a), written from simdist's
#    source alone, before reading any suite test (docs/conformance.md, "Forty-fifth session, 2026-12-05: a
#    forty-eighth blind batch"). Only the Keras layers, losses and metrics, optimizers and schedules, and callbacks
#    (batch 49, blind45b's, takes the trainer, gradients, tf.function, tf.data, saving, distribution and random
#    ops); each in a function no earlier mutant touched.
TRAINING_BATCH48: list[Mutant] = [
    # -- Keras layers
    _t("dot-two-vectors-squeezed-twice", "boundary", "simdist/keras/layers/dot.py",
       "    elif orig_y_ndim == 2:\n        result = tf.squeeze(result, -1)\n",
       "    if orig_y_ndim == 2:\n        result = tf.squeeze(result, -1)\n",
       "Dot of two rank-2 inputs squeezes both added axes: (batch,) instead of (batch, 1)"),
    _t("dot-mask-passed-on", "state", "simdist/keras/layers/dot.py",
       "    def compute_mask(self, inputs: Any, mask: Any = None) -> None:\n        return None\n",
       "    def compute_mask(self, inputs: Any, mask: Any = None) -> None:\n"
       "        return None if mask is None else mask[0]\n",
       "Dot passes its first input's mask on (Keras: Dot's output has no mask)"),
    _t("zero-padding1d-call-channels-first-steps", "axis", "simdist/keras/layers/upsampling_padding.py",
       "            return _pad(inputs, [(0, 0), (0, 0), self.padding])\n",
       "            return _pad(inputs, [(0, 0), self.padding, (0, 0)])\n",
       "ZeroPadding1D(data_format='channels_first') pads the channels axis instead of the steps"),
    _t("global-avg-pool1d-mask-passed-on", "state", "simdist/keras/layers/global_pooling1d.py",
       "    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:\n        return None\n",
       "    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:\n        return mask\n",
       "GlobalAveragePooling1D passes the (batch, steps) mask on to its pooled output"),
    _t("convlstm-return-state-shape-with-steps", "formula", "simdist/keras/layers/conv_lstm.py",
       "            batched_state_shape = (batch_size,) + state_shape\n",
       "            batched_state_shape = output_shape\n",
       "ConvLSTM(return_sequences=True, return_state=True).compute_output_shape gives the states the steps axis"),
    _t("convlstm-initial-state-channels-first-as-last", "axis", "simdist/keras/layers/conv_lstm.py",
       "            input_shape = (batch_size, self.input_dim) + self.spatial_dims\n",
       "            input_shape = (batch_size,) + self.spatial_dims + (self.input_dim,)\n",
       "ConvLSTMCell.get_initial_state builds channels_first states from a channels_last input shape"),
    _t("batch-norm-shape-axis-bound-off-by-one", "boundary", "simdist/keras/layers/normalization.py",
       "        for axis in [self.axis]:\n            if axis >= len(input_shape) or axis < -len(input_shape):\n",
       "        for axis in [self.axis]:\n            if axis > len(input_shape) or axis < -len(input_shape):\n",
       "BatchNormalization.compute_output_shape accepts an axis equal to the rank"),
    _t("random-flip-inference-not-cast", "dtype", "simdist/keras/layers/preprocessing/image/random_flip.py",
       "        images = self.backend.cast(images, self.compute_dtype)\n        if training:\n"
       "            return self._flip_inputs(images, transformation)\n",
       "        if training:\n            images = self.backend.cast(images, self.compute_dtype)\n"
       "            return self._flip_inputs(images, transformation)\n",
       "RandomFlip in inference returns integer images uncast (Keras casts to the compute dtype first)"),
    _t("lookup-vocabulary-mask-token-every-mode", "boundary", "simdist/keras/layers/index_lookup.py",
       "        if self.mask_token is not None and self.output_mode == \"int\":\n            vocab[0] = self.mask_token\n",
       "        if self.mask_token is not None:\n            vocab[0] = self.mask_token\n",
       "StringLookup/IntegerLookup.get_vocabulary() puts the mask token first in multi_hot/count modes too"),
    _t("lookup-idf-log-without-one", "formula", "simdist/keras/layers/index_lookup.py",
       "        return tf.math.log(1 + num_documents / (1 + token_document_counts))\n",
       "        return tf.math.log(num_documents / (1 + token_document_counts))\n",
       "the lookup layers' adapted tf_idf weights are log(n / (1 + df)) instead of log(1 + n / (1 + df))"),
    _t("lookup-output-shape-pad-to-max-ignored", "formula", "simdist/keras/layers/index_lookup.py",
       "            return input_shape\n        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size\n"
       "        input_shape = tuple(input_shape)\n",
       "            return input_shape\n        depth = self._frozen_vocab_size\n"
       "        input_shape = tuple(input_shape)\n",
       "the lookup layers' compute_output_shape ignores pad_to_max_tokens (the vocabulary size, not max_tokens)"),
    _t("discretization-int-output-int64", "dtype", "simdist/keras/layers/discretization.py",
       "        return self.compute_dtype if self.output_mode != \"int\" else \"int32\"\n",
       "        return self.compute_dtype if self.output_mode != \"int\" else \"int64\"\n",
       "Discretization(output_mode='int')'s symbolic output is int64 (Keras: int32)"),
    _t("attention-output-shape-query-dim", "axis", "simdist/keras/layers/dot_attention.py",
       "        return (*input_shape[0][:-1], input_shape[1][-1])\n",
       "        return (*input_shape[0][:-1], input_shape[0][-1])\n",
       "Attention/AdditiveAttention.compute_output_shape take the query's last dimension, not the value's"),
    _t("gqa-output-shape-dims-unchecked", "missing-error", "simdist/keras/layers/grouped_query_attention.py",
       "        if query_shape[-1] != value_shape[-1]:\n            raise ValueError(\"The last dimension of `query_shape` and "
       "`value_shape` must be equal, but are \"\n",
       "        if False:\n            raise ValueError(\"The last dimension of `query_shape` and "
       "`value_shape` must be equal, but are \"\n",
       "GroupedQueryAttention.compute_output_shape accepts a query and a value of different last dimensions"),
    _t("random-brightness-clip-fixed-range", "formula", "simdist/keras/layers/preprocessing/image/random_brightness.py",
       "        return self.backend.numpy.clip(images, self.value_range[0], self.value_range[1])\n",
       "        return self.backend.numpy.clip(images, 0, 255)\n",
       "RandomBrightness clips to [0, 255] whatever its value_range"),
    _t("reshape-target-shape-unchecked", "missing-error", "simdist/keras/layers/reshaping.py",
       "        target_shape = tuple(target_shape)\n        validate_reshape_shape(target_shape, \"target_shape\")\n",
       "        target_shape = tuple(target_shape)\n",
       "Reshape(target_shape) with two -1 entries (or a bad entry) is accepted at construction"),
    _t("rms-norm-layer-epsilon-dropped", "formula", "simdist/keras/layers/rms_normalization.py",
       "        return rms_normalization(x, scale=self.scale, axis=self.axis, epsilon=self.epsilon)\n",
       "        return rms_normalization(x, scale=self.scale, axis=self.axis)\n",
       "RMSNormalization(epsilon=e) normalises with the op's default epsilon"),
    _t("layer-norm-rms-scaling-dropped", "formula", "simdist/keras/layers/normalization.py",
       "        outputs = layer_normalization(inputs, self.gamma, self.beta, self.axis, self.epsilon,\n"
       "                                      rms_scaling=self.rms_scaling)\n",
       "        outputs = layer_normalization(inputs, self.gamma, self.beta, self.axis, self.epsilon)\n",
       "LayerNormalization(rms_scaling=True) centres its input as the plain layer norm does"),
    # -- losses and metrics
    _t("r2-score-rank-check-and", "missing-error", "simdist/keras/metrics/r2_score.py",
       "        if len(y_pred_shape) != 2 or len(y_true_shape) != 2:\n",
       "        if len(y_pred_shape) != 2 and len(y_true_shape) != 2:\n",
       "R2Score accepts a rank-1 y_true beside a rank-2 y_pred"),
    _t("confusion-flip-cumsum-exclusive", "boundary", "simdist/keras/metrics/metrics_utils.py",
       "    return tf.math.cumsum(x[..., ::-1], axis=-1)[..., ::-1]\n",
       "    return tf.math.cumsum(x[..., ::-1], axis=-1, exclusive=True)[..., ::-1]\n",
       "the evenly-spaced-thresholds confusion counts leave out each bucket's own count"),
    _t("cosine-similarity-metric-axis-dropped", "axis", "simdist/keras/metrics/regression_metrics.py",
       "        super().__init__(cosine_similarity, name, dtype=dtype, axis=axis)\n",
       "        super().__init__(cosine_similarity, name, dtype=dtype)\n",
       "the CosineSimilarity metric computes along the last axis whatever its axis"),
    _t("sensitivity-at-specificity-range-unchecked", "missing-error", "simdist/keras/metrics/sensitivity_specificity.py",
       "        _check_range(\"specificity\", specificity)\n        self.specificity = specificity\n",
       "        self.specificity = specificity\n",
       "SensitivityAtSpecificity(specificity=1.5) is accepted (Keras: ValueError)"),
    # -- optimizers and schedules
    _t("inverse-time-decay-steps-unchecked", "missing-error", "simdist/keras/optimizers/schedules.py",
       "                 name: str = \"InverseTimeDecay\") -> None:\n        super().__init__()\n"
       "        self.initial_learning_rate = initial_learning_rate\n        self.decay_steps = decay_steps\n"
       "        self.decay_rate = decay_rate\n        self.staircase = staircase\n        self.name = name\n"
       "        _check_steps(\"decay_steps\", decay_steps)\n",
       "                 name: str = \"InverseTimeDecay\") -> None:\n        super().__init__()\n"
       "        self.initial_learning_rate = initial_learning_rate\n        self.decay_steps = decay_steps\n"
       "        self.decay_rate = decay_rate\n        self.staircase = staircase\n        self.name = name\n",
       "InverseTimeDecay(decay_steps=0) is accepted (Keras: ValueError)"),
    _t("muon-nesterov-ignored", "formula", "simdist/keras/optimizers/muon.py",
       "        g = ops.add(gradient, self.momentum * m) if self.nesterov else m\n",
       "        g = m\n",
       "Muon's orthogonalised update ignores nesterov=True (the default): the momentum alone, not g + momentum * m"),
    _t("optimizer-ema-slot-name", "formula", "simdist/keras/optimizers/base_optimizer.py",
       "            self._model_variables_moving_average = self.add_optimizer_variables(variables, \"average\")\n",
       "            self._model_variables_moving_average = self.add_optimizer_variables(variables, \"moving_average\")\n",
       "use_ema=True names its averages '<var>_moving_average' (Keras: '<var>_average')"),
    _t("optimizer-scale-loss-divides", "formula", "simdist/keras/optimizers/base_optimizer.py",
       "        return loss * self.loss_scale_factor if self.loss_scale_factor is not None else loss\n",
       "        return loss / self.loss_scale_factor if self.loss_scale_factor is not None else loss\n",
       "Optimizer.scale_loss divides by loss_scale_factor instead of multiplying"),
    # -- callbacks
    _t("callback-list-end-without-begin-accepted", "missing-error", "simdist/keras/callbacks/callback_list.py",
       "        self._in_begin_end_block_count -= 1\n        if self._in_begin_end_block_count < 0:\n",
       "        self._in_begin_end_block_count -= 1\n        if False:\n",
       "CallbackList's on_train_end/on_test_end/on_predict_end without a begin are accepted"),
    _t("progbar-seen-off-by-one", "boundary", "simdist/keras/callbacks/progbar_logger.py",
       "        self.seen = batch + 1\n",
       "        self.seen = batch\n",
       "ProgbarLogger counts the batches seen one short (the bar's count, a predict's unknown target)"),
    _t("progbar-validation-end-finalized-in-fit", "state", "simdist/keras/callbacks/progbar_logger.py",
       "    def on_test_end(self, logs: Any = None) -> None:\n        if not self._called_in_fit:\n"
       "            self._finalize_progbar(logs)\n",
       "    def on_test_end(self, logs: Any = None) -> None:\n        self._finalize_progbar(logs)\n",
       "ProgbarLogger finalizes its bar at the end of fit's validation too"),
    _t("swap-ema-loss-scale-not-unwrapped", "state", "simdist/keras/callbacks/swap_ema_weights.py",
       "        optimizer = self.model.optimizer\n        if hasattr(optimizer, \"inner_optimizer\"):\n"
       "            optimizer = optimizer.inner_optimizer\n        if hasattr(optimizer, \"optimizers\"):\n",
       "        optimizer = self.model.optimizer\n        if hasattr(optimizer, \"optimizers\"):\n",
       "SwapEMAWeights does not look inside a LossScaleOptimizer for the EMA optimizer (ValueError)"),
]
TRAINING += TRAINING_BATCH48
CATALOGUE += TRAINING_BATCH48
# The forty-ninth blind batch (forty-fifth session, 2026-12-05, helper blind45b): 30 mutants written from
# simdist's source alone before reading any suite test, each in a function no earlier mutant touched, in the
# trainer, op gradients, the tape, tf.function, tf.data, checkpoints and saving, distribution and random ops.
TRAINING_BATCH49: list[Mutant] = [
    # -- the trainer and its data adapters
    _t("step-logs-first-replica", "state", "simdist/keras/trainers/trainer.py",
       "                return reduce_per_replica(outputs, self.distribute_strategy, reduction=\"auto\")\n",
       "                return reduce_per_replica(outputs, self.distribute_strategy, reduction=\"first\")\n",
       "fit's and evaluate's step logs take the first replica's values under a strategy (Keras: 'auto', the mean)"),
    _t("sample-weight-dict-outputs-insertion-order", "order", "simdist/keras/trainers/compile_utils.py",
       "            sw = _resolve_path(path, sample_weight) if nested_sw else sample_weight\n",
       "            sw = (sample_weight[list(y_pred)[sorted(y_pred).index(path[0])]] if isinstance(y_pred, dict)\n"
       "                  else _resolve_path(path, sample_weight)) if nested_sw else sample_weight\n",
       "a dict of sample weights against a dict of outputs is read in the outputs' insertion order, not sorted"),
    _t("loss-weights-list-packed-insertion-order", "order", "simdist/keras/trainers/compile_utils.py",
       "                loss_weights = tree.pack_sequence_as(loss, flat_loss_weights)\n",
       "                loss_weights = dict(zip(loss, flat_loss_weights)) if isinstance(loss, dict) \\\n"
       "                    else tree.pack_sequence_as(loss, flat_loss_weights)\n",
       "a list of loss_weights against a dict of losses is matched to the losses in insertion order, not sorted"),
    # -- op gradients
    _t("asinh-grad-reads-input", "gradient", "simdist/runtime/ops/special.py",
       "    return [grad / cosh(_conj(op.outputs[0]))]   # 1 / cosh(conj(y)), y = asinh(x)\n",
       "    return [grad / cosh(_conj(op.inputs[0]))]   # 1 / cosh(conj(y)), y = asinh(x)\n",
       "asinh's gradient divides by cosh(x) instead of cosh(asinh(x))"),
    _t("atan-grad-complex-unconjugated", "gradient", "simdist/runtime/ops/special.py",
       "    return [grad * reciprocal(one + square(_conj(x)))]   # (TF conjugates x: complex gradients)\n",
       "    return [grad * reciprocal(one + square(x))]   # (TF conjugates x: complex gradients)\n",
       "atan's gradient of a complex input uses x instead of conj(x)"),
    _t("erf-grad-constant-halved", "formula", "simdist/runtime/ops/special.py",
       "    two_over_root_pi = constant(2 / np.sqrt(np.pi), dtype=grad.dtype)\n",
       "    two_over_root_pi = constant(1 / np.sqrt(np.pi), dtype=grad.dtype)\n",
       "erf's gradient uses 1/sqrt(pi) instead of 2/sqrt(pi)"),
    _t("sparse-reduce-sum-grad-scale-shape", "formula", "simdist/runtime/ops/sparse_math.py",
       "    scale = math.floordiv(shape, kept_shape)\n",
       "    scale = kept_shape\n",
       "tf.sparse.reduce_sum's gradient maps each index to its reduced cell by the kept shape, not shape // kept"),
    # -- the tape
    _t("tape-slices-not-densified", "state", "simdist/runtime/autodiff/tape.py",
       "            if op.name not in _SLICES_THROUGH:\n                out_grads = _densify_slices(out_grads)\n",
       "",
       "the tape hands an IndexedSlices upstream gradient to every gradient function (TF densifies it first)"),
    _t("tape-records-stop-gradient", "state", "simdist/runtime/autodiff/tape.py",
       "        if op.name == \"StopGradient\" or not self.should_record(tensors):\n",
       "        if not self.should_record(tensors):\n",
       "the tape records StopGradient, so ops after it (a Unique, without a gradient) are walked (TF: never)"),
    _t("pop-tape-unrecorded-accepted", "missing-error", "simdist/runtime/autodiff/tape.py",
       "    def _pop_tape(self) -> None:\n        if not self._recording:\n            raise ValueError(\"Tape is not recording.\")\n",
       "    def _pop_tape(self) -> None:\n",
       "GradientTape.reset() outside its `with` is accepted (TF: ValueError 'Tape is not recording.')"),
    # -- tf.function and concrete functions
    _t("returned-constant-error-class", "error-class", "simdist/tf/_function.py",
       "            return convert_to_tensor(out)\n    except (ValueError, TypeError):\n        raise TypeError(",
       "            return convert_to_tensor(out)\n    except (ValueError, TypeError):\n        raise ValueError(",
       "a tf.function returning a Python value no tensor holds raises ValueError (TF: TypeError)"),
    _t("concrete-call-dtype-kind-only", "dtype", "simdist/tf/_concrete.py",
       "            if _is_spec(spec) and _as_tensor(v) is not None and _as_tensor(v).dtype != spec.dtype:\n",
       "            if _is_spec(spec) and _as_tensor(v) is not None and "
       "_as_tensor(v).dtype.is_floating != spec.dtype.is_floating:\n",
       "a concrete function of a float32 spec accepts a float64 tensor (TF: InvalidArgumentError)"),
    _t("concrete-shape-text-no-trailing-comma", "boundary", "simdist/tf/_concrete.py",
       "\", \".join(\"None\" if d is None else str(d) for d in dims) + (\",\" if len(dims) == 1 else \"\") + \")\"",
       "\", \".join(\"None\" if d is None else str(d) for d in dims) + \")\"",
       "a concrete function's signature text writes a one-dimensional shape as (3) (TF: (3,))"),
    # -- tf.data
    _t("batch-slices-drop-remainder-ignored", "boundary", "simdist/runtime/data/batching.py",
       "            # step per row.\n            return _slice_batches(src._arrays, size, drop)\n",
       "            # step per row.\n            return _slice_batches(src._arrays, size, False)\n",
       "batch(drop_remainder=True) of from_tensor_slices keeps the partial last batch (its fast path)"),
    _t("shuffle-epoch-counted-first", "boundary", "simdist/runtime/data/shuffle.py",
       "            made[id(node)] = node._epoch\n            node._epoch += 1\n",
       "            node._epoch += 1\n            made[id(node)] = node._epoch\n",
       "Dataset.shuffle seeds its first pass as the second (the epoch counted before it is read)"),
    _t("window-shift-stride-swapped", "order", "simdist/runtime/data/window.py",
       "        size, shift, stride, drop = p[\"size\"], p[\"shift\"], p[\"stride\"], p[\"drop_remainder\"]\n",
       "        size, stride, shift, drop = p[\"size\"], p[\"shift\"], p[\"stride\"], p[\"drop_remainder\"]\n",
       "Dataset.window reads shift as stride and stride as shift"),
    _t("optional-get-value-out-of-range", "error-class", "simdist/runtime/data/iterators.py",
       "            raise errors.InvalidArgumentError(None, None, \"The given optional does not have a value.\")\n",
       "            raise errors.OutOfRangeError(None, None, \"The given optional does not have a value.\")\n",
       "an empty Optional's get_value raises OutOfRangeError (TF: InvalidArgumentError)"),
    _t("range-step-zero-value-error", "error-class", "simdist/runtime/data/sources.py",
       "            raise errors.InvalidArgumentError(None, None, \"step must be a non-zero integer.\")\n",
       "            raise ValueError(\"step must be a non-zero integer.\")\n",
       "Dataset.range with step 0 raises ValueError (TF: InvalidArgumentError)"),
    # -- checkpoints and saving
    _t("load-variable-colon-zero-kept", "boundary", "simdist/strategies/checkpoint_reader.py",
       "    if name.endswith(\":0\"):\n        name = name[:-2]\n",
       "",
       "tf.train.load_variable looks a name ending in ':0' up as it is (TF drops the ':0')"),
    _t("reader-scalar-as-array", "dtype", "simdist/strategies/checkpoint_reader.py",
       "        return value[()] if value.ndim == 0 else value.copy()\n",
       "        return value.copy()\n",
       "CheckpointReader.get_tensor of a scalar returns a 0-d ndarray (TF: a NumPy scalar)"),
    _t("checkpoint-state-all-paths-relative", "state", "simdist/strategies/checkpoint_reader.py",
       "            ckpt.all_model_checkpoint_paths[i] = os.path.join(checkpoint_dir, p)\n",
       "            pass\n",
       "get_checkpoint_state leaves all_model_checkpoint_paths relative (TF joins them to the directory)"),
    _t("load-container-class-name-lowered", "state", "simdist/keras/models/saving.py",
       "            _load(item, h5, _join(path, _unique(to_snake_case(type(item).__name__), used)), visited, ctx)\n",
       "            _load(item, h5, _join(path, _unique(type(item).__name__.lower(), used)), visited, ctx)\n",
       "load_weights looks a list attribute's layer up under its lower-cased class name (saved snake_cased)"),
    # -- distribution
    _t("mirrored-slice-assign-every-copy", "state", "simdist/strategies/dist_variables.py",
       "        return self._values[rid if rid is not None else 0]._slice_assign(key, value, name)\n",
       "        if rid is None:\n            return [c._slice_assign(key, value, name) for c in self._values][0]\n"
       "        return self._values[rid]._slice_assign(key, value, name)\n",
       "a MirroredVariable's slice assign in cross-replica context writes every copy (TF: the first only)"),
    _t("sync-on-read-replica-reads-first", "state", "simdist/strategies/sync_on_read.py",
       "            return self._cross_replica_value()\n        return self._values[rid]._as_tensor()\n",
       "            return self._cross_replica_value()\n        return self._values[0]._as_tensor()\n",
       "a sync-on-read variable read in a replica reads the first replica's copy, not its own"),
    _t("update-group-false-ignored", "state", "simdist/strategies/base.py",
       "        result, flops = run_update(device, fn, var, *args, **kwargs)\n        timing.charge_updates([(device or context.current_device(), flops)])\n        return result if group else _local_results(result)\n",
       "        result, flops = run_update(device, fn, var, *args, **kwargs)\n        timing.charge_updates([(device or context.current_device(), flops)])\n        return result\n",
       "the default and one-device strategies' extended.update(group=False) returns the result, not its tuple"),
    _t("distributed-input-one-replica-wrapped", "boundary", "simdist/strategies/input.py",
       "        self._wrap = multi_worker or len(pipes) * len(pipes[0].devices) > 1\n",
       "        self._wrap = multi_worker or len(pipes) * len(pipes[0].devices) >= 1\n",
       "a distributed dataset of a one-replica strategy gives PerReplica elements (TF: plain tensors)"),
    # -- random ops
    _t("generator-alg-name-case-sensitive", "missing-error", "simdist/runtime/ops/random_generator.py",
       "        canon = alg.strip().lower().replace(\"-\", \"\").replace(\"_\", \"\")\n",
       "        canon = alg.strip().replace(\"-\", \"\").replace(\"_\", \"\")\n",
       "a Generator's algorithm name is matched case-sensitively ('PHILOX' refused; TF lower-cases it)"),
    _t("generator-skip-unscaled", "formula", "simdist/runtime/ops/random_generator.py",
       "    c = philox.skipped(s[0] | (s[1] << 64), 256 * int(delta))\n",
       "    c = philox.skipped(s[0] | (s[1] << 64), int(delta))\n",
       "Generator.skip(n) advances the Philox counter by n instead of 256 n (RngReadAndSkip's unit)"),
    _t("gamma-alpha-grad-axes-off-by-one", "axis", "simdist/runtime/ops/random_gamma.py",
       "    return math.reduce_sum(grad * partial, axis=list(range(sample_dims)))\n",
       "    return math.reduce_sum(grad * partial, axis=list(range(sample_dims + 1)))\n",
       "the gradient of tf.random.gamma with respect to alpha also sums over alpha's first dimension"),
    _t("random-shape-scalar-tensor-accepted", "missing-error", "simdist/runtime/ops/random.py",
       "    scalar = (isinstance(shape, (int, np.integer)) and not isinstance(shape, bool)) or \\\n"
       "        (isinstance(shape, (Tensor, np.ndarray)) and shape.ndim == 0)\n",
       "    scalar = isinstance(shape, (int, np.integer)) and not isinstance(shape, bool)\n",
       "a random op's scalar tensor or 0-d array shape is taken as a vector (TF: InvalidArgumentError)"),
]
TRAINING += TRAINING_BATCH49
CATALOGUE += TRAINING_BATCH49
# -- Forty-sixth session: a fiftieth blind batch (TRAINING_BATCH50, helper blind46a), written from simdist's
#    source alone, before reading any suite test (docs/conformance.md, "Forty-sixth session, 2026-12-05: a
#    fiftieth blind batch"). Only the Keras layers, losses and metrics, optimizers and schedules, and callbacks
#    (batch 51, blind46b's, takes the trainer, gradients, tf.function, tf.data, saving, distribution and random
#    ops); each in a function no earlier mutant touched.
TRAINING_BATCH50: list[Mutant] = [
    # -- Keras layers
    _t("conv-transpose-shape-strides-as-dilation", "order", "simdist/keras/layers/conv_transpose.py",
       "                                                self.padding, self.output_padding, self.data_format,\n"
       "                                                self.dilation_rate))\n",
       "                                                self.padding, self.output_padding, self.data_format,\n"
       "                                                self.strides))\n",
       "a transposed convolution's compute_output_shape passes strides as the dilation rate"),
    _t("conv1d-causal-padded-then-same", "state", "simdist/keras/layers/convolutional.py",
       "            inputs = tf.pad(inputs, tf.constant(self._compute_causal_padding(), \"int32\"), \"CONSTANT\")\n"
       "            padding = \"valid\"\n",
       "            inputs = tf.pad(inputs, tf.constant(self._compute_causal_padding(), \"int32\"), \"CONSTANT\")\n"
       "            padding = \"same\"\n",
       "Conv1D(padding='causal') convolves its left-padded input with 'same' padding (a longer output)"),
    _t("cropping-shape-start-crop-only", "boundary", "simdist/keras/layers/cropping.py",
       "                out[axis] -= sum(crop)\n",
       "                out[axis] -= crop[0]\n",
       "Cropping2D/3D's compute_output_shape subtracts only the start crop of each axis"),
    _t("depthwise-shape-multiplier-dropped", "state", "simdist/keras/layers/depthwise_separable.py",
       "        return self._output_shape(input_shape, self.depth_multiplier * self._input_channel(input_shape))\n",
       "        return self._output_shape(input_shape, self._input_channel(input_shape))\n",
       "DepthwiseConv2D's compute_output_shape forgets depth_multiplier (the input's channels only)"),
    _t("relu-layer-threshold-dropped", "state", "simdist/keras/layers/core.py",
       "        return activations.relu(inputs, negative_slope=self.negative_slope, max_value=self.max_value,\n"
       "                                threshold=self.threshold)\n",
       "        return activations.relu(inputs, negative_slope=self.negative_slope, max_value=self.max_value)\n",
       "the ReLU layer ignores its threshold"),
    _t("upsampling1d-shape-channels-axis", "axis", "simdist/keras/layers/upsampling_padding.py",
       "        return [input_shape[0], _times(self.size, input_shape[1]), input_shape[2]]\n",
       "        return [input_shape[0], input_shape[1], _times(self.size, input_shape[2])]\n",
       "UpSampling1D's compute_output_shape repeats the channels axis instead of the steps"),
    _t("stacked-cells-state-size-reversed", "order", "simdist/keras/layers/stacked_rnn_cells.py",
       "        return [c.state_size for c in self.cells]\n",
       "        return [c.state_size for c in self.cells[::-1]]\n",
       "StackedRNNCells.state_size lists the cells' state sizes last cell first (tf.keras 1's reverse order)"),
    _t("rnn-cell-initial-state-variable-dtype", "dtype", "simdist/keras/layers/rnn_cells.py",
       "        return [tf.zeros((batch_size, d), dtype=self.compute_dtype) for d in sizes]\n",
       "        return [tf.zeros((batch_size, d), dtype=self.variable_dtype) for d in sizes]\n",
       "an RNN cell's initial state takes the variable dtype (float32 under mixed_float16, not float16)"),
    _t("hashing-one-hot-squeeze-batch-axis", "axis", "simdist/keras/layers/hashing.py",
       "        if self.output_mode == \"one_hot\" and inputs.shape[-1] == 1:\n",
       "        if self.output_mode == \"one_hot\" and inputs.shape[0] == 1:\n",
       "Hashing(output_mode='one_hot') squeezes a trailing axis of 1 only when the batch is 1"),
    _t("lookup-vocabulary-size-without-specials", "boundary", "simdist/keras/layers/index_lookup.py",
       "        return int(self.lookup_table.size().numpy()) + self._token_start_index()\n",
       "        return int(self.lookup_table.size().numpy())\n",
       "the lookup layers' vocabulary_size() leaves out the mask and OOV indices"),
    _t("unit-norm-axis-type-valueerror", "error-class", "simdist/keras/layers/unit_normalization.py",
       "            raise TypeError(f\"Invalid value for `axis` argument:",
       "            raise ValueError(f\"Invalid value for `axis` argument:",
       "UnitNormalization refuses an axis of another type with ValueError (Keras: TypeError)"),
    _t("cropping1d-zero-crop-refused", "boundary", "simdist/keras/layers/cropping1d.py",
       "        self.cropping = standardize_tuple(cropping, 2, \"cropping\", allow_zero=True)\n",
       "        self.cropping = standardize_tuple(cropping, 2, \"cropping\")\n",
       "Cropping1D refuses a crop of 0 at one end ((0, 2): ValueError)"),
    _t("avg-pool2d-strides-dropped", "state", "simdist/keras/layers/pooling.py",
       "        super().__init__(pool_size, strides, pool_dimensions=2, pool_mode=\"average\", padding=padding,\n",
       "        super().__init__(pool_size, None, pool_dimensions=2, pool_mode=\"average\", padding=padding,\n",
       "AveragePooling2D ignores its strides (the pool size always)"),
    _t("additive-attention-scale-scalar", "state", "simdist/keras/layers/dot_attention.py",
       "            self.scale = self.add_weight(name=\"scale\", shape=[dim], initializer=\"glorot_uniform\", dtype=self.dtype,\n",
       "            self.scale = self.add_weight(name=\"scale\", shape=(), initializer=\"glorot_uniform\", dtype=self.dtype,\n",
       "AdditiveAttention(use_scale=True)'s scale is a scalar (Keras: one per feature, shape [dim])"),
    _t("input-layer-batch-size-with-batch-shape-accepted", "missing-error", "simdist/keras/layers/core.py",
       "            if batch_size is not None and batch_shape is not None:\n"
       "                raise ValueError(\"You cannot pass both `batch_size` and `batch_shape` at the same time.\")\n",
       "",
       "InputLayer accepts batch_size together with batch_shape (Keras: ValueError)"),
    _t("convlstm-strides-dilation-check-min", "boundary", "simdist/keras/layers/conv_lstm.py",
       "        if max(self.strides) > 1 and max(self.dilation_rate) > 1:\n",
       "        if min(self.strides) > 1 and min(self.dilation_rate) > 1:\n",
       "ConvLSTM refuses strides > 1 with dilation_rate > 1 only when every axis has both"),
    _t("hashed-crossing-int-dtype-default-dropped", "dtype", "simdist/keras/layers/hashed_crossing.py",
       "        if output_mode == \"int\" and dtype is None:\n            dtype = \"int64\"\n",
       "",
       "HashedCrossing(output_mode='int') without a dtype outputs the float policy's dtype, not int64"),
    _t("noise-amount-unchecked", "missing-error", "simdist/keras/layers/noise.py",
       "        super().__init__(**kwargs)\n        _check_unit(amount_name, amount)\n",
       "        super().__init__(**kwargs)\n",
       "GaussianNoise and GaussianDropout accept an amount outside [0, 1] (Keras: ValueError)"),
    # -- losses and metrics
    _t("losses-mean-float16-not-cast-back", "dtype", "simdist/keras/losses/_ops.py",
       "        return tf.cast(tf.reduce_mean(tf.cast(x, tf.float32), axis=axis, keepdims=keepdims), x.dtype)\n",
       "        return tf.reduce_mean(tf.cast(x, tf.float32), axis=axis, keepdims=keepdims)\n",
       "the losses' mean of float16 values stays float32 (Keras casts it back to float16)"),
    _t("auc-thresholds-without-endpoints", "boundary", "simdist/keras/metrics/confusion_metrics.py",
       "        return list(self._thresholds)\n",
       "        return list(self._thresholds[1:-1])\n",
       "AUC.thresholds leaves out the two end thresholds (-epsilon and 1 + epsilon)"),
    _t("fbeta-reset-skips-last-variable", "state", "simdist/keras/metrics/f_score_metrics.py",
       "        for v in self.variables:\n            v.assign(tf.zeros(v.shape, dtype=v.dtype))\n",
       "        for v in self.variables[:-1]:\n            v.assign(tf.zeros(v.shape, dtype=v.dtype))\n",
       "FBetaScore.reset_state leaves its last variable (the weighted average's weights) unreset"),
    _t("iou-sparse-flags-swapped", "order", "simdist/keras/metrics/iou_metrics.py",
       "        self.sparse_y_true = sparse_y_true\n        self.sparse_y_pred = sparse_y_pred\n",
       "        self.sparse_y_true = sparse_y_pred\n        self.sparse_y_pred = sparse_y_true\n",
       "the IoU metrics swap sparse_y_true and sparse_y_pred"),
    _t("confusion-count-single-threshold-vector", "boundary", "simdist/keras/metrics/precision_recall.py",
       "        value = ops.convert_to_tensor(self.accumulator)\n"
       "        return value[0] if len(self.thresholds) == 1 else value\n",
       "        value = ops.convert_to_tensor(self.accumulator)\n        return value\n",
       "TruePositives/FalsePositives/... with one threshold return a vector of one, not a scalar"),
    _t("precision-at-recall-range-unchecked", "missing-error", "simdist/keras/metrics/sensitivity_specificity.py",
       "        _check_range(\"recall\", recall)\n        self.recall = recall\n",
       "        self.recall = recall\n",
       "PrecisionAtRecall accepts a recall outside [0, 1] (Keras: ValueError)"),
    # -- optimizers
    _t("muon-adam-weight-decay-from-weight-decay", "order", "simdist/keras/optimizers/muon.py",
       "        self.adam_weight_decay = adam_weight_decay\n",
       "        self.adam_weight_decay = weight_decay\n",
       "Muon's AdamW path takes weight_decay as its decay instead of adam_weight_decay"),
    _t("adafactor-clip-threshold-ignored", "state", "simdist/keras/optimizers/adafactor.py",
       "        self.clip_threshold = clip_threshold\n",
       "        self.clip_threshold = 1.0\n",
       "Adafactor ignores its clip_threshold (the default 1.0 always)"),
    _t("rmsprop-centered-ignored", "state", "simdist/keras/optimizers/rmsprop.py",
       "        self.centered = centered\n",
       "        self.centered = False\n",
       "RMSprop ignores centered=True"),
    # -- callbacks
    _t("lr-scheduler-verbose-ignored", "state", "simdist/keras/callbacks/learning_rate_scheduler.py",
       "        self.schedule = schedule\n        self.verbose = verbose\n",
       "        self.schedule = schedule\n        self.verbose = 0\n",
       "LearningRateScheduler(verbose=1) prints nothing"),
    _t("swap-ema-test-begin-flag-not-set", "state", "simdist/keras/callbacks/swap_ema_weights.py",
       "    def on_test_begin(self, logs: Any = None) -> None:\n"
       "        if not self._ema_weights_in_model:\n            self._swap_variables()\n"
       "            self._ema_weights_in_model = True\n",
       "    def on_test_begin(self, logs: Any = None) -> None:\n"
       "        if not self._ema_weights_in_model:\n            self._swap_variables()\n",
       "SwapEMAWeights swaps the EMA weights in for evaluate but does not record it (not swapped back)"),
    _t("callback-list-predict-batch-end-as-test", "state", "simdist/keras/callbacks/callback_list.py",
       "    def on_predict_batch_end(self, batch: int, logs: Any = None) -> None:\n"
       "        self._each(\"on_predict_batch_end\", batch, logs=logs)\n",
       "    def on_predict_batch_end(self, batch: int, logs: Any = None) -> None:\n"
       "        self._each(\"on_test_batch_end\", batch, logs=logs)\n",
       "CallbackList.on_predict_batch_end calls the callbacks' on_test_batch_end"),
]
TRAINING += TRAINING_BATCH50
CATALOGUE += TRAINING_BATCH50

# The fifty-first blind batch (forty-sixth session, 2026-12-05, helper blind46b): 30 mutants written from
# simdist's source alone before reading any suite test, each in a function no earlier mutant touched, in the
# trainer, op gradients, the tape, tf.function, tf.data, checkpoints and saving, distribution and random ops.
TRAINING_BATCH51: list[Mutant] = [
    # -- the trainer
    _t("make-test-function-returns-it", "state", "simdist/keras/trainers/trainer.py",
       "        self.test_function = self._make_function(self.test_step)\n",
       "        self.test_function = self._make_function(self.test_step)\n        return self.test_function\n",
       "make_test_function returns the function it has just made (Keras 3.15: None when it (re)makes it)"),
    _t("predict-replica-outputs-first", "state", "simdist/keras/trainers/trainer.py",
       "                return reduce_per_replica(outputs, self.distribute_strategy, reduction=\"concat\")\n",
       "                return reduce_per_replica(outputs, self.distribute_strategy, reduction=\"first\")\n",
       "predict under a strategy keeps the first replica's outputs only (Keras: the replicas' outputs concatenated)"),
    # -- the tape and op gradients
    _t("graph-gradients-stop-gradients-ignored", "state", "simdist/runtime/autodiff/graph_gradients.py",
       "    tape.op_tape[op_id] = entry\n    for t in outs:\n        if id(t) not in stops:\n",
       "    tape.op_tape[op_id] = entry\n    for t in outs:\n        if True:\n",
       "tf.gradients(..., stop_gradients=[t]) in a tf.function still differentiates through an op's output t"),
    _t("tape-watch-accessed-ignored", "state", "simdist/runtime/autodiff/tape.py",
       "        self._watch_accessed_variables = bool(watch_accessed_variables)\n",
       "        self._watch_accessed_variables = True\n",
       "GradientTape(watch_accessed_variables=False) still watches the variables it reads"),
    _t("softplus-grad-kernel-sign", "gradient", "simdist/runtime/ops/activations.py",
       "        return (g / (eigen_exp(-x) + x.dtype.type(1))).astype(x.dtype, copy=False)\n",
       "        return (g / (eigen_exp(x) + x.dtype.type(1))).astype(x.dtype, copy=False)\n",
       "SoftplusGrad divides by exp(x) + 1 instead of exp(-x) + 1 (softplus's gradient becomes sigmoid(-x))"),
    # -- tf.function and concrete functions
    _t("function-variable-every-call-accepted", "missing-error", "simdist/tf/_function.py",
       "            return str(e) == _creation.SINGLETON_ERROR\n",
       "            return False\n",
       "a tf.function that creates a variable on every call is not refused on its first call (TF: ValueError)"),
    _t("output-type-text-dict-sorted", "order", "simdist/tf/_concrete.py",
       "        return \"Dict[\" + \", \".join(f\"[{k!r}, {_type_text(v)}]\" for k, v in x.items()) + \"]\"\n",
       "        return \"Dict[\" + \", \".join(f\"[{k!r}, {_type_text(v)}]\" for k, v in sorted(x.items())) + \"]\"\n",
       "a concrete function's output type text writes a returned dict's keys sorted (TF: as returned)"),
    # -- tf.data
    _t("padded-batch-drop-remainder-ignored", "boundary", "simdist/runtime/data/dataset.py",
       "        return _PaddedBatchDataset(self, _int_arg(batch_size), padded_shapes, padding_values,\n"
       "                                   _bool_arg(drop_remainder))\n",
       "        return _PaddedBatchDataset(self, _int_arg(batch_size), padded_shapes, padding_values,\n"
       "                                   False)\n",
       "padded_batch(drop_remainder=True) keeps the partial last batch"),
    _t("rebatch-drop-remainder-ignored", "boundary", "simdist/runtime/data/dataset.py",
       "        return _RebatchDataset(self, sizes, bool(drop_remainder))\n",
       "        return _RebatchDataset(self, sizes, False)\n",
       "rebatch(drop_remainder=True) keeps the partial last batch"),
    _t("iterator-produced-not-counted", "state", "simdist/runtime/data/iterators.py",
       "        self._produced += 1\n        return flat\n",
       "        return flat\n",
       "an iterator does not count the elements it returned, so a checkpoint restores it to the start"),
    _t("bucket-pad-flags-swapped", "order", "simdist/runtime/data/dataset.py",
       "                                         padded_shapes, padding_values, pad_to_bucket_boundary, no_padding,\n",
       "                                         padded_shapes, padding_values, no_padding, pad_to_bucket_boundary,\n",
       "bucket_by_sequence_length passes pad_to_bucket_boundary and no_padding swapped"),
    _t("generator-shapes-dict-insertion-order", "order", "simdist/runtime/data/dataset.py",
       "        return [s for k in sorted(types_) for s in _flatten_shapes(shapes[k], types_[k])]\n",
       "        return [s for k in types_ for s in _flatten_shapes(shapes[k], types_[k])]\n",
       "from_generator's dict output_shapes are flattened in insertion order, not sorted like the types"),
    _t("unbatch-scalar-components-unchecked", "missing-error", "simdist/runtime/data/batching.py",
       "        if any(s.shape.rank == 0 for s in specs):\n"
       "            raise ValueError(\"Cannot unbatch an input with scalar components.\")\n",
       "",
       "unbatch() of a dataset with scalar components is accepted when built (TF: ValueError)"),
    _t("bcast-grad-args-ones-axis-kept", "boundary", "simdist/runtime/ops/raw_compositions.py",
       "        if x[j] == 1:\n            rx.append(j)\n        if y[j] == 1:\n            ry.append(j)\n",
       "        if x[j] == 1 and y[j] != 1:\n            rx.append(j)\n        if y[j] == 1 and x[j] != 1:\n"
       "            ry.append(j)\n",
       "BroadcastGradientArgs does not reduce an axis where both shapes are 1 (TF reduces it in both)"),
    _t("checkpoint-file-counter-int32", "dtype", "simdist/strategies/checkpoint.py",
       "            arrays[_COUNTER] = np.asarray(self._counter, dtype=np.int64)\n",
       "            arrays[_COUNTER] = np.asarray(self._counter, dtype=np.int32)\n",
       "a Checkpoint writes its save_counter to the file as int32 (TF: int64; read back by CheckpointReader)"),
    _t("shard-position-not-advanced", "boundary", "simdist/runtime/data/shard.py",
       "            for _ in range(k):\n                next(it)\n            st[\"pos\"] += k\n",
       "            for _ in range(k):\n                next(it)\n",
       "Dataset.shard's resumable reader forgets the elements it skipped (positions drift after the first)"),
    # -- checkpoints and saving
    _t("load-checkpoint-missing-unchecked", "missing-error", "simdist/strategies/checkpoint_reader.py",
       "    if filename is None:\n        raise ValueError(f\"Couldn't find 'checkpoint' file or checkpoints in given "
       "directory {ckpt_dir_or_file}\")\n",
       "",
       "tf.train.load_checkpoint of a directory without checkpoints is not its ValueError"),
    _t("reader-key-non-string-accepted", "missing-error", "simdist/strategies/checkpoint_reader.py",
       "        if not isinstance(tensor_str, str):\n            raise TypeError(",
       "        if not isinstance(tensor_str, str):\n            return str(tensor_str)\n            raise TypeError(",
       "CheckpointReader.has_tensor/get_tensor of a non-string key looks up its str() (TF: TypeError)"),
    _t("checkpoint-keys-depth-first", "order", "simdist/strategies/checkpoint.py",
       "        obj, path = queue.popleft()\n",
       "        obj, path = queue.pop()\n",
       "a Checkpoint keys a variable reached twice by the path of a depth-first walk (TF: breadth-first)"),
    _t("pickled-model-not-compiled", "state", "simdist/keras/keras_saveable.py",
       "        return read_archive(bytesio, custom_objects=None, compile=True, safe_mode=False)\n",
       "        return read_archive(bytesio, custom_objects=None, compile=False, safe_mode=False)\n",
       "an unpickled Keras model comes back uncompiled (Keras: its .keras archive loaded with compile=True)"),
    # -- distribution
    _t("colocate-vars-outside-scope-accepted", "missing-error", "simdist/strategies/base.py",
       "        if current is not strategy:\n            if current is _default:\n",
       "        if current is not strategy and current is not _default:\n            if current is _default:\n",
       "extended.colocate_vars_with outside any strategy scope is accepted (TF: RuntimeError 'Need to be inside')"),
    _t("default-run-args-value-error-class", "error-class", "simdist/strategies/base.py",
       "        if not isinstance(args, (list, tuple)):\n"
       "            raise ValueError(f\"positional args must be a list or tuple, got {type(args)}\")\n"
       "        # (TF's _DefaultDistributionExtended",
       "        if not isinstance(args, (list, tuple)):\n"
       "            raise TypeError(f\"positional args must be a list or tuple, got {type(args)}\")\n"
       "        # (TF's _DefaultDistributionExtended",
       "the default strategy's run of non-sequence args raises TypeError (TF: ValueError)"),
    _t("mirrored-sparse-read-gathers", "missing-error", "simdist/strategies/dist_variables.py",
       "        `_gather_value_rows`; clause mirrored.sync-on-read).\"\"\"\n        raise AttributeError\n",
       "        `_gather_value_rows`; clause mirrored.sync-on-read).\"\"\"\n"
       "        return self._gather_value_rows(indices)\n",
       "a MirroredVariable has a sparse_read (TF 2.21's DistributedVariable has none: AttributeError)"),
    _t("merge-call-args-first-replica", "state", "simdist/strategies/base.py",
       "            margs = regroup([p[0] for p in payloads]) if payloads[0][0] else ()\n",
       "            margs = tuple(payloads[0][0])\n",
       "merge_call hands merge_fn the first replica's arguments, not the replicas' values regrouped"),
    # -- random ops
    _t("stateless-gamma-beta-dropped", "formula", "simdist/runtime/ops/random_gamma.py",
       "    raw = dispatch.execute(STATELESS_GAMMA, (ab, s), {\"shape\": shp, \"dtype\": dt})\n    return _scaled(raw, b, dt)\n",
       "    raw = dispatch.execute(STATELESS_GAMMA, (ab, s), {\"shape\": shp, \"dtype\": dt})\n    return raw\n",
       "tf.random.stateless_gamma ignores beta (the samples are not divided by it)"),
    _t("stateless-poisson-default-int64", "dtype", "simdist/runtime/ops/random_gamma.py",
       "def stateless_poisson(shape: Any, seed: Any, lam: Any, dtype: Any = dtypes.int32,",
       "def stateless_poisson(shape: Any, seed: Any, lam: Any, dtype: Any = dtypes.int64,",
       "tf.random.stateless_poisson's default dtype is int64 (TF: int32)"),
    _t("random-gamma-negative-dim-accepted", "missing-error", "simdist/runtime/ops/random_gamma.py",
       "        if d < 0:\n            raise errors.InvalidArgumentError(None, None, f\"Dimension {d} must be >= 0 [Op:{opname}]\")\n",
       "        if d < -1:\n            raise errors.InvalidArgumentError(None, None, f\"Dimension {d} must be >= 0 [Op:{opname}]\")\n",
       "a gamma or poisson shape of dimension -1 is not the kernel's InvalidArgumentError"),
    _t("stateless-param-shape-suffix-unchecked", "missing-error", "simdist/runtime/ops/random_gamma.py",
       "    if k > len(shape) or tuple(shape[len(shape) - k:]) != param.shape:\n",
       "    if k > len(shape):\n",
       "the stateless gamma/poisson kernels accept a shape that does not end with the parameters' shape"),
    _t("keras-binomial-counts-probs-swapped", "order", "simdist/keras/random.py",
       "counts=counts,\n                                                probs=probabilities, output_dtype=inner)",
       "counts=probabilities,\n                                                probs=counts, output_dtype=inner)",
       "keras.random.binomial passes counts and probabilities swapped"),
    _t("categorical-kernel-half-refused", "dtype", "simdist/runtime/ops/random.py",
       "    if lt.dtype.name not in (\"float16\", \"bfloat16\", \"float32\", \"float64\"):\n"
       "        attrs = f\"T=DT_{lt.dtype.name.upper()}\"",
       "    if lt.dtype.name not in (\"float32\", \"float64\"):\n"
       "        attrs = f\"T=DT_{lt.dtype.name.upper()}\"",
       "tf.random.categorical refuses float16 and bfloat16 logits (TF's CPU kernel takes them)"),
]
TRAINING += TRAINING_BATCH51
CATALOGUE += TRAINING_BATCH51

# The fifty-second blind batch (forty-seventh session, 2026-12-05, helper blind47a): 30 mutants written from
# simdist's source alone before reading any suite test, each in a function no earlier mutant touched, in the Keras
# layers, losses and metrics, optimizers and schedules, and callbacks (docs/conformance.md, "Forty-seventh
# session, 2026-12-05: a fifty-second blind batch"; batch 53, blind47b's, takes the other training areas).
TRAINING_BATCH52: list[Mutant] = [
    # -- Keras layers
    _t("merge-batch-sizes-none-counted", "boundary", "simdist/keras/layers/merging.py",
       "        batch_sizes = {s[0] for s in input_shape if s} - {None}\n",
       "        batch_sizes = {s[0] for s in input_shape if s}\n",
       "a merge layer counts an unknown (None) batch size as a different one (refuses (None, 3) with (2, 3))"),
    _t("separable-conv-shape-times-multiplier", "state", "simdist/keras/layers/depthwise_separable.py",
       "        return self._output_shape(input_shape, self.filters)\n",
       "        return self._output_shape(input_shape, self.filters * self.depth_multiplier)\n",
       "SeparableConv's compute_output_shape multiplies filters by depth_multiplier (the depthwise rule)"),
    _t("depthwise-channels-first-inverse-perm", "axis", "simdist/keras/layers/depthwise_separable.py",
       "    return tf.transpose(inputs, [0] + list(range(2, rank)) + [1]), True\n",
       "    return tf.transpose(inputs, [0, rank - 1] + list(range(1, rank - 1))), True\n",
       "the depthwise/separable convolutions transpose channels_first inputs by the inverse permutation"),
    _t("conv3d-groups-dropped", "state", "simdist/keras/layers/conv3d.py",
       "                         data_format=data_format, dilation_rate=dilation_rate, groups=groups, **kwargs)\n",
       "                         data_format=data_format, dilation_rate=dilation_rate, groups=1, **kwargs)\n",
       "Conv3D ignores groups (one group always)"),
    _t("padding-case-not-normalized", "missing-error", "simdist/keras/layers/argument_validation.py",
       "    padding = value.lower()\n",
       "    padding = value\n",
       "the layers' padding argument is not lower-cased ('SAME' refused, Keras accepts any case)"),
    _t("time-distributed-shape-drops-last", "boundary", "simdist/keras/layers/time_distributed.py",
       "        return (child[0], input_shape[1], *child[1:])\n",
       "        return (child[0], input_shape[1], *child[2:])\n",
       "TimeDistributed.compute_output_shape drops the wrapped layer's first non-batch output axis"),
    _t("lookup-repeated-token-twice-accepted", "boundary", "simdist/keras/layers/index_lookup.py",
       "        return [item for item, count in counts.items() if count > 1]\n",
       "        return [item for item, count in counts.items() if count > 2]\n",
       "the lookup layers accept a vocabulary with a token given twice (refuse it only three times)"),
    _t("lookup-symbolic-int-output-int32", "dtype", "simdist/keras/layers/index_lookup.py",
       "        output_dtype = \"int64\" if self.output_mode == \"int\" else backend_config.floatx()\n",
       "        output_dtype = \"int32\" if self.output_mode == \"int\" else backend_config.floatx()\n",
       "the lookup layers' symbolic output in 'int' mode is int32 (Keras: int64)"),
    _t("hashed-crossing-one-input-accepted", "boundary", "simdist/keras/layers/hashed_crossing.py",
       "        if len(inputs) < 2:\n",
       "        if len(inputs) < 1:\n",
       "HashedCrossing accepts a list of one input (Keras: ValueError, at least two)"),
    _t("gaussian-noise-variable-dtype", "dtype", "simdist/keras/layers/noise.py",
       "            return inputs + random.normal(shape=inputs.shape, mean=0.0, stddev=self.stddev, dtype=self.compute_dtype,\n",
       "            return inputs + random.normal(shape=inputs.shape, mean=0.0, stddev=self.stddev, dtype=self.variable_dtype,\n",
       "GaussianNoise draws its noise in the variable dtype (float32 under mixed_float16)"),
    _t("embedding-shape-replaces-last-axis", "axis", "simdist/keras/layers/core.py",
       "        return (*input_shape, self.output_dim)\n",
       "        return (*input_shape[:-1], self.output_dim)\n",
       "Embedding.compute_output_shape replaces the last input axis by output_dim (Dense's rule) instead of adding one"),
    _t("rnn-initial-state-fallback-float32", "dtype", "simdist/keras/layers/rnn.py",
       "            return [tf.zeros((batch_size, d), dtype=self.cell.compute_dtype) for d in self.state_size]\n",
       "            return [tf.zeros((batch_size, d)) for d in self.state_size]\n",
       "RNN.get_initial_state of a cell without get_initial_state is float32 whatever the cell's dtype"),
    _t("mha-projection-bias-always", "state", "simdist/keras/layers/attention.py",
       "                           bias_axes=bias_axes if self._use_bias else None, name=name, activation=activation,\n",
       "                           bias_axes=bias_axes, name=name, activation=activation,\n",
       "MultiHeadAttention(use_bias=False) still gives its projections biases"),
    _t("discretization-symbolic-compute-dtype", "dtype", "simdist/keras/layers/discretization.py",
       "        return KerasTensor(self.compute_output_shape(inputs.shape), dtype=self.output_dtype)\n",
       "        return KerasTensor(self.compute_output_shape(inputs.shape), dtype=self.compute_dtype)\n",
       "Discretization's symbolic output takes the compute dtype (float32), not its output_dtype"),
    _t("text-vectorization-shape-vector-not-expanded", "boundary", "simdist/keras/layers/text_vectorization.py",
       "            if len(input_shape) <= 1:\n",
       "            if len(input_shape) < 1:\n",
       "TextVectorization(split=None).compute_output_shape does not add the token axis to a vector of strings"),
    _t("softmax-layer-mask-not-propagated", "state", "simdist/keras/layers/core.py",
       "        self.axis = axis\n        self.supports_masking = True\n        self._build_at_init()\n",
       "        self.axis = axis\n        self._build_at_init()\n",
       "the Softmax layer does not support masking (its input's mask is not passed on)"),
    _t("global-pooling-keepdims-ignored", "state", "simdist/keras/layers/pooling.py",
       "        self.keepdims = keepdims\n        self.input_spec = InputSpec(ndim=pool_dimensions + 2)\n",
       "        self.keepdims = False\n        self.input_spec = InputSpec(ndim=pool_dimensions + 2)\n",
       "the global pooling layers ignore keepdims=True"),
    # -- losses and metrics
    _t("hinge-loss-reduction-dropped", "state", "simdist/keras/losses/hinge_losses.py",
       "        super().__init__(hinge, name=name, reduction=reduction, dtype=dtype)\n",
       "        super().__init__(hinge, name=name, reduction=\"sum_over_batch_size\", dtype=dtype)\n",
       "the Hinge loss ignores its reduction"),
    _t("kl-divergence-loss-dtype-dropped", "dtype", "simdist/keras/losses/probabilistic_losses.py",
       "        super().__init__(kl_divergence, name=name, reduction=reduction, dtype=dtype)\n",
       "        super().__init__(kl_divergence, name=name, reduction=reduction, dtype=None)\n",
       "the KLDivergence loss ignores its dtype (float32 always)"),
    _t("log-cosh-loss-default-name", "state", "simdist/keras/losses/regression_losses.py",
       "    def __init__(self, reduction: Any = \"sum_over_batch_size\", name: str = \"log_cosh\", dtype: Any = None) -> None:\n",
       "    def __init__(self, reduction: Any = \"sum_over_batch_size\", name: str = \"logcosh\", dtype: Any = None) -> None:\n",
       "the LogCosh loss's default name is the metric's 'logcosh' (Keras: 'log_cosh')"),
    _t("sensitivity-result-rates-swapped", "order", "simdist/keras/metrics/sensitivity_specificity.py",
       "        return self._find_max_under_constraint(rates[self._constrained], rates[self._dependent])\n",
       "        return self._find_max_under_constraint(rates[self._dependent], rates[self._constrained])\n",
       "the at-value metrics' result swaps the constrained and the dependent rates"),
    _t("true-negatives-counts-false-negatives", "state", "simdist/keras/metrics/precision_recall.py",
       "        super().__init__(CM.TRUE_NEGATIVES, thresholds=thresholds, name=name, dtype=dtype)\n",
       "        super().__init__(CM.FALSE_NEGATIVES, thresholds=thresholds, name=name, dtype=dtype)\n",
       "TrueNegatives counts the false negatives"),
    _t("logcosh-metric-default-name", "state", "simdist/keras/metrics/regression_metrics.py",
       "    def __init__(self, name: str = \"logcosh\", dtype: Any = None) -> None:\n",
       "    def __init__(self, name: str = \"log_cosh\", dtype: Any = None) -> None:\n",
       "the LogCoshError metric's default name is the loss's 'log_cosh' (Keras: 'logcosh')"),
    _t("f1-score-threshold-dropped", "state", "simdist/keras/metrics/f_score_metrics.py",
       "        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)\n",
       "        super().__init__(average=average, beta=1.0, threshold=None, name=name, dtype=dtype)\n",
       "F1Score ignores its threshold (the arg-max one-hot always)"),
    # -- optimizers and schedules
    _t("adam-amsgrad-ignored", "state", "simdist/keras/optimizers/adam.py",
       "        self.amsgrad = amsgrad\n",
       "        self.amsgrad = False\n",
       "Adam ignores amsgrad=True"),
    _t("nadam-epsilon-ignored", "state", "simdist/keras/optimizers/nadam.py",
       "        self.epsilon = epsilon\n",
       "        self.epsilon = 1e-7\n",
       "Nadam ignores its epsilon (1e-7 always)"),
    _t("lamb-beta-2-from-beta-1", "order", "simdist/keras/optimizers/lamb.py",
       "        self.beta_2 = beta_2\n",
       "        self.beta_2 = beta_1\n",
       "Lamb takes beta_1 as its beta_2"),
    _t("polynomial-decay-config-cycle-dropped", "state", "simdist/keras/optimizers/schedules.py",
       "                \"end_learning_rate\": self.end_learning_rate, \"power\": self.power, \"cycle\": self.cycle,\n",
       "                \"end_learning_rate\": self.end_learning_rate, \"power\": self.power,\n",
       "PolynomialDecay.get_config leaves out cycle (a schedule rebuilt from its config does not cycle)"),
    # -- callbacks
    _t("callback-list-default-callbacks-swapped", "order", "simdist/keras/callbacks/callback_list.py",
       "        self._add_default_callbacks(add_history, add_progbar)\n",
       "        self._add_default_callbacks(add_progbar, add_history)\n",
       "CallbackList passes add_history and add_progbar swapped"),
    _t("swap-ema-epoch-begin-flag-kept", "state", "simdist/keras/callbacks/swap_ema_weights.py",
       "        if self.swap_on_epoch and self._ema_weights_in_model:\n            self._swap_variables()\n"
       "            self._ema_weights_in_model = False\n",
       "        if self.swap_on_epoch and self._ema_weights_in_model:\n            self._swap_variables()\n",
       "SwapEMAWeights(swap_on_epoch=True) swaps back at an epoch's begin but does not record it"),
]
TRAINING += TRAINING_BATCH52
CATALOGUE += TRAINING_BATCH52

# Forty-seventh session, blind batch 53 (helper blind47b): 30 training-layer mutants written from simdist's source
# alone, before reading any suite test, in the trainer, op gradients and the tape, tf.function, tf.data, checkpoints,
# distribution and random ops; each in a function no earlier mutant touched.
TRAINING_BATCH53: list[Mutant] = [
    # -- the trainer
    _t("compiled-loss-sample-weight-dropped", "state", "simdist/keras/trainers/trainer.py",
       "        return self.compute_loss(x=None, y=y, y_pred=y_pred, sample_weight=sample_weight)\n",
       "        return self.compute_loss(x=None, y=y, y_pred=y_pred)\n",
       "Keras 2's model.compiled_loss(y, y_pred, sample_weight) drops the sample weights"),
    _t("compiled-metrics-mean-given-y", "state", "simdist/keras/trainers/trainer.py",
       "            if isinstance(metric, mean):\n                metric.update_state(y_pred, sample_weight=sample_weight)\n",
       "            if isinstance(metric, mean):\n                metric.update_state(y, sample_weight=sample_weight)\n",
       "model.compiled_metrics.update_state updates a Mean metric (the loss tracker) with y, not y_pred"),
    _t("predict-function-no-reduce-retracing", "state", "simdist/keras/trainers/trainer.py",
       "            predict_function = tf.function(predict_function, reduce_retracing=True)\n",
       "            predict_function = tf.function(predict_function)\n",
       "predict's tf.function without reduce_retracing: a second batch shape traces a concrete shape, not a "
       "relaxed batch dimension"),
    # -- op gradients and the tape
    _t("add-grad-y-unbroadcast-to-x", "gradient", "simdist/runtime/ops/math.py",
       "    return [None if 0 in skip else unbroadcast(grad, sx), None if 1 in skip else unbroadcast(grad, sy)]\n",
       "    return [None if 0 in skip else unbroadcast(grad, sx), None if 1 in skip else unbroadcast(grad, sx)]\n",
       "AddV2's gradient of a broadcast second operand reduced to the first operand's shape (copy-paste)"),
    _t("reciprocal-grad-grad-sign", "gradient", "simdist/runtime/ops/raw_compositions.py",
       "    return cg * -2.0 * b * ca, unary.reciprocal_grad(ca, grad)\n",
       "    return cg * 2.0 * b * ca, unary.reciprocal_grad(ca, grad)\n",
       "ReciprocalGrad's gradient in y without its minus sign (the second derivative of 1/x)"),
    _t("check-numerics-v2-grad-passthrough", "gradient", "simdist/runtime/ops/check_numerics.py",
       "    return [check_numerics_v2(grad, _gradient_message(op))]\n",
       "    return [grad]\n",
       "CheckNumericsV2's gradient passes a non-finite upstream gradient through (TF checks it)"),
    # -- tf.function
    _t("placeholder-varargs-names-one-based", "boundary", "simdist/tf/_function.py",
       "            named.extend((f\"{pname}_{i}\", v) for i, v in enumerate(value))\n",
       "            named.extend((f\"{pname}_{i}\", v) for i, v in enumerate(value, 1))\n",
       "a traced *args entry's placeholder named args_1, args_2, ... (TF: args_0, args_1, ...)"),
    _t("placeholder-nest-dict-sorted", "order", "simdist/tf/_function.py",
       "        return [y for k in v for y in _nest_leaves(v[k])]\n",
       "        return [y for k in sorted(v) for y in _nest_leaves(v[k])]\n",
       "a dict argument's placeholders named in nest's sorted-key order, not the dict's insertion order (TF 2.21's "
       "trace; simdist did this until blind53's probe found it)"),
    _t("concrete-output-names-zero-suffix", "boundary", "simdist/tf/_concrete.py",
       "        name = \"Identity:0\" if count[0] == 0 else f\"Identity_{count[0]}:0\"\n",
       "        name = f\"Identity_{count[0]}:0\"\n",
       "a concrete function's first output named Identity_0:0 (TF: Identity:0)"),
    _t("concrete-outputs-dict-insertion-order", "order", "simdist/tf/_concrete.py",
       "        done = {k: _walk(fn, x[k]) for k in sorted(x)}\n",
       "        done = {k: _walk(fn, x[k]) for k in x}\n",
       "a concrete function's dict outputs numbered (Identity_k) in insertion order, not sorted keys"),
    _t("concrete-inputs-python-values-included", "missing-error", "simdist/tf/_concrete.py",
       "        return [GraphTensor(f\"{p}:0\", self._bound[p].shape, self._bound[p].dtype) for p in self._flat_params()\n"
       "                if _is_spec(self._bound[p])]\n",
       "        return [GraphTensor(f\"{p}:0\", getattr(self._bound[p], \"shape\", None),\n"
       "                            getattr(self._bound[p], \"dtype\", None)) for p in self._flat_params()]\n",
       "a concrete function's inputs list its Python-value parameters as placeholders too"),
    # -- tf.data
    _t("fused-map-batch-reshape-refused", "missing-error", "simdist/runtime/data/batching.py",
       "            if r[i].shape != first and not fused:\n",
       "            if r[i].shape != first:\n",
       "a fused map+batch refuses elements of another shape with as many elements (TF copies them flat)"),
    _t("rebatch-rank-check-off-by-one", "boundary", "simdist/runtime/data/rebatch.py",
       "        if shape is not None and len(shape) < 1:\n",
       "        if shape is not None and len(shape) < 2:\n",
       "rebatch refuses a batched dataset of vectors (rank 1) as if it were scalars"),
    _t("rebatch-static-dim-multiple-unchecked", "missing-error", "simdist/runtime/data/rebatch.py",
       "    if size == 0 or known[0] % size != 0:\n        return None\n    return size\n",
       "    if size == 0:\n        return None\n    return size\n",
       "rebatch's static batch dimension kept when the input's is no multiple of the new size"),
    # -- checkpoints and saving
    _t("checkpoint-list-keys-one-based", "boundary", "simdist/strategies/checkpoint.py",
       "        return [(str(i), v) for i, v in enumerate(obj) if _tf_wrapped(v)]\n",
       "        return [(str(i), v) for i, v in enumerate(obj, 1) if _tf_wrapped(v)]\n",
       "a tracked list's children keyed 1, 2, ... in the checkpoint (TF: 0, 1, ...)"),
    _t("checkpoint-model-optimizer-untracked", "state", "simdist/strategies/checkpoint.py",
       "    optimizer = vars(obj).get(\"optimizer\") if hasattr(obj, \"__dict__\") and hasattr(obj, \"_tracker\") else None\n",
       "    optimizer = vars(obj).get(\"_optimizer\") if hasattr(obj, \"__dict__\") and hasattr(obj, \"_tracker\") else None\n",
       "a Checkpoint of a compiled Keras model leaves its optimizer's variables out"),
    _t("list-variables-unsorted", "order", "simdist/strategies/checkpoint_reader.py",
       "    return [(name, shapes[name]) for name in sorted(shapes)]\n",
       "    return [(name, shapes[name]) for name in shapes]\n",
       "tf.train.list_variables in the file's order, not sorted by key"),
    # -- distribution
    _t("distributed-dataset-reduce-args-swapped", "order", "simdist/strategies/input.py",
       "            state = reduce_fn(state, opt.get_value())\n",
       "            state = reduce_fn(opt.get_value(), state)\n",
       "a distributed dataset's reduce calls reduce_fn(element, state) (TF: reduce_fn(state, element))"),
    # -- random ops
    _t("stateless-categorical-default-int32", "dtype", "simdist/runtime/ops/random.py",
       "def stateless_categorical(logits: Any, num_samples: Any, seed: Any, dtype: Any = dtypes.int64,",
       "def stateless_categorical(logits: Any, num_samples: Any, seed: Any, dtype: Any = dtypes.int32,",
       "tf.random.stateless_categorical's default dtype is int32 (TF: int64)"),
    _t("tnp-poisson-int32", "dtype", "simdist/runtime/ops/tnp_random.py",
       "    return _poisson(shape=size, lam=lam, dtype=dtypes.int64)\n",
       "    return _poisson(shape=size, lam=lam, dtype=dtypes.int32)\n",
       "tnp.random.poisson's counts int32 (TF: int64)"),
    _t("tnp-uniform-shape-of-low", "state", "simdist/runtime/ops/tnp_random.py",
       "        size = broadcast_dynamic_shape(low.shape, high.shape)\n",
       "        size = low.shape\n",
       "tnp.random.uniform without size draws low's shape, not low's and high's broadcast shape"),
    _t("binomial-shape-suffix-unchecked", "missing-error", "simdist/runtime/ops/binomial.py",
       "    if len(bshape) > len(shape) or tuple(shape[len(shape) - len(bshape):]) != tuple(bshape):\n",
       "    if len(bshape) > len(shape):\n",
       "the binomial kernels accept a shape that does not end with the parameters' broadcast shape"),
    _t("binomial-counts-hint-float32", "dtype", "simdist/runtime/ops/binomial.py",
       "    c = counts if isinstance(counts, Tensor) else _convert(counts, p.dtype)\n",
       "    c = counts if isinstance(counts, Tensor) else _convert(counts, dtypes.float32)\n",
       "stateless_binomial converts Python counts to float32, not probs' dtype"),
    # -- replacements (their first drafts' functions had been touched by earlier mutants)
    _t("dilation-grad-outputs-swapped", "gradient", "simdist/runtime/ops/morphology.py",
       "    return [dispatch.execute(DILATION2D_BACKPROP_INPUT, (x, f, grad), dict(op.attrs)),\n"
       "            dispatch.execute(DILATION2D_BACKPROP_FILTER, (x, f, grad), dict(op.attrs))]\n",
       "    return [dispatch.execute(DILATION2D_BACKPROP_FILTER, (x, f, grad), dict(op.attrs)),\n"
       "            dispatch.execute(DILATION2D_BACKPROP_INPUT, (x, f, grad), dict(op.attrs))]\n",
       "Dilation2D's gradient returns the filter's and the input's gradients in swapped order"),
    _t("scan-state-not-carried", "state", "simdist/runtime/data/scan.py",
       "            state = [np.asarray(t._v) for t in leaves]\n            return [[np.asarray(t._v) for t in flatten(out)]]\n",
       "            return [[np.asarray(t._v) for t in flatten(out)]]\n",
       "Dataset.scan never carries the new state: every element sees the initial state"),
    _t("dense-to-sparse-batch-remainder-dropped", "boundary", "simdist/runtime/data/sparse_batch.py",
       "                buf = []\n        if buf:\n            yield self._sparse(buf)\n",
       "                buf = []\n",
       "dense_to_sparse_batch drops the last, partial batch (TF keeps it)"),
    _t("gamma-half-refused", "dtype", "simdist/runtime/ops/random_gamma.py",
       "    if dt in (dtypes.float16, dtypes.float32, dtypes.float64):\n        return\n",
       "    if dt in (dtypes.float32, dtypes.float64):\n        return\n",
       "tf.random.gamma and the stateless gamma refuse float16 (TF's kernels take half)"),
    _t("binomial-skip-rounded-down", "boundary", "simdist/runtime/ops/binomial.py",
       "    return num_batches * 2 * 100 * (spb + 3) // 4\n",
       "    return num_batches * 2 * 100 * spb // 4\n",
       "Generator.binomial's counter skip rounds the samples per batch down, not up, to whole Philox blocks"),
    _t("mirrored-non-slot-args-first-replica", "state", "simdist/strategies/mirrored.py",
       "            a, kw = select_replica(i, args), select_replica(i, kwargs)   # (the i-th component of each argument)\n",
       "            a, kw = select_replica(0, args), select_replica(0, kwargs)   # (the i-th component of each argument)\n",
       "MirroredStrategy's update_non_slot gives fn the first replica's component of a distributed argument on "
       "every device"),
    _t("mirror-leaves-dict-kept-per-replica", "state", "simdist/strategies/mirrored.py",
       "    if isinstance(value, dict):\n        return type(value)((k, _mirror_leaves(v)) for k, v in value.items())\n",
       "    if isinstance(value, dict):\n        return value\n",
       "a MirroredStrategy update returning a dict leaves its values PerReplica (TF: Mirrored)"),
]
TRAINING += TRAINING_BATCH53
CATALOGUE += TRAINING_BATCH53

# The fifty-fourth blind batch (forty-eighth session, 2026-12-05, helper blind48a): 30 mutants written from
# simdist's source alone before reading any suite test, each in a function no earlier mutant touched, in the Keras
# layers, losses and metrics, optimizers and schedules, and callbacks (docs/conformance.md, "Forty-eighth
# session, 2026-12-05: a fifty-fourth blind batch"; batch 55, blind48b's, takes the other training areas).
TRAINING_BATCH54: list[Mutant] = [
    # -- Keras layers
    _t("concatenate-build-unknown-dim-counted", "boundary", "simdist/keras/layers/merging.py",
       "                if len({shape[axis] for shape in shape_set if shape[axis] is not None}) > 1:\n",
       "                if len({shape[axis] for shape in shape_set}) > 1:\n",
       "Concatenate's build counts an unknown (None) dimension as a different one (refuses (None, 4) with (2, None))"),
    _t("dot-build-compares-first-axis-twice", "axis", "simdist/keras/layers/dot.py",
       "        if shape1[axes[0]] != shape2[axes[1]]:\n",
       "        if shape1[axes[0]] != shape2[axes[0]]:\n",
       "Dot's build compares the first input's axis with the second input's size at the first axis index"),
    _t("spatial-dropout-noise-shape-dropped", "state", "simdist/keras/layers/spatial_dropout.py",
       "noise_shape=self._noise_shape(inputs), seed=self.seed_generator)",
       "noise_shape=None, seed=self.seed_generator)",
       "the SpatialDropout layers drop single elements instead of whole feature maps (their noise shape ignored)"),
    _t("conv-transpose-call-output-padding-dropped", "state", "simdist/keras/layers/conv_transpose.py",
       "                                                   self.output_padding, self.data_format, self.dilation_rate)\n"
       "        outputs = tf.nn.conv_transpose(",
       "                                                   None, self.data_format, self.dilation_rate)\n"
       "        outputs = tf.nn.conv_transpose(",
       "the transposed convolutions' call ignores output_padding (their compute_output_shape keeps it)"),
    _t("rnn-state-variables-compute-dtype", "dtype", "simdist/keras/layers/rnn.py",
       "lambda value: Variable(value, trainable=False, dtype=self.variable_dtype, name=\"rnn_state\"),",
       "lambda value: Variable(value, trainable=False, dtype=self.compute_dtype, name=\"rnn_state\"),",
       "a stateful RNN's state variables take the compute dtype (float16 under mixed_float16), not the variable dtype"),
    _t("rnn-reset-state-first-only", "boundary", "simdist/keras/layers/rnn.py",
       "            for v in self.states:\n                v.assign(tf.zeros_like(v.value))\n",
       "            for v in self.states[:1]:\n                v.assign(tf.zeros_like(v.value))\n",
       "RNN.reset_state zeroes only the first state variable (an LSTM keeps its carry)"),
    _t("bidirectional-build-backward-checks-forward", "state", "simdist/keras/layers/bidirectional.py",
       "        if not self.backward_layer.built:\n            self.backward_layer.build(sequences_shape)\n",
       "        if not self.forward_layer.built:\n            self.backward_layer.build(sequences_shape)\n",
       "Bidirectional.build builds the backward layer only if the forward one was not built (a copy-paste condition)"),
    _t("pool-channels-first-transposed-back-wrong", "axis", "simdist/keras/layers/pooling.py",
       "        outputs = tf.transpose(outputs, _TO_FIRST[ndim])\n",
       "        outputs = tf.transpose(outputs, _TO_LAST[ndim])\n",
       "the pooling ops transpose a channels_first result back with the channels-last permutation"),
    _t("mel-spectrogram-shape-frames-ceil", "boundary", "simdist/keras/layers/preprocessing/audio/mel_spectrogram.py",
       "            return (n + self.sequence_stride + 1) // self.sequence_stride if n is not None else None\n",
       "            return (n + self.sequence_stride - 1) // self.sequence_stride if n is not None else None\n",
       "MelSpectrogram.compute_output_shape counts ceil(n / stride) frames (Keras: (n + stride + 1) // stride)"),
    _t("stft-shape-channels-first-axes-swapped", "axis", "simdist/keras/layers/preprocessing/audio/stft_spectrogram.py",
       "            return (batch_size, channels, time_seq, freq_channels)\n",
       "            return (batch_size, channels, freq_channels, time_seq)\n",
       "STFTSpectrogram(expand_dims=True, channels_first).compute_output_shape swaps the time and frequency axes"),
    _t("category-encoding-scalar-not-expanded", "boundary", "simdist/keras/layers/category_encoding.py",
       "    if len(inputs.shape) == 0:\n        inputs = tf.expand_dims(inputs, -1)\n"
       "    if len(inputs.shape) <= 2 and output_mode in",
       "    if len(inputs.shape) <= 2 and output_mode in",
       "encode_categorical_inputs does not expand a scalar input to a vector before encoding it"),
    _t("normalization-adapt-xy-batch-not-unpacked", "state", "simdist/keras/layers/normalization_adapt.py",
       "    return batch[0] if isinstance(batch, tuple) else batch\n",
       "    return batch[0] if isinstance(batch, list) else batch\n",
       "Normalization.adapt takes an (x, y) batch of a dataset whole instead of its x"),
    _t("text-vectorization-vocabulary-specials-always", "state", "simdist/keras/layers/text_vectorization.py",
       "        return self._lookup_layer.get_vocabulary(include_special_tokens)\n",
       "        return self._lookup_layer.get_vocabulary()\n",
       "TextVectorization.get_vocabulary ignores include_special_tokens=False"),
    _t("lambda-mask-fn-arguments-swapped", "order", "simdist/keras/layers/lambda_layer.py",
       "            return self.mask(inputs, mask)\n",
       "            return self.mask(mask, inputs)\n",
       "Lambda.compute_mask calls a callable mask with (mask, inputs) instead of (inputs, mask)"),
    _t("reshape-shape-batch-forgotten", "state", "simdist/keras/layers/reshaping.py",
       "        return (input_shape[0], *compute_reshape_output_shape(tuple(input_shape[1:]), self.target_shape,\n",
       "        return (None, *compute_reshape_output_shape(tuple(input_shape[1:]), self.target_shape,\n",
       "Reshape.compute_output_shape forgets a static batch size (None)"),
    _t("lookup-known-vocab-pad-ignored", "error-class", "simdist/keras/layers/index_lookup.py",
       "    def _ensure_known_vocab_size(self) -> None:\n        if self.output_mode == \"int\" or self.pad_to_max_tokens:\n",
       "    def _ensure_known_vocab_size(self) -> None:\n        if self.output_mode == \"int\":\n",
       "the lookup layers refuse a call without vocabulary in a multi-hot mode even with pad_to_max_tokens (RuntimeError)"),
    _t("upsampling-shape-zero-dim-unknown", "boundary", "simdist/keras/layers/upsampling_padding.py",
       "    return None if dim is None else size * dim\n",
       "    return size * dim if dim else None\n",
       "the UpSampling layers' compute_output_shape turn a zero-size axis into an unknown one (a falsy test)"),
    # -- losses and metrics
    _t("rmse-result-sqrt-of-total", "formula", "simdist/keras/metrics/regression_metrics.py",
       "        return tf.sqrt(super().result())\n",
       "        return ops.divide_no_nan(tf.sqrt(self.total), ops.cast(self.count, self.dtype))\n",
       "RootMeanSquaredError's result divides the root of the total by the count (not the root of the mean)"),
    _t("metric-reset-own-variables-only", "state", "simdist/keras/metrics/metric.py",
       "        for v in self.variables:\n            v.assign(ops.cast(_zeros(v.shape, v.dtype), v.dtype))\n",
       "        for v in self._variables:\n            v.assign(ops.cast(_zeros(v.shape, v.dtype), v.dtype))\n",
       "Metric.reset_state zeroes its own variables only, not those of the metrics it tracks"),
    _t("metric-add-weight-dtype-dropped", "dtype", "simdist/keras/metrics/metric.py",
       "        return self.add_variable(shape=shape, initializer=initializer, dtype=dtype, name=name)\n",
       "        return self.add_variable(shape=shape, initializer=initializer, name=name)\n",
       "Metric.add_weight ignores its dtype (float32 always)"),
    _t("auc-read-fp-fn-swapped", "order", "simdist/keras/metrics/confusion_metrics.py",
       "        return (ops.convert_to_tensor(self.true_positives), ops.convert_to_tensor(self.false_positives),\n"
       "                ops.convert_to_tensor(self.true_negatives), ops.convert_to_tensor(self.false_negatives))\n",
       "        return (ops.convert_to_tensor(self.true_positives), ops.convert_to_tensor(self.false_negatives),\n"
       "                ops.convert_to_tensor(self.true_negatives), ops.convert_to_tensor(self.false_positives))\n",
       "AUC reads its false positives and false negatives swapped"),
    _t("sensitivity-reset-skips-false-negatives", "state", "simdist/keras/metrics/sensitivity_specificity.py",
       "        for v in (self.true_positives, self.false_positives, self.true_negatives, self.false_negatives):\n"
       "            v.assign(tf.zeros((n,)))\n",
       "        for v in (self.true_positives, self.false_positives, self.true_negatives):\n"
       "            v.assign(tf.zeros((n,)))\n",
       "the at-value metrics' reset_state leaves their false negatives"),
    _t("reduction-validate-error-class", "error-class", "simdist/keras/losses/reduction.py",
       "            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are \"{cls.all()}\"')\n",
       "            raise KeyError(f'Invalid Reduction Key: {key}. Expected keys are \"{cls.all()}\"')\n",
       "losses.Reduction.validate raises KeyError for an unknown key (Keras: ValueError)"),
    # -- optimizers and schedules
    _t("apply-gradients-returns-none", "state", BO,
       "        self.apply(grads, variables)\n        return self._iterations\n",
       "        self.apply(grads, variables)\n",
       "Optimizer.apply_gradients returns None instead of the iterations variable"),
    _t("ema-overwrite-takes-variable-value", "state", BO,
       "                                                        args=(_read(average),))\n",
       "                                                        args=(_read(var),))\n",
       "use_ema's overwrite gives each variable its own value (not its moving average)"),
    _t("optimizer-variables-list-aliased", "state", BO,
       "    def variables(self) -> list[OptimizerVariable]:\n        return self._variables[:]\n",
       "    def variables(self) -> list[OptimizerVariable]:\n        return self._variables\n",
       "Optimizer.variables returns the optimizer's own list (a caller's change alters the optimizer)"),
    _t("schedules-deserialize-custom-objects-ignored", "state", "simdist/keras/optimizers/schedules.py",
       "    classes = dict(_BUILTIN, **(custom_objects or {}))\n",
       "    classes = dict(_BUILTIN)\n",
       "schedules.deserialize ignores custom_objects (a custom schedule comes back as its class name)"),
    # -- callbacks
    _t("csv-logger-file-left-open", "state", "simdist/keras/callbacks/csv_logger.py",
       "            self.csv_file.close()\n        self.writer = None\n",
       "            pass\n        self.writer = None\n",
       "CSVLogger.on_train_end leaves its file open"),
    _t("callback-list-test-batch-begin-as-batch-begin", "state", "simdist/keras/callbacks/callback_list.py",
       "        self._each(\"on_test_batch_begin\", batch, logs=logs)\n",
       "        self._each(\"on_batch_begin\", batch, logs=logs)\n",
       "CallbackList.on_test_batch_begin calls the callbacks' on_batch_begin (the training alias)"),
    _t("callback-list-begin-count-not-nested", "state", "simdist/keras/callbacks/callback_list.py",
       "        self._in_begin_end_block_count += 1\n",
       "        self._in_begin_end_block_count = 1\n",
       "CallbackList counts nested begin/end blocks as one (fit's validation ends the block twice: ValueError)"),
]
TRAINING += TRAINING_BATCH54
CATALOGUE += TRAINING_BATCH54

# --- the fifty-fifth blind batch (forty-eighth session, helper blind48b): written from simdist's source alone,
# before reading any suite test, each in a function no earlier mutant touched; the trainer, op gradients and the
# tape, tf.function, tf.data, checkpoints, distribution and random ops. Each was checked observable (TF 2.21 and
# simdist agree, the mutant differs) by one program per mutant (/work/wt/blind48b_logs/probes.py). Replaced
# before the commit: four drafts whose innermost function an earlier mutant had touched (IRFFT's gradient mask,
# ForwardAccumulator's gather JVP, pad_to_cardinality's bound, the distributed-dataset options' error class) and
# two unobservable ones (a generator batch's shape check: from_generator's own check gives the same class;
# AvgPoolGrad's per-row loop, which the ordinary gradient never reaches).
TRAINING_BATCH55: list[Mutant] = [
    # -- the trainer
    _t("reconcile-y-true-dict-sorted", "order", "simdist/keras/trainers/compile_utils.py",
       "                y_true = [y_true[name] for name in self.output_names]\n",
       "                y_true = [y_true[name] for name in sorted(y_true)]\n",
       "labels given as a dict for a model's list outputs are matched to the outputs in sorted-key order, not by "
       "the model's output names"),
    _t("loss-dict-none-entry-unchecked", "missing-error", "simdist/keras/trainers/compile_utils.py",
       "        for key, _loss in iterator:\n            if _loss is None:\n                continue\n",
       "        for key, _loss in iterator:\n",
       "a loss structure's None entry (an output without a loss) is walked like a loss, not skipped"),
    _t("mwms-single-worker-fit-refused", "missing-error", "simdist/keras/trainers/trainer.py",
       "or in_multi is None or not in_multi():\n",
       "or in_multi is None:\n",
       "fit under a MultiWorkerMirroredStrategy of one worker is refused as if it had several (TF: only several "
       "workers fail)"),
    # -- op gradients and the tape
    _t("asin-grad-plus-square", "gradient", "simdist/runtime/ops/special.py",
       "    return [grad * reciprocal(sqrt(one - square(_conj(x))))]\n",
       "    return [grad * reciprocal(sqrt(one + square(_conj(x))))]\n",
       "Asin's gradient 1/sqrt(1 + x^2) (asinh's), not 1/sqrt(1 - x^2)"),
    _t("bessel-i1e-grad-reciprocal-sign", "gradient", "simdist/runtime/ops/special_more.py",
       "bessel_i0e(x) - y * (sign(x) + reciprocal(x))",
       "bessel_i0e(x) - y * (sign(x) - reciprocal(x))",
       "BesselI1e's gradient i0e(x) - y (sign(x) - 1/x), not - y (sign(x) + 1/x)"),
    _t("zeta-grad-order-not-raised", "gradient", "simdist/runtime/ops/special_more.py",
       "    partial_q = -x * zeta(x + 1, q)\n",
       "    partial_q = -x * zeta(x, q)\n",
       "Zeta's gradient in q -x zeta(x, q), not -x zeta(x + 1, q)"),
    _t("nextafter-grad-x2-ones", "gradient", "simdist/runtime/ops/special_more.py",
       "math.unbroadcast(zeros(s2, dtype=x2.dtype) * grad, s2)]",
       "math.unbroadcast(ones(s2, dtype=x2.dtype) * grad, s2)]",
       "NextAfter passes the upstream gradient to x2 too (TF: zeros for x2)"),
    _t("sqrt-grad-grad-half-dropped", "gradient", "simdist/runtime/ops/sqrt_grads.py",
       "    return [-conj_of(ga) * out, 0.5 * ga]\n",
       "    return [-conj_of(ga) * out, ga]\n",
       "SqrtGrad's gradient in its upstream-gradient input grad / a, not 0.5 grad / a"),
    _t("spence-grad-at-one-nan", "gradient", "simdist/runtime/ops/special_funcs.py",
       "    partial = m.where(m.equal(x, 1.0), -array.ones_like(x), partial)\n",
       "",
       "Spence's gradient at x = 1 is log(1)/0 = NaN (TF: -1 there)"),
    _t("while-grad-zeros-for-untrainable", "gradient", "simdist/runtime/autodiff/graph_gradients.py",
       "            if g is None and trainable(t.dtype):\n                # (while_v2's",
       "            if g is None and not trainable(t.dtype):\n                # (while_v2's",
       "tf.gradients through a tf.while_loop gives None, not zeros, for a float input the loop never reaches "
       "(and zeros for an integer one)"),
    # -- tf.function
    _t("signature-text-kwonly-star-dropped", "state", "simdist/tf/_concrete.py",
       "        ins = \", \".join(parts + ([\"*\"] + kw if kw else []))\n",
       "        ins = \", \".join(parts + kw)\n",
       "a concrete function's short signature text lists keyword-only parameters without the '*' separator"),
    # -- tf.data
    _t("text-line-carriage-return-kept", "boundary", "simdist/runtime/data/readers.py",
       "            yield line.replace(b\"\\r\", b\"\")   # (InputBuffer::ReadLine appends no '\\r' to a line, wherever it is)\n",
       "            yield line\n",
       "TextLineDataset keeps a line's trailing \\r (a CRLF file's lines; TF strips it)"),
    _t("experimental-choose-stops-on-empty", "state", "simdist/runtime/data/experimental_forms.py",
       "def choose_from_datasets(datasets: Any, choice_dataset: Any, stop_on_empty_dataset: bool = False) -> Any:",
       "def choose_from_datasets(datasets: Any, choice_dataset: Any, stop_on_empty_dataset: bool = True) -> Any:",
       "tf.data.experimental.choose_from_datasets stops at the first empty input by default (its default is "
       "False, unlike the Dataset method's)"),
    _t("options-merge-precedence-swapped", "order", "simdist/runtime/data/options.py",
       "        return self._merged_with(options)  # type: ignore[return-value]\n",
       "        return options._merged_with(self)  # type: ignore[return-value]\n",
       "Options.merge lets self's settings override the argument's (TF: the argument's win)"),
    _t("unbatch-composite-sizes-one-way", "missing-error", "simdist/runtime/data/batching.py",
       "        for k, n in enumerate(sizes):\n            if n != sizes[0]:\n",
       "        for k, n in enumerate(sizes):\n            if n > sizes[0]:\n",
       "unbatch of an element with sparse components refuses a later component with more rows than the first "
       "but not one with fewer"),
    _t("padded-batch-slices-drop-ignored", "boundary", "simdist/runtime/data/batching.py",
       "            return _slice_batches(src._arrays, size, drop)\n"
       "        return _batches(src, size, drop, self._pad, fusable=False)\n",
       "            return _slice_batches(src._arrays, size, False)\n"
       "        return _batches(src, size, drop, self._pad, fusable=False)\n",
       "padded_batch of tensor slices needing no padding keeps the partial last batch under drop_remainder=True"),
    # -- checkpoints and saving
    _t("checkpoint-escape-order-swapped", "order", "simdist/strategies/checkpoint.py",
       "    return name.replace(\".\", \"..\").replace(\"/\", \".S\")\n",
       "    return name.replace(\"/\", \".S\").replace(\".\", \"..\")\n",
       "a checkpoint key escapes '/' before doubling '.', so '/' becomes '..S' (TF: '.S')"),
    _t("checkpoint-tuple-untracked", "state", "simdist/strategies/checkpoint.py",
       "    if type(value) in (list, dict, collections.OrderedDict) or isinstance(value, tuple):\n",
       "    if type(value) in (list, dict, collections.OrderedDict):\n",
       "a tuple attribute of a tracked object is not a checkpoint dependency (TF wraps tuples)"),
    _t("checkpoints-iterator-repeats-last", "state", "simdist/strategies/checkpoint_reader.py",
       "        if path is None or path == last:\n",
       "        if path is None:\n",
       "tf.train.checkpoints_iterator yields the same newest checkpoint again instead of waiting for a new one"),
    # -- distribution
    _t("replica-update-group-dropped", "state", "simdist/strategies/base.py",
       "            return self.update(var, fn, margs, mkw, group=group)\n",
       "            return self.update(var, fn, margs, mkw)\n",
       "extended.update in a replica context forgets group=False (its merge_call updates with group=True)"),
    _t("non-slot-run-group-ignored", "state", "simdist/strategies/base.py",
       "    timing.charge_updates([(device or context.current_device(), flops)])\n"
       "    return result if group else _local_results(result)\n",
       "    timing.charge_updates([(device or context.current_device(), flops)])\n"
       "    return result\n",
       "update_non_slot(group=False) of the default and one-device strategies returns the result, not each leaf "
       "as a 1-tuple"),
    _t("cross-replica-check-default-context", "missing-error", "simdist/strategies/base.py",
       "            if f.replica_context is not None and f.replica_context is not _default_replica_context:\n",
       "            if f.replica_context is not None:\n",
       "the default strategy's own replica context (outside run) counts as a replica context: update_non_slot "
       "refused there"),
    _t("as-per-replica-densifies-slices", "state", "simdist/strategies/cross_device_ops.py",
       "    return PerReplica([value if isinstance(value, IndexedSlices) else convert_to_tensor(value)])\n",
       "    return PerReplica([convert_to_tensor(value)])\n",
       "a cross-device op given a plain IndexedSlices converts it to a dense tensor before reducing"),
    # -- random ops
    _t("stateless-uniform-range-not-subtracted", "boundary", "simdist/runtime/ops/random.py",
       "    return r * (hi - lo) + lo   # TF: rnd * (maxval - minval) + minval",
       "    return r * hi + lo   # TF: rnd * (maxval - minval) + minval",
       "stateless_uniform's floats scaled by maxval, not maxval - minval"),
    _t("truncated-normal-kernel-key-normal", "state", "simdist/runtime/ops/random.py",
       "    gen = _kernel((\"TruncatedNormal\", seed, seed2, dtype.name)",
       "    gen = _kernel((\"RandomStandardNormal\", seed, seed2, dtype.name)",
       "truncated_normal shares random_normal's kernel stream for the same seeds (TF: a kernel per op)"),
    _t("affine-tensor-moments-swapped", "order", "simdist/runtime/ops/random.py",
       "        return math.add(math.multiply(r, convert_to_tensor(b, dtype=dt)), convert_to_tensor(a, dtype=dt))\n",
       "        return math.add(math.multiply(r, convert_to_tensor(a, dtype=dt)), convert_to_tensor(b, dtype=dt))\n",
       "the stateless normals with tensor mean and stddev scale by the mean and shift by the stddev"),
    _t("gamma-empty-drops-alpha-shape", "state", "simdist/runtime/ops/random_gamma.py",
       "        return np.zeros(shape + alpha.shape, dtype._np)\n    gen = _reserve((\"RandomGamma\"",
       "        return np.zeros(shape, dtype._np)\n    gen = _reserve((\"RandomGamma\"",
       "tf.random.gamma of an empty shape returns shape's zeros without alpha's dimensions"),
    _t("generator-variable-state-unchecked", "missing-error", "simdist/runtime/ops/random_generator.py",
       "            if isinstance(state, Variable):\n                self._check_shape(state.shape.as_list())\n",
       "            if isinstance(state, Variable):\n",
       "tf.random.Generator(state=<variable of the wrong size>) accepted (TF checks a variable's shape too)"),
    # -- op gradients (in place of two unobservable drafts: a generator batch's shape check, AvgPoolGrad's loop)
    _t("bessel-i0e-grad-sign-dropped", "gradient", "simdist/runtime/ops/special_more.py",
       "    return [grad * (bessel_i1e(x) - sign(x) * y)]\n",
       "    return [grad * (bessel_i1e(x) - y)]\n",
       "BesselI0e's gradient i1e(x) - y, without sign(x) (wrong for negative x)"),
    _t("rsqrt-grad-grad-coefficient", "gradient", "simdist/runtime/ops/sqrt_grads.py",
       "    return [-1.5 * cg * b * unary.square(ca), rsqrt_grad(ca, grad)]\n",
       "    return [-0.5 * cg * b * unary.square(ca), rsqrt_grad(ca, grad)]\n",
       "RsqrtGrad's gradient in y -0.5 grad b y^2, not -1.5 grad b y^2 (a second derivative of rsqrt)"),
]
TRAINING += TRAINING_BATCH55
CATALOGUE += TRAINING_BATCH55


# -- batch 56 (forty-ninth session, helper blind49a): written blind from simdist's source, each in a function no
#    earlier mutant touched (/work/wt/blind49a_logs/check_anchors.py: 0 problems); Keras layers, losses and
#    metrics, optimizers and schedules, callbacks, Keras saving
_KM = "simdist/keras/layers/merging.py"
_KFILE = "simdist/keras/models/keras_file.py"
TRAINING_BATCH56: list[Mutant] = [
    # -- Keras layers
    _t("minimum-helper-builds-maximum", "formula", _KM,
       "    return Minimum(**kwargs)(inputs)\n",
       "    return Maximum(**kwargs)(inputs)\n",
       "keras.layers.minimum([a, b]) builds a Maximum layer (a copy of the helper above it)"),
    _t("merge-same-dtype-takes-first", "dtype", _KM,
       "    target = dtype_promotion.result_type(*names)\n",
       "    target = names[0]\n",
       "the merge layers cast every input to the first input's dtype, not to Keras's result type"),
    _t("repeat-vector-repeats-last-axis", "axis", "simdist/keras/layers/repeat_vector.py",
       "        return tf.repeat(reshaped, self.n, axis=1)\n",
       "        return tf.repeat(reshaped, self.n, axis=-1)\n",
       "RepeatVector repeats along the feature axis of the (batch, 1, features) reshape, not the new time axis"),
    _t("rescaling-drops-masking", "state", "simdist/keras/layers/rescaling.py",
       "        self.offset = offset\n        self.supports_masking = True\n",
       "        self.offset = offset\n",
       "Rescaling does not pass a mask through (Keras: supports_masking)"),
    _t("cropping3d-default-zero", "boundary", "simdist/keras/layers/cropping.py",
       "    def __init__(self, cropping: Any = ((1, 1), (1, 1), (1, 1)), data_format: str | None = None,\n",
       "    def __init__(self, cropping: Any = ((0, 0), (0, 0), (0, 0)), data_format: str | None = None,\n",
       "Cropping3D's default cropping is zeros, as Cropping2D's (Keras: one on each side of each axis)"),
    _t("adaptive-average-pools-max", "formula", "simdist/keras/layers/adaptive_pooling.py",
       "        return ops.adaptive_average_pool(inputs, output_size=self.output_size, data_format=self.data_format)\n",
       "        return ops.adaptive_max_pool(inputs, output_size=self.output_size, data_format=self.data_format)\n",
       "the AdaptiveAveragePooling layers call adaptive_max_pool"),
    _t("depthwise-input-channel-always-last", "axis", "simdist/keras/layers/depthwise_separable.py",
       "        return input_shape[-1] if self.data_format == \"channels_last\" else input_shape[1]\n",
       "        return input_shape[-1]\n",
       "the depthwise/separable convolutions read the input channels from the last axis under channels_first too"),
    _t("depthwise-shape-dilation-dropped", "formula", "simdist/keras/layers/depthwise_separable.py",
       "                                         padding=self.padding, data_format=self.data_format,\n"
       "                                         dilation_rate=self.dilation_rate)\n",
       "                                         padding=self.padding, data_format=self.data_format)\n",
       "the depthwise/separable convolutions' compute_output_shape ignores dilation_rate"),
    _t("einsum-transposed-kernel-not-transposed", "order", "simdist/keras/layers/einsum_dense.py",
       "    if sub == \"ab,cb->ac\" or sub == \"abc,dc->abd\":\n        return mm(x, tf.transpose(y, [1, 0]))\n",
       "    if sub == \"ab,cb->ac\" or sub == \"abc,dc->abd\":\n        return mm(x, y)\n",
       "einsum('ab,cb->ac') (Keras's TF matmul form, as EinsumDense runs it) multiplies by y, not its transpose"),
    _t("spectral-norm-vector-u-trainable", "state", "simdist/keras/layers/spectral_normalization.py",
       "initializer=initializers.TruncatedNormal(stddev=0.02), trainable=False,",
       "initializer=initializers.TruncatedNormal(stddev=0.02), trainable=True,",
       "SpectralNormalization's power-iteration vector vector_u is created trainable"),
    _t("discretization-reset-inverted", "state", "simdist/keras/layers/discretization.py",
       "    def reset_state(self) -> None:\n        if self.num_bins is None:\n            return\n",
       "    def reset_state(self) -> None:\n        if self.num_bins is not None:\n            return\n",
       "Discretization.reset_state keeps the adapted summary when num_bins is set (a second adapt accumulates)"),
    _t("dense-input-spec-axis-dropped", "missing-error", "simdist/keras/layers/core.py",
       "        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_shape[-1]})\n        self.built = True\n"
       "        if self.lora_rank:\n",
       "        self.input_spec = InputSpec(min_ndim=2)\n        self.built = True\n"
       "        if self.lora_rank:\n",
       "a built Dense does not check the last axis of a later input against its kernel (Keras: input_spec axes)"),
    _t("text-vectorization-idf-weights-dropped", "state", "simdist/keras/layers/text_vectorization.py",
       "        self._lookup_layer.set_vocabulary(vocabulary, idf_weights=idf_weights)\n",
       "        self._lookup_layer.set_vocabulary(vocabulary)\n",
       "TextVectorization.set_vocabulary forgets idf_weights (tf_idf mode)"),
    _t("pooling-shape-pool-strides-swapped", "order", "simdist/keras/layers/pooling.py",
       "        return compute_pooling_output_shape(input_shape, self.pool_size, self.strides, self.padding,\n",
       "        return compute_pooling_output_shape(input_shape, self.strides, self.pool_size, self.padding,\n",
       "the pooling layers' compute_output_shape passes strides as pool_size and pool_size as strides"),
    # -- losses and metrics
    _t("one-hot-iou-sparse-true", "state", "simdist/keras/metrics/iou_metrics.py",
       "        super().__init__(num_classes=num_classes, target_class_ids=target_class_ids, name=name, dtype=dtype,\n"
       "                         ignore_class=ignore_class, sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)\n",
       "        super().__init__(num_classes=num_classes, target_class_ids=target_class_ids, name=name, dtype=dtype,\n"
       "                         ignore_class=ignore_class, sparse_y_true=True, sparse_y_pred=sparse_y_pred, axis=axis)\n",
       "OneHotIoU reads its one-hot y_true as sparse class ids"),
    _t("top-k-accuracy-config-drops-k", "state", "simdist/keras/metrics/accuracy_metrics.py",
       "        return {\"name\": self.name, \"dtype\": self.dtype, \"k\": self.k}\n",
       "        return {\"name\": self.name, \"dtype\": self.dtype}\n",
       "TopKCategoricalAccuracy.get_config leaves out k (from_config gives k=5)"),
    _t("kl-divergence-metric-default-name", "state", "simdist/keras/metrics/probabilistic_metrics.py",
       "    def __init__(self, name: str = \"kl_divergence\", dtype: Any = None) -> None:\n",
       "    def __init__(self, name: str = \"kullback_leibler_divergence\", dtype: Any = None) -> None:\n",
       "the KLDivergence metric's default name is tf.keras 1's kullback_leibler_divergence (Keras 3: kl_divergence)"),
    _t("unscale-loss-divides", "denominator", "simdist/keras/losses/loss.py",
       "        value = value * ops.cast(n, value.dtype)\n",
       "        value = value / ops.cast(n, value.dtype)\n",
       "unscale_loss_for_distribution divides by the replica count again (the tracked loss under a "
       "multi-replica strategy)"),
    _t("precision-recall-other-name-inverted", "state", "simdist/keras/metrics/precision_recall.py",
       "        return \"false_positives\" if self._other == CM.FALSE_POSITIVES else \"false_negatives\"\n",
       "        return \"false_positives\" if self._other == CM.FALSE_NEGATIVES else \"false_negatives\"\n",
       "Precision's second variable is named false_negatives and Recall's false_positives"),
    # -- optimizers and schedules
    _t("adagrad-initial-accumulator-default", "boundary", "simdist/keras/optimizers/adagrad.py",
       "initial_accumulator_value: float = 0.1, epsilon",
       "initial_accumulator_value: float = 0.01, epsilon",
       "Adagrad's initial_accumulator_value defaults to 0.01 (Keras: 0.1)"),
    _t("adadelta-rho-default", "boundary", "simdist/keras/optimizers/adadelta.py",
       "learning_rate: Any = 0.001, rho: float = 0.95, epsilon",
       "learning_rate: Any = 0.001, rho: float = 0.9, epsilon",
       "Adadelta's rho defaults to 0.9 (RMSprop's; Keras: 0.95)"),
    _t("cosine-restarts-config-muls-swapped", "order", "simdist/keras/optimizers/schedules.py",
       "                \"t_mul\": self._t_mul, \"m_mul\": self._m_mul,",
       "                \"t_mul\": self._m_mul, \"m_mul\": self._t_mul,",
       "CosineDecayRestarts.get_config writes t_mul and m_mul swapped"),
    _t("optimizer-from-config-schedule-raw", "state", BO,
       "        elif isinstance(lr, dict):\n"
       "            config[\"learning_rate\"] = schedules.deserialize(",
       "        elif isinstance(lr, str):\n"
       "            config[\"learning_rate\"] = schedules.deserialize(",
       "Optimizer.from_config does not deserialize a schedule's dict learning_rate"),
    # -- callbacks
    _t("swap-ema-predict-flag-not-set", "state", "simdist/keras/callbacks/swap_ema_weights.py",
       "    def on_predict_begin(self, logs: Any = None) -> None:\n        if not self._ema_weights_in_model:\n"
       "            self._swap_variables()\n            self._ema_weights_in_model = True\n",
       "    def on_predict_begin(self, logs: Any = None) -> None:\n        if not self._ema_weights_in_model:\n"
       "            self._swap_variables()\n",
       "SwapEMAWeights.on_predict_begin swaps the EMA weights in without noting it (on_predict_end then swaps back)"),
    _t("terminate-on-nan-raises-by-default", "boundary", "simdist/keras/callbacks/terminate_on_nan.py",
       "    def __init__(self, raise_error: bool = False) -> None:\n",
       "    def __init__(self, raise_error: bool = True) -> None:\n",
       "TerminateOnNaN raises on a NaN loss by default instead of stopping training"),
    _t("callback-list-predict-batch-begin-calls-end", "order", "simdist/keras/callbacks/callback_list.py",
       "        self._each(\"on_predict_batch_begin\", batch, logs=logs)\n",
       "        self._each(\"on_predict_batch_end\", batch, logs=logs)\n",
       "CallbackList.on_predict_batch_begin calls each callback's on_predict_batch_end"),
    # -- Keras saving
    _t("load-model-compile-default-false", "boundary", _KFILE,
       "def load_model(filepath: Any, custom_objects: dict | None = None, compile: bool = True, safe_mode",
       "def load_model(filepath: Any, custom_objects: dict | None = None, compile: bool = False, safe_mode",
       "keras.models.load_model does not compile the loaded model by default (Keras: compile=True)"),
    _t("compile-arg-tuple-refused", "missing-error", _KFILE,
       "    if isinstance(x, (list, tuple)):\n        return [_serialize_compile_arg(v) for v in x]\n",
       "    if isinstance(x, list):\n        return [_serialize_compile_arg(v) for v in x]\n",
       "saving a model compiled with a tuple of metrics fails (Keras serializes tuples as lists)"),
    _t("model-class-unknown-error-class", "error-class", _KFILE,
       "        raise could_not_locate(\"class\", name, config)\n",
       "        raise ValueError(str(could_not_locate(\"class\", name, config)))\n",
       "loading a .keras file of an unregistered model class raises ValueError (Keras: TypeError)"),
    _t("compile-config-loss-custom-objects-dropped", "state", _KFILE,
       "    def loss_of(x: Any) -> Any:\n        if isinstance(x, dict) and \"class_name\" in x and \"module\" in x:\n"
       "            return deserialize_keras_object(x, custom_objects)\n",
       "    def loss_of(x: Any) -> Any:\n        if isinstance(x, dict) and \"class_name\" in x and \"module\" in x:\n"
       "            return deserialize_keras_object(x)\n",
       "load_model's compile config deserializes a custom loss class without custom_objects"),
]
TRAINING += TRAINING_BATCH56
CATALOGUE += TRAINING_BATCH56
# --- the fifty-seventh blind batch (forty-ninth session, helper blind49b): written from simdist's source alone,
# before reading any suite test, each in a function no earlier mutant touched (/work/wt/blind49b_logs/untouched.py,
# check_anchors.py: 0 problems); the trainer, op gradients and the tape, tf.function, tf.data, checkpoints,
# distribution and random ops. Each was checked observable (TF 2.21 and simdist agree, the mutant differs) by one
# program per mutant (/work/wt/blind49b_logs/probes.py).
TRAINING_BATCH57: list[Mutant] = [
    # -- the trainer
    _t("model-distribute-strategy-ignores-captured", "state", "simdist/keras/trainers/trainer.py",
       "        return self._distribute_strategy or tf.distribute.get_strategy()\n",
       "        return tf.distribute.get_strategy()\n",
       "model.distribute_strategy is the current strategy, not the one the model was created under"),
    _t("reset-metrics-skips-loss-tracker", "state", "simdist/keras/trainers/trainer.py",
       "    def reset_metrics(self) -> None:\n        for m in self.metrics:\n",
       "    def reset_metrics(self) -> None:\n        for m in self.metrics[1:]:\n",
       "model.reset_metrics() leaves the first metric (the loss tracker) unreset"),
    _t("epoch-iterator-steps-per-execution-dropped", "state", "simdist/keras/trainers/trainer.py",
       "        return epoch_iterator_module.EpochIterator(distribute_strategy=self.distribute_strategy,\n"
       "                                                 steps_per_execution=self.steps_per_execution, **kwargs)\n",
       "        return epoch_iterator_module.EpochIterator(distribute_strategy=self.distribute_strategy, **kwargs)\n",
       "fit/evaluate/predict build their epoch iterator without the model's steps_per_execution (one step per "
       "execution: the callbacks see every batch)"),
    _t("append-outputs-nested-tuple-whole", "state", "simdist/keras/trainers/trainer.py",
       "            _append_outputs(o, b) if isinstance(b, (dict, list, tuple)) else o.append(b)\n",
       "            _append_outputs(o, b) if isinstance(b, (dict, list)) else o.append(b)\n",
       "predict appends a nested tuple of a list output whole instead of walking into it"),
    # -- op gradients and the tape
    _t("relu6-grad-grad-reads-upstream", "gradient", "simdist/runtime/ops/activations.py",
       "def _relu6_grad_grad(op: Any, grad: Any) -> list:\n    x = op.inputs[1]\n",
       "def _relu6_grad_grad(op: Any, grad: Any) -> list:\n    x = op.inputs[0]\n",
       "Relu6Grad's gradient masks by its upstream-gradient input, not by the features"),
    _t("erfc-grad-sign-flipped", "gradient", "simdist/runtime/ops/activations.py",
       "    return [grad * math.cast(-2 / np.sqrt(np.pi), grad.dtype) * unary.exp(-unary.square(x))]\n",
       "    return [grad * math.cast(2 / np.sqrt(np.pi), grad.dtype) * unary.exp(-unary.square(x))]\n",
       "Erfc's gradient +2/sqrt(pi) exp(-x^2) (erf's), not -2/sqrt(pi) exp(-x^2)"),
    _t("dawsn-grad-factor-two-dropped", "gradient", "simdist/runtime/ops/special_funcs.py",
       "    return [grad * (1.0 - 2 * x * y)]\n",
       "    return [grad * (1.0 - x * y)]\n",
       "Dawsn's gradient 1 - x y, not 1 - 2 x y"),
    _t("bessel-y1-grad-plus", "gradient", "simdist/runtime/ops/special_funcs.py",
       "    return [grad * (bessel_y0(x) - _m().divide(y, x))]\n",
       "    return [grad * (bessel_y0(x) + _m().divide(y, x))]\n",
       "BesselY1's gradient y0(x) + y1(x)/x, not y0(x) - y1(x)/x"),
    _t("fresnel-cos-grad-sin", "gradient", "simdist/runtime/ops/special_funcs.py",
       "    from simdist.runtime.ops.special import cos\n    from simdist.runtime.ops.unary import square\n"
       "    return [grad * cos((np.pi / 2.0) * square(op.inputs[0]))]\n",
       "    from simdist.runtime.ops.special import sin\n    from simdist.runtime.ops.unary import square\n"
       "    return [grad * sin((np.pi / 2.0) * square(op.inputs[0]))]\n",
       "FresnelCos's gradient sin(pi x^2 / 2) (FresnelSin's, a copy-paste), not cos(pi x^2 / 2)"),
    _t("acosh-grad-cosh", "gradient", "simdist/runtime/ops/special.py",
       "    return [grad / sinh(_conj(op.outputs[0]))]\n",
       "    return [grad / cosh(_conj(op.outputs[0]))]\n",
       "Acosh's gradient grad / cosh(y), not grad / sinh(y)"),
    _t("sum-grad-keepdims-assumed", "gradient", "simdist/runtime/ops/math.py",
       "    return [_sum_grad_to(grad, op.inputs[0].shape.as_list(), op.get_attr(\"axis\"), op.get_attr(\"keepdims\"))]\n",
       "    return [_sum_grad_to(grad, op.inputs[0].shape.as_list(), op.get_attr(\"axis\"), True)]\n",
       "Sum's gradient takes the upstream gradient as if keepdims were set (no reshape before the broadcast)"),
    _t("tape-indexed-slices-handed-through", "gradient", "simdist/runtime/autodiff/tape.py",
       "    return tuple(convert_to_tensor(g) if isinstance(g, IndexedSlices) else g for g in grads)\n",
       "    return tuple(grads)\n",
       "the tape hands an IndexedSlices upstream gradient to every op's gradient function as it is (TF densifies "
       "it for all but a few pass-through ops)"),
    # -- tf.function
    _t("concrete-outputs-flatten-dict-unsorted", "order", "simdist/tf/_concrete.py",
       "def _flatten(x: Any) -> list[Any]:\n    if isinstance(x, dict):\n        return [y for k in sorted(x) for y in _flatten(x[k])]\n",
       "def _flatten(x: Any) -> list[Any]:\n    if isinstance(x, dict):\n        return [y for k in x for y in _flatten(x[k])]\n",
       "a concrete function's outputs list a dict's values in insertion order, not by sorted key"),
    _t("concrete-map-namedtuple-generator", "state", "simdist/tf/_concrete.py",
       "    if isinstance(x, tuple) and hasattr(x, \"_fields\"):\n        return type(x)(*[_map(fn, v) for v in x])\n"
       "    if isinstance(x, (list, tuple)):\n        return type(x)(_map(fn, v) for v in x)\n",
       "    if isinstance(x, (list, tuple)):\n        return type(x)(_map(fn, v) for v in x)\n",
       "a concrete function's output_shapes/output_dtypes rebuild a namedtuple from one generator (TypeError)"),
    # -- tf.data
    _t("take-while-card-of-input", "boundary", "simdist/runtime/data/take_while.py",
       "    def _card(self) -> int:\n        return UNKNOWN_CARDINALITY\n",
       "    def _card(self) -> int:\n        return self._input._card()\n",
       "take_while reports its input's cardinality (TF: unknown, -2)"),
    _t("csv-select-cols-bound-off-by-one", "boundary", "simdist/runtime/data/csv_reader.py",
       "            if len(fields) <= last:\n",
       "            if len(fields) < last:\n",
       "CsvDataset(select_cols) lets a record with exactly the last selected column's index of fields through "
       "(an IndexError, not InvalidArgumentError)"),
    _t("csv-na-value-ignored", "missing-error", "simdist/runtime/data/csv_reader.py",
       "            if field == b\"\" or field == na:\n",
       "            if field == b\"\":\n",
       "CsvDataset parses a field equal to na_value instead of taking the column's default"),
    _t("directed-interleave-card-counts-selector", "boundary", "simdist/runtime/data/sampling.py",
       "        for d in self._inputs[1:]:\n            if d._card() == INFINITE_CARDINALITY:\n",
       "        for d in self._inputs:\n            if d._card() == INFINITE_CARDINALITY:\n",
       "sample_from_/choose_from_datasets count the (infinite) selector dataset: infinite cardinality for finite "
       "inputs"),
    _t("csv-int32-upper-bound-inclusive", "boundary", "simdist/runtime/data/csv_reader.py",
       "            if -(1 << bits) <= v < (1 << bits):\n",
       "            if -(1 << bits) <= v <= (1 << bits):\n",
       "CsvDataset accepts 2**31 in an int32 column (2**63 in int64) instead of refusing it"),
    _t("from-generator-shape-unchecked", "missing-error", "simdist/runtime/data/sources.py",
       "            if not s.shape.is_compatible_with(arr.shape):\n                raise errors.InvalidArgumentError(\n"
       "                    None, None, f\"TypeError: `generator` yielded an element of shape",
       "            if False:\n                raise errors.InvalidArgumentError(\n"
       "                    None, None, f\"TypeError: `generator` yielded an element of shape",
       "from_generator takes a yielded element whose shape the output_signature refuses"),
    # -- checkpoints
    _t("reader-has-tensor-bytes-unkeyed", "state", "simdist/strategies/checkpoint_reader.py",
       "        return self._key(tensor_str) in self._tensors\n",
       "        return tensor_str in self._tensors\n",
       "CheckpointReader.has_tensor looks a bytes key up without decoding it (False for a saved tensor's name as bytes)"),
    _t("reader-debug-string-dims-spaced", "state", "simdist/strategies/checkpoint_reader.py",
       "            lines.append(f\"{k} (DT_{dt}) [{','.join(str(n) for n in self._tensors[k].shape)}]\\n\")\n",
       "            lines.append(f\"{k} (DT_{dt}) [{', '.join(str(n) for n in self._tensors[k].shape)}]\\n\")\n",
       "CheckpointReader.debug_string writes a shape's dimensions separated by ', ' (TF: ',')"),
    _t("init-only-status-existing-matched-passes", "missing-error", "simdist/strategies/checkpoint.py",
       "    def assert_existing_objects_matched(self) -> None:\n        raise AssertionError(self._MESSAGE)\n",
       "    def assert_existing_objects_matched(self) -> None:\n        return None\n",
       "restore(None)'s status passes assert_existing_objects_matched (TF: AssertionError, nothing restored)"),
    # -- distribution
    _t("replica-context-device-first", "placement", "simdist/strategies/base.py",
       "        return devs[rid] if devs else context.current_device()\n",
       "        return devs[0] if devs else context.current_device()\n",
       "every replica context names the first device as its own (ReplicaContext.devices, the replica id's device)"),
    _t("read-var-returns-variable", "state", "simdist/strategies/base.py",
       "dsweep55, and under no scope).\"\"\"\n        return broadcast.copy_to_device(v, context.current_device())\n",
       "dsweep55, and under no scope).\"\"\"\n        return v\n",
       "extended.read_var of the default and one-device strategies returns the variable, not a tensor of its value"),
    _t("non-slot-devices-first-given", "order", "simdist/strategies/base.py",
       "        return min(var_list, key=lambda x: x.name)\n",
       "        return var_list[0]\n",
       "the default strategy's extended.non_slot_devices gives the first variable of the list, not the first by name"),
    _t("variable-created-in-any-scope", "state", "simdist/strategies/base.py",
       "        return getattr(v, \"_distribute_strategy\", None) is self._container_strategy\n",
       "        return getattr(v, \"_distribute_strategy\", None) is not None\n",
       "extended.variable_created_in_scope says True for a variable of any strategy"),
    # -- random ops
    _t("stateless-truncated-normal-normal-op", "state", "simdist/runtime/ops/random.py",
       "    return _affine(STATELESS_TRUNCATED, seed, shape, dtype, mean, stddev, \"StatelessTruncatedNormalV2\", alg)\n",
       "    return _affine(STATELESS_NORMAL, seed, shape, dtype, mean, stddev, \"StatelessTruncatedNormalV2\", alg)\n",
       "tf.random.stateless_truncated_normal draws with the stateless normal's op (a copy-paste): values beyond two "
       "standard deviations"),
    _t("normal-scale-shift-swapped", "order", "simdist/runtime/ops/random.py",
       "    return _scaled(philox_dists.normal(gen, shape, dtype._np), stddev, mean, dtype)\n",
       "    return _scaled(philox_dists.normal(gen, shape, dtype._np), mean, stddev, dtype)\n",
       "tf.random.normal with numeric moments scales by the mean and shifts by the stddev"),
    _t("generator-from-seed-default-threefry", "state", "simdist/runtime/ops/random_generator.py",
       "        a = _alg(Algorithm.PHILOX if alg is None else alg)\n        return cls(state=create_rng_state(seed, a), alg=a)\n",
       "        a = _alg(Algorithm.THREEFRY if alg is None else alg)\n        return cls(state=create_rng_state(seed, a), alg=a)\n",
       "Generator.from_seed defaults to THREEFRY (TF: PHILOX)"),
]
TRAINING += TRAINING_BATCH57
CATALOGUE += TRAINING_BATCH57


# Batch 58 (fiftieth session, helper blind50a): written blind, from simdist's source alone, in the Keras layers,
# losses and metrics, optimizers and schedules, callbacks and Keras saving; each in a function no earlier mutant
# touched (/work/wt/blind50a_logs/check_anchors.py: 0 problems). The first 21 are on the mainstream path (the line runs
# in a plain compile/fit/evaluate/save/load program or a custom training loop: /work/wt/blind50a_logs/mainstream.py
# under coverage, covuntouched.txt); the other 14 in the areas' rarer corners.
TRAINING_BATCH58: list[Mutant] = [
    # -- mainstream: layers
    _t("lstm-unit-forget-bias-default-false", "state", "simdist/keras/layers/rnn.py",
       "                 unit_forget_bias: bool = True, kernel_regularizer: Any = None,",
       "                 unit_forget_bias: bool = False, kernel_regularizer: Any = None,",
       "keras.layers.LSTM's unit_forget_bias defaults to False (Keras: True, the forget gate's bias starts at 1)"),
    _t("gru-reset-after-default-false", "state", "simdist/keras/layers/rnn.py",
       "                 stateful: bool = False, unroll: bool = False, reset_after: bool = True, use_cudnn: Any = \"auto\",",
       "                 stateful: bool = False, unroll: bool = False, reset_after: bool = False, use_cudnn: Any = \"auto\",",
       "keras.layers.GRU's reset_after defaults to False (Keras 3: True; the bias is (2, 3 * units))"),
    _t("set-weights-fewer-accepted", "missing-error", "simdist/keras/layers/layer.py",
       "        if len(layer_weights) != len(weights):\n            raise ValueError(f\"You called `set_weights(weights)` on layer",
       "        if len(layer_weights) < len(weights):\n            raise ValueError(f\"You called `set_weights(weights)` on layer",
       "Layer.set_weights with fewer arrays than weights assigns the first ones instead of raising ValueError"),
    _t("rnn-recurrent-kernel-takes-kernel-regularizer", "state", "simdist/keras/layers/rnn_cells.py",
       "                                                regularizer=self.recurrent_regularizer,\n",
       "                                                regularizer=self.kernel_regularizer,\n",
       "the recurrent cells' recurrent_kernel takes kernel_regularizer (a copy-paste): its penalty counted twice, "
       "recurrent_regularizer ignored"),
    _t("embedding-build-drops-regularizer", "state", "simdist/keras/layers/core.py",
       "                                           initializer=self.embeddings_initializer, name=\"embeddings\",\n"
       "                                           regularizer=self.embeddings_regularizer,\n",
       "                                           initializer=self.embeddings_initializer, name=\"embeddings\",\n",
       "Embedding.build creates the table without embeddings_regularizer: no penalty in model.losses"),
    _t("conv-bias-add-prefers-channels-first", "axis", "simdist/keras/layers/convolutional.py",
       "        data_format = \"NHWC\" if dims[-1] == squeezed[0] else \"NCHW\"\n",
       "        data_format = \"NCHW\" if dims[1] == squeezed[0] else \"NHWC\"\n",
       "the convolutions' bias add (Keras's ops.add rule) takes the channels-first axis whenever the second axis "
       "matches the bias, also for a channels-last output whose first spatial size equals the filters"),
    _t("conv2d-bias-regularizer-from-kernel", "state", "simdist/keras/layers/convolutional.py",
       "        super().__init__(rank=2, filters=filters, kernel_size=kernel_size, strides=strides, padding=padding,\n"
       "                         data_format=data_format, dilation_rate=dilation_rate, groups=groups, activation=activation,\n"
       "                         use_bias=use_bias, kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,\n"
       "                         kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,\n"
       "                         activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,\n"
       "                         bias_constraint=bias_constraint, **kwargs)\n",
       "        super().__init__(rank=2, filters=filters, kernel_size=kernel_size, strides=strides, padding=padding,\n"
       "                         data_format=data_format, dilation_rate=dilation_rate, groups=groups, activation=activation,\n"
       "                         use_bias=use_bias, kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,\n"
       "                         kernel_regularizer=kernel_regularizer, bias_regularizer=kernel_regularizer,\n"
       "                         activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,\n"
       "                         bias_constraint=bias_constraint, **kwargs)\n",
       "Conv2D passes its kernel_regularizer as the bias_regularizer too (a copy-paste)"),
    _t("conv-compute-output-shape-drops-dilation", "boundary", "simdist/keras/layers/convolutional.py",
       "                                         padding=self.padding, data_format=self.data_format,\n"
       "                                         dilation_rate=self.dilation_rate)\n",
       "                                         padding=self.padding, data_format=self.data_format)\n",
       "the convolutions' compute_output_shape forgets dilation_rate (the shape of an undilated kernel)"),
    _t("maxpool2d-default-padding-same", "boundary", "simdist/keras/layers/pooling.py",
       "    def __init__(self, pool_size: Any = (2, 2), strides: Any = None, padding: str = \"valid\", data_format: Any = None,\n",
       "    def __init__(self, pool_size: Any = (2, 2), strides: Any = None, padding: str = \"same\", data_format: Any = None,\n",
       "MaxPooling2D's padding defaults to 'same' (Keras: 'valid'): an odd side rounds up"),
    _t("batchnorm-config-momentum-epsilon-swapped", "order", "simdist/keras/layers/normalization.py",
       "        return {**super().get_config(), \"axis\": self.axis, \"momentum\": self.momentum, \"epsilon\": self.epsilon,",
       "        return {**super().get_config(), \"axis\": self.axis, \"momentum\": self.epsilon, \"epsilon\": self.momentum,",
       "BatchNormalization.get_config writes momentum and epsilon swapped: a saved and loaded model normalizes with "
       "epsilon 0.99"),
    # -- mainstream: metrics, optimizers, callbacks, saving
    _t("mae-metric-direction-up", "state", "simdist/keras/metrics/regression_metrics.py",
       "        super().__init__(mean_absolute_error, name, dtype=dtype)\n        self._direction = \"down\"\n",
       "        super().__init__(mean_absolute_error, name, dtype=dtype)\n        self._direction = \"up\"\n",
       "the MeanAbsoluteError metric says higher is better: EarlyStopping/ModelCheckpoint(monitor='val_mae') in auto "
       "mode keep the worst epoch"),
    _t("precision-other-variable-is-true-positives", "state", "simdist/keras/metrics/precision_recall.py",
       "        return getattr(self, self._other_name())\n",
       "        return self.true_positives\n",
       "Precision/Recall update the true positives in place of their false positives/negatives (tp / 2tp)"),
    _t("sparse-categorical-accuracy-default-name", "state", "simdist/keras/metrics/accuracy_metrics.py",
       "    def __init__(self, name: str = \"sparse_categorical_accuracy\", dtype: Any = None) -> None:\n",
       "    def __init__(self, name: str = \"categorical_accuracy\", dtype: Any = None) -> None:\n",
       "SparseCategoricalAccuracy's default name is 'categorical_accuracy' (a copy-paste): fit's logs key"),
    _t("layer-losses-skip-sublayers", "state", "simdist/keras/layers/layer.py",
       "        out = self._own_losses()\n        for layer in self._flatten_layers(include_self=False):\n"
       "            out.extend(layer._own_losses())\n",
       "        out = self._own_losses()\n",
       "Layer.losses leaves out the losses its sub-layers added in their last call (an activity regularizer's penalty "
       "missing from model.losses and fit's loss)"),
    _t("callbacklist-epoch-begin-one-based", "boundary", "simdist/keras/callbacks/callback_list.py",
       "        self._each(\"on_epoch_begin\", epoch, logs=logs)\n",
       "        self._each(\"on_epoch_begin\", epoch + 1, logs=logs)\n",
       "the callbacks' on_epoch_begin receives a 1-based epoch (on_epoch_end the 0-based one)"),
    _t("read-archive-ignores-compile-false", "state", "simdist/keras/models/keras_file.py",
       "            model = deserialize_model(config, custom_objects, compile=compile)\n",
       "            model = deserialize_model(config, custom_objects)\n",
       "load_model(compile=False) compiles the loaded model all the same"),
    # -- the rarer corners
    _t("piecewise-config-boundaries-values-swapped", "order", "simdist/keras/optimizers/schedules.py",
       "        return {\"boundaries\": self.boundaries, \"values\": self.values, \"name\": self.name}\n",
       "        return {\"boundaries\": self.values, \"values\": self.boundaries, \"name\": self.name}\n",
       "PiecewiseConstantDecay.get_config writes boundaries and values swapped"),
    _t("rmsprop-config-drops-centered", "state", "simdist/keras/optimizers/rmsprop.py",
       "        config.update({\"rho\": self.rho, \"momentum\": self.momentum, \"epsilon\": self.epsilon,\n"
       "                       \"centered\": self.centered})\n",
       "        config.update({\"rho\": self.rho, \"momentum\": self.momentum, \"epsilon\": self.epsilon})\n",
       "RMSprop.get_config leaves centered out: from_config gives an uncentered RMSprop"),
    _t("auc-config-drops-from-logits", "state", "simdist/keras/metrics/confusion_metrics.py",
       "                               \"label_weights\": None if label_weights is None else label_weights.numpy().tolist(),\n"
       "                               \"from_logits\": self._from_logits}\n",
       "                               \"label_weights\": None if label_weights is None else label_weights.numpy().tolist()}\n",
       "AUC.get_config leaves from_logits out"),
    _t("fbeta-config-drops-threshold", "state", "simdist/keras/metrics/f_score_metrics.py",
       "                \"beta\": self.beta, \"threshold\": self.threshold}\n",
       "                \"beta\": self.beta}\n",
       "FBetaScore/F1Score.get_config leave threshold out"),
    _t("leaky-relu-config-legacy-alpha-key", "state", "simdist/keras/layers/activation_layers.py",
       "        return {**super().get_config(), \"negative_slope\": self.negative_slope}\n",
       "        return {**super().get_config(), \"alpha\": self.negative_slope}\n",
       "LeakyReLU.get_config writes Keras 2's 'alpha' key in place of negative_slope"),
    _t("activity-regularization-config-l1-l2-swapped", "order", "simdist/keras/layers/activity_regularization.py",
       "        return {**config, \"l1\": self.l1, \"l2\": self.l2}\n",
       "        return {**config, \"l1\": self.l2, \"l2\": self.l1}\n",
       "ActivityRegularization.get_config swaps l1 and l2"),
    _t("dot-config-drops-normalize", "state", "simdist/keras/layers/dot.py",
       "        return {**super().get_config(), \"axes\": self.axes, \"normalize\": self.normalize}\n",
       "        return {**super().get_config(), \"axes\": self.axes}\n",
       "Dot.get_config leaves normalize out: a reloaded cosine Dot is a plain dot product"),
    _t("sparse-ce-loss-config-drops-ignore-class", "state", "simdist/keras/losses/losses.py",
       "        config.update({\"from_logits\": self.from_logits, \"ignore_class\": self.ignore_class})\n",
       "        config.update({\"from_logits\": self.from_logits})\n",
       "the SparseCategoricalCrossentropy loss's get_config leaves ignore_class out"),
    _t("rnn-own-cell-ignores-trainable", "state", "simdist/keras/layers/rnn.py",
       "trainable=kwargs.get(\"trainable\", True), name=name)\n",
       "trainable=True, name=name)\n",
       "SimpleRNN/LSTM/GRU(trainable=False) build a trainable cell"),
    _t("index-lookup-token-start-one-oov", "boundary", "simdist/keras/layers/index_lookup.py",
       "        return self._oov_start_index() + self.num_oov_indices\n",
       "        return self._oov_start_index() + 1\n",
       "StringLookup/IntegerLookup place the vocabulary after one OOV index whatever num_oov_indices is"),
    _t("hashing-config-drops-salt", "state", "simdist/keras/layers/hashing.py",
       "\"num_bins\": self.num_bins, \"salt\": self.salt, \"mask_value\": self.mask_value,",
       "\"num_bins\": self.num_bins, \"mask_value\": self.mask_value,",
       "Hashing.get_config leaves salt out: a reloaded salted Hashing hashes unsalted"),
    _t("category-encoding-config-drops-output-mode", "state", "simdist/keras/layers/category_encoding.py",
       "        return {**super().get_config(), \"num_tokens\": self.num_tokens, \"output_mode\": self.output_mode}\n",
       "        return {**super().get_config(), \"num_tokens\": self.num_tokens}\n",
       "CategoryEncoding.get_config leaves output_mode out: a reloaded one-hot encoder is multi-hot"),
    _t("read-archive-missing-weights-unchecked", "error-class", "simdist/keras/models/keras_file.py",
       "            missing = [n for n in (_CONFIG, _WEIGHTS) if n not in names]\n",
       "            missing = [n for n in (_CONFIG,) if n not in names]\n",
       "load_model of a .keras zip without model.weights.h5: a KeyError from the zip, not the ValueError naming the file"),
    _t("group-norm-output-shape-unchecked", "missing-error", "simdist/keras/layers/group_normalization.py",
       "        check_axes(self.axis, input_shape, self.axis)\n        return input_shape\n",
       "        return input_shape\n",
       "GroupNormalization.compute_output_shape takes an axis out of the input's range"),
]
TRAINING += TRAINING_BATCH58
CATALOGUE += TRAINING_BATCH58
# Fifty-ninth blind batch (fiftieth session, helper blind50b): 30 training-layer mutants written from simdist's
# source alone, before reading any suite test, 15 of them on lines an ordinary compile/fit or custom training loop
# runs (/work/wt/blind50b_logs/mainstream_prog.py under coverage), the rest in functions no earlier mutant touched:
# the trainer, op gradients and the tape, tf.function, tf.data, checkpoints, distribution and random ops. Each was
# checked observable (TF 2.21 and simdist agree, the mutant differs) by one program per mutant
# (/work/wt/blind50b_logs/probes.py).
TRAINING_BATCH59: list[Mutant] = [
    # -- mainstream: lines a plain fit / custom training loop runs
    _t("mul-grad-same-shape-factors-swapped", "gradient", "simdist/runtime/ops/math.py",
       "        return [multiply(grad, y), multiply(grad, x)]\n",
       "        return [multiply(grad, x), multiply(grad, y)]\n",
       "Mul's gradient on the same-shape float32 path gives each input the other's factor swapped (x's gradient "
       "grad*x); grad-mul-broadcast-wrong-factor is the broadcasting path of the same function"),
    _t("sum-grad-to-reshape-inverted", "gradient", "simdist/runtime/ops/math.py",
       "    if not keepdims:\n        grad = array.reshape(grad, reduced_shape(in_shape, axes))\n",
       "    if keepdims:\n        grad = array.reshape(grad, reduced_shape(in_shape, axes))\n",
       "Sum/Mean gradients reshape to the kept shape only when keepdims (inverted): a reduction over a non-last axis "
       "broadcasts its gradient along the wrong axis"),
    _t("variable-key-mirrored-container-kept", "gradient", "simdist/runtime/autodiff/tape.py",
       "    if local is not None:\n        return local()\n",
       "    if local is not None:\n        return v\n",
       "the tape keys a mirrored variable by its container, not the replica's own copy: no gradient for the model's "
       "variables in a custom loop under MirroredStrategy"),
    _t("ones-for-seed-default-float32", "dtype", "simdist/runtime/autodiff/backprop.py",
       "    return array.ones(x.shape.as_list(), x.dtype)\n",
       "    return array.ones(x.shape.as_list())\n",
       "the tape's seed gradient (ones of the target's shape) is float32 whatever the target's dtype"),
    _t("map-cardinality-unknown", "shard-size", "simdist/runtime/data/map_filter.py",
       "        return self._input._card()\n",
       "        return UNKNOWN_CARDINALITY\n",
       "Dataset.map's cardinality is unknown (TF: its input's): a mapped dataset's length and the steps fit infers "
       "from it are lost"),
    _t("shuffle-words-next-word", "order", "simdist/runtime/data/shuffle.py",
       "        return int(self._block[self._used - 1])\n",
       "        return int(self._block[self._used % 4])\n",
       "Dataset.shuffle's Philox words taken one off (the block's next word): another order for the same seed"),
    _t("trainer-init-captures-default-strategy", "state", "simdist/keras/trainers/trainer.py",
       "        self._distribute_strategy = tf.distribute.get_strategy() if tf.distribute.has_strategy() else None\n",
       "        self._distribute_strategy = tf.distribute.get_strategy()\n",
       "a model created outside any strategy scope captures the default strategy, so a scope entered later is ignored"),
    _t("reduce-replay-mean-as-sum", "denominator", "simdist/strategies/base.py",
       "        out = dispatch.reduced(lambda *arrays: reduce_rules.reduce_components(op, arrays, in_dt, ring)[0], ts, out,\n",
       "        out = dispatch.reduced(lambda *arrays: reduce_rules.reduce_components(ReduceOp.SUM, arrays, in_dt, ring)[0], ts, out,\n",
       "strategy.reduce in a tf.function: the recorded replay always sums (MEAN right on the first call only)"),
    _t("metrics-list-reset-first-only", "state", "simdist/keras/trainers/compile_utils.py",
       "    def reset_state(self) -> None:\n        for m in self.metrics:\n            m.reset_state()\n",
       "    def reset_state(self) -> None:\n        for m in self.metrics[:1]:\n            m.reset_state()\n",
       "compile's list of metrics for an output resets only its first metric at each epoch: the others accumulate "
       "across epochs and evaluate calls"),
    _t("draw-op-seed-randint-bound", "boundary", "simdist/runtime/ops/random.py",
       "    return r.randint(0, 2**31 - 1)\n",
       "    return r.randint(0, 2**31)\n",
       "the op seed a seedless random op draws under a global seed from randint(0, 2**31) (TF: 2**31 - 1): other "
       "values for every unseeded op after tf.random.set_seed"),
    _t("stateless-moments-shift-then-scale", "order", "simdist/runtime/ops/random.py",
       "    return r * dt._np.type(scale) + dt._np.type(shift)\n",
       "    return (r + dt._np.type(shift)) * dt._np.type(scale)\n",
       "a stateless or generator normal's moments applied as (r + mean) * stddev (TF: r * stddev + mean)"),
    _t("rebatch-workers-replicas-swapped", "shard-size", "simdist/strategies/input.py",
       "                    sizes = rebatch.batch_sizes_for_worker(batch_size, w, r, worker_index)\n",
       "                    sizes = rebatch.batch_sizes_for_worker(batch_size, r, w, worker_index)\n",
       "experimental_distribute_dataset's rebatch given the workers and the replicas per worker swapped"),
    _t("run-output-tuple-as-list", "state", "simdist/strategies/base.py",
       "            if hasattr(value, \"_fields\"):\n                return type(value)(*out)\n            return type(value)(out)\n",
       "            if hasattr(value, \"_fields\"):\n                return type(value)(*out)\n            return out\n",
       "a structure rebuilt from its leaves (strategy.run's outputs, reduce's) gives a list where it was a tuple"),
    _t("matmul-grad-skip-a-transposes-swapped", "gradient", "simdist/runtime/ops/linalg.py",
       "        return None, _grad_b(a, b, grad, t_a, t_b)\n",
       "        return None, _grad_b(a, b, grad, t_b, t_a)\n",
       "MatMul's gradient for b alone (a constant a, as a Dense layer's input) with the transpose flags swapped; "
       "cov14a-complex-matmul-grad-no-conj is the complex conjugation of the same function"),
    _t("concatenate-stops-after-first", "boundary", "simdist/runtime/data/combine.py",
       "                    if state[\"k\"] == 1:\n                        raise\n",
       "                    if state[\"k\"] == 0:\n                        raise\n",
       "Dataset.concatenate ends after its first input (fit's shuffled index pipeline loses the partial batch)"),
    # -- the rest: functions no earlier mutant touched
    _t("checkpoint-key-list-read-as-variable", "state", "simdist/strategies/checkpoint.py",
       "            return {k: data[k] for k in data.files if k != TF_KEYS}   # (the key list is no variable)\n",
       "            return {k: data[k] for k in data.files}\n",
       "Checkpoint.read takes the file's key list for a saved value (an unmatched value for assert_consumed)"),
    _t("generator-normal-moments-swapped", "order", "simdist/runtime/ops/random_generator.py",
       "        rnd = dispatch.execute(NORMAL, (state,), {\"shape\": shp, \"dtype\": dt})\n        return add(multiply(rnd, s), m)\n",
       "        rnd = dispatch.execute(NORMAL, (state,), {\"shape\": shp, \"dtype\": dt})\n        return add(multiply(rnd, m), s)\n",
       "Generator.normal scales by the mean and shifts by the stddev"),
    _t("stateless-normal-moments-swapped", "order", "simdist/runtime/ops/random.py",
       "    return _affine(STATELESS_NORMAL, seed, shape, dtype, mean, stddev, \"StatelessRandomNormalV2\", alg)\n",
       "    return _affine(STATELESS_NORMAL, seed, shape, dtype, stddev, mean, \"StatelessRandomNormalV2\", alg)\n",
       "tf.random.stateless_normal with mean and stddev swapped"),
    _t("random-shuffle-op-seed-dropped", "state", "simdist/runtime/ops/random.py",
       "    return dispatch.execute(SHUFFLE, (v,), {**_seed_attrs(seed)})\n",
       "    return dispatch.execute(SHUFFLE, (v,), {})\n",
       "tf.random.shuffle ignores its op seed"),
    _t("generator-replica-id-zero", "placement", "simdist/runtime/ops/random_generator.py",
       "        rid = rc.replica_id_in_sync_group\n        return int(dispatch.static_value(rid))",
       "        rid = 0\n        return int(dispatch.static_value(rid))",
       "a Generator made under a strategy draws replica 0's numbers in every replica"),
    _t("dataset-reduce-state-element-swapped", "order", "simdist/runtime/data/dataset.py",
       "            arrays = [np.asarray(t._v) for t in leaves] + flat\n",
       "            arrays = flat + [np.asarray(t._v) for t in leaves]\n",
       "Dataset.reduce hands reduce_func the element's arrays where the state's go"),
    _t("reduce-slices-always-sum", "denominator", "simdist/strategies/base.py",
       "        return reduce_rules.reduce_indexed_slices(op, list(zip(",
       "        return reduce_rules.reduce_indexed_slices(ReduceOp.SUM, list(zip(",
       "the cross-replica reduction of IndexedSlices always sums (MEAN of slices not divided)"),
    _t("optional-has-value-false", "state", "simdist/runtime/data/iterators.py",
       "        return Optional(self._element(flat), self.element_spec, True, host_device())\n",
       "        return Optional(self._element(flat), self.element_spec, False, host_device())\n",
       "an iterator's get_next_as_optional says has_value False for an element it holds"),
    _t("dist-optional-one-batch-empty", "boundary", "simdist/strategies/input.py",
       "        if owner._cardinality == 0 and not owner._multi_worker:\n",
       "        if owner._cardinality <= 1 and not owner._multi_worker:\n",
       "a distributed iterator's get_next_as_optional is empty for a dataset of one batch"),
    _t("zip-list-accepted", "missing-error", "simdist/runtime/data/combine.py",
       "        if isinstance(datasets, list):\n            raise TypeError(\"Invalid input to `zip`.",
       "        if False:\n            raise TypeError(\"Invalid input to `zip`.",
       "Dataset.zip takes a Python list of datasets (TF: TypeError, a tuple is needed)"),
    _t("forward-accumulator-variable-read-no-tangent", "gradient", "simdist/runtime/autodiff/forwardprop.py",
       "        tan = None if self.busy else self.tangent(var)\n        if tan is not None:\n            self.set(t, tan)\n"
       "        return t\n",
       "        return t\n",
       "ForwardAccumulator does not follow a watched variable's reads: the JVP of anything computed from the "
       "variable is None"),
    _t("update-non-slot-kwargs-dropped", "state", "simdist/strategies/base.py",
       "            return self._update_non_slot(colocate_with, fn, tuple(args), dict(kwargs or {}), group)\n",
       "            return self._update_non_slot(colocate_with, fn, tuple(args), {}, group)\n",
       "extended.update_non_slot drops fn's keyword arguments"),
    _t("function-tracing-count-from-one", "boundary", "simdist/tf/_function.py",
       "        return len(self.__dict__.get(\"_trace_keys\", ()))\n",
       "        return len(self.__dict__.get(\"_trace_keys\", ())) + 1\n",
       "experimental_get_tracing_count counts one trace more than TF (1 before the first call)"),
    _t("compiled-metrics-sample-weight-dropped", "state", "simdist/keras/trainers/trainer.py",
       "                return model._compiled_metrics_update_state(y, y_pred, sample_weight=sample_weight)\n",
       "                return model._compiled_metrics_update_state(y, y_pred, sample_weight=None)\n",
       "model.compiled_metrics.update_state (Keras 2's shim) drops its sample_weight"),
    _t("categorical-op-seed-dropped", "state", "simdist/runtime/ops/random.py",
       "    return dispatch.execute(MULTINOMIAL, (lt,), {\"num_samples\": n, \"dtype\": dt, **_seed_attrs(seed)})\n",
       "    return dispatch.execute(MULTINOMIAL, (lt,), {\"num_samples\": n, \"dtype\": dt})\n",
       "tf.random.categorical ignores its op seed"),
]
TRAINING += TRAINING_BATCH59
CATALOGUE += TRAINING_BATCH59


# Fifty-first session, helper blind51b: the sixty-first blind batch (the trainer's ops and kernels, gradients, tf.data,
# checkpoints, distribution, random ops), written from simdist's source before reading the suite. The first 18 are on
# lines an ordinary compile/fit or custom training loop runs (/work/wt/blind51b_logs/mainstream_prog.py under
# coverage); the numerically subtle ones (a rounding, a summation or evaluation order, a constant, a boundary) are
# marked "subtle" in their why.
TRAINING_BATCH61: list[Mutant] = [
    # -- mainstream
    _t("sparse-xent-backprop-row-exps", "formula", "simdist/runtime/ops/softmax_eigen.py",
       "        backprop = whole / s[:, None]\n        backprop[rows, labels] -= 1\n",
       "        backprop = in_rows / s[:, None]\n        backprop[rows, labels] -= 1\n",
       "subtle: SparseSoftmaxCrossEntropyWithLogits' backprop takes the exps as the row reduction evaluated them "
       "(the C library's exp on each row's tail) where TF's kernel evaluates the whole tensor (packets over the flat "
       "array): gradients off by an ulp where the two exps differ"),
    _t("mean-reducer-times-reciprocal", "denominator", "simdist/runtime/ops/math.py",
       "            s = _sum(v, axis, keepdims, stacked)\n            return np.divide(s, s.dtype.type(n))\n",
       "            s = _sum(v, axis, keepdims, stacked)\n            return s * (s.dtype.type(1) / s.dtype.type(n))\n",
       "subtle: reduce_mean of float32/float64 multiplies the sum by 1/n (Eigen's MeanReducer divides): an ulp off "
       "for counts that are not powers of two"),
    _t("log-packet-quotient-by-reciprocal", "formula", "simdist/runtime/ops/packet_math.py",
       "    x = p / q\n    return _log_specials(a, e * _LN2_F + x)\n",
       "    x = p * (_F(1) / q)\n    return _log_specials(a, e * _LN2_F + x)\n",
       "subtle: plog_float's rational term x*P/Q as P times the reciprocal of Q: another rounding, log off by an ulp "
       "(crossentropy's log of the clipped probabilities)"),
    _t("sigmoid-packet-width-four", "boundary", "simdist/runtime/ops/packet_math.py",
       "        k = (flat.size // 8) * 8\n        out = np.empty(flat.size, _F)\n",
       "        k = (flat.size // 4) * 4\n        out = np.empty(flat.size, _F)\n",
       "subtle: float32 Sigmoid's packet part taken in packets of 4 (SSE) where TF's kernel uses 8 (AVX): up to 4 "
       "tail elements get the packet polynomial instead of expf, an ulp apart"),
    _t("exp-packet-single-ln2-constant", "formula", "simdist/runtime/ops/packet_pow.py",
       "    r = m * _EXP_C1 + x\n    r = m * _EXP_C2 + r\n",
       "    r = m * (_EXP_C1 + _EXP_C2) + x\n",
       "subtle: pexp_float's Cody-Waite reduction with ln2's two parts added first (one rounded constant): exp off "
       "by ulps for large |x|"),
    _t("logistic-packet-single-ln2", "formula", "simdist/runtime/ops/packet_math.py",
       "    r = m * _F(-0.693359375) + x\n    r = m * _F(2.12194440e-4) + r\n",
       "    r = m * _F(-0.6931471805599453) + x\n",
       "subtle: the packet logistic's range reduction by a single rounded ln2 instead of Cephes' two-part constant"),
    _t("tanh-packet-cubic-order", "order", "simdist/runtime/ops/packet_tanh.py",
       "    x2 *= x   # x3\n    x2 *= p\n",
       "    x2 *= p\n    x2 *= x   # x3\n",
       "subtle: ptanh_float's numerator x^3 * P(x^2) evaluated as (x^2 * P) * x: another rounding, tanh off by an ulp"),
    _t("checkpoint-restore-through-float32", "dtype", "simdist/strategies/checkpoint.py",
       "            v.assign(Tensor(arr.astype(v.dtype.np, copy=False), v.dtype))\n",
       "            v.assign(Tensor(arr.astype(np.float32).astype(v.dtype.np), v.dtype))\n",
       "subtle: a restored variable's value goes through float32: a float64 variable (or a large int64 counter) comes "
       "back rounded"),
    _t("random-normal-pairs-cos-first", "order", "simdist/runtime/ops/philox_dists.py",
       "    f0, f1 = box_muller_float(w[:, 0], w[:, 1])\n    return _to(np.stack([f0, f1], axis=1)",
       "    f0, f1 = box_muller_float(w[:, 0], w[:, 1])\n    return _to(np.stack([f1, f0], axis=1)",
       "float32 normal draws emit each Box-Muller pair cosine first: every pair of values swapped"),
    _t("random-normal-mean-stddev-swapped", "formula", "simdist/runtime/ops/random.py",
       "    return dispatch.execute(NORMAL, (), {\"shape\": shp, \"mean\": float(mean), \"stddev\": float(stddev),\n",
       "    return dispatch.execute(NORMAL, (), {\"shape\": shp, \"mean\": float(stddev), \"stddev\": float(mean),\n",
       "tf.random.normal with scalar moments passes mean as the stddev and the stddev as the mean"),
    _t("softmax-row-sums-divided-exactly", "formula", "simdist/runtime/ops/softmax_eigen.py",
       "    if lanes == 1:\n        return rcp.reciprocal(s)\n",
       "    if lanes == 1:\n        return np.float32(1) / s\n",
       "subtle: Eigen's float32 Softmax inverts its row sums by an exact division where TF's kernel takes the "
       "vrcpps estimate and one Newton step (packets of 8 sums): softmax off by an ulp for batches of 8 rows or more"),
    _t("sigmoid-xent-abs-sign-flipped", "formula", "simdist/runtime/ops/losses.py",
       "    neg_abs_logits = math.where(cond, -logits_t, logits_t)\n",
       "    neg_abs_logits = math.where(cond, logits_t, -logits_t)\n",
       "sigmoid_cross_entropy_with_logits' log1p(exp(-|x|)) term takes +|x|"),
    _t("legacy-rebatch-pieces-reversed", "placement", "simdist/runtime/data/rebatch.py",
       "        for k in range(num_replicas):\n            yield [c[b[k][0]:b[k][1]] for c, b in zip(comps, bounds)]\n",
       "        for k in reversed(range(num_replicas)):\n            yield [c[b[k][0]:b[k][1]] for c, b in zip(comps, bounds)]\n",
       "the legacy rebatch deals a batch's pieces to the replicas last piece first"),
    _t("max-pool-grad-pads-with-zero", "boundary", "simdist/runtime/ops/pooling.py",
       "    flat = _flat_windows(x, ksize, strides, out_hw, pads, _lowest(x.dtype))\n    return flat, _first_greatest(flat)",
       "    flat = _flat_windows(x, ksize, strides, out_hw, pads, 0)\n    return flat, _first_greatest(flat)",
       "MaxPoolGrad's windows padded with 0 (not the lowest value): under SAME padding a border window of negative "
       "inputs routes its gradient to the padding, and the input gets none"),
    _t("gather-index-equal-to-size-accepted", "boundary", "simdist/runtime/ops/array.py",
       "    badmask = (idx < 0) | (idx >= n)\n    if badmask.any():\n        pos = np.unravel_index",
       "    badmask = (idx < 0) | (idx > n)\n    if badmask.any():\n        pos = np.unravel_index",
       "GatherV2's bounds check lets index == size through (NumPy's IndexError, not TF's InvalidArgumentError)"),
    _t("max-pool-floor-dropped", "boundary", "simdist/runtime/ops/pooling.py",
       "    return np.fmax(np.take_along_axis(flat, first, axis=3)[:, :, :, 0, :], flat.dtype.type(lowest))\n",
       "    return np.take_along_axis(flat, first, axis=3)[:, :, :, 0, :]\n",
       "MaxPool without its lowest-finite floor: a window of -inf (or NaN and -inf) gives -inf where TF gives -FLT_MAX"),
    _t("box-muller-angle-in-float32", "dtype", "simdist/runtime/ops/philox_dists.py",
       "    v1 = (_TWO_PI * uint32_to_float(x1).astype(np.float64)).astype(np.float32)\n",
       "    v1 = np.float32(_TWO_PI) * uint32_to_float(x1)\n",
       "subtle: BoxMullerFloat's angle 2*pi*u computed in float32 (TF: 2.0f * M_PI is a double, the product rounded "
       "once): normal draws off by ulps"),
    # -- the rest: functions no earlier mutant touched
    _t("clip-by-value-max-first", "order", "simdist/runtime/ops/clip.py",
       "    t_min = math.minimum(values, clip_value_max)\n    _same_shape(values, t_min)\n    t_max = math.maximum(t_min, clip_value_min)\n",
       "    t_min = math.maximum(values, clip_value_min)\n    _same_shape(values, t_min)\n    t_max = math.minimum(t_min, clip_value_max)\n",
       "clip_by_value clips from below first: with clip_value_min > clip_value_max the result is the max, not TF's min"),
    _t("global-norm-sqrt-two-split", "formula", "simdist/runtime/ops/clip.py",
       "            return unary.sqrt(doubled)\n",
       "            return math.multiply(unary.sqrt(half_squared_norm), 1.4142135623730951)\n",
       "subtle: global_norm as sqrt(half) * sqrt(2) instead of sqrt(2 * half): an ulp off"),
    _t("group-by-window-key-int32", "dtype", "simdist/runtime/data/group_by_window.py",
       "                out = _returned_dataset(reduce_func(Tensor(np.asarray(key, np.int64), dtypes.int64), window))\n",
       "                out = _returned_dataset(reduce_func(Tensor(np.asarray(key, np.int32), dtypes.int32), window))\n",
       "group_by_window's reduce_func gets its key as int32 (TF: int64)"),
    _t("random-shuffle-last-pair-fixed", "boundary", "simdist/runtime/ops/philox_dists.py",
       "        k = i + w[i] % (size - i)\n",
       "        k = i + w[i] % (size - i - 1) if size - i > 1 else i\n",
       "tf.random.shuffle's Fisher-Yates draws j from [i, size - 1) (off by one): another permutation"),
    _t("clip-bound-broadcast-accepted", "missing-error", "simdist/runtime/ops/clip.py",
       "    sa, sb = a.shape.as_list(), b.shape.as_list()\n    if sa != sb:\n",
       "    sa, sb = a.shape.as_list(), b.shape.as_list()\n    if len(sa) != len(sb):\n",
       "clip_by_value's shape check compares ranks only: a bound that broadcasts the values up along an axis of "
       "size 1 is accepted where TF raises ValueError"),
    _t("draw-shape-int64-refused", "error-class", "simdist/runtime/ops/random_generator.py",
       "    if dt not in (dtypes.int32, dtypes.int64):\n        err = trace_errors.attr_not_allowed(opname, attr, dt, \"int32, int64\")\n",
       "    if dt is not dtypes.int32:\n        err = trace_errors.attr_not_allowed(opname, attr, dt, \"int32, int64\")\n",
       "a Generator's draw refuses an int64 shape (TF takes int32 and int64)"),
    _t("uniform-float64-words-swapped", "order", "simdist/runtime/ops/philox_dists.py",
       "        return _uint64_to_double(w[0:2 * n:2], w[1:2 * n:2]).reshape(shape)\n",
       "        return _uint64_to_double(w[1:2 * n:2], w[0:2 * n:2]).reshape(shape)\n",
       "float64 uniform draws take each word pair in the other order"),
    _t("argmax-nan-taken", "formula", "simdist/runtime/ops/reductions.py",
       "            beyond = np.isnan(v) | (v < limit if fill < 0 else v > limit)\n",
       "            beyond = (v < limit if fill < 0 else v > limit)\n",
       "ArgMax/ArgMin take a NaN (NumPy's rule) where Eigen's reducer never does"),
    _t("generator-uniform-int-maxval-inclusive", "boundary", "simdist/runtime/ops/random_generator.py",
       "    return philox._uniform_int_words(lambda blocks: philox.words_at(key, counter, blocks), n, lo, hi,\n",
       "    return philox._uniform_int_words(lambda blocks: philox.words_at(key, counter, blocks), n, lo, hi + 1,\n",
       "a Generator's integer uniform draws from [minval, maxval] (maxval inclusive): other numbers, maxval itself "
       "among them"),
    _t("interleave-default-cycle-one", "boundary", "simdist/runtime/data/interleave.py",
       "    if cycle_length is None:\n        cycle_length = AUTOTUNE\n",
       "    if cycle_length is None:\n        cycle_length = 1\n",
       "Dataset.interleave's default cycle_length is 1 (TF: AUTOTUNE, the host's cores): a plain flat_map order"),
    _t("shared-variables-created-first", "state", "simdist/strategies/shared_variables.py",
       "    rc._shared_index[name] = k + 1\n    return made[k]\n",
       "    rc._shared_index[name] = k + 1\n    return made[0]\n",
       "a replica of strategy.run that creates several variables of one name gets replica 0's first for each"),
    _t("reciprocal-newton-step-factored", "formula", "simdist/runtime/ops/rcp.py",
       "        return np.where(t == t, _ftz(x * t) + x, x)\n",
       "        return np.where(t == t, x * (_F(1) + t), x)\n",
       "subtle: float32 Reciprocal's Newton step as x * (1 + t) instead of Eigen's x * t + x: another rounding, "
       "an ulp off for some inputs"),
    _t("dataset-random-seed-pair-swapped", "order", "simdist/runtime/data/sampling.py",
       "    return _RandomDataset(s, s2)\n",
       "    return _RandomDataset(s2, s)\n",
       "Dataset.random seeds its Philox stream with the seed pair swapped: other numbers for a given seed"),
]
TRAINING += TRAINING_BATCH61
CATALOGUE += TRAINING_BATCH61
# -- Fifty-first session (2026-12-06), blind batch 60 (helper blind51a): Keras layers, losses and metrics,
# optimizers and schedules, callbacks, saving; written from simdist's source alone, before reading any suite test.
# The first 16 sit on lines an ordinary compile/fit or custom loop runs (the mainstream; where an earlier mutant
# touched the function, the line and the behaviour differ, as each `why` says); 11 are numerically subtle
# (a default epsilon/rho, a step counter one ahead, a count off by one, a ddof, a float32 accumulator).
TRAINING_BATCH60: list[Mutant] = [
    # -- mainstream
    _t("adam-epsilon-default-1e-8", "formula", "simdist/keras/optimizers/adam.py",
       "                 epsilon: float = 1e-7, amsgrad: bool = False, weight_decay",
       "                 epsilon: float = 1e-8, amsgrad: bool = False, weight_decay",
       "Adam's epsilon defaults to 1e-8 (PyTorch's) where Keras's is 1e-7 (numerically subtle; Adam.__init__'s "
       "signature, where adam-amsgrad-ignored is its `self.amsgrad` line)"),
    _t("adam-second-moment-rate-beta-1", "formula", "simdist/keras/optimizers/adam.py",
       "        self.assign_add(v, ops.multiply(ops.subtract(ops.square(gradient), v), 1 - self.beta_2))\n",
       "        self.assign_add(v, ops.multiply(ops.subtract(ops.square(gradient), v), 1 - self.beta_1))\n",
       "Adam's second moment moves at rate 1 - beta_1 (copy of the first moment's line; Adam.update_step's v line, "
       "where the earlier mutants are the bias correction, the m line, amsgrad and epsilon)"),
    _t("rmsprop-rho-default-0-99", "formula", "simdist/keras/optimizers/rmsprop.py",
       "learning_rate: Any = 0.001, rho: float = 0.9, momentum: float = 0.0,",
       "learning_rate: Any = 0.001, rho: float = 0.99, momentum: float = 0.0,",
       "RMSprop's rho defaults to 0.99 (PyTorch's alpha) where Keras's is 0.9 (numerically subtle; the signature, "
       "where rmsprop-centered-ignored is the `self.centered` line)"),
    _t("sgd-default-learning-rate-adams", "formula", "simdist/keras/optimizers/sgd.py",
       "    def __init__(self, learning_rate: Any = 0.01, momentum: float = 0.0, nesterov: bool = False,\n",
       "    def __init__(self, learning_rate: Any = 0.001, momentum: float = 0.0, nesterov: bool = False,\n",
       "SGD's learning rate defaults to 0.001 (Adam's) where Keras's is 0.01 (optimizer='sgd'; the signature, where "
       "sgd-int-momentum-accepted is the momentum check)"),
    _t("exp-decay-step-one-ahead", "boundary", "simdist/keras/optimizers/schedules.py",
       "        p = ops.cast(step, dtype) / decay_steps\n        if self.staircase:\n            p = ops.floor(p)\n"
       "        return ops.multiply(initial_learning_rate, ops.power(decay_rate, p))\n",
       "        p = ops.cast(step + 1, dtype) / decay_steps\n        if self.staircase:\n            p = ops.floor(p)\n"
       "        return ops.multiply(initial_learning_rate, ops.power(decay_rate, p))\n",
       "ExponentialDecay counts the step from one (the learning rate of step s is the schedule's s + 1; numerically "
       "subtle; exp-decay-staircase-ignored is the floor of the same function)"),
    _t("layernorm-epsilon-default-1e-5", "formula", "simdist/keras/layers/normalization.py",
       "    def __init__(self, axis: Any = -1, epsilon: float = 1e-3, center: bool = True, scale: bool = True,",
       "    def __init__(self, axis: Any = -1, epsilon: float = 1e-5, center: bool = True, scale: bool = True,",
       "LayerNormalization's epsilon defaults to 1e-5 (PyTorch's) where Keras's is 1e-3 (numerically subtle; "
       "the signature, where layer-norm-axis-error-class is the axis type check)"),
    _t("batchnorm-epsilon-default-1e-5", "formula", "simdist/keras/layers/normalization.py",
       "    def __init__(self, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3, center: bool = True,",
       "    def __init__(self, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-5, center: bool = True,",
       "BatchNormalization's epsilon defaults to 1e-5 where Keras's is 1e-3 (numerically subtle; the signature, "
       "where the earlier mutant of BatchNormalization.__init__ is another line)"),
    _t("lstm-recurrent-activation-hard-sigmoid", "formula", "simdist/keras/layers/rnn.py",
       "    def __init__(self, units: int, activation: Any = \"tanh\", recurrent_activation: Any = \"sigmoid\",\n"
       "                 use_bias: bool = True, kernel_initializer: Any = \"glorot_uniform\",\n"
       "                 recurrent_initializer: Any = \"orthogonal\", bias_initializer: Any = \"zeros\",\n"
       "                 unit_forget_bias: bool = True,",
       "    def __init__(self, units: int, activation: Any = \"tanh\", recurrent_activation: Any = \"hard_sigmoid\",\n"
       "                 use_bias: bool = True, kernel_initializer: Any = \"glorot_uniform\",\n"
       "                 recurrent_initializer: Any = \"orthogonal\", bias_initializer: Any = \"zeros\",\n"
       "                 unit_forget_bias: bool = True,",
       "LSTM's recurrent_activation defaults to Keras 2's hard_sigmoid (LSTM.__init__'s first line, where "
       "lstm-unit-forget-bias-default-false is the unit_forget_bias default)"),
    _t("conv1d-default-padding-same", "formula", "simdist/keras/layers/convolutional.py",
       "    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = \"valid\",\n"
       "                 data_format: str | None = None, dilation_rate: Any = 1, groups: int = 1, activation: Any = None,\n",
       "    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = \"same\",\n"
       "                 data_format: str | None = None, dilation_rate: Any = 1, groups: int = 1, activation: Any = None,\n",
       "Conv1D's padding defaults to 'same'"),
    _t("concatenate-default-axis-one", "axis", "simdist/keras/layers/merging.py",
       "    def __init__(self, axis: int = -1, **kwargs: Any) -> None:\n        super().__init__(**kwargs)\n"
       "        self.axis = axis\n        self._reshape_required = False\n",
       "    def __init__(self, axis: int = 1, **kwargs: Any) -> None:\n        super().__init__(**kwargs)\n"
       "        self.axis = axis\n        self._reshape_required = False\n",
       "Concatenate joins along axis 1 by default (the same as -1 for rank-2 inputs only)"),
    _t("mean-metric-count-starts-at-one", "denominator", "simdist/keras/metrics/reduction_metrics.py",
       "        self.count = self.add_variable(shape=(), initializer=initializers.Zeros(), dtype=self.dtype, name=\"count\")\n",
       "        self.count = self.add_variable(shape=(), initializer=initializers.Ones(), dtype=self.dtype, name=\"count\")\n",
       "a new Mean metric's count starts at 1 (until its first reset_state: a custom loop's Mean divides by n + 1; "
       "numerically subtle)"),
    _t("auc-default-num-thresholds-100", "formula", "simdist/keras/metrics/confusion_metrics.py",
       "    def __init__(self, num_thresholds: int = 200, curve: Any = \"ROC\",",
       "    def __init__(self, num_thresholds: int = 100, curve: Any = \"ROC\",",
       "AUC's num_thresholds defaults to 100 where Keras's is 200 (numerically subtle; AUC.__init__'s signature, "
       "where auc-given-thresholds-not-sorted is the given thresholds' sort)"),
    _t("accuracy-variant-sparse-categorical-swapped", "order", "simdist/keras/metrics/__init__.py",
       "    return BinaryAccuracy if is_binary else SparseCategoricalAccuracy if is_sparse else CategoricalAccuracy\n",
       "    return BinaryAccuracy if is_binary else CategoricalAccuracy if is_sparse else SparseCategoricalAccuracy\n",
       "compile's 'accuracy' becomes CategoricalAccuracy for integer labels and SparseCategoricalAccuracy for one-hot ones"),
    _t("mean-metric-wrapper-loss-direction-dropped", "state", "simdist/keras/metrics/reduction_metrics.py",
       "        if fn in losses.ALL_OBJECTS or type(fn) in losses.ALL_OBJECTS:\n            self._direction = \"down\"\n",
       "        if type(fn) in losses.ALL_OBJECTS:\n            self._direction = \"down\"\n",
       "a metric wrapping a loss function (compile's 'mse', 'mae') is not marked 'down' (only a loss object is)"),
    _t("callbacklist-train-batch-end-one-based", "boundary", "simdist/keras/callbacks/callback_list.py",
       "        self._each(\"on_train_batch_end\", batch, logs=logs)\n",
       "        self._each(\"on_train_batch_end\", batch + 1, logs=logs)\n",
       "the callbacks' on_train_batch_end sees the batch index counted from 1"),
    _t("serialize-model-compile-config-dropped", "state", "simdist/keras/models/keras_file.py",
       "    if isinstance(model, Model):   # (a layer saved whole has no compile config: FeatureSpace.save)\n"
       "        out[\"compile_config\"] = compile_config(model)\n",
       "    if isinstance(model, Model) and not model.built:\n"
       "        out[\"compile_config\"] = compile_config(model)\n",
       "a built model's .keras file has no compile_config (load_model gives it back uncompiled)"),
    # -- the rest: functions no earlier mutant touched
    _t("normalization-adapt-sample-variance", "denominator", "simdist/keras/layers/normalization_adapt.py",
       "            total_var: Any = np.var(data, axis=self._reduce_axis)\n",
       "            total_var: Any = np.var(data, axis=self._reduce_axis, ddof=1)\n",
       "Normalization.adapt of an ndarray takes the sample variance (n - 1; numerically subtle)"),
    _t("normalization-var-float32-always", "dtype", "simdist/keras/layers/normalization_adapt.py",
       "def _var(x: Any, axis: Any) -> Any:\n    \"\"\"Keras's `ops.var` on TF: tf.math.reduce_variance in at least float32.\"\"\"\n"
       "    x = tf.convert_to_tensor(x)\n    compute = x.dtype if x.dtype in (tf.float32, tf.float64) else tf.float32\n",
       "def _var(x: Any, axis: Any) -> Any:\n    \"\"\"Keras's `ops.var` on TF: tf.math.reduce_variance in at least float32.\"\"\"\n"
       "    x = tf.convert_to_tensor(x)\n    compute = tf.float32\n",
       "Normalization.adapt's variance of a tensor or dataset computed in float32 even for float64 data "
       "(numerically subtle)"),
    _t("average-pooling-strides-from-pool-size", "formula", "simdist/keras/layers/pooling.py",
       "            return average_pool(inputs, pool_size=self.pool_size, strides=self.strides, padding=self.padding,\n",
       "            return average_pool(inputs, pool_size=self.pool_size, strides=self.pool_size, padding=self.padding,\n",
       "the average-pooling layers stride by their pool size whatever `strides` says"),
    _t("gru-cell-reset-after-default-false", "formula", "simdist/keras/layers/rnn_cells.py",
       "                 dropout: float = 0.0, recurrent_dropout: float = 0.0, reset_after: bool = True, seed: Any = None,\n",
       "                 dropout: float = 0.0, recurrent_dropout: float = 0.0, reset_after: bool = False, seed: Any = None,\n",
       "GRUCell's reset_after defaults to False (Keras 2's) where the GRU layer's is True"),
    _t("simple-rnn-cell-recurrent-init-glorot", "formula", "simdist/keras/layers/rnn_cells.py",
       "    def __init__(self, units: int, activation: Any = \"tanh\", use_bias: bool = True,\n"
       "                 kernel_initializer: Any = \"glorot_uniform\", recurrent_initializer: Any = \"orthogonal\",\n",
       "    def __init__(self, units: int, activation: Any = \"tanh\", use_bias: bool = True,\n"
       "                 kernel_initializer: Any = \"glorot_uniform\", recurrent_initializer: Any = \"glorot_uniform\",\n",
       "SimpleRNNCell's recurrent kernel defaults to glorot_uniform, not orthogonal"),
    _t("rnn-inner-loop-go-backwards-dropped", "order", "simdist/keras/layers/rnn.py",
       "        return rnn(step, sequences, initial_state, go_backwards=self.go_backwards, mask=mask,\n",
       "        return rnn(step, sequences, initial_state, go_backwards=False, mask=mask,\n",
       "an RNN with flat states reads its steps forwards whatever go_backwards (Bidirectional's backward layer too)"),
    _t("non-trainable-weights-empty-when-frozen", "state", "simdist/keras/layers/layer.py",
       "        return self.weights if not self.trainable else [v for v in self.weights if not v.trainable]\n",
       "        return [] if not self.trainable else [v for v in self.weights if not v.trainable]\n",
       "a frozen layer's non_trainable_weights is empty (it should hold all its weights)"),
    _t("layer-metrics-skip-sublayers", "state", "simdist/keras/layers/layer.py",
       "        out = list(self._metrics)\n        for layer in self._layers:\n            out.extend(layer.metrics)\n",
       "        out = list(self._metrics)\n",
       "Layer.metrics leaves out its sub-layers' metrics"),
    _t("additive-attention-use-scale-default-false", "formula", "simdist/keras/layers/dot_attention.py",
       "    def __init__(self, use_scale: bool = True, dropout: float = 0.0, **kwargs: Any) -> None:\n"
       "        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)\n",
       "    def __init__(self, use_scale: bool = False, dropout: float = 0.0, **kwargs: Any) -> None:\n"
       "        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)\n",
       "AdditiveAttention's use_scale defaults to False (Attention's default) where Keras's is True"),
    _t("dot-function-default-axes-one", "axis", "simdist/keras/layers/dot.py",
       "def dot(inputs: list[Any], axes: Any = -1, **kwargs: Any) -> Any:\n",
       "def dot(inputs: list[Any], axes: Any = 1, **kwargs: Any) -> Any:\n",
       "keras.layers.dot's axes defaults to 1 (the same as -1 for rank-2 inputs only)"),
    _t("discretization-summary-step-off-by-one", "boundary", "simdist/keras/layers/discretization.py",
       "    boundaries = values[int(step - 1)::int(step)]\n",
       "    boundaries = values[int(step)::int(step)]\n",
       "Discretization.adapt's summary takes every step-th sorted value one place late (numerically subtle)"),
    _t("schedule-free-adamw-epsilon-default-1e-7", "formula", "simdist/keras/optimizers/schedule_free_adamw.py",
       "                 epsilon: float = 1e-8, warmup_steps: int = 0,",
       "                 epsilon: float = 1e-7, warmup_steps: int = 0,",
       "ScheduleFreeAdamW's epsilon defaults to Adam's 1e-7 where Keras's is 1e-8 (numerically subtle)"),
    _t("clipnorm-per-column", "axis", "simdist/keras/optimizers/_ops.py",
       "    return tf.clip_by_norm(x, clip_norm)\n",
       "    return tf.clip_by_norm(x, clip_norm, axes=[0])\n",
       "clipnorm clips each column of a gradient by its own norm, not the whole tensor's"),
    _t("load-checked-skip-mismatch-dropped", "missing-error", "simdist/keras/models/keras_file.py",
       "    _apply_loaded(ctx, path, skip_mismatch)\n",
       "    _apply_loaded(ctx, path, False)\n",
       "load_weights(skip_mismatch=True) of a .keras file still refuses a mismatched variable"),
]
TRAINING += TRAINING_BATCH60
CATALOGUE += TRAINING_BATCH60


# Fifty-second session (2026-12-06): the sixty-second blind batch (helper blind52a), written from simdist's source
# alone before reading any suite test, in Keras layers, losses and metrics, optimizers and schedules, callbacks and
# saving. The first 20 are on lines an ordinary compile/fit or custom loop runs (/work/wt/blind52a_logs/mainstream.py
# under coverage.py); a why starting "subtle" moves a value by a small relative amount.
TRAINING_BATCH62: list[Mutant] = [
    # -- mainstream (lines a plain compile/fit or custom training loop runs)
    _t("adam-beta-2-default-0.99", "formula", "simdist/keras/optimizers/adam.py",
       "    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.999,\n"
       "                 epsilon: float = 1e-7, amsgrad: bool = False,",
       "    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.99,\n"
       "                 epsilon: float = 1e-7, amsgrad: bool = False,",
       "subtle: Adam's beta_2 defaults to 0.99 (the second moment forgets ten times faster; the first step is "
       "the same)"),
    _t("adam-beta-2-power-one-step-late", "boundary", "simdist/keras/optimizers/adam.py",
       "        beta_2_power = ops.power(ops.cast(self.beta_2, variable.dtype), local_step)\n",
       "        beta_2_power = ops.power(ops.cast(self.beta_2, variable.dtype), local_step + 1)\n",
       "subtle: Adam's second-moment bias correction uses beta_2^(t+1), one step ahead of the first moment's"),
    _t("rmsprop-velocity-starts-at-one", "state", "simdist/keras/optimizers/rmsprop.py",
       "        self._velocities = self.add_optimizer_variables(var_list, \"velocity\")\n",
       "        self._velocities = self.add_optimizer_variables(var_list, \"velocity\", initializer=\"ones\")\n",
       "RMSprop's velocity slots start at 1 (TF1's RMSProp's rms initial value) instead of 0"),
    _t("optimizer-power-via-exp-log", "formula", "simdist/keras/optimizers/_ops.py",
       "def power(x1: Any, x2: Any) -> Any:\n    return _pow(x1, x2)\n",
       "def power(x1: Any, x2: Any) -> Any:\n    a, b = _pair(x1, x2)\n    return tf.exp(b * tf.math.log(a))\n",
       "subtle: the optimizers' ops.power (Adam's, Adamax's, Lamb's beta^t) computed as exp(t*log(beta)): a few ulps "
       "off pow"),
    _t("loss-wrapper-drops-fn-kwargs", "missing-error", "simdist/keras/losses/losses.py",
       "        return self.fn(y_true, y_pred, **self._fn_kwargs)\n",
       "        return self.fn(y_true, y_pred)\n",
       "a Loss class built on a function ignores its options (from_logits, label_smoothing, delta, axis)"),
    _t("mean-metric-wrapper-drops-fn-kwargs", "missing-error", "simdist/keras/metrics/reduction_metrics.py",
       "        values = self._fn(y_true, y_pred, **self._fn_kwargs)\n",
       "        values = self._fn(y_true, y_pred)\n",
       "a MeanMetricWrapper metric ignores its options (BinaryAccuracy's threshold, TopKCategoricalAccuracy's k)"),
    _t("dense-output-shape-drops-middle-axes", "axis", "simdist/keras/layers/core.py",
       "    def compute_output_shape(self, input_shape: Any) -> tuple:\n        output_shape = list(input_shape)\n"
       "        output_shape[-1] = self.units\n        return tuple(output_shape)\n",
       "    def compute_output_shape(self, input_shape: Any) -> tuple:\n        output_shape = list(input_shape)\n"
       "        return (output_shape[0], self.units)\n",
       "Dense's output shape keeps only the batch axis and units (wrong for inputs of rank 3 and more)"),
    _t("moments-variance-as-mean-square-minus-square", "formula", "simdist/keras/layers/normalization.py",
       "        mean, variance = tf.nn.moments(x, axes, keepdims=keepdims)\n",
       "        mean = tf.reduce_mean(x, axes, keepdims=keepdims)\n"
       "        variance = tf.reduce_mean(tf.square(x), axes, keepdims=keepdims) - tf.square(mean)\n",
       "subtle: BatchNormalization's and LayerNormalization's variance computed as E[x^2] - E[x]^2 (rounds otherwise "
       "than tf.nn.moments' E[(x - mean)^2])"),
    _t("reduce-lr-min-delta-default-zero", "formula", "simdist/keras/callbacks/reduce_lr_on_plateau.py",
       "                 mode: str = \"auto\", min_delta: float = 1e-4, cooldown: int = 0, min_lr: float = 0.0,\n",
       "                 mode: str = \"auto\", min_delta: float = 0.0, cooldown: int = 0, min_lr: float = 0.0,\n",
       "subtle: ReduceLROnPlateau's min_delta defaults to 0 (an improvement under 1e-4 resets the wait)"),
    _t("cosine-decay-pi-truncated", "formula", "simdist/keras/optimizers/schedules.py",
       "        pi = ops.convert_to_tensor(math.pi, dtype)\n",
       "        pi = ops.convert_to_tensor(3.14159, dtype)\n",
       "subtle: CosineDecay's pi truncated to 3.14159 (the learning rate off by a few ulps mid-schedule)"),
    _t("early-stopping-patience-default-one", "boundary", "simdist/keras/callbacks/early_stopping.py",
       "    def __init__(self, monitor: str = \"val_loss\", min_delta: float = 0, patience: int = 0,",
       "    def __init__(self, monitor: str = \"val_loss\", min_delta: float = 0, patience: int = 1,",
       "EarlyStopping's patience defaults to 1 (one more epoch without improvement before stopping)"),
    _t("categorical-accuracy-direction-down", "formula", "simdist/keras/metrics/accuracy_metrics.py",
       "        super().__init__(fn=categorical_accuracy, name=name, dtype=dtype)\n        self._direction = \"up\"\n",
       "        super().__init__(fn=categorical_accuracy, name=name, dtype=dtype)\n        self._direction = \"down\"\n",
       "CategoricalAccuracy is marked 'down': a monitor in auto mode minimizes it"),
    _t("dropout-noise-shape-ignored", "shard-size", "simdist/keras/layers/core.py",
       "            return random.dropout(inputs, self.rate, noise_shape=self.noise_shape, seed=self.seed_generator)\n",
       "            return random.dropout(inputs, self.rate, noise_shape=None, seed=self.seed_generator)\n",
       "Dropout draws an independent mask per element whatever noise_shape says"),
    _t("batchnorm-call-epsilon-constant", "formula", "simdist/keras/layers/normalization.py",
       "        outputs = batch_normalization(x=inputs, mean=mean, variance=variance, axis=self.axis, offset=beta,\n"
       "                                      scale=gamma, epsilon=self.epsilon)\n",
       "        outputs = batch_normalization(x=inputs, mean=mean, variance=variance, axis=self.axis, offset=beta,\n"
       "                                      scale=gamma)\n",
       "subtle: BatchNormalization normalizes with the function's default epsilon 1e-3 whatever its own epsilon"),
    _t("metric-dtype-from-variable-dtype", "dtype", "simdist/keras/metrics/metric.py",
       "        self._dtype = self._dtype_policy.compute_dtype\n        self._metrics: list[Metric] = []\n",
       "        self._dtype = self._dtype_policy.variable_dtype\n        self._metrics: list[Metric] = []\n",
       "a metric's dtype is its policy's variable dtype (float32 for mixed_float16) instead of the compute dtype"),
    _t("optimizer-cast-python-float-exact", "dtype", "simdist/keras/optimizers/_ops.py",
       "    if _is_py(x):\n        return tf.cast(x, dtype)\n    x = tf.convert_to_tensor(x)\n"
       "    return x if x.dtype == dtype else tf.cast(x, dtype)\n",
       "    if _is_py(x):\n        return tf.constant(x, dtype=dtype)\n    x = tf.convert_to_tensor(x)\n"
       "    return x if x.dtype == dtype else tf.cast(x, dtype)\n",
       "subtle: the optimizers' cast of a Python float to float64 is exact, not through float32 as Keras's tf.cast "
       "(beta_1 = 0.9 exactly for float64 variables)"),
    _t("loss-element-count-batch-only", "denominator", "simdist/keras/losses/_ops.py",
       "    return tf.cast(tf.reduce_prod(tf.constant(dims, dtype=tf.int32)), dtype)\n",
       "    return tf.cast(tf.constant(dims[0] if dims else 1, dtype=tf.int32), dtype)\n",
       "sum_over_batch_size divides by the batch size only, not by every element (per-sample losses of rank 2 "
       "and more: sequences)"),
    _t("weights-load-skips-dict-containers", "state", "simdist/keras/models/saving.py",
       "        if _is_saveable(child):\n            _load(child, h5, _join(path, attr), visited, ctx)\n"
       "        elif isinstance(child, (list, tuple, dict)):\n",
       "        if _is_saveable(child):\n            _load(child, h5, _join(path, attr), visited, ctx)\n"
       "        elif isinstance(child, (list, tuple)):\n",
       "loading weights skips layers kept in a dict attribute (their saved values are not restored)"),
    _t("conv-strides-dilation-swapped", "order", "simdist/keras/layers/convolutional.py",
       "    return op_nn.conv(tf.convert_to_tensor(inputs), kernel, strides, padding, data_format, dilation_rate)\n",
       "    return op_nn.conv(tf.convert_to_tensor(inputs), kernel, dilation_rate, padding, data_format, strides)\n",
       "the convolution layers pass strides and dilation_rate to ops.conv in each other's place"),
    # -- the rest: functions no earlier mutant touched
    _t("rnn-cell-bias-takes-kernel-regularizer", "formula", "simdist/keras/layers/rnn_cells.py",
       "        self.bias = self.add_weight(shape=shape, name=\"bias\", initializer=initializer,\n"
       "                                    regularizer=self.bias_regularizer,\n",
       "        self.bias = self.add_weight(shape=shape, name=\"bias\", initializer=initializer,\n"
       "                                    regularizer=self.kernel_regularizer,\n",
       "a recurrent cell's bias gets the kernel's regularizer (copy-paste), not bias_regularizer"),
    _t("callbacklist-test-batch-end-one-based", "boundary", "simdist/keras/callbacks/callback_list.py",
       "        self._each(\"on_test_batch_end\", batch, logs=logs)\n",
       "        self._each(\"on_test_batch_end\", batch + 1, logs=logs)\n",
       "the callbacks' on_test_batch_end sees the batch index counted from 1"),
    _t("concatenate-merge-ignores-axis", "axis", "simdist/keras/layers/merging.py",
       "        return tf.concat(_same_dtype(inputs), axis=self.axis)\n",
       "        return tf.concat(_same_dtype(inputs), axis=-1)\n",
       "Concatenate joins on the last axis whatever its axis"),
    _t("schedule-floor-rounds", "boundary", "simdist/keras/optimizers/_ops.py",
       "def floor(x: Any) -> Any:\n    return tf.floor(tf.convert_to_tensor(x))\n",
       "def floor(x: Any) -> Any:\n    return tf.round(tf.convert_to_tensor(x))\n",
       "subtle: the schedules' staircase floor rounds to nearest (ExponentialDecay/InverseTimeDecay staircase and "
       "CosineDecayRestarts step half a period early)"),
    _t("squared-hinge-loss-name", "formula", "simdist/keras/losses/hinge_losses.py",
       "    def __init__(self, reduction: Any = \"sum_over_batch_size\", name: str = \"squared_hinge\",\n",
       "    def __init__(self, reduction: Any = \"sum_over_batch_size\", name: str = \"squared_hinge_loss\",\n",
       "SquaredHinge's default name is 'squared_hinge_loss' (as Huber's 'huber_loss') instead of 'squared_hinge'"),
    _t("false-positives-counts-false-negatives", "formula", "simdist/keras/metrics/precision_recall.py",
       "        super().__init__(CM.FALSE_POSITIVES, thresholds=thresholds, name=name, dtype=dtype)\n",
       "        super().__init__(CM.FALSE_NEGATIVES, thresholds=thresholds, name=name, dtype=dtype)\n",
       "FalsePositives counts false negatives (copy-paste from the class below)"),
    _t("add-weight-default-initializer-zeros", "formula", "simdist/keras/layers/layer.py",
       "            initializer = \"glorot_uniform\" if \"float\" in dtype else \"zeros\"\n",
       "            initializer = \"zeros\"\n",
       "Layer.add_weight without an initializer makes zeros for float weights, not glorot_uniform"),
    _t("swap-ema-swap-finalizes", "state", "simdist/keras/callbacks/swap_ema_weights.py",
       "        self._apply_to_ema_optimizers(_swap)\n",
       "        self._apply_to_ema_optimizers(_finalize)\n",
       "SwapEMAWeights' swap for evaluation overwrites the weights with their averages (no swap back)"),
    _t("sum-metric-result-float32", "dtype", "simdist/keras/metrics/reduction_metrics.py",
       "    def result(self) -> Any:\n        return ops.cast(self.total, self.dtype)\n",
       "    def result(self) -> Any:\n        return ops.cast(self.total, \"float32\")\n",
       "subtle: Sum's result is rounded to float32 whatever the metric's dtype (a float64 Sum loses its last digits); "
       "replaces embedding-output-keeps-variable-dtype (equivalent on every probe: the output is the compute dtype "
       "without the cast), chosen after the first contact had started"),
    _t("mae-loss-default-name-mae", "formula", "simdist/keras/losses/losses.py",
       "    def __init__(self, reduction: Any = \"sum_over_batch_size\", name: str = \"mean_absolute_error\",\n",
       "    def __init__(self, reduction: Any = \"sum_over_batch_size\", name: str = \"mae\",\n",
       "MeanAbsoluteError's default name is 'mae' instead of 'mean_absolute_error'"),
    _t("false-negatives-counts-true-negatives", "formula", "simdist/keras/metrics/precision_recall.py",
       "        super().__init__(CM.FALSE_NEGATIVES, thresholds=thresholds, name=name, dtype=dtype)\n",
       "        super().__init__(CM.TRUE_NEGATIVES, thresholds=thresholds, name=name, dtype=dtype)\n",
       "FalseNegatives counts true negatives (copy-paste); replaces true-positives-thresholds-default-half (equivalent: "
       "one threshold gives a scalar result either way), chosen after the first contact had started"),
]
TRAINING += TRAINING_BATCH62
CATALOGUE += TRAINING_BATCH62

# Fifty-second session, helper blind52b: the sixty-third blind batch (the trainer, op gradients and kernels, the
# tape, tf.data, checkpoints, distribution, random ops), written from simdist's source before reading the suite.
# The mainstream ones (lines an ordinary compile/fit or custom training loop runs: /work/wt/blind52b_logs/
# mainstream_prog.py and mainstream_prog2.py under coverage: mainstream_check.py) are marked "mainstream", the
# numerically subtle ones "subtle", in their why.
TRAINING_BATCH63: list[Mutant] = [
    # -- op gradients and kernels
    _t("log-grad-exact-division", "gradient", "simdist/runtime/ops/unary.py",
       "    return [grad * reciprocal(_conj(op.inputs[0]))]   # TF: grad * reciprocal(conj(x)) (Reciprocal's kernel:\n",
       "    return [grad / _conj(op.inputs[0])]   # TF: grad * reciprocal(conj(x)) (Reciprocal's kernel:\n",
       "mainstream, subtle: Log's gradient divides by x exactly where TF multiplies by Reciprocal's kernel (float32 "
       "packets of 8 are an rcp estimate and a Newton step): crossentropy's gradient off by an ulp"),
    _t("tan-grad-reciprocal-of-square", "gradient", "simdist/runtime/ops/special.py",
       "    return [square(reciprocal(cos(_conj(op.inputs[0])))) * grad]   # sec^2(x) * grad\n",
       "    return [reciprocal(square(cos(_conj(op.inputs[0])))) * grad]   # sec^2(x) * grad\n",
       "subtle: Tan's gradient as 1/cos^2 instead of TF's (1/cos)^2: another rounding, an ulp off"),
    _t("l2-loss-pairwise-sum", "order", "simdist/runtime/ops/losses.py",
       "        s = eigen_order_sum(h, None, False) if h.size else None\n",
       "        s = None\n",
       "mainstream, subtle: L2Loss sums its half squares in NumPy's pairwise order, not Eigen's SumReducer order: the last bit "
       "of a float32 loss over many elements"),
    _t("sum-bfloat16-accumulated-in-bfloat16", "dtype", "simdist/runtime/ops/math.py",
       "        return _sum(v.astype(np.float32), axis, keepdims, stacked).astype(v.dtype)\n",
       "        return np.add.reduce(v, axis=axis, keepdims=keepdims)\n",
       "subtle: a bfloat16 Sum accumulates in bfloat16 where TF's kernel sums in float32 and rounds once"),
    _t("xent-grad-broadcast-row-vector", "axis", "simdist/runtime/ops/losses.py",
       "    return array.reshape(vec, vec.shape.as_list() + [1]) * mat\n",
       "    return array.reshape(vec, [1] + vec.shape.as_list()) * mat\n",
       "mainstream: the softmax cross-entropy gradient scales the backprop by the incoming gradient as a row, not a "
       "column (a shape error, or silently wrong when the batch equals the number of classes)"),
    _t("elu-grad-from-inputs", "gradient", "simdist/runtime/ops/activations.py",
       "    return [dispatch.execute(ELU_GRAD, (grad, op.outputs[0]))]\n",
       "    return [dispatch.execute(ELU_GRAD, (grad, op.inputs[0]))]\n",
       "Elu's gradient kernel fed the features instead of the activations (wrong for negative inputs)"),
    _t("leaky-relu-grad-default-alpha", "gradient", "simdist/runtime/ops/activations.py",
       "    return [dispatch.execute(LEAKY_RELU_GRAD, (grad, op.inputs[0]), {\"alpha\": op.get_attr(\"alpha\")})]\n",
       "    return [dispatch.execute(LEAKY_RELU_GRAD, (grad, op.inputs[0]), {\"alpha\": 0.2})]\n",
       "LeakyRelu's gradient uses the op's default alpha 0.2 whatever the forward's alpha"),
    _t("reciprocal-packet-width-four", "boundary", "simdist/runtime/ops/rcp.py",
       "    flat = np.ascontiguousarray(a, _F).ravel()\n    k = (flat.size // 8) * 8\n    out = np.empty(flat.size, _F)\n"
       "    with np.errstate(divide=\"ignore\", invalid=\"ignore\", over=\"ignore\"):\n        out[:k] = reciprocal_packet",
       "    flat = np.ascontiguousarray(a, _F).ravel()\n    k = (flat.size // 4) * 4\n    out = np.empty(flat.size, _F)\n"
       "    with np.errstate(divide=\"ignore\", invalid=\"ignore\", over=\"ignore\"):\n        out[:k] = reciprocal_packet",
       "mainstream, subtle: float32 Reciprocal's packet part in packets of 4 where TF's kernel uses 8: up to 4 tail "
       "elements get the rcp estimate instead of 1/x (Log's gradient, an ulp)"),
    _t("packets-no-scalar-tail", "boundary", "simdist/runtime/ops/packet_math.py",
       "    rest, as an Eigen elementwise kernel of TF's splits them.\"\"\"\n    flat = np.ascontiguousarray(a).ravel()\n"
       "    p = LANES[a.dtype.name]\n    k = (flat.size // p) * p\n",
       "    rest, as an Eigen elementwise kernel of TF's splits them.\"\"\"\n    flat = np.ascontiguousarray(a).ravel()\n"
       "    p = LANES[a.dtype.name]\n    k = flat.size\n",
       "mainstream, subtle: exp/log (and the other packet kernels) evaluate the tail elements with the packet "
       "polynomial instead of the C library's function: an ulp off on up to P-1 elements"),
    _t("addn-groups-no-nine-chain", "order", "simdist/runtime/ops/sum_chain.py",
       "    r = 8 if r == 0 else 9 if r == 1 else r\n",
       "    r = 8 if r == 0 else r\n",
       "mainstream, subtle: AddN of 8k+1 inputs adds the first alone and then chains of 8, not TF's first chain of 9: "
       "another summation order, an ulp off"),
    _t("conv-input-grad-strides-dilations-swapped", "gradient", "simdist/runtime/ops/conv.py",
       "    dwin = dcols.reshape(n, oh, ow, kh, kw, input_sizes[3])\n"
       "    return scatter_windows(dwin, input_sizes, pads, strides[1:3], dilations[1:3])\n",
       "    dwin = dcols.reshape(n, oh, ow, kh, kw, input_sizes[3])\n"
       "    return scatter_windows(dwin, input_sizes, pads, dilations[1:3], strides[1:3])\n",
       "mainstream: Conv2DBackpropInput scatters the windows with the dilations as strides and the strides as dilations "
       "(a strided Conv2D's input gradient is wrong)"),
    # -- the tape
    _t("unconnected-zeros-float32", "dtype", "simdist/runtime/autodiff/backprop.py",
       "    return array.zeros(x.shape.as_list(), x.dtype)\n",
       "    return array.zeros(x.shape.as_list())\n",
       "unconnected_gradients=ZERO gives float32 zeros for a float64 source"),
    _t("watched-variables-read-order", "order", "simdist/runtime/autodiff/tape.py",
       "        return in_creation_order(self._seen)\n",
       "        return list(self._seen)\n",
       "VariableWatcher.watched_variables lists the variables in the order they were read, not made"),
    # -- the trainer
    _t("compile-loss-call-drops-sample-weight", "formula", "simdist/keras/trainers/compile_utils.py",
       "    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:\n"
       "        return self.call(y_true, y_pred, sample_weight)\n",
       "    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:\n"
       "        return self.call(y_true, y_pred)\n",
       "mainstream: the compiled loss ignores fit's/evaluate's sample_weight (and class_weight)"),
    # -- tf.data
    # -- checkpoints
    _t("checkpoint-manager-checkpoints-sorted", "order", "simdist/strategies/checkpoint.py",
       "    def checkpoints(self) -> list[str]:\n        return list(self._checkpoints)\n",
       "    def checkpoints(self) -> list[str]:\n        return sorted(self._checkpoints)\n",
       "CheckpointManager.checkpoints sorted as strings: ckpt-10 before ckpt-9"),
    # -- distribution
    # -- random ops
    _t("stateless-truncated-normal-moments-swapped", "formula", "simdist/runtime/ops/random.py",
       "    return _scaled(philox_dists.truncated_normal(_stateless_gen(seed), shape, dtype._np), stddev, mean, dtype)\n",
       "    return _scaled(philox_dists.truncated_normal(_stateless_gen(seed), shape, dtype._np), mean, stddev, dtype)\n",
       "stateless_truncated_normal scales by the mean and shifts by the stddev"),
    # -- more kernels and gradients
    _t("adagrad-v2-epsilon-inside-sqrt", "formula", "simdist/runtime/ops/training_kernels.py",
       "    return {\"accum\": accum, \"var\": v[\"var\"] - g * s[\"lr\"] / (np.sqrt(accum) + s[\"epsilon\"])}\n",
       "    return {\"accum\": accum, \"var\": v[\"var\"] - g * s[\"lr\"] / np.sqrt(accum + s[\"epsilon\"])}\n",
       "subtle: ApplyAdagradV2's kernel adds epsilon under the square root instead of after it"),
    _t("amsgrad-vhat-from-old-v", "state", "simdist/runtime/ops/training_kernels.py",
       "    vhat = np.maximum(v[\"vhat\"], vv)\n",
       "    vhat = np.maximum(v[\"vhat\"], v[\"v\"])\n",
       "subtle: ApplyAdamWithAmsgrad's vhat takes the previous step's v (the maximum one step late)"),
    _t("sinh-grad-sinh", "gradient", "simdist/runtime/ops/special.py",
       "def _sinh_grad(op: Any, grad: Any) -> list:\n    return [grad * cosh(_conj(op.inputs[0]))]\n",
       "def _sinh_grad(op: Any, grad: Any) -> list:\n    return [grad * sinh(_conj(op.inputs[0]))]\n",
       "Sinh's gradient is grad * sinh(x) (Cosh's rule copied)"),
    _t("sparse-xent-half-in-half", "dtype", "simdist/runtime/ops/losses.py",
       "    _ensure_xent_args(\"sparse_softmax_cross_entropy_with_logits\", labels, logits)\n"
       "    labels_t = convert_to_tensor(labels)\n    logits_t = convert_to_tensor(logits)\n"
       "    precise = math.cast(logits_t, dtypes.float32) if logits_t.dtype == dtypes.float16 else logits_t\n",
       "    _ensure_xent_args(\"sparse_softmax_cross_entropy_with_logits\", labels, logits)\n"
       "    labels_t = convert_to_tensor(labels)\n    logits_t = convert_to_tensor(logits)\n"
       "    precise = logits_t\n",
       "mainstream, subtle: sparse_softmax_cross_entropy_with_logits of float16 logits computes in float16 where TF upcasts "
       "to float32 and rounds the loss once"),
    _t("init-only-status-nontrivial-match-passes", "missing-error", "simdist/strategies/checkpoint.py",
       "    def assert_nontrivial_match(self) -> None:\n        raise AssertionError(self._MESSAGE)\n",
       "    def assert_nontrivial_match(self) -> None:\n        return None\n",
       "restore(None).assert_nontrivial_match() passes instead of AssertionError"),
    _t("init-only-status-consumed-passes", "missing-error", "simdist/strategies/checkpoint.py",
       "    def assert_consumed(self) -> None:\n        raise AssertionError(self._MESSAGE)\n",
       "    def assert_consumed(self) -> None:\n        return None\n",
       "restore(None).assert_consumed() passes instead of AssertionError"),
    _t("status-missing-unused-swapped", "state", "simdist/strategies/checkpoint.py",
       "        self._missing, self._unused = missing, unused\n",
       "        self._unused, self._missing = missing, unused\n",
       "mainstream: a restore's status swaps its missing and unused lists (assert_existing_objects_matched fails "
       "on a checkpoint's extra values, passes on objects it lacks)"),
    _t("weighted-loss-weight-dropped", "formula", "simdist/keras/trainers/compile_utils.py",
       "        self.loss = loss\n        self.weight = weight\n",
       "        self.loss = loss\n        self.weight = None\n",
       "mainstream: compile's loss_weights lost on the CompileLoss leaves (each output's loss weighted 1)"),
    _t("reduce-structure-leaf-as-whole", "placement", "simdist/strategies/mirrored.py",
       "        return nest.map_structure(lambda v: self._reduce_no_axis(op, v, ring, leaf=True), value)\n",
       "        return nest.map_structure(lambda v: self._reduce_no_axis(op, v, ring), value)\n",
       "MirroredStrategy.reduce of a nested structure treats a Mirrored leaf as a whole value"),
    _t("digamma-grad-order-zero", "gradient", "simdist/runtime/ops/special.py",
       "    return [grad * polygamma(constant(1, dtype=x.dtype), x)]\n",
       "    return [grad * polygamma(constant(0, dtype=x.dtype), x)]\n",
       "Digamma's gradient takes polygamma of order 0 (digamma itself) instead of 1 (trigamma)"),
    _t("sparse-xent-label-upper-bound-inclusive", "boundary", "simdist/runtime/ops/losses.py",
       "        if lo < 0 or hi >= classes:\n",
       "        if lo < 0 or hi > classes:\n",
       "mainstream: SparseSoftmaxCrossEntropyWithLogits accepts a label equal to the number of classes (TF: "
       "InvalidArgumentError 'Received a label value of N which is outside the valid range')"),
    _t("max-pool-grad-scatter-by-window", "gradient", "simdist/runtime/ops/pooling.py",
       "    step = strides[1:3]\n",
       "    step = ksize[1:3]\n",
       "mainstream: MaxPoolGrad places the windows' gradients at steps of the pool size, not the strides "
       "(overlapping pools: MaxPooling2D(3, strides=2))"),
    _t("call-model-training-dropped", "state", "simdist/keras/trainers/trainer.py",
       "        if self._trainer_call_has_training_arg():\n            return self(x, training=training)\n",
       "        if self._trainer_call_has_training_arg():\n            return self(x)\n",
       "mainstream: fit's and evaluate's forward pass is called without `training` (BatchNormalization and Dropout "
       "run in inference mode while training)"),
    _t("trainer-losses-own-only", "state", "simdist/keras/trainers/trainer.py",
       "        return list(getattr(self, \"losses\", None) or [])\n",
       "        return list(getattr(self, \"_losses\", None) or [])\n",
       "mainstream: the trainer adds only the model's own add_loss losses, not its layers' (kernel regularizers "
       "left out of fit's loss)"),
]
TRAINING += TRAINING_BATCH63
CATALOGUE += TRAINING_BATCH63

# Fifty-third session, helper blind53b: the sixty-fifth blind batch (op gradients and kernels, the tape, the trainer,
# tf.function, tf.data, checkpoints, distribution, random ops), written from simdist's source before reading the suite.
# The mainstream ones (lines an ordinary compile/fit or custom training loop runs: /work/wt/blind53b_logs/
# mainstream_prog.py, mainstream_prog2.py and mainstream_prog3.py under coverage: mainstream_check.py) are marked
# "mainstream", the numerically subtle ones "subtle", in their why.
TRAINING_BATCH65: list[Mutant] = [
    # -- op kernels and gradients
    _t("xent-backprop-row-exps", "formula", "simdist/runtime/ops/softmax_eigen.py",
       "        backprop = whole / s[:, None] - labels\n",
       "        backprop = in_rows / s[:, None] - labels\n",
       "mainstream, subtle: SoftmaxCrossEntropyWithLogits' backprop takes the exps Eigen computes inside the row "
       "reduction (C library exp on each row's tail) instead of the whole-tensor exps (packets over the flat "
       "array): a categorical cross-entropy's gradient an ulp off where a row is not packet-aligned"),
    _t("softmax-shift-global-max", "formula", "simdist/runtime/ops/softmax_eigen.py",
       "        return a - np.max(a, axis=1, keepdims=True)\n",
       "        return a - np.max(a)\n",
       "mainstream, subtle: the Eigen softmax/log-softmax/cross-entropy kernels shift every row by the whole "
       "tensor's maximum instead of the row's (equal in exact arithmetic, other roundings; a row far below "
       "the maximum underflows)"),
    _t("flat-tail-boundary-exclusive", "boundary", "simdist/runtime/ops/softmax_eigen.py",
       "    return np.arange(size) % block >= (block // p) * p\n",
       "    return np.arange(size) % block > (block // p) * p\n",
       "mainstream, subtle: the first element of a flat tensor's scalar tail is taken as a packet element (exp "
       "by Eigen's packet where TF calls the C library): a softmax / cross-entropy value an ulp off"),
    _t("lane-tree-8-natural-order", "order", "simdist/runtime/ops/sum_order.py",
       "            return _reduce(np.take(acc, _TREE8, axis=1), axis=1)\n",
       "            return _reduce(acc, axis=1)\n",
       "mainstream, subtle: the 8 float32 lanes of a packet sum are added in lane order instead of Eigen's "
       "halving tree (predux): reduce_sum / reduce_mean of 8 or more float32 elements an ulp off"),
    _t("log1p-packet-reassociated", "order", "simdist/runtime/ops/packet_math.py",
       "    large = x * (log1 / (xp1 - one))\n",
       "    large = (x * log1) / (xp1 - one)\n",
       "mainstream, subtle: Eigen's generic_log1p x * (log(u) / (u - 1)) computed as (x * log(u)) / (u - 1): "
       "log1p (sigmoid cross-entropy of logits, softplus) an ulp off"),
    _t("avg-pool-grad-loop-divides", "formula", "simdist/runtime/ops/pooling.py",
       "            add = (g[:, r, c, :].astype(wide) * wide(coeff)).astype(g.dtype)\n",
       "            add = (g[:, r, c, :].astype(wide) / wide(rs * cs)).astype(g.dtype)\n",
       "mainstream, subtle: AvgPoolGrad's loop divides each gradient by the window's size where TF's kernel multiplies by "
       "the rounded reciprocal T(1.0 / (rows * cols)): an ulp off for windows of 3, 6, 9 elements"),
    _t("raw-adagrad-lr-rsqrt-grouped", "order", "simdist/runtime/ops/training_kernels.py",
       "    return {\"accum\": accum, \"var\": v[\"var\"] - g * s[\"lr\"] * _rsqrt(accum)}\n",
       "    return {\"accum\": accum, \"var\": v[\"var\"] - g * (s[\"lr\"] * _rsqrt(accum))}\n",
       "subtle: ApplyAdagrad's update grad * (lr * rsqrt(accum)) instead of TF's (grad * lr) * rsqrt(accum): "
       "the variable an ulp off after a step"),
    _t("selu-grad-from-inputs", "gradient", "simdist/runtime/ops/activations.py",
       "    return [dispatch.execute(SELU_GRAD, (grad, op.outputs[0]))]\n",
       "    return [dispatch.execute(SELU_GRAD, (grad, op.inputs[0]))]\n",
       "Selu's gradient passes the features to SeluGrad, which takes the outputs: negative inputs' gradient "
       "g * (x + scale * alpha) instead of g * (y + scale * alpha)"),
    _t("softsign-grad-from-outputs", "gradient", "simdist/runtime/ops/activations.py",
       "    return [dispatch.execute(SOFTSIGN_GRAD, (grad, op.inputs[0]))]\n",
       "    return [dispatch.execute(SOFTSIGN_GRAD, (grad, op.outputs[0]))]\n",
       "Softsign's gradient passes the outputs to SoftsignGrad, which takes the features: g / (1 + |y|)^2"),
    _t("split-grad-concat-last-axis", "axis", "simdist/runtime/ops/array.py",
       "    return [concat(gs, op.get_attr(\"axis\"))]\n",
       "    return [concat(gs, -1)]\n",
       "mainstream: SplitV's gradient concatenates the pieces' gradients along the last axis instead of the split axis "
       "(tf.split along axis 0 of a matrix: a wrong-shaped gradient)"),
    _t("flat-log-numpy-log", "formula", "simdist/runtime/ops/softmax_eigen.py",
       "    if lanes == 1:\n        return packet_math.log(s)\n",
       "    if lanes == 1:\n        return np.log(s)\n",
       "mainstream, subtle: LogSoftmax's and the cross-entropy kernels' log of the row sums by NumPy's log instead "
       "of TF's Log kernel (Eigen's plog in packets, the C library on the tail): the loss an ulp off"),
    _t("sin-grad-complex-no-conj", "gradient", "simdist/runtime/ops/special.py",
       "    return [grad * cos(_conj(op.inputs[0]))]\n",
       "    return [grad * cos(op.inputs[0])]\n",
       "Sin's gradient of a complex input forgets the conjugate (TF: grad * cos(conj(x))): the imaginary part's "
       "sign flipped"),
    _t("realdiv-by-reciprocal", "formula", "simdist/runtime/ops/math.py",
       "    with np.errstate(divide=\"ignore\", invalid=\"ignore\"):\n        return np.true_divide(a, b)\n",
       "    with np.errstate(divide=\"ignore\", invalid=\"ignore\"):\n        return np.multiply(a, np.reciprocal(b))\n",
       "mainstream, subtle: RealDiv as a times the reciprocal of b instead of a division (x / 3 an ulp off)"),
    _t("same-shapes-rank-only", "formula", "simdist/runtime/ops/math.py",
       "    return sx == sy and isinstance(grad, Tensor) and grad.shape.as_list() == sx\n",
       "    return len(sx) == len(sy) and isinstance(grad, Tensor) and grad.shape.as_list() == sx\n",
       "mainstream: the Add/Sub/Mul gradients' 'no broadcast to undo' shortcut compares ranks only: [2, 3] + "
       "[1, 3] gives the second input the whole [2, 3] gradient, not summed over the broadcast rows"),
    # -- the tape
    _t("tape-record-first-output-only", "gradient", "simdist/runtime/autodiff/tape.py",
       "        for k in out_ids:\n            self.tensor_tape[k] = op_id\n",
       "        for k in out_ids[:1]:\n            self.tensor_tape[k] = op_id\n",
       "mainstream: the tape maps only an op's first output to the op, so gradients through the other outputs "
       "(tf.split's later pieces, unstack, top_k's indices' companion) are unconnected"),
    _t("trainable-complex-dropped", "dtype", "simdist/runtime/autodiff/tape.py",
       "    return dt.kind in TRAINABLE_KINDS\n",
       "    return dt.kind == \"f\"\n",
       "mainstream: the tape takes only real floating dtypes as trainable (TF's IsTrainable has complex64/complex128 too): "
       "the gradient of a complex computation is None"),
    # -- the trainer
    _t("array-adapter-drops-partial-batch", "boundary", "simdist/keras/trainers/data_adapter.py",
       "            dataset = tf.data.Dataset.from_tensor_slices(inputs).batch(bs)\n",
       "            dataset = tf.data.Dataset.from_tensor_slices(inputs).batch(bs, drop_remainder=True)\n",
       "mainstream: arrays batched without shuffling (evaluate, predict, fit(shuffle=False)) lose the partial last "
       "batch: the mean over fewer samples, predict's rows missing"),
    _t("array-adapter-num-batches-floor", "boundary", "simdist/keras/trainers/data_adapter.py",
       "    def num_batches(self) -> int:\n        return self._size\n",
       "    def num_batches(self) -> int:\n        return self._num_samples // self._batch_size\n",
       "mainstream: arrays' batches per epoch counted without the partial last batch (fit's steps, its progress "
       "and the last batch of each epoch)"),
    _t("predict-vector-outputs-stacked", "boundary", "simdist/keras/trainers/predict_concat.py",
       "    return isinstance(x, (tf.Tensor, tf.Variable)) and x.shape.rank == 0\n",
       "    return isinstance(x, (tf.Tensor, tf.Variable)) and x.shape.rank <= 1\n",
       "mainstream: predict's batches of rank-1 outputs are taken as scalars and stacked instead of concatenated"),
    _t("fit-trains-all-weights", "state", "simdist/keras/trainers/trainer.py",
       "        for name in (\"trainable_weights\", \"trainable_variables\"):\n",
       "        for name in (\"weights\", \"trainable_variables\"):\n",
       "mainstream: the train step differentiates and the optimizer builds for every weight, the non-trainable ones "
       "too (BatchNormalization's moving statistics get optimizer slots and None gradients)"),
    # -- tf.function
    _t("relaxed-arguments-defaults-unbound", "boundary", "simdist/tf/_tracing_count.py",
       "        binding.apply_defaults()   # (as call_key binds)\n",
       "",
       "mainstream: a call that leaves a defaulted parameter out is bound without the defaults, so it runs a "
       "relaxed trace (reduce_retracing) with its tensors' own static shapes"),
    _t("relaxed-known-shape-kept", "boundary", "simdist/tf/_tracing_count.py",
       "        if shape is not None and None not in shape:\n",
       "        if shape is not None:\n",
       "mainstream: a call running a relaxed trace (reduce_retracing) sees its tensor's own static shape instead of the "
       "trace's unknown dimensions"),
    # -- tf.data
    _t("range-dataset-stop-inclusive", "boundary", "simdist/runtime/data/sources.py",
       "        for v in range(p[\"start\"], p[\"stop\"], p[\"step\"]):\n",
       "        for v in range(p[\"start\"], p[\"stop\"] + (1 if p[\"step\"] > 0 else -1), p[\"step\"]):\n",
       "mainstream: Dataset.range includes its stop (fit's shuffled batch-index pipeline, Dataset.range(1), "
       "draws two permutations per epoch)"),
    _t("range-card-start-stop-swapped", "order", "simdist/runtime/data/sources.py",
       "        return range_cardinality(p[\"start\"], p[\"stop\"], p[\"step\"])\n",
       "        return range_cardinality(p[\"stop\"], p[\"start\"], p[\"step\"])\n",
       "Dataset.range's cardinality takes start and stop swapped (range(10).cardinality() is 0)"),
    # -- checkpoints
    _t("save-leaf-float32", "dtype", "simdist/strategies/checkpoint.py",
       "        arrays[key] = np.asarray(v.numpy())\n",
       "        arrays[key] = np.asarray(v.numpy(), dtype=np.float32)\n",
       "mainstream, subtle: a checkpoint stores every variable as float32 (a float64 variable restores rounded, "
       "an int64 step counter beyond 2**24 rounded)"),
    _t("checkpoint-saves-seed-generator", "state", "simdist/strategies/checkpoint.py",
       "    return [v for v in obj.variables if not getattr(v, \"_simdist_not_checkpointed\", False)]\n",
       "    return list(obj.variables)\n",
       "mainstream: a checkpoint saves and restores a Keras SeedGenerator's state (TF 2.21's Checkpoint does not "
       "track it): dropout masks after a restore repeat earlier ones"),
    # -- distribution
    _t("run-kwargs-replica-zero", "placement", "simdist/strategies/base.py",
       "                return fn(*select_replica(i, tuple(args), keep_variables=True),\n"
       "                          **select_replica(i, kwargs, keep_variables=True))\n",
       "                return fn(*select_replica(i, tuple(args), keep_variables=True),\n"
       "                          **select_replica(0, kwargs, keep_variables=True))\n",
       "mainstream: strategy.run gives every replica replica 0's part of a distributed keyword argument"),
    _t("update-one-variable-kwargs-whole", "placement", "simdist/strategies/base.py",
       "    result, flops = run_update(var.device, fn, var, *select_replica(0, args), **select_replica(0, kwargs))\n",
       "    result, flops = run_update(var.device, fn, var, *select_replica(0, args), **kwargs)\n",
       "CentralStorage's / ParameterServer's extended.update passes a distributed keyword argument whole instead "
       "of one replica's component"),
    _t("mirrored-primary-last-copy", "placement", "simdist/strategies/dist_variables.py",
       "    @property\n    def _primary(self) -> ResourceVariable:\n        return self._values[0]\n",
       "    @property\n    def _primary(self) -> ResourceVariable:\n        return self._values[-1]\n",
       "mainstream: a mirrored variable's primary copy is the last device's (its device, name and checkpointed "
       "copy the last replica's)"),
    # -- random ops
    _t("stateless-seed-pair-swapped", "order", "simdist/runtime/ops/random.py",
       "    return philox.stateless(int(s[0]), int(s[1]))\n",
       "    return philox.stateless(int(s[1]), int(s[0]))\n",
       "mainstream: the stateless random ops take the seed pair in reverse order (Keras's seeded initializers "
       "and dropout draw other numbers)"),
]
TRAINING += TRAINING_BATCH65
CATALOGUE += TRAINING_BATCH65

# Batch 64 (fifty-third session, helper blind53a): written blind from simdist's source (Keras layers, losses and
# metrics, optimizers and schedules, callbacks, saving). The first 20 sit on lines an ordinary compile/fit/evaluate/
# save/load program or custom loop runs (/work/wt/blind53a_logs/mainstream.py under coverage); "subtle" marks the
# numerically subtle ones.
TRAINING_BATCH64: list[Mutant] = [
    _t("rmsprop-velocity-update-reassociated", "formula", "simdist/keras/optimizers/rmsprop.py",
       "        self.assign(velocity, ops.add(ops.multiply(rho, velocity), ops.multiply(1 - rho, ops.square(gradient))))\n",
       "        self.assign_add(velocity, ops.multiply(ops.subtract(ops.square(gradient), velocity), 1 - rho))\n",
       "mainstream, subtle: RMSprop's velocity as v + (1 - rho) * (g^2 - v) (Adam's form) instead of Keras's "
       "rho * v + (1 - rho) * g^2 (equal in exact arithmetic; the last bits of every update)"),
    _t("nadam-beta-2-power-next-step", "boundary", "simdist/keras/optimizers/nadam.py",
       "        beta_2_power = ops.power(beta_2, local_step)\n",
       "        beta_2_power = ops.power(beta_2, next_step)\n",
       "mainstream, subtle: Nadam's second-moment bias correction uses beta_2 ** (t + 1) (one step ahead)"),
    _t("optimizer-ops-python-float-through-float32", "dtype", "simdist/keras/optimizers/_ops.py",
       "        return t1, tf.constant(x2, dtype=t1.dtype)\n",
       "        return t1, tf.cast(tf.constant(x2), t1.dtype)\n",
       "mainstream, subtle: the optimizers' binary ops convert a Python float right operand (1 - beta_1, rho ...) "
       "to float32 before the variable's dtype, so float64 variables see 0.1 as 0.10000000149"),
    _t("cosine-decay-fraction-by-reciprocal", "formula", "simdist/keras/optimizers/schedules.py",
       "        completed_fraction = ops.divide(step, decay_steps)\n",
       "        completed_fraction = ops.multiply(step, ops.divide(1.0, decay_steps))\n",
       "mainstream, subtle: CosineDecay's completed fraction as step * (1 / decay_steps) instead of step / "
       "decay_steps (a last bit at some steps)"),
    _t("cce-clip-upper-bound-dropped", "boundary", "simdist/keras/ops/tf_nn.py",
       "    output = output / tf.reduce_sum(output, axis, keepdims=True)\n\n"
       "    # Compute cross entropy from probabilities.\n    output = tf.clip_by_value(\n"
       "        output, backend.epsilon(), 1.0 - backend.epsilon()\n    )\n",
       "    output = output / tf.reduce_sum(output, axis, keepdims=True)\n\n"
       "    # Compute cross entropy from probabilities.\n    output = tf.clip_by_value(\n"
       "        output, backend.epsilon(), 1.0\n    )\n",
       "mainstream, subtle: categorical crossentropy of probabilities clips at [eps, 1] instead of [eps, 1 - eps] "
       "(a probability of exactly 1 gives 0, not -log(1 - 1e-7))"),
    _t("layernorm-float16-not-upcast", "dtype", "simdist/keras/layers/normalization.py",
       "    x = _to(x, _compute_dtype(original))\n",
       "    x = _to(x, original)\n",
       "mainstream, subtle: layer_normalization of float16 inputs (mixed precision) normalizes in float16 (Keras: "
       "in float32, the result cast back)"),
    _t("conv-output-shape-spatial-dims-channels-last", "axis", "simdist/keras/layers/argument_validation.py",
       "    dims = list(input_shape[1:-1] if data_format == \"channels_last\" else input_shape[2:])\n",
       "    dims = list(input_shape[1:-1])\n",
       "mainstream: the convolutions' output shape reads the spatial dimensions as channels_last whatever the "
       "data_format (channels_first shapes wrong)"),
    _t("lstm-bias-before-recurrent-term", "order", "simdist/keras/layers/rnn_cells.py",
       "            rec_term = _matmul(h_tm1, self.recurrent_kernel)\n"
       "            z = tf.add(z, rec_term) if traced.batch_dim_unknown() else keras_add(z, rec_term)\n"
       "            if self.use_bias:\n                z = keras_add(z, self.bias)\n",
       "            if self.use_bias:\n                z = keras_add(z, self.bias)\n"
       "            rec_term = _matmul(h_tm1, self.recurrent_kernel)\n"
       "            z = tf.add(z, rec_term) if traced.batch_dim_unknown() else keras_add(z, rec_term)\n",
       "mainstream, subtle: LSTMCell adds the bias before the recurrent term ((xW + b) + hU, Keras: (xW + hU) + b)"),
    _t("dense-bias-takes-kernel-constraint", "state", "simdist/keras/layers/core.py",
       "                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)\n"
       "        else:\n            self.bias = None\n",
       "                                        regularizer=self.bias_regularizer, constraint=self.kernel_constraint)\n"
       "        else:\n            self.bias = None\n",
       "mainstream: Dense's bias gets the kernel's constraint (copy-paste)"),
    _t("global-avg-pool-float16-reduced-in-float16", "dtype", "simdist/keras/layers/pooling.py",
       "        compute = ori if ori in (tf.float32, tf.float64) else tf.float32\n",
       "        compute = ori if ori.is_floating else tf.float32\n",
       "mainstream, subtle: GlobalAveragePooling2D averages float16 inputs in float16 (Keras's ops.mean: in float32, "
       "then cast back)"),
    _t("monitor-val-prefix-lstrip", "formula", "simdist/keras/callbacks/monitor_callback.py",
       "            metric_name = self.monitor.removeprefix(\"val_\")\n",
       "            metric_name = self.monitor.lstrip(\"val_\")\n",
       "mainstream: EarlyStopping/ModelCheckpoint/ReduceLROnPlateau's auto mode strips the characters v, a, l, _ "
       "('val_loss' -> 'oss'), not the prefix"),
    _t("model-checkpoint-save-weights-only-inverted", "state", "simdist/keras/callbacks/model_checkpoint.py",
       "                elif self.save_weights_only:\n                    self.model.save_weights(filepath, overwrite=True)\n"
       "                else:\n                    self.model.save(filepath, overwrite=True)\n",
       "                elif not self.save_weights_only:\n                    self.model.save_weights(filepath, overwrite=True)\n"
       "                else:\n                    self.model.save(filepath, overwrite=True)\n",
       "mainstream: ModelCheckpoint saves weights when asked for the whole model and the model when asked for weights"),
    _t("early-stopping-stopped-epoch-one-based", "boundary", "simdist/keras/callbacks/early_stopping.py",
       "            self.stopped_epoch = epoch\n",
       "            self.stopped_epoch = epoch + 1\n",
       "mainstream: EarlyStopping.stopped_epoch is 1-based (Keras: the 0-based epoch it stopped at)"),
    _t("callbacklist-epoch-end-one-based", "boundary", "simdist/keras/callbacks/callback_list.py",
       "        self._each(\"on_epoch_end\", epoch, logs=logs)\n",
       "        self._each(\"on_epoch_end\", epoch + 1, logs=logs)\n",
       "mainstream: CallbackList.on_epoch_end passes the epoch 1-based (History.epoch, ModelCheckpoint's {epoch}, "
       "EarlyStopping's epoch > 0 rule)"),
    _t("load-weights-extra-variables-accepted", "missing-error", "simdist/keras/models/saving.py",
       "    elif len(store.keys()) != len(own):\n",
       "    elif len(store.keys()) < len(own):\n",
       "mainstream: load_weights accepts a layer entry with more variables than the layer has (Keras: ValueError "
       "'expected N variables, but received M')"),
    _t("deserialize-model-compiles-when-compile-false", "state", "simdist/keras/models/keras_file.py",
       "    if compile and compile_config:\n",
       "    if compile_config:\n",
       "mainstream: load_model(compile=False) still compiles the model from its compile_config"),
    _t("auc-recall-with-epsilon", "formula", "simdist/keras/metrics/confusion_metrics.py",
       "        recall = ops.divide_no_nan(tps, tps + fns)\n",
       "        recall = ops.divide_no_nan(tps, tps + fns + config.epsilon())\n",
       "mainstream, subtle: AUC's recall (ROC's y, PR's x) divides by tp + fn + 1e-7"),
    _t("binary-accuracy-float16-compares-in-float16", "dtype", "simdist/keras/metrics/accuracy_metrics.py",
       "    dt = y_pred.dtype if y_pred.dtype.is_floating and y_pred.dtype.size >= threshold.dtype.size else threshold.dtype\n",
       "    dt = y_pred.dtype if y_pred.dtype.is_floating else threshold.dtype\n",
       "mainstream, subtle: binary_accuracy compares float16 predictions with the threshold rounded to float16 "
       "(Keras: both in float32)"),
    _t("auc-bucket-floor-not-ceil-minus-one", "boundary", "simdist/keras/metrics/metrics_utils.py",
       "    bucket_indices = tf.math.ceil(y_pred * (ops.cast(num_thresholds, y_pred.dtype) - 1)) - 1\n",
       "    bucket_indices = tf.math.floor(y_pred * (ops.cast(num_thresholds, y_pred.dtype) - 1))\n",
       "mainstream, subtle: the evenly-spaced-thresholds confusion update puts a prediction equal to a threshold "
       "above it (counted positive at that threshold; Keras: pred > threshold)"),
    _t("input-batch-size-dropped", "state", "simdist/keras/layers/core.py",
       "    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse, ragged=ragged,\n",
       "    layer = InputLayer(shape=shape, batch_size=None, dtype=dtype, sparse=sparse, ragged=ragged,\n",
       "mainstream: keras.Input(shape, batch_size=n) drops the batch size (the input's batch dimension None)"),
    _t("einsum-dense-activation-before-bias", "order", "simdist/keras/layers/einsum_dense.py",
       "        x = einsum(self.equation, inputs, self.kernel)\n        if self.bias is not None:\n"
       "            x = tf.add(x, tf.convert_to_tensor(self.bias))\n        if self.activation is not None:\n"
       "            x = self.activation(x)\n",
       "        x = einsum(self.equation, inputs, self.kernel)\n        if self.activation is not None:\n"
       "            x = self.activation(x)\n        if self.bias is not None:\n"
       "            x = tf.add(x, tf.convert_to_tensor(self.bias))\n",
       "EinsumDense applies its activation before adding the bias"),
    _t("conv-lstm-recurrent-conv-dilated", "formula", "simdist/keras/layers/conv_lstm.py",
       "        return _ops().conv(x, w, strides=strides, padding=\"same\", data_format=self.data_format)\n",
       "        return _ops().conv(x, w, strides=strides, padding=\"same\", data_format=self.data_format,\n"
       "                           dilation_rate=self.dilation_rate)\n",
       "ConvLSTM's recurrent convolution takes the layer's dilation_rate (Keras: only the input convolution)"),
    _t("mha-default-key-is-query", "formula", "simdist/keras/layers/attention.py",
       "        if key is None:\n            key = value\n",
       "        if key is None:\n            key = query\n",
       "MultiHeadAttention without a key uses the query as key (Keras: the value)"),
    _t("depthwise-conv-dilation-dropped", "formula", "simdist/keras/layers/depthwise_separable.py",
       "    return _finish(tf.nn.depthwise_conv2d(x, k, st, padding.upper(), data_format=\"NHWC\", dilations=dl), one_d, tr)\n",
       "    return _finish(tf.nn.depthwise_conv2d(x, k, st, padding.upper(), data_format=\"NHWC\"), one_d, tr)\n",
       "DepthwiseConv1D/2D ignore dilation_rate in the convolution"),
    _t("metric-stateless-update-returns-old-values", "state", "simdist/keras/metrics/metric.py",
       "            out.append(v if new is None else new)\n",
       "            out.append(v)\n",
       "Metric.stateless_update_state returns the variables' old values, not the updated ones"),
    _t("tversky-config-alpha-beta-swapped", "order", "simdist/keras/losses/overlap_losses.py",
       "        config_.update({\"alpha\": self.alpha, \"beta\": self.beta, \"axis\": self.axis})\n",
       "        config_.update({\"alpha\": self.beta, \"beta\": self.alpha, \"axis\": self.axis})\n",
       "Tversky's config swaps alpha and beta"),
    _t("sum-metric-total-float32", "dtype", "simdist/keras/metrics/reduction_metrics.py",
       "    def __init__(self, name: str = \"sum\", dtype: Any = None) -> None:\n        super().__init__(name=name, dtype=dtype)\n"
       "        self.total = self.add_variable(shape=(), initializer=initializers.Zeros(), dtype=self.dtype, name=\"total\")\n",
       "    def __init__(self, name: str = \"sum\", dtype: Any = None) -> None:\n        super().__init__(name=name, dtype=dtype)\n"
       "        self.total = self.add_variable(shape=(), initializer=initializers.Zeros(), dtype=\"float32\", name=\"total\")\n",
       "subtle: Sum accumulates in a float32 variable whatever the metric's dtype (float64 sums rounded)"),
    _t("correlation-float64-inputs-cast-to-float32", "dtype", "simdist/keras/metrics/correlation_metrics.py",
       "    return x if x.dtype.is_floating else tf.cast(x, config.floatx())\n",
       "    return x if x.dtype == tf.float32 else tf.cast(x, config.floatx())\n",
       "subtle: the correlation metrics compute float64 (and float16) inputs in float32"),
    _t("backup-restore-damaged-file-no-fallback", "error-class", "simdist/keras/callbacks/backup_and_restore.py",
       "        except OSError:\n",
       "        except ValueError:\n",
       "BackupAndRestore(double_checkpoint=True) does not fall back to the previous backup when the weights file is "
       "damaged (the OSError propagates)"),
    _t("conv-transpose-bias-takes-kernel-regularizer", "state", "simdist/keras/layers/conv_transpose.py",
       "                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint,\n",
       "                                        regularizer=self.kernel_regularizer, constraint=self.bias_constraint,\n",
       "the transposed convolutions' bias takes the kernel's regularizer"),
]
TRAINING += TRAINING_BATCH64
CATALOGUE += TRAINING_BATCH64

# Fifty-fourth session, helper blind54b: the sixty-seventh blind batch (op kernels and gradients, the tape, the trainer,
# tf.function, tf.data, checkpoints, distribution, random ops), written from simdist's source before reading the suite.
# The mainstream ones (lines an ordinary compile/fit or custom training loop runs: /work/wt/blind54b_logs/
# mainstream_prog.py, mainstream_prog2.py and mainstream_prog3.py under coverage: mainstream_check.py) are marked
# "mainstream", the numerically subtle ones "subtle", in their why.
TRAINING_BATCH67: list[Mutant] = [
    # -- op kernels and gradients
    _t("softplus-tail-log-of-one-plus", "formula", "simdist/runtime/ops/packet_math.py",
       "            lp = libm.scalar_map(\"log1pf\" if single else \"log1p\", e)\n",
       "            lp = libm.scalar_map(\"logf\" if single else \"log\", e + dt(1))\n",
       "mainstream, subtle: Softplus's scalar tail (the elements past the last packet of 8) computes log(1 + e) "
       "instead of log1p(e): relative error up to ~1e-3 where exp(x) is small (x around -10)"),
    _t("sum-leaf-extra-packets-first", "order", "simdist/runtime/ops/sum_order.py",
       "                parts = np.concatenate((parts, x[:, b4:end].reshape(rows, extra, lanes)), axis=1)\n",
       "                parts = np.concatenate((x[:, b4:end].reshape(rows, extra, lanes), parts), axis=1)\n",
       "subtle: the inner-most reduction adds the packets left over after the blocks of four before "
       "the four accumulators instead of after: reduce_sum of a row of 40..63 float32 elements an ulp off"),
    _t("paired-matmul-tail-one-row-only", "boundary", "simdist/runtime/ops/contraction_order.py",
       "    tail = m % 6 if m % 6 in (1, 2) else 0\n",
       "    tail = m % 6 if m % 6 == 1 else 0\n",
       "mainstream, subtle: the small float32 matmul's last block of two rows (m = 2, 8, 14, ...) takes fused "
       "multiply-adds instead of rounded products: a Dense output an ulp off"),
    _t("ordered-matmul-wide-accumulator", "dtype", "simdist/runtime/ops/contraction_order.py",
       "        acc = np.zeros(out_shape, dt)\n        for j in range(x.shape[-1]):\n"
       "            acc = acc + x[..., :, j, None] * y[..., None, j, :]\n        return acc\n",
       "        acc = np.zeros(out_shape, np.promote_types(dt, np.float64))\n        for j in range(x.shape[-1]):\n"
       "            acc = acc + x[..., :, j, None] * y[..., None, j, :]\n        return acc.astype(dt)\n",
       "mainstream, subtle: the in-order matmul without fused multiply-adds (one row, or the smallest products, "
       "on a host where oneDNN does not run float32) accumulates the rounded products in float64 and rounds once "
       "instead of rounding each sum to float32"),
    _t("rsqrt-newton-reassociated", "order", "simdist/runtime/ops/rcp.py",
       "        h = (a * r) * r + _F(-1)\n",
       "        h = a * (r * r) + _F(-1)\n",
       "mainstream, subtle: the packet rsqrt's Newton step computes a * (r * r) instead of Eigen's (a * r) * r: "
       "rsqrt (BatchNormalization, tf.math.rsqrt) an ulp off"),
    _t("rsqrt-tail-sqrt-of-reciprocal", "formula", "simdist/runtime/ops/rcp.py",
       "        out[k:] = _F(1) / np.sqrt(flat[k:])\n",
       "        out[k:] = np.sqrt(_F(1) / flat[k:])\n",
       "mainstream, subtle: float32 Rsqrt's scalar tail computes sqrt(1 / x) instead of 1 / sqrt(x): an ulp off"),
    _t("kept-inner-packet-boundary-inclusive", "boundary", "simdist/runtime/ops/sum_order.py",
       "    if c < lanes:\n        return _seq\n",
       "    if c <= lanes:\n        return _seq\n",
       "mainstream, subtle: a sum over the rows of [A, C] with exactly one packet of columns (C = 8 float32) adds "
       "the rows in sequence instead of Eigen's unrolled InnerMostDimPreserver (a bias gradient of 8 units an "
       "ulp off)"),
    _t("sqrt-grad-half-no-packets", "formula", "simdist/runtime/ops/sqrt_grads.py",
       "            mask = packet_mask(y.shape, y.dtype, HALF_LANES)\n",
       "            mask = None\n",
       "subtle: float16/bfloat16 SqrtGrad takes the tail's formula (0.5 * dy) / y on every element instead of "
       "the packets' (0.5 / y) * dy"),
    _t("rsqrt-grad-arguments-swapped", "order", "simdist/runtime/ops/sqrt_grads.py",
       "    return dispatch.execute(RSQRT_GRAD, (y, dy))\n",
       "    return dispatch.execute(RSQRT_GRAD, (dy, y))\n",
       "mainstream: Rsqrt's gradient passes (dy, y) to RsqrtGrad, which takes (y, dy)"),
    _t("add-n-grad-last-input-none", "gradient", "simdist/runtime/ops/math.py",
       "    return [grad] * len(op.inputs)\n",
       "    return [grad] * (len(op.inputs) - 1) + [None]\n",
       "mainstream: AddN's gradient gives its last input None (an off-by-one): add_n of regularisation terms "
       "leaves the last weight without its gradient"),
    _t("exp-grad-no-conj", "gradient", "simdist/runtime/ops/unary.py",
       "    return [grad * _conj(op.outputs[0])]\n",
       "    return [grad * op.outputs[0]]\n",
       "mainstream: Exp's gradient does not conjugate the output: a complex exp's gradient wrong"),
    _t("cos-grad-sign", "gradient", "simdist/runtime/ops/special.py",
       "    return [-grad * sin(_conj(op.inputs[0]))]\n",
       "    return [grad * sin(_conj(op.inputs[0]))]\n",
       "Cos's gradient drops the minus sign"),
    _t("lgamma-grad-of-output", "gradient", "simdist/runtime/ops/special.py",
       "    return [grad * digamma(op.inputs[0])]\n",
       "    return [grad * digamma(op.outputs[0])]\n",
       "Lgamma's gradient evaluates digamma at the output instead of the input"),
    _t("avg-pool-grad-output-shape", "gradient", "simdist/runtime/ops/pooling.py",
       "    attrs = dict(op.attrs, orig_input_shape=tuple(op.inputs[0].shape.as_list()))\n",
       "    attrs = dict(op.attrs, orig_input_shape=tuple(op.outputs[0].shape.as_list()))\n",
       "mainstream: AvgPool's gradient passes the output's shape as orig_input_shape"),
    _t("max-pool-grad-input-output-swapped", "order", "simdist/runtime/ops/pooling.py",
       "    return [dispatch.execute(MAX_POOL_GRAD, (op.inputs[0], op.outputs[0], grad), _pool_attrs(op))]\n",
       "    return [dispatch.execute(MAX_POOL_GRAD, (op.outputs[0], op.inputs[0], grad), _pool_attrs(op))]\n",
       "mainstream: MaxPool's gradient passes (output, input) to MaxPoolGrad, which takes (input, output)"),
    _t("preserver-unroll-boundary-inclusive", "boundary", "simdist/runtime/ops/sum_order.py",
       "    if a < 16:\n        return _seq(x3)\n",
       "    if a <= 16:\n        return _seq(x3)\n",
       "mainstream, subtle: a sum over the outer axis of [A, C] (a bias gradient over the batch) adds 16 rows in "
       "sequence instead of Eigen's four unrolled accumulators (InnerMostDimPreserver's boundary made "
       "inclusive): a batch of 16 rows' bias gradient an ulp off"),
    _t("pow-float64-packet-width-8", "boundary", "simdist/runtime/ops/packet_pow.py",
       "    p = PACKET if single else PACKET_D\n",
       "    p = PACKET\n",
       "mainstream, subtle: float64 Pow takes packets of 8 (float32's) instead of 4: elements 4..7 of a short float64 "
       "tensor by the C library's pow instead of Eigen's generic_pow, an ulp off"),
    # -- the trainer
    _t("train-step-forward-outside-tape", "gradient", "simdist/keras/trainers/trainer.py",
       "        with tf.GradientTape() as tape:\n            y_pred = self._call_model(x, training=True)\n",
       "        y_pred = self._call_model(x, training=True)\n        with tf.GradientTape() as tape:\n",
       "mainstream: train_step runs the model's forward pass before opening the tape (shares Trainer.train_step "
       "with loss-tracker-unweighted-batches and fit-loss-not-scaled-by-loss-scale-factor, which change the loss "
       "tracker's weight and the loss scaling: this one loses the gradients through the model)"),
    _t("shuffle-epoch-counter-early", "boundary", "simdist/runtime/data/shuffle.py",
       "            epoch = self._epoch\n            self._epoch += 1\n",
       "            self._epoch += 1\n            epoch = self._epoch\n",
       "a shuffle's iteration counter is incremented before it seeds the pass: every epoch's order "
       "is the next epoch's"),
    _t("map-spec-first-probe-shape", "formula", "simdist/runtime/data/map_filter.py",
       "    shape = most_specific_compatible_shape(a.shape, b.shape)\n",
       "    shape = a.shape\n",
       "mainstream: a map function's output spec takes the first probe's shape instead of the two probes' common "
       "one (a dimension that depends on the element stays static)"),
    _t("options-type-error-class", "error-class", "simdist/runtime/data/options.py",
       "            raise TypeError(f'Property \"{name}\" must be of type {shown}, got: {value!r} (type: {type(value)})')\n",
       "            raise ValueError(f'Property \"{name}\" must be of type {shown}, got: {value!r} (type: {type(value)})')\n",
       "tf.data.Options refuses a value of the wrong type with ValueError instead of TF's TypeError"),
    _t("trace-supertype-no-shape-relaxation", "formula", "simdist/tf/_tracing_count.py",
       "            return a[:i] + (_relax_shape(a[i], b[i]),) + a[i + 1:]\n",
       "            return a if a[i] == b[i] else None\n",
       "mainstream: two traces' tensor keys of other shapes have no common supertype (reduce_retracing never "
       "relaxes a shape: a trace per shape)"),
    _t("restore-float64-through-float32", "dtype", "simdist/strategies/checkpoint.py",
       "    todo.append((v, arr))\n",
       "    todo.append((v, arr.astype(np.float32) if arr.dtype == np.float64 else arr))\n",
       "mainstream, subtle: Checkpoint's restore passes a float64 variable's saved value through float32 (rounded "
       "to 24 bits)"),
    _t("dist-iterator-traced-end-stop-iteration", "error-class", "simdist/strategies/input.py",
       "        except errors.OutOfRangeError:\n            if context.in_function():\n"
       "                raise errors.end_of_sequence() from None\n            raise StopIteration from None\n",
       "        except errors.OutOfRangeError:\n            raise StopIteration from None\n",
       "mainstream: next() of an exhausted distributed iterator inside a tf.function raises StopIteration instead of TF's "
       "OutOfRangeError"),
    _t("update-group-ignored", "state", "simdist/strategies/base.py",
       "                return self._update(var, fn, tuple(args), kwargs, group)\n",
       "                return self._update(var, fn, tuple(args), kwargs, True)\n",
       "mainstream: extended.update in cross-replica context ignores group=False (a Mirrored instead of the "
       "per-copy results)"),
    _t("update-result-first-copy", "state", "simdist/strategies/dist_variables.py",
       "        return Mirrored(tuple(c._as_tensor() for c in comps))   # (regroup's wrap_class path: tf.identity of each)\n",
       "        return comps[0]._lazy_read()\n",
       "mainstream: a MirroredVariable's assign in cross-replica context returns the first copy's value, not a "
       "Mirrored of every copy's"),
    _t("dist-iterator-pull-stops-pipeline", "shard-size", "simdist/strategies/input.py",
       "                    self._iterators[w] = None\n",
       "                    self._iterators[w] = None\n                    break\n",
       "mainstream: a distributed iterator whose pipeline ends while dealing to its devices stops dealing (the "
       "later devices get no entry instead of an empty one)"),
    # -- random ops
    _t("philox-float32-high-bits", "formula", "simdist/runtime/ops/philox.py",
       "        bits = (np.uint32(127) << np.uint32(23)) | (w & np.uint32(0x7FFFFF))\n",
       "        bits = (np.uint32(127) << np.uint32(23)) | (w >> np.uint32(9))\n",
       "mainstream: float32 uniform draws take a word's high 23 bits as the mantissa instead of its low 23"),
    _t("philox-skip-low-carry-dropped", "boundary", "simdist/runtime/ops/philox.py",
       "    if w0 > _M:\n        hi = (hi + 1) & _M\n",
       "",
       "mainstream: Philox's Skip drops the carry out of the counter's low word: a skip across a 2**32 boundary (a "
       "negative skip) leaves the counter's second word wrong"),
    _t("default-seed-pair-swapped", "order", "simdist/runtime/ops/random.py",
       "        s1, s2 = tf_seeds(op_seed)\n",
       "        s2, s1 = tf_seeds(op_seed)\n",
       "mainstream: under a global seed, the default seed of an unseeded Keras initializer / layer is drawn with "
       "(seed, seed2) swapped"),
]
TRAINING += TRAINING_BATCH67
CATALOGUE += TRAINING_BATCH67
#: Blind batch 66 (fifty-fourth session, helper blind54a): Keras layers, losses and metrics, optimizers and schedules,
#: callbacks and saving; written from simdist's source before reading the suite. The first 21 are on the mainstream
#: path (a line an ordinary compile/fit or custom loop runs: /work/wt/blind54a_logs/mainstream_check.py); "subtle"
#: marks the numerically subtle ones.
TRAINING_BATCH66: list[Mutant] = [
    _t("sgd-momentum-python-float-not-cast", "dtype", "simdist/keras/optimizers/sgd.py",
       "            momentum = ops.cast(self.momentum, variable.dtype)\n",
       "            momentum = self.momentum\n",
       "mainstream, subtle: SGD's momentum enters the update as the Python float (exact in a float64 variable's "
       "dtype) instead of Keras's ops.cast of it (a Python float goes through float32 first)"),
    _t("adagrad-update-lr-times-quotient", "order", "simdist/keras/optimizers/adagrad.py",
       "        self.assign_sub(variable, ops.divide(ops.multiply(lr, gradient),\n",
       "        self.assign_sub(variable, lr * ops.divide(gradient,\n",
       "mainstream, subtle: Adagrad's step as lr * (g / sqrt(acc + eps)) instead of Keras's (lr * g) / sqrt(acc + eps)"),
    _t("exp-decay-power-via-exp-log", "formula", "simdist/keras/optimizers/schedules.py",
       "        return ops.multiply(initial_learning_rate, ops.power(decay_rate, p))\n",
       "        return ops.multiply(initial_learning_rate, tf.exp(p * tf.math.log(decay_rate)))\n",
       "mainstream, subtle: ExponentialDecay's decay_rate ** p computed as exp(p * log(decay_rate)) (last bits)"),
    _t("loss-mean-times-reciprocal-count", "denominator", "simdist/keras/losses/loss.py",
       "        loss = ops.divide_no_nan(loss, divisor)\n",
       "        loss = loss * ops.divide_no_nan(tf.ones_like(divisor), divisor)\n",
       "mainstream, subtle: the sum_over_batch_size reduction multiplies the sum by 1/count instead of dividing "
       "(a batch of 3, 5, 6... rows gives another last bit)"),
    _t("mse-integer-targets-not-cast", "dtype", "simdist/keras/losses/losses.py",
       "    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)\n    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)\n"
       "    return ops.mean(tf.square(y_true - y_pred), axis=-1)\n",
       "    y_true = ops.convert_to_tensor(y_true)\n    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)\n"
       "    return ops.mean(tf.square(y_true - y_pred), axis=-1)\n",
       "mainstream: keras.losses.mean_squared_error keeps integer targets integer (Keras: converted to y_pred's "
       "dtype), so integer labels against float predictions raise"),
    _t("mape-scale-inside-mean", "order", "simdist/keras/losses/regression_losses.py",
       "    return 100.0 * ops.mean(diff, axis=-1)\n",
       "    return ops.mean(100.0 * diff, axis=-1)\n",
       "mainstream, subtle: MAPE scales each term by 100 before the mean (Keras: 100 * mean; last bits)"),
    _t("auc-riemann-sum-reversed", "order", "simdist/keras/metrics/confusion_metrics.py",
       "        return ops.sum(riemann_terms)\n",
       "        return ops.sum(tf.reverse(riemann_terms, [0]))\n",
       "mainstream, subtle: AUC sums its Riemann terms from the highest threshold down (float32 summation order)"),
    _t("auc-thresholds-by-reciprocal", "formula", "simdist/keras/metrics/confusion_metrics.py",
       "            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]\n",
       "            thresholds = [(i + 1) * (1.0 / (num_thresholds - 1)) for i in range(num_thresholds - 2)]\n",
       "mainstream, subtle: AUC's evenly spaced thresholds as (i + 1) * (1 / (n - 1)) (Keras: (i + 1) * 1.0 / (n - 1)); "
       "some thresholds one ulp off"),
    _t("precision-recall-result-plain-divide", "denominator", "simdist/keras/metrics/precision_recall.py",
       "        value = ops.divide_no_nan(tp, tf.add(tp, ops.convert_to_tensor(self._other_variable)))\n",
       "        value = tf.divide(tp, tf.add(tp, ops.convert_to_tensor(self._other_variable)))\n",
       "mainstream: Precision/Recall's result divides plainly (NaN without predicted positives / positives; "
       "Keras: divide_no_nan, 0)"),
    _t("dense-one-unit-bias-takes-bias-add", "gradient", "simdist/keras/layers/core.py",
       "    if len(x.shape) > 1 and len(b.shape) == 1 and b.shape[0] == x.shape[-1] and b.shape[0] != 1:\n",
       "    if len(x.shape) > 1 and len(b.shape) == 1 and b.shape[0] == x.shape[-1]:\n",
       "mainstream, subtle: a one-unit Dense adds its bias with BiasAdd (Keras's ops.add: AddV2 for a bias of one "
       "element), so its bias gradient is BiasAddGrad's sum (another order over 8 or more rows)"),
    _t("lstm-input-forget-gates-swapped", "order", "simdist/keras/layers/rnn_cells.py",
       "            i = rec(z0)\n            f = rec(z1)\n",
       "            i = rec(z1)\n            f = rec(z0)\n",
       "mainstream: LSTMCell (implementation 2) reads the input gate from the forget gate's slice and vice versa"),
    _t("gru-update-reset-slices-swapped", "order", "simdist/keras/layers/rnn_cells.py",
       "            recurrent_z, recurrent_r = matrix_inner[:, :u], matrix_inner[:, u:u * 2]\n",
       "            recurrent_r, recurrent_z = matrix_inner[:, :u], matrix_inner[:, u:u * 2]\n",
       "mainstream: GRUCell (implementation 2) swaps the update and reset gates' recurrent terms"),
    _t("weights-file-container-path-by-layer-name", "state", "simdist/keras/models/saving.py",
       "            yield from walk_saveables(item, _join(path, _unique(to_snake_case(type(item).__name__), used)), visited)\n",
       "            yield from walk_saveables(item, _join(path, _unique(to_snake_case(item.name), used)), visited)\n",
       "mainstream: the weights file names a list's layers by their names (Keras: by their class, snake_case, "
       "numbered), so a model with named layers writes other paths and loads another model's file by name"),
    _t("monitor-loss-improvement-inclusive", "boundary", "simdist/keras/callbacks/monitor_callback.py",
       "            if metric_name == \"loss\":\n                self.monitor_op = ops.less\n",
       "            if metric_name == \"loss\":\n                self.monitor_op = ops.less_equal\n",
       "mainstream: the monitors' auto mode counts an equal loss as an improvement (Keras: strictly less), so "
       "EarlyStopping never stops on a flat loss and ModelCheckpoint(save_best_only) saves on ties"),
    _t("early-stopping-best-weights-refreshed-every-epoch", "state", "simdist/keras/callbacks/early_stopping.py",
       "        if self.restore_best_weights and self.best_weights is None:\n",
       "        if self.restore_best_weights:\n",
       "mainstream: EarlyStopping(restore_best_weights=True) takes the current weights as the best at every epoch "
       "(Keras: only at the first), so it restores the last epoch's weights after no improvement"),
    _t("csv-logger-epoch-one-based", "boundary", "simdist/keras/callbacks/csv_logger.py",
       "        row: dict[str, Any] = collections.OrderedDict({\"epoch\": epoch})\n",
       "        row: dict[str, Any] = collections.OrderedDict({\"epoch\": epoch + 1})\n",
       "mainstream: CSVLogger writes the epoch column 1-based (Keras: the 0-based epoch index)"),
    _t("sparse-categorical-accuracy-matches-keep-label-axis", "axis", "simdist/keras/metrics/accuracy_metrics.py",
       "    if len(matches.shape) > 1 and matches.shape[-1] == 1:\n        matches = ops.squeeze(matches, -1)\n    return matches\n",
       "    return matches\n",
       "mainstream: sparse_categorical_accuracy of labels shaped (batch, 1) returns matches shaped (batch, 1) "
       "(Keras squeezes the trailing 1: shape (batch,))"),
    _t("dense-bias-takes-kernel-initializer", "state", "simdist/keras/layers/core.py",
       "            self.bias = self.add_weight(name=\"bias\", shape=(self.units,), initializer=self.bias_initializer,\n",
       "            self.bias = self.add_weight(name=\"bias\", shape=(self.units,), initializer=self.kernel_initializer,\n",
       "mainstream: Dense's bias is initialized by the kernel's initializer (copy-paste)"),
    _t("callbacklist-train-batch-begin-one-based", "boundary", "simdist/keras/callbacks/callback_list.py",
       "        self._each(\"on_train_batch_begin\", batch, logs=logs)\n",
       "        self._each(\"on_train_batch_begin\", batch + 1, logs=logs)\n",
       "mainstream: CallbackList.on_train_batch_begin passes the batch index 1-based (Keras: 0-based)"),
    _t("global-clipnorm-scale-as-quotient", "formula", "simdist/keras/optimizers/base_optimizer.py",
       "    scale_for_finite = clip_norm * ops.minimum(1.0 / use_norm, 1.0 / clip_norm)\n",
       "    scale_for_finite = ops.minimum(clip_norm / use_norm, 1.0)\n",
       "mainstream, subtle: global_clipnorm's scale as min(c / norm, 1) (Keras: c * min(1 / norm, 1 / c); last bits "
       "when clipping)"),
    _t("loss-replica-scale-divides", "denominator", "simdist/keras/losses/loss.py",
       "        value = value * ops.cast(1.0 / n, value.dtype)\n",
       "        value = value / ops.cast(n, value.dtype)\n",
       "mainstream, subtle: a loss under a strategy of n replicas divides by n (Keras's TF backend: times 1/n; "
       "n = 3 differs in the last bit)"),
    # -- the rest: each in a function no earlier mutant touched
    _t("normalization-adapt-mean-in-float32", "dtype", "simdist/keras/layers/normalization_adapt.py",
       "    compute = x.dtype if x.dtype in (tf.float32, tf.float64) else tf.float32\n"
       "    return tf.reduce_mean(tf.cast(x, compute) if x.dtype != compute else x, axis=axis)\n",
       "    compute = tf.float32\n"
       "    return tf.reduce_mean(tf.cast(x, compute) if x.dtype != compute else x, axis=axis)\n",
       "subtle: Normalization.adapt averages float64 data in float32"),
    _t("mha-projections-drop-dtype-policy", "dtype", "simdist/keras/layers/attention.py",
       "                \"dtype\": self.dtype_policy,\n",
       "",
       "MultiHeadAttention's projections do not take its dtype policy (a mixed_float16 MHA projects in float32)"),
    _t("discretization-summary-percents-from-zero", "boundary", "simdist/keras/layers/discretization.py",
       "    percents = epsilon + np.arange(0.0, 1.0, epsilon)\n",
       "    percents = np.arange(0.0, 1.0, epsilon)\n",
       "Discretization's compressed summary samples the quantiles 0, eps, ... (Keras: eps, 2 eps, ..., 1), so "
       "adapt's bin boundaries over many values shift"),
    _t("attention-scale-initialized-zeros", "state", "simdist/keras/layers/dot_attention.py",
       "            self.scale = self.add_weight(name=\"scale\", shape=(), initializer=\"ones\", dtype=self.dtype, trainable=True)\n",
       "            self.scale = self.add_weight(name=\"scale\", shape=(), initializer=\"zeros\", dtype=self.dtype, trainable=True)\n",
       "Attention(use_scale=True) starts its scale at 0 (Keras: 1), so the first scores are uniform"),
    _t("mha-output-dense-built-with-key-dim", "state", "simdist/keras/layers/attention.py",
       "        dense_in[-1] = self._value_dim\n",
       "        dense_in[-1] = self._key_dim\n",
       "MultiHeadAttention builds its output projection for key_dim inputs (Keras: value_dim)"),
    _t("weights-file-shared-layer-walked-twice", "state", "simdist/keras/models/saving.py",
       "    visited = set() if visited is None else visited\n    if id(obj) in visited:\n        return\n",
       "    visited = set() if visited is None else visited\n",
       "the weights-file walk visits a layer reachable twice (two attributes) twice (Keras: once, at its first path)"),
    _t("losses-ops-sum-float16-through-float32", "dtype", "simdist/keras/losses/_ops.py",
       "        x = tf.cast(x, tf.uint32)\n    return tf.reduce_sum(x, axis=axis, keepdims=keepdims)\n",
       "        x = tf.cast(x, tf.uint32)\n    if x.dtype == tf.float16:\n"
       "        return tf.cast(tf.reduce_sum(tf.cast(x, tf.float32), axis=axis, keepdims=keepdims), tf.float16)\n"
       "    return tf.reduce_sum(x, axis=axis, keepdims=keepdims)\n",
       "subtle: the losses' ops.sum adds float16 values in float32 (Keras: tf.reduce_sum in float16), so a float16 "
       "loss's reduction differs"),
    _t("f1-score-config-keeps-beta", "state", "simdist/keras/metrics/f_score_metrics.py",
       "        del cfg[\"beta\"]\n",
       "        cfg.pop(\"beta_squared\", None)\n",
       "F1Score's config keeps FBetaScore's beta (Keras drops it: F1Score.from_config of its config works)"),
    _t("schedule-free-adamw-momentum-not-copied", "state", "simdist/keras/optimizers/schedule_free_adamw.py",
       "            if momentum is not None:\n                self.assign(momentum, tf.identity(ops.convert_to_tensor(var)))\n",
       "            if momentum is None:\n                self.assign(momentum, tf.identity(ops.convert_to_tensor(var)))\n",
       "ScheduleFreeAdamW built eagerly leaves its momenta (z) at 0 (Keras: a copy of each variable)"),
]
TRAINING += TRAINING_BATCH66
CATALOGUE += TRAINING_BATCH66
#: Blind batch 69 (fifty-fifth session, helper blind55b): op kernels and gradients, the tape and custom gradients,
#: tf.data, tf.function, checkpoints, distribution and random ops; written from simdist's source before reading the
#: suite. "mainstream" marks a line an ordinary program runs (/work/wt/blind55b_logs/prog1-3.py under coverage.py:
#: mainstream_check.py), "subtle" the numerically subtle ones.
TRAINING_BATCH69: list[Mutant] = [
    # -- op kernels and gradients
    _t("cumsum-float32-wide-accumulator", "dtype", "simdist/runtime/ops/reductions.py",
       "        out = ufunc.accumulate(v, axis=axis, dtype=x.dtype)\n",
       "        out = ufunc.accumulate(v, axis=axis, dtype=np.float64 if x.dtype == np.float32 else x.dtype)"
       ".astype(x.dtype)\n",
       "mainstream, subtle: a float32 cumsum/cumprod accumulates its running sums in float64 and rounds each to "
       "float32 once, instead of rounding every partial sum (Eigen's scan adds in float32): a long cumsum an ulp off"),
    _t("cumsum-exclusive-reverse-swapped", "order", "simdist/runtime/ops/reductions.py",
       "{\"axis\": ax % nd, \"exclusive\": bool(exclusive), \"reverse\": bool(reverse)}",
       "{\"axis\": ax % nd, \"exclusive\": bool(reverse), \"reverse\": bool(exclusive)}",
       "mainstream: cumsum/cumprod pass exclusive as the kernel's reverse attribute and reverse as exclusive"),
    _t("onednn-softmax-unrolled-sums-in-sequence", "order", "simdist/runtime/ops/onednn_softmax.py",
       "        total = (acc[0] + acc[1]) + (acc[2] + acc[3])\n",
       "        total = ((acc[0] + acc[1]) + acc[2]) + acc[3]\n",
       "subtle: oneDNN's softmax combines its four unrolled accumulators left to right instead of as two "
       "pairs: a softmax over 64+ classes an ulp off"),
    _t("onednn-softmax-lane-tree-reversed", "order", "simdist/runtime/ops/onednn_softmax.py",
       "    steps = ([idx ^ 8, idx ^ 4] if width == 16 else [idx ^ 4]) + [idx ^ 2, idx ^ 1]\n",
       "    steps = ([idx ^ 4, idx ^ 8] if width == 16 else [idx ^ 4]) + [idx ^ 2, idx ^ 1]\n",
       "mainstream, subtle: oneDNN's horizontal sum of a 16-lane register folds the quarter lanes before the halves: "
       "the softmax's row sum an ulp off on an AVX-512 host"),
    _t("onednn-softmax-divides-by-row-sum", "formula", "simdist/runtime/ops/onednn_softmax.py",
       "        inv = _ftz((_F32(1) / row_sums(e, width)).astype(_F32))\n    return _ftz((e * inv[:, None]).astype(_F32))\n",
       "        inv = _ftz(row_sums(e, width).astype(_F32))\n    return _ftz((e / inv[:, None]).astype(_F32))\n",
       "mainstream, subtle: oneDNN's softmax divides each exp by the row's sum instead of multiplying it by the sum's "
       "rounded reciprocal: probabilities an ulp off"),
    _t("eigen-softmax-row-sum-pairwise", "order", "simdist/runtime/ops/softmax_eigen.py",
       "    return np.add.reduce(e, axis=1) if s is None else s\n",
       "    return np.add.reduce(e, axis=1)\n",
       "subtle: Eigen's softmax/log-softmax adds each row's exps in NumPy's pairwise order instead of Eigen's "
       "SumReducer packets: a float64 softmax over 16+ classes an ulp off"),
    _t("eigen-softmax-float64-libm-exp", "formula", "simdist/runtime/ops/softmax_eigen.py",
       "        out[fin] = pexp_double(block[fin])\n",
       "        pass\n",
       "subtle: Eigen's float64 softmax takes the C library's exp in its packets instead of Eigen's pexp_double: "
       "an ulp off here and there"),
    _t("logistic-tail-textbook-formula", "formula", "simdist/runtime/ops/packet_math.py",
       "    e = libm.scalar_map(\"expf\", np.minimum(x, _LOGISTIC_HI))\n    return e / (_F(1) + e)\n",
       "    e = libm.scalar_map(\"expf\", -x)\n    return _F(1) / (_F(1) + e)\n",
       "mainstream, subtle: float32 sigmoid's scalar tail (past the last packet of 8) as the textbook 1 / (1 + exp(-x)) "
       "instead of Eigen's scalar_logistic_op e / (1 + e) with e = expf(min(x, 16.64)): an ulp off"),
    _t("half-rsqrt-packets-of-16", "boundary", "simdist/runtime/ops/unary.py",
       "        k = (flat.size // 8) * 8\n",
       "        k = (flat.size // 16) * 16\n",
       "subtle: float16/bfloat16 Rsqrt takes packets of 16 (an AVX-512 register) instead of TF's 8: elements 8..15 "
       "of a short half tensor by the tail's sqrt-then-divide, an ulp off"),
    _t("cast-float64-to-float32-no-flush", "dtype", "simdist/runtime/ops/math.py",
       "        out = subnormals.flushed(out)\n",
       "        pass\n",
       "mainstream, subtle: a float64 -> float32 cast keeps a result below float32's normal range as a subnormal "
       "(TF's CPU kernels convert under FTZ: a zero of its sign)"),
    _t("relu-negative-zero-kept-in-packets", "boundary", "simdist/runtime/ops/activations.py",
       "    keep = neg_zero if packet is None else neg_zero & ~packet\n",
       "    keep = neg_zero\n",
       "subtle: relu(-0.0) keeps -0.0 in Eigen's packets too (their max gives +0.0; only the scalar tail keeps the "
       "sign)"),
    _t("reduce-variance-mean-square-minus-square", "formula", "simdist/runtime/ops/reductions.py",
       "    return math.reduce_mean(unary.square(diff), axis=axis, keepdims=keepdims)\n",
       "    return math.subtract(math.reduce_mean(unary.square(x), axis=axis, keepdims=keepdims),\n"
       "                         unary.square(math.reduce_mean(x, axis=axis, keepdims=keepdims)))\n",
       "subtle: tf.math.reduce_variance (and reduce_std) as E[x^2] - E[x]^2 instead of TF's mean of squared "
       "deviations: cancellation, values off by many ulps"),
    _t("add-n-shape-check-size-only", "missing-error", "simdist/runtime/ops/math.py",
       "    for i, x in enumerate(ts[1:], 1):\n        if x.shape != shp:\n",
       "    for i, x in enumerate(ts[1:], 1):\n        if x.shape.num_elements() != shp.num_elements():\n",
       "mainstream: tf.add_n compares its inputs' sizes instead of their shapes: [2, 3] and [3, 2] pass its check "
       "(TF: InvalidArgumentError naming both shapes)"),
    _t("tensor-scatter-add-duplicates-once", "formula", "simdist/runtime/ops/scatter.py",
       "            np.add.at(out, pos, upd)\n",
       "            out[pos] += upd\n",
       "mainstream: tensor_scatter_nd_add adds through fancy-index assignment (`out[pos] += upd`): of repeated "
       "indices only the last update counts instead of their sum"),
    _t("pool-geometry-strides-from-ksize", "formula", "simdist/runtime/ops/pooling.py",
       "    return window_geometry(shape[1:3], ksize[1:3], strides[1:3], (1, 1), padding, explicit, op)\n",
       "    return window_geometry(shape[1:3], ksize[1:3], ksize[1:3], (1, 1), padding, explicit, op)\n",
       "mainstream: a pooling op's output geometry takes the window size as its strides: a pool whose strides differ "
       "from its window (3x3 windows, stride 2) has the wrong output size"),
    _t("same-padding-extra-row-before", "boundary", "simdist/runtime/ops/conv.py",
       "        before, after = needed // 2, needed - needed // 2\n",
       "        before, after = needed - needed // 2, needed // 2\n",
       "SAME padding puts the odd padding row/column before the input instead of after (TF pads the bottom/right "
       "more): a strided SAME conv or pool windowed one row off"),
    _t("reciprocal-grad-of-input", "gradient", "simdist/runtime/ops/unary.py",
       "    return [reciprocal_grad(op.outputs[0], grad)]\n",
       "    return [reciprocal_grad(op.inputs[0], grad)]\n",
       "Reciprocal's gradient passes its input instead of its output y to ReciprocalGrad (-dy * y^2): -dy * x^2"),
    # -- the tape and tf.function
    _t("gradient-key-variable-not-the-replica-copy", "placement", "simdist/runtime/autodiff/backprop.py",
       "    if _is_variable(x):\n        return id(variable_key(x))\n",
       "    if _is_variable(x):\n        return id(x)\n",
       "mainstream: tape.gradient keys a variable source by the variable object instead of the object its reads are "
       "keyed by (a MirroredVariable's replica copy): inside strategy.run a mirrored variable's gradient is None"),
    _t("function-under-tape-replays-plain", "placement", "simdist/tf/_function.py",
       "    return _UNDER_TAPE if c.observers else _PLAIN\n",
       "    return _PLAIN\n",
       "mainstream: a tf.function called under a GradientTape records and replays as if no tape watched it: the "
       "tape does not see its ops (gradients through it None)"),
    _t("call-covers-any-parameter", "formula", "simdist/tf/_tracing_count.py",
       "    return all(covers(x, y) for (_, x), (_, y) in zip(pa, pb))\n",
       "    return any(covers(x, y) for (_, x), (_, y) in zip(pa, pb))\n",
       "mainstream: a trace takes a call when any one of its parameters covers the call's (all: TF's "
       "FunctionType.is_supertype_of): a call differing in its second argument's shape reuses the trace"),
    # -- tf.data
    _t("map-list-output-not-a-tuple", "formula", "simdist/runtime/data/elements.py",
       "    if isinstance(out, list):\n        warnings.warn(\"The tf.data function returned a list; converting it "
       "to a tuple, as TF does.\",\n                      stacklevel=3)\n        out = tuple(out)\n",
       "",
       "mainstream: a map function's list output is converted as one tensor (stacked) instead of TF's tuple of "
       "components"),
    _t("dataset-repeat-default-zero", "boundary", "simdist/runtime/data/dataset.py",
       "        return _RepeatDataset(self, -1 if count is None else _int_arg(count))\n",
       "        return _RepeatDataset(self, 0 if count is None else _int_arg(count))\n",
       "mainstream: Dataset.repeat() with no count repeats 0 times (an empty dataset) instead of forever"),
    _t("shard-first-round-count-from-zero", "boundary", "simdist/runtime/data/shard.py",
       "                seen = pos + 1\n",
       "                seen = pos\n",
       "mainstream: a shard that must be non-empty counts the elements before its first one from 0 instead of 1 "
       "(an off-by-one): it reads one element more of the first round and loses it"),
    # -- distribution
    _t("strategy-reduce-ignores-device-scope", "placement", "simdist/strategies/base.py",
       "        return d if d is not None else self._extended._host_device\n",
       "        return self._extended._host_device\n",
       "mainstream: strategy.reduce places its result on the host device whatever the device scope it is called in"),
    _t("merged-update-every-replica-first-copy", "state", "simdist/strategies/dist_variables.py",
       "    if len(comps) == 1:\n        return comps[0]._lazy_read()\n",
       "    if len(comps) >= 1:\n        return comps[0]._lazy_read()\n",
       "mainstream: an aggregated replica-context assign of a MirroredVariable hands every replica the first copy's "
       "value (TF: a Mirrored of each copy's)"),
    _t("distributed-dataset-fetch-to-device-ignored", "placement", "simdist/strategies/input.py",
       "            dest = devs if opts.experimental_fetch_to_device else (host,) * len(devs)\n",
       "            dest = devs\n",
       "mainstream: a distributed dataset ignores InputOptions(experimental_fetch_to_device=False): its elements "
       "are placed on the replicas' devices instead of the host's"),
    # -- random ops
    _t("generator-key-words-swapped", "order", "simdist/runtime/ops/random_generator.py",
       "    return (s[2] & 0xFFFFFFFF, s[2] >> 32), s[0] | (s[1] << 64)\n",
       "    return (s[2] >> 32, s[2] & 0xFFFFFFFF), s[0] | (s[1] << 64)\n",
       "mainstream: a tf.random.Generator's Philox key takes the state's key word high half first: every draw "
       "differs from TF's"),
    _t("philox-counter-carry-inclusive", "boundary", "simdist/runtime/ops/philox.py",
       "    carry = (low < g).astype(object) if blocks else np.zeros(0, object)\n",
       "    carry = (low <= g).astype(object) if blocks else np.zeros(0, object)\n",
       "mainstream: Philox's block counters detect the carry into the high half with <=: from a counter whose low "
       "word is 0 (a stateless op's) every block carries"),
    _t("philox-words-floor-blocks", "boundary", "simdist/runtime/ops/philox_dists.py",
       "        self.w = group_words(gen, -(-words // 4)).reshape(-1) if words > 0 else np.zeros(0, np.uint32)\n",
       "        self.w = group_words(gen, words // 4).reshape(-1) if words > 0 else np.zeros(0, np.uint32)\n",
       "mainstream: a sampler's Philox word stream draws words // 4 blocks instead of the ceiling: a draw whose word count is not "
       "a multiple of 4 (random_shuffle of 6 elements, categorical) runs short"),
    # -- checkpoints
    _t("checkpoint-reader-graph-key-hidden", "formula", "simdist/strategies/checkpoint_reader.py",
       "        return {k: list(v.shape) for k, v in self._tensors.items()}\n",
       "        return {k: list(v.shape) for k, v in self._tensors.items() if k != _GRAPH}\n",
       "a checkpoint reader's variable-to-shape map (tf.train.list_variables) leaves out "
       "_CHECKPOINTABLE_OBJECT_GRAPH, which TF lists with shape []"),
]
TRAINING += TRAINING_BATCH69
CATALOGUE += TRAINING_BATCH69
#: Blind batch 68 (fifty-fifth session, helper blind55a): Keras layers, activations, constraints and regularizers,
#: initializers, optimizers, metrics, callbacks and the progress bar, the data adapter, compile, weights and saving;
#: written from simdist's source before reading the suite. The first 20 are on the mainstream path (a line an
#: ordinary compile/fit/evaluate/predict/save program or custom loop runs: /work/wt/blind55a_logs/mainstream.py
#: under coverage, mainstream_check.py); "subtle" marks the numerically subtle ones.
TRAINING_BATCH68: list[Mutant] = [
    _t("orthogonal-sign-correction-dropped", "formula", "simdist/keras/initializers.py",
       "        q = q * np.sign(np.diag(r))\n",
       "",
       "mainstream: the Orthogonal initializer (the recurrent kernels' default) keeps QR's Q without multiplying "
       "its columns by the signs of R's diagonal"),
    _t("progbar-negative-value-scientific", "boundary", "simdist/keras/utils/progbar.py",
       "                    info += f\" {avg:.4f}\" if abs(avg) > 1e-3 else f\" {avg:.4e}\"\n",
       "                    info += f\" {avg:.4f}\" if avg > 1e-3 else f\" {avg:.4e}\"\n",
       "mainstream: the verbose=1 progress bar prints a negative value (a cosine-similarity loss) in "
       "scientific notation, comparing the value and not its magnitude with 1e-3"),
    _t("keras-archive-config-before-metadata", "order", "simdist/keras/models/keras_file.py",
       "        for name, data in ((_METADATA, metadata.encode()), (_CONFIG, config.encode()),\n",
       "        for name, data in ((_CONFIG, config.encode()), (_METADATA, metadata.encode()),\n",
       "mainstream: model.save writes the .keras zip's config.json before metadata.json (Keras: metadata, "
       "config, weights)"),
    _t("sequential-functional-not-skipped", "state", "simdist/keras/models/saving.py",
       "    extra = {\"Functional\": {\"operations\", \"_operations\"}, \"Sequential\": {\"_functional\"}}.get(obj_type, set())\n",
       "    extra = {\"Functional\": {\"operations\", \"_operations\"}}.get(obj_type, set())\n",
       "mainstream: the weights walk does not skip a Sequential's inner `_functional`, so its layers are also "
       "walked (saved) under `_functional/...`"),
    _t("layer-get-weights-trainable-only", "state", "simdist/keras/layers/layer.py",
       "        return [v.numpy() for v in self.weights]\n",
       "        return [v.numpy() for v in self.trainable_weights]\n",
       "mainstream: get_weights returns only the trainable weights (BatchNormalization's moving statistics, "
       "frozen layers' weights left out)"),
    _t("frozen-layer-regularizer-still-penalized", "state", "simdist/keras/layers/layer.py",
       "        return [v.regularizer(v) for v in self.trainable_weights if v.regularizer is not None]\n",
       "        return [v.regularizer(v) for v in self.weights if v.regularizer is not None]\n",
       "mainstream: a frozen layer's (trainable=False) weight regularizers still add their penalties to the losses"),
    _t("glorot-fan-average-floored", "formula", "simdist/keras/initializers.py",
       "            scale /= max(1.0, (fan_in + fan_out) / 2.0)\n",
       "            scale /= max(1.0, (fan_in + fan_out) // 2)\n",
       "mainstream: VarianceScaling's fan_avg (glorot_uniform, the default kernel initializer) halves fan_in + "
       "fan_out by floor division (an odd sum loses its half: a wider limit)"),
    _t("l2-penalty-factor-inside-sum", "formula", "simdist/keras/regularizers.py",
       "        return tf.cast(self.l2, _dtype(x)) * tf.reduce_sum(tf.square(x))\n",
       "        return tf.reduce_sum(tf.cast(self.l2, _dtype(x)) * tf.square(x))\n",
       "mainstream, subtle: the L2 penalty as sum(l2 * w^2) instead of l2 * sum(w^2) (the last bits of the "
       "regularization loss, so of the training loss and the gradients)"),
    _t("regularizer-zero-factor-refused", "boundary", "simdist/keras/regularizers.py",
       "    if not isinstance(value, (float, int)) or (math.isinf(value) or math.isnan(value)) or value < 0:\n",
       "    if not isinstance(value, (float, int)) or (math.isinf(value) or math.isnan(value)) or value <= 0:\n",
       "mainstream: a penalty factor of 0 (l2(0.0), L1L2's default l1=0) is refused as if negative"),
    _t("weight-decay-cast-exact", "dtype", "simdist/keras/optimizers/base_optimizer.py",
       "                    wd = tf.cast(self.weight_decay, variable.dtype)\n",
       "                    wd = tf.constant(self.weight_decay, variable.dtype)\n",
       "mainstream, subtle: the decoupled weight decay factor is made exactly in the variable's dtype instead of "
       "Keras's cast of the Python float (through float32): float64 variables decay by 0.01, not 0.0099999998"),
    _t("array-adapter-batches-floor-plus-one", "boundary", "simdist/keras/trainers/data_adapter.py",
       "        self._size = int(math.ceil(num_samples / batch_size))\n",
       "        self._size = num_samples // batch_size + 1\n",
       "mainstream: the array adapter counts n // batch_size + 1 batches (one too many when the batch size divides "
       "the sample count: the callbacks' params['steps'], the progress bar's target)"),
    _t("lstm-split-candidate-output-swapped", "order", "simdist/keras/layers/rnn_cells.py",
       "            z0, z1, z2, z3 = tf.split(z, 4, axis=1)\n",
       "            z0, z1, z3, z2 = tf.split(z, 4, axis=1)\n",
       "mainstream: the fused LSTM cell reads its gates in the order i, f, o, c instead of Keras's i, f, c, o "
       "(the candidate and output gates' kernel slices swapped)"),
    _t("auc-bucket-index-not-clamped", "boundary", "simdist/keras/metrics/metrics_utils.py",
       "    if thresholds_with_epsilon:\n        bucket_indices = tf.nn.relu(bucket_indices)\n",
       "",
       "mainstream: AUC's evenly-spaced bucket index of a prediction of exactly 0 stays -1 (dropped by the segment "
       "sum) instead of being clamped to bucket 0"),
    _t("auc-end-thresholds-exact", "boundary", "simdist/keras/metrics/confusion_metrics.py",
       "        self._thresholds = np.array([0.0 - eps] + list(thresholds) + [1.0 + eps])\n",
       "        self._thresholds = np.array([0.0] + list(thresholds) + [1.0])\n",
       "mainstream: AUC's end thresholds are exactly 0 and 1 (Keras: -epsilon and 1 + epsilon), so a prediction of "
       "0 is not counted as positive at the first threshold"),
    _t("progbar-step-digits-ceil-log10", "boundary", "simdist/keras/utils/progbar.py",
       "                numdigits = int(math.log10(self.target)) + 1\n                bar = f\"%{numdigits}d/%d\" % (current, self.target)\n",
       "                numdigits = math.ceil(math.log10(self.target))\n                bar = f\"%{numdigits}d/%d\" % (current, self.target)\n",
       "mainstream: the verbose=1 progress bar pads the step count to ceil(log10(target)) digits (one short at 10, "
       "100 ... steps, none for 1 step)"),
    _t("progbar-epoch-line-zero-based", "boundary", "simdist/keras/callbacks/progbar_logger.py",
       "            print_msg(f\"Epoch {epoch + 1}/{self.epochs}\")\n",
       "            print_msg(f\"Epoch {epoch}/{self.epochs}\")\n",
       "mainstream: fit's verbose epoch header counts epochs from 0 (Epoch 0/3)"),
    _t("set-weights-shape-checked-by-size", "boundary", "simdist/keras/layers/layer.py",
       "            if tuple(variable.shape.as_list()) != tuple(np.shape(value)):\n",
       "            if int(np.prod(variable.shape.as_list())) != int(np.size(value)):\n",
       "mainstream: set_weights compares only the element counts (a transposed kernel passes the check and fails "
       "later, or is reshaped)"),
    _t("accuracy-binary-from-labels-last-dim", "axis", "simdist/keras/trainers/compile_utils.py",
       "    is_binary = y_p_last == 1\n",
       "    is_binary = y_t_last == 1\n",
       "mainstream: compile's 'accuracy' string is resolved as binary when the labels' last dimension is 1 (sparse "
       "labels of shape (n, 1)) instead of the predictions'"),
    _t("layer-weights-non-trainable-first", "order", "simdist/keras/layers/layer.py",
       "        for v in self._trainable_variables + self._non_trainable_variables:\n",
       "        for v in self._non_trainable_variables + self._trainable_variables:\n",
       "mainstream: a layer's weights list its non-trainable variables first (BatchNormalization's moving "
       "statistics before gamma and beta: get_weights/set_weights order, the weights file's indices)"),
    _t("optimizer-ops-left-python-float-through-float32", "dtype", "simdist/keras/optimizers/_ops.py",
       "        return tf.constant(x1, dtype=t2.dtype), t2\n",
       "        return tf.cast(x1, t2.dtype), t2\n",
       "mainstream, subtle: the optimizers' binary ops convert a Python float left operand (RMSprop's rho * v, "
       "(1 - rho) * g^2) through float32 before the variable's dtype: float64 variables see 0.9 as 0.89999998"),
    _t("recurrent-dropout-mask-takes-dropout-rate", "formula", "simdist/keras/layers/rnn_cells.py",
       "                               self._create_dropout_mask(step_input, self.recurrent_dropout))\n",
       "                               self._create_dropout_mask(step_input, self.dropout))\n",
       "an RNN cell's recurrent dropout mask is drawn at the input dropout's rate (copy and paste)"),
    _t("rnn-dropout-one-mask-for-all-gates", "state", "simdist/keras/layers/rnn_cells.py",
       "        return [random.dropout(ones, rate=dropout_rate, seed=self.seed_generator) for _ in range(count)]\n",
       "        return [random.dropout(ones, rate=dropout_rate, seed=self.seed_generator)] * count\n",
       "the gate-split (implementation 1) LSTM/GRU draws one dropout mask and shares it among its gates "
       "instead of one mask per gate"),
    _t("add-layer-sums-from-the-last", "order", "simdist/keras/layers/merging.py",
       "        out = inputs[0]\n        for x in inputs[1:]:\n            out = _ops_add(out, x)\n        return out\n",
       "        out = inputs[-1]\n        for x in reversed(inputs[:-1]):\n            out = _ops_add(out, x)\n        return out\n",
       "subtle: Add() sums three or more inputs from the last ((c + b) + a) instead of from the first"),
    _t("log-sigmoid-as-log-of-sigmoid", "formula", "simdist/keras/activations.py",
       "    return -tf.math.softplus(-x)\n",
       "    return tf.math.log(tf.nn.sigmoid(x))\n",
       "subtle: log_sigmoid as log(sigmoid(x)) instead of -softplus(-x) (-inf for very negative x, other bits)"),
    _t("hard-silu-reassociated", "formula", "simdist/keras/activations.py",
       "    return x * hard_sigmoid(x)\n",
       "    return x * tf.nn.relu6(x + 3.0) / 6.0\n",
       "subtle: hard_silu as (x * relu6(x + 3)) / 6 instead of x * (relu6(x + 3) / 6)"),
    _t("glu-halves-swapped", "order", "simdist/keras/activations.py",
       "    return x1 * tf.sigmoid(x2)\n",
       "    return x2 * tf.sigmoid(x1)\n",
       "glu gates the second half by the first's sigmoid instead of the first half by the second's"),
    _t("lora-scale-after-product", "formula", "simdist/keras/layers/lora.py",
       "    delta = (layer.lora_alpha / layer.lora_rank) * product\n",
       "    delta = layer.lora_alpha * product / layer.lora_rank\n",
       "subtle: LoRA's merged kernel scales A @ B as (alpha * AB) / rank instead of (alpha / rank) * AB"),
    _t("unit-norm-by-reciprocal", "formula", "simdist/keras/constraints.py",
       "        return _cast(w, norms.dtype) / (_EPSILON + norms)\n",
       "        return _cast(w, norms.dtype) * (1.0 / (_EPSILON + norms))\n",
       "subtle: UnitNorm multiplies by the reciprocal of (eps + norm) instead of dividing"),
    _t("orthogonal-regularizer-rsqrt-as-reciprocal-sqrt", "formula", "simdist/keras/regularizers.py",
       "    inv_norm = tf.math.rsqrt(tf.reduce_sum(tf.square(x), axis=axis, keepdims=True))\n",
       "    inv_norm = 1.0 / tf.sqrt(tf.reduce_sum(tf.square(x), axis=axis, keepdims=True))\n",
       "subtle: OrthogonalRegularizer's row normalization takes 1 / sqrt(sum x^2) instead of Keras's rsqrt (the last "
       "bits of the normalized rows, so of the penalty)"),
    _t("l1-penalty-factor-inside-sum", "formula", "simdist/keras/regularizers.py",
       "        return tf.cast(self.l1, _dtype(x)) * tf.reduce_sum(tf.abs(x))\n",
       "        return tf.reduce_sum(tf.cast(self.l1, _dtype(x)) * tf.abs(x))\n",
       "subtle: the L1 penalty as sum(l1 * |w|) instead of l1 * sum(|w|)"),
]
TRAINING += TRAINING_BATCH68
CATALOGUE += TRAINING_BATCH68
#: Blind batch 70 (fifty-sixth session, helper blind56a): Keras losses, metrics (AUC, F-scores, IoU, R2, top-k),
#: optimizers (Nadam, SGD, RMSprop, clipping) and LR schedules, attention, normalization, recurrent, pooling and
#: embedding layers; written from simdist's source before reading the suite. "mainstream" marks a changed line that
#: ordinary programs ran (/work/wt/blind56a_logs/mainstream.py and mainstream2.py under coverage,
#: mainstream_check.py); "subtle" marks the numerically subtle ones.
TRAINING_BATCH70: list[Mutant] = [
    _t("kld-log-difference", "formula", "simdist/keras/losses/probabilistic_losses.py",
       "    return tf.reduce_sum(y_true * tf.math.log(y_true / y_pred), axis=-1)\n",
       "    return tf.reduce_sum(y_true * (tf.math.log(y_true) - tf.math.log(y_pred)), axis=-1)\n",
       "mainstream, subtle: KL divergence as y * (log y - log p) instead of y * log(y / p)"),
    _t("categorical-hinge-margin-dropped", "formula", "simdist/keras/losses/hinge_losses.py",
       "    return tf.maximum(neg - pos + 1.0, tf.zeros([], y_pred.dtype))\n",
       "    return tf.maximum(neg - pos, tf.zeros([], y_pred.dtype))\n",
       "mainstream: categorical hinge without its margin of 1"),
    _t("attention-mask-penalty-small", "boundary", "simdist/keras/layers/dot_attention.py",
       "            max_value = 65504.0 if scores.dtype == tf.float16 else 1.0e9\n",
       "            max_value = 65504.0 if scores.dtype == tf.float16 else 1.0e4\n",
       "Attention's padding penalty of masked keys is 1e4 instead of 1e9 (masked keys keep a little weight)"),
    _t("mha-logits-scaled-before-cast", "order", "simdist/keras/layers/attention.py",
       "        logits = tf.cast(tf.einsum(\"BTNH,BSNH->BNTS\", query, key), logits_dtype)\n        logits = tf.multiply(logits, tf.cast(self._inverse_sqrt_key_dim, logits.dtype))\n",
       "        logits = tf.cast(tf.einsum(\"BTNH,BSNH->BNTS\", tf.multiply(query, tf.cast(self._inverse_sqrt_key_dim, query.dtype)), key), logits_dtype)\n",
       "mainstream, subtle: MultiHeadAttention's fast path scales the query by 1/sqrt(key_dim) before the product "
       "instead of the logits after it"),
    _t("normalization-layer-epsilon-added", "formula", "simdist/keras/layers/normalization_adapt.py",
       "        denom = tf.maximum(tf.sqrt(self.variance), tf.cast(EPSILON, self.variance.dtype))\n",
       "        denom = tf.sqrt(self.variance + tf.cast(EPSILON, self.variance.dtype))\n",
       "mainstream, subtle: the Normalization layer divides by sqrt(var + eps) instead of max(sqrt(var), eps)"),
    _t("cosine-warmup-fraction-reassociated", "formula", "simdist/keras/optimizers/schedules.py",
       "        return total_step_delta * completed_fraction + initial_learning_rate\n",
       "        return total_step_delta * step / warmup_steps + initial_learning_rate\n",
       "mainstream, subtle: CosineDecay's linear warmup as (delta * step) / warmup_steps instead of delta * (step / warmup_steps)"),
    _t("r2-total-by-mean-square", "formula", "simdist/keras/metrics/r2_score.py",
       "        total = ops.convert_to_tensor(self.squared_sum) - total_sum * mean\n",
       "        total = ops.convert_to_tensor(self.squared_sum) - tf.square(total_sum) / ops.convert_to_tensor(self.count)\n",
       "mainstream, subtle: R2Score's total sum of squares as S2 - S^2 / n instead of S2 - S * mean"),
    _t("f-score-beta-squared-once", "formula", "simdist/keras/metrics/f_score_metrics.py",
       "        f_score = mean * (1 + (self.beta ** 2))\n",
       "        f_score = mean * (1 + self.beta)\n",
       "mainstream: F-beta multiplies by 1 + beta instead of 1 + beta^2 (F1 unchanged, F2/F0.5 off)"),
    _t("gru-reset-before-recurrent-bias", "formula", "simdist/keras/layers/rnn_cells.py",
       "            if self.reset_after:\n                recurrent_h = r * matrix_inner[:, u * 2:]\n",
       "            if self.reset_after:\n                recurrent_h = r * (matrix_inner[:, u * 2:] - recurrent_bias[u * 2:]) + recurrent_bias[u * 2:]\n",
       "mainstream: GRU(reset_after=True) applies the reset gate to the recurrent product only, not its bias"),
    _t("nadam-u-product-decay-current-step", "boundary", "simdist/keras/optimizers/nadam.py",
       "        decay = ops.power(0.96, ops.cast(self.iterations + 1, dtype))\n",
       "        decay = ops.power(0.96, ops.cast(self.iterations, dtype))\n",
       "mainstream: Nadam's momentum-schedule product takes 0.96^t of the current iteration instead of the next (off by one step)"),
    _t("auc-soft-labels-not-binarized", "formula", "simdist/keras/metrics/metrics_utils.py",
       "    y_true = ops.cast(ops.cast(y_true, tf.bool), y_true.dtype)\n    if not multi_label:\n        y_true = tf.reshape(y_true, [-1])\n",
       "    if not multi_label:\n        y_true = tf.reshape(y_true, [-1])\n",
       "mainstream: AUC's bucketed confusion counts keep soft labels (0.3) as fractional positives instead of "
       "Keras's cast to bool (any nonzero label is a positive)"),
    _t("auc-true-negatives-from-true-labels", "formula", "simdist/keras/metrics/metrics_utils.py",
       "        v.assign(v + (total_false_labels - fp))\n",
       "        v.assign(v + (total_true_labels - fp))\n",
       "mainstream: the bucketed true negatives subtract the false positives from the positives' total"),
    _t("top-k-target-bound-inclusive", "boundary", "simdist/keras/metrics/accuracy_metrics.py",
       "    valid = tf.logical_and(tf.greater_equal(targets, 0), tf.less(targets, num_classes))\n",
       "    valid = tf.logical_and(tf.greater_equal(targets, 0), tf.less_equal(targets, num_classes))\n",
       "mainstream: in_top_k (SparseTopKCategoricalAccuracy) treats a target equal to num_classes as valid"),
    _t("f-score-precision-no-epsilon", "formula", "simdist/keras/metrics/f_score_metrics.py",
       "        precision = tf.divide(tp, tp + fp + eps)\n",
       "        precision = tf.math.divide_no_nan(tp, tp + fp)\n",
       "mainstream, subtle: F-score's precision as divide_no_nan(tp, tp + fp) instead of tp / (tp + fp + eps)"),
    _t("f-score-threshold-none-abs-dropped", "boundary", "simdist/keras/metrics/f_score_metrics.py",
       "    predicted = tf.logical_and(tf.greater_equal(y_pred, row_max), tf.greater(tf.abs(y_pred), 1e-9))\n",
       "    predicted = tf.logical_and(tf.greater_equal(y_pred, row_max), tf.greater(y_pred, 1e-9))\n",
       "mainstream: F1Score(threshold=None) drops a row's negative maximum (Keras keeps |max| > 1e-9)"),
    _t("iou-valid-by-true-positives", "denominator", "simdist/keras/metrics/iou_metrics.py",
       "        valid = tf.greater(denominator, 1e-9)\n",
       "        valid = tf.greater(true_positives, 1e-9)\n",
       "mainstream: MeanIoU counts only classes with a true positive as present (a present class with IoU 0 left out of the mean)"),
    _t("iou-denominator-tp-twice", "formula", "simdist/keras/metrics/iou_metrics.py",
       "        denominator = sum_over_row + sum_over_col - true_positives\n",
       "        denominator = sum_over_row + sum_over_col\n",
       "mainstream: IoU's union counts the intersection twice"),
    _t("r2-mse-unweighted", "formula", "simdist/keras/metrics/r2_score.py",
       "        self.total_mse.assign(self.total_mse + tf.reduce_sum(tf.pow(y_true - y_pred, 2.0) * sample_weight, axis=0))\n",
       "        self.total_mse.assign(self.total_mse + tf.reduce_sum(tf.pow(y_true - y_pred, 2.0), axis=0))\n",
       "mainstream: R2Score's residual sum ignores the sample weights"),
    _t("focal-mean-as-sum", "formula", "simdist/keras/losses/probabilistic_losses.py",
       "    return ops.mean(focal_bce, axis=axis)\n",
       "    return ops.sum(focal_bce, axis=axis)\n",
       "mainstream: binary focal crossentropy sums over the last axis instead of averaging"),
    _t("log-cosh-log2-exact-in-float64", "dtype", "simdist/keras/losses/regression_losses.py",
       "    log2 = ops.convert_to_tensor(tf.math.log(tf.constant(2.0)), dtype=y_pred.dtype)\n",
       "    log2 = ops.convert_to_tensor(0.6931471805599453, dtype=y_pred.dtype)\n",
       "mainstream, subtle: log_cosh's log(2) written as a constant made exactly in the prediction's dtype instead of "
       "Keras's float32 log(2) cast (float64 losses off in the last bits)"),
    _t("cosine-similarity-loss-sign-dropped", "formula", "simdist/keras/losses/regression_losses.py",
       "    return -tf.reduce_sum(y_true * y_pred, axis=axis)\n",
       "    return tf.reduce_sum(y_true * y_pred, axis=axis)\n",
       "mainstream: the cosine-similarity loss without its minus sign (training would push vectors apart)"),
    _t("sgd-momentum-lr-applied-twice", "formula", "simdist/keras/optimizers/sgd.py",
       "                self.assign_add(variable, m)\n",
       "                self.assign_add(variable, ops.multiply(m, learning_rate))\n",
       "mainstream: plain momentum SGD steps by lr * m (the velocity already holds the learning rate)"),
    _t("rmsprop-momentum-slot-of-first-variable", "state", "simdist/keras/optimizers/rmsprop.py",
       "        momentum = self._momentums[index] if self.momentum > 0 else None\n",
       "        momentum = self._momentums[0] if self.momentum > 0 else None\n",
       "mainstream: RMSprop(momentum>0) reads every variable's momentum from the first variable's slot"),
    _t("clipnorm-zero-counts", "boundary", "simdist/keras/optimizers/base_optimizer.py",
       "        if self.clipnorm and self.clipnorm > 0:\n",
       "        if self.clipnorm is not None and self.clipnorm >= 0:\n",
       "mainstream: clipnorm=0 clips every gradient to zero instead of being off"),
    _t("embedding-table-size-from-output-dim", "boundary", "simdist/keras/layers/core.py",
       "        n = tf.cast(tf.shape(table)[0], inputs.dtype)\n",
       "        n = tf.cast(tf.shape(table)[1], inputs.dtype)\n",
       "mainstream: Embedding's index bound taken from the output dimension instead of the vocabulary size"),
    _t("rnn-go-backwards-forward-order", "order", "simdist/keras/layers/rnn_loop.py",
       "    order = range(steps - 1, -1, -1) if go_backwards else range(steps)\n",
       "    order = range(steps - 1, 0, -1) if go_backwards else range(steps)\n",
       "mainstream: a backwards RNN (Bidirectional's backward layer) stops before step 0"),
    _t("gap1d-half-mean-in-half", "dtype", "simdist/keras/layers/global_pooling1d.py",
       "        compute = ori if ori in (tf.float32, tf.float64) else tf.float32\n",
       "        compute = ori if ori.is_floating else tf.float32\n",
       "mainstream, subtle: GlobalAveragePooling1D averages float16/bfloat16 inputs in their own dtype instead of "
       "Keras's float32 (mixed precision: the last bits of the pooled values)"),
    _t("inverse-time-decay-by-reciprocal", "formula", "simdist/keras/optimizers/schedules.py",
       "        return ops.divide(initial_learning_rate, denom)\n",
       "        return ops.multiply(initial_learning_rate, ops.divide(ops.cast(1, dtype), denom))\n",
       "mainstream, subtle: InverseTimeDecay multiplies the initial rate by 1 / (1 + rate * p) instead of dividing"),
    _t("cosine-decay-angle-reassociated", "formula", "simdist/keras/optimizers/schedules.py",
       "        cosine_decayed = 0.5 * (1.0 + ops.cos(ops.multiply(pi, completed_fraction)))\n",
       "        cosine_decayed = 0.5 * (1.0 + ops.cos(ops.divide(ops.multiply(pi, step), decay_steps)))\n",
       "mainstream, subtle: CosineDecay's angle as (pi * step) / decay_steps instead of pi * (step / decay_steps)"),
    _t("auc-roc-fpr-plain-divide", "denominator", "simdist/keras/metrics/confusion_metrics.py",
       "            x, y = ops.divide_no_nan(fps, fps + tns), recall\n",
       "            x, y = tf.divide(fps, fps + tns), recall\n",
       "mainstream: ROC AUC's false-positive rate by a plain division (a batch without negatives: NaN instead of "
       "Keras's 0 from divide_no_nan)"),
]
TRAINING += TRAINING_BATCH70
CATALOGUE += TRAINING_BATCH70
#: Blind batch 71 (fifty-sixth session, helper blind56b): op kernels and gradients, tf.function's trace dispatch,
#: tf.data, distribution and random ops; written from simdist's source before reading the suite. "mainstream": a
#: changed line an ordinary training program runs (/work/wt/blind56b_logs/prog1-3.py under coverage.py);
#: "subtle": a last-bit or signed-zero difference.
TRAINING_BATCH71: list[Mutant] = [
    # -- op kernels and gradients
    _t("onednn-exp-range-reduction-unfused", "formula", "simdist/runtime/ops/onednn_softmax.py",
       "        r = (xc.astype(np.float64) - fx.astype(np.float64) * np.float64(_LN2F)).astype(_F32)\n",
       "        r = (xc - fx * _LN2F).astype(_F32)\n",
       "mainstream, subtle: oneDNN's float32 exp (its softmax's) reduces x - n·ln2 as a float32 product and a "
       "float32 difference, each rounded, instead of one fused multiply-add: an exp an ulp off here and there"),
    _t("onednn-exp-polynomial-coefficients-reversed", "order", "simdist/runtime/ops/onednn_softmax.py",
       "    for c in (_POL[3], _POL[2], _POL[1], _POL[0], _F32(1)):\n",
       "    for c in (_POL[0], _POL[1], _POL[2], _POL[3], _F32(1)):\n",
       "mainstream: oneDNN's exp polynomial evaluated by Horner with its coefficient table read low to high "
       "instead of high to low: every softmax on an AVX-512 host wrong"),
    _t("onednn-conv-patch-channels-outermost", "order", "simdist/runtime/ops/conv.py",
       "        out = ordered_matmul(cols, f.reshape(kh * kw * fin, cout))\n",
       "        out = ordered_matmul(np.ascontiguousarray(cols.reshape(-1, kh * kw, fin).transpose(0, 2, 1))"
       ".reshape(-1, kh * kw * fin), f.transpose(2, 0, 1, 3).reshape(kh * kw * fin, cout))\n",
       "mainstream, subtle: oneDNN's float32 Conv2D forward sums each output over input channels outermost, then the "
       "window's rows and columns (an NCHW im2col's patch order), instead of rows, columns, then channels: the same "
       "products in another order, an ulp off"),
    _t("sum-tree-split-at-leaf-size", "boundary", "simdist/runtime/ops/sum_order.py",
       "    if n <= lanes * LEAF:\n        return _leaf_plan(rows, n, lanes, dtype)\n",
       "    if n < lanes * LEAF:\n        return _leaf_plan(rows, n, lanes, dtype)\n",
       "mainstream, subtle: Eigen's tree reduction splits a slice of exactly P·kLeafSize elements (8,192 float32) "
       "in two instead of reducing it as one leaf: such a sum an ulp off"),
    _t("generic-reducer-axes-nested-the-other-way", "order", "simdist/runtime/ops/sum_order.py",
       "v.reshape(copies, a, b, c).transpose(0, 3, 1, 2))\n                              .reshape(copies, c * a, b))",
       "v.reshape(copies, a, b, c).transpose(0, 1, 3, 2))\n                              .reshape(copies, c * a, b))",
       "subtle: a sum over axes 0 and 2 of a 3-D tensor (GenericDimReducer) adds with axis 0 outside and axis 2 "
       "inside instead of the other way: an ulp off"),
    _t("onednn-filter-sums-first-thread-floor", "boundary", "simdist/runtime/ops/conv.py",
       "    split = (n + 1) // 2 * per\n",
       "    split = n // 2 * per\n",
       "mainstream, subtle: oneDNN's float32 Conv2D filter gradient gives its first thread floor(n/2) images "
       "instead of balance211's ceil(n/2): an odd batch's filter gradient an ulp off"),
    _t("conv-dilated-window-size", "formula", "simdist/runtime/ops/conv.py",
       "(khw[i] - 1) * dilations[i] + 1, strides[i], padding,",
       "khw[i] * dilations[i], strides[i], padding,",
       "mainstream: a dilated window's extent taken as k·d instead of (k - 1)·d + 1: a dilated convolution's "
       "output one row/column short (VALID) or padded wrong (SAME)"),
    _t("pool-windows-padded-with-zero", "formula", "simdist/runtime/ops/pooling.py",
       "(0, 0), pads[:2], pads[2:], (0, 0)), constant_values=fill) if any(pads) else x",
       "(0, 0), pads[:2], pads[2:], (0, 0))) if any(pads) else x",
       "mainstream: a pool's SAME padding filled with zeros instead of the op's fill (the lowest value for MaxPool): "
       "a max pool of negative values at the border is 0"),
    _t("max-min-zero-tie-packets-swapped", "order", "simdist/runtime/ops/math.py",
       "np.broadcast_to(a, out.shape) if packet is None else np.where(packet, b, a)",
       "np.broadcast_to(a, out.shape) if packet is None else np.where(packet, a, b)",
       "subtle: Maximum/Minimum of tied zeros (-0.0, 0.0) take the first operand in packets and the second in the "
       "scalar tail, the other way round from Eigen's (_mm256_max_ps returns the second)"),
    _t("packet-mask-full-packet-as-tail", "boundary", "simdist/runtime/ops/simd.py",
       "    if not p or n < p:\n",
       "    if not p or n <= p:\n",
       "mainstream, subtle: a tensor of exactly one packet (8 float32) is taken as all scalar tail: its "
       "elementwise ops' packet behaviour (signed zeros of Maximum, sqrt gradients) lost"),
    _t("frexp-float-exponent-bias-127", "boundary", "simdist/runtime/ops/packet_math.py",
       "np.uint32, 23, 0x807FFFFF, 0x3F000000, 255, 126\n",
       "np.uint32, 23, 0x807FFFFF, 0x3F000000, 255, 127\n",
       "mainstream: Eigen's pfrexp of float32 subtracts the IEEE bias 127 instead of 126 (its mantissa is in "
       "[0.5, 1)): every float32 log in packets off by ln 2"),
    _t("pow-float64-numpy-power", "dtype", "simdist/runtime/ops/math.py",
       "    if a.dtype == b.dtype and a.dtype in (np.float32, np.float64):   # Eigen's generic_pow",
       "    if a.dtype == b.dtype and a.dtype == np.float32:   # Eigen's generic_pow",
       "mainstream, subtle: float64 Pow by NumPy's np.power (the C library's pow) instead of Eigen's generic_pow in packets: "
       "an ulp off here and there"),
    _t("half-sum-tail-in-float32", "dtype", "simdist/runtime/ops/sum_order.py",
       "    acc = x[:, 0] + x[:, 1]\n    for j in range(2, x.shape[1]):\n        acc = acc + x[:, j]\n    return acc\n",
       "    acc = x[:, 0].astype(np.float32) + x[:, 1]\n    for j in range(2, x.shape[1]):\n        acc = acc + x[:, j]\n"
       "    return acc.astype(x.dtype)\n",
       "subtle: a float16/bfloat16 sum's scalar tail accumulated in float32 and rounded once instead of rounding "
       "every addition to the half type (Eigen's scalar sum in the type)"),
    _t("conv-input-gradient-dilations-dropped", "gradient", "simdist/runtime/ops/conv.py",
       "(f, grad), dict(a, input_sizes=_shape(x))),",
       "(f, grad), dict(a, input_sizes=_shape(x), dilations=[1, 1, 1, 1])),",
       "mainstream: Conv2D's gradient with respect to its input runs Conv2DBackpropInput without the op's "
       "dilations: a dilated convolution's input gradient wrong"),
    _t("div-no-nan-zero-scalar-denominator-shape", "formula", "simdist/runtime/ops/math.py",
       "            return np.true_divide(a, b) if b != 0 else np.zeros(a.shape, a.dtype)\n",
       "            return np.true_divide(a, b) if b != 0 else np.zeros(b.shape, a.dtype)\n",
       "mainstream: divide_no_nan by a zero scalar returns a zero of the denominator's shape (a scalar) instead of "
       "the numerator's"),
    _t("stateless-dropout-draw-dtype-dropped", "dtype", "simdist/runtime/ops/nn.py",
       "        return random.stateless_uniform(list(shape), seed, dtype=dt, alg=rng_alg)\n",
       "        return random.stateless_uniform(list(shape), seed, alg=rng_alg)\n",
       "mainstream (Keras Dropout draws through it): tf.nn.experimental.stateless_dropout draws its mask's uniforms in float32 whatever x's dtype: a float64 or "
       "float16 input's mask from other words"),
    _t("argmax-default-axis-last", "axis", "simdist/runtime/ops/reductions.py",
       "    if axis is None:\n        return 0\n    if op.name == \"ArgMax\":",
       "    if axis is None:\n        return -1\n    if op.name == \"ArgMax\":",
       "mainstream: tf.math.argmax/argmin with axis=None reduce the last axis instead of axis 0 (TF's default)"),
    _t("half-sum-negative-zero-kept", "boundary", "simdist/runtime/ops/sum_order.py",
       "        if dtype.char not in _PAIRWISE_SAFE:   # a half/complex result",
       "        if dtype.kind == \"c\":   # a half/complex result",
       "mainstream, subtle: a float16/bfloat16 sum of negative zeros keeps -0.0 (Eigen's accumulators start at +0: +0.0)"),
    _t("conv-backprop-input-depth-from-out-channels", "formula", "simdist/runtime/ops/conv.py",
       "        return (int(dy_shape[0]), sizes[0], sizes[1], int(f_shape[2]))\n",
       "        return (int(dy_shape[0]), sizes[0], sizes[1], int(f_shape[3]))\n",
       "Conv2DBackpropInput given two input_sizes takes the input's depth from the filter's output channels "
       "instead of its input channels"),
    _t("onednn-in-order-one-column", "boundary", "simdist/runtime/ops/onednn_matmul.py",
       "and 1 <= x.shape[1] <= 384 and y.shape[1] >= 2\n",
       "and 1 <= x.shape[1] <= 384 and y.shape[1] >= 1\n",
       "mainstream, subtle: a float32 product with one column (a Dense layer of one unit) taken in oneDNN's "
       "in-order fused GEMM instead of its matrix-vector kernel's order: an ulp off"),
    # -- random ops
    _t("uint32-to-float-high-mantissa-bits", "formula", "simdist/runtime/ops/philox_dists.py",
       "(w.astype(np.uint32) & np.uint32(0x7FFFFF))\n",
       "(w.astype(np.uint32) >> np.uint32(9))\n",
       "mainstream: a Philox word made a [0, 1) float from its top 23 bits instead of its low 23 (Uint32ToFloat): "
       "every float32 uniform, normal and dropout mask another draw"),
    _t("philox-round-keys-swapped", "order", "simdist/runtime/ops/philox.py",
       "        c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ np.uint64(k0), p1 & _M32,\n"
       "                          (p0 >> np.uint64(32)) ^ c3 ^ np.uint64(k1), p0 & _M32)\n",
       "        c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ np.uint64(k1), p1 & _M32,\n"
       "                          (p0 >> np.uint64(32)) ^ c3 ^ np.uint64(k0), p0 & _M32)\n",
       "mainstream: the vectorised Philox4x32 round mixes key word 1 into the first output and key word 0 into "
       "the third instead of the other way: every batched draw another stream"),
    _t("philox-block-rounds-seven", "boundary", "simdist/runtime/ops/philox.py",
       "    for _ in range(10):\n        p0 = 0xD2511F53 * c0\n",
       "    for _ in range(7):\n        p0 = 0xD2511F53 * c0\n",
       "mainstream (a shuffled dataset draws through it): the one-block Philox (samplers that draw a block at a time) runs Philox4x32-7's seven rounds instead of "
       "TF's ten"),
    _t("philox-next-counter-by-words", "formula", "simdist/runtime/ops/philox.py",
       "        self.counter = (c + 1) & _M128",
       "        self.counter = (c + 4) & _M128",
       "mainstream (a shuffled dataset draws through it): Philox.next moves its 128-bit counter on by the four words it returned instead of by one block: a "
       "sampler's second and later blocks skip three"),
    _t("seeded-op-seed2-in-low-counter-words", "formula", "simdist/runtime/ops/philox.py",
       "    return Philox((s & _M, s >> 32), s2 << 64)\n",
       "    return Philox((s & _M, s >> 32), s2)\n",
       "mainstream: a stateful random op's generator (GuardedPhiloxRandom) puts seed2 in the counter's low words "
       "instead of its high ones: every seeded tf.random.uniform/normal another stream"),
    # -- tf.data
    _t("repeat-negative-count-no-passes", "boundary", "simdist/runtime/data/counting.py",
       "        if count == 0:\n            return iter(())\n        return Steps(step)\n",
       "        if count <= 0:\n            return iter(())\n        return Steps(step)\n",
       "mainstream: Dataset.repeat() (count -1, forever) treated as no passes, as repeat(0): an empty dataset"),
    _t("interleave-block-count-not-reset", "formula", "simdist/runtime/data/interleave.py",
       "            st[\"taken\"], st[\"cursor\"] = 0, (st[\"cursor\"] + 1) % cycle\n",
       "            st[\"cursor\"] = (st[\"cursor\"] + 1) % cycle\n",
       "interleave moves to the next input without resetting its block count: after the first block each input "
       "is read to its end instead of block_length elements at a time"),
    _t("rebatch-drop-remainder-dropped", "formula", "simdist/runtime/data/rebatch.py",
       "p[\"batch_sizes\"], p[\"drop_remainder\"],",
       "p[\"batch_sizes\"], False,",
       "Dataset.rebatch(..., drop_remainder=True) keeps the last partial batch: the option dropped"),
    # -- tf.function
    _t("covers-list-length-unchecked", "boundary", "simdist/tf/_tracing_count.py",
       "        if kind in (\"list\", \"tuple\") and len(a[1]) == len(b[1]):\n            return all(covers(",
       "        if kind in (\"list\", \"tuple\"):\n            return all(covers(",
       "mainstream (every tf.function call not matched exactly): a trace of a list/tuple argument covers a call with a list of another length (zip stops at the shorter): "
       "a tf.function (reduce_retracing or a relaxed trace) runs a trace built for fewer elements"),
    # -- distribution
    _t("all-reduce-sync-on-read-aggregate", "formula", "simdist/strategies/base.py",
       "    if isinstance(first, DistributedValues) and len(first.values) == len(comps) and all(c is first for c in comps):\n"
       "        return list(first.values)\n",
       "    if isinstance(first, DistributedValues) and len(first.values) == len(comps) and all(c is first for c in comps):\n"
       "        return comps\n",
       "mainstream: a distributed variable every replica passes to all_reduce contributes the variable itself "
       "(a sync-on-read variable's aggregate) instead of each replica's own component"),
]
TRAINING += TRAINING_BATCH71
CATALOGUE += TRAINING_BATCH71
#: Blind batch 72 (fifty-seventh session, helper blind57a): Keras layers (group normalization, upsampling, transposed
#: convolution, spatial dropout, multi-head attention axes, Normalization/StringLookup/TextVectorization adapt), losses
#: (Dice, Tversky, categorical focal, label smoothing), metrics (Pearson, sensitivity/specificity, R2, Mean weights,
#: AUC, IoU), optimizers (Adamax, Lion, FTRL, Nadam) and LR schedules, a monitoring callback and the fit loop
#: (validation_freq, steps_per_epoch); written from simdist's source before reading the suite. "mainstream" marks a
#: changed line that ordinary programs ran (/work/wt/blind57a_logs/mainstream.py, mainstream2.py and mainstream3.py
#: under coverage, mainstream_check.py); "subtle" marks the numerically subtle ones.
TRAINING_BATCH72: list[Mutant] = [
    # -- layers
    _t("group-norm-epsilon-outside-sqrt", "formula", "simdist/keras/layers/group_normalization.py",
       "        inv = tf.math.rsqrt(variance + self.epsilon)   # the Python float converted to float64 exactly (Keras)\n",
       "        inv = tf.math.reciprocal(tf.sqrt(variance) + self.epsilon)   # the Python float converted to float64 exactly (Keras)\n",
       "mainstream, subtle: GroupNormalization scales by 1 / (sqrt(var) + eps) instead of rsqrt(var + eps)"),
    _t("upsampling2d-width-uses-height-factor", "axis", "simdist/keras/layers/upsampling_padding.py",
       "            x = tf.repeat(x, self.size[1], axis=2)\n",
       "            x = tf.repeat(x, self.size[0], axis=2)\n",
       "mainstream: UpSampling2D (nearest) repeats the width by the height's factor (a copy-paste slip; square sizes hide it)"),
    _t("conv-transpose-dilated-extent-k-times-d", "formula", "simdist/keras/layers/conv_transpose.py",
       "    kernel_size = (kernel_size - 1) * dilation_rate + 1\n",
       "    kernel_size = kernel_size * dilation_rate\n",
       "mainstream: a transposed convolution's output size takes a dilated kernel's extent as k * d instead of (k - 1) * d + 1"),
    _t("spatial-dropout-one-mask-per-batch", "axis", "simdist/keras/layers/spatial_dropout.py",
       "        return [shape[0]] + [1] * self.rank + [shape[-1]]\n",
       "        return [1] + [1] * self.rank + [shape[-1]]\n",
       "mainstream: SpatialDropout's noise shape drops the batch axis (one channel mask shared by every sample)"),
    _t("mha-softmax-last-axis-only", "axis", "simdist/keras/layers/attention.py",
       "        norm_axes = tuple(range(scores_rank - len(self._attention_axes), scores_rank))\n",
       "        norm_axes = (scores_rank - 1,)\n",
       "mainstream: MultiHeadAttention normalizes its scores over the last key axis only, not over every attention axis "
       "(attention_axes with two or more axes)"),
    _t("normalization-adapt-mean-in-float64", "dtype", "simdist/keras/layers/normalization_adapt.py",
       "            total_mean: Any = np.mean(data, axis=self._reduce_axis)\n",
       "            total_mean: Any = np.mean(data, axis=self._reduce_axis, dtype=\"float64\")\n",
       "mainstream, subtle: Normalization.adapt of a NumPy array accumulates the mean in float64 (NumPy's float32 "
       "pairwise mean in Keras), so the adapted mean differs in the last bit"),
    _t("index-lookup-ties-by-table-order", "order", "simdist/keras/layers/index_lookup.py",
       "        sorted_indices = np.lexsort((tokens.numpy(), counts.numpy()))[::-1]\n",
       "        sorted_indices = np.argsort(counts.numpy(), kind=\"stable\")[::-1]\n",
       "mainstream: StringLookup/IntegerLookup/TextVectorization adapt orders tokens of equal count by the hash "
       "table's order instead of by the token (descending)"),
    _t("text-vectorization-strip-keeps-apostrophe", "formula", "simdist/keras/layers/text_vectorization.py",
       "DEFAULT_STRIP_REGEX = r'[!\"#$%&()\\*\\+,-\\./:;<=>?@\\[\\\\\\]^_`{|}~\\']'\n",
       "DEFAULT_STRIP_REGEX = r'[!\"#$%&()\\*\\+,-\\./:;<=>?@\\[\\\\\\]^_`{|}~]'\n",
       "mainstream: TextVectorization's default standardization keeps apostrophes (the strip set lost its last member)"),
    # -- losses
    _t("dice-numerator-factor-two-dropped", "formula", "simdist/keras/losses/overlap_losses.py",
       "    return 1 - ops.divide(2.0 * intersection, denominator)\n",
       "    return 1 - ops.divide(intersection, denominator)\n",
       "mainstream: the Dice loss drops the 2 of 2|A∩B| / (|A| + |B|)"),
    _t("tversky-alpha-beta-swapped", "formula", "simdist/keras/losses/overlap_losses.py",
       "    return 1 - ops.divide(intersection, intersection + fp * alpha + fn * beta + config.epsilon())\n",
       "    return 1 - ops.divide(intersection, intersection + fp * beta + fn * alpha + config.epsilon())\n",
       "mainstream: the Tversky loss weighs the missed positives by beta and the false alarms by alpha "
       "(alpha = beta by default hides it)"),
    _t("categorical-focal-not-renormalized", "formula", "simdist/keras/losses/probabilistic_losses.py",
       "    output = y_pred / tf.reduce_sum(y_pred, axis=axis, keepdims=True)\n",
       "    output = y_pred\n",
       "mainstream: CategoricalFocalCrossentropy skips normalizing the probabilities to sum 1"),
    _t("cce-smoothing-classes-from-batch-axis", "axis", "simdist/keras/losses/losses.py",
       "        num_classes = ops.cast(ops.shape(y_true)[-1], y_pred.dtype)\n",
       "        num_classes = ops.cast(ops.shape(y_true)[0], y_pred.dtype)\n",
       "mainstream: categorical crossentropy's label smoothing divides by the batch size instead of the class count"),
    # -- metrics
    _t("pearson-true-mean-over-all-axes", "axis", "simdist/keras/metrics/correlation_metrics.py",
       "    t = y_true - ops.mean(y_true, axis=axis, keepdims=True)\n",
       "    t = y_true - ops.mean(y_true)\n",
       "mainstream: PearsonCorrelation centres y_true by its mean over the whole batch instead of along `axis`"),
    _t("sensitivity-recall-over-predicted-positives", "denominator", "simdist/keras/metrics/sensitivity_specificity.py",
       "        recall = ops.divide_no_nan(tp, tf.add(tp, fn))\n",
       "        recall = ops.divide_no_nan(tp, tf.add(tp, fp))\n",
       "mainstream: the sensitivity/recall of SensitivityAtSpecificity, PrecisionAtRecall, ... divides by tp + fp "
       "(precision's denominator)"),
    _t("r2-mean-by-reciprocal-count", "formula", "simdist/keras/metrics/r2_score.py",
       "        mean = total_sum / ops.convert_to_tensor(self.count)\n",
       "        mean = total_sum * (1.0 / ops.convert_to_tensor(self.count))\n",
       "mainstream, subtle: R2Score's mean as the sum times the count's reciprocal instead of a division"),
    _t("samplewise-weights-rank-two-not-reduced", "boundary", "simdist/keras/metrics/reduction_metrics.py",
       "        if weight_ndim > 1:\n",
       "        if weight_ndim > 2:\n",
       "mainstream: Mean/MeanMetricWrapper with per-timestep (rank-2) sample weights keeps them unreduced, so the "
       "count sums every weight instead of each sample's mean weight"),
    _t("pr-auc-intercept-from-left-end", "formula", "simdist/keras/metrics/confusion_metrics.py",
       "        intercept = tps[1:] - prec_slope * p[1:]\n",
       "        intercept = tps[: n - 1] - prec_slope * p[: n - 1]\n",
       "mainstream, subtle: the interpolated PR AUC's intercept from the segment's left end instead of its right "
       "(equal in exact arithmetic, other roundings)"),
    _t("adamax-momentum-weight-swapped", "formula", "simdist/keras/optimizers/adamax.py",
       "        self.assign_add(m, ops.multiply(ops.subtract(gradient, m), (1 - self.beta_1)))\n",
       "        self.assign_add(m, ops.multiply(ops.subtract(gradient, m), self.beta_1))\n",
       "mainstream: Adamax's first moment moves by beta_1 * (g - m) instead of (1 - beta_1) * (g - m)"),
    _t("lion-beta2-reads-beta1", "formula", "simdist/keras/optimizers/lion.py",
       "        beta_2 = ops.cast(self.beta_2, variable.dtype)\n",
       "        beta_2 = ops.cast(self.beta_1, variable.dtype)\n",
       "mainstream: Lion's momentum update decays by beta_1 (a copy-paste slip) instead of beta_2"),
    _t("ftrl-update-sign-flipped", "formula", "simdist/keras/optimizers/ftrl.py",
       "        self.assign(variable, ops.divide(ops.subtract(linear_clipped, linear), quadratic))\n",
       "        self.assign(variable, ops.divide(ops.subtract(linear, linear_clipped), quadratic))\n",
       "mainstream: FTRL's closed-form weight (clip(z) - z) / q with the subtraction reversed"),
    _t("nadam-mu-t-distributed", "formula", "simdist/keras/optimizers/nadam.py",
       "        u_t = beta_1 * (1.0 - 0.5 * ops.power(decay, local_step))\n",
       "        u_t = beta_1 - 0.5 * beta_1 * ops.power(decay, local_step)\n",
       "mainstream, subtle: Nadam's mu_t as beta_1 - 0.5 * beta_1 * 0.96^t instead of beta_1 * (1 - 0.5 * 0.96^t)"),
    _t("polynomial-decay-fraction-by-reciprocal", "formula", "simdist/keras/optimizers/schedules.py",
       "        p = ops.divide(global_step_recomp, decay_steps_recomp)\n",
       "        p = ops.multiply(global_step_recomp, 1.0 / decay_steps_recomp)\n",
       "mainstream, subtle: PolynomialDecay's fraction step / decay_steps as a product with the reciprocal"),
    # -- callbacks and the fit loop
    _t("monitor-max-mode-ties-improve", "boundary", "simdist/keras/callbacks/monitor_callback.py",
       "        elif self.mode == \"max\":\n            self.monitor_op = ops.greater\n",
       "        elif self.mode == \"max\":\n            self.monitor_op = ops.greater_equal\n",
       "mainstream: a monitoring callback in mode='max' (EarlyStopping, ModelCheckpoint, ReduceLROnPlateau) counts "
       "an equal value as an improvement"),
    _t("validation-freq-counts-from-first-epoch", "boundary", "simdist/keras/trainers/trainer.py",
       "            return epoch % validation_freq == 0\n",
       "            return (epoch - 1) % validation_freq == 0\n",
       "mainstream: fit(validation_freq=n) validates at epochs 1, n + 1, ... instead of n, 2n, ..."),
    _t("iou-epsilon-dropped", "denominator", "simdist/keras/metrics/iou_metrics.py",
       "        iou = tf.divide(true_positives, denominator + config.epsilon())\n",
       "        iou = tf.math.divide_no_nan(true_positives, denominator)\n",
       "mainstream, subtle: the IoU metrics divide the true positives by the union without Keras's epsilon"),
    _t("cosine-warmup-fraction-by-reciprocal", "formula", "simdist/keras/optimizers/schedules.py",
       "        completed_fraction = step / warmup_steps\n",
       "        completed_fraction = step * (1.0 / warmup_steps)\n",
       "mainstream, subtle: CosineDecay's warmup fraction as step times the reciprocal of warmup_steps"),
    _t("r2-num-samples-counts-rows", "denominator", "simdist/keras/metrics/r2_score.py",
       "        size = tf.cast(tf.size(y_true), self.num_samples.dtype)\n",
       "        size = tf.cast(tf.shape(y_true)[0], self.num_samples.dtype)\n",
       "mainstream: R2Score counts rows instead of elements for the adjusted score's sample count (multi-output)"),
    _t("normalization-adapt-batches-incremental-mean", "formula", "simdist/keras/layers/normalization_adapt.py",
       "            new_total_mean = total_mean * existing_weight + batch_mean * batch_weight\n",
       "            new_total_mean = total_mean + (batch_mean - total_mean) * batch_weight\n",
       "subtle: Normalization.adapt over batches (a Dataset) updates the running mean incrementally, "
       "m + (b - m) * w, instead of Keras's weighted sum m * (1 - w) + b * w"),
    _t("nadam-v-hat-by-reciprocal", "formula", "simdist/keras/optimizers/nadam.py",
       "        v_hat = ops.divide(v, (1 - beta_2_power))\n",
       "        v_hat = ops.multiply(v, 1.0 / (1 - beta_2_power))\n",
       "mainstream, subtle: Nadam's corrected second moment as v times the reciprocal of 1 - beta_2^t"),
    _t("reduce-lr-wait-kept-on-improvement", "state", "simdist/keras/callbacks/reduce_lr_on_plateau.py",
       "            self.best = current\n            self.wait = 0\n",
       "            self.best = current\n",
       "mainstream: ReduceLROnPlateau keeps its wait count through an improvement, so the rate drops after patience "
       "non-improving epochs in total instead of in a row"),
]
TRAINING += TRAINING_BATCH72
CATALOGUE += TRAINING_BATCH72


#: Blind batch 73 (fifty-seventh session, helper blind57b): op kernels and gradients, the tape, tf.function's trace
#: dispatch, tf.data, distribution, random ops and checkpoints; written from simdist's source before reading the
#: suite. "mainstream": a changed line an ordinary training program runs (/work/wt/blind57b_logs/prog1-3.py under
#: coverage.py); "subtle": a last-bit or signed-zero difference.
TRAINING_BATCH73: list[Mutant] = [
    # -- op kernels and gradients
    _t("unsorted-segment-shape-one-id-dim", "formula", "simdist/runtime/ops/scatter.py",
       "    shape = (rows,) + tuple(dshape[len(ishape):])\n",
       "    shape = (rows,) + tuple(dshape[1:])\n",
       "mainstream: an unsorted segment op's output shape drops one leading dimension of data whatever the rank of "
       "segment_ids: segment ids of rank 2 give an output with an extra dimension"),
    _t("range-dtype-of-start", "dtype", "simdist/runtime/ops/array.py",
       "        dt = max(kinds, key=order.index)\n",
       "        dt = kinds[0]\n",
       "mainstream: tf.range's inferred dtype taken from its start instead of the widest of start, limit and delta: "
       "range(0, 2.5) an int32 range"),
    _t("range-float-numpy-arange", "formula", "simdist/runtime/ops/array.py",
       "            out = _made((tt(s) + np.arange(n).astype(dt.np) * tt(d)).astype(dt.np), dt)\n",
       "            out = _made(np.arange(s, lim, d, dtype=dt.np), dt)\n",
       "subtle: a floating tf.range by NumPy's arange (its float64 start and step, filled by repeated addition) "
       "instead of RangeFunctor's start + T(i) * delta in T: a last-bit difference along a fractional range"),
    _t("reduce-one-each-counts-every-element", "boundary", "simdist/runtime/ops/math.py",
       "    n = v.size if axis is None else _count([v.shape[a] for a in axis])\n    if n != 1:\n        return None\n"
       "    if keepdims:\n",
       "    n = v.size\n    if n != 1:\n        return None\n    if keepdims:\n",
       "mainstream, subtle: the copy TF makes of a reduction over one element per output taken only when the "
       "whole tensor has one element: reduce_sum over an axis of length 1 adds to +0.0, so a -0.0 comes back 0.0"),
    _t("neg-grad-sign-dropped", "gradient", "simdist/runtime/ops/unary.py",
       "    return [-grad]\n",
       "    return [grad]\n",
       "mainstream: Neg's gradient passes the incoming gradient through unnegated"),
    _t("rsqrt-grad-of-input", "gradient", "simdist/runtime/ops/unary.py",
       "    return [rsqrt_grad(op.outputs[0], grad)]\n",
       "    return [rsqrt_grad(op.inputs[0], grad)]\n",
       "mainstream: Rsqrt's gradient (RsqrtGrad(y, dy) = -0.5 dy y^3) evaluated at the input x instead of the "
       "output y = 1/sqrt(x)"),
    _t("lazy-transposed-threshold-inclusive", "boundary", "simdist/runtime/ops/contraction_order.py",
       "    if m + k + n >= 20:\n",
       "    if m + k + n > 20:\n",
       "mainstream, subtle: Eigen's coefficient-based product of a transposed operand taken also at m + k + n = 20, "
       "where EIGEN_GEMM_TO_COEFFBASED_THRESHOLD sends it to GEMM: a batched float64 product an ulp off"),
    _t("rcp-estimate-top-binade-kept", "boundary", "simdist/runtime/ops/rcp.py",
       "    out = np.where(rexp <= 0, (sign).view(_F), out)\n",
       "    out = np.where(rexp < 0, (sign).view(_F), out)\n",
       "mainstream: vrcpps of a float32 in [2^126, 2^127) (whose reciprocal is subnormal) kept as a reciprocal "
       "with a zero exponent field instead of the flushed ±0: reciprocal of such values in packets"),
    _t("rsqrt-estimate-inf-not-zero", "boundary", "simdist/runtime/ops/rcp.py",
       "    out = np.where(a == np.inf, _F(0), out)\n",
       "",
       "mainstream: vrsqrtps of +inf not special-cased to 0: rsqrt(inf) in packets from the table's value"),
    _t("onednn-half-softmax-in-half", "dtype", "simdist/runtime/ops/activations.py",
       "        return _softmax(a.astype(np.float32)).astype(a.dtype)   # oneDNN: computes in float32, rounds once\n",
       "        return _eigen_half_softmax(a, log=False)   # oneDNN: computes in float32, rounds once\n",
       "subtle: a float16 softmax on a oneDNN host computed by Eigen's half kernel (each step rounded to float16) "
       "instead of oneDNN's float32 computation rounded once"),
    _t("addn-later-groups-one-by-one", "order", "simdist/runtime/ops/sum_chain.py",
       "            np.add(out, _chain(arrays, lo, hi), out=out)\n",
       "            for a in arrays[lo:hi]:\n                np.add(out, a, out=out)\n",
       "subtle: AddN's later groups of eight (Add8p: out += in1 + ... + in8) added one input at a time into the "
       "running sum instead of as their own chain first: an add_n of 10+ inputs an ulp off"),
    _t("gelu-exact-divides-by-sqrt2", "formula", "simdist/runtime/ops/activations.py",
       "    return 0.5 * x * erfc(-x * math.cast(0.7071067811865476, x.dtype))\n",
       "    return 0.5 * x * erfc(-x / math.cast(1.4142135623730951, x.dtype))\n",
       "subtle: exact gelu's erfc argument as x divided by sqrt(2) instead of TF's product by 1/sqrt(2) (0.7071...): "
       "the argument, and so some values, an ulp off"),
    _t("max-pool-explicit-paddings-dropped", "formula", "simdist/runtime/ops/pooling.py",
       "        attrs[\"explicit_paddings\"] = explicit\n",
       "        attrs[\"explicit_paddings\"] = []\n",
       "mainstream: max_pool2d's explicit paddings dropped from the op's attributes"),
    _t("gelu-approximate-cube-by-products", "formula", "simdist/runtime/ops/activations.py",
       "        inner = 0.7978845608028654 * (x + coeff * math.pow_(x, 3))\n",
       "        inner = 0.7978845608028654 * (x + coeff * (x * x * x))\n",
       "subtle: the tanh approximation of gelu takes x³ as two rounded products instead of TF's Pow(x, 3): its "
       "values an ulp off here and there"),
    _t("tanh-float64-numpy", "dtype", "simdist/runtime/ops/packet_tanh.py",
       "            return tanh_float64(a)\n",
       "            return np.tanh(a)\n",
       "subtle: float64 Tanh by NumPy's tanh instead of Eigen's ptanh_double in packets and the C library's tail: an "
       "ulp off here and there"),
    _t("log-float64-numpy", "dtype", "simdist/runtime/ops/packet_math.py",
       "        return packets_then_tail(a, plog_double, \"log\")\n",
       "        return np.log(a)\n",
       "subtle: float64 Log by NumPy's log instead of Eigen's plog_double in packets and the C library's log on the "
       "tail: an ulp off here and there"),
    _t("rsqrt-estimate-zero-not-inf", "boundary", "simdist/runtime/ops/rcp.py",
       "    out = np.where(d == -127, (sign | np.uint32(0x7F800000)).view(_F), out)   # zeros and subnormals\n",
       "",
       "mainstream: vrsqrtps of ±0 and subnormals not special-cased to ±inf: rsqrt(0) in packets from the table"),
    _t("pool-strides-from-ksize", "formula", "simdist/runtime/ops/pooling.py",
       "\"strides\": spatial_sequence(strides, 2, \"strides\"),",
       "\"strides\": spatial_sequence(ksize, 2, \"strides\"),",
       "mainstream: a 2-D pool's strides attribute built from its ksize argument (a copy-paste slip): a pool with "
       "strides other than its window's sizes comes out strided by the window"),
    _t("cast-truncate-dropped", "formula", "simdist/runtime/ops/math.py",
       "return dispatch.execute(CAST, (t,), {\"DstT\": dt, \"Truncate\": True} if truncate else {\"DstT\": dt})",
       "return dispatch.execute(CAST, (t,), {\"DstT\": dt})",
       "mainstream, subtle: Cast's Truncate attribute dropped: a truncating cast to a narrower float rounds to "
       "nearest instead of zeroing the low bits, a last-bit difference"),
    # -- random ops
    _t("philox-groups-skip-from-one", "boundary", "simdist/runtime/ops/philox_dists.py",
       "    return philox.blocks(gen, np.arange(groups, dtype=np.int64), 1)[:, 0, :].astype(np.uint32)\n",
       "    return philox.blocks(gen, np.arange(1, groups + 1, dtype=np.int64), 1)[:, 0, :].astype(np.uint32)\n",
       "mainstream: FillPhiloxRandom's group g skipped by g + 1 outputs instead of g: every draw shifted by a block"),
    _t("philox-blocks-carry-dropped", "formula", "simdist/runtime/ops/philox.py",
       "        carry = (lo < off).astype(np.uint64)\n",
       "        carry = np.zeros_like(lo)\n",
       "mainstream: the vectorised Philox counter's low 64 bits wrap without carrying into the high half: a "
       "Generator whose counter reaches 2^64 repeats its early blocks"),
    # -- tf.data
    _t("map-batch-fusion-default-off", "formula", "simdist/runtime/data/batching.py",
       "    return opts is None or opts.experimental_optimization.map_and_batch_fusion is not False\n",
       "    return opts is not None and opts.experimental_optimization.map_and_batch_fusion is True\n",
       "mainstream: map_and_batch_fusion's default (None: on) read as off: a map then a batch not fused, so a failing "
       "element under ignore_errors loses itself instead of its whole batch"),
    _t("rebatch-static-dim-ignores-drop-remainder", "formula", "simdist/runtime/data/rebatch.py",
       "            new_dim = rebatch_v2_static_dim(batch_sizes, dims, drop_remainder)\n",
       "            new_dim = rebatch_v2_static_dim(batch_sizes, dims, False)\n",
       "mainstream: rebatch's element spec computed as if drop_remainder were False: a static batch dimension lost"),
    _t("flat-map-cardinality-of-input", "formula", "simdist/runtime/data/map_filter.py",
       "        return expand(inp._iter_flat, handle)\n\n    def _card(self) -> int:\n        return UNKNOWN_CARDINALITY\n",
       "        return expand(inp._iter_flat, handle)\n\n    def _card(self) -> int:\n        return self._input._card()\n",
       "mainstream: a flat_map's cardinality taken as its input's instead of unknown"),
    # -- tf.function
    _t("relaxed-key-against-first-trace-only", "order", "simdist/tf/_tracing_count.py",
       "            if relaxed is not None:\n                key = relaxed\n",
       "            if relaxed is not None:\n                key = relaxed\n                break\n",
       "reduce_retracing relaxes a new trace's key against the first earlier trace it has a supertype with instead "
       "of every earlier trace in turn: a later call traces again where TF's relaxed trace covers it"),
    _t("call-supertype-partial", "formula", "simdist/tf/_tracing_count.py",
       "    if any(v is None for v in items):\n",
       "    if all(v is None for v in items):\n",
       "mainstream: two call keys' common supertype made when only some parameters have one (the others left None) "
       "instead of none at all"),
    # -- the tape
    _t("grad-scope-without-name-scope", "formula", "simdist/runtime/autodiff/tape.py",
       "            self.grad_scope = f\"gradient_tape/{scope}/\" if scope else \"gradient_tape/\"\n",
       "            self.grad_scope = \"gradient_tape/\"\n",
       "mainstream: a traced gradient's ops named under gradient_tape/ alone instead of gradient_tape/<the forward "
       "op's name scope>/"),
    # -- distribution
    _t("static-mean-count-last-replica", "formula", "simdist/strategies/base.py",
       "        n += int(np.prod([dims[a] for a in axes], dtype=np.int64))\n",
       "        n = int(np.prod([dims[a] for a in axes], dtype=np.int64))\n",
       "a traced strategy.reduce(MEAN, axis=...) divides by one replica's element count instead of all replicas'"),
    _t("mean-aggregation-refuses-integers-only", "boundary", "simdist/strategies/dist_variables.py",
       "    if aggregation == VariableAggregation.MEAN and not components[0].dtype.is_floating:\n",
       "    if aggregation == VariableAggregation.MEAN and components[0].dtype.is_integer:\n",
       "mainstream: a distributed variable with MEAN aggregation refused only for integer dtypes: a bool or complex "
       "one is created where TF 2.21 raises ValueError"),
    # -- checkpoints
    _t("checkpoint-dir-names-state-file", "formula", "simdist/strategies/checkpoint_reader.py",
       "        return _ckpt.latest_checkpoint(ckpt_dir_or_file)\n",
       "        return os.path.join(ckpt_dir_or_file, \"checkpoint\")\n",
       "a checkpoint directory given to load_checkpoint/list_variables read as its state file ('checkpoint') "
       "instead of the latest checkpoint that file names"),
]
TRAINING += TRAINING_BATCH73
CATALOGUE += TRAINING_BATCH73


# Batch 74 (blind58a, session 58): 30 training-layer mutants written blind from simdist's Keras source (layers,
# preprocessing, losses, metrics, optimizers and schedules, the fit loop's class weights, keras.utils, mixed
# precision), on lines no earlier mutant spans; see docs/conformance.md, "a seventy-fourth blind batch".
TRAINING_BATCH74: list[Mutant] = [
    # -- layers
    _t("bidirectional-concat-backward-first", "order", "simdist/keras/layers/bidirectional.py",
       "            output: Any = tf.concat([y, y_rev], axis=-1)\n",
       "            output: Any = tf.concat([y_rev, y], axis=-1)\n",
       "mainstream: Bidirectional's concat merge puts the backward layer's output before the forward one's"),
    _t("dot-attention-softmax-over-queries", "axis", "simdist/keras/layers/dot_attention.py",
       "        weights = tf.nn.softmax(scores, axis=-1)\n",
       "        weights = tf.nn.softmax(scores, axis=-2)\n",
       "mainstream: Attention/AdditiveAttention normalize their scores over the query axis instead of the key axis"),
    _t("group-norm-centred-before-scaling", "formula", "simdist/keras/layers/group_normalization.py",
       "        res = -mean * inv\n        if self.center:\n"
       "            res = res + tf.cast(tf.reshape(self.beta, broadcast), compute)\n"
       "        normalized = reshaped * inv + res\n",
       "        normalized = (reshaped - mean) * inv\n        if self.center:\n"
       "            normalized = normalized + tf.cast(tf.reshape(self.beta, broadcast), compute)\n",
       "mainstream, subtle: GroupNormalization computes (x - mean) * inv + beta instead of x * inv + "
       "(beta - mean * inv)"),
    _t("normalization-layer-multiplies-by-reciprocal", "formula", "simdist/keras/layers/normalization_adapt.py",
       "        return tf.divide(tf.subtract(inputs, self.mean), denom)\n",
       "        return tf.multiply(tf.subtract(inputs, self.mean), tf.math.reciprocal(denom))\n",
       "mainstream, subtle: the Normalization layer multiplies by 1 / std instead of dividing by std"),
    _t("conv-same-output-size-floored", "boundary", "simdist/keras/layers/argument_validation.py",
       "    elif padding in (\"same\", \"causal\"):\n        out = np.floor((spatial - 1) / strides) + 1\n",
       "    elif padding in (\"same\", \"causal\"):\n        out = np.floor(spatial / strides)\n",
       "mainstream: a strided 'same' convolution's static output size as floor(n / s) instead of ceil(n / s): one "
       "short when the stride does not divide the size"),
    _t("discretization-summary-step-by-epsilon", "formula", "simdist/keras/layers/discretization.py",
       "    step = max(np.size(values) / (1.0 / epsilon), 1)\n",
       "    step = max(np.size(values) * epsilon, 1)\n",
       "mainstream, subtle: Discretization.adapt's summary step as n * epsilon instead of n / (1 / epsilon): a "
       "last-bit different weight, boundaries interpolated an ulp off"),
    _t("tf-idf-oov-weight-zero", "formula", "simdist/keras/layers/index_lookup.py",
       "                                 constant_values=tf.reduce_mean(idf_weights))\n",
       "                                 constant_values=0.0)\n",
       "mainstream: a tf_idf lookup's OOV token gets idf weight 0 instead of the mean of the vocabulary's weights"),
    # -- losses
    _t("log-cosh-difference-reversed", "order", "simdist/keras/losses/regression_losses.py",
       "    x = y_pred - y_true\n",
       "    x = y_true - y_pred\n",
       "mainstream, subtle: LogCosh's error as y_true - y_pred: log(cosh(x)) is even, but x + softplus(-2x) - log 2 "
       "is not bit-symmetric"),
    # -- metrics
    _t("fbeta-false-positives-count-misses", "formula", "simdist/keras/metrics/f_score_metrics.py",
       "        self.false_positives.assign(self.false_positives + weighted_sum(y_pred * (1 - y_true)))\n",
       "        self.false_positives.assign(self.false_positives + weighted_sum((1 - y_pred) * y_true))\n",
       "mainstream: FBetaScore/F1Score count missed positives as false positives (a copy of the false-negative line)"),
    # -- optimizers and schedules
    _t("cosine-restarts-fraction-by-reciprocal", "formula", "simdist/keras/optimizers/schedules.py",
       "        completed_fraction = ops.cast(step, dtype) / first_decay_steps\n",
       "        completed_fraction = ops.cast(step, dtype) * (1.0 / first_decay_steps)\n",
       "mainstream, subtle: CosineDecayRestarts's completed fraction by the reciprocal of first_decay_steps"),
    _t("cosine-restarts-m-mul-one-period-early", "boundary", "simdist/keras/optimizers/schedules.py",
       "        m_fac = ops.power(m_mul, i_restart)\n",
       "        m_fac = ops.power(m_mul, i_restart + 1)\n",
       "mainstream: CosineDecayRestarts scales the first period by m_mul already (m_mul ** (i + 1))"),
    # -- utilities and data
    _t("pad-sequences-value-ignored", "formula", "simdist/keras/utils/sequence_utils.py",
       "    x = np.full((num_samples, maxlen) + sample_shape, value, dtype=dtype)\n",
       "    x = np.zeros((num_samples, maxlen) + sample_shape, dtype=dtype)\n",
       "mainstream: pad_sequences pads with zeros whatever `value` says"),
    _t("to-categorical-float32", "dtype", "simdist/keras/utils/numerical_utils.py",
       "    categorical = np.zeros((x.shape[0], num_classes))\n",
       "    categorical = np.zeros((x.shape[0], num_classes), dtype=\"float32\")\n",
       "mainstream: to_categorical returns float32 one-hot rows instead of NumPy's float64"),
    _t("timeseries-window-ignores-sampling-rate", "formula", "simdist/keras/utils/timeseries.py",
       "        lambda i, positions: tf.range(positions[i], positions[i] + length * rate, rate),\n",
       "        lambda i, positions: tf.range(positions[i], positions[i] + length, rate),\n",
       "mainstream: timeseries_dataset_from_array's window spans sequence_length steps instead of sequence_length "
       "samples: with sampling_rate > 1 the windows are short"),
    _t("normalize-numpy-order-ignored", "formula", "simdist/keras/utils/numerical_utils.py",
       "        norm = np.atleast_1d(np.linalg.norm(x, order, axis))\n",
       "        norm = np.atleast_1d(np.linalg.norm(x, 2, axis))\n",
       "mainstream: keras.utils.normalize of a NumPy array always by the L2 norm, whatever `order`"),
    # -- optimizers, schedules, preprocessing, losses, metrics, fit, mixed precision, utilities (second pass)
    _t("nadam-next-step-off-by-one", "boundary", "simdist/keras/optimizers/nadam.py",
       "        next_step = ops.cast(self.iterations + 2, var_dtype)\n",
       "        next_step = ops.cast(self.iterations + 1, var_dtype)\n",
       "mainstream, subtle: Nadam's next momentum factor mu_(t+1) computed at step t (iterations + 1), not t + 1"),
    _t("cosine-warmup-boundary-inclusive", "boundary", "simdist/keras/optimizers/schedules.py",
       "        return tf.cond(global_step_recomp < warmup_steps,\n",
       "        return tf.cond(global_step_recomp <= warmup_steps,\n",
       "mainstream, subtle: CosineDecay with warmup takes the warmup formula at step == warmup_steps too (its end "
       "value computed as initial + (target - initial) * 1, not the decay's target * 1)"),
    _t("fbeta-threshold-inclusive", "boundary", "simdist/keras/metrics/f_score_metrics.py",
       "            predicted = tf.greater(y_pred, self.threshold)\n",
       "            predicted = tf.greater_equal(y_pred, self.threshold)\n",
       "mainstream: FBetaScore/F1Score with a threshold count a prediction equal to the threshold as positive"),
    _t("class-weight-missing-class-zero", "formula", "simdist/keras/trainers/data_adapter.py",
       "        sample_weight[i] = class_weight.get(int(y_numpy[i]), 1.0)\n",
       "        sample_weight[i] = class_weight.get(int(y_numpy[i]), 0.0)\n",
       "mainstream: fit's class_weight gives weight 0 to classes the dict omits instead of 1"),
    _t("categorical-hinge-pos-by-max", "formula", "simdist/keras/losses/hinge_losses.py",
       "    pos = tf.reduce_sum(y_true * y_pred, axis=-1)\n",
       "    pos = tf.reduce_max(y_true * y_pred, axis=-1)\n",
       "mainstream: CategoricalHinge's positive term as the max of y_true * y_pred (a copy of the negative term's "
       "reduction): 0 instead of a negative true-class score, and wrong for soft labels"),
    _t("norm-layers-compute-in-input-dtype", "dtype", "simdist/keras/layers/normalization.py",
       "    return tf.as_dtype(dtype_promotion.result_type(dtype, \"float32\"))\n",
       "    return tf.as_dtype(dtype)\n",
       "mainstream: under mixed precision BatchNormalization/LayerNormalization compute their statistics in float16 "
       "instead of promoting to float32"),
    _t("conv-transpose-same-size-one-short", "boundary", "simdist/keras/layers/conv_transpose.py",
       "        return input_size * stride\n",
       "        return (input_size - 1) * stride + 1\n",
       "mainstream: a 'same' transposed convolution's output size as (n - 1) * s + 1 instead of n * s"),
    _t("text-vectorization-strip-to-space", "formula", "simdist/keras/layers/text_vectorization.py",
       "            inputs = tf.strings.regex_replace(inputs, DEFAULT_STRIP_REGEX, \"\")\n",
       "            inputs = tf.strings.regex_replace(inputs, DEFAULT_STRIP_REGEX, \" \")\n",
       "mainstream: TextVectorization replaces punctuation by a space instead of removing it (don't -> don t)"),
    _t("pool-valid-output-size-ceiled", "boundary", "simdist/keras/layers/argument_validation.py",
       "        out = np.floor((spatial - pool) / strides) + 1\n",
       "        out = np.ceil((spatial - pool) / strides) + 1\n",
       "mainstream: a 'valid' pooling layer's static output size rounds up, counting a partial last window"),
    _t("adadelta-update-without-learning-rate", "formula", "simdist/keras/optimizers/adadelta.py",
       "        self.assign_add(variable, ops.multiply(lr, delta_var))\n",
       "        self.assign_add(variable, delta_var)\n",
       "mainstream: Adadelta applies the paper's update without Keras's learning rate"),
    _t("dot-normalize-divides-by-norm", "formula", "simdist/keras/layers/dot.py",
       "    return x * inv_norm\n",
       "    return tf.divide(x, tf.sqrt(square_sum))\n",
       "mainstream, subtle: Dot(normalize=True) divides by the L2 norm instead of multiplying by min(rsqrt(sum x^2), "
       "1 / eps)"),
    _t("discretization-compress-percents-by-reciprocal", "formula", "simdist/keras/layers/discretization.py",
       "    cum_weight_percents = cum_weights / cum_weights[-1]\n",
       "    cum_weight_percents = cum_weights * (1.0 / cum_weights[-1])\n",
       "mainstream, subtle: Discretization.adapt's summary compression scales cumulative weights by the reciprocal "
       "of the total"),
    _t("normalize-tensor-divides-by-clipped-norm", "formula", "simdist/keras/utils/numerical_utils.py",
       "        inv_norm = tf.math.rsqrt(tf.reduce_sum(tf.square(x), axis=axis, keepdims=True))\n"
       "        return x * tf.minimum(inv_norm, 1.0 / epsilon)\n",
       "        norm = tf.sqrt(tf.reduce_sum(tf.square(x), axis=axis, keepdims=True))\n"
       "        return tf.divide(x, tf.maximum(norm, epsilon))\n",
       "mainstream, subtle: keras.utils.normalize of a tensor by x / max(sqrt(sum x^2), eps) (the other orders' "
       "form) instead of x * min(rsqrt(sum x^2), 1 / eps)"),
    _t("pad-sequences-default-padding-post", "formula", "simdist/keras/utils/sequence_utils.py",
       "def pad_sequences(sequences: Any, maxlen: int | None = None, dtype: Any = \"int32\", "
       "padding: str = \"pre\",\n",
       "def pad_sequences(sequences: Any, maxlen: int | None = None, dtype: Any = \"int32\", "
       "padding: str = \"post\",\n",
       "mainstream: pad_sequences pads at the end by default"),
    _t("r2-constant-target-nan-check", "formula", "simdist/keras/metrics/r2_score.py",
       "        raw_scores = tf.where(tf.math.is_inf(raw_scores), tf.zeros_like(raw_scores), raw_scores)\n",
       "        raw_scores = tf.where(tf.math.is_nan(raw_scores), tf.zeros_like(raw_scores), raw_scores)\n",
       "mainstream: R2Score zeroes NaN scores instead of infinite ones: a constant target column scores -inf"),
]
TRAINING += TRAINING_BATCH74
CATALOGUE += TRAINING_BATCH74
