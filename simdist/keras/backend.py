"""`tf.keras.backend`: the backend's name, floatx, epsilon, uids and `clear_session`, which
restarts Keras's global state (object names, the global seed generator); and, on first use, the
legacy functions tf.keras.backend also exports (`K.mean`, `K.int_shape`, `K.batch_dot`, ...),
Keras 3.15's keras/src/legacy/backend.py transcribed onto simdist.tf (simdist/keras/legacy_backend.py)."""

from __future__ import annotations

import random as _pyrandom
from typing import Any

import numpy as np

from simdist import tf
from simdist.keras import dtype_policies, naming, random
from simdist.keras.config import epsilon, image_data_format, set_epsilon, set_image_data_format  # noqa: F401
from simdist.keras.dtype_policies import floatx, set_floatx, standardize_dtype  # noqa: F401
from simdist.keras.dtype_promotion import result_type  # noqa: F401
from simdist.keras.naming import get_uid  # noqa: F401

__all__ = ["backend", "clear_session", "floatx", "set_floatx", "epsilon", "set_epsilon", "get_uid", "standardize_dtype",
           "set_random_seed", "result_type", "is_float_dtype", "is_int_dtype", "image_data_format",
           "set_image_data_format", "is_keras_tensor"]

from simdist.keras.keras_tensor import is_keras_tensor  # noqa: E402,F401


def is_float_dtype(dtype: Any) -> bool:
    return standardize_dtype(dtype).startswith(("float", "bfloat"))


def is_int_dtype(dtype: Any) -> bool:
    return standardize_dtype(dtype).startswith(("int", "uint"))


def __getattr__(name: str) -> Any:
    """tf.keras.backend's legacy functions, imported on first use."""
    from simdist.keras.legacy_names import LEGACY_NAMES
    if name in LEGACY_NAMES:
        from simdist.keras import legacy_backend
        return getattr(legacy_backend, name)
    raise AttributeError(f"module 'simdist.keras.backend' has no attribute {name!r}")


def backend() -> str:
    return "tensorflow"


def clear_session(free_memory: bool = True) -> None:
    """Forget Keras's global state: names start again at "dense", the global seed generator is
    made afresh, the global dtype policy is forgotten (the next layer takes floatx's again), as
    Keras's clear_session empties its global state."""
    dtype_policies._config["policy"] = None
    naming.reset_uids()
    naming.name_scope._stack.clear()
    random.reset_global_generator()


def set_random_seed(seed: Any) -> None:
    """`keras.utils.set_random_seed` (keras/src/utils/rng_utils.py): seeds Python's `random`,
    NumPy's global generator and TF's streams, and drops the global seed generator; unseeded
    Keras objects then draw their seeds from Python's `random`, as Keras's (simdist/keras/random.py)."""
    if not isinstance(seed, int):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed} (of type {type(seed)})")
    random.reset_global_generator()
    _pyrandom.seed(seed)
    np.random.seed(seed)
    tf.random.set_seed(seed)
    random.seed_from_python()
