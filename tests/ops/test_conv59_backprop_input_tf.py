"""oneDNN's float32 backward-data convolution, the fifty-ninth session's rule (clause ops.packet-paths, its paragraph
"oneDNN's float32 Conv2D", "backward data").

TF 2.21's Conv2DBackpropInput (the input gradient of tf.nn.conv2d / conv1d and of Keras' Conv1D/Conv2D) on a host
where oneDNN runs float32 computes, at stride 1, a forward convolution of the output gradient with the flipped
filter: each input-gradient element sums the window's taps in descending order and the output channels in order
inside each tap, fused multiply-adds from +0 — one sum over the window with SAME padding, one per filter column
(descending), the columns' sums then added, with VALID padding; dilated alike. Strided (oneDNN's strided kernel):
the taps ascending, one sum, or one per filter column (ascending) where the input's width is a multiple of the
column stride. Conv3DBackpropInputV2 at stride 1: the same, one dimension up.
Grouped (stride 1): per group, the taps ascending, one sum whatever the padding. simdist took NumPy's BLAS product and
scattered it (35-90% of the elements off in the last bits). Each case runs on TF 2.21 and on simdist (the golden's
host model); results as float32 bit patterns. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(t: Any) -> list:
    return np.asarray(t.numpy(), np.float32).view(np.uint32).ravel().tolist()


def _raw(seed: int, n: int, h: int, w: int, cin: int, cout: int, kh: int, kw: int, padding: str,
         dil: int = 1, strides: tuple = (1, 1)) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        f = (r.randn(kh, kw, cin, cout) * r.choice([1.0, 0.1])).astype(np.float32)
        sh, sw = strides
        oh = -(-h // sh) if padding == "SAME" else (h - (kh - 1) * dil - 1) // sh + 1
        ow = -(-w // sw) if padding == "SAME" else (w - (kw - 1) * dil - 1) // sw + 1
        dy = r.randn(n, oh, ow, cout).astype(np.float32)
        return _bits(tf.raw_ops.Conv2DBackpropInput(input_sizes=[n, h, w, cin], filter=f, out_backprop=dy,
                                                    strides=[1, sh, sw, 1], padding=padding,
                                                    dilations=[1, dil, dil, 1]))
    return run


def _nn_grad(seed: int, rank: int, padding: str) -> Callable[[Any], Any]:
    """tf.nn.conv2d / conv1d's input gradient under a GradientTape (the gradient op Keras' layers reach)."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        shape, fshape = ((3, 9, 8, 4), (3, 3, 4, 6)) if rank == 2 else ((4, 11, 3), (3, 3, 5))
        x = tf.constant(r.randn(*shape).astype(np.float32))
        f = tf.constant(r.randn(*fshape).astype(np.float32))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.conv2d(x, f, 1, padding) if rank == 2 else tf.nn.conv1d(x, f, 1, padding)
            loss = tf.reduce_sum(y * tf.constant(r.randn(*y.shape).astype(np.float32)))
        return _bits(tape.gradient(loss, x))
    return run


