"""tf.linalg.experimental.conjugate_gradient and the tf.linalg functions that take a LinearOperator in place of a
tensor (TF 2.21's dispatch_for_types overrides in linear_operator.py), against TF 2.21 (the forty-fourth session,
helper names44, clause ops.linalg-more; simdist/tf/_linalg_dispatch.py).

Each case is one program, the same on both backends, returning plain Python values (a raised error is its class
and message; an operator its class name and dense matrix); TF runs it in a worker process (live or from the
golden). Numbers are compared to rtol 1e-5 / atol 1e-6 (float32 reductions), iteration counts exactly.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def attempt(f: Callable[[], Any]) -> Any:
    try:
        return ["ok", plain(f())]
    except Exception as e:  # noqa: BLE001 - the class and message are the observable
        return ["error", type(e).__name__, str(e).split("\n")[0]]


def plain(v: Any) -> Any:
    if isinstance(v, tuple) and hasattr(v, "_fields"):
        return {f: plain(getattr(v, f)) for f in v._fields}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if hasattr(v, "to_dense") and hasattr(v, "domain_dimension"):
        return ["operator", type(v).__name__, plain(v.to_dense())]
    if hasattr(v, "numpy") and hasattr(v, "dtype"):
        return ["tensor", v.dtype.name, np.asarray(v.numpy()).tolist()]
    return v


A = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]]
B = [[2.0, 0.5], [0.5, 1.0]]


def conjugate_gradient(tf: Any) -> Any:
    cg = tf.linalg.experimental.conjugate_gradient
    out: dict[str, Any] = {}
    for dt in (tf.float32, tf.float64):
        op = tf.linalg.LinearOperatorFullMatrix(tf.constant(A, dt), is_self_adjoint=True, is_positive_definite=True)
        rhs = tf.constant([1.0, -2.0, 0.5], dt)
        out[f"plain {dt.name}"] = attempt(lambda: cg(op, rhs))
        out[f"max_iter 1 {dt.name}"] = attempt(lambda: cg(op, rhs, max_iter=1))
        out[f"tol {dt.name}"] = attempt(lambda: cg(op, rhs, tol=0.5))
        out[f"x0 {dt.name}"] = attempt(lambda: cg(op, rhs, x=tf.constant([0.1, 0.2, 0.3], dt)))
        pre = tf.linalg.LinearOperatorDiag(tf.constant([0.25, 1.0 / 3.0, 0.5], dt), is_self_adjoint=True,
                                           is_positive_definite=True)
        out[f"preconditioned {dt.name}"] = attempt(lambda: cg(op, rhs, preconditioner=pre))
        out[f"batch rhs {dt.name}"] = attempt(lambda: cg(op, tf.constant([[1.0, -2.0, 0.5], [0.0, 1.0, 1.0]], dt)))
    batch = tf.linalg.LinearOperatorFullMatrix(tf.constant([B, [[3.0, 1.0], [1.0, 2.0]]]), is_self_adjoint=True,
                                               is_positive_definite=True)
    out["batch operator"] = attempt(lambda: cg(batch, tf.constant([1.0, 1.0])))
    out["diag operator"] = attempt(lambda: cg(tf.linalg.LinearOperatorDiag(
        tf.constant([2.0, 4.0]), is_positive_definite=True), tf.constant([1.0, 1.0])))
    out["not hinted"] = attempt(lambda: cg(tf.linalg.LinearOperatorFullMatrix(tf.constant(B)), tf.constant([1.0, 1.0])))
    out["in a function"] = attempt(lambda: tf.function(lambda r: cg(tf.linalg.LinearOperatorFullMatrix(
        tf.constant(A), is_self_adjoint=True, is_positive_definite=True), r).x)(tf.constant([1.0, 2.0, 3.0])))
    return out


def dispatch(tf: Any) -> Any:
    op = tf.linalg.LinearOperatorFullMatrix(tf.constant(B), is_self_adjoint=True, is_positive_definite=True)
    ns = tf.linalg.LinearOperatorFullMatrix(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    t = tf.constant([[1.0, 2.0], [3.0, -1.0]])
    out: dict[str, Any] = {}
    out["matmul op t"] = attempt(lambda: tf.matmul(op, t))
    out["matmul t op"] = attempt(lambda: tf.matmul(t, ns))
    out["linalg.matmul adjoint_a"] = attempt(lambda: tf.linalg.matmul(ns, t, adjoint_a=True))
    out["matmul adjoint_b"] = attempt(lambda: tf.matmul(ns, t, adjoint_b=True))
    out["matmul t op adjoint"] = attempt(lambda: tf.matmul(t, ns, adjoint_a=True, adjoint_b=True))
    out["matmul transpose"] = attempt(lambda: tf.matmul(op, t, transpose_a=True))
    out["matmul sparse"] = attempt(lambda: tf.matmul(op, t, a_is_sparse=True))
    out["matmul op op"] = attempt(lambda: tf.matmul(op, ns))
    out["matmul keyword"] = attempt(lambda: tf.matmul(a=ns, b=t))
    out["matvec"] = attempt(lambda: tf.linalg.matvec(ns, tf.constant([1.0, -1.0])))
    out["matvec adjoint"] = attempt(lambda: tf.linalg.matvec(ns, tf.constant([1.0, -1.0]), adjoint_a=True))
    out["adjoint"] = attempt(lambda: tf.linalg.adjoint(ns))
    out["adjoint self-adjoint"] = attempt(lambda: tf.linalg.adjoint(op))
    out["cholesky"] = attempt(lambda: tf.linalg.cholesky(op))
    out["diag_part"] = attempt(lambda: tf.linalg.diag_part(ns))
    out["det"] = attempt(lambda: tf.linalg.det(ns))
    out["inv"] = attempt(lambda: tf.linalg.inv(ns))
    out["inv adjoint"] = attempt(lambda: tf.linalg.inv(ns, adjoint=True))
    out["logdet"] = attempt(lambda: tf.linalg.logdet(op))
    out["logdet not hinted"] = attempt(lambda: tf.linalg.logdet(ns))
    out["solve"] = attempt(lambda: tf.linalg.solve(ns, t))
    out["solve adjoint"] = attempt(lambda: tf.linalg.solve(ns, t, adjoint=True))
    out["solve t op"] = attempt(lambda: tf.linalg.solve(t, ns))
    out["trace"] = attempt(lambda: tf.linalg.trace(ns))
    out["tensors unchanged"] = [attempt(lambda: tf.matmul(t, t)), attempt(lambda: tf.linalg.det(t)),
                                attempt(lambda: tf.linalg.trace(t)), attempt(lambda: tf.linalg.adjoint(t))]
    out["same function"] = tf.matmul is tf.linalg.matmul
    return out


PROGRAMS: dict[str, Callable[[Any], Any]] = {"conjugate-gradient": conjugate_gradient, "dispatch": dispatch}
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in PROGRAMS}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return PROGRAMS[case["name"]](tf)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _same(got: Any, want: Any, where: str) -> None:
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), f"{where}: simdist {got!r}, TF 2.21 {want!r}"
        for k in want:
            _same(got[k], want[k], f"{where}/{k}")
    elif isinstance(want, list) and len(want) == 3 and want[0] == "tensor":
        assert isinstance(got, list) and got[:2] == want[:2], f"{where}: simdist {got!r}, TF 2.21 {want!r}"
        if want[1].startswith("int"):
            assert got[2] == want[2], f"{where}: simdist gives {got[2]}, TF 2.21 gives {want[2]}"
        else:
            tf_programs.close(got[2], want[2], where, rtol=1e-5, atol=1e-6)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: simdist {got!r}, TF 2.21 {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    else:
        assert got == want, f"{where}: simdist gives {got!r}, TF 2.21 gives {want!r}"


@pytest.mark.clause("ops.linalg-more")
@pytest.mark.parametrize("index", range(len(PROGRAMS)), ids=list(PROGRAMS))
def test_linalg_dispatch_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    _same(got, want, name)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
