"""`keras.utils.audio_dataset_from_directory` (Keras 3.15's keras/src/utils/audio_dataset_utils.py): the .wav
files under a directory, listed, shuffled and split as the other *_dataset_from_directory functions, each
decoded by `tf.audio.decode_wav` (to `output_sequence_length` samples when given: cut or zero-padded), batched
with `padded_batch` (clips of different lengths padded to the longest of the batch), `batch` when a length is
fixed, or as RaggedTensors (`ragged=True`). Clause keras.dataset-from-directory.

`sampling_rate` resamples with tensorflow-io in Keras; simdist raises Keras's ImportError when tensorflow-io is
not installed and NotImplementedError when it is (simdist's tensors are not tensorflow-io's)."""

from __future__ import annotations

import importlib.util
from typing import Any

from simdist.keras.utils import dataset_utils
from simdist.keras.utils.image_dataset import _check_labels

__all__ = ["audio_dataset_from_directory"]

ALLOWED_FORMATS = (".wav",)


def _check_arguments(labels: Any, label_mode: Any, class_names: Any, ragged: bool, output_sequence_length: Any,
                     sampling_rate: Any) -> None:
    _check_labels(labels, label_mode, class_names, "audio")
    if ragged and output_sequence_length is not None:
        raise ValueError("Cannot set both `ragged` and `output_sequence_length`")
    if sampling_rate is not None:
        if not isinstance(sampling_rate, int):
            raise ValueError(f"`sampling_rate` should have an integer value. Received: sampling_rate={sampling_rate}")
        if sampling_rate <= 0:
            raise ValueError(f"`sampling_rate` should be higher than 0. Received: sampling_rate={sampling_rate}")
        if importlib.util.find_spec("tensorflow_io") is None:
            raise ImportError("To use the argument `sampling_rate`, you should install tensorflow_io. You can install "
                              "it via `pip install tensorflow-io`.")
        raise NotImplementedError("audio_dataset_from_directory(sampling_rate=...): Keras resamples with tensorflow-io, "
                                  "whose ops do not run on simdist's tensors")


def _paths_to_dataset(paths: list, labels: Any, label_mode: Any, num_classes: int, output_sequence_length: Any,
                      ragged: bool, shuffle: bool = False, shuffle_buffer_size: Any = None, seed: Any = None) -> Any:
    from simdist import tf
    desired = -1 if output_sequence_length is None else output_sequence_length

    def decode(path: Any) -> Any:
        audio, _ = tf.audio.decode_wav(contents=tf.io.read_file(path), desired_samples=desired)
        return audio

    ds = tf.data.Dataset.from_tensor_slices(paths)
    if label_mode:
        ds = tf.data.Dataset.zip((ds, dataset_utils.labels_to_dataset(labels, label_mode, num_classes)))
    if shuffle:
        ds = ds.shuffle(buffer_size=shuffle_buffer_size or 1024, seed=seed)
    if label_mode:
        ds = ds.map(lambda x, y: (decode(x), y), num_parallel_calls=tf.data.AUTOTUNE)
        if ragged:
            ds = ds.map(lambda x, y: (tf.RaggedTensor.from_tensor(x), y), num_parallel_calls=tf.data.AUTOTUNE)
    else:
        ds = ds.map(decode, num_parallel_calls=tf.data.AUTOTUNE)
        if ragged:
            ds = ds.map(lambda x: tf.RaggedTensor.from_tensor(x), num_parallel_calls=tf.data.AUTOTUNE)
    return ds


def audio_dataset_from_directory(directory: str, labels: Any = "inferred", label_mode: Any = "int",
                                 class_names: Any = None, batch_size: Any = 32, sampling_rate: Any = None,
                                 output_sequence_length: Any = None, ragged: bool = False, shuffle: bool = True,
                                 seed: Any = None, validation_split: Any = None, subset: Any = None,
                                 follow_links: bool = False, verbose: bool = True) -> Any:
    """A `tf.data.Dataset` of (audio, label) batches, audio (batch, samples, channels) float32 in [-1, 1)."""
    from simdist import tf
    _check_arguments(labels, label_mode, class_names, ragged, output_sequence_length, sampling_rate)
    if labels is None or label_mode is None:
        labels = label_mode = None
    dataset_utils.check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:   # (Keras: np.random.randint(1e6), NumPy's global stream; simdist's once seeded, else the root seed's)
        seed = tf.random._simdist_numpy_seed(1e6)
    buffer = batch_size * 8 if batch_size is not None else 1024
    paths, labels, class_names = dataset_utils.index_directory(
        directory, labels, formats=ALLOWED_FORMATS, class_names=class_names, shuffle=shuffle, seed=seed,
        follow_links=follow_links, verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 class_names. Received: '
                         f"class_names={class_names}")
    num_classes = len(class_names) if class_names else 0

    def finish(ds: Any) -> Any:
        ds = ds.prefetch(tf.data.AUTOTUNE)
        if batch_size is not None:
            ds = ds.padded_batch(batch_size) if output_sequence_length is None and not ragged else ds.batch(batch_size)
        ds.class_names = class_names
        return ds

    if subset == "both":
        p_train, l_train = dataset_utils.get_training_or_validation_split(paths, labels, validation_split, "training")
        if not p_train:
            raise ValueError(f"No training audio files found in directory {directory}. Allowed format(s): "
                             f"{ALLOWED_FORMATS}")
        p_val, l_val = dataset_utils.get_training_or_validation_split(paths, labels, validation_split, "validation")
        if not p_val:
            raise ValueError(f"No validation audio files found in directory {directory}. Allowed format(s): "
                             f"{ALLOWED_FORMATS}")
        return (finish(_paths_to_dataset(p_train, l_train, label_mode, num_classes, output_sequence_length, ragged,
                                         shuffle, buffer, seed)),
                finish(_paths_to_dataset(p_val, l_val, label_mode, num_classes, output_sequence_length, ragged)))
    paths, labels = dataset_utils.get_training_or_validation_split(paths, labels, validation_split, subset)
    if not paths:
        raise ValueError(f"No audio files found in directory {directory}. Allowed format(s): {ALLOWED_FORMATS}")
    return finish(_paths_to_dataset(paths, labels, label_mode, num_classes, output_sequence_length, ragged,
                                    shuffle, buffer, seed))
