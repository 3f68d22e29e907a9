"""AddN over tensors captured from outside a tf.function is not split by constant folding (clause
function.grappler-rewrites, fz62: fz54b seed 62101 #6, a traced `add_n([v25, v47, v48, v47])` of captured v47, v48 one
ulp off). TF 2.21's function runtime passes every capture in as an argument: the optimized graph holds `_Arg` nodes
for them, small eager constants included (/work/wt/fz62_logs/q/q_cap.py), so PartialAssocOpConstFolding sees no
Const among them and `add_n([a, b, c])` adds a, b, c in order. simdist's split (fz61's `_folded_const`) took the
recorder's constants, captures included, and summed b + c first. Literal constants made inside the call are still
folded (the `literal*` forms). Left open: `add_n([a, b + c, d])`, which TF 2.21 adds as ((a + b) + c) + d (AddOpsRewrite
takes the Add into the AddN; simdist a + (b + c) + d). Compared as bit patterns. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_FORMS = ("a_b_c", "a_b_b", "a_b_c_d", "literal_pair", "literal_three")


def _case(form: str, dtype: str, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        arr = [(np.round(r.uniform(-30, 30, [4, 3]) * 1000) / 1000).astype(np.float32) for _ in range(4)]
        b, c, d = (tf.cast(tf.constant(v), dtype) for v in arr[1:])
        k1 = (np.round(r.uniform(-3, 3, [4, 3]) * 1000) / 1000).astype(np.float32)
        k2 = (np.round(r.uniform(-3, 3, [4, 3]) * 1000) / 1000).astype(np.float32)

        def f(a: Any) -> Any:
            if form == "a_b_c":
                return tf.math.add_n([a, b, c])
            if form == "a_b_b":
                return tf.math.add_n([a, b, b])
            if form == "a_b_c_d":
                return tf.math.add_n([a, b, c, d])
            lits = [tf.cast(tf.constant(k1), dtype), tf.cast(tf.constant(k2), dtype)]
            if form == "literal_three":
                lits.append(tf.cast(tf.constant(k1 * 0.5), dtype))
            return tf.math.add_n([a] + lits)
        out = tf.function(f)(tf.cast(tf.constant(arr[0]), dtype))
        return [np.asarray(tf.cast(out, tf.float64).numpy()).ravel().view(np.uint64).tolist()]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{form}/{dt}/{seed}": _case(form, dt, seed) for form in _FORMS
            for dt in ("float16", "float32", "float64") for seed in (0, 1, 2)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz62_addn_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_add_n_of_captures_is_not_split_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
