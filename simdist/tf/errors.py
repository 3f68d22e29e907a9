"""`tf.errors`: TF's exception classes."""

from simdist.runtime.errors import (OK, AbortedError, AlreadyExistsError, CancelledError, DataLossError,  # noqa: F401
                                    DeadlineExceededError, FailedPreconditionError, InternalError,
                                    InvalidArgumentError, NotFoundError, OpError, OperatorNotAllowedInGraphError,
                                    OutOfRangeError,
                                    PermissionDeniedError, ResourceExhaustedError, UnauthenticatedError,
                                    UnavailableError, UnimplementedError, UnknownError)
