"""Keras's call-error wrapping (keras/src/utils/traceback_utils.py, inject_argument_info_in_traceback):
an exception raised inside a layer's `call` is re-raised as the same class with the message

    Exception encountered when calling <Class>.call().

    \x1b[1m<original message>\x1b[0m

    Arguments received by <Class>.call():
      • <arg>=<value>   (tensors shown as tf.Tensor(shape=..., dtype=...))

(once: an exception already wrapped by an inner layer passes through unchanged). With
`keras.config.disable_traceback_filtering()` the exception passes through as raised (clause
keras.config.globals)."""

from __future__ import annotations

import inspect
from typing import Any, Callable

from simdist import tf

__all__ = ["call_with_argument_info", "disable_traceback_filtering", "enable_traceback_filtering",
           "format_argument_value", "is_traceback_filtering_enabled"]

_FILTERING = True


def enable_traceback_filtering() -> None:
    """Turn Keras's traceback filtering (and its call-argument messages) back on (the default)."""
    global _FILTERING
    _FILTERING = True


def disable_traceback_filtering() -> None:
    """Turn it off: a layer call's exception then propagates as it was raised, message unchanged."""
    global _FILTERING
    _FILTERING = False


def is_traceback_filtering_enabled() -> bool:
    """Whether Keras filters tracebacks and adds the call arguments to a layer call's error."""
    return _FILTERING


def format_argument_value(value: Any) -> str:
    """Keras's short form of a tensor argument: whatever the TF backend's is_tensor takes (tf.is_tensor: variables,
    SparseTensor, RaggedTensor and IndexedSlices too)."""
    if tf.is_tensor(value):
        return f"tf.Tensor(shape={value.shape}, dtype={value.dtype.name})"
    return repr(value)


def _format(structure: Any) -> Any:
    return tf.nest.map_structure(format_argument_value, structure)


def call_with_argument_info(fn: Callable[..., Any], object_name: str, *args: Any, **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)`, with Keras's wrapping of the exceptions it raises (none when traceback
    filtering is disabled, as Keras's inject_argument_info_in_traceback)."""
    if not _FILTERING:
        return fn(*args, **kwargs)
    try:
        return fn(*args, **kwargs)
    except Exception as e:
        if getattr(e, "_keras_call_info_injected", False):
            raise
        signature = inspect.signature(fn)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            raise e from None
        context = []
        for param in signature.parameters.values():
            value = _format(bound.arguments[param.name]) if param.name in bound.arguments else param.default
            context.append(f"  • {param.name}={value}")
        if not context:
            raise
        op_error = isinstance(e, tf.errors.OpError)
        message = getattr(e, "message", "") if op_error else (e.args[0] if e.args else "")
        message = (f"Exception encountered when calling {object_name}.\n\n\x1b[1m{message}\x1b[0m\n\n"
                   f"Arguments received by {object_name}:\n" + "\n".join(context))
        if op_error:
            new_e: Exception = type(e)(getattr(e, "node_def", None), getattr(e, "op", None), message)
        else:
            try:
                new_e = type(e)(message)
            except TypeError:
                new_e = RuntimeError(message)
        new_e._keras_call_info_injected = True   # type: ignore[attr-defined]
        mark = getattr(e, "_simdist_trace_error", None)   # (runtime/ops/trace_errors.py's mark)
        if mark is not None:   # in a tracing tf.function TF raises the op's trace-time error, wrapped the same way
            cls, text = mark
            new_e._simdist_trace_error = (cls, f"Exception encountered when calling {object_name}.\n\n\x1b[1m{text}"
                                               f"\x1b[0m\n\nArguments received by {object_name}:\n" + "\n".join(context))
        raise new_e.with_traceback(e.__traceback__) from None
