"""Every registered gradient the rest of the suite never ran — clause autodiff.op-gradients (TF 2.21's
registered gradients: math_grad.py, nn_grad.py, array_grad.py, linalg_grad.py, fft_ops.py,
sparse_grad.py, image_grad.py, special_math_ops.py).

The table is the op registry's differentiable op types that `benchmarks/suite_gradients.py` found no
suite test differentiating (docs/conformance.md, "Gradient coverage"), each reached through its public
TF call with inputs that make its gradient's branches visible: a non-uniform upstream gradient (every
check weighs the output by a fixed signed R), broadcast operands, each attribute value that changes the
rule (adjoint, lower, offsets k, align, padding, rates, fft lengths that pad and crop), negative inputs
where the domain allows. Three kinds of entries:

- first order: the tape's gradient of sum(R * f(x...)) against float64 central differences of the
  backend's own forward pass, element by element of every input;
- higher order (the `*Grad` kernels TF's first derivatives are made of: ReluGrad, MaxPoolGrad,
  Conv2DBackpropFilter, ...): nested tapes, L0 = sum(R0 * f(x)), L(k+1) = sum(R(k+1) * (g + g**2))
  with g = dLk/dx; the outer tape's gradient of the last level against central differences of that
  level (which the backend computes with the lower orders' gradients, checked by the entries below
  it); f is a product (relu(x) * x, pool(x)**2) so each *Grad kernel's upstream input depends on x;
- no gradient in TF 2.21: the tape raises LookupError (adjust_hue, truncatemod, rfft3d, second
  derivatives of lrn, dilation2d, crop_and_resize, igamma's order ...).

Ops whose TF kernels have no float64 version (the 3-D pools, LRN, max_pool_with_argmax) run in float32
with a step of 1e-2 on piecewise-quadratic objectives (central differences are exact on a quadratic up
to rounding) or against a NumPy float64 forward pass. Every expected value is computed here, never
taken from the backend's gradient.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from simdist.conformance.assertions import ConformanceFailure, assert_close, fail
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.values import positive_inputs, signed_inputs

clause = pytest.mark.clause
#: float64 central differences with h = 1e-6: truncation and rounding errors stay below 1e-6.
TOL64 = Tolerance(rtol=1e-5, atol=1e-6)
#: float32 central differences with h = 1e-2 on piecewise-quadratic objectives: rounding only.
TOL32 = Tolerance(rtol=2e-3, atol=2e-3)


# -- inputs ----------------------------------------------------------------------------------------------
_pos, _any = positive_inputs, signed_inputs


def _distinct(shape, step=0.37):
    """Distinct values of both signs, at least `step` apart (no ties for max/min/pooling)."""
    return lambda rng: (rng.permutation(int(np.prod(shape))).reshape(shape) * step - 1.1).astype(np.float64)


def _const(value):
    return lambda rng: np.asarray(value, dtype=np.float64)


def _spd(tf, x):
    """A symmetric positive definite matrix of x (batched)."""
    n = x.shape[-1]
    return tf.matmul(x, x, transpose_b=True) + tf.constant(3.0 * np.eye(n), dtype=x.dtype)


def _cplx(tf, f):
    """f on complex(x, y), its complex output seen as [real, imag] stacked (both weighted by R)."""
    def g(tf_, x, y):
        w = f(tf_, tf_.complex(x, y))
        return tf_.stack([tf_.math.real(w), tf_.math.imag(w)])
    return g


def _sparse(tf, values, indices, shape):
    return tf.sparse.SparseTensor(indices, values, shape)


_SP_IDX = [[0, 1], [1, 0], [1, 2], [2, 3]]          # 4 entries of a 3 x 4 matrix, in row-major order
_SP_IDX_UNORDERED = [[2, 3], [0, 1], [1, 2], [1, 0]]
_SP_IDX_B = [[0, 1], [1, 1], [2, 0], [2, 3]]         # overlaps _SP_IDX at [0, 1] and [2, 3]


# -- first order: op -> (f(tf, *inputs), input makers) ---------------------------------------------------------
SPECIAL = {
    "bessel_i0": (lambda tf, x: tf.math.special.bessel_i0(x), [_any((2, 3))]),
    "bessel_i0e": (lambda tf, x: tf.math.special.bessel_i0e(x), [_any((2, 3))]),
    "bessel_i1": (lambda tf, x: tf.math.special.bessel_i1(x), [_any((2, 3))]),
    "bessel_i1e": (lambda tf, x: tf.math.special.bessel_i1e(x), [_any((2, 3))]),
    "bessel_j0": (lambda tf, x: tf.math.special.bessel_j0(x), [_any((2, 3), 0.2, 4.0)]),
    "bessel_j1": (lambda tf, x: tf.math.special.bessel_j1(x), [_any((2, 3), 0.2, 4.0)]),
    "bessel_k0": (lambda tf, x: tf.math.special.bessel_k0(x), [_pos((2, 3))]),
    "bessel_k0e": (lambda tf, x: tf.math.special.bessel_k0e(x), [_pos((2, 3))]),
    "bessel_k1": (lambda tf, x: tf.math.special.bessel_k1(x), [_pos((2, 3))]),
    "bessel_k1e": (lambda tf, x: tf.math.special.bessel_k1e(x), [_pos((2, 3))]),
    "bessel_y0": (lambda tf, x: tf.math.special.bessel_y0(x), [_pos((2, 3), 0.5, 4.0)]),
    "bessel_y1": (lambda tf, x: tf.math.special.bessel_y1(x), [_pos((2, 3), 0.5, 4.0)]),
    "expint": (lambda tf, x: tf.math.special.expint(x), [_pos((2, 3))]),     # Ei: NaN below 0 in TF
    "fresnel_cos": (lambda tf, x: tf.math.special.fresnel_cos(x), [_any((2, 3))]),
    "fresnel_sin": (lambda tf, x: tf.math.special.fresnel_sin(x), [_any((2, 3))]),
    "dawsn": (lambda tf, x: tf.math.special.dawsn(x), [_any((2, 3))]),
    "spence": (lambda tf, x: tf.math.special.spence(x), [_pos((2, 3))]),
    "erfinv": (lambda tf, x: tf.math.erfinv(x), [_any((2, 3), 0.1, 0.85)]),
    "ndtri": (lambda tf, x: tf.math.ndtri(x), [_pos((2, 3), 0.1, 0.9)]),
    "lgamma_negative": (lambda tf, x: tf.math.lgamma(x), [_const([[-2.5, -1.3, -0.4], [0.6, -3.7, 2.2]])]),
    "digamma_negative": (lambda tf, x: tf.math.digamma(x), [_const([[-2.5, -1.3, -0.4], [0.6, -3.7, 2.2]])]),
    "log1p_negative": (lambda tf, x: tf.math.log1p(x), [_any((2, 3), 0.1, 0.8)]),
    "relu6_both_kinks": (lambda tf, x: tf.nn.relu6(x), [_const([[-2.5, 0.5, 5.5], [6.5, 3.1, -0.2]])]),
    # polygamma's order, zeta's exponent and betainc's a, b get no gradient in TF (None): constants here
    "polygamma_broadcast": (lambda tf, x: tf.math.polygamma(tf.constant([[1.0], [2.0]], tf.float64), x),
                            [_pos((3,), 0.5, 2.5)]),
    "zeta_broadcast": (lambda tf, q: tf.math.zeta(tf.constant([[2.5], [4.0]], tf.float64), q), [_pos((3,), 0.5, 2.5)]),
    "igamma_broadcast": (lambda tf, a, x: tf.math.igamma(a, x), [_pos((2, 1), 0.8, 2.5), _pos((3,), 0.3, 2.5)]),
    "igammac": (lambda tf, a, x: tf.math.igammac(a, x), [_pos((2, 3), 0.8, 2.5), _pos((2, 3), 0.3, 2.5)]),
    "betainc": (lambda tf, x: tf.math.betainc(tf.constant([[0.7, 1.5, 2.5]], tf.float64),
                                              tf.constant([[1.2, 0.9, 3.0]], tf.float64), x),
                [_pos((1, 3), 0.1, 0.9)]),
    "floormod_broadcast": (lambda tf, x, y: tf.math.floormod(x, y),
                           [_const([[2.3, -1.7, 4.4], [-3.1, 0.6, 5.2]]), _const([1.5, -0.8, 2.1])]),
    "nextafter": (lambda tf, x, y: tf.math.nextafter(x, y), [_any((2, 3)), _any((2, 3))]),
    "rint": (lambda tf, x: tf.math.rint(x) + x * x, [_const([[-1.2, 0.3, 2.7], [1.6, -2.4, 0.1]])]),
}

COMPLEX = {
    "complex_real_imag": (_cplx(None, lambda tf, z: z * z), [_any((2, 3)), _any((2, 3))]),
    "conj": (_cplx(None, lambda tf, z: tf.math.conj(z) * z * z), [_any((2, 3)), _any((2, 3))]),
    "angle": (lambda tf, x, y: tf.math.angle(tf.complex(x, y)), [_any((2, 3)), _any((2, 3))]),
    "fft": (_cplx(None, lambda tf, z: tf.signal.fft(z)), [_any((2, 4)), _any((2, 4))]),
    "ifft": (_cplx(None, lambda tf, z: tf.signal.ifft(z)), [_any((2, 4)), _any((2, 4))]),
    "fft2d": (_cplx(None, lambda tf, z: tf.signal.fft2d(z)), [_any((2, 3)), _any((2, 3))]),
    "ifft2d": (_cplx(None, lambda tf, z: tf.signal.ifft2d(z)), [_any((2, 3)), _any((2, 3))]),
    "fft3d": (_cplx(None, lambda tf, z: tf.signal.fft3d(z)), [_any((2, 2, 3)), _any((2, 2, 3))]),
    "ifft3d": (_cplx(None, lambda tf, z: tf.signal.ifft3d(z)), [_any((2, 2, 3)), _any((2, 2, 3))]),
    "rfft_even": (lambda tf, x: _parts(tf, tf.signal.rfft(x)), [_any((2, 6))]),
    "rfft_odd": (lambda tf, x: _parts(tf, tf.signal.rfft(x, fft_length=[5])), [_any((2, 5))]),
    "rfft_padded": (lambda tf, x: _parts(tf, tf.signal.rfft(x, fft_length=[8])), [_any((2, 5))]),
    "irfft_even": (lambda tf, x, y: tf.signal.irfft(tf.complex(x, y)), [_any((2, 4)), _any((2, 4))]),
    "irfft_odd": (lambda tf, x, y: tf.signal.irfft(tf.complex(x, y), fft_length=[5]), [_any((2, 3)), _any((2, 3))]),
    "rfft2d": (lambda tf, x: _parts(tf, tf.signal.rfft2d(x)), [_any((3, 4))]),
    "rfft2d_odd": (lambda tf, x: _parts(tf, tf.signal.rfft2d(x, fft_length=[3, 5])), [_any((3, 4))]),
    "irfft2d": (lambda tf, x, y: tf.signal.irfft2d(tf.complex(x, y)), [_any((3, 3)), _any((3, 3))]),
    "irfft2d_odd": (lambda tf, x, y: tf.signal.irfft2d(tf.complex(x, y), fft_length=[3, 5]),
                    [_any((3, 3)), _any((3, 3))]),
}


def _parts(tf, w):
    return tf.stack([tf.math.real(w), tf.math.imag(w)])


def _tri(tf, a):
    """A well-conditioned lower-triangular matrix of a."""
    return tf.linalg.band_part(a, -1, 0) + tf.constant(3.0 * np.eye(a.shape[-1]), a.dtype)


LINALG = {
    "banded_triangular_solve_lower": (lambda tf, b, r: tf.linalg.banded_triangular_solve(b + _band_shift(tf), r),
                                      [_any((2, 3)), _any((3, 2))]),
    "banded_triangular_solve_upper_adjoint": (
        lambda tf, b, r: tf.linalg.banded_triangular_solve(b + _band_shift(tf, upper=True), r, lower=False,
                                                           adjoint=True), [_any((2, 3)), _any((3, 2))]),
    "qr": (lambda tf, x: tf.concat(list(tf.linalg.qr(x)), axis=0), [_any((3, 3))]),
    "qr_wide_reduced": (lambda tf, x: tf.concat([tf.reshape(t, [-1]) for t in tf.linalg.qr(x)], axis=0),
                        [_any((3, 2))]),
    "svd_values": (lambda tf, x: tf.linalg.svd(x)[0], [_any((3, 2))]),
    "svd_vectors_squared": (lambda tf, x: tf.concat([tf.square(t) for t in tf.linalg.svd(x)[1:]], axis=0),
                            [_any((3, 3))]),
    "eigh_vectors": (lambda tf, x: tf.concat([tf.linalg.eigh(x + tf.linalg.matrix_transpose(x))[0][None],
                                              tf.square(tf.linalg.eigh(x + tf.linalg.matrix_transpose(x))[1])],
                                             axis=0), [_any((3, 3))]),
    "eig_real_values": (lambda tf, x: tf.math.real(tf.linalg.eigvals(x + tf.constant(
        np.diag([0.0, 3.0, 6.0]), tf.float64))), [_any((3, 3), 0.1, 0.6)]),
    "tridiagonal_matmul": (lambda tf, d, r: tf.linalg.tridiagonal_matmul(d, r), [_any((3, 4)), _any((4, 2))]),
    "tridiagonal_solve_no_pivoting": (
        lambda tf, d, r: tf.linalg.tridiagonal_solve(d + tf.constant([[0.0] * 4, [4.0] * 4, [0.0] * 4], tf.float64),
                                                     r, partial_pivoting=False), [_any((3, 4)), _any((4, 2))]),
    "matrix_solve_adjoint": (lambda tf, a, b: tf.linalg.solve(a + tf.constant(3.0 * np.eye(3), tf.float64), b,
                                                              adjoint=True), [_any((3, 3)), _any((3, 2))]),
    "matrix_inverse_adjoint": (lambda tf, a: tf.linalg.inv(a + tf.constant(3.0 * np.eye(3), tf.float64),
                                                           adjoint=True), [_any((3, 3))]),
    "triangular_solve_lower_adjoint": (lambda tf, a, b: tf.linalg.triangular_solve(_tri(tf, a), b, lower=True,
                                                                                   adjoint=True),
                                       [_any((3, 3)), _any((3, 2))]),
    "lstsq_fast_regularized": (lambda tf, a, b: tf.linalg.lstsq(a, b, l2_regularizer=0.5, fast=True),
                               [_any((4, 2)), _any((4, 3))]),
    "sqrtm_batch": (lambda tf, x: tf.linalg.sqrtm(_spd(tf, x)), [_any((2, 2, 2))]),
    "det_batch": (lambda tf, x: tf.linalg.det(x), [_any((2, 3, 3))]),
    "slogdet_batch": (lambda tf, x: tf.linalg.slogdet(x + tf.constant(3.0 * np.eye(3), tf.float64))[1],
                      [_any((2, 3, 3))]),
    "tensor_diag": (lambda tf, x: tf.linalg.tensor_diag(x), [_any((2, 2))]),
    "tensor_diag_part": (lambda tf, x: tf.linalg.tensor_diag_part(x), [_any((2, 3, 2, 3))]),
    "matrix_diag_offsets": (lambda tf, x: tf.linalg.diag(x, k=(-1, 1), num_rows=3, num_cols=4, align="LEFT_RIGHT"),
                            [_any((3, 3))]),
    "matrix_diag_padding": (lambda tf, x: tf.linalg.diag(x, k=1, num_cols=4, padding_value=0.5), [_any((2, 3))]),
    "matrix_diag_part_offsets": (lambda tf, x: tf.linalg.diag_part(x, k=(-1, 1), align="LEFT_LEFT"),
                                 [_any((2, 3, 4))]),
    "set_diag_offsets": (lambda tf, x, d: tf.linalg.set_diag(x, d, k=(0, 1), align="RIGHT_RIGHT"),
                         [_any((3, 4)), _any((2, 3))]),
    "sparse_dense_matmul_adjoints": (lambda tf, v, b: tf.sparse.sparse_dense_matmul(
        _sparse(tf, v, _SP_IDX, [3, 4]), b, adjoint_a=True, adjoint_b=True), [_any((4,)), _any((2, 3))]),
}


def _band_shift(tf, upper=False):
    """+3 on the main diagonal's band row (row 0 of a lower band, the last row of an upper one)."""
    rows = [[3.0] * 3, [0.0] * 3]
    return tf.constant(rows[::-1] if upper else rows, tf.float64)


