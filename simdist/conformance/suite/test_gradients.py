"""Gradients op by op — clause autodiff.op-gradients (TF 2.21's registered gradients, math_grad.py and
nn_grad.py; no seed document states them).

Every expected gradient is computed here in NumPy (float64) from the op's calculus, never taken from
the backend: matmul under each transpose combination with non-square operands, binary ops under
broadcasting (size-1 and missing dimensions), reductions along axes (ties of max shared), activations
at negative inputs and at exactly 0, softmax/log-softmax and the fused cross-entropies (labels too),
transposes by a 3-cycle, gathers with repeated indices on an inner axis. A non-uniform upstream
gradient (`output_gradients`) makes every rule visible, not only its sum.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, fail
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.values import positive_inputs, signed_inputs

clause = pytest.mark.clause
RNG = np.random.default_rng(29)
#: float64 central differences with h = 1e-6: truncation and rounding errors stay below 1e-6.
NUMERIC_TOL = Tolerance(rtol=1e-5, atol=1e-6)


def _upstream(shape: tuple[int, ...]) -> np.ndarray:
    return np.round(RNG.uniform(-2.0, 2.0, size=shape), 2)


def _unbroadcast(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Sum `g` back to `shape`: over the leading dimensions and the size-1 ones (NumPy reference)."""
    lead = g.ndim - len(shape)
    g = g.sum(axis=tuple(range(lead))) if lead else g
    axes = tuple(i for i, d in enumerate(shape) if d == 1 and g.shape[i] != 1)
    return g.sum(axis=axes, keepdims=True) if axes else g


def _grads(tf, fn, *xs: np.ndarray, upstream: np.ndarray | None = None):
    """The gradients of fn(*xs) (float64 constants, watched) for the upstream gradient given."""
    ts = [tf.constant(x, dtype=tf.float64) for x in xs]
    with tf.GradientTape(persistent=True) as tape:
        for t in ts:
            tape.watch(t)
        out = fn(*ts)
    og = None if upstream is None else tf.constant(upstream, dtype=tf.float64)
    return tape.gradient(out, ts, output_gradients=og)


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_gradients_under_transposes(backend, tf, ta, tb):
    A = np.round(RNG.uniform(-1, 1, size=(2, 3)), 2)
    B = np.round(RNG.uniform(-1, 1, size=(3, 4)), 2)
    a = A.T.copy() if ta else A
    b = B.T.copy() if tb else B
    R = _upstream((2, 4))
    ga, gb = _grads(tf, lambda x, y: tf.matmul(x, y, transpose_a=ta, transpose_b=tb), a, b, upstream=R)
    gA, gB = R @ B.T, A.T @ R
    call = f"tape.gradient(matmul(a, b, transpose_a={ta}, transpose_b={tb}), [a, b])"
    assert_close(ga, gA.T if ta else gA, call=call, what="d/da")
    assert_close(gb, gB.T if tb else gB, call=call, what="d/db")


