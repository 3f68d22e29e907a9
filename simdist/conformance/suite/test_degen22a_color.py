"""Degeneracy audit 22 (degen22a): Keras's colour image layers off the points the suite sat on (TF 2.21 +
Keras 3.15). The audit (benchmarks/degen22a_audit.py) found RandomContrast, AutoContrast, RandomInvert,
RandomGrayscale, RandomBrightness, RandomHue and RandomSaturation run on float32, channels_last, square
images only, and Rescaling on float32 images only. Here: channels_first, non-square images in batches
of 3, and uint8 images (the layers that keep an integer dtype, and those that return the compute dtype).

Expected values are computed here from keras/src/layers/preprocessing/image_preprocessing/ (3.15, read):
RandomContrast's factor uniform((batch, 1, 1, 1), 1 - lower, 1 + upper) about the mean over the height
then the width axis of the data format, clipped; AutoContrast's min and max over axes (1, 2) whatever
the data format (channels_first: over the channels and the height); RandomBrightness's delta
uniform((batch, 1, 1, 1), f0, f1) * (hi - lo) cast to the image dtype and added (uint8 arithmetic wraps
modulo 256), clipped; RandomGrayscale's tf.image.rgb_to_grayscale (uint8: through float32 and back,
truncated) on the channel axis; Rescaling's x * scale + offset in float32. Draws re-made with
keras.random from a SeedGenerator of the layer's seed.
"""

from __future__ import annotations

import colorsys

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=1e-5, atol=1e-3)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def _images(b: int, h: int, w: int, c: int = 3) -> np.ndarray:
    return ((np.arange(b * h * w * c, dtype=np.float64).reshape(b, h, w, c) * 37 % 29) * 8.0 + 3.0).astype(np.float32)