SEGMENTS_SPARSE = {
    "segment_sum": (lambda tf, x: tf.math.segment_sum(x, [0, 0, 2]), [_any((3, 2))]),
    "segment_min": (lambda tf, x: tf.math.segment_min(x, [0, 0, 1]), [_distinct((3, 2))]),
    "unsorted_segment_max": (lambda tf, x: tf.math.unsorted_segment_max(x, [1, 0, 2, 1], 3), [_distinct((4, 2))]),
    "unsorted_segment_sum_2d_ids": (lambda tf, x: tf.math.unsorted_segment_sum(x, [[0, 2], [2, 1]], 4),
                                    [_any((2, 2, 3))]),
    "tensor_scatter_min": (lambda tf, t, u: tf.tensor_scatter_nd_min(t, [[0, 1], [2, 0], [1, 1]], u),
                           [_distinct((3, 2)), _distinct((3,), 0.29)]),
    "sparse_segment_sum": (lambda tf, x: tf.sparse.segment_sum(x, [0, 2, 0], [0, 0, 1]), [_any((3, 2))]),
    "sparse_segment_sum_num_segments": (lambda tf, x: tf.sparse.segment_sum(x, [0, 2, 2], [0, 2, 2], num_segments=4),
                                        [_any((3, 2))]),
    "sparse_segment_mean": (lambda tf, x: tf.sparse.segment_mean(x, [1, 2, 1], [0, 0, 1]), [_any((3, 2))]),
    "sparse_segment_mean_num_segments": (lambda tf, x: tf.sparse.segment_mean(x, [1, 2, 0], [1, 1, 3],
                                                                              num_segments=4), [_any((3, 2))]),
    "sparse_segment_sqrt_n": (lambda tf, x: tf.sparse.segment_sqrt_n(x, [0, 1, 2], [0, 0, 0]), [_any((3, 2))]),
    "sparse_segment_sqrt_n_num_segments": (lambda tf, x: tf.sparse.segment_sqrt_n(x, [2, 1, 2], [0, 0, 2],
                                                                                  num_segments=3), [_any((3, 2))]),
    "sparse_to_dense_reorder": (lambda tf, v: tf.sparse.to_dense(tf.sparse.reorder(
        _sparse(tf, v, _SP_IDX_UNORDERED, [3, 4]))), [_any((4,))]),
    "sparse_add_sparse": (lambda tf, a, b: tf.sparse.to_dense(tf.sparse.add(
        _sparse(tf, a, _SP_IDX, [3, 4]), _sparse(tf, b, _SP_IDX_B, [3, 4]))), [_any((4,)), _any((4,))]),
    "sparse_add_dense": (lambda tf, a, d: tf.sparse.add(_sparse(tf, a, _SP_IDX, [3, 4]), d),
                         [_any((4,)), _any((3, 4))]),
    "sparse_times_dense_broadcast": (lambda tf, a, d: (_sparse(tf, a, _SP_IDX, [3, 4]) * d).values,
                                     [_any((4,)), _any((1, 4))]),
    "sparse_div_dense": (lambda tf, a, d: (_sparse(tf, a, _SP_IDX, [3, 4]) / d).values, [_any((4,)), _any((3, 4))]),
    "sparse_reduce_sum": (lambda tf, a: tf.sparse.reduce_sum(_sparse(tf, a, _SP_IDX, [3, 4]), axis=1), [_any((4,))]),
    "sparse_reduce_sum_keepdims": (lambda tf, a: tf.sparse.reduce_sum(_sparse(tf, a, _SP_IDX, [3, 4]), axis=0,
                                                                      keepdims=True), [_any((4,))]),
    "sparse_slice": (lambda tf, a: tf.sparse.slice(_sparse(tf, a, _SP_IDX, [3, 4]), [1, 0], [2, 3]).values,
                     [_any((4,))]),
    "sparse_softmax": (lambda tf, a: tf.sparse.softmax(_sparse(tf, a, [[0, 0], [0, 2], [1, 1], [2, 0], [2, 3]],
                                                               [3, 4])).values, [_any((5,))]),
    "sparse_fill_empty_rows": (lambda tf, a: tf.sparse.to_dense(tf.sparse.fill_empty_rows(
        _sparse(tf, a, [[0, 1], [2, 0], [2, 3]], [4, 4]), tf.constant(0.5, tf.float64))[0]), [_any((3,))]),
}

