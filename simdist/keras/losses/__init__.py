"""`tf.keras.losses`: Keras 3.15's losses on simdist (clauses keras.loss.* in docs/spec.md)."""

from __future__ import annotations

import inspect

from typing import Any

from simdist.keras.serialization import deserialize_keras_object, deserialize_with_module_objects, get_keras_object
from simdist.keras.serialization import serialize_function, serialize_keras_object
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
from simdist.keras.losses.hinge_losses import CategoricalHinge, Hinge, SquaredHinge
from simdist.keras.losses.hinge_losses import categorical_hinge, hinge, squared_hinge
from simdist.keras.losses.overlap_losses import Dice, Tversky, dice, tversky
from simdist.keras.losses.probabilistic_losses import BinaryFocalCrossentropy, CategoricalFocalCrossentropy
from simdist.keras.losses.probabilistic_losses import CategoricalGeneralizedCrossEntropy
from simdist.keras.losses.probabilistic_losses import categorical_generalized_cross_entropy  # noqa: F401
from simdist.keras.losses.probabilistic_losses import KLDivergence, Poisson
from simdist.keras.losses.probabilistic_losses import binary_focal_crossentropy, categorical_focal_crossentropy
from simdist.keras.losses.probabilistic_losses import poisson
from simdist.keras.losses.reduction import Reduction  # noqa: F401
from simdist.keras.losses.regression_losses import CosineSimilarity, Huber, LogCosh
from simdist.keras.losses.regression_losses import MeanAbsolutePercentageError, MeanSquaredLogarithmicError
from simdist.keras.losses.regression_losses import cosine_similarity, huber
from simdist.keras.losses.sequence_losses import CTC, ctc
from simdist.keras.losses.similarity_losses import Circle, circle
from simdist.keras.losses import losses as _losses
from simdist.keras.losses import probabilistic_losses as _probabilistic
from simdist.keras.losses import regression_losses as _regression

# Keras 3.15's keras/src/losses/__init__.py table: the classes, then the functions (it lacks
# CategoricalGeneralizedCrossEntropy, which `get` therefore refuses).
ALL_OBJECTS = (
    Loss, LossFunctionWrapper,
    KLDivergence, Poisson, BinaryCrossentropy, BinaryFocalCrossentropy, CategoricalCrossentropy,
    CategoricalFocalCrossentropy, SparseCategoricalCrossentropy,
    MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError, CosineSimilarity,
    LogCosh, Huber, Hinge, SquaredHinge, CategoricalHinge, Dice, Tversky, Circle, CTC,
    _probabilistic.kl_divergence, poisson, binary_crossentropy, binary_focal_crossentropy, categorical_crossentropy,
    categorical_focal_crossentropy, sparse_categorical_crossentropy,
    _losses.mean_squared_error, _losses.mean_absolute_error, _regression.mean_absolute_percentage_error,
    _regression.mean_squared_logarithmic_error, cosine_similarity, _regression.log_cosh, huber,
    hinge, squared_hinge, categorical_hinge, dice, tversky, circle, ctc,
)
ALL_OBJECTS_DICT: dict[str, Any] = {obj.__name__: obj for obj in ALL_OBJECTS}
ALL_OBJECTS_DICT.update({"bce": binary_crossentropy, "BCE": binary_crossentropy,
                         "mae": _losses.mean_absolute_error, "MAE": _losses.mean_absolute_error,
                         "mse": _losses.mean_squared_error, "MSE": _losses.mean_squared_error,
                         "kld": _probabilistic.kl_divergence, "KLD": _probabilistic.kl_divergence,
                         "mape": _regression.mean_absolute_percentage_error,
                         "MAPE": _regression.mean_absolute_percentage_error,
                         "msle": _regression.mean_squared_logarithmic_error,
                         "MSLE": _regression.mean_squared_logarithmic_error})

