"""What TF's tutorials need beyond the core — clauses keras.reg.*, keras.loss.reduction-legacy,
keras.layer.global-pooling-1d, optim.floatx, checkpoint.latest, autodiff.concat-slices
(TF 2.21 + Keras 3.15).

Expected values are NumPy references computed here (float64) from the rules in docs/spec.md;
expected error classes and message fragments were observed on TF 2.21 with Keras 3.15.1.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, assert_type_name, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause

X = np.array([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]], dtype=np.float32)


@pytest.fixture()
def keras(tf):
    tf.keras.backend.clear_session()
    yield tf.keras
    tf.keras.backend.set_floatx("float32")
    tf.keras.backend.clear_session()


@clause("keras.reg.penalties", ref="tf221")
def test_penalties_compute_their_formulas(tf, keras):
    x = tf.constant(X)
    x64 = X.astype(np.float64)
    r = keras.regularizers
    assert_close(r.L1(0.5)(x), 0.5 * np.abs(x64).sum(), call="L1(0.5)(x)")
    assert_close(r.L2(0.25)(x), 0.25 * np.square(x64).sum(), call="L2(0.25)(x)")
    assert_close(r.L1L2(l1=0.1, l2=0.2)(x), 0.1 * np.abs(x64).sum() + 0.2 * np.square(x64).sum(),
                 call="L1L2(0.1, 0.2)(x)")
    assert_close(r.L1L2()(x), 0.0, call="L1L2()(x)")
    n = x64 / np.sqrt((x64 ** 2).sum(axis=1, keepdims=True))
    gram = n @ n.T
    off = np.abs(gram - np.diag(np.diag(gram))).sum() / 2
    assert_close(r.OrthogonalRegularizer(factor=0.1)(x), 0.1 * off / 3, call="OrthogonalRegularizer(0.1)(x)")
    with raises(ValueError, call="OrthogonalRegularizer()(rank-1 x)"):
        r.OrthogonalRegularizer()(tf.constant([1.0, 2.0]))


@clause("keras.reg.get", ref="tf221")
def test_get_names_and_validation(keras):
    r = keras.regularizers
    assert_true(r.get(None) is None, "regularizers.get(None) is not None", call="regularizers.get(None)")
    assert_type_name(r.get("l2"), "L2", call="regularizers.get('l2')")
    assert_type_name(r.get("l1l2"), "L1L2", call="regularizers.get('l1l2')")
    with raises(ValueError, match="Could not interpret regularizer identifier", call="regularizers.get('l1_l2')"):
        r.get("l1_l2")
    with raises(ValueError, match="expected a non-negative float", call="L2(-1.0)"):
        r.L2(-1.0)
    ser = r.serialize(r.L2(0.5))
    assert_equal((ser["class_name"], ser["config"]), ("L2", {"l2": 0.5}), call="serialize(L2(0.5))")


@clause("keras.reg.layer-losses", ref="tf221")
def test_layer_losses_hold_weight_and_activity_penalties(tf, keras):
    layer = keras.layers.Dense(2, kernel_regularizer=keras.regularizers.L2(0.5),
                               activity_regularizer=keras.regularizers.L1(0.1))
    layer.build((None, 2))
    rng = np.random.default_rng(0)
    k, b = rng.standard_normal((2, 2)).astype("float32"), rng.standard_normal(2).astype("float32")
    layer.set_weights([k, b])
    assert_equal(len(layer.losses), 1, call="Dense(kernel_regularizer=L2) before a call", what="len(losses)")
    y = X.astype(np.float64) @ k + b
    for _ in range(2):   # a second call replaces the call losses, it does not add to them
        layer(tf.constant(X))
    losses = layer.losses
    assert_equal(len(losses), 2, call="Dense(...)(x) twice", what="len(losses)")
    assert_close(losses[0], 0.1 * np.abs(y).sum() / len(X), call="Dense(...)(x)", what="activity penalty / batch")
    assert_close(losses[1], 0.5 * np.square(k.astype(np.float64)).sum(), call="Dense(...)(x)",
                 what="kernel penalty")


@clause("keras.loss.reduction-legacy", ref="tf221")
def test_legacy_reduction_names(tf, keras):
    R = keras.losses.Reduction
    assert_equal((R.AUTO, R.NONE, R.SUM, R.SUM_OVER_BATCH_SIZE), ("auto", "none", "sum", "sum_over_batch_size"),
                 call="tf.keras.losses.Reduction", what="names")
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=R.NONE)
    logits = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]], dtype=np.float32)
    labels = np.array([1, 2])
    z = logits.astype(np.float64)
    want = np.log(np.exp(z).sum(axis=1)) - z[np.arange(2), labels]
    assert_close(loss(labels, logits), want, call="SparseCategoricalCrossentropy(reduction=Reduction.NONE)")
    with raises(ValueError, match="reduction", call="SparseCategoricalCrossentropy(reduction=Reduction.AUTO)"):
        keras.losses.SparseCategoricalCrossentropy(reduction=R.AUTO)


@clause("keras.layer.global-pooling-1d", ref="tf221")
def test_global_pooling_1d(tf, keras):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 7
    assert_close(keras.layers.GlobalAveragePooling1D()(tf.constant(x)), x.mean(axis=1), call="GlobalAveragePooling1D()")
    assert_close(keras.layers.GlobalMaxPooling1D()(tf.constant(x)), x.max(axis=1), call="GlobalMaxPooling1D()")
    out = keras.layers.GlobalAveragePooling1D(keepdims=True)(tf.constant(x))
    assert_equal(tuple(out.shape), (2, 1, 4), call="GlobalAveragePooling1D(keepdims=True)", what="shape")


@clause("optim.floatx", ref="tf221")
def test_optimizer_variables_follow_floatx(tf, keras):
    keras.backend.set_floatx("float64")
    keras.backend.clear_session()
    keras.backend.set_floatx("float64")
    v = keras.Variable(np.array([1.0, 2.0]), dtype="float64")
    opt = keras.optimizers.SGD(learning_rate=0.1)
    opt.apply_gradients([(tf.constant([1.0, 1.0], dtype=tf.float64), v)])
    assert_equal(str(opt.learning_rate.dtype).replace("<dtype: '", "").rstrip("'>"), "float64",
                 call="SGD(0.1) under floatx float64", what="learning_rate dtype")
    # the learning-rate variable is made in float64 from the Python 0.1 (no float32 rounding)
    lr = 0.1
    assert_close(v.numpy(), [1.0 - lr, 2.0 - lr], call="SGD(0.1).apply_gradients under floatx float64",
                 tolerance=Tolerance(rtol=1e-15, atol=0.0))


@clause("checkpoint.latest", ref="tf221")
def test_latest_checkpoint_and_restore_none(tf):
    d = tempfile.mkdtemp()
    v = tf.Variable(1.0)
    ckpt = tf.train.Checkpoint(v=v)
    assert_true(tf.train.latest_checkpoint(d) is None, "latest_checkpoint of an empty directory is not None",
                call="tf.train.latest_checkpoint(empty dir)")
    first = ckpt.save(os.path.join(d, "ckpt"))
    v.assign(2.0)
    second = ckpt.save(os.path.join(d, "ckpt"))
    assert_equal(os.path.basename(str(first)), "ckpt-1", call="Checkpoint.save (first)", what="path")
    assert_equal(str(tf.train.latest_checkpoint(d)), str(second), call="tf.train.latest_checkpoint(dir)")
    status = ckpt.restore(None)
    with raises(AssertionError, match="nothing is being restored", call="Checkpoint.restore(None).assert_consumed()"):
        status.assert_consumed()


@clause("autodiff.concat-slices", ref="tf221")
def test_gather_from_concat_gives_slices_per_input(tf):
    a = tf.Variable(np.ones((2, 3), np.float32))
    b = tf.Variable(np.ones((3, 3), np.float32))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(tf.concat([a.sparse_read([0, 1]), b.sparse_read([0, 1, 2])], axis=0), [1, 3, 3]))
    ga, gb = tape.gradient(y, [a, b])
    assert_type_name(ga, "IndexedSlices", call="gradient of gather(concat([a rows, b rows]))", what="d/da")
    assert_type_name(gb, "IndexedSlices", call="gradient of gather(concat([a rows, b rows]))", what="d/db")
    assert_close(tf.convert_to_tensor(ga), [[0, 0, 0], [1, 1, 1]], call="gather(concat(...), [1, 3, 3])", what="d/da")
    assert_close(tf.convert_to_tensor(gb), [[0, 0, 0], [2, 2, 2], [0, 0, 0]], call="gather(concat(...), [1, 3, 3])",
                 what="d/db")
