"""Degeneracy audit 22 (degen22a): tf.image's functions off the points the suite sat on (TF 2.21). The
audit (benchmarks/degen22a_audit.py) found crop_to_bounding_box, pad_to_bounding_box,
resize_with_crop_or_pad, central_crop, adjust_brightness, sobel_edges, total_variation,
draw_bounding_boxes, the YIQ/YUV conversions and grayscale_to_rgb never run; the
adjust_* functions, per_image_standardization and rgb_to_grayscale on float images only;
per_image_standardization on non-constant images only (its 1/sqrt(N) floor never reached);
resize_with_pad on a square image only. Here: non-square images with different height and width
offsets, odd and even differences, batched and unbatched, uint8 and int16 images, a constant image.

Expected values are computed here from image_ops_impl.py's rules (TF 2.21, read): the offsets
(resize_with_crop_or_pad crops at max(-diff // 2, 0) and pads max(diff // 2, 0) before; central_crop's
start int((H - H f) / 2)), convert_image_dtype's scalings (an integer image times float32(1 / max), back
times max + 0.5 saturated and truncated), AdjustContrastv2 about the per-channel mean, the Sobel kernels on
the REFLECT-padded image, total variation's sums, per_image_standardization's max(stddev, 1/sqrt(N)).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
F32 = np.float32
TOL = Tolerance(rtol=1e-5, atol=1e-5)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def _images(b: int, h: int, w: int, c: int = 2) -> np.ndarray:
    return ((np.arange(b * h * w * c, dtype=np.float64).reshape(b, h, w, c) * 37 % 29) * 8.0 + 3.0).astype(F32)


@clause("ops.image", ref="tf221")
def test_degen22a_bounding_box_crops_and_pads(tf, budget):
    """crop_to_bounding_box(img, oh, ow, th, tw) is img[oh:oh + th, ow:ow + tw]; pad_to_bounding_box pads oh
    rows above and th - oh - H below, ow columns left and tw - ow - W right, with zeros;
    resize_with_crop_or_pad crops each side at max(-diff // 2, 0) and pads max(diff // 2, 0) before
    (diff = target - size: an odd difference puts the extra row after); central_crop(f) starts at
    int((H - H f) / 2). Non-square images, different offsets, odd and even differences, batched and
    unbatched, uint8 (the dtype kept)."""
    cases = [((5, 8), (1, 3), (3, 4), (9, 12), (2, 3), (4, 11), 0.5, True, np.uint8),
             ((7, 4), (2, 0), (4, 3), (8, 9), (1, 4), (10, 3), 0.4, False, np.float32),
             ((6, 9), (0, 2), (5, 6), (8, 12), (1, 2), (3, 8), 0.7, True, np.float32)]
    for (H, W), (oh, ow), (th, tw), (ph, pw), (pad_oh, pad_ow), (rh, rw), frac, batched, dtype in budget(cases):
        x = _images(2, H, W).astype(dtype)
        xin = x if batched else x[0]
        what = f"({'2 images' if batched else 'one image'} {H}x{W} {np.dtype(dtype).name})"

        def check(got, want, call):
            got = _np(got)
            want = want if batched else want[0]
            assert_true(got.dtype == want.dtype, f"dtype {got.dtype}, but should be {want.dtype}", call=call)
            assert_equal(got, want, call=call)
        check(tf.image.crop_to_bounding_box(xin, oh, ow, th, tw), x[:, oh:oh + th, ow:ow + tw],
              f"crop_to_bounding_box({oh}, {ow}, {th}, {tw}){what}")
        check(tf.image.pad_to_bounding_box(xin, pad_oh, pad_ow, ph, pw),
              np.pad(x, ((0, 0), (pad_oh, ph - pad_oh - H), (pad_ow, pw - pad_ow - W), (0, 0))),
              f"pad_to_bounding_box({pad_oh}, {pad_ow}, {ph}, {pw}){what}")
        want = x
        for axis, (n, t) in ((1, (H, rh)), (2, (W, rw))):
            d = t - n
            start = max(-d // 2, 0)
            want = np.take(want, np.arange(start, start + min(n, t)), axis=axis)
            before = max(d // 2, 0)
            pads = [(0, 0)] * 4
            pads[axis] = (before, t - min(n, t) - before)
            want = np.pad(want, pads)
        check(tf.image.resize_with_crop_or_pad(xin, rh, rw), want, f"resize_with_crop_or_pad({rh}, {rw}){what}")
        hs, ws = int((H - H * frac) / 2), int((W - W * frac) / 2)
        check(tf.image.central_crop(xin, frac), x[:, hs:H - hs, ws:W - ws], f"central_crop({frac}){what}")


def _from_int(x: np.ndarray) -> np.ndarray:
    return x.astype(F32) * F32(1.0 / np.iinfo(x.dtype).max)


def _to_int(v: np.ndarray, dtype, saturate: bool = True) -> np.ndarray:
    info = np.iinfo(dtype)
    s = (v.astype(F32) * F32(info.max + 0.5)).astype(F32)
    if saturate:
        s = np.clip(s, info.min, info.max)
    return np.trunc(s).astype(dtype)


@clause("ops.image", ref="tf221")
def test_degen22a_adjustments_of_integer_images(tf, budget):
    """An integer image goes to float32 by convert_image_dtype (cast, times float32(1 / max)), is adjusted
    there and comes back times max + 0.5, saturated (adjust_*) or not (rgb_to_grayscale), truncated:
    adjust_brightness adds delta, adjust_contrast scales about each channel's mean, adjust_gamma takes
    gain * x ** gamma. uint8 and int16 images (negative pixels), non-square, batched and unbatched. A
    float32 rounding of the mean or the power may move a truncation: within one step."""
    u8 = (_images(2, 3, 5, 3) % 256).astype(np.uint8)
    i16 = ((_images(2, 5, 3, 3).astype(np.int64) - 120) * 150).astype(np.int16)
    cases = [("brightness", u8, 0.2), ("contrast", u8, 1.7), ("gamma", np.abs(i16), 0.5),
             ("brightness", i16, -0.3), ("grayscale", u8, None), ("contrast", i16[0], 0.6)]
    for kind, x, arg in budget(cases):
        f = _from_int(x).astype(np.float64)
        if kind == "brightness":
            got, want = tf.image.adjust_brightness(x, arg), _to_int(_from_int(x) + F32(arg), x.dtype)
        elif kind == "contrast":
            mean = f.mean(axis=(-3, -2), keepdims=True)
            got, want = tf.image.adjust_contrast(x, arg), _to_int((f - mean) * arg + mean, x.dtype)
        elif kind == "gamma":
            got, want = tf.image.adjust_gamma(x, arg, 2.0), _to_int(2.0 * f ** arg, x.dtype)
        else:
            gray = f @ np.array([0.2989, 0.5870, 0.1140])
            got, want = tf.image.rgb_to_grayscale(x), _to_int(gray[..., None], x.dtype, saturate=False)
        got = _np(got)
        call = f"tf.image.{'rgb_to_grayscale' if kind == 'grayscale' else 'adjust_' + kind}({x.dtype.name} image " \
               f"{x.shape}{'' if arg is None else ', ' + str(arg)})"
        assert_true(got.dtype == x.dtype and got.shape == want.shape,
                    f"{got.dtype}{got.shape}, but should be {x.dtype}{want.shape}", call=call)
        d = np.abs(got.astype(np.int64) - want.astype(np.int64))
        assert_true(int(d.max()) <= 1, f"gives {got.ravel()[:8].tolist()}, but should be {want.ravel()[:8].tolist()} "
                    f"(off by up to {int(d.max())})", call=call)


@clause("ops.image", ref="tf221")
def test_degen22a_standardization_of_constant_and_integer_images(tf, budget):
    """per_image_standardization casts to float32 (no 1 / max scaling: an integer image standardizes as its
    values) and divides x - mean by max(stddev, 1/sqrt(N)) per image: a constant image gives zeros, a
    nearly constant one (stddev below 1/sqrt(N)) is divided by 1/sqrt(N); unbatched images too."""
    const = np.full((2, 3, 5, 2), 7.0, F32)
    near = np.full((3, 5, 2), 1.0, F32)
    near[1, 2, 0] = 1.01
    ramp = (np.arange(2 * 3 * 5 * 2) % 7).astype(np.uint8).reshape(2, 3, 5, 2)
    cases = [("constant", const), ("nearly constant", near), ("uint8", ramp),
             ("constant uint8", const[0].astype(np.uint8))]
    for name, x in budget(cases):
        a = x.astype(np.float64)
        mean = a.mean(axis=(-3, -2, -1), keepdims=True)
        std = a.std(axis=(-3, -2, -1), keepdims=True)
        want = (a - mean) / np.maximum(std, 1.0 / np.sqrt(np.prod(x.shape[-3:])))
        got = _np(tf.image.per_image_standardization(x))
        assert_true(got.dtype == np.float32, f"dtype {got.dtype}, but should be float32",
                    call=f"per_image_standardization({name} {x.dtype.name} {x.shape})")
        assert_close(got, want, tolerance=Tolerance(rtol=1e-4, atol=1e-4),
                     call=f"per_image_standardization({name} {x.dtype.name} {x.shape})")


@clause("ops.image", ref="tf221")
def test_degen22a_sobel_edges_and_total_variation_off_the_square(tf, budget):
    """sobel_edges: the REFLECT-padded image correlated with [[-1, -2, -1], [0, 0, 0], [1, 2, 1]] (dy, [..., 0])
    and its transpose (dx, [..., 1]); total_variation: sum |x[1:] - x[:-1]| over rows plus over columns, one
    number per image of a batch, one for a 3-D image. Non-square images (5 x 8, 7 x 3)."""
    for h, w in budget([(5, 8), (7, 3)]):
        x = _images(2, h, w).astype(np.float64) / 7.0
        p = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), mode="reflect")
        ky = np.array([[-1, -2, -1], [0, 0, 0], [1, 2, 1]], np.float64)
        want = np.zeros(x.shape + (2,))
        for k, kern in enumerate((ky, ky.T)):
            for i in range(3):
                for j in range(3):
                    want[..., k] += kern[i, j] * p[:, i:i + h, j:j + w]
        assert_close(_np(tf.image.sobel_edges(tf.constant(x.astype(F32)))), want,
                     tolerance=Tolerance(rtol=1e-5, atol=1e-4),
                     call=f"tf.image.sobel_edges(2 images {h}x{w})")
        tv = np.abs(np.diff(x, axis=1)).sum(axis=(1, 2, 3)) + np.abs(np.diff(x, axis=2)).sum(axis=(1, 2, 3))
        assert_close(_np(tf.image.total_variation(tf.constant(x))), tv, tolerance=TOL,
                     call=f"total_variation(2 images {h}x{w})")
        assert_close(_np(tf.image.total_variation(tf.constant(x[1]))), tv[1], tolerance=TOL,
                     call=f"total_variation(one image {h}x{w})")
    with raises(ValueError, call="total_variation(a rank-2 tensor)"):
        tf.image.total_variation(tf.constant(np.zeros((3, 4), F32)))


def _resize(img: np.ndarray, h: int, w: int, method: str) -> np.ndarray:
    """TF's half-pixel nearest (input index floor((i + 0.5) in / out)) or bilinear of a [B, H, W, C] batch."""
    H, W = img.shape[1:3]
    a = img.astype(np.float64)
    if method == "nearest":
        rows = np.minimum(np.floor((np.arange(h) + 0.5) * H / h).astype(int), H - 1)
        cols = np.minimum(np.floor((np.arange(w) + 0.5) * W / w).astype(int), W - 1)
        return a[:, rows][:, :, cols]

    def taps(n_in: int, n_out: int):
        c = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5
        lo = np.floor(c)
        return np.clip(lo, 0, n_in - 1).astype(int), np.clip(lo + 1, 0, n_in - 1).astype(int), c - lo
    y0, y1, fy = taps(H, h)
    x0, x1, fx = taps(W, w)
    top = a[:, y0][:, :, x0] * (1 - fx)[:, None] + a[:, y0][:, :, x1] * fx[:, None]
    bottom = a[:, y1][:, :, x0] * (1 - fx)[:, None] + a[:, y1][:, :, x1] * fx[:, None]
    return top * (1 - fy)[:, None, None] + bottom * fy[:, None, None]


@clause("ops.image", ref="tf221")
def test_degen22a_resize_with_pad_off_the_square(tf, budget):
    """resize_with_pad(img, th, tw, method): ratio = max(W / tw, H / th) in float32, the image resized to
    (floor(H / ratio), floor(W / ratio)), then padded with zeros by floor((t - size / ratio) / 2) before
    (pad_to_bounding_box). Non-square images bound by the width or by the height, batched and unbatched."""
    f32 = np.float32
    cases = [((4, 7), (6, 5), "nearest", True), ((7, 3), (5, 6), "bilinear", False),
             ((5, 8), (9, 4), "bilinear", True), ((6, 4), (3, 8), "nearest", False)]
    for (H, W), (th, tw), method, batched in budget(cases):
        x = _images(2, H, W)
        ratio = max(f32(W) / f32(tw), f32(H) / f32(th))
        rh, rw = int(np.floor(f32(H) / ratio)), int(np.floor(f32(W) / ratio))
        ph = max(0, int(np.floor((f32(th) - f32(H) / ratio) / f32(2))))
        pw = max(0, int(np.floor((f32(tw) - f32(W) / ratio) / f32(2))))
        r = _resize(x, rh, rw, method)
        want = np.pad(r, ((0, 0), (ph, th - ph - rh), (pw, tw - pw - rw), (0, 0)))
        got = _np(tf.image.resize_with_pad(x if batched else x[0], th, tw, method=method))
        assert_close(got, want if batched else want[0], tolerance=Tolerance(rtol=1e-5, atol=1e-4),
                     call=f"resize_with_pad({th}, {tw}, {method!r})({'2 images' if batched else 'one image'} {H}x{W})")


def _outline(img: np.ndarray, boxes: np.ndarray, colors: np.ndarray) -> np.ndarray:
    """DrawBoundingBoxesV2 (draw_bounding_box_op.cc) on one [H, W, C] image: box k's edges float32(v (size - 1))
    truncated; an inverted box or one wholly outside is skipped; each edge inside the image drawn over the
    box's clipped span in colors[k % len(colors)]."""
    h, w = img.shape[:2]
    out = img.copy()
    for k, (y0, x0, y1, x1) in enumerate(boxes):
        r0, r1 = int(F32(F32(y0) * F32(h - 1))), int(F32(F32(y1) * F32(h - 1)))
        c0, c1 = int(F32(F32(x0) * F32(w - 1))), int(F32(F32(x1) * F32(w - 1)))
        if r0 > r1 or c0 > c1 or r0 >= h or r1 < 0 or c0 >= w or c1 < 0:
            continue
        color = colors[k % len(colors)][:img.shape[2]]
        rows, cols = slice(max(r0, 0), min(r1, h - 1) + 1), slice(max(c0, 0), min(c1, w - 1) + 1)
        for r in (r0, r1):
            if 0 <= r < h:
                out[r, cols] = color
        for c in (c0, c1):
            if 0 <= c < w:
                out[rows, c] = color
    return out


@clause("ops.image-boxes", ref="tf221")
def test_degen22a_draw_bounding_boxes_off_the_square(tf, budget):
    """draw_bounding_boxes on non-square images (boxes [ymin, xmin, ymax, xmax] scaled by H - 1 and W - 1),
    three boxes cycling through two colours, one box partly outside the image and one inverted."""
    boxes = np.array([[[0.1, 0.3, 0.7, 0.9], [0.5, -0.2, 1.4, 0.4], [0.0, 0.0, 0.35, 0.6]],
                      [[0.25, 0.5, 1.0, 0.75], [0.6, 0.1, 0.2, 0.9], [-0.5, 0.45, 0.5, 1.2]]], F32)
    colors = np.array([[1.0, 0.0, 0.5, 1.0], [0.25, 0.75, 0.0, 1.0]], F32)
    for h, w in budget([(5, 8), (9, 4)]):
        x = (_images(2, h, w, 3) / 255.0).astype(F32)
        want = np.stack([_outline(x[i], boxes[i], colors) for i in range(2)])
        assert_equal(tf.image.draw_bounding_boxes(x, boxes, colors), want,
                     call=f"draw_bounding_boxes(2 images {h}x{w}, 3 boxes, 2 colours)")


#: image_ops_impl.py's kernels (TF 2.21, read): pixel @ kernel, the kernel's rows the input channels.
_KERNELS = {"rgb_to_yiq": [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
                           [0.114, -0.32134392, 0.31119955]],
            "yiq_to_rgb": [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]],
            "rgb_to_yuv": [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
                           [0.114, 0.43601035, -0.10001026]],
            "yuv_to_rgb": [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]}


@clause("ops.image", ref="tf221")
def test_degen22a_colour_space_kernels_and_grayscale_to_rgb(tf, budget):
    """rgb_to_yiq/yiq_to_rgb/rgb_to_yuv/yuv_to_rgb are tensordot(images, kernel, [[-1], [0]]) with TF's kernels
    (a kernel applied transposed differs on any colour pixel), in the image's float dtype, batched or a
    single image; grayscale_to_rgb tiles the one channel three times (never run by the suite before)."""
    x = (_images(2, 3, 5, 3) / 255.0).astype(F32)
    for name in budget(list(_KERNELS)):
        for img in (x, x[1].astype(np.float64)):
            got = _np(getattr(tf.image, name)(img))
            want = img.astype(np.float64) @ np.array(_KERNELS[name])
            assert_true(got.dtype == img.dtype, f"dtype {got.dtype}, but should be {img.dtype}", call=name)
            assert_close(got, want, tolerance=TOL, call=f"tf.image.{name}({img.dtype.name} {img.shape})")
    gray = x[..., :1]
    assert_equal(tf.image.grayscale_to_rgb(tf.constant(gray)), np.repeat(gray, 3, axis=-1),
                 call="grayscale_to_rgb(2 images 3x5x1)")
