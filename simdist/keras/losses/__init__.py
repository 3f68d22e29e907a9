"""`tf.keras.losses`: Keras 3.15's losses on simdist (clauses keras.loss.* in docs/spec.md)."""

from __future__ import annotations

from typing import Any

from simdist.keras.serialization import deserialize_keras_object, get_keras_object, serialize_keras_object
from simdist.keras.losses.loss import Loss, reduce_weighted_values, standardize_reduction  # noqa: F401
from simdist.keras.losses.losses import BinaryCrossentropy
from simdist.keras.losses.losses import CategoricalCrossentropy
from simdist.keras.losses.losses import LossFunctionWrapper
from simdist.keras.losses.losses import MeanAbsoluteError
from simdist.keras.losses.losses import MeanSquaredError
from simdist.keras.losses.losses import SparseCategoricalCrossentropy
from simdist.keras.losses.losses import binary_crossentropy
from simdist.keras.losses.losses import categorical_crossentropy
from simdist.keras.losses.losses import sparse_categorical_crossentropy
from simdist.keras.losses.reduction import Reduction  # noqa: F401
from simdist.keras.losses import losses as _losses

ALL_OBJECTS = (
    Loss, LossFunctionWrapper,
    BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy, MeanSquaredError, MeanAbsoluteError,
    binary_crossentropy, categorical_crossentropy, sparse_categorical_crossentropy, _losses.mean_squared_error,
    _losses.mean_absolute_error,
)
ALL_OBJECTS_DICT: dict[str, Any] = {obj.__name__: obj for obj in ALL_OBJECTS}
ALL_OBJECTS_DICT.update({"bce": binary_crossentropy, "BCE": binary_crossentropy,
                         "mae": _losses.mean_absolute_error, "MAE": _losses.mean_absolute_error,
                         "mse": _losses.mean_squared_error, "MSE": _losses.mean_squared_error})

# tf.keras (keras._tf_keras) exports the regression functions under their legacy names only:
# tf.keras.losses.mse exists, tf.keras.losses.mean_squared_error does not (clause keras.loss.get).
MSE = mse = _losses.mean_squared_error
MAE = mae = _losses.mean_absolute_error


def serialize(loss: Any) -> Any:
    """A loss's serialized form: {"module", "class_name", "config", "registered_name"} for a
    Loss, the function's name for a function."""
    if isinstance(loss, Loss):
        return serialize_keras_object(loss, "keras.losses")
    return getattr(loss, "__name__", loss)


def deserialize(name: Any, custom_objects: dict | None = None) -> Any:
    """The loss a `serialize` result (or a {"class_name", "config"} dict) describes."""
    return deserialize_keras_object(name, ALL_OBJECTS_DICT, "loss", custom_objects, base=Loss)


def get(identifier: Any) -> Any:
    """Keras's `losses.get`: None -> None; a name of a function ("sparse_categorical_crossentropy",
    "mse") -> the function; a class name ("SparseCategoricalCrossentropy") -> an instance; a
    {"class_name", "config"} dict -> an instance; a callable -> itself."""
    return get_keras_object(identifier, ALL_OBJECTS_DICT, "loss", deserialize)