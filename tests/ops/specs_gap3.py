"""Op specs of issue 29's third batch: 3-D convolutions and pooling, tf.nn's space-to-batch
compositions (pool, with_space_to_batch, atrous_conv2d_transpose), and tf.linalg's spectral
decompositions (eigh, eigvalsh, svd, pinv). Eigenvectors and singular vectors are defined up to a
sign that LAPACK (simdist) and Eigen (TF) choose independently, so their specs differentiate
sign-invariant functions of them (squares, reconstructions)."""

from __future__ import annotations

import numpy as np

from op_specs import OpSpec, _inputs, distinct, rand


def _distinct(shape, lo=-2.0, hi=2.0):
    return lambda rng, dt: distinct(rng, shape, dt, lo, hi)


def _sym(n, batch=()):
    """Symmetric matrices with well separated eigenvalues (eigenvector gradients are finite)."""
    def make(rng, dt):
        q, _ = np.linalg.qr(rng.normal(size=batch + (n, n)))
        e = np.arange(1, n + 1) * 1.5 + rng.uniform(-0.2, 0.2, size=batch + (n,))
        return (q @ (e[..., :, None] * np.swapaxes(q, -1, -2))).astype(dt)
    return make


def _spread(shape):
    """Matrices with well separated singular values."""
    def make(rng, dt):
        m, n = shape[-2:]
        k = min(m, n)
        u, _ = np.linalg.qr(rng.normal(size=shape[:-2] + (m, m)))
        v, _ = np.linalg.qr(rng.normal(size=shape[:-2] + (n, n)))
        s = np.zeros(shape[:-2] + (m, n))
        idx = np.arange(k)
        s[..., idx, idx] = np.arange(k, 0, -1) * 1.3 + rng.uniform(-0.2, 0.2, size=shape[:-2] + (k,))
        return (u @ s @ np.swapaxes(v, -1, -2)).astype(dt)
    return make


def _packed_lu(n, batch=()):
    """A packed L\\U (unit lower below the diagonal, a well-conditioned upper on and above)."""
    def make(rng, dt):
        m = rng.uniform(-0.5, 0.5, size=batch + (n, n))
        idx = np.arange(n)
        m[..., idx, idx] = rng.uniform(1.5, 2.5, size=batch + (n,)) * rng.choice([-1, 1], size=batch + (n,))
        return m.astype(dt)
    return make


def _perm(n, batch=()):
    def make(rng, dt):
        return np.stack([rng.permutation(n) for _ in range(int(np.prod(batch, dtype=np.int64)))]).reshape(
            batch + (n,)).astype(np.int32)
    return make


def _lu_parts(lu, p):
    n = lu.shape[-1]
    lower = np.tril(lu, -1) + np.eye(n)
    upper = np.triu(lu)
    return lower, upper, p


def _lu_reconstruct_ref(lu, p):
    lower, upper, p = _lu_parts(lu, p)
    x = lower @ upper
    out = np.empty_like(x)
    for idx in np.ndindex(p.shape[:-1]):
        out[idx + (p[idx],)] = x[idx]
    return out


def _lu_solve_ref(lu, p, b):
    a = _lu_reconstruct_ref(lu, p)
    return np.linalg.solve(a, b)


def _conv3d_ref(x, f):
    n, d, h, w, c = x.shape
    kd, kh, kw, _, co = f.shape
    out = np.zeros((n, d - kd + 1, h - kh + 1, w - kw + 1, co))
    for a in range(kd):
        for i in range(kh):
            for j in range(kw):
                out += np.einsum("ndhwc,co->ndhwo", x[:, a:a + out.shape[1], i:i + out.shape[2], j:j + out.shape[3]],
                                 f[a, i, j])
    return out


