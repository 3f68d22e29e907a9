"""tf.experimental.numpy.ones_like calls v1's array_ops.ones_like (ones_like_impl: `ones` of the input's shape at
the dtype, never the OnesLike op), so a string input is constant(1, string)'s TypeError, where tf.ones_like's eager
OnesLike refuses it by its attr, InvalidArgumentError (fz66's leftover; helper fix66u; runtime/ops/array.py
`ones_like_impl`). Compared: value, or error class and message (class only where TF's text is AutoGraph's)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_classes
import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _f(text: str, traced: bool = False) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        import numpy as np
        env = {"tf": tf, "np": np, "tnp": tf.experimental.numpy}
        if traced:
            return tf.function(lambda: eval(text, env), autograph=False)()
        return eval(text, env)
    return run


_INPUTS = {"str": "tf.constant(['a', 'bc'])", "str0": "tf.constant('a')", "np-str": "np.array(['a'])",
           "f32": "tf.constant([1.5, 2.0])", "i8": "tf.constant([1], tf.int8)", "bool": "tf.constant([True, False])",
           "c64": "tf.constant([1j], tf.complex64)", "u16": "tf.constant([1], tf.uint16)",
           "bf16": "tf.constant([1.0], tf.bfloat16)", "py-float": "2.5", "py-list": "[1, 2]",
           "empty": "tf.zeros([0, 2])"}
_CASES: dict[str, Callable[[Any], Any]] = {}
for _k, _a in _INPUTS.items():
    for _fn in ("tnp.ones_like", "tnp.zeros_like", "tf.ones_like"):
        for _dt in ("", ", dtype='float32'", ", dtype=tf.string"):
            _t = f"{_fn}({_a}{_dt})"
            _CASES[f"{_k}/{_fn}{_dt}/eager"] = _f(_t)
            _CASES[f"{_k}/{_fn}{_dt}/traced"] = _f(_t, True)
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fix66u_like_auto_)\d+"))
# (a graph's message names its nodes; TF's eager OnesLike attr refusal prints the NodeDef: the class is the rule)
_CLASS_ONLY = re.compile(r"/traced$|^(str|str0|np-str)/tf\.ones_like")


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.conversion")
def test_tnp_ones_like_is_v1_ones_like_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: not _CLASS_ONLY.search(lab))
    case_classes.check_classes(TABLE, tf_results, lambda lab: bool(_CLASS_ONLY.search(lab)))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
