"""Keras 3.15's confusion-matrix accumulation (keras/src/metrics/metrics_utils.py) for the
threshold metrics (AUC, Precision, Recall, the confusion counts, PrecisionAtRecall and kin):
predictions above each threshold count as positive; true/false positives/negatives are summed
(weighted) per threshold into the metric's variables. With `top_k`, only each row's k largest
predictions keep their value (the rest become -1e10, below every threshold); with `class_id`,
only that column counts.

Evenly spaced thresholds (AUC's default 200) take Keras's bucketed path: each prediction
(clipped to [0, 1]) falls in bucket ceil(p * (T - 1)) - 1 (bucket 0 when the first threshold is
below 0), the weighted labels are summed per bucket, and a reverse cumulative sum gives the
counts above each threshold. Other thresholds compare every prediction with every threshold.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

import numpy as np

from simdist import tf
from simdist.keras import config
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import squeeze_or_expand_to_same_rank

NEG_INF = -1e10


def assert_thresholds_range(thresholds: Any) -> None:
    """Every threshold must be a number in [0, 1] (Keras's message)."""
    if thresholds is not None:
        invalid = [t for t in thresholds if t is None or t < 0 or t > 1]
        if invalid:
            raise ValueError(f"Threshold values must be in [0, 1]. Received: {invalid}")


def _to_list(x: Any) -> list:
    """Keras's python_utils.to_list: a list stays, anything else (a tuple too) is wrapped."""
    return x if isinstance(x, list) else [x]


def parse_init_thresholds(thresholds: Any, default_threshold: float = 0.5) -> list:
    """The thresholds as a list (one float given: a list of it; None: [default_threshold])."""
    if thresholds is not None:
        assert_thresholds_range(_to_list(thresholds))
    return _to_list(default_threshold if thresholds is None else thresholds)


def filter_top_k(x: Any, k: int) -> Any:
    """x with all but the k largest values of each row (ties: the lower index) set to NEG_INF,
    as Keras's `_filter_top_k` (a top_k mask built from one_hot)."""
    _, top_k_idx = tf.math.top_k(x, k)
    top_k_mask = ops.sum(tf.one_hot(top_k_idx, int(x.shape[-1]), axis=-1, dtype=x.dtype), axis=-2)
    return x * top_k_mask + NEG_INF * (1 - top_k_mask)


class ConfusionMatrix(Enum):
    TRUE_POSITIVES = "tp"
    FALSE_POSITIVES = "fp"
    TRUE_NEGATIVES = "tn"
    FALSE_NEGATIVES = "fn"


class AUCCurve(Enum):
    """The curve of an AUC: ROC, PR (precision-recall) or PRGAIN."""

    ROC = "ROC"
    PR = "PR"
    PRGAIN = "PRGAIN"

    @staticmethod
    def from_str(key: str) -> "AUCCurve":
        if key in ("pr", "PR"):
            return AUCCurve.PR
        if key in ("roc", "ROC"):
            return AUCCurve.ROC
        if key in ("prgain", "PRGAIN"):
            return AUCCurve.PRGAIN
        raise ValueError(f'Invalid AUC curve value: "{key}". Expected values are ["PR", "ROC", "PRGAIN"]')


class AUCSummationMethod(Enum):
    """How the area under the curve is summed: interpolation (trapezoids), minoring, majoring."""

    INTERPOLATION = "interpolation"
    MAJORING = "majoring"
    MINORING = "minoring"

    @staticmethod
    def from_str(key: str) -> "AUCSummationMethod":
        if key in ("interpolation", "Interpolation"):
            return AUCSummationMethod.INTERPOLATION
        if key in ("majoring", "Majoring"):
            return AUCSummationMethod.MAJORING
        if key in ("minoring", "Minoring"):
            return AUCSummationMethod.MINORING
        raise ValueError(f'Invalid AUC summation method value: "{key}". Expected values are '
                         '["interpolation", "majoring", "minoring"]')


def is_evenly_distributed_thresholds(thresholds: Any) -> bool:
    """Whether thresholds are i / (n - 1) for i in 0..n-1 (within epsilon), n >= 3."""
    num_thresholds = len(thresholds)
    if num_thresholds < 3:
        return False
    even = np.arange(num_thresholds, dtype=np.float32) / (num_thresholds - 1)
    return bool(np.allclose(thresholds, even, atol=config.epsilon()))


def _flip_cumsum(x: Any) -> Any:
    """ops.flip(ops.cumsum(ops.flip(x))) along the last axis: the counts at or above each bucket."""
    return tf.math.cumsum(x[..., ::-1], axis=-1)[..., ::-1]


def _update_optimized(variables_to_update: dict, y_true: Any, y_pred: Any, thresholds: Any, multi_label: bool,
                      sample_weights: Any, label_weights: Any, thresholds_with_epsilon: bool) -> None:
    num_thresholds = int(thresholds.shape[0])
    if sample_weights is None:
        sample_weights = 1.0
    else:
        sample_weights = ops.broadcast_to(ops.cast(sample_weights, y_pred.dtype), ops.shape(y_pred))
        if not multi_label:
            sample_weights = tf.reshape(sample_weights, [-1])
    if label_weights is None:
        label_weights = 1.0
    else:
        label_weights = ops.broadcast_to(tf.expand_dims(label_weights, 0), ops.shape(y_pred))
        if not multi_label:
            label_weights = tf.reshape(label_weights, [-1])
    weights = ops.cast(tf.multiply(sample_weights, label_weights), y_true.dtype)
    y_pred = tf.clip_by_value(y_pred, 0.0, 1.0)
    y_true = ops.cast(ops.cast(y_true, tf.bool), y_true.dtype)
    if not multi_label:
        y_true = tf.reshape(y_true, [-1])
        y_pred = tf.reshape(y_pred, [-1])
    true_labels = tf.multiply(y_true, weights)
    false_labels = tf.multiply((1.0 - y_true), weights)
    bucket_indices = tf.math.ceil(y_pred * (ops.cast(num_thresholds, y_pred.dtype) - 1)) - 1
    if thresholds_with_epsilon:
        bucket_indices = tf.nn.relu(bucket_indices)
    bucket_indices = ops.cast(bucket_indices, tf.int32)
    if multi_label:
        true_labels = tf.transpose(true_labels)
        false_labels = tf.transpose(false_labels)
        bucket_indices = tf.transpose(bucket_indices)
        n = int(true_labels.shape[0])
        tp_bucket = tf.stack([tf.math.unsorted_segment_sum(true_labels[i], bucket_indices[i], num_thresholds)
                              for i in range(n)])
        fp_bucket = tf.stack([tf.math.unsorted_segment_sum(false_labels[i], bucket_indices[i], num_thresholds)
                              for i in range(n)])
        tp = tf.transpose(_flip_cumsum(tp_bucket))
        fp = tf.transpose(_flip_cumsum(fp_bucket))
    else:
        tp = _flip_cumsum(tf.math.unsorted_segment_sum(true_labels, bucket_indices, num_thresholds))
        fp = _flip_cumsum(tf.math.unsorted_segment_sum(false_labels, bucket_indices, num_thresholds))
    if ConfusionMatrix.TRUE_NEGATIVES in variables_to_update or ConfusionMatrix.FALSE_NEGATIVES in variables_to_update:
        if multi_label:
            total_true_labels = ops.sum(true_labels, axis=1)
            total_false_labels = ops.sum(false_labels, axis=1)
        else:
            total_true_labels = ops.sum(true_labels)
            total_false_labels = ops.sum(false_labels)
    if ConfusionMatrix.TRUE_POSITIVES in variables_to_update:
        v = variables_to_update[ConfusionMatrix.TRUE_POSITIVES]
        v.assign(v + tp)
    if ConfusionMatrix.FALSE_POSITIVES in variables_to_update:
        v = variables_to_update[ConfusionMatrix.FALSE_POSITIVES]
        v.assign(v + fp)
    if ConfusionMatrix.TRUE_NEGATIVES in variables_to_update:
        v = variables_to_update[ConfusionMatrix.TRUE_NEGATIVES]
        v.assign(v + (total_false_labels - fp))
    if ConfusionMatrix.FALSE_NEGATIVES in variables_to_update:
        v = variables_to_update[ConfusionMatrix.FALSE_NEGATIVES]
        v.assign(v + (total_true_labels - tp))


def update_confusion_matrix_variables(variables_to_update: dict, y_true: Any, y_pred: Any, thresholds: Any,
                                      top_k: Any = None, class_id: Any = None, sample_weight: Any = None,
                                      multi_label: bool = False, label_weights: Any = None,
                                      thresholds_distributed_evenly: bool = False) -> None:
    """Add this batch's (weighted) confusion-matrix counts per threshold to the variables."""
    if multi_label and label_weights is not None:
        raise ValueError("`label_weights` for multilabel data should be handled outside of "
                         "`update_confusion_matrix_variables` when `multi_label` is True.")
    if variables_to_update is None:
        return
    invalid = [k for k in variables_to_update if k not in list(ConfusionMatrix)]
    if len(invalid) == len(variables_to_update):
        raise ValueError("Please provide at least one valid confusion matrix variable to update. Valid variable key "
                         f'options are: "{list(ConfusionMatrix)}". Received: "{variables_to_update.keys()}"')
    if invalid:
        raise ValueError(f'Invalid keys: "{invalid}". Valid variable key options are: "{list(ConfusionMatrix)}"')
    variable_dtype = list(variables_to_update.values())[0].dtype
    y_true = ops.cast(y_true, variable_dtype)
    y_pred = ops.cast(y_pred, variable_dtype)
    thresholds_with_epsilon = False
    if thresholds_distributed_evenly:
        thresholds_with_epsilon = bool(thresholds[0] < 0.0 or thresholds[-1] > 1.0)
    thresholds_t = ops.convert_to_tensor(np.asarray(thresholds), dtype=variable_dtype)
    num_thresholds = int(thresholds_t.shape[0])
    y_pred, y_true = squeeze_or_expand_to_same_rank(y_pred, y_true)
    if sample_weight is not None:
        sample_weight = tf.expand_dims(ops.cast(sample_weight, variable_dtype), -1)
        _, sample_weight = squeeze_or_expand_to_same_rank(y_true, sample_weight, expand_rank_1=False)
    if top_k is not None:
        y_pred = filter_top_k(y_pred, top_k)
    if class_id is not None:
        if len(y_pred.shape) == 1:
            raise ValueError("When class_id is provided, y_pred must be a 2D array with shape (num_samples, "
                             f"num_classes), found shape: {y_pred.shape}")
        # (Keras indexes, then adds the axis back: class_id -1 is the last class, one past the classes is
        # StridedSlice's InvalidArgumentError; asweep65, fix65k)
        y_true = y_true[..., class_id, None]
        y_pred = y_pred[..., class_id, None]
    if thresholds_distributed_evenly:
        _update_optimized(variables_to_update, y_true, y_pred, thresholds_t, multi_label, sample_weight,
                          label_weights, thresholds_with_epsilon)
        return
    pred_shape = ops.shape(y_pred)
    num_predictions = pred_shape[0]
    num_labels = 1 if len(pred_shape) == 1 else int(np.prod(pred_shape[1:]))
    one_thresh = (len(thresholds_t.shape) == 1) if multi_label else True
    thresh_label_tile = num_labels if one_thresh else 1
    if multi_label:
        predictions_extra_dim = tf.expand_dims(y_pred, 0)
        labels_extra_dim = tf.expand_dims(ops.cast(y_true, tf.bool), 0)
        thresh_pretile_shape = [num_thresholds, 1, -1]
        thresh_tiles = [1, num_predictions, thresh_label_tile]
        data_tiles = [num_thresholds, 1, 1]
    else:
        predictions_extra_dim = tf.reshape(y_pred, [1, -1])
        labels_extra_dim = tf.reshape(ops.cast(y_true, tf.bool), [1, -1])
        thresh_pretile_shape = [num_thresholds, -1]
        thresh_tiles = [1, num_predictions * num_labels]
        data_tiles = [num_thresholds, 1]
    thresh_tiled = tf.tile(tf.reshape(thresholds_t, thresh_pretile_shape), thresh_tiles)
    preds_tiled = tf.tile(predictions_extra_dim, data_tiles)
    pred_is_pos = tf.greater(preds_tiled, thresh_tiled)
    label_is_pos = tf.tile(labels_extra_dim, data_tiles)
    if sample_weight is not None:
        sample_weight = ops.broadcast_to(ops.cast(sample_weight, y_pred.dtype), ops.shape(y_pred))
        weights_tiled: Any = tf.tile(tf.reshape(sample_weight, thresh_tiles), data_tiles)
    else:
        weights_tiled = None
    if label_weights is not None and not multi_label:
        label_weights = ops.broadcast_to(tf.expand_dims(label_weights, 0), ops.shape(y_pred))
        label_weights_tiled = tf.tile(tf.reshape(label_weights, thresh_tiles), data_tiles)
        weights_tiled = label_weights_tiled if weights_tiled is None else tf.multiply(weights_tiled,
                                                                                     label_weights_tiled)

    def weighted_assign_add(label: Any, pred: Any, weights: Any, var: Any) -> None:
        label_and_pred = tf.logical_and(label, pred)
        if weights is not None:
            result = tf.where(label_and_pred, ops.cast(weights, var.dtype), tf.zeros_like(ops.cast(weights, var.dtype)))
        else:
            result = ops.cast(label_and_pred, var.dtype)
        var.assign(var + ops.sum(result, 1))

    loop_vars = {ConfusionMatrix.TRUE_POSITIVES: (label_is_pos, pred_is_pos)}
    update_tn = ConfusionMatrix.TRUE_NEGATIVES in variables_to_update
    update_fp = ConfusionMatrix.FALSE_POSITIVES in variables_to_update
    update_fn = ConfusionMatrix.FALSE_NEGATIVES in variables_to_update
    if update_fn or update_tn:
        pred_is_neg = tf.logical_not(pred_is_pos)
        loop_vars[ConfusionMatrix.FALSE_NEGATIVES] = (label_is_pos, pred_is_neg)
    if update_fp or update_tn:
        label_is_neg = tf.logical_not(label_is_pos)
        loop_vars[ConfusionMatrix.FALSE_POSITIVES] = (label_is_neg, pred_is_pos)
        if update_tn:
            loop_vars[ConfusionMatrix.TRUE_NEGATIVES] = (label_is_neg, pred_is_neg)
    for matrix_cond, (label, pred) in loop_vars.items():
        if matrix_cond in variables_to_update:
            weighted_assign_add(label, pred, weights_tiled, variables_to_update[matrix_cond])
