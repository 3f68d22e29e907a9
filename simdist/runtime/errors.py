"""TF's exception classes (`tf.errors.*`), with TF's hierarchy and constructor shapes."""

from __future__ import annotations

from typing import Any


class OpError(Exception):
    """Base of TF runtime errors, TF 2.21's constructor (framework/errors_impl.py OpError): `(node_def, op, message,
    error_code, *args)`, `*args` optionally a dict of payloads; Exception's own args stay empty (TF calls
    `super().__init__()` with none), `message`, `op`, `node_def`, `error_code` and `experimental_payloads` are
    read-only properties, str() is the message (TF appends the op's stack trace when `op` is given: simdist's
    errors name no op), and pickling rebuilds with the arguments the class's constructor names (TF's __reduce__
    reads them by the constructor's argspec: the payloads are not kept)."""

    def __init__(self, node_def: Any, op: Any, message: Any, error_code: Any, *args: Any) -> None:
        super().__init__()
        self.args = _ctor_args(type(self), node_def, op, message, error_code, args)
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = error_code
        self._experimental_payloads = args[0] if args else {}

    @property
    def message(self) -> Any:
        return self._message

    @property
    def op(self) -> Any:
        return self._op

    @property
    def node_def(self) -> Any:
        return self._node_def

    @property
    def error_code(self) -> Any:
        return self._error_code

    @property
    def experimental_payloads(self) -> Any:
        return self._experimental_payloads

    def __str__(self) -> str:
        return str(self._message)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __reduce__(self) -> Any:
        import inspect
        names = list(inspect.signature(type(self).__init__).parameters)[1:]
        return type(self), tuple(getattr(self, n) for n in names if n not in ("args", "kwargs"))


def _ctor_args(cls: type, node_def: Any, op: Any, message: Any, error_code: Any, payloads: tuple) -> tuple:
    """The arguments `cls`'s constructor took: a tf.errors subclass's take no error code."""
    head = (node_def, op, message) if cls.__dict__.get("_simdist_coded") or any(
        k.__dict__.get("_simdist_coded") for k in cls.__mro__[1:-1]) else (node_def, op, message, error_code)
    return head + tuple(payloads)


def _make(name: str, code: int) -> type:
    """A tf.errors subclass with TF's constructor `(node_def, op, message, *args)` and its status code."""

    def __init__(self: Any, node_def: Any, op: Any, message: Any, *args: Any) -> None:
        OpError.__init__(self, node_def, op, message, code, *args)

    __init__.__qualname__ = f"{name}.__init__"
    return type(name, (OpError,), {"__init__": __init__, "__doc__": f"TF's `tf.errors.{name}`.", "_simdist_coded": True})


CancelledError = _make("CancelledError", 1)
UnknownError = _make("UnknownError", 2)
InvalidArgumentError = _make("InvalidArgumentError", 3)
DeadlineExceededError = _make("DeadlineExceededError", 4)
NotFoundError = _make("NotFoundError", 5)
AlreadyExistsError = _make("AlreadyExistsError", 6)
PermissionDeniedError = _make("PermissionDeniedError", 7)
ResourceExhaustedError = _make("ResourceExhaustedError", 8)
FailedPreconditionError = _make("FailedPreconditionError", 9)
AbortedError = _make("AbortedError", 10)
OutOfRangeError = _make("OutOfRangeError", 11)
UnimplementedError = _make("UnimplementedError", 12)
InternalError = _make("InternalError", 13)
UnavailableError = _make("UnavailableError", 14)
DataLossError = _make("DataLossError", 15)
UnauthenticatedError = _make("UnauthenticatedError", 16)

# TF's status codes by name (tf.errors.INVALID_ARGUMENT == InvalidArgumentError.error_code == 3).
CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS, PERMISSION_DENIED = range(1, 8)
RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE = range(8, 15)
DATA_LOSS, UNAUTHENTICATED = 15, 16
_CODE_NAMES = ("OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
               "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
               "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED")


def code_name(code: int) -> str:
    """A status code's name as TF's messages print it ("INVALID_ARGUMENT" for 3)."""
    return _CODE_NAMES[code] if 0 <= code < len(_CODE_NAMES) else str(code)

# Module names of TF's error classes, so `type(e).__module__`-independent code can match them.
for _cls in (CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError,
             AlreadyExistsError, PermissionDeniedError, ResourceExhaustedError, FailedPreconditionError,
             AbortedError, OutOfRangeError, UnimplementedError, InternalError, UnavailableError,
             DataLossError, UnauthenticatedError):
    _cls.__module__ = __name__



class OperatorNotAllowedInGraphError(TypeError):
    """TF's `tf.errors.OperatorNotAllowedInGraphError`: a graph tensor used as a Python bool or
    iterated while a tf.function traces (runtime/symbolic.py)."""


OperatorNotAllowedInGraphError.__module__ = __name__

OK = 0


class _GraphEndOfSequence(OutOfRangeError, StopIteration):  # type: ignore[misc]
    """`next(iterator)` of an exhausted iterator inside a tf.function: TF 2.21 builds an IteratorGetNext node there,
    whose run raises OutOfRangeError "End of sequence" (eager `next` raises StopIteration). It is also a
    StopIteration so the Python that simdist runs in place of AutoGraph's conversions still ends a `for` loop over
    the iterator there (AutoGraph's for_stmt uses get_next_as_optional: no error). An explicit next() gets a plain
    OutOfRangeError instead, so `next(it, default)` raises as on TF 2.21 (runtime/data/graph_get_next.py, fix61a).
    Its class name is TF's; it pickles as a plain OutOfRangeError."""

    def __reduce__(self) -> Any:
        return OutOfRangeError, (self.node_def, self.op, self.message)


_GraphEndOfSequence.__name__ = _GraphEndOfSequence.__qualname__ = "OutOfRangeError"


def end_of_sequence() -> OutOfRangeError:
    """The exception `next()` of an exhausted iterator raises inside a tf.function (see _GraphEndOfSequence)."""
    return _GraphEndOfSequence(None, None, "End of sequence")
