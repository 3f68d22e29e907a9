"""The coordination service's key-value store, as `PreemptionCheckpointHandler` uses it to agree
on the step every worker saves at (TF: `context.set_config_key_value`/`get_config_key_value`).

One store per cluster of one simulated machine: every handler of the workers of one cluster
(each MWMS client its own handler, in one process) shares it. A store whose round ended (a handler
saved and exited) is replaced by a fresh one for the next handler created on that cluster, as a
restarted job gets a new coordination service. `set` of a key already set raises TF's
AlreadyExistsError; `get` does not block (simdist's handlers poll it at each run call, where
TF's watcher thread blocks on it; see preemption_handler.py).
"""

from __future__ import annotations

import json
import weakref
from typing import Any

from simdist import session
from simdist.runtime import errors

__all__ = ["KeyValueStore", "store_for"]


class KeyValueStore:
    """Keys set once (AlreadyExistsError after), read without blocking."""

    def __init__(self) -> None:
        self._values: dict[str, str] = {}
        self.ended = False

    def set(self, key: str, value: str) -> None:
        if key in self._values:
            raise errors.AlreadyExistsError(None, None, f"Config key {key} already exists.")
        self._values[key] = value

    def get(self, key: str) -> str | None:
        return self._values.get(key)


_stores: "weakref.WeakKeyDictionary[Any, dict[str, KeyValueStore]]" = weakref.WeakKeyDictionary()


def store_for(cluster_spec: dict[str, Any]) -> KeyValueStore:
    """The store of the cluster ``cluster_spec`` (a ClusterSpec's as_dict) on this machine."""
    per_machine = _stores.setdefault(session.simulator(), {})
    key = json.dumps(cluster_spec, sort_keys=True, default=str)
    store = per_machine.get(key)
    if store is None or store.ended:
        store = per_machine[key] = KeyValueStore()
    return store
