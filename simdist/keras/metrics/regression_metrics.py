"""Keras 3.15's regression metrics (keras/src/metrics/regression_metrics.py): means over
samples of the regression losses' per-sample values, and RootMeanSquaredError (R2Score is in
r2_score.py)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import squeeze_or_expand_to_same_rank
from simdist.keras.losses.losses import mean_absolute_error, mean_squared_error
from simdist.keras.losses.regression_losses import log_cosh, mean_absolute_percentage_error
from simdist.keras.losses.regression_losses import mean_squared_logarithmic_error
from simdist.keras.metrics.reduction_metrics import Mean, MeanMetricWrapper


class MeanSquaredError(MeanMetricWrapper):
    """The mean over samples of mean(square(y_true - y_pred), axis=-1)."""

    def __init__(self, name: str = "mean_squared_error", dtype: Any = None) -> None:
        super().__init__(fn=mean_squared_error, name=name, dtype=dtype)
        self._direction = "down"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}


class MeanAbsoluteError(MeanMetricWrapper):
    """The mean over samples of mean(abs(y_true - y_pred), axis=-1)."""

    def __init__(self, name: str = "mean_absolute_error", dtype: Any = None) -> None:
        super().__init__(mean_absolute_error, name, dtype=dtype)
        self._direction = "down"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}


class RootMeanSquaredError(Mean):
    """sqrt of the mean squared error over all values seen."""

    def __init__(self, name: str = "root_mean_squared_error", dtype: Any = None) -> None:
        super().__init__(name, dtype=dtype)
        self._direction = "down"

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        y_true = ops.convert_to_tensor(y_true, self._dtype)
        y_pred = ops.convert_to_tensor(y_pred, self._dtype)
        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        super().update_state(tf.square(y_pred - y_true), sample_weight=sample_weight)

    def result(self) -> Any:
        return tf.sqrt(super().result())


def cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Any:
    """sum(l2_normalize(y_true) * l2_normalize(y_pred), axis): the metric's similarity, +1 for
    parallel vectors (the loss of the same name is its negative)."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return tf.reduce_sum(ops.l2_normalize(y_true, axis=axis) * ops.l2_normalize(y_pred, axis=axis), axis=axis)


class MeanAbsolutePercentageError(MeanMetricWrapper):
    """The mean over samples of `mean_absolute_percentage_error`."""

    def __init__(self, name: str = "mean_absolute_percentage_error", dtype: Any = None) -> None:
        super().__init__(mean_absolute_percentage_error, name, dtype=dtype)
        self._direction = "down"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}


class MeanSquaredLogarithmicError(MeanMetricWrapper):
    """The mean over samples of `mean_squared_logarithmic_error`."""

    def __init__(self, name: str = "mean_squared_logarithmic_error", dtype: Any = None) -> None:
        super().__init__(mean_squared_logarithmic_error, name, dtype=dtype)
        self._direction = "down"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}


class CosineSimilarity(MeanMetricWrapper):
    """The mean over samples of the (positive) cosine similarity along `axis`. Like Keras 3.15,
    get_config omits `axis`."""

    def __init__(self, name: str = "cosine_similarity", dtype: Any = None, axis: int = -1) -> None:
        super().__init__(cosine_similarity, name, dtype=dtype, axis=axis)
        self._direction = "up"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}


class LogCoshError(MeanMetricWrapper):
    """The mean over samples of `log_cosh` (Keras names it "logcosh")."""

    def __init__(self, name: str = "logcosh", dtype: Any = None) -> None:
        super().__init__(log_cosh, name, dtype=dtype)
        self._direction = "down"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}
