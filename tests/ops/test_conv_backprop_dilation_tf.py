"""Dilated conv2d gradients per dtype, as TF 2.21's CPU kernels give them (clause nn.conv-dilation).

float32, bfloat16 and float16 backprops dilate; float64's Eigen kernel refuses a dilation rate
above 1 with InvalidArgumentError, for the input's and the filter's gradient alike (found by
issue 29's fourth blind mutant batch).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

# (name, dtype, dilations, which gradient)
CASES = [(f"{dt}-d{d}-{wrt}", dt, d, wrt) for dt in ("float64", "float32", "float16", "bfloat16")
         for d in ((2, 2), (1, 2)) for wrt in ("input", "filter")]


def compute(tf: Any, index: int) -> Any:
    """("ok", dtype, shape, values as float64) of the gradient, or ("error", class name)."""
    _, dt, dil, wrt = CASES[index]
    x = tf.Variable(tf.cast(tf.reshape(tf.range(2 * 6 * 6 * 2), [2, 6, 6, 2]), dt) / 10)
    w = tf.Variable(tf.cast(tf.reshape(tf.range(3 * 3 * 2 * 3), [3, 3, 2, 3]), dt) / 10)
    try:
        with tf.GradientTape() as tape:
            y = tf.nn.conv2d(x, w, strides=1, padding="VALID", dilations=list(dil))
        g = tape.gradient(y, x if wrt == "input" else w)
    except Exception as e:  # noqa: BLE001 - the class is the answer
        return ("error", type(e).__name__)
    return ("ok", g.dtype.name, tuple(g.shape), np.asarray(tf.cast(g, tf.float64).numpy()))


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    return {i: compute(tf, i) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.clause("nn.conv-dilation", ref="tf221")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_dilated_conv_gradient_as_tf(index: int, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    want = tf_results[index]
    got = compute(tf, index)
    name = CASES[index][0]
    assert got[:3] == want[:3], f"gradient={got[:3]}, but TF 2.21 gives {want[:3]} [{name}]"
    if want[0] == "ok":
        rtol = {"float64": 1e-12, "float32": 1e-5}.get(CASES[index][1], 1e-2)
        assert np.allclose(got[3], want[3], rtol=rtol), \
            f"gradient values differ from TF 2.21's by up to {np.max(np.abs(got[3] - want[3])):.3g} [{name}]"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
