"""Trigonometric, hyperbolic and special functions of one tensor (tf.math.sin ... lgamma, erf),
each one declaration: the op (`unary`: elementwise, so it stacks over replica lanes, costs one
FLOP per element and its operands' bytes, and is not exact for the uniform rewrite), its
gradient as TF 2.21's math_grad.py registers it, and its facade function.

Values are NumPy's and SciPy's (TF's Eigen kernels may differ in the last bits for float32);
the special functions follow TF at their poles: lgamma(-inf) = inf, digamma of 0 and of negative
integers is NaN, erf(x) is NaN in float64 for |x| >= 1.3407807830046643e154 and ±inf (TF's double
kernel; ±1 in float32).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import complex_unary, dispatch
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import RegisterGradient, binary, unary
from simdist.runtime.ops.args import dtype_error, tf_name
from simdist.runtime.ops.array import constant
from simdist.runtime.ops.unary import _FLOAT, _FLOAT_C, _quiet, _rule, exp, reciprocal, square
from simdist.runtime.ops.packet_math import bf16_packets
from simdist.runtime.tensor import Tensor

__all__ = ["sin", "cos", "tan", "atan", "sinh", "cosh", "asinh", "erf", "expm1", "lgamma", "digamma", "polygamma",
           "log_sigmoid", "asin", "acos", "acosh", "atanh", "rint"]


def _scipy_special() -> Any:
    import scipy.special   # (imported on first use: only the special functions need it)
    return scipy.special


_LIBM: list[Any] = []


def _libm_lgamma() -> Any:
    """The C library's lgamma/lgammaf (ctypes), or None where there is none: TF 2.21's CPU kernel
    calls them (Eigen's numext::lgamma), and they differ from SciPy's gammaln in the last bits,
    near lgamma's zeros (x = 1, 2) by more than 1e-10 relative."""
    if not _LIBM:
        import ctypes
        import ctypes.util
        try:
            lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
            lib.lgamma.restype, lib.lgamma.argtypes = ctypes.c_double, [ctypes.c_double]
            lib.lgammaf.restype, lib.lgammaf.argtypes = ctypes.c_float, [ctypes.c_float]
            _LIBM.append((np.vectorize(lib.lgamma, otypes=[np.float64]), np.vectorize(lib.lgammaf, otypes=[np.float32])))
        except (OSError, AttributeError):
            _LIBM.append(None)
    return _LIBM[0]


def _lgamma(a: np.ndarray) -> np.ndarray:
    libm = _libm_lgamma()
    if libm is not None and a.size and a.dtype.kind == "f":
        f64, f32 = libm
        return (f64(a) if a.dtype == np.float64 else f32(a.astype(np.float32))).astype(a.dtype)
    r = _scipy_special().gammaln(a)
    return np.where(np.isneginf(a), np.inf, r) if a.size else r   # TF: lgamma(-inf) = inf (SciPy: -inf)


def _digamma(a: np.ndarray) -> np.ndarray:
    if a.dtype in (np.float32, np.float16, np.float64) and a.size:   # (half: Eigen's float digamma of float(x))
        wide = np.float64 if a.dtype == np.float64 else np.float32
        return _digamma_eigen(a.astype(wide)).astype(a.dtype)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        r = _scipy_special().psi(a)
        return np.where((a <= 0) & (a == np.floor(a)), np.nan, r)   # TF: NaN at 0, -0 and negative integers


# digamma_impl_maybe_poly's coefficients (Eigen, from Cephes): float's 4 below 1e8, double's 7 below 1e17
_DIGAMMA_A = {np.dtype(np.float32): ((-4.16666666666666666667e-3, 3.96825396825396825397e-3,
                                      -8.33333333333333333333e-3, 8.33333333333333333333e-2), 1.0e8, "f"),
              np.dtype(np.float64): ((8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
                                      -4.16666666666666666667e-3, 3.96825396825396825397e-3,
                                      -8.33333333333333333333e-3, 8.33333333333333333333e-2), 1.0e17, "")}


def _digamma_eigen(x: np.ndarray) -> np.ndarray:
    """float32/float64 digamma as Eigen's digamma_impl (Cephes' psi) computes it in TF 2.21's kernel, every step
    rounded to the type (no fused multiply-add): x <= 0 reflected (NaN at the poles, nz = pi / tan(pi * (x -
    nearest integer)) unless that is 1/2), the recurrence psi(s + 1) = psi(s) + 1/s up to s >= 10, then log(s) -
    0.5/s - z * polevl(z, A) - w with z = 1/s² (none from s = 1e8, double 1e17), the reflection's nz subtracted
    last; glibc's log/tan (libm.py). SciPy's psi had differed in the last bits: float32 digamma(1.0) is -0.5772159
    in TF, -0.5772157 from SciPy (fz44)."""
    from simdist.runtime.ops import libm
    coeffs, limit, suffix = _DIGAMMA_A[x.dtype]
    t = x.dtype.type
    one, half, zero, pi = t(1), t(0.5), t(0), t(np.pi)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        neg = x <= zero
        p = np.floor(x)
        pole = neg & (p == x)
        nz = x - p
        up = neg & (nz != half) & (nz > half)
        p = np.where(up, p + one, p)
        nz = np.where(up, x - p, nz)
        turn = neg & ~pole & (nz != half)
        tan = np.ones_like(x)
        if turn.any():
            tan[turn] = libm.elementwise("tan" + suffix, (pi * nz[turn]).astype(x.dtype))
        nz = np.where(turn, pi / tan, zero).astype(x.dtype)
        s = np.where(neg, one - x, x).astype(x.dtype)
        w = np.zeros_like(x)
        more = s < t(10)
        while more.any():
            w = np.where(more, w + one / s, w).astype(x.dtype)
            s = np.where(more, s + one, s).astype(x.dtype)
            more = s < t(10)
        z = (one / (s * s)).astype(x.dtype)
        poly = np.full_like(x, t(coeffs[0]))
        for c in coeffs[1:]:
            poly = (poly * z + t(c)).astype(x.dtype)
        y = np.where(s < t(limit), z * poly, zero).astype(x.dtype)
        logs = libm.elementwise("log" + suffix, s)
        y = (((logs - half / s) - y) - w).astype(x.dtype)
        y = np.where(neg, y - nz, y).astype(x.dtype)
        return np.where(pole, t(np.nan), y)


def _polygamma(n: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Eigen's polygamma_impl: NaN for an order that is not a non-negative integer (SciPy truncates it:
    polygamma(1e-40, x) was digamma(x)), digamma for order 0 (NaN at 0 and the negative integers), else
    (-1)^(n+1)·n!·zeta(n + 1, x) in the kernel's type (eigen_zeta.py: zeta's pole rules at x = 0, -1, ...,
    an order of 2**63 or more even, and float32's short series; fuzz14 seeds 1420261202 #215, 1420261218
    #298; grad_edges: float32 polygamma(1, -7.5) is 6.7811 in TF, SciPy's 9.7448)."""
    from simdist.runtime.ops.eigen_zeta import polygamma_positive
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        nb, xb = np.broadcast_arrays(n, x)
        if not nb.size:
            return np.empty(nb.shape, np.result_type(n, x))
        nd, xd = _daz(nb), _daz(xb)
        r = np.where(nd == 0, _digamma(xd.astype(nd.dtype)), polygamma_positive(nd, xd))
        return np.where((np.floor(nd) != nd) | (nd < 0), np.nan, r).astype(nd.dtype)


def _daz(x: np.ndarray) -> np.ndarray:
    """x with its float32/float64 subnormals read as zeros of their sign (the kernel's DAZ)."""
    if x.dtype not in (np.float32, np.float64):
        return x
    return np.where(np.abs(x) < np.finfo(x.dtype).tiny, x * x.dtype.type(0), x)


def _erf(a: np.ndarray) -> np.ndarray:
    """float32: Eigen's generic_fast_erf<float> on every element; float64: generic_fast_erf<double>
    (pexp_double in packets, the C library's exp in the tail; NaN from |x| = 1.3407807830046643e154
    up, where its x * x overflows, ±inf included) (ops.eigen-kernels); else SciPy's, a NaN operand's result
    packet_math.half_operand_nans's (bfloat16 in packets)."""
    if a.dtype == np.float32:
        from simdist.runtime.ops.packet_math import erf_float
        return erf_float(a)
    if a.dtype == np.float64:
        from simdist.runtime.ops.packet_erf import erf_double
        return erf_double(a)
    from simdist.runtime.ops.packet_math import half_operand_nans
    return half_operand_nans(a, _scipy_special().erf(a), bf16_packets=True)


def _no_bfloat16_kernel(name: str) -> Any:
    """TF's op def allows bfloat16, but its CPU kernels do not: NotFoundError."""
    base = _rule(name, _FLOAT)

    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        d = base(dts, attrs)
        if d.name == "bfloat16":
            raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {name}}}}} = "
                                       f"{name}[T=DT_BFLOAT16] [Op:{name}]")
        return d
    return rule


