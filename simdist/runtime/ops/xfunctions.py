"""Binary functions with a zero guard and two-argument arctangent (tf.math.xlogy, xdivy,
xlog1py, multiply_no_nan, atan2), each one declaration with its gradient as TF 2.21's
math_grad.py registers it, and its facade function.

The guards follow TF's Eigen functors: xlogy/xdivy/xlog1py give 0 where x == 0 (even for
y = 0, inf or NaN), multiply_no_nan gives +0 where y == 0 (even for x = inf or NaN). A zero x
gives +0.0 in TF's scalar path and x itself in its SIMD packets, so -0.0 stays -0.0 for the
elements of full packets of the output's flat order (simd.py), broadcast operands included
(docs/spec.md `ops.xfunctions`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.ops import args
from simdist.runtime.ops.registry import RegisterGradient, binary
from simdist.runtime.ops.simd import XFUNC_LANES, packet_mask
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["xlogy", "xdivy", "xlog1py", "multiply_no_nan", "atan2"]

_HALF_UP = "half, bfloat16, float, double, complex64, complex128"


def _zero_where_x_zero(fn: Any, lanes: dict[str, int] = XFUNC_LANES) -> Any:
    def forward(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            r = np.asarray(fn(x, y))
            zero = np.zeros((), r.dtype)
            # Eigen's packets return x itself (its register: broadcast too, x a scalar included)
            packet = packet_mask(r.shape, r.dtype, lanes)
            if packet is not None:
                zero = np.where(packet, np.broadcast_to(x, r.shape), zero)
            if x.dtype.kind == "c":   # x == 0 reads the parts under DAZ (measured: a packet returns x = -1e-40j)
                tiny = np.finfo(x.real.dtype).tiny
                return np.where((np.abs(x.real) < tiny) & (np.abs(x.imag) < tiny), zero, r).astype(r.dtype, copy=False)
            return np.where(x == 0, zero, r).astype(r.dtype, copy=False)
    forward.__name__ = fn.__name__
    return forward


def _complex_times(x: np.ndarray, fy: np.ndarray) -> np.ndarray:
    """x * f(y) of complex arrays as TF's functor: Mul's product (packets textbook, tail Annex G)."""
    from simdist.runtime.ops import complex_mul
    xb, fb = np.broadcast_arrays(x, fy)
    return complex_mul.multiply(xb, fb)


def _bf16_times_nans(x: np.ndarray, fy: np.ndarray, r: np.ndarray) -> np.ndarray:
    """bfloat16 Xlogy/Xlog1py's x · f(y) through float32: a NaN result takes x's NaN's sign first, then f(y)'s, as
    float_to_bfloat16_rtne's sign-only NaN (xlogy(0x7f81, -inf) is 0x7fc0, xlogy(0x7fc1, -1) 0x7fc0; TF 2.21,
    bsweep65; the packets' +0x7fc0 is `_bf16_nans`')."""
    f = r.astype(np.float32)
    nan = np.isnan(f)
    if not nan.any():
        return r
    xb, fb = (np.broadcast_to(np.asarray(v).astype(np.float32), r.shape) for v in (x, fy))
    neg = np.where(np.isnan(xb), np.signbit(xb), np.where(np.isnan(fb), np.signbit(fb), np.signbit(f)))
    out = np.array(r, copy=True)
    out.view(np.uint16)[nan] = np.where(neg, 0xFFC0, 0x7FC0).astype(np.uint16)[nan]
    return out


def _times(x: np.ndarray, fy: np.ndarray, packets_x_first: bool = True) -> np.ndarray:
    """x · f(y) of float32/float64 as the x-functors' compiled product returns a NaN, quieted: the scalar tail's
    multiply has its operands swapped (f(y)'s NaN first: xlogy(0x7fc01234, 0x7fa00000) is 0x7fe00000,
    xlogy(0x7f800001, -inf) log's 0xffc00000), the packets' pmul(x, f(y)) x's first unless `packets_x_first` is
    False (MulNoNan's float32/float64: y's first everywhere; its float16's packets x's, the tail y's); float16's Xlogy
    and Xlog1py x's first everywhere. TF 2.21, bsweep65. A NaN of
    neither (inf · 0) as computed."""
    r = x * fy
    if getattr(r, "dtype", None) is not None and r.dtype.name == "bfloat16" and r.size and packets_x_first:
        return _bf16_times_nans(x, fy, np.asarray(r))
    if getattr(r, "dtype", None) is None or r.dtype.name not in ("float32", "float64", "float16") or not r.size:
        return r
    from simdist.runtime.ops.nan_operands import first_nan
    r = np.asarray(r)
    swapped = first_nan(r, fy, x)
    straight_first = first_nan
    if r.dtype == np.float16 and packets_x_first:   # (float16's Xlogy/Xlog1py: x's first everywhere)
        return straight_first(r, x, fy)
    if not packets_x_first and r.dtype != np.float16:
        return swapped
    straight = first_nan(r, x, fy)
    packet = packet_mask(r.shape, r.dtype, XFUNC_LANES)
    return swapped if packet is None else np.where(packet, straight, swapped)


def _xlogy(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c":   # x * log(y): Log's complex kernel (complex_unary.py), the product
        from simdist.runtime.ops.complex_unary import KERNELS
        return _complex_times(x, KERNELS["Log"](np.broadcast_to(y, np.broadcast_shapes(x.shape, y.shape))))
    return _times(x, _over_output(_log_kernel, x, y))


def _over_output(fn: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """fn (a whole-tensor kernel) of y broadcast to the output's shape: the functor's packets and
    scalar tail split the output's flat order (ops.eigen-kernels)."""
    return fn(np.array(np.broadcast_to(y, np.broadcast_shapes(x.shape, y.shape)), order="C"))   # (0-d stays 0-d)


def _log_kernel(y: np.ndarray) -> np.ndarray:
    """xlogy_op's log: scalar_log_op's packets (plog) and numext::log on the tail, as the Log
    kernel (packet_math.log; not NumPy's log, which is dispatched per CPU: ops.host-cpu)."""
    from simdist.runtime.ops import packet_math
    return packet_math.log(y)


def _log1p_kernel(y: np.ndarray) -> np.ndarray:
    """xlog1py_op's log1p: scalar_log1p_op's packets (generic_log1p) and std::log1p on the tail,
    as the Log1p kernel (packet_math.log1p); NumPy's for a dtype it does not model."""
    from simdist.runtime.ops import packet_math
    out = packet_math.log1p(y)
    return np.log1p(y) if out is None else out


def _xdivy(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c":
        from simdist.runtime.ops.complex_div import divide
        return divide(x, y)
    return x / y


def _xlog1py(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c":   # no complex packets (Log1p has none): std::complex's product on every element
        from simdist.runtime.ops.complex_unary import KERNELS, _scalar_mul
        xb, fb = np.broadcast_arrays(x, KERNELS["Log1p"](np.broadcast_to(y, np.broadcast_shapes(x.shape, y.shape))))
        return _scalar_mul(xb, fb)
    fy = _over_output(_log1p_kernel, x, y)
    if fy.dtype == np.float16:   # (a NaN y is itself, quieted, not Log1p's all-ones packet NaN: bsweep65)
        from simdist.runtime.ops.nan_operands import quieted
        yb = np.broadcast_to(y, fy.shape)
        fy = np.where(np.isnan(yb), quieted(np.array(yb)), fy)
    return _times(x, fy)


def _mul_no_nan(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c":   # (complex: Eigen's product, packets and Annex G's tail, under DAZ/FTZ
        # (complex_mul); zero where y == 0, its parts read under DAZ: fuzz20 seed 2720261205 #21)
        from simdist.runtime.ops import complex_mul
        from simdist.runtime.subnormals import flushed
        xb, yb = np.broadcast_arrays(x, y)
        r = complex_mul.multiply(np.ascontiguousarray(xb), np.ascontiguousarray(yb))
        zero = (flushed(np.ascontiguousarray(yb.real)) == 0) & (flushed(np.ascontiguousarray(yb.imag)) == 0)
        # (np.ascontiguousarray makes a 0-d array 1-d: the result takes the broadcast shape back, or MulNoNan
        # of two complex scalars was a [1] tensor; fz32a, function seed 3220261205 #143; fz32b, fz14 seed
        # 1420323002 #132)
        return np.where(zero, np.zeros((), r.dtype), r).astype(r.dtype, copy=False).reshape(xb.shape)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        r = _times(x, y, packets_x_first=False)
        return np.where(y == 0, np.zeros((), r.dtype), r).astype(r.dtype, copy=False)


def _atan2(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """float32/float64: Eigen's patan2 in packets, glibc's atan2 in the tail, under DAZ/FTZ
    (packet_atan2.py); bfloat16: glibc's atan2f on every element's float32 value (no packets), under DAZ/FTZ after
    its bit tests, rounded: `atan2(bfloat16 9.2e-41, 0)` is pi/2 at any position, `atan2(9.2e-41, 1)` keeps 9.2e-41,
    `atan2(9.2e-41, 9.2e-41)` is NaN (0 / 0), observed on TF 2.21 (fz49, third generator --ext seed 4902 #160; the
    inputs reach it unflushed: subnormals `_atan2_rule`); float16: atan2f of each element, rounded (NumPy's)."""
    from simdist.runtime.ops import packet_atan2
    out = packet_atan2.atan2(y, x)
    if out is not None:
        return out
    if y.dtype == x.dtype and y.dtype.name == "bfloat16":
        yb, xb = np.broadcast_arrays(y, x)
        flat = packet_atan2.tail(np.ascontiguousarray(yb, np.float32).ravel(), np.ascontiguousarray(xb, np.float32).ravel())
        return flat.astype(y.dtype).reshape(yb.shape)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        return np.arctan2(y, x)


def _flops(n: int) -> Any:
    return lambda arrays, out, attrs: n * out.size


def _bf16_nans(fn: Any) -> Any:
    """fn with math._bf16_packet_nans's bfloat16 NaN bits (packets 0x7fc0, the tail's float NaN's sign: TF 2.21's
    Xlogy, Xdivy, Xlog1py and MulNoNan, bsweep65)."""
    def kernel(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        from simdist.runtime.ops.math import _bf16_packet_nans
        return _bf16_packet_nans(fn)(x, y)
    kernel.__name__ = getattr(fn, "__name__", "kernel")
    return kernel


# bfloat16's packets (Packet8bf, computed through float32) select x itself where x == 0 as the other types' do
# (fz38a: xlog1py(-0.0, y) is -0.0 in a packet of bfloat16; the subnormal x: subnormals._bf16_x_times)
_X_LANES = {**XFUNC_LANES, "bfloat16": 8}
XLOGY = binary("Xlogy", _bf16_nans(_zero_where_x_zero(_xlogy, _X_LANES)), args.allowed("Xlogy", "f", _HALF_UP), _flops(2))
XDIVY = binary("Xdivy", _bf16_nans(_zero_where_x_zero(_xdivy, _X_LANES)), args.allowed("Xdivy", "f", _HALF_UP), _flops(1))
XLOG1PY = binary("Xlog1py", _bf16_nans(_zero_where_x_zero(_xlog1py, {k: v for k, v in _X_LANES.items() if k[0] != "c"})),
                 args.allowed("Xlog1py", "f", _HALF_UP), _flops(2))
MUL_NO_NAN = binary("MulNoNan", _bf16_nans(_mul_no_nan),
                    args.allowed("MulNoNan", "f", "bfloat16, half, float, double, complex64, complex128"), _flops(1))
ATAN2 = binary("Atan2", _atan2, args.allowed("Atan2", "f", "bfloat16, half, float, double"), _flops(1))


def _call(op: Any, x: Any, y: Any) -> Tensor:
    from simdist.runtime.ops import math
    return math._checked_binary(op, x, y)


def xlogy(x: Any, y: Any, name: str | None = None) -> Tensor:
    """`tf.math.xlogy`: x * log(y), and 0 where x == 0."""
    return _call(XLOGY, x, y)


def xdivy(x: Any, y: Any, name: str | None = None) -> Tensor:
    """`tf.math.xdivy`: x / y, and 0 where x == 0."""
    return _call(XDIVY, x, y)


def xlog1py(x: Any, y: Any, name: str | None = None) -> Tensor:
    """`tf.math.xlog1py`: x * log1p(y), and 0 where x == 0."""
    return _call(XLOG1PY, x, y)


def multiply_no_nan(x: Any, y: Any, name: str | None = None) -> Tensor:
    """`tf.math.multiply_no_nan`: x * y, and 0 where y == 0 (even for x = inf or NaN). As TF's
    wrapper, x is converted first and y to x's dtype: a tensor y of another dtype is ValueError."""
    from simdist.runtime.ops import math
    xt = args.t(x)
    if math._tensorlike(y):
        yt = args.t(y)
        if yt.dtype != xt.dtype:
            raise ValueError(f"Tensor conversion requested dtype {xt.dtype.name} for Tensor with dtype "
                             f"{yt.dtype.name}: {yt!r}")
    else:
        yt = convert_to_tensor(y, dtype=xt.dtype)
    MUL_NO_NAN.dtype((xt.dtype, yt.dtype), None)
    return math.binary(MUL_NO_NAN, xt, yt)


def atan2(y: Any, x: Any, name: str | None = None) -> Tensor:
    """`tf.math.atan2(y, x)`: the angle of (x, y), as C's atan2."""
    return _call(ATAN2, y, x)


# --- gradients, as TF 2.21's math_grad.py -------------------------------------------------------------
def _not_zero(x: Any) -> Any:
    from simdist.runtime.ops import math
    return math.cast(math.not_equal(x, math.cast(0.0, x.dtype)), x.dtype)


def _reduced(op: Any, gx: Any, gy: Any) -> list:
    from simdist.runtime.ops import math
    sx, sy = math._shapes(op)
    return [math.unbroadcast(gx, sx), math.unbroadcast(gy, sy)]


@RegisterGradient("Xlogy")
def _xlogy_grad(op: Any, grad: Any) -> list:
    x, y = op.inputs
    return _reduced(op, xlogy(_not_zero(x), y) * grad, xdivy(x, y) * grad)


@RegisterGradient("Xlog1py")
def _xlog1py_grad(op: Any, grad: Any) -> list:
    x, y = op.inputs
    return _reduced(op, xlog1py(_not_zero(x), y) * grad, xdivy(x, y + 1.0) * grad)


@RegisterGradient("Xdivy")
def _xdivy_grad(op: Any, grad: Any) -> list:
    x, y = op.inputs
    return _reduced(op, xdivy(_not_zero(x), y) * grad, xdivy(-x, y ** 2) * grad)


@RegisterGradient("MulNoNan")
def _mul_no_nan_grad(op: Any, grad: Any) -> list:
    x, y = op.inputs
    return _reduced(op, multiply_no_nan(grad, y), multiply_no_nan(x, grad))


@RegisterGradient("Atan2")
def _atan2_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.unary import square
    y, x = op.inputs
    grad_inv = grad / (square(y) + square(x))
    return _reduced(op, x * grad_inv, -y * grad_inv)
