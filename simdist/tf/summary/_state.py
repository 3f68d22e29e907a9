"""tf.summary's state and recording condition (TF 2.21 python/ops/summary_ops_v2.py): the default
writer, the default step and the `record_if` condition, and should_record_summaries.

As TF: `should_record_summaries()` is False without a default writer, False when the record_if
condition is a constant False, else `logical_and(replica condition, condition)` with a callable
condition called now (inside a tf.function: when it traces, so the ops it makes run at every call)
and no condition meaning True. The replica condition is TF's ReplicaContext.__enter__'s
`replica_id_in_sync_group == 0`: inside `strategy.run` only replica 0 writes. One state per process
(TF's is per thread, copied into the replica threads of MirroredStrategy.run: the same thing for a
program that writes summaries from one thread).
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime.ops import constant, logical_and
from simdist.runtime.ops.array_more import get_static_value
from simdist.runtime.tensor import Tensor


class _SummaryState:
    """summary_ops_v2._SummaryState: the default writer, the default step, the record_if condition."""

    def __init__(self) -> None:
        self.is_recording: Any = None
        self.writer: Any = None
        self.step: Any = None


state = _SummaryState()


def _replica_is_zero() -> Any:
    """ReplicaContext's summary condition: True outside `strategy.run`, else replica_id_in_sync_group == 0."""
    from simdist.runtime import context
    rc = context.get_replica_context()
    if rc is None:
        return True
    rid = rc.replica_id_in_sync_group
    value = get_static_value(rid) if isinstance(rid, Tensor) else rid
    if value is None:
        from simdist.runtime.ops import equal
        return equal(rid, 0)
    return bool(np.asarray(value) == 0)


def _record_condition(default_state: bool) -> Tensor:
    if state.writer is None:
        return constant(False)
    if not callable(state.is_recording):
        static = get_static_value(state.is_recording)
        if static is not None and not static:
            return constant(False)
    cond = state.is_recording() if callable(state.is_recording) else state.is_recording
    if cond is None:
        cond = default_state
    return logical_and(_replica_is_zero(), cond)


def should_record_summaries() -> Tensor:
    """`tf.summary.should_record_summaries`: whether a summary written now would be recorded (a bool tensor)."""
    return _record_condition(default_state=True)


@contextlib.contextmanager
def record_if(condition: Any) -> Iterator[None]:
    """`tf.summary.record_if(condition)`: summaries are recorded inside only when `condition` (a bool,
    a bool tensor, or a callable giving one, called at each summary) holds."""
    old = state.is_recording
    try:
        state.is_recording = condition
        yield
    finally:
        state.is_recording = old


def get_step() -> Any:
    """`tf.summary.experimental.get_step`: the default step (None when unset)."""
    return state.step


def set_step(step: Any) -> None:
    """`tf.summary.experimental.set_step`: the default step of summaries written without one (a
    value, or a variable read at each write)."""
    state.step = step


def smart_cond(pred: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any]) -> Any:
    """smart_cond.smart_cond: the branch of a predicate whose value is known now (a Python bool, an
    eager tensor, a constant in a tf.function), else a tf.cond (a value a tf.function reads at each call)."""
    value = pred if isinstance(pred, (bool, np.bool_)) else get_static_value(pred)
    if value is not None:
        return true_fn() if bool(np.asarray(value)) else false_fn()
    from simdist.runtime.ops.control_flow import cond
    return cond(pred, true_fn, false_fn)
