"""Element-wise functions of one tensor (neg, abs, sqrt, exp, log, ...), with their gradients.

Gradients use the Tensor operators (installed by ops.math), so they are dispatched ops too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import args, complex_unary, dispatch
from simdist.runtime.ops.packet_math import bf16_packets
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import RegisterGradient, unary
from simdist.runtime.ops.simd import XFUNC_LANES, packet_mask
from simdist.runtime.tensor import Tensor

__all__ = ["negative", "abs_", "sign", "sqrt", "exp", "log", "square", "log1p", "reciprocal", "floor", "ceil",
           "round_", "rsqrt", "is_nan", "is_finite", "is_inf"]

# TF's attr-T lists (what the op's kernel registration accepts), as their kind letters and message text.
_FLOAT = ("f", "bfloat16, half, float, double")
_FLOAT_C = ("fc", "bfloat16, half, float, double, complex64, complex128")
_SIGNED = ("fi", "bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128")
_ABS = ("fi", "bfloat16, half, float, double, int8, int16, int32, int64")
_SQUARE = ("fiu", "bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, uint32, uint64, "
           "complex64, complex128")


def _rule(name: str, kinds: tuple[str, str]) -> Any:
    return args.allowed(name, kinds[0], kinds[1])


def _quiet(fn: Any) -> Any:
    """fn without NumPy's floating-point warnings: log(0) = -inf, log(-1) = nan, 1/0 = inf,
    exp(1000) = inf, as TF computes them silently. (ops.math also filters these warnings, which
    costs nothing, but a filter installed inside a `warnings.catch_warnings` block, as pytest
    wraps every test and collection in, does not outlive it: the ops that routinely make
    non-finite values silence NumPy themselves.)"""
    def forward(a: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            return fn(a)
    forward.__name__ = getattr(fn, "__name__", "forward")
    return forward


def _reciprocal_rule(dts: Any, attrs: Any) -> dtypes.DType:
    """Reciprocal's op def allows integers, but TF's CPU kernels are floating and complex only: NotFoundError."""
    d = _rule("Reciprocal", _SIGNED)(dts, attrs)
    if d.kind not in "fc":
        raise errors.NotFoundError(None, None, "Could not find device for node: {{node Reciprocal}} = "
                                   f"Reciprocal[T=DT_{d.name.upper()}] [Op:Reciprocal]")
    return d


def _rsqrt(a: np.ndarray) -> np.ndarray:
    """1/sqrt(x). float32: Eigen's prsqrt (vrsqrtps + a Newton step) in packets of 8, 1/sqrt in the
    tail (rcp.py, ops.eigen-kernels); float16/bfloat16: float32's prsqrt on packets of 8 rounded to
    the half type, and in the tail the half type's sqrt and then its division (two roundings; NumPy's
    float16 sqrt then reciprocal differed from TF 2.21 on 10 of 64 values, one float32 rounding on 132
    of bfloat16's 32,639 positive values)."""
    if a.dtype.itemsize == 2 and a.dtype.kind in "fV":
        from simdist.runtime.ops.rcp import rsqrt_packet
        flat = np.ascontiguousarray(a).ravel().astype(np.float32)
        k = (flat.size // 8) * 8
        out = np.empty(flat.size, a.dtype)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out[:k] = rsqrt_packet(flat[:k]).astype(a.dtype)
            if a.dtype.kind == "V" or a.dtype.name == "bfloat16":   # (F32ToBf16's packet makes every NaN 0x7FC0)
                out[:k] = np.where(np.isnan(out[:k].astype(np.float32)), np.float32(np.nan), out[:k].astype(np.float32)).astype(a.dtype)
            out[k:] = (np.float32(1) / np.sqrt(flat[k:]).astype(a.dtype).astype(np.float32)).astype(a.dtype)
        return out.reshape(a.shape)
    if a.dtype == np.float32:
        from simdist.runtime.ops.rcp import rsqrt
        return rsqrt(a)
    return np.reciprocal(np.sqrt(a))


def _round(a: np.ndarray) -> np.ndarray:
    """Banker's rounding (half to even), as TF's Round: np.round does the same. TF 2.21's int32 and
    int64 kernels return 0 everywhere: cwise_ops.h's scalar_round_half_to_even_op is specialized for
    integers only where the packet type lacks rint (<Scalar, true, false>); the wheel's Eigen gives
    int packets HasRint, so the float template runs, where Scalar(0.5) is 0: floor(x + 0) - x == 0
    is the "half" case, 2 * floor(0 * x + 0) = 0 (fuzz20 seed 2520261201 #73; tf.round of an integer
    tensor runs no op)."""
    return np.zeros_like(a) if a.dtype.kind in "iu" else np.round(a)


NEG = unary("Neg", np.negative, _rule("Neg", _SIGNED))
ABS = unary("Abs", np.abs, _rule("Abs", _ABS))
def _sign(a: np.ndarray) -> np.ndarray:
    """np.sign; bfloat16 through float32, whose sign of -0.0 is +0.0 as TF's (ml_dtypes' bfloat16
    ufunc keeps -0.0: fuzz2 seed 20261130 #89); a NaN's bits as TF's kernel leaves them (`_sign_nans`)."""
    if a.dtype.name == "bfloat16":
        return _sign_nans(a, np.sign(a.astype(np.float32)).astype(a.dtype))
    if a.dtype.kind == "c":
        return _complex_sign(a)
    return _sign_nans(a, np.sign(a))


# Sign's packets: 8 float32/float16/bfloat16 or 4 float64 elements (measured on TF 2.21, blind64a's p_sign.py)
_SIGN_LANES = {"float32": 8, "float64": 4, "float16": 8, "bfloat16": 8}


def _sign_nans(a: np.ndarray, out: np.ndarray) -> np.ndarray:
    """TF 2.21's float Sign of a NaN is the NaN itself: its payload kept and a signalling NaN not quieted, with
    its sign bit cleared in the packets (Eigen's psign: the NaN lanes taken from |x|) and kept in the scalar
    tail (the first (n // P) * P elements in flat order are packets, P in _SIGN_LANES). NumPy's sign quiets
    and keeps the sign (clause ops.packet-paths; blind64a: keras.ops.cbrt of a negative NaN)."""
    if a.dtype.name not in _SIGN_LANES:
        return out
    nan = np.isnan(a)
    if not nan.any():
        return out
    u = np.dtype(f"u{a.dtype.itemsize}")
    bits = np.array(a, copy=True).view(u)
    mask = packet_mask(a.shape, a.dtype, _SIGN_LANES)
    if mask is not None:
        bits[mask & nan] &= u.type((1 << (8 * u.itemsize - 1)) - 1)
    res = np.array(out, a.dtype, copy=True).view(u)
    res[nan] = bits[nan]
    return res.view(a.dtype)


def _complex_sign(a: np.ndarray) -> np.ndarray:
    """TF 2.21's complex Sign, Eigen's two paths (simd.py's packet lanes: 4 complex64, 2 complex128),
    the parts read under DAZ and written under FTZ:
    - packets (psign_impl, GenericPacketMathFunctions.h): per part, m = max and n = min of |x|, |y|
      as vmaxps/vminps pick them (a NaN comparison keeps the part's own |.|), l = m·sqrt(1 + (n/m)²)
      (m itself where n is 0), the part divided by l, 0 where m is 0: inf + 0j is NaN + 0j, nan + 1j
      is NaN + 0.7071j;
    - the scalar tail (sign_impl): a = hypot(x, y), 0 where a is 0, else each part times 1 / a.
    Bit for bit with TF on 4003 random values of each dtype (fz24a; fuzz20 seed 2420261202 #67,
    which the earlier Smith division missed in both paths by an ulp)."""
    part = np.float32 if a.dtype == np.complex64 else np.float64
    tiny = np.finfo(part).tiny

    def ftz(v: np.ndarray) -> np.ndarray:   # (DAZ on the parts read, FTZ on the parts written)
        return np.where(np.abs(v) < tiny, v * part(0), v)

    re, im = ftz(a.real.astype(part)), ftz(a.imag.astype(part))
    ar, ai = np.abs(re), np.abs(im)
    with np.errstate(all="ignore"):
        packet = []
        for own, other, v in ((ar, ai, re), (ai, ar, im)):
            big, small = np.where(other > own, other, own), np.where(other < own, other, own)
            r = small / big
            length = np.where(small == 0, big, big * np.sqrt(part(1) + r * r))
            packet.append(np.where(big == 0, part(0), v / length))
    mask = packet_mask(a.shape, a.dtype, XFUNC_LANES)
    from simdist.runtime.ops import libm   # (std::abs of the tail's elements: the C library's hypot, never
    h = np.zeros(a.shape, part)            # NumPy's, whose loop is SVML's on AVX-512 hosts)
    at = np.ones(a.shape, bool) if mask is None else ~mask
    h[at] = libm.elementwise("hypotf" if part is np.float32 else "hypot", re[at], im[at])
    with np.errstate(all="ignore"):
        inv = part(1) / h
        tail = (np.where(h == 0, part(0), re * inv), np.where(h == 0, part(0), im * inv))
    out = np.empty(a.shape, a.dtype)
    if mask is None:
        out.real, out.imag = ftz(tail[0]), ftz(tail[1])
    else:
        out.real, out.imag = ftz(np.where(mask, packet[0], tail[0])), ftz(np.where(mask, packet[1], tail[1]))
    return out


SIGN = unary("Sign", _sign, _rule("Sign", _SIGNED))
SQRT = unary("Sqrt", bf16_packets(complex_unary.kernel("Sqrt", _quiet(np.sqrt))), _rule("Sqrt", _FLOAT_C))
def _exp(a: np.ndarray) -> np.ndarray:
    """TF's Exp kernel on a float array (Eigen's packet exp and the C library's tail): the one exp
    every kernel that evaluates `x.exp()` over a whole tensor shares (Elu, Selu: ops.host-cpu)."""
    if a.dtype == np.float32 or (a.dtype.itemsize == 2 and a.dtype.kind in "fV"):   # Eigen's pexp_float in
        # packets, expf in the tail; float16/bfloat16 through them (ops.eigen-kernels)
        from simdist.runtime.ops import packet_math
        return packet_math.exp(a)
    from simdist.runtime.ops.packet_exp import exp
    return exp(a)


def _log(a: np.ndarray) -> np.ndarray:
    """Eigen's plog_float/plog_double in packets, logf/log in the tail (ops.eigen-kernels)."""
    from simdist.runtime.ops import packet_math
    return packet_math.log(a)


eigen_exp = _exp
EXP = unary("Exp", bf16_packets(complex_unary.kernel("Exp", _exp)), _rule("Exp", _FLOAT_C))
LOG = unary("Log", complex_unary.kernel("Log", _quiet(_log)), _rule("Log", _FLOAT_C))
def _square(a: np.ndarray) -> np.ndarray:
    """np.square; complex as TF's scalar_square_op, a * a with Mul's kernel (complex_mul.py, its packets' imaginary NaN
    Square's); bfloat16's NaN as its
    tail's a * a (x86's mulss: a's sign) and its packets' 0x7fc0 (bf16_packets)."""
    if a.dtype.kind == "c":
        from simdist.runtime.ops import complex_mul
        return complex_mul.multiply(a, a, square=True)
    out = np.square(a)
    if a.dtype.name == "bfloat16" and out.size:
        nan = np.isnan(a)
        if nan.any():
            out = np.array(out, copy=True)
            out[nan] = np.where(np.signbit(a[nan]), -np.float32("nan"), np.float32("nan")).astype(a.dtype)
    return out


SQUARE = unary("Square", bf16_packets(_square), _rule("Square", _SQUARE))
def _log1p(a: np.ndarray) -> np.ndarray:
    """float32/float64: Eigen's generic_log1p in packets, the C library's in the tail (ops.eigen-kernels)."""
    from simdist.runtime.ops import packet_math
    out = packet_math.log1p(a)
    return np.log1p(a) if out is None else out


LOG1P = unary("Log1p", complex_unary.kernel("Log1p", _quiet(_log1p)), _rule("Log1p", _FLOAT_C))
def _reciprocal(a: np.ndarray) -> np.ndarray:
    """float32: Eigen's preciprocal (vrcpps + a Newton step) in packets of 8, 1/x in the tail
    (rcp.py, ops.eigen-kernels); complex: Eigen's scalar_inverse_op, 1 / x as RealDiv divides;
    other dtypes 1/x."""
    if a.dtype == np.float32:
        from simdist.runtime.ops.rcp import reciprocal
        return reciprocal(a)
    if a.dtype.name == "bfloat16":   # (Packet8bf: float32's preciprocal rounded to bfloat16, so the estimate's flushed
        from simdist.runtime.ops.rcp import reciprocal_packet   # top binade: 1/2^126 is 0; usweep58 u-unary-reciprocal)
        flat = np.ascontiguousarray(a).ravel().astype(np.float32)
        k = (flat.size // 8) * 8
        out = np.empty(flat.size, a.dtype)
        out[:k] = reciprocal_packet(flat[:k]).astype(a.dtype)
        out[k:] = (np.float32(1) / flat[k:]).astype(a.dtype)
        return out.reshape(a.shape)
    if a.dtype.kind == "c":
        from simdist.runtime.ops.complex_div import divide
        return divide(np.ones((), a.dtype), a)
    return np.reciprocal(a)


RECIPROCAL = unary("Reciprocal", bf16_packets(_quiet(_reciprocal)), _reciprocal_rule)
FLOOR = unary("Floor", bf16_packets(np.floor), _rule("Floor", _FLOAT))
CEIL = unary("Ceil", bf16_packets(np.ceil), _rule("Ceil", _FLOAT))
ROUND = unary("Round", bf16_packets(_round), args.listed_no_complex_kernel("Round", *_SIGNED))
RSQRT = unary("Rsqrt", complex_unary.kernel("Rsqrt", _quiet(_rsqrt)), _rule("Rsqrt", _FLOAT_C))
_BOOL_FLAG = args.zero_flops


def _flag_rule(name: str) -> Any:
    base = _rule(name, _FLOAT)

    def rule(dts: Any, attrs: Any) -> Any:
        base(dts, attrs)
        return dtypes.bool_
    return rule


IS_NAN = unary("IsNan", np.isnan, _flag_rule("IsNan"), _BOOL_FLAG)
IS_FINITE = unary("IsFinite", np.isfinite, _flag_rule("IsFinite"), _BOOL_FLAG)
IS_INF = unary("IsInf", np.isinf, _flag_rule("IsInf"), _BOOL_FLAG)
for _n in ("Floor", "Ceil", "Round"):   # TF's gradients of these return [None]
    RegisterGradient(_n)(lambda op, grad: [None])
# IsNan, IsFinite and IsInf have no gradient in TF (none registered, not NotDifferentiable): a
# gradient reaching one is TF's LookupError; one through tf.where's condition never does
def _register_flag_gradients() -> None:
    from simdist.runtime.ops.counting import no_tf_gradient
    for n in ("IsNan", "IsFinite", "IsInf"):
        no_tf_gradient(n)


_register_flag_gradients()


def _unary(op: Any, x: Any) -> Tensor:
    return dispatch.execute(op, (_t(x),))


def negative(x: Any, name: str | None = None) -> Tensor:
    return _unary(NEG, x)


def abs_(x: Any, name: str | None = None) -> Tensor:
    """`tf.abs`: Abs; a complex tensor's modulus is ComplexAbs, of its parts' dtype (math_ops.abs)."""
    t = _t(x)
    if t.dtype.kind == "c":
        from simdist.runtime.ops.complex_math import complex_abs
        return complex_abs(t)
    return dispatch.execute(ABS, (t,))


def sign(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.sign`: Sign; of a complex tensor TF's composite (math_ops.sign), DivNoNan(x,
    Cast(ComplexAbs(x))), whose ops carry the gradient (Sign's own gradient is zeros; fz13)."""
    t = _t(x)
    if t.dtype.kind == "c":
        from simdist.runtime.ops import math
        from simdist.runtime.ops.complex_math import complex_abs
        return math.divide_no_nan(t, math.cast(complex_abs(t), t.dtype))
    return _unary(SIGN, t)


def sqrt(x: Any, name: str | None = None) -> Tensor:
    return _unary(SQRT, x)


def exp(x: Any, name: str | None = None) -> Tensor:
    return _unary(EXP, x)


def log(x: Any, name: str | None = None) -> Tensor:
    return _unary(LOG, x)


def square(x: Any, name: str | None = None) -> Tensor:
    return _unary(SQUARE, x)


def log1p(x: Any, name: str | None = None) -> Tensor:
    return _unary(LOG1P, x)


def reciprocal(x: Any, name: str | None = None) -> Tensor:
    return _unary(RECIPROCAL, x)


def floor(x: Any, name: str | None = None) -> Tensor:
    return _unary(FLOOR, x)


def ceil(x: Any, name: str | None = None) -> Tensor:
    return _unary(CEIL, x)


def round_(x: Any, name: str | None = None) -> Tensor:
    """`tf.round`: half to even (0.5 -> 0, 1.5 -> 2, -2.5 -> -2), as TF; an integer tensor is
    returned itself (TF's wrapper runs no op: uint8, which has no Round kernel, too)."""
    t = x if isinstance(x, Tensor) else _t(x)
    if t.dtype.is_integer:
        return t
    return _unary(ROUND, t)


def rsqrt(x: Any, name: str | None = None) -> Tensor:
    return _unary(RSQRT, x)


def is_nan(x: Any, name: str | None = None) -> Tensor:
    return _unary(IS_NAN, x)


def is_finite(x: Any, name: str | None = None) -> Tensor:
    return _unary(IS_FINITE, x)


def is_inf(x: Any, name: str | None = None) -> Tensor:
    return _unary(IS_INF, x)


@RegisterGradient("Neg")
def _neg_grad(op: Any, grad: Any) -> list:
    return [-grad]


@RegisterGradient("Abs")
def _abs_grad(op: Any, grad: Any) -> list:
    return [grad * sign(op.inputs[0])]


def _conj(t: Tensor) -> Tensor:
    """conj(t) of a complex tensor (TF's gradients conjugate the derivative), t itself otherwise."""
    if t.dtype.kind != "c":
        return t
    from simdist.runtime.ops.complex_math import conj
    return conj(t)


def _safe(grad: Any, value: Any) -> Any:
    """TF's SqrtGrad, RsqrtGrad and ReciprocalGrad kernels give +0 where the incoming gradient is
    0, whatever y is (0 * inf and 0 / 0 are not NaN there: second fuzzer, seed 8 #103)."""
    from simdist.runtime.ops import array, math
    return math.where(math.equal(grad, 0), array.zeros_like(value), value)


def sqrt_grad(y: Any, dy: Any) -> Any:
    """TF's SqrtGrad kernel (Sqrt's gradient and tf.raw_ops.SqrtGrad): sqrt_grads.py."""
    from simdist.runtime.ops import sqrt_grads
    return sqrt_grads.sqrt_grad(y, dy)


@RegisterGradient("Sqrt")
def _sqrt_grad(op: Any, grad: Any) -> list:
    return [sqrt_grad(op.outputs[0], grad)]


@RegisterGradient("Exp")
def _exp_grad(op: Any, grad: Any) -> list:
    return [grad * _conj(op.outputs[0])]


@RegisterGradient("Log")
def _log_grad(op: Any, grad: Any) -> list:
    return [grad * reciprocal(_conj(op.inputs[0]))]   # TF: grad * reciprocal(conj(x)) (Reciprocal's kernel:
    # float32 packets are rcp estimates, so 1/x divided exactly differed in the last bit; grad_edges)


@RegisterGradient("Log1p")
def _log1p_grad(op: Any, grad: Any) -> list:
    return [grad * reciprocal(1.0 + _conj(op.inputs[0]))]   # TF: grad * reciprocal(1 + conj(x))


def reciprocal_grad(y: Any, dy: Any) -> Any:
    """TF's ReciprocalGrad kernel: -dy * conj(y)^2, +0 where dy is 0 (Reciprocal's gradient and
    tf.raw_ops.ReciprocalGrad)."""
    from simdist.runtime.ops import sqrt_grads
    return sqrt_grads.reciprocal_grad(y, dy)   # (one kernel, as TF's node: sqrt_grads.RECIPROCAL_GRAD)


@RegisterGradient("Reciprocal")
def _reciprocal_grad(op: Any, grad: Any) -> list:
    return [reciprocal_grad(op.outputs[0], grad)]


def rsqrt_grad(y: Any, dy: Any) -> Any:
    """TF's RsqrtGrad kernel (Rsqrt's gradient and tf.raw_ops.RsqrtGrad): sqrt_grads.py."""
    from simdist.runtime.ops import sqrt_grads
    return sqrt_grads.rsqrt_grad(y, dy)


@RegisterGradient("Rsqrt")
def _rsqrt_grad(op: Any, grad: Any) -> list:
    return [rsqrt_grad(op.outputs[0], grad)]


@RegisterGradient("Sign")
def _sign_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import array
    return [array.zeros_like(op.inputs[0])]   # TF's _SignGrad: zeros, not None


@RegisterGradient("Square")
def _square_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import math
    from simdist.runtime.tensor import convert_to_tensor
    x = _conj(op.inputs[0])   # (math_grad._SquareGrad: multiply(grad, multiply(x, 2)), its nodes Mul, Mul_1)
    return [math.multiply(grad, math.multiply(x, convert_to_tensor(2.0 if x.dtype.kind in "fc" else 2,
                                                                     dtype=x.dtype)))]


def _install_operators() -> None:
    Tensor.__neg__ = lambda self: dispatch.execute(NEG, (self,))   # type: ignore[assignment]
    Tensor.__abs__ = abs_   # type: ignore[assignment]


_install_operators()
