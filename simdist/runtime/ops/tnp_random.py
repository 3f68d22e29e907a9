"""`tnp.random` (TF 2.21's numpy_ops/np_random.py): draws of TF's stateful random ops
(tf.random.normal / uniform / poisson) under tf.random's global seed, float64 unless an
integer dtype is asked; `seed` is tf.random.set_seed."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import random as _random
from simdist.runtime.ops import tnp_arrays as _arr
from simdist.runtime.ops import tnp_dtypes as _dt
from simdist.runtime.tensor import Tensor

DEFAULT_RANDN_DTYPE = np.float32


def seed(s: Any) -> None:
    """`tnp.random.seed`: tf.random.set_seed(int(s)) (a non-integer: ValueError)."""
    try:
        s = int(s)
    except TypeError:
        raise ValueError(f"Argument `s` got an invalid value {s}. Only integers are supported.") from None
    _random.set_seed(s)


def _isscalar(val: Any) -> bool:
    """np_utils.isscalar: a tensor's rank is 0 (TF reads `val.data`, absent without NumPy
    behavior: AttributeError), else np.isscalar."""
    if isinstance(val, Tensor):
        raise _arr.astype_missing(val, "data")
    return bool(np.isscalar(val))


def standard_normal(size: Any = None) -> Tensor:
    """`tnp.random.standard_normal`: tf.random.normal of float64."""
    if size is None:
        size = ()
    elif _isscalar(size):
        size = (size,)
    return _random.normal(size, dtype=dtypes.float64)


def randn(*args: Any) -> Tensor:
    """`tnp.random.randn`: standard_normal of the shape `args`."""
    return standard_normal(size=args)


def uniform(low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Tensor:
    """`tnp.random.uniform`: tf.random.uniform of float64 between low and high (shape: their
    broadcast shape unless `size`)."""
    from simdist.runtime.ops.array_more import broadcast_dynamic_shape
    low = _arr.asarray(low, dtype=dtypes.float64)
    high = _arr.asarray(high, dtype=dtypes.float64)
    if size is None:
        size = broadcast_dynamic_shape(low.shape, high.shape)
    # (random_ops.random_uniform broadcasts tensor bounds: rnd * (maxval - minval) + minval)
    return _random.uniform(shape=size, minval=low, maxval=high, dtype=dtypes.float64)


def random(size: Any = None) -> Tensor:
    """`tnp.random.random`: uniform(0, 1, size)."""
    return uniform(0.0, 1.0, size)


def rand(*size: Any) -> Tensor:
    """`tnp.random.rand`: uniform(0, 1) of the shape `size`."""
    return uniform(0.0, 1.0, size)


def randint(low: Any, high: Any = None, size: Any = None, dtype: Any = np.int64) -> Tensor:
    """`tnp.random.randint`: tf.random.uniform integers in [low, high) ([0, low) without high)
    of int32 or int64 (other dtypes refused)."""
    low = int(low)
    if high is None:
        high, low = low, 0
    if size is None:
        size = ()
    elif isinstance(size, int):
        size = (size,)
    dtype_orig = dtype
    dtype = _dt.result_type(dtype)
    accepted = (np.int32, np.int64)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got an invalid value {dtype_orig}. Only those convertible to "
                         f"{accepted} are supported.")
    return _random.uniform(shape=size, minval=low, maxval=high, dtype=dtype)


def poisson(lam: Any = 1.0, size: Any = None) -> Tensor:
    """`tnp.random.poisson`: tf.random.poisson counts of int64."""
    from simdist.runtime.ops.random_gamma import poisson as _poisson
    if size is None:
        size = ()
    elif _isscalar(size):
        size = (size,)
    return _poisson(shape=size, lam=lam, dtype=dtypes.int64)