ARRAY_WINDOW = {
    "fill": (lambda tf, v: tf.fill([2, 3], v), [_any(())]),
    "ensure_shape": (lambda tf, x: tf.ensure_shape(x, [None, 3]) * x, [_any((2, 3))]),
    "identity_n": (lambda tf, x, y: tf.concat([t * 1.5 for t in tf.identity_n([x, y])], axis=0),
                   [_any((2, 3)), _any((1, 3))]),
    "check_numerics": (lambda tf, x: tf.debugging.check_numerics(x * x, "x squared"), [_any((2, 3))]),
    "cumsum_inclusive_axis0": (lambda tf, x: tf.cumsum(x, axis=0), [_any((3, 2))]),
    "cumsum_exclusive_forward": (lambda tf, x: tf.cumsum(x, axis=-1, exclusive=True), [_any((2, 4))]),
    "cumsum_reverse_inclusive": (lambda tf, x: tf.cumsum(x, axis=1, reverse=True), [_any((2, 4))]),
    # (the exclusive scan's first element is log(0) = -inf: exp keeps the objective finite)
    "cumulative_logsumexp_exclusive_reverse": (lambda tf, x: tf.exp(tf.math.cumulative_logsumexp(
        x, axis=0, exclusive=True, reverse=True)), [_any((3, 2))]),
    "euclidean_norm_keepdims_axis0": (lambda tf, x: tf.math.reduce_euclidean_norm(x, axis=0, keepdims=True),
                                      [_any((3, 2))]),
    "reduce_min_keepdims_axis0": (lambda tf, x: tf.reduce_min(x, axis=0, keepdims=True), [_distinct((3, 2))]),
    "reduce_max_negative_axis": (lambda tf, x: tf.reduce_max(x, axis=-2), [_distinct((2, 3, 2))]),
    "reduce_prod_with_a_zero": (lambda tf, x: tf.reduce_prod(x, axis=0, keepdims=True),
                                [_const([[0.0, 1.5, -0.7], [1.3, 0.0, 0.8], [-0.9, 0.0, 1.1]])]),
    "stack_unstack_axis0": (lambda tf, x: tf.stack(tf.unstack(x, axis=0)[::-1], axis=1), [_any((3, 2))]),
    "reverse_axis0": (lambda tf, x: tf.reverse(x, axis=[0, 2]), [_any((2, 2, 3))]),
    "slice_begin_size": (lambda tf, x: tf.slice(x, [0, 1, 1], [2, -1, 1]), [_any((3, 3, 2))]),
    "reverse_sequence_batch_axis1": (lambda tf, x: tf.reverse_sequence(x, [2, 0, 3], seq_axis=0, batch_axis=1),
                                     [_any((3, 3))]),
    "depth_to_space_block3": (lambda tf, x: tf.nn.depth_to_space(x, 3), [_any((1, 1, 2, 9))]),
    "space_to_depth_block3": (lambda tf, x: tf.nn.space_to_depth(x, 3), [_any((1, 3, 3, 2))]),
    "dynamic_partition_three": (lambda tf, x: tf.concat(tf.dynamic_partition(x, [2, 0, 2, 1], 3), 0) *
                                tf.constant([[1.0], [2.0], [-1.0], [0.5]], tf.float64), [_any((4, 2))]),
    # piecewise linear through a float32 result: a wide step keeps rounding small (the clip is 3.4 away)
    "saturate_cast": (lambda tf, x: tf.cast(tf.dtypes.saturate_cast(x * 1e30, tf.float32), tf.float64) * 1e-30,
                      [_const([[-5e8, 0.5, 7e8], [1.25, -0.75, 2.0]])], {"h": 1e-2}),
    "extract_patches_valid_rates": (lambda tf, x: tf.image.extract_patches(x, [1, 2, 2, 1], [1, 1, 2, 1],
                                                                          [1, 2, 1, 1], "VALID"),
                                    [_any((1, 4, 5, 2))]),
    "extract_patches_same": (lambda tf, x: tf.image.extract_patches(x, [1, 2, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1],
                                                                   "SAME"), [_any((1, 3, 4, 1))]),
    "extract_volume_patches": (lambda tf, x: tf.extract_volume_patches(x, [1, 2, 2, 1, 1], [1, 1, 2, 1, 1], "SAME"),
                               [_any((1, 2, 3, 2, 2))]),
    # boxes are float32 only in TF: float32 with h = 1e-3 (the sample points stay inside their cells)
    "crop_and_resize_image_and_boxes": (
        lambda tf, img, boxes: tf.image.crop_and_resize(img, boxes, [1, 0], [3, 2]),
        [_any((2, 4, 5, 1)), _const([[0.1, 0.2, 0.8, 0.7], [0.25, 0.05, 0.9, 0.6]])], {"dtype": "float32", "h": 1e-3}),
    "crop_and_resize_flipped_box": (
        lambda tf, img, boxes: tf.image.crop_and_resize(img, boxes, [0], [2, 3]),
        [_any((1, 3, 4, 2)), _const([[0.8, 0.7, 0.15, 0.1]])], {"dtype": "float32", "h": 1e-3}),
    "rgb_to_hsv": (lambda tf, x: tf.image.rgb_to_hsv(x), [_const([[[0.9, 0.2, 0.4], [0.1, 0.7, 0.3]],
                                                                   [[0.35, 0.15, 0.8], [0.6, 0.55, 0.05]]])]),
    "dilation2d_strided_same_rates": (lambda tf, x, f: tf.nn.dilation2d(x, f, [1, 2, 1, 1], "SAME", "NHWC",
                                                                        [1, 1, 2, 1]),
                                      [_distinct((1, 4, 5, 1), 0.31), _distinct((2, 2, 1), 0.07)]),
    "bias_add_nchw": (lambda tf, x, b: tf.nn.bias_add(x, b, data_format="NCHW"), [_any((2, 3, 2)), _any((3,))]),
    "resize_bilinear_downscale": (lambda tf, x: tf.image.resize(x, [2, 3], "bilinear"), [_any((1, 3, 5, 2))],
                                  {"dtype": "float32"}),
    "depthwise_conv2d_strided_valid": (lambda tf, x, f: tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "VALID"),
                                       [_any((1, 5, 5, 2)), _any((2, 2, 2, 2))]),
    "conv2d_explicit_padding": (lambda tf, x, f: tf.nn.conv2d(x, f, 1, [[0, 0], [1, 0], [0, 2], [0, 0]]),
                                [_any((1, 3, 3, 1)), _any((2, 2, 1, 2))]),
    "conv2d_transpose_valid_strided": (lambda tf, x, f: tf.nn.conv2d_transpose(x, f, [1, 5, 4, 1], [1, 2, 1, 1],
                                                                                "VALID"),
                                       [_any((1, 2, 3, 2)), _any((3, 2, 1, 2))]),
    "conv3d_strided_same": (lambda tf, x, f: tf.nn.conv3d(x, f, [1, 2, 1, 2, 1], "SAME"),
                            [_any((1, 3, 2, 3, 1)), _any((2, 2, 2, 1, 2))]),
}

