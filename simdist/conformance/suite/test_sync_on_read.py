"""ON_READ variables and the Keras metrics built on them — clauses mirrored.sync-on-read and
keras.metric.cross-replica (TF 2.21 + Keras 3.15).

Expected values are worked out here from the rules (each replica accumulates its own copy;
a cross-replica read reduces the copies by the variable's aggregation), never from the backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_type_name, raises
from simdist.conformance.repro import Program

clause = pytest.mark.clause

ON_READ_STEP = """
strategy = backend.make_strategy("mirrored", n)
with strategy.scope():
    v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=getattr(tf.VariableAggregation, aggregation))

def step():
    rid = tf.distribute.get_replica_context().replica_id_in_sync_group
    v.assign_add(tf.cast(rid, tf.float32) + 1.0)
    return v.read_value()

local = [float(x.numpy()) for x in strategy.experimental_local_results(strategy.run(step))]
copies = [float(c.numpy()) for c in strategy.experimental_local_results(v)]
synced = float(v.numpy())
trainable = v.trainable
"""


@clause("mirrored.sync-on-read", ref="tf221")
@pytest.mark.parametrize("aggregation", ["SUM", "MEAN", "ONLY_FIRST_REPLICA"])
@pytest.mark.parametrize("n", [2, 3])
def test_replicas_update_their_own_copy_and_reads_reduce(backend, n, aggregation):
    ns = Program(backend, ON_READ_STEP, n=n, aggregation=aggregation).run()
    call = f"MirroredStrategy({n}): tf.Variable(synchronization=ON_READ, aggregation={aggregation}), " \
           "replica r adds r + 1 in strategy.run"
    per_replica = [float(r + 1) for r in range(n)]
    assert_type_name(ns["v"], "SyncOnReadVariable", call=call, what="v")
    assert_equal(ns["trainable"], False, call=call, what="v.trainable (ON_READ defaults to False)")
    assert_close(ns["local"], per_replica, call=call, what="each replica's read of v inside run")
    assert_close(ns["copies"], per_replica, call=call, what="the copies")
    expected = {"SUM": sum(per_replica), "MEAN": sum(per_replica) / n, "ONLY_FIRST_REPLICA": 1.0}[aggregation]
    assert_close(ns["synced"], expected, call=call, what="v.numpy() in cross-replica context")


@clause("mirrored.sync-on-read", ref="tf221")
def test_cross_replica_assign_of_a_sum_variable_divides(backend):
    ns = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ, aggregation=tf.VariableAggregation.SUM)
v.assign(10.0)
copies = [float(c.numpy()) for c in strategy.experimental_local_results(v)]
synced = float(v.numpy())
""").run()
    call = "MirroredStrategy(2): SUM ON_READ variable, v.assign(10.0) in cross-replica context"
    assert_close(ns["copies"], [5.0, 5.0], call=call, what="the copies (value / num_replicas each)")
    assert_close(ns["synced"], 10.0, call=call, what="the synced read")


@clause("mirrored.sync-on-read", ref="tf221")
def test_cross_replica_assign_add_of_a_sum_variable_fails(backend):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ, aggregation=tf.VariableAggregation.SUM)
v.assign_add(1.0)
""")
    with raises(ValueError, match="does not support `assign_add` in cross-replica context",
                call="SUM ON_READ variable: assign_add in cross-replica context"):
        prog.run()


METRIC_STEPS = """
strategy = backend.make_strategy(kind, n)
with strategy.scope():
    mean = tf.keras.metrics.Mean()
    acc = tf.keras.metrics.SparseCategoricalAccuracy()

def step(x, y, p):
    mean.update_state(x)
    acc.update_state(y, p)
    return mean.result()

for xs, ys, ps in batches:
    x = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(xs[ctx.replica_id_in_sync_group]))
    y = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(ys[ctx.replica_id_in_sync_group]))
    p = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(ps[ctx.replica_id_in_sync_group]))
    local = [float(r.numpy()) for r in strategy.experimental_local_results(strategy.run(step, args=(x, y, p)))]
mean_result = float(mean.result().numpy())
acc_result = float(acc.result().numpy())
total_kind = type(mean.total.value).__name__
mean.reset_state()
after_reset = float(mean.result().numpy())
"""


def _metric_batches(n: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(2):
        sizes = [int(s) for s in rng.integers(1, 5, n)]
        xs = [rng.standard_normal(s).astype(np.float32) for s in sizes]
        ys = [rng.integers(0, 3, s).astype(np.int32) for s in sizes]
        ps = [rng.standard_normal((s, 3)).astype(np.float32) for s in sizes]
        out.append((xs, ys, ps))
    return out


@clause("keras.metric.cross-replica", ref="tf221")
@pytest.mark.parametrize("n", [2, 4])
def test_metrics_updated_in_run_sum_over_replicas(backend, n):
    batches = _metric_batches(n, n)
    ns = Program(backend, METRIC_STEPS, kind="mirrored", n=n, batches=batches).run()
    call = f"MirroredStrategy({n}): keras Mean and SparseCategoricalAccuracy updated inside strategy.run, 2 steps"
    xs_all = np.concatenate([x for xs, _, _ in batches for x in xs])
    # (float32 sums of values of both signs: the scale of the rounding is the mean of |x|)
    assert_close(ns["mean_result"], float(xs_all.astype(np.float64).mean()), call=call,
                 scale=float(np.abs(xs_all).mean()) * 4,
                 what="Mean.result() in cross-replica context (the mean over every replica's values)")
    hits = np.concatenate([np.argmax(p, axis=1) == y for _, ys, ps in batches for y, p in zip(ys, ps)])
    assert_close(ns["acc_result"], float(hits.mean()), call=call, what="SparseCategoricalAccuracy.result()")
    last_xs = batches[-1][0]
    own_values = [np.concatenate([xs[r] for xs, _, _ in batches]).astype(np.float64) for r in range(n)]
    assert_close(ns["local"], [float(v.mean()) for v in own_values], call=call,
                 scale=max(float(np.abs(v).mean()) for v in own_values) * 4,
                 what="each replica's Mean.result() inside run (its own values)")
    assert_equal(len(last_xs), n, call=call, what="replicas fed")
    assert_type_name(ns["mean"].total.value, "SyncOnReadVariable", call=call, what="Mean's total variable")
    assert_close(ns["after_reset"], 0.0, call=call, what="Mean.result() after reset_state()")
