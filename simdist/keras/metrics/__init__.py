"""`tf.keras.metrics`: Keras 3.15's metrics on simdist (clauses keras.metric.* in docs/spec.md).

Names as `tf.keras.metrics` (keras._tf_keras) exports them: the classes, the per-sample
functions (binary_accuracy, sparse_categorical_crossentropy, ...) and the legacy regression
aliases mse/mae/mape/msle/kld (and upper case), kullback_leibler_divergence and logcosh
(functions). `get` resolves strings through Keras's table of classes
(class names and their snake_case: "sparse_categorical_accuracy" and "SparseCategoricalAccuracy"
both give an instance; "mse" a MeanSquaredError; "accuracy" an Accuracy). compile() resolves
"accuracy"/"acc" itself before calling `get` (see `accuracy_variant`).
"""

from __future__ import annotations

from typing import Any

from simdist.keras.serialization import deserialize_keras_object, deserialize_with_module_objects, get_keras_object
from simdist.keras.serialization import serialize_function, serialize_keras_object
from simdist.keras.losses import losses as _loss_fns
from simdist.keras.losses.losses import binary_crossentropy, categorical_crossentropy  # noqa: F401
from simdist.keras.losses.losses import sparse_categorical_crossentropy  # noqa: F401
from simdist.keras.losses.probabilistic_losses import binary_focal_crossentropy  # noqa: F401
from simdist.keras.losses.probabilistic_losses import categorical_focal_crossentropy  # noqa: F401
from simdist.keras.losses.probabilistic_losses import kl_divergence as _kl_divergence
from simdist.keras.losses.probabilistic_losses import poisson  # noqa: F401
from simdist.keras.losses.regression_losses import huber  # noqa: F401
from simdist.keras.losses.regression_losses import log_cosh as _log_cosh
from simdist.keras.losses.regression_losses import mean_absolute_percentage_error as _mape
from simdist.keras.losses.regression_losses import mean_squared_logarithmic_error as _msle
from simdist.keras.metrics.accuracy_metrics import Accuracy
from simdist.keras.metrics.accuracy_metrics import BinaryAccuracy
from simdist.keras.metrics.accuracy_metrics import CategoricalAccuracy
from simdist.keras.metrics.accuracy_metrics import SparseCategoricalAccuracy
from simdist.keras.metrics.accuracy_metrics import SparseTopKCategoricalAccuracy
from simdist.keras.metrics.accuracy_metrics import TopKCategoricalAccuracy
from simdist.keras.metrics.accuracy_metrics import binary_accuracy  # noqa: F401
from simdist.keras.metrics.accuracy_metrics import categorical_accuracy  # noqa: F401
from simdist.keras.metrics.accuracy_metrics import sparse_categorical_accuracy  # noqa: F401
from simdist.keras.metrics.accuracy_metrics import sparse_top_k_categorical_accuracy  # noqa: F401
from simdist.keras.metrics.accuracy_metrics import top_k_categorical_accuracy  # noqa: F401
from simdist.keras.metrics.confusion_metrics import AUC
from simdist.keras.metrics.correlation_metrics import ConcordanceCorrelation
from simdist.keras.metrics.correlation_metrics import PearsonCorrelation
from simdist.keras.metrics.correlation_metrics import concordance_correlation  # noqa: F401
from simdist.keras.metrics.correlation_metrics import pearson_correlation  # noqa: F401
from simdist.keras.metrics.f_score_metrics import F1Score
from simdist.keras.metrics.f_score_metrics import FBetaScore
from simdist.keras.metrics.hinge_metrics import CategoricalHinge
from simdist.keras.metrics.hinge_metrics import Hinge
from simdist.keras.metrics.hinge_metrics import SquaredHinge
from simdist.keras.metrics.hinge_metrics import categorical_hinge  # noqa: F401
from simdist.keras.metrics.hinge_metrics import hinge  # noqa: F401
from simdist.keras.metrics.hinge_metrics import squared_hinge  # noqa: F401
from simdist.keras.metrics.iou_metrics import BinaryIoU
from simdist.keras.metrics.iou_metrics import IoU
from simdist.keras.metrics.iou_metrics import MeanIoU
from simdist.keras.metrics.iou_metrics import OneHotIoU
from simdist.keras.metrics.iou_metrics import OneHotMeanIoU
from simdist.keras.metrics.metric import Metric
from simdist.keras.metrics.precision_recall import FalseNegatives
from simdist.keras.metrics.precision_recall import FalsePositives
from simdist.keras.metrics.precision_recall import Precision
from simdist.keras.metrics.precision_recall import Recall
from simdist.keras.metrics.precision_recall import TrueNegatives
from simdist.keras.metrics.precision_recall import TruePositives
from simdist.keras.metrics.probabilistic_metrics import BinaryCrossentropy
from simdist.keras.metrics.probabilistic_metrics import CategoricalCrossentropy
from simdist.keras.metrics.probabilistic_metrics import KLDivergence
from simdist.keras.metrics.probabilistic_metrics import Poisson
from simdist.keras.metrics.probabilistic_metrics import SparseCategoricalCrossentropy
from simdist.keras.metrics.reduction_metrics import Mean
from simdist.keras.metrics.reduction_metrics import MeanMetricWrapper
from simdist.keras.metrics.reduction_metrics import Sum
from simdist.keras.metrics.sensitivity_specificity import PrecisionAtRecall
from simdist.keras.metrics.sensitivity_specificity import RecallAtPrecision
from simdist.keras.metrics.sensitivity_specificity import SensitivityAtSpecificity
from simdist.keras.metrics.sensitivity_specificity import SpecificityAtSensitivity
from simdist.keras.metrics.r2_score import R2Score
from simdist.keras.metrics.regression_metrics import CosineSimilarity
from simdist.keras.metrics.regression_metrics import LogCoshError
from simdist.keras.metrics.regression_metrics import MeanAbsoluteError
from simdist.keras.metrics.regression_metrics import MeanAbsolutePercentageError
from simdist.keras.metrics.regression_metrics import MeanSquaredLogarithmicError
from simdist.keras.metrics.regression_metrics import MeanSquaredError
from simdist.keras.metrics.regression_metrics import RootMeanSquaredError
from simdist.keras.naming import to_snake_case

