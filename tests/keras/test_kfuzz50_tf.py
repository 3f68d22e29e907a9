"""The training fuzzer's kfuzz50 findings against TF 2.21 (tests/fuzz_train; clauses optim.update-rules and
ops.conv-generic): the pieces kfuzz50's widening added, at the bit (int views, compared exactly), and the open class
its campaign found.

Agreeing (a test that fails when one of them drifts): Ftrl with learning_rate_power, l2 shrinkage and beta after
clipvalue (seed 5020261201 #12's optimizer); AdamW with `exclude_from_weight_decay(var_names=['bias'])`; SGD with
weight_decay; the new schedules (smooth ExponentialDecay, CosineDecayRestarts, three-boundary PiecewiseConstantDecay)
as a rate and under Adam.

Open (strict xfail): the float32 filter gradient of a convolution (Conv2DBackpropFilter, a Conv1D layer's kernel
gradient) sums its N * OH * OW products in TF's kernel order, which simdist's im2col matmul does not reproduce: on
this AMD host 3-7 of 8 elements of a Conv1D(2, 2) filter gradient over 2-16 rows are an ulp or two apart, and none of
a sequential, reversed or width-major accumulation (with or without FMA) gives TF's bits (kfuzz50's order probe)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _vals(shape: tuple[int, ...], salt: int, lo: float = -1.0) -> np.ndarray:
    """Exact-ish float32 inputs: distinct ratios k / 997 in [lo, lo + 1.5), correctly rounded."""
    n = int(np.prod(shape))
    k = (np.arange(n) * (37 + 2 * salt) + 11 * salt) % 1497
    return (lo + k.astype(np.float64) / 997.0).astype(np.float32).reshape(shape)


def _bits(a: Any) -> np.ndarray:
    return np.asarray(a).view(np.int32)


def _optimizer_steps(make: Callable[[Any], Any], wd_exclude: bool = False) -> Callable:
    """Three traced apply_gradients of fixed gradients on a kernel [6, 3] and a bias [3]: the weights' bits."""
    def case(tf: Any) -> Any:
        k = tf.Variable(_vals((6, 3), 1) * 0.5, name="kernel")
        b = tf.Variable(_vals((3,), 2) * 0.5, name="bias")
        opt = make(tf)
        if wd_exclude:
            opt.exclude_from_weight_decay(var_names=["bias"])
        opt.build([k, b])

        @tf.function
        def step(gk: Any, gb: Any) -> None:
            opt.apply_gradients([(gk, k), (gb, b)])
        out = []
        for s in range(3):
            step(tf.constant(_vals((6, 3), 3 + s) * 0.2), tf.constant(_vals((3,), 6 + s) * 0.2))
            out += [_bits(k.numpy()), _bits(b.numpy())]
        return out
    return case


def _schedule(make: Callable[[Any], Any]) -> Callable:
    """The schedule's rate at steps 0-8, float32 bits."""
    def case(tf: Any) -> Any:
        s = make(tf)
        return [_bits(np.float32(np.asarray(s(i)))) for i in range(9)]
    return case


def _conv_filter_grad(rows: int, keras_layer: bool) -> Callable:
    """A Conv1D(2, 2) filter gradient over `rows` rows of (3, 2): by the raw op or through the Keras layer's tape."""
    def case(tf: Any) -> Any:
        x = _vals((rows, 3, 2), 11)
        dy = _vals((rows, 2, 2), 12)
        if not keras_layer:
            g = tf.raw_ops.Conv2DBackpropFilter(input=x.reshape(rows, 1, 3, 2), filter_sizes=[1, 2, 2, 2],
                                                out_backprop=dy.reshape(rows, 1, 2, 2), strides=[1, 1, 1, 1],
                                                padding="VALID")
            return _bits(g.numpy())
        layer = tf.keras.layers.Conv1D(2, 2)
        layer.build((None, 3, 2))
        layer.set_weights([_vals((2, 2, 2), 13), _vals((2,), 14)])

        @tf.function
        def grads(xt: Any, dyt: Any) -> Any:
            with tf.GradientTape() as t:
                v = tf.reduce_sum(layer(xt) * dyt)
            return t.gradient(v, layer.trainable_variables)
        return [_bits(np.asarray(g.numpy())) for g in grads(tf.constant(x), tf.constant(dy))]
    return case


_S = "keras.optimizers.schedules."


def _cases() -> dict[str, Callable[[Any], Any]]:
    k = lambda tf: tf.keras   # noqa: E731
    out: dict[str, Callable[[Any], Any]] = {
        "optim/ftrl shrinkage clipvalue": _optimizer_steps(lambda tf: k(tf).optimizers.Ftrl(
            learning_rate=0.2, learning_rate_power=-0.3, l2_shrinkage_regularization_strength=0.05, beta=0.1,
            clipvalue=0.1)),
        "optim/adamw exclude bias": _optimizer_steps(lambda tf: k(tf).optimizers.AdamW(0.01, weight_decay=0.1),
                                                     wd_exclude=True),
        "optim/adamw": _optimizer_steps(lambda tf: k(tf).optimizers.AdamW(0.01, weight_decay=0.1)),
        "optim/sgd weight_decay exclude bias": _optimizer_steps(
            lambda tf: k(tf).optimizers.SGD(0.1, momentum=0.5, weight_decay=0.05), wd_exclude=True),
        "optim/adam cosine restarts": _optimizer_steps(lambda tf: k(tf).optimizers.Adam(
            k(tf).optimizers.schedules.CosineDecayRestarts(0.01, 2, t_mul=2.0, m_mul=0.8, alpha=0.1))),
        "schedule/exponential smooth": _schedule(lambda tf: k(tf).optimizers.schedules.ExponentialDecay(0.01, 3, 0.7)),
        "schedule/cosine restarts": _schedule(lambda tf: k(tf).optimizers.schedules.CosineDecayRestarts(
            0.01, 2, t_mul=2.0, m_mul=0.8, alpha=0.1)),
        "schedule/piecewise three": _schedule(lambda tf: k(tf).optimizers.schedules.PiecewiseConstantDecay(
            [2, 4, 6], [0.01, 0.01 * 0.5, 0.01 * 0.25, 0.01 * 0.1])),
    }
    for rows in (2, 3, 4, 8, 16):
        out[f"conv_filter/raw rows={rows}"] = _conv_filter_grad(rows, False)
        out[f"conv_filter/keras rows={rows}"] = _conv_filter_grad(rows, True)
    return out


_AUTO_NAME = re.compile(r"(adam_w_|adam_|ftrl_|sgd_|conv1d_)_?\d+")
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


@pytest.mark.clause("optim.update-rules")
def test_the_widened_optimizer_options_and_schedules_match_tf_bit_for_bit(tf_results: dict[int, Any]) -> None:
    """Ftrl's shrinkage, weight decay with the biases excluded, the new schedules: TF's bits."""
    _check(tf_results, "optim/")
    _check(tf_results, "schedule/")


@pytest.mark.clause("ops.conv-generic")
@pytest.mark.xfail(strict=True, reason=(
    "open (docs/spec.md train.reference-grid, kfuzz50): TF 2.21's CPU Conv2DBackpropFilter sums the filter "
    "gradient's N * OH * OW products in its kernel's order, not the im2col matmul's; the order was not found"))
def test_a_convolution_filter_gradient_sums_in_tf_kernel_order(tf_results: dict[int, Any]) -> None:
    """The float32 filter gradient of a Conv1D(2, 2) over 2-16 rows, by the raw op and the layer's tape."""
    _check(tf_results, "conv_filter/")


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    return TABLE.tf_worker(indices)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