BINARY = {
    "add": (lambda tf, x, y: x + y, lambda X, Y: (np.ones_like(X), np.ones_like(Y))),
    "sub": (lambda tf, x, y: x - y, lambda X, Y: (np.ones_like(X), -np.ones_like(Y))),
    "mul": (lambda tf, x, y: x * y, lambda X, Y: (Y, X)),
    "div": (lambda tf, x, y: x / y, lambda X, Y: (1 / Y, -X / Y ** 2)),
    "pow": (lambda tf, x, y: tf.pow(x, y), lambda X, Y: (Y * X ** (Y - 1), X ** Y * np.log(X))),
    "maximum": (lambda tf, x, y: tf.maximum(x, y), lambda X, Y: ((X >= Y) * 1.0, (X < Y) * 1.0)),
    "minimum": (lambda tf, x, y: tf.minimum(x, y), lambda X, Y: ((X <= Y) * 1.0, (X > Y) * 1.0)),
    "squared_difference": (lambda tf, x, y: tf.math.squared_difference(x, y), lambda X, Y: (2 * (X - Y), 2 * (Y - X))),
}


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_gradients_under_broadcasting(backend, tf, name):
    """x (2, 1, 3) against y (4, 1): y's gradient sums the leading and the size-1 dimensions.
    Positive operands (pow's log), with ties between x and y (maximum/minimum)."""
    fn, partials = BINARY[name]
    x = np.array([[[0.5, 1.5, 2.0]], [[1.0, 0.25, 3.0]]])
    y = np.array([[1.5], [2.0], [0.5], [1.0]])
    X, Y = np.broadcast_arrays(x, y)
    R = _upstream(X.shape)
    gx, gy = _grads(tf, lambda a, b: fn(tf, a, b), x, y, upstream=R)
    px, py = partials(X, Y)
    call = f"tape.gradient({name}(x[2,1,3], y[4,1]), [x, y])"
    assert_close(gx, _unbroadcast(R * px, x.shape), call=call, what="d/dx")
    assert_close(gy, _unbroadcast(R * py, y.shape), call=call, what="d/dy")


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduction_gradients_along_axes(backend, tf, keepdims):
    x = np.round(RNG.uniform(-1, 1, size=(2, 3, 4)), 2)
    x[0, :, 1] = 0.75          # a three-way tie for the max along axis 1
    x[1, 0, 2] = x[1, 2, 2] = 0.9
    for name, fn, ref in [
        ("reduce_mean(axis=1)", lambda t: tf.reduce_mean(t, axis=1, keepdims=keepdims),
         lambda R: np.broadcast_to(R.reshape(2, 1, 4), x.shape) / 3),
        ("reduce_sum(axis=[0, 2])", lambda t: tf.reduce_sum(t, axis=[0, 2], keepdims=keepdims),
         lambda R: np.broadcast_to(R.reshape(1, 3, 1), x.shape)),
        ("reduce_max(axis=1)", lambda t: tf.reduce_max(t, axis=1, keepdims=keepdims),
         lambda R: (x == x.max(axis=1, keepdims=True)) / (x == x.max(axis=1, keepdims=True)).sum(
             axis=1, keepdims=True) * R.reshape(2, 1, 4)),
    ]:
        out_shape = {"reduce_mean(axis=1)": (2, 4), "reduce_sum(axis=[0, 2])": (3,), "reduce_max(axis=1)": (2, 4)}[name]
        if keepdims:
            out_shape = {"reduce_mean(axis=1)": (2, 1, 4), "reduce_sum(axis=[0, 2])": (1, 3, 1),
                         "reduce_max(axis=1)": (2, 1, 4)}[name]
        R = _upstream(out_shape)
        (g,) = _grads(tf, fn, x, upstream=R)
        assert_close(g, ref(R), call=f"tape.gradient({name}, keepdims={keepdims})", what="d/dx")


X_EDGE = np.array([-2.0, -0.5, 0.0, 0.5, 1.5, 3.0])
UNARY = {
    "relu": (lambda tf, t: tf.nn.relu(t), lambda x: (x > 0) * 1.0),
    "leaky_relu(alpha=0.2)": (lambda tf, t: tf.nn.leaky_relu(t, alpha=0.2), lambda x: np.where(x > 0, 1.0, 0.2)),
    "tanh": (lambda tf, t: tf.tanh(t), lambda x: 1 - np.tanh(x) ** 2),
    "sigmoid": (lambda tf, t: tf.sigmoid(t), lambda x: (1 / (1 + np.exp(-x))) * (1 - 1 / (1 + np.exp(-x)))),
    "softplus": (lambda tf, t: tf.nn.softplus(t), lambda x: 1 / (1 + np.exp(-x))),
    "elu": (lambda tf, t: tf.nn.elu(t), lambda x: np.where(x > 0, 1.0, np.exp(x))),
    "exp": (lambda tf, t: tf.exp(t), np.exp),
    "square": (lambda tf, t: tf.square(t), lambda x: 2 * x),
    "abs": (lambda tf, t: tf.abs(t), np.sign),
    "sqrt(|x|+1)": (lambda tf, t: tf.sqrt(tf.abs(t) + 1.0), lambda x: 0.5 / np.sqrt(np.abs(x) + 1) * np.sign(x)),
    "log(x*x+1)": (lambda tf, t: tf.math.log(t * t + 1.0), lambda x: 2 * x / (x * x + 1)),
}


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("name", sorted(UNARY))
def test_activation_gradients_at_negative_zero_and_positive_inputs(backend, tf, name):
    fn, deriv = UNARY[name]
    R = _upstream(X_EDGE.shape)
    (g,) = _grads(tf, lambda t: fn(tf, t), X_EDGE, upstream=R)
    assert_close(g, R * deriv(X_EDGE), call=f"tape.gradient({name}(x), x), x={X_EDGE.tolist()}", what="d/dx")


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


