"""Size-1 and size-0 dimensions through every op family, by rule (sixty-sixth session, usweep66; usweep66_cases.py):
tf.norm/linalg.norm by ord × axis form × keepdims, the tf.math reductions, argmax/argmin, moments, l2_normalize,
normalize_moments, softmaxes, top_k/sort/argsort, the scans, matmul/matvec/einsum/tensordot with size-1 batch and
contraction dimensions, the shape ops, gather/scatter, concat/stack/split, one_hot, where/boolean_mask, conv/pool
with 1x1 windows on 1x1 images, segment ops of one segment, linalg on 1x1 and batches of 1, fft of length 1, image
ops on 1x1 images — on shapes placing a 1 (and a 0) first, in the middle and last, ranks 0-4: each case's eager
result, its traced result with static shapes, the static shapes under all-None TensorSpecs and, for the
reductions, norms and layers, GradientTape gradients, compared with TF 2.21's recorded answers by bits (`python -m
simdist.conformance.suite.test_usweep66 --record` rewrites usweep66_reference.json.gz)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.usweep66_cases import REF

_check = REF.check


@pytest.mark.clause("ops.linalg-more")
def test_usweep66_norms_keep_unreduced_unit_dims(backend: Any) -> None:
    """tf.norm by ord (euclidean, fro, 1, 2, inf, 0.5) × axis (None, -1, each, pairs) × keepdims, linalg.norm,
    euclidean_norm, normalize, gradients through size-1 axes: TF 2.21's shapes, bits, static shapes (the matrix
    2-norm's transposed result: every dimension unknown in the graph) or refusal classes."""
    _check(backend, "u-norm")


@pytest.mark.clause("function.static-shapes")
def test_usweep66_reductions_over_unit_and_empty_axes(backend: Any) -> None:
    """reduce_sum/mean/max/prod/logsumexp/std/euclidean_norm/any, integer sum/mean, count_nonzero × axis forms ×
    keepdims on shapes holding 1s and 0s; argmax/argmin; gradients: TF 2.21's bits and static shapes."""
    _check(backend, "u-reduce")


@pytest.mark.clause("ops.sort")
def test_usweep66_statistics_softmax_sort_scans_along_unit_axes(backend: Any) -> None:
    """moments, l2_normalize, sufficient_statistics/normalize_moments, softmax/log_softmax, cumsum/cumprod/
    cumulative_logsumexp (exclusive, reverse), sort/argsort, top_k k=0/1/2 along size-1 and size-0 axes."""
    _check(backend, "u-stats")


@pytest.mark.clause("function.grappler-rewrites")
def test_usweep66_contractions_with_unit_batch_and_inner_dims(backend: Any) -> None:
    """matmul (transposed operands folded into the product when traced), @, matvec, einsum, tensordot with size-1
    and size-0 batch, contraction and free dimensions, broadcast batches; gradients."""
    _check(backend, "u-matmul")


@pytest.mark.clause("ops.shape-errors")
def test_usweep66_shape_ops_on_unit_and_empty_dims(backend: Any) -> None:
    """squeeze/expand_dims/reshape/broadcast_to/tile/transpose/reverse/pad, gather/gather_nd/scatter, concat/
    stack/split/unstack, one_hot depth 0/1/2, where/boolean_mask, shape/size/rank: values, static shapes, errors."""
    _check(backend, "u-shape")


@pytest.mark.clause("ops.nn-wrapper-order")
def test_usweep66_conv_pool_segments_on_unit_windows(backend: Any) -> None:
    """conv2d/conv1d/depthwise_conv2d, max/avg pools with 1x1 and 2x2 windows on 1x1 (and empty) images, SAME/VALID,
    strides 1/2; bias_add; segment and unsorted segment ops of one segment."""
    _check(backend, "u-nn")


@pytest.mark.clause("ops.linalg-more")
def test_usweep66_linalg_of_1x1_and_batches_of_one(backend: Any) -> None:
    """det/slogdet/inv/cholesky/logdet/trace/eigh/expm/sqrtm/lu/pinv/qr/svd/eig/solve/triangular_solve/lstsq on
    1x1, batches of one, 0x0 and 1xn matrices: TF 2.21's bits, static shapes or refusal classes."""
    _check(backend, "u-linalg")


@pytest.mark.clause("ops.signal-fft")
def test_usweep66_fft_of_length_one(backend: Any) -> None:
    """fft/ifft/fft2d/rfft/irfft/rfft2d/fftshift of length 1 and 0, fft_length 1 and 2."""
    _check(backend, "u-fft")


@pytest.mark.clause("ops.image")
def test_usweep66_image_ops_on_1x1_images(backend: Any) -> None:
    """resize by every method to 1x1/2x2/1x3, flips, rot90, standardization, color conversions and adjustments,
    crops and pads, total_variation, sobel_edges, image_gradients, psnr of 1x1 images."""
    _check(backend, "u-image")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
