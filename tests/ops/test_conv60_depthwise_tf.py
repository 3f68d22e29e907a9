"""oneDNN's float32 depthwise convolution, the sixtieth session's rule (clause ops.packet-paths, its paragraph
"oneDNN's float32 Conv2D", "Sixtieth session, conv60: depthwise").

TF 2.21's DepthwiseConv2dNative (Keras DepthwiseConv1D/2D, SeparableConv1D/2D, tf.nn.depthwise_conv2d) on a host where
oneDNN runs float32 adds each output's filter taps in ascending order with fused multiply-adds from +0, and its
DepthwiseConv2dNativeBackpropInput adds each input-gradient element's forward taps in ascending order with the
multipliers inside, fused from +0, one sum (strided too); its DepthwiseConv2dNativeBackpropFilter is oneDNN's jit_uni_dw
kernel's chains over its thread partition (multiplier 1, filters up to 3 wide) or the grouped kernel's row partials;
a 1x1 Conv2DBackpropInput at stride 1 (the pointwise half of a
separable convolution's input gradient) one in-order sum over the output channels. simdist took NumPy's BLAS product
(most multiplier-1 outputs and every input gradient off in the last bits). Each case runs on TF 2.21 and on simdist (the golden's host
model); results as float32 bit patterns. Its golden (tests/goldens/) is stamped with this file."""

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


