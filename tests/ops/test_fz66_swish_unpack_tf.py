"""tf.nn.silu of an Unpack output whose input's rank Grappler learns only after constant folding (clause
function.onednn-swish, fz66: fz54b --alias seed 66606 #2, a traced bfloat16 `swish(unstack(selu(
unsorted_segment_sqrt_n(x, ids, 4)), num=4)[0])` one ulp off, also its reduce_min). fz59's rule (test_fz59_silu_first
_pass_tf.py): unsorted_segment_sqrt_n's count is reshaped to a computed shape, so Grappler's first shape inference does
not know the result's rank, constant folding cannot simplify silu's `beta * x` and the remapper leaves Sigmoid and Mul
(the eager value) where an ordinary silu is one _MklSwish. Unpack's shape function gives outputs of unknown shape for
an input of unknown rank, so the rank stays unknown through unstack; simdist's walk (grappler.py
`_first_pass_rank_unknown`) stopped at the output-selection node of a multi-output op and fused. An unstack of a value
whose rank is known still fuses. Float results compared as bit patterns. Its golden (tests/goldens/) is stamped with
this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_FORMS: dict[str, str] = {
    # (unfused in TF 2.21: the rank is unknown to Grappler's first pass)
    "sqrt_n selu unstack[0]": "tf.nn.swish(tf.unstack(tf.nn.selu(tf.math.unsorted_segment_sqrt_n(a, ids, 4)), "
                              "num=4)[0])",
    "sqrt_n unstack[1]": "tf.nn.swish(tf.unstack(tf.math.unsorted_segment_sqrt_n(a, ids, 4), num=4)[1])",
    "mean*2 unstack[0]": "tf.nn.swish(tf.unstack(tf.math.unsorted_segment_mean(a, ids, 4) * 2.0, num=4)[0])",
    "sqrt_n unstack all": "tf.stack([tf.nn.swish(v) for v in tf.unstack(tf.math.unsorted_segment_sqrt_n(a, ids, 4))])",
    "sqrt_n silu unstack[2]": "tf.nn.silu(tf.unstack(tf.math.unsorted_segment_sqrt_n(a, ids, 4))[2])",
    "sqrt_n identity unstack[0]": "tf.nn.swish(tf.unstack(tf.identity(tf.math.unsorted_segment_sqrt_n(a, ids, 4)))[0])",
    "sqrt_n reshape[2, 2] unstack[0]": "tf.nn.swish(tf.unstack(tf.reshape(tf.math.unsorted_segment_sqrt_n(a, ids, 4), "
                                       "[2, 2]))[0])",
    # (fused: the rank is known)
    "plain unstack[0]": "tf.nn.swish(tf.unstack(a)[0])",
    "selu unstack[2]": "tf.nn.swish(tf.unstack(tf.nn.selu(a))[2])",
}
# (not here, left open: an unstack of a Reshape of such a value to its own shape, [4] or [-1], fuses in TF 2.21 where a
# tf.identity does not; simdist records that Reshape as an Identity and keeps Sigmoid and Mul, /work/wt/fz66_logs/q/r18.py)
_DTYPES = ("bfloat16", "float32", "float16")


def _case(form: str, dtype: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        import numpy as np
        a = tf.cast(tf.constant([2.75, -28.582, 3.138]), getattr(tf, dtype))
        ids = tf.constant(np.array([1, 2, 0], np.int64))
        out = tf.function(lambda a: eval(_FORMS[form], {"tf": tf, "a": a, "ids": ids}), autograph=False)(a)
        bits = {"bfloat16": tf.uint16, "float16": tf.uint16, "float32": tf.uint32}[dtype]
        return tf.bitcast(out, bits)
    return run


_CASES = {f"{form}/{dt}": _case(form, dt) for form in _FORMS for dt in _DTYPES}
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz66_swish_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.onednn-swish")
def test_silu_of_unpack_of_unknown_rank_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
