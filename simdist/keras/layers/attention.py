"""`keras.layers.MultiHeadAttention` (keras/src/layers/attention/multi_head_attention.py, Keras
3.15 on TensorFlow): query, key and value projected by EinsumDense layers named "query", "key",
"value" to (batch, ..., heads, dim), scaled dot-product attention over `attention_axes`, and the
"attention_output" EinsumDense back to the query's feature size (or `output_shape`).

Two attention paths, as Keras 3.15 takes them (clause keras.mha.values):
- rank-3 inputs with dropout 0 and no attention scores returned: the backend's
  `dot_product_attention` (keras/src/backend/tensorflow/nn.py): logits einsum
  "BTNH,BSNH->BNTS" cast to float32 (at least), times 1/sqrt(key_dim), masked positions
  filled with -0.7 x the dtype's largest finite value (65500 for float16, 3.38953e38 else),
  softmax in float32, cast back to the compute dtype, then "BNTS,BSNH->BTNH";
- otherwise: the query times 1/sqrt(key_dim) in the compute dtype, einsums from the attention
  axes, a `Softmax` layer whose mask fills -3e4 (float16) or -1e9 (else) and zeroes masked
  outputs, then Dropout.
Masks (clause keras.mha.masks): `attention_mask` (B, T, S), the `query`/`value`/`key` masks
(the keras mask of the query, `value_mask`/`key_mask` as passed) and `use_causal_mask` combine
with logical and.
"""

from __future__ import annotations

import math
import string
from typing import Any

import numpy as np

from simdist import tf
from simdist.keras import config as keras_config, constraints
from simdist.keras import dtype_policies, initializers, regularizers
from simdist.keras.keras_tensor import KerasTensor
from simdist.keras.layers.core import Dropout, Softmax
from simdist.keras.layers.einsum_dense import EinsumDense, einsum
from simdist.keras.layers.layer import Layer
from simdist.keras.tensor_attributes import get_keras_mask, set_keras_mask

__all__ = ["MultiHeadAttention"]


def _letter(i: int) -> str:
    return string.ascii_lowercase[i]


def build_attention_equation(rank: int, attn_axes: tuple) -> tuple[str, str, int]:
    """(dot-product equation, combine equation, rank of the scores) (Keras's _build_attention_equation)."""
    target = "".join(_letter(i) for i in range(rank))
    batch_dims = tuple(np.delete(range(rank), attn_axes + (rank - 1,)))
    offset, source = rank, ""
    for i in range(rank):
        if i in batch_dims or i == rank - 1:
            source += target[i]
        else:
            source += _letter(offset)
            offset += 1
    product = "".join([target[i] for i in batch_dims] + [target[i] for i in attn_axes] +
                      [source[i] for i in attn_axes])
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)


def build_proj_equation(free_dims: int, bound_dims: int, output_dims: int) -> tuple[str, str, int]:
    """(equation, bias axes, output rank) of a projection (Keras's _build_proj_equation)."""
    input_str = kernel_str = output_str = bias_axes = ""
    for i in range(free_dims):
        input_str += _letter(i)
        output_str += _letter(i)
    for i in range(bound_dims):
        c = _letter(free_dims + i)
        input_str += c
        kernel_str += c
    for i in range(output_dims):
        c = _letter(free_dims + bound_dims + i)
        kernel_str += c
        output_str += c
        bias_axes += c
    return f"{input_str},{kernel_str}->{output_str}", bias_axes, len(output_str)


def _output_shape(output_rank: int, known_last_dims: Any) -> list:
    return [None] * (output_rank - len(known_last_dims)) + list(known_last_dims)


def _large_negative(dtype: Any) -> float:
    """dot_product_attention's mask fill: -0.7 x 65500 (float16) or -0.7 x 3.38953e38."""
    return (65500.0 if dtype_policies.standardize_dtype(dtype) == "float16" else 3.38953e38) * -0.7


def refuse_flash_dropout(flash_attention: Any, dropout: float) -> None:
    """Keras's constructor check of MultiHeadAttention and GroupQueryAttention (clause keras.config.globals)."""
    if flash_attention and dropout > 0.0:
        raise ValueError("Dropout is not supported when flash attention is enabled. Please set dropout to 0.0 to use "
                         "flash attention.")


