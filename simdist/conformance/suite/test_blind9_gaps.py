"""Gaps the ninth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): options and behaviours no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug: gradients of matrix decompositions
through every output and option, of special functions, complex einsums, the FFT family, tied
segment maxima and sparse-dense products; graph gradients with stop_gradients and a tape that
watches only what it is told; gamma's rate, fold_in and split, stateless shuffles, initializer fans
of convolution kernels; channels-first pooling, Bidirectional's initial states, bilinear
upsampling, both GRU variants, LayerNormalization over several axes; BinaryIoU, FBetaScore and
AUC options; History, ReduceLROnPlateau's floor, min_delta in both directions, CSVLogger's append;
validation_steps, the *_on_batch metrics, per-output sample weights and to_categorical.
Every expected value is computed here with NumPy (or a Python transcription of Keras 3.15's
rule), never with the backend's own implementation of the same rule.
"""

from __future__ import annotations

import csv
import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.values import distinct_values as _x, grid as _grid

clause = pytest.mark.clause
TOL = Tolerance(rtol=1e-6, atol=1e-8)
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)
TOL_FD = Tolerance(rtol=1e-5, atol=1e-7)


def _close(got, expect, *, call, what="out", tolerance):
    """assert_close of the real parts, then of the imaginary parts (complex values)."""
    g, e = np.asarray(got), np.asarray(expect)
    assert_close(g.real, e.real, call=call, what=f"real({what})", tolerance=tolerance)
    assert_close(np.imag(g), np.imag(e), call=call, what=f"imag({what})", tolerance=tolerance)


def _fd(f, a, h=1e-6):
    """Central differences of the real scalar f at the real or complex array a: d/dRe + i d/dIm
    (TF's gradient of a real loss with respect to a complex input)."""
    a = np.asarray(a)
    g = np.zeros(a.shape, dtype=a.dtype)
    for idx in np.ndindex(*a.shape):
        e = np.zeros(a.shape, dtype=a.dtype)
        e[idx] = h
        g[idx] = (f(a + e) - f(a - e)) / (2 * h)
        if np.iscomplexobj(a):
            g[idx] += 1j * (f(a + 1j * e) - f(a - 1j * e)) / (2 * h)
    return g


# -- matrix decompositions: the gradient through every output, by central differences -----------------------
_SPD = np.array([[4.0, 1.2, -0.6, 0.3], [1.2, 3.0, 0.5, -0.8], [-0.6, 0.5, 2.5, 0.4], [0.3, -0.8, 0.4, 5.0]])
_WM = np.array([[0.7, -1.3, 0.4, 2.1], [-0.2, 1.5, -0.9, 0.6], [1.1, 0.3, -1.7, 0.8], [-0.5, 0.9, 1.2, -1.4]])


def _sym_fd(f, a):
    """Derivatives along the symmetric perturbations E_ij + E_ji (i > j) and E_ii."""
    n = a.shape[0]
    d = np.zeros((n, n))
    h = 1e-6
    for i in range(n):
        for j in range(i + 1):
            e = np.zeros((n, n))
            e[i, j] = e[j, i] = h
            d[i, j] = (f(a + e) - f(a - e)) / (2 * h)
    return d


def _eigh_loss_np(a, we, wv):
    e, v = np.linalg.eigh(a)
    return float(np.sum(we * e) + np.sum(wv * (v @ np.diag(np.arange(1.0, len(e) + 1)) @ v.T)))


def _eigh_gradient_through_values_and_vectors(tf, vectors):
    """d/dA of sum(we * e) + sum(Wv * V diag(1..n) V^T) (invariant under the vectors' signs): TF
    reads the lower triangle, so its gradient is lower-triangular, each off-diagonal entry the
    derivative along the symmetric pair (E_ij + E_ji), the diagonal along E_ii."""
    we = np.array([0.5, -1.5, 2.0, 0.8])
    wv = _WM if vectors else np.zeros((4, 4))
    x = tf.constant(_SPD)
    with tf.GradientTape() as tape:
        tape.watch(x)
        if vectors:
            e, v = tf.linalg.eigh(x)
            y = tf.reduce_sum(tf.constant(we) * e) + tf.reduce_sum(
                tf.constant(wv) * tf.matmul(v * tf.constant(np.arange(1.0, 5.0)), v, transpose_b=True))
        else:
            y = tf.reduce_sum(tf.constant(we) * tf.linalg.eigvalsh(x))
    expect = _sym_fd(lambda a: _eigh_loss_np(a, we, wv), _SPD)
    assert_close(tape.gradient(y, x), expect, call=f"d/dA of a loss of eigh(A) ({'values and vectors' if vectors else 'eigvalsh'})",
                 what="dA", tolerance=TOL_FD)


def _cholesky_gradient(tf):
    """d/dA sum(W * cholesky(A)): symmetric, each off-diagonal entry half the derivative along
    E_ij + E_ji, the diagonal the derivative along E_ii."""
    x = tf.constant(_SPD)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.constant(_WM) * tf.linalg.cholesky(x))
    d = _sym_fd(lambda a: float(np.sum(_WM * np.linalg.cholesky(a))), _SPD)
    off = np.tril(d, -1) / 2.0
    expect = off + off.T + np.diag(np.diag(d))
    assert_close(tape.gradient(y, x), expect, call="d/dA sum(W * cholesky(A))", what="dA", tolerance=TOL_FD)


def _triangular_solve_gradient(tf, lower, adjoint):
    """d/dA and d/dB of sum(W * triangular_solve(A, B, lower, adjoint)): only A's triangle is read
    (the other entries' gradient is 0)."""
    a = _SPD + np.array([[0.0, 0.9, -1.1, 0.2], [0.4, 0.0, 0.7, -0.3], [-0.8, 0.6, 0.0, 1.3], [0.5, -0.2, 0.9, 0.0]])
    b = _x((4, 3), dtype=np.float64) + 0.2
    w = _x((4, 3), scale=1.7, dtype=np.float64) - 0.3
    tri = np.tril if lower else np.triu

    def solve(am, bm):
        t = tri(am)
        return np.linalg.solve(t.T if adjoint else t, bm)

    xa, xb = tf.constant(a), tf.constant(b)
    with tf.GradientTape() as tape:
        tape.watch([xa, xb])
        y = tf.reduce_sum(tf.constant(w) * tf.linalg.triangular_solve(xa, xb, lower=lower, adjoint=adjoint))
    ga, gb = tape.gradient(y, [xa, xb])
    call = f"triangular_solve(A, B, lower={lower}, adjoint={adjoint})"
    assert_close(ga, tri(_fd(lambda m: float(np.sum(w * solve(m, b))), a)), call=call, what="dA", tolerance=TOL_FD)
    assert_close(gb, _fd(lambda m: float(np.sum(w * solve(a, m))), b), call=call, what="dB", tolerance=TOL_FD)


