"""TF's binary_op_wrapper retry (override_binary_operator.py): when a tensor's operator `x <op> o`
fails to build its op with a TypeError or ValueError, TF tries the operand's reflected operator
`o.__r<op>__(x)` if o's type has one, and raises the first error again when that raises a
TypeError/ValueError or returns NotImplemented. Eagerly a dtype the kernel refuses is an
InvalidArgumentError (no retry); inside a tf.function the graph build's op_def check makes it a
TypeError (trace_errors.at_trace), so the retry happens there. A NumPy operand's reflected
operator reads the tensor through `__array__`, which a graph tensor refuses: NotImplementedError
(clause ops.reflected-retry)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context
from simdist.runtime import symbolic as _symbolic
from simdist.runtime.ops import trace_errors


class _GraphOperand:
    """A graph tensor as NumPy sees it: TF's Tensor's __array_priority__ (100), and an __array__
    that refuses (NotImplementedError)."""

    __array_priority__ = 100

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise _symbolic.array_error()


def _builds_as_type_error(err: BaseException) -> bool:
    """Whether TF's op construction raises err as a TypeError/ValueError (eagerly as it is, in a
    tf.function as the graph build's error)."""
    if isinstance(err, (TypeError, ValueError)):
        return True
    return context.in_function() and isinstance(trace_errors.at_trace(err), (TypeError, ValueError))


def retry(err: BaseException, x: Any, o: Any, name: str) -> Any:
    """`x <name> o` after its op raised err: o's reflected operator's result, or err raised again
    (name: "add", "or", ...; x is the tensor on the left)."""
    if not _builds_as_type_error(err):
        raise err
    # (`type` itself has __ror__, for unions: `x | 1.5` and `x | None` look up 1.5.__ror__ and
    # None.__ror__ and raise AttributeError)
    if not hasattr(type(o), f"__r{name}__"):
        raise err
    if isinstance(o, (np.ndarray, np.generic)) and _symbolic.is_graph(x):
        # (NumPy's own reflected operator asked of a stand-in: most read the tensor through
        # __array__, NotImplementedError; a complex scalar's __rfloordiv__ and __rmod__ return
        # NotImplemented first, so TF raises its op error again: `bool_tensor // np.complex128(4+1j)`
        # in a tf.function is the TypeError; fz26b, fz14 seed 1420262601 #204)
        try:
            out = getattr(o, f"__r{name}__")(_GraphOperand())
        except NotImplementedError:
            raise _symbolic.array_error() from None
        except (TypeError, ValueError):
            raise err from None
        if out is NotImplemented:
            raise err from None
        raise _symbolic.array_error() from None
    if type(o).__module__ == "builtins" and _symbolic.is_graph(x):
        # (a builtin's reflected operator reads the tensor through __index__ (list/tuple/str repetition) or returns
        # NotImplemented; TF's graph tensor has no __index__, so `int32_graph_tensor * [1.5, 2.0]` raises Mul's
        # TypeError where the eager tensor repeats the list by its value; fz67, fz62gen seed 67405 #3)
        try:
            getattr(o, f"__r{name}__")(_GraphOperand())
        except (TypeError, ValueError):
            pass
        raise err from None
    try:
        out = getattr(o, f"__r{name}__")(x)
    except Exception as again:  # noqa: BLE001 - TF catches the TypeError/ValueError its build raises
        if not _builds_as_type_error(again):
            raise
        raise err from None
    if out is NotImplemented:
        raise err from None
    return out

