"""`keras.backend` (the parts simdist implements): the backend's name, floatx, uids and
`clear_session`, which restarts Keras's global state (object names, the global seed generator)."""

from __future__ import annotations

import random as _pyrandom
from typing import Any

import numpy as np

from simdist import tf
from simdist.keras import dtype_policies, naming, random
from simdist.keras.dtype_policies import floatx, set_floatx, standardize_dtype  # noqa: F401
from simdist.keras.dtype_promotion import result_type  # noqa: F401
from simdist.keras.naming import get_uid  # noqa: F401

__all__ = ["backend", "clear_session", "floatx", "set_floatx", "get_uid", "standardize_dtype", "set_random_seed",
           "result_type"]


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
