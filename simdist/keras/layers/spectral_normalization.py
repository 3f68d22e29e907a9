"""`keras.layers.SpectralNormalization` (keras/src/layers/normalization/spectral_normalization.py): a
Wrapper that, in training calls, rescales the wrapped layer's kernel (or embeddings) by its largest
singular value, estimated by `power_iterations` steps of the power method from a non-trainable
`vector_u` (TruncatedNormal(stddev=0.02)); the kernel and vector_u are assigned before the wrapped
layer runs (an all-zero kernel is left as is)."""

from __future__ import annotations

from typing import Any

from simdist.keras import initializers
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.wrapper import Wrapper

__all__ = ["SpectralNormalization"]


def _ops() -> Any:
    from simdist.keras import ops
    return ops


class SpectralNormalization(Wrapper):
    """`keras.layers.SpectralNormalization(layer, power_iterations=1)`."""

    def __init__(self, layer: Any, power_iterations: int = 1, **kwargs: Any) -> None:
        super().__init__(layer, **kwargs)
        if power_iterations <= 0:
            raise ValueError("`power_iterations` should be greater than zero. Received: "
                             f"`power_iterations={power_iterations}`")
        self.power_iterations = power_iterations

    def build(self, input_shape: Any) -> None:
        super().build(input_shape)
        self.input_spec = InputSpec(min_ndim=1, axes={-1: input_shape[-1]})
        if hasattr(self.layer, "kernel"):
            self.kernel = self.layer.kernel
        elif hasattr(self.layer, "embeddings"):
            self.kernel = self.layer.embeddings
        else:
            raise ValueError(f"{type(self.layer).__name__} object has no attribute 'kernel' nor 'embeddings'")
        self.kernel_shape = self.kernel.shape
        self.vector_u = self.add_weight(shape=(1, self.kernel_shape[-1]),
                                        initializer=initializers.TruncatedNormal(stddev=0.02), trainable=False,
                                        name="vector_u", dtype=self.kernel.dtype)

    def call(self, inputs: Any, training: Any = False) -> Any:
        ops = _ops()
        if training:
            new_vector_u, new_kernel = ops.cond(ops.all(ops.equal(self.kernel.value, 0)),
                                                lambda: (self.vector_u.value, self.kernel.value),
                                                self.normalized_weights)
            self.vector_u.assign(new_vector_u)
            self.kernel.assign(new_kernel)
        output = self.layer(inputs)
        return ops.cast(output, inputs.dtype)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return self.layer.compute_output_shape(input_shape)

    def normalized_weights(self) -> tuple[Any, Any]:
        """(new vector_u, the kernel divided by its estimated spectral norm)."""
        ops = _ops()
        weights = ops.reshape(self.kernel, [-1, self.kernel_shape[-1]])
        vector_u = self.vector_u.value
        for _ in range(self.power_iterations):
            vector_v = ops.normalize(ops.matmul(vector_u, ops.transpose(weights)), axis=None)
            vector_u = ops.normalize(ops.matmul(vector_v, weights), axis=None)
        vector_u = ops.stop_gradient(vector_u)
        vector_v = ops.stop_gradient(vector_v)
        sigma = ops.matmul(ops.matmul(vector_v, weights), ops.transpose(vector_u))
        kernel = ops.reshape(ops.divide(self.kernel, sigma), self.kernel_shape)
        return ops.cast(vector_u, self.vector_u.dtype), ops.cast(kernel, self.kernel.dtype)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "power_iterations": self.power_iterations}
