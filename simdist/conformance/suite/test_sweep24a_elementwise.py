"""Value sweep 24 (issue 29): the gradients of elementwise ops and activations at the inputs that make their
rules visible — every kink and threshold hit exactly and from both sides (0, -0.0, 6 for relu6, the clip
bounds, ties of maximum/minimum), both sides of a domain (negative and zero bases of pow, zero denominators of
div_no_nan), the guarded kernels (sqrt/rsqrt/reciprocal at 0 under a ZERO upstream gradient, log's unguarded
NaN beside them), broadcasting on either side, float16/float32/float64, and a signed, non-uniform upstream
gradient R with zeros in it (the tape's output_gradients), so no rule hides behind sum(f(x)).

Every expected value is the derivative written here with NumPy in float64 (TF 2.21's rule, read in
math_grad.py / nn_grad.py and the *Grad kernels of cwise_ops.h / relu_op_functor.h; checked on TF 2.21),
times R, never the backend's own gradient.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause

#: per dtype: the derivative is exact or one rounding of a float64 value
TOL = {"float16": Tolerance(rtol=2e-3, atol=2e-3), "float32": Tolerance(rtol=2e-6, atol=1e-6),
       "float64": Tolerance(rtol=1e-12, atol=1e-12)}

# Inputs: every threshold exactly (0, -0.0, 6, the clip bounds -1.5 and 6) and both sides of it, as a (2, 6)
# matrix (non-square); R: signed, non-uniform, zeros where the input is 0 or 6 in one row only.
X = np.array([[-7.0, -1.5, -0.0, 0.0, 0.25, 6.0],
              [6.0, 7.5, 0.0, -2.0, -1.5, 3.0]])
R = np.array([[1.5, -2.0, 0.5, -0.75, 3.0, -1.25],
              [2.0, 0.25, 0.0, -1.0, 1.75, -0.5]])
SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


#: name -> (f(tf, x), d f / d x in float64): the rule TF's gradient applies at each point, kinks included
UNARY = {
    "relu": (lambda tf, x: tf.nn.relu(x), lambda x: (x > 0) * 1.0),
    "relu6": (lambda tf, x: tf.nn.relu6(x), lambda x: ((x > 0) & (x < 6)) * 1.0),
    # alpha is a float attribute (float32): in float64 the slope is float32(0.3) widened
    "leaky_relu(alpha=0.3)": (lambda tf, x: tf.nn.leaky_relu(x, alpha=0.3),
                              lambda x: np.where(x > 0, 1.0, float(np.float32(0.3)))),
    "elu": (lambda tf, x: tf.nn.elu(x), lambda x: np.where(x < 0, np.exp(x), 1.0)),
    "selu": (lambda tf, x: tf.nn.selu(x),
             lambda x: np.where(x < 0, SELU_SCALE * SELU_ALPHA * np.exp(x), SELU_SCALE)),
    "softplus": (lambda tf, x: tf.nn.softplus(x), _sigmoid),
    "softsign": (lambda tf, x: tf.nn.softsign(x), lambda x: 1.0 / (1.0 + np.abs(x)) ** 2),
    "sigmoid": (lambda tf, x: tf.sigmoid(x), lambda x: _sigmoid(x) * (1 - _sigmoid(x))),
    "tanh": (lambda tf, x: tf.tanh(x), lambda x: 1 - np.tanh(x) ** 2),
    "silu": (lambda tf, x: tf.nn.silu(x), lambda x: _sigmoid(x) * (1 + x * (1 - _sigmoid(x)))),
    "abs": (lambda tf, x: tf.abs(x), np.sign),
    "sign": (lambda tf, x: tf.sign(x), lambda x: np.zeros_like(x)),
    "square": (lambda tf, x: tf.square(x), lambda x: 2 * x),
    "clip_by_value(-1.5, 6)": (lambda tf, x: tf.clip_by_value(x, -1.5, 6.0),
                               lambda x: ((x >= -1.5) & (x <= 6)) * 1.0),
    "maximum(x, 0.25)": (lambda tf, x: tf.maximum(x, 0.25), lambda x: (x >= 0.25) * 1.0),
    "minimum(x, -1.5)": (lambda tf, x: tf.minimum(x, -1.5), lambda x: (x <= -1.5) * 1.0),
    "pow(x, 3)": (lambda tf, x: tf.pow(x, 3.0), lambda x: 3 * x * x),
    "x ** 2 via pow(x, 2) of both-signed bases": (lambda tf, x: x ** 2.0, lambda x: 2 * x),
}


def _grad(tf, f, xs, r, dtype):
    ts = [tf.constant(x, dtype=dtype) for x in xs]
    with tf.GradientTape(persistent=True) as tape:
        for t in ts:
            tape.watch(t)
        y = f(*ts)
    return tape.gradient(y, ts, output_gradients=tf.constant(r, dtype=dtype))


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_sweep24a_unary_gradients_at_their_thresholds(tf, budget, dtype):
    """d sum(R * f(x)) / dx = R * f'(x) at every threshold exactly and on both sides of it (relu6 at 6 and
    above, selu/elu/leaky_relu at 0 and -0.0, clip_by_value and maximum/minimum at their bounds, where the
    tie passes the gradient to x)."""
    for name in budget(sorted(UNARY)):
        f, deriv = UNARY[name]
        (g,) = _grad(tf, lambda t: f(tf, t), [X], R, getattr(tf, dtype))
        want = R * deriv(X.astype(dtype).astype(np.float64))
        assert_close(np.asarray(g, np.float64), want, tolerance=TOL[dtype],
                     call=f"tape.gradient({name}, x {dtype} (2, 6), output_gradients=R) [thresholds]", what="d/dx")


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sweep24a_guarded_kernels_at_zero_under_zero_upstream(tf, budget, dtype):
    """Sqrt's, Rsqrt's and Reciprocal's gradient kernels give 0 where the upstream gradient is 0, even at
    x = 0 (where the derivative is infinite); log's gradient (grad * reciprocal(x)) is not guarded: 0 * inf
    is NaN there. Non-zero upstream elsewhere, so the value rule is seen too."""
    x = np.array([[0.0, 4.0, 0.0], [1.0, 0.25, 0.0]])
    r = np.array([[0.0, 1.5, 0.0], [-2.0, 0.5, 0.0]])
    with np.errstate(divide="ignore", invalid="ignore"):
        cases = {"sqrt": (lambda t: tf.sqrt(t), np.where(r == 0, 0.0, r * 0.5 / np.sqrt(x))),
                 "rsqrt": (lambda t: tf.math.rsqrt(t), np.where(r == 0, 0.0, r * -0.5 * x ** -1.5)),
                 "reciprocal": (lambda t: tf.math.reciprocal(t), np.where(r == 0, 0.0, -r / (x * x))),
                 "log": (lambda t: tf.math.log(t), r * (1.0 / x))}
    for name in budget(sorted(cases)):
        f, want = cases[name]
        (g,) = _grad(tf, f, [x], r, getattr(tf, dtype))
        assert_close(np.asarray(g, np.float64), want, tolerance=TOL[dtype],
                     call=f"tape.gradient({name}(x) {dtype}, output_gradients=R with zeros at x == 0)", what="d/dx")


def _unbroadcast(g, shape):
    lead = g.ndim - len(shape)
    g = g.sum(axis=tuple(range(lead))) if lead else g
    axes = tuple(i for i, d in enumerate(shape) if d == 1 and g.shape[i] != 1)
    return g.sum(axis=axes, keepdims=True) if axes else g


# binary ops: name -> (f, (df/dx, df/dy) on the broadcast operands), each at the edge of its domain
BX = np.array([[-2.0, 0.0, 3.0], [1.5, -0.5, 0.0]])          # (2, 3)
BY = np.array([[2.0], [0.0]])                               # (2, 1): broadcast along the columns
BY_ROW = np.array([0.0, 2.0, -4.0])                          # (3,): broadcast along the rows, zeros


def _pow_parts(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        gx = y * np.power(x, y - 1)
        gy = np.where(x > 0, np.power(x, y) * np.log(np.where(x > 0, x, 1.0)), 0.0)
    return gx, gy


def _div_no_nan_parts(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(y == 0, 0.0, 1.0 / y), np.where(y == 0, 0.0, -x / (y * y))


BINARY = {
    # pow: TF's _PowGrad takes log(x) only where x > 0 (0 for negative and zero bases)
    "pow(x, y) y integral": (lambda tf, x, y: tf.pow(x, y), np.array([[-2.0, 0.0, 3.0], [1.5, -0.5, 2.0]]),
                             np.array([[2.0], [3.0]]), _pow_parts),
    "div_no_nan(x, y) y with zeros, (2, 1)": (lambda tf, x, y: tf.math.divide_no_nan(x, y), BX, BY,
                                              _div_no_nan_parts),
    "div_no_nan(x, y) y with zeros, (3,)": (lambda tf, x, y: tf.math.divide_no_nan(x, y), BX, BY_ROW,
                                            _div_no_nan_parts),
    "maximum ties, y (3,)": (lambda tf, x, y: tf.maximum(x, y), BX, np.array([0.0, 0.0, 3.0]),
                             lambda x, y: ((x >= y) * 1.0, (x < y) * 1.0)),
    "minimum ties, y (2, 1)": (lambda tf, x, y: tf.minimum(x, y), BX, np.array([[-2.0], [0.0]]),
                               lambda x, y: ((x <= y) * 1.0, (x > y) * 1.0)),
    "squared_difference, x broadcast (1, 3)": (lambda tf, x, y: tf.math.squared_difference(x, y),
                                               np.array([[1.0, -2.0, 0.5]]), BX,
                                               lambda x, y: (2 * (x - y), 2 * (y - x))),
    "mul, x broadcast (2, 1)": (lambda tf, x, y: x * y, BY, BX, lambda x, y: (y, x)),
    "sub, y broadcast (3,)": (lambda tf, x, y: x - y, BX, BY_ROW,
                              lambda x, y: (np.ones_like(x), -np.ones_like(y))),
    "truediv, y (2, 1) nonzero": (lambda tf, x, y: x / y, BX, np.array([[2.0], [-4.0]]),
                                  lambda x, y: (1 / y, -x / (y * y))),
}


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sweep24a_binary_gradients_at_domain_edges_broadcast_either_side(tf, budget, dtype):
    """Each operand's gradient R * df/dx summed over the axes it was broadcast along (either operand
    broadcast), at the edges of the domain: pow at negative and zero bases (the exponent's gradient is 0
    there, not log's NaN), div_no_nan at zero denominators (0 for both operands), ties of maximum/minimum
    (the gradient goes to x)."""
    for name in budget(sorted(BINARY)):
        f, x, y, parts = BINARY[name]
        xb, yb = np.broadcast_arrays(x, y)
        r = (np.arange(xb.size, dtype=np.float64).reshape(xb.shape) % 5 - 2.0) * 0.75   # signed, with zeros
        gx, gy = _grad(tf, lambda a, b: f(tf, a, b), [x, y], r, getattr(tf, dtype))
        px, py = parts(xb, yb)
        call = f"tape.gradient({name}, x {x.shape}, y {y.shape} {dtype}, output_gradients=R)"
        assert_close(np.asarray(gx, np.float64), _unbroadcast(r * px, x.shape), tolerance=TOL[dtype], call=call,
                     what="d/dx")
        assert_close(np.asarray(gy, np.float64), _unbroadcast(r * py, y.shape), tolerance=TOL[dtype], call=call,
                     what="d/dy")


#: name -> (f, f'' as TF's second-order rules give it): the *Grad kernels' own gradients are strict at the kinks
#: (EluGrad/SeluGrad differentiate their output only where it is < 0; ReluGrad, Relu6Grad and LeakyReluGrad pass
#: nothing to their features)
SECOND = {
    "relu": (lambda tf, x: tf.nn.relu(x), lambda x: np.zeros_like(x)),
    "relu6": (lambda tf, x: tf.nn.relu6(x), lambda x: np.zeros_like(x)),
    "leaky_relu(alpha=0.3)": (lambda tf, x: tf.nn.leaky_relu(x, alpha=0.3), lambda x: np.zeros_like(x)),
    "elu": (lambda tf, x: tf.nn.elu(x), lambda x: np.where(x < 0, np.exp(x), 0.0)),
    "selu": (lambda tf, x: tf.nn.selu(x), lambda x: np.where(x < 0, SELU_SCALE * SELU_ALPHA * np.exp(x), 0.0)),
    "softplus": (lambda tf, x: tf.nn.softplus(x), lambda x: _sigmoid(x) * (1 - _sigmoid(x))),
    "sigmoid": (lambda tf, x: tf.sigmoid(x),
                lambda x: _sigmoid(x) * (1 - _sigmoid(x)) * (1 - 2 * _sigmoid(x))),
    "tanh": (lambda tf, x: tf.tanh(x), lambda x: -2 * np.tanh(x) * (1 - np.tanh(x) ** 2)),
}


@clause("autodiff.higher-order", ref="tf221")
def test_sweep24a_second_derivatives_at_the_kinks(tf, budget):
    """Nested tapes: d/dx sum(S * d sum(R * f(x))/dx) = R * S * f''(x) with TF's second-order rules, at every
    kink exactly (0, -0.0, 6) and on both sides: elu's and selu's second derivative at 0 is 0 (their *Grad
    gradients are strict), relu's, relu6's and leaky_relu's 0 everywhere."""
    s = np.array([[2.0, 1.5, -1.0, 0.5, 1.0, 2.0], [-0.5, 1.0, 3.0, 0.25, -2.0, 1.0]])
    for name in budget(sorted(SECOND)):
        f, second = SECOND[name]
        x = tf.constant(X)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = f(tf, x)
            g = inner.gradient(y, x, output_gradients=tf.constant(R))
            loss = tf.reduce_sum(g * tf.constant(s))
        got = np.asarray(outer.gradient(loss, x), np.float64)
        assert_close(got, R * s * second(X), tolerance=TOL["float64"],
                     call=f"nested tapes: d/dx sum(S * d sum(R * {name}(x))/dx), x at 0, -0.0, 6", what="d2/dx2")


@clause("autodiff.op-gradients", ref="tf221")
def test_sweep24a_euclidean_norm_gradient_at_a_zero_slice_is_nan(tf, budget):
    """TF's _EuclideanNormGrad is x / (norm / grad): a slice of zeros (norm 0) gives 0 / 0 = NaN, not 0; the
    other slices x * grad / norm."""
    x0 = np.array([[0.0, 0.0, 0.0], [3.0, -4.0, 0.0], [1.0, 2.0, -2.0]])
    r = np.array([1.5, 2.0, -0.5])
    n = np.sqrt((x0 ** 2).sum(axis=1, keepdims=True))
    with np.errstate(invalid="ignore", divide="ignore"):
        want = x0 / (n / r[:, None])
    for dtype in budget(["float64", "float32"]):
        (g,) = _grad(tf, lambda t: tf.math.reduce_euclidean_norm(t, axis=1), [x0], r, getattr(tf, dtype))
        assert_close(np.asarray(g, np.float64), want, tolerance=TOL[dtype], what="d/dx",
                     call=f"tape.gradient(reduce_euclidean_norm(x {dtype}, axis=1), first row zeros, R)")
