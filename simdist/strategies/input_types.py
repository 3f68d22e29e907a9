"""`tf.distribute.DistributedDataset` and `tf.distribute.DistributedIterator`: the public interface
types of distributed input (TF's python/types/distribute.py, clause input.interface-types). Every
strategy's distributed dataset (MirroredStrategy's, OneDevice's, MultiWorkerMirrored's, a PSS
dataset for the coordinator) and iterator is an instance; the default strategy's
`experimental_distribute_dataset` is the dataset itself, which is not. The interfaces can be made
and subclassed, and their members raise TF's NotImplementedError until a subclass gives them."""

from __future__ import annotations

from typing import Any


class DistributedIterator:
    """An iterator over a `tf.distribute.DistributedDataset` (TF's DistributedIteratorInterface)."""

    def __next__(self) -> Any:
        return None   # (TF's Iterator interface: a bare `pass`)

    def __iter__(self) -> Any:
        return None

    def get_next(self) -> Any:
        raise NotImplementedError("DistributedIterator.get_next() must be implemented in descendants.")

    @property
    def element_spec(self) -> Any:
        raise NotImplementedError("DistributedIterator.element_spec() must be implemented in descendants")

    def get_next_as_optional(self) -> Any:
        raise NotImplementedError("get_next_as_optional() not implemented in descendants")


class DistributedDataset:
    """A dataset distributed over a strategy's replicas (TF's DistributedDatasetInterface)."""

    def __iter__(self) -> Any:
        raise NotImplementedError("Must be implemented in descendants")

    @property
    def element_spec(self) -> Any:
        raise NotImplementedError("DistributedDataset.element_spec must be implemented in descendants.")

    def reduce(self, initial_state: Any, reduce_func: Any) -> Any:
        raise NotImplementedError("DistributedDataset.reduce must be implemented in descendants.")
