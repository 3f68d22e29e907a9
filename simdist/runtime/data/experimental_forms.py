"""`tf.data.experimental`'s deprecated forms of Dataset methods (TF 2.21's data/experimental/ops):
functions returning a transformation for `Dataset.apply`, and classes building a dataset; each
is the Dataset method it names (clauses dataset.scan-take-while-unique, dataset.group-by-window,
dataset.sample-choose)."""

from __future__ import annotations

from typing import Any, Callable

from simdist.runtime import dtypes

__all__ = ["scan", "take_while", "unique", "group_by_window", "bucket_by_sequence_length", "Counter",
           "RandomDataset", "enumerate_dataset", "unbatch"]

Transformation = Callable[[Any], Any]


def scan(initial_state: Any, scan_func: Callable[..., Any]) -> Transformation:
    return lambda dataset: dataset.scan(initial_state=initial_state, scan_func=scan_func)


def take_while(predicate: Callable[..., Any]) -> Transformation:
    return lambda dataset: dataset.take_while(predicate=predicate)


def unique() -> Transformation:
    return lambda dataset: dataset.unique()


def unbatch() -> Transformation:
    return lambda dataset: dataset.unbatch()


def enumerate_dataset(start: Any = 0) -> Transformation:
    return lambda dataset: dataset.enumerate(start)


def group_by_window(key_func: Callable[..., Any], reduce_func: Callable[..., Any], window_size: Any = None,
                    window_size_func: Callable[..., Any] | None = None) -> Transformation:
    return lambda dataset: dataset.group_by_window(key_func=key_func, reduce_func=reduce_func,
                                                   window_size=window_size, window_size_func=window_size_func)


def bucket_by_sequence_length(element_length_func: Callable[..., Any], bucket_boundaries: Any,
                              bucket_batch_sizes: Any, padded_shapes: Any = None, padding_values: Any = None,
                              pad_to_bucket_boundary: bool = False, no_padding: bool = False,
                              drop_remainder: bool = False) -> Transformation:
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func=element_length_func, bucket_boundaries=bucket_boundaries,
        bucket_batch_sizes=bucket_batch_sizes, padded_shapes=padded_shapes, padding_values=padding_values,
        pad_to_bucket_boundary=pad_to_bucket_boundary, no_padding=no_padding, drop_remainder=drop_remainder)


def Counter(start: Any = 0, step: Any = 1, dtype: Any = dtypes.int64) -> Any:  # noqa: N802 - TF's name
    """tf.data.experimental.Counter: Dataset.counter."""
    from simdist.runtime.data.dataset import DatasetV2
    return DatasetV2.counter(start, step, dtype)


def RandomDataset(seed: Any = None) -> Any:  # noqa: N802 - TF's name
    """tf.data.experimental.RandomDataset: Dataset.random."""
    from simdist.runtime.data.dataset import DatasetV2
    return DatasetV2.random(seed)
