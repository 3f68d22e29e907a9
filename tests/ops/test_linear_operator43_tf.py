"""tf.linalg.LinearOperator's core classes against TF 2.21 (the forty-third session, clause ops.linalg-more):
LinearOperatorFullMatrix (square, self-adjoint positive definite, batched, rectangular), LinearOperatorDiag,
LinearOperatorLowerTriangular, and the Adjoint, Inversion and Composition operators their methods build:
shape / batch_shape / tensor_rank / domain and range dimensions, the is_* hints and their errors, to_dense,
determinant, log_abs_determinant, diag_part, trace, matmul / matvec / solve / solvevec with adjoint and
adjoint_arg, adjoint(), inverse(), cholesky(), add_to_tensor, eigvals, cond, operator-operator matmul and
solve, and a gradient through a variable matrix.

One program per operator family, the same on both backends, returning plain Python values (a tensor as
[dtype, shape, values]; a raised error as its class and message, TF's eager "{{function_node ...}}" prefix
and " name: " suffix removed, a class shown without its module); TF runs it in a worker process (live or from the golden). Floats compare
to rtol 1e-5, atol 1e-6; everything else exactly.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

A = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]]
B = [[[2.0, 1.0], [0.5, 3.0]], [[1.0, -1.0], [2.0, 5.0]]]
D = [2.0, -4.0, 0.5]
X = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
V = [1.0, -2.0, 3.0]


def attempt(f: Callable[[], Any]) -> Any:
    try:
        r = f()
        if hasattr(r, "numpy"):
            n = np.asarray(r.numpy())
            values = ([n.real.astype(np.float64).tolist(), n.imag.astype(np.float64).tolist()] if np.iscomplexobj(n)
                      else n.astype(np.float64).tolist())
            r = [r.dtype.name, r.shape.as_list(), values]
        elif isinstance(r, np.ndarray):   # (Zeros.add_to_tensor hands back its argument unconverted, as TF's)
            r = ["ndarray", r.dtype.name, r.tolist()]
        return ["ok", r]
    except Exception as e:  # noqa: BLE001 - the class and message are the observable
        msg = re.sub(r"^\{\{function_node [^}]*\}\} ", "", str(e))
        msg = re.sub(r"<class '[\w.]*\.(\w+)'>", r"<class \1>", msg)   # (the classes' modules differ)
        return ["error", type(e).__name__, re.sub(r" name: \S*$", "", msg)]


def desc(op: Any) -> list:
    return [type(op).__name__, op.name, op.shape.as_list(), op.batch_shape.as_list(), op.tensor_rank,
            str(op.domain_dimension), str(op.range_dimension), op.dtype.name, op.is_non_singular, op.is_self_adjoint,
            op.is_positive_definite, op.is_square]


def _methods(op: Any, a: Any, x: Any, v: Any, b: Any) -> dict:
    return {"desc": desc(op), "to_dense": attempt(op.to_dense), "determinant": attempt(op.determinant),
            "log_abs_determinant": attempt(op.log_abs_determinant), "diag_part": attempt(op.diag_part),
            "trace": attempt(op.trace), "matmul": attempt(lambda: op.matmul(x if op.shape[-1] == 3 else b)),
            "matmul adjoint": attempt(lambda: op.matmul(x, adjoint=True)),
            "matvec": attempt(lambda: op.matvec(v if op.shape[-1] == 3 else v[:2])),
            "matvec adjoint": attempt(lambda: op.matvec(v, adjoint=True)),
            "solve": attempt(lambda: op.solve(x)), "solve adjoint": attempt(lambda: op.solve(x, adjoint=True)),
            "solve adjoint_arg": attempt(lambda: op.solve(np.transpose(x), adjoint_arg=True)),
            "solvevec": attempt(lambda: op.solvevec(v)), "solvevec adjoint": attempt(lambda: op.solvevec(v, adjoint=True)),
            "adjoint": attempt(lambda: desc(op.adjoint())), "H.to_dense": attempt(lambda: op.H.to_dense()),
            "H.matmul": attempt(lambda: op.H.matmul(x)), "H.solve": attempt(lambda: op.H.solve(x)),
            "H.determinant": attempt(lambda: op.H.determinant()), "H.trace": attempt(lambda: op.H.trace()),
            "inverse": attempt(lambda: desc(op.inverse())), "inverse.matmul": attempt(lambda: op.inverse().matmul(x)),
            "inverse.solve": attempt(lambda: op.inverse().solve(x)),
            "inverse.determinant": attempt(lambda: op.inverse().determinant()),
            "inverse.log_abs_determinant": attempt(lambda: op.inverse().log_abs_determinant()),
            "inverse.inverse is op": attempt(lambda: op.inverse().inverse() is op),
            "cholesky": attempt(lambda: [type(op.cholesky()).__name__, attempt(op.cholesky().to_dense)]),
            "add_to_tensor": attempt(lambda: op.add_to_tensor(a)), "eigvals": attempt(op.eigvals),
            "cond": attempt(op.cond), "parameters": sorted(op.parameters)}


def full_matrix(tf: Any) -> Any:
    L = tf.linalg
    a, b, x, v = (np.asarray(t, np.float32) for t in (A, B, X, V))
    ops = {"square": L.LinearOperatorFullMatrix(a),
           "self-adjoint positive definite": L.LinearOperatorFullMatrix(a, is_self_adjoint=True,
                                                                        is_positive_definite=True),
           "batched": L.LinearOperatorFullMatrix(b), "rectangular": L.LinearOperatorFullMatrix(x),
           "float64": L.LinearOperatorFullMatrix(a.astype(np.float64), name="f64")}
    out: dict[str, Any] = {k: _methods(op, a if k != "float64" else a.astype(np.float64),
                                       x if k != "float64" else x.astype(np.float64),
                                       v if k != "float64" else v.astype(np.float64), b) for k, op in ops.items()}
    out["errors"] = {
        "incompatible operators": attempt(lambda: ops["square"].matmul(ops["batched"])),
        "a dimension": attempt(lambda: ops["square"].matmul(np.ones((2, 2), np.float32))),
        "a dtype": attempt(lambda: ops["square"].matmul(np.ones((3, 2), np.float64))),
        "an int matrix": attempt(lambda: L.LinearOperatorFullMatrix(np.ones((2, 2), np.int32))),
        "a vector": attempt(lambda: L.LinearOperatorFullMatrix(np.ones((2,), np.float32))),
        "pd but singular": attempt(lambda: desc(L.LinearOperatorFullMatrix(a, is_positive_definite=True,
                                                                           is_non_singular=False))),
        "non-singular rectangle": attempt(lambda: L.LinearOperatorFullMatrix(x, is_non_singular=True).is_square),
        "self-adjoint rectangle": attempt(lambda: L.LinearOperatorFullMatrix(x, is_self_adjoint=True, is_square=False)),
        "square told not": attempt(lambda: L.LinearOperatorFullMatrix(a, is_square=False).is_square),
        "singular solve": attempt(lambda: L.LinearOperatorFullMatrix(a, is_non_singular=False).solve(x)),
        "singular inverse": attempt(lambda: L.LinearOperatorFullMatrix(a, is_non_singular=False).inverse()),
        "Inversion of singular": attempt(lambda: L.LinearOperatorInversion(
            L.LinearOperatorFullMatrix(a, is_non_singular=False))),
        "Inversion of rectangle": attempt(lambda: L.LinearOperatorInversion(L.LinearOperatorFullMatrix(x),
                                                                            is_square=False)),
        "Adjoint contradicting": attempt(lambda: L.LinearOperatorAdjoint(L.LinearOperatorFullMatrix(a, is_square=True),
                                                                         is_square=False)),
        "Adjoint named": attempt(lambda: desc(L.LinearOperatorAdjoint(ops["square"], name="adj"))),
    }
    var = tf.Variable(a)
    with tf.GradientTape() as tape:
        y = (tf.reduce_sum(L.LinearOperatorFullMatrix(var).solve(x))
             + L.LinearOperatorLowerTriangular(var).log_abs_determinant()
             + tf.reduce_sum(L.LinearOperatorFullMatrix(var).matvec(v)))
    out["gradient through a variable"] = attempt(lambda: tape.gradient(y, var))
    return out


def diag_and_triangular(tf: Any) -> Any:
    L = tf.linalg
    a, b, d, x, v = (np.asarray(t, np.float32) for t in (A, B, D, X, V))
    ops = {"diag": L.LinearOperatorDiag(d), "batched diag": L.LinearOperatorDiag(np.stack([d, d[::-1]])),
           "positive diag": L.LinearOperatorDiag(np.abs(d), is_positive_definite=True),
           "tril": L.LinearOperatorLowerTriangular(a), "tril non-singular": L.LinearOperatorLowerTriangular(
               a, is_non_singular=True)}
    out: dict[str, Any] = {k: _methods(op, a, x, v, b) for k, op in ops.items()}
    out["errors"] = {
        "diag told not self-adjoint": attempt(lambda: L.LinearOperatorDiag(d, is_self_adjoint=False)),
        "diag told not square": attempt(lambda: L.LinearOperatorDiag(d, is_square=False)),
        "a scalar diag": attempt(lambda: L.LinearOperatorDiag(np.float32(2.0))),
        "tril told not square": attempt(lambda: L.LinearOperatorLowerTriangular(a, is_square=False)),
        "a vector tril": attempt(lambda: L.LinearOperatorLowerTriangular(d)),
        "an int diag": attempt(lambda: desc(L.LinearOperatorDiag(np.array([1, 2], np.int32)))),
        "int diag matmul": attempt(lambda: L.LinearOperatorDiag(np.array([1, 2], np.int32)).matvec(
            np.array([3, 4], np.int32))),
    }
    return out


def compositions(tf: Any) -> Any:
    L = tf.linalg
    a, d, x, v = (np.asarray(t, np.float32) for t in (A, D, X, V))
    full, diag, tril = L.LinearOperatorFullMatrix(a), L.LinearOperatorDiag(d), L.LinearOperatorLowerTriangular(a)
    out: dict[str, Any] = {
        "full @ diag": attempt(lambda: desc(full @ diag)), "full @ diag matmul": attempt(lambda: (full @ diag).matmul(x)),
        "full @ tril solve": attempt(lambda: (full @ tril).solve(x)),
        "full @ tril determinant": attempt(lambda: (full @ tril).determinant()),
        "full @ tril log_abs_determinant": attempt(lambda: (full @ tril).log_abs_determinant()),
        "full @ tril adjoint matmul": attempt(lambda: (full @ tril).matmul(x, adjoint=True)),
        "diag @ diag": attempt(lambda: [desc(diag.matmul(L.LinearOperatorDiag(v))),
                                        attempt(diag.matmul(L.LinearOperatorDiag(v)).to_dense)]),
        "diag @ tril": attempt(lambda: [desc(diag @ tril), attempt((diag @ tril).to_dense)]),
        "tril @ diag": attempt(lambda: [desc(tril @ diag), attempt((tril @ diag).to_dense)]),
        "diag solve diag": attempt(lambda: diag.solve(L.LinearOperatorDiag(v)).to_dense()),
        "diag solve tril": attempt(lambda: diag.solve(tril).to_dense()),
        "full solve diag": attempt(lambda: [desc(full.solve(diag)), attempt(full.solve(diag).to_dense)]),
        "inverse solve": attempt(lambda: [desc(full.inverse().solve(diag)), attempt(full.inverse().solve(diag).to_dense)]),
        "tril tril^H": attempt(lambda: desc(L.LinearOperatorComposition([tril, tril.H]))),
        "tril tril^H, non-singular": attempt(lambda: desc(L.LinearOperatorComposition(
            [L.LinearOperatorLowerTriangular(a, is_non_singular=True),
             L.LinearOperatorLowerTriangular(a, is_non_singular=True).H]))),
        "matmul adjoint operators": attempt(lambda: desc(full.matmul(tril, adjoint=True, adjoint_arg=True))),
        "three": attempt(lambda: [desc(L.LinearOperatorComposition([full, diag, tril], name="three")),
                                  attempt(lambda: L.LinearOperatorComposition([full, diag, tril]).solvevec(v))]),
        "empty": attempt(lambda: L.LinearOperatorComposition([])),
        "mixed dtypes": attempt(lambda: L.LinearOperatorComposition(
            [full, L.LinearOperatorFullMatrix(a.astype(np.float64))])),
        "told singular": attempt(lambda: L.LinearOperatorComposition(
            [L.LinearOperatorDiag(d, is_non_singular=True)], is_non_singular=False)),
        "incompatible": attempt(lambda: full.matmul(L.LinearOperatorFullMatrix(np.ones((2, 2), np.float32)))),
        "solve incompatible": attempt(lambda: full.solve(L.LinearOperatorFullMatrix(np.ones((2, 2), np.float32)))),
    }
    return out


def identities(tf: Any) -> Any:
    L = tf.linalg
    a, b, d, x, v = (np.asarray(t, np.float32) for t in (A, B, D, X, V))
    ops = {"identity": L.LinearOperatorIdentity(3), "batched identity": L.LinearOperatorIdentity(3, batch_shape=[2]),
           "float64 identity": L.LinearOperatorIdentity(3, dtype=tf.float64),
           "scaled": L.LinearOperatorScaledIdentity(3, 2.5),
           "batched scaled": L.LinearOperatorScaledIdentity(3, np.array([2.0, -0.5], np.float32)),
           "positive scaled": L.LinearOperatorScaledIdentity(3, 4.0, is_positive_definite=True)}
    out: dict[str, Any] = {}
    for k, op in ops.items():
        f64 = k.startswith("float64")
        cast = (lambda t: t.astype(np.float64)) if f64 else (lambda t: t)
        out[k] = _methods(op, cast(a), cast(x), cast(v), b)
    full, diag = L.LinearOperatorFullMatrix(a), L.LinearOperatorDiag(d)
    ident, scaled = ops["identity"], ops["scaled"]
    out["compositions"] = {
        "full @ identity is full": attempt(lambda: (full @ ident) is full),
        "identity @ full is full": attempt(lambda: (ident @ full) is full),
        "full solve identity": attempt(lambda: desc(full.solve(ident))),
        "identity solve full": attempt(lambda: (ident.solve(full)) is full),
        "scaled @ scaled": attempt(lambda: [desc(scaled @ L.LinearOperatorScaledIdentity(3, -2.0)),
                                            attempt((scaled @ L.LinearOperatorScaledIdentity(3, -2.0)).to_dense)]),
        "scaled @ diag": attempt(lambda: [desc(scaled @ diag), attempt((scaled @ diag).to_dense)]),
        "diag @ scaled": attempt(lambda: [desc(diag @ scaled), attempt((diag @ scaled).to_dense)]),
        "scaled solve diag": attempt(lambda: attempt(scaled.solve(diag).to_dense)),
        "diag solve scaled": attempt(lambda: attempt(diag.solve(scaled).to_dense)),
        "scaled solve scaled": attempt(lambda: attempt(scaled.solve(L.LinearOperatorScaledIdentity(3, 5.0)).to_dense)),
        "full @ scaled": attempt(lambda: [desc(full @ scaled), attempt((full @ scaled).to_dense)]),
        "batched identity matmul": attempt(lambda: ops["batched identity"].matmul(x)),
        "batched identity matmul batched": attempt(lambda: ops["batched identity"].matmul(np.stack([x, x]))),
    }
    out["errors"] = {
        "not self-adjoint": attempt(lambda: L.LinearOperatorIdentity(3, is_self_adjoint=False)),
        "not non-singular": attempt(lambda: L.LinearOperatorIdentity(3, is_non_singular=False)),
        "not positive definite": attempt(lambda: L.LinearOperatorIdentity(3, is_positive_definite=False)),
        "not square": attempt(lambda: L.LinearOperatorIdentity(3, is_square=False)),
        "float rows": attempt(lambda: L.LinearOperatorIdentity(3.0)),
        "negative rows": attempt(lambda: L.LinearOperatorIdentity(-1)),
        "a vector of rows": attempt(lambda: L.LinearOperatorIdentity([2])),
        "a matrix batch shape": attempt(lambda: L.LinearOperatorIdentity(3, batch_shape=[[2]])),
        "a negative batch shape": attempt(lambda: L.LinearOperatorIdentity(3, batch_shape=[-1])),
        "a float batch shape": attempt(lambda: L.LinearOperatorIdentity(3, batch_shape=[2.0])),
        "a variable num_rows": attempt(lambda: L.LinearOperatorIdentity(tf.Variable(3))),
        "scaled not square": attempt(lambda: L.LinearOperatorScaledIdentity(3, 2.0, is_square=False)),
        "scaled not self-adjoint": attempt(lambda: L.LinearOperatorScaledIdentity(3, 2.0, is_self_adjoint=False)),
        "scaled float rows": attempt(lambda: L.LinearOperatorScaledIdentity(2.0, 2.0)),
        "identity dtype mismatch": attempt(lambda: ident.matmul(x.astype(np.float64))),
        "scaled cond of zero": attempt(lambda: L.LinearOperatorScaledIdentity(2, np.array([0.0, 3.0], np.float32)).cond()),
    }
    return out


def permutation_and_householder(tf: Any) -> Any:
    L = tf.linalg
    a, b, x, v = (np.asarray(t, np.float32) for t in (A, B, X, V))
    ops = {"permutation": L.LinearOperatorPermutation(np.array([2, 0, 1], np.int32)),
           "self-adjoint permutation": L.LinearOperatorPermutation(np.array([1, 0, 2], np.int64), is_self_adjoint=True),
           "batched permutation": L.LinearOperatorPermutation(np.array([[2, 0, 1], [0, 2, 1]], np.int32)),
           "householder": L.LinearOperatorHouseholder(np.array([1.0, 2.0, 2.0], np.float32)),
           "batched householder": L.LinearOperatorHouseholder(np.array([[1.0, 2.0, 2.0], [0.0, 3.0, -4.0]], np.float32))}
    out: dict[str, Any] = {k: _methods(op, a, x, v, b) for k, op in ops.items()}
    zeros = {"zeros": L.LinearOperatorZeros(3), "batched zeros": L.LinearOperatorZeros(3, batch_shape=[2]),
             "rectangular zeros": L.LinearOperatorZeros(3, 2, is_square=False, is_self_adjoint=False),
             "float64 zeros": L.LinearOperatorZeros(3, dtype=tf.float64)}
    for k, op in zeros.items():
        f64 = k.startswith("float64")
        cast = (lambda t: t.astype(np.float64)) if f64 else (lambda t: t)
        out[k] = _methods(op, cast(a), cast(x), cast(v), b)
    full = L.LinearOperatorFullMatrix(a)
    out["zeros compositions"] = {
        "full @ zeros": attempt(lambda: (full @ zeros["zeros"]) is zeros["zeros"]),
        "zeros @ full": attempt(lambda: (zeros["zeros"] @ full) is zeros["zeros"]),
        "full @ rectangular zeros": attempt(lambda: full @ zeros["rectangular zeros"]),
        "zeros told non-singular": attempt(lambda: L.LinearOperatorZeros(3, is_non_singular=True)),
        "zeros told not self-adjoint": attempt(lambda: L.LinearOperatorZeros(3, is_self_adjoint=False)),
        "zeros told positive definite": attempt(lambda: L.LinearOperatorZeros(3, is_positive_definite=True)),
        "square zeros of 3 by 2": attempt(lambda: L.LinearOperatorZeros(3, 2)),
        "float columns": attempt(lambda: L.LinearOperatorZeros(3, 2.0, is_square=False)),
        "negative columns": attempt(lambda: L.LinearOperatorZeros(3, -2, is_square=False)),
        "rectangular matmul adjoint_arg": attempt(lambda: zeros["rectangular zeros"].matmul(np.ones((4, 2), np.float32),
                                                                                          adjoint_arg=True)),
    }
    out["float64 permutation"] = attempt(lambda: L.LinearOperatorPermutation([1, 2, 0], dtype=tf.float64).matmul(
        x.astype(np.float64)))
    out["errors"] = {
        "repeated": attempt(lambda: L.LinearOperatorPermutation(np.array([0, 0, 1], np.int32))),
        "a float perm": attempt(lambda: L.LinearOperatorPermutation(np.array([0.0, 1.0], np.float32))),
        "a scalar perm": attempt(lambda: L.LinearOperatorPermutation(np.int32(0))),
        "told singular": attempt(lambda: L.LinearOperatorPermutation([1, 0], is_non_singular=False)),
        "told not square": attempt(lambda: L.LinearOperatorPermutation([1, 0], is_square=False)),
        "householder not self-adjoint": attempt(lambda: L.LinearOperatorHouseholder(v, is_self_adjoint=False)),
        "householder positive definite": attempt(lambda: L.LinearOperatorHouseholder(v, is_positive_definite=True)),
        "householder not square": attempt(lambda: L.LinearOperatorHouseholder(v, is_square=False)),
        "householder scalar": attempt(lambda: L.LinearOperatorHouseholder(np.float32(1.0))),
        "householder inverse is itself": attempt(lambda: ops["householder"].inverse() is ops["householder"]),
        "householder @ permutation": attempt(lambda: [desc(ops["householder"] @ ops["permutation"]),
                                                     attempt(lambda: (ops["householder"] @ ops["permutation"]).matmul(x))]),
    }
    return out


def tridiagonal(tf: Any) -> Any:
    L = tf.linalg
    a, b, x, v = (np.asarray(t, np.float32) for t in (A, B, X, V))
    sup, diag, sub = [1.0, 0.5, 0.0], [4.0, 3.0, 2.0], [0.0, 1.0, 0.25]
    compact = np.array([sup, diag, sub], np.float32)
    dense = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.25, 2.0]], np.float32)
    ops = {"compact": L.LinearOperatorTridiag(compact), "matrix": L.LinearOperatorTridiag(dense, diagonals_format="matrix"),
           "sequence": L.LinearOperatorTridiag([np.array(d, np.float32) for d in (sup, diag, sub)],
                                               diagonals_format="sequence"),
           "batched compact": L.LinearOperatorTridiag(np.stack([compact, compact * 2.0])),
           "self-adjoint pd": L.LinearOperatorTridiag(np.array([[1.0, 1.0, 0.0], diag, [0.0, 1.0, 1.0]], np.float32),
                                                      is_self_adjoint=True, is_positive_definite=True)}
    out: dict[str, Any] = {k: _methods(op, a, x, v, b) for k, op in ops.items()}
    out["errors"] = {"a bad format": attempt(lambda: L.LinearOperatorTridiag(compact, diagonals_format="banded")),
                     "batched solve of a batch": attempt(lambda: ops["compact"].solve(np.stack([x, x * 2.0])))}
    return out


def kronecker(tf: Any) -> Any:
    L = tf.linalg
    a, b, d, v = (np.asarray(t, np.float32) for t in (A, B, D, V))
    two = np.array([[2.0, 1.0], [0.5, 3.0]], np.float32)
    x6 = np.arange(12, dtype=np.float32).reshape(6, 2) / 4.0
    v6 = np.arange(6, dtype=np.float32) - 2.5
    a6 = np.eye(6, dtype=np.float32) + 0.125
    ops = {"full x full": L.LinearOperatorKronecker([L.LinearOperatorFullMatrix(two), L.LinearOperatorFullMatrix(a)]),
           "diag x lower": L.LinearOperatorKronecker([L.LinearOperatorDiag(np.array([2.0, -1.0], np.float32)),
                                                       L.LinearOperatorLowerTriangular(a)]),
           "pd x pd": L.LinearOperatorKronecker([L.LinearOperatorFullMatrix(np.array([[2.0, 0.5], [0.5, 1.0]], np.float32),
                                                                             is_self_adjoint=True, is_positive_definite=True),
                                                  L.LinearOperatorFullMatrix(a, is_self_adjoint=True,
                                                                             is_positive_definite=True)])}
    out: dict[str, Any] = {k: _methods(op, a6, x6, v6, b) for k, op in ops.items()}
    for k, op in ops.items():
        out[k]["matmul of 6 rows"] = attempt(lambda: op.matmul(x6))
        out[k]["matmul adjoint_arg"] = attempt(lambda: op.matmul(np.transpose(x6), adjoint_arg=True))
        out[k]["matvec of 6"] = attempt(lambda: op.matvec(v6))
    out["errors"] = {"empty": attempt(lambda: L.LinearOperatorKronecker([])),
                     "mixed dtypes": attempt(lambda: L.LinearOperatorKronecker(
                         [L.LinearOperatorDiag(d), L.LinearOperatorDiag(d.astype(np.float64))])),
                     "told singular": attempt(lambda: L.LinearOperatorKronecker(
                         [L.LinearOperatorDiag(d, is_non_singular=True)], is_non_singular=False)),
                     "told not self-adjoint": attempt(lambda: L.LinearOperatorKronecker(
                         [L.LinearOperatorDiag(d)], is_self_adjoint=False)),
                     "named": attempt(lambda: desc(L.LinearOperatorKronecker([L.LinearOperatorDiag(d)], name="k"))),
                     "a rectangular factor": attempt(lambda: desc(L.LinearOperatorKronecker(
                         [L.LinearOperatorFullMatrix(np.ones((2, 3), np.float32)), L.LinearOperatorDiag(d)]))),
                     "rectangular matmul": attempt(lambda: L.LinearOperatorKronecker(
                         [L.LinearOperatorFullMatrix(np.ones((2, 3), np.float32)), L.LinearOperatorDiag(d)]).matmul(
                         np.ones((9, 2), np.float32)))}
    return out


def low_rank_update(tf: Any) -> Any:
    L = tf.linalg
    a, b, d, x, v = (np.asarray(t, np.float32) for t in (A, B, D, X, V))
    u = np.array([[1.0, 0.5], [0.0, 1.0], [2.0, -1.0]], np.float32)
    w = np.array([[0.5, 1.0], [1.0, 0.0], [-1.0, 2.0]], np.float32)
    pd = L.LinearOperatorFullMatrix(a, is_self_adjoint=True, is_positive_definite=True)
    ops = {"pd + UU^H": L.LinearOperatorLowRankUpdate(pd, u),
           "diag + UDU^H": L.LinearOperatorLowRankUpdate(L.LinearOperatorDiag(np.abs(d)), u,
                                                         diag_update=np.array([2.0, 0.5], np.float32)),
           "full + UDV^H": L.LinearOperatorLowRankUpdate(L.LinearOperatorFullMatrix(a), u,
                                                         diag_update=np.array([2.0, -0.5], np.float32), v=w),
           "pd + UDU^H, D positive": L.LinearOperatorLowRankUpdate(pd, u, diag_update=np.array([2.0, 0.5], np.float32),
                                                                   is_diag_update_positive=True)}
    out: dict[str, Any] = {k: _methods(op, a, x, v, b) for k, op in ops.items()}
    for k, op in ops.items():
        out[k]["parts"] = [type(op.diag_operator).__name__, op.is_diag_update_positive, op.v is op.u]
    out["errors"] = {
        "identity told not positive": attempt(lambda: L.LinearOperatorLowRankUpdate(pd, u, is_diag_update_positive=False)),
        "self-adjoint told not": attempt(lambda: L.LinearOperatorLowRankUpdate(L.LinearOperatorDiag(d), u,
                                                                               is_self_adjoint=False)),
        "pd told singular": attempt(lambda: L.LinearOperatorLowRankUpdate(pd, u, is_non_singular=False)),
        "u of the wrong rows": attempt(lambda: L.LinearOperatorLowRankUpdate(pd, np.ones((2, 2), np.float32))),
        "diag_update of the wrong rank": attempt(lambda: L.LinearOperatorLowRankUpdate(
            pd, u, diag_update=np.ones(3, np.float32))),
        "singular base solve": attempt(lambda: L.LinearOperatorLowRankUpdate(
            L.LinearOperatorFullMatrix(a, is_non_singular=False), u).solve(x)),
    }
    return out


def block_diag(tf: Any) -> Any:
    L = tf.linalg
    a, b, d, v = (np.asarray(t, np.float32) for t in (A, B, D, V))
    two = np.array([[2.0, 1.0], [0.5, 3.0]], np.float32)
    x5 = np.arange(10, dtype=np.float32).reshape(5, 2) / 4.0
    v5 = np.arange(5, dtype=np.float32) - 1.5
    a5 = np.eye(5, dtype=np.float32) + 0.25
    ops = {"full and diag": L.LinearOperatorBlockDiag([L.LinearOperatorFullMatrix(two), L.LinearOperatorDiag(d)]),
           "pd blocks": L.LinearOperatorBlockDiag([
               L.LinearOperatorFullMatrix(np.array([[2.0, 0.5], [0.5, 1.0]], np.float32), is_self_adjoint=True,
                                          is_positive_definite=True),
               L.LinearOperatorFullMatrix(a, is_self_adjoint=True, is_positive_definite=True)]),
           "tril and identity": L.LinearOperatorBlockDiag([L.LinearOperatorLowerTriangular(a),
                                                           L.LinearOperatorIdentity(2)])}
    out: dict[str, Any] = {k: _methods(op, a5, x5, v5, b) for k, op in ops.items()}
    fd = ops["full and diag"]
    for k, op in ops.items():
        out[k]["matmul of 5 rows"] = attempt(lambda: op.matmul(x5))
        out[k]["solvevec of 5"] = attempt(lambda: op.solvevec(v5))
    out["blockwise"] = {
        "matmul of blocks": attempt(lambda: [attempt(lambda: t) for t in fd.matmul([x5[:2], x5[2:]])]),
        "matvec of blocks": attempt(lambda: [attempt(lambda: t) for t in fd.matvec([v5[:2], v5[2:]])]),
        "solve of blocks": attempt(lambda: [attempt(lambda: t) for t in fd.solve([x5[:2], x5[2:]])]),
        "solvevec of blocks": attempt(lambda: [attempt(lambda: t) for t in fd.solvevec([v5[:2], v5[2:]])]),
        "blocks of wrong sizes": attempt(lambda: fd.matmul([x5[:3], x5[3:]])),
        "block @ block": attempt(lambda: [desc(fd @ fd), attempt((fd @ fd).to_dense)]),
        "block solve block": attempt(lambda: attempt(fd.solve(fd).to_dense)),
        "block @ other count": attempt(lambda: fd @ L.LinearOperatorBlockDiag([L.LinearOperatorDiag(v5)])),
    }
    out["errors"] = {"empty": attempt(lambda: L.LinearOperatorBlockDiag([])),
                     "mixed dtypes": attempt(lambda: L.LinearOperatorBlockDiag(
                         [L.LinearOperatorDiag(d), L.LinearOperatorDiag(d.astype(np.float64))])),
                     "told singular": attempt(lambda: L.LinearOperatorBlockDiag(
                         [L.LinearOperatorDiag(d, is_non_singular=True)], is_non_singular=False)),
                     "told not self-adjoint": attempt(lambda: L.LinearOperatorBlockDiag([L.LinearOperatorDiag(d)],
                                                                                        is_self_adjoint=False)),
                     "named": attempt(lambda: desc(L.LinearOperatorBlockDiag([L.LinearOperatorDiag(d)], name="bd")))}
    return out


def circulant_and_toeplitz(tf: Any) -> Any:
    L = tf.linalg
    a, b, x, v = (np.asarray(t, np.float32) for t in (A, B, X, V))
    # the real part of the DFT of the kernel [3, 1, 0.5] (a real, Hermitian spectrum), exact in float32
    spectrum = np.array([4.5, 2.25, 2.25], np.float32)
    x4 = np.arange(8, dtype=np.float32).reshape(4, 2) / 4.0
    ops = {"circulant": L.LinearOperatorCirculant(spectrum, input_output_dtype=tf.float32),
           "complex circulant": L.LinearOperatorCirculant(np.array([4.0 + 1.0j, 2.0 - 1.0j, 1.0 + 0.5j], np.complex64)),
           "batched circulant": L.LinearOperatorCirculant(np.stack([spectrum, spectrum * 2.0]),
                                                          input_output_dtype=tf.float32),
           "toeplitz": L.LinearOperatorToeplitz(col=np.array([4.0, 2.0, 1.0], np.float32),
                                                row=np.array([4.0, -1.0, 0.5], np.float32)),
           "symmetric toeplitz": L.LinearOperatorToeplitz(col=np.array([4.0, 1.0, 0.5], np.float32),
                                                          row=np.array([4.0, 1.0, 0.5], np.float32),
                                                          is_self_adjoint=True, is_positive_definite=True)}
    out: dict[str, Any] = {}
    for k, op in ops.items():
        c = k == "complex circulant"
        cast = (lambda t: t.astype(np.complex64)) if c else (lambda t: t)
        out[k] = _methods(op, cast(a), cast(x), cast(v), b)
        out[k]["convolution_kernel"] = attempt(lambda: op.convolution_kernel()) if hasattr(op, "convolution_kernel") else None
    c2 = L.LinearOperatorCirculant2D(np.array([[8.0, 2.0], [2.0, 0.5]], np.float32), input_output_dtype=tf.float32)
    c3 = L.LinearOperatorCirculant3D(np.ones((1, 2, 2), np.float32) * 3.0, input_output_dtype=tf.float32)
    out["2d"] = {"desc": desc(c2), "block_shape": c2.block_shape.as_list(), "to_dense": attempt(c2.to_dense),
                 "matmul": attempt(lambda: c2.matmul(x4)), "solve": attempt(lambda: c2.solve(x4)),
                 "determinant": attempt(c2.determinant), "trace": attempt(c2.trace), "diag_part": attempt(c2.diag_part),
                 "inverse": attempt(lambda: desc(c2.inverse())), "c2 @ c2": attempt(lambda: desc(c2 @ c2))}
    out["3d"] = {"desc": desc(c3), "block_shape": c3.block_shape.as_list(), "to_dense": attempt(c3.to_dense),
                 "matmul": attempt(lambda: c3.matmul(x4)), "log_abs_determinant": attempt(c3.log_abs_determinant)}
    circ = ops["circulant"]
    out["errors"] = {
        "real spectrum told not self-adjoint": attempt(lambda: L.LinearOperatorCirculant(spectrum, is_self_adjoint=False)),
        "told not square": attempt(lambda: L.LinearOperatorCirculant(spectrum, is_square=False)),
        "a scalar spectrum": attempt(lambda: L.LinearOperatorCirculant(np.float32(1.0))),
        "2d of a vector": attempt(lambda: L.LinearOperatorCirculant2D(spectrum)),
        "circulant @ circulant": attempt(lambda: [desc(circ @ circ), attempt((circ @ circ).to_dense)]),
        "circulant solve circulant": attempt(lambda: [desc(circ.solve(circ)), attempt(circ.solve(circ).to_dense)]),
        "circulant @ 2d": attempt(lambda: desc(circ @ L.LinearOperatorCirculant2D(np.ones((1, 3), np.float32)))),
        "toeplitz mismatched": attempt(lambda: L.LinearOperatorToeplitz(col=[1.0, 2.0], row=[1.0, 2.0, 3.0])),
        "toeplitz not square": attempt(lambda: L.LinearOperatorToeplitz(col=[1.0, 2.0], row=[1.0, 2.0],
                                                                        is_square=False)),
        "toeplitz scalar": attempt(lambda: L.LinearOperatorToeplitz(col=1.0, row=[1.0])),
    }
    return out


def set_diag_checks(tf: Any) -> Any:
    """tf.linalg.set_diag's kernel checks in MatrixSetDiagOp's order and texts (add_to_tensor of a batched
    diagonal reached the shape check, whose text simdist had made up)."""
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    ones = (lambda *s: np.ones(s, np.float32))
    S = tf.linalg.set_diag
    return {"a batch too many": attempt(lambda: S(x, ones(2, 3))), "too long": attempt(lambda: S(x, ones(4))),
            "a scalar diagonal": attempt(lambda: S(x, np.float32(1))),
            "two diagonals for three": attempt(lambda: S(x, ones(2, 3), k=(0, 2))),
            "three for two": attempt(lambda: S(x, ones(3, 3), k=(0, 1))),
            "k reversed": attempt(lambda: S(x, ones(3), k=(1, 0))), "upper out of bound": attempt(lambda: S(x, ones(3), k=(0, 5))),
            "lower out of bound": attempt(lambda: S(x, ones(3), k=-3)), "a band": attempt(lambda: S(x, ones(2, 3), k=(-1, 0))),
            "a band given one": attempt(lambda: S(x, ones(3), k=(-1, 1))),
            "a vector input": attempt(lambda: S(np.ones(3, np.float32), ones(3))),
            "superdiagonal": attempt(lambda: S(x, ones(3), k=1)),
            "batched input": attempt(lambda: S(np.stack([x, x]), ones(2, 3)))}


PROGRAMS: dict[str, Callable[[Any], Any]] = {"full-matrix": full_matrix, "diag-and-triangular": diag_and_triangular,
                                             "compositions": compositions, "identities": identities,
                                             "permutation-and-householder": permutation_and_householder,
                                             "tridiagonal": tridiagonal, "kronecker": kronecker,
                                             "low-rank-update": low_rank_update, "block-diag": block_diag,
                                             "circulant-and-toeplitz": circulant_and_toeplitz,
                                             "set-diag-checks": set_diag_checks}
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in PROGRAMS}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return PROGRAMS[case["name"]](tf)


# (the FFT-based circulant products carry float32 rounding of the transform: absolute 1e-5)
ATOL = {"circulant-and-toeplitz": 1e-5}


def _compare(got: Any, want: Any, where: str, bad: list) -> None:
    if isinstance(want, float) and isinstance(got, (float, int)) and not isinstance(got, bool):
        if not np.isclose(got, want, rtol=1e-5, atol=ATOL.get(where.split("/")[0], 1e-6), equal_nan=True):
            bad.append(f"{where}: simdist gives {got!r}, but TF 2.21 gives {want!r}")
    elif isinstance(want, dict) and isinstance(got, dict) and sorted(got) == sorted(want):
        for k in want:
            _compare(got[k], want[k], f"{where}/{k}", bad)
    elif isinstance(want, list) and isinstance(got, list) and len(got) == len(want):
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, f"{where}[{i}]", bad)
    elif got != want:
        bad.append(f"{where}: simdist gives {got!r}, but TF 2.21 gives {want!r}")


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("ops.linalg-more")
@pytest.mark.parametrize("index", range(len(PROGRAMS)), ids=list(PROGRAMS))
def test_linear_operators_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    bad: list[str] = []
    _compare(got, want, name, bad)
    assert not bad, "; ".join(bad[:12])


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
    os._exit(0)
