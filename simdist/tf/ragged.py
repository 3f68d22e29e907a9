"""`tf.ragged`: constant, map_flat_values (simdist/runtime/ragged_tensor.py) and TF 2.21's other eight
functions (simdist/runtime/ops/ragged_functions.py; clause ops.ragged)."""

from simdist.runtime.ragged_tensor import constant  # noqa: F401  (the class is tf.RaggedTensor)
from simdist.runtime.ragged_tensor import map_flat_values  # noqa: F401
from simdist.runtime.ops.ragged_functions import (boolean_mask, cross, cross_hashed,  # noqa: F401
                                                  range_ as range, row_splits_to_segment_ids,  # noqa: A004
                                                  segment_ids_to_row_splits, stack, stack_dynamic_partitions)
