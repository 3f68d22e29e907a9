"""float32/float64 Relu of subnormals (clause ops.subnormals, fz63: fz62's open F, `tf.nn.relu(1e-45)` is 1e-45 in
TF 2.21 and was 0 in simdist). TF's Eigen kernel reads a subnormal as zero in its packets (8 float32, 4 float64 lanes:
+0.0) and in the compiled scalar tail past them, which runs two elements at a time and gives a zero of x's sign; when
the tail's length is odd its first element is a true scalar max(x, 0) that returns x itself, bits and sign. Compared
bit for bit (the results' bits as integers), eagerly and traced, for sizes 1-20, 33 and 100003, beside a FLUSH op that
reads the kept subnormal as zero, the tape's ReluGrad, and Maximum/LeakyRelu, which flush everywhere (unchanged)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_VALUES = {"float32": (1e-45, -1e-45, 2e-40, -2e-40, 0.5, -0.5, -0.0, 0.0, 3.0),
           "float64": (5e-324, -5e-324, 1e-310, -1e-310, 0.5, -0.5, -0.0, 0.0, 3.0)}
_SIZES = tuple(range(1, 21)) + (33, 100003)
_FORMS = ("relu", "relu_times_one", "relu_grad", "maximum", "leaky_relu0")


def _input(dtype: str, n: int, shift: int) -> np.ndarray:
    vals = _VALUES[dtype]
    return np.array([vals[(i + shift) % len(vals)] for i in range(n)], dtype)


def _case(form: str, dtype: str, n: int, shift: int, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x = tf.constant(_input(dtype, n, shift))

        def f(v: Any) -> Any:
            if form == "relu":
                return tf.nn.relu(v)
            if form == "relu_times_one":
                return tf.nn.relu(v) * tf.constant(1.0, dtype)
            if form == "maximum":
                return tf.maximum(v, tf.constant(0.0, dtype))
            if form == "leaky_relu0":
                return tf.nn.leaky_relu(v, 0.0)
            with tf.GradientTape() as tape:
                tape.watch(v)
                y = tf.nn.relu(v)
            return tape.gradient(y, v, output_gradients=tf.fill(tf.shape(v), tf.constant(2.0, dtype)))
        out = (tf.function(f) if traced else f)(x)
        bits = np.asarray(out.numpy()).view(np.uint32 if dtype == "float32" else np.uint64)
        if n > 40:   # the tail and the packets before it
            bits = bits[-20:]
        return [out.dtype.name, list(out.shape), [int(b) for b in bits]]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{form}/{dt}/n{n}/s{s}/{'fn' if tr else 'eager'}": _case(form, dt, n, s, tr)
            for form in _FORMS for dt in _VALUES for n in _SIZES for s in (0, 1, 4)
            for tr in (False, True) if tr is False or s == 0}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz63_relu_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.subnormals")
def test_relu_subnormals_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
