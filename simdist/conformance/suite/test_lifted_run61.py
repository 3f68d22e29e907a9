"""strategy.run of a tf.function, the replicas' name scopes, and a strategy scope's device (sixty-first session, lead61;
clauses run.lifted-function and scope.keeps-device). Observed on TF 2.21 (tests/strategies/test_lifted_run_tf.py and
test_scope_device_tf.py hold the wider differential programs): mirrored_run.call_for_each_replica calls a clone of the
tf.function whose Python runs the function's Python on each replica, so the function's own defaults are not bound
(a NumPy default stays an array), the function itself never traces, and its Python runs once per replica per trace of
the clone; a replica > 0 of a run traced in a graph starts in the name scope `replica_<i>/` below the caller's, eagerly
every replica at the root; a strategy's scope enters no device scope, so ops made in it keep the caller's device.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.conformance.assertions import assert_equal
import pytest

clause = pytest.mark.clause

TABLE = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.5]])


@clause("run.lifted-function", ref="tf221")
def test_lifted_run_leaves_the_functions_defaults_unbound(tf: Any, backend: Any) -> None:
    s = backend.make_strategy("mirrored", 2)

    def step(table=TABLE, scale=np.float32(2.0)):
        r = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        return tf.cast(tf.constant(table), tf.float32) * scale + r

    got = s.experimental_local_results(s.run(tf.function(step)))
    for i, g in enumerate(got):
        assert_equal(g, (TABLE * 2.0 + i).astype(np.float32), call="strategy.run(tf.function(step)) with a NumPy default",
                     what=f"replica {i}")


@clause("run.lifted-function", ref="tf221")
def test_lifted_run_traces_a_clone_not_the_function(tf: Any, backend: Any) -> None:
    s = backend.make_strategy("mirrored", 2)
    ran: list[int] = []

    def step(x):
        ran.append(1)
        return x * 2.0

    f = tf.function(step)
    for k in range(3):
        s.run(f, args=(tf.constant([1.0, 2.0]),))
        assert_equal(f.experimental_get_tracing_count(), 0, call=f"strategy.run(f) call {k}",
                     what="f.experimental_get_tracing_count()")
        assert_equal(len(ran), 2, call=f"strategy.run(f) call {k}", what="times f's Python ran (once per replica)")
    f(tf.constant([1.0, 2.0]))
    assert_equal(f.experimental_get_tracing_count(), 1, call="f called alone after the runs",
                 what="f.experimental_get_tracing_count()")


@clause("run.lifted-function", ref="tf221")
def test_each_replica_starts_in_its_own_name_scope(tf: Any, backend: Any) -> None:
    s = backend.make_strategy("mirrored", 2)
    seen: list[Any] = []

    def step():
        first = tf.get_current_name_scope()
        with tf.name_scope("blk"):
            inner = tf.get_current_name_scope()
            tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0))
            after = tf.get_current_name_scope()
        seen.append([first, inner, after, tf.get_current_name_scope()])
        return tf.constant(0.0)

    def outer():
        with tf.name_scope("outer"):
            s.run(step)
        return tf.constant(0.0)

    tf.function(outer)()
    assert_equal(seen, [["outer", "outer/blk", "outer/blk", "outer"],
                        ["outer/replica_1", "outer/replica_1/blk", "outer/replica_1/blk", "outer/replica_1"]],
                 call="tf.function holding strategy.run inside name_scope('outer')", what="each replica's scopes")
    seen.clear()
    with tf.name_scope("top"):
        s.run(step)
    assert_equal(seen, [["", "blk", "blk", ""], ["", "blk", "blk", ""]],
                 call="an eager strategy.run inside name_scope('top')", what="each replica's scopes")


@clause("scope.keeps-device", ref="tf221")
def test_a_strategy_scope_keeps_the_callers_device(tf: Any, backend: Any) -> None:
    s = backend.make_strategy("mirrored", 2)
    with tf.device("/cpu:1"):
        with s.scope():
            x = tf.constant(1.0) + 1.0
            y = tf.function(lambda: tf.constant(2.0) * 3.0)()
    for what, t in (("an op's result", x), ("a tf.function's result", y)):
        assert_equal(t.device.split("/")[-1], "device:CPU:1",
                     call="with tf.device('/cpu:1'): with strategy.scope(): ...", what=f"{what} device")
