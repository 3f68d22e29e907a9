"""Gaps the fifth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours no earlier suite test looked at closely enough for a wrong
implementation to fail — clauses keras.layer.global-pooling-1d (a mask's mean), nn.embedding-max-norm,
keras.fit.data (steps without a batch size) and ops.random-ranges (TF 2.21 + Keras 3.15).

Every expected value is computed here with NumPy from the rule the clause states, never taken
from a backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true

clause = pytest.mark.clause


@clause("keras.layer.global-pooling-1d", ref="tf221")
@pytest.mark.parametrize("keepdims", [False, True])
def test_blind5_masked_global_average_pooling_divides_by_the_unmasked_steps(tf, keras, keepdims):
    x = np.arange(24, dtype=np.float32).reshape(2, 4, 3) - 5.0
    mask = np.array([[True, True, False, False], [True, False, True, True]])
    want = (x * mask[..., None]).sum(axis=1, keepdims=keepdims) / mask.sum(axis=1).reshape(
        (2, 1, 1) if keepdims else (2, 1))
    out = keras.layers.GlobalAveragePooling1D(keepdims=keepdims)(tf.constant(x), mask=tf.constant(mask))
    assert_close(out, want, call=f"GlobalAveragePooling1D(keepdims={keepdims})(x, mask=m)",
                 what="the mean of the unmasked steps")


@clause("nn.embedding-max-norm", ref="tf221")
def test_blind5_embedding_lookup_max_norm_clips_each_rows_l2_norm(tf):
    params = np.array([[3.0, 4.0], [0.3, 0.4], [1.0, -2.0], [6.0, 8.0]], dtype=np.float32)
    ids = np.array([[0, 1], [3, 2]])
    rows = params[ids]
    norms = np.sqrt((rows ** 2).sum(axis=-1, keepdims=True))
    for max_norm in (2.0, 0.25):
        want = rows * max_norm / np.maximum(norms, max_norm)
        out = tf.nn.embedding_lookup(tf.constant(params), tf.constant(ids), max_norm=max_norm)
        assert_close(out, want, call=f"tf.nn.embedding_lookup(params, ids, max_norm={max_norm})",
                     what="rows clipped to L2 norm <= max_norm")
    out = tf.nn.embedding_lookup(tf.constant(params), tf.constant(ids))
    assert_equal(np.asarray(out), rows, call="tf.nn.embedding_lookup(params, ids)", what="rows unclipped")


def _linear_sgd(keras, lr: float):
    model = keras.Sequential([keras.Input((1,)),
                              keras.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")])
    model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse")
    return model


@clause("keras.fit.data", ref="tf221")
def test_blind5_steps_without_batch_size_cut_ceil_n_over_steps(keras):
    x = (np.arange(10, dtype=np.float32) / 4).reshape(10, 1)
    y = 3 * x - 1
    lr, steps = 0.1, 3
    model = _linear_sgd(keras, lr)
    got = model.evaluate(x, y, steps=steps, verbose=0)
    assert_close(np.float32(got), np.mean((x - y) ** 2), call=f"model.evaluate(x[10], y, steps={steps})",
                 what="loss over all 10 samples (batches of ceil(10 / 3) = 4, 4, 2)")
    model.fit(x, y, steps_per_epoch=steps, epochs=1, shuffle=False, verbose=0)
    w, b = 1.0, 0.0
    for s in (slice(0, 4), slice(4, 8), slice(8, 10)):
        e = w * x[s, 0] + b - y[s, 0]
        w, b = w - lr * 2 * np.mean(e * x[s, 0]), b - lr * 2 * np.mean(e)
    got_w = [np.asarray(v).ravel()[0] for v in model.get_weights()]
    assert_close(np.array(got_w), np.array([w, b]), call=f"model.fit(x[10], y, steps_per_epoch={steps}, "
                 "shuffle=False) with SGD(0.1), no batch_size", what="[kernel, bias] after batches 4, 4, 2")


@clause("ops.random-ranges", ref="tf221")
@pytest.mark.parametrize("dtype,lo,hi", [("int32", -2, 3), ("int64", 5, 9), ("float32", 2.0, 2.5)])
def test_blind5_random_uniform_draws_from_the_half_open_range(tf, dtype, lo, hi):
    tf.random.set_seed(3)
    call = f"tf.random.uniform([3000], minval={lo}, maxval={hi}, dtype=tf.{dtype}, seed=7)"
    out = np.asarray(tf.random.uniform([3000], minval=lo, maxval=hi, dtype=getattr(tf, dtype), seed=7))
    assert_equal(out.dtype.name, dtype, call=call, what="dtype")
    assert_true(bool(out.min() >= lo) and bool(out.max() < hi),
                f"draws span [{out.min()}, {out.max()}], but should lie in [{lo}, {hi})", call=call)
    if dtype.startswith("int"):
        assert_equal(np.unique(out), np.arange(lo, hi, dtype=out.dtype), call=call,
                     what="the distinct values drawn (3000 draws reach each of [minval, maxval))")
    seeded = np.asarray(tf.random.stateless_uniform([3000], seed=[1, 2], minval=lo, maxval=hi,
                                                    dtype=getattr(tf, dtype)))
    assert_true(bool(seeded.min() >= lo) and bool(seeded.max() < hi),
                f"stateless draws span [{seeded.min()}, {seeded.max()}], but should lie in [{lo}, {hi})",
                call=call.replace("uniform(", "stateless_uniform(").replace(", seed=7", ", seed=[1, 2]"))
