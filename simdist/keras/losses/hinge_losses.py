"""Keras 3.15's hinge losses (keras/src/losses/losses.py): hinge, squared_hinge and
categorical_hinge, their Loss classes, and the 0/1 -> -1/1 label conversion (clauses
keras.loss.functions, keras.metric.hinge-correlation)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import Loss
from simdist.keras.losses.losses import LossFunctionWrapper


def convert_binary_labels_to_hinge(y_true: Any) -> Any:
    """0/1 labels become -1/1 when every label is 0 or 1; any other labels are kept."""
    is_binary = tf.reduce_all(tf.logical_or(tf.equal(y_true, 0), tf.equal(y_true, 1)))
    return tf.where(is_binary, 2.0 * y_true - 1.0, y_true)


def hinge(y_true: Any, y_pred: Any) -> Any:
    """mean(maximum(1 - y_true * y_pred, 0), axis=-1), binary labels mapped to -1/1."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = convert_binary_labels_to_hinge(ops.cast(y_true, y_pred.dtype))
    return ops.mean(tf.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def squared_hinge(y_true: Any, y_pred: Any) -> Any:
    """mean(square(maximum(1 - y_true * y_pred, 0)), axis=-1), binary labels mapped to -1/1."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = convert_binary_labels_to_hinge(ops.cast(y_true, y_pred.dtype))
    return ops.mean(tf.square(tf.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


def categorical_hinge(y_true: Any, y_pred: Any) -> Any:
    """maximum(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0) over the last axis."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    pos = tf.reduce_sum(y_true * y_pred, axis=-1)
    neg = tf.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return tf.maximum(neg - pos + 1.0, tf.zeros([], y_pred.dtype))


class Hinge(LossFunctionWrapper):
    """`hinge` per sample, then reduced."""

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "hinge", dtype: Any = None) -> None:
        super().__init__(hinge, name=name, reduction=reduction, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return Loss.get_config(self)


class SquaredHinge(LossFunctionWrapper):
    """`squared_hinge` per sample, then reduced."""

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "squared_hinge",
                 dtype: Any = None) -> None:
        super().__init__(squared_hinge, name=name, reduction=reduction, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return Loss.get_config(self)


class CategoricalHinge(LossFunctionWrapper):
    """`categorical_hinge` per sample, then reduced."""

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "categorical_hinge",
                 dtype: Any = None) -> None:
        super().__init__(categorical_hinge, name=name, reduction=reduction, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return Loss.get_config(self)
