"""Keras 3.15's R2Score (keras/src/metrics/regression_metrics.py): the coefficient of
determination per output column from running weighted sums, aggregated uniformly, by variance,
or not at all; optionally adjusted for `num_regressors` (clause keras.metric.r2-score)."""

from __future__ import annotations

import warnings
from typing import Any

from simdist import tf
from simdist.keras import initializers
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import squeeze_or_expand_to_same_rank
from simdist.keras.metrics.metric import Metric

_AGGREGATIONS = (None, "uniform_average", "variance_weighted_average")


class R2Score(Metric):
    """1 - SS_res / SS_tot per column of 2-D (batch, outputs) inputs; columns whose SS_tot is 0
    score 0 (an infinite raw score is replaced, 0/0 stays NaN)."""

    def __init__(self, class_aggregation: str | None = "uniform_average", num_regressors: int = 0,
                 name: str = "r2_score", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        if class_aggregation not in _AGGREGATIONS:
            raise ValueError("Invalid value for argument `class_aggregation`. Expected one of "
                             f"{_AGGREGATIONS}. Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError("Invalid value for argument `num_regressors`. Expected a value >= 0. "
                             f"Received: num_regressors={num_regressors}")
        self.class_aggregation = class_aggregation
        self.num_regressors = num_regressors
        self.num_samples = self.add_variable(shape=(), initializer=initializers.Zeros(), name="num_samples")
        self._built = False

    def _build(self, y_true_shape: Any, y_pred_shape: Any) -> None:
        if len(y_pred_shape) != 2 or len(y_true_shape) != 2:
            raise ValueError("R2Score expects 2D inputs with shape (batch_size, output_dim). Received input shapes: "
                             f"y_pred.shape={y_pred_shape} and y_true.shape={y_true_shape}.")
        if y_pred_shape[-1] is None or y_true_shape[-1] is None:
            raise ValueError("R2Score expects 2D inputs with shape (batch_size, output_dim), with output_dim fully "
                             f"defined (not None). Received input shapes: y_pred.shape={y_pred_shape} and "
                             f"y_true.shape={y_true_shape}.")
        num_classes = y_pred_shape[-1]
        for name in ("squared_sum", "sum", "total_mse", "count"):
            var_name = "residual" if name == "total_mse" else name
            setattr(self, name, self.add_variable(name=var_name, shape=[num_classes],
                                                  initializer=initializers.Zeros()))
        self._built = True

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        y_true = ops.convert_to_tensor(y_true, dtype=self._dtype)
        y_pred = ops.convert_to_tensor(y_pred, dtype=self._dtype)
        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        if not self._built:
            self._build(tuple(y_true.shape.as_list()), tuple(y_pred.shape.as_list()))
        if sample_weight is None:
            sample_weight = 1
        sample_weight = ops.convert_to_tensor(sample_weight, dtype=self.dtype)
        if len(sample_weight.shape) == 1:
            sample_weight = ops.expand_dims(sample_weight, axis=1)
        sample_weight = ops.cast(ops.broadcast_to(sample_weight, ops.shape(y_true)), y_true.dtype)
        weighted_y_true = y_true * sample_weight
        self.sum.assign(self.sum + tf.reduce_sum(weighted_y_true, axis=0))
        self.squared_sum.assign(self.squared_sum + tf.reduce_sum(y_true * weighted_y_true, axis=0))
        # Keras writes (y_true - y_pred) ** 2: the tensor's __pow__, TF's Pow kernel (Eigen's pow, not a correctly
        # rounded square) with the Python int 2 in the tensor's dtype — an int32 metric dtype computes too (asweep65)
        self.total_mse.assign(self.total_mse + tf.reduce_sum((y_true - y_pred) ** 2 * sample_weight, axis=0))
        self.count.assign(self.count + tf.reduce_sum(sample_weight, axis=0))
        size = tf.cast(tf.size(y_true), self.num_samples.dtype)
        self.num_samples.assign(self.num_samples + size)

    def result(self) -> Any:
        total_sum = ops.convert_to_tensor(self.sum)
        mean = total_sum / ops.convert_to_tensor(self.count)
        total = ops.convert_to_tensor(self.squared_sum) - total_sum * mean
        raw_scores = 1 - ops.convert_to_tensor(self.total_mse) / total
        raw_scores = tf.where(tf.math.is_inf(raw_scores), tf.zeros_like(raw_scores), raw_scores)
        if self.class_aggregation == "uniform_average":
            r2_score = tf.reduce_mean(raw_scores)
        elif self.class_aggregation == "variance_weighted_average":
            r2_score = tf.reduce_sum(total * raw_scores) / tf.reduce_sum(total)
        else:
            r2_score = raw_scores
        if self.num_regressors != 0:
            num_samples = float(ops.convert_to_tensor(self.num_samples).numpy())
            if self.num_regressors > num_samples - 1:
                warnings.warn("More independent predictors than datapoints in adjusted R2 score. Falling back to "
                              "standard R2 score.", stacklevel=2)
            elif self.num_regressors == num_samples - 1:
                warnings.warn("Division by zero in Adjusted R2 score. Falling back to standard R2 score.",
                              stacklevel=2)
            else:
                n = ops.convert_to_tensor(self.num_samples, dtype="float32")
                p = tf.constant(float(self.num_regressors), tf.float32)
                r2_score = 1.0 - (1.0 - r2_score) * (n - 1.0) / (n - p - 1.0)
        return r2_score

    def reset_state(self) -> None:
        for v in self.variables:
            v.assign(tf.zeros(v.shape, dtype=v.dtype))

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "name": self.name, "dtype": self.dtype,
                "class_aggregation": self.class_aggregation, "num_regressors": self.num_regressors}
