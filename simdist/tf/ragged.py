"""`tf.ragged`: constant (simdist/runtime/ragged_tensor.py: a minimal RaggedTensor; clause
ops.strings-ragged)."""

from simdist.runtime.ragged_tensor import RaggedTensor, constant  # noqa: F401
