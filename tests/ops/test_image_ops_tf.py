"""tf.image's basic functions against real TensorFlow 2.21: values (bit for bit: they are TF's
compositions of ops simdist computes as TF does, and AdjustContrastv2's halving sum), dtypes
(uint8/uint16/int32 images, float16, float64), TF's errors on bad shapes and arguments,
gradients where the composition has them, and calls inside a tf.function. Needs the `tf` extra
(or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_R = np.random.default_rng(29)
IMG = _R.uniform(0, 1, (2, 5, 6, 3)).astype(np.float32)           # a batch of float images in [0, 1)
IMG3 = IMG[0]
ODD = _R.uniform(-2, 3, (3, 7, 9, 2)).astype(np.float32)          # values outside [0, 1], 2 channels
U8 = _R.integers(0, 256, (2, 4, 5, 3)).astype(np.uint8)
F64 = _R.uniform(0, 1, (1, 4, 4, 3))
F16 = IMG.astype(np.float16)
GRAY = _R.uniform(0, 1, (2, 3, 4, 1)).astype(np.float32)


def _grad(fn: Callable[[Any, Any], Any], x: np.ndarray) -> Callable[[Any], Any]:
    """[fn(x), d sum(fn(x) * weights) / dx] with a variable x."""
    def run(tf: Any) -> Any:
        v = tf.Variable(x)
        with tf.GradientTape() as tape:
            y = fn(tf, v)
            w = tf.reshape(tf.cast(tf.range(1, tf.size(y) + 1), y.dtype), tf.shape(y)) / tf.cast(tf.size(y), y.dtype)
            loss = tf.reduce_sum(y * w)
        return [y, tape.gradient(loss, v)]
    return run


def _fn(fn: Callable[[Any, Any], Any], x: np.ndarray) -> Callable[[Any], Any]:
    """fn(x) inside a tf.function called twice (the second call replays)."""
    def run(tf: Any) -> Any:
        f = tf.function(lambda a: fn(tf, a))
        return [f(tf.constant(x)), f(tf.constant(x * 0.5))]
    return run


_GEOMETRY: list[tuple[str, Callable[[Any], Any]]] = [
    ("flip-left-right", lambda tf: [tf.image.flip_left_right(IMG), tf.image.flip_left_right(IMG3)]),
    ("flip-up-down-uint8", lambda tf: tf.image.flip_up_down(U8)),
    *[(f"rot90-k{k}", (lambda k: lambda tf: [tf.image.rot90(ODD, k), tf.image.rot90(IMG3, k)])(k))
      for k in (0, 1, 2, 3, -1, 5)],
    ("transpose", lambda tf: [tf.image.transpose(ODD), tf.image.transpose(IMG3)]),
    ("crop-to-bounding-box", lambda tf: [tf.image.crop_to_bounding_box(ODD, 1, 2, 4, 5),
                                         tf.image.crop_to_bounding_box(IMG3, 0, 0, 5, 6)]),
    ("pad-to-bounding-box", lambda tf: [tf.image.pad_to_bounding_box(U8, 1, 2, 7, 9),
                                        tf.image.pad_to_bounding_box(IMG3, 0, 0, 5, 6)]),
    *[(f"central-crop-{f}", (lambda f: lambda tf: [tf.image.central_crop(ODD, f), tf.image.central_crop(IMG3, f)])(f))
      for f in (0.5, 0.33, 0.9, 1.0)],
    *[(f"resize-with-crop-or-pad-{h}x{w}", (lambda h, w: lambda tf: [tf.image.resize_with_crop_or_pad(ODD, h, w),
                                                                     tf.image.resize_with_crop_or_pad(IMG3, h, w)])(h, w))
      for h, w in ((3, 4), (10, 12), (2, 15), (7, 9))],
    *[(f"resize-with-pad-{h}x{w}", (lambda h, w: lambda tf: [tf.image.resize_with_pad(ODD, h, w),
                                                             tf.image.resize_with_pad(IMG3, h, w)])(h, w))
      for h, w in ((7, 9), (10, 10), (3, 20), (14, 5), (1, 1))],
    ("resize-with-pad-uint8", lambda tf: tf.image.resize_with_pad(U8, 6, 9)),
    ("resize-with-pad-zero-target", lambda tf: tf.image.resize_with_pad(IMG, 0, 4)),
    ("grad-resize-with-pad", _grad(lambda tf, v: tf.image.resize_with_pad(v, 6, 13), ODD)),
    # errors
    ("flip-rank-2", lambda tf: tf.image.flip_left_right(IMG3[:, :, 0])),
    ("flip-rank-5", lambda tf: tf.image.flip_left_right(IMG[None])),
    ("flip-zero-width", lambda tf: tf.image.flip_left_right(np.zeros((2, 0, 3), np.float32))),
    ("rot90-k-vector", lambda tf: tf.image.rot90(IMG, [1])),
    ("crop-too-large", lambda tf: tf.image.crop_to_bounding_box(IMG, 1, 1, 5, 5)),
    ("crop-negative-offset", lambda tf: tf.image.crop_to_bounding_box(IMG, -1, 0, 2, 2)),
    ("crop-zero-target", lambda tf: tf.image.crop_to_bounding_box(IMG, 0, 0, 0, 2)),
    ("pad-too-small", lambda tf: tf.image.pad_to_bounding_box(IMG, 1, 1, 5, 6)),
    ("pad-rank-2", lambda tf: tf.image.pad_to_bounding_box(IMG3[:, :, 0], 0, 0, 6, 7)),
    ("central-crop-zero", lambda tf: tf.image.central_crop(IMG, 0.0)),
    ("central-crop-above-one", lambda tf: tf.image.central_crop(IMG, 1.5)),
    ("resize-crop-pad-zero", lambda tf: tf.image.resize_with_crop_or_pad(IMG, 0, 3)),
]

_VALUES: list[tuple[str, Callable[[Any], Any]]] = [
    *[(f"convert-{src.__name__}-to-{dst}", (lambda x, dst: lambda tf: [
        tf.image.convert_image_dtype(x, dst), tf.image.convert_image_dtype(x, dst, saturate=True)])(x, dst))
      for src, x in ((np.float32, ODD), (np.uint8, U8), (np.float64, F64), (np.float16, F16))
      for dst in ("uint8", "uint16", "int8", "int32", "float16", "float32", "float64")],
    ("convert-int32-to-uint8", lambda tf: tf.image.convert_image_dtype(
        np.array([[[-5, 2**31 - 1, 2**24]]], np.int32), tf.uint8)),
    ("convert-uint16-to-int64", lambda tf: tf.image.convert_image_dtype(np.array([[[0, 7, 65535]]], np.uint16),
                                                                         tf.int64)),
    ("convert-bool", lambda tf: tf.image.convert_image_dtype(np.ones((1, 1, 1), bool), tf.float32)),
    ("convert-to-bool", lambda tf: tf.image.convert_image_dtype(IMG, tf.bool)),
    *[(f"brightness-{n}", (lambda x: lambda tf: [tf.image.adjust_brightness(x, 0.2),
                                                 tf.image.adjust_brightness(x, -0.7)])(x))
      for n, x in (("float32", ODD), ("uint8", U8), ("float16", F16), ("float64", F64))],
    *[(f"contrast-{n}", (lambda x: lambda tf: [tf.image.adjust_contrast(x, 1.7), tf.image.adjust_contrast(x, 0.3),
                                               tf.image.adjust_contrast(x, -2.0)])(x))
      for n, x in (("float32", ODD), ("uint8", U8), ("float64", F64), ("one-pixel", IMG[:, :1, :1]),
                   ("rank3", IMG3), ("large", _R.uniform(0, 1, (1, 33, 47, 3)).astype(np.float32)))],
    ("contrast-float16", lambda tf: tf.image.adjust_contrast(F16, 1.5)),
    ("contrast-rank2", lambda tf: tf.image.adjust_contrast(IMG3[:, :, 0], 1.5)),
    ("contrast-factor-vector", lambda tf: tf.image.adjust_contrast(IMG, [1.5, 2.0])),
    *[(f"gamma-{n}", (lambda x: lambda tf: [tf.image.adjust_gamma(x, 0.5), tf.image.adjust_gamma(x, 2.2, gain=0.8),
                                            tf.image.adjust_gamma(x, 0)])(x))
      for n, x in (("float32", IMG), ("uint8", U8), ("float64", F64), ("float16", F16))],
    ("gamma-negative", lambda tf: tf.image.adjust_gamma(IMG, -1.0)),
    *[(f"standardization-{n}", (lambda x: lambda tf: tf.image.per_image_standardization(x))(x))
      for n, x in (("float32", ODD), ("uint8", U8), ("float64", F64), ("rank3", IMG3),
                   ("constant", np.full((1, 2, 2, 3), 0.25, np.float32)))],
    ("standardization-rank2", lambda tf: tf.image.per_image_standardization(IMG3[:, :, 0])),
    *[(f"grayscale-{n}", (lambda x: lambda tf: tf.image.rgb_to_grayscale(x))(x))
      for n, x in (("float32", IMG), ("uint8", U8), ("float64", F64), ("rank3", IMG3))],
    ("grayscale-to-rgb", lambda tf: [tf.image.grayscale_to_rgb(tf.constant(GRAY)),
                                      tf.image.grayscale_to_rgb(tf.constant(GRAY[0]))]),
    ("grayscale-to-rgb-three-channels", lambda tf: tf.image.grayscale_to_rgb(tf.constant(IMG))),
    ("grayscale-to-rgb-numpy", lambda tf: tf.image.grayscale_to_rgb(GRAY)),
    *[(f"yuv-{n}", (lambda x: lambda tf: [tf.image.rgb_to_yuv(x), tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(x))])(x))
      for n, x in (("float32", IMG), ("float64", F64), ("rank3", IMG3))],
    ("total-variation", lambda tf: [tf.image.total_variation(tf.constant(ODD)),
                                    tf.image.total_variation(tf.constant(IMG3)),
                                    tf.image.total_variation(tf.constant(U8.astype(np.int32)))]),
    ("total-variation-numpy", lambda tf: tf.image.total_variation(ODD)),
    ("total-variation-rank2", lambda tf: tf.image.total_variation(tf.constant(IMG3[:, :, 0]))),
    ("image-gradients", lambda tf: list(tf.image.image_gradients(tf.constant(ODD)))),
    ("image-gradients-rank3", lambda tf: tf.image.image_gradients(tf.constant(IMG3))),
    ("sobel-edges", lambda tf: [tf.image.sobel_edges(tf.constant(ODD)), tf.image.sobel_edges(tf.constant(F64))]),
    ("sobel-edges-numpy", lambda tf: tf.image.sobel_edges(ODD)),
    ("psnr", lambda tf: [tf.image.psnr(IMG, IMG * 0.9 + 0.05, 1.0), tf.image.psnr(U8, 255 - U8, 255),
                         tf.image.psnr(IMG, IMG, 1.0)]),
    ("psnr-shape-mismatch", lambda tf: tf.image.psnr(IMG, IMG[:, :4], 1.0)),
    ("stateless-random-flips", lambda tf: [tf.image.stateless_random_flip_left_right(ODD, [1, 2]),
                                           tf.image.stateless_random_flip_up_down(ODD, [3, 4]),
                                           *[tf.image.stateless_random_flip_left_right(IMG3, [s, 7])
                                             for s in range(4)]]),
    ("stateless-random-brightness", lambda tf: [tf.image.stateless_random_brightness(U8, 0.3, [5, 6]),
                                                tf.image.stateless_random_brightness(ODD, 0.5, [1, 1])]),
    ("stateless-random-contrast", lambda tf: [tf.image.stateless_random_contrast(U8, 0.2, 1.8, [5, 6]),
                                              tf.image.stateless_random_contrast(ODD, 0.5, 0.6, [2, 1])]),
    ("stateless-random-crop", lambda tf: [tf.image.stateless_random_crop(ODD, [2, 4, 5, 2], [9, 9]),
                                          tf.image.stateless_random_crop(U8[0], [2, 3, 3], [1, 2])]),
    ("stateless-random-crop-too-big", lambda tf: tf.image.stateless_random_crop(IMG3, [6, 6, 3], [1, 2])),
    ("stateless-random-brightness-negative", lambda tf: tf.image.stateless_random_brightness(IMG, -0.1, [1, 2])),
    ("stateless-random-contrast-bad-range", lambda tf: tf.image.stateless_random_contrast(IMG, 0.5, 0.5, [1, 2])),
]

SSIM_A = _R.uniform(0, 1, (2, 13, 14, 3)).astype(np.float32)
SSIM_B = np.clip(SSIM_A * 0.7 + _R.uniform(0, 0.3, SSIM_A.shape), 0, 1).astype(np.float32)
SSIM_U8 = _R.integers(0, 256, (1, 12, 12, 3)).astype(np.uint8)


def _none_gradient(tf: Any, fn: Callable[[Any], Any], x: np.ndarray) -> Any:
    """[fn(x), whether the tape's gradient is None] (an op declared not differentiable)."""
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = fn(v)
    return [y, tf.constant(tape.gradient(y, v) is None)]


HSV_IMG = _R.uniform(0, 1, (2, 9, 11, 3)).astype(np.float32)
HSV_IMG[0, :2] = 0.5                                        # grey: zero range
HSV_IMG[0, 2, :, 1] = HSV_IMG[0, 2, :, 0]                   # ties between channels
HSV_IMG[0, 3, :, 2] = HSV_IMG[0, 3, :, 1]
HSV_IMG[0, 4] = 0.0                                         # black: zero value

_COLOR: list[tuple[str, Callable[[Any], Any]]] = [
    *[(f"hsv-roundtrip-{dt}", (lambda dt: lambda tf: [tf.image.rgb_to_hsv(tf.cast(HSV_IMG, dt)),
                                                      tf.image.hsv_to_rgb(tf.cast(HSV_IMG, dt)),
                                                      tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(tf.cast(HSV_IMG, dt)))])(dt))
      for dt in ("float32", "float64", "float16", "bfloat16")],
    ("hsv-uint8", lambda tf: tf.image.rgb_to_hsv(U8)),
    ("hsv-two-channels", lambda tf: tf.image.rgb_to_hsv(ODD)),
    ("hsv-to-rgb-out-of-range", lambda tf: tf.image.hsv_to_rgb(ODD[..., :1] * np.ones(3, np.float32))),
    *[(f"hue-{n}-{d}", (lambda x, d: lambda tf: tf.image.adjust_hue(x, d))(x, d))
      for n, x in (("float32", HSV_IMG), ("uint8", U8), ("float64", F64)) for d in (0.37, -0.9, 0.0, 1.0)],
    ("hue-float16", lambda tf: tf.image.adjust_hue(F16, 0.2)),
    ("hue-bad-delta", lambda tf: tf.image.adjust_hue(IMG, 1.5)),
    ("hue-two-channels", lambda tf: tf.image.adjust_hue(ODD, 0.1)),
    *[(f"saturation-{n}-{f}", (lambda x, f: lambda tf: tf.image.adjust_saturation(x, f))(x, f))
      for n, x in (("float32", HSV_IMG), ("uint8", U8), ("float64", F64), ("wide", ODD[..., :1] * np.ones(3, np.float32)))
      for f in (1.7, 0.3, 0.0, 5.0)],
    ("saturation-float16", lambda tf: tf.image.adjust_saturation(F16, 0.2)),
    ("grad-rgb-to-hsv", _grad(lambda tf, v: tf.image.rgb_to_hsv(v), HSV_IMG)),
    ("grad-rgb-to-hsv-float64", _grad(lambda tf, v: tf.image.rgb_to_hsv(v), HSV_IMG.astype(np.float64))),
    ("grad-hsv-to-rgb-none", lambda tf: _none_gradient(tf, tf.image.hsv_to_rgb, HSV_IMG)),
    ("grad-hue-lookup-error", _grad(lambda tf, v: tf.image.adjust_hue(v, 0.2), IMG)),
    ("grad-saturation-lookup-error", _grad(lambda tf, v: tf.image.adjust_saturation(v, 1.2), IMG)),
    ("stateless-random-hue-saturation", lambda tf: [tf.image.stateless_random_hue(HSV_IMG, 0.3, [1, 2]),
                                                    tf.image.stateless_random_saturation(U8, 0.2, 1.9, [3, 4])]),
    ("stateless-random-hue-too-large", lambda tf: tf.image.stateless_random_hue(HSV_IMG, 0.6, [1, 2])),
    ("stateless-random-saturation-bad-range", lambda tf: tf.image.stateless_random_saturation(HSV_IMG, 1.0, 0.5,
                                                                                               [1, 2])),
    ("ssim", lambda tf: [tf.image.ssim(SSIM_A, SSIM_B, 1.0), tf.image.ssim(SSIM_A, SSIM_A, 1.0),
                         tf.image.ssim(SSIM_A, SSIM_B, 2.0, filter_size=5, filter_sigma=0.8, k1=0.02, k2=0.05)]),
    ("ssim-uint8", lambda tf: tf.image.ssim(SSIM_U8, 255 - SSIM_U8, 255)),
    ("ssim-index-map", lambda tf: tf.image.ssim(SSIM_A, SSIM_B, 1.0, filter_size=7, return_index_map=True)),
    ("ssim-broadcast-batch", lambda tf: tf.image.ssim(SSIM_A[:1], SSIM_B, 1.0)),
    ("ssim-too-small", lambda tf: tf.image.ssim(IMG, IMG, 1.0)),
    ("ssim-shape-mismatch", lambda tf: tf.image.ssim(SSIM_A, SSIM_A[:, :12], 1.0)),
    ("grad-ssim", _grad(lambda tf, v: tf.image.ssim(v, SSIM_B, 1.0, filter_size=5), SSIM_A)),
    ("fn-hue-saturation", _fn(lambda tf, a: tf.image.adjust_saturation(tf.image.adjust_hue(a, 0.3), 1.4), HSV_IMG)),
]

