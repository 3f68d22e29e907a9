"""Rules behind the disagreement classes fz50b closed, found by its composing generator (tests/fuzz50b/fz50b_gen.py
seeds 50001..): each against real TensorFlow 2.21, the same call on both backends gives the same dtype and values bit
for bit (a NaN matching any NaN, the sign of a zero kept), or raises the same exception class, eagerly and in a
tf.function. Needs the `tf` extra.
"""

from __future__ import annotations

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, tape as _tape, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _both(calls: tuple[str, ...], group: str) -> list[tuple[str, str, object]]:
    out = []
    for call in calls:
        out.append((call, group, _eager(call)))
        out.append((f"{call} in a tf.function", group, _traced(call)))
    return out


# --- float16 / bfloat16 MatMul and BatchMatMulV2 with a transposed operand in Eigen's lazy region: TF runs the
# float32 kernel on their float32 values, whose lazy product sums from the first product (so all -0.0 products sum
# to -0.0), then rounds (float16) or truncates (bfloat16). The gradient of `matvec(w, v, transpose_a=True)` with
# respect to w is such an outer product (fz50b_gen seed 50001 #1, #5)
_A = "tf.constant([[2.0, -1.5], [-3.0, 0.5], [0.25, -0.0]])"
_Z = "tf.constant([[0.0, -0.0, -0.0, 0.0], [-0.0, 0.0, -0.0, -0.0]])"
_W = "tf.constant([[1.0, -2.0, 3.0, 4.0], [1.0, -2.0, 3.0, -4.0]])"


def _lazy_half_cases() -> list[tuple[str, str, object]]:
    cases = []
    for dt in ("float16", "bfloat16"):
        calls = (f"tf.matmul(tf.cast(tf.transpose({_A}), tf.{dt}), tf.cast({_Z}[:1, :], tf.{dt}) * 0.0, "
                 f"transpose_a=True)",
                 f"tf.matmul(tf.cast({_A}, tf.{dt}), tf.cast(tf.transpose({_Z}), tf.{dt}), transpose_b=True)",
                 f"tf.matmul(tf.cast({_A}[:, :1], tf.{dt}), tf.cast(tf.transpose({_Z}[:1, :]), tf.{dt}), "
                 f"transpose_b=True)",
                 f"tf.linalg.matmul(tf.cast(tf.stack([{_A}, -{_A}]), tf.{dt}), "
                 f"tf.cast(tf.stack([{_Z}, {_Z}]), tf.{dt}), transpose_a=False, transpose_b=False)",
                 f"tf.linalg.matmul(tf.cast(tf.stack([{_A}, -{_A}]), tf.{dt}), "
                 f"tf.cast(tf.stack([tf.transpose({_Z}), tf.transpose({_Z})]), tf.{dt}), transpose_b=True)",
                 f"tf.linalg.matmul(tf.cast(tf.reshape(tf.range(-6.0, 6.0) / 7.0, [4, 3]), tf.{dt}), "
                 f"tf.cast(tf.reshape(tf.range(-8.0, 8.0) / 3.0, [4, 4]), tf.{dt}), transpose_a=True)",
                 f"tf.linalg.matvec(tf.cast({_W}, tf.{dt}), tf.cast(tf.constant([-0.0, 0.0]), tf.{dt}), "
                 f"transpose_a=True)")
        cases += _both(calls, "ops.host-cpu")
        cases.append((f"the gradient of matvec(w, v, transpose_a=True) by w ({dt}), upstream zeros of both signs",
                      "ops.host-cpu",
                      _tape(f"tf.linalg.matvec(x, tf.cast(tf.constant([-1.0, 2.0]), tf.{dt}), transpose_a=True) * "
                            f"tf.cast(tf.constant([0.0, -0.0, 0.0, -0.0]), tf.{dt})", f"tf.cast({_W}, tf.{dt})")))
        cases.append((f"the gradient of x @ w by x ({dt}), upstream zeros of both signs", "ops.host-cpu",
                      _tape(f"tf.matmul(x, tf.cast({_W}, tf.{dt})) * tf.cast(tf.constant([[0.0, -0.0, -0.0, 0.0]]), "
                            f"tf.{dt})", f"tf.cast(tf.constant([[-1.0, 2.0]]), tf.{dt})")))
    return cases


# --- bfloat16 Einsum on a CPU where oneDNN does not take bfloat16 (the AMD EPYC): TF's Eigen EinsumOp, the same code
# paths as float16's (half_matmul.py), each operation rounded to bfloat16 (where simdist rounded the float32 product
# once); bfloat16 tensordot is MatMul's composition, whose float32 sum is truncated (fz50b_gen seed 50002 #6, #15)
_R = "tf.cast(tf.reshape((tf.range({n}.0) % {p}.0 - {c}) / {d}, {shape}), tf.bfloat16)"


