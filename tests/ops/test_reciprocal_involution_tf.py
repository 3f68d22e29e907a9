"""Grappler's RemoveInvolution of a Reciprocal pair inside tf.function, by dtype (clause function.grappler-rewrites;
blind63b). TF 2.21's arithmetic optimizer removes Reciprocal(Reciprocal(x)) for complex numbers as for floats: inside
a tf.function `reciprocal(reciprocal(z))` of complex64/complex128 is z bit for bit, where eagerly the two divisions
leave a last bit off here and there; simdist kept the complex pair. Integers are refused by Reciprocal's T. Results
compared as bit patterns or exception classes. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_FORMS: dict[str, Callable[[Any, Any], Any]] = {
    "pair": lambda tf, x: tf.math.reciprocal(tf.math.reciprocal(x)),
    "pair_times_two": lambda tf, x: tf.math.reciprocal(tf.math.reciprocal(x)) * 2,
    "one_over_reciprocal": lambda tf, x: 1 / tf.math.reciprocal(x),
    "single": lambda tf, x: tf.math.reciprocal(x),
    "one_over": lambda tf, x: 1 / x,
    "ones_over": lambda tf, x: tf.ones_like(x) / x,
}


def _bits(t: Any) -> list[int]:
    a = np.asarray(t.numpy())
    if a.dtype.kind == "c":
        a = np.stack([a.real, a.imag])
    return a.view(f"u{a.dtype.itemsize}").ravel().tolist()


def _case(form: str, dt: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        z = np.random.RandomState(3).uniform(-3, 3, (2, 24))
        v = z[0] + 1j * z[1] if dt.startswith("complex") else z[0]
        x = tf.constant(np.asarray(v).astype(dt if dt != "bfloat16" else "float32"))
        if dt == "bfloat16":
            x = tf.cast(x, tf.bfloat16)
        fn = (lambda t: _FORMS[form](tf, t))
        f = tf.function(fn, autograph=False) if traced else fn
        try:
            return _bits(f(x))
        except Exception as e:  # noqa: BLE001 - the class is the result
            return f"raised {type(e).__name__}"
    return run


TABLE = case_results.Table(__file__, {f"{f}/{d}/{'traced' if t else 'eager'}": _case(f, d, t) for f in _FORMS
                                      for d in ("complex64", "complex128", "float32", "float64", "float16", "bfloat16")
                                      for t in (False, True)}, re.compile(r"(recip_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_reciprocal_involution_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
