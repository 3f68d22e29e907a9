"""Value sweep 24 (issue 29): the gradients of tf.nn's softmax family, cross-entropies (each label form, an
axis other than the last, logits at exactly 0), normalization and dropout at input profiles that make their
rules visible: rank-3 inputs reduced along the first or middle axis, labels that are not one-hot, a signed,
non-uniform upstream gradient R with zeros in it, and every input differentiated (labels, mean, variance,
offset and scale too).

The expected gradient of sum(R * f(x...)) is central differences of the backend's own float64 forward pass
(h = 1e-5, these maps are smooth), element by element of every input; dropout's is the kept mask (read off
the forward output) over 1 - rate, times R (nn_ops.dropout_v2: x * mask / (1 - rate)).
"""

from __future__ import annotations

import ast
import zlib

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.suite.test_sweep24a_array import TOL_SMOOTH, _central, _r, _tape_grads, _vals
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL64 = Tolerance(rtol=1e-12, atol=1e-12)


def _labels(shape, axis, seed):
    """Positive labels summing to 1 along `axis`, not one-hot."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.1, 1.0, size=shape)
    return p / p.sum(axis=axis, keepdims=True)


def _soft_xent(axis):
    return lambda tf, z, lab: tf.nn.softmax_cross_entropy_with_logits(labels=lab, logits=z, axis=axis)


CASES = {
    "softmax(axis=0) of (3, 2, 4)": (lambda tf, x: tf.nn.softmax(x, axis=0), [(3, 2, 4)]),
    "softmax(axis=1) of (2, 3, 4)": (lambda tf, x: tf.nn.softmax(x, axis=1), [(2, 3, 4)]),
    "log_softmax(axis=1) of (2, 4, 3)": (lambda tf, x: tf.nn.log_softmax(x, axis=1), [(2, 4, 3)]),
    "log_softmax(axis=-1) of (3, 5)": (lambda tf, x: tf.nn.log_softmax(x), [(3, 5)]),
    "softmax_cross_entropy(axis=-1), soft labels": (_soft_xent(-1), [(3, 4), "labels:-1"]),
    "softmax_cross_entropy(axis=0), soft labels": (_soft_xent(0), [(4, 3), "labels:0"]),
    "softmax_cross_entropy(axis=1) of rank 3": (_soft_xent(1), [(2, 4, 3), "labels:1"]),
    "sparse_softmax_cross_entropy, logits (2, 3, 4)": (
        lambda tf, z: tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=tf.constant([[0, 3, 1], [2, 2, 0]], tf.int64), logits=z), [(2, 3, 4)]),
    "sigmoid_cross_entropy, logits with 0, soft labels": (
        lambda tf, z, lab: tf.nn.sigmoid_cross_entropy_with_logits(labels=lab, logits=z), ["logits0:(2, 3)", "p:(2, 3)"]),
    "weighted_cross_entropy(pos_weight=2.5)": (
        lambda tf, z, lab: tf.nn.weighted_cross_entropy_with_logits(labels=lab, logits=z, pos_weight=2.5),
        [(2, 3), "p:(2, 3)"]),
    "log_sigmoid": (lambda tf, x: tf.math.log_sigmoid(x), [(2, 4)]),
    "l2_loss": (lambda tf, x: tf.nn.l2_loss(x), [(2, 3)]),
    "batch_normalization, every input": (
        lambda tf, x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3),
        [(4, 3), (3,), "p:(3,)", (3,), (3,)]),
    "moments(axes=[0, 2]) mean and variance": (
        lambda tf, x: tf.concat([tf.reshape(t, [-1]) for t in tf.nn.moments(x, axes=[0, 2])], 0), [(2, 3, 4)]),
    "normalize_moments(shift)": (
        lambda tf, c, ms, vs: tf.concat(tf.nn.normalize_moments(c, ms, vs, shift=None)[:2], 0), ["p:()", (3,), "p:(3,)"]),
    "stateless_dropout(rate=0.4)": (
        lambda tf, x: tf.nn.experimental.stateless_dropout(x, 0.4, seed=[3, 7]), [(3, 5)]),
}


def _inputs(spec, seed):
    xs = []
    for k, s in enumerate(spec):
        if isinstance(s, tuple):
            x = _vals(s, seed + k)
            xs.append(x / np.abs(x).max() * 2.0)
        elif s.startswith("labels:"):
            xs.append(_labels(xs[0].shape, int(s.split(":")[1]), seed + k))
        elif s.startswith("p:"):
            shape = ast.literal_eval(s[2:])
            rng = np.random.default_rng(seed + k)
            xs.append(rng.uniform(0.2, 1.0, size=shape))
        else:   # "logits0:(shape)": signed logits with exact zeros
            x = _vals(ast.literal_eval(s.split(":")[1]), seed + k)
            x = x / np.abs(x).max() * 2.0
            x.flat[::4] = 0.0
            xs.append(x)
    return xs


@clause("autodiff.op-gradients", ref="tf221")
def test_sweep24a_nn_gradients_match_central_differences(tf, budget):
    """The tape's gradient of sum(R * f(x...)) for every input (labels, mean, variance, offset, scale included)
    equals central differences of the backend's own float64 forward pass."""
    for name in budget(list(CASES)):
        f, spec = CASES[name]
        seed = zlib.crc32(name.encode())
        xs = _inputs(spec, seed)
        out_shape = tuple(tf.convert_to_tensor(f(tf, *[tf.constant(x, tf.float64) for x in xs])).shape)
        r = _r(out_shape, seed) if out_shape else np.array(-1.75)
        got = _tape_grads(tf, lambda *ts: f(tf, *ts), xs, r)
        want = _central(tf, lambda *ts: f(tf, *ts), xs, r, 1e-5)
        for k, (g, w) in enumerate(zip(got, want)):
            call = f"tape.gradient({name}, input {k}, output_gradients=R {out_shape})"
            assert_equal(None if g is None else g.shape, w.shape, what=f"d/dx{k} shape", call=call)
            assert_close(g, w, tolerance=TOL_SMOOTH, call=call, what=f"d/dx{k}")