@clause("autodiff.op-gradients", ref="tf221")
def test_blind9_decomposition_gradients_match_central_differences(tf, budget):
    cases = [("eigh", {"vectors": True}), ("eigh", {"vectors": False}), ("cholesky", {})] + \
        [("trisolve", {"lower": lo, "adjoint": adj}) for lo in (True, False) for adj in (False, True)]
    run = {"eigh": _eigh_gradient_through_values_and_vectors, "cholesky": _cholesky_gradient,
           "trisolve": _triangular_solve_gradient}
    for name, kw in budget(cases):
        run[name](tf, **kw)


# -- special functions: every tf.math.special gradient by central differences of its own forward ------------
_SPECIAL = ("bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0",
            "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1", "dawsn", "expint",
            "fresnel_cos", "fresnel_sin", "spence")


def _special_gradient(tf, name):
    fn = getattr(tf.math.special, name)
    xs = np.array([0.35, 0.9, 1.7, 3.2, 5.5])
    w = np.array([1.0, -0.7, 1.3, -2.0, 0.6])
    x = tf.constant(xs)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.constant(w) * fn(x))
    h = 1e-5
    expect = w * (np.asarray(fn(tf.constant(xs + h))) - np.asarray(fn(tf.constant(xs - h)))) / (2 * h)
    assert_close(tape.gradient(y, x), expect, call=f"d/dx sum(w * tf.math.special.{name}(x)) at {xs.tolist()}",
                 what="dx", tolerance=Tolerance(rtol=1e-6, atol=1e-9))


@clause("autodiff.op-gradients", ref="tf221")
def test_blind9_special_function_gradients_match_central_differences(tf, budget):
    for name in budget(list(_SPECIAL)):
        _special_gradient(tf, name)


# -- einsum of complex operands ------------------------------------------------------------------------------
def _complex_einsum_gradient(tf, equation, sa, sb):
    """The gradient of a real loss of a complex einsum: d/dRe + i d/dIm of each operand (TF
    contracts the upstream gradient with the other operand's conjugate)."""
    a = _x(sa, dtype=np.float64) + 1j * _x(sa, scale=0.7, dtype=np.float64)[::-1].reshape(sa)
    b = _x(sb, scale=1.3, dtype=np.float64) - 1j * (_x(sb, dtype=np.float64) + 0.4)
    out_shape = np.einsum(equation, a, b).shape
    wr, wi = _x(out_shape, dtype=np.float64) + 0.3, _x(out_shape, scale=-1.1, dtype=np.float64)

    def loss(y):
        return float(np.sum(wr * y.real) + np.sum(wi * y.imag))

    xa, xb = tf.constant(a), tf.constant(b)
    with tf.GradientTape() as tape:
        tape.watch([xa, xb])
        y = tf.einsum(equation, xa, xb)
        total = tf.reduce_sum(tf.constant(wr) * tf.math.real(y)) + tf.reduce_sum(tf.constant(wi) * tf.math.imag(y))
    ga, gb = tape.gradient(total, [xa, xb])
    _close(ga, _fd(lambda m: loss(np.einsum(equation, m, b)), a), call=f"einsum({equation!r}) of complex128",
           what="d/da", tolerance=TOL_FD)
    _close(gb, _fd(lambda m: loss(np.einsum(equation, a, m)), b), call=f"einsum({equation!r}) of complex128",
           what="d/db", tolerance=TOL_FD)


@clause("ops.einsum", ref="tf221")
def test_blind9_complex_einsum_gradient_conjugates_the_other_operand(tf, budget):
    cases = [("ij,jk->ik", (2, 3), (3, 2)), ("bij,bjk->bik", (2, 2, 3), (2, 3, 2)), ("ij,ij->i", (2, 3), (2, 3)),
             ("i,j->ij", (3,), (2,))]
    for equation, sa, sb in budget(cases):
        _complex_einsum_gradient(tf, equation, sa, sb)