def refuse_flash_scores(flash_attention: Any, return_attention_scores: bool) -> None:
    """Keras's call check of both attention layers: flash attention returns no scores."""
    if flash_attention and return_attention_scores:
        raise ValueError("Returning attention scores is not supported when flash attention is enabled. Please "
                         "disable flash attention to access attention scores.")


class MultiHeadAttention(Layer):
    """`keras.layers.MultiHeadAttention(num_heads, key_dim, value_dim=None, dropout=0.0,
    use_bias=True, output_shape=None, attention_axes=None, ...)`; called as
    `layer(query, value, key=None, attention_mask=None, return_attention_scores=False,
    training=None, use_causal_mask=False)`."""

    def __init__(self, num_heads: int, key_dim: int, value_dim: int | None = None, dropout: float = 0.0,
                 use_bias: bool = True, output_shape: Any = None, attention_axes: Any = None,
                 sliding_window: int | None = None, flash_attention: Any = None,
                 kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, use_gate: bool = False,
                 seed: int | None = None, **kwargs: Any) -> None:
        if not isinstance(num_heads, int) or num_heads <= 0:
            raise ValueError("Received an invalid value for argument `num_heads`, expected a positive integer. "
                             f"Received: num_heads={num_heads}")
        if not isinstance(key_dim, int) or key_dim <= 0:
            raise ValueError("Received an invalid value for argument `key_dim`, expected a positive integer. "
                             f"Received: key_dim={key_dim}")
        if value_dim is not None and (not isinstance(value_dim, int) or value_dim <= 0):
            raise ValueError("Received an invalid value for argument `value_dim`, expected a positive integer or "
                             f"`None`. Received: value_dim={value_dim}")
        # Keras 3.15 keeps activity_regularizer for the projections only (its own output, which is the
        # output projection's, is not penalised a second time)
        super().__init__(**kwargs)
        self._activity_regularizer = regularizers.get(activity_regularizer)
        self.supports_masking = True   # the output keeps the query's mask (Keras 3.15)
        self._num_heads = num_heads
        self._key_dim = key_dim
        self._value_dim = value_dim if value_dim else key_dim
        self._dropout = dropout
        self._use_bias = use_bias
        self._use_gate = use_gate
        if output_shape:
            if isinstance(output_shape, int):
                output_shape = (output_shape,)
            try:
                output_shape = tuple(output_shape)
            except TypeError:
                raise ValueError(f"Invalid `output_shape`: {output_shape}. When specified, the `output_shape` should "
                                 "be of type tuple, list, or int.") from None
        self._output_shape = output_shape
        # (Keras: the argument, else the global setting; on the TF backend flash attention fails at the
        # call's dot_product_attention, clause keras.config.globals)
        self._flash_attention = flash_attention or keras_config.is_flash_attention_enabled()
        self._kernel_initializer = initializers.get(kernel_initializer)
        self._bias_initializer = initializers.get(bias_initializer)
        self._kernel_regularizer = regularizers.get(kernel_regularizer)
        self._bias_regularizer = regularizers.get(bias_regularizer)
        self._kernel_constraint = constraints.get(kernel_constraint)
        self._bias_constraint = constraints.get(bias_constraint)
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        elif attention_axes and not isinstance(attention_axes, (list, tuple)):
            raise ValueError(f"`attention_axes` must be an int, list, or tuple.Received: attention_axes={attention_axes}")
        self._attention_axes = attention_axes
        if sliding_window is not None and (not isinstance(sliding_window, int) or sliding_window <= 0):
            raise ValueError(f"`sliding_window` must be `None` or a positive integer. Received: "
                             f"sliding_window={sliding_window}")
        self._sliding_window = sliding_window
        self.seed = seed
        self._inverse_sqrt_key_dim = 1.0 / math.sqrt(float(self._key_dim))
        refuse_flash_dropout(self._flash_attention, self._dropout)

    # --- properties and config ---------------------------------------------------------------------
    num_heads = property(lambda self: self._num_heads)
    key_dim = property(lambda self: self._key_dim)
    value_dim = property(lambda self: self._value_dim)
    dropout = property(lambda self: self._dropout)
    use_bias = property(lambda self: self._use_bias)
    attention_axes = property(lambda self: self._attention_axes)
    query_dense = property(lambda self: self._query_dense)
    key_dense = property(lambda self: self._key_dense)
    value_dense = property(lambda self: self._value_dense)
    output_dense = property(lambda self: self._output_dense)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "num_heads": self._num_heads, "key_dim": self._key_dim,
                "value_dim": self._value_dim, "dropout": self._dropout, "use_bias": self._use_bias,
                "use_gate": self._use_gate, "output_shape": self._output_shape,
                "attention_axes": self._attention_axes, "sliding_window": self._sliding_window,
                "kernel_initializer": initializers.serialize(self._kernel_initializer),
                "bias_initializer": initializers.serialize(self._bias_initializer),
                "kernel_regularizer": regularizers.serialize(self._kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self._bias_regularizer),
                "activity_regularizer": regularizers.serialize(self._activity_regularizer),
                "kernel_constraint": constraints.serialize(self._kernel_constraint),
                "bias_constraint": constraints.serialize(self._bias_constraint), "seed": self.seed}

    # --- building ----------------------------------------------------------------------------------
    def _sublayer_kwargs(self) -> dict[str, Any]:
        """Each projection's arguments; fresh copies of the initializers (Keras clones them so
        that the projections do not share initial values)."""
        return {"kernel_regularizer": self._kernel_regularizer, "bias_regularizer": self._bias_regularizer,
                "activity_regularizer": self._activity_regularizer,
                "kernel_constraint": self._kernel_constraint, "bias_constraint": self._bias_constraint,
                "dtype": self.dtype_policy,
                "kernel_initializer": type(self._kernel_initializer).from_config(self._kernel_initializer.get_config()),
                "bias_initializer": type(self._bias_initializer).from_config(self._bias_initializer.get_config())}

    def _projection(self, rank: int, bound: int, last_dims: Any, name: str, activation: Any = None) -> EinsumDense:
        equation, bias_axes, output_rank = build_proj_equation(rank - 1, bound_dims=bound, output_dims=len(last_dims))
        return EinsumDense(equation, output_shape=_output_shape(output_rank - 1, last_dims),
                           bias_axes=bias_axes if self._use_bias else None, name=name, activation=activation,
                           **self._sublayer_kwargs())

    def build(self, query_shape: Any, value_shape: Any, key_shape: Any = None) -> None:
        key_shape = value_shape if key_shape is None else key_shape
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise ValueError("All dimensions of `value` and `key`, except the last one, must be equal. Received: "
                             f"value_shape={value_shape} and key_shape={key_shape}")
        heads_k, heads_v = [self._num_heads, self._key_dim], [self._num_heads, self._value_dim]
        self._query_dense = self._projection(len(query_shape), 1, heads_k, "query")
        self._query_dense.build(query_shape)
        self._key_dense = self._projection(len(key_shape), 1, heads_k, "key")
        self._key_dense.build(key_shape)
        if self._use_gate:
            self._gate_dense = self._projection(len(query_shape), 1, heads_v, "gate", activation="sigmoid")
            self._gate_dense.build(query_shape)
        self._value_dense = self._projection(len(value_shape), 1, heads_v, "value")
        self._value_dense.build(value_shape)
        self._build_attention(len(value_shape) + 1)
        out_dims = self._output_shape if self._output_shape else [query_shape[-1]]
        self._output_dense = self._projection(len(query_shape), 2, out_dims, "attention_output")
        dense_in = list(self._query_dense.compute_output_shape(query_shape))
        dense_in[-1] = self._value_dim
        self._output_dense.build(tuple(dense_in))

    def _build_attention(self, rank: int) -> None:
        if self._attention_axes is None:
            self._attention_axes = tuple(range(1, rank - 2))
        else:
            self._attention_axes = tuple(a if a >= 0 else (rank - 1) + a for a in self._attention_axes)
        self._dot_product_equation, self._combine_equation, scores_rank = build_attention_equation(
            rank, self._attention_axes)
        norm_axes = tuple(range(scores_rank - len(self._attention_axes), scores_rank))
        self._softmax = Softmax(axis=norm_axes, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self._dropout, dtype=self.dtype_policy, seed=self.seed)

    # --- calling -----------------------------------------------------------------------------------
    def call(self, query: Any, value: Any, key: Any = None, query_mask: Any = None, value_mask: Any = None,
             key_mask: Any = None, attention_mask: Any = None, return_attention_scores: bool = False,
             training: Any = None, use_causal_mask: bool = False) -> Any:
        if key is None:
            key = value
        query_mask = get_keras_mask(query)
        if value_mask is None:
            value_mask = get_keras_mask(value)
        if key_mask is None and key is not value:
            key_mask = get_keras_mask(key)
        for t in (query, value, key):
            set_keras_mask(t, None)
        causal_only = (use_causal_mask and query_mask is None and value_mask is None and key_mask is None
                       and attention_mask is None and self._sliding_window is None
                       and type(self)._compute_attention is MultiHeadAttention._compute_attention)
        if causal_only:
            attention_mask = None
        else:
            attention_mask = self._compute_attention_mask(query, value, query_mask, value_mask, key_mask,
                                                          attention_mask, use_causal_mask)
        gate = self._gate_dense(query) if self._use_gate else None
        query = self._query_dense(query)
        key = self._key_dense(key)
        value = self._value_dense(value)
        extra = {"use_causal_mask": True} if causal_only else {}
        attention_output, attention_scores = self._compute_attention(query, key, value, attention_mask, training,
                                                                     return_attention_scores, **extra)
        if gate is not None:
            attention_output = tf.multiply(attention_output, gate)
        attention_output = self._output_dense(attention_output)
        if query_mask is not None:
            set_keras_mask(attention_output, query_mask)
        if return_attention_scores:
            return attention_output, attention_scores
        return attention_output

    def _compute_attention(self, query: Any, key: Any, value: Any, attention_mask: Any = None, training: Any = None,
                           return_attention_scores: bool = False, use_causal_mask: bool = False) -> tuple[Any, Any]:
        refuse_flash_scores(self._flash_attention, return_attention_scores)
        if not (self._dropout > 0.0 or return_attention_scores or len(query.shape) != 4):
            if attention_mask is not None:
                attention_mask = tf.convert_to_tensor(attention_mask)
                axis = -len(self._attention_axes) * 2 - 1
                for _ in range(4 - len(attention_mask.shape)):
                    attention_mask = tf.expand_dims(attention_mask, axis=axis)
                attention_mask = tf.cast(attention_mask, "bool")
            return self._dot_product_attention(query, key, value, attention_mask, use_causal_mask), None
        if use_causal_mask:
            causal = self._compute_causal_mask(query, value)
            attention_mask = causal if attention_mask is None else tf.logical_and(
                tf.cast(attention_mask, "bool"), causal)
        query = tf.multiply(query, tf.cast(self._inverse_sqrt_key_dim, query.dtype))
        attention_scores = einsum(self._dot_product_equation, key, query)
        attention_scores = self._masked_softmax(attention_scores, attention_mask)
        final = self._dropout_layer(attention_scores, training=training) if self._dropout > 0.0 else attention_scores
        return einsum(self._combine_equation, final, value), attention_scores

    def _dot_product_attention(self, query: Any, key: Any, value: Any, mask: Any, is_causal: bool) -> Any:
        """Keras's TF dot_product_attention (its XLA-style path): float32 logits and softmax."""
        if self._flash_attention:
            raise ValueError("Flash attention is not supported in tensorflow backend.")
        compute = query.dtype
        logits_dtype = "float64" if compute == tf.float64 else "float32"
        logits = tf.cast(tf.einsum("BTNH,BSNH->BNTS", query, key), logits_dtype)
        logits = tf.multiply(logits, tf.cast(self._inverse_sqrt_key_dim, logits.dtype))
        if mask is not None or is_causal:
            combined = tf.ones_like(logits, dtype="bool")
            if mask is not None:
                combined = tf.logical_and(combined, mask)
            if is_causal:
                # (TF's band_part(ones((T, S)), -1, 0): key index <= query index; simdist has no
                # band_part op, and compares the indices instead, the same boolean mask)
                t, s = int(logits.shape[2]), int(logits.shape[3])
                band = tf.greater_equal(tf.reshape(tf.range(t), (t, 1)), tf.reshape(tf.range(s), (1, s)))
                combined = tf.logical_and(combined, band[None, None, :, :])
            logits = tf.where(combined, logits, tf.constant(_large_negative(logits.dtype), dtype=logits.dtype))
        probs = tf.cast(tf.nn.softmax(logits, axis=-1), key.dtype)
        return tf.einsum("BNTS,BSNH->BTNH", probs, value)

    def _masked_softmax(self, attention_scores: Any, attention_mask: Any = None) -> Any:
        if attention_mask is not None:
            attention_mask = tf.convert_to_tensor(attention_mask)
            axis = -len(self._attention_axes) * 2 - 1
            for _ in range(len(attention_scores.shape) - len(attention_mask.shape)):
                attention_mask = tf.expand_dims(attention_mask, axis=axis)
        return self._softmax(attention_scores, mask=attention_mask)

    def _compute_attention_mask(self, query: Any, value: Any, query_mask: Any = None, value_mask: Any = None,
                                key_mask: Any = None, attention_mask: Any = None,
                                use_causal_mask: bool = False) -> Any:
        """The query (B, T, 1), value and key (B, 1, S), causal (1, T, S) and sliding-window masks
        and `attention_mask`, combined with logical and."""
        auto = None
        if query_mask is not None:
            auto = tf.expand_dims(tf.cast(query_mask, "bool"), -1)
        for m in (value_mask, key_mask):
            if m is not None:
                m = tf.expand_dims(tf.cast(m, "bool"), -2)
                auto = m if auto is None else tf.logical_and(auto, m)
        if use_causal_mask:
            m = self._compute_causal_mask(query, value)
            auto = m if auto is None else tf.logical_and(auto, m)
        if self._sliding_window is not None:
            t, s = int(query.shape[1]), int(value.shape[1])
            rows = tf.reshape(tf.range(t, dtype="int32"), (1, t, 1))
            cols = tf.reshape(tf.range(s, dtype="int32"), (1, 1, s))
            m = tf.less(tf.abs(rows - cols), self._sliding_window)
            auto = m if auto is None else tf.logical_and(auto, m)
        if attention_mask is not None:
            attention_mask = tf.cast(attention_mask, "bool")
        if auto is not None:
            attention_mask = auto if attention_mask is None else tf.logical_and(attention_mask, auto)
        return attention_mask

    def _compute_causal_mask(self, query: Any, value: Any = None) -> Any:
        """(1, T, S): True on and below the diagonal (cumsums of ones compared, as Keras)."""
        t = tf.shape(query)[1]
        s = t if value is None else tf.shape(value)[1]
        ones = tf.ones(tf.stack([1, t, s]), dtype="int32")
        return tf.greater_equal(tf.cumsum(ones, axis=-2), tf.cumsum(ones, axis=-1))

    # --- shapes ------------------------------------------------------------------------------------
    def compute_output_shape(self, query_shape: Any, value_shape: Any, key_shape: Any = None) -> tuple:
        query_shape, value_shape = tuple(query_shape), tuple(value_shape)
        key_shape = value_shape if key_shape is None else tuple(key_shape)
        if value_shape[1:-1] != key_shape[1:-1]:
            raise ValueError("All dimensions of `value` and `key`, except the last one, must be equal. Received: "
                             f"value_shape={value_shape} and key_shape={key_shape}")
        if self._output_shape:
            query_shape = query_shape[:-1] + tuple(self._output_shape)
        return query_shape

    def compute_output_spec(self, query: Any, value: Any, key: Any = None, query_mask: Any = None,
                            value_mask: Any = None, key_mask: Any = None, attention_mask: Any = None,
                            return_attention_scores: bool = False, training: Any = None,
                            use_causal_mask: bool = False) -> Any:
        shape = self.compute_output_shape(query.shape, value.shape, None if key is None else key.shape)
        spec = KerasTensor(shape, dtype=self.compute_dtype)
        if return_attention_scores:
            length = query.shape[1]
            return spec, KerasTensor((query.shape[0], self.num_heads, length, length), dtype=self.compute_dtype)
        return spec
