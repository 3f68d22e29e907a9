"""Op specs of issue 29's fourth batch: tf.linalg.tridiagonal_solve, lstsq, sqrtm and banded_triangular_solve. Their edges
(dtypes, singular and non-finite systems, argument errors) are compared with TF 2.21 in
tests/ops/test_op_gap4_tf.py; here the forward against NumPy and the gradients against finite
differences and TF, on well-conditioned inputs."""

from __future__ import annotations

import numpy as np

from op_specs import OpSpec, _inputs, rand


def _dominant_tri(n, batch=()):
    """Compact [..., 3, n] diagonals with a dominant main diagonal (well conditioned, no pivoting)."""
    def make(rng, dt):
        d = rng.uniform(-1.0, 1.0, size=batch + (3, n))
        d[..., 1, :] = rng.uniform(2.5, 3.5, size=batch + (n,)) * rng.choice([-1, 1], size=batch + (n,))
        return d.astype(dt)
    return make


def _pivoting_tri(n, batch=()):
    """Compact diagonals whose sub-diagonal outweighs the main one (partial pivoting interchanges
    rows), kept non-singular."""
    def make(rng, dt):
        d = rng.uniform(1.0, 2.0, size=batch + (3, n)) * rng.choice([-1, 1], size=batch + (3, n))
        d[..., 1, :] *= 0.3
        d[..., 2, 1:] *= 3.0
        return d.astype(dt)
    return make


def _dense(d):
    out = np.zeros(d.shape[:-2] + (d.shape[-1],) * 2)
    n = d.shape[-1]
    i = np.arange(n)
    out[..., i, i] = d[..., 1, :]
    out[..., i[:-1], i[:-1] + 1] = d[..., 0, :-1]
    out[..., i[1:], i[1:] - 1] = d[..., 2, 1:]
    return out


def _tri_solve_ref(d, r):
    return np.linalg.solve(_dense(d.astype(np.float64)), r.astype(np.float64))


def _full_rank(shape):
    """Matrices with singular values in [1, 2.5] (the normal equations stay well conditioned)."""
    def make(rng, dt):
        m, n = shape[-2:]
        k = min(m, n)
        u, _ = np.linalg.qr(rng.normal(size=shape[:-2] + (m, m)))
        v, _ = np.linalg.qr(rng.normal(size=shape[:-2] + (n, n)))
        s = np.zeros(shape[:-2] + (m, n))
        idx = np.arange(k)
        s[..., idx, idx] = rng.uniform(1.0, 2.5, size=shape[:-2] + (k,))
        return (u @ s @ np.swapaxes(v, -1, -2)).astype(dt)
    return make


def _lstsq_ref(a, b, l2=0.0):
    a, b = a.astype(np.float64), b.astype(np.float64)
    m, n = a.shape[-2:]
    at = np.swapaxes(a, -1, -2)
    if m >= n:
        return np.linalg.solve(at @ a + l2 * np.eye(n), at @ b)
    return at @ np.linalg.solve(a @ at + l2 * np.eye(m), b)


def _spd(n, batch=()):
    """Symmetric positive definite matrices, eigenvalues in [1, 3]."""
    def make(rng, dt):
        q, _ = np.linalg.qr(rng.normal(size=batch + (n, n)))
        e = rng.uniform(1.0, 3.0, size=batch + (n,))
        return (q @ (e[..., :, None] * np.swapaxes(q, -1, -2))).astype(dt)
    return make


def _near_identity(n, batch=()):
    """I + a small non-symmetric perturbation: real eigenvalues near 1 (a general real Schur form)."""
    def make(rng, dt):
        return (np.eye(n) + rng.uniform(-0.2, 0.2, size=batch + (n, n))).astype(dt)
    return make


def _sqrtm_ref(a):
    w, v = np.linalg.eig(a.astype(np.float64))
    return np.real(v @ (np.sqrt(w.astype(np.complex128))[..., :, None] * np.linalg.inv(v)))