# -- the FFT family ------------------------------------------------------------------------------------------
def _fft_gradient(tf, op, n):
    """d/dinput of a real loss of tf.signal.{rfft,irfft,fft,ifft,rfft2d,irfft2d} at even and odd
    lengths, against central differences of NumPy's transform."""
    s = tf.signal
    if op == "irfft":
        z = _x((2, n // 2 + 1), dtype=np.float64) + 1j * _x((2, n // 2 + 1), scale=0.6, dtype=np.float64)
        w = _x((2, n), scale=1.4, dtype=np.float64) + 0.2
        loss = lambda m: float(np.sum(w * np.fft.irfft(m, n)))   # noqa: E731
        run = lambda t: tf.reduce_sum(tf.constant(w) * s.irfft(t, fft_length=[n]))   # noqa: E731
        z = z.astype(np.complex128)
    elif op == "irfft2d":
        z = _x((3, n // 2 + 1), dtype=np.float64) + 1j * _x((3, n // 2 + 1), scale=-0.6, dtype=np.float64)
        w = _x((3, n), scale=1.4, dtype=np.float64) + 0.2
        loss = lambda m: float(np.sum(w * np.fft.irfft2(m, (3, n))))   # noqa: E731
        run = lambda t: tf.reduce_sum(tf.constant(w) * s.irfft2d(t, fft_length=[3, n]))   # noqa: E731
    else:
        real_in = op in ("rfft", "rfft2d")
        shape = (3, n) if op == "rfft2d" else (2, n)
        z = _x(shape, dtype=np.float64) + (0 if real_in else 1j * _x(shape, scale=0.8, dtype=np.float64)[::-1])
        npf = {"rfft": lambda m: np.fft.rfft(m), "rfft2d": lambda m: np.fft.rfft2(m), "fft": np.fft.fft,
               "ifft": np.fft.ifft}[op]
        tff = {"rfft": lambda t: s.rfft(t, fft_length=[n]), "rfft2d": lambda t: s.rfft2d(t, fft_length=[3, n]),
               "fft": s.fft, "ifft": s.ifft}[op]
        out_shape = npf(z).shape
        wr, wi = _x(out_shape, dtype=np.float64) + 0.1, _x(out_shape, scale=-0.9, dtype=np.float64)
        loss = lambda m: float(np.sum(wr * npf(m).real) + np.sum(wi * npf(m).imag))   # noqa: E731

        def run(t):
            y = tff(t)
            return tf.reduce_sum(tf.constant(wr) * tf.math.real(y)) + tf.reduce_sum(tf.constant(wi) * tf.math.imag(y))
    x = tf.constant(z)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = run(x)
    _close(tape.gradient(y, x), _fd(loss, z), call=f"d/dx of a real loss of tf.signal.{op} (length {n})", what="dx",
           tolerance=Tolerance(rtol=1e-5, atol=1e-6))


@clause("ops.signal-fft", ref="tf221")
def test_blind9_fft_family_gradients_match_central_differences(tf, budget):
    for case in budget(_grid(("op", ["irfft", "rfft", "fft", "ifft", "irfft2d", "rfft2d"]), ("n", [6, 5]))):
        _fft_gradient(tf, **case)


# -- segment maxima and minima with ties ---------------------------------------------------------------------
def _segment_extremum_gradient(tf, op, sorted_ids):
    """The gradient of sum(w * segment_{max,min}(x, ids)): each segment's upstream value shared
    equally among the entries tied at its extremum (negative ids of the unsorted forms drop)."""
    x = np.array([3.0, 1.0, 3.0, -2.0, -2.0, 5.0, 0.5, 5.0, 5.0, 4.0])
    ids = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2, 3]) if sorted_ids else np.array([2, 0, 2, 1, -1, 0, 1, 0, 0, 1])
    nseg = 4 if sorted_ids else 3
    pick = np.max if op == "max" else np.min
    w = np.array([1.5, -2.0, 0.75, 3.0])[:nseg]
    expect = np.zeros_like(x)
    for s in range(nseg):
        members = ids == s
        if not members.any():
            continue
        tied = members & (x == pick(x[members]))
        expect[tied] = w[s] / tied.sum()
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        if sorted_ids:
            y = getattr(tf.math, f"segment_{op}")(xt, tf.constant(ids))
        else:
            y = getattr(tf.math, f"unsorted_segment_{op}")(xt, tf.constant(ids), nseg)
        total = tf.reduce_sum(tf.constant(w) * y)
    name = f"{'' if sorted_ids else 'unsorted_'}segment_{op}"
    assert_close(tape.gradient(total, xt), expect, call=f"d/dx sum(w * {name}(x, ids={ids.tolist()}))", what="dx",
                 tolerance=TOL)


@clause("autodiff.op-gradients", ref="tf221")
def test_blind9_segment_extremum_gradients_share_ties(tf, budget):
    for case in budget(_grid(("op", ["max", "min"]), ("sorted_ids", [False, True]))):
        _segment_extremum_gradient(tf, **case)


# -- sparse x dense products ---------------------------------------------------------------------------------
def _sparse_dense_matmul_gradient(tf, adjoint_a, adjoint_b):
    """d/dvalues and d/dB of sum(W * sparse_dense_matmul(A, B, adjoint_a, adjoint_b)) for a
    non-square sparse A, against the dense product's rule."""
    idx = np.array([[0, 1], [0, 3], [1, 0], [2, 2], [2, 3]])
    vals = np.array([1.5, -2.0, 0.5, 3.0, -1.0])
    dense_shape = (3, 4)
    k = dense_shape[0] if adjoint_a else dense_shape[1]
    m = dense_shape[1] if adjoint_a else dense_shape[0]
    b = _x((2, k) if adjoint_b else (k, 2), dtype=np.float64) + 0.25
    bop = b.T if adjoint_b else b
    w = _x((m, 2), scale=1.6, dtype=np.float64) - 0.2
    gv = np.array([np.sum(w[c] * bop[r]) if adjoint_a else np.sum(w[r] * bop[c]) for r, c in idx])
    dense = np.zeros(dense_shape)
    dense[idx[:, 0], idx[:, 1]] = vals
    gb_op = (dense if adjoint_a else dense.T) @ w
    gb = gb_op.T if adjoint_b else gb_op
    v, bt = tf.constant(vals), tf.constant(b)
    with tf.GradientTape() as tape:
        tape.watch([v, bt])
        sp = tf.sparse.SparseTensor(tf.constant(idx, dtype=tf.int64), v, dense_shape)
        y = tf.sparse.sparse_dense_matmul(sp, bt, adjoint_a=adjoint_a, adjoint_b=adjoint_b)
        total = tf.reduce_sum(tf.constant(w) * y)
    g_vals, g_b = tape.gradient(total, [v, bt])
    call = f"sparse_dense_matmul(A (3x4), B, adjoint_a={adjoint_a}, adjoint_b={adjoint_b})"
    assert_close(g_vals, gv, call=call, what="d/dvalues", tolerance=TOL)
    assert_close(g_b, gb, call=call, what="d/dB", tolerance=TOL)


@clause("ops.sparse", ref="tf221")
def test_blind9_sparse_dense_matmul_gradients(tf, budget):
    for case in budget(_grid(("adjoint_a", [False, True]), ("adjoint_b", [False, True]))):
        _sparse_dense_matmul_gradient(tf, **case)


# -- tf.gradients(stop_gradients=...) and a tape that watches only what it is told --------------------------
def _graph_gradients_with_stops(tf, stop):
    """In a tf.function, c = a*x + a with a = 2x: dc/dx = 4x + 2; with a held constant 2x;
    with b = a*x held constant 2 (TF's gradients_impl: the stops are treated as constants)."""

    @tf.function
    def grads(x):
        a = x * 2.0
        b = a * x
        c = b + a
        stops = {"none": None, "a": [a], "b": [b]}[stop]
        return tf.gradients(c, x, stop_gradients=stops)[0]

    xv = 1.5
    expect = {"none": 4 * xv + 2, "a": 2 * xv, "b": 2.0}[stop]
    assert_close(grads(tf.constant(xv)), expect, call=f"tf.gradients(a*x + a, x, stop_gradients={stop}) at x={xv}",
                 what="dc/dx", tolerance=TOL32)


@clause("function.graph-gradients", ref="tf221")
def test_blind9_tf_gradients_holds_stop_gradients_constant(tf, budget):
    for stop in budget(["a", "b", "none"]):
        _graph_gradients_with_stops(tf, stop)


def _tape_without_accessed_variables(tf, persistent):
    """GradientTape(watch_accessed_variables=False): a variable it reads but was not told to
    watch has gradient None; one watched explicitly gets its gradient; watched_variables() lists
    only the watched one."""
    v = tf.Variable(2.0, name="v")
    w = tf.Variable(3.0, name="w")
    with tf.GradientTape(watch_accessed_variables=False, persistent=persistent) as tape:
        tape.watch(w)
        y = v * v + w * v
    gv, gw = tape.gradient(y, [v, w])
    call = f"GradientTape(watch_accessed_variables=False, persistent={persistent}), watch(w), y = v*v + w*v"
    assert_true(gv is None, f"dy/dv = {gv}, but should be None: v was read, never watched", call=call)
    assert_close(gw, 2.0, call=call, what="dy/dw", tolerance=TOL32)
    names = [x.name for x in tape.watched_variables()]
    assert_equal(names, ["w:0"], call=call, what="watched_variables() names")


@clause("autodiff.watch", ref="tf221")
def test_blind9_tape_without_accessed_variables_watches_only_what_it_is_told(tf, budget):
    for persistent in budget([False, True]):
        _tape_without_accessed_variables(tf, persistent)


# -- random streams: gamma's rate, fold_in and split, stateless shuffles -------------------------------------
def _gamma_beta_is_a_rate(tf, stateless):
    """tf.random.gamma / stateless_gamma with beta: the draws of beta = 1 divided by beta (beta is
    a rate): same seed, draw * beta equals the unit-rate draw."""
    alpha = np.array([1.5, 0.5, 3.0], np.float32)
    beta = np.array([2.0, 0.25, 5.0], np.float32)

    def draw(b):
        if stateless:
            return tf.random.stateless_gamma([4, 3], seed=[7, 11], alpha=alpha, beta=b)
        tf.random.set_seed(5)
        return tf.random.gamma([4], alpha=alpha, beta=b, seed=3)

    unit = np.asarray(draw(None))
    scaled = np.asarray(draw(beta))
    call = f"tf.random.{'stateless_' if stateless else ''}gamma(alpha={alpha.tolist()}, beta={beta.tolist()})"
    assert_close(scaled * beta, unit, call=call, what="draw * beta vs the beta=None draw", tolerance=TOL32)


@clause("ops.random-gamma-poisson", ref="tf221")
def test_blind9_gamma_beta_is_a_rate(tf, budget):
    for stateless in budget([True, False]):
        _gamma_beta_is_a_rate(tf, stateless)


def _fold_in_and_split(tf, dtype):
    """fold_in(seed, data) = [stateless draw of data's dtype from seed, data]; split(seed, n) =
    the [n, 2] stateless draw of seed's dtype (tf.random's Python wrappers)."""
    seed = tf.constant([3, 17], dtype=dtype)
    data = tf.constant(42, dtype=dtype)
    got = np.asarray(tf.random.fold_in(seed, data))
    first = np.asarray(tf.random.stateless_uniform([], seed=seed, minval=None, maxval=None, dtype=dtype))
    assert_equal(got.tolist(), [int(first), 42], call=f"tf.random.fold_in([3, 17], 42) ({dtype})", what="out")
    split = np.asarray(tf.random.split(seed, num=3))
    draws = np.asarray(tf.random.stateless_uniform([3, 2], seed=seed, minval=None, maxval=None, dtype=dtype))
    assert_equal(split.tolist(), draws.tolist(), call=f"tf.random.split([3, 17], num=3) ({dtype})", what="out")


@clause("ops.stateless-random", ref="tf221")
def test_blind9_fold_in_and_split_are_stateless_draws(tf, budget):
    for dtype in budget(["int64", "int32"]):
        _fold_in_and_split(tf, dtype)


def _stateless_shuffle_is_fisher_yates(tf, size):
    """stateless_shuffle permutes the rows (every row once, 2-D rows moving together) and, over 48
    seeds, sends every row to every position, its own included (Fisher-Yates draws row i's swap
    partner uniformly from positions i..n-1)."""
    shuffle = tf.random.experimental.stateless_shuffle
    seen = np.zeros((size, size), bool)
    for s in range(48):
        perm = np.asarray(shuffle(tf.range(size), seed=[s, 1]))
        assert_equal(sorted(perm.tolist()), list(range(size)), call=f"stateless_shuffle(range({size}), seed=[{s}, 1])",
                     what="sorted(out)")
        seen[perm, np.arange(size)] = True
        if s < 4:
            rows = np.asarray(shuffle(tf.reshape(tf.range(size * 2), [size, 2]), seed=[s, 1]))
            assert_equal(rows.tolist(), np.arange(size * 2).reshape(size, 2)[perm].tolist(),
                         call=f"stateless_shuffle of a ({size}, 2) value, seed=[{s}, 1]", what="rows")
    missing = [(int(r), int(p)) for r, p in zip(*np.nonzero(~seen))]
    assert_true(not missing, f"(row, position) pairs never reached over 48 seeds: {missing}, but a uniform shuffle "
                f"reaches each with probability 1/{size} per draw", call=f"stateless_shuffle(range({size}))")


@clause("ops.stateless-random", ref="tf221")
def test_blind9_stateless_shuffle_reaches_every_position(tf, budget):
    for size in budget([2, 3, 5]):
        _stateless_shuffle_is_fisher_yates(tf, size)


def _conv_kernel_fans(keras, shape, mode, distribution):
    """VarianceScaling on a convolution kernel: fan_in = receptive field * input channels,
    fan_out = receptive field * output channels; uniform draws fill +-sqrt(3 s / fan), truncated
    normal ones stay within 2 stddev (stddev = sqrt(s / fan) / .8796) and reach past 1 stddev."""
    receptive = int(np.prod(shape[:-2]))
    fan = {"fan_in": shape[-2] * receptive, "fan_out": shape[-1] * receptive,
           "fan_avg": (shape[-2] + shape[-1]) * receptive / 2}[mode]
    init = keras.initializers.VarianceScaling(scale=2.0, mode=mode, distribution=distribution, seed=13)
    w = np.abs(np.asarray(init(shape)))
    call = f"VarianceScaling(2.0, mode={mode!r}, distribution={distribution!r})(shape={shape})"
    if distribution == "uniform":
        limit = np.sqrt(3 * 2.0 / fan)
        assert_true(w.max() <= limit * (1 + 1e-6) and w.max() >= 0.9 * limit,
                    f"max |w| = {w.max():.6f}, but should be in [0.9, 1] x the limit {limit:.6f} (fan {fan})", call=call)
    else:
        std = np.sqrt(2.0 / fan) / 0.87962566103423978
        assert_true(w.max() <= 2 * std * (1 + 1e-6) and w.max() >= std,
                    f"max |w| = {w.max():.6f}, but should be in [1, 2] x stddev {std:.6f} (fan {fan})", call=call)


@clause("keras.init.distributions", ref="tf221")
def test_blind9_initializer_fans_of_convolution_kernels(keras, budget):
    cases = _grid(("shape", [(3, 3, 4, 8), (5, 3, 6), (2, 2, 2, 3, 4)]), ("mode", ["fan_in", "fan_out", "fan_avg"]),
                  ("distribution", ["uniform", "truncated_normal"]))
    for case in budget(cases):
        _conv_kernel_fans(keras, **case)


# -- layers --------------------------------------------------------------------------------------------------
def _pool_np(x, pool, strides, padding, mode):
    """NHWC pooling of x: max, or the mean of the in-bounds cells (SAME pads half before)."""
    n, h, w, c = x.shape
    outs, pads = [], []
    for d, k, s in zip((h, w), pool, strides):
        o = -(-d // s) if padding == "same" else (d - k) // s + 1
        outs.append(o)
        pads.append(max((o - 1) * s + k - d, 0) // 2 if padding == "same" else 0)
    out = np.zeros((n, outs[0], outs[1], c), x.dtype)
    for i in range(outs[0]):
        for j in range(outs[1]):
            r0, c0 = i * strides[0] - pads[0], j * strides[1] - pads[1]
            win = x[:, max(r0, 0):min(r0 + pool[0], h), max(c0, 0):min(c0 + pool[1], w), :]
            out[:, i, j, :] = win.max(axis=(1, 2)) if mode == "max" else win.mean(axis=(1, 2))
    return out


def _pooling_channels_first(keras, mode, padding):
    """MaxPooling2D/AveragePooling2D(channels_first) on a non-square input with a non-square
    window: the channels-last result with the axes moved back (rows stay rows)."""
    x = _x((2, 3, 5, 4))
    layer_cls = keras.layers.MaxPooling2D if mode == "max" else keras.layers.AveragePooling2D
    layer = layer_cls(pool_size=(2, 3), strides=(1, 2), padding=padding, data_format="channels_first")
    expect = np.transpose(_pool_np(np.transpose(x, (0, 2, 3, 1)), (2, 3), (1, 2), padding, mode), (0, 3, 1, 2))
    assert_close(layer(x), expect, call=f"{layer_cls.__name__}((2, 3), strides=(1, 2), padding={padding!r}, "
                 "channels_first) on (2, 3, 5, 4)", tolerance=TOL32)


@clause("keras.layer.option-coverage", ref="tf221")
def test_blind9_pooling_channels_first_keeps_rows_and_columns(keras, budget):
    for case in budget(_grid(("mode", ["max", "average"]), ("padding", ["valid", "same"]))):
        _pooling_channels_first(keras, **case)


def _simple_rnn_np(x, k, u, b, h0, backwards=False):
    steps = range(x.shape[1] - 1, -1, -1) if backwards else range(x.shape[1])
    h, out = h0, np.zeros((x.shape[0], x.shape[1], k.shape[1]))
    for t in steps:
        h = np.tanh(x[:, t] @ k + h @ u + b)
        out[:, t] = h
    return out, h


def _bidirectional_initial_state(keras, return_sequences):
    """Bidirectional(SimpleRNN, merge_mode=None) with initial_state=[h_fwd, h_bwd]: the forward
    layer starts from the first half, the backward one from the second (its outputs flipped
    back to time order)."""
    x = _x((2, 4, 3))
    weights = [(_x((3, 2), 0.8), _x((2, 2), -0.6), np.array([0.1, -0.2], np.float32)),
               (_x((3, 2), -0.5) + 0.1, _x((2, 2), 0.7) - 0.05, np.array([-0.3, 0.25], np.float32))]
    h_f, h_b = np.array([[0.5, -0.4], [0.2, 0.9]], np.float32), np.array([[-0.7, 0.3], [0.6, -0.1]], np.float32)
    bi = keras.layers.Bidirectional(keras.layers.SimpleRNN(2, return_sequences=return_sequences), merge_mode=None)
    bi(x, initial_state=[h_f, h_b])
    bi.forward_layer.set_weights(list(weights[0]))
    bi.backward_layer.set_weights(list(weights[1]))
    y_f, y_b = bi(x, initial_state=[h_f, h_b])
    seq_f, last_f = _simple_rnn_np(x, *weights[0], h_f)
    seq_b, last_b = _simple_rnn_np(x, *weights[1], h_b, backwards=True)
    call = f"Bidirectional(SimpleRNN(2, return_sequences={return_sequences}), merge_mode=None)(x, initial_state=[h_f, h_b])"
    assert_close(y_f, seq_f if return_sequences else last_f, call=call, what="forward output", tolerance=TOL32)
    assert_close(y_b, seq_b if return_sequences else last_b, call=call, what="backward output", tolerance=TOL32)


@clause("keras.rnn.bidirectional", ref="tf221")
def test_blind9_bidirectional_splits_initial_state_forward_first(keras, budget):
    for rs in budget([True, False]):
        _bidirectional_initial_state(keras, rs)


def _bilinear_matrix(n, m):
    """(m, n) weights of a half-pixel-centres bilinear resize from n to m samples (TF's
    resize_bilinear: in = (o + .5) n/m - .5, the lower neighbour clamped at 0, upper at n - 1)."""
    out = np.zeros((m, n))
    for o in range(m):
        pos = (o + 0.5) * n / m - 0.5
        f = np.floor(pos)
        lo, hi, t = max(int(f), 0), min(int(np.ceil(pos)), n - 1), pos - f
        out[o, lo] += 1 - t
        out[o, hi] += t
    return out


def _upsampling2d(keras, size, interpolation, data_format):
    """UpSampling2D(size=(a, b)): rows times a, columns times b, nearest (repeat) or bilinear."""
    x = _x((2, 3, 4, 2))
    if interpolation == "nearest":
        expect = np.repeat(np.repeat(x, size[0], axis=1), size[1], axis=2)
    else:
        expect = np.einsum("ph,bhwc,qw->bpqc", _bilinear_matrix(3, 3 * size[0]), x.astype(np.float64),
                           _bilinear_matrix(4, 4 * size[1]))
    layer = keras.layers.UpSampling2D(size=size, interpolation=interpolation, data_format=data_format)
    xin = x if data_format == "channels_last" else np.transpose(x, (0, 3, 1, 2))
    got = np.asarray(layer(xin))
    if data_format == "channels_first":
        got = np.transpose(got, (0, 2, 3, 1))
    assert_close(got, expect, call=f"UpSampling2D(size={size}, interpolation={interpolation!r}, {data_format}) on "
                 "(2, 3, 4, 2)", tolerance=TOL32)


@clause("keras.layer.upsampling-padding", ref="tf221")
def test_blind9_upsampling2d_scales_each_axis_by_its_own_factor(keras, budget):
    cases = _grid(("size", [(2, 3), (3, 1)]), ("interpolation", ["bilinear", "nearest"]),
                  ("data_format", ["channels_last", "channels_first"]))
    for case in budget(cases):
        _upsampling2d(keras, **case)


def _sigmoid(v):
    return 1 / (1 + np.exp(-v))


def _gru_np(x, k, rk, bias, reset_after):
    u = rk.shape[0]
    b_in, b_rec = (bias[0], bias[1]) if reset_after else (bias, np.zeros_like(bias))
    h = np.zeros((x.shape[0], u))
    for t in range(x.shape[1]):
        mx = x[:, t] @ k + b_in
        z = _sigmoid(mx[:, :u] + h @ rk[:, :u] + b_rec[:u])
        r = _sigmoid(mx[:, u:2 * u] + h @ rk[:, u:2 * u] + b_rec[u:2 * u])
        if reset_after:
            hh = np.tanh(mx[:, 2 * u:] + r * (h @ rk[:, 2 * u:] + b_rec[2 * u:]))
        else:
            hh = np.tanh(mx[:, 2 * u:] + (r * h) @ rk[:, 2 * u:])
        h = z * h + (1 - z) * hh
    return h


def _gru_variants(keras, reset_after, recurrent_dropout):
    """GRU(reset_after=True): hh = tanh(x W_h + r * (h U_h + b_rh)); reset_after=False: hh =
    tanh(x W_h + (r * h) U_h); recurrent_dropout (inference: no mask) takes Keras's
    implementation-1 path, which must give the same values."""
    units, x = 3, _x((2, 4, 2))
    k, rk = _x((2, 3 * units), 0.9), _x((units, 3 * units), -0.7) + 0.05
    bias = _x((2, 3 * units), 0.4) if reset_after else _x((3 * units,), 0.4)
    layer = keras.layers.GRU(units, reset_after=reset_after, recurrent_dropout=recurrent_dropout)
    layer(x)
    layer.set_weights([k, rk, bias])
    assert_close(layer(x, training=False), _gru_np(x, k, rk, bias, reset_after),
                 call=f"GRU(3, reset_after={reset_after}, recurrent_dropout={recurrent_dropout})", tolerance=TOL32)


@clause("keras.rnn.layers", ref="tf221")
def test_blind9_gru_applies_the_reset_gate_where_reset_after_says(keras, budget):
    for case in budget(_grid(("reset_after", [False, True]), ("recurrent_dropout", [0.0, 0.5]))):
        _gru_variants(keras, **case)


def _layernorm_axes(keras, axis):
    """LayerNormalization(axis=[...]): the moments over every axis listed, gamma and beta of the
    listed dims' shape broadcast over the rest (epsilon 1e-3)."""
    x = _x((2, 3, 4, 5), 2.0) + 0.3
    layer = keras.layers.LayerNormalization(axis=axis)
    layer(x)
    axes = sorted(a % 4 for a in axis)
    pshape = tuple(x.shape[a] for a in axes)
    gamma, beta = _x(pshape, 0.8) + 1.0, _x(pshape, -0.5)
    layer.set_weights([gamma, beta])
    bshape = [1] * 4
    for a in axes:
        bshape[a] = x.shape[a]
    xd = x.astype(np.float64)
    mean = xd.mean(axis=tuple(axes), keepdims=True)
    var = xd.var(axis=tuple(axes), keepdims=True)
    expect = (xd - mean) / np.sqrt(var + 1e-3) * gamma.reshape(bshape) + beta.reshape(bshape)
    assert_close(layer(x), expect, call=f"LayerNormalization(axis={axis}) on (2, 3, 4, 5)", tolerance=TOL32)


@clause("keras.layer.layernorm", ref="tf221")
def test_blind9_layernorm_over_several_axes(keras, budget):
    for axis in budget([[1, 2], [-1, -3], [1, 2, 3], [2, 3]]):
        _layernorm_axes(keras, axis)


# -- metrics -------------------------------------------------------------------------------------------------
def _binary_iou(keras, threshold, target_class_ids, weighted):
    """BinaryIoU: y_pred >= threshold counts as 1 (a prediction at the threshold included); IoU per
    class tp / (tp + fp + fn), averaged over the target classes with a nonzero denominator."""
    y_true = np.array([0, 1, 1, 0, 1, 0, 1, 0], np.float32)
    y_pred = np.array([0.5, 0.5, 0.7, 0.2, 0.3, 0.8, 0.3, 0.1], np.float32)
    sw = np.array([1.0, 2.0, 1.0, 3.0, 1.0, 2.0, 1.0, 1.0], np.float32) if weighted else np.ones(8, np.float32)
    pred = (y_pred >= threshold).astype(int)
    cm = np.zeros((2, 2))
    for t, p, s in zip(y_true.astype(int), pred, sw):
        cm[t, p] += int(s)   # (the confusion matrix's dtype is int64: weights truncated)
    ious = []
    for c in target_class_ids:
        den = cm[c, :].sum() + cm[:, c].sum() - cm[c, c]
        if den > 0:
            ious.append(cm[c, c] / den)
    expect = float(np.mean(ious)) if ious else 0.0
    m = keras.metrics.BinaryIoU(target_class_ids=target_class_ids, threshold=threshold)
    m.update_state(y_true, y_pred, sample_weight=sw if weighted else None)
    assert_close(m.result(), expect, call=f"BinaryIoU(target_class_ids={target_class_ids}, threshold={threshold}), "
                 f"weighted={weighted}", tolerance=TOL32)


@clause("keras.metric.iou", ref="tf221")
def test_blind9_binary_iou_counts_predictions_at_the_threshold(keras, budget):
    cases = _grid(("threshold", [0.5, 0.3]), ("target_class_ids", [[0, 1], [1], [0]]), ("weighted", [False, True]))
    for case in budget(cases):
        _binary_iou(keras, **case)


_FB_TRUE = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]], np.float32)
_FB_PRED = np.array([[0.7, 0.2, 0.1], [0.3, 0.3, 0.4], [0.1, 0.6, 0.3], [0.5, 0.5, 0.0], [0.2, 0.7, 0.1],
                     [0.2, 0.3, 0.5], [0.3, 0.2, 0.5]], np.float32)


def _fbeta(keras, average, beta, threshold):
    """FBetaScore: Keras 3.15's rule transcribed (per-class or micro counts, epsilon 1e-7, the
    'weighted' average weighing each class by its true support)."""
    eps = 1e-7
    if threshold is None:
        pred = (_FB_PRED >= _FB_PRED.max(axis=-1, keepdims=True)) & (np.abs(_FB_PRED) > 1e-9)
    else:
        pred = _FB_PRED > threshold
    pred = pred.astype(np.float64)
    t = _FB_TRUE.astype(np.float64)
    axis = None if average == "micro" else 0
    tp, fp, fn = (pred * t).sum(axis=axis), (pred * (1 - t)).sum(axis=axis), ((1 - pred) * t).sum(axis=axis)
    p, r = tp / (tp + fp + eps), tp / (tp + fn + eps)
    f = p * r / (beta ** 2 * p + r + eps) * (1 + beta ** 2)
    if average == "weighted":
        support = t.sum(axis=0)
        f = np.sum(f * support / (support.sum() + eps))
    elif average is not None:
        f = np.mean(f)
    m = keras.metrics.FBetaScore(average=average, beta=beta, threshold=threshold)
    m.update_state(_FB_TRUE, _FB_PRED)
    assert_close(m.result(), f, call=f"FBetaScore(average={average!r}, beta={beta}, threshold={threshold})",
                 tolerance=TOL32)


@clause("keras.metric.f-score", ref="tf221")
def test_blind9_fbeta_averages_as_configured(keras, budget):
    cases = _grid(("average", ["weighted", None, "macro", "micro"]), ("beta", [1.0, 2.0, 0.5]),
                  ("threshold", [None, 0.4]))
    for case in budget(cases):
        _fbeta(keras, **case)


def _auc(keras, curve, summation_method):
    """AUC(num_thresholds=5): the counts at thresholds [-eps, .25, .5, .75, 1 + eps] (pred >
    threshold), then the Riemann sum of Keras 3.15 with each interval's height the mean
    (interpolation), the smaller (minoring) or the larger (majoring) of its ends."""
    y_true = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 0], np.float32)
    y_pred = np.array([0.1, 0.9, 0.6, 0.55, 0.3, 0.8, 0.7, 0.2, 0.4, 0.05], np.float32)
    th = np.array([-1e-7, 0.25, 0.5, 0.75, 1 + 1e-7])
    pos = y_pred[None, :] > th[:, None]
    t = y_true.astype(bool)[None, :]
    tp, fp = (pos & t).sum(1).astype(float), (pos & ~t).sum(1).astype(float)
    fn, tn = (~pos & t).sum(1).astype(float), (~pos & ~t).sum(1).astype(float)

    def dnn(a, b):
        return np.divide(a, b, out=np.zeros_like(a), where=b != 0)

    recall = dnn(tp, tp + fn)
    x, y = (dnn(fp, fp + tn), recall) if curve == "ROC" else (recall, dnn(tp, tp + fp))
    heights = {"interpolation": (y[:-1] + y[1:]) / 2, "minoring": np.minimum(y[:-1], y[1:]),
               "majoring": np.maximum(y[:-1], y[1:])}[summation_method]
    expect = float(np.sum((x[:-1] - x[1:]) * heights))
    m = keras.metrics.AUC(num_thresholds=5, curve=curve, summation_method=summation_method)
    m.update_state(y_true, y_pred)
    assert_close(m.result(), expect, call=f"AUC(num_thresholds=5, curve={curve!r}, summation_method="
                 f"{summation_method!r})", tolerance=TOL32)


