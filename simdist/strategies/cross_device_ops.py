"""`tf.distribute.CrossDeviceOps` and its three public kinds (TF 2.21's cross_device_ops.py, clause
extended.cross-device-ops): how a MirroredStrategy combines per-replica values, and an API of its
own: `reduce`, `batch_reduce` and `broadcast` onto destinations (a device string, a variable or a
distributed value).

Values follow TF's code path: a value that is not distributed becomes a one-value PerReplica; one
value already on the destination's devices is copied there (the shortcut); otherwise the
implementation runs. ReductionToOneDevice sums with AddN's order on one device (the destination's
first, or `reduce_to_device`), divides for MEAN, then broadcasts; NcclAllReduce and
HierarchicalCopyAllReduce all-reduce when the value's devices are the destination's (for `reduce`, none of
them a CPU) and else reduce to one device (on TF 2.21's CPUs their sums agree with AddN's left-to-right order: observed
on three replicas whose sums round differently in any other order). `algorithm` is simdist's: the
simulated collective a MirroredStrategy built with the object times (strategies/mirrored.py)."""

from __future__ import annotations

from typing import Any, Sequence

from simdist import session
from simdist.runtime.indexed_slices import IndexedSlices
from simdist.runtime.tensor import convert_to_tensor
from simdist.runtime.values import DistributedValues, Mirrored, PerReplica
from simdist.semantics import broadcast, replica_batch
from simdist.semantics.reduce import ReduceOp


def _as_per_replica(value: Any) -> DistributedValues:
    """TF's _make_tensor_into_per_replica: a distributed value as it is, else a one-value PerReplica."""
    if isinstance(value, DistributedValues):
        return value
    return PerReplica([value if isinstance(value, IndexedSlices) else convert_to_tensor(value)])


def _devices(x: Any) -> tuple[str, ...]:
    return replica_batch.devices_of(x, lambda n: session.canonical(n or ""))


def _devices_match(left: Any, right: Any) -> bool:
    return left is right or set(_devices(left)) == set(_devices(right))


def _all_devices_match(pairs: Sequence[tuple[Any, Any]]) -> bool:
    return all(_devices_match(v, d) for v, d in pairs) and all(_devices_match(v, pairs[0][0]) for v, _ in pairs[1:])


def _regroup(values: Sequence[Any]) -> Any:
    return values[0] if len(values) == 1 else Mirrored(list(values))


class CrossDeviceOps:
    """The base class: its `reduce_implementation` and `batch_reduce_implementation` raise
    NotImplementedError (a strategy's own reduce does not call them); `broadcast` copies."""

    def __init__(self) -> None:
        self._canonicalize_devices = True

    @property
    def _num_between_graph_workers(self) -> int:
        return 1

    def reduce(self, reduce_op: Any, per_replica_value: Any, destinations: Any, options: Any = None) -> Any:
        """`per_replica_value` reduced with `reduce_op` (a tf.distribute.ReduceOp) onto `destinations`."""
        value = _as_per_replica(per_replica_value)
        replica_batch.validate_destinations(destinations)
        if len(value.values) == 1 and _devices_match(value, destinations):
            return broadcast.copy_to_device(value.values[0])   # (TF: an identity on the value's device)
        return self.reduce_implementation(reduce_op, value, destinations, options)

    def batch_reduce(self, reduce_op: Any, value_destination_pairs: Any, options: Any = None) -> list[Any]:
        """`reduce` of each (value, destinations) pair."""
        pairs = replica_batch.normalize_pairs(value_destination_pairs, convert_to_tensor)
        for _, d in pairs:
            replica_batch.validate_destinations(d)
        if _all_devices_match(pairs) and len(pairs[0][0].values) == 1:
            return [_regroup(v.values) for v, _ in pairs]
        return self.batch_reduce_implementation(reduce_op, pairs, options)

    def broadcast(self, tensor: Any, destinations: Any) -> Any:
        """A copy of `tensor` on each device of `destinations` (one device: the copy; several: Mirrored)."""
        replica_batch.validate_destinations(destinations)
        return self.broadcast_implementation(tensor, destinations)

    def reduce_implementation(self, reduce_op: Any, per_replica_value: Any, destinations: Any, options: Any) -> Any:
        raise NotImplementedError("_reduce method must be implemented in descendants.")

    def batch_reduce_implementation(self, reduce_op: Any, value_destination_pairs: Any, options: Any) -> list[Any]:
        raise NotImplementedError("batch_reduce_implementation method must be implemented in descendants.")

    def broadcast_implementation(self, tensor: Any, destinations: Any) -> Any:
        return broadcast.simple_broadcast(tensor, _devices(destinations))


