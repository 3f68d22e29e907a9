"""Distributed input: `experimental_distribute_dataset` and `distribute_datasets_from_function`.

Mirrors TF 2.21's `input_lib.py`. Per input worker i of W (r replicas each, R = W*r):
  experimental_distribute_dataset: clone the pipeline; if R > 1 rebatch it (RebatchV2 with
  `batch_sizes_for_worker` when the batch size is known, else legacy Rebatch(R)) and append
  prefetch(r); then auto-shard it by the dataset's AutoShardPolicy (DATA/AUTO: shard(W, i) at the
  end and RebatchV2 rewritten to legacy; HINT: shard hints filled in; OFF: nothing).
  distribute_datasets_from_function: `dataset_fn(InputContext)` once per worker; no rebatch, shard
  or prefetch.
Each worker's stream is dealt round-robin to its replicas (replica j at step s gets element s*r+j).
When partial batches are enabled, replicas without data get empty dummies while any replica (of
any worker) has data; otherwise an incomplete step ends iteration.

The strategies build an `InputLayout` and call `distribute_dataset` /
`distribute_datasets_from_function`; `on_step` lets them charge simulated time per produced step.
"""

from __future__ import annotations

import collections
import enum
import logging
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from simdist.runtime import context, errors
from simdist.runtime import data as _data
from simdist.runtime.data import DatasetV2, Optional
from simdist.runtime.data import resources as _resources
from simdist.runtime.spec import PerReplicaSpec, TensorSpec, flatten, is_fully_static, map_structure, pack_as
from simdist.runtime.values import PerReplica
from simdist.semantics import autoshard, rebatch
from simdist.strategies import input_types

_log = logging.getLogger(__name__)

OnStep = Callable[[str, list, list], None]


# --- public API classes -------------------------------------------------------------------------------
class InputReplicationMode(enum.Enum):
    """`tf.distribute.InputReplicationMode`: one input pipeline per worker or per replica."""

    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


class InputOptions(collections.namedtuple("InputOptions", [
        "experimental_fetch_to_device", "experimental_replication_mode",
        "experimental_place_dataset_on_device", "experimental_per_replica_buffer_size"])):
    """`tf.distribute.InputOptions` (fetch_to_device defaults to True, per-replica buffer to 1)."""

    def __new__(cls, experimental_fetch_to_device: bool | None = None,
                experimental_replication_mode: InputReplicationMode = InputReplicationMode.PER_WORKER,
                experimental_place_dataset_on_device: bool = False,
                experimental_per_replica_buffer_size: int = 1) -> "InputOptions":
        if experimental_fetch_to_device is None:
            experimental_fetch_to_device = True
        return super().__new__(cls, experimental_fetch_to_device, experimental_replication_mode,
                               experimental_place_dataset_on_device, experimental_per_replica_buffer_size)


class InputContext:
    """`tf.distribute.InputContext`: what `dataset_fn` learns about the input pipelines and replicas."""

    __slots__ = ("_num_input_pipelines", "_input_pipeline_id", "_num_replicas_in_sync")

    def __init__(self, num_input_pipelines: int = 1, input_pipeline_id: int = 0,
                 num_replicas_in_sync: int = 1) -> None:
        self._num_input_pipelines = num_input_pipelines
        self._input_pipeline_id = input_pipeline_id
        self._num_replicas_in_sync = num_replicas_in_sync

    @property
    def num_replicas_in_sync(self) -> int:
        return self._num_replicas_in_sync

    @property
    def input_pipeline_id(self) -> int:
        return self._input_pipeline_id

    @property
    def num_input_pipelines(self) -> int:
        return self._num_input_pipelines

    def get_per_replica_batch_size(self, global_batch_size: int) -> int:
        """global / num_replicas_in_sync; ValueError "... is not divisible by ..." (clause dataset-fn.input-context)."""
        return rebatch.global_batch_rows(global_batch_size, self._num_replicas_in_sync)

    def __str__(self) -> str:
        return "tf.distribute.InputContext(input pipeline id {}, total: {})".format(
            self.input_pipeline_id, self.num_input_pipelines)