def _polygamma_rule(dts: Any, attrs: Any) -> dtypes.DType:
    """Polygamma(a, x): a and x of one dtype (TF's attr T), float or double only."""
    a, x = dts
    if a is not x:
        raise dtype_error("Polygamma", 1, a, x)
    if a not in (dtypes.float32, dtypes.float64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {tf_name(a)} is not in the list of "
                                          "allowed values: float, double [Op:Polygamma]")
    return a


def _eigen(name: str, fallback: Any) -> Any:
    """The packet_trig kernel `name` (float32 Sin/Cos/Atan and float64 Atan: Eigen's packets, the C
    library's tail; float16/bfloat16 Sin and Cos through float32's, rounded; float16 Atan: atanf of
    each element, rounded, which atan in float64 rounded twice equals: ops.eigen-kernels), else
    NumPy's `fallback`."""
    def kernel(a: np.ndarray) -> np.ndarray:
        from simdist.runtime.ops import packet_trig
        fn = getattr(packet_trig, name)
        if name != "atan" and a.dtype.itemsize == 2 and a.dtype.kind in "fV":
            return fn(a.astype(np.float32)).astype(a.dtype)
        if a.dtype == np.float16:   # glibc's atanf on every element, rounded (libm.py; NumPy's float64
            # arctan is SVML's on a CPU with AVX-512: ops.host-cpu)
            from simdist.runtime.ops import libm
            return libm.elementwise("atanf", a.astype(np.float32)).astype(np.float16)
        out = fn(a)
        if out is None and a.dtype == np.float64 and name in ("sin", "cos"):
            # glibc's sin/cos on every element (TF: Eigen's double packets need AVX2); NumPy's float64
            # loop equals it here but is SVML's on a CPU with AVX-512 (ops.host-cpu)
            from simdist.runtime.ops import libm
            return libm.elementwise(name, a)
        return fallback(a) if out is None else out
    kernel.__name__ = name
    return kernel


