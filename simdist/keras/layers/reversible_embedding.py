"""`keras.layers.ReversibleEmbedding` (keras/src/layers/core/reversible_embedding.py): an Embedding that
can also be called with `reverse=True` to project hidden states back to vocabulary logits, by the
transposed embeddings (`tie_weights=True`) or a separate trainable `reverse_embeddings`
(output_dim, input_dim); optional `reverse_dtype` and `logit_soft_cap` (tanh(logits / cap) * cap).
The quantized (int8/int4) forms are not shipped."""

from __future__ import annotations

from typing import Any

from simdist.keras.keras_tensor import KerasTensor
from simdist.keras.layers.core import Embedding
from simdist.keras.tensor_attributes import set_keras_mask

__all__ = ["ReversibleEmbedding"]


class ReversibleEmbedding(Embedding):
    """`keras.layers.ReversibleEmbedding(input_dim, output_dim, tie_weights=True, embeddings_initializer="uniform",
    embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False, reverse_dtype=None,
    logit_soft_cap=None)`."""

    def __init__(self, input_dim: int, output_dim: int, tie_weights: bool = True,
                 embeddings_initializer: Any = "uniform", embeddings_regularizer: Any = None,
                 embeddings_constraint: Any = None, mask_zero: bool = False, reverse_dtype: Any = None,
                 logit_soft_cap: float | None = None, **kwargs: Any) -> None:
        super().__init__(input_dim, output_dim, embeddings_initializer=embeddings_initializer,
                         embeddings_regularizer=embeddings_regularizer, embeddings_constraint=embeddings_constraint,
                         mask_zero=mask_zero, **kwargs)
        self.tie_weights = tie_weights
        self.reverse_dtype = reverse_dtype
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape: Any = None) -> None:
        if self.built:
            return
        super().build(input_shape)
        if not self.tie_weights:
            self.reverse_embeddings = self.add_weight(shape=(self.output_dim, self.input_dim),
                                                      initializer=self.embeddings_initializer,
                                                      name="reverse_embeddings", trainable=True)

    def call(self, inputs: Any, reverse: bool = False) -> Any:
        from simdist.keras import ops
        if not reverse:
            result = super().call(inputs)
            mask = super().compute_mask(inputs)
            if mask is not None:
                set_keras_mask(result, mask)
            return result
        kernel = ops.transpose(self.embeddings) if self.tie_weights else self.reverse_embeddings
        if self.reverse_dtype is not None:
            inputs = ops.cast(inputs, self.reverse_dtype)
            kernel = ops.cast(kernel, self.reverse_dtype)
        logits = ops.matmul(inputs, kernel)
        if self.logit_soft_cap is not None:
            soft_cap = self.logit_soft_cap
            logits = ops.multiply(ops.tanh(ops.divide(logits, soft_cap)), soft_cap)
        return logits

    def compute_mask(self, inputs: Any, mask: Any = None) -> None:
        return None

    def compute_output_shape(self, input_shape: Any, reverse: bool = False) -> list:
        output_shape = list(input_shape)
        if reverse:
            output_shape[-1] = self.input_dim
        else:
            output_shape += [self.output_dim]
        return output_shape

    def compute_output_spec(self, inputs: Any, reverse: bool = False) -> KerasTensor:
        return KerasTensor(self.compute_output_shape(inputs.shape, reverse), dtype=self.compute_dtype)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "tie_weights": self.tie_weights, "reverse_dtype": self.reverse_dtype,
                "logit_soft_cap": self.logit_soft_cap}
