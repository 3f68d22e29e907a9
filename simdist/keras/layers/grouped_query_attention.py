"""`keras.layers.GroupQueryAttention` / `GroupedQueryAttention` (keras/src/layers/attention/
grouped_query_attention.py): query heads projected by EinsumDense "bqm,muh->bquh", key and value
by "bkm,mvh->bkvh" into fewer key/value heads, each repeated num_query_heads // num_key_value_heads
times; scaled dot products (1/sqrt(head_dim)), masks (the inputs' Keras masks, attention_mask,
use_causal_mask, sliding_window), softmax, dropout, an optional sigmoid gate, and the output
projection "bquh,uhm->bqm". Without dropout or returned scores Keras's path is
`ops.dot_product_attention`; otherwise einsums and the Softmax layer. No flash attention (as on
Keras's TF backend)."""

from __future__ import annotations

import math
from typing import Any

from simdist import tf
from simdist.keras import config as keras_config, constraints, initializers, regularizers
from simdist.keras.keras_tensor import KerasTensor
from simdist.keras.layers.core import Dropout, Softmax
from simdist.keras.layers.attention import refuse_flash_dropout, refuse_flash_scores
from simdist.keras.layers.einsum_dense import EinsumDense
from simdist.keras.layers.layer import Layer

__all__ = ["GroupedQueryAttention"]


def _ops() -> Any:
    from simdist.keras import ops
    return ops


