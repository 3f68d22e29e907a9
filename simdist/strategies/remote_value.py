"""`tf.distribute.experimental.coordinator.RemoteValue`: the eventual result of a scheduled
function, and the nested-structure walkers its fetch uses."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from simdist import session
from simdist.runtime import errors
from simdist.runtime.tensor import Tensor

if TYPE_CHECKING:
    from simdist.strategies.closure import Closure
    from simdist.strategies.coordinator import ClusterCoordinator

_CANCELLED_QUEUED = "The corresponding function is cancelled. Please reschedule the function."
_ABORTED = "The corresponding function is aborted. Please reschedule the function."

# RemoteValue states
NOT_READY, READY, ABORTED = "NOT_READY", "READY", "ABORTED"


class RemoteValue:
    """`tf.distribute.experimental.coordinator.RemoteValue`: the eventual result of a closure."""

    def __init__(self, coordinator: "ClusterCoordinator", closure: "Closure") -> None:
        self._coordinator = coordinator
        self._closure = closure
        self._status = NOT_READY
        self._value: Any = None
        self._error: BaseException | None = None

    def _set(self, value: Any) -> None:
        self._status, self._value = READY, value

    def _fail(self, error: BaseException) -> None:
        self._status, self._error = READY, error

    def _wait(self) -> None:
        if self._status == NOT_READY:
            self._coordinator._drive_until(lambda: self._status != NOT_READY)

    def fetch(self) -> Any:
        """Block (advance the simulated clock) until ready; the result as NumPy values."""
        self._wait()
        if self._status == ABORTED:
            raise errors.CancelledError(None, None, _ABORTED)
        if self._error is not None:
            raise self._error
        return _to_numpy(self._value)

    def get(self) -> Any:
        """Block until ready; the result as tensors copied to the coordinator."""
        self._wait()
        if self._status == ABORTED:
            raise errors.CancelledError(None, None, _ABORTED)
        if self._error is not None:
            raise self._error
        chief = session.canonical("/job:chief/replica:0/task:0/device:CPU:0")
        return _map(self._value, lambda t: Tensor(t._v, t.dtype, chief) if isinstance(t, Tensor) else t)

    def __repr__(self) -> str:
        return f"<RemoteValue {self._status} of {self._closure.name}>"


def _map(x: Any, fn: Callable[[Any], Any]) -> Any:
    if isinstance(x, dict):
        return {k: _map(v, fn) for k, v in x.items()}
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return type(x)(*[_map(v, fn) for v in x])
    if isinstance(x, (list, tuple)):
        return type(x)(_map(v, fn) for v in x)
    return fn(x)


def _to_numpy(x: Any) -> Any:
    def conv(v: Any) -> Any:
        if isinstance(v, RemoteValue):
            return v.fetch()
        if hasattr(v, "numpy"):
            return v.numpy()
        return v
    return _map(x, conv)


class RemoteValueImpl(RemoteValue):
    """TF 2.21's concrete class of what `schedule` returns (coordinator/remote_value.py RemoteValueImpl; the public
    `RemoteValue` is its base). fz52d."""
