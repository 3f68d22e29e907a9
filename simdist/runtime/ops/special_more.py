"""The special functions with their own TF kernels beyond special.py: tf.math.erfinv, ndtri,
bessel_i0/i0e/i1/i1e, igamma/igammac (the regularized incomplete gamma functions), betainc (the
regularized incomplete beta function), zeta (Hurwitz's) and nextafter; each one declaration (an
elementwise op: stacked over replica lanes, one FLOP per element, not exact for the uniform
rewrite) with its gradient as TF 2.21's math_grad.py registers it, and its facade function.

Values are SciPy's and NumPy's (float32 may differ from Eigen's in the last bits), except igamma/igammac:
Eigen's Cephes series and continued fraction transcribed (igamma_eigen.py), erfinv/ndtri (ndtri_eigen.py)
and bessel_i0/i0e/i1/i1e (bessel_i_eigen.py): Eigen's kernels (fz45). The dtype rules
are TF 2.21's: the op def's list (InvalidArgumentError outside it) and, where the CPU kernels
cover less of it, NotFoundError (erfinv, ndtri, igamma, igammac: float and double; the Bessel
functions: half, float, double). TF's IgammaGradA (igamma's derivative in a) is Eigen's derivative mode
of the same series and continued fraction (igamma_eigen.py; docs/spec.md `ops.special-more`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime import subnormals as _sn
from simdist.runtime.ops import args, attr_rules, bessel_i_eigen, dispatch, igamma_eigen, ndtri_eigen
from simdist.runtime.ops.args import t as _t, tf_name
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import RegisterGradient, binary, register, unary
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["erfinv", "ndtri", "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "igamma", "igammac", "betainc",
           "zeta", "nextafter"]

_OPDEF_FLOATS = "bfloat16, half, float, double"


def _sp() -> Any:
    import scipy.special
    return scipy.special


def _kernel_rule(name: str, listed: str, kernels: tuple[str, ...]) -> Any:
    """The op def's float list (InvalidArgumentError), then TF's CPU kernels (NotFoundError).
    Eagerly the kernel is looked up for T, the first input's dtype, before the other inputs'
    dtypes are checked against it: `igamma(half, double)` is NotFoundError, not the mismatch's
    InvalidArgumentError (a graph build checks the inputs first: its TypeError)."""
    base = args.allowed(name, "f", listed)

    def missing(d: dtypes.DType) -> errors.NotFoundError:
        return errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {name}}}}} = "
                                    f"{name}[T=DT_{tf_name(d).upper()}] [Op:{name}]")

    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        if dts and dts[0].kind == "f" and dts[0].name not in kernels and not context.in_function():
            raise missing(dts[0])
        d = base(dts, attrs)
        if d.name not in kernels:
            raise missing(d)
        return d
    return rule


_F32_F64 = ("float32", "float64")
_HALF_UP = ("float16", "float32", "float64")


def _elementwise(fn: Any) -> Any:
    def forward(*arrays: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            dt = arrays[0].dtype
            wide = [a.astype(np.float32) if dt == np.float16 else a for a in arrays]
            return np.asarray(fn(*wide)).astype(dt, copy=False)
    forward.__name__ = getattr(fn, "__name__", "forward")
    return forward


def _igamma_grad_a(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """IgammaGradA: Eigen's DERIVATIVE mode of the series and continued fraction (igamma_eigen.py),
    with simdist's digamma kernel."""
    from simdist.runtime.ops.special import _digamma
    return igamma_eigen.igamma_grad_a(a, x, _digamma)


