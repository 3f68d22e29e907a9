"""Raw ops the thirty-fourth session's survey found missing, added in the thirty-fifth (CholeskyGrad, clause
ops.linalg-more; the Ragged* kernels of tf.ragged's functions, clause ops.ragged), each against real TensorFlow
2.21: the same raw call on both backends gives the same dtype and values bit for bit, or raises the same exception
class; eagerly, inside a tf.function (the shape functions' trace-time refusals) and under a GradientTape (TF's
registered gradient, or its LookupError where it registers none). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from edge_programs import eager as _e, sig as _s, tape as _t, traced as _tr
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_LA = "ops.linalg-more"


def _eager(expr: str) -> Any:
    return _e(expr.replace("R.", "tf.raw_ops."))


def _traced(expr: str) -> Any:
    return _tr(expr.replace("R.", "tf.raw_ops."))


def _sig(expr: str, spec: tuple, arg: str) -> Any:
    return _s(expr.replace("R.", "tf.raw_ops."), spec, arg)


def _tape(expr: str, src: str) -> Any:
    return _t(expr.replace("R.", "tf.raw_ops."), src)


def _chol(n: int, batch: tuple = (), dtype: str = "float32", seed: int = 0) -> str:
    """A CholeskyGrad call on seeded random inputs: l the Cholesky factor of a positive definite matrix plus
    noise above the diagonal (the kernel reads the lower triangle only), grad a full random matrix."""
    shape = tuple(batch) + (n, n)
    rng = f"np.random.default_rng({seed})"
    a = (f"(lambda r: (lambda m: np.linalg.cholesky(m @ np.swapaxes(m, -1, -2) + {n} * np.eye({n})) "
         f"+ np.triu(r.normal(size={shape!r}), 1))(r.normal(size={shape!r})))({rng})")
    g = f"np.random.default_rng({seed + 1}).normal(size={shape!r})"
    return f"R.CholeskyGrad(l=tf.constant({a}, tf.{dtype}), grad=tf.constant({g}, tf.{dtype}))"


_CHOL_CASES: list[tuple[str, str, Any]] = [
    ('CholeskyGrad float32 1x1', _LA, _eager('R.CholeskyGrad(l=[[2.0]], grad=[[3.0]])')),
    ('CholeskyGrad float32 3x3', _LA, _eager(_chol(3))),
    ('CholeskyGrad float32 batch of 8x8', _LA, _eager(_chol(8, (2,), seed=3))),
    ('CholeskyGrad float64 batch of 5x5', _LA, _eager(_chol(5, (2, 1), "float64", seed=5))),
    ('CholeskyGrad float32 19x19 (Eigen gemv from 19)', _LA, _eager(_chol(19, seed=7))),
    ('CholeskyGrad float64 32x32 (one block)', _LA, _eager(_chol(32, (), "float64", seed=9))),
    ('CholeskyGrad float32 33x33 (two blocks)', _LA, _eager(_chol(33, seed=11))),
    ('CholeskyGrad float64 34x34 (two blocks)', _LA, _eager(_chol(34, (), "float64", seed=13))),
    ('CholeskyGrad zero diagonal', _LA, _eager('R.CholeskyGrad(l=[[1.0, 0.0], [2.0, 0.0]], grad=[[1.0, 5.0], [2.0, 3.0]])')),
    ('CholeskyGrad reads lower triangles', _LA, _eager('R.CholeskyGrad(l=[[2.0, 9.0], [1.0, 3.0]], grad=[[1.0, -7.0], [0.5, 2.0]])')),
    ('CholeskyGrad empty', _LA, _eager('R.CholeskyGrad(l=tf.zeros([3, 0, 0]), grad=tf.zeros([3, 0, 0]))')),
    ('CholeskyGrad shapes differ', _LA, _eager('R.CholeskyGrad(l=tf.eye(2), grad=tf.eye(3))')),
    ('CholeskyGrad not square', _LA, _eager('R.CholeskyGrad(l=tf.ones([2, 3]), grad=tf.ones([2, 3]))')),
    ('CholeskyGrad rank 1', _LA, _eager('R.CholeskyGrad(l=tf.ones([2]), grad=tf.ones([2]))')),
    ('CholeskyGrad ranks differ', _LA, _eager('R.CholeskyGrad(l=tf.eye(2), grad=tf.ones([1, 2, 2]))')),
    ('CholeskyGrad batches differ', _LA, _eager('R.CholeskyGrad(l=tf.ones([2, 2, 2]), grad=tf.ones([3, 2, 2]))')),
    ('CholeskyGrad float16 no kernel', _LA, _eager('R.CholeskyGrad(l=tf.eye(2, dtype=tf.float16), grad=tf.eye(2, dtype=tf.float16))')),
    ('CholeskyGrad int32 refused', _LA, _eager('R.CholeskyGrad(l=[[1]], grad=[[1]])')),
    ('CholeskyGrad dtypes differ', _LA, _eager('R.CholeskyGrad(l=tf.eye(2), grad=tf.eye(2, dtype=tf.float64))')),
    ('CholeskyGrad in a tf.function', _LA, _traced(_chol(4, seed=15))),
    ('CholeskyGrad rank 1 in a tf.function', _LA, _traced('R.CholeskyGrad(l=tf.ones([2]), grad=tf.ones([2]))')),
    ('CholeskyGrad not square in a tf.function', _LA, _traced('R.CholeskyGrad(l=tf.ones([2, 3]), grad=tf.ones([2, 3]))')),
    ('CholeskyGrad grad not square in a tf.function', _LA, _traced('R.CholeskyGrad(l=tf.eye(2), grad=tf.ones([2, 3]))')),
    ('CholeskyGrad of unknown size', _LA, _sig('R.CholeskyGrad(l=x, grad=x)', ([None, None], "float32"), 'tf.eye(3) * 2.0')),
    ('CholeskyGrad under a tape (no gradient)', _LA, _tape('R.CholeskyGrad(l=x, grad=x)', 'tf.eye(2) * 2.0')),
]

CASES: list[tuple[str, str, Any]] = _CHOL_CASES

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_cholesky_grad(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_rawops35_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
