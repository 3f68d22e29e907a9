"""Gaps the twenty-first blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours of the core of the training layer (the tape, op gradients, tf.nn, Keras
layers and losses, random ops) that no earlier suite test looked at closely enough for a wrong implementation
to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy
or the Python standard library (a transcription of TF's or Keras 3.15's rule), never the backend's own
implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


# -- GradientTape.jacobian and batch_jacobian: the layout of non-square, non-symmetric jacobians ---------------------
@clause("autodiff.jacobian", ref="tf221")
def test_blind21_jacobian_layout_of_non_square_non_symmetric_maps(tf, budget):
    """`jacobian(y, x)[i..., j...]` is d y[i...] / d x[j...]: for a linear map y = A x (A of shape (3, 2), so
    the jacobian is A itself and not its transpose), a rank-2 target of a rank-2 source (y = W @ X, W (2, 3),
    X (3, 4): d y[i, k] / d X[j, l] = W[i, j] [k == l]), a nested structure of sources (a dict: each entry its
    own jacobian, target shape + that source's shape), and batch_jacobian of a per-example linear map
    (y_b = M x_b with M (3, 2): every example's block is M)."""
    a = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 4.0]], np.float32)
    w = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, -1.5]], np.float32)
    xs = np.arange(12, dtype=np.float32).reshape(3, 4) / 4.0
    cases = ["linear-3x2", "matmul-rank2", "dict-sources", "batch-3x2"]
    for case in budget(cases):
        if case == "linear-3x2":
            x = tf.constant([0.5, -1.0])
            with tf.GradientTape() as t:
                t.watch(x)
                y = tf.linalg.matvec(tf.constant(a), x)
            got = _np(t.jacobian(y, x))
            assert_close(got, a, tolerance=TOL32, call="jacobian(A @ x, x), A (3, 2): the jacobian is A")
        elif case == "matmul-rank2":
            x = tf.constant(xs)
            with tf.GradientTape() as t:
                t.watch(x)
                y = tf.matmul(tf.constant(w), x)
            got = _np(t.jacobian(y, x))
            want = np.einsum("ij,kl->ikjl", w, np.eye(4, dtype=np.float32))
            assert_equal(got.shape, (2, 4, 3, 4), what="jacobian shape", call="jacobian(W @ X, X), W (2, 3), X (3, 4)")
            assert_close(got, want, tolerance=TOL32, call="jacobian(W @ X, X): d y[i, k] / d X[j, l] = W[i, j] [k == l]")
        elif case == "dict-sources":
            u = tf.constant([1.0, 2.0, 3.0])
            v = tf.constant([[0.5, -1.0]])
            with tf.GradientTape(persistent=True) as t:
                t.watch([u, v])
                y = tf.stack([u[0] * v[0, 1], u[2] ** 2 + v[0, 0]])
            got = t.jacobian(y, {"u": u, "v": v})
            want_u = np.array([[-1.0, 0.0, 0.0], [0.0, 0.0, 6.0]], np.float32)
            want_v = np.array([[[0.0, 1.0]], [[1.0, 0.0]]], np.float32)
            assert_close(_np(got["u"]), want_u, tolerance=TOL32, call="jacobian(y, {'u': u, 'v': v})['u']")
            assert_close(_np(got["v"]), want_v, tolerance=TOL32, call="jacobian(y, {'u': u, 'v': v})['v'], v (1, 2)")
        else:
            xb = tf.constant([[1.0, 2.0], [-1.0, 0.5]])
            with tf.GradientTape() as t:
                t.watch(xb)
                y = tf.matmul(xb, tf.constant(a.T))      # y_b = A x_b, (2, 3)
            got = _np(t.batch_jacobian(y, xb))
            assert_close(got, np.stack([a, a]), tolerance=TOL32,
                         call="batch_jacobian(x_b @ A.T, x_b), A (3, 2): each example's block is A")


# -- gradient kernels at their singular point under a zero upstream gradient ------------------------------------------
@clause("ops.gradient-none-or-zeros", ref="tf221")
def test_blind21_singular_gradients_under_a_zero_upstream_gradient(tf, budget):
    """`tf.where(x > 0, f(x), 0)` sends a zero upstream gradient into f's gradient at x = 0. TF's SqrtGrad,
    RsqrtGrad and ReciprocalGrad kernels give +0 wherever the upstream gradient is 0 (whatever y is), so the
    masked point's gradient is 0 for sqrt, rsqrt and reciprocal; Log's gradient is grad * (1 / x), a plain
    product, so log's is 0 * inf = NaN there. The unmasked points get f'(x)."""
    xs = np.array([0.0, 4.0, 0.25], np.float32)
    cases = [("sqrt", tf.sqrt, 0.5 / np.sqrt(xs[1:]), 0.0),
             ("rsqrt", tf.math.rsqrt, -0.5 * xs[1:] ** -1.5, 0.0),
             ("reciprocal", tf.math.reciprocal, -1.0 / xs[1:] ** 2, 0.0),
             ("log", tf.math.log, 1.0 / xs[1:], float("nan"))]
    for name, fn, want_rest, want_zero in budget(cases):
        x = tf.constant(xs)
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(tf.where(x > 0, fn(x), tf.zeros_like(x)))
        g = _np(t.gradient(y, x))
        ok0 = np.isnan(g[0]) if np.isnan(want_zero) else (g[0] == 0.0)
        assert_true(bool(ok0), f"d/dx where(x > 0, {name}(x), 0) at x = 0 is {g[0]}, but should be {want_zero}",
                    call=f"tape.gradient(where(x > 0, {name}(x), 0), x)")
        assert_close(g[1:], want_rest.astype(np.float32), tolerance=TOL32,
                     call=f"tape.gradient(where(x > 0, {name}(x), 0), x) at x = 4, 0.25")


