"""`tf.math`: the math ops simdist implements."""

from simdist.runtime.ops import (abs_ as abs, add, add_n, argmax, argmin, ceil, cumprod, cumsum,  # noqa: F401,A004
                                 divide, divide_no_nan, equal, exp, floor, floordiv, floormod, greater,
                                 greater_equal, is_finite, is_inf, is_nan, less, less_equal, log, log1p, logical_and,
                                 logical_not, logical_or, logical_xor, maximum, minimum, multiply, negative,
                                 not_equal, pow_ as pow, reciprocal, reduce_all, reduce_any, reduce_logsumexp,
                                 reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_std, reduce_sum,
                                 reduce_variance, round_ as round, rsqrt, sign, sqrt, square, squared_difference,
                                 subtract, truediv)
from simdist.runtime.ops import segment_sum, top_k, unsorted_segment_sum  # noqa: F401
from simdist.runtime.ops.nn import (l2_normalize, log_softmax, sigmoid, softmax, softplus, softsign,  # noqa: F401,E402
                                    tanh)
from simdist.runtime.ops.special import (asinh, atan, cos, cosh, digamma, erf, expm1, lgamma,  # noqa: F401,E402
                                        log_sigmoid, polygamma, sin, sinh, tan)
from simdist.runtime.ops import cumulative_logsumexp, reduce_euclidean_norm  # noqa: F401,E402
from simdist.runtime.ops.segments import (segment_max, segment_mean, segment_min, segment_prod,  # noqa: F401,E402
                                          unsorted_segment_max, unsorted_segment_mean, unsorted_segment_min,
                                          unsorted_segment_prod, unsorted_segment_sqrt_n)
from simdist.runtime.ops.special import acos, acosh, asin, atanh, rint  # noqa: F401,E402
from simdist.runtime.ops.activations import erfc  # noqa: F401,E402
from simdist.runtime.ops.xfunctions import atan2, multiply_no_nan, xdivy, xlog1py, xlogy  # noqa: F401,E402
from simdist.runtime.ops.counting import bincount, count_nonzero, in_top_k  # noqa: F401,E402
from simdist.runtime.ops import floormod as mod  # noqa: F401,E402  (tf.math.mod is FloorMod)
# issue 29's second batch (runtime/ops/{special_more,math_more}.py; clauses ops.special-more, ops.composites)
from simdist.runtime.ops.special_more import (bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, betainc,  # noqa: F401,E402
                                             erfinv, igamma, igammac, ndtri, nextafter, zeta)
from simdist.runtime.ops.math_more import (accumulate_n, erfcinv, invert_permutation, is_non_decreasing,  # noqa: F401,E402
                                          is_strictly_increasing, lbeta, polyval, reciprocal_no_nan, scalar_mul,
                                          zero_fraction)
from simdist.runtime.ops.misc_more import angle, confusion_matrix, conj, imag, real  # noqa: F401,E402
# (no tf.math.complex: TF 2.21 has tf.complex only, AttributeError on tf.math; fz5 ext seed 61 #48)
from simdist.runtime.ops.math_more import approx_max_k, approx_min_k  # noqa: F401,E402
from simdist.tf import _math_special as special  # noqa: F401,E402  (tf.math.special: runtime/ops/special_funcs.py)
from simdist.runtime.ops.sobol import sobol_sample  # noqa: F401,E402  (clause ops.sobol)
from simdist.runtime.ops import sparse_api as _sparse_api  # noqa: E402  (SparseTensor arguments map their values)
(abs, asin, asinh, atan, atanh, bessel_i0e, bessel_i1e, erf, negative, sign, sin, sqrt, square, tan,  # noqa: A001
 tanh) = (_sparse_api.sparse_unary(_f) for _f in (abs, asin, asinh, atan, atanh, bessel_i0e, bessel_i1e, erf, negative,
                                                  sign, sin, sqrt, square, tan, tanh))

from simdist.runtime.ops import ragged_dispatch as _ragged_dispatch  # noqa: E402
_ragged_dispatch.install(globals(), "math.")   # (RaggedTensor arguments: TF's ragged dispatch, clause ops.ragged)

from simdist.runtime.ops import ragged_array as _ragged_array  # noqa: E402
_ragged_array.install(globals())   # (reductions of RaggedTensors: clause ops.ragged)

from simdist.runtime.ops import ragged_rows as _ragged_rows  # noqa: E402
_ragged_rows.install(globals(), "math")   # (row-wise ops of RaggedTensors: clause ops.ragged)
