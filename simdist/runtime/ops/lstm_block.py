"""TF's fused LSTM kernels (raw ops only): LSTMBlockCell and LSTMBlockCellGrad (one step), BlockLSTM and
BlockLSTMV2 (a sequence) and BlockLSTMGrad/BlockLSTMGradV2, as tensorflow/core/kernels/rnn/lstm_ops.cc and
lstm_ops.h compute them on the CPU (clause ops.rnn-block).

One step: xh = [x, h_prev]; gates = xh · w (TensorBlasGemm: an Eigen contraction, each entry accumulated over k
in order with fused multiply-adds, observed bit for bit on TF 2.21), then + b; the gates' columns are i, c, f, o
(ICFO: LSTMBlockCell, BlockLSTM) or i, f, c, o (IFCO: BlockLSTMV2); i = σ(g_i [+ cs_prev·wci]),
ci = tanh(g_c), f = σ((g_f + forget_bias) [+ cs_prev·wcf]), cs = i·ci + f·cs_prev, clipped to ±cell_clip when
cell_clip > 0, co = tanh(cs), o = σ(g_o [+ cs·wco]), h = o·co. σ and tanh are Eigen's float32 functors
(packet_math.sigmoid, packet_tanh.tanh); each product and sum rounded (the wheel's Eigen has no FMA).
The backward step (LSTMBlockCellBprop / BlockLSTMBprop) is lstm_ops.h's, term for term in its order.

BlockLSTM runs the step for t < seq_len_max and zeroes cs and h from seq_len_max on (its i, f, o, ci and co
there are memory TF never writes: zeros here). BlockLSTMGrad walks t from seq_len_max - 1 down, adding the
carried cs and h gradients to each step's, accumulating w_grad (+= xhᵀ·dgates), b_grad and the peephole
gradients; x_grad from seq_len_max on is zero. TF's Python registers BlockLSTM's and BlockLSTMV2's gradient
(rnn_grad._block_lstm_grad: BlockLSTMGrad, the ICFO kernel, for both: so V2's gradient reads V2's IFCO gates
as ICFO, as TF does); none for the cells or the Grad ops (a tape through one: LookupError).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import RegisterGradient, lanes, register

__all__ = ["cell_forward", "cell_backward", "gemm", "sigmoid", "tanh"]

_LSTM_TYPES = "half, float"


def gemm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """TensorBlasGemm's a · b (an Eigen contraction): float32 accumulated over k in order with fused multiply-adds;
    float16 over k in order in half, each product and sum rounded to half (Eigen's scalar half kernel); both
    observed bit for bit on TF 2.21. Zeros for an empty k."""
    from simdist.runtime.ops.contraction_order import ordered_matmul
    if not a.shape[-1]:
        return np.zeros(a.shape[:-1] + b.shape[-1:], a.dtype)
    if a.dtype == np.float16:
        acc = np.zeros(a.shape[:-1] + b.shape[-1:], a.dtype)
        with np.errstate(all="ignore"):
            for j in range(a.shape[-1]):
                acc = acc + a[:, j, None] * b[None, j, :]
        return acc
    return ordered_matmul(a, b)


def sigmoid(a: np.ndarray) -> np.ndarray:
    """Eigen's scalar_logistic_op on a [batch, cell] block (packets by the block's flat index)."""
    from simdist.runtime.ops import packet_math
    return packet_math.sigmoid(np.ascontiguousarray(a))


def tanh(a: np.ndarray) -> np.ndarray:
    """Eigen's scalar_tanh_op (ptanh_float; float16 through float32)."""
    from simdist.runtime.ops import packet_tanh
    return packet_tanh.tanh(np.ascontiguousarray(a))


def col_sum(m: np.ndarray) -> np.ndarray:
    """Eigen's sum over axis 0 of a [batch, n] block: each column from 0, the rows added in order."""
    acc = np.zeros(m.shape[1:], m.dtype)
    for row in m:
        acc = acc + row
    return acc


def _offsets(layout: str, c: int) -> tuple[int, int]:
    """(the c gate's, the f gate's) column offsets: ICFO or IFCO (lstm_ops.h gate_c_offset, gate_f_offset)."""
    return (c, 2 * c) if layout == "ICFO" else (2 * c, c)


