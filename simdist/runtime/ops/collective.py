"""The collectives as registered ops: those of `strategy.run` replicas, `CollectiveReduceV2`
(the replica context's `all_reduce`: SUM, MEAN, MAX, MIN) and `CollectiveGatherV2`
(`all_gather`), and MultiWorkerMirroredStrategy's broadcast of a variable's initial value,
`CollectiveBcastSend` (the group leader's) and `CollectiveBcastRecv` (every other worker's),
named after the kernels TF 2.21's MirroredStrategy and MultiWorkerMirroredStrategy run.

A collective's values are computed once for all replicas, in the merge the replicas meet at
(strategies/base.py: the reduction recorded by `dispatch.reduced`, each replica's copy by
`dispatch.placed`); then each replica binds the op to its own input and output
(`dispatch.bind`), so the interpreters see it as any op: a tape records it with the gradient
registered here, the recorder keeps the merge's nodes instead of a node of its own.

The gradients are TF's (distribute_lib.ReplicaContext.all_reduce / all_gather, written as
custom gradients there): the gradient of an all-reduce is the same all-reduce of the upstream
gradients ("the gradient of an all-sum is itself an all-sum (all-mean, likewise)"); the
gradient of an all-gather is the all-sum of the upstream gradients, of which each replica keeps
the rows its own input gave (their offset: the sum of the lower replicas' sizes along `axis`,
all-gathered). Both run in the replica context that bound the op (its `replica_context`
attribute), so the backward pass meets the other replicas as TF's does; elsewhere they raise
TF's require_replica_context error (as when a tape around a tf.function call differentiates a
collective of the strategy.run inside: runtime/function_tapes.py).

The broadcast (TF: collective_all_reduce_strategy's `_get_variable_creator_initial_value`, with
collective_ops.broadcast_send / broadcast_recv, the V1 kernels) is computed where the workers
meet (strategies/multi_worker.py, the leader's value for every worker) and bound here as the
leader's send (its value in, the same value out; TF then makes the variable from an Identity
of it) or another worker's receive (no input). TF's gradient registry has no entry for either,
and no TF tape records them (TF makes a variable's initial value under init_scope, where the
tapes pause): they are not differentiable here (a tape that reaches one gives None, what TF's
unrecorded path gives).

Their rules: kind "collective"; they run lane by lane as ops (replica fusion stacks the merge's
SUM/MEAN reduction node itself, runtime/lanes/); no FLOPs in the tally and the bytes of their
operands (the simulator times the transfer and the reduction: strategies/timing.py).
"""

from __future__ import annotations

from typing import Any, Sequence

from simdist.runtime import context, function_tapes
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.registry import NotDifferentiable, RegisterGradient, lanes, register

__all__ = ["COLLECTIVE_REDUCE", "COLLECTIVE_GATHER", "COLLECTIVE_BCAST_SEND", "COLLECTIVE_BCAST_RECV", "bind_all_reduce",
           "bind_all_gather", "bind_broadcast"]


def _not_run(*arrays: Any, **attrs: Any) -> Any:
    raise RuntimeError("a collective is bound with the outputs the replicas' merge computed (dispatch.bind); its "
                       "forward never runs")


def _same_dtypes(dts: tuple, attrs: dict | None) -> Any:
    return dts


def _timed_by_the_simulator(arrays: Any, out: Any, attrs: Any) -> float:
    """None in the FLOP tally: the collective's transfer and reduction are simulated (timing.py)."""
    return 0.0


_MERGED = ("the replicas' merge: its reduction (dispatch.reduced, a node replica fusion stacks over the lane axis "
           "for SUM and MEAN) and each replica's copy (dispatch.placed)")

COLLECTIVE_REDUCE = register(
    "CollectiveReduceV2", _not_run, _same_dtypes, _timed_by_the_simulator, num_outputs=-1, kind="collective",
    fusion=lanes("bound to the replicas' merge: replica fusion stacks the merge's reduction node, not this op"),
    bound=_MERGED,
    tape_replay="its replicas meet inside strategy.run, whose replicas run in their own contexts")