# the forms benchmarks/suite_gradients.py found missing once each op was differentiated: broadcast
# operands, the other value of an option, upstream gradients that are not ones
FORMS = {
    "xlogy_broadcast": (lambda tf, x, y: tf.math.xlogy(x, y), [_any((2, 1)), _pos((3,))]),
    "xdivy_broadcast": (lambda tf, x, y: tf.math.xdivy(x, y), [_any((3,)), _any((2, 1))]),
    "xlog1py_broadcast": (lambda tf, x, y: tf.math.xlog1py(x, y), [_any((2, 3)), _pos((1, 3))]),
    "atan2_broadcast": (lambda tf, y, x: tf.atan2(y, x), [_any((2, 3)), _any((3,))]),
    "nextafter_broadcast": (lambda tf, x, y: tf.math.nextafter(x, y), [_any((2, 3)), _any((1, 3))]),
    "igammac_broadcast": (lambda tf, a, x: tf.math.igammac(a, x), [_pos((3,), 0.8, 2.5), _pos((2, 1), 0.3, 2.5)]),
    "complex_broadcast": (_cplx(None, lambda tf, z: z * z), [_any((2, 3)), _any((3,))]),
    "batch_matmul_adjoints": (lambda tf, a, b: tf.matmul(a, b, adjoint_a=True, adjoint_b=True),
                              [_any((2, 3, 2)), _any((2, 4, 3))]),
    "batch_matmul_transpose_a_broadcast": (lambda tf, a, b: tf.matmul(a, b, transpose_a=True),
                                           [_any((1, 3, 2)), _any((2, 3, 4))]),
    "qr_full_matrices": (lambda tf, x: tf.concat(list(tf.linalg.qr(x, full_matrices=True)), axis=0), [_any((3, 3))]),
    "svd_values_only": (lambda tf, x: tf.linalg.svd(x, compute_uv=False), [_any((2, 3, 2))]),
    "svd_full_matrices_values": (lambda tf, x: tf.linalg.svd(x, full_matrices=True)[0], [_any((3, 3))]),
    "eig_values_with_vectors": (lambda tf, x: tf.math.real(tf.linalg.eig(x + tf.constant(
        np.diag([0.0, 3.0, 6.0]), tf.float64))[0]), [_any((3, 3), 0.1, 0.6)]),
    "tridiagonal_solve_perturb_singular": (
        lambda tf, d, r: tf.linalg.tridiagonal_solve(d + tf.constant([[0.0] * 4, [4.0] * 4, [0.0] * 4], tf.float64),
                                                     r, partial_pivoting=True, perturb_singular=True),
        [_any((3, 4)), _any((4, 2))]),
    "sparse_segment_sum_sparse_gradient": (lambda tf, x: tf.sparse.segment_sum(x, [0, 2, 0], [0, 0, 1],
                                                                               sparse_gradient=True), [_any((3, 2))]),
    "sparse_segment_mean_sparse_gradient": (lambda tf, x: tf.sparse.segment_mean(
        x, [1, 2, 1], [0, 1, 1], num_segments=3, sparse_gradient=True), [_any((3, 2))]),
    "sparse_segment_sqrt_n_sparse_gradient": (lambda tf, x: tf.sparse.segment_sqrt_n(
        x, [2, 1, 2], [0, 0, 1], sparse_gradient=True), [_any((3, 2))]),
    "sparse_to_dense_unvalidated": (lambda tf, v: tf.sparse.to_dense(_sparse(tf, v, _SP_IDX, [3, 4]), 0.5,
                                                                     validate_indices=False), [_any((4,))]),
    "mirror_pad_symmetric_batch": (lambda tf, x: tf.pad(x, [[0, 0], [1, 2], [2, 1]], mode="SYMMETRIC"),
                                   [_any((2, 3, 2))]),
    "crop_and_resize_nearest_image": (lambda tf, img: tf.image.crop_and_resize(
        img, [[0.1, 0.2, 0.8, 0.7]], [0], [3, 2], method="nearest"), [_any((1, 4, 5, 2))], {"dtype": "float32"}),
    "max_pool_with_argmax_same": (lambda tf, x: tf.nn.max_pool_with_argmax(x, 2, 2, "SAME")[0],
                                  [_distinct((2, 3, 3, 2), 0.11)], {"dtype": "float32"}),
    "max_pool_with_argmax_batch_in_index": (lambda tf, x: tf.nn.max_pool_with_argmax(
        x, [2, 1], 1, "VALID", include_batch_in_index=True)[0], [_distinct((2, 3, 2, 1), 0.13)], {"dtype": "float32"}),
    "lrn_signed": (lambda tf, x: tf.nn.local_response_normalization(x, 1, bias=1.5, alpha=0.3, beta=0.6),
                   [_any((1, 2, 2, 3))], {"dtype": "float32", "h": 1e-2}),
}

