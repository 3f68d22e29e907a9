"""Keras loss and metric behaviour the suite never executed before the fifteenth session
(docs/conformance.md, "Fifteenth session: suite coverage of Keras layers, losses and metrics"):
AUC with multi_label, label_weights, uneven thresholds and the PR-gain curve, AUC's argument
errors, FBetaScore/R2Score/SensitivityAtSpecificity arguments and fallbacks, sparse accuracies on
rank-matched labels and 3-D predictions, MeanIoU with 2-D sample weights, and the crossentropies'
shape errors (TF 2.21 + Keras 3.15).

Expected values are computed here with NumPy from Keras 3.15's formulas (keras/src/metrics/,
keras/src/losses/, keras/src/backend/tensorflow/nn.py), never with the backend's implementation.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)
EPS = 1e-7   # keras.config.epsilon()


def _confusion(y_true, y_pred, thresholds, weights):
    """tp, fp, tn, fn per threshold (pred > threshold is positive), weighted."""
    pos = y_pred[None] > np.asarray(thresholds).reshape((-1,) + (1,) * y_pred.ndim)
    lab = y_true[None].astype(bool)
    w = np.broadcast_to(weights, y_pred.shape)[None]
    axes = tuple(range(1, pos.ndim))
    return (((pos & lab) * w).sum(axes), ((pos & ~lab) * w).sum(axes), ((~pos & ~lab) * w).sum(axes),
            ((~pos & lab) * w).sum(axes))


def _div(a, b):
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(b == 0, 0.0, a / np.where(b == 0, 1.0, b))


def _roc_auc(tp, fp, tn, fn):
    x, y = _div(fp, fp + tn), _div(tp, tp + fn)
    return float(np.sum((x[:-1] - x[1:]) * (y[:-1] + y[1:]) / 2))


def _prgain_auc(tp, fp, tn, fn):
    scale = _div(tp + fn, tn + fp)
    rg = np.where(tp == 0, 0.0, 1.0 - scale * _div(fn, tp))
    pg = np.where(tp == 0, 1.0, 1.0 - scale * _div(fp, tp))
    rg = np.maximum(rg, 0.0)
    return float(np.sum((rg[:-1] - rg[1:]) * (pg[:-1] + pg[1:]) / 2))


Y_TRUE = np.array([[1, 0], [0, 1], [1, 1], [0, 0], [1, 0], [0, 1]], np.float32)
Y_PRED = np.array([[0.9, 0.2], [0.35, 0.8], [0.6, 0.4], [0.1, 0.75], [0.25, 0.5], [0.8, 0.95]], np.float32)


@clause("keras.metric.auc", ref="tf221")
def test_cov14c_auc_multi_label_label_weights_uneven_thresholds(keras):
    """AUC with thresholds=[0.3, 0.7] (uneven: the tiled update): multi_label=True averages the
    per-column ROC AUCs (weighted by label_weights when given); multi_label=False with
    label_weights weighs each column's contribution to the pooled confusion counts; the
    trapezoidal ROC sum over the thresholds [-eps, 0.3, 0.7, 1 + eps]."""
    thr = [0.0 - EPS, 0.3, 0.7, 1.0 + EPS]
    per_label = [_roc_auc(*_confusion(Y_TRUE[:, j], Y_PRED[:, j], thr, 1.0)) for j in range(2)]
    lw = np.array([0.25, 0.75], np.float32)
    cases = [("AUC(thresholds=[0.3, 0.7], multi_label=True)", dict(multi_label=True), float(np.mean(per_label))),
             ("AUC(thresholds=[0.3, 0.7], multi_label=True, label_weights=[0.25, 0.75])",
              dict(multi_label=True, label_weights=lw), float(np.dot(per_label, lw) / lw.sum())),
             ("AUC(thresholds=[0.3, 0.7], label_weights=[0.25, 0.75])", dict(label_weights=lw),
              _roc_auc(*_confusion(Y_TRUE, Y_PRED, thr, lw))),
             ("AUC(thresholds=[0.3, 0.7])", {}, _roc_auc(*_confusion(Y_TRUE, Y_PRED, thr, 1.0)))]
    for call, kwargs, expected in cases:
        m = keras.metrics.AUC(thresholds=[0.3, 0.7], **kwargs)
        m.update_state(Y_TRUE, Y_PRED)
        assert_close(float(m.result()), expected, call=call, what="result()", tolerance=TOL32)
    sw = np.array([1.0, 2.0, 0.5, 1.0, 0.0, 3.0], np.float32)
    m = keras.metrics.AUC(thresholds=[0.3, 0.7], multi_label=True)
    m.update_state(Y_TRUE, Y_PRED, sample_weight=sw)
    expected = np.mean([_roc_auc(*_confusion(Y_TRUE[:, j], Y_PRED[:, j], thr, sw)) for j in range(2)])
    assert_close(float(m.result()), expected, call="AUC(thresholds=[0.3, 0.7], multi_label=True), sample_weight",
                 what="result()", tolerance=TOL32)


@clause("keras.metric.auc", ref="tf221")
def test_cov14c_auc_prgain_and_arguments(keras):
    """AUC(curve="PRGAIN") integrates precision gain over recall gain (Flach & Kull; Keras 3.15's
    formula, gains 0/1 where tp = 0) by the trapezoidal rule; AUC refuses num_thresholds <= 1,
    num_labels without multi_label, a multi-label y_pred of rank 3, an unknown curve or
    summation_method; get_config carries the given thresholds."""
    n = 5
    thr = [0.0 - EPS] + [(i + 1) / (n - 1) for i in range(n - 2)] + [1.0 + EPS]
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0], np.float32)
    p = np.array([0.95, 0.9, 0.85, 0.3, 0.8, 0.2, 0.1, 0.4], np.float32)   # recall gain > 0 at the last threshold
    m = keras.metrics.AUC(num_thresholds=n, curve="PRGAIN")
    m.update_state(y, p)
    expected = _prgain_auc(*_confusion(y, p, thr, 1.0))
    assert_close(float(m.result()), expected, call="AUC(num_thresholds=5, curve='PRGAIN')", what="result()",
                 tolerance=TOL32)
    for call, make, match in [
            ("AUC(num_thresholds=1)", lambda: keras.metrics.AUC(num_thresholds=1), "num_thresholds"),
            ("AUC(num_labels=2)", lambda: keras.metrics.AUC(num_labels=2), "num_labels"),
            ("AUC(multi_label=True, num_labels=...) of rank-3 y_pred",
             lambda: keras.metrics.AUC(multi_label=True).update_state(np.zeros((2, 2, 2)), np.zeros((2, 2, 2))),
             "rank 2"),
            ("AUC(curve='XY')", lambda: keras.metrics.AUC(curve="XY"), "curve"),
            ("AUC(summation_method='trapezoid')", lambda: keras.metrics.AUC(summation_method="trapezoid"),
             "summation method")]:
        with raises(ValueError, match=match, call=call):
            make()
    cfg = keras.metrics.AUC(thresholds=[0.3, 0.7], curve="PR", multi_label=True, num_labels=2).get_config()
    got = {k: cfg[k] for k in ("num_thresholds", "curve", "multi_label", "num_labels")}
    got["thresholds"] = [float(t) for t in cfg["thresholds"]]
    assert_equal(got, {"num_thresholds": 4, "curve": "PR", "multi_label": True, "num_labels": 2,
                       "thresholds": [0.3, 0.7]}, call="AUC(thresholds=[0.3, 0.7], curve='PR', multi_label=True, "
                 "num_labels=2).get_config()", what="config")


@clause("keras.metric.option-coverage", ref="tf221")
def test_cov14c_fbeta_r2_sensitivity_arguments_and_fallbacks(keras):
    """FBetaScore refuses an unknown average, a non-float or non-positive beta, a threshold that
    is not a float in (0, 1], and 1-D inputs; R2Score refuses num_regressors < 0 and, with
    num_regressors = n - 1, warns and returns the plain R2; SensitivityAtSpecificity refuses
    num_thresholds <= 0 and a specificity outside [0, 1]; with num_thresholds=1 its one threshold
    is 0.5; Precision(class_id) refuses a 1-D y_pred."""
    M = keras.metrics
    for call, make, match in [
            ("FBetaScore(average='mean')", lambda: M.FBetaScore(average="mean"), "average"),
            ("FBetaScore(beta=1)", lambda: M.FBetaScore(beta=1), "beta"),
            ("FBetaScore(beta=0.0)", lambda: M.FBetaScore(beta=0.0), "beta"),
            ("FBetaScore(threshold=1)", lambda: M.FBetaScore(threshold=1), "threshold"),
            ("FBetaScore(threshold=1.5)", lambda: M.FBetaScore(threshold=1.5), "threshold"),
            ("FBetaScore().update_state(1-D, 1-D)",
             lambda: M.FBetaScore().update_state(np.ones(3, np.float32), np.ones(3, np.float32)), "2D"),
            ("R2Score(num_regressors=-1)", lambda: M.R2Score(num_regressors=-1), "num_regressors"),
            ("SensitivityAtSpecificity(0.5, num_thresholds=0)",
             lambda: M.SensitivityAtSpecificity(0.5, num_thresholds=0), "num_thresholds"),
            ("SensitivityAtSpecificity(1.5)", lambda: M.SensitivityAtSpecificity(1.5), "specificity"),
            ("Precision(class_id=1).update_state(1-D)",
             lambda: M.Precision(class_id=1).update_state(np.ones(3, np.float32), np.ones(3, np.float32)),
             "class_id")]:
        with raises(ValueError, match=match, call=call):
            make()
    y = np.array([[1.0], [2.0], [4.0]], np.float32)
    p = np.array([[1.5], [1.5], [3.5]], np.float32)
    r2 = 1 - float(((y - p) ** 2).sum() / ((y - y.mean()) ** 2).sum())
    m = M.R2Score(num_regressors=2)
    m.update_state(y, p)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = float(m.result())
    assert_close(got, r2, call="R2Score(num_regressors=2) on 3 samples", what="result() (plain R2)", tolerance=TOL32)
    assert_true(any("Division by zero" in str(w.message) for w in caught),
                f"warnings {[str(w.message) for w in caught]}, but should include 'Division by zero in Adjusted R2 "
                "score'", call="R2Score(num_regressors=2) on 3 samples")
    yt = np.array([1, 1, 0, 0, 1], np.float32)
    yp = np.array([0.6, 0.4, 0.3, 0.7, 0.9], np.float32)
    m = M.SensitivityAtSpecificity(0.5, num_thresholds=1)
    m.update_state(yt, yp)
    pos = yp > 0.5
    sens = (pos & (yt == 1)).sum() / (yt == 1).sum()
    assert_close(float(m.result()), sens, call="SensitivityAtSpecificity(0.5, num_thresholds=1)",
                 what="result() (sensitivity at threshold 0.5)", tolerance=TOL32)


@clause("keras.metric.accuracy", ref="tf221")
def test_cov14c_sparse_accuracies_rank_matched_and_3d(keras):
    """sparse_categorical_accuracy of (n, 1) labels against (n, k) scores returns (n,) matches
    (the label squeezed; the matches reshaped to (n, 1), then squeezed again); SparseTopKCategoricalAccuracy of (b, t)
    labels against (b, t, k) scores flattens both; IoU-style MeanIoU with a (b, t) sample weight
    flattens it with the labels."""
    scores = np.array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.2, 0.2, 0.6], [0.3, 0.4, 0.3]], np.float32)
    labels = np.array([[1], [1], [2], [0]], np.float32)
    got = np.asarray(keras.metrics.sparse_categorical_accuracy(labels, scores))
    expected = (scores.argmax(-1) == labels[:, 0]).astype(np.float32)
    assert_close(got, expected, call="sparse_categorical_accuracy((4, 1) labels, (4, 3) scores)", what="out",
                 tolerance=TOL32)
    m = keras.metrics.SparseCategoricalAccuracy()
    m.update_state(labels, scores, sample_weight=np.array([1.0, 2.0, 1.0, 0.5], np.float32))
    w = np.array([1.0, 2.0, 1.0, 0.5])
    assert_close(float(m.result()), float((expected * w).sum() / w.sum()),
                 call="SparseCategoricalAccuracy, (4, 1) labels, sample_weight", what="result()", tolerance=TOL32)
    s3 = np.random.default_rng(4).random((2, 3, 4)).astype(np.float32)
    l3 = np.array([[0, 1, 3], [2, 2, 0]], np.int32)
    m = keras.metrics.SparseTopKCategoricalAccuracy(k=2)
    m.update_state(l3, s3)
    top2 = np.argsort(-s3, axis=-1)[..., :2]
    hits = (top2 == l3[..., None]).any(-1)
    assert_close(float(m.result()), float(hits.mean()), call="SparseTopKCategoricalAccuracy(k=2), (2, 3) labels, "
                 "(2, 3, 4) scores", what="result()", tolerance=TOL32)
    yt = np.array([[0, 1, 1], [1, 0, 1]], np.int32)
    yp = np.array([[0, 1, 0], [1, 1, 1]], np.int32)
    sw = np.array([[1.0, 2.0, 4.0], [1.0, 0.0, 3.0]], np.float32)   # whole numbers: the counts of int labels are ints
    m = keras.metrics.MeanIoU(num_classes=2)
    m.update_state(yt, yp, sample_weight=sw)
    cm = np.zeros((2, 2))
    for t, p_, w_ in zip(yt.ravel(), yp.ravel(), sw.ravel()):
        cm[t, p_] += w_
    inter = np.diag(cm)
    union = cm.sum(0) + cm.sum(1) - inter
    assert_close(float(m.result()), float(np.mean(inter / union)), call="MeanIoU(2), (2, 3) sample_weight",
                 what="result()", tolerance=TOL32)


@clause("keras.loss.shapes", ref="tf221")
def test_cov14c_crossentropy_shape_and_argument_errors(keras):
    """keras.ops.sparse_categorical_crossentropy squeezes a trailing 1 of a rank-matched target
    (same values as the (n,) target) and refuses a target of another rank or other leading dims;
    keras.ops.categorical_crossentropy refuses targets of another shape or rank 0;
    CategoricalCrossentropy/CategoricalFocalCrossentropy refuse a bool axis;
    CategoricalGeneralizedCrossEntropy q outside (0, 1); CTC targets of rank != 2 or logits of
    rank != 3."""
    probs = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]], np.float32)
    t = np.array([1, 2], np.int32)
    expected = -np.log(probs[np.arange(2), t].astype(np.float64))
    for form, target in (("(2,)", t), ("(2, 1)", t[:, None])):
        got = np.asarray(keras.ops.sparse_categorical_crossentropy(target, probs))
        assert_close(got, expected, call=f"ops.sparse_categorical_crossentropy({form} target, (2, 3) probs)",
                     what="out", tolerance=TOL32)
    for call, make, match in [
            ("ops.sparse_categorical_crossentropy((2, 2) target, (2, 3))",
             lambda: keras.ops.sparse_categorical_crossentropy(np.zeros((2, 2), np.int32), probs), "rank"),
            ("ops.sparse_categorical_crossentropy((3,) target, (2, 3))",
             lambda: keras.ops.sparse_categorical_crossentropy(np.zeros(3, np.int32), probs), "same shape"),
            ("ops.categorical_crossentropy((2, 2) target, (2, 3))",
             lambda: keras.ops.categorical_crossentropy(np.zeros((2, 2), np.float32), probs), "same shape"),
            ("ops.categorical_crossentropy((2,) target, (2, 3))",
             lambda: keras.ops.categorical_crossentropy(np.zeros(2, np.float32), probs), "same rank"),
            ("CategoricalCrossentropy(axis=True)",
             lambda: keras.losses.CategoricalCrossentropy(axis=True)(np.eye(3)[[1, 2]], probs), "axis"),
            ("CategoricalFocalCrossentropy(axis=True)",
             lambda: keras.losses.CategoricalFocalCrossentropy(axis=True)(np.eye(3)[[1, 2]], probs), "axis"),
            ("CategoricalGeneralizedCrossEntropy(q=1.5)",
             lambda: keras.losses.CategoricalGeneralizedCrossEntropy(q=1.5), "q must be"),
            ("CTC()((2,) targets, (2, 4, 3))",
             lambda: keras.losses.CTC()(np.ones(2, np.int32), np.zeros((2, 4, 3), np.float32)), "y_true"),
            ("CTC()((2, 2) targets, (2, 3) logits)",
             lambda: keras.losses.CTC()(np.ones((2, 2), np.int32), np.zeros((2, 3), np.float32)), "y_pred")]:
        with raises(ValueError, match=match, call=call):
            make()


def _metric_cases(keras):
    M = keras.metrics
    yb = np.array([[1.0], [0.0], [1.0], [0.0], [1.0]], np.float32)
    pb = np.array([[0.8], [0.35], [0.25], [0.6], [0.9]], np.float32)
    yc = np.eye(3, dtype=np.float32)[[0, 2, 1, 2, 0]]
    pc = np.array([[0.6, 0.3, 0.1], [0.2, 0.3, 0.5], [0.5, 0.4, 0.1], [0.1, 0.1, 0.8], [0.3, 0.45, 0.25]], np.float32)
    ys = np.array([0, 2, 1, 2, 0], np.int32)
    binary, onehot, sparse_ = (yb, pb), (yc, pc), (ys, pc)
    return [
        (M.Hinge(), binary, {"name": "hinge"}),
        (M.SquaredHinge(), binary, {"name": "squared_hinge"}),
        (M.CategoricalHinge(), onehot, {"name": "categorical_hinge"}),
        (M.BinaryCrossentropy(from_logits=True, label_smoothing=0.1), binary,
         {"from_logits": True, "label_smoothing": 0.1}),
        (M.CategoricalCrossentropy(label_smoothing=0.2), onehot, {"label_smoothing": 0.2, "from_logits": False}),
        (M.SparseCategoricalCrossentropy(from_logits=True), sparse_, {"from_logits": True}),
        (M.PearsonCorrelation(axis=0), (pc[:, :1], pc[:, 1:2]), {"axis": 0}),
        (M.ConcordanceCorrelation(axis=0), (pc[:, :1], pc[:, 1:2]), {"axis": 0}),
        (M.IoU(num_classes=3, target_class_ids=[0, 2]), (ys, np.array([0, 2, 2, 1, 0], np.int32)),
         {"num_classes": 3, "target_class_ids": [0, 2]}),
        (M.BinaryIoU(target_class_ids=[1], threshold=0.3), binary, {"target_class_ids": [1], "threshold": 0.3}),
        (M.OneHotIoU(num_classes=3, target_class_ids=[1]), onehot, {"num_classes": 3, "target_class_ids": [1]}),
        (M.OneHotMeanIoU(num_classes=3), onehot, {"num_classes": 3}),
        (M.MeanIoU(num_classes=3), (ys, np.array([0, 2, 2, 1, 0], np.int32)), {"num_classes": 3}),
        (M.Precision(thresholds=0.3), binary, {"thresholds": 0.3}),
        (M.Recall(top_k=2), onehot, {"top_k": 2}),
        (M.SensitivityAtSpecificity(0.5, num_thresholds=10, class_id=1), onehot,
         {"specificity": 0.5, "num_thresholds": 10, "class_id": 1}),
        (M.SpecificityAtSensitivity(0.6, num_thresholds=7), binary, {"sensitivity": 0.6, "num_thresholds": 7}),
        (M.PrecisionAtRecall(0.5, num_thresholds=9), binary, {"recall": 0.5, "num_thresholds": 9}),
        (M.RecallAtPrecision(0.5, num_thresholds=9), binary, {"precision": 0.5, "num_thresholds": 9}),
        (M.BinaryAccuracy(threshold=0.3), binary, {"threshold": 0.3}),
        (M.TopKCategoricalAccuracy(k=2), onehot, {"k": 2}),
        (M.SparseTopKCategoricalAccuracy(k=1), sparse_, {"k": 1}),
        (M.F1Score(average="macro", threshold=0.4), onehot, {"average": "macro", "threshold": 0.4}),
        (M.FBetaScore(beta=2.0, average="weighted"), onehot, {"beta": 2.0, "average": "weighted"}),
        (M.AUC(num_thresholds=7, curve="PR", multi_label=True, label_weights=[1.0, 2.0, 0.5]), onehot,
         {"num_thresholds": 7, "curve": "PR", "multi_label": True, "label_weights": [1.0, 2.0, 0.5]}),
        (M.MeanMetricWrapper(keras.losses.mae, name="wrapped"), binary,
         {"name": "wrapped", "fn": {"module": "builtins", "class_name": "function", "config": "mean_absolute_error",
                                    "registered_name": "function"}}),
    ]


@clause("keras.metric.option-coverage", ref="tf221")
def test_cov14c_metric_config_round_trip(keras):
    """Every metric's get_config carries its options (the values given to the constructor, F1Score
    without `beta`; MeanMetricWrapper's `fn` as Keras serializes a function: module "builtins", class
    "function", its name), and `from_config(get_config())` is the same metric: updated with the same
    data it gives the same result."""
    for metric, (y_true, y_pred), options in _metric_cases(keras):
        cls = type(metric)
        cfg = metric.get_config()
        call = f"{cls.__name__}.get_config()"
        got = {k: (np.asarray(cfg.get(k)).tolist() if isinstance(cfg.get(k), (list, tuple, np.ndarray))
                   else cfg.get(k)) for k in options}
        assert_equal(got, options, call=call, what="options")
        if cls.__name__ == "F1Score":
            assert_true("beta" not in cfg, f"F1Score config has beta ({sorted(cfg)})", call=call)
        copy = cls.from_config(cfg)
        metric.update_state(y_true, y_pred)
        copy.update_state(y_true, y_pred)
        assert_close(np.asarray(copy.result()), np.asarray(metric.result()), call=f"{cls.__name__}.from_config("
                     "get_config()), same update", what="result()", tolerance=TOL32)


@clause("keras.reg.get", ref="tf221")
def test_cov14c_regularizer_and_constraint_configs(keras):
    """OrthogonalRegularizer refuses a mode other than "rows"/"columns" and penalises the
    off-diagonal cosine similarities of the columns with mode="columns"; OrthogonalRegularizer's
    factor and L1's l1 are float32 tensors (their configs show float32-rounded values), L2's l2
    a Python float;
    a function constraint serializes to its name and a Constraint round-trips through its config."""
    with raises(ValueError, match="mode", call="OrthogonalRegularizer(mode='diag')"):
        keras.regularizers.OrthogonalRegularizer(mode="diag")
    w = np.array([[1.0, 2.0, 0.0], [0.5, -1.0, 3.0]], np.float32)
    reg = keras.regularizers.OrthogonalRegularizer(factor=0.1, mode="columns")
    n = w / np.linalg.norm(w, axis=0, keepdims=True)
    g = n.T @ n
    off = np.abs(g - np.diag(np.diag(g))).sum()
    # (a tensor: Keras 3.15 normalizes a NumPy array along the wrong axis for mode="columns")
    assert_close(float(reg(keras.ops.convert_to_tensor(w))), 0.1 * 0.5 * off / 3.0, call="OrthogonalRegularizer(0.1, 'columns')(w)", what="penalty",
                 tolerance=TOL32)
    assert_equal({k: float(v) if isinstance(v, (float, np.floating)) else v for k, v in reg.get_config().items()},
                 {"factor": float(np.float32(0.1)), "mode": "columns"},
                 call="OrthogonalRegularizer(0.1, 'columns').get_config()", what="config (factor kept as float32)")
    assert_equal(keras.regularizers.L1(0.1).get_config(), {"l1": float(np.float32(0.1))}, call="L1(0.1).get_config()",
                 what="config (l1 kept as a float32 tensor)")
    assert_equal(keras.regularizers.L2(0.1).get_config(), {"l2": 0.1}, call="L2(0.1).get_config()",
                 what="config (l2 kept as a Python float)")
    clipped = keras.constraints.MinMaxNorm(min_value=0.5, max_value=1.5, rate=0.5, axis=0)
    copy = keras.constraints.MinMaxNorm.from_config(clipped.get_config())
    assert_close(np.asarray(copy(w)), np.asarray(clipped(w)), call="MinMaxNorm.from_config(get_config())(w)",
                 what="out", tolerance=TOL32)
