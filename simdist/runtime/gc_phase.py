"""Whether Python's cyclic garbage collector is running right now.

Reference counting frees an object at the program point that drops its last reference: the
same point in every run. The cyclic collector frees objects left in reference cycles (a Keras
model and its optimizer, say) when the interpreter's allocation counters say so, and those
depend on everything the process did before (earlier runs, tests, imports). A simulated effect
of a free (a variable's device memory given back, a trace event) must not follow the collector,
or two runs of one program differ; `collecting()` lets a finalizer tell the two apart.
"""

from __future__ import annotations

import gc
from typing import Any

__all__ = ["collecting"]

_running = [False]


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    _running[0] = phase == "start"


def collecting() -> bool:
    """True while a cyclic collection runs (its finalizers and the frees it cascades into)."""
    return _running[0]


# gc.callbacks brackets each collection with "start" and "stop"; weakref finalizers and the
# reference-count frees the collection causes all run between the two.
if not any(getattr(cb, "__qualname__", "") == "_on_gc" and getattr(cb, "__module__", "") == __name__
           for cb in gc.callbacks):
    gc.callbacks.append(_on_gc)
