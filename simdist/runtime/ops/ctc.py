"""tf.nn.ctc_loss with dense labels: TF 2.21's ctc_ops.ctc_loss_dense (the batched forward-backward
algorithm of Sim et al. in the log domain), the path TF takes on CPU for dense labels.

TF composes it of public ops under a custom_gradient whose function returns (loss, gradient):
log_softmax; the state lattice of 2·(L + 1) states (start, L labels, L + 1 blanks; a label
state reached from the previous label unless the two labels repeat); initial and final state
log probabilities of 0 or log_0 = float32(log(1e-307)) ≈ −706.9 (not −inf: an impossible
alignment, e.g. a label sequence longer than the frames allow, gives a finite loss near 707
per impossible step); forward and backward scans that renormalize every frame by its
logsumexp (TF's reduce_logsumexp: the max, set to 0 when not finite); the per-label posterior;
gradient = softmax − posterior, zero on frames past logit_length. simdist runs the same steps in
the same order on NumPy float32 arrays as one op (CTCLossDense, simdist's name for the custom
gradient's function: outputs loss and gradient), so values agree with TF's within float32
rounding of exp and log; the op's gradient is TF's, reshape(dloss, [1, −1, 1]) · gradient.
The casts, transposes and blank_index shuffles around it are the public ops TF uses.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors, symbolic
from simdist.runtime.ops import args, dispatch, static_shapes, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["ctc_loss"]

_F = np.float32
_LOG_0 = _F(math.log(1e-307))   # TF: Log of a float64 scalar (its kernel's scalar tail, the C library's log)


def _exp(x: np.ndarray) -> np.ndarray:
    """TF's Exp kernel (unary.eigen_exp: Eigen's packets, the C library's tail); not NumPy's exp,
    which is dispatched per CPU (ops.host-cpu)."""
    from simdist.runtime.ops.unary import eigen_exp
    return eigen_exp(x)


def _log(x: np.ndarray) -> np.ndarray:
    """TF's Log kernel (packet_math.log)."""
    from simdist.runtime.ops import packet_math
    return packet_math.log(x)


def _lse(x: np.ndarray, axis: int, keepdims: bool = False) -> np.ndarray:
    """TF's reduce_logsumexp: log(sum(exp(x − m))) + m, m the max (0 where it is not finite)."""
    raw = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(raw), raw, _F(0))
    r = _log(np.sum(_exp(x - m), axis=axis, keepdims=True)) + m
    return r if keepdims else np.squeeze(r, axis=axis)


def _one_hot(idx: np.ndarray, depth: int, on: Any, off: Any) -> np.ndarray:
    """tf.one_hot on the last axis (an index outside [0, depth) is a row of off values)."""
    out = np.full(idx.shape + (depth,), off, _F)
    ok = (idx >= 0) & (idx < depth)
    pos = np.nonzero(ok)
    out[pos + (idx[ok].astype(np.int64),)] = on
    return out


def _log_softmax(a: np.ndarray) -> np.ndarray:
    """nn_ops.log_softmax: TF's Eigen LogSoftmax kernel on the rows (softmax_eigen.py)."""
    from simdist.runtime.ops import softmax_eigen
    return softmax_eigen.log_softmax(a.reshape(-1, a.shape[-1])).reshape(a.shape)


def _state_trans(labels: np.ndarray) -> np.ndarray:
    """_ctc_state_trans: [B, S, S], entry (to, from) 1 where the lattice allows the step."""
    b, n = labels.shape
    s = 2 * (n + 1)
    trans = np.zeros((s, s), _F)
    trans[1, 0] += 1
    for k in range(1, n + 1):
        trans[k, n + k] += 1                 # blank before label k -> label k
    for j in range(n + 1):
        trans[n + 1 + j, j] += 1             # label j (or start) -> the blank after it
    trans += np.eye(s, dtype=_F)
    out = np.broadcast_to(trans, (b, s, s)).copy()
    if n >= 2:
        repeats = labels[:, :-1] == labels[:, 1:]
        k = np.arange(2, n + 1)
        out[:, k, k - 1] += _F(1) - repeats.astype(_F)
    return out


