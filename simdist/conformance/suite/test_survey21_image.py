"""survey21 (issue 29, session 21): options of tf.image that the option survey
(benchmarks/suite_options.py, stricter rule: set AND output-changing) found uncovered, set to values that
change the output. Each test runs its cases of survey21_cases on the backend and compares them with TF
2.21's recorded outputs (survey21_reference); under `--profile ci` the first case only."""

from __future__ import annotations

import pytest

from simdist.conformance.suite import survey21_check

clause = pytest.mark.clause


@clause("ops.image-resize", ref="tf221")
def test_survey21_image_resize_options(tf, budget):
    """resize's method, preserve_aspect_ratio and antialias; resize_with_pad's method and antialias."""
    survey21_check.check_cases(tf, "image", ['image_resize_options'], budget)


@clause("ops.image-boxes", ref="tf221")
def test_survey21_image_box_options(tf, budget):
    """crop_and_resize's method='nearest' and extrapolation_value with boxes outside the image; non_max_suppression's iou_threshold and score_threshold, soft_nms_sigma, pad_to_max_output_size."""
    survey21_check.check_cases(tf, "image", ['image_crop_and_resize_options', 'image_nms_options'], budget)


@clause("ops.image", ref="tf221")
def test_survey21_image_adjust_convert_ssim(tf, budget):
    """adjust_gamma's gain, rot90's k, convert_image_dtype(saturate=True) float->uint8 and int32->int16, ssim's filter_size, filter_sigma, k1 and k2."""
    survey21_check.check_cases(tf, "image", ['image_gamma_rot_convert', 'image_ssim_options'], budget)


@clause("ops.image-glimpse", ref="tf221")
def test_survey21_image_glimpse_and_patches(tf, budget):
    """extract_glimpse(centered=False, normalized=False, noise='zero'); extract_patches with rates 2."""
    survey21_check.check_cases(tf, "image", ['image_glimpse_patches'], budget)


@clause("ops.image-random", ref="tf221")
def test_survey21_image_seeded_random_image_ops(tf, budget):
    """random_flip_left_right, random_brightness, random_contrast and random_crop with op seeds after set_seed, stateless_random_saturation: TF's images."""
    survey21_check.check_cases(tf, "image", ['image_random_ops_seeded'], budget)
