"""TF's fused GRU cell kernels (raw ops only): GRUBlockCell and GRUBlockCellGrad, as
tensorflow/core/kernels/rnn/gru_ops.cc and gru_ops.h compute them on the CPU (float32 only; clause ops.rnn-block).

Forward: r_u_bar = [x, h_prev] · w_ru + b_ru (the Eigen contraction of lstm_block.gemm); r = σ(r_u_bar[:, :C]),
u = σ(r_u_bar[:, C:]); c = tanh([x, h_prev·r] · w_c + b_c); h = u·(h_prev - c) + c. Backward:
d_c_bar = (d_h·(1 - u))·(1 - c·c), d_u_bar = d_h·(h_prev - c)·u·(1 - u), [d_x2, d_hr] = d_c_bar · w_cᵀ,
d_r_bar = (d_hr·h_prev·r)·(1 - r), [d_x1, d_h1] = [d_r_bar, d_u_bar] · w_ruᵀ, d_x = d_x1 + d_x2,
d_h_prev = (d_h1 + d_hr·r) + d_h·u; its outputs (d_x, d_h_prev, d_c_bar, [d_r_bar, d_u_bar]). Each product
and sum rounded, term for term in gru_ops.h's order. TF registers no gradient for either (a tape: LookupError).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import errors
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.lstm_block import _flops, _typed, gemm, sigmoid, tanh
from simdist.runtime.ops.registry import lanes, register

__all__ = ["GRU_BLOCK_CELL", "GRU_BLOCK_CELL_GRAD"]


def _bad(op: str, text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")


def _check_rank(op: str, a: np.ndarray, rank: int, name: str) -> None:
    if a.ndim != rank:
        raise _bad(op, f"Rank of {name} must be {rank}, got {a.ndim}")


def _check_dim(op: str, what: str, got: int, want: int) -> None:
    if got != want:
        raise _bad(op, f"{what}: {got} vs. {want}")


def _checks(op: str, x: np.ndarray, h_prev: np.ndarray, w_ru: np.ndarray, w_c: np.ndarray, b_ru: np.ndarray,
            b_c: np.ndarray) -> tuple[int, int, int]:
    """GRUCellBlockOp's / GRUBlockCellGradOp's shared checks, in order: (batch, input, cell)."""
    _check_rank(op, x, 2, "x")
    batch, n_in = x.shape
    _check_rank(op, h_prev, 2, "h_prev")
    _check_dim(op, "h_prev.dims(0) != batch_size", h_prev.shape[0], batch)
    cell = h_prev.shape[1]
    _check_rank(op, w_ru, 2, "w_ru_")
    _check_dim(op, "w_ru.dim_size(0) != input_size + cell_size", w_ru.shape[0], n_in + cell)
    _check_dim(op, "w_ru.dim_size(1) != cell_size * 2", w_ru.shape[1], cell * 2)
    _check_rank(op, w_c, 2, "w_c")
    _check_dim(op, "w_c.dim_size(0) != input_size + cell_size", w_c.shape[0], n_in + cell)
    _check_dim(op, "w_c.dim_size(1) != cell_size", w_c.shape[1], cell)
    _check_rank(op, b_ru, 1, "b_ru")
    _check_dim(op, "b_ru.dim_size(0) != cell_size * 2", b_ru.shape[0], cell * 2)
    _check_rank(op, b_c, 1, "b_c")
    _check_dim(op, "b_c.dim_size(0) != cell_size", b_c.shape[0], cell)
    return batch, n_in, cell


def _gru_block_cell(x: np.ndarray, h_prev: np.ndarray, w_ru: np.ndarray, w_c: np.ndarray, b_ru: np.ndarray,
                    b_c: np.ndarray) -> tuple[np.ndarray, ...]:
    """GRUCellBlockOp::Compute: (r, u, c, h)."""
    _, _, cell = _checks("GRUBlockCell", x, h_prev, w_ru, w_c, b_ru, b_c)
    with np.errstate(all="ignore"):
        r_u_bar = gemm(np.concatenate([x, h_prev], axis=1), w_ru) + b_ru[None, :]
        r = sigmoid(r_u_bar[:, :cell])
        u = sigmoid(r_u_bar[:, cell:])
        c = tanh(gemm(np.concatenate([x, h_prev * r], axis=1), w_c) + b_c[None, :])
        h = u * (h_prev - c) + c
    return r, u, c, h


def _gru_block_cell_grad(x: np.ndarray, h_prev: np.ndarray, w_ru: np.ndarray, w_c: np.ndarray, b_ru: np.ndarray,
                         b_c: np.ndarray, r: np.ndarray, u: np.ndarray, c: np.ndarray,
                         d_h: np.ndarray) -> tuple[np.ndarray, ...]:
    """GRUBlockCellGradOp::Compute: (d_x, d_h_prev, d_c_bar, d_r_bar_u_bar)."""
    op = "GRUBlockCellGrad"
    batch, n_in, cell = _checks(op, x, h_prev, w_ru, w_c, b_ru, b_c)
    for a, name, shown in ((r, "r", "r"), (u, "u", "u"), (c, "c", "w_c"), (d_h, "d_h", "d_h")):
        _check_rank(op, a, 2, shown)
        _check_dim(op, f"{name}.dims(0) != batch_size", a.shape[0], batch)
        _check_dim(op, f"{name}.dims(1) != cell_size", a.shape[1], cell)
    one = x.dtype.type(1)
    with np.errstate(all="ignore"):
        d_c_bar = (d_h * (one - u)) * (one - c * c)
        d_u_bar = d_h * (h_prev - c) * u * (one - u)
        comp2 = gemm(d_c_bar, np.ascontiguousarray(w_c.T))
        d_hr = comp2[:, n_in:]
        d_r_bar = (d_hr * h_prev * r) * (one - r)
        d_ru = np.concatenate([d_r_bar, d_u_bar], axis=1)
        comp1 = gemm(d_ru, np.ascontiguousarray(w_ru.T))
        d_x = (comp1 + comp2)[:, :n_in]
        d_h_prev = comp1[:, n_in:] + d_hr * r + d_h * u
    return d_x, d_h_prev, d_c_bar, d_ru


_WHY = lanes("a cell over the gates of one lane's batch: no stacked form written")


def _register(op: str, fn: Any, n_out: int) -> Any:
    d = register(op, fn, _typed(op, n_out, 0), _flops, num_outputs=n_out, kind="nn", fusion=_WHY,
                 none_grad_ok=tuple(range(n_out)))
    from simdist.runtime.ops import infer_ctx
    d.trace_shape = infer_ctx.trace_shape(op)
    no_tf_gradient(op)
    return d


GRU_BLOCK_CELL = _register("GRUBlockCell", _gru_block_cell, 4)
GRU_BLOCK_CELL_GRAD = _register("GRUBlockCellGrad", _gru_block_cell_grad, 4)