class ValueContext:
    """`tf.distribute.experimental.ValueContext`: the replica a value function is called for."""

    __slots__ = ("_replica_id_in_sync_group", "_num_replicas_in_sync")

    def __init__(self, replica_id_in_sync_group: int = 0, num_replicas_in_sync: int = 1) -> None:
        self._replica_id_in_sync_group = replica_id_in_sync_group
        self._num_replicas_in_sync = num_replicas_in_sync

    @property
    def num_replicas_in_sync(self) -> int:
        return self._num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self) -> int:
        return self._replica_id_in_sync_group

    def __str__(self) -> str:
        return "tf.distribute.ValueContext(replica id {},  total replicas in sync: {})".format(
            self.replica_id_in_sync_group, self.num_replicas_in_sync)


@dataclass(frozen=True)
class InputLayout:
    """Where a strategy's input goes.

    worker_devices: per input worker, its replica devices (replica order = flattened order).
    host_devices: per input worker, its host CPU device.
    rebatch: False for OneDevice / the default strategy (no rebatch, no R-way split).
    partial_batches: TF's `experimental_enable_get_next_as_optional`.
    wrap_single: the strategy returns plain values with one replica (OneDevice). TF 2.21 yields
      plain values for every single-worker, single-replica strategy (Mirrored with one device
      included), so a single replica always gives plain values; the flag is kept for the strategies.
    per_replica_mode: see the field.
    local_worker: the one input worker this client is (MultiWorkerMirroredStrategy: each worker's
      program builds and reads its own pipeline only, with its index), else None (all of them).
    sync_has: with local_worker, whether each of this worker's replicas has data this step ->
      the same flags of every worker in task order (a cross-worker collective, as TF's multi-worker
      iterator all-reduces whether any worker still has data).
    """

    worker_devices: tuple[tuple[str, ...], ...]
    host_devices: tuple[str, ...]
    rebatch: bool = True
    partial_batches: bool = True
    wrap_single: bool = False
    local_worker: int | None = None
    sync_has: Callable[[list[bool]], list[bool]] | None = None
    #: whether InputReplicationMode.PER_REPLICA gives each replica its own pipeline (MirroredStrategy's
    #: `_input_workers_with_options`); CentralStorageStrategy's input workers ignore the mode: one pipeline per
    #: worker, as PER_WORKER (observed on TF 2.21; clause input.interface-types)
    per_replica_mode: bool = True


@dataclass
class _Pipe:
    """One input pipeline: its host, the devices its stream is dealt to, where values are placed."""

    host: str
    devices: tuple[str, ...]
    dest: tuple[str, ...]
    dataset: DatasetV2


def _check_layout(layout: InputLayout) -> tuple[int, int]:
    w = len(layout.worker_devices)
    if w == 0:
        raise ValueError("Should have at least one worker for input iterator.")
    if len(layout.host_devices) != w:
        raise ValueError(f"InputLayout has {w} workers but {len(layout.host_devices)} host devices")
    total = sum(len(d) for d in layout.worker_devices)
    r = rebatch.check_replicas_divide(total, w)
    if any(len(d) != r for d in layout.worker_devices):
        raise ValueError("tf.distribute expects every worker to have the same number of replicas.")
    return w, r


def _check_options(options: Any) -> InputOptions:
    if options is None:
        return InputOptions()
    if not isinstance(options, InputOptions):
        # (TF 2.21 reads the option without a check: an AttributeError naming the first one it reads)
        raise AttributeError(f"'{type(options).__name__}' object has no attribute 'experimental_replication_mode'")
    return options


def _dynamic_batch(spec: TensorSpec) -> TensorSpec:
    try:
        return spec._unbatch()._batch(None)
    except ValueError:
        return spec


