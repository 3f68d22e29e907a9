"""`tf.linalg`: the linear-algebra ops simdist implements."""

from simdist.runtime.ops import eye, global_norm, matmul  # noqa: F401
