"""Op gradients the rest of the suite never executed (cov14a: benchmarks/gradient_coverage.py over the
suite on simdist; docs/conformance.md, "Fifteenth session: suite coverage of op gradients and autodiff").

Grouped by what a user sees, each checked against an expectation computed here, never taken from the
backend's gradient: complex inputs (TF's gradients are conj(f'(z)) weighted by the upstream gradient:
sigmoid, tanh, matmul, prod, einsum, against complex central differences of the backend's forward
pass); einsum's single-operand equations and labels summed away in one operand; the second derivative
of the fused cross-entropies (NumPy's Hessian-vector product of softmax); IndexedSlices through a
concat along an inner axis and through a cast; gathers along an inner axis (dense, empty indices); a
transpose by a negative permutation (refused at backprop); the linear image ops (bicubic, nearest,
lanczos/gaussian/mitchellcubic, antialiased bilinear, a projective shift), whose gradient is their
adjoint: the forward pass applied to every basis image, weighted by the upstream gradient; the
triangular solve's broadcast batch, QR of a wide matrix and SVD with full matrices (float64 central
differences), their NotImplementedErrors; SparseAdd's threshold; ctc_loss's second derivative.
"""

from __future__ import annotations

import re
import zlib

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, fail, raises, to_numpy
from simdist.conformance.suite.test_gradients import check_central_differences
from simdist.conformance.suite.values import signed_inputs
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
#: float64 central differences with h = 1e-6: truncation and rounding below 1e-6.
TOL64 = Tolerance(rtol=1e-5, atol=1e-6)
#: a float32 linear op against its adjoint built from the same float32 forward pass: rounding only.
TOL32 = Tolerance(rtol=1e-5, atol=1e-5)


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


def _weights(rng: np.random.Generator, shape: tuple) -> np.ndarray:
    return np.round(rng.uniform(-2.0, 2.0, size=shape), 2)


# -- complex inputs: conj(f'(z)) -------------------------------------------------------------------------------
def _cplx(rng: np.random.Generator, shape: tuple) -> np.ndarray:
    return np.round(rng.uniform(-0.9, 0.9, size=shape), 3) + 1j * np.round(rng.uniform(-0.9, 0.9, size=shape), 3)


COMPLEX = {
    "sigmoid": (lambda tf, z: tf.sigmoid(z), [(2, 3)]),
    "tanh": (lambda tf, z: tf.tanh(z), [(2, 3)]),
    "matmul": (lambda tf, a, b: tf.matmul(a, b), [(2, 3), (3, 2)]),
    "matmul_transpose_b": (lambda tf, a, b: tf.matmul(a, b, transpose_b=True), [(2, 3), (2, 3)]),
    "reduce_prod_axis1": (lambda tf, z: tf.reduce_prod(z, axis=1), [(2, 3)]),
    "einsum_ij_jk": (lambda tf, a, b: tf.einsum("ij,jk->ik", a, b), [(2, 3), (3, 2)]),
    "einsum_trace_free_ij_i": (lambda tf, z: tf.einsum("ij->i", z), [(2, 3)]),
    "eigvals": (lambda tf, z: tf.linalg.eigvals(z + tf.constant(np.diag([0.0, 1.5, 3.0]), tf.complex128)), [(3, 3)]),
}


@clause("ops.complex", ref="tf221")
@pytest.mark.parametrize("name", list(COMPLEX))
def test_cov14a_complex_gradients_are_the_conjugate_derivative(backend, tf, name):
    """For a holomorphic f, TF's tape gives sum_o R_o * conj(df_o/dz) (its gradients conjugate the
    derivative: math_grad.py's conj calls); the derivative is the backend's forward pass's complex
    central difference (a real step h on each input element)."""
    fn, shapes = COMPLEX[name]
    rng = _rng(name)
    zs = [_cplx(rng, s) for s in shapes]
    out_shape = tuple(fn(tf, *[tf.constant(z, tf.complex128) for z in zs]).shape)
    R = _weights(rng, out_shape).astype(np.complex128)
    ts = [tf.constant(z, tf.complex128) for z in zs]
    with tf.GradientTape() as tape:
        for t in ts:
            tape.watch(t)
        out = fn(tf, *ts)
    grads = tape.gradient(out, ts, output_gradients=tf.constant(R, tf.complex128))

    def objective(vals):
        return complex(np.sum(R * to_numpy(fn(tf, *[tf.constant(v, tf.complex128) for v in vals]))))

    h = 1e-6
    for k, (z, g) in enumerate(zip(zs, grads)):
        want = np.zeros_like(z)
        for idx in np.ndindex(z.shape):
            up, dn = [v.copy() for v in zs], [v.copy() for v in zs]
            up[k][idx] += h
            dn[k][idx] -= h
            want[idx] = np.conj((objective(up) - objective(dn)) / (2 * h))
        got = to_numpy(g)
        assert_close(got.real, want.real, call=f"tape.gradient(sum(R * {name}(z...)), z{k}) complex128",
                     what=f"re d/dz{k}", tolerance=TOL64)
        assert_close(got.imag, want.imag, call=f"tape.gradient(sum(R * {name}(z...)), z{k}) complex128",
                     what=f"im d/dz{k}", tolerance=TOL64)


