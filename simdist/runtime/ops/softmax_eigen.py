"""TF 2.21's Eigen kernels of the softmax family on float32 and float64, step by step as Eigen
evaluates them: LogSoftmax and Softmax (softmax_op_functor.h SoftmaxEigenImpl), the fused
SoftmaxCrossEntropyWithLogits (xent_op.h XentEigenImpl) and SparseSoftmaxCrossEntropyWithLogits
(sparse_xent_op.h SparseXentEigenImpl). Clause nn.softmax-eigen.

Two ways Eigen evaluates an exp or a log decide the last bits:
- elementwise over a whole tensor (`x.exp()` assigned, `scratch.log().eval()`): Eigen's packet
  function on the first (n // P) * P elements of the flat tensor, the C library's on the tail
  (packet_math.py, packet_exp.py: what the Exp and Log ops do);
- inside a reduction over the class axis (`x.exp().sum(along_class)`): the reducer walks each row
  in packets of P and then the row's tail one element at a time, so the packet/tail split is per
  row (`exps`); the sum is Eigen's SumReducer order (sum_order.py).
A value read by a generator (the sparse loss's `numext::log`) is the C library's scalar function.
Every other step (subtracting the max, dividing by the sum, 1/x) is one IEEE operation per element.

Because the flat splits depend on the whole tensor, a replica lane must be computed as its own
tensor: in a fused replay the lanes' rows come stacked, and `lanes=R` splits every flat step into
R equal blocks of rows (the ops' `lane_forward`).
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import libm, packet_math
from simdist.runtime.ops.packet_exp import pexp_double
from simdist.runtime.ops.packet_pow import pexp_float
from simdist.runtime.ops.sum_order import eigen_order_sum

__all__ = ["DTYPES", "exps", "log_softmax", "softmax", "xent", "sparse_xent"]

DTYPES = ("float32", "float64")
_C_EXP = {"float32": "expf", "float64": "exp"}
_C_LOG = {"float32": "logf", "float64": "log"}


def _packet_exp(block: np.ndarray) -> np.ndarray:
    """Eigen's packet exp on every element of `block` (float64: pexp_double on the finite ones,
    as packet_exp.exp does; a non-finite element's exp is exact)."""
    if block.dtype == np.float32:
        return pexp_float(block)
    out = np.exp(block)
    fin = np.isfinite(block)
    if fin.any():
        out[fin] = pexp_double(block[fin])
    return out


