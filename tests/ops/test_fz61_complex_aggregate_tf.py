"""SimplifyAggregation of complex sums inside tf.function past Identity and Neg (clause function.grappler-rewrites,
fz61: fz54b seed 61105 #7, `tf.math.add(tf.identity(c), c)` of complex128 with infinite parts: TF's NaN + NaN j,
simdist's inf + NaN j). TF 2.21 (/work/wt/fz61_logs/q_agg.py, agg_tf.out): the model pruner removes Identity and
StopGradient nodes before the arithmetic optimizer, so `identity(y) + y` is AddV2(y, y), an aggregate, Mul(2, y),
whose complex product makes NaN parts of an infinite one; but its RemoveNegationStage rewrites `a + (-b)` to
Sub(a, b) and `(-a) + b` to Sub(b, a) first, so a sum of two Neg nodes (`y + y`, `identity(y) + y` of y = -x) is no
aggregate, and `y - (-y)` is AddV2(y, y), one. AddN([identity(y), y]) aggregates whatever y is. Results compared as bit
patterns of the parts. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_PARTS = {"complex64": np.uint32, "complex128": np.uint64}

_FORMS: dict[str, Callable[[Any, Any], Any]] = {
    "identity_arg_first": lambda tf, x: tf.identity(x) + x,
    "identity_arg_second": lambda tf, x: x + tf.identity(x),
    "identity_twice": lambda tf, x: tf.identity(tf.identity(x)) + x,
    "identity_cumprod": lambda tf, x: tf.math.add(tf.identity(tf.math.cumprod(x)), tf.math.cumprod(x)),
    "identity_conj": lambda tf, x: (lambda y: tf.identity(y) + y)(tf.math.conj(x)),
    "identity_square": lambda tf, x: (lambda y: y + tf.identity(y))(tf.square(x)),
    "stop_gradient": lambda tf, x: (lambda y: tf.stop_gradient(y) + y)(x * x),
    "neg_twice": lambda tf, x: (lambda y: y + y)(-x),
    "neg_identity": lambda tf, x: (lambda y: tf.identity(y) + y)(-x),
    "neg_identities": lambda tf, x: (lambda y: tf.identity(y) + tf.identity(y))(-x),
    "neg_add_n": lambda tf, x: (lambda y: tf.math.add_n([tf.identity(y), y]))(-x),
    "neg_add_n3": lambda tf, x: (lambda y: tf.math.add_n([tf.identity(y), y, y]))(-x),
    "sub_neg_same": lambda tf, x: (lambda y: y - (-y))(tf.exp(x)),
    "sub_neg_identity": lambda tf, x: (lambda y: tf.identity(y) - (-y))(x * x),
    "plus_neg": lambda tf, x: x + (-tf.exp(x)),
    "neg_plus": lambda tf, x: (-x) + tf.exp(x),
    "plain": lambda tf, x: x + x,
}

_VALUES = [complex(np.inf, np.nan), complex(np.inf, 1.0), complex(-np.inf, np.inf), complex(1.5, np.inf),
           complex(np.nan, 2.0), complex(1.0, 2.0), complex(-np.inf, -0.5), complex(0.25, -np.inf)]


_REAL = {"float32": np.uint32, "float64": np.uint64, "float16": np.uint16}
_REAL_FORMS: dict[str, Callable[[Any, Any, Any], Any]] = {   # (RemoveNegation of real floats: a NaN's sign)
    "real_plus_neg": lambda tf, x, y: x + (-y),
    "real_neg_plus": lambda tf, x, y: (-x) + y,
    "real_sub_neg": lambda tf, x, y: x - (-y),
    "real_neg_identity_plus": lambda tf, x, y: tf.identity(-x) + y,
    "real_neg_plus_chain": lambda tf, x, y: ((-x) + y) * 2.0,
}


def _real_case(form: str, dtype: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(7)
        v = r.randint(-8, 8, [2, 16]) / 4.0
        v[r.rand(2, 16) < 0.5] = np.nan
        v[0, :4], v[1, :4] = [np.nan, -np.nan, np.nan, 1.0], [-np.nan, np.nan, 2.0, np.nan]
        x, y = tf.constant(v[0].astype(dtype)), tf.constant(v[1].astype(dtype))
        out = tf.function(lambda a, b: _REAL_FORMS[form](tf, a, b), autograph=False)(x, y)
        return np.asarray(out.numpy()).view(_REAL[dtype]).tolist()
    return run


def _case(form: str, dtype: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x = tf.constant(np.array(_VALUES, dtype))
        out = tf.function(lambda v: _FORMS[form](tf, v), autograph=False)(x)
        return np.asarray(out.numpy()).view(_PARTS[dtype]).tolist()
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    out = {f"{form}/{dtype}": _case(form, dtype) for form in _FORMS for dtype in _PARTS}
    out.update({f"{form}/{dtype}": _real_case(form, dtype) for form in _REAL_FORMS for dtype in _REAL})
    return out


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz61_cagg_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_complex_aggregate_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
