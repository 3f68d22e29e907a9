"""Keras's process-wide state, as one record a launcher swaps per client.

In TF each MultiWorkerMirroredStrategy worker is a process of its own, so Keras's globals are
its own: the global dtype policy (`keras.mixed_precision.set_global_policy` /
`keras.config.set_dtype_policy`) and the autocast scope, `floatx` and `epsilon`, the object-name
counters ("dense", "dense_1", ...) and the open name scopes, the global seed generator
(`keras.random` with seed=None, reset by `keras.utils.set_random_seed` and `clear_session`)
and the traced-step depth of the trainer (a thread-local in simdist, shared by greenlets).
`simdist.launch` runs every worker's program in one process, so it swaps this record at each
switch between clients (`capture` / `install`), and a client starts from `fresh()`, the state of
a process that has just imported Keras. (tf.random's seeds are per client already, in its
execution context; registries filled at import time, such as registered custom objects, stay
shared, as the modules that fill them are.)
"""

from __future__ import annotations

import collections
from typing import Any

from simdist.keras import config, dtype_policies, naming, random, traced

__all__ = ["capture", "fresh", "install"]


def fresh() -> dict[str, Any]:
    """The state of a process that has just imported Keras (Keras 3.15's defaults)."""
    return {"floatx": "float32", "epsilon": 1e-7, "policy": None, "autocast": None,
            "uids": collections.defaultdict(int), "scopes": [], "seed_generator": None, "traced_depth": 0}


def capture() -> dict[str, Any]:
    """The running program's state (the counters and the scope stack by reference: installing
    the record again gives the program back the very objects it was using)."""
    return {"floatx": config._FLOATX, "epsilon": config._EPSILON, "policy": dtype_policies._config["policy"],
            "autocast": dtype_policies._config["autocast"], "uids": naming._uids,
            "scopes": naming.name_scope._stack, "seed_generator": random._global["generator"],
            "traced_depth": traced._state.depth}


def install(state: dict[str, Any]) -> None:
    """Make ``state`` (from `capture` or `fresh`) the running program's."""
    config._FLOATX, config._EPSILON = state["floatx"], state["epsilon"]
    dtype_policies._config["policy"], dtype_policies._config["autocast"] = state["policy"], state["autocast"]
    naming._uids = state["uids"]
    naming.name_scope._stack = state["scopes"]
    random._global["generator"] = state["seed_generator"]
    traced._state.depth = state["traced_depth"]
