"""A silu of a value constant folding computes (clause function.onednn-swish, fz65: fz54b seed 65106 #4, a traced
float32 `silu(identity(tanh(log_softmax(zeros_like(v)))))`, two ulp off TF 2.21). Grappler's constant folding
materializes a ZerosLike/OnesLike of a fully known shape and folds every op of literals after it, Sigmoid and Mul
included, by their CPU kernels, before the remapper could fuse `x * sigmoid(x)` into oneDNN's _MklSwish: so the traced
value is the eager one. A captured tensor is an argument of TF's optimized graph (not folded): fused. simdist fused
them all (grappler.py `_swish_fusion` now leaves a `_folded_const` x). Compared: the results' bits."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_FORMS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "silu(zeros_like(v) - c)": lambda tf, v, c: tf.nn.silu(tf.zeros_like(v) - c),
    "silu(tanh(log_softmax(zeros_like(v))))": lambda tf, v, c: tf.nn.silu(tf.math.tanh(tf.nn.log_softmax(
        tf.zeros_like(v)))),
    "silu(identity(zeros_like(v) + c))": lambda tf, v, c: tf.nn.silu(tf.identity(tf.zeros_like(v) + c)),
    "x*sigmoid(x), x=zeros_like(v)-c": lambda tf, v, c: (lambda x: x * tf.sigmoid(x))(tf.zeros_like(v) - c),
    "silu(ones_like(v) * c)": lambda tf, v, c: tf.nn.silu(tf.ones_like(v) * c),
    "swish(constant * c)": lambda tf, v, c: tf.nn.swish(tf.constant([1.0, 2.0, -3.0], v.dtype) * c),
    "silu(v * c) (not folded)": lambda tf, v, c: tf.nn.silu(v * c),
    "silu(captured c * ones) (an argument)": None,   # (built in _case: a captured eager tensor)
}
_CS = (-3.75, 0.3, 1.7)


def _case(form: str, dt: str, c: float) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = tf.cast(tf.constant([0.5, -1.25, 2.75]), getattr(tf, dt))
        cc = tf.cast(tf.constant(c), getattr(tf, dt))
        if _FORMS[form] is None:
            cap = tf.cast(tf.constant([c, -c, 2 * c]), getattr(tf, dt))
            f = tf.function(lambda v: tf.nn.silu(cap) + v * 0)
        else:
            f = tf.function(lambda v: _FORMS[form](tf, v, cc))
        r = f(v)
        a = np.asarray(tf.cast(r, tf.float32).numpy())
        return [r.dtype.name, list(r.shape), a.view(np.uint32).ravel().tolist()]
    return run


_CASES = {f"{form}/{dt}/{c}": _case(form, dt, c) for form in _FORMS for dt in ("float32", "bfloat16", "float16")
          for c in _CS}
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz65_swish_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.onednn-swish")
def test_silu_of_a_folded_constant_is_not_fused_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
