"""`tf.autodiff.ForwardAccumulator` against real TensorFlow 2.21: JVPs of elementwise ops, matmul,
reductions, broadcasting, softmax and cross-entropy, convolution, gather, a Keras Dense layer, variables
as primals, several primals, watched integers, unconnected outputs (None or zeros), the primal's own
JVP, nested accumulators (higher order: the outer one differentiates the inner one's JVP; the inner
does not see the outer's), forward-over-backward Hessian-vector products with a tape inside, JVPs looked
up after the context exits and ops run after it (not traced), an accumulator inside a tf.function and
a tf.function called inside one, and the constructor's and re-entry's
errors. Values within 1e-5 (TF's per-op double-backward transposes, the same rule simdist runs),
dtypes, shapes, error classes and messages (case_results.Table). Needs the `tf` extra. Rule: docs/spec.md
`autodiff.forward-accumulator`.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_X = np.array([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]], np.float32)
_T = np.array([[1.0, 0.5, -2.0], [0.25, -1.0, 3.0]], np.float32)


def _jvp_of(fn: Callable[[Any, Any], Any], x: np.ndarray = _X, t: np.ndarray = _T) -> Callable[[Any], Any]:
    """The value of fn(tf, x) and its JVP in direction t."""
    def case(tf: Any) -> Any:
        xt = tf.constant(x)
        with tf.autodiff.ForwardAccumulator(xt, tf.constant(t)) as acc:
            y = fn(tf, xt)
        return [y, acc.jvp(y)]
    return case


def _nested(tf: Any) -> Any:
    p = tf.constant(1.1)
    with tf.autodiff.ForwardAccumulator(p, tf.constant(1.0)) as outer:
        with tf.autodiff.ForwardAccumulator(p, tf.constant(1.0)) as inner:
            out = p ** tf.constant(3.5)
    ij = inner.jvp(out)
    return [ij, outer.jvp(ij), outer.jvp(out), inner.jvp(outer.jvp(out))]


def _hvp(tf: Any) -> Any:
    v = tf.Variable([1.0, 2.0, -0.5])
    with tf.autodiff.ForwardAccumulator(v, tf.constant([1.0, 0.0, 2.0])) as acc:
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v ** 3.0) + tf.reduce_prod(tf.sin(v))
        g = tape.gradient(y, v)
    return [g, acc.jvp(g), acc.jvp(v), acc.jvp(y)]


def _dense(tf: Any) -> Any:
    tf.keras.utils.set_random_seed(3)
    x = tf.constant([[2.0, 3.0], [1.0, 4.0]])
    targets = tf.constant([[1.0], [-1.0]])
    dense = tf.keras.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")
    dense.build([None, 2])
    with tf.autodiff.ForwardAccumulator(dense.kernel, tf.constant([[1.0], [0.0]])) as acc:
        loss = tf.reduce_sum((dense(x) - targets) ** 2.0)
    return [loss, acc.jvp(loss)]


def _two_primals(tf: Any) -> Any:
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, -1.0])
    with tf.autodiff.ForwardAccumulator([a, b], [tf.constant([1.0, 0.0]), tf.constant([0.5, 2.0])]) as acc:
        y = a * b + tf.exp(a) / b
        z = tf.stack([a, b])
    return [y, acc.jvp([y, z]), acc.jvp({"a": a, "b": b})]


def _unconnected(tf: Any) -> Any:
    a, c = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    with tf.autodiff.ForwardAccumulator(a, tf.constant([1.0, 1.0])) as acc:
        y = c * 2.0
        z = tf.cast(a, tf.int32)
        s = tf.stop_gradient(a) * 3.0
    return [acc.jvp(y) is None, acc.jvp(z) is None, acc.jvp(s) is None,
            acc.jvp(y, unconnected_gradients="zero"), acc.jvp(c, unconnected_gradients=tf.UnconnectedGradients.ZERO)]


def _after_exit(tf: Any) -> Any:
    a = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(a, tf.constant([1.0, -1.0])) as acc:
        y = a * a
    later = a * a
    return [acc.jvp(y), acc.jvp(later) is None, acc.jvp(a)]


def _variable_read(tf: Any) -> Any:
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.autodiff.ForwardAccumulator(v, tf.constant([[0.0, 1.0], [1.0, 0.0]])) as acc:
        r = v.read_value()
        y = tf.linalg.matmul(v, v) + tf.gather(v, [1, 0, 1])[:2]
    return [acc.jvp(r), acc.jvp(y), acc.jvp(v)]


def _twice(tf: Any) -> Any:
    a = tf.constant(1.0)
    return tf.autodiff.ForwardAccumulator([a, a], [tf.constant(1.0), tf.constant(2.0)])


def _reenter(tf: Any) -> Any:
    acc = tf.autodiff.ForwardAccumulator(tf.constant(1.0), tf.constant(1.0))
    with acc:
        with acc:
            pass


def _integer_primal(tf: Any) -> Any:
    a = tf.constant([1, 2])
    with tf.autodiff.ForwardAccumulator(a, tf.constant([1, 1])) as acc:
        y = a * 3
    return [acc.jvp(a), acc.jvp(y) is None]


def _in_function(tf: Any) -> Any:
    @tf.function
    def f(x: Any, t: Any) -> Any:
        with tf.autodiff.ForwardAccumulator(x, t) as acc:
            y = tf.sin(x) * x
        return acc.jvp(y)
    return [f(tf.constant([1.0, 2.0]), tf.constant([1.0, 0.5])), f(tf.constant([1.0, 2.0]), tf.constant([1.0, 0.5])),
            f(tf.constant([3.0, 2.0]), tf.constant([1.0, 0.5]))]


def _through_function(tf: Any) -> Any:
    g = tf.function(lambda x: tf.sin(x) * x)
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.5])) as acc:
        y, y2 = g(x), g(x)
    return [acc.jvp(y), acc.jvp(y2)]


def _keras_jvp(tf: Any) -> Any:
    x = tf.constant([1.0, 2.0, 0.5])
    out, tan = tf.keras.ops.jvp(lambda a: tf.keras.ops.sin(a) * a, (x,), (tf.constant([1.0, 0.0, 2.0]),))
    aux = tf.keras.ops.jvp(lambda a, b: (a * b, {"s": a + b}), (x, x * 2.0), (tf.ones(3), tf.zeros(3)), has_aux=True)
    return [out, tan, aux[0], aux[1], aux[2]]


CASES = {
    "ops/elementwise chain": _jvp_of(lambda tf, x: tf.tanh(x) * tf.exp(-x) + tf.sqrt(tf.abs(x) + 1.0)),
    "ops/division and power": _jvp_of(lambda tf, x: (x ** 3.0) / (1.0 + x * x) - tf.math.log1p(x * x)),
    "ops/matmul": _jvp_of(lambda tf, x: tf.linalg.matmul(x, tf.transpose(x)) + tf.linalg.matmul(tf.transpose(x), x)[0]),
    "ops/reductions": _jvp_of(lambda tf, x: [tf.reduce_sum(x, 0), tf.reduce_mean(x), tf.reduce_max(x, 1),
                                             tf.reduce_logsumexp(x, 1), tf.norm(x)]),
    "ops/broadcasting": _jvp_of(lambda tf, x: x * tf.constant([1.0, -2.0, 0.5]) + tf.reshape(x[:, 0], [2, 1])),
    "ops/softmax and cross-entropy": _jvp_of(lambda tf, x: [tf.nn.softmax(x), tf.nn.softmax_cross_entropy_with_logits(
        labels=tf.constant([[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]]), logits=x)]),
    "ops/activations": _jvp_of(lambda tf, x: [tf.nn.relu(x), tf.nn.sigmoid(x), tf.nn.elu(x), tf.nn.softplus(x),
                                              tf.nn.leaky_relu(x, 0.1)]),
    "ops/shape ops": _jvp_of(lambda tf, x: [tf.concat([x, x * 2.0], 1), tf.reverse(x, [1]), tf.tile(x, [2, 1]),
                                            tf.gather(x, [1, 0, 1]), tf.transpose(x)[::2], tf.pad(x, [[1, 0], [0, 2]])]),
    "ops/convolution": _jvp_of(lambda tf, x: tf.nn.conv2d(tf.reshape(x, [1, 2, 3, 1]), tf.constant(
        [[[[1.0]], [[-0.5]]], [[[2.0]], [[0.25]]]]), 1, "SAME")),
    "ops/sort and top_k": _jvp_of(lambda tf, x: [tf.sort(x), tf.math.top_k(x, 2).values, tf.math.cumsum(x, 1)]),
    "ops/float64": _jvp_of(lambda tf, x: tf.sin(x) * tf.cos(x) + tf.math.atan(x), _X.astype(np.float64),
                           _T.astype(np.float64)),
    "ops/the primal itself": _jvp_of(lambda tf, x: x),
    "api/nested accumulators": _nested,
    "api/forward over backward": _hvp,
    "api/a Dense layer's kernel": _dense,
    "api/two primals and structures": _two_primals,
    "api/unconnected outputs": _unconnected,
    "api/after the context exits": _after_exit,
    "api/a variable read": _variable_read,
    "api/an integer primal": _integer_primal,
    "api/inside a tf.function, called again": _in_function,
    "api/through a tf.function's calls": _through_function,
    "api/keras.ops.jvp": _keras_jvp,
    "errors/a primal twice": _twice,
    "errors/entered twice": _reenter,
}

TABLE = case_results.Table(__file__, CASES, re.compile(r"(?!)()"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("autodiff.jacobian")
def test_jvps_of_ops(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("ops/"))


@pytest.mark.clause("autodiff.jacobian")
def test_accumulator_api(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("api/") or lab.startswith("errors/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
