"""Keras's grouped convolutions train on every CPU: Keras 3.15's TF backend (keras/src/backend/tensorflow/nn.py
`conv`) routes a convolution whose input channels differ from the kernel's (groups > 1), and a channels-first 3-D
one, through a `tf.function(jit_compile=True)`, so XLA computes it and its gradients. On a CPU where TF 2.21 leaves
oneDNN off (an AVX2-only AMD EPYC, observed) TF's own Conv2DBackpropInput refuses groups ("Gradients for grouped
convolutions are not supported on CPU"), yet the Keras layer's gradients are computed there; simdist's layers took
a hand-written convolution without that route and failed on such a host. simdist vs TF 2.21 (goldens recorded live;
clause ops.fuzz-raw, the fz35a paragraph's sequel)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__), pytest.mark.clause("ops.fuzz-raw")]

CASES = [("Conv1D", (2, 6, 4), 2, "eager"), ("Conv1D", (2, 6, 4), 2, "function"), ("Conv2D", (2, 5, 5, 6), 3, "eager"),
         ("Conv2D", (2, 5, 5, 6), 3, "function"), ("Conv1D", (2, 6, 4), 4, "function")]


def grads(tf: Any, case: tuple) -> dict[str, Any]:
    """The loss and the gradients (input, kernel, bias) of sum(layer(x)**2) for a grouped layer with fixed
    weights."""
    kind, shape, groups, mode = case
    x = tf.constant((np.arange(np.prod(shape), dtype=np.float32).reshape(shape) % 7 - 3) / 4)
    layer = getattr(tf.keras.layers, kind)(groups * 2, 3, groups=groups)
    layer.build(shape)
    k = layer.kernel.shape
    layer.kernel.assign((np.arange(np.prod(k), dtype=np.float32).reshape(k) % 5 - 2) / 5)
    layer.bias.assign(np.linspace(-0.5, 0.5, groups * 2).astype(np.float32))

    def step(x: Any) -> Any:
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(layer(x) ** 2)
        return [loss] + tape.gradient(loss, [x, layer.kernel, layer.bias])
    try:
        out = step(x) if mode == "eager" else tf.function(step)(x)
    except Exception as e:  # noqa: BLE001 - the class is the answer
        return {"error": type(e).__name__, "text": str(e).splitlines()[0][:200]}
    return {"values": [np.asarray(v) for v in out]}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {k: grads(tf, CASES[k]) for k in indices}


@pytest.fixture(scope="module")
def tf_answers() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.parametrize("k", range(len(CASES)), ids=[f"{c[0]}-groups{c[2]}-{c[3]}" for c in CASES])
def test_grouped_conv_gradients_as_tf(tf_answers: dict[int, Any], k: int) -> None:
    from simdist import tf
    want, got = tf_answers[k], grads(tf, CASES[k])
    assert "error" not in want, f"TF 2.21 refused {CASES[k]}: {want}"
    assert "error" not in got, f"simdist raised {got} for {CASES[k]}, but TF 2.21 computed the gradients"
    for name, w, g in zip(("loss", "d/dx", "d/dkernel", "d/dbias"), want["values"], got["values"]):
        assert g.shape == w.shape, f"{name} of {CASES[k]}: shape {g.shape}, but should be {w.shape}"
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, err_msg=f"{name} of {CASES[k]} (simdist vs TF 2.21)")


if __name__ == "__main__":
    tf_workers.serve(_tf_worker)
