"""Degeneracy audit 22 (degen22a): Keras's Resizing and CenterCrop off the points the suite sat on
(TF 2.21 + Keras 3.15). The audit (benchmarks/degen22a_audit.py) found Resizing run on square images only
with crop_to_aspect_ratio / pad_to_aspect_ratio / fill_value at their defaults, and CenterCrop never on
an unbatched or integer image. Here: non-square images cropped or padded to another aspect ratio with an
odd excess, both data formats, uint8 and float32, batched and unbatched.

Expected values are computed here: the crop and pad windows transcribed from
keras/src/backend/tensorflow/image.py's `resize` (crop_height = int(float32(W th) / tw) clipped to [1, H],
start int(float32(H - crop_height) / 2); pad_to_aspect_ratio pads int((pad_height - H) / 2) rows of
fill_value on *both* sides), TF's ResizeBilinear with half-pixel centres and ResizeNearestNeighbor
(input index floor((i + 0.5) in / out)) in NumPy, and Resizing's integer rule (round, then saturate-cast).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=1e-5, atol=1e-3)   # float32 bilinear weights (values up to 255) against float64


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def _images(b: int, h: int, w: int, c: int = 2) -> np.ndarray:
    return ((np.arange(b * h * w * c, dtype=np.float64).reshape(b, h, w, c) * 37 % 29) * 8.0 + 3.0).astype(np.float32)


def _taps(n_in: int, n_out: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    c = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5
    lo = np.floor(c)
    return np.clip(lo, 0, n_in - 1).astype(int), np.clip(lo + 1, 0, n_in - 1).astype(int), c - lo


def _resize(img: np.ndarray, h: int, w: int, method: str) -> np.ndarray:
    """One channels-last image: TF's bilinear (half-pixel centres, the lower tap clamped at 0) or nearest
    (floor((i + 0.5) in / out)), float64."""
    H, W = img.shape[:2]
    a = img.astype(np.float64)
    if method == "nearest":
        rows = np.minimum(np.floor((np.arange(h) + 0.5) * H / h).astype(int), H - 1)
        cols = np.minimum(np.floor((np.arange(w) + 0.5) * W / w).astype(int), W - 1)
        return a[rows][:, cols]
    y0, y1, fy = _taps(H, h)
    x0, x1, fx = _taps(W, w)
    top = a[y0][:, x0] * (1 - fx)[None, :, None] + a[y0][:, x1] * fx[None, :, None]
    bottom = a[y1][:, x0] * (1 - fx)[None, :, None] + a[y1][:, x1] * fx[None, :, None]
    return top * (1 - fy)[:, None, None] + bottom * fy[:, None, None]


def _aspect_window(H: int, W: int, th: int, tw: int, mode: str) -> tuple[int, int, int, int]:
    """Keras's crop (crop_h, crop_w, h_start, w_start) or pad (pad rows, pad columns per side, 0, 0)."""
    f32 = np.float32
    if mode == "crop":
        ch = max(min(H, int(f32(W * th) / f32(tw))), 1)
        cw = max(min(W, int(f32(H * tw) / f32(th))), 1)
        return ch, cw, int(f32(H - ch) / f32(2)), int(f32(W - cw) / f32(2))
    ph = max(H, int(f32(W * th) / f32(tw)))
    pw = max(W, int(f32(H * tw) / f32(th)))
    return int(f32(ph - H) / f32(2)), int(f32(pw - W) / f32(2)), 0, 0


