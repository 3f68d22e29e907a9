"""tf.nn semantics training programs rely on — clauses nn.compute-average-loss,
nn.xent-labels-range, nn.dropout-seeding, nn.max-pool-nan, nn.float-attrs (docs/spec.md, "tf.nn")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simdist.conformance import hyp
from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises, to_numpy
from simdist.conformance.repro import Program
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause

AVERAGE = """
strategy = backend.make_strategy(kind, n)
losses = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(components[ctx.replica_id_in_sync_group]))
def step(loss):
    if global_batch_size is None:
        return tf.nn.compute_average_loss(loss)
    return tf.nn.compute_average_loss(loss, global_batch_size=global_batch_size)
result = strategy.experimental_local_results(strategy.run(step, args=(losses,)))
"""


# -- nn.compute-average-loss ----------------------------------------------------------------------
@clause("nn.compute-average-loss", ref="tf221")
@given(data=st.data())
def test_average_loss_divides_by_the_global_batch(backend, data):
    """Without global_batch_size, each replica divides its sum by its own batch times
    num_replicas_in_sync; with it, by global_batch_size. Summed over replicas (what the
    gradient all-reduce does) this is the mean over the global batch."""
    kind, n = data.draw(hyp.strategy_setups(backend))
    rows = data.draw(st.integers(1, 4))
    comps = data.draw(hyp.per_replica_batches(n, min_rows=rows, max_rows=rows, inner=()))
    gbs = data.draw(st.sampled_from([None, rows * n, 3 * rows * n + 1]))
    prog = Program(backend, AVERAGE, kind=kind, n=n, components=comps, global_batch_size=gbs)
    ns = prog.run()
    denom = rows * n if gbs is None else gbs
    call = f"{kind}({n}).run(compute_average_loss(per-replica losses of {rows}, global_batch_size={gbs}))"
    for i, v in enumerate(ns["result"]):
        assert_close(v, comps[i].astype(np.float64).sum() / denom, what=f"replica {i}", call=call,
                     scale=np.abs(comps[i]).sum() / denom)


@clause("nn.compute-average-loss", ref="tf221")
def test_average_loss_sample_weight_and_zero_batch(backend, tf):
    losses = tf.constant([1.0, 2.0, 3.0, 4.0])
    got = tf.nn.compute_average_loss(losses, sample_weight=tf.constant([1.0, 0.0, 2.0, 1.0]))
    assert_close(got, (1 + 6 + 4) / 4, call="compute_average_loss([1,2,3,4], sample_weight=[1,0,2,1])")
    got = tf.nn.compute_average_loss(losses, global_batch_size=0)
    assert_close(got, 0.0, call="compute_average_loss(losses, global_batch_size=0)")


@clause("nn.compute-average-loss", ref="tf221")
def test_average_loss_needs_replica_context(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        with raises(RuntimeError, match="cross replica context",
                    call="compute_average_loss(losses) in strategy.scope() (cross-replica context)"):
            tf.nn.compute_average_loss(tf.constant([1.0, 2.0]))
        got = tf.nn.compute_average_loss(tf.constant([1.0, 2.0]), global_batch_size=4)
        assert_close(got, 0.75, call="compute_average_loss([1, 2], global_batch_size=4) in cross-replica context")


@clause("nn.compute-average-loss", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_regularization_loss_is_divided_by_the_replicas(backend, tf, kind):
    strategy = backend.make_strategy(kind, 2)
    out = strategy.run(lambda: tf.nn.scale_regularization_loss(tf.constant([1.0, 2.0, 5.0])))
    for i, v in enumerate(strategy.experimental_local_results(out)):
        assert_close(v, 4.0, what=f"replica {i}", call=f"{kind}(2).run(scale_regularization_loss([1, 2, 5]))")
    with strategy.scope():
        with raises(RuntimeError, match="cross replica context", call="scale_regularization_loss in scope()"):
            tf.nn.scale_regularization_loss(tf.constant(1.0))


# -- nn.xent-labels-range --------------------------------------------------------------------------
@clause("nn.xent-labels-range", ref="tf221")
@pytest.mark.parametrize("labels,bad", [([0, 2, 1], 2), ([-1, 0, 5], -1), ([3, 7, 1], 7)])
def test_sparse_xent_label_out_of_range_raises(backend, tf, labels, bad):
    """On CPU, a label outside [0, num_classes) is an InvalidArgumentError naming the smallest
    label if it is negative, else the largest, and listing all labels."""
    call = f"sparse_softmax_cross_entropy_with_logits(labels={labels}, logits of 2 classes)"
    listed = " ".join(str(v) for v in labels)
    with raises(tf.errors.InvalidArgumentError, call=call,
                match=rf"Received a label value of {bad} which is outside the valid range of \[0, 2\)\.  "
                      rf"Label values: {listed}"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant(labels), logits=tf.zeros([3, 2]))


@clause("nn.xent-labels-range", ref="tf221")
def test_sparse_xent_labels_in_range(backend, tf):
    logits = np.array([[2.0, -5.0, 0.5, -0.1], [0.0, 0.0, 1.9, 1.4], [-100.0, 100.0, -100.0, -100.0]], np.float32)
    got = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([0, 3, 1]), logits=tf.constant(logits))
    z = logits.astype(np.float64)
    shifted = z - z.max(1, keepdims=True)
    want = np.log(np.exp(shifted).sum(1)) - shifted[[0, 1, 2], [0, 3, 1]]
    # a float32 log-sum-exp: a few roundings
    assert_close(got, want, call="sparse_softmax_cross_entropy_with_logits (TF's docstring example)",
                 tolerance=Tolerance(rtol=1e-6, atol=1e-6))


# -- nn.dropout-seeding ----------------------------------------------------------------------------
@clause("nn.dropout-seeding", ref="tf221")
@pytest.mark.parametrize("rate", [0.25, 0.5, 0.8])
def test_dropout_keeps_and_scales(backend, tf, rate):
    x = np.arange(1, 201, dtype=np.float32).reshape(10, 20)
    out = to_numpy(tf.nn.dropout(tf.constant(x), rate, seed=7))
    kept = out != 0
    call = f"dropout(x, rate={rate}, seed=7)"
    assert_close(out[kept], x[kept] / np.float32(1 - rate), call=call, what="kept elements",
                 scale=x[kept] / (1 - rate))
    frac = kept.mean()
    assert_true(abs(frac - (1 - rate)) < 0.12, f"kept {frac:.2f} of 200 elements, expected about {1 - rate}",
                call=call)


@clause("nn.dropout-seeding", ref="tf221")
def test_dropout_repeats_after_set_seed(backend, tf):
    """The same global seed and op seed give the same mask again after tf.random.set_seed; a
    second call without resetting advances the stream (another mask)."""
    x = tf.ones([8, 16])
    tf.random.set_seed(11)
    a = to_numpy(tf.nn.dropout(x, 0.5, seed=3))
    b = to_numpy(tf.nn.dropout(x, 0.5, seed=3))
    tf.random.set_seed(11)
    c = to_numpy(tf.nn.dropout(x, 0.5, seed=3))
    assert_equal(c, a, call="set_seed(11); dropout(seed=3) twice", what="mask after set_seed again")
    assert_true(not np.array_equal(a, b), "two successive dropout calls gave the same mask", call="dropout(seed=3)")


@clause("nn.dropout-seeding", ref="tf221")
def test_dropout_noise_shape_broadcasts(backend, tf):
    x = tf.ones([6, 5])
    out = to_numpy(tf.nn.dropout(x, 0.5, noise_shape=[6, 1], seed=2))
    call = "dropout(ones([6, 5]), 0.5, noise_shape=[6, 1])"
    for r in range(6):
        assert_true(len(set(out[r].tolist())) == 1, f"row {r} = {out[r].tolist()} is not all kept or all dropped",
                    call=call)
    assert_true(set(np.unique(out).tolist()) <= {0.0, 2.0}, f"values {np.unique(out)} are not 0 or 2", call=call)


@clause("nn.dropout-seeding", ref="tf221")
def test_general_dropout_uses_the_callers_sampler(backend, tf):
    """tf.nn.experimental.general_dropout keeps x / (1 - rate) where the caller's uniform draws are
    >= rate, asking the sampler for the noise shape as _get_noise_shape gives it (x's shape, or the
    noise shape of x's rank) and x's dtype."""
    x = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    u = np.array([[0.1, 0.6, 0.5, 0.49], [0.9, 0.2, 0.75, 0.0], [0.5, 0.5, 0.3, 0.8]], np.float32)
    asked = []

    def sampler(shape, dtype):
        dims = [int(d) for d in (shape.as_list() if hasattr(shape, "as_list") else to_numpy(shape))]
        asked.append((dims, dtype.name))
        return tf.constant(u[: dims[0], : dims[1]], dtype=dtype)

    for rate, noise, want_u in ((0.5, None, u), (0.25, [3, 1], u[:, :1])):
        out = to_numpy(tf.nn.experimental.general_dropout(tf.constant(x), rate, sampler, noise_shape=noise))
        want = np.where(want_u >= np.float32(rate), x * np.float32(1 / (1 - rate)), np.float32(0))
        assert_close(out, want, call=f"general_dropout(x, {rate}, sampler, noise_shape={noise})", what="out")
    assert_equal(asked, [([3, 4], "float32"), ([3, 1], "float32")], call="general_dropout's sampler calls",
                 what="(shape, dtype) asked for")


# -- nn.max-pool-nan -------------------------------------------------------------------------------
@clause("nn.max-pool-nan", ref="tf221")
def test_max_pool_skips_nan(tf):
    lowest = np.finfo(np.float32).min
    for vals, want in [([1.0, np.nan, 3.0, 2.0], 3.0), ([np.nan, 1.0, 3.0, 2.0], 3.0), ([np.nan] * 4, lowest),
                       ([-np.inf] * 4, lowest)]:
        x = tf.constant(np.array(vals, np.float32).reshape(1, 2, 2, 1))
        assert_equal(to_numpy(tf.nn.max_pool2d(x, 2, 1, "VALID")).reshape(()), np.float32(want),
                     call=f"max_pool2d over {vals}")
    x = tf.Variable(np.array([np.nan, 1.0, 5.0, 2.0], np.float32).reshape(1, 2, 2, 1))
    with tf.GradientTape() as tape:
        y = tf.nn.max_pool2d(x, 2, 1, "VALID")
    assert_equal(to_numpy(tape.gradient(y, x)).ravel(), np.array([1.0, 0.0, 0.0, 0.0], np.float32),
                 call="gradient of max_pool2d over [nan, 1, 5, 2] (to the NaN in first place)")


# -- nn.conv-dilation ------------------------------------------------------------------------------
@clause("nn.conv-dilation", ref="tf221")
def test_dilated_conv_gradient_per_dtype(tf, onednn_float32):
    for dt in ("float32", "float64"):
        x = tf.Variable(np.arange(2 * 6 * 6 * 2, dtype=dt).reshape(2, 6, 6, 2) / 10)
        w = tf.Variable(np.ones((3, 3, 2, 3), dt))
        with tf.GradientTape() as tape:
            y = tf.nn.conv2d(x, w, strides=1, padding="VALID", dilations=2)
        if dt == "float32":   # the two dilated windows per axis (taps 0,2,4 and 1,3,5) reach each pixel
            g = to_numpy(tape.gradient(y, x))   # once, for each of the 3 output channels
            assert_equal(g[0, :, :, 0], np.full((6, 6), 3.0, dt),
                         call="gradient of a float32 conv2d with dilations=2 (ones filter, 2x2 output)")
        else:
            with raises(tf.errors.InvalidArgumentError, match="dilation rates larger than 1",
                        call="gradient of a float64 conv2d with dilations=2"):
                tape.gradient(y, x)


# -- nn.float-attrs --------------------------------------------------------------------------------
@clause("nn.float-attrs", ref="tf221")
def test_float_attrs_are_32_bit(tf):
    out = tf.nn.leaky_relu(tf.constant([-1.0], tf.float64), alpha=0.1)
    assert_equal(to_numpy(out), np.array([-float(np.float32(0.1))]), call="leaky_relu(float64 -1.0, alpha=0.1)")


# -- nn.loss-formulas ------------------------------------------------------------------------------
_Z = np.array([[1.0, 0.0, 0.3], [0.0, 1.0, 0.8]])                 # labels (sigmoid/weighted: in [0, 1])
_L = np.array([[2.5, -1.5, 0.2], [-30.0, 40.0, -0.7]])            # logits, two beyond exp's float32 comfort
_P = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])                 # soft labels summing to 1
_C = np.array([[3.0, 0.0, 1.0], [0.5, 2.0, 7.0]])                 # Poisson targets


def _sp(x: np.ndarray) -> np.ndarray:
    """log(1 + exp(x)), stable."""
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


_NN_LOSSES = {
    "sigmoid_cross_entropy_with_logits": (
        lambda tf, d: tf.nn.sigmoid_cross_entropy_with_logits(labels=d(_Z), logits=d(_L)),
        _sp(_L) - _L * _Z),
    "weighted_cross_entropy_with_logits": (
        lambda tf, d: tf.nn.weighted_cross_entropy_with_logits(labels=d(_Z), logits=d(_L), pos_weight=3.0),
        3.0 * _Z * _sp(-_L) + (1 - _Z) * _sp(_L)),
    "weighted_cross_entropy_with_logits(pos_weight=0.25)": (
        lambda tf, d: tf.nn.weighted_cross_entropy_with_logits(labels=d(_Z), logits=d(_L), pos_weight=0.25),
        0.25 * _Z * _sp(-_L) + (1 - _Z) * _sp(_L)),
    "softmax_cross_entropy_with_logits": (
        lambda tf, d: tf.nn.softmax_cross_entropy_with_logits(labels=d(_P), logits=d(_L)),
        -(_P * (_L - _L.max(-1, keepdims=True) - np.log(np.exp(_L - _L.max(-1, keepdims=True)).sum(-1, keepdims=True)))
          ).sum(-1)),
    "sparse_softmax_cross_entropy_with_logits": (
        lambda tf, d: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([2, 0]), logits=d(_L)),
        np.log(np.exp(_L - _L.max(-1, keepdims=True)).sum(-1)) + _L.max(-1) - _L[[0, 1], [2, 0]]),
    "log_poisson_loss": (
        lambda tf, d: tf.nn.log_poisson_loss(d(_C), d(_L[:, :3] / 10.0)),
        np.exp(_L / 10.0) - _C * _L / 10.0),
    "log_poisson_loss(compute_full_loss=True)": (
        lambda tf, d: tf.nn.log_poisson_loss(d(_C), d(_L / 10.0), compute_full_loss=True),
        np.exp(_L / 10.0) - _C * _L / 10.0
        + np.where(_C > 1, _C * np.log(np.where(_C > 0, _C, 1.0)) - _C + 0.5 * np.log(2 * np.pi * np.where(_C > 0, _C, 1.0)),
                   0.0)),
    "l2_loss": (lambda tf, d: tf.nn.l2_loss(d(_L)), np.asarray((_L ** 2).sum() / 2)),
}


@clause("nn.loss-formulas", ref="tf221")
@pytest.mark.parametrize("name", list(_NN_LOSSES))
def test_nn_loss_functions_compute_their_formulas(backend, tf, name):
    """Each tf.nn loss against its formula in NumPy (float64), on labels at 0, 1 and between,
    and logits large enough that a naive exp would overflow float32."""
    fn, want = _NN_LOSSES[name]
    got = fn(tf, lambda a: tf.constant(a, dtype=tf.float64))
    # (atol: 40 - 40 * 1 cancels to ~1e-15 in float64, the formulas' own rounding)
    assert_close(got, want, tolerance=Tolerance(rtol=1e-9, atol=1e-12), call=f"tf.nn.{name} (float64)", what="loss")


@pytest.mark.clause("nn.conv-empty-input", ref="tf221")
def test_convolution_of_an_empty_batch_returns_its_input_in_onednn_dtypes(backend, tf, onednn_float32):
    """TF 2.21 on x86: oneDNN's Conv2D returns an input with zero elements as its output (the input's
    shape, not the convolution's) in float32; float64 (Eigen's kernel) gives the convolution's shape."""
    f32 = tf.nn.convolution(tf.zeros([0, 6, 2], tf.float32), tf.ones([3, 2, 3], tf.float32))
    assert_equal(tuple(f32.shape), (0, 6, 2), what="out.shape", call="tf.nn.convolution([0, 6, 2] float32, [3, 2, 3])")
    f64 = tf.nn.convolution(tf.zeros([0, 6, 2], tf.float64), tf.ones([3, 2, 3], tf.float64))
    assert_equal(tuple(f64.shape), (0, 4, 3), what="out.shape", call="tf.nn.convolution([0, 6, 2] float64, [3, 2, 3])")
