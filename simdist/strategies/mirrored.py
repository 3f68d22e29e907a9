"""`tf.distribute.MirroredStrategy`: one replica per device, variables mirrored on each."""

from __future__ import annotations

from typing import Any, Sequence

from simdist import session
from simdist.runtime import context, dtypes, nest, scalar_cache, variables
from simdist.runtime.tensor import Tensor, convert_to_tensor
from simdist.runtime.values import DistributedValues, Mirrored, PerReplica, regroup, select_replica
from simdist.semantics import broadcast
from simdist.semantics import reduce as reduce_rules
from simdist.semantics import replica_batch
from simdist.strategies import base as strategy_base
from simdist.strategies.base import Strategy, StrategyExtended, _local_results, _strip, run_update
from simdist.strategies import shared_variables, timing
from simdist.strategies.cross_device_ops import HierarchicalCopyAllReduce, NcclAllReduce, ReductionToOneDevice  # noqa: F401
from simdist.strategies.cross_device_ops import _AllReduceCrossDeviceOps, _all_devices_match, _devices, _devices_match
from simdist.runtime.indexed_slices import IndexedSlices
from simdist.strategies.dist_variables import MirroredVariable, update_context
from simdist.strategies.sync_on_read import SyncOnReadVariable

ALL_REDUCE_ALGORITHMS = ("ring", "reduce_to_one")


