"""`tf.keras.optimizers`: Keras 3.15's optimizers with the TensorFlow backend's distributed
semantics (see base_optimizer.py and docs/spec.md, clauses optim.*), on simdist.tf."""

from __future__ import annotations

from typing import Any

from simdist.keras.serialization import serialize_keras_object
from simdist.keras.optimizers import schedules
from simdist.keras.optimizers.adadelta import Adadelta
from simdist.keras.optimizers.adafactor import Adafactor
from simdist.keras.optimizers.adagrad import Adagrad
from simdist.keras.optimizers.adam import Adam
from simdist.keras.optimizers.adamax import Adamax
from simdist.keras.optimizers.adamw import AdamW
from simdist.keras.optimizers.ftrl import Ftrl
from simdist.keras.optimizers.lamb import Lamb
from simdist.keras.optimizers.lion import Lion
from simdist.keras.optimizers.muon import Muon
from simdist.keras.optimizers.nadam import Nadam
from simdist.keras.optimizers.base_optimizer import Optimizer
from simdist.keras.optimizers.rmsprop import RMSprop
from simdist.keras.optimizers.schedule_free_adamw import ScheduleFreeAdamW
from simdist.keras.optimizers.sgd import SGD
from simdist.keras.optimizers.loss_scale_optimizer import LossScaleOptimizer
from simdist.keras.optimizers.multi_optimizer import MultiOptimizer, OptimizerMap


# Keras 3.15's ALL_OBJECTS_DICT (optimizers/__init__.py): each class by its lower-cased name, the base Optimizer and
# the wrappers too (Lamb is not among them)
_BY_NAME = {c.__name__.lower(): c for c in (Optimizer, Adam, SGD, RMSprop, Adadelta, AdamW, Adagrad, Adamax, Adafactor,
                                            Muon, MultiOptimizer, OptimizerMap, Nadam, Ftrl, Lion, LossScaleOptimizer,
                                            ScheduleFreeAdamW)}


def serialize(optimizer: Optimizer) -> dict[str, Any]:
    """Keras's serialized form: {"module", "class_name", "config", "registered_name"}."""
    return serialize_keras_object(optimizer, "keras.optimizers")


def deserialize(config: dict[str, Any], custom_objects: dict | None = None) -> Any:
    """The optimizer a `serialize` dict describes. Keras lower-cases a built-in class name in the given dict itself
    (case-insensitive lookup) and builds the class from the dict's config (`Optimizer` from `{}`: the constructor's
    TypeError; a wrapper without its inner optimizers: KeyError). A class name that is neither one of
    keras.optimizers' objects (Lamb is not) nor in custom_objects comes back as that name, a str: Keras's
    deserialize_keras_object takes it for an object "already deserialized"."""
    if config["class_name"].lower() in _BY_NAME:
        config["class_name"] = config["class_name"].lower()
    name = config["class_name"]
    cls = (custom_objects or {}).get(name) or _BY_NAME.get(name)
    if cls is None:
        return name
    return cls.from_config(config.get("config") or {}, custom_objects=custom_objects)


def get(identifier: Any) -> Optimizer:
    """Keras's `optimizers.get`: None -> None; a dict -> `deserialize(dict)`; a name -> `deserialize({"class_name":
    name, "config": {}})`; then an Optimizer is returned, anything else is ValueError."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        obj = deserialize({"class_name": identifier, "config": {}})
    else:
        obj = identifier
    if isinstance(obj, Optimizer):
        return obj
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.optimizers names simdist has (one a line; clause api.namespaces)
    "Adadelta",
    "Adafactor",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "Ftrl",
    "Lamb",
    "Lion",
    "LossScaleOptimizer",
    "MultiOptimizer",
    "Muon",
    "Nadam",
    "Optimizer",
    "OptimizerMap",
    "RMSprop",
    "SGD",
    "ScheduleFreeAdamW",
    "deserialize",
    "get",
    "schedules",
    "serialize",
]
__dir__ = _api.dir_of(__name__)
