"""`keras.random` on the TensorFlow backend (keras/src/random/, backend/tensorflow/random.py).

Every draw is a stateless TF op of a seed pair, as in Keras: an integer seed `s` draws with
[s, 0] (the same values at every call), a `SeedGenerator` with its state [seed, counter] and
then advances the counter, `seed=None` with the global generator.
Unseeded generators and initializers get their seed from `make_default_seed()`. Keras takes it
from Python's `random` (`randint(1, 1e9)`). simdist does the same once `keras.utils.set_random_seed`
has seeded Python's `random` (then a program gets TF's initial weights and dropout masks without
`set_weights`); before that, Python's `random` is seeded from the OS, so simdist takes the seed
from an int64 RandomUniformInt stream of a fixed op seed instead (`KERAS_OP_SEED`: the (global
seed, op seed) kernel under `tf.random.set_seed`, else a pair derived from the session's root
seed; runtime/ops/random.py `default_seed`): it derives from the session's root seed and
`tf.random.set_seed`, advances per draw, and leaves TF's op-seed sequence alone. Every draw is TF's Philox values bit for bit
(stateless_uniform, normal, truncated_normal; docs/spec.md ops.random-bits, keras.init.seeding,
keras.layer.dropout).
"""

from __future__ import annotations

import random as _pyrandom
from typing import Any

import numpy as np

from simdist import tf
from simdist.keras import dtype_policies as dtypes
from simdist.keras.naming import auto_name, name_scope

__all__ = ["SeedGenerator", "make_default_seed", "draw_seed", "normal", "uniform", "truncated_normal", "dropout",
           "KERAS_OP_SEED"]

KERAS_OP_SEED = 0x4B455241   # "KERA": the op seed of the stream unseeded Keras objects draw their seeds from
_global: dict[str, Any] = {"generator": None}


def make_default_seed() -> int:
    """A seed in [1, 1e9] for an unseeded generator or initializer (see the module docstring)."""
    if tf.random._simdist_python_seeded():
        return _pyrandom.randint(1, int(1e9))   # Keras 3.15's make_default_seed
    return tf.random._simdist_default_seed(KERAS_OP_SEED, 1, int(1e9))


def seed_from_python() -> None:
    """From now on unseeded objects draw their seeds from Python's `random`, as Keras (called by
    `keras.utils.set_random_seed`, which has just seeded it); until the simulated machine is
    configured again (`simdist.reset()`), which forgets it."""
    tf.random._simdist_python_seeded(True)


class SeedGenerator:
    """`keras.random.SeedGenerator(seed)`: a [seed, counter] state variable; `next()` returns
    the state and advances the counter."""

    def __init__(self, seed: int | None = None, name: str | None = None, **kwargs: Any) -> None:
        from simdist.keras.variables import Variable
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
        self.name = name if name is not None else auto_name(type(self).__name__)
        self._initial_seed = seed
        if seed is None:
            seed = make_default_seed()
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed}")
        seed = int(seed)

        def seed_initializer(shape: Any, dtype: Any = None) -> Any:
            return tf.constant([seed, 0], dtype=dtype)

        with name_scope(self.name, caller=self):
            self.state = Variable(seed_initializer, shape=(2,), dtype="int64", trainable=False, aggregation="none",
                                  name="seed_generator_state")
        # Keras 3's SeedGenerator is no TF trackable: tf.train.Checkpoint skips its state (TF 2.21)
        self.state._simdist_not_checkpointed = True

    def next(self, ordered: bool = True) -> Any:
        value = tf.identity(tf.convert_to_tensor(self.state))
        if ordered:
            self.state.assign(value + tf.constant([0, 1], dtype=tf.int64))
        else:
            self.state.assign((value + 1) * 5387 % 933199)
        return value

    def get_config(self) -> dict[str, Any]:
        return {"seed": self._initial_seed, "name": self.name}


def global_seed_generator() -> SeedGenerator:
    gen = _global["generator"]
    if gen is None:
        gen = _global["generator"] = SeedGenerator()
    return gen


def reset_global_generator() -> None:
    _global["generator"] = None


def draw_seed(seed: Any) -> Any:
    """The seed pair of one draw (int64 [2])."""
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return tf.constant([int(seed), 0], dtype=tf.int64)
    if seed is None:
        return global_seed_generator().next(ordered=False)
    raise ValueError("Argument `seed` must be either an integer or an instance of `SeedGenerator`. "
                     f"Received: seed={seed} (of type {type(seed)})")


def _cast_seed(seed: Any) -> Any:
    """TF backend: int32 seeds for the stateless ops (floormod by int32 max - 1)."""
    return tf.cast(tf.math.floormod(seed, tf.constant(2**31 - 2, dtype=tf.int64)), tf.int32)


def normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None, seed: Any = None) -> Any:
    dtype = dtypes.standardize_dtype(dtype)
    return tf.random.stateless_normal(shape=list(shape), mean=mean, stddev=stddev, dtype=dtype,
                                      seed=_cast_seed(draw_seed(seed)))


def uniform(shape: Any, minval: float = 0.0, maxval: float = 1.0, dtype: Any = None, seed: Any = None) -> Any:
    dtype = dtypes.standardize_dtype(dtype)
    return tf.random.stateless_uniform(shape=list(shape), minval=tf.cast(minval, dtype), maxval=tf.cast(maxval, dtype),
                                       dtype=dtype, seed=_cast_seed(draw_seed(seed)))


def truncated_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None, seed: Any = None) -> Any:
    dtype = dtypes.standardize_dtype(dtype)
    return tf.random.stateless_truncated_normal(shape=list(shape), mean=mean, stddev=stddev, dtype=dtype,
                                                seed=_cast_seed(draw_seed(seed)))


def dropout(inputs: Any, rate: float, noise_shape: Any = None, seed: Any = None) -> Any:
    """Keras's TF dropout: zeros for rate 1, the inputs for rate 0, else tf's stateless dropout."""
    if rate == 1.0:
        return tf.zeros_like(inputs)
    if rate == 0.0:
        return inputs
    s = _cast_seed(draw_seed(seed))
    if noise_shape is not None:
        dims = tf.shape(inputs)
        noise_shape = [dims[i] if v is None else v for i, v in enumerate(noise_shape)]
    return tf.nn.experimental.stateless_dropout(inputs, rate=rate, noise_shape=noise_shape, seed=s)