def _layout(x: np.ndarray, data_format: str, batched: bool) -> np.ndarray:
    y = np.ascontiguousarray(x.transpose(0, 3, 1, 2)) if data_format == "channels_first" else x
    return y if batched else y[0]


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_degen22a_resizing_to_another_aspect_ratio(keras, budget):
    """Resizing(th, tw, crop_to_aspect_ratio=True) resizes the centred window of the target's aspect ratio
    (start truncated: an odd excess puts the extra pixel after the window); pad_to_aspect_ratio=True
    first pads fill_value around the image (the same int(excess / 2) on both sides), then resizes. Cases
    wide and tall, odd excesses, both data formats, unbatched, uint8 (rounded, then saturate-cast)."""
    cases = [("crop", (6, 11), (4, 4), "bilinear", "channels_last", True, np.float32),
             ("crop", (9, 4), (3, 5), "nearest", "channels_first", True, np.float32),
             ("pad", (5, 8), (6, 6), "bilinear", "channels_last", True, np.float32),
             ("crop", (5, 12), (4, 3), "bilinear", "channels_last", False, np.uint8),
             ("pad", (9, 4), (4, 5), "nearest", "channels_first", False, np.float32),
             ("crop", (7, 10), (5, 5), "bilinear", "channels_first", True, np.uint8)]
    for mode, (H, W), (th, tw), method, data_format, batched, dtype in budget(cases):
        x = _images(2, H, W)
        if dtype == np.uint8:
            x = np.round(x).astype(np.uint8)
        a, b, hs, ws = _aspect_window(H, W, th, tw, mode)
        want = []
        for img in x.astype(np.float64):
            if mode == "crop":
                img = img[hs:hs + a, ws:ws + b]
            else:
                img = np.pad(img, ((a, a), (b, b), (0, 0)), constant_values=9.0)
            want.append(_resize(img, th, tw, method))
        want = np.stack(want)
        if dtype == np.uint8:
            want = np.clip(np.round(want), 0, 255)
        kwargs = {"crop_to_aspect_ratio": True} if mode == "crop" else {"pad_to_aspect_ratio": True, "fill_value": 9.0}
        layer = keras.layers.Resizing(th, tw, interpolation=method, data_format=data_format, **kwargs)
        got = _np(layer(_layout(x, data_format, batched)))
        call = (f"Resizing({th}, {tw}, {method!r}, {next(iter(kwargs))}=True, data_format={data_format!r})"
                f"({'2 images' if batched else 'one image'} {H}x{W} {np.dtype(dtype).name})")
        assert_true(got.dtype == dtype, f"dtype {got.dtype}, but should be {np.dtype(dtype).name}", call=call)
        if dtype == np.uint8:   # a float32 half-way value may round either way: within one step
            d = np.abs(got.astype(np.float64) - _layout(want, data_format, batched))
            assert_true(d.max() <= 1, f"differs by up to {d.max()} from "
                        f"{_layout(want, data_format, batched).ravel()[:8]} (got {got.ravel()[:8]})", call=call)
            assert_true(np.mean(d == 0) > 0.9, f"only {np.mean(d == 0):.2f} of the pixels exact", call=call)
        else:
            assert_close(got, _layout(want, data_format, batched), tolerance=TOL, call=call)
        assert_equal(tuple(layer.compute_output_shape(_layout(x, data_format, batched).shape)), got.shape,
                     call=call + ".compute_output_shape")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_degen22a_center_crop_odd_unbatched_and_integer(keras, budget):
    """CenterCrop(h, w) of an image at least as large: the window at ((H - h) // 2, (W - w) // 2) in the
    compute dtype (an integer image comes back float32); odd and even excesses, unbatched, both data
    formats, uint8 and int32 images."""
    cases = [((7, 10), (4, 5), "channels_last", False, np.uint8), ((6, 9), (3, 4), "channels_first", True, np.int32),
             ((5, 8), (5, 3), "channels_first", False, np.float32), ((9, 4), (2, 4), "channels_last", True, np.uint8)]
    for (H, W), (h, w), data_format, batched, dtype in budget(cases):
        x = _images(2, H, W).astype(dtype)
        want = x[:, (H - h) // 2:(H - h) // 2 + h, (W - w) // 2:(W - w) // 2 + w].astype(np.float32)
        got = _np(keras.layers.CenterCrop(h, w, data_format=data_format)(_layout(x, data_format, batched)))
        assert_equal(got, _layout(want, data_format, batched),
                     call=f"CenterCrop({h}, {w}, data_format={data_format!r})"
                          f"({'2 images' if batched else 'one image'} {H}x{W} {np.dtype(dtype).name})")