@clause("keras.metric.auc", ref="tf221")
def test_blind9_auc_summation_methods(keras, budget):
    cases = [("ROC", "minoring"), ("ROC", "majoring"), ("ROC", "interpolation"), ("PR", "minoring"),
             ("PR", "majoring")]
    for curve, method in budget(cases):
        _auc(keras, curve, method)


# -- callbacks -----------------------------------------------------------------------------------------------
def _model(keras, lr=0.05, outputs=1):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(outputs, kernel_initializer="ones",
                                                                    bias_initializer="zeros")])
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=lr), loss="mse")
    return model


_XS = _x((10, 3))
_YS = (_XS @ np.array([[0.5], [-1.0], [2.0]], np.float32) + 0.3).astype(np.float32)


def _history_epochs(keras, initial_epoch, epochs):
    """fit's History: `.epoch` lists the 0-based epochs run (from initial_epoch), one log per epoch."""
    model = _model(keras)
    h = model.fit(_XS, _YS, epochs=epochs, initial_epoch=initial_epoch, batch_size=5, verbose=0, shuffle=False)
    call = f"fit(epochs={epochs}, initial_epoch={initial_epoch}).history"
    assert_equal(list(h.epoch), list(range(initial_epoch, epochs)), call=call, what="epoch")
    assert_equal(len(h.history["loss"]), epochs - initial_epoch, call=call, what="len(history['loss'])")


