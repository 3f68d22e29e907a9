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
        if not isinstance(seed, int):   # (Keras 3.15: a NumPy integer is refused too)
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed}")
        if isinstance(seed, bool):   # (an int to isinstance: Keras's convert_to_tensor([seed, 0]) refuses it)
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
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
    if isinstance(seed, int):   # (Keras 3.15: a NumPy integer is no int here, the ValueError below)
        if isinstance(seed, bool):   # (Keras's convert_to_tensor([seed, 0]) of a bool and an int)
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
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


# --- keras.random's other distributions: keras/src/random/random.py's checks over
# keras/src/backend/tensorflow/random.py (TF's stateless ops on the drawn seed) ------------------------
def categorical(logits: Any, num_samples: int, dtype: Any = "int32", seed: Any = None) -> Any:
    """`num_samples` class indices per row of the 2-D `logits`."""
    logits_shape = list(tf.convert_to_tensor(logits).shape)
    if len(logits_shape) != 2:
        raise ValueError("`logits` should be a 2-D tensor with shape [batch_size, num_classes]. "
                         f"Received: logits={logits}")
    out = tf.random.stateless_categorical(logits, num_samples, seed=_cast_seed(draw_seed(seed)))
    return tf.cast(out, dtype)


def randint(shape: Any, minval: Any, maxval: Any, dtype: Any = "int32", seed: Any = None) -> Any:
    """Integers uniform in [minval, maxval)."""
    name = dtypes.standardize_dtype(dtype) if dtype else "int32"
    if dtype and not name.startswith(("int", "uint")):
        raise ValueError(f"`keras.random.randint` requires an integer `dtype`. Received: dtype={dtype} ")
    intermediate = name if name in ("int32", "int64") else "int64"
    out = tf.random.stateless_uniform(shape=shape, minval=minval, maxval=maxval, dtype=intermediate,
                                      seed=_cast_seed(draw_seed(seed)))
    return tf.cast(out, name)


def shuffle(x: Any, axis: int = 0, seed: Any = None) -> Any:
    """x permuted along `axis` (the argsort of stateless uniforms)."""
    seed = _cast_seed(draw_seed(seed))
    indices = tf.argsort(tf.random.stateless_uniform(shape=[tf.shape(x)[axis]], seed=seed))
    return tf.gather(x, indices, axis=axis)


def _intermediate(dtype: Any) -> tuple[str, str]:
    name = dtypes.standardize_dtype(dtype)
    return name, ("float32" if name == "bfloat16" else name)   # (TF's stateless gamma/binomial: no bfloat16)


def gamma(shape: Any, alpha: Any, dtype: Any = None, seed: Any = None) -> Any:
    """Gamma(alpha) samples."""
    name, inner = _intermediate(dtype)
    return tf.cast(tf.random.stateless_gamma(shape, alpha=alpha, dtype=inner, seed=_cast_seed(draw_seed(seed))), name)


def binomial(shape: Any, counts: Any, probabilities: Any, dtype: Any = None, seed: Any = None) -> Any:
    """Binomial(counts, probabilities) samples."""
    name, inner = _intermediate(dtype)
    return tf.cast(tf.random.stateless_binomial(shape=shape, seed=_cast_seed(draw_seed(seed)), counts=counts,
                                                probs=probabilities, output_dtype=inner), name)


def beta(shape: Any, alpha: Any, beta: Any, dtype: Any = None, seed: Any = None) -> Any:
    """Beta(alpha, beta) as X / (X + Y) of two gammas, the second seeded with the first seed + 12."""
    name, inner = _intermediate(dtype)
    seed_1 = _cast_seed(draw_seed(seed))
    seed_2 = seed_1 + 12
    a = tf.broadcast_to(tf.convert_to_tensor(alpha, dtype=inner), shape)
    b = tf.broadcast_to(tf.convert_to_tensor(beta, dtype=inner), shape)
    gamma_a = tf.cast(tf.random.stateless_gamma(shape=shape, seed=seed_1, alpha=a, dtype=inner), name)
    gamma_b = tf.cast(tf.random.stateless_gamma(shape=shape, seed=seed_2, alpha=b, dtype=inner), name)
    return gamma_a / (gamma_a + gamma_b)


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.random names simdist has (one a line; clause api.namespaces)
    "SeedGenerator",
    "beta",
    "binomial",
    "categorical",
    "dropout",
    "gamma",
    "normal",
    "randint",
    "shuffle",
    "truncated_normal",
    "uniform",
]
__dir__ = _api.dir_of(__name__)
