"""A softmax of a materialized constant inside tf.function (clause nn.softmax-eigen, fz58: fz54b seed 58205 #4):
constant folding makes ZerosLike and OnesLike of a fully known shape Const nodes whatever their input's value, so
`softmax(zeros_like(x), axis=0)` of an argument x (and the transposes a non-last axis adds) is folded, and Grappler
evaluates the Softmax with the CPU's Eigen kernel, not the oneDNN kernel the graph's run and the eager op use:
1/3 is 0x3eaaaaaa on TF 2.21 inside the function, 0x3eaaaaab eagerly (observed). simdist folded only what its
recorder calls constant (a literal). Float32 results compared as bit patterns. Its golden (tests/goldens/) is
stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_FORMS: dict[str, Callable[[Any, Any, int], Any]] = {
    "zeros": lambda tf, x, ax: tf.nn.softmax(tf.zeros_like(x), axis=ax),
    "ones_scaled": lambda tf, x, ax: tf.nn.softmax(tf.ones_like(x) * 2.5, axis=ax),
    "zeros_plus_const": lambda tf, x, ax: tf.nn.softmax(tf.zeros_like(x) + tf.constant([0.5, -1.25, 3.0], tf.float32)
                                                        [: x.shape[-1]] if x.shape[-1] == 3 else tf.zeros_like(x), axis=ax),
    "argument": lambda tf, x, ax: tf.nn.softmax(x, axis=ax),
}


def _case(form: str, shape: tuple, ax: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(len(shape) * 10 + ax + 3)
        x = tf.constant((r.randint(-300, 300, shape) / 17.0).astype(np.float32))
        out = tf.function(lambda a: _FORMS[form](tf, a, ax))(x)
        return np.asarray(out.numpy(), np.float32).view(np.uint32).ravel().tolist()
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c = {}
    for form in _FORMS:
        for shape in ((3, 2, 4), (5, 3), (2, 7, 3), (6,)):
            for ax in (0, -1):
                c[f"{form}/{'x'.join(map(str, shape))}/ax{ax}"] = _case(form, shape, ax)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz58_sm_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("nn.softmax-eigen")
def test_a_softmax_of_materialized_zeros_folds_with_eigens_kernel_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
