"""`tf.data.experimental`'s deprecated forms of Dataset methods (TF 2.21's data/experimental/ops):
functions returning a transformation for `Dataset.apply`, and classes building a dataset; each
is the Dataset method it names (clauses dataset.scan-take-while-unique, dataset.group-by-window,
dataset.sample-choose); each logs TF's `@deprecated` notice once per process, naming the caller's line
(simdist/runtime/deprecation.py)."""

from __future__ import annotations

from typing import Any, Callable

from simdist.runtime import dtypes
from simdist.runtime.deprecation import log_deprecated

__all__ = ["scan", "take_while", "unique", "group_by_window", "bucket_by_sequence_length", "Counter",
           "RandomDataset", "enumerate_dataset", "unbatch", "shuffle_and_repeat", "map_and_batch", "pad_to_cardinality",
           "get_structure", "get_next_as_optional", "parallel_interleave", "sample_from_datasets",
           "choose_from_datasets"]

Transformation = Callable[[Any], Any]

_OPS = "tensorflow.python.data.experimental.ops."
#: TF 2.21's `@deprecated` notice of each form: (the name TF logs, its module, the instructions) (observed)
_NOTICES = {
    "scan": ("scan", _OPS + "scan_ops", "Use `tf.data.Dataset.scan(...) instead"),
    "take_while": ("take_while", _OPS + "take_while_ops", "Use `tf.data.Dataset.take_while(...)"),
    "unique": ("unique", _OPS + "unique", "Use `tf.data.Dataset.unique(...)"),
    "group_by_window": ("group_by_window", _OPS + "grouping", "Use `tf.data.Dataset.group_by_window(...)`."),
    "bucket_by_sequence_length": ("bucket_by_sequence_length", _OPS + "grouping",
                                  "Use `tf.data.Dataset.bucket_by_sequence_length(...)`."),
    "Counter": ("CounterV2", _OPS + "counter", "Use `tf.data.Dataset.counter(...)` instead."),
    "RandomDataset": ("_RandomDataset.__init__", _OPS + "random_ops", "Use `tf.data.Dataset.random(...)`."),
    "enumerate_dataset": ("enumerate_dataset", _OPS + "enumerate_ops", "Use `tf.data.Dataset.enumerate()`."),
    "unbatch": ("unbatch", _OPS + "batching", "Use `tf.data.Dataset.unbatch()`."),
    "shuffle_and_repeat": ("shuffle_and_repeat", _OPS + "shuffle_ops",
                           "Use `tf.data.Dataset.shuffle(buffer_size, seed)` followed by `tf.data.Dataset.repeat(count)`. "
                           "Static tf.data optimizations will take care of using the fused implementation."),
    "map_and_batch": ("map_and_batch", _OPS + "batching",
                      "Use `tf.data.Dataset.map(map_func, num_parallel_calls)` followed by "
                      "`tf.data.Dataset.batch(batch_size, drop_remainder)`. Static tf.data optimizations will take care "
                      "of using the fused implementation."),
    "get_next_as_optional": ("get_next_as_optional", "tensorflow.python.data.ops.iterator_ops",
                             "Use `tf.data.Iterator.get_next_as_optional()` instead."),
    "parallel_interleave": ("parallel_interleave", _OPS + "interleave_ops",
                            "Use `tf.data.Dataset.interleave(map_func, cycle_length, block_length, "
                            "num_parallel_calls=tf.data.AUTOTUNE)` instead. If sloppy execution is desired, use "
                            "`tf.data.Options.deterministic`."),
    "sample_from_datasets": ("sample_from_datasets_v2", _OPS + "interleave_ops",
                             "Use `tf.data.Dataset.sample_from_datasets(...)`."),
    "choose_from_datasets": ("choose_from_datasets_v2", _OPS + "interleave_ops",
                             "Use `tf.data.Dataset.choose_from_datasets(...)` instead. Note that, unlike the experimental "
                             "endpoint, the non-experimental endpoint sets `stop_on_empty_dataset=True` by default. You "
                             "should set this argument explicitly in case you would like to match the behavior of the "
                             "experimental endpoint."),
}


def _deprecated(form: str) -> None:
    """TF's deprecation notice of the form, once per process, naming the line that called it."""
    log_deprecated(*_NOTICES[form], stacklevel=2)


def scan(initial_state: Any, scan_func: Callable[..., Any]) -> Transformation:
    _deprecated("scan")
    return lambda dataset: dataset.scan(initial_state=initial_state, scan_func=scan_func)