# -- einsum: one operand, labels summed away in one operand -------------------------------------------------
EINSUM = {
    "ij->i": (lambda tf, x: tf.einsum("ij->i", x), [signed_inputs((2, 3))]),
    "ij->": (lambda tf, x: tf.einsum("ij->", x), [signed_inputs((2, 3))]),
    "ijk->kj": (lambda tf, x: tf.einsum("ijk->kj", x), [signed_inputs((2, 3, 2))]),
    "ij,jk->i": (lambda tf, a, b: tf.einsum("ij,jk->i", a, b), [signed_inputs((2, 3)), signed_inputs((3, 4))]),
    "ij,kl->jl": (lambda tf, a, b: tf.einsum("ij,kl->jl", a, b), [signed_inputs((2, 3)), signed_inputs((4, 2))]),
    "bij,bjk->bk": (lambda tf, a, b: tf.einsum("bij,bjk->bk", a, b),
                    [signed_inputs((2, 2, 3)), signed_inputs((2, 3, 2))]),
}


@clause("ops.einsum", ref="tf221")
@pytest.mark.parametrize("eq", list(EINSUM))
def test_cov14a_einsum_gradients_with_summed_labels(backend, tf, eq):
    """einsum's gradient for a single operand and for labels that appear in one operand only (summed
    away there, broadcast back in the gradient: TF's _GetGradReduced), float64 central differences."""
    fn, makers = EINSUM[eq]
    rng = _rng("einsum" + eq)
    check_central_differences(tf, f"einsum({eq!r})", fn, [m(rng) for m in makers], rng, TOL64)


# -- second derivatives of the fused cross-entropies -------------------------------------------------------
def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@clause("autodiff.higher-order", ref="tf221")
@pytest.mark.parametrize("kind", ["dense", "sparse"])
def test_cov14a_cross_entropy_second_derivative(backend, tf, kind):
    """The gradient of sum(R2 * g) with g = d sum(R1 * xent)/dlogits = R1 (softmax - labels): the
    Hessian-vector product R1 * s * (R2 - sum(R2 * s)) row by row (TF's grad_grad term), for the
    dense and the sparse fused ops."""
    rng = _rng("xent2" + kind)
    z = np.round(rng.uniform(-2, 2, size=(3, 4)), 3)
    ids = np.array([2, 0, 3])
    labels = np.eye(4)[ids] * 0.7 + 0.075          # rows summing to 1 (soft labels)
    R1 = _weights(rng, (3,))
    R2 = _weights(rng, (3, 4))
    logits = tf.constant(z, tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(logits)
        with tf.GradientTape() as inner:
            inner.watch(logits)
            if kind == "dense":
                loss = tf.nn.softmax_cross_entropy_with_logits(labels=tf.constant(labels, tf.float64), logits=logits)
            else:
                loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant(ids), logits=logits)
        g = inner.gradient(loss, logits, output_gradients=tf.constant(R1, tf.float64))
        s2 = tf.reduce_sum(tf.constant(R2, tf.float64) * g)
    hvp = outer.gradient(s2, logits)
    s = _softmax(z)
    want_g = R1[:, None] * (s - (labels if kind == "dense" else np.eye(4)[ids]))
    assert_close(g, want_g, call=f"{kind} softmax cross-entropy: d sum(R1 * loss)/dlogits", tolerance=TOL64)
    want = R1[:, None] * s * (R2 - np.sum(R2 * s, axis=1, keepdims=True))
    assert_close(hvp, want, call=f"{kind} softmax cross-entropy: d sum(R2 * dloss/dlogits)/dlogits",
                 what="Hessian-vector product", tolerance=TOL64)


