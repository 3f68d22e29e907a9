"""Which NaN of two a commutative op keeps inside a tf.function (clause ops.packet-paths, fix64n: nsweep64's open
traced losses). TF 2.21's ArithmeticOptimizer canonicalizes every node before its stages (utils/canonicalizer.cc
CanonicalizeNode: a commutative op's regular inputs std::sort-ed as strings, "name:port"), so the kernel's first
operand, whose NaN an x86 add or multiply returns of two, is the input whose node name sorts first: inside tf.function
`lambda y, p: y * p` keeps p's NaN and `lambda a, b: a * b` a's; AddV2, Mul, SquaredDifference, AddN of two and the
SquaredDifference FuseSquaredDiff makes of `square(y - p)`; Maximum, Minimum and Sub keep the written order
(simdist/runtime/ops/grappler.py `_sorted_operands`). Crossed: the ops × argument names that sort as written, reversed,
an upper-case name (before every lower-case one) and names below a name scope × float32/float64/float16, eagerly and
traced, with NaNs of distinct payloads and signs at the same elements, one NaN alone and a NaN meeting an infinity;
results compared as bit patterns. Left out: a product Grappler's ConstantPushDown or MinimizeBroadcasts rebuilds
(`(u * 2.0) * v` keeps u's NaN in TF: the rewritten nodes keep their old names and are sorted again; simdist leaves
the nodes those rules make as it makes them). Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_BITS = {"float16": np.uint16, "float32": np.uint32, "float64": np.uint64}
_QUIET = {"float64": (0x7FF8000000000000, 63), "float32": (0x7FC00000, 31), "float16": (0x7E00, 15)}
#: op -> its expression of two arguments {u}, {v} (written order)
_OPS = {"mul": "{u} * {v}", "add": "{u} + {v}", "sub": "{u} - {v}", "sqd": "tf.math.squared_difference({u}, {v})",
        "square_sub": "tf.square({u} - {v})", "max": "tf.maximum({u}, {v})", "min": "tf.minimum({u}, {v})",
        "addn2": "tf.add_n([{u}, {v}])", "add_scoped": "_scoped(tf, {u}, {v})"}
#: argument names (first, second): sorting as written, reversed, upper case first, digits
_NAMES = (("a", "b"), ("y", "p"), ("z", "A"), ("x_1", "x_0"))


def _scoped(tf: Any, u: Any, v: Any) -> Any:
    """u + v of two products made below name scopes that sort against the written order ("zz/mul" after "aa/mul")."""
    with tf.name_scope("zz"):
        s = u * 3.0
    with tf.name_scope("aa"):
        t = v * 3.0
    return s + t


def _inputs(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """Two (4, 9) arrays: NaN pairs of distinct payloads and signs at shared elements (a packet's and a tail's), a
    NaN of one operand alone, a NaN meeting an infinity, and ordinary values."""
    bits = _BITS[dtype]
    quiet, sign = _QUIET[dtype]
    r = np.random.RandomState(64)
    u = (r.randint(-20, 20, 36) / 4.0).astype(dtype).view(bits).copy()
    v = (r.randint(-20, 20, 36) / 4.0).astype(dtype).view(bits).copy()
    for k, (i, neg_u, neg_v) in enumerate(((0, 0, 1), (9, 1, 0), (17, 1, 1), (35, 0, 0))):
        u[i] = quiet | (2 * k + 1) | (neg_u << sign)
        v[i] = quiet | (2 * k + 2) | (neg_v << sign)
    u[3] = quiet | 0x11
    v[5] = quiet | 0x12 | (1 << sign)
    u[20] = quiet | 0x13
    v[20] = np.array([np.inf], dtype).view(bits)[0]
    return u.view(dtype).reshape(4, 9), v.view(dtype).reshape(4, 9)


def _case(op: str, names: tuple[str, str], dtype: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        u, v = _inputs(dtype)
        first, second = names
        expr = _OPS[op].format(u=first, v=second)
        f = eval(f"lambda {first}, {second}: {expr}", {"tf": tf, "_scoped": _scoped})  # noqa: S307 - names as data
        out = (tf.function(f) if traced else f)(tf.constant(u), tf.constant(v))
        return np.asarray(out.numpy()).reshape(-1).view(_BITS[dtype]).tolist()
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{op}/{a},{b}/{dtype}/{'fn' if traced else 'eager'}": _case(op, (a, b), dtype, traced)
            for op in _OPS for a, b in _NAMES for dtype in _BITS for traced in (False, True)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fix64n_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_commutative_ops_keep_the_nan_of_the_input_named_first(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
