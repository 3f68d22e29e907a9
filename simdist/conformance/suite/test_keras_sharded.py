"""A Keras weight partitioned by ParameterServerStrategy — clause keras.variable.sharded
(TF 2.21 + Keras 3.15; the parameter-server tutorial's model, with a weight penalty).

Expected values are NumPy references computed here; the expected errors (class and the missing
attribute named in the message) were observed on TF 2.21 with Keras 3.15.1.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises

clause = pytest.mark.clause
needs_cluster = pytest.mark.requires("multi_worker")


def _sharded(v) -> bool:
    return isinstance(getattr(v, "variables", None), list) and not hasattr(v, "device")


def _model(tf, cluster):
    keras = tf.keras
    keras.backend.clear_session()
    with cluster.strategy.scope():
        inp = keras.Input(shape=(3,), dtype="int64")
        emb = keras.layers.Embedding(6, 4)
        y = keras.layers.Dense(1, kernel_regularizer=keras.regularizers.L2(0.5))(
            keras.layers.GlobalAveragePooling1D()(emb(inp)))
        model = keras.Model(inp, y)
    rng = np.random.default_rng(0)
    ws = [(rng.standard_normal(tuple(w.shape)) * 0.5).astype("float32") for w in model.weights]
    model.set_weights(ws)
    return model, ws


@clause("keras.variable.sharded", ref="tf221")
@needs_cluster
def test_partitioned_keras_weight_works_forward(backend, tf):
    cluster = backend.make_ps_cluster(
        workers=1, ps=2, variable_partitioner=tf.distribute.experimental.partitioners.FixedShardsPartitioner(2))
    model, ws = _model(tf, cluster)
    emb = model.weights[0]
    call = "Embedding(6, 4) under PSS with FixedShardsPartitioner(2)"
    assert_true(_sharded(emb.value), f"emb.value is a {type(emb.value).__name__}, not a ShardedVariable", call=call)
    assert_equal([tuple(s.shape) for s in emb.value.variables], [(3, 4), (3, 4)], what="shard shapes", call=call)
    assert_equal(emb.path, "embedding/embeddings", what="path", call=call)
    for got, want in zip(model.get_weights(), ws):
        assert_close(got, want, call="set_weights then get_weights", what="weights")
    ids = np.array([[0, 4, 5], [1, 1, 3]])
    want = ws[0][ids].mean(axis=1) @ ws[1] + ws[2]
    assert_close(model(ids), want, call="model(ids)", what="forward")
    assert_close(model.losses[0], 0.5 * np.sum(ws[1] ** 2), call="model.losses", what="L2 penalty")


@clause("keras.variable.sharded", ref="tf221")
@needs_cluster
def test_partitioned_keras_weight_cannot_be_differentiated(backend, tf):
    cluster = backend.make_ps_cluster(
        workers=1, ps=2, variable_partitioner=tf.distribute.experimental.partitioners.FixedShardsPartitioner(2))
    model, ws = _model(tf, cluster)
    ids = np.array([[0, 4, 5]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(ids))
    with raises(AttributeError, match="handle", call="tape.gradient(loss, model.trainable_variables)"):
        tape.gradient(loss, model.trainable_variables)
    shards = model.weights[0].value.variables
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(ids))
    g0, g1 = tape.gradient(loss, list(shards))
    # d loss / d row r = (count of r in ids) / 3 * kernel^T
    rows = np.zeros((6, 4), np.float32)
    for r in ids[0]:
        rows[r] += ws[1][:, 0] / 3.0
    assert_close(tf.convert_to_tensor(g0), rows[:3], call="gradient w.r.t. shard 0", what="gradient")
    assert_close(tf.convert_to_tensor(g1), rows[3:], call="gradient w.r.t. shard 1", what="gradient")
