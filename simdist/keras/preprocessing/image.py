"""`tf.keras.preprocessing.image`: the image-file helpers, the same functions as keras.utils' (Keras 3.15
exports them under both names). Keras 1's ImageDataGenerator, DirectoryIterator, NumpyArrayIterator,
Iterator and the apply_*/random_* affine transforms are not implemented (AttributeError)."""

from __future__ import annotations

from simdist.keras.utils.image_utils import array_to_img, img_to_array, load_img, save_img, smart_resize  # noqa: F401

from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.preprocessing.image names simdist has (one a line; clause api.namespaces)
    "array_to_img",
    "img_to_array",
    "load_img",
    "save_img",
    "smart_resize",
]
__dir__ = _api.dir_of(__name__)