def _bands(k, m, lower, batch=()):
    """[..., k, m] band storage with the diagonal away from 0 (row 0 lower, row k - 1 upper)."""
    def make(rng, dt):
        b = rng.uniform(-1.0, 1.0, size=batch + (k, m))
        d = 0 if lower else k - 1
        b[..., d, :] = rng.uniform(1.5, 2.5, size=batch + (m,)) * rng.choice([-1, 1], size=batch + (m,))
        return b.astype(dt)
    return make


def _banded_dense(b, lower):
    k, m = b.shape[-2:]
    a = np.zeros(b.shape[:-2] + (m, m))
    for d in range(k):
        for i in range(m):
            if lower and i - d >= 0:
                a[..., i, i - d] = b[..., d, i]
            elif not lower and i + d < m:
                a[..., i, i + d] = b[..., k - 1 - d, i]
    return a


SPECS: list[OpSpec] = [
    OpSpec("linalg.banded_triangular_solve[lower]", lambda tf, b, r: tf.linalg.banded_triangular_solve(b, r),
           _inputs(_bands(3, 5, True, (2,)), rand((2, 5, 2))), ("BandedTriangularSolve",),
           lambda b, r: np.linalg.solve(_banded_dense(b.astype(np.float64), True), r), diff=(0, 1), rtol=1e-5,
           grad_rtol=1e-3),
    OpSpec("linalg.banded_triangular_solve[upper,adjoint]",
           lambda tf, b, r: tf.linalg.banded_triangular_solve(b, r, lower=False, adjoint=True),
           _inputs(_bands(2, 4, False), rand((4, 3))), ("BandedTriangularSolve",),
           lambda b, r: np.linalg.solve(_banded_dense(b.astype(np.float64), False).T, r), diff=(0, 1), rtol=1e-5,
           grad_rtol=1e-3),
    OpSpec("linalg.tridiagonal_solve", lambda tf, d, r: tf.linalg.tridiagonal_solve(d, r),
           _inputs(_dominant_tri(5, (2,)), rand((2, 5, 3))), ("TridiagonalSolve",), _tri_solve_ref, diff=(0, 1),
           rtol=1e-5, grad_rtol=1e-3),
    OpSpec("linalg.tridiagonal_solve[pivoting]", lambda tf, d, r: tf.linalg.tridiagonal_solve(d, r),
           _inputs(_pivoting_tri(6), rand((6, 2))), ("TridiagonalSolve",), _tri_solve_ref, diff=(0, 1),
           rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.tridiagonal_solve[thomas]",
           lambda tf, d, r: tf.linalg.tridiagonal_solve(d, r, partial_pivoting=False),
           _inputs(_dominant_tri(5), rand((5, 2))), ("TridiagonalSolve",), _tri_solve_ref, diff=(0, 1),
           rtol=1e-5, grad_rtol=1e-3),
    OpSpec("linalg.lstsq[overdetermined]", lambda tf, a, b: tf.linalg.lstsq(a, b),
           _inputs(_full_rank((2, 6, 3)), rand((2, 6, 2))), ("BatchMatMulV2", "Cholesky", "MatrixTriangularSolve"),
           _lstsq_ref, diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.lstsq[underdetermined,l2]", lambda tf, a, b: tf.linalg.lstsq(a, b, l2_regularizer=0.5),
           _inputs(_full_rank((3, 5)), rand((3, 2))), ("MatMul", "Cholesky", "MatrixTriangularSolve"),
           lambda a, b: _lstsq_ref(a, b, 0.5), diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.sqrtm[spd]", lambda tf, a: tf.linalg.sqrtm(a), _inputs(_spd(4, (2,))), ("MatrixSquareRoot",),
           _sqrtm_ref, rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.sqrtm[general]", lambda tf, a: tf.linalg.sqrtm(a), _inputs(_near_identity(3)),
           ("MatrixSquareRoot",), _sqrtm_ref, rtol=1e-4, grad_rtol=1e-3),
]

