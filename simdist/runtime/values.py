"""Distributed values: one component per replica (PerReplica) or identical ones (Mirrored)."""

from __future__ import annotations

from typing import Any, Sequence


class DistributedValues:
    """Base of values with one component per replica, in replica order (`tf.distribute.DistributedValues`)."""

    __slots__ = ("_values",)

    def __init__(self, values: Sequence[Any]) -> None:
        self._values = tuple(values)

    @property
    def values(self) -> tuple[Any, ...]:
        return self._values

    def _get_replica(self, i: int) -> Any:
        return self._values[i]

    def __len__(self) -> int:  # not in TF's API, handy for helpers
        return len(self._values)

    def __repr__(self) -> str:
        body = ",\n".join("  %d: %r" % (i, v) for i, v in enumerate(self._values))
        return "%s:{\n%s\n}" % (type(self).__name__, body)

    def __str__(self) -> str:
        body = ",\n".join("  %d: %s" % (i, v) for i, v in enumerate(self._values))
        return "%s:{\n%s\n}" % (type(self).__name__, body)

    def __reduce__(self):
        return (type(self), (self._values,))


def _replica_id_now() -> int | None:
    """values_util.get_current_replica_id_as_int: the replica context's replica id (the default strategy's is 0),
    None in cross-replica context."""
    from simdist.runtime import context
    rc = context.get_replica_context()
    if rc is None:
        return None
    rid = getattr(rc, "_replica_id", 0)
    return rid if isinstance(rid, int) else 0


def _traced(cls: type, text: str) -> BaseException:
    """cls(text), marked (in a tf.function) as raised while TF builds the graph: AutoGraph's "in user code:" frame."""
    from simdist.runtime import context
    err = cls(text)
    if context.in_function():
        from simdist.runtime.ops import trace_errors
        trace_errors.static(err, cls, text)
    return err


_PER_REPLICA_OUTSIDE = ("It looks like you are using a PerReplica object while not inside a replica context, which is "
                        "not supported. Try running your op or function inside a replica context by using "
                        "`strategy.run`")


class PerReplica(DistributedValues):
    """Different values on each replica (TF's `PerReplica`)."""

    __slots__ = ()

    def _distributed_to_tensor(self, dtype: Any, dtype_hint: Any, name: Any) -> Any:
        """TF 2.21's conversion function of a PerReplica (values.py `_per_replica_to_tensor`; clause
        values.per-replica-conversion): a dtype asked (an op's later input, a dtype_hint: the registry tries the
        hint as a dtype) reads the PerReplica's `.dtype`, which it has not (AttributeError); in cross-replica
        context or without a strategy ValueError; in a replica context the component of the current replica."""
        from simdist.runtime import context
        if dtype is not None or dtype_hint is not None:
            raise _traced(AttributeError, "'PerReplica' object has no attribute 'dtype'")
        if context.in_cross_replica_context() or not context.has_strategy():
            raise _traced(ValueError, _PER_REPLICA_OUTSIDE)
        rid = _replica_id_now()
        return self._values[0 if rid is None else rid]


class Mirrored(DistributedValues):
    """Values known to be identical on every replica (TF's `Mirrored`)."""

    __slots__ = ()

    def _distributed_to_tensor(self, dtype: Any, dtype_hint: Any, name: Any) -> Any:
        """TF 2.21's conversion function of a Mirrored value (values.py `_tensor_conversion_mirrored_val`, clause
        values.per-replica-conversion): its `_get()` converted: the current replica's component in a replica
        context, else the one on the current device, else the first (`_get_on_device_or_primary`)."""
        from simdist.runtime import context
        from simdist.runtime.tensor import convert_to_tensor
        rid = _replica_id_now()
        if rid is not None:
            comp = self._values[rid]
        else:
            here = context.current_device()
            comp = next((v for v in self._values if getattr(v, "device", None) == here), self._values[0])
        return convert_to_tensor(comp, dtype=dtype, dtype_hint=dtype_hint, name=name)


def regroup(per_replica_outputs: Sequence[Any], always_wrap: bool = False) -> Any:
    """Merge the outputs of each replica into one structure whose leaves are PerReplica.

    Identical Python objects from every replica stay as they are (TF returns them unwrapped);
    one replica gives its plain value unless `always_wrap`.
    """
    n = len(per_replica_outputs)
    first = per_replica_outputs[0]
    if isinstance(first, DistributedValues) and _is_variable(first) and all(o is first for o in per_replica_outputs):
        return first   # (TF's regroup returns a distributed variable every replica gave, always_wrap or not)
    container = getattr(first, "_distributed_container", None)
    if container is not None and not isinstance(first, DistributedValues) and \
            all(o is first for o in per_replica_outputs):
        return container   # (a component of one every replica gave: its container, TF's value_container)
    if n == 1 and not always_wrap:
        return first
    if isinstance(first, dict) and not isinstance(first, DistributedValues):
        return type(first)((k, regroup([o[k] for o in per_replica_outputs], always_wrap)) for k in first)
    if isinstance(first, tuple) and hasattr(first, "_fields"):
        return type(first)(*[regroup([o[i] for o in per_replica_outputs], always_wrap) for i in range(len(first))])
    if isinstance(first, (list, tuple)):
        for o in per_replica_outputs:
            if not isinstance(o, type(first)) or len(o) != len(first):   # TF 2.21's regroup assertion
                raise AssertionError(f"len(v) == {len(o) if hasattr(o, '__len__') else '?'}, len(v0) == {len(first)}, "
                                     f"v: {o!r}, v0: {first!r}")
        return type(first)(regroup([o[i] for o in per_replica_outputs], always_wrap) for i in range(len(first)))
    if not always_wrap and all(o is first for o in per_replica_outputs):
        return first
    return PerReplica(per_replica_outputs)


def select_replica(i: int, structure: Any, keep_variables: bool = False) -> Any:
    """The i-th replica's view of a structure: DistributedValues leaves replaced by component i.
    `keep_variables`: distributed variables stay whole, as TF's select_replica passes them to
    `strategy.run`'s replicas (each replica's reads and writes reach its own component; a replica
    that returns it returns the distributed variable: clause run.distributed-variable-args)."""
    if isinstance(structure, DistributedValues):
        if keep_variables and _is_variable(structure):
            return structure
        return structure._values[i]
    if isinstance(structure, dict):
        return type(structure)((k, select_replica(i, v, keep_variables)) for k, v in structure.items())
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return type(structure)(*[select_replica(i, v, keep_variables) for v in structure])
    if isinstance(structure, (list, tuple)):
        return type(structure)(select_replica(i, v, keep_variables) for v in structure)
    return structure


def _is_variable(value: Any) -> bool:
    from simdist.runtime.variables import Variable
    return isinstance(value, Variable)


def contains_distributed(structure: Any) -> bool:
    if isinstance(structure, DistributedValues):
        return True
    if isinstance(structure, dict):
        return any(contains_distributed(v) for v in structure.values())
    if isinstance(structure, (list, tuple)):
        return any(contains_distributed(v) for v in structure)
    return False
