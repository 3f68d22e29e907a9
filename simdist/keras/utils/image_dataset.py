"""`keras.utils.image_dataset_from_directory` (Keras 3's keras/src/utils/image_dataset_utils.py,
format "tf"): the image files under a directory (.bmp, .gif, .jpeg, .jpg, .png), listed and
shuffled as dataset_utils.index_directory does, split, read with tf.io.read_file,
tf.image.decode_image(channels, expand_animations=False) and resized (tf.image.resize,
smart_resize for crop_to_aspect_ratio, resize_with_pad for pad_to_aspect_ratio) to float32
images; the (image, label) pairs shuffled by tf.data's shuffle(batch_size * 8, seed), batched
and prefetched, with `class_names` and `file_paths` set. Clause keras.dataset-from-directory."""

from __future__ import annotations

from typing import Any

from simdist.keras.utils import dataset_utils

__all__ = ["image_dataset_from_directory", "ALLOWLIST_FORMATS"]

ALLOWLIST_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")


_SAMPLES = {"image": "images", "text": "text samples", "audio": "audio samples"}


def _check_labels(labels: Any, label_mode: Any, class_names: Any, kind: str) -> None:
    """The labels / class_names / label_mode checks of Keras's {image,text,audio}_dataset_from_directory
    (`kind` one of those; the audio module's message begins with "The ")."""
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(f"{'The ' if kind == 'audio' else ''}`labels` argument should be a list/tuple of integer "
                             f"labels, of the same size as the number of {kind} files in the target directory. If you "
                             "wish to infer the labels from the subdirectory names in the target directory, pass "
                             "`labels=\"inferred\"`. If you wish to get a dataset that only contains "
                             f"{_SAMPLES[kind]} (no labels), pass `labels=None`. Received: labels={labels}")
        if class_names:
            raise ValueError("You can only pass `class_names` if `labels=\"inferred\"`. Received: "
                             f"labels={labels}, and class_names={class_names}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError('`label_mode` argument must be one of "int", "categorical", "binary", or None. Received: '
                         f"label_mode={label_mode}")


def _smart_resize(img: Any, size: tuple, interpolation: str) -> Any:
    """Keras's smart_resize as its TF backend runs it in tf.data's graph (the image's size unknown
    there: the crop computed with tensor ops, float32 divisions truncated to int32), channels last
    (a channels_first image is transposed after it, which gives the same values)."""
    from simdist import tf
    shape = tf.shape(img)
    height, width = shape[0], shape[1]
    th, tw = size
    crop_h = tf.cast(tf.cast(width * th, "float32") / tw, "int32")
    crop_h = tf.cast(tf.maximum(tf.minimum(height, crop_h), 1), "int32")
    crop_w = tf.cast(tf.cast(height * tw, "float32") / th, "int32")
    crop_w = tf.cast(tf.maximum(tf.minimum(width, crop_w), 1), "int32")
    h0 = tf.cast(tf.cast(height - crop_h, "float32") / 2, "int32")
    w0 = tf.cast(tf.cast(width - crop_w, "float32") / 2, "int32")
    img = img[h0:h0 + crop_h, w0:w0 + crop_w, :]
    return tf.image.resize(img, size, method=interpolation)


def _load_image(path: Any, image_size: tuple, num_channels: int, interpolation: str, data_format: str,
                crop_to_aspect_ratio: bool, pad_to_aspect_ratio: bool) -> Any:
    from simdist import tf
    img = tf.io.read_file(path)
    img = tf.image.decode_image(img, channels=num_channels, expand_animations=False)
    if pad_to_aspect_ratio and crop_to_aspect_ratio:
        raise ValueError("Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio` can be set to `True`.")
    if crop_to_aspect_ratio:
        img = _smart_resize(img, image_size, interpolation)
        if data_format == "channels_first":
            img = tf.transpose(img, (2, 0, 1))
    elif pad_to_aspect_ratio:
        img = tf.image.resize_with_pad(img, image_size[0], image_size[1], method=interpolation)
        if data_format == "channels_first":
            img = tf.transpose(img, (2, 0, 1))
    else:
        img = tf.image.resize(img, image_size, method=interpolation)
        if data_format == "channels_first":
            img = tf.transpose(img, (2, 0, 1))
    # (the dataset's element_spec: Keras's static shape of the image)
    if data_format == "channels_last":
        img.set_shape((image_size[0], image_size[1], num_channels))
    else:
        img.set_shape((num_channels, image_size[0], image_size[1]))
    return img


