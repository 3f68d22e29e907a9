"""Second derivatives through the gradient ops training layers make, which the whole suite never ran
before session 23 (cov23b; docs/conformance.md, "Twenty-third session: suite coverage of autodiff,
gradients and tf.function"): the gradient of ReluGrad, Relu6Grad, LeakyReluGrad, BiasAddGrad (NHWC
and NCHW), GatherV2's dense gradient (axis 1), MaxPoolGrad and AvgPoolGrad (2-D and 3-D),
Conv2DBackpropFilter and DepthwiseConv2dNativeBackpropFilter, and MirrorPadGrad (REFLECT and
SYMMETRIC). A user reaches them with a gradient penalty (WGAN-GP's ||d D(x)/dx||^2 differentiated by
the weights), a Hessian-vector product, or any outer tape over an inner tape's gradient.

Each case builds y = f(v) from Variables v, takes the inner gradient g = d sum(wy * y) / d v[inner]
with the backend's first-order gradient, the penalty P = sum(wg * g), and the outer gradient dP/d
v[outer]. P is piecewise linear in each outer variable (every op here is piecewise linear: relu's
kinks, pooling's argmax and the mirrored borders are kept away from), so the expected outer gradient
is the central difference of P computed from the backend's own first-order gradient, exact up to
rounding, never the backend's second-order rule under test.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause


def _w(shape: list[int], lo: float, hi: float) -> np.ndarray:
    """Fixed weights of `shape` from lo to hi (distinct, both signs)."""
    n = int(np.prod(shape)) if shape else 1
    return np.linspace(lo, hi, n).reshape(shape)


def _penalty(tf: Any, build: Callable[..., Any], v: dict[str, Any], inner: list[str], dtype: Any) -> Any:
    """P = sum over the inner variables of sum(wg * d sum(wy * y) / d v[name]), on one (inner) tape."""
    with tf.GradientTape() as tape:
        y = build(tf, v)
        loss = tf.reduce_sum(tf.constant(_w(y.shape.as_list(), -1.0, 1.3), dtype) * y)
    grads = tape.gradient(loss, [v[k] for k in inner])
    total = 0.0
    for g in grads:
        g = tf.convert_to_tensor(g)
        total = total + tf.reduce_sum(tf.constant(_w(g.shape.as_list(), 0.7, -1.1), dtype) * g)
    return total


def _check(tf: Any, build: Callable[..., Any], values: dict[str, np.ndarray], inner: list[str], outer: list[str],
           call: str, dtype: str = "float64", eps: float = 1e-3, rtol: float = 1e-6) -> None:
    """The outer tape's dP/d v[outer] against P's central differences (see the module's docstring)."""
    dt = getattr(tf, dtype)
    v = {k: tf.Variable(np.asarray(a, dtype), dtype=dt) for k, a in values.items()}
    with tf.GradientTape() as outer_tape:
        p = _penalty(tf, build, v, inner, dt)
    got = outer_tape.gradient(p, [v[k] for k in outer])
    for name, g in zip(outer, got):
        base = np.asarray(values[name], np.float64)
        want = np.zeros(base.shape)
        for j in range(base.size):
            diffs = []
            for sign in (1.0, -1.0):
                moved = base.copy()
                moved.flat[j] += sign * eps
                v[name].assign(moved.astype(dtype))
                diffs.append(float(to_numpy(_penalty(tf, build, v, inner, dt))))
            want.flat[j] = (diffs[0] - diffs[1]) / (2 * eps)
        v[name].assign(base.astype(dtype))
        # (differences of a piecewise-linear P: exact up to rounding, relative to P's largest slope)
        tol = Tolerance(rtol=rtol, atol=rtol * float(np.abs(want).max()))
        assert_close(to_numpy(tf.convert_to_tensor(g)), want, call=f"{call}: d/d{name} of the penalty", tolerance=tol)


_X = np.array([[1.5, -2.0, 3.5], [-0.5, 4.0, -3.0]])   # x * 2 spans -8..8: relu6's cap and both signs


@clause("autodiff.higher-order", ref="tf221")
@pytest.mark.parametrize("act", ["relu", "relu6", "leaky_relu"])
def test_cov23b_activation_gradient_of_gradient(backend, tf, act):
    """y = act(x * a) * b, g = dy/dx, P = sum(wg * g): dP/da and dP/db go through ReluGrad's,
    Relu6Grad's and LeakyReluGrad's (alpha 0.3, not the op's default 0.2) gradients: the incoming
    gradient masked by the features (relu6: also above 6), the features' own gradient zero."""
    fns = {"relu": lambda tf, z: tf.nn.relu(z), "relu6": lambda tf, z: tf.nn.relu6(z),
           "leaky_relu": lambda tf, z: tf.nn.leaky_relu(z, alpha=0.3)}
    f = fns[act]
    _check(tf, lambda tf, v: f(tf, v["x"] * v["a"]) * v["b"],
           {"x": _X, "a": np.array([2.0, 2.5, 1.75]), "b": np.array([[1.0, -2.0, 0.5], [0.25, 1.5, -1.0]])},
           ["x"], ["a", "b"], call=f"tf.nn.{act}(x * a) * b")


@clause("autodiff.higher-order", ref="tf221")
@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
def test_cov23b_bias_add_gradient_of_gradient(backend, tf, data_format):
    """y = bias_add(t, c, data_format) * b, g = dy/dc (BiasAddGrad: a sum over every axis but the
    channel's), P = sum(wg * g): dP/db is BiasAddGrad's gradient, the incoming gradient tiled along
    the channel axis (axis 1 for NCHW, the last for NHWC)."""
    if data_format == "NCHW":   # [N, C, H, W], a bias per axis-1 channel, b broadcast over [C, H, W]
        t, b = np.arange(24.0).reshape(2, 3, 2, 2) / 10.0, np.linspace(-1.5, 2.0, 6).reshape(3, 1, 2)
    else:                       # [N, H, W, C], a bias per last-axis channel, b broadcast over [H, W, C]
        t, b = np.arange(24.0).reshape(2, 2, 2, 3) / 10.0, np.linspace(-1.5, 2.0, 6).reshape(2, 1, 3)
    c = np.array([0.5, -1.0, 2.0])
    _check(tf, lambda tf, v: tf.nn.bias_add(v["t"], v["c"], data_format=data_format) * v["b"],
           {"t": t, "c": c, "b": b}, ["c"], ["b"], call=f"tf.nn.bias_add(t, c, data_format={data_format!r}) * b")


@clause("autodiff.higher-order", ref="tf221")
def test_cov23b_gather_inner_axis_gradient_of_gradient(backend, tf):
    """y = gather(p * a, [2, 0, 2], axis=1) * b (a repeated index), g = dy/dp (dense: the gather is
    along an inner axis), P = sum(wg * g): dP/db and dP/da gather the incoming gradient along axis 1."""
    p = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]])
    _check(tf, lambda tf, v: tf.gather(v["p"] * v["a"], [2, 0, 2], axis=1) * v["b"],
           {"p": p, "a": np.array([1.5, -0.5, 2.0]), "b": np.array([[1.0, -2.0, 0.5], [0.25, 1.5, -1.0]])},
           ["p"], ["a", "b"], call="tf.gather(p * a, [2, 0, 2], axis=1) * b")