FIRST_ORDER = {"special": SPECIAL, "complex_fft": COMPLEX, "linalg": LINALG, "segments_sparse": SEGMENTS_SPARSE,
               "array_window": ARRAY_WINDOW, "forms": FORMS}


# -- checks -------------------------------------------------------------------------------------------------
def _level(tf, fn, ts, Rs, k):
    """L0 = sum(R0 * fn(ts)); L(k) = sum over inputs of sum(R(k)[i] * (g + g**2)), g = dL(k-1)/dts[i]
    (None: no term). The square makes the upstream gradient of every kernel of the derivative depend
    on x, so each *Grad kernel's own gradient (MaxPoolGradGrad's, ...) is visible at the next order;
    the linear term keeps that upstream gradient non-zero where g is zero (relu's masked side)."""
    if k == 0:
        return tf.reduce_sum(Rs[0] * fn(tf, *ts))
    with tf.GradientTape(persistent=True) as tape:
        for t in ts:
            tape.watch(t)
        inner = _level(tf, fn, ts, Rs, k - 1)
    gs = tape.gradient(inner, ts)
    terms = []
    for r, g in zip(Rs[k], gs):
        if g is not None:
            g = tf.convert_to_tensor(g)
            terms.append(tf.reduce_sum(r * (g + g * g)))
    return tf.add_n(terms) if terms else tf.constant(0.0, ts[0].dtype)


