"""Gaps the twenty-sixth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): rules of the training layer that the suite stated for one spelling, one option value or
one input only (Lamb away from a zero variable, a dropout called directly but never through TimeDistributed, a
non-overlapping fractional_avg_pool's gradient by its sum, ...), so that a wrong implementation of the other case
passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy
(a transcription of TF's or Keras 3.15's rule, or central differences) or is a relation TF's rule implies between
two spellings, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


# -- Lamb's trust ratio at a zero variable or a zero update --------------------------------------------------------
def _lamb_steps(w0: np.ndarray, grads: list, lrs: list, b1: float = 0.9, b2: float = 0.999,
                eps: float = 1e-7) -> np.ndarray:
    """Keras 3.15's Lamb.update_step in float32: m, v moved by (1 - beta); m_hat = m / (1 - b1^t),
    v_hat = v / (1 - b2^t); update = m_hat / (sqrt(v_hat) + eps); ratio = |w| / |update| when both norms
    are positive, else 1; w -= ratio * lr * update."""
    f = np.float32
    w = w0.astype(f)
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t, (g, lr) in enumerate(zip(grads, lrs), start=1):
        g = np.asarray(g, f)
        m = m + (g - m) * f(1 - b1)
        v = v + (g * g - v) * f(1 - b2)
        m_hat = m / (f(1) - f(b1) ** f(t))
        v_sqrt = np.sqrt(v / (f(1) - f(b2) ** f(t))) + f(eps)
        update = m_hat / v_sqrt
        w_norm = np.sqrt(np.sum(w * w))
        g_norm = np.sqrt(np.sum(update * update))
        ratio = w_norm / g_norm if (w_norm > 0 and g_norm > 0) else f(1.0)
        w = w - f(ratio) * f(lr) * update
    return w


@clause("optim.update-rules", ref="tf221")
def test_blind26_lamb_trust_ratio_is_one_at_a_zero_variable_or_update(tf, budget):
    """Lamb scales each update by |w| / |update|, and by 1 where either norm is zero: a variable that is still
    zero (a zero-initialized bias under a warmup from learning rate 0) takes the plain bias-corrected Adam step,
    where 1 - beta_1^t (not 1 - beta_1) shows from the second step on; a zero gradient leaves the variable."""
    grads = [[1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [-2.0, 1.0]]
    cases = [("zero variable, lr 0 for one step", [0.0, 0.0], [0]),
             ("zero variable, lr 0 for two steps", [0.0, 0.0], [1]),
             ("zero variable, lr 0 for three steps", [0.0, 0.0], [2]),
             ("non-zero variable, lr 0 for one step", [1.0, -2.0], [0]),
             ("zero variable, constant lr", [0.0, 0.0], None),
             ("zero variable and zero gradients", [0.0, 0.0], "zero-grads")]
    keras = tf.keras
    for label, w0, bounds in budget(cases):
        gs = [[0.0, 0.0]] * 4 if bounds == "zero-grads" else grads
        if isinstance(bounds, list):
            lr = keras.optimizers.schedules.PiecewiseConstantDecay(bounds, [0.0, 0.1])
            lrs = [0.0 if step <= bounds[0] else 0.1 for step in range(4)]
        else:
            lr = 0.1
            lrs = [0.1] * 4
        v = tf.Variable(np.array(w0, np.float32))
        opt = keras.optimizers.Lamb(learning_rate=lr)
        for step, g in enumerate(gs):
            opt.apply_gradients([(tf.constant(g, tf.float32), v)])
            want = _lamb_steps(np.array(w0), gs[:step + 1], lrs[:step + 1])
            assert_close(_np(v), want, tolerance=TOL32, call=f"Lamb(learning_rate=...) on {label}, step {step + 1}",
                         what="the variable (trust ratio 1 where |w| or |update| is 0)")


# -- TimeDistributed passes the training flag to the layer it wraps -----------------------------------------------
@clause("keras.layer.call", ref="tf221")
def test_blind26_time_distributed_passes_the_training_flag(tf):
    """TimeDistributed(layer)(x, training=t) calls the layer on each time step with training=t: a wrapped
    Dropout drops (zeros, the rest scaled by 1 / (1 - rate)) in training and is the identity outside it; a
    wrapped BatchNormalization normalizes each step by that step's batch moments in training and by its moving
    moments (0 and 1 at first) outside it; a model called with training=True passes it down the same way."""
    keras = tf.keras
    keras.utils.set_random_seed(3)
    x = np.ones((4, 3, 5), np.float32)
    drop = keras.layers.TimeDistributed(keras.layers.Dropout(0.5, seed=1))
    for training in (True, False, None):
        y = to_numpy(drop(x, training=training))
        call = f"TimeDistributed(Dropout(0.5))(ones, training={training})"
        if training:
            assert_true(set(np.unique(y).tolist()) <= {0.0, 2.0} and (y == 0).any() and (y == 2).any(),
                        f"values {sorted(set(np.unique(y).tolist()))}, but should be 0 (dropped) and 2 (kept, "
                        "scaled by 1 / (1 - 0.5))", call=call)
        else:
            assert_equal(y, x, call=call, what="out (the identity outside training)")
    model = keras.Sequential([keras.Input((3, 5)), keras.layers.TimeDistributed(keras.layers.Dropout(0.5, seed=2))])
    y = to_numpy(model(x, training=True))
    assert_true((y == 0).any() and set(np.unique(y).tolist()) <= {0.0, 2.0},
                f"values {sorted(set(np.unique(y).tolist()))}, but should be 0 and 2",
                call="Sequential([TimeDistributed(Dropout(0.5))])(ones, training=True)")
    xb = np.random.default_rng(0).normal(size=(4, 3, 2)).astype(np.float32) * 3.0 + 1.0
    bn = keras.layers.TimeDistributed(keras.layers.BatchNormalization(epsilon=1e-3))
    got = to_numpy(bn(xb, training=True))
    mean = xb.mean(axis=0, keepdims=True)
    var = xb.var(axis=0, keepdims=True)
    assert_close(got, (xb - mean) / np.sqrt(var + 1e-3), tolerance=Tolerance(rtol=1e-4, atol=1e-4),
                 call="TimeDistributed(BatchNormalization())(x, training=True)",
                 what="out (each step normalized by its batch moments)")
    bn2 = keras.layers.TimeDistributed(keras.layers.BatchNormalization(epsilon=1e-3))
    got = to_numpy(bn2(xb, training=False))
    assert_close(got, xb / np.sqrt(np.float32(1.0 + 1e-3)), tolerance=Tolerance(rtol=1e-5, atol=1e-5),
                 call="TimeDistributed(BatchNormalization())(x, training=False)",
                 what="out (the initial moving moments 0 and 1)")


# -- SpectralNormalization of an all-zero kernel ------------------------------------------------------------------
@clause("keras.layer.spectral-normalization", ref="tf221")
def test_blind26_spectral_normalization_leaves_an_all_zero_kernel(tf):
    """SpectralNormalization(layer)(x, training=True) normalizes the kernel by its largest singular value, except
    an all-zero kernel (σ = 0), which it leaves as it is, with vector_u: the output is the wrapped layer's with a
    zero kernel (the bias alone), finite, for a Dense, a Conv1D and an Embedding (whose kernel is `embeddings`)."""
    keras = tf.keras
    keras.utils.set_random_seed(1)
    layers = [("Dense(3)", keras.layers.Dense(3, kernel_initializer="zeros", bias_initializer="ones"),
               np.arange(1.0, 5.0, dtype=np.float32).reshape(2, 2), np.ones((2, 3), np.float32)),
              ("Conv1D(2, 2)", keras.layers.Conv1D(2, 2, kernel_initializer="zeros", bias_initializer="ones"),
               np.arange(1.0, 7.0, dtype=np.float32).reshape(1, 3, 2), np.ones((1, 2, 2), np.float32)),
              ("Embedding(4, 2)", keras.layers.Embedding(4, 2, embeddings_initializer="zeros"),
               np.array([[0, 3]], np.int32), np.zeros((1, 2, 2), np.float32))]
    for name, inner, x, want in layers:
        sn = keras.layers.SpectralNormalization(inner)
        for training in (False, True, True):
            y = to_numpy(sn(x, training=training))
            call = f"SpectralNormalization({name} with a zero kernel)(x, training={training})"
            assert_equal(y, want, call=call, what="out (the zero kernel left as it is)")
        k = inner.embeddings if name.startswith("Embedding") else inner.kernel
        assert_equal(_np(k), np.zeros(tuple(k.shape), np.float32), call=f"SpectralNormalization({name}) after "
                     "training calls", what="the kernel (still zero)")


# -- SparseToDense's default_value gradient -----------------------------------------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
def test_blind26_sparse_to_dense_default_value_gradient(tf, budget):
    """d/d default_value of sparse-to-dense is the upstream gradient summed over the positions no value fills
    (the whole sum minus the filled positions'): 0 when every position is filled, the whole sum when none is; the
    values' gradient is the upstream gradient at their positions. Spellings: tf.sparse.to_dense(default_value=)
    and tf.raw_ops.SparseToDense."""
    up = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
    cases = [("two of six filled", [[0, 1], [1, 2]]), ("one filled", [[1, 0]]),
             ("all six filled", [[i, j] for i in range(2) for j in range(3)]), ("none filled", [])]
    for label, idx in budget(cases):
        n = len(idx)
        vals = tf.constant(np.arange(1.0, n + 1.0, dtype=np.float32))
        filled = np.zeros((2, 3), bool)
        for i, j in idx:
            filled[i, j] = True
        want_d = up[~filled].sum()
        want_v = np.array([up[i, j] for i, j in idx], np.float32)
        ind = np.array(idx, np.int64).reshape(n, 2)
        for spelling in ("tf.sparse.to_dense", "tf.raw_ops.SparseToDense"):
            d = tf.constant(0.5)
            with tf.GradientTape() as tape:
                tape.watch([vals, d])
                if spelling == "tf.sparse.to_dense":
                    dense = tf.sparse.to_dense(tf.sparse.SparseTensor(ind, vals, [2, 3]), default_value=d)
                else:
                    dense = tf.raw_ops.SparseToDense(sparse_indices=tf.constant(ind), output_shape=[2, 3],
                                                     sparse_values=vals, default_value=d)
                loss = tf.reduce_sum(dense * tf.constant(up))
            gv, gd = tape.gradient(loss, [vals, d])
            call = f"{spelling}(SparseTensor({label}), default_value=d)"
            assert_close(_np(gd), want_d, tolerance=TOL32, call=call,
                         what="d/d default_value (the upstream gradient over the unfilled positions)")
            assert_close(_np(gv), want_v, tolerance=TOL32, call=call, what="d/d values")


# -- fractional pools' gradients over their windows ---------------------------------------------------------------
def _cells(seq: list, n: int, overlapping: bool) -> list:
    """Each output's rows (or columns): [seq[i], seq[i + 1]) and, when overlapping, seq[i + 1] too (TF's
    fractional pools; the last capped at n - 1)."""
    return [(seq[i], min(seq[i + 1] if overlapping else seq[i + 1] - 1, n - 1)) for i in range(len(seq) - 1)]


@clause("ops.nn-fractional-pool", ref="tf221")
def test_blind26_fractional_pool_gradients_spread_over_each_window(tf, budget):
    """The gradient of fractional_avg_pool spreads each output's upstream gradient equally over the cells of its
    window, and that of fractional_max_pool sends it to its window's (first) maximum, with the windows the op
    returns: overlapping windows share their boundary row and column, so a boundary cell collects from every
    window that holds it."""
    cases = [(True, True, 3, (7, 7), [1.0, 1.6, 1.6, 1.0]), (True, False, 5, (9, 8), [1.0, 1.5, 1.7, 1.0]),
             (False, True, 3, (7, 7), [1.0, 1.6, 1.6, 1.0]), (False, False, 8, (9, 9), [1.0, 1.4, 1.4, 1.0])]
    rng = np.random.default_rng(7)
    for overlapping, pseudo, seed, (h, w), ratio in budget(cases):
        x = rng.permutation(h * w).reshape(1, h, w, 1).astype(np.float32)   # distinct values: one maximum
        v = tf.constant(x)
        for kind in ("avg", "max"):
            fn = tf.nn.fractional_avg_pool if kind == "avg" else tf.nn.fractional_max_pool
            with tf.GradientTape() as tape:
                tape.watch(v)
                out, rows, cols = fn(v, ratio, pseudo_random=pseudo, overlapping=overlapping, seed=seed)
                up = np.arange(1.0, 1.0 + np.prod(out.shape), dtype=np.float32).reshape(tuple(out.shape))
                loss = tf.reduce_sum(out * tf.constant(up))
            g = to_numpy(tape.gradient(loss, v))
            want = np.zeros_like(x)
            for i, (r0, r1) in enumerate(_cells(to_numpy(rows).tolist(), h, overlapping)):
                for j, (c0, c1) in enumerate(_cells(to_numpy(cols).tolist(), w, overlapping)):
                    win = x[0, r0:r1 + 1, c0:c1 + 1, 0]
                    if kind == "avg":
                        want[0, r0:r1 + 1, c0:c1 + 1, 0] += up[0, i, j, 0] / win.size
                    else:
                        a, b = np.unravel_index(np.argmax(win), win.shape)
                        want[0, r0 + a, c0 + b, 0] += up[0, i, j, 0]
            assert_close(g, want, tolerance=Tolerance(rtol=1e-5, atol=1e-5),
                         call=f"fractional_{kind}_pool(ratio={ratio}, overlapping={overlapping}, "
                              f"pseudo_random={pseudo}, seed={seed}) on a {h}x{w} image",
                         what="d sum(out * up)/d x (each window's share)")


# -- rgb_to_hsv's gradient at a zero channel ----------------------------------------------------------------------
def _hsv(rgb: np.ndarray) -> np.ndarray:
    """rgb_to_hsv in float64 (h in [0, 1), s = (max - min) / max, v = max), for pixels with one strict maximum."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    mx, mn = rgb.max(-1), rgb.min(-1)
    d = mx - mn
    h = np.where(mx == r, (g - b) / d, np.where(mx == g, 2.0 + (b - r) / d, 4.0 + (r - g) / d)) / 6.0
    return np.stack([h % 1.0, d / mx, mx], axis=-1)


