"""tf.CriticalSection (names44, clause api.namespaces): TF 2.21's ops/critical_section_ops.py for eager execution
and simdist's tf.function (which runs its Python): execute(fn) runs fn holding the section's mutex (a lock of this
process: one program's threads, a strategy's replica threads among them), refuses to lock a section it is already
running in on the same thread (TF's ValueError; the signature names the section by its shared_name or a serial
number, where eager TF gives its handle's id, an address, and its device), and returns fn's structure with each
value through tf.identity (None kept eagerly, a TensorArray's identity()). Not modelled: the graph-mode checks of
TF's execute in a FuncGraph (a resource captured by executions of two sections with exclusive_resource_access, the
lock's control dependencies), `name` (TF: AttributeError eagerly, the handle's op name in a graph)."""

from __future__ import annotations

import threading
from typing import Any

_stack = threading.local()
_serials = iter(range(1, 1 << 62))   # (a section's number in its signature: TF's is its handle's id, an address)


def _tf() -> Any:
    from simdist import tf
    return tf


class CriticalSection:
    """tf.CriticalSection(name=None, shared_name=None, critical_section_def=None, import_scope=None)."""

    def __init__(self, name: Any = None, shared_name: Any = None, critical_section_def: Any = None,
                 import_scope: Any = None) -> None:
        if critical_section_def and name is not None:
            raise ValueError(f"Arguments critical_section_def={critical_section_def} and shared_name={shared_name} are "
                             "mutually exclusive. Please only specify one of them.")
        if critical_section_def:
            raise ValueError("Argument `critical_section_def` is not supported.")
        from simdist.runtime import context
        self._mutex = threading.Lock()
        self._signature = ("", shared_name or next(_serials), context.current_device())

    @property
    def name(self) -> Any:
        raise AttributeError("Tensor.op is undefined when eager execution is enabled.")

    def execute(self, fn: Any, exclusive_resource_access: bool = True, name: Any = None) -> Any:
        """fn() run holding the section's lock; its values through tf.identity."""
        tf = _tf()
        stack = getattr(_stack, "signatures", None)
        if stack is None:
            stack = _stack.signatures = []
        if self._signature in stack:
            raise ValueError(f"Attempting to lock a CriticalSection (signature={self._signature}) in which we are "
                             "already running. This is illegal and may cause deadlocks.")
        stack.append(self._signature)
        try:
            with self._mutex:
                r = fn()
        finally:
            stack.pop()

        def identity(x: Any) -> Any:
            if isinstance(x, tf.TensorArray):
                return x.identity()
            if x is None and tf.executing_eagerly():
                return None
            return tf.identity(x)
        return tf.nest.map_structure(identity, r)