# -- IndexedSlices through concat (inner axis) and cast; gathers along an inner axis ---------------------------
@clause("autodiff.concat-slices", ref="tf221")
@pytest.mark.parametrize("axis", [1, -1])
def test_cov14a_concat_along_an_inner_axis_passes_indexed_slices(backend, tf, axis):
    """gather(concat([a, b], axis=1), rows): each input's gradient is IndexedSlices with every gathered
    row index and the upstream values' columns that fall in it (TF's _ConcatGradHelper, axis > 0)."""
    rng = _rng(f"concat{axis}")
    a, b = np.round(rng.uniform(-1, 1, (4, 2)), 2), np.round(rng.uniform(-1, 1, (4, 3)), 2)
    rows = [2, 0, 2]
    R = _weights(rng, (3, 5))
    ta, tb = tf.constant(a), tf.constant(b)
    with tf.GradientTape() as tape:
        tape.watch([ta, tb])
        out = tf.gather(tf.concat([ta, tb], axis=axis), rows)
    ga, gb = tape.gradient(out, [ta, tb], output_gradients=tf.constant(R, tf.float32))
    for name, g, cols, shape in (("a", ga, slice(0, 2), (4, 2)), ("b", gb, slice(2, 5), (4, 3))):
        call = f"gather(concat([a(4,2), b(4,3)], axis={axis}), {rows}): gradient of {name}"
        assert_true(isinstance(g, tf.IndexedSlices), f"gradient is {type(g).__name__}, but should be IndexedSlices",
                    call=call)
        assert_equal(g.indices, rows, call=call, what="indices")
        assert_close(g.values, R[:, cols], call=call, what="values")
        assert_equal(list(to_numpy(g.dense_shape)), list(shape), call=call, what="dense_shape")
        dense = np.zeros(shape)
        np.add.at(dense, rows, R[:, cols])
        assert_close(tf.convert_to_tensor(g), dense, call=call, what="convert_to_tensor(gradient)", tolerance=TOL32)


@clause("autodiff.indexed-slices", ref="tf221")
def test_cov14a_cast_keeps_indexed_slices_in_the_source_dtype(backend, tf):
    """gather(cast(x float32 -> float64), rows): x's gradient stays IndexedSlices, its values cast back
    to float32 (TF's _CastGrad casts an IndexedSlices' values)."""
    rng = _rng("cast-slices")
    x = tf.constant(np.round(rng.uniform(-1, 1, (3, 2)), 2), tf.float32)
    R = _weights(rng, (3, 2))
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = tf.gather(tf.cast(x, tf.float64), [1, 1, 0])
    g = tape.gradient(out, x, output_gradients=tf.constant(R, tf.float64))
    call = "tape.gradient(gather(cast(x, float64), [1, 1, 0]), x float32)"
    assert_true(isinstance(g, tf.IndexedSlices), f"gradient is {type(g).__name__}, but should be IndexedSlices",
                call=call)
    assert_equal(g.values.dtype.name, "float32", call=call, what="values.dtype")
    assert_equal(g.indices, [1, 1, 0], call=call, what="indices")
    assert_close(g.values, R, call=call, what="values")


