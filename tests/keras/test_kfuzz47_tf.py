"""The training fuzzer's kfuzz47 class against TF 2.21 (tests/fuzz_train; clause ops.host-cpu): TF's own (Eigen)
kernels of float16 and bfloat16 contractions where oneDNN does not take the dtype (this AMD EPYC host, AVX2 only).

Seed 4720261201 #8 (a SeparableConv2D under mixed_bfloat16 and Adam) and #2 (a Conv2DTranspose under
mixed_bfloat16) drifted from the first batch: simdist computed every half-precision contraction in float32 and
rounded once, as oneDNN does on the goldens' Intel host. Here, observed bit for bit: a bfloat16 MatMul and
BatchMatMulV2 truncate the float32 sum to bfloat16; a float16/bfloat16 DepthwiseConv2dNative adds its filter taps
one by one in an accumulator of the input's type; a Conv2DBackpropFilter adds the batch's output pixels one by one
in such an accumulator, a DepthwiseConv2dNativeBackpropFilter each image's pixels in one and then the images'
buffers in order. Each case returns the op's result (exact inputs: multiples of 1/32 with a few bits), and two
training cases the weights after fit under mixed_bfloat16 (simdist checked with the golden's host model)."""

from __future__ import annotations

import os
import re
import warnings
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _vals(shape: tuple[int, ...], salt: int) -> np.ndarray:
    """Exact values: multiples of 1/32 in [-15/16, 15/16] (5 significant bits: exact in bfloat16)."""
    n = int(np.prod(shape))
    return (((np.arange(n) * (37 + 2 * salt) + 11 * salt) % 61 - 30) / 32).astype(np.float32).reshape(shape)


def _half(tf: Any, dtype: str) -> Callable[[np.ndarray], Any]:
    return lambda a: tf.cast(tf.constant(a), getattr(tf, dtype))


def _matmul(dtype: str, m: int, k: int, n: int, batch: int = 0) -> Callable:
    def case(tf: Any) -> Any:
        c = _half(tf, dtype)
        lead = (batch,) if batch else ()
        return tf.matmul(c(_vals(lead + (m, k), 1)), c(_vals(lead + (k, n), 2)))
    return case


def _depthwise(dtype: str, kh: int, c: int, mult: int, stride: int, padding: str) -> Callable:
    def case(tf: Any) -> Any:
        h = _half(tf, dtype)
        return tf.nn.depthwise_conv2d(h(_vals((2, 6, 6, c), 3)), h(_vals((kh, kh, c, mult), 4)),
                                      [1, stride, stride, 1], padding)
    return case


