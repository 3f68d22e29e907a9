"""MaxPool's gradient where windows overlap, bit for bit against TF 2.21 (clause autodiff.op-gradients). TF's own
MaxPoolingGradOp (SpatialMaxPoolWithArgMaxHelper; float64 everywhere, float32 where oneDNN is off, as on this
AMD host) adds each output's gradient to its window's maximum in output index order, so an input that is the
maximum of several overlapping windows sums their gradients from the first output to the last. simdist added them
window offset by window offset (the outputs backwards): 1-14 of 150 elements an ulp off (blind54b's class probe,
/work/wt/blind54b_logs/class_probe.py `pool_grads`). Values are compared as their bit patterns (exactly)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _grad(dt: str, k: int, s: int, pad: str, shape: tuple = (2, 5, 5, 3)) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        r = np.random.RandomState(k * 100 + s * 10 + len(pad) + len(shape))
        x = tf.constant(r.rand(*shape).astype(dt))
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.nn.max_pool2d(x, k, s, pad)
            y = tf.reduce_sum(y * tf.constant(r.rand(*y.shape).astype(dt)))
        g = np.asarray(t.gradient(y, x).numpy())
        return g.view(np.uint32 if dt == "float32" else np.uint64)   # the bits, compared exactly
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out = {}
    for dt in ("float64", "float32"):
        for k, s, pad in ((3, 1, "SAME"), (2, 1, "VALID"), (3, 2, "SAME"), (3, 1, "VALID"), (2, 2, "VALID")):
            out[f"{dt}/{k}x{k} stride {s} {pad}"] = _grad(dt, k, s, pad)
        out[f"{dt}/4x4 stride 1 SAME, 7x6 input"] = _grad(dt, 4, 1, "SAME", (1, 7, 6, 2))
    return out


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(max_pool_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_max_pool_gradient_sums_overlapping_windows_in_output_order(tf_results: dict[int, Any], dtype: str) -> None:
    from simdist.runtime import host_cpu
    if dtype == "float32" and host_cpu.current().onednn_supports("float32"):
        pytest.skip("float32 MaxPoolGrad runs oneDNN's kernel on this CPU (its order is not this rule's)")
    TABLE.check(tf_results, lambda lab: lab.startswith(dtype + "/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
