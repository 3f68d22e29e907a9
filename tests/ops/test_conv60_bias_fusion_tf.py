"""oneDNN's fused filter-and-bias gradient in a tf.function, the sixtieth session's rule (clause
function.onednn-fused-contraction; simdist/runtime/ops/onednn_conv_bias.py).

Inside a tf.function on a CPU where oneDNN runs float32, TF merges a Conv2DBackpropFilter and a BiasAddGrad of the same
out_backprop (a Keras Conv2D's kernel and bias gradients) into _MklConv2DBackpropFilterWithBias, whose bias is oneDNN's
reducer's: with one block of 16 output channels the two threads split the images, each an in-order sum, the two sums
added; with more blocks one in-order sum a block. Eagerly BiasAddGrad stays on its own (one in-order sum). simdist
summed the traced bias as the eager one (off in most values of a layer of at most 16 filters), so a Keras CNN's
model.fit drifted from TF's in every weight. Each case runs on TF 2.21 and on simdist (the golden's host model);
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
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t, np.float32).view(np.uint32).ravel().tolist()


def _layer(seed: int, shape: tuple, filters: int, k: int, padding: str, eager: bool = True) -> Callable[[Any], Any]:
    """A Keras Conv2D's kernel and bias gradients, eagerly (`eager`) and in a tf.function."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        lay = tf.keras.layers.Conv2D(filters, k, padding=padding)
        x = tf.constant(r.randn(*shape).astype(np.float32))
        lay.build(x.shape)
        lay.set_weights([r.randn(*w.shape).astype(np.float32) for w in lay.get_weights()])
        up = tf.constant(r.randn(*lay.compute_output_shape(x.shape)).astype(np.float32))

        def grad(x: Any) -> Any:
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(lay(x) * up)
            return tape.gradient(loss, [lay.kernel, lay.bias])
        traced = [_bits(g) for g in tf.function(grad)(x)]
        return [[_bits(g) for g in grad(x)], traced] if eager else [traced]
    return run


def _nn(seed: int) -> Callable[[Any], Any]:
    """tf.nn.conv2d plus tf.nn.bias_add's filter and bias gradients in a tf.function."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        x = tf.constant(r.randn(6, 9, 9, 5).astype(np.float32))
        f = tf.constant(r.randn(3, 3, 5, 12).astype(np.float32))
        b = tf.constant(r.randn(12).astype(np.float32))
        up = tf.constant(r.randn(6, 9, 9, 12).astype(np.float32))

        @tf.function
        def grad(f: Any, b: Any) -> Any:
            with tf.GradientTape() as tape:
                tape.watch([f, b])
                loss = tf.reduce_sum(tf.nn.bias_add(tf.nn.conv2d(x, f, 1, "SAME"), b) * up)
            return tape.gradient(loss, [f, b])
        return [_bits(g) for g in grad(f, b)]
    return run


def _fit(seed: int) -> Callable[[Any], Any]:
    """A small Keras CNN's weights after one epoch of model.fit (4 steps of SGD)."""
    def run(tf: Any) -> Any:
        keras = tf.keras
        r = np.random.RandomState(seed)
        x = r.randn(32, 12, 12, 3).astype(np.float32)
        y = r.randn(32, 4).astype(np.float32)
        m = keras.Sequential([keras.layers.Input((12, 12, 3)), keras.layers.Conv2D(8, 3, activation="relu"),
                              keras.layers.Conv2D(16, 3, padding="same"), keras.layers.Flatten(),
                              keras.layers.Dense(4)])
        m.set_weights([r.randn(*w.shape).astype(np.float32) * 0.1 for w in m.get_weights()])
        m.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
        m.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
        return [_bits(w) for w in m.get_weights()]
    return run


# (input shape, filters, kernel, padding): one block of 16 filters or fewer (the images split), or more blocks
_LAYERS = (((8, 12, 12, 3), 16, 3, "valid"), ((2, 6, 6, 3), 16, 3, "same"), ((3, 7, 7, 1), 8, 3, "same"),
           ((4, 10, 10, 3), 32, 3, "same"), ((5, 9, 9, 4), 16, 3, "valid"), ((1, 12, 12, 3), 16, 3, "same"),
           ((6, 8, 8, 32), 16, 3, "same"), ((2, 5, 40, 16), 16, 3, "same"), ((16, 14, 14, 8), 24, 3, "same"),
           ((32, 28, 28, 1), 16, 3, "valid"), ((7, 6, 6, 4), 40, 1, "valid"))


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for i, (shape, filters, k, pad) in enumerate(_LAYERS):
        # (the 32-image one traced only: TF's eager BiasAddGrad of 21,632 rows takes another order, not modelled)
        c[f"keras/Conv2D/{'x'.join(map(str, shape))}/{k}x{k}x{filters}/{pad}"] = _layer(
            1000 + i, shape, filters, k, pad, eager=shape[0] < 32)
    c["nn/conv2d+bias_add/traced"] = _nn(1020)
    c["keras/fit/cnn"] = _fit(1030)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(conv2d|dense|sequential)\w*_\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.onednn-fused-contraction")
def test_traced_conv_bias_gradient_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
