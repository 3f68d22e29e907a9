"""`keras.layers.PReLU` (keras/src/layers/activations/prelu.py): a leaky ReLU whose negative
slope `alpha` is a trainable weight, one per input element after the batch axis (size 1 along
`shared_axes`)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import constraints
from simdist.keras import activations, initializers, regularizers
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["PReLU"]


class PReLU(Layer):
    """`keras.layers.PReLU(alpha_initializer="Zeros", alpha_regularizer=None, alpha_constraint=None,
    shared_axes=None)`: relu(x) - alpha * relu(-x)."""

    def __init__(self, alpha_initializer: Any = "Zeros", alpha_regularizer: Any = None, alpha_constraint: Any = None,
                 shared_axes: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        if shared_axes is None:
            self.shared_axes = None
        elif not isinstance(shared_axes, (list, tuple)):
            self.shared_axes = [shared_axes]
        else:
            self.shared_axes = list(shared_axes)

    def build(self, input_shape: Any) -> None:
        param_shape = list(input_shape[1:])
        if self.shared_axes is not None:
            for i in self.shared_axes:
                param_shape[i - 1] = 1
        self.alpha = self.add_weight(shape=param_shape, name="alpha", initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer, constraint=self.alpha_constraint)
        axes = {}
        if self.shared_axes:
            for i in range(1, len(input_shape)):
                if i not in self.shared_axes:
                    axes[i] = input_shape[i]
        self.input_spec = InputSpec(ndim=len(input_shape), axes=axes)

    def call(self, inputs: Any) -> Any:
        pos = activations.relu(inputs)
        neg = tf.negative(self.alpha) * activations.relu(tf.negative(inputs))
        return pos + neg

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "alpha_initializer": initializers.serialize(self.alpha_initializer),
                "alpha_regularizer": regularizers.serialize(self.alpha_regularizer),
                "alpha_constraint": constraints.serialize(self.alpha_constraint), "shared_axes": self.shared_axes}
