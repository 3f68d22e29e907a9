"""Grappler's ReplaceMulWithBroadcastByTile reads the Mul's inputs in node-name order (clause
function.grappler-rewrites; blind62b). The arithmetic optimizer sorts a commutative op's inputs by their nodes' names
(bytewise) before the stage asks whether the second is a Const of float32 ones, so inside a tf.function `x * ones`
of an argument named x keeps its Mul ("ones" < "x": the ones come first) and flushes x's subnormals, where `a * ones`
tiles and keeps them, whichever side the ones are written on; `reshape(x) * fill(1.0)` keeps the Mul ("Fill" <
"Reshape") and `x * constant(ones)` too ("Const" < "x"). simdist tried both orders, so it tiled all of them. TF 2.21
observed (/work/wt/blind62b_logs/bugs/q_tile.py, tile_tf.json): 8 of these 14 forms differed on the old code. Results
compared as bit patterns. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_SUBS = [5e-42, 1.0, -3e-40, 2.5, 1e-44, 7.0]

# (form, argument name): the argument's name is its placeholder's node name inside the function
_FORMS: dict[str, tuple[str, str]] = {
    "x*ones": ("x", "{a} * tf.ones([1, 3])"),
    "ones*x": ("x", "tf.ones([1, 3]) * {a}"),
    "a*ones": ("a", "{a} * tf.ones([1, 3])"),
    "ones*a": ("a", "tf.ones([1, 3]) * {a}"),
    "o*ones": ("o", "{a} * tf.ones([1, 3])"),
    "onesz*ones": ("onesz", "{a} * tf.ones([1, 3])"),
    "zeta*ones": ("zeta", "{a} * tf.ones([1, 3])"),
    "Big*ones": ("Big", "{a} * tf.ones([1, 3])"),
    "q*multiply_ones": ("q", "tf.multiply({a}, tf.ones([1, 3]))"),
    "x*const_ones": ("x", "{a} * tf.constant([[1.0, 1.0, 1.0]])"),
    "a*const_ones": ("a", "{a} * tf.constant([[1.0, 1.0, 1.0]])"),
    "reshape*ones": ("x", "tf.reshape({a}, [6, 1]) * tf.ones([1, 3])"),
    "reshape*fill": ("x", "tf.reshape({a}, [6, 1]) * tf.fill([1, 3], 1.0)"),
    "fill*reshape": ("x", "tf.fill([1, 3], 1.0) * tf.reshape({a}, [6, 1])"),
}


def _case(form: str) -> Callable[[Any], Any]:
    name, expr = _FORMS[form]

    def run(tf: Any) -> Any:
        src = f"def f({name}):\n    return {expr.format(a=name)}\n"
        scope: dict[str, Any] = {"tf": tf}
        exec(src, scope)  # noqa: S102 - our own text: the argument's name is the point
        f = tf.function(scope["f"], autograph=False)
        v = np.array(_SUBS, np.float32)
        arg = tf.constant(v if form.startswith(("reshape", "fill")) else v.reshape(6, 1))
        return np.asarray(f(arg).numpy()).view(np.uint32).tolist()
    return run


TABLE = case_results.Table(__file__, {form: _case(form) for form in _FORMS}, re.compile(r"(mul_tile_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_mul_tile_by_operand_names_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