def take_while(predicate: Callable[..., Any]) -> Transformation:
    _deprecated("take_while")
    return lambda dataset: dataset.take_while(predicate=predicate)


def unique() -> Transformation:
    _deprecated("unique")
    return lambda dataset: dataset.unique()


def unbatch() -> Transformation:
    _deprecated("unbatch")
    return lambda dataset: dataset.unbatch()


def enumerate_dataset(start: Any = 0) -> Transformation:
    _deprecated("enumerate_dataset")
    return lambda dataset: dataset.enumerate(start)


def group_by_window(key_func: Callable[..., Any], reduce_func: Callable[..., Any], window_size: Any = None,
                    window_size_func: Callable[..., Any] | None = None) -> Transformation:
    _deprecated("group_by_window")
    return lambda dataset: dataset.group_by_window(key_func=key_func, reduce_func=reduce_func,
                                                   window_size=window_size, window_size_func=window_size_func)


def bucket_by_sequence_length(element_length_func: Callable[..., Any], bucket_boundaries: Any,
                              bucket_batch_sizes: Any, padded_shapes: Any = None, padding_values: Any = None,
                              pad_to_bucket_boundary: bool = False, no_padding: bool = False,
                              drop_remainder: bool = False) -> Transformation:
    _deprecated("bucket_by_sequence_length")
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func=element_length_func, bucket_boundaries=bucket_boundaries,
        bucket_batch_sizes=bucket_batch_sizes, padded_shapes=padded_shapes, padding_values=padding_values,
        pad_to_bucket_boundary=pad_to_bucket_boundary, no_padding=no_padding, drop_remainder=drop_remainder)


def Counter(start: Any = 0, step: Any = 1, dtype: Any = dtypes.int64) -> Any:  # noqa: N802 - TF's name
    """tf.data.experimental.Counter: Dataset.counter."""
    _deprecated("Counter")
    from simdist.runtime.data.dataset import DatasetV2
    return DatasetV2.counter(start, step, dtype)


def RandomDataset(seed: Any = None) -> Any:  # noqa: N802 - TF's name
    """tf.data.experimental.RandomDataset: Dataset.random."""
    _deprecated("RandomDataset")
    from simdist.runtime.data.dataset import DatasetV2
    return DatasetV2.random(seed)


def shuffle_and_repeat(buffer_size: Any, count: Any = None, seed: Any = None) -> Transformation:
    """tf.data.experimental.shuffle_and_repeat: TF's fused ShuffleAndRepeatDataset, which its docstring
    gives as `shuffle(buffer_size, seed, reshuffle_each_iteration=True).repeat(count)` (simdist builds
    that; the order is TF's fused node's, observed: clause dataset.shuffle)."""
    _deprecated("shuffle_and_repeat")
    return lambda dataset: dataset.shuffle(buffer_size, seed=seed, reshuffle_each_iteration=True).repeat(count)


def map_and_batch(map_func: Callable[..., Any], batch_size: Any, num_parallel_batches: Any = None,
                  drop_remainder: Any = False, num_parallel_calls: Any = None) -> Transformation:
    """tf.data.experimental.map_and_batch: TF's fused MapAndBatchDataset, `map(map_func).batch(batch_size,
    drop_remainder)` (its element spec, cardinality and values). Both `num_parallel_batches` and
    `num_parallel_calls` is ValueError, as in batching.py."""
    _deprecated("map_and_batch")
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("`map_and_batch` allows only one of `num_parallel_batches` and `num_parallel_calls` to be "
                         f"set, but `num_parallel_batches` was set to {num_parallel_batches} and "
                         f"`num_parallel_calls` as set to {num_parallel_calls}.")
    def apply(dataset: Any) -> Any:
        from simdist.runtime import errors
        from simdist.runtime.tensor import convert_to_tensor
        mapped = dataset.map(map_func)
        if int(convert_to_tensor(batch_size, dtype=dtypes.int64).numpy()) <= 0:
            raise errors.InvalidArgumentError(None, None, "batch_size must be greater than zero. "
                                                          "[Op:MapAndBatchDataset]")
        return mapped.batch(batch_size, drop_remainder=drop_remainder)
    return apply