# --- the distributed dataset classes -------------------------------------------------------------------
class _DistributedInputBase(input_types.DistributedDataset):
    """What DistributedDataset and DistributedDatasetsFromFunction share: pipes, specs, iteration."""

    def _setup(self, pipes: list[_Pipe], layout: InputLayout, options: InputOptions, on_step: OnStep | None,
               source: DatasetV2, num_replicas: int, multi_worker: bool) -> None:
        self._pipes = pipes
        self._options = options
        self._on_step = on_step
        self._num_replicas = num_replicas
        self._multi_worker = multi_worker
        self._cardinality = np.int64(source._card())
        self._enable_get_next_as_optional = rebatch.partial_batches_enabled(
            layout.partial_batches, int(self._cardinality), is_fully_static(source.element_spec), multi_worker)
        self._wrap = multi_worker or len(pipes) * len(pipes[0].devices) > 1
        self._sync_has = layout.sync_has
        per_replica_spec = pipes[0].dataset.element_spec
        self._local_replicas = nloc = sum(len(p.devices) for p in pipes)   # (this client's replicas)
        if self._wrap:
            self._element_spec = map_structure(lambda s: PerReplicaSpec(*[s] * nloc), per_replica_spec)
        else:
            self._element_spec = per_replica_spec
        self._per_replica_buffer_size = options.experimental_per_replica_buffer_size

    @property
    def element_spec(self) -> Any:
        """PerReplicaSpec per leaf for several replicas (batch dim None when partial batches are possible
        across workers), the dataset's own spec for one replica."""
        if self._enable_get_next_as_optional and self._multi_worker and self._wrap:
            return map_structure(lambda p: PerReplicaSpec(*[_dynamic_batch(s) for s in p.value_specs]),
                                 self._element_spec)
        return self._element_spec

    @property
    def cardinality(self) -> np.int64:
        """The cardinality of the dataset the input came from (NumPy int64, like TF)."""
        return self._cardinality

    def __iter__(self) -> "DistributedIterator":
        return DistributedIterator(self)

    def reduce(self, initial_state: Any, reduce_fn: Callable[[Any, Any], Any]) -> Any:
        """Fold every step into a state: `state = reduce_fn(state, step)` (partial steps included)."""
        it = iter(self)
        state = initial_state
        while True:
            opt = it.get_next_as_optional()
            if not opt._has_value:
                return state
            state = reduce_fn(state, opt.get_value())


class DistributedDataset(_DistributedInputBase):
    """The result of `experimental_distribute_dataset`: iterate it; no further transformations.

    An unbatched dataset (scalar components) over R > 1 replicas raises
    `IndexError('list index out of range')` here, as TF 2.21 does (from `compute_batch_size`);
    older TF raised ValueError("Call the `batch` method on the input Dataset ...").
    `_cloned_datasets` holds each worker's rewritten pipeline (as TF's attribute of that name),
    `_batch_size` the computed global batch size (-1: legacy split), `_prefetch_buffer_size` the
    appended prefetch (replicas per worker) and `_per_replica_buffer_size` InputOptions'
    `experimental_per_replica_buffer_size`.
    """

    def __init__(self, dataset: DatasetV2, layout: InputLayout, options: InputOptions | None,
                 on_step: OnStep | None) -> None:
        if not isinstance(dataset, DatasetV2):
            raise TypeError(f"`dataset` must be a `tf.data.Dataset`, got {type(dataset).__name__}")
        opts = _check_options(options)
        if opts.experimental_replication_mode == InputReplicationMode.PER_REPLICA:
            raise NotImplementedError("InputReplicationMode.PER_REPLICA is only supported in "
                                      "`distribute_datasets_from_function`.")
        w, r = _check_layout(layout)
        num_replicas = w * r
        self._original_dataset = dataset
        self._num_replicas_in_sync = num_replicas if layout.rebatch else None
        self._batch_size: int | None = None
        self._prefetch_buffer_size: int | None = None
        rebatch_fn = None
        if layout.rebatch and num_replicas > 1:
            r = rebatch.check_replicas_divide(num_replicas, w)
            batch_size = rebatch.compute_batch_size(_data.component_shapes(dataset), dataset)
            self._batch_size = batch_size
            self._prefetch_buffer_size = r

            def rebatch_fn(ds: DatasetV2, worker_index: int) -> DatasetV2:
                if batch_size != -1:
                    sizes = rebatch.batch_sizes_for_worker(batch_size, w, r, worker_index)
                    node: DatasetV2 = _data._RebatchDataset(ds, sizes)
                else:
                    node = _data._LegacyRebatchDataset(ds, num_replicas)
                return _data._PrefetchDataset(node, r)

        pipes = []
        self._cloned_datasets: list[DatasetV2] = []
        self._autoshard_plans: list[autoshard.ShardPlan] = []
        for i in _workers_of(layout, w):
            cloned = _data.replicate(dataset)
            if rebatch_fn is not None:
                cloned = rebatch_fn(cloned, i)
            cloned, plan = _auto_shard(cloned, w, i, self._num_replicas_in_sync or 1)
            self._cloned_datasets.append(cloned)
            self._autoshard_plans.append(plan)
            devs = tuple(layout.worker_devices[i])
            host = layout.host_devices[i]
            dest = devs if opts.experimental_fetch_to_device else (host,) * len(devs)
            pipes.append(_Pipe(host, devs, dest, cloned))
        self._setup(pipes, layout, opts, on_step, dataset, num_replicas, w > 1)


