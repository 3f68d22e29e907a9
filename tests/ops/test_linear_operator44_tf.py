"""tf.linalg.LinearOperatorBlockLowerTriangular against TF 2.21 (the forty-fourth session, helper names44, clause
ops.linalg-more; simdist/tf/_linear_operator.py).

Construction (the rows' block counts, dimensions, dtypes, the hints and their refusals), shape, to_dense, matmul /
matvec / solve / solvevec (adjoint, adjoint_arg, blockwise lists, batch broadcasting), determinant (the
positive-definite path too), log_abs_determinant, trace, diag_part, eigvals, the inverse's dense matrix and an
operator product. Each case one program, the same on both backends; an error is its class and message, an
operator its class name and dense matrix; numbers compared to rtol 1e-5 / atol 1e-6. TF runs it in a worker
process (live or from the golden).
"""

from __future__ import annotations

import re
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
        # (TF 2.21's dtype refusal formats a generator object: its address varies)
        # (and a tensor's class is each backend's own)
        text = re.sub(r" at 0x[0-9a-f]+", " at 0x", str(e).split("\n")[0])
        return ["error", type(e).__name__, re.sub(r"<class '[\w.]+'>", "<class X>", text)]


def plain(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if hasattr(v, "to_dense") and hasattr(v, "domain_dimension"):
        return ["operator", type(v).__name__, plain(v.to_dense())]
    if hasattr(v, "numpy") and hasattr(v, "dtype"):
        return ["tensor", v.dtype.name, np.asarray(v.numpy()).tolist()]
    if hasattr(v, "as_list"):
        return ["shape", v.as_list()]
    return v


def block_lower_triangular(tf: Any) -> Any:
    L = tf.linalg
    A = L.LinearOperatorFullMatrix(tf.constant([[2.0, 0.5], [1.0, 3.0]]))
    B = L.LinearOperatorFullMatrix(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    C = L.LinearOperatorFullMatrix(tf.constant([[0.5, -1.0, 2.0], [1.5, 0.25, -2.0], [1.0, 1.0, 1.0]]))
    D = L.LinearOperatorDiag(tf.constant([4.0, 5.0]))
    E = L.LinearOperatorLowerTriangular(tf.constant([[2.0, 0.0, 0.0], [1.0, 4.0, 0.0], [-1.0, 2.0, 3.0]]))
    F = L.LinearOperatorFullMatrix(tf.constant([[1.0, 0.0], [2.0, -1.0], [0.5, 0.5]]))
    op = L.LinearOperatorBlockLowerTriangular([[A], [B, D]])
    op3 = L.LinearOperatorBlockLowerTriangular([[D], [F, E], [tf.linalg.LinearOperatorFullMatrix(
        tf.constant([[1.0, 1.0], [0.0, 2.0]])), L.LinearOperatorFullMatrix(tf.constant([[1.0, 0.0, -1.0],
                                                                                        [2.0, 1.0, 0.0]])), A]])
    pd = L.LinearOperatorBlockLowerTriangular([[L.LinearOperatorDiag(tf.constant([2.0, 3.0]), is_positive_definite=True)],
                                              [B, L.LinearOperatorDiag(tf.constant([0.5, 4.0]),
                                                                       is_positive_definite=True)]])
    x = tf.constant([[1.0, -1.0], [2.0, 0.5], [3.0, 1.0], [4.0, -2.0]])
    v = tf.constant([1.0, 2.0, 3.0, 4.0])
    out: dict[str, Any] = {}
    out["dense"] = attempt(lambda: op.to_dense())
    out["props"] = [op.shape.as_list(), op.is_square, op.is_non_singular, op.is_self_adjoint, op.name,
                    op.dtype.name, len(op.operators), op.domain_dimension.value, op.batch_shape.as_list(),
                    pd.is_non_singular]
    out["dense 3"] = attempt(lambda: op3.to_dense())
    out["matmul"] = attempt(lambda: op.matmul(x))
    out["matmul adjoint"] = attempt(lambda: op.matmul(x, adjoint=True))
    out["matmul adjoint_arg"] = attempt(lambda: op.matmul(tf.transpose(x), adjoint_arg=True))
    out["matmul blockwise"] = attempt(lambda: op.matmul([x[:2], x[2:]]))
    out["matvec"] = attempt(lambda: op.matvec(v))
    out["matvec adjoint"] = attempt(lambda: op.matvec(v, adjoint=True))
    out["matvec blockwise"] = attempt(lambda: op.matvec([v[:2], v[2:]]))
    out["matvec 3"] = attempt(lambda: op3.matvec(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])))
    out["matmul bad dim"] = attempt(lambda: op.matmul(tf.ones([3, 2])))
    out["matmul bad dtype"] = attempt(lambda: op.matmul(tf.ones([4, 2], tf.float64)))
    out["solve"] = attempt(lambda: op.solve(x))
    out["solve adjoint"] = attempt(lambda: op.solve(x, adjoint=True))
    out["solve adjoint_arg"] = attempt(lambda: op.solve(tf.transpose(x), adjoint_arg=True))
    out["solve blockwise"] = attempt(lambda: op.solve([x[:2], x[2:]]))
    out["solvevec"] = attempt(lambda: op.solvevec(v))
    out["solvevec adjoint"] = attempt(lambda: op.solvevec(v, adjoint=True))
    out["solvevec 3"] = attempt(lambda: op3.solvevec(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]), adjoint=True))
    out["determinant"] = attempt(lambda: op.determinant())
    out["determinant pd"] = attempt(lambda: pd.determinant())
    out["log_abs_determinant"] = attempt(lambda: op3.log_abs_determinant())
    out["trace"] = attempt(lambda: op3.trace())
    out["diag_part"] = attempt(lambda: op3.diag_part())
    out["eigvals"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular(
        [[L.LinearOperatorDiag(tf.constant([2.0, 3.0]))], [B, L.LinearOperatorDiag(tf.constant([-1.0, 4.0]))]]).eigvals())
    out["inverse dense"] = attempt(lambda: op.inverse().to_dense())
    out["inverse 3 dense"] = attempt(lambda: op3.inverse().to_dense())
    out["inverse class"] = type(op.inverse()).__name__
    out["operator product"] = attempt(lambda: (op @ op).to_dense())
    out["batch"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular(
        [[L.LinearOperatorFullMatrix(tf.constant([[[1.0]], [[2.0]]]))],
         [L.LinearOperatorFullMatrix(tf.constant([[3.0]])), L.LinearOperatorDiag(tf.constant([5.0]))]]).matvec(
             tf.constant([1.0, 1.0])))
    out["batch shape"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular(
        [[L.LinearOperatorFullMatrix(tf.constant([[[1.0]], [[2.0]]]))],
         [L.LinearOperatorFullMatrix(tf.constant([[3.0]])), L.LinearOperatorDiag(tf.constant([5.0]))]]).shape)
    out["tf.linalg.matmul"] = attempt(lambda: tf.linalg.matvec(op, v))
    # construction refusals
    out["empty"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular([]))
    out["row length"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular([[A], [D]]))
    out["domain mismatch"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular([[A], [F, E]]))
    out["range mismatch"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular([[D], [B, E]]))
    out["dtype"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular(
        [[A], [L.LinearOperatorFullMatrix(tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64)), D]]))
    out["not square"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular([[A], [B, D]], is_square=False))
    out["non-square diagonal"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular([[F]]))
    out["singular hint"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular(
        [[L.LinearOperatorDiag(tf.constant([1.0]), is_non_singular=True)]], is_non_singular=False))
    out["singular diagonal"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular(
        [[L.LinearOperatorDiag(tf.constant([1.0]), is_non_singular=False)]], is_non_singular=True))
    out["singular solve"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular(
        [[L.LinearOperatorDiag(tf.constant([1.0]), is_non_singular=False)]]).solve(tf.ones([1, 1])))
    out["tensor rows"] = attempt(lambda: L.LinearOperatorBlockLowerTriangular(tf.ones([2, 2])))
    return out


PROGRAMS: dict[str, Callable[[Any], Any]] = {"block-lower-triangular": block_lower_triangular}
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
        tf_programs.close(got[2], want[2], where, rtol=1e-5, atol=1e-6)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: simdist {got!r}, TF 2.21 {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    else:
        assert got == want, f"{where}: simdist gives {got!r}, but TF 2.21 gives {want!r}"


@pytest.mark.clause("ops.linalg-more")
@pytest.mark.parametrize("index", range(len(PROGRAMS)), ids=list(PROGRAMS))
def test_block_lower_triangular_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    _same(tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index], name)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