def pad_to_cardinality(cardinality: int, mask_key: str = "valid") -> Transformation:
    """tf.data.experimental.pad_to_cardinality: pad_to_cardinality.py's composition, `map` adding
    `mask_key: True` to each (dict) element, then `from_tensors(zeros, mask_key: False).repeat(padding)`
    concatenated; ValueError for an unknown/infinite or larger cardinality, then for a non-dict element."""
    def apply(dataset: Any) -> Any:
        from simdist.runtime.data.dataset import DatasetV2
        from simdist.runtime.data.elements import _zeros
        card = dataset._card()
        if card < 0:
            raise ValueError("The dataset passed into `pad_to_cardinality` must have a known cardinalty, but has "
                             f"cardinality {dataset.cardinality()}")
        if card > cardinality:
            raise ValueError("The dataset passed into `pad_to_cardinality` must have a cardinalty less than the "
                             f"target cardinality ({cardinality}), but has cardinality {dataset.cardinality()}")
        spec = dataset.element_spec
        if not isinstance(spec, dict):
            raise ValueError("`pad_to_cardinality` requires its input dataset to be a dictionary.")
        filler = {}
        for key, s in spec.items():
            if not s.shape.is_fully_defined():
                raise ValueError(f"Cannot convert a partially known TensorShape {s.shape} to a Tensor.")
            filler[key] = _zeros(tuple(s.shape.as_list()), s.dtype)
        filler[mask_key] = False

        def valid(x: dict) -> dict:
            x = dict(x)
            x[mask_key] = True
            return x
        return dataset.map(valid).concatenate(DatasetV2.from_tensors(filler).repeat(cardinality - card))
    return apply


def get_structure(dataset_or_iterator: Any) -> Any:
    """tf.data.experimental.get_structure: the element spec of a dataset or an iterator."""
    from simdist.runtime.data.dataset import DatasetV2
    from simdist.runtime.data.iterators import OwnedIterator
    if isinstance(dataset_or_iterator, (DatasetV2, OwnedIterator)):
        return dataset_or_iterator.element_spec
    raise TypeError("Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a `tf.data.Dataset` or "
                    f"tf.data.Iterator object, but got {type(dataset_or_iterator)}.")


def get_next_as_optional(iterator: Any) -> Any:
    """tf.data.experimental.get_next_as_optional: `iterator.get_next_as_optional()`."""
    _deprecated("get_next_as_optional")
    return iterator.get_next_as_optional()


def parallel_interleave(map_func: Callable[..., Any], cycle_length: Any, block_length: Any = 1, sloppy: Any = False,
                        buffer_output_elements: Any = None, prefetch_input_elements: Any = None) -> Transformation:
    """tf.data.experimental.parallel_interleave: TF's LegacyParallelInterleaveDatasetV2, whose order
    (sloppy=False) is interleave's (observed with TF 2.21 for empty and uneven inputs); non-positive
    lengths are its InvalidArgumentError. `sloppy=True` allows any order: simdist gives interleave's.
    The buffering arguments change no values and are accepted."""
    _deprecated("parallel_interleave")
    def apply(dataset: Any) -> Any:
        from simdist.runtime import errors
        from simdist.runtime.tensor import convert_to_tensor
        for what, value in (("cycle_length", cycle_length), ("block_length", block_length)):
            if int(convert_to_tensor(value, dtype=dtypes.int64).numpy()) <= 0:
                raise errors.InvalidArgumentError(None, None, f"`{what}` must be > 0 "
                                                              "[Op:LegacyParallelInterleaveDatasetV2]")
        return dataset.interleave(map_func, cycle_length=cycle_length, block_length=block_length)
    return apply


def sample_from_datasets(datasets: Any, weights: Any = None, seed: Any = None,
                         stop_on_empty_dataset: bool = False) -> Any:
    """tf.data.experimental.sample_from_datasets (interleave_ops.sample_from_datasets_v2): the Dataset
    method with the same default, after TF's deprecation notice."""
    _deprecated("sample_from_datasets")
    from simdist.runtime.data.dataset import DatasetV2
    return DatasetV2.sample_from_datasets(datasets, weights=weights, seed=seed,
                                          stop_on_empty_dataset=stop_on_empty_dataset)


def choose_from_datasets(datasets: Any, choice_dataset: Any, stop_on_empty_dataset: bool = False) -> Any:
    """tf.data.experimental.choose_from_datasets (interleave_ops.choose_from_datasets_v2): the Dataset
    method, but stop_on_empty_dataset defaults to False here (an exhausted input is skipped), where the
    method's default is True (clause dataset.sample-choose)."""
    _deprecated("choose_from_datasets")
    from simdist.runtime.data.dataset import DatasetV2
    return DatasetV2.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=stop_on_empty_dataset)