@clause("autodiff.op-gradients", ref="tf221")
def test_blind26_rgb_to_hsv_gradient_at_a_zero_channel(tf):
    """TF's _RGBToHSVGrad gates each channel's saturation derivative by `channel > 0`: at a channel that is
    exactly 0 (the pixel's minimum) the gradient is the hue's and value's derivatives only (saturation adds 0,
    though s = 1 - min / max moves with it); the pixel's other channels, and pixels without a zero, get the
    full derivative (central differences of h, s and v)."""
    px = np.array([[0.0, 0.5, 0.2], [0.3, 0.0, 0.6], [0.7, 0.4, 0.0], [0.2, 0.8, 0.0], [0.0, 0.3, 0.9],
                   [0.6, 0.0, 0.1], [0.3, 0.5, 0.2]], np.float64)
    wts = np.array([1.0, 2.0, 3.0])
    for dt in ("float32", "float64"):
        x = tf.constant(px.astype(dt))
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.image.rgb_to_hsv(x) * tf.constant(wts.astype(dt)))
        got = to_numpy(tape.gradient(loss, x)).astype(np.float64)
        eps = 1e-6
        want = np.zeros_like(px)
        for p in range(px.shape[0]):
            for c in range(3):
                hi, lo = px[p].copy(), px[p].copy()
                hi[c] += eps
                lo[c] -= eps
                dhsv = (_hsv(hi) - _hsv(lo)) / (2 * eps)
                w = wts.copy()
                if px[p, c] == 0.0:
                    w[1] = 0.0        # the saturation term gated off at a zero channel
                want[p, c] = float(np.dot(w, dhsv))
        assert_close(got, want, tolerance=Tolerance(rtol=2e-3, atol=2e-3),
                     call=f"d sum(rgb_to_hsv(x) * [1, 2, 3])/dx, {dt} pixels with a zero channel",
                     what="the gradient (no saturation term at a zero channel)")


