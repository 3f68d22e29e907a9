"""Keras 3.15's constrained operating-point metrics (keras/src/metrics/confusion_metrics.py):
SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall, RecallAtPrecision.

All four accumulate tp/fp/tn/fn at `num_thresholds` thresholds (default 200: 0, 198 evenly
spaced, 1; one threshold: 0.5) and report the largest dependent rate over the thresholds whose
constrained rate is >= `value` (0 when none is), as Keras's `_find_max_under_constraint`."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import initializers
from simdist.keras.losses import _ops as ops
from simdist.keras.metrics import metrics_utils
from simdist.keras.metrics.metric import Metric

CM = metrics_utils.ConfusionMatrix


class SensitivitySpecificityBase(Metric):
    """The shared state (four confusion counts per threshold) and the constrained maximum."""

    def __init__(self, value: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        if num_thresholds <= 0:
            raise ValueError(f"Argument `num_thresholds` must be an integer > 0. Received: "
                             f"num_thresholds={num_thresholds}")
        self.value = value
        self.class_id = class_id
        if num_thresholds == 1:
            self.thresholds = [0.5]
            self._thresholds_distributed_evenly = False
        else:
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self.thresholds = [0.0] + inner + [1.0]
            self._thresholds_distributed_evenly = True
        n = len(self.thresholds)
        self.true_positives = self.add_variable(shape=(n,), initializer=initializers.Zeros(), name="true_positives")
        self.false_positives = self.add_variable(shape=(n,), initializer=initializers.Zeros(), name="false_positives")
        self.true_negatives = self.add_variable(shape=(n,), initializer=initializers.Zeros(), name="true_negatives")
        self.false_negatives = self.add_variable(shape=(n,), initializer=initializers.Zeros(), name="false_negatives")

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        metrics_utils.update_confusion_matrix_variables(
            {CM.TRUE_POSITIVES: self.true_positives, CM.TRUE_NEGATIVES: self.true_negatives,
             CM.FALSE_POSITIVES: self.false_positives, CM.FALSE_NEGATIVES: self.false_negatives},
            y_true, y_pred, thresholds=self.thresholds,
            thresholds_distributed_evenly=self._thresholds_distributed_evenly, class_id=self.class_id,
            sample_weight=sample_weight)

    def reset_state(self) -> None:
        n = len(self.thresholds)
        for v in (self.true_positives, self.false_positives, self.true_negatives, self.false_negatives):
            v.assign(tf.zeros((n,)))

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "class_id": self.class_id}

    def _rates(self) -> dict[str, Any]:
        """sensitivity (= recall), specificity and precision per threshold, each variable read once."""
        tp, fp, tn, fn = (ops.convert_to_tensor(v) for v in (self.true_positives, self.false_positives,
                                                               self.true_negatives, self.false_negatives))
        recall = ops.divide_no_nan(tp, tf.add(tp, fn))
        return {"sensitivity": recall, "recall": recall, "specificity": ops.divide_no_nan(tn, tf.add(tn, fp)),
                "precision": ops.divide_no_nan(tp, tf.add(tp, fp))}

    def _find_max_under_constraint(self, constrained: Any, dependent: Any) -> Any:
        """max(dependent where constrained >= value, else 0), and at least 0."""
        feasible = tf.greater_equal(constrained, ops.cast(self.value, constrained.dtype))
        return tf.maximum(tf.reduce_max(tf.where(feasible, dependent, tf.zeros_like(dependent))),
                          tf.zeros((), dtype=dependent.dtype))

    _constrained = ""
    _dependent = ""

    def result(self) -> Any:
        rates = self._rates()
        return self._find_max_under_constraint(rates[self._constrained], rates[self._dependent])


def _check_range(arg: str, value: float) -> None:
    if value < 0 or value > 1:
        raise ValueError(f"Argument `{arg}` must be in the range [0, 1]. Received: {arg}={value}")


class SensitivityAtSpecificity(SensitivitySpecificityBase):
    """The best sensitivity among thresholds whose specificity is >= `specificity`."""

    _constrained, _dependent = "specificity", "sensitivity"

    def __init__(self, specificity: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        _check_range("specificity", specificity)
        self.specificity = specificity
        self.num_thresholds = num_thresholds
        super().__init__(specificity, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "num_thresholds": self.num_thresholds, "specificity": self.specificity}


class SpecificityAtSensitivity(SensitivitySpecificityBase):
    """The best specificity among thresholds whose sensitivity is >= `sensitivity`."""

    _constrained, _dependent = "sensitivity", "specificity"

    def __init__(self, sensitivity: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        _check_range("sensitivity", sensitivity)
        self.sensitivity = sensitivity
        self.num_thresholds = num_thresholds
        super().__init__(sensitivity, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "num_thresholds": self.num_thresholds, "sensitivity": self.sensitivity}


class PrecisionAtRecall(SensitivitySpecificityBase):
    """The best precision among thresholds whose recall is >= `recall`."""

    _constrained, _dependent = "recall", "precision"

    def __init__(self, recall: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        _check_range("recall", recall)
        self.recall = recall
        self.num_thresholds = num_thresholds
        super().__init__(value=recall, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "num_thresholds": self.num_thresholds, "recall": self.recall}


class RecallAtPrecision(SensitivitySpecificityBase):
    """The best recall among thresholds whose precision is >= `precision` (0 if none reaches it)."""

    _constrained, _dependent = "precision", "recall"

    def __init__(self, precision: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        _check_range("precision", precision)
        self.precision = precision
        self.num_thresholds = num_thresholds
        super().__init__(value=precision, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "num_thresholds": self.num_thresholds, "precision": self.precision}
