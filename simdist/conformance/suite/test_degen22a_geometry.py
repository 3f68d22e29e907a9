"""Degeneracy audit 22 (degen22a): Keras's geometric image layers off the points the suite sat on
(TF 2.21 + Keras 3.15). The audit (benchmarks/degen22a_audit.py) found RandomRotation and
RandomTranslation run on square images only, channels_last only, with their default fill; RandomZoom,
RandomFlip, RandomErasing and CutMix channels_last only; RandomShear with y_factor at its default 0;
RandomGaussianBlur with a collapsed sigma range (two equal sigmas) and a square kernel. Here every
case is off those points by construction: height != width, both data formats, batched (3 images) and
unbatched, a constant fill with a nonzero fill_value, unequal sigmas, a y shear.

Every expected value is computed here: the layer's draws re-made with `keras.random` from a
SeedGenerator of the layer's seed in Keras 3.15's order, its projective rows transcribed from
keras/src/layers/preprocessing/image_preprocessing/ (random_rotation.py, random_translation.py,
random_shear.py, base_image_preprocessing_layer.py's affine matrix), and TF's ImageProjectiveTransformV3
bilinear sampling with a CONSTANT fill (tensorflow/core/kernels/image/image_ops.h) written in NumPy;
gaussian_blur's kernel transcribed from keras/src/backend/tensorflow/image.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.suite import cutmix_draws
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=1e-4, atol=2e-3)   # float32 sampling and convolution (values up to ~250) against float64
F32 = np.float32


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def _images(b: int, h: int, w: int, c: int = 3) -> np.ndarray:
    """Distinct-looking pixel values in [12, 232] with no symmetry between rows and columns."""
    return ((np.arange(b * h * w * c, dtype=np.float64).reshape(b, h, w, c) * 37 % 23) * 10.0 + 12.0).astype(F32)


def _project(img: np.ndarray, rows: np.ndarray, fill: float) -> np.ndarray:
    """ImageProjectiveTransformV3(BILINEAR, CONSTANT) of one [H, W, C] image by rows [a0 a1 a2 b0 b1 b2 c0 c1]:
    output (y, x) samples the input at ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1,
    each of the four pixels around the point read as `fill` outside the image."""
    h, w = img.shape[:2]
    a0, a1, a2, b0, b1, b2, c0, c1 = (float(v) for v in rows)
    yy, xx = np.meshgrid(np.arange(h, dtype=np.float64), np.arange(w, dtype=np.float64), indexing="ij")
    k = c0 * xx + c1 * yy + 1.0
    sx, sy = (a0 * xx + a1 * yy + a2) / k, (b0 * xx + b1 * yy + b2) / k
    x0, y0 = np.floor(sx), np.floor(sy)

    def read(yi, xi):
        inside = (yi >= 0) & (yi < h) & (xi >= 0) & (xi < w)
        v = img[np.clip(yi, 0, h - 1).astype(int), np.clip(xi, 0, w - 1).astype(int)].astype(np.float64)
        return np.where(inside[..., None], v, fill)
    wx0, wx1 = (x0 + 1 - sx)[..., None], (sx - x0)[..., None]
    top = wx0 * read(y0, x0) + wx1 * read(y0, x0 + 1)
    bottom = wx0 * read(y0 + 1, x0) + wx1 * read(y0 + 1, x0 + 1)
    return (y0 + 1 - sy)[..., None] * top + (sy - y0)[..., None] * bottom


def _layout(x: np.ndarray, data_format: str, batched: bool) -> np.ndarray:
    """A channels-last batch as the layer takes it: channels_first transposed, unbatched the first image."""
    y = np.ascontiguousarray(x.transpose(0, 3, 1, 2)) if data_format == "channels_first" else x
    return y if batched else y[0]


def _rotation_rows(angle_deg: float, h: int, w: int) -> np.ndarray:
    """Keras's rotation about the centre (cx, cy) = (0.5 (W - 1), 0.5 (H - 1)) (`_compute_affine_matrix`)."""
    t = angle_deg * math.pi / 180.0
    cx, cy = 0.5 * (w - 1), 0.5 * (h - 1)
    a0, a1, b0, b1 = math.cos(t), -math.sin(t), math.sin(t), math.cos(t)
    return np.array([a0, a1, cx - cx * a0 - cy * a1, b0, b1, cy - cx * b0 - cy * b1, 0.0, 0.0])


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_degen22a_rotation_translation_zoom_on_non_square_images(keras, budget):
    """RandomRotation(factor) draws one angle per image, uniform(batch, f0 * 360, f1 * 360) degrees, and
    rotates about (0.5 (W - 1), 0.5 (H - 1)); RandomTranslation draws the vertical shift
    uniform(batch, h_lo, h_hi) * H, then the horizontal uniform(batch, w_lo, w_hi) * W, and samples at
    (x - dx, y - dy); RandomZoom draws a height zoom then a width zoom in 1 + [factor] and samples
    (zw x + (W - 1)/2 (1 - zw), zh y + (H - 1)/2 (1 - zh)). Height and width are read from the data format's
    axes; an unbatched image is a
    batch of one. Non-square images (so H and W, x and y are not interchangeable), both data formats,
    fill_mode="constant" with fill_value -7."""
    cases = [("rotation", (5, 8), "channels_last", True, 1), ("translation", (5, 8), "channels_last", True, 2),
             ("rotation", (7, 4), "channels_first", True, 3), ("translation", (4, 7), "channels_first", False, 4),
             ("rotation", (3, 6), "channels_last", False, 5), ("translation", (8, 3), "channels_first", True, 6),
             ("zoom", (4, 7), "channels_first", True, 7), ("zoom", (7, 5), "channels_first", False, 8)]
    for kind, (h, w), data_format, batched, seed in budget(cases):
        assert_true(h != w, f"case {kind} {h}x{w} is square: it cannot tell height from width", call="cases")
        x = _images(3, h, w)
        n = 3 if batched else 1
        sg = keras.random.SeedGenerator(seed)
        if kind == "rotation":
            layer = keras.layers.RandomRotation((0.05, 0.2), fill_mode="constant", fill_value=-7.0, seed=seed,
                                                data_format=data_format)
            angles = _np(keras.random.uniform((n,), 0.05 * 360.0, 0.2 * 360.0, seed=sg))
            rows = [_rotation_rows(float(a), h, w) for a in angles]
        elif kind == "zoom":
            layer = keras.layers.RandomZoom((-0.4, -0.1), (-0.2, 0.3), fill_mode="constant", fill_value=-7.0,
                                            seed=seed, data_format=data_format)
            zh = _np(keras.random.uniform((n, 1), 0.6, 0.9, seed=sg)).ravel().astype(np.float64)
            zw = _np(keras.random.uniform((n, 1), 0.8, 1.3, seed=sg)).ravel().astype(np.float64)
            rows = [np.array([zw[i], 0.0, (w - 1) / 2.0 * (1 - zw[i]), 0.0, zh[i], (h - 1) / 2.0 * (1 - zh[i]),
                              0.0, 0.0]) for i in range(n)]
        else:
            layer = keras.layers.RandomTranslation((0.1, 0.3), (-0.4, -0.2), fill_mode="constant", fill_value=-7.0,
                                                   seed=seed, data_format=data_format)
            dy = _np(keras.random.uniform((n, 1), 0.1, 0.3, seed=sg)).ravel() * h
            dx = _np(keras.random.uniform((n, 1), -0.4, -0.2, seed=sg)).ravel() * w
            rows = [np.array([1.0, 0.0, -dx[i], 0.0, 1.0, -dy[i], 0.0, 0.0]) for i in range(n)]
        want = np.stack([_project(x[i], rows[i], -7.0) for i in range(n)])
        got = _np(layer(_layout(x, data_format, batched), training=True))
        assert_close(got, _layout(want, data_format, batched), tolerance=TOL,
                     call=f"Random{kind.title()}(seed={seed}, data_format={data_format!r}, fill_value=-7)"
                          f"({'3 images' if batched else 'one image'} {h}x{w})")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_degen22a_flip_in_both_data_formats(keras, budget):
    """RandomFlip(mode, seed) draws flips = uniform((batch, 1, 1, 1)) <= 0.5 ((1, 1, 1) unbatched) and flips
    the flagged images' width axis (horizontal) and/or height axis (vertical): axes -2 / -3 channels_last,
    -1 / -2 channels_first. Non-square images, 5 per batch; the draw must flag some images and not others."""
    cases = [("horizontal", "channels_first", True, 3), ("vertical", "channels_first", True, 3),
             ("horizontal_and_vertical", "channels_first", True, 5), ("horizontal", "channels_first", False, 1),
             ("vertical", "channels_first", False, 0), ("horizontal", "channels_last", True, 3)]
    for mode, data_format, batched, seed in budget(cases):
        x = _images(5, 4, 7)
        n = 5 if batched else 1
        flips = _np(keras.random.uniform((n, 1, 1, 1) if batched else (1, 1, 1),
                                         seed=keras.random.SeedGenerator(seed))).ravel() <= 0.5
        if batched:
            assert_true(0 < flips.sum() < n, f"seed {seed} flips {flips.tolist()}: all or none, the check cannot "
                        "tell which images were flipped", call=f"RandomFlip({mode!r}, seed={seed})")
        want = x[:n].copy()
        for i in range(n):
            if flips[i]:
                if mode != "vertical":
                    want[i] = want[i][:, ::-1]
                if mode != "horizontal":
                    want[i] = want[i][::-1]
        got = _np(keras.layers.RandomFlip(mode, seed=seed, data_format=data_format)(_layout(x, data_format, batched),
                                                                                  training=True))
        assert_equal(got, _layout(want, data_format, batched),
                     call=f"RandomFlip({mode!r}, seed={seed}, data_format={data_format!r})"
                          f"({'5 images' if batched else 'one image'} 4x7)", what=f"flips {flips.astype(int).tolist()}")