# tf.keras (keras._tf_keras) exports these functions under their legacy names only:
# tf.keras.losses.mse exists, tf.keras.losses.mean_squared_error does not; `logcosh` and
# `kullback_leibler_divergence` are attributes that `get` does not know (clause keras.loss.get).
MSE = mse = _losses.mean_squared_error
MAE = mae = _losses.mean_absolute_error
MAPE = mape = _regression.mean_absolute_percentage_error
MSLE = msle = _regression.mean_squared_logarithmic_error
KLD = kld = kullback_leibler_divergence = _probabilistic.kl_divergence
logcosh = _regression.log_cosh


def serialize(loss: Any) -> Any:
    """A loss's serialized form: {"module", "class_name", "config", "registered_name"} for a
    Loss, the function's name for a function."""
    if isinstance(loss, Loss):
        return serialize_keras_object(loss, "keras.losses")
    return serialize_function(loss)


def deserialize(name: Any, custom_objects: dict | None = None) -> Any:
    """The loss a `serialize` result (or a {"class_name", "config"} dict) describes. A dict whose class_name is the
    name of one of the module's functions ({"class_name": "hinge", "config": {}}) gives that function, its config
    unread (Keras 3.15's deserialize_keras_object with module_objects: a FunctionType found by the name is looked up
    again by that name in its own module, so an alias, "mse" or "bce", is ValueError there)."""
    decided, out = deserialize_with_module_objects(name, ALL_OBJECTS_DICT, custom_objects)
    if decided:
        return out
    if isinstance(name, dict) and isinstance(name.get("class_name"), str) and name.get("module", "_") is not None \
            and name["class_name"] not in (custom_objects or {}) \
            and inspect.isfunction(ALL_OBJECTS_DICT.get(name["class_name"])) \
            and ALL_OBJECTS_DICT[name["class_name"]].__name__ == name["class_name"]:
        return ALL_OBJECTS_DICT[name["class_name"]]
    return deserialize_keras_object(name, ALL_OBJECTS_DICT, "loss", custom_objects, base=Loss, instantiate_names=True)


def get(identifier: Any) -> Any:
    """Keras's `losses.get`: None -> None; a name of a function ("sparse_categorical_crossentropy",
    "mse") -> the function; a class name ("SparseCategoricalCrossentropy") -> an instance; a
    {"class_name", "config"} dict -> an instance; a callable -> itself."""
    return get_keras_object(identifier, ALL_OBJECTS_DICT, "loss", deserialize)


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.losses names simdist has (one a line; clause api.namespaces)
    "BinaryCrossentropy",
    "BinaryFocalCrossentropy",
    "CTC",
    "CategoricalCrossentropy",
    "CategoricalFocalCrossentropy",
    "CategoricalGeneralizedCrossEntropy",
    "CategoricalHinge",
    "Circle",
    "CosineSimilarity",
    "Dice",
    "Hinge",
    "Huber",
    "KLD",
    "KLDivergence",
    "LogCosh",
    "Loss",
    "MAE",
    "MAPE",
    "MSE",
    "MSLE",
    "MeanAbsoluteError",
    "MeanAbsolutePercentageError",
    "MeanSquaredError",
    "MeanSquaredLogarithmicError",
    "Poisson",
    "Reduction",
    "SparseCategoricalCrossentropy",
    "SquaredHinge",
    "Tversky",
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "categorical_crossentropy",
    "categorical_focal_crossentropy",
    "categorical_generalized_cross_entropy",
    "categorical_hinge",
    "circle",
    "cosine_similarity",
    "ctc",
    "deserialize",
    "dice",
    "get",
    "hinge",
    "huber",
    "kld",
    "kullback_leibler_divergence",
    "logcosh",
    "mae",
    "mape",
    "mse",
    "msle",
    "poisson",
    "serialize",
    "sparse_categorical_crossentropy",
    "squared_hinge",
    "tversky",
]
__dir__ = _api.dir_of(__name__)