# -- tf.nn.moments of float16 data: computed in float32 --------------------------------------------------------------
@clause("ops.nn-more", ref="tf221")
def test_blind21_moments_of_float16_are_computed_in_float32(tf, budget):
    """tf.nn.moments casts float16 input to float32, computes the mean and the variance there and casts both
    back to float16: data whose float16 sum (or sum of squares) would overflow 65504 still has a finite mean
    and variance, equal to the float32 moments rounded to float16, over every axis choice and with keepdims."""
    x16 = np.linspace(0.0, 200.0, 1200).astype(np.float16).reshape(40, 30)
    x32 = x16.astype(np.float32)
    for axes, keep in budget([([0, 1], False), ([0], True), ([1], False)]):
        m, v = tf.nn.moments(tf.constant(x16), axes=axes, keepdims=keep)
        wm = x32.astype(np.float64).mean(axis=tuple(axes), keepdims=True)
        wv = ((x32.astype(np.float64) - wm) ** 2).mean(axis=tuple(axes), keepdims=True)
        if not keep:
            wm, wv = np.squeeze(wm, tuple(axes)), np.squeeze(wv, tuple(axes))
        gm, gv = _np(m), _np(v)
        call = f"tf.nn.moments(float16 x (40, 30), axes={axes}, keepdims={keep})"
        assert_equal(str(gm.dtype), "float16", what="mean dtype", call=call)
        assert_true(bool(np.isfinite(gm).all() and np.isfinite(gv).all()),
                    f"mean {gm.ravel()[:3]} / variance {gv.ravel()[:3]} not finite", call=call)
        assert_close(gm.astype(np.float32), wm.astype(np.float16).astype(np.float32),
                     tolerance=Tolerance(rtol=2e-3, atol=1e-3), call=call + ": mean")
        assert_close(gv.astype(np.float32), wv.astype(np.float16).astype(np.float32),
                     tolerance=Tolerance(rtol=2e-3, atol=1e-3), call=call + ": variance")


# -- tf.nn.compute_average_loss: the weights' rank matched to the losses' -----------------------------------------
@clause("nn.compute-average-loss", ref="tf221")
def test_blind21_average_loss_matches_the_weights_rank_to_the_losses(tf, budget):
    """compute_average_loss matches the weights' rank to the per-example losses' before multiplying: weights
    one rank below the losses are expanded on the last axis (per-sample weights of (batch, steps) losses weigh
    whole rows), one rank above with a last dimension of 1 are squeezed, a scalar or same-shape weight
    multiplies as it is; the sum is divided by the batch (or global_batch_size)."""
    loss = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
    loss1 = np.array([1.0, 2.0, 4.0], np.float32)
    cases = [("(2, 3) losses, (2,) weights", loss, np.array([1.0, 2.0], np.float32), None,
              (loss * np.array([[1.0], [2.0]])).sum() / 2),
             ("(2, 3) losses, (2,) weights, global_batch_size=4", loss, np.array([0.5, 3.0], np.float32), 4,
              (loss * np.array([[0.5], [3.0]])).sum() / 4),
             ("(3,) losses, (3, 1) weights", loss1, np.array([[1.0], [0.0], [2.0]], np.float32), None,
              (loss1 * np.array([1.0, 0.0, 2.0])).sum() / 3),
             ("(2, 3) losses, scalar weight", loss, np.float32(0.25), None, (loss * 0.25).sum() / 2),
             ("(2, 3) losses, (2, 3) weights", loss, loss / 10.0, None, (loss * loss / 10.0).sum() / 2)]
    for name, lo, w, gbs, want in budget(cases):
        kw = {} if gbs is None else {"global_batch_size": gbs}
        got = float(_np(tf.nn.compute_average_loss(tf.constant(lo), sample_weight=tf.constant(w), **kw)))
        assert_close(got, float(want), tolerance=TOL32, call=f"tf.nn.compute_average_loss({name})")


