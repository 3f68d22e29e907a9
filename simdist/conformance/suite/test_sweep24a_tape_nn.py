"""Value sweep 24 (issue 29): the tape's own rules and tf.nn's statistics at inputs that make them visible —
several targets each with its own signed output gradient (one target hides which gradient goes where), a
custom gradient of two outputs under two different upstream gradients, a mixed second derivative of a
non-symmetric function, float16 statistics whose float16 sums overflow (so the float32 accumulation TF does
is visible), l2_normalize's epsilon hit from below, exactly and from above, and per-example jacobians of a
non-square map.

Every expected value is computed here with NumPy in float64 (then rounded to the dtype as TF's rule says),
never taken from the backend: the rules are TF 2.21's backprop.py (output_gradients), custom_gradient.py,
nn_impl.py (moments casts float16 to float32; l2_normalize is x * rsqrt(maximum(sum(x**2), epsilon))) and
bias_op.cc (BiasAddGrad accumulates float16 in float32), each checked on TF 2.21.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL64 = Tolerance(rtol=1e-12, atol=1e-12)
TOL32 = Tolerance(rtol=2e-6, atol=1e-6)
EXACT = Tolerance(rtol=0.0, atol=0.0)


def _np(t, dtype=np.float64):
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t).astype(dtype)


@clause("autodiff.targets", ref="tf221")
def test_sweep24a_each_target_takes_its_own_output_gradient(tf, budget):
    """tape.gradient([y1, y2], sources, output_gradients=[R1, R2]) = J1^T R1 + J2^T R2: each target weighed by
    its own gradient (y1 = A x of shape (3,), y2 = x * w of shape (2,)), for a list and for a dict of sources,
    and with a third target y3 = x * z weighed by its own R3."""
    a = np.array([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]])
    w = np.array([2.0, -3.0])
    r1, r2 = np.array([1.0, -0.5, 2.0]), np.array([-1.25, 0.0])
    x0, z0 = np.array([0.75, -1.5]), np.array([2.0, -1.0])
    r3 = np.array([3.0, -0.5])
    for case in budget(["list", "dict", "third-target"]):
        x, z = tf.constant(x0), tf.constant(z0)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, z])
            y1 = tf.linalg.matvec(tf.constant(a), x)
            y2 = x * tf.constant(w) + z * z
            y3 = x * z
        if case == "list":
            gx, gz = tape.gradient([y1, y2], [x, z], output_gradients=[tf.constant(r1), tf.constant(r2)])
        elif case == "dict":
            g = tape.gradient([y1, y2], {"x": x, "z": z}, output_gradients=[tf.constant(r1), tf.constant(r2)])
            gx, gz = g["x"], g["z"]
        else:
            gx, gz = tape.gradient([y1, y2, y3], [x, z],
                                   output_gradients=[tf.constant(r1), tf.constant(r2), tf.constant(r3)])
        third = case == "third-target"
        want_x = a.T @ r1 + w * r2 + (z0 * r3 if third else 0.0)
        want_z = 2 * z0 * r2 + (x0 * r3 if third else 0.0)
        call = f"tape.gradient([A x, x * w + z * z{', x * z' if third else ''}], {case}, " \
               "output_gradients=[R1, R2...])"
        assert_close(_np(gx), want_x, tolerance=TOL64, call=call, what="d/dx")
        assert_close(_np(gz), want_z, tolerance=TOL64, call=call, what="d/dz")


@clause("autodiff.custom-gradient", ref="tf221")
def test_sweep24a_custom_gradient_of_two_outputs_gets_each_upstream(tf, budget):
    """A custom gradient whose function returns two outputs: grad_fn receives the upstream gradient of each
    (R1 for the first, R2 for the second, in that order) and the input gradient it returns is used as is."""
    r1, r2 = np.array([[1.0, -2.0, 0.5]]), np.array([[0.0, 3.0, -1.0]])
    x0 = np.array([[0.5, -1.0, 2.0]])
    for case in budget(["weighed", "second-unused"]):
        @tf.custom_gradient
        def two(t):
            def grad_fn(d1, d2):
                return d1 * 10.0 + (0.0 if d2 is None else d2 * 100.0)
            return (t * 2.0, t * t), grad_fn

        x = tf.constant(x0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            u, v = two(x)
            y = tf.reduce_sum(u * tf.constant(r1)) + (tf.reduce_sum(v * tf.constant(r2)) if case == "weighed" else 0.0)
        g = _np(tape.gradient(y, x))
        want = r1 * 10.0 + (r2 * 100.0 if case == "weighed" else 0.0)
        assert_close(g, want, tolerance=TOL64, what="d/dx", call=f"custom_gradient of (2 t, t * t), {case}")


@clause("autodiff.higher-order", ref="tf221")
def test_sweep24a_mixed_second_derivative_of_a_non_symmetric_function(tf, budget):
    """Nested tapes: d/dy of (d sum(R * f)/dx) for f = x**2 * y**3 + sin(x) * y, x of shape (2, 3), y of shape (3,)
    broadcast: d2/dxdy = R * (6 x y**2 + cos(x)) summed over the rows; and d/dx of it = R * (2 y**3 - sin(x) y)."""
    x0 = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
    y0 = np.array([1.25, -0.5, 2.0])
    r = np.array([[1.0, -2.0, 0.5], [0.0, 1.5, -1.0]])
    for order in budget(["d/dy", "d/dx"]):
        x, y = tf.constant(x0), tf.constant(y0)
        with tf.GradientTape() as outer:
            outer.watch([x, y])
            with tf.GradientTape() as inner:
                inner.watch(x)
                f = x ** 2 * y ** 3 + tf.sin(x) * y
            gx = inner.gradient(f, x, output_gradients=tf.constant(r))
            s = tf.reduce_sum(gx)
        got = _np(outer.gradient(s, y if order == "d/dy" else x))
        want = (r * (6 * x0 * y0 ** 2 + np.cos(x0))).sum(axis=0) if order == "d/dy" else r * (2 * y0 ** 3 - np.sin(x0) * y0)
        assert_close(got, want, tolerance=TOL64, what=order, call="nested tapes: " + order + " of d sum(R * f)/dx")


@clause("autodiff.jacobian", ref="tf221")
def test_sweep24a_batch_jacobian_of_a_non_square_per_example_map(tf, budget):
    """batch_jacobian(y, x)[b, i, j] = d y[b, i] / d x[b, j] for y[b] = M (x[b] * c[b]) with M (3, 2) and a
    per-example scale c (each example's block differs), and jacobian's [b, i, b', j] layout of the same map."""
    m = np.array([[1.0, -2.0], [0.5, 3.0], [-1.0, 0.25]])
    c = np.array([1.0, -2.0, 0.5, 4.0])
    x0 = np.array([[0.5, -1.0], [1.5, 2.0], [-0.25, 0.75], [1.0, 1.0]])
    for which in budget(["batch_jacobian", "jacobian"]):
        x = tf.constant(x0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.linalg.matvec(tf.constant(m), x * tf.constant(c[:, None]))
        blocks = c[:, None, None] * m[None]
        if which == "batch_jacobian":
            got, want = _np(tape.batch_jacobian(y, x)), blocks
        else:
            got = _np(tape.jacobian(y, x))
            want = np.zeros((4, 3, 4, 2))
            for b in range(4):
                want[b, :, b, :] = blocks[b]
        assert_equal(got.shape, want.shape, what=f"{which} shape", call=f"{which}(M (x * c), x (4, 2))")
        assert_close(got, want, tolerance=TOL64, what=which, call=f"{which}(M (x * c), x (4, 2)), M (3, 2)")


@clause("ops.nn-statistics", ref="tf221")
def test_sweep24a_float16_moments_and_bias_gradient_accumulate_in_float32(tf, budget):
    """tf.nn.moments casts float16 to float32 (nn_impl.moments), so values whose float16 sum overflows
    (30000 + 30002 + ...) still have a finite mean and variance; BiasAddGrad sums a float16 upstream gradient
    in float32 and rounds once (+-60000 rows: a float16 running sum is inf). Expected: float64, rounded to
    float16."""
    x0 = np.array([[30000.0, -2.0, 1.5], [30002.0, 2.0, 0.5], [29998.0, 6.0, -1.0], [30004.0, -6.0, 3.0]])
    for case in budget(["moments(axes=[0])", "moments(axes=[0], keepdims)", "bias_add gradient",
                        "bias_add gradient rank 3"]):
        if case.startswith("moments"):
            keep = "keepdims" in case
            mean, var = tf.nn.moments(tf.constant(x0, tf.float16), axes=[0], keepdims=keep)
            xs = x0.astype(np.float16).astype(np.float64)
            want_m = xs.mean(axis=0, keepdims=keep).astype(np.float32).astype(np.float16)
            want_v = ((xs - xs.mean(axis=0, keepdims=True).astype(np.float32)) ** 2).mean(
                axis=0, keepdims=keep).astype(np.float32).astype(np.float16)
            assert_close(_np(mean), want_m.astype(np.float64), tolerance=EXACT, what="mean", call=f"{case} float16")
            assert_close(_np(var), want_v.astype(np.float64), tolerance=Tolerance(rtol=1e-3, atol=1e-3),
                         what="variance", call=f"{case} float16")
        else:
            shape = (4, 3) if case == "bias_add gradient" else (2, 2, 3)
            r = np.array([[60000.0, 1.0, -3.0], [60000.0, 2.0, 0.5], [-60000.0, 4.0, 0.25],
                          [-60000.0, 8.0, 1.0]]).reshape(shape)
            x = tf.constant(np.ones(shape), tf.float16)
            b = tf.constant(np.zeros(3), tf.float16)
            with tf.GradientTape() as tape:
                tape.watch(b)
                y = tf.nn.bias_add(x, b)
            gb = tape.gradient(y, b, output_gradients=tf.constant(r, tf.float16))
            want = r.reshape(-1, 3).sum(axis=0).astype(np.float16).astype(np.float64)
            assert_close(_np(gb), want, tolerance=EXACT, what="d/dbias", call=f"{case}, float16 upstream +-60000")


@clause("ops.nn-statistics", ref="tf221")
def test_sweep24a_l2_normalize_epsilon_from_below_at_and_above(tf, budget):
    """l2_normalize(x, axis=1, epsilon=0.25) = x * rsqrt(maximum(sum(x**2), 0.25)): a row whose sum of squares is
    below epsilon is scaled by rsqrt(epsilon) (its gradient R * 2, the maximum passing nothing to the sum), one
    exactly at it and one above are normalized (gradient (R - y sum(R y)) / norm: maximum's tie goes to the sum)."""
    x0 = np.array([[0.1, -0.2, 0.2, 0.0], [0.25, -0.25, 0.25, 0.25], [1.0, -2.0, 0.5, 0.0]])
    r = np.array([[1.0, -2.0, 0.5, 3.0], [2.0, 1.0, -1.0, 0.25], [0.0, 1.5, -0.5, 2.0]])
    s = (x0 ** 2).sum(axis=1, keepdims=True)
    norm = np.sqrt(np.maximum(s, 0.25))
    y_want = x0 / norm
    g_want = np.where(s < 0.25, r / norm, (r - y_want * (r * y_want).sum(axis=1, keepdims=True)) / norm)
    for dtype in budget(["float64", "float32"]):
        x = tf.constant(x0, getattr(tf, dtype))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.math.l2_normalize(x, axis=1, epsilon=0.25)
        g = tape.gradient(y, x, output_gradients=tf.constant(r, getattr(tf, dtype)))
        tol = TOL64 if dtype == "float64" else TOL32
        call = f"l2_normalize(x {dtype}, axis=1, epsilon=0.25), rows below, at and above epsilon"
        assert_close(_np(y), y_want, tolerance=tol, what="value", call=call)
        assert_close(_np(g), g_want, tolerance=tol, what="d/dx", call=call)


@clause("autodiff.op-gradients", ref="tf221")
def test_sweep24a_clip_by_norm_gradient_below_at_and_above_the_norm(tf, budget):
    """clip_by_norm(t, 5, axes=[1]) = t * 5 / maximum(norm, 5) (clip_ops.py): rows of norm below 5 and 0 pass R
    through; a row of norm exactly 5 (3, 4) and one above are differentiated through the norm (maximum's tie goes
    to the norm): 5 / n * (R - u (u . R)), u = t / n."""
    t0 = np.array([[3.0, 4.0, 0.0], [0.6, 0.0, -0.8], [6.0, -8.0, 0.0], [0.0, 0.0, 0.0]])
    r = np.array([[1.0, -2.0, 0.5], [2.0, 1.0, -1.0], [0.0, 1.5, -0.5], [0.25, -3.0, 1.0]])
    n = np.sqrt((t0 ** 2).sum(axis=1, keepdims=True))
    u = np.where(n > 0, t0 / np.where(n > 0, n, 1.0), 0.0)
    want = np.where(n >= 5.0, 5.0 / np.where(n > 0, n, 1.0) * (r - u * (u * r).sum(axis=1, keepdims=True)), r)
    for dtype in budget(["float64", "float32"]):
        t = tf.constant(t0, getattr(tf, dtype))
        with tf.GradientTape() as tape:
            tape.watch(t)
            y = tf.clip_by_norm(t, 5.0, axes=[1])
        g = tape.gradient(y, t, output_gradients=tf.constant(r, getattr(tf, dtype)))
        assert_close(_np(g), want, tolerance=TOL64 if dtype == "float64" else TOL32, what="d/dt",
                     call=f"clip_by_norm(t {dtype}, 5.0, axes=[1]), row norms 5 (tie), 1, 10, 0")