SPECS: list[OpSpec] = [
    # --- 3-D convolutions and pooling -----------------------------------------------------------------------------
    OpSpec("conv3d[VALID]", lambda tf, x, f: tf.nn.conv3d(x, f, [1, 1, 1, 1, 1], "VALID"),
           _inputs(rand((1, 3, 4, 3, 2)), rand((2, 2, 2, 2, 3))), ("Conv3D", "Conv3DBackpropInputV2",
                                                                   "Conv3DBackpropFilterV2"),
           _conv3d_ref, diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("conv3d[SAME, strides]", lambda tf, x, f: tf.nn.conv3d(x, f, [1, 2, 1, 2, 1], "SAME"),
           _inputs(rand((2, 4, 3, 5, 2)), rand((3, 2, 2, 2, 2))), ("Conv3D",), None, diff=(0, 1), rtol=1e-4,
           grad_rtol=1e-3),
    OpSpec("conv3d[dilated]", lambda tf, x, f: tf.nn.conv3d(x, f, [1, 1, 1, 1, 1], "SAME", dilations=[1, 2, 1, 2, 1]),
           _inputs(rand((1, 5, 3, 5, 2)), rand((2, 2, 2, 2, 2))), ("Conv3D",), None, diff=(0, 1), rtol=1e-4,
           grad_rtol=1e-3, dtypes=(np.float32,), fd=False,
           notes="TF's CPU Conv3D refuses dilations in float64: the gradient is checked against TF 2.21 only"),
    OpSpec("conv3d_transpose[SAME, stride 2]",
           lambda tf, x, f: tf.nn.conv3d_transpose(x, f, [1, 4, 5, 4, 2], 2, "SAME"),
           _inputs(rand((1, 2, 3, 2, 3)), rand((2, 2, 3, 2, 3))),
           ("Conv3DBackpropInputV2", "Conv3D", "Conv3DBackpropFilterV2"), None, diff=(0, 1), rtol=1e-4,
           grad_rtol=1e-3),
    OpSpec("max_pool3d[SAME]", lambda tf, x: tf.nn.max_pool3d(x, [2, 2, 3], [2, 1, 2], "SAME"),
           _inputs(_distinct((1, 3, 4, 5, 2))), ("MaxPool3D", "MaxPool3DGrad"), None, dtypes=(np.float32,), fd=False,
           notes="MaxPool3D has float and bfloat16 kernels only: checked against TF 2.21 (values and gradients)"),
    OpSpec("max_pool3d[grad of grad]", lambda tf, x: _double_backprop(tf, x),
           _inputs(_distinct((1, 2, 4, 3, 1))), ("MaxPool3DGrad", "MaxPool3DGradGrad"), None, dtypes=(np.float32,),
           fd=False, notes="the gradient of MaxPool3D's gradient: MaxPool3DGradGrad (TF 2.21 only)"),
    OpSpec("avg_pool3d[SAME]", lambda tf, x: tf.nn.avg_pool3d(x, 2, [1, 2, 2], "SAME"),
           _inputs(rand((2, 3, 3, 5, 2))), ("AvgPool3D", "AvgPool3DGrad"), None, dtypes=(np.float32,), fd=False,
           notes="AvgPool3D has float and bfloat16 CPU kernels only: checked against TF 2.21"),
    OpSpec("avg_pool3d[grad of grad]", lambda tf, x: _avg_double_backprop(tf, x),
           _inputs(rand((1, 3, 2, 4, 2))), ("AvgPool3DGrad", "AvgPool3D"), None, dtypes=(np.float32,), fd=False),
    OpSpec("extract_volume_patches[SAME]",
           lambda tf, x: tf.extract_volume_patches(x, [1, 2, 2, 2, 1], [1, 1, 2, 1, 1], "SAME"),
           _inputs(rand((1, 3, 4, 2, 2))), ("ExtractVolumePatches", "Conv3DBackpropInputV2"), None),
    # --- space-to-batch compositions -----------------------------------------------------------------------------
    OpSpec("pool[MAX, dilated]", lambda tf, x: tf.nn.pool(x, [2, 2], "MAX", padding="VALID", dilations=[2, 1]),
           _inputs(_distinct((2, 5, 4, 2))), ("SpaceToBatchND", "MaxPool", "BatchToSpaceND"), None,
           dtypes=(np.float32, np.float64)),
    OpSpec("pool[AVG, 1-D strided]", lambda tf, x: tf.nn.pool(x, [3], "AVG", strides=[2], padding="SAME"),
           _inputs(rand((2, 7, 3))), ("AvgPool",), None),
    OpSpec("pool[AVG, 3-D]", lambda tf, x: tf.nn.pool(x, [2, 1, 2], "AVG", strides=[1, 1, 2], padding="VALID"),
           _inputs(rand((1, 3, 2, 4, 2))), ("AvgPool3D",), None, dtypes=(np.float32,), fd=False),
    OpSpec("with_space_to_batch[conv2d SAME]",
           lambda tf, x, f: tf.nn.with_space_to_batch(x, [2, 2], "SAME", lambda i, n, p: tf.nn.conv2d(i, f, 1, p),
                                                      filter_shape=[3, 3]),
           _inputs(rand((1, 5, 6, 2)), rand((3, 3, 2, 2))), ("SpaceToBatchND", "Conv2D", "BatchToSpaceND"), None,
           diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("atrous_conv2d_transpose[rate 2]",
           lambda tf, x, f: tf.nn.atrous_conv2d_transpose(x, f, [1, 5, 6, 2], 2, "SAME"),
           _inputs(rand((1, 5, 6, 3)), rand((3, 2, 2, 3))), ("SpaceToBatchND", "Conv2DBackpropInput", "BatchToSpaceND"),
           None, diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    # --- spectral decompositions ---------------------------------------------------------------------------------
    OpSpec("linalg.eigh[values]", lambda tf, a: tf.linalg.eigh(a)[0], _inputs(_sym(3, (2,))), ("SelfAdjointEigV2",),
           lambda a: np.linalg.eigh(a)[0], rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.eigh[vectors squared]", lambda tf, a: tf.linalg.eigh(a)[1] ** 2, _inputs(_sym(3)),
           ("SelfAdjointEigV2",), lambda a: np.linalg.eigh(a)[1] ** 2, rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.eigvalsh", lambda tf, a: tf.linalg.eigvalsh(a), _inputs(_sym(4)), ("SelfAdjointEigV2",),
           lambda a: np.linalg.eigvalsh(a), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.svd[s]", lambda tf, a: tf.linalg.svd(a)[0], _inputs(_spread((2, 4, 3))), ("Svd",),
           lambda a: np.linalg.svd(a, compute_uv=False), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.svd[compute_uv=False]", lambda tf, a: tf.linalg.svd(a, compute_uv=False), _inputs(_spread((3, 5))),
           ("Svd",), lambda a: np.linalg.svd(a, compute_uv=False), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.svd[u squared, wide]", lambda tf, a: tf.linalg.svd(a)[1] ** 2, _inputs(_spread((3, 4))), ("Svd",),
           lambda a: np.linalg.svd(a)[0] ** 2, rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.svd[v squared, tall]", lambda tf, a: tf.linalg.svd(a)[2] ** 2, _inputs(_spread((4, 3))), ("Svd",),
           lambda a: np.swapaxes(np.linalg.svd(a)[2], -1, -2) ** 2, rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.pinv", lambda tf, a: tf.linalg.pinv(a), _inputs(_spread((3, 4))), ("Svd",),
           lambda a: np.linalg.pinv(a), rtol=1e-4, grad_rtol=1e-3),
    # --- window maxima with their positions (continuous draws: no two sums tie) ------------------------------------
    OpSpec("dilation2d[SAME]", lambda tf, x, f: tf.nn.dilation2d(x, f, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]),
           _inputs(rand((1, 4, 5, 2)), rand((2, 3, 2), -0.3, 0.3)),
           ("Dilation2D", "Dilation2DBackpropInput", "Dilation2DBackpropFilter"), None, diff=(0, 1)),
    OpSpec("dilation2d[strided, rates]", lambda tf, x, f: tf.nn.dilation2d(x, f, [1, 2, 1, 1], "VALID", "NHWC",
                                                                           [1, 1, 2, 1]),
           _inputs(rand((2, 5, 5, 1)), rand((2, 2, 1), -0.3, 0.3)), ("Dilation2D",), None, diff=(0, 1)),
    OpSpec("erosion2d", lambda tf, x, f: tf.nn.erosion2d(x, f, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]),
           _inputs(rand((1, 4, 4, 2)), rand((2, 2, 2), -0.3, 0.3)), ("Dilation2D", "Neg", "ReverseV2"), None,
           diff=(0, 1)),
    OpSpec("max_pool_with_argmax", lambda tf, x: tf.nn.max_pool_with_argmax(x, 2, 2, "SAME")[0],
           _inputs(_distinct((2, 5, 4, 2))), ("MaxPoolWithArgmax", "MaxPoolGradWithArgmax"), None),
    # (continuous draws: no segment mean ties another value, where a finite difference would change the pooling)
    OpSpec("isotonic_regression", lambda tf, x: tf.nn.isotonic_regression(x)[0], _inputs(rand((3, 6))),
           ("IsotonicRegression",), None),
    OpSpec("isotonic_regression[increasing, axis 0]",
           lambda tf, x: tf.nn.isotonic_regression(x, decreasing=False, axis=0)[0], _inputs(rand((5, 2))),
           ("IsotonicRegression", "Neg", "Transpose"), None),
    OpSpec("linalg.tridiagonal_matmul", lambda tf, d, r: tf.linalg.tridiagonal_matmul(d, r),
           _inputs(rand((2, 3, 4)), rand((2, 4, 3))), ("TridiagonalMatMul",),
           lambda d, r: (np.einsum("bij,bjk->bik", np.stack([np.diag(x[1]) + np.diag(x[0][:-1], 1)
                                                             + np.diag(x[2][1:], -1) for x in d]), r)),
           diff=(0, 1)),
    OpSpec("linalg.expm", lambda tf, a: tf.linalg.expm(a), _inputs(rand((2, 3, 3), -1.0, 1.0)),
           ("MatrixSolve", "BatchMatMulV2", "SelectV2"), None, rtol=1e-4, grad_rtol=1e-3),
    # --- LU compositions (TF registers no gradient for Lu itself: its factors are the inputs here) ---------------
    OpSpec("linalg.lu_reconstruct", lambda tf, lu, p: tf.linalg.lu_reconstruct(lu, p),
           _inputs(_packed_lu(3, (2,)), _perm(3, (2,))), ("MatrixBandPart", "MatrixSetDiagV3", "BatchMatMulV2"),
           _lu_reconstruct_ref, rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.lu_solve", lambda tf, lu, p, b: tf.linalg.lu_solve(lu, p, b),
           _inputs(_packed_lu(3), _perm(3), rand((3, 2))), ("MatrixTriangularSolve",), _lu_solve_ref, diff=(0, 2),
           rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.lu_solve[broadcast]", lambda tf, lu, p, b: tf.linalg.lu_solve(lu, p, b),
           _inputs(_packed_lu(3), _perm(3), rand((2, 3, 2))), ("MatrixTriangularSolve",), _lu_solve_ref, diff=(0, 2),
           rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.lu_matrix_inverse", lambda tf, lu, p: tf.linalg.lu_matrix_inverse(lu, p),
           _inputs(_packed_lu(3, (2,)), _perm(3, (2,))), ("MatrixTriangularSolve",),
           lambda lu, p: np.linalg.inv(_lu_reconstruct_ref(lu, p)), rtol=1e-4, grad_rtol=1e-3),
]


def _double_backprop(tf, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool3d(x, 2, 1, "VALID")
    return tape.gradient(y, x, output_gradients=y * y)


def _avg_double_backprop(tf, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.avg_pool3d(x, 2, 1, "VALID")
    return tape.gradient(y, x, output_gradients=y * y)


UNTESTED_OPS: dict[str, str] = {
    "ImageProjectiveTransformV3": "its gradient is TF's approximation (the op on the incoming gradient with the "
                                  "inverted transform), not the adjoint finite differences would check: forward "
                                  "and gradient are compared with TF 2.21 in tests/ops/test_image_projective_tf.py "
                                  "(ops.image-projective-transform)",
    "ComputeAccidentalHits": "integer inputs, not differentiable: compared with TF 2.21 in "
                             "tests/ops/test_op_gap3_tf.py (ops.nn-accidental-hits)",
    "AsString": "a string output (not differentiable): its formats are compared with TF 2.21's in "
                "tests/ops/test_op_gap3_tf.py (ops.as-string)",
    "Lu": "TF 2.21 registers no gradient for Lu (a tape raises LookupError): its values, dtypes and errors are "
          "compared with TF 2.21's in tests/ops/test_op_gap3_tf.py (ops.linalg-lu)",
}
