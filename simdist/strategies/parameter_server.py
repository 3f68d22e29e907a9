"""`tf.distribute.experimental.ParameterServerStrategy` (TF 2.21's PSv2) on a simulated cluster.

Variables go round-robin to the ps tasks, optionally partitioned into ShardedVariables; work
is scheduled on workers by a ClusterCoordinator (see coordinator.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist import session
from simdist.runtime import dtypes, variables
from simdist.runtime.sharded import ShardedVariable
from simdist.runtime.tensor import Tensor, TensorShape
from simdist.semantics import cluster as cluster_rules
from simdist.semantics import partition
from simdist.strategies import input_types
from simdist.strategies.base import Strategy, StrategyExtended, _strip, update_one_variable

_NO_INITIAL_VALUE = (
    "It looks like you are using `ParameterServerStrategy` with a `variable_partitioner`, and trying to create a "
    "variable without specifying `initial_value`. This is not allowed. Please specify the `initial_value`.")


def ps_device(task: int) -> str:
    return f"/job:ps/replica:0/task:{task}/device:CPU:0"


def worker_host(task: int) -> str:
    return f"/job:worker/replica:0/task:{task}"


class CachingVariable(variables.ResourceVariable):
    """TF 2.21's ps_values.CachingVariable: ParameterServerStrategy (one replica per worker) wraps every variable
    it creates in one (`_create_var_creator`'s variable_creator_single_replica: round-robin, colocated and each
    shard of a partitioned variable), a tf.Variable that reads and updates the variable it holds (its value is
    cached only inside a caching scope, which simdist does not model). A user sees its class name; it behaves as
    the variable (its updates give `_UnreadVariable`s). Clause pss.round-robin (fz52d)."""

    _recorded_as_variable = True   # (a recorded tf.function takes it as an argument like a plain variable)


class ShapeOnlyVariable(variables.ResourceVariable):
    """A variable with a shape and dtype but no values, for timing-only runs of huge models:
    its bytes are charged to memory and transfers, reading its values is an error.
    Checkpoints save and restore its shape only (charging the copies' time)."""

    shape_only = True

    def __init__(self, name: str, shape: Any, dtype: Any, device: str) -> None:
        self._dtype = dtypes.as_dtype(dtype)
        self._shape = TensorShape(shape)
        self._name = name
        self._device = device
        self.trainable = True
        self.aggregation = variables.VariableAggregation.NONE
        self.synchronization = variables.VariableSynchronization.AUTO
        self._value = None  # type: ignore[assignment]
        self._fault = None
        n = int(np.prod(self._shape.as_list(), dtype=np.int64)) if self._shape.rank else 1
        self._nbytes = n * (self._dtype.size or 16)
        self._on_allocate(self)

    @property
    def nbytes(self) -> int:
        return self._nbytes

    def _current(self) -> np.ndarray:
        raise ValueError(f"{self.name} is a shape-only placeholder (timing-only mode): it has no values; use "
                         "coordinator.schedule_synthetic for work on it")

    def __repr__(self) -> str:
        return f"<simdist placeholder '{self.name}' shape={self._shape} dtype={self._dtype.name}>"


class ParameterServerExtended(StrategyExtended):

    _colocate_check = "created"   # (TF 2.21's _validate_colocate_with_variable, base._validate_colocate)
    def __init__(self, strategy: "ParameterServerStrategy") -> None:
        super().__init__(strategy)
        self._variable_count = 0
        self._created: list[Any] = []     # ps variables and shards, in creation order
        self._in_dataset_fn = False
        self._current_worker: int | None = None

    @property
    def _pss(self) -> "ParameterServerStrategy":
        return self._container_strategy  # type: ignore[return-value]

    @property
    def worker_devices(self) -> tuple[str, ...]:
        return self._pss._worker_devices

    @property
    def parameter_devices(self) -> tuple[str, ...]:
        return tuple(ps_device(i) for i in range(self._pss._num_ps))

    @property
    def _num_replicas(self) -> int:
        return len(self._pss._worker_devices)

    @property
    def _host_device(self) -> str:
        w = self._current_worker
        return session.canonical(worker_host(w) + "/device:CPU:0") if w is not None \
            else session.canonical("/device:CPU:0")

    @property
    def experimental_enable_get_next_as_optional(self) -> bool:
        return True

    def _next_ps(self) -> str:
        task = partition.round_robin_task(self._variable_count, self._pss._num_ps)
        self._variable_count += 1
        return ps_device(task)

    def _create_variable(self, **kwargs: Any) -> Any:
        """Clauses pss.round-robin, pss.partitioner-*, pss.sharded-variable, pss.colocate-no-partition."""
        if self._in_dataset_fn:
            raise ValueError("Creating variables in `dataset_fn` is not allowed.")
        kw = _strip(kwargs)
        if self._colocate_with is not None:
            # Clause optim.slot-placement: with the variable, except while a scheduled function
            # runs: TF 2.21 creates those when it traces the function, on the coordinator.
            # A ShardedVariable has no device: TF colocates with its conversion to a tensor, made
            # on the coordinator (clause keras.variable.sharded: an optimizer's slots for a Keras
            # variable over one are whole variables on the chief).
            chief = session.canonical("/job:chief/replica:0/task:0/device:CPU:0")
            dev = getattr(self._colocate_with, "device", chief) if self._current_worker is None else chief
            v = CachingVariable(device=dev, **kw)
            v._distribute_strategy = self._pss
            return v
        partitioner = self._pss._variable_partitioner
        if partitioner is not None:
            if kw.get("initial_value") is None:
                raise ValueError(_NO_INITIAL_VALUE)
            init = variables.resolve_initial_value(kw.pop("initial_value"), kw.pop("dtype", None))
            if init._v.ndim > 0:
                p = partition.check_partition_result(partitioner(shape=init.shape, dtype=init.dtype))
                if p[0] > 1:
                    return self._create_sharded(init, p[0], kw)
            kw["initial_value"] = init
        v = CachingVariable(device=self._next_ps(), **kw)
        v._distribute_strategy = self._pss
        self._created.append(v)
        return v

    def _create_sharded(self, init: Tensor, k: int, kw: dict) -> ShardedVariable:
        name = kw.pop("name", None) or "Variable"
        kw.pop("shape", None)
        sizes = partition.shard_sizes(int(init._v.shape[0]), k)
        offsets = partition.shard_offsets(sizes)
        shards = []
        for i, (off, size) in enumerate(zip(offsets, sizes)):
            part = Tensor(init._v[off:off + size], init.dtype)
            v = CachingVariable(part, name=f"{name}/part_{i}", device=self._next_ps(), **kw)
            v._distribute_strategy = self._pss
            shards.append(v)
            self._created.append(v)
        sv = ShardedVariable(shards, name="ShardedVariable")   # (TF 2.21's `ShardedVariable(var_list)`: its default
        sv._distribute_strategy = self._pss
        return sv

    def _update(self, var: Any, fn: Any, args: tuple, kwargs: dict, group: bool) -> Any:
        return update_one_variable(var, fn, args, kwargs, group)

    def _update_non_slot(self, colocate_with: Any, fn: Any, args: tuple, kwargs: dict, group: bool) -> Any:
        """ParameterServerStrategyExtended._update_non_slot (TF 2.21): fn once on `colocate_with.device` (a
        variable's, as non_slot_devices gives; a device string has no `.device`: AttributeError)."""
        from simdist.strategies.base import _non_slot_run
        return _non_slot_run(colocate_with.device, fn, args, kwargs, group)

    def placeholder_variable(self, name: str, shape: Any, dtype: Any = dtypes.float32) -> Any:
        """A shape-only variable (no values) placed and partitioned exactly like tf.Variable would
        be, for timing-only runs (coordinator.schedule_synthetic)."""
        shape = TensorShape(shape)
        partitioner = self._pss._variable_partitioner
        dt = dtypes.as_dtype(dtype)
        if partitioner is not None and shape.rank:
            p = partition.check_partition_result(partitioner(shape=shape, dtype=dt))
            if p[0] > 1:
                sizes = partition.shard_sizes(int(shape[0]), p[0])
                shards = [ShapeOnlyVariable(f"{name}/part_{i}", [s] + shape.as_list()[1:], dt, self._next_ps())
                          for i, s in enumerate(sizes)]
                self._created.extend(shards)
                return ShardedVariable(shards, name=name)
        v = ShapeOnlyVariable(name, shape, dt, self._next_ps())
        self._created.append(v)
        return v


class ParameterServerStrategy(Strategy):
    """Clauses pss.*: asynchronous training with variables on ps tasks, driven by a ClusterCoordinator."""

    _mirrored_run = True   # (TF: its run is mirrored_run's, a MirroredReplicaContext per replica)

    def __init__(self, cluster_resolver: Any, variable_partitioner: Any = None) -> None:
        spec = cluster_resolver.cluster_spec()
        jobs = {j: spec.job_tasks(j) for j in spec.jobs}
        if not jobs:
            raise ValueError("Cluster spec must be non-empty in `tf.distribute.cluster_resolver.ClusterResolver`.")
        cluster_rules.validate_cluster_spec(jobs, cluster_resolver.task_type, cluster_resolver.task_id, repr(spec))
        if not jobs.get("ps"):
            raise ValueError("There must be at least one ps.")
        if not jobs.get("worker"):
            raise ValueError("There must be at least one worker.")
        if variable_partitioner is not None and not callable(variable_partitioner):
            raise ValueError(f"variable_partitioner must be callable, got {variable_partitioner!r}")
        self._cluster_resolver = cluster_resolver
        self._variable_partitioner = variable_partitioner
        self._num_workers = len(jobs["worker"])
        self._num_ps = len(jobs["ps"])
        counts = {j: len(t) for j, t in jobs.items()}
        counts.setdefault("chief", 1)
        session.ensure_jobs(counts)
        session.set_local_task("chief", 0)
        gpus_per_worker = [len(session.cluster().host("worker", i).gpus) for i in range(self._num_workers)]
        if len(set(gpus_per_worker)) != 1:
            raise ValueError(f"Mismatched number of GPUs per worker: {gpus_per_worker}")
        g = gpus_per_worker[0]
        self._worker_devices = tuple(f"/device:GPU:{i}" for i in range(g)) if g else ("/device:CPU:0",)
        faults = session.faults()
        if faults is not None:
            faults.validate(self._num_workers, self._num_ps, [ln.name for ln in session.cluster().links])
        self._cluster_coordinator = None
        Strategy.__init__(self)

    def _make_extended(self) -> ParameterServerExtended:
        return ParameterServerExtended(self)

    @property
    def cluster_resolver(self) -> Any:
        """None, as in TF 2.21 (its PSv2 never sets it; the docs say multi-worker strategies return
        their resolver). The resolver given to the constructor is `_cluster_resolver`."""
        return None

    def _replica_devices(self) -> list[str]:
        w = self._extended._current_worker  # type: ignore[attr-defined]
        return self._replica_devices_of(0 if w is None else w)

    def _replica_devices_of(self, task: int) -> list[str]:
        """The devices of worker `task`'s replicas."""
        return [session.canonical(worker_host(task) + d) for d in self._worker_devices]

    def experimental_distribute_dataset(self, dataset: Any, options: Any = None) -> Any:
        return DistributedDataset(self, dataset, options)

    def distribute_datasets_from_function(self, dataset_fn: Any, options: Any = None) -> Any:
        return DistributedDatasetsFromFunction(self, None, options, dataset_fn)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function


class _CoordinatorOnlyDataset(input_types.DistributedDataset):
    """A PSS distributed dataset: only `ClusterCoordinator.create_per_worker_dataset` may use it."""

    def __init__(self, strategy: ParameterServerStrategy, dataset: Any, options: Any, dataset_fn: Any = None) -> None:
        self._strategy = strategy
        self._dataset = dataset
        self._dataset_fn = dataset_fn
        self._options = options

    def __iter__(self) -> Any:
        raise ValueError("To use this dataset, you need to pass this dataset to "
                         "ClusterCoordinator.create_per_worker_dataset.")

    @property
    def cardinality(self) -> Any:
        """TF 2.21: a PSS distributed dataset is never built on the coordinator, so its
        cardinality raises (Keras's fit/evaluate/predict given one fail on it: clause
        keras.fit.pss-refused)."""
        raise ValueError("Cannot get the cardinality of a dataset that is not built")

    def _make_for_worker(self, worker: int) -> Any:
        from simdist.strategies.input import InputContext
        if self._dataset_fn is not None:
            n = self._strategy.num_replicas_in_sync
            return self._dataset_fn(InputContext(1, 0, n))
        return self._dataset


class DistributedDataset(_CoordinatorOnlyDataset):
    """`experimental_distribute_dataset` under PSS (TF's class name: Keras's data adapters
    recognise a distributed dataset by it)."""


class DistributedDatasetsFromFunction(_CoordinatorOnlyDataset):
    """`distribute_datasets_from_function` under PSS (TF's class name, as DistributedDataset)."""