def _keras(seed: int, layer: str, padding: str, strides: Any = 1, width: int = 10) -> Callable[[Any], Any]:
    """A Keras Conv2D/Conv1D layer's input gradient, eagerly and in a tf.function."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        if layer == "Conv2D":
            lay = tf.keras.layers.Conv2D(8, 3, strides=strides, padding=padding)
            x = tf.constant(r.randn(4, 10, width, 3).astype(np.float32))
        else:
            lay = tf.keras.layers.Conv1D(5, 3, strides=strides, padding=padding)
            x = tf.constant(r.randn(3, width + 2, 4).astype(np.float32))
        lay.build(x.shape)
        lay.set_weights([r.randn(*w.shape).astype(np.float32) for w in lay.get_weights()])
        up = tf.constant(r.randn(*lay.compute_output_shape(x.shape)).astype(np.float32))

        def grad(x: Any) -> Any:
            with tf.GradientTape() as tape:
                tape.watch(x)
                loss = tf.reduce_sum(lay(x) * up)
            return tape.gradient(loss, x)
        return [_bits(grad(x)), _bits(tf.function(grad)(x))]
    return run


_MEASURED = ((1, 5, 6, 2, 3, 2, 2, "VALID"), (2, 6, 6, 1, 4, 3, 3, "VALID"), (2, 6, 6, 3, 4, 3, 3, "SAME"),
             (3, 7, 5, 4, 8, 3, 3, "VALID"), (2, 6, 7, 16, 16, 3, 3, "SAME"), (4, 8, 8, 1, 16, 3, 3, "SAME"),
             (2, 5, 5, 8, 3, 3, 3, "VALID"), (1, 6, 6, 2, 17, 3, 3, "VALID"), (2, 6, 6, 5, 32, 3, 3, "SAME"),
             (1, 4, 4, 3, 1, 3, 3, "SAME"), (2, 9, 9, 3, 4, 5, 5, "SAME"), (2, 6, 7, 3, 4, 2, 2, "SAME"),
             (2, 9, 8, 3, 4, 5, 5, "VALID"), (2, 6, 6, 24, 20, 3, 3, "VALID"), (2, 1, 9, 3, 4, 1, 3, "VALID"),
             (2, 1, 9, 3, 4, 1, 3, "SAME"), (2, 7, 6, 3, 5, 2, 3, "VALID"), (2, 6, 7, 4, 3, 3, 2, "SAME"))


_STRIDED = ((2, 7, 7, 3, 4, 3, 3, "VALID", (2, 2)), (2, 8, 8, 3, 4, 3, 3, "VALID", (2, 2)),
            (2, 8, 8, 3, 4, 3, 3, "SAME", (2, 2)), (2, 7, 7, 3, 4, 3, 3, "SAME", (2, 2)),
            (2, 10, 10, 2, 5, 5, 5, "SAME", (2, 2)), (2, 9, 9, 2, 3, 4, 4, "VALID", (2, 2)),
            (2, 11, 11, 3, 4, 5, 5, "SAME", (3, 3)), (2, 12, 12, 3, 4, 5, 5, "VALID", (3, 3)),
            (2, 7, 8, 3, 4, 3, 3, "SAME", (2, 1)), (2, 8, 7, 3, 4, 3, 3, "VALID", (1, 2)),
            (2, 1, 10, 3, 4, 1, 3, "SAME", (1, 2)), (2, 1, 11, 3, 4, 1, 3, "VALID", (1, 2)),
            (4, 14, 14, 8, 16, 3, 3, "VALID", (2, 2)), (2, 9, 9, 16, 16, 3, 3, "SAME", (2, 2)))


def _raw3d(seed: int, n: int, d: int, h: int, w: int, cin: int, cout: int, k: int, padding: str) -> Callable[[Any], Any]:
    """Conv3DBackpropInputV2 (tf.nn.conv3d's input gradient, Keras Conv3D's) at stride 1: the 2-D rule one
    dimension up."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        f = r.randn(k, k, k, cin, cout).astype(np.float32)
        o = (lambda s: s) if padding == "SAME" else (lambda s: s - k + 1)
        dy = r.randn(n, o(d), o(h), o(w), cout).astype(np.float32)
        x = tf.constant(r.randn(n, d, h, w, cin).astype(np.float32))
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.nn.conv3d(x, f, [1] * 5, padding) * dy)
        return [_bits(tf.raw_ops.Conv3DBackpropInputV2(input_sizes=[n, d, h, w, cin], filter=f, out_backprop=dy,
                                                       strides=[1] * 5, padding=padding)),
                _bits(tape.gradient(loss, x))]
    return run