SIN = unary("Sin", bf16_packets(complex_unary.kernel("Sin", _quiet(_eigen("sin", np.sin)))), _rule("Sin", _FLOAT_C))
COS = unary("Cos", bf16_packets(complex_unary.kernel("Cos", _quiet(_eigen("cos", np.cos)))), _rule("Cos", _FLOAT_C))
def _tan(a: np.ndarray) -> np.ndarray:
    """float32/float64: Eigen has no packet tan, so TF's kernel calls the C library's tanf/tan on
    every element (libm.py; NumPy's SVML tan differs: ops.eigen-kernels); other dtypes np.tan."""
    if a.dtype in (np.float32, np.float64):
        from simdist.runtime.ops import libm
        flat = np.ascontiguousarray(a).ravel()
        return libm.scalar_map("tanf" if a.dtype == np.float32 else "tan", flat).reshape(a.shape)
    if a.dtype == np.float16:   # tanf of each element, rounded (NumPy's float16 tan is dispatched per CPU)
        from simdist.runtime.ops import libm
        return libm.elementwise("tanf", a.astype(np.float32)).astype(np.float16)
    return np.tan(a)


TAN = unary("Tan", complex_unary.kernel("Tan", _quiet(_tan)), _rule("Tan", _FLOAT_C))
ATAN = unary("Atan", complex_unary.kernel("Atan", _eigen("atan", np.arctan)), _rule("Atan", _FLOAT_C))
def _c_each(c_name: str, fallback: Any) -> Any:
    """The C library's `c_name` (float32: its "f" version) on every float32/float64 element
    (libm.py), float16 through the float function, rounded; NumPy's `fallback` for other dtypes
    (bfloat16 as float16, rounded by packet_math.scalar_bf16). TF 2.21's x86-64 kernel calls std::sinh, std::cosh,
    std::asinh and std::acosh (no Eigen packet function), std::asin and std::acos for double, on
    each element (float32 Asin/Acos and Atanh take Eigen's packets: packet_asin.py). Not
    NumPy's float32/float64 loops: on a CPU with AVX-512 they are SVML's (ops.host-cpu). A ctypes
    call an element: about 1.5 µs each."""
    def kernel(a: np.ndarray) -> np.ndarray:
        from simdist.runtime.ops import libm
        if a.dtype in (np.float32, np.float64):
            return libm.elementwise(c_name + "f" if a.dtype == np.float32 else c_name, a)
        if a.dtype == np.float16:   # the float function, rounded (NumPy's float16 loops are SVML's or
            # AVX512-FP16's on such CPUs)
            return libm.elementwise(c_name + "f", a.astype(np.float32)).astype(np.float16)
        if a.dtype.name == "bfloat16":   # the float function, rounded by float_to_bfloat16_rtne (a NaN keeps its
            # sign: 0xffc0 from acosf(2)'s default NaN and from a negative NaN; TF 2.21, bsweep65)
            from simdist.runtime.ops.packet_math import scalar_bf16
            return scalar_bf16(libm.elementwise(c_name + "f", a.astype(np.float32)))
        return fallback(a)
    kernel.__name__ = c_name
    return kernel


