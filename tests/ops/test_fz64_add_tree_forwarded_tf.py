"""AddOpsRewrite absorbing an Add behind a node the first Grappler iteration removes (clause function.grappler-rewrites,
fz64: fz54b --rare seed 64502 #0, a traced bfloat16 weighted_cross_entropy_with_logits of zero labels over [2, 1, 33]
one bfloat16 ulp off). Inside tf.function TF 2.21 folds `1 + (q - 1) * zeros_like(x)` to a Const of ones (ZerosLike of
a known shape is materialized), constant folding makes `ones * (log1p(e) + relu(-x))` an Identity and the dependency
optimizer removes it (as the model pruner removes a user's Identity or StopGradient), so the second iteration's
AddOpsRewriteStage sees `x + (L + R)` as one tree: AddN(x, L, R) sorted by name, (x + L) + R for an argument named
`lg`, (L + R) + x for `zz`. simdist's tree stopped at the Mul (and at an Identity). Compared: the traced results' bits,
for argument names sorting before and after TF's `logistic_loss/...` nodes."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_DTYPES = ("bfloat16", "float16", "float32", "float64")
_FORMS = ("wce_zero_labels", "wce_zero_labels_pw2", "wce_zero_labels_named", "ones_mul", "ones_mul_right",
          "div_ones", "plus_zeros", "identity", "stop_gradient", "identity_returned", "sigmoid_zero_labels",
          "ones_mul_twice")


def _body(tf: Any, form: str) -> Callable[[Any], Any]:
    def lr(x: Any) -> Any:
        return tf.math.log1p(tf.math.exp(-tf.math.abs(x))) + tf.nn.relu(-x)

    def run(x: Any) -> Any:
        z = tf.zeros_like(x)
        if form == "wce_zero_labels":
            return tf.nn.weighted_cross_entropy_with_logits(z, x, 1.0)
        if form == "wce_zero_labels_pw2":
            return tf.nn.weighted_cross_entropy_with_logits(z, x, 2.0)
        if form == "wce_zero_labels_named":
            return tf.nn.weighted_cross_entropy_with_logits(z, x, 1.0, name="aa")
        if form == "ones_mul":
            return x + (1 + 0 * z) * lr(x)
        if form == "ones_mul_right":
            return x + lr(x) * (z + 1)
        if form == "div_ones":
            return x + lr(x) / (1 - z)
        if form == "plus_zeros":
            return x + (z * 3 + lr(x))
        if form == "identity":
            return x + tf.identity(lr(x))
        if form == "stop_gradient":
            return x + tf.stop_gradient(lr(x))
        if form == "identity_returned":
            inner = lr(x)
            return x + tf.identity(inner) + 0 * inner[..., :1]
        if form == "sigmoid_zero_labels":
            return tf.nn.sigmoid_cross_entropy_with_logits(z, x)
        return x + (1 + 0 * z) * ((z + 1) * lr(x))
    return run


def _case(dt: str, form: str, arg: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        rs = np.random.RandomState(6402)
        v = (rs.standard_normal(66) * 10.0 ** rs.randint(-2, 2, 66)).astype(np.float32)
        v[:8] = [-0.6015625, 0.6015625, -3.0, 1.5, -0.1, 5.0, -7.25, 0.0]
        x = tf.cast(tf.constant(v.reshape(2, 1, 33)), getattr(tf, dt))
        body = _body(tf, form)
        f = tf.function(eval(f"lambda {arg}: body({arg})", {"body": body}), autograph=False)
        r = f(x)
        a = np.asarray(r.numpy())
        bits = a.astype(np.float32).view(np.uint32) if dt == "bfloat16" else a.view({"float16": np.uint16,
                                                                                       "float32": np.uint32,
                                                                                       "float64": np.uint64}[dt])
        return [r.dtype.name, list(r.shape), bits.ravel().tolist()]
    return run


_CASES = {f"{d}/{f}/{a}": _case(d, f, a) for d in _DTYPES for f in _FORMS for a in ("lg", "zz", "A")}
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz64_addtree_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_add_tree_absorbs_past_forwarded_nodes_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
