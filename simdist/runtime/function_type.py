"""The class of `tf.function`'s callables, registered by the facade that defines it.

`simdist.tf._function.Function` lives in the facade, above the strategies; the strategies need
to recognise it (ClusterCoordinator.schedule accepts only a tf.function, as TF does) without
importing upward. The facade registers its class here when it is imported; until then no object
is a tf.function, which is true: none can have been made.
"""

from __future__ import annotations

__all__ = ["register_function_type", "function_type"]


class _NoFunction:
    """Stands for tf.function's class before the facade registered it: nothing is an instance."""


_FUNCTION_TYPE: type = _NoFunction


def register_function_type(cls: type) -> None:
    """Record ``cls`` as tf.function's callable class (called once by `simdist.tf._function`)."""
    global _FUNCTION_TYPE
    if not isinstance(cls, type):
        raise TypeError(f"register_function_type: expected a class, got {type(cls).__name__} {cls!r}")
    _FUNCTION_TYPE = cls


def function_type() -> type:
    """tf.function's callable class (a class no object belongs to before the facade is imported)."""
    return _FUNCTION_TYPE
