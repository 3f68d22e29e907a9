"""SyncOnReadVariable: what MirroredStrategy makes of `tf.Variable(..., synchronization=ON_READ)`
(TF's values.SyncOnReadVariable; Keras's metric variables are such variables).

One ResourceVariable per replica device. In a replica context of its strategy, reads and writes
touch the replica's own copy only (no communication). In cross-replica context a read reduces
the copies by the variable's aggregation (SUM adds, MEAN averages, ONLY_FIRST_REPLICA takes copy
0) with `strategy.reduce`; `assign` writes every copy (a SUM variable gets value/num_replicas on
each, so that the sum is preserved); `assign_add`/`assign_sub` write every copy, and raise
ValueError for a SUM variable, as TF's values_util.on_read_assign_*_cross_replica do.
Clause mirrored.sync-on-read in docs/spec.md.
"""

from __future__ import annotations

from typing import Any

from simdist.runtime.tensor import Tensor, convert_to_tensor
from simdist.runtime.values import DistributedValues
from simdist.runtime.variables import ResourceVariable, Variable, VariableAggregation
from simdist.semantics.reduce import ReduceOp
from simdist.strategies.dist_variables import _replica_id


class SyncOnReadVariable(DistributedValues, Variable):
    """Per-replica copies, reduced when read in cross-replica context."""

    __slots__ = ("_distribute_strategy", "aggregation", "__weakref__", "__dict__")

    def __init__(self, components: list[ResourceVariable], strategy: Any, aggregation: Any) -> None:
        DistributedValues.__init__(self, components)
        for c in components:
            c._distributed_container = self
        self._distribute_strategy = strategy
        self.aggregation = aggregation

    @property
    def _primary(self) -> ResourceVariable:
        return self._values[0]

    name = property(lambda self: self._primary.name)
    dtype = property(lambda self: self._primary.dtype)
    shape = property(lambda self: self._primary.shape)
    trainable = property(lambda self: self._primary.trainable)
    nbytes = property(lambda self: self._primary.nbytes)
    synchronization = property(lambda self: self._primary.synchronization)

    @property
    def distribute_strategy(self) -> Any:
        return self._distribute_strategy

    @property
    def device(self) -> str:
        rid = _replica_id(self._distribute_strategy)
        return self._values[rid if rid is not None and rid < len(self._values) else 0].device

    def _local_copy(self) -> ResourceVariable | None:
        """The replica's own copy in a replica context of the strategy, else None."""
        rid = _replica_id(self._distribute_strategy)
        if rid is None:
            return None
        return self._values[rid] if rid < len(self._values) else self._values[0]

    def _cross_replica_value(self) -> Tensor:
        if self.aggregation is VariableAggregation.ONLY_FIRST_REPLICA:
            return self._values[0]._as_tensor()
        if self.aggregation is VariableAggregation.NONE:
            raise ValueError("Could not convert from `tf.VariableAggregation` VariableAggregation.NONE to"
                             "`tf.distribute.ReduceOp` type")
        with self._distribute_strategy.scope():
            return self._distribute_strategy.reduce(ReduceOp.from_variable_aggregation(self.aggregation),
                                                    self, axis=None)

    def _as_tensor(self) -> Tensor:
        local = self._local_copy()
        return local._as_tensor() if local is not None else self._cross_replica_value()

    def sparse_read(self, indices: Any, name: Any = None) -> Tensor:
        local = self._local_copy()
        if local is not None:
            return local.sparse_read(indices)
        from simdist.runtime import ops
        return ops.gather(self._cross_replica_value(), indices)

    def _write(self, method: str, value: Any, read_value: bool) -> Any:
        local = self._local_copy()
        if local is not None:
            getattr(local, method)(value)
            return self if read_value else None
        if method in ("assign_add", "assign_sub") and self.aggregation is VariableAggregation.SUM:
            raise ValueError(f"SyncOnReadVariable does not support `{method}` in cross-replica context when "
                             "aggregation is set to `tf.VariableAggregation.SUM`.")
        t = convert_to_tensor(value)
        if method == "assign" and self.aggregation is VariableAggregation.SUM:
            from simdist.runtime import ops
            t = ops.cast(t / self._distribute_strategy.num_replicas_in_sync, self.dtype)
        for comp in self._values:
            getattr(comp, method)(t)
        return self if read_value else None

    def assign(self, value: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        return self._write("assign", value, read_value)

    def assign_add(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        return self._write("assign_add", delta, read_value)

    def assign_sub(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        return self._write("assign_sub", delta, read_value)

    def _scatter_not_implemented(self, method: str) -> Any:
        raise NotImplementedError(f"Variables with `synchronization=ON_READ` doesn't support `{method}`")

    def scatter_add(self, *args: Any, **kwargs: Any) -> Any:
        return self._scatter_not_implemented("scatter_add")

    def scatter_sub(self, *args: Any, **kwargs: Any) -> Any:
        return self._scatter_not_implemented("scatter_sub")

    def scatter_update(self, *args: Any, **kwargs: Any) -> Any:
        return self._scatter_not_implemented("scatter_update")

    __hash__ = object.__hash__

    def __reduce__(self):  # pickles as its (cross-replica) value
        return (convert_to_tensor, (self._cross_replica_value()._v,))
