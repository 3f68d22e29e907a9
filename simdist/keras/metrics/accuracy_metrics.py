"""Keras 3.15's accuracy metrics (keras/src/metrics/accuracy_metrics.py): the per-sample
functions and the Mean-of-them classes Accuracy, BinaryAccuracy, CategoricalAccuracy,
SparseCategoricalAccuracy, TopKCategoricalAccuracy and SparseTopKCategoricalAccuracy."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist import tf
from simdist.keras import config, dtype_promotion
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
    if threshold.dtype == tf.string or y_pred.dtype == tf.string:   # (ops.greater's result_type: Keras's
        # promotion refuses a string dtype, ValueError; asweep65, fix65k)
        dtype_promotion.result_type(y_pred.dtype.name, threshold.dtype.name)
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


def in_top_k(targets: Any, predictions: Any, k: int) -> Any:
    """TF's `tf.math.in_top_k` (Keras's ops.in_top_k on the TF backend), from public ops: True
    where fewer than k classes score strictly above the target's (ties count for the target);
    False where the target is out of range or any of the row's scores is not finite."""
    if predictions.dtype != tf.float32 or np.ndim(k) != 0:
        # (the op's float32-only input and its 0-d k: its errors, clause keras.metric.top-k)
        return tf.math.in_top_k(ops.cast(targets, tf.int32), predictions, k)
    targets = ops.cast(targets, tf.int32)
    num_classes = int(predictions.shape[-1])
    valid = tf.logical_and(tf.greater_equal(targets, 0), tf.less(targets, num_classes))
    safe = tf.where(valid, targets, tf.zeros_like(targets))
    is_target = tf.cast(tf.one_hot(safe, num_classes, dtype=tf.int32), tf.bool)
    target_score = ops.sum(tf.where(is_target, predictions, tf.zeros_like(predictions)), axis=-1)
    above = ops.sum(ops.cast(tf.greater(predictions, tf.expand_dims(target_score, -1)), tf.int32), axis=-1)
    finite = tf.reduce_all(tf.math.is_finite(predictions), axis=-1)
    return tf.logical_and(tf.logical_and(valid, finite), tf.less(above, k))


def _flatten_for_top_k(y_true: Any, y_pred: Any) -> tuple[Any, Any, Any]:
    """y_pred as (N, classes), y_true as (N,), and y_true's shape if it had to be flattened."""
    org_shape = ops.shape(y_true)
    if len(y_pred.shape) > 2:
        y_pred = tf.reshape(y_pred, [-1, int(y_pred.shape[-1])])
    if len(y_true.shape) > 1:
        return tf.reshape(y_true, [-1]), y_pred, org_shape
    return y_true, y_pred, None


def top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5) -> Any:
    """1.0 where the one-hot label's class is among the k highest predictions."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.argmax(ops.convert_to_tensor(y_true, dtype=y_pred.dtype), axis=-1)
    y_true, y_pred, org_shape = _flatten_for_top_k(y_true, y_pred)
    matches = ops.cast(in_top_k(ops.cast(y_true, tf.int32), y_pred, k), config.floatx())
    return matches if org_shape is None else tf.reshape(matches, org_shape)


def sparse_top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5, from_sorted_ids: bool = False) -> Any:
    """1.0 where the integer label is among the k highest predictions (or, with
    from_sorted_ids, among the first k of y_pred's class ids sorted by score)."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype if from_sorted_ids else tf.int32)
    y_true, y_pred, org_shape = _flatten_for_top_k(y_true, y_pred)
    if from_sorted_ids:
        matches = tf.reduce_any(tf.equal(tf.expand_dims(y_true, 1), y_pred[:, :k]), axis=1)
    else:
        matches = in_top_k(y_true, y_pred, k)
    matches = ops.cast(matches, config.floatx())
    return matches if org_shape is None else tf.reshape(matches, org_shape)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label's class is in the top k predictions."""

    def __init__(self, k: int = 5, name: str = "top_k_categorical_accuracy", dtype: Any = None) -> None:
        super().__init__(fn=top_k_categorical_accuracy, name=name, dtype=dtype, k=k)
        self.k = k
        self._direction = "up"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype, "k": self.k}


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the integer label is in the top k predictions."""

    def __init__(self, k: int = 5, name: str = "sparse_top_k_categorical_accuracy", dtype: Any = None,
                 from_sorted_ids: bool = False) -> None:
        super().__init__(fn=sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k,
                         from_sorted_ids=from_sorted_ids)
        self.k = k
        self.from_sorted_ids = from_sorted_ids
        self._direction = "up"

    def get_config(self) -> dict[str, Any]:
        cfg: dict[str, Any] = {"name": self.name, "dtype": self.dtype, "k": self.k}
        if self.from_sorted_ids:
            cfg["from_sorted_ids"] = True
        return cfg
