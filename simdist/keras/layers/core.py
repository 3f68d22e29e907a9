"""Core layers (keras/src/layers/core/ and activations/): Dense, Embedding, Activation, ReLU,
Softmax, Dropout, Input/InputLayer; computed as Keras's TensorFlow backend computes them."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import activations, initializers
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["Dense"]


def matmul(x: Any, kernel: Any) -> Any:
    """Keras's ops.matmul on TF for a kernel of rank 2: tf.matmul for rank-2 inputs, tensordot
    over the last axis for higher ranks."""
    k = tf.convert_to_tensor(kernel)
    if len(x.shape) == 2:
        return tf.matmul(x, k)
    return tf.tensordot(x, k, axes=[[-1], [0]])


def bias_add(x: Any, bias: Any) -> Any:
    """Keras's ops.add(x, bias) on TF: a rank-1 bias matching the last axis is tf.nn.bias_add."""
    b = tf.convert_to_tensor(bias)
    if len(x.shape) > 1 and len(b.shape) == 1 and b.shape[0] == x.shape[-1]:
        return tf.nn.bias_add(x, b)
    return tf.add(x, b)


class Dense(Layer):
    """`keras.layers.Dense(units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
    bias_initializer="zeros", ...)`: `activation(inputs @ kernel + bias)` on the last axis."""

    def __init__(self, units: int, activation: Any = None, use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, lora_rank: Any = None,
                 lora_alpha: Any = None, quantization_config: Any = None, **kwargs: Any) -> None:
        if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. Received: "
                             f"units={units}")
        if lora_rank or quantization_config is not None:
            raise NotImplementedError("Dense(lora_rank=..., quantization_config=...): simdist's Dense does not "
                                      "implement LoRA or quantization")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self.input_spec = InputSpec(min_ndim=2)

    def build(self, input_shape: Any) -> None:
        kernel_shape = (input_shape[-1], self.units)
        self._kernel = self.add_weight(name="kernel", shape=kernel_shape, initializer=self.kernel_initializer,
                                       regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.units,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        else:
            self.bias = None
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_shape[-1]})
        self.built = True

    @property
    def kernel(self) -> Any:
        if not self.built:
            raise AttributeError("You must build the layer before accessing `kernel`.")
        return self._kernel

    def call(self, inputs: Any, training: Any = None) -> Any:
        x = matmul(inputs, self._kernel)
        if self.bias is not None:
            x = bias_add(x, self.bias)
        if self.activation is not None:
            x = self.activation(x)
        return x

    def compute_output_shape(self, input_shape: Any) -> tuple:
        output_shape = list(input_shape)
        output_shape[-1] = self.units
        return tuple(output_shape)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "units": self.units, "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias, "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer)}
