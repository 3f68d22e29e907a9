"""tf.image's basic functions — clause ops.image (TF 2.21 only).

Runs on the backend's `tf` alone. The reference is the clause's rule written out here in NumPy:
flips and rot90 as array reversals, convert_image_dtype's scalings, adjust_contrast's
mean + factor·(x − mean) per image and channel, per_image_standardization. The case-by-case
comparison with TF 2.21 is tests/ops/test_image_ops_tf.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_true, to_numpy

clause = pytest.mark.clause
_IMG = (np.arange(2 * 3 * 4 * 3, dtype=np.float32).reshape(2, 3, 4, 3) % 7) / 8


@clause("ops.image", ref="tf221")
def test_flips_and_rotations_move_pixels(tf):
    for name, got, want in (("flip_left_right", tf.image.flip_left_right(_IMG), _IMG[:, :, ::-1]),
                            ("flip_up_down", tf.image.flip_up_down(_IMG), _IMG[:, ::-1]),
                            ("rot90", tf.image.rot90(_IMG), np.rot90(_IMG, 1, axes=(1, 2))),
                            ("transpose", tf.image.transpose(_IMG), _IMG.transpose(0, 2, 1, 3))):
        g = to_numpy(got)
        assert_true(np.array_equal(g, want), f"{name} gives {g.ravel()[:6]}..., but should be {want.ravel()[:6]}...",
                    call=name)


@clause("ops.image", ref="tf221")
def test_convert_image_dtype_scales(tf):
    got = to_numpy(tf.image.convert_image_dtype(np.array([[[0, 128, 255]]], np.uint8), tf.float32))
    want = np.array([[[0, 128, 255]]], np.float32) * np.float32(1 / 255)
    assert_true(np.array_equal(got, want), f"uint8 -> float32 gives {got}, but should be {want}",
                call="convert_image_dtype")
    back = to_numpy(tf.image.convert_image_dtype(np.array([[[0.0, 0.5, 1.0]]], np.float32), tf.uint8))
    assert_true(back.tolist() == [[[0, 127, 255]]], f"float32 -> uint8 gives {back}, but should be [[[0, 127, 255]]]"
                " (x * 255.5, truncated)", call="convert_image_dtype")


@clause("ops.image", ref="tf221")
def test_contrast_and_standardization(tf):
    got = to_numpy(tf.image.adjust_contrast(_IMG, 2.0))
    mean = _IMG.mean(axis=(1, 2), keepdims=True)
    want = mean + 2.0 * (_IMG - mean)
    assert_true(np.allclose(got, want, atol=1e-6), f"adjust_contrast(x, 2) gives {got.ravel()[:4]}, but should be "
                f"{want.ravel()[:4]} (mean + 2 (x - mean) per image and channel)", call="adjust_contrast")
    std = to_numpy(tf.image.per_image_standardization(_IMG))
    ref = (_IMG - _IMG.mean(axis=(1, 2, 3), keepdims=True)) / _IMG.std(axis=(1, 2, 3), keepdims=True)
    assert_true(np.allclose(std, ref, atol=1e-5), f"per_image_standardization gives {std.ravel()[:4]}, but should be "
                f"{ref.ravel()[:4]}", call="per_image_standardization")


@clause("ops.image", ref="tf221")
def test_psnr_traces_with_a_python_max_val(tf):
    a, b = _IMG, _IMG[::-1]
    mse = ((a.astype(np.float64) - b) ** 2).mean(axis=(1, 2, 3))
    want = 20 * np.log10(0.5) - 10 * np.log10(mse)
    got = to_numpy(tf.function(lambda: tf.image.psnr(a, b, 0.5))())   # 20 * log(max_val): log's dtype
    assert_true(np.allclose(got, want, rtol=1e-5), f"traced psnr(a, b, 0.5) gives {got}, but should be {want}",
                call="tf.function(lambda: tf.image.psnr(a, b, 0.5))()")


@clause("ops.image", ref="tf221")
def test_adjust_saturation_takes_std_max_with_nan(tf):
    # AdjustSaturation's RGB-to-HSV takes std::max(r, std::max(g, b)) and std::min alike, `(a < b) ? b : a`:
    # a NaN second operand is dropped, so [-inf, -2, nan] has V = -2, min -inf, S = 0 (V not above 0): grey at
    # V; [1e30, nan, nan] has V = min = 1e30, S = 0. NumPy's NaN-propagating maximum made both NaN.
    img = np.array([[[-np.inf, -2.0, np.nan], [1e30, np.nan, np.nan]]], np.float32)
    got = to_numpy(tf.image.adjust_saturation(img, 0.5))
    want = np.array([[[-2.0, -2.0, -2.0], [1e30, 1e30, 1e30]]], np.float32)
    assert_true(np.array_equal(got, want), f"adjust_saturation(x, 0.5) gives {got.tolist()}, but should be "
                f"{want.tolist()} (std::max/std::min keep a NaN only as their first operand)", call="adjust_saturation")


@pytest.mark.clause("ops.image-projective-transform", ref="tf221")
def test_image_projective_transform_shifts_and_fills(tf):
    """A translation by (+1 row, -2 columns): NEAREST reads img[y + 1, x - 2] (a pure shift, so
    bilinear gives the same), CONSTANT fills outside with fill_value converted to the image
    dtype, NEAREST mode clamps, WRAP repeats the image."""
    import numpy as np
    from simdist.conformance.assertions import assert_equal
    img = np.arange(2 * 4 * 5 * 1, dtype=np.int32).reshape(2, 4, 5, 1)
    t = np.array([[1, 0, -2, 0, 1, 1, 0, 0]], np.float32)
    ys, xs = np.meshgrid(np.arange(4) + 1, np.arange(5) - 2, indexing="ij")
    inside = (ys < 4) & (xs >= 0)
    want_const = np.where(inside[None, :, :, None], img[:, np.clip(ys, 0, 3), np.clip(xs, 0, 4)], 7)
    want_nearest = img[:, np.clip(ys, 0, 3), np.clip(xs, 0, 4)]
    want_wrap = img[:, ys % 4, xs % 5]
    for interp in ("NEAREST", "BILINEAR"):
        for mode, want in (("CONSTANT", want_const), ("NEAREST", want_nearest), ("WRAP", want_wrap)):
            got = tf.raw_ops.ImageProjectiveTransformV3(images=img, transforms=t, output_shape=[4, 5],
                                                        fill_value=7.9, interpolation=interp, fill_mode=mode)
            assert_equal(got, want, call=f"ImageProjectiveTransformV3(shift, {interp}, {mode}, fill_value=7.9)")
