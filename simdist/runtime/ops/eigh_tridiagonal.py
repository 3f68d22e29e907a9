"""`tf.linalg.eigh_tridiagonal`: TF 2.21's Python implementation (linalg_impl.py) over simdist's
ops, step for step (clause ops.linalg-eigh-tridiagonal).

Eigenvalues by bisection on Sturm counts: the Gershgorin interval [min(α − r), max(α + r)]
(r the rows' off-diagonal |β| sums) widened by n·2.1·eps·‖T‖ and 2.1·pivmin, then at most
nmant + 1 halvings of every target's [lower, upper] (midpoint 0.5·lower + 0.5·upper) until the
widest is within eps·‖T‖ (or `tol`); the Sturm recurrence q_i = α_i − β²_{i−1}/q_{i−1} − x with
pivots clamped to −pivmin, α₀ == x perturbed by (eps·|β₀|)². select 'a' (all), 'i' (indices
select_range[0] … [1]) or 'v' (the eigenvalues in (select_range[0], select_range[1]]).
Eigenvectors (eigvals_only=False) by inverse iteration from stateless_random_normal((k, n),
seed=[7, 42]) rows: tridiagonal_solve with partial pivoting and perturb_singular, normalized, and
the rows of eigenvalues closer than sqrt(eps)·‖T‖ re-orthogonalized by QR, until no norm grows
by 10 % or 5 iterations. Complex α: its real part; complex β: |β|² = Re(conj(β)·β). n ≤ 1: real(α).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import array, complex_math, control_flow, dispatch, math, reductions, unary
from simdist.runtime.ops.args import t as _t
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["eigh_tridiagonal"]


def _sturm(alpha: Tensor, beta_sq: Tensor, pivmin: Tensor, alpha0_perturbation: Tensor, x: Tensor) -> Tensor:
    """The number of eigenvalues below each x (TF's _sturm, its 16-step unrolled loop)."""
    n = int(alpha.shape[0])
    zeros = array.zeros(array.shape(x), dtype=dtypes.int32)
    ones = array.ones(array.shape(x), dtype=dtypes.int32)

    def step0() -> tuple[Tensor, Tensor]:
        q = alpha[0] - x
        count = math.where(q < 0, ones, zeros)
        q = math.where(math.equal(alpha[0], x), alpha0_perturbation, q)
        return q, count

    def step(i: Any, q: Tensor, count: Tensor) -> tuple[Tensor, Tensor]:
        q = alpha[i] - beta_sq[i - 1] / q - x
        count = math.where(q <= pivmin, count + 1, count)
        q = math.where(q <= pivmin, math.minimum(q, -pivmin), q)
        return q, count

    q, count = step0()
    blocksize = 16
    peel = (n - 1) % blocksize
    unroll = [peel]

    def unrolled(start: Any, q: Tensor, count: Tensor) -> tuple:
        for j in range(unroll[0]):
            q, count = step(start + j, q, count)
        return start + unroll[0], q, count

    i, q, count = unrolled(1, q, count)
    unroll[0] = blocksize
    if i < n:     # (when no block remains TF's loop never runs; simdist's trace would run its body's slices)
        _, _, count = control_flow.while_loop(lambda i, q, c: math.less(i, n), unrolled, [i, q, count],
                                              back_prop=False)
    return count


def _empty_range(message: str, sym: str, select_range: Any, np_dtype: Any) -> errors.InvalidArgumentError:
    """TF's check_ops.assert_less_equal (select 'i') / assert_less (select 'v') of select_range's ends failing: eagerly
    its message and _make_assert_msg_data ("Condition x <= y did not hold.", "First 1 elements of x:", "[2]", ...;
    TF 2.21, observed; amut39). In a tf.function TF's graph form names the assert's tensors, which simdist does not
    model: the message alone there."""
    from simdist.runtime import assert_messages, context
    if context.in_function():
        return errors.InvalidArgumentError(None, None, message)
    x, y = (convert_to_tensor(np.asarray(v, np_dtype)) for v in select_range[:2])
    data = assert_messages.eager_binary_data(sym, x, y, None, 3)
    return errors.InvalidArgumentError(None, None, assert_messages.eager_message(message, data, 3))


def _eigenvalues(alpha: Tensor, beta: Tensor, select: str, select_range: Any, tol: Any) -> Tensor:
    n = int(alpha.shape[0])
    if alpha.dtype.is_complex:
        alpha = complex_math.real(alpha)
        beta_sq = complex_math.real(complex_math.conj(beta) * beta)
        beta_abs = unary.sqrt(beta_sq)
    else:
        beta_sq = unary.square(beta)
        beta_abs = unary.abs_(beta)
    finfo = np.finfo(alpha.dtype._np)
    off = array.concat([beta_abs[:1], beta_abs[:-1] + beta_abs[1:], beta_abs[-1:]], axis=0)
    est_max = math.minimum(finfo.max, math.reduce_max(alpha + off))
    est_min = math.maximum(finfo.min, math.reduce_min(alpha - off))
    t_norm = math.maximum(unary.abs_(est_min), unary.abs_(est_max))
    one = np.ones([], dtype=alpha.dtype._np)
    safemin = np.maximum(one / finfo.max, (one + finfo.eps) * finfo.tiny)
    pivmin = safemin * math.maximum(one, math.reduce_max(beta_sq))
    alpha0_perturbation = unary.square(finfo.eps * beta_abs[0])
    abs_tol = finfo.eps * t_norm
    if tol:
        abs_tol = math.maximum(tol, abs_tol)
    max_it = finfo.nmant + 1
    if select == "a":
        target_counts = array.range_(n)
    elif select == "i":
        if select_range[0] > select_range[1]:
            raise _empty_range("Got empty index range in select_range.", "<=", select_range, np.int32)
        target_counts = array.range_(select_range[0], select_range[1] + 1)
    elif select == "v":
        if not select_range[0] < select_range[1]:
            raise _empty_range("Got empty interval in select_range.", "<", select_range, alpha.dtype.real_dtype._np)
    else:
        raise ValueError("'select must have a value in {'a', 'i', 'v'}.")
    fudge = 2.1
    norm_slack = math.cast(n, alpha.dtype) * fudge * finfo.eps * t_norm
    if select in {"a", "i"}:
        lower = est_min - norm_slack - 2 * fudge * pivmin
        upper = est_max + norm_slack + fudge * pivmin
    else:
        lower = select_range[0] - norm_slack - 2 * fudge * pivmin
        upper = select_range[1] + norm_slack + fudge * pivmin
        first = _sturm(alpha, beta_sq, pivmin, alpha0_perturbation, lower)
        last = _sturm(alpha, beta_sq, pivmin, alpha0_perturbation, upper)
        target_counts = array.range_(first, last)
    upper = math.minimum(upper, finfo.max)
    lower = math.maximum(lower, finfo.min)
    target_shape = array.shape(target_counts)
    lower = array.broadcast_to(lower, shape=target_shape)
    upper = array.broadcast_to(upper, shape=target_shape)
    pivmin = array.broadcast_to(pivmin, target_shape)
    alpha0_perturbation = array.broadcast_to(alpha0_perturbation, target_shape)

    def midpoint(lo: Tensor, hi: Tensor) -> Tensor:
        return (0.5 * lo) + (0.5 * hi)

    def keep_going(i: Any, lo: Tensor, hi: Tensor) -> Tensor:
        return math.logical_and(math.less(i, max_it), math.less(abs_tol, math.reduce_max(hi - lo)))

    def halve(i: Any, lo: Tensor, hi: Tensor) -> tuple:
        mid = midpoint(lo, hi)
        counts = _sturm(alpha, beta_sq, pivmin, alpha0_perturbation, mid)
        lo = math.where(counts <= target_counts, mid, lo)
        hi = math.where(counts > target_counts, mid, hi)
        return i + 1, lo, hi

    _, lower, upper = control_flow.while_loop(keep_going, halve, [0, lower, upper])
    return midpoint(lower, upper)


def _eigenvectors(alpha: Tensor, beta: Tensor, eigvals: Tensor) -> Tensor:
    from simdist.runtime.ops.linalg import norm
    from simdist.runtime.ops.linalg_more import qr
    from simdist.runtime.ops.random import stateless_normal
    from simdist.runtime.ops.scatter import tensor_scatter_nd_update
    from simdist.runtime.ops.slicing import tile
    from simdist.runtime.ops.tridiagonal_solve import tridiagonal_solve
    k = array.size(eigvals)
    n = array.size(alpha)
    alpha = math.cast(alpha, dtype=beta.dtype)
    gap = eigvals[1:] - eigvals[:-1]
    eps = np.finfo(eigvals.dtype._np).eps
    t_norm = math.maximum(unary.abs_(eigvals[0]), unary.abs_(eigvals[-1]))
    gaptol = np.sqrt(eps) * t_norm
    close = math.less(gap, gaptol)
    left_close = array.concat([[False], close], axis=0)
    right_close = array.concat([close, [False]], axis=0)
    starts = array.squeeze(math.where(math.logical_and(math.logical_not(left_close), right_close)), axis=-1)
    ends = array.squeeze(math.where(math.logical_and(left_close, math.logical_not(right_close))), axis=-1) + 1
    num_clusters = array.size(ends)
    v0 = math.cast(stateless_normal(shape=(int(k), int(n)), seed=[7, 42]), dtype=beta.dtype)
    nrm_v = norm(v0, axis=1)
    v0 = v0 / nrm_v[:, None]
    zero_nrm = convert_to_tensor(np.zeros(nrm_v.shape.as_list(), nrm_v.dtype._np))
    eigvals_cast = math.cast(eigvals, dtype=beta.dtype)
    alpha_shifted = alpha[None, :] - eigvals_cast[:, None]
    beta = tile(beta[None, :], [k, 1])
    diags = [beta, alpha_shifted, complex_math.conj(beta)]

    def orthogonalize(vectors: Tensor) -> Tensor:
        def cluster(idx: Any, ev: Tensor) -> tuple:
            start, end = starts[idx], ends[idx]
            update_indices = array.expand_dims(array.range_(start, end), -1)
            q, _ = qr(array.transpose(ev[start:end, :]))
            return idx + 1, tensor_scatter_nd_update(ev, update_indices, array.transpose(q))
        if int(dispatch.static_value(num_clusters)) == 0:
            return vectors     # (TF's loop never runs; simdist's trace would run its body on no cluster)
        _, vectors = control_flow.while_loop(lambda i, ev: math.less(i, num_clusters), cluster, [0, vectors])
        return vectors

    def keep_going(i: Any, _: Any, nrm: Tensor, nrm_old: Tensor) -> Tensor:
        growth = convert_to_tensor(np.array(1 + 0.1, nrm.dtype._np))
        return math.logical_and(math.less(i, 5), reductions.reduce_any(
            math.greater_equal(complex_math.real(nrm), complex_math.real(growth * nrm_old))))

    def step(i: Any, v: Tensor, nrm: Tensor, nrm_old: Tensor) -> tuple:
        v = tridiagonal_solve(diags, v, diagonals_format="sequence", partial_pivoting=True, perturb_singular=True)
        nrm_old = nrm
        nrm = norm(v, axis=1)
        v = v / nrm[:, None]
        return i + 1, orthogonalize(v), nrm, nrm_old

    _, v, _, _ = control_flow.while_loop(keep_going, step, [0, v0, nrm_v, zero_nrm])
    return array.transpose(v)


def eigh_tridiagonal(alpha: Any, beta: Any, eigvals_only: bool = True, select: str = "a", select_range: Any = None,
                     tol: Any = None, name: str | None = None) -> Any:
    """`tf.linalg.eigh_tridiagonal`: the eigenvalues (ascending) of the Hermitian tridiagonal
    matrix of diagonal α and off-diagonal β, and with eigvals_only=False its eigenvectors (columns)."""
    a = _t(alpha)
    from simdist.runtime.ops.static_shapes import static_shape
    n = static_shape(a)[0]    # (alpha.shape[0] as the traced graph knows it: None is TypeError below, as TF's)
    if n <= 1:
        return complex_math.real(a)
    b = _t(beta)
    if a.dtype != b.dtype:
        raise ValueError("'alpha' and 'beta' must have the same type.")
    eigvals = _eigenvalues(a, b, select, select_range, tol)
    if eigvals_only:
        return eigvals
    return eigvals, _eigenvectors(a, b, eigvals)