class DistributedDatasetsFromFunction(_DistributedInputBase):
    """The result of `distribute_datasets_from_function`: one `dataset_fn(ctx)` per input pipeline."""

    def __init__(self, dataset_fn: Callable[[InputContext], DatasetV2], layout: InputLayout,
                 options: InputOptions | None, on_step: OnStep | None,
                 input_contexts: Sequence[InputContext] | None = None) -> None:
        opts = _check_options(options)
        per_replica = opts.experimental_replication_mode == InputReplicationMode.PER_REPLICA
        if not per_replica and opts.experimental_place_dataset_on_device:
            raise ValueError("When `experimental_place_dataset_on_device` is set for dataset placement, you must "
                             "also specify `PER_REPLICA` for the replication mode")
        if per_replica and opts.experimental_fetch_to_device and opts.experimental_place_dataset_on_device:
            raise ValueError("`experimental_place_dataset_on_device` can not be set to True when "
                             "experimental_fetch_to_device is True and replication mode is set to `PER_REPLICA`")
        w, r = _check_layout(layout)
        num_replicas = w * r
        slots: list[tuple[str, tuple[str, ...]]] = []   # (host, devices) per input pipeline
        for i in _workers_of(layout, w):
            if per_replica and layout.per_replica_mode:
                for d in layout.worker_devices[i]:
                    slots.append((d if opts.experimental_place_dataset_on_device else layout.host_devices[i], (d,)))
            else:
                slots.append((layout.host_devices[i], tuple(layout.worker_devices[i])))
        if input_contexts is None and layout.local_worker is not None:
            input_contexts = [InputContext(w, layout.local_worker, num_replicas)]
        if input_contexts is None:
            input_contexts = [InputContext(len(slots), k, num_replicas) for k in range(len(slots))]
        if len(input_contexts) != len(slots):
            raise ValueError("Number of input workers (%d) is not same as number of input_contexts (%d)"
                             % (len(slots), len(input_contexts)))
        self._input_contexts = list(input_contexts)
        self._dataset_fn = dataset_fn
        self._datasets: list[DatasetV2] = []
        pipes = []
        for (host, devs), ctx in zip(slots, self._input_contexts):
            ds = dataset_fn(ctx)
            if not isinstance(ds, DatasetV2):
                raise AttributeError(f"'{type(ds).__name__}' object has no attribute 'element_spec' "
                                     "(`dataset_fn` must return a `tf.data.Dataset`)")
            self._datasets.append(ds)
            if opts.experimental_fetch_to_device:
                dest = devs
            else:
                dest = (host,) * len(devs)
            pipes.append(_Pipe(host, devs, dest, ds))
        self._setup(pipes, layout, opts, on_step, self._datasets[0], num_replicas, w > 1)
        # TF takes the element spec from the last dataset_fn call.
        last = self._datasets[-1].element_spec
        self._element_spec = (map_structure(lambda s: PerReplicaSpec(*[s] * self._local_replicas), last)
                              if self._wrap else last)


def _workers_of(layout: InputLayout, w: int) -> list[int]:
    """The input workers whose pipelines this client builds: all, or its own (multi-worker)."""
    if layout.local_worker is None:
        return list(range(w))
    if not 0 <= layout.local_worker < w:
        raise ValueError(f"InputLayout.local_worker={layout.local_worker} is not one of the {w} input workers")
    return [layout.local_worker]


