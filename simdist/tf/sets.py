"""`tf.sets`: set operations over the last dimension (simdist/runtime/ops/sets.py; clause ops.sets)."""

from simdist.runtime.ops.sets import difference, intersection, size, union  # noqa: F401
