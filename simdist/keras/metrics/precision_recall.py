"""Keras 3.15's thresholded confusion counts (keras/src/metrics/confusion_metrics.py):
TruePositives, FalsePositives, TrueNegatives, FalseNegatives, Precision and Recall.

Each keeps one accumulator entry per threshold (default 0.5; with `top_k`, -1e10, so every kept
prediction counts as positive), summed across replicas like every metric variable; the result is
a scalar for one threshold, a vector for several. Precision and Recall take `top_k` (only each
row's k largest predictions may be positive) and `class_id` (only that column counts)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import initializers
from simdist.keras.losses import _ops as ops
from simdist.keras.metrics import metrics_utils
from simdist.keras.metrics.metric import Metric

CM = metrics_utils.ConfusionMatrix


class _ConfusionMatrixConditionCount(Metric):
    """The (weighted) number of one confusion-matrix condition, per threshold."""

    def __init__(self, confusion_matrix_cond: Any, thresholds: Any = None, name: str | None = None,
                 dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self._confusion_matrix_cond = confusion_matrix_cond
        self.init_thresholds = thresholds
        self.thresholds = metrics_utils.parse_init_thresholds(thresholds, default_threshold=0.5)
        self._thresholds_distributed_evenly = metrics_utils.is_evenly_distributed_thresholds(self.thresholds)
        self.accumulator = self.add_variable(shape=(len(self.thresholds),), initializer=initializers.Zeros(),
                                             name="accumulator")

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        metrics_utils.update_confusion_matrix_variables(
            {self._confusion_matrix_cond: self.accumulator}, y_true, y_pred, thresholds=self.thresholds,
            thresholds_distributed_evenly=self._thresholds_distributed_evenly, sample_weight=sample_weight)

    def result(self) -> Any:
        value = ops.convert_to_tensor(self.accumulator)
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "thresholds": self.init_thresholds}


class FalsePositives(_ConfusionMatrixConditionCount):
    def __init__(self, thresholds: Any = None, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(CM.FALSE_POSITIVES, thresholds=thresholds, name=name, dtype=dtype)


class FalseNegatives(_ConfusionMatrixConditionCount):
    def __init__(self, thresholds: Any = None, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(CM.FALSE_NEGATIVES, thresholds=thresholds, name=name, dtype=dtype)


class TrueNegatives(_ConfusionMatrixConditionCount):
    def __init__(self, thresholds: Any = None, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(CM.TRUE_NEGATIVES, thresholds=thresholds, name=name, dtype=dtype)


class TruePositives(_ConfusionMatrixConditionCount):
    def __init__(self, thresholds: Any = None, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(CM.TRUE_POSITIVES, thresholds=thresholds, name=name, dtype=dtype)


class _PrecisionOrRecall(Metric):
    """true_positives / (true_positives + `_other`) per threshold, with top_k and class_id."""

    _other = CM.FALSE_POSITIVES

    def __init__(self, thresholds: Any = None, top_k: int | None = None, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        self.init_thresholds = thresholds
        self.top_k = top_k
        self.class_id = class_id
        default_threshold = 0.5 if top_k is None else metrics_utils.NEG_INF
        self.thresholds = metrics_utils.parse_init_thresholds(thresholds, default_threshold=default_threshold)
        self._thresholds_distributed_evenly = metrics_utils.is_evenly_distributed_thresholds(self.thresholds)
        n = len(self.thresholds)
        self.true_positives = self.add_variable(shape=(n,), initializer=initializers.Zeros(), name="true_positives")
        setattr(self, self._other_name(), self.add_variable(shape=(n,), initializer=initializers.Zeros(),
                                                            name=self._other_name()))

    def _other_name(self) -> str:
        return "false_positives" if self._other == CM.FALSE_POSITIVES else "false_negatives"

    @property
    def _other_variable(self) -> Any:
        return getattr(self, self._other_name())

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        metrics_utils.update_confusion_matrix_variables(
            {CM.TRUE_POSITIVES: self.true_positives, self._other: self._other_variable}, y_true, y_pred,
            thresholds=self.thresholds, thresholds_distributed_evenly=self._thresholds_distributed_evenly,
            top_k=self.top_k, class_id=self.class_id, sample_weight=sample_weight)

    def result(self) -> Any:
        tp = ops.convert_to_tensor(self.true_positives)
        value = ops.divide_no_nan(tp, tf.add(tp, ops.convert_to_tensor(self._other_variable)))
        return value[0] if len(self.thresholds) == 1 else value

    def reset_state(self) -> None:
        n = len(self.thresholds)
        self.true_positives.assign(tf.zeros((n,)))
        self._other_variable.assign(tf.zeros((n,)))

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "thresholds": self.init_thresholds, "top_k": self.top_k,
                "class_id": self.class_id}


class Precision(_PrecisionOrRecall):
    """The fraction of predicted positives that are positive: tp / (tp + fp)."""

    _other = CM.FALSE_POSITIVES


class Recall(_PrecisionOrRecall):
    """The fraction of positives predicted positive: tp / (tp + fn)."""

    _other = CM.FALSE_NEGATIVES