_X4 = np.array([0.3, -1.2, 2.2, 0.9, -0.4, 1.7, -2.5, 0.1, 1.1, -0.8, 2.9, -1.9, 0.6, 1.4, -0.2, 2.4,
                -1.1, 0.8, 1.9, -2.2, 0.4, -0.6, 2.7, 1.2, -1.6, 0.2, 3.1, -0.9, 1.3, -2.8, 0.7, 2.0]).reshape(1, 4, 4, 2)


@clause("autodiff.higher-order", ref="tf221")
@pytest.mark.parametrize("pool,ksize,strides,padding", [
    ("max", 2, 2, "VALID"), ("max", 3, 2, "SAME"), ("avg", 2, 2, "VALID"), ("avg", 3, 2, "SAME")])
def test_cov23b_pool_gradient_of_gradient(backend, tf, pool, ksize, strides, padding):
    """y = pool(x) * b, g = dy/dx (MaxPoolGrad: each window's gradient to its argmax; AvgPoolGrad: spread
    over the window's valid elements), P = sum(wg * g): dP/db is MaxPoolGradGrad (the incoming gradient
    read at each window's argmax) or AvgPool of the incoming gradient."""
    op = tf.nn.max_pool2d if pool == "max" else tf.nn.avg_pool2d
    b = np.linspace(-1.0, 1.6, 8).reshape(2, 2, 2)   # both poolings give [1, 2, 2, 2]
    _check(tf, lambda tf, v: op(v["x"], ksize, strides, padding) * v["b"], {"x": _X4, "b": b}, ["x"], ["b"],
           call=f"tf.nn.{pool}_pool2d(x, {ksize}, {strides}, {padding!r}) * b")