LOGITS = np.array([[1.0, -0.5, 2.0, 0.0], [0.25, 0.25, -1.0, 3.0], [-2.0, 0.5, 0.5, 1.0]])


@clause("autodiff.op-gradients", ref="tf221")
def test_softmax_and_log_softmax_gradients(backend, tf):
    s = _softmax(LOGITS)
    R = _upstream(LOGITS.shape)
    (g,) = _grads(tf, lambda t: tf.nn.softmax(t), LOGITS, upstream=R)
    assert_close(g, (R - (R * s).sum(axis=-1, keepdims=True)) * s, call="tape.gradient(softmax(z), z)", what="d/dz")
    (g,) = _grads(tf, lambda t: tf.nn.log_softmax(t), LOGITS, upstream=R)
    assert_close(g, R - R.sum(axis=-1, keepdims=True) * s, call="tape.gradient(log_softmax(z), z)", what="d/dz")


@clause("autodiff.op-gradients", ref="tf221")
def test_cross_entropy_gradients_for_logits_and_labels(backend, tf):
    s = _softmax(LOGITS)
    labels = np.array([[0.1, 0.2, 0.6, 0.1], [0.0, 0.5, 0.0, 0.5], [0.25, 0.25, 0.25, 0.25]])
    w = np.array([0.5, -1.5, 2.0])
    gz, gl = _grads(tf, lambda z, lab: tf.nn.softmax_cross_entropy_with_logits(labels=lab, logits=z),
                    LOGITS, labels, upstream=w)
    call = "tape.gradient(softmax_cross_entropy_with_logits(labels, logits), [logits, labels]), weighted rows"
    assert_close(gz, w[:, None] * (s - labels), call=call, what="d/dlogits")
    log_s = LOGITS - LOGITS.max(axis=-1, keepdims=True)
    log_s = log_s - np.log(np.exp(log_s).sum(axis=-1, keepdims=True))
    assert_close(gl, -w[:, None] * log_s, call=call, what="d/dlabels")
    sparse = np.array([2, 3, 0])
    z = tf.constant(LOGITS, dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(z)
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant(sparse), logits=z)
    g = tape.gradient(loss, z, output_gradients=tf.constant(w, dtype=tf.float64))
    assert_close(g, w[:, None] * (s - np.eye(4)[sparse]), what="d/dlogits",
                 call="tape.gradient(sparse_softmax_cross_entropy_with_logits(labels, logits), logits), weighted rows")
    (g,) = _grads(tf, lambda t: tf.nn.l2_loss(t), LOGITS, upstream=np.array(1.5))
    assert_close(g, 1.5 * LOGITS, call="tape.gradient(l2_loss(x), x), upstream 1.5", what="d/dx")


@clause("autodiff.op-gradients", ref="tf221")
def test_shape_op_gradients(backend, tf):
    x = np.round(RNG.uniform(-1, 1, size=(2, 3, 4)), 2)
    perm = (1, 2, 0)
    R = _upstream((3, 4, 2))
    (g,) = _grads(tf, lambda t: tf.transpose(t, perm), x, upstream=R)
    assert_close(g, np.transpose(R, np.argsort(perm)), call=f"tape.gradient(transpose(x, {perm}), x)", what="d/dx")
    R = _upstream((4, 6))
    (g,) = _grads(tf, lambda t: tf.reshape(t, [4, 6]), x, upstream=R)
    assert_close(g, R.reshape(x.shape), call="tape.gradient(reshape(x, [4, 6]), x)", what="d/dx")
    p = np.round(RNG.uniform(-1, 1, size=(2, 4)), 2)
    idx = [1, 3, 1, 1]
    R = _upstream((2, 4))
    (g,) = _grads(tf, lambda t: tf.gather(t, idx, axis=1), p, upstream=R)
    want = np.zeros_like(p)
    for j, i in enumerate(idx):
        want[:, i] += R[:, j]
    assert_close(tf.convert_to_tensor(g), want, call=f"tape.gradient(gather(p, {idx}, axis=1), p)", what="d/dp")
    R = _upstream((4, 4))
    (g,) = _grads(tf, lambda t: tf.gather(t, idx), np.round(RNG.uniform(-1, 1, size=(4, 4)), 2), upstream=R)
    want = np.zeros((4, 4))
    for j, i in enumerate(idx):
        want[i] += R[j]
    assert_close(tf.convert_to_tensor(g), want, call=f"tape.gradient(gather(p, {idx}), p) densified", what="d/dp")


