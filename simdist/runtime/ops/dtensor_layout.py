"""The `layout=` argument of tf.ones, tf.zeros, tf.fill, tf.ones_like and tf.zeros_like
(dtensor.call_with_layout): TF reads the layout's attributes without checking its type, so an
argument that is not a DTensor Layout raises AttributeError — eagerly `layout.mesh` before the op
runs, inside a tf.function `layout.to_string` after the op is built. simdist has no DTensor: a
real Layout (one that has those attributes) is refused with ValueError. Clause
`ops.argument-errors`."""

from __future__ import annotations

from typing import Any, Callable

from simdist.runtime import context

__all__ = ["call_with_layout"]


def _refuse(layout: Any, op: str) -> None:
    raise ValueError(f"tf.{op}(layout={layout!r}): DTensor layouts are not simulated; pass layout=None")


def call_with_layout(fn: Callable[[], Any], layout: Any, op: str) -> Any:
    """fn() when layout is None; else TF's attribute read of `layout` (AttributeError for anything
    but a Layout), eagerly before fn and in a graph after it, then simdist's refusal."""
    if layout is None:
        return fn()
    if context.executing_eagerly():
        getattr(layout, "mesh")
        _refuse(layout, op)
    out = fn()
    getattr(layout, "to_string")
    _refuse(layout, op)
    return out
