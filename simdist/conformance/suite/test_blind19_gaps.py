"""Gaps the nineteenth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours and options no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here
with NumPy or the Python standard library (a transcription of TF's or Keras 3.15's rule, the random
layers' draws re-made with `keras.random` from a SeedGenerator of the layer's seed, in Keras's order),
never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import colorsys

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-5)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


# -- random image layers: every draw re-made in Keras's order, every formula transcribed -------------------------
def _bilinear(img: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """Bilinear samples of an [H, W, C] image at interior points (ys, xs) (float64)."""
    y0, x0 = np.floor(ys).astype(int), np.floor(xs).astype(int)
    dy, dx = (ys - y0)[..., None], (xs - x0)[..., None]
    h, w = img.shape[:2]

    def at(yy, xx):
        return img[np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)]
    top = (1 - dx) * at(y0, x0) + dx * at(y0, x0 + 1)
    bottom = (1 - dx) * at(y0 + 1, x0) + dx * at(y0 + 1, x0 + 1)
    return (1 - dy) * top + dy * bottom


def _hues(pixels: np.ndarray) -> np.ndarray:
    """colorsys's HSV hue of each RGB pixel in [0, 255]."""
    return np.array([colorsys.rgb_to_hsv(*(p.astype(np.float64) / 255.0))[0] for p in pixels.reshape(-1, 3)])


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_blind19_random_image_layers_follow_their_seeded_draws(keras, budget):
    """A random image layer with seed s draws from SeedGenerator(s) in Keras 3.15's order, so its output
    follows from the same draws made here with keras.random: CutMix (alpha, a beta weight per image, the
    box's x starts then its y starts, the partner permutation; the box [x0, x0 + sqrt(1 - w) W) x
    [y0, y0 + sqrt(1 - w) H) in float32, labels mixed by the area kept), RandomHue (a sign per image, -1
    where uniform() > 0.5, then f in [factor]; the hue shifted by sign * f / 2: read back with colorsys)
    and RandomZoom (a height zoom, then a width zoom when width_factor is given; output pixel (y, x)
    samples (zh y + (H - 1)/2 (1 - zh), zw x + (W - 1)/2 (1 - zw)) bilinearly), on images that are not
    square so that x and y, height and width are not interchangeable."""
    f32 = np.float32
    b, h, w = 3, 5, 8
    x = np.arange(b * h * w * 2, dtype=f32).reshape(b, h, w, 2)
    y = np.eye(b, dtype=f32)
    moved = 0
    for seed in budget([2, 7, 11, 1]):
        out = keras.layers.CutMix(factor=1.0, seed=seed)({"images": x, "labels": y}, training=True)
        sg = keras.random.SeedGenerator(seed)
        alpha = f32(_np(keras.random.uniform((), 0.0, 1.0, seed=sg))) + f32(1e-6)
        weight = _np(keras.random.beta((b,), alpha, alpha, seed=sg)).astype(f32)
        ratio = np.sqrt(f32(1.0) - weight)
        cw, ch = ratio * f32(w), ratio * f32(h)
        x0 = _np(keras.random.uniform([b], 0, 1, seed=sg)).astype(f32) * (f32(w) - cw)
        y0 = _np(keras.random.uniform([b], 0, 1, seed=sg)).astype(f32) * (f32(h) - ch)
        perm = _np(keras.random.shuffle(np.arange(b, dtype=np.int32), seed=sg)).astype(int)
        gy, gx = np.meshgrid(np.arange(h, dtype=f32), np.arange(w, dtype=f32), indexing="ij")
        want, labels = x.copy(), []
        for i in range(b):
            box = (gx >= x0[i]) & (gx < x0[i] + cw[i]) & (gy >= y0[i]) & (gy < y0[i] + ch[i])
            want[i][box] = x[perm[i]][box]
            moved += int(perm[i] != i and box.any())
            kept = 1.0 - float(cw[i]) * float(ch[i]) / (w * h)
            labels.append(kept * y[i] + (1.0 - kept) * y[perm[i]])
        assert_equal(_np(out["images"]), want, call=f"CutMix(seed={seed})(3 images 5x8)", what="images")
        assert_close(_np(out["labels"]), np.array(labels), tolerance=TOL32, call=f"CutMix(seed={seed})", what="labels")
    assert_true(moved > 0, "no image took a box from another image: the check saw no mixing", call="CutMix")

    px = np.array([[[200., 40., 10.], [30., 160., 90.]], [[20., 60., 220.], [250., 200., 20.]]], f32)
    imgs = np.tile(px[None], (4, 1, 1, 1))
    for (lo, hi), seed in budget([((0.3, 0.6), 1), ((0.3, 0.6), 4), ((0.1, 0.1), 4)]):
        out = _np(keras.layers.RandomHue(factor=(lo, hi), seed=seed)(imgs, training=True))
        sg = keras.random.SeedGenerator(seed)
        sign = np.where(_np(keras.random.uniform((4,), seed=sg)) > 0.5, -1.0, 1.0)
        shift = sign * _np(keras.random.uniform((4,), minval=lo, maxval=hi, seed=sg)) * 0.5
        for i in range(4):
            d = (_hues(out[i]) - _hues(imgs[i]) - shift[i] + 0.5) % 1.0 - 0.5
            assert_true(bool(np.abs(d).max() < 1e-4),
                        f"image {i}: hue shifts {np.round(_hues(out[i]) - _hues(imgs[i]), 4).tolist()}, but should be "
                        f"{shift[i]:.4f} (mod 1)", call=f"RandomHue(factor=({lo}, {hi}), seed={seed})")

    for (h2, w2), hf, wf in budget([((3, 7), (-0.5, -0.2), None), ((6, 4), (-0.4, -0.1), (-0.6, -0.3)),
                                    ((3, 7), (-0.4, -0.1), (-0.6, -0.3))]):
        img = (np.arange(2 * h2 * w2 * 2, dtype=f32).reshape(2, h2, w2, 2) * 5 % 17).astype(f32)
        out = _np(keras.layers.RandomZoom(hf, wf, fill_mode="constant", seed=3)(img, training=True))
        sg = keras.random.SeedGenerator(3)
        zh = _np(keras.random.uniform((2, 1), 1.0 + hf[0], 1.0 + hf[1], seed=sg)).ravel().astype(np.float64)
        zw = zh if wf is None else _np(keras.random.uniform((2, 1), 1.0 + wf[0], 1.0 + wf[1], seed=sg)).ravel()
        yy, xx = np.meshgrid(np.arange(h2, dtype=np.float64), np.arange(w2, dtype=np.float64), indexing="ij")
        for i in range(2):
            want = _bilinear(img[i].astype(np.float64), zh[i] * yy + (h2 - 1) / 2.0 * (1 - zh[i]),
                             zw[i] * xx + (w2 - 1) / 2.0 * (1 - zw[i]))
            assert_close(out[i], want, tolerance=Tolerance(rtol=1e-5, atol=1e-4),
                         call=f"RandomZoom({hf}, {wf}, fill_mode='constant', seed=3)(images {h2}x{w2})[{i}]")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_blind19_random_crop_at_and_above_its_target_size(keras, budget):
    """RandomCrop(th, tw) draws an offset only when the image is larger than the target in *both*
    dimensions (h_start, then w_start: int32(uniform((), 0, size - target + 1))); when one side equals
    the target it takes the centred window of the target's aspect ratio (here the target itself, no
    resize), whatever the seed."""
    for (h, w), seed in budget([((4, 6), 0), ((6, 4), 1), ((4, 6), 3), ((4, 4), 2), ((7, 9), 5), ((5, 8), 6)]):
        img = np.arange(2 * h * w, dtype=np.float32).reshape(2, h, w, 1)
        out = _np(keras.layers.RandomCrop(4, 4, seed=seed)(img, training=True))
        if h > 4 and w > 4:
            sg = keras.random.SeedGenerator(seed)
            h0 = int(_np(keras.random.uniform((), 0, float(h - 4 + 1), seed=sg)))
            w0 = int(_np(keras.random.uniform((), 0, float(w - 4 + 1), seed=sg)))
        else:
            ch, cw = max(min(h, int(w * 4 / 4)), 1), max(min(w, int(h * 4 / 4)), 1)
            h0, w0 = (h - ch) // 2, (w - cw) // 2
        assert_equal(out, img[:, h0:h0 + 4, w0:w0 + 4], call=f"RandomCrop(4, 4, seed={seed})(images {h}x{w})",
                     what=f"crop (window at ({h0}, {w0}))")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_blind19_image_layers_at_the_ends_of_their_ranges_and_on_integer_images(keras, budget):
    """RandomSaturation multiplies the HSV saturation by f / (1 - f + epsilon): at f = 1 a gray pixel
    (saturation 0) stays gray and finite, a coloured one saturates; at f = 0.25 the saturation is
    divided by 3 (read back with colorsys). Resizing an integer image rounds its float result before
    the saturating cast back (the same layer on the float image, rounded and clipped)."""
    img = np.array([[[[100., 100., 100.], [30., 30., 30.]], [[200., 50., 10.], [20., 90., 180.]]]], np.float32)
    out = _np(keras.layers.RandomSaturation(factor=(1.0, 1.0), seed=1)(img, training=True))
    assert_true(bool(np.all(np.isfinite(out))), f"out={out.tolist()}, but should be finite",
                call="RandomSaturation(factor=(1.0, 1.0))(gray and coloured pixels)")
    assert_close(out[0, 0], img[0, 0], tolerance=TOL32, call="RandomSaturation(factor=(1.0, 1.0))", what="gray pixels")
    out = _np(keras.layers.RandomSaturation(factor=(0.25, 0.25), seed=1)(img, training=True))
    for p_in, p_out in zip(img[0, 1], out[0, 1]):
        s_in = colorsys.rgb_to_hsv(*(p_in.astype(np.float64) / 255))[1]
        s_out = colorsys.rgb_to_hsv(*(p_out.astype(np.float64) / 255))[1]
        assert_close(s_out, s_in * 0.25 / (0.75 + 1e-7), tolerance=Tolerance(rtol=1e-4, atol=1e-5),
                     call=f"RandomSaturation(factor=(0.25, 0.25))(pixel {p_in.tolist()})", what="saturation")
    ints = np.array([[[[0], [3], [250]], [[5], [8], [255]], [[1], [200], [7]]]], np.uint8)
    for interpolation, size in budget([("bilinear", (4, 5)), ("bicubic", (5, 4)), ("bilinear", (2, 2))]):
        layer = keras.layers.Resizing(*size, interpolation=interpolation)
        got = _np(layer(ints))
        ref = _np(layer(ints.astype(np.float32)))
        want = np.clip(np.round(ref), 0, 255).astype(np.uint8)
        assert_equal(got.dtype.name, "uint8", call=f"Resizing{size}(uint8 image)", what="dtype")
        assert_equal(got, want, call=f"Resizing{size}, interpolation={interpolation!r})(uint8 image)",
                     what="pixels (the float result rounded)")