def _ctc(logits: np.ndarray, labels: np.ndarray, label_length: np.ndarray,
         logit_length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """ctc_loss_and_grad on time-major float32 logits [T, B, C] (blank 0): (loss [B], grad)."""
    t_len, b, c = logits.shape
    n = labels.shape[1]
    s = 2 * (n + 1)
    with np.errstate(all="ignore"):
        ilp = _log_softmax(logits)
        blank = np.repeat(ilp[:, :, :1], n + 1, axis=2)
        oh = _one_hot(labels, c, _F(1), _F(0))[None]                           # [1, B, L, C]
        state = np.sum(ilp[:, :, None, :] * oh, axis=3)                        # [T, B, L]
        obs = np.concatenate([np.full((t_len, b, 1), -np.inf, _F), state, blank], axis=2)
        log_trans = np.log(_state_trans(labels))   # (of 0s and 1s: -inf and 0 on any CPU)
        bwd_trans = np.swapaxes(log_trans, 1, 2)
        init = np.full((b, s), _LOG_0, _F)
        init[:, 0] = 0
        fmask = _one_hot(label_length, n + 1, _F(1), _F(0)).T                  # [L + 1, B]
        final = ((_F(1) - np.ones((2, 1, b), _F) * fmask) * _LOG_0).reshape(s, b).T
        fwd = np.zeros((t_len + 1, b, s), _F)
        fwd[0] = init
        cur = init
        for i in range(t_len):
            x = _lse(cur[:, None, :] + log_trans, -1) + obs[i]
            cur = x - _lse(x, -1, keepdims=True)
            fwd[i + 1] = cur
        mask = (np.arange(t_len)[None, :] < logit_length[:, None]).astype(_F).T   # [T, B]
        bwd = np.zeros((t_len + 1, b, s), _F)
        cum = np.zeros((t_len + 1, b), _F)
        bwd[t_len] = final
        cur, acc = final, np.zeros((b,), _F)
        for i in range(t_len - 1, -1, -1):
            x = _lse((cur + obs[i])[:, None, :] + bwd_trans, -1)
            lps = _lse(x, -1, keepdims=True)
            x = x - lps
            acc = acc + np.squeeze(lps, -1) * mask[i]
            m = mask[i][:, None]
            cur = x * m + final * (_F(1) - m)
            bwd[i], cum[i] = cur, acc
        fb = fwd[1:] + bwd[1:]
        fb = fb - _lse(fb, 2, keepdims=True)
        fb = fb + np.log(mask[:, :, None])   # (of 0s and 1s)
        loglik = bwd[0, :, 0] + cum[0]
        label_states = fb[:, :, 1:n + 1]
        blank_states = fb[:, :, n + 1:]
        oh2 = _one_hot(labels - 1, c - 1, _F(0), _F(-np.inf))[None]             # [1, B, L, C - 1]
        label_ol = _lse(label_states[:, :, :, None] + oh2, 2)
        blank_ol = _lse(blank_states, 2, keepdims=True)
        olabel = np.concatenate([blank_ol, label_ol], axis=-1)
        grad = (_exp(ilp) - _exp(olabel)) * mask[:, :, None]
    return (-loglik).astype(_F), grad.astype(_F)


def _dtype(dts: Any, attrs: Any) -> tuple:
    return (dtypes.float32, dtypes.float32)


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    t_len, b, c = arrays[0].shape
    s = 2 * (arrays[1].shape[1] + 1)
    return float(t_len * b * (4 * s * s + 4 * s * c + 10 * c))


CTC_LOSS_DENSE = register("CTCLossDense", _ctc, _dtype, _flops, num_outputs=2, kind="nn",
                          fusion=lanes("scans over frames whose length is per example: no stacked form written"))


@RegisterGradient("CTCLossDense")
def _ctc_loss_dense_grad(op: Any, grad_loss: Any, _: Any) -> list:
    from simdist.runtime.ops.array import reshape
    return [reshape(grad_loss, [1, -1, 1]) * op.outputs[1], None, None, None]


def _one_hot_index(v: Tensor) -> None:
    """tf.one_hot's index dtype (OneHot's TI)."""
    if v.dtype not in (dtypes.uint8, dtypes.int8, dtypes.int32, dtypes.int64):
        raise trace_errors.attr_not_allowed("OneHot", "TI", v.dtype, "uint8, int8, int32, int64")


def _state_shapes(xs: list, ls: list) -> None:
    """_ilabel_to_state's shapes: log probabilities [T, B, 1, C] times one_hot(labels) [1, *labels, C]
    (Mul's broadcast), summed over axis 3, then concatenated on axis 2 with the blanks [T, B, L + 1]
    (ConcatV2: the ranks equal): labels of rank 3 are the concat's rank error, eagerly
    InvalidArgumentError, in a graph its shape function's ValueError (fz27b, fz14 seed 1420272701
    #250), before label_length's one_hot."""
    from simdist.runtime.ops.args import dims
    il, oh = [xs[0], xs[1], 1, xs[2]], [1, *ls, xs[2]]
    try:
        prod = list(np.broadcast_shapes(tuple(il), tuple(oh)))
    except ValueError:
        raise trace_errors.shape_error(f"Incompatible shapes: {dims(il)} vs. {dims(oh)} [Op:Mul]",
                                       trace_errors.broadcast_text(il, oh), "Mul", (il, oh)) from None
    state, blank = prod[:3] + prod[4:], [xs[0], xs[1], ls[1] + 1]
    if len(state) != len(blank):
        raise trace_errors.shape_error(
            f"ConcatOp : Ranks of all input tensors should match: shape[0] = {dims(state)} vs. shape[1] = "
            f"{dims(blank)} [Op:ConcatV2]", f"Shape must be rank {len(state)} but is rank {len(blank)}", "ConcatV2",
            (state, blank, []))


def ctc_loss(labels: Any, logits: Any, label_length: Any, logit_length: Any, logits_time_major: bool = True,
             unique: Any = None, blank_index: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.ctc_loss` with dense labels [B, L] (label_length [B]) and logits [T, B, C]
    ([B, T, C] when not logits_time_major): the negative log likelihood of each label sequence
    ([B]); blank_index defaults to 0 (negative: from the end)."""
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import concat, transpose
    # `unique` (ctc_unique_labels' pair): TF's loss does not read it and its gradient only scatters
    # through it (_state_to_olabel_unique), the same values as without it for the pair of these
    # labels; simdist accepts and ignores it (clause ops.nn-more)
    from simdist.runtime.sparse_tensor import SparseTensor
    if isinstance(labels, SparseTensor):      # ctc_loss_v3's SparseTensor path: the CTCLoss kernel
        from simdist.runtime.ops.ctc_sparse import ctc_loss_sparse
        if blank_index is None:
            raise ValueError("Argument `blank_index` must be provided when `labels` is a `SparseTensor`.")
        x = logits if isinstance(logits, Tensor) else convert_to_tensor(logits)
        if blank_index < 0:
            blank_index += x.shape.as_list()[2]
        return ctc_loss_sparse(labels, x, logit_length, logits_time_major, blank_index)
    if label_length is None or logit_length is None:
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.")
    x, lab = _t(logits), _t(labels)
    lab_len = label_length if isinstance(label_length, Tensor) else convert_to_tensor(label_length)
    log_len = logit_length if isinstance(logit_length, Tensor) else convert_to_tensor(logit_length)
    orig = x.dtype
    if orig in (dtypes.float16, dtypes.bfloat16):
        x = math.cast(x, dtypes.float32)
    if not symbolic.flag(logits_time_major):   # (a graph tensor's truth: OperatorNotAllowedInGraphError; fz65)
        x = transpose(x, perm=[1, 0, 2])
    if blank_index is None:
        blank_index = 0
    if blank_index != 0:
        if blank_index < 0:
            blank_index += x.shape.as_list()[2]
        x = concat([x[:, :, blank_index:blank_index + 1], x[:, :, :blank_index], x[:, :, blank_index + 1:]], axis=2)
        lab = math.where(lab < blank_index, lab + 1, lab)
    if unique:   # (ctc_loss_dense unpacks the pair before the loss reads any shape: np.bool_(True) is
        # Python's TypeError "cannot unpack non-iterable"; fz21, fz14 seed 1420262101 #178)
        unique_y, unique_idx = unique   # noqa: F841 - only its unpacking matters here
    if x.ndim < 3 or lab.ndim < 2:
        # ctc_loss_and_grad reads `logits.shape[2]` and `labels.shape[1]` (_get_dim) before its
        # log_softmax: a lower rank is TensorShape's IndexError (fz15c)
        raise IndexError("tuple index out of range")
    if x.dtype != dtypes.float32 and not x.dtype.is_floating:
        from simdist.runtime.ops.activations import log_softmax
        log_softmax(x)    # LogSoftmax's dtype error, which TF raises first
    # (_ilabel_to_state: one_hot(labels), its product with the log probabilities, the concat with
    # the blanks; then ctc_state_log_probs' one_hot(label_length))
    _one_hot_index(lab)
    if x.dtype != dtypes.float32:
        raise trace_errors.dtype_mismatch(errors.InvalidArgumentError(
            None, None, "cannot compute Mul as input #1(zero-based) was expected to be "
            f"a {args.tf_name(x.dtype)} tensor but is a float tensor [Op:Mul]"), "Mul", 1, x.dtype, dtypes.float32)
    xs, ls = x.shape.as_list(), lab.shape.as_list()
    if not static_shapes.rank_unknown(x) and not static_shapes.rank_unknown(lab):
        try:
            _state_shapes(xs, ls)
        except errors.InvalidArgumentError as e:
            if static_shapes.unknown(x) is not None or static_shapes.unknown(lab) is not None:
                trace_errors.unmark(e)   # (a dimension the graph does not know: the kernel's, at run time)
            raise
    _one_hot_index(lab_len)
    if len(xs) != 3 or len(ls) != 2 or xs[1] != ls[0] or list(lab_len.shape.as_list()) != [ls[0]] \
            or list(log_len.shape.as_list()) != [ls[0]]:
        raise errors.InvalidArgumentError(None, None, f"ctc_loss: logits {xs} ([frames, batch, classes]), labels {ls} "
                                          f"([batch, max label length]), label_length {lab_len.shape.as_list()} and "
                                          f"logit_length {log_len.shape.as_list()} ([batch]) do not agree")
    loss, _ = dispatch.execute(CTC_LOSS_DENSE, (x, lab, lab_len, log_len))
    if orig in (dtypes.float16, dtypes.bfloat16):
        loss = math.cast(loss, orig)
    return loss
