"""oneDNN's float32 backward-weights convolution, the sixtieth session's rule (clause ops.packet-paths, its paragraph
"oneDNN's float32 Conv2D", "Sixtieth session, conv60: backward weights").

TF 2.21's Conv2DBackpropFilter (the kernel gradient of tf.nn.conv2d / conv1d and of every Keras Conv1D/Conv2D) on a
host where oneDNN runs float32, a filter other than 1x1: oneDNN's balance shares the two threads out over the images or
the blocks of 16 output/input channels; split over the images, each thread sums its images and the threads' sums are
added. From 16 input channels at column stride 1 each output row (wider than 28 columns: each chunk of it) is summed
from zero with fused multiply-adds and added to the thread's sum; with fewer input channels, or a column stride above
1, one in-order sum a thread. simdist took NumPy's BLAS product from 10 input channels (most elements off in the last
bits), and below that always split the images. Each case runs on TF 2.21 and on simdist (the golden's host model);
results as float32 bit patterns. Its golden (tests/goldens/) is stamped with this file."""

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
         strides: tuple = (1, 1)) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        sh, sw = strides
        oh = -(-h // sh) if padding == "SAME" else (h - kh) // sh + 1
        ow = -(-w // sw) if padding == "SAME" else (w - kw) // sw + 1
        x = (r.randn(n, h, w, cin) * r.choice([1.0, 0.1])).astype(np.float32)
        dy = r.randn(n, oh, ow, cout).astype(np.float32)
        return _bits(tf.raw_ops.Conv2DBackpropFilter(input=x, filter_sizes=[kh, kw, cin, cout], out_backprop=dy,
                                                     strides=[1, sh, sw, 1], padding=padding))
    return run


def _nn_grad(seed: int, rank: int, padding: str, stride: int = 1) -> Callable[[Any], Any]:
    """tf.nn.conv2d / conv1d's kernel gradient under a GradientTape (the gradient op Keras' layers reach)."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        shape, fshape = ((3, 9, 8, 16), (3, 3, 16, 24)) if rank == 2 else ((4, 40, 32), (3, 32, 16))
        x = tf.constant(r.randn(*shape).astype(np.float32))
        f = tf.constant(r.randn(*fshape).astype(np.float32))
        with tf.GradientTape() as tape:
            tape.watch(f)
            y = tf.nn.conv2d(x, f, stride, padding) if rank == 2 else tf.nn.conv1d(x, f, stride, padding)
            loss = tf.reduce_sum(y * tf.constant(r.randn(*y.shape).astype(np.float32)))
        return _bits(tape.gradient(loss, f))
    return run


def _keras(seed: int, layer: str, padding: str, cin: int, strides: Any = 1) -> Callable[[Any], Any]:
    """A Keras Conv2D/Conv1D layer's kernel gradient, eagerly and in a tf.function."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        if layer == "Conv2D":
            lay = tf.keras.layers.Conv2D(32, 3, strides=strides, padding=padding)
            x = tf.constant(r.randn(4, 10, 10, cin).astype(np.float32))
        else:
            lay = tf.keras.layers.Conv1D(16, 3, strides=strides, padding=padding)
            x = tf.constant(r.randn(3, 30, cin).astype(np.float32))
        lay.build(x.shape)
        lay.set_weights([r.randn(*w.shape).astype(np.float32) for w in lay.get_weights()])
        up = tf.constant(r.randn(*lay.compute_output_shape(x.shape)).astype(np.float32))

        def grad(x: Any) -> Any:
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(lay(x) * up)
            return tape.gradient(loss, lay.kernel)
        return [_bits(grad(x)), _bits(tf.function(grad)(x))]
    return run


# (n, h, w, C_in, C_out, kh, kw, padding, strides): one thread or two over the images, rows in one chunk or more
_RAW = ((2, 6, 6, 16, 16, 3, 3, "VALID", (1, 1)), (2, 6, 6, 17, 16, 3, 3, "VALID", (1, 1)),
        (2, 6, 6, 33, 16, 3, 3, "VALID", (1, 1)), (3, 5, 6, 16, 32, 3, 3, "SAME", (1, 1)),
        (5, 6, 6, 16, 16, 3, 3, "SAME", (1, 1)), (4, 8, 8, 64, 64, 3, 3, "SAME", (1, 1)),
        (2, 5, 5, 48, 40, 3, 3, "VALID", (1, 1)), (2, 6, 6, 16, 3, 3, 3, "VALID", (1, 1)),
        (2, 8, 8, 16, 16, 5, 5, "SAME", (1, 1)), (2, 9, 9, 16, 16, 7, 7, "SAME", (1, 1)),
        (2, 8, 8, 24, 16, 2, 2, "VALID", (1, 1)), (2, 7, 7, 16, 16, 2, 2, "SAME", (1, 1)),
        (2, 9, 40, 16, 32, 3, 3, "SAME", (1, 1)), (3, 9, 29, 16, 16, 3, 3, "SAME", (1, 1)),
        (2, 5, 56, 16, 16, 3, 3, "SAME", (1, 1)), (1, 6, 59, 32, 16, 3, 3, "VALID", (1, 1)),
        (4, 1, 50, 16, 32, 1, 3, "SAME", (1, 1)), (5, 1, 40, 32, 32, 1, 5, "VALID", (1, 1)),
        (2, 6, 6, 10, 16, 3, 3, "VALID", (1, 1)), (3, 5, 6, 12, 32, 3, 3, "SAME", (1, 1)),
        (2, 6, 6, 3, 32, 3, 3, "VALID", (1, 1)), (3, 5, 5, 8, 64, 3, 3, "SAME", (1, 1)),
        (3, 10, 40, 12, 16, 3, 3, "SAME", (1, 1)), (2, 8, 8, 16, 16, 3, 3, "VALID", (2, 2)),
        (3, 9, 9, 16, 32, 3, 3, "SAME", (2, 2)), (2, 10, 9, 16, 16, 3, 3, "VALID", (2, 1)),
        (2, 9, 10, 16, 32, 3, 3, "SAME", (1, 2)), (2, 12, 60, 16, 16, 3, 3, "SAME", (2, 1)),
        (3, 9, 9, 4, 32, 3, 3, "VALID", (2, 2)), (2, 8, 8, 10, 16, 3, 3, "SAME", (2, 2)))


# (n, h, w, C_in, C_out) of 1x1 filters: the images' pixel blocks split or not, one call an image or two
_ONE_BY_ONE = ((1, 30, 30, 8, 32), (4, 10, 10, 3, 32), (1, 9, 9, 20, 10), (4, 3, 3, 64, 16), (3, 12, 12, 24, 48),
               (8, 7, 7, 64, 128), (3, 5, 5, 16, 16), (1, 16, 16, 32, 16), (2, 30, 30, 16, 16), (4, 5, 5, 12, 64),
               (1, 1, 20, 16, 16), (3, 6, 6, 10, 10))


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for i, (n, h, w, cin, cout, kh, kw, pad, st) in enumerate(_RAW):
        c[f"raw/{n}x{h}x{w}x{cin}/{kh}x{kw}x{cout}/{pad}/s{st[0]}{st[1]}"] = _raw(
            800 + i, n, h, w, cin, cout, kh, kw, pad, st)
    c["raw/cnn-layer2/32x14x14x32/3x3x64/SAME"] = _raw(840, 32, 14, 14, 32, 64, 3, 3, "SAME")
    c["raw/cnn-layer2/8x28x28x16/3x3x32/SAME"] = _raw(841, 8, 28, 28, 16, 32, 3, 3, "SAME")
    for i, pad in enumerate(("VALID", "SAME")):
        c[f"nn/conv2d/{pad}"] = _nn_grad(850 + i, 2, pad)
        c[f"nn/conv1d/{pad}"] = _nn_grad(852 + i, 1, pad)
        c[f"keras/Conv2D/{pad}/cin16"] = _keras(860 + i, "Conv2D", pad, 16)
        c[f"keras/Conv2D/{pad}/cin12"] = _keras(862 + i, "Conv2D", pad, 12)
        c[f"keras/Conv1D/{pad}/cin32"] = _keras(864 + i, "Conv1D", pad, 32)
    # 1x1 filters (oneDNN's 1x1 kernel: pixel blocks per call, its own thread balance)
    for i, (n, h, w, cin, cout) in enumerate(_ONE_BY_ONE):
        c[f"raw1x1/{n}x{h}x{w}x{cin}/{cout}"] = _raw(870 + i, n, h, w, cin, cout, 1, 1, "VALID")
    c["nn/conv2d/SAME/strides2"] = _nn_grad(856, 2, "SAME", 2)
    c["keras/Conv2D/SAME/cin16/strides2"] = _keras(866, "Conv2D", "SAME", 16, 2)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(conv2d?|conv1d)_\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_onednn_float32_backprop_filter_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
