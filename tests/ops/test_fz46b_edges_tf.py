"""Rules behind the disagreement classes fz46b closed, found by fz45b's chained-program generator
(tests/fuzz45/fz45_gen.py seeds 45001-45004), fz44b's generator (tests/fuzz44/fz44_gen.py seeds 44005-44009) and
fz46b's widened one (tests/fuzz46b/fz46b_gen.py): each against real TensorFlow 2.21, the same call on both backends
gives the same dtype and values bit for bit (a NaN matching any NaN), or raises the same exception class, eagerly
and in a tf.function. Needs the `tf` extra.
"""

from __future__ import annotations

import pytest

import edge_compare
from edge_programs import eager as _eager, tape as _tape, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_S = "ops.linalg-spectral"
_H = "ops.host-cpu"
_P = "ops.packet-paths"


def _both(calls: tuple[str, ...], group: str) -> list[tuple[str, str, object]]:
    out = []
    for call in calls:
        out.append((call, group, _eager(call)))
        out.append((f"{call} in a tf.function", group, _traced(call)))
    return out


_A = "tf.reshape(tf.range({n}.0, dtype=tf.{dt}) / 7.0 - 1.1, {s})"
_B = "tf.reshape(tf.range({n}.0, dtype=tf.{dt}) / 3.0 - 2.3, {s})"


# --- Qr, Cholesky, det: Eigen's HouseholderQR on TF's row-major matrices (reductions in order from the first term or from zero,
# rounded products: no FMA in Eigen's own code), Q from the identity, the last reflector first; a subnormal pivot
# copied (fz44_gen seeds 44005-44009: qr of 2x2 and 3x2 matrices in the last bit)
def _qr_cases() -> list[tuple[str, str, object]]:
    calls = []
    for dt in ("float32", "float64"):
        for m, n, full in ((2, 2, True), (3, 2, True), (3, 2, False), (4, 4, True), (5, 3, True), (6, 2, True),
                           (7, 7, True), (5, 1, False), (8, 5, True)):
            calls.append(f"tf.linalg.qr({_A.format(n=m * n, dt=dt, s=[m, n])} * "
                         f"tf.math.cos(tf.reshape(tf.range({m * n}.0, dtype=tf.{dt}), {[m, n]})), full_matrices={full})")
    calls += [
        "tf.linalg.qr(tf.constant([[2.0, 1.0], [1.0, 3.0]]), full_matrices=True)",
        "tf.linalg.qr(tf.constant([[0.5, -1.0], [2.0, 0.125], [-3.0, 4.0]], tf.float64), full_matrices=True)",
        "tf.linalg.qr(tf.constant([[1.5, 2.0, -3.0], [4.0, 0.25, 7.0]]))",
        "tf.linalg.qr(tf.constant([[1.0, 0.5], [0.25, 2.0]], tf.float16), full_matrices=True)",
        "tf.linalg.qr(tf.constant([[1e-40, 1.0], [1e-42, 2.0]]))",
        "tf.linalg.qr(tf.constant([[float('nan'), 1.0], [2.0, 3.0]]))",
        "tf.linalg.qr(tf.constant([[-0.0, 1.0], [0.0, -2.0], [0.0, 1.0]]), full_matrices=True)",
        "tf.linalg.qr(tf.reshape(tf.range(24.0) / 5.0 - 2.0, [2, 4, 3]), full_matrices=True)",
        # Cholesky: Eigen's LLT refuses a pivot x <= 0 only, so a NaN one goes on (TF: no error either way)
        "tf.linalg.cholesky(tf.constant([[float('inf'), 1.0], [float('nan'), 2.0]], tf.float64))",
        "tf.linalg.cholesky(tf.constant([[4.0, 1.0], [1.0, float('nan')]]))",
        "tf.linalg.cholesky(tf.constant([[float('inf'), float('nan'), 1.0], [float('nan'), 17.0, 9.0], "
        "[-float('inf'), 9.0, 17.0]], tf.float64))",
        # det/slogdet: the logs of LU's pivots summed by Eigen's redux, in AVX packets from 8 float32 or 4 float64
        # pivots on (fz46b_gen seed 46001 #6)
        f"tf.linalg.det(tf.linalg.matmul({_A.format(n=25, dt='float64', s=[5, 5])}, "
        f"{_A.format(n=25, dt='float64', s=[5, 5])}, transpose_b=True) + 5.0 * tf.eye(5, dtype=tf.float64))",
        f"tf.linalg.slogdet({_A.format(n=81, dt='float32', s=[9, 9])} * tf.math.cos(tf.reshape(tf.range(81.0), [9, 9])))",
        f"tf.linalg.logdet(tf.linalg.matmul({_A.format(n=36, dt='float64', s=[6, 6])}, "
        f"{_A.format(n=36, dt='float64', s=[6, 6])}, transpose_b=True) + 6.0 * tf.eye(6, dtype=tf.float64))",
        # pinv of a column: v / s times u^T, a transposed MatMul with k = 1 (the lazy product keeps u's -0.0)
        "tf.linalg.pinv(tf.constant([[0.0], [0.2], [0.4], [0.6]]))",
        "tf.linalg.pinv(tf.reshape(tf.range(16.0) / 5.0, [1, 4, 4, 1]), rcond=1e-3)",
    ]
    cases = _both(tuple(calls), _S)
    cases.append(("the gradient of qr's r, a 4x3 matrix", _S,
                  _tape("tf.reduce_sum(tf.linalg.qr(x)[1] * tf.reshape(tf.range(9.0), [3, 3]))",
                        "tf.reshape(tf.range(12.0) / 7.0 - 1.1, [4, 3]) * tf.math.cos(tf.reshape(tf.range(12.0), [4, 3]))")))
    return cases


