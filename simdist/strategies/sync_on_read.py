"""SyncOnReadVariable: what MirroredStrategy makes of `tf.Variable(..., synchronization=ON_READ)`
(TF 2.21's values.SyncOnReadVariable and values_util.on_read_assign_*; Keras's metric variables
are such variables). Clause mirrored.sync-on-read in docs/spec.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.tensor import Tensor, convert_to_tensor
from simdist.runtime.values import DistributedValues, PerReplica
from simdist.runtime.variables import ResourceVariable, Variable, VariableAggregation, VariableSynchronization
from simdist.semantics.reduce import ReduceOp
from simdist.strategies.dist_variables import NoNumberProtocol, _replica_id, _update_state, check_mean_dtype


class SyncOnReadVariable(NoNumberProtocol, DistributedValues, Variable):
    """MirroredStrategy's variable for `synchronization=ON_READ` (TF 2.21's values.py): one copy
    per replica, never synchronised on write. In a replica context reads and writes touch the
    replica's own copy only; in cross-replica context a read reduces the copies by the
    aggregation (SUM, MEAN; ONLY_FIRST_REPLICA reads copy 0; NONE cannot be read there), and
    `assign` writes every copy, a SUM variable's value divided by the number of replicas so the
    summed read gives it back (what checkpoint restore relies on). `assign_add`/`assign_sub` of
    a SUM variable in cross-replica context raise ValueError, as TF's do. Keras's metric
    variables are of this kind (clause mirrored.sync-on-read)."""

    def __bool__(self) -> bool:
        # (TF's DistributedVariable has no __bool__: any Python object is true)
        return True

    def __init__(self, components: list[ResourceVariable], strategy: Any, aggregation: Any) -> None:
        check_mean_dtype(components, aggregation)
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
    synchronization = property(lambda self: VariableSynchronization.ON_READ)

    @property
    def distribute_strategy(self) -> Any:
        return self._distribute_strategy

    def _local_id(self) -> int | None:
        """The copy a replica-context access touches (or the one extended.update is updating),
        else None (cross-replica context)."""
        rid = _replica_id(self._distribute_strategy)
        if rid is None:
            rid = _update_state.replica
        if rid is None:
            return None
        return rid if rid < len(self._values) else 0

    @property
    def device(self) -> str:
        rid = self._local_id()
        return self._values[0 if rid is None else rid].device

    def _cross_replica_value(self) -> Tensor:
        """TF's _get_cross_replica: the copies reduced by the aggregation (a strategy.reduce)."""
        agg = self.aggregation
        if agg == VariableAggregation.ONLY_FIRST_REPLICA:
            return self._values[0]._as_tensor()
        if agg not in (VariableAggregation.SUM, VariableAggregation.MEAN):
            raise ValueError(f"Could not convert from `tf.VariableAggregation` {agg} to"
                             "`tf.distribute.ReduceOp` type")
        reads = PerReplica([c._as_tensor() for c in self._values])
        return self._distribute_strategy.reduce(ReduceOp.from_variable_aggregation(agg), reads, axis=None)

    def _as_tensor(self) -> Tensor:
        rid = self._local_id()
        if rid is None:
            return self._cross_replica_value()
        return self._values[rid]._as_tensor()

    def sparse_read(self, indices: Any, name: Any = None) -> Tensor:
        """TF 2.21's bare AttributeError, as MirroredVariable's (clause mirrored.sync-on-read)."""
        raise AttributeError

    def _gather_value_rows(self, indices: Any) -> Tensor:
        """tf.gather's rows: of this replica's copy, or of the aggregate in cross-replica context."""
        rid = self._local_id()
        if rid is None:
            from simdist.runtime.ops import array
            return array.gather(self._cross_replica_value(), indices)
        return self._values[rid].sparse_read(indices)

    # Writes ----------------------------------------------------------------------------------------
    def _write(self, method: str, value: Any, read_value: bool) -> Any:
        rid = self._local_id()
        if rid is not None:
            local = self._values[rid]
            # (the component's _UnreadVariable, a PerReplica when regrouped; with read_value=False its assign's
            # result: an Operation in a tf.function, dsweep55)
            return getattr(local, method)(value, read_value=read_value)
        agg = self.aggregation
        if method != "assign" and agg == VariableAggregation.SUM:
            raise ValueError(f"SyncOnReadVariable does not support `{method}` in cross-replica context when "
                             "aggregation is set to `tf.VariableAggregation.SUM`.")
        if method == "assign" and agg == VariableAggregation.SUM:
            # TF: math_ops.cast(value / num_replicas_in_sync, var.dtype) (Python numbers divide in Python)
            n = self._distribute_strategy.num_replicas_in_sync
            if isinstance(value, (int, float)):
                # (cast's Python float is a float32 tensor first: 3 / 2 is 1 of an int32 variable, 0.1 / 2 a
                # float64 variable's float32-rounded 0.05, True / 2 a bool variable's True; vsweep66)
                from simdist.runtime.ops import math
                value = math.cast(convert_to_tensor(value / n), self.dtype)
            elif isinstance(value, (list, tuple)):
                # TF's Python `value / num_replicas_in_sync` on the value as given (values_util.py)
                raise TypeError(f"unsupported operand type(s) for /: '{type(value).__name__}' and 'int'")
            elif isinstance(value, (np.ndarray, np.generic)):
                from simdist.runtime.ops import math
                value = math.cast(convert_to_tensor(value / n), self.dtype)   # NumPy's division, then the cast
            else:
                from simdist.runtime.ops import math
                t = convert_to_tensor(value)
                value = math.cast(math.truediv(t, n), self.dtype)
        for c in self._values:
            getattr(c, method)(value)
        if not read_value:
            return None
        # (TF's assign_on_each_device returns var.read_value(): an identity on the caller's device, so an
        # ONLY_FIRST_REPLICA variable's first copy read under tf.device("/cpu:1") is on CPU:1; dsweep55)
        from simdist.runtime import context
        from simdist.runtime.call_outputs import placed
        return placed(self._cross_replica_value(), context.current_device())

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

    def scatter_mul(self, *args: Any, **kwargs: Any) -> Any:
        return self._scatter_not_implemented("scatter_mul")

    def scatter_div(self, *args: Any, **kwargs: Any) -> Any:
        return self._scatter_not_implemented("scatter_div")

    def scatter_min(self, *args: Any, **kwargs: Any) -> Any:
        return self._scatter_not_implemented("scatter_min")

    def scatter_max(self, *args: Any, **kwargs: Any) -> Any:
        return self._scatter_not_implemented("scatter_max")

    def scatter_update(self, *args: Any, **kwargs: Any) -> Any:
        return self._scatter_not_implemented("scatter_update")

    __hash__ = object.__hash__

    def __reduce__(self):  # pickles as its (cross-replica) value
        return (convert_to_tensor, (self._cross_replica_value()._v,))
