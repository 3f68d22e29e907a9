"""Degeneracy audit 22 (area degen22b): window ops off their degenerate points (TF 2.21 + Keras 3.15).

The suite's convolutions and pools ran on square inputs with square windows, equal strides and
equal dilations (or none), where a height/width swap, the top padding read for the left one, or
the height's dilation used for the width give the right answer. Here every input is H != W, every
window, stride and dilation differs per axis, and SAME padding is uneven (before != after, top !=
left). Expected values are a NumPy transcription of TF's window geometry (SAME: out = ceil(in / s),
pad = max((out - 1) s + (k - 1) d + 1 - in, 0), before = pad // 2; VALID: out = ceil((in - (k - 1) d)
/ s)), of the direct convolution, and of AvgPool's "in-bounds elements only" mean; inputs are small
integers, so every float32 sum is exact in any order.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal

clause = pytest.mark.clause


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def _geometry(size: int, k: int, s: int, d: int, padding: str) -> tuple[int, int]:
    """(out, pad_before) of one spatial axis, TF's GetWindowedOutputSizeVerbose."""
    eff = (k - 1) * d + 1
    if padding == "VALID":
        return -(-(size - eff + 1) // s), 0
    out = -(-size // s)
    return out, max((out - 1) * s + eff - size, 0) // 2


def _windows(x: np.ndarray, k: tuple, s: tuple, d: tuple, padding: str):
    """Yields (i, j, patch, inside) for each output position of an NHWC input: the window's
    elements (zeros outside) and the in-bounds indicator, shape [N, kh, kw, C] / [kh, kw]."""
    n, h, w, c = x.shape
    (oh, pt), (ow, pl) = _geometry(h, k[0], s[0], d[0], padding), _geometry(w, k[1], s[1], d[1], padding)
    for i in range(oh):
        for j in range(ow):
            ys = i * s[0] - pt + np.arange(k[0]) * d[0]
            xs = j * s[1] - pl + np.arange(k[1]) * d[1]
            inside = ((ys >= 0) & (ys < h))[:, None] & ((xs >= 0) & (xs < w))[None, :]
            patch = x[:, np.clip(ys, 0, h - 1)][:, :, np.clip(xs, 0, w - 1)] * inside[None, :, :, None]
            yield i, j, patch, inside, (oh, ow)


def conv2d_ref(x: np.ndarray, f: np.ndarray, s: tuple, d: tuple, padding: str) -> np.ndarray:
    out = None
    for i, j, patch, _, (oh, ow) in _windows(x, f.shape[:2], s, d, padding):
        if out is None:
            out = np.zeros((x.shape[0], oh, ow, f.shape[3]), np.float64)
        out[:, i, j] = np.einsum("nabc,abco->no", patch, f)
    return out


def pool_ref(x: np.ndarray, k: tuple, s: tuple, padding: str, kind: str) -> np.ndarray:
    out = None
    for i, j, patch, inside, (oh, ow) in _windows(x, k, s, (1, 1), padding):
        if out is None:
            out = np.zeros((x.shape[0], oh, ow, x.shape[3]), np.float64)
        if kind == "avg":
            out[:, i, j] = patch.sum((1, 2)) / inside.sum()
        else:
            out[:, i, j] = np.where(inside[None, :, :, None], patch, -np.inf).max((1, 2))
    return out


X = (np.arange(2 * 5 * 7 * 3) * 7 % 11 - 5).astype(np.float32).reshape(2, 5, 7, 3)
#: (ksize, strides, padding): windows, strides and SAME paddings that differ per axis
POOLS = [((3, 2), (2, 1), "SAME"), ((2, 3), (1, 2), "SAME"), ((3, 3), (2, 2), "SAME"), ((2, 3), (2, 3), "VALID"),
         ((1, 4), (3, 1), "SAME")]


@clause("ops.nn-more", ref="tf221")
def test_degen22b_windows_pools_off_the_square(tf, budget):
    """tf.nn.avg_pool2d / max_pool2d (NHWC) on a 5x7 input with windows, strides and SAME paddings
    that differ between height and width: SAME's average counts the in-bounds elements of each window,
    its top and left paddings computed each from its own axis."""
    for k, s, pad in budget(POOLS):
        for kind, fn in (("avg", tf.nn.avg_pool2d), ("max", tf.nn.max_pool2d)):
            call = f"tf.nn.{kind}_pool2d(x[2, 5, 7, 3], ksize={list(k)}, strides={list(s)}, {pad!r})"
            got = _np(fn(X, list(k), list(s), pad))
            assert_equal(got.shape, pool_ref(X, k, s, pad, kind).shape, call=call, what="shape")
            assert_equal(got.astype(np.float64).round(5), pool_ref(X, k, s, pad, kind).round(5), call=call)


#: (filter [kh, kw], strides, dilations, padding): stride and dilation never equal on both axes
CONVS = [((2, 3), (1, 1), (1, 2), "SAME"), ((3, 2), (1, 1), (2, 1), "VALID"), ((3, 2), (2, 1), (1, 1), "SAME"),
         ((2, 2), (1, 3), (1, 1), "SAME"), ((2, 3), (1, 1), (2, 1), "SAME")]


@clause("ops.nn-more", ref="tf221")
def test_degen22b_windows_convolutions_with_unequal_strides_and_dilations(tf, keras, budget):
    """tf.nn.conv2d and keras.layers.Conv2D on a 5x7 input with a non-square filter and strides or
    dilations that differ per axis: each axis' output size and padding follows its own kernel extent
    (k - 1) d + 1 and stride."""
    f = (np.arange(3 * 3 * 3 * 2) % 5 - 2).astype(np.float32).reshape(3, 3, 3, 2)
    for kk, s, d, pad in budget(CONVS):
        fk = f[: kk[0], : kk[1]]
        want = conv2d_ref(X, fk, s, d, pad)
        call = f"tf.nn.conv2d(x[2, 5, 7, 3], filters[{kk[0]}, {kk[1]}, 3, 2], strides={list(s)}, {pad!r}, dilations={list(d)})"
        got = _np(tf.nn.conv2d(X, fk, list(s), pad, dilations=list(d)))
        assert_equal(got.shape, want.shape, call=call, what="shape")
        assert_equal(got.astype(np.float64), want, call=call)
        layer = keras.layers.Conv2D(2, kk, strides=s, dilation_rate=d, padding=pad.lower(), use_bias=False)
        layer.build((None, 5, 7, 3))
        layer.set_weights([fk])
        lcall = f"Conv2D(2, {kk}, strides={s}, dilation_rate={d}, padding={pad.lower()!r}) on [2, 5, 7, 3]"
        if s != (1, 1) and d != (1, 1):
            continue
        out = _np(layer(X))
        assert_equal(out.astype(np.float64), want, call=lcall)
        assert_equal(tuple(layer.compute_output_shape((2, 5, 7, 3))), want.shape, call=lcall,
                     what="compute_output_shape")


def depthwise_ref(x: np.ndarray, f: np.ndarray, s: tuple, d: tuple, padding: str) -> np.ndarray:
    """Output channel c * multiplier + m: channel c of x convolved with f[:, :, c, m]."""
    outs = [conv2d_ref(x[..., c:c + 1], f[:, :, c:c + 1, m:m + 1], s, d, padding)
            for c in range(x.shape[3]) for m in range(f.shape[3])]
    return np.concatenate(outs, axis=3)


@clause("ops.nn-more", ref="tf221")
def test_degen22b_windows_depthwise_and_separable_off_the_square(tf, budget):
    """tf.nn.depthwise_conv2d and separable_conv2d (every suite call square) on a 5x7 input with a 2x3
    filter, dilations (1, 2) or (2, 1) (TF's `rate`, through with_space_to_batch) or equal strides 2 (the
    default kernels refuse unequal depthwise strides: clause ops.nn-more), SAME and VALID; separable is
    the depthwise result times the pointwise [1, 1, C * multiplier, out] filter."""
    f = (np.arange(2 * 3 * 3 * 2) % 5 - 2).astype(np.float32).reshape(2, 3, 3, 2)
    pw = (np.arange(6 * 4) % 3 - 1).astype(np.float32).reshape(1, 1, 6, 4)
    for s, d, pad in budget([((1, 1), (1, 2), "SAME"), ((1, 1), (2, 1), "VALID"), ((2, 2), (1, 1), "SAME")]):
        want = depthwise_ref(X, f, s, d, pad)
        call = f"tf.nn.depthwise_conv2d(x[2, 5, 7, 3], f[2, 3, 3, 2], strides=[1, {s[0]}, {s[1]}, 1], {pad!r}, dilations={list(d)})"
        got = _np(tf.nn.depthwise_conv2d(X, f, [1, *s, 1], pad, dilations=list(d)))
        assert_equal(got.shape, want.shape, call=call, what="shape")
        assert_equal(got.astype(np.float64), want, call=call)
        scall = call.replace("depthwise_conv2d(x[2, 5, 7, 3], f[2, 3, 3, 2]", "separable_conv2d(x, f, pointwise[1, 1, 6, 4]")
        sep = _np(tf.nn.separable_conv2d(X, f, pw, [1, *s, 1], pad, dilations=list(d)))
        assert_equal(sep.astype(np.float64), want @ pw[0, 0].astype(np.float64), call=scall)