class MirroredExtended(StrategyExtended):

    _colocate_check = "distributed"   # (TF 2.21's _validate_colocate_with_variable, base._validate_colocate)
    # TF 2.21's CollectiveReduceV2 / CollectiveGatherV2 kernels (clause gather.dtypes)
    _collective_dtypes = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)
    _all_reduce_extra_dtypes = (dtypes.bfloat16,)

    # (clause reduce.same-object-leaves)
    _python_leaf_error = "dtype"
    _int32_batch_split = True
    _component_devices_read = "always"
    # (TF 2.21's MirroredExtended._reduce_to and CollectiveAllReduceExtended's: a mirrored value (a Mirrored, a
    # MirroredVariable) reduced with MEAN is returned as it is, every copy on its device; observed, dsweep55)
    _reduce_to_keeps_mirrored_mean = True

    def __init__(self, strategy: "MirroredStrategy", devices: tuple[str, ...], algorithm: str) -> None:
        super().__init__(strategy)
        self._devices = devices
        self._all_reduce_algorithm = algorithm
        # CollectiveAllReduce batches every leaf together; the other cross-device ops reduce leaf by leaf
        self._same_leaf_reduce = "all_or_nothing" if strategy._collective else "per_leaf"

    @property
    def worker_devices(self) -> tuple[str, ...]:
        return self._devices

    def check_packed(self, dense: Sequence[Any]) -> None:
        """NcclAllReduce's all-reduce on CPUs is an InvalidArgumentError (no kernel). TF 2.21's AllReduceCrossDeviceOps (HierarchicalCopyAllReduce, NcclAllReduce) with num_packs > 0: a
        batch all-reduce on several replicas (a nest's `all_reduce`, `batch_reduce_to` onto the values' own
        devices) flattens each device's dense values and concatenates them (`_ConcatAndSplitPacker.pack`), so
        values of two dtypes are ConcatV2's error: InvalidArgumentError eagerly, the graph's TypeError in a
        tf.function (observed; fz54d seed 54208 #3). `dense`: one replica's dense values, in batch order."""
        strategy = self._container_strategy
        if len(self._devices) < 2 or not dense:
            return
        if getattr(strategy, "_packs", 0) and len({getattr(v, "dtype", None) for v in dense}) > 1:
            from simdist.runtime.ops import array
            array.concat([array.reshape(convert_to_tensor(v), [-1]) for v in dense], 0)
        if getattr(strategy, "_nccl", False) and any("CPU" in d.upper() for d in self._devices) and \
                not any(getattr(v, "dtype", None) is dtypes.int32 for v in dense):
            # (NcclAllReduce's op has no CPU kernel: its all-reduce on CPUs fails, eagerly and in a tf.function,
            # observed on TF 2.21; int32 goes to ReductionToOneDevice, `reduce` onto a CPU too)
            from simdist.runtime import errors
            dt = getattr(dense[0], "dtype", dtypes.float32)
            raise errors.InvalidArgumentError(
                None, None, "No OpKernel was registered to support Op 'NcclAllReduce' used by {{node NcclAllReduce}} "
                f"with these attrs: [reduction=\"sum\", num_devices={len(self._devices)}, shared_name=\"c0\", "
                f"T=DT_{dt.name.upper()}]\nRegistered devices: [CPU]\nRegistered kernels:\n  <no registered kernels>\n\n"
                "\t [[NcclAllReduce]] [Op:__inference__all_reduce]")

    def batch_reduce_to(self, reduce_op: Any, value_destination_pairs: Sequence[Any], options: Any = None) -> list:
        """TF 2.21's MirroredExtended._batch_reduce_to (clause reduce.same-object-leaves): each value's
        `_get_cross_device_ops(value)` reads its dtype (a structure or a Python number is
        AttributeError; an int32 value beside another is ValueError); then CrossDeviceOps.batch_reduce
        returns values that are not distributed as they are (its one-value shortcut) and reduces a
        distributed variable from its components (a MirroredVariable's SUM adds its copies)."""
        strategy = self._container_strategy
        strategy._check_cross_replica_or_default()
        pairs = list(value_destination_pairs)
        values = [v for v, _ in pairs]
        for v in values:
            if not isinstance(v, DistributedValues) and not hasattr(v, "dtype"):
                raise AttributeError(f"'{type(v).__name__}' object has no attribute 'dtype'")
        replica_batch.check_leaves([v.values[0] if isinstance(v, DistributedValues) else v for v in values],
                                   None, True, True)
        for _, d in pairs:   # (CrossDeviceOps.batch_reduce validates each destination first)
            replica_batch.validate_destinations(d)
        plain = [not isinstance(v, DistributedValues) for v in values]
        if all(plain):
            return values
        if self._same_leaf_reduce == "all_or_nothing":   # (CollectiveAllReduce's batch)
            if any(plain):   # (its per-device inputs are built before any collective op)
                raise IndexError("tuple index out of range")
            self._check_collective_dtypes("all_reduce", [v.values[0] for v in values])
        if not any(plain) and _all_devices_match(pairs):   # (the all-reduce path: its pack)
            self.check_packed([v.values[0] for v in values if not isinstance(v.values[0], IndexedSlices)])
        op = reduce_rules.parse_reduce_op(reduce_op)
        ring = self._ring_reduce()
        # (CollectiveAllReduce.batch_reduce_implementation: when every value's devices match its destination's and
        # the first value's, the batch is one all-reduce whose results sit on the collective's devices, one per
        # replica, whatever devices the inputs and destinations named — a destination "/cpu:0" beside values on
        # /cpu:0 included; jsweep60, clause extended.reduce-to)
        on_devices = (self._same_leaf_reduce == "all_or_nothing" and len(self._devices) > 1 and not any(plain)
                      and _all_devices_match(pairs))
        # (HierarchicalCopyAllReduce, AllReduceCrossDeviceOps.batch_reduce_implementation: when every value's devices
        # match its destination's and the first value's, one batch all-reduce in its two device groups whose results
        # are copies on each value's component devices (a Mirrored); else each pair alone, all-reduced only onto
        # matching devices none of which is a CPU, otherwise ReductionToOneDevice's AddN; clause
        # extended.cross-device-ops, rsweep61)
        hier_batch = ring == "hierarchical" and not any(plain) and _all_devices_match(pairs)
        # (CollectiveAllReduce._all_reduce_per_replica_values in a tf.function: the batch is one `_all_reduce`, whose
        # dense values, reversed and grouped by bytes_per_pack, ring as one concatenation per pack; eagerly each
        # value alone: clause reduce.ring-order, fix61d)
        packed = strategy_base._ring_packs(
            op, [list(_as_per_replica(v).values if isinstance(v, variables.Variable) else v.values) for v in values],
            int(getattr(options, "bytes_per_pack", 0) or 0)) \
            if strategy_base.RING_PACKS and on_devices and ring is True and context.in_function() else {}
        out = []
        for k, ((v, d), is_plain) in enumerate(zip(pairs, plain)):
            if is_plain:
                out.append(v)
                continue
            if k in packed:
                out.append(Mirrored([strategy_base._place(packed[k], dv) for dv in self._devices]))
                continue
            given = v
            if isinstance(v, variables.Variable):   # (a distributed variable: its copies, as values)
                v = _as_per_replica(v)
            pair_ring = ring
            if ring == "hierarchical" and not hier_batch:
                pair_ring = "hierarchical" if _devices_match(v, d) and not any(
                    "cpu" in x.lower() for x in _devices(d)) else False
            r = self._reduce_to(op, v, d, pair_ring)
            if on_devices and not isinstance(v.values[0], IndexedSlices):
                first = r.values[0] if isinstance(r, Mirrored) else r
                if isinstance(first, Tensor):
                    r = Mirrored([Tensor(first._v, first.dtype, dv) for dv in self._devices])
            if ring is True and not on_devices and len(self._devices) > 1 and _devices_match(given, d) and \
                    not isinstance(v.values[0], IndexedSlices):
                # (CollectiveAllReduce.batch_reduce_implementation when the pairs' devices differ: each pair alone by
                # reduce_implementation, whose all-reduce result stays on the value's devices when its destination's
                # match them: a copy on each of the collective's devices, wherever the components were made;
                # clause extended.reduce-to, dsweep63)
                first = r.values[0] if isinstance(r, Mirrored) else r
                if isinstance(first, Tensor):
                    r = Mirrored([Tensor(first._v, first.dtype, dv) for dv in self._devices])
            if hier_batch and not isinstance(v.values[0], IndexedSlices) and \
                    getattr(v.values[0], "dtype", None) is not dtypes.int32:
                first = r.values[0] if isinstance(r, Mirrored) else r
                if isinstance(first, Tensor):
                    r = Mirrored([Tensor(first._v, first.dtype, getattr(c, "device", None) or first.device)
                                  for c in v.values])
            out.append(r)
        return out

    # StrategyExtendedV1 methods (clause extended.v1-methods), MirroredExtended's values
    experimental_should_init = True
    experimental_between_graph = False

    @property
    def worker_devices_by_replica(self) -> list[list[str]]:
        return [[d] for d in self._devices]

    def non_slot_devices(self, var_list: Any) -> tuple[str, ...]:
        return self._devices

    def read_var(self, v: Any) -> Any:
        """A sync-on-read variable's cross-replica value; a MirroredVariable's primary copy (an
        identity); anything else is TF's AssertionError."""
        if isinstance(v, SyncOnReadVariable):
            return v._cross_replica_value()
        if not isinstance(v, DistributedValues):   # (is_mirrored asks the value's `_is_mirrored()`)
            raise AttributeError(f"'{type(v).__name__}' object has no attribute '_is_mirrored'")
        if not isinstance(v, MirroredVariable):
            raise AssertionError()
        # (TF: array_ops.identity(v._get()), the identity on the caller's device: dsweep55, function.output-device)
        return broadcast.copy_to_device(convert_to_tensor(v.values[0]), context.current_device())

    def _broadcast_to(self, tensor: Any, destinations: Any) -> Any:
        """MirroredExtended._broadcast_to (clause extended.broadcast-to): a Python number as it is
        (so an int meets an int64 variable unconverted), an empty destination means every device
        (a tuple: validate_destinations' ValueError); `_get_cross_device_ops(tensor)` reads the
        value's dtype first (None is AttributeError)."""
        if isinstance(tensor, (float, int)):
            return tensor
        if not destinations:
            destinations = self._devices
        # (a distributed value delegates the attribute to its primary component)
        first = tensor.values[0] if isinstance(tensor, DistributedValues) else tensor
        if not hasattr(first, "dtype"):
            raise AttributeError(f"'{type(first).__name__}' object has no attribute 'dtype'")
        return self._simple_broadcast(tensor, destinations)

    def _ring_reduce(self) -> bool | str:
        # TF 2.21 (mirrored_strategy.py _make_collective_ops_with_fallbacks): without cross_device_ops,
        # CollectiveAllReduce with the RING implementation when every device is a CPU; with
        # HierarchicalCopyAllReduce, its two device groups (clause extended.cross-device-ops: "hierarchical")
        if getattr(self._container_strategy, "_hierarchical", False) and len(self._devices) > 1:
            return "hierarchical"
        return self._container_strategy._collective and all(":CPU:" in d for d in self._devices)

    @property
    def parameter_devices(self) -> tuple[str, ...]:
        return self._devices

    @property
    def experimental_enable_get_next_as_optional(self) -> bool:
        return True

    @property
    def _num_replicas(self) -> int:
        return len(self._devices)

    def _create_variable(self, **kwargs: Any) -> Any:
        """A new mirrored variable, or inside `strategy.run` replica 0's (shared_variables.py)."""
        return shared_variables.created(kwargs, lambda: self._new_variable(**kwargs))

    def _new_variable(self, **kwargs: Any) -> Any:
        """Clause mirrored.variables: one copy per device, named `v`, `v/replica_1`, ...; a
        MirroredVariable, or a SyncOnReadVariable for synchronization=ON_READ (clause
        mirrored.sync-on-read). AUTO means ON_WRITE; NONE is refused, as in TF 2.21."""
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
        base = variables._scoped_name(name)   # (TF: the other copies' names are absolute, "<copy 0's>/replica_i/")
        comps = [variables.ResourceVariable(init, name=name if i == 0 else f"{base}/replica_{i}/", device=d,
                                            aggregation=agg, synchronization=sync, **kw)
                 for i, d in enumerate(self._devices)]
        if sync is variables.VariableSynchronization.ON_READ:
            return SyncOnReadVariable(comps, self._container_strategy, agg)
        if len(comps) == 1:
            comps[0]._distribute_strategy = self._container_strategy
        return MirroredVariable(comps, self._container_strategy, agg)


    def _update(self, var: Any, fn: Any, args: tuple, kwargs: dict, group: bool) -> Any:
        """Clause optim.update: fn on each copy of a mirrored variable, on its device, with the
        replica's component of each distributed argument; other mirrored variables it touches
        are read and written at the same copy (TF's UpdateContext)."""
        if not isinstance(var, DistributedValues):
            raise AssertionError(f"MirroredStrategy can only update its own (mirrored) variables, got {var!r}")
        updates, work = [], []
        for i, v in enumerate(var.values):
            with update_context(i):
                out, flops = run_update(v.device, fn, v, *select_replica(i, args), **select_replica(i, kwargs))
            updates.append(out)
            work.append((v.device, flops))
        timing.charge_updates(work)      # (each copy's update on its device, in parallel)
        if not group:
            return _local_results(regroup(updates))
        if all(u is None for u in updates):
            return None
        # TF's update_regroup: regrouped leaf by leaf; a leaf every copy returned as the same object
        # stays that object, the others are Mirrored; one copy's result is returned as it is (regroup without
        # always_wrap: a MirroredStrategy of one device gives the tensor or the copy's variable, TF 2.21
        # observed eagerly, in a tf.function, in merge_call and in run)
        return _mirror_leaves(regroup(updates))


    def _update_non_slot(self, colocate_with: Any, fn: Any, args: tuple, kwargs: dict, group: bool) -> Any:
        """MirroredExtended._update_non_slot (TF 2.21; MultiWorkerMirrored's too): `colocate_with` a tuple of
        devices (anything else: AssertionError), fn once on each under the update context of its index (a
        mirrored variable's copy i read and written), with the i-th component of each distributed argument;
        the results regrouped as `_update`'s (distribute_utils.update_regroup)."""
        if not isinstance(colocate_with, tuple):
            raise AssertionError()
        from simdist.strategies.dist_variables import update_context
        updates, work = [], []
        for i, d in enumerate(colocate_with):
            d = session.canonical(d)
            a, kw = select_replica(i, args), select_replica(i, kwargs)   # (the i-th component of each argument)
            with update_context(i):
                out, flops = run_update(d, fn, *a, **kw)
            updates.append(out)
            work.append((d, flops))
        timing.charge_updates(work)
        if not group:
            return _local_results(regroup(updates))
        if all(u is None for u in updates):
            return None
        return _mirror_leaves(regroup(updates))