_PATCH_ARGS = (([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"), ([1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1], "SAME"),
               ([1, 3, 3, 1], [1, 2, 3, 1], [1, 2, 1, 1], "VALID"), ([1, 4, 1, 1], [1, 3, 3, 1], [1, 1, 1, 1], "SAME"))

_PATCHES: list[tuple[str, Callable[[Any], Any]]] = [
    *[(f"patches-{i}", (lambda a: lambda tf: [tf.image.extract_patches(ODD, *a), tf.image.extract_patches(U8, *a)])(a))
      for i, a in enumerate(_PATCH_ARGS)],
    *[(f"grad-patches-{i}", (lambda a: _grad(lambda tf, v: tf.image.extract_patches(v, *a), ODD))(a))
      for i, a in enumerate(_PATCH_ARGS)],
    ("grad-patches-float64", _grad(lambda tf, v: tf.image.extract_patches(v, *_PATCH_ARGS[1]), F64)),
    ("patches-float16-int64", lambda tf: [tf.image.extract_patches(F16, *_PATCH_ARGS[2]),
                                          tf.image.extract_patches(tf.cast(U8, tf.int64), *_PATCH_ARGS[3])]),
    ("patches-bool", lambda tf: tf.image.extract_patches(U8 > 3, *_PATCH_ARGS[0])),
    ("patches-batch-size", lambda tf: tf.image.extract_patches(ODD, [2, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")),
    ("patches-short-sizes", lambda tf: tf.image.extract_patches(ODD, [1, 2, 2], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")),
    ("patches-too-large", lambda tf: tf.image.extract_patches(ODD, [1, 9, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")),
    ("patches-bad-padding", lambda tf: tf.image.extract_patches(ODD, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "FOO")),
    ("patches-rank3", lambda tf: tf.image.extract_patches(IMG3, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")),
    ("fn-patches", _fn(lambda tf, a: tf.image.extract_patches(a, *_PATCH_ARGS[1]), ODD)),
]

_GRADS: list[tuple[str, Callable[[Any], Any]]] = [
    ("grad-flip-rot", _grad(lambda tf, v: tf.image.rot90(tf.image.flip_up_down(v), 1), ODD)),
    ("grad-crop-pad", _grad(lambda tf, v: tf.image.pad_to_bounding_box(
        tf.image.crop_to_bounding_box(v, 1, 1, 3, 4), 2, 0, 6, 6), ODD)),
    ("grad-central-crop", _grad(lambda tf, v: tf.image.central_crop(v, 0.6), ODD)),
    ("grad-standardization", _grad(lambda tf, v: tf.image.per_image_standardization(v), ODD)),
    ("grad-brightness", _grad(lambda tf, v: tf.image.adjust_brightness(v, 0.3), IMG)),
    ("grad-gamma", _grad(lambda tf, v: tf.image.adjust_gamma(v, 1.7, 0.9), IMG)),
    ("grad-grayscale", _grad(lambda tf, v: tf.image.rgb_to_grayscale(v), IMG)),
    ("grad-yuv", _grad(lambda tf, v: tf.image.rgb_to_yuv(v), IMG)),
    ("grad-total-variation", _grad(lambda tf, v: tf.image.total_variation(v), ODD)),
    ("grad-image-gradients", _grad(lambda tf, v: tf.image.image_gradients(v)[1], ODD)),
    ("grad-sobel", _grad(lambda tf, v: tf.image.sobel_edges(v), ODD)),
    ("grad-psnr", _grad(lambda tf, v: tf.image.psnr(v, IMG, 1.0), IMG * 0.8 + 0.1)),
    ("grad-convert-to-float64", _grad(lambda tf, v: tf.image.convert_image_dtype(v, tf.float64), IMG)),
    ("grad-contrast-lookup-error", _grad(lambda tf, v: tf.image.adjust_contrast(v, 1.5), IMG)),
]

_FUNCTIONS: list[tuple[str, Callable[[Any], Any]]] = [
    ("fn-flip-crop", _fn(lambda tf, a: tf.image.crop_to_bounding_box(tf.image.flip_left_right(a), 1, 1, 3, 3), ODD)),
    ("fn-contrast-brightness", _fn(lambda tf, a: tf.image.adjust_brightness(tf.image.adjust_contrast(a, 1.3), 0.1),
                                   IMG)),
    ("fn-standardization", _fn(lambda tf, a: tf.image.per_image_standardization(a), ODD)),
    ("fn-convert-uint8", _fn(lambda tf, a: tf.image.convert_image_dtype(a, tf.uint8, saturate=True), ODD)),
    ("fn-random-flip", _fn(lambda tf, a: tf.image.stateless_random_flip_left_right(a, [4, 2]), ODD)),
    ("fn-resize-crop-pad", _fn(lambda tf, a: tf.image.resize_with_crop_or_pad(a, 9, 4), ODD)),
]

# Cases whose composition holds a float32 reduction over several axes (Sum/Mean in
# per_image_standardization, total_variation, psnr), a tensordot (TF: MatMul; simdist: one Einsum)
# a depthwise convolution's input gradient or ResizeBilinearGrad's sums: simdist's are TF's ops but not in Eigen's summation
# order, so their values agree within a few float32 ulps, not bit for bit (clause ops.image).
_SUMMED = {"standardization-float32", "standardization-rank3", "yuv-float32", "yuv-rank3", "total-variation", "psnr",
           "grad-standardization", "grad-yuv", "grad-sobel", "grad-psnr", "fn-standardization",
           "grad-resize-with-pad", "ssim", "ssim-uint8", "ssim-index-map", "ssim-broadcast-batch", "grad-ssim"}

CASES: list[tuple[str, str, Callable[[Any], Any], float]] = [
    (n, g, f, 2e-6 if n in _SUMMED else 0.0)
    for g, fs in (("geometry", _GEOMETRY), ("values", _VALUES), ("gradients", _GRADS), ("functions", _FUNCTIONS),
                  ("color", _COLOR), ("patches", _PATCHES))
    for n, f in fs]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.within(case[3], atol_ratio=1.0))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.image")
@EDGES.parametrize("geometry")
def test_image_geometry(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image")
@EDGES.parametrize("values")
def test_image_values(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image")
@EDGES.parametrize("gradients")
def test_image_gradients_through_tape(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image")
@EDGES.parametrize("functions")
def test_image_inside_function(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image")
@EDGES.parametrize("color")
def test_image_hsv_kernels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image")
@EDGES.parametrize("patches")
def test_image_extract_patches(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_image_ops_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
