"""The Keras metrics sweep's programs (test_msweep57.py, fifty-seventh session): every public `tf.keras.metrics`
class with its options crossed by rule (each option off its default, the defaults themselves, thresholds at 0, 0.5, 1
and lists, top_k/class_id, summation methods, averages, aggregations, target/ignored classes, from_logits, label
smoothing, axes, dtypes), each updated over three batches of 6, 4 and 1 rows (results after each batch), once without
and once with a sample_weight holding zeros; then the metric's variables (names, shapes, values' bits), reset_state,
and a get_config/from_config round trip updated again. Inputs hold ties at thresholds, exact 0.5, 0 and 1 scores,
integer and float labels, rank-1 labels against [n, 1] predictions, soft labels, classes absent from both sides, a
first batch with no negatives. Then the function forms (tf.keras.metrics.binary_accuracy, ...) with their options,
and compile(metrics=..., weighted_metrics=...) + fit/evaluate (the logs' per-output names and values). TF 2.21's
answers are recorded by `python -m simdist.conformance.suite.test_msweep57 --record` on this session's AVX-512 Xeon
with oneDNN on; every program is listed host-dependent (the metrics' float32 sums run through Eigen's vectorised
reductions, the fit programs through oneDNN's matmul), so simdist runs them under its reference model."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error, plain,
                                                         reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "msweep57_reference.json.gz")

REF = RecordedPrograms(PATH, ("ms-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: where simdist and TF 2.21 disagree, left out of the sweep: (program, what, evidence)
OPEN: tuple[tuple[str, str, str], ...] = (
    # (AUC(label_weights=[...]).get_config() and CosineSimilarity in ms-fit-two's evaluate, fixed by kopen58:
    # tests/keras/test_kopen58_auc_label_weights_tf.py, tests/keras/test_kopen58_graph_only_batch_tf.py)
)

#: rows of the three batches each metric is updated over
ROWS = (6, 4, 1)
C = 4   # classes of the categorical kinds


def _q(r: np.random.RandomState, shape: Any, lo: int = 0, hi: int = 8, den: float = 8.0) -> np.ndarray:
    """Scores on a grid of 1/den (ties, exact 0.5, 0 and 1)."""
    return (r.randint(lo, hi + 1, shape) / den).astype(np.float32)


def _onehot(idx: np.ndarray, c: int = C) -> np.ndarray:
    return np.eye(c, dtype=np.float32)[idx]


def _kind(kind: str, r: np.random.RandomState, n: int, b: int) -> tuple[Any, ...]:
    """(y_true, y_pred) of batch b (n rows) of a data kind (or (values,) for the one-argument reductions)."""
    if kind == "values":
        return (_q(r, (n, 2), -8, 8, 4.0),)
    if kind == "values1":
        return (_q(r, (n,), -8, 8, 4.0),)
    if kind == "values_w2":   # values of shape (n, 2, 3): a weight of shape (n,) or (n, 2) broadcast over them
        return (_q(r, (n, 2, 3), -8, 8, 4.0),)
    if kind in ("bin", "bin_r1", "bin_int", "bin_allpos"):
        yt = r.randint(0, 2, (n, 1)).astype(np.float32)
        if kind == "bin_allpos" and b == 0:
            yt[:] = 1.0
        yp = _q(r, (n, 1))
        if kind == "bin_r1":
            yt = yt[:, 0]
        if kind == "bin_int":
            yt = yt.astype(np.int32)
        return yt, yp
    if kind == "bin_soft":
        return _q(r, (n, 1), 0, 4, 4.0), _q(r, (n, 1))
    if kind == "bin_ml":
        return r.randint(0, 2, (n, 3)).astype(np.float32), _q(r, (n, 3))
    if kind == "bin_ml4":
        return r.randint(0, 2, (n, C)).astype(np.float32), _q(r, (n, C))
    if kind == "logit":
        return r.randint(0, 2, (n, 1)).astype(np.float32), _q(r, (n, 1), -8, 8, 2.0)
    if kind in ("acc_eq", "acc_r1"):
        yt = r.randint(0, 3, (n, 1)).astype(np.int32)
        return (yt[:, 0] if kind == "acc_r1" else yt), r.randint(0, 3, (n, 1)).astype(np.float32)
    if kind == "bin_wide":   # scores outside [0, 1]
        return r.randint(0, 2, (n, 1)).astype(np.float32), _q(r, (n, 1), -4, 12)
    if kind in ("cat", "cat_pos", "cat_logit"):
        yt = _onehot(r.randint(0, C, n))
        if kind == "cat":
            return yt, _q(r, (n, C))
        if kind == "cat_pos":
            return yt, _q(r, (n, C), 1, 8)
        return yt, _q(r, (n, C), -8, 8, 2.0)
    if kind in ("sparse", "sparse_col", "sparse_float", "sparse_oob", "sparse_pos", "sparse_logit"):
        yt = r.randint(0, C + 1 if kind == "sparse_oob" else C, n).astype(np.int32)
        yp = _q(r, (n, C), 1 if kind == "sparse_pos" else -8 if kind == "sparse_oob" else 0, 8)
        if kind == "sparse_logit":
            yp = _q(r, (n, C), -8, 8, 2.0)
        if kind == "sparse_col":
            yt = yt[:, None]
        if kind == "sparse_float":
            yt = yt.astype(np.float32)
        return yt, yp
    if kind == "sorted_ids":
        yt = r.randint(0, C, n).astype(np.int32)
        ids = np.stack([r.permutation(C)[:2] for _ in range(n)]).astype(np.int32)
        return yt, ids
    if kind == "reg":
        return _q(r, (n, 3), -8, 8, 4.0), r.uniform(-2.0, 2.0, (n, 3)).astype(np.float32)
    if kind == "reg_r1":
        return _q(r, (n,), -8, 8, 4.0), r.uniform(-2.0, 2.0, (n, 1)).astype(np.float32)
    if kind == "pos":
        return _q(r, (n, 3), 0, 8, 4.0), r.uniform(0.05, 3.0, (n, 3)).astype(np.float32)
    if kind == "prob":
        return _q(r, (n, 3), 0, 8, 8.0), _q(r, (n, 3), 1, 8, 8.0)
    if kind == "hinge01":
        return r.randint(0, 2, (n, 3)).astype(np.float32), _q(r, (n, 3), -8, 8, 4.0)
    if kind == "hinge_pm":
        return (r.randint(0, 2, (n, 3)) * 2 - 1).astype(np.float32), _q(r, (n, 3), -8, 8, 4.0)
    if kind == "fscore":
        yp = _q(r, (n, C), -8, 8, 8.0)
        yp[0] = -np.abs(yp[0]) - 0.125   # a row whose maximum is negative
        return r.randint(0, 2, (n, C)).astype(np.float32), yp
    if kind in ("iou_sparse", "iou_dense", "iou_both_dense"):
        yt = r.randint(0, C, n).astype(np.int32)   # class C (of C + 1) absent from both sides
        yp: Any = r.randint(0, C, n).astype(np.int32)
        if kind in ("iou_dense", "iou_both_dense"):
            yp = _q(r, (n, C + 1), 0, 8)
        if kind == "iou_both_dense":
            yt = _onehot(yt, C + 1)
        return yt, yp
    if kind == "onehot_iou":
        return _onehot(r.randint(0, C - 1, n)), _q(r, (n, C), 0, 8)
    if kind == "bin_iou":
        return r.randint(0, 2, n).astype(np.float32), _q(r, (n,))
    if kind == "corr":
        yt = _q(r, (n, 3), -8, 8, 4.0)
        return yt, (yt * 0.5 + r.uniform(-1.0, 1.0, (n, 3))).astype(np.float32)
    raise ValueError(kind)


def _weight(r: np.random.RandomState, n: int) -> np.ndarray:
    """Per-row weights in {0, 0.5, 1, 1.5} (zeros among them)."""
    w = (r.randint(0, 4, n) / 2.0).astype(np.float32)
    w[-1] = 0.0
    return w


def _var(v: Any) -> Any:
    return [str(v.name), [int(d) for d in v.shape], bits(v)]


def _result(m: Any) -> Any:
    return error(lambda: bits(m.result()))


def _run(tf: Any, cls: str, kwargs: dict[str, Any], kind: str, name: str, weighted: bool) -> Any:
    """One metric instance over the three batches: results after each, variables, reset, config round trip."""
    K = tf.keras.metrics
    r = rng(name + ("/w" if weighted else ""))
    kw = dict(kwargs)
    if "fn" in kw:
        kw["fn"] = getattr(tf.keras.metrics, kw["fn"])
    try:
        m = getattr(K, cls)(name=f"ms_{cls.lower()}", **kw)
    except Exception as e:  # noqa: BLE001 - the constructor's error class is the observation
        return f"raised {type(e).__name__}"
    out: dict[str, Any] = {"init": _result(m)}
    batches = []
    for b, n in enumerate(ROWS):
        data = _kind(kind, r, n, b)
        sw = _weight(r, n) if weighted else None
        if weighted and kind == "values_w2":
            sw = np.stack([sw, _weight(r, n)], axis=1)
        batches.append((data, sw))
        out[f"b{b}"] = error(lambda: (m.update_state(*data, sample_weight=sw), _result(m))[1])
    out["vars"] = error(lambda: [_var(v) for v in m.variables])
    out["dtype"] = str(m.dtype)
    cfg = m.get_config()
    out["config"] = plain({k: (bits(x) if hasattr(x, "numpy") else x) for k, x in cfg.items()})
    m.reset_state()
    out["reset"] = _result(m)
    out["reset_vars"] = error(lambda: [bits(v) for v in m.variables])
    m2 = getattr(K, cls).from_config(cfg)
    data, sw = batches[0]
    out["again"] = error(lambda: (m2.update_state(*data, sample_weight=sw), _result(m2))[1])
    return out


def metric_program(cls: str, kwargs: dict[str, Any], kind: str, name: str) -> Callable[[Any, Any], Any]:
    def program(tf: Any, make_strategy: Any) -> Any:
        return {"plain": _run(tf, cls, kwargs, kind, name, False), "weighted": _run(tf, cls, kwargs, kind, name, True)}
    return program


#: (class, options, data kind): every public metric class, each option off its default in turn
METRIC_CASES: tuple[tuple[str, dict[str, Any], str], ...] = (
    # reductions
    ("Mean", {}, "values"), ("Mean", {}, "values_w2"), ("Mean", {"dtype": "float64"}, "values1"), ("Sum", {}, "values"),
    ("Sum", {"dtype": "float64"}, "values1"),
    ("MeanMetricWrapper", {"fn": "mae"}, "reg"),
    ("MeanMetricWrapper", {"fn": "binary_accuracy", "threshold": 0.25}, "bin"),
    # accuracy family
    ("Accuracy", {}, "acc_eq"), ("Accuracy", {}, "acc_r1"),
    ("BinaryAccuracy", {}, "bin"), ("BinaryAccuracy", {"threshold": 0.0}, "bin"),
    ("BinaryAccuracy", {"threshold": 1.0}, "bin_r1"), ("BinaryAccuracy", {"threshold": 0.75}, "bin_int"),
    ("BinaryAccuracy", {}, "bin_ml"),
    ("CategoricalAccuracy", {}, "cat"), ("CategoricalAccuracy", {"dtype": "float64"}, "cat"),
    ("SparseCategoricalAccuracy", {}, "sparse"), ("SparseCategoricalAccuracy", {}, "sparse_col"),
    ("SparseCategoricalAccuracy", {}, "sparse_float"),
    ("TopKCategoricalAccuracy", {}, "cat"), ("TopKCategoricalAccuracy", {"k": 1}, "cat"),
    ("TopKCategoricalAccuracy", {"k": 2}, "cat"),
    ("SparseTopKCategoricalAccuracy", {}, "sparse"), ("SparseTopKCategoricalAccuracy", {"k": 1}, "sparse_oob"),
    ("SparseTopKCategoricalAccuracy", {"k": 3}, "sparse_oob"),
    ("SparseTopKCategoricalAccuracy", {"k": C}, "sparse_oob"),
    ("SparseTopKCategoricalAccuracy", {"k": 2}, "sparse_col"),
    ("SparseTopKCategoricalAccuracy", {"k": 2, "from_sorted_ids": True}, "sorted_ids"),
    # confusion counts
    ("TruePositives", {}, "bin"), ("TruePositives", {"thresholds": [0.0, 0.5, 1.0]}, "bin_ml"),
    ("FalsePositives", {"thresholds": 0.25}, "bin_int"), ("FalsePositives", {}, "bin_r1"),
    ("TrueNegatives", {"thresholds": [0.125, 0.5]}, "bin"), ("TrueNegatives", {}, "bin_soft"),
    ("FalseNegatives", {"thresholds": 1.0}, "bin"), ("FalseNegatives", {"thresholds": 0.0}, "bin_ml"),
    # precision / recall
    ("Precision", {}, "bin"), ("Precision", {"thresholds": [0.0, 0.5, 1.0]}, "bin"),
    ("Precision", {"thresholds": 0.5}, "bin_r1"), ("Precision", {"top_k": 2}, "bin_ml4"),
    ("Precision", {"class_id": 1}, "bin_ml4"), ("Precision", {"top_k": 1, "class_id": 2}, "bin_ml4"),
    ("Precision", {"thresholds": 1.0}, "bin_soft"),
    ("Recall", {}, "bin_int"), ("Recall", {"thresholds": [0.0, 0.5, 1.0]}, "bin_ml"),
    ("Recall", {"top_k": 2}, "bin_ml4"), ("Recall", {"class_id": 3, "thresholds": 0.25}, "bin_ml4"),
    ("Recall", {"thresholds": 0.0}, "bin_allpos"),
    # at-X metrics
    ("PrecisionAtRecall", {"recall": 0.5}, "bin"), ("PrecisionAtRecall", {"recall": 0.8, "num_thresholds": 3}, "bin"),
    ("PrecisionAtRecall", {"recall": 0.4, "class_id": 1}, "bin_ml4"),
    ("RecallAtPrecision", {"precision": 0.6}, "bin"), ("RecallAtPrecision", {"precision": 0.9, "num_thresholds": 5},
                                                       "bin_int"),
    ("RecallAtPrecision", {"precision": 0.5, "class_id": 2}, "bin_ml4"),
    ("SensitivityAtSpecificity", {"specificity": 0.5}, "bin"),
    ("SensitivityAtSpecificity", {"specificity": 0.7, "num_thresholds": 1}, "bin"),
    ("SensitivityAtSpecificity", {"specificity": 0.3, "class_id": 0}, "bin_ml4"),
    ("SpecificityAtSensitivity", {"sensitivity": 0.5}, "bin_r1"),
    ("SpecificityAtSensitivity", {"sensitivity": 0.9, "num_thresholds": 4}, "bin"),
    ("SpecificityAtSensitivity", {"sensitivity": 0.4, "class_id": 3}, "bin_ml4"),
    # AUC
    ("AUC", {}, "bin"), ("AUC", {}, "bin_allpos"), ("AUC", {}, "bin_soft"), ("AUC", {"curve": "PR"}, "bin"),
    ("AUC", {"curve": "PR"}, "bin_soft"), ("AUC", {"curve": "PRGAIN"}, "bin"), ("AUC", {}, "bin_wide"),
    ("AUC", {"multi_label": True, "curve": "PR"}, "bin_ml"),
    ("AUC", {"summation_method": "minoring"}, "bin"), ("AUC", {"summation_method": "majoring"}, "bin_int"),
    ("AUC", {"curve": "PR", "summation_method": "minoring"}, "bin"),
    ("AUC", {"curve": "PR", "summation_method": "majoring"}, "bin_r1"),
    ("AUC", {"num_thresholds": 3}, "bin"), ("AUC", {"thresholds": [0.25, 0.5, 0.75]}, "bin"),
    ("AUC", {"multi_label": True}, "bin_ml"),
    ("AUC", {"multi_label": True, "num_labels": 3, "label_weights": [0.5, 1.0, 2.0]}, "bin_ml"),
    ("AUC", {"multi_label": False, "label_weights": [0.5, 0.0, 2.0], "curve": "PR"}, "bin_ml"),
    ("AUC", {"multi_label": True, "label_weights": [1.5, 0.0, 0.25], "summation_method": "majoring"}, "bin_ml"),
    ("AUC", {"from_logits": True}, "logit"), ("AUC", {"from_logits": True, "curve": "PR", "num_thresholds": 7},
                                              "logit"),
    # F-scores
    ("F1Score", {}, "fscore"), ("F1Score", {"average": "micro"}, "fscore"), ("F1Score", {"average": "macro"},
                                                                           "fscore"),
    ("F1Score", {"average": "weighted"}, "fscore"), ("F1Score", {"threshold": 0.5}, "fscore"),
    ("F1Score", {"average": "macro", "threshold": 1.0}, "fscore"),
    ("FBetaScore", {"beta": 2.0}, "fscore"), ("FBetaScore", {"beta": 0.5, "average": "micro", "threshold": 0.25},
                                              "fscore"),
    ("FBetaScore", {"beta": 2.0, "average": "weighted", "threshold": 0.5}, "fscore"),
    ("FBetaScore", {"average": "macro"}, "fscore"), ("FBetaScore", {"threshold": 0.0}, "fscore"),
    ("F1Score", {"threshold": 1.5}, "fscore"), ("FBetaScore", {"beta": 0.0}, "fscore"),
    # R2
    ("R2Score", {}, "reg"), ("R2Score", {"class_aggregation": None}, "reg"),
    ("R2Score", {"class_aggregation": "variance_weighted_average"}, "reg"),
    ("R2Score", {"num_regressors": 1}, "reg"), ("R2Score", {"num_regressors": 2, "class_aggregation": None}, "reg"),
    # IoU family
    ("IoU", {"num_classes": C + 1, "target_class_ids": [0, C]}, "iou_sparse"),
    ("IoU", {"num_classes": C + 1, "target_class_ids": [1, 2], "ignore_class": 1}, "iou_sparse"),
    ("IoU", {"num_classes": C + 1, "target_class_ids": [0, 3], "sparse_y_pred": False}, "iou_dense"),
    ("IoU", {"num_classes": C + 1, "target_class_ids": [2], "sparse_y_true": False, "sparse_y_pred": False},
     "iou_both_dense"),
    ("MeanIoU", {"num_classes": C + 1}, "iou_sparse"), ("MeanIoU", {"num_classes": C + 1, "ignore_class": 0},
                                                          "iou_sparse"),
    ("MeanIoU", {"num_classes": C + 1, "sparse_y_pred": False}, "iou_dense"),
    ("BinaryIoU", {}, "bin_iou"), ("BinaryIoU", {"target_class_ids": [1], "threshold": 0.25}, "bin_iou"),
    ("BinaryIoU", {"target_class_ids": [0], "threshold": 0.75}, "bin_iou"),
    ("OneHotIoU", {"num_classes": C, "target_class_ids": [0, C - 1]}, "onehot_iou"),
    ("OneHotIoU", {"num_classes": C, "target_class_ids": [1], "ignore_class": 2}, "onehot_iou"),
    ("OneHotMeanIoU", {"num_classes": C}, "onehot_iou"),
    # regression
    ("MeanAbsoluteError", {}, "reg"), ("MeanSquaredError", {}, "reg"), ("MeanSquaredError", {}, "reg_r1"),
    ("RootMeanSquaredError", {}, "reg"), ("RootMeanSquaredError", {}, "reg_r1"),
    ("RootMeanSquaredError", {"dtype": "float64"}, "reg"),
    ("MeanAbsolutePercentageError", {}, "reg"), ("MeanSquaredLogarithmicError", {}, "pos"),
    ("CosineSimilarity", {}, "reg"), ("CosineSimilarity", {"axis": 0}, "reg"), ("LogCoshError", {}, "reg"),
    # probabilistic
    ("BinaryCrossentropy", {}, "bin"), ("BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.1},
                                        "logit"),
    ("BinaryCrossentropy", {"label_smoothing": 0.2}, "bin_ml"),
    ("CategoricalCrossentropy", {}, "cat_pos"), ("CategoricalCrossentropy", {"from_logits": True}, "cat_logit"),
    ("CategoricalCrossentropy", {"label_smoothing": 0.2}, "cat_pos"),
    ("CategoricalCrossentropy", {"axis": 0, "from_logits": True}, "cat_logit"),
    ("SparseCategoricalCrossentropy", {}, "sparse_pos"),
    ("SparseCategoricalCrossentropy", {"from_logits": True}, "sparse_logit"),
    ("SparseCategoricalCrossentropy", {}, "sparse_col"),
    ("SparseCategoricalCrossentropy", {"ignore_class": 0}, "sparse_pos"),
    ("SparseCategoricalCrossentropy", {"ignore_class": 2, "from_logits": True}, "sparse_logit"),
    ("KLDivergence", {}, "prob"), ("Poisson", {}, "pos"),
    # hinge
    ("Hinge", {}, "hinge01"), ("Hinge", {}, "hinge_pm"), ("SquaredHinge", {}, "hinge01"),
    ("SquaredHinge", {}, "hinge_pm"), ("CategoricalHinge", {}, "cat"),
    # correlation
    ("PearsonCorrelation", {}, "corr"), ("PearsonCorrelation", {"axis": 0}, "corr"),
    ("ConcordanceCorrelation", {}, "corr"), ("ConcordanceCorrelation", {"axis": 0}, "corr"),
)


def _case_name(i: int, cls: str) -> str:
    return f"ms-metric-{i:03d}-{cls}"


for _i, (_cls, _kw, _kind_) in enumerate(METRIC_CASES):
    _n = _case_name(_i, _cls)
    REF.add(_n, metric_program(_cls, _kw, _kind_, _n))


#: (function, options, data kind): the per-sample function forms
FN_CASES: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("binary_accuracy", {}, "bin"), ("binary_accuracy", {"threshold": 0.0}, "bin_ml"),
    ("binary_accuracy", {"threshold": 1.0}, "bin_r1"),
    ("categorical_accuracy", {}, "cat"), ("sparse_categorical_accuracy", {}, "sparse"),
    ("sparse_categorical_accuracy", {}, "sparse_col"),
    ("top_k_categorical_accuracy", {}, "cat"), ("top_k_categorical_accuracy", {"k": 2}, "cat"),
    ("sparse_top_k_categorical_accuracy", {"k": 1}, "sparse_oob"),
    ("sparse_top_k_categorical_accuracy", {"k": 2}, "sparse_oob"),
    ("sparse_top_k_categorical_accuracy", {"k": 2, "from_sorted_ids": True}, "sorted_ids"),
    ("binary_crossentropy", {"from_logits": True, "label_smoothing": 0.1}, "logit"),
    ("binary_crossentropy", {"axis": 0}, "bin_ml"),
    ("categorical_crossentropy", {"label_smoothing": 0.2}, "cat_pos"),
    ("sparse_categorical_crossentropy", {"from_logits": True}, "sparse_logit"),
    ("binary_focal_crossentropy", {"gamma": 3.0, "apply_class_balancing": True}, "bin_ml"),
    ("categorical_focal_crossentropy", {}, "cat_pos"),
    ("hinge", {}, "hinge01"), ("squared_hinge", {}, "hinge_pm"), ("categorical_hinge", {}, "cat"),
    ("kullback_leibler_divergence", {}, "prob"), ("kld", {}, "prob"), ("poisson", {}, "pos"), ("mse", {}, "reg"),
    ("mae", {}, "reg_r1"), ("mape", {}, "reg"), ("msle", {}, "pos"), ("logcosh", {}, "reg"),
    ("huber", {"delta": 0.5}, "reg"),
    ("pearson_correlation", {}, "corr"), ("pearson_correlation", {"axis": 0}, "corr"),
    ("concordance_correlation", {}, "corr"), ("concordance_correlation", {"axis": 0}, "corr"),
)


def fn_program(fn: str, kwargs: dict[str, Any], kind: str, name: str) -> Callable[[Any, Any], Any]:
    def program(tf: Any, make_strategy: Any) -> Any:
        r = rng(name)
        f = getattr(tf.keras.metrics, fn)
        return [error(lambda: bits(f(*_kind(kind, r, n, b), **kwargs))) for b, n in enumerate(ROWS[:2])]
    return program


for _i, (_fn, _kw, _kind_) in enumerate(FN_CASES):
    _n = f"ms-fn-{_i:02d}-{_fn}"
    REF.add(_n, fn_program(_fn, _kw, _kind_, _n))


def _v(x: Any) -> Any:
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x, dtype=np.float64)
    return [float(e).hex() for e in a.ravel()]


def _hist(h: Any) -> Any:
    return {k: [_v(e)[0] for e in h.history[k]] for k in sorted(h.history)}


def _fit_single(tf: Any, make_strategy: Any) -> Any:
    """One output: compile(metrics=[...], weighted_metrics=[...]), fit with sample weights and validation, evaluate."""
    keras = tf.keras
    r = rng("ms-fit-single")
    x = r.uniform(-1.0, 1.0, (12, 3)).astype(np.float32)
    y = r.randint(0, 2, (12, 1)).astype(np.float32)
    sw = (r.randint(0, 3, 12) / 2.0).astype(np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid", name="ms_dense")],
                             name="ms_single")
    model.set_weights([(r.uniform(-0.8, 0.8, w.shape)).astype(np.float32) for w in model.get_weights()])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="binary_crossentropy",
                  metrics=["accuracy", keras.metrics.AUC(name="ms_auc"), keras.metrics.Precision(name="ms_prec"),
                           "mse"],
                  weighted_metrics=["accuracy", keras.metrics.BinaryCrossentropy(name="ms_wbce")])
    h = model.fit(x, y, sample_weight=sw, batch_size=5, epochs=2, verbose=0, validation_data=(x[:4], y[:4], sw[:4]),
                  shuffle=False)
    ev = model.evaluate(x, y, sample_weight=sw, batch_size=5, verbose=0, return_dict=True)
    names = [m.name for m in model.metrics]
    return {"history": _hist(h), "evaluate": {k: _v(ev[k]) for k in sorted(ev)}, "metrics": names}


def _fit_two(tf: Any, make_strategy: Any) -> Any:
    """Two named outputs with per-output metric dicts and a shared weighted metric: the logs' names and values."""
    keras = tf.keras
    r = rng("ms-fit-two")
    x = r.uniform(-1.0, 1.0, (10, 3)).astype(np.float32)
    ya = r.randint(0, 3, (10,)).astype(np.int32)
    yb = r.uniform(-1.0, 1.0, (10, 2)).astype(np.float32)
    inp = keras.Input((3,), name="ms_in")
    a = keras.layers.Dense(3, activation="softmax", name="ms_a")(inp)
    b = keras.layers.Dense(2, name="ms_b")(inp)
    model = keras.Model(inp, {"ms_a": a, "ms_b": b}, name="ms_two")
    model.set_weights([(r.uniform(-0.8, 0.8, w.shape)).astype(np.float32) for w in model.get_weights()])
    model.compile(optimizer=keras.optimizers.SGD(0.05),
                  loss={"ms_a": "sparse_categorical_crossentropy", "ms_b": "mse"},
                  metrics={"ms_a": ["accuracy", keras.metrics.SparseTopKCategoricalAccuracy(k=2, name="ms_top2")],
                           "ms_b": ["mae", keras.metrics.R2Score(name="ms_r2"),
                                    keras.metrics.LogCoshError(name="ms_logcosh")]},
                  weighted_metrics={"ms_b": ["mse"]})
    h = model.fit(x, {"ms_a": ya, "ms_b": yb}, batch_size=4, epochs=2, verbose=0, shuffle=False)
    ev = model.evaluate(x, {"ms_a": ya, "ms_b": yb}, batch_size=4, verbose=0, return_dict=True)
    return {"history": _hist(h), "evaluate": {k: _v(ev[k]) for k in sorted(ev)}}


REF.add("ms-fit-single", _fit_single)
REF.add("ms-fit-two", _fit_two)
