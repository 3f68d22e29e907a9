"""`tf.distribute.MultiWorkerMirroredStrategy`: synchronous replicas on every worker's devices.

TF 2.21's CollectiveAllReduceStrategy (collective_all_reduce_strategy.py): each worker runs the
same program with its own TF_CONFIG; the strategy mirrors variables on the worker's local
devices (its GPUs, else one CPU) and every collective spans all workers, in global replica order
(replica id = id_in_cluster * local replicas + local id). In simdist the workers are the
clients of one launch (simdist/launch.py, strategies/clients.py) and every cross-worker
collective is a `clients.meet`: the values are combined once when every worker has arrived, and
the simulated collective (`timing.CrossBarrier`) runs over every worker's devices when the last
worker's timeline reaches it. Outside a launch, a TF_CONFIG naming several workers waits for
peers that never come (TF blocks); simdist refuses it at once (clause mwms.bad-tf-config).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from simdist import session
from simdist.runtime import context, nest, scalar_cache, variables
from simdist.runtime.function_type import function_type
from simdist.runtime.indexed_slices import IndexedSlices
from simdist.runtime.ops import collective, dispatch
from simdist.runtime.tensor import Tensor, convert_to_tensor
from simdist.runtime.values import DistributedValues, Mirrored, contains_distributed, regroup, select_replica
from simdist.semantics import broadcast
from simdist.semantics import cluster as cluster_rules
from simdist.semantics import gather as gather_rules
from simdist.semantics import reduce as reduce_rules
from simdist.semantics.reduce import ReduceOp
from simdist.strategies import clients, collective_timeout, shared_variables, timing
from simdist.strategies.collective_options import CommunicationImplementation, Options
from simdist.strategies.base import (ReplicaContext, StrategyExtended, _flatten, _nbytes, _place, _reduce_axis_none,
                                     _reduce_slices, _strip)
from simdist.strategies.cluster_resolver import ClusterResolver, TFConfigClusterResolver
from simdist.strategies.mirrored import MirroredExtended, MirroredStrategy
from simdist.strategies.replica_run import SyncPoint
from simdist.strategies.sync_on_read import SyncOnReadVariable
from simdist.strategies.dist_variables import MirroredVariable


def group_by_size(sizes: Sequence[int], bytes_per_pack: int) -> list[list[int]]:
    """TF's cross_device_utils.group_by_size on byte sizes: indices of the values in each pack.
    0 gives one pack; otherwise a pack is closed once it holds more than bytes_per_pack."""
    if bytes_per_pack == 0 or not sizes:
        return [list(range(len(sizes)))]
    packs: list[list[int]] = []
    last = 0
    for i, size in enumerate(sizes):
        if not packs or last > bytes_per_pack:
            packs.append([])
            last = 0
        packs[-1].append(i)
        last += size
    return packs


class _Group:
    """The cross-worker side of a strategy: where a collective meets, and what it costs."""

    def __init__(self, extended: "MultiWorkerMirroredExtended") -> None:
        self.ext = extended
        self.resolved = False   # a collective of this group completed (TF resolved the group: timeouts now
        #                         say "during execution", before "waiting for other workers")

    def algorithm(self, sim_devices: Sequence[str]) -> str:
        """The simulated implementation: RING is TF's ring; NCCL (and AUTO, as TF's runtime picks
        NCCL for GPU collectives) on GPUs is NCCL's model; CPUs run the ring (TF warns for NCCL)."""
        impl = self.ext._communication_options.implementation
        gpus = all("/device:GPU:" in d for d in sim_devices)
        if impl is not CommunicationImplementation.RING and gpus:
            return "nccl"
        return "ring"

    def cross(self, kind: str, payload: Any, combine: Callable[[list[Any]], Any], sizes: Sequence[int],
              options: Options | None = None, overlap: bool = False) -> Any:
        """Meet the other workers: every worker gets `combine(payloads in task order)`; the
        simulated collective over every worker's devices is charged where this worker is now
        (a run's merge: at its phase; else next on the worker's timeline). With an armed
        `timeout_seconds` (clause mwms.collective-timeout) a collective its peers do not all
        reach within it raises DeadlineExceededError, here or at the end of the run it is in."""
        local = [session.sim_device(d) for d in self.ext.worker_devices]
        opts = self.ext._communication_options.merge(options)
        timeout = collective_timeout.seconds(opts.timeout_seconds)
        me = clients.current_client()
        if me is not None and me.aborted:   # the executor stays aborted (facts A.2, A.3)
            raise collective_timeout.aborted(me.aborted)
        packs = group_by_size(list(sizes), int(opts.bytes_per_pack))

        def joint(parts: list[tuple[Any, list[str], float | None]]) -> list[Any]:
            values = combine([p[0] for p in parts])
            devices = [d for p in parts for d in p[1]]
            pack_bytes = [float(sum(sizes[i] for i in pack)) for pack in packs]
            start = _collective(kind, devices, pack_bytes, self.algorithm(devices))
            timeouts = [p[2] for p in parts]
            barrier: Any
            if any(timeouts) and me is not None:   # (outside a launch nothing can be late)
                barrier = collective_timeout.TimedBarrier(len(parts), start, timeouts)
            elif overlap and len(packs) > 1:   # clause mwms.pack-overlap
                total = float(sum(sizes)) or 1.0
                cum = [float(sum(sizes[i] for p in packs[:k + 1] for i in p)) / total for k in range(len(packs))]
                barrier = timing.PackChain(len(parts), cum, [
                    _collective(kind, devices, [b], self.algorithm(devices), own_stream=True) for b in pack_bytes])
            else:
                barrier = timing.CrossBarrier(len(parts), start)
            return [(v, barrier) for v in values]

        phase = collective_timeout.TIMED_OUT if self.resolved else collective_timeout.WAITING
        value, barrier = clients.meet(kind, (payload, local, timeout), joint, timeout=timeout, timeout_message=phase)
        self.resolved = True
        if isinstance(barrier, collective_timeout.TimedBarrier) and me is not None:
            index = clients.current_index()
            timing._emit(lambda sim: barrier.arrive(sim, index))
            me.timed.append((barrier, index, phase))
            if not timing.collecting():
                check_timeouts()
        elif isinstance(barrier, timing.PackChain):
            timing._emit(barrier)
        else:
            timing._emit(barrier.arrive)
        return value