def cell_forward(x: np.ndarray, cs_prev: np.ndarray, h_prev: np.ndarray, w: np.ndarray, wci: np.ndarray,
                 wcf: np.ndarray, wco: np.ndarray, b: np.ndarray, forget_bias: float, cell_clip: float,
                 use_peephole: bool, layout: str) -> tuple[np.ndarray, ...]:
    """LSTMBlockCellFpropWithEigen: (i, cs, f, o, ci, co, h)."""
    t = x.dtype.type
    c = cs_prev.shape[1]
    oc, of = _offsets(layout, c)
    with np.errstate(all="ignore"):
        gates = gemm(np.concatenate([x, h_prev], axis=1), w) + b[None, :]
        g_i, g_c, g_f, g_o = gates[:, :c], gates[:, oc:oc + c], gates[:, of:of + c], gates[:, 3 * c:]
        i = sigmoid(g_i + cs_prev * wci[None, :] if use_peephole else g_i)
        ci = tanh(g_c)
        fb = g_f + t(np.float32(forget_bias))
        f = sigmoid(fb + cs_prev * wcf[None, :] if use_peephole else fb)
        cs = i * ci + f * cs_prev
        if np.float32(cell_clip) > 0:
            clip = t(np.float32(cell_clip))
            cs = np.minimum(np.maximum(cs, -clip), clip)
        co = tanh(cs)
        o = sigmoid(g_o + cs * wco[None, :] if use_peephole else g_o)
        h = o * co
    return i, cs, f, o, ci, co, h


def cell_backward(cs_prev: np.ndarray, wci: np.ndarray, wcf: np.ndarray, wco: np.ndarray, i: np.ndarray,
                  cs: np.ndarray, f: np.ndarray, o: np.ndarray, ci: np.ndarray, co: np.ndarray, cs_grad: np.ndarray,
                  h_grad: np.ndarray, use_peephole: bool, layout: str) -> tuple[np.ndarray, ...]:
    """The elementwise half of LSTMBlockCellBprop / BlockLSTMBprop: (dgates, cs_prev_grad, di, df, do)."""
    one = i.dtype.type(1)
    c = cs_prev.shape[1]
    oc, of = _offsets(layout, c)
    with np.errstate(all="ignore"):
        do = o * (one - o) * h_grad * co
        dcs = (one - co * co) * h_grad * o + cs_grad
        if use_peephole:
            dcs = dcs + do * wco[None, :]
        dci = (one - ci * ci) * dcs * i
        df = f * (one - f) * dcs * cs_prev
        di = i * (one - i) * dcs * ci
        dgates = np.empty((i.shape[0], 4 * c), i.dtype)
        dgates[:, :c], dgates[:, oc:oc + c], dgates[:, of:of + c], dgates[:, 3 * c:] = di, dci, df, do
        cs_prev_grad = dcs * f
        if use_peephole:
            cs_prev_grad = cs_prev_grad + di * wci[None, :] + df * wcf[None, :]
    return dgates, cs_prev_grad, di, df, do


