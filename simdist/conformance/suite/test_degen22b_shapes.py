"""Degeneracy audit 22 (area degen22b): declared shapes and channels_first layouts (Keras 3.15 on TF 2.21).

The suite's transposed convolutions ran with dilation_rate 1, and their compute_output_shape was
seldom compared with a symbolic call; the spatial layers ran channels_last on square inputs, and
GlobalAveragePooling1D's mask channels_last. There a size formula that drops the dilation, an axis
read from the wrong end, or a mask expanded on the channels_last axis pass. Here the inputs are not
square, dilations, strides and output paddings differ per axis, both data formats run, and the
declared shape (compute_output_shape, a symbolic Input) is compared with the transcribed one and,
where TF computes eagerly on every x86 host (channels_last, dilation 1: clause ops.nn-more), with the
eager output. Expected values are transcriptions of keras/src/ops/operation_utils.py
(compute_conv_transpose_output_shape, compute_pooling_output_shape, compute_conv_output_shape) and
of the layers' NumPy meaning.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=1e-6, atol=1e-6)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def transpose_size(n: int, k: int, s: int, padding: str, op: int | None, d: int) -> int:
    """_get_output_shape_given_tf_padding of one axis."""
    k = (k - 1) * d + 1
    if padding == "valid":
        return (n - 1) * s + k + (max(k, s) - k if op is None else op)
    return n * s if op is None else (n - 1) * s + k % 2 + op


def _layout(spatial: tuple, ch: int, fmt: str) -> tuple:
    return (2, *spatial, ch) if fmt == "channels_last" else (2, ch, *spatial)


#: (rank, input spatial sizes, kernel, strides, padding, output_padding, dilation)
TRANSPOSED = [(2, (3, 5), (3, 2), (1, 1), "valid", None, (2, 1)),
              (1, (5,), (3,), (1,), "same", None, (2,)),
              (2, (3, 5), (3, 2), (2, 3), "same", (1, 2), (1, 1)),
              (2, (4, 3), (2, 3), (3, 1), "valid", None, (1, 1)),
              (3, (2, 3, 4), (2, 3, 2), (1, 1, 1), "valid", None, (1, 1, 2)),
              (1, (4,), (2,), (3,), "valid", (1,), (1,))]


@clause("keras.layer.conv-family.symbolic", ref="tf221")
def test_degen22b_shapes_transposed_convolutions_declare_their_output(keras, budget):
    """Conv1D/2D/3DTranspose with dilations, strides and output paddings that differ per axis, on
    inputs whose sides differ, in both data formats: compute_output_shape and a symbolic call give the
    transcribed size of each axis (compute_output_shape a list, as Keras's compute_conv_transpose_output_shape
    builds it); channels_last and undilated, the eager output too."""
    names = {1: "Conv1DTranspose", 2: "Conv2DTranspose", 3: "Conv3DTranspose"}
    for rank, spatial, k, s, pad, op, d in budget(TRANSPOSED):
        for fmt in ("channels_last", "channels_first"):
            sizes = tuple(transpose_size(spatial[i], k[i], s[i], pad, None if op is None else op[i], d[i])
                          for i in range(rank))
            want = _layout(sizes, 4, fmt)
            shape = _layout(spatial, 3, fmt)
            layer = getattr(keras.layers, names[rank])(4, k, strides=s, padding=pad, output_padding=op,
                                                      dilation_rate=d, data_format=fmt)
            call = (f"{names[rank]}(4, {k}, strides={s}, padding={pad!r}, output_padding={op}, dilation_rate={d}, "
                    f"data_format={fmt!r}) on {shape}")
            declared = layer.compute_output_shape(shape)
            assert_equal(type(declared).__name__, "list", call=call, what="compute_output_shape's type")
            assert_equal(tuple(declared), want, call=call, what="compute_output_shape")
            sym = layer(keras.Input(shape[1:], batch_size=2))
            assert_equal(tuple(sym.shape), want, call=call, what="symbolic shape")
            if fmt == "channels_last" and d == (1,) * rank:
                out = layer(np.ones(shape, np.float32))
                assert_equal(tuple(_np(out).shape), want, call=call, what="eager shape")


def window_size(n: int, k: int, s: int, padding: str, d: int = 1) -> int:
    eff = (k - 1) * d + 1
    return (n - eff) // s + 1 if padding == "valid" else -(-n // s)


@clause("keras.layer.pooling.window", ref="tf221")
@clause("keras.layer.conv2d.channels-first", ref="tf221")
def test_degen22b_shapes_windowed_layers_in_both_formats(keras, budget):
    """MaxPooling2D, AveragePooling2D, Conv2D and DepthwiseConv2D with windows and strides that differ
    per axis on a 7x4 input, channels_last and channels_first: compute_output_shape and a symbolic
    call against the transcribed sizes (Conv2D with dilation (2, 1) as well)."""
    spatial, ch = (7, 4), 3
    cases = [("MaxPooling2D", {"pool_size": (3, 2), "strides": (2, 1)}, (3, 2), (2, 1), (1, 1), 3),
             ("AveragePooling2D", {"pool_size": (2, 3), "strides": (1, 2), "padding": "same"}, (2, 3), (1, 2), (1, 1), 3),
             ("Conv2D", {"filters": 5, "kernel_size": (3, 1), "dilation_rate": (2, 1)}, (3, 1), (1, 1), (2, 1), 5),
             ("Conv2D", {"filters": 5, "kernel_size": (2, 3), "strides": (3, 1), "padding": "same"}, (2, 3), (3, 1),
              (1, 1), 5),
             ("DepthwiseConv2D", {"kernel_size": (1, 3), "strides": (2, 1), "depth_multiplier": 2}, (1, 3), (2, 1),
              (1, 1), 6)]
    for name, kwargs, k, s, d, out_ch in budget(cases):
        pad = kwargs.get("padding", "valid")
        sizes = tuple(window_size(spatial[i], k[i], s[i], pad, d[i]) for i in range(2))
        for fmt in ("channels_first", "channels_last"):
            layer = getattr(keras.layers, name)(data_format=fmt, **kwargs)
            shape = _layout(spatial, ch, fmt)
            want = _layout(sizes, out_ch, fmt)
            call = f"{name}({kwargs}, data_format={fmt!r}) on {shape}"
            assert_equal(tuple(layer.compute_output_shape(shape)), want, call=call, what="compute_output_shape")
            assert_equal(tuple(layer(keras.Input(shape[1:], batch_size=2)).shape), want, call=call,
                         what="symbolic shape")


@clause("keras.layer.global-pooling-1d", ref="tf221")
@clause("keras.layer.upsampling-padding", ref="tf221")
def test_degen22b_shapes_channels_first_values(keras, budget):
    """Layers whose channels_first path is pure indexing, on non-square inputs with per-axis options:
    GlobalAveragePooling1D with a mask (its mask's feature axis at 1 channels_first), keepdims;
    Cropping2D, ZeroPadding2D and UpSampling2D with unequal (top, bottom), (left, right) and sizes;
    each against NumPy, and its compute_output_shape against the eager shape."""
    x = (np.arange(2 * 3 * 5) % 7 - 3).astype(np.float32).reshape(2, 3, 5)      # [batch, channels, steps]
    mask = np.array([[True, False, True, True, False], [False, False, True, False, False]])
    img = (np.arange(2 * 2 * 4 * 6) % 9).astype(np.float32).reshape(2, 2, 4, 6)  # NCHW, H != W
    cases = [
        ("GlobalAveragePooling1D(channels_first, keepdims) with mask",
         lambda: keras.layers.GlobalAveragePooling1D(data_format="channels_first", keepdims=True), x, {"mask": mask},
         (x * mask[:, None]).sum(2, keepdims=True) / mask.sum(1)[:, None, None]),
        ("GlobalAveragePooling1D(channels_last) with mask",
         lambda: keras.layers.GlobalAveragePooling1D(), x.transpose(0, 2, 1), {"mask": mask},
         (x * mask[:, None]).sum(2) / mask.sum(1)[:, None]),
        ("Cropping2D(((1, 0), (2, 1)), channels_first)",
         lambda: keras.layers.Cropping2D(((1, 0), (2, 1)), data_format="channels_first"), img, {},
         img[:, :, 1:, 2:-1]),
        ("ZeroPadding2D(((0, 2), (1, 0)), channels_first)",
         lambda: keras.layers.ZeroPadding2D(((0, 2), (1, 0)), data_format="channels_first"), img, {},
         np.pad(img, ((0, 0), (0, 0), (0, 2), (1, 0)))),
        ("UpSampling2D((1, 2), channels_first)",
         lambda: keras.layers.UpSampling2D((1, 2), data_format="channels_first"), img, {},
         img.repeat(2, axis=3)),
    ]
    for call, make, inp, kwargs, want in budget(cases):
        layer = make()
        got = _np(layer(inp, **kwargs))
        assert_close(got.astype(np.float64), want.astype(np.float64), call=call, tolerance=TOL)
        assert_equal(tuple(layer.compute_output_shape(inp.shape)), got.shape, call=call,
                     what="compute_output_shape vs the eager shape")
