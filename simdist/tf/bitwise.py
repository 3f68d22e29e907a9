"""`tf.bitwise`: bitwise ops on integer tensors."""

from simdist.runtime.ops.bitwise import (bitwise_and, bitwise_or, bitwise_xor, invert, left_shift,  # noqa: F401
                                         right_shift)

from simdist.runtime.ops import ragged_dispatch as _ragged_dispatch  # noqa: E402
_ragged_dispatch.install(globals(), "bitwise.")   # (RaggedTensor arguments: TF's ragged dispatch, clause ops.ragged)