@clause("autodiff.op-gradients", ref="tf221")
def test_sweep24a_dropout_gradient_is_the_kept_mask_over_one_minus_rate(tf, budget):
    """tf.nn.dropout(x, rate): x's gradient is R / (1 - rate) where the output kept x (non-zero here: x has no
    zeros) and 0 elsewhere, for a float rate, a tensor rate and a noise_shape that broadcasts the mask."""
    x0 = _vals((4, 6), 11)
    r = _r((4, 6), 11)
    for case in budget(["rate=0.25", "rate tensor 0.5", "noise_shape=[4, 1]"]):
        x = tf.constant(x0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            if case == "rate=0.25":
                rate, y = 0.25, tf.nn.dropout(x, 0.25, seed=5)
            elif case == "rate tensor 0.5":
                rate, y = 0.5, tf.nn.dropout(x, tf.constant(0.5, tf.float64), seed=5)
            else:
                rate, y = 0.5, tf.nn.dropout(x, 0.5, noise_shape=[4, 1], seed=5)
        g = np.asarray(tape.gradient(y, x, output_gradients=tf.constant(r)))
        kept = np.asarray(y) != 0
        assert_close(g, np.where(kept, r / (1 - rate), 0.0), tolerance=TOL64, what="d/dx",
                     call=f"tape.gradient(dropout(x (4, 6), {case}), R)")


@clause("autodiff.op-gradients", ref="tf221")
def test_sweep24a_cross_entropy_gradients_at_logits_exactly_zero(tf, budget):
    """At logits exactly 0 the composites' kinks decide (nn_impl.py builds them of where/relu/abs, whose
    gradients at 0 are TF's): sigmoid_cross_entropy_with_logits gives sigmoid(0) - z = 0.5 - z (the
    derivative), weighted_cross_entropy_with_logits gives 1 - z (relu(-x) and |x| pass nothing at 0, so not
    the derivative (1 - z) - (1 + (q - 1) z) / 2); on both sides of 0 both give the derivative. The labels'
    gradients: -x for the sigmoid form, -x + (q - 1)(log1p(exp(-|x|)) + max(-x, 0)) for the weighted one."""
    x = np.array([0.0, 0.0, 0.5, -0.5, 0.0])
    z = np.array([0.3, 1.0, 0.3, 0.3, 0.0])
    r = np.array([1.0, -2.0, 0.5, 1.5, 0.75])
    q = 2.5
    sig = 1.0 / (1.0 + np.exp(-x))
    lw = 1.0 + (q - 1.0) * z
    cases = {
        "sigmoid": (lambda t, lab: tf.nn.sigmoid_cross_entropy_with_logits(labels=lab, logits=t),
                    r * (sig - z), r * -x),
        "weighted(pos_weight=2.5)": (
            lambda t, lab: tf.nn.weighted_cross_entropy_with_logits(labels=lab, logits=t, pos_weight=q),
            r * np.where(x == 0, 1.0 - z, (1.0 - z) + lw * (sig - 1.0)),
            r * (-x + (q - 1.0) * (np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0.0)))),
    }
    for name in budget(sorted(cases)):
        f, want_x, want_z = cases[name]
        gx, gz = _tape_grads(tf, f, [x, z], r)
        call = f"tape.gradient({name}_cross_entropy_with_logits, logits [0, 0, 0.5, -0.5, 0], R)"
        assert_close(gx, want_x, tolerance=TOL64, what="d/dlogits", call=call)
        assert_close(gz, want_z, tolerance=TOL64, what="d/dlabels", call=call)