@clause("keras.fit.logs", ref="tf221")
def test_blind9_history_records_zero_based_epochs(keras, budget):
    for ie, ep in budget([(1, 3), (0, 2), (2, 5)]):
        _history_epochs(keras, ie, ep)


def _reduce_lr_transcribed(values, factor, patience, min_lr, min_delta, cooldown, lr):
    """Keras 3.15's ReduceLROnPlateau.on_epoch_end over `values` (mode min), float32 learning rates."""
    best, wait, cool, out = None, 0, 0, []
    for v in values:
        if cool > 0:
            cool -= 1
            wait = 0
        if best is None or v + min_delta < best:
            best, wait = v, 0
        elif not cool > 0:
            wait += 1
            if wait >= patience and lr > np.float32(min_lr):
                lr = float(np.float32(max(lr * factor, min_lr)))
                cool, wait = cooldown, 0
        out.append(lr)
    return out


def _reduce_lr_floor(keras, min_lr, factor, cooldown):
    """ReduceLROnPlateau never takes the learning rate below min_lr (driven epoch by epoch)."""
    model = _model(keras, lr=1.0)
    cb = keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=factor, patience=1, min_lr=min_lr,
                                           cooldown=cooldown, min_delta=0.0)
    cb.set_model(model)
    cb.on_train_begin()
    values = [1.0, 1.0, 1.0, 0.9, 0.95, 1.0, 1.0, 1.0, 1.0]
    got = []
    for epoch, v in enumerate(values):
        cb.on_epoch_end(epoch, {"val_loss": v})
        got.append(float(np.asarray(model.optimizer.learning_rate)))
    expect = _reduce_lr_transcribed(values, factor, 1, min_lr, 0.0, cooldown, 1.0)
    assert_close(got, expect, call=f"ReduceLROnPlateau(factor={factor}, patience=1, min_lr={min_lr}, "
                 f"cooldown={cooldown}) over val_loss {values}", what="learning rate per epoch", tolerance=TOL32)


