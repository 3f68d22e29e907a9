"""Keras 3.15's FBetaScore and F1Score (keras/src/metrics/f_score_metrics.py): per class (or
micro-averaged) true/false positives, false negatives and label weights, summed across replicas;
the score (1 + b^2) P R / (b^2 P + R) with Keras's epsilons, averaged as `average` says.

Predictions become 0/1 by `threshold` (y_pred > threshold) or, without one, by each row's maximum
(every entry equal to the row's max and nonzero counts as predicted). The variables are made at
the first update, from y_pred's last dimension (2D inputs only)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import config, initializers
from simdist.keras.losses import _ops as ops
from simdist.keras.metrics.metric import Metric


class FBetaScore(Metric):
    """The F-beta score of multi-class / multi-label predictions."""

    def __init__(self, average: str | None = None, beta: float = 1.0, threshold: float | None = None,
                 name: str = "fbeta_score", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: {None, 'micro', 'macro', "
                             f"'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError(f"Invalid `beta` argument value. It should be a Python float. Received: beta={beta} "
                             f"of type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError("Invalid `threshold` argument value. It should be a Python float. Received: "
                                 f"threshold={threshold} of type '{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError("Invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                                 f"Received: threshold={threshold}")
        self.average = average
        self.beta = beta
        self.threshold = threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, y_true_shape: Any, y_pred_shape: Any) -> None:
        if len(y_pred_shape) != 2 or len(y_true_shape) != 2:
            raise ValueError("FBetaScore expects 2D inputs with shape (batch_size, output_dim). Received input "
                             f"shapes: y_pred.shape={y_pred_shape} and y_true.shape={y_true_shape}.")
        shape = (int(y_pred_shape[-1]),) if self.average != "micro" else ()
        for name in ("true_positives", "false_positives", "false_negatives", "intermediate_weights"):
            setattr(self, name, self.add_variable(name=name, shape=shape, initializer=initializers.Zeros(),
                                                  dtype=self.dtype))
        self._built = True

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        y_true = ops.convert_to_tensor(y_true, dtype=self.dtype)
        y_pred = ops.convert_to_tensor(y_pred, dtype=self.dtype)
        if not self._built:
            self._build(tuple(y_true.shape), tuple(y_pred.shape))
        if self.threshold is None:
            row_max = tf.reduce_max(y_pred, axis=-1, keepdims=True)
            predicted = tf.logical_and(tf.greater_equal(y_pred, row_max), tf.greater(tf.abs(y_pred), 1e-9))
        else:
            predicted = tf.greater(y_pred, self.threshold)
        y_pred = ops.cast(predicted, self.dtype)
        if sample_weight is not None:
            sample_weight = ops.convert_to_tensor(sample_weight, dtype=self.dtype)

        def weighted_sum(val: Any) -> Any:
            if sample_weight is not None:
                val = tf.multiply(val, tf.expand_dims(sample_weight, 1))
            return tf.reduce_sum(val, axis=self.axis)

        self.true_positives.assign(self.true_positives + weighted_sum(y_pred * y_true))
        self.false_positives.assign(self.false_positives + weighted_sum(y_pred * (1 - y_true)))
        self.false_negatives.assign(self.false_negatives + weighted_sum((1 - y_pred) * y_true))
        self.intermediate_weights.assign(self.intermediate_weights + weighted_sum(y_true))

    def result(self) -> Any:
        eps = config.epsilon()
        tp, fp, fn = (ops.convert_to_tensor(v) for v in (self.true_positives, self.false_positives,
                                                          self.false_negatives))
        precision = tf.divide(tp, tp + fp + eps)
        recall = tf.divide(tp, tp + fn + eps)
        mean = tf.divide(precision * recall, ((self.beta ** 2) * precision) + recall + eps)
        f_score = mean * (1 + (self.beta ** 2))
        if self.average == "weighted":
            w = ops.convert_to_tensor(self.intermediate_weights)
            f_score = tf.reduce_sum(f_score * tf.divide(w, tf.reduce_sum(w) + eps))
        elif self.average is not None:
            f_score = tf.reduce_mean(f_score)
        return f_score

    def reset_state(self) -> None:
        for v in self.variables:
            v.assign(tf.zeros(v.shape, dtype=v.dtype))

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "name": self.name, "dtype": self.dtype, "average": self.average,
                "beta": self.beta, "threshold": self.threshold}


class F1Score(FBetaScore):
    """FBetaScore with beta = 1."""

    def __init__(self, average: str | None = None, threshold: float | None = None, name: str = "f1_score",
                 dtype: Any = None) -> None:
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        cfg = super().get_config()
        del cfg["beta"]
        return cfg
