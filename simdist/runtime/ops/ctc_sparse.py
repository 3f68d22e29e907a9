"""`tf.nn.ctc_loss` with SparseTensor labels and `tf.compat.v1.nn.ctc_loss`: TF's CTCLoss kernel
(ctc_loss_op.cc, util/ctc/ctc_loss_calculator.h), step for step (clause ops.nn-ctc).

Per example with sequence_length > 0: each frame's softmax as Eigen computes it — exp of
(logit − max) by Eigen's packet exp on every element (the tail too, as a partial packet),
divided by their sum reduced as Eigen's redux does (two packet accumulators, the
packet folded pairwise, then the tail); the forward and backward variables in the log domain
(log of the softmax with the C library's log; LogSumExp(a, b) = max + log1pf(expf(min − max)),
float's functions also for double) over l′ = the labels with blanks between and around (blank the
last class); loss −log p(z|x), gradient y − expf(log Σ_{u: l′_u = l} α_u β_u − log p). A frame
count of 0 gives loss 0 and a zero gradient. Errors as the kernel's: no labels for an example
("Labels length is zero in batch b"), a label ≥ num_classes − 1 followed by a valid one, fewer
frames than labels ("Not enough time for target transition sequence …"), unordered indices
("label SparseTensor is not valid: …"), sequence_length > max_time. The gradient rule is
ctc_ops.py's: the upstream gradient per example times the kernel's gradient output, which is
behind PreventGradient (a second derivative is LookupError).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, libm
from simdist.runtime.ops.args import tf_name
from simdist.runtime.ops.eigen_redux import redux_sum as _redux_sum
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.sparse_tensor import SparseTensor
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["ctc_loss_sparse", "ctc_loss_v1", "prevent_gradient"]

class _Math:
    """The scalar functions of the calculator in dtype T: log (std::log of T), and LogSumExp and
    the gradient's exp through float's log1pf/expf."""

    def __init__(self, dt: np.dtype) -> None:
        self.f = dt.type
        self._log = libm._function("logf" if dt == np.float32 else "log", dt, 1)
        f32 = np.dtype(np.float32)
        self._expf = libm._function("expf", f32, 1)
        self._log1pf = libm._function("log1pf", f32, 1)

    def log(self, v: Any) -> Any:
        with np.errstate(divide="ignore"):
            return self.f(self._log(v)) if self._log else self.f(np.log(v))

    def expf(self, v: Any) -> Any:
        x = np.float32(v)
        with np.errstate(over="ignore", under="ignore"):
            return np.float32(self._expf(x)) if self._expf else np.exp(x)

    def lse(self, a: Any, b: Any) -> Any:
        if a == -np.inf:
            return b
        if b == -np.inf:
            return a
        hi, lo = (a, b) if a > b else (b, a)
        e = self.expf(self.f(lo - hi))
        l1p = np.float32(self._log1pf(e)) if self._log1pf else np.log1p(e)
        return self.f(hi + self.f(l1p))


def _labels(ind: np.ndarray, val: np.ndarray, batch: int) -> list[list[int]]:
    op = "[Op:CTCLoss]"
    rows = ind.shape[0]
    width = int(max((ind[i, 1] + 1 for i in range(rows)), default=0))
    for i in range(rows):               # SparseTensor::IndicesValid: in range and in order
        bad = None
        if not (0 <= ind[i, 0] < batch and 0 <= ind[i, 1] < width):
            bad = f"[{ind[i, 0]},{ind[i, 1]}] is out of bounds: need 0 <= index < [{batch},{width}]"
        elif i and tuple(ind[i]) <= tuple(ind[i - 1]):
            word = "repeated" if tuple(ind[i]) == tuple(ind[i - 1]) else "out of order"
            bad = f"[{ind[i, 0]},{ind[i, 1]}] is {word}. Many sparse ops require sorted indices.\n    Use " \
                  "`tf.sparse.reorder` to create a correctly ordered copy.\n\n"
        if bad:
            raise errors.InvalidArgumentError(None, None, f"label SparseTensor is not valid: indices[{i}] = {bad} {op}")
    out: list[list[int]] = [[] for _ in range(batch)]
    for i in range(rows):
        out[int(ind[i, 0])].append(int(val[i]))
    return out


def _l_prime(label: list[int], b: int, num_classes: int, frames: int, collapse: bool, ignore_longer: bool) -> list[int]:
    """PopulateLPrimes for one example: l′ = blank, l_1, blank, …, l_U, blank."""
    blank = num_classes - 1
    if not label:
        raise errors.InvalidArgumentError(None, None, f"Labels length is zero in batch {b} [Op:CTCLoss]")
    seq: list[int] = []
    finished = False
    for i, lab in enumerate(label):
        if i and collapse and lab == label[i - 1]:
            continue
        if lab >= num_classes - 1:
            finished = True
        else:
            if finished:
                raise errors.InvalidArgumentError(
                    None, None, f"Saw a non-null label (index >= num_classes - 1) following a null label, batch: {b} "
                                f"num_classes: {num_classes} labels: {','.join(map(str, label))} labels seen so far: "
                                f"{','.join(map(str, seq))} [Op:CTCLoss]")
            seq.append(lab)
    for lab in seq:
        if lab < 0:
            raise errors.InvalidArgumentError(None, None, f"All labels must be nonnegative integers, batch: {b} labels: "
                                                          f"{','.join(map(str, seq))} [Op:CTCLoss]")
    if not ignore_longer and len(label) > frames:
        raise errors.InvalidArgumentError(
            None, None, f"Not enough time for target transition sequence (required: {len(label)}, available: "
                        f"{frames}){b}You can turn this error into a warning by using the flag "
                        "ignore_longer_outputs_than_inputs [Op:CTCLoss]")
    out = []
    for lab in seq:
        out += [blank, lab]
    return out + [blank]


def _pexp(d: np.ndarray) -> np.ndarray:
    """Eigen's packet exp on every element: the dense assignment's tail runs as a partial packet
    (Eigen's packet segments), so no element goes through the C library's exp (observed: TF 2.21's
    softmax entries of rows of 3 to 11 classes, 1445 of 1445 bit for bit)."""
    from simdist.runtime.ops.packet_exp import pexp_double
    from simdist.runtime.ops.packet_pow import pexp_float
    fin = np.isfinite(d)
    out = np.exp(d)
    if fin.any():
        out[fin] = (pexp_float if d.dtype == np.float32 else pexp_double)(d[fin])
    return out


def _softmax(x: np.ndarray) -> np.ndarray:
    """[C, T] softmax columns of x [T, C], as the calculator's Eigen expressions compute them."""
    cols = []
    for row in x:
        e = _pexp(row - row.max())
        cols.append(e / _redux_sum(e))
    return np.array(cols, x.dtype).T


def _one(y: np.ndarray, lp: list[int], m: _Math, merge: bool) -> tuple[Any, np.ndarray]:
    """CalculateForwardVariables, CalculateBackwardVariables, the loss and CalculateGradient."""
    f, zero = m.f, m.f(-np.inf)
    n_cls, t_len = y.shape
    u_len = len(lp)
    blank = n_cls - 1
    alpha = np.full((u_len, t_len), zero, y.dtype)
    beta = np.full((u_len, t_len), zero, y.dtype)
    alpha[0, 0] = m.log(y[blank, 0])
    alpha[1, 0] = m.log(y[lp[1] if u_len > 1 else blank, 0])
    for t in range(1, t_len):
        for u in range(max(0, u_len - 2 * (t_len - t)), min(u_len, 2 * (t + 1))):
            s = alpha[u, t - 1] if merge or lp[u] == blank else zero
            if u > 0:
                s = m.lse(s, alpha[u - 1, t - 1])
            if u > 1 and lp[u] != blank and not (merge and lp[u] == lp[u - 2]):
                s = m.lse(s, alpha[u - 2, t - 1])
            alpha[u, t] = f(m.log(y[lp[u], t]) + s)
    beta[u_len - 2:, t_len - 1] = 0
    for t in range(t_len - 2, -1, -1):
        for u in range(max(0, u_len - 2 * (t_len - t)), min(u_len, 2 * (t + 1))):
            if merge or lp[u] == blank:
                beta[u, t] = m.lse(beta[u, t], f(beta[u, t + 1] + m.log(y[lp[u], t + 1])))
            if u + 1 < u_len:
                beta[u, t] = m.lse(beta[u, t], f(beta[u + 1, t + 1] + m.log(y[lp[u + 1], t + 1])))
            if u + 2 < u_len and lp[u] != blank and not (merge and lp[u] == lp[u + 2]):
                beta[u, t] = m.lse(beta[u, t], f(beta[u + 2, t + 1] + m.log(y[lp[u + 2], t + 1])))
    log_p = zero
    for u in range(u_len):
        log_p = m.lse(log_p, f(alpha[u, 0] + beta[u, 0]))
    if log_p == zero:
        return -log_p, y.copy()
    dy = np.empty_like(y)
    for t in range(t_len):
        prob = [zero] * n_cls
        for u in range(u_len):
            prob[lp[u]] = m.lse(prob[lp[u]], f(alpha[u, t] + beta[u, t]))
        for c in range(n_cls):
            dy[c, t] = f(y[c, t] - f(m.expf(f(prob[c] - log_p))))
    return -log_p, dy


def _ctc_loss(x: np.ndarray, ind: np.ndarray, val: np.ndarray, seq: np.ndarray,
              preprocess_collapse_repeated: bool = False, ctc_merge_repeated: bool = True,
              ignore_longer_outputs_than_inputs: bool = False) -> tuple[np.ndarray, np.ndarray]:
    op = "[Op:CTCLoss]"
    for cond, msg in ((x.ndim == 3, "inputs is not a 3-Tensor"), (seq.ndim == 1, "sequence_length is not a vector"),
                      (ind.ndim == 2, "labels_indices is not a matrix"), (val.ndim == 1, "labels_values is not a vector")):
        if not cond:
            raise errors.InvalidArgumentError(None, None, f"{msg} {op}")
    t_max, batch, n_cls = x.shape
    if batch != seq.shape[0]:
        raise errors.InvalidArgumentError(None, None, f"len(sequence_length) != batch_size.  len(sequence_length):  "
                                                      f"{seq.shape[0]} batch_size: {batch} {op}")
    if ind.shape[0] != val.shape[0]:
        raise errors.InvalidArgumentError(None, None, "labels_indices and labels_values must contain the same number of "
                                                      f"rows, but saw shapes: {list(ind.shape)} vs. {list(val.shape)} {op}")
    if batch == 0:
        raise errors.InvalidArgumentError(None, None, f"batch_size must not be 0 {op}")
    labels = _labels(ind, val, batch)
    for b in range(batch):
        if not seq[b] <= t_max:
            raise errors.InvalidArgumentError(None, None, f"sequence_length({b}) <= {t_max} {op}")
    for b in range(batch):
        if seq[b] < 0:
            raise errors.InvalidArgumentError(None, None, f"seq_len({b}) < 0 {op}")
    l_primes = [_l_prime(labels[b], b, n_cls, int(seq[b]), preprocess_collapse_repeated,
                         ignore_longer_outputs_than_inputs) for b in range(batch)]
    m = _Math(x.dtype)
    loss = np.zeros(batch, x.dtype)
    grad = np.zeros_like(x)
    with np.errstate(all="ignore"):
        for b in range(batch):
            n = int(seq[b])
            if n == 0 or (ignore_longer_outputs_than_inputs and len(labels[b]) > n):
                continue
            y = _softmax(x[:n, b, :])
            loss[b], dy = _one(y, l_primes[b], m, ctc_merge_repeated)
            grad[:n, b, :] = dy.T
    return loss, grad


def _rule(dts: Any, attrs: Any) -> tuple:
    t = dts[0]
    if t not in (dtypes.float32, dtypes.float64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {tf_name(t)} is not in the list of allowed "
                                                      "values: float, double [Op:CTCLoss]")
    for k, want in ((1, dtypes.int64), (2, dtypes.int32), (3, dtypes.int32)):
        if dts[k] != want:
            raise errors.InvalidArgumentError(None, None, f"cannot compute CTCLoss as input #{k}(zero-based) was expected "
                                                          f"to be a {tf_name(want)} tensor but is a {tf_name(dts[k])} "
                                                          "tensor [Op:CTCLoss]")
    return (t, t)


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    t_len, b, c = arrays[0].shape
    u = 2 * arrays[2].size // max(b, 1) + 1
    return float(t_len * b * (3 * c + 8 * u))


CTC_LOSS = register("CTCLoss", _ctc_loss, _rule, _flops, num_outputs=2, kind="nn",
                    fusion=lanes("a recursion over frames and label states per example: no stacked form written"))

PREVENT_GRADIENT = register("PreventGradient", lambda x, message="": x, lambda dts, attrs: dts[0],
                            lambda a, out, at: 0.0, kind="shape",
                            fusion=lanes("an identity whose gradient raises: nothing to stack"))


@RegisterGradient("PreventGradient")
def _prevent_gradient_grad(op: Any, _: Any) -> list:
    raise LookupError(f"Gradient explicitly disabled. Reason: {op.get_attr('message')}")


def prevent_gradient(x: Tensor, message: str = "") -> Tensor:
    """array_ops.prevent_gradient: x, whose gradient raises LookupError."""
    return dispatch.execute(PREVENT_GRADIENT, (x,), {"message": message})


@RegisterGradient("CTCLoss")
def _ctc_loss_grad(op: Any, grad_loss: Any, _: Any) -> list:
    from simdist.runtime.ops.array import expand_dims
    g = prevent_gradient(op.outputs[1], message="Currently there is no way to take the second  derivative of "
                         "ctc_loss due to the fused implementation's interaction  with tf.gradients()")
    return [expand_dims(grad_loss, -1) * g, None, None, None]


def _impl(labels: Any, inputs: Any, sequence_length: Any, time_major: bool = True,
          preprocess_collapse_repeated: bool = False, ctc_merge_repeated: bool = True,
          ignore_longer_outputs_than_inputs: bool = False) -> Tensor:
    """ctc_ops._ctc_loss_impl (use_cudnn=False): blank the last class."""
    from simdist.runtime.ops.array import transpose
    from simdist.runtime.ops.math import cast
    if not isinstance(labels, SparseTensor):
        raise TypeError(f"Expected argument `labels` to be a SparseTensor. Received labels={labels} of type: "
                        f"{type(labels).__name__}")
    x = inputs if isinstance(inputs, Tensor) else convert_to_tensor(inputs)
    if not time_major:
        x = transpose(x, [1, 0, 2])
    orig = x.dtype
    if orig in (dtypes.float16, dtypes.bfloat16):
        x = cast(x, dtypes.float32)
    seq = sequence_length if isinstance(sequence_length, Tensor) else convert_to_tensor(sequence_length,
                                                                                          dtype=dtypes.int32)
    attrs = {"preprocess_collapse_repeated": bool(preprocess_collapse_repeated),
             "ctc_merge_repeated": bool(ctc_merge_repeated),
             "ignore_longer_outputs_than_inputs": bool(ignore_longer_outputs_than_inputs)}
    loss, _ = dispatch.execute(CTC_LOSS, (x, labels.indices, labels.values, seq), attrs)
    return cast(loss, orig) if orig in (dtypes.float16, dtypes.bfloat16) else loss


def ctc_loss_sparse(labels: SparseTensor, logits: Any, logit_length: Any, logits_time_major: bool,
                    blank_index: int) -> Tensor:
    """ctc_loss_v3's SparseTensor path on CPU (_ctc_loss_op_standard): the blank class moved last,
    labels above it shifted down, then the CTCLoss kernel."""
    from simdist.runtime.ops.array import concat
    from simdist.runtime.ops.math import where
    x = logits if isinstance(logits, Tensor) else convert_to_tensor(logits)
    x = concat([x[:, :, :blank_index], x[:, :, blank_index + 1:], x[:, :, blank_index:blank_index + 1]], axis=2)
    v = labels.values
    shifted = SparseTensor(labels.indices, where(v < blank_index, v, v - 1), labels.dense_shape)
    return _impl(shifted, x, logit_length, time_major=logits_time_major)


def ctc_loss_v1(labels: Any, inputs: Any = None, sequence_length: Any = None, preprocess_collapse_repeated: bool = False,
                ctc_merge_repeated: bool = True, ignore_longer_outputs_than_inputs: bool = False,
                time_major: bool = True, logits: Any = None) -> Tensor:
    """`tf.compat.v1.nn.ctc_loss`: the CTCLoss kernel on SparseTensor labels, blank the last class."""
    if inputs is not None and logits is not None:
        raise ValueError("Cannot specify both 'logits' and 'inputs'")
    return _impl(labels, inputs if inputs is not None else logits, sequence_length, time_major,
                 preprocess_collapse_repeated, ctc_merge_repeated, ignore_longer_outputs_than_inputs)