@clause("autodiff.op-gradients", ref="tf221")
def test_a_tensor_used_twice_sums_its_gradients(backend, tf):
    x = np.array([0.5, -1.0, 2.0])
    (g,) = _grads(tf, lambda t: tf.tanh(t) * t + tf.square(t), x)
    th = np.tanh(x)
    assert_close(g, (1 - th ** 2) * x + th + 2 * x, call="tape.gradient(tanh(x)*x + x**2, x)", what="d/dx")


# -- every differentiable op against central differences of the backend's own forward pass -------------
_pos, _any = positive_inputs, signed_inputs


def _simplex(shape, axis):
    """Positive labels summing to 1 along `axis` (the fused softmax cross-entropy's gradient assumes it)."""
    def make(rng):
        v = rng.uniform(0.2, 1.0, size=shape)
        return v / v.sum(axis=axis, keepdims=True)
    return make


def _distinct(shape):
    """Distinct values (no ties for max/min/sort/pooling)."""
    return lambda rng: (rng.permutation(int(np.prod(shape))).reshape(shape) * 0.37 - 1.1).astype(np.float64)


NUMERIC = {
    # unary math
    "exp": (lambda tf, x: tf.exp(x), [_any((2, 3))]),
    "log": (lambda tf, x: tf.math.log(x), [_pos((2, 3))]),
    "log1p": (lambda tf, x: tf.math.log1p(x), [_pos((2, 3))]),
    "expm1": (lambda tf, x: tf.math.expm1(x), [_any((2, 3))]),
    "sqrt": (lambda tf, x: tf.sqrt(x), [_pos((2, 3))]),
    "rsqrt": (lambda tf, x: tf.math.rsqrt(x), [_pos((2, 3))]),
    "reciprocal": (lambda tf, x: tf.math.reciprocal(x), [_any((2, 3))]),
    "square": (lambda tf, x: tf.square(x), [_any((2, 3))]),
    "sin": (lambda tf, x: tf.sin(x), [_any((2, 3))]),
    "cos": (lambda tf, x: tf.cos(x), [_any((2, 3))]),
    "tan": (lambda tf, x: tf.tan(x), [_any((2, 3))]),
    "atan": (lambda tf, x: tf.atan(x), [_any((2, 3))]),
    "sinh": (lambda tf, x: tf.sinh(x), [_any((2, 3))]),
    "cosh": (lambda tf, x: tf.cosh(x), [_any((2, 3))]),
    "asinh": (lambda tf, x: tf.asinh(x), [_any((2, 3))]),
    "erf": (lambda tf, x: tf.math.erf(x), [_any((2, 3))]),
    "lgamma": (lambda tf, x: tf.math.lgamma(x), [_pos((2, 3))]),
    "abs": (lambda tf, x: tf.abs(x), [_any((2, 3))]),
    "negative": (lambda tf, x: tf.negative(x), [_any((2, 3))]),
    "log_sigmoid": (lambda tf, x: tf.math.log_sigmoid(x), [_any((2, 3))]),
    # activations
    "softsign": (lambda tf, x: tf.nn.softsign(x), [_any((2, 3))]),
    "elu": (lambda tf, x: tf.nn.elu(x), [_any((2, 3))]),
    "selu": (lambda tf, x: tf.nn.selu(x), [_any((2, 3))]),
    "relu6": (lambda tf, x: tf.nn.relu6(x * 4.0 + 2.5), [_any((2, 3))]),
    "gelu": (lambda tf, x: tf.nn.gelu(x), [_any((2, 3))]),
    "silu": (lambda tf, x: tf.nn.silu(x), [_any((2, 3))]),
    "l2_normalize": (lambda tf, x: tf.math.l2_normalize(x, axis=1), [_any((2, 3))]),
    "sigmoid_xent": (lambda tf, x, z: tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=z),
                     [_pos((2, 3)), _any((2, 3))]),
    # binary
    "squared_difference": (lambda tf, x, y: tf.math.squared_difference(x, y), [_any((2, 3)), _any((3,))]),
    "truediv": (lambda tf, x, y: x / y, [_any((3, 1)), _any((1, 4))]),
    "pow": (lambda tf, x, y: tf.pow(x, y), [_pos((2, 3)), _any((2, 1))]),
    "where": (lambda tf, x, y: tf.where(tf.constant([[True, False, True], [False, True, True]]), x, y),
              [_any((2, 3)), _any((1, 3))]),
    "clip_by_value": (lambda tf, x: tf.clip_by_value(x, -0.8, 0.9), [_distinct((2, 4))]),
    # reductions and scans
    "reduce_prod": (lambda tf, x: tf.reduce_prod(x, axis=1), [_any((2, 3))]),
    "reduce_logsumexp": (lambda tf, x: tf.reduce_logsumexp(x, axis=0), [_any((2, 3))]),
    "reduce_min": (lambda tf, x: tf.reduce_min(x, axis=1), [_distinct((2, 3))]),
    "reduce_variance": (lambda tf, x: tf.math.reduce_variance(x, axis=1), [_any((2, 3))]),
    "norm": (lambda tf, x: tf.norm(x), [_any((2, 3))]),
    "cumsum": (lambda tf, x: tf.cumsum(x, axis=1, exclusive=True, reverse=True), [_any((2, 4))]),
    "cumprod": (lambda tf, x: tf.math.cumprod(x, axis=1), [_any((2, 4))]),
    "cumulative_logsumexp": (lambda tf, x: tf.math.cumulative_logsumexp(x, axis=1), [_any((2, 4))]),
    # shape and data movement
    "concat": (lambda tf, x, y: tf.concat([x, y, x], axis=1), [_any((2, 2)), _any((2, 3))]),
    "stack": (lambda tf, x, y: tf.stack([x, y], axis=1), [_any((2, 3)), _any((2, 3))]),
    "unstack": (lambda tf, x: tf.unstack(x, axis=1)[1] * 2.0 + tf.unstack(x, axis=1)[2], [_any((2, 3))]),
    "split": (lambda tf, x: tf.split(x, [1, 3], axis=1)[1], [_any((2, 4))]),
    "tile": (lambda tf, x: tf.tile(x, [2, 3]), [_any((2, 2))]),
    "pad": (lambda tf, x: tf.pad(x, [[1, 0], [2, 1]]), [_any((2, 2))]),
    "reverse": (lambda tf, x: tf.reverse(x, axis=[1]), [_any((2, 3))]),
    "strided_slice": (lambda tf, x: x[::-2, 1:], [_any((3, 3))]),
    "slice": (lambda tf, x: tf.slice(x, [1, 0], [1, 2]), [_any((3, 4))]),
    "broadcast_to": (lambda tf, x: tf.broadcast_to(x, [2, 3, 4]), [_any((3, 1))]),
    "gather_nd": (lambda tf, x: tf.gather_nd(x, [[0, 1], [2, 0], [0, 1]]), [_any((3, 2))]),
    "unsorted_segment_sum": (lambda tf, x: tf.math.unsorted_segment_sum(x, [2, 0, 2], 3), [_any((3, 2))]),
    "segment_mean": (lambda tf, x: tf.math.segment_mean(x, [0, 0, 1]), [_any((3, 2))]),
    "einsum": (lambda tf, x, y: tf.einsum("bij,jk->bki", x, y), [_any((2, 2, 3)), _any((3, 2))]),
    "batch_matmul_broadcast": (lambda tf, x, y: tf.matmul(x, y), [_any((2, 2, 3)), _any((3, 2))]),
    "tensordot": (lambda tf, x, y: tf.tensordot(x, y, axes=[[1], [0]]), [_any((2, 3)), _any((3, 2))]),
    "sort": (lambda tf, x: tf.sort(x, axis=1, direction="DESCENDING"), [_distinct((2, 3))]),
    "top_k": (lambda tf, x: tf.math.top_k(x, k=2).values, [_distinct((2, 4))]),
    # nn
    "bias_add": (lambda tf, x, b: tf.nn.bias_add(x, b), [_any((2, 2, 3)), _any((3,))]),
    "conv2d": (lambda tf, x, f: tf.nn.conv2d(x, f, strides=1, padding="SAME"), [_any((1, 3, 3, 2)), _any((2, 2, 2, 2))]),
    "max_pool2d": (lambda tf, x: tf.nn.max_pool2d(x, 2, 1, "VALID"), [_distinct((1, 3, 3, 1))]),
    "avg_pool2d": (lambda tf, x: tf.nn.avg_pool2d(x, 2, 1, "SAME"), [_any((1, 3, 3, 1))]),
    "moments": (lambda tf, x: tf.nn.moments(x, axes=[0])[1], [_any((3, 2))]),
    # the options of the window ops: strides, dilations, VALID/SAME, NCHW-free variants, transposes
    "conv2d_strided_valid": (lambda tf, x, f: tf.nn.conv2d(x, f, strides=[1, 2, 1, 1], padding="VALID"),
                             [_any((2, 5, 4, 2)), _any((2, 2, 2, 3))]),
    "conv2d_strided_same": (lambda tf, x, f: tf.nn.conv2d(x, f, strides=2, padding="SAME"),
                            [_any((1, 5, 5, 1)), _any((3, 3, 1, 2))]),
    "conv1d_strided": (lambda tf, x, f: tf.nn.conv1d(x, f, stride=2, padding="SAME"),
                       [_any((2, 5, 2)), _any((3, 2, 2))]),
    "conv2d_transpose": (lambda tf, x, f: tf.nn.conv2d_transpose(x, f, [1, 5, 5, 2], strides=2, padding="SAME"),
                         [_any((1, 3, 3, 3)), _any((2, 2, 2, 3))]),
    "depthwise_conv2d_dilated": (lambda tf, x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME", dilations=[2, 1]),
                                 [_any((1, 4, 4, 2)), _any((2, 2, 2, 2))]),
    "separable_conv2d": (lambda tf, x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "VALID"),
                         [_any((1, 4, 4, 2)), _any((2, 2, 2, 1)), _any((1, 1, 2, 3))]),
    "max_pool2d_strided_same": (lambda tf, x: tf.nn.max_pool2d(x, 3, 2, "SAME"), [_distinct((1, 5, 4, 2))]),
    "avg_pool2d_strided_valid": (lambda tf, x: tf.nn.avg_pool2d(x, [2, 3], [2, 1], "VALID"), [_any((1, 5, 4, 1))]),
    "max_pool1d": (lambda tf, x: tf.nn.max_pool1d(x, 2, 2, "VALID"), [_distinct((2, 5, 1))]),
    "avg_pool1d_same": (lambda tf, x: tf.nn.avg_pool1d(x, 3, 2, "SAME"), [_any((1, 5, 2))]),
    "batch_normalization": (lambda tf, x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3),
                            [_any((3, 2)), _any((2,)), _pos((2,)), _any((2,)), _any((2,))]),
    "weighted_xent": (lambda tf, z, x: tf.nn.weighted_cross_entropy_with_logits(labels=z, logits=x, pos_weight=3.0),
                      [_pos((2, 3)), _any((2, 3))]),
    "log_poisson_loss": (lambda tf, z, x: tf.nn.log_poisson_loss(z, x, compute_full_loss=True),
                         [_pos((2, 3)), _any((2, 3))]),
    "leaky_relu_alpha": (lambda tf, x: tf.nn.leaky_relu(x, alpha=0.3), [_any((2, 3))]),
    "softmax_xent_axis0": (lambda tf, z, x: tf.nn.softmax_cross_entropy_with_logits(labels=z, logits=x, axis=0),
                           [_simplex((3, 2), 0), _any((3, 2))]),
}


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("name", list(NUMERIC))
def test_gradient_matches_central_differences(backend, tf, name):
    """The tape's gradient of sum(R * f(x...)) (R a fixed non-uniform weighting) equals central differences
    of the backend's own forward pass, in float64, element by element of every input."""
    fn, makers = NUMERIC[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))   # the same inputs whichever tests run
    xs = [m(rng) for m in makers]
    check_central_differences(tf, name, fn, xs, rng, NUMERIC_TOL)