class GroupedQueryAttention(Layer):
    """`keras.layers.GroupQueryAttention(head_dim, num_query_heads, num_key_value_heads, dropout=0.0,
    use_bias=True, sliding_window=None, flash_attention=None, ..., use_gate=False, seed=None)`."""

    def __init__(self, head_dim: int, num_query_heads: int, num_key_value_heads: int, dropout: float = 0.0,
                 use_bias: bool = True, sliding_window: int | None = None, flash_attention: Any = None,
                 kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, use_gate: bool = False, seed: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.supports_masking = True
        self.head_dim = head_dim
        self.num_query_heads = num_query_heads
        self.num_key_value_heads = num_key_value_heads
        if num_query_heads % num_key_value_heads != 0:
            raise ValueError("`num_query_heads` must be divisible by `num_key_value_heads`.")
        self.num_repeats = num_query_heads // num_key_value_heads
        self.dropout = dropout
        self.use_bias = use_bias
        self.use_gate = use_gate
        if sliding_window is not None and (not isinstance(sliding_window, int) or sliding_window <= 0):
            raise ValueError(f"`sliding_window` must be `None` or a positive integer. Received: "
                             f"sliding_window={sliding_window}")
        self.sliding_window = sliding_window
        # (Keras: the argument, else the global setting; on the TF backend flash attention fails at the
        # call's dot_product_attention, clause keras.config.globals)
        self._flash_attention = flash_attention or keras_config.is_flash_attention_enabled()
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.seed = seed
        self._inverse_sqrt_head_dim = 1.0 / math.sqrt(float(self.head_dim))
        self._return_attention_scores = False
        refuse_flash_dropout(self._flash_attention, self.dropout)

    def build(self, query_shape: Any, value_shape: Any, key_shape: Any = None) -> None:
        key_shape = value_shape if key_shape is None else key_shape
        self.feature_dim = query_shape[-1]
        self._query_dense = EinsumDense("bqm,muh->bquh", output_shape=(None, self.num_query_heads, self.head_dim),
                                        bias_axes="uh" if self.use_bias else None, name="query",
                                        **self._get_common_kwargs_for_sublayer())
        self._query_dense.build(query_shape)
        self._key_dense = EinsumDense("bkm,mvh->bkvh", output_shape=(None, self.num_key_value_heads, self.head_dim),
                                      bias_axes="vh" if self.use_bias else None, name="key",
                                      **self._get_common_kwargs_for_sublayer())
        self._key_dense.build(key_shape)
        if self.use_gate:
            self._gate_dense = EinsumDense("bqm,muh->bquh", output_shape=(None, self.num_query_heads, self.head_dim),
                                           bias_axes="uh" if self.use_bias else None, activation="sigmoid",
                                           name="gate", **self._get_common_kwargs_for_sublayer())
            self._gate_dense.build(query_shape)
        self._value_dense = EinsumDense("bkm,mvh->bkvh",
                                        output_shape=(None, self.num_key_value_heads, self.head_dim),
                                        bias_axes="vh" if self.use_bias else None, name="value",
                                        **self._get_common_kwargs_for_sublayer())
        self._value_dense.build(value_shape)
        self._softmax = Softmax(axis=-1, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self.dropout, dtype=self.dtype_policy, seed=self.seed)
        self._dot_product_equation = "bquh,bkuh->buqk"
        self._combine_equation = "buqk,bkuh->bquh"
        self._output_dense = EinsumDense("bquh,uhm->bqm", output_shape=(None, self.feature_dim),
                                         bias_axes="m" if self.use_bias else None, name="attention_output",
                                         **self._get_common_kwargs_for_sublayer())
        self._output_dense.build((None, None, self.num_query_heads, self.head_dim))

    def _get_common_kwargs_for_sublayer(self) -> dict[str, Any]:
        return dict(kernel_regularizer=self.kernel_regularizer, bias_regularizer=self.bias_regularizer,
                    activity_regularizer=self.activity_regularizer, kernel_constraint=self.kernel_constraint,
                    bias_constraint=self.bias_constraint, dtype=self.dtype_policy,
                    kernel_initializer=self.kernel_initializer.__class__.from_config(
                        self.kernel_initializer.get_config()),
                    bias_initializer=self.bias_initializer.__class__.from_config(self.bias_initializer.get_config()))

    def call(self, query: Any, value: Any, key: Any = None, query_mask: Any = None, value_mask: Any = None,
             key_mask: Any = None, attention_mask: Any = None, return_attention_scores: bool = False,
             training: Any = None, use_causal_mask: bool = False) -> Any:
        ops = _ops()
        self._return_attention_scores = return_attention_scores
        if key is None:
            key = value
        causal_only = (use_causal_mask and query_mask is None and value_mask is None and key_mask is None
                       and attention_mask is None and self.sliding_window is None
                       and type(self)._compute_attention is GroupedQueryAttention._compute_attention)
        if causal_only:
            attention_mask = None
        else:
            attention_mask = self._compute_attention_mask(query, value, query_mask=query_mask, value_mask=value_mask,
                                                          key_mask=key_mask, attention_mask=attention_mask,
                                                          use_causal_mask=use_causal_mask)
        if self.use_gate:
            gate = self._gate_dense(query)
        query = self._query_dense(query)
        key = self._key_dense(key)
        value = self._value_dense(value)
        key = ops.repeat(key, self.num_repeats, axis=2)
        value = ops.repeat(value, self.num_repeats, axis=2)
        extra = {"use_causal_mask": True} if causal_only else {}
        output, scores = self._compute_attention(query, key, value, attention_mask=attention_mask, training=training,
                                                 **extra)
        output = self._output_dense(ops.multiply(output, gate) if self.use_gate else output)
        if return_attention_scores:
            return output, scores
        return output

    def _compute_attention_mask(self, query: Any, value: Any, query_mask: Any = None, value_mask: Any = None,
                                key_mask: Any = None, attention_mask: Any = None,
                                use_causal_mask: bool = False) -> Any:
        ops = _ops()
        auto_mask = None
        if query_mask is not None:
            auto_mask = ops.expand_dims(ops.cast(query_mask, "bool"), -1)
        if value_mask is not None:
            mask = ops.expand_dims(ops.cast(value_mask, "bool"), -2)
            auto_mask = mask if auto_mask is None else auto_mask & mask
        if key_mask is not None:
            mask = ops.expand_dims(ops.cast(key_mask, "bool"), -2)
            auto_mask = mask if auto_mask is None else auto_mask & mask
        if use_causal_mask:
            mask = self._compute_causal_mask(query, value)
            auto_mask = mask if auto_mask is None else auto_mask & mask
        if self.sliding_window is not None:
            mask = self._compute_sliding_window_mask(query, value)
            auto_mask = mask if auto_mask is None else auto_mask & mask
        if auto_mask is not None:
            attention_mask = auto_mask if attention_mask is None else ops.cast(attention_mask, bool) & auto_mask
        return attention_mask

    def _compute_causal_mask(self, query: Any, value: Any = None) -> Any:
        ops = _ops()
        q_seq_length = ops.shape(query)[1]
        v_seq_length = q_seq_length if value is None else ops.shape(value)[1]
        ones_mask = ops.ones((1, q_seq_length, v_seq_length), dtype="int32")
        return ops.greater_equal(ops.cumsum(ones_mask, axis=-2), ops.cumsum(ones_mask, axis=-1))

    def _compute_sliding_window_mask(self, query: Any, value: Any = None) -> Any:
        ops = _ops()
        q_seq_length = ops.shape(query)[1]
        v_seq_length = q_seq_length if value is None else ops.shape(value)[1]
        row_index = ops.reshape(ops.arange(q_seq_length, dtype="int32"), (1, q_seq_length, 1))
        col_index = ops.reshape(ops.arange(v_seq_length, dtype="int32"), (1, 1, v_seq_length))
        return ops.less(ops.abs(row_index - col_index), self.sliding_window)

    def _compute_attention(self, query: Any, key: Any, value: Any, attention_mask: Any = None, training: Any = None,
                           use_causal_mask: bool = False) -> tuple[Any, Any]:
        ops = _ops()
        refuse_flash_scores(self._flash_attention, self._return_attention_scores)
        use_dot_product_attention = not (self.dropout > 0.0 or self._return_attention_scores
                                         or (len(query.shape) != 4))
        if use_dot_product_attention:
            if use_causal_mask and attention_mask is None:
                return ops.dot_product_attention(query=query, key=key, value=value, bias=None, mask=None,
                                                 scale=self._inverse_sqrt_head_dim, is_causal=True,
                                                 flash_attention=self._flash_attention), None
            if attention_mask is not None:
                for _ in range(4 - len(attention_mask.shape)):
                    attention_mask = ops.expand_dims(attention_mask, axis=-3)
                attention_mask = ops.cast(attention_mask, dtype="bool")
            return ops.dot_product_attention(query=query, key=key, value=value, bias=None, mask=attention_mask,
                                             scale=self._inverse_sqrt_head_dim, is_causal=use_causal_mask,
                                             flash_attention=self._flash_attention), None
        if use_causal_mask:
            causal_mask = self._compute_causal_mask(query, value)
            attention_mask = causal_mask if attention_mask is None else ops.logical_and(
                ops.cast(attention_mask, "bool"), causal_mask)
        query = ops.multiply(query, ops.cast(self._inverse_sqrt_head_dim, query.dtype))
        scores = ops.einsum(self._dot_product_equation, query, key)
        scores = self._masked_softmax(scores, attention_mask=attention_mask)
        scores_dropout = self._dropout_layer(scores, training=training) if self.dropout > 0.0 else scores
        output = ops.einsum(self._combine_equation, scores_dropout, value)
        return output, scores

    def _masked_softmax(self, scores: Any, attention_mask: Any = None) -> Any:
        ops = _ops()
        if attention_mask is not None:
            for _ in range(len(scores.shape) - len(attention_mask.shape)):
                attention_mask = ops.expand_dims(attention_mask, axis=-3)
        return self._softmax(scores, mask=attention_mask)

    def compute_output_shape(self, query_shape: Any, value_shape: Any, key_shape: Any = None) -> Any:
        if key_shape is None:
            key_shape = value_shape
        if query_shape[-1] != value_shape[-1]:
            raise ValueError("The last dimension of `query_shape` and `value_shape` must be equal, but are "
                             f"{query_shape[-1]}, {value_shape[-1]}. Received: query_shape={query_shape}, "
                             f"value_shape={value_shape}")
        if value_shape[1:-1] != key_shape[1:-1]:
            raise ValueError("All dimensions of `value` and `key`, except the last one, must be equal. Received: "
                             f"value_shape={value_shape} and key_shape={key_shape}")
        return query_shape

    def compute_output_spec(self, query: Any, value: Any, key: Any = None, query_mask: Any = None,
                            value_mask: Any = None, key_mask: Any = None, attention_mask: Any = None,
                            return_attention_scores: bool = False, training: Any = None,
                            use_causal_mask: bool = False) -> Any:
        output_shape = self.compute_output_shape(query.shape, value.shape, key.shape if key is not None else None)
        output_spec = KerasTensor(output_shape, dtype=self.compute_dtype)
        if return_attention_scores:
            kv_len = value.shape[1] if key is None else key.shape[1]
            return output_spec, KerasTensor((query.shape[0], self.num_query_heads, query.shape[1], kv_len),
                                            dtype=self.compute_dtype)
        return output_spec

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "head_dim": self.head_dim, "num_query_heads": self.num_query_heads,
                "num_key_value_heads": self.num_key_value_heads, "use_bias": self.use_bias,
                "use_gate": self.use_gate, "sliding_window": self.sliding_window, "dropout": self.dropout,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint), "seed": self.seed}


GroupQueryAttention = GroupedQueryAttention