def check_order(tf, name: str, fn, xs: list[np.ndarray], rng: np.random.Generator, *, order: int = 0,
                dtype: str = "float64", h: float = 1e-6, tolerance: Tolerance = TOL64) -> None:
    """The tape's gradient of L(order) (see _level) against central differences of L(order), element
    by element of every input; `order` 0 is the gradient of sum(R * fn(x...))."""
    dt = getattr(tf, dtype)
    consts = [tf.constant(x, dtype=dt) for x in xs]
    out_shape = tuple(fn(tf, *consts).shape)
    Rs = [tf.constant(np.round(rng.uniform(-2.0, 2.0, size=out_shape), 2), dtype=dt)]
    Rs += [[tf.constant(np.round(rng.uniform(-2.0, 2.0, size=x.shape), 2), dtype=dt) for x in xs]
           for _ in range(order)]

    def objective(vals):
        return float(_level(tf, fn, [tf.constant(v, dtype=dt) for v in vals], Rs, order).numpy())

    ts = [tf.constant(x, dtype=dt) for x in xs]
    with tf.GradientTape(persistent=True) as tape:
        for t in ts:
            tape.watch(t)
        top = _level(tf, fn, ts, Rs, order)
    grads = tape.gradient(top, ts)
    for k, (x, g) in enumerate(zip(xs, grads)):
        want = np.zeros(x.shape)
        for idx in np.ndindex(x.shape):
            up = [v.copy() for v in xs]
            dn = [v.copy() for v in xs]
            up[k][idx] += h
            dn[k][idx] -= h
            want[idx] = (objective(up) - objective(dn)) / (2 * h)
        got = np.zeros(x.shape) if g is None else np.asarray(tf.convert_to_tensor(g).numpy(), dtype=np.float64)
        if not (np.all(np.isfinite(want)) and np.all(np.isfinite(got))):   # NaN compares as no error
            fail(f"d/dinput{k}={got.tolist()}, central differences {want.tolist()}: not all finite (an input "
                 f"outside the op's domain?)", call=f"{name}(...)")
        what = "gradient" if order == 0 else f"order-{order + 1} derivative"
        assert_close(got, want, call=f"tape {what} of {name}(...) (weighted by a signed R) vs central differences "
                     f"({dtype}, h={h})", what=f"d/dinput{k}", tolerance=tolerance)


def _run_all(cases: dict, run) -> None:
    """Run every case; one failure lists all failing cases (each with its own message)."""
    failures = []
    for name in cases:
        try:
            run(name)
        except ConformanceFailure as e:
            failures.append(f"{name}: {e}")
        except Exception as e:  # noqa: BLE001 - an error is a failure of that case, named
            failures.append(f"{name}: raised {type(e).__name__}: {str(e)[:300]}")
    if failures:
        fail(f"{len(failures)} of {len(cases)} gradients differ:\n" + "\n".join(failures))


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("family", list(FIRST_ORDER))
def test_gradient_table_first_order(backend, tf, family):
    """Every op of the family: the tape's gradient of sum(R * f(x...)) equals float64 central
    differences of the backend's own forward pass."""
    cases = FIRST_ORDER[family]

    def run(name):
        fn, makers, *opts = cases[name]
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        xs = [np.asarray(m(rng), dtype=np.float64) for m in makers]
        opt = opts[0] if opts else {}
        if opt.get("dtype") == "float32":
            check_order(tf, name, fn, xs, rng, dtype="float32", h=opt.get("h", 1e-2), tolerance=TOL32)
        else:
            check_order(tf, name, fn, xs, rng, h=opt.get("h", 1e-6))
    _run_all(cases, run)


# -- higher orders: name -> (f(tf, *inputs), input makers, order, dtype) ---------------------------------------------
def _sq(f):
    return lambda tf, *xs: tf.square(f(tf, *xs))