def check_timeouts() -> None:
    """Raise the DeadlineExceededError of a timed collective this client charged and whose
    outcome it has not read yet (after every worker's timeline ran past it)."""
    me = clients.current_client()
    if me is None or not me.timed:
        return
    clients.settle()
    timed, me.timed = me.timed, []
    for barrier, index, phase in timed:
        outcome = barrier.outcome[index]
        if outcome == "timed_out":
            me.aborted = collective_timeout.aborted_by(phase)
            raise collective_timeout.timed_out(phase)
        if outcome == "aborted":   # (the aborted peer's message, wrapped once more)
            me.aborted = "Collective ops is aborted by: " + collective_timeout.aborted_by(phase)
            raise collective_timeout.aborted(me.aborted)


def _collective(kind: str, devices: list[str], pack_bytes: list[float], algorithm: str,
                own_stream: bool = False) -> Callable[[Any], Any]:
    """The simulated collective: one per pack, in order (TF chains NCCL packs; a ring's packs
    share the links, so running them one after another costs about the same). ``own_stream``:
    an NCCL all-reduce beside the backward pass (PackChain)."""
    def start(sim: Any) -> Any:
        if len(devices) < 2:
            return
        for b in pack_bytes:
            if not b:
                continue
            if kind == "all_gather":
                yield sim.all_gather(devices, b, name="cross-worker all_gather", algorithm=algorithm)
            elif kind == "broadcast":
                yield sim.broadcast(devices, b, name="cross-worker broadcast")
            else:
                yield sim.all_reduce(devices, b, algorithm=algorithm, name=f"cross-worker {kind}",
                                     own_stream=own_stream and algorithm == "nccl")
    return lambda sim: sim.env.process(start(sim))


