"""`keras.constraints` (keras/src/constraints/): projections applied to a weight after each update.

A constraint is a callable `constraint(w) -> w'`. Layers take one per weight (`kernel_constraint=`,
...; `Layer.add_weight(constraint=...)` keeps it on the variable, through `get`), and the
optimizer's `apply` assigns `variable.assign(variable.constraint(variable))` to every updated
variable after the update step (clause keras.constraints in docs/spec.md). The projections are
Keras 3.15's, with `norms = sqrt(sum(w^2, axis, keepdims=True))` and epsilon 1e-7:
- MaxNorm(max_value=2, axis=0): w * clip(norms, 0, max_value) / (epsilon + norms);
- MinMaxNorm(min_value=0, max_value=1, rate=1, axis=0): w * (rate * clip(norms, min, max) +
  (1 - rate) * norms) / (epsilon + norms);
- NonNeg(): max(w, 0);
- UnitNorm(axis=0): w / (epsilon + norms);
- Constraint(): the identity.
"""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.naming import to_snake_case
from simdist.keras.serialization import deserialize_keras_object, deserialize_with_module_objects, get_keras_object
from simdist.keras.serialization import serialize_keras_object


_EPSILON = 1e-7   # keras.config.epsilon()


def _tensor(w: Any) -> Any:
    """Keras's backend.convert_to_tensor of a weight (a variable reads its value)."""
    return w if isinstance(w, tf.Tensor) else tf.convert_to_tensor(w)


def _norms(w: Any, axis: Any) -> Any:
    return tf.sqrt(tf.reduce_sum(tf.square(w), axis=axis, keepdims=True))


def _cast(w: Any, dtype: Any) -> Any:
    return w if w.dtype == dtype else tf.cast(w, dtype)


class Constraint:
    """Base class: `constraint(w)` returns w unchanged; subclasses project it."""

    def __call__(self, w: Any) -> Any:
        return w

    def get_config(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> "Constraint":
        return cls(**config)


class MaxNorm(Constraint):
    """Rescale each slice along `axis` whose L2 norm exceeds `max_value` down to it."""

    def __init__(self, max_value: Any = 2, axis: Any = 0) -> None:
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w: Any) -> Any:
        w = _tensor(w)
        norms = _norms(w, self.axis)
        # (Keras's ops.clip: tf.clip_by_value converts the Python bounds to the norms' dtype directly, so a float64
        # weight is clipped at max_value exactly, not at its float32 rounding)
        desired = tf.clip_by_value(norms, 0, self.max_value)
        return _cast(w, norms.dtype) * (desired / (_EPSILON + norms))

    def get_config(self) -> dict[str, Any]:
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """max(w, 0)."""

    def __call__(self, w: Any) -> Any:
        w = _tensor(w)
        return tf.maximum(w, tf.zeros([], w.dtype))


class UnitNorm(Constraint):
    """Each slice along `axis` divided by (epsilon + its L2 norm)."""

    def __init__(self, axis: Any = 0) -> None:
        self.axis = axis

    def __call__(self, w: Any) -> Any:
        w = _tensor(w)
        norms = _norms(w, self.axis)
        return _cast(w, norms.dtype) / (_EPSILON + norms)

    def get_config(self) -> dict[str, Any]:
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Each slice along `axis` rescaled toward a norm in [min_value, max_value], by `rate`."""

    def __init__(self, min_value: Any = 0.0, max_value: Any = 1.0, rate: Any = 1.0, axis: Any = 0) -> None:
        self.min_value = min_value
        self.max_value = max_value
        self.rate = rate
        self.axis = axis

    def __call__(self, w: Any) -> Any:
        w = _tensor(w)
        norms = _norms(w, self.axis)
        clipped = tf.clip_by_value(norms, self.min_value, self.max_value)   # (the bounds exact: MaxNorm's note)
        desired = self.rate * clipped + (1 - self.rate) * norms
        return _cast(w, norms.dtype) * (desired / (_EPSILON + norms))

    def get_config(self) -> dict[str, Any]:
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate, "axis": self.axis}


# Keras's snake-case aliases (keras.constraints.max_norm, ...)
max_norm, min_max_norm, non_neg, unit_norm = MaxNorm, MinMaxNorm, NonNeg, UnitNorm

ALL_OBJECTS = (Constraint, MaxNorm, MinMaxNorm, NonNeg, UnitNorm)
ALL_OBJECTS_DICT: dict[str, Any] = {cls.__name__: cls for cls in ALL_OBJECTS}
ALL_OBJECTS_DICT.update({to_snake_case(cls.__name__): cls for cls in ALL_OBJECTS})


def serialize(constraint: Any) -> Any:
    """Keras's serialized form (serialization_lib.serialize_keras_object; keras.saving.json-and-serialize): {"module",
    "class_name", "config", "registered_name"} for a Constraint, None for None, a plain function as Keras writes any
    function (`{"module": "builtins", "class_name": "function", ...}`)."""
    if isinstance(constraint, Constraint):
        return serialize_keras_object(constraint, "keras.constraints")
    from simdist.keras.utils.keras_object_serialization import serialize_keras_object as serialize_any
    return serialize_any(constraint)


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The constraint a `serialize` dict (or a name) describes."""
    decided, out = deserialize_with_module_objects(config, ALL_OBJECTS_DICT, custom_objects)
    if decided:
        return out
    return deserialize_keras_object(config, ALL_OBJECTS_DICT, "constraint", custom_objects, instantiate_names=True)


def get(identifier: Any) -> Any:
    """Keras's `constraints.get`: None -> None; "max_norm"/"MaxNorm"... -> an instance with the
    defaults; a config dict -> an instance; a callable -> itself (a class is instantiated);
    anything else -> ValueError "Could not interpret constraint identifier"."""
    return get_keras_object(identifier, ALL_OBJECTS_DICT, "constraint", deserialize)


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.constraints names simdist has (one a line; clause api.namespaces)
    "Constraint",
    "MaxNorm",
    "MinMaxNorm",
    "NonNeg",
    "UnitNorm",
    "deserialize",
    "get",
    "max_norm",
    "min_max_norm",
    "non_neg",
    "serialize",
    "unit_norm",
]
__dir__ = _api.dir_of(__name__)
