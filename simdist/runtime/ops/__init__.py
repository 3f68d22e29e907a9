"""Tensor ops: one registry (registry.py), one dispatch (dispatch.py), and the op functions of
the facade grouped as TF groups them (math, unary, array, linalg, random), each op's gradient
beside it. Importing this package installs Tensor's operators."""

from __future__ import annotations

from simdist.runtime.ops import registry, dispatch  # noqa: F401
from simdist.runtime.ops.args import shape_arg as _shape_arg, t as _t  # noqa: F401
from simdist.runtime.ops.unary import abs_, exp, log, negative, sign, sqrt, square  # noqa: F401
from simdist.runtime.ops.math import (add, add_n, cast, divide, equal, floordiv, floormod, greater,  # noqa: F401
                                      greater_equal, less, less_equal, maximum, minimum, multiply, not_equal,
                                      pow_, reduce_max, reduce_mean, reduce_min, reduce_sum, subtract, truediv,
                                      where)
from simdist.runtime.ops.array import (broadcast_to, concat, concat_arrays, constant, embedding_lookup,  # noqa: F401
                                       expand_dims, fill, gather, identity, ones, ones_like, range_, rank, reshape,
                                       shape, size, split, squeeze, stack, stop_gradient, strided_slice, transpose,
                                       unstack, zeros, zeros_like)
from simdist.runtime.ops.linalg import matmul  # noqa: F401
from simdist.runtime.ops import random  # noqa: F401
from simdist.runtime.tensor import TensorShape, convert_to_tensor  # noqa: F401