# -- SUM sync-on-read variables assigned in cross-replica context: every kind of value ---------------------------
@clause("mirrored.sync-on-read", ref="tf221")
def test_blind21_sum_on_read_assign_divides_every_kind_of_value(backend, budget):
    """A SUM ON_READ variable assigned in cross-replica context writes value / num_replicas_in_sync to each copy
    (so the synced read is the value) whether the value is a Python number, a NumPy array or a tensor, for a
    scalar and a vector variable; TF divides the value as given with Python's `/`, so a Python list is
    TypeError for a SUM variable (a MEAN variable takes it). A MEAN variable writes the value whole to each copy."""
    from simdist.conformance.repro import Program
    kinds = ["tensor", "numpy", "python"]
    for kind in budget(kinds):
        ns = Program(backend, f"""
import numpy as np
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    s = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ, aggregation=tf.VariableAggregation.SUM)
    vec = tf.Variable([0.0, 0.0, 0.0], synchronization=tf.VariableSynchronization.ON_READ,
                      aggregation=tf.VariableAggregation.SUM)
    m = tf.Variable([0.0, 0.0], synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=tf.VariableAggregation.MEAN)
kind = {kind!r}
conv = {{"tensor": tf.constant, "numpy": lambda x: np.asarray(x, np.float32), "python": lambda x: x}}[kind]
s.assign(conv(6.0))
list_error = None
if kind == "python":
    try:
        vec.assign([2.0, 4.0, -8.0])   # TF divides the value as given with Python's `/`
    except TypeError as e:
        list_error = type(e).__name__
    vec.assign(tf.constant([2.0, 4.0, -8.0]))
else:
    vec.assign(conv([2.0, 4.0, -8.0]))
m.assign(conv([3.0, 5.0]) if kind != "python" else [3.0, 5.0])
s_copies = [c.numpy().tolist() for c in strategy.experimental_local_results(s)]
vec_copies = [c.numpy().tolist() for c in strategy.experimental_local_results(vec)]
m_copies = [c.numpy().tolist() for c in strategy.experimental_local_results(m)]
reads = [s.numpy().tolist(), vec.numpy().tolist(), m.numpy().tolist()]
""").run()
        call = f"MirroredStrategy(2): ON_READ variables assigned a {kind} value in cross-replica context"
        if kind == "python":
            assert_equal(ns["list_error"], "TypeError", what="SUM vector assigned a Python list (list / 2)", call=call)
        assert_close(ns["s_copies"], [3.0, 3.0], call=call, what="SUM scalar's copies (6 / 2 each)")
        assert_close(ns["vec_copies"], [[1.0, 2.0, -4.0]] * 2, call=call, what="SUM vector's copies (value / 2)")
        assert_close(ns["m_copies"], [[3.0, 5.0]] * 2, call=call, what="MEAN vector's copies (the value)")
        assert_close(ns["reads"][0], 6.0, call=call, what="SUM scalar's synced read")
        assert_close(ns["reads"][1], [2.0, 4.0, -8.0], call=call, what="SUM vector's synced read")
        assert_close(ns["reads"][2], [3.0, 5.0], call=call, what="MEAN vector's synced read")


# -- tf.random.Generator: the counter advances by the number of values drawn ------------------------------------
@clause("ops.random-generator", ref="tf221")
def test_blind21_generator_counter_advances_by_the_values_drawn(tf, budget):
    """A Philox tf.random.Generator made from_seed(s) (an int) starts at state [s, 0, 0]; each draw reads the
    state and skips it by the number of values drawn (RngReadAndSkip: the 128-bit counter advanced by
    256 · n, n the product of the shape, 1 for a scalar), whatever the distribution and whatever the shape's
    leading dimension, so after draws of sizes n1, n2, ... the counter is s + 256 · (n1 + n2 + ...). Two
    generators at the same state draw the same values for the same shape, and a draw of shape (2, 3) holds
    the same values as one of shape (6,) from the same state."""
    seq = [("normal", [2, 3]), ("uniform", [4, 1]), ("normal", []), ("truncated_normal", [1, 5]),
           ("uniform_int", [3, 2, 2])]
    for seed in budget([7, 1, 123]):
        g = tf.random.Generator.from_seed(seed)
        assert_equal(_np(g.state).tolist(), [seed, 0, 0], what="initial state", call=f"Generator.from_seed({seed})")
        total = 0
        for kind, shape in seq:
            if kind == "uniform_int":
                g.uniform(shape, minval=0, maxval=10, dtype=tf.int32)
            else:
                getattr(g, kind)(shape)
            total += int(np.prod(shape)) if shape else 1
            assert_equal(_np(g.state).tolist(), [seed + 256 * total, 0, 0], what="state",
                         call=f"Generator.from_seed({seed}) after draws up to {kind}{shape}")
        a, b = tf.random.Generator.from_seed(seed), tf.random.Generator.from_seed(seed)
        assert_equal(_np(a.normal([2, 3])).ravel().tolist(), _np(b.normal([6])).tolist(),
                     call=f"Generator.from_seed({seed}): normal([2, 3]) and normal([6]) from one state")
        assert_equal(_np(a.normal([3, 2])).tolist(), _np(tf.reshape(b.normal([6]), [3, 2])).tolist(),
                     call=f"Generator.from_seed({seed}): the second draws, after the same skip")