def _raw(seed: int, n: int, h: int, w: int, c: int, m: int, kh: int, kw: int, padding: str,
         strides: tuple = (1, 1)) -> Callable[[Any], Any]:
    """The raw forward and its two gradients."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        st = [1, strides[0], strides[1], 1]
        x = (r.randn(n, h, w, c) * r.choice([1.0, 0.1])).astype(np.float32)
        f = r.randn(kh, kw, c, m).astype(np.float32)
        y = tf.raw_ops.DepthwiseConv2dNative(input=x, filter=f, strides=st, padding=padding)
        dy = r.randn(*y.shape).astype(np.float32)
        dx = tf.raw_ops.DepthwiseConv2dNativeBackpropInput(input_sizes=[n, h, w, c], filter=f, out_backprop=dy,
                                                           strides=st, padding=padding)
        df = tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(input=x, filter_sizes=[kh, kw, c, m], out_backprop=dy,
                                                            strides=st, padding=padding)
        return [_bits(y), _bits(dx), _bits(df)]
    return run


def _pointwise(seed: int, n: int, h: int, w: int, cin: int, cout: int) -> Callable[[Any], Any]:
    """A 1x1 Conv2DBackpropInput at stride 1 (a separable convolution's pointwise input gradient): one in-order sum
    over the output channels, fused from +0."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        f = r.randn(1, 1, cin, cout).astype(np.float32)
        dy = r.randn(n, h, w, cout).astype(np.float32)
        return _bits(tf.raw_ops.Conv2DBackpropInput(input_sizes=[n, h, w, cin], filter=f, out_backprop=dy,
                                                    strides=[1, 1, 1, 1], padding="VALID"))
    return run


def _keras(seed: int, layer: str, padding: str, strides: Any = 1, multiplier: int = 1) -> Callable[[Any], Any]:
    """A Keras depthwise or separable layer's output and gradients (input, kernels), eagerly and in a
    tf.function."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        if layer == "DepthwiseConv2D":
            lay = tf.keras.layers.DepthwiseConv2D(3, strides=strides, padding=padding, depth_multiplier=multiplier)
            x = tf.constant(r.randn(3, 9, 9, 12).astype(np.float32))
        elif layer == "SeparableConv2D":
            lay = tf.keras.layers.SeparableConv2D(8, 3, strides=strides, padding=padding, depth_multiplier=multiplier)
            x = tf.constant(r.randn(3, 9, 9, 6).astype(np.float32))
        else:
            lay = getattr(tf.keras.layers, layer)(**({"kernel_size": 3} if layer == "DepthwiseConv1D" else
                                                     {"filters": 8, "kernel_size": 3}),
                                                  strides=strides, padding=padding, depth_multiplier=multiplier)
            x = tf.constant(r.randn(3, 20, 10).astype(np.float32))
        lay.build(x.shape)
        lay.set_weights([r.randn(*w.shape).astype(np.float32) for w in lay.get_weights()])
        up = tf.constant(r.randn(*lay.compute_output_shape(x.shape)).astype(np.float32))

        def grad(x: Any) -> Any:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = lay(x)
                loss = tf.reduce_sum(y * up)
            # (the bias gradient left out: traced, TF fuses it into the pointwise filter gradient, not modelled)
            return [y] + tape.gradient(loss, [x] + [w for w in lay.trainable_weights if "bias" not in w.path])
        return [[_bits(v) for v in grad(x)], [_bits(v) for v in tf.function(grad)(x)]]
    return run


# (n, h, w, C, M, kh, kw, padding, strides)
_RAW = ((2, 6, 6, 3, 1, 3, 3, "VALID", (1, 1)), (2, 6, 6, 4, 2, 3, 3, "SAME", (1, 1)),
        (3, 8, 8, 8, 1, 5, 5, "SAME", (1, 1)), (2, 9, 9, 32, 1, 3, 3, "SAME", (2, 2)),
        (4, 10, 10, 17, 1, 3, 3, "SAME", (1, 1)), (2, 7, 7, 5, 3, 3, 3, "VALID", (1, 1)),
        (2, 1, 20, 8, 1, 1, 3, "SAME", (1, 1)), (3, 1, 15, 6, 2, 1, 3, "VALID", (1, 1)),
        (2, 7, 7, 16, 1, 2, 2, "SAME", (1, 1)), (2, 9, 8, 8, 1, 3, 3, "SAME", (2, 1)),
        (3, 9, 9, 12, 2, 3, 3, "SAME", (2, 2)), (2, 10, 10, 64, 1, 3, 3, "VALID", (2, 2)),
        (8, 14, 14, 32, 1, 3, 3, "SAME", (1, 1)), (2, 8, 8, 100, 1, 3, 3, "SAME", (1, 1)),
        (5, 6, 6, 16, 1, 3, 3, "SAME", (1, 1)), (1, 40, 40, 16, 1, 3, 3, "SAME", (1, 1)),
        (1, 6, 45, 16, 1, 3, 3, "SAME", (1, 1)), (4, 14, 14, 256, 1, 3, 3, "SAME", (1, 1)),
        (2, 9, 9, 6, 1, 7, 7, "VALID", (1, 1)), (3, 9, 40, 5, 3, 3, 3, "SAME", (1, 1)),
        (1, 1, 50, 32, 1, 1, 5, "SAME", (1, 1)), (9, 6, 6, 8, 1, 3, 3, "VALID", (1, 1)))


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for i, (n, h, w, ch, m, kh, kw, pad, st) in enumerate(_RAW):
        c[f"raw/{n}x{h}x{w}x{ch}/{kh}x{kw}x{m}/{pad}/s{st[0]}{st[1]}"] = _raw(900 + i, n, h, w, ch, m, kh, kw, pad, st)
    for i, (layer, pad, st, mult) in enumerate((("DepthwiseConv2D", "VALID", 1, 1), ("DepthwiseConv2D", "SAME", 2, 2),
                                                ("SeparableConv2D", "SAME", 1, 1), ("SeparableConv2D", "VALID", 2, 2),
                                                ("DepthwiseConv1D", "SAME", 1, 1), ("SeparableConv1D", "VALID", 1, 2))):
        c[f"keras/{layer}/{pad}/s{st}/dm{mult}"] = _keras(950 + i, layer, pad, st, mult)
    for i, (n, h, w, cin, cout) in enumerate(((2, 5, 5, 16, 40), (2, 4, 4, 3, 100), (2, 9, 9, 20, 33),
                                              (1, 10, 10, 5, 260), (3, 1, 18, 24, 12))):
        c[f"pointwise/{n}x{h}x{w}x{cin}/{cout}"] = _pointwise(970 + i, n, h, w, cin, cout)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(depthwise|separable)\w*_\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_onednn_float32_depthwise_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
