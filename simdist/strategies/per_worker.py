"""Per-worker values of a ClusterCoordinator: the container (`PerWorkerValues`), and the datasets and
iterators `create_per_worker_dataset` makes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from simdist import session
from simdist.runtime import context, errors
from simdist.strategies.parameter_server import worker_host
from simdist.strategies.remote_value import RemoteValue

if TYPE_CHECKING:
    from simdist.strategies.coordinator import ClusterCoordinator


class PerWorkerValues:
    """`tf.distribute.coordinator.PerWorkerValue` (also experimental.coordinator.PerWorkerValues):
    one value per worker; given to `schedule`, each worker's function gets its own (TF's
    coordinator/values.py). TF builds one only from RemoteValues ("`PerWorkerValues` should only
    take `RemoteValue`s.", an AssertionError), and its one supported source is `iter` of a
    per-worker dataset (PerWorkerIterator, a subclass)."""

    def __init__(self, values: Any) -> None:
        for v in values:
            if not isinstance(v, RemoteValue):
                raise AssertionError("`PerWorkerValues` should only take `RemoteValue`s.")
        self._values = tuple(values)

    def _get_worker(self, w: int) -> Any:
        return self._values[w]


class PerWorkerDataset:
    """`create_per_worker_dataset` result: a dataset built on each worker."""

    def __init__(self, coordinator: ClusterCoordinator, dataset_fn: Any) -> None:
        self._coordinator = coordinator
        self._fn = dataset_fn
        self._datasets = [self._make(w) for w in range(coordinator._num_workers)]

    def _make(self, w: int) -> Any:
        from simdist.strategies.parameter_server import _CoordinatorOnlyDataset
        strategy = self._coordinator.strategy
        ext = strategy._extended
        ext._in_dataset_fn = True
        ext._current_worker = w
        frame = context.Frame(strategy, None, session.canonical(worker_host(w) + "/device:CPU:0"))
        context.push(frame)
        try:
            if isinstance(self._fn, _CoordinatorOnlyDataset):
                return self._fn._make_for_worker(w)
            if callable(self._fn) and not hasattr(self._fn, "element_spec"):
                fn = getattr(self._fn, "python_function", self._fn)
                out = fn()
                # The pattern of ClusterCoordinator's docstring and TF's PS tutorial: the function
                # returns strategy.distribute_datasets_from_function(...), built for this worker.
                if isinstance(out, _CoordinatorOnlyDataset):
                    return out._make_for_worker(w)
                return out
            return self._fn
        finally:
            context.pop(frame)
            ext._in_dataset_fn = False
            ext._current_worker = None

    def __iter__(self) -> "PerWorkerIterator":
        it = PerWorkerDistributedIterator(self)
        self._coordinator._iterators.append(it)
        return it

    @property
    def element_spec(self) -> Any:
        return self._datasets[0].element_spec


class PerWorkerDatasetFromDatasetFunction(PerWorkerDataset):
    """TF 2.21's class of `create_per_worker_dataset(dataset_fn)` (coordinator/values.py get_per_worker_dataset:
    a callable gives this one, a dataset `PerWorkerDatasetFromDataset`). fz52d."""


class PerWorkerDatasetFromDataset(PerWorkerDataset):
    """TF 2.21's class of `create_per_worker_dataset(dataset)` (a dataset or distributed dataset, not callable)."""


def per_worker_dataset(coordinator: ClusterCoordinator, dataset_or_fn: Any) -> PerWorkerDataset:
    """TF's get_per_worker_dataset: the class by whether the argument is callable."""
    if callable(dataset_or_fn):
        return PerWorkerDatasetFromDatasetFunction(coordinator, dataset_or_fn)
    return PerWorkerDatasetFromDataset(coordinator, dataset_or_fn)


class PerWorkerIterator(PerWorkerValues):
    """Per-worker iterators over a PerWorkerDataset (TF's PerWorkerDistributedIterator, a
    PerWorkerValues); passed to `schedule`, each worker's function gets its own. Rebuilt from the
    start when a preempted worker comes back (TF's resource rebuild), so a worker's stream may
    repeat elements after a preemption."""

    def __init__(self, ds: PerWorkerDataset) -> None:
        self._ds = ds
        self._iters = [iter(d) for d in ds._datasets]
        self._aborted = [False] * len(self._iters)

    def _get_worker(self, w: int) -> Any:
        return _WorkerIterator(self, w)

    def _abort(self, w: int) -> None:
        self._aborted[w] = True

    def _rebuild(self, w: int) -> None:
        self._iters[w] = iter(self._ds._datasets[w])
        self._aborted[w] = False

    def __next__(self) -> Any:
        raise NotImplementedError("Iterating over an `AsyncDistributedIterator` is not supported right now.")

    def __iter__(self) -> Any:
        raise NotImplementedError("Iterating over an `AsyncDistributedIterator` is not supported right now.")


class _WorkerIterator:
    """The view of a PerWorkerIterator inside a function running on one worker."""

    def __init__(self, parent: PerWorkerIterator, w: int) -> None:
        self._parent = parent
        self._w = w

    def __next__(self) -> Any:
        """The worker's next element. A scheduled function is a tf.function: `next()` of an exhausted iterator
        there is IteratorGetNext's OutOfRangeError "End of sequence" (re-raised at join / fetch), not Python's
        StopIteration (fz52d seed 52212 #12, observed on TF 2.21)."""
        try:
            return next(self._parent._iters[self._w])
        except StopIteration:
            raise errors.OutOfRangeError(None, None, "End of sequence") from None

    def get_next(self) -> Any:
        return next(self)

    def __iter__(self) -> "_WorkerIterator":
        return self


class PerWorkerDistributedIterator(PerWorkerIterator):
    """TF 2.21's class of `iter(per_worker_dataset)` (coordinator/values.py). fz52d."""