class MultiWorkerReplicaContext(ReplicaContext):
    """A replica of a MultiWorkerMirroredStrategy run: `_replica_id` is the local replica (this
    worker's devices), `replica_id_in_sync_group` the global one; collectives span every worker."""

    @property
    def replica_id_in_sync_group(self) -> Any:
        ext = self._strategy.extended
        rid = ext._id_in_cluster * len(ext.worker_devices) + int(self._replica_id)
        from simdist.runtime import dtypes
        import numpy as np
        return dispatch.constant_made(Tensor(np.asarray(rid, dtype=np.int32), dtypes.int32, self._device()))

    def all_reduce(self, reduce_op: Any, value: Any, options: Any = None) -> Any:
        """Every replica of every worker receives the reduction of all replicas' values, combined
        in global replica order (clause mwms.all-reduce); IndexedSlices are gathered."""
        op = reduce_rules.parse_reduce_op(reduce_op)
        leaves, rebuild = _flatten(value)
        strategy = self._strategy
        strategy.extended._check_collective_dtypes("all_reduce", leaves)
        sizes = [_nbytes(v) for v in reversed(leaves)]   # (TF packs the gradients in backprop order)
        _unrecordable("all_reduce")

        def combine(per_worker: list[list[list[Any]]]) -> list[Any]:
            flat = [rep for w in per_worker for rep in w]
            out = []
            for k in range(len(leaves)):
                comps = [p[k] for p in flat]
                if len(comps) == 1 and isinstance(comps[0], (Tensor, IndexedSlices)):
                    out.append(comps[0])
                elif any(isinstance(c, IndexedSlices) for c in comps):
                    out.append(_reduce_slices(op, comps))
                else:   # (CPU workers: TF's ring collective over the workers in task order)
                    out.append(_reduce_axis_none(op, comps, ring=strategy.extended._ring_reduce()))
            return [out] * len(per_worker)

        # TF overlaps the packs with the backward pass only in a tf.function (docs/simulator.md)
        overlap = context.in_function()

        def merge(payloads: list[list[Any]]) -> list[Any]:
            per_leaf = strategy.extended._group.cross("all_reduce", payloads, combine, sizes, options, overlap)
            devs = strategy.extended.worker_devices
            return [rebuild([_place(t, devs[i]) for t in per_leaf]) for i in range(len(payloads))]

        nbytes = float(sum(sizes))
        out = self._sync(SyncPoint("all_reduce", merge, nbytes, "ring"), leaves)
        if dispatch.tapes() and all(isinstance(v, Tensor) for v in leaves):   # (a traced tensor too)
            self._bind_all_reduce(op, leaves, _flatten(out)[0])
        return out

    def all_gather(self, value: Any, axis: int, options: Any = None) -> Any:
        """Every replica receives every replica's value (all workers, global order) concatenated on `axis`."""
        leaves, rebuild = _flatten(value)
        if any(isinstance(v, IndexedSlices) for v in leaves):
            raise NotImplementedError("all_gather does not support IndexedSlices")
        strategy = self._strategy
        strategy.extended._check_collective_dtypes("all_gather", leaves)
        sizes = [_nbytes(v) * strategy.num_replicas_in_sync for v in leaves]
        _unrecordable("all_gather")

        def combine(per_worker: list[list[list[Any]]]) -> list[Any]:
            flat = [rep for w in per_worker for rep in w]
            out = []
            for k in range(len(leaves)):
                comps = [convert_to_tensor(p[k]) for p in flat]
                if len(comps) == 1:   # (one replica in all: TF's _gather shortcut, an identity, unchecked)
                    out.append(comps[0])
                    continue
                gather_rules.check_components([c._v for c in comps], comps[0].dtype.name, True, context.in_function(),
                                              axis)
                out.append(Tensor(gather_rules.gather_components(
                    [c._v for c in comps], axis, gather_rules.collective_path(True, comps[0].dtype.name)),
                    comps[0].dtype))
            return [out] * len(per_worker)

        def merge(payloads: list[list[Any]]) -> list[Any]:
            per_leaf = strategy.extended._group.cross("all_gather", payloads, combine, sizes, options)
            devs = strategy.extended.worker_devices
            return [rebuild([_place(t, devs[i]) for t in per_leaf]) for i in range(len(payloads))]

        out = self._sync(SyncPoint("all_gather", merge, float(sum(sizes)), "gather"), leaves)
        if dispatch.tapes() and all(isinstance(v, Tensor) for v in leaves):   # (a traced tensor too)
            collective.bind_all_gather(self, axis, leaves, _flatten(out)[0])
        return out


def _unrecordable(what: str) -> None:
    """A tf.function that meets the other workers stays eager: a replay of its recording would
    compute the collective from this worker's values alone."""
    if dispatch.recording():
        dispatch.unrecordable(f"it calls a cross-worker {what} (MultiWorkerMirroredStrategy)")


