"""`keras.utils.text_dataset_from_directory` (Keras 3's keras/src/utils/text_dataset_utils.py,
format "tf"): the .txt files under a directory, listed, shuffled and split as
image_dataset_from_directory's, each read whole (tf.io.read_file; cut to max_length bytes with
tf.strings.substr). Clause keras.dataset-from-directory."""

from __future__ import annotations

from typing import Any

from simdist.keras.utils import dataset_utils
from simdist.keras.utils.image_dataset import _check_labels

__all__ = ["text_dataset_from_directory"]


def _paths_to_dataset(paths: list, labels: Any, label_mode: Any, num_classes: int, max_length: Any,
                      shuffle: bool = False, shuffle_buffer_size: Any = None, seed: Any = None) -> Any:
    from simdist import tf

    def content(path: Any) -> Any:
        txt = tf.io.read_file(path)
        return tf.strings.substr(txt, 0, max_length) if max_length is not None else txt

    ds = tf.data.Dataset.from_tensor_slices(paths)
    if label_mode:
        ds = tf.data.Dataset.zip((ds, dataset_utils.labels_to_dataset(labels, label_mode, num_classes)))
    if shuffle:
        ds = ds.shuffle(buffer_size=shuffle_buffer_size or 1024, seed=seed)
    if label_mode:
        return ds.map(lambda x, y: (content(x), y), num_parallel_calls=tf.data.AUTOTUNE)
    return ds.map(content, num_parallel_calls=tf.data.AUTOTUNE)


def text_dataset_from_directory(directory: str, labels: Any = "inferred", label_mode: Any = "int",
                                class_names: Any = None, batch_size: Any = 32, max_length: Any = None,
                                shuffle: bool = True, seed: Any = None, validation_split: Any = None,
                                subset: Any = None, follow_links: bool = False, format: str = "tf",  # noqa: A002
                                verbose: bool = True) -> Any:
    """A `tf.data.Dataset` of (text, label) batches from class subdirectories, as Keras 3 builds it."""
    from simdist import tf
    _check_labels(labels, label_mode, class_names, "text")
    if format != "tf":
        if format == "grain":
            raise NotImplementedError("text_dataset_from_directory(format='grain'): simdist builds tf.data only")
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}')
    if labels is None or label_mode is None:
        labels = label_mode = None
    dataset_utils.check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        from simdist import tf   # (Keras draws np.random.randint(1e6) from NumPy's global stream; simdist's
        seed = tf.random._simdist_numpy_seed(1e6)   # stream is that one once seeded, else the root seed's)
    paths, labels, class_names = dataset_utils.index_directory(
        directory, labels, formats=(".txt",), class_names=class_names, shuffle=shuffle, seed=seed,
        follow_links=follow_links, verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 class_names. Received: '
                         f"class_names={class_names}")
    buffer = batch_size * 8 if batch_size is not None else 1024
    num_classes = len(class_names) if class_names else 0

    def finish(ds: Any) -> Any:
        if batch_size is not None:
            ds = ds.batch(batch_size)
        ds = ds.prefetch(tf.data.AUTOTUNE)
        ds.class_names = class_names
        return ds

    if subset == "both":
        p_train, l_train = dataset_utils.get_training_or_validation_split(paths, labels, validation_split, "training")
        p_val, l_val = dataset_utils.get_training_or_validation_split(paths, labels, validation_split, "validation")
        if not p_train:
            raise ValueError(f"No training text files found in directory {directory}. Allowed format: .txt")
        if not p_val:
            raise ValueError(f"No validation text files found in directory {directory}. Allowed format: .txt")
        return [finish(_paths_to_dataset(p_train, l_train, label_mode, num_classes, max_length, shuffle, buffer, seed)),
                finish(_paths_to_dataset(p_val, l_val, label_mode, num_classes, max_length, False))]
    paths, labels = dataset_utils.get_training_or_validation_split(paths, labels, validation_split, subset)
    if not paths:
        raise ValueError(f"No text files found in directory {directory}. Allowed format: .txt")
    return finish(_paths_to_dataset(paths, labels, label_mode, num_classes, max_length, shuffle, buffer, seed))