def _simple_reduce(reduce_op: Any, value: DistributedValues, device: str) -> Any:
    """TF's _simple_reduce: AddN of the components (IndexedSlices: their rows gathered) on `device`,
    divided by their count for MEAN; any other op is ValueError."""
    from simdist.strategies.base import _reduce_axis_none, _reduce_slices   # (the strategies' reduce rules)
    if not value.values:
        raise ValueError("`per_replica_value` must be non-empty")
    if reduce_op not in (ReduceOp.SUM, ReduceOp.MEAN):
        raise ValueError("`reduce_op` must be Reduce.SUM or Reduce.MEAN.")
    comps = list(value.values)
    if any(isinstance(c, IndexedSlices) for c in comps):
        return broadcast.copy_to_device(_reduce_slices(reduce_op, comps), device)
    return _reduce_axis_none(reduce_op, comps, device)


class ReductionToOneDevice(CrossDeviceOps):
    """`tf.distribute.ReductionToOneDevice(reduce_to_device=None, accumulation_fn=None)`: every
    replica's value summed on one device, then broadcast to the destinations."""

    algorithm = "reduce_to_one"

    def __init__(self, reduce_to_device: str | None = None, accumulation_fn: Any = None) -> None:
        super().__init__()
        self.reduce_to_device = reduce_to_device
        self.accumulation_fn = accumulation_fn

    def reduce_implementation(self, reduce_op: Any, per_replica_value: Any, destinations: Any, options: Any) -> Any:
        devices = _devices(destinations) if broadcast.check_destinations(destinations) else _devices(per_replica_value)
        reduced = _simple_reduce(reduce_op, per_replica_value, self.reduce_to_device or devices[0])
        return self.broadcast(reduced, destinations)

    def batch_reduce_implementation(self, reduce_op: Any, value_destination_pairs: Any, options: Any) -> list[Any]:
        return [self.reduce_implementation(reduce_op, v, d, options) for v, d in value_destination_pairs]


class _AllReduceCrossDeviceOps(CrossDeviceOps):
    """TF's AllReduceCrossDeviceOps: an all-reduce when the values' devices are the destinations'."""

    algorithm = "ring"

    def __init__(self, num_packs: int = 1) -> None:
        super().__init__()
        self.num_packs = num_packs
        self._simple_cross_replica_ops = ReductionToOneDevice()

    def _all_reduce(self, reduce_op: Any, value: DistributedValues) -> Any:
        devices = _devices(value)
        reduced = _simple_reduce(reduce_op, value, devices[0])
        return _regroup([broadcast.copy_to_device(reduced, d) for d in devices])

    def reduce_implementation(self, reduce_op: Any, per_replica_value: Any, destinations: Any, options: Any) -> Any:
        # (TF 2.21: "To use NCCL or all-reduce, source and destination devices should match, and none of the
        # devices should be CPU" -- `reduce` onto CPU destinations takes ReductionToOneDevice, one tensor for one
        # device; batch_reduce has no CPU check: its all-reduce gives a Mirrored value; open45)
        if _devices_match(per_replica_value, destinations) and \
                not any("cpu" in d.lower() for d in _devices(destinations)):
            return self._all_reduce(reduce_op, per_replica_value)
        return self._simple_cross_replica_ops.reduce(reduce_op, per_replica_value, destinations)

    def batch_reduce_implementation(self, reduce_op: Any, value_destination_pairs: Any, options: Any) -> list[Any]:
        if _all_devices_match(value_destination_pairs):
            return [self._all_reduce(reduce_op, v) for v, _ in value_destination_pairs]
        return [self.reduce_implementation(reduce_op, v, d, options) for v, d in value_destination_pairs]


class HierarchicalCopyAllReduce(_AllReduceCrossDeviceOps):
    """`tf.distribute.HierarchicalCopyAllReduce(num_packs=1)` (simulated as a ring all-reduce). Its all-reduce adds
    the values in two device groups (semantics/reduce.py `hierarchical_sum`: an odd last device's value is left
    out), int32 and IndexedSlices as ReductionToOneDevice (clause extended.cross-device-ops)."""

    def _all_reduce(self, reduce_op: Any, value: DistributedValues) -> Any:
        comps = list(value.values)
        if len(comps) < 2 or reduce_op not in (ReduceOp.SUM, ReduceOp.MEAN) or \
                any(isinstance(c, IndexedSlices) for c in comps):
            return super()._all_reduce(reduce_op, value)
        from simdist.strategies.base import _reduce_axis_none   # (the strategies' reduce rules)
        devices = _devices(value)
        reduced = _reduce_axis_none(reduce_op, comps, devices[0], ring="hierarchical")
        return _regroup([broadcast.copy_to_device(reduced, d) for d in devices])


class NcclAllReduce(_AllReduceCrossDeviceOps):
    """`tf.distribute.NcclAllReduce(num_packs=1)`: a ring all-reduce on the simulated cluster."""
