"""`tf.math`: the math ops simdist implements."""

from simdist.runtime.ops import (abs_ as abs, add, add_n, divide, equal, exp, maximum, minimum, multiply,  # noqa: F401,A004
                                 reduce_max, reduce_mean, reduce_min, reduce_sum, sqrt, square, subtract)
from simdist.runtime.ops import truediv  # noqa: F401
