"""TF's exception classes (`tf.errors.*`), with TF's hierarchy and constructor shapes."""

from __future__ import annotations

from typing import Any


class OpError(Exception):
    """Base of TF runtime errors. Accepts TF's `(node_def, op, message)` or just `(message)`."""

    error_code = 2

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) >= 3:
            node_def, op, message = args[0], args[1], args[2]
        elif len(args) == 1:
            node_def, op, message = None, None, args[0]
        else:
            node_def = kwargs.get("node_def")
            op = kwargs.get("op")
            message = kwargs.get("message", args[0] if args else "")
        super().__init__(message)
        self.node_def = node_def
        self.op = op
        self.message = message

    def __str__(self) -> str:
        return str(self.message)

    def __reduce__(self):
        return (type(self), (self.node_def, self.op, self.message))


def _make(name: str, code: int) -> type:
    return type(name, (OpError,), {"error_code": code, "__doc__": f"TF's `tf.errors.{name}`."})


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
