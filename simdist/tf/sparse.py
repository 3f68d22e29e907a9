"""`tf.sparse`: SparseTensor and its ops (simdist/runtime/ops/sparse_api.py and the kernels it
composes; clauses ops.sparse, ops.sparse-segments)."""

from simdist.runtime.sparse_tensor import SparseTensor  # noqa: F401
from simdist.runtime.ops.sparse_api import (add, concat, expand_dims, eye, fill_empty_rows, from_dense,  # noqa: F401
                                            map_values, mask, maximum, minimum, reduce_max, reduce_sum, reorder,
                                            reset_shape, reshape, retain, softmax, sparse_dense_matmul, split,
                                            to_dense, to_indicator, transpose)
from simdist.runtime.ops.sparse_api import slice_ as slice  # noqa: F401,A004
from simdist.runtime.ops.sparse_segments import segment_mean, segment_sqrt_n, segment_sum  # noqa: F401
from simdist.runtime.ops.sparse_count import bincount  # noqa: F401,E402
from simdist.runtime.ops.sparse_cross import cross, cross_hashed  # noqa: F401,E402
from simdist.runtime.ops.sparse_api import sampled_addmm  # noqa: F401,E402
