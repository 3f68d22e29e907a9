"""The variables a raw op reaches through a resource handle (clause ops.resource-handles): an eager
variable's own handle names the variable; a VarHandleOp's handle names (container, shared_name) in the
resource manager below, which holds a variable once AssignVariableOp has made one (TF 2.21's
ResourceMgr, tensorflow/core/framework/resource_mgr.cc, observed):

- lookup of a name in a container never created: NotFoundError "Container localhost does not exist.
  (Could not find resource: localhost/foo)"; of a name a created container lacks: "Resource
  localhost/foo/N10tensorflow3VarE does not exist." (ReadVariableOp tells either as
  FailedPreconditionError "Could not find variable foo. ... status error message=<that text>");
- every VarHandleOp of one (container, shared_name), the empty shared_name too, names one variable;
- DestroyResourceOp deletes it (an eager variable's anonymous handle: TF 2.21 keeps the variable, a no-op).

The manager is the process's, as TF's eager context's is; nothing in it is iterated.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors, variables

__all__ = ["Managed", "lookup", "create", "destroy", "missing_text", "kernel_error"]

_DEVICE = "_device_/job:localhost/replica:0/task:0/device:CPU:0"

# container -> {shared_name -> Managed}; a container exists from its first variable on
_CONTAINERS: dict[str, dict[str, "Managed"]] = {}


def kernel_error(op: str, text: str, cls: type = errors.InvalidArgumentError, name_tail: bool = False) -> Exception:
    """A resource kernel's error as TF 2.21's eager call tells it (the wrapped function's prefix)."""
    tail = " name: " if name_tail else ""
    return cls(None, None, f"{{{{function_node __wrapped__{op}{_DEVICE}}}}} {text} [Op:{op}]{tail}")


class Managed:
    """A variable the resource manager holds: its value and dtype (what a kernel reads and writes)."""

    __slots__ = ("_value", "_dtype")

    def __init__(self, value: np.ndarray, dtype: dtypes.DType) -> None:
        self._value = value
        self._dtype = dtype

    def _read_array(self) -> np.ndarray:
        return self._value

    def _write(self, kind: str, operand: Any) -> None:
        self._value = variables._updated(self._value, kind, operand)


def missing_text(container: str, name: str) -> str:
    if container not in _CONTAINERS:
        return f"Container {container} does not exist. (Could not find resource: {container}/{name})"
    return f"Resource {container}/{name}/N10tensorflow3VarE does not exist."


def lookup(container: str, name: str) -> Managed | None:
    found = _CONTAINERS.get(container)
    return None if found is None else found.get(name)


def create(container: str, name: str, value: np.ndarray, dtype: dtypes.DType) -> Managed:
    var = Managed(value, dtype)
    _CONTAINERS.setdefault(container, {})[name] = var
    return var


def destroy(container: str, name: str) -> bool:
    """Delete the variable; whether there was one. (DestroyResourceOp's NotFoundError for a missing one
    names the container alone when it does not exist: "Container localhost does not exist.")"""
    found = _CONTAINERS.get(container)
    if found is None or name not in found:
        return False
    del found[name]
    return True


def destroy_missing_text(container: str, name: str) -> str:
    if container not in _CONTAINERS:
        return f"Container {container} does not exist."
    return f"Resource {container}/{name}/N10tensorflow3VarE does not exist."
