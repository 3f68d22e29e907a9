"""tf.image functions by option, size and dtype, crossed by rule (sixty-sixth session, isweep66; isweep66_cases.py):
tf.image.resize with every method × antialias × preserve_aspect_ratio × target sizes (halves that round among them)
× six dtypes × ranks 3 and 4; resize's size and method arguments by kind and traced with None dimensions;
resize_with_pad, resize_with_crop_or_pad, crop_to/pad_to_bounding_box and central_crop by dtype, size and the
dtypes of their offsets and targets; crop_and_resize, extract_patches/extract_glimpse, flips, rot90 and transpose,
the adjust_* functions, colour conversions, convert_image_dtype between every pair of ten dtypes, the NMS family,
draw_bounding_boxes, sample_distorted_bounding_box and the quality measures. Each case is TF 2.21's answer (the
value's dtype, shape and bytes, a static shape, or the refusal's class), recorded by
`python -m simdist.conformance.suite.test_isweep66 --record` into isweep66_reference.json.gz."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.isweep66_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.image-resize")
@pytest.mark.parametrize("name", _ids("i-resize-"))
def test_isweep66_resize_by_method_option_size_and_dtype(backend: Any, name: str) -> None:
    """tf.image.resize by method (a program each) × antialias × preserve_aspect_ratio × sizes × dtypes × ranks;
    resize's arguments by kind and its traced static shapes."""
    _check(backend, name)


@pytest.mark.clause("ops.image")
@pytest.mark.parametrize("name", ["i-pad-crop", "i-flip", "i-adjust", "i-color", "i-convert", "i-patches",
                                  "i-traced-values"])
def test_isweep66_image_functions_by_option_and_dtype(backend: Any, name: str) -> None:
    """The crops and pads (their offsets' and targets' dtypes too), flips, rot90 and transpose (eager, traced with
    None dimensions and unknown rank), adjustments, colour conversions, convert_image_dtype, patches and glimpses;
    the functions called through tf.function with sizes, offsets, fractions and k as tensor arguments."""
    _check(backend, name)


@pytest.mark.clause("ops.image-boxes")
@pytest.mark.parametrize("name", ["i-crop-and-resize", "i-nms", "i-draw"])
def test_isweep66_box_functions_by_option(backend: Any, name: str) -> None:
    """crop_and_resize (methods, extrapolation values, boxes outside, dtypes), the NMS family and
    draw_bounding_boxes (default and given colours, channels, dtypes)."""
    _check(backend, name)


@pytest.mark.clause("ops.image-random")
@pytest.mark.parametrize("name", ["i-distorted", "i-random"])
def test_isweep66_random_image_functions_by_seed_and_option(backend: Any, name: str) -> None:
    """sample_distorted_bounding_box (op seeds after set_seed) and the stateless form by seed, size dtype and
    option (coverage at its minimum too); random_crop (full-size axes), random_hue/contrast/saturation/brightness at
    and past their bounds, the random flips; non_max_suppression(_padded) with scores equal to the threshold."""
    _check(backend, name)


@pytest.mark.clause("ops.image")
def test_isweep66_quality_measures(backend: Any) -> None:
    """psnr, ssim (filter sizes and sigmas, k1/k2, the index map), ssim_multiscale and sobel_edges by dtype and
    max_val (host-dependent: their convolutions)."""
    _check(backend, "ih-quality")


@pytest.mark.clause("ops.image")
def test_isweep66_gradients(backend: Any) -> None:
    """Gradients of resize by method and antialias, the raw resize ops by align_corners/half_pixel_centers,
    crop_and_resize (image and boxes; one-row crops), extract_patches by rates, colour conversions, projective
    transforms, crops, pads, ssim and psnr (host-dependent)."""
    _check(backend, "ih-gradients")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