def _bf16_einsum_cases() -> list[tuple[str, str, object]]:
    calls = []
    for eq, sa, sb in (("...i,ij->...j", [3, 4], [4, 1]), ("ij,jk->ik", [5, 9], [9, 1]), ("ij,jk->ik", [1, 12], [12, 9]),
                       ("ij,jk->ik", [6, 13], [13, 27]), ("bij,bjk->bik", [2, 3, 5], [2, 5, 4]),
                       ("ij,kj->ik", [4, 7], [3, 7]), ("ij,ij->i", [3, 11], [3, 11]), ("ij,jk->ik", [20, 9], [9, 18])):
        na, nb = int(np.prod(sa)), int(np.prod(sb))
        a = _R.format(n=na, p=17, c=8.3, d=3.7, shape=sa)
        b = _R.format(n=nb, p=13, c=6.1, d=2.9, shape=sb)
        calls.append(f"tf.einsum('{eq}', tf.nn.selu({a}), {b})")
    for axes, sa, sb in ((1, [3, 4], [4, 1]), (1, [2, 3, 5], [5, 6]), ("[[0], [0]]", [7, 3], [7, 4]), (2, [2, 3, 4], [3, 4, 5])):
        na, nb = int(np.prod(sa)), int(np.prod(sb))
        a = _R.format(n=na, p=17, c=8.3, d=3.7, shape=sa)
        b = _R.format(n=nb, p=13, c=6.1, d=2.9, shape=sb)
        calls.append(f"tf.tensordot(tf.nn.selu({a}), {b}, axes={axes})")
    # (an ellipsis in one operand only: TF's batch dimensions, the other operand broadcast; fz50b_gen seed 50003 #13,
    # #29)
    for dt in ("bfloat16", "float16"):
        for eq, sa, sb in (("...i,ij->...j", [3, 4], [4, 5]), ("...i,ij->...j", [2, 3, 6], [6, 7]),
                           ("ij,...j->...i", [5, 4], [3, 4]), ("...ki,ij->...kj", [2, 3, 4], [4, 5])):
            na, nb = int(np.prod(sa)), int(np.prod(sb))
            a = _R.format(n=na, p=17, c=8.3, d=3.7, shape=sa).replace("bfloat16", dt)
            b = _R.format(n=nb, p=13, c=6.1, d=2.9, shape=sb).replace("bfloat16", dt)
            calls.append(f"tf.einsum('{eq}', {a}, {b})")
    cases = _both(tuple(calls), "ops.host-cpu")
    for dt in ("float16", "bfloat16"):
        b = _R.format(n=20, p=13, c=6.1, d=2.9, shape=[4, 5]).replace("bfloat16", dt)
        g = _R.format(n=15, p=7, c=3.2, d=1.3, shape=[3, 5]).replace("bfloat16", dt)
        cases.append((f"the gradient of a {dt} einsum '...i,ij->...j' by its first operand", "ops.host-cpu",
                      _tape(f"tf.einsum('...i,ij->...j', x, {b}) * {g}",
                            _R.format(n=12, p=17, c=8.3, d=3.7, shape=[3, 4]).replace("bfloat16", dt))))
        cases.append((f"the gradient of a {dt} einsum '...i,ij->...j' by its second operand", "ops.host-cpu",
                      _tape(f"tf.einsum('...i,ij->...j', {_R.format(n=12, p=17, c=8.3, d=3.7, shape=[3, 4])}, x) * {g}"
                            .replace("bfloat16", dt), b)))
    a = _R.format(n=12, p=17, c=8.3, d=3.7, shape=[3, 4])
    b = _R.format(n=20, p=13, c=6.1, d=2.9, shape=[4, 5])
    cases.append(("the gradient of a bfloat16 einsum 'ij,jk->ik' by its first operand", "ops.host-cpu",
                  _tape(f"tf.einsum('ij,jk->ik', x, {b}) * {_R.format(n=15, p=7, c=3.2, d=1.3, shape=[3, 5])}", a)))
    return cases


CASES: list[tuple] = [
    *_lazy_half_cases(),
    *_bf16_einsum_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.host-cpu")
@EDGES.parametrize("ops.host-cpu")
def test_sixteen_bit_products(k: int, tf_results: dict[int, object]) -> None:
    """float16/bfloat16 lazy transposed products, bfloat16 Einsum and tensordot as TF 2.21's CPU kernels."""
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz50b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
