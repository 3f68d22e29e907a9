"""`tf.image`: resize (bilinear; computed by simdist/runtime/ops/resize.py)."""

from simdist.runtime.ops.resize import resize  # noqa: F401