@clause("keras.callback.reduce-lr-on-plateau", ref="tf221")
def test_blind9_reduce_lr_on_plateau_stops_at_min_lr(keras, budget):
    cases = _grid(("min_lr", [0.3, 0.05]), ("factor", [0.5, 0.2]), ("cooldown", [0, 1]))
    for case in budget(cases):
        _reduce_lr_floor(keras, **case)


def _early_stopping_min_delta(keras, mode, monitor, min_delta):
    """EarlyStopping(min_delta): an epoch improves only when it beats the best by more than
    min_delta, in the monitored direction (Keras 3.15's MonitorCallback: min_delta negated for a
    minimised quantity); patience 2, driven epoch by epoch."""
    values = {"loss": [1.0, 0.95, 0.93, 0.8, 0.79, 0.78, 0.5, 0.49, 0.48],
              "accuracy": [0.5, 0.55, 0.57, 0.7, 0.71, 0.72, 0.9, 0.91, 0.92]}[monitor]
    up = mode == "max" or (mode == "auto" and monitor == "accuracy")
    best, wait, stopped = None, 0, None
    for epoch, v in enumerate(values):
        if best is None or (v - min_delta > best if up else v + min_delta < best):
            best, wait = v, 0
        else:
            wait += 1
            if wait >= 2 and epoch > 0:
                stopped = epoch
                break
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["accuracy"])
    model.evaluate(_XS, _YS, verbose=0)   # (builds the compiled metrics, whose direction mode="auto" reads)
    cb = keras.callbacks.EarlyStopping(monitor=monitor, mode=mode, min_delta=min_delta, patience=2)
    cb.set_model(model)
    cb.on_train_begin()
    got = None
    for epoch, v in enumerate(values):
        cb.on_epoch_end(epoch, {monitor: v})
        if model.stop_training:
            got = epoch
            break
    assert_equal(got, stopped, call=f"EarlyStopping(monitor={monitor!r}, mode={mode!r}, min_delta={min_delta}, "
                 f"patience=2) over {values}", what="the epoch that stopped training")