@clause("keras.layer.image-geometric-augment", ref="tf221")
def test_degen22a_shear_along_y_and_both_axes(keras, budget):
    """RandomShear draws a sign per image (-1 where uniform((batch, 1)) > 0.5), then shear_y =
    uniform((batch, 1), y_lo, y_hi), then shear_x likewise, and samples output (y, x) at
    (x + sx y, y + sy x) (rows [1, sx, 0, sy, 1, 0, 0, 0], both factors times the sign). A y_factor off
    its default 0, on non-square images, bilinear with a constant fill of 3."""
    cases = [(0.0, (0.2, 0.5), (5, 8), 4), ((0.1, 0.3), (0.2, 0.4), (6, 3), 2), (0.0, 0.4, (4, 7), 9)]
    for xf, yf, (h, w), seed in budget(cases):
        x = _images(3, h, w)
        sg = keras.random.SeedGenerator(seed)
        sign = np.where(_np(keras.random.uniform((3, 1), 0, 1, seed=sg)) > 0.5, -1.0, 1.0).ravel()
        ylo, yhi = sorted(yf) if isinstance(yf, tuple) else (-yf, yf)
        xlo, xhi = sorted(xf) if isinstance(xf, tuple) else (-xf, xf)
        sy = _np(keras.random.uniform((3, 1), ylo, yhi, seed=sg)).ravel() * sign
        sx = _np(keras.random.uniform((3, 1), xlo, xhi, seed=sg)).ravel() * sign
        want = np.stack([_project(x[i], np.array([1.0, sx[i], 0.0, sy[i], 1.0, 0.0, 0.0, 0.0]), 3.0)
                         for i in range(3)])
        got = _np(keras.layers.RandomShear(x_factor=xf, y_factor=yf, fill_mode="constant", fill_value=3.0,
                                           seed=seed)(x, training=True))
        assert_close(got, want, tolerance=TOL, call=f"RandomShear(x_factor={xf}, y_factor={yf}, seed={seed}, "
                     f"fill_mode='constant', fill_value=3)(3 images {h}x{w})", what=f"shears sx={sx}, sy={sy}")