def check_central_differences(tf, name: str, fn, xs: list[np.ndarray], rng: np.random.Generator,
                              tolerance: Tolerance) -> None:
    """The tape's gradient of sum(R * fn(x...)) (R drawn from rng, rounded to 0.01) against central
    differences of the backend's own forward pass, element by element of every input (float64)."""
    out_shape = tuple(fn(tf, *[tf.constant(x, dtype=tf.float64) for x in xs]).shape)
    R = tf.constant(np.round(rng.uniform(-2.0, 2.0, size=out_shape), 2), dtype=tf.float64)

    def objective(vals):
        return float(tf.reduce_sum(R * fn(tf, *[tf.constant(v, dtype=tf.float64) for v in vals])).numpy())

    grads = _grads(tf, lambda *ts: fn(tf, *ts), *xs, upstream=R.numpy())
    h = 1e-6
    for k, (x, g) in enumerate(zip(xs, grads)):
        want = np.zeros_like(x)
        for idx in np.ndindex(x.shape):
            up = [v.copy() for v in xs]
            dn = [v.copy() for v in xs]
            up[k][idx] += h
            dn[k][idx] -= h
            want[idx] = (objective(up) - objective(dn)) / (2 * h)
        got = np.zeros_like(x) if g is None else tf.convert_to_tensor(g).numpy()
        if not (np.all(np.isfinite(want)) and np.all(np.isfinite(got))):   # NaN would compare as no error
            fail(f"d/dinput{k}={np.asarray(got).tolist()}, central differences {want.tolist()}: not all finite "
                 f"(an input outside the op's domain?)", call=f"{name}(...)")
        assert_close(got, want, call=f"tape.gradient(sum(R * {name}(...)), input {k}) vs central differences",
                     what=f"d/dinput{k}", tolerance=tolerance)


