"""`tf.experimental.numpy` (clause ops.experimental-numpy): TF's NumPy API over tf ops, as TF
2.21 runs it without `experimental_enable_numpy_behavior` (which simdist refuses with
NotImplementedError: see the function). The rules live in simdist/runtime/ops/tnp_*.py; this module only re-exports them."""

from types import SimpleNamespace as _NS

from simdist.runtime.ops.tnp_arrays import array, asanyarray, asarray, ascontiguousarray, copy, ndarray  # noqa: F401
from simdist.runtime.ops.tnp_complex import around, imag, real, round  # noqa: F401,A004
from simdist.runtime.ops.tnp_creation import (arange, diag, diag_indices, diagflat, empty, empty_like, eye,  # noqa: F401
                                              full, full_like, geomspace, identity, ix_, linspace, logspace,
                                              meshgrid, ones, ones_like, tri, tril, triu, vander, zeros, zeros_like)
from simdist.runtime.ops.tnp_dtypes import (bool_, complex64, complex128, complex_, finfo, float16, float32,  # noqa: F401
                                            float64, float_, iinfo, inexact, int8, int16, int32, int64, int_,
                                            issubdtype, object_, promote_types, result_type, string_, uint8, uint16,
                                            uint32, uint64, unicode_)
from simdist.runtime.ops.tnp_indexing import (argsort, compress, diagonal, nonzero, select, sort, take,  # noqa: F401
                                              take_along_axis, where)
from simdist.runtime.ops.tnp_linalg import cross, dot, einsum, inner, kron, matmul, outer, tensordot, vdot  # noqa: F401
from simdist.runtime.ops.tnp_math import (abs, absolute, add, allclose, angle, arccos, arccosh, arcsin,  # noqa: F401,A004
                                          arcsinh, arctan, arctan2, arctanh, array_equal, bitwise_and, bitwise_not,
                                          bitwise_or, bitwise_xor, cbrt, ceil, clip, conj, conjugate, cos, cosh,
                                          deg2rad, divide, divmod, e, equal, exp, exp2, expm1, fabs, fix, float_power,
                                          floor, floor_divide, gcd, greater, greater_equal, heaviside, hypot, inf,
                                          iscomplex, iscomplexobj, isclose, isfinite, isinf, isnan, isneginf,
                                          isposinf, isreal, isrealobj, lcm, less, less_equal, log, log10, log1p, log2,
                                          logaddexp, logaddexp2, logical_and, logical_not, logical_or, logical_xor,
                                          maximum, minimum, mod, multiply, negative, newaxis, nextafter, not_equal,
                                          pi, polyval, positive, power, rad2deg, reciprocal, remainder, sign, signbit,
                                          sin, sinc, sinh, sqrt, square, subtract, tan, tanh, true_divide)
from simdist.runtime.ops.tnp_reductions import (all, amax, amin, any, argmax, argmin, average,  # noqa: F401,A004
                                                count_nonzero, cumprod, cumsum, diff, max, mean, min, nanmean,
                                                nanprod, nansum, prod, ptp, std, sum, trace, var)
from simdist.runtime.ops.tnp_shape import (append, atleast_1d, atleast_2d, atleast_3d, broadcast_arrays,  # noqa: F401
                                           broadcast_to, concatenate, dsplit, dstack, expand_dims, flatten, flip,
                                           fliplr, flipud, hsplit, hstack, isscalar, moveaxis, ndim, pad, ravel,
                                           repeat, reshape, roll, rot90, shape, size, split, squeeze, stack,
                                           swapaxes, tile, transpose, vsplit, vstack)
from simdist.runtime.ops import tnp_random as _random

random = _NS(poisson=_random.poisson, rand=_random.rand, randint=_random.randint, randn=_random.randn,
             random=_random.random, seed=_random.seed, standard_normal=_random.standard_normal,
             uniform=_random.uniform)


def experimental_enable_numpy_behavior(prefer_float32: bool = False, dtype_conversion_mode: str = "legacy") -> None:
    """`tf.experimental.numpy.experimental_enable_numpy_behavior`: refused (NotImplementedError). TF 2.21's
    (np_config.py) switches the whole process, irreversibly: ops.set_dtype_conversion_mode(mode), NumPy-style
    slicing, NumPy's ndarray methods on every tensor (reshape, ravel, astype, T, ...; np_math_ops
    enable_numpy_methods_on_tensor) and float64 for Python floats unless prefer_float32. simdist models none
    of these, so a program that enables them would silently get TF's default behaviour instead (clause
    ops.experimental-numpy)."""
    raise NotImplementedError(
        "simdist does not implement tf.experimental.numpy.experimental_enable_numpy_behavior("
        f"prefer_float32={prefer_float32!r}, dtype_conversion_mode={dtype_conversion_mode!r}): TF 2.21's switches "
        "the process to NumPy-style dtype conversion and slicing, NumPy methods on tensors and float64 Python "
        "floats, none of which simdist models; the program would run with TF's default behaviour instead")