def _grouped(seed: int, n: int, h: int, w: int, cin: int, cout: int, kh: int, kw: int, padding: str,
             groups: int) -> Callable[[Any], Any]:
    """A grouped Conv2DBackpropInput (filter [kh, kw, C_in / G, C_out]), eager and in a tf.function (oneDNN's kernel
    both ways; Keras' grouped layers compile with XLA instead)."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        f = r.randn(kh, kw, cin // groups, cout).astype(np.float32)
        oh, ow = (h, w) if padding == "SAME" else (h - kh + 1, w - kw + 1)
        dy = r.randn(n, oh, ow, cout).astype(np.float32)

        def op(f: Any, dy: Any) -> Any:
            return tf.raw_ops.Conv2DBackpropInput(input_sizes=[n, h, w, cin], filter=f, out_backprop=dy,
                                                  strides=[1, 1, 1, 1], padding=padding)
        return [_bits(op(f, dy)), _bits(tf.function(op)(tf.constant(f), tf.constant(dy)))]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for i, (n, h, w, cin, cout, kh, kw, pad) in enumerate(_MEASURED):
        c[f"raw/{n}x{h}x{w}x{cin}/{kh}x{kw}x{cout}/{pad}"] = _raw(600 + i, n, h, w, cin, cout, kh, kw, pad)
    c["raw/mnist-step/VALID"] = _raw(650, 8, 28, 28, 1, 16, 3, 3, "VALID")
    for i, pad in enumerate(("VALID", "SAME")):
        c[f"raw/dilated2/{pad}"] = _raw(660 + i, 2, 8, 8, 3, 4, 3, 3, pad, dil=2)
        c[f"nn/conv2d/{pad}"] = _nn_grad(670 + i, 2, pad)
        c[f"nn/conv1d/{pad}"] = _nn_grad(680 + i, 1, pad)
        c[f"keras/Conv2D/{pad}"] = _keras(690 + i, "Conv2D", pad)
        c[f"keras/Conv1D/{pad}"] = _keras(695 + i, "Conv1D", pad)
    # strided (oneDNN's strided kernel: taps ascending; per column where the width is a multiple of the column stride)
    for i, (n, h, w, cin, cout, kh, kw, pad, st) in enumerate(_STRIDED):
        c[f"strided/{n}x{h}x{w}x{cin}/{kh}x{kw}x{cout}/{pad}/s{st[0]}{st[1]}"] = _raw(
            700 + i, n, h, w, cin, cout, kh, kw, pad, strides=st)
    for i, (pad, st, width) in enumerate((("SAME", 2, 10), ("SAME", 2, 9), ("VALID", 2, 11), ("SAME", (2, 1), 9))):
        c[f"keras/Conv2D/{pad}/strides{st}/w{width}"] = _keras(740 + i, "Conv2D", pad, st, width)
    for i, (pad, width) in enumerate((("SAME", 8), ("VALID", 9), ("SAME", 9))):
        c[f"keras/Conv1D/{pad}/strides2/w{width + 2}"] = _keras(750 + i, "Conv1D", pad, 2, width)
    for i, (n, d, h, w, cin, cout, k, pad) in enumerate(((1, 4, 3, 4, 2, 2, 2, "VALID"), (2, 5, 5, 5, 3, 4, 3, "VALID"),
                                                         (2, 5, 5, 5, 3, 4, 3, "SAME"), (2, 4, 6, 5, 2, 3, 2, "SAME"),
                                                         (2, 6, 5, 4, 4, 5, 3, "VALID"), (1, 5, 6, 7, 8, 16, 3, "SAME"))):
        c[f"conv3d/{n}x{d}x{h}x{w}x{cin}/{k}x{cout}/{pad}"] = _raw3d(760 + i, n, d, h, w, cin, cout, k, pad)
    for i, (n, h, w, cin, cout, kh, kw, pad, g) in enumerate((
            (1, 5, 6, 4, 4, 2, 2, "VALID", 2), (2, 6, 6, 4, 6, 3, 3, "SAME", 2), (2, 6, 7, 6, 6, 3, 3, "VALID", 3),
            (2, 7, 7, 8, 8, 3, 3, "SAME", 4), (1, 5, 6, 2, 2, 2, 2, "VALID", 2), (2, 1, 7, 4, 6, 1, 3, "SAME", 2),
            (2, 1, 8, 6, 6, 1, 3, "VALID", 3))):
        c[f"grouped/{n}x{h}x{w}x{cin}/{kh}x{kw}x{cout}/{pad}/g{g}"] = _grouped(780 + i, n, h, w, cin, cout, kh, kw, pad, g)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(conv2d?|conv1d)_\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_onednn_float32_backprop_input_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
