"""`tf.math`: the math ops simdist implements."""

from simdist.runtime.ops import (abs_ as abs, add, add_n, divide, equal, exp, floordiv, floormod,  # noqa: F401,A004
                                 greater, greater_equal, less, less_equal, log, maximum, minimum, multiply,
                                 negative, not_equal, pow_ as pow, reduce_max, reduce_mean, reduce_min, reduce_sum,
                                 sign, sqrt, square, subtract, truediv)
