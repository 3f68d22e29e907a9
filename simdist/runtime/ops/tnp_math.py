"""tnp's elementwise functions (TF 2.21's numpy_ops/np_math_ops.py): binary functions promote
both operands to NumPy's result type (`_bin_op`); unary ones convert with `asarray`, and the
float-valued ones (exp, sqrt, sin, ...) ask a non-float tensor for `astype` as TF's code does,
which without NumPy behavior is TF's AttributeError (`_scalar`). Bool operands of add/multiply/
maximum/minimum are logical or/and; of floor_divide/mod/bitwise ops go through int8.
"""

from __future__ import annotations

import numbers
from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import bitwise as _bitwise
from simdist.runtime.ops import tnp_arrays as _arr
from simdist.runtime.ops.activations import relu, tanh as _tanh
from simdist.runtime.ops.array import constant, fill, shape
from simdist.runtime.ops.math import (add as _add, cast, equal as _equal, floordiv, floormod, greater as _greater,
                                      greater_equal as _greater_equal, less as _less, less_equal as _less_equal,
                                      logical_and as _logical_and, logical_not as _logical_not,
                                      logical_or as _logical_or, logical_xor as _logical_xor, maximum as _maximum,
                                      minimum as _minimum, multiply as _multiply, not_equal as _not_equal, pow_,
                                      subtract as _subtract, truediv, where)
from simdist.runtime.ops.misc_more import angle as _angle, conj as _conj
from simdist.runtime.ops.reductions import reduce_all
from simdist.runtime.ops.special import acos, acosh, asin, asinh, atan, atanh, cos, cosh, sin, sinh, tan
from simdist.runtime.ops.special import expm1 as _expm1
from simdist.runtime.ops.special_more import nextafter as _nextafter
from simdist.runtime.ops.unary import (abs_, ceil as _ceil, exp as _exp, floor as _floor, is_finite, is_inf,
                                       is_nan, log as _log, log1p as _log1p, negative as _negative,
                                       reciprocal as _reciprocal, sqrt as _sqrt, square as _square)
from simdist.runtime.ops.xfunctions import atan2
from simdist.runtime.tensor import Tensor

pi = np.pi
e = np.e
inf = np.inf
newaxis = np.newaxis


def bin_op(tf_fun: Callable[[Tensor, Tensor], Any], a: Any, b: Any, promote: bool = True) -> Any:
    """np_math_ops._bin_op: both operands at their NumPy result type, then the TF function."""
    if promote:
        a, b = _arr.promote_dtype_binary(a, b)
    else:
        a, b = _arr.array(a), _arr.array(b)
    return tf_fun(a, b)


def scalar(tf_fn: Callable[[Tensor], Any], x: Any, promote_to_float: bool = False) -> Any:
    """np_math_ops._scalar: asarray, and a non-float operand of a float function asks for
    `astype` (TF's AttributeError while NumPy behavior is off)."""
    x = _arr.asarray(x)
    if promote_to_float and not _arr.is_inexact_tensor(x):
        raise _arr.astype_missing(x)
    return tf_fn(x)


def _bool_or(logical: Callable, arith: Callable) -> Callable:
    def f(x1: Tensor, x2: Tensor) -> Tensor:
        if x1.dtype == dtypes.bool_:
            return logical(x1, x2)
        return arith(x1, x2)
    return f


def add(x1: Any, x2: Any) -> Tensor:
    """`tnp.add` (bools: logical_or)."""
    return bin_op(_bool_or(_logical_or, _add), x1, x2)


def subtract(x1: Any, x2: Any) -> Tensor:
    """`tnp.subtract`."""
    return bin_op(_subtract, x1, x2)


def multiply(x1: Any, x2: Any) -> Tensor:
    """`tnp.multiply` (bools: logical_and)."""
    return bin_op(_bool_or(_logical_and, _multiply), x1, x2)