MSE = mse = _loss_fns.mean_squared_error
MAE = mae = _loss_fns.mean_absolute_error
MAPE = mape = _mape
MSLE = msle = _msle
KLD = kld = kullback_leibler_divergence = _kl_divergence
logcosh = _log_cosh

ALL_OBJECTS = (
    Metric, Mean, Sum, MeanMetricWrapper,
    MeanSquaredError, RootMeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError,
    MeanSquaredLogarithmicError, CosineSimilarity, LogCoshError, R2Score,
    AUC, FalsePositives, FalseNegatives, TrueNegatives, TruePositives, Precision, Recall,
    SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall, RecallAtPrecision,
    F1Score, FBetaScore, IoU, MeanIoU, BinaryIoU, OneHotIoU, OneHotMeanIoU,
    Hinge, SquaredHinge, CategoricalHinge, PearsonCorrelation, ConcordanceCorrelation,
    KLDivergence, Poisson, BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy,
    Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
    TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy,
)
ALL_OBJECTS_DICT: dict[str, Any] = {cls.__name__: cls for cls in ALL_OBJECTS}
ALL_OBJECTS_DICT.update({to_snake_case(cls.__name__): cls for cls in ALL_OBJECTS})
ALL_OBJECTS_DICT.update({"bce": BinaryCrossentropy, "BCE": BinaryCrossentropy, "mse": MeanSquaredError,
                         "MSE": MeanSquaredError, "mae": MeanAbsoluteError, "MAE": MeanAbsoluteError,
                         "mape": MeanAbsolutePercentageError, "MAPE": MeanAbsolutePercentageError,
                         "msle": MeanSquaredLogarithmicError, "MSLE": MeanSquaredLogarithmicError})


