"""Iterating a dataset: `OwnedIterator` (`iter(ds)`), `as_numpy_iterator()` and
`tf.experimental.Optional` (TF's iterator_ops.py and optional_ops.py)."""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data import resources
from simdist.runtime.data.elements import _to_tensor
from simdist.runtime.spec import TensorSpec, map_structure, pack_as
from simdist.runtime.tensor import Tensor


class Optional:
    """`tf.experimental.Optional`: a value or nothing, with the value's element spec."""

    def __init__(self, value: Any, element_spec: Any, has_value: bool) -> None:
        self._value = value
        self._element_spec = element_spec
        self._has_value = has_value

    @staticmethod
    def from_value(value: Any) -> "Optional":
        tensors = map_structure(_to_tensor, value) if not _is_distributed(value) else value
        spec = map_structure(lambda t: TensorSpec(t.shape, t.dtype), tensors) if not _is_distributed(value) \
            else None
        return Optional(tensors, spec, True)

    @staticmethod
    def empty(element_spec: Any) -> "Optional":
        return Optional(None, element_spec, False)

    def has_value(self, name: str | None = None) -> Tensor:
        return Tensor(np.asarray(self._has_value), dtypes.bool_)

    def get_value(self, name: str | None = None) -> Any:
        if not self._has_value:
            raise errors.InvalidArgumentError(None, None, "The given optional does not have a value.")
        return self._value

    @property
    def element_spec(self) -> Any:
        return self._element_spec


def _is_distributed(value: Any) -> bool:
    from simdist.runtime.values import contains_distributed
    return contains_distributed(value)


class OwnedIterator:
    """Eager iterator over a Dataset (`iter(ds)`): `next()`, `get_next()`, `get_next_as_optional()`."""
    _simdist_trackable = True   # a TF Trackable: tf.train.Checkpoint takes it (runtime/trackable.py)

    def __init__(self, dataset: DatasetV2) -> None:
        dataset._check_iterable()
        self._dataset = dataset
        self._it = resources.owned(dataset._iter_flat())

    def _checkpoint_unsupported(self, key: str) -> str:
        """Why a tf.train.Checkpoint cannot save it in simdist (TF 2.21 saves the iterator's position as
        ITERATOR_STATE; simdist does not model it): the save stops before anything is written."""
        return (f"Checkpoint: {key} is a tf.data iterator; TF 2.21 saves its position (ITERATOR_STATE), which simdist "
                "does not model, so nothing was saved. Checkpoint the step count instead and skip that many elements "
                "of a new iterator on restore (clause checkpoint.restore-status).")

    @property
    def element_spec(self) -> Any:
        return self._dataset.element_spec

    def __iter__(self) -> "OwnedIterator":
        return self

    def _next_flat(self) -> list[np.ndarray] | None:
        if self._it is None:
            return None
        try:
            return next(self._it)
        except StopIteration:
            self._it = None
            return None

    def __next__(self) -> Any:
        flat = self._next_flat()
        if flat is None:
            raise StopIteration
        return self._dataset._pack(flat)

    def next(self) -> Any:
        return self.__next__()

    def get_next(self, name: str | None = None) -> Any:
        flat = self._next_flat()
        if flat is None:
            raise errors.OutOfRangeError(None, None, "End of sequence")
        return self._dataset._pack(flat)

    def get_next_as_optional(self) -> Optional:
        flat = self._next_flat()
        if flat is None:
            return Optional.empty(self.element_spec)
        return Optional(self._dataset._pack(flat), self.element_spec, True)


Iterator = OwnedIterator


class _NumpyIterator:
    """`as_numpy_iterator()`: elements as NumPy values in the element's structure."""

    def __init__(self, dataset: DatasetV2) -> None:
        dataset._check_iterable()
        self._dataset = dataset
        self._it = resources.owned(dataset._iter_flat())

    def __iter__(self) -> "_NumpyIterator":
        return self

    def __next__(self) -> Any:
        flat = next(self._it)
        return pack_as(self._dataset.element_spec, [a[()] if a.ndim == 0 else a for a in flat])

    next = __next__