@clause("keras.callback.monitor", ref="tf221")
def test_blind9_min_delta_counts_in_the_monitored_direction(keras, budget):
    cases = [("min", "loss", 0.05), ("auto", "loss", 0.05), ("max", "accuracy", 0.05), ("auto", "accuracy", 0.05),
             ("min", "loss", 0.0), ("max", "accuracy", 0.0)]
    for mode, monitor, md in budget(cases):
        _early_stopping_min_delta(keras, mode, monitor, md)


def _csv_logger_append(keras, append):
    """CSVLogger(append=True) adds the second fit's rows below the first's, one header in all;
    append=False starts the file again."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "log.csv")
        model = _model(keras)
        model.fit(_XS, _YS, epochs=2, batch_size=5, verbose=0, shuffle=False,
                  callbacks=[keras.callbacks.CSVLogger(path, append=append)])
        model.fit(_XS, _YS, epochs=3, batch_size=5, verbose=0, shuffle=False,
                  callbacks=[keras.callbacks.CSVLogger(path, append=append)])
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    call = f"two fits (2 then 3 epochs) with CSVLogger(append={append})"
    assert_equal([r[0] for r in rows], ["epoch", "0", "1", "0", "1", "2"] if append else ["epoch", "0", "1", "2"],
                 call=call, what="first column")


@clause("keras.callback.csv-logger", ref="tf221")
def test_blind9_csv_logger_appends_without_a_second_header(keras, budget):
    for append in budget([True, False]):
        _csv_logger_append(keras, append)


# -- fit, evaluate and compile -------------------------------------------------------------------------------
def _mse_np(x, y, k=None):
    kernel = np.ones((3, 1)) if k is None else k
    return float(np.mean((x.astype(np.float64) @ kernel - y) ** 2))


def _validation_steps(keras, validation_steps, validation_batch_size):
    """fit(validation_steps=k): the validation loss over the first k validation batches only
    (of validation_batch_size, or batch_size); learning rate 0 keeps the weights (all ones)."""
    model = _model(keras, lr=0.0)
    vx, vy = _x((12, 3), 1.3) + 0.1, _x((12, 1), -0.8)
    h = model.fit(_XS, _YS, epochs=1, batch_size=5, verbose=0, shuffle=False, validation_data=(vx, vy),
                  validation_steps=validation_steps, validation_batch_size=validation_batch_size)
    n = min(12, validation_steps * (validation_batch_size or 5)) if validation_steps else 12
    assert_close(h.history["val_loss"][0], _mse_np(vx[:n], vy[:n]),
                 call=f"fit(validation_steps={validation_steps}, validation_batch_size={validation_batch_size}) "
                 "over 12 validation samples", what="val_loss", tolerance=TOL32)


@clause("keras.fit.validation", ref="tf221")
def test_blind9_fit_validates_on_validation_steps_batches(keras, budget):
    cases = [(1, None), (2, 4), (None, 4), (1, 3)]
    for vs, vb in budget(cases):
        _validation_steps(keras, vs, vb)


def _on_batch_metrics_reset(keras, method):
    """test_on_batch / train_on_batch (learning rate 0) report each batch's own loss and metrics:
    the metrics are reset before every call."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.0), loss="mse", metrics=["mae"])
    for lo, hi in [(0, 4), (4, 10), (2, 5)]:
        logs = getattr(model, method)(_XS[lo:hi], _YS[lo:hi], return_dict=True)
        pred = _XS[lo:hi].astype(np.float64).sum(axis=1, keepdims=True)
        call = f"{method}(x[{lo}:{hi}], y[{lo}:{hi}]) after earlier calls"
        assert_close(logs["loss"], float(np.mean((pred - _YS[lo:hi]) ** 2)), call=call, what="loss", tolerance=TOL32)
        assert_close(logs["mae"], float(np.mean(np.abs(pred - _YS[lo:hi]))), call=call, what="mae", tolerance=TOL32)


