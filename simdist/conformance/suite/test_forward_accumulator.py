"""`tf.autodiff.ForwardAccumulator` — clause autodiff.jacobian (TF 2.21's forwardprop.py): a JVP is
the Jacobian times the tangent (checked against the tape's jacobian of the same function and against
central differences), a variable's tangent reaches its reads, an outer accumulator takes the inner
one's JVP (higher order), forward-over-backward is a Hessian-vector product, and what the primals do
not reach has no JVP (None, or zeros when asked)."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause

_X = np.array([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]], np.float64)
_T = np.array([[1.0, 0.5, -2.0], [0.25, -1.0, 3.0]], np.float64)


def _f(tf, x):
    return tf.concat([tf.tanh(x) * tf.exp(-x), tf.linalg.matmul(x, tf.transpose(x)) / 3.0,
                      tf.reduce_logsumexp(x, 1, keepdims=True), tf.nn.softmax(x)], 1)


@clause("autodiff.jacobian", ref="tf221")
def test_jvp_is_the_jacobian_times_the_tangent(backend, tf):
    """acc.jvp(f(x)) equals jacobian(f(x), x) contracted with the tangent, and central differences of f
    along the tangent (float64, step 1e-6)."""
    x = tf.constant(_X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(_T)) as acc:
        y = _f(tf, x)
    jvp = acc.jvp(y)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y2 = _f(tf, x)
    jac = np.asarray(tape.jacobian(y2, x))
    want = np.tensordot(jac, _T, axes=2)
    call = "ForwardAccumulator(x, t).jvp(f(x))"
    assert_close(jvp, want, tolerance=Tolerance(rtol=1e-9, atol=1e-12), call=call,
                 what="the JVP against jacobian . t")
    h = 1e-6
    fd = (np.asarray(_f(tf, tf.constant(_X + h * _T))) - np.asarray(_f(tf, tf.constant(_X - h * _T)))) / (2 * h)
    assert_close(jvp, fd, tolerance=Tolerance(rtol=1e-6, atol=1e-7), call=call,
                 what="the JVP against central differences")


@clause("autodiff.jacobian", ref="tf221")
def test_nested_accumulators_and_forward_over_backward(backend, tf):
    """outer.jvp(inner.jvp(p ** 3.5)) is 3.5 · 2.5 · p^1.5; inner.jvp(outer.jvp(...)) is None (inner
    accumulators do not see outer ones' JVPs); the JVP of a tape's gradient is a Hessian-vector product
    (3 v² summed: H = diag(6 v)); a variable's reads carry its tangent; an unconnected value has no JVP."""
    p = tf.constant(1.1, tf.float64)
    with tf.autodiff.ForwardAccumulator(p, tf.constant(1.0, tf.float64)) as outer:
        with tf.autodiff.ForwardAccumulator(p, tf.constant(1.0, tf.float64)) as inner:
            out = p ** tf.constant(3.5, tf.float64)
    call = "nested ForwardAccumulators of p ** 3.5"
    assert_close(inner.jvp(out), 3.5 * 1.1 ** 2.5, tolerance=Tolerance(rtol=1e-12, atol=0.0), call=call, what="inner.jvp")
    assert_close(outer.jvp(inner.jvp(out)), 3.5 * 2.5 * 1.1 ** 1.5, tolerance=Tolerance(rtol=1e-12, atol=0.0),
                 call=call, what="outer.jvp(inner.jvp)")
    assert inner.jvp(outer.jvp(out)) is None, f"inner.jvp(outer.jvp(out))={inner.jvp(outer.jvp(out))!r}, but should be " \
        f"None (an inner accumulator does not see an outer one's JVPs) [{call}]"
    v = tf.Variable([1.0, 2.0, -0.5], dtype=tf.float64)
    direction = np.array([1.0, 0.0, 2.0])
    with tf.autodiff.ForwardAccumulator(v, tf.constant(direction)) as acc:
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v ** 3.0)
        g = tape.gradient(y, v)
        unrelated = tf.constant([3.0], tf.float64) * 2.0
    call = "ForwardAccumulator(v, d) over a tape's gradient of sum(v ** 3)"
    assert_close(acc.jvp(g), 6.0 * np.array([1.0, 2.0, -0.5]) * direction,
                 tolerance=Tolerance(rtol=1e-12, atol=0.0), call=call, what="H . d")
    assert_close(acc.jvp(y), float(np.sum(3 * np.array([1.0, 2.0, -0.5]) ** 2 * direction)),
                 tolerance=Tolerance(rtol=1e-12, atol=0.0), call=call, what="the JVP of the loss")
    assert acc.jvp(unrelated) is None, f"acc.jvp(unrelated)={acc.jvp(unrelated)!r}, but should be None [{call}]"
    assert_close(acc.jvp(unrelated, unconnected_gradients="zero"), [0.0], tolerance=Tolerance(rtol=0.0, atol=0.0), call=call,
                 what="an unconnected JVP as zeros")