HIGHER = {
    "relu_grad": (lambda tf, x: tf.nn.relu(x) * x, [_any((2, 3))], 1, "float64"),
    "relu6_grad": (lambda tf, x: tf.nn.relu6(x) * x, [_const([[-1.5, 0.5, 5.5], [6.5, 3.1, -0.2]])], 1, "float64"),
    "leaky_relu_grad": (lambda tf, x: tf.nn.leaky_relu(x, alpha=0.3) * x, [_any((2, 3))], 1, "float64"),
    # (SoftsignGrad: TF 2.21 has no gradient, simdist has one: a documented departure, docs/architecture.md)
    "elu_selu_grad_grad": (lambda tf, x: tf.nn.elu(x) + tf.nn.selu(x), [_any((2, 3))], 2, "float64"),
    "bias_add_grad": (lambda tf, x, b: _sq(lambda tf_, u, v: tf_.nn.bias_add(u, v))(tf, x, b),
                      [_any((2, 2, 3)), _any((3,))], 1, "float64"),
    "max_pool_grad_and_grad_grad": (_sq(lambda tf, x: tf.nn.max_pool2d(x, 2, 1, "VALID")),
                                    [_distinct((1, 3, 3, 1))], 2, "float64"),
    "max_pool_grad_same_strided": (_sq(lambda tf, x: tf.nn.max_pool2d(x, 3, 2, "SAME")),
                                   [_distinct((1, 4, 4, 1))], 1, "float64"),
    "avg_pool_grad": (_sq(lambda tf, x: tf.nn.avg_pool2d(x, 2, 1, "SAME")), [_any((1, 3, 3, 1))], 1, "float64"),
    "max_pool3d_grad_and_grad_grad": (_sq(lambda tf, x: tf.nn.max_pool3d(x, 2, 1, "VALID")),
                                      [_distinct((1, 2, 3, 3, 1), 0.21)], 2, "float32"),
    "avg_pool3d_grad": (_sq(lambda tf, x: tf.nn.avg_pool3d(x, [1, 2, 2], [1, 1, 2], "SAME")),
                        [_any((1, 2, 3, 3, 1))], 1, "float32"),
    "conv2d_backprop_filter_and_input": (_sq(lambda tf, x, f: tf.nn.conv2d(x, f, 2, "SAME")),
                                         [_any((1, 3, 3, 1)), _any((2, 2, 1, 2))], 1, "float64"),
    "conv3d_backprop_filter_and_input": (_sq(lambda tf, x, f: tf.nn.conv3d(x, f, [1, 1, 1, 1, 1], "VALID")),
                                         [_any((1, 2, 3, 2, 1)), _any((1, 2, 2, 1, 1))], 1, "float32"),
    "depthwise_backprop_filter_and_input": (_sq(lambda tf, x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "VALID")),
                                            [_any((1, 3, 3, 2)), _any((2, 2, 2, 1))], 1, "float64"),
    "strided_slice_grad": (_sq(lambda tf, x: x[1:, ::-2]), [_any((3, 4))], 1, "float64"),
    "gather_inner_axis_grad": (_sq(lambda tf, x: tf.gather(x, [2, 0, 2], axis=1)), [_any((2, 3))], 1, "float64"),
    "mirror_pad_grad": (_sq(lambda tf, x: tf.pad(x, [[1, 1], [0, 2]], mode="REFLECT")), [_any((3, 3))], 1, "float64"),
    "mirror_pad_grad_symmetric": (_sq(lambda tf, x: tf.pad(x, [[2, 0], [1, 1]], mode="SYMMETRIC")), [_any((3, 2))], 1,
                                  "float64"),
    "avg_pool_grad_valid_strided": (_sq(lambda tf, x: tf.nn.avg_pool2d(x, [2, 3], [1, 2], "VALID")),
                                    [_any((1, 3, 5, 1))], 1, "float64"),
    "max_pool_grad_grad_same": (_sq(lambda tf, x: tf.nn.max_pool2d(x, 2, 2, "SAME")), [_distinct((1, 3, 3, 1))], 2,
                                "float64"),
    "conv2d_backprop_valid_dilated": (_sq(lambda tf, x, f: tf.nn.conv2d(x, f, 1, "VALID", dilations=[1, 2, 1, 1])),
                                      [_any((1, 4, 3, 1)), _any((2, 2, 1, 1))], 1, "float32"),
    "depthwise_backprop_same_strided": (_sq(lambda tf, x, f: tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "SAME")),
                                        [_any((1, 3, 3, 1)), _any((2, 2, 1, 2))], 1, "float64"),
    "conv3d_backprop_same_strided": (_sq(lambda tf, x, f: tf.nn.conv3d(x, f, [1, 1, 2, 1, 1], "SAME")),
                                     [_any((1, 2, 3, 2, 1)), _any((2, 2, 1, 1, 1))], 1, "float32"),
    "max_pool3d_grad_same": (_sq(lambda tf, x: tf.nn.max_pool3d(x, [1, 2, 2], [1, 2, 2], "SAME")),
                             [_distinct((1, 2, 3, 3, 1), 0.21)], 1, "float32"),
    "avg_pool3d_grad_valid": (_sq(lambda tf, x: tf.nn.avg_pool3d(x, [2, 1, 2], 1, "VALID")),
                              [_any((1, 2, 2, 3, 1))], 1, "float32"),
}


@clause("autodiff.op-gradients", ref="tf221")
def test_gradient_table_higher_orders(backend, tf, onednn_float32):
    """Second and third derivatives through the *Grad kernels: the outer tape's gradient of the
    nested level against central differences of that level."""
    def run(name):
        fn, makers, order, dtype = HIGHER[name]
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        xs = [np.asarray(m(rng), dtype=np.float64) for m in makers]
        if dtype == "float64":
            check_order(tf, name, fn, xs, rng, order=order)
        else:
            check_order(tf, name, fn, xs, rng, order=order, dtype=dtype, h=1e-2, tolerance=TOL32)
    _run_all(HIGHER, run)