@clause("ops.gather-gradient-indexed-slices", ref="tf221")
@pytest.mark.parametrize("indices", [[[2, 0], [2, 2]], []], ids=["repeated", "empty"])
def test_cov14a_gather_along_an_inner_axis_has_a_dense_gradient(backend, tf, indices):
    """gather(x, indices, axis=1): a dense gradient (TF's _GatherV2Grad for axis != 0), the upstream
    values added at their columns (repeats add up; empty indices give zeros of x's shape)."""
    rng = _rng(f"gather-inner{len(indices)}")
    x = tf.constant(np.round(rng.uniform(-1, 1, (2, 3, 2)), 2), tf.float64)
    idx = tf.constant(np.asarray(indices, np.int32).reshape(np.shape(indices)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = tf.gather(x, idx, axis=1)
    R = _weights(rng, tuple(out.shape))
    g = tape.gradient(out, x, output_gradients=tf.constant(R, tf.float64))
    call = f"tape.gradient(gather(x(2,3,2), {indices}, axis=1), x)"
    assert_true(not isinstance(g, tf.IndexedSlices), "gradient is IndexedSlices, but should be a dense tensor",
                call=call)
    want = np.zeros((2, 3, 2))
    flat = np.asarray(indices, np.int64).reshape(-1)
    Rm = R.reshape(2, flat.size, 2)
    for j, c in enumerate(flat):
        want[:, c, :] += Rm[:, j, :]
    assert_close(g, want, call=call, tolerance=TOL64)


@clause("autodiff.op-gradients", ref="tf221")
def test_cov14a_transpose_by_a_negative_permutation_fails_at_backprop(backend, tf):
    """Transpose accepts perm [-1, 0] (it counts from the end), but its gradient's InvertPermutation
    refuses a negative entry: InvalidArgumentError when the tape differentiates it."""
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.transpose(x, [-1, 0])
    assert_equal(y, np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).T, call="transpose(x, [-1, 0])")
    with raises(tf.errors.InvalidArgumentError, match=re.escape("-1 is not between 0 and 2"),
                call="tape.gradient(transpose(x, [-1, 0]), x)"):
        tape.gradient(y, x)


# -- linear image ops: the gradient is the adjoint ----------------------------------------------------------------
RESIZE = {
    "bicubic_up": (lambda tf, x: tf.image.resize(x, [5, 7], method="bicubic"), (3, 4)),
    "bicubic_down": (lambda tf, x: tf.image.resize(x, [2, 3], method="bicubic"), (4, 5)),
    "nearest_up": (lambda tf, x: tf.image.resize(x, [5, 7], method="nearest"), (3, 4)),
    "nearest_down": (lambda tf, x: tf.image.resize(x, [2, 3], method="nearest"), (4, 5)),
    "lanczos3": (lambda tf, x: tf.image.resize(x, [5, 6], method="lanczos3"), (3, 4)),
    "gaussian_down": (lambda tf, x: tf.image.resize(x, [2, 3], method="gaussian"), (4, 5)),
    "mitchellcubic": (lambda tf, x: tf.image.resize(x, [5, 3], method="mitchellcubic"), (3, 4)),
    "bilinear_antialias_down": (lambda tf, x: tf.image.resize(x, [2, 3], method="bilinear", antialias=True), (4, 5)),
    "projective_shift_bilinear": (lambda tf, x: tf.raw_ops.ImageProjectiveTransformV3(
        images=x, transforms=tf.constant([[1.0, 0.0, -1.0, 0.0, 1.0, 2.0, 0.0, 0.0]]),
        output_shape=tf.constant([3, 4]), fill_value=0.0, interpolation="BILINEAR", fill_mode="CONSTANT"), (3, 4)),
    "projective_shift_nearest": (lambda tf, x: tf.raw_ops.ImageProjectiveTransformV3(
        images=x, transforms=tf.constant([[1.0, 0.0, 2.0, 0.0, 1.0, -1.0, 0.0, 0.0]]),
        output_shape=tf.constant([3, 4]), fill_value=0.0, interpolation="NEAREST", fill_mode="CONSTANT"), (3, 4)),
}


@clause("ops.image-resize", ref="tf221")
@pytest.mark.parametrize("name", list(RESIZE))
def test_cov14a_linear_image_op_gradient_is_its_adjoint(backend, tf, name):
    """A linear image op's gradient of sum(R * f(x)) is its adjoint applied to R: entry i is
    sum(R * f(e_i)), f applied to the basis image e_i (one batch of all of them), float32."""
    fn, (h, w) = RESIZE[name]
    rng = _rng("resize" + name)
    c = 2
    x = tf.constant(np.round(rng.uniform(-1, 1, (1, h, w, c)), 3), tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = fn(tf, x)
    R = _weights(rng, tuple(out.shape))
    g = tape.gradient(out, x, output_gradients=tf.constant(R, tf.float32))
    n = h * w * c
    basis = to_numpy(fn(tf, tf.constant(np.eye(n, dtype=np.float32).reshape(n, h, w, c)))).astype(np.float64)
    want = np.einsum("nyxc,yxc->n", basis, R[0]).reshape(1, h, w, c)
    assert_close(g, want, call=f"tape.gradient(sum(R * {name}(x)), x) vs the adjoint", tolerance=TOL32)


@clause("ops.image-resize", ref="tf221")
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64"])
def test_cov14a_resize_gradients_by_image_dtype(backend, tf, dtype):
    """Which image dtypes each method's gradient takes (image_grad.py): bicubic differentiates float32 and
    float64 images only (None for half types), nearest keeps the image's dtype, bilinear gives the image's
    dtype, ScaleAndTranslate (lanczos3, antialiased bilinear) refuses all but float32
    (InvalidArgumentError), area has no gradient (LookupError: a tape asks the gradient registry, tf.gradients
    words it its own way); values as the float32 image's gradient, rounded to the dtype."""
    rng = _rng("resize-dtype" + dtype)
    x_np = np.round(rng.uniform(-1, 1, (1, 3, 4, 1)), 3)
    R = _weights(rng, (1, 5, 3, 1))
    dt = getattr(tf, dtype)

    def grad(method, antialias=False, image_dtype=dt):
        x = tf.constant(x_np, image_dtype)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.image.resize(x, [5, 3], method=method, antialias=antialias)
        return tape.gradient(y, x, output_gradients=tf.cast(tf.constant(R), y.dtype))

    loose = Tolerance(rtol=2e-2, atol=2e-2)
    for method in ("bicubic", "nearest", "bilinear"):
        g = grad(method)
        call = f"tape.gradient(resize({dtype} image, method={method!r}), image)"
        if method == "bicubic" and dtype != "float64":
            assert_true(g is None, f"gradient is {type(g).__name__}, but should be None", call=call)
            continue
        assert_equal(g.dtype.name, dtype, call=call, what="gradient dtype")
        assert_close(tf.cast(g, tf.float64), tf.cast(grad(method, image_dtype=tf.float32), tf.float64), call=call,
                     what="gradient vs the float32 image's", tolerance=TOL32 if dtype == "float64" else loose)
    for method, antialias in (("lanczos3", False), ("bilinear", True)):
        with raises(tf.errors.InvalidArgumentError,
                    match="cannot compute ScaleAndTranslateGrad as input #1\\(zero-based\\) was expected to be a float "
                          "tensor but is a", call=f"tape.gradient(resize({dtype}, {method!r}, antialias={antialias}))"):
            grad(method, antialias)
    with raises(LookupError, match=re.escape("gradient registry has no entry for: ResizeArea"),
                call=f"tape.gradient(resize({dtype}, 'area'))"):
        grad("area")
    with raises(LookupError, match=re.escape("No gradient defined for operation'") + ".*" +
                re.escape("(op type: ResizeArea). In general every operation must have an associated "
                          "`@tf.RegisterGradient`"),
                call="tf.gradients(resize(x, 'area'), x) in a tf.function(autograph=False)"):
        tf.function(lambda x: tf.gradients(tf.image.resize(x, [5, 3], method="area"), x),
                    autograph=False)(tf.constant(x_np, dt))


@clause("ops.image-boxes", ref="tf221")
def test_cov14a_image_gradients_are_forward_differences(backend, tf):
    """tf.image.image_gradients: (dy, dx), the forward differences along height and width, zero in the
    last row / column; a 3-D image is ValueError."""
    img = np.round(_rng("image-gradients").uniform(-2, 2, (2, 3, 4, 2)), 3)
    dy, dx = tf.image.image_gradients(tf.constant(img, tf.float64))
    want_dy = np.zeros_like(img)
    want_dy[:, :-1] = img[:, 1:] - img[:, :-1]
    want_dx = np.zeros_like(img)
    want_dx[:, :, :-1] = img[:, :, 1:] - img[:, :, :-1]
    assert_close(dy, want_dy, call="image_gradients(x)[0]", tolerance=TOL64)
    assert_close(dx, want_dx, call="image_gradients(x)[1]", tolerance=TOL64)
    with raises(ValueError, match=re.escape("image_gradients expects a 4D tensor [batch_size, h, w, d], not (3, 4, 2)."),
                call="image_gradients(3-D image)"):
        tf.image.image_gradients(tf.constant(img[0]))


# -- linalg: broadcast batches, wide QR, full SVD ------------------------------------------------------------------
def _lower(rng):
    return np.tril(np.round(rng.uniform(-0.5, 0.5, (3, 3)), 3)) + 2.0 * np.eye(3)


LINALG = {
    "triangular_solve_broadcast_a": (lambda tf, a, b: tf.linalg.triangular_solve(a, b, lower=True),
                                     [_lower, signed_inputs((2, 3, 2))]),
    "triangular_solve_broadcast_b_adjoint": (
        lambda tf, a, b: tf.linalg.triangular_solve(tf.linalg.band_part(a, -1, 0), b, lower=True, adjoint=True),
        [lambda rng: np.stack([_lower(rng), _lower(rng)]), signed_inputs((3, 2))]),
    "qr_wide": (lambda tf, a: tf.concat([tf.reshape(q, [-1]) for q in tf.linalg.qr(a)], 0), [signed_inputs((2, 3))]),
    "qr_wide_batch": (lambda tf, a: tf.concat([tf.reshape(q, [-1]) for q in tf.linalg.qr(a)], 0),
                      [signed_inputs((2, 2, 4))]),
    # |u|^2 and |v|^2 do not depend on the singular vectors' signs; m - n = 1, so u's last column is
    # unique up to its sign too
    "svd_full_tall": (lambda tf, a: _svd_flat(tf, a, True), [signed_inputs((3, 2))]),
    "svd_full_wide": (lambda tf, a: _svd_flat(tf, a, True), [signed_inputs((2, 3))]),
    "svd_reduced_wide": (lambda tf, a: _svd_flat(tf, a, False), [signed_inputs((2, 4))]),
}


def _svd_flat(tf, a, full):
    s, u, v = tf.linalg.svd(a, full_matrices=full)
    return tf.concat([s, tf.reshape(u * u, [-1]), tf.reshape(v * v, [-1])], 0)


@clause("ops.linalg-spectral", ref="tf221")
@pytest.mark.parametrize("name", list(LINALG))
def test_cov14a_linalg_gradients_off_the_square_path(backend, tf, name):
    """triangular_solve with a batch dimension in one operand only (the gradient summed back to it), QR of
    wide matrices (m < n: TF's _QrGrad splits a = [x, y]), SVD with full_matrices (|m - n| = 1) and of a
    wide matrix: float64 central differences of the backend's forward pass."""
    fn, makers = LINALG[name]
    rng = _rng("linalg" + name)
    check_central_differences(tf, name, fn, [m(rng) for m in makers], rng, TOL64)


@clause("ops.linalg-spectral", ref="tf221")
def test_cov14a_qr_and_svd_gradients_not_implemented(backend, tf):
    """TF's _QrGrad refuses nrows > ncols with full_matrices=True, _SvdGrad |m - n| > 1 with
    full_matrices=True: NotImplementedError when the tape reaches them."""
    a = tf.constant(np.arange(8.0).reshape(4, 2) / 7.0 + np.eye(4, 2), tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(a)
        q, r = tf.linalg.qr(a, full_matrices=True)
        s, u, v = tf.linalg.svd(a, full_matrices=True)
        qr_sum = tf.reduce_sum(r)
        svd_sum = tf.reduce_sum(u * u) + tf.reduce_sum(s)
    with raises(NotImplementedError, match="QrGrad not implemented when nrows > ncols and full_matrices is true",
                call="tape.gradient(qr(a(4,2), full_matrices=True))"):
        tape.gradient(qr_sum, a)
    with raises(NotImplementedError, match=re.escape("svd gradient is not implemented for abs(m - n) > 1 when "
                                                     "full_matrices is True"),
                call="tape.gradient(svd(a(4,2), full_matrices=True))"):
        tape.gradient(svd_sum, a)


# -- igamma's derivative in a: the series and the continued fraction ---------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
def test_cov14a_igamma_gradient_in_a_on_both_sides_of_its_split(backend, tf):
    """d igamma(a, x)/da (IgammaGradA): the series for x <= 1 or x <= a, the continued fraction for
    x > 1 and x > a, both in one call; float64 central differences in a and x."""
    rng = _rng("igamma-a")
    a = np.array([[0.5, 2.0, 3.5], [0.8, 1.2, 6.0]])
    x = np.array([[0.3, 4.0, 2.5], [1.7, 0.9, 9.0]])       # cf, series mixed in each row
    check_central_differences(tf, "igamma(a, x)", lambda tf_, a_, x_: tf_.math.igamma(a_, x_), [a, x], rng, TOL64)


# -- crop_and_resize: samples outside the image, one-pixel crops, nearest ---------------------------------
def _crop_np(image: np.ndarray, boxes: np.ndarray, size: tuple) -> np.ndarray:
    """CropAndResize (bilinear, extrapolation 0) in float64: TF's sample positions y1 (h - 1) + y (y2 - y1)
    (h - 1) / (ch - 1), or the box centre for a crop of one row."""
    _, h, w, c = image.shape
    ch, cw = size
    out = np.zeros((len(boxes), ch, cw, c))
    for b, (y1, x1, y2, x2) in enumerate(boxes):
        ys = [y1 * (h - 1) + y * (y2 - y1) * (h - 1) / (ch - 1) for y in range(ch)] if ch > 1 else \
            [0.5 * (y1 + y2) * (h - 1)]
        xs = [x1 * (w - 1) + x * (x2 - x1) * (w - 1) / (cw - 1) for x in range(cw)] if cw > 1 else \
            [0.5 * (x1 + x2) * (w - 1)]
        for i, iy in enumerate(ys):
            for j, ix in enumerate(xs):
                if not (0 <= iy <= h - 1 and 0 <= ix <= w - 1):
                    continue
                t, l = int(np.floor(iy)), int(np.floor(ix))
                bt, r = int(np.ceil(iy)), int(np.ceil(ix))
                yl, xl = iy - t, ix - l
                top = image[0, t, l] + (image[0, t, r] - image[0, t, l]) * xl
                bot = image[0, bt, l] + (image[0, bt, r] - image[0, bt, l]) * xl
                out[b, i, j] = top + (bot - top) * yl
    return out


CROPS = {
    # boxes reaching past the image (those samples are extrapolated: no gradient), a flipped box
    "outside": (np.array([[0.1, 0.2, 0.9, 1.3], [-0.35, 0.05, 0.55, 0.6], [0.8, 0.9, 0.15, 0.1]]), (3, 4)),
    "one_row_one_column": (np.array([[0.1, 0.2, 0.7, 0.9], [0.05, 0.35, 0.95, 0.55]]), (1, 1)),
    "one_row": (np.array([[0.1, 0.2, 0.7, 0.9]]), (1, 3)),
}


@clause("ops.image-boxes", ref="tf221")
@pytest.mark.parametrize("name", list(CROPS))
def test_cov14a_crop_and_resize_gradients(backend, tf, name):
    """crop_and_resize's gradients: the image's is the adjoint of the (linear) crop, bilinear and
    nearest; the boxes' (bilinear) is the derivative of a float64 NumPy crop by central differences;
    samples outside the image contribute nothing to either."""
    boxes_np, size = CROPS[name]
    rng = _rng("crop" + name)
    h, w, c = 4, 5, 2
    img_np = np.round(rng.uniform(-1, 1, (1, h, w, c)), 3)
    R = _weights(rng, (len(boxes_np),) + size + (c,))
    idx = tf.zeros([len(boxes_np)], tf.int32)
    img = tf.constant(img_np, tf.float32)
    boxes = tf.constant(boxes_np, tf.float32)
    for method in ("bilinear", "nearest"):
        with tf.GradientTape() as tape:
            tape.watch([img, boxes])
            out = tf.image.crop_and_resize(img, boxes, idx, list(size), method=method)
        g_img, g_boxes = tape.gradient(out, [img, boxes], output_gradients=tf.constant(R, tf.float32))
        n = h * w * c
        basis = to_numpy(tf.image.crop_and_resize(tf.constant(np.eye(n, dtype=np.float32).reshape(n, h, w, c)),
                                                  tf.constant(np.tile(boxes_np, (n, 1)), tf.float32),
                                                  tf.constant(np.repeat(np.arange(n), len(boxes_np)), tf.int32),
                                                  list(size), method=method)).astype(np.float64)
        want = np.einsum("nbyxc,byxc->n", basis.reshape((n, len(boxes_np)) + size + (c,)), R).reshape(1, h, w, c)
        assert_close(g_img, want, call=f"crop_and_resize({name}, {method}): image gradient vs the adjoint",
                     tolerance=TOL32)
        if method != "bilinear":
            continue
        assert_close(out, _crop_np(img_np.astype(np.float32).astype(np.float64), boxes_np.astype(np.float32), size),
                     call=f"crop_and_resize({name})", tolerance=Tolerance(rtol=1e-5, atol=1e-5))
        want_b = np.zeros_like(boxes_np)
        eps = 1e-4
        base = boxes_np.astype(np.float32).astype(np.float64)
        for k in np.ndindex(boxes_np.shape):
            up, dn = base.copy(), base.copy()
            up[k] += eps
            dn[k] -= eps
            want_b[k] = (np.sum(R * _crop_np(img_np, up, size)) - np.sum(R * _crop_np(img_np, dn, size))) / (2 * eps)
        assert_close(g_boxes, want_b, call=f"crop_and_resize({name}): boxes gradient vs central differences",
                     tolerance=Tolerance(rtol=1e-3, atol=1e-3))


# -- sparse add with a threshold; ctc_loss's second derivative ------------------------------------------------
@clause("ops.sparse", ref="tf221")
def test_cov14a_sparse_add_threshold_drops_entries_and_their_gradient(backend, tf):
    """sparse.add(a, b, threshold): sums whose magnitude is below the threshold are dropped from the
    result, and the a and b values at those indices get a zero gradient (SparseAddGrad); the others get
    the upstream value of their output entry."""
    ai, av = [[0, 0], [0, 2], [1, 1], [2, 0]], np.array([0.5, 1.0, -0.25, 2.0])
    bi, bv = [[0, 2], [1, 0], [1, 1], [2, 0]], np.array([-0.9, 3.0, 0.2, -1.0])
    ta, tb = tf.constant(av), tf.constant(bv)
    with tf.GradientTape() as tape:
        tape.watch([ta, tb])
        out = tf.sparse.add(tf.sparse.SparseTensor(ai, ta, [3, 3]), tf.sparse.SparseTensor(bi, tb, [3, 3]),
                            threshold=0.2)
        kept = to_numpy(out.indices).tolist()
        R = np.round(np.linspace(-1.0, 1.5, len(kept)), 2)
        total = tf.reduce_sum(tf.constant(R) * out.values)
    ga, gb = tape.gradient(total, [ta, tb])
    sums: dict = {}
    for idx, v in list(zip(map(tuple, ai), av)) + list(zip(map(tuple, bi), bv)):
        sums[idx] = sums.get(idx, 0.0) + v
    want_kept = sorted(k for k, v in sums.items() if abs(v) >= 0.2)
    call = "sparse.add(a, b, threshold=0.2)"
    assert_equal(kept, [list(k) for k in want_kept], call=call, what="indices")
    weight = {k: R[i] for i, k in enumerate(want_kept)}
    assert_close(ga, [weight.get(tuple(k), 0.0) for k in ai], call=call, what="d/da.values")
    assert_close(gb, [weight.get(tuple(k), 0.0) for k in bi], call=call, what="d/db.values")


@clause("ops.nn-ctc", ref="tf221")
def test_cov14a_ctc_loss_has_no_second_derivative(backend, tf):
    """ctc_loss with sparse labels (the fused CTCLoss op): its gradient is the op's second output behind
    PreventGradient, so differentiating the gradient again raises LookupError "Gradient explicitly
    disabled"."""
    logits = tf.constant(np.round(_rng("ctc2").uniform(-1, 1, (4, 1, 3)), 3), tf.float32)
    with tf.GradientTape() as outer:
        outer.watch(logits)
        with tf.GradientTape() as inner:
            inner.watch(logits)
            loss = tf.nn.ctc_loss(labels=tf.sparse.from_dense(tf.constant([[1, 2]])), logits=logits,
                                  label_length=None, logit_length=tf.constant([4]), logits_time_major=True,
                                  blank_index=0)
        g = inner.gradient(loss, logits)
        s = tf.reduce_sum(g * g)
    if not np.all(np.isfinite(to_numpy(g))):
        fail(f"ctc_loss gradient={to_numpy(g).tolist()}: not finite", call="ctc_loss first derivative")
    with raises(LookupError, match="Gradient explicitly disabled", call="d/dlogits sum(dctc/dlogits ** 2)"):
        outer.gradient(s, logits)