class MultiWorkerMirroredExtended(MirroredExtended):
    """TF's CollectiveAllReduceExtended: this worker's devices, and the job's roles."""

    # (CollectiveAllReduceExtended has none of MirroredExtended's per-value cross-device-ops choice:
    # its replica collectives are MultiWorkerReplicaContext's, its batch_reduce_to reduces each pair)
    _python_leaf_error = None
    _int32_batch_split = False

    def batch_reduce_to(self, reduce_op: Any, value_destination_pairs: Sequence[Any], options: Any = None) -> list:
        return StrategyExtended.batch_reduce_to(self, reduce_op, value_destination_pairs, options)

    def __init__(self, strategy: "MultiWorkerMirroredStrategy", resolver: ClusterResolver,
                 options: Options) -> None:
        self._cluster_resolver = resolver
        self._communication_options = options
        jobs = {j: resolver.cluster_spec().job_tasks(j) for j in resolver.cluster_spec().jobs}
        if not jobs:
            # single worker (TF's _initialize_local): the local GPUs, else one CPU
            self._task_type, self._task_id = None, None
            self._cluster_spec = None
            self._num_workers, self._is_chief, self._id_in_cluster = 1, True, 0
        else:
            task_type, task_id = resolver.task_type, resolver.task_id
            if task_type is None or task_id is None:
                raise ValueError("When `cluster_spec` is given, you must also specify `task_type` and `task_id`.")
            task_id = int(task_id)
            cluster_rules.validate_cluster_spec(jobs, task_type, task_id, repr(resolver.cluster_spec()))
            self._task_type, self._task_id = task_type, task_id
            self._cluster_spec = resolver.cluster_spec()
            self._id_in_cluster = cluster_rules.id_in_cluster(jobs, task_type, task_id)
            self._num_workers = cluster_rules.worker_count(jobs, task_type)
            if not self._num_workers:
                raise ValueError("No `worker`, `chief` or `evaluator` tasks can be found in `cluster_spec`.")
            self._is_chief = cluster_rules.is_chief(jobs, task_type, task_id)
            _check_launched(jobs, task_type, task_id, self._num_workers)
        gpus, cpus = session.local_compute_devices()
        n_gpu = len(gpus)
        if not isinstance(resolver, TFConfigClusterResolver) and jobs:
            n_gpu = int(resolver.num_accelerators().get("GPU", 0))
        devices = tuple(gpus[:n_gpu]) if n_gpu else tuple(cpus[:1])
        super().__init__(strategy, devices, "ring")
        self._local_device_type = "GPU" if n_gpu else "CPU"
        self._group = _Group(self)

    @property
    def _num_replicas(self) -> int:
        return len(self._devices) * self._num_workers

    @property
    def should_checkpoint(self) -> bool:
        return self._is_chief

    @property
    def should_save_summary(self) -> bool:
        return self._is_chief

    @property
    def experimental_should_init(self) -> bool:
        return True

    @property
    def experimental_between_graph(self) -> bool:
        return True

    def _in_multi_worker_mode(self) -> bool:
        return self._num_workers > 1

    @property
    def _host_device(self) -> str:
        return session.canonical("/device:CPU:0")

    def _create_variable(self, **kwargs: Any) -> Any:
        """A new variable, or inside `strategy.run` replica 0's (shared_variables.py)."""
        return shared_variables.created(kwargs, lambda: self._new_variable(**kwargs))

    def _new_variable(self, **kwargs: Any) -> Any:
        """Clause mwms.variables: as MirroredStrategy's on this worker's devices, with the
        initial value every worker computes replaced by worker 0's (TF broadcasts the chief's
        value, group leader task 0, before the variable exists)."""
        kw = _strip(kwargs)
        agg = variables._as_aggregation(kw.pop("aggregation", None))
        sync = variables._as_synchronization(kw.pop("synchronization", None))
        if sync is variables.VariableSynchronization.NONE:
            raise ValueError("`NONE` variable synchronization mode is not supported with tf.distribute strategy. "
                             f"Please change the `synchronization` for variable: {kwargs.get('name')}")
        if sync is variables.VariableSynchronization.AUTO:
            sync = variables.VariableSynchronization.ON_WRITE
        name = kw.pop("name", None) or "Variable"
        init = variables.resolve_initial_value(kw.pop("initial_value", None), kw.pop("dtype", None))
        if self._num_workers > 1:
            init = self._broadcast_initial_value(convert_to_tensor(init))
        base = variables._scoped_name(name)   # (TF: the other copies' names are absolute, "<copy 0's>/replica_i/")
        comps = [variables.ResourceVariable(init, name=name if i == 0 else f"{base}/replica_{i}/", device=d,
                                            aggregation=agg, synchronization=sync, **kw)
                 for i, d in enumerate(self._devices)]
        if sync is variables.VariableSynchronization.ON_READ:
            return SyncOnReadVariable(comps, self._container_strategy, agg)
        if len(comps) == 1:
            comps[0]._distribute_strategy = self._container_strategy
        return MirroredVariable(comps, self._container_strategy, agg)

    def _broadcast_initial_value(self, t: Tensor) -> Tensor:
        """The group leader's (worker 0's, the chief's) value of `t` on every worker: the
        workers meet (the simulator times the broadcast), and the CollectiveBcastSend (leader)
        or CollectiveBcastRecv op is bound to the value received (runtime/ops/collective.py)."""
        got = self._group.cross("broadcast", t, lambda parts: [parts[0]] * len(parts), [_nbytes(t)])
        leader = self._id_in_cluster == 0
        # (this worker's own tensor of the value, on its device; the leader's send outputs its own value)
        received = Tensor(got._v, got.dtype, t._device)
        collective.bind_broadcast(leader, t, received, self._num_workers)
        return received