# -- gamma samples: the implicit reparameterization gradient in alpha --------------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
def test_gradient_table_gamma_samples_in_alpha(backend, tf):
    """A Gamma(alpha) sample x moves with alpha as its CDF P(alpha, x) stays fixed (TF's
    random_gamma_grad): dx/dalpha = -(dP/dalpha) / p(x; alpha), p the density; dP/dalpha from float64
    central differences of the backend's igamma, p from NumPy. Stateful (RandomGamma) and stateless
    (StatelessRandomGammaV3) draws, alpha broadcast over the sample shape, a signed upstream R."""
    import math
    alpha = np.array([0.7, 1.8, 3.5])
    R = np.round(np.random.default_rng(11).uniform(-2.0, 2.0, size=(2, 3)), 2)
    draws = {"random.gamma(seed=7)": lambda a: tf.random.gamma([2], a, dtype=tf.float64, seed=7),
             "random.stateless_gamma(seed=[3, 4])": lambda a: tf.random.stateless_gamma([2, 3], [3, 4], a,
                                                                                         dtype=tf.float64)}
    for call, draw in draws.items():
        a = tf.constant(alpha, tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(a)
            x = draw(a)
            loss = tf.reduce_sum(tf.constant(R, tf.float64) * x)
        got = tape.gradient(loss, a)
        xs = np.asarray(x.numpy(), dtype=np.float64)
        h = 1e-6
        dP = (np.asarray(tf.math.igamma(tf.constant(alpha + h), tf.constant(xs)).numpy())
              - np.asarray(tf.math.igamma(tf.constant(alpha - h), tf.constant(xs)).numpy())) / (2 * h)
        dens = np.exp((alpha - 1) * np.log(xs) - xs - np.array([math.lgamma(v) for v in alpha]))
        want = (R * -dP / dens).sum(axis=0)
        assert_close(got, want, call=f"tape.gradient(sum(R * {call} with alpha={alpha.tolist()}), alpha)",
                     what="d/dalpha", tolerance=Tolerance(rtol=1e-4, atol=1e-5))


# -- no gradient in TF 2.21: the tape raises LookupError -------------------------------------------------------------
def _second(f):
    """The gradient of f's first derivative (whose backward kernel TF cannot differentiate)."""
    def g(tf, x):
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.square(f(tf, x)))
        return inner.gradient(y, x)
    return g


REFUSED = {  # name -> (f(tf, x), x.shape, the error class TF 2.21 raises; a string names one of tf.errors)
    "adjust_contrast": (lambda tf, x: tf.image.adjust_contrast(x, 1.5), (1, 2, 2, 3), LookupError),
    "adjust_hue": (lambda tf, x: tf.image.adjust_hue(x, 0.2), (2, 2, 3), LookupError),
    "adjust_saturation": (lambda tf, x: tf.image.adjust_saturation(x, 0.7), (2, 2, 3), LookupError),
    "truncatemod": (lambda tf, x: tf.truncatemod(x, tf.constant(0.7, x.dtype)), (2, 3), LookupError),
    "rfft3d": (lambda tf, x: tf.math.real(tf.signal.rfft3d(x)), (2, 2, 2), LookupError),
    "irfft3d": (lambda tf, x: tf.signal.irfft3d(tf.complex(x, x)), (2, 2, 2), LookupError),
    "sparse_reduce_max": (lambda tf, x: tf.sparse.reduce_max(tf.sparse.from_dense(x), axis=1), (2, 3), LookupError),
    "unique": (lambda tf, x: tf.unique(tf.reshape(x, [-1]))[0], (2, 3), LookupError),
    "lrn_second": (_second(lambda tf, x: tf.nn.local_response_normalization(x, 1)), (1, 2, 2, 3), LookupError),
    "dilation2d_second": (_second(lambda tf, x: tf.nn.dilation2d(x, tf.zeros([2, 2, 1], x.dtype), [1, 1, 1, 1], "VALID",
                                                                 "NHWC", [1, 1, 1, 1])), (1, 3, 3, 1), LookupError),
    "crop_and_resize_second": (_second(lambda tf, x: tf.image.crop_and_resize(x, [[0.1, 0.1, 0.9, 0.8]], [0], [2, 2])),
                               (1, 3, 3, 1), LookupError),
    "max_pool_with_argmax_second": (_second(lambda tf, x: tf.nn.max_pool_with_argmax(x, 2, 1, "VALID")[0]),
                                    (1, 3, 3, 1), LookupError),
    # gradients TF registers but refuses: _MatrixSolveLsGrad (fast=False), and the sparse extrema's, whose
    # one-gradient signature the tape calls with the two output gradients
    "lstsq_not_fast": (lambda tf, a: tf.linalg.lstsq(a, tf.ones([4, 2], a.dtype), fast=False), (4, 3), ValueError),
    "sparse_maximum": (lambda tf, v: tf.sparse.maximum(_sparse(tf, v, _SP_IDX, [3, 4]),
                                                       _sparse(tf, v * 0.5, _SP_IDX_B, [3, 4])).values,
                       (4,), TypeError),
    "sparse_minimum": (lambda tf, v: tf.sparse.minimum(_sparse(tf, v, _SP_IDX, [3, 4]),
                                                       _sparse(tf, v * 0.5, _SP_IDX_B, [3, 4])).values,
                       (4,), TypeError),
    # TF's _RFFTGradHelper pads the gradient back but never crops it: an fft_length shorter than the input
    # fails in the gradient's AddV2
    "rfft_cropped": (lambda tf, x: tf.math.real(tf.signal.rfft(x, fft_length=[5])), (2, 6), "InvalidArgumentError"),
    "igamma_order_second": (_second(lambda tf, a: tf.math.igamma(a, tf.constant(0.8, a.dtype))), (2, 3), LookupError),
}


@clause("autodiff.op-gradients", ref="tf221")
def test_gradient_table_ops_without_a_gradient_raise_tf_errors(backend, tf):
    """TF 2.21 registers no gradient for these op types (LookupError when a tape reaches one), or
    registers one that refuses (ValueError, TypeError): the same error class here."""
    failures = []
    for name, (fn, shape, error) in REFUSED.items():
        cls = getattr(tf.errors, error) if isinstance(error, str) else error
        x = tf.constant(np.linspace(0.15, 0.85, int(np.prod(shape))).reshape(shape), dtype=tf.float32)
        try:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(fn(tf, x))
            g = tape.gradient(y, x)
        except Exception as e:  # noqa: BLE001 - the wrong error class is the finding
            if not isinstance(e, cls):
                failures.append(f"{name}: raised {type(e).__name__}: {str(e)[:200]}, but should raise {cls.__name__}")
            continue
        failures.append(f"{name}: gave {'None' if g is None else 'a gradient'}, but should raise {cls.__name__}")
    if failures:
        fail(f"{len(failures)} of {len(REFUSED)} gradients TF refuses:\n" + "\n".join(failures),
             call="tape.gradient(reduce_sum(f(x)), x)")