def _bad(op: str, text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")


def _dims_equal(op: str, checks: list[tuple[str, int, int]]) -> None:
    for what, got, want in checks:
        if got != want:
            raise _bad(op, f"{what}: {got} vs. {want}")


def _dim(a: np.ndarray, k: int) -> int:
    """TensorShape::dim_size of a dimension the kernel reads before its rank checks (1 past the rank: TF
    reads on; simdist takes 1, and the rank check that follows refuses the tensor)."""
    return a.shape[k] if k < a.ndim else 1


def _cell_checks(op: str, x: np.ndarray, cs_prev: np.ndarray, h_prev: np.ndarray, w: np.ndarray,
                 b: np.ndarray) -> tuple[int, int, int]:
    batch, n_in, cell = _dim(x, 0), _dim(x, 1), _dim(cs_prev, 1)
    _dims_equal(op, [("cs_prev.dims(0) != batch_size", _dim(cs_prev, 0), batch),
                     ("cs_prev.dims(1) != cell_size", _dim(cs_prev, 1), cell),
                     ("h_prev.dims(0) != batch_size", _dim(h_prev, 0), batch),
                     ("h_prev.dims(1) != cell_size", _dim(h_prev, 1), cell),
                     ("w.dim_size(0) != input_size + cell_size", _dim(w, 0), n_in + cell),
                     ("w.dim_size(1) != cell_size * 4", _dim(w, 1), cell * 4),
                     ("b.dim_size(0) != cell_size * 4", _dim(b, 0), cell * 4)])
    return batch, n_in, cell


def _lstm_block_cell(x: np.ndarray, cs_prev: np.ndarray, h_prev: np.ndarray, w: np.ndarray, wci: np.ndarray,
                     wcf: np.ndarray, wco: np.ndarray, b: np.ndarray, forget_bias: float = 1.0,
                     cell_clip: float = 3.0, use_peephole: bool = False) -> tuple[np.ndarray, ...]:
    """The LSTMBlockCell kernel: LSTMBlockCellOp::Compute's dimension checks, then its rank checks, then a step."""
    op = "LSTMBlockCell"
    _cell_checks(op, x, cs_prev, h_prev, w, b)
    for a, name, rank in ((x, "x_tensor", 2), (cs_prev, "cs_prev_tensor", 2)):
        if a.ndim != rank:
            raise _bad(op, f"{name} must be rank {rank} but is rank {a.ndim}.")
    if not (cs_prev.shape[0] > 0 and cs_prev.shape[1] > 0):
        raise _bad(op, f"cs_prev_tensor is empty, has shape: ({cs_prev.shape[0]},{cs_prev.shape[1]}).")
    for a, name, rank in ((h_prev, "h_prev_tensor", 2), (w, "w_tensor", 2), (wci, "wci_tensor", 1),
                          (wcf, "wcf_tensor", 1), (wco, "wco_tensor", 1), (b, "b_tensor", 1)):
        if a.ndim != rank:
            raise _bad(op, f"{name} must be rank {rank} but is rank {a.ndim}.")
    return cell_forward(x, cs_prev, h_prev, w, wci, wcf, wco, b, forget_bias, cell_clip, use_peephole, "ICFO")


def _lstm_block_cell_grad(x: np.ndarray, cs_prev: np.ndarray, h_prev: np.ndarray, w: np.ndarray, wci: np.ndarray,
                          wcf: np.ndarray, wco: np.ndarray, b: np.ndarray, i: np.ndarray, cs: np.ndarray,
                          f: np.ndarray, o: np.ndarray, ci: np.ndarray, co: np.ndarray, cs_grad: np.ndarray,
                          h_grad: np.ndarray, use_peephole: bool = False) -> tuple[np.ndarray, ...]:
    """The LSTMBlockCellGrad kernel: (cs_prev_grad, dicfo, wci_grad, wcf_grad, wco_grad)."""
    op = "LSTMBlockCellGrad"
    batch, _, cell = _cell_checks(op, x, cs_prev, h_prev, w, b)
    checks = []
    for a, name in ((i, "i"), (cs, "cs"), (f, "f"), (o, "o"), (ci, "ci"), (co, "co")):
        checks.append((f"{name}.dim_size(0) != batch_size", _dim(a, 0), batch))
        checks.append((f"{'i' if name == 'f' else name}.dim_size(1) != cell_size", _dim(a, 1), cell))
    for a, name in ((cs_grad, "cs_grad_tensor"), (h_grad, "h_grad_tensor")):
        checks.append((f"{name}.dims(0) != batch_size", _dim(a, 0), batch))
        checks.append((f"{name}.dims(1) != cell_size", _dim(a, 1), cell))
    _dims_equal(op, checks)
    dgates, cs_prev_grad, di, df, do = cell_backward(cs_prev, wci, wcf, wco, i, cs, f, o, ci, co, cs_grad, h_grad,
                                                      use_peephole, "ICFO")
    z = [np.zeros(v.shape, x.dtype) for v in (wci, wcf, wco)]
    if use_peephole:
        with np.errstate(all="ignore"):
            z = [col_sum(di * cs_prev), col_sum(df * cs_prev), col_sum(do * cs)]
    return (cs_prev_grad, dgates, *z)


def _seq_len(op: str, seq_len_max: np.ndarray, timelen: int) -> int:
    n = int(seq_len_max)
    if not 0 <= n <= timelen:
        raise _bad(op, f"seq_len_max must be between 0 and {timelen} but is {n}")
    return n


def _block_lstm(layout: str) -> Any:
    op = "BlockLSTM" if layout == "ICFO" else "BlockLSTMV2"

    def kernel(seq_len_max: np.ndarray, x: np.ndarray, cs_prev: np.ndarray, h_prev: np.ndarray, w: np.ndarray,
               wci: np.ndarray, wcf: np.ndarray, wco: np.ndarray, b: np.ndarray, forget_bias: float = 0.0,
               cell_clip: float = 3.0, use_peephole: bool = False) -> tuple[np.ndarray, ...]:
        """BlockLSTMOp::Compute: its checks in order, then the steps t < seq_len_max."""
        if seq_len_max.ndim:
            raise _bad(op, f"`seq_len_max_tensor` must be rank 0 but is rank {seq_len_max.ndim}")
        if x.ndim != 3:
            raise _bad(op, "x must be 3D")
        timelen, batch, n_in = x.shape
        if cs_prev.ndim != 2:
            raise _bad(op, "cs_prev must be 2D")
        cell = cs_prev.shape[1]
        _dims_equal(op, [("cs_prev.dims(0) != batch_size", cs_prev.shape[0], batch)])
        if h_prev.ndim != 2:
            raise _bad(op, "h_prev must be 2D")
        _dims_equal(op, [("h_prev.dims(0) != batch_size", h_prev.shape[0], batch),
                         ("h_prev.dims(1) != cell_size", h_prev.shape[1], cell)])
        if w.ndim != 2:
            raise _bad(op, "w must be 2D")
        _dims_equal(op, [("w.dim_size(0) != input_size + cell_size", w.shape[0], n_in + cell),
                         ("w.dim_size(1) != cell_size * 4", w.shape[1], cell * 4)])
        for a, name in ((wci, "wci"), (wcf, "wcf"), (wco, "wco")):
            if a.ndim != 1:
                raise _bad(op, f"{name} must be 1D")
            _dims_equal(op, [(f"{name}.dim_size(0) != cell_size", a.shape[0], cell)])
        if b.ndim != 1:
            raise _bad(op, "b must be 1D")
        _dims_equal(op, [("b.dim_size(0) != cell_size * 4", b.shape[0], cell * 4)])
        n = _seq_len(op, seq_len_max, timelen)
        outs = [np.zeros((timelen, batch, cell), x.dtype) for _ in range(7)]
        cs_t, h_t = cs_prev, h_prev
        for t in range(n):
            step = cell_forward(x[t], cs_t, h_t, w, wci, wcf, wco, b, forget_bias, cell_clip, use_peephole, layout)
            for out, v in zip(outs, step):
                out[t] = v
            cs_t, h_t = step[1], step[6]
        return tuple(outs)
    return kernel


def _block_lstm_grad(layout: str) -> Any:
    op = "BlockLSTMGrad" if layout == "ICFO" else "BlockLSTMGradV2"

    def kernel(seq_len_max: np.ndarray, x: np.ndarray, cs_prev: np.ndarray, h_prev: np.ndarray, w: np.ndarray,
               wci: np.ndarray, wcf: np.ndarray, wco: np.ndarray, b: np.ndarray, i: np.ndarray, cs: np.ndarray,
               f: np.ndarray, o: np.ndarray, ci: np.ndarray, co: np.ndarray, h: np.ndarray, cs_grad: np.ndarray,
               h_grad: np.ndarray, use_peephole: bool = False) -> tuple[np.ndarray, ...]:
        """BlockLSTMGradOp::Compute: its checks in order, then the steps from seq_len_max - 1 down."""
        if seq_len_max.ndim:
            raise _bad(op, f"`seq_len_max_tensor` must be rank 0 but is rank {seq_len_max.ndim}")
        if x.ndim != 3:
            raise _bad(op, f"x must be rank 3 but is rank {x.ndim}")
        timelen, batch, n_in = x.shape
        for a, name in ((cs_prev, "cs_prev"), (h_prev, "h_prev"), (w, "w")):
            if a.ndim != 2:
                raise _bad(op, f"{name} must be rank 2 but is rank {a.ndim}")
            if name == "w":
                if not (w.shape[1] > 0 and w.shape[1] % 4 == 0):
                    raise _bad(op, f"w matrix columns must be a positive multiple of 4, but got {w.shape[1]}")
        cell = w.shape[1] // 4
        if n_in + cell != w.shape[0]:
            raise _bad(op, f"w matrix rows don't match: {n_in + cell} vs. {w.shape[0]}")
        for a, name in ((wci, "wci"), (wcf, "wcf"), (wco, "wco"), (b, "b")):
            if a.ndim != 1:
                raise _bad(op, f"{name} must be rank 1 but is rank {a.ndim}")
        if cell != b.shape[0] // 4:
            raise _bad(op, f"w and b cell_size don't match: {cell} vs. {b.shape[0]}")
        for a, name in ((i, "i"), (cs, "cs"), (f, "f"), (o, "o"), (ci, "ci"), (co, "co"), (h, "h")):
            if a.ndim != 3:
                raise _bad(op, f"{name} must be rank 3. Received: {a.ndim}")
        n = _seq_len(op, seq_len_max, timelen)
        dt = x.dtype
        x_grad = np.zeros(x.shape, dt)
        cs_prev_grad, h_prev_grad = np.zeros(cs_prev.shape, dt), np.zeros(h_prev.shape, dt)
        w_grad, b_grad = np.zeros(w.shape, dt), np.zeros(b.shape, dt)
        wci_grad, wcf_grad, wco_grad = (np.zeros(v.shape, dt) for v in (wci, wcf, wco))
        with np.errstate(all="ignore"):
            for t in range(n - 1, -1, -1):
                cs_p = cs_prev if t == 0 else cs[t - 1]
                h_p = h_prev if t == 0 else h[t - 1]
                cs_g = cs_prev_grad + cs_grad[t]
                h_g = h_prev_grad + h_grad[t]
                dgates, cs_prev_grad, di, df, do = cell_backward(cs_p, wci, wcf, wco, i[t], cs[t], f[t], o[t], ci[t],
                                                                 co[t], cs_g, h_g, use_peephole, layout)
                xh_grad = gemm(dgates, np.ascontiguousarray(w.T))
                x_grad[t] = xh_grad[:, :n_in]
                h_prev_grad = xh_grad[:, n_in:]
                xh = np.concatenate([x[t], h_p], axis=1)
                w_grad = w_grad + gemm(np.ascontiguousarray(xh.T), dgates)
                b_grad = b_grad + col_sum(dgates)
                if use_peephole:
                    wci_grad = wci_grad + col_sum(di * cs_p)
                    wcf_grad = wcf_grad + col_sum(df * cs_p)
                    wco_grad = wco_grad + col_sum(do * cs[t])
        return x_grad, cs_prev_grad, h_prev_grad, w_grad, wci_grad, wcf_grad, wco_grad, b_grad
    return kernel


def _typed(op: str, n_out: int, first: int) -> Any:
    """T: the inputs from `first` share the first's dtype (half or float); seq_len_max (BlockLSTM*) int64."""
    from simdist.runtime.ops.args import dtype_error
    from simdist.runtime.ops.nn_rules import attr_error, mismatch_error

    def rule(dts: Any, attrs: Any) -> tuple:
        if first and dts[0] != dtypes.int64:
            raise dtype_error(op, 0, dtypes.int64, dts[0])
        t = dts[first]
        for k in range(first + 1, len(dts)):
            if dts[k] != t:
                raise mismatch_error(op, k, t, dts[k])
        if t.name not in ("float16", "float32") or (op.startswith("GRU") and t.name != "float32"):
            raise attr_error(op, t, "float" if op.startswith("GRU") else _LSTM_TYPES)
        return (t,) * n_out
    return rule


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    return float(sum(np.size(a) for a in arrays)) * 8.0


_WHY = lanes("a recurrence over the gates of one lane's batch: no stacked form written")


def _register(op: str, fn: Any, n_out: int, first: int) -> Any:
    d = register(op, fn, _typed(op, n_out, first), _flops, num_outputs=n_out, kind="nn", fusion=_WHY,
                 none_grad_ok=tuple(range(n_out)))
    from simdist.runtime.ops import infer_ctx
    d.trace_shape = infer_ctx.trace_shape(op)
    return d


LSTM_BLOCK_CELL = _register("LSTMBlockCell", _lstm_block_cell, 7, 0)
LSTM_BLOCK_CELL_GRAD = _register("LSTMBlockCellGrad", _lstm_block_cell_grad, 5, 0)
BLOCK_LSTM = _register("BlockLSTM", _block_lstm("ICFO"), 7, 1)
BLOCK_LSTM_V2 = _register("BlockLSTMV2", _block_lstm("IFCO"), 7, 1)
BLOCK_LSTM_GRAD = _register("BlockLSTMGrad", _block_lstm_grad("ICFO"), 8, 1)
BLOCK_LSTM_GRAD_V2 = _register("BlockLSTMGradV2", _block_lstm_grad("IFCO"), 8, 1)

for _name in ("LSTMBlockCell", "LSTMBlockCellGrad", "BlockLSTMGrad", "BlockLSTMGradV2"):
    no_tf_gradient(_name)


def _block_lstm_gradient(op: Any, *grads: Any) -> list:
    """rnn_grad._block_lstm_grad: BlockLSTMGrad (V1's kernel for V2 too) on the op's inputs and outputs and the
    cs and h gradients (zeros where none reached them); None for seq_len_max."""
    from simdist.runtime.ops import array, dispatch
    cs_grad, h_grad = grads[1], grads[6]
    if cs_grad is None:
        cs_grad = array.zeros_like(op.outputs[1])
    if h_grad is None:
        h_grad = array.zeros_like(op.outputs[6])
    out = dispatch.execute(BLOCK_LSTM_GRAD, (*op.inputs, *op.outputs, cs_grad, h_grad),
                           {"use_peephole": op.get_attr("use_peephole")})
    return [None, *out]


for _name in ("BlockLSTM", "BlockLSTMV2"):
    RegisterGradient(_name)(_block_lstm_gradient)