def _auto_shard(ds: DatasetV2, num_workers: int, index: int, num_replicas: int) -> tuple[DatasetV2, autoshard.ShardPlan]:
    """Apply the dataset's AutoShardPolicy to one worker's pipeline (clause dataset.autoshard)."""
    policy = ds.options().experimental_distribute.auto_shard_policy
    needs_file = policy in (autoshard.AutoShardPolicy.AUTO, autoshard.AutoShardPolicy.FILE) and not (
        policy == autoshard.AutoShardPolicy.FILE and num_workers == 1 and index == 0)
    file_error = autoshard.file_shard_error(ds) if needs_file else None
    plan = autoshard.plan_autoshard(policy, num_workers, index, file_error)
    if plan.log and index == 0:
        _log.info(plan.log)
    if plan.replace_shard_hint:
        ds = _replace_shard_hint(ds, num_workers, index)
    if plan.insert_shard:
        ds = _insert_data_shard(ds, num_workers, index, num_replicas, plan.rewrite_rebatch_v2)
    return ds, plan


def _insert_data_shard(ds: DatasetV2, num_workers: int, index: int, num_replicas: int,
                       rewrite_v2: bool) -> DatasetV2:
    """ShardByData: shard(W, i) below trailing prefetch/options nodes; a RebatchV2 there becomes legacy."""
    kinds, walker = [], ds
    while walker is not None:
        kinds.append(walker.kind)
        walker = walker.inputs[0] if walker.inputs else None
    chain, node = [], ds
    for _ in range(min(autoshard.trailing_count(kinds), len(kinds) - 1)):
        chain.append(node)
        node = node.inputs[0]
    if rewrite_v2 and node.kind == "RebatchDatasetV2":
        # TF rewrites the graph node only: the Python element spec stays RebatchV2's.
        node = _data._LegacyRebatchDataset(node.inputs[0], num_replicas, element_spec=node.element_spec)
    node = _data._ShardDataset(node, num_workers, index, require_non_empty=True)
    for t in reversed(chain):
        node = t._with_inputs((node,))
    return node


def _replace_shard_hint(ds: DatasetV2, num_workers: int, index: int) -> DatasetV2:
    """ShardByHint: every shard(SHARD_HINT, *) becomes shard(W, i) (require_non_empty)."""
    new_inputs = tuple(_replace_shard_hint(i, num_workers, index) for i in ds.inputs)
    if ds.kind == "ShardDataset" and ds.params["num_shards"] == _data.SHARD_HINT:
        return _data._ShardDataset(new_inputs[0], num_workers, index, require_non_empty=True)
    if any(a is not b for a, b in zip(new_inputs, ds.inputs)):
        return ds._with_inputs(new_inputs)
    return ds


