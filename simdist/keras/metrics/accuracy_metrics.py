"""Keras 3.15's accuracy metrics (keras/src/metrics/accuracy_metrics.py): the per-sample
functions and the Mean-of-them classes Accuracy, BinaryAccuracy, CategoricalAccuracy and
SparseCategoricalAccuracy."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import config
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import squeeze_or_expand_to_same_rank
from simdist.keras.metrics.reduction_metrics import MeanMetricWrapper


def accuracy(y_true: Any, y_pred: Any) -> Any:
    """1.0 where y_pred equals y_true exactly (after matching ranks), else 0.0."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return ops.cast(tf.equal(y_true, y_pred), config.floatx())


def binary_accuracy(y_true: Any, y_pred: Any, threshold: float = 0.5) -> Any:
    """1.0 where (y_pred > threshold) equals y_true."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    threshold = ops.convert_to_tensor(threshold)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    # ops.greater compares in Keras's result type of the two (float32 threshold: a float32 or
    # wider float y_pred keeps its dtype, anything else compares as float32)
    dt = y_pred.dtype if y_pred.dtype.is_floating and y_pred.dtype.size >= threshold.dtype.size else threshold.dtype
    y_pred = ops.cast(tf.greater(ops.cast(y_pred, dt), ops.cast(threshold, dt)), y_true.dtype)
    return ops.cast(tf.equal(y_true, y_pred), config.floatx())


def categorical_accuracy(y_true: Any, y_pred: Any) -> Any:
    """1.0 where argmax(y_pred) equals argmax(y_true) (one-hot labels)."""
    y_true = ops.argmax(y_true, axis=-1)
    reshape_matches = False
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    y_true_org_shape = ops.shape(y_true)
    if len(y_true.shape) == len(y_pred.shape):
        y_true = ops.squeeze(y_true, -1)
        reshape_matches = True
    y_pred = ops.argmax(y_pred, axis=-1)
    if y_pred.dtype != y_true.dtype:
        y_pred = ops.cast(y_pred, y_true.dtype)
    matches = ops.cast(tf.equal(y_true, y_pred), config.floatx())
    if reshape_matches:
        matches = tf.reshape(matches, y_true_org_shape)
    return matches


def sparse_categorical_accuracy(y_true: Any, y_pred: Any) -> Any:
    """1.0 where argmax(y_pred) equals the integer label."""
    reshape_matches = False
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    y_true_org_shape = ops.shape(y_true)
    if len(y_true.shape) == len(y_pred.shape) and ops.shape(y_true)[-1] == 1:
        y_true = ops.squeeze(y_true, -1)
        reshape_matches = True
    y_pred = ops.argmax(y_pred, axis=-1)
    if y_pred.dtype != y_true.dtype:
        y_pred = ops.cast(y_pred, y_true.dtype)
    matches = ops.cast(tf.equal(y_true, y_pred), config.floatx())
    if reshape_matches:
        matches = tf.reshape(matches, y_true_org_shape)
    if len(matches.shape) > 1 and matches.shape[-1] == 1:
        matches = ops.squeeze(matches, -1)
    return matches


class Accuracy(MeanMetricWrapper):
    """How often predictions equal labels exactly."""

    def __init__(self, name: str = "accuracy", dtype: Any = None) -> None:
        super().__init__(fn=accuracy, name=name, dtype=dtype)
        self._direction = "up"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}


class BinaryAccuracy(MeanMetricWrapper):
    """How often thresholded predictions match binary labels."""

    def __init__(self, name: str = "binary_accuracy", dtype: Any = None, threshold: float = 0.5) -> None:
        super().__init__(fn=binary_accuracy, name=name, dtype=dtype, threshold=threshold)
        self.threshold = threshold
        self._direction = "up"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype, "threshold": self.threshold}


class CategoricalAccuracy(MeanMetricWrapper):
    """How often argmax(y_pred) matches one-hot labels."""

    def __init__(self, name: str = "categorical_accuracy", dtype: Any = None) -> None:
        super().__init__(fn=categorical_accuracy, name=name, dtype=dtype)
        self._direction = "up"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often argmax(y_pred) matches integer labels."""

    def __init__(self, name: str = "sparse_categorical_accuracy", dtype: Any = None) -> None:
        super().__init__(fn=sparse_categorical_accuracy, name=name, dtype=dtype)
        self._direction = "up"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}
