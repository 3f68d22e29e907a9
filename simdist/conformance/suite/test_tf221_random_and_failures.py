"""TF 2.21's stateless random values, and where TF 2.21 + Keras 3 fail a training program (issue 29).

- ops.stateless-random / keras.layer.dropout: `stateless_uniform` and a seeded Keras Dropout give
  TF's values (Philox4x32-10), observed on TF 2.21 and written here as bits.
- keras.fit.spe-mirrored: fit with steps_per_execution=2 under MirroredStrategy(2) raises
  InvalidArgumentError (an unfed placeholder in Keras's multi-step while loop); evaluate and
  run_eagerly=True run.
- keras.rnn.empty-batch: an LSTM on an empty replica batch of known size (MirroredStrategy(3),
  a batch of 4 split [2, 2, 0]) raises InvalidArgumentError eagerly and ValueError traced.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, fail

clause = pytest.mark.clause


# TF 2.21 (tensorflow-cpu 2.21.0, x86): tf.random.stateless_uniform([6], seed=[1, 2]) as float32 bits
_UNIFORM_1_2 = [0x3F581458, 0x3E44A788, 0x3F7F087C, 0x3E243C98, 0x3E8B424C, 0x3F263B8A]
# ... stateless_uniform([5], seed=[3, 4], minval=0, maxval=10, dtype=int32)
_INT_3_4 = [3, 7, 2, 9, 7]
# ... keras.layers.Dropout(0.5, seed=7) on ones([2, 4]), called twice with training=True
_DROPOUT_7 = [[[2.0, 2.0, 0.0, 2.0], [0.0, 2.0, 0.0, 2.0]], [[0.0, 2.0, 0.0, 2.0], [2.0, 2.0, 2.0, 0.0]]]


@clause("ops.stateless-random", ref="tf221")
def test_stateless_uniform_values_are_tfs(backend):
    tf = backend.tf
    got = np.asarray(backend.to_numpy(tf.random.stateless_uniform([6], seed=[1, 2]))).astype(np.float32)
    assert_equal(got.view(np.uint32).tolist(), _UNIFORM_1_2, call="stateless_uniform([6], seed=[1, 2])",
                 what="float32 bits (TF 2.21's Philox draw)")
    ints = backend.to_numpy(tf.random.stateless_uniform([5], seed=[3, 4], minval=0, maxval=10, dtype=tf.int32))
    assert_equal(np.asarray(ints).tolist(), _INT_3_4, call="stateless_uniform([5], seed=[3, 4], 0, 10, int32)",
                 what="values")


@clause("keras.layer.dropout", ref="tf221")
def test_seeded_dropout_masks_are_tfs(backend, keras):
    layer = keras.layers.Dropout(0.5, seed=7)
    x = backend.tf.ones([2, 4])
    got = [np.asarray(backend.to_numpy(layer(x, training=True))).tolist() for _ in range(2)]
    assert_equal(got, _DROPOUT_7, call="Dropout(0.5, seed=7)(ones([2, 4]), training=True) twice", what="outputs")


def _two_dense(keras):
    inp = keras.Input((4,))
    model = keras.Model(inp, keras.layers.Dense(2)(keras.layers.Dense(3)(inp)))
    r = np.random.default_rng(5)
    for v in model.weights:
        v.assign(r.uniform(-0.6, 0.6, tuple(v.shape)).astype(np.float32))
    return model


@clause("keras.fit.spe-mirrored", ref="tf221")
def test_fit_with_steps_per_execution_fails_under_mirrored(backend, keras):
    """Measured on TF 2.21: fit fails at its first execution; evaluate and an eager fit run. (The
    failing fit last: on TF it leaves the collectives of the process broken.)"""
    strategy = backend.make_strategy("mirrored", 2)
    r = np.random.default_rng(29)
    x, y = r.uniform(-1, 1, (12, 4)).astype(np.float32), r.uniform(-1, 1, (12, 2)).astype(np.float32)
    outcomes = {}
    for what in ("evaluate", "fit_eager", "fit"):
        with strategy.scope():
            model = _two_dense(keras)
            model.compile(keras.optimizers.SGD(0.1), "mse", steps_per_execution=2, run_eagerly=what == "fit_eager")
        try:
            if what == "evaluate":
                model.evaluate(x, y, batch_size=6, verbose=0)
            else:
                model.fit(x, y, batch_size=6, epochs=1, verbose=0)
            outcomes[what] = "ran"
        except Exception as e:  # noqa: BLE001 - the error class is the observable
            backend.notice_error(e)
            outcomes[what] = type(e).__name__
    want = {"evaluate": "ran", "fit_eager": "ran", "fit": "InvalidArgumentError"}
    if outcomes != want:
        fail(f"steps_per_execution=2 under MirroredStrategy(2): {outcomes}, but should be {want} (TF 2.21 + Keras 3)")


@clause("keras.rnn.empty-batch", ref="tf221")
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "tf_function"])
def test_lstm_on_an_empty_replica_batch_fails(backend, keras, traced):
    tf = backend.tf
    strategy = backend.make_strategy("mirrored", 3)
    x = np.random.default_rng(3).uniform(-1, 1, (4, 3, 2)).astype(np.float32)
    with strategy.scope():
        inp = keras.Input((3, 2))
        model = keras.Model(inp, keras.layers.Dense(2)(keras.layers.LSTM(3)(inp)))
    dist = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(x).batch(4))

    def step(xb):
        return strategy.run(lambda a: model(a, training=True), args=(xb,))
    run = tf.function(step) if traced else step
    try:
        for xb in dist:   # one batch of 4 on 3 replicas: [2, 2, 0]
            run(xb)
        outcome = "ran"
    except Exception as e:  # noqa: BLE001 - the error class is the observable
        backend.notice_error(e)
        outcome = type(e).__name__
    want = "ValueError" if traced else "InvalidArgumentError"
    if outcome != want:
        fail(f"LSTM(3) on replica batches [2, 2, 0] under MirroredStrategy(3) {'in' if traced else 'outside'} "
             f"tf.function: {outcome}, but should be {want} (TF 2.21: Keras's ops.add hands the [0, 12] recurrent "
             "term to tf.nn.bias_add)")