def _flat_tail(size: int, p: int, lanes: int) -> np.ndarray:
    """Which entries of a flat tensor of `size` (`lanes` equal blocks, each its own tensor) the C
    function computes: each block's last (block % P)."""
    block = size // lanes
    return np.arange(size) % block >= (block // p) * p


def _flat_log(s: np.ndarray, lanes: int) -> np.ndarray:
    """log of a whole vector as TF's Log kernel computes it, per lane block."""
    if lanes == 1:
        return packet_math.log(s)
    return np.concatenate([packet_math.log(b) for b in np.split(s, lanes)])


def exps(a: np.ndarray, flat: bool, lanes: int = 1) -> tuple[np.ndarray, np.ndarray | None]:
    """exp of a 2-D array [n, c] the two ways Eigen evaluates it: (1) inside a reduction along the
    rows, the first (c // P) * P entries of every row in packets, the rest of the row by the C
    library; (2) (when `flat`) as a whole tensor, packets over the first (n·c // P) * P entries of
    the flat array and the C library on its tail (each of `lanes` equal row blocks its own tensor).
    An element's packet exp is the same either way, so the packet function runs once and the C
    function once per element either form leaves to it."""
    n, c = a.shape
    p = packet_math.LANES[a.dtype.name]
    src = np.ascontiguousarray(a).ravel()
    tail = np.zeros((n, c), dtype=bool)
    tail[:, (c // p) * p:] = True
    tail = tail.ravel()
    if flat:
        flat_tail = _flat_tail(src.size, p, lanes)
        scalar_at = tail | flat_tail
    else:
        scalar_at = tail
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        packet = _packet_exp(src)
        scalar = np.empty_like(src)
        if scalar_at.any():
            scalar[scalar_at] = libm.scalar_map(_C_EXP[a.dtype.name], src[scalar_at])
    rows = np.where(tail, scalar, packet).reshape(n, c)
    return rows, (np.where(flat_tail, scalar, packet).reshape(n, c) if flat else None)


def _row_sum(e: np.ndarray) -> np.ndarray:
    """Each row's sum in Eigen's SumReducer order (NumPy's where sum_order does not model it)."""
    s = eigen_order_sum(e, (1,), False)
    return np.add.reduce(e, axis=1) if s is None else s


def _shifted(a: np.ndarray) -> np.ndarray:
    """logits - max(logits along classes): one subtraction per element."""
    with np.errstate(invalid="ignore"):
        return a - np.max(a, axis=1, keepdims=True)


def log_softmax(a: np.ndarray, lanes: int = 1) -> np.ndarray:
    """LogSoftmax of a 2-D float32/float64 array: shifted - log(sum(exp(shifted)))."""
    sh = _shifted(a)
    with np.errstate(divide="ignore", invalid="ignore"):
        return sh - _flat_log(_row_sum(exps(sh, False)[0]), lanes)[:, None]


def softmax(a: np.ndarray, lanes: int = 1) -> np.ndarray:
    """Eigen's Softmax of a 2-D float32/float64 array: exp(shifted) (elementwise) times the
    inverse of its row sums (TF 2.21 runs it for float64, and for float32 where oneDNN's does not)."""
    e = exps(_shifted(a), True, lanes)[1]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return e * _inverse(_row_sum(e), lanes)[:, None]


def _inverse(s: np.ndarray, lanes: int) -> np.ndarray:
    """The row sums' `.inverse().eval()`, a [batch] tensor as TF's Reciprocal computes it: float32's
    preciprocal packets on the first (n // 8) * 8 sums (the CPU's vrcpps estimate and a Newton step: 1/2 is
    0.49999997 on the AMD host) and 1 / x on the tail, each of `lanes` row blocks its own tensor; float64's
    packet is a division (fz45b, fz45_gen seed 45003: softmax of 24 rows of two equal logits)."""
    if s.dtype != np.float32:
        return s.dtype.type(1) / s
    from simdist.runtime.ops import rcp
    if lanes == 1:
        return rcp.reciprocal(s)
    return np.concatenate([rcp.reciprocal(b) for b in np.split(s, lanes)])


def xent(features: np.ndarray, labels: np.ndarray, lanes: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """SoftmaxCrossEntropyWithLogits of 2-D float32/float64 arrays of one shape: the loss
    sum(labels * (log(sum(exp(shifted))) - shifted)) and the backprop exp(shifted) / sum - labels."""
    sh = _shifted(features)
    in_rows, whole = exps(sh, True, lanes)
    s = _row_sum(in_rows)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # (labels * (log - shifted): the product's compiled first operand is the difference, so a NaN logit's NaN
        # comes out where the label is a NaN too; TF 2.21, nsweep64's CategoricalCrossentropy from logits)
        loss = _row_sum((_flat_log(s, lanes)[:, None] - sh) * labels)
        backprop = whole / s[:, None] - labels
    return loss, backprop


def sparse_xent(features: np.ndarray, labels: np.ndarray, lanes: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """SparseSoftmaxCrossEntropyWithLogits of a 2-D float32/float64 array and in-range labels:
    the loss log(sum(exp(shifted))) - shifted[label] (the log the C library's: a generator reads
    it per element) and the backprop exp(shifted) / sum, less 1 at the label."""
    sh = _shifted(features)
    in_rows, whole = exps(sh, True, lanes)
    s = _row_sum(in_rows)
    rows = np.arange(features.shape[0])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        loss = libm.scalar_map(_C_LOG[features.dtype.name], s) - sh[rows, labels]
        backprop = whole / s[:, None]
        backprop[rows, labels] -= 1
    return loss, backprop
