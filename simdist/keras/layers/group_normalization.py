"""`keras.layers.GroupNormalization` (keras/src/layers/normalization/group_normalization.py): the
channels (`axis`) split into `groups` groups of consecutive channels; each sample is normalized
by the mean and variance of each group (over the group's channels and every other non-batch
axis), then scaled by gamma and shifted by beta per channel. groups=-1 is instance
normalization (one group per channel), groups=1 layer normalization over all non-batch axes.
Computed as Keras's TF backend does: `ops.moments` in at least float32, then
`x * inv + (beta - mean * inv)` with `inv = rsqrt(variance + epsilon) * gamma`."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import constraints, dtype_promotion, initializers, regularizers
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer
from simdist.keras.layers.normalization import moments
from simdist.keras.layers.unit_normalization import check_axes

__all__ = ["GroupNormalization"]


class GroupNormalization(Layer):
    """`keras.layers.GroupNormalization(groups=32, axis=-1, epsilon=1e-3, center=True, scale=True, ...)`."""

    def __init__(self, groups: int = 32, axis: int = -1, epsilon: float = 1e-3, center: bool = True,
                 scale: bool = True, beta_initializer: Any = "zeros", gamma_initializer: Any = "ones",
                 beta_regularizer: Any = None, gamma_regularizer: Any = None, beta_constraint: Any = None,
                 gamma_constraint: Any = None, **kwargs: Any) -> None:
        if not isinstance(groups, int) or (groups <= 0 and groups != -1):
            raise ValueError("Received an invalid value for argument `groups`, expected a positive integer (or `-1` "
                             f"for instance normalization). Received: groups={groups}")
        super().__init__(**kwargs)
        self.supports_masking = True
        self.autocast = False
        self.groups = groups
        self.axis = axis
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)

    def build(self, input_shape: Any) -> None:
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined dimension but the layer "
                             f"received an input with shape {input_shape}.")
        if self.groups == -1:
            self.groups = dim
        if dim < self.groups:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the number of channels ({dim}).")
        if dim % self.groups != 0:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the number of channels ({dim}).")
        self.input_spec = InputSpec(ndim=len(input_shape), axes={self.axis: dim})
        self.gamma = (self.add_weight(shape=(dim,), name="gamma", initializer=self.gamma_initializer,
                                      regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
                                      autocast=False) if self.scale else None)
        self.beta = (self.add_weight(shape=(dim,), name="beta", initializer=self.beta_initializer,
                                     regularizer=self.beta_regularizer, constraint=self.beta_constraint,
                                     autocast=False) if self.center else None)
        self.built = True

    def _group_shape(self, inputs: Any) -> list:
        dynamic = tf.shape(inputs)
        shape: list = list(inputs.shape)
        shape[0] = -1
        for i, e in enumerate(shape[1:]):
            if e is None:
                shape[i + 1] = dynamic[i + 1]
        shape[self.axis] = shape[self.axis] // self.groups
        shape.insert(self.axis, self.groups)
        return shape

    def _broadcast_shape(self, rank: int, channels: int) -> list:
        shape = [1] * rank
        shape[self.axis] = channels // self.groups
        shape.insert(self.axis, self.groups)
        return shape

    def call(self, inputs: Any) -> Any:
        inputs = tf.convert_to_tensor(inputs)
        reshaped = tf.reshape(inputs, self._group_shape(inputs))
        inputs_dtype = reshaped.dtype
        compute = tf.as_dtype(dtype_promotion.result_type(inputs_dtype.name, "float32"))
        reshaped = reshaped if reshaped.dtype == compute else tf.cast(reshaped, compute)
        axes = list(range(1, len(reshaped.shape)))
        axes.pop(-2 if self.axis == -1 else self.axis - 1)
        broadcast = self._broadcast_shape(len(inputs.shape), inputs.shape[self.axis])
        mean, variance = moments(reshaped, axes=axes, keepdims=True)
        inv = tf.math.rsqrt(variance + self.epsilon)   # the Python float converted to float64 exactly (Keras)
        if self.scale:
            inv = inv * tf.cast(tf.reshape(self.gamma, broadcast), compute)
        res = -mean * inv
        if self.center:
            res = res + tf.cast(tf.reshape(self.beta, broadcast), compute)
        normalized = reshaped * inv + res
        normalized = normalized if normalized.dtype == inputs_dtype else tf.cast(normalized, inputs_dtype)
        outputs = tf.reshape(normalized, tf.shape(inputs))
        return outputs if outputs.dtype.name == self.compute_dtype else tf.cast(outputs, self.compute_dtype)

    def compute_output_shape(self, input_shape: Any) -> Any:
        check_axes(self.axis, input_shape, self.axis)
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "groups": self.groups, "axis": self.axis, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale,
                "beta_initializer": initializers.serialize(self.beta_initializer),
                "gamma_initializer": initializers.serialize(self.gamma_initializer),
                "beta_regularizer": regularizers.serialize(self.beta_regularizer),
                "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
                "beta_constraint": constraints.serialize(self.beta_constraint),
                "gamma_constraint": constraints.serialize(self.gamma_constraint)}
