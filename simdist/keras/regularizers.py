"""`keras.regularizers` (keras/src/regularizers/): penalties on weights and layer outputs.

A regularizer is a callable `regularizer(x) -> scalar tensor`. Layers take one per weight
(`kernel_regularizer=`, ...: `Layer.add_weight(regularizer=...)` keeps it on the variable) and one
on their outputs (`activity_regularizer=`); `layer.losses` evaluates them (clauses
keras.reg.* in docs/spec.md). The formulas and their dtypes are Keras 3.15's on the TF backend:
`L1` keeps its factor as a float32 tensor, `L2` as a Python float, both cast to the input's dtype
before multiplying a `reduce_sum`; `L1L2` starts from a zero of the input's dtype and adds only the
non-zero terms.
"""

from __future__ import annotations

import math
from typing import Any

from simdist.keras.serialization import deserialize_keras_object, deserialize_with_module_objects, get_keras_object
from simdist.keras.serialization import serialize_keras_object
from simdist import tf
from simdist.keras.naming import to_snake_case
from simdist.keras import scratch_graph


_EPSILON = 1e-7   # keras.config.epsilon()


def _tensor(x: Any) -> Any:
    """A Keras variable or array as a tensor (Keras's ops.convert_to_tensor)."""
    return x if isinstance(x, tf.Tensor) else tf.convert_to_tensor(x)


def _dtype(x: Any) -> Any:
    return tf.as_dtype(x.dtype)


def validate_float_arg(value: Any, name: str) -> float:
    """Keras's check of a penalty factor: a non-negative, finite int or float (not a NumPy float32)."""
    if not isinstance(value, (float, int)) or (math.isinf(value) or math.isnan(value)) or value < 0:
        raise ValueError(f"Invalid value for argument {name}: expected a non-negative float."
                         f"Received: {name}={value}")
    return float(value)


class Regularizer:
    """Base class: `regularizer(x)` -> a scalar penalty (0.0 here); subclasses give `get_config`."""

    def __call__(self, x: Any) -> Any:
        return 0.0

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> "Regularizer":
        return cls(**config)

    def get_config(self) -> dict[str, Any]:
        raise NotImplementedError(f"{self} does not implement get_config()")


class L1L2(Regularizer):
    """`l1 * reduce_sum(abs(x)) + l2 * reduce_sum(square(x))` (defaults 0.0 each; None means 0.0)."""

    def __init__(self, l1: Any = 0.0, l2: Any = 0.0) -> None:
        l1 = 0.0 if l1 is None else l1
        l2 = 0.0 if l2 is None else l2
        self.l1 = validate_float_arg(l1, name="l1")
        self.l2 = validate_float_arg(l2, name="l2")

    def __call__(self, x: Any) -> Any:
        x = _tensor(x)
        regularization = tf.convert_to_tensor(0.0, dtype=_dtype(x))
        if self.l1 != 0.0:
            regularization += tf.cast(self.l1, _dtype(x)) * tf.reduce_sum(tf.abs(x))
        if self.l2 != 0.0:
            regularization += tf.cast(self.l2, _dtype(x)) * tf.reduce_sum(tf.square(x))
        return regularization

    def get_config(self) -> dict[str, Any]:
        return {"l1": self.l1, "l2": self.l2}


class L1(Regularizer):
    """`l1 * reduce_sum(abs(x))` (default 0.01); the factor is kept as a float32 tensor, as Keras does."""

    def __init__(self, l1: Any = 0.01) -> None:
        l1 = 0.01 if l1 is None else l1
        self.l1 = tf.convert_to_tensor(validate_float_arg(l1, name="l1"))
        self._graph = scratch_graph.mark()   # (a Const of Keras's scratch graph when made there)

    def __call__(self, x: Any) -> Any:
        scratch_graph.check(getattr(self, "_graph", None))
        x = _tensor(x)
        return tf.cast(self.l1, _dtype(x)) * tf.reduce_sum(tf.abs(x))

    def get_config(self) -> dict[str, Any]:
        return {"l1": float(self.l1)}


class L2(Regularizer):
    """`l2 * reduce_sum(square(x))` (default 0.01)."""

    def __init__(self, l2: Any = 0.01) -> None:
        l2 = 0.01 if l2 is None else l2
        self.l2 = validate_float_arg(l2, name="l2")

    def __call__(self, x: Any) -> Any:
        x = _tensor(x)
        return tf.cast(self.l2, _dtype(x)) * tf.reduce_sum(tf.square(x))

    def get_config(self) -> dict[str, Any]:
        return {"l2": self.l2}


