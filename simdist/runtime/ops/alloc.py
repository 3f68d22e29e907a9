"""The output-size checks of TF's kernels that allocate a tensor of a shape they are given (Fill,
Zeros, Ones, ScatterNd): a shape of more than 2**63 - 1 elements is TensorShape's
InvalidArgumentError ("Shape [a,b] would have more than 2**63 - 1 elements"), a shape that fits but
whose bytes the allocator cannot give is ResourceExhaustedError ("OOM when allocating tensor with
shape[a,b] and type T"). Without them NumPy's own ValueError ("array is too big") leaked. The
bytes limit is the one simdist uses for Range (array.RANGE_BYTES_LIMIT: TF's CPU allocator fails
where the host's malloc does; simdist refuses from 4 GiB). Clause ops.argument-errors.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from simdist.runtime import dtypes, errors

__all__ = ["BYTES_LIMIT", "HOST_BYTES", "check_output"]

BYTES_LIMIT = 2**32
# The bytes beyond which TF's allocator fails on the reference host (23 GB, Linux's overcommit
# heuristic: TF 2.21 allocates 4 GiB + 4 bytes for bincount and then finds its negative values,
# fz5 seed 62 #44; it refuses 2**40 elements). Used for the order of errors: an op whose kernel
# allocates before it checks values passes `limit=HOST_BYTES` there, then refuses beyond
# BYTES_LIMIT after its checks (simdist writes its arrays out: a documented deviation).
HOST_BYTES = 2**35
_C_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def check_output(op: str, shape: Sequence[int], dtype: dtypes.DType, limit: int = BYTES_LIMIT) -> None:
    """Raise TF's error for an output of `shape` and `dtype` its kernel cannot allocate (beyond
    `limit` bytes: ResourceExhaustedError)."""
    dims = [int(d) for d in shape]
    if any(d < 0 for d in dims):
        return   # (negative dimensions: each op's own check)
    n = 1
    for d in dims:
        n *= d
    text = ",".join(str(d) for d in dims)
    if n > 2**63 - 1:
        raise errors.InvalidArgumentError(None, None, f"Shape [{text}] would have more than 2**63 - 1 elements "
                                                      f"[Op:{op}]")
    size = np.dtype(dtype.np).itemsize if dtype.name != "string" else 8
    if n * size > limit:
        raise errors.ResourceExhaustedError(None, None, f"OOM when allocating tensor with shape[{text}] and type "
                                                        f"{_C_NAMES.get(dtype.name, dtype.name)} on /job:localhost/"
                                                        f"replica:0/task:0/device:CPU:0 by allocator cpu [Op:{op}]")
