"""tf.image.resize's methods — clause ops.image-resize (TF 2.21 only).

Runs on the backend's `tf` alone. The references are the clause's rules written out here in
NumPy (float64, compared within float32 tolerance): area resizing by whole factors is the block
mean; nearest reads input index floor((i + 0.5) * in / out) and keeps the dtype; the
ScaleAndTranslate methods weigh taps by their kernel at (tap + 0.5 - sample) / kernel_scale,
normalized; ResizeArea has no gradient. The case-by-case comparison with TF 2.21 is
tests/ops/test_fuzz7_resize_tf.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_dtype, assert_true, raises, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-5)
_IMG = ((np.arange(2 * 6 * 4 * 3) * 7 % 11) / 4).astype(np.float32).reshape(2, 6, 4, 3)


def _kernel(name: str, x: np.ndarray) -> np.ndarray:
    x = np.abs(x)
    if name == "gaussian":
        return np.where(x >= 1.5, 0.0, np.exp(-x * x / 0.5))
    if name == "triangle":
        return np.where(x < 1, 1 - x, 0.0)
    r = 3.0   # lanczos3
    with np.errstate(divide="ignore", invalid="ignore"):
        v = r * np.sin(np.pi * x) * np.sin(np.pi * x / r) / (np.pi ** 2 * x * x)
    return np.where(x > r, 0.0, np.where(x <= 1e-3, 1.0, v))


def _weights(name: str, radius: float, n_in: int, n_out: int, antialias: bool) -> np.ndarray:
    """(n_out, n_in) ScaleAndTranslate weights for scale n_out / n_in, translation 0."""
    inv = n_in / n_out
    ks = max(inv, 1.0) if antialias else 1.0
    w = np.zeros((n_out, n_in))
    for o in range(n_out):
        s = (o + 0.5) * inv
        lo = min(max(int(np.ceil(s - radius * ks - 0.5)), 0), n_in - 1)
        hi = min(max(int(np.floor(s + radius * ks - 0.5)), 0), n_in - 1) + 1
        k = _kernel(name, (np.arange(lo, hi) + 0.5 - s) / ks)
        w[o, lo:hi] = k / k.sum()
    return w


@clause("ops.image-resize", ref="tf221")
def test_area_and_nearest_follow_their_index_maps(tf):
    got = to_numpy(tf.image.resize(_IMG, [3, 2], "area"))
    want = _IMG.reshape(2, 3, 2, 2, 2, 3).mean(axis=(2, 4))
    assert_close(got, want, call="resize(x (2, 6, 4, 3), [3, 2], 'area')", tolerance=TOL32)
    u8 = (np.arange(24, dtype=np.uint8) * 9).reshape(4, 6, 1)
    out = tf.image.resize(u8, [3, 4], "nearest")
    assert_dtype(out, "uint8", call="resize(uint8, 'nearest')")
    rows, cols = np.floor((np.arange(3) + 0.5) * 4 / 3).astype(int), np.floor((np.arange(4) + 0.5) * 6 / 4).astype(int)
    want_u8 = u8[rows][:, cols]
    assert_true(np.array_equal(to_numpy(out), want_u8), f"nearest gives {to_numpy(out).ravel()}, but should be "
                f"{want_u8.ravel()} (input index floor((i + 0.5) in / out))", call="resize(uint8, [3, 4], 'nearest')")
    assert_dtype(tf.image.resize(u8, [3, 4], "bicubic"), "float32", call="resize(uint8, 'bicubic')")


@clause("ops.image-resize", ref="tf221")
@pytest.mark.parametrize("method,antialias,kernel,radius", [("gaussian", False, "gaussian", 1.5),
                                                            ("lanczos3", True, "lanczos3", 3.0),
                                                            ("bilinear", True, "triangle", 1.0)])
def test_scale_and_translate_methods_weigh_taps_by_their_kernel(tf, method, antialias, kernel, radius):
    for size in ((3, 7), (9, 2)):
        got = to_numpy(tf.image.resize(_IMG, list(size), method, antialias=antialias))
        wy = _weights(kernel, radius, 6, size[0], antialias)
        wx = _weights(kernel, radius, 4, size[1], antialias)
        want = np.einsum("ph,bhwc,qw->bpqc", wy, _IMG.astype(np.float64), wx)
        assert_close(got, want, call=f"resize(x (2, 6, 4, 3), {list(size)}, {method!r}, antialias={antialias})",
                     tolerance=TOL32)


@clause("ops.image-resize", ref="tf221")
def test_area_has_no_gradient(tf):
    x = tf.Variable(_IMG)
    with raises(LookupError, call="GradientTape.gradient of resize(x, [3, 2], 'area')"):
        with tf.GradientTape() as tape:
            y = tf.image.resize(x, [3, 2], "area")
        tape.gradient(y, x)