# --- BatchMatMulV2 (and MatMul, einsum) with an operand transposed in the kernel's outer-parallel path (a batch of
# two or more, or m, k or n of 1) and m + k + n < 20: Eigen's lazy product, each entry a redux from the first product
# (products all -0.0 sum to -0.0), in order with transpose_a, AVX packets of k with transpose_b alone
# (fz45_gen seeds 45001 #54, 45002 #37; fz44_gen seed 44008's pinv)
def _lazy_calls(dt: str) -> tuple[str, ...]:
    return (
        f"tf.linalg.matmul(tf.zeros([3, 2, 3], tf.{dt}), -tf.ones([3, 2, 3], tf.{dt}), transpose_b=True)",
        f"tf.linalg.matmul(tf.zeros([2, 3, 2], tf.{dt}), -tf.ones([2, 3, 2], tf.{dt}), transpose_a=True)",
        f"tf.linalg.matmul({_A.format(n=24, dt=dt, s=[2, 3, 4])}, {_B.format(n=40, dt=dt, s=[2, 5, 4])}, "
        "transpose_b=True)",
        f"tf.linalg.matmul({_A.format(n=66, dt=dt, s=[3, 2, 11])}, {_B.format(n=99, dt=dt, s=[3, 3, 11])}, "
        "transpose_b=True)",
        f"tf.linalg.matmul({_A.format(n=36, dt=dt, s=[2, 9, 2])}, {_B.format(n=36, dt=dt, s=[2, 9, 2])}, "
        "transpose_a=True)",
        f"tf.linalg.matmul({_A.format(n=24, dt=dt, s=[2, 4, 3])}, {_B.format(n=30, dt=dt, s=[2, 5, 4])}, "
        "transpose_a=True, transpose_b=True)",
        f"tf.linalg.matmul({_A.format(n=5, dt=dt, s=[5, 1])}, {_B.format(n=4, dt=dt, s=[4, 1])}, transpose_b=True)",
        f"tf.linalg.matmul({_A.format(n=7, dt=dt, s=[7, 1])}, {_B.format(n=21, dt=dt, s=[7, 3])}, transpose_a=True)",
        f"tf.einsum('ij,ij->i', tf.zeros([2, 3], tf.{dt}), -tf.ones([2, 3], tf.{dt}))",
        f"tf.einsum('ij,ij->i', {_A.format(n=12, dt=dt, s=[3, 4])}, {_B.format(n=12, dt=dt, s=[3, 4])})",
        f"tf.einsum('ij,kj->ik', {_A.format(n=10, dt=dt, s=[2, 5])}, {_B.format(n=15, dt=dt, s=[3, 5])})",
        f"tf.einsum('bij,bkj->bik', {_A.format(n=24, dt=dt, s=[2, 3, 4])}, {_B.format(n=16, dt=dt, s=[2, 2, 4])})",
        f"tf.einsum('ji,jk->ik', {_A.format(n=12, dt=dt, s=[4, 3])}, {_B.format(n=8, dt=dt, s=[4, 2])})",
        f"tf.einsum('bi,bi->b', {_A.format(n=10, dt=dt, s=[2, 5])}, {_B.format(n=10, dt=dt, s=[2, 5])})",
    )


def _lazy_cases() -> list[tuple[str, str, object]]:
    cases = _both(_lazy_calls("float32"), _H) + _both(_lazy_calls("float64"), _P)
    cases.append(("the gradient of a batched x @ y^T", _H,
                  _tape("tf.reduce_sum(tf.linalg.matmul(x, tf.reshape(tf.range(40.0) / 3.0 - 2.3, [2, 5, 4]), "
                        "transpose_b=True) ** 2)", "tf.reshape(tf.range(24.0) / 7.0 - 1.1, [2, 3, 4])")))
    return cases


# --- SparseSegmentSum/Mean/SqrtN: a segment of two or more rows is summed under DAZ/FTZ (a subnormal read as a zero,
# a subnormal sum written as one); a segment of one row is copied, subnormals kept (fz46b_gen seed 46002 #25)
def _segment_cases() -> list[tuple[str, str, object]]:
    d = "tf.constant([[1e-40, 2.0], [1e-40, 3.0], [-1e-40, 1e-39]])"
    return _both((
        f"tf.sparse.segment_sum({d}, [0, 0, 1], [0, 0, 1])", f"tf.sparse.segment_mean({d}, [0, 1], [0, 1])",
        f"tf.sparse.segment_sqrt_n({d}, [0, 0], [0, 1])", f"tf.sparse.segment_sum({d}, [0, 1, 2], [0, 0, 0])",
        f"tf.sparse.segment_mean({d}, [2, 2], [0, 0], num_segments=3)",
        f"tf.sparse.segment_sum(tf.cast({d}, tf.float64) * 1e-270, [0, 1, 2, 2], [0, 0, 1, 2])",
    ), "ops.subnormals")


CASES: list[tuple] = [
    *_qr_cases(),
    *_lazy_cases(),
    *_segment_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.linalg-spectral")
@EDGES.parametrize("ops.linalg-spectral")
def test_qr_in_eigens_order(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.host-cpu")
@EDGES.parametrize("ops.host-cpu")
def test_lazy_transposed_products(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.packet-paths")
@EDGES.parametrize("ops.packet-paths")
def test_lazy_transposed_products_float64(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals")
@EDGES.parametrize("ops.subnormals")
def test_sparse_segment_sums_under_daz(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz46b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
