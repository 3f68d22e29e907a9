"""Eigen's packet log (plog_float, plog_double) and float32 exp (pexp_float), which TF 2.21's CPU
Log and Exp kernels run on the elements they compute in SIMD packets (the first (n // P) * P,
P = 8 float32, 4 float64: simd.py), with the C library's logf/log/expf on the scalar tail
(libm.py). Cephes' approximations (GenericPacketMathFunctions.h, the wheel's headers), every
multiply-add rounded twice (no FMA). plog_float is up to 3 ulps from a correctly rounded log
(about 6% of inputs differ), plog_double 1 ulp (12%), pexp_float 3 ulps (36%). Clause
ops.eigen-kernels.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime.ops import libm
from simdist.runtime.ops.packet_pow import pexp_float
from simdist.runtime.ops.nan_operands import quieted

__all__ = ["LANES", "exp", "log", "packets_then_tail", "plog_double", "plog_float"]

LANES = {"float32": 8, "float64": 4}
_F = np.float32
_LOG_ALPHA = (_F(0.18256296349849254), _F(1.0000000190281063), _F(1.0000000190281136))
_LOG_BETA = (_F(0.049616247954120038), _F(0.59923249590823520), _F(1.4999999999999927), _F(1.0))
_LN2_F = _F(0.693147180559945309417232121458176568)
_LOG_P_D = (1.01875663804580931796E-4, 4.97494994976747001425E-1, 4.70579119878881725854E0,
            1.44989225341610930846E1, 1.79368678507819816313E1, 7.70838733755885391666E0)
_LOG_Q_D = (1.0, 1.12873587189167450590E1, 4.52279145837532221105E1, 8.29875266912776603211E1,
            7.11544750618563894466E1, 2.31251620126765340583E1)


def packets_then_tail(a: np.ndarray, packet: Callable[[np.ndarray], np.ndarray], c_name: str) -> np.ndarray:
    """`packet` on the first (n // P) * P elements of a (flat order), the C function `c_name` on the
    rest, as an Eigen elementwise kernel of TF's splits them."""
    flat = np.ascontiguousarray(a).ravel()
    p = LANES[a.dtype.name]
    k = (flat.size // p) * p
    out = np.empty(flat.size, a.dtype)
    with np.errstate(invalid="ignore", over="ignore", under="ignore", divide="ignore"):
        if k:
            out[:k] = packet(flat[:k])
        if k < flat.size:
            out[k:] = libm.scalar_map(c_name, flat[k:])
    return out.reshape(a.shape)


def packets_and_tail(a: np.ndarray, fn: Callable[[np.ndarray, bool], np.ndarray]) -> np.ndarray:
    """fn(x, packet=True) on the first (n // 8) * 8 float32 elements of a (flat order), fn(x, packet=False) on
    the rest; a float64 array all on the scalar path (the split of Eigen's float32 special-function kernels whose
    packet and scalar paths differ in their exp/rsqrt steps: ndtri_eigen.py, bessel_i_eigen.py, bessel_k_eigen.py)."""
    flat = np.ascontiguousarray(a).ravel()
    k = (flat.size // 8) * 8 if a.dtype == np.float32 else 0
    out = np.empty_like(flat)
    with np.errstate(all="ignore"):
        if k:
            out[:k] = fn(flat[:k], True)
        if k < flat.size:
            out[k:] = fn(flat[k:], False)
    return out.reshape(a.shape)


def _frexp_any(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """pfrexp_generic of any float32/float64 (sign kept in m; 0, inf, NaN: m = a, e = 0)."""
    if a.dtype == _F:
        u, shift, mask, half, top, bias = np.uint32, 23, 0x807FFFFF, 0x3F000000, 255, 126
    else:
        u, shift, mask, half, top, bias = np.uint64, 52, 0x800FFFFFFFFFFFFF, 0x3FE0000000000000, 2047, 1022
    bits = a.view(u)
    biased = ((bits >> u(shift)) & u(top)).astype(a.dtype)
    special = (a == 0) | (biased == top)
    m = ((bits & u(mask)) | u(half)).view(a.dtype)
    return np.where(special, a, m), np.where(special, a.dtype.type(0), biased - a.dtype.type(bias))


def _log_specials(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """0 -> -inf, +inf -> +inf, negative or NaN -> the all-ones NaN: plog's `por(x, invalid_mask)` with
    invalid_mask = pcmp_lt_or_nan(x, 0) sets every bit (0xffffffff, 0xffffffffffffffff; TF 2.21's log and log1p of
    -1.5, -inf or NaN in packets, esweep63's e-gr-powers and /work/wt/esweep63_logs/q_log.py; the scalar tail is the C
    library's NaN)."""
    x = np.where(a == np.inf, a, x)
    ones = np.array(-1, np.int32 if a.dtype.itemsize == 4 else np.int64).view(a.dtype)
    x = np.where((a < 0) | np.isnan(a), ones, x)
    return np.where(a == 0, a.dtype.type(-np.inf), x)


def plog_float(a: np.ndarray) -> np.ndarray:
    """plog_float: m·2^e with m in [√½, √2), log(1 + x) = x·P(x)/Q(x) for x = m - 1, + e·ln2."""
    x, e = _frexp_any(a)
    mask = x < _F(0.707106781186547524)
    tmp = np.where(mask, x, _F(0))
    x = x - _F(1)
    e = e - np.where(mask, _F(1), _F(0))
    x = x + tmp
    p = (_LOG_ALPHA[0] * x + _LOG_ALPHA[1]) * x + _LOG_ALPHA[2]
    p = x * p
    q = ((_LOG_BETA[0] * x + _LOG_BETA[1]) * x + _LOG_BETA[2]) * x + _LOG_BETA[3]
    x = p / q
    return _log_specials(a, e * _LN2_F + x)


def plog_double(a: np.ndarray) -> np.ndarray:
    """plog_double: Cephes' log(1 + x) = x - x²/2 + x³·P(x)/Q(x) on [√½ - 1, √2 - 1), + e·ln2."""
    x, e = _frexp_any(a)
    mask = x < 0.70710678118654752440
    tmp = np.where(mask, x, 0.0)
    x = x - 1.0
    e = e - np.where(mask, 1.0, 0.0)
    x = x + tmp
    x2 = x * x
    x3 = x2 * x
    p, q = _LOG_P_D, _LOG_Q_D
    y = p[0] * x + p[1]
    y1 = p[3] * x + p[4]
    y = y * x + p[2]
    y1 = y1 * x + p[5]
    y_ = y * x3 + y1
    y = q[0] * x + q[1]
    y1 = q[3] * x + q[4]
    y = y * x + q[2]
    y1 = y1 * x + q[5]
    y = y * x3 + y1
    y = (y_ * x3) / y
    y = -0.5 * x2 + y
    x = x + y
    return _log_specials(a, e * 0.693147180559945309417232121458176568 + x)


def log(a: np.ndarray) -> np.ndarray:
    """TF's Log: plog_float/plog_double in packets, logf/log in the tail; np.log for other dtypes."""
    if a.dtype == _F:
        return packets_then_tail(a, plog_float, "logf")
    if a.dtype == np.float64:
        out = packets_then_tail(a, plog_double, "log")
        # (TF 2.21's scalar tail gives the positive default NaN for a negative operand, -inf included, where this
        # process's log gives 0xfff8...: /work/wt/esweep63_logs/q_log2.py; a NaN operand passes through)
        flat, af = out.reshape(-1), np.ascontiguousarray(a).reshape(-1)
        k = (flat.size // LANES["float64"]) * LANES["float64"]
        tail = flat[k:]
        tail[af[k:] < 0] = np.float64(np.nan)
        return out
    if _half(a):
        return bf16_packet_nans(log(a.astype(_F)).astype(a.dtype))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(a)


def bf16_packet_nans(out: np.ndarray) -> np.ndarray:
    """A half-type result computed through float32: for bfloat16, the NaNs of its packets (the first (n // 8) * 8
    elements, flat) are the positive 0x7fc0 of Eigen's packet F32ToBf16; the scalar tail's conversion keeps the NaN's
    sign (TF 2.21's Log and Log1p of -1.5: /work/wt/esweep63_logs/q_log.py; math.py `_bf16_packet_nans` for the
    binary ops). float16 unchanged (its conversion keeps sign and payload)."""
    if out.dtype.name != "bfloat16" or out.size == 0:
        return out
    flat = out.reshape(-1)
    k = (flat.size // LANES["float32"]) * LANES["float32"]
    head = flat[:k]
    head[np.isnan(head.astype(_F))] = np.array(0x7FC0, np.uint16).view(out.dtype)
    return out


def bf16_row_packet_nans(out: np.ndarray) -> np.ndarray:
    """`bf16_packet_nans` of each row of `out` [rows, ...] on its own (the inner dimensions flat): a reduction over a
    segment's rows converts each output row's float32 values in packets of 8 columns, its last columns % 8 in the
    scalar tail (TF 2.21's sorted segment sums of bfloat16; nansweep67)."""
    if out.dtype.name != "bfloat16" or out.size == 0 or out.ndim < 2:
        return out
    flat = out.reshape(out.shape[0], -1)
    k = (flat.shape[1] // LANES["float32"]) * LANES["float32"]
    head = flat[:, :k]
    head[np.isnan(head.astype(_F))] = np.array(0x7FC0, np.uint16).view(out.dtype)
    return out


def scalar_bf16(f: np.ndarray) -> np.ndarray:
    """float32 values to bfloat16 as Eigen's scalar float_to_bfloat16_rtne rounds them: to nearest even, a NaN the
    quiet 0x7fc0 with the float's sign (0xffc00000, x86's default NaN of an invalid operation, gives 0xffc0)."""
    import ml_dtypes
    out = np.asarray(f, _F).astype(ml_dtypes.bfloat16)
    nan = np.isnan(f)
    if nan.any():
        sign = (np.asarray(f, _F)[nan].view(np.uint32) >> np.uint32(16)).astype(np.uint16) & np.uint16(0x8000)
        out[nan] = (sign | np.uint16(0x7FC0)).view(out.dtype)
    return out


def half_operand_nans(a: np.ndarray, out: np.ndarray, bf16_packets: bool) -> np.ndarray:
    """A float16/bfloat16 result of a unary kernel that computes through float32 (Eigen's half functors): where the
    operand is a NaN, the operand quieted (the widening and narrowing keep its sign and payload, the float32
    instruction sets the quiet bit: TF 2.21's float16 Erf and Erfc of 0x7c01 give 0x7e01, of 0xfe34 give 0xfe34;
    bfloat16's scalar conversion keeps the sign only: 0xffc5 gives 0xffc0, bsweep65); for bfloat16 run in packets (`bf16_packets`), then
    bf16_packet_nans's positive 0x7fc0 in the packets. Other dtypes as they are."""
    if not _half(a) or out.dtype.kind != "f" or not out.size:
        return out
    nan = np.isnan(a.astype(_F))
    if not nan.any():
        return out
    out = np.array(out, dtype=a.dtype, copy=True)   # (SciPy's float32 result, rounded as the kernel rounds)
    if a.dtype == np.float16:
        out[nan] = quieted(a[nan])
    else:   # (Eigen's float_to_bfloat16_rtne: a NaN is 0x7fc0 with the float's sign)
        sign = np.ascontiguousarray(a[nan]).view(np.uint16) & np.uint16(0x8000)
        out[nan] = (sign | np.uint16(0x7FC0)).view(a.dtype)
    return bf16_packet_nans(out) if bf16_packets else out


def bf16_packets(fn: Any) -> Any:
    """A float kernel whose bfloat16 NaN bits are Eigen's: the packets' (first (n // 8) * 8 elements, flat) NaNs the
    positive 0x7fc0 of F32ToBf16, the scalar tail's keeping their sign (packet_math.bf16_packet_nans; TF 2.21's Exp,
    Sqrt, Square, Tanh, Sigmoid, Reciprocal: fix63e, tests/ops/test_fix63e_bf16_nans_tf.py)."""
    def forward(a: np.ndarray) -> np.ndarray:
        out = fn(a)
        if getattr(out, "dtype", None) is not None and out.dtype.name == "bfloat16" and out.size:
            return bf16_packet_nans(np.array(out, copy=True))
        return out
    forward.__name__ = getattr(fn, "__name__", "forward")
    return forward


def _half(a: np.ndarray) -> bool:
    """float16 or bfloat16: Eigen's half packets (8 lanes) compute through float32's functions
    and round, the scalar tail through the float function (F16/BF16_PACKET_FUNCTION)."""
    return a.dtype.itemsize == 2 and a.dtype.kind in "fV"


def exp(a: np.ndarray) -> np.ndarray:
    """TF's float32 Exp: pexp_float in packets, expf in the tail (float16/bfloat16 through it)."""
    if _half(a):
        return exp(a.astype(_F)).astype(a.dtype)
    return packets_then_tail(a, pexp_float, "expf")


# --- Sigmoid: Eigen's scalar_logistic_op
_LOGISTIC_HI, _LOGISTIC_LO = _F(16.6355324), _F(-104.0)
_LOGISTIC_P = (_F(0.49999141693115234375), _F(0.16666877269744873046875), _F(4.1898667812347412109375e-2),
               _F(8.33471305668354034423828125e-3))


def plogistic_float(x0: np.ndarray) -> np.ndarray:
    """scalar_logistic_op<float>'s packetOp: exp(x/2) by a degree-5 polynomial after Cephes'
    reduction, scaled by 2^m (pldexp_fast) and squared, then e / (1 + e); 0 below -104."""
    x = np.minimum(x0, _LOGISTIC_HI) * _F(0.5)
    m = np.floor(x * _F(1.44269504088896341) + _F(0.5))
    r = m * _F(-0.693359375) + x
    r = m * _F(2.12194440e-4) + r
    r2 = r * r
    p_even = r2 * _LOGISTIC_P[2] + _LOGISTIC_P[0]
    p_odd = r2 * _LOGISTIC_P[3] + _LOGISTIC_P[1]
    p = r * p_odd + p_even
    p = r2 * p + (r + _F(1))
    scale = ((np.clip(np.nan_to_num(m, nan=-127.0), -127, 128) + 127).astype(np.uint32) << np.uint32(23)).view(_F)
    e = p * scale
    e = e * e
    return np.where(x0 < _LOGISTIC_LO, _F(0), e / (_F(1) + e))


def _logistic_float_tail(x: np.ndarray) -> np.ndarray:
    """scalar_logistic_op<float>::operator(): e = expf(min(x, 16.6355324)), e / (1 + e)."""
    e = libm.scalar_map("expf", np.minimum(x, _LOGISTIC_HI))
    return e / (_F(1) + e)


def _logistic_double(x: np.ndarray, e: np.ndarray) -> np.ndarray:
    """The generic scalar_logistic_op: 1 where exp(x) is inf, else e / (1 + e)."""
    return np.where(e == np.inf, 1.0, e / (1.0 + e))


def sigmoid(a: np.ndarray) -> np.ndarray | None:
    """TF's Sigmoid for float32 (scalar_logistic_op<float>: its packet and scalar paths) and float64
    (pexp_double in packets, glibc's exp in the tail, then e / (1 + e)); None for other dtypes."""
    if a.dtype == _F:
        flat = np.ascontiguousarray(a).ravel()
        k = (flat.size // 8) * 8
        out = np.empty(flat.size, _F)
        with np.errstate(invalid="ignore", over="ignore", under="ignore", divide="ignore"):
            if k:
                out[:k] = plogistic_float(flat[:k])
            if k < flat.size:
                out[k:] = _logistic_float_tail(flat[k:])
        return out.reshape(a.shape)
    if a.dtype == np.float64:
        from simdist.runtime.ops.packet_exp import exp as exp_double
        with np.errstate(invalid="ignore", over="ignore", under="ignore", divide="ignore"):
            e = exp_double(a)   # pexp_double in packet lanes, the tail's exp: made glibc's below
            flat = np.ascontiguousarray(e).ravel().copy()
            k = (flat.size // 4) * 4
            if k < flat.size:
                flat[k:] = libm.scalar_map("exp", np.ascontiguousarray(a).ravel()[k:])
            return _logistic_double(a, flat.reshape(a.shape))
    if a.dtype.itemsize == 2 and a.dtype.kind in "fV":   # float16, bfloat16: packets of 8 through float
        with np.errstate(invalid="ignore", over="ignore", under="ignore", divide="ignore"):
            e = exp(a.astype(_F)).astype(a.dtype)   # pexp_float in packets of 8, expf in the tail, rounded
            one = np.ones((), a.dtype)
            out = (e.astype(_F) / (one + e).astype(_F)).astype(a.dtype)
            return np.where(e.astype(_F) == np.inf, one, out)
    return None


# --- Log1p, Expm1 (Kahan's formulas on Eigen's plog/pexp: generic_log1p, generic_expm1) and Softplus
def _plog(x: np.ndarray) -> np.ndarray:
    return plog_float(x) if x.dtype == _F else plog_double(x)


def _pexp(x: np.ndarray) -> np.ndarray:
    if x.dtype == _F:
        return pexp_float(x)
    from simdist.runtime.ops.packet_exp import pexp_double
    fin = np.isfinite(x)
    out = pexp_double(np.where(fin, x, 0.0))
    return np.where(fin, out, np.where(x == -np.inf, 0.0, x))


def generic_log1p(x: np.ndarray) -> np.ndarray:
    """log(1 + x) = x · log(u) / (u - 1) with u = fl(1 + x); x itself where u is 1 or inf."""
    one = x.dtype.type(1)
    xp1 = x + one
    log1 = _plog(xp1)
    large = x * (log1 / (xp1 - one))
    return np.where((xp1 == one) | (xp1 == log1), x, large)


def generic_expm1(x: np.ndarray) -> np.ndarray:
    """exp(x) - 1 = (u - 1) · x / log(u) with u = pexp(x); x where u is 1, -1 where u - 1 is -1,
    u where u is inf."""
    one = x.dtype.type(1)
    u = _pexp(x)
    um1 = u - one
    logu = _plog(u)
    out = um1 * (x / logu)
    out = np.where(logu == u, u, out)
    return np.where(u == one, x, np.where(um1 == -one, -one, out))


def _kahan(a: np.ndarray, packet: Callable[[np.ndarray], np.ndarray], c_name: str) -> np.ndarray | None:
    """A Kahan-formula kernel: `packet` in packets, the C library's `c_name` (float: + "f") in the
    tail; float16/bfloat16 through float32; None for other dtypes."""
    if _half(a):
        return bf16_packet_nans(_kahan(a.astype(_F), packet, c_name).astype(a.dtype))
    if a.dtype.name not in LANES:
        return None
    return packets_then_tail(a, packet, c_name + "f" if a.dtype == _F else c_name)


def log1p(a: np.ndarray) -> np.ndarray | None:
    """TF's Log1p: generic_log1p in packets, log1pf/log1p in the tail (else None); a NaN operand's result as
    `_log1p_nans`."""
    out = _kahan(a, generic_log1p, "log1p")
    return out if out is None or not out.size else _log1p_nans(a, out)


def _log1p_nans(a: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Log1p of a NaN x (TF 2.21, fix63e: /work/wt/fix63e_logs/p_l1p.py, p_l1p2.py, sizes 1..100): generic_log1p's
    x · (plog(x + 1) / x) takes x's NaN (its payload and sign) in float32's packets and in float64's single packets
    and tail, and plog's all-ones NaN in float64's four-packet unrolled block (the first (n // 16) · 16 elements) and
    in float16's packets (float32's function on Packet8f); the tails keep x's NaN, quieted (a signalling NaN comes
    back with its quiet bit set: bsweep65). NumPy's multiply chose either by
    its own loops. bfloat16: bf16_packet_nans's."""
    if a.dtype.name not in ("float32", "float64", "float16"):
        return out
    x = np.ascontiguousarray(a).reshape(-1)
    nan = np.isnan(x)
    if not nan.any():
        return out
    flat = np.array(out, copy=True).reshape(-1)
    flat[nan] = quieted(x[nan])   # (quieted, as the multiply returns it: bsweep65)
    head = {"float64": (x.size // 16) * 16, "float16": (x.size // 8) * 8}.get(a.dtype.name, 0)
    if head:
        ones = np.array(-1, np.int64 if a.dtype == np.float64 else np.int16).view(a.dtype)
        flat[:head][nan[:head]] = ones
    return flat.reshape(out.shape)


def expm1(a: np.ndarray) -> np.ndarray | None:
    """TF's Expm1: generic_expm1 in packets, expm1f/expm1 in the tail (else None)."""
    return _kahan(a, generic_expm1, "expm1")


def softplus(a: np.ndarray) -> np.ndarray | None:
    """TF's float32/float64 Softplus (softplus_op.h): x above -threshold, exp(x) below threshold,
    log1p(exp(x)) between (threshold = log(eps) + 2 in the dtype), the exp and log1p Eigen's in
    packets and the C library's in the tail; float16/bfloat16: the half types' exp and log1p (float32's
    functions on packets of 8 and in the tail, each result rounded to the half type), the threshold
    computed in the half type from Eigen's epsilon (float16: -7.0078125); None for other dtypes."""
    if _half(a):
        one = np.ones((), a.dtype)
        # Eigen's NumTraits<half>::epsilon() is 2**-13 (raw 0x0800, not half's 2**-10), bfloat16's 2**-7
        eps = np.array([2.0 ** -13 if a.dtype == np.float16 else 2.0 ** -7], np.float32)
        threshold = (libm.scalar_map("logf", eps).astype(a.dtype)[0] + one + one).astype(a.dtype)
        with np.errstate(invalid="ignore", over="ignore", under="ignore", divide="ignore"):
            e = exp(a)
            lp = log1p(e)
            return np.where(a > -threshold, a, np.where(a < threshold, e, lp)).astype(a.dtype)
    if a.dtype.name not in LANES:
        return None
    dt = a.dtype.type
    single = a.dtype == _F
    eps = np.array([np.finfo(a.dtype).eps], a.dtype)
    threshold = libm.scalar_map("logf" if single else "log", eps)[0] + dt(2)

    def packet(x: np.ndarray) -> np.ndarray:
        e = _pexp(x)
        return np.where(x > -threshold, x, np.where(x < threshold, e, generic_log1p(e)))

    flat = np.ascontiguousarray(a).ravel()
    p = LANES[a.dtype.name]
    k = (flat.size // p) * p
    out = np.empty(flat.size, a.dtype)
    with np.errstate(invalid="ignore", over="ignore", under="ignore", divide="ignore"):
        if k:
            out[:k] = packet(flat[:k])
        if k < flat.size:
            x = flat[k:]
            e = libm.scalar_map("expf" if single else "exp", x)
            lp = libm.scalar_map("log1pf" if single else "log1p", e)
            out[k:] = np.where(x > -threshold, x, np.where(x < threshold, e, lp))
    return out.reshape(a.shape)


# --- Erf, float32: generic_fast_erf<float> (unsupported/Eigen SpecialFunctionsImpl.h), the same
# function in packets and in the scalar tail
_ERF_ALPHA = tuple(_F(c) for c in (2.123732201653183437883853912353515625e-06, 2.861979592125862836837768554687500000e-04,
                                  3.658048342913389205932617187500000000e-03, 5.243302136659622192382812500000000000e-02,
                                  1.874160766601562500000000000000000000e-01, 1.128379106521606445312500000000000000e+00))
_ERF_BETA = tuple(_F(c) for c in (3.89185734093189239501953125000e-05, 1.14329601638019084930419921875e-03,
                                 1.47520881146192550659179687500e-02, 1.12945675849914550781250000000e-01,
                                 4.99425798654556274414062500000e-01, 1.0))


def erf_float(x: np.ndarray) -> np.ndarray:
    """generic_fast_erf<float>: x·P(x²)/Q(x²), an [11/10] rational interpolant with x² clamped to
    16, the result clamped to [-1, 1] (up to 3 ulps from a correctly rounded erf)."""
    with np.errstate(invalid="ignore", over="ignore"):
        x2 = np.minimum(_F(16), x * x)
        p = np.full_like(x2, _ERF_ALPHA[0])
        for c in _ERF_ALPHA[1:]:
            p = p * x2 + c
        p = x * p
        q = np.full_like(x2, _ERF_BETA[0])
        for c in _ERF_BETA[1:]:
            q = q * x2 + c
        return np.maximum(np.minimum(p / q, _F(1)), _F(-1))