def _l2_normalize(x: Any, axis: int) -> Any:
    """Keras's ops.normalize(order=2): x * min(rsqrt(sum(x^2)), 1/epsilon)."""
    inv_norm = tf.math.rsqrt(tf.reduce_sum(tf.square(x), axis=axis, keepdims=True))
    inv_norm = tf.minimum(inv_norm, tf.cast(1.0 / _EPSILON, inv_norm.dtype))
    return x * inv_norm


class OrthogonalRegularizer(Regularizer):
    """`factor * 0.5 * sum(|off-diagonal of the Gram matrix of the L2-normalised rows (or columns)|)
    / number of pairs`, for rank-2 inputs."""

    def __init__(self, factor: Any = 0.01, mode: str = "rows") -> None:
        validate_float_arg(factor, name="factor")
        self.factor = tf.convert_to_tensor(factor)
        self._graph = scratch_graph.mark()   # (a Const of Keras's scratch graph when made there)
        if mode not in {"rows", "columns"}:
            raise ValueError('Invalid value for argument `mode`. Expected one of {"rows", "columns"}. '
                             f"Received: mode={mode}")
        self.mode = mode

    def __call__(self, inputs: Any) -> Any:
        scratch_graph.check(getattr(self, "_graph", None))
        inputs = _tensor(inputs)
        if len(inputs.shape) != 2:
            raise ValueError(f"Inputs to OrthogonalRegularizer must have rank 2. Received: inputs.shape={inputs.shape}")
        if self.mode == "rows":
            inputs = _l2_normalize(inputs, axis=1)
            product = tf.matmul(inputs, tf.transpose(inputs))
            size = inputs.shape[0]
        else:
            inputs = _l2_normalize(inputs, axis=0)
            product = tf.matmul(tf.transpose(inputs), inputs)
            size = inputs.shape[1]
        product_no_diagonal = product * (1.0 - tf.eye(size, dtype=inputs.dtype))
        num_pairs = size * (size - 1.0) / 2.0
        return self.factor * 0.5 * tf.reduce_sum(tf.abs(product_no_diagonal)) / num_pairs

    def get_config(self) -> dict[str, Any]:
        return {"factor": float(self.factor), "mode": self.mode}


# Keras's lower-case aliases (keras.regularizers.l1, l2, l1_l2, orthogonal_regularizer)
l1, l2, l1_l2, orthogonal_regularizer = L1, L2, L1L2, OrthogonalRegularizer

ALL_OBJECTS = (Regularizer, L1, L2, L1L2, OrthogonalRegularizer)
ALL_OBJECTS_DICT: dict[str, Any] = {cls.__name__: cls for cls in ALL_OBJECTS}
ALL_OBJECTS_DICT.update({to_snake_case(cls.__name__): cls for cls in ALL_OBJECTS})


def serialize(regularizer: Any) -> Any:
    """Keras's serialized form of a regularizer (serialization_lib.serialize_keras_object;
    keras.saving.json-and-serialize): {"module", "class_name", "config", "registered_name"} for a Regularizer; None for
    None; a plain function as Keras writes any function (`{"module": "builtins", "class_name": "function", ...}`)."""
    if isinstance(regularizer, Regularizer):
        return serialize_keras_object(regularizer, "keras.regularizers")
    from simdist.keras.utils.keras_object_serialization import serialize_keras_object as serialize_any
    return serialize_any(regularizer)


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The regularizer a `serialize` result (or a {"class_name", "config"} dict, or a name) describes."""
    decided, out = deserialize_with_module_objects(config, ALL_OBJECTS_DICT, custom_objects)
    if decided:
        return out
    return deserialize_keras_object(config, ALL_OBJECTS_DICT, "regularizer", custom_objects, instantiate_names=True)


def get(identifier: Any) -> Any:
    """Keras's `regularizers.get`: None -> None; a class name or its snake case ("l2", "L1L2",
    "l1l2"; not "l1_l2", which Keras 3.15 refuses too) -> an instance with the default factors; a config dict -> an instance; a callable -> itself (a class is
    instantiated); anything else -> ValueError."""
    return get_keras_object(identifier, ALL_OBJECTS_DICT, "regularizer", deserialize)


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.regularizers names simdist has (one a line; clause api.namespaces)
    "L1",
    "L1L2",
    "L2",
    "OrthogonalRegularizer",
    "Regularizer",
    "deserialize",
    "get",
    "l1",
    "l1_l2",
    "l2",
    "orthogonal_regularizer",
    "serialize",
]
__dir__ = _api.dir_of(__name__)
