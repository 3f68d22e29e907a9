"""`keras.utils.timeseries_dataset_from_array` (keras/src/utils/timeseries_dataset_utils.py,
format "tf"): sliding windows over an array as a `tf.data.Dataset` of batches, with their
targets."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["timeseries_dataset_from_array"]

def _check(data: Any, sequence_stride: int, sampling_rate: int, start_index: int | None,
           end_index: int | None, format: str) -> None:
    if start_index:
        if start_index < 0:
            raise ValueError(f"`start_index` must be 0 or greater. Received: start_index={start_index}")
        if start_index >= len(data):
            raise ValueError("`start_index` must be lower than the length of the data. Received: "
                             f"start_index={start_index}, for data of length {len(data)}")
    if end_index:
        if start_index and end_index <= start_index:
            raise ValueError("`end_index` must be higher than `start_index`. Received: "
                             f"start_index={start_index}, and end_index={end_index} ")
        if end_index >= len(data):
            raise ValueError("`end_index` must be lower than the length of the data. Received: "
                             f"end_index={end_index}, for data of length {len(data)}")
        if end_index <= 0:
            raise ValueError(f"`end_index` must be higher than 0. Received: end_index={end_index}")
    if sampling_rate <= 0:
        raise ValueError(f"`sampling_rate` must be higher than 0. Received: sampling_rate={sampling_rate}")
    if sampling_rate >= len(data):
        raise ValueError("`sampling_rate` must be lower than the length of the data. Received: "
                         f"sampling_rate={sampling_rate}, for data of length {len(data)}")
    if sequence_stride <= 0:
        raise ValueError(f"`sequence_stride` must be higher than 0. Received: sequence_stride={sequence_stride}")
    if sequence_stride >= len(data):
        raise ValueError("`sequence_stride` must be lower than the length of the data. Received: "
                         f"sequence_stride={sequence_stride}, for data of length {len(data)}")
    if format != "tf":
        if format == "grain":
            raise ValueError('simdist implements format="tf" only (format="grain" needs the grain package, '
                             "which simdist does not model)")
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}')


def timeseries_dataset_from_array(data: Any, targets: Any, sequence_length: int, sequence_stride: int = 1,
                                  sampling_rate: int = 1, batch_size: int | None = 128, shuffle: bool = False,
                                  seed: int | None = None, start_index: int | None = None,
                                  end_index: int | None = None, format: str = "tf") -> Any:
    """Windows `data[i : i + sequence_length * sampling_rate : sampling_rate]` for start
    positions i = start_index, start_index + sequence_stride, ... (those that fit before
    end_index and, with targets, before len(targets)), each with `targets[i]`; batched, and
    shuffled (start positions by NumPy's RandomState(seed), then a shuffle buffer) when asked."""
    from simdist import tf
    _check(data, sequence_stride, sampling_rate, start_index, end_index, format)
    if start_index is None:
        start_index = 0
    if end_index is None:
        end_index = len(data)
    num_seqs = end_index - start_index - (sequence_length - 1) * sampling_rate
    if targets is not None:
        num_seqs = min(num_seqs, len(targets))
    index_dtype = "int32" if num_seqs < 2147483647 else "int64"
    start_positions = np.arange(0, num_seqs, sequence_stride, dtype=index_dtype)
    if shuffle:
        if seed is None:
            seed = tf.random._simdist_numpy_seed(1e6)   # (Keras: np.random.randint(1e6))
        np.random.RandomState(seed).shuffle(start_positions)
    length = tf.cast(sequence_length, dtype=index_dtype)
    rate = tf.cast(sampling_rate, dtype=index_dtype)
    positions_ds = tf.data.Dataset.from_tensors(start_positions).repeat()
    indices = tf.data.Dataset.zip((tf.data.Dataset.range(len(start_positions)), positions_ds)).map(
        lambda i, positions: tf.range(positions[i], positions[i] + length * rate, rate),
        num_parallel_calls=tf.data.AUTOTUNE)
    dataset = _sequences_from_indices(data, indices, start_index, end_index)
    if targets is not None:
        indices = tf.data.Dataset.zip((tf.data.Dataset.range(len(start_positions)), positions_ds)).map(
            lambda i, positions: positions[i], num_parallel_calls=tf.data.AUTOTUNE)
        dataset = tf.data.Dataset.zip((dataset, _sequences_from_indices(targets, indices, start_index, end_index)))
    dataset = dataset.prefetch(tf.data.AUTOTUNE)
    if batch_size is not None:
        if shuffle:
            dataset = dataset.shuffle(buffer_size=batch_size * 8, seed=seed)
        dataset = dataset.batch(batch_size)
    elif shuffle:
        dataset = dataset.shuffle(buffer_size=1024, seed=seed)
    return dataset


def _sequences_from_indices(array: Any, indices_ds: Any, start_index: int, end_index: int) -> Any:
    from simdist import tf
    dataset = tf.data.Dataset.from_tensors(array[start_index:end_index])
    return tf.data.Dataset.zip((dataset.repeat(), indices_ds)).map(lambda steps, inds: tf.gather(steps, inds),
                                                                  num_parallel_calls=tf.data.AUTOTUNE)