@clause("autodiff.higher-order", ref="tf221")
@pytest.mark.parametrize("pool", ["max", "avg"])
def test_cov23b_pool3d_gradient_of_gradient(backend, tf, pool):
    """The 3-D pools (float32 only in TF 2.21's CPU kernels): MaxPool3DGradGrad and AvgPool3D of the
    incoming gradient, through y = pool3d(x, 2, 2, 'SAME') * b on a 3x3x3 volume (partial windows).
    P is linear in b: differences of 0.5 are exact up to float32 rounding."""
    x = ((np.arange(54.0) * 29 % 54 - 27) / 10.0).reshape(1, 3, 3, 3, 2)   # distinct: one argmax per window
    op = tf.nn.max_pool3d if pool == "max" else tf.nn.avg_pool3d
    b = np.linspace(-1.0, 1.5, 16).reshape(2, 2, 2, 2)
    _check(tf, lambda tf, v: op(v["x"], 2, 2, "SAME") * v["b"], {"x": x, "b": b}, ["x"], ["b"],
           call=f"tf.nn.{pool}_pool3d(x, 2, 2, 'SAME') * b", dtype="float32", eps=0.5, rtol=2e-6)


@clause("autodiff.higher-order", ref="tf221")
@pytest.mark.parametrize("kind,strides,padding", [("conv2d", 1, "SAME"), ("conv2d", 2, "VALID"),
                                                  ("depthwise", 1, "SAME")])
def test_cov23b_conv_filter_gradient_of_gradient(backend, tf, kind, strides, padding):
    """y = conv(x, f) * b, g = dy/df (Conv2DBackpropFilter / DepthwiseConv2dNativeBackpropFilter),
    P = sum(wg * g): dP/dx is the backprop-input of the incoming gradient, dP/db the forward
    convolution of x with it (TF's _Conv2DBackpropFilterGrad). Two input and three output channels
    (a channel multiplier of 2 for depthwise), so the two gradients cannot trade places."""
    x = np.array([0.5, -1.0, 1.5, 0.25, -0.75, 2.0, 1.0, -0.5, 0.8, -1.2, 0.3, 1.1,
                  -0.4, 0.9, -1.5, 0.6, 1.3, -0.2]).reshape(1, 3, 3, 2)
    if kind == "conv2d":
        f = np.linspace(-1.0, 1.0, 2 * 2 * 2 * 3).reshape(2, 2, 2, 3)
        def build(tf, v):
            return tf.nn.conv2d(v["x"], v["f"], strides, padding) * v["b"]
        nout = 3
    else:
        f = np.linspace(-1.0, 1.0, 2 * 2 * 2 * 2).reshape(2, 2, 2, 2)
        def build(tf, v):
            return tf.nn.depthwise_conv2d(v["x"], v["f"], [1, strides, strides, 1], padding) * v["b"]
        nout = 4
    hw = 3 if padding == "SAME" and strides == 1 else 1
    b = np.linspace(-1.2, 1.4, hw * hw * nout).reshape(hw, hw, nout)
    _check(tf, build, {"x": x, "f": f, "b": b}, ["f"], ["x", "b"],
           call=f"{kind}(x, f, strides={strides}, padding={padding!r}) * b")


@clause("autodiff.higher-order", ref="tf221")
@pytest.mark.parametrize("mode", ["REFLECT", "SYMMETRIC"])
def test_cov23b_mirror_pad_gradient_of_gradient(backend, tf, mode):
    """y = pad(x, [[1, 0], [2, 1]], mode) * b, g = dy/dx (MirrorPadGrad: each border added back onto
    the entries it mirrors), P = sum(wg * g): dP/db is MirrorPad of the incoming gradient."""
    x = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]])
    b = np.linspace(-1.0, 1.7, 3 * 6).reshape(3, 6)
    _check(tf, lambda tf, v: tf.pad(v["x"], [[1, 0], [2, 1]], mode) * v["b"], {"x": x, "b": b}, ["x"], ["b"],
           call=f"tf.pad(x, [[1, 0], [2, 1]], {mode!r}) * b")
