"""`tf.distribute.experimental.partitioners`: how many shards a variable gets (TF's argument errors)."""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes
from simdist.runtime.tensor import TensorShape
from simdist.semantics import partition


class Partitioner:
    """Base class: `partitioner(shape, dtype) -> [num_shards, 1, 1, ...]`."""

    def __call__(self, shape: Any, dtype: Any, axis: int = 0) -> list[int]:
        raise NotImplementedError


def _elem_bytes(dtype: Any, bytes_per_string: int) -> int:
    dt = dtypes.as_dtype(dtype)
    return bytes_per_string if dt is dtypes.string else dt.size


class FixedShardsPartitioner(Partitioner):
    """Clause pss.fixed-shards-partitioner: a fixed number of shards (fewer if the axis is shorter)."""

    def __init__(self, num_shards: int) -> None:
        self._num_shards = num_shards

    def __call__(self, shape: Any, dtype: Any, axis: int = 0) -> list[int]:
        return partition.fixed_shards(list(TensorShape(shape)), self._num_shards, axis)


class MinSizePartitioner(Partitioner):
    """Clause pss.min-size-partitioner: shards of at least `min_shard_bytes`, at most `max_shards`."""

    def __init__(self, min_shard_bytes: int = 256 << 10, max_shards: int = 1, bytes_per_string: int = 16) -> None:
        for name, v in (("min_shard_bytes", min_shard_bytes), ("max_shards", max_shards),
                        ("bytes_per_string", bytes_per_string)):
            if v < 1:
                raise ValueError(f"Argument `{name}` must be positive. Received: {v}")
        self._min_shard_bytes = min_shard_bytes
        self._max_shards = max_shards
        self._bytes_per_string = bytes_per_string

    def __call__(self, shape: Any, dtype: Any, axis: int = 0) -> list[int]:
        return partition.min_size_shards(list(TensorShape(shape)), _elem_bytes(dtype, self._bytes_per_string),
                                         self._min_shard_bytes, self._max_shards, axis)


class MaxSizePartitioner(Partitioner):
    """Clause pss.max-size-partitioner: shards of at most `max_shard_bytes` (at least one slice
    each), at most `max_shards` (None or 0: no limit)."""

    def __init__(self, max_shard_bytes: int, max_shards: int | None = None, bytes_per_string: int = 16) -> None:
        if max_shard_bytes < 1:
            raise ValueError(f"Argument `max_shard_bytes` must be positive. Received {max_shard_bytes}")
        if max_shards and max_shards < 1:   # 0 (falsy) means no limit, as in TF 2.21
            raise ValueError(f"Argument `max_shards` must be positive. Received {max_shards}")
        if bytes_per_string < 1:
            raise ValueError(f"Argument `bytes_per_string` must be positive. Received: {bytes_per_string}")
        self._max_shard_bytes = max_shard_bytes
        self._max_shards = max_shards
        self._bytes_per_string = bytes_per_string

    def __call__(self, shape: Any, dtype: Any, axis: int = 0) -> list[int]:
        if not isinstance(shape, TensorShape):
            raise ValueError(f"shape is not a TensorShape: {shape}")
        if not shape.is_fully_defined():
            raise ValueError(f"shape is not fully defined: {shape}")
        if not isinstance(dtype, dtypes.DType):
            raise ValueError(f"dtype is not a DType: {dtype}")
        return partition.max_size_shards(shape.as_list(), _elem_bytes(dtype, self._bytes_per_string),
                                         self._max_shard_bytes, self._max_shards, axis)
