"""Subnormal floats as TF 2.21's CPU kernels treat them: flush-to-zero and denormals-are-zero.

TF runs every CPU kernel with the FTZ and DAZ bits of the x86 MXCSR set (port::ScopedFlushDenormal in
the executor's and the eager kernel runner's threads, and in every thread of its Eigen thread pools):
a kernel's arithmetic reads a subnormal float32/float64 operand as a zero of its sign (DAZ) and
writes a zero of its sign for a subnormal result (FTZ). Kernels that only move bits (reshape, gather,
concat, where, neg, abs, bitcast...) keep them. float16 computes in float32, where float16's
subnormals are normal numbers: they survive; bfloat16 computes in float32 too, with float32's range:
it flushes like float32. Each op declares its rule (`OpDef.subnormals`, clause `ops.subnormals`):

- FLUSH: DAZ on the float inputs, FTZ on the float outputs (the default of computing kinds);
- KEEP: neither (the default of data-movement kinds; bit ops);
- a function `(in_dtypes, attrs) -> FLUSH | KEEP` for ops whose kernel depends on its dtypes (Cast).

What it costs. A check of every output for subnormals costs about 1.5 additions on a large array
and several on a small one, so dispatch avoids it: a subnormal result of an inexact operation raises
the FPU's underflow flag, which NumPy already reads after every ufunc (and BLAS call); with NumPy's
underflow mode set to "call" (`install`, at import) its callback notes it, and dispatch checks the
output only when the note is set. Subnormal inputs can only come from values made outside an op
(constants, NumPy values, variables assigned them) and from KEEP ops on those: such tensors carry a
mark (`Tensor._sub`), set once where they are made, and a FLUSH op reads marked inputs flushed.

Not modelled (docs/spec.md `ops.subnormals`): an exact subnormal result of normal operands (a sum of
normal numbers that cancels to below 2^-126 is exact, so raises no flag: TF flushes it, simdist
keeps it), and transcendental NumPy kernels that do not raise the flag on their subnormal results
are checked in full instead (`CHECKED`).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

__all__ = ["FLUSH", "KEEP", "CHECK", "install", "fired", "reset", "holds", "flushed", "mark_made", "rule_for", "RULES"]

FLUSH = "flush"
KEEP = "keep"

# The float types whose subnormals TF's kernels flush, as NumPy dtypes: their smallest normal number.
_TINY: dict[Any, float] = {np.dtype(np.float32): float(np.finfo(np.float32).tiny),
                           np.dtype(np.float64): float(np.finfo(np.float64).tiny),
                           np.dtype(ml_dtypes.bfloat16): float(ml_dtypes.finfo(ml_dtypes.bfloat16).tiny)}
FLUSHED_TYPES = frozenset(_TINY)

# Set by NumPy's floating-point error callback when an operation underflowed (see `install`).
_fired = [False]


def _on_error(kind: str, flag: int) -> None:
    # NumPy calls this for each error category whose mode is "call": only "under" is set so.
    if kind == "underflow":
        _fired[0] = True


def install() -> None:
    """Let NumPy note underflows (mode "call" for underflow only; the others keep their modes) in
    the current thread's context (NumPy's error state is per thread)."""
    np.seterrcall(_on_error)
    np.seterr(under="call")


def fired() -> bool:
    """Whether an underflow was noted since the last `reset`."""
    return _fired[0]


def reset() -> None:
    _fired[0] = False


def holds(a: np.ndarray) -> bool:
    """Whether array `a` (of any dtype) holds a subnormal float32/float64/bfloat16 number."""
    tiny = _TINY.get(a.dtype)
    if tiny is None or a.size == 0:
        return False
    m = np.abs(a.astype(np.float32) if a.dtype == ml_dtypes.bfloat16 else a)
    return bool(np.any((m < tiny) & (m > 0)))


def flushed(a: np.ndarray) -> np.ndarray:
    """`a` with each subnormal replaced by a zero of its sign (a new array when any is)."""
    tiny = _TINY.get(a.dtype)
    if tiny is None or a.size == 0:
        return a
    m = np.abs(a.astype(np.float32) if a.dtype == ml_dtypes.bfloat16 else a)
    sub = (m < tiny) & (m > 0)
    if not sub.any():
        return a
    out = np.array(a, copy=True)
    out[sub] = np.copysign(np.zeros((), a.dtype), a[sub]) if a.dtype != ml_dtypes.bfloat16 \
        else np.where(np.signbit(a[sub].astype(np.float32)), -0.0, 0.0).astype(a.dtype)
    return out


def mark_made(t: Any) -> Any:
    """Tensor `t`, made from a value outside an op (a constant, a NumPy array, a variable's value),
    marked when it holds subnormals, so that FLUSH ops read them as zeros. Returns t."""
    if t._v.dtype in FLUSHED_TYPES and holds(t._v):
        t._sub = True
    return t


def cast_rule(arrays: Any, attrs: dict | None) -> str:
    """Cast: a cast to the same dtype is the input itself; float32 to bfloat16 rounds the bits
    (Eigen's float_to_bfloat16_rtne), keeping a subnormal; every other cast computes (a subnormal
    float64 to float32 result is flushed, a subnormal float32 input to float64 or bool is zero)."""
    src = arrays[0].dtype
    dst = (attrs or {}).get("DstT")
    dst = src if dst is None else dst._np
    if dst == src or (src == np.float32 and dst == ml_dtypes.bfloat16):
        return KEEP
    return FLUSH


# Ops whose forwards are NumPy kernels that compute a subnormal result without raising the
# underflow flag (NumPy's SIMD exp, the sigmoid built on it...): their outputs are checked in full.
CHECKED: frozenset[str] = frozenset({"Exp", "Sigmoid", "Softplus", "Erfc", "Pow", "Softmax", "LogSoftmax", "Expm1"})


CHECK = "check"


def _log_rule(arrays: Any, attrs: dict | None) -> str:
    # Eigen's float32 plog takes the exponent from the bits (pfrexp), so a subnormal's log is its
    # true log (log(1e-39) is -89.8 in TF); float64's Log is std::log, which reads it as 0 (-inf)
    return KEEP if arrays[0].dtype == np.float32 else FLUSH


def _reduction_rule(arrays: Any, attrs: dict | None) -> str:
    # TF's reduction kernels copy their input when every reduced axis has size 1 (or none is
    # reduced): reduce_sum([1e-39]) is 1e-39 (reduction_ops_common.h, ReductionHelper)
    a = arrays[0]
    axis = (attrs or {}).get("axis")
    if axis is None:
        return KEEP if a.size == 1 else FLUSH
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    for ax in axes:
        if a.ndim and a.shape[int(ax)] != 1:
            return FLUSH
    return KEEP


# Ops whose kernels treat subnormals otherwise than their kind's default (measured on TF 2.21,
# tests/ops/test_subnormals_tf.py): bit ops and selections keep them; reductions copy when they
# reduce nothing; segment and scatter ops that add compute; the NumPy kernels of CHECKED ops are
# checked in full.
RULES: dict[str, Any] = {
    "Neg": KEEP, "Abs": KEEP, "SelectV2": KEEP, "Sin": KEEP, "Cast": cast_rule, "Log": _log_rule,
    "Sum": _reduction_rule, "Mean": _reduction_rule, "Max": _reduction_rule, "Min": _reduction_rule,
    "Prod": _reduction_rule,
    "UnsortedSegmentSum": FLUSH, "SegmentSum": FLUSH, "SegmentMax": FLUSH, "SegmentMin": FLUSH,
    "SegmentProd": FLUSH, "SegmentMean": FLUSH, "UnsortedSegmentMax": FLUSH, "UnsortedSegmentMin": FLUSH,
    "UnsortedSegmentProd": FLUSH, "ScatterNd": FLUSH, "TensorScatterAdd": FLUSH, "TensorScatterSub": FLUSH,
    "TensorScatterMax": FLUSH, "TensorScatterMin": FLUSH, "DenseBincount": FLUSH, "InTopKV2": FLUSH,
    "LowerBound": FLUSH, "UpperBound": FLUSH,
}
for _name in CHECKED:
    RULES.setdefault(_name, CHECK)
RULES.update({"Elu": CHECK, "Selu": CHECK, "SoftmaxCrossEntropyWithLogits": CHECK,
              "SparseSoftmaxCrossEntropyWithLogits": CHECK, "CumulativeLogsumexp": CHECK})

_KIND_DEFAULT = {"elementwise": FLUSH, "reduction": FLUSH, "scan": FLUSH, "contraction": FLUSH, "nn": FLUSH,
                 "window": FLUSH}


def rule_for(name: str, kind: str) -> Any:
    """An op's rule unless its registration states one: RULES, else its kind's default."""
    r = RULES.get(name)
    return r if r is not None else _KIND_DEFAULT.get(kind, KEEP)
