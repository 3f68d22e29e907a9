"""tf.linalg functions given a LinearOperator, and tf.linalg.experimental.conjugate_gradient (names44, clause
ops.linalg-more).

TF 2.21's linear_operator.py registers overrides with `dispatch.dispatch_for_types(<fn>, LinearOperator)` so that an
operator can stand where a tensor is: tf.linalg.adjoint, cholesky, diag_part, det, inv, logdet, solve, trace, and
tf.matmul (= tf.linalg.matmul; tf.linalg.matvec reaches it through its own matmul call), taken when any argument
is a LinearOperator. Transcribed here as wrappers of simdist's functions. conjugate_gradient is transcribed from
tensorflow/python/ops/linalg/sparse/conjugate_gradient.py over simdist's public ops (its tf.while_loop included).
"""

from __future__ import annotations

import collections
import functools
from typing import Any, Callable

from simdist.tf._linear_operator import LinearOperator


def _tf() -> Any:
    from simdist import tf
    return tf


def _dispatching(fn: Callable, handler: Callable) -> Callable:
    """fn, or handler when an argument (positional or keyword) is a LinearOperator (dispatch_for_types)."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if any(isinstance(a, LinearOperator) for a in args) or any(
                isinstance(v, LinearOperator) for v in kwargs.values()):
            return handler(*args, **kwargs)
        return fn(*args, **kwargs)
    return wrapper


def _adjoint(matrix: Any, name: Any = None) -> Any:
    return matrix.adjoint(name)


def _cholesky(input: Any, name: Any = None) -> Any:  # noqa: A002 - TF's names
    return input.cholesky(name)


def _diag_part(input: Any, name: Any = "diag_part", k: Any = 0, padding_value: Any = 0,  # noqa: A002
               align: Any = "RIGHT_LEFT") -> Any:
    return input.diag_part(name)


def _det(input: Any, name: Any = None) -> Any:  # noqa: A002
    return input.determinant(name)


def _inverse(input: Any, adjoint: bool = False, name: Any = None) -> Any:  # noqa: A002
    inv = input.inverse(name)
    if adjoint:
        inv = inv.adjoint()
    return inv


def _logdet(matrix: Any, name: Any = None) -> Any:
    if matrix.is_positive_definite and matrix.is_self_adjoint:
        return matrix.log_abs_determinant(name)
    raise ValueError("Expected matrix to be self-adjoint positive definite.")


def _matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False, adjoint_a: bool = False,
            adjoint_b: bool = False, a_is_sparse: bool = False, b_is_sparse: bool = False, output_type: Any = None,
            grad_a: bool = False, grad_b: bool = False, name: Any = None) -> Any:
    if transpose_a or transpose_b:
        raise ValueError("Transposing not supported at this time.")
    if a_is_sparse or b_is_sparse:
        raise ValueError("Sparse methods not supported at this time.")
    if not isinstance(a, LinearOperator):
        # (B^H A^H)^H = AB
        adjoint_matmul = b.matmul(a, adjoint=(not adjoint_b), adjoint_arg=(not adjoint_a), name=name)
        return _tf().linalg.adjoint(adjoint_matmul)
    return a.matmul(b, adjoint=adjoint_a, adjoint_arg=adjoint_b, name=name)


def _matvec(a: Any, b: Any, transpose_a: bool = False, adjoint_a: bool = False, a_is_sparse: bool = False,
            b_is_sparse: bool = False, name: Any = None) -> Any:
    """math_ops.matvec: matmul(a, expand_dims(b, -1), ...) squeezed, its matmul the dispatching one."""
    tf = _tf()
    out = tf.linalg.matmul(a, tf.expand_dims(b, axis=-1), transpose_a=transpose_a, adjoint_a=adjoint_a,
                           a_is_sparse=a_is_sparse, b_is_sparse=b_is_sparse)
    return tf.squeeze(out, axis=-1)


def _solve(matrix: Any, rhs: Any, adjoint: bool = False, name: Any = None) -> Any:
    if not isinstance(matrix, LinearOperator):
        raise ValueError("Passing in `matrix` as a Tensor and `rhs` as a LinearOperator is not supported.")
    return matrix.solve(rhs, adjoint=adjoint, name=name)


def _trace(x: Any, name: Any = None) -> Any:
    return x.trace(name)


HANDLERS = {"adjoint": _adjoint, "cholesky": _cholesky, "diag_part": _diag_part, "det": _det, "inv": _inverse,
            "logdet": _logdet, "matmul": _matmul, "matvec": _matvec, "solve": _solve, "trace": _trace}


def dispatching(name: str, fn: Callable) -> Callable:
    return _dispatching(fn, HANDLERS[name])


def conjugate_gradient(operator: Any, rhs: Any, preconditioner: Any = None, x: Any = None, tol: Any = 1e-5,
                       max_iter: Any = 20, name: str = "conjugate_gradient") -> Any:
    """tf.linalg.experimental.conjugate_gradient (TF 2.21's conjugate_gradient.py): solves A x = rhs for a
    self-adjoint positive-definite operator by preconditioned CG, stopping after max_iter iterations or when
    every batch member's residual norm is at most tol · ||rhs||; returns the CGState(i, x, r, p, gamma)."""
    tf = _tf()
    if not (operator.is_self_adjoint and operator.is_positive_definite):
        raise ValueError("Expected a self-adjoint, positive definite operator.")

    cg_state = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])

    def stopping_criterion(i: Any, state: Any) -> Any:
        return tf.logical_and(i < max_iter, tf.reduce_any(tf.linalg.norm(state.r, axis=-1) > tol))

    def dot(x: Any, y: Any) -> Any:
        return tf.squeeze(tf.linalg.matvec(x[..., tf.newaxis], y, adjoint_a=True), axis=-1)

    def cg_step(i: Any, state: Any) -> Any:
        z = tf.linalg.matvec(operator, state.p)
        alpha = state.gamma / dot(state.p, z)
        x = state.x + alpha[..., tf.newaxis] * state.p
        r = state.r - alpha[..., tf.newaxis] * z
        q = r if preconditioner is None else preconditioner.matvec(r)
        gamma = dot(r, q)
        beta = gamma / state.gamma
        p = q + beta[..., tf.newaxis] * state.p
        return i + 1, cg_state(i + 1, x, r, p, gamma)

    broadcast_shape = tf.broadcast_dynamic_shape(tf.shape(rhs)[:-1], operator.batch_shape_tensor())
    if preconditioner is not None:
        broadcast_shape = tf.broadcast_dynamic_shape(broadcast_shape, preconditioner.batch_shape_tensor())
    broadcast_rhs_shape = tf.concat([broadcast_shape, [tf.shape(rhs)[-1]]], axis=-1)
    r0 = tf.broadcast_to(rhs, broadcast_rhs_shape)
    tol *= tf.linalg.norm(r0, axis=-1)
    if x is None:
        x = tf.zeros(broadcast_rhs_shape, dtype=rhs.dtype.base_dtype)
    else:
        r0 = rhs - tf.linalg.matvec(operator, x)
    p0 = r0 if preconditioner is None else tf.linalg.matvec(preconditioner, r0)
    gamma0 = dot(r0, p0)
    i = tf.constant(0, dtype=tf.int32)
    state = cg_state(i=i, x=x, r=r0, p=p0, gamma=gamma0)
    _, state = tf.while_loop(stopping_criterion, cg_step, [i, state])
    return cg_state(state.i, x=state.x, r=state.r, p=state.p, gamma=state.gamma)
