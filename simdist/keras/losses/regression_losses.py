"""Keras 3.15's further regression losses (keras/src/losses/losses.py):
mean_absolute_percentage_error, mean_squared_logarithmic_error, cosine_similarity, huber,
log_cosh, and their Loss classes (clause keras.loss.functions)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import config
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import Loss, squeeze_or_expand_to_same_rank
from simdist.keras.losses.losses import LossFunctionWrapper


def _pair(y_true: Any, y_pred: Any) -> tuple[Any, Any]:
    """y_pred as a tensor, y_true in its dtype, ranks matched."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    return squeeze_or_expand_to_same_rank(y_true, y_pred)


def mean_absolute_percentage_error(y_true: Any, y_pred: Any) -> Any:
    """100 * mean(abs((y_true - y_pred) / maximum(abs(y_true), epsilon)), axis=-1)."""
    y_true, y_pred = _pair(y_true, y_pred)
    epsilon = ops.convert_to_tensor(config.epsilon(), dtype=y_pred.dtype)
    diff = tf.abs((y_true - y_pred) / tf.maximum(tf.abs(y_true), epsilon))
    return 100.0 * ops.mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true: Any, y_pred: Any) -> Any:
    """mean(square(log(maximum(y_pred, eps) + 1) - log(maximum(y_true, eps) + 1)), axis=-1)."""
    epsilon = ops.convert_to_tensor(config.epsilon())
    y_true, y_pred = _pair(y_true, y_pred)
    first_log = tf.math.log(ops.maximum(y_pred, epsilon) + 1.0)
    second_log = tf.math.log(ops.maximum(y_true, epsilon) + 1.0)
    return ops.mean(tf.square(first_log - second_log), axis=-1)


def cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Any:
    """-sum(l2_normalize(y_true) * l2_normalize(y_pred), axis): -1 for parallel vectors, 0 when
    either is zero."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_pred = ops.l2_normalize(y_pred, axis=axis)
    y_true = ops.l2_normalize(y_true, axis=axis)
    return -tf.reduce_sum(y_true * y_pred, axis=axis)


def huber(y_true: Any, y_pred: Any, delta: float = 1.0) -> Any:
    """mean over the last axis of 0.5 * e**2 where |e| <= delta, else delta * |e| - 0.5 * delta**2
    (e = y_pred - y_true)."""
    y_true, y_pred = _pair(y_true, y_pred)
    delta = ops.convert_to_tensor(delta, dtype=y_pred.dtype)
    error = y_pred - y_true
    abs_error = tf.abs(error)
    half = ops.convert_to_tensor(0.5, dtype=abs_error.dtype)
    return ops.mean(tf.where(abs_error <= delta, half * tf.square(error),
                             delta * abs_error - half * tf.square(delta)), axis=-1)


def log_cosh(y_true: Any, y_pred: Any) -> Any:
    """mean(x + softplus(-2x) - log(2), axis=-1) with x = y_pred - y_true (log(cosh(x)) without
    overflow)."""
    y_true, y_pred = _pair(y_true, y_pred)
    log2 = ops.convert_to_tensor(tf.math.log(tf.constant(2.0)), dtype=y_pred.dtype)
    x = y_pred - y_true
    return ops.mean(x + tf.math.softplus(x * -2.0) - log2, axis=-1)


class MeanAbsolutePercentageError(LossFunctionWrapper):
    """`mean_absolute_percentage_error` per sample, then reduced."""

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "mean_absolute_percentage_error",
                 dtype: Any = None) -> None:
        super().__init__(mean_absolute_percentage_error, name=name, reduction=reduction, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return Loss.get_config(self)


class MeanSquaredLogarithmicError(LossFunctionWrapper):
    """`mean_squared_logarithmic_error` per sample, then reduced."""

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "mean_squared_logarithmic_error",
                 dtype: Any = None) -> None:
        super().__init__(mean_squared_logarithmic_error, name=name, reduction=reduction, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return Loss.get_config(self)


class CosineSimilarity(LossFunctionWrapper):
    """`cosine_similarity` along `axis` per sample, then reduced. Like Keras 3.15, get_config
    omits `axis` (a round trip restores axis=-1)."""

    def __init__(self, axis: int = -1, reduction: Any = "sum_over_batch_size", name: str = "cosine_similarity",
                 dtype: Any = None) -> None:
        super().__init__(cosine_similarity, name=name, reduction=reduction, dtype=dtype, axis=axis)

    def get_config(self) -> dict[str, Any]:
        return Loss.get_config(self)


class Huber(LossFunctionWrapper):
    """`huber` with `delta` per sample, then reduced. Like Keras 3.15, get_config omits `delta`."""

    def __init__(self, delta: float = 1.0, reduction: Any = "sum_over_batch_size", name: str = "huber_loss",
                 dtype: Any = None) -> None:
        super().__init__(huber, name=name, reduction=reduction, dtype=dtype, delta=delta)

    def get_config(self) -> dict[str, Any]:
        return Loss.get_config(self)


class LogCosh(LossFunctionWrapper):
    """`log_cosh` per sample, then reduced."""

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "log_cosh", dtype: Any = None) -> None:
        super().__init__(log_cosh, name=name, reduction=reduction, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return Loss.get_config(self)