def _check_launched(jobs: dict[str, Any], task_type: str, task_id: int, num_workers: int) -> None:
    """A multi-worker cluster needs its peers: inside a launch, the launch's tasks must be the
    cluster's; outside one, TF would wait for peers forever, simdist says how to run it."""
    group = clients.current_group()
    if num_workers < 2:
        return
    if group is None or group.current is None:
        raise ValueError(
            f"MultiWorkerMirroredStrategy: the cluster has {num_workers} workers ({jobs}) and this program is "
            f"task {task_type}:{task_id}, but no other worker runs in this process; TensorFlow would wait for "
            "its peers. Run the program once per worker with `simdist launch --workers N script.py` "
            "(or simdist.launch.launch(main, workers=N)) [clause mwms.bad-tf-config]")
    want = [("chief", 0)] * len(jobs.get("chief", [])) + [("worker", i) for i in range(len(jobs.get("worker", [])))]
    if sorted(group.tasks) != sorted(want) or group.tasks[group.current] != (task_type, task_id):
        raise ValueError(
            f"MultiWorkerMirroredStrategy: TF_CONFIG's cluster has tasks {want} and names this program "
            f"{task_type}:{task_id}, but the launch runs tasks {group.tasks} and this is "
            f"{group.tasks[group.current]}: the cluster must be the launch's [clause mwms.bad-tf-config]")