@clause("keras.fit.logs", ref="tf221")
def test_blind9_on_batch_methods_report_the_batch_alone(keras, budget):
    for method in budget(["test_on_batch", "train_on_batch"]):
        _on_batch_metrics_reset(keras, method)


def _per_output_sample_weights(keras, form):
    """evaluate(x, [y1, y2], sample_weight=[w1, w2]), or a model with dict outputs and dicts of
    targets and weights by output name: each output's loss weighs its
    samples by its own weights (sum_over_batch_size: sum(w * se) / n); the total is their sum."""
    inp = keras.Input((3,))
    out1 = keras.layers.Dense(1, kernel_initializer="ones", name="a")(inp)
    out2 = keras.layers.Dense(1, kernel_initializer=keras.initializers.Constant(-0.5), name="b")(inp)
    if form == "list":
        model = keras.Model(inp, [out1, out2])
        model.compile(optimizer="sgd", loss=["mse", "mae"])
    else:
        model = keras.Model(inp, {"a": out1, "b": out2})
        model.compile(optimizer="sgd", loss={"a": "mse", "b": "mae"})
    y1, y2 = _YS, _x((10, 1), 0.9)
    w1 = np.array([1, 2, 0, 1, 3, 1, 0.5, 1, 2, 1], np.float32)
    w2 = np.array([0, 1, 1, 2, 1, 1, 1, 3, 0.5, 1], np.float32)
    ys, sw = ([y1, y2], [w1, w2]) if form == "list" else ({"a": y1, "b": y2}, {"a": w1, "b": w2})
    logs = model.evaluate(_XS, ys, sample_weight=sw, batch_size=10, verbose=0, return_dict=True)
    xd = _XS.astype(np.float64)
    l1 = float(np.sum(w1 * ((xd.sum(1, keepdims=True) - y1) ** 2)[:, 0]) / 10)
    l2 = float(np.sum(w2 * np.abs(-0.5 * xd.sum(1, keepdims=True) - y2)[:, 0]) / 10)
    call = f"evaluate of a two-output model (mse, mae) with sample_weight as a {form}"
    assert_close(logs["loss"], l1 + l2, call=call, what="loss", tolerance=TOL32)
    assert_close(logs["a_loss"], l1, call=call, what="a_loss", tolerance=TOL32)
    assert_close(logs["b_loss"], l2, call=call, what="b_loss", tolerance=TOL32)


@clause("keras.loss.sample-weight", ref="tf221")
def test_blind9_each_output_weighs_by_its_own_sample_weights(keras, budget):
    for form in budget(["list", "dict"]):
        _per_output_sample_weights(keras, form)


def _sample_weight_structure_must_match(keras, sw_form):
    """Per-output sample weights must have y's structure: a dict, a shorter list or a tuple for a
    list of targets raise ValueError ("one `sample_weight` array per output")."""
    from simdist.conformance.assertions import raises
    inp = keras.Input((3,))
    model = keras.Model(inp, [keras.layers.Dense(1, name="a")(inp), keras.layers.Dense(1, name="b")(inp)])
    model.compile(optimizer="sgd", loss=["mse", "mae"])
    w = np.ones(10, np.float32)
    sw = {"dict": {"a": w, "b": w}, "short": [w], "tuple": (w, w)}[sw_form]
    with raises(ValueError, match="one `sample_weight` array per output",
                call=f"evaluate(x, [y1, y2], sample_weight={sw_form} of weights)"):
        model.evaluate(_XS, [_YS, _YS], sample_weight=sw, verbose=0)


@clause("keras.loss.sample-weight", ref="tf221")
def test_blind9_sample_weights_must_have_the_targets_structure(keras, budget):
    for form in budget(["dict", "short", "tuple"]):
        _sample_weight_structure_must_match(keras, form)


def _to_categorical(keras, labels, num_classes):
    """keras.utils.to_categorical: one column per class, num_classes defaulting to max + 1; a
    trailing axis of size 1 dropped first."""
    lab = np.asarray(labels)
    n = int(lab.max()) + 1 if num_classes is None else num_classes
    flat = lab.reshape(-1)
    shape = lab.shape[:-1] if lab.ndim > 1 and lab.shape[-1] == 1 else lab.shape
    expect = np.eye(n)[flat].reshape(shape + (n,))
    got = np.asarray(keras.utils.to_categorical(labels, num_classes=num_classes))
    assert_equal(got.tolist(), expect.tolist(), call=f"to_categorical({lab.tolist()}, num_classes={num_classes})")


@clause("keras.utils.to-categorical", ref="tf221")
def test_blind9_to_categorical_makes_one_column_per_class(keras, budget):
    cases = [([0, 2, 1, 2], None), ([[1], [3], [0]], None), ([0, 1], 4), ([[0, 2], [1, 1]], None)]
    for labels, nc in budget(cases):
        _to_categorical(keras, labels, nc)
