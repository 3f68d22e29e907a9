"""Keras 3.15's IoU and MeanIoU (keras/src/metrics/iou_metrics.py): a (num_classes,
num_classes) confusion matrix of true rows and predicted columns, accumulated in the metric's
dtype (default "int": int64, so float sample weights are truncated, as Keras does), summed across
replicas; IoU = tp / (row sum + column sum - tp) per class, averaged over the target classes
whose denominator is nonzero. Out-of-range ids and `ignore_class` contribute nothing."""

from __future__ import annotations

import warnings
from typing import Any

from simdist import tf
from simdist.keras import config, initializers
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import squeeze_or_expand_to_same_rank
from simdist.keras.metrics.metric import Metric


def confusion_matrix(labels: Any, predictions: Any, num_classes: int, weights: Any = None,
                     dtype: Any = "int32") -> Any:
    """Keras's metrics_utils.confusion_matrix: weights (or ones) scattered (summed) at
    [label, prediction]."""
    labels = ops.convert_to_tensor(labels, dtype)
    predictions = ops.convert_to_tensor(predictions, dtype)
    labels, predictions = squeeze_or_expand_to_same_rank(labels, predictions)
    values = tf.ones_like(predictions, dtype=dtype) if weights is None else ops.cast(weights, dtype)
    indices = ops.cast(tf.stack([labels, predictions], axis=1), tf.int64)
    return tf.scatter_nd(indices, values, (int(num_classes), int(num_classes)))


class _IoUBase(Metric):
    """The confusion-matrix state and its update."""

    def __init__(self, num_classes: int, name: str | None = None, dtype: Any = None, ignore_class: int | None = None,
                 sparse_y_true: bool = True, sparse_y_pred: bool = True, axis: int = -1) -> None:
        super().__init__(name=name, dtype=dtype or "int")
        self._direction = "up"
        self.num_classes = num_classes
        self.ignore_class = ignore_class
        self.sparse_y_true = sparse_y_true
        self.sparse_y_pred = sparse_y_pred
        self.axis = axis
        self.total_cm = self.add_variable(name="total_confusion_matrix", shape=(num_classes, num_classes),
                                          initializer=initializers.Zeros(), dtype=self.dtype)

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        if not self.sparse_y_true:
            y_true = ops.argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = ops.argmax(y_pred, axis=self.axis)
        y_true = ops.convert_to_tensor(y_true, dtype=self.dtype)
        y_pred = ops.convert_to_tensor(y_pred, dtype=self.dtype)
        if len(y_pred.shape) > 1:
            y_pred = tf.reshape(y_pred, [-1])
        if len(y_true.shape) > 1:
            y_true = tf.reshape(y_true, [-1])
        if (sample_weight is not None and hasattr(sample_weight, "dtype") and "float" in str(sample_weight.dtype)
                and "int" in str(self.dtype)):
            # Keras's own warning (iou_metrics.py): the int confusion matrix truncates float weights
            warnings.warn("You are passing weight as `float`, but dtype is `int`. This may result in an incorrect "
                          "weight due to type casting Consider using integer weights.")
        sample_weight = ops.convert_to_tensor(1 if sample_weight is None else sample_weight, dtype=self.dtype)
        if len(sample_weight.shape) > 1:
            sample_weight = tf.reshape(sample_weight, [-1])
        sample_weight = ops.broadcast_to(sample_weight, ops.shape(y_true))
        n = ops.convert_to_tensor(self.num_classes, dtype=y_true.dtype)
        in_bounds = tf.logical_and(tf.logical_and(tf.greater_equal(y_true, 0), tf.less(y_true, n)),
                                   tf.logical_and(tf.greater_equal(y_pred, 0), tf.less(y_pred, n)))
        if self.ignore_class is not None:
            in_bounds = tf.logical_and(in_bounds, tf.not_equal(y_true, ops.convert_to_tensor(self.ignore_class,
                                                                                              y_true.dtype)))
        y_true = tf.where(in_bounds, y_true, tf.zeros_like(y_true))
        y_pred = tf.where(in_bounds, y_pred, tf.zeros_like(y_pred))
        sample_weight = ops.cast(tf.where(in_bounds, sample_weight, tf.zeros_like(sample_weight)), self.dtype)
        current = confusion_matrix(y_true, y_pred, self.num_classes, weights=sample_weight, dtype=self.dtype)
        self.total_cm.assign(self.total_cm + current)

    def reset_state(self) -> None:
        self.total_cm.assign(tf.zeros(self.total_cm.shape, dtype=self.total_cm.dtype))


