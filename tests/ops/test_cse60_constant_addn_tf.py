"""An AddN of three or more constants inside a tf.function (clause function.grappler-rewrites): TF 2.21's meta
optimizer runs common_subgraph_elimination before constant_folding, and CanonicalizeNode sorts every commutative
node's inputs by their nodes' names, merging identical nodes (`Mul(a, b)` and `Mul(b, a)` are one node read twice;
equal Consts one Const), so constant folding evaluates the AddN over its inputs in that sorted order. simdist folded
an all-constant AddN in its written order (lead60: the traced gradient of `v = w * 1.0; (v * v) * 2 + v` for a
constant bfloat16 w, AddN(ones, gradient_tape/mul_2/Mul, gradient_tape/mul_2/Mul_1), folds as (2v + 2v) + 1; the
sixtieth session, cse60). Each case adds three to six constant terms of one float dtype — literal constants, products
of constants (written either way round), absolute values, casts, one tensor twice — of mixed magnitudes in a seeded
order, and compares the traced sum's bits with TF's; the gradient cases are lead60's program per dtype. Its golden
(tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_DTYPES = ("float16", "bfloat16", "float32", "float64")
_KINDS = ("const", "mul", "rmul", "abs", "cast", "twice")


def _bits(tf: Any, out: Any) -> list:
    return np.asarray(tf.cast(out, "float64").numpy(), np.float64).view(np.uint64).tolist()


def _case(seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        dt = _DTYPES[seed % 4]
        n = 3 + r.randint(0, 4)
        vals = [(r.standard_normal(4) * portable_inputs.pow2(r.randint(-6, 7))).astype(np.float32) for _ in range(n)]
        kinds = [_KINDS[r.randint(0, len(_KINDS))] for _ in range(n)]
        scale = float(r.randint(1, 8)) * 0.25

        def f() -> Any:
            c = lambda v: tf.cast(tf.constant(v, "float64"), dt) if dt == "bfloat16" else tf.constant(v, dt)
            pair = (c(vals[0]), tf.constant(scale, dt))
            terms = []
            for kind, v in zip(kinds, vals):
                if kind == "const":
                    terms.append(c(v))
                elif kind == "mul":
                    terms.append(pair[0] * pair[1])
                elif kind == "rmul":
                    terms.append(pair[1] * pair[0])
                elif kind == "abs":
                    terms.append(tf.abs(c(v)))
                elif kind == "cast":
                    terms.append(tf.cast(tf.constant(v, "float32"), dt))
                else:
                    t = c(v) * tf.constant(scale, dt)
                    terms += [t, t]
            return tf.math.add_n(terms)
        return _bits(tf, tf.function(f)())
    return run


def _grad(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(60)
        base = (r.uniform(-2.0, 2.0, size=(2, 3)) * 1024.0).round() / 1024.0

        def step() -> Any:
            w = tf.cast(tf.constant(base) * 1.75, dt)
            with tf.GradientTape() as t:
                t.watch(w)
                v = w * 1.0
                y = (v * v) * tf.constant(2.0, dt) + v
            return t.gradient(y, w)
        return _bits(tf, tf.function(step)())
    return run


TABLE = case_results.Table(__file__, {**{f"add_n/s{seed}": _case(seed) for seed in range(40)},
                                      **{f"grad/{dt}": _grad(dt) for dt in _DTYPES}},
                           re.compile(r"(cse60_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_constant_add_n_folds_in_canonical_order(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
