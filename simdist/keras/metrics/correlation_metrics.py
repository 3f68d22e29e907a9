"""Keras 3.15's correlation metrics (keras/src/metrics/correlation_metrics.py): per sample, the
Pearson or concordance correlation of y_true and y_pred along `axis`, averaged over samples.

Keras's concordance covariance is (y_true - mean(y_pred)) * (y_pred - mean(y_pred)) — the
prediction's mean subtracted from both — and simdist computes the same (TF 2.21 + Keras 3.15's
values). Standard deviation and variance are the population ones (tf.math.reduce_std/variance)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import config
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import squeeze_or_expand_to_same_rank
from simdist.keras.metrics.reduction_metrics import MeanMetricWrapper


def _float(x: Any) -> Any:
    return x if x.dtype.is_floating else tf.cast(x, config.floatx())


def pearson_correlation(y_true: Any, y_pred: Any, axis: int = -1) -> Any:
    """mean(z(y_true) * z(y_pred), axis): z centres and divides by the population std."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    t = y_true - ops.mean(y_true, axis=axis, keepdims=True)
    p = y_pred - ops.mean(y_pred, axis=axis, keepdims=True)
    t = t / tf.math.reduce_std(_float(t), axis=axis, keepdims=True)
    p = p / tf.math.reduce_std(_float(p), axis=axis, keepdims=True)
    return ops.mean(t * p, axis=axis)


def concordance_correlation(y_true: Any, y_pred: Any, axis: int = -1) -> Any:
    """mean(2 * covar / (var_t + var_p + (mean_t - mean_p)^2 + epsilon), axis), Keras's covar."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    t_mean = ops.mean(y_true, axis=axis, keepdims=True)
    p_mean = ops.mean(y_pred, axis=axis, keepdims=True)
    t_var = tf.math.reduce_variance(_float(y_true - t_mean), axis=axis, keepdims=True)
    p_var = tf.math.reduce_variance(_float(y_pred - p_mean), axis=axis, keepdims=True)
    covar = (y_true - p_mean) * (y_pred - p_mean)
    norm = t_var + p_var + tf.square(t_mean - p_mean)
    return ops.mean(2 * covar / (norm + config.epsilon()), axis=axis)


class PearsonCorrelation(MeanMetricWrapper):
    """The mean over samples of `pearson_correlation`."""

    def __init__(self, name: str = "pearson_correlation", dtype: Any = None, axis: int = -1) -> None:
        super().__init__(fn=pearson_correlation, name=name, dtype=dtype, axis=axis)
        self.axis = axis
        self._direction = "up"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype, "axis": self.axis}


class ConcordanceCorrelation(MeanMetricWrapper):
    """The mean over samples of `concordance_correlation`."""

    def __init__(self, name: str = "concordance_correlation", dtype: Any = None, axis: int = -1) -> None:
        super().__init__(fn=concordance_correlation, name=name, dtype=dtype, axis=axis)
        self.axis = axis
        self._direction = "up"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype, "axis": self.axis}