def true_divide(x1: Any, x2: Any) -> Tensor:
    """`tnp.true_divide`: tf.truediv at the promoted dtype (int32/int64 pairs give float64,
    TF's truediv; bools are cast to float64 first)."""
    def f(a: Tensor, b: Tensor) -> Tensor:
        if a.dtype == dtypes.bool_:
            a, b = cast(a, dtypes.float64), cast(b, dtypes.float64)
        return truediv(a, b)
    return bin_op(f, x1, x2)


def divide(x1: Any, x2: Any) -> Tensor:
    """`tnp.divide`: true_divide."""
    return true_divide(x1, x2)


def _int8_bools(tf_fn: Callable) -> Callable:
    def f(a: Tensor, b: Tensor) -> Tensor:
        if a.dtype == dtypes.bool_:
            a, b = cast(a, dtypes.int8), cast(b, dtypes.int8)
        return tf_fn(a, b)
    return f


def floor_divide(x1: Any, x2: Any) -> Tensor:
    """`tnp.floor_divide`: tf.math.floordiv (bools as int8)."""
    return bin_op(_int8_bools(floordiv), x1, x2)


def mod(x1: Any, x2: Any) -> Tensor:
    """`tnp.mod`: tf.math.floormod (bools as int8)."""
    return bin_op(_int8_bools(floormod), x1, x2)


remainder = mod


def divmod(x1: Any, x2: Any) -> tuple:  # noqa: A001
    """`tnp.divmod`: (floor_divide, mod)."""
    return floor_divide(x1, x2), mod(x1, x2)


def maximum(x1: Any, x2: Any) -> Tensor:
    """`tnp.maximum`: a literal 0 against a non-bool tensor is tf.nn.relu (bools: logical_or)."""
    if (isinstance(x2, numbers.Real) and not isinstance(x2, bool) and x2 == 0 and isinstance(x1, Tensor)
            and x1.dtype != dtypes.bool_):
        return relu(_arr.asarray(x1))
    return bin_op(_bool_or(_logical_or, _maximum), x1, x2)


def minimum(x1: Any, x2: Any) -> Tensor:
    """`tnp.minimum` (bools: logical_and)."""
    return bin_op(_bool_or(_logical_and, _minimum), x1, x2)


def clip(a: Any, a_min: Any, a_max: Any) -> Tensor:
    """`tnp.clip`: minimum/maximum with one bound None, else clip_by_value of the three promoted
    and broadcast."""
    from simdist.runtime.ops.clip import clip_by_value
    from simdist.runtime.ops.tnp_shape import tf_broadcast
    if a_min is None and a_max is None:
        raise ValueError("Not more than one of `a_min` and `a_max` may be `None`.")
    if a_min is None:
        return minimum(a, a_max)
    if a_max is None:
        return maximum(a, a_min)
    a, a_min, a_max = _arr.promote_dtype(a, a_min, a_max)
    return clip_by_value(*tf_broadcast(a, a_min, a_max))


def power(x1: Any, x2: Any) -> Tensor:
    """`tnp.power`: tf.pow at the promoted dtype."""
    return bin_op(pow_, x1, x2)


float_power = power


def arctan2(x1: Any, x2: Any) -> Tensor:
    """`tnp.arctan2`."""
    return bin_op(atan2, x1, x2)


def nextafter(x1: Any, x2: Any) -> Tensor:
    """`tnp.nextafter`."""
    return bin_op(_nextafter, x1, x2)


def heaviside(x1: Any, x2: Any) -> Tensor:
    """`tnp.heaviside`: 0 below zero, 1 above, x2 at zero; a non-float result asks for `astype`."""
    def f(a: Tensor, b: Tensor) -> Tensor:
        return where(a < 0, constant(0, dtype=b.dtype), where(a > 0, constant(1, dtype=b.dtype), b))
    y = bin_op(f, x1, x2)
    if not _arr.is_inexact_tensor(y):
        raise _arr.astype_missing(y)
    return y


