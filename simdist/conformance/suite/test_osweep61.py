"""keras.ops by rule (sixty-first session, osweep61; osweep61_cases.py): ops.image (resize at every interpolation
with antialias, crop/pad to the aspect ratio and fill_value; affine_transform and map_coordinates at every fill_mode;
perspective_transform, crop/pad_images, extract_patches(_3d), the colour conversions over out-of-range values,
gaussian_blur, sobel_edges, ssim, scale_and_translate), ops.nn's activations with their options off their defaults,
softmaxes, normalizations, psnr, moments and the crossentropies, keras.ops' math and numpy reductions × axis ×
keepdims, each op's inferred output spec on symbolic inputs, adaptive pools, stft/istft, fori_loop, norm's ords and
conv_transpose — crossed with value classes (±0, subnormals, ±inf, NaN, large, ties, images outside [0, 1] and
[0, 255]), dtypes (float16, bfloat16, float32, float64, ints) and modes (eager, inside a tf.function, the gradient by
tf.GradientTape), compared bit for bit with TF 2.21's recorded results (a refusal's exception class included;
`python -m simdist.conformance.suite.test_osweep61 --record` rewrites osweep61_reference.json.gz). Recorded on this
session's AVX-512 Xeon with oneDNN on: simdist runs the programs under its reference model on any CPU. OPEN
(osweep61_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.osweep61_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.image-resize")
@pytest.mark.parametrize("name", _ids("o-img-resize-"))
def test_osweep61_image_resize_every_interpolation_and_option(backend: Any, name: str) -> None:
    """keras.ops.image.resize × bilinear/nearest/bicubic/lanczos3/lanczos5/area × antialias × up and down sizes ×
    crop_to_aspect_ratio, pad_to_aspect_ratio with fill_value × channels_first/last over values outside [0, 255],
    eager, traced and the gradient, float16/float32/float64/uint8; refusals (unknown interpolation, rank 2, a size of
    one number) by class: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.ops")
@pytest.mark.parametrize("name", _ids("o-img-geom-") + _ids("o-img-colour-"))
def test_osweep61_image_transforms_colour_and_filters(backend: Any, name: str) -> None:
    """affine_transform × nearest/bilinear × constant/nearest/wrap/mirror/reflect with fill_value, perspective and
    map_coordinates (order 0/1, every fill_mode), crop/pad_images by offsets and targets, extract_patches(_3d) ×
    size/strides/dilation/padding, rgb_to_hsv/hsv_to_rgb/rgb_to_grayscale over unit and wide values, gaussian_blur,
    sobel_edges, ssim, scale_and_translate × method × antialias, both data formats, with gradients: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", _ids("o-nn-act-"))
def test_osweep61_activations_with_their_options(backend: Any, name: str) -> None:
    """Every ops.nn activation (celu, elu, gelu, squareplus, soft/hard_shrink, threshold, leaky_relu ... with their
    alpha, threshold, b, negative_slope, approximate off the defaults) over ±0, subnormals, ±inf, NaN, large values
    and values near zero, eager, traced and the gradient, four float dtypes: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.ops")
@pytest.mark.parametrize("name", _ids("o-nn-norm-"))
def test_osweep61_softmaxes_normalizations_psnr_moments_losses(backend: Any, name: str) -> None:
    """softmax/log_softmax/sparsemax/glu × axis, psnr × max_val, moments × axes × keepdims far from zero, normalize ×
    order × axis × epsilon, rms/layer/batch_normalization with their options, the crossentropies × from_logits ×
    axis over specials: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.ops")
@pytest.mark.parametrize("name", _ids("o-math-"))
def test_osweep61_math_and_numpy_reductions(backend: Any, name: str) -> None:
    """logaddexp of distant operands, erf/erfinv/rsqrt/log1p/expm1/sinc/hypot, logsumexp, mean ... cumsum × axis
    None/int/negative/tuple × keepdims, average with weights, quantile × method, top_k, in_top_k, segment ops and
    extract_sequences, four float dtypes and int32: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.ops")
@pytest.mark.parametrize("name", _ids("o-spec") + _ids("o-misc-"))
def test_osweep61_symbolic_specs_pools_stft_norms_and_loss_shapes(backend: Any, name: str) -> None:
    """Each op's inferred shape and dtype on KerasTensors (crop/pad_images, top_k, digitize, rearrange, unstack,
    extract_sequences, svd, conv_transpose ...); adaptive pools at sizes that do and do not divide, stft/istft with
    windows shorter than fft_length, fori_loop's bounds, norm's ords, conv_transpose's shapes and the losses' shape
    checks: TF 2.21's values or refusal classes."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