def _out_hw(size: int, kh: int, stride: int, padding: str) -> int:
    return -(-size // stride) if padding == "SAME" else (size - kh) // stride + 1


def _conv_filter_grad(dtype: str, kh: int, c: int, o: int, stride: int, padding: str) -> Callable:
    def case(tf: Any) -> Any:
        h = _half(tf, dtype)
        oh = _out_hw(6, kh, stride, padding)
        return tf.raw_ops.Conv2DBackpropFilter(input=h(_vals((3, 6, 6, c), 5)), filter_sizes=[kh, kh, c, o],
                                               out_backprop=h(_vals((3, oh, oh, o), 6)),
                                               strides=[1, stride, stride, 1], padding=padding)
    return case


def _depthwise_filter_grad(dtype: str, kh: int, c: int, mult: int, stride: int, padding: str) -> Callable:
    def case(tf: Any) -> Any:
        h = _half(tf, dtype)
        oh = _out_hw(6, kh, stride, padding)
        return tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(
            input=h(_vals((3, 6, 6, c), 7)), filter_sizes=[kh, kh, c, mult],
            out_backprop=h(_vals((3, oh, oh, c * mult), 8)), strides=[1, stride, stride, 1], padding=padding)
    return case


def _fit(layer: str) -> Callable:
    """A model of 6 exact (5, 5, 2) images under mixed_bfloat16 (a float32 head), its weights set exactly, fit two
    epochs by 3s with Adam(0.01) and MSE: the weights after each batch (a DepthwiseConv2D: the depthwise forward and
    filter gradient; a Conv2D: its filter gradient; a Dense: bfloat16 MatMuls). The convolutions come first, so no
    input gradient of theirs is computed (those of a float16/bfloat16 convolution are not modelled: ops.host-cpu's
    kfuzz47 paragraph)."""
    def case(tf: Any) -> Any:
        keras = tf.keras
        keras.mixed_precision.set_global_policy("mixed_bfloat16")
        try:
            inp = keras.Input((5, 5, 2))
            if layer == "depthwise":
                h = keras.layers.DepthwiseConv2D(2, depth_multiplier=2)(inp)
                h = keras.layers.GlobalAveragePooling2D()(h)
            elif layer == "conv2d":
                h = keras.layers.Conv2D(3, 2, strides=2)(inp)
                h = keras.layers.GlobalAveragePooling2D()(h)
            else:
                h = keras.layers.Flatten()(inp)
                h = keras.layers.Dense(6, activation="tanh")(h)
            out = keras.layers.Dense(2, dtype="float32")(h)
            model = keras.Model(inp, out)
            model.set_weights([_vals(tuple(w.shape), 10 + i) for i, w in enumerate(model.get_weights())])
            model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
            x, y = _vals((6, 5, 5, 2), 20), _vals((6, 2), 21)
            seen: list[Any] = []

            class Keep(keras.callbacks.Callback):
                def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
                    seen.append(np.concatenate([np.ravel(w) for w in self.model.get_weights()]))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                hist = model.fit(x, y, batch_size=3, epochs=2, shuffle=False, verbose=0, callbacks=[Keep()])
            return [np.asarray(hist.history["loss"], dtype=np.float64)] + seen
        finally:
            keras.mixed_precision.set_global_policy("float32")
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for dt in ("bfloat16", "float16"):
        for m, k, n in ((15, 10, 4), (3, 4, 2), (64, 48, 16), (1, 7, 5)):
            out[f"matmul/{dt} {m}x{k}x{n}"] = _matmul(dt, m, k, n)
        out[f"matmul/{dt} batch 3 of 6x5x4"] = _matmul(dt, 6, 5, 4, batch=3)
        for kh, c, mult, s, pad in ((2, 4, 2, 1, "VALID"), (3, 3, 1, 1, "SAME"), (3, 2, 3, 2, "VALID"),
                                    (1, 5, 2, 1, "VALID")):
            out[f"depthwise/{dt} {kh}x{kh} c={c} m={mult} s={s} {pad}"] = _depthwise(dt, kh, c, mult, s, pad)
            out[f"depthwise_filter_grad/{dt} {kh}x{kh} c={c} m={mult} s={s} {pad}"] = \
                _depthwise_filter_grad(dt, kh, c, mult, s, pad)
            out[f"conv_filter_grad/{dt} {kh}x{kh} c={c} o={mult + 1} s={s} {pad}"] = \
                _conv_filter_grad(dt, kh, c, mult + 1, s, pad)
    out["fit/mixed_bfloat16 depthwise_conv2d"] = _fit("depthwise")
    out["fit/mixed_bfloat16 conv2d"] = _fit("conv2d")
    out["fit/mixed_bfloat16 dense"] = _fit("dense")
    return out


_AUTO_NAME = re.compile(r"(functional_|input_layer_|adam_|depthwise_conv2d_|conv2d_|dense_)_?\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.fixture(scope="module", autouse=True)
def _fresh_keras_session_after() -> Any:
    yield
    from simdist import tf
    tf.keras.backend.clear_session()


def _check(tf_results: dict[int, Any], prefix: str) -> None:
    from simdist.runtime import host_cpu
    with host_cpu.using(tf_workers.answers_model(__file__)):   # (TF's answers follow the CPU: ops.host-cpu)
        TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


@pytest.mark.clause("ops.host-cpu")
def test_bfloat16_matmul_truncates_its_float32_sum_without_onednn(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "matmul/")


@pytest.mark.clause("ops.host-cpu")
def test_half_depthwise_convolution_accumulates_in_its_type_without_onednn(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "depthwise/")


@pytest.mark.clause("ops.host-cpu")
def test_half_filter_gradients_accumulate_pixel_by_pixel_without_onednn(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "depthwise_filter_grad/")
    _check(tf_results, "conv_filter_grad/")


@pytest.mark.clause("ops.host-cpu")
def test_mixed_bfloat16_training_follows_the_eigen_kernels(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "fit/")


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    return TABLE.tf_worker(indices)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