def _betainc(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Eigen's betainc_impl in the kernel's precision (betainc_eigen.py: bit for bit with TF 2.21 on 313
    float64 and 311 of 313 float32 probes, where SciPy's was ulps away on most; its domain rules: a <= 0
    or b <= 0 NaN, then x == 0 is 0 and x == 1 is 1, other x outside (0, 1) NaN, a NaN a or b passing the
    first test: betainc(NaN, 2, 0) is 0; an infinite a or b NaN inside (0, 1): fz25b, seed 1420262501 #6)."""
    from simdist.runtime.ops.betainc_eigen import betainc as eigen_betainc
    return eigen_betainc(a, b, x)


def _zeta(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Eigen's zeta_impl in the kernel's type (eigen_zeta.py): its domain rules (x == 1 inf, x < 1 NaN,
    q <= 0 an integer: inf for an even x, else NaN; q <= 0 otherwise NaN unless x is an integer) and its
    float32 series of at most 9 terms, which TF's float32 values show (before grad_edges simdist took
    SciPy's double-precision zeta, so float32 zeta(2, -7.5) was 9.7448 where TF gives 6.7811)."""
    from simdist.runtime.ops.eigen_zeta import zeta
    return zeta(x, q)


def _erfinv(a: np.ndarray) -> np.ndarray:
    """Eigen's erfinv in the kernel's type, ndtri(0.5·x + 0.5)·M_SQRT1_2 (ndtri_eigen.py: bit for bit
    with TF 2.21; the halving's rounding shows near 0, erfinv(1e-3) 0.0008862685 in float32; fresh16,
    third fuzzer seed 97 #114, #170; fz45: float32's last bits on ordinary inputs)."""
    if a.dtype in (np.float32, np.float64):
        return ndtri_eigen.erfinv(a)
    return _sp().erfinv(a)


def _ndtri(a: np.ndarray) -> np.ndarray:
    """Eigen's generic_ndtri in the kernel's type (ndtri_eigen.py)."""
    if a.dtype in (np.float32, np.float64):
        return ndtri_eigen.ndtri(a)
    return _sp().ndtri(a)


ERFINV = unary("Erfinv", _elementwise(_erfinv), _kernel_rule("Erfinv", _OPDEF_FLOATS, _F32_F64))
NDTRI = unary("Ndtri", _elementwise(_ndtri), _kernel_rule("Ndtri", _OPDEF_FLOATS, _F32_F64))
BESSEL_I0 = unary("BesselI0", _elementwise(bessel_i_eigen.bessel_i0), _kernel_rule("BesselI0", _OPDEF_FLOATS, _HALF_UP))
BESSEL_I0E = unary("BesselI0e", _elementwise(bessel_i_eigen.bessel_i0e),
                   _kernel_rule("BesselI0e", _OPDEF_FLOATS, _HALF_UP))
BESSEL_I1 = unary("BesselI1", _elementwise(bessel_i_eigen.bessel_i1), _kernel_rule("BesselI1", _OPDEF_FLOATS, _HALF_UP))
BESSEL_I1E = unary("BesselI1e", _elementwise(bessel_i_eigen.bessel_i1e),
                   _kernel_rule("BesselI1e", _OPDEF_FLOATS, _HALF_UP))
def _own_daz(forward: Any) -> _sn.Fixed:
    """A kernel that reads subnormal inputs under DAZ itself (igamma_eigen.py): recomputed from them."""
    return _sn.Fixed(forward.__name__, lambda arrays, flushed, out, attrs: forward(*arrays))


_IGAMMA_FWD = _elementwise(igamma_eigen.igamma)
_IGAMMAC_FWD = _elementwise(igamma_eigen.igammac)
IGAMMA = binary("Igamma", _IGAMMA_FWD, _kernel_rule("Igamma", _OPDEF_FLOATS, _F32_F64), subnormals=_own_daz(_IGAMMA_FWD))
IGAMMAC = binary("Igammac", _IGAMMAC_FWD, _kernel_rule("Igammac", _OPDEF_FLOATS, _F32_F64),
                 subnormals=_own_daz(_IGAMMAC_FWD))


def _float_double(name: str, listed: str = "float, double") -> Any:
    """The op def's list holds float and double only: half and bfloat16 are InvalidArgumentError."""
    base = args.same_dtype(name)

    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        d = base(dts, attrs)
        if d.name not in _F32_F64:
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {tf_name(d)} is not in the list of "
                                              f"allowed values: {listed} [Op:{name}]")
        return d
    return rule


IGAMMA_GRAD_A = binary("IgammaGradA", _elementwise(_igamma_grad_a), _float_double("IgammaGradA"))
ZETA = binary("Zeta", _elementwise(_zeta), _float_double("Zeta"))
def _nextafter(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """glibc's nextafter/nextafterf under TF's DAZ: `x == y` compares subnormals as zeros (then y
    is returned, its bits kept: nextafter(1e-40, 0.0) is 0.0), the step itself works on the bits
    (nextafter(0.0, 1.0) is the smallest subnormal, nextafter(1e-40, 1.0) the next one); results
    are not flushed, and marked when subnormal (the op's rule is MAKES). Clause ops.subnormals."""
    from simdist.runtime import subnormals
    out = np.nextafter(x, y)
    fx, fy = subnormals.flushed(x), subnormals.flushed(y)
    if fx is x and fy is y:
        return out
    return np.where(np.equal(fx, fy), np.broadcast_to(y, out.shape), out).astype(out.dtype, copy=False)


NEXTAFTER = binary("NextAfter", _nextafter, _float_double("NextAfter", "double, float"), exact=True)
BETAINC = register("Betainc", _elementwise(_betainc), _float_double("Betainc"), kind="elementwise")
no_tf_gradient("IgammaGradA")   # TF 2.21 registers none: a second derivative in a is LookupError (ops.special-more)


def _unary(op: Any, x: Any) -> Tensor:
    return dispatch.execute(op, (_t(x),))


def _binary(op: Any, x: Any, y: Any) -> Tensor:
    from simdist.runtime.ops import math
    return math._checked_binary(op, x, y)


def erfinv(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.erfinv`: the inverse of erf (±inf at ±1, NaN outside [-1, 1])."""
    return _unary(ERFINV, x)


def ndtri(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.ndtri`: the inverse of the standard normal CDF (±inf at 1 and 0)."""
    return _unary(NDTRI, x)


def bessel_i0(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.bessel_i0`: the modified Bessel function of order 0."""
    return _unary(BESSEL_I0, x)


def bessel_i0e(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.bessel_i0e`: exp(-|x|) * bessel_i0(x)."""
    return _unary(BESSEL_I0E, x)


def bessel_i1(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.bessel_i1`: the modified Bessel function of order 1."""
    return _unary(BESSEL_I1, x)


def bessel_i1e(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.bessel_i1e`: exp(-|x|) * bessel_i1(x)."""
    return _unary(BESSEL_I1E, x)


def igamma(a: Any, x: Any, name: str | None = None) -> Tensor:
    """`tf.math.igamma(a, x)`: the lower regularized incomplete gamma function P(a, x)."""
    return _binary(IGAMMA, a, x)


def igammac(a: Any, x: Any, name: str | None = None) -> Tensor:
    """`tf.math.igammac(a, x)`: the upper regularized incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    return _binary(IGAMMAC, a, x)


def zeta(x: Any, q: Any, name: str | None = None) -> Tensor:
    """`tf.math.zeta(x, q)`: the Hurwitz zeta function, sum over n of (q + n)^-x."""
    return _binary(ZETA, x, q)


def nextafter(x1: Any, x2: Any, name: str | None = None) -> Tensor:
    """`tf.math.nextafter(x1, x2)`: the next representable value after x1 toward x2. Eagerly,
    with no tensor operand, TF's fast path (both operands passing CheckOneInput) converts both to
    NextAfter's default T, float32 (a list or a NumPy scalar other than np.float64: the eager
    fallback's args_to_matching_eager, x1's own float dtype kept); there a
    NumPy float64 array is cast (1e300 to inf), so the result is float32 (ops.conversion; TF's
    very first call in a process takes the slow path, which keeps float64: not modelled). A
    tf.function's graph keeps a float32/float64 NumPy x1's dtype, casts another NumPy x1 to float32,
    and converts x2 to x1's dtype."""
    from simdist.runtime.ops import graph_inputs, math
    if context.in_function() and isinstance(x1, (bool, int, float, list, tuple)):
        # (a graph's op_def_library converts a Python x1 by its own dtype when T allows it, else
        # preferring T's default, float32, whatever x2 is: True is 1.0; fz25b, seed 1420262501 #44)
        x1 = graph_inputs.convert("NextAfter", x1, "x1")
    from simdist.runtime.ops import attr_rules
    if not context.in_function() and not isinstance(x1, Tensor) and not isinstance(x2, Tensor) and \
            not (attr_rules.check_one_input(x1) and attr_rules.check_one_input(x2)):
        # (an operand the fast path does not take, a list or a NumPy scalar other than np.float64, sends the call to
        # the eager fallback, whose args_to_matching_eager sees no eager tensor: x1's own conversion when T allows
        # its dtype, else T's default float32, and x2 converted to it: `nextafter(float64 array, [2, 0])` is float64,
        # `nextafter([1e300], float64 array)` the plain conversion's ValueError (fz42, fz14 seed 1420423001 #209);
        # `nextafter(np.uint8(255), float32 variable)` is 254.99998 (fz36b, fz14 seed 1420363006 #197))
        x1, x2 = attr_rules.fallback_args_to_matching([x1, x2], (dtypes.float64, dtypes.float32), dtypes.float32)
    elif not math._tensorlike(x1) and not math._tensorlike(x2):
        # (a graph converts Python values with T's default too, NumPy values with their own dtype)
        x2_given = x2
        traced = context.in_function()
        kept = traced and isinstance(x1, (np.ndarray, np.generic)) and x1.dtype in _OWN
        x1, x2 = (v if traced and isinstance(v, (np.ndarray, np.generic)) and (k == 1 or v.dtype in _OWN)
                  else _as_float32(v) for k, v in enumerate((x1, x2)))
        if kept and isinstance(x2, Tensor) and x2.dtype != x1.dtype and x1.dtype == np.float64:
            # (a graph converts a Python x2 to the float64 x1's T: `nextafter(float64 array, [2, 0])` is float64;
            # fz42)
            x2 = convert_to_tensor(x2_given, dtype=dtypes.float64)
    # (its result is marked when it holds subnormals: the op's rule, subnormals.MAKES)
    return _binary(NEXTAFTER, x1, x2)


# NumPy dtypes a graph's first NextAfter operand keeps (op_def_library's preferred float32 cast of an
# integer or float16 array succeeds, of a float64 one fails: `nextafter(int32 array, float32 array)` in a
# tf.function is float32; fz14 seed 1420261219 #113)
_OWN = (np.dtype(np.float32), np.dtype(np.float64))


def _as_float32(v: Any) -> Any:
    """A NumPy number or array of a numeric kind as float32, as the fast path's conversion casts it
    (NPY_ARRAY_FORCECAST: a bool is 0 or 1, a complex value loses its imaginary part with NumPy's
    ComplexWarning, eagerly and in a graph alike; fz14 seed 1420282804 #34)."""
    if isinstance(v, (np.ndarray, np.generic)) and v.dtype.kind in "fiubc":
        with np.errstate(over="ignore"):
            return convert_to_tensor(np.asarray(v).astype(np.float32), dtype=dtypes.float32)
    if isinstance(v, (int, float, list, tuple)) and not isinstance(v, bool):
        # (Python numbers and lists of them too: [1, 3] is float32, not int32; fz14 seed 14 #659)
        return convert_to_tensor(v, dtype=dtypes.float32)
    return v


def _matching_operands(values: tuple) -> list[Tensor]:
    """The inputs of an op whose inputs share one type attr, as TF's eager fast path converts
    them (execute.args_to_matching_eager): the first tensor's dtype is every input's, a Python or
    NumPy value converted to it (`betainc(255, np.float16(0.001), float64 x)` is float64; fuzz14
    seed 1420261202 #500, #442). Inside a tf.function op_def_library's rule (args._graph_matching):
    the first input fixes T and later Python values convert to it (`betainc([-0.0, 4.0], [5, 1],
    0)` is float32; fz28b, fz14 seed 1420282801 #285)."""
    from simdist.runtime.ops import math
    if context.in_function():
        return args.matching(values, op="Betainc", names=("a", "b", "x"))
    math.check_distributed_variables(values)   # (a MirroredVariable takes the eager fallback; fz14 seed 1420261217 #89)
    known = next((v for v in values if math._tensorlike(v)), None)
    if known is None:
        # no tensor: the first value's own conversion fixes the attr's dtype, which the fast path
        # converts the others to (a NumPy array of another dtype is cast; `betainc(1e-40, float32
        # array, uint16 array)` is float32; fz14 seed 1420261217 #107)
        t0 = _t(values[0])
        return [t0] + [math._operand(v, t0.dtype) for v in values[1:]]
    if not all(attr_rules.check_one_input(v) for v in values):
        # an input the fast path does not take (a list, a NumPy scalar but np.float64): the eager
        # fallback's rule, where a variable does not set T (`betainc(np.uint16(0), -1, float64
        # variable)`, fz14 seed 14 #723; `betainc(1.0, [65504.0, 0.001, -3.0], float64 variable)`,
        # ValueError, fz14 seed 1420282804 #31)
        return attr_rules.fallback_args_to_matching(values, (dtypes.float32, dtypes.float64))
    dt = _t(known).dtype
    return [_t(v) if math._tensorlike(v) else math._operand(v, dt) for v in values]


def betainc(a: Any, b: Any, x: Any, name: str | None = None) -> Tensor:
    """`tf.math.betainc(a, b, x)`: the regularized incomplete beta function I_x(a, b). As TF's
    kernel, a, b and x have one shape, or some of them are scalars (no other broadcasting)."""
    ts = _matching_operands((a, b, x))
    BETAINC.dtype(tuple(t.dtype for t in ts), None)
    shapes = [tuple(t.shape.as_list()) for t in ts]
    for (i, si), (j, sj) in (((0, "a"), (1, "b")), ((0, "a"), (2, "x")), ((1, "b"), (2, "x"))):
        # the kernel compares each pair of non-scalar shapes (betainc_op.cc); traced, the shape
        # function merges the non-scalar shapes the graph knows (array_shape_fns.betainc; fz16d)
        if shapes[i] and shapes[j] and shapes[i] != shapes[j]:
            from simdist.runtime.ops import array_shape_fns
            raise array_shape_fns.marked(errors.InvalidArgumentError(
                None, None, f"Shapes of {si} and {sj} are inconsistent: {args.dims(shapes[i])} vs. "
                f"{args.dims(shapes[j])} [Op:Betainc]"), array_shape_fns.betainc(ts), "Betainc", ts)
    return dispatch.execute(BETAINC, tuple(ts))


# --- gradients, as TF 2.21's math_grad.py ------------------------------------------------------------------
def _const(v: float, dtype: Any) -> Tensor:
    from simdist.runtime.ops.array import constant
    return constant(v, dtype=dtype)


@RegisterGradient("Erfinv")
def _erfinv_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.unary import exp, square
    return [grad * _const(np.sqrt(np.pi) / 2, grad.dtype) * exp(square(op.outputs[0]))]


@RegisterGradient("Ndtri")
def _ndtri_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.unary import exp, square
    return [grad * _const(np.sqrt(2 * np.pi), grad.dtype) * exp(square(op.outputs[0]) / 2.0)]


@RegisterGradient("BesselI0")
def _bessel_i0_grad(op: Any, grad: Any) -> list:
    return [grad * bessel_i1(op.inputs[0])]


@RegisterGradient("BesselI0e")
def _bessel_i0e_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.unary import sign
    x, y = op.inputs[0], op.outputs[0]
    return [grad * (bessel_i1e(x) - sign(x) * y)]


@RegisterGradient("BesselI1")
def _bessel_i1_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import math
    x, y = op.inputs[0], op.outputs[0]
    dy = math.where(math.equal(x, 0.0), math.cast(1.0, x.dtype), bessel_i0(x) - math.divide(y, x))
    return [grad * dy]


@RegisterGradient("BesselI1e")
def _bessel_i1e_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import math
    from simdist.runtime.ops.unary import reciprocal, sign
    x, y = op.inputs[0], op.outputs[0]
    dy = math.where(math.equal(x, 0.0), math.cast(0.5, x.dtype), bessel_i0e(x) - y * (sign(x) + reciprocal(x)))
    return [grad * dy]


def _igamma_partials(op: Any, grad: Any) -> tuple[Any, Any]:
    from simdist.runtime.ops import math
    from simdist.runtime.ops.special import lgamma
    from simdist.runtime.ops.unary import exp, log
    a, x = op.inputs
    sa, sx = math._shapes(op)
    partial_a = dispatch.execute(IGAMMA_GRAD_A, (a, x))
    partial_x = exp(-x + (a - 1) * log(x) - lgamma(a))
    return math.unbroadcast(partial_a * grad, sa), math.unbroadcast(partial_x * grad, sx)


@RegisterGradient("Igamma")
def _igamma_grad(op: Any, grad: Any) -> list:
    return list(_igamma_partials(op, grad))


@RegisterGradient("Igammac")
def _igammac_grad(op: Any, grad: Any) -> list:
    ga, gx = _igamma_partials(op, grad)
    return [-ga, -gx]


@RegisterGradient("Betainc")
def _betainc_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import math
    from simdist.runtime.ops.special import lgamma
    from simdist.runtime.ops.unary import exp
    from simdist.runtime.ops.xfunctions import xlog1py, xlogy
    from simdist.runtime.ops.array import reshape
    from simdist.runtime.ops.raw_compositions import broadcast_gradient_args
    a, b, x = op.inputs
    log_beta = lgamma(a) + lgamma(b) - lgamma(a + b)
    partial_x = exp(xlog1py(b - 1, -x) + xlogy(a - 1, x) - log_beta)
    sx = x.shape.as_list()
    # math_grad.py's _BetaincGrad reduces over broadcast_gradient_args(shape(a), shape(x)) only, then
    # reshapes to shape(x): a b that broadcasts beyond a and x leaves too many values, Reshape's
    # InvalidArgumentError ("Input to reshape is a tensor with 6 values, but the requested shape has
    # 1"; traced its shape function's ValueError). fz28a, fz20_seen's seed 2720261205 #20: a and x
    # scalars, b [3, 2].
    rx = (broadcast_gradient_args(a.shape.as_list(), sx) or ([], []))[1]
    g = partial_x * grad
    return [None, None, reshape(math.reduce_sum(g, axis=rx) if rx else g, sx)]


@RegisterGradient("Zeta")
def _zeta_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import math
    x, q = op.inputs
    partial_q = -x * zeta(x + 1, q)
    return [None, math.unbroadcast(partial_q * grad, q.shape.as_list())]


@RegisterGradient("NextAfter")
def _nextafter_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import ones, zeros
    x1, x2 = op.inputs
    s1, s2 = math._shapes(op)
    return [math.unbroadcast(ones(s1, dtype=x1.dtype) * grad, s1), math.unbroadcast(zeros(s2, dtype=x2.dtype) * grad, s2)]