def hypot(x1: Any, x2: Any) -> Tensor:
    """`tnp.hypot`: sqrt(square(x1) + square(x2)) (the `+` is the tensors' own)."""
    return sqrt(square(x1) + square(x2))


def logaddexp(x1: Any, x2: Any) -> Tensor:
    """`tnp.logaddexp`: max + log1p(exp(-|x1 - x2|)), x1 + x2 where the difference is NaN."""
    from simdist.runtime.ops.tnp_indexing import where as tnp_where
    amax = maximum(x1, x2)
    delta = x1 - x2
    return tnp_where(isnan(delta), x1 + x2, amax + log1p(exp(-abs(delta))))


def logaddexp2(x1: Any, x2: Any) -> Tensor:
    """`tnp.logaddexp2`: max + log1p(2**-|x1 - x2|) / log(2), x1 + x2 where the difference is NaN."""
    from simdist.runtime.ops.tnp_indexing import where as tnp_where
    amax = maximum(x1, x2)
    delta = x1 - x2
    return tnp_where(isnan(delta), x1 + x2, amax + log1p(exp2(-abs(delta))) / np.log(2))


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """`tnp.isclose`: |a - b| <= atol + rtol * |b| for floats (NaNs equal if asked), == otherwise."""
    from simdist.runtime.tensor import convert_to_tensor

    def f(x: Tensor, y: Tensor) -> Tensor:
        if _arr.is_inexact_tensor(x):
            rtol_ = convert_to_tensor(rtol, x.dtype.real_dtype)
            atol_ = convert_to_tensor(atol, x.dtype.real_dtype)
            result = abs_(x - y) <= atol_ + rtol_ * abs_(y)
            if equal_nan:
                result = result | is_nan(x) & is_nan(y)
            return result
        return x == y
    return bin_op(f, a, b)


def allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """`tnp.allclose`: all(isclose(...))."""
    from simdist.runtime.ops.tnp_reductions import all as tnp_all
    return tnp_all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _tf_gcd(x1: Tensor, x2: Tensor) -> Tensor:
    """np_math_ops._tf_gcd: Euclid's algorithm in a tf.while_loop over |x1|, |x2| broadcast."""
    from simdist.runtime.ops.array import broadcast_to
    from simdist.runtime.ops.array_more import broadcast_dynamic_shape
    from simdist.runtime.ops.control_flow import while_loop
    from simdist.runtime.ops.reductions import reduce_any
    if (not np.issubdtype(x1.dtype.as_numpy_dtype, np.integer)
            or not np.issubdtype(x2.dtype.as_numpy_dtype, np.integer)):
        raise ValueError("Arguments to gcd must be integers.")

    def body(a: Tensor, b: Tensor) -> tuple:
        b_safe = where(b != 0, b, constant(1, b.dtype))
        a, b = where(b != 0, b, a), where(b != 0, floormod(a, b_safe), constant(0, b.dtype))
        return where(a < b, b, a), where(a < b, a, b)
    sh = broadcast_dynamic_shape(shape(x1), shape(x2))
    value, _ = while_loop(lambda _, b: reduce_any(b != 0), body,
                          (abs_(broadcast_to(x1, sh)), abs_(broadcast_to(x2, sh))))
    return value


def gcd(x1: Any, x2: Any) -> Tensor:
    """`tnp.gcd` (integers only: ValueError otherwise)."""
    return bin_op(_tf_gcd, x1, x2)