SINH = unary("Sinh", complex_unary.kernel("Sinh", _quiet(_c_each("sinh", np.sinh))), _rule("Sinh", _FLOAT_C))
COSH = unary("Cosh", complex_unary.kernel("Cosh", _quiet(_c_each("cosh", np.cosh))), _rule("Cosh", _FLOAT_C))
ASINH = unary("Asinh", complex_unary.kernel("Asinh", _c_each("asinh", np.arcsinh)), _rule("Asinh", _FLOAT_C))
def _expm1(a: np.ndarray) -> np.ndarray:
    """float32/float64: Eigen's generic_expm1 in packets, the C library's in the tail (ops.eigen-kernels)."""
    from simdist.runtime.ops import packet_math
    out = packet_math.expm1(a)
    return np.expm1(a) if out is None else out


EXPM1 = unary("Expm1", complex_unary.kernel("Expm1", _quiet(_expm1)), _rule("Expm1", _FLOAT_C))
ERF = unary("Erf", _erf, _rule("Erf", _FLOAT))
LGAMMA = unary("Lgamma", _quiet(_lgamma), _no_bfloat16_kernel("Lgamma"))
DIGAMMA = unary("Digamma", _digamma, _no_bfloat16_kernel("Digamma"))
POLYGAMMA = binary("Polygamma", _polygamma, _polygamma_rule)
def _packets_or_c(name: str, fallback: Any) -> Any:
    """packet_asin's kernel `name` (float32 Asin/Acos, float32/float64 Atanh: Eigen's packets, the C
    library's tail), else _c_each's (the C library's function on every element)."""
    each = _c_each(name, fallback)

    def kernel(a: np.ndarray) -> np.ndarray:
        from simdist.runtime.ops import packet_asin
        out = getattr(packet_asin, name)(a)
        return each(a) if out is None else out
    kernel.__name__ = name
    return kernel


