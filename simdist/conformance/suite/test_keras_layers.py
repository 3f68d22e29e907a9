"""BatchNormalization across replicas and the gradient through `ReplicaContext.all_reduce` —
clauses keras.layer.batchnorm.replicas, keras.layer.batchnorm.synchronized,
keras.layer.batchnorm.central-storage, replica.all-reduce-gradient (TF 2.21 + Keras 3.15).

Expected values come from NumPy references written here (the moving-average rule, batch
statistics per replica or of the global batch, the chain rule through an all-sum), never from
the backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.repro import Program

clause = pytest.mark.clause

X = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, 1.5], [-1.0, 4.0, 2.5], [0.5, 1.0, -3.0],
              [2.0, 2.0, 0.0], [-0.5, -1.0, 1.0], [1.5, 3.0, -1.0], [0.0, -0.5, 2.0]], dtype=np.float32)
MOMENTUM = 0.75

_BN_PROGRAM = """
strategy = backend.make_strategy(kind, n)
per = x.shape[0] // n
with strategy.scope():
    bn = tf.keras.layers.BatchNormalization(momentum=momentum, synchronized=synchronized)
    bn.build(x.shape)
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(x[ctx.replica_id_in_sync_group * per:(ctx.replica_id_in_sync_group + 1) * per]))
strategy.run(lambda xb: bn(xb, training=True), args=(values,))
mean_copies = [c.numpy() for c in bn.moving_mean.value.values]
variance_copies = [c.numpy() for c in bn.moving_variance.value.values]
"""


def _moving(batches: list[np.ndarray]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Moving mean and variance after one training call from the initial 0 and 1, per batch."""
    x64 = [b.astype(np.float64) for b in batches]
    return ([(1 - MOMENTUM) * b.mean(axis=0) for b in x64],
            [MOMENTUM + (1 - MOMENTUM) * b.var(axis=0) for b in x64])


@clause("keras.layer.batchnorm.replicas", ref="tf221")
def test_each_replica_moves_its_own_copy_of_the_moving_statistics(backend):
    prog = Program(backend, _BN_PROGRAM, kind="mirrored", n=2, x=X, momentum=MOMENTUM, synchronized=False)
    ns = prog.run()
    call = "MirroredStrategy(2): BatchNormalization(synchronized=False)(x, training=True) in strategy.run"
    means, variances = _moving([X[:4], X[4:]])
    assert_equal(len(ns["mean_copies"]), 2, call=call, what="copies of moving_mean")
    for i in range(2):
        assert_close(ns["mean_copies"][i], means[i], call=call, what=f"moving_mean copy {i} (its replica's batch)")
        assert_close(ns["variance_copies"][i], variances[i], call=call,
                     what=f"moving_variance copy {i} (its replica's batch)")


@clause("keras.layer.batchnorm.synchronized", ref="tf221")
def test_synchronized_statistics_are_the_global_batchs(backend):
    prog = Program(backend, _BN_PROGRAM, kind="mirrored", n=2, x=X, momentum=MOMENTUM, synchronized=True)
    ns = prog.run()
    call = "MirroredStrategy(2): BatchNormalization(synchronized=True)(x, training=True) in strategy.run"
    (mean,), (variance,) = _moving([X])
    for i in range(2):
        assert_close(ns["mean_copies"][i], mean, call=call, what=f"moving_mean copy {i} (the global batch's)")
        assert_close(ns["variance_copies"][i], variance, call=call,
                     what=f"moving_variance copy {i} (the global batch's)")


@clause("keras.layer.batchnorm.central-storage", ref="tf221")
def test_central_storage_refuses_the_replica_context_assign(backend):
    prog = Program(backend, _BN_PROGRAM,
                   kind="central_storage", n=2, x=X, momentum=MOMENTUM, synchronized=False)
    with raises(ValueError, match="You must specify an aggregation method to update a AggregatingVariable",
                call="CentralStorageStrategy(2): BatchNormalization()(x, training=True) in strategy.run"):
        prog.run()


@clause("replica.all-reduce-gradient", ref="tf221")
@pytest.mark.parametrize("op", ["SUM", "MEAN"])
def test_gradient_through_all_reduce_is_an_all_reduce(backend, op):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
def fn(xr, wr):
    with tf.GradientTape() as tape:
        tape.watch(xr)
        s = tf.distribute.get_replica_context().all_reduce(op, xr * xr)
        loss = tf.reduce_sum(s * wr)
    return tape.gradient(loss, xr)
xs = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(x[ctx.replica_id_in_sync_group]))
ws = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(w[ctx.replica_id_in_sync_group]))
grads = [g.numpy() for g in strategy.experimental_local_results(strategy.run(fn, args=(xs, ws)))]
""", op=op, x=X[:2], w=X[2:4])
    ns = prog.run()
    # d loss_r / d x_r = 2 x_r * reduce_op(w_0, w_1): the upstream gradients all-reduced with the same op
    w = X[2:4].astype(np.float64)
    total = w.sum(axis=0) if op == "SUM" else w.mean(axis=0)
    call = f"MirroredStrategy(2): tape.gradient(sum(all_reduce({op}, x*x) * w), x) in strategy.run"
    for r in range(2):
        assert_close(ns["grads"][r], 2 * X[r].astype(np.float64) * total, call=call, what=f"replica {r}'s gradient")