# -- a non-persistent tape is spent by jacobian and batch_jacobian -------------------------------------------------
@clause("autodiff.jacobian", ref="tf221")
def test_blind26_jacobians_spend_a_non_persistent_tape(tf):
    """gradient, jacobian and batch_jacobian each spend a non-persistent tape: any second call of the three is
    RuntimeError; on a persistent tape they repeat, with the same values (d(x*x)/dx = 2x on the diagonal)."""
    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    want_bj = np.stack([np.diag(2 * row) for row in x])
    want_j = np.zeros((2, 2, 2, 2), np.float32)
    for i in range(2):
        for j in range(2):
            want_j[i, j, i, j] = 2 * x[i, j]
    calls = {"gradient": lambda t, y, v: t.gradient(y, v), "jacobian": lambda t, y, v: t.jacobian(y, v),
             "batch_jacobian": lambda t, y, v: t.batch_jacobian(y, v)}
    want = {"gradient": 2 * x, "jacobian": want_j, "batch_jacobian": want_bj}
    for first in calls:
        for second in calls:
            v = tf.constant(x)
            with tf.GradientTape() as tape:
                tape.watch(v)
                y = v * v
            assert_close(_np(calls[first](tape, y, v)), want[first], tolerance=TOL32,
                         call=f"non-persistent tape: {first}(x*x, x)")
            with raises(RuntimeError, call=f"non-persistent tape: {first}, then {second}"):
                calls[second](tape, y, v)
    v = tf.constant(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(v)
        y = v * v
    for name in ("batch_jacobian", "gradient", "jacobian", "batch_jacobian"):
        assert_close(_np(calls[name](tape, y, v)), want[name], tolerance=TOL32,
                     call=f"persistent tape: {name}(x*x, x) again")


# -- the gamma draws' alpha gradient sums the sample axes ---------------------------------------------------------
@clause("ops.random-gamma-poisson", ref="tf221")
def test_blind26_gamma_alpha_gradient_sums_over_the_sample_axes(tf, budget):
    """The gradient of a gamma draw with respect to alpha is upstream * RandomGammaGrad(alpha, sample) summed over
    the sample axes, leaving alpha's shape: for stateless_gamma(shape, alpha) the leading
    len(shape) - alpha.ndim axes (all of them for a scalar alpha), for random.gamma(shape, alpha) the len(shape)
    leading axes of its shape + alpha.shape output."""
    cases = [("stateless", [3, 2], 2.0), ("stateless", [4], 0.5), ("stateless", [2, 3, 2], 1.5),
             ("stateless", [3, 2], [1.0, 2.5]), ("stateless", [2, 2, 2], [[1.0, 2.0], [3.0, 0.5]]),
             ("stateful", [3], 2.0), ("stateful", [2, 2], [1.0, 4.0])]
    for kind, shape, a in budget(cases):
        for dt in ("float32", "float64"):
            alpha = tf.constant(np.asarray(a, dt))
            with tf.GradientTape() as tape:
                tape.watch(alpha)
                if kind == "stateless":
                    s = tf.random.stateless_gamma(shape, seed=[1, 2], alpha=alpha, dtype=dt)
                else:
                    s = tf.random.gamma(shape, alpha, dtype=dt, seed=3)
                up = np.arange(1.0, 1.0 + np.prod(s.shape), dtype=dt).reshape(tuple(s.shape))
                loss = tf.reduce_sum(s * tf.constant(up))
            g = _np(tape.gradient(loss, alpha))
            sample = _np(s)
            a_np = np.asarray(a, dt)
            partial = _np(tf.raw_ops.RandomGammaGrad(alpha=tf.constant(np.broadcast_to(a_np, sample.shape)),
                                                     sample=tf.constant(sample)))
            n_sample = sample.ndim - a_np.ndim
            want = (up * partial).sum(axis=tuple(range(n_sample)))
            call = f"{kind} gamma(shape={shape}, alpha={a}, {dt})"
            assert_equal(g.shape, a_np.shape, call=call, what="d/d alpha's shape (alpha's own)")
            assert_close(g, want, tolerance=Tolerance(rtol=1e-4, atol=1e-4), call=call,
                         what="d sum(up * sample)/d alpha (up * RandomGammaGrad summed over the sample axes)")


# -- input_signature binds keyword arguments too ------------------------------------------------------------------
@clause("function.input-signature", ref="tf221")
def test_blind26_input_signature_binds_arguments_passed_by_keyword(tf):
    """A tf.function with an input_signature converts each argument to its TensorSpec whether it comes by
    position or by keyword: a Python int, a float and a NumPy float64 array become float32 tensors, in any order
    of the keywords."""
    spec = [tf.TensorSpec([], tf.float32), tf.TensorSpec([2], tf.float32)]

    @tf.function(input_signature=spec)
    def f(a, b):
        return a * 2.0 + b, tf.constant(a.dtype.name), tf.constant(b.dtype.name)

    calls = [("f(1.0, [3, 4])", lambda: f(1.0, [3, 4])), ("f(1.0, b=[3, 4])", lambda: f(1.0, b=[3, 4])),
             ("f(a=1, b=np.array([3., 4.]))", lambda: f(a=1, b=np.array([3.0, 4.0]))),
             ("f(b=[3, 4], a=1)", lambda: f(b=[3, 4], a=1)),
             ("f(np.float64(1.0), b=np.array([3, 4]))", lambda: f(np.float64(1.0), b=np.array([3, 4])))]
    for label, c in calls:
        out, da, db = c()
        assert_close(_np(out), np.array([5.0, 6.0], np.float32), tolerance=TOL32, call=label, what="a * 2 + b")
        assert_equal((_np(da).item().decode(), _np(db).item().decode(), _np(out).dtype.name),
                      ("float32", "float32", "float32"), call=label, what="the arguments' dtypes inside")


# -- tf.function converts the values of a returned dict -----------------------------------------------------------
@clause("function.trace-once", ref="tf221")
def test_blind26_function_converts_every_returned_structure(tf):
    """A tf.function returns tensors for the Python and NumPy numbers it returns, at any depth: in a dict, a
    list, a tuple, a namedtuple and a dict inside a list; None stays None."""
    import collections
    Pair = collections.namedtuple("Pair", ["p", "q"])

    @tf.function
    def f(x):
        return {"y": x * 2.0, "n": 3, "a": np.float32(1.5), "l": [1, {"k": 2.5}], "t": (4, None),
                "nt": Pair(5, np.int64(6))}

    out = f(tf.constant(1.0))
    leaves = {"y": out["y"], "n": out["n"], "a": out["a"], "l0": out["l"][0], "l1k": out["l"][1]["k"],
              "t0": out["t"][0], "nt.p": out["nt"].p, "nt.q": out["nt"].q}
    want = {"y": (2.0, "float32"), "n": (3, "int32"), "a": (1.5, "float32"), "l0": (1, "int32"),
            "l1k": (2.5, "float32"), "t0": (4, "int32"), "nt.p": (5, "int32"), "nt.q": (6, "int64")}
    for k, leaf in leaves.items():
        assert_true(hasattr(leaf, "numpy") and hasattr(leaf, "dtype"),
                    f"out[{k}] is {type(leaf).__name__}, but should be a tensor", call="tf.function returning nests")
        assert_equal((_np(leaf).item(), leaf.dtype.name), want[k], call="tf.function returning nests",
                     what=f"out[{k}] (value, dtype)")
    assert_true(out["t"][1] is None, f"out['t'][1] is {out['t'][1]!r}, but should be None",
                call="tf.function returning nests")
    assert_true(type(out["nt"]).__name__ == "Pair", f"out['nt'] is {type(out['nt']).__name__}, but should be "
                "the namedtuple Pair", call="tf.function returning nests")


# -- validation_data wins over validation_split -------------------------------------------------------------------
@clause("keras.fit.validation", ref="tf221")
def test_blind26_validation_data_wins_over_validation_split(tf):
    """fit(x, y, validation_split=s) trains on the first (1 - s) of the samples and validates on the rest; given
    validation_data as well, it trains on all of x and validates on validation_data (the split is ignored).
    With a learning rate of 0 the logged losses are plain means over those samples (MSE of a fixed model)."""
    keras = tf.keras
    x = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0], [-1.0, 1.0], [0.0, 0.5], [1.5, 1.5], [-0.5, 2.0],
                  [1.0, -2.0]], np.float32)
    y = np.array([[1.0], [0.0], [2.0], [-1.0], [0.5], [1.0], [0.0], [3.0]], np.float32)
    vx, vy = x[:3], y[:3] + 10.0
    pred = x.sum(axis=1, keepdims=True)       # Dense(1) with ones and a zero bias

    def mse(p, t):
        return float(np.mean((p - t) ** 2))

    def fit(**kw):
        keras.utils.set_random_seed(1)
        m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
        m.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse")
        return m.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0, **kw).history

    cases = [("validation_split=0.25", {"validation_split": 0.25}, mse(pred[:6], y[:6]), mse(pred[6:], y[6:])),
             ("validation_data", {"validation_data": (vx, vy)}, mse(pred, y), mse(pred[:3], vy)),
             ("validation_split=0.25 and validation_data", {"validation_split": 0.25, "validation_data": (vx, vy)},
              mse(pred, y), mse(pred[:3], vy)),
             ("validation_split=0.5 and validation_data", {"validation_split": 0.5, "validation_data": (vx, vy)},
              mse(pred, y), mse(pred[:3], vy))]
    for label, kw, want_loss, want_val in cases:
        h = fit(**kw)
        assert_close([h["loss"][0], h["val_loss"][0]], [want_loss, want_val], tolerance=Tolerance(rtol=1e-5, atol=1e-5),
                     call=f"fit(x, y, {label}) with learning rate 0", what="[loss, val_loss]")