def _cf(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_degen22a_color_layers_channels_first(keras, budget):
    """Channels-first batches of 3 non-square (3 x 5) images: RandomContrast about each channel's mean over
    (H, W), AutoContrast stretched over axes (1, 2) = (C, H) as Keras 3.15 reduces them, RandomGrayscale(1)
    weighting the channel axis, RandomInvert((1, 1)) giving hi - x, RandomBrightness adding one delta per
    image."""
    x = _images(3, 3, 5)
    xcf = _cf(x).astype(np.float64)
    for kind in budget(["contrast", "autocontrast", "grayscale", "brightness", "invert"]):
        sg = keras.random.SeedGenerator(6)
        if kind == "contrast":
            f = _np(keras.random.uniform((3, 1, 1, 1), 0.7, 1.5, seed=sg)).astype(np.float64)
            mean = xcf.mean(axis=(2, 3), keepdims=True)
            want = np.clip((xcf - mean) * f + mean, 0, 255)
            layer = keras.layers.RandomContrast((0.3, 0.5), seed=6, data_format="channels_first")
        elif kind == "autocontrast":
            lo, hi = xcf.min(axis=(1, 2), keepdims=True), xcf.max(axis=(1, 2), keepdims=True)
            want = np.clip((xcf - lo) * (255.0 / (hi - lo)), 0, 255)
            layer = keras.layers.AutoContrast(data_format="channels_first")
        elif kind == "grayscale":
            want = np.repeat((xcf * np.array([0.2989, 0.5870, 0.1140])[None, :, None, None]).sum(axis=1, keepdims=True),
                             3, axis=1)
            layer = keras.layers.RandomGrayscale(1.0, seed=6, data_format="channels_first")
        elif kind == "brightness":
            d = _np(keras.random.uniform((3, 1, 1, 1), 0.1, 0.3, seed=sg)).astype(np.float64) * 255.0
            want = np.clip(xcf + d, 0, 255)
            layer = keras.layers.RandomBrightness((0.1, 0.3), seed=6, data_format="channels_first")
        else:
            want = 255.0 - xcf
            layer = keras.layers.RandomInvert((1.0, 1.0), seed=6, data_format="channels_first")
        assert_close(_np(layer(_cf(x), training=True)), want, tolerance=TOL,
                     call=f"{type(layer).__name__}(seed=6, data_format='channels_first')(3 images 3x3x5)")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_degen22a_color_layers_on_uint8_images(keras, budget):
    """uint8 batches of 3 non-square (4 x 6) images: RandomBrightness keeps uint8 (its float delta cast to
    uint8, truncated, then a wrapping uint8 add); RandomGrayscale(1) keeps uint8 (rgb_to_grayscale through
    float32, truncated: within one step); RandomInvert, AutoContrast and Rescaling return float32 of the
    pixel values (no 1/255 scaling)."""
    x = (_images(3, 4, 6) % 256).astype(np.uint8)
    xf = x.astype(np.float64)
    for kind in budget(["brightness", "grayscale", "invert", "autocontrast", "rescaling"]):
        sg = keras.random.SeedGenerator(4)
        if kind == "brightness":
            d = np.trunc(_np(keras.random.uniform((3, 1, 1, 1), 0.1, 0.4, seed=sg)) * np.float32(255.0))
            want = ((x.astype(np.int64) + d.astype(np.int64)) % 256).astype(np.uint8)
            layer = keras.layers.RandomBrightness((0.1, 0.4), seed=4)
        elif kind == "grayscale":
            g = (xf / 255.0) @ np.array([0.2989, 0.5870, 0.1140])
            want = np.repeat(np.trunc(g * 255.5)[..., None], 3, axis=-1).astype(np.uint8)
            layer = keras.layers.RandomGrayscale(1.0, seed=4)
        elif kind == "invert":
            want = (255.0 - xf).astype(np.float32)
            layer = keras.layers.RandomInvert((1.0, 1.0), seed=4)
        elif kind == "autocontrast":
            lo, hi = xf.min(axis=(1, 2), keepdims=True), xf.max(axis=(1, 2), keepdims=True)
            want = np.clip((xf - lo) * (255.0 / (hi - lo)), 0, 255).astype(np.float32)
            layer = keras.layers.AutoContrast()
        else:
            want = (xf * 0.5 - 3.0).astype(np.float32)
            layer = keras.layers.Rescaling(0.5, offset=-3.0)
        got = _np(layer(x, training=True))
        call = f"{type(layer).__name__}(seed=4)(3 uint8 images 4x6)"
        assert_true(got.dtype == want.dtype, f"dtype {got.dtype}, but should be {want.dtype}", call=call)
        if kind == "autocontrast":
            assert_close(got, want, tolerance=TOL, call=call)
        elif kind == "grayscale":
            d = np.abs(got.astype(np.float64) - want.astype(np.float64))
            assert_true(d.max() <= 1.0, f"gives {got.ravel()[:8].tolist()}, but should be {want.ravel()[:8].tolist()} "
                        f"(off by up to {d.max()})", call=call)
        else:
            assert_equal(got, want, call=call)


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_degen22a_hue_and_saturation_channels_first(keras, budget):
    """RandomSaturation and RandomHue with data_format="channels_first" convert over the channel axis 1:
    RandomSaturation draws f = uniform((batch,), factor) and multiplies each pixel's HSV saturation by
    f / (1 - f + 1e-7) (on the raw 0..255 values: V is the channel maximum); RandomHue draws a sign (-1 where
    uniform((batch,)) > 0.5) then f, and shifts the hue of the image mapped to [0, 1] by sign * f / 2, wrapped
    once. Read against colorsys, per image of a channels-first batch of 3 (3 x 5)."""
    x = _images(3, 3, 5)
    for kind in budget(["saturation", "hue"]):
        sg = keras.random.SeedGenerator(8)
        want = np.zeros(x.shape)
        if kind == "saturation":
            f = _np(keras.random.uniform((3,), 0.2, 0.4, seed=sg)).astype(np.float64)
            scale = f / (1.0 - f + 1e-7)
            layer = keras.layers.RandomSaturation((0.2, 0.4), seed=8, data_format="channels_first")
        else:
            sign = np.where(_np(keras.random.uniform((3,), seed=sg)) > 0.5, -1.0, 1.0)
            shift = sign * _np(keras.random.uniform((3,), 0.2, 0.5, seed=sg)).astype(np.float64) * 0.5
            layer = keras.layers.RandomHue((0.2, 0.5), seed=8, data_format="channels_first")
        for i in range(3):
            for yy in range(3):
                for xx in range(5):
                    r, g, b = (float(v) for v in x[i, yy, xx])
                    if kind == "saturation":
                        h, s, v = colorsys.rgb_to_hsv(r, g, b)
                        want[i, yy, xx] = colorsys.hsv_to_rgb(h, s * scale[i], v)
                    else:
                        h, s, v = colorsys.rgb_to_hsv(r / 255.0, g / 255.0, b / 255.0)
                        h += shift[i]
                        h = h - 1.0 if h > 1.0 else h + 1.0 if h < 0.0 else h
                        want[i, yy, xx] = np.clip(colorsys.hsv_to_rgb(h, s, v), 0, 1) * 255.0
        assert_close(_np(layer(_cf(x), training=True)), _cf(want), tolerance=Tolerance(rtol=1e-4, atol=1e-2),
                     call=f"{type(layer).__name__}(seed=8, data_format='channels_first')(3 images 3x3x5)")