ASIN = unary("Asin", complex_unary.kernel("Asin", _quiet(_packets_or_c("asin", np.arcsin))), _rule("Asin", _FLOAT_C))
ACOS = unary("Acos", complex_unary.kernel("Acos", _quiet(_packets_or_c("acos", np.arccos))), _rule("Acos", _FLOAT_C))
ACOSH = unary("Acosh", complex_unary.kernel("Acosh", _quiet(_c_each("acosh", np.arccosh))), _rule("Acosh", _FLOAT_C))
ATANH = unary("Atanh", complex_unary.kernel("Atanh", _quiet(_packets_or_c("atanh", np.arctanh))), _rule("Atanh", _FLOAT_C))


def _rint_rule(dts: Any, attrs: Any) -> dtypes.DType:
    """Rint's op def takes bfloat16, half, float and double; TF's CPU kernels only float and double."""
    d = _rule("Rint", _FLOAT)(dts, attrs)
    if d.name in ("float16", "bfloat16"):
        raise errors.NotFoundError(None, None, "Could not find device for node: {{node Rint}} = "
                                   f"Rint[T=DT_{'HALF' if d.name == 'float16' else 'BFLOAT16'}] [Op:Rint]")
    return d


RINT = unary("Rint", np.rint, _rint_rule, exact=True)   # half to even, as C's rint in the default rounding mode


def _unary(op: Any, x: Any) -> Tensor:
    return dispatch.execute(op, (_t(x),))


def sin(x: Any, name: str | None = None) -> Tensor:
    return _unary(SIN, x)


def cos(x: Any, name: str | None = None) -> Tensor:
    return _unary(COS, x)


def tan(x: Any, name: str | None = None) -> Tensor:
    return _unary(TAN, x)


def atan(x: Any, name: str | None = None) -> Tensor:
    return _unary(ATAN, x)


def sinh(x: Any, name: str | None = None) -> Tensor:
    return _unary(SINH, x)


def cosh(x: Any, name: str | None = None) -> Tensor:
    return _unary(COSH, x)


def asinh(x: Any, name: str | None = None) -> Tensor:
    return _unary(ASINH, x)


def expm1(x: Any, name: str | None = None) -> Tensor:
    return _unary(EXPM1, x)


def erf(x: Any, name: str | None = None) -> Tensor:
    return _unary(ERF, x)


def lgamma(x: Any, name: str | None = None) -> Tensor:
    return _unary(LGAMMA, x)


def digamma(x: Any, name: str | None = None) -> Tensor:
    return _unary(DIGAMMA, x)


def polygamma(a: Any, x: Any, name: str | None = None) -> Tensor:
    """`tf.math.polygamma(a, x)`: the a-th derivative of digamma (a, x of one float dtype)."""
    from simdist.runtime.ops import math
    at, xt = math.gen_operands(POLYGAMMA, a, x)   # (gen_math_ops.polygamma: a Python x takes a's dtype)
    try:
        return dispatch.execute(POLYGAMMA, (at, xt))
    except ValueError as e:   # (BinaryOp's shapes: "Incompatible shapes"; fz32b, fz3_known's polygamma class)
        raise math.kernel_value_error(POLYGAMMA, at, xt, e) from None


def asin(x: Any, name: str | None = None) -> Tensor:
    return _unary(ASIN, x)


def acos(x: Any, name: str | None = None) -> Tensor:
    return _unary(ACOS, x)


def acosh(x: Any, name: str | None = None) -> Tensor:
    return _unary(ACOSH, x)


def atanh(x: Any, name: str | None = None) -> Tensor:
    return _unary(ATANH, x)


