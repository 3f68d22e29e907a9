"""`Dataset.get_single_element` and `tf.data.experimental.get_single_element`: a dataset's only
element as tensors (TF 2.21's DatasetToSingleElement; clause dataset.scan-take-while-unique)."""

from __future__ import annotations

from typing import Any

from simdist.runtime import errors
from simdist.runtime.data import resources

__all__ = ["get_single_element", "experimental_get_single_element"]


def get_single_element(dataset: Any) -> Any:
    """The only element; InvalidArgumentError "Dataset was empty." / "Dataset had more than one
    element." otherwise (the kernel reads at most two elements)."""
    dataset._check_iterable()
    it = resources.owned(dataset._iter_flat())
    first = next(it, None)
    if first is None:
        raise errors.InvalidArgumentError(None, None, "Dataset was empty. [Op:DatasetToSingleElement]")
    if next(it, None) is not None:
        raise errors.InvalidArgumentError(None, None, "Dataset had more than one element. "
                                          "[Op:DatasetToSingleElement]")
    return dataset._pack(first)


def experimental_get_single_element(dataset: Any) -> Any:
    """tf.data.experimental.get_single_element (deprecated in TF): a TypeError for a non-dataset."""
    from simdist.runtime.data.dataset import DatasetV2
    if not isinstance(dataset, DatasetV2):
        raise TypeError(f"Invalid `dataset`. Expected a `tf.data.Dataset` object but got {type(dataset)}.")
    return get_single_element(dataset)