def _gaussian_kernel(kernel_size: tuple[int, int], sigma: tuple[float, float]) -> np.ndarray:
    """Keras's gaussian_blur kernel: outer(k1d(size[1], sigma[1]), k1d(size[0], sigma[0])) reshaped to
    (size[0], size[1]); k1d(n, s) = exp(-0.5 ((i - (n - 1) / 2) / s)^2), normalized."""
    def k1d(n: int, s: float) -> np.ndarray:
        v = np.exp(-0.5 * ((np.arange(n) - (n - 1) / 2.0) / s) ** 2)
        return v / v.sum()
    return np.outer(k1d(kernel_size[1], sigma[1]), k1d(kernel_size[0], sigma[0])).reshape(kernel_size)


def _depthwise_same(images: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """A per-channel 2-D correlation with zero SAME padding (channels-last batch), float64."""
    kh, kw = kernel.shape
    x = np.pad(images.astype(np.float64), ((0, 0), ((kh - 1) // 2, kh // 2), ((kw - 1) // 2, kw // 2), (0, 0)))
    out = np.zeros(images.shape, np.float64)
    for i in range(kh):
        for j in range(kw):
            out += kernel[i, j] * x[:, i:i + images.shape[1], j:j + images.shape[2]]
    return out


@clause("keras.layer.image-erase-blur", ref="tf221")
def test_degen22a_gaussian_blur_with_unequal_sigmas(keras, budget):
    """keras.ops.image.gaussian_blur(kernel_size, sigma) convolves (zero SAME padding, per channel) with
    outer(k(size[1], sigma[1]), k(size[0], sigma[0])) reshaped to (size[0], size[1]): sigma[0] blurs along
    the width, sigma[1] along the height. RandomGaussianBlur(factor=(1, 1)) draws probability, threshold and
    then one sigma pair uniform((2,), sigma) + 1e-6, clips to value_range. Unequal sigmas (the suite's
    sigma=(0.5, 0.5) draws two equal ones), non-square images, both data formats."""
    x = _images(3, 5, 8)
    cases = [("op", (3, 3), (0.6, 1.4), "channels_last"), ("layer", (5, 5), (0.3, 1.5), "channels_last"),
             ("op", (5, 5), (1.5, 0.4), "channels_first"), ("layer", (3, 3), (0.2, 1.0), "channels_first")]
    for kind, ks, sigma, data_format in budget(cases):
        if kind == "op":
            got = keras.ops.image.gaussian_blur(_layout(x, data_format, True), kernel_size=ks, sigma=sigma,
                                                data_format=data_format)
            want = _depthwise_same(x, _gaussian_kernel(ks, sigma))
            call = f"keras.ops.image.gaussian_blur(kernel_size={ks}, sigma={sigma}, data_format={data_format!r})"
        else:
            sg = keras.random.SeedGenerator(11)
            keras.random.uniform((3,), 1.0, 1.0, seed=sg)
            keras.random.uniform((3,), 0.0, 1.0, seed=sg)
            s = _np(keras.random.uniform((2,), sigma[0], sigma[1], seed=sg)).astype(np.float64) + 1e-6
            assert_true(abs(s[0] - s[1]) > 0.1, f"the sigma draw {s} is near-equal: it cannot tell the axes apart",
                        call="RandomGaussianBlur draws")
            layer = keras.layers.RandomGaussianBlur(factor=(1.0, 1.0), kernel_size=ks[0], sigma=sigma,
                                                    value_range=(0, 255), seed=11, data_format=data_format)
            got = layer(_layout(x, data_format, True), training=True)
            want = np.clip(_depthwise_same(x, _gaussian_kernel(ks, tuple(s))), 0, 255)
            call = f"RandomGaussianBlur(factor=(1, 1), kernel_size={ks[0]}, sigma={sigma}, seed=11, " \
                   f"data_format={data_format!r}) (drawn sigmas {s})"
        assert_close(_np(got), _layout(want, data_format, True), tolerance=TOL, call=call + " (3 images 5x8)")


@clause("keras.layer.image-erase-blur", ref="tf221")
def test_degen22a_erasing_boxes_off_the_square(keras, budget):
    """RandomErasing draws ratio = sqrt(uniform((batch, 2), scale)), the box's width r0 W and x start
    uniform(batch) (W - r0 W), then its height r1 H and y start, the probability uniform(factor) and the
    threshold uniform(0, 1), all float32; pixels with x0 <= x < x1 and y0 <= y < y1 take the fill (clipped to
    value_range) where threshold < probability. Non-square images (4 x 9, 8 x 3), batches of 3, both data
    formats, unbatched, a constant fill."""
    f32 = np.float32
    cases = [((4, 9), "channels_first", True, 3), ((8, 3), "channels_last", True, 5),
             ((4, 9), "channels_last", False, 2), ((8, 3), "channels_first", False, 7)]
    for (h, w), data_format, batched, seed in budget(cases):
        x = _images(3, h, w)
        n = 3 if batched else 1
        sg = keras.random.SeedGenerator(seed)
        ratio = np.sqrt(_np(keras.random.uniform((n, 2), 0.1, 0.6, seed=sg)).astype(f32))
        cw = (ratio[:, 0] * f32(w)).astype(f32)
        x0 = (_np(keras.random.uniform((n,), 0, 1, seed=sg)).astype(f32) * (f32(w) - cw)).astype(f32)
        ch = (ratio[:, 1] * f32(h)).astype(f32)
        y0 = (_np(keras.random.uniform((n,), 0, 1, seed=sg)).astype(f32) * (f32(h) - ch)).astype(f32)
        gy, gx = np.meshgrid(np.arange(h, dtype=f32), np.arange(w, dtype=f32), indexing="ij")
        want = x[:n].copy()
        for i in range(n):
            box = ((gx >= x0[i]) & (gx < (x0[i] + cw[i]).astype(f32))
                   & (gy >= y0[i]) & (gy < (y0[i] + ch[i]).astype(f32)))
            want[i][box] = 99.0
            assert_true(bool(box.any()) and not box.all(), f"seed {seed}, image {i}: the box covers "
                        f"{int(box.sum())} of {h * w} pixels: the check cannot see where it lies",
                        call="RandomErasing draws")
        layer = keras.layers.RandomErasing(factor=(1.0, 1.0), scale=(0.1, 0.6), fill_value=99.0,
                                           value_range=(0, 255), seed=seed, data_format=data_format)
        got = _np(layer(_layout(x, data_format, batched), training=True))
        assert_equal(got, _layout(want, data_format, batched),
                     call=f"RandomErasing(scale=(0.1, 0.6), fill_value=99, seed={seed}, data_format={data_format!r})"
                          f"({'3 images' if batched else 'one image'} {h}x{w})",
                     what=f"images (boxes x [{x0}, +{cw}) y [{y0}, +{ch}))")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_degen22a_cutmix_channels_first_and_unbatched(keras, budget):
    """CutMix with data_format="channels_first" takes its box over the (H, W) axes of a channels-first batch:
    alpha, beta weights, the x starts (over W) then the y starts (over H), the partner permutation, each drawn
    as for channels_last; the labels mixed by the kept area. An unbatched image has no partner: it passes
    unchanged. Non-square 5 x 8 images, batches of 4; some image must take a box from another."""
    b, h, w = 4, 5, 8
    x = _images(b, h, w, 2)
    y = np.eye(b, dtype=F32)
    moved = 0
    for seed in budget([2, 7, 11]):
        out = keras.layers.CutMix(factor=1.0, seed=seed, data_format="channels_first")(
            {"images": _layout(x, "channels_first", True), "labels": y}, training=True)
        want, labels, perm, boxes = cutmix_draws.expected(keras, _np, x, y, seed)
        moved += sum(int(perm[i] != i and boxes[i].any() and not boxes[i].all()) for i in range(b))
        assert_equal(_np(out["images"]), _layout(want, "channels_first", True),
                     call=f"CutMix(seed={seed}, data_format='channels_first')(4 images 2x5x8)", what="images")
        assert_close(_np(out["labels"]), labels, tolerance=Tolerance(rtol=2e-5, atol=2e-5),
                     call=f"CutMix(seed={seed}, data_format='channels_first')", what="labels")
    assert_true(moved > 0, "no image took a partial box from another image: the check saw no mixing", call="CutMix")
    one = _layout(x, "channels_first", True)[0]
    assert_equal(keras.layers.CutMix(seed=3, data_format="channels_first")(one, training=True), one,
                 call="CutMix(data_format='channels_first')(one image 2x5x8)")
