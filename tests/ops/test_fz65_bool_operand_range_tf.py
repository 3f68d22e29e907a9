"""A Python int beside a bool tensor in the logical ops (clause ops.conversion, fz65: fz62gen seed 65404 #5 and #6,
`tf.math.logical_and(<bool scalar>, -9223372036854775809)` and `logical_and(9223372036854775808, <int32 scalar>)`:
TF ValueError, simdist TypeError). LogicalAnd/Or/Not and `&`, `|`, `^` of bool tensors convert a Python number with
dtype bool: TypeError "Cannot convert 3 to EagerTensor of dtype bool", but an int outside int64's range fails first in
py_seq_tensor's int64 inference eagerly (ValueError "Can't convert Python sequence with out-of-range integer to
Tensor."), and is op_def_library's TypeError traced. simdist raised the TypeError for every number (math.py
`_number_refused`, shared now with the arithmetic operators' rule). Compared: the value or error class and message."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_NUMBERS = {"2**64": 2**64, "2**63": 2**63, "-2**63-1": -2**63 - 1, "-2**63": -2**63, "2**70": 2**70, "3": 3,
            "1": 1, "0": 0, "1.5": 1.5, "True": True, "np.int64(5)": "np.int64(5)", "[2**64]": [2**64],
            "[1]": [1]}
_FORMS = {
    "and(b, n)": lambda tf, b, n: tf.math.logical_and(b, n),
    "and(n, b)": lambda tf, b, n: tf.math.logical_and(n, b),
    "or(b, n)": lambda tf, b, n: tf.math.logical_or(b, n),
    "xor(b, n)": lambda tf, b, n: tf.math.logical_xor(b, n),
    "not(n)": lambda tf, b, n: tf.math.logical_not(n),
    "b & n": lambda tf, b, n: b & n,
    "n | b": lambda tf, b, n: n | b,
    "b ^ n": lambda tf, b, n: b ^ n,
    "tf.logical_and(b, n)": lambda tf, b, n: tf.logical_and(b, n),
}


def _case(form: str, num: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        import numpy as np
        n = _NUMBERS[num]
        n = np.int64(5) if n == "np.int64(5)" else n
        f = _FORMS[form]
        b = tf.constant([True, False])
        if traced:
            return tf.function(lambda b: f(tf, b, n), autograph=False)(b)
        return f(tf, b, n)
    return run


_CASES = {f"{form}/{num}/{'traced' if t else 'eager'}": _case(form, num, t)
          for form in _FORMS for num in _NUMBERS for t in (False, True)}
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz65_bool_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


def _messages_differ(lab: str) -> bool:
    """Traced, TF's TypeError names the graph's node (op_def_library's "Tensor conversion requested ..."); the class
    is what the fuzzer compared: checked by class below."""
    return lab.endswith("/traced")


@pytest.mark.clause("ops.conversion")
def test_logical_ops_python_ints_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: not _messages_differ(lab))


@pytest.mark.clause("ops.conversion")
def test_logical_ops_python_ints_traced_classes_as_tf(tf_results: dict[int, Any]) -> None:
    from simdist import tf
    bad = []
    for i, lab in enumerate(TABLE.labels):
        if not _messages_differ(lab):
            continue
        got, want = TABLE.run(tf, lab), tf_results[i]
        if got[0] != want[0] or (want[0] == "err" and got[1] != want[1]):
            bad.append(f"{lab}: simdist {got[:2]!r:.120}, TF {want[:2]!r:.120}")
    assert not bad, f"{len(bad)} traced cases differ from TF 2.21:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
