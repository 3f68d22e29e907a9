"""`tf.linalg`: the linear-algebra ops simdist implements (l2_normalize is tf.nn's)."""

from simdist.runtime.ops import (einsum, eye, global_norm, matmul, matrix_transpose, matvec, norm,  # noqa: F401
                                 tensordot, trace)
from simdist.runtime.ops.diag import diag, diag_part  # noqa: F401,E402
