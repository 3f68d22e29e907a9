"""float32 matrix-vector products in the order of TF 2.21's own kernel (the fifty-fourth session, helper fz54; clause
ops.host-cpu; fz53's OPEN item 4). On a host where oneDNN does not run float32 (this AMD EPYC), MatMul of
[m, k] @ [k, 1] is SequentialMatMulKernel's Eigen product (matmul_op_impl.h LaunchBatchMatMul: the smallest
dimension 1 and m·k <= 128·128): coefficient by coefficient in order for m + k + 1 < 20, else Eigen's row-major
GEMV (contraction_order.eigen_gemv); with transpose_a, Eigen's column-major GEMV in blocks of 16 columns from
k = 128 (eigen_gemv_transposed), the gradient of a one-unit Dense's kernel; BatchMatMulV2 of one column takes the
same per batch member, and transpose_b of a [1, k] row the row-major one (linalg.py `_eigen_matvec`). Each case: a list of [label, the
result's bits]; `regression_head_fit` trains a Dense(1) head with Adam (batches of 64 rows of 20 features), whose
kernel drifted from TF's in the last bits (lead53_logs/repro_linear_head_fit.py's class).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(x: Any) -> Any:
    a = np.asarray(x)
    return [str(a.dtype), list(a.shape), a.view(f"u{a.dtype.itemsize}").ravel().tolist()]


SHAPES = [(2, 17), (3, 8), (5, 13), (7, 40), (8, 12), (9, 64), (16, 9), (17, 100), (33, 255), (64, 127), (65, 128),
          (100, 47), (128, 129), (200, 33), (256, 64)]


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    rng = np.random.default_rng(5403)
    if case["name"] == "gemv":
        for m, k in SHAPES:
            a = rng.standard_normal((m, k)).astype(np.float32)
            b = rng.standard_normal((k, 1)).astype(np.float32)
            out.append([f"[{m}, {k}] @ [{k}, 1]", _bits(tf.matmul(a, b).numpy())])
    elif case["name"] == "gemv_transpose_a":
        for m, k in SHAPES:
            a = rng.standard_normal((k, m)).astype(np.float32)
            b = rng.standard_normal((k, 1)).astype(np.float32)
            out.append([f"[{k}, {m}]^T @ [{k}, 1]", _bits(tf.matmul(a, b, transpose_a=True).numpy())])
    elif case["name"] == "batched_and_transpose_b":   # (SequentialMatMulKernel per batch member; y^T a column)
        for m, k in SHAPES[::2]:
            a = rng.standard_normal((3, m, k)).astype(np.float32)
            b = rng.standard_normal((3, k, 1)).astype(np.float32)
            out.append([f"[3, {m}, {k}] @ [3, {k}, 1]", _bits(tf.matmul(a, b).numpy())])
            at = rng.standard_normal((3, k, m)).astype(np.float32)
            out.append([f"[3, {k}, {m}]^T @ [3, {k}, 1]", _bits(tf.matmul(at, b, transpose_a=True).numpy())])
            r = rng.standard_normal((1, k)).astype(np.float32)
            out.append([f"[{m}, {k}] @ [1, {k}]^T", _bits(tf.matmul(a[0], r, transpose_b=True).numpy())])
    elif case["name"] == "regression_head_fit":
        tf.keras.utils.set_random_seed(3)
        x = rng.standard_normal((256, 20)).astype(np.float32)
        y = rng.standard_normal((256, 1)).astype(np.float32)
        model = tf.keras.Sequential([tf.keras.Input((20,)), tf.keras.layers.Dense(1)])
        model.set_weights([rng.standard_normal(w.shape).astype(np.float32) * 0.5 for w in model.get_weights()])
        model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
        model.fit(x, y, batch_size=64, epochs=2, shuffle=False, verbose=0)
        for w in model.weights:
            out.append([f"after fit: {w.path}", _bits(w.numpy())])
    return out


NAMES = ["gemv", "gemv_transpose_a", "batched_and_transpose_b", "regression_head_fit"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("ops.host-cpu")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_gemv_order_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    from simdist.runtime import host_cpu
    with host_cpu.using(tf_workers.answers_model(__file__)) as model:   # (TF's answers follow its CPU: ops.host-cpu)
        if model.onednn_supports("float32"):
            pytest.skip("the modelled kernel is TF's own where oneDNN does not run float32 (an AVX2-only host)")
        got = tf_programs.on_simdist(program, CASES[NAMES[index]], str(tmp_path))
    name, want = NAMES[index], tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: simdist's bits differ from TF 2.21's in {sum(x != y for x, y in zip(g[1][2], w[1][2]))} "
           f"of {len(w[1][2])} elements" for g, w in zip(got, want) if g != w]
    assert not bad, "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
