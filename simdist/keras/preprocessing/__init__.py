"""`tf.keras.preprocessing`: Keras 3.15's legacy preprocessing namespace (keras/_tf_keras/keras/preprocessing):
the `text` and `sequence` modules (Keras 1's Tokenizer, hashing, skip-grams, TimeseriesGenerator; clause
keras.preprocessing.legacy), `image` (the image-file helpers, Keras 1's random transforms and
ImageDataGenerator with its iterators), and three dataset utilities re-exported from keras.utils."""

from __future__ import annotations

from simdist.keras.preprocessing import image  # noqa: F401
from simdist.keras.preprocessing import sequence  # noqa: F401
from simdist.keras.preprocessing import text  # noqa: F401
from simdist.keras.utils.image_dataset import image_dataset_from_directory  # noqa: F401
from simdist.keras.utils.text_dataset import text_dataset_from_directory  # noqa: F401
from simdist.keras.utils.timeseries import timeseries_dataset_from_array  # noqa: F401

from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.preprocessing names simdist has (one a line; clause api.namespaces)
    "image",
    "image_dataset_from_directory",
    "sequence",
    "text",
    "text_dataset_from_directory",
    "timeseries_dataset_from_array",
]
__dir__ = _api.dir_of(__name__)
