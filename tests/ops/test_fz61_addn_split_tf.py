"""Constant folding's split of an AddN inside tf.function (clause function.grappler-rewrites, fz61: fz54b seed 59206 #7,
a traced `add_n` of a literal 0.0 and six `reduce_sum`s one ulp off). Two parts of TF 2.21's rule simdist lacked
(/work/wt/fz61_logs/q_addn.py, q_split.py, q_split_g.py: values and the optimized graphs' AddN inputs):
- a value computed from tf.zeros_like / tf.ones_like of a fully known shape is a Const to Grappler (array_ops builds
  the zeros as a Const whatever the input), so `reduce_sum(exp(imag(x)))` of a real argument x is one of the
  constants PartialAssocOpConstFolding folds first (the recorder called it a value of the argument);
- the AddN left after the split is sorted by name again in the meta optimizer's second iteration (CSE's
  CanonicalizeNode), the split named `ConstantFolding/<AddN>_partial_split_<k>` and a forwarded input (a reduction
  over no axes: `reduce_sum` of a scalar) under its source's name: add_n([k1, Abs, Sqrt, k2, mul]) of constants named
  k1 and k2 runs as AddN(Abs, ConstantFolding/AddN_partial_split_2, Sqrt, mul).
Inputs of wide exponents so that the order shows in the last bits; results compared as bit patterns. Its golden
(tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_UINT = {"float32": np.uint32, "float64": np.uint64, "float16": np.uint16}


def _term(tf: Any, x: Any) -> Any:   # (fz54b's `_loss` term: the finite elements' sum)
    return tf.reduce_sum(tf.where(tf.math.is_finite(x), x, tf.zeros_like(x)))


def _forms(tf: Any) -> dict[str, Callable[..., Any]]:
    return {
        # 59206 #7's shape: a literal, sums of arguments, a sum of exp(imag(real argument)), a scalar's sum
        "imag": lambda a, b, p, s: tf.math.add_n([tf.constant(0.0, a.dtype), _term(tf, a), _term(tf, b),
                                                  _term(tf, tf.math.exp(tf.math.imag(p))), _term(tf, s),
                                                  _term(tf, a * 3.0)]),
        "zeros_like": lambda a, b, p, s: tf.math.add_n([tf.constant(0.3, a.dtype), tf.reduce_sum(a), tf.reduce_sum(b),
                                                        tf.reduce_sum(tf.math.exp(tf.zeros_like(p))),
                                                        tf.reduce_sum(b * 2.0), s * 1.1]),
        "ones_like": lambda a, b, p, s: tf.math.add_n([tf.reduce_sum(a), tf.reduce_sum(b),
                                                       tf.reduce_sum(tf.ones_like(p) * 0.7),
                                                       tf.constant(-2.7182817, a.dtype), s * 1.1]),
        "zeros_and_ones": lambda a, b, p, s: tf.math.add_n([tf.reduce_sum(a), tf.reduce_sum(tf.zeros_like(p) + 0.1),
                                                            tf.reduce_sum(b), tf.reduce_sum(tf.ones_like(a)), s]),
        "named": lambda a, b, p, s: tf.math.add_n([tf.constant(1.2345678, a.dtype, name="k1"), tf.abs(a[0]),
                                                   tf.sqrt(tf.abs(b[0])), tf.constant(-7.7654321, a.dtype, name="k2"),
                                                   s * 1.1]),
        "named_identities": lambda a, b, p, s: tf.math.add_n([
            tf.identity(a[0], name="Zed"), tf.constant(1.2345678, a.dtype, name="Delta"), tf.identity(b[0], name="Bee"),
            tf.constant(-7.7654321, a.dtype, name="Echo"), tf.identity(s, name="Alpha"), tf.identity(a[1], name="Cz")]),
        "scalar_forwarded": lambda a, b, p, s: tf.math.add_n([tf.constant(3.1415926, a.dtype), tf.reduce_sum(a),
                                                              tf.reduce_sum(b), tf.reduce_sum(s * 2.0),
                                                              tf.constant(0.333, a.dtype), tf.reduce_sum(b * a[0])]),
    }


_FORMS = ("imag", "zeros_like", "ones_like", "zeros_and_ones", "named", "named_identities", "scalar_forwarded")


def _wide(r: np.random.RandomState, shape: Any) -> np.ndarray:
    return r.uniform(-1.0, 1.0, shape) * r.choice([0.1, 1.0, 3.7, 10.0, 100.0], shape)


def _case(form: str, dtype: str, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        scale = 1.0 / 8192 if dtype == "float16" else 1.0
        a = tf.constant((_wide(r, [3]) * scale).astype(dtype))
        b = tf.constant((_wide(r, [4]) * scale).astype(dtype))
        p = tf.constant((r.randint(-24, 24, [2, 3, 5]) / 8.0).astype(dtype))
        s = tf.constant((_wide(r, []) * scale).astype(dtype))
        out = tf.function(_forms(tf)[form], autograph=False)(a, b, p, s)
        return [np.asarray(out.numpy()).reshape(-1).view(_UINT[dtype]).tolist()]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{form}/{dtype}/{seed}": _case(form, dtype, seed) for form in _FORMS
            for dtype in _UINT for seed in range(8)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz61_addn_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_addn_split_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