class MultiWorkerMirroredStrategy(MirroredStrategy):
    """`tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=None, communication_options=None)`."""

    def __init__(self, cluster_resolver: Any = None, communication_options: Any = None) -> None:
        if communication_options is None:
            communication_options = Options()
        if not isinstance(communication_options, Options):
            raise ValueError("communication_options must be an instance of "
                             "tf.distribute.experimental.CommunicationOptions")
        resolver = cluster_resolver or TFConfigClusterResolver()
        if not isinstance(resolver, ClusterResolver):
            raise ValueError("cluster_resolver must be an instance of tf.distribute.cluster_resolver.ClusterResolver")
        self._resolver = resolver
        self._options = communication_options
        self._collective = True
        from simdist.strategies.base import Strategy
        Strategy.__init__(self)
        self._devs = self._extended._devices
        scalar_cache.collective_tokens(self._devs)   # (CollectiveAllReduce's ordering tokens: scalar_cache.py)

    def _make_extended(self) -> MultiWorkerMirroredExtended:
        return MultiWorkerMirroredExtended(self, self._resolver, self._options)

    @property
    def cluster_resolver(self) -> Any:
        return self._extended._cluster_resolver

    def __repr__(self) -> str:
        return f"<simdist MultiWorkerMirroredStrategy {self._extended._task_type}:{self._extended._task_id}>"

    # --- run and collectives --------------------------------------------------------------------
    def _make_replica_context(self, i: int) -> ReplicaContext:
        return MultiWorkerReplicaContext(self, i)

    def run(self, fn: Callable[..., Any], args: Any = (), kwargs: dict | None = None, options: Any = None) -> Any:
        """Call fn once per local replica (this worker's devices); collectives inside span every worker."""
        if not isinstance(args, (list, tuple)):
            raise ValueError(f"positional args must be a list or tuple, got {type(args)}")
        from simdist.runtime.values import select_replica
        from simdist.strategies.replica_run import ReplicaRunner, lifted
        kwargs = kwargs or {}
        if isinstance(fn, function_type()):   # (TF's mirrored_run lifts the tf.function: base.Strategy.run)
            from simdist.strategies.base import unread_components_read
            with self.scope():   # (which keeps the caller's device: clause scope.keeps-device)
                return lifted(self, fn)(*unread_components_read(tuple(args)), **unread_components_read(kwargs))
        with self.scope():
            devices = self._replica_devices()
            n = len(devices)
            base = context.snapshot()
            frames = [base + [context.Frame(self, self._make_replica_context(i), devices[i])] for i in range(n)]
            shared_variables.share([fr[-1].replica_context for fr in frames])

            def body(i: int) -> Any:
                return fn(*select_replica(i, tuple(args), keep_variables=True),
                          **select_replica(i, kwargs, keep_variables=True))

            with timing.observe_variables() as traffic:
                record = ReplicaRunner(n, body, frames, self._replica_threads).run()
            timing.charge_run(self, fn, record, args, kwargs, traffic)
            if not timing.collecting():
                check_timeouts()   # a timed collective inside the run: its outcome (clause mwms.collective-timeout)
            return self._regroup(record.results)

    def _cross_components(self, kind: str, comps: list[Any]) -> list[Any]:
        """Every worker's components of a distributed value, in global replica order."""
        ts = [convert_to_tensor(c) for c in comps]
        _unrecordable(kind)
        return self._extended._group.cross(kind, ts, lambda parts: [[t for p in parts for t in p]] * len(parts),
                                           [sum(_nbytes(t) for t in ts)])

    def _reduce_no_axis(self, op: ReduceOp, value: Any, ring: bool = False) -> Any:   # (always a collective)
        """Clause mwms.reduce: a PerReplica is reduced over every worker's replicas; a value that
        is not distributed counts once per worker (TF makes it a one-component PerReplica)."""
        if isinstance(value, Mirrored):
            if op is ReduceOp.SUM:
                raise AssertionError()
            return value.values[0]
        ext = self._extended
        if not isinstance(value, DistributedValues):
            # (a nested structure too is one non-distributed value: TF 2.21's CollectiveAllReduceExtended.
            # _reduce_to does not map over it. One worker: reduce_non_distributed_value, MEAN the structure
            # unchanged, SUM its identity (a tuple of scalars packed into a tensor, a dict ValueError); more
            # workers: converted to a tensor first. fz51d seed 51203 #22)
            if ext._num_workers == 1:
                return reduce_rules.reduce_plain_value(op, value, len(ext.worker_devices), str(value),
                                                       broadcast.copy_to_device)
            value = regroup([convert_to_tensor(value)], always_wrap=True)
        comps = self._cross_components("reduce", list(value.values))
        if len(comps) == 1:
            return comps[0]
        return _reduce_axis_none(op, comps, self._reduce_destination(), None, ring=self._extended._ring_reduce())

    def _mean_operands(self, value: Any, comps: list[Any]) -> list[Any]:
        # (the local values as given, not the gathered tensors: a list's MEAN is AttributeError as on
        # the other strategies; fz51d)
        return list(value.values) if isinstance(value, DistributedValues) else [value]

    def _components_for_axis_reduce(self, value: Any) -> list[Any]:
        """Each local replica's value converted as TF's Strategy.reduce converts it: inside the per-axis
        tf.function it runs on every replica (a structure is each replica's view of it), so a dict is the
        graph conversion's TypeError and mismatched tuple leaves the Pack's trace-time ValueError, not the
        eager classes; then every worker's. fz51d / fz52d, clause run.per-replica."""
        from simdist.runtime.ops import trace_errors
        if isinstance(value, DistributedValues):
            local = list(value.values)
        elif contains_distributed(value):
            local = [select_replica(i, value) for i in range(len(self._devs))]
        else:
            local = [value] * len(self._devs)
        local = trace_errors.as_function(lambda: [convert_to_tensor(c) for c in local])
        return self._cross_components("reduce", local)

    def gather(self, value: Any, axis: int) -> Any:
        """Every worker's replicas' components concatenated along `axis`, in global replica order."""
        from simdist.strategies.base import default_strategy
        f = context.current()
        if f.replica_context is not None and f.strategy is not default_strategy():
            raise RuntimeError("tf.distribute.Strategy.gather method requires cross-replica context, use "
                               "get_replica_context().all_gather() instead")
        self._check_cross_replica_or_default()
        if isinstance(value, IndexedSlices):
            raise NotImplementedError("gather does not support IndexedSlices")
        local = list(value.values) if isinstance(value, DistributedValues) else [value]
        comps = [convert_to_tensor(c) for c in self._cross_components("gather", local)]
        if len(comps) == 1:
            return comps[0]
        gather_rules.check_components([c._v for c in comps], comps[0].dtype.name, True, context.in_function(), axis)
        self._extended._check_collective_dtypes("gather", comps)
        arr = gather_rules.gather_components([c._v for c in comps], axis,
                                             gather_rules.collective_path(True, comps[0].dtype.name))
        return Tensor(arr, comps[0].dtype, self._reduce_destination())

    def experimental_local_results(self, value: Any) -> tuple[Any, ...]:
        if isinstance(value, DistributedValues):
            return value.values
        from simdist.runtime.values import contains_distributed, select_replica
        if isinstance(value, (list, tuple, dict)) or contains_distributed(value):
            return tuple(select_replica(i, value) for i in range(len(self._devs)))
        return (value,)

    def experimental_distribute_values_from_function(self, value_fn: Callable[[Any], Any]) -> Any:
        """value_fn once per local replica, with the global replica id (TF's id_in_cluster * local + i)."""
        from simdist.strategies.input import ValueContext
        n, local = self.num_replicas_in_sync, len(self._devs)
        # (no device scope: CollectiveAllReduceExtended's, as MirroredStrategy's, base.py)
        return regroup([value_fn(ValueContext(self._extended._id_in_cluster * local + i, n)) for i in range(local)],
                       always_wrap=True)

    # --- input ----------------------------------------------------------------------------------
    def _input_layout(self) -> Any:
        """This worker's pipeline only (index id_in_cluster of num_workers), with a cross-worker
        check each step of whether any worker still has data (clause mwms.autoshard)."""
        from simdist.strategies.input import InputLayout
        ext = self._extended
        w, me = ext._num_workers, ext._id_in_cluster
        devs = tuple(self._devs)
        # (other workers' pipelines are built by their own programs: only their shape matters here)
        workers = tuple(devs if k == me else tuple(f"{d}#worker{k}" for d in devs) for k in range(w))
        hosts = tuple(ext._host_device if k == me else f"{ext._host_device}#worker{k}" for k in range(w))

        def sync_has(has: list[bool]) -> list[bool]:
            _unrecordable("input step")
            return ext._group.cross("input", has, lambda parts: [[h for p in parts for h in p]] * len(parts), [1])

        return InputLayout(worker_devices=workers, host_devices=hosts, rebatch=True,
                           partial_batches=True, local_worker=me, sync_has=sync_has if w > 1 else None)

    def experimental_distribute_dataset(self, dataset: Any, options: Any = None) -> Any:
        _refuse_per_replica(options)
        return super().experimental_distribute_dataset(dataset, options)

    def distribute_datasets_from_function(self, dataset_fn: Callable[[Any], Any], options: Any = None) -> Any:
        _refuse_per_replica(options)
        return super().distribute_datasets_from_function(dataset_fn, options)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function


def _refuse_per_replica(options: Any) -> None:
    from simdist.strategies.input import InputReplicationMode
    if options is not None and getattr(options, "experimental_replication_mode", None) == \
            InputReplicationMode.PER_REPLICA:
        raise NotImplementedError("InputReplicationMode.PER_REPLICA is only supported in "
                                  "`distribute_datasets_from_function` of tf.distribute.MirroredStrategy")
