"""Variables created inside `strategy.run` (clause mirrored.variables): TF 2.21's replica
threads (mirrored_run, shared_variable_creator.make_fn) let replica 0 create each variable, from
its own initial value, and every other replica reuse them by canonical name, in the order it
creates them; a name replica 0 did not create is RuntimeError. Replicas run in replica order
(replica_run.py), as TF's threads take turns."""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from simdist.runtime import context

__all__ = ["share", "created"]

_UNIQUIFIED = re.compile(r"_\d/")
_UNIQUIFIED_AT_END = re.compile(r"_\d$")


def _canonical(name: Any) -> str:
    """shared_variable_creator._canonicalize_variable_name: "Variable" for None, uniquifying
    suffixes ("_1") dropped."""
    if name is None:
        return "Variable"
    return _UNIQUIFIED_AT_END.sub("", _UNIQUIFIED.sub("/", name))


def share(replica_contexts: Sequence[Any]) -> None:
    """Give the replica contexts of one `strategy.run` one store of created variables."""
    store: dict[str, list[Any]] = {}
    for rc in replica_contexts:
        rc._shared_variables = store
        rc._shared_index = {}


def created(kwargs: dict, create: Callable[[], Any]) -> Any:
    """The variable a creation with `kwargs` gives: a new one (create()) outside a replica of
    `strategy.run` or in replica 0, replica 0's in the others."""
    rc = context.current().replica_context
    store = getattr(rc, "_shared_variables", None)
    if store is None:
        return create()
    name = _canonical(kwargs.get("name"))
    rid = rc._replica_id if isinstance(rc._replica_id, int) else 0
    if rid == 0:
        v = create()
        store.setdefault(name, []).append(v)
        return v
    k = rc._shared_index.get(name, 0)
    made = store.get(name, [])
    if k >= len(made):
        raise RuntimeError(f"Tried to create variable {kwargs.get('name')} with mismatching name on device {rid}")
    rc._shared_index[name] = k + 1
    return made[k]
