"""The thin Q of tf.linalg.qr with two or more columns (fix65r; asweep65's Orthogonal initializer of shape (3, 12)
differed in last bits): TF's Qr kernel forms it as `householderQ() * Identity(m, min(m, n))`, evaluated into a
column-major matrix, so each reflector's essential^T * bottom is Eigen's row-major matrix-vector product (packet dot
products: AVX packets of 8 floats or 4 doubles, predux, a half packet in the one-by-one tail). Each call against
real TensorFlow 2.21, bit for bit, eagerly and in a tf.function. Needs the `tf` extra.
"""

from __future__ import annotations

import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_S = "ops.linalg-spectral"
_A = "tf.reshape(tf.range({n}.0, dtype=tf.{dt}) / 7.0 - 1.1, {s})"


def _cases() -> list[tuple[str, str, object]]:
    out = []
    for dt in ("float32", "float64"):
        for m, n in ((12, 3), (9, 4), (20, 5), (6, 6), (11, 2), (13, 10)):
            call = (f"tf.linalg.qr({_A.format(n=m * n, dt=dt, s=[m, n])} * "
                    f"tf.math.cos(tf.reshape(tf.range({m * n}.0, dtype=tf.{dt}), {[m, n]})))")
            out.append((call, _S, _eager(call)))
            out.append((f"{call} in a tf.function", _S, _traced(call)))
    for shape in ((3, 12), (20, 5), (3, 3, 8)):
        call = f"tf.keras.initializers.Orthogonal(seed=65)({shape})"
        out.append((call, _S, _eager(call)))
    return out


CASES: list[tuple] = _cases()

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.linalg-spectral")
@EDGES.parametrize("ops.linalg-spectral")
def test_thin_q_as_a_column_major_product(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fix65r_thin_qr_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