COLLECTIVE_GATHER = register(
    "CollectiveGatherV2", _not_run, _same_dtypes, _timed_by_the_simulator, num_outputs=-1, kind="collective",
    fusion=lanes("bound to the replicas' merge, which concatenates every replica's value"),
    bound="the replicas' merge (the concatenation, a value made outside the registry)",
    tape_replay="its replicas meet inside strategy.run, whose replicas run in their own contexts")


_INITIAL_VALUE = ("made once per variable, outside any replica (MultiWorkerMirroredStrategy's initial-value "
                  "broadcast)")
_MET = "the workers' meeting (strategies/multi_worker.py): the group leader's value, every worker's copy"

COLLECTIVE_BCAST_SEND = register(
    "CollectiveBcastSend", _not_run, _same_dtypes, _timed_by_the_simulator, kind="collective",
    fusion=lanes(_INITIAL_VALUE), bound=_MET)

COLLECTIVE_BCAST_RECV = register(
    "CollectiveBcastRecv", _not_run, _same_dtypes, _timed_by_the_simulator, kind="collective",
    fusion=lanes(_INITIAL_VALUE), bound=_MET)


NotDifferentiable("CollectiveBcastSend")
NotDifferentiable("CollectiveBcastRecv")


def bind_broadcast(leader: bool, value: Any, received: Any, group_size: int) -> None:
    """This worker's side of a broadcast among `group_size` workers that gave it `received`:
    the leader's send of `value`, or another worker's receive."""
    attrs = {"group_size": group_size, "shape": tuple(received.shape.as_list())}
    if leader:
        dispatch.bind(COLLECTIVE_BCAST_SEND, [value], (received,), attrs)
    else:
        dispatch.bind(COLLECTIVE_BCAST_RECV, [], (received,), attrs)


def bind_all_reduce(replica_context: Any, reduce_op: Any, inputs: Sequence[Any], outputs: Sequence[Any]) -> None:
    """Replica `replica_context`'s all_reduce(reduce_op) gave `outputs` for its `inputs`."""
    dispatch.bind(COLLECTIVE_REDUCE, inputs, tuple(outputs),
                  {"reduce_op": reduce_op, "replica_context": replica_context})
    function_tapes.noted(replica_context, outputs)


def bind_all_gather(replica_context: Any, axis: int, inputs: Sequence[Any], outputs: Sequence[Any]) -> None:
    """Replica `replica_context`'s all_gather(axis) gave `outputs` for its `inputs`."""
    dispatch.bind(COLLECTIVE_GATHER, inputs, tuple(outputs), {"axis": axis, "replica_context": replica_context})
    function_tapes.noted(replica_context, outputs)


@RegisterGradient("CollectiveReduceV2")
def _all_reduce_grad(op: Any, *grads: Any) -> list[Any]:
    """The same all-reduce of the upstream gradients, in the replica context (TF's grad_wrapper;
    its merge_call requires that replica context)."""
    context.require_replica_context(op.get_attr("replica_context"))
    return list(op.get_attr("replica_context").all_reduce(op.get_attr("reduce_op"), list(grads)))


@RegisterGradient("CollectiveGatherV2")
def _all_gather_grad(op: Any, *grads: Any) -> list[Any]:
    """TF's all_gather gradient: all-sum the upstream gradients, then keep this replica's rows
    along `axis`, from the sum of the sizes the lower replicas gave to that plus its own size."""
    from simdist.runtime.ops import array, math
    ctx = op.get_attr("replica_context")
    context.require_replica_context(ctx)
    axis = op.get_attr("axis")
    summed = ctx.all_reduce("SUM", list(grads))
    rid = ctx.replica_id_in_sync_group
    rid = int(dispatch.static_value(rid)) if hasattr(rid, "dtype") else int(rid)
    out = []
    for x, g in zip(op.inputs, summed):
        size = array.strided_slice(array.shape(x), axis)
        sizes = ctx.all_gather(array.reshape(size, [1]), axis=0)
        begin = math.reduce_sum(array.strided_slice(sizes, slice(None, rid)))
        out.append(array.gather(g, array.range_(begin, begin + size), axis=axis))
    return out
