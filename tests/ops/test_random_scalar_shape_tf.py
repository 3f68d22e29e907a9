"""The random ops' `shape` argument as a scalar (issue 29's tnp29: `tnp.random.uniform(size=3)` passes
its size as it is) against real TensorFlow 2.21: RandomUniform, RandomUniformInt, RandomStandardNormal,
TruncatedNormal, RandomGamma, RandomPoissonV2 and the stateless draws want a vector, so a Python int,
a NumPy integer or a 0-d tensor is the kernel's InvalidArgumentError eagerly and the shape function's
ValueError inside a tf.function; a vector of one is a draw. The same call on both backends gives the
same exception class, or the same dtype and shape (and, under a seed, values). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_B, _G = "ops.random-bits", "ops.random-gamma-poisson"
_CALLS = [
    (_B, "tf.random.uniform(2)"), (_B, "tf.random.uniform(np.int64(2), dtype=tf.float64)"),
    (_B, "tf.random.uniform(tf.constant(2))"), (_B, "tf.random.uniform(2, maxval=5, dtype=tf.int32)"),
    (_B, "tf.random.normal(3)"), (_B, "tf.random.truncated_normal(np.array(2))"),
    (_B, "tf.random.stateless_uniform(2, [1, 2])"), (_B, "tf.random.stateless_normal(2, [1, 2])"),
    (_G, "tf.random.gamma(2, 1.0)"), (_G, "tf.random.poisson(2, 1.0)"),
    (_B, "(tf.random.set_seed(4), tf.random.uniform([2], dtype=tf.float64), tf.random.normal((1,)))[1:]"),
]

CASES: list[tuple[str, str, Any]] = [
    (f"{expr} {mode}", group, (_eager if mode == "eager" else _traced)(expr))
    for group, expr in _CALLS for mode in ("eager", "traced")
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.random-bits")
@EDGES.parametrize("ops.random-bits")
def test_random_bits_scalar_shapes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.random-gamma-poisson")
@EDGES.parametrize("ops.random-gamma-poisson")
def test_gamma_poisson_scalar_shapes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_random_scalar_shape_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
