"""tf.linalg.expm inside a tf.function after other ops (clause function.grappler-rewrites, fz63: fz61's open traced
float32 expm, fz61gen seeds 63301 #5 and 63302 #7). TF 2.21 builds linalg_impl.matrix_exponential inside the name
scope `matrix_exponential`, so the names of its Mul/AddV2 nodes, by which Grappler's arithmetic optimizer orders a
product's and a sum's inputs, are the same whatever the function built before it; simdist named them `mul_<n>` after
the ops before (a hamming_window's), and its MinimizeBroadcasts/AddOpsRewrite orders moved the result by an ulp or
two. Compared bit for bit (the results' bits as integers): expm of float32/float64 matrices of 1-norms that pick
each Padé degree and squarings, traced after 0-12 other products, a window function, or nothing."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_PRELUDES = ("none", "hamming", "muls1", "muls3", "muls9", "muls12", "adds5", "expm_twice")
_SCALES = (0.05, 0.25, 0.6, 1.5, 3.0)
_DTYPES = ("float32", "float64")


def _case(prelude: str, scale: float, dtype: str, n: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(int(scale * 100) * 31 + n)
        x = tf.constant((np.round(r.uniform(-2.0, 2.0, [n, n]) * 64) / 64.0).astype(dtype))
        v = tf.constant((np.round(r.uniform(-1.0, 1.0, [5]) * 64) / 64.0).astype(dtype))

        def f(a: Any, b: Any) -> Any:
            extra = []
            if prelude == "hamming":
                extra.append(tf.signal.hamming_window(9, periodic=False))
            elif prelude.startswith("muls"):
                y = b
                for _ in range(int(prelude[4:])):
                    y = y * 0.5
                extra.append(y)
            elif prelude == "adds5":
                y = b
                for _ in range(5):
                    y = y + 0.5
                extra.append(y)
            elif prelude == "expm_twice":
                extra.append(tf.linalg.expm(a * 0.125))
            return tf.linalg.expm(a * scale), extra
        out, _ = tf.function(f, autograph=False)(x, v)
        bits = np.asarray(out.numpy()).view(np.uint32 if dtype == "float32" else np.uint64)
        return [out.dtype.name, list(out.shape), [int(b) for b in bits.ravel()]]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{p}/s{s}/{dt}/n{n}": _case(p, s, dt, n)
            for p in _PRELUDES for s in _SCALES for dt in _DTYPES for n in (3, 4)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz63_expm_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_traced_expm_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: not lab.startswith("expm_twice/"))


@pytest.mark.xfail(strict=True, reason="open (fz63): a second expm in one tf.function (scope matrix_exponential_1) "
                   "differs from TF 2.21 by ulps in 15 of 20 cases; not analysed (a guess: Grappler merges the two "
                   "expms' equal constants under the first one's names, which simdist's orders do not see)")
@pytest.mark.clause("function.grappler-rewrites")
def test_traced_expm_twice_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("expm_twice/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
