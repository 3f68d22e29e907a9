"""`tf.errors`: TF's exception classes."""

from simdist.runtime.errors import (OK, AbortedError, AlreadyExistsError, CancelledError, DataLossError,  # noqa: F401
                                    DeadlineExceededError, FailedPreconditionError, InternalError,
                                    InvalidArgumentError, NotFoundError, OpError, OperatorNotAllowedInGraphError,
                                    OutOfRangeError,
                                    PermissionDeniedError, ResourceExhaustedError, UnauthenticatedError,
                                    UnavailableError, UnimplementedError, UnknownError)
from simdist.runtime.errors import (ABORTED, ALREADY_EXISTS, CANCELLED, DATA_LOSS, DEADLINE_EXCEEDED,  # noqa: F401
                                    FAILED_PRECONDITION, INTERNAL, INVALID_ARGUMENT, NOT_FOUND, OUT_OF_RANGE,
                                    PERMISSION_DENIED, RESOURCE_EXHAUSTED, UNAUTHENTICATED, UNAVAILABLE,
                                    UNIMPLEMENTED, UNKNOWN)