def serialize(metric: Any) -> Any:
    """{"module", "class_name", "config", "registered_name"} for a Metric, a function's name."""
    if isinstance(metric, Metric):
        return serialize_keras_object(metric, "keras.metrics")
    return serialize_function(metric)


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The metric a `serialize` result (or a {"class_name", "config"} dict) describes."""
    decided, out = deserialize_with_module_objects(config, ALL_OBJECTS_DICT, custom_objects)
    if decided:
        return out
    return deserialize_keras_object(config, ALL_OBJECTS_DICT, "metric", custom_objects, instantiate_names=True)


def get(identifier: Any) -> Any:
    """Keras's `metrics.get`: None -> None; a class name or its snake_case (or "mse", "mae",
    "bce") -> an instance; a dict -> deserialized; a callable -> itself (a class is instantiated)."""
    return get_keras_object(identifier, ALL_OBJECTS_DICT, "metric", deserialize)


def accuracy_variant(y_true: Any, y_pred: Any) -> type:
    """Which accuracy compile() makes of "accuracy"/"acc" (Keras 3.15's compile_utils.get_metric,
    clause keras.metric.accuracy-resolution): BinaryAccuracy if y_pred's last dim is 1; else
    SparseCategoricalAccuracy if y_true has lower rank than y_pred, or its last dim is 1 while
    y_pred's is > 1; else CategoricalAccuracy. The loss plays no part (unlike tf.keras 2). The rule
    is compile's own (compile_utils.is_binary_or_sparse_categorical), so this names what compile does."""
    from simdist.keras.trainers.compile_utils import is_binary_or_sparse_categorical
    is_binary, is_sparse = is_binary_or_sparse_categorical(y_true, y_pred)
    return BinaryAccuracy if is_binary else SparseCategoricalAccuracy if is_sparse else CategoricalAccuracy


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.metrics names simdist has (one a line; clause api.namespaces)
    "AUC",
    "Accuracy",
    "BinaryAccuracy",
    "BinaryCrossentropy",
    "BinaryIoU",
    "CategoricalAccuracy",
    "CategoricalCrossentropy",
    "CategoricalHinge",
    "ConcordanceCorrelation",
    "CosineSimilarity",
    "F1Score",
    "FBetaScore",
    "FalseNegatives",
    "FalsePositives",
    "Hinge",
    "IoU",
    "KLD",
    "KLDivergence",
    "LogCoshError",
    "MAE",
    "MAPE",
    "MSE",
    "MSLE",
    "Mean",
    "MeanAbsoluteError",
    "MeanAbsolutePercentageError",
    "MeanIoU",
    "MeanMetricWrapper",
    "MeanSquaredError",
    "MeanSquaredLogarithmicError",
    "Metric",
    "OneHotIoU",
    "OneHotMeanIoU",
    "PearsonCorrelation",
    "Poisson",
    "Precision",
    "PrecisionAtRecall",
    "R2Score",
    "Recall",
    "RecallAtPrecision",
    "RootMeanSquaredError",
    "SensitivityAtSpecificity",
    "SparseCategoricalAccuracy",
    "SparseCategoricalCrossentropy",
    "SparseTopKCategoricalAccuracy",
    "SpecificityAtSensitivity",
    "SquaredHinge",
    "Sum",
    "TopKCategoricalAccuracy",
    "TrueNegatives",
    "TruePositives",
    "binary_accuracy",
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "categorical_accuracy",
    "categorical_crossentropy",
    "categorical_focal_crossentropy",
    "categorical_hinge",
    "concordance_correlation",
    "deserialize",
    "get",
    "hinge",
    "huber",
    "kld",
    "kullback_leibler_divergence",
    "logcosh",
    "mae",
    "mape",
    "mse",
    "msle",
    "pearson_correlation",
    "poisson",
    "serialize",
    "sparse_categorical_accuracy",
    "sparse_categorical_crossentropy",
    "sparse_top_k_categorical_accuracy",
    "squared_hinge",
    "top_k_categorical_accuracy",
]
__dir__ = _api.dir_of(__name__)
