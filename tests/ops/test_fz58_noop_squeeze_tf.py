"""A Squeeze that squeezes nothing inside tf.function (clause function.grappler-rewrites, fz58: fz54b seed 58203 #7):
constant folding's SimplifySqueeze makes a Squeeze whose input has a known rank and every dimension known and larger
than 1 an Identity, the dependency optimizer removes it, and its consumers read the input's node, whose name orders
an AddN's inputs: `add_n([squeeze(x), sin(y) * 1000, y * 3.7, x])` of [4, 64] float32 arguments is one ulp apart
from simdist's where it kept the name `Squeeze`, which sorts before the products' `mul`, `mul_1` where the
argument `x` sorts after them (TF 2.21 observed). A Squeeze that removes a dimension of size 1
stays. Float32 results compared as bit patterns. Its golden (tests/goldens/) is stamped with this file."""

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
    "sq_twice": lambda tf, x, y: tf.math.add_n([tf.squeeze(x), tf.math.sin(y) * 1000, y * 3.7, x]),
    "sq_once": lambda tf, x, y: tf.math.add_n([tf.squeeze(x), tf.math.sin(y) * 1000, y * 3.7]),
    "sq_three": lambda tf, x, y: tf.math.add_n([tf.squeeze(x), tf.math.sin(y) * 1000, x]),
    "sq_axis_none_plain": lambda tf, x, y: tf.math.add_n([x, tf.math.sin(y) * 1000, y * 3.7, x]),
    "sq_of_one": lambda tf, x, y: tf.math.add_n([tf.squeeze(tf.expand_dims(x, 0)), tf.math.sin(y) * 1000, y * 3.7]),
}


def _case(form: str, shape: tuple) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(len(shape) + 7)
        x = tf.constant((r.randint(-3000, 3000, shape) / 37.0).astype(np.float32))
        y = tf.constant((r.randint(-3000, 3000, shape) / 7.0).astype(np.float32))
        out = tf.function(lambda x, y: _FORMS[form](tf, x, y))(x, y)   # (x, y: names that sort after `mul`)
        return np.asarray(out.numpy(), np.float32).view(np.uint32).ravel().tolist()
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{form}/{'x'.join(map(str, shape))}": _case(form, shape)
            for form in _FORMS for shape in ((4, 64), (2, 5), (3, 4, 5), (70,))}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz58_sq_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_a_squeeze_of_nothing_is_forwarded_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