def _zero_stuffed(f: np.ndarray, rate: tuple[int, int]) -> np.ndarray:
    """The kernel a dilated convolution applies: `rate - 1` zeros between the taps of each row/column."""
    kh, kw = f.shape[:2]
    out = np.zeros(((kh - 1) * rate[0] + 1, (kw - 1) * rate[1] + 1) + f.shape[2:], dtype=f.dtype)
    out[::rate[0], ::rate[1]] = f
    return out


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_dilated_convolution_gradients_match_the_zero_stuffed_kernel(backend, tf, padding, onednn_float32):
    """conv2d(x, f, dilations=(2, 3)) is conv2d(x, f') with f' the zero-stuffed kernel: the input
    gradients are equal, and f's gradient is f''s at the taps (float32; TF's CPU kernels refuse
    dilated backprop in float64)."""
    rng = np.random.default_rng(7)
    x = rng.uniform(-1.0, 1.0, size=(2, 7, 8, 2)).astype(np.float32)
    f = rng.uniform(-1.0, 1.0, size=(2, 3, 2, 3)).astype(np.float32)
    fz = _zero_stuffed(f, (2, 3))
    call = f"tape.gradient of sum(R * conv2d(x, f, padding={padding!r}, dilations=[1, 2, 3, 1]))"
    xs, fs, fzs = tf.constant(x), tf.Variable(f), tf.Variable(fz)
    out_shape = tuple(tf.nn.conv2d(xs, fs, strides=1, padding=padding, dilations=[1, 2, 3, 1]).shape)
    R = tf.constant(np.round(rng.uniform(-2.0, 2.0, size=out_shape), 2).astype(np.float32))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        dilated = tf.reduce_sum(R * tf.nn.conv2d(xs, fs, strides=1, padding=padding, dilations=[1, 2, 3, 1]))
        stuffed = tf.reduce_sum(R * tf.nn.conv2d(xs, fzs, strides=1, padding=padding))
    gx, gf = tape.gradient(dilated, [xs, fs])
    gx_ref, gfz = tape.gradient(stuffed, [xs, fzs])
    tol = Tolerance(rtol=1e-4, atol=1e-4)
    assert_close(gx, np.asarray(gx_ref), tolerance=tol, call=call, what="d/dx (vs the zero-stuffed kernel's)")
    assert_close(gf, np.asarray(gfz)[::2, ::3], tolerance=tol, call=call,
                 what="d/df (vs the zero-stuffed kernel's gradient at its taps)")
