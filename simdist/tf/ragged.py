"""`tf.ragged`: constant, map_flat_values (simdist/runtime/ragged_tensor.py: a minimal RaggedTensor; clause
ops.strings-ragged)."""

from simdist.runtime.ragged_tensor import constant  # noqa: F401  (the class is tf.RaggedTensor)
from simdist.runtime.ragged_tensor import map_flat_values  # noqa: F401