# --- iteration ------------------------------------------------------------------------------------------
class DistributedIterator(input_types.DistributedIterator):
    """Iterator over a distributed dataset: `next()`, `get_next()`, `get_next_as_optional()`."""

    def __init__(self, owner: _DistributedInputBase) -> None:
        self._owner = owner
        for p in owner._pipes:
            p.dataset._check_iterable()
        # Each device keeps `experimental_per_replica_buffer_size` elements buffered (TF's
        # MultiDeviceIterator), so a pipeline is read that many steps ahead of the consumer.
        ahead = max(0, int(owner._per_replica_buffer_size or 0))
        self._iterators: list[Iterator[list[np.ndarray]] | None] = [
            _data._read_ahead(_resources.owned(p.dataset._iter_flat(), dataset=p.dataset), ahead * len(p.devices))
            for p in owner._pipes]

    @property
    def element_spec(self) -> Any:
        return self._owner.element_spec

    def __iter__(self) -> "DistributedIterator":
        return self

    def __next__(self) -> Any:
        """The next step; at the end StopIteration, inside a tf.function OutOfRangeError (TF's graph-mode
        `next` is get_next: errors.end_of_sequence, still ending a `for` loop over the iterator there)."""
        try:
            return self.get_next()
        except errors.OutOfRangeError:
            if context.in_function():   # (runtime/data/graph_get_next.py)
                from simdist.runtime.data import graph_get_next
                raise graph_get_next.end(1) from None
            raise StopIteration from None

    def next(self) -> Any:
        return self.__next__()

    def get_next(self, name: str | None = None) -> Any:
        """The next step for all replicas; OutOfRangeError("End of sequence") when done."""
        if context.has_strategy() and context.get_replica_context() is not None:
            raise ValueError("next(iterator) should be called from outside of replica_fn. e.g. "
                             "strategy.run(replica_fn, args=(next(iterator),))")
        return self._step(self._owner._enable_get_next_as_optional)

    def get_next_as_optional(self) -> Optional:
        """The next step as an Optional; always handles partial steps (TF's behaviour)."""
        owner = self._owner
        if owner._cardinality == _data.INFINITE_CARDINALITY:
            return Optional(self._step(False), owner.element_spec, True)
        if owner._cardinality == 0 and not owner._multi_worker:
            return Optional.empty(owner.element_spec)
        try:
            value = self._step(True)
        except errors.OutOfRangeError:
            return Optional.empty(owner.element_spec)
        return Optional(value, owner.element_spec, True)

    def _pull(self, w: int) -> list[list[np.ndarray] | None]:
        """The next element for each device of pipeline w (round-robin dealing), None once exhausted."""
        out: list[list[np.ndarray] | None] = []
        for _ in self._owner._pipes[w].devices:
            it = self._iterators[w]
            flat = None
            if it is not None:
                try:
                    flat = next(it)
                except StopIteration:
                    self._iterators[w] = None
            out.append(flat)
        return out

    def _step(self, partial: bool) -> Any:
        owner = self._owner
        pulled = [self._pull(w) for w in range(len(owner._pipes))]
        has = [flat is not None for per_worker in pulled for flat in per_worker]
        if owner._sync_has is not None:
            has = owner._sync_has(has)     # (every worker's flags: the step ends for all or none)
        if rebatch.step_outcome(has, partial) == "end":
            raise errors.OutOfRangeError(None, None, "End of sequence")
        elements = []
        for pipe, per_worker in zip(owner._pipes, pulled):
            ds = pipe.dataset
            mine = []
            for flat, dev in zip(per_worker, pipe.dest):
                if flat is None:
                    flat = _dummies(flatten(ds.element_spec))
                mine.append(ds._pack(flat, dev))
            if owner._on_step is not None:
                owner._on_step(pipe.host, mine, list(pipe.dest))
            elements.extend(mine)
        if not owner._wrap:
            return elements[0]
        spec = owner._pipes[0].dataset.element_spec
        leaves = [flatten(e) for e in elements]
        return pack_as(spec, [PerReplica(tuple(l[k] for l in leaves)) for k in range(len(leaves[0]))])


def _dummies(leaves: list[Any]) -> list[np.ndarray]:
    """The components of the empty value a replica without data gets: a RaggedTensor leaf's are an empty ragged
    batch (values and row splits: TF 2.21 gives a ragged [] there, dsweep65), a dense leaf's `_dummy`."""
    from simdist.runtime.data import components
    from simdist.runtime.ragged_tensor import RaggedTensorSpec
    out: list[np.ndarray] = []
    for s in leaves:
        if isinstance(s, RaggedTensorSpec) and s.ragged_rank:
            out.extend(components.batch_ragged([], s._unbatch()))
        else:
            out.append(_dummy(s))
    return out


def _dummy(spec: TensorSpec) -> np.ndarray:
    """The empty value a replica without data gets (clause dataset.partial-batch-split)."""
    shape = None if spec.shape.rank is None else spec.shape.as_list()
    return _data._zeros(rebatch.dummy_shape(shape), spec.dtype)


# --- entry points used by the strategies -----------------------------------------------------------------
def distribute_dataset(dataset: DatasetV2, layout: InputLayout, options: InputOptions | None = None,
                       on_step: OnStep | None = None) -> DistributedDataset:
    """`strategy.experimental_distribute_dataset(dataset, options)` for a strategy's input layout."""
    return DistributedDataset(dataset, layout, options, on_step)


def distribute_datasets_from_function(dataset_fn: Callable[[InputContext], DatasetV2], layout: InputLayout,
                                      options: InputOptions | None = None, on_step: OnStep | None = None,
                                      input_contexts: Sequence[InputContext] | None = None
                                      ) -> DistributedDatasetsFromFunction:
    """`strategy.distribute_datasets_from_function(dataset_fn, options)` for a strategy's input layout."""
    return DistributedDatasetsFromFunction(dataset_fn, layout, options, on_step, input_contexts)

