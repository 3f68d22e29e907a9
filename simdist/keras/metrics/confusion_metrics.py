"""Keras 3.15's AUC (keras/src/metrics/confusion_metrics.py): the area under the ROC (or PR,
PRGAIN) curve, approximated from confusion matrices accumulated at `num_thresholds` thresholds
(default 200: 0 - eps, 198 evenly spaced in (0, 1), 1 + eps), summed as trapezoids
("interpolation", PR curves by Davis & Goadrich's interpolation), or as minoring/majoring
rectangles. Its four variables (true/false positives/negatives, one entry per threshold) sum
across replicas like every metric variable."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist import tf
from simdist.keras import config, initializers
from simdist.keras.losses import _ops as ops
from simdist.keras.metrics import metrics_utils
from simdist.keras.metrics.metric import Metric


class AUC(Metric):
    """Approximates the AUC of the ROC or PR curve from thresholded confusion matrices."""

    def __init__(self, num_thresholds: int = 200, curve: Any = "ROC", summation_method: Any = "interpolation",
                 name: str | None = None, dtype: Any = None, thresholds: Any = None, multi_label: bool = False,
                 num_labels: int | None = None, label_weights: Any = None, from_logits: bool = False) -> None:
        self._direction = "up"
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            thresholds = sorted(thresholds)
            self._thresholds_distributed_evenly = metrics_utils.is_evenly_distributed_thresholds(
                np.array([0.0] + thresholds + [1.0]))
        else:
            if num_thresholds <= 1:
                raise ValueError(f"Argument `num_thresholds` must be an integer > 1. Received: "
                                 f"num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self._thresholds_distributed_evenly = True
        eps = config.epsilon()
        self._thresholds = np.array([0.0 - eps] + list(thresholds) + [1.0 + eps])
        self.curve = curve if isinstance(curve, metrics_utils.AUCCurve) else metrics_utils.AUCCurve.from_str(curve)
        self.summation_method = summation_method if isinstance(summation_method, metrics_utils.AUCSummationMethod) \
            else metrics_utils.AUCSummationMethod.from_str(summation_method)
        super().__init__(name=name, dtype=dtype)
        self.multi_label = multi_label
        self.num_labels = num_labels
        # (Keras 3.15: `ops.array(label_weights, dtype=self.dtype)`; a config's serialized tensor, a dict, is its
        # ValueError "Attempt to convert a value ({...}) with an unsupported type (<class 'dict'>) to a Tensor.")
        self.label_weights = None if label_weights is None else ops.convert_to_tensor(label_weights,
                                                                                     dtype=self.dtype)
        self._from_logits = from_logits
        self._built = False
        if self.multi_label:
            if num_labels:
                self._build([None, num_labels])
        else:
            if num_labels:
                raise ValueError("`num_labels` is needed only when `multi_label` is True.")
            self._build(None)

    @property
    def thresholds(self) -> list[float]:
        """The thresholds used for evaluating AUC."""
        return list(self._thresholds)

    def _build(self, shape: Any) -> None:
        if self.multi_label:
            if len(shape) != 2:
                raise ValueError(f"`y_pred` must have rank 2 when `multi_label=True`. Found rank {len(shape)}. Full "
                                 f"shape received for `y_pred`: {shape}")
            self._num_labels = shape[1]
            variable_shape: list[int] = [self.num_thresholds, self._num_labels]
        else:
            variable_shape = [self.num_thresholds]
        self._build_input_shape = shape
        self.true_positives = self.add_variable(shape=variable_shape, initializer=initializers.Zeros(),
                                                name="true_positives")
        self.false_positives = self.add_variable(shape=variable_shape, initializer=initializers.Zeros(),
                                                 name="false_positives")
        self.true_negatives = self.add_variable(shape=variable_shape, initializer=initializers.Zeros(),
                                                name="true_negatives")
        self.false_negatives = self.add_variable(shape=variable_shape, initializer=initializers.Zeros(),
                                                 name="false_negatives")
        self._built = True

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Accumulate the confusion matrices of this batch at every threshold."""
        if not self._built:
            self._build(tuple(y_pred.shape))   # (Keras passes y_pred.shape: its rank error prints a tuple)
        label_weights = None if self.multi_label else self.label_weights
        if self._from_logits:
            y_pred = tf.sigmoid(ops.convert_to_tensor(y_pred))
        CM = metrics_utils.ConfusionMatrix
        metrics_utils.update_confusion_matrix_variables(
            {CM.TRUE_POSITIVES: self.true_positives, CM.TRUE_NEGATIVES: self.true_negatives,
             CM.FALSE_POSITIVES: self.false_positives, CM.FALSE_NEGATIVES: self.false_negatives},
            y_true, y_pred, self._thresholds, thresholds_distributed_evenly=self._thresholds_distributed_evenly,
            sample_weight=sample_weight, multi_label=self.multi_label, label_weights=label_weights)

    def _read(self) -> tuple[Any, Any, Any, Any]:
        """The four variables read once each (in cross-replica context each read is a reduction)."""
        return (ops.convert_to_tensor(self.true_positives), ops.convert_to_tensor(self.false_positives),
                ops.convert_to_tensor(self.true_negatives), ops.convert_to_tensor(self.false_negatives))

    def interpolate_pr_auc(self) -> Any:
        """The PR AUC by Davis & Goadrich's interpolation (precision varies hyperbolically between
        thresholds), as Keras computes it."""
        tps, fps, _, fns = self._read()
        n = self.num_thresholds
        dtp = tps[: n - 1] - tps[1:]
        p = tps + fps
        dp = p[: n - 1] - p[1:]
        prec_slope = ops.divide_no_nan(dtp, tf.maximum(dp, 0))
        intercept = tps[1:] - prec_slope * p[1:]
        safe_p_ratio = tf.where(tf.logical_and(p[: n - 1] > 0, p[1:] > 0),
                                ops.divide_no_nan(p[: n - 1], tf.maximum(p[1:], 0)), tf.ones_like(p[1:]))
        pr_auc_increment = ops.divide_no_nan(prec_slope * (dtp + intercept * tf.math.log(safe_p_ratio)),
                                             tf.maximum(tps[1:] + fns[1:], 0))
        if self.multi_label:
            by_label_auc = ops.sum(pr_auc_increment, axis=0)
            if self.label_weights is None:
                return ops.mean(by_label_auc)
            return ops.divide_no_nan(ops.sum(by_label_auc * self.label_weights), ops.sum(self.label_weights))
        return ops.sum(pr_auc_increment)

    def result(self) -> Any:
        AC, SM = metrics_utils.AUCCurve, metrics_utils.AUCSummationMethod
        if self.curve == AC.PR and self.summation_method == SM.INTERPOLATION:
            return self.interpolate_pr_auc()
        tps, fps, tns, fns = self._read()
        n = self.num_thresholds
        recall = ops.divide_no_nan(tps, tps + fns)
        if self.curve == AC.ROC:
            x, y = ops.divide_no_nan(fps, fps + tns), recall
        elif self.curve == AC.PR:
            x, y = recall, ops.divide_no_nan(tps, tps + fps)
        else:
            scaling_factor = ops.divide_no_nan(tps + fns, tns + fps)
            recall_gain = 1.0 - scaling_factor * ops.divide_no_nan(fns, tps)
            precision_gain = 1.0 - scaling_factor * ops.divide_no_nan(fps, tps)
            recall_gain = tf.where(tf.equal(tps, 0.0), tf.zeros_like(recall_gain), recall_gain)
            precision_gain = tf.where(tf.equal(tps, 0.0), tf.ones_like(precision_gain), precision_gain)
            recall_gain = tf.maximum(recall_gain, 0.0)
            x, y = recall_gain, precision_gain
        if self.summation_method == SM.INTERPOLATION:
            heights = (y[: n - 1] + y[1:]) / 2.0
        elif self.summation_method == SM.MINORING:
            heights = tf.minimum(y[: n - 1], y[1:])
        else:
            heights = tf.maximum(y[: n - 1], y[1:])
        riemann_terms = (x[: n - 1] - x[1:]) * heights
        if self.multi_label:
            by_label_auc = ops.sum(riemann_terms, axis=0)
            if self.label_weights is None:
                return ops.mean(by_label_auc)
            return ops.divide_no_nan(ops.sum(by_label_auc * self.label_weights), ops.sum(self.label_weights))
        return ops.sum(riemann_terms)

    def reset_state(self) -> None:
        if self._built:
            shape = (self.num_thresholds, self._num_labels) if self.multi_label else (self.num_thresholds,)
            for v in (self.true_positives, self.false_positives, self.true_negatives, self.false_negatives):
                v.assign(tf.zeros(shape))

    def get_config(self) -> dict[str, Any]:
        label_weights = self.label_weights
        cfg: dict[str, Any] = {"num_thresholds": self.num_thresholds, "curve": self.curve.value,
                               "summation_method": self.summation_method.value, "multi_label": self.multi_label,
                               "num_labels": self.num_labels,
                               "label_weights": label_weights,   # (the tensor itself, as Keras 3.15 gives it)
                               "from_logits": self._from_logits}
        if self._init_from_thresholds:
            cfg["thresholds"] = self.thresholds[1:-1]
        return {**super().get_config(), **cfg}
