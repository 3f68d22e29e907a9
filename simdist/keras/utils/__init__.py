"""`tf.keras.utils`: Progbar, to_categorical, normalize, pad_sequences,
timeseries_dataset_from_array, PyDataset/Sequence, FeatureSpace, pack/unpack_x_y_sample_weight, the
custom-object registry and scope, set_random_seed and clear_session, get_file (Keras's download
cache, which tf.keras.applications' pretrained weights go through)."""

from __future__ import annotations

from simdist.keras.backend import clear_session, set_random_seed
from simdist.keras.object_registration import CustomObjectScope, custom_object_scope
from simdist.keras.object_registration import get_custom_objects, get_registered_name, get_registered_object
from simdist.keras.object_registration import register_keras_serializable
from simdist.keras.trainers.data_adapter import pack_x_y_sample_weight, unpack_x_y_sample_weight
from simdist.keras.trainers.py_dataset import PyDataset
from simdist.keras.dtype_policies import standardize_dtype
from simdist.keras.utils.graph_utils import get_source_inputs, is_keras_tensor
from simdist.keras.utils.numerical_utils import normalize, to_categorical
from simdist.keras.utils.progbar import Progbar
from simdist.keras.utils.sequence_utils import pad_sequences
from simdist.keras.utils.split_dataset import split_dataset
from simdist.keras.utils.timeseries import timeseries_dataset_from_array
from simdist.keras.utils.image_dataset import image_dataset_from_directory
from simdist.keras.utils.text_dataset import text_dataset_from_directory
from simdist.keras.utils.audio_dataset import audio_dataset_from_directory
from simdist.keras.utils.image_utils import array_to_img, img_to_array, load_img, save_img
from simdist.keras.utils.keras_object_serialization import deserialize_keras_object, serialize_keras_object  # noqa: E402
from simdist.keras.utils.feature_space import FeatureSpace  # noqa: E402
from simdist.keras.utils.config import Config  # noqa: E402
from simdist.keras.utils.file_utils import get_file  # noqa: E402
from simdist.keras.io_utils import (disable_interactive_logging, enable_interactive_logging,  # noqa: E402
                                   is_interactive_logging_enabled)

Sequence = PyDataset   # Keras 3.15 exports PyDataset under both names


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.utils names simdist has (one a line; clause api.namespaces)
    "Config",
    "CustomObjectScope",
    "FeatureSpace",
    "Progbar",
    "PyDataset",
    "Sequence",
    "array_to_img",
    "audio_dataset_from_directory",
    "clear_session",
    "custom_object_scope",
    "deserialize_keras_object",
    "disable_interactive_logging",
    "enable_interactive_logging",
    "get_custom_objects",
    "get_file",
    "get_registered_name",
    "get_registered_object",
    "get_source_inputs",
    "image_dataset_from_directory",
    "img_to_array",
    "is_interactive_logging_enabled",
    "is_keras_tensor",
    "load_img",
    "normalize",
    "pack_x_y_sample_weight",
    "pad_sequences",
    "register_keras_serializable",
    "save_img",
    "serialize_keras_object",
    "set_random_seed",
    "split_dataset",
    "standardize_dtype",
    "text_dataset_from_directory",
    "timeseries_dataset_from_array",
    "to_categorical",
    "unpack_x_y_sample_weight",
]
__dir__ = _api.dir_of(__name__)
