"""TF's own initializers at the top level (init_ops_v2.py): `tf.zeros_initializer`,
`tf.ones_initializer`, `tf.constant_initializer`, `tf.random_normal_initializer` and
`tf.random_uniform_initializer`. A seeded random initializer draws the stateless op with seed
[seed, 0] (the same values on every call); an unseeded one the stateful op (the global seed's
stream, ops.random-bits), as TF's _RandomGenerator does. Clause ops.initializers."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes

__all__ = ["Zeros", "Ones", "Constant", "RandomNormal", "RandomUniform"]

_PARTITION_SHAPE, _PARTITION_OFFSET = "partition_shape", "partition_offset"


class Initializer:
    """init_ops_v2.Initializer: __call__(shape, dtype, **kwargs), get_config/from_config."""

    def __call__(self, shape: Any, dtype: Any = None, **kwargs: Any) -> Any:
        raise NotImplementedError("Initializer subclasses implement __call__")

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> "Initializer":
        config = dict(config)
        config.pop("dtype", None)
        return cls(**config)

    def _validate_kwargs(self, kwargs: dict, support_partition: bool = True) -> None:
        for kwarg in kwargs:
            if kwarg not in (_PARTITION_SHAPE, _PARTITION_OFFSET):
                raise TypeError(f"Keyword argument should be one of {[_PARTITION_SHAPE, _PARTITION_OFFSET]}. "
                                f"Received: {kwarg}")
            if not support_partition:
                raise ValueError(f"{self.__class__.__name__} initializer doesn't support partition-related arguments")


def _numeric(dtype: Any) -> dtypes.DType:
    d = dtypes.as_dtype(dtype)
    if d == dtypes.string or d.name in ("variant", "resource"):
        raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received {d}.")
    return d


class Zeros(Initializer):
    """`tf.zeros_initializer`: tf.zeros(shape, dtype)."""

    def __call__(self, shape: Any, dtype: Any = dtypes.float32, **kwargs: Any) -> Any:
        from simdist.runtime.ops import zeros
        self._validate_kwargs(kwargs)
        d = _numeric(dtype)
        return zeros(kwargs.get(_PARTITION_SHAPE, shape), d)


class Ones(Initializer):
    """`tf.ones_initializer`: tf.ones(shape, dtype)."""

    def __call__(self, shape: Any, dtype: Any = dtypes.float32, **kwargs: Any) -> Any:
        from simdist.runtime.ops import ones
        self._validate_kwargs(kwargs)
        d = _numeric(dtype)
        return ones(kwargs.get(_PARTITION_SHAPE, shape), d)


class Constant(Initializer):
    """`tf.constant_initializer`: tf.constant(value, dtype, shape)."""

    def __init__(self, value: Any = 0, support_partition: bool = False) -> None:
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f"Invalid type for initial value: {type(value).__name__}. Expected Python scalar, list or "
                            "tuple of values, or numpy.ndarray.")
        self.value = value
        self.support_partition = support_partition

    def __call__(self, shape: Any, dtype: Any = None, **kwargs: Any) -> Any:
        from simdist.runtime.ops import constant
        self._validate_kwargs(kwargs, support_partition=self.support_partition)
        d = dtypes.as_dtype(dtype) if dtype is not None else None
        return constant(self.value, dtype=d, shape=shape)

    def get_config(self) -> dict:
        return {"value": self.value}


class _RandomGenerator:
    """init_ops_v2._RandomGenerator: stateless ops with seed [seed, 0], or the stateful ones."""

    def __init__(self, seed: Any = None) -> None:
        self.seed = [seed, 0] if seed is not None else None

    def random_normal(self, shape: Any, mean: Any, stddev: Any, dtype: Any) -> Any:
        from simdist.runtime.ops import random
        if self.seed:
            return random.stateless_normal(shape, self.seed, mean=mean, stddev=stddev, dtype=dtype)
        return random.normal(shape, mean=mean, stddev=stddev, dtype=dtype, seed=None)

    def random_uniform(self, shape: Any, minval: Any, maxval: Any, dtype: Any) -> Any:
        from simdist.runtime.ops import random
        if self.seed:
            return random.stateless_uniform(shape, self.seed, minval=minval, maxval=maxval, dtype=dtype)
        return random.uniform(shape, minval=minval, maxval=maxval, dtype=dtype, seed=None)


class RandomUniform(Initializer):
    """`tf.random_uniform_initializer`: uniform draws in [minval, maxval) (floats or integers)."""

    def __init__(self, minval: Any = -0.05, maxval: Any = 0.05, seed: Any = None) -> None:
        self.minval, self.maxval, self.seed = minval, maxval, seed
        self._random_generator = _RandomGenerator(seed)

    def __call__(self, shape: Any, dtype: Any = dtypes.float32, **kwargs: Any) -> Any:
        self._validate_kwargs(kwargs)
        d = dtypes.as_dtype(dtype)
        if not d.is_floating and not d.is_integer:
            raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received {d}.")
        return self._random_generator.random_uniform(kwargs.get(_PARTITION_SHAPE, shape), self.minval, self.maxval, d)

    def get_config(self) -> dict:
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class RandomNormal(Initializer):
    """`tf.random_normal_initializer`: normal draws of `mean` and `stddev` (floating dtypes only)."""

    def __init__(self, mean: Any = 0.0, stddev: Any = 0.05, seed: Any = None) -> None:
        self.mean, self.stddev, self.seed = mean, stddev, seed
        self._random_generator = _RandomGenerator(seed)

    def __call__(self, shape: Any, dtype: Any = dtypes.float32, **kwargs: Any) -> Any:
        self._validate_kwargs(kwargs)
        d = dtypes.as_dtype(dtype)
        if not d.is_floating:
            raise ValueError(f"Argument `dtype` is expected to be floating point. Received: {d}.")
        return self._random_generator.random_normal(kwargs.get(_PARTITION_SHAPE, shape), self.mean, self.stddev, d)

    def get_config(self) -> dict:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}
