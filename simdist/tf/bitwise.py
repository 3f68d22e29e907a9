"""`tf.bitwise`: bitwise ops on integer tensors."""

from simdist.runtime.ops.bitwise import (bitwise_and, bitwise_or, bitwise_xor, invert, left_shift,  # noqa: F401
                                         right_shift)
