"""`keras.layers.Attention` and `AdditiveAttention` (keras/src/layers/attention/attention.py,
additive_attention.py): on [query, value] or [query, value, key], scores query·keyᵀ (× a
trainable `scale` with use_scale; score_mode "concat": `concat_score_weight · Σ tanh(scale·(q +
k))`; additive: `Σ scale · tanh(q + k)`), masked positions lowered by 1e9 (65504 in float16),
softmax over the keys, dropout of the weights in training, then weights·value; a query mask
zeroes its rows. Computed with the ops Keras's TF backend uses."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import random
from simdist.keras.keras_tensor import KerasTensor
from simdist.keras.layers.layer import Layer

__all__ = ["Attention", "AdditiveAttention"]


class Attention(Layer):
    """`keras.layers.Attention(use_scale=False, score_mode="dot", dropout=0.0, seed=None)`."""

    def __init__(self, use_scale: bool = False, score_mode: str = "dot", dropout: float = 0.0,
                 seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.use_scale = use_scale
        self.score_mode = score_mode
        self.dropout = dropout
        self.seed = seed
        if self.dropout > 0:
            self.seed_generator = random.SeedGenerator(seed=seed)
        if self.score_mode not in ["dot", "concat"]:
            raise ValueError(f"Invalid value for argument score_mode. Expected one of {{'dot', 'concat'}}. Received: "
                             f"score_mode={score_mode}")

    def build(self, input_shape: Any) -> None:
        self._validate_inputs(input_shape)
        self.scale = None
        self.concat_score_weight = None
        if self.use_scale:
            self.scale = self.add_weight(name="scale", shape=(), initializer="ones", dtype=self.dtype, trainable=True)
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight(name="concat_score_weight", shape=(), initializer="ones",
                                                       dtype=self.dtype, trainable=True)
        self.built = True

    def _calculate_scores(self, query: Any, key: Any) -> Any:
        if self.score_mode == "dot":
            scores = tf.matmul(query, tf.linalg.matrix_transpose(key))
            if self.scale is not None:
                scores = tf.multiply(scores, tf.cast(self.scale, scores.dtype))
            return scores
        q = tf.expand_dims(query, axis=-2)
        k = tf.expand_dims(key, axis=-3)
        inner = tf.cast(self.scale, q.dtype) * (q + k) if self.scale is not None else q + k
        return tf.cast(self.concat_score_weight, q.dtype) * tf.reduce_sum(tf.tanh(inner), axis=-1)

    def _apply_scores(self, scores: Any, value: Any, scores_mask: Any = None, training: Any = False) -> tuple:
        if scores_mask is not None:
            padding_mask = tf.logical_not(scores_mask)
            max_value = 65504.0 if scores.dtype == tf.float16 else 1.0e9
            if len(padding_mask.shape) == 2:
                padding_mask = tf.expand_dims(padding_mask, axis=-2)
            scores = tf.where(padding_mask, scores - max_value, scores)
        weights = tf.nn.softmax(scores, axis=-1)
        if training and self.dropout > 0:
            weights = random.dropout(weights, self.dropout, seed=self.seed_generator)
        return tf.matmul(weights, value), weights

    def _calculate_score_mask(self, scores: Any, v_mask: Any, use_causal_mask: bool) -> Any:
        if not use_causal_mask:
            return v_mask
        shape = tf.shape(scores)
        ones = tf.ones(tf.stack([1, shape[-2], shape[-1]]), dtype=tf.int32)
        causal_mask = tf.greater_equal(tf.cumsum(ones, axis=-2), tf.cumsum(ones, axis=-1))
        if v_mask is not None:
            return tf.logical_and(tf.expand_dims(v_mask, axis=-2), causal_mask)
        return causal_mask

    def call(self, inputs: Any, mask: Any = None, training: Any = False, return_attention_scores: bool = False,
             use_causal_mask: bool = False) -> Any:
        self._validate_inputs(inputs=inputs, mask=mask)
        q, v = inputs[0], inputs[1]
        k = inputs[2] if len(inputs) > 2 else v
        q_mask = mask[0] if mask else None
        v_mask = mask[1] if mask else None
        scores = self._calculate_scores(query=q, key=k)
        scores_mask = self._calculate_score_mask(scores, v_mask, use_causal_mask)
        output, attention_scores = self._apply_scores(scores=scores, value=v, scores_mask=scores_mask,
                                                      training=training)
        if q_mask is not None:
            output = tf.where(tf.expand_dims(q_mask, axis=-1), output, tf.zeros_like(output))
        return (output, attention_scores) if return_attention_scores else output

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        self._validate_inputs(inputs=inputs, mask=mask)
        if mask is None or mask[0] is None:
            return None
        return tf.convert_to_tensor(mask[0])

    def compute_output_shape(self, input_shape: Any) -> tuple:
        return (*input_shape[0][:-1], input_shape[1][-1])

    def compute_output_spec(self, inputs: Any, mask: Any = None, return_attention_scores: bool = False,
                            training: Any = None, use_causal_mask: bool = False) -> Any:
        self._validate_inputs(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        spec = KerasTensor(self.compute_output_shape([query.shape, value.shape, key.shape]), dtype=self.compute_dtype)
        if return_attention_scores:
            return spec, KerasTensor((*query.shape[:-1], key.shape[-2]), dtype=self.compute_dtype)
        return spec

    def _validate_inputs(self, inputs: Any, mask: Any = None) -> None:
        name = type(self).__name__
        if not isinstance(inputs, list):
            raise ValueError(f"{name} layer must be called on a list of inputs, namely [query, value] or [query, value, "
                             f"key]. Received: inputs={inputs}.")
        if len(inputs) < 2 or len(inputs) > 3:
            raise ValueError(f"{name} layer accepts inputs list of length 2 or 3, namely [query, value] or [query, "
                             f"value, key]. Received length: {len(inputs)}.")
        if mask is not None:
            if not isinstance(mask, list):
                raise ValueError(f"{name} layer mask must be a list, namely [query_mask, value_mask]. Received: "
                                 f"mask={mask}.")
            if len(mask) < 2 or len(mask) > 3:
                raise ValueError(f"{name} layer accepts mask list of length 2 or 3. Received: inputs={inputs}, "
                                 f"mask={mask}.")

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "use_scale": self.use_scale, "score_mode": self.score_mode,
                "dropout": self.dropout, "seed": self.seed}


class AdditiveAttention(Attention):
    """`keras.layers.AdditiveAttention(use_scale=True, dropout=0.0)`: scores `Σ scale · tanh(q + k)`
    with a trainable `scale` of the query's last dimension (glorot_uniform)."""

    def __init__(self, use_scale: bool = True, dropout: float = 0.0, **kwargs: Any) -> None:
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape: Any) -> None:
        self._validate_inputs(input_shape)
        dim = input_shape[0][-1]
        self.scale = None
        if self.use_scale:
            self.scale = self.add_weight(name="scale", shape=[dim], initializer="glorot_uniform", dtype=self.dtype,
                                         trainable=True)
        self.built = True

    def _calculate_scores(self, query: Any, key: Any) -> Any:
        q = tf.expand_dims(query, axis=-2)
        k = tf.expand_dims(key, axis=-3)
        t = tf.tanh(q + k)
        return tf.reduce_sum((tf.cast(self.scale, t.dtype) * t) if self.use_scale else t, axis=-1)

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        del config["score_mode"]
        return config