def _paths_to_dataset(image_paths: list, image_size: tuple, num_channels: int, labels: Any, label_mode: Any,
                      num_classes: int, interpolation: str, data_format: str, crop_to_aspect_ratio: bool,
                      pad_to_aspect_ratio: bool, shuffle: bool = False, shuffle_buffer_size: Any = None,
                      seed: Any = None) -> Any:
    from simdist import tf
    ds = tf.data.Dataset.from_tensor_slices(image_paths)
    if label_mode:
        ds = tf.data.Dataset.zip((ds, dataset_utils.labels_to_dataset(labels, label_mode, num_classes)))
    if shuffle:
        ds = ds.shuffle(buffer_size=shuffle_buffer_size or 1024, seed=seed)
    args = (image_size, num_channels, interpolation, data_format, crop_to_aspect_ratio, pad_to_aspect_ratio)
    if label_mode:
        return ds.map(lambda x, y: (_load_image(x, *args), y), num_parallel_calls=tf.data.AUTOTUNE)
    return ds.map(lambda x: _load_image(x, *args), num_parallel_calls=tf.data.AUTOTUNE)


def image_dataset_from_directory(directory: str, labels: Any = "inferred", label_mode: Any = "int",
                                 class_names: Any = None, color_mode: str = "rgb", batch_size: Any = 32,
                                 image_size: Any = (256, 256), shuffle: bool = True, seed: Any = None,
                                 validation_split: Any = None, subset: Any = None, interpolation: str = "bilinear",
                                 follow_links: bool = False, crop_to_aspect_ratio: bool = False,
                                 pad_to_aspect_ratio: bool = False, data_format: Any = None,
                                 format: str = "tf",  # noqa: A002 - Keras's name
                                 verbose: bool = True) -> Any:
    """A `tf.data.Dataset` of (image, label) batches from class subdirectories, as Keras 3 builds it."""
    from simdist import tf
    from simdist.keras import config
    _check_labels(labels, label_mode, class_names, "image")
    if labels is None or label_mode is None:
        labels = label_mode = None
    channels = {"rgb": 3, "rgba": 4, "grayscale": 1}.get(color_mode)
    if channels is None:
        raise ValueError('`color_mode` must be one of {"rgb", "rgba", "grayscale"}. '
                         f"Received: color_mode={color_mode}")
    if isinstance(image_size, int):
        image_size = (image_size, image_size)
    elif not isinstance(image_size, (list, tuple)) or not len(image_size) == 2:
        raise ValueError("Invalid `image_size` value. Expected a tuple of 2 integers. "
                         f"Received: image_size={image_size}")
    interpolation = interpolation.lower()
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Argument `interpolation` should be one of {_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    if format != "tf":
        if format == "grain":
            raise NotImplementedError("image_dataset_from_directory(format='grain'): simdist builds tf.data only")
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}')
    dataset_utils.check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        from simdist import tf   # (Keras draws np.random.randint(1e6) from NumPy's global stream; simdist's
        seed = tf.random._simdist_numpy_seed(1e6)   # stream is that one once seeded, else the root seed's)
    paths, labels, class_names = dataset_utils.index_directory(
        directory, labels, formats=ALLOWLIST_FORMATS, class_names=class_names, shuffle=shuffle, seed=seed,
        follow_links=follow_links, verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 class_names. Received: '
                         f"class_names={class_names}")
    data_format = data_format or config.image_data_format()
    buffer = batch_size * 8 if batch_size is not None else 1024
    common = dict(image_size=image_size, num_channels=channels, label_mode=label_mode,
                  num_classes=len(class_names) if class_names else 0, interpolation=interpolation,
                  data_format=data_format, crop_to_aspect_ratio=crop_to_aspect_ratio,
                  pad_to_aspect_ratio=pad_to_aspect_ratio)

    def finish(ds: Any, part: list) -> Any:
        if batch_size is not None:
            ds = ds.batch(batch_size)
        ds = ds.prefetch(tf.data.AUTOTUNE)
        ds.class_names = class_names
        ds.file_paths = part
        return ds

    if subset == "both":
        p_train, l_train = dataset_utils.get_training_or_validation_split(paths, labels, validation_split, "training")
        p_val, l_val = dataset_utils.get_training_or_validation_split(paths, labels, validation_split, "validation")
        if not p_train:
            raise ValueError(f"No training images found in directory {directory}. Allowed formats: {ALLOWLIST_FORMATS}")
        if not p_val:
            raise ValueError(f"No validation images found in directory {directory}. "
                             f"Allowed formats: {ALLOWLIST_FORMATS}")
        train = _paths_to_dataset(p_train, labels=l_train, shuffle=shuffle, shuffle_buffer_size=buffer, seed=seed,
                                  **common)
        val = _paths_to_dataset(p_val, labels=l_val, shuffle=False, **common)
        return [finish(train, p_train), finish(val, p_val)]
    paths, labels = dataset_utils.get_training_or_validation_split(paths, labels, validation_split, subset)
    if not paths:
        raise ValueError(f"No images found in directory {directory}. Allowed formats: {ALLOWLIST_FORMATS}")
    ds = _paths_to_dataset(paths, labels=labels, shuffle=shuffle, shuffle_buffer_size=buffer, seed=seed, **common)
    return finish(ds, paths)