def lcm(x1: Any, x2: Any) -> Tensor:
    """`tnp.lcm`: |x1| * (|x2| // gcd), 0 where the gcd is 0."""
    def f(a: Tensor, b: Tensor) -> Tensor:
        d = _tf_gcd(a, b)
        d_safe = where(_equal(d, 0), constant(1, d.dtype), d)
        return where(_equal(d, 0), constant(0, d.dtype), abs_(a) * (abs_(b) // d_safe))
    return bin_op(f, x1, x2)


def _bitwise_binary_op(tf_fn: Callable, x1: Any, x2: Any) -> Tensor:
    def f(a: Tensor, b: Tensor) -> Tensor:
        is_bool = a.dtype == dtypes.bool_
        if is_bool:
            a, b = cast(a, dtypes.int8), cast(b, dtypes.int8)
        r = tf_fn(a, b)
        return cast(r, dtypes.bool_) if is_bool else r
    return bin_op(f, x1, x2)


def bitwise_and(x1: Any, x2: Any) -> Tensor:
    """`tnp.bitwise_and` (bools through int8)."""
    return _bitwise_binary_op(_bitwise.bitwise_and, x1, x2)


def bitwise_or(x1: Any, x2: Any) -> Tensor:
    """`tnp.bitwise_or` (bools through int8)."""
    return _bitwise_binary_op(_bitwise.bitwise_or, x1, x2)


def bitwise_xor(x1: Any, x2: Any) -> Tensor:
    """`tnp.bitwise_xor` (bools through int8)."""
    return _bitwise_binary_op(_bitwise.bitwise_xor, x1, x2)


def bitwise_not(x: Any) -> Tensor:
    """`tnp.bitwise_not`: logical_not of bools, tf.bitwise.invert otherwise."""
    return scalar(lambda t: _logical_not(t) if t.dtype == dtypes.bool_ else _bitwise.invert(t), x)


def log(x: Any) -> Tensor:
    """`tnp.log` (float operands only)."""
    return scalar(_log, x, True)


def exp(x: Any) -> Tensor:
    """`tnp.exp` (float operands only)."""
    return scalar(_exp, x, True)


def sqrt(x: Any) -> Tensor:
    """`tnp.sqrt` (float operands only)."""
    return scalar(_sqrt, x, True)


def abs(x: Any) -> Tensor:  # noqa: A001
    """`tnp.abs`."""
    return scalar(abs_, x)


absolute = abs
fabs = abs


def ceil(x: Any) -> Tensor:
    """`tnp.ceil` (float operands only)."""
    return scalar(_ceil, x, True)


def floor(x: Any) -> Tensor:
    """`tnp.floor` (float operands only)."""
    return scalar(_floor, x, True)


def conj(x: Any) -> Tensor:
    """`tnp.conj`."""
    return scalar(_conj, x)


conjugate = conj


def negative(x: Any) -> Tensor:
    """`tnp.negative`."""
    return scalar(_negative, x)


def reciprocal(x: Any) -> Tensor:
    """`tnp.reciprocal` (tf.math.reciprocal: integers too)."""
    return scalar(_reciprocal, x)


def signbit(x: Any) -> Tensor:
    """`tnp.signbit`: x < 0 (all False for bools)."""
    return scalar(lambda t: fill(shape(t), False) if t.dtype == dtypes.bool_ else t < 0, x)


def _float_fn(tf_fn: Callable, name: str) -> Callable:
    def f(x: Any) -> Tensor:
        return scalar(tf_fn, x, True)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"`tnp.{name}` (float operands only)."
    return f


sin, cos, tan = _float_fn(sin, "sin"), _float_fn(cos, "cos"), _float_fn(tan, "tan")
sinh, cosh, tanh = _float_fn(sinh, "sinh"), _float_fn(cosh, "cosh"), _float_fn(_tanh, "tanh")
arcsin, arccos, arctan = _float_fn(asin, "arcsin"), _float_fn(acos, "arccos"), _float_fn(atan, "arctan")
arcsinh, arccosh, arctanh = _float_fn(asinh, "arcsinh"), _float_fn(acosh, "arccosh"), _float_fn(atanh, "arctanh")
expm1, log1p = _float_fn(_expm1, "expm1"), _float_fn(_log1p, "log1p")
isnan, isfinite = _float_fn(is_nan, "isnan"), _float_fn(is_finite, "isfinite")


def deg2rad(x: Any) -> Tensor:
    """`tnp.deg2rad`: x * (pi / 180) (float operands only)."""
    return scalar(lambda t: t * (np.pi / 180.0), x, True)


def rad2deg(x: Any) -> Any:
    """`tnp.rad2deg`: x * (180 / pi), with no conversion (a Python float stays one)."""
    return x * (180.0 / np.pi)


_TF_FLOATS = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


def angle(z: Any, deg: bool = False) -> Any:
    """`tnp.angle`: pi where a real operand is negative, else 0; tf.math.angle of complex."""
    def f(x: Tensor) -> Tensor:
        if x.dtype in _TF_FLOATS:
            return where(x < 0, np.pi, 0)
        return _angle(x)
    y = scalar(f, z, True)
    return rad2deg(y) if deg else y


def cbrt(x: Any) -> Tensor:
    """`tnp.cbrt`: |x| ** (1/3) with x's sign (float operands only)."""
    def f(t: Tensor) -> Tensor:
        rt = abs_(t) ** (1.0 / 3)
        return where(t < 0, -rt, rt)
    return scalar(f, x, True)


def exp2(x: Any) -> Tensor:
    """`tnp.exp2`: 2 ** x (float operands only)."""
    return scalar(lambda t: 2 ** t, x, True)


def fix(x: Any) -> Tensor:
    """`tnp.fix`: ceil below zero, floor above (float operands only)."""
    return scalar(lambda t: where(t < 0, _ceil(t), _floor(t)), x, True)


def iscomplex(x: Any) -> Tensor:
    """`tnp.iscomplex`: imag(x) != 0."""
    from simdist.runtime.ops.tnp_complex import imag
    return imag(x) != 0


def isreal(x: Any) -> Tensor:
    """`tnp.isreal`: imag(x) == 0."""
    from simdist.runtime.ops.tnp_complex import imag
    return imag(x) == 0


def iscomplexobj(x: Any) -> bool:
    """`tnp.iscomplexobj`: whether array(x)'s dtype is complex."""
    return bool(np.issubdtype(_arr.array(x).dtype.as_numpy_dtype, np.complexfloating))


def isrealobj(x: Any) -> bool:
    """`tnp.isrealobj`: not iscomplexobj."""
    return not iscomplexobj(x)


def isinf(x: Any) -> Any:
    """`tnp.isinf`: reads `x.dtype` (a list has none: AttributeError); False for non-floats."""
    if x.dtype.is_floating:
        return scalar(is_inf, x, True)
    return False


def isneginf(x: Any) -> Any:
    """`tnp.isneginf`: x == -inf for floats, False otherwise."""
    from simdist.runtime.ops.tnp_creation import full_like
    if x.dtype.is_floating:
        return x == full_like(x, -np.inf)
    return False


def isposinf(x: Any) -> Any:
    """`tnp.isposinf`: x == inf for floats, False otherwise."""
    from simdist.runtime.ops.tnp_creation import full_like
    if x.dtype.is_floating:
        return x == full_like(x, np.inf)
    return False


def log2(x: Any) -> Tensor:
    """`tnp.log2`: log(x) / log(2)."""
    return log(x) / np.log(2)


def log10(x: Any) -> Tensor:
    """`tnp.log10`: log(x) / log(10)."""
    return log(x) / np.log(10)


def positive(x: Any) -> Tensor:
    """`tnp.positive`: asarray(x)."""
    return scalar(lambda t: t, x)


def sinc(x: Any) -> Tensor:
    """`tnp.sinc`: sin(pi x) / (pi x), 1 at 0 (float operands only)."""
    def f(t: Tensor) -> Tensor:
        from simdist.runtime.ops.array import ones_like
        pi_x = t * np.pi
        return where(t == 0, ones_like(t), sin(pi_x) / pi_x)
    return scalar(f, x, True)


def square(x: Any) -> Tensor:
    """`tnp.square`."""
    return scalar(_square, x)


def _comparison(tf_fun: Callable, x1: Any, x2: Any, cast_bool_to_int: bool = False) -> Any:
    """np_math_ops._comparison: both operands at their result type (bools as int32 for order)."""
    from simdist.runtime.ops.tnp_dtypes import result_type
    dtype = result_type(x1, x2)
    x1, x2 = _arr.array(x1, dtype=dtype), _arr.array(x2, dtype=dtype)
    if cast_bool_to_int and x1.dtype == dtypes.bool_:
        x1, x2 = cast(x1, dtypes.int32), cast(x2, dtypes.int32)
    return tf_fun(x1, x2)


def equal(x1: Any, x2: Any) -> Tensor:
    """`tnp.equal`."""
    return _comparison(_equal, x1, x2)


def not_equal(x1: Any, x2: Any) -> Tensor:
    """`tnp.not_equal`."""
    return _comparison(_not_equal, x1, x2)


def greater(x1: Any, x2: Any) -> Tensor:
    """`tnp.greater`."""
    return _comparison(_greater, x1, x2, True)


def greater_equal(x1: Any, x2: Any) -> Tensor:
    """`tnp.greater_equal`."""
    return _comparison(_greater_equal, x1, x2, True)


def less(x1: Any, x2: Any) -> Tensor:
    """`tnp.less`."""
    return _comparison(_less, x1, x2, True)


def less_equal(x1: Any, x2: Any) -> Tensor:
    """`tnp.less_equal`."""
    return _comparison(_less_equal, x1, x2, True)


def array_equal(a1: Any, a2: Any) -> Tensor:
    """`tnp.array_equal`: False unless the ranks and shapes agree, else all(a1 == a2)."""
    def f(x1: Tensor, x2: Tensor) -> Tensor:
        if x1.shape.rank != x2.shape.rank or list(x1.shape) != list(x2.shape):
            return constant(False)
        return reduce_all(_equal(x1, x2))
    return _comparison(f, a1, a2)


def _logical(tf_fun: Callable, x1: Any, x2: Any) -> Tensor:
    return tf_fun(_arr.array(x1, dtype=np.bool_), _arr.array(x2, dtype=np.bool_))


def logical_and(x1: Any, x2: Any) -> Tensor:
    """`tnp.logical_and` (operands cast to bool)."""
    return _logical(_logical_and, x1, x2)


def logical_or(x1: Any, x2: Any) -> Tensor:
    """`tnp.logical_or` (operands cast to bool)."""
    return _logical(_logical_or, x1, x2)


def logical_xor(x1: Any, x2: Any) -> Tensor:
    """`tnp.logical_xor` (operands cast to bool)."""
    return _logical(_logical_xor, x1, x2)


def logical_not(x: Any) -> Tensor:
    """`tnp.logical_not` (operand cast to bool)."""
    return _logical_not(_arr.array(x, dtype=np.bool_))


def sign(x: Any, out: Any = None, where: Any = None, **kwargs: Any) -> Tensor:  # noqa: A002
    """`tnp.sign`: tf.math.sign (NumPy 2's rule); `out`, `where` and other arguments refused."""
    from simdist.runtime.ops.unary import sign as _sign
    if out:
        raise ValueError("tf.numpy doesnt support setting out.")
    if where:
        raise ValueError("tf.numpy doesnt support setting where.")
    if kwargs:
        raise ValueError(f"tf.numpy doesnt support setting {kwargs.keys()}")
    return _sign(_arr.asarray(x))


def polyval(p: Any, x: Any) -> Tensor:
    """`tnp.polyval`: tf.math.polyval of p's entries (a scalar p broadcast to x's shape)."""
    from simdist.runtime.ops.array import broadcast_to, reshape, unstack
    from simdist.runtime.ops.math_more import polyval as _polyval

    def f(pp: Tensor, xx: Tensor) -> Tensor:
        if _arr.graph_shape(pp).rank == 0:
            pp = reshape(pp, [1])
        coeffs = unstack(pp)
        y = _polyval(coeffs, xx)
        if len(coeffs) == 1:
            y = broadcast_to(y, _arr.graph_shape(xx))
        return y
    return bin_op(f, p, x)
