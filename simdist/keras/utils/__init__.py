"""`tf.keras.utils` (the parts the trainer and the guides need): Progbar, to_categorical, the custom-object
registry, set_random_seed and clear_session."""

from __future__ import annotations

from simdist.keras.backend import clear_session, set_random_seed
from simdist.keras.object_registration import get_custom_objects, get_registered_name, get_registered_object
from simdist.keras.object_registration import register_keras_serializable
from simdist.keras.utils.numerical_utils import to_categorical
from simdist.keras.utils.progbar import Progbar

__all__ = ["Progbar", "to_categorical", "register_keras_serializable", "get_registered_name", "get_registered_object",
           "get_custom_objects", "set_random_seed", "clear_session"]