UNTESTED_OPS: dict[str, str] = {
    **{op: "random draws on TF's Philox streams (ops.random-gamma-poisson): values bit for bit, seeds, streams, dtypes, "
           "errors and gamma's gradients are compared with TF 2.21 in tests/ops/test_random_gamma_tf.py (a finite "
           "difference of a random draw is not a gradient check)"
       for op in ("RandomGamma", "RandomPoissonV2", "StatelessRandomGammaV3", "StatelessRandomPoisson",
                  "RandomGammaGrad")},
    **{op: "candidate samplers on TF's Philox streams (ops.candidate-samplers): classes and expected counts bit for "
           "bit, streams and errors compared with TF 2.21 in tests/ops/test_candidate_samplers_tf.py"
       for op in ("UniformCandidateSampler", "LogUniformCandidateSampler", "AllCandidateSampler",
                  "FixedUnigramCandidateSampler", "LearnedUnigramCandidateSampler")},
    **{op: "tf.math.special (ops.math-special): values at ordinary and domain-edge inputs, dtypes and gradients are "
           "compared with TF 2.21 in tests/ops/test_fuzz3_edges_tf.py, where the third fuzzer's helper "
           "added them (no OpSpec yet)"
       for op in ("BesselJ0", "BesselJ1", "BesselY0", "BesselY1", "BesselK0", "BesselK0e", "BesselK1", "BesselK1e",
                  "Dawsn", "Expint", "FresnelCos", "FresnelSin", "Spence")},
    "MatrixSolveLs": "TF runs the kernel only for tensors over 256,000 bytes with a batch larger than min(M, N) "
                     "(or fast=False, which has no gradient): too large for finite differences; its values and "
                     "gradients are compared with TF 2.21 in tests/ops/test_op_gap4_tf.py (ops.linalg-lstsq)",
    "CTCLossDense": "float32 only (TF's CTC lattice is float32, float64 logits are an error): no float64 finite "
                    "differences; values and gradients are compared with TF 2.21 in tests/ops/test_op_gap4_tf.py "
                    "and with a sum over every alignment in the conformance suite (ops.nn-ctc)",
    "GuaranteeConst": "no gradient registered (TF 2.21: LookupError through a tape): its identity values, dtypes "
                      "and the LookupError are compared with TF 2.21 in tests/ops/test_op_gap4_tf.py (ops.tf-utilities)",
    **{op: "no gradient registered (TF 2.21: LookupError through a tape), and integer outputs of quantized dtypes: "
           "no finite differences; values, ranges, errors and the LookupError are compared with TF 2.21 in "
           "tests/ops/test_quantize_ops_tf.py (ops.quantize-dequantize)" for op in ("QuantizeV2", "Dequantize")},
    "Conv": "no gradient registered (TF 2.21: LookupError through a tape): its values (Conv2D's and Conv3D's, which "
            "have OpSpecs), checks, dtypes and the LookupError are compared with TF 2.21 in "
            "tests/ops/test_miss15_ops_tf.py and with a direct convolution in the conformance suite (ops.conv-generic)",
    **{op: "no kernel in TF 2.21 (NotFoundError eagerly, InvalidArgumentError or TypeError traced): nothing to "
           "compute; the error classes are compared with TF 2.21 in tests/ops/test_miss15_ops_tf.py (ops.conv-generic)"
       for op in ("Conv2DBackpropFilterV2", "Conv2DBackpropInputV2")},
    "ExtractGlimpseV2": "no gradient registered (TF 2.21: LookupError through a tape): windows, noise, errors and the "
                        "LookupError are compared with TF 2.21 in tests/ops/test_miss15_ops_tf.py (ops.image-glimpse)",
    "GenerateBoundingBoxProposals": "no CPU kernel in TF 2.21 (NotFoundError eagerly; traced ValueError, TypeError or "
                                    "InvalidArgumentError): the error classes are compared with TF 2.21 in "
                                    "tests/ops/test_miss15_ops_tf.py (ops.image-box-proposals)",
    "StatelessParameterizedTruncatedNormal": "random draws on TF's Philox stream (ops.parameterized-truncated-normal): "
                                             "values bit for bit, errors and the implicit gradient are compared with TF "
                                             "2.21 in tests/ops/test_miss15_ops_tf.py (a finite difference of a random "
                                             "draw is not a gradient check)",
}