def _as_per_replica(var: Any) -> PerReplica:
    """A distributed variable's copies as a PerReplica of their values (reduced as any other)."""
    return PerReplica([c.read_value() for c in var.values])


def _mirror_leaves(value: Any) -> Any:
    """PerReplica leaves of a regrouped update result made Mirrored (structures kept). With several copies TF's
    update_regroup makes each value a tf.identity grouped after every update, so the copies' UnreadVariables become
    tensors; one copy's stays as it is (`_make_grouped_mirrored`)."""
    if isinstance(value, DistributedValues):
        if type(value).__name__ != "PerReplica":
            return value
        vals = value.values
        if len(vals) > 1:
            vals = tuple(v.read_value() if isinstance(v, variables._UnreadVariable) else v for v in vals)
        return Mirrored(vals)
    if isinstance(value, dict):
        return type(value)((k, _mirror_leaves(v)) for k, v in value.items())
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*[_mirror_leaves(v) for v in value])
    if isinstance(value, (list, tuple)):
        return type(value)(_mirror_leaves(v) for v in value)
    return value


class MirroredStrategy(Strategy):
    """Synchronous replicas on the given devices (default: every GPU, else every CPU)."""

    _mirrored_run = True   # (TF: its run is mirrored_run's, a MirroredReplicaContext per replica)

    def __init__(self, devices: Sequence[str] | None = None, cross_device_ops: Any = None) -> None:
        if devices:
            devs = [session.canonical(d) for d in devices]
            if len(set(devs)) != len(devs):
                raise AssertionError(f"No duplicates allowed in `devices` argument: {tuple(devices)}")
            for d in devs:
                if not session.logical_exists(d):
                    raise ValueError(f"MirroredStrategy: unknown device {d!r}; this machine has "
                                     f"{[x.name for x in session.list_logical_devices()]}")
        else:
            gpus, cpus = session.local_compute_devices()
            devs = gpus or cpus
        algorithm = getattr(cross_device_ops, "algorithm", "ring") if cross_device_ops is not None else "ring"
        if isinstance(cross_device_ops, str):
            algorithm = cross_device_ops
        if algorithm not in ALL_REDUCE_ALGORITHMS:
            raise ValueError(f"cross_device_ops={cross_device_ops!r}: unknown all-reduce algorithm; "
                             f"simdist models {list(ALL_REDUCE_ALGORITHMS)}")
        self._devs = tuple(devs)
        self._algorithm = algorithm
        # TF 2.21: without cross_device_ops, MirroredStrategy uses CollectiveAllReduce (gather too)
        self._collective = cross_device_ops is None
        # (HierarchicalCopyAllReduce / NcclAllReduce with num_packs > 0 pack a batch's dense values into one
        # concatenation: MirroredExtended.check_packed)
        self._packs = int(cross_device_ops.num_packs or 0) \
            if isinstance(cross_device_ops, _AllReduceCrossDeviceOps) else 0
        self._nccl = isinstance(cross_device_ops, NcclAllReduce)
        # (HierarchicalCopyAllReduce's all-reduce and batch_reduce_to add in its two device groups: reduce.py
        # hierarchical_sum; strategy.reduce and reduce_to take ReductionToOneDevice's AddN)
        self._hierarchical = isinstance(cross_device_ops, HierarchicalCopyAllReduce)
        Strategy.__init__(self)
        # (TF builds its CollectiveAllReduce whatever cross_device_ops is: each device's ordering token)
        scalar_cache.collective_tokens(self._devs)

    def _gather_is_collective(self) -> bool:
        return self._collective

    def _reduce_structure(self, op: Any, value: Any, ring: bool | str = False) -> Any:
        """Clause reduce.nested: MirroredStrategy reduces a nested structure leaf by leaf (TF's
        MirroredExtended._reduce_to maps over it)."""
        return nest.map_structure(lambda v: self._reduce_no_axis(op, v, ring, leaf=True), value)

    def _make_extended(self) -> MirroredExtended:
        return MirroredExtended(self, self._devs, self._algorithm)