class IoU(_IoUBase):
    """The mean IoU of the classes in `target_class_ids`."""

    def __init__(self, num_classes: int, target_class_ids: Any, name: str | None = None, dtype: Any = None,
                 ignore_class: int | None = None, sparse_y_true: bool = True, sparse_y_pred: bool = True,
                 axis: int = -1) -> None:
        super().__init__(name=name, num_classes=num_classes, ignore_class=ignore_class, sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred, axis=axis, dtype=dtype)
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which is [0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)

    def result(self) -> Any:
        cm = ops.convert_to_tensor(self.total_cm)
        sum_over_row = ops.cast(tf.reduce_sum(cm, axis=0), self.dtype)
        sum_over_col = ops.cast(tf.reduce_sum(cm, axis=1), self.dtype)
        on_diagonal = tf.cast(tf.eye(self.num_classes, dtype=tf.int32), tf.bool)
        true_positives = ops.cast(tf.reduce_sum(tf.where(on_diagonal, cm, tf.zeros_like(cm)), axis=1), self.dtype)
        denominator = sum_over_row + sum_over_col - true_positives
        ids = tf.constant(self.target_class_ids, dtype=tf.int32)
        true_positives = ops.cast(tf.gather(true_positives, ids), tf.float32)
        denominator = ops.cast(tf.gather(denominator, ids), tf.float32)
        valid = tf.greater(denominator, 1e-9)
        num_valid = tf.reduce_sum(ops.cast(valid, tf.float32))
        iou = tf.divide(true_positives, denominator + config.epsilon())
        iou = tf.where(valid, iou, tf.zeros_like(iou))
        return tf.divide(tf.reduce_sum(iou, axis=self.axis), num_valid + config.epsilon())

    def get_config(self) -> dict[str, Any]:
        return {"num_classes": self.num_classes, "target_class_ids": self.target_class_ids, "name": self.name,
                "dtype": self.dtype, "ignore_class": self.ignore_class, "sparse_y_true": self.sparse_y_true,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


class MeanIoU(IoU):
    """The mean IoU over every class."""

    def __init__(self, num_classes: int, name: str | None = None, dtype: Any = None, ignore_class: int | None = None,
                 sparse_y_true: bool = True, sparse_y_pred: bool = True, axis: int = -1) -> None:
        super().__init__(name=name, num_classes=num_classes, target_class_ids=list(range(num_classes)),
                         axis=axis, dtype=dtype, ignore_class=ignore_class, sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred)

    def get_config(self) -> dict[str, Any]:
        cfg = super().get_config()
        del cfg["target_class_ids"]
        return cfg


class BinaryIoU(IoU):
    """IoU of classes 0/1 with the predictions thresholded first (`y_pred >= threshold` -> 1,
    compared in float32, as Keras 3.15's BinaryIoU)."""

    def __init__(self, target_class_ids: Any = (0, 1), threshold: float = 0.5, name: str | None = None,
                 dtype: Any = None) -> None:
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        y_true = ops.convert_to_tensor(y_true, dtype=self.dtype)
        y_pred = ops.convert_to_tensor(y_pred, dtype="float32")
        y_pred = ops.cast(tf.greater_equal(y_pred, tf.constant(self.threshold, tf.float32)), self.dtype)
        super().update_state(y_true, y_pred, sample_weight)

    def get_config(self) -> dict[str, Any]:
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold, "name": self.name,
                "dtype": self.dtype}


class OneHotIoU(IoU):
    """IoU with one-hot `y_true` (argmax over `axis`); `y_pred` argmaxed unless `sparse_y_pred`."""

    def __init__(self, num_classes: int, target_class_ids: Any, name: str | None = None, dtype: Any = None,
                 ignore_class: int | None = None, sparse_y_pred: bool = False, axis: int = -1) -> None:
        super().__init__(num_classes=num_classes, target_class_ids=target_class_ids, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict[str, Any]:
        return {"num_classes": self.num_classes, "target_class_ids": self.target_class_ids, "name": self.name,
                "dtype": self.dtype, "ignore_class": self.ignore_class, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}


class OneHotMeanIoU(MeanIoU):
    """MeanIoU with one-hot `y_true`; `y_pred` argmaxed unless `sparse_y_pred`."""

    def __init__(self, num_classes: int, name: str | None = None, dtype: Any = None, ignore_class: int | None = None,
                 sparse_y_pred: bool = False, axis: int = -1) -> None:
        super().__init__(num_classes=num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict[str, Any]:
        return {"num_classes": self.num_classes, "name": self.name, "dtype": self.dtype,
                "ignore_class": self.ignore_class, "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}