def rint(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.rint`: the nearest integer, halves to even (float and double only)."""
    return _unary(RINT, x)


def log_sigmoid(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.log_sigmoid`: -softplus(-x), composed of ops as TF 2.21's math_ops writes it (so its
    gradient and its dtype errors are Softplus's)."""
    from simdist.runtime import graph_names
    from simdist.runtime.ops.activations import softplus
    from simdist.runtime.ops.unary import negative
    scope = graph_names.op_scope(name or "LogSigmoid")   # (its graph nodes: LogSigmoid/Neg, /Softplus, LogSigmoid)
    with scope:
        inner = softplus(-_t(x))
        with scope.names_last("Neg"):
            return negative(inner)


# --- gradients, as TF 2.21's math_grad.py ----------------------------------------------------------------
from simdist.runtime.ops.unary import _conj  # noqa: E402 (conj of a complex input: TF's convention)
@RegisterGradient("Sin")
def _sin_grad(op: Any, grad: Any) -> list:
    return [grad * cos(_conj(op.inputs[0]))]


@RegisterGradient("Cos")
def _cos_grad(op: Any, grad: Any) -> list:
    return [-grad * sin(_conj(op.inputs[0]))]


@RegisterGradient("Tan")
def _tan_grad(op: Any, grad: Any) -> list:
    return [square(reciprocal(cos(_conj(op.inputs[0])))) * grad]   # sec^2(x) * grad


@RegisterGradient("Atan")
def _atan_grad(op: Any, grad: Any) -> list:
    x = op.inputs[0]
    one = constant(1, dtype=grad.dtype)
    return [grad * reciprocal(one + square(_conj(x)))]   # (TF conjugates x: complex gradients)


@RegisterGradient("Sinh")
def _sinh_grad(op: Any, grad: Any) -> list:
    return [grad * cosh(_conj(op.inputs[0]))]


@RegisterGradient("Cosh")
def _cosh_grad(op: Any, grad: Any) -> list:
    return [grad * sinh(_conj(op.inputs[0]))]


@RegisterGradient("Asinh")
def _asinh_grad(op: Any, grad: Any) -> list:
    return [grad / cosh(_conj(op.outputs[0]))]   # 1 / cosh(conj(y)), y = asinh(x)


@RegisterGradient("Expm1")
def _expm1_grad(op: Any, grad: Any) -> list:
    return [grad * exp(_conj(op.inputs[0]))]


@RegisterGradient("Erf")
def _erf_grad(op: Any, grad: Any) -> list:
    x = op.inputs[0]
    two_over_root_pi = constant(2 / np.sqrt(np.pi), dtype=grad.dtype)
    return [grad * two_over_root_pi * exp(-square(x))]


@RegisterGradient("Lgamma")
def _lgamma_grad(op: Any, grad: Any) -> list:
    return [grad * digamma(op.inputs[0])]


@RegisterGradient("Digamma")
def _digamma_grad(op: Any, grad: Any) -> list:
    x = op.inputs[0]
    return [grad * polygamma(constant(1, dtype=x.dtype), x)]


@RegisterGradient("Polygamma")
def _polygamma_grad(op: Any, grad: Any) -> list:
    """d/dx psi(n, x) = psi(n + 1, x), reduced over x's broadcast axes; no gradient for n (TF's TODO)."""
    from simdist.runtime.ops import math
    n, x = op.inputs
    return [None, math.unbroadcast(grad * polygamma(n + 1, x), x.shape.as_list())]



@RegisterGradient("Asin")
def _asin_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.unary import sqrt
    x = op.inputs[0]
    one = constant(1, dtype=grad.dtype)
    return [grad * reciprocal(sqrt(one - square(_conj(x))))]


@RegisterGradient("Acos")
def _acos_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.unary import sqrt
    x = op.inputs[0]
    one = constant(1, dtype=grad.dtype)
    return [-grad * reciprocal(sqrt(one - square(_conj(x))))]


@RegisterGradient("Acosh")
def _acosh_grad(op: Any, grad: Any) -> list:
    return [grad / sinh(_conj(op.outputs[0]))]


@RegisterGradient("Atanh")
def _atanh_grad(op: Any, grad: Any) -> list:
    x = op.inputs[0]
    one = constant(1, dtype=grad.dtype)
    return [grad * reciprocal(one - square(_conj(x)))]


@RegisterGradient("Rint")
def _rint_grad(op: Any, grad: Any) -> list:
    return [None]   # TF: "the gradient of Rint is zero", as [None]
